/* work: bounded work for the commands. Before a long job: an estimate of what it will cost
 * (warp-instructions, nanoseconds of analysis priced by measurement, bytes of output) and limits
 * above which a command refuses and says how to bound it (--warp, fewer iterations, --summary)
 * unless --force is given. During it: a cancel flag set by SIGINT, SIGTERM and SIGHUP, checked
 * in the loops, and progress on stderr when it is a terminal.
 *
 * The estimate functions are pure. The cancel flag is the one process-wide state (a signal
 * handler can only reach a global): work_catch_signals installs it; the TUI may poll
 * work_cancelled too. Units: cost_ns, nanoseconds of one core. */
#ifndef BANKSCOPE_WORK_H
#define BANKSCOPE_WORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/scenario.h"

/* Above these a command asks for --force: 20 s of analysis on one core and a gigabyte of output.
 * The analysis is priced in nanoseconds of one core, an upper bound fitted to
 * `tests/bench/bench_cost.sh ./bankscope` (2-core AMD EPYC of the development machine, load
 * average 3-8, 2026-11-28, best of 3 CPU times, 4 runs; a run at load 2.5 measured 0.65-0.8x
 * these):
 *  - a warp-instruction whose indexes hold n expression nodes costs WORK_NS_INSTR + WORK_NS_NODE
 *    x n: 356-483, 458-509, 1424-1551 and 1907-2441 ns at 6, 22, 70 and 134 nodes of + and ^
 *    (least squares 232-396 ns + 12.2-16.4 ns per node; the fixed part is the noisiest), and
 *    1528 ns at 57 nodes with %, / and * (analyze --summary --force of
 *    tests/golden/cases/work-limit-summary.json with its first 64 accesses: 12.8 s for 8.4 M
 *    warp-instructions), so a node is priced at the dearer and the fixed part at the highest
 *    measured: estimates 1.05-1.8x the time;
 *  - analyze builds a loop-invariant access (no index reads a loop variable) once per warp, and a
 *    per-slot one (it reads the loops only through per-instruction values such as "i % 32") once
 *    per warp and value, and hands them out again (instr_source): a repeat costs 60-66 ns (the
 *    script's per-slot scenario: 3,072 built, 3.1 M repeats, 0.19-0.21 s), priced
 *    WORK_NS_REPEAT; export and sweep take no shortcut;
 *  - sweep analyses the scenario once per padding, 0 to --max-pad and a few more (max_pad + 3
 *    times WORK_NS_SWEEP_PAD + WORK_NS_SWEEP_PAD_NODE x n per warp-instruction: 443 ns at 6
 *    nodes, 1534 ns at 70, from --max-pad 64 against 8: MAX_PAD=8 SWEEP_LAYOUTS=38 before the
 *    script), and searches layouts once (WORK_NS_SWEEP_SEARCH + WORK_NS_SWEEP_SEARCH_NODE x n
 *    per warp-instruction: 76 us at 6 nodes, 165 us at 70): the script's sweep of 24,576
 *    warp-instructions takes 2.0-2.6 s, estimated 2.9 s (1.1-1.5x).
 * A job the limit admits thus takes at most about 20 s: the largest admitted of the tests,
 * tests/golden/cases/bad-work-maxima.json with its first 4 accesses (the largest expressions,
 * 524,288 warp-instructions), is estimated 17.4 s and takes 10.0 s; work-limit-summary.json with
 * 64 accesses 13.5 s and 12.8 s. */
#define WORK_MAX_NS ((int64_t)20000000000)
#define WORK_NS_INSTR 350
#define WORK_NS_NODE 22
#define WORK_NS_REPEAT 80
#define WORK_NS_SWEEP_PAD 380
#define WORK_NS_SWEEP_PAD_NODE 19
#define WORK_NS_SWEEP_SEARCH 75000
#define WORK_NS_SWEEP_SEARCH_NODE 1550
#define WORK_MAX_OUTPUT_BYTES ((int64_t)1 << 30)

