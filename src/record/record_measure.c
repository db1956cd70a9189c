/* record_measure: the two measuring passes of libbankscope-record.so (record.h), each a run of the
 * user's program of its own:
 *   "count"  the hardware's per-instruction counts of the chosen launch, from CUPTI's SASS metrics
 *            (sass_metrics.h): wavefronts, ideal wavefronts, executions, each pc's file:line;
 *   "time"   the chosen launch's GPU duration with nothing patched (launch_time.h).
 * They cannot share a run with "capture": CUPTI refuses a second subscriber while the Compute
 * Sanitizer is attached (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, seen on an H100 with CUDA
 * 13.0), and a time taken under either's patching would not be the program's.
 * The launch is chosen as every pass chooses it (record_kernel_matches; the command passes the
 * mangled name and the launch index the capture pass found); with launch -1, the first match.
 * Side by side with the capture run (cfg->sync, record_sync.c), each launch that could be the
 * recorded one waits for the capture run's verdict on it, and the time pass's launch also waits
 * until the capture and count runs have ended, so that it runs alone on the GPU.
 * Output: DIR/count.txt or DIR/time.txt in the bankscope-measured/1 format (src/io/measured_file.h
 * reads it), written beside and renamed, so a file that exists is complete. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "record/cupti_api.h"
#include "record/launch_time.h"
#include "record/sass_metrics.h"

#define MEASURE_MAX_KERNELS 256

typedef enum { PASS_COUNT, PASS_TIME } pass_kind;

static struct {
    const record_config *cfg;
    pass_kind pass;
    bool done; /* the file was written */
    char why[400];
    sass_metrics *sm;
    pthread_mutex_t lock;
    /* launches seen per kernel */
    char *kernel[MEASURE_MAX_KERNELS];
    int64_t launches[MEASURE_MAX_KERNELS];
    int nkernels;
    int64_t matched; /* launches of matching kernels */
    /* the chosen launch */
    bool active;
    int64_t index;
    char name[4096];
    unsigned grid[3], block[3];
} g = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local int launch_depth;

/* Writes text on one field: tabs and line breaks would split the record, so they become spaces. */
static void put_field(FILE *f, const char *text)
{
    for (const char *p = text; *p; p++)
        fputc(*p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p, f);
}

/* The device's SMs, clock and name. */
static void write_device(FILE *f)
{
    CUdevice dev;
    char name[256] = "";
    int sms = 0, clock_khz = 0;
    if (cupti_driver.ctx_get_device && cupti_driver.ctx_get_device(&dev) == CUDA_SUCCESS) {
        cupti_driver.device_get_name(name, sizeof name, dev);
        cupti_driver.device_get_attribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
        cupti_driver.device_get_attribute(&clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, dev);
        fprintf(f, "device\t%d\t%d\t", sms, clock_khz);
        put_field(f, name);
        fputc('\n', f);
    }
}

