/* layout: the pure placement of panels. */
#include "tui/layout.h"

/* Width of a framed grid of banks cells of width cw, with its full row labels. */
static int grid_width(int banks, int cw)
{
    return 7 + banks * cw; /* frame, row label, cells */
}

int layout_fit_cells(int width, int banks, int max_cw, int *label_w)
{
    int cw = max_cw;
    while (cw > 1 && grid_width(banks, cw) > width)
        cw--;
    *label_w = 5;
    /* a compact row label (two digits, no phase mark) when it buys a wider cell: 3-column
     * cells keep two-digit lanes apart at 100 columns */
    if (cw < max_cw && 2 + 2 + banks * (cw + 1) <= width) {
        cw++;
        *label_w = 2;
    }
    return cw;
}

layout layout_compute(int cols, int rows, int banks, bool compare)
{
    layout L = {.need_cols = LAYOUT_MIN_COLS, .need_rows = LAYOUT_MIN_ROWS};
    if (compare && 2 * grid_width(banks, 1) + 1 > L.need_cols) /* each half holds a grid of 1-cell banks */
        L.need_cols = 2 * grid_width(banks, 1) + 1;
    if (cols < L.need_cols || rows < L.need_rows) {
        L.too_small = true;
        return L;
    }
    L.title = (layout_rect){0, 0, 1, cols};
    L.bar = (layout_rect){rows - 1, 0, 1, cols};
    int body_y = 1, body_h = rows - 2;

    if (compare) {
        int half = (cols - 1) / 2;
        L.cell_w = layout_fit_cells(half, banks, 4, &L.label_w);
        int res_h = body_h >= 30 ? 8 : 6, why_h = body_h >= 30 ? 3 : 1;
        int grid_h = body_h - res_h - why_h;
        L.grid = (layout_rect){body_y, 0, grid_h, half};
        L.grid2 = (layout_rect){body_y, half + 1, grid_h, cols - half - 1};
        L.result = (layout_rect){body_y + grid_h, 0, res_h, half};
        L.result2 = (layout_rect){body_y + grid_h, half + 1, res_h, cols - half - 1};
        L.why = (layout_rect){body_y + grid_h + res_h, 0, why_h, cols};
        return L;
    }

    /* Wide: grid on the left with the widest cells that leave 44 columns for the side. */
    for (int cw = 4; cw >= 2; cw--) {
        int gw = grid_width(banks, cw);
        if (cols - gw - 1 >= 44) {
            L.cell_w = cw;
            L.label_w = 5;
            L.side = true;
            int grid_h = body_h;
            if (body_h >= 36) /* room under the grid for the array map */
                grid_h = body_h * 3 / 5;
            L.grid = (layout_rect){body_y, 0, grid_h, gw};
            if (grid_h < body_h)
                L.map = (layout_rect){body_y + grid_h, 0, body_h - grid_h, gw};
            int sx = gw + 1, sw = cols - gw - 1;
            int res_h = body_h >= 40 ? 15 : body_h >= 30 ? 12 : 9;
            int why_h = body_h >= 40 ? 12 : body_h >= 30 ? 8 : 6;
            L.result = (layout_rect){body_y, sx, res_h, sw};
            L.why = (layout_rect){body_y + res_h, sx, why_h, sw};
            L.lanes = (layout_rect){body_y + res_h + why_h, sx, body_h - res_h - why_h, sw};
            return L;
        }
    }

    /* Narrow: grid on top, the why lines, then result and lanes (or map) below. */
    L.cell_w = layout_fit_cells(cols, banks, 3, &L.label_w);
    int bottom = body_h >= 30 ? 12 : 8, why_h = body_h >= 30 ? 4 : 2;
    int grid_h = body_h - bottom - why_h;
    L.grid = (layout_rect){body_y, 0, grid_h, cols};
    L.why = (layout_rect){body_y + grid_h, 0, why_h, cols};
    int rw = cols >= 100 ? cols * 2 / 5 : 29;
    L.result = (layout_rect){body_y + body_h - bottom, 0, bottom, rw};
    L.lanes = (layout_rect){body_y + body_h - bottom, rw + 1, bottom, cols - rw - 1};
    return L;
}
