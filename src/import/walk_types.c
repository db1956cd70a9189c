/* walk_types: element types (C scalars, the prelude's CUDA vector types, the file's structs, written
 * out as the scenario's structs) and the kernel's shared arrays with their sizes (constant,
 * template-dependent or extern). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"
#include "model/types.h"

/* ---------- shared arrays ---------- */

typedef struct spec_find {
    CXCursor tmpl; /* the class template, or null: the template called name */
    const char *name;
    const char *const *args; /* its type arguments (bankscope names) */
    int nargs;
    CXCursor found; /* the explicit specialization for them */
} spec_find;

static enum CXChildVisitResult spec_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    spec_find *f = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_Namespace)
        return CXChildVisit_Recurse;
    CXCursor tmpl = k == CXCursor_StructDecl || k == CXCursor_ClassDecl ? clang_getSpecializedCursorTemplate(c)
                                                                        : clang_getNullCursor();
    if (clang_Cursor_isNull(tmpl) || !clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    bool match = true;
    if (clang_Cursor_isNull(f->tmpl)) {
        char *name = walk_spell(c);
        match = !strcmp(name, f->name);
        free(name);
    } else
        match = clang_equalCursors(tmpl, f->tmpl);
    CXType t = clang_getCursorType(c);
    match = match && clang_Type_getNumTemplateArguments(t) == f->nargs;
    for (int i = 0; match && i < f->nargs; i++) {
        char buf[64];
        const char *tn = walk_builtin_name(clang_Type_getTemplateArgumentAsType(t, (unsigned)i), buf, sizeof buf);
        match = tn && !strcmp(tn, f->args[i]);
    }
    if (!match)
        return CXChildVisit_Continue;
    f->found = c;
    return CXChildVisit_Break;
}

CXCursor walk_specialization(W *w, CXCursor tmpl, const char *name, const char *const *args, int nargs)
{
    spec_find f = {tmpl, name, args, nargs, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(w->tu), spec_visit, &f);
    return f.found;
}

/* A member type of a class template that depends on the kernel's type parameters, written
 * 'typename C<T>::Type': with T known (-D T=float, or the launches), the type the explicit
 * specialization for it names (template <> struct C<float> { typedef float4 Type; }), as
 * bankscope names it (in buf), or NULL. */
static const char *member_type(W *w, const char *s, char *buf, size_t n, int64_t *size)
{
    if (strncmp(s, "typename ", 9) != 0)
        return NULL;
    s += 9;
    const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
    if (!lt || !gt || strncmp(gt, ">::", 3) != 0 || memchr(lt + 1, '<', (size_t)(gt - lt - 1)))
        return NULL;
    const char *nm = lt;
    while (nm > s && nm[-1] != ':')
        nm--;
    char tmpl[64], member[64], args[4][64], rb[4][64];
    snprintf(tmpl, sizeof tmpl, "%.*s", (int)(lt - nm), nm);
    snprintf(member, sizeof member, "%s", gt + 3);
    const char *want[4];
    int nargs = 0;
    for (const char *p = lt + 1; p < gt && nargs < 4;) {
        const char *e = memchr(p, ',', (size_t)(gt - p));
        if (!e)
            e = gt;
        while (*p == ' ')
            p++;
        snprintf(args[nargs], sizeof args[nargs], "%.*s", (int)(e - p), p);
        const char *dv = walk_define(w, args[nargs]);
        if (!dv)
            dv = walk_launch_type(w, args[nargs]);
        types_builtin b;
        if (!types_builtin_find(dv ? dv : args[nargs], &b))
            return NULL;
        snprintf(rb[nargs], sizeof rb[nargs], "%s", b.name);
        want[nargs] = rb[nargs];
        nargs++;
        p = e + 1;
    }
    CXCursor spec = walk_specialization(w, clang_getNullCursor(), tmpl, want, nargs);
    walk_kids ks = clang_Cursor_isNull(spec) ? (walk_kids){NULL, 0} : walk_children(spec);
    CXType found = {0};
    bool ok = false;
    for (int i = 0; i < ks.n && !ok; i++) {
        enum CXCursorKind mk = clang_getCursorKind(ks.c[i]);
        char *mn = walk_spell(ks.c[i]);
        if ((mk == CXCursor_TypedefDecl || mk == CXCursor_TypeAliasDecl) && !strcmp(mn, member)) {
            found = clang_getTypedefDeclUnderlyingType(ks.c[i]);
            ok = true;
        }
        free(mn);
    }
    if (!ok)
        return NULL;
    const char *tn = walk_builtin_name(found, buf, n);
    if (tn)
        *size = clang_Type_getSizeOf(clang_getCanonicalType(found));
    return tn;
}

