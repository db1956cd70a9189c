/* mode_sass: the SASS view of a recording (D, and the view a recording without line info opens
 * on), on the pager: one row per SASS instruction the recorded block executed, with its
 * executions, predicted wavefronts/ideal and worst degree (summed over its executions, the engine
 * analyze uses), its line and its SASS. S sorts by cost (wavefronts beyond ideal) or by pc; Enter
 * opens the grid of the instruction's costliest execution. Esc or q goes back. `analyze REC
 * --sass` lists the same rows with what the count run measured at each. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/line_sums.h"
#include "io/recording.h"
#include "io/report.h"
#include "model/kinds.h"
#include "tui/app.h"

/* The SASS view of a recording (mode_sass.c): one row per SASS instruction of the trace. */
typedef struct sass_row_view {
    int64_t pc;
    int executions, worst_entry; /* the trace entry of its costliest execution; -1: none (rec_pc) */
    int64_t wavefronts, ideal, excess;
    int degree, not_modelled;
    int rec_pc; /* the recording's pc of the row (its measured numbers, its line), -1: none */
} sass_row_view;
typedef struct sass_state {
    sass_row_view *rows; /* owned */
    char **text;         /* owned: one line per row, in the order shown */
    int *order;          /* owned: row index of each shown line */
    int n;
    bool sorted;                /* by cost (excess wavefronts), else by pc */
    recording_doc *doc;         /* the recording's lines and pcs (a reference held), for the pcs with no trace entry */
    bool measured;              /* a pc of it carries the launch's measured numbers */
    int w_deg, w_where, w_meas; /* widths of the worst-degree, line and measured columns: their widest cell */
    int w_exec, w_wf;           /* and of the executions and wavefronts/ideal columns (the SASS fits sooner) */
    tui_pager pager;
} sass_state;

/* The SASS view's state, while it is open. */
static sass_state *sst(const tui_app *a)
{
    return app_mode_state(a, MODE_SASS);
}

/* Free the rows and their text (the view is popped). */
static void sass_release(void *st)
{
    sass_state *v = st;
    for (int i = 0; i < v->n; i++)
        free(v->text[i]);
    free(v->text);
    free(v->rows);
    free(v->order);
    recording_doc_drop(v->doc);
    v->doc = NULL;
    v->measured = false;
    v->text = NULL;
    v->rows = NULL;
    v->order = NULL;
    v->n = 0;
    pager_set(&v->pager, NULL, 0, false);
}

/* Lines the pager shows (between the two title lines and the two bottom lines). */
static int sass_page(const tui_app *a)
{
    int h = a->rows - 4;
    return h > 1 ? h : 1;
}

static int pc_cmp(const void *x, const void *y, void *ctx)
{
    const scenario_srcloc *at = ctx;
    int64_t a = at[*(const int *)x].pc, b = at[*(const int *)y].pc;
    return a < b ? -1 : a > b ? 1 : *(const int *)x - *(const int *)y;
}

static int row_pc_cmp(const void *x, const void *y)
{
    int64_t a = ((const sass_row_view *)x)->pc, b = ((const sass_row_view *)y)->pc;
    return a < b ? -1 : a > b;
}

/* The trace's entries in pc order, for line_sums_walk: each on its row. */
typedef struct sass_walk {
    const scenario *s;
    const int *idx, *row; /* the entries in pc order and the row of each */
    int i;
} sass_walk;

static int sass_next(void *ctx, line_sums_instr *in)
{
    sass_walk *w = ctx;
    if (w->i >= w->s->ntrace)
        return 0;
    int k = w->idx[w->i];
    *in = (line_sums_instr){.req = w->s->trace[k], .access = k, .line = -1, .pc = w->row[w->i]};
    w->i++;
    return 1;
}

/* The recording's own pcs beside the rows from its trace: the measured numbers of each (what the
 * count run measured over the launch), and a row of its own for each pc that has no trace entry
 * (a compare-and-swap loop, TMA, wgmma: executed by the recorded block, never predicted), so that
 * the view lists every SASS instruction `analyze --sass` lists. Rows stay in pc order. */
