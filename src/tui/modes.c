/* modes: the stack of modes. The top mode receives keys; drawing starts at the topmost view and
 * adds the overlays above it; a resize reaches every mode and closes none. */
#include <curses.h>

#include "tui/app.h"

const tui_mode *mode_of(tui_mode_id id)
{
    static const tui_mode *const all[MODE_COUNT] = {
        [MODE_MAIN] = &mode_main,       [MODE_HELP] = &mode_help,       [MODE_EDIT] = &mode_edit,
        [MODE_PROMPT] = &mode_prompt,   [MODE_ADVISOR] = &mode_advisor, [MODE_STRUCTS] = &mode_structs,
        [MODE_COMPARE] = &mode_compare, [MODE_STEP] = &mode_step,       [MODE_LESSON] = &mode_lesson,
        [MODE_PRESENT] = &mode_present, [MODE_QUIZ] = &mode_quiz,       [MODE_PICKER] = &mode_picker,
        [MODE_KERNEL] = &mode_kernel,   [MODE_SOURCE] = &mode_source,   [MODE_WHATIF] = &mode_whatif};
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

void app_push(tui_app *a, const tui_mode *m)
{
    if (a->depth == (int)(sizeof a->stack / sizeof a->stack[0]))
        return;
    a->stack[a->depth++] = m;
    if (m->enter)
        m->enter(a);
}

void app_pop(tui_app *a)
{
    if (a->depth <= 1)
        return;
    const tui_mode *m = a->stack[--a->depth];
    if (m->leave)
        m->leave(a);
}

void app_pop_all(tui_app *a)
{
    while (a->depth > 1)
        app_pop(a);
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
        draw_text(&a->crt, 0, 0, a->cols, ROLE_ERROR, "terminal too small");
        draw_text(&a->crt, 1, 0, a->cols, ROLE_NORMAL, "bankscope needs %dx%d (now %dx%d)", LAYOUT_MIN_COLS,
                  LAYOUT_MIN_ROWS, a->cols, a->rows);
        draw_text(&a->crt, 2, 0, a->cols, ROLE_DIM, "q quits");
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
    const tui_mode *m = app_top(a);
    int r = m->key ? m->key(a, key) : actions_dispatch(a, m->id, key);
    return r;
}
