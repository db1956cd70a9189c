/* mode_present: presentation for a projector: the grid alone with every row it has (scrolling
 * only when the terminal is shorter), the widest cells that fit, a big verdict, high-contrast
 * colours, and the why text as a banner. Every view key still works; Esc or q leaves. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void present_draw(tui_app *a)
{
    const tui_frame *f = &a->frame;
    panel_title_draw(a);
    int banks = a->sc.arch->banks, cols = a->cols, rows = a->rows;
    int cw = (cols - 7) / banks;
    cw = cw > 4 ? 4 : cw < 1 ? 1 : cw;
    /* banner (why, 2 lines), verdict (5 big rows + 1), grid below */
    char **paras;
    int np = why_paragraphs(a, &paras);
    char banner[400] = "";
    int first = app_in_mode(a, MODE_LESSON) && a->lesson.les.nsteps > 0 ? 1 : 0;
    if (np > first) { /* the first sentence of the pattern's description (after edits: of the explanation) */
        snprintf(banner, sizeof banner, "%s", paras[first]);
        char *dot = strstr(banner, ". ");
        if (dot)
            dot[1] = '\0';
    }
    for (int i = 0; i < np; i++)
        free(paras[i]);
    free(paras);
    char **lines;
    int nl = draw_wrap(banner, cols - 2, &lines);
    int y = 1;
    for (int i = 0; i < nl && i < 2; i++)
        draw_text(a, y++, 1, cols - 2, ROLE_KEY, "%s", lines[i]);
    draw_wrap_free(lines, nl);
    char head[160];
    bool hidden = app_in_mode(a, MODE_QUIZ) && !a->quiz.answered;
    tui_role role = headline_text(&a->sc, &a->view, head, sizeof head);
    int vy = y;
    if (hidden) {
        draw_text(a, vy, 1, cols - 2, ROLE_HILITE, "predict first: conflict degree? %s_", a->quiz.buf);
        y += 2;
    } else if (role == ROLE_WARN || rows < 30 || a->view.res.active_lanes == 0) {
        draw_text(a, vy, 1, cols - 2, role, "%s  (%d wavefronts, ideal %d)", head, a->view.res.wavefronts,
                  a->view.res.ideal_wavefronts);
        y += 2;
    } else {
        big_number_draw(a, vy, 2, a->view.res.conflict_degree, role);
        int w = big_number_width(a->view.res.conflict_degree);
        draw_text(a, vy + 4, 3 + w, cols - w - 4, role, "%s   %d wavefronts, ideal %d",
                  a->view.res.conflict_degree > 1 ? "-way conflict" : "= conflict-free", a->view.res.wavefronts,
                  a->view.res.ideal_wavefronts);
        y += 6;
    }
    layout_rect gr = {y, 0, rows - 1 - y, 7 + banks * cw};
    grid_geom g = grid_geom_make(a, &gr, &a->view, a->grid_scroll, cw);
    g.banks = banks;
    a->grid_scroll = g.scroll;
    char cap[300];
    app_declaration(&a->sc, a->access, cap, sizeof cap);
    panel_grid_draw(a, &g, &a->sc, &a->view, cap, false, hidden ? -2 : app_in_mode(a, MODE_STEP) ? a->step.shown : -1);
    (void)f;
    panel_bar_draw(a);
}

const tui_mode mode_present = {MODE_PRESENT, "presentation", false, present_enter,
                               NULL,         present_draw,   NULL,  present_leave};
