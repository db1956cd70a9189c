/* sweep_row: the members and columns every row of `sweep` output has, on a scenario
 * (sweep_report) and on a recording (whatif_report): a layout's conflicts (wavefronts, ideal,
 * worst degree) and its occupancy (shared bytes per block, blocks per SM, occupancy). Both
 * printers write them here, so the two halves of bankscope-sweep/1 cannot drift apart. */
#ifndef BANKSCOPE_SWEEP_ROW_H
#define BANKSCOPE_SWEEP_ROW_H

#include <stdint.h>
#include <stdio.h>

#include "io/jsonw.h"

/* "wavefronts", "ideal_wavefronts" and "worst_conflict_degree" as members of the open object. */
void sweep_row_json_conflicts(jsonw *w, int64_t wavefronts, int64_t ideal, int worst);
/* "shared_bytes", "blocks_per_sm" and "occupancy" as members of the open object. */
void sweep_row_json_occupancy(jsonw *w, int64_t smem_bytes, int blocks_per_sm, double occupancy);
/* The occupancy columns' headings, as wide as sweep_row_text_occupancy's values. */
void sweep_row_text_occupancy_head(FILE *f);
/* The occupancy columns: shared bytes, blocks per SM and occupancy in percent. */
void sweep_row_text_occupancy(FILE *f, int64_t smem_bytes, int blocks_per_sm, double occupancy);

#endif
