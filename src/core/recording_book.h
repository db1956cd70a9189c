/* recording_book: a capture and its kernel's disassembly -> the recording, a trace file with
 * source lines ("format": "bankscope-record/1", schemas/bankscope-record-1.schema.json), and the
 * per-line summary `bankscope record` prints. Every number comes from the one walk over the
 * captured warp-instructions (core/line_sums.h: banks_analyze on the captured addresses); nothing
 * is measured here. */
#ifndef BANKSCOPE_CORE_RECORDING_BOOK_H
#define BANKSCOPE_CORE_RECORDING_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/recording_capture.h"

/* One source line of the recorded kernel (file NULL: the PCs without line info). */
typedef struct record_line {
    const char *file; /* owned by the record_sass */
    int line;
    char *text; /* owned; NULL when the source file cannot be read */
    int64_t *instr;
    int64_t ninstr, room; /* trace entries of the line */
    int64_t wavefronts, ideal_wavefronts;
    int degree;         /* worst conflict degree */
    int64_t unmodelled; /* captured warp-instructions of kinds the model does not cover */
} record_line;

/* A SASS instruction of the kernel and what was captured at it. */
typedef struct record_pc {
    uint64_t pc;
    const record_sass_line *sass; /* NULL: not in the listing */
    int line;                     /* index into lines */
    int64_t executions;
    const char *problem; /* NULL: modelled; else why not (static text) */
    bool traced;         /* with a problem: kept in the trace all the same (a kind files name,
                            cp.async.cg), where analyze counts it as not modelled */
    bool measured_only;  /* no callback came (wgmma operands, TMA): no execution recorded, the
                            count pass measures it on its line */
} record_pc;

typedef struct record_book {
    const record_capture *cap;
    const record_sass *sass;
    const char *arch; /* the profile the prediction uses */
    record_line *lines;
    int nlines;
    record_pc *pcs;
    int npcs;
    int64_t ntrace;               /* entries that became trace entries */
    int64_t *trace_index;         /* per capture entry: its trace index, -1 when not modelled */
    record_sass_line **invisible; /* TMA and wgmma instructions of the kernel (no callback) */
    int ninvisible;
    const struct cubin_shared *shared; /* the kernel's static shared memory from its cubin; NULL:
                                          not read (no "arrays" in the recording) */
} record_book;

/* Group the capture by PC and source line and predict every line. false with why when the
 * device has no bank model. */
bool record_book_build(record_book *b, const record_capture *c, const record_sass *s, char *why, size_t n);
void record_book_free(record_book *b);
/* At most how many bytes of a source file are read for the text of one of its lines. */
#define RECORD_SOURCE_MAX (64 << 20)
/* A copy of a source line's text that the readers accept: cut on a character boundary to at most
 * TRACE_MAX_STRING (1 MiB) bytes, ending with an ellipsis ("…") when it was cut. */
char *record_cut_text(const char *text);

struct record_measured;

/* The recording's "arrays": the static shared variables of the cubin (or its static shared
 * memory as one region when the names are stripped) and, past them, the dynamic shared memory as
 * one region reaching the last recorded byte there. */
struct jsonw;
void record_arrays_json(struct jsonw *w, const record_book *b);

/* Write the recording to out. argv: the program and its arguments (argc of them); m: what the
 * hardware measured (recording_measured.h), NULL when nothing was measured. */
void record_book_json(const record_book *b, const struct record_measured *m, const char *const *argv, int argc,
                      FILE *out, bool *ok, const char **why);

/* One row of analyze's per-line table (recording_lines.h) and of record's summary (file NULL: the PCs without line
 * info), and the header above the rows. */
void record_row_print(FILE *out, const char *file, int64_t line, const char *text, int64_t instrs, int64_t wavefronts,
                      int64_t ideal, int64_t degree, int64_t unmodelled, const char *kind);
void record_row_header(FILE *out);

/* The summary on stdout: the launch, one row per source line, what was not modelled. */
void record_book_print(const record_book *b, FILE *out);

#endif
