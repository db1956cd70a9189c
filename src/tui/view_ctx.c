/* view_ctx: the application's side of the view layer: one view context per frame, made from the
 * app state and the modes on the stack, so the panels below never read either. The view options
 * (compare, step, quiz, lesson, presentation) come from the modes open at any depth, so they
 * combine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

/* The title's first word for the top view mode, "" for the main view. */
static const char *mode_title(const tui_app *a)
{
    const compare_state *cs = app_mode_state(a, MODE_COMPARE);
    switch (app_top(a)->id) {
    case MODE_COMPARE: return cs && cs->ok ? "COMPARE" : "";
    case MODE_STEP: return "STEP";
    case MODE_QUIZ: return "QUIZ";
    case MODE_PRESENT: return "PRESENT";
    default: break;
    }
    if (cs && cs->ok) /* never the title without the comparison */
        return "COMPARE";
    return "";
}

void app_bar_draw(tui_app *a)
{
    tui_vctx v;
    app_view_context(a, &v);
    panel_bar_draw(&v);
}

/* A recording's line of the instruction on show, with its measured numbers, or NULL: from the
 * recording read when the file was opened (app_open). */
static const source_record_line *recorded_line(tui_app *a)
{
    const recording_doc *d = a->rec.doc;
    if (!a->sc.recording || !d || d->rc != 1 || !d->r.measured)
        return NULL;
    if (a->rec.access != a->access) { /* the row holding the instruction on show */
        a->rec.access = a->access;
        a->rec.line = -1;
        for (int i = 0; i < d->r.nrows && a->rec.line < 0; i++)
            for (int k = 0; k < d->r.rows[i].ninstructions; k++)
                if (d->r.rows[i].instructions[k] == a->access) {
                    a->rec.line = i;
                    break;
                }
    }
    const source_record_line *l = a->rec.line >= 0 ? &d->r.rows[a->rec.line] : NULL;
    return l && l->measured.known ? l : NULL;
}

/* The recording's PC of the instruction on show, when the count run measured it there (NULL:
 * no PC, or not measured at it). */
static const recording_pc *recorded_pc(const tui_app *a)
{
    if (a->access < 0 || a->access >= a->sc.ntrace || !a->sc.trace_at)
        return NULL;
    int64_t pc = a->sc.trace_at[a->access].pc;
    const recording *r = &a->rec.doc->r; /* (a recorded line was found: the recording was read) */
    for (int i = 0; pc >= 0 && i < r->npcs; i++)
        if (r->pcs[i].pc == pc)
            return r->pcs[i].has_measured ? &r->pcs[i] : NULL;
    return NULL;
}

void app_view_context(tui_app *a, tui_vctx *v)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    memset(v, 0, sizeof *v);
    v->crt = &a->crt;
    v->cols = a->cols;
    v->rows = a->rows;
    v->frame = &a->frame;
    v->sc = &a->sc;
    v->view = &a->view;
    v->other = cs && cs->ok && cs->view.valid ? &cs->view : NULL;
    v->source = a->shown_name && a->source && !strcmp(a->source, a->shown_file) ? a->shown_name : a->source;
    v->modified = a->modified;
    v->access = a->access;
    v->warp = a->warp;
    v->iteration = a->iteration;
    v->sel_lane = a->sel_lane;
    v->focus = a->focus;
    v->map_scroll = a->map_scroll;
    if (app_in_mode(a, MODE_COMPARE))
        v->opts |= VIEW_COMPARE;
    if (app_in_mode(a, MODE_STEP))
        v->opts |= VIEW_STEP;
    if (app_in_mode(a, MODE_QUIZ))
        v->opts |= VIEW_QUIZ;
    const lesson_state *ls = app_mode_state(a, MODE_LESSON);
    if (ls)
        v->opts |= VIEW_LESSON;
    if (app_in_mode(a, MODE_PRESENT))
        v->opts |= VIEW_PRESENT;
    v->mode_title = mode_title(a);
    const quiz_state *q = app_mode_state(a, MODE_QUIZ);
    v->step_shown = step_shown(a);
    v->quiz_hidden = quiz_hidden(a);
    v->quiz_guess = q ? q->guess : 0;
    v->quiz_typed = q ? q->buf : "";
    if (v->opts & VIEW_LESSON) {
        v->lesson_step = ls->step;
        v->lesson_nsteps = ls->les.nsteps;
        v->lesson_title = ls->les.title;
        v->lesson_text = ls->les.steps[ls->step].text;
    }
    v->totals = a->totals_valid ? &a->totals : NULL;
    v->totals_progress = jobs_progress(a, JOB_TOTALS);
    v->totals_refused = jobs_refused(a, JOB_TOTALS);
    const source_record_line *rl = recorded_line(a);
    const recording_pc *rp = rl && rl->line <= 0 ? recorded_pc(a) : NULL;
    v->measured = (tui_measured){.rec_line = rl,
                                 .rec_pc = rp ? rp->pc : -1,
                                 .rec_pc_counts = rp ? &rp->m : NULL,
                                 .rec_blocks = rl ? a->rec.doc->r.blocks : 0,
                                 .fresh = a->have_meas && a->meas.id == a->gen && a->meas.ok,
                                 .meas = &a->meas,
                                 .pred_cycles = a->pred_cycles,
                                 .pred_wavefronts = a->pred_wavefronts,
                                 .pred_conflicts = a->pred_conflicts,
                                 .pred_arch = a->pred_arch,
                                 .pred_no_model = a->pred_no_model,
                                 .status = a->gpu_status};
    v->message = a->message;
    v->message_error = a->message_error;
    v->nhints = actions_keyhints(a, app_top(a)->id, v->hints, VIEW_MAX_HINTS);
}
