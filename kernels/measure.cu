/* bankscope measurement kernels, generated from a scenario by src/model/kernelgen.c.
 * One access of the scenario is performed with exactly its width (ld/st.volatile.shared of 1 to 16 bytes,
 * in inline PTX: volatile so that neither NVVM nor ptxas merges, widens or drops it) at exactly the address
 * the scenario's index expressions give. Shared memory is one 128-byte-aligned dynamic buffer;
 * the scenario's arrays are typed views into it at their byte offsets. A trace reads its lane
 * addresses from bs_table (32 byte offsets, -1 for an inactive lane; then the distance between
 * the copies of the region that the warps replaying it use, a multiple of 128 bytes). */
@STRUCTS@
/* BS_ARITH_BEGIN: the model's 64-bit arithmetic (src/model/expr_prog.c), one helper per
 * operator whose C++ form could overflow, trap or round differently; *e (bs_err) is set where
 * the model reports an error, and the lane then takes no part. Division truncates towards zero
 * and >> is arithmetic, as in the model. Written in portable C++ so that tests compile this
 * block on the host and compare it with the model (tests/unit/test_kernel_arith.c). */
#define BS_LLMIN (-0x7fffffffffffffffLL - 1)
__device__ __forceinline__ long long bs_neg(long long a, bool &e)
{
    if (a == BS_LLMIN) { e = true; return 0; }
    return -a;
}
__device__ __forceinline__ long long bs_add(long long a, long long b, bool &e)
{
    long long r = (long long)((unsigned long long)a + (unsigned long long)b);
    if (((a ^ r) & (b ^ r)) < 0) { e = true; return 0; }
    return r;
}
__device__ __forceinline__ long long bs_sub(long long a, long long b, bool &e)
{
    long long r = (long long)((unsigned long long)a - (unsigned long long)b);
    if (((a ^ b) & (a ^ r)) < 0) { e = true; return 0; }
    return r;
}
__device__ __forceinline__ long long bs_mul(long long a, long long b, bool &e)
{
    if (a == 0 || b == 0) return 0;
    if ((a == -1 && b == BS_LLMIN) || (b == -1 && a == BS_LLMIN)) { e = true; return 0; }
    long long r = (long long)((unsigned long long)a * (unsigned long long)b);
    if (r / b != a) { e = true; return 0; }
    return r;
}
__device__ __forceinline__ long long bs_div(long long a, long long b, bool &e)
{
    if (b == 0 || (a == BS_LLMIN && b == -1)) { e = true; return 0; }
    return a / b;
}
__device__ __forceinline__ long long bs_mod(long long a, long long b, bool &e)
{
    if (b == 0 || (a == BS_LLMIN && b == -1)) { e = true; return 0; }
    return a % b;
}
__device__ __forceinline__ long long bs_shl(long long a, long long b, bool &e)
{
    if (b < 0 || b > 63) { e = true; return 0; }
    if (a == 0) return 0;
    if (a < 0 || b == 63 || a > (0x7fffffffffffffffLL >> b)) { e = true; return 0; }
    return (long long)((unsigned long long)a << b);
}
__device__ __forceinline__ long long bs_shr(long long a, long long b, bool &e)
{
    if (b < 0 || b > 63) { e = true; return 0; }
    return a >> b;
}
__device__ __forceinline__ long long bs_min(long long a, long long b) { return a < b ? a : b; }
__device__ __forceinline__ long long bs_max(long long a, long long b) { return a > b ? a : b; }
/* BS_ARITH_END */

#define BS_WIDTH @WIDTH@
#define BS_STORE @STORE@

/* Where this thread's access goes (a shared-window address); *bs_active is false for lanes the
 * scenario leaves out (no thread, 'when' false, out of bounds). */
__device__ __forceinline__ unsigned bs_address(unsigned char *bs_smem, long long bs_loop, const int *bs_table,
                                               bool *bs_active)
{
    const long long bs_tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    const long long bs_lane = bs_tid & 31, bs_warp = bs_tid >> 5;
    (void)bs_lane; (void)bs_warp; (void)bs_loop; (void)bs_table;
@BODY@
}

/* Stores write the zero register (RZ), as the calibration set was measured: no register data
 * is read, so a store costs its wavefronts. With BS_STORE_REGISTER_DATA 1 they write v instead
 * and take a cycle per phase, empty ones included (4 for 16 bytes however few lanes are
 * active; tests/gpu/data-path.sh measures it). */
#define BS_STORE_REGISTER_DATA 0

/* One access; v carries data so that loads are used (and, on request, stores have a value). */
__device__ __forceinline__ void bs_access(unsigned a, unsigned &v)
{
#if BS_STORE && BS_STORE_REGISTER_DATA
#if BS_WIDTH == 1
    asm volatile("st.volatile.shared.u8 [%0], %1;" :: "r"(a), "h"((unsigned short)v) : "memory");
#elif BS_WIDTH == 2
    asm volatile("st.volatile.shared.u16 [%0], %1;" :: "r"(a), "h"((unsigned short)v) : "memory");
#elif BS_WIDTH == 4
    asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory");
#elif BS_WIDTH == 8
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %1};" :: "r"(a), "r"(v) : "memory");
#else
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %1, %1, %1};" :: "r"(a), "r"(v) : "memory");
#endif
    v += 1;
