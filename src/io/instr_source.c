/* instr_source: one iterator over a scenario's instructions or a streamed trace's. */
#include "instr_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/jsonstream.h"
#include "io/trace_stream.h"
#include "io/work.h"
#include "util.h"

void instr_source_scenario(instr_source *src, const scenario *s, int warp)
{
    memset(src, 0, sizeof *src);
    scenario_init(&src->own);
    src->s = s;
    src->warp = warp;
    src->counted = -1;
}

/* Copy the stream's header (name, description, architecture) into own. */
static void take_header(instr_source *src)
{
    const scenario *h = trace_stream_header(src->ts);
    free(src->own.name);
    free(src->own.description);
    src->own.name = h->name ? xstrdup(h->name) : NULL;
    src->own.description = h->description ? xstrdup(h->description) : NULL;
    src->own.arch = h->arch;
    src->own.is_trace = true;
    src->own.iterations = 1;
    src->recording |= h->recording;
}

/* A trace read from a pipe (or "-", standard input) streams as a file does: its first bytes
 * tell whether it is a trace; if not, the head and the rest are read whole and loaded. 1 opened,
 * 0 not a pipe, -1 failed. */
static int open_pipe(instr_source *src, const char *path, const char *arch, io_error *err)
{
    struct stat sb;
    bool std = strcmp(path, "-") == 0;
    if (!std && (stat(path, &sb) != 0 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode)))
        return 0;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f)
        return 0; /* the loader says why */
    char *head = xmalloc(JSONSTREAM_WINDOW);
    size_t n = 0, k;
    while (n < JSONSTREAM_WINDOW && (k = fread(head + n, 1, JSONSTREAM_WINDOW - n, f)) > 0)
        n += k;
    if (trace_stream_is_trace(head, n)) {
        trace_stream *ts;
        trace_stream_status st = trace_stream_open_pipe(f, head, n, path, arch, &ts, err);
        free(head);
        if (st != TRACE_STREAM_OK) {
            if (st == TRACE_STREAM_NOT_TRACE)
                snprintf(err->text, sizeof err->text, "%.400s: not a trace", path);
            return -1;
        }
        src->ts = ts;
        src->path = xstrdup(path);
        take_header(src);
        return 1;
    }
    strbuf sb2 = {0};
    strbuf_add(&sb2, head, n);
    free(head);
    char buf[65536];
    while (sb2.len <= LOAD_MAX_BYTES && (k = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_add(&sb2, buf, k);
    bool bad = ferror(f);
    if (f != stdin)
        fclose(f);
    bool ok = false;
    if (bad)
        snprintf(err->text, sizeof err->text, "%.400s: read error", path);
    else if (sb2.len > LOAD_MAX_BYTES)
        snprintf(err->text, sizeof err->text, "%.400s: larger than 256 MiB", path);
    else
        ok = load_scenario_text(strbuf_str(&sb2), sb2.len, path, arch, &src->own, err);
    strbuf_free(&sb2);
    src->recording = ok && src->own.recording;
    return ok ? 1 : -1;
}

bool instr_source_open(instr_source *src, const char *path, const char *arch, bool checked, io_error *err)
{
    return instr_source_open_keep(src, path, arch, checked, TRACE_KEEP_LOCATIONS, NULL, NULL, err);
}

int64_t instr_source_pc(const instr_source *src)
{
    return src->ts ? trace_stream_pc(src->ts) : -1;
}

bool instr_source_open_keep(instr_source *src, const char *path, const char *arch, bool checked, int keep,
                            instr_source_check_fn fn, void *ctx, io_error *err)
{
    instr_source_scenario(src, &src->own, -1);
    if (!checked) { /* a pipe cannot be read twice: only an unchecked pass streams it */
        int p = open_pipe(src, path, arch, err);
        if (p != 0)
            return p > 0;
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        trace_stream *ts;
        trace_stream_status st = trace_stream_open_keep(path, NULL, 0, path, arch, (trace_stream_keep)keep, &ts, err);
        if (st == TRACE_STREAM_ERROR)
            return false;
        if (st == TRACE_STREAM_OK && fn)
            fn(ctx, ts, -1, NULL);
        if (st == TRACE_STREAM_OK && checked) { /* the checking pass, then the file again */
            banks_request r;
            int rc;
            while ((rc = trace_stream_next(ts, &r, err)) > 0) {
                src->counted++;
                if (fn)
                    fn(ctx, ts, src->counted, &r);
            }
            src->counted++;
            src->recording = trace_stream_header(ts)->recording;
            trace_stream_close(ts);
            if (rc < 0 || trace_stream_open(path, NULL, 0, path, arch, &ts, err) != TRACE_STREAM_OK)
                return false;
        }
        if (st == TRACE_STREAM_OK) {
            src->ts = ts;
            src->path = xstrdup(path);
            src->size = sb.st_size;
            take_header(src);
            src->own.ntrace = src->counted >= 0 ? (int)src->counted : 0;
            return true;
        }
    }
    if (!load_scenario_file(path, arch, &src->own, err))
        return false;
    src->recording = src->own.recording;
    return true;
}

bool instr_source_streams(const instr_source *src)
{
    return src->ts != NULL;
}

/* The tables of repeated instructions, emptied (they depend on the warps handed out). */
static void rep_drop(instr_source *src)
{
    free(src->rep);
    free(src->rep_state);
    free(src->rep_inv);
    free(src->rep_keyed_access);
    free(src->keyed);
    free(src->keyed_instr);
    free(src->keyed_table);
    src->rep = NULL;
    src->rep_state = NULL;
    src->rep_inv = NULL;
    src->rep_keyed_access = NULL;
    src->keyed = NULL;
    src->keyed_instr = NULL;
    src->keyed_table = NULL;
    src->nkeyed = 0;
    src->rep_slots = 0;
    src->rep_off = false;
    src->rep_ready = false;
}

int64_t instr_source_slots(const instr_source *src)
{
    return src->rep_slots + (src->rep_keyed_access ? INSTR_SOURCE_KEYED : 0);
}

void instr_source_set_warp(instr_source *src, int warp)
{
    src->warp = warp;
    rep_drop(src);
}

/* The next streamed trace instruction. */
static bool next_streamed(instr_source *src, scenario_instr *in)
{
    int rc = trace_stream_next(src->ts, &in->req, &src->err);
    if (rc == 0) {
        take_header(src); /* members after the trace */
        if (src->counted >= 0 && src->k != src->counted) {
            snprintf(src->err.text, sizeof src->err.text, "%.400s: the file changed while it was read", src->path);
            rc = -1;
        }
    }
    if (rc <= 0) {
        src->failed = rc < 0;
        return false;
    }
    in->seq = src->k++;
    in->access = -1;
    in->iteration = 0;
    in->loop_value = 0;
    int64_t warp = trace_stream_warp(src->ts); /* a recording's entry: the warp that executed it */
    in->warp = warp >= 0 && warp < INT32_MAX ? (int)warp : 0;
    for (int l = 0; l < BANKS_WARP && src->brief; l++) /* only the states */
        in->lane[l].state = (in->req.active >> l) & 1 ? SCENARIO_LANE_OK : SCENARIO_LANE_MASKED;
    for (int l = 0; l < BANKS_WARP && !src->brief; l++) {
        scenario_lane *ln = &in->lane[l];
        ln->state = (in->req.active >> l) & 1 ? SCENARIO_LANE_OK : SCENARIO_LANE_MASKED;
        ln->tid = ln->tx = l;
        ln->ty = ln->tz = 0;
        ln->index[0] = ln->index[1] = ln->index[2] = 0;
        ln->address = in->req.addr[l];
        ln->bad_dim = -1;
        ln->eval = EXPR_OK;
        ln->eval_pos = 0;
    }
    if (src->counted < 0)
        src->own.ntrace = (int)src->k;
    return true;
}

/* 2.3 KiB each: 256 accesses x 32 warps, the most a scenario has, keep at most 19 MiB */
enum { REP_MAX_SLOTS = SCENARIO_MAX_ACCESSES * 32, KEYED_TABLE = 2 * INSTR_SOURCE_KEYED };

/* The key of a keyed instruction: its access, warp (index in the selection) and slot values. */
struct instr_keyed {
    int access, w, n;
    int64_t v[SCENARIO_KEY_MAX];
};

/* Set up the tables of repeated instructions for src's scenario, or turn them off. */
static void rep_setup(instr_source *src)
{
    const scenario *s = src->s;
    src->rep_ready = true;
    src->rep_off = true;
    if (s->is_trace || src->ts || s->iterations < 2 || s->naccesses < 1)
        return;
    int nw = src->warp >= 0 ? 1 : scenario_selected_warps(s);
    int64_t slots = (int64_t)s->naccesses * nw;
    if (nw < 1 || slots > REP_MAX_SLOTS)
        return;
    src->rep_inv = xcalloc((size_t)s->naccesses, 1);
    src->rep_keyed_access = xcalloc((size_t)s->naccesses, 1);
    bool any = false, keyed = false;
    for (int a = 0; a < s->naccesses; a++) {
        any |= (src->rep_inv[a] = (signed char)scenario_access_loop_invariant(s, a)) != 0;
        keyed |=
            (src->rep_keyed_access[a] = (signed char)(!src->rep_inv[a] && scenario_access_loop_slotted(s, a))) != 0;
    }
    if (!keyed) {
        free(src->rep_keyed_access);
        src->rep_keyed_access = NULL;
    }
    src->rep_warps = nw;
    if (any) {
        src->rep = xcalloc((size_t)slots, sizeof *src->rep);
        src->rep_state = xcalloc((size_t)slots, 1);
        src->rep_slots = slots;
    }
    src->rep_off = !any && !keyed;
}

/* A hash of a key (multiply-xorshift over its values). */
static uint32_t key_hash(const struct instr_keyed *k)
{
    uint64_t h = ((uint64_t)k->access * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)k->w << 32);
    for (int i = 0; i < k->n; i++)
        h = (h ^ (uint64_t)k->v[i]) * 0xBF58476D1CE4E5B9ull;
    return (uint32_t)(h ^ (h >> 29));
}

