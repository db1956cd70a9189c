/* calib_tensor: measures single warp-instructions of the tensor-core era on the GPU, for the
 * calibration table tests/data/h200_tensor.tsv (tests/gpu/calib_tensor.sh runs it and merges the
 * passes): ldmatrix / stmatrix (.x1 .x2 .x4, .trans), cp.async (.ca 4/8/16 bytes, .cg 16 bytes) and
 * shared atomics (atom and red: add min max and or xor exch cas inc, 4 and 8 bytes).
 *
 * Input: a table in the calibration columns (id op width wavefronts bank_conflicts cycles
 * addresses), measured columns ignored; per-lane byte offsets into shared memory, -1 = lane
 * inactive (for ldmatrix/stmatrix, a lane whose row address the instruction ignores); op "nop"
 * runs no instruction (the counters' baseline).
 * Output: the same rows on stdout with the measured columns filled, and every metric of every row
 * in METRICS.tsv:
 *   counters: the CUPTI range profiler, one warp issuing the instruction once, for the metrics of
 *     CALIB_METRICS (comma-separated, at most 8, one pass; default: the totals
 *     l1tex__data_pipe_lsu_wavefronts_mem_shared.sum and l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,
 *     which also count one wavefront of every launch and, for cp.async, its asynchronous fill).
 *     The first two metrics go to the wavefronts and bank_conflicts columns. One metric group per
 *     process: a second configuration in the same process read NaN for l1tex metrics.
 *   cycles: throughput, cycles per warp-instruction per SM: every SM full of 16-warp blocks, each
 *     warp repeating the instruction reps x 16 times on its own copy of the region, clock64 per SM.
 * Usage: calib_tensor IN.tsv METRICS.tsv > OUT.tsv   (CALIB_NO_COUNTERS=1: cycles only;
 *        CALIB_NO_CYCLES=1: counters only).
 * Built with: nvcc -O2 -arch=sm_90 -std=c++17 calib_tensor.cu -lcupti -lcuda */
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                \
            exit(1);                                                                                           \
        }                                                                                                      \
    } while (0)

/* ---- the instructions -------------------------------------------------------------------- */
/* F: 1 ldmatrix (A matrices, B trans), 2 stmatrix (A, B), 3 cp.async (A width, B cg),
 * 4 atom/red (A kind, B width, C returns). Kinds: 0 add 1 min 2 max 3 and 4 or 5 xor 6 exch 7 cas 8 inc */
template <int F, int A, int B, int C> struct op {
    static __device__ __forceinline__ void run(unsigned a, const char *g, unsigned &v)
    {
        if constexpr (F == 0) {
            v += a; /* no instruction: the counters' baseline */
        } else if constexpr (F == 1) {
            if constexpr (A == 1) {
                unsigned r;
                if constexpr (B)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a) : "memory");
                else
                    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a) : "memory");
                v += r;
            } else if constexpr (A == 2) {
                unsigned r0, r1;
                if constexpr (B)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
                else
                    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
                v += r0 ^ r1;
            } else {
                unsigned r0, r1, r2, r3;
                if constexpr (B)
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
                else
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
                v += r0 ^ r1 ^ r2 ^ r3;
            }
        } else if constexpr (F == 2) {
            if constexpr (A == 1) {
                if constexpr (B)
                    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(a), "r"(v) : "memory");
                else
                    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(v) : "memory");
            } else if constexpr (A == 2) {
                if constexpr (B)
                    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %1};" ::"r"(a), "r"(v) : "memory");
                else
                    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %1};" ::"r"(a), "r"(v) : "memory");
            } else {
                if constexpr (B)
                    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(v) : "memory");
                else
                    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %1, %1, %1};" ::"r"(a), "r"(v) : "memory");
            }
            v += 1;
        } else if constexpr (F == 3) {
            if constexpr (B)
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a), "l"(g) : "memory");
            else if constexpr (A == 4)
                asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(a), "l"(g) : "memory");
            else if constexpr (A == 8)
                asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(a), "l"(g) : "memory");
            else
                asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(a), "l"(g) : "memory");
            v += 1;
        } else {
            atomic(a, v);
        }
    }

