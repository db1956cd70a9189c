/* sweep_report: `sweep` output on a scenario: the padding table, the layout searches and the
 * alternatives as text, and the same as JSON (format bankscope-sweep/1). Reads a finished
 * advisor result (model/advisor.h) and writes to a FILE; it computes nothing. */
#ifndef BANKSCOPE_SWEEP_REPORT_H
#define BANKSCOPE_SWEEP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/advisor.h"
#include "model/scenario.h"

/* What a sweep prints: the scenario, its sweep, and per row the measured and predicted cycles
 * (-1 where not measured or not predicted). */
typedef struct sweep_report {
    const scenario *s;
    const advisor_result *r;
    const double *measured;  /* r->nrows entries */
    const double *predicted; /* r->nrows entries */
    const char *file;        /* the title when the scenario has no name */
    int max_pad;
    int64_t idle; /* warp-instructions that no lane issues */
    bool all;     /* every row of the table */
    bool measure; /* the measured columns */
} sweep_report;

/* The sweep as text. */
void sweep_report_text(const sweep_report *p, FILE *f);
/* The sweep as one JSON document; false with *why when the output cannot be written. */
bool sweep_report_json(const sweep_report *p, FILE *f, const char **why);

#endif
