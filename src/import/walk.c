/* walk: the libclang walker. Walks the kernel's statements (and the __device__ functions it
 * calls, inlined), records every load and store of a shared array with its 'when' and loops,
 * skips what cannot be expressed with its position and reason; walk_build.c turns what it found
 * into the scenario. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"
#include "model/kinds.h"
#include "model/scenario.h"

/* ---------- accesses ---------- */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The kind's name as files write it: "load", "store", "atomic" (the kinds table). */
static const char *op_name(banks_op op)
{
    return kinds_op_text(kinds_of(op));
}

/* The name (without folders) of the file c is in, as the user sees it (w->file_base when
 * unknown); a string that lives as long as w. */
const char *walk_file_of(W *w, CXCursor c)
{
    CXFile f = NULL;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, NULL);
    if (!f)
        return w->file_base;
    CXString fn = clang_getFileName(f);
    const char *p = clang_getCString(fn);
    const char *r = p ? walk_strdup(w, base_name(p)) : w->file_base;
    clang_disposeString(fn);
    return r;
}

#define MAX_PIECES 64

static int struct_pieces(CXCursor c, const char *field, char **paths, const char **vectors);

/* List the access at c as skipped: one line, or one per piece of a struct copy (named
 * 'ARRAY.FIELD'), as many as it would have been imported as. */
static void skip_at(W *w, CXCursor c, banks_op op, const char *array, const char *why)
{
    if (!why || !*why)
        why = "cannot be expressed";
    int line, col;
    walk_where(c, &line, &col, NULL);
    char *paths[MAX_PIECES];
    const char *vectors[MAX_PIECES];
    int n = op == BANKS_ATOMIC || w->piece ? 0 : struct_pieces(c, NULL, paths, vectors);
    for (int i = 0; i < (n ? n : 1); i++) {
        walk_add_skip(w, line, col,
                      walk_fmt("%s:%d:%d: skipped %s of '%s%s%s': %s", walk_file_of(w, c), line, col, op_name(op),
                               array, n ? "." : "", n ? paths[i] : "", why));
        if (n)
            free(paths[i]);
    }
}

typedef struct leaf_find {
    int64_t at;   /* byte offset looked for, inside the record */
    CXCursor hit; /* the field that covers it */
    int64_t off;  /* its offset */
} leaf_find;

static enum CXVisitorResult leaf_visit(CXCursor f, CXClientData d)
{
    leaf_find *l = d;
    int64_t off = clang_Cursor_getOffsetOfField(f) / 8;
    int64_t size = clang_Type_getSizeOf(clang_getCanonicalType(clang_getCursorType(f)));
    if (off >= 0 && size > 0 && l->at >= off && l->at < off + size) {
        l->hit = f;
        l->off = off;
        return CXVisit_Break;
    }
    return CXVisit_Continue;
}

/* The field path of the scalar at byte offset at inside t (appended to out, after a '.' unless
 * out is empty) and its size; false when at is not the start of a scalar (padding, or inside). */
static bool leaf_path(CXType t, int64_t at, strbuf *out, int64_t *size)
{
    for (int depth = 0; depth < 16; depth++) {
        t = clang_getCanonicalType(t);
        if (t.kind == CXType_ConstantArray) {
            CXType e = clang_getArrayElementType(t);
            int64_t es = clang_Type_getSizeOf(clang_getCanonicalType(e));
            if (es <= 0)
                return false;
            strbuf_addf(out, "[%lld]", (long long)(at / es));
            at %= es;
            t = e;
            continue;
        }
        if (t.kind != CXType_Record) {
            *size = clang_Type_getSizeOf(t);
            return at == 0 && *size > 0;
        }
        leaf_find l = {at, clang_getNullCursor(), 0};
        clang_Type_visitFields(t, leaf_visit, &l);
        if (clang_Cursor_isNull(l.hit))
            return false;
        char *n = walk_spell(l.hit);
        strbuf_addf(out, "%s%s", out->len ? "." : "", n);
        free(n);
        at -= l.off;
        t = clang_getCursorType(l.hit);
    }
    return false;
}

static void emit_one(W *w, CXCursor c, banks_op op, const waccess *a, const char *atomic);
static expr_ref path_cond(W *w);
static const char *context_reason(const W *w, const char *why);
static bool same_value(W *w, expr_ref a, expr_ref b);
static int var_binding(W *w, CXCursor ref);
static void var_assign(W *w, CXCursor c, int bi, const char *op, CXCursor rhs);

/* The pieces nvcc copies a struct (or a vector such as float3) wider than its alignment in, each
 * its own instruction of that alignment's width (a struct of float3 and float, 4-byte aligned:
 * four 4-byte loads or stores): each piece's field path (after field, when given; owned by the
 * caller) and the wider type it is read as where the field is narrower than the piece (NULL:
 * its own). 0 when the value at c moves as one access. */
static int struct_pieces(CXCursor c, const char *field, char **paths, const char **vectors)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(walk_strip(c)));
    if (t.kind != CXType_Record) /* (libclang 14 crashes asked the size of a member function's type) */
        return 0;
    int64_t size = clang_Type_getSizeOf(t), align = clang_Type_getAlignOf(t);
    if (size <= 0 || align <= 0 || (size == align && size <= 16) || size % align != 0 || align > 16)
        return 0;
    static const char *const wide[] = {NULL, "char", "short", NULL, "int", NULL, NULL, NULL,  "int2",
                                       NULL, NULL,   NULL,    NULL, NULL,  NULL, NULL, "int4"};
    int n = 0;
    for (int64_t at = 0; at < size && n < MAX_PIECES; at += align) {
        strbuf path = {0};
        if (field)
            strbuf_addf(&path, "%s", field);
        int64_t ls = 0;
        if (!leaf_path(t, at, &path, &ls) || ls > align) {
            strbuf_free(&path);
            continue; /* padding: nvcc does not copy it */
        }
        paths[n] = strbuf_take(&path);
        vectors[n++] = ls < align ? wide[align] : NULL;
    }
    return n;
}

/* Record access a (filled by walk_element) at c: one access, or one per piece of a struct copy
 * (struct_pieces), each named by the field it starts at. */
static void emit(W *w, CXCursor c, banks_op op, const waccess *a, const char *atomic)
{
    char *paths[MAX_PIECES];
    const char *vectors[MAX_PIECES];
    int n = op == BANKS_ATOMIC || a->vector ? 0 : struct_pieces(c, a->field, paths, vectors);
    if (n == 0) {
        emit_one(w, c, op, a, atomic);
        return;
    }
    for (int i = 0; i < n; i++) {
        waccess piece = *a;
        piece.field = paths[i];
        piece.vector = (char *)vectors[i];
        w->piece = true; /* skipped, it is listed as that piece alone */
        emit_one(w, c, op, &piece, atomic);
        w->piece = false;
        free(paths[i]);
    }
}

/* List access a at c as skipped (a piece of a struct copy as 'ARRAY.FIELD'). */
static void skip_access(W *w, CXCursor c, banks_op op, const waccess *a, const char *why)
{
    const char *name = w->arrays[a->array].name;
    char *piece = w->piece && a->field ? walk_fmt("%s.%s", name, a->field) : NULL;
    skip_at(w, c, op, piece ? piece : name, why);
    free(piece);
}

/* Whether e reads where a shared array starts (an address taken as a number). */
static bool uses_base(W *w, expr_ref e)
{
    for (int k = 0; k < w->narrays && k < WALK_MAX_BASES && e; k++)
        if (expr_pool_uses(&w->ep, e, WALK_VAR_BASE(k)))
            return true;
    return false;
}

/* Record one access at c, or skip it when its context cannot be expressed. */
static void emit_one(W *w, CXCursor c, banks_op op, const waccess *a, const char *atomic)
{
    const warray *arr = &w->arrays[a->array];
    if (arr->why) {
        char *m = walk_fmt("the array cannot be imported: %s", arr->why);
        skip_access(w, c, op, a, m);
        free(m);
        return;
    }
    const char *ctx = context_reason(w, "");
    if (*ctx) {
        skip_access(w, c, op, a, ctx);
        return;
    }
    for (int d = 0; d < a->nidx; d++)
        if (uses_base(w, a->idx[d])) {
            skip_access(w, c, op, a, "an index computed from a shared address taken as a number");
            return;
        }
    expr_ref when = path_cond(w);
    int64_t never;
    if (when && expr_pool_const(&w->ep, when, &never) && never == 0) {
        /* an access the values given make dead (a template's 'if (blockSize >= 512)'): the
         * source's access all the same, imported with 'when' false, which no lane takes */
        int64_t g = 1;
        bool branch = w->guard && expr_pool_const(&w->ep, w->guard, &g) && g == 0;
        int line, col;
        walk_where(c, &line, &col, NULL);
        const char *name = w->arrays[a->array].name;
        walk_add_skip(w, line, col,
                      walk_fmt("%s:%d:%d: note: %s of '%s%s%s' never runs with the values given (%s): imported with "
                               "no active lane",
                               walk_file_of(w, c), line, col, op_name(op), name, w->piece && a->field ? "." : "",
                               w->piece && a->field ? a->field : "",
                               branch ? "no thread takes the branch or loop it is in"
                                      : "every thread has left by then: a return or continue before it"));
    }
    /* the scenario's atomic kinds; CUDA's atomicSub is atom.add of the negated value */
    static const char *const atomics[][2] = {
        {"atomicAdd", "add"}, {"atomicSub", "add"}, {"atomicMin", "min"},   {"atomicMax", "max"}, {"atomicAnd", "and"},
        {"atomicOr", "or"},   {"atomicXor", "xor"}, {"atomicExch", "exch"}, {"atomicCAS", "cas"}, {"atomicInc", "inc"}};
    const char *kind = NULL;
    for (size_t i = 0; op == BANKS_ATOMIC && i < sizeof atomics / sizeof atomics[0]; i++)
        if (!strcmp(atomic, atomics[i][0]))
            kind = atomics[i][1];
    if (op == BANKS_ATOMIC && !kind) {
        char *m = walk_fmt("%s: the scenario format has no such atomic operation", atomic);
        skip_access(w, c, op, a, m);
        free(m);
        return;
    }
    w->acc = walk_grow(w->acc, w->nacc, &w->cap_acc, sizeof *w->acc);
    waccess *n = &w->acc[w->nacc++];
    *n = *a;
    n->op = op;
    n->field = a->field ? xstrdup(a->field) : NULL;
    n->vector = a->vector ? xstrdup(a->vector) : NULL;
    n->atomic = kind ? xstrdup(kind) : NULL;
    /* the old value is wanted unless the call is a statement of its own (then nvcc emits red) */
    n->returns =
        op == BANKS_ATOMIC && (!clang_equalCursors(c, w->stmt_expr) || !strcmp(kind, "exch") || !strcmp(kind, "cas"));
    n->when = when;
    walk_where(c, &n->line, &n->col, &n->offset);
    n->label = walk_fmt("%s:%d:%d", walk_file_of(w, c), n->line, n->col);
    n->source = walk_source_line(w, c);
    const char *file = NULL;
    n->text = walk_line_text(w, c, &file);
    n->file = xstrdup(file ? base_name(file) : w->file_base);
    n->nloops = w->nlstack;
    memcpy(n->loops, w->lstack, sizeof n->loops);
}

static void walk_expr(W *w, CXCursor c);
static void walk_stmt(W *w, CXCursor c);

/* One more step of the walk at c; true once the walk's budget is spent (where is kept): an
 * exponential inlining stops with a message instead of taking all memory. */
static bool walk_over_budget(W *w, CXCursor c)
{
    if (w->over)
        return true;
    if (++w->steps <= WALK_MAX_STEPS)
        return false;
    bool call = !clang_Cursor_isNull(w->top_call);
    CXCursor at = call ? w->top_call : c;
    int line = 0, col = 0;
    walk_where(at, &line, &col, NULL);
    char *name = call ? walk_spell(clang_getCursorReferenced(at)) : NULL;
    w->over = walk_fmt("%s:%d:%d: error: the import stopped after %ld steps of its walk%s%s%s (a function that calls "
                       "itself more than once per level inlines exponentially): nothing imported",
                       walk_file_of(w, at), line, col, WALK_MAX_STEPS, call ? ", inlining the call of '" : "",
                       call ? name : "", call ? "'" : "");
    free(name);
    return true;
}
static void push_guard(W *w, CXCursor cond, bool negate, expr_ref *saved, const char **saved_why);
static bool walk_assign_call(W *w, CXCursor c, walk_kids ks);

typedef struct name_find {
    W *w;
    char *name;
} name_find;

