/* recording: the one reader of a recording's members beside its trace (recording.h), with
 * jsonstream. */
#include "io/recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "io/work.h"
#include "model/kinds.h"
#include "model/measured.h"
#include "util.h"

/* Reading state: the path for messages, the first error at its position, the growing arrays. */
typedef struct reader {
    jsonstream *js;
    const char *path;
    io_error *err;
    bool failed;
    bool indexes;    /* keep every trace index with its position */
    bool locations;  /* of each line only its file, line and text (the rest skipped exactly) */
    bool keep_going; /* a line that breaks a rule of the recording (not of its location) is kept as
                        the recording's first error (kept_err) and the lines are read on for their
                        locations: the stream the reader is in reads the trace on */
    bool loc_failed; /* the error is one of the lines' locations (the stream stops there) */
    bool kept;
    io_error kept_err;
    recording *r;
    int rowcap, pccap;
    size_t indexcap;
} reader;

/* The first error, at the token just read: "PATH:LINE:COL: WHAT" (what NULL or "": the
 * tokenizer's message); returns false. */
static bool bad(reader *rd, const char *what)
{
    if (!rd->failed)
        snprintf(rd->err->text, sizeof rd->err->text, "%s:%lld:%lld: %s", rd->path, (long long)rd->js->line_tok,
                 (long long)rd->js->col_tok,
                 rd->js->msg[0]    ? rd->js->msg /* the tokenizer's: the file does not read there */
                 : what && what[0] ? what
                                   : "unexpected value");
    rd->failed = true;
    return false;
}

/* An error of the lines' locations (file, line, text, the lines' own shape): the one error that
 * also stops a stream reading only the locations; returns false. */
static bool loc_bad(reader *rd, const char *what)
{
    rd->loc_failed = true;
    return bad(rd, what);
}

/* A count of the file (the token just read) into *v: an integer from lo to hi, else an error at
 * its position naming the member. */
static bool count_value(reader *rd, jsonstream_token t, const char *key, int64_t lo, int64_t hi, int64_t *v)
{
    if (t != JSONSTREAM_NUMBER || !rd->js->is_int || rd->js->ival < lo || rd->js->ival > hi) {
        char m[200];
        snprintf(m, sizeof m, "%s: expected an integer from %lld to %lld", key, (long long)lo, (long long)hi);
        return bad(rd, m);
    }
    *v = rd->js->ival;
    return true;
}

/* A string member value (a copy) into *dst when the token is one. */
static bool string_value(const jsonstream *js, jsonstream_token t, char **dst)
{
    if (t != JSONSTREAM_STRING)
        return false;
    free(*dst);
    *dst = xstrdup(js->str);
    return true;
}

/* Skip a member's value; false (an error at its position) when the file does not read. */
static bool skip(reader *rd, jsonstream_token t)
{
    return (t != JSONSTREAM_ERROR && jsonstream_skip(rd->js, t)) || bad(rd, "");
}

/* Skip a large member's value (the trace) without looking at its strings. */
static bool skip_fast(reader *rd, jsonstream_token t)
{
    return (t != JSONSTREAM_ERROR && jsonstream_skip_fast(rd->js, t)) || bad(rd, "");
}

/* Three integers of an array (its '[' read) into v; false when it holds anything else. */
static bool read_triple(reader *rd, int64_t *v)
{
    jsonstream_token t;
    int k = 0;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_NUMBER)
        if (k < 3)
            v[k++] = rd->js->is_int ? rd->js->ival : 0;
    return t == JSONSTREAM_ARRAY_END || bad(rd, "expected three integers");
}

/* The launch's "grid" (its '[' read): three dimensions within CUDA's limits, into r->grid and
 * multiplied into r->grid_blocks. */
static bool read_grid(reader *rd, recording *r)
{
    static const int64_t max[3] = {INT32_MAX, 65535, 65535};
    int64_t v = 0, p = 1;
    int k = 0;
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_NUMBER && k < 3) {
        if (!count_value(rd, t, "grid", 1, max[k], &v))
            return false;
        r->grid[k++] = v;
        p *= v; /* at most 2^31 x 2^16 x 2^16 = 2^63 - ...: fits */
    }
    if (t != JSONSTREAM_ARRAY_END || k != 3)
        return bad(rd, "grid: expected three integers");
    r->grid_blocks = p;
    return true;
}

