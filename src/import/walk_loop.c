/* walk_loop: which for statements are simple counted loops (uniform start, bound and step, or a
 * block-strided loop), and their iteration values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"

/* Find a break, return or goto that leaves the loop early (a break inside an inner loop or
 * switch belongs to it and is not looked at; a continue only ends one iteration: the walker
 * turns it into a condition). */
static enum CXChildVisitResult find_exit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *found = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_SwitchStmt ||
        k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The reason a loop is not simple, with why its value is not known (the variable, and the -D
 * that gives it: "its bound is not known: depends on the kernel parameter 'n' (give -D n=VALUE)"),
 * kept in w->exit_why. */
static const char *loop_reason(W *w, const char *what)
{
    if (w->why[0])
        snprintf(w->exit_why, sizeof w->exit_why, "%s: %s", what, w->why);
    else
        snprintf(w->exit_why, sizeof w->exit_why, "%s", what);
    return w->exit_why;
}

/* The breaks of a loop body that an if directly in the body guards (if (C) { ...; break; }),
 * with their conditions; false when the body leaves the loop another way (a return, a goto, a
 * break elsewhere). */
static bool body_breaks(CXCursor body, CXCursor *brk, CXCursor *cond, int *n, int max, bool ret_ok)
{
    CXCursor exit = clang_getNullCursor();
    clang_visitChildren(body, find_exit, &exit);
    if (clang_Cursor_isNull(exit))
        return true;
    walk_kids ks = walk_children(body);
    int total = 0; /* exits found under a top-level if */
    for (int i = 0; i < ks.n; i++) {
        if (clang_getCursorKind(ks.c[i]) != CXCursor_IfStmt)
            continue;
        walk_kids ik = walk_children(ks.c[i]);
        if (ik.n != 2 || !clang_isExpression(clang_getCursorKind(ik.c[0])))
            continue; /* an else, or a declaration in the condition */
        CXCursor then = ik.c[1], e = clang_getNullCursor();
        clang_visitChildren(ks.c[i], find_exit, &e);
        if (clang_Cursor_isNull(e))
            continue;
        walk_kids tk = walk_children(then);
        /* a return ends the loop as a break does when nothing follows the loop (its value: none) */
        CXCursor last = clang_getCursorKind(then) == CXCursor_CompoundStmt && tk.n ? tk.c[tk.n - 1] : then;
        walk_kids rk = walk_children(last);
        bool direct = clang_getCursorKind(last) == CXCursor_BreakStmt ||
                      (ret_ok && clang_getCursorKind(last) == CXCursor_ReturnStmt && rk.n == 0);
        CXCursor inner = clang_getNullCursor();
        for (int j = 0; j + 1 < tk.n; j++) /* nothing else leaves the loop in that branch */
            clang_visitChildren(tk.c[j], find_exit, &inner);
        if (!direct || !clang_Cursor_isNull(inner) || *n == max)
            return false;
        brk[*n] = last;
        cond[(*n)++] = ik.c[0];
        total++;
    }
    /* every exit of the body is one of those */
    int all = 0;
    for (int i = 0; i < ks.n; i++) {
        CXCursor e = clang_getNullCursor();
        if (clang_getCursorKind(ks.c[i]) == CXCursor_BreakStmt || clang_getCursorKind(ks.c[i]) == CXCursor_ReturnStmt ||
            clang_getCursorKind(ks.c[i]) == CXCursor_GotoStmt)
            return false;
        clang_visitChildren(ks.c[i], find_exit, &e);
        all += !clang_Cursor_isNull(e);
    }
    return all == total;
}

/* Iterations of a loop; false when more than MAX_ITER or it would not end. */
static bool loop_count(wloop *L, int *n)
{
    int64_t v = L->from;
    int it = 0;
    L->first = v;
    for (;;) {
        bool go = L->kind == 2 || (L->kind == 0 && L->step < 0) ? v > L->to : v < L->to;
        if (!go)
            break;
        if (++it > MAX_ITER)
            return false;
        L->last = v;
        int64_t nv;
        if (L->kind == 0   ? __builtin_add_overflow(v, L->step, &nv)
            : L->kind == 1 ? __builtin_mul_overflow(v, L->step, &nv)
                           : (nv = v / L->step, false))
            return false;
        if (nv == v)
            return false;
        v = nv;
    }
    *n = it;
    return true;
}

