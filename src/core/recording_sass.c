/* recording_sass: a recording's SASS page, one row per instruction (PC): its SASS text, the kernel's
 * line it is on and its inline chain, the warp-instructions of the recorded block that executed
 * it, their prediction (every trace entry at that PC, predicted again with the architecture
 * analyze uses, so the rows' sums are analyze's total), and what the count run measured at that
 * PC over the whole launch. Instructions that are not predicted say which kind they are; the
 * wgmma operand reads and TMA copies that call no patch are rows of their own, "measured only".
 * The rows partition the recording: every trace entry is on the row of its PC. */
#include <stdlib.h>
#include <string.h>

#include "core/recording_measured.h"
#include "core/recording_sass.h"
#include "core/recording_book.h"
#include "io/jsonstream.h"
#include "io/jsonw.h"
#include "io/report.h"
#include "io/textsafe.h"
#include "io/trace_stream.h"
#include "model/kinds.h"
#include "util.h"

typedef struct sass_site {
    char *file, *text;
    int64_t line;
} sass_site;

typedef struct sass_row {
    int64_t pc;
    char *sass;
    char *file; /* NULL: no line info */
    int64_t line;
    sass_site *chain; /* innermost first; nchain > 1 only for inlined code */
    int nchain;
    int64_t executions; /* the file's: warp-instructions of the recorded block */
    bool measured_only;
    char *not_modelled; /* the file's reason, or NULL */
    bool has_measured;
    measured_counts m;
    /* predicted again from the trace */
    int64_t traced, wavefronts, ideal, degree, unmodelled;
    char kind[32];
} sass_row;

typedef struct sass_page {
    sass_row *rows;
    int n, room;
} sass_page;

static void page_free(sass_page *p)
{
    for (int i = 0; i < p->n; i++) {
        sass_row *r = &p->rows[i];
        free(r->sass);
        free(r->file);
        free(r->not_modelled);
        for (int k = 0; k < r->nchain; k++) {
            free(r->chain[k].file);
            free(r->chain[k].text);
        }
        free(r->chain);
    }
    free(p->rows);
    memset(p, 0, sizeof *p);
}

/* A string member's value (or NULL for null) into *dst. */
static void take_string(const jsonstream *js, jsonstream_token t, char **dst)
{
    free(*dst);
    *dst = t == JSONSTREAM_STRING ? xstrdup(js->str) : NULL;
}

/* "measured": {...} (its '{' read) into r. */
static bool read_measured(jsonstream *js, sass_row *r)
{
    jsonstream_token t;
    r->has_measured = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        uint64_t v = t == JSONSTREAM_NUMBER && js->is_int && js->ival >= 0 ? (uint64_t)js->ival : 0;
        if (strcmp(key, "wavefronts") == 0)
            r->m.wavefronts = v;
        else if (strcmp(key, "ideal_wavefronts") == 0)
            r->m.ideal_wavefronts = v;
        else if (strcmp(key, "instructions") == 0)
            r->m.instructions = v;
        else if (!jsonstream_skip(js, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* "chain": [{"file", "line", "text"}] (its '[' read) into r. */
static bool read_chain(jsonstream *js, sass_row *r)
{
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_OBJECT) {
        r->chain = xrealloc(r->chain, (size_t)(r->nchain + 1) * sizeof *r->chain);
        sass_site *s = &r->chain[r->nchain++];
        memset(s, 0, sizeof *s);
        while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
            char key[8];
            snprintf(key, sizeof key, "%.7s", js->str);
            t = jsonstream_next(js);
            if (strcmp(key, "file") == 0 || strcmp(key, "text") == 0)
                take_string(js, t, key[0] == 'f' ? &s->file : &s->text);
            else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && js->is_int)
                s->line = js->ival;
            else if (!jsonstream_skip(js, t))
                return false;
        }
        if (t != JSONSTREAM_OBJECT_END)
            return false;
    }
    return t == JSONSTREAM_ARRAY_END;
}

