/* panel_result: the numbers that matter, big and near the grid: the verdict (a red warning when
 * lanes are left out, never "conflict-free" then), wavefronts against the ideal, Nsight-style
 * bank conflicts, efficiency, the totals over every warp-instruction (the numbers `analyze`
 * prints); then what was measured on the GPU, or plainly "no GPU: predicted only". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/measure_plan.h"
#include "io/report.h"
#include "model/kinds.h"
#include "model/source_lines.h"
#include "tui/view.h"

/* A 3x5 font for digits. */
static const char *const font[10][5] = {
    {"###", "# #", "# #", "# #", "###"}, {" # ", "## ", " # ", " # ", "###"}, {"###", "  #", "###", "#  ", "###"},
    {"###", "  #", "###", "  #", "###"}, {"# #", "# #", "###", "  #", "  #"}, {"###", "#  ", "###", "  #", "###"},
    {"###", "#  ", "###", "# #", "###"}, {"###", "  #", "  #", "  #", "  #"}, {"###", "# #", "###", "# #", "###"},
    {"###", "# #", "###", "  #", "###"},
};

int big_number_width(int n)
{
    char digits[16];
    return 4 * snprintf(digits, sizeof digits, "%d", n);
}

void big_number_draw(const tui_crt *c, int y, int x, int n, tui_role role)
{
    char digits[16];
    snprintf(digits, sizeof digits, "%d", n);
    const char *block = crt_glyph(c, "█", "#");
    for (int i = 0, w = 0; digits[i]; i++, w += 4)
        for (int row = 0; row < 5; row++)
            for (int col = 0; col < 3; col++)
                if (font[digits[i] - '0'][row][col] == '#')
                    draw_text(c, y + row, x + w + col, 1, role, "%s", block);
}

tui_role headline_text(const scenario *s, const tui_view *v, char *buf, size_t n)
{
    (void)s;
    const banks_result *res = &v->res;
    if (res->not_modelled) { /* a kind without a rule: never a verdict */
        snprintf(buf, n, "not modelled: %s", kinds_of(v->in.req.op)->not_modelled);
        return ROLE_WARN;
    }
    int with_thread = scenario_instr_threads(&v->in);
    const scenario_excluded *e = &v->excl;
    int reasons = (e->misaligned > 0) + (e->out_of_bounds > 0) + (e->expression_error > 0);
    if (reasons > 1) { /* every lane left out is counted, each reason named (as analyze's line) */
        int k = snprintf(buf, n, "%lld of %d lanes left out:", (long long)scenario_excluded_total(e), with_thread);
        const char *sep = " ";
        if (e->misaligned > 0 && k >= 0 && (size_t)k < n) {
            k += snprintf(buf + k, n - (size_t)k, "%s%lld misaligned (faults)", sep, (long long)e->misaligned);
            sep = ", ";
        }
        if (e->out_of_bounds > 0 && k >= 0 && (size_t)k < n) {
            k += snprintf(buf + k, n - (size_t)k, "%s%lld out of bounds", sep, (long long)e->out_of_bounds);
            sep = ", ";
        }
        if (e->expression_error > 0 && k >= 0 && (size_t)k < n)
            snprintf(buf + k, n - (size_t)k, "%s%lld expression error", sep, (long long)e->expression_error);
        return ROLE_WARN;
    }
    if (e->misaligned > 0) {
        snprintf(buf, n, "%lld of %d lanes misaligned: this access faults", (long long)e->misaligned, with_thread);
        return ROLE_WARN;
    }
    if (e->out_of_bounds > 0) {
        snprintf(buf, n, "%lld of %d lanes out of bounds: left out", (long long)e->out_of_bounds, with_thread);
        return ROLE_WARN;
    }
    if (e->expression_error > 0) {
        snprintf(buf, n, "%lld of %d lanes: expression error, left out", (long long)e->expression_error, with_thread);
        return ROLE_WARN;
    }
    if (res->active_lanes == 0) {
        snprintf(buf, n, "no active lane");
        return ROLE_DIM;
    }
    if (res->conflict_degree > 1) {
        snprintf(buf, n, "%d-way conflict", res->conflict_degree);
        return ROLE_BIG;
    }
    snprintf(buf, n, "conflict-free");
    return ROLE_OK;
}

