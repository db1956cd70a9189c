/* sweep_report: `sweep` output on a scenario as text and JSON (sweep_report.h). */
#include <stdio.h>
#include <string.h>

#include "io/jsonw.h"
#include "io/report.h"
#include "io/sweep_report.h"
#include "io/sweep_row.h"
#include "io/textsafe.h"
#include "model/kinds.h"

/* Whether the block-shape alternative needs fewer shared bytes than the smallest conflict-free
 * padding (or no padding up to the limit is conflict-free). */
static bool block_cheaper(const advisor_result *r)
{
    return r->block.found && (r->best_pad < 0 || r->block.row.smem_bytes < r->rows[r->best_pad].smem_bytes);
}

/* One padding's row as a JSON object (why, for a padding that does not validate). */
static void row_json(jsonw *w, const advisor_row *r, double measured)
{
    jsonw_begin_object(w, JSONW_INLINE);
    jsonw_kv_int(w, "pad", r->pad);
    jsonw_kv_bool(w, "valid", r->valid);
    if (r->valid) {
        sweep_row_json_conflicts(w, r->wavefronts, r->ideal, r->worst_degree);
        jsonw_kv_double(w, "efficiency", r->wavefronts ? (double)r->ideal / (double)r->wavefronts : 1.0);
        sweep_row_json_occupancy(w, r->smem_bytes, r->blocks_per_sm, r->occupancy);
        jsonw_kv_string(w, "limited_by", r->limit);
        if (measured >= 0)
            jsonw_kv_double(w, "measured_cycles_per_access", measured);
    } else {
        jsonw_kv_string(w, "why", r->why);
    }
    jsonw_end_object(w);
}

static const char *const layout_kinds[] = {"tma", "cute", "xor", "padding"};

/* A string, or null when it is empty. */
static void kv_text(jsonw *w, const char *k, const char *v)
{
    if (v[0])
        jsonw_kv_string(w, k, v);
    else
        jsonw_kv_null(w, k);
}

/* One layout of the search as a JSON object. */
static void layout_json(jsonw *w, const advisor_layout *l)
{
    jsonw_begin_object(w, JSONW_INLINE);
    jsonw_kv_string(w, "kind", layout_kinds[l->kind]);
    kv_text(w, "option", l->option);
    jsonw_kv_int(w, "pad", l->pad);
    jsonw_kv_int(w, "extra_bytes", l->extra_bytes);
    kv_text(w, "cute", l->cute);
    kv_text(w, "cute_bytes", l->cute_bytes);
    kv_text(w, "tma", l->tma);
    jsonw_kv_string(w, "c", l->c_text);
    kv_text(w, "c_flat", l->c_flat);
    jsonw_kv_int(w, "instructions", l->instructions);
    sweep_row_json_conflicts(w, l->wavefronts, l->ideal, l->worst_degree);
    jsonw_kv_int(w, "excluded_lanes", l->excluded);
    jsonw_kv_bool(w, "conflict_free", l->works);
    if (l->why[0])
        jsonw_kv_string(w, "why", l->why);
    jsonw_end_object(w);
}

