/* recording_measured: reading the count and time passes' files, joining them to a recording's lines
 * (model/measured.c decides agreement), and their JSON and text. */
#include <stdlib.h>
#include <string.h>

#include "core/recording_measured.h"
#include "io/textsafe.h"
#include "model/kinds.h"
#include "util.h"

/* What the count pass reports (the CUPTI SASS metric names; units: wavefronts, warp-instructions). */
static const char measured_source[] =
    "CUPTI SASS metrics over the whole launch, in a run of its own: smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared, "
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal, smsp__sass_inst_executed";

/* Whether a SASS text fills shared memory asynchronously (its kind's row says: cp.async, TMA
 * loads). */
static bool is_async_fill(const char *sass)
{
    const kinds_row *k = kinds_find_sass_line(sass);
    return k && k->fills_async;
}

/* The line of book s with the same file and line as l, or NULL. */
static const record_line *same_line(const record_book *s, const record_line *l)
{
    for (int i = 0; i < s->nlines; i++) {
        const record_line *o = &s->lines[i];
        if (o->line == l->line && ((!o->file && !l->file) || (o->file && l->file && strcmp(o->file, l->file) == 0)))
            return o;
    }
    return NULL;
}

/* Whether pc is one of the book's recorded instructions. */
static bool book_has_pc(const record_book *b, uint32_t pc)
{
    for (int k = 0; k < b->npcs; k++)
        if (b->pcs[k].pc == pc)
            return true;
    return false;
}

/* Fills the per-line inputs of the join from the books. */
static void fill_lines(record_measured *m, const record_book *b, const record_book *second)
{
    m->nlines = b->nlines;
    m->lines = xcalloc((size_t)(b->nlines ? b->nlines : 1), sizeof *m->lines);
    m->pcs = xcalloc((size_t)(b->npcs ? b->npcs : 1), sizeof *m->pcs);
    size_t at = 0;
    m->invariant = second != NULL;
    for (int i = 0; i < b->nlines; i++) {
        const record_line *l = &b->lines[i];
        measured_line *ml = &m->lines[i];
        ml->pcs = m->pcs + at;
        for (int k = 0; k < b->npcs; k++)
            if (b->pcs[k].line == i) {
                m->pcs[at++] = (uint32_t)b->pcs[k].pc;
                if (b->pcs[k].measured_only) /* wgmma, TMA: measured, never predicted */
                    ml->unmodelled = true;
            }
        ml->npcs = (size_t)(m->pcs + at - ml->pcs);
        ml->predicted_wavefronts = (uint64_t)l->wavefronts;
        ml->predicted_ideal = (uint64_t)l->ideal_wavefronts;
        ml->unmodelled |= l->unmodelled > 0;
        if (second) {
            const record_line *o = same_line(second, l);
            ml->has_second = true;
            ml->second_wavefronts = o ? (uint64_t)o->wavefronts : 0;
            ml->second_ideal = o ? (uint64_t)o->ideal_wavefronts : 0;
            if (ml->second_wavefronts != ml->predicted_wavefronts || ml->second_ideal != ml->predicted_ideal)
                m->invariant = false;
        }
    }
    for (int i = 0; second && i < second->nlines; i++)
        if (!same_line(b, &second->lines[i]))
            m->invariant = false; /* the second block runs a line the first does not */
    for (int k = 0; k < b->sass->n; k++)
        if (is_async_fill(b->sass->lines[k].text))
            m->async_fill = true;
}

/* The shared instructions with wavefronts that no recorded line holds, and the launch's excess. */
static void whole_launch(record_measured *m, const record_book *b)
{
    m->unrecorded = xcalloc(m->count.npcs ? m->count.npcs : 1, sizeof *m->unrecorded);
    for (size_t i = 0; i < m->count.npcs; i++) {
        const measured_pc *p = &m->count.pcs[i];
        if (!p->shared)
            continue;
        m->excess += (int64_t)p->c.wavefronts - (int64_t)p->c.ideal_wavefronts;
        if (p->c.wavefronts && !book_has_pc(b, p->pc))
            m->unrecorded[m->nunrecorded++] = *p;
    }
}