/* The operand is the lane's constant x, not v: the result feeds v alone, so no atomic waits for
 * the one before it (the throughput kernel would measure latency). */
#define ATOM4(K, T)                                                                                            \
    if constexpr (C) {                                                                                         \
        unsigned r;                                                                                            \
        asm volatile("atom.shared." K "." T " %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(x) : "memory");          \
        v += r;                                                                                                \
    } else {                                                                                                   \
        asm volatile("red.shared." K "." T " [%0], %1;" ::"r"(a), "r"(x) : "memory");                         \
        v += 1;                                                                                                \
    }
#define ATOM8(K, T)                                                                                            \
    if constexpr (C) {                                                                                         \
        unsigned long long r;                                                                                  \
        asm volatile("atom.shared." K "." T " %0, [%1], %2;" : "=l"(r) : "r"(a), "l"((unsigned long long)x) : "memory"); \
        v += (unsigned)r;                                                                                      \
    } else {                                                                                                   \
        asm volatile("red.shared." K "." T " [%0], %1;" ::"r"(a), "l"((unsigned long long)x) : "memory");     \
        v += 1;                                                                                                \
    }

    static __device__ __forceinline__ void atomic(unsigned a, unsigned &v)
    {
        const unsigned x = threadIdx.x & 31;
        if constexpr (B == 4) {
            if constexpr (A == 0) { ATOM4("add", "u32") }
            else if constexpr (A == 1) { ATOM4("min", "u32") }
            else if constexpr (A == 2) { ATOM4("max", "u32") }
            else if constexpr (A == 3) { ATOM4("and", "b32") }
            else if constexpr (A == 4) { ATOM4("or", "b32") }
            else if constexpr (A == 5) { ATOM4("xor", "b32") }
            else if constexpr (A == 6) {
                unsigned r;
                asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(r) : "r"(a), "r"(x) : "memory");
                v += r;
            } else if constexpr (A == 7) {
                unsigned r;
                asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"(a), "r"(x), "r"(x + 1) : "memory");
                v += r;
            } else { ATOM4("inc", "u32") }
        } else {
            if constexpr (A == 0) { ATOM8("add", "u64") }
            else if constexpr (A == 1) { ATOM8("min", "u64") }
            else if constexpr (A == 2) { ATOM8("max", "u64") }
            else if constexpr (A == 3) { ATOM8("and", "b64") }
            else if constexpr (A == 4) { ATOM8("or", "b64") }
            else if constexpr (A == 5) { ATOM8("xor", "b64") }
            else if constexpr (A == 6) {
                unsigned long long r;
                asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(r) : "r"(a), "l"((unsigned long long)x) : "memory");
                v += (unsigned)r;
            } else {
                unsigned long long r;
                asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;"
                             : "=l"(r) : "r"(a), "l"((unsigned long long)x), "l"((unsigned long long)x + 1) : "memory");
                v += (unsigned)r;
            }
        }
    }
};

