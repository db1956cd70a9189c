/* walk_value: C++ expressions -> the model's expressions (expr_pool): constants, #defines, constexpr and set-once
 * locals, template parameters, threadIdx/blockDim, -D values, calls to one-line __device__ functions; pointers into
 * shared arrays (rows, offsets, reinterpretation as wider types) and the elements they reach. What cannot be expressed
 * sets w->why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"
#include "model/types.h"

/* ---------- values ---------- */

static int frame_find(W *w, CXCursor decl)
{
    for (int i = w->nbinds - 1; i >= 0; i--)
        if (clang_equalCursors(w->binds[i].decl, decl))
            return i;
    return -1;
}

typedef struct mod_ctx {
    CXCursor var;
    int count;
    CXCursor first;
} mod_ctx;

bool walk_refers_to(CXCursor e, CXCursor var)
{
    e = walk_strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), var);
}

typedef struct first_kids { /* the first children of a node, without keeping a list */
    CXCursor c[2];
    int n;
} first_kids;

static enum CXChildVisitResult first_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    first_kids *k = d;
    if (k->n < 2)
        k->c[k->n] = c;
    k->n++;
    return k->n > 2 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Count the writes to (and address-of) var in a function body. Called for every node of a
 * function, so it keeps nothing (the children lists of walk_children live until the walk ends). */
static enum CXChildVisitResult mod_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    mod_ctx *m = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    bool hit = false;
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator || k == CXCursor_UnaryOperator) {
        first_kids ks = {.n = 0};
        clang_visitChildren(c, first_visit, &ks);
        const char *op = k == CXCursor_UnaryOperator ? import_unary_op(c) : import_binary_op(c);
        if (k != CXCursor_UnaryOperator)
            hit = op && strchr(op, '=') && strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") &&
                  strcmp(op, ">=") && ks.n == 2 && walk_refers_to(ks.c[0], m->var);
        else
            hit = op && (!strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&")) && ks.n == 1 &&
                  walk_refers_to(ks.c[0], m->var);
    }
    if (hit) {
        if (m->count++ == 0)
            m->first = c;
    }
    return CXChildVisit_Recurse;
}

/* The counts found so far, by scope and variable: the syntax tree does not change during a walk,
 * and an access asks again for every variable its index names, so a function is scanned once per
 * variable, not once per access (open addressing; freed by walk_mod_cache_free). */
typedef struct mod_entry {
    CXCursor scope, var, first;
    int count;
    bool used;
} mod_entry;

static struct {
    mod_entry *e;
    size_t cap, n;
} mod_cache;

static size_t mod_slot(CXCursor scope, CXCursor var)
{
    size_t h = (size_t)clang_hashCursor(scope) * 31u + clang_hashCursor(var);
    size_t i = h & (mod_cache.cap - 1);
    while (mod_cache.e[i].used &&
           !(clang_equalCursors(mod_cache.e[i].scope, scope) && clang_equalCursors(mod_cache.e[i].var, var)))
        i = (i + 1) & (mod_cache.cap - 1);
    return i;
}

static int mod_count(CXCursor scope, CXCursor var, CXCursor *first)
{
    if (mod_cache.n * 2 >= mod_cache.cap) { /* grow (and rehash) at half full */
        mod_entry *old = mod_cache.e;
        size_t oldcap = mod_cache.cap;
        mod_cache.cap = oldcap ? 2 * oldcap : 256;
        mod_cache.e = xcalloc(mod_cache.cap, sizeof *mod_cache.e);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].used)
                mod_cache.e[mod_slot(old[i].scope, old[i].var)] = old[i];
        free(old);
    }
    size_t i = mod_slot(scope, var);
    if (!mod_cache.e[i].used) {
        mod_ctx m = {var, 0, clang_getNullCursor()};
        clang_visitChildren(scope, mod_visit, &m);
        mod_cache.e[i] = (mod_entry){.scope = scope, .var = var, .first = m.first, .count = m.count, .used = true};
        mod_cache.n++;
    }
    if (first)
        *first = mod_cache.e[i].first;
    return mod_cache.e[i].count;
}

void walk_mod_cache_free(void)
{
    free(mod_cache.e);
    memset(&mod_cache, 0, sizeof mod_cache);
}

/* How often var is written in the function that declares it. */
int walk_mod_count_in(CXCursor scope, CXCursor var)
{
    return mod_count(scope, var, NULL);
}

int walk_mod_count(CXCursor var, CXCursor *first)
{
    return mod_count(clang_getCursorSemanticParent(var), var, first);
}

static expr_ref var_init(W *w, CXCursor decl)
{
    walk_kids k = walk_children(decl);
    for (int i = k.n - 1; i >= 0; i--)
        if (clang_isExpression(clang_getCursorKind(k.c[i])))
            return walk_value(w, k.c[i]);
    return 0;
}

static expr_ref decl_ref(W *w, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    char *name = walk_spell(d);
    expr_ref r = 0;
    int bi = frame_find(w, d);
    const char *dv = walk_define(w, name);
    int64_t v;
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (bi >= 0) {
        binding *b = &w->binds[bi];
        r = b->ref_shared                                 ? walk_fail(w, c,
                                                                      "depends on data: reads shared memory through the reference '%s' (bankscope "
                                                                                                      "record captures it)",
                                                                      name)
            : b->is_ptr                                   ? walk_fail(w, c, "'%s' is a pointer, not a number", name)
            : b->val                                      ? b->val
            : strncmp(b->why, "depends on data", 15) == 0 ? walk_fail(w, c, "%s", b->why)
                                                          : walk_fail(w, c, "'%s' is %s", name, b->why);
    } else if (dv) {
        r = walk_parse_i64(dv, &v) ? expr_pool_num(&w->ep, v)
                                   : walk_fail(w, c, "-D %s=%s is not a whole number", name, dv);
    } else if (dk == CXCursor_EnumConstantDecl) {
        r = expr_pool_num(&w->ep, clang_getEnumConstantDeclValue(d));
    } else if (dk == CXCursor_NonTypeTemplateParameter) {
        /* the value at the kernel's launches, else the default */
        r = walk_launch_value(w, d, c, name);
        walk_kids k = walk_children(d);
        for (int i = 0; i < k.n && !r && !w->why[0]; i++)
            if (clang_isExpression(clang_getCursorKind(k.c[i])))
                r = walk_value(w, k.c[i]);
        if (!r)
            r = walk_fail(w, c, "template parameter '%s' has no default: give -D %s=VALUE", name, name);
    } else if (dk == CXCursor_ParmDecl) {
        r = walk_fail(w, c, "depends on the kernel parameter '%s' (give -D %s=VALUE)", name, name);
    } else if (dk == CXCursor_VarDecl && !strcmp(name, "warpSize") &&
               clang_Location_isInSystemHeader(clang_getCursorLocation(d))) {
        /* CUDA's built-in warpSize: 32 on every NVIDIA GPU so far, as the model's expressions
         * read it (src/model/expr.c) */
        r = expr_pool_num(&w->ep, 32);
    } else if (dk == CXCursor_VarDecl) {
        CXType t = clang_getCursorType(d);
        bool local = clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit &&
                     clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_Namespace;
        CXCursor first;
        if (walk_has_attr(d, CXCursor_CUDASharedAttr))
            r = walk_fail(w, c, "depends on data: reads the shared variable '%s' (bankscope record captures it)", name);
        else if (!local && !clang_isConstQualifiedType(t))
            r = walk_fail(w, c, "reads the global variable '%s' (give -D %s=VALUE)", name, name);
        else if (walk_mod_count(d, &first) > 0) {
            int l, cl;
            walk_where(first, &l, &cl, NULL);
            r = walk_fail(w, c, "'%s' changes at %d:%d, so its value here is not known", name, l, cl);
        } else {
            r = var_init(w, d);
            if (!r)
                walk_fail(w, c, "the value of '%s' is not known", name);
        }
    } else {
        /* a template parameter in an instantiation (reduce_block<false>): clang knows its value */
        CXEvalResult ev = import_value_dependent(c) ? NULL : clang_Cursor_Evaluate(c);
        if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
            r = expr_pool_num(&w->ep, clang_EvalResult_getAsLongLong(ev));
        if (ev)
            clang_EvalResult_dispose(ev);
        if (!r)
            r = walk_fail(w, c, "unknown value '%s'", name);
    }
    free(name);
    return r;
}

/* c without the copy (or converting) constructions around it: the object it is made from. */
static CXCursor strip_copy(CXCursor c)
{
    c = walk_strip(c);
    for (int depth = 0;
         depth < 16 && clang_getCursorKind(c) == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) == 1 &&
         clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_Constructor;
         depth++)
        c = walk_strip(clang_Cursor_getArgument(c, 0));
    return c;
}

/* Whether the object a member is read from is memory: through a pointer (p->x), an element of an
 * array (a[i].x), or a local variable set once from one of those (T v = a[i]; v.x). */
static bool member_reads_memory(W *w, CXCursor base)
{
    if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
        return true; /* p->x */
    enum CXCursorKind k = clang_getCursorKind(base);
    if (k == CXCursor_ArraySubscriptExpr)
        return true;
    if (k == CXCursor_UnaryOperator && import_unary_op(base) && !strcmp(import_unary_op(base), "*"))
        return true;
    if (k != CXCursor_DeclRefExpr)
        return false;
    CXCursor d = clang_getCursorReferenced(base);
    enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
    if (clang_getCursorKind(d) != CXCursor_VarDecl || pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace ||
        walk_mod_count(d, NULL) > 0 || w->depth > MAX_DEPTH)
        return false;
    walk_kids dk = walk_children(d);
    if (dk.n == 0 || !clang_isExpression(clang_getCursorKind(dk.c[dk.n - 1])))
        return false;
    CXCursor init = walk_strip(dk.c[dk.n - 1]);
    init = strip_copy(init); /* T v = a[i] */
    w->depth++;
    bool r = member_reads_memory(w, init);
    w->depth--;
    return r;
}

