/* advisor: what padding costs and buys. For one array of a scenario: every padding 0..max with
 * its wavefronts, worst conflict degree, shared bytes per block, blocks per SM and occupancy
 * (padding is not free); the smallest conflict-free padding; an XOR swizzle of the same array
 * (no extra memory) where the shape allows; and the struct-of-arrays form of struct field
 * accesses. Pure: it edits the scenario it is given and restores it before returning. */
#ifndef BANKSCOPE_ADVISOR_H
#define BANKSCOPE_ADVISOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/scenario.h"

typedef struct advisor_row {
    int pad;
    bool valid; /* false: this padding does not validate (why says so) */
    char why[160];
    int64_t wavefronts, ideal; /* over every warp-instruction of the scenario */
    int worst_degree;
    int64_t smem_bytes; /* shared memory per block */
    int blocks_per_sm;  /* limited by threads, blocks and shared memory */
    double occupancy;   /* resident warps / the SM's maximum */
    char limit[16];     /* what limits blocks_per_sm: "threads", "blocks", "shared" */
} advisor_row;

/* The layout search (advisor_swizzle.c): layouts of one array that make every access of the
 * scenario to it conflict-free at once, cheapest first. A candidate is a CuTe Swizzle<B,M,S>
 * of the array's byte offsets (the TMA modes among them), the row XOR of a 2-D array whose row
 * is not a power of two, or a padding of the last dimension. It "works" when, over every
 * warp-instruction of every access to the array, wavefronts equal the ideal and no lane is
 * excluded (misaligned, out of bounds, expression error). */
typedef enum advisor_layout_kind {
    ADVISOR_LAYOUT_TMA,     /* a TMA mode: Swizzle<1|2|3,4,3> on byte offsets, written by TMA */
    ADVISOR_LAYOUT_CUTE,    /* another CuTe Swizzle<B,M,S> */
    ADVISOR_LAYOUT_XOR,     /* c ^ ((r % R) * U) on a row that is not a power of two */
    ADVISOR_LAYOUT_PADDING, /* padding of the last dimension, no swizzle */
} advisor_layout_kind;

typedef struct advisor_layout {
    advisor_layout_kind kind;
    int bits, base, shift; /* Swizzle<B,M,S> on byte offsets (TMA, CUTE); XOR: c ^ ((r % 2^bits)
                            * 2^base), base in elements, shift unused */
    int pad;               /* padding elements of the last dimension (0 for swizzles) */
    int64_t extra_bytes;   /* shared bytes per block over the array unpadded and unswizzled */
    /* over every warp-instruction of every access to the array (confirmed) */
    int64_t wavefronts, ideal, excluded, instructions;
    int worst_degree;
    bool works;          /* wavefronts == ideal and nothing excluded */
    char option[40];     /* the array option that gives it: "128B", "Swizzle<3,3,3>"; "" for
                            padding and the row XOR (a rewrite of the index) */
    char cute[40];       /* CuTe on element offsets, "Swizzle<3,3,3>"; "" when not one */
    char cute_bytes[40]; /* CuTe on byte offsets, "Swizzle<3,4,3>" */
    char tma[40];        /* "CU_TENSOR_MAP_SWIZZLE_128B" for the TMA modes, else "" */
    char c_text[160];    /* plain C on the array's indices: "A[r][c ^ ((r & 7) << 3)]",
                            "A[r][c ^ ((r % 8) * 8)]", "A[64][64 + 8]" for a padding */
    char c_flat[160];    /* the flattened form "i ^ (((i >> 6) & 7) << 3) with i = r * 64 + c";
                            "" when c_text is already flat or for a padding */
    char why[160];       /* when the layout does not validate or excludes lanes: the first reason */
} advisor_layout;

#define ADVISOR_NEAR_MAX 3
#define ADVISOR_SEARCH_FULL_MAX 16 /* candidates checked on every warp-instruction, at most */

typedef struct advisor_search {
    int array;
    bool found;             /* best works */
    advisor_layout best;    /* the first that works in cost order */
    advisor_layout current; /* the array as it is now */
    int nnear;
    advisor_layout near[ADVISOR_NEAR_MAX]; /* the closest that do not work, fewest wavefronts */
    int tried;                             /* candidates tried on the sample */
    int checked;                           /* candidates measured on every warp-instruction */
    int64_t sample;                        /* warp-instructions of the sample (first iteration) */
    bool complete;                         /* false: ADVISOR_SEARCH_FULL_MAX stopped it, or cancelled */
} advisor_search;

/* Hooks for a caller that runs the advisor in another thread: cancelled is polled between
 * candidates (and instructions), progress gets the fraction done. Either may be NULL. */
typedef struct advisor_hooks {
    bool (*cancelled)(void *ctx);
    void (*progress)(void *ctx, double fraction);
    void *ctx;
} advisor_hooks;

/* Search the layouts of array (in place, restored): swizzles with no extra bytes first (ties:
 * a TMA mode, then fewer bits), then paddings 1..max_pad by their extra bytes. Candidates are
 * tried on the first iteration and confirmed on every warp-instruction before they are
 * reported. False for traces, a bad array or when cancelled. */
bool advisor_search_layouts(scenario *s, int array, int max_pad, const advisor_hooks *h, advisor_search *out);
/* Arrays worth a search: those whose accesses have bank conflicts or excluded lanes, most
 * conflicts first, into arrays[] (at most max); returns how many. */
int advisor_conflicted_arrays(const scenario *s, int *arrays, int max);
/* Apply a layout found by the search to array of s (its swizzle option or padding; the row XOR
 * rewrites the last index of each access) and validate; false with msg on failure. */
