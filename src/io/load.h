/* load: scenario and trace files (JSON) -> a finished scenario. Scenarios (small: at most
 * LOAD_MAX_SCENARIO_BYTES) are parsed with cJSON; traces are read by trace_stream without a tree.
 * Every problem becomes an io_error naming the file, the line and column, and the JSON path;
 * for expressions the column points at the offending character. Never crashes on bad input. */
#ifndef BANKSCOPE_LOAD_H
#define BANKSCOPE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/scenario.h"

#define LOAD_MAX_BYTES (256 << 20)         /* a file read whole (not a trace in a regular file) */
#define LOAD_MAX_SCENARIO_BYTES (16 << 20) /* a scenario or lesson (parsed into a tree) */
#define LOAD_MAX_TRACE                                                                                                 \
    (1 << 20) /* instructions of a trace held in memory; `analyze`                                                     \
                 streams traces of any length instead */

typedef struct io_error {
    char text[640]; /* "file:line:col: path: message", one line */
} io_error;

/* The loader refuses a scenario whose expressions fail (division by zero, overflow, bad shift)
 * for a lane of one of its first warp-instructions, as many as LOAD_EVAL_CHECK_LANE_OPS lane
 * evaluations allow (the unit of work.h's estimates: a few tenths of a second, whatever the
 * file holds); later ones are only reported per lane ("expression error"). */
#define LOAD_EVAL_CHECK_LANE_OPS ((int64_t)100000000)
/* That check: false with the path, the expression offset and "division by zero for thread
 * (3,0,0)" for the first failing lane. The view's expression editor runs it too, so that an
 * edit is refused exactly where a saved file would be; a background thread runs
 * load_check_eval_job on its own copy of the scenario, which stops when *cancel is set. */
bool load_check_eval(const scenario *s, scenario_error *se);
scenario_check load_check_eval_job(const scenario *s, const atomic_int *cancel, scenario_error *se);
/* The file format's own limits (names of at most 63 characters and not reserved, strings of at
 * most 4096, loop bounds within 2^40, dims, padding, base, block and warps in range) on a
 * scenario in memory, as the loader would refuse its saved form; false with the path the loader
 * would name and its message (expr_pos -1). Traces are not checked. */
bool load_check_limits(const scenario *s, scenario_error *se);
/* Load and finish a scenario from JSON text; name is used in messages. */
/* arch, when not NULL, replaces the file's architecture (before validation). */
bool load_scenario_text(const char *text, size_t len, const char *name, const char *arch, scenario *out, io_error *err);
/* Read a file (a pattern name such as "transpose-naive" is looked up in the library). */
bool load_scenario_file(const char *path, const char *arch, scenario *out, io_error *err);
/* load_scenario_file that also keeps a recording's members (rec not NULL): read in the same pass
 * as its trace (trace_stream_open_keep), into *rec (a new document, one reference held for the
 * caller) when the file is a recording, else *rec NULL. A recording whose members break a rule
 * still loads as a trace: *rec then says why (rc -1). */
struct recording_doc;
bool load_scenario_file_doc(const char *path, const char *arch, scenario *out, struct recording_doc **rec,
                            io_error *err);
/* The same for a trace in a regular file only: 1 loaded, 0 not a trace (nothing read beyond its
 * first members; load it as anything else), -1 an error in err. */
int load_trace_file(const char *path, const char *arch, scenario *out, struct recording_doc **rec, io_error *err);
/* The text of source: a file, or else a library name. *owned tells whether the caller must free
 * it (a file's copy) or not (the embedded library). NULL with a message on failure. */
const char *load_source_text(const char *source, size_t *len, bool *owned, io_error *err);
/* Open a document (a scenario, trace or recording) for reading: fopen(path, "rb"), counted. Every
 * reader of a document opens it here, so that a test can check that one command reads a file
 * once (load_opens). */
FILE *load_fopen(const char *path);
/* Documents opened for reading by load_fopen so far in this process. */
long load_opens(void);
/* Read a whole file into a NUL-terminated buffer; NULL with a message on failure. */
char *load_read_file(const char *path, size_t *len, io_error *err);

#endif