typedef struct mem_find {
    W *w;
    int depth;
    long *budget; /* nodes left to look at: past it, the answer is no */
    bool found;
} mem_find;

static bool reads_memory_at(W *w, CXCursor c, int depth, long *budget);

typedef struct set_find {
    W *w;
    CXCursor var;
    int depth;
    long *budget;
    bool found;
} set_find;

/* An assignment to the variable whose value reads memory. */
static enum CXChildVisitResult set_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    set_find *f = d;
    if (--*f->budget < 0)
        return CXChildVisit_Break;
    const char *op = import_binary_op(c);
    walk_kids k =
        op && op[strlen(op) - 1] == '=' && strcmp(op, "==") && strcmp(op, "<=") && strcmp(op, ">=") && strcmp(op, "!=")
            ? walk_children(c)
            : (walk_kids){NULL, 0};
    if (k.n == 2 && clang_getCursorKind(walk_strip(k.c[0])) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(walk_strip(k.c[0])), f->var) &&
        reads_memory_at(f->w, k.c[1], f->depth + 1, f->budget))
        f->found = true;
    return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static enum CXChildVisitResult mem_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    mem_find *f = d;
    if (--*f->budget < 0)
        return CXChildVisit_Break;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ArraySubscriptExpr || (k == CXCursor_DeclRefExpr && member_reads_memory(f->w, c)) ||
        (k == CXCursor_UnaryOperator && import_unary_op(c) && !strcmp(import_unary_op(c), "*")))
        f->found = true;
    else if (k == CXCursor_DeclRefExpr && f->depth < 6) {
        /* a local variable of the function whose value (its initialiser or an assignment) reads
         * memory, followed a few steps (srad's c = 1.0 / (1.0 + den), den from qsqr, ...) */
        CXCursor v = clang_getCursorReferenced(c);
        CXCursor fn = clang_getCursorSemanticParent(v);
        enum CXCursorKind fk = clang_getCursorKind(fn);
        if (clang_getCursorKind(v) == CXCursor_VarDecl &&
            (fk == CXCursor_FunctionDecl || fk == CXCursor_FunctionTemplate)) {
            walk_kids vk = walk_children(v);
            if (vk.n && clang_isExpression(clang_getCursorKind(vk.c[vk.n - 1])) &&
                reads_memory_at(f->w, vk.c[vk.n - 1], f->depth + 1, f->budget))
                f->found = true;
            set_find sf = {f->w, v, f->depth, f->budget, false};
            if (!f->found && walk_mod_count(v, NULL) > 0)
                clang_visitChildren(fn, set_visit, &sf);
            f->found |= sf.found;
        }
    }
    return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

static bool reads_memory_at(W *w, CXCursor c, int depth, long *budget)
{
    mem_find f = {w, depth, budget, false};
    mem_visit(c, clang_getNullCursor(), &f);
    if (!f.found)
        clang_visitChildren(c, mem_visit, &f);
    return f.found;
}

/* Whether expression c reads memory: an element of an array, through a pointer, or a local
 * variable whose value comes from one of those. */
static bool reads_memory(W *w, CXCursor c)
{
    long budget = 200000;
    return reads_memory_at(w, c, 0, &budget);
}

static bool group_shape(W *w, CXCursor obj, bool *block, int64_t *tile);
static CXCursor call_object(CXCursor call);

/* The built-in a cooperative-groups thread block's dim3 method stands for (CUDA Programming
 * Guide, "Cooperative Groups": thread_index() is threadIdx, group_index() blockIdx,
 * group_dim() and dim_threads() blockDim), or NULL. */
static const char *block_dim3(W *w, CXCursor call)
{
    CXCursor fn = clang_getCursorReferenced(call);
    if (clang_getCursorKind(fn) != CXCursor_CXXMethod)
        return NULL;
    char *name = walk_spell(fn);
    const char *r = !strcmp(name, "thread_index")                                ? "threadIdx"
                    : !strcmp(name, "group_index")                               ? "blockIdx"
                    : !strcmp(name, "group_dim") || !strcmp(name, "dim_threads") ? "blockDim"
                                                                                 : NULL;
    free(name);
    bool block;
    int64_t tile;
    if (r && !(group_shape(w, call_object(call), &block, &tile) && block))
        r = NULL;
    return r;
}

static expr_ref member_ref(W *w, CXCursor c)
{
    walk_kids k = walk_children(c);
    char *m = walk_spell(c);
    expr_ref r = 0;
    CXCursor base = k.n ? walk_strip(k.c[0]) : c;
    char *bn = k.n && clang_getCursorKind(base) == CXCursor_DeclRefExpr ? walk_spell(base) : xstrdup("");
    bool builtin = k.n && clang_getCursorKind(base) == CXCursor_DeclRefExpr &&
                   clang_Location_isInSystemHeader(clang_getCursorLocation(clang_getCursorReferenced(base)));
    const char *dim = k.n && clang_getCursorKind(base) == CXCursor_CallExpr ? block_dim3(w, base) : NULL;
    if (dim) { /* block.thread_index().x is threadIdx.x */
        free(bn);
        bn = xstrdup(dim);
        builtin = true;
    }
    char full[96];
    snprintf(full, sizeof full, "%s.%s", bn, m);
    const char *dv = walk_define(w, full);
    int64_t v;
    if (builtin && (!strcmp(bn, "threadIdx") || !strcmp(bn, "blockDim")) && strlen(m) == 1 && strchr("xyz", m[0]))
        r = dv ? walk_fail(w, c, "%s cannot be given with -D", full)
               : expr_pool_var(&w->ep, (bn[0] == 't' ? EXPR_TX : EXPR_BDX) + (m[0] - 'x'));
    else if (builtin && !strcmp(bn, "blockIdx") && !dv && strlen(m) == 1 && strchr("xyz", m[0])) {
        /* the analysis covers one block: block 0 unless -D says another */
        int d = m[0] - 'x';
        if (!w->block_noted[d]) {
            w->block_noted[d] = true;
            walk_add_skip(w, 0, d,
                          walk_fmt("%s: note: blockIdx.%c is taken as 0: the analysis covers one block (give -D "
                                   "blockIdx.%c=N for another)",
                                   w->file_base, m[0], m[0]));
        }
        r = expr_pool_num(&w->ep, 0);
    } else if (builtin && (!strcmp(bn, "blockIdx") || !strcmp(bn, "gridDim")))
        r = dv && walk_parse_i64(dv, &v)
                ? expr_pool_num(&w->ep, v)
                : walk_fail(w, c, "%s: the analysis covers one block; the grid's size is not known (give -D %s=N)",
                            full, full);
    else if (k.n && member_reads_memory(w, base))
        r = walk_fail(w, c, "depends on data: reads memory (bankscope record captures it)");
    else
        r = walk_fail(w, c, "reads the member '%s' of a value that is not known", m);
    free(m);
    free(bn);
    return r;
}

/* The callee reference of a call: its first child without implicit conversions. */
static CXCursor callee_ref(CXCursor call)
{
    walk_kids k = walk_children(call);
    return k.n ? walk_strip(k.c[0]) : clang_getNullCursor();
}

const char *walk_callee_name(CXCursor call, char *buf, size_t n)
{
    CXCursor fn = walk_callee(call);
    char *s = walk_spell(clang_Cursor_isNull(fn) ? call : fn);
    snprintf(buf, n, "%s", s);
    free(s);
    return buf;
}

/* The first function an OverloadedDeclRef below names (not inside the call's arguments). */
static enum CXChildVisitResult overload_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *r = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_OverloadedDeclRef && clang_getNumOverloadedDecls(c) >= 1) {
        *r = clang_getOverloadedDecl(c, 0);
        return CXChildVisit_Break;
    }
    return k == CXCursor_CallExpr ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

CXCursor walk_callee(CXCursor call)
{
    CXCursor r = clang_getCursorReferenced(call);
    enum CXCursorKind k = clang_getCursorKind(r);
    if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) {
        /* a call that depends on a template parameter (util::pick<D>(...)): the template it names */
        r = clang_getNullCursor();
        CXCursor ref = callee_ref(call);
        clang_visitChildren(ref, overload_visit, &r);
        if (clang_Cursor_isNull(r) && clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef &&
            clang_getNumOverloadedDecls(ref) >= 1)
            r = clang_getOverloadedDecl(ref, 0);
    }
    if (clang_Cursor_isNull(r))
        return r;
    CXCursor d = clang_getCursorDefinition(r);
    if (clang_Cursor_isNull(d)) {
        /* a specialization named in a template that is never instantiated (ld<4>(...) in a kernel
         * template): its body is the template's */
        CXCursor t = clang_getSpecializedCursorTemplate(r);
        CXCursor td = clang_Cursor_isNull(t) ? t : clang_getCursorDefinition(t);
        if (!clang_Cursor_isNull(td))
            return td;
    }
    return clang_Cursor_isNull(d) ? r : d;
}

/* The text of the k-th explicit template argument of the call (Name<float, 128>(...)): into buf,
 * false when it has none. */
static bool template_arg_text(W *w, CXCursor ref, int k, char *buf, size_t n)
{
    CXToken *t = NULL;
    unsigned nt = 0;
    clang_tokenize(w->tu, clang_getCursorExtent(ref), &t, &nt);
    int depth = 0, arg = 0;
    size_t len = 0;
    bool found = false;
    buf[0] = '\0';
    for (unsigned i = 0; i < nt && !found; i++) {
        CXString sp = clang_getTokenSpelling(w->tu, t[i]);
        const char *x = clang_getCString(sp);
        if (!strcmp(x, "<") && depth++ == 0) {
            clang_disposeString(sp);
            continue;
        }
        if (depth == 1 && (!strcmp(x, ",") || !strcmp(x, ">"))) {
            found = arg == k && len > 0;
            arg++;
            len = found ? len : 0;
            buf[len] = '\0';
        } else if (depth >= 1 && arg == k && len + strlen(x) + 2 < n)
            len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "", x);
        bool closed = false;
        if (!strcmp(x, ">")) /* a '<' inside an argument was counted above */
            closed = --depth == 0;
        clang_disposeString(sp);
        if (closed) /* the list ends: what follows is the call's arguments */
            break;
    }
    clang_disposeTokens(w->tu, t, nt);
    return found;
}

