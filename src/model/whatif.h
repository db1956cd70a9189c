/* whatif: layout changes tried on the addresses a recording captured. A recording (bankscope
 * record) is a trace: each warp-instruction's lanes with their byte offsets in the shared window.
 * The kernel's shared variables split that window into regions (named static variables from the
 * cubin's symbols, the static section as one region when the symbols are stripped, the dynamic
 * shared memory as one region; a recording without them: the recorded window as one region).
 * A layout of one region (a row padding, a CuTe Swizzle<B,M,S> on its byte offsets, or the
 * struct-of-arrays split) maps every recorded address inside it to the address it would have in
 * the new layout, assuming the kernel's indexing follows the declared layout; every recorded
 * instruction is then predicted again with the same model (banks_analyze), all kinds, every warp.
 *
 * Pure: no files, no globals. Strings are borrowed from the caller (regions' names). */
#ifndef BANKSCOPE_MODEL_WHATIF_H
#define BANKSCOPE_MODEL_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/banks.h"
#include "model/scenario.h"

#define WHATIF_MAX_REGIONS 64
#define WHATIF_MAX_FIELDS 16
#define WHATIF_TOP 8     /* ranked layouts kept per search */
#define WHATIF_PAD_MIN 4 /* row padding tried, in bytes */
#define WHATIF_PAD_MAX 32
#define WHATIF_SAMPLE 4096 /* recorded entries every candidate is costed on first, at most */
#define WHATIF_CONFIRM 16  /* candidates checked on every entry (and the best of each kind) */

typedef struct whatif_region {
    const char *name; /* borrowed: "tile", "static shared memory", "recorded window" */
    int64_t start;    /* byte offset in the shared window */
    int64_t bytes;
    bool dynamic; /* the dynamic shared memory (extern __shared__) */
    bool exact;   /* bytes is the variable's size (the cubin's); false: as far as the recording
                     reached, so a row pitch need not divide it */
} whatif_region;

/* What a search or an evaluation reads: the recording's entries, its regions, the block. */
typedef struct whatif_input {
    const banks_profile *arch;
    const banks_request *trace;
    int64_t ntrace;
    const whatif_region *regions;
    int nregions;
    int threads; /* per block, for occupancy */
} whatif_input;

typedef enum whatif_kind {
    WHATIF_AS_IS,   /* the region as recorded */
    WHATIF_PAD,     /* rows of pitch bytes, each followed by pad bytes */
    WHATIF_SWIZZLE, /* CuTe Swizzle<bits, base, shift> on the region's byte offsets */
    WHATIF_SOA,     /* elements of elem bytes split into one array per field */
} whatif_kind;

typedef struct whatif_layout {
    whatif_kind kind;
    int region;
    int64_t pitch;         /* PAD: the row in bytes as recorded */
    int pad;               /* PAD: bytes added after each row */
    int bits, base, shift; /* SWIZZLE, on byte offsets */
    int64_t elem;          /* SOA: the struct's bytes */
    int nfields;           /* SOA: fields accessed (offset, width in the struct), by offset */
    int64_t field_off[WHATIF_MAX_FIELDS], field_width[WHATIF_MAX_FIELDS];
    int64_t extra_bytes; /* shared bytes per block added */
} whatif_layout;

typedef struct whatif_cost {
    bool valid;                /* false: some recorded access cannot take this layout (why) */
    char why[160];             /* "an access of 16 bytes crosses a row of 68 bytes (entry 12, lane 3)" */
    int64_t wavefronts, ideal; /* over every recorded warp-instruction */
    int64_t touched;           /* warp-instructions with a lane in the region */
    int worst;                 /* worst conflict degree over every warp-instruction */
    int64_t smem_bytes;        /* the regions' bytes with the layout */
    int blocks_per_sm;
    double occupancy;
} whatif_cost;

