/* mode_compare: two states side by side, each grid labelled with its declaration and
 * architecture. c compares with a variant computed in the background (the best padding, or the
 * struct-of-arrays form of every struct field read); P pins the current state and keeps it
 * while editing goes on (pinned vs now, two architectures included). Arrows scroll both grids. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

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
    a->cmp.pinned = false;
    app_push(a, &mode_compare);
    jobs_start_variant(a);
    return REACT_REDRAW | REACT_RECOMPUTE;
}

int compare_pin(tui_app *a, int key)
{
    (void)key;
    compare_state *c = &a->cmp;
    jobs_cancel(a, JOB_VARIANT);
    scenario_free(&c->other);
    c->ok = scenario_clone(&a->sc, &c->other);
    c->pinned = true;
    c->pending = false;
    c->access = a->access;
    c->warp = a->warp;
    c->iteration = a->iteration;
    snprintf(c->label, sizeof c->label, "pinned");
    if (!app_in_mode(a, MODE_COMPARE))
        app_push(a, &mode_compare);
    app_set_message(a, false, "pinned: keep editing, the pinned state stays on the right (P pins again, c closes)");
    return REACT_REDRAW | REACT_RECOMPUTE;
}

int compare_scroll(tui_app *a, int key)
{
    int d = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 : key == KEY_PPAGE ? -8 : 8;
    a->grid_scroll = a->grid_scroll + d < 0 ? 0 : a->grid_scroll + d; /* one scroll for both grids */
    return REACT_REDRAW;
}

static void compare_leave(tui_app *a)
{
    jobs_cancel(a, JOB_VARIANT);
    scenario_free(&a->cmp.other);
    a->cmp.ok = a->cmp.pending = a->cmp.pinned = false;
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action compare_actions[] = {
    {{KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE},
     2,
     NULL,
     "scroll both grids",
     compare_scroll,
     MODE_BIT(MODE_COMPARE),
     NULL},
};

const tui_mode mode_compare = {MODE_COMPARE,
                               "compare view",
                               false,
                               NULL,
                               NULL,
                               view_draw,
                               NULL,
                               compare_leave,
                               compare_actions,
                               (int)(sizeof compare_actions / sizeof compare_actions[0])};
