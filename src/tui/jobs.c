/* jobs: long work off the key path. Each job runs in its own thread on a private copy of the
 * scenario (scenario_clone), so the TUI never waits for it and never shares a mutable scenario:
 * the totals over every warp-instruction (what `analyze` sums), the advisor's padding sweep, and
 * the compare variant's padding search. Progress is read from atomics; a new edit cancels the
 * running job (it stops at its next instruction, or its result is dropped) and starts another.
 * A job is estimated first as the command that does the same work is (io/work.h): one over the
 * work limit is not started, and the panel says what it would cost and that ! (or --force)
 * starts it anyway. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/analysis.h"
#include "io/load.h"
#include "io/work.h"
#include "tui/app.h"

struct tui_job {
    pthread_t th;
    tui_job_kind kind;
    scenario sc; /* owned copy */
    int access, array;
    unsigned long gen; /* scenario generation it belongs to */
    atomic_int cancel, finished;
    atomic_llong done;
    int64_t total;
    /* results */
    tui_totals totals;
    advisor_result *adv;
    scenario variant;
    bool variant_ok;
    char label[200];
    bool check_ok; /* JOB_CHECK */
    scenario_error check_err;
    unsigned long serial;
    tui_job *next; /* in the abandoned list */
};

/* The totals of every warp-instruction of s from the core's analysis (the walk `analyze`'s
 * report takes); stops early when cancel is set. */
static void totals_run(const scenario *s, tui_totals *t, atomic_int *cancel, atomic_llong *done)
{
    report_totals rt;
    analysis_totals(s, &rt, &(analysis_progress){.cancel = cancel, .done = done});
    *t = (tui_totals){.instructions = rt.instructions,
                      .wavefronts = rt.wavefronts,
                      .ideal = rt.ideal,
                      .conflicts = rt.conflicts,
                      .idle = rt.idle,
                      .worst = rt.worst_degree,
                      .excl = rt.excluded};
}

/* The compare variant: the struct-of-arrays form when the access reads a struct field, else the
 * smallest padding (0..32) with the fewest wavefronts for this access; when the current padding
 * is already that good, the contrast is no padding at all. */
static void variant_run(tui_job *j)
{
    scenario *s = &j->sc;
    const scenario_access *ac = &s->accesses[j->access];
    if (s->arrays[ac->array].type.struct_index >= 0 && ac->field) {
        j->variant_ok = scenario_edit_soa(s, &j->variant, j->label, sizeof j->label);
        return;
    }
    scenario_array *arr = &s->arrays[ac->array];
    int last = arr->ndims - 1;
    int64_t start = arr->pad[last], best_pad = -1, best = INT64_MAX;
    int64_t now = analysis_access_wavefronts(s, j->access, &(analysis_progress){.cancel = &j->cancel});
    scenario_error e;
    for (int64_t p = 0; p <= 32 && !atomic_load(&j->cancel); p++) {
        atomic_store(&j->done, p);
        arr->pad[last] = p;
        if (p == start || !scenario_finish(s, &e))
            continue;
        int64_t w = analysis_access_wavefronts(s, j->access, &(analysis_progress){.cancel = &j->cancel});
        if (w < best) {
            best = w;
            best_pad = p;
        }
    }
    arr->pad[last] = start;
    scenario_finish(s, &e);
    if (atomic_load(&j->cancel))
        return;
    bool contrast = best_pad < 0 || best >= now;
    if (contrast)
        best_pad = start != 0 ? 0 : -1;
    if (best_pad < 0) {
        snprintf(j->label, sizeof j->label, "no other padding is better");
        return;
    }
    if (!scenario_clone(s, &j->variant)) {
        snprintf(j->label, sizeof j->label, "no variant");
        return;
    }
    j->variant.arrays[ac->array].pad[last] = best_pad;
    if (!scenario_finish(&j->variant, &e)) {
        scenario_free(&j->variant);
        snprintf(j->label, sizeof j->label, "no other padding validates");
        return;
    }
    j->variant_ok = true;
    if (contrast)
        snprintf(j->label, sizeof j->label, "no padding");
    else
        snprintf(j->label, sizeof j->label, "best padding");
}

/* The advisor's hooks: its cancel flag, and progress in thousandths. */
static bool job_cancelled(void *ctx)
{
    return atomic_load(&((tui_job *)ctx)->cancel) != 0;
}

static void job_progress(void *ctx, double f)
{
    atomic_store(&((tui_job *)ctx)->done, (long long)(f * 1000));
}

