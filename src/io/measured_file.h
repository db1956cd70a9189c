/* measured_file: reads what the recording library's measuring passes (src/record/record_measure.c)
 * write from inside a recorded program: "bankscope-measured/1" text, one record per line, tab-separated:
 *   bankscope-measured/1
 *   pass      count | time
 *   kernel    MANGLED-NAME          (absent when the chosen launch never came)
 *   launch    N
 *   grid      X Y Z
 *   block     X Y Z
 *   device    SMS  CLOCK-KHZ  NAME
 *   pc        HEX-OFFSET  SHARED(0|1)  WAVEFRONTS  IDEAL  INSTRUCTIONS  LINE  FILE   (count pass)
 *   duration_ns N                                                               (time pass)
 *   error     REASON                (nothing was measured, and why)
 *   end
 * A file without "end" is incomplete (the program died while it was written) and refused.
 * Ownership: measured_file owns its strings and its pcs until measured_file_free. */
#ifndef BANKSCOPE_MEASURED_FILE_H
#define BANKSCOPE_MEASURED_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/load.h"
#include "model/measured.h"

typedef struct {
    bool count_pass; /* "count" (else "time") */
    char *kernel;    /* mangled name, NULL when absent */
    long launch;
    unsigned grid[3], block[3];
    int sms, clock_khz; /* 0 when absent */
    char *device;       /* NULL when absent */
    measured_pc *pcs;   /* count pass, sorted as written (by pc) */
    uint32_t *lines;    /* per pc: source line from CUPTI (0: none) */
    char **files;       /* per pc: source file from CUPTI (NULL: none) */
    size_t npcs;
    bool has_duration;
    uint64_t duration_ns;
    char *error; /* the run's reason for measuring nothing, NULL when it measured */
} measured_file;

/* Reads path; false with "path:line: message" when it is missing, incomplete or malformed. */
bool measured_file_read(const char *path, measured_file *out, io_error *err);

/* Parses text (len bytes) named name in messages; as measured_file_read. */
bool measured_file_parse(const char *text, size_t len, const char *name, measured_file *out, io_error *err);

void measured_file_free(measured_file *f);

#endif
