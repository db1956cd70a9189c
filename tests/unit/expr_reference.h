/* expr_reference: the recursive tree evaluator the compiled expressions are checked against. */
#ifndef BANKSCOPE_EXPR_REFERENCE_H
#define BANKSCOPE_EXPR_REFERENCE_H

#include "model/expr.h"

/* Evaluate e's tree directly; same contract as expr_eval. */
expr_status expr_reference_eval(const expr *e, const expr_env *env, int64_t *out, int *pos);

/* xorshift: the same sequence on every run. */
uint64_t expr_reference_rnd(void);
/* Append a random expression over every operator, variable and some edge constants. */
void expr_reference_random(strbuf *sb, int depth);

#endif