__device__ __forceinline__ unsigned smem_base(unsigned char *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* One warp does the instruction once (counters). */
template <int F, int A, int B, int C> __global__ void k_once(const int *tab, const char *g, unsigned *out)
{
    extern __shared__ __align__(1024) unsigned char sm[];
    int lane = threadIdx.x & 31, off = tab[lane];
    unsigned v = threadIdx.x;
    bool act = off >= 0;
    if (F <= 2 || act)
        op<F, A, B, C>::run(smem_base(sm) + (act ? off : 0), g + (act ? off : 0), v);
    if (F == 3)
        asm volatile("cp.async.wait_all;" ::: "memory");
    out[threadIdx.x] = v;
}

/* Throughput: every warp repeats the instruction reps x 16 times on copy (warp % ncopies). */
template <int F, int A, int B, int C>
__global__ void k_thr(const int *tab, int copy_bytes, int ncopies, const char *g, int reps, unsigned zero,
                      unsigned long long *out)
{
    extern __shared__ __align__(1024) unsigned char sm[];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, off = tab[lane];
    bool act = off >= 0;
    unsigned a = smem_base(sm) + (act ? off : 0) + (unsigned)((warp % ncopies) * copy_bytes);
    const char *gp = g + (act ? off : 0);
    unsigned v = zero, smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    __syncthreads();
    long long t0 = clock64();
    if (F <= 2 || act) {
        for (int r = 0; r < reps; r++) {
#pragma unroll
            for (int u = 0; u < 16; u++) /* zero is 0, but ptxas cannot know: no load is merged or hoisted */
                op<F, A, B, C>::run(a + (unsigned)(r * 16 + u) * zero, gp, v);
            if (F == 3)
                asm volatile("cp.async.wait_all;" ::: "memory");
        }
    }
    int keep = __syncthreads_or(v == zero + 0x7fffffffu);
    long long t1 = clock64();
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x] = smid;
        out[3 * blockIdx.x + 1] = (unsigned long long)t0;
        out[3 * blockIdx.x + 2] = (unsigned long long)t1;
    }
    if (keep)
        out[0] = v;
}

typedef void (*once_fn)(const int *, const char *, unsigned *);
typedef void (*thr_fn)(const int *, int, int, const char *, int, unsigned, unsigned long long *);

struct variant {
    std::string name; /* op column */
    int width;
    once_fn once;
    thr_fn thr;
};

template <int F, int A, int B, int C> variant mk(const char *name, int width)
{
    return variant{name, width, (once_fn)k_once<F, A, B, C>, (thr_fn)k_thr<F, A, B, C>};
}

static std::vector<variant> variants()
{
    std::vector<variant> v;
    v.push_back(mk<0, 0, 0, 0>("nop", 16));
    v.push_back(mk<1, 1, 0, 0>("ldmatrix.x1", 16));
    v.push_back(mk<1, 2, 0, 0>("ldmatrix.x2", 16));
    v.push_back(mk<1, 4, 0, 0>("ldmatrix.x4", 16));
    v.push_back(mk<1, 1, 1, 0>("ldmatrix.x1.trans", 16));
    v.push_back(mk<1, 2, 1, 0>("ldmatrix.x2.trans", 16));
    v.push_back(mk<1, 4, 1, 0>("ldmatrix.x4.trans", 16));
    v.push_back(mk<2, 1, 0, 0>("stmatrix.x1", 16));
    v.push_back(mk<2, 2, 0, 0>("stmatrix.x2", 16));
    v.push_back(mk<2, 4, 0, 0>("stmatrix.x4", 16));
    v.push_back(mk<2, 1, 1, 0>("stmatrix.x1.trans", 16));
    v.push_back(mk<2, 2, 1, 0>("stmatrix.x2.trans", 16));
    v.push_back(mk<2, 4, 1, 0>("stmatrix.x4.trans", 16));
    v.push_back(mk<3, 4, 0, 0>("cp.async.ca", 4));
    v.push_back(mk<3, 8, 0, 0>("cp.async.ca", 8));
    v.push_back(mk<3, 16, 0, 0>("cp.async.ca", 16));
    v.push_back(mk<3, 16, 1, 0>("cp.async.cg", 16));
#define ATOMS(K, NAME)                                                                                         \
    v.push_back(mk<4, K, 4, 1>("atom." NAME, 4));                                                              \
    v.push_back(mk<4, K, 4, 0>("red." NAME, 4));                                                               \
    v.push_back(mk<4, K, 8, 1>("atom." NAME, 8));                                                              \
    v.push_back(mk<4, K, 8, 0>("red." NAME, 8));
    ATOMS(0, "add") ATOMS(1, "min") ATOMS(2, "max") ATOMS(3, "and") ATOMS(4, "or") ATOMS(5, "xor")
    v.push_back(mk<4, 6, 4, 1>("atom.exch", 4));
    v.push_back(mk<4, 6, 8, 1>("atom.exch", 8));
    v.push_back(mk<4, 7, 4, 1>("atom.cas", 4));
    v.push_back(mk<4, 7, 8, 1>("atom.cas", 8));
    v.push_back(mk<4, 8, 4, 1>("atom.inc", 4));
    v.push_back(mk<4, 8, 4, 0>("red.inc", 4));
    return v;
}

