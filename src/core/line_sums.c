/* line_sums: the one walk over warp-instructions and its sums (line_sums.h). */
#include "core/line_sums.h"

#include <stdlib.h>

#include "model/kinds.h"
#include "util.h"

/* Add one instruction's result to a sum (r NULL: not analysed, of kind why). */
static void sum_add(line_sum *x, const line_sums_instr *in, const banks_result *r)
{
    x->instructions++;
    x->idle += in->idle;
    if (!r || r->not_modelled) {
        x->not_modelled++;
        if (!x->kind && r) /* named by its kind's row (cp.async.cg) */
            x->kind = kinds_of(in->req.op)->name;
        return;
    }
    int excess = r->wavefronts - r->ideal_wavefronts;
    if (!x->has_costliest || excess > x->costliest_excess) { /* the first of the costliest */
        x->has_costliest = true;
        x->costliest = in->access;
        x->costliest_excess = excess;
    }
    x->wavefronts += r->wavefronts; /* at most 32 x 2^31 instructions per sum: no overflow */
    x->ideal += r->ideal_wavefronts;
    if (r->conflict_degree > x->worst)
        x->worst = r->conflict_degree;
}

void line_sums_add(line_sums *s, const line_sums_instr *in, const banks_result *res)
{
    sum_add(&s->total, in, res);
    if (in->access >= 0 && in->access < s->naccess && s->per_access)
        sum_add(&s->per_access[in->access], in, res);
    if (in->line >= 0 && in->line < s->nlines && s->per_line)
        sum_add(&s->per_line[in->line], in, res);
    if (in->pc >= 0 && in->pc < s->npcs && s->per_pc)
        sum_add(&s->per_pc[in->pc], in, res);
}

void line_sums_step(line_sums *s, const line_sums_instr *in)
{
    banks_result r;
    if (!in->unmodelled)
        banks_analyze(s->arch, &in->req, &r, NULL);
    line_sums_add(s, in, in->unmodelled ? NULL : &r);
}

int line_sums_walk(line_sums *s, line_sums_next next, void *ctx)
{
    line_sums_instr in;
    int got;
    while ((got = next(ctx, &in)) == 1)
        line_sums_step(s, &in);
    return got < 0 ? -1 : 0;
}

/* A scenario's instructions, one at a time. */
typedef struct scenario_walk {
    const scenario *s;
    int64_t k, n;
    const int *row_of; /* per access: its row */
    int64_t naccess;
    scenario_instr in;
} scenario_walk;

/* line_sums_next over a scenario: a trace entry is its own access. */
static int scenario_next(void *ctx, line_sums_instr *out)
{
    scenario_walk *w = ctx;
    if (w->k >= w->n)
        return 0;
    scenario_instr_at(w->s, w->k, &w->in);
    int64_t acc = w->in.access >= 0 ? w->in.access : w->k;
    *out = (line_sums_instr){.req = w->in.req,
                             .access = acc,
                             .line = w->row_of && acc < w->naccess ? w->row_of[acc] : -1,
                             .pc = -1,
                             .idle = scenario_instr_idle(&w->in)};
    w->k++;
    return 1;
}

void line_sums_scenario(line_sums *sums, const scenario *s, const int *line_of, int64_t naccess)
{
    scenario_walk w = {.s = s, .n = scenario_instr_count(s), .row_of = line_of, .naccess = naccess};
    line_sums_walk(sums, scenario_next, &w);
}

/* Trace entries of a list, one at a time, each its own access (its index in the list). */
typedef struct entries_walk {
    const scenario *s;
    const int *entries;
    int k, n;
} entries_walk;

/* line_sums_next over a list of trace entries (those out of range are skipped). */
static int entries_next(void *ctx, line_sums_instr *out)
{
    entries_walk *w = ctx;
    while (w->k < w->n && (w->entries[w->k] < 0 || w->entries[w->k] >= w->s->ntrace))
        w->k++;
    if (w->k >= w->n)
        return 0;
    *out = (line_sums_instr){.req = w->s->trace[w->entries[w->k]], .access = w->k, .line = -1, .pc = -1};
    w->k++;
    return 1;
}

int line_sums_costliest_entry(const scenario *s, const int *entries, int n)
{
    line_sums sums = {
        .arch = s->arch, .per_access = xcalloc((size_t)(n > 0 ? n : 1), sizeof *sums.per_access), .naccess = n};
    entries_walk w = {.s = s, .entries = entries, .n = n};
    line_sums_walk(&sums, entries_next, &w);
    int best = entries[0];
    int64_t bx = -1, bw = -1;
    for (int k = 0; k < n; k++) {
        const line_sum *x = &sums.per_access[k];
        int64_t ex = x->wavefronts - x->ideal;
        if (x->instructions == 0 || ex < bx || (ex == bx && x->wavefronts <= bw))
            continue;
        best = entries[k];
        bx = ex;
        bw = x->wavefronts;
    }
    free(sums.per_access);
    return best;
}

bool line_sums_source(const scenario *s, const char *file_text, size_t len, const source_record_line *rec, int nrec,
                      const source_skip *skips, int nskips, source_lines *out, char *why, size_t n)
{
    if (!source_lines_layout(s, file_text, len, rec, nrec, skips, nskips, out, why, n))
        return false;
    line_sums sums = {.arch = s->arch,
                      .per_line = xcalloc((size_t)(out->nrows ? out->nrows : 1), sizeof *sums.per_line),
                      .nlines = out->nrows};
    line_sums_scenario(&sums, s, out->row_of, out->naccess);
    out->instructions = sums.total.instructions;
    out->wavefronts = sums.total.wavefronts;
    out->ideal = sums.total.ideal;
    for (int r = 0; r < out->nrows; r++) {
        source_row *x = &out->rows[r];
        const line_sum *l = &sums.per_line[r];
        x->instructions = l->instructions;
        x->idle = l->idle;
        x->wavefronts = l->wavefronts;
        x->ideal = l->ideal;
        x->worst = l->worst;
        x->not_modelled = l->not_modelled;
        x->kind = l->kind;
    }
    free(sums.per_line);
    return true;
}
