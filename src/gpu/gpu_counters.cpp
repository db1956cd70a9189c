/* gpu_counters: the CUPTI range profiler (CUDA 13, loaded at run time) reading Nsight Compute's shared-memory
 * metrics for one kernel launch: wavefronts, bank conflicts, shared instructions. The session
 * (profiler, host objects, configuration images, range profiler) is opened once and kept. C++ because
 * cupti_profiler_host.h needs it; the interface is extern "C" (gpu_internal.h). */
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gpu/gpu_internal.h"

namespace
{

/* CUPTI's entry points, resolved from the library at run time (gpu_libs.c) so that bankscope
 * needs no CUPTI to start; the types come from the CUPTI headers. */
#define CUPTI_FUNCS(X)                                                                                                 \
    X(cuptiDeviceGetChipName)                                                                                          \
    X(cuptiGetResultString)                                                                                            \
    X(cuptiProfilerDeInitialize)                                                                                       \
    X(cuptiProfilerGetCounterAvailability)                                                                             \
    X(cuptiProfilerHostConfigAddMetrics)                                                                               \
    X(cuptiProfilerHostDeinitialize)                                                                                   \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                                            \
    X(cuptiProfilerHostGetConfigImage)                                                                                 \
    X(cuptiProfilerHostGetConfigImageSize)                                                                             \
    X(cuptiProfilerHostInitialize)                                                                                     \
    X(cuptiProfilerInitialize)                                                                                         \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                                    \
    X(cuptiRangeProfilerDecodeData)                                                                                    \
    X(cuptiRangeProfilerDisable)                                                                                       \
    X(cuptiRangeProfilerEnable)                                                                                        \
    X(cuptiRangeProfilerGetCounterDataInfo)                                                                            \
    X(cuptiRangeProfilerGetCounterDataSize)                                                                            \
    X(cuptiRangeProfilerSetConfig)                                                                                     \
    X(cuptiRangeProfilerStart)                                                                                         \
    X(cuptiRangeProfilerStop)
struct cupti_api {
#define CUPTI_FIELD(f) decltype(&::f) f = nullptr;
    CUPTI_FUNCS(CUPTI_FIELD)
#undef CUPTI_FIELD
};

cupti_api api;

/* Load CUPTI and resolve every entry point; false with a reason. */
bool api_load(char *why, size_t n)
{
    char reason[300];
    if (!gpu_lib_open(GPU_LIB_CUPTI, reason, sizeof reason)) {
        snprintf(why, n, "counters unavailable: %.170s", reason);
        return false;
    }
#define CUPTI_LOAD(f)                                                                                                  \
    if (!gpu_lib_sym(GPU_LIB_CUPTI, &api.f, #f, reason, sizeof reason)) {                                              \
        snprintf(why, n, "counters unavailable: %.170s", reason);                                                      \
        return false;                                                                                                  \
    }
    CUPTI_FUNCS(CUPTI_LOAD)
#undef CUPTI_LOAD
    gpu_lib_companion(GPU_LIB_CUPTI, "libnvperf_host.so");
    return true;
}

} // namespace

namespace
{

/* A zeroed byte buffer of a given size, freed with its owner: what std::vector would do here,
 * without making the program depend on the C++ runtime library (a no-GPU run loads none). */
struct bytes {
    uint8_t *p = nullptr;
    size_t n = 0;
    bytes() = default;
    explicit bytes(size_t size)
    {
        resize(size);
    }
    ~bytes()
    {
        std::free(p);
    }
    bytes(const bytes &) = delete;
    bytes &operator=(const bytes &) = delete;
    /* Replace the contents by size zero bytes. */
    void resize(size_t size)
    {
        std::free(p);
        p = static_cast<uint8_t *>(std::calloc(size ? size : 1, 1));
        if (!p)
            util_oom();
        n = size;
    }
    uint8_t *data()
    {
        return p;
    }
    size_t size() const
    {
        return n;
    }
};

/* A zeroed CUPTI parameter struct with its size set (what the API expects). */
template <typename T> T params(size_t size)
{
    T p;
    std::memset(&p, 0, sizeof p);
    p.structSize = size;
    return p;
}

/* Stores "what: CUPTI message" and reports failure. */
bool failed(CUptiResult r, const char *what, char *why, size_t n)
{
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES) {
        snprintf(why, n, "counters need profiling permission");
        return true;
    }
    const char *s = nullptr;
    api.cuptiGetResultString(r, &s);
    snprintf(why, n, "counters unavailable: %s: %s", what, s ? s : "error");
    return true;
}

} // namespace

