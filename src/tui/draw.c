/* draw: clipped text output for the panels, word wrapping, and the framed panel helper. Every
 * string drawn passes through one sanitiser: control characters (C0, DEL, C1) and the
 * bidirectional controls (textsafe_is_bidi: they would reorder the line) are shown as '?',
 * invalid UTF-8 as '?', and a character's bytes are never read past the end of its buffer. */
#include <ctype.h>
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tui/draw.h"
#include "io/textsafe.h"
#include "util.h"

/* Length of the valid UTF-8 sequence at s (at most avail bytes); 0 when invalid or cut. */
static int utf8_len(const unsigned char *s, size_t avail)
{
    int len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || (size_t)len > avail)
        return 0;
    for (int i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (len == 2 && s[0] < 0xc2)
        return 0; /* overlong */
    return len;
}

/* Copy src into dst (capacity cap) made safe to print; returns the cells it takes. Each character
 * counts its wcwidth (wide ones 2), limited to maxw cells. */
static int sanitise(const char *src, char *dst, size_t cap, int maxw)
{
    size_t n = strlen(src), o = 0;
    int cells = 0;
    for (size_t i = 0; i < n && o + 5 < cap;) {
        const unsigned char *p = (const unsigned char *)src + i;
        int len = utf8_len(p, n - i);
        int w = 1;
        bool bad = len == 0 || p[0] < 0x20 || p[0] == 0x7f || (len == 2 && p[0] == 0xc2 && p[1] < 0xa0) ||
                   (len == 2 && textsafe_is_bidi(((uint32_t)(p[0] & 0x1f) << 6) | (p[1] & 0x3f))) ||
                   (len == 3 &&
                    textsafe_is_bidi(((uint32_t)(p[0] & 0x0f) << 12) | ((uint32_t)(p[1] & 0x3f) << 6) | (p[2] & 0x3f)));
        if (!bad && len > 1) {
            wchar_t wc;
            mbstate_t st;
            memset(&st, 0, sizeof st);
            size_t r = mbrtowc(&wc, (const char *)p, (size_t)len, &st);
            w = r == (size_t)-1 || r == (size_t)-2 ? 1 : wcwidth(wc);
            if (w < 1)
                w = 1;
        }
        if (cells + w > maxw)
            break;
        if (bad) {
            dst[o++] = '?';
            i += len ? (size_t)len : 1;
        } else {
            memcpy(dst + o, p, (size_t)len);
            o += (size_t)len;
            i += (size_t)len;
        }
        cells += w;
    }
    dst[o] = '\0';
    return cells;
}

int draw_safe(const char *text, char *out, size_t n)
{
    return sanitise(text, out, n, 1 << 20);
}

int draw_width(const char *text)
{
    char buf[2048];
    return sanitise(text, buf, sizeof buf, 1 << 20);
}

/* Print buf at (y, x) within maxw cells with attribute at. */
static int put(int y, int x, int maxw, int at, const char *buf)
{
    if (maxw <= 0)
        return 0;
    char safe[2048];
    int cells = sanitise(buf, safe, sizeof safe, maxw);
    attrset(at);
    mvaddstr(y, x, safe);
    attrset(A_NORMAL);
    return cells;
}

int draw_text(const tui_crt *c, int y, int x, int maxw, tui_role role, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return put(y, x, maxw, crt_attr(c, role), buf);
}

int draw_text_mark(const tui_crt *c, int y, int x, int maxw, tui_role role, int marks, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return put(y, x, maxw, crt_attr_mark(c, role, marks), buf);
}

int draw_text_cut(const tui_crt *c, int y, int x, int maxw, tui_role role, int marks, const char *text)
{
    if (maxw <= 0)
        return 0;
    if (draw_width(text) <= maxw)
        return draw_text_mark(c, y, x, maxw, role, marks, "%s", text);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    size_t n = strlen(buf), word = 0, plain = 0; /* the longest cut after a word, and outside a number */
    for (size_t k = 1; k <= n; k++) {
        if (k < n && ((unsigned char)buf[k] & 0xC0) == 0x80)
            continue; /* inside a character */
        char keep = buf[k];
        buf[k] = '\0';
        bool fits = draw_width(buf) + 1 <= maxw;
        buf[k] = keep;
        if (!fits)
            break;
        bool in_number = isdigit((unsigned char)buf[k - 1]) && k < n && isdigit((unsigned char)buf[k]);
        if (!in_number)
            plain = k;
        if (k < n && buf[k] == ' ')
            word = k;
    }
    size_t cut = word > 0 ? word : plain;
    while (cut > 0 && (buf[cut - 1] == ' ' || buf[cut - 1] == ',' || buf[cut - 1] == ':'))
        cut--;
    buf[cut] = '\0';
    int w = draw_text_mark(c, y, x, maxw - 1, role, marks, "%s", buf);
    return w + draw_text_mark(c, y, x + w, 1, role, marks, "%s", crt_glyph(c, "…", "~"));
}