typedef enum work_output {
    WORK_OUT_SUMMARY, /* totals only */
    WORK_OUT_TEXT,    /* text report: a lane table per access, grouped lines */
    WORK_OUT_ALL,     /* text with a lane table for every warp-instruction */
    WORK_OUT_JSON     /* one JSON object per warp-instruction */
} work_output;

typedef struct work_estimate {
    int64_t instructions; /* warp-instructions */
    int64_t cost_ns;      /* nanoseconds of one core, priced as above */
    int64_t output_bytes; /* roughly what will be printed */
} work_estimate;

/* What analysing s costs (warp: that warp only, -1: the scenario's selection; repeats: the
 * analysis hands loop-invariant instructions out again, as analyze does). Traces cost what their
 * file holds and are estimated from ntrace. */
void work_estimate_analyze(const scenario *s, int warp, work_output out, bool repeats, work_estimate *e);
/* What `sweep` of s costs: an analysis per padding up to max_pad, and the layout search;
 * instructions counts layouts analyses of the scenario. */
void work_estimate_sweep(const scenario *s, int max_pad, int64_t layouts, work_estimate *e);
/* The layouts a sweep up to max_pad analyses: each padding and a few more, the layout search's
 * at most ADVISOR_SEARCH_FULL_MAX + ADVISOR_NEAR_MAX + 2 on every instruction, the block shapes. */
int64_t work_sweep_layouts(int max_pad);
/* e repeated times times. */
void work_estimate_repeat(work_estimate *e, int64_t times);
/* True when e is within the limits; otherwise false and a message "CMD: what it would cost,
 * bound it with HOW, or --force" (how_work: the options that bound this command's work,
 * how_output: those that bound its output). */
bool work_within_limits(const work_estimate *e, const char *cmd, const char *how_work, const char *how_output,
                        char *msg, size_t n);

/* The interactive view's background jobs, each what a command does: the totals over every
 * warp-instruction (analyze --summary), the advisor's padding sweep (sweep --max-pad 32) and the
 * compare variant (one access analysed at its current padding and at each of 0..32). */
typedef enum work_job { WORK_JOB_TOTALS, WORK_JOB_SWEEP, WORK_JOB_VARIANT } work_job;
/* What job costs on s (access: the variant's access; the others cover the whole scenario). */
void work_estimate_job(const scenario *s, work_job job, int access, work_estimate *e);
/* Whether job may start on s: always with force or on a trace (it costs what its file holds, as
 * for analyze); otherwise when its estimate (in e) is within the limits. */
bool work_job_admitted(const scenario *s, work_job job, int access, bool force, work_estimate *e);
/* "about N warp-instructions, about T s of analysis, more than the limit of 20 s": what e costs,
 * in the words of the commands' refusals. */
void work_cost_text(const work_estimate *e, char *msg, size_t n);

/* Catch SIGINT, SIGTERM and SIGHUP: they set the cancel flag (and, inside a
 * work_exit_on_signal section, end the process at once with a message). */
void work_catch_signals(void);
/* While on, a signal ends the process at once (for loops that cannot check the flag, such as
 * the pure model's, and that leave no file behind): "bankscope: interrupted (SIGTERM)", exit
 * status 128 + the signal's number. */
void work_exit_on_signal(bool on);
/* True once a caught signal asked to stop. */
bool work_cancelled(void);
/* The name of the signal that cancelled ("SIGTERM"), "none" when none did. */
const char *work_signal_name(void);
/* Exit status for a cancelled command: 128 + the signal's number. */
int work_exit_status(void);

/* Progress of what (fraction 0..1) on stderr, only when stderr is a terminal and the job has
 * run for half a second, at most a few times a second; work_progress_end clears the line. */
void work_progress(const char *what, double fraction);
void work_progress_end(void);

#endif
