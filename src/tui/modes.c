/* modes: the stack of modes. The top mode receives keys; drawing starts at the topmost view and
 * adds the overlays above it; a resize reaches every mode and closes none. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

const tui_mode *mode_of(tui_mode_id id)
{
    static const tui_mode *const all[MODE_COUNT] = {
        [MODE_MAIN] = &mode_main,       [MODE_HELP] = &mode_help,       [MODE_EDIT] = &mode_edit,
        [MODE_PROMPT] = &mode_prompt,   [MODE_ADVISOR] = &mode_advisor, [MODE_STRUCTS] = &mode_structs,
        [MODE_COMPARE] = &mode_compare, [MODE_STEP] = &mode_step,       [MODE_LESSON] = &mode_lesson,
        [MODE_PRESENT] = &mode_present, [MODE_QUIZ] = &mode_quiz,       [MODE_PICKER] = &mode_picker,
        [MODE_KERNEL] = &mode_kernel,   [MODE_SOURCE] = &mode_source,   [MODE_WHATIF] = &mode_whatif,
        [MODE_SASS] = &mode_sass};
    return id >= 0 && id < MODE_COUNT && all[id] ? all[id] : &mode_main;
}

const tui_mode *app_top(const tui_app *a)
{
    return a->depth > 0 ? a->stack[a->depth - 1] : &mode_main;
}

bool app_in_mode(const tui_app *a, tui_mode_id id)
{
    for (int i = 0; i < a->depth; i++)
        if (a->stack[i]->id == id)
            return true;
    return false;
}

void *app_mode_state(const tui_app *a, tui_mode_id id)
{
    for (int i = a->depth - 1; i >= 0; i--)
        if (a->stack[i]->id == id)
            return a->stack_state[i];
    return NULL;
}

/* A mode's state is allocated before its enter runs, so enter and every later hook find it. */
bool app_push(tui_app *a, const tui_mode *m)
{
    if (a->depth == (int)(sizeof a->stack / sizeof a->stack[0]))
        return false;
    a->stack_state[a->depth] = m->state_size > 0 ? xcalloc(1, m->state_size) : NULL;
    a->stack[a->depth++] = m;
    if (m->enter)
        m->enter(a);
    return true;
}

/* leave runs while the state is still found (it may read it); the state is freed after it. */
static void pop_one(tui_app *a, bool leave)
{
    const tui_mode *m = a->stack[a->depth - 1];
    if (leave && m->leave)
        m->leave(a);
    void *st = a->stack_state[--a->depth];
    a->stack_state[a->depth] = NULL;
    if (st && m->release)
        m->release(st);
    free(st);
}

void app_pop(tui_app *a)
{
    if (a->depth <= 1)
        return;
    pop_one(a, true);
}

/* At the app's end the terminal may be gone: the modes' states are released, their leave (which
 * may talk to the terminal) is not run. */
void app_modes_free(tui_app *a)
{
    while (a->depth > 0)
        pop_one(a, false);
}

/* The terminal is big enough for one grid but not for two side by side: Esc closes the compare. */
static bool compare_too_wide(const tui_app *a)
{
    return a->frame.lay.need_cols > LAYOUT_MIN_COLS && a->cols >= LAYOUT_MIN_COLS && a->rows >= LAYOUT_MIN_ROWS &&
           app_in_mode(a, MODE_COMPARE);
}

/* The screen below the minimum size: the sizes on their own lines when the sentence does not fit
 * (a very narrow terminal still reads both numbers), every line cut with an ellipsis. */
static void draw_too_small(const tui_app *a)
{
    char min[32], need[48], now[48], both[160];
    snprintf(min, sizeof min, "%dx%d", a->frame.lay.need_cols, a->frame.lay.need_rows);
    snprintf(need, sizeof need, "needs %s", min);
    snprintf(now, sizeof now, "now %dx%d", a->cols, a->rows);
    snprintf(both, sizeof both, "bankscope %s (%s)", need, now);
    int y = 0;
    draw_text_cut(&a->crt, y++, 0, a->cols, ROLE_ERROR, 0, "terminal too small");
    if ((int)strlen(both) <= a->cols) {
        draw_text_cut(&a->crt, y++, 0, a->cols, ROLE_NORMAL, 0, both);
    } else {
        draw_text_cut(&a->crt, y++, 0, a->cols, ROLE_NORMAL, 0, (int)strlen(need) <= a->cols ? need : min);
        draw_text_cut(&a->crt, y++, 0, a->cols, ROLE_NORMAL, 0, now);
    }
    bool asking = prompt_asks_quit(a);
    if (!asking && compare_too_wide(a))
        draw_text_cut(&a->crt, y++, 0, a->cols, ROLE_DIM, 0, "Esc closes the compare");
    draw_text_cut(&a->crt, y, 0, a->cols, asking ? ROLE_KEY : ROLE_DIM, 0,
                  asking ? "quit without saving? (y/n)" : "q quits");
}

/* Below the minimum size the screen shows none of the view: a key that changed it would change
 * it unseen. Only q acts (it quits, or asks first when there are edits, the question drawn on the
 * small screen), y, n or Esc answer that question, and Ctrl-L redraws; the rest wait for a size
 * that shows what they do. False when the key goes on to the view as usual. */
static bool too_small_key(tui_app *a, int key, int *react)
{
    if (!a->frame.lay.too_small || key == KEY_RESIZE)
        return false;
    /* the terminal may already be large again, its KEY_RESIZE not read yet (a key typed right
     * after the resize): the key acts, as it will on the screen drawn next */
    int rows, cols;
    if (crt_terminal_size(&rows, &cols) && cols >= a->frame.lay.need_cols && rows >= a->frame.lay.need_rows)
        return false;
    bool asking = prompt_asks_quit(a);
    *react = REACT_REDRAW;
    if (asking)
        return !(key == 'y' || key == 'Y' || key == 'n' || key == 'N' || key == KEY_ESC);
    if (key == CTRL('l') || (key == KEY_ESC && compare_too_wide(a)))
        return false;
    if (key == 'q') {
        if (!a->modified) {
            *react = REACT_QUIT;
            return true;
        }
        prompt_open(a, PROMPT_QUIT, NULL, 0);
    }
    return true;
}

void app_draw(tui_app *a)
{
    erase();
    getmaxyx(stdscr, a->rows, a->cols);
    int view = 0;
    for (int i = 0; i < a->depth; i++)
        if (!a->stack[i]->overlay)
            view = i;
    frame_compute(a);
    if (a->frame.lay.too_small) {
        draw_too_small(a);
        refresh();
        return;
    }
    for (int i = view; i < a->depth; i++)
        if (a->stack[i]->draw)
            a->stack[i]->draw(a);
    refresh();
}

int app_key(tui_app *a, int key)
{
    if (key == KEY_RESIZE) {
        for (int i = 0; i < a->depth; i++)
            if (a->stack[i]->resize)
                a->stack[i]->resize(a);
        clear();
        return REACT_REDRAW;
    }
    int small = 0;
    if (too_small_key(a, key, &small))
        return small;
    const tui_mode *m = app_top(a);
    int r = m->key ? m->key(a, key) : actions_dispatch(a, m->id, key);
    return r;
}
