/* jsonpos: find where a value sits in JSON text, for error messages.
 * cJSON keeps no positions, so this walks the raw text along a path such as
 * "accesses[2].index[1]" and reports the 1-based line and column of that value (or of the
 * deepest part of the path that exists). Pure; reads only its arguments. */
#ifndef BANKSCOPE_JSONPOS_H
#define BANKSCOPE_JSONPOS_H

#include <stddef.h>

typedef struct jsonpos {
    size_t offset; /* byte offset of the value */
    int line, col; /* 1-based */
    int found;     /* 1 when the whole path was found */
} jsonpos;

/* Locate path in text (len bytes). An empty path is the top-level value. */
jsonpos jsonpos_locate(const char *text, size_t len, const char *path);
/* Offset of the first byte at or after offset that is not JSON whitespace; len when none (what
 * follows a parsed document must be whitespace only). */
size_t jsonpos_skip_ws(const char *text, size_t len, size_t offset);
/* Line and column of a byte offset. */
void jsonpos_line_col(const char *text, size_t offset, int *line, int *col);

#endif
