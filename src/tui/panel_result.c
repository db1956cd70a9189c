/* panel_result: the numbers that matter, big and near the grid: predicted conflict degree,
 * wavefronts against the ideal, Nsight-style bank conflicts, efficiency; then what was
 * measured on the GPU, or plainly "no GPU: predicted only". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu.h"
#include "io/report.h"
#include "tui/draw.h"

/* A 3x5 font for digits, drawn with full blocks (or '#'). */
static const char *const font[10][5] = {
    {"###", "# #", "# #", "# #", "###"}, {" # ", "## ", " # ", " # ", "###"},
    {"###", "  #", "###", "#  ", "###"}, {"###", "  #", "###", "  #", "###"},
    {"# #", "# #", "###", "  #", "  #"}, {"###", "#  ", "###", "  #", "###"},
    {"###", "#  ", "###", "# #", "###"}, {"###", "  #", "  #", "  #", "  #"},
    {"###", "# #", "###", "# #", "###"}, {"###", "# #", "###", "  #", "###"},
};

/* Draw number n in big digits at (y, x); returns the width used. */
static int big_number(tui_app *a, int y, int x, int n, tui_role role)
{
    char digits[16];
    snprintf(digits, sizeof digits, "%d", n);
    const char *block = crt_glyph(&a->crt, "█", "#");
    int w = 0;
    for (int i = 0; digits[i]; i++, w += 4)
        for (int row = 0; row < 5; row++)
            for (int col = 0; col < 3; col++)
                if (font[digits[i] - '0'][row][col] == '#')
                    draw_text(a, y + row, x + w + col, 1, role, "%s", block);
    return w;
}

void panel_result_draw(tui_app *a, const layout_rect *r, const scenario *s, const tui_view *v, const char *caption)
{
    layout_rect in = panel_frame(a, r, caption, false);
    if (in.h < 1 || !v->valid)
        return;
    const banks_result *res = &v->res;
    char deg[32];
    report_degree_text(res->conflict_degree, deg, sizeof deg);
    tui_role role = res->conflict_degree > 1 ? ROLE_BIG : ROLE_OK;
    int y = in.y;
    draw_text(a, y++, in.x, in.w, ROLE_KEY, "PREDICTED %s(%s model)", "", s->arch->name);
    if (in.h >= 11 && in.w >= 30 && res->active_lanes > 0) {
        int w = big_number(a, y, in.x + 1, res->conflict_degree, role);
        draw_text(a, y + 4, in.x + 2 + w, in.w - w - 2, role, "%s", res->conflict_degree > 1 ? "-way conflict" : "= conflict-free");
        y += 6;
    } else {
        draw_text(a, y++, in.x + 1, in.w - 1, role, "%s%s", res->active_lanes ? deg : "no active lane",
                  res->conflict_degree > 1 ? " conflict" : "");
    }
    /* a load (or store of register data) that costs a cycle per phase, more than its wavefronts:
     * a line of its own when the measured status below still fits, else beside the wavefronts */
    int cycles = (int)banks_issue_cycles(s->arch, &v->in.req, res, true);
    bool own_line = cycles > res->wavefronts && y + 4 < in.y + in.h;
    if (y < in.y + in.h && cycles > res->wavefronts && !own_line)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_HILITE, "%d wavefront%s, %d cycles", res->wavefronts,
                  res->wavefronts == 1 ? "" : "s", cycles);
    else if (y < in.y + in.h)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%d wavefront%s (ideal %d)", res->wavefronts,
                  res->wavefronts == 1 ? "" : "s", res->ideal_wavefronts);
    if (own_line)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_HILITE, "%d cycles: one per phase", cycles);
    if (y < in.y + in.h && res->wavefronts)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "%d conflict%s, eff. %.*f %%", res->bank_conflicts,
                  res->bank_conflicts == 1 ? "" : "s", res->bank_conflicts ? 1 : 0,
                  100.0 * res->ideal_wavefronts / res->wavefronts);
    if (y + 2 < in.y + in.h && s == &a->sc && a->total_instr > 1)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_DIM, "all %lld instr.: %lld wf, ideal %lld, worst %d",
                  (long long)a->total_instr, (long long)a->total_wavefronts, (long long)a->total_ideal, a->total_worst);
    if (y < in.y + in.h)
        draw_text(a, y++, in.x, in.w, ROLE_KEY, "MEASURED");
    bool fresh = a->have_meas && a->meas.id == a->gen && a->meas.ok && s == &a->sc;
    if (!fresh || s != &a->sc) {
        /* status, then (when there is room) the reason after its newline */
        const char *st = s == &a->sc ? a->gpu_status : "(current scenario only)";
        const char *nl = strchr(st, '\n');
        if (y < in.y + in.h)
            draw_text(a, y++, in.x + 1, in.w - 1, ROLE_DIM, "%.*s", nl ? (int)(nl - st) : (int)strlen(st), st);
        if (nl && y < in.y + in.h)
            draw_text(a, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s", nl + 1);
        return;
    }
    const gpu_measurement *m = &a->meas.m;
    bool agree = fabs(m->cycles_per_access - a->pred_cycles) <= 0.05 * a->pred_cycles + 0.1;
    if (y < in.y + in.h)
        draw_text(a, y++, in.x + 1, in.w - 1, agree ? ROLE_OK : ROLE_ERROR, "%.2f cycles/access (pred. %.2f)",
                  m->cycles_per_access, a->pred_cycles);
    if (y < in.y + in.h && m->have_counters)
        draw_text(a, y++, in.x + 1, in.w - 1,
                  m->wavefronts == a->pred_wavefronts && m->bank_conflicts == a->pred_conflicts ? ROLE_OK : ROLE_ERROR,
                  "block: %.0f wf, %.0f conflicts (model %lld/%lld)", m->wavefronts, m->bank_conflicts,
                  (long long)a->pred_wavefronts, (long long)a->pred_conflicts);
    else if (y < in.y + in.h)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s", m->counters_note);
    if (y < in.y + in.h && m->have_latency)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_NORMAL, "latency %.1f cycles, %.2f ns/access/SM", m->latency_cycles,
                  m->ns_per_access);
    if (y < in.y + in.h)
        draw_text(a, y++, in.x + 1, in.w - 1, ROLE_DIM, "%s", a->gpu_status);
}
