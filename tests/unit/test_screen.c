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
    assert_true(on_screen(" default | sm_90 | float tile[32][32] | block 32x32 | warp 0/31 | 32-way"));
    assert_true(on_screen("32-way conflict"));
    /* lane 31's line needs the short form: every line takes it, and the title says so */
    assert_true(on_screen("lanes (addresses, no word)"));
    assert_true(on_screen("lane  1: tile[1][0]  = 128 B -> bank 0"));
    assert_true(on_screen("no GPU: predicted only"));
    key(a, '+');
    assert_true(on_screen("de~ (modified) | float tile[32][32+1] | block 32x32")); /* the name gives way */
    assert_true(on_screen("| conflict-free"));
    assert_true(on_screen("lane  1: tile[1][0]  = 132 B -> bank 1"));
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
    /* narrower than the sentence: the sizes on their own lines, nothing cut without an ellipsis */
    resizeterm(8, 30);
    app_draw(a);
    assert_true(on_screen("needs 72x20"));
    assert_true(on_screen("now 30x8"));
    assert_true(on_screen("q quits"));
    resizeterm(3, 10);
    app_draw(a);
    assert_true(on_screen("terminal~"));
    assert_true(on_screen("72x20"));
    assert_true(on_screen("now 10x3"));
    resizeterm(48, 160);
    app_draw(a);
    assert_true(on_screen("array map: tile"));
    assert_true(on_screen("PREDICTED (sm_90 model)"));
    resizeterm(60, 200);
    app_draw(a);
    assert_true(on_screen("-way conflict") || on_screen("conflict-free"));
    close_app(a);
}

/* A recording in 80 columns: the measured line fits the result panel; in the advisor each row names what tells it from
 * the others (the padding of rows 128+4 B and of 128+12 B), not only the array they share. */
static void test_advisor_names_apart(void **state)
{
    (void)state;
    char path[512];
    tui_app *a = open_app(test_path("data/record/whatif-naive.json", path, sizeof path), 80, 24, false);
    if (on_screen("SOURCE"))
        key(a, '\r'); /* a recording opens on its source view: Enter goes to the grid */
    /* the result panel's one line under MEASURED holds the counted numbers, not only their heading */
    assert_true(on_screen("line 20: 32768/32768 wf"));
    key(a, 'v');
    assert_true(on_screen("advisor on the recording"));
    assert_true(on_screen("static shared memory: now 1056 wavefronts"));
    assert_true(on_screen("  rows 128+4 B "));
    assert_true(on_screen("  rows 128+12 B "));
    assert_true(on_screen("> Swizzle<5,2,5> "));
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
    scenario_change c = {SCENARIO_CHANGE_INDEX, .u.index = {0, 0, "lane / 2"}};
    app_react(a, app_change(a, &c, true));
    c.u.index.dim = 1;
    c.u.index.text = "0";
    app_react(a, app_change(a, &c, true));
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
    /* no lane is selected at first; the selected lane (1) shares a cell with lane 0 at row 0:
     * conflict colour plus reverse */
    assert_int_equal(a->sel_lane, -1);
    key(a, KEY_RIGHT);
    key(a, KEY_RIGHT);
    assert_int_equal(a->sel_lane, 1);
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
        key(a, 'z'); /* presentation: its own grid, the same rule */
        for (int r = 0; r < g->nvis && r < g->rows; r++) {
            app_mouse(a, g->y0 + r, g->x0 + g->cw - 1);
            assert_int_equal(a->sel_lane, g->scroll + r);
        }
        close_app(a);
    }
}

/* Lanes left out are said out loud: float4-32x32 padded by one: 24 lanes misaligned. */
static void test_excluded_lanes(void **state)
{
    (void)state;
    tui_app *a = open_app("float4-32x32", 80, 24, false);
    key(a, '+');
    assert_true(on_screen("24 of 32 lanes"));
    assert_true(on_screen("misaligned: this access"));
    assert_false(on_screen("conflict-free"));
    assert_true(on_screen("misaligned (left out)"));
    close_app(a);
}

/* Step mode scrolls to the wavefront it reveals; compare scrolls both grids, even when the
 * current one is shorter. */
static void test_step_and_compare_scroll(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 80, 24, false);
    key(a, 's');
    for (int i = 0; i < 20; i++)
        key(a, ' ');
    const grid_geom *g = &a->frame.grid;
    assert_true(g->scroll <= 19 && 19 < g->scroll + g->nvis);
    assert_true(on_screen("step 20 of 32 wf"));
    key(a, 27);
    key(a, 'P'); /* pin the 32-way state, then pad: now 1 row, pinned 32 */
    key(a, '+');
    for (int i = 0; i < 40; i++)
        key(a, KEY_UP);
    for (int i = 0; i < 10; i++)
        key(a, KEY_DOWN);
    assert_int_equal(a->frame.grid2.scroll, 10);
    assert_true(on_screen("pinned: float tile[32][32]"));
    assert_true(on_screen("now: float tile[32][32+1]"));
    key(a, 'r'); /* another architecture on the left, the pinned one keeps its own */
    assert_true(on_screen("(sm_89)"));
    assert_true(on_screen("(sm_90)"));
    close_app(a);
}

