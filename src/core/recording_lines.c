/* recording_lines: the per-source-line table `analyze` adds for a recording (bankscope record): read
 * from the file's "lines" with the streaming tokenizer, then each line predicted again from its
 * trace entries (trace_stream, one at a time) with the model analyze used, so a recording of any
 * size costs its lines' trace indexes here. Its total is the analysis' total: the lines partition
 * the trace and each line's numbers come from the same engine call. Also what the file says
 * beside its lines: truncation, and the kinds not modelled or not recorded.
 *
 * A recording is checked, not trusted: every count is an integer within what a real recording
 * can hold (RECORD_MAX_COUNT), the lines' trace indexes partition the trace (each entry in
 * exactly one line, none past its end), and nothing derived is read from the file: each line's
 * prediction, predicted x blocks, excess and agreement, the launch's excess and time share are
 * computed here from the trace (with the model in use) and the measured counts. A file that
 * breaks a rule is an error at its position. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/recording_lines.h"

#include "core/recording_book.h"
#include "core/recording_measured.h"
#include "io/jsonstream.h"
#include "io/report.h"
#include "io/trace_stream.h"
#include "model/kinds.h"
#include "io/textsafe.h"
#include "io/work.h"
#include "util.h"

/* The largest count a recording holds: 10^15 wavefronts is an hour of every shared-memory pipe of
 * a 132-SM GPU at 2 GHz, for one launch; anything larger was not measured. */
#define RECORD_MAX_COUNT 1000000000000000LL

/* Reading state: the path for messages and the first error, at its position. */
typedef struct lines_reader {
    jsonstream js;
    const char *path;
    char err[700];
    bool failed;
} lines_reader;

/* The first error, at the token just read: "PATH:LINE:COL: WHAT"; returns false. */
static bool bad(lines_reader *rd, const char *what)
{
    if (!rd->failed)
        snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: %s", rd->path, (long long)rd->js.line_tok,
                 (long long)rd->js.col_tok,
                 what[0]         ? what
                 : rd->js.msg[0] ? rd->js.msg
                                 : "unexpected value");
    rd->failed = true;
    return false;
}

/* A count of the file (the token just read) into *v: an integer from lo to hi, else an error at
 * its position naming the member. */
static bool count_value(lines_reader *rd, jsonstream_token t, const char *key, int64_t lo, int64_t hi, int64_t *v)
{
    if (t != JSONSTREAM_NUMBER || !rd->js.is_int || rd->js.ival < lo || rd->js.ival > hi) {
        char m[200];
        snprintf(m, sizeof m, "%s: expected an integer from %lld to %lld", key, (long long)lo, (long long)hi);
        return bad(rd, m);
    }
    *v = rd->js.ival;
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
static bool skip(lines_reader *rd, jsonstream_token t)
{
    return (t != JSONSTREAM_ERROR && jsonstream_skip(&rd->js, t)) || bad(rd, "");
}

/* A line's "measured" object (its '{' read): the three counts the hardware made. Its "excess"
 * and "predicted_launch" are conclusions, computed again, so they are not read. */
static bool read_line_measured(lines_reader *rd, record_lines_row *r)
{
    jsonstream_token t;
    r->measured = true;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js.str);
        t = jsonstream_next(&rd->js);
        uint64_t *dst = strcmp(key, "wavefronts") == 0         ? &r->mc.wavefronts
                        : strcmp(key, "ideal_wavefronts") == 0 ? &r->mc.ideal_wavefronts
                        : strcmp(key, "instructions") == 0     ? &r->mc.instructions
                                                               : NULL;
        int64_t v;
        if (dst && !count_value(rd, t, key, 0, RECORD_MAX_COUNT, &v))
            return false;
        if (dst)
            *dst = (uint64_t)v;
        else if (!skip(rd, t))
            return false;
    }
    if (r->mc.ideal_wavefronts > r->mc.wavefronts)
        return bad(rd, "measured: ideal_wavefronts is more than wavefronts");
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* "unrecorded" (its '[' read): the shared instructions no line holds; their excess adds to the
 * launch's. */
static bool read_unrecorded(lines_reader *rd, record_lines_launch *m)
{
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_OBJECT) {
        int64_t w = 0, i = 0;
        while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
            bool wf = strcmp(rd->js.str, "wavefronts") == 0, id = strcmp(rd->js.str, "ideal_wavefronts") == 0;
            t = jsonstream_next(&rd->js);
            if ((wf || id) &&
                !count_value(rd, t, wf ? "wavefronts" : "ideal_wavefronts", 0, RECORD_MAX_COUNT, wf ? &w : &i))
                return false;
            if (!wf && !id && !skip(rd, t))
                return false;
        }
        if (t != JSONSTREAM_OBJECT_END)
            return bad(rd, "");
        if (__builtin_add_overflow(m->unrecorded_excess, w - i, &m->unrecorded_excess))
            return bad(rd, "unrecorded: the sum of the counts overflows");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* The top-level "measured" object (its '{' read): the launch's measurements. Its excess and time
 * share are computed again, so they are not read. */