/* ---- CUPTI -------------------------------------------------------------------------------- */
static const char *TOTALS[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"};

template <typename T> static T P(size_t s)
{
    T p;
    memset(&p, 0, sizeof p);
    p.structSize = s;
    return p;
}
#define CU(x)                                                                                                  \
    do {                                                                                                       \
        CUptiResult r_ = (x);                                                                                  \
        if (r_ != CUPTI_SUCCESS) {                                                                             \
            const char *s_ = 0;                                                                                \
            cuptiGetResultString(r_, &s_);                                                                     \
            fprintf(stderr, "%s: %s\n", #x, s_ ? s_ : "?");                                                    \
            return false;                                                                                      \
        }                                                                                                      \
    } while (0)

struct group {
    const char **names;
    int n;
    CUpti_Profiler_Host_Object *host = nullptr;
    std::vector<uint8_t> config;
};
static CUpti_RangeProfiler_Object *g_obj;
static const char *g_chip;
static std::vector<uint8_t> g_avail;

static bool group_open(group &m)
{
    auto hi = P<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = g_chip;
    hi.pCounterAvailabilityImage = g_avail.data();
    CU(cuptiProfilerHostInitialize(&hi));
    m.host = hi.pHostObject;
    auto am = P<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    am.pHostObject = m.host;
    am.ppMetricNames = m.names;
    am.numMetrics = m.n;
    CU(cuptiProfilerHostConfigAddMetrics(&am));
    auto cis = P<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    cis.pHostObject = m.host;
    CU(cuptiProfilerHostGetConfigImageSize(&cis));
    m.config.resize(cis.configImageSize);
    auto gci = P<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    gci.pHostObject = m.host;
    gci.configImageSize = m.config.size();
    gci.pConfigImage = m.config.data();
    CU(cuptiProfilerHostGetConfigImage(&gci));
    return true;
}

static bool cupti_open(CUcontext ctx, group *gs, int ng)
{
    auto init = P<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    CU(cuptiProfilerInitialize(&init));
    auto chip = P<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = 0;
    CU(cuptiDeviceGetChipName(&chip));
    g_chip = chip.pChipName;
    auto av = P<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    av.ctx = ctx;
    CU(cuptiProfilerGetCounterAvailability(&av));
    g_avail.resize(av.counterAvailabilityImageSize);
    av.pCounterAvailabilityImage = g_avail.data();
    CU(cuptiProfilerGetCounterAvailability(&av));
    for (int i = 0; i < ng; i++)
        if (!group_open(gs[i]))
            return false;
    auto en = P<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    en.ctx = ctx;
    CU(cuptiRangeProfilerEnable(&en));
    g_obj = en.pRangeProfilerObject;
    return true;
}

template <typename L> static bool profile(group &m, L launch, double *values)
{
    auto cds = P<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    cds.pRangeProfilerObject = g_obj;
    cds.pMetricNames = m.names;
    cds.numMetrics = m.n;
    cds.maxNumOfRanges = 1;
    cds.maxNumRangeTreeNodes = 1;
    CU(cuptiRangeProfilerGetCounterDataSize(&cds));
    std::vector<uint8_t> data(cds.counterDataSize);
    auto ci = P<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    ci.pRangeProfilerObject = g_obj;
    ci.counterDataSize = data.size();
    ci.pCounterData = data.data();
    CU(cuptiRangeProfilerCounterDataImageInitialize(&ci));
    auto sc = P<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    sc.pRangeProfilerObject = g_obj;
    sc.configSize = m.config.size();
    sc.pConfig = m.config.data();
    sc.counterDataImageSize = data.size();
    sc.pCounterDataImage = data.data();
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CU(cuptiRangeProfilerSetConfig(&sc));
    auto start = P<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = g_obj;
    CU(cuptiRangeProfilerStart(&start));
    launch();
    CK(cudaDeviceSynchronize());
    auto stop = P<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = g_obj;
    CU(cuptiRangeProfilerStop(&stop));
    auto dec = P<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    dec.pRangeProfilerObject = g_obj;
    CU(cuptiRangeProfilerDecodeData(&dec));
    auto ev = P<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = m.host;
    ev.pCounterDataImage = data.data();
    ev.counterDataImageSize = data.size();
    ev.rangeIndex = 0;
    ev.ppMetricNames = m.names;
    ev.numMetrics = m.n;
    ev.pMetricValues = values;
    CU(cuptiProfilerHostEvaluateToGpuValues(&ev));
    return true;
}

/* ---- throughput ------------------------------------------------------------------------- */
static int g_sms;

static double thr_once(const variant &v, const int *dtab, int copy, int ncopies, const char *g, int reps,
                       unsigned grid, size_t smem, unsigned long long *dout)
{
    v.thr<<<grid, 512, smem>>>(dtab, copy, ncopies, g, reps, 0u, dout);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<unsigned long long> t(3 * grid);
    CK(cudaMemcpy(t.data(), dout, 8 * t.size(), cudaMemcpyDeviceToHost));
    std::vector<unsigned long long> lo(g_sms, ~0ull), hi(g_sms, 0);
    std::vector<int> nb(g_sms, 0);
    for (unsigned b = 0; b < grid; b++) {
        unsigned s = (unsigned)t[3 * b];
        if (s >= (unsigned)g_sms)
            continue;
        lo[s] = std::min(lo[s], t[3 * b + 1]);
        hi[s] = std::max(hi[s], t[3 * b + 2]);
        nb[s]++;
    }
    std::vector<double> c;
    for (int s = 0; s < g_sms; s++)
        if (nb[s])
            c.push_back((double)(hi[s] - lo[s]) / (nb[s] * 16.0 * reps * 16.0)); /* 16 warps per block */
    std::sort(c.begin(), c.end());
    return c.empty() ? 0 : c[c.size() / 2];
}

static double throughput(const variant &v, const int *tab, const int *dtab, const char *g, unsigned long long *dout)
{
    int hi = 16;
    for (int l = 0; l < 32; l++)
        hi = std::max(hi, tab[l] + v.width);
    int copy = (hi + 127) / 128 * 128;
    /* a copy per warp where it fits: warps sharing a copy can slow atomics on one address */
    int ncopies = std::max(1, std::min(16, 220 * 1024 / copy));
    size_t smem = (size_t)copy * ncopies;
    if (smem > 48 * 1024)
        CK(cudaFuncSetAttribute((const void *)v.thr, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    int k = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&k, (const void *)v.thr, 512, smem));
    if (k < 1)
        return -1;
    unsigned grid = (unsigned)(k * g_sms);
    double c = thr_once(v, dtab, copy, ncopies, g, 16, grid, smem, dout);
    int reps = c > 0 ? (int)(4.0e5 / (c * 16 * 16 * k)) : 64;
    reps = std::max(8, std::min(4096, reps));
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = thr_once(v, dtab, copy, ncopies, g, reps, grid, smem, dout);
    std::sort(r, r + 3);
    return r[1];
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: calib_tensor IN.tsv METRICS.tsv > OUT.tsv\n");
        return 2;
    }
    bool counters = !getenv("CALIB_NO_COUNTERS"), cycles = !getenv("CALIB_NO_CYCLES");
    CK(cudaFree(0));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    g_sms = prop.multiProcessorCount;
    CUcontext ctx;
    cuCtxGetCurrent(&ctx);
    static const char *custom[8];
    int ncustom = 0;
    static char mbuf[2048];
    if (getenv("CALIB_METRICS")) {
        snprintf(mbuf, sizeof mbuf, "%s", getenv("CALIB_METRICS"));
        for (char *t = strtok(mbuf, ","); t && ncustom < 8; t = strtok(nullptr, ","))
            custom[ncustom++] = t;
    }
    group gs[1] = {{TOTALS, 2}};
    int ngroups = 1;
    if (ncustom)
        gs[0] = group{custom, ncustom};
    if (counters && !cupti_open(ctx, gs, ngroups)) {
        fprintf(stderr, "CUPTI unavailable\n");
        return 1;
    }
    std::vector<variant> vs = variants();
    FILE *in = fopen(argv[1], "r"), *mf = fopen(argv[2], "w");
    if (!in || !mf) {
        perror("open");
        return 1;
    }
    int *dtab;
    char *g;
    unsigned *dout1;
    unsigned long long *dout;
    CK(cudaMalloc(&dtab, 33 * sizeof(int)));
    CK(cudaMalloc(&g, 1 << 20));
    CK(cudaMemset(g, 1, 1 << 20));
    CK(cudaMalloc(&dout1, 32 * sizeof(unsigned)));
    CK(cudaMalloc(&dout, 3 * 8 * 132 * 64 + 64));
    printf("# %s (sm_%d%d), CUDA %d: %s\n", prop.name, prop.major, prop.minor, CUDART_VERSION / 1000,
           counters ? (ncustom ? getenv("CALIB_METRICS") : "totals") : "cycles only");
    printf("id\top\twidth\twavefronts\tbank_conflicts\tcycles\taddresses\n");
    fprintf(mf, "id\top\twidth");
    for (int k = 0; k < ngroups; k++)
        for (int i = 0; i < gs[k].n; i++)
            fprintf(mf, "\t%s", gs[k].names[i]);
    fprintf(mf, "\n");
    char line[8192];
    int rows = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || strncmp(line, "id\t", 3) == 0)
            continue;
        char id[200], opn[64];
        int width, used;
        double d1, d2, d3;
        if (sscanf(line, "%199s %63s %d %lf %lf %lf %n", id, opn, &width, &d1, &d2, &d3, &used) != 6)
            continue;
        int tab[33];
        char *q = line + used;
        for (int l = 0; l < 32; l++)
            tab[l] = (int)strtol(q, &q, 10);
        const variant *v = nullptr;
        for (auto &x : vs)
            if (x.name == opn && x.width == width)
                v = &x;
        if (!v) {
            fprintf(stderr, "%s: unknown op %s width %d\n", id, opn, width);
            continue;
        }
        CK(cudaMemcpy(dtab, tab, 32 * sizeof(int), cudaMemcpyHostToDevice));
        int hi = 16;
        for (int l = 0; l < 32; l++)
            hi = std::max(hi, tab[l] + 16);
        size_t smem = (size_t)(hi + 127) / 128 * 128;
        if (smem > 48 * 1024)
            CK(cudaFuncSetAttribute((const void *)v->once, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        auto launch = [&]() { v->once<<<1, 32, smem>>>(dtab, g, dout1); };
        double vals[1][8] = {{0}};
        bool ok = true;
        if (counters)
            for (int i = 0; i < ngroups && ok; i++)
                ok = profile(gs[i], launch, vals[i]);
        if (!counters) {
            launch();
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
        }
        double cyc = cycles ? throughput(*v, tab, dtab, g, dout) : -1;
        printf("%s\t%s\t%d\t%.0f\t%.0f\t%.3f\t", id, opn, width, ok && counters ? vals[0][0] : -1,
               ok && counters ? vals[0][1] : -1, cyc);
        for (int l = 0; l < 32; l++)
            printf("%d%c", tab[l], l == 31 ? '\n' : ' ');
        fprintf(mf, "%s\t%s\t%d", id, opn, width);
        for (int i = 0; i < ngroups; i++)
            for (int j = 0; j < gs[i].n; j++)
                fprintf(mf, "\t%.0f", vals[i][j]);
        fprintf(mf, "\n");
        fflush(stdout);
        fflush(mf);
        rows++;
    }
    fprintf(stderr, "%d rows measured on %s\n", rows, prop.name);
    return 0;
}
