/* expr_prog: expressions compiled to a small stack machine and evaluated without recursion.
 *
 * The parser leaves the nodes in post-order, so the program is the nodes in index order, plus a
 * jump before the right operand of && and || (short-circuit: an error in a skipped operand is no
 * error, as in C), and for c ? a : b a jump over a when c is zero and one over b after a (only
 * the chosen arm runs, so the other raises no error). Every operator is checked exactly as the model defines it; the
 * first error stops the evaluation with its position, which is the order a recursive evaluator would find.
 *
 * Given the ranges of the variables (the block shape, the loop values), each node also gets an
 * interval that contains all its values and a linear form where it is one: a subexpression
 * that is linear (sums, products by constants, shifts of non-negative values by constants) and
 * whose every intermediate value provably fits in 64 bits becomes one instruction; constants
 * fold. Most index expressions (a*lane + b, a*threadIdx.x + b*threadIdx.y + c*i + d) become a
 * single linear instruction. Intervals also prove when no error is possible (may_fail). */
#include <stdlib.h>
#include <string.h>

#include "expr.h"

/* Instruction codes beyond expr_op (expr_op values are the operators themselves). */
enum {
    EXPR_I_CONST = 100, /* push arg */
    EXPR_I_VAR,         /* push env[arg] */
    EXPR_I_LIN,         /* push the linear form lin[arg] */
    EXPR_I_JF,          /* &&: top == 0 -> keep it, jump to arg; else pop */
    EXPR_I_JT,          /* ||: top != 0 -> make it 1, jump to arg; else pop */
    EXPR_I_JZ,          /* ?: pop; zero -> jump to arg (the else arm) */
    EXPR_I_JMP,         /* ?: jump to arg (over the else arm) */
    EXPR_I_K = 200,     /* + expr_op: top = top op arg, proven not to fail (no checks) */
};

#define NV (EXPR_NVARS + EXPR_MAX_SLOTS) /* variables, then slots */
/* Variables that differ between the lanes of one warp-instruction. */
#define LANE_VARS ((1u << EXPR_TX) | (1u << EXPR_TY) | (1u << EXPR_TZ) | (1u << EXPR_LANE) | (1u << EXPR_TID))

typedef struct expr_range2 {
    int64_t lo[NV], hi[NV];
} expr_range2;

typedef __int128 wide;

/* What the compiler knows of one node. */
typedef struct node_info {
    int64_t lo, hi; /* every value lies in [lo, hi] */
    bool fail;      /* the node or a node below may fail */
    bool opfail;    /* the node's own operator may fail */
    unsigned uses;  /* bit v: variable v occurs below */
    int first;      /* index of the first node of its subtree */
    int parent;
} node_info;

/* c0 + sum coef[v] * v over the variables and slots. */
typedef struct linform {
    int64_t c0;
    int64_t coef[NV];
} linform;

void expr_prog_free(expr_prog *p)
{
    free(p->code);
    free(p->lin);
    memset(p, 0, sizeof *p);
}

static bool fits(wide v)
{
    return v >= INT64_MIN && v <= INT64_MAX;
}

/* Range of a linear form over the box r; false when it could leave 64 bits. */
static bool lin_range(const linform *f, const expr_range2 *r, int64_t *lo, int64_t *hi)
{
    wide l = f->c0, h = f->c0;
    const wide lim = (wide)1 << 120;
    for (int k = 0; k < NV; k++) {
        if (!f->coef[k])
            continue;
        wide a = (wide)f->coef[k] * r->lo[k], b = (wide)f->coef[k] * r->hi[k];
        l += a < b ? a : b;
        h += a < b ? b : a;
        if (l < -lim || h > lim)
            return false;
    }
    if (!fits(l) || !fits(h))
        return false;
    *lo = (int64_t)l;
    *hi = (int64_t)h;
    return true;
}

/* f = x * k + y * m (coefficients checked to fit); false on overflow. */
static bool lin_combine(const linform *x, wide k, const linform *y, wide m, linform *f)
{
    wide c = (wide)x->c0 * k + (y ? (wide)y->c0 * m : 0);
    if (!fits(c))
        return false;
    f->c0 = (int64_t)c;
    for (int v = 0; v < NV; v++) {
        c = (wide)x->coef[v] * k + (y ? (wide)y->coef[v] * m : 0);
        if (!fits(c))
            return false;
        f->coef[v] = (int64_t)c;
    }
    return true;
}

/* Smallest 2^k - 1 >= v (v >= 0). */
static int64_t fill_bits(int64_t v)
{
    uint64_t m = (uint64_t)v;
    m |= m >> 1;
    m |= m >> 2;
    m |= m >> 4;
    m |= m >> 8;
    m |= m >> 16;
    m |= m >> 32;
    return (int64_t)m;
}

/* A node's value range, or every int64 with fail set when the bounds leave int64 (an operator
 * whose overflow is an error). */
static void set_range(node_info *n, wide lo, wide hi)
{
    if (!fits(lo) || !fits(hi)) {
        n->fail = true; /* only called for operators whose overflow is an error */
        n->lo = INT64_MIN;
        n->hi = INT64_MAX;
        return;
    }
    n->lo = (int64_t)lo;
    n->hi = (int64_t)hi;
}