static void sass_recorded_pcs(tui_app *a)
{
    sass_state *v = sst(a);
    recording_doc_drop(v->doc); /* opened again: the file on show may be another */
    v->doc = NULL;
    v->measured = false;
    if (!a->rec.doc || a->rec.doc->rc != 1) /* read when the file was opened (a what-if keeps it) */
        return;
    v->doc = recording_doc_hold(a->rec.doc);
    const recording *rec = &v->doc->r;
    int extra = 0;
    for (int k = 0; k < rec->npcs; k++) {
        const recording_pc *p = &rec->pcs[k];
        v->measured = v->measured || p->has_measured;
        int i = 0;
        while (i < v->n && v->rows[i].pc != p->pc)
            i++;
        if (i < v->n) {
            v->rows[i].rec_pc = k;
            continue;
        }
        if (p->pc < 0) /* executions 0: measured only (wgmma), listed with what was measured */
            continue;
        v->rows = xrealloc(v->rows, sizeof *v->rows * (size_t)(v->n + 1));
        v->rows[v->n++] = (sass_row_view){.pc = p->pc,
                                          .executions = p->executions > INT32_MAX ? INT32_MAX : (int)p->executions,
                                          .not_modelled = p->executions > INT32_MAX ? INT32_MAX : (int)p->executions,
                                          .worst_entry = -1,
                                          .rec_pc = k};
        extra++;
    }
    if (extra) /* in pc order with the others */
        qsort(v->rows, (size_t)v->n, sizeof *v->rows, row_pc_cmp);
}

/* The rows from the trace: entries grouped by pc, each predicted with the architecture on show
 * in one walk (core/line_sums.h, as analyze's SASS page), its costliest execution kept. */
static void sass_rows(tui_app *a)
{
    sass_state *v = sst(a);
    const scenario *s = &a->sc;
    size_t n = (size_t)(s->ntrace ? s->ntrace : 1);
    int *idx = xmalloc(sizeof *idx * n), *row = xmalloc(sizeof *row * n);
    for (int k = 0; k < s->ntrace; k++)
        idx[k] = k;
    qsort_r(idx, (size_t)s->ntrace, sizeof *idx, pc_cmp, s->trace_at);
    v->rows = xmalloc(sizeof *v->rows * n);
    v->n = 0;
    for (int i = 0; i < s->ntrace; i++) {
        int k = idx[i];
        if (v->n == 0 || v->rows[v->n - 1].pc != s->trace_at[k].pc)
            v->rows[v->n++] = (sass_row_view){.pc = s->trace_at[k].pc, .worst_entry = k, .rec_pc = -1};
        row[i] = v->n - 1;
    }
    line_sums sums = {.arch = s->arch, .per_pc = xcalloc((size_t)(v->n ? v->n : 1), sizeof *sums.per_pc), .npcs = v->n};
    sass_walk w = {.s = s, .idx = idx, .row = row};
    line_sums_walk(&sums, sass_next, &w);
    for (int i = 0; i < v->n; i++) {
        sass_row_view *r = &v->rows[i];
        const line_sum *x = &sums.per_pc[i];
        r->executions = (int)x->instructions;
        r->not_modelled = (int)x->not_modelled;
        r->wavefronts = x->wavefronts;
        r->ideal = x->ideal;
        r->degree = x->worst;
        r->excess = x->wavefronts - x->ideal;
        if (x->has_costliest) /* else the first: none predicted */
            r->worst_entry = (int)x->costliest;
    }
    free(sums.per_pc);
    free(row);
    free(idx);
    sass_recorded_pcs(a);
}

