/* recording_lines: a recording (bankscope record, "format": "bankscope-record/1") read once, for
 * analyze: its lines, each line's SASS instructions (PCs) with their inline chains and what the
 * count run measured at each, the launch's measurements and the kinds it did not model or record.
 * Every line and every PC is predicted again from the trace, in one walk (core/line_sums.h), with
 * the model analyze uses; the per-line table (record_lines_print, record_lines_json) and the SASS
 * page (recording_sass.h) print from this one struct.
 *
 * A recording is checked, not trusted: every count is an integer within what a real recording
 * can hold, the lines' trace indexes partition the trace, and nothing derived is read from the
 * file (each line's prediction, predicted x blocks, excess and agreement, the launch's excess and
 * time share are computed).
 *
 * Ownership: a record_lines owns every string and array it points to (record_lines_free). */
#ifndef BANKSCOPE_CORE_RECORDING_LINES_H
#define BANKSCOPE_CORE_RECORDING_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/line_sums.h"
#include "io/recording.h"
#include "model/banks.h"
#include "model/measured.h"

/* One source line of the recording and what is computed of it (the strings borrowed from the
 * recording). */
typedef struct record_lines_row {
    const char *file, *text; /* file NULL: the PCs without line info */
    int64_t line, instrs, wavefronts, ideal, degree, unmodelled;
    char kind[32]; /* the first not-modelled kind of its PCs ("cp.async.cg"), or "" */
    /* what the hardware counted (the line's "measured", "agree", "agree_why") */
    bool measured;
    measured_counts mc;
    int64_t excess, expected; /* computed (record_lines_load), never read */
    measured_agree agree;
    measured_why why;
    bool unmodelled_now; /* an instruction of the line is not modelled by the model in use, or is
                            measured only (TMA, wgmma: no addresses recorded) */
    bool second_differs; /* the second recorded block predicts differently on this line (its trace is
                            not in the recording: the one fact of agreement taken from the file) */
} record_lines_row;

typedef struct record_lines {
    recording rec;          /* the recording as read (io/recording.h), once */
    record_lines_row *rows; /* parallel to rec.rows */
    int n;
    const recording_pc **pcs; /* every line's PCs (rec's), by pc */
    line_sum *pc_sums;        /* each one's prediction again, from its trace entries */
    int npcs;
    bool pcs_match;                 /* every trace entry is at a PC some line holds (else the SASS page says so) */
    int64_t excess;                 /* computed: the lines' measured excess and the unrecorded instructions' */
    double share;                   /* computed: the time share the excess can explain, -1 unknown */
    const char *arch;               /* the model that predicted the lines */
    struct record_lines_walk *walk; /* the prediction under way (record_lines_feed) */
} record_lines;

/* Read the recording at path and check it against its trace: its counts bounded, its lines a
 * partition of the trace; each line and PC predicted with arch and every derived number
 * (predicted x blocks, excess, agreement, time share) computed, never read. 1 a recording (*out
 * owned, record_lines_free), 0 not one, -1 a recording that breaks a rule ("PATH:LINE:COL: why"
 * in err), -2 stopped by a signal (work_cancelled). */
int record_lines_load(const char *path, const banks_profile *arch, record_lines **out, char *err, size_t n);
void record_lines_free(record_lines *l);
/* The same in the caller's one pass over the trace (analyze's: the report and the lines from one
 * stream): record_lines_begin takes over rec (read with its trace indexes: TRACE_KEEP_INDEXES),
 * checks that no entry is in two lines and readies the sums (1, or -1 with "PATH:LINE:COL: why"
 * and nothing in *out); record_lines_feed adds the trace's next entry (its "pc", its request and
 * its result by the engine analyze uses, or NULL: predicted here), checking that it is in a line; record_lines_end, at
 * the trace's end, checks that no index is past it and computes every derived number (1, or -1 with err).
 * record_lines_error: the first broken rule so far, NULL: none. */
int record_lines_begin(recording *rec, const char *path, const banks_profile *arch, record_lines **out, char *err,
                       size_t n);
void record_lines_feed(record_lines *L, int64_t pc, const banks_request *req, const banks_result *res);
int record_lines_end(record_lines *L, char *err, size_t n);
const char *record_lines_error(const record_lines *L);
/* analyze's recording, read and predicted in the passes of its instr_source (io/instr_source.h),
 * so that the file is read once: its members in the pass over the trace that opens it
 * (instr_source_open_keep with TRACE_KEEP_INDEXES and record_lines_on_check), its lines predicted
 * in the checking pass (predict) or else in the report's walk (record_lines_observe, with the
 * result the report's engine gave each instruction). */
struct instr_source;
struct trace_stream;
struct report_lanes;
typedef struct record_lines_pass {
    const char *path;
    bool predict;                   /* the checking pass predicts the lines (else the report's walk) */
    const struct instr_source *src; /* the report's source (record_lines_observe: the entry's pc) */
    record_lines *lines;            /* begun (rc 1) */
    int rc;                         /* 0 none (not a recording, or its lines after the trace), 1 begun,
                                       -1 err, -2 stopped by a signal */
    char err[800];
} record_lines_pass;
/* An instr_source_check_fn (ctx: a record_lines_pass). */
void record_lines_on_check(void *ctx, struct trace_stream *ts, int64_t k, const banks_request *r);
/* A report_visit_fn for report_options.observe (ctx: a record_lines_pass). */
void record_lines_observe(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r,
                          const struct report_lanes *b);
/* The kind PC i of L is when it is not predicted (a kind the model does not cover, or measured
 * only), into buf; "" when it is predicted or has no such kind. */
const char *record_lines_pc_kind(const record_lines *L, int i, char *buf, size_t n);
/* A loud line when it was truncated, the kinds it did not model or record, and its lines as a
 * table ending with their total, then what was measured beside the computed numbers. */
void record_lines_print(const record_lines *l, FILE *out);
/* What analyze --json's recording members read (record_lines_json, record_sass_json). */
typedef struct record_lines_ctx {
    const record_lines *lines; /* the recording, read and predicted (record_lines_load); NULL: not one */
} record_lines_ctx;
/* For analyze --json (ctx: a record_lines_ctx): the members "capture" (executed,
 * captured, truncated and its warning), "not_modelled_kinds" and "not_recorded_kinds" (kind,
 * count, why), "source_lines" (each line predicted, and measured), "measured" and "measured_why".
 * The signature of report_options.json_extra. */
struct jsonw;
void record_lines_json(struct jsonw *w, void *ctx);

#endif
