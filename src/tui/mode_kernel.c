/* mode_kernel: the generated kernel view (K). A full screen of exactly the text `bankscope kernel
 * FILE` prints for the scenario on show, edits included (kernel_text, the command's own function),
 * with line numbers; the lines generated from the current access are highlighted. Scrolls by
 * line, page, ends, sideways and with the mouse wheel; / searches, n / N repeat; Esc or q goes back
 * to the view it was opened from. Nothing here needs a GPU: the text is only generated. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

#define KEY_ESC 27

void kernel_view_free(tui_app *a)
{
    kernel_state *k = &a->kernel;
    strbuf_free(&k->text);
    free(k->lines);
    free(k->spans);
    k->lines = NULL;
    k->spans = NULL;
    k->nlines = k->nspans = 0;
}

/* Generate the text for the scenario on show and cut it into lines. */
static void kernel_build(tui_app *a)
{
    kernel_state *k = &a->kernel;
    kernel_view_free(a);
    int n = scenario_access_count(&a->sc);
    k->spans = xmalloc(sizeof *k->spans * (size_t)(n > 0 ? n : 1));
    k->error[0] = '\0';
    memset(k->spans, 0, sizeof *k->spans * (size_t)(n > 0 ? n : 1));
    kernel_text(&a->sc, a->source, 0, n, a->iteration, &k->text, k->spans, k->error, sizeof k->error);
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

static void kernel_clamp(tui_app *a)
{
    kernel_state *k = &a->kernel;
    int max = k->nlines - kernel_page(a);
    if (k->scroll > max)
        k->scroll = max;
    if (k->scroll < 0)
        k->scroll = 0;
    if (k->hscroll < 0)
        k->hscroll = 0;
}

/* The section of the current access, NULL when it was not made. */
static const kernel_text_span *kernel_current(const tui_app *a)
{
    return a->access < a->kernel.nspans ? &a->kernel.spans[a->access] : NULL;
}

int kernel_open(tui_app *a, int key)
{
    (void)key;
    app_push(a, &mode_kernel);
    return REACT_REDRAW;
}

static void kernel_enter(tui_app *a)
{
    kernel_state *k = &a->kernel;
    kernel_build(a);
    k->hscroll = 0;
    k->searching = false;
    k->hit = -1;
    const kernel_text_span *sp = kernel_current(a);
    k->scroll = sp ? sp->head : 0; /* the current access's section at the top */
    k->mask = 0;
    if (a->crt.mouse) { /* the wheel too, while the view is open */
        mmask_t old = 0;
        mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, &old);
        k->mask = (unsigned long)old;
    }
}

static void kernel_leave(tui_app *a)
{
    if (a->crt.mouse)
        mousemask((mmask_t)a->kernel.mask, NULL);
    kernel_view_free(a);
}

int kernel_scroll(tui_app *a, int key)
{
    kernel_state *k = &a->kernel;
    int page = kernel_page(a);
    switch (key) {
    case KEY_UP:
    case 'k': k->scroll--; break;
    case KEY_DOWN:
    case 'j': k->scroll++; break;
    case KEY_PPAGE:
    case 'b': k->scroll -= page; break;
    case KEY_NPAGE:
    case ' ': k->scroll += page; break;
    case KEY_HOME:
    case 'g': k->scroll = 0; break;
    case KEY_END:
    case 'G': k->scroll = k->nlines; break;
    case KEY_LEFT:
    case 'h': k->hscroll -= 8; break;
    case KEY_RIGHT:
    case 'l': k->hscroll += 8; break;
    case '\t': { /* to the current access's own lines */
        const kernel_text_span *sp = kernel_current(a);
        if (sp && sp->body_end > sp->body_first)
            k->scroll = sp->body_first - 2;
        break;
    }
    default: break;
    }
    kernel_clamp(a);
    return REACT_REDRAW;
}

/* Move to the next (dir 1) or previous (-1) line after line from holding the search text. */
static void kernel_find(tui_app *a, int from, int dir)
{
    kernel_state *k = &a->kernel;
    if (!k->query.buf[0] || k->nlines == 0) {
        app_set_message(a, false, "%s", k->query.buf[0] ? "the kernel view is empty" : "no search yet: / starts one");
        return;
    }
    for (int i = 1; i <= k->nlines; i++) {
        int l = ((from + dir * i) % k->nlines + k->nlines) % k->nlines;
        if (strstr(k->lines[l], k->query.buf)) {
            k->hit = l;
            k->scroll = l - 2;
            kernel_clamp(a);
            bool wrapped = dir > 0 ? l <= from : l >= from;
            app_set_message(a, false, "'%s': line %d%s", k->query.buf, l + 1, wrapped ? " (from the other end)" : "");
            return;
        }
    }
    app_set_message(a, true, "'%s' is not in the kernel", k->query.buf);
}