void headline_short(const tui_view *v, char *buf, size_t n)
{
    const banks_result *res = &v->res;
    int64_t out = scenario_excluded_total(&v->excl);
    if (!v->valid)
        snprintf(buf, n, "no instruction");
    else if (res->not_modelled)
        snprintf(buf, n, "not modelled");
    else if (out > 0) /* never "conflict-free" when lanes are left out (as headline_text) */
        snprintf(buf, n, "%lld lane%s left out", (long long)out, out == 1 ? "" : "s");
    else if (res->active_lanes == 0)
        snprintf(buf, n, "no active lane");
    else
        report_degree_text(res->conflict_degree, buf, n);
}

/* The GPU part: measured numbers beside the prediction, or the worker's status. */
static void measured_draw(const tui_vctx *ctx, layout_rect in, int y)
{
    int end = in.y + in.h;
    const tui_measured *g = &ctx->measured;
    bool fresh = g->fresh;
    if (!fresh && y == end - 1) { /* one line left: the status must still show ("no GPU") */
        const char *st = g->status, *nl = strchr(st, '\n');
        char line[400];
        snprintf(line, sizeof line, "MEASURED: %.*s", nl ? (int)(nl - st) : (int)strlen(st), st);
        draw_text(ctx->crt, y, in.x, in.w, ROLE_DIM, "%s", draw_width(line) <= in.w ? line : line + 10);
        return;
    }
    if (y < end)
        draw_text(ctx->crt, y++, in.x, in.w, ROLE_KEY, "MEASURED");
    if (!fresh && g->rec_pc_counts) { /* no line info: what the hardware counted at this PC */
        const measured_counts *m = g->rec_pc_counts;
        int role = m->wavefronts > m->ideal_wavefronts ? ROLE_CONFLICT : ROLE_OK;
        if (y == end - 1) { /* one line left: the numbers first, the label is what the cut may take */
            char line[200];
            snprintf(line, sizeof line, "%llu/%llu wf, %lld block%s, pc 0x%llx", (unsigned long long)m->wavefronts,
                     (unsigned long long)m->ideal_wavefronts, (long long)g->rec_blocks, g->rec_blocks == 1 ? "" : "s",
                     (unsigned long long)g->rec_pc);
            draw_text_cut(ctx->crt, y, in.x + 1, in.w - 1, role, 0, line);
            return;
        }
        if (y < end)
            draw_textf_cut(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM,
                           "pc 0x%llx, %lld block%s:", (unsigned long long)g->rec_pc, (long long)g->rec_blocks,
                           g->rec_blocks == 1 ? "" : "s");
        if (y < end)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%llu wavefronts (ideal %llu)",
                      (unsigned long long)m->wavefronts, (unsigned long long)m->ideal_wavefronts);
        if (y < end)
            draw_text(
                ctx->crt, y++, in.x + 1, in.w - 1, role, "excess %llu",
                (unsigned long long)(m->wavefronts > m->ideal_wavefronts ? m->wavefronts - m->ideal_wavefronts : 0));
        return;
    }
    if (!fresh && g->rec_line) { /* a recording: what the hardware counted for this line, whole launch */
        const source_record_line *l = g->rec_line;
        const source_measured *m = &l->measured;
        char where[48]; /* line 0 holds every instruction without line info (PyTorch's own kernels) */
        if (l->line > 0)
            snprintf(where, sizeof where, "line %d", l->line);
        else
            snprintf(where, sizeof where, "no line info");
        if (y == end - 1) { /* one line left: the counted numbers, not only the heading that names them */
            char line[200];
            if (l->line > 0)
                snprintf(line, sizeof line, "%s: %llu/%llu wf, %lld block%s", where, (unsigned long long)m->wavefronts,
                         (unsigned long long)m->ideal_wavefronts, (long long)g->rec_blocks,
                         g->rec_blocks == 1 ? "" : "s");
            else /* the numbers first: the label is what the cut may take */
                snprintf(line, sizeof line, "%llu/%llu wf, %lld block%s, %s", (unsigned long long)m->wavefronts,
                         (unsigned long long)m->ideal_wavefronts, (long long)g->rec_blocks,
                         g->rec_blocks == 1 ? "" : "s", where);
            draw_text_cut(ctx->crt, y, in.x + 1, in.w - 1,
                          m->wavefronts > m->ideal_wavefronts ? ROLE_CONFLICT : ROLE_OK, 0, line);
            return;
        }
        if (y < end)
            draw_textf_cut(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s, %lld block%s:", where,
                           (long long)g->rec_blocks, g->rec_blocks == 1 ? "" : "s");
        if (y < end)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%llu wavefronts (ideal %llu)",
                      (unsigned long long)m->wavefronts, (unsigned long long)m->ideal_wavefronts);
        if (y < end)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, m->wavefronts > m->ideal_wavefronts ? ROLE_CONFLICT : ROLE_OK,
                      "excess %llu; pred x blocks %llu", (unsigned long long)(m->wavefronts - m->ideal_wavefronts),
                      (unsigned long long)m->predicted_launch);
        return;
    }
    if (!fresh) {
        const char *st = g->status, *nl = strchr(st, '\n');
        if (y < end)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM, "%.*s", nl ? (int)(nl - st) : (int)strlen(st), st);
        if (nl && y < end)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s", nl + 1);
        return;
    }
    const gpu_measurement *m = &g->meas->m;
    bool agree = measure_plan_agrees(g->pred_cycles, m->cycles_per_access);
    if (y < end && g->pred_arch && g->pred_arch != ctx->sc->arch) /* after `r`: not the GPU's rules */
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, "GPU model %s, not %s", g->pred_arch->name,
                  ctx->sc->arch->name);   /* 26 columns: fits the narrowest panel */
    else if (y < end && g->pred_no_model) /* a GPU newer than every model: the prediction may not hold */
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, "no model of this GPU");
    if (y < end && g->pred_cycles < 0) /* cp.async: the time includes the copy from global memory */
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%.2f cycles/access (not predicted)",
                  m->cycles_per_access);
    else if (y < end)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, agree ? ROLE_OK : ROLE_ERROR, "%.2f cycles/access (pred. %.2f)",
                  m->cycles_per_access, g->pred_cycles);
    if (y < end && m->have_counters)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1,
                  m->wavefronts == g->pred_wavefronts && m->bank_conflicts == g->pred_conflicts ? ROLE_OK : ROLE_ERROR,
                  "block: %.0f wf, %.0f conflicts (model %lld/%lld)", m->wavefronts, m->bank_conflicts,
                  (long long)g->pred_wavefronts, (long long)g->pred_conflicts);
    else if (y < end)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s", m->counters_note);
    if (y < end && m->have_latency)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "latency %.1f cycles, %.2f ns/access/SM",
                  m->latency_cycles, m->ns_per_access);
    if (y < end)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s", g->status);
}

