/* walk_util: the walker's small helpers: formatted text, source positions, a cursor's children,
 * attributes and the -D values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/walk_internal.h"

/* printf into a new string (owned by the caller). */
char *walk_fmt(const char *f, ...)
{
    strbuf sb = {0};
    va_list ap;
    va_start(ap, f);
    strbuf_vaddf(&sb, f, ap);
    va_end(ap);
    return strbuf_take(&sb);
}

const char *walk_strdup(W *w, const char *s)
{
    w->strs = walk_grow(w->strs, w->nstrs, &w->cap_strs, sizeof *w->strs);
    return w->strs[w->nstrs++] = xstrdup(s);
}

void walk_pool_free(W *w)
{
    for (int i = 0; i < w->nstrs; i++)
        free(w->strs[i]);
    free(w->strs);
    w->strs = NULL;
    w->nstrs = w->cap_strs = 0;
    expr_pool_free(&w->ep);
}

/* Expansion position of c: what the user sees in the file. */
void walk_where(CXCursor c, int *line, int *col, unsigned *off)
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

char *walk_spell(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

char *walk_type_spell(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    char *r = xstrdup(clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    return r;
}

/* Set the failure reason (the first one wins until cleared), pointing at c. */
expr_ref walk_fail(W *w, CXCursor c, const char *f, ...)
{
    if (w->why[0])
        return 0;
    int line, col;
    walk_where(c, &line, &col, NULL);
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(w->why, sizeof w->why, f, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof w->why - 20)
        snprintf(w->why + n, sizeof w->why - (size_t)n, " (%d:%d)", line, col);
    return 0;
}

void *walk_grow(void *p, int n, int *cap, size_t elem)
{
    if (n + 1 > *cap) {
        *cap = *cap ? 2 * *cap : 8;
        if (*cap < n + 1)
            *cap = n + 1;
        p = xrealloc(p, (size_t)*cap * elem);
    }
    return p;
}

void walk_add_skip(W *w, int line, int col, char *text)
{
    w->skips = walk_grow(w->skips, w->nskips, &w->cap_skips, sizeof *w->skips);
    w->skips[w->nskips++] = (wskip){line, col, text};
}

/* Children lists live for the whole walk (walk_children_release frees them): a node keeps every
 * child, however many (an initializer list, a call with many arguments). Each node's list is
 * made once and found again by the node (open addressing on clang's cursor hash): a function
 * inlined at many calls, or a loop body walked again, costs no new memory. The importer walks
 * one kernel per process, so the table is the walk's, not shared. */
typedef struct kid_entry {
    CXCursor of;
    CXCursor *c; /* NULL when there are none */
    int n;
    bool used;
} kid_entry;

static struct {
    kid_entry *e;
    size_t cap, n;
} kid_table;

typedef struct kid_list {
    CXCursor *c;
    int n, cap;
} kid_list;

static enum CXChildVisitResult kid_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kid_list *k = d;
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 4;
        k->c = xrealloc(k->c, (size_t)k->cap * sizeof *k->c);
    }
    k->c[k->n++] = c;
    return CXChildVisit_Continue;
}

static size_t kid_slot(CXCursor c)
{
    size_t i = clang_hashCursor(c) & (kid_table.cap - 1);
    while (kid_table.e[i].used && !clang_equalCursors(kid_table.e[i].of, c))
        i = (i + 1) & (kid_table.cap - 1);
    return i;
}

walk_kids walk_children(CXCursor c)
{
    if (kid_table.n * 2 >= kid_table.cap) { /* grow (and rehash) at half full */
        kid_entry *old = kid_table.e;
        size_t oldcap = kid_table.cap;
        kid_table.cap = oldcap ? 2 * oldcap : 1024;
        kid_table.e = xcalloc(kid_table.cap, sizeof *kid_table.e);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].used)
                kid_table.e[kid_slot(old[i].of)] = old[i];
        free(old);
    }
    size_t i = kid_slot(c);
    if (!kid_table.e[i].used) {
        kid_list l = {NULL, 0, 0};
        clang_visitChildren(c, kid_visit, &l);
        kid_table.e[i] = (kid_entry){.of = c, .c = l.c, .n = l.n, .used = true};
        kid_table.n++;
    }
    return (walk_kids){kid_table.e[i].c, kid_table.e[i].n};
}

