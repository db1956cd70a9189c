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
/* The instruction (banks_op): 0 load, 1 store, 2 ldmatrix, 3 stmatrix, 4 atomic, 5 cp.async,
 * 7 atomic.popc (atomicAdd(p, 1) whose result is unused: ATOMS.POPC.INC); for
 * ldmatrix/stmatrix the matrices (1, 2, 4) and .trans; for atomics the operation (0 add, 1 min,
 * 2 max, 3 and, 4 or, 5 xor, 6 exch, 7 cas, 8 inc) and whether it returns (atom) or not (red). */
#define BS_OP @OP@
#define BS_MATRICES @MATRICES@
#define BS_TRANS @TRANS@
#define BS_ATOMIC @ATOMIC@
#define BS_RETURNS @RETURNS@
/* ldmatrix/stmatrix are .sync.aligned: every lane of the warp issues them; lanes past 8 x
 * matrices give the start of shared memory, which the instruction ignores. */
#define BS_MATRIX (BS_OP == 2 || BS_OP == 3)
#if BS_TRANS
#define BS_TRANS_TEXT ".trans"
#else
#define BS_TRANS_TEXT ""
#endif
/* PTX spelling of the atomic: operation and type (u32/u64 for add, min, max, inc; b32/b64 else) */
#if BS_ATOMIC == 0
#define BS_ATOMIC_NAME "add"
#elif BS_ATOMIC == 1
#define BS_ATOMIC_NAME "min"
#elif BS_ATOMIC == 2
#define BS_ATOMIC_NAME "max"
#elif BS_ATOMIC == 3
#define BS_ATOMIC_NAME "and"
#elif BS_ATOMIC == 4
#define BS_ATOMIC_NAME "or"
#elif BS_ATOMIC == 5
#define BS_ATOMIC_NAME "xor"
#else
#define BS_ATOMIC_NAME "inc"
#endif
#if BS_ATOMIC >= 3 && BS_ATOMIC <= 7
#define BS_ATOMIC_TYPE "b"
#else
#define BS_ATOMIC_TYPE "u"
#endif

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


/* The tensor-era instructions, in inline PTX exactly as tests/gpu/calib_tensor.cu measured them
 * (tests/data/h200_tensor.tsv). Atomics take the lane's constant operand, not v, so that no atomic
 * waits for the result of the one before. cp.async copies from bs_global, a device buffer (the
 * kernels pass their output buffer: what it holds does not matter), at the same offset as the
 * shared destination modulo 64 KB, as the calibration did: the source's alignment changes the
 * shared-side wavefronts (4-byte copies of consecutive words from sources 16 bytes apart: 4
 * wavefronts instead of 1). The caller waits for the copies. */
extern __shared__ __align__(128) unsigned char bs_global_base[]; /* the kernels' bs_smem */
__device__ __forceinline__ void bs_tensor_access(unsigned a, unsigned &v, const unsigned char *bs_global)
{
    const unsigned x = threadIdx.x & 31;
    (void)x;
#if BS_OP == 2
#if BS_MATRICES == 1
    unsigned r0;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1" BS_TRANS_TEXT ".shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a) : "memory");
    v += r0;
#elif BS_MATRICES == 2
    unsigned r0, r1;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2" BS_TRANS_TEXT ".shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
    v += r0 ^ r1;
#else
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4" BS_TRANS_TEXT ".shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
    v += r0 ^ r1 ^ r2 ^ r3;
#endif
#elif BS_OP == 3
#if BS_MATRICES == 1
    asm volatile("stmatrix.sync.aligned.m8n8.x1" BS_TRANS_TEXT ".shared.b16 [%0], {%1};" :: "r"(a), "r"(v) : "memory");
#elif BS_MATRICES == 2
    asm volatile("stmatrix.sync.aligned.m8n8.x2" BS_TRANS_TEXT ".shared.b16 [%0], {%1, %1};" :: "r"(a), "r"(v) : "memory");
#else
    asm volatile("stmatrix.sync.aligned.m8n8.x4" BS_TRANS_TEXT ".shared.b16 [%0], {%1, %1, %1, %1};" :: "r"(a), "r"(v) : "memory");
#endif
    v += 1;
#elif BS_OP == 5
    const unsigned char *g = bs_global + ((a - (unsigned)__cvta_generic_to_shared(bs_global_base)) & 0xffffu);
#if BS_WIDTH == 4
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(a), "l"(g) : "memory");
#elif BS_WIDTH == 8
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(a), "l"(g) : "memory");
#else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(a), "l"(g) : "memory");
#endif
    v += 1;
