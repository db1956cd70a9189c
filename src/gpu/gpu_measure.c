/* gpu_measure: runs the generated kernels. Throughput: every SM full of blocks (occupancy from
 * the driver), each warp repeating the access; the SM clock (clock64) brackets the work of each
 * block, so cycles per warp-instruction per SM = block cycles / warp-instructions per SM.
 * Latency: one warp, a dependent chain. Counters: one block, one access, under CUPTI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu_internal.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Everything one measurement holds on the device. */
typedef struct run {
    gpu_driver *d;
    const gpu_request *rq;
    CUmodule mod;
    CUfunction thr, lat, once, addrs;
    CUdeviceptr out, table;
    size_t out_bytes;
    int sms;
    char *err;
    size_t errn;
} run;

#define TRY(call, what)                                                                                                \
    do {                                                                                                               \
        CUresult r_ = (call);                                                                                          \
        if (r_ != CUDA_SUCCESS) {                                                                                      \
            gpu_driver_error(R->d, r_, what, R->err, R->errn);                                                         \
            return false;                                                                                              \
        }                                                                                                              \
    } while (0)

static bool launch(run *R, CUfunction f, unsigned grid, const int block[3], void **args)
{
    TRY(R->d->LaunchKernel(f, grid, 1, 1, (unsigned)block[0], (unsigned)block[1], (unsigned)block[2],
                           (unsigned)R->rq->smem_bytes, NULL, args, NULL),
        "cuLaunchKernel");
    return true;
}

/* Launch bs_once for the counters (called by the CUPTI reader). */
static bool launch_once(void *arg)
{
    run *R = arg;
    long long loop = R->rq->loop_value;
    unsigned zero = 0;
    void *args[] = {&loop, &R->table, &zero, &R->out};
    return launch(R, R->once, 1, R->rq->block, args) && R->d->CtxSynchronize() == CUDA_SUCCESS;
}

/* One throughput launch: the median over SMs of (SM busy cycles / blocks it ran), and the
 * wall time. */
static bool throughput_once(run *R, unsigned grid, int reps, double *cycles, float *ms)
{
    long long loop = R->rq->loop_value;
    unsigned zero = 0;
    void *args[] = {&loop, &R->table, &reps, &zero, &R->out};
    CUevent e0, e1;
    TRY(R->d->EventCreate(&e0, 0), "cuEventCreate");
    TRY(R->d->EventCreate(&e1, 0), "cuEventCreate");
    R->d->EventRecord(e0, NULL);
    bool ok = launch(R, R->thr, grid, R->rq->tp_block, args);
    R->d->EventRecord(e1, NULL);
    CUresult r = R->d->EventSynchronize(e1);
    if (ok && r == CUDA_SUCCESS)
        r = R->d->EventElapsedTime(ms, e0, e1);
    R->d->EventDestroy(e0);
    R->d->EventDestroy(e1);
    if (!ok)
        return false;
    TRY(r, "running the kernel");
    unsigned long long *t = xmalloc(sizeof *t * 3 * grid);
    TRY(R->d->MemcpyDtoH(t, R->out, sizeof *t * 3 * grid), "cuMemcpyDtoH");
    /* per SM: blocks, earliest start, latest end (clock64 is the SM's own counter) */
    int sms = R->sms;
    unsigned long long *lo = xcalloc((size_t)sms, sizeof *lo), *hi = xcalloc((size_t)sms, sizeof *hi);
    int *nb = xcalloc((size_t)sms, sizeof *nb);
    for (unsigned b = 0; b < grid; b++) {
        unsigned sm = (unsigned)t[3 * b];
        if (sm >= (unsigned)sms)
            continue;
        if (!nb[sm] || t[3 * b + 1] < lo[sm])
            lo[sm] = t[3 * b + 1];
        if (!nb[sm] || t[3 * b + 2] > hi[sm])
            hi[sm] = t[3 * b + 2];
        nb[sm]++;
    }
    double *c = xmalloc(sizeof *c * (size_t)sms);
    int n = 0;
    for (int sm = 0; sm < sms; sm++)
        if (nb[sm])
            c[n++] = (double)(hi[sm] - lo[sm]) / nb[sm]; /* cycles per block-load of work */
    *cycles = n ? median(c, n) : 0;
    free(t);
    free(c);
    free(lo);
    free(hi);
    free(nb);
    return true;
}

