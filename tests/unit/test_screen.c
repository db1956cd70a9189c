/* test_screen: the TUI drawn in-process on a curses screen made with newterm (no terminal, no
 * tmux), read back cell by cell: the default demo, a padding key, the help, a compare view, an
 * ASCII-only terminal, a terminal that is too small, modes that survive resizes and unknown keys,
 * colour roles (conflict wins over broadcast; selection marks on top of a role), and a mouse hit
 * answered by the same geometry that drew the grid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>

#include "test_util.h"
#include "tui/app.h"

static SCREEN *scr;
static FILE *out, *in;

static int setup(void **state)
{
    (void)state;
    out = fopen("/dev/null", "w");
    in = fopen("/dev/null", "r");
    scr = newterm("xterm-256color", out, in);
    if (scr) {
        start_color();
        use_default_colors();
    }
    return scr ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    return 0;
}

/* True when text appears on some line of the screen. */
static bool on_screen(const char *text)
{
    char line[512];
    for (int y = 0; y < LINES; y++) {
        mvinnstr(y, 0, line, COLS < 511 ? COLS : 511);
        if (strstr(line, text))
            return true;
    }
    return false;
}

static tui_app *open_app(const char *source, int cols, int rows, bool color)
{
    tui_app *a = calloc(1, sizeof *a);
    a->stack[a->depth++] = &mode_main;
    char err[640];
    resizeterm(rows, cols);
    assert_true(app_open(a, source, err, sizeof err));
    a->crt = (tui_crt){.color = color, .utf8 = false};
    snprintf(a->gpu_status, sizeof a->gpu_status, "no GPU: predicted only");
    jobs_start_totals(a);
    jobs_wait_all(a);
    app_refresh_view(a);
    app_draw(a);
    return a;
}

/* A key as the loop handles it, with every background job finished before the next frame. */
static int key(tui_app *a, int k)
{
    a->message[0] = '\0';
    int r = app_key(a, k);
    app_react(a, r);
    jobs_wait_all(a);
    app_draw(a);
    return r;
}

static void close_app(tui_app *a)
{
    app_free(a);
    free(a);
}

static void test_default_and_padding(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 80, 24, false);
    assert_true(on_screen("bankscope | default | sm_90 | float tile[32][32]"));
    assert_true(on_screen("32-way conflict"));
    assert_true(on_screen("lane  1: tile[1][0] = 128 B -> word 32 -> bank 0"));
    assert_true(on_screen("no GPU: predicted only"));
    key(a, '+');
    assert_true(on_screen("float tile[32][32+1]"));
    assert_true(on_screen("default (modified)"));
    assert_true(on_screen("conflict-free"));
    assert_true(on_screen("lane  1: tile[1][0] = 132 B -> word 33 -> bank 1"));
    key(a, '?');
    assert_true(on_screen("keys of the main view"));
    key(a, 27);
    key(a, 'c');
    assert_true(on_screen("no padding: float tile[32][32]"));
    assert_true(on_screen("COMPARE"));
    key(a, 'u'); /* undo in compare: back to 32 */
    assert_true(on_screen("float tile[32][32]"));
    close_app(a);
}

static void test_sizes(void **state)
{
    (void)state;
    tui_app *a = open_app("transpose-naive", 40, 10, false);
    assert_true(on_screen("terminal too small"));
    resizeterm(48, 160);
    app_draw(a);
    assert_true(on_screen("array map: tile"));
    assert_true(on_screen("PREDICTED (sm_90 model)"));
    resizeterm(60, 200);
    app_draw(a);
    assert_true(on_screen("-way conflict") || on_screen("conflict-free"));
    close_app(a);
}

static void test_legacy_16_banks(void **state)
{
    (void)state;
    tui_app *a = open_app("legacy-stride4", 100, 30, false);
    assert_true(on_screen("sm_13"));
    assert_true(on_screen("4-way"));
    close_app(a);
}

/* Resizes never close a view; q or Esc closes help instead of quitting; unknown keys and arrows
 * stay inside the advisor. */