/* The instruction of a keyed access (access, iteration, warp): the one built for an equal key
 * (its slot in *slot), else built now and kept while there is room (else built into buf, slot
 * -1). Entries are never replaced, so a slot always names the same instruction. */
static scenario_instr *keyed_build(instr_source *src, int access, int it, int w, int warp, scenario_instr *buf,
                                   int64_t *slot, void (*build)(const scenario *, int, int, int, scenario_instr *))
{
    const scenario *s = src->s;
    struct instr_keyed key; /* no initialiser: only the n values written are read */
    key.access = access;
    key.w = w;
    key.n = scenario_access_key(s, access, it, warp, key.v);
    if (!src->keyed_table) {
        src->keyed_table = xcalloc(KEYED_TABLE, sizeof *src->keyed_table);
        src->keyed = xcalloc(INSTR_SOURCE_KEYED, sizeof *src->keyed);
        src->keyed_instr = xcalloc(INSTR_SOURCE_KEYED, sizeof *src->keyed_instr);
    }
    uint32_t h = key_hash(&key) & (KEYED_TABLE - 1);
    for (;; h = (h + 1) & (KEYED_TABLE - 1)) { /* never full: at most half the table is used */
        int e = src->keyed_table[h] - 1;
        if (e < 0)
            break;
        const struct instr_keyed *k = &src->keyed[e];
        if (k->access == access && k->w == w && k->n == key.n &&
            memcmp(k->v, key.v, sizeof *key.v * (size_t)key.n) == 0) {
            scenario_instr *in = &src->keyed_instr[e];
            in->iteration = it;
            in->loop_value = s->loop_values[it];
            *slot = src->rep_slots + e;
            return in;
        }
    }
    if (src->nkeyed == INSTR_SOURCE_KEYED) { /* full: built anew */
        build(s, access, it, warp, buf);
        return buf;
    }
    int e = src->nkeyed++;
    struct instr_keyed *k = &src->keyed[e];
    k->access = key.access;
    k->w = key.w;
    k->n = key.n;
    memcpy(k->v, key.v, sizeof *key.v * (size_t)key.n);
    src->keyed_table[h] = e + 1;
    scenario_instr *in = &src->keyed_instr[e];
    build(s, access, it, warp, in);
    *slot = src->rep_slots + e;
    return in;
}

