/* sass_metrics: CUPTI SASS metrics around one launch (flow of the CUPTI sass_metrics sample, CUDA
 * 13: cuptiProfilerInitialize, cuptiSassMetricsSetConfig, Enable with lazy patching so only the
 * functions launched inside the range are patched, then GetDataProperties + FlushData, Disable,
 * UnsetConfig). GPU granularity: one instance per metric, the sum over all SMs. The data come as
 * one record per (instruction, metric); they are summed per pc here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/cupti_api.h"
#include "record/sass_metrics.h"

/* The metrics, in sass_metrics_pc's order (names as cuptiSassMetricsGetMetrics lists them on sm_90). */
static const char *const metric_name[3] = {
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
    "smsp__sass_inst_executed",
};

typedef struct {
    void *data;
    size_t size;
    uint32_t crc; /* the low 32 bits of cuptiGetCubinCrc, as the SASS records carry it */
} cubin_copy;

struct sass_metrics {
    cubin_copy *cubins;
    size_t ncubins, capcubins;
    uint64_t metric_id[3];
    uint32_t device;
    bool configured, enabled;
    sass_metrics_pc *pcs;
    size_t npcs;
};

/* malloc that never returns NULL (the program's own allocation failure is no place to recover). */
static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fputs("bankscope: out of memory in the measuring library\n", stderr);
        abort();
    }
    return p;
}

sass_metrics *sass_metrics_new(char *why, size_t n)
{
    if (!cupti_api_load(why, n))
        return NULL;
    sass_metrics *sm = xmalloc(sizeof *sm);
    memset(sm, 0, sizeof *sm);
    return sm;
}

void sass_metrics_module(sass_metrics *sm, const void *cubin, size_t size)
{
    if (!sm || !cubin || !size)
        return;
    CUpti_GetCubinCrcParams p = {.size = CUpti_GetCubinCrcParamsSize, .cubinSize = size, .cubin = cubin};
    if (cupti_api.cuptiGetCubinCrc(&p) != CUPTI_SUCCESS)
        return;
    if (sm->ncubins == sm->capcubins) {
        size_t cap = sm->capcubins ? 2 * sm->capcubins : 8;
        cubin_copy *c = realloc(sm->cubins, cap * sizeof *c);
        if (!c)
            return;
        sm->cubins = c;
        sm->capcubins = cap;
    }
    cubin_copy *c = &sm->cubins[sm->ncubins++];
    c->data = xmalloc(size);
    memcpy(c->data, cubin, size);
    c->size = size;
    c->crc = (uint32_t)p.cubinCrc;
}

/* The reason for a failed CUPTI call: the permission note for CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
 * (whichever call says it), else what failed and CUPTI's error name. Returns false. */
static bool cupti_fail(CUptiResult r, const char *what, char *why, size_t n)
{
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        snprintf(why, n,
                 "no permission to profile this GPU (NVreg_RestrictProfilingToAdminUsers=1: run as root or "
                 "allow profiling for all users)");
    else
        snprintf(why, n, "%s: %s", what, cupti_api_error(r));
    return false;
}

