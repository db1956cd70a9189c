/* walk: the libclang walker. Finds the kernel's __shared__ arrays and every load and store of
 * them (in the kernel and in the __device__ functions it calls, inlined), translates indexes,
 * 'if' conditions and simple 'for' loops into ixpr trees, and builds the scenario (cJSON).
 * Anything that cannot be expressed exactly is skipped with its position and the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import_internal.h"
#include "import/ixpr.h"
#include "model/types.h"

#define MAX_INLINE 16
#define MAX_LOOPS 256
#define MAX_DEPTH 400
#define MAX_ITER 4096

typedef struct pbind { /* a pointer into a shared array */
    int array;
    int nfixed; /* leading indexes already chosen (a row of a 2-D array) */
    const ixpr *fixed[3];
    const ixpr *off;    /* elements added to the next index */
    const char *vector; /* reinterpreted type (bankscope name), NULL: the element type */
    int ratio;          /* elements per reinterpreted item */
} pbind;

typedef struct binding { /* a parameter of an inlined function, or a loop variable */
    CXCursor decl;
    const ixpr *val; /* NULL with why: unknown */
    bool is_ptr;
    pbind ptr;
    const char *why;
} binding;

typedef struct warray {
    CXCursor decl;
    char *name, *type;
    int ndims;
    int64_t dims[3];
    int64_t elem_size;
    CXType elem; /* canonical element type */
    bool is_struct;
    const char *why; /* not importable: why */
} warray;

typedef struct wloop {
    const char *var; /* internal name "#Ln" */
    char *user;      /* the source's name */
    int64_t from, to, step;
    int kind; /* 0 add, 1 mul, 2 div */
    int64_t first, last;
    unsigned begin, end; /* file offsets of the for statement */
    const ixpr *start;   /* strided loop (per-thread start): the variable is start + var * stride,
                            under 'when: start + var * stride < bound' */
    int64_t bound, stride;
    int line;
    int parent; /* enclosing simple loop, -1 */
} wloop;

typedef struct waccess {
    int op;       /* 0 load, 1 store, 2 atomic */
    char *atomic; /* atomic function name */
    int array;
    int nidx;
    const ixpr *idx[3];
    const ixpr *when;
    char *field, *vector;
    char *label;
    int line, col;
    unsigned offset;
    int loops[8];
    int nloops;
} waccess;

typedef struct wskip {
    int line, col;
    char *text;
} wskip;

typedef struct W {
    CXTranslationUnit tu;
    const import_options *o;
    ixpr_arena ar;
    warray *arrays;
    int narrays;
    waccess *acc;
    int nacc;
    wloop loops[MAX_LOOPS];
    int nloops;
    wskip *skips;
    int nskips;
    binding *binds;
    int nbinds;
    CXCursor calls[MAX_INLINE];
    int ncalls;
    const ixpr *guard;     /* current condition; NULL: always */
    const char *guard_why; /* the condition cannot be expressed */
    int lstack[8];
    int nlstack;
    const char *loop_why; /* inside a loop that is not simple */
    char why[320];        /* the last translation failure */
    int depth;
    const char *file_base;
    CXCursor kernel;
} W;

/* ---------- small helpers ---------- */

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    strbuf sb = {0};
    va_list ap;
    va_start(ap, f);
    strbuf_vaddf(&sb, f, ap);
    va_end(ap);
    return strbuf_take(&sb);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Expansion position of c: what the user sees in the file. */
static void where(CXCursor c, int *line, int *col, unsigned *off)
{
    unsigned l = 0, cl = 0, o = 0;
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
    if (clang_equalLocations(loc, clang_getNullLocation()))
        loc = clang_getCursorLocation(c);
    clang_getExpansionLocation(loc, NULL, &l, &cl, &o);
    *line = (int)l;
    *col = (int)cl;
    if (off)
        *off = o;
}

static char *spell(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

static char *type_spell(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

/* Set the failure reason (the first one wins until cleared), pointing at c. */
static const ixpr *fail(W *w, CXCursor c, const char *f, ...) __attribute__((format(printf, 3, 4)));
static const ixpr *fail(W *w, CXCursor c, const char *f, ...)
{
    if (w->why[0])
        return NULL;
    int line, col;
    where(c, &line, &col, NULL);
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(w->why, sizeof w->why, f, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof w->why - 20)
        snprintf(w->why + n, sizeof w->why - (size_t)n, " (%d:%d)", line, col);
    return NULL;
}

static void add_skip(W *w, int line, int col, char *text)
{
    w->skips = xrealloc(w->skips, (size_t)(w->nskips + 1) * sizeof *w->skips);
    w->skips[w->nskips++] = (wskip){line, col, text};
}

typedef struct kids {
    CXCursor c[16];
    int n;
} kids;

static enum CXChildVisitResult kid_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kids *k = d;
    if (k->n < 16)
        k->c[k->n] = c;
    k->n++;
    return CXChildVisit_Continue;
}

static kids children(CXCursor c)
{
    kids k = {.n = 0};
    clang_visitChildren(c, kid_visit, &k);
    if (k.n > 16)
        k.n = 16;
    return k;
}

/* Parentheses and implicit conversions (libclang shows these as UnexposedExpr). */
static CXCursor strip(CXCursor c)
{
    for (int i = 0; i < 64; i++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return c;
        kids ks = children(c);
        if (ks.n != 1)
            return c;
        c = ks.c[0];
    }
    return c;
}

static bool has_attr(CXCursor c, enum CXCursorKind attr)
{
    kids k = children(c);
    for (int i = 0; i < k.n; i++)
        if (clang_getCursorKind(k.c[i]) == attr)
            return true;
    return false;
}

static const char *define_value(const W *w, const char *name)
{
    for (int i = 0; i < w->o->ndefines; i++)
        if (strcmp(w->o->defines[i].name, name) == 0)
            return w->o->defines[i].value;
    return NULL;
}

static bool parse_i64(const char *s, int64_t *out)
{
    char *end;
    long long v = strtoll(s, &end, 0);
    if (end == s || *end)
        return false;
    *out = v;
    return true;
}

/* ---------- shared arrays ---------- */

/* The element type of a (multi-dimensional) array type. */
static CXType elem_type(CXType e)
{
    while (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray || e.kind == CXType_DependentSizedArray ||
           e.kind == CXType_VariableArray)
        e = clang_getArrayElementType(e);
    return e;
}

/* The bankscope name of a scalar or CUDA vector type, or NULL. */
static const char *builtin_name(CXType t, char *buf, size_t n)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Bool: return "bool";
    case CXType_Char_S:
    case CXType_SChar: return "char";
    case CXType_Char_U:
    case CXType_UChar: return "unsigned char";
    case CXType_Short: return "short";
    case CXType_UShort: return "unsigned short";
    case CXType_Int: return "int";
    case CXType_UInt: return "unsigned int";
    case CXType_Long: return "long";
    case CXType_ULong: return "unsigned long";
    case CXType_LongLong: return "long long";
    case CXType_ULongLong: return "unsigned long long";
    case CXType_Float: return "float";
    case CXType_Double: return "double";
    case CXType_Record: {
        char *s = type_spell(t);
        const char *p = s;
        for (bool more = true; more;) {
            more = false;
            static const char *const prefixes[] = {"const ", "volatile ", "struct ", NULL};
            for (int i = 0; prefixes[i]; i++)
                if (strncmp(p, prefixes[i], strlen(prefixes[i])) == 0) {
                    p += strlen(prefixes[i]);
                    more = true;
                }
        }
        types_builtin b;
        bool ok = types_builtin_find(p, &b);
        /* only the prelude's vector types are builtins; a user struct named like one is not */
        CXSourceLocation loc = clang_getCursorLocation(clang_getTypeDeclaration(t));
        ok = ok && clang_Location_isInSystemHeader(loc);
        if (ok)
            snprintf(buf, n, "%s", b.name);
        free(s);
        return ok ? buf : NULL;
    }
    default: return NULL;
    }
}

typedef struct field_ctx {
    W *w;
    cJSON *fields;
    cJSON *structs;
    const char *why;
} field_ctx;

static const char *struct_emit(W *w, CXType t, cJSON *structs, char *name_out, size_t n);

/* Describe one field of a struct for the scenario ("TYPE NAME" or with [N]). */
static enum CXVisitorResult field_visit(CXCursor c, CXClientData d)
{
    field_ctx *fc = d;
    CXType t = clang_getCursorType(c);
    int64_t count = 1;
    if (t.kind == CXType_ConstantArray) {
        count = clang_getArraySize(t);
        t = clang_getArrayElementType(t);
    }
    char buf[64], sbuf[64];
    const char *tn = builtin_name(t, buf, sizeof buf);
    if (!tn && clang_getCanonicalType(t).kind == CXType_Record)
        tn = struct_emit(fc->w, t, fc->structs, sbuf, sizeof sbuf);
    char *fname = spell(c);
    if (!tn || clang_Cursor_isBitField(c) || !*fname || t.kind == CXType_ConstantArray) {
        fc->why = "a struct field whose type bankscope does not model (pointer, bit-field, union, array of arrays)";
        free(fname);
        return CXVisit_Break;
    }
    char *decl = count > 1 ? fmt("%s %s[%lld]", tn, fname, (long long)count) : fmt("%s %s", tn, fname);
    cJSON_AddItemToArray(fc->fields, cJSON_CreateString(decl));
    free(decl);
    free(fname);
    return CXVisit_Continue;
}

