/* dispatch: everything generated from the action table (each mode's own rows, then the shared
 * rows that apply to it): key dispatch for a mode, key names, the help screen's lines and the
 * context-sensitive key bar. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

const tui_action *actions_row(tui_mode_id mode, int k)
{
    const tui_mode *m = mode_of(mode);
    if (k < m->nactions)
        return &m->actions[k];
    k -= m->nactions;
    int n;
    const tui_action *t = actions_table(&n);
    for (int i = 0; i < n; i++)
        if ((t[i].modes & MODE_BIT(mode)) && k-- == 0)
            return &t[i];
    return NULL;
}

int actions_dispatch(tui_app *a, tui_mode_id mode, int key)
{
    const tui_action *r;
    for (int i = 0; (r = actions_row(mode, i)) != NULL; i++)
        for (int k = 0; k < 12 && r->keys[k]; k++)
            if (r->keys[k] == key)
                return r->handler(a, key);
    return REACT_UNHANDLED;
}

/* Name of a key for the bar and help ("+", "Esc", "↑"). */
static const char *actions_key_name(const tui_crt *c, int key, char *buf, size_t n)
{
    switch (key) {
    case 27: return "Esc";
    case 9: return "Tab";
    case ' ': return "Space";
    case '\r':
    case '\n':
    case KEY_ENTER: return "Enter";
    case KEY_UP: return crt_glyph(c, "↑", "Up");
    case KEY_DOWN: return crt_glyph(c, "↓", "Down");
    case KEY_LEFT: return crt_glyph(c, "←", "Left");
    case KEY_RIGHT: return crt_glyph(c, "→", "Right");
    case KEY_PPAGE: return "PgUp";
    case KEY_NPAGE: return "PgDn";
    case KEY_HOME: return "Home";
    case KEY_END: return "End";
    case KEY_BACKSPACE:
    case 127:
    case 8: return "Backspace";
    case KEY_MOUSE: return "mouse";
    default: break;
    }
    if (key >= KEY_F(1) && key <= KEY_F(12))
        snprintf(buf, n, "F%d", key - KEY_F(0));
    else if (key > 0 && key < 32)
        snprintf(buf, n, "Ctrl-%c", key + 'A' - 1);
    else
        snprintf(buf, n, "%c", key);
    return buf;
}

void actions_keys_text(const tui_crt *c, const tui_action *act, char *buf, size_t n)
{
    char kb[16];
    size_t o = 0;
    buf[0] = '\0';
    if (act->nshow < 0) { /* a range: first-last of the keys that are characters */
        int last = 0;
        for (int k = 0; k < 12 && act->keys[k]; k++)
            if (act->keys[k] < 128)
                last = k;
        snprintf(buf, n, "%c-%c", act->keys[0], act->keys[last]);
        return;
    }
    for (int k = 0; k < act->nshow && k < 12 && act->keys[k]; k++) {
        const char *name = actions_key_name(c, act->keys[k], kb, sizeof kb);
        int w = snprintf(buf + o, n - o, "%s%s", k ? "/" : "", name);
        if (w < 0 || (size_t)w >= n - o)
            break;
        o += (size_t)w;
    }
}

char **actions_help_lines(const tui_crt *c, tui_mode_id mode, const tui_app *a, int *count)
{
    int n = 0;
    while (actions_row(mode, n))
        n++;
    char **lines = xmalloc(sizeof *lines * (size_t)(n + 1));
    int k = 0;
    for (int i = 0; i < n; i++) {
        const tui_action *r = actions_row(mode, i);
        if (a && r->acts && !r->acts(a))
            continue; /* does nothing for what is on show: actions_help_idle names it */
        char keys[64], line[256];
        actions_keys_text(c, r, keys, sizeof keys);
        /* padded by the cells the keys take, not their bytes: "↑/↓" is 3 cells, 7 bytes */
        int pad = 11 - draw_width(keys);
        snprintf(line, sizeof line, "%s%*s %s", keys, pad > 0 ? pad : 0, "", r->help);
        lines[k++] = xstrdup(line);
    }
    *count = k;
    return lines;
}

/* The keys of mode that do nothing for the scenario on show ("+/- t a"), so the help can name
 * them in one line instead of explaining each; empty when every key acts. */
void actions_help_idle(const tui_app *a, tui_mode_id mode, char *buf, size_t n)
{
    buf[0] = '\0';
    const tui_action *r;
    for (int i = 0; (r = actions_row(mode, i)) != NULL; i++) {
        if (!r->acts || r->acts(a))
            continue;
        char keys[64];
        actions_keys_text(&a->crt, r, keys, sizeof keys);
        size_t k = strlen(buf);
        snprintf(buf + k, n - k, "%s%s", k ? " " : "", keys);
    }
}

void actions_help_free(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Labels the key bar always shows, at its right end. */
static bool essential(tui_mode_id mode, const char *label)
{
    return label && (!strcmp(label, "help") || !strcmp(label, "quit") || !strcmp(label, "close") ||
                     (mode == MODE_LESSON && !strcmp(label, "next")));
}

int actions_keyhints(const tui_app *a, tui_mode_id mode, tui_keyhint *out, int max)
{
    int k = 0;
    const tui_action *r;
    for (int i = 0; (r = actions_row(mode, i)) != NULL && k < max; i++) {
        if (!r->label || (r->acts && !r->acts(a)))
            continue; /* the bar shows only keys that act on what is shown */
        actions_keys_text(&a->crt, r, out[k].keys, sizeof out[k].keys);
        out[k].label = r->label;
        out[k].essential = essential(mode, r->label);
        out[k].situational = r->acts && (!strcmp(r->label, "warp") || !strcmp(r->label, "iter") ||
                                         !strcmp(r->label, "access") || !strcmp(r->label, "field"));
        k++;
    }
    return k;
}
