/* mode_main: the main view (grid, result, why, lanes, map, bars) that every view mode draws,
 * and the main and lesson modes. The lesson mode keeps the lesson's text in the why panel and
 * n/p step through it; Esc or q leaves the lesson and keeps the scenario on show. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

/* Caption of a grid: which warp-instruction it shows. */
void grid_caption(const tui_app *a, const scenario *s, const tui_view *v, char *buf, size_t n, const char *prefix)
{
    (void)a;
    if (!scenario_has_layout(s)) {
        int k = (int)v->in.seq;
        const char *wi = s->whatif ? s->whatif : "", *sep = s->whatif ? " | " : "";
        const char *wl = s->whatif ? "what-if: " : "";
        const scenario_srcloc *at = s->trace_at ? &s->trace_at[k] : NULL;
        if (at && at->sass) { /* a recording: its line, the warp that ran it and its SASS */
            const char *file = at->file ? strrchr(at->file, '/') : NULL;
            file = file ? file + 1 : at->file ? at->file : "(no line info)";
            if (at->line > 0)
                snprintf(buf, n, "%s%s%s%sbanks: trace[%d] %s:%d, warp %d: %s", prefix, wl, wi, sep, k, file, at->line,
                         at->warp, at->sass);
            else
                snprintf(buf, n, "%s%s%s%sbanks: trace[%d] %s, warp %d: %s", prefix, wl, wi, sep, k, file, at->warp,
                         at->sass);
            return;
        }
        snprintf(buf, n, "%s%s%s%sbanks: trace[%d] %s, %d B", prefix, wl, wi, sep, k, banks_op_name(s->trace[k].op),
                 s->trace[k].width);
        return;
    }
    const scenario_access *ac = &s->accesses[v->in.access];
    int k = snprintf(buf, n, "%sbanks: warp %d %s %s", prefix, v->in.warp, banks_op_name(ac->op),
                     s->arrays[ac->array].name);
    for (int d = 0; d < ac->nidx && k >= 0 && (size_t)k < n; d++)
        k += snprintf(buf + k, n - (size_t)k, "[%s]", ac->index_text[d]);
    if (ac->field && k >= 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, ".%s", ac->field);
    if (k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " (%s, %d B%s%s)%s%s%s%s", ac->type_text, ac->width,
                 s->arrays[ac->array].swizzle ? ", swizzle " : "",
                 s->arrays[ac->array].swizzle ? s->arrays[ac->array].swizzle : "", ac->label ? " - " : "",
                 ac->label ? ac->label : "", ac->source ? ": " : "", ac->source ? ac->source : "");
}

/* Wavefronts the grid reveals: all (-1), the step so far, or none while a prediction is due (-2). */
static int grid_shown(const tui_app *a)
{
    return quiz_hidden(a) ? -2 : step_shown(a);
}

void compare_caption(const tui_app *a, bool other, char *buf, size_t n)
{
    const compare_state *cs = app_mode_state(a, MODE_COMPARE);
    const scenario *s = other ? &cs->other : &a->sc;
    char decl[200];
    view_declaration(s, other && cs->pinned ? cs->access : a->access, decl, sizeof decl);
    if (other) { /* the label's first word ("SoA", "best", "no", "pinned") keeps the caption short */
        char label[32];
        snprintf(label, sizeof label, "%.31s", cs->pinned ? "pinned" : cs->label);
        if (!cs->pinned && strncmp(label, "SoA", 3) == 0)
            label[3] = '\0';
        snprintf(buf, n, "%s: %s (%s)", label, decl, s->arch->name);
    } else
        snprintf(buf, n, "%s%s%s: %s (%s)", s->whatif ? "what-if: " : "now", s->whatif ? s->whatif : "",
                 s->whatif ? "" : "", decl, s->arch->name);
}