/* One PC object of a line (its '{' read), on the line (file, line), appended to p. */
static bool read_pc(jsonstream *js, sass_page *p, const char *file, int64_t line)
{
    if (p->n == p->room)
        p->rows = xrealloc(p->rows, (size_t)(p->room = p->room ? 2 * p->room : 64) * sizeof *p->rows);
    sass_row *r = &p->rows[p->n++];
    memset(r, 0, sizeof *r);
    r->pc = -1;
    r->file = file ? xstrdup(file) : NULL;
    r->line = line;
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[16];
        snprintf(key, sizeof key, "%.15s", js->str);
        t = jsonstream_next(js);
        if (strcmp(key, "pc") == 0 && t == JSONSTREAM_NUMBER && js->is_int)
            r->pc = js->ival;
        else if (strcmp(key, "sass") == 0)
            take_string(js, t, &r->sass);
        else if (strcmp(key, "executions") == 0 && t == JSONSTREAM_NUMBER && js->is_int)
            r->executions = js->ival;
        else if (strcmp(key, "not_modelled") == 0)
            take_string(js, t, &r->not_modelled);
        else if (strcmp(key, "measured_only") == 0)
            r->measured_only = t == JSONSTREAM_TRUE;
        else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_measured(js, r))
                return false;
        } else if (strcmp(key, "chain") == 0 && t == JSONSTREAM_ARRAY) {
            if (!read_chain(js, r))
                return false;
        } else if (!jsonstream_skip(js, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* One line object (its '{' read): its file and line, then its PCs. The members come in the
 * order record writes them (file, line, text, pcs). */
static bool read_line(jsonstream *js, sass_page *p)
{
    char *file = NULL;
    int64_t line = 0;
    jsonstream_token t;
    bool ok = true;
    while (ok && (t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[16];
        snprintf(key, sizeof key, "%.15s", js->str);
        t = jsonstream_next(js);
        if (strcmp(key, "file") == 0)
            take_string(js, t, &file);
        else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && js->is_int)
            line = js->ival;
        else if (strcmp(key, "pcs") == 0 && t == JSONSTREAM_ARRAY) {
            while (ok && (t = jsonstream_next(js)) == JSONSTREAM_OBJECT)
                ok = read_pc(js, p, file, line);
            ok = ok && t == JSONSTREAM_ARRAY_END;
        } else
            ok = jsonstream_skip(js, t);
    }
    free(file);
    return ok && t == JSONSTREAM_OBJECT_END;
}

/* The recording's "lines" into p; false when the file is not a recording or cannot be read. */
static bool read_page(const char *path, sass_page *p)
{
    memset(p, 0, sizeof *p);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    jsonstream js;
    jsonstream_open_file(&js, f);
    jsonstream_max_string(&js, 1u << 20); /* a recording's names are kept whole */
    bool ok = jsonstream_next(&js) == JSONSTREAM_OBJECT, is_record = false, have = false;
    jsonstream_token t;
    while (ok && (t = jsonstream_next(&js)) == JSONSTREAM_KEY) {
        bool lines = strcmp(js.str, "lines") == 0, format = strcmp(js.str, "format") == 0;
        t = jsonstream_next(&js);
        if (format)
            is_record = t == JSONSTREAM_STRING && strcmp(js.str, "bankscope-record/1") == 0;
        else if (lines && t == JSONSTREAM_ARRAY) {
            while (ok && (t = jsonstream_next(&js)) == JSONSTREAM_OBJECT)
                ok = read_line(&js, p);
            ok = ok && t == JSONSTREAM_ARRAY_END;
            have = true;
        } else
            ok = jsonstream_skip(&js, t);
    }
    jsonstream_close(&js);
    fclose(f);
    if (!ok || !is_record || !have) {
        page_free(p);
        return false;
    }
    return true;
}

static int row_cmp(const void *x, const void *y)
{
    const sass_row *a = x, *b = y;
    return (a->pc > b->pc) - (a->pc < b->pc);
}

/* The row of pc (rows sorted by pc), or NULL. */
static sass_row *row_of(sass_page *p, int64_t pc)
{
    int lo = 0, hi = p->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (p->rows[mid].pc == pc)
            return &p->rows[mid];
        if (p->rows[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

/* Every trace entry predicted with prof onto its PC's row; false when the trace cannot be read
 * or an entry's PC is on no row (then the rows would not partition the recording). */
static bool predict(const char *path, const banks_profile *prof, sass_page *p)
{
    qsort(p->rows, (size_t)p->n, sizeof *p->rows, row_cmp);
    trace_stream *ts = NULL;
    io_error err;
    if (trace_stream_open(path, NULL, 0, path, prof->name, &ts, &err) != TRACE_STREAM_OK)
        return false;
    banks_request r;
    int got;
    bool ok = true;
    while (ok && (got = trace_stream_next(ts, &r, &err)) == 1) {
        sass_row *row = row_of(p, trace_stream_pc(ts));
        if (!row) {
            ok = false;
            break;
        }
        row->traced++;
        banks_result res;
        banks_analyze(prof, &r, &res, NULL);
        if (res.not_modelled) {
            row->unmodelled++;
            snprintf(row->kind, sizeof row->kind, "%s", kinds_of(r.op)->name);
            continue;
        }
        row->wavefronts += res.wavefronts;
        row->ideal += res.ideal_wavefronts;
        if (res.conflict_degree > row->degree)
            row->degree = res.conflict_degree;
    }
    trace_stream_close(ts);
    for (int i = 0; ok && i < p->n; i++) { /* the kinds of what the trace does not hold */
        sass_row *row = &p->rows[i];
        if (!row->kind[0] && (row->not_modelled || row->measured_only))
            record_kind_name(row->sass, row->kind, sizeof row->kind);
    }
    return ok && got == 0;
}

/* Whether the row has a prediction (some entry of a modelled kind). */
static bool predicted(const sass_row *r)
{
    return r->traced > r->unmodelled;
}

/* "file:line" of a site, the file's base name. */
static const char *site_text(const char *file, int64_t line, char *buf, size_t n)
{
    const char *base = file ? strrchr(file, '/') : NULL;
    snprintf(buf, n, "%s:%lld", base ? base + 1 : file ? file : "?", (long long)line);
    return buf;
}

void record_sass_report(const char *path, const banks_profile *arch, FILE *out)
{
    sass_page p;
    if (!read_page(path, &p))
        return;
    if (!predict(path, arch, &p)) {
        fprintf(out,
                "\nSASS: the trace does not match the recording's instructions (an entry at a PC no line holds)\n");
        page_free(&p);
        return;
    }
    fprintf(out, "\nper SASS instruction (the recorded block predicted with %s; measured: the whole launch):\n",
            arch->name);
    fprintf(out, "%-8s %6s %10s %8s %13s %10s %10s %8s  %-24s %s\n", "pc", "execs", "wavefronts", "ideal", "worst",
            "measured", "m.ideal", "m.instrs", "line", "sass");
    int64_t tw = 0, ti = 0, tx = 0;
    uint64_t mw = 0, mi = 0, mx = 0;
    bool any_measured = false;
    for (int i = 0; i < p.n; i++) {
        const sass_row *r = &p.rows[i];
        char pc[16], where[64], deg[32], m1[24] = "-", m2[24] = "-", m3[24] = "-", w[24] = "-", id[24] = "-", t[512];
        snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)r->pc);
        if (r->file)
            site_text(r->file, r->line, where, sizeof where);
        else
            snprintf(where, sizeof where, "(no line info)");
        if (predicted(r)) {
            snprintf(w, sizeof w, "%lld", (long long)r->wavefronts);
            snprintf(id, sizeof id, "%lld", (long long)r->ideal);
            report_degree_text((int)r->degree, deg, sizeof deg);
        } else
            snprintf(deg, sizeof deg, "%s", r->measured_only ? "measured only" : "not modelled");
        if (r->has_measured) {
            snprintf(m1, sizeof m1, "%llu", (unsigned long long)r->m.wavefronts);
            snprintf(m2, sizeof m2, "%llu", (unsigned long long)r->m.ideal_wavefronts);
            snprintf(m3, sizeof m3, "%llu", (unsigned long long)r->m.instructions);
            mw += r->m.wavefronts;
            mi += r->m.ideal_wavefronts;
            mx += r->m.instructions;
            any_measured = true;
        }
        fprintf(out, "%-8s %6lld %10s %8s %13s %10s %10s %8s  %-24s %s\n", pc, (long long)r->executions, w, id, deg, m1,
                m2, m3, where, textsafe(r->sass ? r->sass : "?", t, sizeof t));
        if (!predicted(r) && r->kind[0])
            fprintf(out, "%-8s %s: %s\n", "", r->measured_only ? "measured only" : "not modelled", r->kind);
        if (r->nchain > 1) { /* the inline chain, innermost first */
            strbuf sb = {0};
            for (int k = 0; k < r->nchain; k++) {
                char s[64];
                strbuf_addf(&sb, "%s%s", k ? " <- " : "", site_text(r->chain[k].file, r->chain[k].line, s, sizeof s));
            }
            fprintf(out, "%-8s inlined: %s\n", "", textsafe(strbuf_str(&sb), t, sizeof t));
            strbuf_free(&sb);
        }
        tw += r->wavefronts;
        ti += r->ideal;
        tx += r->executions;
    }
    char m1[24] = "-", m2[24] = "-", m3[24] = "-";
    if (any_measured) {
        snprintf(m1, sizeof m1, "%llu", (unsigned long long)mw);
        snprintf(m2, sizeof m2, "%llu", (unsigned long long)mi);
        snprintf(m3, sizeof m3, "%llu", (unsigned long long)mx);
    }
    fprintf(out, "%-8s %6lld %10lld %8lld %13s %10s %10s %8s\n", "total", (long long)tx, (long long)tw, (long long)ti,
            "", m1, m2, m3);
    if (!any_measured)
        fprintf(out, "(no measured numbers per instruction: a recording written before they were kept, or nothing was "
                     "measured)\n");
    page_free(&p);
}

void record_sass_json(jsonw *w, void *ctx)
{
    const record_lines_ctx *c = ctx;
    sass_page p;
    if (!read_page(c->path, &p))
        return;
    if (!predict(c->path, c->arch, &p)) {
        page_free(&p);
        return;
    }
    JSONW_KEY(w, "sass");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < p.n; i++) {
        const sass_row *r = &p.rows[i];
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "pc", r->pc);
        JSONW_KV_STRING(w, "sass", r->sass);
        JSONW_KV_STRING(w, "file", r->file);
        if (r->file)
            JSONW_KV_INT(w, "line", r->line);
        else
            JSONW_KV_NULL(w, "line");
        JSONW_KEY(w, "chain");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int k = 0; k < r->nchain; k++) {
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_STRING(w, "file", r->chain[k].file);
            JSONW_KV_INT(w, "line", r->chain[k].line);
            JSONW_KV_STRING(w, "text", r->chain[k].text);
            jsonw_end_object(w);
        }
        jsonw_end_array(w);
        JSONW_KV_INT(w, "executions", r->executions);
        if (predicted(r)) {
            JSONW_KEY(w, "predicted");
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_INT(w, "wavefronts", r->wavefronts);
            JSONW_KV_INT(w, "ideal_wavefronts", r->ideal);
            JSONW_KV_INT(w, "conflict_degree", r->degree);
            jsonw_end_object(w);
        } else
            JSONW_KV_NULL(w, "predicted");
        if (r->has_measured) {
            JSONW_KEY(w, "measured");
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_INT(w, "wavefronts", (int64_t)r->m.wavefronts);
            JSONW_KV_INT(w, "ideal_wavefronts", (int64_t)r->m.ideal_wavefronts);
            JSONW_KV_INT(w, "instructions", (int64_t)r->m.instructions);
            jsonw_end_object(w);
        } else
            JSONW_KV_NULL(w, "measured");
        JSONW_KV_BOOL(w, "measured_only", r->measured_only);
        if (!predicted(r) && r->kind[0])
            JSONW_KV_STRING(w, "kind", r->kind);
        else
            JSONW_KV_NULL(w, "kind");
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    page_free(&p);
}
