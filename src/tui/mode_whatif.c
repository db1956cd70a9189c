/* mode_whatif: the advisor (v) on a recording: per shared variable with conflicts, the layouts
 * tried on the recorded addresses (model/whatif.h), ranked; arrows choose one, Enter applies it
 * as a what-if (one edit: the trace's addresses remapped, labelled "what-if: ..." in the grid, the
 * lane table and the source view), and u in the view returns to the recording as measured. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/report.h"
#include "tui/app.h"

/* The advisor on a recording (mode_whatif.c): the layouts of its shared variables tried on the
 * recorded addresses; Enter applies one as a what-if. */
#define WHATIF_ROWS (4 * (WHATIF_TOP + 3))
typedef struct whatif_state {
    recording_regions g; /* the recording's regions (names and types owned here) */
    whatif_result res[4];
    int searched[4], nres;
    int nrows;
    struct {
        int k; /* which search */
        whatif_layout l;
        whatif_cost c;
    } rows[WHATIF_ROWS];
    int cursor, scroll;
    int64_t threads;
    char error[200]; /* why there is nothing to show; "" */
    int lines_for;   /* the row lines[] describes; -1 none yet */
    char lines[400]; /* that row's effect per source line: "line 25: 1024 -> 32; ..." */
} whatif_state;

/* The what-if list's state, while it is open. */
static whatif_state *wst(const tui_app *a)
{
    return app_mode_state(a, MODE_WHATIF);
}
#include "util.h"

/* Fill the rows: every search's shown layouts, the ranked ones first, then the best of each kind
 * the ranking left out. */
static void whatif_rows(whatif_state *w)
{
    w->nrows = 0;
    for (int k = 0; k < w->nres; k++) {
        const whatif_result *r = &w->res[k];
        for (int i = 0; i < r->ntop && w->nrows < WHATIF_ROWS; i++) {
            w->rows[w->nrows].k = k;
            w->rows[w->nrows].l = r->top[i];
            w->rows[w->nrows++].c = r->top_cost[i];
        }
        for (int kind = WHATIF_PAD; kind <= WHATIF_SOA; kind++) {
            bool in = false;
            for (int i = 0; i < r->ntop; i++)
                in = in || r->top[i].kind == (whatif_kind)kind;
            if (r->has[kind] && !in && w->nrows < WHATIF_ROWS) {
                w->rows[w->nrows].k = k;
                w->rows[w->nrows].l = r->best_of[kind];
                w->rows[w->nrows++].c = r->best_of_cost[kind];
            }
        }
    }
}

/* v on a trace: read the recording's arrays, search each region with conflicts, open the list. */
int whatif_open(tui_app *a, int key)
{
    (void)key;
    if (a->sc.whatif) {
        app_set_message(a, true, "a what-if is applied (%s): u returns to the recording as measured", a->sc.whatif);
        return REACT_REDRAW;
    }
    const recording_doc *d = a->rec.doc; /* read when the file was opened */
    int rc = d ? d->rc : 0;
    if (rc <= 0) {
        app_set_message(a, true, "%s", rc < 0 ? d->err.text : "a trace has no array to pad (a recording does)");
        return REACT_REDRAW;
    }
    if (!app_push(a, &mode_whatif)) /* its state, filled here */
        return REACT_REDRAW;
    whatif_state *w = wst(a);
    recording_regions_build(&d->r, a->source, a->srcopt.dir ? a->srcopt.dir : a->srcopt.hint, &a->sc, &w->g);
    whatif_input in = recording_whatif_input(&a->sc, &d->r, &w->g);
    w->threads = in.threads;
    w->nres = whatif_conflicted_regions(&in, w->searched, 4);
    for (int k = 0; k < w->nres; k++)
        whatif_search(&in, w->searched[k], &w->res[k]);
    whatif_rows(w);
    if (w->nres == 0)
        snprintf(w->error, sizeof w->error, "nothing to gain: no recorded instruction has a bank conflict");
    else if (w->nrows == 0)
        snprintf(w->error, sizeof w->error, "nothing to gain: no layout tried does better than the recording");
    w->lines_for = -1;
    return REACT_REDRAW;
}

/* Arrows and pages move the chosen row. */
static int whatif_move(tui_app *a, int key)
{
    whatif_state *w = wst(a);
    if (!w || w->nrows == 0)
        return REACT_NONE;
    int d = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 : key == KEY_PPAGE ? -10 : 10;
    int c = w->cursor + d;
    w->cursor = c < 0 ? 0 : c >= w->nrows ? w->nrows - 1 : c;
    return REACT_REDRAW;
}

/* The edit that applies a what-if to the clone app_edit makes: each trace entry's addresses
 * remapped with the layout into a new table (the clone shares the old one with the undo
 * history), the layout's name kept on the scenario. */
