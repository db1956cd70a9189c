/* mode_present: presentation for a projector: the grid alone with every row it has (scrolling
 * only when the terminal is shorter), the widest cells that fit, a big verdict, high-contrast
 * colours, and the why-line (the explanation's reason, or the lesson's text) as a banner. Every
 * view key still works; Esc or q leaves. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/explain.h"
#include "tui/app.h"

int present_toggle(tui_app *a, int key)
{
    (void)key;
    if (app_in_mode(a, MODE_PRESENT)) {
        while (app_in_mode(a, MODE_PRESENT))
            app_pop(a);
        return REACT_REDRAW;
    }
    app_push(a, &mode_present);
    return REACT_REDRAW;
}

static void present_enter(tui_app *a)
{
    a->crt.contrast = true;
}

static void present_leave(tui_app *a)
{
    a->crt.contrast = false;
}

/* Rows above the grid: the banner (2) and the verdict (6 with big digits, else 2). */
static int present_top(const tui_app *a)
{
    char head[160];
    tui_role role = headline_text(&a->sc, &a->view, head, sizeof head);
    bool hidden = quiz_hidden(a);
    bool big = !hidden && role != ROLE_WARN && a->rows >= 30 && a->view.res.active_lanes > 0;
    return 1 + 2 + (big ? 6 : 2);
}

grid_geom present_geom(const tui_app *a)
{
    int banks = a->sc.arch->banks;
    int lw, cw = layout_fit_cells(a->cols, banks, 4, &lw);
    if (lw == 2 && a->view.valid && a->view.res.wavefronts > 99) { /* two-digit row labels */
        cw--;
        lw = 5;
    }
    int y = present_top(a);
    layout_rect gr = {y, 0, a->rows - 1 - y, 2 + lw + banks * cw};
    grid_geom g = grid_geom_make(&gr, &a->view, a->grid_scroll, cw, lw);
    g.banks = banks;
    return g;
}

/* Rows above each grid of a presented compare: its declaration (1), its verdict (5 big, else 1)
 * and a blank line. */
static int present_compare_top(const tui_app *a)
{
    return 1 + 1 + (a->rows >= 30 ? 5 : 1) + 1;
}

/* The grid of one side of a presented compare (other: the right one), the widest cells that fit
 * half the screen; both sides share the scroll. */
grid_geom present_compare_geom(const tui_app *a, bool other)
{
    const compare_state *cs = app_mode_state(a, MODE_COMPARE);
    const tui_view *v = other ? &cs->view : &a->view;
    int other_banks = cs && cs->other.arch ? cs->other.arch->banks : a->sc.arch->banks;
    int banks = other ? other_banks : a->sc.arch->banks;
    int half = (a->cols - 1) / 2, x = other ? half + 1 : 0, w = other ? a->cols - half - 1 : half;
    int most = other_banks > a->sc.arch->banks ? other_banks : a->sc.arch->banks; /* one cell width for both */
    int lw, cw = layout_fit_cells(w, most, 4, &lw);
    int y = present_compare_top(a);
    layout_rect gr = {y, x, a->rows - 1 - y, w};
    grid_geom g = grid_geom_make(&gr, v, a->grid_scroll, cw, lw);
    g.banks = banks;
    return g;
}

/* The verdict with its numbers on one line of width w: the numbers in short when the long form
 * does not fit (half the screen at 80 columns), and cut with an ellipsis past that, so a number
 * is never cut silently. */
static void present_verdict_line(tui_app *a, int y, int x, int w, tui_role role, const char *head, const tui_view *view)
{
    char line[400];
    snprintf(line, sizeof line, "%s  (%d wavefront%s, ideal %d)", head, view->res.wavefronts,
             view->res.wavefronts == 1 ? "" : "s", view->res.ideal_wavefronts);
    if (draw_width(line) > w)
        snprintf(line, sizeof line, "%s  (%d wf, ideal %d)", head, view->res.wavefronts, view->res.ideal_wavefronts);
    draw_text_cut(&a->crt, y, x, w, role, 0, line);
}

/* One side of a presented compare: the declaration, the verdict big (the numbers beside it) and
 * the grid, so the class reads before and after from the back of the room. */
static void present_compare_side(tui_app *a, tui_vctx *v, bool other, int shown)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    const scenario *s = other ? &cs->other : &a->sc;
    const tui_view *view = other ? &cs->view : &a->view;
    const grid_geom *g = other ? &a->frame.grid2 : &a->frame.grid;
    int x = g->frame.x, w = g->frame.w;
    char cap[300], head[160];
    compare_caption(a, other, cap, sizeof cap);
    draw_text_cut(&a->crt, 1, x + 1, w - 2, ROLE_KEY, 0, cap);
    tui_role role = headline_text(s, view, head, sizeof head);
    bool hidden = quiz_hidden(a);
    if (hidden) {
        draw_text(&a->crt, 2, x + 1, w - 2, ROLE_HILITE, "predict first");
    } else if (a->rows >= 30 && role != ROLE_WARN && view->valid && view->res.active_lanes > 0) {
        big_number_draw(&a->crt, 2, x + 2, view->res.conflict_degree, role);
        int bw = big_number_width(view->res.conflict_degree);
        draw_text(&a->crt, 2 + 4, x + 3 + bw, w - bw - 4, role, "%s  %d wf, ideal %d",
                  view->res.conflict_degree > 1 ? "-way conflict" : "= conflict-free", view->res.wavefronts,
                  view->res.ideal_wavefronts);
    } else if (view->valid) {
        present_verdict_line(a, 2, x + 1, w - 2, role, head, view);
    }
    panel_grid_draw(v, g, s, view, other ? (cs->pinned ? "pinned" : cs->label) : "now", false, hidden ? -2 : shown);
}

