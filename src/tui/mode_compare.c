/* mode_compare: two states side by side, each grid labelled with its declaration and
 * architecture. c compares with a variant computed in the background (the best padding, or the
 * struct-of-arrays form of every struct field read); P pins the current state and keeps it
 * while editing goes on (pinned vs now, two architectures included). Arrows scroll both grids. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "tui/app.h"

/* Leave compare mode wherever it is on the stack (the modes above it close too). */
static int compare_close(tui_app *a)
{
    while (app_in_mode(a, MODE_COMPARE))
        app_pop(a);
    return REACT_REDRAW | REACT_RECOMPUTE;
}

int compare_toggle(tui_app *a, int key)
{
    (void)key;
    if (app_in_mode(a, MODE_COMPARE))
        return compare_close(a);
    if (app_push(a, &mode_compare)) /* the state starts unpinned, with no variant yet */
        jobs_start_variant(a);
    return REACT_REDRAW | REACT_RECOMPUTE;
}

int compare_open_file(tui_app *a, const char *path, char *err, size_t n)
{
    io_error e;
    scenario other;
    if (!load_scenario_file(path, NULL, &other, &e)) {
        snprintf(err, n, "%s", e.text);
        return -1;
    }
    if (!app_push(a, &mode_compare)) {
        scenario_free(&other);
        snprintf(err, n, "too many views open");
        return -1;
    }
    compare_state *c = app_mode_state(a, MODE_COMPARE);
    char why[600];
    if (!diff_lines_files(a->source, path, NULL, &c->diff, why, sizeof why))
        memset(&c->diff, 0, sizeof c->diff); /* no lines to match: the grids still compare */
    c->other = other;
    c->ok = c->file = true;
    const char *slash = strrchr(path, '/');
    snprintf(c->label, sizeof c->label, "%s", slash ? slash + 1 : path);
    return 0;
}

/* How much row x's predicted wavefronts change from A to B (a line on one side only: all of it). */
static int64_t diff_change(const diff_row *x)
{
    int64_t d = (x->b.present ? x->b.predicted : 0) - (x->a.present ? x->a.predicted : 0);
    return d < 0 ? -d : d;
}

/* Row x as one line: "file:line  A -> B (measured A -> B)  text". */
static void diff_line(const diff_row *x, char *line, size_t n)
{
    const diff_side *s = x->a.present ? &x->a : &x->b;
    const char *f = s->file && strrchr(s->file, '/') ? strrchr(s->file, '/') + 1 : s->file ? s->file : "?";
    char pa[32] = "-", pb[32] = "-", meas[80] = "";
    if (x->a.present)
        snprintf(pa, sizeof pa, "%lld", (long long)x->a.predicted);
    if (x->b.present)
        snprintf(pb, sizeof pb, "%lld", (long long)x->b.predicted);
    if (x->a.measured_known || x->b.measured_known)
        snprintf(meas, sizeof meas, " (%s%lld -> %s%lld)", x->a.measured_known ? "" : "-", (long long)x->a.measured,
                 x->b.measured_known ? "" : "-", (long long)x->b.measured);
    snprintf(line, n, "%s:%d  %s -> %s%s  %.400s", f, s->line, pa, pb, meas,
             s->text ? s->text + strspn(s->text, " \t") : "");
}

/* The two files' lines side by side where the explanation goes: per line A's and B's predicted
 * (and measured) wavefronts. When they do not all fit, the head line says how many are shown and
 * the lines that change most are the ones kept (in file order); with room for one line only, it
 * names the line that changes most and how many more there are, never a head with nothing under it. */
