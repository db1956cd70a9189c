/* expr_build: expressions built node by node into a pool (bankscope import builds them from C++
 * source): constant folding with the model's checked arithmetic, substitution and evaluation. */
#include "expr.h"

#include <stdlib.h>
#include <string.h>

void expr_pool_free(expr_pool *p)
{
    free(p->nodes);
    free(p->vars);
    memset(p, 0, sizeof *p);
}

/* The node a reference names (r > 0). */
static const expr_node *at(const expr_pool *p, expr_ref r)
{
    return &p->nodes[r - 1];
}

/* A new node; children are references (0: none), kept as node indices (-1: none). */
static expr_ref node_new(expr_pool *p, expr_kind k, int op, int64_t value, expr_ref a, expr_ref b, expr_ref c)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->nodes = xrealloc(p->nodes, (size_t)p->cap * sizeof *p->nodes);
        p->vars = xrealloc(p->vars, (size_t)p->cap * sizeof *p->vars);
    }
    p->nodes[p->n] = (expr_node){.kind = k, .op = op, .value = value, .a = a - 1, .b = b - 1, .c = c - 1, .pos = 0};
    uint64_t vars = k == EXPR_VAR ? (uint64_t)1 << (op < 63 ? op : 63) : 0;
    for (int i = 0; i < 3; i++) {
        expr_ref ch = i == 0 ? a : i == 1 ? b : c;
        vars |= ch > 0 ? p->vars[ch - 1] : 0;
    }
    p->vars[p->n] = vars;
    return ++p->n;
}

expr_ref expr_pool_num(expr_pool *p, int64_t v)
{
    return node_new(p, EXPR_NUM, 0, v, 0, 0, 0);
}

expr_ref expr_pool_var(expr_pool *p, int var)
{
    return node_new(p, EXPR_VAR, var, 0, 0, 0, 0);
}

bool expr_pool_const(const expr_pool *p, expr_ref e, int64_t *v)
{
    if (e <= 0 || at(p, e)->kind != EXPR_NUM)
        return false;
    if (v)
        *v = at(p, e)->value;
    return true;
}

/* Whether e is the number v. */
static bool is_num(const expr_pool *p, expr_ref e, int64_t v)
{
    int64_t x;
    return expr_pool_const(p, e, &x) && x == v;
}

/* Whether e's value is always 0 or 1 (a comparison, a logical operator, ! or the number 0 or 1). */
static bool is_truth(const expr_pool *p, expr_ref e)
{
    if (is_num(p, e, 0) || is_num(p, e, 1))
        return true;
    if (e <= 0)
        return false;
    const expr_node *n = at(p, e);
    return (n->kind == EXPR_BINARY &&
            ((n->op >= EXPR_LT && n->op <= EXPR_NE) || n->op == EXPR_LAND || n->op == EXPR_LOR)) ||
           (n->kind == EXPR_UNARY && n->op == EXPR_LNOT);
}

expr_ref expr_pool_unary(expr_pool *p, expr_op op, expr_ref a)
{
    int64_t x, r;
    if (expr_pool_const(p, a, &x) && expr_apply(op, x, 0, &r) == EXPR_OK)
        return expr_pool_num(p, r);
    return node_new(p, EXPR_UNARY, op, 0, a, 0, 0);
}

