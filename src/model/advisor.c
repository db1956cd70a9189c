/* advisor: padding sweep, occupancy arithmetic, swizzle and SoA alternatives. */
#include "advisor.h"
#include "scenario_edit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Occupancy arithmetic of the CUDA occupancy calculator: blocks per SM are limited by threads,
 * by the block slots and by shared memory (per-block use plus the reserved bytes, rounded up to
 * the allocation unit). Registers are not modelled (they depend on the compiled kernel). */
void advisor_occupancy(const banks_profile *p, int threads, int64_t smem, advisor_row *row)
{
    int warps = (threads + 31) / 32;
    int by_threads = p->threads_per_sm / (warps * 32);
    int64_t need = smem + p->smem_reserved;
    need = (need + p->smem_granularity - 1) / p->smem_granularity * p->smem_granularity;
    int by_smem = need > 0 ? (int)(p->smem_per_sm / need) : p->blocks_per_sm;
    int b = by_threads;
    snprintf(row->limit, sizeof row->limit, "threads");
    if (p->blocks_per_sm < b) {
        b = p->blocks_per_sm;
        snprintf(row->limit, sizeof row->limit, "blocks");
    }
    if (by_smem < b) {
        b = by_smem;
        snprintf(row->limit, sizeof row->limit, "shared");
    }
    if (smem > p->smem_per_block)
        b = 0;
    row->smem_bytes = smem;
    row->blocks_per_sm = b;
    row->occupancy = (double)b * warps / (p->threads_per_sm / 32.0);
}

/* Wavefronts and worst degree over every warp-instruction, and the occupancy. A layout where
 * some lane's access is misaligned (or its expression fails) is not a valid choice. */
void advisor_measure_row(const scenario *s, advisor_row *row)
{
    advisor_measure_row_hooked(s, row, NULL);
}

bool advisor_measure_row_hooked(const scenario *s, advisor_row *row, const advisor_hooks *h)
{
    scenario_instr in;
    banks_result r;
    row->wavefronts = row->ideal = 0;
    row->worst_degree = 0;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        if ((k & 1023) == 0 && h && h->cancelled && h->cancelled(h->ctx)) {
            snprintf(row->why, sizeof row->why, "cancelled");
            row->valid = false;
            return false;
        }
        scenario_instr_at(s, k, &in);
        for (int l = 0; l < BANKS_WARP; l++)
            if (in.lane[l].state == SCENARIO_LANE_MISALIGNED || in.lane[l].state == SCENARIO_LANE_EVAL_ERROR) {
                snprintf(row->why, sizeof row->why, "%s (warp %d lane %d of access %d)",
                         in.lane[l].state == SCENARIO_LANE_MISALIGNED ? "misaligned access"
                                                                      : expr_status_text(in.lane[l].eval),
                         in.warp, l, in.access);
                row->valid = false;
                return true;
            }
        banks_analyze(s->arch, &in.req, &r, NULL);
        row->wavefronts += r.wavefronts;
        row->ideal += r.ideal_wavefronts;
        if (r.conflict_degree > row->worst_degree)
            row->worst_degree = r.conflict_degree;
    }
    advisor_occupancy(s->arch, scenario_threads(s), s->smem_bytes, row);
    row->valid = true;
    return true;
}

int advisor_pick_array(const scenario *s)
{
    int64_t *conf = calloc((size_t)s->narrays, sizeof *conf);
    if (!conf)
        util_oom();
    scenario_instr in;
    banks_result r;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        scenario_instr_at(s, k, &in);
        banks_analyze(s->arch, &in.req, &r, NULL);
        conf[s->accesses[in.access].array] += r.bank_conflicts;
    }
    int best = s->accesses[0].array;
    for (int i = 0; i < s->narrays; i++)
        if (conf[i] > conf[best])
            best = i;
    free(conf);
    return best;
}

/* The old fields of the swizzle alternative, from the layout search of the swept array: the
 * cheapest swizzle with no extra bytes that works, and its cost over the whole scenario (measured on a copy with the
 * layout applied). */
