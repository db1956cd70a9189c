/* gpu_counters: the CUPTI range profiler (CUDA 13) reading Nsight Compute's shared-memory
 * metrics for one kernel launch: wavefronts, bank conflicts, shared instructions. C++ because
 * cupti_profiler_host.h needs it; the interface is extern "C" (gpu_internal.h). */
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "gpu/gpu_internal.h"

namespace {

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
    cuptiGetResultString(r, &s);
    snprintf(why, n, "counters unavailable: %s: %s", what, s ? s : "error");
    return true;
}

} // namespace

#define CUPTI_TRY(call, what)                                                                                  \
    do {                                                                                                       \
        CUptiResult r_ = (call);                                                                               \
        if (r_ != CUPTI_SUCCESS) {                                                                             \
            failed(r_, what, why, n);                                                                          \
            goto done;                                                                                         \
        }                                                                                                      \
    } while (0)

extern "C" bool gpu_counters_read(CUcontext ctx, bool store, bool (*launch)(void *), void *arg, double *wavefronts,
                                  double *conflicts, double *instructions, char *why, size_t n)
{
    static const char *ld[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                               "smsp__inst_executed_op_shared_ld.sum"};
    static const char *st[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                               "smsp__inst_executed_op_shared_st.sum"};
    const char **metrics = store ? st : ld;
    bool ok = false, host_up = false, enabled = false;
    CUpti_Profiler_Host_Object *host = nullptr;
    CUpti_RangeProfiler_Object *obj = nullptr;
    std::vector<uint8_t> avail, config, data;
    double values[3] = {0, 0, 0};

    CUpti_Profiler_Initialize_Params init = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    CUpti_Device_GetChipName_Params chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    CUpti_Profiler_GetCounterAvailability_Params av = params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    CUpti_Profiler_Host_Initialize_Params hi = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    CUpti_Profiler_Host_ConfigAddMetrics_Params am = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    CUpti_Profiler_Host_GetConfigImageSize_Params cis = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    CUpti_Profiler_Host_GetConfigImage_Params gci = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_Enable_Params en = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_GetCounterDataSize_Params cds = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_SetConfig_Params sc = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_Start_Params start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_Stop_Params stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_DecodeData_Params dec = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    CUpti_RangeProfiler_GetCounterDataInfo_Params info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);

    CUPTI_TRY(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    chip.deviceIndex = 0;
    CUPTI_TRY(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
    av.ctx = ctx;
    CUPTI_TRY(cuptiProfilerGetCounterAvailability(&av), "cuptiProfilerGetCounterAvailability");
    avail.resize(av.counterAvailabilityImageSize);
    av.pCounterAvailabilityImage = avail.data();
    CUPTI_TRY(cuptiProfilerGetCounterAvailability(&av), "cuptiProfilerGetCounterAvailability");

    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = chip.pChipName;
    hi.pCounterAvailabilityImage = avail.data();
    CUPTI_TRY(cuptiProfilerHostInitialize(&hi), "cuptiProfilerHostInitialize");
    host = hi.pHostObject;
    host_up = true;
    am.pHostObject = host;
    am.ppMetricNames = metrics;
    am.numMetrics = 3;
    CUPTI_TRY(cuptiProfilerHostConfigAddMetrics(&am), "cuptiProfilerHostConfigAddMetrics");
    cis.pHostObject = host;
    CUPTI_TRY(cuptiProfilerHostGetConfigImageSize(&cis), "cuptiProfilerHostGetConfigImageSize");
    config.resize(cis.configImageSize);
    gci.pHostObject = host;
    gci.configImageSize = config.size();
    gci.pConfigImage = config.data();
    CUPTI_TRY(cuptiProfilerHostGetConfigImage(&gci), "cuptiProfilerHostGetConfigImage");

    en.ctx = ctx;
    CUPTI_TRY(cuptiRangeProfilerEnable(&en), "cuptiRangeProfilerEnable");
    obj = en.pRangeProfilerObject;
    enabled = true;
    cds.pRangeProfilerObject = obj;
    cds.pMetricNames = metrics;
    cds.numMetrics = 3;
    cds.maxNumOfRanges = 1;
    cds.maxNumRangeTreeNodes = 1;
    CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize(&cds), "cuptiRangeProfilerGetCounterDataSize");
    data.resize(cds.counterDataSize);
    ci.pRangeProfilerObject = obj;
    ci.counterDataSize = data.size();
    ci.pCounterData = data.data();
    CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize(&ci), "cuptiRangeProfilerCounterDataImageInitialize");
    sc.pRangeProfilerObject = obj;
    sc.configSize = config.size();
    sc.pConfig = config.data();
    sc.counterDataImageSize = data.size();
    sc.pCounterDataImage = data.data();
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CUPTI_TRY(cuptiRangeProfilerSetConfig(&sc), "cuptiRangeProfilerSetConfig");
    start.pRangeProfilerObject = obj;
    CUPTI_TRY(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
    if (!launch(arg)) {
        snprintf(why, n, "counters unavailable: the kernel launch failed");
        goto done;
    }
    stop.pRangeProfilerObject = obj;
    CUPTI_TRY(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
    dec.pRangeProfilerObject = obj;
    CUPTI_TRY(cuptiRangeProfilerDecodeData(&dec), "cuptiRangeProfilerDecodeData");
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    CUPTI_TRY(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges < 1) {
        snprintf(why, n, "counters unavailable: no range was recorded");
        goto done;
    }
    ev.pHostObject = host;
    ev.pCounterDataImage = data.data();
    ev.counterDataImageSize = data.size();
    ev.rangeIndex = 0;
    ev.ppMetricNames = metrics;
    ev.numMetrics = 3;
    ev.pMetricValues = values;
    CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues(&ev), "cuptiProfilerHostEvaluateToGpuValues");
    *wavefronts = values[0];
    *conflicts = values[1];
    *instructions = values[2];
    ok = true;
done:
    if (enabled) {
        CUpti_RangeProfiler_Disable_Params dis = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
        dis.pRangeProfilerObject = obj;
        cuptiRangeProfilerDisable(&dis);
    }
    if (host_up) {
        CUpti_Profiler_Host_Deinitialize_Params hd = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
        hd.pHostObject = host;
        cuptiProfilerHostDeinitialize(&hd);
    }
    CUpti_Profiler_DeInitialize_Params deinit = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    cuptiProfilerDeInitialize(&deinit);
    return ok;
}
