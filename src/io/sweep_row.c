/* sweep_row: the members and columns every row of `sweep` output has (sweep_row.h). */
#include "io/sweep_row.h"

void sweep_row_json_conflicts(jsonw *w, int64_t wavefronts, int64_t ideal, int worst)
{
    JSONW_KV_INT(w, "wavefronts", wavefronts);
    JSONW_KV_INT(w, "ideal_wavefronts", ideal);
    JSONW_KV_INT(w, "worst_conflict_degree", worst);
}

void sweep_row_json_occupancy(jsonw *w, int64_t smem_bytes, int blocks_per_sm, double occupancy)
{
    JSONW_KV_INT(w, "shared_bytes", smem_bytes);
    JSONW_KV_INT(w, "blocks_per_sm", blocks_per_sm);
    jsonw_kv_double(w, "occupancy", occupancy);
}

void sweep_row_text_occupancy_head(FILE *f)
{
    fprintf(f, "%9s %6s %9s", "shared B", "blk/SM", "occupancy");
}

void sweep_row_text_occupancy(FILE *f, int64_t smem_bytes, int blocks_per_sm, double occupancy)
{
    fprintf(f, "%9lld %6d %7.0f %%", (long long)smem_bytes, blocks_per_sm, 100 * occupancy);
}