static bool read_top_measured(lines_reader *rd, record_lines_launch *m)
{
    jsonstream_token t;
    m->present = true;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js.str);
        t = jsonstream_next(&rd->js);
        bool ok = true;
        if (strcmp(key, "blocks") == 0) {
            m->blocks_line = rd->js.line_tok, m->blocks_col = rd->js.col_tok;
            ok = count_value(rd, t, key, 1, RECORD_MAX_COUNT, &m->blocks);
        } else if (strcmp(key, "sms") == 0) {
            ok = count_value(rd, t, key, 1, 100000, &m->sms);
        } else if (strcmp(key, "sm_clock_khz") == 0) {
            ok = count_value(rd, t, key, 1, 100000000, &m->clock_khz);
        } else if (strcmp(key, "duration_ns") == 0 && t != JSONSTREAM_NULL) {
            ok = m->has_duration = count_value(rd, t, key, 1, RECORD_MAX_COUNT, &m->duration_ns);
        } else if (strcmp(key, "second_block") == 0) {
            m->has_second = t == JSONSTREAM_ARRAY;
            ok = skip(rd, t);
        } else if (strcmp(key, "unrecorded") == 0 && t == JSONSTREAM_ARRAY) {
            ok = read_unrecorded(rd, m);
        } else if (!(strcmp(key, "block_invariance") == 0 && string_value(&rd->js, t, &m->invariance)) &&
                   !(strcmp(key, "duration_why") == 0 && string_value(&rd->js, t, &m->duration_why))) {
            ok = skip(rd, t);
        }
        if (!ok)
            return false;
    }
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* The table of what the hardware measured, after the predicted one; every number but the
 * measured counts computed (record_lines_load). */
static void print_measured(FILE *out, const record_lines_launch *m, const record_lines_row *rows, int n,
                           const char *arch)
{
    char t[600];
    if (m->null || !m->present) {
        if (m->why)
            fprintf(out, "\nmeasured: none (%s)\n", textsafe(m->why, t, sizeof t));
        return;
    }
    record_measured_header(out, (uint64_t)m->blocks);
    measured_counts total = {0, 0, 0};
    int64_t te = 0; /* sums checked when the file was read */
    for (int i = 0; i < n; i++) {
        record_measured_row(out, rows[i].file, rows[i].line, &rows[i].mc, rows[i].excess, (uint64_t)rows[i].expected,
                            rows[i].agree);
        total.wavefronts += rows[i].mc.wavefronts;
        total.ideal_wavefronts += rows[i].mc.ideal_wavefronts;
        te += rows[i].excess;
    }
    fprintf(out, "%-28s %12llu %12llu %12lld\n", "total", (unsigned long long)total.wavefronts,
            (unsigned long long)total.ideal_wavefronts, (long long)te);
    fprintf(out,
            "predicted x blocks and agree: computed from the trace with the %s model (the recording's own are "
            "not read)\n",
            arch);
    for (int i = 0; i < n; i++)
        if (rows[i].agree == MEASURED_AGREE_FALSE)
            record_measured_flag(out, rows[i].file, rows[i].line, measured_why_text(rows[i].why));
    if (m->invariance)
        fprintf(out, "block invariance %s\n", textsafe(m->invariance, t, sizeof t));
    uint64_t d = (uint64_t)m->duration_ns;
    record_measured_time(out, m->excess, m->has_duration ? &d : NULL, m->share, (int)m->sms, (int)m->clock_khz,
                         m->duration_why);
}

/* Count n more of the kind of SASS text sass (its kinds row, or its opcode) in *list. */
static void kind_add(record_lines_kind **list, int *n, const char *sass, const char *why, int64_t count)
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
    (*list)[(*n)++] = (record_lines_kind){xstrdup(name),
                                          xstrdup(k && k->not_modelled ? k->not_modelled
                                                  : why                ? why
                                                                       : ""),
                                          count};
}

/* A PC's "measured" object (its '{' read) into p: the counts the count run made at that PC,
 * checked as a line's are (the SASS page prints them). */
static bool read_pc_measured(lines_reader *rd, record_lines_pc *p)
{
    jsonstream_token t;
    p->has_measured = true;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js.str);
        t = jsonstream_next(&rd->js);
        uint64_t *dst = strcmp(key, "wavefronts") == 0         ? &p->m.wavefronts
                        : strcmp(key, "ideal_wavefronts") == 0 ? &p->m.ideal_wavefronts
                        : strcmp(key, "instructions") == 0     ? &p->m.instructions
                                                               : NULL;
        int64_t v;
        if (dst) {
            if (!count_value(rd, t, key, 0, RECORD_MAX_COUNT, &v))
                return false;
            *dst = (uint64_t)v;
        } else if (!skip(rd, t))
            return false;
    }
    if (p->m.ideal_wavefronts > p->m.wavefronts)
        return bad(rd, "pcs: measured: ideal_wavefronts is more than wavefronts");
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