/* The values every thread of the block shares: blockDim (1 where --block gives no size); env
 * starts with them and has room for more. (warpSize is a constant of the prelude.) */
static void block_env(const W *w, expr_pool_env *env)
{
    memset(env, 0, sizeof *env);
    for (int d = 0; d < 3; d++) {
        env->v[EXPR_BDX + d] = w->o->block[d] > 0 ? w->o->block[d] : 1;
        env->known |= 1u << (EXPR_BDX + d);
    }
}

/* A uniform constant: an expression without per-thread values, evaluated for the block. */
static bool uniform(W *w, CXCursor c, int64_t *out)
{
    w->why[0] = '\0';
    expr_ref e = walk_value(w, c);
    if (!e)
        return false;
    expr_pool_env env;
    block_env(w, &env);
    if (!expr_pool_eval(&w->ep, e, &env, out)) {
        walk_fail(w, c, "%s", expr_pool_uses_thread(&w->ep, e) ? "depends on the thread" : "not a constant");
        return false;
    }
    return true;
}

/* The per-thread values of thread t of the block (and the block's) for expr_pool_eval. */
static void thread_env(const W *w, int t, expr_pool_env *env)
{
    const int *b = w->o->block;
    int bx = b[0] > 0 ? b[0] : 1, by = b[1] > 0 ? b[1] : 1, bz = b[2] > 0 ? b[2] : 1;
    static const int vars[] = {EXPR_TX, EXPR_TY, EXPR_TZ, EXPR_BDX, EXPR_BDY, EXPR_BDZ, EXPR_TID, EXPR_LANE, EXPR_WARP};
    int64_t vals[] = {t % bx, t / bx % by, t / (bx * by), bx, by, bz, t, t % 32, t / 32};
    memset(env, 0, sizeof *env);
    for (int i = 0; i < 9; i++) {
        env->v[vars[i]] = vals[i];
        env->known |= 1u << vars[i];
    }
}

/* The threads of the block. */
static int block_threads(const W *w)
{
    const int *b = w->o->block;
    return (b[0] > 0 ? b[0] : 1) * (b[1] > 0 ? b[1] : 1) * (b[2] > 0 ? b[2] : 1);
}

/* The smallest value of e over the threads of the block. */
static bool thread_min(W *w, expr_ref e, int64_t *out)
{
    bool any = false;
    for (int t = 0; t < block_threads(w); t++) {
        expr_pool_env env;
        thread_env(w, t, &env);
        int64_t v;
        if (!expr_pool_eval(&w->ep, e, &env, &v))
            return false;
        if (!any || v < *out)
            *out = v;
        any = true;
    }
    return any;
}

/* Whether e has the same value for every thread of the block (in *out). */
static bool thread_same(W *w, expr_ref e, int64_t *out)
{
    for (int t = 0; t < block_threads(w); t++) {
        expr_pool_env env;
        thread_env(w, t, &env);
        int64_t v;
        if (!expr_pool_eval(&w->ep, e, &env, &v) || (t > 0 && v != *out))
            return false;
        *out = v;
    }
    return true;
}

/* Evaluate e for every combination of the values of the enclosing counted loops it uses (at
 * most MAX_ITER), from loop i of the stack on (each value put in for its variable); the largest
 * (up) or smallest value in *best. */
static bool bound_scan(W *w, expr_ref e, int i, const expr_pool_env *env, bool up, int64_t *best, bool *any,
                       int *budget)
{
    if (i == w->nlstack) {
        int64_t v;
        if (--*budget < 0 || !expr_pool_eval(&w->ep, e, env, &v))
            return false;
        if (!*any || (up ? v > *best : v < *best))
            *best = v;
        *any = true;
        return true;
    }
    const wloop *L = &w->loops[w->lstack[i]];
    if (!expr_pool_uses(&w->ep, e, L->var) || L->start)
        return bound_scan(w, e, i + 1, env, up, best, any, budget);
    bool ok = true;
    for (int64_t v = L->first, n = 0; ok && n < MAX_ITER; n++) {
        ok = bound_scan(w, expr_pool_subst(&w->ep, e, L->var, expr_pool_num(&w->ep, v)), i + 1, env, up, best, any,
                        budget);
        if (v == L->last)
            break;
        v = L->kind == 0 ? v + L->step : L->kind == 1 ? v * L->step : v / L->step;
    }
    return ok;
}

