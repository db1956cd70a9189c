/* mode_picker: a list to choose from: every pattern and lesson of the library (L) with its title
 * and architecture, or every architecture (A). Typing filters the list (fuzzy: the letters in
 * order, anywhere in the name, title or arch; the exact name first, then names that start with
 * it, then the rest by how well they match); arrows, PgUp/PgDn and Home/End move; Enter opens
 * the chosen entry (asking first when there are unsaved edits, as n and p do); Esc closes. */
#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "io/library.h"
#include "tui/app.h"

typedef enum picker_kind { PICK_PATTERN, PICK_ARCH } picker_kind;
typedef struct picker_state {
    picker_kind kind;
    int cursor, scroll;           /* in the shown entries */
    int n;                        /* entries */
    char **name, **title, **arch; /* owned, one per entry (title, arch: NULL when unknown) */
    tui_line filter;              /* typed: entries whose text holds its letters in order */
    int *shown;                   /* owned: the entries that match, in library order */
    int nshown;
} picker_state;

/* The picker's state, while it is open. */
static picker_state *pst(const tui_app *a)
{
    return app_mode_state(a, MODE_PICKER);
}

/* Free the list (the picker is popped). */
static void picker_release(void *st)
{
    picker_state *p = st;
    for (int i = 0; i < p->n && p->name; i++) {
        free(p->name[i]);
        free(p->title[i]);
        free(p->arch[i]);
    }
    free(p->name);
    free(p->title);
    free(p->arch);
    free(p->shown);
    p->name = p->title = p->arch = NULL;
    p->shown = NULL;
    p->n = p->nshown = 0;
}

/* The shortest span of text that holds the letters of pat in order (case ignored), or -1. */
static int fuzzy_span(const char *pat, const char *text)
{
    int best = -1;
    for (const char *s = text; *s; s++) {
        if (tolower((unsigned char)*s) != tolower((unsigned char)*pat))
            continue;
        const char *q = pat, *t = s;
        for (; *q && *t; t++)
            if (tolower((unsigned char)*q) == tolower((unsigned char)*t))
                q++;
        if (*q)
            break; /* no later start matches either */
        int span = (int)(t - s);
        if (best < 0 || span < best)
            best = span;
    }
    return best;
}

/* How well an entry matches the filter, lower is better: the exact name (0), a name that starts
 * with it (1), holds it (2), a title or arch that holds it (3), then fuzzy matches by how tight
 * the letters sit, in the name before elsewhere; -1 when it does not match at all. */
static int match_rank(const char *pat, const char *name, const char *all)
{
    size_t n = strlen(pat);
    if (n == 0)
        return 0;
    if (!strcasecmp(name, pat))
        return 0;
    if (!strncasecmp(name, pat, n))
        return 1;
    if (strcasestr(name, pat))
        return 2;
    if (strcasestr(all, pat))
        return 3;
    int in_name = fuzzy_span(pat, name);
    if (in_name >= 0)
        return 4 + in_name;
    int in_all = fuzzy_span(pat, all);
    return in_all < 0 ? -1 : 1000 + in_all;
}

/* The entries the filter keeps, best match first (library order among equals); the cursor goes
 * to the best match, or stays on its entry while there is no filter. */
static void picker_filter(picker_state *p)
{
    int at = p->nshown > 0 && p->cursor < p->nshown ? p->shown[p->cursor] : -1;
    p->nshown = 0;
    p->cursor = 0;
    int *rank = xcalloc((size_t)(p->n > 0 ? p->n : 1), sizeof *rank);
    for (int i = 0; i < p->n; i++) {
        char all[700];
        snprintf(all, sizeof all, "%s %s %s", p->name[i], p->title[i] ? p->title[i] : "", p->arch[i] ? p->arch[i] : "");
        int r = match_rank(p->filter.buf, p->name[i], all);
        if (r < 0)
            continue;
        int k = p->nshown++; /* insertion: stable, so equals keep the library order */
        while (k > 0 && rank[k - 1] > r) {
            rank[k] = rank[k - 1];
            p->shown[k] = p->shown[k - 1];
            k--;
        }
        rank[k] = r;
        p->shown[k] = i;
    }
    free(rank);
    if (!p->filter.buf[0])
        for (int k = 0; k < p->nshown; k++)
            if (p->shown[k] == at)
                p->cursor = k;
    p->scroll = 0;
}

