/* test_cache: SHA-256 against the FIPS 180-4 vectors, and the kernel cache's rules: folder
 * created 0700, untrusted folders and entries refused, tampered entries refused, a planted link
 * never followed, the size cap evicting the least recently used, stale temporary files removed. */
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

#include "io/cache.h"
#include "io/sha256.h"

static char root[256];

static const char *at(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", root, name);
    return buf;
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/bankscope-test-cache-XXXXXX");
    assert_non_null(mkdtemp(root));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", root, root);
    return system(cmd) == 0 ? 0 : -1;
}

static void hex_of(const char *msg, size_t n, char hex[65])
{
    unsigned char d[SHA256_BYTES];
    sha256(msg, n, d);
    sha256_hex(d, hex);
}

static void test_sha256_vectors(void **state)
{
    (void)state;
    char hex[65];
    hex_of("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a', fed in uneven pieces */
    sha256_ctx c;
    sha256_init(&c);
    char a[997];
    memset(a, 'a', sizeof a);
    size_t left = 1000000;
    while (left) {
        size_t k = left < sizeof a ? left : sizeof a;
        sha256_update(&c, a, k);
        left -= k;
    }
    unsigned char d[SHA256_BYTES];
    sha256_final(&c, d);
    sha256_hex(d, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static const char key[] = "nvrtc 13.0|--gpu-architecture=sm_90|source";
static const char image[] = "\x7f"
                            "ELF pretend cubin";

/* The path of key's entry in the cache folder. */
static const char *entry_path(const cache *c, const char *k, char *buf, size_t n)
{
    char name[40];
    cache_entry_name(k, strlen(k), name);
    snprintf(buf, n, "%.300s/%s", c->dir, name);
    return buf;
}

static void open_cache(cache *c, uint64_t max)
{
    char dir[300];
    assert_true(cache_open(c, at("xdg/bankscope", dir, sizeof dir), max));
}

static void test_round_trip(void **state)
{
    (void)state;
    cache c;
    open_cache(&c, CACHE_MAX_BYTES);
    struct stat st;
    assert_int_equal(stat(c.dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    size_t size = 0;
    assert_null(cache_get(&c, key, strlen(key), &size)); /* a miss */
    assert_string_equal(c.note, "");
    assert_true(cache_put(&c, key, strlen(key), image, sizeof image));
    char p[400];
    assert_int_equal(stat(entry_path(&c, key, p, sizeof p), &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    void *img = cache_get(&c, key, strlen(key), &size);
    assert_non_null(img);
    assert_int_equal(size, sizeof image);
    assert_memory_equal(img, image, sizeof image);
    free(img);
    cache_close(&c);
}

static void test_tampered_refused(void **state)
{
    (void)state;
    cache c;
    open_cache(&c, CACHE_MAX_BYTES);
    assert_true(cache_put(&c, key, strlen(key), image, sizeof image));
    char p[400];
    int fd = open(entry_path(&c, key, p, sizeof p), O_WRONLY);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    assert_int_equal(pwrite(fd, "X", 1, st.st_size - 3), 1); /* one byte of the image */
    close(fd);
    size_t size;
    assert_null(cache_get(&c, key, strlen(key), &size));
    assert_non_null(strstr(c.note, "SHA-256"));
    /* a store replaces the bad entry */
    assert_true(cache_put(&c, key, strlen(key), image, sizeof image));
    void *img = cache_get(&c, key, strlen(key), &size);
    assert_non_null(img);
    free(img);
    cache_close(&c);
}

static void test_untrusted_entry_refused(void **state)
{
    (void)state;
    cache c;
    open_cache(&c, CACHE_MAX_BYTES);
    assert_true(cache_put(&c, key, strlen(key), image, sizeof image));
    char p[400];
    entry_path(&c, key, p, sizeof p);
    assert_int_equal(chmod(p, 0666), 0);
    size_t size;
    assert_null(cache_get(&c, key, strlen(key), &size));
    assert_non_null(strstr(c.note, "writable by group or others"));
    if (geteuid() == 0) {
        assert_int_equal(chmod(p, 0600), 0);
        assert_int_equal(chown(p, 65534, 65534), 0);
        c.note[0] = '\0';
        assert_null(cache_get(&c, key, strlen(key), &size));
        assert_non_null(strstr(c.note, "owned by another user"));
    }
    cache_close(&c);
}

static void test_untrusted_folder_refused(void **state)
{
    (void)state;
    char dir[300], other[300];
    cache c;
    mkdir(at("shared", dir, sizeof dir), 0700);
    assert_int_equal(chmod(dir, 0777), 0);
    assert_false(cache_open(&c, dir, CACHE_MAX_BYTES));
    assert_non_null(strstr(c.note, "writable by group or others"));
    size_t size;
    assert_null(cache_get(&c, key, strlen(key), &size)); /* off: every get misses */
    assert_false(cache_put(&c, key, strlen(key), image, sizeof image));
    /* a symbolic link in place of the folder */
    mkdir(at("elsewhere", other, sizeof other), 0700);
    assert_int_equal(symlink(other, at("linked", dir, sizeof dir)), 0);
    assert_false(cache_open(&c, dir, CACHE_MAX_BYTES));
    assert_non_null(strstr(c.note, "symbolic link"));
    if (geteuid() == 0) {
        mkdir(at("theirs", dir, sizeof dir), 0700);
        assert_int_equal(chown(dir, 65534, 65534), 0);
        assert_false(cache_open(&c, dir, CACHE_MAX_BYTES));
        assert_non_null(strstr(c.note, "owned by another user"));
    }
    /* a folder of our own that others may read is made private */
    mkdir(at("open", dir, sizeof dir), 0700);
    assert_int_equal(chmod(dir, 0755), 0);
    assert_true(cache_open(&c, dir, CACHE_MAX_BYTES));
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    cache_close(&c);
}

static void test_planted_link_not_followed(void **state)
{
    (void)state;
    cache c;
    open_cache(&c, CACHE_MAX_BYTES);
    char victim[300], p[400];
    FILE *f = fopen(at("victim", victim, sizeof victim), "w");
    assert_non_null(f);
    fputs("precious", f);
    fclose(f);
    assert_int_equal(symlink(victim, entry_path(&c, key, p, sizeof p)), 0);
    size_t size;
    assert_null(cache_get(&c, key, strlen(key), &size));
    assert_non_null(strstr(c.note, "symbolic link"));
    assert_true(cache_put(&c, key, strlen(key), image, sizeof image));
    char buf[64] = "";
    f = fopen(victim, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "precious");
    struct stat st;
    assert_int_equal(lstat(p, &st), 0);
    assert_true(S_ISREG(st.st_mode)); /* the link was replaced, not written through */
    cache_close(&c);
}

/* Set the modification time of key k's entry to t seconds after the epoch. */
static void age(const cache *c, const char *k, time_t t)
{
    char p[400];
    struct timespec ts[2] = {{t, 0}, {t, 0}};
    assert_int_equal(utimensat(AT_FDCWD, entry_path(c, k, p, sizeof p), ts, 0), 0);
}

static bool present(const cache *c, const char *k)
{
    char p[400];
    return access(entry_path(c, k, p, sizeof p), F_OK) == 0;
}

static void test_cap_evicts_oldest(void **state)
{
    (void)state;
    static char big[1000];
    memset(big, 'k', sizeof big);
    cache c;
    /* room for three entries of about 1.1 KB */
    open_cache(&c, 3500);
    const char *k[4] = {"key a", "key b", "key c", "key d"};
    for (int i = 0; i < 3; i++) {
        assert_true(cache_put(&c, k[i], strlen(k[i]), big, sizeof big));
        age(&c, k[i], 1000000 + 10 * i);
    }
    /* using the oldest makes it the newest */
    size_t size;
    void *img = cache_get(&c, k[0], strlen(k[0]), &size);
    assert_non_null(img);
    free(img);
    assert_true(cache_put(&c, k[3], strlen(k[3]), big, sizeof big));
    assert_true(present(&c, k[0]));
    assert_false(present(&c, k[1])); /* least recently used */
    assert_true(present(&c, k[2]));
    assert_true(present(&c, k[3]));
    cache_close(&c);
}

static void test_stale_temps_removed(void **state)
{
    (void)state;
    cache c;
    open_cache(&c, CACHE_MAX_BYTES);
    char stale[400], fresh[400], old_format[400];
    snprintf(stale, sizeof stale, "%.300s/.0123456789abcdef0123456789abcdef.cubin.AbC123", c.dir);
    snprintf(fresh, sizeof fresh, "%.300s/.0123456789abcdef0123456789abcdef.cubin.XyZ789", c.dir);
    snprintf(old_format, sizeof old_format, "%.300s/0123456789abcdef.cubin", c.dir);
    const char *files[3] = {stale, fresh, old_format};
    for (int i = 0; i < 3; i++) {
        int fd = open(files[i], O_WRONLY | O_CREAT | O_EXCL, 0600);
        assert_true(fd >= 0);
        close(fd);
    }
    struct timespec ts[2] = {{1000000, 0}, {1000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, stale, ts, 0), 0);
    assert_true(cache_put(&c, key, strlen(key), image, sizeof image));
    assert_int_equal(access(stale, F_OK), -1);
    assert_int_equal(access(old_format, F_OK), -1); /* unverifiable entries of older versions */
    assert_int_equal(access(fresh, F_OK), 0);       /* another process may be writing it */
    cache_close(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tampered_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_untrusted_entry_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_untrusted_folder_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_planted_link_not_followed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cap_evicts_oldest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stale_temps_removed, setup, teardown),
    };
    return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}
