/* mode_picker: a list to choose from: every pattern and lesson of the library (L), or every
 * architecture (A). Arrows move, Enter opens the chosen entry (asking first when there are
 * unsaved edits, as n and p do), Esc or q closes. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "io/library.h"
#include "tui/app.h"

int picker_open(tui_app *a, int key)
{
    picker_state *p = &a->picker;
    p->kind = key == 'A' ? PICK_ARCH : PICK_PATTERN;
    p->scroll = 0;
    if (p->kind == PICK_ARCH) {
        int np;
        const banks_profile *ps = banks_profiles(&np);
        p->n = np;
        p->cursor = (int)(a->sc.arch - ps);
    } else {
        library_patterns(&p->n);
        p->cursor = a->pattern >= 0 ? a->pattern : 0;
    }
    app_push(a, &mode_picker);
    return REACT_REDRAW;
}

int picker_move(tui_app *a, int key)
{
    picker_state *p = &a->picker;
    int d = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 : key == KEY_PPAGE ? -10 : 10;
    int c = p->cursor + d;
    p->cursor = c < 0 ? 0 : c >= p->n ? p->n - 1 : c;
    return REACT_REDRAW;
}

int picker_choose(tui_app *a, int key)
{
    (void)key;
    picker_state *p = &a->picker;
    app_pop(a);
    if (p->kind == PICK_ARCH) {
        scenario_change c = {SCENARIO_CHANGE_ARCH_SET, .u.arch = {0, p->cursor}};
        return app_change(a, &c, false);
    }
    /* the pattern after the one before the chosen: n's path, which asks first when edited */
    while (app_in_mode(a, MODE_LESSON))
        app_pop(a);
    a->pattern = p->cursor - 1;
    return app_open_relative(a, 1, false);
}

static void picker_draw(tui_app *a)
{
    picker_state *p = &a->picker;
    int w = a->cols - 4 < 100 ? a->cols - 4 : 100, h = a->rows - 2;
    layout_rect box = {1, (a->cols - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(&a->crt, y, box.x, box.w, ROLE_NORMAL);
    layout_rect in = panel_frame(&a->crt, &box,
                                 p->kind == PICK_ARCH ? "architecture (Enter chooses, Esc closes)"
                                                      : "pattern library (Enter opens, Esc closes)",
                                 true);
    app_bar_draw(a);
    if (in.h < 1)
        return;
    if (p->cursor < p->scroll)
        p->scroll = p->cursor;
    if (p->cursor >= p->scroll + in.h)
        p->scroll = p->cursor - in.h + 1;
    int np;
    const banks_profile *ps = banks_profiles(&np);
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < in.h && p->scroll + i < p->n; i++) {
        int k = p->scroll + i;
        int marks = k == p->cursor ? MARK_SELECT : 0;
        if (p->kind == PICK_ARCH)
            draw_text_mark(&a->crt, in.y + i, in.x, in.w, ROLE_NORMAL, marks, "%c %-12s %s", k == p->cursor ? '>' : ' ',
                           ps[k].name, ps[k].title);
        else
            draw_text_mark(&a->crt, in.y + i, in.x, in.w, ROLE_NORMAL, marks, "%c %s", k == p->cursor ? '>' : ' ',
                           e[k].name);
    }
}

const tui_mode mode_picker = {MODE_PICKER, "picker", true, NULL, NULL, picker_draw, NULL, NULL};
