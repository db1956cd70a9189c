/* save_file: writing a file the way careful editors do (save_atomic, save_temp_create).
 * A regular file is replaced by a complete, fsync'd temporary file in the same folder and
 * rename(2), so a failed save never leaves half a file. Around that:
 *  - symbolic links are followed to the real file, which is the one replaced (the link stays a
 *    link, a dangling link gets its target created);
 *  - an existing file keeps its mode and owner; when the owner cannot be given to the new file,
 *    or the file has other hard links, the new content is first written and verified in a
 *    temporary file, then written in place (so the inode, its links, owner and mode stay),
 *    with its space reserved first and the old bytes put back when a write fails midway (a
 *    full disk never leaves half of each);
 *  - character devices and pipes (/dev/null, /dev/stdout, FIFOs) are written in place, never
 *    replaced; directories, block devices and sockets are refused;
 *  - every file is created with O_CREAT|O_EXCL through mkostemp: a random name that no planted
 *    symbolic link can redirect. */
#include "save.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool save_write_all(int fd, const void *buf, size_t len)
{
    const char *data = buf;
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return false;
        }
        data += w;
        len -= (size_t)w;
    }
    return true;
}

/* The folder part of path ("." when there is none); malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrdup_n(path, (size_t)(slash - path));
}

/* Follow symbolic links from path to the name a write would reach (which may not exist yet: a
 * dangling link resolves to its missing target). NULL with errno set (ELOOP after 40 links). */
static char *resolve_links(const char *path)
{
    char *cur = xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        char buf[PATH_MAX];
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        buf[n] = '\0';
        char *next;
        if (buf[0] == '/') {
            next = xstrdup(buf);
        } else {
            char *dir = dir_of(cur);
            size_t len = strlen(dir) + strlen(buf) + 2;
            next = xmalloc(len);
            snprintf(next, len, "%s/%s", dir, buf);
            free(dir);
        }
        free(cur);
        cur = next;
    }
    free(cur);
    errno = ELOOP;
    return NULL;
}

int save_temp_create(const char *path, char **tmp_out)
{
    char *dir = dir_of(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    /* ".NAME.XXXXXX": hidden, recognisably ours; NAME cut so the whole stays under NAME_MAX */
    size_t len = strlen(dir) + 240;
    char *tmp = xmalloc(len);
    snprintf(tmp, len, "%s/.%.200s.XXXXXX", dir, base);
    free(dir);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        free(tmp);
        *tmp_out = NULL;
        return -1;
    }
    *tmp_out = tmp;
    return fd;
}

/* Open an existing character device or pipe and write data into it. The open never waits: a
 * FIFO that no process reads is refused (ENXIO) instead of hanging the caller; once open, the
 * writes wait for the reader as usual. */
static bool write_special(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENXIO)
            snprintf(err, errlen, "%s: no process reads that pipe; nothing was written", path);
        else
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    bool ok = save_write_all(fd, data, len);
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        snprintf(err, errlen, "%s: %s", path, strerror(e));
    return ok;
}

/* True when the file under fd holds exactly data (the check before writing in place). */
static bool verify(int fd, const char *data, size_t len)
{
    char buf[65536];
    size_t off = 0;
    for (;;) {
        ssize_t r = pread(fd, buf, sizeof buf, (off_t)off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return false;
        if (r == 0)
            return off == len;
        if (off + (size_t)r > len || memcmp(buf, data + off, (size_t)r) != 0)
            return false;
        off += (size_t)r;
    }
}

/* pwrite all of buf at off. */
static bool pwrite_all(int fd, const char *buf, size_t len, off_t off)
{
    while (len > 0) {
        ssize_t w = pwrite(fd, buf, len, off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return false;
        }
        buf += w;
        len -= (size_t)w;
        off += w;
    }
    return true;
}

/* The whole content of the open file fd (size bytes by fstat), or NULL. */
static char *read_old(int fd, size_t size)
{
    char *old = xmalloc(size ? size : 1);
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread(fd, old + got, size - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            free(old);
            return NULL;
        }
        got += (size_t)r;
    }
    return old;
}

/* Overwrite the regular file real with data, keeping its inode (hard links, owner, mode), so
 * that a failure (a full disk, a quota) leaves the old content: the space is reserved first
 * (fallocate, keeping the size, changes no byte: a full disk is found before anything changes);
 * then the part beyond the old size is written (undone by truncating back), then the part over
 * the old bytes; a failure there or at fsync writes the old bytes (read first) back. *restored
 * says whether the old content is still there after a failure. */