/* The furthest value (largest when max, else smallest) of e, which uses the variables of
 * enclosing counted loops, over their iterations; false when e is not such. */
static bool outer_extreme(W *w, expr_ref e, bool max, int64_t *out)
{
    expr_pool_env env;
    block_env(w, &env);
    bool any = false;
    int budget = MAX_ITER;
    return bound_scan(w, e, 0, &env, max, out, &any, &budget) && any;
}

/* Whether every value e (a start that uses enclosing loops' variables) takes over those loops is
 * one of the n values of L (or lies past its last, where the loop does not run). */
static bool start_scan(W *w, expr_ref e, int i, const expr_pool_env *env, const wloop *L, int n, int *budget)
{
    if (i == w->nlstack) {
        int64_t s;
        if (--*budget < 0 || !expr_pool_eval(&w->ep, e, env, &s))
            return false;
        bool up = L->kind == 1 || (L->kind == 0 && L->step > 0);
        if (up ? s > L->last : s < L->last)
            return true;
        int64_t v = L->first;
        for (int it = 0; it < n; it++) {
            if (v == s)
                return true;
            v = L->kind == 0 ? v + L->step : L->kind == 1 ? v * L->step : v / L->step;
        }
        return false;
    }
    const wloop *O = &w->loops[w->lstack[i]];
    if (!expr_pool_uses(&w->ep, e, O->var) || O->start)
        return start_scan(w, e, i + 1, env, L, n, budget);
    bool ok = true;
    for (int64_t v = O->first, k = 0; ok && k < MAX_ITER; k++) {
        ok = start_scan(w, expr_pool_subst(&w->ep, e, O->var, expr_pool_num(&w->ep, v)), i + 1, env, L, n, budget);
        if (v == O->last)
            break;
        v = O->kind == 0 ? v + O->step : O->kind == 1 ? v * O->step : v / O->step;
    }
    return ok;
}

/* A bound that depends on the variables of enclosing counted loops (for (j = 0; j < i; j++)):
 * its value, with the furthest it reaches over those loops in *bound (the loop runs that far,
 * each iteration only where it is within the bound of the time); 0 when it is not such. */
static expr_ref outer_bound(W *w, CXCursor bound_e, bool up, int64_t *bound)
{
    w->why[0] = '\0';
    expr_ref e = walk_value(w, bound_e);
    if (!e || expr_pool_uses_thread(&w->ep, e))
        return 0;
    expr_pool_env env;
    block_env(w, &env);
    bool any = false;
    int budget = MAX_ITER;
    if (!bound_scan(w, e, 0, &env, up, bound, &any, &budget) || !any)
        return 0;
    return e;
}

/* The parts of a loop statement that simple_loop reads. */
typedef struct loop_parts {
    CXCursor var;    /* the loop variable */
    CXCursor from_e; /* its start expression; null: from_v, its value when the loop starts */
    expr_ref from_v;
    CXCursor cond, inc, body;
    int writes; /* writes of the variable in the statement that are not the increment */
} loop_parts;

/* The side of a loop condition that holds the variable: v, or v + k, k + v, v - k with k the
 * same for every thread (*adj = k or -k, moved to the bound); false when it is neither. */
static bool var_side(W *w, CXCursor side, CXCursor var, int64_t *adj)
{
    *adj = 0;
    if (walk_refers_to(side, var))
        return true;
    side = walk_strip(side);
    const char *op = import_binary_op(side);
    walk_kids k = walk_children(side);
    if (!op || k.n != 2 || (strcmp(op, "+") && strcmp(op, "-")))
        return false;
    int vi = walk_refers_to(k.c[0], var) ? 0 : walk_refers_to(k.c[1], var) && op[0] == '+' ? 1 : -1;
    int64_t v;
    if (vi < 0 || !uniform(w, k.c[1 - vi], &v))
        return false;
    *adj = op[0] == '+' ? v : -v;
    return true;
}

