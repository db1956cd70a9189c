/* panel_lanes: the lane table, one line per lane in textbook form:
 * "lane 1: tile[1][0] = base + 132 B -> word 33 -> bank 1". The bank is never cut: when a line
 * does not fit, the address form shortens, then the element text ends in an ellipsis. Lanes left
 * out of the analysis say why. */
#include <stdio.h>
#include <string.h>

#include "io/report.h"
#include "tui/view.h"

/* Draw "head element tail" in w cells, the element shortened with an ellipsis when needed. */
static void fit_line(const tui_vctx *ctx, int y, int x, int w, tui_role role, int marks, const char *elem,
                     const char *tail)
{
    int tw = draw_width(tail), ew = draw_width(elem);
    if (ew + tw <= w) {
        draw_text_mark(ctx->crt, y, x, w, role, marks, "%s%s", elem, tail);
        return;
    }
    int room = w - tw - 1;
    if (room < 1) { /* not even the tail: keep its end, where the bank is */
        const char *t = tail + strlen(tail);
        while (t > tail && draw_width(t) < w - 1)
            t--;
        draw_text_mark(ctx->crt, y, x, w, role, marks, "%s%s", crt_glyph(ctx->crt, "…", "~"), t);
        return;
    }
    int n = draw_text_mark(ctx->crt, y, x, room, role, marks, "%s", elem);
    n += draw_text_mark(ctx->crt, y, x + n, 1, role, marks, "%s", crt_glyph(ctx->crt, "…", "~"));
    draw_text_mark(ctx->crt, y, x + n, w - n, role, marks, "%s", tail);
}

/* The tail of lane l's line in form 0 (start + offset), 1 (byte address) or 2 (no word); a lane
 * of a swizzled array also says where its byte was before the swizzle when was is true. */
static void lane_tail(const tui_vctx *ctx, const tui_view *v, int l, int form, bool was, char *tail, size_t n)
{
    const scenario *s = ctx->sc;
    const scenario_lane *ln = &v->in.lane[l];
    const char *arrow = crt_glyph(ctx->crt, "→", "->");
    char banks[16];
    report_banks_text(s->arch, ln->address, v->in.req.width, banks, sizeof banks);
    long long word = (long long)banks_word_of(s->arch, ln->address);
    const char *shared = v->res.lane[l].broadcast ? " (shared word)" : "";
    if (s->is_trace) {
        snprintf(tail, n, "%lld B %s word %lld %s bank %s%s", (long long)ln->address, arrow, word, arrow, banks,
                 shared);
        return;
    }
    const scenario_array *arr = &s->arrays[s->accesses[v->in.access].array];
    int64_t base = arr->start;
    char from[48] = ""; /* a swizzled lane: where its byte was before the swizzle */
    int64_t off = arr->swz_bits ? scenario_lane_offset(s, v->in.access, ln) : ln->address - base;
    if (was && off != ln->address - base)
        snprintf(from, sizeof from, form == 0 ? " (was +%lld)" : " (was %lld)",
                 (long long)(form == 0 ? off : base + off));
    if (form == 0)
        snprintf(tail, n, " = %s + %lld B%s %s word %lld %s bank %s%s", base ? "start" : "base",
                 (long long)(ln->address - base), from, arrow, word, arrow, banks, shared);
    else if (form == 1) /* the shorter forms still say that the word is shared (broadcast) */
        snprintf(tail, n, " = %lld B%s %s word %lld %s bank %s%s", (long long)ln->address, from, arrow, word, arrow,
                 banks, *shared ? " (shared)" : "");
    else
        snprintf(tail, n, " = %lld B%s %s bank %s%s", (long long)ln->address, from, arrow, banks,
                 *shared ? " (shared)" : "");
}

void panel_lanes_draw(const tui_vctx *ctx, const lanes_geom *g)
{
    layout_rect in = g->in;
    panel_frame(ctx->crt, &ctx->frame->lay.lanes, "lanes", ctx->focus == 1);
    const tui_view *v = ctx->view;
    if (in.h < 1 || !v->valid)
        return;
    const scenario *s = ctx->sc;
    strbuf el = {0};
    char tail[200];
    for (int i = 0; i < in.h && g->scroll + i < BANKS_WARP; i++) {
        int l = g->scroll + i, y = in.y + i;
        const scenario_lane *ln = &v->in.lane[l];
        bool sel = l == ctx->sel_lane;
        bool step_lit = (ctx->opts & VIEW_STEP) && v->res.lane[l].phase >= 0 && ctx->step_shown > 0 &&
                        v->res.lane[l].wavefront == ctx->step_shown - 1 && ln->state == SCENARIO_LANE_OK;
        int marks = sel ? MARK_SELECT : 0;
        tui_role role = step_lit ? ROLE_HILITE : ROLE_NORMAL;
        int x = in.x + draw_text_mark(ctx->crt, y, in.x, in.w, ROLE_KEY, marks, "lane %2d: ", l);
        int w = in.w - (x - in.x);
        strbuf_clear(&el);
        if (ln->state != SCENARIO_LANE_OK) {
            const char *why = ln->state == SCENARIO_LANE_EVAL_ERROR ? expr_status_text(ln->eval)
                                                                    : scenario_lane_state_text(ln->state);
            bool excluded = ln->state == SCENARIO_LANE_OOB || ln->state == SCENARIO_LANE_MISALIGNED ||
                            ln->state == SCENARIO_LANE_EVAL_ERROR;
            if (ln->state == SCENARIO_LANE_OOB || ln->state == SCENARIO_LANE_MISALIGNED)
                scenario_lane_element(s, v->in.access, ln, &el);
            snprintf(tail, sizeof tail, "%s%s%s", el.len ? ": " : "", why, excluded ? " (left out)" : "");
            fit_line(ctx, y, x, w, excluded ? ROLE_ERROR : ROLE_DIM, marks, strbuf_str(&el), tail);
            continue;
        }
        if (!s->is_trace)
            scenario_lane_element(s, v->in.access, ln, &el);
        if (ctx->quiz_hidden) { /* predict first: the address, not its bank */
            snprintf(tail, sizeof tail, " = %lld B", (long long)ln->address);
            fit_line(ctx, y, x, w, role, marks, strbuf_str(&el), tail);
            continue;
        }
        for (int k = 0; k <= 5; k++) { /* the longest form that fits the line, the swizzle's first */
            lane_tail(ctx, v, l, k % 3, k < 3, tail, sizeof tail);
            if (draw_width(strbuf_str(&el)) + draw_width(tail) <= w)
                break;
        }
        fit_line(ctx, y, x, w, role, marks, strbuf_str(&el), tail);
    }
    strbuf_free(&el);
}