/* Whether the totals cover the warp on show (a file's "warps" may leave it out). */
static bool warp_covered(const tui_vctx *ctx)
{
    const scenario *s = ctx->sc;
    if (s->nwarps == 0) /* every warp (a trace: its instructions carry their own) */
        return true;
    for (int i = 0; i < s->nwarps; i++)
        if (s->warps[i] == ctx->warp)
            return true;
    return false;
}

/* Lanes left out anywhere in the scenario, once the totals are in (0 before). */
static int64_t totals_excluded(const tui_vctx *ctx)
{
    return ctx->totals ? scenario_excluded_total(&ctx->totals->excl) : 0;
}

/* The totals lines in at most room lines: every warp-instruction, as `analyze` sums them
 * (computed in the background). Lanes left out somewhere come first when only one line fits:
 * they are said out loud even where this instruction has none. */
static int totals_draw(const tui_vctx *ctx, layout_rect in, int y, int room)
{
    if (room < 1)
        return y;
    if (!ctx->totals && ctx->totals_refused) { /* over the work limit: what it would cost, and the key */
        char text[400], **lines;
        snprintf(text, sizeof text, "all instr.: not computed, %s: ! computes them anyway (or --force)",
                 ctx->totals_refused);
        int n = draw_wrap(text, in.w - 1, &lines);
        if (n <= room) {
            for (int i = 0; i < n; i++)
                draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, "%s", lines[i]);
            draw_wrap_free(lines, n);
            return y;
        }
        draw_wrap_free(lines, n);
        /* one line: the key, never a cut sentence */
        static const char *const brief[] = {"all instr.: over the work limit, ! computes them",
                                            "all: over the work limit (! computes)", "all: over work limit, !",
                                            "all: over limit (!)"};
        for (int i = 0; i < 4; i++)
            if (draw_width(brief[i]) <= in.w - 1 || i == 3) {
                draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, "%s", brief[i]);
                break;
            }
        return y;
    }
    if (!ctx->totals) {
        double p = ctx->totals_progress;
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_DIM, "all instr.: computing %.0f %%", p < 0 ? 0.0 : 100 * p);
        return y;
    }
    const tui_totals *t = ctx->totals;
    int64_t ex = totals_excluded(ctx);
    if ((t->instructions > 1 || !warp_covered(ctx)) && (ex == 0 || room >= 2)) { /* never a cut line */
        /* which warps the totals cover (a file's "warps" may leave out the one on show), and the
         * warp-instructions that issue nothing (idle warps: no active lane) */
        const scenario *s = ctx->sc;
        char scope[48], idle[48] = "", line[200], worst[32];
        report_degree_text(t->worst, worst, sizeof worst); /* analyze's "worst:" words */
        if (s->nwarps == 0)
            snprintf(scope, sizeof scope, "all");
        else if (s->nwarps == 1)
            snprintf(scope, sizeof scope, "warp %d", s->warps[0]);
        else
            snprintf(scope, sizeof scope, "%d warps", s->nwarps);
        if (t->idle > 0)
            snprintf(idle, sizeof idle, " (+%lld idle)", (long long)t->idle);
        snprintf(line, sizeof line, "%s: %lld instr.%s, %lld wf, ideal %lld, worst %s", scope,
                 (long long)(t->instructions - t->idle), idle, (long long)t->wavefronts, (long long)t->ideal, worst);
        if (draw_width(line) > in.w - 1 && t->idle > 0) /* the idle count before the worst degree */
            snprintf(line, sizeof line, "%s: %lld instr.%s, %lld wf, ideal %lld", scope,
                     (long long)(t->instructions - t->idle), idle, (long long)t->wavefronts, (long long)t->ideal);
        if (draw_width(line) > in.w - 1)
            snprintf(line, sizeof line, "%s: %lld wf, ideal %lld, worst %s", scope, (long long)t->wavefronts,
                     (long long)t->ideal, worst);
        if (draw_width(line) > in.w - 1 && t->idle > 0)
            snprintf(line, sizeof line, "%s: %lld wf, %lld idle", scope, (long long)t->wavefronts, (long long)t->idle);
        else if (draw_width(line) > in.w - 1)
            snprintf(line, sizeof line, "%s: %lld wf, ideal %lld", scope, (long long)t->wavefronts,
                     (long long)t->ideal);
        if (!warp_covered(ctx)) { /* the verdict above is of a warp the totals leave out: say so,
                                     never a total of other warps under its verdict unnamed */
            snprintf(line, sizeof line, "warp %d is not in the totals (the file's %s: %lld wf, worst %s)", ctx->warp,
                     scope, (long long)t->wavefronts, worst);
            if (draw_width(line) > in.w - 1)
                snprintf(line, sizeof line, "warp %d is not in the totals (%s)", ctx->warp, scope);
            if (draw_width(line) > in.w - 1)
                snprintf(line, sizeof line, "warp %d not in totals", ctx->warp);
        }
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, warp_covered(ctx) ? ROLE_DIM : ROLE_KEY, "%s", line);
    }
    if (ex > 0) {
        char line[120];
        snprintf(line, sizeof line, "%lld lane%s left out in all instr.", (long long)ex, ex == 1 ? "" : "s");
        if (draw_width(line) > in.w - 1)
            snprintf(line, sizeof line, "%lld lane%s left out overall", (long long)ex, ex == 1 ? "" : "s");
        if (draw_width(line) > in.w - 1)
            snprintf(line, sizeof line, "%lld lane%s left out (all)", (long long)ex, ex == 1 ? "" : "s");
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_ERROR, "%s", line);
    }
    return y;
}