/* Read a loop (its parts) as a simple counted loop: NULL with *L filled, or why it is not one. */
static const char *simple_loop(W *w, CXCursor c, const loop_parts *lp, wloop *L)
{
    CXCursor var = lp->var, cond = walk_strip(lp->cond), inc = walk_strip(lp->inc);
    CXType vt = clang_getCanonicalType(clang_getCursorType(var));
    if (vt.kind == CXType_Float || vt.kind == CXType_Double || vt.kind == CXType_Pointer)
        return "a loop variable that is not an integer";
    /* condition: v OP bound, or bound OP v (v may be v + k) */
    const char *cop = import_binary_op(cond);
    walk_kids ck = walk_children(cond);
    if (!cop || ck.n != 2)
        return "a loop condition that is not a comparison";
    CXCursor bound_e;
    char opb[3];
    snprintf(opb, sizeof opb, "%s", cop);
    int64_t adj = 0;
    if (var_side(w, ck.c[0], var, &adj))
        bound_e = ck.c[1];
    else if (var_side(w, ck.c[1], var, &adj)) {
        bound_e = ck.c[0];
        const char *sw = !strcmp(cop, "<")    ? ">"
                         : !strcmp(cop, ">")  ? "<"
                         : !strcmp(cop, "<=") ? ">="
                         : !strcmp(cop, ">=") ? "<="
                                              : cop;
        snprintf(opb, sizeof opb, "%s", sw);
    } else
        return "a loop condition that does not compare the loop variable";
    /* increment */
    int kind = 0, writes = lp->writes + 1;
    int64_t step = 0;
    const char *iop = import_unary_op(inc);
    const char *bop = import_binary_op(inc);
    walk_kids nk = walk_children(inc);
    if (iop && nk.n == 1 && walk_refers_to(nk.c[0], var) && (!strcmp(iop, "++") || !strcmp(iop, "--")))
        step = iop[0] == '+' ? 1 : -1;
    else if (bop && nk.n == 2 && walk_refers_to(nk.c[0], var)) {
        int64_t k;
        CXCursor ke = nk.c[1];
        if (!strcmp(bop, "=")) {
            /* v = v OP k, or k OP v for + and * (Rodinia's 'i = 2 * i') */
            CXCursor rhs = walk_strip(nk.c[1]);
            walk_kids rk = walk_children(rhs);
            const char *rop = import_binary_op(rhs);
            bool swapped = rop && rk.n == 2 && !walk_refers_to(rk.c[0], var) && walk_refers_to(rk.c[1], var) &&
                           (!strcmp(rop, "+") || !strcmp(rop, "*"));
            if (!rop || rk.n != 2 || (!walk_refers_to(rk.c[0], var) && !swapped))
                return "a loop increment that is not 'v += k', 'v *= k', 'v /= k' or a shift";
            bop = rop;
            ke = rk.c[swapped ? 0 : 1];
        }
        if (!uniform(w, ke, &k))
            return loop_reason(w, "its step is not a constant");
        if (!strcmp(bop, "+=") || !strcmp(bop, "+"))
            step = k;
        else if (!strcmp(bop, "-=") || !strcmp(bop, "-"))
            step = -k;
        else if (!strcmp(bop, "*=") || !strcmp(bop, "*"))
            kind = 1, step = k;
        else if (!strcmp(bop, "<<=") || !strcmp(bop, "<<"))
            kind = 1, step = k >= 0 && k < 31 ? (int64_t)1 << k : 0;
        else if (!strcmp(bop, "/=") || !strcmp(bop, "/"))
            kind = 2, step = k;
        else if (!strcmp(bop, ">>=") || !strcmp(bop, ">>"))
            kind = 2, step = k >= 0 && k < 31 ? (int64_t)1 << k : 0;
        else
            return "a loop increment that is not 'v += k', 'v *= k', 'v /= k' or a shift";
    } else
        return "a loop increment that is not 'v++', 'v += k', 'v *= k', 'v /= k' or a shift";
    if (step == 0 || (kind && step < 2))
        return "a loop step that does not move the variable";
    int64_t from, bound;
    expr_ref start = 0;
    w->why[0] = '\0';
    expr_ref fv = clang_Cursor_isNull(lp->from_e) ? lp->from_v : walk_value(w, lp->from_e);
    expr_pool_env env;
    block_env(w, &env);
    bool up = kind == 1 || (kind == 0 && step > 0);
    expr_ref start_v = 0;
    if (fv && !expr_pool_eval(&w->ep, fv, &env, &from) && !expr_pool_uses_thread(&w->ep, fv) &&
        outer_extreme(w, fv, !up, &from))
        start_v = fv; /* a start that moves with an enclosing loop: for (s = size / 2; ...) */
    else if (!fv || !expr_pool_eval(&w->ep, fv, &env, &from)) {
        /* for (i = threadIdx.x; i < n; i += blockDim.x): counted by k, i = start + k * step */
        start = fv;
        if (!start || !expr_pool_uses_thread(&w->ep, start) || kind != 0 || step < 1)
            return loop_reason(w, start ? "its start is not the same for every thread, nor known"
                                        : "its start is not known");
        if (!thread_min(w, start, &from))
            return "its start cannot be evaluated for every thread";
    }
    expr_ref bound_v = 0;
    int64_t span = -1; /* a per-thread bound that is the start plus this, the same for every thread */
    if (!uniform(w, bound_e, &bound)) {
        char why[sizeof w->why];
        memcpy(why, w->why, sizeof why);
        bound_v = outer_bound(w, bound_e, up, &bound);
        if (!bound_v && start && strcmp(opb, "!=")) { /* for (i = s; i < s + 32; i += 4), s per thread */
            w->why[0] = '\0';
            expr_ref bv = walk_value(w, bound_e);
            int64_t d = 0;
            if (bv && thread_same(w, expr_pool_binary(&w->ep, EXPR_SUB, bv, start), &d) && d >= 0 &&
                d <= MAX_ITER * step) {
                bound_v = bv;
                span = d;
                bound = from + d;
            }
        }
        if (!bound_v || !strcmp(opb, "!=")) {
            memcpy(w->why, why, sizeof why);
            return loop_reason(w, "its bound is not the same for every thread, or not known");
        }
    }
    if (__builtin_sub_overflow(bound, adj, &bound))
        return "its bound is out of range";
    if (!strcmp(opb, "<=") || !strcmp(opb, ">="))
        bound += opb[0] == '<' ? 1 : -1;
    if ((up && opb[0] != '<' && strcmp(opb, "!=")) || (!up && opb[0] != '>' && strcmp(opb, "!=")))
        return "a loop whose condition and step go different ways";
    if (!strcmp(opb, "!=") && kind != 0) {
        /* while (i != 0) { ...; i /= 2; }: a bound the steps reach exactly is the bound of '>'
         * (or '<' for a growing variable), passed nowhere before it */
        bool hit = false;
        int64_t v = from;
        for (int it = 0; it <= MAX_ITER && !hit; it++) {
            hit = v == bound;
            int64_t nv;
            if (kind == 1 ? __builtin_mul_overflow(v, step, &nv) : (nv = v / step, false))
                break;
            if (nv == v)
                break;
            v = nv;
        }
        /* the '>' (halving) or '<' (doubling) that stands for it holds only from the bound's
         * side the steps come from (a negative start halving up to 0 does not count down) */
        if (!hit || (kind == 2 ? from < bound : from > bound))
            return "a '!=' loop condition that the step does not reach exactly";
        snprintf(opb, sizeof opb, "%s", kind == 1 ? "<" : ">");
    } else if (!strcmp(opb, "!=") && (bound - from) % step != 0)
        return "a '!=' loop condition that the step does not reach exactly";
    if (walk_mod_count_in(c, var) != writes) /* in this statement: a variable declared before it */
        return "the loop variable also changes inside the loop";
    CXCursor exit = clang_getNullCursor(), brk[4], bcond[4];
    int nbrk = 0;
    /* the kernel's last statement, walked in the kernel itself: a 'return' in it ends the loop and
     * the kernel, as a break would */
    bool ret_ok = w->ncalls == 0 && !clang_Cursor_isNull(w->last_stmt) && clang_equalCursors(c, w->last_stmt);
    if (!body_breaks(lp->body, brk, bcond, &nbrk, 4, ret_ok))
        clang_visitChildren(lp->body, find_exit, &exit);
    if (!clang_Cursor_isNull(exit)) {
        int l, cl;
        walk_where(exit, &l, &cl, NULL);
        enum CXCursorKind ek = clang_getCursorKind(exit);
        snprintf(w->exit_why, sizeof w->exit_why, "the loop can be left early (the %s at %d:%d)",
                 ek == CXCursor_BreakStmt    ? "break"
                 : ek == CXCursor_ReturnStmt ? "return"
                                             : "goto",
                 l, cl);
        return w->exit_why;
    }
    memset(L, 0, sizeof *L);
    if (bound_v) { /* run to the furthest bound, each iteration where v OP bound (adj moved over) */
        L->bound_e = adj ? expr_pool_binary(&w->ep, EXPR_SUB, bound_v, expr_pool_num(&w->ep, adj)) : bound_v;
        expr_op_parse(opb, false, &L->bound_op);
    }
    L->from = from;
    L->to = bound;
    L->step = step;
    L->kind = kind;
    if (start) {
        if (strcmp(opb, "<") != 0 && strcmp(opb, "<=") != 0)
            return "a loop with a per-thread start that does not count up to a bound";
        /* enough iterations for the thread that starts lowest */
        L->start = start;
        L->bound = bound;
        L->stride = step;
        L->from = 0;
        L->to = bound > from ? (bound - from + step - 1) / step : 0;
        L->step = 1;
        if (span >= 0) { /* every thread runs the same count, up to its own bound */
            int64_t d = span + (!strcmp(opb, "<=") ? 1 : 0) - adj;
            L->to = d > 0 ? (d + step - 1) / step : 0;
        }
    }
    int n;
    if (!loop_count(L, &n))
        return "more than 4096 iterations (or it does not end)";
    if (n == 0)
        return "the loop never runs";
    if (start_v) { /* from the furthest start, each iteration where v has passed the start of the time */
        int budget = MAX_ITER;
        if (!start_scan(w, start_v, 0, &env, L, n, &budget))
            return "its start moves with an enclosing loop to values the loop's steps do not reach";
        L->start_e = start_v;
        L->start_op = up ? EXPR_GE : EXPR_LE;
    }
    /* if (C) break; with C the same for every thread: the loop ends at the first iteration where
     * C holds (the rest of that iteration runs where C does not: the walker makes the break a
     * condition) */
    for (int b = 0; b < nbrk; b++) {
        binding tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.decl = var;
        tmp.val = expr_pool_var(&w->ep, WALK_VAR_BREAK);
        w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
        w->binds[w->nbinds++] = tmp;
        w->why[0] = '\0';
        expr_ref cv = walk_value(w, bcond[b]);
        w->nbinds--;
        int l, cl;
        walk_where(brk[b], &l, &cl, NULL);
        if (!cv || expr_pool_uses_thread(&w->ep, cv)) {
            snprintf(w->exit_why, sizeof w->exit_why,
                     "the loop can be left early by some threads only, or under a condition that is not known (the "
                     "break at %d:%d)",
                     l, cl);
            return w->exit_why;
        }
        int64_t v = L->from;
        for (int it = 0; it < n; it++) {
            expr_pool_env env;
            block_env(w, &env);
            env.v[WALK_VAR_BREAK] = v;
            env.known |= 1u << WALK_VAR_BREAK;
            int64_t hit = 0;
            if (!expr_pool_eval(&w->ep, cv, &env, &hit)) {
                snprintf(w->exit_why, sizeof w->exit_why, "the break at %d:%d: its condition cannot be evaluated", l,
                         cl);
                return w->exit_why;
            }
            if (hit) { /* the last iteration */
                bool up = L->kind == 1 || (L->kind == 0 && L->step > 0);
                L->to = up ? v + 1 : v - 1;
                if (!loop_count(L, &n))
                    return "more than 4096 iterations (or it does not end)";
                break;
            }
            v = L->kind == 0 ? v + L->step : L->kind == 1 ? v * L->step : v / L->step;
        }
    }
    return NULL;
}