const char *walk_type_name(W *w, CXType t, char *buf, size_t n, int64_t *size)
{
    const char *tn = walk_builtin_name(t, buf, n);
    *size = clang_Type_getSizeOf(clang_getCanonicalType(t));
    if (tn || clang_getCanonicalType(t).kind != CXType_Unexposed)
        return tn;
    /* a template type parameter: -D NAME=TYPE */
    char *s = walk_type_spell(t);
    const char *p = s;
    while (!strncmp(p, "const ", 6) || !strncmp(p, "volatile ", 9))
        p += p[0] == 'c' ? 6 : 9;
    const char *dv = walk_define(w, p);
    for (int i = w->nbinds - 1; i >= 0 && !dv; i--) /* a type parameter of an inlined function */
        if (w->binds[i].tname) {
            char *o = walk_spell(w->binds[i].decl);
            if (!strcmp(o, p))
                dv = w->binds[i].tname;
            free(o);
        }
    if (!dv)
        dv = walk_launch_type(w, p); /* the type at the kernel's launches */
    types_builtin b;
    if (dv && types_builtin_find(dv, &b)) {
        snprintf(buf, n, "%s", b.name);
        *size = b.size;
        tn = buf;
    } else if (!dv)
        tn = member_type(w, p, buf, n, size);
    free(s);
    return tn;
}

typedef struct pack_scan {
    CXType elem; /* the one scalar type of every field so far (CXType_Invalid: none yet) */
    bool ok;
} pack_scan;

static enum CXVisitorResult pack_field(CXCursor f, CXClientData d)
{
    pack_scan *ps = d;
    CXType t = clang_getCanonicalType(clang_getCursorType(f));
    if (t.kind == CXType_ConstantArray)
        t = clang_getCanonicalType(clang_getArrayElementType(t));
    bool scalar = t.kind >= CXType_Bool && t.kind <= CXType_LongDouble;
    if (!scalar || (ps->elem.kind != CXType_Invalid && !clang_equalTypes(ps->elem, t))) {
        ps->ok = false;
        return CXVisit_Break;
    }
    ps->elem = t;
    return CXVisit_Continue;
}

/* A struct that only packs scalars of one type into 4, 8 or 16 bytes aligned to its size (as
 * llm.c's Packed128<float> does): the vector type of that width that the hardware moves it as
 * (float4 for four floats, int4 for eight halves), in buf; NULL for any other type. */
const char *walk_pack_name(CXType t, char *buf, size_t n)
{
    t = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(t), align = clang_Type_getAlignOf(t);
    if (t.kind != CXType_Record || (size != 4 && size != 8 && size != 16) || align != size)
        return NULL;
    pack_scan ps = {.elem = {.kind = CXType_Invalid}, .ok = true};
    clang_Type_visitFields(t, pack_field, &ps);
    if (!ps.ok || ps.elem.kind == CXType_Invalid)
        return NULL;
    const char *base = ps.elem.kind == CXType_Float && size <= 16   ? "float"
                       : ps.elem.kind == CXType_Double && size >= 8 ? "double"
                                                                    : "int";
    int lanes = (int)(size / (base[0] == 'd' ? 8 : 4));
    if (lanes == 1)
        snprintf(buf, n, "%s", base);
    else
        snprintf(buf, n, "%s%d", base, lanes);
    return buf;
}

/* The element type of a (multi-dimensional) array type. */
CXType walk_elem_type(CXType e)
{
    while (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray || e.kind == CXType_DependentSizedArray ||
           e.kind == CXType_VariableArray)
        e = clang_getArrayElementType(e);
    return e;
}

/* The bankscope name of a scalar or CUDA vector type, or NULL. */
const char *walk_builtin_name(CXType t, char *buf, size_t n)
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
        char *s = walk_type_spell(t);
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
    types_field *fields; /* the struct's fields so far (owned until the struct is added) */
    int n;
    types_registry *reg;
    const char *why;
} field_ctx;

/* Describe one field of a struct for the scenario (its type's bankscope name and its count). */
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
    const char *tn = walk_builtin_name(t, buf, sizeof buf);
    if (!tn && clang_getCanonicalType(t).kind == CXType_Record)
        tn = walk_struct_emit(fc->w, t, fc->reg, sbuf, sizeof sbuf);
    char *fname = walk_spell(c);
    if (!tn || clang_Cursor_isBitField(c) || !*fname || t.kind == CXType_ConstantArray) {
        fc->why = "a struct field whose type bankscope does not model (pointer, bit-field, union, array of arrays)";
        free(fname);
        return CXVisit_Break;
    }
    fc->fields = xrealloc(fc->fields, (size_t)(fc->n + 1) * sizeof *fc->fields);
    fc->fields[fc->n++] = (types_field){.name = fname, .type_name = xstrdup(tn), .count = (int)count};
    return CXVisit_Continue;
}