expr_ref expr_pool_binary(expr_pool *p, expr_op op, expr_ref a, expr_ref b)
{
    int64_t x, y, r;
    bool call = op == EXPR_MIN || op == EXPR_MAX;
    if (expr_pool_const(p, a, &x) && expr_pool_const(p, b, &y) && expr_apply(op, x, y, &r) == EXPR_OK)
        return expr_pool_num(p, r);
    if (!call) {
        /* identities that cannot change a result or hide an error */
        if ((op == EXPR_ADD || op == EXPR_SUB || op == EXPR_SHL || op == EXPR_SHR || op == EXPR_OR || op == EXPR_XOR) &&
            is_num(p, b, 0))
            return a;
        if ((op == EXPR_ADD || op == EXPR_OR || op == EXPR_XOR) && is_num(p, a, 0))
            return b;
        if ((op == EXPR_MUL || op == EXPR_DIV) && is_num(p, b, 1))
            return a;
        if (op == EXPR_MUL && is_num(p, a, 1))
            return b;
        /* a decided left side of && or ||: the right one is not evaluated, or is the value */
        if (expr_pool_const(p, a, &x) && (op == EXPR_LAND || op == EXPR_LOR)) {
            if ((op == EXPR_LAND) == (x == 0))
                return expr_pool_num(p, op == EXPR_LOR);
            if (is_truth(p, b))
                return b;
        }
    }
    return node_new(p, call ? EXPR_CALL : EXPR_BINARY, op, 0, a, b, 0);
}

expr_ref expr_pool_cond(expr_pool *p, expr_ref c, expr_ref a, expr_ref b)
{
    int64_t x;
    if (expr_pool_const(p, c, &x))
        return x ? a : b;
    return node_new(p, EXPR_COND, 0, 0, c, a, b);
}

bool expr_pool_uses(const expr_pool *p, expr_ref e, int var)
{
    if (e <= 0)
        return false;
    uint64_t vars = p->vars[e - 1];
    if (var < 63)
        return var < 0 ? vars != 0 : (vars >> var & 1) != 0;
    if (!(vars >> 63)) /* variables past 62 share a bit: look further down where it is set */
        return false;
    const expr_node *n = at(p, e);
    if (n->kind == EXPR_VAR)
        return n->op == var;
    return expr_pool_uses(p, n->a + 1, var) || expr_pool_uses(p, n->b + 1, var) || expr_pool_uses(p, n->c + 1, var);
}

bool expr_pool_uses_thread(const expr_pool *p, expr_ref e)
{
    static const int per_thread[] = {EXPR_TX, EXPR_TY, EXPR_TZ, EXPR_LANE, EXPR_WARP, EXPR_TID};
    for (size_t i = 0; i < sizeof per_thread / sizeof per_thread[0]; i++)
        if (expr_pool_uses(p, e, per_thread[i]))
            return true;
    return false;
}

/* subst below e; done[i] is node i's result once rewritten (0: not yet; nodes made here are
 * never looked up, as the rewrite only visits the nodes that were there before it). */
static expr_ref subst_at(expr_pool *p, expr_ref e, int var, expr_ref v, expr_ref *done)
{
    if (e <= 0 || !expr_pool_uses(p, e, var))
        return e;
    if (done[e - 1])
        return done[e - 1];
    expr_node n = *at(p, e); /* a copy: the pool may move as nodes are added */
    expr_ref r = e;
    switch (n.kind) {
    case EXPR_VAR: r = v; break;
    case EXPR_UNARY: r = expr_pool_unary(p, (expr_op)n.op, subst_at(p, n.a + 1, var, v, done)); break;
    case EXPR_BINARY:
    case EXPR_CALL: {
        expr_ref a = subst_at(p, n.a + 1, var, v, done);
        r = expr_pool_binary(p, (expr_op)n.op, a, subst_at(p, n.b + 1, var, v, done));
        break;
    }
    case EXPR_COND: {
        expr_ref c = subst_at(p, n.a + 1, var, v, done), a = subst_at(p, n.b + 1, var, v, done);
        r = expr_pool_cond(p, c, a, subst_at(p, n.c + 1, var, v, done));
        break;
    }
    default: break;
    }
    done[e - 1] = r;
    return r;
}

expr_ref expr_pool_subst(expr_pool *p, expr_ref e, int var, expr_ref v)
{
    if (e <= 0 || !expr_pool_uses(p, e, var))
        return e;
    expr_ref *done = xcalloc((size_t)e, sizeof *done); /* e's subtree lies below it */
    expr_ref r = subst_at(p, e, var, v, done);
    free(done);
    return r;
}

