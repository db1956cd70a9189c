/* library: the files of patterns/ (and kernels/), embedded in the binary at build time by
 * src/embed.sh, so the pattern library works from any directory and after install. */
#ifndef BANKSCOPE_LIBRARY_H
#define BANKSCOPE_LIBRARY_H

#include <stddef.h>

typedef struct library_entry {
    const char *name;   /* file name without directory, e.g. "transpose-naive.json" */
    const char *text;   /* NUL-terminated contents */
    size_t len;
} library_entry;

/* Embedded pattern files, sorted by name. */
const library_entry *library_patterns(int *n);
/* Embedded kernel templates. */
const library_entry *library_kernels(int *n);
/* Text of the pattern called name ("transpose-naive" or "transpose-naive.json"), or NULL. */
const char *library_find(const char *name, size_t *len);
/* Text of the kernel template called name, or NULL. */
const char *library_kernel(const char *name);

#endif