int draw_textf_cut(const tui_crt *c, int y, int x, int maxw, tui_role role, const char *fmt, ...)
{
    char buf[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_text_cut(c, y, x, maxw, role, 0, buf);
}

void draw_fill(const tui_crt *c, int y, int x, int w, tui_role role)
{
    attrset(crt_attr(c, role));
    for (int i = 0; i < w; i++)
        mvaddch(y, x + i, ' ');
    attrset(A_NORMAL);
}

int draw_line(const tui_crt *c, int y, int x, int maxw, tui_role role, const tui_line *l, char end)
{
    /* the text scrolls left so the cursor stays in view */
    int first = l->cur + 1 > maxw ? l->cur + 1 - maxw : 0;
    int cells = 0;
    for (int i = first; i <= l->len && cells < maxw; i++, cells++) {
        bool cursor = i == l->cur;
        char ch = i < l->len ? l->buf[i] : end;
        if (i == l->len && !cursor)
            break;
        int marks = cursor || l->selected ? MARK_SELECT : MARK_NONE;
        draw_text_mark(c, y, x + cells, 1, role, marks, "%c", ch);
    }
    return cells;
}

/* Bytes of the longest prefix of s that fits in w cells, ending at a space when one exists. */
static size_t wrap_cut(const char *s, int w, bool *at_space)
{
    size_t n = strlen(s), i = 0, last_space = 0;
    int cells = 0;
    *at_space = false;
    while (i < n) {
        int len = utf8_len((const unsigned char *)s + i, n - i);
        if (len == 0)
            len = 1;
        if (cells + 1 > w)
            break;
        if (s[i] == ' ')
            last_space = i;
        i += (size_t)len;
        cells++;
    }
    if (i >= n)
        return n;
    if (last_space > 0) {
        *at_space = true;
        return last_space;
    }
    return i ? i : 1;
}

int draw_wrap(const char *text, int w, char ***out)
{
    int cap = 8, n = 0;
    char **lines = xmalloc(sizeof *lines * (size_t)cap);
    if (w < 4)
        w = 4;
    const char *s = text;
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t para = nl ? (size_t)(nl - s) : strlen(s);
        char *p = xmalloc(para + 1);
        memcpy(p, s, para);
        p[para] = '\0';
        const char *q = p;
        do {
            bool sp;
            size_t k = wrap_cut(q, w, &sp);
            if (n == cap)
                lines = xrealloc(lines, sizeof *lines * (size_t)(cap *= 2));
            lines[n] = xmalloc(k + 1);
            memcpy(lines[n], q, k);
            lines[n++][k] = '\0';
            q += k + (sp ? 1 : 0);
        } while (*q);
        free(p);
        s += para + (nl ? 1 : 0);
    }
    *out = lines;
    return n;
}

void draw_wrap_free(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

layout_rect panel_frame(const tui_crt *c, const layout_rect *r, const char *title, bool focused)
{
    layout_rect in = {r->y + 1, r->x + 1, r->h - 2, r->w - 2};
    if (r->h < 3 || r->w < 4)
        return (layout_rect){r->y, r->x, 0, 0};
    tui_role role = focused ? ROLE_KEY : ROLE_FRAME;
    const char *h = crt_glyph(c, "─", "-"), *v = crt_glyph(c, "│", "|");
    int at = crt_attr(c, role);
    attrset(at);
    mvaddstr(r->y, r->x, crt_glyph(c, "┌", "+"));
    mvaddstr(r->y, r->x + r->w - 1, crt_glyph(c, "┐", "+"));
    mvaddstr(r->y + r->h - 1, r->x, crt_glyph(c, "└", "+"));
    mvaddstr(r->y + r->h - 1, r->x + r->w - 1, crt_glyph(c, "┘", "+"));
    for (int i = 1; i < r->w - 1; i++) {
        mvaddstr(r->y, r->x + i, h);
        mvaddstr(r->y + r->h - 1, r->x + i, h);
    }
    for (int y = r->y + 1; y < r->y + r->h - 1; y++) {
        mvaddstr(y, r->x, v);
        mvaddstr(y, r->x + r->w - 1, v);
    }
    attrset(A_NORMAL);
    tui_role trole = focused ? ROLE_KEY : ROLE_TITLE;
    if (title && *title && draw_width(title) + 1 <= r->w - 4) { /* the space after it only where it fits */
        draw_text(c, r->y, r->x + 2, r->w - 4, trole, " %s ", title);
    } else if (title && *title && r->w > 6) { /* too long: cut, and an ellipsis says so */
        int n = draw_text(c, r->y, r->x + 2, r->w - 5, trole, " %s", title);
        draw_text(c, r->y, r->x + 2 + n, 1, trole, "%s", crt_glyph(c, "…", "~"));
    }
    return in;
}
