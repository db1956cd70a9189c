/* sweep_measure: the advisor's padding sweep measured on the GPU from the TUI (`m` in the
 * advisor). One request at a time goes to the worker: every access of the scenario at each
 * padding (iteration 0, throughput only), as `bankscope sweep --measure` does; the row's
 * result is the mean cycles per warp-instruction weighted by the warps that issue it. Any
 * change of the scenario cancels the run. */
#include <stdio.h>
#include <string.h>

#include "core/measure_plan.h"
#include "tui/app.h"

/* Request ids of the sweep never meet the edit generations of the normal measurement. */
#define SWEEP_ID_BASE (1UL << (sizeof(unsigned long) * 8 - 2))

/* Build and submit the request for (row, access) with the array padded as the row says;
 * false with sw->error set when it cannot be built. */
static bool submit(tui_app *a, advisor_state *ad)
{
    tui_sweep *sw = &ad->sweep;
    measure_plan p;
    char err[280];
    int pad = ad->res->rows[sw->row].pad;
    if (!measure_plan_padded(&a->sc, ad->res->array, pad, sw->access, &p, err, sizeof err)) {
        snprintf(sw->error, sizeof sw->error, "cannot measure padding %d: %s", pad, err);
        return false;
    }
    p.rq.counters = false;
    p.rq.latency_warp = -1;
    sw->warps_now = p.active_warps;
    sw->pred_now = p.cycles_predicted ? p.cycles_per_access : -1; /* cp.async: not predicted */
    sw->id = SWEEP_ID_BASE + (++sw->requests);
    gpu_worker_submit(a->worker, &p.rq, sw->id);
    measure_plan_free(&p);
    return true;
}

/* Move to the next (row, access) that can be measured and submit it; at the end, stop. A row
 * whose kernel cannot be built is skipped (its message stays on show). */
static void next(tui_app *a, advisor_state *ad)
{
    tui_sweep *sw = &ad->sweep;
    while (sw->running) {
        if (++sw->access >= a->sc.naccesses) {
            sw->access = 0;
            sw->row++;
        }
        if (sw->row >= ad->res->nrows) {
            sw->running = false;
            sw->done = true;
            return;
        }
        if (!ad->res->rows[sw->row].valid)
            continue;
        if (sw->access == 0)
            sw->sum = sw->pred_sum = 0, sw->warps = 0;
        if (submit(a, ad))
            return;
        sw->access = a->sc.naccesses - 1; /* on to the next row */
    }
}

bool sweep_measure_start(tui_app *a)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    if (!ad)
        return false;
    tui_sweep *sw = &ad->sweep;
    unsigned long requests = sw->requests;
    *sw = (tui_sweep){.gen = a->gen, .row = 0, .access = -1, .requests = requests};
    for (int i = 0; i < (int)(sizeof sw->measured / sizeof sw->measured[0]); i++)
        sw->measured[i] = sw->predicted[i] = -1;
    char dev[300];
    gpu_worker_state st = a->worker ? gpu_worker_status(a->worker, dev, sizeof dev) : WORKER_NO_GPU;
    if (!a->worker)
        snprintf(sw->error, sizeof sw->error, "no GPU (--no-gpu): the sweep is predicted only");
    else if (st == WORKER_OPENING)
        snprintf(sw->error, sizeof sw->error, "the GPU is still opening: press m again in a moment");
    else if (st == WORKER_NO_GPU)
        snprintf(sw->error, sizeof sw->error, "no GPU: the sweep is predicted only");
    else if (!scenario_has_layout(&a->sc))
        snprintf(sw->error, sizeof sw->error, "no array to pad in a trace");
    else if (!ad->res) { /* started by jobs.c when the predicted sweep arrives */
        sw->queued = true;
        snprintf(sw->error, sizeof sw->error, "the GPU sweep starts when the predicted sweep is ready");
    }
    if (sw->error[0])
        return false;
    sw->running = true;
    next(a, ad);
    /* the worker keeps only the newest request: the normal measurement is sent again after */
    a->submitted = a->gen - 1;
    return true;
}

void sweep_measure_cancel(tui_app *a)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    if (!ad)
        return;
    ad->sweep.queued = false;
    ad->sweep.running = false;
    ad->sweep.done = false;
    ad->sweep.nmeasured = 0;
}

/* False for a result that is not the sweep's (the advisor closed: no sweep runs). */
bool sweep_measure_result(tui_app *a, const gpu_worker_result *r)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    if (!ad)
        return false;
    tui_sweep *sw = &ad->sweep;
    if (!sw->running || r->id != sw->id)
        return false;
    if (sw->gen != a->gen) { /* the scenario changed: the rows no longer describe it */
        sweep_measure_cancel(a);
        return true;
    }
    if (!r->ok) {
        snprintf(sw->error, sizeof sw->error, "GPU error: %.250s", r->error);
        sw->running = false;
        return true;
    }
    sw->sum += r->m.cycles_per_access * sw->warps_now;
    if (sw->pred_now < 0 || sw->pred_sum < 0) /* one unpredicted access: no prediction for the row */
        sw->pred_sum = -1;
    else
        sw->pred_sum += sw->pred_now * sw->warps_now;
    sw->warps += sw->warps_now;
    if (sw->access == a->sc.naccesses - 1) {
        sw->measured[sw->row] = sw->warps ? sw->sum / sw->warps : 0;
        sw->predicted[sw->row] = sw->pred_sum < 0 ? -1 : sw->warps ? sw->pred_sum / sw->warps : 0;
        sw->nmeasured++;
    }
    next(a, ad);
    return true;
}

bool sweep_measure_busy(const tui_app *a)
{
    const advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    return ad && ad->sweep.running;
}