static enum CXChildVisitResult name_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    name_find *f = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor r = clang_getCursorReferenced(c);
        for (int i = f->w->nbinds - 1; i >= 0; i--) { /* a parameter bound into a shared array */
            const binding *b = &f->w->binds[i];
            if (!clang_equalCursors(b->decl, r))
                continue;
            int a = b->is_ptr ? b->ptr.array : b->ref_shared ? b->ref_array : -1;
            if (a >= 0 && a < f->w->narrays) {
                f->name = xstrdup(f->w->arrays[a].name);
                return CXChildVisit_Break;
            }
            break;
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(r));
        if (walk_has_attr(r, CXCursor_CUDASharedAttr) || t.kind == CXType_Pointer) {
            f->name = walk_spell(r);
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* The name of the shared array (or pointer) an expression starts from, for messages. */
static char *shared_name(W *w, CXCursor c)
{
    name_find f = {w, NULL};
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
        name_visit(c, c, &f);
    if (!f.name)
        clang_visitChildren(c, name_visit, &f);
    return f.name ? f.name : xstrdup("shared array");
}

/* Why an access that cannot be expressed (why) is skipped: a data dependence is said as such;
 * otherwise the loop, condition, exit or call around it, which is what the user can change. */
static const char *context_reason(const W *w, const char *why)
{
    if (strstr(why, "depends on data"))
        return why;
    /* the loop, condition or exit around it; one that depends on data first, as record captures
     * what happens there */
    const char *const ctx[] = {w->loop_why, w->guard_why, w->exited_why, w->skipped_why};
    for (int i = 0; i < 4; i++)
        if (ctx[i] && strstr(ctx[i], "depends on data"))
            return ctx[i];
    for (int i = 0; i < 4; i++)
        if (ctx[i])
            return ctx[i];
    return why;
}

/* Walk the index expressions inside an lvalue chain (their loads happen too). */
static void walk_sub(W *w, CXCursor c)
{
    c = walk_strip(c);
    walk_kids ks = walk_children(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ArraySubscriptExpr && ks.n == 2) {
        walk_sub(w, ks.c[0]);
        walk_expr(w, ks.c[1]);
    } else if (k == CXCursor_MemberRefExpr && ks.n == 1)
        walk_sub(w, ks.c[0]);
    else if (k != CXCursor_DeclRefExpr)
        for (int i = 0; i < ks.n; i++)
            walk_expr(w, ks.c[i]);
}

/* Whether c, which walk_element does not resolve, is an element (p[i], *p) of an address made
 * from a shared array, the element not itself a pointer. */
static bool unresolved_shared(W *w, CXCursor c)
{
    c = walk_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    walk_kids ks = walk_children(c);
    bool deref = k == CXCursor_UnaryOperator && import_unary_op(c) && !strcmp(import_unary_op(c), "*");
    if (!(k == CXCursor_ArraySubscriptExpr && ks.n == 2) && !(deref && ks.n == 1))
        return false;
    enum CXTypeKind et = clang_getCanonicalType(clang_getCursorType(c)).kind;
    if (et == CXType_Pointer || et == CXType_ConstantArray || et == CXType_IncompleteArray ||
        et == CXType_DependentSizedArray)
        return false;
    return walk_address_from_shared(w, ks.c[0]);
}

/* An lvalue that is read and/or written (ops: bit 0 load, bit 1 store, in that order). */
static bool walk_lvalue(W *w, CXCursor c, int ops)
{
    waccess a;
    memset(&a, 0, sizeof a);
    w->why[0] = '\0';
    int r = walk_element(w, c, &a);
    if (r == 0 && !unresolved_shared(w, c))
        return false;
    if (r == 0) { /* a shared access of a shape the walk does not know: listed, never lost */
        snprintf(w->why, sizeof w->why, "an address into a shared array made in a way bankscope cannot follow");
        r = -1;
    }
    char why[sizeof w->why];
    memcpy(why, w->why, sizeof why);
    walk_sub(w, c);
    if (r < 0) {
        char *arr = shared_name(w, c);
        const char *reason = context_reason(w, why);
        if (ops & 1)
            skip_at(w, c, BANKS_LOAD, arr, reason);
        if (ops & 2)
            skip_at(w, c, BANKS_STORE, arr, reason);
        free(arr);
    } else {
        if (ops & 1)
            emit(w, c, BANKS_LOAD, &a, NULL);
        if (ops & 2)
            emit(w, c, BANKS_STORE, &a, NULL);
    }
    free(a.field);
    free(a.vector);
    return true;
}

static const char *atomic_names[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicAnd",
                                     "atomicOr",  "atomicXor", "atomicCAS",  "atomicInc", "atomicDec", NULL};

/* A call of a function bankscope has no body of (the toolkit's): an asynchronous copy into
 * shared memory of one thread (__pipeline_memcpy_async(dst, src, n), libcu++'s
 * memcpy_async(dst, src, n, pipe)) is the cp.async of n bytes at dst (n 4, 8 or 16); any other
 * that is handed a pointer into a shared array is listed as a use of it (what the function does
 * there is not known), never dropped. True when the call was handled (its arguments walked). */
static bool opaque_call(W *w, CXCursor c, const char *name, int nargs)
{
    if (!strcmp(name, "__cvta_generic_to_shared"))
        return false; /* a number the inline PTX that uses it is read against (walk_asm) */
    bool async = (!strcmp(name, "__pipeline_memcpy_async") && nargs >= 3) ||
                 (!strcmp(name, "memcpy_async") && nargs == 4 &&
                  clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, 0))).kind == CXType_Pointer);
    int first = -1;
    pbind p;
    char why[sizeof w->why] = "";
    CXCursor fn = walk_callee(c);
    for (int i = 0; i < nargs && first < 0; i++) {
        /* only an address escapes: a pointer or array argument, or one bound to a reference
         * parameter; the value of a shared scalar (__expf(x - s_max)) is a plain load */
        CXCursor ai = clang_Cursor_getArgument(c, (unsigned)i);
        enum CXTypeKind ak = clang_getCanonicalType(clang_getCursorType(walk_strip(ai))).kind;
        if (ak != CXType_Pointer && ak != CXType_ConstantArray && ak != CXType_IncompleteArray &&
            ak != CXType_DependentSizedArray && ak != CXType_Dependent &&
            (clang_Cursor_isNull(fn) || !walk_param_is_ref(fn, i)))
            continue;
        w->why[0] = '\0';
        int r = walk_pointer(w, ai, &p);
        memcpy(why, w->why, sizeof why);
        if (r != 0)
            first = i;
        if (r < 0)
            p.array = -1;
    }
    if (first < 0)
        return false;
    for (int i = 0; i < nargs; i++)
        walk_expr(w, clang_Cursor_getArgument(c, (unsigned)i));
    CXCursor arg = clang_Cursor_getArgument(c, (unsigned)first);
    char *arr = shared_name(w, arg);
    int64_t n = 0;
    bool sized = false;
    if (async && first == 0) {
        w->why[0] = '\0';
        expr_ref nv = walk_value(w, clang_Cursor_getArgument(c, 2));
        sized = nv && expr_pool_const(&w->ep, nv, &n) && (n == 4 || n == 8 || n == 16);
    }
    if (async && first == 0 && p.array >= 0 && sized && !p.vector) {
        static const char *const widths[] = {NULL, "float", "float2", NULL, "float4"};
        waccess a;
        memset(&a, 0, sizeof a);
        a.array = p.array;
        a.nidx = p.nfixed + 1;
        for (int d = 0; d < p.nfixed; d++)
            a.idx[d] = p.fixed[d];
        a.idx[p.nfixed] = p.off;
        int64_t esz = clang_Type_getSizeOf(clang_getPointeeType(clang_getCanonicalType(clang_getCursorType(arg))));
        a.vector = n == esz ? NULL : (char *)widths[n / 4];
        emit(w, c, BANKS_CP_ASYNC, &a, NULL);
    } else if (async && first == 0)
        skip_at(w, c, BANKS_CP_ASYNC, arr,
                p.array < 0 ? context_reason(w, why)
                            : "an asynchronous copy whose size is not a constant 4, 8 or 16 bytes, or through a "
                              "reinterpreted pointer");
    else {
        char *m = walk_fmt("its address is handed to '%s', which bankscope does not follow", name);
        int line, col;
        walk_where(c, &line, &col, NULL);
        walk_add_skip(w, line, col,
                      walk_fmt("%s:%d:%d: skipped use of '%s': %s", walk_file_of(w, c), line, col, arr, m));
        free(m);
    }
    free(arr);
    return true;
}

static void walk_call(W *w, CXCursor c)
{
    char name[64];
    walk_callee_name(c, name, sizeof name);
    int nargs = clang_Cursor_getNumArguments(c);
    for (int i = 0; atomic_names[i]; i++)
        if (!strcmp(name, atomic_names[i]) && nargs >= 2) {
            pbind p;
            w->why[0] = '\0';
            int r = walk_pointer(w, clang_Cursor_getArgument(c, 0), &p);
            char why[sizeof w->why];
            memcpy(why, w->why, sizeof why);
            for (int j = 1; j < nargs; j++)
                walk_expr(w, clang_Cursor_getArgument(c, (unsigned)j));
            walk_expr(w, clang_Cursor_getArgument(c, 0));
            char *arr = shared_name(w, clang_Cursor_getArgument(c, 0));
            if (r < 0)
                skip_at(w, c, BANKS_ATOMIC, arr, context_reason(w, why));
            free(arr);
            if (r == 1) {
                waccess a;
                memset(&a, 0, sizeof a);
                a.array = p.array;
                a.nidx = p.nfixed + 1;
                for (int d = 0; d < p.nfixed; d++)
                    a.idx[d] = p.fixed[d];
                a.idx[p.nfixed] = p.off;
                emit(w, c, BANKS_ATOMIC, &a, name);
            }
            return;
        }
    CXCursor fn = walk_callee(c);
    if ((clang_Cursor_isNull(fn) || !walk_is_device_fn(fn)) && opaque_call(w, c, name, nargs))
        return;
    for (int i = 0; i < nargs; i++) {
        /* an element passed by reference is not read here: the callee reads or writes it */
        CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
        bool by_ref = !clang_Cursor_isNull(fn) && walk_is_device_fn(fn) && walk_param_is_ref(fn, i);
        waccess e;
        memset(&e, 0, sizeof e);
        if (by_ref && walk_element(w, arg, &e) != 0)
            walk_sub(w, arg);
        else
            walk_expr(w, arg);
        free(e.field);
        free(e.vector);
    }
    if (clang_Cursor_isNull(fn) || !walk_is_device_fn(fn))
        return;
    for (int i = 0; i < w->ncalls; i++)
        if (clang_equalCursors(w->calls[i], fn))
            return; /* the recursive function is being walked (its accesses listed) already */
    if (w->ncalls >= MAX_CALLS) {
        int l, cl;
        walk_where(c, &l, &cl, NULL);
        walk_add_skip(w, l, cl,
                      walk_fmt("%s:%d:%d: note: the call of '%s' is nested more than %d deep: its accesses are not "
                               "followed",
                               w->file_base, l, cl, name, MAX_CALLS));
        return;
    }
    /* the callee's accesses are imported, or listed with the reason they cannot be */
    const char *refuse = NULL;
    char *m = NULL;
    int saved = w->nbinds;
    w->why[0] = '\0';
    /* parameters are bound even when the call is refused, so that its accesses are found */
    if (!walk_bind_params(w, c, fn, &saved))
        refuse = m = walk_fmt("in '%s', whose arguments cannot be followed: %s", name, w->why);
    else if (walk_calls_itself(fn))
        refuse = m = walk_fmt("in the recursive function '%s' (bankscope does not follow recursion)", name);
    else if (w->ncalls >= MAX_INLINE)
        refuse = m = walk_fmt("in '%s', called more than %d deep", name, MAX_INLINE);
    const char *lw0 = w->loop_why, *fw0 = w->fn_loop_why, *ew0 = w->exited_why;
    expr_ref ex0 = w->exited;
    int fl0 = w->fn_nlstack;
    if (refuse && !w->loop_why)
        w->loop_why = walk_strdup(w, refuse);
    free(m);
    w->exited = 0; /* a return leaves the callee, not the kernel */
    w->exited_why = NULL;
    w->fn_nlstack = w->nlstack;
    w->fn_loop_why = w->loop_why;
    if (w->ncalls == 0)
        w->top_call = c;
    w->calls[w->ncalls++] = fn;
    walk_kids k = walk_children(fn);
    if (k.n && clang_getCursorKind(k.c[k.n - 1]) == CXCursor_CompoundStmt) {
        if (w->ncalls == 1) { /* a call in the kernel itself: what its callee does is walked */
            int l, cl;
            walk_where(c, &l, &cl, NULL);
            w->call_lines = walk_grow(w->call_lines, w->ncall_lines, &w->cap_call_lines, sizeof *w->call_lines);
            w->call_lines[w->ncall_lines++] = l;
        }
        walk_stmt(w, k.c[k.n - 1]);
    }
    w->ncalls--;
    if (w->ncalls == 0)
        w->top_call = clang_getNullCursor();
    w->nbinds = saved;
    w->loop_why = lw0;
    w->fn_loop_why = fw0;
    w->exited = ex0;
    w->exited_why = ew0;
    w->fn_nlstack = fl0;
}

static void walk_expr(W *w, CXCursor c)
{
    if (walk_over_budget(w, c))
        return;
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    walk_kids ks = walk_children(c);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        const char *op = import_binary_op(c);
        if (op && ks.n == 2 && !strcmp(op, "=")) {
            walk_expr(w, ks.c[1]);
            int bi = var_binding(w, ks.c[0]);
            if (bi >= 0)
                var_assign(w, c, bi, op, ks.c[1]);
            else if (!walk_lvalue(w, ks.c[0], 2))
                walk_expr(w, ks.c[0]);
            goto out;
        }
        if (op && ks.n == 2 && k == CXCursor_CompoundAssignOperator && var_binding(w, ks.c[0]) >= 0) {
            walk_expr(w, ks.c[1]);
            var_assign(w, c, var_binding(w, ks.c[0]), op, ks.c[1]);
            goto out;
        }
        if (op && ks.n == 2 && k == CXCursor_CompoundAssignOperator) {
            waccess a;
            memset(&a, 0, sizeof a);
            w->why[0] = '\0';
            int r = walk_element(w, ks.c[0], &a);
            if (r == 0) {
                walk_expr(w, ks.c[0]);
                walk_expr(w, ks.c[1]);
                goto out;
            }
            char why[sizeof w->why];
            memcpy(why, w->why, sizeof why);
            walk_sub(w, ks.c[0]);
            if (r < 0) {
                char *arr = shared_name(w, ks.c[0]);
                skip_at(w, ks.c[0], BANKS_LOAD, arr, context_reason(w, why));
                walk_expr(w, ks.c[1]);
                skip_at(w, ks.c[0], BANKS_STORE, arr, context_reason(w, why));
                free(arr);
            } else {
                emit(w, ks.c[0], BANKS_LOAD, &a, NULL);
                walk_expr(w, ks.c[1]);
                emit(w, ks.c[0], BANKS_STORE, &a, NULL);
            }
            free(a.field);
            free(a.vector);
            goto out;
        }
    }
    if (k == CXCursor_UnaryOperator && ks.n == 1) {
        const char *op = import_unary_op(c);
        if (op && (!strcmp(op, "++") || !strcmp(op, "--"))) {
            int bi = var_binding(w, ks.c[0]);
            if (bi >= 0) {
                var_assign(w, c, bi, op, c);
                goto out;
            }
            if (!walk_lvalue(w, ks.c[0], 3))
                walk_expr(w, ks.c[0]);
            goto out;
        }
        if (op && !strcmp(op, "&")) {
            waccess a;
            memset(&a, 0, sizeof a);
            if (walk_element(w, ks.c[0], &a) != 0) {
                walk_sub(w, ks.c[0]); /* the address is taken: no access here */
                free(a.field);
                free(a.vector);
                goto out;
            }
        }
    }
    if (k == CXCursor_ConditionalOperator && ks.n == 3) {
        /* c ? a : b: a is evaluated only by the lanes where c holds, b by the others */
        walk_expr(w, ks.c[0]);
        for (int i = 1; i < 3; i++) {
            expr_ref s;
            const char *sw;
            push_guard(w, ks.c[0], i == 2, &s, &sw);
            walk_expr(w, ks.c[i]);
            w->guard = s;
            w->guard_why = sw;
        }
        goto out;
    }
    if (k == CXCursor_BinaryOperator && ks.n == 2 && import_binary_op(c) &&
        (!strcmp(import_binary_op(c), "&&") || !strcmp(import_binary_op(c), "||"))) {
        /* short circuit: the right side runs where the left is true (&&) or false (||) */
        walk_expr(w, ks.c[0]);
        expr_ref s;
        const char *sw;
        push_guard(w, ks.c[0], import_binary_op(c)[0] == '|', &s, &sw);
        walk_expr(w, ks.c[1]);
        w->guard = s;
        w->guard_why = sw;
        goto out;
    }
    if (k == CXCursor_CallExpr && walk_assign_call(w, c, ks))
        goto out;
    if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 0 &&
        (clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FunctionDecl ||
         !clang_Cursor_isNull(walk_callee(c)))) {
        walk_call(w, c);
        goto out;
    }
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr || k == CXCursor_DeclRefExpr ||
        (k == CXCursor_UnaryOperator && import_unary_op(c) && !strcmp(import_unary_op(c), "*"))) {
        if (walk_lvalue(w, c, 1))
            goto out;
    }
    if (k == CXCursor_LambdaExpr)
        goto out;
    for (int i = 0; i < ks.n; i++)
        walk_expr(w, ks.c[i]);
out:
    w->depth--;
}

/* A call of a struct's assignment operator (struct and CUDA vector copies are calls in C++):
 * the right side is read, then the left side written, as for '='. */
