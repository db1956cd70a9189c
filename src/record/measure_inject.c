/* measure_inject: the injection library of the two measuring runs of `bankscope record`, loaded
 * by the CUDA driver into the user's unmodified program through CUDA_INJECTION64_PATH (the driver
 * calls InitializeInjection at the program's first CUDA call). One run per pass, chosen by the
 * environment that `record` sets:
 *   BANKSCOPE_MEASURE_PASS    "count": CUPTI SASS metrics of the chosen launch (sass_metrics);
 *                             "time":  that launch's duration, nothing patched (launch_time)
 *   BANKSCOPE_MEASURE_KERNEL  extended regular expression on the mangled kernel name
 *   BANKSCOPE_MEASURE_LAUNCH  which launch of the matching kernels, from 0 (default 0)
 *   BANKSCOPE_MEASURE_OUT     the file written (complete or not at all: written beside, renamed)
 * The file is bankscope-measured/1 text (measured_file.h reads it). The program itself is never
 * touched: its output and exit status are its own. */
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "record/cupti_api.h"
#include "record/launch_time.h"
#include "record/sass_metrics.h"

typedef enum { PASS_COUNT, PASS_TIME } pass_kind;

static struct {
    pass_kind pass;
    regex_t kernel;
    long want;        /* the launch index wanted */
    long seen;        /* matching launches so far */
    char out[4096];   /* the output path */
    bool done;        /* the file was written */
    bool failed_init; /* nothing can be measured: the reason is in why */
    char why[400];
    sass_metrics *sm;
    pthread_mutex_t lock;
    /* the chosen launch while its callbacks run */
    bool active;
    char name[1024];
    unsigned grid[3], block[3];
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local int launch_depth;

/* Writes the result file: a header, the pass's lines (or an error) and "end". */
static void write_file(const char *error, uint64_t duration_ns)
{
    if (g.done || !g.out[0])
        return;
    g.done = true;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.part", g.out);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    fprintf(f, "bankscope-measured/1\npass\t%s\n", g.pass == PASS_COUNT ? "count" : "time");
    if (g.name[0]) {
        fprintf(f, "kernel\t%s\nlaunch\t%ld\n", g.name, g.want);
        fprintf(f, "grid\t%u %u %u\nblock\t%u %u %u\n", g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1],
                g.block[2]);
    }
    CUdevice dev;
    char dname[256] = "";
    int sms = 0, clock_khz = 0;
    if (cuCtxGetDevice(&dev) == CUDA_SUCCESS) {
        cuDeviceGetName(dname, sizeof dname, dev);
        cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
        cuDeviceGetAttribute(&clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev);
        fprintf(f, "device\t%d\t%d\t%s\n", sms, clock_khz, dname);
    }
    if (error) {
        fprintf(f, "error\t%s\n", error);
    } else if (g.pass == PASS_TIME) {
        fprintf(f, "duration_ns\t%llu\n", (unsigned long long)duration_ns);
    } else {
        for (size_t i = 0; i < sass_metrics_count(g.sm); i++) {
            const sass_metrics_pc *p = sass_metrics_at(g.sm, i);
            fprintf(f, "pc\t%x\t%d\t%llu\t%llu\t%llu\t%u\t%s\n", p->pc, p->shared, (unsigned long long)p->wavefronts,
                    (unsigned long long)p->ideal_wavefronts, (unsigned long long)p->instructions, p->line,
                    p->file ? p->file : "");
        }
    }
    fputs("end\n", f);
    if (fclose(f) == 0)
        rename(tmp, g.out);
    else
        remove(tmp);
}

/* Grid and block of a driver launch call (the runtime's launches reach the driver too). */
static void note_dims(CUpti_CallbackId cbid, const void *params)
{
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz) {
        const cuLaunchKernel_params *p = params;
        unsigned v[6] = {p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY, p->blockDimZ};
        memcpy(g.grid, v, sizeof g.grid);
        memcpy(g.block, v + 3, sizeof g.block);
    } else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
               cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
        const CUlaunchConfig *c = ((const cuLaunchKernelEx_params *)params)->config;
        if (c) {
            unsigned v[6] = {c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ};
            memcpy(g.grid, v, sizeof g.grid);
            memcpy(g.block, v + 3, sizeof g.block);
        }
    }
}

/* Whether a callback id of the runtime or driver domain launches a kernel. */
static bool is_launch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    static const CUpti_CallbackId drv[] = {
        CUPTI_DRIVER_TRACE_CBID_cuLaunch,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    };
    static const CUpti_CallbackId rt[] = {
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
        CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
        CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
    };
    const CUpti_CallbackId *set = domain == CUPTI_CB_DOMAIN_DRIVER_API ? drv : rt;
    size_t n = domain == CUPTI_CB_DOMAIN_DRIVER_API ? sizeof drv / sizeof *drv : sizeof rt / sizeof *rt;
    for (size_t i = 0; i < n; i++)
        if (set[i] == cbid)
            return true;
    return false;
}