static wide wmin4(wide a, wide b, wide c, wide d)
{
    wide m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

static wide wmax4(wide a, wide b, wide c, wide d)
{
    wide m = a > b ? a : b;
    m = m > c ? m : c;
    return m > d ? m : d;
}

/* Interval and possible failure of a binary operator from its operands' intervals. */
static void binary_range(int op, const node_info *a, const node_info *b, node_info *n)
{
    n->lo = INT64_MIN;
    n->hi = INT64_MAX;
    switch (op) {
    case EXPR_ADD: set_range(n, (wide)a->lo + b->lo, (wide)a->hi + b->hi); break;
    case EXPR_SUB: set_range(n, (wide)a->lo - b->hi, (wide)a->hi - b->lo); break;
    case EXPR_MUL: {
        wide p1 = (wide)a->lo * b->lo, p2 = (wide)a->lo * b->hi, p3 = (wide)a->hi * b->lo, p4 = (wide)a->hi * b->hi;
        set_range(n, wmin4(p1, p2, p3, p4), wmax4(p1, p2, p3, p4));
        break;
    }
    case EXPR_DIV:
    case EXPR_MOD:
        if ((b->lo <= 0 && b->hi >= 0) || (a->lo == INT64_MIN && b->lo <= -1 && b->hi >= -1)) {
            n->fail = true;
            break;
        }
        if (op == EXPR_DIV) { /* b has one sign: truncating division is monotonic in each */
            wide q1 = (wide)a->lo / b->lo, q2 = (wide)a->lo / b->hi, q3 = (wide)a->hi / b->lo, q4 = (wide)a->hi / b->hi;
            set_range(n, wmin4(q1, q2, q3, q4), wmax4(q1, q2, q3, q4));
        } else {
            wide m = b->lo > 0 ? (wide)b->hi : -(wide)b->lo; /* largest |b| */
            n->lo = a->lo >= 0 ? 0 : (int64_t)(a->lo > -(m - 1) ? a->lo : -(m - 1));
            n->hi = a->hi <= 0 ? 0 : (int64_t)(a->hi < m - 1 ? a->hi : m - 1);
        }
        break;
    case EXPR_SHL:
        if (b->lo < 0 || b->hi > 63 || a->lo < 0) {
            n->fail = true;
            break;
        }
        if (a->hi == 0) {
            n->lo = n->hi = 0;
            break;
        }
        if (b->hi == 63 || (a->hi >> (62 - b->hi)) > 0) /* a->hi << b->hi reaches 2^63 */
            n->fail = true;
        else {
            n->lo = a->lo << b->lo;
            n->hi = a->hi << b->hi;
        }
        break;
    case EXPR_SHR:
        if (b->lo < 0 || b->hi > 63) {
            n->fail = true;
            break;
        }
        n->lo = a->lo >= 0 ? a->lo >> b->hi : a->lo >> b->lo;
        n->hi = a->hi >= 0 ? a->hi >> b->lo : a->hi >> b->hi;
        break;
    case EXPR_LT:
    case EXPR_LE:
    case EXPR_GT:
    case EXPR_GE:
    case EXPR_EQ:
    case EXPR_NE:
    case EXPR_LAND:
    case EXPR_LOR:
        n->lo = 0;
        n->hi = 1;
        break;
    case EXPR_AND:
        if (a->lo >= 0 || b->lo >= 0) {
            n->lo = 0;
            n->hi = a->lo >= 0 && b->lo >= 0 ? (a->hi < b->hi ? a->hi : b->hi) : a->lo >= 0 ? a->hi : b->hi;
        }
        break;
    case EXPR_OR:
    case EXPR_XOR:
        if (a->lo >= 0 && b->lo >= 0) {
            n->lo = 0;
            n->hi = fill_bits(a->hi > b->hi ? a->hi : b->hi);
        }
        break;
    case EXPR_MIN:
        n->lo = a->lo < b->lo ? a->lo : b->lo;
        n->hi = a->hi < b->hi ? a->hi : b->hi;
        break;
    case EXPR_MAX:
        n->lo = a->lo > b->lo ? a->lo : b->lo;
        n->hi = a->hi > b->hi ? a->hi : b->hi;
        break;
    default: break;
    }
}

/* Linear form of node i from its children's, where the operator keeps it linear and nothing
 * can overflow (the node's own range was already checked by binary_range). */
static bool node_linear(const expr_node *n, const node_info *info, const bool *lin, const linform *form, linform *f)
{
    const node_info *a = n->a >= 0 ? &info[n->a] : NULL, *b = n->b >= 0 ? &info[n->b] : NULL;
    bool la = a && lin[n->a], lb = b && lin[n->b];
    bool ca = la && a->lo == a->hi, cb = lb && b->lo == b->hi;
    switch (n->kind) {
    case EXPR_NUM:
    case EXPR_VAR: return true; /* set by the caller */
    case EXPR_UNARY: return n->op == EXPR_NEG && la && lin_combine(&form[n->a], -1, NULL, 0, f);
    case EXPR_BINARY:
        if (!la || !lb)
            return false;
        switch (n->op) {
        case EXPR_ADD: return lin_combine(&form[n->a], 1, &form[n->b], 1, f);
        case EXPR_SUB: return lin_combine(&form[n->a], 1, &form[n->b], -1, f);
        case EXPR_MUL:
            if (cb)
                return lin_combine(&form[n->a], b->lo, NULL, 0, f);
            return ca && lin_combine(&form[n->b], a->lo, NULL, 0, f);
        case EXPR_SHL: /* a >= 0 and no overflow were proven: a << k == a * 2^k */
            return cb && b->lo >= 0 && b->lo <= 62 && lin_combine(&form[n->a], (wide)1 << b->lo, NULL, 0, f);
        default: return false;
        }
    default: return false;
    }
}

/* The forward pass (children come before parents): each node's interval, possible failure,
 * variables used, subtree start, parent, and linear form where it has one. */
static void analyze(const expr *e, const expr_range2 *r, node_info *info, bool *lin, linform *form, int *jump_at)
{
    for (int i = 0; i < e->n; i++) {
        const expr_node *nd = &e->nodes[i];
        node_info *ni = &info[i];
        ni->first = nd->a >= 0 ? info[nd->a].first : i;
        const node_info *a = nd->a >= 0 ? &info[nd->a] : NULL, *b = nd->b >= 0 ? &info[nd->b] : NULL;
        if (a) {
            info[nd->a].parent = i;
            ni->uses |= a->uses;
            ni->fail |= a->fail;
        }
        if (b) {
            info[nd->b].parent = i;
            ni->uses |= b->uses;
            ni->fail |= b->fail;
        }
        if (nd->kind == EXPR_COND) { /* either arm may run: the hull of both, failing if either may */
            const node_info *c = &info[nd->c];
            info[nd->c].parent = i;
            ni->uses |= c->uses;
            ni->fail |= c->fail;
            ni->lo = b->lo < c->lo ? b->lo : c->lo;
            ni->hi = b->hi > c->hi ? b->hi : c->hi;
            jump_at[b->first] = i;
            jump_at[c->first] = i;
        }
        switch (nd->kind) {
        case EXPR_NUM:
            ni->lo = ni->hi = nd->value;
            form[i].c0 = nd->value;
            lin[i] = true;
            continue;
        case EXPR_VAR:
            ni->lo = r->lo[nd->op];
            ni->hi = r->hi[nd->op];
            ni->uses = 1u << nd->op;
            if (ni->lo == ni->hi)
                form[i].c0 = ni->lo;
            else
                form[i].coef[nd->op] = 1;
            lin[i] = true;
            continue;
        case EXPR_UNARY:
            if (nd->op == EXPR_NEG) {
                ni->opfail = a->lo == INT64_MIN;
                ni->lo = a->hi == INT64_MIN ? INT64_MAX : -a->hi;
                ni->hi = a->lo == INT64_MIN ? INT64_MAX : -a->lo;
            } else if (nd->op == EXPR_BNOT) {
                ni->lo = ~a->hi;
                ni->hi = ~a->lo;
            } else {
                bool nonzero = a->lo > 0 || a->hi < 0, zero = a->lo == 0 && a->hi == 0;
                ni->lo = zero ? 1 : 0;
                ni->hi = nonzero ? 0 : 1;
            }
            break;
        case EXPR_BINARY:
        case EXPR_CALL: {
            node_info tmp = {0};
            binary_range(nd->op, a, b, &tmp);
            ni->opfail = tmp.fail;
            ni->lo = tmp.lo;
            ni->hi = tmp.hi;
            if (nd->op == EXPR_LAND || nd->op == EXPR_LOR)
                jump_at[b->first] = i;
            break;
        }
        case EXPR_COND: break; /* done above */
        }
        ni->fail |= ni->opfail;
        if (ni->fail)
            continue;
        if (ni->lo == ni->hi) { /* a constant, whatever the operator */
            form[i].c0 = ni->lo;
            lin[i] = true;
        } else if (node_linear(nd, info, lin, form, &form[i])) {
            int64_t lo, hi;
            lin[i] = lin_range(&form[i], r, &lo, &hi);
            if (lin[i]) { /* exact over the box: tighter than the interval */
                ni->lo = lo > ni->lo ? lo : ni->lo;
                ni->hi = hi < ni->hi ? hi : ni->hi;
            }
        }
    }
}

/* Program builder state. */
typedef struct builder {
    const expr *e;
    const node_info *info;
    int *jump_at;
    int *fix;
    bool *covered;
    expr_prog *p;
    int cap, lcap;
    int depth, max_depth;
    int fail_pos; /* where the stack limit was passed */
} builder;

/* Append one instruction that changes the stack's depth by push; its index. */
static int emit(builder *b, int op, int pos, int64_t arg, int push)
{
    expr_prog *p = b->p;
    if (p->ncode == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 8;
        p->code = xrealloc(p->code, sizeof *p->code * (size_t)b->cap);
    }
    p->code[p->ncode] = (expr_insn){.op = op, .pos = pos, .arg = arg};
    b->depth += push;
    if (b->depth > b->max_depth)
        b->max_depth = b->depth;
    return p->ncode++;
}

/* Emit a push of a node's value that folded to a constant or a linear form. */
static void emit_linear(builder *b, const linform *f, int64_t lo, int64_t hi, int pos)
{
    if (lo == hi) {
        emit(b, EXPR_I_CONST, pos, lo, 1);
        return;
    }
    expr_lin l = {.c0 = f->c0};
    for (int k = 0; k < NV; k++)
        if (f->coef[k]) {
            l.var[l.nterms] = (uint8_t)k;
            l.coef[l.nterms++] = f->coef[k];
        }
    if (l.nterms == 1 && l.c0 == 0 && l.coef[0] == 1) {
        emit(b, EXPR_I_VAR, pos, l.var[0], 1);
        return;
    }
    expr_prog *p = b->p;
    if (p->nlin == b->lcap) {
        b->lcap = b->lcap ? b->lcap * 2 : 4;
        p->lin = xrealloc(p->lin, sizeof *p->lin * (size_t)b->lcap);
    }
    p->lin[p->nlin] = l;
    emit(b, EXPR_I_LIN, pos, p->nlin++, 1);
}

/* A binary operator whose right operand is a constant and which cannot fail: one instruction
 * without checks (EXPR_I_K + op). */
static bool is_k_form(const builder *b, const bool *lin, int i)
{
    const expr_node *nd = &b->e->nodes[i];
    if ((nd->kind != EXPR_BINARY && nd->kind != EXPR_CALL) || nd->op == EXPR_LAND || nd->op == EXPR_LOR)
        return false;
    const node_info *rb = &b->info[nd->b];
    return !b->info[i].opfail && lin[nd->b] && rb->lo == rb->hi;
}

/* Emit the subtree of root (its value on the stack). lin/form say which nodes fold into one
 * push; as_op: emit root as its operator even if it folds (a slot's own program). */
static bool emit_tree(builder *b, const bool *lin, const linform *form, int root, bool as_op)
{
    const expr *e = b->e;
    const node_info *info = b->info;
    int first = info[root].first;
    b->depth = 0;
    /* parents come after children: a backward pass marks the nodes a folded ancestor covers */
    b->covered[root] = false;
    for (int i = root - 1; i >= first; i--) {
        int p = info[i].parent;
        bool folds = lin[p] && !(p == root && as_op);
        bool absorbed = e->nodes[p].b == i && is_k_form(b, lin, p); /* the constant of p's K form */
        b->covered[i] = b->covered[p] || folds || absorbed;
    }
    for (int i = first; i <= root; i++) {
        int j = b->jump_at[i];
        if (j >= 0 && j <= root && !b->covered[j] && (!lin[j] || (j == root && as_op))) {
            const expr_node *nj = &e->nodes[j];
            if (nj->kind != EXPR_COND)
                b->fix[j] = emit(b, nj->op == EXPR_LAND ? EXPR_I_JF : EXPR_I_JT, nj->pos, 0, -1);
            else if (info[nj->b].first == i) /* before the then arm: skip it when c is zero */
                b->fix[j] = emit(b, EXPR_I_JZ, nj->pos, 0, -1);
            else { /* before the else arm: the then arm jumps over it, c == 0 lands here */
                int over = emit(b, EXPR_I_JMP, nj->pos, 0, -1);
                b->p->code[b->fix[j]].arg = b->p->ncode;
                b->fix[j] = over;
            }
        }
        if (b->covered[i])
            continue;
        const expr_node *nd = &e->nodes[i];
        if (lin[i] && !(i == root && as_op))
            emit_linear(b, &form[i], info[i].lo, info[i].hi, nd->pos);
        else if (nd->kind == EXPR_UNARY)
            emit(b, nd->op, nd->pos, 0, 0);
        else if (nd->kind == EXPR_COND) /* the chosen arm's value is on the stack */
            b->p->code[b->fix[i]].arg = b->p->ncode;
        else if (is_k_form(b, lin, i)) {
            int64_t k = info[nd->b].lo;
            int op = nd->op;
            /* a non-negative value divided by 2^n: a shift or a mask, exactly (no division) */
            if ((op == EXPR_DIV || op == EXPR_MOD) && k > 0 && !(k & (k - 1)) && info[nd->a].lo >= 0) {
                op = op == EXPR_DIV ? EXPR_SHR : EXPR_AND;
                k = op == EXPR_SHR ? __builtin_ctzll((unsigned long long)k) : k - 1;
            }
            emit(b, EXPR_I_K + op, nd->pos, k, 0);
        } else {
            bool sc = nd->op == EXPR_LAND || nd->op == EXPR_LOR;
            emit(b, nd->op, nd->pos, 0, sc ? 0 : -1);
            if (sc)
                b->p->code[b->fix[i]].arg = b->p->ncode; /* the jump lands after the normalisation */
        }
        if (b->max_depth > EXPR_MAX_STACK) {
            b->fail_pos = nd->pos;
            return false;
        }
    }
    return true;
}

/* Recompute the linear forms of the nodes outside slots, the slots being variables NVARS + k. */
static void relinearize(const expr *e, const node_info *info, const int *slot_of, const expr_range2 *r, bool *lin,
                        linform *form)
{
    for (int i = 0; i < e->n; i++) {
        const expr_node *nd = &e->nodes[i];
        if (slot_of[i] >= 0) {
            memset(&form[i], 0, sizeof form[i]);
            form[i].coef[EXPR_NVARS + slot_of[i]] = 1;
            lin[i] = true;
            continue;
        }
        if (lin[i] || info[i].fail || nd->kind == EXPR_NUM || nd->kind == EXPR_VAR)
            continue;
        int64_t lo, hi;
        lin[i] = node_linear(nd, info, lin, form, &form[i]) && lin_range(&form[i], r, &lo, &hi);
    }
}

bool expr_prog_build(const expr *e, const expr_range *rin, expr_prog *p, int *err_pos)
{
    memset(p, 0, sizeof *p);
    expr_range2 r;
    for (int k = 0; k < EXPR_NVARS; k++) {
        r.lo[k] = rin ? rin->lo[k] : INT64_MIN;
        r.hi[k] = rin ? rin->hi[k] : INT64_MAX;
    }
    int n = e->n;
    node_info *info = xcalloc((size_t)n, sizeof *info);
    linform *form = xcalloc((size_t)n, sizeof *form), *form2 = NULL;
    bool *lin = xcalloc((size_t)n, sizeof *lin), *lin2 = NULL;
    int *jump_at = xmalloc(sizeof *jump_at * (size_t)n); /* && / || node whose jump goes there */
    int *slot_of = xmalloc(sizeof *slot_of * (size_t)n);
    for (int i = 0; i < n; i++) {
        jump_at[i] = slot_of[i] = -1;
        info[i].parent = -1;
    }
    analyze(e, &r, info, lin, form, jump_at);
    /* with known ranges, hoist the largest parts that depend only on per-instruction values
     * (warp, loop variable) and cannot fail into slots, so lanes do not recompute them */
    int nslots = 0, slot_node[EXPR_MAX_SLOTS];
    /* in_slot[i]: an ancestor of i is a slot; parents come after children, so the backward pass
     * knows a parent's answer before its children's (linear time, however deep the tree) */
    bool *in_slot = xcalloc((size_t)n, sizeof *in_slot);
    if (rin)
        for (int i = n - 1; i >= 0; i--) {
            const node_info *ni = &info[i];
            bool uniform = !(ni->uses & LANE_VARS) && !ni->fail && !lin[i] && ni->lo != ni->hi;
            bool inside = ni->parent >= 0 && (slot_of[ni->parent] >= 0 || in_slot[ni->parent]);
            in_slot[i] = inside;
            if (uniform && !inside && nslots < EXPR_MAX_SLOTS) {
                slot_node[nslots] = i;
                slot_of[i] = nslots;
                r.lo[EXPR_NVARS + nslots] = ni->lo;
                r.hi[EXPR_NVARS + nslots] = ni->hi;
                nslots++;
            }
        }
    if (nslots) {
        lin2 = xmalloc(sizeof *lin2 * (size_t)n);
        form2 = xmalloc(sizeof *form2 * (size_t)n);
        memcpy(lin2, lin, sizeof *lin2 * (size_t)n);
        memcpy(form2, form, sizeof *form2 * (size_t)n);
        relinearize(e, info, slot_of, &r, lin2, form2);
    }
    builder b = {.e = e, .info = info, .jump_at = jump_at, .p = p};
    b.fix = xmalloc(sizeof *b.fix * (size_t)n);
    b.covered = xcalloc((size_t)n, sizeof *b.covered);
    bool ok = emit_tree(&b, nslots ? lin2 : lin, nslots ? form2 : form, e->root, false);
    p->ncode = ok ? p->ncode : 0;
    int main_len = p->ncode;
    p->depth = b.max_depth;
    for (int i = 0; i < main_len; i++)
        p->jumps |= p->code[i].op >= EXPR_I_JF && p->code[i].op <= EXPR_I_JMP;
    for (int k = 0; k < nslots && ok; k++) {
        p->slot_start[k] = p->ncode;
        ok = emit_tree(&b, lin, form, slot_node[k], true);
        p->slot_end[k] = p->ncode;
    }
    p->nslots = nslots;
    p->may_fail = info[e->root].fail;
    if (!ok)
        *err_pos = b.fail_pos;
    free(b.fix);
    free(b.covered);
    free(in_slot);
    free(info);
    free(form);
    free(form2);
    free(lin);
    free(lin2);
    free(jump_at);
    free(slot_of);
    if (!ok)
        expr_prog_free(p);
    else
        p->ncode = main_len; /* the slots' code follows the value's */
    return ok;
}

/* The checked operators, exactly as the model defines them. */
static expr_status binary_op(int op, int64_t a, int64_t b, int64_t *r)
{
    bool ovf = false;
    switch (op) {
    case EXPR_ADD: ovf = __builtin_add_overflow(a, b, r); break;
    case EXPR_SUB: ovf = __builtin_sub_overflow(a, b, r); break;
    case EXPR_MUL: ovf = __builtin_mul_overflow(a, b, r); break;
    case EXPR_DIV:
    case EXPR_MOD:
        if (b == 0)
            return EXPR_DIV_ZERO;
        if (a == INT64_MIN && b == -1)
            ovf = true;
        else
            *r = op == EXPR_DIV ? a / b : a % b;
        break;
    case EXPR_SHL:
    case EXPR_SHR:
        if (b < 0 || b > 63)
            return EXPR_BAD_SHIFT;
        if (op == EXPR_SHR)
            *r = a >> b;
        else if (a == 0)
            *r = 0;
        else /* a negative value, or a result past 2^63 - 1, overflows (b == 63 would already) */
            ovf = a < 0 || b == 63 || __builtin_mul_overflow(a, (int64_t)1 << b, r);
        break;
    case EXPR_LT: *r = a < b; break;
    case EXPR_LE: *r = a <= b; break;
    case EXPR_GT: *r = a > b; break;
    case EXPR_GE: *r = a >= b; break;
    case EXPR_EQ: *r = a == b; break;
    case EXPR_NE: *r = a != b; break;
    case EXPR_AND: *r = a & b; break;
    case EXPR_XOR: *r = a ^ b; break;
    case EXPR_OR: *r = a | b; break;
    case EXPR_MIN: *r = a < b ? a : b; break;
    case EXPR_MAX: *r = a > b ? a : b; break;
    default: *r = 0; break;
    }
    return ovf ? EXPR_OVERFLOW : EXPR_OK;
}

expr_status expr_apply(int op, int64_t a, int64_t b, int64_t *r)
{
    switch (op) {
    case EXPR_NEG:
        if (a == INT64_MIN)
            return EXPR_OVERFLOW;
        *r = -a;
        return EXPR_OK;
    case EXPR_BNOT: *r = ~a; return EXPR_OK;
    case EXPR_LNOT: *r = !a; return EXPR_OK;
    case EXPR_LAND: *r = a && b; return EXPR_OK;
    case EXPR_LOR: *r = a || b; return EXPR_OK;
    default: return binary_op(op, a, b, r);
    }
}

/* A linear form, in wrapping arithmetic: exact because the result was proven to fit. */
static inline int64_t lin_eval(const expr_lin *l, const expr_env *env)
{
    uint64_t v = (uint64_t)l->c0;
    for (int k = 0; k < l->nterms; k++)
        v += (uint64_t)l->coef[k] * (uint64_t)env->v[l->var[k]];
    return (int64_t)v;
}

/* An operator with a constant right operand that was proven not to fail: no checks needed
 * (wrapping forms only to keep the compiler from assuming anything). */
static inline int64_t k_op(int op, int64_t a, int64_t k)
{
    switch (op) {
    case EXPR_ADD: return (int64_t)((uint64_t)a + (uint64_t)k);
    case EXPR_SUB: return (int64_t)((uint64_t)a - (uint64_t)k);
    case EXPR_MUL: return (int64_t)((uint64_t)a * (uint64_t)k);
    case EXPR_DIV: return a / k;
    case EXPR_MOD: return a % k;
    case EXPR_SHL: return (int64_t)((uint64_t)a << k);
    case EXPR_SHR: return a >> k;
    case EXPR_LT: return a < k;
    case EXPR_LE: return a <= k;
    case EXPR_GT: return a > k;
    case EXPR_GE: return a >= k;
    case EXPR_EQ: return a == k;
    case EXPR_NE: return a != k;
    case EXPR_AND: return a & k;
    case EXPR_XOR: return a ^ k;
    case EXPR_OR: return a | k;
    case EXPR_MIN: return a < k ? a : k;
    case EXPR_MAX: return a > k ? a : k;
    default: return 0;
    }
}

/* Run code[from .. to); same contract as expr_eval. */
static expr_status run(const expr_prog *p, int from, int to, const expr_env *env, int64_t *out, int *pos)
{
    const expr_insn *c = p->code;
    if (to - from == 1) { /* the fast paths: one constant, variable or linear form */
        c += from;
        *out = c->op == EXPR_I_CONST ? c->arg : c->op == EXPR_I_VAR ? env->v[c->arg] : lin_eval(&p->lin[c->arg], env);
        return EXPR_OK;
    }
    int64_t st[EXPR_MAX_STACK];
    st[0] = 0;  /* a compiled program always leaves its value here; set for the analysers */
    int sp = 0; /* st[sp - 1] is the top */
    for (int i = from; i < to; i++) {
        const expr_insn *in = &c[i];
        expr_status s = EXPR_OK;
        switch (in->op) {
        case EXPR_I_CONST: st[sp++] = in->arg; break;
        case EXPR_I_VAR: st[sp++] = env->v[in->arg]; break;
        case EXPR_I_LIN: st[sp++] = lin_eval(&p->lin[in->arg], env); break;
        case EXPR_I_JF:
            if (!st[sp - 1])
                i = (int)in->arg - 1;
            else
                sp--;
            break;
        case EXPR_I_JT:
            if (st[sp - 1]) {
                st[sp - 1] = 1;
                i = (int)in->arg - 1;
            } else
                sp--;
            break;
        case EXPR_I_JZ:
            if (!st[--sp])
                i = (int)in->arg - 1;
            break;
        case EXPR_I_JMP: i = (int)in->arg - 1; break;
        case EXPR_NEG:
            if (st[sp - 1] == INT64_MIN)
                s = EXPR_OVERFLOW;
            else
                st[sp - 1] = -st[sp - 1];
            break;
        case EXPR_BNOT: st[sp - 1] = ~st[sp - 1]; break;
        case EXPR_LNOT: st[sp - 1] = !st[sp - 1]; break;
        case EXPR_LAND:
        case EXPR_LOR: st[sp - 1] = st[sp - 1] != 0; break; /* reached only through b */
        default:
            if (in->op >= EXPR_I_K) {
                st[sp - 1] = k_op(in->op - EXPR_I_K, st[sp - 1], in->arg);
                break;
            }
            sp--;
            s = binary_op(in->op, st[sp - 1], st[sp], &st[sp - 1]);
            break;
        }
        if (s != EXPR_OK) {
            if (pos)
                *pos = in->pos;
            return s;
        }
    }
    *out = st[0];
    return EXPR_OK;
}

expr_status expr_prog_run(const expr_prog *p, const expr_env *env, int64_t *out, int *pos)
{
    return run(p, 0, p->ncode, env, out, pos);
}

/* A scan of the value's code: the variable as an operand, or a term of a linear form. */
bool expr_reads_directly(const expr *e, expr_var v)
{
    const expr_prog *p = e->fast.ncode ? &e->fast : &e->prog;
    for (int i = 0; i < p->ncode; i++) {
        const expr_insn *in = &p->code[i];
        if (in->op == EXPR_I_VAR && in->arg == (int64_t)v)
            return true;
        if (in->op == EXPR_I_LIN)
            for (int k = 0; k < p->lin[in->arg].nterms; k++)
                if (p->lin[in->arg].var[k] == (int)v)
                    return true;
    }
    return false;
}

int expr_slot_count(const expr *e)
{
    return e->fast.ncode ? e->fast.nslots : 0;
}

void expr_prog_prepare(const expr_prog *p, expr_env *env)
{
    for (int k = 0; k < p->nslots; k++) /* cannot fail: only such parts become slots */
        run(p, p->slot_start[k], p->slot_end[k], env, &env->v[EXPR_NVARS + k], NULL);
}

/* A lane variable's index in expr_lanes, or -1 for a per-instruction one. */
static inline __attribute__((always_inline)) int lane_var(int v)
{
    switch (v) {
    case EXPR_TX: return 0;
    case EXPR_TY: return 1;
    case EXPR_TZ: return 2;
    case EXPR_TID: return 3;
    case EXPR_LANE: return 4;
    default: return -1;
    }
}

#define WARP_DEPTH 16 /* deepest stack evaluated a warp at a time */

/* Apply one operation to every lane: a loop per operator (no switch inside), which the compiler
 * turns into vector code. */
#define EACH_LANE(expr)                                                                                                \
    do {                                                                                                               \
        for (int l = 0; l < EXPR_LANES; l++)                                                                           \
            a[l] = (expr);                                                                                             \
    } while (0)

/* The signed remainder and quotient by 2^s (s < 63) as C defines them (rounded toward zero),
 * with shifts only. */
static inline int64_t mod_pow2(int64_t x, int s)
{
    uint64_t bias = (x < 0 ? ~(uint64_t)0 : 0) & (((uint64_t)1 << s) - 1u); /* 2^s - 1 for negative x */
    return (int64_t)((uint64_t)x - (((uint64_t)x + bias) & ~(((uint64_t)1 << s) - 1u)));
}

static inline int64_t div_pow2(int64_t x, int s)
{
    uint64_t bias = (x < 0 ? ~(uint64_t)0 : 0) & (((uint64_t)1 << s) - 1u);
    return (int64_t)((uint64_t)x + bias) >> s;
}

/* k_op over every lane (wrapping; the divisions never trap: k is neither 0 nor, where a lane
 * could hold INT64_MIN, -1 for the lanes that matter, and the others are made harmless). */
static inline __attribute__((always_inline)) void k_op_lanes(int op, int64_t *a, int64_t k)
{
    if ((op == EXPR_DIV || op == EXPR_MOD) && (k == 0 || k == -1)) {
        for (int l = 0; l < EXPR_LANES; l++)
            a[l] = k == 0 ? 0 : op == EXPR_DIV ? (int64_t)(0 - (uint64_t)a[l]) : 0;
        return;
    }
    const uint64_t u = (uint64_t)k;
    const int s = k > 0 && (k & (k - 1)) == 0 && k < ((int64_t)1 << 62) ? __builtin_ctzll(u) : -1;
    switch (op) {
    case EXPR_ADD: EACH_LANE((int64_t)((uint64_t)a[l] + u)); break;
    case EXPR_SUB: EACH_LANE((int64_t)((uint64_t)a[l] - u)); break;
    case EXPR_MUL: EACH_LANE((int64_t)((uint64_t)a[l] * u)); break;
    case EXPR_DIV:
        if (s >= 0)
            EACH_LANE(div_pow2(a[l], s));
        else
            EACH_LANE(a[l] / k);
        break;
    case EXPR_MOD:
        if (s >= 0)
            EACH_LANE(mod_pow2(a[l], s));
        else
            EACH_LANE(a[l] % k);
        break;
    case EXPR_SHL: EACH_LANE((int64_t)((uint64_t)a[l] << k)); break;
    case EXPR_SHR: EACH_LANE(a[l] >> k); break;
    case EXPR_LT: EACH_LANE(a[l] < k); break;
    case EXPR_LE: EACH_LANE(a[l] <= k); break;
    case EXPR_GT: EACH_LANE(a[l] > k); break;
    case EXPR_GE: EACH_LANE(a[l] >= k); break;
    case EXPR_EQ: EACH_LANE(a[l] == k); break;
    case EXPR_NE: EACH_LANE(a[l] != k); break;
    case EXPR_AND: EACH_LANE(a[l] & k); break;
    case EXPR_XOR: EACH_LANE(a[l] ^ k); break;
    case EXPR_OR: EACH_LANE(a[l] | k); break;
    case EXPR_MIN: EACH_LANE(a[l] < k ? a[l] : k); break;
    case EXPR_MAX: EACH_LANE(a[l] > k ? a[l] : k); break;
    default: EACH_LANE(0); break;
    }
}

/* A binary operator over every lane (t = t op d) when no lane can fail; false (t untouched) for
 * the operators that can fail and for + and - where a lane overflows, which go lane by lane. */
static inline __attribute__((always_inline)) bool safe_op_lanes(int op, int64_t *a, const int64_t *d)
{
    switch (op) {
    case EXPR_LT: EACH_LANE(a[l] < d[l]); return true;
    case EXPR_LE: EACH_LANE(a[l] <= d[l]); return true;
    case EXPR_GT: EACH_LANE(a[l] > d[l]); return true;
    case EXPR_GE: EACH_LANE(a[l] >= d[l]); return true;
    case EXPR_EQ: EACH_LANE(a[l] == d[l]); return true;
    case EXPR_NE: EACH_LANE(a[l] != d[l]); return true;
    case EXPR_AND: EACH_LANE(a[l] & d[l]); return true;
    case EXPR_XOR: EACH_LANE(a[l] ^ d[l]); return true;
    case EXPR_OR: EACH_LANE(a[l] | d[l]); return true;
    case EXPR_MIN: EACH_LANE(a[l] < d[l] ? a[l] : d[l]); return true;
    case EXPR_MAX: EACH_LANE(a[l] > d[l] ? a[l] : d[l]); return true;
    case EXPR_ADD:
    case EXPR_SUB: { /* wrapping, then the lanes whose sign came out wrong overflowed */
        int64_t r[EXPR_LANES];
        uint64_t ovf = 0;
        const bool add = op == EXPR_ADD;
        for (int l = 0; l < EXPR_LANES; l++) {
            uint64_t x = (uint64_t)a[l], y = (uint64_t)d[l], s = add ? x + y : x - y;
            r[l] = (int64_t)s;
            ovf |= add ? (x ^ s) & (y ^ s) : (x ^ y) & (x ^ s);
        }
        if (ovf >> 63) /* some lane overflowed, perhaps a dead one: lane by lane */
            return false;
        for (int l = 0; l < EXPR_LANES; l++)
            a[l] = r[l];
        return true;
    }
    default: return false;
    }
}

EXPR_CLONES uint32_t expr_eval_lanes(const expr *e, const expr_env *env, const expr_lanes *lv, uint32_t mask,
                                     int64_t *out, expr_status *st, int *pos)
{
    const expr_prog *p = e->fast.ncode ? &e->fast : &e->prog;
    if (p->jumps || p->depth > WARP_DEPTH) { /* lane by lane */
        expr_env x = *env;
        uint32_t failed = 0;
        for (int l = 0; l < EXPR_LANES; l++)
            out[l] = 0;
        for (uint32_t m = mask; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            x.v[EXPR_TX] = lv->v[0][l];
            x.v[EXPR_TY] = lv->v[1][l];
            x.v[EXPR_TZ] = lv->v[2][l];
            x.v[EXPR_TID] = lv->v[3][l];
            x.v[EXPR_LANE] = lv->v[4][l];
            st[l] = run(p, 0, p->ncode, &x, &out[l], &pos[l]);
            if (st[l] != EXPR_OK) {
                failed |= 1u << l;
                out[l] = 0;
            }
        }
        return failed;
    }
    int64_t stk[WARP_DEPTH][EXPR_LANES];
    int sp = 0;
    uint32_t live = mask, failed = 0; /* live: lanes evaluating without an error so far */
    for (int i = 0; i < p->ncode; i++) {
        const expr_insn *in = &p->code[i];
        /* top and next free slot, formed only when they exist (stk[-1] is undefined) */
        int64_t *t = sp > 0 ? stk[sp - 1] : NULL, *d = sp < WARP_DEPTH ? stk[sp] : NULL;
        switch (in->op) {
        case EXPR_I_CONST:
            for (int l = 0; l < EXPR_LANES; l++)
                d[l] = in->arg;
            sp++;
            break;
        case EXPR_I_VAR: {
            int k = lane_var((int)in->arg);
            for (int l = 0; l < EXPR_LANES; l++)
                d[l] = k >= 0 ? lv->v[k][l] : env->v[in->arg];
            sp++;
            break;
        }
        case EXPR_I_LIN: {
            const expr_lin *f = &p->lin[in->arg];
            uint64_t c = (uint64_t)f->c0; /* wrapping: the result was proven to fit */
            for (int k = 0; k < f->nterms; k++)
                if (lane_var(f->var[k]) < 0)
                    c += (uint64_t)f->coef[k] * (uint64_t)env->v[f->var[k]];
            for (int l = 0; l < EXPR_LANES; l++)
                d[l] = (int64_t)c;
            for (int k = 0; k < f->nterms; k++) {
                int j = lane_var(f->var[k]);
                if (j < 0)
                    continue;
                uint64_t cf = (uint64_t)f->coef[k];
                for (int l = 0; l < EXPR_LANES; l++)
                    d[l] = (int64_t)((uint64_t)d[l] + cf * (uint64_t)lv->v[j][l]);
            }
            sp++;
            break;
        }
        case EXPR_BNOT:
            for (int l = 0; l < EXPR_LANES; l++)
                t[l] = ~t[l];
            break;
        case EXPR_LNOT:
            for (int l = 0; l < EXPR_LANES; l++)
                t[l] = !t[l];
            break;
        case EXPR_NEG:
            for (int l = 0; l < EXPR_LANES; l++) {
                if (t[l] == INT64_MIN && (live >> l & 1)) {
                    live &= ~(1u << l);
                    failed |= 1u << l;
                    st[l] = EXPR_OVERFLOW;
                    pos[l] = in->pos;
                }
                t[l] = (int64_t)(0 - (uint64_t)t[l]);
            }
            break;
        default:
            if (in->op >= EXPR_I_K) {
                k_op_lanes(in->op - EXPR_I_K, t, in->arg);
                break;
            }
            sp--;
            t = stk[sp - 1];
            d = stk[sp];
            if (safe_op_lanes(in->op, t, d)) { /* every lane, dead ones too: they are never read */
                for (int l = 0; l < EXPR_LANES; l++)
                    t[l] = (live >> l) & 1 ? t[l] : 0;
                break;
            }
            for (int l = 0; l < EXPR_LANES; l++) {
                int64_t r = 0;
                if (live >> l & 1) {
                    expr_status s = binary_op(in->op, t[l], d[l], &r);
                    if (s != EXPR_OK) {
                        live &= ~(1u << l);
                        failed |= 1u << l;
                        st[l] = s;
                        pos[l] = in->pos;
                        r = 0;
                    }
                }
                t[l] = r;
            }
            break;
        }
    }
    for (int l = 0; l < EXPR_LANES; l++) /* a blend, not a loop over the live lanes' bits */
        out[l] = (live >> l) & 1 ? stk[0][l] : 0;
    return failed;
}