/* Add struct t (and the structs it contains, first) to structs; its name, or NULL. */
static const char *struct_emit(W *w, CXType t, cJSON *structs, char *name_out, size_t n)
{
    t = clang_getCanonicalType(t);
    CXCursor decl = clang_getTypeDeclaration(t);
    if (clang_getCursorKind(decl) != CXCursor_StructDecl && clang_getCursorKind(decl) != CXCursor_ClassDecl)
        return NULL;
    char *nm = spell(decl);
    if (!*nm) {
        free(nm);
        return NULL;
    }
    snprintf(name_out, n, "%s", nm);
    free(nm);
    for (cJSON *s = structs->child; s; s = s->next)
        if (strcmp(cJSON_GetObjectItem(s, "name")->valuestring, name_out) == 0)
            return name_out;
    field_ctx fc = {w, cJSON_CreateArray(), structs, NULL};
    clang_Type_visitFields(t, field_visit, &fc);
    if (fc.why || !fc.fields->child) {
        cJSON_Delete(fc.fields);
        return NULL;
    }
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "name", name_out);
    cJSON_AddItemToObject(s, "fields", fc.fields);
    if (has_attr(decl, CXCursor_AlignedAttr))
        cJSON_AddNumberToObject(s, "align", (double)clang_Type_getAlignOf(t));
    cJSON_AddItemToArray(structs, s);
    return name_out;
}

static const ixpr *tr(W *w, CXCursor c);

typedef struct expr_list {
    CXCursor c[8];
    unsigned off[8];
    int n;
} expr_list;

static enum CXChildVisitResult dim_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    expr_list *l = d;
    if (clang_isExpression(clang_getCursorKind(c)) && l->n < 8) {
        int line, col;
        where(c, &line, &col, &l->off[l->n]);
        l->c[l->n++] = c;
    }
    return CXChildVisit_Continue;
}

/* Register the shared array declared by decl; its index. */
static int array_add(W *w, CXCursor decl)
{
    for (int i = 0; i < w->narrays; i++)
        if (clang_equalCursors(w->arrays[i].decl, decl))
            return i;
    w->arrays = xrealloc(w->arrays, (size_t)(w->narrays + 1) * sizeof *w->arrays);
    warray *a = &w->arrays[w->narrays];
    memset(a, 0, sizeof *a);
    a->decl = decl;
    a->name = spell(decl);
    CXType t = clang_getCursorType(decl);
    int nd = 0;
    bool dependent = false, incomplete = false;
    CXType e = t;
    while (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray || e.kind == CXType_DependentSizedArray ||
           e.kind == CXType_VariableArray) {
        if (nd < 3) {
            if (e.kind == CXType_ConstantArray)
                a->dims[nd] = clang_getArraySize(e);
            dependent |= e.kind == CXType_DependentSizedArray;
            incomplete |= e.kind == CXType_IncompleteArray;
        }
        nd++;
        e = clang_getArrayElementType(e);
    }
    a->ndims = nd;
    if (nd == 0)
        a->why = "not an array (a __shared__ scalar)";
    else if (nd > 3)
        a->why = "more than 3 dimensions";
    if (!a->why && dependent) {
        /* sizes written with template parameters: translate the size expressions, in source order */
        expr_list l = {.n = 0};
        clang_visitChildren(decl, dim_visit, &l);
        for (int i = 0; i < l.n; i++)
            for (int j = i + 1; j < l.n; j++)
                if (l.off[j] < l.off[i]) {
                    CXCursor tc = l.c[i];
                    l.c[i] = l.c[j];
                    l.c[j] = tc;
                    unsigned to = l.off[i];
                    l.off[i] = l.off[j];
                    l.off[j] = to;
                }
        if (l.n != nd)
            a->why = "its sizes could not be read";
        for (int i = 0; i < l.n && !a->why; i++) {
            w->why[0] = '\0';
            const ixpr *v = tr(w, l.c[i]);
            if (!v || v->kind != IXPR_NUM)
                a->why = v ? "a size that is not a constant" : ixpr_strdup(&w->ar, w->why);
            else
                a->dims[i] = v->value;
        }
        w->why[0] = '\0';
    }
    if (!a->why && incomplete) {
        int64_t n = -1;
        const char *dv = define_value(w, a->name);
        char buf[64];
        const char *tn = builtin_name(e, buf, sizeof buf);
        int64_t es = clang_Type_getSizeOf(e);
        if (dv && !parse_i64(dv, &n))
            a->why = "its -D size is not a number";
        else if (!dv && w->o->smem_bytes >= 0 && es > 0)
            n = w->o->smem_bytes / es;
        if (!a->why && n < 1)
            a->why =
                ixpr_strdup(&w->ar, "extern __shared__ array without a size: give --smem BYTES or -D NAME=ELEMENTS");
        a->dims[0] = n;
        (void)tn;
    }
    char buf[64], sbuf[64];
    const char *tn = builtin_name(e, buf, sizeof buf);
    if (!tn && clang_getCanonicalType(e).kind == CXType_Unexposed) {
        /* a template type parameter: -D NAME=TYPE */
        char *tname = type_spell(e);
        const char *dv = define_value(w, tname);
        types_builtin b;
        if (dv && types_builtin_find(dv, &b))
            tn = snprintf(buf, sizeof buf, "%s", b.name) > 0 ? buf : NULL;
        else if (!a->why)
            a->why =
                ixpr_strdup(&w->ar, "its element type is a template parameter: give -D TYPE=float (or another type)");
        free(tname);
    }
    if (!tn && !a->why) {
        cJSON *tmp = cJSON_CreateArray();
        tn = struct_emit(w, e, tmp, sbuf, sizeof sbuf);
        cJSON_Delete(tmp);
        a->is_struct = tn != NULL;
        if (!tn)
            a->why = "its element type is not a scalar, a CUDA vector type or a struct of them";
    }
    a->type = xstrdup(tn ? tn : "?");
    a->elem_size = clang_Type_getSizeOf(e);
    a->elem = clang_getCanonicalType(e);
    return w->narrays++;
}

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

static bool refers_to(CXCursor e, CXCursor var)
{
    e = strip(e);
    return clang_getCursorKind(e) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* Count the writes to (and address-of) var in a function body. */
static enum CXChildVisitResult mod_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    mod_ctx *m = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    bool hit = false;
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        const char *op = import_binary_op(c);
        kids ks = children(c);
        if (op && strchr(op, '=') && strcmp(op, "==") && strcmp(op, "!=") && strcmp(op, "<=") && strcmp(op, ">=") &&
            ks.n == 2 && refers_to(ks.c[0], m->var))
            hit = true;
    } else if (k == CXCursor_UnaryOperator) {
        const char *op = import_unary_op(c);
        kids ks = children(c);
        if (op && (!strcmp(op, "++") || !strcmp(op, "--") || !strcmp(op, "&")) && ks.n == 1 &&
            refers_to(ks.c[0], m->var))
            hit = true;
    }
    if (hit) {
        if (m->count++ == 0)
            m->first = c;
    }
    return CXChildVisit_Recurse;
}

/* How often var is written in the function that declares it. */
static int mod_count(CXCursor var, CXCursor *first)
{
    CXCursor fn = clang_getCursorSemanticParent(var);
    mod_ctx m = {var, 0, clang_getNullCursor()};
    clang_visitChildren(fn, mod_visit, &m);
    if (first)
        *first = m.first;
    return m.count;
}

static const ixpr *var_init(W *w, CXCursor decl)
{
    kids k = children(decl);
    for (int i = k.n - 1; i >= 0; i--)
        if (clang_isExpression(clang_getCursorKind(k.c[i])))
            return tr(w, k.c[i]);
    return NULL;
}