static void legacy_swizzle(const scenario *s, const advisor_search *sr, const advisor_hooks *h, advisor_result *out)
{
    if (!sr->found || sr->best.kind == ADVISOR_LAYOUT_PADDING || sr->best.extra_bytes != 0)
        return;
    const advisor_layout *l = &sr->best;
    snprintf(out->swizzle_text, sizeof out->swizzle_text, "%s", l->c_text);
    snprintf(out->swizzle_cute, sizeof out->swizzle_cute, "%s", l->cute);
    if (l->kind == ADVISOR_LAYOUT_TMA)
        snprintf(out->swizzle_tma, sizeof out->swizzle_tma, "%s", l->option);
    scenario c;
    char msg[200];
    if (!scenario_clone(s, &c))
        return;
    if (advisor_apply_layout(&c, sr->array, l, msg, sizeof msg)) {
        if (s->narrays == 1) { /* the search counted every instruction already, none excluded */
            advisor_row *row = &out->swizzled;
            row->wavefronts = l->wavefronts;
            row->ideal = l->ideal;
            row->worst_degree = l->worst_degree;
            advisor_occupancy(c.arch, scenario_threads(&c), c.smem_bytes, row);
            row->valid = true;
        } else {
            advisor_measure_row_hooked(&c, &out->swizzled, h);
        }
        out->swizzle = out->swizzled.valid;
    }
    scenario_free(&c);
}

/* With more than one array searched and a layout found for each: the whole scenario with all of
 * them applied to one copy, measured on every warp-instruction. */
static void together(const scenario *s, const advisor_hooks *h, advisor_result *out)
{
    if (out->nsearch < 2)
        return;
    for (int i = 0; i < out->nsearch; i++)
        if (!out->search[i].found)
            return;
    scenario c;
    char msg[200];
    if (!scenario_clone(s, &c))
        return;
    bool ok = true;
    for (int i = 0; i < out->nsearch && ok; i++)
        ok = advisor_apply_layout(&c, out->search[i].array, &out->search[i].best, msg, sizeof msg);
    if (ok) {
        advisor_measure_row_hooked(&c, &out->together_row, h);
        out->together = true;
    } else {
        snprintf(out->together_row.why, sizeof out->together_row.why, "%.150s", msg);
        out->together = true;
    }
    scenario_free(&c);
}

/* Struct of arrays: every field access reads an array of the field's own type instead. Each
 * lane's address maps directly: element i's field moves to start + i * field size (the arrays
 * of the other fields do not take part in the access). */
static void try_soa(const scenario *s, int array, const advisor_hooks *h, advisor_result *out)
{
    const scenario_array *arr = &s->arrays[array];
    if (arr->type.struct_index < 0)
        return;
    advisor_row total = {0};
    scenario_instr in;
    banks_result r;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        if ((k & 1023) == 0 && h && h->cancelled && h->cancelled(h->ctx))
            return;
        scenario_instr_at(s, k, &in);
        const scenario_access *a = &s->accesses[in.access];
        if (a->array != array || !a->field)
            continue;
        for (int l = 0; l < BANKS_WARP; l++)
            if ((in.req.active >> l) & 1) {
                int64_t elem = (in.req.addr[l] - arr->start - a->offset) / arr->elem_size;
                in.req.addr[l] = arr->start + elem * a->width;
            }
        banks_analyze(s->arch, &in.req, &r, NULL);
        total.wavefronts += r.wavefronts;
        total.ideal += r.ideal_wavefronts;
        if (r.conflict_degree > total.worst_degree)
            total.worst_degree = r.conflict_degree;
        out->soa = true;
    }
    if (out->soa) {
        advisor_occupancy(s->arch, scenario_threads(s), s->smem_bytes, &total);
        total.valid = true;
        out->soa_row = total;
    }
}

/* Reordering the struct's fields by decreasing alignment (which removes holes): a smaller
 * sizeof changes the stride between the lanes' elements, and so the banks, where padding a 1-D
 * array cannot. Reported only when it shrinks the struct and takes fewer wavefronts. */
static void try_reorder(const scenario *s, int array, const advisor_hooks *h, advisor_result *out)
{
    int si = s->arrays[array].type.struct_index;
    if (si < 0)
        return;
    scenario c;
    if (!scenario_clone(s, &c))
        return;
    scenario_change ch = {SCENARIO_CHANGE_FIELDS_REORDER, .u.field = {si, 0}};
    char msg[200];
    int before = s->types.structs[si].size;
    advisor_row now = {0};
    advisor_measure_row_hooked(s, &now, h);
    if (scenario_change_apply(&c, &ch, msg, sizeof msg) && c.types.structs[si].size < before) {
        advisor_measure_row_hooked(&c, &out->reorder_row, h);
        /* a smaller stride is not always better (24 B is conflict-free for 8-byte reads, 16 B
         * 2-way): offered only when it takes fewer wavefronts */
        out->reorder = out->reorder_row.valid && now.valid && out->reorder_row.wavefronts < now.wavefronts;
        strbuf sb = {0};
        types_struct_decl_line(&c.types, si, &sb);
        snprintf(out->reorder_text, sizeof out->reorder_text, "%s", strbuf_str(&sb));
        strbuf_free(&sb);
        out->reorder_size = c.types.structs[si].size;
    }
    scenario_free(&c);
}