/* The string member "name" of an object (its '{' read) into *dst. */
static bool read_name(reader *rd, char **dst)
{
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
        bool name = strcmp(rd->js->str, "name") == 0;
        t = jsonstream_next(rd->js);
        if (!(name && string_value(rd->js, t, dst)) && !skip(rd, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* A "measured" object of a line or a PC (its '{' read) into c: the three counts the hardware
 * made, each bounded, the ideal no more than the wavefronts (what names the owner in the
 * message). Its "predicted_launch" and "excess" are conclusions: computed, not read. */
static bool read_counts(reader *rd, measured_counts *c, const char *what)
{
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js->str);
        t = jsonstream_next(rd->js);
        uint64_t *dst = strcmp(key, "wavefronts") == 0         ? &c->wavefronts
                        : strcmp(key, "ideal_wavefronts") == 0 ? &c->ideal_wavefronts
                        : strcmp(key, "instructions") == 0     ? &c->instructions
                                                               : NULL;
        int64_t v = 0;
        if (dst && !count_value(rd, t, key, 0, RECORDING_MAX_COUNT, &v))
            return false;
        if (dst)
            *dst = (uint64_t)v;
        else if (!skip(rd, t))
            return false;
    }
    if (c->ideal_wavefronts > c->wavefronts)
        return bad(rd, what);
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* "unrecorded" (its '[' read): the shared instructions no line holds; their excess adds to the
 * launch's. */
static bool read_unrecorded(reader *rd, recording *r)
{
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_OBJECT) {
        int64_t w = 0, i = 0;
        while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
            bool wf = strcmp(rd->js->str, "wavefronts") == 0, id = strcmp(rd->js->str, "ideal_wavefronts") == 0;
            t = jsonstream_next(rd->js);
            if ((wf || id) &&
                !count_value(rd, t, wf ? "wavefronts" : "ideal_wavefronts", 0, RECORDING_MAX_COUNT, wf ? &w : &i))
                return false;
            if (!wf && !id && !skip(rd, t))
                return false;
        }
        if (t != JSONSTREAM_OBJECT_END)
            return bad(rd, "");
        if (__builtin_add_overflow(r->unrecorded_excess, w - i, &r->unrecorded_excess))
            return bad(rd, "unrecorded: the sum of the counts overflows");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* The top-level "measured" object (its '{' read): the launch's measurements. Its excess and time
 * share are computed by the readers, so they are not read. */
static bool read_launch_measured(reader *rd, recording *r)
{
    jsonstream_token t;
    r->measured = true;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js->str);
        t = jsonstream_next(rd->js);
        bool ok = true;
        if (strcmp(key, "blocks") == 0) {
            r->blocks_at[0] = rd->js->line_tok, r->blocks_at[1] = rd->js->col_tok;
            ok = count_value(rd, t, key, 1, RECORDING_MAX_COUNT, &r->blocks);
        } else if (strcmp(key, "sms") == 0) {
            ok = count_value(rd, t, key, 1, 100000, &r->sms);
        } else if (strcmp(key, "sm_clock_khz") == 0) {
            ok = count_value(rd, t, key, 1, 100000000, &r->clock_khz);
        } else if (strcmp(key, "duration_ns") == 0 && t != JSONSTREAM_NULL) {
            ok = r->has_duration = count_value(rd, t, key, 1, RECORDING_MAX_COUNT, &r->duration_ns);
        } else if (strcmp(key, "second_block") == 0) {
            r->second = t == JSONSTREAM_ARRAY;
            ok = skip(rd, t);
        } else if (strcmp(key, "unrecorded") == 0 && t == JSONSTREAM_ARRAY) {
            ok = read_unrecorded(rd, r);
        } else if (!(strcmp(key, "block_invariance") == 0 && string_value(rd->js, t, &r->invariance)) &&
                   !(strcmp(key, "duration_why") == 0 && string_value(rd->js, t, &r->duration_why))) {
            ok = skip(rd, t);
        }
        if (!ok)
            return false;
    }
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* Count n more of the kind of SASS text sass (its kinds row, or its opcode) in *list. */
static void kind_add(recording_kind **list, int *n, const char *sass, const char *why, int64_t count)
{
    char op[64];
    const char *p = sass ? sass + strspn(sass, " \t") : "";
    if (*p == '@') /* a predicate */
        p += strcspn(p, " \t"), p += strspn(p, " \t");
    snprintf(op, sizeof op, "%.*s", (int)strcspn(p, " \t"), p);
    const kinds_row *k = kinds_find_sass(op);
    const char *name = k ? k->name : op[0] ? op : "?";
    for (int i = 0; i < *n; i++)
        if (strcmp((*list)[i].name, name) == 0) {
            (*list)[i].count += count;
            return;
        }
    *list = xrealloc(*list, (size_t)(*n + 1) * sizeof **list);
    (*list)[(*n)++] = (recording_kind){xstrdup(name),
                                       xstrdup(k && k->not_modelled ? k->not_modelled
                                               : why                ? why
                                                                    : ""),
                                       count};
}

const char *recording_kind_name(const char *sass, char *buf, size_t n)
{
    const char *op = sass ? sass + strspn(sass, " \t") : "";
    if (*op == '@') /* the predicate */
        op += strcspn(op, " \t"), op += strspn(op, " \t");
    const kinds_row *k = kinds_find_sass(op);
    if (k && k->rule == KINDS_RULE_NOT_MODELLED)
        snprintf(buf, n, "%s", k->name);
    else
        snprintf(buf, n, "%.*s", (int)strcspn(op, " \t"), op);
    return buf;
}

/* A PC's "chain" (its '[' read): its inline chain, innermost first, into p. */
static bool read_chain(reader *rd, recording_pc *p)
{
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_OBJECT) {
        p->chain = xrealloc(p->chain, (size_t)(p->nchain + 1) * sizeof *p->chain);
        recording_site *site = &p->chain[p->nchain++];
        *site = (recording_site){0};
        while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
            char key[8];
            snprintf(key, sizeof key, "%.7s", rd->js->str);
            t = jsonstream_next(rd->js);
            if ((strcmp(key, "file") == 0 || strcmp(key, "text") == 0) && t == JSONSTREAM_STRING)
                string_value(rd->js, t, key[0] == 'f' ? &site->file : &site->text);
            else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && rd->js->is_int)
                site->line = rd->js->ival;
            else if (!skip(rd, t))
                return false;
        }
        if (t != JSONSTREAM_OBJECT_END)
            return bad(rd, "");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* A line's "pcs" (its '[' read), the line being row `row`: each PC appended to the recording's,
 * those not modelled counted in its kinds. */
static bool read_pcs(reader *rd, int row)
{
    recording *r = rd->r;
    recording_line *l = &r->lines[row];
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_OBJECT) {
        if (r->npcs == INT32_MAX - 1)
            return bad(rd, "pcs: too many");
        if (r->npcs == rd->pccap)
            r->pcs = xrealloc(r->pcs, (size_t)(rd->pccap = rd->pccap ? 2 * rd->pccap : 64) * sizeof *r->pcs);
        recording_pc *p = &r->pcs[r->npcs++]; /* kept even when it fails: freed with the others */
        *p = (recording_pc){.pc = -1, .row = row};
        bool ok = true;
        while (ok && (t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
            char key[32];
            snprintf(key, sizeof key, "%.31s", rd->js->str);
            t = jsonstream_next(rd->js);
            if (strcmp(key, "sass") == 0 && t == JSONSTREAM_STRING)
                string_value(rd->js, t, &p->sass);
            else if (strcmp(key, "not_modelled") == 0 && t == JSONSTREAM_STRING)
                string_value(rd->js, t, &p->not_modelled);
            else if (strcmp(key, "executions") == 0)
                ok = count_value(rd, t, key, 0, RECORDING_MAX_COUNT, &p->executions);
            else if (strcmp(key, "pc") == 0)
                ok = count_value(rd, t, key, 0, RECORDING_MAX_COUNT, &p->pc);
            else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT)
                ok = p->has_measured =
                    read_counts(rd, &p->m, "pcs: measured: ideal_wavefronts is more than wavefronts");
            else if (strcmp(key, "chain") == 0 && t == JSONSTREAM_ARRAY)
                ok = read_chain(rd, p);
            else if (strcmp(key, "measured_only") == 0 && (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE))
                p->measured_only = t == JSONSTREAM_TRUE; /* TMA, wgmma: never predicted */
            else
                ok = skip(rd, t);
        }
        if (!ok || t != JSONSTREAM_OBJECT_END)
            return ok ? bad(rd, "") : false;
        l->unmodelled_pcs = l->unmodelled_pcs || p->measured_only || p->not_modelled;
        if (p->not_modelled && !l->kind[0])
            recording_kind_name(p->sass, l->kind, sizeof l->kind);
        if (p->not_modelled)
            kind_add(&r->not_modelled, &r->nnot_modelled, p->sass, p->not_modelled, p->executions);
        const kinds_row *kind = kinds_find_sass_line(p->sass);
        r->async_fill = r->async_fill || (kind && kind->fills_async);
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* "not_visible" (its '[' read): the SASS instructions that call no patch, by kind. */
static bool read_not_visible(reader *rd)
{
    recording *r = rd->r;
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_OBJECT) {
        char *sass = NULL;
        while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
            bool is_sass = strcmp(rd->js->str, "sass") == 0;
            t = jsonstream_next(rd->js);
            if (is_sass && t == JSONSTREAM_STRING)
                string_value(rd->js, t, &sass);
            else if (!skip(rd, t))
                break;
        }
        kind_add(&r->not_recorded, &r->nnot_recorded, sass, "its shared-memory side passes no callback", 1);
        free(sass);
        if (t != JSONSTREAM_OBJECT_END)
            return bad(rd, "");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* A line's "instructions" (its '[' read): its trace indexes into l, each bounded by what a trace
 * can hold (its length is checked against the trace: recording_check, analyze), and with its
 * position when the reader keeps them. */
static bool read_indexes(reader *rd, source_record_line *l, int row)
{
    recording *r = rd->r;
    int64_t *ins = (int64_t *)l->instructions, v = 0;
    int cap = 0;
    jsonstream_token t;
    bool ok = true;
    while (ok && (t = jsonstream_next(rd->js)) == JSONSTREAM_NUMBER) {
        if (!(ok = count_value(rd, t, "instructions", 0, INT32_MAX - 1, &v)))
            break;
        if (l->ninstructions == cap)
            ins = xrealloc(ins, sizeof *ins * (size_t)(cap = cap ? 2 * cap : 16));
        ins[l->ninstructions++] = v;
        if (!rd->indexes)
            continue;
        if (r->nindex == rd->indexcap)
            r->index = xrealloc(r->index, (rd->indexcap = rd->indexcap ? 2 * rd->indexcap : 64) * sizeof *r->index);
        r->index[r->nindex++] = (recording_index){v, row, rd->js->line_tok, rd->js->col_tok};
    }
    l->instructions = ins;
    return ok && (t == JSONSTREAM_ARRAY_END || bad(rd, "instructions: expected trace indexes"));
}

/* An error in member key of line row: "lines[ROW].KEY: WHAT" (or the tokenizer's message). */
static bool line_bad(reader *rd, int row, const char *key, const char *what)
{
    rd->loc_failed = true;
    if (!rd->failed)
        snprintf(rd->err->text, sizeof rd->err->text, "%s:%lld:%lld: lines[%d].%s: %s", rd->path,
                 (long long)rd->js->line_tok, (long long)rd->js->col_tok, row, key,
                 rd->js->msg[0] ? rd->js->msg : what);
    rd->failed = true;
    return false;
}

/* One entry of "lines" (its '{' read) into row `row`: its source_record_line, the rest of it,
 * its PCs after the recording's. */
static bool read_line(reader *rd, int row)
{
    recording *r = rd->r;
    source_record_line *l = &r->rows[row];
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js->str);
        t = jsonstream_next(rd->js);
        bool ok = true;
        bool file = strcmp(key, "file") == 0, text = strcmp(key, "text") == 0;
        if ((file || text) && t == JSONSTREAM_STRING) {
            string_value(rd->js, t, (char **)(file ? &l->file : &l->text));
        } else if ((file || text) && t != JSONSTREAM_NULL) {
            return line_bad(rd, row, key, "expected a string or null");
        } else if (strcmp(key, "line") == 0 && t != JSONSTREAM_NULL) {
            if (t != JSONSTREAM_NUMBER || !rd->js->is_int || rd->js->ival < 1 || rd->js->ival > INT32_MAX)
                return line_bad(rd, row, key, "expected a line number or null");
            l->line = (int)rd->js->ival;
        } else if (file || text) {
            ; /* null: not known */
        } else if (rd->locations) {
            ok = skip(rd, t);
        } else if (strcmp(key, "not_modelled") == 0) {
            ok = count_value(rd, t, key, 0, RECORDING_MAX_COUNT, &r->lines[row].not_modelled);
        } else if (strcmp(key, "instructions") == 0 && t == JSONSTREAM_ARRAY) {
            r->at[row][0] = rd->js->line_tok, r->at[row][1] = rd->js->col_tok;
            ok = read_indexes(rd, l, row);
        } else if (strcmp(key, "pcs") == 0 && t == JSONSTREAM_ARRAY) {
            ok = read_pcs(rd, row);
        } else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            measured_counts c = {0, 0, 0};
            ok = read_counts(rd, &c, "measured: ideal_wavefronts is more than wavefronts");
            l->measured.known = true;
            l->measured.wavefronts = c.wavefronts;
            l->measured.ideal_wavefronts = c.ideal_wavefronts;
            l->measured.instructions = c.instructions;
        } else if (strcmp(key, "agree_why") == 0 && t == JSONSTREAM_STRING) {
            /* the one fact of agreement the trace cannot give: the second block's prediction */
            l->measured.second_differs = strcmp(rd->js->str, measured_why_text(MEASURED_WHY_BLOCKS_DIFFER)) == 0;
        } else { /* "predicted", "agree": conclusions, computed again */
            ok = skip(rd, t);
        }
        if (!ok)
            return false;
    }
    return t == JSONSTREAM_OBJECT_END || loc_bad(rd, "");
}

