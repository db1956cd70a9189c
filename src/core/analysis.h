/* analysis: the one walk over a scenario's (or a streamed trace's) warp-instructions that
 * predicts each one with the model (banks_analyze, each repeated request once) and adds it to
 * the totals. `analyze`'s report (io/report.h takes it as its engine) and the TUI's totals job
 * both take their numbers from it, so the two are the same numbers by construction. */
#ifndef BANKSCOPE_CORE_ANALYSIS_H
#define BANKSCOPE_CORE_ANALYSIS_H

#include <stdatomic.h>
#include <stdbool.h>

#include "io/report.h"
#include "model/scenario.h"

/* Progress and cancellation of a walk run off the key path (either may be NULL). */
typedef struct analysis_progress {
    atomic_int *cancel; /* set: the walk stops within 256 instructions (the totals so far kept) */
    atomic_llong *done; /* instructions walked so far */
} analysis_progress;

/* The engine `analyze`'s report prints from (walk and the worst warp of the block). */
extern const report_engine analysis_engine;

/* Walk the instructions o selects (o->source, or the scenario's with o->warp), calling fn (may
 * be NULL) with each one's result, adding it to *t (zeroed first). p: progress and cancellation
 * (NULL: none). Returns false when cancelled. */
bool analysis_walk(const scenario *s, const report_options *o, bool brief, report_visit_fn fn, void *ctx,
                   report_totals *t, const analysis_progress *p);

/* The totals over every selected warp-instruction of s (what `analyze` sums). Returns false
 * when cancelled (the totals so far kept). */
bool analysis_totals(const scenario *s, report_totals *t, const analysis_progress *p);

/* The worst degree over every warp of the block (each access, each iteration) and a warp that
 * has it, for totals that cover only some warps; false when the block is too big to go through
 * here (more than 2^16 warp-instructions: the total stays as fast as the warps it covers) or s is
 * a trace. */
bool analysis_worst_all_warps(const scenario *s, int *worst, int *warp);

/* The warp-instruction of s (an index for scenario_instr_at) with the highest conflict degree;
 * the first one on ties. */
int64_t analysis_worst_instr(const scenario *s);

/* Instruction k of s (see scenario_instr_at) analysed and rendered as an SVG picture (svg.h). */
void analysis_svg(const scenario *s, int64_t k, strbuf *out);

/* The wavefronts of one access summed over every selected warp and iteration of s; stops early
 * (a partial sum) when p's cancel is set. */
int64_t analysis_access_wavefronts(const scenario *s, int access, const analysis_progress *p);

#endif
