/* import: CUDA source -> scenario JSON. Parses a .cu file with libclang (no CUDA installation
 * needed: a built-in prelude declares what the kernel uses), finds the kernel's __shared__ arrays
 * and every load and store of them, and translates their indexes into bankscope's expression
 * language: the scenario is built through the model (its expressions node by node, expr_pool)
 * and checked with the model's own checks, and the JSON is the scenario saver's. What cannot be
 * expressed, or what the model refuses, is never guessed: it is reported as skipped, with the
 * file:line:col of the access and the reason.
 *
 * Built without libclang, import_available() is false and import_run fails with a message. */
#ifndef BANKSCOPE_IMPORT_H
#define BANKSCOPE_IMPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "../util.h"

#define IMPORT_MAX_DEFINES 64
#define IMPORT_MAX_INCLUDES 32
#define IMPORT_MAX_FILE_BYTES (4 << 20) /* larger sources are refused, not parsed */

typedef struct import_define {
    const char *name; /* borrowed from argv */
    const char *value;
} import_define;

typedef struct import_options {
    const char *file;   /* the .cu file */
    const char *kernel; /* NULL: the only __global__ function of the file */
    int block[3];       /* threads per block; block[0] == 0: not given */
    int64_t smem_bytes; /* dynamic shared memory for extern arrays; -1: not given */
    int loop_line;      /* the loop to import (its line); 0: the first with accesses */
    int timeout_s;      /* parse limit in seconds */
    import_define defines[IMPORT_MAX_DEFINES];
    int ndefines;
    const char *includes[IMPORT_MAX_INCLUDES];
    int nincludes;
} import_options;

/* Exit statuses of import_run (the CLI's contract). */
enum { IMPORT_OK = 0, IMPORT_FAIL = 1, IMPORT_BAD_INPUT = 2 };

/* Whether this build can import (libclang was found at configure time). */
bool import_available(void);

/* One message of the walk about the source: an access (or array) it did not import, or a note
 * (a loop left out, a name the file does not give). */
typedef struct import_skip {
    char *file;    /* as the message names it: the source's base name, or a header's */
    int line, col; /* col 0: the message names a line only */
    bool skipped;  /* something was not imported; false: a note */
    char *text;    /* the whole message, "FILE:LINE:COL: skipped OP of 'ARRAY': REASON" */
} import_skip;

/* What an import gives back: the scenario (in its file form, as every scenario is saved) and
 * the walk's messages in the order of their places. All owned. */
typedef struct import_result {
    char *json;         /* NULL unless the import succeeded */
    import_skip *skips; /* never NULL after import_run */
    int nskips, cap;    /* cap: room in skips, which grows by doubling */
} import_result;

/* Import o->file into *r. The messages (r->skips among them) have also been printed to stderr
 * as they came. On IMPORT_OK r->json is the scenario text; otherwise it is NULL. */
int import_run(const import_options *o, import_result *r);
void import_result_free(import_result *r);

#endif
