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

/* Import o->file. On IMPORT_OK *json is the scenario text (owned by the caller); skipped
 * accesses and notes have been printed to stderr as "file:line:col: skipped ...: reason".
 * Otherwise a message has been printed to stderr and *json is NULL. */
int import_run(const import_options *o, char **json);

#endif
