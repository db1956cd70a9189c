/* cli_sweep: `bankscope sweep FILE [--json] [--max-pad N] [--measure]`: the padding sweep of the
 * array with the most conflicts, the smallest conflict-free padding, the swizzle and SoA
 * alternatives; --measure also runs every padding on the GPU. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_whatif.h"
#include "io/recording.h"
#include "model/kinds.h"
#include "gpu/gpu.h"
#include "io/load.h"
#include "io/work.h"
#include "core/measure_plan.h"
#include "io/sweep_report.h"
#include "model/advisor.h"

/* Mean measured cycles per warp-instruction over the accesses of s with array padded by pad
 * (each at iteration 0), weighted by the warps that issue them, and in *pred the model's
 * cycles for the same, or -1 when an access's cycles are not predicted (cp.async: its time
 * includes the global-memory copy, so no sum over it would be a prediction); negative on
 * failure (message in err). */
static double measure_all(scenario *s, int array, int pad, double *pred, char *err, size_t n)
{
    double cycles = 0, predicted = 0;
    int warps = 0;
    bool all_predicted = true;
    for (int a = 0; a < s->naccesses; a++) {
        measure_plan p;
        gpu_measurement m;
        if (!measure_plan_padded(s, array, pad, a, &p, err, n))
            return -1;
        p.rq.counters = false;
        p.rq.latency_warp = -1;
        bool ok = gpu_measure(&p.rq, &m, err, n);
        if (ok && m.cache_note[0])
            fprintf(stderr, "bankscope: sweep: %s\n", m.cache_note);
        if (ok) {
            cycles += m.cycles_per_access * p.active_warps;
            predicted += p.cycles_per_access * p.active_warps;
            all_predicted = all_predicted && p.cycles_predicted;
            warps += p.active_warps;
        }
        measure_plan_free(&p);
        if (!ok)
            return -1;
    }
    *pred = !all_predicted ? -1 : warps ? predicted / warps : 0;
    return warps ? cycles / warps : 0;
}

/* The warp-instructions of s that no lane issues (scenario_instr_idle). */
static int64_t idle_count(const scenario *s)
{
    scenario_instr in;
    int64_t n = scenario_instr_count(s), idle = 0;
    for (int64_t k = 0; k < n; k++) {
        scenario_instr_at(s, k, &in);
        idle += scenario_instr_idle(&in);
    }
    return idle;
}

int cli_sweep(int argc, char **argv)
{
    cli_common c;
    scenario s;
    work_catch_signals();
    work_exit_on_signal(true); /* sweep writes only at the end: a signal ends it at once */
    struct recording_doc *rec; /* a recording's members, read with its trace */
    int rc0 = cli_open_doc(argc, argv, "sweep", "json max-pad measure arch force all source", &c, &s, &rec);
    if (rc0)
        return rc0;
    if (!scenario_has_layout(&s)) { /* a recording: the what-if on its addresses */
        int rc = cli_sweep_recording(&c, &s, rec);
        recording_doc_drop(rec);
        scenario_free(&s);
        return rc;
    }
    recording_doc_drop(rec);
    gpu_device dev;
    char why[300];
    if (c.measure && !gpu_open(&dev, why, sizeof why)) {
        scenario_free(&s);
        cli_error("sweep --measure: no usable GPU: %s", why);
        return CLI_NO_GPU;
    }
    if (!c.force) { /* one analysis per padding and per alternative, estimated first; the layout
                       search checks at most ADVISOR_SEARCH_FULL_MAX + ADVISOR_NEAR_MAX + 2 layouts
                       on every instruction (its sample costs far less) */
        work_estimate e;
        work_estimate_sweep(&s, c.max_pad, work_sweep_layouts(c.max_pad), &e);
        char msg[400];
        if (!work_within_limits(&e, "sweep", "a smaller --max-pad, fewer loop iterations or accesses",
                                "a smaller --max-pad", msg, sizeof msg)) {
            scenario_free(&s);
            return cli_usage_error("%s", msg);
        }
    }
    int array = advisor_pick_array(&s);
    static advisor_result r;
    advisor_sweep(&s, array, c.max_pad, &r);
    double measured[257], predicted[257];
    for (int i = 0; i < r.nrows; i++) {
        measured[i] = predicted[i] = -1;
        if (!c.measure || !r.rows[i].valid)
            continue;
        fprintf(stderr, "\rmeasuring padding %d of %d...", i, r.nrows - 1);
        char msg[600];
        measured[i] = measure_all(&s, array, r.rows[i].pad, &predicted[i], msg, sizeof msg);
    }
    if (c.measure) {
        fprintf(stderr, "\r%40s\r", "");
        gpu_close();
    }
    sweep_report rep = {.s = &s,
                        .r = &r,
                        .measured = measured,
                        .predicted = predicted,
                        .file = c.file,
                        .max_pad = c.max_pad,
                        .idle = idle_count(&s),
                        .all = c.all,
                        .measure = c.measure};
    if (c.json) {
        const char *why;
        int rc = sweep_report_json(&rep, stdout, &why) ? CLI_OK : cli_write_error("sweep", why);
        scenario_free(&s);
        return rc;
    }
    sweep_report_text(&rep, stdout);
    scenario_free(&s);
    return cli_finish_stdout("sweep");
}
