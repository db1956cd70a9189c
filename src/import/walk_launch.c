/* walk_launch: the values a kernel's template parameters take where the file launches it
 * (k<256><<<grid, block>>>(...)): a parameter with one value at every launch takes it; with
 * several, the message lists them. Launches inside a template (whose arguments are not known
 * yet) are not seen. Explicit instantiations (template __global__ void k<32>(float *);), which
 * libclang does not show as cursors, are read from the file's tokens: their integer arguments
 * bind a parameter no launch gives, the first instantiation's value winning (a note names the
 * others). */
#include <errno.h>
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

/* An integer literal argument ("32", "-4", "0x20u"): true and *v. */
static bool int_literal(CXTranslationUnit tu, const CXToken *t, int n, long long *v)
{
    bool neg = false;
    if (n == 2 && clang_getTokenKind(t[0]) == CXToken_Punctuation) {
        CXString s = clang_getTokenSpelling(tu, t[0]);
        neg = !strcmp(clang_getCString(s), "-");
        clang_disposeString(s);
        if (!neg)
            return false;
        t++;
        n--;
    }
    if (n != 1 || clang_getTokenKind(t[0]) != CXToken_Literal)
        return false;
    CXString s = clang_getTokenSpelling(tu, t[0]);
    const char *text = clang_getCString(s);
    char *end;
    errno = 0;
    long long x = strtoll(text, &end, 0);
    bool ok = end != text && !errno && strspn(end, "uUlL") == strlen(end);
    clang_disposeString(s);
    *v = neg ? -x : x;
    return ok;
}

/* Whether token t is spelled text. */
static bool tok_is(CXTranslationUnit tu, CXToken t, const char *text)
{
    CXString s = clang_getTokenSpelling(tu, t);
    bool same = !strcmp(clang_getCString(s), text);
    clang_disposeString(s);
    return same;
}

/* One explicit instantiation of the kernel, its arguments tokens a[0..n): bind the integer
 * arguments of parameters no launch gives (the line of each value kept for the note). */
static void inst_bind(W *w, const CXToken *a, int n, int line, int col)
{
    CXCursor tp[WALK_MAX_TPARAMS];
    int np = kernel_tparams(w->kernel, tp, WALK_MAX_TPARAMS);
    int arg = 0, depth = 0, start = 0;
    for (int i = 0; i <= n && arg < np; i++) {
        if (i < n) {
            if (tok_is(w->tu, a[i], "(") || tok_is(w->tu, a[i], "<") || tok_is(w->tu, a[i], "["))
                depth++;
            else if (tok_is(w->tu, a[i], ")") || tok_is(w->tu, a[i], ">") || tok_is(w->tu, a[i], "]"))
                depth--;
            if (depth > 0 || !tok_is(w->tu, a[i], ","))
                continue;
        }
        long long v;
        walk_tparam *t = &w->tparams[arg];
        if ((t->inst || !t->nvals) && int_literal(w->tu, a + start, i - start, &v)) {
            bool seen = false;
            for (int k = 0; k < t->nvals; k++)
                seen |= t->vals[k] == v;
            if (!seen && t->nvals < (int)(sizeof t->vals / sizeof t->vals[0])) {
                if (t->nvals == 0) {
                    t->decl = tp[arg];
                    t->inst = true;
                    t->line = line;
                    t->col = col;
                }
                t->vline[t->nvals] = line;
                t->vals[t->nvals++] = v;
            }
        }
        arg++;
        start = i + 1;
    }
}

/* The explicit instantiations of the kernel in the main file: "template" not followed by "<",
 * then, before the ";", the kernel's name and its "<arguments>". */
static void inst_scan(W *w)
{
    char *kname = walk_spell(w->kernel);
    CXToken *t = NULL;
    unsigned n = 0;
    clang_tokenize(w->tu, clang_getCursorExtent(clang_getTranslationUnitCursor(w->tu)), &t, &n);
    for (unsigned i = 0; i + 1 < n; i++) {
        if (clang_getTokenKind(t[i]) != CXToken_Keyword || !tok_is(w->tu, t[i], "template") ||
            tok_is(w->tu, t[i + 1], "<") || !clang_Location_isFromMainFile(clang_getTokenLocation(w->tu, t[i])))
            continue;
        unsigned j = i + 1;
        while (j + 1 < n && !tok_is(w->tu, t[j], ";") && !tok_is(w->tu, t[j], "{") &&
               !(tok_is(w->tu, t[j], kname) && tok_is(w->tu, t[j + 1], "<")))
            j++;
        if (j + 1 >= n || !tok_is(w->tu, t[j], kname))
            continue;
        unsigned k = j + 2;
        int depth = 1;
        for (; k < n && depth > 0; k++) {
            if (tok_is(w->tu, t[k], "<"))
                depth++;
            else if (tok_is(w->tu, t[k], ">"))
                depth--;
            else if (tok_is(w->tu, t[k], ";"))
                break;
        }
        if (depth != 0)
            continue;
        unsigned line, col;
        clang_getExpansionLocation(clang_getTokenLocation(w->tu, t[i]), NULL, &line, &col, NULL);
        inst_bind(w, t + j + 2, (int)(k - 1 - (j + 2)), (int)line, (int)col);
        i = k - 1;
    }
    clang_disposeTokens(w->tu, t, n);
    free(kname);
}

void walk_launch_scan(W *w)
{
    clang_visitChildren(clang_getTranslationUnitCursor(w->tu), launch_visit, w);
    inst_scan(w);
}

const ixpr *walk_launch_value(W *w, CXCursor param, CXCursor at, const char *name)
{
    for (int i = 0; i < WALK_MAX_TPARAMS; i++) {
        walk_tparam *t = &w->tparams[i];
        if (!t->nvals || !clang_equalCursors(t->decl, param))
            continue;
        if (t->inst) {
            if (!t->noted) {
                t->noted = true;
                strbuf sb = {0};
                for (int k = 1; k < t->nvals; k++)
                    strbuf_addf(&sb, "%s%lld at line %d", k > 1 ? ", " : "; others give ", (long long)t->vals[k],
                                t->vline[k]);
                if (t->nvals > 1)
                    strbuf_addf(&sb, " (-D %s=VALUE chooses)", name);
                walk_add_skip(w, t->line, t->col,
                              walk_fmt("%s:%d:%d: note: template parameter '%s' is %lld, from the explicit "
                                       "instantiation here%s",
                                       w->file_base, t->line, t->col, name, (long long)t->vals[0], strbuf_str(&sb)));
                strbuf_free(&sb);
            }
            return ixpr_num(&w->ar, t->vals[0]);
        }
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