void compare_diff_draw(tui_app *a, layout_rect r)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    const diff_result *d = &cs->diff;
    if (r.h < 1)
        return;
    for (int y = r.y; y < r.y + r.h; y++)
        draw_fill(&a->crt, y, r.x, r.w, ROLE_NORMAL);
    int room = r.h - 1, shown = d->n < room ? d->n : room;
    bool *keep = xcalloc((size_t)(d->n > 0 ? d->n : 1), sizeof *keep);
    for (int k = 0; k < shown || (shown == 0 && k < 1 && d->n > 0); k++) { /* the largest changes */
        int best = -1;
        for (int i = 0; i < d->n; i++)
            if (!keep[i] && (best < 0 || diff_change(&d->rows[i]) > diff_change(&d->rows[best])))
                best = i;
        keep[best] = true;
    }
    char line[800];
    if (shown == d->n)
        draw_text_cut(&a->crt, r.y, r.x, r.w, ROLE_KEY, 0,
                      "diff by line: predicted A -> B (measured over the launch A -> B)");
    else if (shown > 0) {
        snprintf(line, sizeof line,
                 "diff by line, the %d of %d that change most (bankscope diff lists all): predicted A -> B "
                 "(measured over the launch A -> B)",
                 shown, d->n);
        draw_text_cut(&a->crt, r.y, r.x, r.w, ROLE_KEY, 0, line);
    }
    for (int i = 0, y = r.y + 1; shown == 0 && i < d->n; i++)
        if (keep[i]) { /* one line: the largest change, said with the head */
            char row[700];
            diff_line(&d->rows[i], row, sizeof row);
            snprintf(line, sizeof line, "diff (%d of %d lines; bankscope diff lists all): %s", 1, d->n, row);
            draw_text_cut(&a->crt, y - 1, r.x, r.w, ROLE_KEY, 0, line);
        }
    for (int i = 0, y = r.y + 1; shown > 0 && i < d->n; i++) {
        if (!keep[i])
            continue;
        const diff_row *x = &d->rows[i];
        bool better = x->a.present && x->b.present && x->b.predicted < x->a.predicted;
        bool worse = x->a.present && x->b.present && x->b.predicted > x->a.predicted; /* a regression: red */
        diff_line(x, line, sizeof line);
        draw_text_cut(&a->crt, y++, r.x, r.w, better ? ROLE_OK : worse ? ROLE_ERROR : ROLE_NORMAL, 0, line);
    }
    free(keep);
}

int compare_pin(tui_app *a, int key)
{
    (void)key;
    if (!app_in_mode(a, MODE_COMPARE) && !app_push(a, &mode_compare))
        return REACT_REDRAW;
    compare_state *c = app_mode_state(a, MODE_COMPARE);
    jobs_cancel(a, JOB_VARIANT);
    scenario_free(&c->other);
    c->ok = scenario_clone(&a->sc, &c->other);
    c->pinned = true;
    c->pending = false;
    c->access = a->access;
    c->warp = a->warp;
    c->iteration = a->iteration;
    snprintf(c->label, sizeof c->label, "pinned");
    app_set_message(a, false, "pinned: keep editing, the pinned state stays on the right (P pins again, c closes)");
    return REACT_REDRAW | REACT_RECOMPUTE;
}

static int compare_scroll(tui_app *a, int key)
{
    int d = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 : key == KEY_PPAGE ? -8 : 8;
    a->grid_scroll = a->grid_scroll + d < 0 ? 0 : a->grid_scroll + d; /* one scroll for both grids */
    return REACT_REDRAW;
}

/* The variant still computed is answered to no one (job_take drops it). */
static void compare_leave(tui_app *a)
{
    jobs_cancel(a, JOB_VARIANT);
}

static void compare_release(void *st)
{
    compare_state *c = st;
    scenario_free(&c->other);
    diff_result_free(&c->diff);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action compare_actions[] = {
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE},
     .nshow = 2,
     .help = "scroll both grids",
     .handler = compare_scroll,
     .modes = MODE_BIT(MODE_COMPARE)},
};

const tui_mode mode_compare = {
    .id = MODE_COMPARE,
    .name = "compare view",
    .draw = view_draw,
    .leave = compare_leave,
    .state_size = sizeof(compare_state),
    .release = compare_release,
    .actions = compare_actions,
    .nactions = (int)(sizeof compare_actions / sizeof compare_actions[0]),
};
