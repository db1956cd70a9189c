/* jsonw: the one JSON writer of every `--json` output. Streams to a FILE through a fixed
 * 64 KiB buffer (no document is ever held whole), escapes every string (quotes, backslash,
 * control characters, DEL; invalid UTF-8 becomes U+FFFD), writes integers exactly without printf
 * and doubles with the fewest digits that read back to the same value (NaN and infinities, which
 * JSON cannot carry, become null). Nesting is checked: a key outside an object, a value without
 * its key, a mismatched end or a second top-level value marks the writer broken.
 *
 * Two sinks: a FILE (jsonw_init), or a string buffer (jsonw_init_string) for a document kept
 * in memory (a scenario file's text, the headless snapshot).
 *
 * Layout: a container opened with JSONW_LINES puts each member on its own line, indented two
 * spaces per level; JSONW_INLINE keeps members on one line separated by ", "; JSONW_SPACED is
 * JSONW_INLINE with a space inside the brackets ("{ "a": 1 }", as scenario files write their
 * rows). jsonw_break puts the next member of an inline container on a new line. Keys are
 * followed by ": ". The caller owns the FILE or buffer; jsonw_finish flushes and reports any
 * write error. */
#ifndef BANKSCOPE_JSONW_H
#define BANKSCOPE_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../util.h"

enum { JSONW_MAX_DEPTH = 32, JSONW_BUF = 65536 };

typedef enum jsonw_layout { JSONW_INLINE, JSONW_LINES, JSONW_SPACED } jsonw_layout;

typedef struct jsonw {
    FILE *out; /* the sink: out, or else str */
    strbuf *str;
    size_t len;       /* bytes waiting in buf */
    int brk;          /* >= 0: the next member of an inline container starts a line with brk spaces */
    int depth;        /* open containers */
    bool write_error; /* a write to out failed (errno kept in err) */
    bool misuse;      /* nesting broken: the output is not a valid document */
    bool done;        /* one top-level value was completed */
    bool want_value;  /* a key was written; its value comes next */
    int err;          /* errno of the first failed write */
    struct jsonw_level {
        bool object, lines, spaced, has_member;
    } stack[JSONW_MAX_DEPTH];
    char buf[JSONW_BUF];
} jsonw;

/* Start a document written to out. */
void jsonw_init(jsonw *w, FILE *out);
/* Start a document appended to str. */
void jsonw_init_string(jsonw *w, strbuf *str);
/* The next member of the innermost (inline) container goes on a new line after spaces spaces. */
void jsonw_break(jsonw *w, int spaces);
void jsonw_begin_object(jsonw *w, jsonw_layout layout);
void jsonw_end_object(jsonw *w);
void jsonw_begin_array(jsonw *w, jsonw_layout layout);
void jsonw_end_array(jsonw *w);
/* An object member's key (escaped like any string); its value must follow. */
void jsonw_key(jsonw *w, const char *key);
/* A string value; NULL writes null. */
void jsonw_string(jsonw *w, const char *s);
/* A string value of n bytes (may hold NUL, which is escaped). */
void jsonw_string_n(jsonw *w, const char *s, size_t n);
void jsonw_int(jsonw *w, int64_t v);
void jsonw_double(jsonw *w, double v);
void jsonw_bool(jsonw *w, bool v);
void jsonw_null(jsonw *w);

/* A key that is a string literal of plain printable ASCII without '"' or '\\' (the program's
 * own field names): written without scanning, the hot path of per-lane output. The "" around
 * the argument make anything but a literal a compile error. */
#define JSONW_KEY(w, lit) jsonw_key_lit((w), "" lit "", sizeof(lit) - 1)
static inline void jsonw_key_lit(jsonw *w, const char *key, size_t n)
{
    struct jsonw_level *t = w->depth ? &w->stack[w->depth - 1] : 0;
    if (!t || !t->object || t->lines || w->brk >= 0 || w->want_value || n > 64 || JSONW_BUF - w->len < 72) {
        jsonw_key(w, key); /* checks and reports misuse, flushes, indents */
        return;
    }
    char *o = w->buf + w->len;
    if (t->has_member || t->spaced) { /* ", " between members; "{ " before the first of a spaced one */
        *o = t->has_member ? ',' : ' ';
        o += t->has_member;
        *o++ = ' ';
    }
    t->has_member = true;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) /* n is a constant: the compiler unrolls this */
        o[i] = key[i];
    o += n;
    o[0] = '"';
    o[1] = ':';
    o[2] = ' ';
    w->len = (size_t)(o + 3 - w->buf);
    w->want_value = true;
}

/* Literal key + value, as one expression. */
#define JSONW_KV_INT(w, lit, v) (JSONW_KEY(w, lit), jsonw_int((w), (v)))
#define JSONW_KV_BOOL(w, lit, v) (JSONW_KEY(w, lit), jsonw_bool((w), (v)))
#define JSONW_KV_STRING(w, lit, v) (JSONW_KEY(w, lit), jsonw_string((w), (v)))
#define JSONW_KV_NULL(w, lit) (JSONW_KEY(w, lit), jsonw_null(w))

/* key + value in one call. */
void jsonw_kv_string(jsonw *w, const char *key, const char *s);
void jsonw_kv_int(jsonw *w, const char *key, int64_t v);
void jsonw_kv_double(jsonw *w, const char *key, double v);
void jsonw_kv_bool(jsonw *w, const char *key, bool v);
void jsonw_kv_null(jsonw *w, const char *key);

/* End the document: a final newline, flush and fflush. False when anything failed (a write
 * error, nesting misuse, or containers left open); then *why says which (static text). */
bool jsonw_finish(jsonw *w, const char **why);

/* Append s escaped as the body of a JSON string (no quotes) to buf, which must hold 6 * n + 1
 * bytes; returns the length written. Shared with the other writers that must never emit
 * invalid UTF-8 (SVG uses its own XML escaping on top of jsonw_utf8_next). */
size_t jsonw_escape(const char *s, size_t n, char *buf);
/* Decode the UTF-8 sequence at s (n > 0 bytes left): its length in bytes, or 0 when the bytes
 * there are not valid UTF-8 (overlong, surrogate, above U+10FFFF, cut short); then one byte
 * should be replaced by U+FFFD. *cp receives the code point. */
int jsonw_utf8_next(const unsigned char *s, size_t n, uint32_t *cp);
/* Format v in decimal into buf (at least 21 bytes, no NUL added); returns the length. */
int jsonw_format_int(int64_t v, char *buf);

#endif
