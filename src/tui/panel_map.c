/* panel_map: the array drawn row by row; each cell shows the bank of its element (of the
 * accessed field), padding cells are marked, the current warp's cells show their lane (in step
 * mode the lanes of the wavefront just revealed stand out). A swizzled array is drawn in storage
 * order: each cell is a place in shared memory and shows the column of the element the swizzle
 * stored there (its colour is still its bank's), so the permutation is visible. */
#include <stdio.h>
#include <string.h>

#include "tui/view.h"

int panel_map_draw(const tui_vctx *ctx, const layout_rect *r)
{
    const scenario *s = ctx->sc;
    const tui_view *v = ctx->view;
    if (!scenario_has_layout(s) || !v->valid) {
        layout_rect in = panel_frame(ctx->crt, r, "array map", ctx->focus == 2);
        if (in.h > 0)
            draw_text(ctx->crt, in.y, in.x, in.w, ROLE_DIM, "a trace has no array to draw");
        return ctx->map_scroll;
    }
    const scenario_access *ac = &s->accesses[v->in.access];
    const scenario_array *arr = &s->arrays[ac->array];
    char title[160];
    bool swz = arr->swz_bits != 0;
    if (swz)
        snprintf(title, sizeof title,
                 "array map: %s, swizzle %s, cell = column stored there (dim: another row), lane where the warp "
                 "reads",
                 arr->name, arr->swizzle);
    else
        snprintf(title, sizeof title, "array map: %s, cell = bank, lane where the warp reads", arr->name);
    layout_rect in = panel_frame(ctx->crt, r, title, ctx->focus == 2);
    if (in.h < 1)
        return ctx->map_scroll;
    /* rows x cols of the drawing: the last dimension across, the others down */
    int64_t rows, cols;
    scenario_map_shape(arr, &rows, &cols);
    int cw = 3;
    int lw = 4; /* row label */
    int vis_cols = (int)((in.w - lw) / cw);
    if (vis_cols > cols)
        vis_cols = (int)cols;
    /* lane of each element the warp touches in the visible window */
    int64_t first_row = -1;
    for (int l = 0; l < BANKS_WARP && first_row < 0; l++)
        if (v->in.lane[l].state == SCENARIO_LANE_OK) {
            int64_t e = (v->in.lane[l].address - arr->start - ac->offset) / arr->elem_size;
            first_row = e / cols;
        }
    int scroll = ctx->map_scroll < 0 || ctx->map_scroll > rows - 1 ? 0 : ctx->map_scroll;
    if (in.h >= 3) { /* column indices over the cells (the last dimension's index) */
        draw_text(ctx->crt, in.y, in.x, lw, ROLE_DIM, "col");
        for (int c = 0; c < vis_cols; c++)
            draw_text(ctx->crt, in.y, in.x + lw + c * cw, cw, (c & 1) ? ROLE_BANK_B : ROLE_DIM, "%2d ", c % 100);
        in.y++;
        in.h--;
    }
    int64_t top = scroll;
    if (ctx->focus != 2 && first_row >= 0 && (first_row < top || first_row >= top + in.h))
        top = first_row;
    for (int i = 0; i < in.h && top + i < rows; i++) {
        int64_t row = top + i;
        int y = in.y + i;
        draw_text(ctx->crt, y, in.x, lw, ROLE_DIM, "%3lld", (long long)row);
        for (int c = 0; c < vis_cols; c++) {
            int64_t e = row * cols + c;
            if (arr->ndims == 1 && e >= arr->extent[0])
                break;
            int64_t slot, held; /* held: the element stored here */
            bool pad = scenario_map_cell(arr, cols, e, ac->offset, &slot, &held);
            int64_t addr = arr->start + slot, hrow = held / cols, hc = held % cols;
            int lane = -1;
            for (int l = 0; l < BANKS_WARP; l++)
                if (v->in.lane[l].state == SCENARIO_LANE_OK && v->in.lane[l].address == addr)
                    lane = lane < 0 ? l : lane;
            int bank = banks_bank_of(s->arch, addr);
            bool lit = lane >= 0 && (ctx->opts & VIEW_STEP) && ctx->step_shown > 0 &&
                       v->res.lane[lane].wavefront == ctx->step_shown - 1;
            if (lane >= 0)
                draw_text_mark(ctx->crt, y, in.x + lw + c * cw, cw, lit ? ROLE_CONFLICT : ROLE_HILITE,
                               lane == ctx->sel_lane ? MARK_SELECT : 0, "%2d ", lane);
            else if (pad)
                draw_text(ctx->crt, y, in.x + lw + c * cw, cw, ROLE_PADDING, "%s", crt_glyph(ctx->crt, "░░ ", "pp "));
            else if (swz && hrow != row) /* rows shorter than the swizzle's line: from another row (dim) */
                draw_text(ctx->crt, y, in.x + lw + c * cw, cw, ROLE_DIM, "%2lld ", (long long)hc);
            else
                draw_text(ctx->crt, y, in.x + lw + c * cw, cw, (bank & 1) ? ROLE_BANK_B : ROLE_BANK_A, "%2lld ",
                          (long long)(swz ? hc : bank));
        }
        if (vis_cols < cols)
            draw_text(ctx->crt, y, in.x + lw + vis_cols * cw, 3, ROLE_DIM, "%s", crt_glyph(ctx->crt, "…", ">"));
    }
    return scroll;
}