/* The layout searches as the "layouts" array. */
static void layouts_json(jsonw *w, const scenario *s, const advisor_result *r)
{
    jsonw_key(w, "layouts");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < r->nsearch; i++) {
        const advisor_search *sr = &r->search[i];
        jsonw_begin_object(w, JSONW_LINES);
        jsonw_kv_string(w, "array", s->arrays[sr->array].name);
        jsonw_kv_bool(w, "found", sr->found);
        jsonw_kv_bool(w, "complete", sr->complete);
        jsonw_kv_int(w, "tried", sr->tried);
        jsonw_kv_int(w, "checked", sr->checked);
        jsonw_kv_int(w, "sample_instructions", sr->sample);
        jsonw_key(w, "current");
        layout_json(w, &sr->current);
        jsonw_key(w, "best");
        if (sr->found)
            layout_json(w, &sr->best);
        else
            jsonw_null(w);
        jsonw_key(w, "closest");
        jsonw_begin_array(w, JSONW_LINES);
        for (int k = 0; k < sr->nnear; k++)
            layout_json(w, &sr->near[k]);
        jsonw_end_array(w);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

bool sweep_report_json(const sweep_report *p, FILE *f, const char **why)
{
    const scenario *s = p->s;
    const advisor_result *r = p->r;
    const double *measured = p->measured;
    static jsonw w;
    jsonw_init(&w, f);
    jsonw_begin_object(&w, JSONW_LINES);
    jsonw_kv_string(&w, "format", "bankscope-sweep/1");
    jsonw_kv_string(&w, "name", s->name ? s->name : "");
    jsonw_kv_string(&w, "arch", s->arch->name);
    jsonw_kv_string(&w, "array", s->arrays[r->array].name);
    jsonw_kv_bool(&w, "predicted", true);
    int nm = 0; /* accesses of a kind the model does not cover: in no row's sums */
    for (int k = 0; k < s->naccesses; k++)
        nm += kinds_of(s->accesses[k].op)->rule == KINDS_RULE_NOT_MODELLED;
    if (nm) {
        jsonw_key(&w, "not_modelled_accesses");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int k = 0; k < s->naccesses; k++)
            if (kinds_of(s->accesses[k].op)->rule == KINDS_RULE_NOT_MODELLED)
                jsonw_int(&w, k);
        jsonw_end_array(&w);
    }
    jsonw_key(&w, "rows");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int i = 0; i < r->nrows; i++)
        row_json(&w, &r->rows[i], measured[i]);
    jsonw_end_array(&w);
    if (r->best_pad >= 0)
        jsonw_kv_int(&w, "smallest_conflict_free_padding", r->best_pad);
    else
        jsonw_kv_null(&w, "smallest_conflict_free_padding");
    jsonw_kv_int(&w, "fewest_wavefronts_padding", r->min_pad);
    const char *no_effect = advisor_padding_no_effect(s, r);
    if (no_effect)
        jsonw_kv_string(&w, "padding_no_effect", no_effect);
    else
        jsonw_kv_null(&w, "padding_no_effect");
    jsonw_key(&w, "swizzle");
    if (r->swizzle) {
        jsonw_begin_object(&w, JSONW_INLINE);
        jsonw_kv_string(&w, "layout", r->swizzle_text);
        kv_text(&w, "option", r->search[0].best.option);
        if (r->swizzle_cute[0])
            jsonw_kv_string(&w, "cute", r->swizzle_cute);
        else
            jsonw_kv_null(&w, "cute");
        if (r->swizzle_tma[0])
            jsonw_kv_string(&w, "tma", r->swizzle_tma);
        else
            jsonw_kv_null(&w, "tma");
        jsonw_key(&w, "row");
        row_json(&w, &r->swizzled, -1);
        jsonw_end_object(&w);
    } else {
        jsonw_null(&w);
    }
    jsonw_key(&w, "soa");
    if (r->soa)
        row_json(&w, &r->soa_row, -1);
    else
        jsonw_null(&w);
    jsonw_key(&w, "reorder");
    if (r->reorder) {
        jsonw_begin_object(&w, JSONW_INLINE);
        jsonw_kv_int(&w, "sizeof", r->reorder_size);
        jsonw_kv_string(&w, "declaration", r->reorder_text);
        jsonw_key(&w, "row");
        row_json(&w, &r->reorder_row, -1);
        jsonw_end_object(&w);
    } else {
        jsonw_null(&w);
    }
    layouts_json(&w, s, r);
    jsonw_key(&w, "layouts_together");
    if (r->together)
        row_json(&w, &r->together_row, -1);
    else
        jsonw_null(&w);
    jsonw_key(&w, "block_shape");
    if (r->block.found) {
        const advisor_block *b = &r->block;
        jsonw_begin_object(&w, JSONW_INLINE);
        jsonw_key(&w, "block");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int d = 0; d < 3; d++)
            jsonw_int(&w, b->block[d]);
        jsonw_end_array(&w);
        jsonw_key(&w, "dims");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int d = 0; d < b->ndims; d++)
            jsonw_int(&w, b->dims[d]);
        jsonw_end_array(&w);
        jsonw_kv_bool(&w, "cheaper_than_padding", block_cheaper(r));
        jsonw_key(&w, "row");
        row_json(&w, &b->row, -1);
        jsonw_end_object(&w);
    } else
        jsonw_null(&w);
    jsonw_end_object(&w);
    return jsonw_finish(&w, why);
}

