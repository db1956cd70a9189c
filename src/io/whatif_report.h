/* whatif_report: `sweep` output on a recording: per shared variable with conflicts, the layouts
 * the what-if model found (model/whatif.h), ranked, each with its declaration and its effect per
 * source line, as text and as JSON (bankscope-sweep/1, "recording": true). Reads finished
 * searches and writes to a FILE. */
#ifndef BANKSCOPE_WHATIF_REPORT_H
#define BANKSCOPE_WHATIF_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "io/recording.h"
#include "io/recording_arrays.h"
#include "model/scenario.h"
#include "model/whatif.h"

/* What the what-if prints: the recording, its regions and the searches of the regions with
 * conflicts (res[k] is the search of region searched[k]). */
typedef struct whatif_report {
    const scenario *s;
    const whatif_input *in;
    const recording_regions *g;
    const recording *rec;
    const char *file; /* the recording's path, as given */
    const whatif_result *res;
    const int *searched;
    int nsearched;
    int64_t wavefronts; /* the recording's total wavefronts (stated when nsearched is 0) */
} whatif_report;

/* The what-if as text. */
void whatif_report_text(const whatif_report *p, FILE *f);
/* The what-if as one JSON document; false with *why when the output cannot be written. */
bool whatif_report_json(const whatif_report *p, FILE *f, const char **why);

#endif
