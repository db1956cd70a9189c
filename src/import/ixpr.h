/* ixpr: the expression trees the importer builds from C++ source before they become bankscope
 * expression text. Nodes live in an arena (ixpr_arena) that owns them all; constructors fold
 * constant operands with bankscope's checked 64-bit arithmetic (an operation that would fail,
 * such as a division by zero, stays unfolded so that analyze reports it per lane), and the
 * printer emits the smallest number of parentheses for C precedence. */
#ifndef BANKSCOPE_IXPR_H
#define BANKSCOPE_IXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "../util.h"

typedef enum ixpr_kind { IXPR_NUM, IXPR_VAR, IXPR_UNARY, IXPR_BINARY, IXPR_MIN, IXPR_MAX, IXPR_COND } ixpr_kind;

/* Operators, named by their C spelling in ixpr_op_text. */
typedef enum ixpr_op {
    IXPR_NEG,
    IXPR_BNOT,
    IXPR_LNOT,
    IXPR_MUL,
    IXPR_DIV,
    IXPR_MOD,
    IXPR_ADD,
    IXPR_SUB,
    IXPR_SHL,
    IXPR_SHR,
    IXPR_LT,
    IXPR_LE,
    IXPR_GT,
    IXPR_GE,
    IXPR_EQ,
    IXPR_NE,
    IXPR_AND,
    IXPR_XOR,
    IXPR_OR,
    IXPR_LAND,
    IXPR_LOR,
    IXPR_NOPS
} ixpr_op;

typedef struct ixpr {
    ixpr_kind kind;
    ixpr_op op;
    int64_t value;                /* IXPR_NUM */
    const char *name;             /* IXPR_VAR: "threadIdx.x", "blockDim.y", "warpSize" or a loop variable */
    const struct ixpr *a, *b, *c; /* operands (c: the 'else' of IXPR_COND) */
} ixpr;

typedef struct ixpr_arena {
    void **blocks; /* owned: nodes and strings */
    int n, cap;
} ixpr_arena;

void ixpr_arena_free(ixpr_arena *ar);
/* A copy of s owned by the arena. */
const char *ixpr_strdup(ixpr_arena *ar, const char *s);

const ixpr *ixpr_num(ixpr_arena *ar, int64_t v);
const ixpr *ixpr_var(ixpr_arena *ar, const char *name);
const ixpr *ixpr_unary(ixpr_arena *ar, ixpr_op op, const ixpr *a);
const ixpr *ixpr_binary(ixpr_arena *ar, ixpr_op op, const ixpr *a, const ixpr *b);
const ixpr *ixpr_minmax(ixpr_arena *ar, bool is_max, const ixpr *a, const ixpr *b);
const ixpr *ixpr_cond(ixpr_arena *ar, const ixpr *c, const ixpr *a, const ixpr *b);
/* Replace every variable called name by v (a new tree; shared subtrees are reused). */
const ixpr *ixpr_subst(ixpr_arena *ar, const ixpr *e, const char *name, const ixpr *v);

/* The operator for a C spelling ("+", "<<", "&&"); false when it is not one bankscope has. */
bool ixpr_op_parse(const char *text, bool unary, ixpr_op *out);
const char *ixpr_op_text(ixpr_op op);

/* Whether e reads the variable called name (NULL: any variable). */
bool ixpr_uses(const ixpr *e, const char *name);
/* Whether e reads a per-thread value (threadIdx, lane, tid...). */
bool ixpr_uses_thread(const ixpr *e);

/* Values of the variables for ixpr_eval; a variable not listed fails the evaluation. */
typedef struct ixpr_env {
    const char *names[16];
    int64_t values[16];
    int n;
} ixpr_env;

/* Evaluate with checked arithmetic; false on an unknown variable, overflow, division by zero or
 * a bad shift. */
bool ixpr_eval(const ixpr *e, const ixpr_env *env, int64_t *out);
/* Append bankscope expression text for e, with as few parentheses as C's precedence allows
 * (the conditional as c ? a : b). */
void ixpr_print(const ixpr *e, strbuf *out);

#endif