static int cost_cmp(const void *x, const void *y, void *ctx)
{
    const sass_row_view *r = ctx, *a = &r[*(const int *)x], *b = &r[*(const int *)y];
    if (a->excess != b->excess)
        return a->excess > b->excess ? -1 : 1;
    if (a->wavefronts != b->wavefronts)
        return a->wavefronts > b->wavefronts ? -1 : 1;
    return a->pc < b->pc ? -1 : 1;
}

/* The shown lines, in pc order or by cost. */
static void sass_text(tui_app *a)
{
    sass_state *v = sst(a);
    for (int i = 0; i < v->n && v->text; i++)
        free(v->text[i]);
    free(v->text);
    free(v->order);
    v->text = xmalloc(sizeof *v->text * (size_t)(v->n ? v->n : 1));
    v->order = xmalloc(sizeof *v->order * (size_t)(v->n ? v->n : 1));
    for (int i = 0; i < v->n; i++)
        v->order[i] = i;
    if (v->sorted)
        qsort_r(v->order, (size_t)v->n, sizeof *v->order, cost_cmp, v->rows);
    typedef struct {
        char deg[48], wf[48], meas[48], where[80];
        const char *sass;
    } cells;
    cells *c = xmalloc(sizeof *c * (size_t)(v->n ? v->n : 1));
    v->w_deg = 5;   /* "worst" */
    v->w_where = 4; /* "line" */
    v->w_meas = 8;  /* "measured" */
    v->w_exec = 5;  /* "execs" */
    v->w_wf = 9;    /* "predicted" (wavefronts/ideal) */
    for (int i = 0; i < v->n; i++) {
        const sass_row_view *r = &v->rows[v->order[i]];
        const recording_pc *p = r->rec_pc >= 0 ? &v->doc->r.pcs[r->rec_pc] : NULL;
        const scenario_srcloc *at = r->worst_entry >= 0 ? &a->sc.trace_at[r->worst_entry] : NULL;
        const char *file = at ? at->file : v->doc->r.rows[p->row].file;
        int line = at ? at->line : v->doc->r.rows[p->row].line;
        c[i].sass = at ? at->sass : p->sass;
        if (!at) { /* no trace entry: the recording says what it is */
            char kind[32];
            snprintf(c[i].wf, sizeof c[i].wf, "-");
            if (p->measured_only)
                snprintf(c[i].deg, sizeof c[i].deg, "measured only");
            else
                snprintf(c[i].deg, sizeof c[i].deg, "not modelled: %s",
                         recording_kind_name(p->sass ? p->sass : "?", kind, sizeof kind));
        } else if (r->not_modelled == r->executions) {
            snprintf(c[i].wf, sizeof c[i].wf, "-");
            snprintf(c[i].deg, sizeof c[i].deg, "not modelled: %s", kinds_of(a->sc.trace[r->worst_entry].op)->name);
        } else {
            snprintf(c[i].wf, sizeof c[i].wf, "%lld/%lld", (long long)r->wavefronts, (long long)r->ideal);
            report_degree_text(r->degree, c[i].deg, sizeof c[i].deg);
        }
        if (p && p->has_measured)
            snprintf(c[i].meas, sizeof c[i].meas, "%llu/%llu", (unsigned long long)p->m.wavefronts,
                     (unsigned long long)p->m.ideal_wavefronts);
        else
            snprintf(c[i].meas, sizeof c[i].meas, "-");
        char ex[24];
        int wx = snprintf(ex, sizeof ex, "%d", r->executions), wf = draw_width(c[i].wf);
        v->w_exec = wx > v->w_exec ? wx : v->w_exec;
        v->w_wf = wf > v->w_wf ? wf : v->w_wf;
        int wm = draw_width(c[i].meas);
        v->w_meas = wm > v->w_meas ? wm : v->w_meas;
        const char *base = file ? strrchr(file, '/') : NULL;
        if (file)
            snprintf(c[i].where, sizeof c[i].where, "%s:%d", base ? base + 1 : file, line);
        else
            snprintf(c[i].where, sizeof c[i].where, "(no line info)");
        int wd = draw_width(c[i].deg), ww = draw_width(c[i].where);
        v->w_deg = wd > v->w_deg ? wd : v->w_deg;
        v->w_where = ww > v->w_where ? ww : v->w_where;
    }
    for (int i = 0; i < v->n; i++) { /* the columns as wide as their widest cell, so the head fits them */
        const sass_row_view *r = &v->rows[v->order[i]];
        strbuf sb = {0};
        strbuf_addf(&sb, "0x%-6llx %*d %*s %-*s ", (unsigned long long)r->pc, v->w_exec, r->executions, v->w_wf,
                    c[i].wf, v->w_deg, c[i].deg);
        if (v->measured)
            strbuf_addf(&sb, "%*s ", v->w_meas, c[i].meas);
        strbuf_addf(&sb, "%-*s %s", v->w_where, c[i].where, c[i].sass ? c[i].sass : "?");
        v->text[i] = strbuf_take(&sb);
    }
    free(c);
    pager_set(&v->pager, (const char *const *)v->text, v->n, true);
}

