/* record_lines: the per-source-line table `analyze` adds for a recording (bankscope record): read
 * from the file's "lines" with the streaming tokenizer, then each line predicted again from its
 * trace entries (trace_stream, one at a time) with the model analyze used, so a recording of any
 * size costs its lines' trace indexes here. Its total is the analysis' total: the lines partition
 * the trace and each line's numbers come from the same engine call. Also what the file says
 * beside its lines: truncation, and the kinds not modelled or not recorded. */
#include <stdlib.h>
#include <string.h>

#include "cli/record_measured.h"
#include "cli/record_write.h"
#include "io/jsonstream.h"
#include "io/report.h"
#include "io/trace_stream.h"
#include "model/kinds.h"
#include "io/textsafe.h"
#include "util.h"

typedef struct lines_row {
    char *file, *text;
    int64_t line, instrs, wavefronts, ideal, degree, unmodelled;
    char kind[32]; /* the first not-modelled kind of its PCs ("cp.async.cg"), or "" */
    int64_t *idx;  /* its trace entries ("instructions"), instrs of them */
    /* what the hardware counted (the line's "measured", "agree", "agree_why") */
    bool measured;
    measured_counts mc;
    int64_t excess, expected;
    measured_agree agree;
    char *agree_why;
} lines_row;

/* The recording's top-level "measured" (or "measured_why"), read before its lines. */
typedef struct lines_measured {
    bool present, null;
    int64_t blocks, excess, sms, clock_khz, duration_ns;
    bool has_duration;
    double share;
    char *invariance, *why, *duration_why;
} lines_measured;

