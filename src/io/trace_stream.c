/* trace_stream: the streaming trace reader (members before the trace, one instruction per call,
 * members after it). */
#include "trace_stream.h"

#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "io/recording.h"
#include "model/kinds.h"

/* A line of a recording in the index that finds an entry's line. */
struct line_key {
    int line, index;
    const char *file;
};

struct trace_stream {
    jsonstream js;
    FILE *f;
    char *path;       /* owned; NULL for text */
    const char *text; /* not owned */
    size_t len;
    char *name; /* owned, for messages */
    scenario hdr;
    bool arch_given; /* --arch replaces the file's */
    bool arch_seen;  /* the file's "arch" was read (or found by the look-ahead) */
    unsigned seen;   /* the header members read so far (bits: name, description, arch) */
    bool piped;      /* read from a pipe: no look ahead */
    bool in_tail;    /* the members after the trace are being read */
    bool done;
    int64_t count, max;
    int64_t trace_line, trace_col; /* where the array of instructions starts */
    /* a recording: its source lines (file, line, text), and the last instruction's location */
    scenario_srcloc *lines;
    int nlines, caplines;
    struct line_key *by_line; /* the lines sorted by line number, then file (nby_line of them) */
    int nby_line;
    scenario_srcloc at;
    bool have_at;
    int64_t pc, warp; /* the last instruction's "pc" and "warp" (a recording's), -1: none */
    char *sass;       /* owned: its "sass", NULL: none */
    /* the recording read in the same pass (trace_stream_open_keep) */
    trace_stream_keep keep;
    recording_reader *rr; /* from "format" on, until taken */
    bool rec_failed;      /* a member broke a rule: the rest of the recording is skipped */
    bool rec_complete;    /* every member it needs was read (its lines before the trace, or the end) */
};

