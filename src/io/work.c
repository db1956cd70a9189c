/* work: estimates, limits, the cancel flag and progress. */
#include "work.h"

#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/instr_source.h"
#include "model/advisor.h"
#include "util.h"

/* Bytes printed per warp-instruction, measured on the library's patterns: a JSON object with
 * its 32 lanes is 3.4-3.8 KB; a text lane table about 2.6 KB; a grouped text line about 100 B. */
enum { BYTES_JSON = 3600, BYTES_TABLE = 2600, BYTES_LINE = 100 };

/* One warp-instruction of access a, built and analysed in full (work.h's prices). */
static int64_t instr_ns(const scenario *s, int a)
{
    return WORK_NS_INSTR + WORK_NS_NODE * scenario_access_nodes(&s->accesses[a]);
}

/* Iterations of the nest at which access a runs. */
static int64_t active_iterations(const scenario *s, int a)
{
    if (!s->iter_first)
        return s->iterations;
    int64_t n = 0;
    for (int it = 0; it < s->iterations; it++)
        n += scenario_access_active(s, a, it);
    return n;
}

enum { KEYS_TABLE = 2 * INSTR_SOURCE_KEYED };

/* Distinct keys (scenario_access_key) of access a over its iterations at warp, counted up to
 * limit (limit + 1: more): a hash of each key in an open-addressing set. */
static int64_t distinct_keys(const scenario *s, int a, int warp, int64_t limit, uint64_t *set)
{
    memset(set, 0, sizeof *set * KEYS_TABLE);
    int64_t n = 0, key[SCENARIO_KEY_MAX];
    for (int it = 0; it < s->iterations && n <= limit; it++) {
        if (s->iter_first && !scenario_access_active(s, a, it))
            continue;
        int k = scenario_access_key(s, a, it, warp, key);
        uint64_t h = 0x9E3779B97F4A7C15ull;
        for (int i = 0; i < k; i++)
            h = (h ^ (uint64_t)key[i]) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 29)) | 1; /* 0 marks an empty entry */
        uint32_t at = (uint32_t)h & (KEYS_TABLE - 1);
        while (set[at] && set[at] != h)
            at = (at + 1) & (KEYS_TABLE - 1);
        if (!set[at]) {
            set[at] = h;
            n++;
        }
    }
    return n;
}

void work_estimate_analyze(const scenario *s, int warp, work_output out, bool repeats, work_estimate *e)
{
    memset(e, 0, sizeof *e);
    if (!scenario_has_layout(s)) {
        e->instructions = s->ntrace;
        e->cost_ns = (int64_t)s->ntrace * WORK_NS_INSTR;
    } else {
        /* every (iteration, access) pair of the loop nest that runs, for each warp. With repeats,
           as instr_source hands them out: a loop-invariant access costs in full once per warp,
           then WORK_NS_REPEAT each time; a per-slot access in full once per warp and distinct
           key (counted on the first and last warps of the selection, the larger), then
           WORK_NS_REPEAT, while all the keys fit in its table (else in full every time) */
        int64_t warps = warp >= 0 ? 1 : scenario_selected_warps(s);
        bool shortcut = repeats && s->iterations >= 2 && warps >= 1 &&
                        (int64_t)s->naccesses * warps <= (int64_t)SCENARIO_MAX_ACCESSES * 32;
        uint64_t *set = NULL;
        int64_t keyed = 0; /* keys of the per-slot accesses priced so far */
        for (int a = 0; a < s->naccesses; a++) {
            int64_t n = active_iterations(s, a), built = n;
            if (shortcut && n > 0 && scenario_access_loop_invariant(s, a))
                built = 1;
            else if (shortcut && n > 0 && scenario_access_loop_slotted(s, a)) {
                if (!set)
                    set = xmalloc(sizeof *set * KEYS_TABLE);
                int w0 = warp >= 0 ? warp : scenario_selected_warp(s, 0);
                int w1 = warp >= 0 ? warp : scenario_selected_warp(s, (int)warps - 1);
                int64_t room = (INSTR_SOURCE_KEYED - keyed) / warps;
                int64_t k = distinct_keys(s, a, w0, room, set);
                if (k <= room && w1 != w0) {
                    int64_t k1 = distinct_keys(s, a, w1, room, set);
                    k = k1 > k ? k1 : k;
                }
                if (k <= room) {
                    built = k;
                    keyed += k * warps;
                }
            }
            e->cost_ns += warps * (built * instr_ns(s, a) + (n - built) * WORK_NS_REPEAT);
            e->instructions += warps * n;
        }
        free(set);
    }
    int64_t accesses = !scenario_has_layout(s) ? 1 : s->naccesses;
    switch (out) {
    case WORK_OUT_SUMMARY: e->output_bytes = 1024; break;
    case WORK_OUT_TEXT: e->output_bytes = accesses * BYTES_TABLE + e->instructions * BYTES_LINE; break;
    case WORK_OUT_ALL: e->output_bytes = e->instructions * BYTES_TABLE; break;
    case WORK_OUT_JSON: e->output_bytes = e->instructions * BYTES_JSON; break;
    }
}

