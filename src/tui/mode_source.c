/* mode_source: the source view (V) on the pager: the source of the scenario on show
 * (view_source.c), a gutter with each line's predicted wavefronts / ideal and worst degree, S
 * sorting by cost, Enter going to the line's first access in the grid, / n N searching; Esc or q
 * goes back to the view it was opened from. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"

/* Lines the pager shows: the page between the two title lines and the two bottom lines. */
static int source_page(const tui_app *a)
{
    int h = a->rows - 4;
    return h > 1 ? h : 1;
}

/* The rows on show: every line in file order, or the lines with accesses by cost; then the
 * accesses left out. */
static void source_rows(tui_app *a)
{
    source_state *v = &a->srcview;
    int n = v->src.nlines + v->src.nskipped + 1;
    free(v->order);
    free(v->rows);
    v->order = xmalloc(sizeof *v->order * (size_t)n);
    v->rows = xmalloc(sizeof *v->rows * (size_t)n);
    int k = 0;
    for (int l = 0; l < v->src.nlines; l++)
        if (!v->sorted || v->costs[l].first_access >= 0)
            v->order[k++] = l;
    if (v->sorted) { /* by cost: wavefronts beyond ideal, then wavefronts, then line */
        for (int i = 1; i < k; i++) {
            int x = v->order[i], j = i;
            const tui_source_cost *cx = &v->costs[x];
            while (j > 0) {
                const tui_source_cost *cy = &v->costs[v->order[j - 1]];
                int64_t ex = cx->wavefronts - cx->ideal, ey = cy->wavefronts - cy->ideal;
                if (ey > ex || (ey == ex && cy->wavefronts >= cx->wavefronts))
                    break;
                v->order[j] = v->order[j - 1];
                j--;
            }
            v->order[j] = x;
        }
    }
    for (int i = 0; i < k; i++) {
        const char *t = v->src.text[v->order[i]];
        v->rows[i] = t ? t : "";
    }
    v->nlines_shown = k;
    if (v->src.nskipped > 0) {
        v->order[k] = -1;
        v->rows[k++] = "// left out by the import:";
        for (int i = 0; i < v->src.nskipped; i++) {
            v->order[k] = -1;
            v->rows[k++] = v->src.skipped[i];
        }
    }
    int cursor = v->pager.cursor;
    pager_set(&v->pager, v->rows, k, true);
    v->pager.cursor = cursor >= 0 && cursor < k ? cursor : 0;
    pager_clamp(&v->pager, source_page(a));
}

/* Open the source view of the scenario on show (V); says why when it has no source. */
int source_open(tui_app *a, int key)
{
    (void)key;
    source_state *v = &a->srcview;
    source_view_free(a);
    if (!source_from_scenario(&a->sc, &v->src)) {
        app_set_message(a, true, "%s",
                        a->sc.is_trace
                            ? "this trace carries no source lines"
                            : "no source: the accesses do not say where they come from (bankscope FILE.cu does)");
        return REACT_REDRAW;
    }
    v->costs = xmalloc(sizeof *v->costs * (size_t)(v->src.nlines > 0 ? v->src.nlines : 1));
    source_costs(&a->sc, &v->src, v->costs);
    v->stats_w = 0; /* the widest "wf/ideal NN-way" */
    for (int l = 0; l < v->src.nlines; l++) {
        char wf[64];
        int n = snprintf(wf, sizeof wf, "%lld/%lld %2d-way", (long long)v->costs[l].wavefronts,
                         (long long)v->costs[l].ideal, v->costs[l].worst);
        if (v->costs[l].first_access >= 0 && n > v->stats_w)
            v->stats_w = n < 40 ? n : 40;
    }
    v->sorted = false;
    v->pager.cursor = 0;
    source_rows(a);
    /* start on the line of the access on show */
    for (int i = 0; i < v->pager.nlines; i++)
        if (v->order[i] >= 0 && a->access < v->src.naccesses && v->src.line_of[a->access] == v->order[i] + 1)
            v->pager.cursor = i;
    pager_clamp(&v->pager, source_page(a));
    app_push(a, &mode_source);
    return REACT_REDRAW;
}

void source_view_free(tui_app *a)
{
    source_state *v = &a->srcview;
    source_free(&v->src);
    free(v->costs);
    free(v->order);
    free(v->rows);
    v->costs = NULL;
    v->order = NULL;
    v->rows = NULL;
    pager_set(&v->pager, NULL, 0, false);
}