/* Reads DIR/PASS.txt into f; false with why (the file's own error record counts as a failure). */
static bool read_pass(const char *dir, const char *pass, measured_file *f, char *why, size_t n)
{
    char path[4200];
    io_error err;
    snprintf(path, sizeof path, "%s/%s.txt", dir, pass);
    if (!measured_file_read(path, f, &err)) {
        snprintf(why, n, "the %s run of the program wrote no result (%.400s)", pass, err.text);
        return false;
    }
    if (f->error) {
        snprintf(why, n, "%s", f->error);
        return false;
    }
    return true;
}

void record_measured_none(record_measured *m, const record_book *b, const char *why)
{
    memset(m, 0, sizeof *m);
    m->share = -1;
    const record_capture *c = b->cap;
    m->blocks = (uint64_t)c->grid[0] * c->grid[1] * c->grid[2];
    snprintf(m->why, sizeof m->why, "%s", why);
}

void record_measured_build(record_measured *m, const record_book *b, const record_book *second, const char *dir)
{
    record_measured_none(m, b, "");
    const record_capture *c = b->cap;
    if (second) {
        m->second = true;
        memcpy(m->second_block, second->cap->block, sizeof m->second_block);
    }
    if (!read_pass(dir, "count", &m->count, m->why, sizeof m->why))
        return;
    if (!m->count.kernel || strcmp(m->count.kernel, c->mangled) != 0) {
        snprintf(m->why, sizeof m->why, "the counting run did not launch the recorded kernel");
        return;
    }
    if (m->count.launch != c->launch || memcmp(m->count.grid, c->grid, sizeof c->grid) != 0)
        snprintf(m->launch_note, sizeof m->launch_note,
                 "the counting run's launch %ld has grid (%u,%u,%u); the recording's launch %lld has grid (%u,%u,%u)",
                 m->count.launch, m->count.grid[0], m->count.grid[1], m->count.grid[2], (long long)c->launch,
                 c->grid[0], c->grid[1], c->grid[2]);
    m->have = true;
    fill_lines(m, b, second);
    measured_lines(m->lines, (size_t)m->nlines, m->count.pcs, m->count.npcs, m->blocks, m->async_fill);
    whole_launch(m, b);
    if (read_pass(dir, "time", &m->time, m->time_why, sizeof m->time_why)) {
        if (!m->time.has_duration || !m->time.kernel || strcmp(m->time.kernel, c->mangled) != 0 ||
            m->time.launch != c->launch)
            snprintf(m->time_why, sizeof m->time_why, "the timing run did not time the recorded launch");
        else
            m->have_time = true;
    }
    if (m->have_time)
        m->share = measured_share(m->excess > 0 ? (uint64_t)m->excess : 0, m->count.sms, m->count.clock_khz,
                                  m->time.duration_ns);
}

void record_measured_json_line(jsonw *w, const record_measured *m, int line)
{
    if (!m || !m->have || line < 0 || line >= m->nlines) {
        JSONW_KV_NULL(w, "measured");
        JSONW_KV_NULL(w, "agree");
        JSONW_KV_NULL(w, "agree_why");
        return;
    }
    const measured_line *l = &m->lines[line];
    record_measured_json_counts(w, &l->measured, l->excess, l->expected, l->agree,
                                l->why == MEASURED_WHY_NONE ? NULL : measured_why_text(l->why));
}

void record_measured_json_counts(jsonw *w, const measured_counts *c, int64_t excess, uint64_t expected,
                                 measured_agree agree, const char *why)
{
    JSONW_KEY(w, "measured");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "wavefronts", (int64_t)c->wavefronts);
    JSONW_KV_INT(w, "ideal_wavefronts", (int64_t)c->ideal_wavefronts);
    JSONW_KV_INT(w, "instructions", (int64_t)c->instructions);
    JSONW_KV_INT(w, "excess", excess);
    JSONW_KV_INT(w, "predicted_launch", (int64_t)expected);
    jsonw_end_object(w);
    JSONW_KEY(w, "agree");
    if (agree == MEASURED_AGREE_NULL)
        jsonw_null(w);
    else
        jsonw_bool(w, agree == MEASURED_AGREE_TRUE);
    JSONW_KV_STRING(w, "agree_why", why);
}

/* "established", or why block invariance is not. */
static const char *invariance_text(const record_measured *m)
{
    if (m->blocks == 1)
        return "established: the launch is one block";
    if (!m->second)
        return "not established: one block recorded";
    return m->invariant ? "established: the second block predicts the same on every line"
                        : "not established: the second block predicts differently";
}

