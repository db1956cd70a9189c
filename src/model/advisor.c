/* advisor: padding sweep, occupancy arithmetic, swizzle and SoA alternatives. */
#include "advisor.h"

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
static void measure_row(const scenario *s, advisor_row *row)
{
    scenario_instr in;
    banks_result r;
    row->wavefronts = row->ideal = 0;
    row->worst_degree = 0;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        scenario_instr_at(s, k, &in);
        for (int l = 0; l < BANKS_WARP; l++)
            if (in.lane[l].state == SCENARIO_LANE_MISALIGNED || in.lane[l].state == SCENARIO_LANE_EVAL_ERROR) {
                snprintf(row->why, sizeof row->why, "%s (warp %d lane %d of access %d)",
                         in.lane[l].state == SCENARIO_LANE_MISALIGNED ? "misaligned access"
                                                                      : expr_status_text(in.lane[l].eval),
                         in.warp, l, in.access);
                row->valid = false;
                return;
            }
        banks_analyze(s->arch, &in.req, &r, NULL);
        row->wavefronts += r.wavefronts;
        row->ideal += r.ideal_wavefronts;
        if (r.conflict_degree > row->worst_degree)
            row->worst_degree = r.conflict_degree;
    }
    advisor_occupancy(s->arch, scenario_threads(s), s->smem_bytes, row);
    row->valid = true;
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

/* Replace *slot by a copy of text, returning the old string (owned by the caller). */
static char *swap_text(char **slot, const char *text)
{
    char *old = *slot;
    *slot = text ? xstrdup(text) : NULL;
    return old;
}

/* XOR swizzle of a 2-D array: column c of row r is stored at c ^ ((r % S) * U), with U elements
 * per unit (a 4-byte word, or the widest vector access) and S units per 128 bytes, so the rows
 * of a 32-lane column read land in different banks. Needs a last extent that is a multiple
 * of S*U, and applies to every access of the array (it is a layout, not a read trick). */
static void try_swizzle(scenario *s, int array, advisor_result *out)
{
    scenario_array *arr = &s->arrays[array];
    if (arr->ndims != 2 || arr->type.struct_index >= 0)
        return;
    int widest = 4;
    for (int i = 0; i < s->naccesses; i++)
        if (s->accesses[i].array == array && s->accesses[i].width > widest)
            widest = s->accesses[i].width;
    int64_t es = arr->elem_size;
    if (es > widest)
        return;
    int64_t U = widest / es, S = 128 / widest;
    if (S < 2 || arr->dims[1] % (S * U) != 0)
        return;
    int64_t old_pad = arr->pad[1];
    arr->pad[1] = 0;
    char *saved[256] = {0};
    char text[512];
    for (int i = 0; i < s->naccesses && i < 256; i++) {
        scenario_access *a = &s->accesses[i];
        if (a->array != array)
            continue;
        if (U > 1)
            snprintf(text, sizeof text, "(%s) ^ (((%s) %% %lld) * %lld)", a->index_text[1], a->index_text[0],
                     (long long)S, (long long)U);
        else
            snprintf(text, sizeof text, "(%s) ^ ((%s) %% %lld)", a->index_text[1], a->index_text[0], (long long)S);
        saved[i] = swap_text(&a->index_text[1], text);
    }
    scenario_error e;
    if (scenario_finish(s, &e)) {
        measure_row(s, &out->swizzled);
        out->swizzle = out->swizzled.valid;
        /* c ^ ((r % S) * U) on the element offset r * C + c, C a power of two: bits [log2 U,
         * log2 U + log2 S) XOR bits [log2 C, ...): CuTe's Swizzle<log2 S, log2 U, log2 C - log2 U> */
        int64_t C = arr->dims[1];
        out->swizzle_cute[0] = '\0';
        /* the TMA 128B mode XORs the 16-byte chunk with (byte offset / 128) % 8: the same as
         * this layout when a row is 128 bytes and the unit 16 bytes (S = 8) */
        out->swizzle_tma[0] = '\0';
        if (C * es == 128 && U * es == 16 && S == 8)
            snprintf(out->swizzle_tma, sizeof out->swizzle_tma, "128B");
        if ((C & (C - 1)) == 0)
            snprintf(out->swizzle_cute, sizeof out->swizzle_cute, "Swizzle<%d,%d,%d>", __builtin_ctzll((uint64_t)S),
                     __builtin_ctzll((uint64_t)U), __builtin_ctzll((uint64_t)C) - __builtin_ctzll((uint64_t)U));
        if (U > 1)
            snprintf(out->swizzle_text, sizeof out->swizzle_text, "%s[r][c ^ ((r %% %lld) * %lld)]", arr->name,
                     (long long)S, (long long)U);
        else
            snprintf(out->swizzle_text, sizeof out->swizzle_text, "%s[r][c ^ (r %% %lld)]", arr->name, (long long)S);
    }
    for (int i = 0; i < s->naccesses && i < 256; i++)
        if (s->accesses[i].array == array)
            free(swap_text(&s->accesses[i].index_text[1], saved[i])), free(saved[i]);
    arr->pad[1] = old_pad;
    scenario_finish(s, &e);
}

/* Struct of arrays: every field access reads an array of the field's own type instead. Each
 * lane's address maps directly: element i's field moves to start + i * field size (the arrays
 * of the other fields do not take part in the access). */
static void try_soa(const scenario *s, int array, advisor_result *out)
{
    const scenario_array *arr = &s->arrays[array];
    if (arr->type.struct_index < 0)
        return;
    advisor_row total = {0};
    scenario_instr in;
    banks_result r;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
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

bool advisor_sweep(scenario *s, int array, int max_pad, advisor_result *out)
{
    memset(out, 0, sizeof *out);
    out->best_pad = out->min_pad = -1;
    if (s->is_trace || array < 0 || array >= s->narrays)
        return false;
    if (max_pad > 256)
        max_pad = 256;
    out->array = array;
    scenario_array *arr = &s->arrays[array];
    int last = arr->ndims - 1;
    int64_t old = arr->pad[last];
    scenario_error e;
    int64_t fewest = INT64_MAX;
    for (int p = 0; p <= max_pad; p++) {
        advisor_row *row = &out->rows[out->nrows++];
        row->pad = p;
        arr->pad[last] = p;
        if (!scenario_finish(s, &e)) {
            snprintf(row->why, sizeof row->why, "%.150s", e.msg);
            continue;
        }
        measure_row(s, row);
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
    try_swizzle(s, array, out);
    try_soa(s, array, out);
    return true;
}
