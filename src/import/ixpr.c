/* ixpr: importer expression trees: construction with constant folding, substitution,
 * evaluation and printing as bankscope expression text. */
#include "ixpr.h"

#include <stdlib.h>
#include <string.h>

static const char *const op_text[IXPR_NOPS] = {"-",  "~", "!",  "*",  "/",  "%", "+", "-", "<<", ">>", "<",
                                               "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||"};

/* C precedence of a binary operator (higher binds tighter). */
static int prec(ixpr_op op)
{
    switch (op) {
    case IXPR_MUL:
    case IXPR_DIV:
    case IXPR_MOD: return 12;
    case IXPR_ADD:
    case IXPR_SUB: return 11;
    case IXPR_SHL:
    case IXPR_SHR: return 10;
    case IXPR_LT:
    case IXPR_LE:
    case IXPR_GT:
    case IXPR_GE: return 9;
    case IXPR_EQ:
    case IXPR_NE: return 8;
    case IXPR_AND: return 7;
    case IXPR_XOR: return 6;
    case IXPR_OR: return 5;
    case IXPR_LAND: return 4;
    case IXPR_LOR: return 3;
    default: return 13;
    }
}

static void *arena_keep(ixpr_arena *ar, void *p)
{
    if (ar->n == ar->cap) {
        ar->cap = ar->cap ? ar->cap * 2 : 64;
        ar->blocks = xrealloc(ar->blocks, (size_t)ar->cap * sizeof *ar->blocks);
    }
    ar->blocks[ar->n++] = p;
    return p;
}

void ixpr_arena_free(ixpr_arena *ar)
{
    for (int i = 0; i < ar->n; i++)
        free(ar->blocks[i]);
    free(ar->blocks);
    memset(ar, 0, sizeof *ar);
}

const char *ixpr_strdup(ixpr_arena *ar, const char *s)
{
    return arena_keep(ar, xstrdup(s));
}

static ixpr *node(ixpr_arena *ar, ixpr_kind k)
{
    ixpr *e = arena_keep(ar, xcalloc(1, sizeof *e));
    e->kind = k;
    return e;
}

const ixpr *ixpr_num(ixpr_arena *ar, int64_t v)
{
    ixpr *e = node(ar, IXPR_NUM);
    e->value = v;
    return e;
}

const ixpr *ixpr_var(ixpr_arena *ar, const char *name)
{
    ixpr *e = node(ar, IXPR_VAR);
    e->name = ixpr_strdup(ar, name);
    return e;
}

/* Checked 64-bit arithmetic with the rules of bankscope's evaluator (expr.c). */
static bool apply(ixpr_op op, int64_t x, int64_t y, int64_t *r)
{
    switch (op) {
    case IXPR_NEG: return !__builtin_sub_overflow((int64_t)0, x, r);
    case IXPR_BNOT: *r = ~x; return true;
    case IXPR_LNOT: *r = !x; return true;
    case IXPR_MUL: return !__builtin_mul_overflow(x, y, r);
    case IXPR_ADD: return !__builtin_add_overflow(x, y, r);
    case IXPR_SUB: return !__builtin_sub_overflow(x, y, r);
    case IXPR_DIV:
    case IXPR_MOD:
        if (y == 0 || (x == INT64_MIN && y == -1))
            return false;
        *r = op == IXPR_DIV ? x / y : x % y;
        return true;
    case IXPR_SHL:
        /* as expr_prog.c: a negative value or a result past 2^63 - 1 overflows */
        if (y < 0 || y > 63)
            return false;
        if (x == 0) {
            *r = 0;
            return true;
        }
        return x > 0 && y < 63 && !__builtin_mul_overflow(x, (int64_t)1 << y, r);
    case IXPR_SHR:
        if (y < 0 || y > 63)
            return false;
        *r = x < 0 ? ~(~x >> y) : x >> y; /* arithmetic, without implementation-defined behaviour */
        return true;
    case IXPR_LT: *r = x < y; return true;
    case IXPR_LE: *r = x <= y; return true;
    case IXPR_GT: *r = x > y; return true;
    case IXPR_GE: *r = x >= y; return true;
    case IXPR_EQ: *r = x == y; return true;
    case IXPR_NE: *r = x != y; return true;
    case IXPR_AND: *r = x & y; return true;
    case IXPR_XOR: *r = x ^ y; return true;
    case IXPR_OR: *r = x | y; return true;
    case IXPR_LAND: *r = x && y; return true;
    case IXPR_LOR: *r = x || y; return true;
    default: return false;
    }
}

