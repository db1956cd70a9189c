/* walk_launch: the values a kernel's template parameters take where the file launches it
 * (k<256><<<grid, block>>>(...)): a parameter with one value at every launch takes it; with
 * several, the message lists them. Launches inside a template (whose arguments are not known
 * yet) are not seen. Explicit instantiations (template __global__ void k<32>(float *);), which
 * libclang does not show as cursors, are read from the file's tokens: their integer arguments
 * bind a parameter no launch gives, the first instantiation's value winning (a note names the
 * others). The first launch whose block argument is constant (256, dim3(32, 8)) gives the
 * block when --block is not given. */
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

/* A constant integer expression: true and *v. */
static bool const_int(CXCursor c, long long *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    return ok;
}

/* A launch's block argument as constants: an integer (256) or dim3(X[, Y[, Z]]), the arguments
 * dim3 takes by default (written nowhere in the file) being 1. False when it is not constant. */
static bool block_value(CXCursor c, int out[3])
{
    long long v;
    if (const_int(c, &v)) {
        out[0] = (int)v;
        out[1] = out[2] = 1;
        return v > 0 && v <= 1024;
    }
    int na = clang_Cursor_getNumArguments(c);
    if (clang_getCursorKind(c) == CXCursor_CallExpr && na >= 1 && na <= 3) {
        for (int d = 0; d < 3; d++) {
            CXCursor a = d < na ? clang_Cursor_getArgument(c, (unsigned)d) : clang_getNullCursor();
            if (d >= na || !clang_Location_isFromMainFile(clang_getCursorLocation(a)))
                v = 1;
            else if (!const_int(a, &v) || v <= 0 || v > 1024)
                return false;
            out[d] = (int)v;
        }
        return true;
    }
    walk_kids k = walk_children(c); /* an implicit conversion around the value */
    return k.n == 1 && block_value(k.c[0], out);
}

/* A block as --block writes it: "256", "32,8", "8,8,4". */
static void block_text(const int b[3], char *buf, size_t n)
{
    int nd = b[2] > 1 ? 3 : b[1] > 1 ? 2 : 1;
    snprintf(buf, n, nd == 1 ? "%d" : nd == 2 ? "%d,%d" : "%d,%d,%d", b[0], b[1], b[2]);
}

/* The block of a launch (c, a <<<grid, block>>> call of the kernel) when it is constant: the
 * first becomes w->lblock, others that differ are listed. */
static void launch_block(W *w, CXCursor c, int line)
{
    walk_kids k = walk_children(c);
    for (int i = 0; i < k.n; i++) {
        if (clang_getCursorKind(k.c[i]) != CXCursor_CallExpr)
            continue;
        char *n = walk_spell(k.c[i]);
        bool config = !strcmp(n, "__cudaPushCallConfiguration") || !strcmp(n, "cudaConfigureCall");
        free(n);
        int b[3];
        if (!config || clang_Cursor_getNumArguments(k.c[i]) < 2 || !block_value(clang_Cursor_getArgument(k.c[i], 1), b))
            continue;
        if (!w->lblock[0]) {
            memcpy(w->lblock, b, sizeof b);
            w->lblock_line = line;
            walk_where(c, &line, &w->lblock_col, NULL);
        } else if (memcmp(w->lblock, b, sizeof b) != 0) {
            size_t len = strlen(w->lblock_others);
            char t[48];
            block_text(b, t, sizeof t);
            snprintf(w->lblock_others + len, sizeof w->lblock_others - len, "%s%s at line %d", len ? ", " : "", t,
                     line);
        }
        return;
    }
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
    if (clang_getCursorKind(r) != CXCursor_FunctionDecl)
        return CXChildVisit_Recurse;
    bool plain = clang_equalCursors(clang_getCursorDefinition(r), w->kernel);
    if (plain || clang_equalCursors(clang_getSpecializedCursorTemplate(r), w->kernel)) {
        int line, col;
        walk_where(c, &line, &col, NULL);
        launch_block(w, c, line);
    }
    if (plain || !clang_equalCursors(clang_getSpecializedCursorTemplate(r), w->kernel))
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

bool walk_launch_block(W *w, int block[3])
{
    if (!w->lblock[0])
        return false;
    memcpy(block, w->lblock, sizeof w->lblock);
    char b[48];
    block_text(block, b, sizeof b);
    walk_add_skip(w, w->lblock_line, w->lblock_col,
                  walk_fmt("%s:%d:%d: note: block %s from the launch here (no --block given)%s%s%s", w->file_base,
                           w->lblock_line, w->lblock_col, b, w->lblock_others[0] ? "; other launches: " : "",
                           w->lblock_others, w->lblock_others[0] ? " (--block chooses)" : ""));
    return true;
}

expr_ref walk_launch_value(W *w, CXCursor param, CXCursor at, const char *name)
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
            return expr_pool_num(&w->ep, t->vals[0]);
        }
        if (t->nvals == 1) {
            if (!t->noted) {
                t->noted = true;
                walk_add_skip(
                    w, t->line, t->col,
                    walk_fmt("%s:%d:%d: note: template parameter '%s' is %lld, as the kernel is launched here",
                             w->file_base, t->line, t->col, name, (long long)t->vals[0]));
            }
            return expr_pool_num(&w->ep, t->vals[0]);
        }
        strbuf sb = {0};
        for (int k = 0; k < t->nvals; k++)
            strbuf_addf(&sb, "%s%lld", k ? ", " : "", (long long)t->vals[k]);
        walk_fail(w, at, "template parameter '%s' is %s at the kernel's launches: give -D %s=VALUE", name,
                  strbuf_str(&sb), name);
        strbuf_free(&sb);
        return 0;
    }
    return 0;
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
