/* banks_tensor: the bank rules of the access kinds other than loads and stores (kinds.h rules
 * MATRIX and LANES: ldmatrix, stmatrix, shared atomics, cp.async) and the answer for kinds the
 * model does not cover (NOT_MODELLED: cp.async.cg), called by banks_analyze and
 * banks_issue_cycles for those ops. Internal to the model: everything else goes through banks.h.
 * Pure: no globals, no I/O, no allocation. */
#ifndef BANKSCOPE_BANKS_TENSOR_H
#define BANKSCOPE_BANKS_TENSOR_H

#include "banks.h"

/* True for the ops handled here: every kind whose rule (kinds.h) is not KINDS_RULE_WORDS. */
bool banks_tensor_op(banks_op op);
/* banks_analyze for a tensor-era request (out and cells as banks_analyze; cells already zeroed). */
void banks_tensor_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells);
/* Throughput cycles per SM of a tensor-era request analysed as r. */
double banks_tensor_cycles(const banks_profile *p, const banks_request *req, const banks_result *r);

#endif
