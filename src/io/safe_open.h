/* safe_open: opening a file that another file names (a recording's lines[].file, a trace entry's
 * source, a scenario's location, a lesson step's pattern). Such a name comes from whoever wrote
 * the file, so it may point anywhere: /etc/shadow, /proc/self/environ, ../.ssh/id_rsa, a FIFO,
 * /dev/tty, /proc/kmsg (a "regular" file of size 0 whose read blocks). Every such open goes
 * through here:
 *  - safe_named_path: the name is resolved (realpath, so no symbolic link or ".." escapes) under
 *    one of the folders the user chose (the opened file's folder, --source DIR); never under
 *    /proc, /dev or /sys; and its name ends with one of the extensions given (source files, or
 *    .json for lesson steps);
 *  - safe_read_capped: opened O_NONBLOCK | O_NOCTTY (nothing blocks, no terminal is taken), a
 *    regular file only (checked on the open descriptor), read up to a hard byte cap that never
 *    trusts st_size.
 * Messages are one short line ("outside the recording's folder"), fit for "not opened: ...". */
#ifndef BANKSCOPE_SAFE_OPEN_H
#define BANKSCOPE_SAFE_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Why a named file was not opened, worst last (safe_named_path keeps the worst of its roots'). */
typedef enum safe_refusal {
    SAFE_OK = 0,
    SAFE_NOT_FOUND,   /* no such file */
    SAFE_NOT_SOURCE,  /* its name does not end with an accepted extension */
    SAFE_NOT_REGULAR, /* a folder, FIFO, device or socket */
    SAFE_SPECIAL,     /* under /proc, /dev or /sys */
    SAFE_OUTSIDE,     /* outside every folder allowed ("..", an absolute path, a symbolic link) */
} safe_refusal;

/* The extensions of source files a recording or an import may name (".cu", ".cuh", ".h", ...);
 * NULL-terminated. */
extern const char *const safe_source_exts[];

/* Where name (taken from a file) may be read: resolved against each of roots (folders, nroots
 * of them; a relative name is joined to the root, an absolute one must lie inside it), the real
 * path into out (n bytes) and the root's index into *which (may be NULL). False with the reason
 * in *why (may be NULL). A name
 * outside every root is decided from its spelling when it can be (nothing outside is touched). */
bool safe_named_path(const char *name, const char *const *roots, int nroots, const char *const *exts, char *out,
                     size_t n, safe_refusal *why, int *which);
/* The whole content of the regular file path, at most cap bytes, NUL-terminated (*len bytes
 * before the NUL). Opened without blocking and without taking a terminal; a FIFO, device,
 * folder or socket is refused on the open descriptor; a file of more than cap bytes is refused
 * whatever its st_size says; a read that would block (EAGAIN) is an error. NULL with a one-line
 * reason in why (n bytes). */
char *safe_read_capped(const char *path, size_t cap, size_t *len, char *why, size_t n);
/* path opened for reading as safe_read_capped opens it (without blocking or taking a terminal, a
 * regular file only, never under /proc, /dev or /sys), for a caller that reads it in pieces; NULL
 * with a one-line reason in why. */
FILE *safe_fopen_regular(const char *path, char *why, size_t n);
/* True when text (len bytes) looks like text: no NUL byte and no other C0 control but tab,
 * newline, carriage return and form feed. */
bool safe_is_text(const char *text, size_t len);

#endif