int picker_open(tui_app *a, int key)
{
    if (!app_push(a, &mode_picker)) /* its state, filled here */
        return REACT_REDRAW;
    picker_state *p = pst(a);
    p->kind = key == 'A' ? PICK_ARCH : PICK_PATTERN;
    int np, start = 0;
    const banks_profile *ps = banks_profiles(&np);
    const library_entry *e = library_patterns(&np);
    if (p->kind == PICK_ARCH)
        ps = banks_profiles(&np);
    p->n = np;
    p->name = xcalloc((size_t)(np > 0 ? np : 1), sizeof *p->name);
    p->title = xcalloc((size_t)(np > 0 ? np : 1), sizeof *p->title);
    p->arch = xcalloc((size_t)(np > 0 ? np : 1), sizeof *p->arch);
    p->shown = xcalloc((size_t)(np > 0 ? np : 1), sizeof *p->shown);
    for (int i = 0; i < np; i++) {
        if (p->kind == PICK_ARCH) {
            p->name[i] = xstrdup(ps[i].name);
            p->title[i] = xstrdup(ps[i].title);
            continue;
        }
        char name[256];
        snprintf(name, sizeof name, "%s", e[i].name);
        char *dot = strstr(name, ".json");
        if (dot)
            *dot = '\0';
        p->name[i] = xstrdup(name);
        library_head h; /* read without loading the pattern */
        if (library_head_read(&e[i], &h)) {
            if (h.lesson) {
                char t[600];
                snprintf(t, sizeof t, "lesson, %d steps: %s", h.steps, h.title ? h.title : "");
                p->title[i] = xstrdup(t);
            } else if (h.title) {
                p->title[i] = xstrdup(h.title);
            }
            p->arch[i] = h.arch ? xstrdup(h.arch) : NULL;
        }
        library_head_free(&h);
    }
    start = p->kind == PICK_ARCH ? (int)(a->sc.arch - banks_profiles(&np)) : a->pattern >= 0 ? a->pattern : 0;
    line_set(&p->filter, "", false);
    p->nshown = 0;
    picker_filter(p);
    p->cursor = start >= 0 && start < p->nshown ? start : 0;
    return REACT_REDRAW;
}

static int picker_move(tui_app *a, int key)
{
    picker_state *p = pst(a);
    int d = key == KEY_UP ? -1 : key == KEY_DOWN ? 1 : key == KEY_PPAGE ? -10 : key == KEY_NPAGE ? 10 : 0;
    int c = key == KEY_HOME ? 0 : key == KEY_END ? p->nshown - 1 : p->cursor + d;
    p->cursor = c >= p->nshown ? p->nshown - 1 : c; /* an empty list: -1, then 0 below */
    p->cursor = p->cursor < 0 ? 0 : p->cursor;
    return REACT_REDRAW;
}

static int picker_type(tui_app *a, int key)
{
    picker_state *p = pst(a);
    if (line_key(&p->filter, key) == LINE_CHANGED)
        picker_filter(p);
    return REACT_REDRAW;
}

static int picker_close(tui_app *a, int key)
{
    (void)key;
    app_pop(a);
    return REACT_REDRAW;
}

static int picker_choose(tui_app *a, int key)
{
    (void)key;
    picker_state *p = pst(a);
    if (p->nshown == 0 || p->cursor < 0 || p->cursor >= p->nshown) {
        app_set_message(a, true, "nothing matches '%s' (Backspace edits the filter)", p->filter.buf);
        return REACT_REDRAW;
    }
    int k = p->shown[p->cursor];
    picker_kind kind = p->kind;
    app_pop(a);
    if (kind == PICK_ARCH) {
        scenario_change c = {.kind = SCENARIO_CHANGE_ARCH_SET, .u.arch = {.step = 0, .index = k}};
        return app_change(a, &c, false);
    }
    /* the pattern after the one before the chosen: n's path, which asks first when edited */
    while (app_in_mode(a, MODE_LESSON))
        app_pop(a);
    a->pattern = k - 1;
    return app_open_relative(a, 1, false);
}

/* Characters typed go to the filter; the other keys through the action table. */
static int picker_key(tui_app *a, int key)
{
    if (key >= 32 && key < 127)
        return picker_type(a, key);
    return actions_dispatch(a, MODE_PICKER, key);
}

