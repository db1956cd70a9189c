/* banks_fast: the search-free kernels of the bank engine, called by banks_analyze (banks.c) for
 * the usual case: a load or store on a profile with one word per slot (sm_50 and later,
 * sm_35_8byte), each lane in one phase, no grid, every active lane aligned to its width. Internal
 * to the model: everything else goes through banks.h. Pure: no globals, no I/O, no allocation.
 *
 * Every kernel gives exactly what the general path of banks.c gives (tests/unit/test_banks.c
 * compares them with the original engine on a million random requests); a kernel that cannot
 * take a request returns false before the caller relies on anything it wrote. */
#ifndef BANKSCOPE_BANKS_FAST_H
#define BANKSCOPE_BANKS_FAST_H

#include "banks.h"

/* What both kernels need to know of one request, worked out once by banks.c. */
typedef struct banks_fast_plan {
    int ushift;     /* log2 of a unit: the access width, or the bank word when narrower */
    int pshift;     /* log2 of the lanes per phase (3, 4 or 5), after pairing */
    unsigned gmask; /* groups of banks that see the same units, minus one (unit & gmask) */
    bool paired;    /* sm_90 load pairing merged phases */
} banks_fast_plan;

/* True when this CPU runs banks_fast_simd (x86-64 with AVX-512 F, CD, VPOPCNTDQ and VBMI, and
 * GFNI); false elsewhere. */
bool banks_fast_simd_usable(void);
/* The AVX-512 kernel: lanes sharing a unit or a group of banks found by bit-matrix
 * transpositions (vpconflictd for units far apart), the pairing checked on whole vectors, no branch that depends on
 * the width but one. Only call it when banks_fast_simd_usable(), for a request of the usual case
 * above with at least one active lane. False when a lane is misaligned or a unit lies 2^31 units
 * or more from the first active lane's. */
bool banks_fast_simd(const banks_profile *p, const banks_request *req, banks_result *out);

/* True when this CPU runs the portable kernel compiled for AVX2 with BMI1/2 and POPCNT (banks.c),
 * what banks_analyze runs where the CPU has those but not the AVX-512 extensions. */
bool banks_fast_avx2_usable(void);

/* banks_analyze without the AVX-512 kernel and the AVX2 build of the portable one (the portable
 * path as every CPU runs it), and with the AVX2 build only (the portable path where the CPU has
 * no AVX2), for the tests. */
void banks_analyze_portable(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells);
void banks_analyze_avx2(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells);

#endif
