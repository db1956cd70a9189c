/* expr: index expressions. Text -> AST (with the byte offset of every node for messages) ->
 * a compiled program (expr_prog.c) evaluated without recursion with checked 64-bit arithmetic
 * (division by zero, overflow and bad shifts are errors, never undefined behaviour) -> CUDA
 * source (emitted from the AST, so no user text reaches a kernel). Expressions can also be
 * built node by node (expr_build.c: bankscope import) and printed back as text (expr_print.c),
 * with the same nodes, operators and arithmetic.
 *
 * Limits (so that hostile input is an error with a position, never a crash): at most
 * EXPR_MAX_LEN bytes of text, EXPR_MAX_DEPTH levels of nesting, EXPR_MAX_STACK values pending
 * during evaluation.
 *
 * Grammar (C precedence): c ? a : b (right associative: a ? b : c ? d : e is a ? b : (c ? d : e);
 * only the chosen arm is evaluated, so the other raises no error), || && | ^ & (== !=)
 * (< <= > >=) (<< >>) (+ -) (* / %) unary(- ~ !), primary: integer (decimal or 0x), identifier, min(a,b), max(a,b), (
 * expr ). Identifiers: threadIdx.x/y/z (tx ty tz), blockDim.x/y/z, lane, warp, tid (linear thread id), warpSize, and
 * the scenario's loop variable. */
#ifndef BANKSCOPE_EXPR_H
#define BANKSCOPE_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "../util.h"

typedef enum expr_var {
    EXPR_TX,
    EXPR_TY,
    EXPR_TZ,
    EXPR_BDX,
    EXPR_BDY,
    EXPR_BDZ,
    EXPR_LANE,
    EXPR_WARP,
    EXPR_TID,
    EXPR_LOOP, /* the scenario's loops: loop k of the nest is EXPR_LOOP + k */
    EXPR_LOOP_LAST = EXPR_LOOP + 7,
    EXPR_NVARS
} expr_var;

#define EXPR_MAX_LOOPS (EXPR_LOOP_LAST - EXPR_LOOP + 1)

/* EXPR_COND: a ? b : c (children a, b, c). */
typedef enum expr_kind { EXPR_NUM, EXPR_VAR, EXPR_UNARY, EXPR_BINARY, EXPR_CALL, EXPR_COND } expr_kind;

typedef enum expr_op {
    EXPR_NEG,
    EXPR_BNOT,
    EXPR_LNOT,
    EXPR_MUL,
    EXPR_DIV,
    EXPR_MOD,
    EXPR_ADD,
    EXPR_SUB,
    EXPR_SHL,
    EXPR_SHR,
    EXPR_LT,
    EXPR_LE,
    EXPR_GT,
    EXPR_GE,
    EXPR_EQ,
    EXPR_NE,
    EXPR_AND,
    EXPR_XOR,
    EXPR_OR,
    EXPR_LAND,
    EXPR_LOR,
    EXPR_MIN,
    EXPR_MAX
} expr_op;

typedef struct expr_node {
    expr_kind kind;
    int op;        /* expr_op, or expr_var for EXPR_VAR */
    int64_t value; /* EXPR_NUM */
    int a, b, c;   /* children (node indices), -1 when absent; c only for EXPR_COND */
    int pos;       /* byte offset in the source text */
} expr_node;

/* Per-instruction values a specialised program computes once (expr_prepare) and keeps in the
 * environment after the variables. */
#define EXPR_MAX_SLOTS 6

/* One instruction of a compiled expression (a stack machine; see expr_prog.c). */
typedef struct expr_insn {
    int32_t op;  /* expr_op, or one of the EXPR_I_* codes of expr_prog.c */
    int32_t pos; /* byte offset reported when the instruction fails */
    int64_t arg; /* constant, variable, linear form or jump target */
} expr_insn;

/* A linear form c0 + sum coef[k] * v[var[k]], proven free of overflow over the ranges it was
 * compiled for (evaluated with wrapping arithmetic, whose result is then exact). */
typedef struct expr_lin {
    int nterms;
    uint8_t var[EXPR_NVARS + EXPR_MAX_SLOTS]; /* at most one term per variable and slot */
    int64_t coef[EXPR_NVARS + EXPR_MAX_SLOTS];
    int64_t c0;
} expr_lin;

/* A compiled expression: postfix code over a value stack, maximal linear subexpressions folded
 * into one instruction each. code[0 .. ncode) computes the value; code[slot_start[k] ..
 * slot_end[k]) computes slot k (a part that depends only on warp, the loop variable and
 * blockDim and cannot fail), run once per warp-instruction by expr_prepare. Owns its arrays. */
typedef struct expr_prog {
    expr_insn *code;
    int ncode;
    expr_lin *lin;
    int nlin;
    int nslots;
    int slot_start[EXPR_MAX_SLOTS], slot_end[EXPR_MAX_SLOTS];
    bool may_fail; /* an error is possible for some values in the compiled ranges */
    bool jumps;    /* && || or ?: in the value's code */
    int depth;     /* most values pending in the value's code */
} expr_prog;