/* A PC's "chain" (its '[' read): its inline chain, innermost first, into p. */
static bool read_chain(lines_reader *rd, record_lines_pc *p)
{
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_OBJECT) {
        p->chain = xrealloc(p->chain, (size_t)(p->nchain + 1) * sizeof *p->chain);
        record_lines_site *site = &p->chain[p->nchain++];
        *site = (record_lines_site){0};
        while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
            char key[8];
            snprintf(key, sizeof key, "%.7s", rd->js.str);
            t = jsonstream_next(&rd->js);
            if ((strcmp(key, "file") == 0 || strcmp(key, "text") == 0) && t == JSONSTREAM_STRING)
                string_value(&rd->js, t, key[0] == 'f' ? &site->file : &site->text);
            else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && rd->js.is_int)
                site->line = rd->js.ival;
            else if (!skip(rd, t))
                return false;
        }
        if (t != JSONSTREAM_OBJECT_END)
            return bad(rd, "");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* A line's "pcs" (its '[' read), the line being row `row` of L: each PC appended to L's, those
 * not modelled counted in L's kinds; whether one fills shared memory asynchronously into *async. */
static bool read_pcs(lines_reader *rd, record_lines *L, int row, int *pcroom, bool *async)
{
    record_lines_row *r = &L->rows[row];
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_OBJECT) {
        if (L->npcs == INT32_MAX - 1)
            return bad(rd, "pcs: too many");
        if (L->npcs == *pcroom)
            L->pcs = xrealloc(L->pcs, (size_t)(*pcroom = *pcroom ? 2 * *pcroom : 64) * sizeof *L->pcs);
        record_lines_pc *p = &L->pcs[L->npcs++]; /* kept even when it fails: freed with the others */
        *p = (record_lines_pc){.pc = -1, .row = row};
        bool ok = true;
        while (ok && (t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
            char key[32];
            snprintf(key, sizeof key, "%.31s", rd->js.str);
            t = jsonstream_next(&rd->js);
            if (strcmp(key, "sass") == 0 && t == JSONSTREAM_STRING)
                string_value(&rd->js, t, &p->sass);
            else if (strcmp(key, "not_modelled") == 0 && t == JSONSTREAM_STRING)
                string_value(&rd->js, t, &p->not_modelled);
            else if (strcmp(key, "executions") == 0)
                ok = count_value(rd, t, key, 0, RECORD_MAX_COUNT, &p->executions);
            else if (strcmp(key, "pc") == 0)
                ok = count_value(rd, t, key, 0, RECORD_MAX_COUNT, &p->pc);
            else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT)
                ok = read_pc_measured(rd, p);
            else if (strcmp(key, "chain") == 0 && t == JSONSTREAM_ARRAY)
                ok = read_chain(rd, p);
            else if (strcmp(key, "measured_only") == 0 && (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE)) {
                p->measured_only = t == JSONSTREAM_TRUE;
                r->unmodelled_now = r->unmodelled_now || p->measured_only; /* TMA, wgmma: never predicted */
            } else
                ok = skip(rd, t);
        }
        const char *why = p->not_modelled;
        if (ok && why) /* a kind the model does not cover: no agreement can be claimed */
            r->unmodelled_now = true;
        if (ok && why && !r->kind[0])
            record_kind_name(p->sass, r->kind, sizeof r->kind);
        if (ok && why)
            kind_add(&L->lf.not_modelled, &L->lf.nnot_modelled, p->sass, why, p->executions);
        const kinds_row *kind = kinds_find_sass_line(p->sass);
        if (kind && kind->fills_async)
            *async = true;
        if (!ok || t != JSONSTREAM_OBJECT_END)
            return ok ? bad(rd, "") : false;
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* "not_visible" (its '[' read) into f. */
static bool read_not_visible(lines_reader *rd, record_lines_file *f)
{
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_OBJECT) {
        char *sass = NULL;
        while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
            bool is_sass = strcmp(rd->js.str, "sass") == 0;
            t = jsonstream_next(&rd->js);
            if (is_sass && t == JSONSTREAM_STRING)
                string_value(&rd->js, t, &sass);
            else if (!skip(rd, t))
                break;
        }
        kind_add(&f->not_recorded, &f->nnot_recorded, sass, "its shared-memory side passes no callback", 1);
        free(sass);
        if (t != JSONSTREAM_OBJECT_END)
            return bad(rd, "");
    }
    return t == JSONSTREAM_ARRAY_END || bad(rd, "");
}

/* Where a trace index was read: the entry, its line of the recording and its position. */
typedef struct lines_index {
    int64_t entry;
    int row;
    int64_t at_line, at_col;
} lines_index;

/* The lines' trace indexes, gathered to check that they partition the trace. */
typedef struct lines_indexes {
    lines_index *v;
    size_t n, cap;
} lines_indexes;