/* Bind the callee's type template parameters (template <typename T> ... T s[..] in a helper) to
 * the type of the call: its explicit template argument (f<float>(...)), or the type of the
 * argument of a parameter declared T, T &, const T & or T * (deduced), when bankscope knows it. */
static void bind_template_types(W *w, CXCursor call, CXCursor fn)
{
    walk_kids fk = walk_children(fn);
    CXCursor ref = callee_ref(call);
    int pos = 0;
    for (int j = 0; j < fk.n; j++) {
        enum CXCursorKind kk = clang_getCursorKind(fk.c[j]);
        if (kk != CXCursor_TemplateTypeParameter && kk != CXCursor_NonTypeTemplateParameter &&
            kk != CXCursor_TemplateTemplateParameter)
            continue;
        int k = pos++;
        if (kk != CXCursor_TemplateTypeParameter)
            continue;
        char *pname = walk_spell(fk.c[j]);
        char text[64], buf[64];
        const char *tn = NULL;
        int64_t sz;
        if (template_arg_text(w, ref, k, text, sizeof text)) {
            types_builtin b;
            const char *dv = walk_define(w, text);
            if (types_builtin_find(text, &b))
                tn = b.name;
            else if (dv && types_builtin_find(dv, &b))
                tn = b.name;
            else {
                for (int i = w->nbinds - 1; i >= 0 && !tn; i--) /* an outer function's parameter */
                    if (w->binds[i].tname) {
                        char *o = walk_spell(w->binds[i].decl);
                        if (!strcmp(o, text))
                            tn = w->binds[i].tname;
                        free(o);
                    }
                if (!tn && (dv = walk_launch_type(w, text)) && types_builtin_find(dv, &b))
                    tn = b.name;
            }
        } else { /* deduced from an argument whose parameter is declared with it */
            int na = clang_Cursor_getNumArguments(call);
            walk_kids pk = fk;
            int pi = 0;
            for (int i = 0; i < pk.n && !tn; i++) {
                if (clang_getCursorKind(pk.c[i]) != CXCursor_ParmDecl)
                    continue;
                int ai = pi++;
                if (ai >= na)
                    break;
                CXType pt = clang_getCursorType(pk.c[i]);
                if (pt.kind == CXType_LValueReference || pt.kind == CXType_Pointer)
                    pt = clang_getPointeeType(pt);
                char *ps = walk_type_spell(pt);
                const char *q = ps;
                while (!strncmp(q, "const ", 6) || !strncmp(q, "volatile ", 9))
                    q += q[0] == 'c' ? 6 : 9;
                if (!strcmp(q, pname)) {
                    CXType at = clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)ai));
                    if (clang_getCursorType(pk.c[i]).kind == CXType_Pointer)
                        at = clang_getPointeeType(clang_getCanonicalType(at));
                    tn = walk_type_name(w, at, buf, sizeof buf, &sz);
                }
                free(ps);
            }
        }
        free(pname);
        if (!tn)
            continue;
        binding b;
        memset(&b, 0, sizeof b);
        b.decl = fk.c[j];
        b.why = "a type";
        b.tname = walk_strdup(w, tn);
        w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
        w->binds[w->nbinds++] = b;
    }
}

/* Bind the callee's non-type template parameters to the call's explicit template arguments
 * (pick<D>(...)), in order. */
static void bind_template_args(W *w, CXCursor call, CXCursor fn)
{
    bind_template_types(w, call, fn);
    CXCursor ref = callee_ref(call);
    walk_kids rk = walk_children(ref), fk = walk_children(fn);
    int j = 0;
    for (int i = 0; i < rk.n; i++) {
        if (!clang_isExpression(clang_getCursorKind(rk.c[i])))
            continue; /* NamespaceRef, OverloadedDeclRef, TypeRef */
        while (j < fk.n && clang_getCursorKind(fk.c[j]) != CXCursor_NonTypeTemplateParameter)
            j++;
        if (j == fk.n)
            return;
        binding b;
        memset(&b, 0, sizeof b);
        b.decl = fk.c[j++];
        char saved_why[sizeof w->why];
        memcpy(saved_why, w->why, sizeof saved_why);
        w->why[0] = '\0';
        b.val = walk_value(w, rk.c[i]);
        b.why = b.val ? NULL : walk_strdup(w, w->why);
        memcpy(w->why, saved_why, sizeof saved_why);
        w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
        w->binds[w->nbinds++] = b;
    }
}

static int fn_params(CXCursor fn, CXCursor *out, int max);

bool walk_param_is_ref(CXCursor fn, int i)
{
    CXCursor p[64];
    int n = fn_params(fn, p, 64);
    return i < n && clang_getCanonicalType(clang_getCursorType(p[i])).kind == CXType_LValueReference;
}

/* The parameters of a function or function template, in order (at most max). */
static int fn_params(CXCursor fn, CXCursor *out, int max)
{
    int n = clang_Cursor_getNumArguments(fn);
    if (n >= 0) {
        for (int i = 0; i < n && i < max; i++)
            out[i] = clang_Cursor_getArgument(fn, (unsigned)i);
        return n < max ? n : max;
    }
    walk_kids k = walk_children(fn);
    n = 0;
    for (int i = 0; i < k.n && n < max; i++)
        if (clang_getCursorKind(k.c[i]) == CXCursor_ParmDecl)
            out[n++] = k.c[i];
    return n;
}

bool walk_is_device_fn(CXCursor fn)
{
    return clang_isCursorDefinition(fn) && !clang_Location_isInSystemHeader(clang_getCursorLocation(fn)) &&
           (walk_has_attr(fn, CXCursor_CUDADeviceAttr) || walk_has_attr(fn, CXCursor_CUDAGlobalAttr));
}

bool walk_bind_params(W *w, CXCursor call, CXCursor fn, int *saved);

/* The cooperative group a member call is made on (or that an expression makes): true with
 * *block, or *tile the tile's size, following parameters to their arguments, local groups to
 * what they are set from once (auto g = g3), and the run-time tiled_partition(parent, n) whose
 * n is a constant. */
static bool group_shape(W *w, CXCursor obj, bool *block, int64_t *tile)
{
    *block = false;
    *tile = 0;
    for (int depth = 0; depth < 4 * MAX_INLINE; depth++) {
        obj = strip_copy(obj);
        CXType t = clang_getCanonicalType(clang_getCursorType(obj));
        if (t.kind == CXType_Pointer)
            t = clang_getCanonicalType(clang_getPointeeType(t));
        CXString ts = clang_getTypeSpelling(t);
        const char *sp = clang_getCString(ts);
        if (sp && !strncmp(sp, "const ", 6))
            sp += 6;
        if (sp && !strncmp(sp, "cooperative_groups::", 20)) {
            const char *cls = sp + 20;
            if (!strncmp(cls, "thread_block_tile<", 18))
                *tile = strtoll(cls + 18, NULL, 10);
            else
                *block = !strcmp(cls, "thread_block");
        }
        clang_disposeString(ts);
        if (*block || *tile > 0)
            return true;
        enum CXCursorKind k = clang_getCursorKind(obj);
        if (k == CXCursor_CallExpr) {
            char name[64];
            walk_callee_name(obj, name, sizeof name);
            if (strcmp(name, "tiled_partition") || clang_Cursor_getNumArguments(obj) != 2)
                return false;
            char saved_why[sizeof w->why];
            memcpy(saved_why, w->why, sizeof saved_why);
            expr_ref n = walk_value(w, clang_Cursor_getArgument(obj, 1));
            memcpy(w->why, saved_why, sizeof saved_why);
            return n && expr_pool_const(&w->ep, n, tile) && *tile > 0;
        }
        if (k != CXCursor_DeclRefExpr)
            return false;
        CXCursor d = clang_getCursorReferenced(obj);
        int bi = frame_find(w, d);
        if (bi >= 0) {
            if (clang_Cursor_isNull(w->binds[bi].arg))
                return false;
            obj = w->binds[bi].arg;
            continue;
        }
        if (clang_getCursorKind(d) != CXCursor_VarDecl || walk_mod_count(d, NULL) > 0)
            return false;
        walk_kids dk = walk_children(d);
        CXCursor init = clang_getNullCursor();
        for (int i = 0; i < dk.n; i++)
            if (clang_isExpression(clang_getCursorKind(dk.c[i])))
                init = dk.c[i];
        if (clang_Cursor_isNull(init))
            return false;
        obj = init;
    }
    return false;
}

/* The object a member call is made on (obj.f(), p->f()). */
static CXCursor call_object(CXCursor call)
{
    walk_kids ck = walk_children(call);
    CXCursor m = ck.n ? walk_strip(ck.c[0]) : clang_getNullCursor(), obj = m;
    if (clang_getCursorKind(m) == CXCursor_MemberRefExpr) {
        walk_kids mk = walk_children(m);
        obj = mk.n ? walk_strip(mk.c[0]) : m;
    }
    return obj;
}

/* A method of a cooperative group (the CUDA toolkit's cooperative_groups, as its stand-in header
 * declares it) called on the thread block or on a tile of N threads of it: its value by the CUDA
 * Programming Guide ("Cooperative Groups": a block's size() is its thread count, thread_rank()
 * the linear thread index; a thread_block_tile<N>'s size() is N, thread_rank() the rank within
 * the tile, meta_group_rank() and meta_group_size() the tile's index and the count of tiles).
 * *known is false when the call is not such a method. */