static void present_draw(tui_app *a)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    if (cs && !cs->ok) { /* nothing to compare yet: the view says why */
        view_draw(a);
        return;
    }
    if (app_in_mode(a, MODE_COMPARE)) { /* before and after, side by side, each big */
        tui_vctx v;
        app_view_context(a, &v);
        panel_title_draw(&v);
        int shown = step_shown(a);
        present_compare_side(a, &v, false, shown);
        present_compare_side(a, &v, true, shown);
        panel_bar_draw(&v);
        return;
    }
    tui_vctx v;
    app_view_context(a, &v);
    panel_title_draw(&v);
    int cols = a->cols, rows = a->rows;
    /* the banner: the lesson's text, else the first line of the explanation (the reason, e.g. the
     * stride and gcd), at most two lines with the rest one key (y) away; hidden in a quiz */
    const lesson_state *ls = app_mode_state(a, MODE_LESSON);
    const quiz_state *quiz = app_mode_state(a, MODE_QUIZ);
    bool hidden = quiz_hidden(a);
    char banner[600] = "";
    explain_lines e = {0};
    if (step_shown(a) > 0 && a->view.valid) { /* the wavefront just revealed */
        explain_wavefront(&a->sc, &a->view.in, &a->view.res, step_shown(a) - 1, &e);
        snprintf(banner, sizeof banner, "%s%s%s", e.n > 0 ? e.line[0] : "", e.n > 1 ? "; " : "",
                 e.n > 1 ? e.line[1] : "");
        explain_lines_free(&e);
    } else if (ls && !(a->modified && !hidden && a->view.valid))
        snprintf(banner, sizeof banner, "%s", ls->les.steps[ls->step].text);
    else if (ls) {
        /* the step's edit was made: the step's text spoke of the grid before it, so the banner
         * says what is on screen now, in the model's words (the reason: stride and gcd) */
        explain_access(&a->sc, &a->view.in, &a->view.res, &e);
        snprintf(banner, sizeof banner, "Now: %s%s", e.n > 0 ? e.line[0] : "", e.n > 0 ? "" : "see the grid");
        explain_lines_free(&e);
    } else if (!hidden && a->view.valid) {
        explain_access(&a->sc, &a->view.in, &a->view.res, &e);
        if (e.n > 0)
            snprintf(banner, sizeof banner, "%s", e.line[0]);
        explain_lines_free(&e);
    }
    char **lines;
    int nl = draw_wrap(banner, cols - 2, &lines);
    for (int i = 0; i < nl && i < 2; i++) {
        bool more = i == 1 && nl > 2;
        int w = draw_text(&a->crt, 1 + i, 1, cols - 2 - (more ? 11 : 0), ROLE_KEY, "%s", lines[i]);
        if (more)
            draw_text(&a->crt, 1 + i, 1 + w, cols - 2 - w, ROLE_KEY, " %s y: more", crt_glyph(&a->crt, "…", "..."));
    }
    draw_wrap_free(lines, nl);
    int y = 3;
    char head[160];
    tui_role role = headline_text(&a->sc, &a->view, head, sizeof head);
    int vy = y;
    if (hidden) {
        draw_text(&a->crt, vy, 1, cols - 2, ROLE_HILITE, "predict first: conflict degree? %s_", quiz->buf);
        y += 2;
    } else if (role == ROLE_WARN || rows < 30 || a->view.res.active_lanes == 0) {
        present_verdict_line(a, vy, 1, cols - 2, role, head, &a->view);
        y += 2;
    } else {
        big_number_draw(&a->crt, vy, 2, a->view.res.conflict_degree, role);
        int w = big_number_width(a->view.res.conflict_degree);
        draw_text(&a->crt, vy + 4, 3 + w, cols - w - 4, role, "%s   %d wavefront%s, ideal %d",
                  a->view.res.conflict_degree > 1 ? "-way conflict" : "= conflict-free", a->view.res.wavefronts,
                  a->view.res.wavefronts == 1 ? "" : "s", a->view.res.ideal_wavefronts);
        y += 6;
    }
    if (quiz && quiz->answered) /* the answer's verdict, on the blank line */
        draw_text(&a->crt, y - 1, 1, cols - 2, quiz->guess == a->view.res.conflict_degree ? ROLE_OK : ROLE_ERROR,
                  "you predicted %d: %s", quiz->guess,
                  quiz->guess == a->view.res.conflict_degree ? "right" : "not quite");
    const grid_geom *g = &a->frame.grid; /* computed for this frame by frame_compute */
    char cap[300], kind[32];
    if (a->sc.is_trace && a->view.valid) /* a trace: the instruction (a recording's line, warp, SASS) */
        grid_caption(a, &a->sc, &a->view, cap, sizeof cap, "");
    else
        view_declaration(&a->sc, a->access, cap, sizeof cap);
    const scenario_access *ac = scenario_access_of(&a->sc, a->view.in.access);
    if (ac && a->view.valid) { /* which instruction the grid is: the warp, its kind, its label */
        size_t k = strlen(cap);
        snprintf(cap + k, sizeof cap - k, ": warp %d %s (%s, %d B)%s%s", a->view.in.warp,
                 scenario_kind_text(&a->view.in.req, kind, sizeof kind), ac->type_text, ac->width,
                 ac->label ? " - " : "", ac->label ? ac->label : "");
    }
    panel_grid_draw(&v, g, &a->sc, &a->view, cap, false, hidden ? -2 : step_shown(a));
    panel_bar_draw(&v);
}

const tui_mode mode_present = {
    .id = MODE_PRESENT,
    .name = "presentation",
    .enter = present_enter,
    .draw = present_draw,
    .leave = present_leave,
};