const ixpr *ixpr_unary(ixpr_arena *ar, ixpr_op op, const ixpr *a)
{
    int64_t r;
    if (a->kind == IXPR_NUM && apply(op, a->value, 0, &r))
        return ixpr_num(ar, r);
    ixpr *e = node(ar, IXPR_UNARY);
    e->op = op;
    e->a = a;
    return e;
}

static bool is_num(const ixpr *e, int64_t v)
{
    return e->kind == IXPR_NUM && e->value == v;
}

const ixpr *ixpr_binary(ixpr_arena *ar, ixpr_op op, const ixpr *a, const ixpr *b)
{
    int64_t r;
    if (a->kind == IXPR_NUM && b->kind == IXPR_NUM && apply(op, a->value, b->value, &r))
        return ixpr_num(ar, r);
    /* identities that cannot change a result or hide an error */
    if ((op == IXPR_ADD || op == IXPR_SUB || op == IXPR_SHL || op == IXPR_SHR || op == IXPR_OR || op == IXPR_XOR) &&
        is_num(b, 0))
        return a;
    if ((op == IXPR_ADD || op == IXPR_OR || op == IXPR_XOR) && is_num(a, 0))
        return b;
    if ((op == IXPR_MUL || op == IXPR_DIV) && is_num(b, 1))
        return a;
    if (op == IXPR_MUL && is_num(a, 1))
        return b;
    ixpr *e = node(ar, IXPR_BINARY);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

const ixpr *ixpr_minmax(ixpr_arena *ar, bool is_max, const ixpr *a, const ixpr *b)
{
    if (a->kind == IXPR_NUM && b->kind == IXPR_NUM)
        return ixpr_num(ar, is_max ? (a->value > b->value ? a->value : b->value)
                                   : (a->value < b->value ? a->value : b->value));
    ixpr *e = node(ar, is_max ? IXPR_MAX : IXPR_MIN);
    e->a = a;
    e->b = b;
    return e;
}

const ixpr *ixpr_cond(ixpr_arena *ar, const ixpr *c, const ixpr *a, const ixpr *b)
{
    if (c->kind == IXPR_NUM)
        return c->value ? a : b;
    ixpr *e = node(ar, IXPR_COND);
    e->a = c;
    e->b = a;
    e->c = b;
    return e;
}

const ixpr *ixpr_subst(ixpr_arena *ar, const ixpr *e, const char *name, const ixpr *v)
{
    if (!e || !ixpr_uses(e, name))
        return e;
    switch (e->kind) {
    case IXPR_VAR: return v;
    case IXPR_UNARY: return ixpr_unary(ar, e->op, ixpr_subst(ar, e->a, name, v));
    case IXPR_BINARY: return ixpr_binary(ar, e->op, ixpr_subst(ar, e->a, name, v), ixpr_subst(ar, e->b, name, v));
    case IXPR_MIN:
    case IXPR_MAX:
        return ixpr_minmax(ar, e->kind == IXPR_MAX, ixpr_subst(ar, e->a, name, v), ixpr_subst(ar, e->b, name, v));
    case IXPR_COND:
        return ixpr_cond(ar, ixpr_subst(ar, e->a, name, v), ixpr_subst(ar, e->b, name, v),
                         ixpr_subst(ar, e->c, name, v));
    default: return e;
    }
}

bool ixpr_op_parse(const char *text, bool unary, ixpr_op *out)
{
    for (int i = unary ? 0 : IXPR_MUL; i < (unary ? IXPR_MUL : IXPR_NOPS); i++)
        if (strcmp(op_text[i], text) == 0) {
            *out = (ixpr_op)i;
            return true;
        }
    return false;
}

const char *ixpr_op_text(ixpr_op op)
{
    return op < IXPR_NOPS ? op_text[op] : "?";
}

bool ixpr_uses(const ixpr *e, const char *name)
{
    if (!e)
        return false;
    if (e->kind == IXPR_VAR)
        return !name || strcmp(e->name, name) == 0;
    return ixpr_uses(e->a, name) || ixpr_uses(e->b, name) || ixpr_uses(e->c, name);
}

bool ixpr_uses_thread(const ixpr *e)
{
    static const char *const per_thread[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "lane", "tid", "warp"};
    for (size_t i = 0; i < sizeof per_thread / sizeof per_thread[0]; i++)
        if (ixpr_uses(e, per_thread[i]))
            return true;
    return false;
}

bool ixpr_eval(const ixpr *e, const ixpr_env *env, int64_t *out)
{
    int64_t x = 0, y = 0;
    switch (e->kind) {
    case IXPR_NUM: *out = e->value; return true;
    case IXPR_VAR:
        for (int i = 0; i < env->n; i++)
            if (strcmp(env->names[i], e->name) == 0) {
                *out = env->values[i];
                return true;
            }
        return false;
    case IXPR_UNARY: return ixpr_eval(e->a, env, &x) && apply(e->op, x, 0, out);
    case IXPR_BINARY: return ixpr_eval(e->a, env, &x) && ixpr_eval(e->b, env, &y) && apply(e->op, x, y, out);
    case IXPR_MIN:
    case IXPR_MAX:
        if (!ixpr_eval(e->a, env, &x) || !ixpr_eval(e->b, env, &y))
            return false;
        *out = (e->kind == IXPR_MAX) == (x > y) ? x : y;
        return true;
    case IXPR_COND: /* only the chosen arm, as C and the expression language do */
        return ixpr_eval(e->a, env, &x) && ixpr_eval(x ? e->b : e->c, env, out);
    }
    return false;
}

/* Print e; ctx is the precedence of the surrounding operator (0: none). */
static void print_at(const ixpr *e, int ctx, bool right, strbuf *out)
{
    int p;
    switch (e->kind) {
    case IXPR_NUM:
        if (e->value < 0 && ctx >= 11) {
            strbuf_addf(out, "(%lld)", (long long)e->value);
            return;
        }
        strbuf_addf(out, "%lld", (long long)e->value);
        return;
    case IXPR_VAR: strbuf_addf(out, "%s", e->name); return;
    case IXPR_UNARY:
        strbuf_addf(out, "%s", op_text[e->op]);
        print_at(e->a, 13, true, out);
        return;
    case IXPR_MIN:
    case IXPR_MAX:
        strbuf_addf(out, "%s(", e->kind == IXPR_MAX ? "max" : "min");
        print_at(e->a, 0, false, out);
        strbuf_addf(out, ", ");
        print_at(e->b, 0, false, out);
        strbuf_addc(out, ')');
        return;
    case IXPR_COND: /* C's ?: (precedence 2, below ||; groups to the right) */
        if (ctx > 2 || (ctx == 2 && right))
            strbuf_addc(out, '(');
        print_at(e->a, 3, false, out);
        strbuf_addf(out, " ? ");
        print_at(e->b, 0, false, out);
        strbuf_addf(out, " : ");
        print_at(e->c, 2, false, out);
        if (ctx > 2 || (ctx == 2 && right))
            strbuf_addc(out, ')');
        return;
    case IXPR_BINARY:
        p = prec(e->op);
        bool paren = p < ctx || (p == ctx && right);
        if (paren)
            strbuf_addc(out, '(');
        print_at(e->a, p, false, out);
        strbuf_addf(out, " %s ", op_text[e->op]);
        print_at(e->b, p, true, out);
        if (paren)
            strbuf_addc(out, ')');
        return;
    }
}

void ixpr_print(const ixpr *e, strbuf *out)
{
    print_at(e, 0, false, out);
}
