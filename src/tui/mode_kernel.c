/* mode_kernel: the generated kernel view (K), on the pager. A full screen of exactly the text
 * `bankscope kernel FILE` prints for the scenario on show, edits included (kernel_text, the
 * command's own function), with line numbers; the lines generated from the current access are
 * highlighted and Tab goes to them. The pager scrolls (line, page, ends, sideways, the mouse
 * wheel) and searches (/, n, N); Esc or q goes back to the view it was opened from. Nothing here
 * needs a GPU: the text is only generated. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

/* The kernel view (mode_kernel.c): the text `bankscope kernel` prints for the scenario on show. */
typedef struct kernel_state {
    strbuf text;  /* owned */
    char **lines; /* owned array; the lines point into text (NUL-terminated there) */
    int nlines;
    kernel_text_span *spans; /* owned; one per access (trace entry) from first made before any error */
    int nspans, first;
    int total;       /* accesses of the scenario (more than made: the view holds a window around the current) */
    char error[700]; /* why the kernel of an access could not be made; "" when all were */
    tui_pager pager;
    unsigned long mask; /* mouse events before the view asked for the wheel too */
} kernel_state;

/* The kernel view's state, while it is open. */
static kernel_state *kst(const tui_app *a)
{
    return app_mode_state(a, MODE_KERNEL);
}

/* Free the text (before it is made again, and when the view is popped). */
static void kernel_release(void *st)
{
    kernel_state *k = st;
    strbuf_free(&k->text);
    free(k->lines);
    free(k->spans);
    k->lines = NULL;
    k->spans = NULL;
    k->nlines = k->nspans = k->first = k->total = 0;
    pager_set(&k->pager, NULL, 0, false);
}

/* Generate the text for the scenario on show and cut it into lines: at most
 * KERNEL_TEXT_MAX_SECTIONS sections, around the current access, so that the view of a trace of a
 * million entries opens at once (the title says which are shown). */
