/* jsonw: streaming JSON writer (see jsonw.h). Integers are formatted by hand two digits at a
 * time because `analyze --json` writes tens of numbers per lane and printf dominated its time. */
#include "jsonw.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void jsonw_init(jsonw *w, FILE *out)
{
    w->out = out;
    w->str = NULL;
    w->brk = -1;
    w->len = 0;
    w->depth = 0;
    w->write_error = w->misuse = w->done = w->want_value = false;
    w->err = 0;
}

void jsonw_init_string(jsonw *w, strbuf *str)
{
    jsonw_init(w, NULL);
    w->str = str;
}

void jsonw_break(jsonw *w, int spaces)
{
    w->brk = spaces;
}

/* Hand the buffered bytes to the sink; the first failure is remembered and later output dropped. */
static void flush_buf(jsonw *w)
{
    if (w->str) {
        strbuf_add(w->str, w->buf, w->len);
        w->len = 0;
        return;
    }
    if (w->len && !w->write_error && fwrite(w->buf, 1, w->len, w->out) != w->len) {
        w->write_error = true;
        w->err = errno;
    }
    w->len = 0;
}

/* Append n bytes to the buffer, flushing it first when full; a piece larger than the buffer goes
 * straight to the sink. */
static inline void put(jsonw *w, const char *s, size_t n)
{
    if (w->len + n > JSONW_BUF) {
        flush_buf(w);
        if (n > JSONW_BUF) {
            if (w->str)
                strbuf_add(w->str, s, n);
            else if (!w->write_error && fwrite(s, 1, n, w->out) != n) {
                w->write_error = true;
                w->err = errno;
            }
            return;
        }
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

static inline void putc1(jsonw *w, char c)
{
    if (w->len == JSONW_BUF)
        flush_buf(w);
    w->buf[w->len++] = c;
}

/* A new line indented two spaces per level. */
static void indent(jsonw *w, int level)
{
    static const char spaces[] = "                                                                ";
    putc1(w, '\n');
    int n = 2 * level;
    while (n > 0) {
        int k = n < (int)sizeof spaces - 1 ? n : (int)sizeof spaces - 1;
        put(w, spaces, (size_t)k);
        n -= k;
    }
}

/* What must precede a member of the innermost container (comma, newline or space). */
static void separate(jsonw *w)
{
    if (w->depth == 0)
        return;
    struct jsonw_level *t = &w->stack[w->depth - 1];
    if (t->has_member)
        putc1(w, ',');
    if (t->lines)
        indent(w, w->depth);
    else if (t->has_member && w->brk >= 0) {
        putc1(w, '\n');
        for (int i = 0; i < w->brk; i++)
            putc1(w, ' ');
    } else if (t->has_member || t->spaced)
        putc1(w, ' ');
    w->brk = -1;
    t->has_member = true;
}

/* Before any value: check that one may come here and write its separator. */
static bool value_start(jsonw *w)
{
    if (w->depth == 0) {
        if (w->done) {
            w->misuse = true;
            return false;
        }
        return true;
    }
    if (w->stack[w->depth - 1].object) {
        if (!w->want_value) {
            w->misuse = true;
            return false;
        }
        w->want_value = false;
        return true;
    }
    separate(w);
    return true;
}

static void value_end(jsonw *w)
{
    if (w->depth == 0)
        w->done = true;
}

/* Open an object or array where a value may stand (misuse when it may not, or nesting is too
 * deep), laid out as layout says. */
static void begin(jsonw *w, bool object, jsonw_layout layout)
{
    if (!value_start(w))
        return;
    if (w->depth == JSONW_MAX_DEPTH) {
        w->misuse = true;
        return;
    }
    putc1(w, object ? '{' : '[');
    w->stack[w->depth].object = object;
    w->stack[w->depth].lines = layout == JSONW_LINES;
    w->stack[w->depth].spaced = layout == JSONW_SPACED;
    w->stack[w->depth].has_member = false;
    w->depth++;
}

/* Close the innermost container, which must be of this kind and not wait for a value after a
 * key (misuse otherwise). */
static void end(jsonw *w, bool object)
{
    if (w->depth == 0 || w->stack[w->depth - 1].object != object || w->want_value) {
        w->misuse = true;
        return;
    }
    w->depth--;
    if (w->stack[w->depth].lines && w->stack[w->depth].has_member)
        indent(w, w->depth);
    else if (w->stack[w->depth].spaced)
        putc1(w, ' ');
    putc1(w, object ? '}' : ']');
    value_end(w);
}

void jsonw_begin_object(jsonw *w, jsonw_layout layout)
{
    begin(w, true, layout);
}

void jsonw_end_object(jsonw *w)
{
    end(w, true);
}

void jsonw_begin_array(jsonw *w, jsonw_layout layout)
{
    begin(w, false, layout);
}

void jsonw_end_array(jsonw *w)
{
    end(w, false);
}

/* Bytes that go into a JSON string as they are (printable ASCII but quote and backslash). */
static inline bool plain(unsigned char c)
{
    /* one bit per byte value: printable ASCII except '"' (0x22) and '\\' (0x5c) */
    static const uint64_t bits[4] = {0xfffffffb00000000ull, 0x7fffffffefffffffull, 0, 0};
    return (bits[c >> 6] >> (c & 63)) & 1;
}

int jsonw_utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    int len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        len = 2, v = c & 0x1f, min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3, v = c & 0x0f, min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)len > n)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