static bool walk_assign_call(W *w, CXCursor c, walk_kids ks)
{
    CXCursor m = clang_getCursorReferenced(c);
    if (clang_getCursorKind(m) != CXCursor_CXXMethod || ks.n != 3)
        return false;
    char *name = walk_spell(m);
    bool assign = !strcmp(name, "operator=");
    free(name);
    if (!assign)
        return false;
    walk_expr(w, ks.c[2]);
    if (!walk_lvalue(w, ks.c[0], 2))
        walk_expr(w, ks.c[0]);
    return true;
}

/* ---------- values that change: straight-line code ---------- */

/* Where the code being walked runs: the guard, less the lanes that left (return, continue);
 * NULL: every lane. */
static expr_ref path_cond(W *w)
{
    expr_ref when = w->guard;
    const expr_ref gone[] = {w->exited, w->skipped};
    for (int i = 0; i < 2; i++)
        if (gone[i]) {
            expr_ref stay = expr_pool_unary(&w->ep, EXPR_LNOT, gone[i]);
            when = when ? expr_pool_binary(&w->ep, EXPR_LAND, when, stay) : stay;
        }
    return when;
}

/* The binding of a variable the walk follows (declared in the code walked, written somewhere),
 * or -1. */
static int var_binding(W *w, CXCursor ref)
{
    ref = walk_strip(ref);
    if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr)
        return -1;
    CXCursor d = clang_getCursorReferenced(ref);
    for (int i = w->nbinds - 1; i >= 0; i--)
        if (clang_equalCursors(w->binds[i].decl, d))
            return w->binds[i].is_var ? i : -1;
    return -1;
}

/* Variable bi takes value v (NULL: not known, why says why) at c, where the code runs on the
 * lanes of path_cond: elsewhere it keeps its value. */
static void var_set(W *w, int bi, CXCursor c, expr_ref v, const char *why)
{
    binding *b = &w->binds[bi];
    int line, col;
    walk_where(c, &line, &col, NULL);
    const char *ctx = w->guard_why ? w->guard_why : w->exited_why ? w->exited_why : w->skipped_why;
    /* the lanes that returned never read the variable again: where they are does not matter */
    expr_ref exited = w->exited;
    w->exited = 0;
    expr_ref cond = path_cond(w);
    w->exited = exited;
    char *m = NULL;
    if (ctx && strstr(ctx, "depends on data"))
        m = walk_fmt("depends on data: changed at %d:%d under a condition that reads memory (bankscope record "
                     "captures it)",
                     line, col);
    else if (ctx)
        m = walk_fmt("changed at %d:%d under a condition that cannot be expressed", line, col);
    else if (!v)
        m = walk_fmt("changed at %d:%d to a value that is not known (%s)", line, col, why && *why ? why : "?");
    else if (cond && !b->val && !(b->decl_cond && same_value(w, cond, b->decl_cond)))
        m = walk_fmt("set at %d:%d only under a condition", line, col);
    if (m) {
        b->val = 0;
        b->why = walk_strdup(w, m);
        free(m);
        return;
    }
    /* where the variable is declared under the same condition, it exists only where that holds */
    b->val = cond && !(b->decl_cond && same_value(w, cond, b->decl_cond)) ? expr_pool_cond(&w->ep, cond, v, b->val) : v;
    b->why = NULL;
}

/* A local integer variable that is written somewhere: followed from its declaration on. */
static void var_declare(W *w, CXCursor d, CXCursor init)
{
    CXType t = clang_getCanonicalType(clang_getCursorType(d));
    bool integer =
        t.kind >= CXType_Bool && t.kind <= CXType_Int128 && t.kind != CXType_Float && t.kind != CXType_Double;
    if (!integer || walk_mod_count(d, NULL) == 0)
        return;
    binding b;
    memset(&b, 0, sizeof b);
    b.decl = d;
    b.is_var = true;
    b.why = "not set yet";
    b.decl_cond = path_cond(w);
    if (!clang_Cursor_isNull(init)) {
        char saved[sizeof w->why];
        memcpy(saved, w->why, sizeof saved);
        w->why[0] = '\0';
        b.val = walk_value(w, init);
        b.why = b.val ? NULL : walk_strdup(w, w->why);
        memcpy(w->why, saved, sizeof saved);
    }
    w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
    w->binds[w->nbinds++] = b;
}

/* An assignment (=, op=, ++, --) to a followed variable: its new value. */
static void var_assign(W *w, CXCursor c, int bi, const char *op, CXCursor rhs)
{
    char saved[sizeof w->why];
    memcpy(saved, w->why, sizeof saved);
    w->why[0] = '\0';
    expr_ref old = w->binds[bi].val, v = 0;
    expr_op o;
    if (!strcmp(op, "="))
        v = walk_value(w, rhs);
    else if (!strcmp(op, "++") || !strcmp(op, "--"))
        v = old ? expr_pool_binary(&w->ep, op[0] == '+' ? EXPR_ADD : EXPR_SUB, old, expr_pool_num(&w->ep, 1)) : 0;
    else {
        char bop[4];
        snprintf(bop, sizeof bop, "%.*s", (int)strlen(op) - 1, op);
        expr_ref r = expr_op_parse(bop, false, &o) ? walk_value(w, rhs) : 0;
        v = r && old ? expr_pool_binary(&w->ep, o, old, r) : 0;
        if (!old && !w->why[0])
            snprintf(w->why, sizeof w->why, "its value before is not known: %s", w->binds[bi].why);
    }
    char why[sizeof w->why];
    memcpy(why, w->why, sizeof why);
    memcpy(w->why, saved, sizeof saved);
    var_set(w, bi, c, v, why);
}

/* What an assignment (=, op=), ++ or -- at c writes (with addr, also what &x takes the address
 * of), or a null cursor when c is none of those. */
static CXCursor written(CXCursor c, bool addr)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    const char *op = k == CXCursor_UnaryOperator ? import_unary_op(c) : import_binary_op(c);
    walk_kids ks = op ? walk_children(c) : (walk_kids){NULL, 0};
    bool write = op && ks.n >= 1 &&
                 (k == CXCursor_UnaryOperator ? !strcmp(op, "++") || !strcmp(op, "--") || (addr && !strcmp(op, "&"))
                                              : strchr(op, '=') && strcmp(op, "==") && strcmp(op, "!=") &&
                                                    strcmp(op, "<=") && strcmp(op, ">="));
    return write ? ks.c[0] : clang_getNullCursor();
}

typedef struct loop_mods {
    W *w;
    int count[64]; /* writes of binding k (the first 64) inside the loop */
    CXCursor first[64];
} loop_mods;

static enum CXChildVisitResult loop_mod_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    loop_mods *m = d;
    CXCursor lhs = written(c, false);
    int bi = clang_Cursor_isNull(lhs) ? -1 : var_binding(m->w, lhs);
    if (bi >= 0 && bi < 64 && m->count[bi]++ == 0)
        m->first[bi] = c;
    return CXChildVisit_Recurse;
}

static unsigned last_write(CXCursor scope, CXCursor var);

/* Whether evaluating e reads memory: an element of an array, through a pointer, a shared
 * variable, or a local variable set once from one of those. */
static bool reads_memory(W *w, CXCursor e, int depth)
{
    if (depth > 32)
        return false;
    e = walk_strip(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_ArraySubscriptExpr)
        return true;
    if (k == CXCursor_UnaryOperator && import_unary_op(e) && !strcmp(import_unary_op(e), "*"))
        return true;
    walk_kids ks = walk_children(e);
    if (k == CXCursor_MemberRefExpr && ks.n == 1 &&
        clang_getCanonicalType(clang_getCursorType(walk_strip(ks.c[0]))).kind == CXType_Pointer)
        return true;
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(e);
        if (clang_getCursorKind(d) != CXCursor_VarDecl)
            return false;
        if (walk_has_attr(d, CXCursor_CUDASharedAttr))
            return true;
        enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
        if (pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace || walk_mod_count(d, NULL) > 0)
            return false;
        walk_kids dk = walk_children(d);
        return dk.n && clang_isExpression(clang_getCursorKind(dk.c[dk.n - 1])) &&
               reads_memory(w, dk.c[dk.n - 1], depth + 1);
    }
    for (int i = 0; i < ks.n; i++)
        if (reads_memory(w, ks.c[i], depth + 1))
            return true;
    return false;
}

/* Whether scope writes var under a condition that reads memory, or a value read from memory
 * (its value then depends on data from the next iteration on). */
static bool data_write(W *w, CXCursor scope, CXCursor var, int depth)
{
    if (depth > 64)
        return false;
    enum CXCursorKind k = clang_getCursorKind(scope);
    walk_kids ks = walk_children(scope);
    if (k == CXCursor_IfStmt || k == CXCursor_ConditionalOperator || k == CXCursor_WhileStmt) {
        int ci = 0;
        while (ci < ks.n && !clang_isExpression(clang_getCursorKind(ks.c[ci])))
            ci++;
        if (ci < ks.n && reads_memory(w, ks.c[ci], 0) && last_write(scope, var) > 0)
            return true;
    }
    CXCursor lhs = written(scope, false);
    if (!clang_Cursor_isNull(lhs) && ks.n == 2 && walk_refers_to(lhs, var) && reads_memory(w, ks.c[1], 0))
        return true;
    for (int i = 0; i < ks.n; i++)
        if (data_write(w, ks.c[i], var, depth + 1))
            return true;
    return false;
}

/* The step c of 'v = (v + c) & m' with c and m constants and m + 1 a power of two (a pointer
 * that wraps around a power-of-two buffer): after k >= 1 such steps v is (v0 + k * c) & m, since
 * '& m' keeps the value modulo m + 1. *mask is m; 0 when rhs is not such. */
static expr_ref wrap_step(W *w, CXCursor rhs, CXCursor var, expr_ref *mask)
{
    rhs = walk_strip(rhs);
    const char *op = import_binary_op(rhs);
    walk_kids rk = walk_children(rhs);
    if (!op || strcmp(op, "&") || rk.n != 2)
        return 0;
    CXCursor sum = walk_strip(rk.c[0]);
    const char *sop = import_binary_op(sum);
    walk_kids sk = walk_children(sum);
    if (!sop || strcmp(sop, "+") || sk.n != 2 || !walk_refers_to(sk.c[0], var))
        return 0;
    char saved[sizeof w->why];
    memcpy(saved, w->why, sizeof saved);
    expr_ref c = walk_value(w, sk.c[1]), m = c ? walk_value(w, rk.c[1]) : 0;
    memcpy(w->why, saved, sizeof saved);
    int64_t mv;
    if (!c || !m || !expr_pool_const(&w->ep, c, NULL) || !expr_pool_const(&w->ep, m, &mv) || mv < 0 ||
        (mv & (mv + 1)) != 0)
        return 0;
    *mask = m;
    return c;
}

typedef struct ref_find {
    const loop_mods *m;
    W *w;
    bool found;
} ref_find;

static enum CXChildVisitResult ref_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ref_find *f = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        int bi = var_binding(f->w, c);
        if (bi >= 0 && bi < 64 && f->m->count[bi] && f->w->binds[bi].is_var)
            f->found = true;
    }
    return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether c names a variable the loop changes (m). */
static bool refers_to_changed(W *w, const loop_mods *m, CXCursor c)
{
    ref_find f = {m, w, false};
    ref_visit(c, clang_getNullCursor(), &f);
    if (!f.found)
        clang_visitChildren(c, ref_visit, &f);
    return f.found;
}

/* The update 'v >>= c', 'v = v >> c', 'v <<= c', 'v = v << c', 'v += c', 'v -= c' or v++/v-- of
 * variable v at s, with c a constant: its operator ('>', '<', '+', '-') and c. */
static char step_of(W *w, CXCursor s, CXCursor v, int64_t *c)
{
    s = walk_strip(s);
    const char *op = import_binary_op(s), *uop = import_unary_op(s);
    walk_kids ks = walk_children(s);
    if (uop && (!strcmp(uop, "++") || !strcmp(uop, "--"))) {
        *c = 1;
        return uop[0];
    }
    if (!op || ks.n != 2 || !walk_refers_to(ks.c[0], v))
        return 0;
    CXCursor k = ks.c[1];
    char r = 0;
    if (!strcmp(op, ">>=") || !strcmp(op, "<<=") || !strcmp(op, "+=") || !strcmp(op, "-="))
        r = op[0];
    else if (!strcmp(op, "=")) {
        CXCursor rhs = walk_strip(ks.c[1]);
        const char *rop = import_binary_op(rhs);
        walk_kids rk = walk_children(rhs);
        if (!rop || rk.n != 2 || !walk_refers_to(rk.c[0], v) ||
            (strcmp(rop, ">>") && strcmp(rop, "<<") && strcmp(rop, "+") && strcmp(rop, "-")))
            return 0;
        r = rop[0];
        k = rk.c[1];
    }
    char saved[sizeof w->why];
    memcpy(saved, w->why, sizeof saved);
    expr_ref e = r ? walk_value(w, k) : 0;
    memcpy(w->why, saved, sizeof saved);
    return e && expr_pool_const(&w->ep, e, c) ? r : 0;
}

/* A loop body that is, for the variables it changes, 'if (X < v) { ...; v >>= 1; ... }' (dwtHaar1D:
 * 'if (tid < num_threads)' with num_threads halved inside): every variable the body changes is
 * changed once, at the top of that if's block, and used nowhere else in the body; v only goes
 * down and X does not change. A thread that fails the condition once fails it at every later
 * iteration (its v no longer changes and the others' only go down), so where the condition holds
 * the variables have the values of every earlier iteration having run the block: the block's
 * statements are then steps of induction variables. The block, or a null cursor. */
static CXCursor monotone_block(W *w, CXCursor body, const loop_mods *m)
{
    CXCursor none = clang_getNullCursor(), block = none, cond = none;
    walk_kids bk = walk_children(body);
    for (int i = 0; i < bk.n; i++) {
        bool ifs = clang_getCursorKind(bk.c[i]) == CXCursor_IfStmt;
        walk_kids ik = ifs ? walk_children(bk.c[i]) : (walk_kids){NULL, 0};
        if (ifs && ik.n == 2 && clang_isExpression(clang_getCursorKind(ik.c[0])) &&
            clang_getCursorKind(ik.c[1]) == CXCursor_CompoundStmt && refers_to_changed(w, m, ik.c[1])) {
            if (!clang_Cursor_isNull(block))
                return none;
            block = ik.c[1];
            cond = ik.c[0];
        } else if (refers_to_changed(w, m, bk.c[i]))
            return none; /* used or changed outside the block */
    }
    if (clang_Cursor_isNull(block))
        return none;
    walk_kids tk = walk_children(block);
    for (int bi = 0; bi < 64 && bi < w->nbinds; bi++) {
        if (!m->count[bi] || !w->binds[bi].is_var)
            continue;
        bool top = false; /* the same statement (compared by position: the cursors come from two walks) */
        unsigned fo, to;
        int l, cl;
        walk_where(m->first[bi], &l, &cl, &fo);
        for (int i = 0; i < tk.n; i++) {
            walk_where(walk_strip(tk.c[i]), &l, &cl, &to);
            top |= to == fo && clang_getCursorKind(walk_strip(tk.c[i])) == clang_getCursorKind(m->first[bi]);
        }
        if (m->count[bi] != 1 || !top)
            return none;
    }
    /* the condition: X < v, X <= v, v > X or v >= X, with v going down and X unchanged */
    CXCursor g = walk_strip(cond);
    const char *op = import_binary_op(g);
    walk_kids gk = walk_children(g);
    if (!op || gk.n != 2)
        return none;
    int vi = !strcmp(op, "<") || !strcmp(op, "<=") ? 1 : !strcmp(op, ">") || !strcmp(op, ">=") ? 0 : -1;
    if (vi < 0 || refers_to_changed(w, m, gk.c[1 - vi]))
        return none;
    CXCursor v = walk_strip(gk.c[vi]);
    int bi = clang_getCursorKind(v) == CXCursor_DeclRefExpr ? var_binding(w, v) : -1;
    int64_t c = 0;
    char st = bi >= 0 && bi < 64 && m->count[bi] ? step_of(w, m->first[bi], w->binds[bi].decl, &c) : 0;
    if (!((st == '>' && c >= 0) || (st == '-' && c >= 0) || (st == '+' && c <= 0)))
        return none;
    return block;
}

