/* diff_report: `diff` output: two files' lines side by side, each with its predicted and measured
 * wavefronts in A and in B and the change, as a table and as JSON (format bankscope-diff/1).
 * Reads a finished diff (core/diff_lines.h) and writes to a FILE. */
#ifndef BANKSCOPE_DIFF_REPORT_H
#define BANKSCOPE_DIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/diff_lines.h"

/* What a diff prints: the matched lines and the two files' names as given. */
typedef struct diff_report {
    const diff_result *d;
    const char *a, *b;
} diff_report;

/* The diff as a table. */
void diff_report_text(const diff_report *p, FILE *f);
/* The diff as one JSON document; false with *why when the output cannot be written. */
bool diff_report_json(const diff_report *p, FILE *f, const char **why);

#endif