void walk_children_release(void)
{
    for (size_t i = 0; i < kid_table.cap; i++)
        free(kid_table.e[i].c);
    free(kid_table.e);
    memset(&kid_table, 0, sizeof kid_table);
}

/* Parentheses and implicit conversions (libclang shows these as UnexposedExpr). */
CXCursor walk_strip(CXCursor c)
{
    for (int i = 0; i < 64; i++) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return c;
        walk_kids ks = walk_children(c);
        if (ks.n != 1)
            return c;
        c = ks.c[0];
    }
    return c;
}

bool walk_has_attr(CXCursor c, enum CXCursorKind attr)
{
    walk_kids k = walk_children(c);
    for (int i = 0; i < k.n; i++)
        if (clang_getCursorKind(k.c[i]) == attr)
            return true;
    return false;
}

const char *walk_define(const W *w, const char *name)
{
    for (int i = 0; i < w->o->ndefines; i++)
        if (strcmp(w->o->defines[i].name, name) == 0)
            return w->o->defines[i].value;
    return NULL;
}

bool walk_parse_i64(const char *s, int64_t *out)
{
    char *end;
    long long v = strtoll(s, &end, 0);
    if (end == s || *end)
        return false;
    *out = v;
    return true;
}

/* The start of c's line in its file's text (read once and kept), and the file's path (owned by
 * the walk state); NULL when it cannot be read. */
static const char *line_start(W *w, CXCursor c, const char **file)
{
    CXFile f = NULL;
    unsigned line = 0, offset = 0;
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
    clang_getExpansionLocation(loc, &f, &line, NULL, &offset);
    if (!f || line == 0)
        return NULL;
    CXString fn = clang_getFileName(f);
    const char *path = clang_getCString(fn);
    if (path && (!w->src_path || strcmp(path, w->src_path) != 0)) {
        free(w->src_path);
        free(w->src_text);
        w->src_path = xstrdup(path);
        w->src_text = NULL;
        w->src_len = 0;
        FILE *fp = fopen(path, "rb");
        if (fp) {
            strbuf sb = {0};
            char buf[4096];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, fp)) > 0 && sb.len < (8u << 20))
                strbuf_add(&sb, buf, n);
            fclose(fp);
            w->src_len = sb.len;
            w->src_text = strbuf_take(&sb);
        }
    }
    clang_disposeString(fn);
    /* from the location's offset back to its line's start: linear in the line, not the file */
    const char *p = w->src_text && offset <= w->src_len ? w->src_text + offset : NULL;
    while (p && p > w->src_text && p[-1] != '\n')
        p--;
    if (file)
        *file = w->src_path;
    return p;
}

char *walk_line_text(W *w, CXCursor c, const char **file)
{
    *file = NULL;
    const char *p = line_start(w, c, file), *e = p ? strchr(p, '\n') : NULL;
    if (!p)
        return NULL;
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && p[n - 1] == '\r')
        n--;
    return walk_fmt("%.*s", (int)(n < 1000 ? n : 1000), p);
}

char *walk_source_line(W *w, CXCursor c)
{
    const char *p = line_start(w, c, NULL);
    if (!p)
        return NULL;
    /* one line, control characters as spaces, runs of blanks as one, trimmed */
    strbuf out = {0};
    bool space = false;
    for (; *p && *p != '\n' && out.len < 160; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch <= ' ' || ch == 0x7f) {
            space = out.len > 0;
            continue;
        }
        if (space)
            strbuf_addc(&out, ' ');
        space = false;
        strbuf_addc(&out, (char)ch);
    }
    return out.len ? strbuf_take(&out) : (strbuf_free(&out), NULL);
}
