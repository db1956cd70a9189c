/* mode_step: replay one warp-instruction wavefront by wavefront for class. Space reveals the
 * next wavefront, Enter plays and pauses; the grid scrolls to the row just revealed, which is
 * highlighted with its lanes in the lane table and the array map, and the caption narrates it. */
#include <curses.h>
#include <stdio.h>

#include "model/explain.h"

#include "tui/app.h"

int step_shown(const tui_app *a)
{
    const step_state *st = app_mode_state(a, MODE_STEP);
    return st ? st->shown : -1;
}

void step_restart(tui_app *a)
{
    step_state *st = app_mode_state(a, MODE_STEP);
    if (st)
        st->shown = 0;
}

void step_clamp(tui_app *a, int wavefronts)
{
    step_state *st = app_mode_state(a, MODE_STEP);
    if (st && st->shown > wavefronts)
        st->shown = wavefronts;
}

int step_toggle(tui_app *a, int key)
{
    (void)key;
    if (app_in_mode(a, MODE_STEP)) {
        while (app_in_mode(a, MODE_STEP))
            app_pop(a);
        return REACT_REDRAW;
    }
    app_push(a, &mode_step);
    return REACT_REDRAW;
}

/* The caption of the wavefront just revealed: the model's narration (explain_wavefront): which
 * bank serves which word to which lanes; the why panel shows it whole, with who still waits. */
static void step_narrate(tui_app *a)
{
    const banks_result *r = &a->view.res;
    int k = step_shown(a) - 1;
    if (k < 0) {
        /* ids from 0, as CUDA's; counts as "k of n" */
        app_set_message(a, false, "step: Space reveals wavefront 0, the first of %d", r->wavefronts);
        return;
    }
    if (k >= r->wavefronts) { /* compare: this grid is done, the other still steps */
        app_set_message(a, false, "wavefront %d: the left grid is done (%d wavefront%s); the right one goes on", k,
                        r->wavefronts, r->wavefronts == 1 ? "" : "s");
        return;
    }
    explain_lines e; /* the bottom line has its first line; the why panel all of it */
    explain_wavefront(&a->sc, &a->view.in, r, k, &e);
    app_set_message(a, false, "%s", e.n > 0 ? e.line[0] : "");
    explain_lines_free(&e);
}

static int step_next(tui_app *a, int key)
{
    (void)key;
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    int rows = a->view.res.wavefronts; /* beside a compare grid: until both are done */
    if (cs && cs->ok && cs->view.valid && cs->view.res.wavefronts > rows)
        rows = cs->view.res.wavefronts;
    step_state *st = app_mode_state(a, MODE_STEP);
    if (st->shown < rows)
        st->shown++;
    step_narrate(a);
    return REACT_REDRAW;
}

static int step_play(tui_app *a, int key)
{
    (void)key;
    step_state *st = app_mode_state(a, MODE_STEP);
    st->playing = !st->playing;
    st->last_ms = app_now_ms();
    return REACT_REDRAW;
}

/* The state starts zeroed (nothing revealed, not playing): the first wavefront is announced. */
static void step_enter(tui_app *a)
{
    step_narrate(a);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action step_actions[] = {
    {.keys = {' '},
     .nshow = 1,
     .label = "next wf",
     .help = "reveal the next wavefront",
     .handler = step_next,
     .modes = MODE_BIT(MODE_STEP)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "play",
     .help = "play / pause the replay",
     .handler = step_play,
     .modes = MODE_BIT(MODE_STEP)},
};

const tui_mode mode_step = {
    .id = MODE_STEP,
    .name = "step mode",
    .enter = step_enter,
    .draw = view_draw,
    .state_size = sizeof(step_state),
    .actions = step_actions,
    .nactions = (int)(sizeof step_actions / sizeof step_actions[0]),
};
