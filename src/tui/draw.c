/* draw: clipped text output for the panels, and the framed panel helper. */
#include "tui/draw.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Cells a UTF-8 string of n bytes occupies (every code point counts one cell here). */
static int cells_of(const char *s, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            c++;
    return c;
}

int draw_text(tui_app *a, int y, int x, int maxw, tui_role role, const char *fmt, ...)
{
    if (maxw <= 0)
        return 0;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* cut at maxw cells, never inside a UTF-8 sequence */
    int n = 0, cells = 0;
    while (buf[n] && cells < maxw) {
        int len = 1;
        unsigned char c = (unsigned char)buf[n];
        if (c >= 0xf0) len = 4;
        else if (c >= 0xe0) len = 3;
        else if (c >= 0xc0) len = 2;
        n += len;
        cells++;
    }
    attrset(crt_attr(&a->crt, role));
    mvaddnstr(y, x, buf, n);
    attrset(A_NORMAL);
    return cells_of(buf, n);
}

void draw_fill(tui_app *a, int y, int x, int w, tui_role role)
{
    attrset(crt_attr(&a->crt, role));
    for (int i = 0; i < w; i++)
        mvaddch(y, x + i, ' ');
    attrset(A_NORMAL);
}

layout_rect panel_frame(tui_app *a, const layout_rect *r, const char *title, bool focused)
{
    layout_rect in = {r->y + 1, r->x + 1, r->h - 2, r->w - 2};
    if (r->h < 3 || r->w < 4)
        return (layout_rect){r->y, r->x, 0, 0};
    const tui_crt *c = &a->crt;
    tui_role role = focused ? ROLE_KEY : ROLE_FRAME;
    const char *h = crt_glyph(c, "─", "-"), *v = crt_glyph(c, "│", "|");
    const char *tl = crt_glyph(c, "┌", "+"), *tr = crt_glyph(c, "┐", "+");
    const char *bl = crt_glyph(c, "└", "+"), *br = crt_glyph(c, "┘", "+");
    char line[1024] = "";
    size_t len = 0;
    for (int i = 0; i < r->w - 2 && len + 4 < sizeof line; i++) {
        memcpy(line + len, h, strlen(h));
        len += strlen(h);
    }
    line[len] = '\0';
    draw_text(a, r->y, r->x, 1, role, "%s", tl);
    draw_text(a, r->y, r->x + 1, r->w - 2, role, "%s", line);
    draw_text(a, r->y, r->x + r->w - 1, 1, role, "%s", tr);
    draw_text(a, r->y + r->h - 1, r->x, 1, role, "%s", bl);
    draw_text(a, r->y + r->h - 1, r->x + 1, r->w - 2, role, "%s", line);
    draw_text(a, r->y + r->h - 1, r->x + r->w - 1, 1, role, "%s", br);
    for (int y = r->y + 1; y < r->y + r->h - 1; y++) {
        draw_text(a, y, r->x, 1, role, "%s", v);
        draw_text(a, y, r->x + r->w - 1, 1, role, "%s", v);
    }
    if (title && *title)
        draw_text(a, r->y, r->x + 2, r->w - 4, focused ? ROLE_KEY : ROLE_TITLE, " %s ", title);
    return in;
}
