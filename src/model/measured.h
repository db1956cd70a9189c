/* measured: what the hardware counted beside what the recording predicts, per source line of a
 * recorded kernel. Pure: no files, no globals, no GPU. Inputs are the per-instruction counts of
 * the whole launch (CUPTI SASS metrics, summed over SMs, keyed by the instruction's byte offset from
 * the kernel's first instruction) and, per line, the pcs of its instructions and the predicted
 * wavefronts of the recorded block (and of a second recorded block, when there is one).
 *
 * Agreement of a line (the rule of the recording format):
 *   true   the launch's measured wavefronts == the recorded block's predicted wavefronts x the
 *          launch's blocks, and every block is known to do the same (block invariance);
 *   false  they differ although block invariance is established;
 *   null   block invariance is not established: only one block was recorded, or the second
 *          recorded block's prediction for the line differs from the first's (the accesses depend
 *          on the block or on the data).
 * Units: wavefronts and warp-level instruction executions; nanoseconds; kHz. */
#ifndef BANKSCOPE_MODEL_MEASURED_H
#define BANKSCOPE_MODEL_MEASURED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The hardware's counts of one instruction, or of a line (the sum of its instructions'). */
typedef struct {
    uint64_t wavefronts;       /* smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared */
    uint64_t ideal_wavefronts; /* smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal */
    uint64_t instructions;     /* smsp__sass_inst_executed (warp-level) */
} measured_counts;

/* One measured instruction. */
typedef struct {
    uint32_t pc; /* byte offset from the kernel's first instruction */
    bool shared; /* covered by the wavefront metrics (a shared-pipe instruction) */
    measured_counts c;
} measured_pc;

typedef enum { MEASURED_AGREE_NULL = 0, MEASURED_AGREE_TRUE, MEASURED_AGREE_FALSE } measured_agree;

/* Why a line agrees or not; text by measured_why_text. */
typedef enum {
    MEASURED_WHY_NONE = 0,      /* agree true */
    MEASURED_WHY_ONE_BLOCK,     /* null: one block recorded, invariance not checked */
    MEASURED_WHY_BLOCKS_DIFFER, /* null: the second recorded block predicts differently */
    MEASURED_WHY_NOT_MODELLED,  /* false: the line has instructions of kinds the engine does not model */
    MEASURED_WHY_ASYNC_FILL,    /* false, more than predicted: the kernel fills shared memory asynchronously */
    MEASURED_WHY_OTHER_BLOCKS,  /* false: other blocks differ from the two recorded (or the model) */
    MEASURED_WHY_UNCOUNTED,     /* false: an instruction of the line has no hardware count at all */
} measured_why;

/* A source line of the recording: inputs filled by the caller, outputs by measured_lines. */
typedef struct {
    const uint32_t *pcs; /* its instructions' pcs (borrowed); a pc may repeat */
    size_t npcs;
    uint64_t predicted_wavefronts; /* the recorded block's */
    uint64_t predicted_ideal;
    bool has_second;            /* a second block was recorded */
    uint64_t second_wavefronts; /* its predictions for the line */
    uint64_t second_ideal;
    bool unmodelled; /* the line holds instructions the engine does not model */
    /* outputs */
    measured_counts measured; /* over the whole launch, each distinct pc once */
    int64_t excess;           /* measured wavefronts - measured ideal wavefronts */
    uint64_t expected;        /* predicted wavefronts x blocks */
    measured_agree agree;
    measured_why why;
} measured_line;

/* Fills every line's outputs from the measured instructions (sorted by pc or not) of a launch of
 * `blocks` blocks; async_fill tells whether the kernel has cp.async/TMA fills of shared memory. */
void measured_lines(measured_line *lines, size_t nlines, const measured_pc *pcs, size_t npcs, uint64_t blocks,
                    bool async_fill);

/* What a recording says of its launch that a line's agreement rests on (its measurements, not
 * its conclusions): the launch's blocks, whether a second block was recorded and found to
 * predict the same, whether the kernel fills shared memory asynchronously. */
typedef struct {
    uint64_t blocks;
    bool has_second, invariant;
    bool async_fill;
} measured_launch;

/* A line's derived numbers computed again from its measured counts c and its prediction with
 * the model in use (predicted wavefronts of the recorded block, whether it holds instructions
 * the model does not cover), by the rule above; never taken from a file. False when predicted x
 * blocks does not fit 64 bits (then nothing is set). */
bool measured_recompute(const measured_launch *l, const measured_counts *c, uint64_t predicted_wavefronts,
                        bool unmodelled, int64_t *excess, uint64_t *expected, measured_agree *agree, measured_why *why);

/* The share of the launch's time that `excess` wavefronts can explain at most: each takes one cycle
 * of an SM's shared-memory pipe, so excess / (SMs x clock x duration). -1 when an input is 0. */
double measured_share(uint64_t excess, int sms, int clock_khz, uint64_t duration_ns);

/* One sentence for a reason (empty for MEASURED_WHY_NONE). */
const char *measured_why_text(measured_why why);

/* "true", "false" or "null". */
const char *measured_agree_name(measured_agree a);

#endif
