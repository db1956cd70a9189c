/* kinds_reference: the engine's answers per access kind before the kinds table (frozen). */
#ifndef BANKSCOPE_KINDS_REFERENCE_H
#define BANKSCOPE_KINDS_REFERENCE_H

#include "banks_reference.h"
#include "model/banks.h"

/* What banks_request_problem answered. */
const char *kinds_reference_problem(const banks_request *req);
/* What banks_analyze answered (loads and stores: banks_reference_analyze). */
void kinds_reference_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells);
/* What banks_issue_cycles answered. */
double kinds_reference_cycles(const banks_profile *p, const banks_request *req, const banks_result *r,
                              bool register_data);

#endif