/* The followed variables a loop body writes: at the start of an iteration (before) each is no
 * longer known, except a simple induction variable (written once per iteration, v += k with k
 * the same for every lane, at the top of the body), which is v0 + k * (iteration number) of the
 * counted loop L (NULL: not counted; ctx, when given, says why in the reason); after the loop
 * (before false) the same with every iteration done. */
static void loop_vars(W *w, CXCursor body, const wloop *L, bool before, const char *ctx)
{
    loop_mods m;
    memset(&m, 0, sizeof m);
    m.w = w;
    clang_visitChildren(body, loop_mod_visit, &m);
    CXCursor mblock = L && L->kind == 0 ? monotone_block(w, body, &m) : clang_getNullCursor();
    for (int bi = 0; bi < w->nbinds && bi < 64; bi++) {
        if (!m.count[bi])
            continue;
        binding *b = &w->binds[bi];
        int line, col;
        walk_where(m.first[bi], &line, &col, NULL);
        expr_ref step = 0, mask = 0;
        walk_kids bk = walk_children(body);
        bool top = false;
        for (int i = 0; i < bk.n; i++)
            top |= clang_equalCursors(walk_strip(bk.c[i]), m.first[bi]);
        const char *op = import_binary_op(m.first[bi]);
        const char *uop = import_unary_op(m.first[bi]);
        walk_kids ks = walk_children(m.first[bi]);
        int64_t sc = 0;
        char sop = !clang_Cursor_isNull(mblock) && b->val ? step_of(w, m.first[bi], b->decl, &sc) : 0;
        if (sop && before) {
            /* a step of the monotone block: the value after every earlier iteration ran it */
            expr_ref done = expr_pool_binary(
                &w->ep, EXPR_DIV,
                expr_pool_binary(&w->ep, EXPR_SUB, expr_pool_var(&w->ep, L->var), expr_pool_num(&w->ep, L->from)),
                expr_pool_num(&w->ep, L->step));
            expr_ref k = expr_pool_num(&w->ep, sc);
            expr_ref by = expr_pool_binary(&w->ep, EXPR_MUL, k, done);
            b->val = expr_pool_binary(&w->ep,
                                      sop == '>'   ? EXPR_SHR
                                      : sop == '<' ? EXPR_SHL
                                      : sop == '+' ? EXPR_ADD
                                                   : EXPR_SUB,
                                      b->val, by);
            b->why = NULL;
            continue;
        }
        if (sop) { /* after the loop: where each thread stopped is not known */
            char *why = walk_fmt("changed at %d:%d, inside a loop, under a condition", line, col);
            b->val = 0;
            b->why = walk_strdup(w, why);
            free(why);
            continue;
        }
        if (L && L->kind == 0 && m.count[bi] == 1 && top && b->val) {
            if (uop && (!strcmp(uop, "++") || !strcmp(uop, "--")))
                step = expr_pool_num(&w->ep, uop[0] == '+' ? 1 : -1);
            else if (op && (!strcmp(op, "+=") || !strcmp(op, "-=")) && ks.n == 2) {
                char saved[sizeof w->why];
                memcpy(saved, w->why, sizeof saved);
                step = walk_value(w, ks.c[1]);
                memcpy(w->why, saved, sizeof saved);
                if (step && (expr_pool_uses_thread(&w->ep, step) || expr_pool_uses(&w->ep, step, -1)))
                    step = expr_pool_uses(&w->ep, step, -1) ? 0 : step;
                if (step && op[0] == '-')
                    step = expr_pool_unary(&w->ep, EXPR_NEG, step);
            } else if (op && !strcmp(op, "=") && ks.n == 2)
                step = wrap_step(w, ks.c[1], b->decl, &mask);
        }
        if (!step) {
            char *why = data_write(w, body, b->decl, 0)
                            ? walk_fmt("depends on data: changed at %d:%d, inside a loop, under a condition that reads "
                                       "memory or to a value read from memory (bankscope record captures it)",
                                       line, col)
                        : ctx ? walk_fmt("changed at %d:%d, %s", line, col, ctx)
                              : walk_fmt("changed at %d:%d, inside a loop", line, col);
            b->val = 0;
            b->why = walk_strdup(w, why);
            free(why);
            continue;
        }
        /* iterations done: (loop value - from) / step at the start of one, the count after */
        expr_ref done =
            before ? expr_pool_binary(&w->ep, EXPR_DIV,
                                      expr_pool_binary(&w->ep, EXPR_SUB, expr_pool_var(&w->ep, L->var),
                                                       expr_pool_num(&w->ep, L->from)),
                                      expr_pool_num(&w->ep, L->step))
                   : expr_pool_num(&w->ep, L->kind == 0 && L->step != 0 ? (L->last - L->from) / L->step + 1 : 0);
        expr_ref v = expr_pool_binary(&w->ep, EXPR_ADD, b->val, expr_pool_binary(&w->ep, EXPR_MUL, step, done));
        if (mask) /* (v0 + k * c) & m after k >= 1 steps; v0 itself before the first */
            v = expr_pool_cond(&w->ep, expr_pool_binary(&w->ep, EXPR_EQ, done, expr_pool_num(&w->ep, 0)), b->val,
                               expr_pool_binary(&w->ep, EXPR_AND, v, mask));
        b->val = v;
    }
}

/* ---------- statements ---------- */

static void push_guard(W *w, CXCursor cond, bool negate, expr_ref *saved, const char **saved_why)
{
    *saved = w->guard;
    *saved_why = w->guard_why;
    if (w->guard_why)
        return;
    w->why[0] = '\0';
    expr_ref g = walk_value(w, cond);
    if (!g) {
        int l, cl;
        walk_where(cond, &l, &cl, NULL);
        w->guard_why = walk_strdup(w, "");
        char *m = walk_fmt("under the condition at %d:%d, which cannot be expressed: %s", l, cl, w->why);
        w->guard_why = walk_strdup(w, m);
        free(m);
        return;
    }
    if (negate)
        g = expr_pool_unary(&w->ep, EXPR_LNOT, g);
    w->guard = w->guard ? expr_pool_binary(&w->ep, EXPR_LAND, w->guard, g) : g;
}

/* A return (or continue) at c: the lanes that reach it leave the function (the iteration); what
 * follows runs only where they did not. An exit whose lanes cannot be told (under a condition
 * bankscope cannot express, or a return inside a loop, which ends the later iterations too)
 * makes what follows unknown. */
static void note_exit(W *w, CXCursor c, bool is_return)
{
    expr_ref *gone = is_return ? &w->exited : &w->skipped;
    const char **gone_why = is_return ? &w->exited_why : &w->skipped_why;
    if (*gone_why || w->ignore_exits)
        return;
    int line, col;
    walk_where(c, &line, &col, NULL);
    const char *what = is_return ? "return" : "continue";
    bool in_loop = w->nlstack > w->fn_nlstack || w->loop_why != w->fn_loop_why;
    if (w->guard_why || (is_return && in_loop)) {
        /* the condition's own reason names what is unknown (and the -D that settles it) */
        char *m = walk_fmt("after the %s at %d:%d, %s", what, line, col, w->guard_why ? w->guard_why : "inside a loop");
        *gone_why = walk_strdup(w, m);
        free(m);
        return;
    }
    expr_ref here = w->guard ? w->guard : expr_pool_num(&w->ep, 1);
    *gone = *gone ? expr_pool_binary(&w->ep, EXPR_LOR, *gone, here) : here;
}

/* The walk's state before a trial walk (walk_try_loop), to be put back after it. */
typedef struct walk_saved {
    int nacc, nskips, nloops, nbinds, nlstack;
    binding *binds;
    expr_ref guard, exited, skipped;
    const char *guard_why, *exited_why, *skipped_why, *loop_why;
    bool break_ok, block_noted[3];
    walk_tparam tparams[WALK_MAX_TPARAMS];
} walk_saved;

static void state_save(const W *w, walk_saved *s)
{
    s->nacc = w->nacc;
    s->nskips = w->nskips;
    s->nloops = w->nloops;
    s->nbinds = w->nbinds;
    s->nlstack = w->nlstack;
    s->binds = xmalloc((size_t)(w->nbinds + 1) * sizeof *s->binds);
    memcpy(s->binds, w->binds, (size_t)w->nbinds * sizeof *s->binds);
    s->guard = w->guard;
    s->exited = w->exited;
    s->skipped = w->skipped;
    s->guard_why = w->guard_why;
    s->exited_why = w->exited_why;
    s->skipped_why = w->skipped_why;
    s->loop_why = w->loop_why;
    s->break_ok = w->break_ok;
    memcpy(s->block_noted, w->block_noted, sizeof s->block_noted);
    memcpy(s->tparams, w->tparams, sizeof s->tparams);
}

/* Undo what was walked since state_save: its accesses, messages, loops and values. */
static void state_restore(W *w, walk_saved *s)
{
    for (int i = s->nacc; i < w->nacc; i++) {
        waccess *a = &w->acc[i];
        free(a->field);
        free(a->vector);
        free(a->atomic);
        free(a->label);
        free(a->source);
        free(a->text);
        free(a->file);
    }
    w->nacc = s->nacc;
    for (int i = s->nskips; i < w->nskips; i++)
        free(w->skips[i].text);
    w->nskips = s->nskips;
    for (int i = s->nloops; i < w->nloops; i++)
        free(w->loops[i].user);
    w->nloops = s->nloops;
    memcpy(w->binds, s->binds, (size_t)s->nbinds * sizeof *s->binds);
    free(s->binds);
    w->nbinds = s->nbinds;
    w->nlstack = s->nlstack;
    w->guard = s->guard;
    w->exited = s->exited;
    w->skipped = s->skipped;
    w->guard_why = s->guard_why;
    w->exited_why = s->exited_why;
    w->skipped_why = s->skipped_why;
    w->loop_why = s->loop_why;
    w->break_ok = s->break_ok;
    memcpy(w->block_noted, s->block_noted, sizeof s->block_noted);
    memcpy(w->tparams, s->tparams, sizeof w->tparams);
}

/* Whether two values are the same tree (node indices a and b of the pool, -1: none). */
static bool same_node(const expr_pool *p, int a, int b, int depth)
{
    if (a == b)
        return true;
    if (a < 0 || b < 0 || depth > 200)
        return false;
    const expr_node *x = &p->nodes[a], *y = &p->nodes[b];
    return x->kind == y->kind && x->op == y->op && x->value == y->value && same_node(p, x->a, y->a, depth + 1) &&
           same_node(p, x->b, y->b, depth + 1) && same_node(p, x->c, y->c, depth + 1);
}

/* Whether two values are the same expression. */
static bool same_value(W *w, expr_ref a, expr_ref b)
{
    return a && b && same_node(&w->ep, a - 1, b - 1, 0);
}

/* The followed variables (the first n bindings) that a loop's body and increment (inc, may be
 * null) give back the value they had when its first iteration started (a variable set again
 * before the iteration ends, as 'w = tx' after a loop over w): a trial walk of one iteration,
 * undone after. inv[i] says which; the others change from one iteration to the next (data[i]:
 * the reason when what one iteration leaves depends on data, else NULL). */
static void loop_invariants(W *w, CXCursor c, CXCursor body, CXCursor inc, int n, bool *inv, const char **data)
{
    loop_mods m; /* the variables the loop writes */
    memset(&m, 0, sizeof m);
    m.w = w;
    clang_visitChildren(c, loop_mod_visit, &m);
    /* first every variable at its start value; then, until nothing changes, those found to change
     * from one iteration to the next stand for any value (a name of their own), so that a value
     * given back only at the start values ('x += k' with k 0 at first) is not taken as kept */
    for (int pass = 0; pass < 4; pass++) {
        walk_saved sv;
        state_save(w, &sv);
        w->trial++;
        w->skipped = 0;
        w->skipped_why = NULL;
        for (int i = 0; pass > 0 && i < n && i < 64; i++)
            if (m.count[i] && !inv[i] && w->binds[i].is_var) {
                w->binds[i].val = expr_pool_var(&w->ep, WALK_VAR_LOOP(MAX_LOOPS + i));
            }
        walk_stmt(w, body);
        if (!clang_Cursor_isNull(inc))
            walk_expr(w, inc);
        bool changed = false;
        for (int i = 0; i < n; i++) {
            bool keep = sv.binds[i].is_var && sv.binds[i].val && same_value(w, sv.binds[i].val, w->binds[i].val);
            if (pass == 0) {
                inv[i] = keep && i < 64; /* past 64 variables, what the loop writes is not known */
                data[i] = !w->binds[i].val && w->binds[i].why && !strncmp(w->binds[i].why, "depends on data", 15)
                              ? w->binds[i].why
                              : NULL;
            } else if (inv[i] && !keep) {
                inv[i] = false;
                changed = true;
            }
        }
        w->trial--;
        state_restore(w, &sv);
        bool open = false; /* a variable the loop changes and does not keep */
        for (int i = 0; i < n && i < 64; i++)
            open |= m.count[i] && !inv[i];
        if ((pass > 0 && !changed) || !open)
            break;
    }
}

typedef struct changed_find {
    CXCursor loop;
    bool found;
} changed_find;