/* The block shape, when it costs less than padding: "block shape instead: ...". */
static void block_text(FILE *f, const advisor_result *r)
{
    if (!block_cheaper(r))
        return;
    const advisor_block *b = &r->block;
    int64_t base = r->rows[0].smem_bytes, extra = b->row.smem_bytes - base;
    fprintf(f,
            "block shape instead (the tile follows the block, halo %d x %d): %s: conflict-free, %lld wavefronts = "
            "ideal, %lld B per block (%+lld B, %+.1f %%)",
            b->halo[0], b->halo[1], b->text, (long long)b->row.wavefronts, (long long)b->row.smem_bytes,
            (long long)extra, base ? 100.0 * (double)extra / (double)base : 0.0);
    if (r->best_pad >= 0)
        fprintf(f, ", fewer bytes than padding %d (%+lld B)", r->best_pad,
                (long long)(r->rows[r->best_pad].smem_bytes - base));
    fprintf(f, "\n");
}

/* One padding's row of the table, with a bar of its wavefronts and, with --measure, the
 * measured / predicted cycles. */
static void row_text(FILE *f, const advisor_row *r, int64_t max_wf, double measured, double per_instr)
{
    char deg[32];
    if (!r->valid) {
        fprintf(f, "  %4d  %s\n", r->pad, r->why);
        return;
    }
    int bar = max_wf ? (int)((r->wavefronts * 24 + max_wf - 1) / max_wf) : 0;
    char bars[25];
    memset(bars, '#', (size_t)bar);
    bars[bar] = '\0';
    fprintf(f, "  %4d  %-13s %10lld %7lld %9.1f %% ", r->pad, report_degree_text(r->worst_degree, deg, sizeof deg),
            (long long)r->wavefronts, (long long)r->ideal, r->wavefronts ? 100.0 * r->ideal / r->wavefronts : 100.0);
    sweep_row_text_occupancy(f, r->smem_bytes, r->blocks_per_sm, r->occupancy);
    fprintf(f, "  %-7s", r->limit);
    if (measured >= 0 && per_instr >= 0)
        fprintf(f, " %6.2f /%6.2f", measured, per_instr);
    else if (measured >= 0) /* cp.async among the accesses: its cycles are not predicted */
        fprintf(f, " %6.2f /     -", measured);
    fprintf(f, "  %s\n", bars);
}

/* Which rows the text shows: every row with all; otherwise the first SWEEP_HEAD paddings and
 * SWEEP_AROUND on each side of the answer (the smallest conflict-free padding, else the one
 * with the fewest wavefronts), widened from the start to SWEEP_MIN_ROWS rows when that is
 * fewer, so the table stays a screen high whatever --max-pad is. */
enum { SWEEP_HEAD = 4, SWEEP_AROUND = 4, SWEEP_MIN_ROWS = 16 };
static void sweep_window(const advisor_result *r, bool all, bool shown[257])
{
    int answer = r->best_pad >= 0 ? r->best_pad : r->min_pad, n = 0;
    for (int i = 0; i < r->nrows; i++) {
        int pad = r->rows[i].pad;
        shown[i] = all || pad < SWEEP_HEAD || (pad >= answer - SWEEP_AROUND && pad <= answer + SWEEP_AROUND);
        n += shown[i];
    }
    for (int i = 0; i < r->nrows && n < SWEEP_MIN_ROWS; i++)
        if (!shown[i]) {
            shown[i] = true;
            n++;
        }
}

/* The cost of a layout: "96 wavefronts = ideal" or "160 wavefronts (ideal 96), 2-way". */
static const char *layout_cost(const advisor_layout *l, char *buf, size_t n)
{
    char deg[32];
    int k;
    if (l->wavefronts == l->ideal)
        k = snprintf(buf, n, "%lld wavefront%s = ideal", (long long)l->wavefronts, l->wavefronts == 1 ? "" : "s");
    else
        k = snprintf(buf, n, "%lld wavefronts (ideal %lld), %s", (long long)l->wavefronts, (long long)l->ideal,
                     report_degree_text(l->worst_degree, deg, sizeof deg));
    if (l->excluded && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, "; %s", l->why);
    return buf;
}

/* One layout search as text: the cheapest layout that makes every access to the array
 * conflict-free, in every notation, and the closest swizzles that do not. */
