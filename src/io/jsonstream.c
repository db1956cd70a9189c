/* jsonstream: the pull tokenizer (grammar as in RFC 8259; a window over the source that only
 * ever holds the bytes not yet read, so memory does not grow with the document). */
#include "jsonstream.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

enum {
    ST_VALUE,        /* a value must come (document start, after ':', after ',' in an array) */
    ST_VALUE_OR_END, /* after '[' */
    ST_KEY,          /* after ',' in an object */
    ST_KEY_OR_END,   /* after '{' */
    ST_AFTER,        /* after a value: ',' or the end of its container, or the document's end */
    ST_DONE,
    ST_FAILED
};

static bool fill(jsonstream *js, size_t need);

static void open_common(jsonstream *js)
{
    js->maxstr = JSONSTREAM_MAX_STRING;
    js->strcap = JSONSTREAM_MAX_STRING + 1;
    js->str = xmalloc(js->strcap);
    js->line = 1;
    js->line_start = 0;
    js->state = ST_VALUE;
}

void jsonstream_open_file(jsonstream *js, FILE *f)
{
    memset(js, 0, sizeof *js);
    js->f = f;
    js->buf = xmalloc(JSONSTREAM_WINDOW);
    open_common(js);
}

void jsonstream_open_file_head(jsonstream *js, FILE *f, const char *head, size_t n)
{
    jsonstream_open_file(js, f);
    js->len = n < JSONSTREAM_WINDOW ? n : JSONSTREAM_WINDOW;
    memcpy(js->buf, head, js->len);
}

void jsonstream_open_mem(jsonstream *js, const char *text, size_t len)
{
    memset(js, 0, sizeof *js);
    js->mem = text;
    js->memlen = len;
    js->buf = (char *)text; /* never written: a memory source is all in the window from the start */
    js->len = len;
    js->eof = true;
    open_common(js);
}

void jsonstream_close(jsonstream *js)
{
    if (!js->mem)
        free(js->buf);
    free(js->str);
    js->buf = js->str = NULL;
}

void jsonstream_max_string(jsonstream *js, size_t max)
{
    js->maxstr = max;
}

/* Room for n bytes of string and a NUL (n at most maxstr + 4). */
static void str_room(jsonstream *js, size_t n)
{
    if (n + 1 <= js->strcap)
        return;
    size_t cap = js->strcap;
    while (cap < n + 1)
        cap *= 2;
    js->str = xrealloc(js->str, cap);
    js->strcap = cap;
}

/* Skip a UTF-8 byte-order mark at the start of the document (editors on some systems write
 * one); the line then starts after it, so that columns are as without it. */
static void skip_bom(jsonstream *js)
{
    js->started = true;
    if (fill(js, 3) && memcmp(js->buf + js->pos, "\xef\xbb\xbf", 3) == 0) {
        js->pos += 3;
        js->line_start = jsonstream_offset(js);
    }
}

int64_t jsonstream_offset(const jsonstream *js)
{
    return js->base + (int64_t)js->pos;
}

/* Make at least need unread bytes available if the source has them; true when it did. */
static bool fill(jsonstream *js, size_t need)
{
    if (js->len - js->pos >= need)
        return true;
    if (js->eof)
        return false;
    memmove(js->buf, js->buf + js->pos, js->len - js->pos);
    js->base += (int64_t)js->pos;
    js->len -= js->pos;
    js->pos = 0;
    while (js->len < need && !js->eof) {
        size_t n = fread(js->buf + js->len, 1, JSONSTREAM_WINDOW - js->len, js->f);
        if (n == 0)
            js->eof = true;
        js->len += n;
    }
    return js->len - js->pos >= need;
}

/* Column (1-based, in UTF-8 characters) of the next unread byte. */
static int64_t col_here(const jsonstream *js)
{
    return jsonstream_offset(js) - js->line_start - js->cont + 1;
}

static jsonstream_token fail_at(jsonstream *js, int64_t line, int64_t col, const char *msg)
{
    js->state = ST_FAILED;
    js->line_tok = line;
    js->col_tok = col;
    snprintf(js->msg, sizeof js->msg, "%s", msg);
    return JSONSTREAM_ERROR;
}

