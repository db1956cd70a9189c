/* util: fatal-on-failure allocation and the strbuf text builder. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

UTIL_NORETURN void util_oom(void)
{
    fputs("bankscope: out of memory\n", stderr);
    exit(1);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        util_oom();
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        util_oom();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        util_oom();
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

char *xstrdup_n(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Make room for n more bytes plus the terminating NUL. */
static void strbuf_reserve(strbuf *sb, size_t n)
{
    if (sb->len + n + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + n + 1)
        cap *= 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
}

void strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap)
{
    /* Format straight into the spare room; grow and format again only when it did not fit. */
    va_list ap2;
    va_copy(ap2, ap);
    size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;
    int n = vsnprintf(room ? sb->data + sb->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if ((size_t)n >= room) {
        strbuf_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    }
    sb->len += (size_t)n;
}

void strbuf_addf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_add(strbuf *sb, const char *s, size_t n)
{
    strbuf_reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void strbuf_addc(strbuf *sb, char c)
{
    strbuf_add(sb, &c, 1);
}

void strbuf_clear(strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

const char *strbuf_str(const strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *strbuf_take(strbuf *sb)
{
    char *s = sb->data ? sb->data : xstrdup("");
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void strbuf_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}