static enum CXChildVisitResult changed_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    changed_find *f = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
        walk_mod_count_in(f->loop, clang_getCursorReferenced(c)) > 0) {
        f->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* Whether the body of loop c gives b's variable back the value it has when the loop starts, by
 * a last plain assignment at the body's top level whose value uses nothing the loop changes
 * ('w = threadIdx.x' after an inner loop that steps w): the same at every iteration's start. */
static bool reset_invariant(W *w, CXCursor c, CXCursor body, const binding *b)
{
    if (!b->is_var || !b->val)
        return false;
    walk_kids bk = walk_children(body);
    unsigned lw = last_write(body, b->decl);
    for (int i = bk.n - 1; i >= 0; i--) {
        CXCursor st = walk_strip(bk.c[i]);
        CXCursor lhs = written(st, false);
        if (clang_Cursor_isNull(lhs) || !walk_refers_to(lhs, b->decl))
            continue;
        const char *op = import_binary_op(st);
        walk_kids sk = walk_children(st);
        unsigned off;
        int l, cl;
        walk_where(st, &l, &cl, &off);
        if (!op || strcmp(op, "=") || off != lw || sk.n != 2)
            return false;
        changed_find f = {c, false};
        if (clang_getCursorKind(sk.c[1]) == CXCursor_DeclRefExpr)
            changed_visit(sk.c[1], st, &f);
        else
            clang_visitChildren(sk.c[1], changed_visit, &f);
        if (f.found)
            return false;
        char saved[sizeof w->why];
        memcpy(saved, w->why, sizeof saved);
        expr_ref v = walk_value(w, sk.c[1]);
        memcpy(w->why, saved, sizeof saved);
        return v && same_value(w, v, b->val);
    }
    return false;
}

/* The initial value of var in a loop's init (its declaration there, or 'var = X'), or null. */
static CXCursor init_value(CXCursor init, CXCursor var)
{
    walk_kids ks = walk_children(init);
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        for (int i = 0; i < ks.n; i++)
            if (clang_equalCursors(ks.c[i], var)) {
                walk_kids dk = walk_children(var);
                if (dk.n && clang_isExpression(clang_getCursorKind(dk.c[dk.n - 1])))
                    return dk.c[dk.n - 1];
            }
        return clang_getNullCursor();
    }
    const char *op = import_binary_op(init);
    if (op && !strcmp(op, ",") && ks.n == 2) {
        CXCursor r = init_value(ks.c[0], var);
        return clang_Cursor_isNull(r) ? init_value(ks.c[1], var) : r;
    }
    if (op && !strcmp(op, "=") && ks.n == 2 && walk_refers_to(ks.c[0], var))
        return ks.c[1];
    return clang_getNullCursor();
}

/* Whether every write to var in the increment inc steps it by a value the same for every
 * thread (v++, v += k, v -= k, v *= k, ... with k uniform), each one counted in *n. */
static bool uniform_steps(W *w, CXCursor inc, CXCursor var, int *n)
{
    CXCursor e = walk_strip(inc);
    walk_kids ks = walk_children(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    if (k == CXCursor_BinaryOperator) {
        const char *op = import_binary_op(e);
        if (op && !strcmp(op, ",") && ks.n == 2)
            return uniform_steps(w, ks.c[0], var, n) && uniform_steps(w, ks.c[1], var, n);
        if (op && !strcmp(op, "=") && ks.n == 2 && walk_refers_to(ks.c[0], var))
            return false; /* 'v = ...': a new value, not a step */
        return true;
    }
    if (k == CXCursor_CompoundAssignOperator && ks.n == 2 && walk_refers_to(ks.c[0], var)) {
        (*n)++;
        return walk_uniform(w, ks.c[1]);
    }
    if (k == CXCursor_UnaryOperator && ks.n == 1 && walk_refers_to(ks.c[0], var)) {
        (*n)++;
        return true;
    }
    return true;
}

/* Whether the condition of loop c is the same for every thread at every iteration: each side
 * uniform, or a variable the loop's init sets to a uniform value and only its increment steps, by
 * uniform amounts ('for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep)'). */
static bool loop_cond_uniform(W *w, CXCursor c, CXCursor init, CXCursor cond, CXCursor inc)
{
    if (walk_uniform(w, cond))
        return true;
    CXCursor e = walk_strip(cond);
    walk_kids ks = walk_children(e);
    const char *op = clang_getCursorKind(e) == CXCursor_BinaryOperator ? import_binary_op(e) : NULL;
    if (!op || ks.n != 2 || clang_Cursor_isNull(init) || clang_Cursor_isNull(inc))
        return false;
    for (int i = 0; i < 2; i++) {
        if (walk_uniform(w, ks.c[i]))
            continue;
        CXCursor side = walk_strip(ks.c[i]);
        if (clang_getCursorKind(side) != CXCursor_DeclRefExpr)
            return false;
        CXCursor var = clang_getCursorReferenced(side), from = init_value(init, var);
        int steps = 0;
        if (clang_Cursor_isNull(from) || !walk_uniform(w, from) || !uniform_steps(w, inc, var, &steps) ||
            walk_mod_count_in(c, var) != steps + (clang_getCursorKind(init) == CXCursor_DeclStmt ? 0 : 1))
            return false;
    }
    return true;
}

/* A loop bankscope cannot count (why says why): its first iteration is analysed, as every lane
 * that runs the loop runs it: under the loop's condition at the values the variables have when
 * the loop starts (or for every lane when that condition is the same for every thread though not
 * known, such as a count read from memory; a do-while's first iteration always runs). What the
 * loop changes is not known inside it, so an access that depends on its iterations is listed
 * with the reason. A loop that can be left early (break, return, goto), a for loop with a part
 * missing, or one whose condition is neither known nor the same for every thread is not
 * followed: its accesses are listed. */
static void walk_loop_once(W *w, CXCursor c, CXCursor init, CXCursor cond, CXCursor inc, CXCursor body, bool parts,
                           const char *why)
{
    enum CXCursorKind kind = clang_getCursorKind(c);
    const char *what = kind == CXCursor_ForStmt ? "loop" : kind == CXCursor_WhileStmt ? "while loop" : "do-while loop";
    int line, col;
    walk_where(c, &line, &col, NULL);
    char *ctx = walk_fmt("inside the %s at %d:%d, which is not a simple counted loop: %s", what, line, col, why);
    const char *lw0 = w->loop_why, *gw0 = w->guard_why, *skw0 = w->skipped_why;
    expr_ref g0 = w->guard, sk0 = w->skipped;
    int nb0 = w->nbinds;
    bool bo0 = w->break_ok;
    w->break_ok = false;
    bool once = parts && !clang_Cursor_isNull(body) && clang_Cursor_isNull(walk_loop_exit(body));
    if (!parts) { /* the children in order, whatever they are */
        walk_kids ks = walk_children(c);
        init = clang_getNullCursor();
        cond = inc = body = init;
        if (!w->loop_why)
            w->loop_why = walk_strdup(w, ctx);
        loop_vars(w, c, NULL, true, NULL);
        for (int i = 0; i < ks.n; i++) {
            if (clang_isExpression(clang_getCursorKind(ks.c[i])))
                walk_expr(w, ks.c[i]);
            else
                walk_stmt(w, ks.c[i]);
        }
    }
    if (!clang_Cursor_isNull(init)) {
        if (clang_isExpression(clang_getCursorKind(init)))
            walk_expr(w, init);
        else
            walk_stmt(w, init);
    }
    bool cond_first = kind != CXCursor_DoStmt;
    if (cond_first && !clang_Cursor_isNull(cond)) {
        walk_expr(w, cond);
        w->why[0] = '\0';
        expr_ref g = once && !w->guard_why ? walk_value(w, cond) : 0;
        if (g)
            w->guard = w->guard ? expr_pool_binary(&w->ep, EXPR_LAND, w->guard, g) : g;
        else if (once && !loop_cond_uniform(w, c, init, cond, inc)) {
            once = false;
            if (strstr(w->why, "depends on data")) { /* the lanes that run it depend on data */
                free(ctx);
                ctx = walk_fmt("inside the %s at %d:%d, whose condition %s", what, line, col, w->why);
            }
        }
    }
    if (parts && !once && !w->loop_why)
        w->loop_why = walk_strdup(w, ctx);
    if (parts && once && !w->loop_why && !w->guard_why)
        walk_add_skip(w, line, col,
                      walk_fmt("%s:%d:%d: note: the %s is not a simple counted loop (%s): its first iteration is "
                               "analysed; what depends on its iterations is listed as skipped",
                               walk_file_of(w, c), line, col, what, why));
    /* the variables each iteration gives back their value keep it (found by a trial walk of one
     * iteration, at most MAX_TRIAL_DEPTH loops deep and MAX_TRIALS in all, or by a last
     * assignment at the body's top level) */
    int ninv = parts && once ? w->nbinds : 0;
    bool *inv = ninv ? xcalloc((size_t)ninv, sizeof *inv) : NULL;
    expr_ref *start = ninv ? xmalloc((size_t)ninv * sizeof *start) : NULL;
    const char **data = ninv ? xcalloc((size_t)ninv, sizeof *data) : NULL;
    for (int i = 0; i < ninv; i++)
        start[i] = w->binds[i].val;
    if (ninv && w->trial < MAX_TRIAL_DEPTH && w->ntrials < MAX_TRIALS) {
        w->ntrials++;
        loop_invariants(w, c, body, inc, ninv, inv, data);
    }
    for (int i = 0; i < ninv; i++)
        inv[i] = inv[i] || reset_invariant(w, c, body, &w->binds[i]);
    if (parts) {
        /* why a variable the loop changes is not known: the loop's reason, where a count read
         * from memory does not make the variable's value depend on data */
        strbuf vc = {0};
        strbuf_addf(&vc, "inside the %s at %d:%d, whose iterations are not counted: ", what, line, col);
        for (const char *p = why, *q; *p; p = q ? q + 17 : p + strlen(p)) {
            q = strstr(p, "depends on data: ");
            strbuf_add(&vc, p, q ? (size_t)(q - p) : strlen(p));
        }
        loop_vars(w, c, NULL, true, strbuf_str(&vc));
        strbuf_free(&vc);
        for (int i = 0; i < ninv; i++)
            if (inv[i]) {
                w->binds[i].val = start[i];
                w->binds[i].why = NULL;
            } else if (data[i] && !w->binds[i].val) /* from the second iteration on */
                w->binds[i].why = data[i];
        w->skipped = 0; /* a continue ends the iteration for the lanes that take it */
        w->skipped_why = NULL;
        walk_stmt(w, body);
        if (!clang_Cursor_isNull(inc))
            walk_expr(w, inc);
        if (!cond_first && !clang_Cursor_isNull(cond))
            walk_expr(w, cond);
    }
    w->nbinds = nb0;
    {
        /* after the loop, a variable it changes is unknown for the loop's reason (which names the
         * -D that would count it), a count read from memory aside as above */
        strbuf vc = {0};
        strbuf_addf(&vc, "inside the %s at %d:%d, whose iterations are not counted: ", what, line, col);
        for (const char *p = why, *q; *p; p = q ? q + 17 : p + strlen(p)) {
            q = strstr(p, "depends on data: ");
            strbuf_add(&vc, p, q ? (size_t)(q - p) : strlen(p));
        }
        loop_vars(w, c, NULL, false, strbuf_str(&vc));
        strbuf_free(&vc);
    }
    for (int i = 0; i < ninv && i < nb0; i++)
        if (inv[i]) { /* given back by every iteration: the same after the loop */
            w->binds[i].val = start[i];
            w->binds[i].why = NULL;
        }
    free(inv);
    free(start);
    free(data);
    w->loop_why = lw0;
    w->guard = g0;
    w->guard_why = gw0;
    w->break_ok = bo0;
    w->skipped = sk0;
    w->skipped_why = skw0;
    free(ctx);
}

typedef struct write_find {
    CXCursor var;
    unsigned last; /* offset of the last write found */
} write_find;

static enum CXChildVisitResult write_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    write_find *f = d;
    CXCursor lhs = written(c, true);
    if (!clang_Cursor_isNull(lhs) && walk_refers_to(lhs, f->var)) {
        unsigned off;
        int l, cl;
        walk_where(c, &l, &cl, &off);
        if (off > f->last)
            f->last = off;
    }
    return CXChildVisit_Recurse;
}

/* The offset of the last write of var inside scope (0: none). */
static unsigned last_write(CXCursor scope, CXCursor var)
{
    write_find f = {var, 0};
    clang_visitChildren(scope, write_visit, &f);
    return f.last;
}

/* The followed variable with a known value that a loop condition compares (v < bound): its
 * binding, or -1. */
static int cond_var(W *w, CXCursor cond)
{
    CXCursor cs = walk_strip(cond);
    walk_kids cc = import_binary_op(cs) ? walk_children(cs) : (walk_kids){NULL, 0};
    for (int i = 0; i < cc.n && i < 2; i++) {
        int bi = var_binding(w, cc.c[i]);
        if (bi >= 0 && w->binds[bi].val)
            return bi;
    }
    return -1;
}

/* The parts of a for statement (libclang lists only those written): which are there, from its
 * tokens 'for ( init ; cond ; inc )'. False when they cannot be told. */
static bool for_parts(W *w, CXCursor c, walk_kids ks, CXCursor *init, CXCursor *cond, CXCursor *inc, CXCursor *body)
{
    *init = *cond = *inc = *body = clang_getNullCursor();
    if (ks.n == 4) {
        *init = ks.c[0];
        *cond = ks.c[1];
        *inc = ks.c[2];
        *body = ks.c[3];
        return true;
    }
    CXToken *t = NULL;
    unsigned n = 0;
    clang_tokenize(w->tu, clang_getCursorExtent(c), &t, &n);
    bool has[3] = {false, false, false};
    unsigned part = 0, depth = 0;
    for (unsigned i = 2; i < n && part < 3; i++) { /* after 'for' '(' */
        CXString ts = clang_getTokenSpelling(w->tu, t[i]);
        const char *sp = clang_getCString(ts);
        if (depth == 0 && !strcmp(sp, ";"))
            part++;
        else if (depth == 0 && !strcmp(sp, ")"))
            part = part == 2 ? 3 : 4; /* the end of the parts: after exactly two ';' */
        else {
            has[part] = true;
            if (!strcmp(sp, "(") || !strcmp(sp, "[") || !strcmp(sp, "{"))
                depth++;
            else if (!strcmp(sp, ")") || !strcmp(sp, "]") || !strcmp(sp, "}"))
                depth--;
        }
        clang_disposeString(ts);
    }
    clang_disposeTokens(w->tu, t, n);
    if (part != 3 || 1 + has[0] + has[1] + has[2] != ks.n)
        return false;
    int k = 0;
    CXCursor *slot[3] = {init, cond, inc};
    for (int i = 0; i < 3; i++)
        if (has[i])
            *slot[i] = ks.c[k++];
    *body = ks.c[k];
    return true;
}

/* A for, while or do-while loop: a simple counted loop becomes a loop of the scenario (a while
 * loop that steps a variable to a bound too), any other is analysed for its first iteration. */
static bool leaves(CXCursor branch);

/* The values a loop leaves in the variables it changes under a condition ('if (nf >= i) df = i',
 * Rodinia's srad reduce), when its iterations are all known (a counted loop of constant start,
 * bound and step, at most MAX_REPLAY iterations, that no exit leaves): its body is walked once per
 * iteration, the loop variable a number each time, from the values the variables had before it
 * (pre, the first nb0 bindings); what it leaves after the last iteration is their value after the
 * loop. A trial walk: its accesses and messages are undone. Variables it cannot follow stay not
 * known, as the walk of the loop left them. */