const char *advisor_padding_no_effect(const scenario *s, const advisor_result *r)
{
    for (int i = 0; i < r->nrows; i++) {
        const advisor_row *a = &r->rows[i], *b = &r->rows[0];
        if (!a->valid || !b->valid || a->wavefronts != b->wavefronts || a->ideal != b->ideal ||
            a->worst_degree != b->worst_degree)
            return NULL;
    }
    return s->arrays[r->array].ndims <= 1 ? "1-D" : "same";
}

bool advisor_sweep(scenario *s, int array, int max_pad, advisor_result *out)
{
    return advisor_sweep_hooked(s, array, max_pad, NULL, out);
}

/* Progress of one part (the sweep, then each search) scaled into the whole. */
typedef struct part_hooks {
    const advisor_hooks *outer;
    double from, width;
} part_hooks;

static bool part_cancelled(void *ctx)
{
    const part_hooks *p = ctx;
    return p->outer && p->outer->cancelled && p->outer->cancelled(p->outer->ctx);
}

static void part_progress(void *ctx, double f)
{
    const part_hooks *p = ctx;
    if (p->outer && p->outer->progress)
        p->outer->progress(p->outer->ctx, p->from + p->width * f);
}

bool advisor_sweep_hooked(scenario *s, int array, int max_pad, const advisor_hooks *h, advisor_result *out)
{
    memset(out, 0, sizeof *out);
    out->best_pad = out->min_pad = -1;
    if (array < 0 || array >= s->narrays) /* a trace has no array */
        return false;
    if (max_pad > 256)
        max_pad = 256;
    out->array = array;
    scenario_array *arr = &s->arrays[array];
    int last = arr->ndims - 1;
    int64_t old = arr->pad[last];
    scenario_error e;
    int64_t fewest = INT64_MAX;
    part_hooks ph = {h, 0, 0.5};
    advisor_hooks hp = {part_cancelled, part_progress, &ph};
    for (int p = 0; p <= max_pad; p++) {
        if (part_cancelled(&ph)) {
            out->cancelled = true;
            break;
        }
        part_progress(&ph, (double)p / (max_pad + 1));
        advisor_row *row = &out->rows[out->nrows++];
        row->pad = p;
        arr->pad[last] = p;
        if (!scenario_finish(s, &e)) {
            snprintf(row->why, sizeof row->why, "%.150s", e.msg);
            continue;
        }
        if (!advisor_measure_row_hooked(s, row, &hp)) {
            out->cancelled = true;
            break;
        }
        if (!row->valid)
            continue;
        if (row->wavefronts == row->ideal && out->best_pad < 0)
            out->best_pad = p;
        if (row->wavefronts < fewest) {
            fewest = row->wavefronts;
            out->min_pad = p;
        }
    }
    arr->pad[last] = old;
    scenario_finish(s, &e);
    if (out->cancelled)
        return false;
    /* the layout searches: the swept array first, then the other arrays with conflicts */
    int arrays[ADVISOR_MAX_SEARCH + 1];
    int na = s->narrays > 1 ? advisor_conflicted_arrays(s, arrays, ADVISOR_MAX_SEARCH) : 0;
    int order[ADVISOR_MAX_SEARCH], no = 0;
    order[no++] = array;
    for (int i = 0; i < na && no < ADVISOR_MAX_SEARCH; i++)
        if (arrays[i] != array)
            order[no++] = arrays[i];
    for (int i = 0; i < no; i++) {
        ph.from = 0.5 + 0.5 * i / no;
        ph.width = 0.5 / no;
        if (!advisor_search_layouts(s, order[i], max_pad, &hp, &out->search[out->nsearch])) {
            out->cancelled = true;
            return false;
        }
        out->nsearch++;
    }
    /* the alternatives, each stopped early when h cancels (then their rows are dropped) */
    together(s, &hp, out);
    legacy_swizzle(s, &out->search[0], &hp, out);
    try_soa(s, array, &hp, out);
    try_reorder(s, array, &hp, out);
    advisor_block_shape(s, array, &hp, &out->block);
    if (part_cancelled(&ph)) {
        out->cancelled = true;
        return false;
    }
    return true;
}
