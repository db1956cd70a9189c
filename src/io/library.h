/* library: the pattern library. The files of patterns/ (and kernels/) are embedded in the binary
 * at build time by src/embed.sh, so the library works from any directory and after install.
 * Besides them, patterns and lessons are read from two folders (the catalog is built once, on
 * first use, and kept for the life of the process):
 *   installed: $BANKSCOPE_DATADIR/patterns, default $(pkgdatadir)/patterns (a copy identical to
 *              the built-in file of the same name is the built-in one);
 *   user:      $XDG_DATA_HOME/bankscope/patterns, default ~/.local/share/bankscope/patterns.
 * A file whose name is already in the catalog replaces that entry (user over installed over
 * built-in) and is marked as shadowing it. Only regular *.json files up to 1 MiB are listed. The
 * catalog holds names and paths, never the files' contents: a file is read when it is used
 * (load_source_text), its name, title and description cheaply by library_head, so memory does
 * not grow with the folders. */
#ifndef BANKSCOPE_LIBRARY_H
#define BANKSCOPE_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum library_source { LIBRARY_BUILTIN, LIBRARY_INSTALLED, LIBRARY_USER } library_source;

typedef struct library_entry {
    const char *name;      /* file name without directory, e.g. "transpose-naive.json" */
    const char *text;      /* NUL-terminated contents of a built-in entry; NULL for a file (see path) */
    size_t len;            /* bytes of text, or of the file when it was listed */
    library_source source; /* built-in for the embedded tables */
    const char *path;      /* the file read (NULL for built-in entries) */
    bool shadows;          /* replaces an entry of the same name from a lower source */
} library_entry;

/* The catalog of patterns and lessons (built-in, installed and user), sorted by name. */
const library_entry *library_patterns(int *n);
/* Text of the built-in pattern called name ("transpose-naive" or "transpose-naive.json"), or NULL
 * (also for a file of the folders: read it at its entry's path). */
const char *library_find(const char *name, size_t *len);
/* The catalog entry called name (as library_find), or NULL. */
const library_entry *library_entry_find(const char *name);
/* Text of the kernel template called name, or NULL. */
const char *library_kernel(const char *name);
/* The folder read for source (installed or user) into buf; NULL when there is none (no HOME). */
const char *library_dir(library_source source, char *buf, size_t n);
/* What `list` and the picker show of an entry, read without loading it: the top-level "name"
 * (a lesson's "lesson"), "description" and "arch", and a lesson's step count, taken by streaming
 * the file and skipping every other value. Owns its strings. */
typedef struct library_head {
    char *title, *description, *arch; /* NULL when absent */
    bool lesson;
    int steps;
    char problem[400]; /* non-empty when the file is malformed there: "FILE:LINE:COL: ..." */
} library_head;
/* Read e's head; false (with problem set) when the file cannot be read or is malformed. */
bool library_head_read(const library_entry *e, library_head *h);
void library_head_free(library_head *h);
/* "built-in", "installed" or "user". */
const char *library_source_text(library_source source);

#endif
