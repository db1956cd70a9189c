/* record_patch: the device functions the Compute Sanitizer patching API calls before every
 * shared-memory instruction of the recorded program (compiled with nvcc --fatbin
 * --compile-as-tools-patch; loaded by record_capture.c with sanitizerAddPatchesFromFile).
 * Their signatures are the documented callback types of sanitizer_patching.h
 * (SanitizerCallbackMemoryAccess, ...MatrixMemoryAccess, ...MemcpyAsync). Each runs per
 * thread: threads of any block but the two recorded ones, and every thread of an unarmed
 * launch, return at once; in a recorded block the warp's first active lane takes one entry of
 * that block's array and every active lane writes its address there. */
#include <stdint.h>

#include "record_dev.h"

/* SanitizerPatchResult: 0 is success (any other value exits the thread). */
#define RECORD_PATCH_OK 0

/* Which of the recorded blocks this thread belongs to (0 or 1); -1 for every other block and
 * every thread of a launch that is not armed (userdata NULL). The common case (another block)
 * costs one 16-byte load and the compares of blockIdx.x (record_dev.h). */
static __device__ __forceinline__ int record_which(const record_dev *d)
{
#ifdef RECORD_PATCH_FLOOR /* tests/gpu/record_bench.sh: every patch returns at once, the call's own cost */
    (void)d;
    return -1;
#else
    if (!d)
        return -1;
    uint4 g = ((const uint4 *)d)[0]; /* armed bits, x of slot 0, x of slot 1 */
    unsigned bx = blockIdx.x;
    bool m0 = (g.x & 1u) && bx == g.y, m1 = (g.x & 2u) && bx == g.z;
    if (!m0 && !m1)
        return -1;
    uint4 h = ((const uint4 *)d)[1]; /* y, z of slot 0; y, z of slot 1 */
    if (m0 && blockIdx.y == h.x && blockIdx.z == h.y)
        return 0;
    if (m1 && blockIdx.y == h.z && blockIdx.z == h.w)
        return 1;
    return -1;
#endif
}

/* One warp-instruction of recorded block which: the first active lane takes a slot, every active
 * lane fills its address. Not inlined, so that the patches' common path stays small. */
static __device__ __noinline__ void record_put(record_dev *d, int which, uint64_t pc, uint32_t kind, uint32_t addr,
                                               uint32_t size, uint32_t flags, uint32_t count)
{
    uint32_t mask = __activemask();
    uint32_t lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    uint32_t leader = __ffs(mask) - 1;
    unsigned long long slot = 0;
    if (lane == leader)
        slot = atomicAdd(&d->next[which], 1ULL);
    slot = __shfl_sync(mask, slot, leader);
    if (slot >= d->max)
        return;
    record_entry *e = &d->entries[which][slot];
    e->addr[lane] = addr;
    if (lane == leader) {
        uint32_t tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        e->pc = pc;
        e->kind = kind;
        e->size = size;
        e->flags = flags;
        e->count = count;
        e->warp = tid / RECORD_WARP;
        e->mask = mask;
    }
}

/* A shared access of one kind (RECORD_KIND_SHARED or RECORD_KIND_REMOTE) at ptr, put into the buffer
 * when the block is the recorded one. */
static __device__ __forceinline__ int record_access(void *userdata, uint64_t pc, void *ptr, uint32_t size,
                                                    uint32_t flags, uint32_t kind)
{
    record_dev *d = (record_dev *)userdata;
    int which = record_which(d);
    if (which >= 0)
        record_put(d, which, pc, kind, (uint32_t)(uintptr_t)ptr, size, flags, 0);
    return RECORD_PATCH_OK;
}

/* LDS, STS, ATOMS: ptr is the offset in the shared window. */
extern "C" __device__ __noinline__ int record_shared(void *userdata, uint64_t pc, void *ptr, uint32_t size,
                                                     uint32_t flags, const void *value)
{
    (void)value;
    return record_access(userdata, pc, ptr, size, flags, RECORD_KIND_SHARED);
}

/* Another block's shared memory in the cluster: counted, not modelled. */
extern "C" __device__ __noinline__ int record_remote(void *userdata, uint64_t pc, void *ptr, uint32_t size,
                                                     uint32_t flags, const void *value)
{
    (void)value;
    return record_access(userdata, pc, ptr, size, flags, RECORD_KIND_REMOTE);
}

/* LDSM, STSM: address is this thread's row (offset in the shared window), count the matrices. */
extern "C" __device__ __noinline__ int record_matrix(void *userdata, uint64_t pc, uint32_t address, uint32_t size,
                                                     uint32_t flags, uint32_t count, const void *value)
{
    (void)value;
    record_dev *d = (record_dev *)userdata;
    int which = record_which(d);
    if (which >= 0)
        record_put(d, which, pc, RECORD_KIND_MATRIX, address, size, flags, count);
    return RECORD_PATCH_OK;
}

/* cp.async (LDGSTS): dst is the shared side, the only side that meets the banks. */
extern "C" __device__ __noinline__ int record_async(void *userdata, uint64_t pc, void *src, uint32_t dst, uint32_t size)
{
    (void)src;
    record_dev *d = (record_dev *)userdata;
    int which = record_which(d);
    if (which >= 0)
        record_put(d, which, pc, RECORD_KIND_ASYNC, dst, size, 2 /* write */, 0);
    return RECORD_PATCH_OK;
}
