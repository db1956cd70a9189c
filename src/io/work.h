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
 * The analysis is priced in nanoseconds of one core, from tests/bench/bench_cost.sh and
 * tests/bench/bench_repeat.sh (2-core AMD EPYC of the development machine, 2026-11-28; the same
 * figures within 10 % over repeated runs):
 *  - a warp-instruction whose indexes hold n expression nodes costs max(WORK_NS_INSTR,
 *    WORK_NS_NODE x n): 610 ns at 6 nodes and 585 ns at 22 (the fixed part dominates: building
 *    the request and the bank rule); a node costs 33-36 ns with + and ^ (2543 ns at 70 nodes,
 *    4628 ns at 134) and 54 ns with %, / and * (tests/golden/cases/work-limit-summary.json: 57
 *    nodes, 26.4 s for 8.4 M warp-instructions), so a node is priced at the dearer: the
 *    estimate is an upper bound, up to about 1.8x the time (a 64-access scenario of identical
 *    requests: 13.5 s estimated, 7.5 s taken);
 *  - a loop-invariant access (no index reads a loop variable) is built once per warp and handed
 *    out again at each iteration by `analyze` (instr_source): 61 ns per warp-instruction after
 *    its first, priced WORK_NS_REPEAT. Only analyze takes this shortcut; sweep and export pay
 *    the full price for every instruction. */
#define WORK_MAX_NS ((int64_t)20000000000)
#define WORK_NS_INSTR 600
#define WORK_NS_NODE 55
#define WORK_NS_REPEAT 100
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
/* e repeated times times (a sweep analyses the scenario once per padding). */
void work_estimate_repeat(work_estimate *e, int64_t times);
/* True when e is within the limits; otherwise false and a message "CMD: what it would cost,
 * bound it with HOW, or --force" (how_work: the options that bound this command's work,
 * how_output: those that bound its output). */
bool work_within_limits(const work_estimate *e, const char *cmd, const char *how_work, const char *how_output,
                        char *msg, size_t n);

/* Catch SIGINT, SIGTERM and SIGHUP: they set the cancel flag (and, inside a
 * work_exit_on_signal section, end the process at once with a message). */
void work_catch_signals(void);
/* While on, a signal ends the process at once (for loops that cannot check the flag, such as
 * the pure model's, and that leave no file behind): "bankscope: interrupted (SIGTERM)", exit
 * status 128 + the signal's number. */
void work_exit_on_signal(bool on);
/* True once a caught signal asked to stop. */
bool work_cancelled(void);
/* The signal that cancelled (0: none) and its name ("SIGTERM"). */
int work_signal(void);
const char *work_signal_name(void);
/* Exit status for a cancelled command: 128 + the signal's number. */
int work_exit_status(void);

/* Progress of what (fraction 0..1) on stderr, only when stderr is a terminal and the job has
 * run for half a second, at most a few times a second; work_progress_end clears the line. */
void work_progress(const char *what, double fraction);
void work_progress_end(void);

#endif
