/* cache: the checked disk cache of compiled kernels (see cache.h for the rules).
 * An entry file: CACHE_MAGIC, the key's and the image's lengths (8 bytes each, little-endian),
 * the SHA-256 of key and image together, the key, the image. */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/save.h"
#include "io/sha256.h"
#include "util.h"

#define CACHE_MAGIC "bankscope-cubin-1\n"
#define MAGIC_LEN (sizeof CACHE_MAGIC - 1)
#define HEADER_LEN (MAGIC_LEN + 16 + SHA256_BYTES)
#define STALE_TEMP_SECONDS 3600

bool cache_default_dir(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(out, n, "%s/bankscope", xdg);
    else if (home && *home)
        snprintf(out, n, "%s/.cache/bankscope", home);
    else
        return false;
    return true;
}

/* Why st (the folder or an entry) must not be trusted, or NULL when it may be. */
static const char *untrusted(const struct stat *st)
{
    if (st->st_uid != geteuid())
        return "owned by another user";
    if (st->st_mode & 022)
        return "writable by group or others";
    return NULL;
}

bool cache_open(cache *c, const char *dir, uint64_t max_bytes)
{
    c->dirfd = -1;
    c->max_bytes = max_bytes;
    c->note[0] = '\0';
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    char *slash = strrchr(c->dir, '/');
    if (slash && slash != c->dir) {
        *slash = '\0';
        (void)mkdir(c->dir, 0700); /* the parent (~/.cache), private as XDG asks, if missing */
        *slash = '/';
    }
    if (mkdir(c->dir, 0700) != 0 && errno != EEXIST) {
        snprintf(c->note, sizeof c->note, "kernel cache off: %.240s: %s", c->dir, strerror(errno));
        return false;
    }
    int fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(c->note, sizeof c->note, "kernel cache off: %.240s: %s", c->dir,
                 errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a folder" : strerror(errno));
        return false;
    }
    struct stat st;
    const char *why = fstat(fd, &st) != 0 ? strerror(errno) : untrusted(&st);
    if (why) {
        snprintf(c->note, sizeof c->note, "kernel cache off: %.240s is %s", c->dir, why);
        close(fd);
        return false;
    }
    if (st.st_mode & 077)
        (void)fchmod(fd, 0700); /* ours but readable by others (an older bankscope made it 0755) */
    c->dirfd = fd;
    return true;
}

void cache_close(cache *c)
{
    if (c->dirfd >= 0)
        close(c->dirfd);
    c->dirfd = -1;
}

void cache_entry_name(const char *key, size_t keylen, char name[40])
{
    unsigned char d[SHA256_BYTES];
    char hex[2 * SHA256_BYTES + 1];
    sha256(key, keylen, d);
    sha256_hex(d, hex);
    snprintf(name, 40, "%.32s.cubin", hex);
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Digest of key and image together (what an entry stores). */
static void entry_digest(const char *key, size_t keylen, const void *image, size_t size, unsigned char d[SHA256_BYTES])
{
    sha256_ctx h;
    sha256_init(&h);
    sha256_update(&h, key, keylen);
    sha256_update(&h, image, size);
    sha256_final(&h, d);
}

/* Read exactly n bytes from fd. */
static bool read_all(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

/* Check an open entry against key and return its image, or NULL with *why set. */
static void *read_entry(int fd, const char *key, size_t keylen, size_t *size, const char **why)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "not a regular file";
        return NULL;
    }
    if ((*why = untrusted(&st)))
        return NULL;
    unsigned char head[HEADER_LEN];
    *why = "truncated or not a cache entry";
    if (!read_all(fd, head, sizeof head) || memcmp(head, CACHE_MAGIC, MAGIC_LEN) != 0)
        return NULL;
    uint64_t klen = get_u64(head + MAGIC_LEN), ilen = get_u64(head + MAGIC_LEN + 8);
    if (klen != keylen || ilen == 0 || ilen > CACHE_MAX_IMAGE || (uint64_t)st.st_size != HEADER_LEN + klen + ilen) {
        *why = klen != keylen ? "stored for another key" : "sizes do not match the file";
        return NULL;
    }
    char *k = xmalloc(keylen + 1);
    void *img = xmalloc(ilen);
    bool ok = read_all(fd, k, keylen) && read_all(fd, img, ilen);
    if (ok && memcmp(k, key, keylen) != 0) {
        *why = "stored for another key";
        ok = false;
    } else if (ok) {
        unsigned char d[SHA256_BYTES];
        entry_digest(k, keylen, img, ilen, d);
        ok = memcmp(d, head + MAGIC_LEN + 16, SHA256_BYTES) == 0;
        if (!ok)
            *why = "its SHA-256 does not match (changed since it was stored)";
    }
    free(k);
    if (!ok) {
        free(img);
        return NULL;
    }
    *why = NULL;
    *size = ilen;
    return img;
}

