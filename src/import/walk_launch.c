/* walk_launch: the values a kernel's template parameters take where the file launches it
 * (k<256><<<grid, block>>>(...)): a parameter with one value at every launch takes it; with
 * several, the message lists them. Launches inside a template (whose arguments are not known
 * yet) and explicit instantiations (which libclang does not show) are not seen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"

/* The kernel's template parameters, in order (types too: launch arguments are positional). */
static int kernel_tparams(CXCursor kernel, CXCursor *out, int max)
{
    walk_kids k = walk_children(kernel);
    int n = 0;
    for (int i = 0; i < k.n && n < max; i++) {
        enum CXCursorKind kind = clang_getCursorKind(k.c[i]);
        if (kind == CXCursor_TemplateTypeParameter || kind == CXCursor_NonTypeTemplateParameter ||
            kind == CXCursor_TemplateTemplateParameter)
            out[n++] = k.c[i];
    }
    return n;
}

static enum CXChildVisitResult launch_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    W *w = d;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (clang_getCursorKind(c) != CXCursor_CallExpr)
        return CXChildVisit_Recurse;
    CXCursor r = clang_getCursorReferenced(c);
    if (clang_getCursorKind(r) != CXCursor_FunctionDecl ||
        !clang_equalCursors(clang_getSpecializedCursorTemplate(r), w->kernel))
        return CXChildVisit_Recurse;
    CXCursor tp[WALK_MAX_TPARAMS];
    int np = kernel_tparams(w->kernel, tp, WALK_MAX_TPARAMS);
    int na = clang_Cursor_getNumTemplateArguments(r);
    int line, col;
    walk_where(c, &line, &col, NULL);
    for (int i = 0; i < na && i < np; i++) {
        if (clang_Cursor_getTemplateArgumentKind(r, (unsigned)i) == CXTemplateArgumentKind_Type) {
            char buf[64];
            const char *tn = walk_builtin_name(clang_Cursor_getTemplateArgumentType(r, (unsigned)i), buf, sizeof buf);
            walk_tparam *t = &w->tparams[i];
            t->decl = tp[i];
            if (!t->type[0] || strcmp(t->type, tn ? tn : "?") != 0)
                snprintf(t->type, sizeof t->type, "%s", t->type[0] || !tn ? "?" : tn);
            continue;
        }
        if (clang_Cursor_getTemplateArgumentKind(r, (unsigned)i) != CXTemplateArgumentKind_Integral)
            continue;
        long long v = clang_Cursor_getTemplateArgumentValue(r, (unsigned)i);
        walk_tparam *t = &w->tparams[i];
        t->decl = tp[i];
        bool seen = false;
        for (int k = 0; k < t->nvals; k++)
            seen |= t->vals[k] == v;
        if (!seen && t->nvals < (int)(sizeof t->vals / sizeof t->vals[0])) {
            if (t->nvals == 0) {
                t->line = line;
                t->col = col;
            }
            t->vals[t->nvals++] = v;
        }
    }
    return CXChildVisit_Recurse;
}

void walk_launch_scan(W *w)
{
    clang_visitChildren(clang_getTranslationUnitCursor(w->tu), launch_visit, w);
}

const ixpr *walk_launch_value(W *w, CXCursor param, CXCursor at, const char *name)
{
    for (int i = 0; i < WALK_MAX_TPARAMS; i++) {
        walk_tparam *t = &w->tparams[i];
        if (!t->nvals || !clang_equalCursors(t->decl, param))
            continue;
        if (t->nvals == 1) {
            if (!t->noted) {
                t->noted = true;
                walk_add_skip(
                    w, t->line, t->col,
                    walk_fmt("%s:%d:%d: note: template parameter '%s' is %lld, as the kernel is launched here",
                             w->file_base, t->line, t->col, name, (long long)t->vals[0]));
            }
            return ixpr_num(&w->ar, t->vals[0]);
        }
        strbuf sb = {0};
        for (int k = 0; k < t->nvals; k++)
            strbuf_addf(&sb, "%s%lld", k ? ", " : "", (long long)t->vals[k]);
        walk_fail(w, at, "template parameter '%s' is %s at the kernel's launches: give -D %s=VALUE", name,
                  strbuf_str(&sb), name);
        strbuf_free(&sb);
        return NULL;
    }
    return NULL;
}

const char *walk_launch_type(W *w, const char *name)
{
    for (int i = 0; i < WALK_MAX_TPARAMS; i++) {
        walk_tparam *t = &w->tparams[i];
        if (!t->type[0] || !strcmp(t->type, "?"))
            continue;
        char *n = walk_spell(t->decl);
        bool same = !strcmp(n, name);
        free(n);
        if (same)
            return t->type;
    }
    return NULL;
}