/* An integer member value into *v when the token is one; false otherwise. */
static bool int_value(const jsonstream *js, jsonstream_token t, int64_t *v)
{
    if (t != JSONSTREAM_NUMBER || !js->is_int)
        return false;
    *v = js->ival;
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

/* A line's "measured" object (its '{' read). */
static bool read_line_measured(jsonstream *js, lines_row *r)
{
    jsonstream_token t;
    int64_t v;
    r->measured = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if (!int_value(js, t, &v)) {
            if (!jsonstream_skip(js, t))
                return false;
        } else if (strcmp(key, "wavefronts") == 0) {
            r->mc.wavefronts = (uint64_t)v;
        } else if (strcmp(key, "ideal_wavefronts") == 0) {
            r->mc.ideal_wavefronts = (uint64_t)v;
        } else if (strcmp(key, "instructions") == 0) {
            r->mc.instructions = (uint64_t)v;
        } else if (strcmp(key, "excess") == 0) {
            r->excess = v;
        } else if (strcmp(key, "predicted_launch") == 0) {
            r->expected = v;
        }
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* The top-level "measured" object (its '{' read). */
static bool read_top_measured(jsonstream *js, lines_measured *m)
{
    jsonstream_token t;
    m->present = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        bool used = false;
        if (strcmp(key, "blocks") == 0)
            used = int_value(js, t, &m->blocks);
        else if (strcmp(key, "excess_wavefronts") == 0)
            used = int_value(js, t, &m->excess);
        else if (strcmp(key, "sms") == 0)
            used = int_value(js, t, &m->sms);
        else if (strcmp(key, "sm_clock_khz") == 0)
            used = int_value(js, t, &m->clock_khz);
        else if (strcmp(key, "duration_ns") == 0)
            used = m->has_duration = int_value(js, t, &m->duration_ns);
        else if (strcmp(key, "time_share_upper_bound") == 0 && t == JSONSTREAM_NUMBER)
            used = true, m->share = js->num;
        else if (strcmp(key, "block_invariance") == 0)
            used = string_value(js, t, &m->invariance);
        else if (strcmp(key, "duration_why") == 0)
            used = string_value(js, t, &m->duration_why);
        if (!used && !jsonstream_skip(js, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* The table of what the hardware measured, after the predicted one. */
static void print_measured(FILE *out, const lines_measured *m, const lines_row *rows, int n)
{
    char t[600];
    if (m->null || !m->present) {
        if (m->why)
            fprintf(out, "\nmeasured: none (%s)\n", textsafe(m->why, t, sizeof t));
        return;
    }
    record_measured_header(out, (uint64_t)m->blocks);
    measured_counts total = {0, 0, 0};
    int64_t te = 0;
    for (int i = 0; i < n; i++) {
        record_measured_row(out, rows[i].file, rows[i].line, &rows[i].mc, rows[i].excess, (uint64_t)rows[i].expected,
                            rows[i].agree);
        total.wavefronts += rows[i].mc.wavefronts;
        total.ideal_wavefronts += rows[i].mc.ideal_wavefronts;
        te += rows[i].excess;
    }
    fprintf(out, "%-28s %12llu %12llu %12lld\n", "total", (unsigned long long)total.wavefronts,
            (unsigned long long)total.ideal_wavefronts, (long long)te);
    for (int i = 0; i < n; i++)
        if (rows[i].agree == MEASURED_AGREE_FALSE)
            record_measured_flag(out, rows[i].file, rows[i].line, rows[i].agree_why ? rows[i].agree_why : "");
    if (m->invariance)
        fprintf(out, "block invariance %s\n", textsafe(m->invariance, t, sizeof t));
    uint64_t d = (uint64_t)m->duration_ns;
    record_measured_time(out, m->excess, m->has_duration ? &d : NULL, m->share, (int)m->sms, (int)m->clock_khz,
                         m->duration_why);
}

/* One member of "predicted": the three numbers. */
static bool read_predicted(jsonstream *js, lines_row *r)
{
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if (t == JSONSTREAM_NUMBER && js->is_int) {
            if (strcmp(key, "wavefronts") == 0)
                r->wavefronts = js->ival;
            else if (strcmp(key, "ideal_wavefronts") == 0)
                r->ideal = js->ival;
            else if (strcmp(key, "conflict_degree") == 0)
                r->degree = js->ival;
        } else if (!jsonstream_skip(js, t)) {
            return false;
        }
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* A name and how many times it was met (the kinds a recording did not record or model). */
typedef struct lines_kind {
    char *name, *why;
    int64_t count;
} lines_kind;

/* What the file says besides its lines: how much of the block was captured, the kinds not
 * modelled (the lines' PCs with "not_modelled": executions) and not recorded ("not_visible":
 * SASS instructions), each named by its row of the kinds table (kinds.h). */
typedef struct lines_file {
    int64_t executed, captured;
    bool truncated;
    lines_kind *not_modelled, *not_recorded;
    int nnot_modelled, nnot_recorded;
} lines_file;

/* Count n more of the kind of SASS text sass (its kinds row, or its opcode) in *list. */
static void kind_add(lines_kind **list, int *n, const char *sass, const char *why, int64_t count)
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
    (*list)[(*n)++] = (lines_kind){xstrdup(name),
                                   xstrdup(k && k->not_modelled ? k->not_modelled
                                           : why                ? why
                                                                : ""),
                                   count};
}

/* A line's "pcs" (its '[' read): those not modelled into f. */
static bool read_pcs(jsonstream *js, lines_file *f, lines_row *r)
{
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_OBJECT) {
        char *sass = NULL, *why = NULL;
        int64_t execs = 0;
        while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
            char key[32];
            snprintf(key, sizeof key, "%.31s", js->str);
            t = jsonstream_next(js);
            if (strcmp(key, "sass") == 0 && t == JSONSTREAM_STRING)
                string_value(js, t, &sass);
            else if (strcmp(key, "not_modelled") == 0 && t == JSONSTREAM_STRING)
                string_value(js, t, &why);
            else if (strcmp(key, "executions") == 0 && t == JSONSTREAM_NUMBER && js->is_int)
                execs = js->ival;
            else if (!jsonstream_skip(js, t))
                break;
        }
        if (why && !r->kind[0])
            record_kind_name(sass, r->kind, sizeof r->kind);
        if (why && f)
            kind_add(&f->not_modelled, &f->nnot_modelled, sass, why, execs);
        free(sass);
        free(why);
        if (t != JSONSTREAM_OBJECT_END)
            return false;
    }
    return t == JSONSTREAM_ARRAY_END;
}

/* "not_visible" (its '[' read) into f. */
static bool read_not_visible(jsonstream *js, lines_file *f)
{
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_OBJECT) {
        char *sass = NULL;
        while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
            bool is_sass = strcmp(js->str, "sass") == 0;
            t = jsonstream_next(js);
            if (is_sass && t == JSONSTREAM_STRING)
                string_value(js, t, &sass);
            else if (!jsonstream_skip(js, t))
                break;
        }
        kind_add(&f->not_recorded, &f->nnot_recorded, sass, "its shared-memory side passes no callback", 1);
        free(sass);
        if (t != JSONSTREAM_OBJECT_END)
            return false;
    }
    return t == JSONSTREAM_ARRAY_END;
}

/* One line object (its '{' read); the not-modelled PCs into kinds when not NULL. */
static bool read_row(jsonstream *js, lines_row *r, lines_file *kinds)
{
    memset(r, 0, sizeof *r);
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if ((strcmp(key, "file") == 0 || strcmp(key, "text") == 0) && t == JSONSTREAM_STRING) {
            char **dst = key[0] == 'f' ? &r->file : &r->text;
            free(*dst);
            *dst = xstrdup(js->str);
        } else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && js->is_int) {
            r->line = js->ival;
        } else if (strcmp(key, "not_modelled") == 0 && t == JSONSTREAM_NUMBER && js->is_int) {
            r->unmodelled = js->ival;
        } else if (strcmp(key, "instructions") == 0 && t == JSONSTREAM_ARRAY) {
            int64_t room = 0;
            while ((t = jsonstream_next(js)) == JSONSTREAM_NUMBER && js->is_int && js->ival >= 0) {
                if (r->instrs == room)
                    r->idx = xrealloc(r->idx, (size_t)(room = room ? 2 * room : 16) * sizeof *r->idx);
                r->idx[r->instrs++] = js->ival;
            }
            if (t != JSONSTREAM_ARRAY_END)
                return false;
        } else if (strcmp(key, "pcs") == 0 && t == JSONSTREAM_ARRAY) {
            if (!read_pcs(js, kinds, r))
                return false;
        } else if (strcmp(key, "predicted") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_predicted(js, r))
                return false;
        } else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_line_measured(js, r))
                return false;
        } else if (strcmp(key, "agree") == 0 && (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE)) {
            r->agree = t == JSONSTREAM_TRUE ? MEASURED_AGREE_TRUE : MEASURED_AGREE_FALSE;
        } else if (strcmp(key, "agree_why") == 0 && t == JSONSTREAM_STRING) {
            string_value(js, t, &r->agree_why);
        } else if (!jsonstream_skip(js, t)) {
            return false;
        }
    }
    return t == JSONSTREAM_OBJECT_END;
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

