/* panel_grid: the bank grid: one column per bank, one row per wavefront, each cell the lane(s)
 * the bank serves in that wavefront. Roles: a bank serving several words in one phase is a
 * conflict (red), and that wins over a shared word (broadcast, yellow); the selected lane is
 * marked on top of its role (reverse), never instead of it. Narrow cells alternate an underline
 * per bank so neighbouring two-digit lanes stay apart. A legend line says what the marks mean. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "model/explain.h"
#include "tui/view.h"

/* Rows of each phase where a bank serves a word: more than one means a conflict. */
static void bank_load(const banks_result *res, const banks_cell *cells, int banks,
                      unsigned char load[BANKS_MAX_PHASES][BANKS_MAX_BANKS])
{
    memset(load, 0, sizeof(unsigned char) * BANKS_MAX_PHASES * BANKS_MAX_BANKS);
    for (int p = 0; p < res->nphases; p++)
        for (int r = res->phase[p].first_row; r < res->phase[p].first_row + res->phase[p].wavefronts; r++)
            for (int b = 0; b < banks; b++)
                if (r < BANKS_MAX_ROWS && cells[r * banks + b].lanes)
                    load[p][b]++;
}

static int phase_of_row(const banks_result *res, int row)
{
    for (int p = 0; p < res->nphases; p++)
        if (row >= res->phase[p].first_row && row < res->phase[p].first_row + res->phase[p].wavefronts)
            return p;
    return 0;
}

/* Text of a cell cw wide: the lowest lane, and "+k" (k other lanes share its word; '*' or "+"
 * alone when the whole count does not fit: a count is never cut) for shared words. The marker
 * takes the same width whether it is there or not. joined: the cell to the left has text, so a
 * text that fills the cell would run into it ("8+110+1"): the count then needs a free cell. */
static void cell_text(int cw, int lane, int nlanes, bool selected, bool joined, bool letters, char *txt, size_t n)
{
    if (cw == 1)
        snprintf(txt, n, "%c", nlanes > 1 ? '*' : "0123456789abcdefghijklmnopqrstuv"[lane]);
    else if (cw == 2 && letters) /* one character and a space: lanes 10-31 as a-v, never run together */
        snprintf(txt, n, " %c", "0123456789abcdefghijklmnopqrstuv"[lane]);
    else if (cw == 2)
        snprintf(txt, n, "%2d", lane);
    else if (nlanes > 1 && cw == 3)
        snprintf(txt, n, "%2d+", lane);
    else if (nlanes > 1) {
        char full[16];
        int w = snprintf(full, sizeof full, "%d+%d", lane, nlanes - 1);
        if (w < cw || (w == cw && !joined))
            snprintf(txt, n, "%*s", cw, full);
        else
            snprintf(txt, n, "%*d+", cw - 1, lane);
    } else /* the selection marker sits right before the number */
        snprintf(txt, n, "%*s%d", cw - (lane >= 10 ? 2 : 1), selected ? ">" : "", lane);
}

/* The role of a cell: conflict first, then broadcast, then the bank's plain colour. */
static tui_role cell_role(int load, int nlanes, int bank)
{
    if (load > 1)
        return ROLE_CONFLICT;
    if (nlanes > 1)
        return ROLE_BROADCAST;
    return (bank & 1) ? ROLE_BANK_B : ROLE_OK;
}

/* One piece of the footer at x, whole or not at all (a word is never cut). Returns the cells. */
static int foot_piece(const tui_vctx *ctx, int y, int x, int end, tui_role role, const char *text)
{
    int w = draw_width(text);
    return w <= end - x ? draw_text(ctx->crt, y, x, end - x, role, "%s", text) : 0;
}