static void loop_replay(W *w, CXCursor c, CXCursor body, CXCursor var, int id, const expr_ref *pre, int nb0)
{
    enum { MAX_REPLAY = 1024 };
    const wloop *L = &w->loops[id];
    int open = 0; /* variables the loop changed and that are not known after it */
    for (int i = 0; i < nb0; i++)
        open += w->binds[i].is_var && !w->binds[i].val && pre[i] && walk_mod_count_in(c, w->binds[i].decl) > 0;
    if (!open || w->trial >= MAX_TRIAL_DEPTH || w->ntrials >= MAX_TRIALS)
        return;
    int64_t vals[MAX_REPLAY];
    int n = 0;
    for (int64_t v = L->from; n <= MAX_REPLAY; n++) {
        bool in = L->kind == 0 ? (L->step > 0 ? v < L->to : v > L->to) : L->kind == 1 ? v < L->to : v > L->to;
        if (!in || (L->kind && v == 0))
            break;
        if (n == MAX_REPLAY)
            return;
        vals[n] = v;
        v = L->kind == 0 ? v + L->step : L->kind == 1 ? v * L->step : v / L->step;
    }
    w->ntrials++;
    walk_saved sv;
    state_save(w, &sv);
    w->trial++;
    for (int i = 0; i < nb0; i++)
        if (w->binds[i].is_var && walk_mod_count_in(c, w->binds[i].decl) > 0) {
            w->binds[i].val = pre[i];
            w->binds[i].why = pre[i] ? NULL : w->binds[i].why;
        }
    binding b;
    memset(&b, 0, sizeof b);
    b.decl = var;
    /* a do-while's step may come first in its body: what follows it sees the stepped value */
    b.is_var = clang_getCursorKind(c) == CXCursor_DoStmt;
    int nl0 = w->nloops;
    for (int k = 0; k < n && !w->over; k++) {
        b.val = expr_pool_num(&w->ep, vals[k]);
        w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
        w->binds[w->nbinds++] = b;
        walk_stmt(w, body);
        w->nbinds = nb0;
    }
    expr_ref *fin = xmalloc((size_t)nb0 * sizeof *fin);
    for (int i = 0; i < nb0; i++) {
        fin[i] = w->binds[i].val;
        for (int k = nl0; k < w->nloops && fin[i]; k++) /* a loop inside: not a value after this one */
            if (expr_pool_uses(&w->ep, fin[i], w->loops[k].var))
                fin[i] = 0;
        if (fin[i] && expr_pool_uses(&w->ep, fin[i], L->var))
            fin[i] = 0;
    }
    w->trial--;
    state_restore(w, &sv);
    for (int i = 0; i < nb0; i++)
        if (w->binds[i].is_var && !w->binds[i].val && fin[i] && walk_mod_count_in(c, w->binds[i].decl) > 0) {
            w->binds[i].val = fin[i];
            w->binds[i].why = NULL;
        }
    free(fin);
}

/* The values, at each iteration's start, of the variables a counted loop changes that no rule
 * follows (a double buffer's 'write ^= 1' under 'if (k < K)', a scan's 'pout = 1 - pout' in a
 * loop over 'offset *= 2', a counter stepped under a condition): the loop's iterations are walked
 * in turn (a trial walk, undone after), each from what the one before left, its variable a number
 * each time. A variable whose start values are the same for every thread and numbers that follow
 * a + d * i (i the iteration),
 * or that alternate (the same value at every even and at every odd iteration), is given that
 * value; one of a loop of at most MAX_TABLE iterations is given the value of each iteration
 * ('v == v0 ? x0 : v == v1 ? x1 : ...'); the others stay not known. Only for loops of constant
 * start, bound and step, at most MAX_FORMS iterations, that no exit leaves. */
static void loop_forms(W *w, CXCursor c, CXCursor body, CXCursor inc, CXCursor var, int id, const expr_ref *pre,
                       int nb0)
{
    /* the replay's walk is bounded on its own (MAX_FORM_STEPS) and does not count towards the
     * walk's budget: past it the variables stay not known, as without the replay */
    enum { MAX_FORMS = 1024, MAX_TABLE = 32, MAX_FORM_STEPS = 300000 };
    const wloop L = w->loops[id];
    if (L.start || L.bound_e || L.start_e || w->trial >= MAX_TRIAL_DEPTH || w->ntrials >= MAX_TRIALS || leaves(body))
        return;
    int64_t vals[MAX_FORMS];
    int n = 0;
    for (int64_t v = L.from;; n++) {
        bool in = L.kind == 0 ? (L.step > 0 ? v < L.to : v > L.to) : L.kind == 1 ? v < L.to : v > L.to;
        if (!in || (L.kind && v == 0))
            break;
        if (n == MAX_FORMS)
            return;
        vals[n] = v;
        v = L.kind == 0 ? v + L.step : L.kind == 1 ? v * L.step : v / L.step;
    }
    bool *open = xcalloc((size_t)nb0 + 1, sizeof *open);
    int nopen = 0;
    for (int i = 0; i < nb0; i++) {
        open[i] = w->binds[i].is_var && !w->binds[i].val && pre[i] && walk_mod_count_in(c, w->binds[i].decl) > 0;
        nopen += open[i];
    }
    if (!nopen || n < 1) {
        free(open);
        return;
    }
    int nt = n <= MAX_TABLE ? n : 0;
    expr_ref *table = xcalloc((size_t)(nt ? nt : 1) * (size_t)nb0, sizeof *table);
    expr_ref *first = xcalloc((size_t)nb0, sizeof *first), *second = xcalloc((size_t)nb0, sizeof *second);
    int64_t *d = xcalloc((size_t)nb0, sizeof *d);
    bool *arith = xcalloc((size_t)nb0, sizeof *arith), *alt = xcalloc((size_t)nb0, sizeof *alt);
    bool *tab = xcalloc((size_t)nb0, sizeof *tab);
    for (int i = 0; i < nb0; i++) {
        arith[i] = alt[i] = open[i] && L.kind == 0;
        tab[i] = open[i] && nt > 0;
    }
    w->ntrials++;
    walk_saved sv;
    state_save(w, &sv);
    w->trial++;
    int nl0 = w->nloops;
    long steps0 = w->steps;
    bool over0 = w->over != NULL, spent = false, outermost = w->trial == 1;
    for (int i = 0; i < nb0; i++)
        if (open[i]) {
            w->binds[i].val = pre[i];
            w->binds[i].why = NULL;
        }
    binding b;
    memset(&b, 0, sizeof b);
    b.decl = var;
    /* a do-while's step may come first in its body: what follows it sees the stepped value */
    b.is_var = clang_getCursorKind(c) == CXCursor_DoStmt;
    for (int k = 0; k < n && !w->over; k++) {
        bool any = false;
        if (w->steps - steps0 > MAX_FORM_STEPS) {
            spent = true;
            break;
        }
        for (int i = 0; i < nb0; i++) {
            if (!arith[i] && !alt[i] && !tab[i])
                continue;
            expr_ref x = w->binds[i].val;
            for (int l = nl0; l < w->nloops && x; l++) /* a variable of a loop inside: not a value here */
                if (expr_pool_uses(&w->ep, x, w->loops[l].var))
                    x = 0;
            if (x && expr_pool_uses_thread(&w->ep, x)) /* one value for the block, not one per thread */
                x = 0;
            if (!x) {
                arith[i] = alt[i] = tab[i] = false;
                continue;
            }
            if (k == 0)
                first[i] = x;
            else if (k == 1)
                second[i] = x;
            if (tab[i])
                table[k * nb0 + i] = x;
            int64_t xv, f0;
            if (arith[i]) {
                if (!expr_pool_const(&w->ep, x, &xv) || !expr_pool_const(&w->ep, first[i], &f0))
                    arith[i] = false;
                else if (k == 1)
                    d[i] = xv - f0;
                else if (k > 1 && xv != f0 + d[i] * k)
                    arith[i] = false;
            }
            if (alt[i] && k > 1 && !same_value(w, x, k % 2 ? second[i] : first[i]))
                alt[i] = false;
            any |= arith[i] || alt[i] || tab[i];
        }
        if (!any)
            break;
        b.val = expr_pool_num(&w->ep, vals[k]);
        w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
        w->binds[w->nbinds++] = b;
        walk_stmt(w, body);
        if (!clang_Cursor_isNull(inc))
            walk_expr(w, inc);
        w->nbinds = nb0;
    }
    bool over = spent || (w->over && !over0);
    if (w->over && !over0) { /* the replay's own walk went past the budget: undone with it */
        free(w->over);
        w->over = NULL;
    }
    if (outermost) /* a replay inside another counts towards that one's bound */
        w->steps = steps0;
    w->trial--;
    state_restore(w, &sv);
    expr_ref lv = expr_pool_var(&w->ep, L.var);
    /* i, the iteration: (v - from) / step, v the loop's variable */
    expr_ref it =
        expr_pool_binary(&w->ep, EXPR_DIV, expr_pool_binary(&w->ep, EXPR_SUB, lv, expr_pool_num(&w->ep, L.from)),
                         expr_pool_num(&w->ep, L.step));
    for (int i = 0; i < nb0 && !over; i++) {
        expr_ref f = 0;
        if (!open[i])
            continue;
        if (n == 1 && (arith[i] || alt[i] || tab[i]))
            f = first[i];
        else if (arith[i])
            f = expr_pool_binary(&w->ep, EXPR_ADD, first[i],
                                 expr_pool_binary(&w->ep, EXPR_MUL, expr_pool_num(&w->ep, d[i]), it));
        else if (alt[i])
            f = expr_pool_cond(&w->ep,
                               expr_pool_binary(&w->ep, EXPR_EQ,
                                                expr_pool_binary(&w->ep, EXPR_MOD, it, expr_pool_num(&w->ep, 2)),
                                                expr_pool_num(&w->ep, 0)),
                               first[i], second[i]);
        else if (tab[i]) {
            f = table[(n - 1) * nb0 + i];
            for (int k = n - 2; k >= 0; k--)
                f = expr_pool_cond(&w->ep, expr_pool_binary(&w->ep, EXPR_EQ, lv, expr_pool_num(&w->ep, vals[k])),
                                   table[k * nb0 + i], f);
        }
        if (f) {
            w->binds[i].val = f;
            w->binds[i].why = NULL;
        }
    }
    free(open);
    free(table);
    free(first);
    free(second);
    free(d);
    free(arith);
    free(alt);
    free(tab);
}

static void walk_loop(W *w, CXCursor c)
{
    enum CXCursorKind kind = clang_getCursorKind(c);
    walk_kids ks = walk_children(c);
    CXCursor none = clang_getNullCursor(), init = none, cond = none, inc = none, body = none, var = none;
    bool parts = true;
    wloop L;
    const char *why = NULL;
    if (kind == CXCursor_ForStmt) {
        parts = for_parts(w, c, ks, &init, &cond, &inc, &body);
        why = w->nloops < MAX_LOOPS && w->nlstack < 8 ? walk_simple_for(w, c, &L, &var, &body) : "too many loops";
        int bi = parts && clang_Cursor_isNull(init) && !clang_Cursor_isNull(cond) && !clang_Cursor_isNull(inc)
                     ? cond_var(w, cond)
                     : -1;
        if (bi >= 0 && w->nloops < MAX_LOOPS && w->nlstack < 8) { /* for (; v < bound; v += k) */
            var = w->binds[bi].decl;
            why = walk_simple_noinit(w, c, var, w->binds[bi].val, cond, inc, body, &L);
        }
    } else if (kind == CXCursor_WhileStmt) {
        parts = ks.n == 2;
        why = "a while loop that does not step a variable to a bound";
        if (parts) {
            cond = ks.c[0];
            body = ks.c[1];
            /* while (v < bound) { ...; v += k; } with v followed */
            int bi = cond_var(w, cond);
            if (bi >= 0) {
                var = w->binds[bi].decl;
                why = w->nloops < MAX_LOOPS && w->nlstack < 8 ? walk_simple_while(w, c, var, w->binds[bi].val, &L)
                                                              : "too many loops";
            }
        }
    } else {
        parts = ks.n == 2;
        why = "a do-while loop that does not step a variable to a bound";
        if (parts) {
            body = ks.c[0];
            cond = ks.c[1];
            /* do { ...; v += k; } while (v < bound) with v followed */
            int bi = cond_var(w, cond);
            if (bi >= 0) {
                var = w->binds[bi].decl;
                why = w->nloops < MAX_LOOPS && w->nlstack < 8 ? walk_simple_do(w, c, var, w->binds[bi].val, &L)
                                                              : "too many loops";
            }
        }
    }
    if (why && parts && !clang_Cursor_isNull(body) && !strcmp(why, "the loop never runs")) {
        /* no iteration runs: its accesses are dead, at the values the variables start with */
        if (!clang_Cursor_isNull(init)) {
            if (clang_isExpression(clang_getCursorKind(init)))
                walk_expr(w, init);
            else
                walk_stmt(w, init);
        }
        expr_ref g0 = w->guard;
        w->guard = expr_pool_num(&w->ep, 0);
        walk_expr(w, cond);
        walk_stmt(w, body);
        w->guard = g0;
        return;
    }
    if (why) {
        walk_loop_once(w, c, init, cond, inc, body, parts, why);
        return;
    }
    int line, col;
    unsigned off;
    walk_where(c, &line, &col, &off);
    if (!clang_Cursor_isNull(init)) {
        if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
            /* every variable declared; those besides the loop's are stepped by the increment:
             * changed by the loop, from its first iteration's start on */
            walk_kids dk = walk_children(init);
            for (int i = 0; i < dk.n; i++) {
                walk_kids vk = walk_children(dk.c[i]);
                bool has_init = vk.n > 0 && clang_isExpression(clang_getCursorKind(vk.c[vk.n - 1]));
                if (has_init)
                    walk_expr(w, vk.c[vk.n - 1]);
                if (clang_equalCursors(dk.c[i], var))
                    continue;
                int nb = w->nbinds;
                var_declare(w, dk.c[i], has_init ? vk.c[vk.n - 1] : clang_getNullCursor());
                if (w->nbinds > nb) {
                    char *m = walk_fmt("changed by the increment of the loop at %d:%d", line, col);
                    w->binds[nb].val = 0;
                    w->binds[nb].why = walk_strdup(w, m);
                    free(m);
                }
            }
        } else
            walk_expr(w, init);
    }
    CXSourceRange ext = clang_getCursorExtent(c);
    unsigned e_off = 0;
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e_off);
    int id = w->nloops++;
    L.begin = off;
    L.end = e_off;
    L.line = line;
    L.col = col;
    L.parent = w->nlstack ? w->lstack[w->nlstack - 1] : -1;
    L.var = WALK_VAR_LOOP(id);
    L.user = walk_spell(var);
    w->loops[id] = L;
    binding b;
    memset(&b, 0, sizeof b);
    b.decl = var;
    /* a do-while's step may come first in its body: what follows it sees the stepped value */
    b.is_var = clang_getCursorKind(c) == CXCursor_DoStmt;
    b.val = expr_pool_var(&w->ep, L.var);
    expr_ref g0 = w->guard;
    if (L.start) {
        /* the thread's own value of the variable, and whether it is still in the loop */
        b.val = expr_pool_binary(&w->ep, EXPR_ADD, L.start,
                                 expr_pool_binary(&w->ep, EXPR_MUL, b.val, expr_pool_num(&w->ep, L.stride)));
        expr_ref in = L.bound_e ? expr_pool_binary(&w->ep, L.bound_op, b.val, L.bound_e)
                                : expr_pool_binary(&w->ep, EXPR_LT, b.val, expr_pool_num(&w->ep, L.bound));
        w->guard = w->guard ? expr_pool_binary(&w->ep, EXPR_LAND, w->guard, in) : in;
        char *u = walk_fmt("%s_iter", w->loops[id].user);
        free(w->loops[id].user);
        w->loops[id].user = u;
    } else {
        /* a bound or start that moves with an enclosing loop */
        if (L.bound_e) {
            expr_ref in = expr_pool_binary(&w->ep, L.bound_op, b.val, L.bound_e);
            w->guard = w->guard ? expr_pool_binary(&w->ep, EXPR_LAND, w->guard, in) : in;
        }
        if (L.start_e) {
            expr_ref in = expr_pool_binary(&w->ep, L.start_op, b.val, L.start_e);
            w->guard = w->guard ? expr_pool_binary(&w->ep, EXPR_LAND, w->guard, in) : in;
        }
    }
    int nb0 = w->nbinds;
    expr_ref *pre = nb0 ? xmalloc((size_t)nb0 * sizeof *pre) : NULL; /* the values before the loop */
    for (int i = 0; i < nb0; i++)
        pre[i] = w->binds[i].val;
    loop_vars(w, body, &w->loops[id], true, NULL); /* the variables the body changes, at an iteration's start */
    loop_forms(w, c, body, inc, var, id, pre, nb0);
    w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
    w->binds[w->nbinds++] = b;
    w->lstack[w->nlstack++] = id;
    if (kind != CXCursor_DoStmt)
        walk_expr(w, cond);
    expr_ref sk0 = w->skipped;
    const char *skw0 = w->skipped_why;
    w->skipped = 0; /* a continue ends one iteration: the next starts with every lane */
    w->skipped_why = NULL;
    bool bo0 = w->break_ok;
    w->break_ok = true;
    walk_stmt(w, body);
    w->break_ok = bo0;
    w->skipped = sk0;
    w->skipped_why = skw0;
    if (kind == CXCursor_DoStmt) /* after the body, with the values it leaves */
        walk_expr(w, cond);
    expr_ref *endv = nb0 ? xmalloc((size_t)nb0 * sizeof *endv) : NULL;
    for (int i = 0; i < nb0; i++)
        endv[i] = w->binds[i].val;
    if (!clang_Cursor_isNull(inc))
        walk_expr(w, inc);
    w->nlstack--;
    w->nbinds = nb0;
    /* after the loop: what the loop (its increment too) changes is no longer known, but for a
     * variable each iteration sets afresh (not known when an iteration starts, known when it
     * ends): its value at the end of the last iteration, before any break */
    loop_vars(w, c, NULL, false, NULL);
    CXCursor brk = walk_loop_exit(body);
    unsigned brk_off = UINT32_MAX;
    int bl, bc;
    if (!clang_Cursor_isNull(brk))
        walk_where(brk, &bl, &bc, &brk_off);
    for (int i = 0; i < nb0 && !L.start && !L.bound_e && !L.start_e; i++) {
        binding *vb = &w->binds[i];
        if (vb->val || !endv[i] || !vb->is_var || last_write(body, vb->decl) > brk_off)
            continue;
        expr_ref v = expr_pool_subst(&w->ep, endv[i], L.var, expr_pool_num(&w->ep, L.last));
        bool inner = false; /* a variable of a loop inside this one: not a value after it */
        for (int k = id + 1; k < w->nloops; k++)
            inner |= expr_pool_uses(&w->ep, v, w->loops[k].var);
        if (!inner) {
            vb->val = v;
            vb->why = NULL;
        }
    }
    free(endv);
    w->guard = g0;
    if (!L.start && !L.bound_e && !L.start_e && !leaves(body))
        loop_replay(w, c, body, var, id, pre, nb0);
    free(pre);
}