static void search_text(FILE *f, const scenario *s, const advisor_search *sr, int max_pad)
{
    char name[200], cost[300];
    const scenario_array *arr = &s->arrays[sr->array];
    if (sr->sample == sr->current.instructions)
        fprintf(f,
                "\nlayout search for %s (every access to it at once): %d layouts tried on %s %lld "
                "warp-instruction%s\n",
                arr->name, sr->tried, sr->sample == 1 ? "its" : "all", (long long)sr->sample,
                sr->sample == 1 ? "" : "s");
    else
        fprintf(f,
                "\nlayout search for %s (every access to it at once): %d layouts tried on %lld warp-instructions "
                "of the first and last iterations, %d checked on all %lld\n",
                arr->name, sr->tried, (long long)sr->sample, sr->checked, (long long)sr->current.instructions);
    fprintf(f, "  now: %s\n", layout_cost(&sr->current, cost, sizeof cost));
    const advisor_layout *b = &sr->best;
    if (sr->found) {
        fprintf(f, "  cheapest conflict-free: %s, %s%lld B: %s\n", advisor_layout_name(b, name, sizeof name),
                b->extra_bytes ? "+" : "", (long long)b->extra_bytes, layout_cost(b, cost, sizeof cost));
        if (b->cute[0])
            fprintf(f, "    CuTe: %s on element offsets = %s on byte offsets\n", b->cute, b->cute_bytes);
        if (b->tma[0])
            fprintf(f, "    TMA:  %s (the tensor map writes this layout)\n", b->tma);
        if (b->kind != ADVISOR_LAYOUT_PADDING)
            fprintf(f, "    C:    %s\n", b->c_text);
        if (b->c_flat[0] && strcmp(b->c_flat, b->c_text) != 0)
            fprintf(f, "          %s\n", b->c_flat);
    } else if (!sr->complete) {
        fprintf(f, "  none found before the search stopped (%d layouts checked on every warp-instruction)\n",
                sr->checked);
    } else {
        fprintf(f, "  none: no swizzle and no padding up to %d makes every access conflict-free\n", max_pad);
    }
    if (sr->nnear)
        fprintf(f, "  closest swizzles that are not conflict-free:\n");
    for (int i = 0; i < sr->nnear; i++)
        fprintf(f, "    %-30s %s\n", advisor_layout_name(&sr->near[i], name, sizeof name),
                layout_cost(&sr->near[i], cost, sizeof cost));
}

/* The padding table: one row per padding, the rows sweep_window leaves out folded into one. */
static void table_text(FILE *f, const advisor_result *r, bool all, const double *measured, const double *predicted,
                       bool measure)
{
    fprintf(f, "  %4s  %-13s %10s %7s %11s ", "pad", "worst", "wavefronts", "ideal", "efficiency");
    sweep_row_text_occupancy_head(f);
    fprintf(f, "  %-7s%s\n", "limit", measure ? " meas./pred. cycles" : "");
    int64_t max_wf = 0;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].valid && r->rows[i].wavefronts > max_wf)
            max_wf = r->rows[i].wavefronts;
    bool shown[257];
    sweep_window(r, all, shown);
    for (int i = 0; i < r->nrows; i++) {
        if (shown[i]) {
            row_text(f, &r->rows[i], max_wf, measured[i], predicted[i]);
            continue;
        }
        int j = i;
        while (j + 1 < r->nrows && !shown[j + 1])
            j++;
        fprintf(f, "  %4s  (paddings %d-%d: %d rows not shown; --all shows every row)\n", "...", r->rows[i].pad,
                r->rows[j].pad, j - i + 1);
        i = j;
    }
}

/* In place of the table when no padding can change the banks (padding_no_effect): one line. */
static void no_effect_text(FILE *f, const scenario *s, const advisor_result *r, const char *why)
{
    char deg[32];
    const advisor_row *r0 = &r->rows[0];
    if (strcmp(why, "1-D") == 0)
        fprintf(f, "  padding cannot change the banks (%s is 1-D: padding only adds elements after its end): ",
                s->arrays[r->array].name);
    else
        fprintf(f, "  padding cannot change the banks: ");
    fprintf(f, "every padding 0-%d: %s, %lld wavefronts (ideal %lld); --all shows the table\n",
            r->rows[r->nrows - 1].pad, report_degree_text(r0->worst_degree, deg, sizeof deg), (long long)r0->wavefronts,
            (long long)r0->ideal);
}