static void test_modes_survive(void **state)
{
    (void)state;
    tui_app *a = open_app("transpose-naive", 100, 34, false);
    key(a, '?');
    assert_true(on_screen("keys of the main view"));
    resizeterm(30, 90);
    key(a, KEY_RESIZE);
    assert_true(on_screen("keys of the main view"));
    assert_false(key(a, 'q') & REACT_QUIT);
    assert_false(on_screen("keys of the main view"));
    key(a, 'x');
    key(a, 'v');
    assert_true(on_screen("smallest conflict-free padding: 1"));
    key(a, KEY_DOWN);
    key(a, '%');
    key(a, KEY_RESIZE);
    assert_true(on_screen("smallest conflict-free padding: 1"));
    key(a, KEY_UP);
    key(a, KEY_UP); /* the chosen row: padding 0 -> Enter applies it, not the best */
    key(a, KEY_DOWN);
    key(a, KEY_DOWN);
    key(a, '\r');
    assert_true(on_screen("float tile[32][32+2]"));
    /* q at the top level with edits asks first */
    key(a, 'q');
    assert_true(on_screen("quit without saving? (y/n"));
    key(a, 'n');
    assert_false(on_screen("quit without saving?"));
    assert_true(key(a, 'q') == REACT_REDRAW);
    assert_true(key(a, 'y') & REACT_QUIT);
    close_app(a);
}

/* The attribute of the first grid cell showing text at row y (from x0). */
static attr_t cell_attr(int y, int x)
{
    return (attr_t)(mvinch(y, x) & A_ATTRIBUTES);
}

static short cell_pair(int y, int x)
{
    return (short)PAIR_NUMBER(mvinch(y, x) & A_COLOR);
}

/* (lane/2)*32: a 16-way conflict whose cells also share words; conflict must win. The selected
 * lane keeps its conflict colour and is marked with reverse video. */
static void test_colour_roles(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 160, 48, true);
    edit_arg e = {.access = 0, .delta = 0, .text = "lane / 2"};
    app_react(a, app_edit(a, edit_set_index, &e, NULL));
    e.delta = 1;
    e.text = "0";
    app_react(a, app_edit(a, edit_set_index, &e, NULL));
    jobs_wait_all(a);
    app_draw(a);
    assert_int_equal(a->view.res.conflict_degree, 16);
    assert_true(a->view.res.broadcast_lanes > 0);
    const grid_geom *g = &a->frame.grid;
    int conflict = 0, broadcast = 0;
    for (int r = 0; r < g->nvis && r < g->rows; r++)
        for (int b = 0; b < g->banks; b++) {
            uint32_t lanes = a->view.cells[(g->scroll + r) * g->banks + b].lanes;
            if (!lanes)
                continue;
            short p = cell_pair(g->y0 + r, g->x0 + b * g->cw + g->cw - 1);
            conflict += p == ROLE_CONFLICT;
            broadcast += p == ROLE_BROADCAST;
        }
    assert_true(conflict > 0);
    assert_int_equal(broadcast, 0);
    /* the selected lane (1) shares a cell with lane 0 at row 0: conflict colour plus reverse */
    int row = 0, bank = 0;
    bool found = false;
    for (int r = 0; r < g->rows && !found; r++)
        for (int b = 0; b < g->banks && !found; b++)
            if ((a->view.cells[r * g->banks + b].lanes >> a->sel_lane) & 1)
                row = r, bank = b, found = true;
    assert_true(found);
    int y = g->y0 + row - g->scroll, x = g->x0 + bank * g->cw + g->cw - 1;
    assert_int_equal(cell_pair(y, x), ROLE_CONFLICT);
    assert_true(cell_attr(y, x) & A_REVERSE);
    close_app(a);
}

/* A click is answered by the geometry that drew the grid: every visible cell selects its lane. */
static void test_mouse_hits(void **state)
{
    (void)state;
    int sizes[][2] = {{80, 24}, {100, 30}, {160, 48}};
    for (int s = 0; s < 3; s++) {
        tui_app *a = open_app("default", sizes[s][0], sizes[s][1], false);
        const grid_geom *g = &a->frame.grid;
        for (int r = 0; r < g->nvis && r < g->rows; r++) {
            app_mouse(a, g->y0 + r, g->x0); /* bank 0 holds lane r at row r */
            assert_int_equal(a->sel_lane, g->scroll + r);
        }
        close_app(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_and_padding), cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_legacy_16_banks),     cmocka_unit_test(test_modes_survive),
        cmocka_unit_test(test_colour_roles),        cmocka_unit_test(test_mouse_hits),
    };
    return cmocka_run_group_tests_name("screen", tests, setup, teardown);
}
