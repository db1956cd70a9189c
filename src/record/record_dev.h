/* record_dev: the memory the capture pass shares with its device patches (record_patch.cu):
 * one record_dev per armed launch, passed to every patch as its userdata, and its array of
 * entries. Included by C (the host side) and CUDA (the patches); plain fixed-width types only.
 *
 * One entry is one warp-instruction: the first active lane of the warp takes a slot (an atomic
 * add on its block's next), every active lane writes its own address into it. next may grow past
 * max: the entries beyond are not written, and next - max says how many were dropped
 * (truncation). The host reads the entries back as they are (the same machine, the same
 * layout) and writes them unchanged into the capture's entries file. */
#ifndef BANKSCOPE_RECORD_DEV_H
#define BANKSCOPE_RECORD_DEV_H

#include <stdbool.h>
#include <stdint.h>

/* What kind of instruction an entry comes from (the patch that wrote it). */
enum {
    RECORD_KIND_SHARED = 1, /* LDS, STS, ATOMS (SanitizerCallbackMemoryAccess) */
    RECORD_KIND_MATRIX = 2, /* LDSM, STSM (SanitizerCallbackMatrixMemoryAccess) */
    RECORD_KIND_ASYNC = 3,  /* LDGSTS, cp.async (SanitizerCallbackMemcpyAsync): the shared side */
    RECORD_KIND_REMOTE = 4  /* distributed shared memory of another block of the cluster */
};

#define RECORD_WARP 32
#define RECORD_ENTRIES_MAX (1 << 24) /* most entries one block keeps (--max-instructions' limit) */

typedef struct record_entry {
    uint64_t pc;                /* as the patch receives it */
    uint32_t kind;              /* RECORD_KIND_* */
    uint32_t size;              /* bytes per lane */
    uint32_t flags;             /* Sanitizer_DeviceMemoryFlags (read 1, write 2, system atomic 4) */
    uint32_t count;             /* matrices of an ldmatrix/stmatrix; 0 otherwise */
    uint32_t warp;              /* warp of the block: linear thread index / 32 */
    uint32_t mask;              /* active lanes */
    uint32_t addr[RECORD_WARP]; /* shared-window offsets; only the lanes of mask are written */
} record_entry;

/* Two blocks record in one run: the chosen one (slot 0) and a second one (slot 1) that tells
 * whether the launch's blocks behave alike. The first 16 bytes hold what every patch reads
 * (one aligned load: the armed bits and each slot's blockIdx.x), so that a thread of any other
 * block, nearly all of them, returns after one load and one compare of blockIdx.x; the next 16
 * bytes hold the rest of the two blocks' indexes. */
typedef struct record_dev {
    uint32_t armed;             /* bit 0: slot 0 records; bit 1: slot 1 records; 0: every patch returns */
    uint32_t x[2];              /* blockIdx.x of each slot */
    uint32_t unused;            /* keeps yz 16-byte aligned */
    uint32_t yz[2][2];          /* blockIdx.y and .z of each slot */
    unsigned long long next[2]; /* slots taken, per block */
    unsigned long long max;     /* entries each block's array holds */
    record_entry *entries[2];
} record_dev;

/* The second block a capture records beside the chosen one: the last block of the grid, or the
 * first when the last is the chosen one; false when the grid has one block (block then holds the
 * chosen one).
 * Shared by the capture pass and the command, so both name the same block. */
static inline bool record_second_block(const uint32_t grid[3], const uint32_t chosen[3], uint32_t block[3])
{
    bool last = true, differs = false;
    for (int i = 0; i < 3; i++) {
        block[i] = grid[i] ? grid[i] - 1 : 0;
        last = last && block[i] == chosen[i];
    }
    for (int i = 0; i < 3; i++) {
        if (last)
            block[i] = 0;
        differs = differs || block[i] != chosen[i];
    }
    return differs;
}

#endif