static const ixpr *decl_ref(W *w, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    char *name = spell(d);
    const ixpr *r = NULL;
    int bi = frame_find(w, d);
    const char *dv = define_value(w, name);
    int64_t v;
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (bi >= 0) {
        binding *b = &w->binds[bi];
        r = b->is_ptr ? fail(w, c, "'%s' is a pointer, not a number", name)
            : b->val  ? b->val
                      : fail(w, c, "'%s' is %s", name, b->why);
    } else if (dv) {
        r = parse_i64(dv, &v) ? ixpr_num(&w->ar, v) : fail(w, c, "-D %s=%s is not a whole number", name, dv);
    } else if (dk == CXCursor_EnumConstantDecl) {
        r = ixpr_num(&w->ar, clang_getEnumConstantDeclValue(d));
    } else if (dk == CXCursor_NonTypeTemplateParameter) {
        kids k = children(d);
        for (int i = 0; i < k.n && !r; i++)
            if (clang_isExpression(clang_getCursorKind(k.c[i])))
                r = tr(w, k.c[i]);
        if (!r)
            r = fail(w, c, "template parameter '%s' has no default: give -D %s=VALUE", name, name);
    } else if (dk == CXCursor_ParmDecl) {
        r = fail(w, c, "depends on the kernel parameter '%s' (give -D %s=VALUE)", name, name);
    } else if (dk == CXCursor_VarDecl) {
        CXType t = clang_getCursorType(d);
        bool local = clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit &&
                     clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_Namespace;
        CXCursor first;
        if (has_attr(d, CXCursor_CUDASharedAttr))
            r = fail(w, c, "data-dependent: reads the shared variable '%s'", name);
        else if (!local && !clang_isConstQualifiedType(t))
            r = fail(w, c, "reads the global variable '%s' (give -D %s=VALUE)", name, name);
        else if (mod_count(d, &first) > 0) {
            int l, cl;
            where(first, &l, &cl, NULL);
            r = fail(w, c, "'%s' changes at %d:%d, so its value here is not known", name, l, cl);
        } else {
            r = var_init(w, d);
            if (!r)
                fail(w, c, "the value of '%s' is not known", name);
        }
    } else {
        r = fail(w, c, "unknown value '%s'", name);
    }
    free(name);
    return r;
}

static const ixpr *member_ref(W *w, CXCursor c)
{
    kids k = children(c);
    char *m = spell(c);
    const ixpr *r = NULL;
    CXCursor base = k.n ? strip(k.c[0]) : c;
    char *bn = k.n && clang_getCursorKind(base) == CXCursor_DeclRefExpr ? spell(base) : xstrdup("");
    bool builtin = k.n && clang_getCursorKind(base) == CXCursor_DeclRefExpr &&
                   clang_Location_isInSystemHeader(clang_getCursorLocation(clang_getCursorReferenced(base)));
    char full[96];
    snprintf(full, sizeof full, "%s.%s", bn, m);
    const char *dv = define_value(w, full);
    int64_t v;
    if (builtin && (!strcmp(bn, "threadIdx") || !strcmp(bn, "blockDim")) && strlen(m) == 1 && strchr("xyz", m[0]))
        r = dv ? fail(w, c, "%s cannot be given with -D", full) : ixpr_var(&w->ar, full);
    else if (builtin && (!strcmp(bn, "blockIdx") || !strcmp(bn, "gridDim")))
        r = dv && parse_i64(dv, &v) ? ixpr_num(&w->ar, v)
                                    : fail(w, c, "%s: the analysis covers one block (give -D %s=N)", full, full);
    else
        r = fail(w, c, "reads the member '%s' of a value that is not known", m);
    free(m);
    free(bn);
    return r;
}

static const char *callee_name(CXCursor call, char *buf, size_t n)
{
    char *s = spell(call);
    snprintf(buf, n, "%s", s);
    free(s);
    return buf;
}

static bool is_device_fn(CXCursor fn)
{
    return clang_isCursorDefinition(fn) && !clang_Location_isInSystemHeader(clang_getCursorLocation(fn)) &&
           (has_attr(fn, CXCursor_CUDADeviceAttr) || has_attr(fn, CXCursor_CUDAGlobalAttr));
}

static bool bind_params(W *w, CXCursor call, CXCursor fn, int *saved);
static const ixpr *call_value(W *w, CXCursor c)
{
    char name[64];
    callee_name(c, name, sizeof name);
    int nargs = clang_Cursor_getNumArguments(c);
    if ((!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "umin") || !strcmp(name, "umax")) &&
        nargs == 2) {
        const ixpr *a = tr(w, clang_Cursor_getArgument(c, 0)), *b = a ? tr(w, clang_Cursor_getArgument(c, 1)) : NULL;
        return a && b ? ixpr_minmax(&w->ar, name[1] == 'a' || name[2] == 'a', a, b) : NULL;
    }
    if ((!strcmp(name, "__mul24") || !strcmp(name, "__umul24")) && nargs == 2) {
        const ixpr *a = tr(w, clang_Cursor_getArgument(c, 0)), *b = a ? tr(w, clang_Cursor_getArgument(c, 1)) : NULL;
        return a && b ? ixpr_binary(&w->ar, IXPR_MUL, a, b) : NULL;
    }
    CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (clang_Cursor_isNull(fn) || !is_device_fn(fn))
        return fail(w, c, "calls '%s', whose result is not known", name);
    /* a device function whose body is 'return EXPR;' is inlined */
    kids k = children(fn);
    CXCursor body = k.n ? k.c[k.n - 1] : fn;
    kids b = children(body);
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt || b.n != 1 ||
        clang_getCursorKind(b.c[0]) != CXCursor_ReturnStmt)
        return fail(w, c, "calls '%s', which is more than 'return EXPR;'", name);
    kids rk = children(b.c[0]);
    if (rk.n != 1 || w->ncalls >= MAX_INLINE)
        return fail(w, c, "calls '%s', which cannot be inlined", name);
    int saved;
    if (!bind_params(w, c, fn, &saved))
        return NULL;
    w->calls[w->ncalls++] = fn;
    const ixpr *r = tr(w, rk.c[0]);
    w->ncalls--;
    w->nbinds = saved;
    return r;
}

/* Translate a value expression. NULL with w->why set when it cannot be expressed. */
static const ixpr *tr(W *w, CXCursor c)
{
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        return fail(w, c, "expression nested too deeply");
    }
    const ixpr *r = NULL;
    enum CXCursorKind k = clang_getCursorKind(c);
    kids ks = children(c);
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    if (t.kind == CXType_Float || t.kind == CXType_Double || t.kind == CXType_Half || t.kind == CXType_Float16) {
        r = fail(w, c, "floating-point value in an index");
        goto out;
    }
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr: {
        CXEvalResult ev = clang_Cursor_Evaluate(c);
        if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
            r = ixpr_num(&w->ar, clang_EvalResult_isUnsignedInt(ev) ? (int64_t)clang_EvalResult_getAsUnsigned(ev)
                                                                    : clang_EvalResult_getAsLongLong(ev));
        else
            r = fail(w, c, "a literal that is not an integer");
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
            r = tr(w, ks.c[ks.n - 1]);
        else if (k == CXCursor_UnexposedExpr && ks.n == 0 && !import_value_dependent(c)) {
            CXEvalResult ev = clang_Cursor_Evaluate(c);
            if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
                r = ixpr_num(&w->ar, clang_EvalResult_getAsLongLong(ev));
            if (ev)
                clang_EvalResult_dispose(ev);
        }
        if (!r)
            fail(w, c, "an expression bankscope cannot read");
        break;
    case CXCursor_DeclRefExpr: r = decl_ref(w, c); break;
    case CXCursor_MemberRefExpr: r = member_ref(w, c); break;
    case CXCursor_UnaryOperator: {
        const char *op = import_unary_op(c);
        ixpr_op o;
        if (op && !strcmp(op, "+") && ks.n == 1)
            r = tr(w, ks.c[0]);
        else if (op && ixpr_op_parse(op, true, &o) && ks.n == 1) {
            const ixpr *a = tr(w, ks.c[0]);
            r = a ? ixpr_unary(&w->ar, o, a) : NULL;
        } else if (op && !strcmp(op, "*"))
            r = fail(w, c, "data-dependent: reads memory through a pointer");
        else
            r = fail(w, c, "the operator '%s' in an index", op ? op : "?");
        break;
    }
    case CXCursor_BinaryOperator: {
        const char *op = import_binary_op(c);
        ixpr_op o;
        if (op && ixpr_op_parse(op, false, &o) && ks.n == 2) {
            const ixpr *a = tr(w, ks.c[0]);
            const ixpr *b = a ? tr(w, ks.c[1]) : NULL;
            r = b ? ixpr_binary(&w->ar, o, a, b) : NULL;
        } else
            r = fail(w, c, "the operator '%s' in an index", op ? op : "?");
        break;
    }
    case CXCursor_ConditionalOperator:
        if (ks.n == 3) {
            const ixpr *a = tr(w, ks.c[0]), *b = a ? tr(w, ks.c[1]) : NULL, *e = b ? tr(w, ks.c[2]) : NULL;
            r = e ? ixpr_cond(&w->ar, a, b, e) : NULL;
        }
        if (!r)
            fail(w, c, "a conditional expression bankscope cannot read");
        break;
    case CXCursor_CallExpr:
        if (ks.n == 1 && clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_FunctionDecl &&
            clang_getCursorKind(clang_getCursorReferenced(c)) != CXCursor_FunctionTemplate)
            r = tr(w, ks.c[0]); /* a constructor-style conversion */
        else
            r = call_value(w, c);
        break;
    case CXCursor_UnaryExpr:
        if (!import_value_dependent(c)) {
            CXEvalResult ev = clang_Cursor_Evaluate(c);
            if (ev && clang_EvalResult_getKind(ev) == CXEval_Int)
                r = ixpr_num(&w->ar, clang_EvalResult_getAsLongLong(ev));
            if (ev)
                clang_EvalResult_dispose(ev);
        }
        if (!r)
            fail(w, c, "a sizeof or alignof that depends on a template parameter");
        break;
    case CXCursor_ArraySubscriptExpr: r = fail(w, c, "data-dependent: reads memory"); break;
    default: r = fail(w, c, "an expression bankscope cannot read"); break;
    }