void panel_grid_draw(const tui_vctx *ctx, const grid_geom *g, const scenario *s, const tui_view *v, const char *caption,
                     bool focused, int shown)
{
    panel_frame(ctx->crt, &g->frame, caption, focused);
    const layout_rect in = g->in;
    if (in.h < 3 || !v->valid)
        return;
    int cw = g->cw, banks = s->arch->banks, rows = v->res.wavefronts;
    if (g->lw < 5) { /* compact row labels: no room for more than the row heading */
        draw_text(ctx->crt, in.y + g->head - 1, in.x, g->lw, ROLE_DIM, "wf");
    } else if (g->head == 2) {
        draw_text(ctx->crt, in.y, in.x, 5, ROLE_DIM, "bank");
        draw_text(ctx->crt, in.y + 1, in.x, 5, ROLE_DIM, "wf");
    } else {
        draw_text(ctx->crt, in.y, in.x, 5, ROLE_DIM, "wf\\bk");
    }
    for (int b = 0; b < banks; b++) {
        tui_role role = (b & 1) ? ROLE_BANK_B : ROLE_BANK_A;
        int x = g->x0 + b * cw;
        if (g->head == 1) {
            draw_text(ctx->crt, in.y, x, cw, role, "%*d", cw, b);
        } else {
            if (b >= 10)
                draw_text(ctx->crt, in.y, x + cw - 1, 1, role, "%d", b / 10);
            draw_text(ctx->crt, in.y + 1, x + cw - 1, 1, role, "%d", b % 10);
        }
    }
    unsigned char load[BANKS_MAX_PHASES][BANKS_MAX_BANKS];
    bank_load(&v->res, v->cells, banks, load);
    const char *empty = crt_glyph(ctx->crt, "·", ".");
    bool stepping = shown >= 0;
    if (stepping && shown > rows) /* beside a grid with more wavefronts: this one is done */
        shown = rows;
    /* 2-column cells: where two two-digit lanes would touch ("910111213") only colour would part
     * them, so the whole grid writes lanes 10-31 as the letters a-v (the footer gives the key) */
    bool letters = false;
    for (int i = 0; cw == 2 && !letters && i < g->nvis && g->scroll + i < rows; i++) {
        int row = g->scroll + i;
        for (int b = 1; b < banks && !letters; b++) {
            uint32_t l = v->cells[row * banks + b].lanes, left = v->cells[row * banks + b - 1].lanes;
            letters = l && left && __builtin_ctz(l) >= 10 && __builtin_ctz(left) >= 10;
        }
    }
    for (int i = 0; i < g->nvis && g->scroll + i < rows && shown != -2; i++) {
        int row = g->scroll + i, y = g->y0 + i;
        int ph = phase_of_row(&v->res, row);
        bool current = stepping && row == shown - 1;
        tui_role lrole = current ? ROLE_HILITE : (ph & 1) ? ROLE_BANK_B : ROLE_DIM; /* phases alternate */
        if (g->lw < 5) { /* compact: the cells' leading space separates the label */
            draw_text_mark(ctx->crt, y, in.x, g->lw, lrole, 0, "%*d", g->lw, row);
        } else {
            draw_text_mark(ctx->crt, y, in.x, 4, lrole, 0, "%3d", row);
            draw_text(ctx->crt, y, in.x + 4, 1, ROLE_DIM, "%s",
                      row == v->res.phase[ph].first_row ? crt_glyph(ctx->crt, "┤", "+")
                                                        : crt_glyph(ctx->crt, "│", "|"));
        }
        for (int b = 0; b < banks; b++) {
            int x = g->x0 + b * cw;
            const banks_cell *c = &v->cells[row * banks + b];
            int alt = cw <= 2 && (b & 1) ? MARK_ALT : 0;
            if (!c->lanes || (stepping && row >= shown)) {
                draw_text(ctx->crt, y, x + cw - 1, 1, ROLE_DIM, "%s", empty); /* right-aligned like the lanes */
                continue;
            }
            int lane = __builtin_ctz(c->lanes), n = __builtin_popcount(c->lanes);
            bool sel = ctx->sel_lane >= 0 && ((c->lanes >> ctx->sel_lane) & 1);
            char txt[16];
            bool joined = b > 0 && v->cells[row * banks + b - 1].lanes && !(stepping && row >= shown);
            cell_text(cw, lane, n, sel, joined, letters, txt, sizeof txt);
            draw_text_mark(ctx->crt, y, x, cw, cell_role(load[ph][b], n, b),
                           alt | (sel ? MARK_SELECT : 0) | (current ? MARK_STEP : 0), "%s", txt);
        }
    }
    /* footer: the legend (what the marks mean) and where the rows are */
    char foot[200];
    int fy = in.y + in.h - 1, x = in.x;
    if (rows == 0) {
        /* a kind the model does not cover has active lanes (the lane table lists them) */
        draw_text_cut(ctx->crt, fy, x, in.w, ROLE_DIM, 0,
                      v->res.not_modelled ? "not modelled: no wavefronts predicted, the lanes are listed"
                                          : "no active lane: nothing to serve");
        return;
    }
    if (shown == -2) { /* predict first: not even the count of rows */
        draw_text(ctx->crt, fy, x, in.w, ROLE_HILITE, "hidden until you predict (type a number, Enter)");
        return;
    }
    if (shown == -2)
        snprintf(foot, sizeof foot, "hidden until you predict ");
    else if (stepping)
        snprintf(foot, sizeof foot, "step %d of %d wf%s ", shown, rows, shown == rows ? ", done" : "");
    else if (rows > g->nvis)
        snprintf(foot, sizeof foot, "rows %d-%d of %d wf ", g->scroll,
                 g->scroll + g->nvis - 1 < rows - 1 ? g->scroll + g->nvis - 1 : rows - 1, rows);
    else
        snprintf(foot, sizeof foot, "%d wavefront%s ", rows, rows == 1 ? "" : "s");
    int end = in.x + in.w;
    /* each piece of the footer shows whole or not at all: the key first, then where the rows are,
     * the phases, then the legend */
    if (cw == 1 || letters) /* one character per lane: the letters need their key first */
        x += foot_piece(ctx, fy, x, end, ROLE_KEY, "a-v=lanes 10-31 ");
    x += foot_piece(ctx, fy, x, end, ROLE_DIM, foot);
    if (v->res.nphases > 1) { /* 8- and 16-byte accesses: each phase's rows start at a ┤ (row labels alternate) */
        char ph[64];
        explain_phases_text(&v->res, true, ph, sizeof ph - 1); /* the why text's words */
        strcat(ph, " ");
        x += foot_piece(ctx, fy, x, end, ROLE_BANK_B, ph);
    }
    x += foot_piece(ctx, fy, x, end, ROLE_CONFLICT, "conflict");
    x += foot_piece(ctx, fy, x, end, ROLE_NORMAL, " ");
    x += foot_piece(ctx, fy, x, end, ROLE_BROADCAST,
                    cw >= 4   ? "n+k shared"
                    : cw == 3 ? "n+ shared"
                    : cw == 1 ? "* shared"
                              : "shared");
    if (ctx->sel_lane < 0)
        return;
    x += draw_text(ctx->crt, fy, x, end - x, ROLE_NORMAL, " ");
    x += draw_text_mark(ctx->crt, fy, x, end - x, ROLE_OK, MARK_SELECT, "%slane %d", cw >= 3 ? ">" : "", ctx->sel_lane);
    x += draw_text(ctx->crt, fy, x, end - x, ROLE_DIM, " selected");
}