static void *job_main(void *arg)
{
    tui_job *j = arg;
    switch (j->kind) {
    case JOB_TOTALS: totals_run(&j->sc, &j->totals, &j->cancel, &j->done); break;
    case JOB_ADVISOR:
        j->adv = xmalloc(sizeof *j->adv);
        advisor_sweep_hooked(&j->sc, j->array, 32,
                             &(advisor_hooks){.cancelled = job_cancelled, .progress = job_progress, .ctx = j}, j->adv);
        break;
    case JOB_VARIANT: variant_run(j); break;
    case JOB_CHECK: /* a newer edit sets cancel: the check stops, and its answer is never read */
        j->check_ok = load_check_eval_job(&j->sc, &j->cancel, &j->check_err) == SCENARIO_CHECK_OK;
        break;
    default: break;
    }
    atomic_store(&j->finished, 1);
    return NULL;
}

static void job_free(tui_job *j)
{
    pthread_join(j->th, NULL);
    scenario_free(&j->sc);
    scenario_free(&j->variant);
    free(j->adv);
    free(j);
}

void jobs_cancel(tui_app *a, tui_job_kind k)
{
    tui_job *j = a->jobs[k];
    if (!j)
        return;
    atomic_store(&j->cancel, 1);
    j->next = a->abandoned;
    a->abandoned = j;
    a->jobs[k] = NULL;
}

/* Whether a job of kind k on access may start (the work limit, unless forced); when not, why
 * goes to a->job_refused[k]. */
static bool job_admitted(tui_app *a, tui_job_kind k, int access)
{
    a->job_refused[k][0] = '\0';
    if (k != JOB_TOTALS && k != JOB_ADVISOR && k != JOB_VARIANT)
        return true;
    work_job w = k == JOB_TOTALS ? WORK_JOB_TOTALS : k == JOB_ADVISOR ? WORK_JOB_SWEEP : WORK_JOB_VARIANT;
    work_estimate e;
    if (work_job_admitted(&a->sc, w, access, a->jobs_force, &e))
        return true;
    work_cost_text(&e, a->job_refused[k], sizeof a->job_refused[k]);
    return false;
}

/* Start a job of kind k on a copy of the scenario, or on own (taken over) when not NULL; the
 * previous job of that kind is cancelled. NULL when it did not start (over the work limit:
 * jobs_refused says so; or no copy or thread). */
static tui_job *job_start_on(tui_app *a, tui_job_kind k, int access, int array, scenario *own)
{
    jobs_cancel(a, k);
    if (!job_admitted(a, k, access))
        return NULL;
    tui_job *j = xmalloc(sizeof *j);
    memset(j, 0, sizeof *j);
    j->kind = k;
    j->access = access;
    j->array = array;
    j->gen = a->scen_gen;
    atomic_init(&j->cancel, 0);
    atomic_init(&j->finished, 0);
    atomic_init(&j->done, 0);
    j->total = k == JOB_TOTALS ? scenario_instr_count(&a->sc) : k == JOB_VARIANT ? 33 : k == JOB_ADVISOR ? 1000 : 0;
    bool copied = own ? (j->sc = *own, memset(own, 0, sizeof *own), true) : scenario_clone(&a->sc, &j->sc);
    if (!copied || pthread_create(&j->th, NULL, job_main, j) != 0) {
        scenario_free(&j->sc);
        free(j);
        return NULL;
    }
    a->jobs[k] = j;
    return j;
}

static tui_job *job_start(tui_app *a, tui_job_kind k, int access, int array)
{
    return job_start_on(a, k, access, array, NULL);
}

void jobs_start_check(tui_app *a, scenario *candidate, unsigned long serial)
{
    tui_job *j = job_start_on(a, JOB_CHECK, 0, 0, candidate);
    if (j)
        j->serial = serial;
    else /* no thread could start: the text is refused, never taken unchecked */
        app_react(
            a, edit_check_done(a, serial, false, &(scenario_error){"check", -1, "no thread for the check: try again"}));
}

void jobs_start_totals(tui_app *a)
{
    a->totals_valid = false;
    job_start(a, JOB_TOTALS, 0, 0);
}

/* The advisor's sweep (its rows replaced when they arrive); only while the advisor is open. */
void jobs_start_advisor(tui_app *a, int array)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    if (!ad)
        return;
    free(ad->res);
    ad->res = NULL;
    job_start(a, JOB_ADVISOR, a->access, array);
}

void jobs_start_variant(tui_app *a)
{
    compare_state *c = app_mode_state(a, MODE_COMPARE);
    if (!c) /* only for an open compare */
        return;
    scenario_free(&c->other);
    c->ok = false;
    c->pinned = false;
    c->error[0] = '\0';
    if (!scenario_has_layout(&a->sc)) {
        jobs_cancel(a, JOB_VARIANT);
        c->pending = false;
        snprintf(c->error, sizeof c->error, "no variant for a trace (P pins a state to compare with)");
        return;
    }
    c->pending = job_start(a, JOB_VARIANT, a->access, 0) != NULL;
    if (jobs_refused(a, JOB_VARIANT))
        snprintf(c->error, sizeof c->error, "the variant was not computed: %s: ! computes it anyway (or --force)",
                 jobs_refused(a, JOB_VARIANT));
}