typedef struct stmt_list {
    CXCursor *c;
    int n, cap;
} stmt_list;

static enum CXChildVisitResult list_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    stmt_list *l = d;
    l->c = walk_grow(l->c, l->n, &l->cap, sizeof *l->c);
    l->c[l->n++] = c;
    return CXChildVisit_Continue;
}

/* Find a statement that leaves the code it is in: a return or goto, or a break or continue of an
 * enclosing loop (one inside an inner loop, or a break inside a switch, belongs to that). */
static enum CXChildVisitResult leave_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *found = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_LambdaExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_SwitchStmt) { /* its breaks are its own; a continue or return still leaves */
        clang_visitChildren(c, leave_visit, d);
        if (!clang_Cursor_isNull(*found) && clang_getCursorKind(*found) == CXCursor_BreakStmt)
            *found = clang_getNullCursor();
        return clang_Cursor_isNull(*found) ? CXChildVisit_Continue : CXChildVisit_Break;
    }
    if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static bool leaves(CXCursor branch)
{
    CXCursor found = clang_getNullCursor();
    enum CXCursorKind k = clang_getCursorKind(branch);
    if (k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt || k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt)
        return true;
    clang_visitChildren(branch, leave_visit, &found);
    return !clang_Cursor_isNull(found);
}

/* An if whose condition is not known but is the same for every thread (it depends on a kernel
 * parameter or the block's values, and reads no memory): every thread takes the same branch, so
 * the analysis follows one path, said in a note: the 'then' branch, unless it leaves the code
 * around it (return, break, continue), since what follows runs only when it is not taken. The
 * branch not followed is listed, its exits ignored. False when the condition is not such. */
static bool walk_if_uniform(W *w, CXCursor c, CXCursor cond, CXCursor then, CXCursor els)
{
    if (w->guard_why || clang_Cursor_isNull(then))
        return false;
    w->why[0] = '\0';
    if (walk_value(w, cond) || strstr(w->why, "depends on data") || !walk_uniform(w, cond))
        return false;
    char why[sizeof w->why];
    memcpy(why, w->why, sizeof why);
    bool then_taken = !leaves(then);
    int line, col, l, cl;
    walk_where(c, &line, &col, NULL);
    walk_where(cond, &l, &cl, NULL);
    walk_add_skip(w, line, col,
                  walk_fmt("%s:%d:%d: note: the condition at %d:%d is the same for every thread but not known (%s): "
                           "the analysis takes it as %s",
                           walk_file_of(w, c), line, col, l, cl, why, then_taken ? "true" : "false"));
    char *m = walk_fmt("under the condition at %d:%d, which the analysis takes as %s: it is not known (%s)", l, cl,
                       then_taken ? "true" : "false", why);
    const char *branch_why = walk_strdup(w, m);
    free(m);
    for (int i = 0; i < 2; i++) {
        CXCursor b = i == 0 ? then : els;
        if (clang_Cursor_isNull(b))
            continue;
        if ((i == 0) == then_taken) {
            walk_stmt(w, b);
            continue;
        }
        const char *gw0 = w->guard_why;
        w->guard_why = branch_why;
        w->ignore_exits++;
        walk_stmt(w, b);
        w->ignore_exits--;
        w->guard_why = gw0;
    }
    return true;
}

/* Whether a return (nargs: whether it has a value) in the counted loop being walked ends that
 * loop as a break would: the loop is the kernel's last statement, walked in the kernel itself
 * (walk_simple_for cut the loop at it). */
static bool return_ends_loop(W *w, int nargs)
{
    if (!w->break_ok || nargs || w->ncalls || !w->nlstack || clang_Cursor_isNull(w->last_stmt))
        return false;
    unsigned off;
    int l, cl;
    walk_where(w->last_stmt, &l, &cl, &off);
    return w->loops[w->lstack[w->nlstack - 1]].begin == off;
}

/* The text of an asm statement's instructions: its string literals joined, escapes read. */
static char *asm_text(W *w, CXCursor c)
{
    CXToken *t = NULL;
    unsigned nt = 0;
    clang_tokenize(w->tu, clang_getCursorExtent(c), &t, &nt);
    strbuf sb = {0};
    for (unsigned i = 0; i < nt; i++) {
        CXString sp = clang_getTokenSpelling(w->tu, t[i]);
        const char *x = clang_getCString(sp);
        bool stop = !strcmp(x, ":") || (!strcmp(x, ")") && sb.len);
        if (!stop && clang_getTokenKind(t[i]) == CXToken_Literal && x[0] == '"')
            for (const char *q = x + 1; *q && *q != '"'; q++) {
                char ch = *q;
                if (ch == '\\' && q[1]) {
                    q++;
                    ch = *q == 'n' ? '\n' : *q == 't' ? ' ' : *q;
                }
                strbuf_add(&sb, &ch, 1);
            }
        clang_disposeString(sp);
        if (stop)
            break;
    }
    clang_disposeTokens(w->tu, t, nt);
    return strbuf_take(&sb);
}

/* Whether node i of the pool is variable var plus or minus terms that do not read it (var + x,
 * x + var, var - x, nested). */
static bool base_plus(const expr_pool *p, int i, int var, int depth)
{
    if (i < 0 || depth > 64)
        return false;
    const expr_node *n = &p->nodes[i];
    if (n->kind == EXPR_VAR)
        return n->op == var;
    if (n->kind != EXPR_BINARY || (n->op != EXPR_ADD && n->op != EXPR_SUB))
        return false;
    bool ua = expr_pool_uses(p, n->a + 1, var), ub = expr_pool_uses(p, n->b + 1, var);
    if (ua && !ub)
        return base_plus(p, n->a, var, depth + 1);
    return n->op == EXPR_ADD && ub && !ua && base_plus(p, n->b, var, depth + 1);
}

/* List an access of inline PTX at c that cannot be followed. */
static void asm_skip(W *w, CXCursor c, const char *op, const char *why)
{
    int line, col;
    walk_where(c, &line, &col, NULL);
    walk_add_skip(w, line, col,
                  walk_fmt("%s:%d:%d: skipped %s of 'shared memory': inline PTX whose address %s", walk_file_of(w, c),
                           line, col, op, why));
}

/* One instruction of inline PTX that reads or writes shared memory (ldmatrix, stmatrix,
 * cp.async, ld.shared, st.shared): the access at its [%N + imm] operand, whose value is a shared
 * array's start (__cvta_generic_to_shared) plus a byte offset; listed when it cannot be read. */
static void asm_insn(W *w, CXCursor c, walk_kids ops, const char *ins)
{
    char mn[64];
    size_t ml = strcspn(ins, " \t");
    if (ml == 0 || ml >= sizeof mn)
        return;
    memcpy(mn, ins, ml);
    mn[ml] = '\0';
    bool shared = strstr(mn, ".shared") != NULL;
    banks_op op;
    int width = 0;
    if (!strncmp(mn, "ldmatrix", 8))
        op = BANKS_LDMATRIX;
    else if (!strncmp(mn, "stmatrix", 8))
        op = BANKS_STMATRIX;
    else if (!strncmp(mn, "cp.async.", 9) && shared && strncmp(mn, "cp.async.bulk", 13))
        op = strstr(mn, ".cg") ? BANKS_CP_ASYNC_CG : BANKS_CP_ASYNC;
    else if (!strncmp(mn, "ld.", 3) && shared)
        op = BANKS_LOAD;
    else if (!strncmp(mn, "st.", 3) && shared)
        op = BANKS_STORE;
    else {
        if (shared)
            asm_skip(w, c, "use",
                     "bankscope does not read (an instruction other than ld, st, ldmatrix, stmatrix or cp.async)");
        return;
    }
    const char *opname = op == BANKS_LOAD || op == BANKS_LDMATRIX ? "load" : "store";
    if (op == BANKS_LOAD || op == BANKS_STORE) { /* .v2/.v4 and the type's bits */
        int vec = strstr(mn, ".v4") ? 4 : strstr(mn, ".v2") ? 2 : 1;
        const char *ty = strrchr(mn, '.');
        int bits = ty ? atoi(ty + 2) : 0;
        width = bits >= 8 ? vec * bits / 8 : 0;
    }
    const char *br = strchr(ins + ml, '[');
    int n = -1;
    long imm = 0;
    if (br) {
        const char *q = br + 1;
        while (*q == ' ')
            q++;
        if (*q == '%' && q[1] >= '0' && q[1] <= '9') {
            n = (int)strtol(q + 1, (char **)&q, 10);
            while (*q == ' ')
                q++;
            if (*q == '+' || *q == '-') {
                char sign = *q++;
                imm = strtol(q, (char **)&q, 0);
                imm = sign == '-' ? -imm : imm;
            }
            while (*q == ' ')
                q++;
            if (*q != ']')
                n = -1;
        }
    }
    if (n < 0 || n >= ops.n) {
        asm_skip(w, c, opname, "is not a plain [%N] or [%N + number] operand");
        return;
    }
    if (op == BANKS_CP_ASYNC || op == BANKS_CP_ASYNC_CG) { /* [dst], [src], size */
        const char *q = strchr(br, ']');
        q = q ? strchr(q + 1, ']') : NULL;
        q = q ? strchr(q + 1, ',') : NULL;
        while (q && (*q == ',' || *q == ' '))
            q++;
        width = q && *q >= '0' && *q <= '9' ? atoi(q) : 0;
        if (q && *q == '%' && atoi(q + 1) < ops.n) {
            int64_t v;
            w->why[0] = '\0';
            expr_ref sv = walk_value(w, ops.c[atoi(q + 1)]);
            width = sv && expr_pool_const(&w->ep, sv, &v) ? (int)v : 0;
        }
    }
    w->why[0] = '\0';
    expr_ref e = walk_value(w, ops.c[n]);
    int base = -1, nb = 0;
    for (int k = 0; e && k < w->narrays && k < WALK_MAX_BASES; k++)
        if (expr_pool_uses(&w->ep, e, WALK_VAR_BASE(k))) {
            base = k;
            nb++;
        }
    if (!e || nb != 1) {
        char *m = !e ? walk_fmt("cannot be followed: %s", w->why)
                     : walk_fmt("is not an address of one shared array (__cvta_generic_to_shared of an element)");
        asm_skip(w, c, opname, m);
        free(m);
        return;
    }
    /* the address is the array's start plus bytes: the start added once, never scaled */
    expr_ref off = expr_pool_subst(&w->ep, e, WALK_VAR_BASE(base), expr_pool_num(&w->ep, 0));
    const warray *arr = &w->arrays[base];
    if (!base_plus(&w->ep, e - 1, WALK_VAR_BASE(base), 0) || arr->elem_size <= 0) {
        asm_skip(w, c, opname, "is not the start of a shared array plus an offset");
        return;
    }
    off = expr_pool_binary(&w->ep, EXPR_ADD, off, expr_pool_num(&w->ep, imm));
    expr_ref flat = expr_pool_binary(&w->ep, EXPR_DIV, off, expr_pool_num(&w->ep, arr->elem_size));
    waccess a;
    memset(&a, 0, sizeof a);
    a.array = base;
    a.nidx = arr->ndims;
    for (int d = arr->ndims - 1; d >= 0; d--) { /* the flat element back to the array's indexes */
        a.idx[d] = d ? expr_pool_binary(&w->ep, EXPR_MOD, flat, expr_pool_num(&w->ep, arr->dims[d])) : flat;
        if (d)
            flat = expr_pool_binary(&w->ep, EXPR_DIV, flat, expr_pool_num(&w->ep, arr->dims[d]));
    }
    if (op == BANKS_LDMATRIX || op == BANKS_STMATRIX) {
        a.matrices = strstr(mn, ".x1") ? 1 : strstr(mn, ".x2") ? 2 : 4;
        a.trans = strstr(mn, ".trans") != NULL;
    } else {
        static const char *const names[] = {NULL, "char", "short", NULL, "float", NULL, NULL, NULL,    "float2",
                                            NULL, NULL,   NULL,    NULL, NULL,    NULL, NULL, "float4"};
        if (width <= 0 || width > 16 || !names[width] || width % arr->elem_size != 0 || arr->is_struct) {
            asm_skip(w, c, opname, "has a width bankscope does not take (1, 2, 4, 8 or 16 bytes of whole elements)");
            return;
        }
        a.vector = width == arr->elem_size ? NULL : (char *)names[width];
    }
    emit(w, c, op, &a, NULL);
}

