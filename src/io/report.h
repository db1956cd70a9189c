/* report: `analyze` output. Text (a per-lane table like a textbook, grouped summaries, totals)
 * and JSON (the documented contract: one object per warp-instruction, struct layouts, totals).
 * Writes to a FILE; reads a finished scenario; every number printed is the model's prediction. */
#ifndef BANKSCOPE_REPORT_H
#define BANKSCOPE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "io/jsonw.h"
#include "model/scenario.h"

struct report_options;

/* Totals over a scenario's warp-instructions (added up by the core's analysis, core/analysis.h). */
typedef struct report_totals {
    int64_t instructions; /* every warp-instruction built, idle ones included */
    int64_t idle;         /* of those, the ones no lane issues (scenario_instr_idle) */
    int64_t wavefronts, ideal, conflicts;
    int64_t not_modelled; /* instructions of a kind the model does not cover (in instructions only) */
    int worst_degree;
    int64_t worst_seq;
    scenario_excluded excluded; /* the lanes left out */
} report_totals;

/* What a report reads of one instruction's lanes: its excluded lanes and whether it is idle. */
typedef struct report_lanes {
    scenario_excluded ex;
    bool idle;
} report_lanes;

/* Called with each warp-instruction of a walk, its predicted result and its lanes. */
typedef void (*report_visit_fn)(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r,
                                const report_lanes *b);

/* The analysis a report prints (the core's, core/analysis.h: io does not analyse). */
typedef struct report_engine {
    /* Walk the instructions o selects, calling fn with each one's result and adding it to *t
     * (zeroed first); brief: fn reads only the requests and the lanes' states. */
    void (*walk)(const scenario *s, const struct report_options *o, bool brief, report_visit_fn fn, void *ctx,
                 report_totals *t);
    /* The worst degree over every warp of the block and a warp that has it; false when the block
     * is too big to go through or s is a trace. */
    bool (*worst_all_warps)(const scenario *s, int *worst, int *warp);
} report_engine;

typedef struct report_options {
    const report_engine *engine; /* the analysis (required) */
    bool all_lanes;              /* text: a lane table for every warp-instruction, not only the first */
    int warp;                    /* -1: the scenario's selection; else only this warp */
    bool summary;                /* text: totals only */
    struct instr_source *source; /* where the instructions come from (a streamed trace, say);
                                    NULL: built from the scenario with warp */
    /* JSON: members the caller adds at the end of the top-level object (a recording's source
     * lines), NULL: none */
    void (*json_extra)(struct jsonw *w, void *ctx);
    void *json_extra_ctx;
    /* called with every instruction walked, after the report's own visit, so that the same walk
     * adds it up elsewhere too (a recording's lines); NULL: none */
    report_visit_fn observe;
    void *observe_ctx;
} report_options;

/* The format tag of `analyze --json` (fields are only ever added within a version). */
#define REPORT_ANALYZE_FORMAT "bankscope-analyze/1"

void report_text(FILE *out, const scenario *s, const report_options *o);
/* Stream the JSON report to out; false on a write error, with the reason in *why. */
bool report_json(FILE *out, const scenario *s, const report_options *o, const char **why);
/* The kind of r as analyze --json and measure --json write it: "op", then "matrices"/"trans",
 * "atomic"/"returns" or "cache" as the kind takes them (kinds.h). */
void report_json_kind(jsonw *w, const banks_request *r);
/* Text for a lane's banks: "5" or "4-7" for wide accesses. */
void report_banks_text(const banks_profile *p, int64_t addr, int width, char *buf, size_t n);
/* "24 misaligned, 2 out of bounds" for the non-zero counts of e ("" when none). */
const char *report_excluded_text(const scenario_excluded *e, char *buf, size_t n);
/* The one vocabulary of verdicts, for every view (analyze, the TUI's title, result panel and
 * source gutter, the per-line tables, SVG): a conflict degree as "32-way", 1 as "conflict-free",
 * 0 (no lane served) as "no active lane". Prose adds "conflict" ("32-way conflict"); where lanes
 * are left out the verdict says so first and is never "conflict-free" alone. */
const char *report_degree_text(int degree, char *buf, size_t n);

#endif