/* Each line's prediction again, from its trace entries, with prof (the architecture analyze
 * used, which may not be the one the file was written with): the same engine call as the
 * analysis' total (report.c), so the lines still add up to it. Not-modelled entries add to no
 * sum. A trace that cannot be read leaves the file's numbers. */
static void lines_predict(const char *path, const banks_profile *prof, lines_row *rows, int n)
{
    int64_t ntrace = 0;
    for (int i = 0; i < n; i++)
        for (int64_t k = 0; k < rows[i].instrs; k++)
            if (rows[i].idx[k] >= ntrace)
                ntrace = rows[i].idx[k] + 1;
    int *row_of = xmalloc((size_t)(ntrace ? ntrace : 1) * sizeof *row_of);
    for (int64_t k = 0; k < ntrace; k++)
        row_of[k] = -1;
    for (int i = 0; i < n; i++)
        for (int64_t k = 0; k < rows[i].instrs; k++)
            row_of[rows[i].idx[k]] = i;
    trace_stream *ts = NULL;
    io_error err;
    if (trace_stream_open(path, NULL, 0, path, prof->name, &ts, &err) == TRACE_STREAM_OK) {
        int64_t *sum = xcalloc((size_t)(4 * (n ? n : 1)), sizeof *sum);
        banks_request r;
        int64_t i = 0;
        int got;
        while ((got = trace_stream_next(ts, &r, &err)) == 1) {
            int row = i < ntrace ? row_of[i] : -1;
            i++;
            banks_result res;
            if (row < 0)
                continue;
            banks_analyze(prof, &r, &res, NULL);
            if (res.not_modelled) { /* a kind the model does not cover, named by its SASS (cp.async.cg) */
                sum[4 * row + 3]++;
                if (!rows[row].kind[0])
                    snprintf(rows[row].kind, sizeof rows[row].kind, "%s", kinds_of(r.op)->name);
                continue;
            }
            sum[4 * row] += res.wavefronts;
            sum[4 * row + 1] += res.ideal_wavefronts;
            if (res.conflict_degree > sum[4 * row + 2])
                sum[4 * row + 2] = res.conflict_degree;
        }
        for (int k = 0; got == 0 && k < n; k++) { /* the whole trace read: the new numbers */
            rows[k].wavefronts = sum[4 * k];
            rows[k].ideal = sum[4 * k + 1];
            rows[k].degree = sum[4 * k + 2];
            if (sum[4 * k + 3] > rows[k].unmodelled) /* a file written before the kind was named */
                rows[k].unmodelled = sum[4 * k + 3];
        }
        free(sum);
    }
    if (ts)
        trace_stream_close(ts);
    free(row_of);
}