static void picker_draw(tui_app *a)
{
    picker_state *p = pst(a);
    int w = a->cols - 4 < 120 ? a->cols - 4 : 120, h = a->rows - 2;
    layout_rect box = {1, (a->cols - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(&a->crt, y, box.x, box.w, ROLE_NORMAL);
    char title[200];
    snprintf(title, sizeof title, "%s: %d of %d (type to filter, Enter %s, Esc closes)",
             p->kind == PICK_ARCH ? "architecture" : "pattern library", p->nshown, p->n,
             p->kind == PICK_ARCH ? "chooses" : "opens");
    layout_rect in = panel_frame(&a->crt, &box, title, true);
    app_bar_draw(a);
    if (in.h < 2)
        return;
    int x = in.x + draw_text(&a->crt, in.y, in.x, in.w, ROLE_KEY, "filter: ");
    draw_line(&a->crt, in.y, x, in.x + in.w - x, ROLE_NORMAL, &p->filter, '_');
    int rows = in.h - 1, y0 = in.y + 1;
    if (p->cursor < p->scroll)
        p->scroll = p->cursor;
    if (p->cursor >= p->scroll + rows)
        p->scroll = p->cursor - rows + 1;
    if (p->scroll < 0) /* the list is never read before its start */
        p->scroll = 0;
    int namew = 0;
    for (int i = 0; i < p->nshown; i++) {
        int nw = draw_width(p->name[p->shown[i]]);
        namew = nw > namew ? nw : namew;
    }
    namew = namew > 28 ? 28 : namew;
    if (p->nshown == 0)
        draw_text(&a->crt, y0, in.x, in.w, ROLE_DIM, "  nothing matches");
    for (int i = 0; i < rows && p->scroll + i < p->nshown; i++) {
        int k = p->shown[p->scroll + i];
        bool cur = p->scroll + i == p->cursor;
        int marks = cur ? MARK_SELECT : 0, y = y0 + i;
        if (cur)
            draw_fill(&a->crt, y, in.x, in.w, ROLE_SELECTED);
        int cx = in.x + draw_text_mark(&a->crt, y, in.x, in.w, ROLE_KEY, marks, "%c %-*.*s ", cur ? '>' : ' ', namew,
                                       namew, p->name[k]);
        /* the arch always shows: a long title is cut, with an ellipsis */
        int aw = p->arch[k] ? draw_width(p->arch[k]) + 1 : 0;
        const char *title = p->title[k] ? p->title[k] : "";
        int tw = in.x + in.w - cx - aw;
        cx += draw_text_cut(&a->crt, y, cx, tw - 1, ROLE_NORMAL, marks, title);
        if (p->arch[k] && in.x + in.w - aw >= cx)
            draw_text_mark(&a->crt, y, in.x + in.w - aw, aw, ROLE_DIM, marks, " %s", p->arch[k]);
    }
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action picker_actions[] = {
    /* pickers */
    {.keys = {KEY_UP, KEY_DOWN, KEY_PPAGE, KEY_NPAGE, KEY_HOME, KEY_END},
     .nshow = 2,
     .label = "move",
     .help = "move in the list (PgUp/PgDn a page, Home/End the ends)",
     .handler = picker_move,
     .modes = MODE_BIT(MODE_PICKER)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "choose",
     .help = "open the chosen entry",
     .handler = picker_choose,
     .modes = MODE_BIT(MODE_PICKER)},
    {.keys = {KEY_BACKSPACE, 127, CTRL('u')},
     .nshow = 1,
     .help = "type to filter: the entries whose name, title or arch hold the letters in that order (fuzzy)",
     .handler = picker_type,
     .modes = MODE_BIT(MODE_PICKER)},
    {.keys = {KEY_ESC},
     .nshow = 1,
     .label = "close",
     .help = "close the list",
     .handler = picker_close,
     .modes = MODE_BIT(MODE_PICKER)},
};

const tui_mode mode_picker = {
    .id = MODE_PICKER,
    .name = "picker",
    .overlay = true,
    .key = picker_key,
    .draw = picker_draw,
    .state_size = sizeof(picker_state),
    .release = picker_release,
    .actions = picker_actions,
    .nactions = (int)(sizeof picker_actions / sizeof picker_actions[0]),
};