/* "NAME:LINE:COL: PATH: MSG" into err; returns -1. */
static int failf(trace_stream *t, io_error *err, int64_t line, int64_t col, const char *msg, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int failf(trace_stream *t, io_error *err, int64_t line, int64_t col, const char *msg, const char *fmt, ...)
{
    char path[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    snprintf(err->text, sizeof err->text, "%s:%lld:%lld: %s%s%s", t->name, (long long)line, (long long)col, path,
             *path ? ": " : "", msg);
    t->done = true;
    return -1;
}

/* The tokenizer's error (syntax, limits) into err; returns -1. */
static int fail_js(trace_stream *t, io_error *err)
{
    return failf(t, err, t->js.line_tok, t->js.col_tok, t->js.msg, "%s", "");
}

/* Copy the token's text into key (n bytes, truncated): member names are compared there once the
 * value has replaced them in js.str. */
static void copy_key(const trace_stream *t, char *key, size_t n)
{
    size_t k = t->js.slen < n - 1 ? t->js.slen : n - 1;
    memcpy(key, t->js.str, k);
    key[k] = '\0';
}

/* A fail at the token just read; when the tokenizer refused it (a string longer than it
 * accepts), its words ("string longer than 1048576 bytes"), not the caller's expectation. */
#define FAIL_TOK(t, err, what, ...)                                                                                    \
    failf(t, err, (t)->js.line_tok, (t)->js.col_tok, (t)->js.msg[0] ? (t)->js.msg : (what), __VA_ARGS__)

bool trace_stream_record_key(const char *key)
{
    static const char *const keys[] = {"program",   "arguments",   "device",   "kernel",       "launch",    "grid",
                                       "block_dim", "block",       "executed", "captured",     "truncated", "line_info",
                                       "lines",     "not_visible", "measured", "measured_why", "arrays"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(key, keys[i]) == 0)
            return true;
    return false;
}

/* The locations (file, line, text) of rows from..n-1 of r, copied. */
static void add_locations(trace_stream *t, const recording *r, int from)
{
    if (r->nrows <= from)
        return;
    t->lines = xrealloc(t->lines, (size_t)(t->nlines + r->nrows - from + 1) * sizeof *t->lines);
    t->caplines = t->nlines + r->nrows - from + 1;
    for (int i = from; i < r->nrows; i++) {
        const source_record_line *x = &r->rows[i];
        t->lines[t->nlines++] = (scenario_srcloc){.file = x->file ? xstrdup(x->file) : NULL,
                                                  .line = x->line > 0 ? x->line : 0,
                                                  .text = x->text ? xstrdup(x->text) : NULL,
                                                  .warp = -1,
                                                  .pc = -1};
    }
}

/* A member of a recording (its key just read) handed to the recording's reader in this pass; a
 * member that breaks the recording's rules leaves the trace alone (its rest is skipped, the
 * error kept for trace_stream_take_recording). 0, or -1 with err when the file does not read. */
static int record_member(trace_stream *t, const char *key, io_error *err)
{
    jsonstream_token v = jsonstream_next(&t->js);
    if (v == JSONSTREAM_ERROR)
        return fail_js(t, err);
    int before = recording_reader_peek(t->rr)->nrows;
    if (!recording_reader_member(t->rr, &t->js, key, v)) {
        if (t->js.msg[0] || recording_reader_stops(t->rr)) { /* the file does not read, or a location
                                                                does not: said as the reader says it */
            const char *why = recording_reader_error(t->rr);
            if (!why)
                return fail_js(t, err);
            snprintf(err->text, sizeof err->text, "%s", why);
            t->done = true;
            return -1;
        }
        t->rec_failed = true;
        while (t->js.depth > 1) /* the rest of the member */
            if (jsonstream_next(&t->js) == JSONSTREAM_ERROR)
                return fail_js(t, err);
    }
    add_locations(t, recording_reader_peek(t->rr), before);
    return 0;
}

/* A recording's "lines" (its '[' just read), read by the recording's one reader (io/recording.h):
 * each line's file, line and text are kept for the locations of the instructions. 0, or -1 with
 * err. */
static int read_lines(trace_stream *t, io_error *err)
{
    recording r;
    memset(&r, 0, sizeof r);
    if (!recording_read_locations(&t->js, t->name, &r, err)) {
        recording_free(&r);
        t->done = true;
        return -1;
    }
    t->lines = xrealloc(t->lines, (size_t)(t->nlines + r.nrows + 1) * sizeof *t->lines);
    t->caplines = t->nlines + r.nrows + 1;
    for (int i = 0; i < r.nrows; i++) { /* the strings taken over, not copied */
        source_record_line *x = &r.rows[i];
        t->lines[t->nlines++] = (scenario_srcloc){
            .file = (char *)x->file, .line = x->line > 0 ? x->line : 0, .text = (char *)x->text, .warp = -1, .pc = -1};
        x->file = x->text = NULL;
    }
    recording_free(&r);
    return 0;
}

/* Order of the index: line number, then file (none first), then position in the file. */
static int by_line_cmp(const void *a, const void *b)
{
    const struct line_key *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    int c = !x->file || !y->file ? (x->file != NULL) - (y->file != NULL) : strcmp(x->file, y->file);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The text of the recording's line (file, ln), or NULL: a binary search of the index, so that
 * each entry costs log(lines) and a recording of a hundred thousand lines reads in linear time. */
static const char *line_text(trace_stream *t, const char *file, int ln)
{
    if (t->nby_line != t->nlines) { /* (re)built once the lines are read */
        t->by_line = xrealloc(t->by_line, (size_t)(t->nlines ? t->nlines : 1) * sizeof *t->by_line);
        for (int i = 0; i < t->nlines; i++)
            t->by_line[i] = (struct line_key){.line = t->lines[i].line, .index = i, .file = t->lines[i].file};
        qsort(t->by_line, (size_t)t->nlines, sizeof *t->by_line, by_line_cmp);
        t->nby_line = t->nlines;
    }
    struct line_key want = {.line = ln, .index = -1, .file = file};
    int lo = 0, hi = t->nby_line;
    while (lo < hi) { /* the first key not before (ln, file): the first such line of the file */
        int mid = lo + (hi - lo) / 2;
        if (by_line_cmp(&t->by_line[mid], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    const struct line_key *k = lo < t->nby_line ? &t->by_line[lo] : NULL;
    return k && k->line == ln && k->file && strcmp(k->file, file) == 0 ? t->lines[k->index].text : NULL;
}

/* The location of a recording's entry from its "source" ("FILE:LINE"), with the text of that
 * line from "lines". */
static void set_location(trace_stream *t, const char *source)
{
    const char *colon = strrchr(source, ':');
    char *end = NULL;
    long ln = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || !end || *end || ln < 1 || ln > INT32_MAX) {
        scenario_srcloc_set(&t->at, source, 0, 0, NULL);
        t->have_at = true;
        return;
    }
    size_t flen = (size_t)(colon - source);
    char *file = xmalloc(flen + 1);
    memcpy(file, source, flen);
    file[flen] = '\0';
    scenario_srcloc_set(&t->at, file, (int)ln, 0, line_text(t, file, (int)ln));
    free(file);
    t->have_at = true;
}

const scenario_srcloc *trace_stream_location(const trace_stream *t)
{
    return t->have_at ? &t->at : NULL;
}

int64_t trace_stream_pc(const trace_stream *t)
{
    return t->pc;
}

int64_t trace_stream_warp(const trace_stream *t)
{
    return t->warp;
}

/* One top-level member other than "trace" whose key was just read: 0 read, 1 not a member a
 * trace has, -1 error. */
static int header_member(trace_stream *t, io_error *err)
{
    char key[16];
    copy_key(t, key, sizeof key);
    bool is_arch = strcmp(t->js.str, "arch") == 0;
    if (strcmp(t->js.str, "format") == 0) {
        jsonstream_token v = jsonstream_next(&t->js);
        if (v == JSONSTREAM_ERROR)
            return fail_js(t, err);
        if (v != JSONSTREAM_STRING || strcmp(t->js.str, "bankscope-record/1") != 0)
            return FAIL_TOK(t, err, "a trace's format is \"bankscope-record/1\" (a recording)", "%s", "format");
        t->hdr.recording = true;
        if (t->keep != TRACE_KEEP_LOCATIONS && !t->rr && !t->rec_complete)
            t->rr = recording_reader_new(t->name, t->keep == TRACE_KEEP_INDEXES);
        return 0;
    }
    if (t->rr && !t->rec_failed && !t->rec_complete && trace_stream_record_key(t->js.str)) {
        char rkey[32];
        copy_key(t, rkey, sizeof rkey);
        return record_member(t, rkey, err);
    }
    if (strcmp(t->js.str, "lines") == 0) {
        jsonstream_token v = jsonstream_next(&t->js);
        if (v == JSONSTREAM_ERROR)
            return fail_js(t, err);
        return v == JSONSTREAM_ARRAY ? read_lines(t, err) : FAIL_TOK(t, err, "expected an array", "%s", "lines");
    }
    if (trace_stream_record_key(t->js.str)) { /* what a recording says beside its trace */
        jsonstream_token v = jsonstream_next(&t->js);
        if (v == JSONSTREAM_ERROR || !jsonstream_skip(&t->js, v))
            return fail_js(t, err);
        return 0;
    }
    if (!is_arch && strcmp(t->js.str, "name") != 0 && strcmp(t->js.str, "description") != 0)
        return 1;
    unsigned bit = is_arch ? 4u : key[0] == 'n' ? 1u : 2u;
    if (t->seen & bit) /* one model and one label: never the first of two */
        return FAIL_TOK(t, err, "this key is given twice", "%s", key);
    t->seen |= bit;
    jsonstream_token v = jsonstream_next(&t->js);
    if (v == JSONSTREAM_ERROR)
        return fail_js(t, err);
    if (v != JSONSTREAM_STRING)
        return FAIL_TOK(t, err, "expected a string", "%s", key);
    if (is_arch) {
        const banks_profile *p = banks_profile_find(t->js.str);
        if (!p) {
            char names[256], msg[300];
            banks_profile_names(names, sizeof names);
            snprintf(msg, sizeof msg, "unknown architecture (%s)", names);
            return FAIL_TOK(t, err, msg, "%s", "arch");
        }
        if (t->piped && t->in_tail && !t->arch_given) /* the instructions were analysed with another */
            return FAIL_TOK(t, err,
                            "a trace read from a pipe gives \"arch\" before \"trace\" (or use --arch NAME): "
                            "the instructions were read with the default model",
                            "arch");
        if (!t->arch_given)
            t->hdr.arch = p;
        t->arch_seen = true;
        return 0;
    }
    char **dst = key[0] == 'n' ? &t->hdr.name : &t->hdr.description;
    free(*dst);
    *dst = xstrdup(t->js.str);
    return 0;
}

/* Find the top-level "arch" ahead of the reading position (it may follow the trace): a second,
 * fast pass over the file that skips every other value. Problems are left to the real pass. */
static void look_ahead_arch(trace_stream *t)
{
    jsonstream js;
    FILE *f = NULL;
    if (t->text) {
        jsonstream_open_mem(&js, t->text, t->len);
        jsonstream_max_string(&js, TRACE_MAX_STRING);
    } else {
        f = load_fopen(t->path);
        if (!f)
            return;
        jsonstream_open_file(&js, f);
        jsonstream_max_string(&js, TRACE_MAX_STRING);
    }
    if (jsonstream_next(&js) == JSONSTREAM_OBJECT) {
        while (jsonstream_next(&js) == JSONSTREAM_KEY) {
            bool is_arch = strcmp(js.str, "arch") == 0;
            jsonstream_token v = jsonstream_next(&js);
            if (is_arch) {
                const banks_profile *p = v == JSONSTREAM_STRING ? banks_profile_find(js.str) : NULL;
                if (p)
                    t->hdr.arch = p;
                break;
            }
            if (!jsonstream_skip_fast(&js, v))
                break;
        }
    }
    jsonstream_close(&js);
    if (f)
        fclose(f);
}

/* False with the message when arch (--arch) is given and is not an architecture. */
static bool arch_ok(const char *name, const char *arch, io_error *err)
{
    if (!arch || banks_profile_find(arch))
        return true;
    snprintf(err->text, sizeof err->text, "%s: unknown architecture '%s'", name, arch);
    return false;
}

/* A stream reading f (owned) or text, for messages called name, with the architecture arch
 * (checked by arch_ok) when not NULL. */
static trace_stream *stream_new(FILE *f, const char *path, const char *text, size_t len, const char *name,
                                const char *arch)
{
    const banks_profile *forced = arch ? banks_profile_find(arch) : NULL;
    trace_stream *t = xcalloc(1, sizeof *t);
    t->f = f;
    t->path = path && !text ? xstrdup(path) : NULL;
    t->text = text;
    t->len = len;
    t->name = xstrdup(name);
    scenario_init(&t->hdr);
    t->hdr.is_trace = true;
    t->hdr.iterations = 1;
    if (forced) {
        t->hdr.arch = forced;
        t->arch_given = true;
    }
    return t;
}

/* Read the members before "trace" and the '[' of the instructions. */
static trace_stream_status start(trace_stream *t, trace_stream **out, io_error *err)
{
    trace_stream_status st = TRACE_STREAM_NOT_TRACE;
    if (jsonstream_next(&t->js) != JSONSTREAM_OBJECT)
        goto out;
    for (;;) {
        jsonstream_token k = jsonstream_next(&t->js);
        if (k == JSONSTREAM_ERROR) {
            fail_js(t, err);
            st = TRACE_STREAM_ERROR;
            goto out;
        }
        if (k != JSONSTREAM_KEY)
            goto out; /* an object without "trace" */
        if (strcmp(t->js.str, "trace") == 0) {
            /* the lines and what they need come before the trace (the recording's reader's rule) */
            t->rec_complete = t->rr && recording_reader_has_lines(t->rr);
            break;
        }
        int r = header_member(t, err);
        if (r != 0) {
            st = r < 0 ? TRACE_STREAM_ERROR : TRACE_STREAM_NOT_TRACE;
            goto out;
        }
    }
    jsonstream_token a = jsonstream_next(&t->js);
    t->trace_line = t->js.line_tok;
    t->trace_col = t->js.col_tok;
    if (a == JSONSTREAM_ERROR || a != JSONSTREAM_ARRAY) {
        if (a == JSONSTREAM_ERROR)
            fail_js(t, err);
        else
            FAIL_TOK(t, err, "expected an array of instructions", "trace");
        st = TRACE_STREAM_ERROR;
        goto out;
    }
    if (!t->arch_given && !t->arch_seen && !t->piped)
        look_ahead_arch(t);
    *out = t;
    return TRACE_STREAM_OK;
out:
    trace_stream_close(t);
    return st;
}

trace_stream_status trace_stream_open(const char *path, const char *text, size_t len, const char *name,
                                      const char *arch, trace_stream **out, io_error *err)
{
    return trace_stream_open_keep(path, text, len, name, arch, TRACE_KEEP_LOCATIONS, out, err);
}

trace_stream_status trace_stream_open_keep(const char *path, const char *text, size_t len, const char *name,
                                           const char *arch, trace_stream_keep keep, trace_stream **out, io_error *err)
{
    *out = NULL;
    if (!arch_ok(name, arch, err))
        return TRACE_STREAM_ERROR;
    FILE *f = NULL;
    if (!text && !(f = load_fopen(path)))
        return TRACE_STREAM_NOT_TRACE; /* the whole-file loader says why */
    trace_stream *t = stream_new(f, path, text, len, name, arch);
    t->keep = keep;
    if (text)
        jsonstream_open_mem(&t->js, text, len);
    else
        jsonstream_open_file(&t->js, f);
    jsonstream_max_string(&t->js, TRACE_MAX_STRING);
    return start(t, out, err);
}

trace_stream_status trace_stream_open_pipe(FILE *f, const char *head, size_t n, const char *name, const char *arch,
                                           trace_stream **out, io_error *err)
{
    *out = NULL;
    if (!arch_ok(name, arch, err)) {
        fclose(f);
        return TRACE_STREAM_ERROR;
    }
    trace_stream *t = stream_new(f, NULL, NULL, 0, name, arch);
    t->piped = true;
    jsonstream_open_file_head(&t->js, f, head, n);
    jsonstream_max_string(&t->js, TRACE_MAX_STRING);
    return start(t, out, err);
}

bool trace_stream_is_trace(const char *text, size_t len)
{
    jsonstream js;
    jsonstream_open_mem(&js, text, len);
    jsonstream_max_string(&js, TRACE_MAX_STRING);
    bool is = false, go = jsonstream_next(&js) == JSONSTREAM_OBJECT;
    while (go && jsonstream_next(&js) == JSONSTREAM_KEY) {
        is = strcmp(js.str, "trace") == 0;
        go = !is && (!strcmp(js.str, "name") || !strcmp(js.str, "description") || !strcmp(js.str, "arch")) &&
             jsonstream_next(&js) == JSONSTREAM_STRING;
    }
    jsonstream_close(&js);
    return is;
}

void trace_stream_limit(trace_stream *t, int64_t max)
{
    t->max = max;
}

scenario *trace_stream_header(trace_stream *t)
{
    return &t->hdr;
}

int64_t trace_stream_offset(const trace_stream *t)
{
    return jsonstream_offset(&t->js);
}

void trace_stream_close(trace_stream *t)
{
    if (!t)
        return;
    jsonstream_close(&t->js);
    if (t->f)
        fclose(t->f);
    scenario_free(&t->hdr);
    for (int i = 0; i < t->nlines; i++)
        scenario_srcloc_free(&t->lines[i]);
    free(t->lines);
    free(t->by_line);
    scenario_srcloc_free(&t->at);
    free(t->sass);
    free(t->path);
    free(t->name);
    recording_reader_free(t->rr);
    free(t);
}

int trace_stream_take_recording(trace_stream *t, recording *out, io_error *err)
{
    memset(out, 0, sizeof *out);
    out->launch = -1;
    if (!t->rr || !(t->rec_complete || t->rec_failed))
        return 0;
    int rc = recording_reader_finish(t->rr, out, err);
    t->rr = NULL;
    return rc;
}

/* An integer token in [lo, hi] (the whole-file loader's rules and messages); -1 on error. */
static int get_int(trace_stream *t, io_error *err, jsonstream_token v, int64_t lo, int64_t hi, int64_t *out,
                   const char *path)
{
    if (v == JSONSTREAM_ERROR)
        return fail_js(t, err);
    bool huge = v == JSONSTREAM_NUMBER && !t->js.is_int && isfinite(t->js.num) && t->js.num == floor(t->js.num);
    if (!huge && (v != JSONSTREAM_NUMBER || !t->js.is_int))
        return FAIL_TOK(t, err, "expected a whole number", "%s", path);
    if (huge || t->js.ival < lo || t->js.ival > hi) { /* huge: a whole number beyond +-9e15 */
        char msg[96];
        snprintf(msg, sizeof msg, "out of range: must be %lld..%lld", (long long)lo, (long long)hi);
        return FAIL_TOK(t, err, msg, "%s", path);
    }
    *out = t->js.ival;
    return 0;
}

/* The 32 addresses of instruction i (the '[' was just read). Positions are kept until the width
 * is known, for the alignment check. Widths are powers of two (checked when read), so a
 * multiple of the width is a mask test. */
static int read_addresses(trace_stream *t, io_error *err, banks_request *r, int64_t width, int64_t pos[][2])
{
    int64_t aline = t->js.line_tok, acol = t->js.col_tok, hi = t->hdr.arch->smem_per_block - 1;
    const char *const want = "expected 32 addresses (null for an inactive lane)";
    r->active = 0;
    for (int l = 0;; l++) {
        int64_t vals[BANKS_WARP], cols[BANKS_WARP], line = t->js.line;
        int n = l < BANKS_WARP ? jsonstream_ints(&t->js, vals, cols, BANKS_WARP - l) : 0;
        for (int k = 0; k < n; k++, l++) { /* the common case, many at a time */
            r->addr[l] = 0;
            if (vals[k] < 0) /* null */
                continue;
            if (vals[k] > hi || (width && (vals[k] & (width - 1)))) {
                char msg[64];
                if (vals[k] > hi)
                    snprintf(msg, sizeof msg, "must be 0..%lld", (long long)hi);
                else
                    snprintf(msg, sizeof msg, "address is not a multiple of the width");
                return failf(t, err, line, cols[k], msg, "trace[%lld].addresses[%d]", (long long)t->count, l);
            }
            pos[l][0] = line;
            pos[l][1] = cols[k];
            r->addr[l] = vals[k];
            r->active |= 1u << l;
        }
        jsonstream_token v = jsonstream_next(&t->js);
        if (v == JSONSTREAM_ARRAY_END) {
            if (l != BANKS_WARP)
                return failf(t, err, aline, acol, want, "trace[%lld].addresses", (long long)t->count);
            return 0;
        }
        if (l >= BANKS_WARP)
            return failf(t, err, aline, acol, want, "trace[%lld].addresses", (long long)t->count);
        if (v == JSONSTREAM_NULL) {
            r->addr[l] = 0;
            continue;
        }
        if (v != JSONSTREAM_NUMBER || !t->js.is_int || t->js.ival < 0 || t->js.ival > hi) {
            char path[80];
            snprintf(path, sizeof path, "trace[%lld].addresses[%d]", (long long)t->count, l);
            int64_t dummy;
            return get_int(t, err, v, 0, hi, &dummy, path);
        }
        if (width && (t->js.ival & (width - 1)) != 0)
            return FAIL_TOK(t, err, "address is not a multiple of the width", "trace[%lld].addresses[%d]",
                            (long long)t->count, l);
        pos[l][0] = t->js.line_tok;
        pos[l][1] = t->js.col_tok;
        r->addr[l] = t->js.ival;
        r->active |= 1u << l;
    }
}

/* One instruction object (its '{' just read) into *r. */
static int read_instruction(trace_stream *t, io_error *err, banks_request *r)
{
    int64_t eline = t->js.line_tok, ecol = t->js.col_tok, width = 0, pos[BANKS_WARP][2];
    bool have_op = false, have_addr = false;
    /* the tensor-era keys (README, "The tensor-era access kinds") */
    bool have_mat = false, have_trans = false, have_atomic = false, have_returns = false;
    int64_t mline = 0, mcol = 0, oline = 0, ocol = 0, cline = 0, ccol = 0;
    char cache[8] = ""; /* "cache": "ca" or "cg" (cp.async) */
    char form[8] = "";  /* "form": "popc" (atomic) */
    char sass[32] = ""; /* a recording's entry: the SASS opcode, which decides the kind */
    int64_t fline = 0, fcol = 0;
    r->matrices = 0;
    r->trans = false;
    r->atomic = BANKS_ATOM_ADD;
    r->returns = true;
    t->have_at = false;
    t->pc = t->warp = -1;
    free(t->sass);
    t->sass = NULL;
    long long i = (long long)t->count;
    for (;;) {
        jsonstream_token k = jsonstream_next(&t->js);
        if (k == JSONSTREAM_OBJECT_END)
            break;
        if (k == JSONSTREAM_ERROR)
            return fail_js(t, err);
        char key[64];
        copy_key(t, key, sizeof key);
        bool dup = false;
        int64_t kline = t->js.line_tok, kcol = t->js.col_tok;
        jsonstream_token v = jsonstream_next(&t->js);
        if (v == JSONSTREAM_ERROR)
            return fail_js(t, err);
        if (strcmp(key, "op") == 0) {
            dup = have_op;
            if (v != JSONSTREAM_STRING)
                return FAIL_TOK(t, err, "expected a string", "trace[%lld].op", i);
            char msg[160];
            if (!banks_op_parse(t->js.str, &r->op))
                return FAIL_TOK(t, err, kinds_op_message(msg, sizeof msg), "trace[%lld].op", i);
            have_op = true;
            oline = t->js.line_tok;
            ocol = t->js.col_tok;
        } else if (strcmp(key, "cache") == 0) {
            dup = cache[0] != '\0';
            if (v != JSONSTREAM_STRING || !kinds_find_op("cp.async", t->js.str))
                return FAIL_TOK(t, err, "cache is \"ca\" (through L1, the default) or \"cg\" (L1 bypassed)",
                                "trace[%lld].cache", i);
            snprintf(cache, sizeof cache, "%.7s", t->js.str);
            cline = t->js.line_tok;
            ccol = t->js.col_tok;
        } else if (strcmp(key, "form") == 0) {
            dup = form[0] != '\0';
            if (v != JSONSTREAM_STRING || !kinds_find_form("atomic", t->js.str))
                return FAIL_TOK(t, err, "form is \"popc\" (an add of 1 whose lanes on one word merge)",
                                "trace[%lld].form", i);
            snprintf(form, sizeof form, "%.7s", t->js.str);
            fline = t->js.line_tok;
            fcol = t->js.col_tok;
        } else if (strcmp(key, "matrices") == 0) {
            dup = have_mat;
            if (v != JSONSTREAM_NUMBER || !t->js.is_int || (t->js.ival != 1 && t->js.ival != 2 && t->js.ival != 4))
                return FAIL_TOK(t, err, "matrices is 1, 2 or 4", "trace[%lld].matrices", i);
            r->matrices = (int)t->js.ival;
            mline = t->js.line_tok;
            mcol = t->js.col_tok;
            have_mat = true;
        } else if (strcmp(key, "trans") == 0 || strcmp(key, "returns") == 0) {
            bool tr = key[0] == 't';
            dup = tr ? have_trans : have_returns;
            if (v != JSONSTREAM_TRUE && v != JSONSTREAM_FALSE)
                return FAIL_TOK(t, err, "expected true or false", "trace[%lld].%s", i, key);
            if (tr) {
                r->trans = v == JSONSTREAM_TRUE;
                have_trans = true;
            } else {
                r->returns = v == JSONSTREAM_TRUE;
                have_returns = true;
            }
            if (!mline) {
                mline = t->js.line_tok;
                mcol = t->js.col_tok;
            }
        } else if (strcmp(key, "atomic") == 0) {
            dup = have_atomic;
            if (v != JSONSTREAM_STRING || !banks_atomic_parse(t->js.str, &r->atomic))
                return FAIL_TOK(t, err, "atomic is add, min, max, and, or, xor, exch, cas or inc", "trace[%lld].atomic",
                                i);
            have_atomic = true;
        } else if (strcmp(key, "width") == 0) {
            dup = width != 0;
            if (v != JSONSTREAM_NUMBER || !t->js.is_int || !banks_width_ok((int)t->js.ival)) {
                char path[48]; /* formatted only for a message */
                snprintf(path, sizeof path, "trace[%lld].width", i);
                if (get_int(t, err, v, 1, 16, &width, path) < 0)
                    return -1;
                return FAIL_TOK(t, err, "width is 1, 2, 4, 8 or 16", "%s", path);
            }
            width = t->js.ival;
        } else if (strcmp(key, "addresses") == 0) {
            dup = have_addr;
            if (v != JSONSTREAM_ARRAY)
                return FAIL_TOK(t, err, "expected 32 addresses (null for an inactive lane)", "trace[%lld].addresses",
                                i);
            if (read_addresses(t, err, r, width, pos) < 0)
                return -1;
            have_addr = true;
        } else if (strcmp(key, "pc") == 0 || strcmp(key, "warp") == 0) {
            /* a recording's entry: where it ran (bankscope record) */
            if (v != JSONSTREAM_NUMBER || !t->js.is_int || t->js.ival < 0)
                return FAIL_TOK(t, err, "expected a non-negative integer", "trace[%lld].%s", i, key);
            if (key[0] == 'p')
                t->pc = t->js.ival;
            else
                t->warp = t->js.ival;
        } else if (strcmp(key, "sass") == 0 || strcmp(key, "source") == 0) {
            if (v != JSONSTREAM_STRING && v != JSONSTREAM_NULL)
                return FAIL_TOK(t, err, "expected a string or null", "trace[%lld].%s", i, key);
            if (key[1] == 'o' && v == JSONSTREAM_STRING)
                set_location(t, t->js.str);
            else if (key[1] == 'a' && v == JSONSTREAM_STRING) { /* the opcode: "@P0 ATOMS.POPC.INC.32 RZ, ..." */
                const char *op = t->js.str + strspn(t->js.str, " \t");
                if (*op == '@') /* the predicate */
                    op += strcspn(op, " \t"), op += strspn(op, " \t");
                snprintf(sass, sizeof sass, "%.*s", (int)strcspn(op, " \t"), op);
                free(t->sass);
                t->sass = xstrdup(t->js.str); /* the whole instruction, for the entry's location */
            }
        } else {
            char msg[96];
            snprintf(msg, sizeof msg, "unknown key '%.60s'", key);
            return FAIL_TOK(t, err, msg, "trace[%lld].%s", i, key);
        }
        if (dup)
            return failf(t, err, kline, kcol, "this key is given twice", "trace[%lld].%s", i, key);
    }
    if (!have_op)
        return failf(t, err, eline, ecol, "missing key 'op'", "trace[%lld]", i);
    if (form[0]) { /* the kind the form names: atomic.popc is a row of its own */
        const kinds_row *k = kinds_find_form(banks_op_name(r->op), form);
        if (!k)
            return failf(t, err, fline, fcol, "only atomics take this key", "trace[%lld].form", i);
        r->op = (banks_op)k->op;
    }
    const kinds_row *krow = kinds_of(r->op); /* the keys each kind takes: the kinds table */
    bool matrix = kinds_takes_key(krow, "matrices"), atomic = kinds_takes_key(krow, "atomic");
    if ((have_mat || have_trans) && !matrix)
        return failf(t, err, mline, mcol, "only ldmatrix and stmatrix take this key", "trace[%lld].%s", i,
                     have_mat ? "matrices" : "trans");
    if ((have_atomic || have_returns) && !atomic)
        return failf(t, err, eline, ecol,
                     form[0] ? "the popc form adds 1 and returns nothing: it takes no atomic or returns"
                             : "only atomics take this key",
                     "trace[%lld].%s", i, have_atomic ? "atomic" : "returns");
    if (cache[0]) { /* the kind the cache names: cp.async.cg is a row of its own */
        const kinds_row *k = kinds_find_op(banks_op_name(r->op), cache);
        if (!k)
            return failf(t, err, cline, ccol, "only cp.async takes this key", "trace[%lld].cache", i);
        r->op = (banks_op)k->op;
    }
    if (atomic && !have_atomic)
        return failf(t, err, eline, ecol, "missing key 'atomic'", "trace[%lld]", i);
    const kinds_row *by_sass = sass[0] ? kinds_find_sass(sass) : NULL;
    if (by_sass && by_sass->op >= 0 && strcmp(kinds_op_text(by_sass), kinds_op_text(krow)) == 0)
        r->op = (banks_op)by_sass->op; /* a recording's entry is the kind its SASS is: ATOMS.POPC.INC */
    if (matrix && !have_mat)
        r->matrices = 4;
    if (matrix && !width)
        width = 16; /* a matrix row */
    if (form[0] && !width)
        width = 4; /* atomic.popc: a 4-byte add of 1 */
    if (!width)
        return failf(t, err, eline, ecol, "missing key 'width'", "trace[%lld]", i);
    if (!have_addr)
        return failf(t, err, eline, ecol, "expected 32 addresses (null for an inactive lane)", "trace[%lld]", i);
    r->width = (int)width;
    const char *why = banks_request_problem(r);
    if (why)
        return failf(t, err, eline, ecol, why, "trace[%lld]", i);
    char buf[160];
    if ((why = kinds_arch_problem(kinds_of(r->op), r->width, t->hdr.arch, buf, sizeof buf)))
        return failf(t, err, oline, ocol, why, "trace[%lld].op", i);
    if (matrix) /* lanes past 8 x matrices give no row: ignored */
        r->active &= r->matrices == 4 ? 0xffffffffu : (1u << (8 * r->matrices)) - 1u;
    for (int l = 0; l < BANKS_WARP; l++) /* addresses read before the width */
        if ((r->active >> l) & 1 && (r->addr[l] & (width - 1)) != 0)
            return failf(t, err, pos[l][0], pos[l][1], "address is not a multiple of the width",
                         "trace[%lld].addresses[%d]", i, l);
    if (t->sass && !t->have_at) { /* a recording without line info: where it ran, no file */
        scenario_srcloc_set(&t->at, NULL, 0, 0, NULL);
        t->have_at = true;
    }
    if (t->have_at && t->sass) { /* where it ran: the caption of a recorded instruction */
        free(t->at.sass);
        t->at.sass = xstrdup(t->sass);
        t->at.warp = t->warp >= 0 && t->warp < INT32_MAX ? (int)t->warp : -1;
        t->at.pc = t->pc;
    }
    return 0;
}

/* The members after the trace, the end of the object and of the document. */
static int read_tail(trace_stream *t, io_error *err)
{
    t->in_tail = true;
    for (;;) {
        jsonstream_token k = jsonstream_next(&t->js);
        if (k == JSONSTREAM_OBJECT_END)
            break;
        if (k == JSONSTREAM_ERROR)
            return fail_js(t, err);
        char key[64];
        copy_key(t, key, sizeof key);
        int r = strcmp(key, "trace") == 0 ? 1 : header_member(t, err);
        if (r < 0)
            return -1;
        if (r > 0) {
            jsonstream_token v = jsonstream_next(&t->js);
            if (v == JSONSTREAM_ERROR)
                return fail_js(t, err);
            char msg[96];
            snprintf(msg, sizeof msg, strcmp(key, "trace") == 0 ? "a second trace" : "unknown key '%.60s'", key);
            return FAIL_TOK(t, err, msg, "%s", key);
        }
    }
    if (jsonstream_next(&t->js) != JSONSTREAM_END)
        return fail_js(t, err);
    t->done = true;
    t->rec_complete = true;
    return 0;
}

int trace_stream_next(trace_stream *t, banks_request *r, io_error *err)
{
    if (t->done)
        return 0;
    jsonstream_token v = jsonstream_next(&t->js);
    if (v == JSONSTREAM_ARRAY_END) {
        if (t->count == 0)
            return failf(t, err, t->trace_line, t->trace_col, "expected an array of instructions", "trace");
        return read_tail(t, err);
    }
    if (v == JSONSTREAM_ERROR)
        return fail_js(t, err);
    if (v != JSONSTREAM_OBJECT)
        return FAIL_TOK(t, err, "expected an object", "trace[%lld]", (long long)t->count);
    if ((t->max && t->count >= t->max) || t->count >= INT_MAX) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "more than %lld instructions to hold in memory ('analyze' streams traces of any length)",
                 (long long)(t->max ? t->max : INT_MAX));
        return FAIL_TOK(t, err, msg, "trace[%lld]", (long long)t->count);
    }
    if (read_instruction(t, err, r) < 0)
        return -1;
    t->count++;
    t->hdr.ntrace = (int)t->count;
    return 1;
}
