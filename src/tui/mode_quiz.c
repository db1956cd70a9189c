/* mode_quiz: "predict first" for class: the verdict and the grid's cells stay hidden until a
 * conflict degree is typed and Enter pressed; every edit hides them again for the next guess.
 * Every view key still works; Esc or q ends the quiz. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui/app.h"

bool quiz_hidden(const tui_app *a)
{
    const quiz_state *q = app_mode_state(a, MODE_QUIZ);
    return q && !q->answered;
}

void quiz_restart(tui_app *a)
{
    quiz_state *q = app_mode_state(a, MODE_QUIZ);
    if (q)
        q->answered = false;
}

int quiz_toggle(tui_app *a, int key)
{
    (void)key;
    if (app_in_mode(a, MODE_QUIZ)) {
        while (app_in_mode(a, MODE_QUIZ))
            app_pop(a);
        return REACT_REDRAW;
    }
    app_push(a, &mode_quiz);
    return REACT_REDRAW;
}

static int quiz_digit(tui_app *a, int key)
{
    quiz_state *q = app_mode_state(a, MODE_QUIZ);
    if (key == KEY_BACKSPACE || key == 127) {
        if (q->len > 0)
            q->buf[--q->len] = '\0';
    } else if (q->len + 1 < (int)sizeof q->buf && q->len < 3) {
        q->buf[q->len++] = (char)key;
        q->buf[q->len] = '\0';
        q->answered = false;
    }
    return REACT_REDRAW;
}

static int quiz_enter(tui_app *a, int key)
{
    (void)key;
    quiz_state *q = app_mode_state(a, MODE_QUIZ);
    if (q->len == 0) {
        app_set_message(a, false, "type a number first: how many ways does the worst bank conflict?");
        return REACT_REDRAW;
    }
    q->guess = atoi(q->buf);
    q->answered = true;
    q->len = 0;
    q->buf[0] = '\0';
    return REACT_REDRAW;
}

/* The state starts zeroed: nothing typed, no answer yet. */
static void quiz_enter_mode(tui_app *a)
{
    app_set_message(a, false, "predict first: type the conflict degree you expect, then Enter");
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action quiz_actions[] = {
    /* the quiz */
    {.keys = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', KEY_BACKSPACE},
     .nshow = -1,
     .help = "type your predicted conflict degree (Backspace deletes)",
     .handler = quiz_digit,
     .modes = MODE_BIT(MODE_QUIZ)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "reveal",
     .help = "reveal the verdict after your prediction",
     .handler = quiz_enter,
     .modes = MODE_BIT(MODE_QUIZ)},
};

const tui_mode mode_quiz = {
    .id = MODE_QUIZ,
    .name = "quiz",
    .enter = quiz_enter_mode,
    .draw = view_draw,
    .state_size = sizeof(quiz_state),
    .actions = quiz_actions,
    .nactions = (int)(sizeof quiz_actions / sizeof quiz_actions[0]),
};
