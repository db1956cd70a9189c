/* work: estimates, limits, the cancel flag and progress. */
#include "work.h"

#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* Bytes printed per warp-instruction, measured on the library's patterns: a JSON object with
 * its 32 lanes is 3.4-3.8 KB; a text lane table about 2.6 KB; a grouped text line about 100 B. */
enum { BYTES_JSON = 3600, BYTES_TABLE = 2600, BYTES_LINE = 100 };

/* One warp-instruction of access a, built and analysed in full (work.h's prices). */
static int64_t instr_ns(const scenario *s, int a)
{
    int64_t by_nodes = (int64_t)WORK_NS_NODE * scenario_access_nodes(&s->accesses[a]);
    return by_nodes > WORK_NS_INSTR ? by_nodes : WORK_NS_INSTR;
}

void work_estimate_analyze(const scenario *s, int warp, work_output out, bool repeats, work_estimate *e)
{
    memset(e, 0, sizeof *e);
    if (!scenario_has_layout(s)) {
        e->instructions = s->ntrace;
        e->cost_ns = (int64_t)s->ntrace * WORK_NS_INSTR;
    } else {
        /* every (iteration, access) pair of the loop nest that runs, for each warp; a
           loop-invariant access costs in full once, then WORK_NS_REPEAT each time */
        int64_t warps = warp >= 0 ? 1 : scenario_selected_warps(s);
        bool *seen = xcalloc((size_t)(s->naccesses > 0 ? s->naccesses : 1), sizeof *seen);
        for (int it = 0; it < s->iterations; it++)
            for (int a = 0; a < s->naccesses; a++)
                if (!s->iter_first || scenario_access_active(s, a, it)) {
                    bool again = repeats && seen[a] && scenario_access_loop_invariant(s, a);
                    e->cost_ns += warps * (again ? WORK_NS_REPEAT : instr_ns(s, a));
                    e->instructions += warps;
                    seen[a] = true;
                }
        free(seen);
    }
    int64_t accesses = !scenario_has_layout(s) ? 1 : s->naccesses;
    switch (out) {
    case WORK_OUT_SUMMARY: e->output_bytes = 1024; break;
    case WORK_OUT_TEXT: e->output_bytes = accesses * BYTES_TABLE + e->instructions * BYTES_LINE; break;
    case WORK_OUT_ALL: e->output_bytes = e->instructions * BYTES_TABLE; break;
    case WORK_OUT_JSON: e->output_bytes = e->instructions * BYTES_JSON; break;
    }
}

void work_estimate_repeat(work_estimate *e, int64_t times)
{
    e->instructions *= times;
    e->cost_ns *= times;
    e->output_bytes *= times;
}

bool work_within_limits(const work_estimate *e, const char *cmd, const char *how_work, const char *how_output,
                        char *msg, size_t n)
{
    if (e->cost_ns <= WORK_MAX_NS && e->output_bytes <= WORK_MAX_OUTPUT_BYTES)
        return true;
    if (e->cost_ns > WORK_MAX_NS)
        snprintf(msg, n,
                 "%s: about %lld warp-instructions, about %.0f s of analysis, more than the limit of %.0f s: "
                 "bound it with %s, or run it anyway with --force",
                 cmd, (long long)e->instructions, (double)e->cost_ns / 1e9, (double)WORK_MAX_NS / 1e9, how_work);
    else
        snprintf(msg, n,
                 "%s: the output would be about %lld MB (%lld warp-instructions), more than the limit of %lld MB: "
                 "bound it with %s, or write it anyway with --force",
                 cmd, (long long)(e->output_bytes >> 20), (long long)e->instructions,
                 (long long)(WORK_MAX_OUTPUT_BYTES >> 20), how_output);
    return false;
}

/* ---- cancellation ---- */

static volatile sig_atomic_t cancel_signal;
static volatile sig_atomic_t exit_now;

/* Async-signal-safe: only sig_atomic_t stores, write(2) and _exit(2). */
static void on_signal(int sig)
{
    cancel_signal = sig;
    if (exit_now) {
        const char *m = sig == SIGINT   ? "\nbankscope: interrupted (SIGINT)\n"
                        : sig == SIGHUP ? "\nbankscope: interrupted (SIGHUP)\n"
                                        : "\nbankscope: interrupted (SIGTERM)\n";
        ssize_t w = write(STDERR_FILENO, m, strlen(m));
        (void)w;
        _exit(128 + sig);
    }
}

void work_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

void work_exit_on_signal(bool on)
{
    exit_now = on;
    if (on && cancel_signal)
        on_signal(cancel_signal);
}

bool work_cancelled(void)
{
    return cancel_signal != 0;
}

int work_signal(void)
{
    return cancel_signal;
}

const char *work_signal_name(void)
{
    switch (cancel_signal) {
    case 0: return "none";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
    }
}

int work_exit_status(void)
{
    return 128 + cancel_signal;
}

/* ---- progress ---- */

static double start_time = -1, last_time;
static bool shown;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void work_progress(const char *what, double fraction)
{
    double t = now();
    if (start_time < 0) {
        start_time = last_time = t;
        return;
    }
    if (t - start_time < 0.5 || t - last_time < 0.2 || !isatty(STDERR_FILENO))
        return;
    last_time = t;
    shown = true;
    fprintf(stderr, "\r%s: %3.0f %% (Ctrl-C stops)", what, 100.0 * (fraction < 0 ? 0 : fraction > 1 ? 1 : fraction));
    fflush(stderr);
}

void work_progress_end(void)
{
    if (shown)
        fprintf(stderr, "\r\033[K");
    shown = false;
    start_time = -1;
}
