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

/* A metric set (one pass): the names of a counter group (src/model/kinds.h: loads, stores,
 * ldmatrix and stmatrix go together, so one configuration serves them all; atomics and cp.async
 * (LDGSTS) each need their own, since no pass holds them with the others), its host object and
 * configuration image. */
struct metric_set {
    const char *names[GPU_COUNTER_GROUP_MAX];
    int n;
    CUpti_Profiler_Host_Object *host = nullptr;
    bytes config;
};

/* The profiling session, opened once per process and kept: initialising CUPTI costs far more
 * than one measurement. */
struct session {
    bool open = false, failed_once = false;
    char why[200] = "";
    CUcontext ctx = nullptr;
    bytes avail;
    const char *chip = nullptr;
    CUpti_RangeProfiler_Object *obj = nullptr;
    bool sass = false; /* the group holds SASS metrics */
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

/* True when the open set m reads exactly the names of group cs. */
bool same_group(const metric_set &m, const gpu_counter_set *cs)
{
    if (m.n != cs->ngroup)
        return false;
    for (int i = 0; i < m.n; i++)
        if (strcmp(m.names[i], cs->group[i]) != 0)
            return false;
    return true;
}

bool session_open(CUcontext ctx, const gpu_counter_set *cs, char *why, size_t n)
{
    S.ctx = ctx;
    S.all.n = cs->ngroup;
    S.sass = false;
    for (int i = 0; i < GPU_COUNTER_GROUP_MAX; i++) {
        S.all.names[i] = i < S.all.n ? cs->group[i] : nullptr;
        S.sass |= i < S.all.n && strncmp(cs->group[i], "smsp__sass_", 11) == 0;
    }
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

/* Profile one launch with metric set m and evaluate its values (one per name). */
bool profile(metric_set &m, bool (*launch)(void *), void *arg, double *values, char *why, size_t n)
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

/* Index of metric name in set m, or -1. */
int metric_index(const metric_set &m, const char *name)
{
    for (int i = 0; name && i < m.n; i++)
        if (strcmp(m.names[i], name) == 0)
            return i;
    return -1;
}

} // namespace

extern "C" bool gpu_counters_read(CUcontext ctx, const gpu_counter_set *cs, bool (*launch)(void *), void *arg,
                                  double *wavefronts, double *conflicts, double *instructions, char *why, size_t n)
{
    if (cs->ngroup < 1 || cs->ngroup > GPU_COUNTER_GROUP_MAX) {
        snprintf(why, n, "counters unavailable: no hardware counter measures this instruction");
        return false;
    }
    /* another metric set: a new session, as a new process would open it (a second configuration
     * on the same range profiler object read NaN for l1tex metrics) */
    if (S.open && !same_group(S.all, cs))
        gpu_counters_close();
    if (!S.open && !S.failed_once) {
        S.open = api_load(S.why, sizeof S.why) && session_open(ctx, cs, S.why, sizeof S.why);
        S.failed_once = !S.open;
    }
    if (!S.open) {
        snprintf(why, n, "%s", S.why);
        return false;
    }
    int iw = metric_index(S.all, cs->wavefronts), ic = metric_index(S.all, cs->conflicts),
        ii = metric_index(S.all, cs->instructions);
    if (iw < 0 || ic < 0 || ii < 0) {
        snprintf(why, n, "counters unavailable: a counter of this instruction is missing from its group");
        return false;
    }
    double v[GPU_COUNTER_GROUP_MAX];
    for (double &x : v)
        x = 0;
    bool ok = profile(S.all, launch, arg, v, why, n);
    /* SASS metrics (the LDGSTS counters: CUPTI patches the kernel): their session is closed
     * before the module is unloaded. Kept open, a process measuring cp.async trace entries one
     * after another crashed (tests/gpu/random.sh on an H200). */
    if (S.sass)
        gpu_counters_close();
    if (!ok)
        return false;
    if (v[iw] != v[iw] || v[ic] != v[ic]) { /* NaN: the counters were not collected */
        snprintf(why, n, "counters unavailable: the profiler returned no value");
        return false;
    }
    *wavefronts = v[iw];
    *conflicts = v[ic];
    *instructions = v[ii];
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