out:
    w->depth--;
    return r;
}

/* ---------- pointers into shared arrays ---------- */

static int access_of(W *w, CXCursor c, waccess *a);

/* Resolve a pointer (or array) expression: 1 and *p when it points into a shared array, 0 when
 * it does not, -1 when it does but cannot be followed (w->why says why). */
static int ptr_of(W *w, CXCursor c, pbind *p)
{
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        fail(w, c, "expression nested too deeply");
        return -1;
    }
    int r = 0;
    enum CXCursorKind k = clang_getCursorKind(c);
    kids ks = children(c);
    switch (k) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXReinterpretCastExpr:
    case CXCursor_CXXConstCastExpr: {
        if (ks.n < 1)
            break;
        r = ptr_of(w, ks.c[ks.n - 1], p);
        CXType to = clang_getCanonicalType(clang_getCursorType(c));
        if (r != 1 || to.kind != CXType_Pointer)
            break;
        CXType pt = clang_getCanonicalType(clang_getPointeeType(to));
        if (pt.kind == CXType_Void || pt.kind == CXType_ConstantArray || pt.kind == CXType_DependentSizedArray)
            break; /* void *, or a multi-dimensional array decaying to a row pointer */
        char buf[64];
        const char *tn = builtin_name(pt, buf, sizeof buf);
        const warray *arr = &w->arrays[p->array];
        int64_t size = clang_Type_getSizeOf(pt);
        if (p->vector ? tn && strcmp(tn, p->vector) == 0 : clang_equalTypes(pt, arr->elem))
            break;
        if (!tn || size < arr->elem_size || size % arr->elem_size != 0 || arr->is_struct || p->vector) {
            char *ts = type_spell(pt);
            fail(w, c, "reinterprets '%s' as '%s' (only as a wider scalar or vector type)", arr->name, ts);
            free(ts);
            r = -1;
            break;
        }
        p->vector = ixpr_strdup(&w->ar, tn);
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
            } else if (!w->binds[bi].val && w->binds[bi].why && strstr(w->binds[bi].why, "pointer")) {
                char *n = spell(d);
                fail(w, c, "'%s' is %s", n, w->binds[bi].why);
                free(n);
                r = -1;
            }
            break;
        }
        if (clang_getCursorKind(d) != CXCursor_VarDecl)
            break;
        if (has_attr(d, CXCursor_CUDASharedAttr)) {
            int ai = array_add(w, d);
            memset(p, 0, sizeof *p);
            p->array = ai;
            p->off = ixpr_num(&w->ar, 0);
            p->ratio = 1;
            r = 1;
            break;
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(d));
        if (t.kind != CXType_Pointer)
            break;
        kids dk = children(d);
        CXCursor init = clang_getNullCursor();
        for (int i = 0; i < dk.n; i++)
            if (clang_isExpression(clang_getCursorKind(dk.c[i])))
                init = dk.c[i];
        if (clang_Cursor_isNull(init))
            break;
        r = ptr_of(w, init, p);
        CXCursor first;
        if (r == 1 && mod_count(d, &first) > 0) {
            char *n = spell(d);
            int l, cl;
            where(first, &l, &cl, NULL);
            fail(w, c, "the pointer '%s' into a shared array changes at %d:%d", n, l, cl);
            free(n);
            r = -1;
        }
        break;
    }
    case CXCursor_ArraySubscriptExpr: {
        /* a row of a multi-dimensional array: tile[y] */
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        if (t.kind != CXType_ConstantArray && t.kind != CXType_DependentSizedArray && t.kind != CXType_IncompleteArray)
            break;
        if (ks.n != 2 || (r = ptr_of(w, ks.c[0], p)) != 1)
            break;
        const ixpr *i = tr(w, ks.c[1]);
        if (!i || p->nfixed >= 2 || p->vector || !(p->off->kind == IXPR_NUM && p->off->value == 0)) {
            if (i)
                fail(w, c, "a row pointer bankscope cannot follow");
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
        r = access_of(w, ks.c[0], &a);
        if (r != 1)
            break;
        if (a.field || a.vector) {
            fail(w, c, "a pointer to a struct field or through a reinterpretation");
            free(a.field);
            free(a.vector);
            r = -1;
            break;
        }
        memset(p, 0, sizeof *p);
        p->array = a.array;
        p->nfixed = a.nidx - 1;
        for (int i = 0; i < a.nidx - 1; i++)
            p->fixed[i] = a.idx[i];
        p->off = a.idx[a.nidx - 1];
        p->ratio = 1;
        break;
    }
    case CXCursor_BinaryOperator: {
        const char *op = import_binary_op(c);
        if (!op || (strcmp(op, "+") && strcmp(op, "-")) || ks.n != 2)
            break;
        int pi = clang_getCanonicalType(clang_getCursorType(strip(ks.c[0]))).kind == CXType_Pointer ||
                         clang_getCanonicalType(clang_getCursorType(strip(ks.c[0]))).kind == CXType_ConstantArray ||
                         clang_getCanonicalType(clang_getCursorType(strip(ks.c[0]))).kind == CXType_IncompleteArray
                     ? 0
                     : 1;
        if ((r = ptr_of(w, ks.c[pi], p)) != 1)
            break;
        const ixpr *n = tr(w, ks.c[1 - pi]);
        if (!n || (op[0] == '-' && pi == 1)) {
            r = -1;
            break;
        }
        n = ixpr_binary(&w->ar, IXPR_MUL, n, ixpr_num(&w->ar, p->ratio));
        p->off = ixpr_binary(&w->ar, op[0] == '+' ? IXPR_ADD : IXPR_SUB, p->off, n);
        break;
    }
    default: break;
    }
    w->depth--;
    return r;
}

/* An element of a shared array: 1 with *a filled (array, indexes, field, vector), 0 when c is
 * not one, -1 when it is but cannot be expressed. */