/* One line object (its '{' read) into row `row` of L, its PCs after L's; its trace indexes into ix. */
static bool read_row(lines_reader *rd, record_lines *L, int row, int *pcroom, lines_indexes *ix, bool *async)
{
    record_lines_row *r = &L->rows[row];
    memset(r, 0, sizeof *r);
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js.str);
        t = jsonstream_next(&rd->js);
        bool ok = true;
        if ((strcmp(key, "file") == 0 || strcmp(key, "text") == 0) && t == JSONSTREAM_STRING) {
            string_value(&rd->js, t, key[0] == 'f' ? &r->file : &r->text);
        } else if (strcmp(key, "line") == 0 && t != JSONSTREAM_NULL) {
            ok = count_value(rd, t, key, 1, INT32_MAX, &r->line);
        } else if (strcmp(key, "not_modelled") == 0) {
            ok = count_value(rd, t, key, 0, RECORD_MAX_COUNT, &r->unmodelled);
        } else if (strcmp(key, "instructions") == 0 && t == JSONSTREAM_ARRAY) {
            int64_t room = 0, v;
            while (ok && (t = jsonstream_next(&rd->js)) == JSONSTREAM_NUMBER) {
                /* an index of the trace: bounded here by what a trace can hold, below by its length */
                if (!(ok = count_value(rd, t, "instructions", 0, INT32_MAX - 1, &v)))
                    break;
                if (r->instrs == room)
                    r->idx = xrealloc(r->idx, (size_t)(room = room ? 2 * room : 16) * sizeof *r->idx);
                r->idx[r->instrs++] = v;
                if (ix->n == ix->cap)
                    ix->v = xrealloc(ix->v, (ix->cap = ix->cap ? 2 * ix->cap : 64) * sizeof *ix->v);
                ix->v[ix->n++] = (lines_index){v, row, rd->js.line_tok, rd->js.col_tok};
            }
            ok = ok && (t == JSONSTREAM_ARRAY_END || bad(rd, "instructions: expected trace indexes"));
        } else if (strcmp(key, "pcs") == 0 && t == JSONSTREAM_ARRAY) {
            ok = read_pcs(rd, L, row, pcroom, async);
        } else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            ok = read_line_measured(rd, r);
        } else if (strcmp(key, "agree_why") == 0 && t == JSONSTREAM_STRING) {
            r->second_differs = strcmp(rd->js.str, measured_why_text(MEASURED_WHY_BLOCKS_DIFFER)) == 0;
        } else { /* "predicted", "agree": conclusions, computed again */
            ok = skip(rd, t);
        }
        if (!ok)
            return false;
    }
    return t == JSONSTREAM_OBJECT_END || bad(rd, "");
}

const char *record_kind_name(const char *sass, char *buf, size_t n)
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

void record_row_print(FILE *out, const char *file, int64_t line, const char *text, int64_t instrs, int64_t wavefronts,
                      int64_t ideal, int64_t degree, int64_t unmodelled, const char *kind)
{
    char where[80], deg[24], t[256];
    record_where(file, line, where, sizeof where);
    if (instrs)
        report_degree_text((int)degree, deg, sizeof deg);
    else
        snprintf(deg, sizeof deg, "-");
    if (instrs && degree <= 0 && unmodelled) /* only kinds the model does not cover: no verdict */
        snprintf(deg, sizeof deg, "not modelled");
    const char *txt = textsafe(text ? text + strspn(text, " \t") : "", t, sizeof t);
    bool cut = strlen(txt) > 70; /* a long line ends in "...": never cut without saying so */
    int keep = cut ? 67 : 70;
    while (cut && keep > 0 && ((unsigned char)txt[keep] & 0xC0) == 0x80) /* on a character boundary */
        keep--;
    fprintf(out, "%-28s %8lld %10lld %10lld %13s  %.*s%s\n", where, (long long)instrs, (long long)wavefronts,
            (long long)ideal, deg, keep, txt, cut ? "..." : "");
    if (unmodelled)
        fprintf(out, "%-28s %8lld not modelled%s%s\n", "", (long long)unmodelled, kind && kind[0] ? ": " : "",
                kind ? kind : "");
}

void record_row_header(FILE *out)
{
    fprintf(out, "%-28s %8s %10s %10s %13s  %s\n", "line", "instrs", "wavefronts", "ideal", "worst", "source");
}

/* Order of the trace indexes: by entry, then as read. */
static int index_cmp(const void *a, const void *b)
{
    const lines_index *x = a, *y = b;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    if (x->at_line != y->at_line)
        return x->at_line < y->at_line ? -1 : 1;
    return (x->at_col > y->at_col) - (x->at_col < y->at_col);
}

/* An error at a trace index's position. */
static bool bad_index(lines_reader *rd, const lines_index *x, const char *what)
{
    snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: instructions: %s", rd->path, (long long)x->at_line,
             (long long)x->at_col, what);
    rd->failed = true;
    return false;
}

/* The trace's entries, one at a time, for line_sums_walk: each on the line whose indexes hold it
 * (checked as it goes: the lines partition the trace) and on the PC of its own "pc". */
typedef struct lines_walk {
    lines_reader *rd;
    trace_stream *ts;
    io_error err;
    const lines_indexes *ix;
    const record_lines *L;
    int64_t i;      /* the next entry */
    size_t at;      /* the next index in entry order */
    int got;        /* trace_stream_next's last answer */
    bool checked;   /* stopped by a broken rule (rd has the error) */
    bool pcs_match; /* every entry so far at a PC of some line */
} lines_walk;