void record_measured_json(jsonw *w, const record_measured *m)
{
    if (!m || !m->have) {
        JSONW_KV_NULL(w, "measured");
        JSONW_KV_STRING(w, "measured_why", m ? m->why : "not measured");
        return;
    }
    JSONW_KEY(w, "measured");
    jsonw_begin_object(w, JSONW_LINES);
    JSONW_KV_STRING(w, "source", measured_source);
    JSONW_KV_INT(w, "blocks", (int64_t)m->blocks);
    JSONW_KEY(w, "second_block");
    if (m->second) {
        jsonw_begin_array(w, JSONW_INLINE);
        for (int i = 0; i < 3; i++)
            jsonw_int(w, m->second_block[i]);
        jsonw_end_array(w);
    } else {
        jsonw_null(w);
    }
    JSONW_KV_STRING(w, "block_invariance", invariance_text(m));
    JSONW_KV_INT(w, "excess_wavefronts", m->excess);
    JSONW_KV_INT(w, "sms", m->count.sms);
    JSONW_KV_INT(w, "sm_clock_khz", m->count.clock_khz);
    if (m->have_time) {
        JSONW_KV_INT(w, "duration_ns", (int64_t)m->time.duration_ns);
        JSONW_KV_NULL(w, "duration_why");
    } else {
        JSONW_KV_NULL(w, "duration_ns");
        JSONW_KV_STRING(w, "duration_why", m->time_why);
    }
    JSONW_KEY(w, "time_share_upper_bound");
    if (m->share >= 0)
        jsonw_double(w, m->share);
    else
        jsonw_null(w);
    JSONW_KEY(w, "unrecorded");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < m->nunrecorded; i++) {
        const measured_pc *p = &m->unrecorded[i];
        size_t k;
        for (k = 0; k < m->count.npcs && m->count.pcs[k].pc != p->pc; k++)
            ;
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "pc", p->pc);
        JSONW_KEY(w, "source");
        if (k < m->count.npcs && m->count.files[k]) {
            char where[600];
            snprintf(where, sizeof where, "%s:%u", m->count.files[k], m->count.lines[k]);
            jsonw_string(w, where);
        } else {
            jsonw_null(w);
        }
        JSONW_KV_INT(w, "wavefronts", (int64_t)p->c.wavefronts);
        JSONW_KV_INT(w, "ideal_wavefronts", (int64_t)p->c.ideal_wavefronts);
        JSONW_KV_INT(w, "instructions", (int64_t)p->c.instructions);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    JSONW_KEY(w, "note");
    if (m->launch_note[0])
        jsonw_string(w, m->launch_note);
    else
        jsonw_null(w);
    jsonw_end_object(w);
    JSONW_KV_NULL(w, "measured_why");
}

/* A duration in the unit that keeps 3 significant digits. */
static void format_ns(uint64_t ns, char *buf, size_t n)
{
    if (ns < 10000)
        snprintf(buf, n, "%llu ns", (unsigned long long)ns);
    else if (ns < 10000000)
        snprintf(buf, n, "%.2f us", (double)ns / 1e3);
    else
        snprintf(buf, n, "%.2f ms", (double)ns / 1e6);
}

void record_measured_header(FILE *out, uint64_t blocks)
{
    fprintf(out, "\nmeasured over the whole launch, %llu block%s (CUPTI SASS metrics, a run of its own):\n",
            (unsigned long long)blocks, blocks == 1 ? "" : "s");
    fprintf(out, "%-28s %12s %12s %12s %14s  %s\n", "line", "wavefronts", "ideal", "excess", "predicted x bl", "agree");
}

void record_where(const char *file, int64_t line, char *buf, size_t n)
{
    char t[200], w[260];
    if (!file) {
        snprintf(buf, n, "(no line info)");
        return;
    }
    const char *base = strrchr(file, '/');
    int k = snprintf(w, sizeof w, "%s:%lld", textsafe(base ? base + 1 : file, t, sizeof t), (long long)line);
    const char *keep = w;
    if (k > RECORD_WHERE_WIDTH) { /* "...atomic_functions.hpp:112": the line number stays, said cut */
        keep = w + k - (RECORD_WHERE_WIDTH - 3);
        while (((unsigned char)*keep & 0xC0) == 0x80) /* on a character boundary */
            keep++;
    }
    snprintf(buf, n, "%s%s", keep == w ? "" : "...", keep);
}