/* The recording's lines and launch-level measured members; false when path is not a recording
 * (then nothing is allocated). The rows' file, text and agree_why are owned (lines_free). */
static bool lines_read(const char *path, const banks_profile *prof, lines_row **rows_out, int *nrows_out,
                       lines_measured *lm, lines_file *lf)
{
    memset(lf, 0, sizeof *lf);
    memset(lm, 0, sizeof *lm);
    lm->share = -1;
    *rows_out = NULL;
    *nrows_out = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    jsonstream js;
    jsonstream_open_file(&js, f);
    jsonstream_max_string(&js, 1u << 20); /* a recording's names are kept whole (trace_stream.c) */
    bool is_record = false;
    lines_row *rows = NULL;
    int nrows = 0, cap = 0;
    if (jsonstream_next(&js) == JSONSTREAM_OBJECT) {
        jsonstream_token t;
        while ((t = jsonstream_next(&js)) == JSONSTREAM_KEY) {
            bool fmt = strcmp(js.str, "format") == 0, lines = strcmp(js.str, "lines") == 0;
            bool measured = strcmp(js.str, "measured") == 0, measured_why = strcmp(js.str, "measured_why") == 0;
            bool trace = strcmp(js.str, "trace") == 0, not_visible = strcmp(js.str, "not_visible") == 0;
            int64_t *count = strcmp(js.str, "executed") == 0   ? &lf->executed
                             : strcmp(js.str, "captured") == 0 ? &lf->captured
                                                               : NULL;
            bool truncated = strcmp(js.str, "truncated") == 0;
            if (trace && is_record && rows)
                break; /* the lines and what they need come before the trace */
            t = jsonstream_next(&js);
            if (fmt) {
                is_record = t == JSONSTREAM_STRING && strcmp(js.str, "bankscope-record/1") == 0;
                if (!is_record)
                    break;
            } else if (measured && is_record && (t == JSONSTREAM_OBJECT || t == JSONSTREAM_NULL)) {
                lm->null = t == JSONSTREAM_NULL;
                if (t == JSONSTREAM_OBJECT && !read_top_measured(&js, lm))
                    break;
            } else if (count && is_record && t == JSONSTREAM_NUMBER && js.is_int) {
                *count = js.ival;
            } else if (truncated && is_record && (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE)) {
                lf->truncated = t == JSONSTREAM_TRUE;
            } else if (not_visible && is_record && t == JSONSTREAM_ARRAY) {
                if (!read_not_visible(&js, lf))
                    break;
            } else if (measured_why && is_record && t == JSONSTREAM_STRING) {
                string_value(&js, t, &lm->why);
            } else if (lines && is_record && t == JSONSTREAM_ARRAY) {
                lines_row r;
                while ((t = jsonstream_next(&js)) == JSONSTREAM_OBJECT) {
                    bool ok = read_row(&js, &r, lf);
                    if (!ok) {
                        free(r.file);
                        free(r.text);
                        free(r.agree_why);
                        free(r.idx);
                        break;
                    }
                    if (nrows == cap)
                        rows = xrealloc(rows, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *rows);
                    rows[nrows++] = r;
                }
                if (t != JSONSTREAM_ARRAY_END)
                    break;
            } else if (!jsonstream_skip_fast(&js, t)) {
                break;
            }
        }
    }
    jsonstream_close(&js);
    fclose(f);
    *rows_out = rows;
    *nrows_out = nrows;
    if (is_record && prof)
        lines_predict(path, prof, rows, nrows);
    return is_record;
}