/* Of a for loop that declares several variables (for (int a = a0, b = b0; a < n; a += k, b +=
 * j)): the one its condition compares is the loop variable, and the increment's part that steps
 * it is its increment (the others step the other variables, which the walk takes as changed by
 * the loop). NULL with lp's variable and increment set, or why it is not such a loop. */
static const char *several_vars(W *w, walk_kids dk, loop_parts *lp)
{
    CXCursor cond = walk_strip(lp->cond);
    walk_kids ck = walk_children(cond);
    const char *cop = import_binary_op(cond);
    int found = -1;
    for (int i = 0; i < dk.n; i++) {
        if (clang_getCursorKind(dk.c[i]) != CXCursor_VarDecl)
            return "a for loop whose initialisation declares something else than variables";
        int64_t adj;
        if (cop && ck.n == 2 && (var_side(w, ck.c[0], dk.c[i], &adj) || var_side(w, ck.c[1], dk.c[i], &adj))) {
            if (found >= 0)
                return "a loop condition that compares two of the variables the loop declares";
            found = i;
        }
    }
    if (found < 0)
        return "a loop condition that compares none of the variables the loop declares";
    lp->var = dk.c[found];
    /* the increment: a list of steps (a += k, b += j), one of which steps the loop variable */
    CXCursor inc = walk_strip(lp->inc), mine = clang_getNullCursor();
    int parts = 0;
    while (parts < 16) {
        const char *op = import_binary_op(inc);
        walk_kids ik = walk_children(inc);
        CXCursor part = op && !strcmp(op, ",") && ik.n == 2 ? walk_strip(ik.c[1]) : inc;
        walk_kids pk = walk_children(part);
        if (pk.n >= 1 && walk_refers_to(pk.c[0], lp->var)) {
            if (!clang_Cursor_isNull(mine))
                return "a loop increment that steps the loop variable twice";
            mine = part;
        }
        parts++;
        if (!(op && !strcmp(op, ",") && ik.n == 2))
            break;
        inc = walk_strip(ik.c[0]);
    }
    if (clang_Cursor_isNull(mine))
        return "a loop increment that does not step the variable the condition compares";
    lp->inc = mine;
    return NULL;
}

