/* mode_help: the keys of the view below, generated from the action table (never written by
 * hand), or the whole why text (y). Scrolls; Esc or q closes; a resize keeps it open. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

typedef struct help_state {
    int scroll;
    bool why; /* the page shows the whole why text, not the keys */
} help_state;

/* The help screen's state, while it is open. */
static help_state *hst(const tui_app *a)
{
    return app_mode_state(a, MODE_HELP);
}

/* The mode whose keys the help shows: the one under the help. */
static tui_mode_id help_subject(const tui_app *a)
{
    return a->depth >= 2 ? a->stack[a->depth - 2]->id : MODE_MAIN;
}

/* The lines on the page (malloc'd); width w for wrapping the why text. */
static char **help_lines(tui_app *a, int w, int *n)
{
    if (!hst(a)->why) {
        tui_mode_id m = help_subject(a);
        int k;
        char **keys = actions_help_lines(&a->crt, m, a, &k);
        char idle[400], idle_line[520];
        actions_help_idle(a, m, idle, sizeof idle);
        snprintf(idle_line, sizeof idle_line, "Keys that do nothing here%s: %s.",
                 !scenario_has_layout(&a->sc)
                     ? " (a trace: its addresses were recorded, not computed from a declaration)"
                     : "",
                 idle);
        const char *const notes[] = {
            "",
            "Cells show lanes. Red: the bank serves several words in one phase (a conflict; it wins over every "
            "other colour). Yellow: lanes sharing one word (broadcast). The selected lane is shown reversed on top "
            "of its colour. Predicted numbers come from the model; measured ones need a GPU.",
        };
        /* the main view's notes on the colours; every view: the keys that do nothing here */
        const char *note[7];
        int nn = 0;
        for (int i = 0; m == MODE_MAIN && i < 2; i++)
            note[nn++] = notes[i];
        if (idle[0]) {
            note[nn++] = "";
            note[nn++] = idle_line;
        }
        /* wrapped to the page, continuation lines under the help text: never cut */
        int cap = k + nn + 16, o = 0;
        char **out = xmalloc(sizeof *out * (size_t)cap);
        for (int i = 0; i < k + nn; i++) {
            const char *line = i < k ? keys[i] : note[i - k];
            /* a key's line: its keys column stays on the first line, the text wraps in the
             * width right of it (the whole line wrapped at w - 12 left 12 columns unused) */
            int head = 0, hw = 0;
            if (i < k) {
                while (line[head] && line[head] != ' ')
                    head++;
                while (line[head] == ' ')
                    head++;
                char hb[64];
                snprintf(hb, sizeof hb, "%.*s", head < 63 ? head : 63, line);
                hw = draw_width(hb) > 12 ? draw_width(hb) : 12;
            }
            char **parts;
            int np = draw_wrap(line + head, i < k ? w - hw : w, &parts);
            if (np == 0) { /* an empty line stays a line */
                draw_wrap_free(parts, 0);
                np = draw_wrap(" ", w, &parts);
            }
            for (int j = 0; j < np; j++) {
                if (o == cap)
                    out = xrealloc(out, sizeof *out * (size_t)(cap *= 2));
                char buf[300];
                if (j == 0)
                    snprintf(buf, sizeof buf, "%.*s%s", head, line, parts[j]);
                else
                    snprintf(buf, sizeof buf, "%*s%s", hw, "", parts[j]);
                out[o++] = xstrdup(buf);
            }
            draw_wrap_free(parts, np);
        }
        actions_help_free(keys, k);
        *n = o;
        return out;
    }
    char **paras;
    tui_vctx v;
    app_view_context(a, &v);
    int np = why_paragraphs(&v, &paras), k = 0, cap = 16;
    char **out = xmalloc(sizeof *out * (size_t)cap);
    for (int i = 0; i < np; i++) {
        char **lines;
        int nl = draw_wrap(paras[i], w, &lines);
        for (int j = 0; j <= nl; j++) {
            if (k == cap)
                out = xrealloc(out, sizeof *out * (size_t)(cap *= 2));
            out[k++] = xstrdup(j < nl ? lines[j] : "");
        }
        draw_wrap_free(lines, nl);
        free(paras[i]);
    }
    free(paras);
    *n = k;
    return out;
}