static expr_ref group_value(W *w, CXCursor c, CXCursor fn, bool *known)
{
    *known = false;
    int64_t tile = 0;
    bool block = false;
    if (!group_shape(w, call_object(c), &block, &tile))
        return 0;
    *known = true;
    char *name = walk_spell(fn);
    expr_pool *a = &w->ep;
    expr_ref bx = expr_pool_var(a, EXPR_BDX), by = expr_pool_var(a, EXPR_BDY), bz = expr_pool_var(a, EXPR_BDZ);
    expr_ref threads = expr_pool_binary(a, EXPR_MUL, expr_pool_binary(a, EXPR_MUL, bx, by), bz);
    expr_ref rank = expr_pool_binary(
        a, EXPR_ADD,
        expr_pool_binary(a, EXPR_MUL,
                         expr_pool_binary(a, EXPR_ADD, expr_pool_binary(a, EXPR_MUL, expr_pool_var(a, EXPR_TZ), by),
                                          expr_pool_var(a, EXPR_TY)),
                         bx),
        expr_pool_var(a, EXPR_TX));
    if (w->o->block[1] <= 1 && w->o->block[2] <= 1) { /* a one-dimensional block (--block N) */
        threads = bx;
        rank = expr_pool_var(a, EXPR_TX);
    }
    expr_ref n = expr_pool_num(a, tile), r = 0;
    bool size = !strcmp(name, "size") || !strcmp(name, "num_threads");
    if (block && size)
        r = threads;
    else if (block && !strcmp(name, "thread_rank"))
        r = rank;
    else if (tile && size)
        r = n;
    else if (tile && !strcmp(name, "thread_rank"))
        r = expr_pool_binary(a, EXPR_MOD, rank, n);
    else if (tile && !strcmp(name, "meta_group_rank"))
        r = expr_pool_binary(a, EXPR_DIV, rank, n);
    else if (tile && !strcmp(name, "meta_group_size"))
        r = expr_pool_binary(a, EXPR_DIV, expr_pool_binary(a, EXPR_ADD, threads, expr_pool_num(a, tile - 1)), n);
    else
        walk_fail(w, c, "calls the cooperative-groups method '%s', whose value bankscope does not model", name);
    free(name);
    return r;
}

static expr_ref call_value(W *w, CXCursor c)
{
    char name[64];
    walk_callee_name(c, name, sizeof name);
    int nargs = clang_Cursor_getNumArguments(c);
    if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "umin") || !strcmp(name, "umax")) &&
        nargs == 2) {
        expr_ref a = walk_value(w, clang_Cursor_getArgument(c, 0)),
                 b = a ? walk_value(w, clang_Cursor_getArgument(c, 1)) : 0;
        return a && b ? expr_pool_binary(&w->ep, name[1] == 'a' || name[2] == 'a' ? EXPR_MAX : EXPR_MIN, a, b) : 0;
    }
    if ((!strcmp(name, "__mul24") || !strcmp(name, "__umul24")) && nargs == 2) {
        expr_ref a = walk_value(w, clang_Cursor_getArgument(c, 0)),
                 b = a ? walk_value(w, clang_Cursor_getArgument(c, 1)) : 0;
        return a && b ? expr_pool_binary(&w->ep, EXPR_MUL, a, b) : 0;
    }
    if (!strcmp(name, "__cvta_generic_to_shared") && nargs == 1) {
        /* the shared address as a number: where the array starts plus the element's bytes */
        pbind p;
        CXCursor arg = clang_Cursor_getArgument(c, 0);
        int r = walk_pointer(w, arg, &p);
        if (r != 1 || p.array >= WALK_MAX_BASES || p.nfixed != w->arrays[p.array].ndims - 1)
            return r == -1 ? 0 : walk_fail(w, c, "a shared address bankscope cannot follow");
        const warray *arr = &w->arrays[p.array];
        expr_ref flat = p.nfixed ? p.fixed[0] : expr_pool_num(&w->ep, 0);
        for (int d = 1; d < p.nfixed; d++)
            flat = expr_pool_binary(&w->ep, EXPR_ADD,
                                    expr_pool_binary(&w->ep, EXPR_MUL, flat, expr_pool_num(&w->ep, arr->dims[d])),
                                    p.fixed[d]);
        if (p.nfixed)
            flat = expr_pool_binary(&w->ep, EXPR_MUL, flat, expr_pool_num(&w->ep, arr->dims[arr->ndims - 1]));
        flat = expr_pool_binary(&w->ep, EXPR_ADD, flat, p.off);
        return expr_pool_binary(&w->ep, EXPR_ADD, expr_pool_var(&w->ep, WALK_VAR_BASE(p.array)),
                                expr_pool_binary(&w->ep, EXPR_MUL, flat, expr_pool_num(&w->ep, arr->elem_size)));
    }
    CXCursor fn = walk_callee(c);
    if (clang_Cursor_isNull(fn) && clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_CXXMethod)
        fn = clang_getCursorReferenced(c); /* a method: obj.f() */
    /* an argument that reads memory makes the result depend on data (the arguments of a call
     * that depends on a template parameter are the children after the callee) */
    walk_kids ck = walk_children(c);
    int na = nargs >= 0 ? nargs : ck.n - 1;
    for (int i = 0; i < na; i++) {
        char saved_why[sizeof w->why];
        memcpy(saved_why, w->why, sizeof saved_why);
        w->why[0] = '\0';
        CXCursor arg = nargs >= 0 ? clang_Cursor_getArgument(c, (unsigned)i) : ck.c[i + 1];
        bool data = !walk_value(w, arg) && strstr(w->why, "depends on data");
        if (data)
            return 0;
        memcpy(w->why, saved_why, sizeof saved_why);
    }
    if (!clang_Cursor_isNull(fn) && clang_getCursorKind(fn) == CXCursor_CXXMethod) {
        bool known;
        expr_ref g = group_value(w, c, fn, &known);
        if (known)
            return g;
    }
    /* the toolkit's texture, surface and cached loads read memory */
    if ((clang_Cursor_isNull(fn) || !walk_is_device_fn(fn)) &&
        (!strncmp(name, "tex", 3) || (!strncmp(name, "surf", 4) && strstr(name, "read")) ||
         (!strncmp(name, "__ld", 4) && strlen(name) <= 6)))
        return walk_fail(w, c, "depends on data: reads memory through '%s' (bankscope record captures it)", name);
    if (clang_Cursor_isNull(fn) || !walk_is_device_fn(fn))
        return walk_fail(w, c, "calls '%s', whose result is not known", name);
    /* a device function whose body is 'return EXPR;' is inlined */
    walk_kids k = walk_children(fn);
    CXCursor body = k.n ? k.c[k.n - 1] : fn;
    walk_kids b = walk_children(body);
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt || b.n != 1 ||
        clang_getCursorKind(b.c[0]) != CXCursor_ReturnStmt)
        return walk_fail(w, c, "calls '%s', which is more than 'return EXPR;'", name);
    walk_kids rk = walk_children(b.c[0]);
    if (walk_calls_itself(fn))
        return walk_fail(w, c, "calls the recursive function '%s' (bankscope does not follow recursion)", name);
    if (rk.n != 1 || w->ncalls >= MAX_INLINE)
        return walk_fail(w, c, "calls '%s', which cannot be inlined", name);
    int saved;
    if (!walk_bind_params(w, c, fn, &saved))
        return 0;
    w->calls[w->ncalls++] = fn;
    expr_ref r = walk_value(w, rk.c[0]);
    w->ncalls--;
    w->nbinds = saved;
    return r;
}

/* Translate a value expression. NULL with w->why set when it cannot be expressed. */
/* The value clang itself computes for c when it is an integer constant that depends on no
 * template parameter, else NULL. */
static expr_ref const_value(W *w, CXCursor c)
{
    if (import_value_dependent(c))
        return 0;
    expr_ref r = 0;
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
        r = expr_pool_num(&w->ep, clang_EvalResult_getAsLongLong(ev));
    if (ev)
        clang_EvalResult_dispose(ev);
    return r;
}

expr_ref walk_value(W *w, CXCursor c)
{
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        return walk_fail(w, c, "expression nested too deeply");
    }
    expr_ref r = 0;
    enum CXCursorKind k = clang_getCursorKind(c);
    walk_kids ks = walk_children(c);
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (t.kind == CXType_Float || t.kind == CXType_Double || t.kind == CXType_Half || t.kind == CXType_Float16) {
        /* a value read from memory (a comparison of two loaded floats, as a reduction's min)
         * depends on data, whatever its type */
        r = reads_memory(w, c) ? walk_fail(w, c, "depends on data: reads memory (bankscope record captures it)")
                               : walk_fail(w, c, "floating-point value in an index");
        goto out;
    }
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr: {
        CXEvalResult ev = clang_Cursor_Evaluate(c);
        if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
            r = expr_pool_num(&w->ep, clang_EvalResult_isUnsignedInt(ev) ? (int64_t)clang_EvalResult_getAsUnsigned(ev)
                                                                         : clang_EvalResult_getAsLongLong(ev));
        else
            r = walk_fail(w, c, "a literal that is not an integer");
        if (ev)
            clang_EvalResult_dispose(ev);
        break;
    }
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr:
        if (ks.n >= 1 && clang_isExpression(clang_getCursorKind(ks.c[ks.n - 1])))
            r = walk_value(w, ks.c[ks.n - 1]);
        else if (k == CXCursor_UnexposedExpr && ks.n == 0)
            r = const_value(w, c);
        if (!r)
            walk_fail(w, c, "an expression bankscope cannot read");
        break;
    case CXCursor_DeclRefExpr: r = decl_ref(w, c); break;
    case CXCursor_MemberRefExpr: r = member_ref(w, c); break;
    case CXCursor_UnaryOperator: {
        const char *op = import_unary_op(c);
        expr_op o;
        if (op && !strcmp(op, "+") && ks.n == 1)
            r = walk_value(w, ks.c[0]);
        else if (op && expr_op_parse(op, true, &o) && ks.n == 1) {
            expr_ref a = walk_value(w, ks.c[0]);
            r = a ? expr_pool_unary(&w->ep, o, a) : 0;
        } else if (op && !strcmp(op, "*"))
            r = walk_fail(w, c, "depends on data: reads memory through a pointer (bankscope record captures it)");
        else
            r = walk_fail(w, c, "the operator '%s' in an index", op ? op : "?");
        break;
    }
    case CXCursor_BinaryOperator: {
        const char *op = import_binary_op(c);
        expr_op o;
        if (op && expr_op_parse(op, false, &o) && ks.n == 2) {
            expr_ref a = walk_value(w, ks.c[0]);
            expr_ref b = a ? walk_value(w, ks.c[1]) : 0;
            r = b ? expr_pool_binary(&w->ep, o, a, b) : 0;
        } else
            r = walk_fail(w, c, "the operator '%s' in an index", op ? op : "?");
        break;
    }
    case CXCursor_ConditionalOperator:
        if (ks.n == 3) {
            expr_ref a = walk_value(w, ks.c[0]), b = a ? walk_value(w, ks.c[1]) : 0, e = b ? walk_value(w, ks.c[2]) : 0;
            r = e ? expr_pool_cond(&w->ep, a, b, e) : 0;
        }
        if (!r)
            walk_fail(w, c, "a conditional expression bankscope cannot read");
        break;
    case CXCursor_CallExpr:
        if (ks.n == 1 && clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_FunctionDecl &&
            clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_CXXMethod &&
            clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_FunctionTemplate &&
            clang_Cursor_isNull(walk_callee(c)))
            r = walk_value(w, ks.c[0]); /* a constructor-style conversion */
        else
            r = call_value(w, c);
        break;
    case CXCursor_UnaryExpr:
        r = const_value(w, c);
        if (!r)
            walk_fail(w, c, "a sizeof or alignof that depends on a template parameter");
        break;
    case CXCursor_ArraySubscriptExpr:
        r = walk_fail(w, c, "depends on data: reads memory (bankscope record captures it)");
        break;
    default: r = walk_fail(w, c, "an expression bankscope cannot read"); break;
    }