static int access_of(W *w, CXCursor c, waccess *a)
{
    c = strip(c);
    enum CXCursorKind k = clang_getCursorKind(c);
    kids ks = children(c);
    if (k == CXCursor_MemberRefExpr && ks.n == 1) {
        int r = access_of(w, ks.c[0], a);
        if (r != 1) {
            /* p->x through a pointer */
            pbind p;
            if (r == 0 && clang_getCanonicalType(clang_getCursorType(strip(ks.c[0]))).kind == CXType_Pointer &&
                (r = ptr_of(w, ks.c[0], &p)) == 1) {
                memset(a, 0, sizeof *a);
                a->array = p.array;
                a->nidx = p.nfixed + 1;
                for (int i = 0; i < p.nfixed; i++)
                    a->idx[i] = p.fixed[i];
                a->idx[p.nfixed] = p.off;
                if (p.vector) {
                    fail(w, c, "a field of a reinterpreted element");
                    return -1;
                }
            } else
                return r;
        }
        char *m = spell(c);
        char *f = a->field ? fmt("%s.%s", a->field, m) : xstrdup(m);
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
        int r = ptr_of(w, ks.c[0], &p);
        if (r == 0) {
            /* an array field of an element: p[i].c[2] */
            waccess inner;
            memset(&inner, 0, sizeof inner);
            int ri = access_of(w, ks.c[0], &inner);
            if (ri != 1)
                return ri;
            const ixpr *i = tr(w, ks.c[1]);
            if (!i || i->kind != IXPR_NUM) {
                if (i)
                    fail(w, c, "an index into a struct's array field that is not a constant");
                free(inner.field);
                free(inner.vector);
                return -1;
            }
            *a = inner;
            char *f = fmt("%s[%lld]", inner.field ? inner.field : "", (long long)i->value);
            free(a->field);
            a->field = f;
            return 1;
        }
        if (r < 0)
            return -1;
        const warray *arr = &w->arrays[p.array];
        if (p.nfixed != arr->ndims - 1) {
            fail(w, c, "indexes '%s' with fewer subscripts than its dimensions", arr->name);
            return -1;
        }
        const ixpr *i = tr(w, ks.c[1]);
        if (!i)
            return -1;
        memset(a, 0, sizeof *a);
        a->array = p.array;
        a->nidx = arr->ndims;
        for (int d = 0; d < p.nfixed; d++)
            a->idx[d] = p.fixed[d];
        a->idx[p.nfixed] =
            ixpr_binary(&w->ar, IXPR_ADD, p.off, ixpr_binary(&w->ar, IXPR_MUL, i, ixpr_num(&w->ar, p.ratio)));
        a->vector = p.vector ? xstrdup(p.vector) : NULL;
        return 1;
    }
    if (k == CXCursor_UnaryOperator && ks.n == 1) {
        const char *op = import_unary_op(c);
        if (!op || strcmp(op, "*"))
            return 0;
        pbind p;
        int r = ptr_of(w, ks.c[0], &p);
        if (r != 1)
            return r;
        const warray *arr = &w->arrays[p.array];
        if (p.nfixed != arr->ndims - 1) {
            fail(w, c, "dereferences '%s' as a row", arr->name);
            return -1;
        }
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

/* ---------- accesses ---------- */

static const char *op_name(int op)
{
    return op == 0 ? "load" : op == 1 ? "store" : "atomic";
}

static void skip_at(W *w, CXCursor c, int op, const char *array, const char *why)
{
    if (!why || !*why)
        why = "cannot be expressed";
    int line, col;
    where(c, &line, &col, NULL);
    add_skip(w, line, col, fmt("%s:%d:%d: skipped %s of '%s': %s", w->file_base, line, col, op_name(op), array, why));
}

/* Record access a (filled by access_of) at c, or skip it when its context cannot be expressed. */
static void emit(W *w, CXCursor c, int op, const waccess *a, const char *atomic)
{
    const warray *arr = &w->arrays[a->array];
    if (arr->why) {
        char *m = fmt("the array cannot be imported: %s", arr->why);
        skip_at(w, c, op, arr->name, m);
        free(m);
        return;
    }
    if (w->loop_why) {
        skip_at(w, c, op, arr->name, w->loop_why);
        return;
    }
    if (w->guard_why) {
        skip_at(w, c, op, arr->name, w->guard_why);
        return;
    }
    if (op == 2) {
        char *m = fmt("%s: the scenario format has no atomic operations", atomic);
        skip_at(w, c, op, arr->name, m);
        free(m);
        return;
    }
    w->acc = xrealloc(w->acc, (size_t)(w->nacc + 1) * sizeof *w->acc);
    waccess *n = &w->acc[w->nacc++];
    *n = *a;
    n->op = op;
    n->field = a->field ? xstrdup(a->field) : NULL;
    n->vector = a->vector ? xstrdup(a->vector) : NULL;
    n->atomic = atomic ? xstrdup(atomic) : NULL;
    n->when = w->guard;
    where(c, &n->line, &n->col, &n->offset);
    n->label = fmt("%s:%d:%d", w->file_base, n->line, n->col);
    n->nloops = w->nlstack;
    memcpy(n->loops, w->lstack, sizeof n->loops);
}

static void walk_expr(W *w, CXCursor c);
static void walk_stmt(W *w, CXCursor c);

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
        CXType t = clang_getCanonicalType(clang_getCursorType(r));
        if (has_attr(r, CXCursor_CUDASharedAttr) || t.kind == CXType_Pointer) {
            f->name = spell(r);
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

/* Walk the index expressions inside an lvalue chain (their loads happen too). */
static void walk_sub(W *w, CXCursor c)
{
    c = strip(c);
    kids ks = children(c);
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

/* An lvalue that is read and/or written (ops: bit 0 load, bit 1 store, in that order). */
static bool walk_lvalue(W *w, CXCursor c, int ops)
{
    waccess a;
    memset(&a, 0, sizeof a);
    w->why[0] = '\0';
    int r = access_of(w, c, &a);
    if (r == 0)
        return false;
    char why[sizeof w->why];
    memcpy(why, w->why, sizeof why);
    walk_sub(w, c);
    if (r < 0) {
        char *arr = shared_name(w, c);
        if (ops & 1)
            skip_at(w, c, 0, arr, why);
        if (ops & 2)
            skip_at(w, c, 1, arr, why);
        free(arr);
    } else {
        if (ops & 1)
            emit(w, c, 0, &a, NULL);
        if (ops & 2)
            emit(w, c, 1, &a, NULL);
    }
    free(a.field);
    free(a.vector);
    return true;
}

/* Bind fn's parameters to the arguments of call; *saved restores the bindings. */
static bool bind_params(W *w, CXCursor call, CXCursor fn, int *saved)
{
    *saved = w->nbinds;
    int n = clang_Cursor_getNumArguments(fn);
    if (n != clang_Cursor_getNumArguments(call)) {
        fail(w, call, "a call with default arguments");
        return false;
    }
    for (int i = 0; i < n; i++) {
        CXCursor parm = clang_Cursor_getArgument(fn, (unsigned)i), arg = clang_Cursor_getArgument(call, (unsigned)i);
        binding b;
        memset(&b, 0, sizeof b);
        b.decl = parm;
        CXType t = clang_getCanonicalType(clang_getCursorType(parm));
        char saved_why[sizeof w->why];
        memcpy(saved_why, w->why, sizeof saved_why);
        w->why[0] = '\0';
        if (t.kind == CXType_Pointer) {
            int r = ptr_of(w, arg, &b.ptr);
            b.is_ptr = r == 1;
            b.why = r < 0 ? ixpr_strdup(&w->ar, w->why) : "a pointer that is not into a shared array";
        } else if (t.kind == CXType_LValueReference) {
            b.why = "a reference parameter";
        } else {
            b.val = tr(w, arg);
            if (!b.val)
                b.why = ixpr_strdup(&w->ar, w->why);
        }
        memcpy(w->why, saved_why, sizeof saved_why);
        w->binds = xrealloc(w->binds, (size_t)(w->nbinds + 1) * sizeof *w->binds);
        w->binds[w->nbinds++] = b;
    }
    return true;
}

static const char *atomic_names[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicAnd",
                                     "atomicOr",  "atomicXor", "atomicCAS",  "atomicInc", "atomicDec", NULL};

static void walk_call(W *w, CXCursor c)
{
    char name[64];
    callee_name(c, name, sizeof name);
    int nargs = clang_Cursor_getNumArguments(c);
    for (int i = 0; atomic_names[i]; i++)
        if (!strcmp(name, atomic_names[i]) && nargs >= 2) {
            pbind p;
            w->why[0] = '\0';
            int r = ptr_of(w, clang_Cursor_getArgument(c, 0), &p);
            char why[sizeof w->why];
            memcpy(why, w->why, sizeof why);
            for (int j = 1; j < nargs; j++)
                walk_expr(w, clang_Cursor_getArgument(c, (unsigned)j));
            walk_expr(w, clang_Cursor_getArgument(c, 0));
            char *arr = shared_name(w, clang_Cursor_getArgument(c, 0));
            if (r < 0)
                skip_at(w, c, 2, arr, why);
            free(arr);
            if (r == 1) {
                waccess a;
                memset(&a, 0, sizeof a);
                a.array = p.array;
                a.nidx = p.nfixed + 1;
                for (int d = 0; d < p.nfixed; d++)
                    a.idx[d] = p.fixed[d];
                a.idx[p.nfixed] = p.off;
                emit(w, c, 2, &a, name);
            }
            return;
        }
    for (int i = 0; i < nargs; i++)
        walk_expr(w, clang_Cursor_getArgument(c, (unsigned)i));
    CXCursor fn = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (clang_Cursor_isNull(fn) || !is_device_fn(fn))
        return;
    for (int i = 0; i < w->ncalls; i++)
        if (clang_equalCursors(w->calls[i], fn))
            return; /* recursion: not followed */
    if (w->ncalls >= MAX_INLINE)
        return;
    int saved;
    w->why[0] = '\0';
    if (!bind_params(w, c, fn, &saved))
        return;
    w->calls[w->ncalls++] = fn;
    kids k = children(fn);
    if (k.n && clang_getCursorKind(k.c[k.n - 1]) == CXCursor_CompoundStmt)
        walk_stmt(w, k.c[k.n - 1]);
    w->ncalls--;
    w->nbinds = saved;
}

static void walk_expr(W *w, CXCursor c)
{
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    kids ks = children(c);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator) {
        const char *op = import_binary_op(c);
        if (op && ks.n == 2 && !strcmp(op, "=")) {
            walk_expr(w, ks.c[1]);
            if (!walk_lvalue(w, ks.c[0], 2))
                walk_expr(w, ks.c[0]);
            goto out;
        }
        if (op && ks.n == 2 && k == CXCursor_CompoundAssignOperator) {
            waccess a;
            memset(&a, 0, sizeof a);
            w->why[0] = '\0';
            int r = access_of(w, ks.c[0], &a);
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
                skip_at(w, ks.c[0], 0, arr, why);
                walk_expr(w, ks.c[1]);
                skip_at(w, ks.c[0], 1, arr, why);
                free(arr);
            } else {
                emit(w, ks.c[0], 0, &a, NULL);
                walk_expr(w, ks.c[1]);
                emit(w, ks.c[0], 1, &a, NULL);
            }
            free(a.field);
            free(a.vector);
            goto out;
        }
    }
    if (k == CXCursor_UnaryOperator && ks.n == 1) {
        const char *op = import_unary_op(c);
        if (op && (!strcmp(op, "++") || !strcmp(op, "--"))) {
            if (!walk_lvalue(w, ks.c[0], 3))
                walk_expr(w, ks.c[0]);
            goto out;
        }
        if (op && !strcmp(op, "&")) {
            waccess a;
            memset(&a, 0, sizeof a);
            if (access_of(w, ks.c[0], &a) != 0) {
                walk_sub(w, ks.c[0]); /* the address is taken: no access here */
                free(a.field);
                free(a.vector);
                goto out;
            }
        }
    }
    if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(c) >= 0 &&
        clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FunctionDecl) {
        walk_call(w, c);
        goto out;
    }
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr ||
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

/* ---------- statements ---------- */

static void push_guard(W *w, CXCursor cond, bool negate, const ixpr **saved, const char **saved_why)
{
    *saved = w->guard;
    *saved_why = w->guard_why;
    if (w->guard_why)
        return;
    w->why[0] = '\0';
    const ixpr *g = tr(w, cond);
    if (!g) {
        int l, cl;
        where(cond, &l, &cl, NULL);
        w->guard_why = ixpr_strdup(&w->ar, "");
        char *m = fmt("under the condition at %d:%d, which cannot be expressed: %s", l, cl, w->why);
        w->guard_why = ixpr_strdup(&w->ar, m);
        free(m);
        return;
    }
    if (negate)
        g = ixpr_unary(&w->ar, IXPR_LNOT, g);
    w->guard = w->guard ? ixpr_binary(&w->ar, IXPR_LAND, w->guard, g) : g;
}

static enum CXChildVisitResult find_exit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    CXCursor *found = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_SwitchStmt ||
        k == CXCursor_LambdaExpr)
        return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt ? CXChildVisit_Continue
                                                                                        : CXChildVisit_Continue;
    if (k == CXCursor_BreakStmt || k == CXCursor_ContinueStmt || k == CXCursor_ReturnStmt || k == CXCursor_GotoStmt) {
        *found = c;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
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

/* A uniform constant: an expression without per-thread values, evaluated for the block. */
static bool uniform(W *w, CXCursor c, int64_t *out)
{
    w->why[0] = '\0';
    const ixpr *e = tr(w, c);
    if (!e)
        return false;
    ixpr_env env = {.n = 0};
    static const char *const dims[] = {"blockDim.x", "blockDim.y", "blockDim.z"};
    for (int d = 0; d < 3; d++) {
        env.names[env.n] = dims[d];
        env.values[env.n++] = w->o->block[d] > 0 ? w->o->block[d] : 1;
    }
    env.names[env.n] = "warpSize";
    env.values[env.n++] = 32;
    if (!ixpr_eval(e, &env, out)) {
        fail(w, c, "%s", ixpr_uses_thread(e) ? "depends on the thread" : "not a constant");
        return false;
    }
    return true;
}

/* The smallest value of e over the threads of the block. */
static bool thread_min(W *w, const ixpr *e, int64_t *out)
{
    const int *b = w->o->block;
    int bx = b[0] > 0 ? b[0] : 1, by = b[1] > 0 ? b[1] : 1, bz = b[2] > 0 ? b[2] : 1;
    bool any = false;
    for (int t = 0; t < bx * by * bz; t++) {
        ixpr_env env = {.n = 0};
        static const char *const names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y",
                                            "blockDim.z",  "warpSize",    "tid",         "lane",       "warp"};
        int64_t vals[] = {t % bx, t / bx % by, t / (bx * by), bx, by, bz, 32, t, t % 32, t / 32};
        for (int i = 0; i < 10; i++) {
            env.names[env.n] = names[i];
            env.values[env.n++] = vals[i];
        }
        int64_t v;
        if (!ixpr_eval(e, &env, &v))
            return false;
        if (!any || v < *out)
            *out = v;
        any = true;
    }
    return any;
}

/* Read a for statement as a simple loop; NULL reason and *L filled, or why it is not one. */
static const char *simple_for(W *w, CXCursor c, wloop *L, CXCursor *var, CXCursor *body)
{
    kids ks = children(c);
    if (ks.n != 4)
        return "a for loop without an initialisation, a condition or an increment";
    *body = ks.c[3];
    CXCursor init = ks.c[0], cond = strip(ks.c[1]), inc = strip(ks.c[2]);
    CXCursor from_e;
    int assigns = 0;
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        kids dk = children(init);
        if (dk.n != 1 || clang_getCursorKind(dk.c[0]) != CXCursor_VarDecl)
            return "a for loop that declares several variables";
        *var = dk.c[0];
        kids vk = children(*var);
        if (vk.n < 1 || !clang_isExpression(clang_getCursorKind(vk.c[vk.n - 1])))
            return "a loop variable without a start value";
        from_e = vk.c[vk.n - 1];
    } else {
        kids ik = children(strip(init));
        const char *op = import_binary_op(strip(init));
        if (!op || strcmp(op, "=") || ik.n != 2 || clang_getCursorKind(strip(ik.c[0])) != CXCursor_DeclRefExpr)
            return "a for loop whose start is not 'v = start'";
        *var = clang_getCursorReferenced(strip(ik.c[0]));
        from_e = ik.c[1];
        assigns = 1;
    }
    CXType vt = clang_getCanonicalType(clang_getCursorType(*var));
    if (vt.kind == CXType_Float || vt.kind == CXType_Double || vt.kind == CXType_Pointer)
        return "a loop variable that is not an integer";
    /* condition: v OP bound, or bound OP v */
    const char *cop = import_binary_op(cond);
    kids ck = children(cond);
    if (!cop || ck.n != 2)
        return "a loop condition that is not a comparison";
    CXCursor bound_e;
    char opb[3];
    snprintf(opb, sizeof opb, "%s", cop);
    if (refers_to(ck.c[0], *var))
        bound_e = ck.c[1];
    else if (refers_to(ck.c[1], *var)) {
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
    int kind = 0;
    int64_t step = 0;
    const char *iop = import_unary_op(inc);
    const char *bop = import_binary_op(inc);
    kids nk = children(inc);
    if (iop && nk.n == 1 && refers_to(nk.c[0], *var) && (!strcmp(iop, "++") || !strcmp(iop, "--")))
        step = iop[0] == '+' ? 1 : -1;
    else if (bop && nk.n == 2 && refers_to(nk.c[0], *var)) {
        int64_t k;
        CXCursor ke = nk.c[1];
        if (!strcmp(bop, "=")) {
            /* v = v OP k */
            CXCursor rhs = strip(nk.c[1]);
            kids rk = children(rhs);
            const char *rop = import_binary_op(rhs);
            if (!rop || rk.n != 2 || !refers_to(rk.c[0], *var))
                return "a loop increment that is not 'v += k', 'v *= k', 'v /= k' or a shift";
            bop = rop;
            ke = rk.c[1];
            assigns++;
        }
        if (!uniform(w, ke, &k))
            return "a loop step that is not a constant";
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
    const ixpr *start = NULL;
    if (!uniform(w, from_e, &from)) {
        /* for (i = threadIdx.x; i < n; i += blockDim.x): counted by k, i = start + k * step */
        w->why[0] = '\0';
        start = tr(w, from_e);
        if (!start || !ixpr_uses_thread(start) || kind != 0 || step < 1)
            return "its start is not the same for every thread (or not known)";
        if (!thread_min(w, start, &from))
            return "its start cannot be evaluated for every thread";
    }
    if (!uniform(w, bound_e, &bound))
        return "its bound is not the same for every thread (or not known)";
    bool up = kind == 1 || (kind == 0 && step > 0);
    if (!strcmp(opb, "<=") || !strcmp(opb, ">="))
        bound += opb[0] == '<' ? 1 : -1;
    if ((up && opb[0] != '<' && strcmp(opb, "!=")) || (!up && opb[0] != '>' && strcmp(opb, "!=")))
        return "a loop whose condition and step go different ways";
    if (!strcmp(opb, "!=") && (kind != 0 || (bound - from) % step != 0))
        return "a '!=' loop condition that the step does not reach exactly";
    if (mod_count(*var, NULL) != 1 + assigns)
        return "the loop variable also changes inside the loop";
    CXCursor exit = clang_getNullCursor();
    clang_visitChildren(*body, find_exit, &exit);
    if (!clang_Cursor_isNull(exit))
        return "the loop has a break, continue or return";
    memset(L, 0, sizeof *L);
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
    }
    int n;
    if (!loop_count(L, &n))
        return "more than 4096 iterations (or it does not end)";
    if (n == 0)
        return "the loop never runs";
    return NULL;
}

static void walk_for(W *w, CXCursor c)
{
    wloop L;
    CXCursor var = clang_getNullCursor(), body = clang_getNullCursor();
    const char *why = w->nloops < MAX_LOOPS && w->nlstack < 8 ? simple_for(w, c, &L, &var, &body) : "too many loops";
    kids ks = children(c);
    int line, col;
    unsigned off;
    where(c, &line, &col, &off);
    if (why) {
        const char *saved = w->loop_why;
        if (!saved) {
            char *m = fmt("inside the loop at %d:%d, which is not a simple counted loop: %s", line, col, why);
            w->loop_why = ixpr_strdup(&w->ar, m);
            free(m);
        }
        for (int i = 0; i < ks.n; i++) {
            if (clang_isExpression(clang_getCursorKind(ks.c[i])))
                walk_expr(w, ks.c[i]);
            else
                walk_stmt(w, ks.c[i]);
        }
        w->loop_why = saved;
        return;
    }
    if (clang_getCursorKind(ks.c[0]) == CXCursor_DeclStmt) {
        kids dk = children(ks.c[0]);
        kids vk = children(dk.c[0]);
        walk_expr(w, vk.c[vk.n - 1]);
    } else
        walk_expr(w, ks.c[0]);
    CXSourceRange ext = clang_getCursorExtent(c);
    unsigned e_off = 0;
    clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &e_off);
    int id = w->nloops++;
    L.begin = off;
    L.end = e_off;
    L.line = line;
    L.parent = w->nlstack ? w->lstack[w->nlstack - 1] : -1;
    char vn[16];
    snprintf(vn, sizeof vn, "#L%d", id);
    L.var = ixpr_strdup(&w->ar, vn);
    L.user = spell(var);
    w->loops[id] = L;
    binding b;
    memset(&b, 0, sizeof b);
    b.decl = var;
    b.val = ixpr_var(&w->ar, vn);
    const ixpr *g0 = w->guard;
    if (L.start) {
        /* the thread's own value of the variable, and whether it is still in the loop */
        b.val =
            ixpr_binary(&w->ar, IXPR_ADD, L.start, ixpr_binary(&w->ar, IXPR_MUL, b.val, ixpr_num(&w->ar, L.stride)));
        const ixpr *in = ixpr_binary(&w->ar, IXPR_LT, b.val, ixpr_num(&w->ar, L.bound));
        w->guard = w->guard ? ixpr_binary(&w->ar, IXPR_LAND, w->guard, in) : in;
        char *u = fmt("%s_iter", w->loops[id].user);
        free(w->loops[id].user);
        w->loops[id].user = u;
    }
    w->binds = xrealloc(w->binds, (size_t)(w->nbinds + 1) * sizeof *w->binds);
    w->binds[w->nbinds++] = b;
    w->lstack[w->nlstack++] = id;
    walk_expr(w, ks.c[1]);
    walk_stmt(w, body);
    walk_expr(w, ks.c[2]);
    w->nlstack--;
    w->nbinds--;
    w->guard = g0;
}