/* The PC row of pc in L's PCs (sorted by pc), or -1. */
static int pc_row(const record_lines *L, int64_t pc)
{
    int lo = 0, hi = L->npcs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (L->pcs[mid].pc == pc)
            return mid;
        if (L->pcs[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int lines_next(void *ctx, line_sums_instr *in)
{
    lines_walk *w = ctx;
    const lines_indexes *ix = w->ix;
    if ((w->i & 1023) == 0 && work_cancelled())
        return -1;
    if ((w->got = trace_stream_next(w->ts, &in->req, &w->err)) != 1)
        return w->got < 0 ? -1 : 0;
    int row = -1;
    if (w->at < ix->n && ix->v[w->at].entry == w->i)
        row = ix->v[w->at++].row;
    else if (ix->n > 0) {
        char m[200];
        snprintf(m, sizeof m, "trace entry %lld is in no line of the recording (lines must cover the trace)",
                 (long long)w->i);
        bad_index(w->rd, w->at < ix->n ? &ix->v[w->at] : &ix->v[ix->n - 1], m);
        w->checked = true;
        return -1;
    }
    int pc = pc_row(w->L, trace_stream_pc(w->ts));
    w->pcs_match = w->pcs_match && pc >= 0;
    in->unmodelled = NULL;
    in->access = w->i++;
    in->line = row;
    in->pc = pc;
    in->idle = false;
    return 1;
}

static int pc_cmp(const void *x, const void *y)
{
    const record_lines_pc *a = x, *b = y;
    return (a->pc > b->pc) - (a->pc < b->pc);
}

/* Each line's and each PC's prediction again, from their trace entries, with prof (the
 * architecture analyze used, which may not be the one the file was written with), in one walk
 * (line_sums.h): the same engine call as the analysis' total (report.c), so the lines and the
 * PCs still add up to it. Not-modelled entries add to no sum. The indexes (sorted here) must
 * partition the trace: an entry in two lines, an index past the trace's end, or (when the lines
 * give indexes at all) an entry in no line is an error at its position. An entry at a PC no line
 * holds leaves the lines alone and the SASS page says so (pcs_match). Memory: the indexes, never
 * the largest index. A signal stops it (false, no error). */
static bool lines_predict(lines_reader *rd, const banks_profile *prof, record_lines *L, lines_indexes *ix)
{
    record_lines_row *rows = L->rows;
    int n = L->n;
    if (ix->n > 1) /* (no indexes: no array at all) */
        qsort(ix->v, ix->n, sizeof *ix->v, index_cmp);
    for (size_t k = 1; k < ix->n; k++)
        if (ix->v[k].entry == ix->v[k - 1].entry) {
            char m[200];
            snprintf(m, sizeof m, "trace entry %lld is also in line %d of the recording (lines must not overlap)",
                     (long long)ix->v[k].entry, ix->v[k - 1].row + 1);
            return bad_index(rd, &ix->v[k], m);
        }
    qsort(L->pcs, (size_t)L->npcs, sizeof *L->pcs, pc_cmp);
    lines_walk w = {.rd = rd, .ix = ix, .L = L, .got = 1, .pcs_match = true};
    if (trace_stream_open(rd->path, NULL, 0, rd->path, prof->name, &w.ts, &w.err) != TRACE_STREAM_OK) {
        if (w.ts)
            trace_stream_close(w.ts);
        snprintf(rd->err, sizeof rd->err, "%s", w.err.text);
        rd->failed = true;
        return false;
    }
    line_sums sums = {.arch = prof,
                      .per_line = xcalloc((size_t)(n ? n : 1), sizeof *sums.per_line),
                      .nlines = n,
                      .per_pc = xcalloc((size_t)(L->npcs ? L->npcs : 1), sizeof *sums.per_pc),
                      .npcs = L->npcs};
    line_sums_walk(&sums, lines_next, &w);
    bool ok = !w.checked;
    if (ok && w.got < 0) {
        snprintf(rd->err, sizeof rd->err, "%s", w.err.text);
        rd->failed = true;
        ok = false;
    } else if (ok && w.got == 0 && w.at < ix->n) {
        char m[200];
        snprintf(m, sizeof m, "trace entry %lld is past the trace's end (it has %lld entries)",
                 (long long)ix->v[w.at].entry, (long long)w.i);
        ok = bad_index(rd, &ix->v[w.at], m);
    }
    ok = ok && w.got == 0; /* else stopped by a signal */
    for (int k = 0; ok && k < n; k++) {
        const line_sum *x = &sums.per_line[k];
        rows[k].wavefronts = x->wavefronts;
        rows[k].ideal = x->ideal;
        rows[k].degree = x->worst;
        if (x->not_modelled) /* a kind the model does not cover, named by its SASS (cp.async.cg) */
            rows[k].unmodelled_now = true;
        if (!rows[k].kind[0] && x->kind)
            snprintf(rows[k].kind, sizeof rows[k].kind, "%s", x->kind);
        if (x->not_modelled > rows[k].unmodelled) /* a file written before the kind was named */
            rows[k].unmodelled = x->not_modelled;
    }
    L->pcs_match = w.pcs_match;
    for (int k = 0; ok && k < L->npcs; k++) {
        record_lines_pc *p = &L->pcs[k];
        p->sums = sums.per_pc[k];
        if (p->sums.not_modelled && p->sums.kind) /* the kinds of what the trace does not hold, by SASS */
            snprintf(p->kind, sizeof p->kind, "%s", p->sums.kind);
        else if (p->not_modelled || p->measured_only)
            record_kind_name(p->sass, p->kind, sizeof p->kind);
    }
    free(sums.per_line);
    free(sums.per_pc);
    trace_stream_close(w.ts);
    return ok;
}

/* The derived numbers of every measured line and of the launch, from the measured counts and the
 * lines' predictions with the model in use; the sums checked (an error at the launch's "blocks"
 * when they do not fit). */
static bool lines_derive(lines_reader *rd, record_lines *L, bool async)
{
    record_lines_launch *m = &L->lm;
    if (!m->present || m->null)
        return true;
    char msg[300];
    if (m->blocks == 0 || (m->grid_blocks && m->blocks != m->grid_blocks)) {
        snprintf(msg, sizeof msg, "measured: blocks: %lld is not the launch's grid (%lld blocks)", (long long)m->blocks,
                 (long long)m->grid_blocks);
        snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: %s", rd->path, (long long)m->blocks_line,
                 (long long)m->blocks_col, m->blocks ? msg : "measured: the launch's blocks are not given");
        rd->failed = true;
        return false;
    }
    measured_launch launch = {.blocks = (uint64_t)m->blocks, .has_second = m->has_second, .async_fill = async};
    int64_t excess = m->unrecorded_excess;
    uint64_t tw = 0, ti = 0;
    for (int i = 0; i < L->n; i++) {
        record_lines_row *r = &L->rows[i];
        uint64_t expected;
        launch.invariant = m->has_second && !r->second_differs;
        bool fits = !r->measured ||
                    measured_recompute(&launch, &r->mc, (uint64_t)r->wavefronts, r->unmodelled_now || r->unmodelled > 0,
                                       &r->excess, &expected, &r->agree, &r->why);
        if (fits && r->measured && expected > INT64_MAX)
            fits = false;
        if (fits && r->measured)
            r->expected = (int64_t)expected;
        if (!fits || __builtin_add_overflow(excess, r->excess, &excess) ||
            __builtin_add_overflow(tw, r->mc.wavefronts, &tw) ||
            __builtin_add_overflow(ti, r->mc.ideal_wavefronts, &ti)) {
            snprintf(msg, sizeof msg,
                     "measured: blocks: %lld blocks x the lines' counts do not fit 64 bits (no real launch holds them)",
                     (long long)m->blocks);
            snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: %s", rd->path, (long long)m->blocks_line,
                     (long long)m->blocks_col, msg);
            rd->failed = true;
            return false;
        }
    }
    m->excess = excess;
    m->share = m->has_duration ? measured_share(excess > 0 ? (uint64_t)excess : 0, (int)m->sms, (int)m->clock_khz,
                                                (uint64_t)m->duration_ns)
                               : -1;
    return true;
}

/* Frees the rows and members of a recording's lines. */
static void lines_free(record_lines *L)
{
    record_lines_row *rows = L->rows;
    int n = L->n;
    record_lines_launch *lm = &L->lm;
    record_lines_file *lf = &L->lf;
    for (int i = 0; i < L->npcs; i++) {
        record_lines_pc *p = &L->pcs[i];
        free(p->sass);
        free(p->not_modelled);
        for (int k = 0; k < p->nchain; k++)
            free(p->chain[k].file), free(p->chain[k].text);
        free(p->chain);
    }
    free(L->pcs);
    for (int k = 0; k < lf->nnot_modelled; k++)
        free(lf->not_modelled[k].name), free(lf->not_modelled[k].why);
    for (int k = 0; k < lf->nnot_recorded; k++)
        free(lf->not_recorded[k].name), free(lf->not_recorded[k].why);
    free(lf->not_modelled);
    free(lf->not_recorded);
    for (int i = 0; i < n; i++) {
        free(rows[i].idx);
        free(rows[i].file);
        free(rows[i].text);
    }
    free(rows);
    free(lm->invariance);
    free(lm->why);
    free(lm->duration_why);
}

void record_lines_free(record_lines *L)
{
    if (!L)
        return;
    lines_free(L);
    free(L);
}

/* The launch's "grid" (its '[' read): three dimensions within CUDA's limits, multiplied. */
static bool read_grid(lines_reader *rd, int64_t *blocks)
{
    static const int64_t max[3] = {INT32_MAX, 65535, 65535};
    int64_t v, p = 1;
    int k = 0;
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_NUMBER && k < 3) {
        if (!count_value(rd, t, "grid", 1, max[k++], &v))
            return false;
        p *= v; /* at most 2^31 x 2^16 x 2^16 = 2^63 - ...: fits */
    }
    if (t != JSONSTREAM_ARRAY_END || k != 3)
        return bad(rd, "grid: expected three integers");
    *blocks = p;
    return true;
}