out:
    w->depth--;
    return r;
}

/* ---------- pointers into shared arrays ---------- */

int walk_element(W *w, CXCursor c, waccess *a);

typedef struct ret_find {
    CXCursor ret;   /* the last return statement */
    bool shared;    /* the body declares a __shared__ array */
    CXCursor klass; /* a class named by the expression (TypeRef, TemplateRef) */
} ret_find;

static enum CXChildVisitResult ret_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    ret_find *f = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ReturnStmt)
        f->ret = c;
    else if (k == CXCursor_VarDecl && walk_has_attr(c, CXCursor_CUDASharedAttr))
        f->shared = true;
    else if ((k == CXCursor_TypeRef || k == CXCursor_TemplateRef) && clang_Cursor_isNull(f->klass))
        f->klass = clang_getCursorReferenced(c);
    return k == CXCursor_LambdaExpr ? CXChildVisit_Continue : CXChildVisit_Recurse;
}

/* The shared array a function hands out: its body declares a __shared__ array (often extern) and
 * returns a pointer into it: 1 with *p (its type as the function returns it), else 0. */
static int function_pointer(W *w, CXCursor fn, pbind *p)
{
    ret_find f = {clang_getNullCursor(), false, clang_getNullCursor()};
    clang_visitChildren(fn, ret_visit, &f);
    walk_kids rk = clang_Cursor_isNull(f.ret) ? (walk_kids){NULL, 0} : walk_children(f.ret);
    if (!f.shared || rk.n != 1)
        return 0;
    return walk_pointer(w, rk.c[0], p);
}

/* The member a member expression names (its spelling, or where clang leaves that empty for a
 * member of a type that depends on a template parameter, its last identifier). */
static char *member_name(W *w, CXCursor m)
{
    char *name = walk_spell(m);
    if (*name)
        return name;
    CXToken *t = NULL;
    unsigned n = 0;
    clang_tokenize(w->tu, clang_getCursorExtent(m), &t, &n);
    for (unsigned i = n; i-- > 0 && !*name;)
        if (clang_getTokenKind(t[i]) == CXToken_Identifier) {
            CXString ts = clang_getTokenSpelling(w->tu, t[i]);
            free(name);
            name = xstrdup(clang_getCString(ts));
            clang_disposeString(ts);
        }
    clang_disposeTokens(w->tu, t, n);
    return name;
}

/* The method a call on an object of a class template's type that depends on a template parameter
 * calls (SharedMemory<T> smem; smem.getPointer(), the CUDA samples' idiom): with the kernel's
 * type parameters known (-D T=float, or the launches), the method of the explicit specialization
 * for those types (template <> struct SharedMemory<float>), or a null cursor. */
static CXCursor specialized_method(W *w, CXCursor call)
{
    CXCursor none = clang_getNullCursor();
    walk_kids ck = walk_children(call);
    CXCursor callee = ck.n ? walk_strip(ck.c[0]) : none;
    if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_MemberRefExpr)
        return none;
    walk_kids mk = walk_children(callee);
    if (mk.n != 1)
        return none;
    CXType ot = clang_getCursorType(walk_strip(mk.c[0]));
    if (clang_getCanonicalType(ot).kind == CXType_Pointer)
        ot = clang_getPointeeType(ot);
    int nta = clang_Type_getNumTemplateArguments(ot);
    CXCursor decl = clang_getTypeDeclaration(ot);
    CXCursor tmpl =
        clang_getCursorKind(decl) == CXCursor_ClassTemplate ? decl : clang_getSpecializedCursorTemplate(decl);
    if (nta < 1 || nta > 4 || clang_Cursor_isNull(tmpl))
        return none;
    const char *want[4];
    char bufs[4][64];
    for (int i = 0; i < nta; i++) {
        int64_t size;
        want[i] =
            walk_type_name(w, clang_Type_getTemplateArgumentAsType(ot, (unsigned)i), bufs[i], sizeof bufs[i], &size);
        if (!want[i])
            return none;
    }
    CXCursor spec = walk_specialization(w, tmpl, NULL, want, nta);
    if (clang_Cursor_isNull(spec))
        return none;
    char *name = member_name(w, callee);
    walk_kids sk = walk_children(spec);
    CXCursor m = none;
    for (int i = 0; i < sk.n && clang_Cursor_isNull(m); i++) {
        char *n = walk_spell(sk.c[i]);
        if (clang_getCursorKind(sk.c[i]) == CXCursor_CXXMethod && !strcmp(n, name))
            m = clang_getCursorDefinition(sk.c[i]);
        free(n);
    }
    free(name);
    return m;
}

/* A pointer variable (of type t) set from what a helper returns: a call of a __device__ function
 * without arguments, or an object converted to a pointer by its class's conversion operator
 * (the SharedMemory<T> idiom of the CUDA samples), when that body returns a pointer into a
 * __shared__ array it declares. 1 with *p, else 0. */
static int returned_pointer(W *w, CXCursor init, CXType t, pbind *p)
{
    CXCursor e = walk_strip(init);
    if (clang_getCursorKind(e) == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) <= 0) {
        CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(e));
        if (clang_Cursor_isNull(fn))
            fn = specialized_method(w, e);
        if (!clang_Cursor_isNull(fn) && walk_is_device_fn(fn) && function_pointer(w, fn, p) == 1)
            return 1;
    }
    ret_find f = {clang_getNullCursor(), false, clang_getNullCursor()};
    clang_visitChildren(init, ret_visit, &f);
    if (clang_Cursor_isNull(f.klass))
        return 0;
    /* the class's conversion operator to a pointer (the first that hands out shared memory) */
    walk_kids ks = walk_children(f.klass);
    for (int i = 0; i < ks.n; i++) {
        if (clang_getCursorKind(ks.c[i]) != CXCursor_ConversionFunction)
            continue;
        pbind q;
        if (function_pointer(w, ks.c[i], &q) != 1)
            continue;
        *p = q;
        /* the pointer's own type (T *sdata): the element as the kernel reads it */
        CXType pt = clang_getPointeeType(t);
        char buf[64];
        int64_t size;
        const char *tn = walk_type_name(w, pt, buf, sizeof buf, &size);
        const warray *arr = &w->arrays[p->array];
        if (!tn || size < arr->elem_size || size % arr->elem_size != 0 || arr->is_struct) {
            char *ts = walk_type_spell(pt);
            walk_fail(w, init, "reads '%s' as '%s' (give -D for a template type)", arr->name, ts);
            free(ts);
            return -1;
        }
        if (strcmp(tn, arr->type) != 0) {
            p->vector = walk_strdup(w, tn);
            p->ratio = (int)(size / arr->elem_size);
        } else {
            p->vector = NULL;
            p->ratio = 1;
        }
        return 1;
    }
    return 0;
}

int walk_pointer(W *w, CXCursor c, pbind *p);

/* lhs op rhs with one side a pointer into a shared array and the other a count of elements:
 * 1 and *p, 0 when neither side is such a pointer, -1 when the count cannot be followed. The
 * pointer side is the left one unless that one is a number (an array whose size depends on a
 * template parameter has a dependent type in the template). */
static int pointer_offset(W *w, char op, CXCursor lhs, CXCursor rhs, pbind *p)
{
    enum CXTypeKind lk = clang_getCanonicalType(clang_getCursorType(walk_strip(lhs))).kind;
    bool left = lk == CXType_Pointer || lk == CXType_ConstantArray || lk == CXType_IncompleteArray ||
                lk == CXType_DependentSizedArray || lk == CXType_Dependent;
    int r = walk_pointer(w, left ? lhs : rhs, p);
    if (r != 1)
        return r;
    expr_ref n = walk_value(w, left ? rhs : lhs);
    if (!n || (op == '-' && !left))
        return -1;
    n = expr_pool_binary(&w->ep, EXPR_MUL, n, expr_pool_num(&w->ep, p->ratio));
    p->off = expr_pool_binary(&w->ep, op == '+' ? EXPR_ADD : EXPR_SUB, p->off, n);
    return 1;
}