static bool is_return(CXCursor s)
{
    if (clang_getCursorKind(s) == CXCursor_ReturnStmt)
        return children(s).n == 0;
    if (clang_getCursorKind(s) == CXCursor_CompoundStmt) {
        kids k = children(s);
        return k.n == 1 && is_return(k.c[0]);
    }
    return false;
}

typedef struct stmt_list {
    CXCursor *c;
    int n;
} stmt_list;

static enum CXChildVisitResult list_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    stmt_list *l = d;
    l->c = xrealloc(l->c, (size_t)(l->n + 1) * sizeof *l->c);
    l->c[l->n++] = c;
    return CXChildVisit_Continue;
}

static void walk_stmt(W *w, CXCursor c)
{
    if (++w->depth > MAX_DEPTH) {
        w->depth--;
        return;
    }
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isExpression(k)) {
        walk_expr(w, c);
        w->depth--;
        return;
    }
    switch (k) {
    case CXCursor_CompoundStmt: {
        stmt_list l = {NULL, 0};
        clang_visitChildren(c, list_visit, &l);
        const ixpr *g0 = w->guard;
        const char *gw0 = w->guard_why;
        for (int i = 0; i < l.n; i++) {
            walk_stmt(w, l.c[i]);
            /* if (cond) return; guards the rest of the block (outside loops only) */
            kids ik = children(l.c[i]);
            if (clang_getCursorKind(l.c[i]) == CXCursor_IfStmt && ik.n == 2 && is_return(ik.c[1]) && !w->nlstack) {
                const ixpr *s;
                const char *sw;
                push_guard(w, ik.c[0], true, &s, &sw);
            }
        }
        w->guard = g0;
        w->guard_why = gw0;
        free(l.c);
        break;
    }
    case CXCursor_DeclStmt: {
        kids ks = children(c);
        for (int i = 0; i < ks.n; i++) {
            kids vk = children(ks.c[i]);
            if (clang_getCursorKind(ks.c[i]) == CXCursor_VarDecl && vk.n &&
                clang_isExpression(clang_getCursorKind(vk.c[vk.n - 1])) && !has_attr(ks.c[i], CXCursor_CUDASharedAttr))
                walk_expr(w, vk.c[vk.n - 1]);
        }
        break;
    }
    case CXCursor_IfStmt: {
        kids ks = children(c);
        int ci = 0;
        while (ci < ks.n && !clang_isExpression(clang_getCursorKind(ks.c[ci])))
            ci++;
        if (ci >= ks.n)
            break;
        walk_expr(w, ks.c[ci]);
        const ixpr *s;
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
    case CXCursor_ForStmt: walk_for(w, c); break;
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_SwitchStmt: {
        const char *saved = w->loop_why, *gsaved = w->guard_why;
        int line, col;
        where(c, &line, &col, NULL);
        char *m = fmt("inside the %s at %d:%d, which bankscope cannot follow",
                      k == CXCursor_SwitchStmt ? "switch"
                      : k == CXCursor_DoStmt   ? "do-while loop"
                                               : "while loop",
                      line, col);
        if (k == CXCursor_SwitchStmt && !gsaved)
            w->guard_why = ixpr_strdup(&w->ar, m);
        else if (!saved)
            w->loop_why = ixpr_strdup(&w->ar, m);
        free(m);
        kids ks = children(c);
        for (int i = 0; i < ks.n; i++)
            walk_stmt(w, ks.c[i]);
        w->loop_why = saved;
        w->guard_why = gsaved;
        break;
    }
    default: {
        kids ks = children(c);
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
    if (clang_getCursorKind(c) == CXCursor_VarDecl && has_attr(c, CXCursor_CUDASharedAttr))
        array_add(d, c);
    return CXChildVisit_Recurse;
}

/* ---------- the scenario ---------- */

static const char *reserved[] = {"threadIdx", "blockDim", "tx",       "ty",  "tz",  "lane",
                                 "warp",      "tid",      "warpSize", "min", "max", NULL};

static int skip_cmp(const void *a, const void *b)
{
    const wskip *x = a, *y = b;
    return x->line != y->line ? x->line - y->line : x->col - y->col;
}

static bool ancestor(const W *w, int anc, int id)
{
    for (int p = id; p >= 0; p = w->loops[p].parent)
        if (p == anc)
            return true;
    return false;
}

/* Loops with the same values, neither inside the other, share the scenario's loop: the
 * scenario counts every access once per value, in whichever loop it is. */
static bool same_loop(const W *w, int a, int b)
{
    const wloop *x = &w->loops[a], *y = &w->loops[b];
    return a == b || (x->from == y->from && x->to == y->to && x->step == y->step && x->kind == y->kind &&
                      !ancestor(w, a, b) && !ancestor(w, b, a));
}

static bool in_loop(const W *w, const waccess *a, int id)
{
    for (int i = 0; i < a->nloops; i++)
        if (same_loop(w, a->loops[i], id))
            return true;
    return false;
}

/* Decide the scenario's loop and turn the accesses into JSON. */
static cJSON *build(W *w, cJSON *root)
{
    int chosen = -1;
    for (int i = 0; i < w->nacc && chosen < 0; i++) {
        const waccess *a = &w->acc[i];
        if (w->o->loop_line > 0) {
            for (int j = 0; j < a->nloops; j++)
                if (w->loops[a->loops[j]].line == w->o->loop_line)
                    chosen = a->loops[j];
        } else if (a->nloops)
            chosen = a->loops[a->nloops - 1];
    }
    const wloop *L = chosen >= 0 ? &w->loops[chosen] : NULL;
    const char *uname = NULL;
    if (L) {
        uname = L->user;
        for (int i = 0; reserved[i]; i++)
            if (!strcmp(uname, reserved[i]))
                uname = ixpr_strdup(&w->ar, "loop_var");
    }
    cJSON *accs = cJSON_CreateArray();
    int imported = 0;
    bool noted[MAX_LOOPS] = {false};
    for (int i = 0; i < w->nacc; i++) {
        waccess *a = &w->acc[i];
        const warray *arr = &w->arrays[a->array];
        const char *why = NULL;
        char buf[256];
        const ixpr *when = a->when;
        /* loop variables other than the chosen loop's cannot be expressed */
        for (int j = 0; j < a->nloops && !why; j++) {
            const wloop *M = &w->loops[a->loops[j]];
            bool uses = ixpr_uses(when, M->var);
            for (int d = 0; d < a->nidx; d++)
                uses |= ixpr_uses(a->idx[d], M->var);
            if (same_loop(w, a->loops[j], chosen)) {
                /* the loop's variable becomes the scenario's */
                const ixpr *v = ixpr_var(&w->ar, L->var);
                for (int d = 0; d < a->nidx; d++)
                    a->idx[d] = ixpr_subst(&w->ar, a->idx[d], M->var, v);
                when = ixpr_subst(&w->ar, when, M->var, v);
                continue;
            }
            if (uses) {
                snprintf(buf, sizeof buf,
                         "uses '%s' of the loop at line %d; the scenario has one loop, the one at line %d "
                         "(choose with --loop LINE)",
                         M->user, M->line, L ? L->line : 0);
                why = buf;
            } else if (!L || !in_loop(w, a, chosen)) {
                bool outer_of_chosen = false;
                for (int p = L ? L->parent : -1; p >= 0; p = w->loops[p].parent)
                    outer_of_chosen |= p == a->loops[j];
                if (!outer_of_chosen) {
                    snprintf(buf, sizeof buf,
                             "inside the loop at line %d; the scenario has one loop, the one at line %d "
                             "(choose with --loop LINE)",
                             M->line, L ? L->line : 0);
                    why = buf;
                }
            }
        }
        if (why) {
            add_skip(w, a->line, a->col, fmt("%s: skipped %s of '%s': %s", a->label, op_name(a->op), arr->name, why));
            continue;
        }
        if (L && !in_loop(w, a, chosen)) {
            /* before the loop: at its first iteration; after it: at its last */
            bool after = a->offset >= L->end;
            const ixpr *it =
                ixpr_binary(&w->ar, IXPR_EQ, ixpr_var(&w->ar, L->var), ixpr_num(&w->ar, after ? L->last : L->first));
            when = when ? ixpr_binary(&w->ar, IXPR_LAND, it, when) : it;
        }
        if (L && in_loop(w, a, chosen))
            for (int p = L->parent; p >= 0; p = w->loops[p].parent)
                if (!noted[p]) {
                    noted[p] = true;
                    add_skip(
                        w, w->loops[p].line, 1,
                        fmt("%s:%d: note: the outer loop over '%s' is not expanded: the scenario counts one of its "
                            "iterations",
                            w->file_base, w->loops[p].line, w->loops[p].user));
                }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "op", a->op == 1 ? "store" : "load");
        cJSON_AddStringToObject(o, "array", arr->name);
        strbuf sb = {0};
        if (a->nidx == 1) {
            ixpr_print(L ? ixpr_subst(&w->ar, a->idx[0], L->var, ixpr_var(&w->ar, uname)) : a->idx[0], &sb);
            cJSON_AddStringToObject(o, "index", strbuf_str(&sb));
        } else {
            cJSON *ix = cJSON_AddArrayToObject(o, "index");
            for (int d = 0; d < a->nidx; d++) {
                strbuf_clear(&sb);
                ixpr_print(L ? ixpr_subst(&w->ar, a->idx[d], L->var, ixpr_var(&w->ar, uname)) : a->idx[d], &sb);
                cJSON_AddItemToArray(ix, cJSON_CreateString(strbuf_str(&sb)));
            }
        }
        if (a->field)
            cJSON_AddStringToObject(o, "field", a->field);
        if (a->vector)
            cJSON_AddStringToObject(o, "vector", a->vector);
        if (when) {
            strbuf_clear(&sb);
            ixpr_print(L ? ixpr_subst(&w->ar, when, L->var, ixpr_var(&w->ar, uname)) : when, &sb);
            cJSON_AddStringToObject(o, "when", strbuf_str(&sb));
        }
        strbuf_free(&sb);
        cJSON_AddStringToObject(o, "label", a->label);
        cJSON_AddItemToArray(accs, o);
        imported++;
    }
    if (L) {
        cJSON *lp = cJSON_AddObjectToObject(root, "loop");
        cJSON_AddStringToObject(lp, "var", uname);
        cJSON_AddNumberToObject(lp, "from", (double)L->from);
        cJSON_AddNumberToObject(lp, "to", (double)L->to);
        cJSON_AddNumberToObject(lp, L->kind == 1 ? "mul" : L->kind == 2 ? "div" : "step", (double)L->step);
    }
    cJSON_AddItemToObject(root, "accesses", accs);
    return imported ? root : NULL;
}

cJSON *import_walk(CXTranslationUnit tu, CXCursor kernel, const import_options *o, int *status)
{
    W w;
    memset(&w, 0, sizeof w);
    w.tu = tu;
    w.o = o;
    w.kernel = kernel;
    w.file_base = base_name(o->file);
    clang_visitChildren(kernel, shared_visit, &w);
    kids ks = children(kernel);
    char *kname = spell(kernel);
    if (ks.n && clang_getCursorKind(ks.c[ks.n - 1]) == CXCursor_CompoundStmt)
        walk_stmt(&w, ks.c[ks.n - 1]);
    cJSON *root = cJSON_CreateObject();
    char *name = fmt("%s: %s", w.file_base, kname);
    cJSON_AddStringToObject(root, "name", name);
    free(name);
    char *desc = fmt("Imported from %s (kernel %s) by bankscope import.", w.file_base, kname);
    cJSON_AddStringToObject(root, "description", desc);
    free(desc);
    cJSON_AddStringToObject(root, "arch", "sm_90");
    cJSON *blk = cJSON_AddArrayToObject(root, "block");
    int nb = o->block[2] > 1 ? 3 : o->block[1] > 1 ? 2 : 1;
    for (int d = 0; d < nb; d++)
        cJSON_AddItemToArray(blk, cJSON_CreateNumber(o->block[d] > 0 ? o->block[d] : 1));
    cJSON *structs = cJSON_CreateArray();
    cJSON *arrays = cJSON_CreateArray();
    for (int i = 0; i < w.narrays; i++) {
        warray *a = &w.arrays[i];
        if (a->why) {
            int l, c;
            where(a->decl, &l, &c, NULL);
            bool used = false;
            for (int j = 0; j < w.nacc; j++)
                used |= w.acc[j].array == i;
            if (!used)
                add_skip(&w, l, c, fmt("%s:%d:%d: skipped the array '%s': %s", w.file_base, l, c, a->name, a->why));
            continue;
        }
        if (a->is_struct) {
            char sbuf[64];
            struct_emit(&w, elem_type(clang_getCursorType(a->decl)), structs, sbuf, sizeof sbuf);
        }
        cJSON *ao = cJSON_CreateObject();
        cJSON_AddStringToObject(ao, "name", a->name);
        cJSON_AddStringToObject(ao, "type", a->type);
        cJSON *dims = cJSON_AddArrayToObject(ao, "dims");
        for (int d = 0; d < a->ndims; d++)
            cJSON_AddItemToArray(dims, cJSON_CreateNumber((double)a->dims[d]));
        cJSON_AddItemToArray(arrays, ao);
    }
    if (structs->child)
        cJSON_AddItemToObject(root, "structs", structs);
    else
        cJSON_Delete(structs);
    cJSON_AddItemToObject(root, "arrays", arrays);
    *status = IMPORT_OK;
    bool no_access = false;
    if (!arrays->child) {
        fprintf(stderr, "%s: kernel '%s' has no __shared__ array that can be imported\n", o->file, kname);
        cJSON_Delete(root);
        root = NULL;
        *status = IMPORT_BAD_INPUT;
    } else if (!build(&w, root)) {
        no_access = true;
        cJSON_Delete(root);
        root = NULL;
        *status = IMPORT_BAD_INPUT;
    }
    qsort(w.skips, (size_t)w.nskips, sizeof *w.skips, skip_cmp);
    for (int i = 0; i < w.nskips; i++) {
        fprintf(stderr, "%s\n", w.skips[i].text);
        free(w.skips[i].text);
    }
    if (!root && w.narrays && w.nacc >= 0 && *status == IMPORT_BAD_INPUT && no_access)
        fprintf(stderr, "%s: no shared-memory access of kernel '%s' could be imported\n", o->file, kname);
    free(w.skips);
    for (int i = 0; i < w.nacc; i++) {
        free(w.acc[i].field);
        free(w.acc[i].vector);
        free(w.acc[i].atomic);
        free(w.acc[i].label);
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
    free(kname);
    ixpr_arena_free(&w.ar);
    return root;
}
