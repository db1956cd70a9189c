/* mode_edit: the index expression editor in the bottom line (the one line editor, lineedit.c).
 * Every change of the text is parsed and validated at once on a copy (cheap); a text that passes
 * replaces the scenario on show at once (one undo step for the whole edit), and the loader's own
 * check of every lane (load_check_eval, whose cost grows with the scenario) runs in a background
 * job on a copy, so no keystroke waits for it: the line says "checking every lane..." meanwhile.
 * When the check fails, the view goes back to the last state whose lanes all passed and the text
 * stays in the prompt with the loader's message and position, to be fixed; Enter keeps a text
 * only once it passed (pressed during the check, it closes the editor when the check passes), so
 * nothing typed is lost and nothing the loader would refuse is kept. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

_Static_assert(LINE_MAX_TEXT > EXPR_MAX_LEN, "the editor holds a whole expression");

/* The editor's own state (allocated when it opens, released when it closes). */
typedef struct edit_state {
    int dim; /* index expression edited; -1: 'when' */
    tui_line line;
    char msg[200];
    int err_pos;          /* -1 when the text validates */
    bool changed;         /* a live edit was applied (undo restores the text before) */
    bool parse_error;     /* the text does not parse or validate (err_pos, msg say where, why) */
    bool err_on_line;     /* the error is about the text on the line (not another index's) */
    bool checking;        /* the scenario on show holds texts whose lanes a job is checking */
    bool keep_when_done;  /* Enter came while checking: close when the check passes */
    unsigned long serial; /* of the newest check (older results are dropped) */
    scenario good;        /* owned: the last state whose every lane passed */
    scenario *pending;    /* owned: states that parsed since, oldest first; the newest is on show
                             and checked; when its check fails, the one before is shown and
                             checked, down to good: the view ends on the newest that passes */
    int npending;
} edit_state;

/* The editor's state, while it is open. */
static edit_state *est(const tui_app *a)
{
    return app_mode_state(a, MODE_EDIT);
}

/* Put index dim (-1: 'when') of the current access into the line. */
static void edit_load_line(tui_app *a, int dim)
{
    const scenario_access *ac = &a->sc.accesses[a->access];
    const char *text = dim < 0 ? (ac->when_text ? ac->when_text : "1") : ac->index_text[dim];
    edit_state *e = est(a);
    e->dim = dim;
    line_set(&e->line, text, false);
    e->err_pos = -1;
    e->parse_error = false;
}

int edit_begin_key(tui_app *a, int key)
{
    (void)key;
    if (!scenario_has_layout(&a->sc)) {
        app_set_message(a, true, "a trace has no expressions");
        return REACT_REDRAW;
    }
    scenario good;
    if (!scenario_clone(&a->sc, &good))
        return REACT_REDRAW;
    if (!app_push(a, &mode_edit)) {
        scenario_free(&good);
        return REACT_REDRAW;
    }
    *est(a) = (edit_state){.good = good};
    edit_load_line(a, 0);
    return REACT_REDRAW;
}

/* Show a refusal: the message (after its path when it is about the text on the line) and where
 * in the text it fails. */
static void edit_refused(edit_state *e, const char *msg, int pos, bool strip_path)
{
    const char *colon = strip_path ? strstr(msg, ": ") : NULL;
    snprintf(e->msg, sizeof e->msg, "%.190s", colon ? colon + 2 : msg);
    e->err_pos = pos >= 0 && pos <= e->line.len ? pos : e->line.len;
}

/* Forget the states waiting for a check. */
static void pending_clear(edit_state *e)
{
    for (int i = 0; i < e->npending; i++)
        scenario_free(&e->pending[i]);
    free(e->pending);
    e->pending = NULL;
    e->npending = 0;
}

/* Check the newest waiting state (the one on show) in a job. */
static void check_newest(tui_app *a)
{
    edit_state *e = est(a);
    scenario check;
    e->checking = e->npending > 0 && scenario_clone(&e->pending[e->npending - 1], &check);
    if (e->checking) {
        jobs_start_check(a, &check, ++e->serial);
        scenario_free(&check); /* emptied when the job took it */
    }
}

/* Try the text: parse and validate it on a copy now; when it passes, it is shown at once and
 * its lanes are checked in a job. */