int kernel_search(tui_app *a, int key)
{
    kernel_state *k = &a->kernel;
    if (key == '/') {
        k->searching = true;
        line_set(&k->query, "", false);
        k->hit = -1;
        return REACT_REDRAW;
    }
    kernel_find(a, k->hit >= 0 && k->hit < k->nlines ? k->hit : k->scroll, key == 'N' ? -1 : 1);
    return REACT_REDRAW;
}

int kernel_mouse(tui_app *a, int key)
{
    (void)key;
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return REACT_NONE;
    if (ev.bstate & BUTTON4_PRESSED)
        a->kernel.scroll -= 3;
    else if (ev.bstate & BUTTON5_PRESSED)
        a->kernel.scroll += 3;
    else
        return REACT_NONE;
    kernel_clamp(a);
    return REACT_REDRAW;
}

/* Keys while a search text is typed; the rest go through the action table. */
static int kernel_key(tui_app *a, int key)
{
    kernel_state *k = &a->kernel;
    if (!k->searching)
        return actions_dispatch(a, MODE_KERNEL, key);
    if (key == KEY_ESC) {
        k->searching = false;
    } else if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        k->searching = false;
        kernel_find(a, k->scroll - 1, 1); /* a match on the top line counts */
    } else {
        line_key(&k->query, key);
    }
    return REACT_REDRAW;
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

static void kernel_draw(tui_app *a)
{
    kernel_state *k = &a->kernel;
    kernel_clamp(a);
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    draw_fill(a, 0, 0, a->cols, ROLE_TITLE);
    draw_text(a, 0, 0, a->cols, ROLE_TITLE, " KERNEL%sthe CUDA kernel that `measure` runs%sviewing it needs no GPU",
              sep, sep);
    const kernel_text_span *sp = kernel_current(a);
    char what[300] = "";
    if (sp && sp->body_end > sp->body_first)
        snprintf(what, sizeof what, "%s %d: lines %d-%d highlighted (Tab)", a->sc.is_trace ? "entry" : "access",
                 a->access, sp->body_first + 1, sp->body_end);
    char as[400]; /* the command that prints this text: only the file on disk, unedited, is the same */
    if (app_in_mode(a, MODE_LESSON) && a->lesson.les.nsteps > 0)
        snprintf(as, sizeof as, "as `bankscope kernel` prints it for lesson step %d's scenario%s", a->lesson.step + 1,
                 a->modified ? ", edited" : "");
    else if (a->modified)
        snprintf(as, sizeof as, "as `bankscope kernel` prints it for the scenario as edited (not as saved)");
    else
        snprintf(as, sizeof as, "as `bankscope kernel %s` prints it", a->source);
    draw_text(a, 1, 0, a->cols, ROLE_DIM, " %s%s%s%s",
              a->sc.is_trace ? "a trace: lane addresses come in bs_table; " : "", what, *what ? sep : "", as);
    int page = kernel_page(a), gut = digits(k->nlines) + 1;
    for (int i = 0; i < page && k->scroll + i < k->nlines; i++) {
        int l = k->scroll + i, y = 2 + i;
        const char *text = k->lines[l];
        bool own = sp && l >= sp->body_first && l < sp->body_end;
        bool head = strncmp(text, "// ==== ", 8) == 0;
        bool found = l == k->hit && k->query.buf[0];
        tui_role role = found ? ROLE_SELECTED : own ? ROLE_HILITE : head ? ROLE_KEY : ROLE_NORMAL;
        if (own || found)
            draw_fill(a, y, 0, a->cols, role);
        draw_text(a, y, 0, gut, ROLE_DIM, "%*d", gut - 1, l + 1);
        size_t len = strlen(text), off = (size_t)k->hscroll;
        while (off < len && ((unsigned char)text[off] & 0xC0) == 0x80) /* never inside a character */
            off++;
        if (off < len)
            draw_text(a, y, gut + 1, a->cols - gut - 1, role, "%s", text + off);
    }
    int y = a->rows - 2;
    draw_fill(a, y, 0, a->cols, ROLE_NORMAL);
    if (k->searching) {
        int x = draw_text(a, y, 0, a->cols, ROLE_KEY, " search: ");
        x += draw_line(a, y, x, a->cols - x - 30, ROLE_KEY, &k->query, '_');
        draw_text(a, y, x, a->cols - x, ROLE_KEY, "  (Enter finds, Esc cancels)");
    } else if (k->error[0])
        draw_text(a, y, 0, a->cols, ROLE_ERROR, " no kernel for %s", k->error);
    else
        draw_text(a, y, 0, a->cols, ROLE_DIM, " lines %d-%d of %d%s", k->nlines ? k->scroll + 1 : 0,
                  k->scroll + page < k->nlines ? k->scroll + page : k->nlines, k->nlines,
                  k->scroll + page >= k->nlines ? " (end)" : "");
    panel_bar_draw(a);
}

const tui_mode mode_kernel = {MODE_KERNEL, "kernel view", false, kernel_enter,
                              kernel_key,  kernel_draw,   NULL,  kernel_leave};
