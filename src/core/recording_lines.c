/* recording_lines: a recording read once for analyze (recording_lines.h): the one reader's
 * struct (io/recording.h), its lines and PCs predicted again from the trace in one walk
 * (line_sums.h: trace_stream, one entry at a time) with the model analyze used, so a recording of
 * any size costs its lines' trace indexes here. Its total is the analysis' total: the lines
 * partition the trace and each line's numbers come from the same engine call. Nothing derived is
 * read from the file: each line's prediction, predicted x blocks, excess and agreement, the
 * launch's excess and time share are computed here from the trace (with the model in use) and
 * the measured counts. A file that breaks a rule is an error at its position. */
#include "core/recording_lines.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/recording_book.h"
#include "core/recording_measured.h"
#include "io/instr_source.h"
#include "io/jsonw.h"
#include "io/report.h"
#include "io/textsafe.h"
#include "io/trace_stream.h"
#include "io/work.h"
#include "util.h"

/* Checking state: the path for messages and the first error, at its position. */
typedef struct lines_checker {
    const char *path;
    char err[700];
    bool failed;
} lines_checker;

/* The table of what the hardware measured, after the predicted one; every number but the
 * measured counts computed (record_lines_load). */
static void print_measured(FILE *out, const record_lines *L)
{
    const recording *m = &L->rec;
    const record_lines_row *rows = L->rows;
    int n = L->n;
    char t[600];
    if (!m->measured) {
        if (m->measured_why)
            fprintf(out, "\nmeasured: none (%s)\n", textsafe(m->measured_why, t, sizeof t));
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
            L->arch);
    for (int i = 0; i < n; i++)
        if (rows[i].agree == MEASURED_AGREE_FALSE)
            record_measured_flag(out, rows[i].file, rows[i].line, measured_why_text(rows[i].why));
    if (m->invariance)
        fprintf(out, "block invariance %s\n", textsafe(m->invariance, t, sizeof t));
    uint64_t d = (uint64_t)m->duration_ns;
    record_measured_time(out, L->excess, m->has_duration ? &d : NULL, L->share, (int)m->sms, (int)m->clock_khz,
                         m->duration_why);
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
    const recording_index *x = a, *y = b;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    if (x->at_line != y->at_line)
        return x->at_line < y->at_line ? -1 : 1;
    return (x->at_col > y->at_col) - (x->at_col < y->at_col);
}

/* An error at a trace index's position. */
static bool bad_index(lines_checker *rd, const recording_index *x, const char *what)
{
    snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: instructions: %s", rd->path, (long long)x->at_line,
             (long long)x->at_col, what);
    rd->failed = true;
    return false;
}

/* The state of a recording's lines as the trace streams past (record_lines_feed): each entry on
 * the line whose indexes hold it (checked as it goes: the lines partition the trace) and on the
 * PC of its own "pc", added up by line_sums' rule. */
struct record_lines_walk {
    lines_checker rd;
    line_sums sums;
    int64_t i;      /* the next entry */
    size_t at;      /* the next index in entry order */
    bool pcs_match; /* every entry so far at a PC of some line */
};

