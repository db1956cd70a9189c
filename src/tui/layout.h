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
    int cell_w; /* characters per bank cell in the grid: 1 to 4 */
    bool side;  /* result and lanes beside the grid (wide terminals) */
    layout_rect title, grid, grid2, result, result2, lanes, map, why, bar;
} layout;

/* Compute the layout for cols x rows; banks is the profile's bank count (16 or 32);
 * compare splits the grid in two side by side. The why panel is always placed (never h == 0). */
layout layout_compute(int cols, int rows, int banks, bool compare);

#endif
