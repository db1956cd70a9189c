/* recording_measured: the measured side of `bankscope record`: what the hardware counted over the
 * whole chosen launch, per source line of the recording, beside the prediction from the captured
 * block. The command runs the program twice more after the capture, with the recording library's
 * "count" pass (CUPTI SASS metrics per instruction: L1 wavefronts shared, ideal, executions) and its
 * "time" pass (the launch's GPU duration in a run where nothing is patched); the capture run, when
 * the grid has more than one block, also captured a second block (the last, or the first when the
 * last is the chosen one) to establish block invariance. This module reads what they wrote and joins it to the
 * recording's lines (model/measured.h has the rule), for the JSON and the printed summary.
 *
 * Ownership: record_measured owns its files and arrays (record_measured_free); it borrows the books.
 * A recording without measured numbers has have == false and why saying so in one line. */
#ifndef BANKSCOPE_CORE_RECORDING_MEASURED_H
#define BANKSCOPE_CORE_RECORDING_MEASURED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/recording_book.h"
#include "io/jsonw.h"
#include "io/measured_file.h"
#include "model/measured.h"

typedef struct record_measured {
    bool have;     /* the count pass measured the launch */
    char why[512]; /* when not, why (one line) */
    measured_file count, time;
    bool have_time;
    char time_why[512];   /* when no duration, why */
    measured_line *lines; /* parallel to the book's lines */
    uint32_t *pcs;        /* the lines' pcs (lines[i].pcs point here) */
    int nlines;
    uint64_t blocks; /* blocks of the launch */
    bool second;     /* a second block was recorded */
    uint32_t second_block[3];
    bool invariant;          /* every line predicts the same for both blocks */
    bool async_fill;         /* the kernel has cp.async/TMA fills of shared memory */
    int64_t excess;          /* measured excess wavefronts of the launch (all shared instructions) */
    double share;            /* upper bound of the time share the excess explains, -1 unknown */
    measured_pc *unrecorded; /* shared instructions with wavefronts that no recorded line holds */
    int nunrecorded;
    char launch_note[256]; /* when the runs saw different launches, which run each number is from */
} record_measured;

/* Reads DIR/count.txt and DIR/time.txt (absent or failed: have false, why) and joins them to the
 * book's lines; second (NULL: none recorded) is the book of the second block. */
void record_measured_build(record_measured *m, const record_book *b, const record_book *second, const char *dir);

/* Nothing measured, for why (one line). */
void record_measured_none(record_measured *m, const record_book *b, const char *why);

/* The line's members of the recording: "measured" (object or null), "agree", "agree_why". */
void record_measured_json_line(jsonw *w, const record_measured *m, int line);

/* The three members of a measured line: "measured" (the counts, excess and the prediction x
 * blocks), "agree" and "agree_why" (why NULL: null). */
void record_measured_json_counts(jsonw *w, const measured_counts *c, int64_t excess, uint64_t expected,
                                 measured_agree agree, const char *why);

/* The recording's top-level "measured" member (object or null) and "measured_why". */
void record_measured_json(jsonw *w, const record_measured *m);

/* The printed summary: per line measured beside predicted x blocks, the agreement, the duration
 * and the time share the excess can explain; or the one line saying why nothing was measured. */
void record_measured_print(const record_measured *m, const record_book *b, FILE *out);

/* Width of the tables' "line" column. */
#define RECORD_WHERE_WIDTH 28
/* A table's "line" cell: "file:line" (the file's base name) in at most RECORD_WHERE_WIDTH
 * characters, a longer one cut at its start after "..." (the line number stays); or
 * "(no line info)". */
void record_where(const char *file, int64_t line, char *buf, size_t n);

/* Pieces of that summary, shared with analyze's table of a recording (recording_lines.c): the
 * header, one line's row, a disagreeing line's reason, and the kernel time with the share the
 * excess can explain (duration_ns NULL: none, time_why says why). */
void record_measured_header(FILE *out, uint64_t blocks);
void record_measured_row(FILE *out, const char *file, int64_t line, const measured_counts *c, int64_t excess,
                         uint64_t expected, measured_agree agree);
void record_measured_flag(FILE *out, const char *file, int64_t line, const char *why);
void record_measured_time(FILE *out, int64_t excess, const uint64_t *duration_ns, double share, int sms, int clock_khz,
                          const char *time_why);

void record_measured_free(record_measured *m);

#endif