/* Inline PTX (asm volatile("ldmatrix... [%4];" : ... : "r"(addr))): its operands are walked as
 * the expressions they are, and each instruction that reads or writes shared memory is the
 * access at its address operand. */
static void walk_asm(W *w, CXCursor c)
{
    walk_kids ks = walk_children(c);
    for (int i = 0; i < ks.n; i++) {
        walk_expr(w, ks.c[i]);
        pbind p;
        w->why[0] = '\0';
        if (walk_pointer(w, ks.c[i], &p) != 0) { /* a generic pointer into shared memory */
            char *arr = shared_name(w, ks.c[i]);
            int line, col;
            walk_where(c, &line, &col, NULL);
            walk_add_skip(w, line, col,
                          walk_fmt("%s:%d:%d: skipped use of '%s': a pointer into it is handed to inline PTX, which "
                                   "bankscope reads only on addresses from __cvta_generic_to_shared",
                                   walk_file_of(w, c), line, col, arr));
            free(arr);
        }
    }
    char *text = asm_text(w, c);
    for (char *p = text, *q; p && *p; p = q) {
        q = p + strcspn(p, ";\n");
        char end = *q;
        *q = '\0';
        while (*p == ' ' || *p == '{' || *p == '}')
            p++;
        if (*p && *p != '.' && strncmp(p, "//", 2))
            asm_insn(w, c, ks, p);
        q = end ? q + 1 : q;
    }
    free(text);
}

static void walk_stmt(W *w, CXCursor c)
{
    if (walk_over_budget(w, c))
        return;
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isExpression(k)) {
        CXCursor saved = w->stmt_expr;
        w->stmt_expr = c;
        walk_expr(w, c);
        w->stmt_expr = saved;
        w->depth--;
        return;
    }
    switch (k) {
    case CXCursor_CompoundStmt: {
        stmt_list l = {NULL, 0, 0};
        clang_visitChildren(c, list_visit, &l);
        expr_ref g0 = w->guard;
        const char *gw0 = w->guard_why;
        for (int i = 0; i < l.n; i++)
            walk_stmt(w, l.c[i]);
        w->guard = g0;
        w->guard_why = gw0;
        free(l.c);
        break;
    }
    case CXCursor_DeclStmt: {
        walk_kids ks = walk_children(c);
        for (int i = 0; i < ks.n; i++) {
            walk_kids vk = walk_children(ks.c[i]);
            bool init = clang_getCursorKind(ks.c[i]) == CXCursor_VarDecl && vk.n &&
                        clang_isExpression(clang_getCursorKind(vk.c[vk.n - 1]));
            if (clang_getCursorKind(ks.c[i]) != CXCursor_VarDecl || walk_has_attr(ks.c[i], CXCursor_CUDASharedAttr))
                continue;
            if (init)
                walk_expr(w, vk.c[vk.n - 1]);
            var_declare(w, ks.c[i], init ? vk.c[vk.n - 1] : clang_getNullCursor());
        }
        break;
    }
    case CXCursor_IfStmt: {
        walk_kids ks = walk_children(c);
        int ci = 0;
        while (ci < ks.n && !clang_isExpression(clang_getCursorKind(ks.c[ci])))
            ci++;
        if (ci >= ks.n)
            break;
        walk_expr(w, ks.c[ci]);
        if (walk_if_uniform(w, c, ks.c[ci], ci + 1 < ks.n ? ks.c[ci + 1] : clang_getNullCursor(),
                            ci + 2 < ks.n ? ks.c[ci + 2] : clang_getNullCursor()))
            break;
        expr_ref s;
        const char *sw;
        if (ci + 1 < ks.n) {
            push_guard(w, ks.c[ci], false, &s, &sw);
            walk_stmt(w, ks.c[ci + 1]);
            w->guard = s;
            w->guard_why = sw;
        }
        if (ci + 2 < ks.n) {
            push_guard(w, ks.c[ci], true, &s, &sw);
            walk_stmt(w, ks.c[ci + 2]);
            w->guard = s;
            w->guard_why = sw;
        }
        break;
    }
    case CXCursor_BreakStmt:
        /* in a counted loop, only a break the loop was cut for (its last iteration): the rest
         * of that iteration runs where the break's condition does not hold */
        if (w->break_ok)
            note_exit(w, c, false);
        break;
    case CXCursor_ReturnStmt:
    case CXCursor_ContinueStmt: {
        walk_kids ks = walk_children(c);
        for (int i = 0; i < ks.n; i++)
            walk_stmt(w, ks.c[i]);
        note_exit(w, c, k == CXCursor_ReturnStmt && !return_ends_loop(w, ks.n));
        break;
    }
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt: walk_loop(w, c); break;
    case CXCursor_GCCAsmStmt: walk_asm(w, c); break;
    case CXCursor_SwitchStmt: {
        const char *gsaved = w->guard_why;
        int line, col;
        walk_where(c, &line, &col, NULL);
        if (!gsaved) {
            char *m = walk_fmt("inside the switch at %d:%d, which bankscope cannot follow", line, col);
            w->guard_why = walk_strdup(w, m);
            free(m);
        }
        walk_kids ks = walk_children(c);
        int nb0 = w->nbinds;
        bool bo0 = w->break_ok;
        w->break_ok = false;
        for (int i = 0; i < ks.n; i++)
            walk_stmt(w, ks.c[i]);
        w->nbinds = nb0;
        w->break_ok = bo0;
        w->guard_why = gsaved;
        break;
    }
    default: {
        walk_kids ks = walk_children(c);
        for (int i = 0; i < ks.n; i++)
            walk_stmt(w, ks.c[i]);
        break;
    }
    }
    w->depth--;
}

/* Register the shared arrays declared in the kernel, in declaration order. */
static enum CXChildVisitResult shared_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_VarDecl && walk_has_attr(c, CXCursor_CUDASharedAttr))
        walk_array_add(d, c);
    return CXChildVisit_Recurse;
}

/* ---------- the scenario ---------- */

static int skip_cmp(const void *a, const void *b)
{
    const wskip *x = a, *y = b;
    return x->line != y->line ? x->line - y->line : x->col - y->col;
}

/* Once per name: the listed accesses whose reason is a value the file does not give ("give -D
 * NAME=VALUE"), counted, so that the -D that would settle most of them is said once. Called
 * before the skip texts are freed. */
static void settle_notes(W *w, const char *file)
{
    enum { MAX_NAMES = 16 };
    char names[MAX_NAMES][64];
    int counts[MAX_NAMES], n = 0;
    for (int i = 0; i < w->nskips; i++) {
        const char *t = w->skips[i].text, *g = strstr(t, "(give -D ");
        if (!strstr(t, ": skipped ") || !g)
            continue;
        g += strlen("(give -D ");
        size_t len = strcspn(g, "=) ");
        if (!len || len >= sizeof names[0] || (strncmp(g + len, "=VALUE)", 7) != 0 && strncmp(g + len, "=N)", 3) != 0))
            continue; /* a parameter's value, or the grid's size (gridDim.x=N) */
        int k = 0;
        while (k < n && (strncmp(names[k], g, len) || names[k][len]))
            k++;
        if (k == n) {
            if (n == MAX_NAMES)
                continue;
            snprintf(names[n], sizeof names[n], "%.*s", (int)len, g);
            counts[n++] = 0;
        }
        counts[k]++;
    }
    for (int k = 0; k < n; k++)
        fprintf(stderr,
                "%s: note: %d listed access%s wait%s on '%s', which the file does not give: give -D %s=VALUE (the "
                "value of a real launch)\n",
                file, counts[k], counts[k] == 1 ? "" : "es", counts[k] == 1 ? "s" : "", names[k], names[k]);
}

static bool walk_kernel(CXTranslationUnit tu, CXCursor kernel, const import_options *o, const char *broken,
                        scenario *out, int *status, import_result *res);

/* In a kernel that does not parse, the parser drops what it cannot make sense of, accesses
 * included: every use of a shared array's name in the kernel's text that is neither its
 * declaration nor on a line the walk listed for it is listed too, so none is lost silently. */
static void list_unparsed_uses(W *w, CXCursor kernel, const char *broken)
{
    CXToken *toks = NULL;
    unsigned nt = 0;
    /* the body's text: the kernel's own extent starts in a macro (__global__) of another file */
    walk_kids kk = walk_children(kernel);
    if (!kk.n)
        return;
    int nskips0 = w->nskips; /* what the walk listed (each use found here is listed on its own) */
    clang_tokenize(w->tu, clang_getCursorExtent(kk.c[kk.n - 1]), &toks, &nt);
    for (unsigned t = 0; t < nt; t++) {
        if (clang_getTokenKind(toks[t]) != CXToken_Identifier)
            continue;
        CXString sp = clang_getTokenSpelling(w->tu, toks[t]);
        const char *name = clang_getCString(sp);
        for (int a = 0; a < w->narrays && name; a++) {
            char *decl_name = walk_spell(w->arrays[a].decl);
            bool same = strcmp(decl_name, name) == 0;
            free(decl_name);
            if (!same)
                continue;
            unsigned line = 0, col = 0;
            clang_getExpansionLocation(clang_getTokenLocation(w->tu, toks[t]), NULL, &line, &col, NULL);
            int dl, dc;
            walk_where(w->arrays[a].decl, &dl, &dc, NULL);
            bool listed = (int)line == dl;
            /* an argument of a call whose callee was walked: its accesses through it are listed
             * at the callee's lines */
            for (int i = 0; i < w->ncall_lines && !listed; i++)
                listed = w->call_lines[i] == (int)line;
            char *of = walk_fmt(" of '%s", w->arrays[a].name);
            for (int i = 0; i < nskips0 && !listed; i++)
                listed = w->skips[i].line == (int)line && strstr(w->skips[i].text, of);
            free(of);
            if (!listed)
                walk_add_skip(w, (int)line, (int)col,
                              walk_fmt("%s:%u:%u: skipped use of '%s': not imported: in code that does not parse (%s)",
                                       w->file_base, line, col, w->arrays[a].name, broken));
        }
        clang_disposeString(sp);
    }
    if (toks)
        clang_disposeTokens(w->tu, toks, nt);
}

bool import_walk(CXTranslationUnit tu, CXCursor kernel, const import_options *o, scenario *out, int *status,
                 import_result *res)
{
    return walk_kernel(tu, kernel, o, NULL, out, status, res);
}

void import_walk_broken(CXTranslationUnit tu, CXCursor kernel, const import_options *o, const char *broken,
                        import_result *res)
{
    scenario sc;
    int status;
    walk_kernel(tu, kernel, o, broken, &sc, &status, res);
}

/* The walk; with broken set, the accesses that would be imported are listed with that reason. */
static bool walk_kernel(CXTranslationUnit tu, CXCursor kernel, const import_options *o, const char *broken,
                        scenario *out, int *status, import_result *res)
{
    W w;
    memset(&w, 0, sizeof w);
    w.tu = tu;
    import_options ob = *o; /* the block may come from a launch */
    w.o = o = &ob;
    w.kernel = kernel;
    w.stmt_expr = clang_getNullCursor();
    w.top_call = clang_getNullCursor();
    w.last_stmt = clang_getNullCursor();
    w.file_base = base_name(o->file);
    scenario_init(out);
    walk_launch_scan(&w);
    if (!ob.block[0] && !walk_launch_block(&w, ob.block)) {
        fprintf(stderr, "bankscope: import: give the block shape with --block X[,Y[,Z]] (the source does not say "
                        "it)\n");
        *status = IMPORT_BAD_INPUT;
        walk_pool_free(&w);
        walk_children_release();
        walk_mod_cache_free();
        return false;
    }
    clang_visitChildren(kernel, shared_visit, &w);
    walk_kids ks = walk_children(kernel);
    char *kname = walk_spell(kernel);
    if (ks.n && clang_getCursorKind(ks.c[ks.n - 1]) == CXCursor_CompoundStmt) {
        walk_kids bk = walk_children(ks.c[ks.n - 1]);
        w.last_stmt = bk.n ? bk.c[bk.n - 1] : clang_getNullCursor();
        walk_stmt(&w, ks.c[ks.n - 1]);
    }
    bool no_access = false;
    char *refused = NULL;
    if (broken && !w.over) { /* a kernel that does not parse: its accesses are listed, not imported */
        for (int i = 0; i < w.nacc; i++) {
            const waccess *a = &w.acc[i];
            walk_add_skip(&w, a->line, a->col,
                          walk_fmt("%s: skipped %s of '%s%s%s': not imported: the kernel does not parse (%s)", a->label,
                                   op_name(a->op), w.arrays[a->array].name, a->field ? "." : "",
                                   a->field ? a->field : "", broken));
        }
        list_unparsed_uses(&w, kernel, broken);
    }
    bool ok = !w.over && !broken && walk_build(&w, kname, out, &no_access, &refused);
    if (w.over) {
        fprintf(stderr, "%s\n", w.over);
        free(w.over);
        for (int i = 0; i < w.nskips; i++)
            free(w.skips[i].text);
        w.nskips = 0;
    }
    *status = ok ? IMPORT_OK : IMPORT_BAD_INPUT;
    if (w.nskips > 1)
        qsort(w.skips, (size_t)w.nskips, sizeof *w.skips, skip_cmp);
    for (int i = 0; i < w.nskips; i++) {
        fprintf(stderr, "%s\n", w.skips[i].text);
        import_result_add(res, w.skips[i].line, w.skips[i].col, w.skips[i].text);
    }
    settle_notes(&w, o->file);
    for (int i = 0; i < w.nskips; i++)
        free(w.skips[i].text);
    if (refused)
        fprintf(stderr, "%s\n", refused);
    else if (no_access)
        fprintf(stderr, "%s: no shared-memory access of kernel '%s' could be imported\n", o->file, kname);
    free(refused);
    free(w.skips);
    free(w.call_lines);
    for (int i = 0; i < w.nacc; i++) {
        free(w.acc[i].field);
        free(w.acc[i].vector);
        free(w.acc[i].atomic);
        free(w.acc[i].label);
        free(w.acc[i].source);
        free(w.acc[i].text);
        free(w.acc[i].file);
    }
    free(w.acc);
    for (int i = 0; i < w.narrays; i++) {
        free(w.arrays[i].name);
        free(w.arrays[i].type);
    }
    free(w.arrays);
    for (int i = 0; i < w.nloops; i++)
        free(w.loops[i].user);
    free(w.binds);
    free(w.src_path);
    free(w.src_text);
    free(kname);
    walk_pool_free(&w);
    walk_children_release();
    walk_mod_cache_free();
    return ok;
}