/* 3-D blocks: b reaches them and the header shows all three extents; iterations count from 0. */
static void test_header(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 100, 30, false);
    for (int i = 0; i < 7; i++)
        key(a, 'b');
    assert_true(on_screen("block 8x8x4"));
    close_app(a);
    a = open_app("reduction-strided", 160, 48, false);
    assert_true(on_screen("(0/"));
    assert_false(on_screen("(1/"));
    close_app(a);
}

/* Every line of the lane table takes one form: the "=" in one column, the word on every line or
 * on none, at every size and for patterns with short and long elements; the title says what the
 * form leaves out. */
static void test_lanes_one_form(void **state)
{
    (void)state;
    const char *pats[] = {"default", "aos-vec3", "struct-mixed", "gemm-bf16-swizzled", "char-32x129", "conv3x3-34x35"};
    const int sizes[][2] = {{80, 24}, {100, 30}, {160, 48}, {220, 60}};
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            tui_app *a = open_app(pats[p], sizes[z][0], sizes[z][1], false);
            const lanes_geom *g = &a->frame.lanes;
            char line[512], title[512];
            int eq = -1, words = 0, lines = 0;
            mvinnstr(g->in.y - 1, g->in.x, title, g->in.w < 511 ? g->in.w : 511);
            for (int y = g->in.y; y < g->in.y + g->in.h; y++) {
                mvinnstr(y, g->in.x, line, g->in.w < 511 ? g->in.w : 511);
                const char *e = strstr(line, " = ");
                if (!strstr(line, "lane") || !e)
                    continue;
                if (eq < 0)
                    eq = (int)(e - line);
                if ((int)(e - line) != eq)
                    fail_msg("%s at %dx%d: '=' out of line: %s", pats[p], sizes[z][0], sizes[z][1], line);
                words += strstr(line, "-> word") != NULL;
                lines++;
            }
            assert_true(lines > 0);
            if (words != 0 && words != lines)
                fail_msg("%s at %dx%d: %d of %d lines say the word", pats[p], sizes[z][0], sizes[z][1], words, lines);
            assert_true((words == 0) == (strstr(title, "no word") != NULL));
            close_app(a);
        }
}

/* The lane table never cuts the bank: cc 1.x with doubles at 100x30. */
static void test_lane_bank_shown(void **state)
{
    (void)state;
    tui_app *a = open_app("legacy-stride4", 100, 30, false);
    key(a, 't');
    const lanes_geom *g = &a->frame.lanes;
    char line[512];
    for (int y = g->in.y; y < g->in.y + g->in.h; y++) {
        mvinnstr(y, g->in.x, line, g->in.w < 511 ? g->in.w : 511);
        if (strstr(line, "lane") && !strstr(line, "no thread") && !strstr(line, "left out"))
            assert_non_null(strstr(line, "bank"));
    }
    close_app(a);
}

/* Narrow cells: every other bank is underlined so neighbouring two-digit lanes stay apart. */
static void test_narrow_cells_apart(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 80, 24, true);
    key(a, 'a'); /* row read: lane n in bank n */
    const grid_geom *g = &a->frame.grid;
    assert_int_equal(g->cw, 2);
    for (int b = 10; b < 14; b++)
        assert_int_equal((cell_attr(g->y0, g->x0 + b * g->cw) & A_UNDERLINE) != 0, b & 1);
    close_app(a);
}

/* Lessons keep the architecture in the header, have a way out, and their text is never lost. */
static void test_lesson(void **state)
{
    (void)state;
    tui_app *a = open_app("lesson-padding", 80, 24, false); /* a lesson opens in the lesson mode */
    assert_true(app_in_mode(a, MODE_LESSON));
    assert_true(on_screen("lesson 1/8"));
    assert_true(on_screen("| sm_90 |"));
    key(a, 'y');
    assert_true(on_screen("why (Esc or q closes)"));
    key(a, 27);
    key(a, 27);
    assert_false(on_screen("lesson 1/8"));
    assert_true(on_screen("left the lesson"));
    close_app(a);
}

/* Predict first: no verdict and no rows until a number is typed. Undo and redo. */
static void test_quiz_and_undo(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 100, 30, false);
    key(a, 'Q');
    assert_false(on_screen("32-way"));
    assert_true(on_screen("hidden until you predict"));
    key(a, '3');
    key(a, '2');
    key(a, '\r');
    assert_true(on_screen("you predicted 32: right"));
    assert_true(on_screen("32-way conflict"));
    key(a, 27);
    key(a, '+');
    key(a, '+');
    key(a, 'u');
    assert_true(on_screen("float tile[32][32+1]"));
    key(a, 'U');
    assert_true(on_screen("float tile[32][32+2]"));
    close_app(a);
}

/* A failed save names the target, never a temporary file. */
static void test_save_error(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 80, 24, false);
    char msg[400];
    assert_false(tui_save(a, "/nonexistent-dir/x.json", false, msg, sizeof msg));
    assert_non_null(strstr(msg, "/nonexistent-dir/x.json"));
    assert_null(strstr(msg, "tmp"));
    close_app(a);
}