void *cache_get(cache *c, const char *key, size_t keylen, size_t *size)
{
    if (c->dirfd < 0)
        return NULL;
    char name[40];
    cache_entry_name(key, keylen, name);
    int fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            snprintf(c->note, sizeof c->note, "cached kernel %.200s/%s refused: %s", c->dir, name,
                     errno == ELOOP ? "a symbolic link" : strerror(errno));
        return NULL;
    }
    const char *why = NULL;
    void *img = read_entry(fd, key, keylen, size, &why);
    if (img)
        (void)futimens(fd, NULL); /* most recently used */
    else
        snprintf(c->note, sizeof c->note, "cached kernel %.200s/%s refused: %s; compiling again", c->dir, name, why);
    close(fd);
    return img;
}

typedef struct entry_info {
    char name[64];
    off_t size;
    struct timespec mtime;
} entry_info;

static int by_age(const void *a, const void *b)
{
    const entry_info *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* True for names this cache writes: HEX.cubin (16 hex digits: the unverified entries of older
 * versions, 32: entries) and .HEX.cubin.XXXXXX (temporary files). */
static bool our_name(const char *n, bool *temp)
{
    *temp = n[0] == '.';
    const char *p = n + *temp;
    size_t hex = strspn(p, "0123456789abcdef");
    if ((hex != 16 && hex != 32) || strncmp(p + hex, ".cubin", 6) != 0)
        return false;
    return *temp ? p[hex + 6] == '.' && strlen(p + hex + 7) == 6 : p[hex + 6] == '\0';
}

/* Remove stale temporary files and unverifiable old entries, then the least recently used
 * entries until the total fits the cap. */
static void trim(cache *c)
{
    int fd = openat(c->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    entry_info *v = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        bool temp;
        struct stat st;
        if (!our_name(e->d_name, &temp) || fstatat(c->dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        bool old_format = !temp && strlen(e->d_name) == 16 + 6;
        if (old_format || (temp && now - st.st_mtime > STALE_TEMP_SECONDS)) {
            unlinkat(c->dirfd, e->d_name, 0);
            continue;
        }
        if (temp)
            continue;
        if (n == cap)
            v = xrealloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
        snprintf(v[n].name, sizeof v[n].name, "%.60s", e->d_name); /* our names are shorter */
        v[n].size = st.st_size;
        v[n].mtime = st.st_mtim;
        total += (uint64_t)st.st_size;
        n++;
    }
    closedir(d);
    if (total > c->max_bytes) {
        qsort(v, n, sizeof *v, by_age);
        for (size_t i = 0; i < n && total > c->max_bytes; i++)
            if (unlinkat(c->dirfd, v[i].name, 0) == 0)
                total -= (uint64_t)v[i].size;
    }
    free(v);
}

bool cache_put(cache *c, const char *key, size_t keylen, const void *image, size_t size)
{
    if (c->dirfd < 0)
        return false;
    if (size == 0 || size > CACHE_MAX_IMAGE) {
        snprintf(c->note, sizeof c->note, "kernel image of %zu bytes not cached", size);
        return false;
    }
    char name[40], path[600];
    cache_entry_name(key, keylen, name);
    snprintf(path, sizeof path, "%s/%s", c->dir, name);
    char *tmp;
    int fd = save_temp_create(path, &tmp);
    if (fd < 0) {
        snprintf(c->note, sizeof c->note, "kernel not cached: %.240s: %s", c->dir, strerror(errno));
        return false;
    }
    unsigned char head[HEADER_LEN];
    memcpy(head, CACHE_MAGIC, MAGIC_LEN);
    put_u64(head + MAGIC_LEN, keylen);
    put_u64(head + MAGIC_LEN + 8, size);
    entry_digest(key, keylen, image, size, head + MAGIC_LEN + 16);
    bool ok =
        save_write_all(fd, head, sizeof head) && save_write_all(fd, key, keylen) && save_write_all(fd, image, size);
    ok = close(fd) == 0 && ok;
    /* rename replaces whatever has the entry's name (a refused file, a planted link) */
    if (!ok || rename(tmp, path) != 0) {
        snprintf(c->note, sizeof c->note, "kernel not cached: %.240s: %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    trim(c);
    return true;
}