void work_estimate_sweep(const scenario *s, int max_pad, int64_t layouts, work_estimate *e)
{
    work_estimate_analyze(s, -1, WORK_OUT_SUMMARY, false, e);
    e->cost_ns = 0;
    int64_t warps = scenario_selected_warps(s);
    for (int a = 0; a < s->naccesses; a++) {
        int64_t nodes = scenario_access_nodes(&s->accesses[a]);
        e->cost_ns += warps * active_iterations(s, a) *
                      ((int64_t)(max_pad + 3) * (WORK_NS_SWEEP_PAD + WORK_NS_SWEEP_PAD_NODE * nodes) +
                       WORK_NS_SWEEP_SEARCH + WORK_NS_SWEEP_SEARCH_NODE * nodes);
    }
    e->instructions *= layouts;
    e->output_bytes = 1024 + (int64_t)(max_pad + 1) * 200;
}

void work_estimate_repeat(work_estimate *e, int64_t times)
{
    e->instructions *= times;
    e->cost_ns *= times;
    e->output_bytes *= times;
}

int64_t work_sweep_layouts(int max_pad)
{
    return max_pad + 3 + ADVISOR_SEARCH_FULL_MAX + ADVISOR_NEAR_MAX + 2 + ADVISOR_BLOCK_MAX;
}

void work_estimate_job(const scenario *s, work_job job, int access, work_estimate *e)
{
    memset(e, 0, sizeof *e);
    if (!scenario_has_layout(s)) {
        work_estimate_analyze(s, -1, WORK_OUT_SUMMARY, true, e);
        return;
    }
    switch (job) {
    case WORK_JOB_TOTALS: work_estimate_analyze(s, -1, WORK_OUT_SUMMARY, true, e); break;
    case WORK_JOB_SWEEP: work_estimate_sweep(s, 32, work_sweep_layouts(32), e); break;
    case WORK_JOB_VARIANT: {
        if (access < 0 || access >= s->naccesses)
            return;
        const scenario_access *ac = &s->accesses[access];
        if (s->arrays[ac->array].type.struct_index >= 0 && ac->field)
            return; /* the struct-of-arrays form: an edit, no analysis */
        /* every instruction of the access built and analysed in full (analysis_access_wavefronts)
           at the current padding and at each of 0..32 */
        int64_t n = scenario_selected_warps(s) * active_iterations(s, access), times = 34;
        e->instructions = n * times;
        e->cost_ns = n * times * instr_ns(s, access);
        e->output_bytes = 1024;
        break;
    }
    }
}

bool work_job_admitted(const scenario *s, work_job job, int access, bool force, work_estimate *e)
{
    memset(e, 0, sizeof *e);
    if (force || !scenario_has_layout(s))
        return true;
    work_estimate_job(s, job, access, e);
    return e->cost_ns <= WORK_MAX_NS;
}

void work_cost_text(const work_estimate *e, char *msg, size_t n)
{
    snprintf(msg, n, "about %lld warp-instructions, about %.0f s of analysis, more than the limit of %.0f s",
             (long long)e->instructions, (double)e->cost_ns / 1e9, (double)WORK_MAX_NS / 1e9);
}

bool work_within_limits(const work_estimate *e, const char *cmd, const char *how_work, const char *how_output,
                        char *msg, size_t n)
{
    if (e->cost_ns <= WORK_MAX_NS && e->output_bytes <= WORK_MAX_OUTPUT_BYTES)
        return true;
    if (e->cost_ns > WORK_MAX_NS) {
        char cost[200];
        work_cost_text(e, cost, sizeof cost);
        snprintf(msg, n, "%s: %s: bound it with %s, or run it anyway with --force", cmd, cost, how_work);
    } else
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