/* A parsed expression; owns its nodes, a copy of its text and its compiled programs. The
 * nodes are in post-order (children before parents, left before right); root is the last. */
typedef struct expr {
    expr_node *nodes;
    int n, cap;
    int root;
    char *text;
    expr_prog prog; /* valid for any variable values */
    expr_prog fast; /* valid inside the ranges given to expr_specialize; ncode 0: none */
} expr;

#define EXPR_MAX_LEN 4096  /* bytes of text */
#define EXPR_MAX_DEPTH 200 /* nesting limit: deeper input is an error, not a stack overflow */
#define EXPR_MAX_STACK 256 /* values pending at once during evaluation */

typedef struct expr_error {
    int pos; /* byte offset of the offending character */
    char msg[160];
} expr_error;

/* Parse text; loop_var names the scenario's loop variable (NULL or "" for none). */
bool expr_parse(const char *text, const char *loop_var, expr *out, expr_error *err);
/* Parse text where loop_vars[k] (NULL: none) names variable EXPR_LOOP + k (a loop nest). */
bool expr_parse_loops(const char *text, const char *const loop_vars[EXPR_MAX_LOOPS], expr *out, expr_error *err);
void expr_free(expr *e);

typedef struct expr_env {
    int64_t v[EXPR_NVARS + EXPR_MAX_SLOTS];
} expr_env;

typedef enum expr_status { EXPR_OK, EXPR_DIV_ZERO, EXPR_OVERFLOW, EXPR_BAD_SHIFT } expr_status;

/* Evaluate; on failure *pos is the offending operator's offset. */
expr_status expr_eval(const expr *e, const expr_env *env, int64_t *out, int *pos);

/* The values each variable can take (inclusive); what expr_specialize may rely on. */
typedef struct expr_range {
    int64_t lo[EXPR_NVARS], hi[EXPR_NVARS];
} expr_range;

/* Compile e for variables inside r: linear parts fold into one instruction (a single one for
 * a*lane + b and the like), constants fold, and e->fast.may_fail says whether any value inside
 * r can hit an error. Replaces an earlier specialisation. */
void expr_specialize(expr *e, const expr_range *r);
/* Whether the value's code of the program expr_eval_lanes runs for e reads v itself, not only
 * through the slots expr_prepare computes: when it does not for a loop variable, the values
 * depend on the loop only through the slots. */
bool expr_reads_directly(const expr *e, expr_var v);
/* How many slots expr_prepare computes for e (env->v[EXPR_NVARS ..]). */
int expr_slot_count(const expr *e);
/* Compute the per-instruction slots of e's specialised program into env (from its warp, loop
 * and blockDim values); call it before expr_eval_fast whenever those change. */
void expr_prepare(const expr *e, expr_env *env);
/* expr_eval with the specialised program; every env->v[k] must lie in the ranges given to
 * expr_specialize and expr_prepare must have seen the same warp and loop values (without a
 * specialisation this is expr_eval). Same results, errors and positions as expr_eval. */
expr_status expr_eval_fast(const expr *e, const expr_env *env, int64_t *out, int *pos);
#define EXPR_LANES 32 /* lanes evaluated together by expr_eval_lanes */
/* An AVX2 copy and a portable one, chosen at run time. GCC names the resolver after the function;
 * clang 14 names it otherwise, so callers in other files do not link: a clang build (the
 * fuzzers') keeps the portable copy only. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EXPR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EXPR_CLONES
#endif

/* The per-lane variables of one warp-instruction: v[0..4][lane] = threadIdx.x, .y, .z, tid,
 * lane. Every entry must lie in the ranges given to expr_specialize (lanes without a thread
 * too: give them any in-range value, e.g. 0). */
typedef struct expr_lanes {
    int64_t v[5][EXPR_LANES];
} expr_lanes;

/* expr_eval_fast for the lanes of mask at once (env holds the per-instruction variables and
 * slots, after expr_prepare): out[lane] for the lanes that succeed, 0 for the others (not in
 * mask, or failed); returns the lanes that
 * fail, with st[lane] and pos[lane] as expr_eval would give them. Each instruction runs over
 * all lanes in a loop, so the interpreter's cost is shared by the warp. */
uint32_t expr_eval_lanes(const expr *e, const expr_env *env, const expr_lanes *lv, uint32_t mask, int64_t *out,
                         expr_status *st, int *pos);
/* Build p from e's nodes for variables inside r (NULL: any value). False when evaluation would
 * need more than EXPR_MAX_STACK pending values (*err_pos: where). */
bool expr_prog_build(const expr *e, const expr_range *r, expr_prog *p, int *err_pos);
void expr_prog_free(expr_prog *p);
/* Run a program; same contract as expr_eval (slots, if any, already in env). */
expr_status expr_prog_run(const expr_prog *p, const expr_env *env, int64_t *out, int *pos);
/* Compute a program's slots into env. */
void expr_prog_prepare(const expr_prog *p, expr_env *env);
int64_t expr_swizzle(int b, int m, int s, int64_t x);
/* True when name is a word of the expression language (threadIdx, tx, lane, tid, min...). */
bool expr_is_builtin_name(const char *name);
const char *expr_status_text(expr_status s);
/* True when the expression reads variable v. */
bool expr_uses(const expr *e, expr_var v);
/* Emit CUDA C++ with the model's exact arithmetic: every value a long long (comparisons and
 * logical operators widened at once), and the operators whose C++ forms could overflow, trap
 * or differ (- + * / % << >> min max) as calls of the kernel template's checked helpers
 * bs_add(a, b, bs_err) ..., which set the bool bs_err where the model reports an error
 * (kernels/measure.cu). names[v] is the source text for variable v. */