bool advisor_apply_layout(scenario *s, int array, const advisor_layout *l, char *msg, size_t n);

/* How a layout is named for people: the option to write ("swizzle": "128B"), the row XOR's C,
 * "padding 8 (A[64][64 + 8])", or "no padding and no "swizzle""; into buf, which is returned. */
const char *advisor_layout_name(const advisor_layout *l, char *buf, size_t n);
/* The column index of a swizzle written on a 2-D array's row r and column c, rows of 2^k
 * elements, for a swizzle of `bits` bits at element bit me taken from `shift` bits above:
 * "c ^ (((r >> D) & MASK) << me)" into col (n bytes). False when the swizzle's source bits are
 * not all in r and its target bits not all in c. */
bool advisor_swizzle_col_text(int me, int bits, int shift, int k, char *col, size_t n);

/* The block-shape alternative (advisor_block.c): when the swept array is a tile that follows
 * the block (its last two dims are blockDim.x and blockDim.y plus a halo of 0..8, as a stencil's
 * tile[BY + 2][BX + 2]), the same number of threads in another shape (X a multiple of 32: a warp
 * per row or more) with the tile resized to keep the halo. Reported when one is conflict-free
 * over every warp-instruction with no lane excluded; the caller compares its bytes with the
 * padding's. */
#define ADVISOR_BLOCK_MAX 6 /* shapes tried at most (X = 32, 64, ... up to the block's threads) */

typedef struct advisor_block {
    bool tried;                      /* the tile follows the block, so shapes were tried */
    bool found;                      /* one works (the one with the fewest shared bytes) */
    int block[3];                    /* its block */
    int ndims;                       /* the array's dims for it */
    int64_t dims[SCENARIO_MAX_DIMS]; /* (the halo kept, no padding) */
    int halo[2];                     /* halo in x (last dim) and y */
    advisor_row row;                 /* its cost: wavefronts, ideal, shared bytes, occupancy */
    char text[160];                  /* "block 32x8 with tile[10][34]" */
} advisor_block;

/* Try the block shapes of array (in place, restored) into *out (out->tried false when the
 * array does not follow the block). */
void advisor_block_shape(scenario *s, int array, const advisor_hooks *h, advisor_block *out);

#define ADVISOR_MAX_SEARCH 4

typedef struct advisor_result {
    int array; /* the array swept */
    int nrows;
    advisor_row rows[257];   /* pad 0..max (max <= 256) */
    int best_pad;            /* smallest padding whose wavefronts equal the ideal; -1 none */
    int min_pad;             /* smallest padding with the fewest wavefronts */
    bool swizzle;            /* an XOR swizzle applies */
    char swizzle_text[200];  /* e.g. "tile[r][c ^ (r % 32)]" */
    char swizzle_tma[64];    /* "128B" when it equals the TMA/wgmma 128B swizzle (rows of
                                exactly 128 bytes, 16-byte units: CU_TENSOR_MAP_SWIZZLE_128B,
                                CuTe Swizzle<3,4,3> on byte offsets), else empty */
    char swizzle_cute[64];   /* the same as CuTe's Swizzle<B,M,S> on element offsets, e.g.
                                "Swizzle<3,3,3>"; empty when the row length is not a power
                                of two (then no CuTe swizzle equals it) */
    advisor_row swizzled;    /* its cost (padding 0) */
    bool soa;                /* the array holds structs read by field */
    advisor_row soa_row;     /* the cost with one array per field */
    bool reorder;            /* the struct's fields by decreasing alignment make it smaller: */
    advisor_row reorder_row; /* the cost with them so */
    int reorder_size;        /* its sizeof then */
    char reorder_text[400];  /* the struct declared so, on one line */
    advisor_block block;     /* another block shape (advisor_block_shape) */
    int nsearch;             /* layout searches: [0] the array swept, then the other arrays
                                with conflicts */
    advisor_search search[ADVISOR_MAX_SEARCH];
    bool together;            /* more than one search, each found a layout: */
    advisor_row together_row; /* every access with all of them applied at once (a layout that
                                 needs alignment may move the other arrays) */
    bool cancelled;
} advisor_result;

/* Wavefronts, ideal, worst degree and occupancy of s as it is, over every warp-instruction;
 * row->valid false (why says which lane) when a lane is misaligned or its expression fails. */
void advisor_measure_row(const scenario *s, advisor_row *row);
/* advisor_measure_row stopped early when h cancels (checked every 1024 warp-instructions): false,
 * row->valid false. h may be NULL. */
bool advisor_measure_row_hooked(const scenario *s, advisor_row *row, const advisor_hooks *h);
/* Blocks per SM and occupancy for a block of threads using smem bytes, on profile p. */
void advisor_occupancy(const banks_profile *p, int threads, int64_t smem, advisor_row *row);
/* The array most worth sweeping: the one whose accesses have the most bank conflicts. */
int advisor_pick_array(const scenario *s);
/* Sweep padding 0..max_pad of array (in place, restored) and search its layouts (and those of
 * the other arrays with conflicts). False only for traces (or when h cancels it). */
bool advisor_sweep(scenario *s, int array, int max_pad, advisor_result *out);
/* Whether padding cannot change the banks: every padding gives the same wavefronts, ideal and
 * worst degree; then why: "1-D" (padding a one-dimensional array only adds elements after its
 * end) or "same"; NULL when some padding changes them. */
const char *advisor_padding_no_effect(const scenario *s, const advisor_result *r);
bool advisor_sweep_hooked(scenario *s, int array, int max_pad, const advisor_hooks *h, advisor_result *out);

#endif