#elif BS_OP == 7
    /* atomicAdd(&s[i], 1u) with its result unused, in the PTX nvcc emits for it (atom with the
     * constant 1, the result dropped): ptxas makes it ATOMS.POPC.INC.32 */
    asm volatile("{.reg .b32 bs_t; atom.shared.add.u32 bs_t, [%0], 1;}" :: "r"(a) : "memory");
    v += 1;
#elif BS_OP == 4 && BS_ATOMIC == 6 && BS_WIDTH == 4
    unsigned r;
    asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(x) : "memory");
    v += r;
#elif BS_OP == 4 && BS_ATOMIC == 6
    unsigned long long r;
    asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(r) : "r"(a), "l"((unsigned long long)x) : "memory");
    v += (unsigned)r;
#elif BS_OP == 4 && BS_ATOMIC == 7
#if BS_WIDTH == 4
    unsigned r;
    asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(a), "r"(x), "r"(x + 1) : "memory");
#else
    unsigned long long r;
    asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;"
                 : "=l"(r) : "r"(a), "l"((unsigned long long)x), "l"((unsigned long long)x + 1) : "memory");
#endif
    v += (unsigned)r;
#elif BS_OP == 4 && BS_RETURNS && BS_WIDTH == 4
    unsigned r;
    asm volatile("atom.shared." BS_ATOMIC_NAME "." BS_ATOMIC_TYPE "32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(x) : "memory");
    v += r;
#elif BS_OP == 4 && BS_RETURNS
    unsigned long long r;
    asm volatile("atom.shared." BS_ATOMIC_NAME "." BS_ATOMIC_TYPE "64 %0, [%1], %2;"
                 : "=l"(r) : "r"(a), "l"((unsigned long long)x) : "memory");
    v += (unsigned)r;
#elif BS_OP == 4 && BS_WIDTH == 4
    asm volatile("red.shared." BS_ATOMIC_NAME "." BS_ATOMIC_TYPE "32 [%0], %1;" :: "r"(a), "r"(x) : "memory");
    v += 1;
#elif BS_OP == 4
    asm volatile("red.shared." BS_ATOMIC_NAME "." BS_ATOMIC_TYPE "64 [%0], %1;" :: "r"(a), "l"((unsigned long long)x) : "memory");
    v += 1;
#endif
}

/* One access; v carries data so that loads are used (and, on request, stores have a value). */
__device__ __forceinline__ void bs_access(unsigned a, unsigned &v, const unsigned char *bs_global = nullptr)
{
#if BS_OP >= 2
    bs_tensor_access(a, v, bs_global);
#elif BS_STORE && BS_STORE_REGISTER_DATA
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

/* Whether this lane issues the access, and where: ldmatrix/stmatrix run in every lane of a warp
 * that has an active lane (the start of shared memory for the others, which it ignores). */
__device__ __forceinline__ bool bs_issue(unsigned char *bs_smem, bool active, unsigned &a)
{
#if BS_MATRIX
    if (!active)
        a = (unsigned)__cvta_generic_to_shared(bs_smem);
    return __any_sync(__activemask(), active);
#else
    (void)bs_smem;
    (void)a;
    return active;
#endif
}

/* cp.async: wait until this thread's copies have landed. */
__device__ __forceinline__ void bs_wait(void)
{
#if BS_OP == 5
    asm volatile("cp.async.wait_all;" ::: "memory");
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
    const unsigned char *g = (const unsigned char *)out;
    bool issue = bs_issue(bs_smem, active, a);
    __syncthreads();
    long long t0 = clock64();
    if (issue) {
        for (int r = 0; r < reps; r++) {
#pragma unroll
            for (int u = 0; u < 16; u++)
#if BS_OP >= 2
                /* zero is 0, but ptxas cannot know it: no ldmatrix is merged with another or hoisted,
                 * no run of idempotent red.and/red.or (or cancelling red.xor) folded */
                bs_access(a + (unsigned)(r * 16 + u) * zero, v, g);
#else
                bs_access(a, v, g);
#endif
            bs_wait();
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
    bool issue = bs_issue(bs_smem, active, a);
    unsigned v = 0, addr = a;
    long long t0 = clock64();
    if (issue) {
        for (int k = 0; k < 64; k++) {
            bs_access(addr, v, (const unsigned char *)out);
            bs_wait();
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
    bool issue = bs_issue(bs_smem, active, a);
    for (unsigned w = 0; w < warps; w++) {
        if ((tid >> 5) == w && issue) {
            bs_access(a, v, (const unsigned char *)out);
            bs_wait();
        }
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
