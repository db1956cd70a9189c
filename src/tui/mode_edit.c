/* mode_edit: the index expression editor in the bottom line. Every keystroke tries the text on
 * a copy of the scenario; a text that validates replaces the scenario (one undo step for the
 * whole edit), one that does not shows where it fails and leaves the scenario as it was. A text
 * is valid where the loader would open it: one that fails for a lane of the first warp-
 * instructions (load_check_eval) is refused as a file with it would be; Enter keeps the prompt
 * open on a refused text, so nothing typed is lost. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "tui/app.h"

/* Start editing index dim (-1: 'when') of the current access. */
static void edit_start(tui_app *a, int dim)
{
    const scenario_access *ac = &a->sc.accesses[a->access];
    const char *text = dim < 0 ? (ac->when_text ? ac->when_text : "1") : ac->index_text[dim];
    edit_state *e = &a->edit;
    e->dim = dim;
    snprintf(e->buf, sizeof e->buf, "%s", text);
    e->len = (int)strlen(e->buf);
    e->err_pos = -1;
    e->changed = false;
}

int edit_begin_key(tui_app *a, int key)
{
    (void)key;
    if (a->sc.is_trace) {
        app_set_message(a, true, "a trace has no expressions");
        return REACT_REDRAW;
    }
    edit_start(a, 0);
    app_push(a, &mode_edit);
    return REACT_REDRAW;
}

/* Try the text on a copy; on success it replaces the scenario (the first change of this edit
 * keeps the scenario before it for undo; later keystrokes replace without a new undo step). */
static int edit_try(tui_app *a)
{
    edit_state *e = &a->edit;
    edit_arg arg = {.access = a->access, .delta = e->dim, .text = e->buf};
    char msg[300];
    scenario_history *h = e->changed ? NULL : &a->hist;
    if (!scenario_edit_apply(&a->sc, h, edit_set_index, &arg, msg, sizeof msg)) {
        e->err_pos = e->len;
        const char *colon = strstr(msg, ": ");
        snprintf(e->msg, sizeof e->msg, "%.150s", colon ? colon + 2 : msg);
        /* where in the expression it fails: validate the text once more on a copy for the offset */
        scenario copy;
        if (scenario_clone(&a->sc, &copy)) {
            scenario_access *ac = &copy.accesses[a->access];
            char **slot = e->dim < 0 ? &ac->when_text : &ac->index_text[e->dim];
            free(*slot);
            *slot = xstrdup(e->buf);
            scenario_error err;
            if ((!scenario_finish(&copy, &err) || !load_check_eval(&copy, &err)) && err.expr_pos >= 0)
                e->err_pos = err.expr_pos;
            scenario_free(&copy);
        }
        return REACT_REDRAW;
    }
    e->err_pos = -1;
    e->changed = true;
    a->modified = true;
    return REACT_EDITED | REACT_REDRAW;
}

int edit_keep(tui_app *a, int key)
{
    (void)key;
    if (a->edit.err_pos >= 0) { /* refused: the text and its message stay to be fixed (Esc undoes) */
        beep();
        return REACT_NONE;
    }
    app_pop(a);
    return REACT_REDRAW;
}

int edit_cancel(tui_app *a, int key)
{
    (void)key;
    int r = REACT_REDRAW;
    if (a->edit.changed && scenario_edit_undo(&a->sc, &a->hist)) {
        scenario_free(&a->hist.redo[--a->hist.nredo]); /* the abandoned text is not a redo step */
        r |= REACT_EDITED;
    }
    app_set_message(a, false, "edit undone");
    app_pop(a);
    return r;
}

int edit_next_index(tui_app *a, int key)
{
    (void)key;
    int n = a->sc.accesses[a->access].nidx;
    edit_start(a, a->edit.dim + 1 < n ? a->edit.dim + 1 : -1);
    return REACT_REDRAW;
}

int edit_backspace(tui_app *a, int key)
{
    (void)key;
    if (a->edit.len > 0)
        a->edit.buf[--a->edit.len] = '\0';
    return edit_try(a);
}

static int edit_key(tui_app *a, int key)
{
    int r = actions_dispatch(a, MODE_EDIT, key);
    if (!(r & REACT_UNHANDLED))
        return r;
    edit_state *e = &a->edit;
    if (key >= 32 && key < 127 && e->len + 1 < (int)sizeof e->buf) {
        e->buf[e->len++] = (char)key;
        e->buf[e->len] = '\0';
        return edit_try(a);
    }
    return REACT_NONE;
}

static void edit_draw(tui_app *a)
{
    const layout_rect *r = &a->frame.lay.bar;
    const edit_state *e = &a->edit;
    const scenario_access *ac = &a->sc.accesses[a->access];
    draw_fill(a, r->y, r->x, r->w, ROLE_NORMAL);
    char label[96];
    if (e->dim < 0)
        snprintf(label, sizeof label, " when: ");
    else
        snprintf(label, sizeof label, " %s index %d of %d: ", a->sc.arrays[ac->array].name, e->dim + 1, ac->nidx);
    int x = r->x + draw_text(a, r->y, r->x, r->w, ROLE_KEY, "%s", label);
    for (int i = 0; i <= e->len && x < r->x + r->w; i++, x++) {
        char c = i < e->len ? e->buf[i] : ' ';
        tui_role role = i == e->err_pos ? ROLE_CONFLICT : i == e->len ? ROLE_SELECTED : ROLE_NORMAL;
        draw_text(a, r->y, x, 1, role, "%c", c);
    }
    if (e->err_pos >= 0)
        draw_text(a, r->y, x + 1, r->x + r->w - x - 1, ROLE_ERROR, "%s", e->msg);
    else
        draw_text(a, r->y, x + 1, r->x + r->w - x - 1, ROLE_DIM, "Enter keep  Esc undo  Tab next index");
}

const tui_mode mode_edit = {MODE_EDIT, "index editor", true, NULL, edit_key, edit_draw, NULL, NULL};