static int edit_try(tui_app *a)
{
    edit_state *e = est(a);
    scenario copy;
    if (!scenario_clone(&a->sc, &copy))
        return REACT_REDRAW;
    scenario_change c = {.kind = SCENARIO_CHANGE_INDEX,
                         .u.index = {.access = a->access, .dim = e->dim, .text = e->line.buf}};
    char msg[300];
    if (!scenario_change_apply(&copy, &c, msg, sizeof msg)) {
        scenario_error err = {.expr_pos = -1}; /* where in the expression it fails */
        edit_refused(e, msg, !scenario_finish(&copy, &err) ? err.expr_pos : -1, true);
        e->parse_error = e->err_on_line = true;
        scenario_free(&copy);
        return REACT_REDRAW; /* a check in flight goes on: it covers the text shown */
    }
    scenario_edit_replace(&a->sc, e->changed ? NULL : &a->hist, &copy);
    e->changed = true;
    e->parse_error = false;
    e->err_pos = -1;
    a->modified = true;
    enum { MAX_PENDING = 64 };
    if (e->npending == MAX_PENDING) { /* the oldest waiting state gives way */
        scenario_free(&e->pending[0]);
        memmove(e->pending, e->pending + 1, sizeof *e->pending * (MAX_PENDING - 1));
        e->npending--;
    }
    e->pending = xrealloc(e->pending, sizeof *e->pending * (size_t)(e->npending + 1));
    if (scenario_clone(&a->sc, &e->pending[e->npending]))
        e->npending++;
    check_newest(a);
    return REACT_EDITED | REACT_REDRAW;
}

int edit_check_done(tui_app *a, unsigned long serial, bool ok, const scenario_error *err)
{
    edit_state *e = est(a);
    if (!e || serial != e->serial || !e->checking || e->npending == 0)
        return REACT_NONE;
    e->checking = false;
    if (ok) { /* the newest state passed: it is the good one now */
        scenario_free(&e->good);
        e->good = e->pending[--e->npending];
        memset(&e->pending[e->npending], 0, sizeof e->pending[e->npending]);
        pending_clear(e);
        if (e->keep_when_done && !e->parse_error)
            app_pop(a);
        return REACT_REDRAW;
    }
    if (!e->parse_error) { /* the text on the line failed: say where and why, once */
        e->keep_when_done = false;
        char msg[300], mine[96];
        if (e->dim < 0)
            snprintf(mine, sizeof mine, "accesses[%d].when", a->access);
        else
            snprintf(mine, sizeof mine, "accesses[%d].index[%d]", a->access, e->dim);
        bool about_line = strcmp(err->path, mine) == 0;
        snprintf(msg, sizeof msg, "%.60s: %.200s", err->path, err->msg);
        edit_refused(e, msg, about_line ? err->expr_pos : -1, about_line);
        e->parse_error = true;
        e->err_on_line = about_line;
    }
    /* show the state before it, and check that one in turn (down to the good one) */
    scenario_free(&e->pending[--e->npending]);
    scenario back;
    if (scenario_clone(e->npending > 0 ? &e->pending[e->npending - 1] : &e->good, &back))
        scenario_edit_replace(&a->sc, NULL, &back);
    check_newest(a);
    return REACT_EDITED | REACT_REDRAW;
}

static int edit_keep(tui_app *a, int key)
{
    (void)key;
    edit_state *e = est(a);
    if (e->parse_error) { /* refused: the text and its message stay to be fixed (Esc undoes) */
        beep();
        return REACT_NONE;
    }
    if (e->checking) { /* the answer is on its way: close when the check passes */
        e->keep_when_done = true;
        return REACT_REDRAW;
    }
    app_pop(a);
    return REACT_REDRAW;
}

static int edit_cancel(tui_app *a, int key)
{
    (void)key;
    edit_state *e = est(a);
    int r = REACT_REDRAW;
    jobs_cancel(a, JOB_CHECK);
    e->checking = false;
    if (e->changed && scenario_edit_undo(&a->sc, &a->hist)) {
        scenario_free(&a->hist.redo[--a->hist.nredo]); /* the abandoned text is not a redo step */
        r |= REACT_EDITED;
    }
    app_set_message(a, false, "edit undone");
    app_pop(a);
    return r;
}

static int edit_next_index(tui_app *a, int key)
{
    (void)key;
    const edit_state *e = est(a);
    if (e->parse_error && e->err_on_line) { /* the line's text is not taken: say so first */
        beep();
        return REACT_NONE;
    }
    int n = a->sc.accesses[a->access].nidx;
    edit_load_line(a, e->dim + 1 < n ? e->dim + 1 : -1);
    return REACT_REDRAW;
}