/* The PC row of pc in L's PCs (sorted by pc), or -1. */
static int pc_row(const record_lines *L, int64_t pc)
{
    int lo = 0, hi = L->npcs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (L->pcs[mid]->pc == pc)
            return mid;
        if (L->pcs[mid]->pc < pc)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* Adds one trace entry to the per-line sums of the walk under way (its line from the indexes). */
void record_lines_feed(record_lines *L, int64_t pc, const banks_request *req, const banks_result *res)
{
    struct record_lines_walk *w = L->walk;
    const recording *ix = &L->rec;
    if (!w || w->rd.failed)
        return;
    int row = -1;
    if (w->at < ix->nindex && ix->index[w->at].entry == w->i)
        row = ix->index[w->at++].row;
    else if (ix->nindex > 0) {
        char m[200];
        snprintf(m, sizeof m, "trace entry %lld is in no line of the recording (lines must cover the trace)",
                 (long long)w->i);
        bad_index(&w->rd, w->at < ix->nindex ? &ix->index[w->at] : &ix->index[ix->nindex - 1], m);
        return;
    }
    int pcr = pc_row(L, pc);
    w->pcs_match = w->pcs_match && pcr >= 0;
    line_sums_instr in = {.req = *req, .access = w->i++, .line = row, .pc = pcr};
    if (res)
        line_sums_add(&w->sums, &in, res);
    else
        line_sums_step(&w->sums, &in); /* predicted here */
}

static int pc_cmp(const void *x, const void *y)
{
    const recording_pc *a = *(const recording_pc *const *)x, *b = *(const recording_pc *const *)y;
    return (a->pc > b->pc) - (a->pc < b->pc);
}

/* Ready L's lines to be predicted as the trace streams past, with prof (the architecture analyze
 * uses, which may not be the one the file was written with): the indexes sorted (an entry in two
 * lines is an error at its position), the PCs by pc. Memory: the indexes, never the largest
 * index. */
static bool lines_start(record_lines *L, const char *path, const banks_profile *prof)
{
    recording *ix = &L->rec;
    struct record_lines_walk *w = L->walk = xcalloc(1, sizeof *L->walk);
    w->rd.path = path;
    w->pcs_match = true;
    if (ix->nindex > 1) /* (no indexes: no array at all) */
        qsort(ix->index, ix->nindex, sizeof *ix->index, index_cmp);
    for (size_t k = 1; k < ix->nindex; k++)
        if (ix->index[k].entry == ix->index[k - 1].entry) {
            char m[200];
            snprintf(m, sizeof m, "trace entry %lld is also in line %d of the recording (lines must not overlap)",
                     (long long)ix->index[k].entry, ix->index[k - 1].row + 1);
            return bad_index(&w->rd, &ix->index[k], m);
        }
    L->pcs = xcalloc((size_t)(ix->npcs ? ix->npcs : 1), sizeof *L->pcs);
    for (int k = 0; k < ix->npcs; k++)
        L->pcs[k] = &ix->pcs[k];
    L->npcs = ix->npcs;
    L->pc_sums = xcalloc((size_t)(L->npcs ? L->npcs : 1), sizeof *L->pc_sums);
    qsort(L->pcs, (size_t)L->npcs, sizeof *L->pcs, pc_cmp);
    w->sums = (line_sums){.arch = prof,
                          .per_line = xcalloc((size_t)(L->n ? L->n : 1), sizeof *w->sums.per_line),
                          .nlines = L->n,
                          .per_pc = L->pc_sums,
                          .npcs = L->npcs};
    return true;
}

/* The end of the trace (ntrace entries fed): an index past it is an error at its position; each
 * line's prediction into its row. */
static bool lines_finish(record_lines *L)
{
    struct record_lines_walk *w = L->walk;
    const recording *ix = &L->rec;
    if (w->rd.failed)
        return false;
    if (w->at < ix->nindex) {
        char m[200];
        snprintf(m, sizeof m, "trace entry %lld is past the trace's end (it has %lld entries)",
                 (long long)ix->index[w->at].entry, (long long)w->i);
        return bad_index(&w->rd, &ix->index[w->at], m);
    }
    for (int k = 0; k < L->n; k++) {
        const line_sum *x = &w->sums.per_line[k];
        record_lines_row *row = &L->rows[k];
        row->wavefronts = x->wavefronts;
        row->ideal = x->ideal;
        row->degree = x->worst;
        if (x->not_modelled) /* a kind the model does not cover, named by its SASS (cp.async.cg) */
            row->unmodelled_now = true;
        if (!row->kind[0] && x->kind)
            snprintf(row->kind, sizeof row->kind, "%s", x->kind);
        if (x->not_modelled > row->unmodelled) /* a file written before the kind was named */
            row->unmodelled = x->not_modelled;
    }
    L->pcs_match = w->pcs_match;
    return true;
}

/* The derived numbers of every measured line and of the launch, from the measured counts and the
 * lines' predictions with the model in use; the sums checked (an error at the launch's "blocks"
 * when they do not fit). */
static bool lines_derive(record_lines *L)
{
    lines_checker *rd = &L->walk->rd;
    const recording *m = &L->rec;
    if (!m->measured)
        return true;
    char msg[300];
    if (m->blocks == 0 || (m->grid_blocks && m->blocks != m->grid_blocks)) {
        snprintf(msg, sizeof msg, "measured: blocks: %lld is not the launch's grid (%lld blocks)", (long long)m->blocks,
                 (long long)m->grid_blocks);
        snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: %s", rd->path, (long long)m->blocks_at[0],
                 (long long)m->blocks_at[1], m->blocks ? msg : "measured: the launch's blocks are not given");
        rd->failed = true;
        return false;
    }
    measured_launch launch = {.blocks = (uint64_t)m->blocks, .has_second = m->second, .async_fill = m->async_fill};
    int64_t excess = m->unrecorded_excess;
    uint64_t tw = 0, ti = 0;
    for (int i = 0; i < L->n; i++) {
        record_lines_row *r = &L->rows[i];
        uint64_t expected;
        launch.invariant = m->second && !r->second_differs;
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
            snprintf(rd->err, sizeof rd->err, "%s:%lld:%lld: %s", rd->path, (long long)m->blocks_at[0],
                     (long long)m->blocks_at[1], msg);
            rd->failed = true;
            return false;
        }
    }
    L->excess = excess;
    L->share = m->has_duration ? measured_share(excess > 0 ? (uint64_t)excess : 0, (int)m->sms, (int)m->clock_khz,
                                                (uint64_t)m->duration_ns)
                               : -1;
    return true;
}