/* Cycles and nanoseconds per access with every SM full of blocks: the median of five timed
 * launches, each sized by a warm-up to about a million cycles. */
static bool measure_throughput(run *R, gpu_measurement *m)
{
    const gpu_request *q = R->rq;
    int threads = q->tp_block[0] * q->tp_block[1] * q->tp_block[2], k = 0;
    TRY(R->d->OccupancyMaxActiveBlocksPerMultiprocessor(&k, R->thr, threads, q->smem_bytes),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    if (k < 1) {
        snprintf(R->err, R->errn, "the block does not fit on an SM");
        return false;
    }
    unsigned grid = (unsigned)(k * m->dev.sms);
    m->blocks_per_sm = k;
    m->warps_per_sm = k * q->active_warps;
    if (q->active_warps == 0) {
        m->cycles_per_access = m->ns_per_access = 0;
        return true;
    }
    double cyc;
    float ms;
    int reps = 64;
    if (!throughput_once(R, grid, reps, &cyc, &ms)) /* warm-up, and sizes the real runs */
        return false;
    double per = cyc * k / reps;
    reps = per > 0 ? (int)(1.0e6 / per) : 1024; /* about a million cycles (0.5 ms) per launch */
    reps = reps < 16 ? 16 : reps > 16384 ? 16384 : reps;
    double c[5], t[5];
    for (int i = 0; i < 5; i++) {
        if (!throughput_once(R, grid, reps, &cyc, &ms))
            return false;
        c[i] = cyc;
        t[i] = ms;
    }
    /* cycles are per block's share of its SM; one block issues active_warps x reps x 16 */
    double per_sm = (double)q->active_warps * reps * 16.0;
    m->cycles_per_access = median(c, 5) / per_sm;
    m->ns_per_access = median(t, 5) * 1e6 / (per_sm * k); /* wall time over one SM's share */
    return true;
}

/* The latency of one access by one warp alone: the median of five timed launches after a
 * warm-up. */
static bool measure_latency(run *R, gpu_measurement *m)
{
    long long loop = R->rq->loop_value;
    int warp = R->rq->latency_warp;
    unsigned zero = 0;
    void *args[] = {&loop, &R->table, &warp, &zero, &R->out};
    double v[5];
    for (int i = 0; i < 6; i++) {
        if (!launch(R, R->lat, 1, R->rq->block, args))
            return false;
        TRY(R->d->CtxSynchronize(), "running the latency kernel");
        unsigned long long cycles = 0;
        TRY(R->d->MemcpyDtoH(&cycles, R->out, sizeof cycles), "cuMemcpyDtoH");
        if (i > 0)
            v[i - 1] = (double)cycles / 64.0;
    }
    m->latency_cycles = median(v, 5);
    m->have_latency = true;
    return true;
}

/* Run bs_addresses for one block and compare every thread's address with the model's
 * (rq->expect): a kernel that computes another address is an error, never a measurement. */
static bool verify_addresses(run *R, gpu_measurement *m)
{
    const gpu_request *q = R->rq;
    int threads = q->block[0] * q->block[1] * q->block[2];
    long long loop = q->loop_value;
    void *args[] = {&loop, &R->table, &R->out};
    if (!launch(R, R->addrs, 1, q->block, args))
        return false;
    TRY(R->d->CtxSynchronize(), "running the address kernel");
    long long *got = xmalloc(sizeof *got * (size_t)threads);
    CUresult r = R->d->MemcpyDtoH(got, R->out, sizeof *got * (size_t)threads);
    bool ok = r == CUDA_SUCCESS;
    if (!ok)
        gpu_driver_error(R->d, r, "cuMemcpyDtoH", R->err, R->errn);
    int known = q->nexpect > 0 && q->nexpect < threads ? q->nexpect : threads; /* the model's entries */
    for (int t = 0; ok && t < known; t++) {
        if (got[t] == q->expect[t])
            continue;
        char k[32], mdl[32];
        snprintf(k, sizeof k, got[t] < 0 ? "inactive" : "%lld", got[t]);
        snprintf(mdl, sizeof mdl, q->expect[t] < 0 ? "inactive" : "%lld", q->expect[t]);
        snprintf(R->err, R->errn, "warp %d: kernel address of lane %d is %s, model says %s: not measured", t / 32,
                 t % 32, k, mdl);
        ok = false;
    }
    free(got);
    m->addresses_checked = ok ? threads : 0;
    return ok;
}

/* Compile and load the measured kernels, check their addresses against the model's, then the
 * throughput, the latency and the counters, each timed. */
static bool measure_all(run *R, gpu_measurement *m)
{
    const gpu_request *q = R->rq;
    double t0 = now_ms();
    size_t size = 0;
    void *cubin = gpu_nvrtc_cubin(q->source, m->dev.cc_major, m->dev.cc_minor, &size, &m->cached, m->cache_note,
                                  sizeof m->cache_note, R->err, R->errn);
    m->compile_ms = now_ms() - t0;
    if (!cubin)
        return false;
    CUresult r = R->d->ModuleLoadData(&R->mod, cubin);
    free(cubin);
    TRY(r, "cuModuleLoadData");
    TRY(R->d->ModuleGetFunction(&R->thr, R->mod, "bs_throughput"), "cuModuleGetFunction");
    TRY(R->d->ModuleGetFunction(&R->lat, R->mod, "bs_latency"), "cuModuleGetFunction");
    TRY(R->d->ModuleGetFunction(&R->once, R->mod, "bs_once"), "cuModuleGetFunction");
    TRY(R->d->ModuleGetFunction(&R->addrs, R->mod, "bs_addresses"), "cuModuleGetFunction");
    if (q->smem_bytes > 48 * 1024) {
        CUfunction fs[4] = {R->thr, R->lat, R->once, R->addrs};
        for (int i = 0; i < 4; i++)
            TRY(R->d->FuncSetAttribute(fs[i], CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)q->smem_bytes),
                "cuFuncSetAttribute");
    }
    R->sms = m->dev.sms;
    R->out_bytes = sizeof(unsigned long long) * 3 * (size_t)(m->dev.sms * 64 + 2);
    if (R->out_bytes < sizeof(long long) * 1024) /* room for bs_addresses' 1024 threads */
        R->out_bytes = sizeof(long long) * 1024;
    TRY(R->d->MemAlloc(&R->out, R->out_bytes), "cuMemAlloc");
    TRY(R->d->MemsetD8(R->out, 0, R->out_bytes), "cuMemsetD8");
    if (q->has_table) {
        TRY(R->d->MemAlloc(&R->table, sizeof q->table), "cuMemAlloc");
        TRY(R->d->MemcpyHtoD(R->table, q->table, sizeof q->table), "cuMemcpyHtoD");
    }
    if (q->expect && !verify_addresses(R, m))
        return false;
    double t = now_ms();
    if (!measure_throughput(R, m))
        return false;
    m->throughput_ms = now_ms() - t;
    t = now_ms();
    if (q->latency_warp >= 0 && !q->store && !measure_latency(R, m))
        return false;
    m->latency_ms = now_ms() - t;
    t = now_ms();
    if (q->counters)
        m->have_counters =
            gpu_counters_read(R->d->ctx, &q->counter_set, launch_once, R, &m->wavefronts, &m->bank_conflicts,
                              &m->instructions, m->counters_note, sizeof m->counters_note);
    m->counters_ms = now_ms() - t;
    if (!q->counters)
        snprintf(m->counters_note, sizeof m->counters_note, "counters not requested");
    return true;
}

bool gpu_measure(const gpu_request *rq, gpu_measurement *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    double t0 = now_ms();
    gpu_driver *d = gpu_driver_get(err, n);
    if (!d)
        return false;
    out->dev = d->info;
    run R = {.d = d, .rq = rq, .err = err, .errn = n};
    bool ok = measure_all(&R, out);
    if (R.out)
        d->MemFree(R.out);
    if (R.table)
        d->MemFree(R.table);
    if (R.mod)
        d->ModuleUnload(R.mod);
    out->total_ms = now_ms() - t0;
    return ok;
}

void gpu_close(void)
{
    gpu_counters_close();
}
