/* recording_sass: the SASS page of a recording, one row per instruction (recording_sass.c says what a
 * row holds): `analyze REC --sass` prints it, `analyze REC --json` holds it as "sass". */
#ifndef BANKSCOPE_CORE_RECORDING_SASS_H
#define BANKSCOPE_CORE_RECORDING_SASS_H

#include <stdio.h>

#include "model/banks.h"

struct jsonw;

/* When the file at path is a recording, its SASS page predicted with arch (the model analyze
 * used) as a table ending with the rows' totals; nothing otherwise. */
void record_sass_report(const char *path, const banks_profile *arch, FILE *out);
/* For analyze --json (ctx: a record_lines_ctx): the member "sass" when the file is a recording. */
void record_sass_json(struct jsonw *w, void *ctx);

#endif