/* Writes the pass's file once: the header, the launch, the results (or an error) and "end". */
static void write_file(const char *error, uint64_t duration_ns)
{
    if (g.done)
        return;
    g.done = true;
    const char *base = g.pass == PASS_COUNT ? "count.txt" : "time.txt";
    char part[64], from[4200], to[4200];
    snprintf(part, sizeof part, "%s.part", base);
    FILE *f = record_open_output(g.cfg, part);
    if (!f)
        return;
    fprintf(f, "bankscope-measured/1\npass\t%s\n", g.pass == PASS_COUNT ? "count" : "time");
    if (g.name[0]) {
        fputs("kernel\t", f);
        put_field(f, g.name);
        fprintf(f, "\nlaunch\t%lld\n", (long long)g.index);
        fprintf(f, "grid\t%u %u %u\nblock\t%u %u %u\n", g.grid[0], g.grid[1], g.grid[2], g.block[0], g.block[1],
                g.block[2]);
    }
    write_device(f);
    if (error) {
        fputs("error\t", f);
        put_field(f, error);
        fputc('\n', f);
    } else if (g.pass == PASS_TIME) {
        fprintf(f, "duration_ns\t%llu\n", (unsigned long long)duration_ns);
    } else {
        for (size_t i = 0; i < sass_metrics_count(g.sm); i++) {
            const sass_metrics_pc *p = sass_metrics_at(g.sm, i);
            fprintf(f, "pc\t%x\t%d\t%llu\t%llu\t%llu\t%u\t", p->pc, p->shared, (unsigned long long)p->wavefronts,
                    (unsigned long long)p->ideal_wavefronts, (unsigned long long)p->instructions, p->line);
            put_field(f, p->file ? p->file : "");
            fputc('\n', f);
        }
    }
    fputs("end\n", f);
    bool ok = fclose(f) == 0;
    snprintf(from, sizeof from, "%s/%s", g.cfg->dir, part);
    snprintf(to, sizeof to, "%s/%s", g.cfg->dir, base);
    if (!ok || rename(from, to) != 0)
        remove(from);
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

/* Launches of this kernel before this one (the launch index every pass counts). */
static int64_t kernel_index(const char *mangled)
{
    for (int i = 0; i < g.nkernels; i++)
        if (strcmp(g.kernel[i], mangled) == 0)
            return g.launches[i]++;
    if (g.nkernels == MEASURE_MAX_KERNELS)
        return -1;
    g.kernel[g.nkernels] = strdup(mangled);
    if (!g.kernel[g.nkernels])
        return -1;
    g.launches[g.nkernels++] = 1;
    return 0;
}

/* The outermost launch callback's entry: is this the chosen launch? Start the pass's work. */
static void launch_enter(const CUpti_CallbackData *cb)
{
    if (g.done || !cb->symbolName)
        return;
    char *demangled = record_demangle(cb->symbolName);
    int64_t index = kernel_index(cb->symbolName);
    bool matches = demangled && record_kernel_matches(g.cfg, cb->symbolName, demangled);
    if (!matches) {
        free(demangled);
        return;
    }
    g.matched++;
    bool chosen;
    if (g.cfg->launch >= 0 && index != g.cfg->launch)
        chosen = false;
    else if (g.cfg->sync) /* side by side: the capture run tells whether this is the launch */
        chosen = record_sync_chosen(g.cfg, cb->symbolName, index);
    else
        chosen = g.cfg->launch >= 0 || g.matched == 1;
    if (chosen && g.cfg->sync && g.pass == PASS_TIME) { /* timed alone: the other runs gone from the GPU */
        record_say(g.cfg, "launch %lld is the recorded one: waiting for the other runs to end", (long long)index);
        chosen = record_sync_gpu_free(g.cfg);
    }
    if (!chosen) {
        free(demangled);
        return;
    }
    g.active = true;
    g.index = index;
    snprintf(g.name, sizeof g.name, "%s", cb->symbolName);
    if (g.pass == PASS_COUNT && !sass_metrics_begin(g.sm, cb->context, g.why, sizeof g.why)) {
        g.active = false;
        write_file(g.why, 0);
        free(demangled);
        return;
    }
    record_say(g.cfg, "launch %lld of %s begins", (long long)index, demangled);
    free(demangled);
}

/* The outermost launch callback's exit for the chosen launch: collect and write. */
static void launch_exit(const CUpti_CallbackData *cb)
{
    g.active = false;
    record_say(g.cfg, "the launch returned");
    if (g.pass == PASS_COUNT) {
        bool ok = sass_metrics_end(g.sm, cb->context, g.name, g.why, sizeof g.why);
        record_say(g.cfg, "the counts were read");
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

/* Starts a pass: CUPTI loaded, the pass's collector ready, callbacks on; -1 after writing why. */
static int measure_start(const record_config *cfg, pass_kind pass)
{
    g.cfg = cfg;
    g.pass = pass;
    bool ok = pass == PASS_TIME ? launch_time_start(g.why, sizeof g.why)
                                : (g.sm = sass_metrics_new(g.why, sizeof g.why)) != NULL;
    if (!ok || !subscribe()) {
        write_file(g.why, 0);
        return -1;
    }
    return 0;
}

static int count_start(const record_config *cfg)
{
    return measure_start(cfg, PASS_COUNT);
}

static int time_start(const record_config *cfg)
{
    return measure_start(cfg, PASS_TIME);
}

/* At the program's exit: a chosen launch that never came is said so. */
static void measure_stop(void)
{
    if (g.done)
        return;
    char why[600];
    snprintf(why, sizeof why, "the program made %lld launch%s of a matching kernel, not the one asked for",
             (long long)g.matched, g.matched == 1 ? "" : "es");
    write_file(why, 0);
}

const record_pass record_count_pass = {.name = "count", .start = count_start, .stop = measure_stop};
const record_pass record_time_pass = {.name = "time", .start = time_start, .stop = measure_stop};
