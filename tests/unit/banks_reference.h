/* banks_reference: the original bank engine, the reference for the fast one. */
#ifndef BANKSCOPE_BANKS_REFERENCE_H
#define BANKSCOPE_BANKS_REFERENCE_H

#include "model/banks.h"

/* Same contract as banks_analyze. */
void banks_reference_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells);

#endif
