/* safe_open: opening files that other files name (see safe_open.h). */
#include "io/safe_open.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

const char *const safe_source_exts[] = {".cu",    ".cuh", ".c",   ".cc",  ".cpp", ".cxx", ".c++",
                                        ".h",     ".hh",  ".hpp", ".hxx", ".inl", ".ipp", ".tcc",
                                        ".cuinc", ".py",  ".f90", ".cuf", ".ptx", NULL};

/* True when the resolved (absolute) path lies under /proc, /dev or /sys. */
static bool safe_is_special(const char *real)
{
    static const char *const dirs[] = {"/proc", "/dev", "/sys"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        size_t k = strlen(dirs[i]);
        if (strncmp(real, dirs[i], k) == 0 && (real[k] == '/' || real[k] == '\0'))
            return true;
    }
    return false;
}

/* True when path's last component ends with one of exts (NULL-terminated; case-sensitive). */
static bool safe_has_ext(const char *path, const char *const *exts)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    for (int i = 0; exts && exts[i]; i++) {
        size_t k = strlen(exts[i]);
        if (n > k && strcmp(base + n - k, exts[i]) == 0)
            return true;
    }
    return false;
}

/* The absolute form of path with "//", "/./" and "x/.." removed, by its spelling only (no file
 * is looked at), into out (n bytes); false when it does not fit. */
static bool normalize(const char *path, char *out, size_t n)
{
    char buf[PATH_MAX * 2];
    if (path[0] == '/') {
        if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
            return false;
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd) || snprintf(buf, sizeof buf, "%s/%s", cwd, path) >= (int)sizeof buf)
            return false;
    }
    size_t o = 0;
    for (char *p = buf; *p;) {
        while (*p == '/')
            p++;
        char *e = p;
        while (*e && *e != '/')
            e++;
        size_t len = (size_t)(e - p);
        if (len == 0)
            break;
        if (len == 1 && p[0] == '.') {
        } else if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (o > 0 && out[o - 1] != '/')
                o--;
            if (o > 0)
                o--; /* the slash before the removed component */
        } else {
            if (o + 1 + len + 1 > n)
                return false;
            out[o++] = '/';
            memcpy(out + o, p, len);
            o += len;
        }
        p = e;
    }
    if (o == 0)
        out[o++] = '/';
    out[o] = '\0';
    return true;
}

/* True when path equals dir or lies below it (both absolute and normalised). */
static bool inside(const char *path, const char *dir)
{
    size_t k = strlen(dir);
    if (k == 1 && dir[0] == '/')
        return path[0] == '/';
    return strncmp(path, dir, k) == 0 && (path[k] == '/' || path[k] == '\0');
}

/* The verdict for name under one root. */
static safe_refusal under_root(const char *name, const char *root, const char *const *exts, char *out, size_t n)
{
    char lex_root[PATH_MAX], real_root[PATH_MAX], joined[PATH_MAX * 2], lex[PATH_MAX], real[PATH_MAX];
    if (!normalize(root, lex_root, sizeof lex_root) || !realpath(root, real_root))
        return SAFE_NOT_FOUND;
    if (name[0] == '/')
        snprintf(joined, sizeof joined, "%s", name);
    else if (snprintf(joined, sizeof joined, "%s/%s", lex_root, name) >= (int)sizeof joined)
        return SAFE_NOT_FOUND;
    if (!normalize(joined, lex, sizeof lex))
        return SAFE_NOT_FOUND;
    /* by its spelling first: a name outside the folder is refused without looking at it */
    if (!inside(lex, lex_root) && !inside(lex, real_root))
        return SAFE_OUTSIDE;
    if (!realpath(lex, real))
        return SAFE_NOT_FOUND;
    if (!inside(real, real_root)) /* a symbolic link leading out */
        return SAFE_OUTSIDE;
    if (safe_is_special(real))
        return SAFE_SPECIAL;
    struct stat st;
    if (stat(real, &st) != 0)
        return SAFE_NOT_FOUND;
    if (!S_ISREG(st.st_mode))
        return SAFE_NOT_REGULAR;
    if (!safe_has_ext(real, exts) || !safe_has_ext(name, exts))
        return SAFE_NOT_SOURCE;
    if (strlen(real) >= n)
        return SAFE_NOT_FOUND;
    memcpy(out, real, strlen(real) + 1);
    return SAFE_OK;
}

bool safe_named_path(const char *name, const char *const *roots, int nroots, const char *const *exts, char *out,
                     size_t n, safe_refusal *why, int *which)
{
    safe_refusal worst = SAFE_NOT_FOUND;
    if (name && name[0] && !(name[0] == '/' && safe_is_special(name))) {
        for (int i = 0; i < nroots; i++) {
            if (!roots[i])
                continue;
            safe_refusal r = under_root(name, roots[i], exts, out, n);
            if (r == SAFE_OK) {
                if (why)
                    *why = SAFE_OK;
                if (which)
                    *which = i;
                return true;
            }
            if (r > worst)
                worst = r;
        }
    } else if (name && name[0]) {
        worst = SAFE_SPECIAL;
    }
    if (why)
        *why = worst;
    return false;
}

/* path opened without blocking and checked on its descriptor: a regular file outside /proc,
 * /dev and /sys; -1 with why. */
static int open_regular(const char *path, char *why, size_t n)
{
    char real[PATH_MAX];
    if (realpath(path, real) && safe_is_special(real)) {
        snprintf(why, n, "%s", "a system file (/proc, /dev or /sys)");
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, n, "%s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, n, "%s", "not a regular file");
        close(fd);
        return -1;
    }
    return fd;
}

FILE *safe_fopen_regular(const char *path, char *why, size_t n)
{
    int fd = open_regular(path, why, n);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (fd >= 0 && !f) {
        snprintf(why, n, "%s", strerror(errno));
        close(fd);
    }
    return f;
}

char *safe_read_capped(const char *path, size_t cap, size_t *len, char *why, size_t n)
{
    int fd = open_regular(path, why, n);
    if (fd < 0)
        return NULL;
    strbuf sb = {0};
    char buf[65536];
    for (;;) {
        size_t want = cap + 1 - sb.len < sizeof buf ? cap + 1 - sb.len : sizeof buf;
        ssize_t r = read(fd, buf, want);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            snprintf(why, n, "%s", errno == EAGAIN ? "a read would wait (not a plain file)" : strerror(errno));
            break;
        }
        if (r == 0) {
            close(fd);
            *len = sb.len;
            if (sb.len == 0)
                return xstrdup("");
            return strbuf_take(&sb);
        }
        strbuf_add(&sb, buf, (size_t)r);
        if (sb.len > cap) {
            snprintf(why, n, "larger than %zu bytes", cap);
            break;
        }
    }
    close(fd);
    strbuf_free(&sb);
    return NULL;
}

bool safe_is_text(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f')
            return false;
    }
    return true;
}
