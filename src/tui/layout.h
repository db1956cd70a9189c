/* layout: where each panel goes for a terminal size. Pure (no curses), unit-tested over many
 * sizes. Rectangles are in character cells; a panel with h == 0 is not shown. */
#ifndef BANKSCOPE_LAYOUT_H
#define BANKSCOPE_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_COLS 72
#define LAYOUT_MIN_ROWS 20

typedef struct layout_rect {
    int y, x, h, w;
} layout_rect;

typedef struct layout {
    bool too_small;
    int need_cols, need_rows; /* the size this view needs (side by side grids need more columns) */
    int cell_w;               /* characters per bank cell in the grid: 1 to 4 */
    int label_w;              /* columns of the grid's row labels: 5 ("%3d" and a phase mark) or 2 (compact) */
    bool side;                /* result and lanes beside the grid (wide terminals) */
    layout_rect title, grid, grid2, result, result2, lanes, map, why, bar;
} layout;

/* Compute the layout for cols x rows; banks is the profile's bank count (16 or 32);
 * compare splits the grid in two side by side. The why panel is always placed (never h == 0). */
/* The widest cells (at most max_cw) for banks banks in a framed grid width columns wide; *label_w
 * gets the row-label width: 5, or 2 when the compact label makes the cells one column wider. */
int layout_fit_cells(int width, int banks, int max_cw, int *label_w);

layout layout_compute(int cols, int rows, int banks, bool compare);

#endif