/* The instruction of (access, iteration, warp), warp being the w-th of the selection: built into
 * buf, or, when the access reads no loop variable, the one built at its first iteration (its
 * slot in *slot, else -1) with the iteration's fields set; when it reads the loops only through
 * slots, the one built for the same slot values (keyed_build). */
static scenario_instr *rep_build(instr_source *src, int access, int it, int w, int warp, scenario_instr *buf,
                                 int64_t *slot)
{
    const scenario *s = src->s;
    *slot = -1;
    if (!src->rep_ready)
        rep_setup(src);
    void (*build)(const scenario *, int, int, int, scenario_instr *) =
        src->brief ? scenario_instr_build_brief : scenario_instr_build;
    if (!src->rep_off && src->rep_keyed_access && src->rep_keyed_access[access])
        return keyed_build(src, access, it, w, warp, buf, slot, build);
    if (src->rep_off || !src->rep_inv[access]) {
        build(s, access, it, warp, buf);
        return buf;
    }
    int64_t k = (int64_t)access * src->rep_warps + w;
    scenario_instr *in = &src->rep[k];
    if (!src->rep_state[k]) {
        build(s, access, it, warp, in);
        src->rep_state[k] = 1;
    }
    in->iteration = it;
    in->loop_value = s->loop_values[it];
    *slot = k;
    return in;
}