/* After an error in a line that breaks a rule of the recording, not of the lines' locations: when
 * the reader goes on (keep_going), the first such error kept, the rest of the member where it was
 * skipped back to depth (inside the line, or the lines' array), and only the locations read from
 * there on. False when it stops there. */
static bool go_on(reader *rd, int depth)
{
    if (!rd->keep_going || rd->loc_failed || rd->js->msg[0] || work_cancelled())
        return false;
    if (!rd->kept) {
        rd->kept_err = *rd->err;
        rd->kept = true;
    }
    rd->failed = false;
    rd->locations = true;
    while (rd->js->depth > depth)
        if (jsonstream_next(rd->js) == JSONSTREAM_ERROR)
            return bad(rd, "");
    return rd->js->depth == depth;
}

/* "lines" (its '[' read): every line, their measured counts checked as they add up. */
static bool read_lines(reader *rd)
{
    recording *r = rd->r;
    uint64_t sum[3] = {0, 0, 0}; /* the launch's counts */
    jsonstream_token t;
    r->has_lines = true;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_OBJECT) {
        if (r->nrows == INT32_MAX - 1)
            return loc_bad(rd, "lines: too many");
        if (work_cancelled())
            return false;
        if (r->nrows == rd->rowcap) {
            rd->rowcap = rd->rowcap ? 2 * rd->rowcap : 16;
            r->rows = xrealloc(r->rows, sizeof *r->rows * (size_t)rd->rowcap);
            r->lines = xrealloc(r->lines, sizeof *r->lines * (size_t)rd->rowcap);
            r->at = xrealloc(r->at, sizeof *r->at * (size_t)rd->rowcap);
        }
        int row = r->nrows++; /* kept even when it fails: freed with the others */
        memset(&r->rows[row], 0, sizeof r->rows[row]);
        memset(&r->lines[row], 0, sizeof r->lines[row]);
        r->at[row][0] = r->at[row][1] = 0;
        int depth = rd->js->depth; /* inside the line */
        if (!read_line(rd, row) && !(go_on(rd, depth) && read_line(rd, row)))
            return false;
        const source_measured *m = &r->rows[row].measured;
        sum[0] += m->wavefronts; /* each at most 10^15: no overflow before the check */
        sum[1] += m->ideal_wavefronts;
        sum[2] += m->instructions;
        if ((sum[0] > RECORDING_MAX_COUNT || sum[1] > RECORDING_MAX_COUNT || sum[2] > RECORDING_MAX_COUNT) &&
            !bad(rd, "measured: the lines' counts add up to more than 1000000000000000") && !go_on(rd, depth - 1))
            return false;
    }
    if (t != JSONSTREAM_ARRAY_END)
        return loc_bad(rd, "");
    if (rd->kept) { /* the first error, once the locations are read */
        *rd->err = rd->kept_err;
        rd->failed = true;
        return false;
    }
    return true;
}

