/* lineedit: editing one line of text with the readline keys (see lineedit.h). */
#include "tui/lineedit.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define CTRL_KEY(c) ((c)&0x1f)

bool line_set(tui_line *l, const char *text, bool select)
{
    bool fits = snprintf(l->buf, sizeof l->buf, "%s", text ? text : "") < (int)sizeof l->buf;
    if (!fits)
        l->buf[0] = '\0';
    l->len = (int)strlen(l->buf);
    l->cur = l->len;
    l->selected = select && l->len > 0;
    return fits;
}

/* Remove the characters [from, to). */
static void erase_range(tui_line *l, int from, int to)
{
    memmove(l->buf + from, l->buf + to, (size_t)(l->len - to + 1));
    l->len -= to - from;
    l->cur = from;
}

static bool is_word(char c)
{
    return c != ' ' && c != '/' && c != '.' && c != '*' && c != '+' && c != '-' && c != '(' && c != ')' && c != '[' &&
           c != ']' && c != ',';
}

bool line_is_key(int key)
{
    switch (key) {
    case KEY_LEFT:
    case KEY_RIGHT:
    case KEY_HOME:
    case KEY_END:
    case KEY_BACKSPACE:
    case KEY_DC:
    case 127:
    case 8:
    case CTRL_KEY('a'):
    case CTRL_KEY('e'):
    case CTRL_KEY('u'):
    case CTRL_KEY('k'):
    case CTRL_KEY('w'): return true;
    default: return key >= 32 && key < 127;
    }
}

int line_key(tui_line *l, int key)
{
    bool sel = l->selected;
    if (!line_is_key(key))
        return LINE_IGNORED;
    l->selected = false;
    switch (key) {
    case KEY_LEFT:
        if (sel)
            l->cur = 0;
        else if (l->cur > 0)
            l->cur--;
        return LINE_MOVED;
    case KEY_RIGHT:
        if (l->cur < l->len)
            l->cur++;
        return LINE_MOVED;
    case KEY_HOME:
    case CTRL_KEY('a'): l->cur = 0; return LINE_MOVED;
    case KEY_END:
    case CTRL_KEY('e'): l->cur = l->len; return LINE_MOVED;
    default: break;
    }
    if (sel) { /* a selected text goes whole: erased, or replaced by what is typed */
        line_set(l, "", false);
        if (!(key >= 32 && key < 127))
            return LINE_CHANGED;
    }
    switch (key) {
    case KEY_BACKSPACE:
    case 127:
    case 8:
        if (l->cur == 0)
            return sel ? LINE_CHANGED : LINE_MOVED;
        erase_range(l, l->cur - 1, l->cur);
        return LINE_CHANGED;
    case KEY_DC:
        if (l->cur == l->len)
            return sel ? LINE_CHANGED : LINE_MOVED;
        erase_range(l, l->cur, l->cur + 1);
        return LINE_CHANGED;
    case CTRL_KEY('u'): erase_range(l, 0, l->cur); return LINE_CHANGED;
    case CTRL_KEY('k'):
        l->buf[l->cur] = '\0';
        l->len = l->cur;
        return LINE_CHANGED;
    case CTRL_KEY('w'): {
        int from = l->cur;
        while (from > 0 && l->buf[from - 1] == ' ')
            from--;
        if (from > 0 && !is_word(l->buf[from - 1]))
            from--; /* one separator is a word of its own */
        else
            while (from > 0 && is_word(l->buf[from - 1]))
                from--;
        erase_range(l, from, l->cur);
        return LINE_CHANGED;
    }
    default: break;
    }
    if (l->len + 1 >= (int)sizeof l->buf)
        return sel ? LINE_CHANGED : LINE_IGNORED;
    memmove(l->buf + l->cur + 1, l->buf + l->cur, (size_t)(l->len - l->cur + 1));
    l->buf[l->cur++] = (char)key;
    l->len++;
    return LINE_CHANGED;
}
