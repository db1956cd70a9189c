/* panel_lanes: the lane table, one line per lane in textbook form:
 * "lane 1: tile[1][0] = base + 132 B -> word 33 -> bank 1". The bank is never cut. Every line
 * takes one form, the elements padded to one width, so the columns line up: when a line does
 * not fit, every line's address form shortens, then every element is cut at its start to one
 * width with an ellipsis (its indices stay), and the panel's title says what was left out.
 * Lanes left out of the analysis say why. */
#include <stdio.h>
#include <stdlib.h>
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
    if (!scenario_has_layout(s)) {
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

/* The line parts of every lane: the element text of each (when it has one) and, for a lane that
 * is served, the tail of each form. */
typedef struct lane_texts {
    strbuf el[BANKS_WARP];
    bool served[BANKS_WARP];
} lane_texts;

/* The one form for every served lane: the longest (0 = start + offset with the swizzle's "was"
 * ... 5 = byte address, no word, no "was") in which every line fits w cells with the elements
 * padded to one width; 6 when none does (then the elements are cut, all to one width). The
 * element width to use goes to *elem_w. */
static int common_form(const tui_vctx *ctx, const tui_view *v, const lane_texts *t, int w, int *elem_w)
{
    int ew = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        if (t->served[l] && draw_width(strbuf_str(&t->el[l])) > ew)
            ew = draw_width(strbuf_str(&t->el[l]));
    char tail[200];
    for (int k = 0; k <= 5; k++) {
        int tw = 0;
        for (int l = 0; l < BANKS_WARP; l++)
            if (t->served[l]) {
                lane_tail(ctx, v, l, k % 3, k < 3, tail, sizeof tail);
                tw = draw_width(tail) > tw ? draw_width(tail) : tw;
            }
        if (ew + tw <= w || k == 5) {
            *elem_w = ew + tw <= w ? ew : w - tw - 1; /* cut: room for the ellipsis */
            return ew + tw <= w ? k : 6;
        }
    }
    return 0;
}

/* The panel's title in at most w cells: "lanes", and what the lines leave out to fit (form as
 * common_form): "lanes (addresses, no word, no unswizzled, elements cut)"; "addresses" (a form,
 * not a cut) gives way first when the title is too long for the frame. */
static void lanes_title(const tui_vctx *ctx, int form, int w, char *buf, size_t n)
{
    const scenario *s = ctx->sc;
    int ai = scenario_access_array(s, ctx->view->in.access);
    bool swz = ai >= 0 && s->arrays[ai].swz_bits;
    int k = form > 5 ? 5 : form;
    const char *part[4] = {k % 3 ? "addresses" : NULL, k % 3 == 2 ? "no word" : NULL,
                           swz && k >= 3 ? "no unswizzled" : NULL, form > 5 ? "elements cut" : NULL};
    for (int first = 0; first < 2; first++) {
        size_t len = (size_t)snprintf(buf, n, "%s%s%slanes", s->whatif ? "what-if: " : "", s->whatif ? s->whatif : "",
                                      s->whatif ? " | " : "");
        int shown = 0;
        for (int i = first; i < 4; i++)
            if (part[i] && len < n)
                len += (size_t)snprintf(buf + len, n - len, "%s%s", shown++ ? ", " : " (", part[i]);
        if (shown && len < n)
            snprintf(buf + len, n - len, ")");
        if (draw_width(buf) <= w)
            return;
    }
}

void panel_lanes_draw(const tui_vctx *ctx, const lanes_geom *g)
{
    layout_rect in = g->in;
    const tui_view *v = ctx->view;
    const scenario *s = ctx->sc;
    if (in.h < 1 || !v->valid) {
        panel_frame(ctx->crt, &ctx->frame->lay.lanes, "lanes", ctx->focus == 1);
        return;
    }
    /* every line in one form, the elements padded to one width, so the columns line up; what
     * that form leaves out is said in the title */
    lane_texts *t = xcalloc(1, sizeof *t);
    int w = in.w - draw_width("lane 31: ");
    for (int l = 0; l < BANKS_WARP; l++) {
        const scenario_lane *ln = &v->in.lane[l];
        t->served[l] = ln->state == SCENARIO_LANE_OK && !ctx->quiz_hidden;
        if (ln->state == SCENARIO_LANE_OK ? scenario_has_layout(s)
                                          : ln->state == SCENARIO_LANE_OOB || ln->state == SCENARIO_LANE_MISALIGNED)
            scenario_lane_element(s, v->in.access, ln, &t->el[l]);
    }
    int elem_w = 0, form = 0;
    if (scenario_has_layout(s)) /* a trace's lines have one form (no element, no offset); fit_line cuts a long one */
        form = common_form(ctx, v, t, w, &elem_w);
    char title[120];
    lanes_title(ctx, form, ctx->frame->lay.lanes.w - 6, title, sizeof title);
    panel_frame(ctx->crt, &ctx->frame->lay.lanes, title, ctx->focus == 1);
    char tail[200];
    for (int i = 0; i < in.h && g->scroll + i < BANKS_WARP; i++) {
        int l = g->scroll + i, y = in.y + i;
        const scenario_lane *ln = &v->in.lane[l];
        const char *elem = strbuf_str(&t->el[l]);
        bool sel = l == ctx->sel_lane;
        bool step_lit = (ctx->opts & VIEW_STEP) && v->res.lane[l].phase >= 0 && ctx->step_shown > 0 &&
                        v->res.lane[l].wavefront == ctx->step_shown - 1 && ln->state == SCENARIO_LANE_OK;
        int marks = sel ? MARK_SELECT : 0;
        tui_role role = step_lit ? ROLE_HILITE : ROLE_NORMAL;
        int x = in.x + draw_text_mark(ctx->crt, y, in.x, in.w, ROLE_KEY, marks, "lane %2d: ", l);
        int lw = in.w - (x - in.x);
        if (ln->state != SCENARIO_LANE_OK) {
            const char *why = ln->state == SCENARIO_LANE_EVAL_ERROR ? expr_status_text(ln->eval)
                                                                    : scenario_lane_state_text(ln->state);
            bool excluded = ln->state == SCENARIO_LANE_OOB || ln->state == SCENARIO_LANE_MISALIGNED ||
                            ln->state == SCENARIO_LANE_EVAL_ERROR;
            snprintf(tail, sizeof tail, "%s%s%s", *elem ? ": " : "", why, excluded ? " (left out)" : "");
            fit_line(ctx, y, x, lw, excluded ? ROLE_ERROR : ROLE_DIM, marks, elem, tail);
            continue;
        }
        if (ctx->quiz_hidden) { /* predict first: the address, not its bank */
            snprintf(tail, sizeof tail, " = %lld B", (long long)ln->address);
            fit_line(ctx, y, x, lw, role, marks, elem, tail);
            continue;
        }
        int f = form > 5 ? 5 : form; /* cut elements take the shortest tail */
        lane_tail(ctx, v, l, f % 3, f < 3, tail, sizeof tail);
        /* the tails start in one column: after elem_w cells, or after elem_w + 1 when elements
         * are cut (the ellipsis takes the cell); an element is cut at its start, so that its
         * indices and field stay ("…ems[3].d") */
        int ew = draw_width(elem), col = form > 5 ? elem_w + 1 : elem_w;
        const char *dots = "";
        while (ew > col && *elem) { /* drop characters at the start, whole ones */
            do
                elem++;
            while (((unsigned char)*elem & 0xC0) == 0x80);
            ew = draw_width(elem) + 1;
            dots = crt_glyph(ctx->crt, "…", "~");
        }
        int n = draw_text_mark(ctx->crt, y, x, lw, role, marks, "%s%s%*s", dots, elem, col > ew ? col - ew : 0, "");
        draw_text_mark(ctx->crt, y, x + n, lw - n, role, marks, "%s", tail);
    }
    for (int l = 0; l < BANKS_WARP; l++)
        strbuf_free(&t->el[l]);
    free(t);
}