static void help_draw(tui_app *a)
{
    int w = a->cols < 96 ? a->cols : 96, h = a->rows - 2;
    layout_rect r = {1, (a->cols - w) / 2, h, w};
    for (int y = r.y; y < r.y + r.h; y++)
        draw_fill(&a->crt, y, r.x, r.w, ROLE_NORMAL);
    char title[96];
    if (hst(a)->why)
        snprintf(title, sizeof title, "why (Esc or q closes)");
    else
        snprintf(title, sizeof title, "keys of the %s (Esc or q closes)",
                 a->depth >= 2 ? a->stack[a->depth - 2]->name : "main view");
    layout_rect in = panel_frame(&a->crt, &r, title, true);
    int n;
    char **lines = help_lines(a, in.w - 2, &n);
    if (hst(a)->scroll > n - in.h)
        hst(a)->scroll = n - in.h > 0 ? n - in.h : 0;
    for (int i = 0; i < in.h && hst(a)->scroll + i < n; i++)
        draw_text(&a->crt, in.y + i, in.x + 1, in.w - 1, ROLE_NORMAL, "%s", lines[hst(a)->scroll + i]);
    if (n > in.h)
        draw_text(&a->crt, r.y + r.h - 1, r.x + 2, r.w - 4, ROLE_KEY, " lines %d-%d of %d (%s scroll) ",
                  hst(a)->scroll + 1, hst(a)->scroll + in.h < n ? hst(a)->scroll + in.h : n, n,
                  crt_glyph(&a->crt, "↑↓ PgUp/PgDn", "up/down PgUp/PgDn"));
    actions_help_free(lines, n);
    app_bar_draw(a);
}

/* Scroll by a line, or by a page (the frame's inner height) with PgUp/PgDn/Space/b; Home/End
 * go to either end (the draw clamps the end to the last page). */
static int help_scroll(tui_app *a, int key)
{
    int page = a->rows - 4 > 1 ? a->rows - 5 : 1; /* one line of the last page stays for context */
    if (key == KEY_HOME || key == 'g') {
        hst(a)->scroll = 0;
        return REACT_REDRAW;
    }
    if (key == KEY_END || key == 'G') {
        hst(a)->scroll = 1 << 20;
        return REACT_REDRAW;
    }
    int d = key == KEY_UP || key == 'k'      ? -1
            : key == KEY_DOWN || key == 'j'  ? 1
            : key == KEY_PPAGE || key == 'b' ? -page
                                             : page;
    hst(a)->scroll = hst(a)->scroll + d < 0 ? 0 : hst(a)->scroll + d;
    return REACT_REDRAW;
}

void help_open(tui_app *a, bool why)
{
    if (app_push(a, &mode_help))
        hst(a)->why = why;
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action help_actions[] = {
    /* help */
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j'},
     .nshow = 2,
     .label = "scroll",
     .help = "scroll a line",
     .handler = help_scroll,
     .modes = MODE_BIT(MODE_HELP)},
    {.keys = {KEY_PPAGE, KEY_NPAGE, 'b', ' '},
     .nshow = 2,
     .help = "scroll a page (b / Space too)",
     .handler = help_scroll,
     .modes = MODE_BIT(MODE_HELP)},
    {.keys = {KEY_HOME, KEY_END, 'g', 'G'},
     .nshow = 2,
     .help = "the first / last page",
     .handler = help_scroll,
     .modes = MODE_BIT(MODE_HELP)},
};

const tui_mode mode_help = {
    .id = MODE_HELP,
    .name = "help",
    .overlay = true,
    .state_size = sizeof(help_state),
    .draw = help_draw,
    .actions = help_actions,
    .nactions = (int)(sizeof help_actions / sizeof help_actions[0]),
};
