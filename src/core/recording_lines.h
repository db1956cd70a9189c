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
    bool pcs_match;   /* every trace entry is at a PC some line holds (else the SASS page says so) */
    int64_t excess;   /* computed: the lines' measured excess and the unrecorded instructions' */
    double share;     /* computed: the time share the excess can explain, -1 unknown */
    const char *arch; /* the model that predicted the lines */
} record_lines;

/* Read the recording at path and check it against its trace: its counts bounded, its lines a
 * partition of the trace; each line and PC predicted with arch and every derived number
 * (predicted x blocks, excess, agreement, time share) computed, never read. 1 a recording (*out
 * owned, record_lines_free), 0 not one, -1 a recording that breaks a rule ("PATH:LINE:COL: why"
 * in err), -2 stopped by a signal (work_cancelled). */
int record_lines_load(const char *path, const banks_profile *arch, record_lines **out, char *err, size_t n);
void record_lines_free(record_lines *l);
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