#elif BS_STORE
#if BS_WIDTH == 1
    asm volatile("{.reg .b16 z; mov.b16 z, 0; st.volatile.shared.u8 [%0], z;}" :: "r"(a) : "memory");
#elif BS_WIDTH == 2
    asm volatile("{.reg .b16 z; mov.b16 z, 0; st.volatile.shared.u16 [%0], z;}" :: "r"(a) : "memory");
#elif BS_WIDTH == 4
    asm volatile("{.reg .b32 z; mov.b32 z, 0; st.volatile.shared.u32 [%0], z;}" :: "r"(a) : "memory");
#elif BS_WIDTH == 8
    asm volatile("{.reg .b32 z; mov.b32 z, 0; st.volatile.shared.v2.u32 [%0], {z, z};}" :: "r"(a) : "memory");
#else
    asm volatile("{.reg .b32 z; mov.b32 z, 0; st.volatile.shared.v4.u32 [%0], {z, z, z, z};}" :: "r"(a) : "memory");
#endif
    v += 1;
#else
#if BS_WIDTH == 1
    unsigned short x;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=h"(x) : "r"(a) : "memory");
    v += x;
#elif BS_WIDTH == 2
    unsigned short x;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=h"(x) : "r"(a) : "memory");
    v += x;
#elif BS_WIDTH == 4
    unsigned x;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
    v += x;
#elif BS_WIDTH == 8
    unsigned x, y;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
    v += x ^ y;
#else
    unsigned x, y, z, w;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
    v += x ^ y ^ z ^ w;
#endif
#endif
}

/* Throughput: every resident warp repeats the access reps x 16 times. The closing barrier
 * takes a predicate computed from every loaded value, so no warp passes it before its last load
 * completed. Thread 0 of each block records its SM and the SM clock before and after
 * (out[3*block .. 3*block+2]); the host takes, per SM, the earliest start to the latest end. */
extern "C" __global__ void bs_throughput(long long bs_loop, const int *bs_table, int reps, unsigned zero,
                                         unsigned long long *out)
{
    extern __shared__ __align__(128) unsigned char bs_smem[];
    bool active;
    unsigned a = bs_address(bs_smem, bs_loop, bs_table, &active);
    unsigned v = zero, smid; /* the same value in every lane: stores of v to one address agree */
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    __syncthreads();
    long long t0 = clock64();
    if (active) {
        for (int r = 0; r < reps; r++) {
#pragma unroll
            for (int u = 0; u < 16; u++)
                bs_access(a, v);
        }
    }
    int keep = __syncthreads_or(v == zero + 0x7fffffffu);
    long long t1 = clock64();
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
        out[3 * blockIdx.x] = smid;
        out[3 * blockIdx.x + 1] = (unsigned long long)t0;
        out[3 * blockIdx.x + 2] = (unsigned long long)t1;
    }
    if (keep)
        out[0] = v;
}

/* Latency: one warp runs a chain of 64 accesses, each address depending on the previous
 * load's data (times zero, so the address stays put); out[0] = cycles for the chain. */
extern "C" __global__ void bs_latency(long long bs_loop, const int *bs_table, int warp, unsigned zero,
                                      unsigned long long *out)
{
    extern __shared__ __align__(128) unsigned char bs_smem[];
    bool active;
    unsigned a = bs_address(bs_smem, bs_loop, bs_table, &active);
    unsigned tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    if ((int)(tid >> 5) != warp)
        return;
    unsigned v = 0, addr = a;
    long long t0 = clock64();
    if (active) {
        for (int k = 0; k < 64; k++) {
            bs_access(addr, v);
            addr = a + v * zero;
        }
    }
    asm volatile("" :: "r"(addr));
    long long t1 = clock64();
    if ((tid & 31) == 0)
        out[0] = (unsigned long long)(t1 - t0);
    if (v == zero + 0x7fffffffu)
        out[1] = v;
}

/* Counters: every warp of one block performs the access exactly once, one warp at a time (a
 * barrier that needs the loaded value separates the turns), so that no two warps' requests meet
 * in the shared-memory pipe and the counters are those of single warp-instructions. */
extern "C" __global__ void bs_once(long long bs_loop, const int *bs_table, unsigned zero, unsigned long long *out)
{
    extern __shared__ __align__(128) unsigned char bs_smem[];
    bool active;
    unsigned a = bs_address(bs_smem, bs_loop, bs_table, &active);
    unsigned v = zero;
    unsigned tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    unsigned warps = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
    int keep = 0;
    for (unsigned w = 0; w < warps; w++) {
        if ((tid >> 5) == w && active)
            bs_access(a, v);
        keep |= __syncthreads_or(v == zero + 0x7fffffffu);
    }
    if (keep)
        out[0] = v;
}

/* Addresses: one block; every thread writes the byte offset of its access into shared memory,
 * or -1 when it takes no part, so that measure can check each lane against the model before
 * it measures anything (a mismatch is an error, never a measurement). */
extern "C" __global__ void bs_addresses(long long bs_loop, const int *bs_table, long long *out)
{
    extern __shared__ __align__(128) unsigned char bs_smem[];
    bool active;
    unsigned a = bs_address(bs_smem, bs_loop, bs_table, &active);
    unsigned tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    out[tid] = active ? (long long)(a - (unsigned)__cvta_generic_to_shared(bs_smem)) : -1LL;
}