static int edit_line(tui_app *a, int key)
{
    int r = line_key(&est(a)->line, key);
    if (r == LINE_CHANGED)
        return edit_try(a);
    return r == LINE_MOVED ? REACT_REDRAW : REACT_NONE;
}

static int edit_key(tui_app *a, int key)
{
    int r = actions_dispatch(a, MODE_EDIT, key);
    if (!(r & REACT_UNHANDLED))
        return r;
    return edit_line(a, key);
}

/* A check still running is answered to no one (its serial is dropped with the state). */
static void edit_leave(tui_app *a)
{
    jobs_cancel(a, JOB_CHECK);
}

static void edit_release(void *st)
{
    edit_state *e = st;
    scenario_free(&e->good);
    pending_clear(e);
}

static void edit_draw(tui_app *a)
{
    const layout_rect *r = &a->frame.lay.bar;
    const edit_state *e = est(a);
    const scenario_access *ac = &a->sc.accesses[a->access];
    draw_fill(&a->crt, r->y, r->x, r->w, ROLE_NORMAL);
    char label[96];
    if (e->dim < 0)
        snprintf(label, sizeof label, " when: ");
    else
        snprintf(label, sizeof label, " %s index %d of %d: ", a->sc.arrays[ac->array].name, e->dim + 1, ac->nidx);
    int x0 = r->x + draw_text(&a->crt, r->y, r->x, r->w, ROLE_KEY, "%s", label);
    const char *msg = e->parse_error ? e->msg
                      : e->checking  ? "checking every lane..."
                                     : "Enter keep  Esc undo  Tab next index";
    tui_role mrole = e->parse_error ? ROLE_ERROR : ROLE_DIM;
    /* a long text leaves room for the message (at least half the line is the text's), and the
     * message that still does not fit ends in an ellipsis */
    int end = r->x + r->w, avail = end - x0, need = draw_width(msg) + 1, tw = avail;
    if (e->line.len + 1 + need > avail)
        tw = avail - need > avail / 2 ? avail - need : avail / 2;
    int first = e->line.cur + 1 > tw ? e->line.cur + 1 - tw : 0; /* as draw_line scrolls */
    int x = x0 + draw_line(&a->crt, r->y, x0, tw, ROLE_NORMAL, &e->line, ' ');
    if (e->err_pos >= first && e->err_pos < e->line.len && e->err_pos - first < tw)
        draw_text(&a->crt, r->y, x0 + e->err_pos - first, 1, ROLE_CONFLICT, "%c", e->line.buf[e->err_pos]);
    draw_text_cut(&a->crt, r->y, x + 1, end - x - 1, mrole, 0, msg);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action edit_actions[] = {
    /* the index editor */
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "keep",
     .help = "keep the expression (the last valid one if it has an error)",
     .handler = edit_keep,
     .modes = MODE_BIT(MODE_EDIT)},
    {.keys = {KEY_ESC},
     .nshow = 1,
     .label = "undo",
     .help = "undo the edit",
     .handler = edit_cancel,
     .modes = MODE_BIT(MODE_EDIT)},
    {.keys = {KEY_TAB},
     .nshow = 1,
     .label = "next index",
     .help = "edit the next index expression (then 'when')",
     .handler = edit_next_index,
     .modes = MODE_BIT(MODE_EDIT)},
    {.keys = {KEY_BACKSPACE, KEY_DC, KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_END, CTRL('a'), CTRL('e'), CTRL('u'), CTRL('k'),
              CTRL('w'), 127},
     .nshow = 1,
     .help = "edit the line: arrows, Home/End (Ctrl-A/E) move; Ctrl-U/Ctrl-K erase to the start/end, Ctrl-W a word",
     .handler = edit_line,
     .modes = MODE_BIT(MODE_EDIT)},
};

const tui_mode mode_edit = {
    .id = MODE_EDIT,
    .name = "index editor",
    .overlay = true,
    .key = edit_key,
    .draw = edit_draw,
    .leave = edit_leave,
    .state_size = sizeof(edit_state),
    .release = edit_release,
    .actions = edit_actions,
    .nactions = (int)(sizeof edit_actions / sizeof edit_actions[0]),
};
