/* record_lines: the per-source-line table `analyze` adds for a recording (bankscope record): read
 * from the file's "lines" with the streaming tokenizer (the trace beside them is skipped), so a
 * recording of any size costs a few kilobytes here. Its total is the analysis' total: the lines
 * partition the trace and each line's numbers come from the same engine. */
#include <stdlib.h>
#include <string.h>

#include "cli/record_measured.h"
#include "cli/record_write.h"
#include "io/jsonstream.h"
#include "io/textsafe.h"
#include "util.h"

typedef struct lines_row {
    char *file, *text;
    int64_t line, instrs, wavefronts, ideal, degree, unmodelled;
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

/* One line object (its '{' read). */
static bool read_row(jsonstream *js, lines_row *r)
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
            while ((t = jsonstream_next(js)) == JSONSTREAM_NUMBER)
                r->instrs++;
            if (t != JSONSTREAM_ARRAY_END)
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

void record_row_print(FILE *out, const char *file, int64_t line, const char *text, int64_t instrs, int64_t wavefronts,
                      int64_t ideal, int64_t degree, int64_t unmodelled)
{
    char where[80], deg[24], t[256];
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(where, sizeof where, "%.50s:%lld", textsafe(base ? base + 1 : file, t, sizeof t), (long long)line);
    } else {
        snprintf(where, sizeof where, "(no line info)");
    }
    snprintf(deg, sizeof deg, degree > 1 ? "%lld-way" : instrs ? "none" : "-", (long long)degree);
    const char *txt = text ? text + strspn(text, " \t") : "";
    fprintf(out, "%-28s %8lld %10lld %10lld %7s  %.70s\n", where, (long long)instrs, (long long)wavefronts,
            (long long)ideal, deg, textsafe(txt, t, sizeof t));
    if (unmodelled)
        fprintf(out, "%-28s %8lld not modelled\n", "", (long long)unmodelled);
}

void record_row_header(FILE *out)
{
    fprintf(out, "%-28s %8s %10s %10s %7s  %s\n", "line", "instrs", "wavefronts", "ideal", "worst", "source");
}

/* The recording's lines and launch-level measured members; false when path is not a recording
 * (then nothing is allocated). The rows' file, text and agree_why are owned (lines_free). */
static bool lines_read(const char *path, lines_row **rows_out, int *nrows_out, lines_measured *lm)
{
    memset(lm, 0, sizeof *lm);
    lm->share = -1;
    *rows_out = NULL;
    *nrows_out = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    jsonstream js;
    jsonstream_open_file(&js, f);
    bool is_record = false;
    lines_row *rows = NULL;
    int nrows = 0, cap = 0;
    if (jsonstream_next(&js) == JSONSTREAM_OBJECT) {
        jsonstream_token t;
        while ((t = jsonstream_next(&js)) == JSONSTREAM_KEY) {
            bool fmt = strcmp(js.str, "format") == 0, lines = strcmp(js.str, "lines") == 0;
            bool measured = strcmp(js.str, "measured") == 0, measured_why = strcmp(js.str, "measured_why") == 0;
            t = jsonstream_next(&js);
            if (fmt) {
                is_record = t == JSONSTREAM_STRING && strcmp(js.str, "bankscope-record/1") == 0;
                if (!is_record)
                    break;
            } else if (measured && is_record && (t == JSONSTREAM_OBJECT || t == JSONSTREAM_NULL)) {
                lm->null = t == JSONSTREAM_NULL;
                if (t == JSONSTREAM_OBJECT && !read_top_measured(&js, lm))
                    break;
            } else if (measured_why && is_record && t == JSONSTREAM_STRING) {
                string_value(&js, t, &lm->why);
            } else if (lines && is_record && t == JSONSTREAM_ARRAY) {
                lines_row r;
                while ((t = jsonstream_next(&js)) == JSONSTREAM_OBJECT) {
                    bool ok = read_row(&js, &r);
                    if (!ok) {
                        free(r.file);
                        free(r.text);
                        free(r.agree_why);
                        break;
                    }
                    if (nrows == cap)
                        rows = xrealloc(rows, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *rows);
                    rows[nrows++] = r;
                }
                break; /* the lines come before the trace: nothing more to read */
            } else if (!jsonstream_skip_fast(&js, t)) {
                break;
            }
        }
    }
    jsonstream_close(&js);
    fclose(f);
    *rows_out = rows;
    *nrows_out = nrows;
    return is_record;
}

/* Frees what lines_read returned. */
static void lines_free(lines_row *rows, int n, lines_measured *lm)
{
    for (int i = 0; i < n; i++) {
        free(rows[i].file);
        free(rows[i].text);
        free(rows[i].agree_why);
    }
    free(rows);
    free(lm->invariance);
    free(lm->why);
    free(lm->duration_why);
}

void record_lines_report(const char *path, FILE *out)
{
    lines_row *rows;
    int n;
    lines_measured lm;
    if (!lines_read(path, &rows, &n, &lm) || n == 0) {
        lines_free(rows, n, &lm);
        return;
    }
    int64_t tn = 0, tw = 0, ti = 0;
    fprintf(out, "\nper source line (the recorded block; its lines partition the trace):\n");
    record_row_header(out);
    for (int i = 0; i < n; i++) {
        const lines_row *r = &rows[i];
        record_row_print(out, r->file, r->line, r->text, r->instrs, r->wavefronts, r->ideal, r->degree, r->unmodelled);
        tn += r->instrs;
        tw += r->wavefronts;
        ti += r->ideal;
    }
    fprintf(out, "%-28s %8lld %10lld %10lld\n", "total", (long long)tn, (long long)tw, (long long)ti);
    print_measured(out, &lm, rows, n);
    lines_free(rows, n, &lm);
}

void record_lines_json(jsonw *w, void *path)
{
    lines_row *rows;
    int n;
    lines_measured lm;
    if (!lines_read(path, &rows, &n, &lm)) {
        lines_free(rows, n, &lm);
        return;
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
            JSONW_KEY(w, "measured");
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_INT(w, "wavefronts", (int64_t)r->mc.wavefronts);
            JSONW_KV_INT(w, "ideal_wavefronts", (int64_t)r->mc.ideal_wavefronts);
            JSONW_KV_INT(w, "instructions", (int64_t)r->mc.instructions);
            JSONW_KV_INT(w, "excess", r->excess);
            JSONW_KV_INT(w, "predicted_launch", r->expected);
            jsonw_end_object(w);
        } else {
            JSONW_KV_NULL(w, "measured");
        }
        JSONW_KEY(w, "agree");
        if (r->measured && r->agree != MEASURED_AGREE_NULL)
            jsonw_bool(w, r->agree == MEASURED_AGREE_TRUE);
        else
            jsonw_null(w);
        JSONW_KV_STRING(w, "agree_why", r->agree_why);
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
    lines_free(rows, n, &lm);
}
