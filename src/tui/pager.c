/* pager: a scrolling, searchable view of lines with a gutter (see pager.h). */
#include "tui/pager.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define KEY_ESC 27

void pager_set(tui_pager *p, const char *const *lines, int n, bool cursor)
{
    p->lines = lines;
    p->nlines = n;
    p->scroll = p->hscroll = 0;
    p->cursor = cursor && n > 0 ? 0 : -1;
    p->searching = false;
    p->hit = -1;
}

void pager_clamp(tui_pager *p, int page)
{
    if (p->cursor >= 0) {
        if (p->cursor >= p->nlines)
            p->cursor = p->nlines - 1;
        if (p->cursor < 0)
            p->cursor = 0;
        if (p->cursor < p->scroll)
            p->scroll = p->cursor;
        if (p->cursor >= p->scroll + page)
            p->scroll = p->cursor - page + 1;
    }
    int max = p->nlines - page;
    if (p->scroll > max)
        p->scroll = max;
    if (p->scroll < 0)
        p->scroll = 0;
    if (p->hscroll < 0)
        p->hscroll = 0;
}

void pager_scroll_by(tui_pager *p, int delta, int page)
{
    int max = p->nlines - page;
    p->scroll += delta;
    if (p->scroll > max)
        p->scroll = max;
    if (p->scroll < 0)
        p->scroll = 0;
    if (p->cursor >= 0) { /* the cursor stays on the page */
        if (p->cursor < p->scroll)
            p->cursor = p->scroll;
        if (p->cursor >= p->scroll + page)
            p->cursor = p->scroll + page - 1;
    }
    pager_clamp(p, page);
}

int pager_scroll_key(tui_pager *p, int key, int page)
{
    /* with a cursor, the keys move it and the view follows; without, they scroll */
    int *at = p->cursor >= 0 ? &p->cursor : &p->scroll;
    switch (key) {
    case KEY_UP:
    case 'k': (*at)--; break;
    case KEY_DOWN:
    case 'j': (*at)++; break;
    case KEY_PPAGE:
    case 'b': *at -= page; break;
    case KEY_NPAGE:
    case ' ': *at += page; break;
    case KEY_HOME:
    case 'g': *at = 0; break;
    case KEY_END:
    case 'G': *at = p->nlines; break;
    case KEY_LEFT:
    case 'h': p->hscroll -= 8; break;
    case KEY_RIGHT:
    case 'l': p->hscroll += 8; break;
    default: return PAGER_IGNORED;
    }
    pager_clamp(p, page);
    return PAGER_MOVED;
}

void pager_search_begin(tui_pager *p)
{
    p->searching = true;
    line_set(&p->query, "", false);
    p->hit = -1;
}

/* The next line from `from` in direction dir holding the query; -1 none. */
static int find_from(const tui_pager *p, int from, int dir, bool *wrapped)
{
    *wrapped = false;
    for (int k = 1; k <= p->nlines; k++) {
        int l = from + dir * k;
        if (l >= p->nlines || l < 0)
            *wrapped = true;
        l = ((l % p->nlines) + p->nlines) % p->nlines;
        if (strstr(p->lines[l], p->query.buf))
            return l;
    }
    return -1;
}

/* The match after line from (dir 1) or before it (-1): shown, and the line of the last hit. */
static int find_and_show(tui_pager *p, int from, int dir, int page, bool *wrapped)
{
    *wrapped = false;
    if (!p->query.buf[0] || p->nlines == 0)
        return PAGER_NOT_FOUND;
    int l = find_from(p, from, dir, wrapped);
    if (l < 0)
        return PAGER_NOT_FOUND;
    p->hit = l;
    if (p->cursor >= 0)
        p->cursor = l;
    else
        p->scroll = l - 2; /* two lines of context above */
    pager_clamp(p, page);
    return PAGER_FOUND;
}

int pager_find_next(tui_pager *p, int dir, int page, bool *wrapped)
{
    int from = p->hit >= 0 && p->hit < p->nlines ? p->hit : p->cursor >= 0 ? p->cursor : p->scroll;
    return find_and_show(p, from, dir, page, wrapped);
}

int pager_search_key(tui_pager *p, int key, int page)
{
    if (key == KEY_ESC) {
        p->searching = false;
        return PAGER_SEARCH_DONE;
    }
    if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        p->searching = false;
        p->hit = -1;
        bool wrapped;
        int top = p->cursor >= 0 ? p->cursor : p->scroll;
        return find_and_show(p, top - 1, 1, page, &wrapped); /* a match on the top line counts */
    }
    line_key(&p->query, key);
    return PAGER_MOVED;
}

