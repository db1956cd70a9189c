/* recording_sass: the SASS page of a recording, one row per instruction (recording_sass.c says what a
 * row holds): `analyze REC --sass` prints it, `analyze REC --json` holds it as "sass". */
#ifndef BANKSCOPE_CORE_RECORDING_SASS_H
#define BANKSCOPE_CORE_RECORDING_SASS_H

#include <stdio.h>

#include "core/recording_lines.h"

struct jsonw;

/* A recording's SASS page (L read and predicted by record_lines_load, with the model analyze
 * used) as a table ending with the rows' totals; nothing when L is NULL (not a recording). */
void record_sass_report(const record_lines *L, FILE *out);
/* For analyze --json (ctx: a record_lines_ctx): the member "sass" when the file is a recording. */
void record_sass_json(struct jsonw *w, void *ctx);

#endif