int sass_open(tui_app *a, int key)
{
    (void)key;
    const scenario_srcloc *first = scenario_source_of(&a->sc, 0);
    if (!first || !first->sass) {
        app_set_message(a, true, "the SASS view is a recording's (bankscope record)");
        return REACT_REDRAW;
    }
    while (app_top(a)->id == MODE_SOURCE) /* from the source view: the SASS view takes its place */
        app_pop(a);
    app_push(a, &mode_sass);
    return REACT_REDRAW;
}

static void sass_enter_mode(tui_app *a)
{
    sass_state *v = sst(a);
    v->sorted = a->sass_sorted;
    sass_rows(a);
    sass_text(a);
    for (int i = 0; i < v->n; i++) /* start on the instruction on show */
        if (v->rows[v->order[i]].worst_entry >= 0 && a->access >= 0 && a->access < a->sc.ntrace &&
            v->rows[v->order[i]].pc == a->sc.trace_at[a->access].pc)
            v->pager.cursor = i;
    pager_clamp(&v->pager, sass_page(a));
}

/* Scroll, sort, and Enter: the grid of the chosen instruction's costliest execution. */
static int sass_key_action(tui_app *a, int key)
{
    sass_state *v = sst(a);
    int page = sass_page(a);
    if (key == 'S') {
        v->sorted = a->sass_sorted = !v->sorted;
        sass_text(a);
        v->pager.cursor = 0;
        pager_clamp(&v->pager, page);
        app_set_message(a, false, "%s",
                        v->sorted ? "SASS instructions by cost: wavefronts beyond ideal first"
                                  : "SASS instructions by pc");
        return REACT_REDRAW;
    }
    if (key == '\r' || key == '\n' || key == KEY_ENTER) {
        int i = v->pager.cursor;
        if (i < 0 || i >= v->n)
            return REACT_REDRAW;
        const sass_row_view *r = &v->rows[v->order[i]];
        int entry = r->worst_entry, n = r->executions;
        int64_t pc = r->pc;
        if (entry < 0) { /* nothing recorded to draw */
            app_set_message(a, true, "pc 0x%llx has no recorded lanes (%s): no grid", (unsigned long long)pc,
                            v->doc->r.pcs[r->rec_pc].measured_only ? "measured only" : "not modelled, not captured");
            return REACT_REDRAW;
        }
        while (app_top(a)->id == MODE_SASS) /* back to the view it was opened from */
            app_pop(a);
        a->access = entry;
        step_restart(a);
        app_set_message(a, false, "pc 0x%llx: instruction %d, the costliest of its %d execution%s",
                        (unsigned long long)pc, entry, n, n == 1 ? "" : "s");
        return REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
    }
    pager_scroll_key(&v->pager, key, page);
    return REACT_REDRAW;
}

static int sass_key(tui_app *a, int key)
{
    return actions_dispatch(a, MODE_SASS, key);
}

