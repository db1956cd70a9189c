/* gpu: the TUI's side of GPU measurement. It never calls CUDA: it sends the scenario's measure
 * plan to src/gpu's worker after a short debounce, and takes results tagged with the edit
 * generation they belong to (a stale result is never shown for a changed scenario). */
#include <stdio.h>
#include <string.h>

#include "core/measure_plan.h"
#include "tui/app.h"

/* What the result panel says about the GPU right now. */
static void gpu_status_text(tui_app *a)
{
    static const char *const spin[] = {"|", "/", "-", "\\"};
    char dev[300];
    gpu_worker_state st = gpu_worker_status(a->worker, dev, sizeof dev);
    if (st == WORKER_OPENING)
        snprintf(a->gpu_status, sizeof a->gpu_status, "opening the GPU %s", spin[a->spinner % 4]);
    else if (st == WORKER_NO_GPU)
        snprintf(a->gpu_status, sizeof a->gpu_status, "no GPU: predicted only\n%.250s", dev);
    else if (a->have_meas && a->meas.id == a->gen && !a->meas.ok)
        snprintf(a->gpu_status, sizeof a->gpu_status, "GPU error: %.200s", a->meas.error);
    else if (a->have_meas && a->meas.id == a->gen)
        snprintf(a->gpu_status, sizeof a->gpu_status, "%s", dev);
    else
        snprintf(a->gpu_status, sizeof a->gpu_status, "measuring on %.200s %s", dev, spin[a->spinner % 4]);
}

bool app_gpu_tick(tui_app *a)
{
    if (!a->worker)
        return false;
    bool redraw = false;
    gpu_worker_result r;
    if (gpu_worker_poll(a->worker, &r)) {
        if (sweep_measure_result(a, &r)) {
            redraw = true;
        } else if (r.id == a->gen) {
            a->meas = r;
            a->have_meas = true;
            redraw = true;
        }
    }
    char dev[300];
    if (!sweep_measure_busy(a) && gpu_worker_status(a->worker, dev, sizeof dev) == WORKER_READY &&
        a->submitted != a->gen && app_now_ms() - a->changed_ms >= 250) {
        measure_plan p;
        char err[600], note[400] = "";
        int major, minor;
        a->submitted = a->gen;
        /* the plan under the GPU's own model: another architecture's rules (cc 1.x half-warps
         * on an sm_90) are never shown as its prediction; the view keeps the chosen one */
        const banks_profile *view_arch = a->sc.arch;
        if (gpu_worker_cc(a->worker, &major, &minor))
            a->sc.arch = measure_plan_compare_arch(view_arch, major, minor, note, sizeof note);
        a->pred_arch = a->sc.arch;
        a->pred_no_model = note[0] && a->sc.arch == view_arch;
        bool made = measure_plan_make(&a->sc, a->access, a->iteration, &p, err, sizeof err);
        a->sc.arch = view_arch;
        if (made) {
            a->pred_cycles = p.cycles_predicted ? p.cycles_per_access : -1; /* cp.async: not predicted */
            a->pred_wavefronts = p.wavefronts;
            a->pred_conflicts = p.bank_conflicts;
            gpu_worker_submit(a->worker, &p.rq, a->gen);
            measure_plan_free(&p);
        } else {
            a->have_meas = true;
            a->meas = (gpu_worker_result){.id = a->gen, .ok = false};
            snprintf(a->meas.error, sizeof a->meas.error, "cannot measure: %.250s", err);
        }
        redraw = true;
    }
    a->spinner++;
    char old[300];
    snprintf(old, sizeof old, "%s", a->gpu_status);
    gpu_status_text(a);
    return redraw || strcmp(old, a->gpu_status) != 0;
}