/* Profiler initialisation, device support and the metric ids; false with a reason. */
static bool configure(sass_metrics *sm, CUcontext ctx, char *why, size_t n)
{
    CUdevice dev;
    bool pushed = cupti_driver.ctx_push(ctx) == CUDA_SUCCESS;
    bool got = pushed && cupti_driver.ctx_get_device(&dev) == CUDA_SUCCESS;
    CUcontext dummy;
    if (pushed)
        cupti_driver.ctx_pop(&dummy);
    if (!got) {
        snprintf(why, n, "no CUDA device for the launch's context");
        return false;
    }
    sm->device = (uint32_t)dev;
    CUptiResult r;
    CUpti_Profiler_Initialize_Params init = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if ((r = cupti_api.cuptiProfilerInitialize(&init)) != CUPTI_SUCCESS)
        return cupti_fail(r, "CUPTI profiler initialisation failed", why, n);
    CUpti_Profiler_DeviceSupported_Params sup = {.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE,
                                                 .cuDevice = dev,
                                                 .api = CUPTI_PROFILER_SASS_METRICS};
    if ((r = cupti_api.cuptiProfilerDeviceSupported(&sup)) != CUPTI_SUCCESS)
        return cupti_fail(r, "CUPTI cannot say whether this GPU supports SASS metrics", why, n);
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        snprintf(why, n, "this GPU does not support CUPTI's SASS metrics%s",
                 sup.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED          ? " (architecture)"
                 : sup.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED                  ? " (virtual GPU)"
                 : sup.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ? " (confidential computing)"
                                                                                       : "");
        return false;
    }
    CUpti_Device_GetChipName_Params chip = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE,
                                            .deviceIndex = sm->device};
    if ((r = cupti_api.cuptiDeviceGetChipName(&chip)) != CUPTI_SUCCESS)
        return cupti_fail(r, "CUPTI does not know this GPU's chip", why, n);
    CUpti_SassMetrics_Config cfg[3];
    for (int i = 0; i < 3; i++) {
        CUpti_SassMetrics_GetProperties_Params prop = {.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE,
                                                       .pChipName = chip.pChipName,
                                                       .pMetricName = metric_name[i]};
        if ((r = cupti_api.cuptiSassMetricsGetProperties(&prop)) != CUPTI_SUCCESS) {
            snprintf(why, n, "chip %s has no SASS metric %s: %s", chip.pChipName, metric_name[i], cupti_api_error(r));
            return false;
        }
        sm->metric_id[i] = prop.metric.metricId;
        cfg[i].metricId = prop.metric.metricId;
        cfg[i].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    }
    CUpti_SassMetricsSetConfig_Params set = {.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE,
                                             .numOfMetricConfig = 3,
                                             .pConfigs = cfg,
                                             .deviceIndex = sm->device};
    if ((r = cupti_api.cuptiSassMetricsSetConfig(&set)) != CUPTI_SUCCESS)
        return cupti_fail(r, "CUPTI SASS metrics configuration failed", why, n);
    sm->configured = true;
    return true;
}

bool sass_metrics_begin(sass_metrics *sm, CUcontext ctx, char *why, size_t n)
{
    if (!sm->configured && !configure(sm, ctx, why, n))
        return false;
    /* earlier work of the program must not run inside the counted range */
    cupti_driver.ctx_synchronize();
    CUpti_SassMetricsEnable_Params en = {
        .structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE, .ctx = ctx, .enableLazyPatching = 1};
    CUptiResult r = cupti_api.cuptiSassMetricsEnable(&en);
    if (r != CUPTI_SUCCESS)
        return cupti_fail(r, "CUPTI SASS metrics could not be enabled", why, n);
    sm->enabled = true;
    return true;
}

/* The kept instruction at pc, added in pc order lookup (linear: a kernel has few thousand). */
static sass_metrics_pc *pc_slot(sass_metrics *sm, uint32_t pc, size_t cap)
{
    for (size_t i = 0; i < sm->npcs; i++)
        if (sm->pcs[i].pc == pc)
            return &sm->pcs[i];
    if (sm->npcs == cap)
        return NULL;
    sass_metrics_pc *p = &sm->pcs[sm->npcs++];
    memset(p, 0, sizeof *p);
    p->pc = pc;
    return p;
}

static int pc_cmp(const void *a, const void *b)
{
    uint32_t x = ((const sass_metrics_pc *)a)->pc, y = ((const sass_metrics_pc *)b)->pc;
    return x < y ? -1 : x > y;
}

/* File and line of every kept instruction from the cubin with the records' CRC. */
static void map_lines(sass_metrics *sm, uint32_t crc, const char *function)
{
    const cubin_copy *c = NULL;
    for (size_t i = 0; i < sm->ncubins && !c; i++)
        if (sm->cubins[i].crc == crc)
            c = &sm->cubins[i];
    if (!c)
        return;
    for (size_t i = 0; i < sm->npcs; i++) {
        CUpti_GetSassToSourceCorrelationParams p = {.size = CUpti_GetSassToSourceCorrelationParamsSize,
                                                    .cubin = c->data,
                                                    .functionName = function,
                                                    .cubinSize = c->size,
                                                    .pcOffset = sm->pcs[i].pc};
        if (cupti_api.cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS)
            continue;
        if (p.fileName && p.lineNumber) {
            size_t len = strlen(p.fileName) + (p.dirName ? strlen(p.dirName) + 1 : 0) + 1;
            char *f = xmalloc(len);
            if (p.dirName && *p.dirName && p.fileName[0] != '/')
                snprintf(f, len, "%s/%s", p.dirName, p.fileName);
            else
                snprintf(f, len, "%s", p.fileName);
            sm->pcs[i].file = f;
            sm->pcs[i].line = p.lineNumber;
        }
        free(p.fileName);
        free(p.dirName);
    }
}

