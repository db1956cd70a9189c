/* panel_lanes: the lane table, one line per lane in textbook form:
 * "lane 1: tile[1][0] = base + 132 B -> word 33 -> bank 1". */
#include <stdio.h>

#include "io/report.h"
#include "tui/draw.h"

void panel_lanes_draw(tui_app *a, const layout_rect *r)
{
    layout_rect in = panel_frame(a, r, "lanes", a->focus == FOCUS_LANES);
    const tui_view *v = &a->view;
    if (in.h < 1 || !v->valid)
        return;
    if (a->sel_lane < a->lanes_scroll)
        a->lanes_scroll = a->sel_lane;
    if (a->sel_lane >= a->lanes_scroll + in.h)
        a->lanes_scroll = a->sel_lane - in.h + 1;
    const scenario *s = &a->sc;
    strbuf el = {0};
    for (int i = 0; i < in.h && a->lanes_scroll + i < BANKS_WARP; i++) {
        int l = a->lanes_scroll + i, y = in.y + i;
        const scenario_lane *ln = &v->in.lane[l];
        bool sel = l == a->sel_lane;
        tui_role role = sel ? ROLE_SELECTED : ROLE_NORMAL;
        draw_fill(a, y, in.x, in.w, role);
        int x = in.x + draw_text(a, y, in.x, in.w, sel ? ROLE_SELECTED : ROLE_KEY, "lane %2d: ", l);
        int w = in.w - (x - in.x);
        if (ln->state != SCENARIO_LANE_OK) {
            const char *why = ln->state == SCENARIO_LANE_EVAL_ERROR ? expr_status_text(ln->eval)
                                                                    : scenario_lane_state_text(ln->state);
            strbuf_clear(&el);
            if (ln->state == SCENARIO_LANE_OOB || ln->state == SCENARIO_LANE_MISALIGNED)
                scenario_lane_element(s, v->in.access, ln, &el);
            draw_text(a, y, x, w, sel ? ROLE_SELECTED : ROLE_DIM, "%s%s%s", strbuf_str(&el), el.len ? ": " : "", why);
            continue;
        }
        strbuf_clear(&el);
        scenario_lane_element(s, v->in.access, ln, &el);
        char banks[16];
        report_banks_text(s->arch, ln->address, v->in.req.width, banks, sizeof banks);
        const char *arrow = crt_glyph(&a->crt, "→", "->");
        int64_t base = s->is_trace ? 0 : s->arrays[s->accesses[v->in.access].array].start;
        if (s->is_trace)
            draw_text(a, y, x, w, role, "%lld B %s word %lld %s bank %s%s", (long long)ln->address, arrow,
                      (long long)banks_word_of(s->arch, ln->address), arrow, banks,
                      v->res.lane[l].broadcast ? " (shared word)" : "");
        else if (in.w < 56) /* narrow: the byte address alone */
            draw_text(a, y, x, w, role, "%s = %lld B %s word %lld %s bank %s", strbuf_str(&el),
                      (long long)ln->address, arrow, (long long)banks_word_of(s->arch, ln->address), arrow, banks);
        else
            draw_text(a, y, x, w, role, "%s = %s + %lld B %s word %lld %s bank %s%s", strbuf_str(&el),
                      base ? "start" : "base", (long long)(ln->address - base), arrow,
                      (long long)banks_word_of(s->arch, ln->address), arrow, banks,
                      v->res.lane[l].broadcast ? " (shared word)" : "");
    }
    strbuf_free(&el);
}
