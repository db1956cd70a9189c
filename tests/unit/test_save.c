/* test_save: save_atomic writes as careful editors do: symbolic links followed, hard links,
 * mode and owner kept, devices and pipes written in place, refusals that leave the old file,
 * no temporary file left behind, and no planted link followed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/save.h"

static char root[256];

/* root/name */
static const char *at(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", root, name);
    return buf;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The file's text (up to 4 KB). */
static const char *get(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t r = fread(buf, 1, n - 1, f);
    buf[r] = '\0';
    fclose(f);
    return buf;
}

/* Number of entries in root other than . and .. */
static int entries(void)
{
    DIR *d = opendir(root);
    assert_non_null(d);
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            k++;
    closedir(d);
    return k;
}

static bool save(const char *path, const char *text, char *err, size_t n)
{
    return save_atomic(path, text, strlen(text), err, n);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/bankscope-test-save-XXXXXX");
    assert_non_null(mkdtemp(root));
    chmod(root, 0755); /* the unprivileged child of test_readonly_dir must reach it */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    chmod(root, 0755);
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", root, root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_new_file(void **state)
{
    (void)state;
    char p[300], buf[4096], err[512];
    assert_true(save(at("new.json", p, sizeof p), "hello\n", err, sizeof err));
    assert_string_equal(get(p, buf, sizeof buf), "hello\n");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
    assert_int_equal(entries(), 1); /* no temporary file left */
}

static void test_mode_kept(void **state)
{
    (void)state;
    char p[300], buf[4096], err[512];
    put(at("secret.json", p, sizeof p), "old");
    assert_int_equal(chmod(p, 0600), 0);
    assert_true(save(p, "new", err, sizeof err));
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0600);
    assert_string_equal(get(p, buf, sizeof buf), "new");
    assert_int_equal(entries(), 1);
}

static void test_symlink_followed(void **state)
{
    (void)state;
    char real[300], link[300], buf[4096], err[512];
    mkdir(at("sub", real, sizeof real), 0755);
    put(at("sub/real.svg", real, sizeof real), "old");
    assert_int_equal(symlink("sub/real.svg", at("link.svg", link, sizeof link)), 0);
    assert_true(save(link, "new", err, sizeof err));
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* the link stays a link */
    assert_string_equal(get(real, buf, sizeof buf), "new");
    /* a dangling link gets its target created */
    char dang[300], target[300];
    assert_int_equal(symlink("sub/later.svg", at("dangling.svg", dang, sizeof dang)), 0);
    assert_true(save(dang, "made", err, sizeof err));
    assert_int_equal(lstat(dang, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(get(at("sub/later.svg", target, sizeof target), buf, sizeof buf), "made");
    assert_int_equal(entries(), 3); /* sub, link.svg, dangling.svg */
}

static void test_hard_link_kept(void **state)
{
    (void)state;
    char a[300], b[300], buf[4096], err[512];
    put(at("a.json", a, sizeof a), "old old old");
    assert_int_equal(link(a, at("b.json", b, sizeof b)), 0);
    struct stat before, after;
    assert_int_equal(stat(a, &before), 0);
    assert_true(save(a, "new", err, sizeof err));
    assert_int_equal(stat(a, &after), 0);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_nlink, 2);
    assert_string_equal(get(b, buf, sizeof buf), "new"); /* shorter content: truncated */
    assert_int_equal(entries(), 2);
}

static void test_owner_kept(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* only root can give a file away */
    char p[300], err[512];
    put(at("theirs.json", p, sizeof p), "old");
    assert_int_equal(chown(p, 65534, 65534), 0);
    assert_int_equal(chmod(p, 0640), 0);
    assert_true(save(p, "new", err, sizeof err));
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_uid, 65534);
    assert_int_equal(st.st_gid, 65534);
    assert_int_equal(st.st_mode & 07777, 0640);
}

static void test_char_device_in_place(void **state)
{
    (void)state;
    char p[300], err[512];
    /* root: a private null device, so a failure could not touch the system's /dev/null;
     * others cannot replace /dev/null anyway */
    const char *dev = "/dev/null";
    if (geteuid() == 0 && mknod(at("null", p, sizeof p), S_IFCHR | 0666, makedev(1, 3)) == 0)
        dev = p;
    assert_true(save(dev, "<svg/>", err, sizeof err));
    struct stat st;
    assert_int_equal(stat(dev, &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(major(st.st_rdev), 1);
    assert_int_equal(minor(st.st_rdev), 3);
    /* a full device: the error is said */
    if (access("/dev/full", W_OK) == 0) {
        assert_false(save("/dev/full", "<svg/>", err, sizeof err));
        assert_non_null(strstr(err, "/dev/full"));
        assert_non_null(strstr(err, strerror(ENOSPC)));
        assert_int_equal(stat("/dev/full", &st), 0);
        assert_true(S_ISCHR(st.st_mode));
    }
}

static void test_fifo_in_place(void **state)
{
    (void)state;
    char p[300], buf[64], err[512];
    assert_int_equal(mkfifo(at("pipe", p, sizeof p), 0600), 0);
    int rd = open(p, O_RDONLY | O_NONBLOCK); /* a reader, so the writer's open does not wait */
    assert_true(rd >= 0);
    assert_true(save(p, "through", err, sizeof err));
    ssize_t r = read(rd, buf, sizeof buf - 1);
    assert_int_equal(r, 7);
    buf[r] = '\0';
    assert_string_equal(buf, "through");
    close(rd);
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
}

static void test_directory_refused(void **state)
{
    (void)state;
    char p[300], err[512];
    mkdir(at("folder", p, sizeof p), 0755);
    assert_false(save(p, "x", err, sizeof err));
    assert_non_null(strstr(err, "is a directory"));
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
}

/* Run fn in a child process (as nobody when run as root); its exit status. */
static int in_child(int (*fn)(void), bool drop_root)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (drop_root && geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(77);
        _exit(fn());
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

/* The child of test_readonly_dir: a writable file in a folder it cannot write. */
static int readonly_child(void)
{
    char p[300], buf[64], err[512];
    at("ro/file.json", p, sizeof p);
    if (save(p, "new", err, sizeof err))
        return 1;
    if (!strstr(err, "temporary file") || !strstr(err, "nothing was written"))
        return 2;
    return strcmp(get(p, buf, sizeof buf), "old") == 0 ? 0 : 3;
}

static void test_readonly_dir(void **state)
{
    (void)state;
    char d[300], p[300];
    mkdir(at("ro", d, sizeof d), 0755);
    put(at("ro/file.json", p, sizeof p), "old");
    chmod(p, 0666);
    chmod(d, 0555);
    int rc = in_child(readonly_child, true);
    chmod(d, 0755);
    if (rc == 77)
        skip();
    assert_int_equal(rc, 0);
}

/* The child of test_foreign_owner_in_place: a file of another user it may write. */
static int foreign_child(void)
{
    char p[300], buf[64], err[512];
    if (!save(at("shared/theirs.json", p, sizeof p), "new", err, sizeof err))
        return 1;
    return strcmp(get(p, buf, sizeof buf), "new") == 0 ? 0 : 2;
}

static void test_foreign_owner_in_place(void **state)
{
    (void)state;
    if (geteuid() != 0)
        skip(); /* needs a second user */
    char d[300], p[300];
    mkdir(at("shared", d, sizeof d), 0777);
    chmod(d, 0777);
    put(at("shared/theirs.json", p, sizeof p), "old old");
    chmod(p, 0666);
    struct stat before, after;
    assert_int_equal(stat(p, &before), 0);
    int rc = in_child(foreign_child, true);
    if (rc == 77)
        skip();
    assert_int_equal(rc, 0);
    /* the owner could not be given to a new file: written in place, owner and inode kept */
    assert_int_equal(stat(p, &after), 0);
    assert_int_equal(after.st_uid, before.st_uid);
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_mode & 07777, 0666);
}

/* The child of test_full_disk: writes are limited to 64 bytes (like a full disk). */
static int full_child(void)
{
    struct rlimit rl = {64, 64};
    signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
        return 77;
    char big[4096], p[300], l[300], buf[4096], err[512];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    if (save(at("full.json", p, sizeof p), big, err, sizeof err) || !strstr(err, "nothing was written"))
        return 1;
    if (strcmp(get(p, buf, sizeof buf), "old") != 0)
        return 2;
    /* the hard-linked file: the temporary copy fails first, the file is untouched */
    if (save(at("full-link.json", l, sizeof l), big, err, sizeof err) || strcmp(get(l, buf, sizeof buf), "old") != 0)
        return 3;
    return 0;
}

static void test_full_disk(void **state)
{
    (void)state;
    char p[300], l[300], l2[300];
    put(at("full.json", p, sizeof p), "old");
    put(at("full-link.json", l, sizeof l), "old");
    assert_int_equal(link(l, at("full-link2.json", l2, sizeof l2)), 0);
    int before = entries();
    int rc = in_child(full_child, false);
    if (rc == 77)
        skip();
    assert_int_equal(rc, 0);
    assert_int_equal(entries(), before); /* no temporary file left */
}

static void test_planted_link_ignored(void **state)
{
    (void)state;
    char victim[300], out[300], plant[400], buf[4096], err[512];
    put(at("victim", victim, sizeof victim), "precious");
    at("out.svg", out, sizeof out);
    /* the names earlier versions used for their temporary files */
    snprintf(plant, sizeof plant, "%s.tmp.%ld", out, (long)getpid());
    assert_int_equal(symlink(victim, plant), 0);
    assert_true(save(out, "<svg/>", err, sizeof err));
    assert_string_equal(get(victim, buf, sizeof buf), "precious");
    assert_string_equal(get(out, buf, sizeof buf), "<svg/>");
    struct stat st;
    assert_int_equal(lstat(plant, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

static void test_temp_create_exclusive(void **state)
{
    (void)state;
    char p[300];
    char *t1, *t2;
    int a = save_temp_create(at("x.cubin", p, sizeof p), &t1);
    int b = save_temp_create(p, &t2);
    assert_true(a >= 0 && b >= 0);
    assert_string_not_equal(t1, t2);
    struct stat st;
    assert_int_equal(fstat(a, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    close(a);
    close(b);
    unlink(t1);
    unlink(t2);
    free(t1);
    free(t2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_new_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mode_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hard_link_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_owner_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_char_device_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readonly_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_foreign_owner_in_place, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_disk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_planted_link_ignored, setup, teardown),
        cmocka_unit_test_setup_teardown(test_temp_create_exclusive, setup, teardown),
    };
    return cmocka_run_group_tests_name("save", tests, NULL, NULL);
}