/* Add struct t (and the structs it contains, first) to reg; its name, or NULL. */
const char *walk_struct_emit(W *w, CXType t, types_registry *reg, char *name_out, size_t n)
{
    /* an anonymous struct is called by the typedef that names it (typedef struct { ... } V;) */
    char *tdname = NULL;
    for (CXType u = t; !tdname && (u.kind == CXType_Elaborated || u.kind == CXType_Typedef);) {
        if (u.kind == CXType_Typedef) {
            CXString ts = clang_getTypedefName(u);
            const char *q = clang_getCString(ts);
            if (q && *q)
                tdname = xstrdup(q);
            clang_disposeString(ts);
        } else
            u = clang_Type_getNamedType(u);
    }
    t = clang_getCanonicalType(t);
    CXCursor decl = clang_getTypeDeclaration(t);
    if (clang_getCursorKind(decl) != CXCursor_StructDecl && clang_getCursorKind(decl) != CXCursor_ClassDecl) {
        free(tdname);
        return NULL;
    }
    char *nm = walk_spell(decl);
    if (clang_Cursor_isAnonymous(decl) || !*nm || strchr(nm, '(')) {
        free(nm);
        nm = tdname ? tdname : xstrdup("");
        tdname = NULL;
    }
    free(tdname);
    if (!*nm) {
        free(nm);
        return NULL;
    }
    snprintf(name_out, n, "%s", nm);
    free(nm);
    if (types_struct_find(reg, name_out) >= 0)
        return name_out;
    field_ctx fc = {w, NULL, 0, reg, NULL};
    clang_Type_visitFields(t, field_visit, &fc);
    if (fc.why || !fc.n) {
        for (int i = 0; i < fc.n; i++) {
            free(fc.fields[i].name);
            free(fc.fields[i].type_name);
        }
        free(fc.fields);
        return NULL;
    }
    reg->structs = xrealloc(reg->structs, (size_t)(reg->n + 1) * sizeof *reg->structs);
    reg->structs[reg->n++] =
        (types_struct){.name = xstrdup(name_out),
                       .fields = fc.fields,
                       .nfields = fc.n,
                       .force_align = walk_has_attr(decl, CXCursor_AlignedAttr) ? (int)clang_Type_getAlignOf(t) : 0};
    return name_out;
}

expr_ref walk_value(W *w, CXCursor c);

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
        walk_where(c, &line, &col, &l->off[l->n]);
        l->c[l->n++] = c;
    }
    return CXChildVisit_Continue;
}

/* Register the shared array declared by decl; its index. */
typedef struct union_scan {
    CXType narrow; /* the narrowest element type so far (CXType_Invalid: none) */
    bool ok;
} union_scan;

static enum CXVisitorResult union_field(CXCursor f, CXClientData d)
{
    union_scan *us = d;
    CXType t = clang_getCanonicalType(clang_getCursorType(f));
    char buf[64];
    CXType el = t.kind == CXType_ConstantArray ? clang_getCanonicalType(clang_getArrayElementType(t)) : t;
    if (t.kind != CXType_ConstantArray || !walk_builtin_name(el, buf, sizeof buf)) {
        us->ok = false;
        return CXVisit_Break;
    }
    if (us->narrow.kind == CXType_Invalid || clang_Type_getSizeOf(el) < clang_Type_getSizeOf(us->narrow))
        us->narrow = el;
    return CXVisit_Continue;
}

/* Whether t is a union whose members are all one-dimensional arrays of scalars or CUDA vectors
 * (a buffer read as floats here and as float4 there); *narrow: the narrowest element type. */
static bool union_of_arrays(CXType t, CXType *narrow)
{
    t = clang_getCanonicalType(t);
    if (t.kind != CXType_Record || clang_getCursorKind(clang_getTypeDeclaration(t)) != CXCursor_UnionDecl)
        return false;
    union_scan us = {.narrow = {.kind = CXType_Invalid}, .ok = true};
    clang_Type_visitFields(t, union_field, &us);
    long long size = clang_Type_getSizeOf(t),
              es = us.ok && us.narrow.kind != CXType_Invalid ? clang_Type_getSizeOf(us.narrow) : 0;
    if (es <= 0 || size % es != 0)
        return false;
    *narrow = us.narrow;
    return true;
}

