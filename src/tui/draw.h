/* draw: clipped, sanitised text output, word wrapping, framed panels, a line editor's text and
 * the big digits of the presentation (draw.c, panel_result.c for the digits). Everything takes the
 * terminal's capabilities (tui_crt) and a place on the screen, never the application: the panels
 * and the modes above share this layer. */
#ifndef BANKSCOPE_TUI_DRAW_H
#define BANKSCOPE_TUI_DRAW_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/crt.h"
#include "tui/layout.h"
#include "tui/lineedit.h"

/* Print text at (y, x), at most maxw cells, in role; control characters escaped, UTF-8 checked.
 * Returns the cells written. */
int draw_text(const tui_crt *c, int y, int x, int maxw, tui_role role, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int draw_text_mark(const tui_crt *c, int y, int x, int maxw, tui_role role, int marks, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* text in at most maxw cells; when it does not fit, cut after a whole word (a word longer than the
 * space: on a character boundary outside any number) and end with an ellipsis. Returns the cells. */
int draw_text_cut(const tui_crt *c, int y, int x, int maxw, tui_role role, int marks, const char *text);
/* draw_text_cut of a formatted line (at most 1199 bytes), no marks: one line of a panel. */
int draw_textf_cut(const tui_crt *c, int y, int x, int maxw, tui_role role, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void draw_fill(const tui_crt *c, int y, int x, int w, tui_role role);
/* A line editor's text at (y, x) in at most maxw cells: selected text reversed, the cursor as a
 * reversed cell (the character end after the text). Returns the cells written. */
int draw_line(const tui_crt *c, int y, int x, int maxw, tui_role role, const tui_line *l, char end);
/* text as it is drawn (every character that could act on the terminal or reorder the line as
 * '?') into out (n bytes); returns its cells. */
int draw_safe(const char *text, char *out, size_t n);
/* Cells text takes on screen (after escaping). */
int draw_width(const char *text);
/* Word-wrap text into lines of at most w cells; returns the count (lines malloc'd, *out). */
int draw_wrap(const char *text, int w, char ***out);
void draw_wrap_free(char **lines, int n);
layout_rect panel_frame(const tui_crt *c, const layout_rect *r, const char *title, bool focused);
/* The presentation's big digits (5 rows high). */
void big_number_draw(const tui_crt *c, int y, int x, int n, tui_role role);
int big_number_width(int n);

#endif