const char *jobs_refused(const tui_app *a, tui_job_kind k)
{
    return a->job_refused[k][0] ? a->job_refused[k] : NULL;
}

int jobs_force_key(tui_app *a, int key)
{
    (void)key;
    a->jobs_force = true;
    app_set_message(a, false, "background work now starts above the work limit, as with --force");
    if (jobs_refused(a, JOB_TOTALS))
        jobs_start_totals(a);
    if (jobs_refused(a, JOB_ADVISOR) && app_in_mode(a, MODE_ADVISOR))
        jobs_start_advisor(a, a->sc.accesses[a->access].array);
    const compare_state *c = app_mode_state(a, MODE_COMPARE);
    if (jobs_refused(a, JOB_VARIANT) && c && !c->pinned && !c->file)
        jobs_start_variant(a);
    for (int k = 0; k < JOB_KINDS; k++)
        a->job_refused[k][0] = '\0';
    return REACT_REDRAW;
}

/* Take the results of a finished job into the app, when they still describe its scenario. */
static bool job_take(tui_app *a, tui_job *j)
{
    if (j->kind != JOB_CHECK && j->gen != a->scen_gen) /* a check belongs to its serial instead */
        return false;
    switch (j->kind) {
    case JOB_TOTALS:
        a->totals = j->totals;
        a->totals_valid = true;
        return true;
    case JOB_ADVISOR: {
        advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
        if (!ad) /* closed since: the rows are dropped with the job */
            return false;
        free(ad->res);
        ad->res = j->adv;
        j->adv = NULL;
        if (ad->cursor < 0) /* the chosen row starts on the best padding */
            ad->cursor = ad->res->best_pad >= 0 ? ad->res->best_pad : ad->res->min_pad >= 0 ? ad->res->min_pad : 0;
        if (ad->sweep.queued) /* m was pressed while this sweep was computed */
            sweep_measure_start(a);
        return true;
    }
    case JOB_CHECK: app_react(a, edit_check_done(a, j->serial, j->check_ok, &j->check_err)); return true;
    case JOB_VARIANT: {
        compare_state *c = app_mode_state(a, MODE_COMPARE);
        if (!c) /* closed since: the variant is dropped with the job */
            return false;
        c->pending = false;
        if (c->pinned)
            return false;
        scenario_free(&c->other);
        c->ok = j->variant_ok;
        if (c->ok) {
            c->other = j->variant;
            memset(&j->variant, 0, sizeof j->variant);
            snprintf(c->label, sizeof c->label, "%s", j->label);
        } else {
            snprintf(c->error, sizeof c->error, "%s", j->label);
        }
        app_refresh_view(a);
        return true;
    }
    default: return false;
    }
}

bool jobs_poll(tui_app *a)
{
    bool changed = false;
    for (int k = 0; k < JOB_KINDS; k++) {
        tui_job *j = a->jobs[k];
        if (j && atomic_load(&j->finished)) {
            a->jobs[k] = NULL;
            changed |= job_take(a, j);
            job_free(j);
        }
    }
    for (tui_job **p = &a->abandoned; *p;) {
        tui_job *j = *p;
        if (atomic_load(&j->finished)) {
            *p = j->next;
            job_free(j);
        } else {
            p = &j->next;
        }
    }
    return changed;
}

bool jobs_busy(const tui_app *a)
{
    for (int k = 0; k < JOB_KINDS; k++)
        if (a->jobs[k])
            return true;
    return a->abandoned != NULL;
}

double jobs_progress(const tui_app *a, tui_job_kind k)
{
    const tui_job *j = a->jobs[k];
    if (!j || j->total <= 0)
        return -1;
    return (double)atomic_load(&((tui_job *)j)->done) / (double)j->total;
}

void jobs_wait_all(tui_app *a)
{
    for (;;) {
        bool all = true;
        for (int k = 0; k < JOB_KINDS; k++)
            all &= !a->jobs[k] || atomic_load(&a->jobs[k]->finished);
        if (all)
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    jobs_poll(a);
}

void jobs_free(tui_app *a)
{
    for (int k = 0; k < JOB_KINDS; k++)
        jobs_cancel(a, (tui_job_kind)k);
    while (a->abandoned) {
        tui_job *j = a->abandoned;
        a->abandoned = j->next;
        job_free(j);
    }
}