void sweep_report_text(const sweep_report *p, FILE *f)
{
    const scenario *s = p->s;
    const advisor_result *r = p->r;
    const scenario_array *arr = &s->arrays[r->array];
    int64_t instr = scenario_instr_count(s);
    char title[400];
    char swz[80] = "";
    if (arr->swizzle)
        snprintf(swz, sizeof swz, ", swizzle %.60s", arr->swizzle);
    fprintf(f, "%s\npadding sweep of %s (%s%s%s), block %dx%dx%d, %s; %lld warp-instruction%s per row",
            textsafe(s->name ? s->name : p->file, title, sizeof title), arr->name,
            arr->type.struct_index >= 0 ? "struct " : "", types_name(&s->types, &arr->type), swz, s->block[0],
            s->block[1], s->block[2], s->arch->name, (long long)instr, instr == 1 ? "" : "s");
    if (p->idle)
        fprintf(f, " (%lld issued, %lld of idle warps that issue nothing)", (long long)(instr - p->idle),
                (long long)p->idle);
    fprintf(f, "\n");
    for (int k = 0; k < s->naccesses; k++) { /* a kind without a rule adds nothing to any row: say so */
        const kinds_row *kr = kinds_of(s->accesses[k].op);
        if (kr->rule == KINDS_RULE_NOT_MODELLED)
            fprintf(f, "access %d (%s) is not modelled: in none of the sums (%s)\n", k, kr->name, kr->not_modelled);
    }
    const char *no_effect = advisor_padding_no_effect(s, r);
    if (p->all || p->measure)
        no_effect = NULL; /* the table, whole */
    if (no_effect)
        no_effect_text(f, s, r, no_effect);
    else
        table_text(f, r, p->all, p->measured, p->predicted, p->measure);
    const advisor_row *r0 = &r->rows[0];
    if (r->best_pad >= 0) {
        const advisor_row *b = &r->rows[r->best_pad];
        fprintf(f, "\nsmallest conflict-free padding: %d (%+lld B per block, %+.1f %%)\n", r->best_pad,
                (long long)(b->smem_bytes - r0->smem_bytes),
                r0->smem_bytes ? 100.0 * (b->smem_bytes - r0->smem_bytes) / r0->smem_bytes : 0.0);
    } else if (!no_effect) { /* the one line above already said that padding changes nothing */
        fprintf(f, "\nno padding up to %d is conflict-free; fewest wavefronts at padding %d\n", p->max_pad, r->min_pad);
    }
    char deg[32];
    for (int i = 0; i < r->nsearch; i++)
        search_text(f, s, &r->search[i], p->max_pad);
    if (r->together && r->together_row.valid)
        fprintf(f, "\nthe %d layouts together: %lld wavefronts (ideal %lld), %s over every warp-instruction\n",
                r->nsearch, (long long)r->together_row.wavefronts, (long long)r->together_row.ideal,
                report_degree_text(r->together_row.worst_degree, deg, sizeof deg));
    else if (r->together)
        fprintf(f, "\nthe %d layouts together: %s\n", r->nsearch, r->together_row.why);
    if (r->soa)
        fprintf(f, "struct of arrays instead: %lld wavefront%s, %s\n", (long long)r->soa_row.wavefronts,
                r->soa_row.wavefronts == 1 ? "" : "s", report_degree_text(r->soa_row.worst_degree, deg, sizeof deg));
    if (r->reorder)
        fprintf(f, "fields by alignment instead (sizeof %d -> %d: %s): %lld wavefront%s, %s\n",
                s->types.structs[s->arrays[r->array].type.struct_index].size, r->reorder_size, r->reorder_text,
                (long long)r->reorder_row.wavefronts, r->reorder_row.wavefronts == 1 ? "" : "s",
                report_degree_text(r->reorder_row.worst_degree, deg, sizeof deg));
    block_text(f, r);
    fprintf(f, "predicted by the %s model%s\n", s->arch->name, p->measure ? "; measured columns from the GPU" : "");
    bool unpredicted = false;
    for (int i = 0; i < r->nrows && p->measure; i++)
        unpredicted = unpredicted || (p->measured[i] >= 0 && p->predicted[i] < 0);
    if (unpredicted)
        fprintf(f, "pred. cycles '-': a cp.async access is measured, and its cycles are not predicted (the time "
                   "includes the copy from global memory)\n");
}
