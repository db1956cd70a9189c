/* safe_open: a name taken from a file is resolved only inside the folders given, never under
 * /proc, /dev or /sys, never through ".." or a symbolic link out, only to a regular file named
 * like a source; reads never wait and never pass their cap, whatever st_size says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/safe_open.h"

static char dir[] = "/tmp/bankscope-safe-open.XXXXXX";
static char sub[128], outside[128];

/* Write text to path. */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    char p[256];
    snprintf(sub, sizeof sub, "%s/rec", dir);
    snprintf(outside, sizeof outside, "%s/secret.cu", dir);
    mkdir(sub, 0700);
    put(outside, "secret\n");
    snprintf(p, sizeof p, "%s/k.cu", sub);
    put(p, "int k;\n");
    snprintf(p, sizeof p, "%s/notes", sub);
    put(p, "not a source\n");
    snprintf(p, sizeof p, "%s/link.cu", sub);
    if (symlink("../secret.cu", p) != 0)
        return -1;
    snprintf(p, sizeof p, "%s/pipe.cu", sub);
    if (mkfifo(p, 0600) != 0)
        return -1;
    snprintf(p, sizeof p, "%s/inner", sub);
    mkdir(p, 0700);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The verdict for name under the one root sub. */
static safe_refusal verdict(const char *name, char *out, size_t n)
{
    const char *roots[1] = {sub};
    safe_refusal r = SAFE_OK;
    int which = -1;
    bool ok = safe_named_path(name, roots, 1, safe_source_exts, out, n, &r, &which);
    assert_int_equal(ok, r == SAFE_OK);
    if (ok)
        assert_int_equal(which, 0);
    return r;
}

static void test_named(void **state)
{
    (void)state;
    char out[4096], want[256];
    snprintf(want, sizeof want, "%s/k.cu", sub);
    assert_int_equal(verdict("k.cu", out, sizeof out), SAFE_OK);
    assert_string_equal(out, want);
    assert_int_equal(verdict("./inner/../k.cu", out, sizeof out), SAFE_OK); /* ".." that stays inside */
    assert_int_equal(verdict(want, out, sizeof out), SAFE_OK);              /* an absolute name inside */
    assert_int_equal(verdict("../secret.cu", out, sizeof out), SAFE_OUTSIDE);
    assert_int_equal(verdict("inner/../../secret.cu", out, sizeof out), SAFE_OUTSIDE);
    assert_int_equal(verdict(outside, out, sizeof out), SAFE_OUTSIDE);
    assert_int_equal(verdict("link.cu", out, sizeof out), SAFE_OUTSIDE); /* a link leading out */
    assert_int_equal(verdict("/etc/passwd", out, sizeof out), SAFE_OUTSIDE);
    assert_int_equal(verdict("/proc/self/environ", out, sizeof out), SAFE_SPECIAL);
    assert_int_equal(verdict("/dev/tty", out, sizeof out), SAFE_SPECIAL);
    assert_int_equal(verdict("/sys/kernel/notes", out, sizeof out), SAFE_SPECIAL);
    assert_int_equal(verdict("pipe.cu", out, sizeof out), SAFE_NOT_REGULAR);
    assert_int_equal(verdict("inner", out, sizeof out), SAFE_NOT_REGULAR);
    assert_int_equal(verdict("notes", out, sizeof out), SAFE_NOT_SOURCE);
    assert_int_equal(verdict("missing.cu", out, sizeof out), SAFE_NOT_FOUND);
    assert_int_equal(verdict("", out, sizeof out), SAFE_NOT_FOUND);
    /* no root at all: nothing is opened */
    safe_refusal r;
    assert_false(safe_named_path("k.cu", NULL, 0, safe_source_exts, out, sizeof out, &r, NULL));
}

static void test_read(void **state)
{
    (void)state;
    char why[160], p[256];
    size_t len = 0;
    snprintf(p, sizeof p, "%s/k.cu", sub);
    char *text = safe_read_capped(p, 100, &len, why, sizeof why);
    assert_non_null(text);
    assert_int_equal(len, 7);
    assert_string_equal(text, "int k;\n");
    free(text);
    assert_null(safe_read_capped(p, 6, &len, why, sizeof why)); /* one byte past the cap */
    assert_string_equal(why, "larger than 6 bytes");
    snprintf(p, sizeof p, "%s/pipe.cu", sub); /* a FIFO without a writer: refused at once */
    assert_null(safe_read_capped(p, 100, &len, why, sizeof why));
    assert_string_equal(why, "not a regular file");
    assert_null(safe_fopen_regular(p, why, sizeof why));
    /* /proc/self/status claims size 0 and has text: refused by where it is, not read */
    assert_null(safe_read_capped("/proc/self/status", 1 << 20, &len, why, sizeof why));
    assert_null(safe_read_capped("/dev/zero", 1 << 20, &len, why, sizeof why));
    assert_true(safe_is_text("a\tb\r\n", 5));
    assert_false(safe_is_text("a\0b", 3));
    assert_false(safe_is_text("a\x1b[2J", 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_named), cmocka_unit_test(test_read)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