#define CUPTI_TRY(call, what)                                                                                          \
    do {                                                                                                               \
        CUptiResult r_ = (call);                                                                                       \
        if (r_ != CUPTI_SUCCESS) {                                                                                     \
            failed(r_, what, why, n);                                                                                  \
            return false;                                                                                              \
        }                                                                                                              \
    } while (0)

namespace
{

/* A metric set (one pass): its host object and configuration image. The load and store counters
 * go together, so one configuration serves both; atomics and cp.async (LDGSTS) each need their
 * own, since no pass holds them with the others (cuptiProfilerHostGetNumOfPasses). */
struct metric_set {
    const char *names[6];
    int n;
    CUpti_Profiler_Host_Object *host = nullptr;
    bytes config;
};

const char *const SET_NAMES[3][6] = {
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
     "smsp__inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smsp__inst_executed_op_shared_st.sum"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", "smsp__inst_executed_op_shared_atom.sum"},
    /* LDGSTS: the instruction's own wavefronts; the hardware's ldgsts conflict counter also counts
     * the asynchronous fill and disagreed with it (tests/data/h200_tensor.tsv) */
    {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
     "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
     "smsp__sass_inst_executed_op_ldgsts.sum"}};
const int SET_SIZES[3] = {6, 3, 3};

/* The profiling session, opened once per process and kept: initialising CUPTI costs far more
 * than one measurement. */
struct session {
    bool open = false, failed_once = false;
    char why[200] = "";
    CUcontext ctx = nullptr;
    bytes avail;
    const char *chip = nullptr;
    CUpti_RangeProfiler_Object *obj = nullptr;
    int set = 0; /* index into SET_NAMES of the open set */
    metric_set all{{}, 0, nullptr, {}};
};

session S;

bool set_open(metric_set &m, char *why, size_t n)
{
    auto hi = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = S.chip;
    hi.pCounterAvailabilityImage = S.avail.data();
    CUPTI_TRY(api.cuptiProfilerHostInitialize(&hi), "cuptiProfilerHostInitialize");
    m.host = hi.pHostObject;
    auto am =
        params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    am.pHostObject = m.host;
    am.ppMetricNames = m.names;
    am.numMetrics = (size_t)m.n;
    CUPTI_TRY(api.cuptiProfilerHostConfigAddMetrics(&am), "cuptiProfilerHostConfigAddMetrics");
    auto cis = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    cis.pHostObject = m.host;
    CUPTI_TRY(api.cuptiProfilerHostGetConfigImageSize(&cis), "cuptiProfilerHostGetConfigImageSize");
    m.config.resize(cis.configImageSize);
    auto gci = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    gci.pHostObject = m.host;
    gci.configImageSize = m.config.size();
    gci.pConfigImage = m.config.data();
    CUPTI_TRY(api.cuptiProfilerHostGetConfigImage(&gci), "cuptiProfilerHostGetConfigImage");
    return true;
}

bool session_open(CUcontext ctx, int set, char *why, size_t n)
{
    S.ctx = ctx;
    S.set = set;
    S.all.n = SET_SIZES[set];
    for (int i = 0; i < 6; i++)
        S.all.names[i] = i < S.all.n ? SET_NAMES[set][i] : nullptr;
    auto init = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    CUPTI_TRY(api.cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = 0;
    CUPTI_TRY(api.cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    S.chip = chip.pChipName;
    auto av =
        params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    av.ctx = ctx;
    CUPTI_TRY(api.cuptiProfilerGetCounterAvailability(&av), "cuptiProfilerGetCounterAvailability");
    S.avail.resize(av.counterAvailabilityImageSize);
    av.pCounterAvailabilityImage = S.avail.data();
    CUPTI_TRY(api.cuptiProfilerGetCounterAvailability(&av), "cuptiProfilerGetCounterAvailability");
    if (!set_open(S.all, why, n))
        return false;
    auto en = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    en.ctx = ctx;
    CUPTI_TRY(api.cuptiRangeProfilerEnable(&en), "cuptiRangeProfilerEnable");
    S.obj = en.pRangeProfilerObject;
    return true;
}

/* Profile one launch with metric set m and evaluate its six values. */
bool profile(metric_set &m, bool (*launch)(void *), void *arg, double values[6], char *why, size_t n)
{
    auto cds = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    cds.pRangeProfilerObject = S.obj;
    cds.pMetricNames = m.names;
    cds.numMetrics = (size_t)m.n;
    cds.maxNumOfRanges = 1;
    cds.maxNumRangeTreeNodes = 1;
    CUPTI_TRY(api.cuptiRangeProfilerGetCounterDataSize(&cds), "cuptiRangeProfilerGetCounterDataSize");
    bytes data(cds.counterDataSize);
    auto ci = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    ci.pRangeProfilerObject = S.obj;
    ci.counterDataSize = data.size();
    ci.pCounterData = data.data();
    CUPTI_TRY(api.cuptiRangeProfilerCounterDataImageInitialize(&ci), "cuptiRangeProfilerCounterDataImageInitialize");
    auto sc = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    sc.pRangeProfilerObject = S.obj;
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
    CUPTI_TRY(api.cuptiRangeProfilerSetConfig(&sc), "cuptiRangeProfilerSetConfig");
    auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    start.pRangeProfilerObject = S.obj;
    CUPTI_TRY(api.cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
    bool launched = launch(arg);
    auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = S.obj;
    CUPTI_TRY(api.cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
    if (!launched) {
        snprintf(why, n, "counters unavailable: the kernel launch failed");
        return false;
    }
    auto dec = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    dec.pRangeProfilerObject = S.obj;
    CUPTI_TRY(api.cuptiRangeProfilerDecodeData(&dec), "cuptiRangeProfilerDecodeData");
    auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    CUPTI_TRY(api.cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges < 1) {
        snprintf(why, n, "counters unavailable: no range was recorded");
        return false;
    }
    auto ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    ev.pHostObject = m.host;
    ev.pCounterDataImage = data.data();
    ev.counterDataImageSize = data.size();
    ev.rangeIndex = 0;
    ev.ppMetricNames = m.names;
    ev.numMetrics = (size_t)m.n;
    ev.pMetricValues = values;
    CUPTI_TRY(api.cuptiProfilerHostEvaluateToGpuValues(&ev), "cuptiProfilerHostEvaluateToGpuValues");
    return true;
}

} // namespace

extern "C" bool gpu_counters_read(CUcontext ctx, gpu_counter_set cs, bool (*launch)(void *), void *arg,
                                  double *wavefronts, double *conflicts, double *instructions, char *why, size_t n)
{
    int set = cs == GPU_COUNT_ATOM ? 1 : cs == GPU_COUNT_LDGSTS ? 2 : 0;
    /* another metric set: a new session, as a new process would open it (a second configuration
     * on the same range profiler object read NaN for l1tex metrics) */
    if (S.open && S.set != set)
        gpu_counters_close();
    if (!S.open && !S.failed_once) {
        S.open = api_load(S.why, sizeof S.why) && session_open(ctx, set, S.why, sizeof S.why);
        S.failed_once = !S.open;
    }
    if (!S.open) {
        snprintf(why, n, "%s", S.why);
        return false;
    }
    double v[6] = {0, 0, 0, 0, 0, 0};
    bool ok = profile(S.all, launch, arg, v, why, n);
    /* The LDGSTS counters are SASS metrics (CUPTI patches the kernel): their session is closed
     * before the module is unloaded. Kept open, a process measuring cp.async trace entries one
     * after another crashed (tests/gpu/random.sh on an H200). */
    if (set == 2)
        gpu_counters_close();
    if (!ok)
        return false;
    int k = cs == GPU_COUNT_ST ? 3 : 0;
    if (v[k] != v[k] || v[k + 1] != v[k + 1]) { /* NaN: the counters were not collected */
        snprintf(why, n, "counters unavailable: the profiler returned no value");
        return false;
    }
    *wavefronts = v[k];
    *conflicts = v[k + 1];
    *instructions = v[k + 2];
    return true;
}

extern "C" void gpu_counters_close(void)
{
    if (!S.open)
        return;
    auto dis = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    dis.pRangeProfilerObject = S.obj;
    api.cuptiRangeProfilerDisable(&dis);
    auto hd = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    hd.pHostObject = S.all.host;
    if (S.all.host)
        api.cuptiProfilerHostDeinitialize(&hd);
    S.all.host = nullptr;
    auto deinit = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    api.cuptiProfilerDeInitialize(&deinit);
    S.open = false;
}