typedef struct whatif_edit {
    const whatif_state *w;
    const whatif_layout *l;
    const char *label;
} whatif_edit;

static bool edit_whatif(scenario *s, void *ctx, char *msg, size_t n)
{
    const whatif_edit *e = ctx;
    whatif_input in = {.arch = s->arch,
                       .trace = s->trace,
                       .ntrace = s->ntrace,
                       .regions = e->w->g.regions,
                       .nregions = e->w->g.n,
                       .threads = (int)e->w->threads};
    banks_request *moved = xmalloc(sizeof *moved * (size_t)(s->ntrace ? s->ntrace : 1));
    for (int i = 0; i < s->ntrace; i++)
        if (!whatif_remap_request(&in, e->l, &s->trace[i], &moved[i], msg, n)) {
            free(moved);
            return false;
        }
    scenario_table_set_requests(s, moved); /* new addresses, the same source map (shared) */
    free(s->whatif);
    s->whatif = xstrdup(e->label);
    return true;
}

/* Enter: the chosen layout applied to the recorded addresses as one edit, then back to the view. */
static int whatif_apply(tui_app *a, int key)
{
    (void)key;
    whatif_state *w = wst(a);
    if (!w || w->cursor < 0 || w->cursor >= w->nrows) {
        app_set_message(a, true, "%s", w && w->error[0] ? w->error : "choose a layout first");
        return REACT_REDRAW;
    }
    char label[160], done[300];
    const whatif_layout *l = &w->rows[w->cursor].l;
    whatif_layout_short(l, &w->g.regions[l->region], label, sizeof label);
    snprintf(done, sizeof done,
             "what-if: %s applied to the recorded addresses (u returns to the recording as measured)", label);
    whatif_state *keep = w; /* app_pop frees it: the edit runs first */
    whatif_edit e = {keep, l, label};
    int rc = app_edit(a, edit_whatif, &e, done);
    app_pop(a);
    return rc;
}

/* The chosen row's effect per source line that changes, and the total, into w->lines (kept
 * until the cursor moves: it predicts every recorded instruction twice). */
static void row_lines(const tui_app *a, whatif_state *w)
{
    if (w->lines_for == w->cursor || w->cursor < 0 || w->cursor >= w->nrows)
        return;
    w->lines_for = w->cursor;
    whatif_input in = {.arch = a->sc.arch,
                       .trace = a->sc.trace,
                       .ntrace = a->sc.ntrace,
                       .regions = w->g.regions,
                       .nregions = w->g.n,
                       .threads = (int)w->threads};
    whatif_line *v;
    int n = whatif_lines(&in, a->sc.trace_at, &w->rows[w->cursor].l, &v);
    int64_t b = 0, af = 0;
    size_t k = 0;
    w->lines[0] = '\0';
    for (int i = 0; i < n; i++) {
        b += v[i].before;
        af += v[i].after;
        if (v[i].before != v[i].after && k < sizeof w->lines)
            k += (size_t)snprintf(w->lines + k, sizeof w->lines - k, "line %d: %lld -> %lld; ", v[i].line,
                                  (long long)v[i].before, (long long)v[i].after);
    }
    if (k < sizeof w->lines)
        snprintf(w->lines + k, sizeof w->lines - k, "total %lld -> %lld wavefronts", (long long)b, (long long)af);
    if (n > 0)
        free(v);
}

/* name cut to width cells with an ellipsis when longer, padded with spaces to width when shorter:
 * two layouts of one array differ only at the end of their names. */
static void fit_name(const tui_crt *crt, char name[static 160], int width)
{
    const char *ell = crt_glyph(crt, "…", "~");
    if (draw_width(name) > width) {
        size_t n = strlen(name);
        while (n > 0 && draw_width(name) + 1 > width) {
            do
                n--;
            while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80);
            name[n] = '\0';
        }
        if (n + strlen(ell) < 160)
            strcat(name, ell);
    }
    size_t n = strlen(name);
    for (int k = draw_width(name); k < width && n + 1 < 160; k++)
        name[n++] = ' ';
    name[n] = '\0';
}

/* Row i's layout name; without its array's name when every row is of one array (the line above
 * the table names it), so that a narrow panel shows the part that tells the rows apart. */
static char *row_name(const whatif_state *w, int i, char name[static 160])
{
    const whatif_layout *l = &w->rows[i].l;
    const char *region = w->g.regions[l->region].name;
    whatif_layout_short(l, &w->g.regions[l->region], name, 160);
    bool one_array = true;
    for (int k = 0; k < w->nrows; k++)
        one_array = one_array && w->rows[k].l.region == l->region;
    size_t n = strlen(region);
    if (one_array && strncmp(name, region, n) == 0 && name[n] == ' ')
        memmove(name, name + n + 1, strlen(name + n + 1) + 1);
    return name;
}

/* The panel: the assumption, each searched array now, the ranked rows, the chosen row's lines and
 * its declaration. */
