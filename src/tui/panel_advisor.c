/* panel_advisor: the padding sweep over the screen: per padding the worst degree, wavefronts as
 * a bar, shared bytes and occupancy; the smallest conflict-free padding; the XOR swizzle and
 * SoA alternatives. Enter applies the smallest conflict-free padding; m measures every padding
 * on the GPU (sweep_measure.c) and the measured cycles show beside the predicted ones. */
#include <stdio.h>
#include <string.h>

#include "io/measure_plan.h"
#include "io/report.h"
#include "tui/draw.h"

void panel_advisor_draw(tui_app *a)
{
    const advisor_result *r = a->adv;
    int w = a->cols - 4 < 100 ? a->cols - 4 : 100, h = a->rows - 2;
    layout_rect box = {1, (a->cols - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(a, y, box.x, box.w, ROLE_NORMAL);
    layout_rect in = panel_frame(a, &box, "advisor: padding sweep (Enter applies the best, Esc closes)", true);
    if (!r || in.h < 4) {
        draw_text(a, in.y, in.x, in.w, ROLE_DIM, "no array to pad in a trace");
        return;
    }
    const scenario_array *arr = &a->sc.arrays[r->array];
    const tui_sweep *sw = &a->sweep;
    bool meas = sw->running || sw->done || sw->nmeasured > 0;
    int y = in.y;
    draw_text(a, y++, in.x, in.w, ROLE_KEY, "%-4s %-13s %9s %8s %5s %s%s", "pad", "worst", "wavefr.", "shared B", "occ.",
              meas ? "cycles meas./pred. " : "", "wavefronts over the whole scenario");
    int64_t max_wf = 1;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].valid && r->rows[i].wavefronts > max_wf)
            max_wf = r->rows[i].wavefronts;
    int rows_room = in.h - 5, bar_w = in.w - 44 - (meas ? 19 : 0);
    const char *block = crt_glyph(&a->crt, "█", "#");
    for (int i = 0; i < r->nrows && i < rows_room; i++) {
        const advisor_row *row = &r->rows[i];
        bool cur = row->pad == arr->pad[arr->ndims - 1];
        if (!row->valid) {
            draw_text(a, y++, in.x, in.w, ROLE_DIM, "%4d %s", row->pad, row->why);
            continue;
        }
        char deg[32];
        report_degree_text(row->worst_degree, deg, sizeof deg);
        tui_role role = cur ? ROLE_SELECTED : row->wavefronts == row->ideal ? ROLE_OK : ROLE_NORMAL;
        int x = in.x + draw_text(a, y, in.x, in.w, role, "%4d %-13s %9lld %8lld %4.0f%% ", row->pad, deg,
                                 (long long)row->wavefronts, (long long)row->smem_bytes, 100 * row->occupancy);
        if (meas && sw->measured[i] >= 0) {
            bool agree = measure_plan_agrees(sw->predicted[i], sw->measured[i]);
            x += draw_text(a, y, x, 19, agree ? ROLE_OK : ROLE_ERROR, "%7.2f/%-7.2f    ", sw->measured[i], sw->predicted[i]);
        } else if (meas) {
            x += draw_text(a, y, x, 19, ROLE_DIM, "%-19s", sw->running && sw->row == i ? "  measuring..." : "");
        }
        int n = bar_w > 0 ? (int)((row->wavefronts * bar_w + max_wf - 1) / max_wf) : 0;
        for (int k = 0; k < n; k++)
            draw_text(a, y, x + k, 1, row->worst_degree > 1 ? ROLE_BIG : ROLE_OK, "%s", block);
        y++;
    }
    y = in.y + in.h - 4;
    if (sw->error[0])
        draw_text(a, y, in.x, in.w, ROLE_ERROR, "%s", sw->error);
    else if (sw->running)
        draw_text(a, y, in.x, in.w, ROLE_HILITE, "measuring padding %d of %d on the GPU %s", r->rows[sw->row].pad,
                  r->rows[r->nrows - 1].pad, (const char *[]){"|", "/", "-", "\\"}[a->spinner % 4]);
    else if (sw->done)
        draw_text(a, y, in.x, in.w, ROLE_DIM, "measured cycles per warp-access per SM beside the model's; m measures again");
    else
        draw_text(a, y, in.x, in.w, ROLE_DIM, "m measures every padding on the GPU");
    y++;
    if (r->best_pad >= 0)
        draw_text(a, y++, in.x, in.w, ROLE_OK, "smallest conflict-free padding: %d (%+lld B per block)", r->best_pad,
                  (long long)(r->rows[r->best_pad].smem_bytes - r->rows[0].smem_bytes));
    else
        draw_text(a, y++, in.x, in.w, ROLE_ERROR, "no conflict-free padding; fewest wavefronts at padding %d", r->min_pad);
    if (r->swizzle)
        draw_text(a, y++, in.x, in.w, ROLE_NORMAL, "or XOR swizzle %s: %lld wavefront%s, no extra memory", r->swizzle_text,
                  (long long)r->swizzled.wavefronts, r->swizzled.wavefronts == 1 ? "" : "s");
    if (r->soa)
        draw_text(a, y++, in.x, in.w, ROLE_NORMAL, "or struct of arrays: %lld wavefront%s", (long long)r->soa_row.wavefronts,
                  r->soa_row.wavefronts == 1 ? "" : "s");
}
