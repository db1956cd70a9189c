/* expr: index expressions. Text -> AST (with the byte offset of every node for messages) ->
 * a checked 64-bit evaluator (division by zero, overflow and bad shifts are errors, never
 * undefined behaviour) -> CUDA source (emitted from the AST, so no user text reaches a kernel).
 *
 * Grammar (C precedence): || && | ^ & (== !=) (< <= > >=) (<< >>) (+ -) (* / %) unary(- ~ !),
 * primary: integer (decimal or 0x), identifier, min(a,b), max(a,b), ( expr ).
 * Identifiers: threadIdx.x/y/z (tx ty tz), blockDim.x/y/z, lane, warp, tid (linear thread id),
 * warpSize, and the scenario's loop variable. */
#ifndef BANKSCOPE_EXPR_H
#define BANKSCOPE_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "../util.h"

typedef enum expr_var {
    EXPR_TX, EXPR_TY, EXPR_TZ, EXPR_BDX, EXPR_BDY, EXPR_BDZ,
    EXPR_LANE, EXPR_WARP, EXPR_TID, EXPR_LOOP, EXPR_NVARS
} expr_var;

typedef enum expr_kind { EXPR_NUM, EXPR_VAR, EXPR_UNARY, EXPR_BINARY, EXPR_CALL } expr_kind;

typedef enum expr_op {
    EXPR_NEG, EXPR_BNOT, EXPR_LNOT,
    EXPR_MUL, EXPR_DIV, EXPR_MOD, EXPR_ADD, EXPR_SUB, EXPR_SHL, EXPR_SHR,
    EXPR_LT, EXPR_LE, EXPR_GT, EXPR_GE, EXPR_EQ, EXPR_NE,
    EXPR_AND, EXPR_XOR, EXPR_OR, EXPR_LAND, EXPR_LOR, EXPR_MIN, EXPR_MAX
} expr_op;

typedef struct expr_node {
    expr_kind kind;
    int op;          /* expr_op, or expr_var for EXPR_VAR */
    int64_t value;   /* EXPR_NUM */
    int a, b;        /* children (node indices), -1 when absent */
    int pos;         /* byte offset in the source text */
} expr_node;

/* A parsed expression; owns its nodes and a copy of its text. */
typedef struct expr {
    expr_node *nodes;
    int n, cap;
    int root;
    char *text;
} expr;

#define EXPR_MAX_DEPTH 200   /* nesting limit: deeper input is an error, not a stack overflow */

typedef struct expr_error {
    int pos;                 /* byte offset of the offending character */
    char msg[160];
} expr_error;

/* Parse text; loop_var names the scenario's loop variable (NULL or "" for none). */
bool expr_parse(const char *text, const char *loop_var, expr *out, expr_error *err);
void expr_free(expr *e);

typedef struct expr_env {
    int64_t v[EXPR_NVARS];
} expr_env;

typedef enum expr_status { EXPR_OK, EXPR_DIV_ZERO, EXPR_OVERFLOW, EXPR_BAD_SHIFT } expr_status;

/* Evaluate; on failure *pos is the offending operator's offset. */
expr_status expr_eval(const expr *e, const expr_env *env, int64_t *out, int *pos);
const char *expr_status_text(expr_status s);
/* True when the expression reads variable v. */
bool expr_uses(const expr *e, expr_var v);
/* Emit CUDA C (64-bit arithmetic); names[v] is the source text for variable v. */
void expr_emit_cuda(const expr *e, const char *const names[EXPR_NVARS], strbuf *out);

#endif
