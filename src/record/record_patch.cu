/* record_patch: the device functions the Compute Sanitizer patching API calls before every
 * shared-memory instruction of the recorded program (compiled with nvcc --fatbin
 * --compile-as-tools-patch; loaded by record_capture.c with sanitizerAddPatchesFromFile).
 * Their signatures are the documented callback types of sanitizer_patching.h
 * (SanitizerCallbackMemoryAccess, ...MatrixMemoryAccess, ...MemcpyAsync). Each runs per
 * thread: threads of any block but the chosen one, and every thread of an unarmed launch,
 * return at once; in the chosen block the warp's first active lane takes one entry of
 * record_dev and every active lane writes its address there. */
#include <stdint.h>

#include "record_dev.h"

/* SanitizerPatchResult: 0 is success (any other value exits the thread). */
#define RECORD_PATCH_OK 0

/* Whether this thread belongs to the block and launch being recorded. */
static __device__ __forceinline__ bool record_mine(const record_dev *d)
{
    if (!d)
        return false;
    uint4 g = *(const uint4 *)d; /* armed, block x, y, z in one load */
    return g.x && blockIdx.x == g.y && blockIdx.y == g.z && blockIdx.z == g.w;
}

/* One warp-instruction: the first active lane takes a slot, every active lane fills its address. */
static __device__ __forceinline__ void record_put(record_dev *d, uint64_t pc, uint32_t kind, uint32_t addr,
                                                  uint32_t size, uint32_t flags, uint32_t count)
{
    uint32_t mask = __activemask();
    uint32_t lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    uint32_t leader = __ffs(mask) - 1;
    unsigned long long slot = 0;
    if (lane == leader)
        slot = atomicAdd(&d->next, 1ULL);
    slot = __shfl_sync(mask, slot, leader);
    if (slot >= d->max)
        return;
    record_entry *e = &d->entries[slot];
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
    if (record_mine(d))
        record_put(d, pc, kind, (uint32_t)(uintptr_t)ptr, size, flags, 0);
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
    if (record_mine(d))
        record_put(d, pc, RECORD_KIND_MATRIX, address, size, flags, count);
    return RECORD_PATCH_OK;
}

/* cp.async (LDGSTS): dst is the shared side, the only side that meets the banks. */
extern "C" __device__ __noinline__ int record_async(void *userdata, uint64_t pc, void *src, uint32_t dst, uint32_t size)
{
    (void)src;
    record_dev *d = (record_dev *)userdata;
    if (record_mine(d))
        record_put(d, pc, RECORD_KIND_ASYNC, dst, size, 2 /* write */, 0);
    return RECORD_PATCH_OK;
}