void record_measured_row(FILE *out, const char *file, int64_t line, const measured_counts *c, int64_t excess,
                         uint64_t expected, measured_agree agree)
{
    char where[80];
    record_where(file, line, where, sizeof where);
    fprintf(out, "%-28s %12llu %12llu %12lld %14llu  %s\n", where, (unsigned long long)c->wavefronts,
            (unsigned long long)c->ideal_wavefronts, (long long)excess, (unsigned long long)expected,
            agree == MEASURED_AGREE_TRUE    ? "yes"
            : agree == MEASURED_AGREE_FALSE ? "NO"
                                            : "?");
}

void record_measured_flag(FILE *out, const char *file, int64_t line, const char *why)
{
    char where[80], t[400];
    record_where(file, line, where, sizeof where);
    fprintf(out, "%s disagrees: %s\n", where, textsafe(why, t, sizeof t));
}

void record_measured_time(FILE *out, int64_t excess, const uint64_t *duration_ns, double share, int sms, int clock_khz,
                          const char *time_why)
{
    char t[600];
    if (!duration_ns) {
        fprintf(out, "kernel time: none (%s)\n", textsafe(time_why ? time_why : "not measured", t, sizeof t));
        return;
    }
    format_ns(*duration_ns, t, sizeof t);
    fprintf(out, "kernel time %s (a run with nothing patched)", t);
    if (excess <= 0)
        fputs("; no excess wavefronts: bank conflicts cost nothing here", out);
    else if (share >= 0)
        fprintf(out, "; the excess (%lld wavefronts) can explain at most %.1f%% of it (%d SMs x %.0f MHz)",
                (long long)excess, 100 * share, sms, clock_khz / 1000.0);
    fputc('\n', out);
}

void record_measured_print(const record_measured *m, const record_book *b, FILE *out)
{
    if (!m->have) {
        char t[600];
        fprintf(out, "\nmeasured: none (%s)\n", textsafe(m->why, t, sizeof t));
        return;
    }
    record_measured_header(out, m->blocks);
    measured_counts total = {0, 0, 0};
    int64_t te = 0;
    for (int i = 0; i < m->nlines; i++) {
        const measured_line *l = &m->lines[i];
        record_measured_row(out, b->lines[i].file, b->lines[i].line, &l->measured, l->excess, l->expected, l->agree);
        total.wavefronts += l->measured.wavefronts;
        total.ideal_wavefronts += l->measured.ideal_wavefronts;
        te += l->excess;
    }
    fprintf(out, "%-28s %12llu %12llu %12lld\n", "total", (unsigned long long)total.wavefronts,
            (unsigned long long)total.ideal_wavefronts, (long long)te);
    for (int i = 0; i < m->nlines; i++)
        if (m->lines[i].agree == MEASURED_AGREE_FALSE)
            record_measured_flag(out, b->lines[i].file, b->lines[i].line, measured_why_text(m->lines[i].why));
    if (m->blocks == 1)
        fputs("the launch is one block: the recorded block is the whole launch\n", out);
    else if (m->second && m->invariant)
        fprintf(out,
                "block invariance established: block (%u,%u,%u) predicts the same on every line, so agree compares "
                "the launch with the recorded block x %llu\n",
                m->second_block[0], m->second_block[1], m->second_block[2], (unsigned long long)m->blocks);
    else if (m->second)
        fprintf(out,
                "block invariance not established: block (%u,%u,%u) predicts differently; agree is ? on the lines "
                "where the two blocks differ\n",
                m->second_block[0], m->second_block[1], m->second_block[2]);
    else
        fprintf(out, "agree is ?: %s\n", measured_why_text(MEASURED_WHY_ONE_BLOCK));
    for (int i = 0; i < m->nunrecorded; i++)
        fprintf(out, "measured but not recorded: pc 0x%x, %llu wavefronts (%llu ideal)\n", m->unrecorded[i].pc,
                (unsigned long long)m->unrecorded[i].c.wavefronts,
                (unsigned long long)m->unrecorded[i].c.ideal_wavefronts);
    if (m->launch_note[0])
        fprintf(out, "note: %s\n", m->launch_note);
    record_measured_time(out, m->excess, m->have_time ? &m->time.duration_ns : NULL, m->share, m->count.sms,
                         m->count.clock_khz, m->time_why);
}

void record_measured_free(record_measured *m)
{
    measured_file_free(&m->count);
    measured_file_free(&m->time);
    free(m->lines);
    free(m->pcs);
    free(m->unrecorded);
    memset(m, 0, sizeof *m);
}
