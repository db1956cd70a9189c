/* recording_sass: a recording's SASS page, one row per instruction (PC): its SASS text, the kernel's
 * line it is on and its inline chain, the warp-instructions of the recorded block that executed
 * it, their prediction (every trace entry at that PC, predicted again with the architecture
 * analyze uses, so the rows' sums are analyze's total), and what the count run measured at that
 * PC over the whole launch. Instructions that are not predicted say which kind they are; the
 * wgmma operand reads and TMA copies that call no patch are rows of their own, "measured only".
 * The rows partition the recording: every trace entry is on the row of its PC. The rows are the
 * recording as analyze read it once (recording_lines.h), predicted in the same walk as its lines. */
#include "core/recording_sass.h"

#include <string.h>

#include "io/jsonw.h"
#include "io/report.h"
#include "io/textsafe.h"
#include "util.h"

/* Whether the row has a prediction (some entry of a modelled kind). */
static bool predicted(const line_sum *x)
{
    return x->instructions > x->not_modelled;
}

/* "file:line" of a site, the file's base name. */
static const char *site_text(const char *file, int64_t line, char *buf, size_t n)
{
    const char *base = file ? strrchr(file, '/') : NULL;
    snprintf(buf, n, "%s:%lld", base ? base + 1 : file ? file : "?", (long long)line);
    return buf;
}

void record_sass_report(const record_lines *L, FILE *out)
{
    if (!L || !L->rec.has_lines)
        return;
    if (!L->pcs_match) {
        fprintf(out,
                "\nSASS: the trace does not match the recording's instructions (an entry at a PC no line holds)\n");
        return;
    }
    fprintf(out, "\nper SASS instruction (the recorded block predicted with %s; measured: the whole launch):\n",
            L->arch);
    fprintf(out, "%-8s %6s %10s %8s %13s %10s %10s %8s  %-24s %s\n", "pc", "execs", "wavefronts", "ideal", "worst",
            "measured", "m.ideal", "m.instrs", "line", "sass");
    int64_t tw = 0, ti = 0, tx = 0;
    uint64_t mw = 0, mi = 0, mx = 0;
    bool any_measured = false;
    for (int i = 0; i < L->npcs; i++) {
        const recording_pc *r = L->pcs[i];
        const line_sum *x = &L->pc_sums[i];
        char kind[32];
        record_lines_pc_kind(L, i, kind, sizeof kind);
        const record_lines_row *line = &L->rows[r->row];
        char pc[16], where[64], deg[32], m1[24] = "-", m2[24] = "-", m3[24] = "-", w[24] = "-", id[24] = "-", t[512];
        snprintf(pc, sizeof pc, "0x%llx", (unsigned long long)r->pc);
        if (line->file)
            site_text(line->file, line->line, where, sizeof where);
        else
            snprintf(where, sizeof where, "(no line info)");
        if (predicted(x)) {
            snprintf(w, sizeof w, "%lld", (long long)x->wavefronts);
            snprintf(id, sizeof id, "%lld", (long long)x->ideal);
            report_degree_text(x->worst, deg, sizeof deg);
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
        if (!predicted(x) && kind[0])
            fprintf(out, "%-8s %s: %s\n", "", r->measured_only ? "measured only" : "not modelled", kind);
        if (r->nchain > 1) { /* the inline chain, innermost first */
            strbuf sb = {0};
            for (int k = 0; k < r->nchain; k++) {
                char s[64];
                strbuf_addf(&sb, "%s%s", k ? " <- " : "", site_text(r->chain[k].file, r->chain[k].line, s, sizeof s));
            }
            fprintf(out, "%-8s inlined: %s\n", "", textsafe(strbuf_str(&sb), t, sizeof t));
            strbuf_free(&sb);
        }
        tw += x->wavefronts;
        ti += x->ideal;
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
}

void record_sass_json(jsonw *w, void *ctx)
{
    const record_lines *L = ((const record_lines_ctx *)ctx)->lines;
    if (!L || !L->rec.has_lines || !L->pcs_match)
        return;
    JSONW_KEY(w, "sass");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < L->npcs; i++) {
        const recording_pc *r = L->pcs[i];
        const line_sum *x = &L->pc_sums[i];
        char kind[32];
        record_lines_pc_kind(L, i, kind, sizeof kind);
        const record_lines_row *line = &L->rows[r->row];
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "pc", r->pc);
        JSONW_KV_STRING(w, "sass", r->sass);
        JSONW_KV_STRING(w, "file", line->file);
        if (line->file)
            JSONW_KV_INT(w, "line", line->line);
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
        if (predicted(x)) {
            JSONW_KEY(w, "predicted");
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_INT(w, "wavefronts", x->wavefronts);
            JSONW_KV_INT(w, "ideal_wavefronts", x->ideal);
            JSONW_KV_INT(w, "conflict_degree", x->worst);
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
        if (!predicted(x) && kind[0])
            JSONW_KV_STRING(w, "kind", kind);
        else
            JSONW_KV_NULL(w, "kind");
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}