/* The outermost launch callback's entry: is this the chosen launch? Start the pass's work. */
static void launch_enter(const CUpti_CallbackData *cb)
{
    if (g.done || !cb->symbolName || regexec(&g.kernel, cb->symbolName, 0, NULL, 0) != 0)
        return;
    if (g.seen++ != g.want)
        return;
    g.active = true;
    snprintf(g.name, sizeof g.name, "%s", cb->symbolName);
    if (g.pass == PASS_COUNT && !sass_metrics_begin(g.sm, cb->context, g.why, sizeof g.why)) {
        g.active = false;
        write_file(g.why, 0);
    }
}

/* The outermost launch callback's exit for the chosen launch: collect and write. */
static void launch_exit(const CUpti_CallbackData *cb)
{
    g.active = false;
    if (g.pass == PASS_COUNT) {
        bool ok = sass_metrics_end(g.sm, cb->context, g.name, g.why, sizeof g.why);
        write_file(ok ? NULL : g.why, 0);
    } else {
        uint64_t ns = 0;
        bool ok = launch_time_end(cb->context, &ns, g.why, sizeof g.why);
        write_file(ok ? NULL : g.why, ns);
    }
}

/* CUPTI's callback: module loads (cubins for the line mapping) and kernel launches. */
static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    (void)user;
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
        if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && g.pass == PASS_COUNT) {
            const CUpti_ResourceData *rd = data;
            const CUpti_ModuleResourceData *m = rd->resourceDescriptor;
            pthread_mutex_lock(&g.lock);
            if (m)
                sass_metrics_module(g.sm, m->pCubin, m->cubinSize);
            pthread_mutex_unlock(&g.lock);
        }
        return;
    }
    if (!is_launch(domain, cbid))
        return;
    const CUpti_CallbackData *cb = data;
    pthread_mutex_lock(&g.lock);
    if (cb->callbackSite == CUPTI_API_ENTER) {
        if (launch_depth++ == 0)
            launch_enter(cb);
        if (g.active) {
            note_dims(cbid, cb->functionParams);
            if (g.pass == PASS_TIME)
                launch_time_note(cb->correlationId);
        }
    } else if (--launch_depth == 0 && g.active) {
        launch_exit(cb);
    }
    pthread_mutex_unlock(&g.lock);
}

/* At the program's exit: a chosen launch that never came is said so. */
__attribute__((destructor)) static void at_exit(void)
{
    if (g.done || !g.out[0])
        return;
    char why[600];
    if (g.failed_init)
        snprintf(why, sizeof why, "%s", g.why);
    else
        snprintf(why, sizeof why, "the program made %ld launch%s of a matching kernel, launch %ld was asked for",
                 g.seen, g.seen == 1 ? "" : "es", g.want);
    write_file(why, 0);
}

/* Subscribes to launches and module loads; false with a reason in g.why. */
static bool subscribe(void)
{
    CUpti_SubscriberHandle sub;
    CUptiResult r = cupti_api.cuptiSubscribe(&sub, on_callback, NULL);
    if (r == CUPTI_SUCCESS)
        r = cupti_api.cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API);
    if (r == CUPTI_SUCCESS)
        r = cupti_api.cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API);
    if (r == CUPTI_SUCCESS)
        r = cupti_api.cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    if (r != CUPTI_SUCCESS) {
        snprintf(g.why, sizeof g.why, "CUPTI callbacks unavailable: %s%s", cupti_api_error(r),
                 r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? " (another profiler is attached)" : "");
        return false;
    }
    return true;
}

/* The driver's entry into the library. Returns 1 (the driver ignores the value). */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    const char *pass = getenv("BANKSCOPE_MEASURE_PASS");
    const char *kernel = getenv("BANKSCOPE_MEASURE_KERNEL");
    const char *launch = getenv("BANKSCOPE_MEASURE_LAUNCH");
    const char *out = getenv("BANKSCOPE_MEASURE_OUT");
    if (!out || !*out || !pass)
        return 1;
    snprintf(g.out, sizeof g.out, "%s", out);
    g.pass = strcmp(pass, "time") == 0 ? PASS_TIME : PASS_COUNT;
    g.want = launch ? strtol(launch, NULL, 10) : 0;
    if (regcomp(&g.kernel, kernel && *kernel ? kernel : ".", REG_EXTENDED | REG_NOSUB) != 0) {
        snprintf(g.why, sizeof g.why, "bad kernel expression");
        g.failed_init = true;
        return 1;
    }
    bool ok = g.pass == PASS_TIME ? launch_time_start(g.why, sizeof g.why)
                                  : (g.sm = sass_metrics_new(g.why, sizeof g.why)) != NULL;
    if (!ok || !subscribe())
        g.failed_init = true;
    return 1;
}
