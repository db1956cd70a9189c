/* mode_source: the source view (V), on the pager: the rows of the scenario's source file
 * (model/source_lines: an import's accesses on the lines their locations name, a recording's
 * instructions on its lines), each with a gutter holding the line number, the predicted
 * wavefronts / ideal summed over every warp-instruction of its accesses (analyze's sums) and the
 * worst conflict degree, and a recording's measured wavefronts where it has them. S sorts the
 * rows by cost, Enter goes to the grid of the row's first access, / n N search; Esc or q goes back.
 * A recording opens on this view. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "tui/app.h"

/* Lines the pager shows: the page between the two title lines and the two bottom lines. */
static int source_page(const tui_app *a)
{
    int h = a->rows - 4;
    return h > 1 ? h : 1;
}

void source_view_free(tui_app *a)
{
    source_state *v = &a->srcview;
    source_lines_free(&v->sl);
    recording_free(&v->rec);
    free(v->order);
    free(v->rows);
    v->order = NULL;
    v->rows = NULL;
    v->nshown = 0;
    pager_set(&v->pager, NULL, 0, false);
}

/* The gutter's stats of row r ("141/36  8-way", "" without accesses). */
static void row_stats(const source_row *r, char *buf, size_t n)
{
    buf[0] = '\0';
    if (r->naccess == 0)
        return;
    int k = snprintf(buf, n, "%lld/%lld %2d-way", (long long)r->wavefronts, (long long)r->ideal, r->worst);
    if (r->measured.known && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, " meas. %llu", (unsigned long long)r->measured.wavefronts);
}

/* The rows on show, in file order or by cost. */
static void source_rows(tui_app *a)
{
    source_state *v = &a->srcview;
    int n = v->sl.nrows > 0 ? v->sl.nrows : 1;
    free(v->order);
    free(v->rows);
    v->order = xmalloc(sizeof *v->order * (size_t)n);
    v->rows = xmalloc(sizeof *v->rows * (size_t)n);
    v->nshown = source_lines_order(&v->sl, v->sorted, v->order);
    v->stats_w = 0;
    for (int i = 0; i < v->nshown; i++) {
        const source_row *r = &v->sl.rows[v->order[i]];
        v->rows[i] = r->text ? r->text : r->line == 0 ? "(no line information)" : "";
        char st[96];
        row_stats(r, st, sizeof st);
        int w = draw_width(st);
        v->stats_w = w > v->stats_w ? (w < 48 ? w : 48) : v->stats_w;
    }
    int cursor = v->pager.cursor;
    pager_set(&v->pager, v->rows, v->nshown, true);
    v->pager.cursor = cursor >= 0 && cursor < v->nshown ? cursor : 0;
    pager_clamp(&v->pager, source_page(a));
}

/* Build the rows of the scenario on show; false with a message when it has no source. */
static bool source_build(tui_app *a)
{
    source_state *v = &a->srcview;
    io_error err;
    if (a->sc.is_trace && recording_read(a->source, &v->rec, &err) < 0) {
        app_set_message(a, true, "%s", err.text);
        return false;
    }
    char fb[4096];
    const char *file = source_lines_file(&a->sc, v->rec.rows, v->rec.nrows, fb, sizeof fb);
    size_t len = 0;
    char *text = file ? load_read_file(file, &len, &err) : NULL; /* the file's text when it is there */
    char why[300] = "";
    bool ok = source_lines_build(&a->sc, text, len, v->rec.rows, v->rec.nrows, NULL, 0, &v->sl, why, sizeof why);
    free(text);
    if (!ok) {
        app_set_message(a, true, "no source: %s", why[0] ? why : "the accesses do not say where they come from");
        return false;
    }
    return true;
}

int source_open(tui_app *a, int key)
{
    (void)key;
    source_state *v = &a->srcview;
    source_view_free(a);
    if (!source_build(a)) {
        source_view_free(a);
        return REACT_REDRAW;
    }
    v->sorted = false;
    v->pager.cursor = 0;
    source_rows(a);
    for (int i = 0; i < v->nshown; i++) { /* start on the row of the access on show */
        const source_row *r = &v->sl.rows[v->order[i]];
        for (int k = 0; k < r->naccess; k++)
            if (r->access[k] == a->access)
                v->pager.cursor = i;
    }
    pager_clamp(&v->pager, source_page(a));
    app_push(a, &mode_source);
    return REACT_REDRAW;
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
        int row = v->pager.cursor;
        const source_row *r = row >= 0 && row < v->nshown ? &v->sl.rows[v->order[row]] : NULL;
        if (!r || r->naccess == 0) {
            app_set_message(a, true, "no access on this line");
            return REACT_REDRAW;
        }
        int acc = r->access[0], line = r->line;
        app_pop(a);
        a->access = acc < scenario_access_count(&a->sc) ? acc : 0;
        a->step.shown = 0;
        app_set_message(a, false, "line %d: %s %d", line, a->sc.is_trace ? "instruction" : "access", acc);
        return REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
    }
    pager_scroll_key(&v->pager, key, page);
    return REACT_REDRAW;
}

