/* expr_reference: the recursive tree evaluator the compiled expressions are checked against. */
#ifndef BANKSCOPE_EXPR_REFERENCE_H
#define BANKSCOPE_EXPR_REFERENCE_H

#include "model/expr.h"

/* Evaluate e's tree directly; same contract as expr_eval. */
expr_status expr_reference_eval(const expr *e, const expr_env *env, int64_t *out, int *pos);

#endif