/* Resolve a pointer (or array) expression: 1 and *p when it points into a shared array, 0 when
 * it does not, -1 when it does but cannot be followed (w->why says why). */
int walk_pointer(W *w, CXCursor c, pbind *p)
{
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        walk_fail(w, c, "expression nested too deeply");
        return -1;
    }
    int r = 0;
    enum CXCursorKind k = clang_getCursorKind(c);
    walk_kids ks = walk_children(c);
    switch (k) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr: {
        if (ks.n < 1)
            break;
        r = walk_pointer(w, ks.c[ks.n - 1], p);
        CXType to = clang_getCanonicalType(clang_getCursorType(c));
        if (r != 1 || to.kind != CXType_Pointer)
            break;
        CXType pt = clang_getCanonicalType(clang_getPointeeType(to));
        if (pt.kind == CXType_Void || pt.kind == CXType_ConstantArray || pt.kind == CXType_DependentSizedArray)
            break; /* void *, or a multi-dimensional array decaying to a row pointer */
        char buf[64];
        int64_t size;
        /* named as written (a template parameter's canonical type has no name) */
        const char *tn = walk_type_name(w, clang_getPointeeType(clang_getCursorType(c)), buf, sizeof buf, &size);
        if (!tn) /* a struct that packs scalars into one vector's width */
            tn = walk_pack_name(pt, buf, sizeof buf);
        const warray *arr = &w->arrays[p->array];
        if (p->vector ? tn && strcmp(tn, p->vector) == 0
                      : clang_equalTypes(pt, arr->elem) || (tn && !arr->is_struct && !strcmp(tn, arr->type)))
            break;
        if (p->vector && tn && !arr->is_struct && !strcmp(tn, arr->type)) { /* a view back to the element */
            p->vector = NULL;
            p->ratio = 1;
            break;
        }
        /* a view of a view (an int * made from &f[n], f a float view of a char buffer): the offset
         * counts the array's elements, so any type of whole elements is a view of its own */
        if (!tn || size < arr->elem_size || size % arr->elem_size != 0 || arr->is_struct) {
            char *ts = walk_type_spell(pt);
            walk_fail(w, c, "reinterprets '%s' as '%s' (only as a wider scalar or vector type)", arr->name, ts);
            free(ts);
            r = -1;
            break;
        }
        p->vector = walk_strdup(w, tn);
        p->ratio = (int)(size / arr->elem_size);
        break;
    }
    case CXCursor_DeclRefExpr: {
        CXCursor d = clang_getCursorReferenced(c);
        int bi = frame_find(w, d);
        if (bi >= 0) {
            if (w->binds[bi].is_ptr) {
                *p = w->binds[bi].ptr;
                r = 1;
            } else if (w->binds[bi].ptr_shared) { /* into a shared array, but not followed */
                char *n = walk_spell(d);
                walk_fail(w, c, "'%s' is %s", n, w->binds[bi].why);
                free(n);
                r = -1;
            }
            break;
        }
        if (clang_getCursorKind(d) != CXCursor_VarDecl)
            break;
        if (walk_has_attr(d, CXCursor_CUDASharedAttr)) {
            int ai = walk_array_add(w, d);
            memset(p, 0, sizeof *p);
            p->array = ai;
            p->off = expr_pool_num(&w->ep, 0);
            p->ratio = 1;
            r = 1;
            break;
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(d));
        if (t.kind != CXType_Pointer)
            break;
        walk_kids dk = walk_children(d);
        CXCursor init = clang_getNullCursor();
        for (int i = 0; i < dk.n; i++)
            if (clang_isExpression(clang_getCursorKind(dk.c[i])))
                init = dk.c[i];
        if (clang_Cursor_isNull(init))
            break;
        r = walk_pointer(w, init, p);
        if (r == 0)
            r = returned_pointer(w, init, clang_getCursorType(d), p);
        CXCursor first;
        if (r == 1 && walk_mod_count(d, &first) > 0) {
            char *n = walk_spell(d);
            int l, cl;
            walk_where(first, &l, &cl, NULL);
            walk_fail(w, c, "the pointer '%s' into a shared array changes at %d:%d", n, l, cl);
            free(n);
            r = -1;
        }
        break;
    }
    case CXCursor_MemberRefExpr: {
        /* a member array of a shared union of arrays: a view of the union's bytes, as wide as
         * the member's element (the union's own when equal) */
        walk_kids mk = walk_children(c);
        CXCursor base = mk.n == 1 ? walk_strip(mk.c[0]) : clang_getNullCursor();
        CXCursor d = clang_Cursor_isNull(base) || clang_getCursorKind(base) != CXCursor_DeclRefExpr
                         ? clang_getNullCursor()
                         : clang_getCursorReferenced(base);
        if (clang_Cursor_isNull(d) || clang_getCursorKind(d) != CXCursor_VarDecl ||
            !walk_has_attr(d, CXCursor_CUDASharedAttr))
            break;
        int ai = walk_array_add(w, d);
        if (!w->arrays[ai].is_union)
            break;
        CXType mt = clang_getCanonicalType(clang_getCursorType(c));
        if (mt.kind != CXType_ConstantArray)
            break;
        CXType me = clang_getCanonicalType(clang_getArrayElementType(mt));
        const warray *arr = &w->arrays[ai];
        char buf[64];
        const char *tn = walk_builtin_name(me, buf, sizeof buf);
        int64_t size = clang_Type_getSizeOf(me);
        if (!tn || size < arr->elem_size || size % arr->elem_size != 0)
            break;
        memset(p, 0, sizeof *p);
        p->array = ai;
        p->off = expr_pool_num(&w->ep, 0);
        p->ratio = (int)(size / arr->elem_size);
        p->vector = size > arr->elem_size ? walk_strdup(w, tn) : NULL;
        r = 1;
        break;
    }
    case CXCursor_ArraySubscriptExpr: {
        /* a row of a multi-dimensional array: tile[y] */
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        if (t.kind != CXType_ConstantArray && t.kind != CXType_DependentSizedArray && t.kind != CXType_IncompleteArray)
            break;
        if (ks.n != 2 || (r = walk_pointer(w, ks.c[0], p)) != 1)
            break;
        expr_ref i = walk_value(w, ks.c[1]);
        int64_t off0 = -1;
        if (!i || p->nfixed >= 2 || p->vector || !(expr_pool_const(&w->ep, p->off, &off0) && off0 == 0)) {
            if (i)
                walk_fail(w, c, "a row pointer bankscope cannot follow");
            r = -1;
            break;
        }
        p->fixed[p->nfixed++] = i;
        break;
    }
    case CXCursor_UnaryOperator: {
        const char *op = import_unary_op(c);
        if (!op || strcmp(op, "&") || ks.n != 1)
            break;
        waccess a;
        memset(&a, 0, sizeof a);
        r = walk_element(w, ks.c[0], &a);
        if (r != 1)
            break;
        types_builtin vb;
        if (a.field || (a.vector && !types_builtin_find(a.vector, &vb))) {
            walk_fail(w, c, "a pointer to a struct field or through a reinterpretation");
            free(a.field);
            free(a.vector);
            r = -1;
            break;
        }
        const char *view = a.vector ? walk_strdup(w, a.vector) : NULL;
        free(a.vector);
        memset(p, 0, sizeof *p);
        p->ratio = 1;
        if (view && w->arrays[a.array].elem_size > 0 && vb.size % w->arrays[a.array].elem_size == 0) {
            p->vector = view; /* &f[n] of a view: a pointer of that view, at the element's offset */
            p->ratio = (int)(vb.size / w->arrays[a.array].elem_size);
        } else if (view) {
            walk_fail(w, c, "a pointer to a struct field or through a reinterpretation");
            r = -1;
            break;
        }
        p->array = a.array;
        p->nfixed = a.nidx - 1;
        for (int i = 0; i < a.nidx - 1; i++)
            p->fixed[i] = a.idx[i];
        p->off = a.idx[a.nidx - 1];
        break;
    }
    case CXCursor_BinaryOperator: {
        const char *op = import_binary_op(c);
        if (!op || (strcmp(op, "+") && strcmp(op, "-")) || ks.n != 2)
            break;
        r = pointer_offset(w, op[0], ks.c[0], ks.c[1], p);
        break;
    }
    case CXCursor_CallExpr: {
        /* in a template, 'As + n' with As of a type that depends on a template parameter is an
         * unresolved operator call: the operand, the operator's name, the other operand */
        const char *oop = ks.n == 3 ? import_operator_call_op(c) : NULL;
        char opc = oop ? oop[0] : 0;
        if (opc)
            r = pointer_offset(w, opc, ks.c[0], ks.c[2], p);
        break;
    }
    default: break;
    }
    w->depth--;
    return r;
}

/* The element a flat pointer into a multi-dimensional array reaches (reinterpret_cast<float *>
 * (tile) + n: an element pointer over the rows): its offset split over the dimensions it spans,
 * index k = off / (product of the later dimensions) % dims[k], the first of them without the
 * remainder, so that the address is the offset's. 1 with *a, -1 (said) when not an element. */
static int flat_element(W *w, CXCursor c, const pbind *p, waccess *a)
{
    const warray *arr = &w->arrays[p->array];
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    bool sized = true;
    for (int d = p->nfixed + 1; d < arr->ndims; d++)
        sized = sized && arr->dims[d] > 0;
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || arr->ndims > 3 || !sized) {
        walk_fail(w, c, "indexes '%s' as a row", arr->name);
        return -1;
    }
    memset(a, 0, sizeof *a);
    a->array = p->array;
    a->nidx = arr->ndims;
    for (int d = 0; d < p->nfixed; d++)
        a->idx[d] = p->fixed[d];
    int64_t inner = 1;
    for (int d = arr->ndims - 1; d >= p->nfixed; d--) {
        expr_ref q = inner == 1 ? p->off : expr_pool_binary(&w->ep, EXPR_DIV, p->off, expr_pool_num(&w->ep, inner));
        a->idx[d] = d == p->nfixed ? q : expr_pool_binary(&w->ep, EXPR_MOD, q, expr_pool_num(&w->ep, arr->dims[d]));
        inner *= arr->dims[d];
    }
    a->vector = p->vector ? xstrdup(p->vector) : NULL;
    return 1;
}

