/* state: the TUI's state record: opening a scenario (file, library pattern or lesson), the
 * analysed view of the selected warp-instruction, messages, and the one way the scenario changes
 * (a validated copy through scenario_edit, with undo), with reactions acted on in one place. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/lesson.h"
#include "io/library.h"
#include "io/load.h"
#include "io/save.h"
#include "tui/app.h"

double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void app_set_message(tui_app *a, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    a->message_error = error;
}

/* Find source in the pattern library; -1 when it is not a library name. */
static int pattern_index(const char *source)
{
    int n;
    const library_entry *e = library_patterns(&n);
    size_t len = strlen(source);
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].name, source) == 0 ||
            (strncmp(e[i].name, source, len) == 0 && strcmp(e[i].name + len, ".json") == 0))
            return i;
    return -1;
}

/* True when source (a file or a library name) holds a lesson. */
static bool source_is_lesson(const char *source)
{
    size_t len = 0;
    bool owned = false;
    io_error e;
    const char *text = load_source_text(source, &len, &owned, &e);
    bool is = text && lesson_is(text, len);
    if (owned)
        free((char *)text);
    return is;
}

/* Put a freshly loaded scenario on show: selection reset, history cleared. */
static void app_take(tui_app *a, scenario *s, const char *source)
{
    scenario_history_free(&a->hist);
    scenario_free(&a->sc);
    a->sc = *s;
    char *src = xstrdup(source);
    free(a->source);
    a->source = src;
    a->access = a->iteration = 0;
    a->warp = scenario_selected_warp(&a->sc, 0); /* 0 for a trace */
    a->sel_lane = -1;                            /* no lane selected until one is chosen (arrows, a click) */
    a->grid_scroll = a->map_scroll = 0;
    step_restart(a);
    a->pattern = pattern_index(source);
    a->modified = false;
    quiz_restart(a);
    a->scen_gen++;
    scenario_free(&a->saved);
    scenario_clone(&a->sc, &a->saved); /* the description copied, the trace's table shared */
    recording_doc_drop(a->rec.doc);    /* the recording of the file shown before */
    a->rec.doc = NULL;
    a->rec.access = a->rec.line = -1;
}

bool app_open(tui_app *a, const char *source, char *err, size_t errlen)
{
    scenario s;
    io_error e;
    recording_doc *doc = NULL;
    int tr = load_trace_file(source, NULL, &s, &doc, &e); /* a trace (a recording): read once */
    if (tr < 0) {
        snprintf(err, errlen, "%s", e.text);
        return false;
    }
    if (tr > 0) {
        app_take(a, &s, source);
        a->rec.doc = doc; /* its recording, read in the same pass, borrowed by the views */
        return true;
    }
    if (source_is_lesson(source)) {
        lesson l;
        if (!lesson_load(source, &l, &e)) {
            snprintf(err, errlen, "%s", e.text);
            return false;
        }
        if (!load_scenario_file(l.steps[0].pattern, NULL, &s, &e)) {
            snprintf(err, errlen, "%s", e.text);
            lesson_free(&l);
            return false;
        }
        app_take(a, &s, l.steps[0].pattern);
        lesson_open(a, &l);
        return true;
    }
    if (!load_scenario_file(source, NULL, &s, &e)) {
        snprintf(err, errlen, "%s", e.text);
        return false;
    }
    app_take(a, &s, source);
    return true;
}

void app_free(tui_app *a)
{
    app_modes_free(a); /* the open modes' own states */
    jobs_free(a);
    scenario_history_free(&a->hist);
    scenario_free(&a->sc);
    recording_doc_drop(a->rec.doc);
    free(a->source);
    scenario_free(&a->saved);
}

/* Keep the selection inside the scenario after an edit. */
static void clamp_selection(tui_app *a)
{
    const scenario *s = &a->sc;
    int nacc = scenario_access_count(s);
    if (a->access >= nacc)
        a->access = nacc - 1;
    if (a->iteration >= s->iterations)
        a->iteration = s->iterations - 1;
    if (a->warp >= scenario_warp_count(s)) /* a trace's: 1 */
        a->warp = scenario_warp_count(s) - 1;
}

void app_refresh_view(tui_app *a)
{
    clamp_selection(a);
    view_build(&a->sc, a->access, a->iteration, a->warp, &a->view);
    step_clamp(a, a->view.res.wavefronts);
    compare_state *c = app_mode_state(a, MODE_COMPARE);
    if (c && c->ok) {
        const scenario *o = &c->other;
        int acc = c->pinned ? c->access : a->access, it = c->pinned ? c->iteration : a->iteration;
        int w = c->pinned ? c->warp : a->warp;
        if (acc >= scenario_access_count(o))
            acc = scenario_access_count(o) - 1;
        if (it >= o->iterations)
            it = o->iterations - 1;
        if (w >= scenario_warp_count(o))
            w = scenario_warp_count(o) - 1;
        view_build(o, acc, it, w, &c->view);
    }
}

