/* advisor_block: the block-shape alternative to padding. A stencil's tile follows its block
 * (tile[BY + 2][BX + 2] for a 16x16 block): with 16 threads per row a warp covers two rows of
 * the tile, whose starts are 18 words apart, so the rows' banks overlap (2-way) and only a large
 * padding (30 floats, +167 %) separates them. The same 256 threads as 32x8 give each warp one
 * row of tile[10][34]: conflict-free with almost no extra bytes. This tries the shapes with X a
 * multiple of 32, resizing the tile to keep its halo, and keeps the cheapest that works. */
#include "advisor.h"

#include <stdio.h>
#include <string.h>

#define HALO_MAX 8 /* a tile wider than the block by more than this is not taken for a halo */

/* Whether s as it is works: no lane excluded (out of bounds, misaligned, expression error) in
 * any warp-instruction, and wavefronts equal to the ideal over all of them (cost in *row). */
static bool works(const scenario *s, const advisor_hooks *h, advisor_row *row)
{
    scenario_instr in;
    scenario_excluded ex;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        if ((k & 1023) == 0 && h && h->cancelled && h->cancelled(h->ctx))
            return false;
        scenario_instr_at(s, k, &in);
        scenario_instr_excluded(&in, &ex);
        if (scenario_excluded_total(&ex))
            return false;
    }
    memset(row, 0, sizeof *row);
    return advisor_measure_row_hooked(s, row, h) && row->valid && row->wavefronts == row->ideal;
}

void advisor_block_shape(scenario *s, int array, const advisor_hooks *h, advisor_block *out)
{
    memset(out, 0, sizeof *out);
    if (array < 0 || array >= s->narrays) /* a trace has no array */
        return;
    scenario_array *arr = &s->arrays[array];
    int nd = arr->ndims, threads = scenario_threads(s);
    if (nd < 2 || s->block[2] != 1)
        return;
    int64_t hx = arr->dims[nd - 1] - s->block[0], hy = arr->dims[nd - 2] - s->block[1];
    if (hx < 0 || hy < 0 || hx > HALO_MAX || hy > HALO_MAX)
        return;
    out->tried = true;
    out->halo[0] = (int)hx;
    out->halo[1] = (int)hy;
    int old_block[3] = {s->block[0], s->block[1], s->block[2]};
    int64_t old_dims[SCENARIO_MAX_DIMS], old_pad[SCENARIO_MAX_DIMS];
    memcpy(old_dims, arr->dims, sizeof old_dims);
    memcpy(old_pad, arr->pad, sizeof old_pad);
    scenario_error e;
    int tried = 0;
    for (int bx = 32; bx <= threads && tried < ADVISOR_BLOCK_MAX; bx *= 2) {
        if (threads % bx || bx == old_block[0])
            continue;
        tried++;
        s->block[0] = bx;
        s->block[1] = threads / bx;
        arr = &s->arrays[array];
        arr->dims[nd - 1] = bx + hx;
        arr->dims[nd - 2] = s->block[1] + hy;
        memset(arr->pad, 0, sizeof arr->pad);
        advisor_row row;
        if (!scenario_finish(s, &e) || !works(s, h, &row))
            continue;
        if (out->found && row.smem_bytes >= out->row.smem_bytes)
            continue;
        out->found = true;
        out->row = row;
        memcpy(out->block, s->block, sizeof out->block);
        out->ndims = nd;
        memcpy(out->dims, arr->dims, sizeof out->dims);
    }
    memcpy(s->block, old_block, sizeof old_block);
    arr = &s->arrays[array];
    memcpy(arr->dims, old_dims, sizeof old_dims);
    memcpy(arr->pad, old_pad, sizeof old_pad);
    scenario_finish(s, &e);
    if (out->found) {
        int k = snprintf(out->text, sizeof out->text, "block %dx%d with %s", out->block[0], out->block[1], arr->name);
        for (int d = 0; d < nd && k > 0 && (size_t)k < sizeof out->text; d++)
            k += snprintf(out->text + k, sizeof out->text - (size_t)k, "[%lld]", (long long)out->dims[d]);
    }
}