/* The computed rows of the recording's lines: what the file says of each (its counts, measured
 * numbers, the kinds of its PCs); the predictions come from the walk. */
static void lines_rows(record_lines *L)
{
    const recording *rc = &L->rec;
    L->n = rc->nrows;
    L->rows = xcalloc((size_t)(L->n ? L->n : 1), sizeof *L->rows);
    for (int i = 0; i < L->n; i++) {
        const source_record_line *l = &rc->rows[i];
        const recording_line *x = &rc->lines[i];
        record_lines_row *r = &L->rows[i];
        r->file = l->file;
        r->text = l->text;
        r->line = l->line;
        r->instrs = l->ninstructions;
        r->unmodelled = x->not_modelled;
        r->unmodelled_now = x->unmodelled_pcs; /* a kind the model does not cover, or measured only */
        snprintf(r->kind, sizeof r->kind, "%s", x->kind);
        r->measured = l->measured.known;
        r->mc = (measured_counts){.wavefronts = l->measured.wavefronts,
                                  .ideal_wavefronts = l->measured.ideal_wavefronts,
                                  .instructions = l->measured.instructions};
        r->second_differs = l->measured.second_differs;
    }
}

void record_lines_free(record_lines *L)
{
    if (!L)
        return;
    recording_free(&L->rec);
    free(L->rows);
    free(L->pcs);
    free(L->pc_sums);
    if (L->walk)
        free(L->walk->sums.per_line);
    free(L->walk);
    free(L);
}

const char *record_lines_pc_kind(const record_lines *L, int i, char *buf, size_t n)
{
    const line_sum *x = &L->pc_sums[i];
    const recording_pc *p = L->pcs[i];
    buf[0] = '\0';
    if (x->instructions > x->not_modelled)
        return buf;                 /* predicted */
    if (x->not_modelled && x->kind) /* the kinds of what the trace does not hold, by SASS */
        snprintf(buf, n, "%s", x->kind);
    else if (p->not_modelled || p->measured_only)
        recording_kind_name(p->sass, buf, n);
    return buf;
}

int record_lines_begin(recording *rec, const char *path, const banks_profile *prof, record_lines **out, char *err,
                       size_t n)
{
    record_lines *L = xcalloc(1, sizeof *L);
    L->share = -1;
    L->arch = prof->name;
    L->rec = *rec;
    memset(rec, 0, sizeof *rec);
    lines_rows(L);
    *out = L;
    if (lines_start(L, path, prof))
        return 1;
    snprintf(err, n, "%s", L->walk->rd.err);
    record_lines_free(L);
    *out = NULL;
    return -1;
}

int record_lines_end(record_lines *L, char *err, size_t n)
{
    if (lines_finish(L) && lines_derive(L))
        return 1;
    snprintf(err, n, "%s", L->walk->rd.err);
    return -1;
}

const char *record_lines_error(const record_lines *L)
{
    return L && L->walk && L->walk->rd.failed ? L->walk->rd.err : NULL;
}

void record_lines_on_check(void *ctx, trace_stream *ts, int64_t k, const banks_request *r)
{
    record_lines_pass *p = ctx;
    if (k < 0) {
        const banks_profile *prof =
            trace_stream_header(ts)->arch; /* the stream is open: the recording, when its lines came first */
        recording rec;
        io_error e;
        p->rc = trace_stream_take_recording(ts, &rec, &e);
        if (p->rc == 1)
            p->rc = record_lines_begin(&rec, p->path, prof, &p->lines, p->err, sizeof p->err);
        else if (p->rc == -1)
            snprintf(p->err, sizeof p->err, "%s", e.text);
        return;
    }
    if (!p->predict || !p->lines || record_lines_error(p->lines))
        return;
    record_lines_feed(p->lines, trace_stream_pc(ts), r, NULL);
}

void record_lines_observe(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r,
                          const report_lanes *b)
{
    (void)s, (void)b;
    record_lines_pass *p = ctx;
    if (p->lines && !p->predict)
        record_lines_feed(p->lines, instr_source_pc(p->src), &in->req, r);
}