/* Read a for statement as a simple loop; NULL reason and *L filled, or why it is not one. */
const char *walk_simple_for(W *w, CXCursor c, wloop *L, CXCursor *var, CXCursor *body)
{
    walk_kids ks = walk_children(c);
    if (ks.n != 4)
        return "a for loop without an initialisation, a condition or an increment";
    *body = ks.c[3];
    loop_parts lp = {clang_getNullCursor(), clang_getNullCursor(), 0, ks.c[1], ks.c[2], ks.c[3], 0};
    CXCursor init = ks.c[0];
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        walk_kids dk = walk_children(init);
        if (dk.n < 1 || clang_getCursorKind(dk.c[0]) != CXCursor_VarDecl)
            return "a for loop whose initialisation declares no variable";
        lp.var = dk.c[0];
        if (dk.n > 1) { /* several variables: the loop's is the one its condition compares */
            const char *why = several_vars(w, dk, &lp);
            if (why)
                return why;
        }
        walk_kids vk = walk_children(lp.var);
        if (vk.n < 1 || !clang_isExpression(clang_getCursorKind(vk.c[vk.n - 1])))
            return "a loop variable without a start value";
        lp.from_e = vk.c[vk.n - 1];
    } else {
        walk_kids ik = walk_children(walk_strip(init));
        const char *op = import_binary_op(walk_strip(init));
        if (!op || strcmp(op, "=") || ik.n != 2 || clang_getCursorKind(walk_strip(ik.c[0])) != CXCursor_DeclRefExpr)
            return "a for loop whose start is not 'v = start'";
        lp.var = clang_getCursorReferenced(walk_strip(ik.c[0]));
        lp.from_e = ik.c[1];
        lp.writes = 1;
    }
    *var = lp.var;
    return simple_loop(w, c, &lp, L);
}

