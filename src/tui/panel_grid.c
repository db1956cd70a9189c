/* panel_grid: the bank grid: one column per bank, one row per wavefront, each cell the lane(s)
 * the bank serves in that wavefront. Conflicting words are red, shared words (broadcast)
 * yellow, the selected lane green; in step mode only the wavefronts replayed so far show. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/draw.h"

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

void panel_grid_draw(tui_app *a, const layout_rect *r, const scenario *s, const tui_view *v, const char *caption)
{
    bool focused = a->focus == FOCUS_GRID && !a->compare;
    layout_rect in = panel_frame(a, r, caption, focused);
    if (in.h < 2 || !v->valid)
        return;
    const banks_profile *p = s->arch;
    int cw = a->lay.cell_w, banks = p->banks;
    int rows = v->res.wavefronts;
    /* bank numbers: one line when a cell has room for a space and two digits, else tens
     * above ones */
    int head = cw >= 3 ? 1 : 2;
    draw_text(a, in.y + head - 1, in.x, 5, ROLE_DIM, "%s", "wave");
    if (head == 2)
        draw_text(a, in.y, in.x, 5, ROLE_DIM, "%s", "bank");
    for (int b = 0; b < banks; b++) {
        tui_role role = (b & 1) ? ROLE_BANK_B : ROLE_BANK_A;
        int x = in.x + 5 + b * cw;
        if (head == 1) {
            draw_text(a, in.y, x, cw, role, "%*d", cw, b);
        } else {
            if (b >= 10)
                draw_text(a, in.y, x + cw - 1, 1, role, "%d", b / 10);
            draw_text(a, in.y + 1, x + cw - 1, 1, role, "%d", b % 10);
        }
    }
    unsigned char load[BANKS_MAX_PHASES][BANKS_MAX_BANKS];
    bank_load(&v->res, v->cells, banks, load);
    int shown_rows = a->step_mode ? a->step : rows;
    int avail = in.h - head - 1; /* header and footer */
    if (a->grid_scroll > rows - avail)
        a->grid_scroll = rows - avail > 0 ? rows - avail : 0;
    const char *empty = crt_glyph(&a->crt, "·", ".");
    for (int i = 0; i < avail && a->grid_scroll + i < rows; i++) {
        int row = a->grid_scroll + i, y = in.y + head + i;
        int ph = phase_of_row(&v->res, row);
        draw_text(a, y, in.x, 4, (ph & 1) ? ROLE_BANK_B : ROLE_DIM, "%3d", row);
        draw_text(a, y, in.x + 4, 1, ROLE_DIM, "%s", row == v->res.phase[ph].first_row ? crt_glyph(&a->crt, "┤", "+") : crt_glyph(&a->crt, "│", "|"));
        for (int b = 0; b < banks; b++) {
            int x = in.x + 5 + b * cw;
            const banks_cell *c = &v->cells[row * banks + b];
            if (!c->lanes || row >= shown_rows) {
                draw_text(a, y, x, cw, ROLE_DIM, "%*s", cw, empty);
                continue;
            }
            int lane = __builtin_ctz(c->lanes);
            int n = __builtin_popcount(c->lanes);
            tui_role role = load[ph][b] > 1 ? ROLE_CONFLICT : (b & 1) ? ROLE_BANK_B : ROLE_OK;
            if (n > 1)
                role = ROLE_BROADCAST;
            if (c->lanes & (1u << a->sel_lane))
                role = ROLE_SELECTED;
            char txt[8];
            if (cw == 1)
                snprintf(txt, sizeof txt, "%c", n > 1 ? '*' : "0123456789abcdefghijklmnopqrstuv"[lane]);
            else if (n > 1 && cw >= 4)
                snprintf(txt, sizeof txt, "%2d+%d", lane, n - 1 > 9 ? 9 : n - 1);
            else if (n > 1)
                snprintf(txt, sizeof txt, "%*d%s", cw - 1, lane, cw > 2 ? "*" : "*");
            else
                snprintf(txt, sizeof txt, "%*d", cw, lane);
            if (cw >= 3 && n == 1)
                txt[0] = ' ';
            draw_text(a, y, x, cw, role, "%s", txt);
        }
    }
    char foot[160];
    if (rows == 0)
        snprintf(foot, sizeof foot, "no active lane: nothing to serve");
    else if (a->step_mode)
        snprintf(foot, sizeof foot, "step %d/%d: space next, Enter play, s leave", a->step, rows);
    else if (rows > avail)
        snprintf(foot, sizeof foot, "wavefronts %d-%d of %d (%s to scroll)", a->grid_scroll,
                 a->grid_scroll + avail - 1 < rows - 1 ? a->grid_scroll + avail - 1 : rows - 1, rows,
                 crt_glyph(&a->crt, "↑↓", "up/down"));
    else
        snprintf(foot, sizeof foot, "%d wavefront%s, %d phase%s", rows, rows == 1 ? "" : "s",
                 v->res.ideal_wavefronts, v->res.ideal_wavefronts == 1 ? "" : "s");
    draw_text(a, in.y + in.h - 1, in.x, in.w, ROLE_DIM, "%s", foot);
}