void panel_result_draw(const tui_vctx *ctx, const layout_rect *r, const scenario *s, const tui_view *v,
                       const char *caption, bool current)
{
    layout_rect in = panel_frame(ctx->crt, r, caption, false);
    if (in.h < 1 || !v->valid)
        return;
    const banks_result *res = &v->res;
    int y = in.y, end = in.y + in.h;
    draw_text(ctx->crt, y++, in.x, in.w, ROLE_KEY, "PREDICTED (%s model)", s->arch->name);
    if (ctx->quiz_hidden) {
        const char *ask = draw_width("predict first: conflict degree?") <= in.w - 1 ? "predict first: conflict degree?"
                          : in.w - 1 >= 22                                          ? "predict first: degree?"
                                                                                    : "degree?";
        draw_text_cut(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, 0, ask);
        if (y < end)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_KEY, "your answer: %s_  (Enter)", ctx->quiz_typed);
        return;
    }
    char head[160];
    tui_role role = headline_text(s, v, head, sizeof head);
    if (role != ROLE_WARN && in.h >= 11 && in.w >= 30 && res->active_lanes > 0) {
        big_number_draw(ctx->crt, y, in.x + 1, res->conflict_degree, role);
        int w = big_number_width(res->conflict_degree);
        draw_text(ctx->crt, y + 4, in.x + 2 + w, in.w - w - 2, role, "%s",
                  res->conflict_degree > 1 ? "-way conflict" : "= conflict-free");
        y += 6;
    } else {
        char **lines;
        int nl = draw_wrap(head, in.w - 1, &lines);
        for (int i = 0; i < nl && y < end; i++)
            draw_text(ctx->crt, y++, in.x + 1, in.w - 1, role, "%s", lines[i]);
        draw_wrap_free(lines, nl);
    }
    if ((ctx->opts & VIEW_QUIZ) && !ctx->quiz_hidden && y < end)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ctx->quiz_guess == res->conflict_degree ? ROLE_OK : ROLE_ERROR,
                  "you predicted %d: %s", ctx->quiz_guess,
                  ctx->quiz_guess == res->conflict_degree ? "right" : "not quite");
    if (res->not_modelled && current) { /* no wavefronts to show: the totals and the GPU part */
        y = totals_draw(ctx, in, y, end - y - 2);
        measured_draw(ctx, in, y);
    }
    if (res->not_modelled)
        return;
    /* a load (or store of register data) that costs a cycle per phase, more than its wavefronts */
    int cycles = (int)banks_issue_cycles(s->arch, &v->in.req, res, true);
    bool own_line = cycles > res->wavefronts && y + 4 < end;
    if (y < end && cycles > res->wavefronts && !own_line)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, "%d wavefront%s, %d cycles", res->wavefronts,
                  res->wavefronts == 1 ? "" : "s", cycles);
    else if (y < end)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%d wavefront%s (ideal %d)", res->wavefronts,
                  res->wavefronts == 1 ? "" : "s", res->ideal_wavefronts);
    if (own_line)
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_HILITE, "%d cycles: one per phase", cycles);
    /* the conflicts line gives way when the MEASURED block (heading and status) would not fit,
     * except side by side in compare mode, where both panels keep the same lines */
    int ex_line = current && totals_excluded(ctx) > 0 ? 1 : 0; /* keeps its line before the conflicts */
    /* so do the whole scenario's totals (the conflicts are wavefronts - ideal, on the line above) */
    int tot_line = current && (!ctx->totals || ctx->totals->instructions > 1 || !warp_covered(ctx)) ? 1 : 0;
    if (y < end && res->wavefronts && (!current || (ctx->opts & VIEW_COMPARE) || end - y >= 3 + ex_line + tot_line))
        draw_text(ctx->crt, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%d conflict%s, eff. %.*f %%", res->bank_conflicts,
                  res->bank_conflicts == 1 ? "" : "s", res->bank_conflicts ? 1 : 0,
                  100.0 * res->ideal_wavefronts / res->wavefronts);
    if (!current)
        return;
    y = totals_draw(ctx, in, y, end - y - 2); /* the MEASURED heading and status keep two lines */
    measured_draw(ctx, in, y);
}
