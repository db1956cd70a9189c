/* frame: the geometry of one frame, computed once before drawing. The grid and the lane table
 * keep their records here, and mouse clicks are answered from the same records, so what is
 * clicked is what was drawn. */
#include <curses.h>

#include "tui/app.h"

/* Scroll that keeps row visible in a window of n rows starting at scroll. */
static int scroll_to(int scroll, int row, int n)
{
    if (row < scroll)
        return row;
    if (n > 0 && row >= scroll + n)
        return row - n + 1;
    return scroll;
}

void frame_compute(tui_app *a)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    tui_frame *f = &a->frame;
    bool cmp = cs && cs->ok;
    /* side by side, the cells fit the grid with more banks (pinned sm_90 beside a 16-bank cc 1.x) */
    int lay_banks = a->sc.arch->banks;
    if (cmp && cs->other.arch && cs->other.arch->banks > lay_banks)
        lay_banks = cs->other.arch->banks;
    f->lay = layout_compute(a->cols, a->rows, lay_banks, cmp);
    f->valid = !f->lay.too_small;
    if (!f->valid)
        return;
    int banks = a->sc.arch->banks;
    /* narrow layouts: rows the grid does not need go to the why text under it (not in a quiz
     * before the answer: the grid's height would tell the wavefront count) */
    layout *L = &f->lay;
    bool hidden = quiz_hidden(a);
    if (!L->side && !cmp && a->view.valid && !hidden) {
        int head = L->cell_w >= 3 ? 1 : 2;
        int need = a->view.res.wavefronts + head + 3, min_h = 8;
        need = need < min_h ? min_h : need;
        if (L->grid.h > need) {
            int d = L->grid.h - need;
            L->grid.h -= d;
            L->why.y -= d;
            L->why.h += d;
        }
    }
    /* compact row labels hold two digits: more wavefronts take the full labels and narrower cells */
    int most = a->view.valid ? a->view.res.wavefronts : 0;
    if (cmp && cs->view.valid && cs->view.res.wavefronts > most)
        most = cs->view.res.wavefronts;
    if (L->label_w == 2 && most > 99) {
        L->cell_w--;
        L->label_w = 5;
    }
    /* step mode: scroll to the wavefront just revealed */
    if (step_shown(a) > 0) {
        grid_geom probe = grid_geom_make(&f->lay.grid, &a->view, a->grid_scroll, f->lay.cell_w, f->lay.label_w);
        a->grid_scroll = scroll_to(probe.scroll, step_shown(a) - 1, probe.nvis);
    }
    if (app_in_mode(a, MODE_PRESENT) && !app_in_mode(a, MODE_COMPARE)) {
        f->grid = present_geom(a);
    } else {
        f->grid = grid_geom_make(&f->lay.grid, &a->view, a->grid_scroll, f->lay.cell_w, f->lay.label_w);
        f->grid.banks = banks;
    }
    if (cmp && app_in_mode(a, MODE_PRESENT))
        f->grid = present_compare_geom(a, false);
    int scroll = f->grid.scroll;
    if (cmp) { /* one scroll for both grids, as far as the longer one needs */
        f->grid2 = app_in_mode(a, MODE_PRESENT)
                       ? present_compare_geom(a, true)
                       : grid_geom_make(&f->lay.grid2, &cs->view, a->grid_scroll, f->lay.cell_w, f->lay.label_w);
        f->grid2.banks = cs->other.arch->banks;
        scroll = f->grid2.scroll > scroll ? f->grid2.scroll : scroll;
    }
    a->grid_scroll = scroll;
    layout_rect lr = f->lay.lanes;
    f->lanes.in = (layout_rect){lr.y + 1, lr.x + 1, lr.h - 2, lr.w - 2};
    if (lr.h < 3)
        f->lanes.in.h = 0;
    int sc = f->lanes.scroll;
    if (a->sel_lane >= 0 && a->sel_lane < sc)
        sc = a->sel_lane;
    if (f->lanes.in.h > 0 && a->sel_lane >= 0 && a->sel_lane >= sc + f->lanes.in.h)
        sc = a->sel_lane - f->lanes.in.h + 1;
    f->lanes.scroll = sc;
}

int app_mouse(tui_app *a, int y, int x)
{
    const tui_frame *f = &a->frame;
    if (!f->valid)
        return REACT_NONE;
    int row, bank;
    if (grid_geom_hit(&f->grid, y, x, &row, &bank)) {
        uint32_t lanes = a->view.cells[row * a->sc.arch->banks + bank].lanes;
        if (lanes) {
            a->sel_lane = __builtin_ctz(lanes);
            a->focus = 0;
        }
        return REACT_REDRAW;
    }
    if (app_in_mode(a, MODE_COMPARE) || app_in_mode(a, MODE_PRESENT) || (a->focus == 2 && f->lay.map.h == 0))
        return REACT_NONE; /* no lane table on screen */
    int lane = lanes_geom_hit(&f->lanes, y, x);
    if (lane >= 0 && f->lay.lanes.h > 0) {
        a->sel_lane = lane;
        a->focus = 1;
        return REACT_REDRAW;
    }
    return REACT_NONE;
}