static void sass_style(void *ctx, int l, tui_pager_line *out)
{
    const tui_app *a = ctx;
    const sass_row_view *r = &sst(a)->rows[sst(a)->order[l]];
    out->role = r->excess > 0 ? ROLE_CONFLICT : ROLE_NORMAL;
    out->fill = false;
    snprintf(out->gutter, sizeof out->gutter, "%d", l + 1);
}

static void sass_draw(tui_app *a)
{
    sass_state *v = sst(a);
    int page = sass_page(a);
    pager_clamp(&v->pager, page);
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    draw_fill(&a->crt, 0, 0, a->cols, ROLE_TITLE);
    char whatif[200] = ""; /* a what-if's rows are predicted on the remapped addresses: said first */
    if (a->sc.whatif)
        snprintf(whatif, sizeof whatif, "what-if: %s (predicted on the remapped addresses)%s", a->sc.whatif, sep);
    draw_textf_cut(&a->crt, 0, 0, a->cols, ROLE_TITLE, " SASS%s%s%d instructions of the recorded block%s%s", sep,
                   whatif, v->n, sep, v->sorted ? "by cost (S: by pc)" : "by pc (S: by cost)");
    layout_rect text = {2, 0, page, a->cols};
    char head[300]; /* the rows' own format, over their columns and scrolled with them */
    char meas[48] = "";
    if (v->measured) /* the launch's, beside the recorded block's prediction */
        snprintf(meas, sizeof meas, "%*s ", v->w_meas, "measured");
    snprintf(head, sizeof head, "%-8s %*s %*s %-*s %s%-*s %s", "pc", v->w_exec, "execs", v->w_wf, "predicted", v->w_deg,
             "worst", meas, v->w_where, "line",
             v->measured
                 ? "sass   (measured: the whole launch's wavefronts/ideal; Enter: the costliest execution's grid)"
                 : "sass   (Enter: the costliest execution's grid)");
    pager_head_draw(&a->crt, &v->pager, 1, &text, sass_style, a, ROLE_DIM, head);
    pager_draw(&a->crt, &v->pager, &text, sass_style, a);
    pager_status_draw(&a->crt, &v->pager, a->rows - 2, a->cols, page);
    app_bar_draw(a);
}

static const tui_action sass_actions[] = {
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j'},
     .nshow = 2,
     .label = "instr",
     .help = "choose an instruction",
     .handler = sass_key_action,
     .modes = MODE_BIT(MODE_SASS)},
    {.keys = {KEY_PPAGE, KEY_NPAGE, 'b', ' '},
     .nshow = 2,
     .help = "a page (b / Space too)",
     .handler = sass_key_action,
     .modes = MODE_BIT(MODE_SASS)},
    {.keys = {KEY_HOME, KEY_END, 'g', 'G'},
     .nshow = 2,
     .label = "ends",
     .help = "the first / last instruction",
     .handler = sass_key_action,
     .modes = MODE_BIT(MODE_SASS)},
    {.keys = {KEY_LEFT, KEY_RIGHT, 'h', 'l'},
     .nshow = 2,
     .help = "scroll sideways",
     .handler = sass_key_action,
     .modes = MODE_BIT(MODE_SASS)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "grid",
     .help = "the grid of the instruction's costliest execution",
     .handler = sass_key_action,
     .modes = MODE_BIT(MODE_SASS)},
    {.keys = {'S'},
     .nshow = 1,
     .label = "sort",
     .help = "by cost (wavefronts beyond ideal) / by pc",
     .handler = sass_key_action,
     .modes = MODE_BIT(MODE_SASS)},
};

const tui_mode mode_sass = {
    .id = MODE_SASS,
    .name = "SASS view",
    .enter = sass_enter_mode,
    .key = sass_key,
    .draw = sass_draw,
    .state_size = sizeof(sass_state),
    .release = sass_release,
    .actions = sass_actions,
    .nactions = (int)(sizeof sass_actions / sizeof sass_actions[0]),
};