void app_react(tui_app *a, int flags)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    if (flags & REACT_EDITED) {
        a->scen_gen++;
        step_restart(a);
        quiz_restart(a);
        sweep_measure_cancel(a);
        jobs_start_totals(a);
        if (cs && !cs->pinned && !cs->file)
            jobs_start_variant(a);
        const advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
        if (ad)
            jobs_start_advisor(a, ad->res ? ad->res->array : a->sc.accesses[a->access].array);
        flags |= REACT_MEASURE | REACT_RECOMPUTE;
        if (a->modified && a->saved.arch) /* back to what the file holds ("+" then "-"): unmodified */
            a->modified = !scenario_same_file(&a->sc, &a->saved);
    }
    if (flags & REACT_MEASURE) {
        sweep_measure_cancel(a);
        a->gen++;
        a->changed_ms = app_now_ms();
    }
    if (flags & (REACT_RECOMPUTE | REACT_EDITED))
        app_refresh_view(a);
}

int app_edit(tui_app *a, scenario_edit_fn fn, void *ctx, const char *done)
{
    char msg[300];
    if (!scenario_edit_apply(&a->sc, &a->hist, fn, ctx, msg, sizeof msg)) {
        app_set_message(a, true, "%s", msg[0] ? msg : "that edit does not validate");
        return REACT_REDRAW;
    }
    a->modified = true;
    if (done)
        app_set_message(a, false, "%s", done);
    else if (msg[0])
        app_set_message(a, false, "%s", msg);
    return REACT_EDITED | REACT_REDRAW;
}

/* A change followed by the loader's check of every lane's expressions, so that an edit a saved
 * file could not be opened with (a block that divides by zero in some lane) is refused whole. */
typedef struct checked_change {
    const scenario_change *c;
} checked_change;

static bool change_checked(scenario *s, void *ctx, char *msg, size_t n)
{
    const checked_change *cc = ctx;
    if (!scenario_change_apply(s, cc->c, msg, n))
        return false;
    scenario_error err;
    if (!scenario_finish(s, &err)) {
        snprintf(msg, n, "%.60s: %.160s", err.path, err.msg);
        return false;
    }
    if (load_check_eval(s, &err))
        return true;
    snprintf(msg, n, "%.60s: %.160s", err.path, err.msg);
    return false;
}

int app_change(tui_app *a, const scenario_change *c, bool check_lanes)
{
    checked_change cc = {c};
    return check_lanes ? app_edit(a, change_checked, &cc, NULL) : app_edit(a, scenario_change_fn, (void *)c, NULL);
}

int app_replace(tui_app *a, scenario *next, const char *done)
{
    scenario_edit_replace(&a->sc, &a->hist, next);
    a->modified = true;
    if (done)
        app_set_message(a, false, "%s", done);
    return REACT_EDITED | REACT_REDRAW;
}

int64_t app_instr_seq(const tui_app *a)
{
    const scenario *s = &a->sc;
    if (!scenario_has_layout(s))
        return a->access;
    int64_t k = ((int64_t)a->iteration * s->naccesses + a->access) * scenario_selected_warps(s);
    for (int w = 0; w < scenario_selected_warps(s); w++)
        if (scenario_selected_warp(s, w) == a->warp)
            return k + w;
    return -1; /* a warp the scenario's "warps" leaves out: not one of analyze's instructions */
}

/* Step an open lesson forwards or back (stopping at its ends). */
static int lesson_move(tui_app *a, lesson_state *ls, int delta)
{
    int k = ls->step + delta;
    if (k < 0 || k >= ls->les.nsteps) {
        app_set_message(a, false, "%s of the lesson (Esc leaves it)", k < 0 ? "start" : "end");
        return REACT_REDRAW;
    }
    scenario s;
    io_error e;
    if (!load_scenario_file(ls->les.steps[k].pattern, NULL, &s, &e)) {
        app_set_message(a, true, "%s", e.text);
        return REACT_REDRAW;
    }
    app_take(a, &s, ls->les.steps[k].pattern);
    ls->step = k;
    return REACT_EDITED | REACT_REDRAW;
}

int app_open_relative(tui_app *a, int delta, bool confirmed)
{
    /* a lesson's steps show library patterns: the edits a step asks for are the exercise, not
     * work to keep, so moving between steps does not ask (S still saves them first) */
    lesson_state *ls = app_mode_state(a, MODE_LESSON);
    if (a->modified && !confirmed && !ls) {
        prompt_open(a, PROMPT_OPEN, NULL, delta);
        return REACT_REDRAW;
    }
    if (ls)
        return lesson_move(a, ls, delta);
    int n;
    const library_entry *e = library_patterns(&n);
    int k = a->pattern < 0 ? 0 : ((a->pattern + delta) % n + n) % n;
    char name[256];
    snprintf(name, sizeof name, "%s", e[k].name);
    char *dot = strstr(name, ".json");
    if (dot)
        *dot = '\0';
    char err[640];
    if (!app_open(a, name, err, sizeof err)) {
        app_set_message(a, true, "%s", err);
        return REACT_REDRAW;
    }
    if (app_in_mode(a, MODE_LESSON))
        return REACT_EDITED | REACT_REDRAW;
    app_set_message(a, false, "%s", a->sc.name ? a->sc.name : name);
    return REACT_EDITED | REACT_REDRAW;
}
