/* test_read_once: a recording is read once. Every reader of a document opens it through
 * load_fopen, which counts (load_opens): `analyze --summary` of a recording opens it once (its
 * members, its trace, the report and the per-line table from one stream), `analyze` and
 * `analyze --json` twice (the checking pass every trace gets, which reads the recording and
 * predicts its lines, and the report's pass), `diff` once per file, `sweep` (a recording's what-if) once; the TUI
 * opening a recording and visiting its source view, its result panel's measured numbers and its what-if list once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <fcntl.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_whatif.h"
#include "io/load.h"
#include "test_util.h"
#include "tui/app.h"

/* Opens of documents while a command runs with argv (its output to /dev/null); its exit status
 * into *rc. */
static long opens_of(int (*cmd)(int, char **), int argc, char **argv, int *rc)
{
    fflush(stdout);
    int keep = dup(1), null = open("/dev/null", O_WRONLY);
    assert_true(keep >= 0 && null >= 0);
    dup2(null, 1);
    close(null);
    long before = load_opens();
    *rc = cmd(argc, argv);
    long n = load_opens() - before;
    fflush(stdout);
    dup2(keep, 1);
    close(keep);
    return n;
}

static void test_analyze_once(void **state)
{
    (void)state;
    char path[512], other[512];
    test_path("data/measured/rec/h100-naive.record.json", path, sizeof path);
    int rc;
    char *summary[] = {path, "--summary"}; /* the words after the command */
    assert_int_equal(opens_of(cli_analyze, 2, summary, &rc), 1);
    assert_int_equal(rc, 0);
    char *sass[] = {path, "--summary", "--sass"};
    assert_int_equal(opens_of(cli_analyze, 3, sass, &rc), 1);
    assert_int_equal(rc, 0);
    char *text[] = {path};
    assert_int_equal(opens_of(cli_analyze, 1, text, &rc), 2);
    assert_int_equal(rc, 0);
    char *json[] = {path, "--json"};
    assert_int_equal(opens_of(cli_analyze, 2, json, &rc), 2);
    assert_int_equal(rc, 0);
    test_path("data/record/twice-1.json", other, sizeof other);
    test_path("data/record/twice-0.json", path, sizeof path);
    char *diff[] = {path, other};
    assert_int_equal(opens_of(cli_diff, 2, diff, &rc), 2);
    assert_int_equal(rc, 0);
    test_path("data/record/whatif-naive.json", path, sizeof path);
    char *sweep[] = {path};
    assert_int_equal(opens_of(cli_sweep, 1, sweep, &rc), 1);
    assert_int_equal(rc, 0);
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

/* A key as the loop handles it, every background job finished before the next frame. */
static void key(tui_app *a, int k)
{
    app_react(a, app_key(a, k));
    jobs_wait_all(a);
    app_draw(a);
}

static void test_tui_once(void **state)
{
    (void)state;
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    assert_non_null(scr);
    resizeterm(30, 100);
    char path[512], err[640];
    test_path("data/record/whatif-naive.json", path, sizeof path);
    long before = load_opens();
    tui_app *a = calloc(1, sizeof *a);
    a->stack[a->depth++] = &mode_main;
    assert_true(app_open(a, path, err, sizeof err));
    snprintf(a->gpu_status, sizeof a->gpu_status, "no GPU: predicted only");
    jobs_start_totals(a);
    jobs_wait_all(a);
    app_refresh_view(a);
    app_draw(a);
    assert_true(on_screen("line 20: 32768/32768 wf")); /* the result panel's measured numbers */
    key(a, 'V');
    assert_true(on_screen("SOURCE")); /* the source view, with the recording's lines */
    key(a, '\r');
    key(a, 'v');
    assert_true(on_screen("advisor on the recording")); /* the what-if list, from its arrays */
    assert_int_equal(load_opens() - before, 1);
    app_free(a);
    free(a);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_analyze_once), cmocka_unit_test(test_tui_once)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