/* Read a while loop as a simple loop: while (v OP bound) { ...; v += k; } with v a variable
 * whose value when the loop starts is from (per thread or not), changed only by the body's last
 * statement. NULL and *L filled, or why it is not one. */
const char *walk_simple_while(W *w, CXCursor c, CXCursor var, expr_ref from, wloop *L)
{
    walk_kids ks = walk_children(c);
    if (ks.n != 2 || clang_getCursorKind(ks.c[1]) != CXCursor_CompoundStmt)
        return "a while loop whose body is not a block";
    walk_kids bk = walk_children(ks.c[1]);
    if (bk.n < 1 || !clang_isExpression(clang_getCursorKind(bk.c[bk.n - 1])))
        return "a while loop whose body does not end with the variable's step";
    loop_parts lp = {var, clang_getNullCursor(), from, ks.c[0], bk.c[bk.n - 1], ks.c[1], 0};
    return simple_loop(w, c, &lp, L);
}

/* Whether statement s itself (not a part of it) writes var: v = .., v op= .., ++v, v--. */
static bool writes_var(CXCursor s, CXCursor var)
{
    walk_kids ks = walk_children(s);
    const char *bop = import_binary_op(s), *uop = import_unary_op(s);
    if (bop)
        return strchr(bop, '=') && strcmp(bop, "==") && strcmp(bop, "!=") && strcmp(bop, "<=") && strcmp(bop, ">=") &&
               ks.n == 2 && walk_refers_to(ks.c[0], var);
    return uop && (!strcmp(uop, "++") || !strcmp(uop, "--")) && ks.n == 1 && walk_refers_to(ks.c[0], var);
}

