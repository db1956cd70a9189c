/* frame: the geometry of one frame, computed once before drawing. The grid and the lane table
 * keep their records here, and mouse clicks are answered from the same records, so what is
 * clicked is what was drawn. */
#include <curses.h>

#include "tui/app.h"

grid_geom grid_geom_make(const tui_app *a, const layout_rect *r, const tui_view *v, int scroll, int cw)
{
    (void)a;
    grid_geom g = {.frame = *r, .cw = cw};
    g.in = (layout_rect){r->y + 1, r->x + 1, r->h - 2, r->w - 2};
    if (r->h < 3 || r->w < 4)
        g.in = (layout_rect){r->y, r->x, 0, 0};
    g.banks = 0;              /* set by the caller from the profile */
    g.head = cw >= 3 ? 1 : 2; /* bank numbers: one line, or tens above ones */
    g.x0 = g.in.x + 5;
    g.y0 = g.in.y + g.head;
    g.nvis = g.in.h - g.head - 1; /* header and footer */
    if (g.nvis < 0)
        g.nvis = 0;
    g.rows = v->valid ? v->res.wavefronts : 0;
    if (scroll > g.rows - g.nvis)
        scroll = g.rows - g.nvis;
    g.scroll = scroll < 0 ? 0 : scroll;
    return g;
}

bool grid_geom_hit(const grid_geom *g, int y, int x, int *row, int *bank)
{
    if (y < g->y0 || y >= g->y0 + g->nvis || x < g->x0 || x >= g->x0 + g->banks * g->cw || g->cw < 1)
        return false;
    *row = g->scroll + (y - g->y0);
    *bank = (x - g->x0) / g->cw;
    return *row < g->rows;
}

int lanes_geom_hit(const lanes_geom *g, int y, int x)
{
    if (y < g->in.y || y >= g->in.y + g->in.h || x < g->in.x || x >= g->in.x + g->in.w)
        return -1;
    int lane = g->scroll + (y - g->in.y);
    return lane < BANKS_WARP ? lane : -1;
}

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
    tui_frame *f = &a->frame;
    bool cmp = app_in_mode(a, MODE_COMPARE) && a->cmp.ok;
    /* side by side, the cells fit the grid with more banks (pinned sm_90 beside a 16-bank cc 1.x) */
    int lay_banks = a->sc.arch->banks;
    if (cmp && a->cmp.other.arch && a->cmp.other.arch->banks > lay_banks)
        lay_banks = a->cmp.other.arch->banks;
    f->lay = layout_compute(a->cols, a->rows, lay_banks, cmp);
    f->valid = !f->lay.too_small;
    if (!f->valid)
        return;
    int banks = a->sc.arch->banks;
    /* narrow layouts: rows the grid does not need go to the why text under it */
    layout *L = &f->lay;
    if (!L->side && !cmp && a->view.valid) {
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
    /* step mode: scroll to the wavefront just revealed */
    if (app_in_mode(a, MODE_STEP) && a->step.shown > 0) {
        grid_geom probe = grid_geom_make(a, &f->lay.grid, &a->view, a->grid_scroll, f->lay.cell_w);
        a->grid_scroll = scroll_to(probe.scroll, a->step.shown - 1, probe.nvis);
    }
    if (app_in_mode(a, MODE_PRESENT) && !app_in_mode(a, MODE_COMPARE)) {
        f->grid = present_geom(a);
    } else {
        f->grid = grid_geom_make(a, &f->lay.grid, &a->view, a->grid_scroll, f->lay.cell_w);
        f->grid.banks = banks;
    }
    int scroll = f->grid.scroll;
    if (cmp) { /* one scroll for both grids, as far as the longer one needs */
        f->grid2 = grid_geom_make(a, &f->lay.grid2, &a->cmp.view, a->grid_scroll, f->lay.cell_w);
        f->grid2.banks = a->cmp.other.arch->banks;
        scroll = f->grid2.scroll > scroll ? f->grid2.scroll : scroll;
    }
    a->grid_scroll = scroll;
    layout_rect lr = f->lay.lanes;
    f->lanes.in = (layout_rect){lr.y + 1, lr.x + 1, lr.h - 2, lr.w - 2};
    if (lr.h < 3)
        f->lanes.in.h = 0;
    int sc = f->lanes.scroll;
    if (a->sel_lane < sc)
        sc = a->sel_lane;
    if (f->lanes.in.h > 0 && a->sel_lane >= sc + f->lanes.in.h)
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
