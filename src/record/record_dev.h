/* record_dev: the memory the capture pass shares with its device patches (record_patch.cu):
 * one record_dev per armed launch, passed to every patch as its userdata, and its array of
 * entries. Included by C (the host side) and CUDA (the patches); plain fixed-width types only.
 *
 * One entry is one warp-instruction: the first active lane of the warp takes a slot (an atomic
 * add on next), every active lane writes its own address into it. next may grow past max: the
 * entries beyond are not written, and next - max says how many were dropped (truncation). */
#ifndef BANKSCOPE_RECORD_DEV_H
#define BANKSCOPE_RECORD_DEV_H

#include <stdint.h>

/* What kind of instruction an entry comes from (the patch that wrote it). */
enum {
    RECORD_KIND_SHARED = 1, /* LDS, STS, ATOMS (SanitizerCallbackMemoryAccess) */
    RECORD_KIND_MATRIX = 2, /* LDSM, STSM (SanitizerCallbackMatrixMemoryAccess) */
    RECORD_KIND_ASYNC = 3,  /* LDGSTS, cp.async (SanitizerCallbackMemcpyAsync): the shared side */
    RECORD_KIND_REMOTE = 4  /* distributed shared memory of another block of the cluster */
};

#define RECORD_WARP 32

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

/* armed and block first: a patch reads them with one 16-byte load (the allocation is aligned). */
typedef struct record_dev {
    uint32_t armed;          /* 0: every patch returns at once */
    uint32_t block[3];       /* the block that records; every other returns at once */
    unsigned long long next; /* slots taken */
    unsigned long long max;  /* entries the array holds */
    record_entry *entries;
} record_dev;

#endif