void expr_emit_cuda(const expr *e, const char *const names[EXPR_NVARS], strbuf *out);

/* One operator on values, with the model's checked arithmetic (the evaluators' rules): a unary
 * operator (EXPR_NEG, EXPR_BNOT, EXPR_LNOT) reads a only; && and || take both values as
 * evaluated. EXPR_OK with *r set, or the error the evaluators report. */
expr_status expr_apply(int op, int64_t a, int64_t b, int64_t *r);

/* ---- Expressions built node by node (expr_build.c), as bankscope import builds them ----
 * A pool owns the nodes (expr_node, as a parsed expression has them, positions 0) in the order
 * they were made, so children come before their parents; subtrees may be shared. A node is
 * named by an expr_ref, its index + 1, so that 0 (a zeroed field) means "no expression".
 * Variables are expr_var values; a pool may also hold EXPR_LOOP + k for any k >= 0 (a builder's
 * own loop variables, more than a scenario has), which expr_pool_subst turns into the scenario's
 * before the text is made. The constructors fold constant operands with expr_apply; an
 * operation that would fail (a division by zero, an overflow) stays unfolded, so that the
 * analysis reports it per lane. Identities that cannot change a result or hide an error
 * (x + 0, x * 1, ...) give x itself. */
typedef int expr_ref;

typedef struct expr_pool {
    expr_node *nodes; /* owned */
    uint64_t *vars;   /* owned, per node: bit k set when it reads variable k (k >= 63: bit 63) */
    int n, cap;
} expr_pool;

void expr_pool_free(expr_pool *p);
expr_ref expr_pool_num(expr_pool *p, int64_t v);
/* Variable var (an expr_var, or EXPR_LOOP + k for any k >= 0). */
expr_ref expr_pool_var(expr_pool *p, int var);
/* op is EXPR_NEG, EXPR_BNOT or EXPR_LNOT. */
expr_ref expr_pool_unary(expr_pool *p, expr_op op, expr_ref a);
/* A binary operator, or EXPR_MIN / EXPR_MAX (the calls min(a, b), max(a, b)). */
expr_ref expr_pool_binary(expr_pool *p, expr_op op, expr_ref a, expr_ref b);
/* c ? a : b; a constant condition chooses its arm. */
expr_ref expr_pool_cond(expr_pool *p, expr_ref c, expr_ref a, expr_ref b);
/* e with every use of variable var replaced by v (refolded; parts without var are shared; each
 * shared part is rewritten once, so the work is the size of the pool, not of the tree). */
expr_ref expr_pool_subst(expr_pool *p, expr_ref e, int var, expr_ref v);
/* True when e is a number (its value in *v, which may be NULL). */
bool expr_pool_const(const expr_pool *p, expr_ref e, int64_t *v);
/* Whether e reads variable var (var < 0: any variable). */
bool expr_pool_uses(const expr_pool *p, expr_ref e, int var);
/* Whether e reads a per-thread value (threadIdx, lane, warp, tid). */
bool expr_pool_uses_thread(const expr_pool *p, expr_ref e);
/* The operator of a C spelling ("+", "<<", "&&"; unary: "-", "~", "!"); false when the language
 * has none. */
bool expr_op_parse(const char *text, bool unary, expr_op *out);

/* Values for expr_pool_eval: v[k] for the variables whose bit k is set in known. */
typedef struct expr_pool_env {
    int64_t v[EXPR_NVARS];
    uint32_t known;
} expr_pool_env;

/* Evaluate e (only the chosen arm of ?:, the right operand of && || only when it decides; a
 * shared part once); false on a variable env does not know, a division by zero, an overflow or
 * a bad shift. */
bool expr_pool_eval(const expr_pool *p, expr_ref e, const expr_pool_env *env, int64_t *out);

/* ---- Text (expr_print.c) ---- */
/* Append e as expression-language text that expr_parse_loops reads back as the same tree (given
 * the same loop names), with only the parentheses C's precedence needs: c ? a : b binds loosest
 * and groups to the right, negative numbers are parenthesised after an operator that binds as
 * tightly as + or tighter. Variable EXPR_LOOP + k is loop_names[k] (k < nloop_names; else "?").
 * A text that would pass EXPR_MAX_LEN bytes (a much-shared tree can be far larger than its pool)
 * stops just past it, where the parser refuses it as too long. */
void expr_pool_print(const expr_pool *p, expr_ref e, const char *const *loop_names, int nloop_names, strbuf *out);
/* The same for a parsed expression (swizzle( ) and warpSize come back as the arithmetic they
 * stand for). */
void expr_print(const expr *e, const char *const *loop_names, int nloop_names, strbuf *out);

#endif