size_t jsonw_escape(const char *str, size_t n, char *buf)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    char *o = buf;
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (plain((unsigned char)c)) {
            *o++ = (char)c;
            i++;
            continue;
        }
        if (c >= 0x80) {
            uint32_t cp;
            int k = jsonw_utf8_next(s + i, n - i, &cp);
            if (k == 0) { /* U+FFFD REPLACEMENT CHARACTER for each bad byte */
                memcpy(o, "\xef\xbf\xbd", 3);
                o += 3;
                i++;
            } else if (cp < 0xa0) { /* C1 controls: a terminal may act on them */
                memcpy(o, "\\u00", 4);
                o[4] = hex[cp >> 4];
                o[5] = hex[cp & 15];
                o += 6;
                i += (size_t)k;
            } else {
                memcpy(o, s + i, (size_t)k);
                o += k;
                i += (size_t)k;
            }
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\n': *o++ = 'n'; break;
        case '\t': *o++ = 't'; break;
        case '\r': *o++ = 'r'; break;
        case '\b': *o++ = 'b'; break;
        case '\f': *o++ = 'f'; break;
        default:
            memcpy(o, "u00", 3);
            o[3] = hex[c >> 4];
            o[4] = hex[c & 15];
            o += 5;
        }
        i++;
    }
    return (size_t)(o - buf);
}

/* Write s as a quoted, escaped string. Plain text (keys, names) is copied straight into the
 * buffer; anything else is escaped in chunks so no input length needs a big buffer. */
static void put_string(jsonw *w, const char *s, size_t n)
{
    if (n + 2 <= JSONW_BUF - w->len || (flush_buf(w), n + 2 <= JSONW_BUF)) {
        char *o = w->buf + w->len;
        size_t i = 0;
        *o++ = '"';
        while (i < n && plain((unsigned char)s[i]))
            *o++ = s[i++];
        if (i == n) {
            *o++ = '"';
            w->len = (size_t)(o - w->buf);
            return;
        }
    }
    char tmp[6 * 256 + 8];
    putc1(w, '"');
    while (n > 0) {
        size_t k = n;
        if (k > 256) { /* never cut a UTF-8 sequence between chunks: back up to its lead byte */
            k = 256;
            size_t j = k;
            while (j > k - 3 && ((unsigned char)s[j] & 0xc0) == 0x80)
                j--;
            if (j > 0 && ((unsigned char)s[j] & 0xc0) != 0x80)
                k = j;
        }
        put(w, tmp, jsonw_escape(s, k, tmp));
        s += k;
        n -= k;
    }
    putc1(w, '"');
}