/* Disable counting and drop the configuration (each once). */
static void stop(sass_metrics *sm, CUcontext ctx)
{
    if (sm->enabled) {
        CUpti_SassMetricsDisable_Params d = {.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE, .ctx = ctx};
        cupti_api.cuptiSassMetricsDisable(&d);
        sm->enabled = false;
    }
    if (sm->configured) {
        CUpti_SassMetricsUnsetConfig_Params u = {.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE,
                                                 .deviceIndex = sm->device};
        cupti_api.cuptiSassMetricsUnsetConfig(&u);
        sm->configured = false;
    }
}

bool sass_metrics_end(sass_metrics *sm, CUcontext ctx, const char *function, char *why, size_t n)
{
    bool ok = false;
    CUpti_SassMetrics_Data *data = NULL;
    size_t nrec = 0;
    CUresult cr = cupti_driver.ctx_synchronize();
    if (cr != CUDA_SUCCESS) {
        snprintf(why, n, "the launch failed while counting (CUDA error %d)", (int)cr);
        goto out;
    }
    CUpti_SassMetricsGetDataProperties_Params prop = {
        .structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE, .ctx = ctx};
    CUptiResult r = cupti_api.cuptiSassMetricsGetDataProperties(&prop);
    if (r != CUPTI_SUCCESS) {
        cupti_fail(r, "CUPTI SASS metrics gave no data", why, n);
        goto out;
    }
    nrec = prop.numOfPatchedInstructionRecords;
    size_t ninst = prop.numOfInstances;
    if (nrec == 0 || ninst == 0) {
        snprintf(why, n, "CUPTI SASS metrics counted no instruction of the launch");
        goto out;
    }
    data = xmalloc(nrec * sizeof *data);
    for (size_t i = 0; i < nrec; i++) {
        memset(&data[i], 0, sizeof data[i]);
        data[i].structSize = sizeof data[i];
        data[i].pInstanceValues = xmalloc(ninst * sizeof *data[i].pInstanceValues);
    }
    CUpti_SassMetricsFlushData_Params fl = {.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE,
                                            .ctx = ctx,
                                            .numOfPatchedInstructionRecords = nrec,
                                            .numOfInstances = ninst,
                                            .pMetricsData = data};
    if ((r = cupti_api.cuptiSassMetricsFlushData(&fl)) != CUPTI_SUCCESS) {
        cupti_fail(r, "CUPTI SASS metrics flush failed", why, n);
        goto out;
    }
    sm->pcs = xmalloc(nrec * sizeof *sm->pcs);
    sm->npcs = 0;
    uint32_t crc = 0;
    bool found = false;
    for (size_t i = 0; i < nrec; i++) {
        if (!data[i].functionName || strcmp(data[i].functionName, function) != 0)
            continue;
        crc = data[i].cubinCrc;
        found = true;
        sass_metrics_pc *p = pc_slot(sm, data[i].pcOffset, nrec);
        for (size_t k = 0; p && k < ninst; k++) {
            const CUpti_SassMetrics_InstanceValue *v = &data[i].pInstanceValues[k];
            if (v->metricId == sm->metric_id[0]) {
                p->wavefronts += v->value;
                p->shared = true;
            } else if (v->metricId == sm->metric_id[1]) {
                p->ideal_wavefronts += v->value;
                p->shared = true;
            } else if (v->metricId == sm->metric_id[2]) {
                p->instructions += v->value;
            }
        }
    }
    if (!found) {
        snprintf(why, n, "CUPTI SASS metrics have no record of %s", function);
        goto out;
    }
    qsort(sm->pcs, sm->npcs, sizeof *sm->pcs, pc_cmp);
    map_lines(sm, crc, function);
    ok = true;
out:
    if (data) {
        for (size_t i = 0; i < nrec; i++) {
            free((void *)data[i].functionName);
            free(data[i].pInstanceValues);
        }
        free(data);
    }
    stop(sm, ctx);
    return ok;
}

size_t sass_metrics_count(const sass_metrics *sm)
{
    return sm ? sm->npcs : 0;
}

const sass_metrics_pc *sass_metrics_at(const sass_metrics *sm, size_t i)
{
    return &sm->pcs[i];
}

void sass_metrics_free(sass_metrics *sm)
{
    if (!sm)
        return;
    for (size_t i = 0; i < sm->ncubins; i++)
        free(sm->cubins[i].data);
    for (size_t i = 0; i < sm->npcs; i++)
        free(sm->pcs[i].file);
    free(sm->cubins);
    free(sm->pcs);
    free(sm);
}
