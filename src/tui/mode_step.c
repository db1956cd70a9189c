/* mode_step: replay one warp-instruction wavefront by wavefront for class. Space reveals the
 * next wavefront, Enter plays and pauses; the grid scrolls to the row just revealed, which is
 * highlighted with its lanes in the lane table and the array map, and the caption narrates it. */
#include <stdio.h>

#include "tui/app.h"

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

/* The caption of the wavefront just revealed: which lanes it serves, and why it is a row. */
static void step_narrate(tui_app *a)
{
    const banks_result *r = &a->view.res;
    int k = a->step.shown - 1;
    if (k < 0) {
        app_set_message(a, false, "step: Space reveals wavefront 0 of %d", r->wavefronts);
        return;
    }
    int n = 0;
    char lanes[160] = "";
    size_t o = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        if (r->lane[l].phase >= 0 && r->lane[l].wavefront == k && a->view.in.lane[l].state == SCENARIO_LANE_OK) {
            n++;
            int w = snprintf(lanes + o, sizeof lanes - o, " %d", l);
            if (w > 0 && (size_t)w < sizeof lanes - o)
                o += (size_t)w;
        }
    int phase = 0;
    for (int p = 0; p < r->nphases; p++)
        if (k >= r->phase[p].first_row && k < r->phase[p].first_row + r->phase[p].wavefronts)
            phase = p;
    app_set_message(a, false, "wavefront %d of 0-%d (phase %d) serves %d lane%s:%s", k, r->wavefronts - 1, phase, n,
                    n == 1 ? "" : "s", lanes);
}

int step_next(tui_app *a, int key)
{
    (void)key;
    if (a->step.shown < a->view.res.wavefronts)
        a->step.shown++;
    step_narrate(a);
    return REACT_REDRAW;
}

int step_play(tui_app *a, int key)
{
    (void)key;
    a->step.playing = !a->step.playing;
    a->step.last_ms = app_now_ms();
    return REACT_REDRAW;
}

static void step_enter(tui_app *a)
{
    a->step.shown = 0;
    a->step.playing = false;
    step_narrate(a);
}

static void step_leave(tui_app *a)
{
    a->step.playing = false;
    a->step.shown = 0;
}

const tui_mode mode_step = {MODE_STEP, "step mode", false, step_enter, NULL, view_draw, NULL, step_leave};