const scenario_instr *instr_source_next_ref(instr_source *src, scenario_instr *in, int64_t *slot)
{
    *slot = -1;
    if (src->failed)
        return NULL;
    if ((src->k & 1023) == 0) { /* every 1024 instructions: a signal, progress */
        if (work_cancelled()) {
            snprintf(src->err.text, sizeof src->err.text, "interrupted (%s)", work_signal_name());
            src->failed = true;
            return NULL;
        }
        if (src->progress)
            work_progress(src->progress, instr_source_progress(src));
    }
    if (src->ts)
        return next_streamed(src, in) ? in : NULL;
    const scenario *s = src->s;
    scenario_instr *out = in;
    if (src->warp >= 0 && !s->is_trace) { /* ordered by iteration, then access: the pairs that run */
        for (;;) {
            if (src->k >= (int64_t)s->iterations * s->naccesses)
                return NULL;
            int a = (int)(src->k % s->naccesses), it = (int)(src->k / s->naccesses);
            if (!s->iter_first || scenario_access_active(s, a, it)) {
                out = rep_build(src, a, it, 0, src->warp, in, slot);
                break;
            }
            src->k++;
        }
        out->seq = src->k++;
        return out;
    }
    if (src->k >= scenario_instr_count(s))
        return NULL;
    if (s->is_trace) {
        scenario_instr_at(s, src->k++, in);
        return in;
    }
    int64_t nw = scenario_selected_warps(s);
    int it, access, w;
    if (src->at_k == src->k && src->k > 0) { /* the next of the last: no divisions */
        it = src->at_it;
        access = src->at_access;
        w = src->at_w + 1;
        if (w == nw) {
            w = 0;
            scenario_instr_locate(s, src->k, &it, &access);
        }
    } else {
        w = (int)(src->k % nw);
        scenario_instr_locate(s, src->k, &it, &access);
    }
    src->at_k = src->k + 1;
    src->at_it = it;
    src->at_access = access;
    src->at_w = w;
    out = rep_build(src, access, it, w, scenario_selected_warp(s, w), in, slot);
    out->seq = src->k++;
    return out;
}

bool instr_source_next(instr_source *src, scenario_instr *in)
{
    int64_t slot;
    const scenario_instr *p = instr_source_next_ref(src, in, &slot);
    if (p && p != in)
        *in = *p;
    return p != NULL;
}

double instr_source_progress(const instr_source *src)
{
    if (src->ts)
        return src->size > 0 ? (double)trace_stream_offset(src->ts) / (double)src->size : 0.0;
    int64_t n = src->warp >= 0 && !src->s->is_trace ? (int64_t)src->s->iterations * src->s->naccesses
                                                    : scenario_instr_count(src->s);
    return n > 0 ? (double)src->k / (double)n : 1.0;
}

void instr_source_close(instr_source *src)
{
    rep_drop(src);
    trace_stream_close(src->ts);
    scenario_free(&src->own);
    free(src->path);
    memset(src, 0, sizeof *src);
}