/* An element of a shared array: 1 with *a filled (array, indexes, field, vector), 0 when c is
 * not one, -1 when it is but cannot be expressed. */
int walk_element(W *w, CXCursor c, waccess *a)
{
    c = walk_strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr) { /* a reference parameter bound to a shared element */
        CXCursor d = clang_getCursorReferenced(c);
        int bi = frame_find(w, d);
        CXType dt = clang_getCanonicalType(clang_getCursorType(d));
        if (bi < 0 && clang_getCursorKind(d) == CXCursor_VarDecl && walk_has_attr(d, CXCursor_CUDASharedAttr) &&
            dt.kind != CXType_ConstantArray && dt.kind != CXType_IncompleteArray &&
            dt.kind != CXType_DependentSizedArray) { /* a __shared__ scalar: element 0 of an array of one */
            memset(a, 0, sizeof *a);
            a->array = walk_array_add(w, d);
            a->nidx = 1;
            a->idx[0] = expr_pool_num(&w->ep, 0);
            return 1;
        }
        if (bi < 0 || !w->binds[bi].ref_shared)
            return 0;
        const binding *b = &w->binds[bi];
        if (b->ref_array < 0) {
            char *n = walk_spell(c);
            walk_fail(w, c, "'%s' refers to a shared element that cannot be expressed: %s", n, b->why);
            free(n);
            return -1;
        }
        memset(a, 0, sizeof *a);
        a->array = b->ref_array;
        a->nidx = b->ref_nidx;
        for (int d = 0; d < b->ref_nidx; d++)
            a->idx[d] = b->ref_idx[d];
        a->field = b->ref_field ? xstrdup(b->ref_field) : NULL;
        a->vector = b->ref_vector ? xstrdup(b->ref_vector) : NULL;
        return 1;
    }
    walk_kids ks = walk_children(c);
    if (k == CXCursor_MemberRefExpr && ks.n == 1) {
        int r = walk_element(w, ks.c[0], a);
        enum CXCursorKind mk = clang_getCursorKind(clang_getCursorReferenced(c));
        if (r != 0 && (mk == CXCursor_CXXMethod || mk == CXCursor_ConversionFunction)) {
            /* a member function called on a shared object (a cuda::barrier's arrive()): what it
             * does to the object is not followed */
            if (r == 1) {
                free(a->field);
                free(a->vector);
                a->field = a->vector = NULL;
            }
            char *m = member_name(w, c);
            walk_fail(w, c, "the member function '%s' called on a shared object, which bankscope does not follow", m);
            free(m);
            return -1;
        }
        if (r != 1) {
            /* p->x through a pointer */
            pbind p;
            if (r == 0 && clang_getCanonicalType(clang_getCursorType(walk_strip(ks.c[0]))).kind == CXType_Pointer &&
                (r = walk_pointer(w, ks.c[0], &p)) == 1) {
                memset(a, 0, sizeof *a);
                a->array = p.array;
                a->nidx = p.nfixed + 1;
                for (int i = 0; i < p.nfixed; i++)
                    a->idx[i] = p.fixed[i];
                a->idx[p.nfixed] = p.off;
                if (p.vector) {
                    walk_fail(w, c, "a field of a reinterpreted element");
                    return -1;
                }
            } else
                return r;
        }
        char *m = member_name(w, c);
        types_builtin vb;
        const warray *arr = &w->arrays[a->array];
        if (a->vector && !a->field && strlen(m) == 1 && strchr("xyzw", m[0]) && types_builtin_find(a->vector, &vb)) {
            /* a component of an element read as a vector (reinterpret_cast<float2 *>(s)[i].y):
             * the array's own element next to the vector's start, when the component is one */
            int comp = m[0] == 'w' ? 3 : m[0] - 'x';
            free(m);
            if (vb.components < 1 || comp >= vb.components || vb.size / vb.components != arr->elem_size) {
                walk_fail(w, c, "a component of a reinterpreted element that is not an element of '%s'", arr->name);
                return -1;
            }
            a->idx[a->nidx - 1] = expr_pool_binary(&w->ep, EXPR_ADD, a->idx[a->nidx - 1], expr_pool_num(&w->ep, comp));
            free(a->vector);
            a->vector = NULL;
            return 1;
        }
        char *f = a->field ? walk_fmt("%s.%s", a->field, m) : xstrdup(m);
        free(m);
        free(a->field);
        a->field = f;
        return 1;
    }
    if (k == CXCursor_ArraySubscriptExpr && ks.n == 2) {
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        if (t.kind == CXType_ConstantArray || t.kind == CXType_DependentSizedArray)
            return 0; /* a row, not an element */
        pbind p;
        int r = walk_pointer(w, ks.c[0], &p);
        if (r == 0) {
            /* an array field of an element: p[i].c[2] */
            waccess inner;
            memset(&inner, 0, sizeof inner);
            int ri = walk_element(w, ks.c[0], &inner);
            if (ri != 1)
                return ri;
            expr_ref i = walk_value(w, ks.c[1]);
            int64_t fi;
            if (!i || !expr_pool_const(&w->ep, i, &fi)) {
                if (i)
                    walk_fail(w, c, "an index into a struct's array field that is not a constant");
                free(inner.field);
                free(inner.vector);
                return -1;
            }
            *a = inner;
            char *f = walk_fmt("%s[%lld]", inner.field ? inner.field : "", (long long)fi);
            free(a->field);
            a->field = f;
            return 1;
        }
        if (r < 0)
            return -1;
        const warray *arr = &w->arrays[p.array];
        expr_ref i = walk_value(w, ks.c[1]);
        if (!i)
            return -1;
        if (p.nfixed != arr->ndims - 1) {
            p.off = expr_pool_binary(&w->ep, EXPR_ADD, p.off,
                                     expr_pool_binary(&w->ep, EXPR_MUL, i, expr_pool_num(&w->ep, p.ratio)));
            return flat_element(w, c, &p, a);
        }
        memset(a, 0, sizeof *a);
        a->array = p.array;
        a->nidx = arr->ndims;
        for (int d = 0; d < p.nfixed; d++)
            a->idx[d] = p.fixed[d];
        a->idx[p.nfixed] = expr_pool_binary(&w->ep, EXPR_ADD, p.off,
                                            expr_pool_binary(&w->ep, EXPR_MUL, i, expr_pool_num(&w->ep, p.ratio)));
        a->vector = p.vector ? xstrdup(p.vector) : NULL;
        return 1;
    }
    if (k == CXCursor_UnaryOperator && ks.n == 1) {
        const char *op = import_unary_op(c);
        if (!op || strcmp(op, "*"))
            return 0;
        pbind p;
        int r = walk_pointer(w, ks.c[0], &p);
        if (r != 1)
            return r;
        const warray *arr = &w->arrays[p.array];
        if (p.nfixed != arr->ndims - 1)
            return flat_element(w, c, &p, a);
        memset(a, 0, sizeof *a);
        a->array = p.array;
        a->nidx = arr->ndims;
        for (int d = 0; d < p.nfixed; d++)
            a->idx[d] = p.fixed[d];
        a->idx[p.nfixed] = p.off;
        a->vector = p.vector ? xstrdup(p.vector) : NULL;
        return 1;
    }
    return 0;
}

typedef struct rec_ctx {
    CXCursor target;
    CXCursor seen[256]; /* functions visited (each looked into once) */
    int nseen;
    bool found;
} rec_ctx;

static void rec_search(rec_ctx *r, CXCursor fn);

static enum CXChildVisitResult rec_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    rec_ctx *r = d;
    if (r->found)
        return CXChildVisit_Break;
    if (clang_getCursorKind(c) == CXCursor_CallExpr) {
        CXCursor fn = walk_callee(c);
        if (!clang_Cursor_isNull(fn) && walk_is_device_fn(fn)) {
            if (clang_equalCursors(fn, r->target)) {
                r->found = true;
                return CXChildVisit_Break;
            }
            rec_search(r, fn);
        }
    }
    return CXChildVisit_Recurse;
}

/* Look through the body of fn (once) for a call that leads back to the target. */
static void rec_search(rec_ctx *r, CXCursor fn)
{
    for (int i = 0; i < r->nseen; i++)
        if (clang_equalCursors(r->seen[i], fn))
            return;
    if (r->nseen == (int)(sizeof r->seen / sizeof r->seen[0]))
        return;
    r->seen[r->nseen++] = fn;
    clang_visitChildren(fn, rec_visit, r);
}

bool walk_calls_itself(CXCursor fn)
{
    rec_ctx r;
    r.target = fn;
    r.nseen = 0;
    r.found = false;
    rec_search(&r, fn);
    return r.found;
}

typedef struct shared_mention {
    W *w;
    bool found;
} shared_mention;

static enum CXChildVisitResult shared_mention_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    shared_mention *m = d;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        CXCursor v = clang_getCursorReferenced(c);
        int bi = frame_find(m->w, v);
        if ((bi >= 0 && (m->w->binds[bi].is_ptr || m->w->binds[bi].ptr_shared)) ||
            (bi < 0 && clang_getCursorKind(v) == CXCursor_VarDecl && walk_has_attr(v, CXCursor_CUDASharedAttr)))
            m->found = true;
    }
    return m->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether expression c names a shared array or a pointer parameter bound to one: a pointer
 * argument made from it that walk_pointer cannot resolve is still one into shared memory, so
 * that the callee's accesses through it are listed, never lost. */
static bool mentions_shared(W *w, CXCursor c)
{
    shared_mention m = {w, false};
    shared_mention_visit(c, clang_getNullCursor(), &m);
    if (!m.found)
        clang_visitChildren(c, shared_mention_visit, &m);
    return m.found;
}