typedef struct whatif_result {
    int region;
    whatif_cost current; /* the region as recorded */
    int64_t elem;        /* the narrowest access to the region (its element, as far as it shows) */
    int tried;           /* candidate layouts tried */
    int64_t sample;      /* entries they were costed on first (0: every entry, the costs final) */
    int checked;         /* with a sample: candidates costed again on every entry (the ranked ones) */
    int ntop;
    whatif_layout top[WHATIF_TOP]; /* valid layouts that do better than now, best first */
    whatif_cost top_cost[WHATIF_TOP];
    /* the best valid layout of each kind that does better than now (kinds PAD, SWIZZLE, SOA;
     * has[kind] false: none), so a padding shows beside swizzles that tie with it on wavefronts */
    bool has[4];
    whatif_layout best_of[4];
    whatif_cost best_of_cost[4];
    int npitches;
    int64_t pitches[16]; /* row pitches the size and the recorded strides allow */
    bool soa;            /* the accesses read fields of a struct: the split was tried */
    int64_t soa_elem;
} whatif_result;

/* The region holding byte offset addr, or -1. */
int whatif_region_of(const whatif_region *r, int n, int64_t addr);
/* The address addr (of an access of width bytes) has with layout l; false with why when the access
 * cannot take it (crosses a row, misaligned). Addresses of regions after l's region move by its
 * extra bytes (rounded up to 16, the alignment the compiler keeps); others stay. */
bool whatif_remap(const whatif_input *in, const whatif_layout *l, int64_t addr, int width, int64_t *out, char *why,
                  size_t n);
/* Entry in with layout l into *out; false with why as whatif_remap. */
bool whatif_remap_request(const whatif_input *in, const whatif_layout *l, const banks_request *req, banks_request *out,
                          char *why, size_t n);
/* The cost of the whole recording with layout l. */
void whatif_evaluate(const whatif_input *in, const whatif_layout *l, whatif_cost *c);
/* Regions worth a search: those touched by a warp-instruction with a conflict, most conflicts
 * first; returns how many (at most max). */
int whatif_conflicted_regions(const whatif_input *in, int *regions, int max);
/* Try the layouts of region: paddings of each row pitch the region's size and the recorded
 * strides allow (4..32 bytes), CuTe swizzles, the struct-of-arrays split; rank the valid ones that
 * do better than now by wavefronts, then extra bytes, then occupancy. */
void whatif_search(const whatif_input *in, int region, whatif_result *out);
/* Ordering of two costed layouts (negative: a first): wavefronts, extra bytes, occupancy. */
int whatif_rank(const whatif_layout *a, const whatif_cost *ca, const whatif_layout *b, const whatif_cost *cb);

/* One source line of a recording before and after a layout (strings borrowed from the trace's
 * locations; file NULL: entries without line info). */
typedef struct whatif_line {
    const char *file, *text;
    int line;
    int64_t instructions;
    int64_t before, before_ideal; /* wavefronts as recorded */
    int64_t after, after_ideal;   /* with the layout */
} whatif_line;

/* The recording's lines (at: one location per trace entry, may be NULL) in order of first entry,
 * before and after layout l (NULL: as recorded), into *out (owned by the caller, free()); how
 * many, or -1 when l does not apply to some entry. */
int whatif_lines(const whatif_input *in, const scenario_srcloc *at, const whatif_layout *l, whatif_line **out);

/* The layout as what to write: "__shared__ float tile[32][33]" (elem_type: the element's C type,
 * NULL: "T"), "Swizzle<3,4,3> on the byte offsets of tile", the struct split. */
const char *whatif_layout_decl(const whatif_layout *l, const whatif_region *r, const char *elem_type, int64_t elem,
                               char *buf, size_t n);
/* A swizzle as a rewrite of a 2-D array's indices with rows of pitch bytes (elements of elem
 * bytes, both powers of two): "tile[r][c ^ (r & 31)]"; NULL when it does not reduce to them. */
const char *whatif_swizzle_2d(const whatif_layout *l, const char *name, int64_t elem, int64_t pitch, char *buf,
                              size_t n);
/* A short name for labels: "tile padded 32x(128+4 B)", "tile Swizzle<3,4,3>", "tile as SoA". */
const char *whatif_layout_short(const whatif_layout *l, const whatif_region *r, char *buf, size_t n);

#endif
