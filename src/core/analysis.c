/* analysis: the one walk over warp-instructions and their totals (core/analysis.h). */
#include "analysis.h"

#include <stdlib.h>
#include <string.h>

#include "io/instr_source.h"
#include "io/svg.h"
#include "model/banks_memo.h"
#include "util.h"

/* The lane counts of in, from its lanes' states. */
static void lanes_of(const scenario_instr *in, report_lanes *b)
{
    scenario_instr_excluded(in, &b->ex);
    b->idle = scenario_instr_idle(in);
}

/* Add one instruction's result to the totals: the one rule every front end's totals follow. */
static void totals_add(report_totals *t, const scenario_instr *in, const banks_result *r, const report_lanes *b)
{
    t->instructions++;
    t->idle += b->idle;
    t->not_modelled += r->not_modelled; /* counted, but nothing of them in the sums */
    t->wavefronts += r->wavefronts;
    t->ideal += r->ideal_wavefronts;
    t->conflicts += r->bank_conflicts;
    if (r->conflict_degree > t->worst_degree) {
        t->worst_degree = r->conflict_degree;
        t->worst_seq = in->seq;
    }
    scenario_excluded ex = b->ex;
    scenario_excluded_add(&t->excluded, &ex);
}

/* One instruction walked: added to the totals, handed to fn, counted in the progress. */
static void walked(const scenario *s, const scenario_instr *in, const banks_result *r, const report_lanes *b,
                   report_visit_fn fn, void *ctx, report_totals *t, const analysis_progress *p, const report_options *o)
{
    totals_add(t, in, r, b);
    if (fn)
        fn(ctx, s, in, r, b);
    if (o->observe)
        o->observe(o->observe_ctx, s, in, r, b);
    if (p && p->done)
        atomic_store(p->done, t->instructions);
}

bool analysis_walk(const scenario *s, const report_options *o, bool brief, report_visit_fn fn, void *ctx,
                   report_totals *t, const analysis_progress *p)
{
    memset(t, 0, sizeof *t);
    scenario_instr in;
    banks_result r;
    report_lanes lb;
    instr_source own, *src = o->source;
    if (!src) {
        instr_source_scenario(&own, s, o->warp);
        src = &own;
    }
    src->brief = brief; /* fn reads only the request and the lanes' states */
    /* Work that repeats is done once, exactly: an instruction of a loop-invariant access (or of
     * one that reads the loops only through slots) is the one kept in its table slot, whose
     * result and lane counts are kept per slot; any other request equal to one answered before
     * comes from the memo. */
    banks_memo memo;
    banks_memo_init(&memo, 12);
    banks_result *slot_res = NULL;
    report_lanes *slot_lanes = NULL;
    int64_t slot;
    const scenario_instr *ip;
    bool cancelled = false;
    while (!(cancelled = p && p->cancel && (t->instructions & 255) == 0 && atomic_load(p->cancel)) &&
           (ip = instr_source_next_ref(src, &in, &slot))) {
        if (slot < 0) {
            banks_memo_analyze(&memo, s->arch, &ip->req, &r);
            lanes_of(ip, &lb);
            walked(s, ip, &r, &lb, fn, ctx, t, p, o);
            continue;
        }
        if (!slot_res) {
            int64_t n = instr_source_slots(src);
            slot_res = xcalloc((size_t)n, sizeof *slot_res);
            slot_lanes = xcalloc((size_t)n, sizeof *slot_lanes);
            for (int64_t k = 0; k < n; k++)
                slot_res[k].conflict_degree = -1; /* not analysed yet (a result's degree is >= 0) */
        }
        if (slot_res[slot].conflict_degree < 0) {
            banks_memo_analyze(&memo, s->arch, &ip->req, &slot_res[slot]);
            lanes_of(ip, &slot_lanes[slot]);
        }
        walked(s, ip, &slot_res[slot], &slot_lanes[slot], fn, ctx, t, p, o);
    }
    free(slot_res);
    free(slot_lanes);
    banks_memo_free(&memo);
    if (src == &own)
        instr_source_close(&own);
    return !cancelled;
}

bool analysis_totals(const scenario *s, report_totals *t, const analysis_progress *p)
{
    report_options o = {.engine = &analysis_engine, .warp = -1};
    return analysis_walk(s, &o, true, NULL, NULL, t, p);
}

bool analysis_worst_all_warps(const scenario *s, int *worst, int *warp)
{
    int all = !scenario_has_layout(s) ? 0 : scenario_warp_count(s);
    *worst = 0;
    *warp = -1;
    if (all == 0 || (int64_t)all * s->naccesses * s->iterations > ((int64_t)1 << 16))
        return false;
    scenario_instr in;
    banks_result r;
    for (int it = 0; it < s->iterations; it++)
        for (int a = 0; a < s->naccesses; a++) {
            if (!scenario_access_active(s, a, it))
                continue;
            for (int w = 0; w < all; w++) {
                scenario_instr_build(s, a, it, w, &in);
                banks_analyze(s->arch, &in.req, &r, NULL);
                if (r.conflict_degree > *worst) {
                    *worst = r.conflict_degree;
                    *warp = w;
                }
            }
        }
    return true;
}

int64_t analysis_worst_instr(const scenario *s)
{
    int64_t n = scenario_instr_count(s), best = 0;
    int worst = -1;
    scenario_instr in;
    banks_result r;
    for (int64_t k = 0; k < n; k++) {
        scenario_instr_at(s, k, &in);
        banks_analyze(s->arch, &in.req, &r, NULL);
        if (r.conflict_degree > worst) {
            worst = r.conflict_degree;
            best = k;
        }
    }
    return best;
}

void analysis_svg(const scenario *s, int64_t k, strbuf *out)
{
    scenario_instr in;
    banks_result r;
    static banks_cell cells[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
    scenario_instr_at(s, k, &in);
    banks_analyze(s->arch, &in.req, &r, cells);
    svg_render(s, &in, &r, cells, out);
}

int64_t analysis_access_wavefronts(const scenario *s, int access, const analysis_progress *p)
{
    int64_t sum = 0;
    scenario_instr in;
    banks_result r;
    for (int it = 0; it < s->iterations && !(p && p->cancel && atomic_load(p->cancel)); it++)
        for (int w = 0; w < scenario_selected_warps(s) && scenario_access_active(s, access, it); w++) {
            scenario_instr_build(s, access, it, scenario_selected_warp(s, w), &in);
            banks_analyze(s->arch, &in.req, &r, NULL);
            sum += r.wavefronts;
        }
    return sum;
}

/* The report's walk: analysis_walk without progress (`analyze` shows its own, io/work.h). */
static void report_walk(const scenario *s, const report_options *o, bool brief, report_visit_fn fn, void *ctx,
                        report_totals *t)
{
    analysis_walk(s, o, brief, fn, ctx, t, NULL);
}

const report_engine analysis_engine = {.walk = report_walk, .worst_all_warps = analysis_worst_all_warps};
