/* measure_plan: what one GPU measurement of a scenario access is compared against. Pure: from
 * the scenario, the kernel source (kernelgen), the request for src/gpu, and the model's
 * prediction summed over every warp of one block. Shared by `measure`, the TUI worker and
 * the GPU tests. */
#ifndef BANKSCOPE_MEASURE_PLAN_H
#define BANKSCOPE_MEASURE_PLAN_H

#include <stdbool.h>

#include "gpu/gpu.h"
#include "model/scenario.h"

typedef struct measure_plan {
    int access, iteration;
    banks_request kind; /* the instruction: op, matrices, trans, atomic, returns (no lanes) */
    strbuf source;      /* owned: the generated CUDA source */
    long long *expect;  /* owned: the model's address per thread of the block, -1 where
                           the lane takes no part (rq.expect points here) */
    gpu_request rq;     /* rq.source points into source */
    /* prediction for one block performing the access once */
    int warps, active_warps;
    int64_t wavefronts, bank_conflicts;
    double cycles_per_access;      /* mean throughput cycles per active warp-instruction: its
                                      wavefronts, or its phases where more (banks_issue_cycles) */
    double data_cycles_per_access; /* the same for a store of register data, which the kernel
                                      avoids by storing the zero register */
    bool cycles_predicted;         /* false for cp.async: the model has the shared side only and the
                                      measured time includes the copy from global memory, so
                                      cycles_per_access is no prediction of it (shown as such) */
    int worst_degree;
    int bytes_per_warp; /* useful bytes of one warp-instruction (active lanes x width) */
} measure_plan;

/* Build the plan for access (trace entry) at iteration; false with a message. */
bool measure_plan_make(const scenario *s, int access, int iteration, measure_plan *p, char *err, size_t n);
/* The same with the kernel's shared memory given (kernelgen_smem_bytes(s), which reads every
 * entry of a trace): callers that plan many accesses of one scenario work it out once. */
bool measure_plan_make_sized(const scenario *s, int access, int iteration, int64_t smem_bytes, measure_plan *p,
                             char *err, size_t n);
/* The plan of access at iteration 0 with the innermost padding of array set to pad, as the
 * padding sweeps measure it; s is put back as it was. False with a message. */
bool measure_plan_padded(scenario *s, int array, int pad, int access, measure_plan *p, char *err, size_t n);
void measure_plan_free(measure_plan *p);
/* The bank model of a GPU of compute capability cc_major.cc_minor (its family's profile:
 * sm_87 -> sm_86), or NULL where bankscope has none (sm_100 and later). */
const banks_profile *measure_plan_gpu_arch(int cc_major, int cc_minor);
/* The model a measurement on that GPU is compared with: the GPU's own, so that another
 * architecture's rules (cc 1.x half-warps on an sm_90) are never shown as its prediction. When
 * that is not chosen (the scenario's arch), note says so in one line; when bankscope has no
 * model of the GPU, chosen is returned and note says that it may not be what the GPU runs;
 * otherwise note is "". */
const banks_profile *measure_plan_compare_arch(const banks_profile *chosen, int cc_major, int cc_minor, char *note,
                                               size_t n);
/* The agreement rule of the GPU checks: |measured - predicted| <= 5 % of predicted + 0.1. */
bool measure_plan_agrees(double predicted, double measured);

#endif
