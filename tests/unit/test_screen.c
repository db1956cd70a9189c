/* test_screen: the TUI drawn in-process on a curses screen made with newterm (no terminal, no
 * tmux), read back cell by cell: the default demo, a padding key, the help, a compare view,
 * an ASCII-only terminal and a terminal that is too small. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>

#include "test_util.h"
#include "tui/tui.h"

static SCREEN *scr;
static FILE *out, *in;

static int setup(void **state)
{
    (void)state;
    out = fopen("/dev/null", "w");
    in = fopen("/dev/null", "r");
    scr = newterm("xterm-256color", out, in);
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

static void open_app(tui_app *a, const char *source, int cols, int rows)
{
    memset(a, 0, sizeof *a);
    char err[640];
    resizeterm(rows, cols);
    assert_true(app_open(a, source, err, sizeof err));
    a->crt = (tui_crt){.color = false, .utf8 = false};
    snprintf(a->gpu_status, sizeof a->gpu_status, "no GPU: predicted only");
    app_refresh_view(a);
    app_draw(a);
}

static void test_default_and_padding(void **state)
{
    (void)state;
    tui_app a;
    open_app(&a, "default", 80, 24);
    assert_true(on_screen("bankscope | default | sm_90 | float tile[32][32]"));
    assert_true(on_screen("32-way conflict"));
    assert_true(on_screen("lane  1: tile[1][0] = 128 B -> word 32 -> bank 0"));
    assert_true(on_screen("no GPU: predicted only"));
    app_key(&a, '+');
    app_draw(&a);
    assert_true(on_screen("float tile[32][32+1]"));
    assert_true(on_screen("conflict-free"));
    assert_true(on_screen("lane  1: tile[1][0] = 132 B -> word 33 -> bank 1"));
    app_key(&a, '?');
    app_draw(&a);
    assert_true(on_screen("this help (Esc closes)"));
    app_key(&a, 27);
    app_key(&a, 'c');
    app_draw(&a);
    assert_true(on_screen("variant: no padding"));
    app_free(&a);
}

static void test_sizes(void **state)
{
    (void)state;
    tui_app a;
    open_app(&a, "transpose-naive", 40, 10);
    assert_true(on_screen("terminal too small"));
    resizeterm(48, 160);
    app_draw(&a);
    assert_true(on_screen("array map: tile"));
    assert_true(on_screen("PREDICTED (sm_90 model)"));
    resizeterm(60, 200);
    app_draw(&a);
    assert_true(on_screen("-way conflict") || on_screen("conflict-free"));
    app_free(&a);
}

static void test_legacy_16_banks(void **state)
{
    (void)state;
    tui_app a;
    open_app(&a, "legacy-stride4", 100, 30);
    assert_true(on_screen("sm_13"));
    assert_true(on_screen("4-way"));
    app_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_and_padding),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_legacy_16_banks),
    };
    return cmocka_run_group_tests_name("screen", tests, setup, teardown);
}