/* The gutter: the line number right-aligned, then the numbers right-aligned too, so the text
 * stays in one column whether a line has accesses or not. */
static void source_style(void *ctx, int row, tui_pager_line *out)
{
    const tui_app *a = ctx;
    const source_state *v = &a->srcview;
    const source_row *r = &v->sl.rows[v->order[row]];
    int w = 1;
    for (int n = v->sl.nrows; n >= 10; n /= 10)
        w++;
    char num[16], stats[96];
    if (r->line > 0)
        snprintf(num, sizeof num, "%d", r->line);
    else
        snprintf(num, sizeof num, "-");
    row_stats(r, stats, sizeof stats);
    int o = 0;
    for (int k = (int)strlen(num); k < w && o < 20; k++)
        out->gutter[o++] = ' ';
    o += snprintf(out->gutter + o, sizeof out->gutter - (size_t)o, "%s ", num);
    for (int k = draw_width(stats); k < v->stats_w && o < (int)sizeof out->gutter - 1; k++)
        out->gutter[o++] = ' ';
    snprintf(out->gutter + o, sizeof out->gutter - (size_t)o, "%s", stats);
    if (r->naccess == 0) {
        out->role = r->text ? ROLE_NORMAL : ROLE_DIM;
        return;
    }
    out->gutter_role = r->worst > 1 ? ROLE_CONFLICT : ROLE_OK;
    bool here = false;
    for (int k = 0; k < r->naccess; k++)
        here |= r->access[k] == a->access;
    out->role = here ? ROLE_HILITE : ROLE_NORMAL;
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
    char scope[300] = "";
    if (v->sl.recording)
        recording_scope(&v->rec, scope, sizeof scope);
    draw_text(&a->crt, 0, 0, a->cols, ROLE_TITLE, " SOURCE%s%s%s%s%s%s", sep, v->sl.file ? v->sl.file : "?", sep,
              v->sorted ? "lines by cost (S: file order)" : "file order (S: by cost)", *scope ? sep : "", scope);
    draw_text(&a->crt, 1, 0, a->cols, ROLE_DIM,
              " line, wavefronts/ideal, worst degree (all warp-instructions, %s model)%s%sEnter: grid",
              a->sc.arch->name, v->sl.measured ? ", measured wavefronts" : "", sep);
    layout_rect text = {2, 0, page, a->cols};
    pager_draw(&a->crt, &v->pager, &text, source_style, a);
    pager_status_draw(&a->crt, &v->pager, a->rows - 2, a->cols, page);
    app_bar_draw(a);
}

static void source_leave(tui_app *a)
{
    source_view_free(a);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action source_actions[] = {
    /* the source view */
    {{KEY_UP, KEY_DOWN, 'k', 'j'}, 2, "line", "choose a line", source_key, MODE_BIT(MODE_SOURCE), NULL},
    {{KEY_PPAGE, KEY_NPAGE, 'b', ' '}, 2, NULL, "a page (b / Space too)", source_key, MODE_BIT(MODE_SOURCE), NULL},
    {{KEY_HOME, KEY_END, 'g', 'G'},
     2,
     "ends",
     "the first / last line (g / G too)",
     source_key,
     MODE_BIT(MODE_SOURCE),
     NULL},
    {{KEY_LEFT, KEY_RIGHT, 'h', 'l'}, 2, NULL, "scroll sideways (long lines)", source_key, MODE_BIT(MODE_SOURCE), NULL},
    {{'\r', '\n', KEY_ENTER},
     1,
     "grid",
     "the grid view of the line's first access",
     source_key,
     MODE_BIT(MODE_SOURCE),
     NULL},
    {{'S'},
     1,
     "sort",
     "lines by cost (wavefronts beyond ideal) / in file order",
     source_key,
     MODE_BIT(MODE_SOURCE),
     NULL},
    {{'/'}, 1, "search", "search the text (Enter finds, Esc cancels)", source_key, MODE_BIT(MODE_SOURCE), NULL},
    {{'n', 'N'}, 2, "match", "next / previous match of the search", source_key, MODE_BIT(MODE_SOURCE), NULL},
};

const tui_mode mode_source = {
    MODE_SOURCE, "source view", false,        NULL,           source_mode_key,
    source_draw, NULL,          source_leave, source_actions, (int)(sizeof source_actions / sizeof source_actions[0])};
