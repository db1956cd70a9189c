/* pager: the one scrolling text view of the TUI (the kernel view, the source view): lines with a
 * gutter, scrolled by line, page, ends and sideways, searched with the line editor ('/' then
 * Enter; n and N repeat), an optional line cursor. The owner keeps the text and says, per line,
 * what the gutter holds and how the line is drawn. View layer: no application state.
 * Invariants: 0 <= scroll <= max(0, nlines - page); cursor is -1 or a line index. */
#ifndef BANKSCOPE_TUI_PAGER_H
#define BANKSCOPE_TUI_PAGER_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/draw.h"

typedef struct tui_pager {
    const char *const *lines; /* borrowed; the owner keeps them for as long as they are shown */
    int nlines;
    int scroll, hscroll; /* first line and first byte shown */
    int cursor;          /* the chosen line (-1: no cursor, the pager only scrolls) */
    bool searching;      /* typing a search text */
    tui_line query;
    int hit; /* line of the last match; -1 none */
} tui_pager;

/* How one line is drawn: its role, whether the whole row is filled with it, and the gutter text
 * (line numbers by default). */
typedef struct tui_pager_line {
    tui_role role;
    bool fill;
    char gutter[64];
    tui_role gutter_role;
    /* more gutter columns after it, each in its own role (the owner pads them to fixed widths);
     * "" when unused */
    struct {
        char text[48];
        tui_role role;
    } extra[2];
} tui_pager_line;
typedef void (*pager_style_fn)(void *ctx, int line, tui_pager_line *out);

/* What a key did in the pager. */
enum { PAGER_IGNORED = 0, PAGER_MOVED, PAGER_FOUND, PAGER_NOT_FOUND, PAGER_SEARCH_DONE };

/* Show lines (borrowed) from the top; cursor: whether the pager has a line cursor. */
void pager_set(tui_pager *p, const char *const *lines, int n, bool cursor);
/* Keep scroll (and the cursor) within the text for a page of page lines. */
void pager_clamp(tui_pager *p, int page);
/* Scroll and cursor keys (arrows, jk, PgUp/PgDn, b, Space, Home/End, g/G, h/l). */
int pager_scroll_key(tui_pager *p, int key, int page);
/* Scroll by delta lines (the mouse wheel). */
void pager_scroll_by(tui_pager *p, int delta, int page);
/* Start typing a search text. */
void pager_search_begin(tui_pager *p);
/* A key while the search text is typed: Enter searches, Esc cancels, the rest edit the text. */
int pager_search_key(tui_pager *p, int key, int page);
/* Next (dir 1) or previous (-1) match after the last one (or the top line); PAGER_FOUND or
 * PAGER_NOT_FOUND; *wrapped: the search went round the end. */
int pager_find_next(tui_pager *p, int dir, int page, bool *wrapped);
/* Draw the lines into r, each styled by style(ctx, line) (NULL: line numbers, plain text). */
void pager_draw(const tui_crt *c, const tui_pager *p, const layout_rect *r, pager_style_fn style, void *ctx);
/* A head line at y over the text columns of the page pager_draw shows in r (the same style), scrolled
 * sideways with them, so that column names stay over their columns. */
void pager_head_draw(const tui_crt *c, const tui_pager *p, int y, const layout_rect *r, pager_style_fn style, void *ctx,
                     tui_role role, const char *head);
/* The status line at y: the search being typed, or "lines a-b of n (end)". */
void pager_status_draw(const tui_crt *c, const tui_pager *p, int y, int cols, int page);

#endif