/* An error at the next unread byte (or at the end of the source). */
static jsonstream_token fail_here(jsonstream *js, const char *msg)
{
    if (js->pos >= js->len && js->f && ferror(js->f))
        msg = "read error";
    return fail_at(js, js->line, col_here(js), msg);
}

/* A string or member name past the bound, at its opening quote. */
static jsonstream_token too_long(jsonstream *js)
{
    char msg[64];
    snprintf(msg, sizeof msg, "string longer than %zu bytes", js->maxstr);
    return fail_at(js, js->line_tok, js->col_tok, msg);
}

static jsonstream_token fail_eof(jsonstream *js)
{
    return fail_here(js, "malformed JSON (the file ends too early)");
}

/* Skip whitespace; the next byte, or -1 at the end of the source. */
static int skip_ws(jsonstream *js)
{
    for (;;) {
        if (js->pos >= js->len && !fill(js, 1))
            return -1;
        unsigned char c = (unsigned char)js->buf[js->pos];
        if (c == '\n') {
            js->pos++;
            js->line++;
            js->line_start = jsonstream_offset(js);
            js->cont = 0;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            js->pos++;
        } else {
            return c;
        }
    }
}

static int hexval(int c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Four hex digits at buf[pos]; -1 when malformed. */
static long hex4(const jsonstream *js, size_t at)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval((unsigned char)js->buf[at + (size_t)i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/* Append code point cp as UTF-8; false when the string is full. */
static bool put_utf8(jsonstream *js, long cp)
{
    char b[4];
    int n;
    if (cp < 0x80) {
        b[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xc0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xe0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        b[0] = (char)(0xf0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        b[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    if (js->slen + (size_t)n > js->maxstr)
        return false;
    str_room(js, js->slen + (size_t)n);
    memcpy(js->str + js->slen, b, (size_t)n);
    js->slen += (size_t)n;
    return true;
}

/* One escape sequence at buf[pos] (the backslash); false after an error. */
static bool read_escape(jsonstream *js)
{
    fill(js, 12);
    if (js->len - js->pos < 2) {
        fail_eof(js);
        return false;
    }
    char e = js->buf[js->pos + 1];
    const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
    const char *k = e ? strchr(from, e) : NULL;
    if (k) {
        js->pos += 2;
        return put_utf8(js, (unsigned char)to[k - from]) || (too_long(js), false);
    }
    if (e != 'u') {
        fail_here(js, "malformed JSON: unknown escape in a string (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        return false;
    }
    long cp = js->len - js->pos >= 6 ? hex4(js, js->pos + 2) : -1;
    if (cp < 0) {
        fail_here(js, "malformed JSON: \\u needs four hex digits");
        return false;
    }
    size_t used = 6;
    if (cp >= 0xd800 && cp <= 0xdbff) { /* a surrogate pair encodes one code point */
        long lo = js->len - js->pos >= 12 && js->buf[js->pos + 6] == '\\' && js->buf[js->pos + 7] == 'u'
                      ? hex4(js, js->pos + 8)
                      : -1;
        if (lo < 0xdc00 || lo > 0xdfff) {
            fail_here(js, "malformed JSON: a \\uD800-\\uDBFF escape needs its low surrogate after it");
            return false;
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        used = 12;
    } else if (cp >= 0xdc00 && cp <= 0xdfff) {
        fail_here(js, "malformed JSON: a lone low surrogate (\\uDC00-\\uDFFF)");
        return false;
    }
    js->pos += used;
    if (!put_utf8(js, cp)) {
        too_long(js);
        return false;
    }
    return true;
}

/* A string whose quote is at buf[pos], decoded into str. */
static jsonstream_token read_string(jsonstream *js, jsonstream_token kind)
{
    js->pos++;
    js->slen = 0;
    { /* fast path: the whole string in the window, without escapes or control characters */
        const char *p = js->buf + js->pos, *e = js->buf + js->len, *q = p;
        int64_t cont = 0;
        for (; q < e && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20; q++)
            cont += ((unsigned char)*q & 0xc0) == 0x80;
        size_t n = (size_t)(q - p);
        if (q < e && *q == '"' && n <= js->maxstr) {
            str_room(js, n);
            memcpy(js->str, p, n);
            js->str[n] = '\0';
            js->slen = n;
            js->cont += cont;
            js->pos += n + 1;
            return kind;
        }
    }
    for (;;) {
        if (js->pos >= js->len && !fill(js, 1))
            return fail_eof(js);
        unsigned char c = (unsigned char)js->buf[js->pos];
        if (c == '"') {
            js->pos++;
            break;
        }
        if (c < 0x20)
            return fail_here(js, "malformed JSON: a control character in a string (write \\n, \\t or \\u00XX)");
        if (c == '\\') {
            if (!read_escape(js))
                return JSONSTREAM_ERROR;
            continue;
        }
        if (js->slen >= js->maxstr)
            return too_long(js);
        str_room(js, js->slen + 1);
        if ((c & 0xc0) == 0x80)
            js->cont++;
        js->str[js->slen++] = (char)c;
        js->pos++;
    }
    js->str[js->slen] = '\0';
    return kind;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* True when c may follow a number or a literal (whitespace, ',', ']', '}', or the end). */
static inline bool is_delim(const jsonstream *js, size_t at)
{
    if (at >= js->len)
        return true;
    char c = js->buf[at];
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ']' || c == '}' || c == ':';
}

/* A number starting at buf[pos]. Whole numbers of up to 15 digits are converted directly (the
 * common case in traces); others through strtod. */
static jsonstream_token read_number(jsonstream *js)
{
    if (js->len - js->pos <= JSONSTREAM_MAX_NUMBER)
        fill(js, JSONSTREAM_MAX_NUMBER + 1);
    const char *p = js->buf + js->pos, *e = js->buf + js->len, *q = p;
    bool neg = *q == '-', whole = true;
    if (neg)
        q++;
    if (q >= e || !is_digit(*q))
        return fail_here(js, "malformed JSON: malformed number");
    int64_t v = 0;
    const char *d0 = q;
    if (*q == '0')
        q++;
    else
        for (; q < e && is_digit(*q); q++)
            if (q - d0 < 16)
                v = v * 10 + (*q - '0');
    size_t ndig = (size_t)(q - d0);
    if (q < e && *q == '.') {
        whole = false;
        if (++q >= e || !is_digit(*q))
            return fail_at(js, js->line, col_here(js) + (q - p), "malformed JSON: a digit must follow '.'");
        while (q < e && is_digit(*q))
            q++;
    }
    if (q < e && (*q == 'e' || *q == 'E')) {
        whole = false;
        q++;
        if (q < e && (*q == '+' || *q == '-'))
            q++;
        if (q >= e || !is_digit(*q))
            return fail_at(js, js->line, col_here(js) + (q - p), "malformed JSON: a digit must follow the exponent");
        while (q < e && is_digit(*q))
            q++;
    }
    size_t n = (size_t)(q - p);
    if (n > JSONSTREAM_MAX_NUMBER)
        return fail_here(js, "number longer than 64 characters");
    if (!is_delim(js, js->pos + n))
        return fail_at(js, js->line, col_here(js) + (int64_t)n, "malformed JSON: malformed number");
    if (whole && ndig <= 15) {
        js->ival = neg ? -v : v;
        js->num = (double)js->ival;
        js->is_int = true;
    } else {
        char tmp[JSONSTREAM_MAX_NUMBER + 1];
        memcpy(tmp, p, n);
        tmp[n] = '\0';
        js->num = strtod(tmp, NULL);
        js->is_int = js->num >= -9.0e15 && js->num <= 9.0e15 && (double)(int64_t)js->num == js->num;
        js->ival = js->is_int ? (int64_t)js->num : 0;
    }
    js->pos += n;
    js->state = ST_AFTER;
    return JSONSTREAM_NUMBER;
}

static jsonstream_token read_literal(jsonstream *js, const char *word, jsonstream_token kind)
{
    size_t n = strlen(word);
    fill(js, n + 1);
    if (js->len - js->pos < n || memcmp(js->buf + js->pos, word, n) != 0 || !is_delim(js, js->pos + n))
        return fail_here(js, "malformed JSON: expected a value");
    js->pos += n;
    js->state = ST_AFTER;
    return kind;
}

static jsonstream_token push(jsonstream *js, unsigned char kind)
{
    if (js->depth >= JSONSTREAM_MAX_DEPTH)
        return fail_here(js, "nested more than 64 levels deep");
    js->stack[js->depth++] = kind;
    js->pos++;
    js->state = kind == 'o' ? ST_KEY_OR_END : ST_VALUE_OR_END;
    return kind == 'o' ? JSONSTREAM_OBJECT : JSONSTREAM_ARRAY;
}

static jsonstream_token pop(jsonstream *js, jsonstream_token kind)
{
    js->depth--;
    js->pos++;
    js->state = ST_AFTER;
    return kind;
}

/* A value starting with byte c. */
static jsonstream_token read_value(jsonstream *js, int c)
{
    switch (c) {
    case '{': return push(js, 'o');
    case '[': return push(js, 'a');
    case '"': js->state = ST_AFTER; return read_string(js, JSONSTREAM_STRING);
    case 't': return read_literal(js, "true", JSONSTREAM_TRUE);
    case 'f': return read_literal(js, "false", JSONSTREAM_FALSE);
    case 'n': return read_literal(js, "null", JSONSTREAM_NULL);
    default:
        if (c == '-' || is_digit(c))
            return read_number(js);
        return fail_here(js, "malformed JSON: expected a value");
    }
}

/* A member name and its ':'. */
static jsonstream_token read_key(jsonstream *js)
{
    if (read_string(js, JSONSTREAM_KEY) == JSONSTREAM_ERROR)
        return JSONSTREAM_ERROR;
    int c = skip_ws(js);
    if (c < 0)
        return fail_eof(js);
    if (c != ':')
        return fail_here(js, "malformed JSON: expected ':' after the member name");
    js->pos++;
    js->state = ST_VALUE;
    return JSONSTREAM_KEY;
}

/* The common case of a trace, taken without the general machinery: an array element that is a
 * plain non-negative integer of up to 15 digits on the same line (", 1234"). False, having
 * read nothing, for anything else. Needs 48 bytes in the window. */
static inline bool fast_int(jsonstream *js)
{
    const char *p = js->buf + js->pos, *lim = js->buf + js->len - 17;
    if (js->state == ST_AFTER) {
        if (*p != ',' || js->depth == 0 || js->stack[js->depth - 1] != 'a')
            return false;
        p++;
    } else if (js->state != ST_VALUE_OR_END && js->state != ST_VALUE) {
        return false;
    }
    while (*p == ' ' && p < lim)
        p++;
    const char *d = p;
    int64_t v = 0;
    while (*p >= '0' && *p <= '9' && p - d < 16)
        v = v * 10 + (*p++ - '0');
    size_t n = (size_t)(p - d);
    char c = *p;
    if (n == 0 || n > 15 || (*d == '0' && n > 1) ||
        !(c == ',' || c == ']' || c == ' ' || c == '\n' || c == '}' || c == '\r' || c == '\t'))
        return false;
    js->pos = (size_t)(d - js->buf);
    js->line_tok = js->line;
    js->col_tok = col_here(js);
    js->pos += n;
    js->ival = v;
    js->num = (double)v;
    js->is_int = true;
    js->state = ST_AFTER;
    return true;
}

int jsonstream_ints(jsonstream *js, int64_t *vals, int64_t *cols, int max)
{
    /* the state is kept in locals and written back once: the loop reads and writes no field */
    const bool in_array = js->depth > 0 && js->stack[js->depth - 1] == 'a';
    if (js->state == ST_AFTER ? !in_array : js->state != ST_VALUE_OR_END || js->depth == 0)
        return 0;
    const char *const buf = js->buf;
    const int64_t col0 = js->base - js->line_start - js->cont + 1; /* col_here at buf[0] */
    size_t pos = js->pos;
    bool after = js->state == ST_AFTER;
    int n = 0;
    while (n < max && js->len - pos >= 48) {
        const char *p = buf + pos, *lim = buf + js->len - 17, *q;
        if (after) {
            if (*p != ',' || !in_array)
                break;
            p++;
        }
        while (*p == ' ' && p < lim)
            p++;
        int64_t v = 0;
        if (p[0] == 'n' && p[1] == 'u' && p[2] == 'l' && p[3] == 'l') {
            v = -1;
            q = p + 4;
        } else {
            for (q = p; (unsigned)(*q - '0') < 10u && q - p < 16; q++)
                v = v * 10 + (*q - '0');
            if (q == p || q - p > 15 || (*p == '0' && q - p > 1))
                break;
        }
        char c = *q;
        if (!(c == ',' || c == ']' || c == ' ' || c == '\n' || c == '}' || c == '\r' || c == '\t'))
            break;
        cols[n] = col0 + (p - buf);
        vals[n++] = v;
        pos = (size_t)(q - buf);
        after = true;
    }
    if (n > 0) {
        js->pos = pos;
        js->line_tok = js->line;
        js->col_tok = cols[n - 1];
        js->state = ST_AFTER;
    }
    return n;
}

jsonstream_token jsonstream_next(jsonstream *js)
{
    if (!js->started)
        skip_bom(js);
    if (js->len - js->pos >= 48 && fast_int(js))
        return JSONSTREAM_NUMBER;
    for (;;) {
        if (js->state == ST_DONE)
            return JSONSTREAM_END;
        if (js->state == ST_FAILED)
            return JSONSTREAM_ERROR;
        int c = skip_ws(js);
        js->line_tok = js->line;
        js->col_tok = col_here(js);
        if (c < 0 && !(js->state == ST_AFTER && js->depth == 0))
            return fail_eof(js);
        switch (js->state) {
        case ST_AFTER:
            if (js->depth == 0) {
                if (c >= 0)
                    return fail_here(js, "unexpected text after the JSON document");
                js->state = ST_DONE;
                return JSONSTREAM_END;
            }
            if (c == ',') {
                js->pos++;
                js->state = js->stack[js->depth - 1] == 'o' ? ST_KEY : ST_VALUE;
                continue;
            }
            if (js->stack[js->depth - 1] == 'o')
                return c == '}' ? pop(js, JSONSTREAM_OBJECT_END) : fail_here(js, "malformed JSON: expected ',' or '}'");
            return c == ']' ? pop(js, JSONSTREAM_ARRAY_END) : fail_here(js, "malformed JSON: expected ',' or ']'");
        case ST_KEY_OR_END:
        case ST_KEY:
            if (c == '}' && js->state == ST_KEY_OR_END)
                return pop(js, JSONSTREAM_OBJECT_END);
            if (c != '"')
                return fail_here(js, "malformed JSON: expected a member name in double quotes");
            return read_key(js);
        case ST_VALUE_OR_END:
            if (c == ']')
                return pop(js, JSONSTREAM_ARRAY_END);
            return read_value(js, c);
        default: return read_value(js, c);
        }
    }
}

bool jsonstream_skip(jsonstream *js, jsonstream_token first)
{
    if (first == JSONSTREAM_ERROR)
        return false;
    if (first != JSONSTREAM_OBJECT && first != JSONSTREAM_ARRAY)
        return true;
    int depth = js->depth - 1;
    for (;;) {
        jsonstream_token t = jsonstream_next(js);
        if (t == JSONSTREAM_ERROR)
            return false;
        if ((t == JSONSTREAM_OBJECT_END || t == JSONSTREAM_ARRAY_END) && js->depth == depth)
            return true;
    }
}

bool jsonstream_skip_fast(jsonstream *js, jsonstream_token first)
{
    if (first == JSONSTREAM_ERROR)
        return false;
    if (first != JSONSTREAM_OBJECT && first != JSONSTREAM_ARRAY)
        return true;
    int depth = 1;
    bool in_string = false, escaped = false;
    for (;;) {
        if (js->pos >= js->len && !fill(js, 1)) {
            fail_eof(js);
            return false;
        }
        const char *p = js->buf + js->pos, *e = js->buf + js->len;
        while (p < e) {
            char c = *p++;
            if (in_string) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    in_string = false;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                js->pos = (size_t)(p - js->buf);
                js->depth--;
                js->state = ST_AFTER;
                return true;
            }
        }
        js->pos = js->len;
    }
}
