/* sass_metrics: what the hardware counted, per SASS instruction, over one whole kernel launch of the
 * recorded program: shared-memory wavefronts, ideal wavefronts and warp-level executions, from the
 * CUPTI SASS metrics API (the counters Nsight Compute's source page shows as L1 Wavefronts Shared,
 * L1 Wavefronts Shared Ideal and Instructions Executed), each instruction mapped to its source line
 * with cuptiGetSassToSourceCorrelation on the cubin kept when its module loaded.
 *
 * Runs inside the recorded program (injection library), called from CUPTI callbacks on the thread
 * that launches: sass_metrics_module for every module loaded, sass_metrics_begin at the chosen
 * launch's API entry, sass_metrics_end at its exit. begin synchronises the context (the counting must
 * cover that launch alone); the counting patches the kernel's code, so no time is ever taken here.
 * Ownership: the collector owns copies of every cubin and the per-instruction results (their file
 * names too) until sass_metrics_free. */
#ifndef BANKSCOPE_RECORD_SASS_METRICS_H
#define BANKSCOPE_RECORD_SASS_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/* The counts of one SASS instruction of the chosen kernel, summed over every SM. */
typedef struct {
    uint32_t pc;               /* byte offset from the kernel function's first instruction */
    bool shared;               /* the wavefront metrics cover this instruction (a shared-pipe access) */
    uint64_t wavefronts;       /* smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared */
    uint64_t ideal_wavefronts; /* smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal */
    uint64_t instructions;     /* smsp__sass_inst_executed (warp-level) */
    char *file;                /* source file (directory joined), NULL without line info */
    uint32_t line;             /* 0 without line info */
} sass_metrics_pc;

typedef struct sass_metrics sass_metrics;

/* A collector; NULL (with a reason) when CUPTI or its SASS metrics cannot be used here. */
sass_metrics *sass_metrics_new(char *why, size_t n);

/* Keeps a copy of a loaded module's cubin (for the PC -> line mapping). */
void sass_metrics_module(sass_metrics *sm, const void *cubin, size_t size);

/* Before the chosen launch: configure the three metrics on the context's device and enable
 * counting; false with a reason (no profiling permission, device not supported, ...). */
bool sass_metrics_begin(sass_metrics *sm, CUcontext ctx, char *why, size_t n);

/* After the chosen launch of `function` (mangled name): wait for it, read and keep its
 * instructions' counts (sorted by pc), disable counting; false with a reason. */
bool sass_metrics_end(sass_metrics *sm, CUcontext ctx, const char *function, char *why, size_t n);

/* The kept instructions, sorted by pc. */
size_t sass_metrics_count(const sass_metrics *sm);
const sass_metrics_pc *sass_metrics_at(const sass_metrics *sm, size_t i);

void sass_metrics_free(sass_metrics *sm);

#endif