/* Decimal digits of n. */
static int digits(int n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

/* Cells the extra gutter columns of a line take. */
static int extra_width(const tui_pager_line *st)
{
    return draw_width(st->extra[0].text) + draw_width(st->extra[1].text);
}

/* Cells the gutter takes on the page shown in r: as wide as its widest text there. */
static int gutter_width(const tui_pager *p, const layout_rect *r, pager_style_fn style, void *ctx)
{
    int gut = digits(p->nlines) + 1;
    tui_pager_line st[1];
    if (style) {
        for (int i = 0; i < r->h && p->scroll + i < p->nlines; i++) {
            memset(st, 0, sizeof st);
            style(ctx, p->scroll + i, st);
            int w = draw_width(st->gutter) + extra_width(st) + 1;
            gut = w > gut ? w : gut;
        }
    }
    return gut;
}

/* One line of text from byte hscroll on, at (y, tx) in tw cells, with an ellipsis on each side
 * where it goes on (h/l scroll). */
static void scrolled_text(const tui_crt *c, const tui_pager *p, int y, int tx, int tw, tui_role role, int marks,
                          const char *text)
{
    size_t len = strlen(text), off = (size_t)p->hscroll;
    while (off < len && ((unsigned char)text[off] & 0xC0) == 0x80) /* never inside a character */
        off++;
    bool before = off > 0 && off < len;
    if (before) { /* the ellipsis takes the first character's cell */
        draw_text(c, y, tx++, 1, ROLE_DIM, "%s", crt_glyph(c, "…", "~"));
        tw--;
        do
            off++;
        while (off < len && ((unsigned char)text[off] & 0xC0) == 0x80);
    }
    bool more = off < len && draw_width(text + off) > tw;
    if (off < len)
        draw_text_mark(c, y, tx, tw - (more ? 1 : 0), role, marks, "%s", text + off);
    if (more)
        draw_text(c, y, tx + tw - 1, 1, ROLE_DIM, "%s", crt_glyph(c, "…", "~"));
}

void pager_head_draw(const tui_crt *c, const tui_pager *p, int y, const layout_rect *r, pager_style_fn style, void *ctx,
                     tui_role role, const char *head)
{
    int gut = gutter_width(p, r, style, ctx);
    scrolled_text(c, p, y, r->x + gut + 1, r->w - gut - 1, role, 0, head);
}

void pager_draw(const tui_crt *c, const tui_pager *p, const layout_rect *r, pager_style_fn style, void *ctx)
{
    int gut = gutter_width(p, r, style, ctx);
    tui_pager_line st[1];
    for (int i = 0; i < r->h && p->scroll + i < p->nlines; i++) {
        int l = p->scroll + i, y = r->y + i;
        memset(st, 0, sizeof st);
        st->role = ROLE_NORMAL;
        st->gutter_role = ROLE_DIM;
        snprintf(st->gutter, sizeof st->gutter, "%d", l + 1);
        if (style)
            style(ctx, l, st);
        bool found = l == p->hit && p->query.buf[0];
        bool cur = l == p->cursor;
        tui_role role = found ? ROLE_SELECTED : st->role;
        if (st->fill || found)
            draw_fill(c, y, r->x, r->w, role);
        int ew = extra_width(st), x = r->x + gut - 1 - ew;
        draw_text_mark(c, y, r->x, gut - ew, st->gutter_role, cur ? MARK_SELECT : 0, "%*s", gut - 1 - ew, st->gutter);
        for (int k = 0; k < 2; k++)
            x += draw_text(c, y, x, r->x + gut - 1 - x, st->extra[k].role, "%s", st->extra[k].text);
        /* a line that goes on past either side says so with an ellipsis there (h/l scroll) */
        scrolled_text(c, p, y, r->x + gut + 1, r->w - gut - 1, role, cur ? MARK_STEP : 0, p->lines[l]);
    }
}

void pager_status_draw(const tui_crt *c, const tui_pager *p, int y, int cols, int page)
{
    draw_fill(c, y, 0, cols, ROLE_NORMAL);
    if (p->searching) {
        int x = draw_text(c, y, 0, cols, ROLE_KEY, " search: ");
        x += draw_line(c, y, x, cols - x - 30, ROLE_KEY, &p->query, '_');
        draw_text(c, y, x, cols - x, ROLE_KEY, "  (Enter finds, Esc cancels)");
        return;
    }
    draw_text(c, y, 0, cols, ROLE_DIM, " lines %d-%d of %d%s", p->nlines ? p->scroll + 1 : 0,
              p->scroll + page < p->nlines ? p->scroll + page : p->nlines, p->nlines,
              p->scroll + page >= p->nlines ? " (end)" : "");
}