static void whatif_draw(tui_app *a)
{
    whatif_state *w = wst(a);
    int width = a->cols - 4 < 110 ? a->cols - 4 : 110, h = a->rows - 2;
    layout_rect box = {1, (a->cols - width) / 2, h, width};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(&a->crt, y, box.x, box.w, ROLE_NORMAL);
    layout_rect in =
        panel_frame(&a->crt, &box, "advisor on the recording: layouts tried on its addresses (Enter: what-if)", true);
    app_bar_draw(a);
    if (!w || in.h < 5)
        return;
    int y = in.y;
    draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_DIM, "assumption: the kernel's indexing follows the declared layout");
    if (w->error[0]) {
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_OK, "%s", w->error);
        return;
    }
    for (int k = 0; k < w->nres && y < in.y + 3; k++) {
        const whatif_result *r = &w->res[k];
        char deg[32];
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_NORMAL, "%s: now %lld wavefronts (ideal %lld), %s",
                       w->g.regions[r->region].name, (long long)r->current.wavefronts, (long long)r->current.ideal,
                       report_degree_text(r->current.worst, deg, sizeof deg));
    }
    /* the name column takes the width the numbers leave, up to the longest name */
    enum { NUMBERS_W = 1 + 8 + 1 + 6 + 1 + 13 + 1 + 7 + 1 + 5 };
    int namew = 26;
    for (int i = 0; i < w->nrows; i++) {
        char name[160];
        int nw = draw_width(row_name(w, i, name));
        namew = nw > namew ? nw : namew;
    }
    if (namew > in.w - 2 - NUMBERS_W) /* a narrow box shortens the names, not the numbers */
        namew = in.w - 2 - NUMBERS_W > 12 ? in.w - 2 - NUMBERS_W : 12;
    char head[300];
    snprintf(head, sizeof head, "  %-*s %8s %6s %-13s %7s %5s", namew, "layout", "wavefr.", "ideal", "worst", "extra B",
             "occ.");
    draw_text_cut(&a->crt, y++, in.x, in.w, ROLE_KEY, 0, head);
    int room = in.y + in.h - y - 3;
    if (room < 1)
        return;
    if (w->cursor < w->scroll)
        w->scroll = w->cursor;
    if (w->cursor >= w->scroll + room)
        w->scroll = w->cursor - room + 1;
    for (int i = w->scroll; i < w->nrows && i < w->scroll + room; i++) {
        const whatif_layout *l = &w->rows[i].l;
        const whatif_cost *c = &w->rows[i].c;
        char name[160], deg[32];
        row_name(w, i, name);
        fit_name(&a->crt, name, namew);
        bool chosen = i == w->cursor;
        char row[400];
        snprintf(row, sizeof row, "%c %s %8lld %6lld %-13s %+7lld %4.0f%%", chosen ? '>' : ' ', name,
                 (long long)c->wavefronts, (long long)c->ideal, report_degree_text(c->worst, deg, sizeof deg),
                 (long long)l->extra_bytes, 100 * c->occupancy);
        draw_text_cut(&a->crt, y++, in.x, in.w, c->wavefronts == c->ideal ? ROLE_OK : ROLE_NORMAL,
                      chosen ? MARK_SELECT : 0, row);
    }
    if (w->nrows > 0) {
        const whatif_layout *l = &w->rows[w->cursor].l;
        const whatif_result *r = &w->res[w->rows[w->cursor].k];
        char decl[400];
        int ri = l->region;
        whatif_layout_decl(l, &w->g.regions[ri], w->g.types[ri][0] ? w->g.types[ri] : NULL, r->elem, decl, sizeof decl);
        draw_textf_cut(&a->crt, in.y + in.h - 1, in.x, in.w, ROLE_HILITE, "write: %s", decl);
        row_lines(a, w);
        draw_textf_cut(&a->crt, in.y + in.h - 2, in.x, in.w, ROLE_NORMAL, "%s", w->lines);
    }
}

/* This mode's own rows of the action table. */
static const tui_action whatif_actions[] = {
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE},
     .nshow = 2,
     .label = "choose",
     .help = "choose a layout",
     .handler = whatif_move,
     .modes = MODE_BIT(MODE_WHATIF)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "what-if",
     .help = "apply the chosen layout to the recorded addresses as a what-if (u returns)",
     .handler = whatif_apply,
     .modes = MODE_BIT(MODE_WHATIF)},
};

const tui_mode mode_whatif = {
    .id = MODE_WHATIF,
    .name = "advisor on a recording",
    .overlay = true,
    .draw = whatif_draw,
    .state_size = sizeof(whatif_state), /* freed when popped: the search runs again on the next v */
    .actions = whatif_actions,
    .nactions = (int)(sizeof whatif_actions / sizeof whatif_actions[0]),
};
