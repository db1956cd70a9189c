/* advisor: what padding costs and buys. For one array of a scenario: every padding 0..max with
 * its wavefronts, worst conflict degree, shared bytes per block, blocks per SM and occupancy
 * (padding is not free); the smallest conflict-free padding; an XOR swizzle of the same array
 * (no extra memory) where the shape allows; and the struct-of-arrays form of struct field
 * accesses. Pure: it edits the scenario it is given and restores it before returning. */
#ifndef BANKSCOPE_ADVISOR_H
#define BANKSCOPE_ADVISOR_H

#include <stdbool.h>
#include <stdint.h>

#include "model/scenario.h"

typedef struct advisor_row {
    int pad;
    bool valid;                 /* false: this padding does not validate (why says so) */
    char why[160];
    int64_t wavefronts, ideal;  /* over every warp-instruction of the scenario */
    int worst_degree;
    int64_t smem_bytes;         /* shared memory per block */
    int blocks_per_sm;          /* limited by threads, blocks and shared memory */
    double occupancy;           /* resident warps / the SM's maximum */
    char limit[16];             /* what limits blocks_per_sm: "threads", "blocks", "shared" */
} advisor_row;

typedef struct advisor_result {
    int array;                  /* the array swept */
    int nrows;
    advisor_row rows[257];      /* pad 0..max (max <= 256) */
    int best_pad;               /* smallest padding whose wavefronts equal the ideal; -1 none */
    int min_pad;                /* smallest padding with the fewest wavefronts */
    bool swizzle;               /* an XOR swizzle applies */
    char swizzle_text[200];     /* e.g. "tile[r][c ^ (r % 32)]" */
    char swizzle_tma[64];       /* "128B" when it equals the TMA/wgmma 128B swizzle (rows of
                                   exactly 128 bytes, 16-byte units: CU_TENSOR_MAP_SWIZZLE_128B,
                                   CuTe Swizzle<3,4,3> on byte offsets), else empty */
    char swizzle_cute[64];      /* the same as CuTe's Swizzle<B,M,S> on element offsets, e.g.
                                   "Swizzle<3,3,3>"; empty when the row length is not a power
                                   of two (then no CuTe swizzle equals it) */
    advisor_row swizzled;       /* its cost (padding 0) */
    bool soa;                   /* the array holds structs read by field */
    advisor_row soa_row;        /* the cost with one array per field */
} advisor_result;

/* Blocks per SM and occupancy for a block of threads using smem bytes, on profile p. */
void advisor_occupancy(const banks_profile *p, int threads, int64_t smem, advisor_row *row);
/* The array most worth sweeping: the one whose accesses have the most bank conflicts. */
int advisor_pick_array(const scenario *s);
/* Sweep padding 0..max_pad of array (in place, restored). False only for traces. */
bool advisor_sweep(scenario *s, int array, int max_pad, advisor_result *out);

#endif