int walk_array_add(W *w, CXCursor decl)
{
    for (int i = 0; i < w->narrays; i++)
        if (clang_equalCursors(w->arrays[i].decl, decl))
            return i;
    /* the same 'extern __shared__' declaration in two instantiations of a function template: one
     * array, the block's dynamic shared memory */
    CXSourceLocation at = clang_getCursorLocation(decl);
    bool ext = clang_Cursor_getStorageClass(decl) == CX_SC_Extern;
    for (int i = 0; i < w->narrays && ext; i++)
        if (clang_Cursor_getStorageClass(w->arrays[i].decl) == CX_SC_Extern &&
            clang_equalLocations(clang_getCursorLocation(w->arrays[i].decl), at))
            return i;
    w->arrays = walk_grow(w->arrays, w->narrays, &w->cap_arrays, sizeof *w->arrays);
    warray *a = &w->arrays[w->narrays];
    memset(a, 0, sizeof *a);
    a->decl = decl;
    a->name = walk_spell(decl);
    /* a static one there is an array of each instantiation: named apart (tmp, tmp_2), with a note */
    for (int k = 2, again = 1; again && k < 100; k++) {
        again = 0;
        for (int i = 0; i < w->narrays && !again; i++)
            again = !strcmp(w->arrays[i].name, a->name);
        if (again) {
            char *base = walk_spell(decl);
            int l, cl;
            walk_where(decl, &l, &cl, NULL);
            free(a->name);
            a->name = walk_fmt("%s_%d", base, k);
            walk_add_skip(w, l, cl,
                          walk_fmt("%s:%d:%d: note: '%s' is declared again (another instantiation of its function "
                                   "template, or another function): this one is named '%s'",
                                   walk_file_of(w, decl), l, cl, base, a->name));
            free(base);
        }
    }
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
    CXType ue;
    if (nd == 0 && union_of_arrays(e, &ue)) { /* its narrowest element over all its bytes */
        a->is_union = true;
        a->ndims = 1;
        a->dims[0] = clang_Type_getSizeOf(clang_getCanonicalType(e)) / clang_Type_getSizeOf(ue);
        e = ue;
    } else if (nd == 0) { /* a __shared__ scalar (or struct): an array of one */
        a->ndims = 1;
        a->dims[0] = 1;
    } else if (nd > 3)
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
            expr_ref v = walk_value(w, l.c[i]);
            if (!v || !expr_pool_const(&w->ep, v, &a->dims[i]))
                a->why = v ? "a size that is not a constant" : walk_strdup(w, w->why);
        }
        w->why[0] = '\0';
    }
    if (!a->why && incomplete) {
        int64_t n = -1;
        const char *dv = walk_define(w, a->name);
        char buf[64];
        const char *tn = walk_builtin_name(e, buf, sizeof buf);
        int64_t es = clang_Type_getSizeOf(e);
        if (dv && !walk_parse_i64(dv, &n))
            a->why = "its -D size is not a number";
        else if (!dv && w->o->smem_bytes >= 0 && es > 0)
            n = w->o->smem_bytes / es;
        if (!a->why && n < 1)
            a->why = walk_strdup(w, "extern __shared__ array without a size: give --smem BYTES or -D NAME=ELEMENTS");
        a->dims[0] = n;
        (void)tn;
    }
    char buf[64], sbuf[64];
    const char *tn = walk_builtin_name(e, buf, sizeof buf);
    if (!tn && clang_getCanonicalType(e).kind == CXType_Unexposed) {
        /* a template type parameter: -D NAME=TYPE */
        char *tname = walk_type_spell(e);
        int64_t sz;
        tn = walk_type_name(w, e, buf, sizeof buf, &sz); /* -D NAME=TYPE, or the type at the launches */
        if (!tn && !a->why) {
            char *m = walk_fmt("its element type is the template parameter '%s': give -D %s=float (or another type)",
                               tname, tname);
            a->why = walk_strdup(w, m);
            free(m);
        }
        free(tname);
    }
    if (!tn && !a->why) {
        types_registry tmp = {NULL, 0};
        tn = walk_struct_emit(w, e, &tmp, sbuf, sizeof sbuf);
        types_registry_free(&tmp);
        a->is_struct = tn != NULL;
        if (!tn)
            a->why = "its element type is not a scalar, a CUDA vector type or a struct of them";
    }
    a->type = xstrdup(tn ? tn : "?");
    a->elem_size = clang_Type_getSizeOf(e);
    types_builtin tb;
    if (a->elem_size <= 0 && types_builtin_find(a->type, &tb)) /* a template parameter's type */
        a->elem_size = tb.size;
    a->elem = clang_getCanonicalType(e);
    return w->narrays++;
}