/* One entry of "arrays" (its '{' read) into a; false with an error when it does not read. */
static bool read_array(reader *rd, recording_array *a)
{
    static const char need[] = "an array needs a name, a kind (static or dynamic), an offset >= 0 and bytes >= 1";
    jsonstream_token t;
    bool off = false, bytes = false;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
        char key[16];
        snprintf(key, sizeof key, "%.15s", rd->js->str);
        t = jsonstream_next(rd->js);
        const jsonstream *js = rd->js;
        bool num = t == JSONSTREAM_NUMBER && js->is_int;
        if ((strcmp(key, "name") == 0 || strcmp(key, "symbol") == 0) && t == JSONSTREAM_STRING) {
            string_value(js, t, key[0] == 'n' ? &a->name : &a->symbol);
        } else if (strcmp(key, "kind") == 0 && t == JSONSTREAM_STRING) {
            if (strcmp(js->str, "static") != 0 && strcmp(js->str, "dynamic") != 0)
                return bad(rd, need);
            a->dynamic = js->str[0] == 'd';
        } else if (strcmp(key, "offset") == 0 && num && js->ival >= 0 && js->ival < ((int64_t)1 << 32)) {
            a->offset = js->ival;
            off = true;
        } else if (strcmp(key, "bytes") == 0 && num && js->ival >= 1 && js->ival < ((int64_t)1 << 32)) {
            a->bytes = js->ival;
            bytes = true;
        } else if (strcmp(key, "offset") == 0 || strcmp(key, "bytes") == 0 || strcmp(key, "name") == 0) {
            return bad(rd, need);
        } else if (!skip(rd, t)) {
            return false;
        }
    }
    return (t == JSONSTREAM_OBJECT_END && a->name && off && bytes) || bad(rd, need);
}

