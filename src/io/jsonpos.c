/* jsonpos: a minimal JSON walker that follows a path to a value's position. */
#include "jsonpos.h"

#include <stdlib.h>
#include <string.h>

typedef struct walker {
    const char *s;
    size_t len, i;
} walker;

static void ws(walker *w)
{
    while (w->i < w->len && (w->s[w->i] == ' ' || w->s[w->i] == '\t' || w->s[w->i] == '\n' || w->s[w->i] == '\r'))
        w->i++;
}

/* Skip a string starting at its quote; leaves i after the closing quote. */
static void skip_string(walker *w)
{
    w->i++;
    while (w->i < w->len && w->s[w->i] != '"') {
        if (w->s[w->i] == '\\')
            w->i++;
        w->i++;
    }
    w->i++;
}

/* Skip one value of any kind (containers by bracket counting, strings respected). */
static void skip_value(walker *w)
{
    ws(w);
    int depth = 0;
    while (w->i < w->len) {
        char c = w->s[w->i];
        if (c == '"') {
            skip_string(w);
        } else if (c == '{' || c == '[') {
            depth++;
            w->i++;
        } else if (c == '}' || c == ']') {
            if (depth == 0)
                return;
            depth--;
            w->i++;
        } else if (c == ',' && depth == 0) {
            return;
        } else {
            w->i++;
        }
        if (depth == 0 && (c == '"' || c == '}' || c == ']'))
            return;
    }
}

size_t jsonpos_skip_ws(const char *text, size_t len, size_t offset)
{
    walker w = {.s = text, .len = len, .i = offset};
    ws(&w);
    return w.i;
}

void jsonpos_line_col(const char *text, size_t offset, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < offset && text[i]; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)text[i] & 0xc0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* Move into member key of the object at w->i; false when absent. */
static int enter_key(walker *w, const char *key, size_t keylen)
{
    ws(w);
    if (w->i >= w->len || w->s[w->i] != '{')
        return 0;
    w->i++;
    for (;;) {
        ws(w);
        if (w->i >= w->len || w->s[w->i] != '"')
            return 0;
        size_t k0 = w->i + 1;
        skip_string(w);
        size_t k1 = w->i - 1;
        ws(w);
        if (w->i < w->len && w->s[w->i] == ':')
            w->i++;
        ws(w);
        if (k1 - k0 == keylen && strncmp(w->s + k0, key, keylen) == 0)
            return 1;
        skip_value(w);
        ws(w);
        if (w->i >= w->len || w->s[w->i] != ',')
            return 0;
        w->i++;
    }
}

/* Move into element n of the array at w->i; false when absent. */
static int enter_index(walker *w, long n)
{
    ws(w);
    if (w->i >= w->len || w->s[w->i] != '[')
        return 0;
    w->i++;
    for (long k = 0; k < n; k++) {
        skip_value(w);
        ws(w);
        if (w->i >= w->len || w->s[w->i] != ',')
            return 0;
        w->i++;
    }
    ws(w);
    return w->i < w->len && w->s[w->i] != ']';
}

jsonpos jsonpos_locate(const char *text, size_t len, const char *path)
{
    walker w = {.s = text, .len = len};
    ws(&w);
    size_t best = w.i;
    int found = 1;
    const char *p = path;
    while (*p) {
        int ok;
        if (*p == '[') {
            char *end;
            long n = strtol(p + 1, &end, 10);
            ok = enter_index(&w, n);
            p = *end == ']' ? end + 1 : end;
        } else {
            if (*p == '.')
                p++;
            size_t n = strcspn(p, ".[");
            ok = enter_key(&w, p, n);
            p += n;
        }
        if (!ok) {
            found = 0;
            break;
        }
        ws(&w);
        best = w.i;
    }
    jsonpos r = {.offset = best, .found = found};
    jsonpos_line_col(text, best, &r.line, &r.col);
    return r;
}