void view_draw(tui_app *a)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    /* a mode opened from the presentation (step, quiz, lesson) keeps the presentation's picture:
     * the frame's grid geometry is the presentation's then (frame_compute) */
    if (app_in_mode(a, MODE_PRESENT) && !(cs && !cs->ok)) {
        mode_present.draw(a);
        return;
    }
    const tui_frame *f = &a->frame;
    const layout *L = &f->lay;
    tui_vctx v;
    app_view_context(a, &v);
    panel_title_draw(&v);
    char cap[300];
    int shown = grid_shown(a);
    if (cs && cs->ok) {
        compare_caption(a, false, cap, sizeof cap);
        panel_grid_draw(&v, &f->grid, &a->sc, &a->view, cap, false, shown);
        compare_caption(a, true, cap, sizeof cap);
        panel_grid_draw(&v, &f->grid2, &cs->other, &cs->view, cap, false, shown);
        panel_result_draw(&v, &L->result, &a->sc, &a->view, "now", true);
        panel_result_draw(&v, &L->result2, &cs->other, &cs->view, cs->pinned ? "pinned" : cs->label, false);
        if (cs->file && cs->diff.n)
            compare_diff_draw(a, L->why);
        else
            panel_why_draw(&v, &L->why, false);
    } else {
        grid_caption(a, &a->sc, &a->view, cap, sizeof cap, "");
        panel_grid_draw(&v, &f->grid, &a->sc, &a->view, cap, a->focus == 0, shown);
        panel_result_draw(&v, &L->result, &a->sc, &a->view, a->sc.whatif ? "what-if result" : "result", true);
        panel_why_draw(&v, &L->why, L->side);
        if (L->map.h > 0)
            a->map_scroll = panel_map_draw(&v, &L->map);
        if (a->focus == 2 && L->map.h == 0)
            a->map_scroll = panel_map_draw(&v, &L->lanes); /* narrow: the map takes the lanes' place while focused */
        else
            panel_lanes_draw(&v, &f->lanes);
        /* the compare's line takes the why panel's first line (inside its frame where it has one),
         * the whole line: nothing of the why shows through after it */
        layout_rect in = L->side ? (layout_rect){L->why.y + 1, L->why.x + 1, L->why.h - 2, L->why.w - 2} : L->why;
        if (cs && in.h > 0 && in.w > 0)
            draw_fill(&a->crt, in.y, in.x, in.w, ROLE_NORMAL);
        if (cs && cs->pending && in.h > 0) { /* the variant is on its way: how far */
            double p = jobs_progress(a, JOB_VARIANT);
            draw_text(&a->crt, in.y, in.x, in.w, ROLE_HILITE,
                      "compare: computing the variant (%.0f %% of the paddings)", p < 0 ? 0.0 : 100 * p);
        } else if (cs && in.h > 0) { /* compare asked for but not possible: say why, wrapped over the
                                        top of the why panel (never cut), each line whole */
            char text[400], **lines;
            snprintf(text, sizeof text, "compare: %s", cs->error);
            int n = draw_wrap(text, in.w, &lines);
            for (int i = 0; i < n && i < in.h; i++) {
                draw_fill(&a->crt, in.y + i, in.x, in.w, ROLE_NORMAL);
                draw_text(&a->crt, in.y + i, in.x, in.w, ROLE_ERROR, "%s", lines[i]);
            }
            draw_wrap_free(lines, n);
        }
    }
    panel_bar_draw(&v);
}

static int lesson_leave_key(tui_app *a, int key)
{
    return actions_dispatch(a, MODE_LESSON, key);
}

static void lesson_leave(tui_app *a)
{
    app_set_message(a, false, "left the lesson; n/p move through the library");
}

static void lesson_release(void *st)
{
    lesson_state *ls = st;
    lesson_free(&ls->les);
}

/* A lesson opened while one is open replaces it in place (one lesson mode on the stack). */
void lesson_open(tui_app *a, lesson *l)
{
    lesson_state *ls = app_mode_state(a, MODE_LESSON);
    if (!ls && app_push(a, &mode_lesson))
        ls = app_mode_state(a, MODE_LESSON);
    if (!ls) {
        lesson_free(l);
        return;
    }
    lesson_free(&ls->les);
    *ls = (lesson_state){.les = *l};
}

const tui_mode mode_main = {
    .id = MODE_MAIN,
    .name = "main view",
    .draw = view_draw,
};
const tui_mode mode_lesson = {
    .id = MODE_LESSON,
    .name = "lesson",
    .key = lesson_leave_key,
    .draw = view_draw,
    .leave = lesson_leave,
    .state_size = sizeof(lesson_state),
    .release = lesson_release,
};
