/* test_record_sync: how the runs of one recording wait for each other when they go side by side
 * (src/record/record_sync.c), without a GPU: the capture run's verdicts read in launch order and
 * ahead of the reader, a verdict written in two parts taken only when whole, kernel names of any
 * length, and every wait ending when the capture run is over (capture.done), when the command
 * stops (stop), or for the time run when the GPU is free (gpu.free). A reader keeps its state for
 * its process, so each case reads in a child of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

/* A fresh folder for one case. */
static void make_dir(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/test_record_sync.XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
    static const char *const names[] = {"verdicts.txt", "capture.done", "gpu.free", "stop"};
    char p[4200];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* DIR/name made, as the command makes its signs. */
static void sign(const char *dir, const char *name)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_CREAT, 0600);
    if (fd >= 0)
        close(fd);
}

static void nap_ms(int ms)
{
    struct timespec t = {.tv_sec = 0, .tv_nsec = ms * 1000000L};
    nanosleep(&t, NULL);
}

/* Run reader in a child; its exit status (0: every expectation held). */
static int in_child(int (*reader)(const char *dir), const char *dir)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(10); /* a wait that never ends fails the case instead of hanging it */
        _exit(reader(dir));
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

static const char *long_name(void)
{
    static char name[10001];
    memset(name, 'Z', sizeof name - 1);
    memcpy(name, "_Z", 2);
    name[sizeof name - 1] = '\0';
    return name;
}

/* The launches a program makes, in order: k0 #0, k1 #0, then the long name's #0, k0 #1. */
static int read_in_order(const char *dir)
{
    record_config cfg = {.dir = dir, .sync = true};
    int bad = 0;
    bad |= record_sync_chosen(&cfg, "k0", 0) != false;
    bad |= (record_sync_chosen(&cfg, "k1", 0) != false) << 1;
    bad |= (record_sync_chosen(&cfg, long_name(), 0) != true) << 2;
    bad |= (record_sync_chosen(&cfg, "k0", 1) != false) << 3; /* after the chosen one: never */
    return bad;
}

/* The capture run's verdicts, one at a time while the reader waits for them. */
static void test_verdicts_waited_for(void **state)
{
    (void)state;
    char dir[64];
    make_dir(dir, sizeof dir);
    record_config cfg = {.dir = dir, .sync = true};
    pid_t writer = fork();
    assert_true(writer >= 0);
    if (writer == 0) {
        nap_ms(30);
        record_sync_verdict(&cfg, "k0", 0, false);
        nap_ms(30);
        record_sync_verdict(&cfg, "k1", 0, false);
        nap_ms(30);
        record_sync_verdict(&cfg, long_name(), 0, true);
        _exit(0);
    }
    assert_int_equal(in_child(read_in_order, dir), 0);
    waitpid(writer, NULL, 0);
    remove_dir(dir);
}

/* Every verdict already there when the reader starts (the capture run ahead of it). */
static void test_verdicts_read_ahead(void **state)
{
    (void)state;
    char dir[64];
    make_dir(dir, sizeof dir);
    record_config cfg = {.dir = dir, .sync = true};
    record_sync_verdict(&cfg, "k0", 0, false);
    record_sync_verdict(&cfg, "k1", 0, false);
    record_sync_verdict(&cfg, long_name(), 0, true);
    assert_int_equal(in_child(read_in_order, dir), 0);
    /* without sync, nothing is written */
    char dir2[64];
    make_dir(dir2, sizeof dir2);
    record_config off = {.dir = dir2, .sync = false};
    record_sync_verdict(&off, "k0", 0, true);
    char p[200];
    snprintf(p, sizeof p, "%s/verdicts.txt", dir2);
    assert_int_equal(access(p, F_OK), -1);
    remove_dir(dir);
    remove_dir(dir2);
}

static int read_k0_chosen(const char *dir)
{
    record_config cfg = {.dir = dir, .sync = true};
    return record_sync_chosen(&cfg, "k0", 1) ? 0 : 1;
}

/* A line written in two parts counts only once it is whole. */
static void test_line_in_two_parts(void **state)
{
    (void)state;
    char dir[64], p[200];
    make_dir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/verdicts.txt", dir);
    /* the whole line the capture run writes for k0 #1, taken from a verdict file of its own */
    char other[64];
    make_dir(other, sizeof other);
    record_config cfg = {.dir = other, .sync = true};
    record_sync_verdict(&cfg, "k0", 1, true);
    char q[200], line[128] = "";
    snprintf(q, sizeof q, "%s/verdicts.txt", other);
    FILE *f = fopen(q, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    remove_dir(other);
    size_t half = strlen(line) / 2;
    pid_t writer = fork();
    assert_true(writer >= 0);
    if (writer == 0) {
        int fd = open(p, O_WRONLY | O_CREAT | O_APPEND, 0600);
        /* "chosen 1 0" alone would be another kernel's verdict: it must not be read as one */
        if (fd < 0 || write(fd, line, half) != (ssize_t)half)
            _exit(1);
        nap_ms(50);
        if (write(fd, line + half, strlen(line) - half) != (ssize_t)(strlen(line) - half))
            _exit(1);
        close(fd);
        _exit(0);
    }
    assert_int_equal(in_child(read_k0_chosen, dir), 0);
    int status = 0;
    waitpid(writer, &status, 0);
    assert_int_equal(status, 0);
    remove_dir(dir);
}

static int read_none(const char *dir)
{
    record_config cfg = {.dir = dir, .sync = true};
    return record_sync_chosen(&cfg, "k0", 0) ? 1 : 0;
}

static int read_gpu(const char *dir)
{
    record_config cfg = {.dir = dir, .sync = true};
    return record_sync_gpu_free(&cfg) ? 0 : 1;
}

static int read_gpu_stopped(const char *dir)
{
    record_config cfg = {.dir = dir, .sync = true};
    return record_sync_gpu_free(&cfg) ? 1 : 0;
}

/* Waits end: the capture run over without a verdict, the command stopping, the GPU free. */
static void test_waits_end(void **state)
{
    (void)state;
    char dir[64];
    make_dir(dir, sizeof dir);
    sign(dir, "capture.done");
    assert_int_equal(in_child(read_none, dir), 0);
    remove_dir(dir);

    make_dir(dir, sizeof dir);
    sign(dir, "stop");
    assert_int_equal(in_child(read_none, dir), 0);
    assert_int_equal(in_child(read_gpu_stopped, dir), 0);
    remove_dir(dir);

    make_dir(dir, sizeof dir);
    pid_t signer = fork();
    assert_true(signer >= 0);
    if (signer == 0) {
        nap_ms(30);
        sign(dir, "gpu.free");
        _exit(0);
    }
    assert_int_equal(in_child(read_gpu, dir), 0);
    waitpid(signer, NULL, 0);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verdicts_waited_for),
        cmocka_unit_test(test_verdicts_read_ahead),
        cmocka_unit_test(test_line_in_two_parts),
        cmocka_unit_test(test_waits_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