int record_lines_load(const char *path, const banks_profile *prof, record_lines **out, char *err, size_t n)
{
    *out = NULL;
    struct stat st; /* a pipe is read once, by the analysis: its lines cannot be read again */
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    recording rec;
    io_error e;
    int rc = recording_read_indexes(path, &rec, &e);
    if (rc <= 0) {
        if (rc == -1)
            snprintf(err, n, "%s", e.text);
        return rc;
    }
    record_lines *L;
    if (record_lines_begin(&rec, path, prof, &L, err, n) < 0)
        return -1;
    trace_stream *ts;
    if (trace_stream_open(path, NULL, 0, path, prof->name, &ts, &e) != TRACE_STREAM_OK) {
        trace_stream_close(ts);
        snprintf(err, n, "%s", e.text);
        record_lines_free(L);
        return -1;
    }
    banks_request req;
    int got = 1;
    for (int64_t i = 0; !record_lines_error(L); i++) {
        if ((i & 1023) == 0 && work_cancelled()) {
            got = -2;
            break;
        }
        if ((got = trace_stream_next(ts, &req, &e)) != 1)
            break;
        record_lines_feed(L, trace_stream_pc(ts), &req, NULL);
    }
    trace_stream_close(ts);
    if (record_lines_error(L)) {
        snprintf(err, n, "%s", record_lines_error(L));
        got = -1;
    } else if (got == 0) {
        if (record_lines_end(L, err, n) > 0) {
            *out = L;
            return 1;
        }
        got = -1;
    } else if (got == -1) {
        snprintf(err, n, "%s", e.text);
    }
    record_lines_free(L);
    return got;
}

/* "10 of 64 warp-instructions captured (truncated)" into buf, or NULL when all were. */
static const char *truncation(const recording *lf, char *buf, size_t n)
{
    if (!lf->truncated && !(lf->executed > lf->captured))
        return NULL;
    snprintf(buf, n, "%lld of %lld warp-instructions captured (truncated)", (long long)lf->captured,
             (long long)lf->executed);
    return buf;
}

/* The kinds of a list, one line each: "PREFIX: N x KIND (UNIT): why". */
static void print_kinds(FILE *out, const char *prefix, const char *unit, const recording_kind *k, int n)
{
    char t[256], u[400];
    for (int i = 0; i < n; i++)
        fprintf(out, "%s: %lld x %s (%s): %s\n", prefix, (long long)k[i].count, textsafe(k[i].name, t, sizeof t), unit,
                textsafe(k[i].why, u, sizeof u));
}

void record_lines_print(const record_lines *L, FILE *out)
{
    char tr[128];
    const recording *lf = &L->rec;
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
    print_measured(out, L);
}

void record_lines_json(jsonw *w, void *ctx)
{
    const record_lines *L = ((const record_lines_ctx *)ctx)->lines;
    if (!L)
        return;
    const record_lines_row *rows = L->rows;
    int n = L->n;
    const recording *lm = &L->rec, *lf = &L->rec;
    char tr[128];
    JSONW_KEY(w, "capture");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "executed", lf->executed);
    JSONW_KV_INT(w, "captured", lf->captured);
    JSONW_KV_BOOL(w, "truncated", truncation(lf, tr, sizeof tr) != NULL);
    JSONW_KV_STRING(w, "warning", truncation(lf, tr, sizeof tr));
    jsonw_end_object(w);
    const char *keys[2] = {"not_modelled_kinds", "not_recorded_kinds"};
    const recording_kind *lists[2] = {lf->not_modelled, lf->not_recorded};
    int counts[2] = {lf->nnot_modelled, lf->nnot_recorded};
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
        if (r->measured && lm->measured) { /* the counts as measured, the rest computed */
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
    if (lm->measured) {
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "blocks", lm->blocks);
        JSONW_KV_STRING(w, "computed_with", L->arch); /* the model behind every derived number */
        JSONW_KV_STRING(w, "block_invariance", lm->invariance);
        JSONW_KV_INT(w, "excess_wavefronts", L->excess);
        JSONW_KV_INT(w, "sms", lm->sms);
        JSONW_KV_INT(w, "sm_clock_khz", lm->clock_khz);
        if (lm->has_duration)
            JSONW_KV_INT(w, "duration_ns", lm->duration_ns);
        else
            JSONW_KV_NULL(w, "duration_ns");
        JSONW_KEY(w, "time_share_upper_bound");
        if (L->share >= 0)
            jsonw_double(w, L->share);
        else
            jsonw_null(w);
        jsonw_end_object(w);
    } else {
        jsonw_null(w);
    }
    JSONW_KV_STRING(w, "measured_why", lm->measured_why);
}