/* "arrays" (its '[' read): the kernel's shared variables, none overlapping another. */
static bool read_arrays(reader *rd)
{
    recording *r = rd->r;
    int cap = 0;
    jsonstream_token t;
    r->has_arrays = true;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_OBJECT) {
        if (r->narrays == cap)
            r->arrays = xrealloc(r->arrays, sizeof *r->arrays * (size_t)(cap = cap ? 2 * cap : 8));
        recording_array *a = &r->arrays[r->narrays++];
        memset(a, 0, sizeof *a);
        if (!read_array(rd, a))
            return false;
        for (int k = 0; k + 1 < r->narrays; k++)
            if (a->offset < r->arrays[k].offset + r->arrays[k].bytes && r->arrays[k].offset < a->offset + a->bytes)
                return bad(rd, "two arrays of the recording overlap");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "\"arrays\" holds objects only");
}

/* One top-level member of a recording (its key, the first token t of its value just read), read
 * when it is one the recording holds, else skipped exactly (the positions of what follows stay
 * exact); false at the first error (or a signal). */
static bool read_member(reader *rd, const char *key, jsonstream_token t)
{
    recording *r = rd->r;
    if (t == JSONSTREAM_ERROR)
        return bad(rd, "");
    if (strcmp(key, "kernel") == 0 && t == JSONSTREAM_OBJECT)
        return read_name(rd, &r->kernel);
    if (strcmp(key, "device") == 0 && t == JSONSTREAM_OBJECT)
        return read_name(rd, &r->device);
    if (strcmp(key, "launch") == 0 && t == JSONSTREAM_NUMBER && rd->js->is_int) {
        r->launch = rd->js->ival;
        return true;
    }
    if (strcmp(key, "grid") == 0 && t == JSONSTREAM_ARRAY)
        return read_grid(rd, r);
    if ((strcmp(key, "block_dim") == 0 || strcmp(key, "block") == 0) && t == JSONSTREAM_ARRAY)
        return read_triple(rd, key[5] ? r->block_dim : r->block);
    if (strcmp(key, "executed") == 0 || strcmp(key, "captured") == 0)
        return count_value(rd, t, key, 0, RECORDING_MAX_COUNT, key[0] == 'e' ? &r->executed : &r->captured);
    if ((strcmp(key, "truncated") == 0 || strcmp(key, "line_info") == 0) &&
        (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE)) {
        *(key[0] == 't' ? &r->truncated : &r->line_info) = t == JSONSTREAM_TRUE;
        return true;
    }
    if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT)
        return read_launch_measured(rd, r);
    if (strcmp(key, "measured_why") == 0 && t == JSONSTREAM_STRING)
        return string_value(rd->js, t, &r->measured_why);
    if (strcmp(key, "lines") == 0 && t == JSONSTREAM_ARRAY)
        return read_lines(rd);
    if (strcmp(key, "not_visible") == 0 && t == JSONSTREAM_ARRAY)
        return read_not_visible(rd);
    if (strcmp(key, "arrays") == 0 && t == JSONSTREAM_ARRAY)
        return read_arrays(rd);
    if (strcmp(key, "trace") == 0) /* (lines before it: not one) */
        return skip_fast(rd, t);
    return skip(rd, t); /* exactly: the positions of what follows stay exact */
}