const char *walk_simple_do(W *w, CXCursor c, CXCursor var, expr_ref from, wloop *L)
{
    walk_kids ks = walk_children(c);
    if (ks.n != 2 || clang_getCursorKind(ks.c[0]) != CXCursor_CompoundStmt)
        return "a do-while loop whose body is not a block";
    walk_kids bk = walk_children(ks.c[0]);
    CXCursor step = clang_getNullCursor();
    for (int i = 0; i < bk.n; i++) {
        if (walk_mod_count_in(bk.c[i], var) == 0 && !writes_var(walk_strip(bk.c[i]), var))
            continue;
        if (!clang_Cursor_isNull(step) || !clang_isExpression(clang_getCursorKind(bk.c[i])))
            return "a do-while loop whose variable is not stepped once by a statement of its own";
        step = bk.c[i];
    }
    if (clang_Cursor_isNull(step))
        return "a do-while loop that does not step the variable its condition compares";
    loop_parts lp = {var, clang_getNullCursor(), from, ks.c[1], step, ks.c[0], 0};
    const char *why = simple_loop(w, c, &lp, L);
    /* a start that fails the condition: the body runs once, which the walk of one iteration covers */
    return why && !strcmp(why, "the loop never runs")
               ? "a do-while loop whose condition is false after its first iteration"
               : why;
}

const char *walk_simple_noinit(W *w, CXCursor c, CXCursor var, expr_ref from, CXCursor cond, CXCursor inc,
                               CXCursor body, wloop *L)
{
    loop_parts lp = {var, clang_getNullCursor(), from, cond, inc, body, 0};
    return simple_loop(w, c, &lp, L);
}

CXCursor walk_loop_exit(CXCursor body)
{
    CXCursor exit = clang_getNullCursor();
    clang_visitChildren(body, find_exit, &exit);
    if (clang_Cursor_isNull(exit)) {
        enum CXCursorKind k = clang_getCursorKind(body);
        if (k == CXCursor_BreakStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt)
            exit = body;
    }
    return exit;
}