/* Scroll, sort, search and go to the grid. */
int source_key(tui_app *a, int key)
{
    source_state *v = &a->srcview;
    int page = source_page(a);
    if (key == 'S') {
        v->sorted = !v->sorted;
        v->pager.cursor = 0;
        v->pager.scroll = 0;
        source_rows(a);
        app_set_message(a, false, "%s",
                        v->sorted ? "lines by cost: wavefronts beyond ideal first" : "lines in file order");
        return REACT_REDRAW;
    }
    if (key == '/') {
        pager_search_begin(&v->pager);
        return REACT_REDRAW;
    }
    if (key == 'n' || key == 'N') {
        bool wrapped = false;
        int r = pager_find_next(&v->pager, key == 'N' ? -1 : 1, page, &wrapped);
        if (r == PAGER_FOUND)
            app_set_message(a, false, "'%s': row %d%s", v->pager.query.buf, v->pager.hit + 1,
                            wrapped ? " (from the other end)" : "");
        else
            app_set_message(a, true, "'%s' is not in the source", v->pager.query.buf);
        return REACT_REDRAW;
    }
    if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        int row = v->pager.cursor, line = row >= 0 && row < v->pager.nlines ? v->order[row] : -1;
        int acc = line >= 0 ? v->costs[line].first_access : -1;
        if (acc < 0) {
            app_set_message(a, true, "no access on this line");
            return REACT_REDRAW;
        }
        app_pop(a);
        a->access = acc;
        a->step.shown = 0;
        app_set_message(a, false, "line %d: access %d", line + 1, acc);
        return REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
    }
    pager_scroll_key(&v->pager, key, page);
    return REACT_REDRAW;
}

/* The gutter: the line number, then wavefronts / ideal and the worst degree of its accesses. */
static void source_style(void *ctx, int row, tui_pager_line *out)
{
    const tui_app *a = ctx;
    const source_state *v = &a->srcview;
    int line = v->order[row];
    if (line < 0) {
        out->gutter[0] = '\0';
        out->role = ROLE_DIM;
        return;
    }
    const tui_source_cost *c = &v->costs[line];
    int w = 1;
    for (int n = v->src.nlines; n >= 10; n /= 10)
        w++;
    char num[16], stats[64] = "";
    snprintf(num, sizeof num, "%d", line + 1);
    if (c->first_access >= 0)
        snprintf(stats, sizeof stats, "%lld/%lld %2d-way", (long long)c->wavefronts, (long long)c->ideal, c->worst);
    /* the line number right-aligned, the numbers after it right-aligned too: the text stays in
     * one column whether a line has accesses or not */
    int o = 0;
    for (int k = (int)strlen(num); k < w && o < 20; k++)
        out->gutter[o++] = ' ';
    o += snprintf(out->gutter + o, sizeof out->gutter - (size_t)o, "%s ", num);
    for (int k = (int)strlen(stats); k < v->stats_w && o < (int)sizeof out->gutter - 1; k++)
        out->gutter[o++] = ' ';
    snprintf(out->gutter + o, sizeof out->gutter - (size_t)o, "%s", stats);
    if (c->first_access < 0) {
        out->role = v->src.text[line] ? ROLE_NORMAL : ROLE_DIM;
        return;
    }
    out->gutter_role = c->worst > 1 ? ROLE_CONFLICT : ROLE_OK;
    out->role = a->access < v->src.naccesses && v->src.line_of[a->access] == line + 1 ? ROLE_HILITE : ROLE_NORMAL;
}

static int source_mode_key(tui_app *a, int key)
{
    source_state *v = &a->srcview;
    if (!v->pager.searching)
        return actions_dispatch(a, MODE_SOURCE, key);
    int r = pager_search_key(&v->pager, key, source_page(a));
    if (r == PAGER_NOT_FOUND)
        app_set_message(a, true, "'%s' is not in the source", v->pager.query.buf);
    return REACT_REDRAW;
}

static void source_draw(tui_app *a)
{
    source_state *v = &a->srcview;
    int page = source_page(a);
    pager_clamp(&v->pager, page);
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    draw_fill(&a->crt, 0, 0, a->cols, ROLE_TITLE);
    draw_text(&a->crt, 0, 0, a->cols, ROLE_TITLE, " SOURCE%s%s%s%s", sep, v->src.file, sep,
              v->sorted ? "lines by cost (S: file order)" : "file order (S: by cost)");
    draw_text(&a->crt, 1, 0, a->cols, ROLE_DIM,
              " line, wavefronts/ideal, worst degree (all warp-instructions, %s model)%sEnter: grid", a->sc.arch->name,
              sep);
    layout_rect text = {2, 0, page, a->cols};
    pager_draw(&a->crt, &v->pager, &text, source_style, a);
    pager_status_draw(&a->crt, &v->pager, a->rows - 2, a->cols, page);
    app_bar_draw(a);
}

static void source_leave(tui_app *a)
{
    source_view_free(a);
}

const tui_mode mode_source = {MODE_SOURCE,     "source view", false, NULL,
                              source_mode_key, source_draw,   NULL,  source_leave};