/* The members of the top-level object (its '{' read); *is: the file is a recording. False at the
 * first error (or a signal). */
static bool read_members(reader *rd, bool *is)
{
    recording *r = rd->r;
    jsonstream_token t;
    while ((t = jsonstream_next(rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js->str);
        if (strcmp(key, "trace") == 0 && *is && r->rows)
            return true; /* the lines and what they need come before the trace */
        t = jsonstream_next(rd->js);
        if (work_cancelled())
            return false;
        if (t == JSONSTREAM_ERROR)
            return bad(rd, "");
        if (strcmp(key, "format") == 0) {
            *is = t == JSONSTREAM_STRING && strcmp(rd->js->str, "bankscope-record/1") == 0;
            if (!*is)
                return true;
            continue;
        }
        if (!(*is ? read_member(rd, key, t) : skip_fast(rd, t)))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* recording_read with or without the indexes' positions. */
static int read_file(const char *path, recording *r, bool indexes, io_error *err)
{
    memset(r, 0, sizeof *r);
    r->launch = -1;
    FILE *f = load_fopen(path);
    if (!f)
        return 0; /* the loader says why */
    jsonstream js;
    reader rd = {.js = &js, .path = path, .err = err, .indexes = indexes, .r = r};
    jsonstream_open_file(&js, f);
    jsonstream_max_string(&js, 1 << 20); /* a recording's names and lines are kept whole */
    bool is = false;
    bool ok = jsonstream_next(&js) == JSONSTREAM_OBJECT && read_members(&rd, &is);
    jsonstream_close(&js);
    fclose(f);
    int rc = !is ? 0 : ok ? 1 : rd.failed ? -1 : work_cancelled() ? -2 : -1;
    if (rc == -1 && !rd.failed)
        bad(&rd, "");
    if (rc <= 0) {
        recording_free(r);
        r->launch = -1;
    }
    return rc;
}

int recording_read(const char *path, recording *r, io_error *err)
{
    return read_file(path, r, false, err);
}

int recording_read_indexes(const char *path, recording *r, io_error *err)
{
    return read_file(path, r, true, err);
}

/* Order of (entry, row) pairs: by entry, then row. */
static int pair_cmp(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

bool recording_check(const recording *r, const char *path, int64_t ntrace, io_error *err)
{
    size_t n = 0;
    for (int i = 0; i < r->nrows; i++)
        n += (size_t)r->rows[i].ninstructions;
    if (n == 0)
        return true; /* no indexes: the entries' own sources locate them */
    int64_t(*p)[2] = xmalloc(n * sizeof *p), k = 0;
    for (int i = 0; i < r->nrows; i++)
        for (int j = 0; j < r->rows[i].ninstructions; j++)
            p[k][0] = r->rows[i].instructions[j], p[k++][1] = i;
    qsort(p, n, sizeof *p, pair_cmp); /* n log n in the indexes: never sized by an index's value */
    int bad = -1;
    char what[200] = "";
    for (size_t i = 0; i < n && bad < 0; i++) {
        int64_t want = (int64_t)i; /* sorted and distinct, the i-th index is entry i */
        if (p[i][0] >= ntrace)
            snprintf(what, sizeof what, "trace entry %lld is past the trace's end (it has %lld entries)",
                     (long long)p[i][0], (long long)ntrace);
        else if (i > 0 && p[i][0] == p[i - 1][0])
            snprintf(what, sizeof what,
                     "trace entry %lld is also in line %lld of the recording (lines must not overlap)",
                     (long long)p[i][0], (long long)p[i - 1][1] + 1);
        else if (p[i][0] != want)
            snprintf(what, sizeof what, "trace entry %lld is in no line of the recording (lines must cover the trace)",
                     (long long)want);
        if (what[0])
            bad = (int)p[i][1];
    }
    if (bad < 0 && (int64_t)n < ntrace) {
        snprintf(what, sizeof what, "trace entry %lld is in no line of the recording (lines must cover the trace)",
                 (long long)n);
        bad = (int)p[n - 1][1];
    }
    free(p);
    if (bad >= 0)
        snprintf(err->text, sizeof err->text, "%s:%lld:%lld: instructions: %s", path, (long long)r->at[bad][0],
                 (long long)r->at[bad][1], what);
    return bad < 0;
}

void recording_free(recording *r)
{
    for (int i = 0; i < r->nrows; i++) {
        free((char *)r->rows[i].file);
        free((char *)r->rows[i].text);
        free((int64_t *)r->rows[i].instructions);
        free(r->rows[i].measured.why);
    }
    free(r->rows);
    free(r->lines);
    free(r->at);
    for (int i = 0; i < r->npcs; i++) {
        recording_pc *p = &r->pcs[i];
        free(p->sass);
        free(p->not_modelled);
        for (int k = 0; k < p->nchain; k++)
            free(p->chain[k].file), free(p->chain[k].text);
        free(p->chain);
    }
    free(r->pcs);
    for (int k = 0; k < r->nnot_modelled; k++)
        free(r->not_modelled[k].name), free(r->not_modelled[k].why);
    for (int k = 0; k < r->nnot_recorded; k++)
        free(r->not_recorded[k].name), free(r->not_recorded[k].why);
    free(r->not_modelled);
    free(r->not_recorded);
    free(r->index);
    free(r->invariance);
    free(r->duration_why);
    for (int i = 0; i < r->narrays; i++) {
        free(r->arrays[i].name);
        free(r->arrays[i].symbol);
    }
    free(r->arrays);
    free(r->kernel);
    free(r->device);
    free(r->measured_why);
    memset(r, 0, sizeof *r);
}

recording_doc *recording_doc_new(int rc, recording *r, const io_error *err)
{
    recording_doc *d = xcalloc(1, sizeof *d);
    atomic_init(&d->refs, 1);
    d->rc = rc;
    if (rc == 1) {
        d->r = *r;
        memset(r, 0, sizeof *r);
    } else if (err) {
        d->err = *err;
    }
    return d;
}

recording_doc *recording_doc_hold(recording_doc *d)
{
    if (d)
        atomic_fetch_add(&d->refs, 1);
    return d;
}

void recording_doc_drop(recording_doc *d)
{
    if (!d || atomic_fetch_sub(&d->refs, 1) != 1)
        return;
    recording_free(&d->r);
    free(d);
}

void recording_scope(const recording *r, char *buf, size_t n)
{
    snprintf(buf, n, "block (%lld,%lld,%lld) of launch %lld of %s", (long long)r->block[0], (long long)r->block[1],
             (long long)r->block[2], (long long)r->launch, r->kernel ? r->kernel : "the kernel");
}

/* A recording read member by member from a stream of the caller's (recording.h). */
struct recording_reader {
    reader rd;
    recording r;
    io_error err;
    char *path;
};

recording_reader *recording_reader_new(const char *path, bool indexes)
{
    recording_reader *rr = xcalloc(1, sizeof *rr);
    rr->path = xstrdup(path);
    rr->r.launch = -1;
    rr->rd = (reader){.path = rr->path, .err = &rr->err, .indexes = indexes, .keep_going = true, .r = &rr->r};
    return rr;
}

bool recording_reader_member(recording_reader *rr, jsonstream *js, const char *key, int t)
{
    if (rr->rd.failed || work_cancelled())
        return false;
    rr->rd.js = js;
    char k[32];
    snprintf(k, sizeof k, "%.31s", key);
    return read_member(&rr->rd, k, (jsonstream_token)t);
}

bool recording_reader_has_lines(const recording_reader *rr)
{
    return rr->r.rows != NULL;
}

int recording_reader_finish(recording_reader *rr, recording *r, io_error *err)
{
    memset(r, 0, sizeof *r);
    r->launch = -1;
    int rc = rr->rd.failed ? -1 : work_cancelled() ? -2 : 1;
    if (rc == 1) {
        *r = rr->r;
        memset(&rr->r, 0, sizeof rr->r);
    } else if (rc == -1) {
        *err = rr->err;
    }
    recording_reader_free(rr);
    return rc;
}

const char *recording_reader_error(const recording_reader *rr)
{
    return rr->rd.failed ? rr->err.text : NULL;
}

bool recording_reader_stops(const recording_reader *rr)
{
    return rr->rd.failed && rr->rd.loc_failed;
}

const recording *recording_reader_peek(const recording_reader *rr)
{
    return &rr->r;
}

void recording_reader_free(recording_reader *rr)
{
    if (!rr)
        return;
    recording_free(&rr->r);
    free(rr->path);
    free(rr);
}

bool recording_read_locations(jsonstream *js, const char *path, recording *r, io_error *err)
{
    reader rd = {.js = js, .path = path, .err = err, .r = r, .locations = true};
    if (read_lines(&rd))
        return true;
    if (!rd.failed) /* a signal */
        bad(&rd, "stopped by a signal");
    return false;
}