/* Frees what lines_read returned. */
static void lines_free(lines_row *rows, int n, lines_measured *lm, lines_file *lf)
{
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
        free(rows[i].agree_why);
    }
    free(rows);
    free(lm->invariance);
    free(lm->why);
    free(lm->duration_why);
}

/* "10 of 64 warp-instructions captured (truncated)" into buf, or NULL when all were. */
static const char *truncation(const lines_file *lf, char *buf, size_t n)
{
    if (!lf->truncated && !(lf->executed > lf->captured))
        return NULL;
    snprintf(buf, n, "%lld of %lld warp-instructions captured (truncated)", (long long)lf->captured,
             (long long)lf->executed);
    return buf;
}

/* The kinds of a list, one line each: "PREFIX: N x KIND (UNIT): why". */
static void print_kinds(FILE *out, const char *prefix, const char *unit, const lines_kind *k, int n)
{
    char t[256], u[400];
    for (int i = 0; i < n; i++)
        fprintf(out, "%s: %lld x %s (%s): %s\n", prefix, (long long)k[i].count, textsafe(k[i].name, t, sizeof t), unit,
                textsafe(k[i].why, u, sizeof u));
}

void record_lines_report(const char *path, const banks_profile *prof, FILE *out)
{
    lines_row *rows;
    int n;
    lines_measured lm;
    lines_file lf;
    char tr[128];
    if (!lines_read(path, prof, &rows, &n, &lm, &lf)) {
        lines_free(rows, n, &lm, &lf);
        return;
    }
    if (truncation(&lf, tr, sizeof tr)) /* right under the verdict, which covers only these */
        fprintf(out,
                "\nTRUNCATED: %s: the totals and the verdict above cover only those; record again with a "
                "larger --max-instructions\n",
                tr);
    if (lf.nnot_modelled || lf.nnot_recorded)
        fputc('\n', out);
    print_kinds(out, "not modelled", "executions, in no sum", lf.not_modelled, lf.nnot_modelled);
    print_kinds(out, "not recorded", "SASS instructions of the kernel", lf.not_recorded, lf.nnot_recorded);
    if (n == 0) {
        lines_free(rows, n, &lm, &lf);
        return;
    }
    int64_t tn = 0, tw = 0, ti = 0;
    fprintf(out, "\nper source line (the recorded block; its lines partition the trace):\n");
    record_row_header(out);
    for (int i = 0; i < n; i++) {
        const lines_row *r = &rows[i];
        record_row_print(out, r->file, r->line, r->text, r->instrs, r->wavefronts, r->ideal, r->degree, r->unmodelled,
                         r->kind);
        tn += r->instrs;
        tw += r->wavefronts;
        ti += r->ideal;
    }
    fprintf(out, "%-28s %8lld %10lld %10lld\n", "total", (long long)tn, (long long)tw, (long long)ti);
    print_measured(out, &lm, rows, n);
    lines_free(rows, n, &lm, &lf);
}

void record_lines_json(jsonw *w, void *ctx)
{
    const record_lines_ctx *c = ctx;
    lines_row *rows;
    int n;
    lines_measured lm;
    lines_file lf;
    char tr[128];
    if (!lines_read(c->path, c->arch, &rows, &n, &lm, &lf)) {
        lines_free(rows, n, &lm, &lf);
        return;
    }
    JSONW_KEY(w, "capture");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "executed", lf.executed);
    JSONW_KV_INT(w, "captured", lf.captured);
    JSONW_KV_BOOL(w, "truncated", truncation(&lf, tr, sizeof tr) != NULL);
    JSONW_KV_STRING(w, "warning", truncation(&lf, tr, sizeof tr));
    jsonw_end_object(w);
    const char *keys[2] = {"not_modelled_kinds", "not_recorded_kinds"};
    const lines_kind *lists[2] = {lf.not_modelled, lf.not_recorded};
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
        const lines_row *r = &rows[i];
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
        if (r->measured) {
            record_measured_json_counts(w, &r->mc, r->excess, (uint64_t)r->expected, r->agree, r->agree_why);
        } else {
            JSONW_KV_NULL(w, "measured");
            JSONW_KV_NULL(w, "agree");
            JSONW_KV_STRING(w, "agree_why", r->agree_why);
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    JSONW_KEY(w, "measured");
    if (lm.present && !lm.null) {
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "blocks", lm.blocks);
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
    lines_free(rows, n, &lm, &lf);
}