bool expr_op_parse(const char *text, bool unary, expr_op *out)
{
    static const char *const spelling[] = {"-",  "~", "!",  "*",  "/",  "%", "+", "-", "<<", ">>", "<",
                                           "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||"};
    for (int i = unary ? EXPR_NEG : EXPR_MUL; i <= (unary ? EXPR_LNOT : EXPR_LOR); i++)
        if (strcmp(spelling[i], text) == 0) {
            *out = (expr_op)i;
            return true;
        }
    return false;
}

/* Evaluation below e with each node's result kept in a small hash table (key: the reference;
 * ok: whether it evaluated), so that a shared part is evaluated once and the work is the size
 * of e's part of the pool, however large the pool. */
typedef struct memo_slot {
    expr_ref key; /* 0: empty */
    bool ok;
    int64_t val;
} memo_slot;

typedef struct eval_memo {
    const expr_pool *p;
    const expr_pool_env *env;
    memo_slot *slot;
    size_t cap, n; /* cap a power of two, n < cap / 2 */
} eval_memo;

static memo_slot *memo_find(const eval_memo *m, expr_ref key)
{
    size_t i = ((size_t)key * 0x9E3779B97F4A7C15u) & (m->cap - 1);
    while (m->slot[i].key && m->slot[i].key != key)
        i = (i + 1) & (m->cap - 1);
    return &m->slot[i];
}

/* Remember e's value, the table doubled first when it would be half full. */
static void memo_put(eval_memo *m, expr_ref key, bool ok, int64_t val)
{
    if (2 * (m->n + 1) >= m->cap) {
        eval_memo bigger = *m;
        bigger.cap = m->cap * 2;
        bigger.slot = xcalloc(bigger.cap, sizeof *bigger.slot);
        for (size_t i = 0; i < m->cap; i++)
            if (m->slot[i].key)
                *memo_find(&bigger, m->slot[i].key) = m->slot[i];
        free(m->slot);
        *m = bigger;
    }
    memo_slot *s = memo_find(m, key);
    m->n += !s->key;
    *s = (memo_slot){key, ok, val};
}

/* The value of node e under the pool's environment, each node evaluated once (memo); false when
 * it fails or e is no node. */
static bool eval_at(eval_memo *m, expr_ref e, int64_t *out)
{
    if (e <= 0)
        return false;
    const memo_slot *seen = memo_find(m, e);
    if (seen->key) {
        *out = seen->val;
        return seen->ok;
    }
    const expr_node *n = at(m->p, e);
    int64_t x = 0, y = 0;
    bool ok = false;
    switch (n->kind) {
    case EXPR_NUM:
        *out = n->value;
        ok = true;
        break;
    case EXPR_VAR:
        ok = n->op >= 0 && n->op < EXPR_NVARS && (m->env->known >> n->op & 1);
        *out = ok ? m->env->v[n->op] : 0;
        break;
    case EXPR_UNARY: ok = eval_at(m, n->a + 1, &x) && expr_apply(n->op, x, 0, out) == EXPR_OK; break;
    case EXPR_COND: /* only the chosen arm, as C and the expression language do */
        ok = eval_at(m, n->a + 1, &x) && eval_at(m, (x ? n->b : n->c) + 1, out);
        break;
    case EXPR_BINARY:
    case EXPR_CALL:
        if (!eval_at(m, n->a + 1, &x))
            break;
        if ((n->op == EXPR_LAND && !x) || (n->op == EXPR_LOR && x)) { /* decided: b is not evaluated */
            *out = n->op == EXPR_LOR;
            ok = true;
            break;
        }
        ok = eval_at(m, n->b + 1, &y) && expr_apply(n->op, x, y, out) == EXPR_OK;
        break;
    }
    memo_put(m, e, ok, ok ? *out : 0);
    return ok;
}

bool expr_pool_eval(const expr_pool *p, expr_ref e, const expr_pool_env *env, int64_t *out)
{
    eval_memo m = {p, env, xcalloc(16, sizeof *m.slot), 16, 0};
    bool ok = eval_at(&m, e, out);
    free(m.slot);
    return ok;
}