/* The members of the recording (its '{' read) into L and ix; false at the first error. */
static bool lines_members(lines_reader *rd, record_lines *L, lines_indexes *ix, bool *is_record, bool *async)
{
    int cap = 0, pcroom = 0;
    record_lines_launch *lm = &L->lm;
    record_lines_file *lf = &L->lf;
    jsonstream_token t;
    while ((t = jsonstream_next(&rd->js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", rd->js.str);
        if (strcmp(key, "trace") == 0 && *is_record && L->rows)
            return true; /* the lines and what they need come before the trace */
        t = jsonstream_next(&rd->js);
        if (work_cancelled())
            return false;
        if (strcmp(key, "format") == 0) {
            *is_record = t == JSONSTREAM_STRING && strcmp(rd->js.str, "bankscope-record/1") == 0;
            if (!*is_record)
                return true;
            continue;
        }
        bool ok = true;
        if (!*is_record) {
            ok = t != JSONSTREAM_ERROR && jsonstream_skip_fast(&rd->js, t);
        } else if (strcmp(key, "measured") == 0 && (t == JSONSTREAM_OBJECT || t == JSONSTREAM_NULL)) {
            lm->null = t == JSONSTREAM_NULL;
            ok = t == JSONSTREAM_NULL || read_top_measured(rd, lm);
        } else if (strcmp(key, "executed") == 0 || strcmp(key, "captured") == 0) {
            ok = count_value(rd, t, key, 0, RECORD_MAX_COUNT, key[0] == 'e' ? &lf->executed : &lf->captured);
        } else if (strcmp(key, "grid") == 0 && t == JSONSTREAM_ARRAY) {
            ok = read_grid(rd, &lm->grid_blocks);
        } else if (strcmp(key, "truncated") == 0 && (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE)) {
            lf->truncated = t == JSONSTREAM_TRUE;
        } else if (strcmp(key, "not_visible") == 0 && t == JSONSTREAM_ARRAY) {
            ok = read_not_visible(rd, lf);
        } else if (strcmp(key, "measured_why") == 0 && t == JSONSTREAM_STRING) {
            string_value(&rd->js, t, &lm->why);
        } else if (strcmp(key, "lines") == 0 && t == JSONSTREAM_ARRAY) {
            L->has_lines = true;
            while (ok && (t = jsonstream_next(&rd->js)) == JSONSTREAM_OBJECT) {
                if (L->n == INT32_MAX - 1 || work_cancelled())
                    return L->n == INT32_MAX - 1 ? bad(rd, "lines: too many") : false;
                if (L->n == cap)
                    L->rows = xrealloc(L->rows, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *L->rows);
                ok = read_row(rd, L, L->n, &pcroom, ix, async);
                L->n++; /* kept even when it failed: freed with the others */
            }
            ok = ok && (t == JSONSTREAM_ARRAY_END || bad(rd, ""));
        } else {
            ok = t != JSONSTREAM_ERROR && jsonstream_skip_fast(&rd->js, t);
            if (!ok)
                bad(rd, "");
        }
        if (!ok)
            return false;
    }
    return true;
}

int record_lines_load(const char *path, const banks_profile *prof, record_lines **out, char *err, size_t n)
{
    *out = NULL;
    struct stat st; /* a pipe is read once, by the analysis: its lines cannot be read again */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    record_lines *L = xcalloc(1, sizeof *L);
    L->lm.share = -1;
    L->arch = prof->name;
    lines_reader rd = {.path = path};
    jsonstream_open_file(&rd.js, f);
    jsonstream_max_string(&rd.js, 1 << 20);
    lines_indexes ix = {0};
    bool is_record = false, async = false;
    bool ok = jsonstream_next(&rd.js) == JSONSTREAM_OBJECT && lines_members(&rd, L, &ix, &is_record, &async);
    jsonstream_close(&rd.js);
    fclose(f);
    ok = ok && is_record && lines_predict(&rd, prof, L, &ix) && lines_derive(&rd, L, async);
    free(ix.v);
    if (ok) {
        *out = L;
        return 1;
    }
    record_lines_free(L);
    if (rd.failed && is_record) {
        snprintf(err, n, "%s", rd.err);
        return -1;
    }
    return work_cancelled() && is_record ? -2 : 0;
}

/* "10 of 64 warp-instructions captured (truncated)" into buf, or NULL when all were. */
static const char *truncation(const record_lines_file *lf, char *buf, size_t n)
{
    if (!lf->truncated && !(lf->executed > lf->captured))
        return NULL;
    snprintf(buf, n, "%lld of %lld warp-instructions captured (truncated)", (long long)lf->captured,
             (long long)lf->executed);
    return buf;
}

/* The kinds of a list, one line each: "PREFIX: N x KIND (UNIT): why". */
static void print_kinds(FILE *out, const char *prefix, const char *unit, const record_lines_kind *k, int n)
{
    char t[256], u[400];
    for (int i = 0; i < n; i++)
        fprintf(out, "%s: %lld x %s (%s): %s\n", prefix, (long long)k[i].count, textsafe(k[i].name, t, sizeof t), unit,
                textsafe(k[i].why, u, sizeof u));
}

void record_lines_print(const record_lines *L, FILE *out)
{
    char tr[128];
    const record_lines_file *lf = &L->lf;
    if (truncation(lf, tr, sizeof tr)) /* right under the verdict, which covers only these */
        fprintf(out,
                "\nTRUNCATED: %s: the totals and the verdict above cover only those; record again with a "
                "larger --max-instructions\n",
                tr);
    if (lf->nnot_modelled || lf->nnot_recorded)
        fputc('\n', out);
    print_kinds(out, "not modelled", "executions, in no sum", lf->not_modelled, lf->nnot_modelled);
    print_kinds(out, "not recorded", "SASS instructions of the kernel", lf->not_recorded, lf->nnot_recorded);
    if (L->n == 0)
        return;
    int64_t tn = 0, tw = 0, ti = 0;
    fprintf(out, "\nper source line (the recorded block, predicted by the %s model; its lines partition the trace):\n",
            L->arch);
    record_row_header(out);
    for (int i = 0; i < L->n; i++) {
        const record_lines_row *r = &L->rows[i];
        record_row_print(out, r->file, r->line, r->text, r->instrs, r->wavefronts, r->ideal, r->degree, r->unmodelled,
                         r->kind);
        tn += r->instrs; /* bounded by the trace's length and its entries' wavefronts */
        tw += r->wavefronts;
        ti += r->ideal;
    }
    fprintf(out, "%-28s %8lld %10lld %10lld\n", "total", (long long)tn, (long long)tw, (long long)ti);
    print_measured(out, &L->lm, L->rows, L->n, L->arch);
}

void record_lines_json(jsonw *w, void *ctx)
{
    const record_lines *L = ((const record_lines_ctx *)ctx)->lines;
    if (!L)
        return;
    const record_lines_row *rows = L->rows;
    int n = L->n;
    const record_lines_launch lm = L->lm;
    const record_lines_file lf = L->lf;
    char tr[128];
    JSONW_KEY(w, "capture");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "executed", lf.executed);
    JSONW_KV_INT(w, "captured", lf.captured);
    JSONW_KV_BOOL(w, "truncated", truncation(&lf, tr, sizeof tr) != NULL);
    JSONW_KV_STRING(w, "warning", truncation(&lf, tr, sizeof tr));
    jsonw_end_object(w);
    const char *keys[2] = {"not_modelled_kinds", "not_recorded_kinds"};
    const record_lines_kind *lists[2] = {lf.not_modelled, lf.not_recorded};
    int counts[2] = {lf.nnot_modelled, lf.nnot_recorded};
    for (int l = 0; l < 2; l++) {
        jsonw_key(w, keys[l]);
        jsonw_begin_array(w, JSONW_INLINE);
        for (int i = 0; i < counts[l]; i++) {
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_STRING(w, "kind", lists[l][i].name);
            JSONW_KV_INT(w, "count", lists[l][i].count);
            JSONW_KV_STRING(w, "why", lists[l][i].why);
            jsonw_end_object(w);
        }
        jsonw_end_array(w);
    }
    JSONW_KEY(w, "source_lines");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < n; i++) {
        const record_lines_row *r = &rows[i];
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_STRING(w, "file", r->file);
        if (r->file)
            JSONW_KV_INT(w, "line", r->line);
        else
            JSONW_KV_NULL(w, "line");
        JSONW_KV_STRING(w, "text", r->text);
        JSONW_KV_INT(w, "instructions", r->instrs);
        JSONW_KV_INT(w, "not_modelled", r->unmodelled);
        JSONW_KEY(w, "predicted");
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "wavefronts", r->wavefronts);
        JSONW_KV_INT(w, "ideal_wavefronts", r->ideal);
        JSONW_KV_INT(w, "conflict_degree", r->degree);
        jsonw_end_object(w);
        if (r->measured && lm.present && !lm.null) { /* the counts as measured, the rest computed */
            record_measured_json_counts(w, &r->mc, r->excess, (uint64_t)r->expected, r->agree,
                                        r->why == MEASURED_WHY_NONE ? NULL : measured_why_text(r->why));
        } else {
            JSONW_KV_NULL(w, "measured");
            JSONW_KV_NULL(w, "agree");
            JSONW_KV_NULL(w, "agree_why");
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    JSONW_KEY(w, "measured");
    if (lm.present && !lm.null) {
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "blocks", lm.blocks);
        JSONW_KV_STRING(w, "computed_with", L->arch); /* the model behind every derived number */
        JSONW_KV_STRING(w, "block_invariance", lm.invariance);
        JSONW_KV_INT(w, "excess_wavefronts", lm.excess);
        JSONW_KV_INT(w, "sms", lm.sms);
        JSONW_KV_INT(w, "sm_clock_khz", lm.clock_khz);
        if (lm.has_duration)
            JSONW_KV_INT(w, "duration_ns", lm.duration_ns);
        else
            JSONW_KV_NULL(w, "duration_ns");
        JSONW_KEY(w, "time_share_upper_bound");
        if (lm.share >= 0)
            jsonw_double(w, lm.share);
        else
            jsonw_null(w);
        jsonw_end_object(w);
    } else {
        jsonw_null(w);
    }
    JSONW_KV_STRING(w, "measured_why", lm.why);
}