/* A block that makes an index divide by zero in every lane is refused as the loader would refuse
 * the file (the old block stays, so the scenario can still be saved); the index editor takes a
 * text only after its lanes are checked in a job, and refuses one that fails. */
static void test_block_checked(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 100, 30, false);
    scenario_change c = {SCENARIO_CHANGE_INDEX, .u.index = {0, 0, "threadIdx.x / (blockDim.y - 8)"}};
    app_react(a, app_change(a, &c, true));
    assert_string_equal(a->sc.accesses[0].index_text[0], "threadIdx.x / (blockDim.y - 8)");
    key(a, 'b'); /* 32x32 -> 32x8: blockDim.y - 8 is 0 */
    assert_int_equal(a->sc.block[1], 32);
    assert_true(a->message_error);
    assert_non_null(strstr(a->message, "division by zero"));
    /* the editor: a text failing for a lane is refused after the check, the scenario unchanged */
    key(a, 'e');
    for (int i = 0; i < 40; i++)
        key(a, KEY_BACKSPACE);
    const char *t = "32/(threadIdx.x-3)";
    for (const char *p = t; *p; p++)
        key(a, *p);
    assert_false(on_screen("checking every lane"));
    assert_true(on_screen("division by zero"));                 /* the editor's message, on its line */
    assert_string_equal(a->sc.accesses[0].index_text[0], "32"); /* the last text that passed */
    for (int i = 0; i < 3; i++)
        key(a, KEY_BACKSPACE);
    key(a, '+');
    key(a, '3');
    key(a, ')');
    assert_true(on_screen("Enter keep")); /* no error: the editor's keys instead */
    assert_string_equal(a->sc.accesses[0].index_text[0], "32/(threadIdx.x+3)");
    key(a, '\r');
    assert_true(app_top(a) == &mode_main);
    close_app(a);
}

/* Each mode owns its state: it exists from the key that opens the mode until the key that closes
 * it, and a mode left open when the view ends is released with it (the sanitizer build checks
 * that nothing leaks). */
static void test_mode_states(void **state)
{
    (void)state;
    tui_app *a = open_app("default", 100, 30, false);
    static const struct {
        int open, close;
        tui_mode_id id;
    } modes[] = {
        {.open = 'e', .close = 27, .id = MODE_EDIT},    {.open = 'S', .close = 27, .id = MODE_PROMPT},
        {.open = 'v', .close = 27, .id = MODE_ADVISOR}, {.open = 'o', .close = 27, .id = MODE_STRUCTS},
        {.open = 'c', .close = 27, .id = MODE_COMPARE}, {.open = 'P', .close = 27, .id = MODE_COMPARE},
        {.open = 's', .close = 27, .id = MODE_STEP},    {.open = 'Q', .close = 27, .id = MODE_QUIZ},
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        assert_null(app_mode_state(a, modes[i].id));
        key(a, modes[i].open);
        assert_non_null(app_mode_state(a, modes[i].id));
        key(a, modes[i].close);
        assert_null(app_mode_state(a, modes[i].id));
        assert_true(app_top(a) == &mode_main);
    }
    /* the views read the states through their accessors: none while the modes are closed */
    assert_int_equal(step_shown(a), -1);
    assert_false(quiz_hidden(a));
    key(a, 's');
    key(a, ' ');
    assert_int_equal(step_shown(a), 1);
    key(a, 'Q'); /* over the step mode: both open */
    assert_true(quiz_hidden(a));
    key(a, 'c');
    key(a, 'v'); /* left open: app_free releases them */
    assert_non_null(app_mode_state(a, MODE_ADVISOR));
    close_app(a);
    /* a lesson is open exactly while its mode is; leaving it frees it */
    a = open_app("lesson-padding", 100, 30, false);
    const lesson_state *ls = app_mode_state(a, MODE_LESSON);
    assert_non_null(ls);
    assert_int_equal(ls->les.nsteps, 8);
    key(a, 'n');
    assert_int_equal(((const lesson_state *)app_mode_state(a, MODE_LESSON))->step, 1);
    key(a, 27);
    assert_null(app_mode_state(a, MODE_LESSON));
    close_app(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_and_padding),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_legacy_16_banks),
        cmocka_unit_test(test_advisor_names_apart),
        cmocka_unit_test(test_modes_survive),
        cmocka_unit_test(test_colour_roles),
        cmocka_unit_test(test_mouse_hits),
        cmocka_unit_test(test_excluded_lanes),
        cmocka_unit_test(test_step_and_compare_scroll),
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_lane_bank_shown),
        cmocka_unit_test(test_lanes_one_form),
        cmocka_unit_test(test_narrow_cells_apart),
        cmocka_unit_test(test_lesson),
        cmocka_unit_test(test_quiz_and_undo),
        cmocka_unit_test(test_save_error),
        cmocka_unit_test(test_block_checked),
        cmocka_unit_test(test_mode_states),
    };
    return cmocka_run_group_tests_name("screen", tests, setup, teardown);
}