static enum CXChildVisitResult address_mention_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    shared_mention *m = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CallExpr)
        return CXChildVisit_Continue;
    if (k == CXCursor_ArraySubscriptExpr) { /* the base, not the index */
        walk_kids ks = walk_children(c);
        if (ks.n == 2)
            address_mention_visit(ks.c[0], c, d);
        return m->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor v = clang_getCursorReferenced(c);
        int bi = frame_find(m->w, v);
        enum CXTypeKind t = clang_getCanonicalType(clang_getCursorType(v)).kind;
        if ((bi >= 0 && (m->w->binds[bi].is_ptr || m->w->binds[bi].ptr_shared)) ||
            (bi < 0 && clang_getCursorKind(v) == CXCursor_VarDecl && walk_has_attr(v, CXCursor_CUDASharedAttr) &&
             (t == CXType_ConstantArray || t == CXType_IncompleteArray || t == CXType_DependentSizedArray)))
            m->found = true;
        return m->found ? CXChildVisit_Break : CXChildVisit_Continue;
    }
    clang_visitChildren(c, address_mention_visit, d);
    return m->found ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether an address expression is made from a shared array or a pointer bound to one (its
 * indexes and the calls in it aside): an access through it that the walk cannot resolve is
 * still one of shared memory. */
bool walk_address_from_shared(W *w, CXCursor c)
{
    shared_mention m = {w, false};
    address_mention_visit(c, clang_getNullCursor(), &m);
    return m.found;
}

/* Bind fn's parameters to the arguments of call; *saved restores the bindings. */
bool walk_bind_params(W *w, CXCursor call, CXCursor fn, int *saved)
{
    *saved = w->nbinds;
    CXCursor parms[64];
    int n = fn_params(fn, parms, 64);
    if (n != clang_Cursor_getNumArguments(call)) {
        walk_fail(w, call, "a call with default arguments");
        return false;
    }
    bind_template_args(w, call, fn);
    for (int i = 0; i < n; i++) {
        CXCursor parm = parms[i], arg = clang_Cursor_getArgument(call, (unsigned)i);
        binding b;
        memset(&b, 0, sizeof b);
        b.decl = parm;
        b.arg = arg;
        CXType t = clang_getCanonicalType(clang_getCursorType(parm));
        char saved_why[sizeof w->why];
        memcpy(saved_why, w->why, sizeof saved_why);
        w->why[0] = '\0';
        /* a parameter declared as an array (float out[H][W]) is a pointer to its first element
         * (libclang gives it its type as written) */
        bool array_parm =
            t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_DependentSizedArray;
        CXType at = clang_getCanonicalType(clang_getCursorType(walk_strip(arg)));
        bool address_arg = at.kind == CXType_Pointer || at.kind == CXType_ConstantArray ||
                           at.kind == CXType_IncompleteArray || at.kind == CXType_DependentSizedArray;
        /* a reference to a pointer or an array (float *const &p, float (&a)[64]) is followed as a
         * pointer */
        enum CXTypeKind rk =
            t.kind == CXType_LValueReference ? clang_getCanonicalType(clang_getPointeeType(t)).kind : CXType_Invalid;
        bool ptr_ref = rk == CXType_Pointer || rk == CXType_ConstantArray || rk == CXType_DependentSizedArray ||
                       rk == CXType_IncompleteArray;
        if (t.kind == CXType_Pointer || array_parm || ptr_ref) {
            int r = walk_pointer(w, arg, &b.ptr);
            if (r == 0 && mentions_shared(w, arg)) {
                r = -1;
                walk_fail(w, arg, "a pointer into a shared array made in a way bankscope cannot follow");
            }
            b.is_ptr = r == 1;
            b.ptr_shared = r < 0;
            b.why = r < 0 ? walk_strdup(w, w->why) : "a pointer that is not into a shared array";
        } else if (t.kind == CXType_LValueReference) {
            waccess e;
            memset(&e, 0, sizeof e);
            int r = walk_element(w, arg, &e);
            b.ref_array = -1;
            b.why = "a reference parameter";
            if (r != 0) {
                b.ref_shared = true;
                b.why = r < 0 ? walk_strdup(w, w->why) : "a reference to a shared-memory element";
            }
            if (r == 0 && address_arg && mentions_shared(w, arg)) {
                b.ptr_shared = true;
                b.why = "an address into a shared array passed as a parameter bankscope does not follow";
            }
            if (r == 1) {
                b.ref_array = e.array;
                b.ref_nidx = e.nidx;
                for (int d = 0; d < e.nidx; d++)
                    b.ref_idx[d] = e.idx[d];
                b.ref_field = e.field ? walk_strdup(w, e.field) : NULL;
                b.ref_vector = e.vector ? walk_strdup(w, e.vector) : NULL;
            }
            free(e.field);
            free(e.vector);
        } else if (address_arg && mentions_shared(w, arg)) {
            /* an address into a shared array bound to a parameter of another kind: what the
             * callee does through it is listed, never lost */
            b.ptr_shared = true;
            b.why = "an address into a shared array passed as a parameter bankscope does not follow";
        } else {
            b.val = walk_value(w, arg);
            if (!b.val)
                b.why = walk_strdup(w, w->why);
            /* an integer parameter the function changes is followed through its assignments */
            b.is_var = t.kind >= CXType_Bool && t.kind <= CXType_Int128 && walk_mod_count(parm, NULL) > 0;
        }
        memcpy(w->why, saved_why, sizeof saved_why);
        w->binds = walk_grow(w->binds, w->nbinds, &w->cap_binds, sizeof *w->binds);
        w->binds[w->nbinds++] = b;
    }
    return true;
}

/* ---------- values the same for every thread ---------- */

/* Built-in functions whose result differs between threads with the same arguments (they read
 * other lanes, the clock, or change memory). */
static bool varying_builtin(const char *name)
{
    static const char *const prefix[] = {"atomic",  "__shfl",   "__ballot", "__any", "__all",          "__activemask",
                                         "__match", "__reduce", "clock",    "__ld",  "__syncthreads_", NULL};
    for (int i = 0; prefix[i]; i++)
        if (!strncmp(name, prefix[i], strlen(prefix[i])))
            return true;
    return false;
}

static bool uniform_rec(W *w, CXCursor c);

/* Every child of c is uniform. */
static bool uniform_kids(W *w, CXCursor c)
{
    walk_kids k = walk_children(c);
    for (int i = 0; i < k.n; i++)
        if (!uniform_rec(w, k.c[i]))
            return false;
    return true;
}

/* A reference to a declaration: uniform unless it is (or is set from) a per-thread value. */
static bool uniform_decl(W *w, CXCursor d)
{
    int bi = frame_find(w, d);
    if (bi >= 0) {
        const binding *b = &w->binds[bi];
        if (b->val)
            return !expr_pool_uses_thread(&w->ep, b->val);
        return false;
    }
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (dk == CXCursor_EnumConstantDecl || dk == CXCursor_NonTypeTemplateParameter)
        return true;
    if (dk == CXCursor_ParmDecl) /* the kernel's parameters are the same for every thread */
        return clang_equalCursors(clang_getCursorSemanticParent(d), w->kernel);
    if (dk != CXCursor_VarDecl)
        return false;
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(d))) { /* the built-in variables */
        char *n = walk_spell(d);
        bool u = strcmp(n, "threadIdx") != 0;
        free(n);
        return u;
    }
    enum CXCursorKind pk = clang_getCursorKind(clang_getCursorSemanticParent(d));
    if (pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace || walk_has_attr(d, CXCursor_CUDASharedAttr))
        return true; /* one variable for the whole block */
    if (walk_mod_count(d, NULL) > 0)
        return false;
    walk_kids k = walk_children(d);
    return k.n > 0 && clang_isExpression(clang_getCursorKind(k.c[k.n - 1])) && uniform_rec(w, k.c[k.n - 1]);
}

static bool uniform_rec(W *w, CXCursor c)
{
    if (w->depth > MAX_DEPTH)
        return false;
    w->depth++;
    bool r = false;
    walk_kids k = walk_children(c);
    const char *op;
    switch (clang_getCursorKind(c)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CXXBoolLiteralExpr:
    case CXCursor_UnaryExpr: /* sizeof, alignof */ r = true; break;
    case CXCursor_DeclRefExpr: r = uniform_decl(w, clang_getCursorReferenced(c)); break;
    case CXCursor_UnaryOperator:
        op = import_unary_op(c);
        r = op && strcmp(op, "++") && strcmp(op, "--") && uniform_kids(w, c);
        break;
    case CXCursor_BinaryOperator:
    case CXCursor_CompoundAssignOperator:
        op = import_binary_op(c);
        r = clang_getCursorKind(c) == CXCursor_BinaryOperator && op &&
            (!strchr(op, '=') || !strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "<=") || !strcmp(op, ">=")) &&
            uniform_kids(w, c);
        break;
    case CXCursor_CallExpr: {
        /* a built-in function of the block's values (min, a math intrinsic) */
        CXCursor fn = walk_callee(c);
        char name[64];
        walk_callee_name(c, name, sizeof name);
        r = !clang_Cursor_isNull(fn) && clang_Location_isInSystemHeader(clang_getCursorLocation(fn)) &&
            clang_getCursorKind(fn) == CXCursor_FunctionDecl && !varying_builtin(name);
        for (int i = 0; r && i < clang_Cursor_getNumArguments(c); i++)
            r = uniform_rec(w, clang_Cursor_getArgument(c, (unsigned)i));
        break;
    }
    case CXCursor_MemberRefExpr:      /* a field of a uniform value; blockIdx.x, not threadIdx.x */
    case CXCursor_ArraySubscriptExpr: /* memory read at the same address by every thread */
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_ConditionalOperator: r = k.n > 0 && uniform_kids(w, c); break;
    default: r = false; break;
    }
    w->depth--;
    return r;
}

bool walk_uniform(W *w, CXCursor c)
{
    return uniform_rec(w, c);
}