void jsonw_key(jsonw *w, const char *key)
{
    if (w->depth == 0 || !w->stack[w->depth - 1].object || w->want_value) {
        w->misuse = true;
        return;
    }
    w->want_value = true;
    struct jsonw_level *t = &w->stack[w->depth - 1];
    if (t->lines || t->spaced || w->brk >= 0) {
        separate(w);
        put_string(w, key, strlen(key));
        put(w, ": ", 2);
        return;
    }
    /* the hot path (members of one-line objects): separator, key and colon in one pass */
    if (JSONW_BUF - w->len < 256)
        flush_buf(w);
    char *o = w->buf + w->len;
    if (t->has_member) {
        *o++ = ',';
        *o++ = ' ';
    }
    t->has_member = true;
    *o++ = '"';
    const char *k = key;
    while (*k && plain((unsigned char)*k) && k - key < 200)
        *o++ = *k++;
    if (*k) { /* not plain text: the general escaping path from the quote on */
        w->len = (size_t)(o - 1 - w->buf);
        put_string(w, key, strlen(key));
        put(w, ": ", 2);
        return;
    }
    o[0] = '"';
    o[1] = ':';
    o[2] = ' ';
    w->len = (size_t)(o + 3 - w->buf);
}

void jsonw_string_n(jsonw *w, const char *s, size_t n)
{
    if (!value_start(w))
        return;
    put_string(w, s, n);
    value_end(w);
}

void jsonw_string(jsonw *w, const char *s)
{
    if (!s) {
        jsonw_null(w);
        return;
    }
    jsonw_string_n(w, s, strlen(s));
}

int jsonw_format_int(int64_t v, char *buf)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int digits = 1;
    for (uint64_t t = u; t >= 10; t /= 10)
        digits++;
    int n = digits + (v < 0);
    char *p = buf + n; /* written backwards, straight into place */
    while (u >= 100) {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        *--p = pairs[d + 1];
        *--p = pairs[d];
    }
    if (u >= 10) {
        *--p = pairs[u * 2 + 1];
        *--p = pairs[u * 2];
    } else {
        *--p = (char)('0' + u);
    }
    if (v < 0)
        *--p = '-';
    return n;
}

void jsonw_int(jsonw *w, int64_t v)
{
    if (!value_start(w))
        return;
    if (w->len + 24 > JSONW_BUF)
        flush_buf(w);
    w->len += (size_t)jsonw_format_int(v, w->buf + w->len);
    value_end(w);
}

void jsonw_double(jsonw *w, double v)
{
    if (!isfinite(v)) {
        jsonw_null(w);
        return;
    }
    if (!value_start(w))
        return;
    char b[40];
    /* the fewest significant digits that read back to the same double */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(b, sizeof b, "%.*g", prec, v);
        if (strtod(b, NULL) == v)
            break;
    }
    for (char *p = b; *p; p++)
        if (*p == ',') /* a locale's decimal comma is not JSON */
            *p = '.';
    put(w, b, strlen(b));
    value_end(w);
}

void jsonw_bool(jsonw *w, bool v)
{
    if (!value_start(w))
        return;
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
    value_end(w);
}

void jsonw_null(jsonw *w)
{
    if (!value_start(w))
        return;
    put(w, "null", 4);
    value_end(w);
}

void jsonw_kv_string(jsonw *w, const char *key, const char *s)
{
    jsonw_key(w, key);
    jsonw_string(w, s);
}

void jsonw_kv_int(jsonw *w, const char *key, int64_t v)
{
    jsonw_key(w, key);
    jsonw_int(w, v);
}

void jsonw_kv_double(jsonw *w, const char *key, double v)
{
    jsonw_key(w, key);
    jsonw_double(w, v);
}

void jsonw_kv_bool(jsonw *w, const char *key, bool v)
{
    jsonw_key(w, key);
    jsonw_bool(w, v);
}

void jsonw_kv_null(jsonw *w, const char *key)
{
    jsonw_key(w, key);
    jsonw_null(w);
}

bool jsonw_finish(jsonw *w, const char **why)
{
    if (w->depth != 0 || !w->done)
        w->misuse = true;
    putc1(w, '\n');
    flush_buf(w);
    if (w->str) {
        if (why)
            *why = w->misuse ? "internal error: the JSON document is not well nested" : NULL;
        return !w->misuse;
    }
    if (!w->write_error && fflush(w->out) != 0) {
        w->write_error = true;
        w->err = errno;
    }
    if (!w->write_error && ferror(w->out)) {
        w->write_error = true;
        w->err = EIO;
    }
    if (why)
        *why = w->write_error ? strerror(w->err ? w->err : EIO)
               : w->misuse    ? "internal error: the JSON document is not well nested"
                              : NULL;
    return !w->write_error && !w->misuse;
}
