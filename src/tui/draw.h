/* draw: small text helpers the panels share (clipped printing at a position with a role). */
#ifndef BANKSCOPE_DRAW_H
#define BANKSCOPE_DRAW_H

#include "tui/tui.h"

/* Print printf-formatted text at (y, x), at most maxw cells, in role's attribute.
 * Returns the number of cells written. */
int draw_text(tui_app *a, int y, int x, int maxw, tui_role role, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Fill w cells at (y, x) with spaces in role. */
void draw_fill(tui_app *a, int y, int x, int w, tui_role role);

#endif