static bool write_in_place(const char *real, const char *data, size_t len, bool *restored)
{
    *restored = true;
    int fd = open(real, O_RDWR | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    char *old = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(old = read_old(fd, (size_t)st.st_size))) {
        int e = errno ? errno : EIO;
        close(fd);
        errno = e;
        return false;
    }
    size_t olen = (size_t)st.st_size;
    int e = 0;
    if (len > olen) {
        int r = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)len);
        if (r != 0 && errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL) {
            e = errno; /* no space for it: nothing was changed */
            goto out;
        }
        if (!pwrite_all(fd, data + olen, len - olen, (off_t)olen)) {
            e = errno;
            if (ftruncate(fd, (off_t)olen) != 0 || fsync(fd) != 0)
                *restored = false;
            goto out;
        }
    }
    size_t head = len < olen ? len : olen;
    if (!pwrite_all(fd, data, head, 0) || ftruncate(fd, (off_t)len) != 0 || fsync(fd) != 0) {
        e = errno;
        /* the old bytes go back where they were (blocks the file already had) */
        *restored = pwrite_all(fd, old, olen, 0) && ftruncate(fd, (off_t)olen) == 0 && fsync(fd) == 0;
        goto out;
    }
out:
    free(old);
    if (close(fd) != 0 && e == 0)
        e = errno;
    errno = e;
    return e == 0;
}

/* Make the rename durable (best effort: some file systems refuse fsync on a folder). */
static void sync_dir(const char *real)
{
    char *dir = dir_of(real);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Give the temporary file the old file's owner and mode (or, for a new file, the mode fopen
 * would give). False when the owner cannot be kept: then the caller writes in place. */
static bool take_attributes(int fd, const struct stat *old, bool exists)
{
    if (!exists) {
        mode_t mask = umask(0);
        umask(mask);
        return fchmod(fd, 0666 & ~mask) == 0;
    }
    struct stat now;
    if (fstat(fd, &now) != 0)
        return false;
    if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) && fchown(fd, old->st_uid, old->st_gid) != 0)
        return false;
    /* after fchown: it clears set-user-ID bits, which the old file may have had */
    return fchmod(fd, old->st_mode & 07777) == 0;
}

/* Save into the regular (or missing) file real: temporary file, then rename or in place. */
static bool save_regular(const char *shown, const char *real, const char *data, size_t len, char *err, size_t errlen)
{
    struct stat old;
    bool exists = lstat(real, &old) == 0;
    if (!exists && errno != ENOENT) {
        snprintf(err, errlen, "%s: %s", shown, strerror(errno));
        return false;
    }
    if (exists && !S_ISREG(old.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file; nothing was written", real);
        return false;
    }
    if (exists && faccessat(AT_FDCWD, real, W_OK, AT_EACCESS) != 0) {
        snprintf(err, errlen, "%s: %s; nothing was written", real, strerror(errno));
        return false;
    }
    char *tmp;
    int fd = save_temp_create(real, &tmp);
    if (fd < 0) {
        char *dir = dir_of(real);
        snprintf(err, errlen, "%s: cannot create a temporary file in %s (%s); nothing was written", shown, dir,
                 strerror(errno));
        free(dir);
        return false;
    }
    bool ok = save_write_all(fd, data, len) && fsync(fd) == 0;
    if (!ok) {
        snprintf(err, errlen, "%s: %s; nothing was written", shown, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return false;
    }
    bool in_place = false;
    if (exists)
        in_place = old.st_nlink > 1 || !take_attributes(fd, &old, true);
    else
        take_attributes(fd, &old, false);
    if (in_place) {
        /* The complete new content is on disk in tmp first, so a failure below loses nothing. */
        if (!verify(fd, data, len)) {
            snprintf(err, errlen, "%s: the temporary copy did not read back; nothing was written", shown);
            close(fd);
            unlink(tmp);
            free(tmp);
            return false;
        }
        close(fd);
        bool restored;
        if (!write_in_place(real, data, len, &restored)) {
            if (restored)
                snprintf(err, errlen,
                         "%s: %s while writing in place; the old file is unchanged (the new content is in %s)", real,
                         strerror(errno), tmp);
            else
                snprintf(err, errlen, "%s: %s while writing in place; the complete new content is in %s", real,
                         strerror(errno), tmp);
            free(tmp);
            return false;
        }
        unlink(tmp);
        free(tmp);
        return true;
    }
    if (close(fd) != 0 || rename(tmp, real) != 0) {
        snprintf(err, errlen, "%s: %s; nothing was written", shown, strerror(errno));
        unlink(tmp);
        free(tmp);
        return false;
    }
    sync_dir(real);
    free(tmp);
    return true;
}

bool save_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
            return write_special(path, data, len, err, errlen);
        snprintf(err, errlen, "%s: %s; nothing was written", path,
                 S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file, a character device or a pipe");
        return false;
    }
    char *real = resolve_links(path);
    if (!real) {
        snprintf(err, errlen, "%s: %s; nothing was written", path, strerror(errno));
        return false;
    }
    bool ok = save_regular(path, real, data, len, err, errlen);
    free(real);
    return ok;
}