static void kernel_build(tui_app *a)
{
    kernel_state *k = kst(a);
    kernel_release(k);
    int total = scenario_access_count(&a->sc), n = total, first = 0;
    if (n > KERNEL_TEXT_MAX_SECTIONS) {
        first = a->access - KERNEL_TEXT_MAX_SECTIONS / 2;
        first = first > total - KERNEL_TEXT_MAX_SECTIONS ? total - KERNEL_TEXT_MAX_SECTIONS : first;
        first = first < 0 ? 0 : first;
        n = KERNEL_TEXT_MAX_SECTIONS;
    }
    k->first = first;
    k->total = total;
    k->spans = xmalloc(sizeof *k->spans * (size_t)(n > 0 ? n : 1));
    k->error[0] = '\0';
    memset(k->spans, 0, sizeof *k->spans * (size_t)(n > 0 ? n : 1));
    kernel_text(&a->sc, a->source, first, first + n, a->iteration, &k->text, k->spans, k->error, sizeof k->error);
    while (k->nspans < n && k->spans[k->nspans].end > 0) /* the sections made before any error */
        k->nspans++;
    int cap = 64;
    k->lines = xmalloc(sizeof *k->lines * (size_t)cap);
    char *p = k->text.data;
    while (p && *p) {
        if (k->nlines == cap)
            k->lines = xrealloc(k->lines, sizeof *k->lines * (size_t)(cap *= 2));
        k->lines[k->nlines++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
}

/* Lines of text the screen shows (between the two title lines and the two bottom lines). */
static int kernel_page(const tui_app *a)
{
    int h = a->rows - 4;
    return h > 1 ? h : 1;
}

/* The section of the current access, NULL when it was not made. */
static const kernel_text_span *kernel_current(const tui_app *a)
{
    int i = a->access - kst(a)->first;
    return i >= 0 && i < kst(a)->nspans ? &kst(a)->spans[i] : NULL;
}

int kernel_open(tui_app *a, int key)
{
    (void)key;
    app_push(a, &mode_kernel);
    return REACT_REDRAW;
}

static void kernel_enter(tui_app *a)
{
    kernel_state *k = kst(a);
    kernel_build(a);
    pager_set(&k->pager, (const char *const *)k->lines, k->nlines, false);
    const kernel_text_span *sp = kernel_current(a);
    k->pager.scroll = sp ? sp->head : 0; /* the current access's section at the top */
    pager_clamp(&k->pager, kernel_page(a));
    k->mask = crt_mouse_wheel(&a->crt); /* the wheel too, while the view is open */
}

static void kernel_leave(tui_app *a)
{
    crt_mouse_restore(&a->crt, kst(a)->mask);
}

static int kernel_scroll(tui_app *a, int key)
{
    kernel_state *k = kst(a);
    int page = kernel_page(a);
    if (key == '\t') { /* to the current access's own lines */
        const kernel_text_span *sp = kernel_current(a);
        if (sp && sp->body_end > sp->body_first)
            k->pager.scroll = sp->body_first - 2;
        pager_clamp(&k->pager, page);
        return REACT_REDRAW;
    }
    pager_scroll_key(&k->pager, key, page);
    return REACT_REDRAW;
}

/* Say where the search landed (or that it found nothing). */
static void kernel_found(tui_app *a, int r, bool wrapped)
{
    const tui_pager *p = &kst(a)->pager;
    if (!p->query.buf[0] || p->nlines == 0)
        app_set_message(a, false, "%s", p->query.buf[0] ? "the kernel view is empty" : "no search yet: / starts one");
    else if (r == PAGER_FOUND)
        app_set_message(a, false, "'%s': line %d%s", p->query.buf, p->hit + 1, wrapped ? " (from the other end)" : "");
    else
        app_set_message(a, true, "'%s' is not in the kernel", p->query.buf);
}

static int kernel_search(tui_app *a, int key)
{
    kernel_state *k = kst(a);
    if (key == '/') {
        pager_search_begin(&k->pager);
        return REACT_REDRAW;
    }
    bool wrapped = false;
    kernel_found(a, pager_find_next(&k->pager, key == 'N' ? -1 : 1, kernel_page(a), &wrapped), wrapped);
    return REACT_REDRAW;
}

static int kernel_mouse(tui_app *a, int key)
{
    (void)key;
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return REACT_NONE;
    if (ev.bstate & BUTTON4_PRESSED)
        pager_scroll_by(&kst(a)->pager, -3, kernel_page(a));
    else if (ev.bstate & BUTTON5_PRESSED)
        pager_scroll_by(&kst(a)->pager, 3, kernel_page(a));
    else
        return REACT_NONE;
    return REACT_REDRAW;
}

/* Keys while a search text is typed; the rest go through the action table. */
static int kernel_key(tui_app *a, int key)
{
    kernel_state *k = kst(a);
    if (!k->pager.searching)
        return actions_dispatch(a, MODE_KERNEL, key);
    int r = pager_search_key(&k->pager, key, kernel_page(a));
    if (r == PAGER_FOUND || r == PAGER_NOT_FOUND)
        kernel_found(a, r, false);
    return REACT_REDRAW;
}

/* The kernel's lines: the current access's own lines highlighted, section heads as keys. */
static void kernel_style(void *ctx, int l, tui_pager_line *out)
{
    const tui_app *a = ctx;
    const kernel_text_span *sp = kernel_current(a);
    bool own = sp && l >= sp->body_first && l < sp->body_end;
    bool head = strncmp(kst(a)->lines[l], "// ==== ", 8) == 0;
    out->role = own ? ROLE_HILITE : head ? ROLE_KEY : ROLE_NORMAL;
    out->fill = own;
}

static void kernel_draw(tui_app *a)
{
    kernel_state *k = kst(a);
    pager_clamp(&k->pager, kernel_page(a));
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    draw_fill(&a->crt, 0, 0, a->cols, ROLE_TITLE);
    draw_text(&a->crt, 0, 0, a->cols, ROLE_TITLE,
              " KERNEL%sthe CUDA kernel that `measure` runs%sviewing it needs no GPU", sep, sep);
    const kernel_text_span *sp = kernel_current(a);
    bool trace = !scenario_has_layout(&a->sc); /* its sections are entries, its addresses a table */
    char what[300] = "";
    if (sp && sp->body_end > sp->body_first)
        snprintf(what, sizeof what, "%s %d: lines %d-%d highlighted (Tab)", trace ? "entry" : "access", a->access,
                 sp->body_first + 1, sp->body_end);
    char as[400]; /* the command that prints this text: only the file on disk, unedited, is the same */
    const lesson_state *ls = app_mode_state(a, MODE_LESSON);
    if (ls)
        snprintf(as, sizeof as, "as `bankscope kernel` prints it for lesson step %d's scenario%s", ls->step + 1,
                 a->modified ? ", edited" : "");
    else if (a->modified)
        snprintf(as, sizeof as, "as `bankscope kernel` prints it for the scenario as edited (not as saved)");
    else
        snprintf(as, sizeof as, "as `bankscope kernel %s` prints it", a->source);
    if (k->total > KERNEL_TEXT_MAX_SECTIONS) /* a window of the sections: say which */
        snprintf(as, sizeof as, "%s %d-%d of %d shown (at most %d at once, around the current one)",
                 trace ? "entries" : "accesses", k->first, k->first + KERNEL_TEXT_MAX_SECTIONS - 1, k->total,
                 KERNEL_TEXT_MAX_SECTIONS);
    char head[1200]; /* too long: "(Tab)" goes first, then the line is cut after a word */
    snprintf(head, sizeof head, " %s%s%s%s", trace ? "a trace: lane addresses come in bs_table; " : "", what,
             *what ? sep : "", as);
    char *tab = strstr(what, " (Tab)");
    if (draw_width(head) > a->cols && tab) {
        *tab = '\0';
        snprintf(head, sizeof head, " %s%s%s%s", trace ? "a trace: lane addresses come in bs_table; " : "", what, sep,
                 as);
    }
    draw_text_cut(&a->crt, 1, 0, a->cols, ROLE_DIM, 0, head);
    int page = kernel_page(a);
    layout_rect text = {2, 0, page, a->cols};
    pager_draw(&a->crt, &k->pager, &text, kernel_style, a);
    if (k->error[0] && !k->pager.searching) {
        draw_fill(&a->crt, a->rows - 2, 0, a->cols, ROLE_NORMAL);
        draw_text(&a->crt, a->rows - 2, 0, a->cols, ROLE_ERROR, " no kernel for %s", k->error);
    } else {
        pager_status_draw(&a->crt, &k->pager, a->rows - 2, a->cols, page);
    }
    app_bar_draw(a);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action kernel_actions[] = {
    /* the kernel view */
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j'},
     .nshow = 2,
     .label = "scroll",
     .help = "scroll a line",
     .handler = kernel_scroll,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {KEY_PPAGE, KEY_NPAGE, 'b', ' '},
     .nshow = 2,
     .help = "scroll a page (b / Space too)",
     .handler = kernel_scroll,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {KEY_HOME, KEY_END, 'g', 'G'},
     .nshow = 2,
     .label = "ends",
     .help = "the first / last line (g / G too)",
     .handler = kernel_scroll,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {KEY_LEFT, KEY_RIGHT, 'h', 'l'},
     .nshow = 2,
     .help = "scroll sideways (long lines)",
     .handler = kernel_scroll,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {KEY_TAB},
     .nshow = 1,
     .label = "access",
     .help = "go to the highlighted lines: the ones generated from the current access",
     .handler = kernel_scroll,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {'/'},
     .nshow = 1,
     .label = "search",
     .help = "search the text (Enter finds, Esc cancels)",
     .handler = kernel_search,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {'n', 'N'},
     .nshow = 2,
     .label = "match",
     .help = "next / previous match of the search",
     .handler = kernel_search,
     .modes = MODE_BIT(MODE_KERNEL)},
    {.keys = {KEY_MOUSE},
     .nshow = 1,
     .help = "mouse wheel: scroll",
     .handler = kernel_mouse,
     .modes = MODE_BIT(MODE_KERNEL)},
};

const tui_mode mode_kernel = {
    .id = MODE_KERNEL,
    .name = "kernel view",
    .enter = kernel_enter,
    .key = kernel_key,
    .draw = kernel_draw,
    .leave = kernel_leave,
    .state_size = sizeof(kernel_state),
    .release = kernel_release,
    .actions = kernel_actions,
    .nactions = (int)(sizeof kernel_actions / sizeof kernel_actions[0]),
};
