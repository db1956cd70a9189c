/* gpu: the only interface to CUDA. Implemented by the files of src/gpu/ when built with the CUDA
 * toolkit, and by gpu_stub.c otherwise ("built without CUDA support"). The driver (libcuda.so.1)
 * is loaded at run time, so one binary runs with or without an NVIDIA driver.
 * Units: cycles are SM clock cycles; times in nanoseconds or milliseconds as named.
 * Threads: gpu_* functions may be called from one thread at a time (the CLI, or the TUI's
 * worker thread). */
#ifndef BANKSCOPE_GPU_H
#define BANKSCOPE_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

typedef struct gpu_device {
    char name[256];
    int cc_major, cc_minor;
    int sms;
    int clock_khz;
} gpu_device;

/* Open the first GPU (once; later calls return the same device). False with a one-line
 * reason (no driver, no device, built without CUDA support). */
bool gpu_open(gpu_device *dev, char *why, size_t n);

/* Compile CUDA source to PTX for compute_90 with NVRTC (no GPU needed). */
bool gpu_compile_ptx(const char *source, strbuf *ptx, char *err, size_t n);

/* The counters that measure one instruction (CUPTI range-profiler metric names, from the kinds
 * table, src/model/kinds.h): wavefronts, bank conflicts, instructions executed; group: every
 * metric that one profiler configuration reads together with them (them included), so that
 * instructions of kinds of one group measured one after another share the configuration. A name
 * that starts with "smsp__sass_" is a SASS metric (CUPTI patches the kernel). */
#define GPU_COUNTER_GROUP_MAX 12
typedef struct gpu_counter_set {
    const char *wavefronts, *conflicts, *instructions;
    const char *group[GPU_COUNTER_GROUP_MAX];
    int ngroup;
} gpu_counter_set;

/* What to measure: one generated kernel (kernels/measure.cu) for one access. */
typedef struct gpu_request {
    const char *source;
    int block[3];      /* the scenario's block (latency and counters run one block) */
    int tp_block[3];   /* block of the throughput run (traces: 32 warps replaying one) */
    size_t smem_bytes; /* dynamic shared memory */
    long long loop_value;
    int latency_warp;            /* warp that runs the latency chain (-1: skip latency) */
    bool counters;               /* read the hardware counters too */
    bool store;                  /* the access is a store */
    gpu_counter_set counter_set; /* the counters of its instruction */
    int active_warps;            /* warps of tp_block with at least one active lane */
    bool has_table;              /* traces: the lane addresses below go to the kernel's bs_table */
    int table[33];               /* byte offset per lane (-1 inactive), then the per-warp copy distance */
    /* The model's byte address of every thread of one block (block above), -1 where the lane
     * takes no part; NULL: not checked. gpu_measure runs bs_addresses first and refuses to
     * measure when any thread's kernel address differs ("kernel address of lane L ..."). */
    const long long *expect;
    int nexpect; /* entries of expect (whole warps) */
} gpu_request;

typedef struct gpu_measurement {
    gpu_device dev;
    /* throughput: all SMs full of warps repeating the access */
    double cycles_per_access; /* per warp-instruction per SM (median over blocks and runs) */
    double ns_per_access;     /* wall time per warp-instruction per SM */
    int blocks_per_sm, warps_per_sm;
    /* latency: one warp, a dependent chain */
    bool have_latency;
    double latency_cycles;
    /* hardware counters, one block doing the access once */
    bool have_counters;
    char counters_note[160]; /* why there are none */
    double wavefronts, bank_conflicts, instructions;
    /* threads of one block whose kernel address (or non-participation) equals the model's;
     * 0 when rq.expect was NULL (a mismatch makes gpu_measure fail) */
    int addresses_checked;
    /* cost of getting the answer */
    bool cached;          /* CUBIN from the cache */
    char cache_note[320]; /* "" or, once, why the disk cache is off or refused an entry */
    double compile_ms, throughput_ms, latency_ms, counters_ms, total_ms;
} gpu_measurement;

/* Where compiled kernel images are kept between runs: given by gpu's user (the core hands it
 * io's verified disk cache), so that gpu/ reads and writes no files of its own. Without one,
 * images are kept in memory only. Functions are called from the measuring thread. */
typedef struct gpu_image_store {
    /* the image stored for key (malloc'd, *size set), or NULL */
    void *(*get)(const char *key, size_t keylen, size_t *size);
    void (*put)(const char *key, size_t keylen, const void *image, size_t size);
    /* "" or, once, why the store is off or refused an entry, into note (n bytes) */
    void (*note)(char *note, size_t n);
} gpu_image_store;
/* Use store (static storage; NULL: none) for the compiles that follow. */
void gpu_set_image_store(const gpu_image_store *store);
const gpu_image_store *gpu_image_store_current(void);

/* Compile (or fetch from cache), run and time. False with a one-line message. */
bool gpu_measure(const gpu_request *rq, gpu_measurement *out, char *err, size_t n);
/* Release what gpu_measure keeps between calls (the profiling session). */
void gpu_close(void);

#endif
