/* mode_advisor: the padding sweep over the screen: per padding the worst degree, wavefronts as a
 * bar, shared bytes and occupancy; the smallest conflict-free padding; the layout search's
 * cheapest conflict-free layout (swizzle or padding, as the option, CuTe, TMA and C) and the SoA
 * alternative. The sweep runs in the background (a spinner and its progress until it is done);
 * arrows choose a row (the list scrolls), Enter applies the chosen padding, s the layout found,
 * m measures every padding on the GPU. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure_plan.h"
#include "io/report.h"
#include "tui/app.h"

int advisor_open(tui_app *a, int key)
{
    (void)key;
    if (!scenario_has_layout(&a->sc)) /* a recording: its layouts tried on the recorded addresses */
        return whatif_open(a, key);
    app_push(a, &mode_advisor);
    return REACT_REDRAW;
}

static void advisor_enter(tui_app *a)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    ad->cursor = -1; /* on the best row once the sweep is in */
    jobs_start_advisor(a, a->sc.accesses[a->access].array);
}

/* The predicted sweep stops; the GPU sweep (its rows in the state) ends with the state: a
 * request still in flight is answered to no one and dropped (sweep_measure_result). */
static void advisor_leave(tui_app *a)
{
    jobs_cancel(a, JOB_ADVISOR);
}

static void advisor_release(void *st)
{
    advisor_state *ad = st;
    free(ad->res);
}

static int advisor_move(tui_app *a, int key)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    const advisor_result *r = ad->res;
    if (!r)
        return REACT_NONE;
    int d = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 : key == KEY_PPAGE ? -10 : 10;
    int c = ad->cursor + d;
    ad->cursor = c < 0 ? 0 : c >= r->nrows ? r->nrows - 1 : c;
    return REACT_REDRAW;
}

static int advisor_apply(tui_app *a, int key)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    (void)key;
    const advisor_result *r = ad->res;
    if (!r || ad->cursor < 0 || ad->cursor >= r->nrows || !r->rows[ad->cursor].valid) {
        app_set_message(a, true, "choose a valid padding row first");
        return REACT_REDRAW;
    }
    const scenario_array *arr = &a->sc.arrays[r->array];
    int pad = r->rows[ad->cursor].pad;
    scenario_change c = {.kind = SCENARIO_CHANGE_PAD,
                         .u.pad = {.array = r->array, .delta = pad - (int)arr->pad[arr->ndims - 1]}};
    char done[96];
    snprintf(done, sizeof done, "padding %d applied", pad);
    app_pop(a);
    return app_edit(a, scenario_change_fn, &c, done);
}

/* The edit that applies a layout of the search (on the clone app_edit makes). */
typedef struct layout_edit {
    int array;
    advisor_layout l;
} layout_edit;

static bool edit_layout(scenario *s, void *ctx, char *msg, size_t n)
{
    const layout_edit *e = ctx;
    return advisor_apply_layout(s, e->array, &e->l, msg, n);
}

static int advisor_apply_layout_key(tui_app *a, int key)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    (void)key;
    const advisor_result *r = ad->res;
    const advisor_search *sr = r && r->nsearch > 0 ? &r->search[0] : NULL;
    if (!sr) {
        app_set_message(a, true, "the layout search is still running");
        return REACT_REDRAW;
    }
    if (!sr->found ||
        (sr->best.kind == ADVISOR_LAYOUT_PADDING && sr->best.pad == 0 && !a->sc.arrays[sr->array].swizzle &&
         a->sc.arrays[sr->array].pad[a->sc.arrays[sr->array].ndims - 1] == 0)) {
        app_set_message(a, true,
                        sr->found ? "nothing to apply: the array is conflict-free as it is"
                                  : "no layout makes every access conflict-free");
        return REACT_REDRAW;
    }
    layout_edit e = {sr->array, sr->best};
    char done[200], name[160];
    snprintf(done, sizeof done, "%s applied", advisor_layout_name(&sr->best, name, sizeof name));
    app_pop(a);
    return app_edit(a, edit_layout, &e, done);
}

static int advisor_measure(tui_app *a, int key)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    (void)key;
    if (!sweep_measure_start(a) && ad->sweep.error[0]) /* say why nothing is measured */
        app_set_message(a, true, "%s", ad->sweep.error);
    return REACT_REDRAW;
}

/* Whether m measures: only with a GPU worker (not under --no-gpu). */
static bool advisor_can_measure(const tui_app *a)
{
    return a->worker != NULL;
}

/* A paragraph wrapped to the panel's width (never cut); returns the next line. */
static int adv_para(tui_app *a, int y, layout_rect in, tui_role role, const char *text)
{
    char **lines;
    int n = draw_wrap(text, in.w, &lines);
    for (int i = 0; i < n && y < in.y + in.h; i++)
        draw_text(&a->crt, y++, in.x, in.w, role, "%s", lines[i]);
    draw_wrap_free(lines, n);
    return y;
}

/* The layout search's answer in three lines: what s applies, then CuTe and TMA, then plain C;
 * or the closest swizzle when none works. Returns the next line. */
static int draw_search(tui_app *a, const advisor_search *sr, int y, layout_rect in)
{
    char name[160];
    const advisor_layout *b = &sr->best;
    if (sr->found && b->kind == ADVISOR_LAYOUT_PADDING && b->pad == 0) {
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_OK,
                       "every access to %s is conflict-free with no padding and no swizzle",
                       a->sc.arrays[sr->array].name);
        return y;
    }
    if (sr->found) {
        char what[400];
        advisor_layout_name(b, name, sizeof name);
        snprintf(what, sizeof what, "s applies %s: every access to %s conflict-free, %s%lld B", name,
                 a->sc.arrays[sr->array].name, b->extra_bytes ? "+" : "", (long long)b->extra_bytes);
        if (draw_width(what) > in.w) /* narrow: the verdict and the cost before the array's name */
            snprintf(what, sizeof what, "s applies %s: conflict-free, %s%lld B", name, b->extra_bytes ? "+" : "",
                     (long long)b->extra_bytes);
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_OK, "%s", what);
        if (b->cute[0])
            draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_NORMAL, "  = CuTe %s on elements%s%s", b->cute,
                           b->tma[0] ? " = " : "", b->tma);
        if (b->kind != ADVISOR_LAYOUT_PADDING)
            draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_NORMAL, "  = %s", b->c_text);
    } else {
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_ERROR, "no swizzle%s makes every access to %s conflict-free",
                       sr->complete ? " or padding" : " found before the search stopped", a->sc.arrays[sr->array].name);
    }
    if ((!sr->found || b->kind == ADVISOR_LAYOUT_PADDING) && sr->nnear > 0) {
        const advisor_layout *n = &sr->near[0];
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_DIM, "  closest swizzle %s: %lld wavefronts (ideal %lld)",
                       advisor_layout_name(n, name, sizeof name), (long long)n->wavefronts, (long long)n->ideal);
    }
    return y;
}

static void advisor_draw(tui_app *a)
{
    advisor_state *ad = app_mode_state(a, MODE_ADVISOR);
    int w = a->cols - 4 < 100 ? a->cols - 4 : 100, h = a->rows - 2;
    layout_rect box = {1, (a->cols - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(&a->crt, y, box.x, box.w, ROLE_NORMAL);
    /* every row is the model's prediction; only the cycles column, after m, is measured */
    layout_rect in = panel_frame(&a->crt, &box, "advisor: predicted padding sweep (Enter applies, Esc closes)", true);
    app_bar_draw(a);
    const advisor_result *r = ad->res;
    if (in.h < 6)
        return;
    if (!r && jobs_refused(a, JOB_ADVISOR)) { /* over the work limit: what it would cost, and the key */
        char text[600];
        snprintf(text, sizeof text,
                 "The sweep was not started: paddings 0..32 and layouts over every warp-instruction, %s. "
                 "Press ! to run it anyway (as sweep --force does), or make the scenario smaller "
                 "(fewer loop iterations or accesses, a smaller block).",
                 jobs_refused(a, JOB_ADVISOR));
        adv_para(a, in.y, in, ROLE_HILITE, text);
        return;
    }
    if (!r) {
        static const char *const spin[] = {"|", "/", "-", "\\"};
        double f = jobs_progress(a, JOB_ADVISOR);
        draw_text(&a->crt, in.y, in.x, in.w, ROLE_HILITE,
                  "%s %.0f %%: paddings 0..32 and layouts over every warp-instruction", spin[a->spinner % 4],
                  f >= 0 ? 100 * f : 0.0);
        return;
    }
    if (ad->cursor < 0)
        ad->cursor = r->best_pad >= 0 ? r->best_pad : r->min_pad >= 0 ? r->min_pad : 0;
    const scenario_array *arr = &a->sc.arrays[r->array];
    const tui_sweep *sw = &ad->sweep;
    bool meas = sw->running || sw->done || sw->nmeasured > 0;
    int y = in.y;
    const char *no_effect = meas ? NULL : advisor_padding_no_effect(&a->sc, r);
    if (no_effect) { /* a sentence, not a table of identical rows */
        char deg[32], text[600];
        report_degree_text(r->rows[0].worst_degree, deg, sizeof deg);
        snprintf(text, sizeof text,
                 "Padding cannot change the banks%s%s%s: every padding 0-%d gives %s, %lld wavefronts (ideal %lld). "
                 "The layout changes below do change them.",
                 strcmp(no_effect, "1-D") == 0 ? " (" : "", strcmp(no_effect, "1-D") == 0 ? arr->name : "",
                 strcmp(no_effect, "1-D") == 0 ? " is 1-D: padding only adds elements after its end)" : "",
                 r->rows[r->nrows - 1].pad, deg, (long long)r->rows[0].wavefronts, (long long)r->rows[0].ideal);
        y = adv_para(a, y, in, ROLE_KEY, text) + 1;
    }
    char head[200]; /* the last heading as long as it fits whole */
    const char *bars[] = {"wavefronts over the whole scenario", "wavefronts, whole scenario", "all wavefronts"};
    for (int i = 0; i < 3; i++) {
        snprintf(head, sizeof head, "%-5s %-13s %9s %8s %5s %s%s", "  pad", "worst", "wavefr.", "shared B", "occ.",
                 meas ? "cycles meas./pred. " : "", bars[i]);
        if (draw_width(head) <= in.w)
            break;
    }
    if (!no_effect)
        draw_text_cut(&a->crt, y++, in.x, in.w, ROLE_KEY, 0, head);
    int64_t max_wf = 1;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].valid && r->rows[i].wavefronts > max_wf)
            max_wf = r->rows[i].wavefronts;
    int room = in.h - 7, bar_w = in.w - 46 - (meas ? 19 : 0);
    if (ad->cursor < ad->scroll)
        ad->scroll = ad->cursor;
    if (ad->cursor >= ad->scroll + room)
        ad->scroll = ad->cursor - room + 1;
    const char *block = crt_glyph(&a->crt, "█", "#");
    if (no_effect)
        room = 0;
    for (int k = 0; k < room && ad->scroll + k < r->nrows; k++) {
        int i = ad->scroll + k;
        const advisor_row *row = &r->rows[i];
        bool cur = row->pad == arr->pad[arr->ndims - 1], chosen = i == ad->cursor;
        int marks = chosen ? MARK_SELECT : 0;
        if (!row->valid) {
            draw_text_mark(&a->crt, y++, in.x, in.w, ROLE_DIM, marks, "%c%4d %s", chosen ? '>' : ' ', row->pad,
                           row->why);
            continue;
        }
        char deg[32];
        report_degree_text(row->worst_degree, deg, sizeof deg);
        tui_role role = row->wavefronts == row->ideal ? ROLE_OK : ROLE_NORMAL;
        int x = in.x + draw_text_mark(&a->crt, y, in.x, in.w, role, marks, "%c%4d %-13s %9lld %8lld %4.0f%% ",
                                      chosen ? '>'
                                      : cur  ? '*'
                                             : ' ',
                                      row->pad, deg, (long long)row->wavefronts, (long long)row->smem_bytes,
                                      100 * row->occupancy);
        if (meas && sw->measured[i] >= 0 && sw->predicted[i] < 0) { /* cp.async: cycles not predicted */
            x += draw_text(&a->crt, y, x, 19, ROLE_NORMAL, "%7.2f/not pred.   ", sw->measured[i]);
        } else if (meas && sw->measured[i] >= 0) {
            bool agree = measure_plan_agrees(sw->predicted[i], sw->measured[i]);
            x += draw_text(&a->crt, y, x, 19, agree ? ROLE_OK : ROLE_ERROR, "%7.2f/%-7.2f    ", sw->measured[i],
                           sw->predicted[i]);
        } else if (meas) {
            x += draw_text(&a->crt, y, x, 19, ROLE_DIM, "%-19s", sw->running && sw->row == i ? "  measuring..." : "");
        }
        int nb = bar_w > 0 ? (int)((row->wavefronts * bar_w + max_wf - 1) / max_wf) : 0;
        for (int b = 0; b < nb; b++)
            draw_text(&a->crt, y, x + b, 1, row->worst_degree > 1 ? ROLE_BIG : ROLE_OK, "%s", block);
        y++;
    }
    y = no_effect ? y : in.y + in.h - 6;
    if (no_effect)
        ; /* no rows to choose from: nothing to say about them */
    else if (sw->error[0])
        draw_textf_cut(&a->crt, y, in.x, in.w, ROLE_ERROR, "%s", sw->error);
    else if (sw->running)
        draw_textf_cut(&a->crt, y, in.x, in.w, ROLE_HILITE, "measuring padding %d of %d on the GPU %s",
                       r->rows[sw->row].pad, r->rows[r->nrows - 1].pad,
                       (const char *[]){"|", "/", "-", "\\"}[a->spinner % 4]);
    else if (sw->done)
        draw_textf_cut(&a->crt, y, in.x, in.w, ROLE_DIM,
                       "measured cycles per warp-access per SM beside the model's; m measures again");
    else if (!a->worker || gpu_worker_status(a->worker, (char[300]){0}, 300) == WORKER_NO_GPU)
        draw_textf_cut(&a->crt, y, in.x, in.w, ROLE_DIM, "no GPU: predicted only; * current padding, > chosen row");
    else
        draw_textf_cut(&a->crt, y, in.x, in.w, ROLE_DIM,
                       "* current padding, > chosen row; m measures every padding on the GPU");
    y += !no_effect;
    if (r->best_pad >= 0)
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_OK, "smallest conflict-free padding: %d (%+lld B per block)",
                       r->best_pad, (long long)(r->rows[r->best_pad].smem_bytes - r->rows[0].smem_bytes));
    else if (!no_effect)
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_ERROR,
                       "no conflict-free padding; fewest wavefronts at padding %d", r->min_pad);
    if (r->nsearch > 0)
        y = draw_search(a, &r->search[0], y, in);
    if (r->soa) { /* the layout changes that do change the banks */
        char deg[32];
        draw_textf_cut(&a->crt, y++, in.x, in.w, r->soa_row.worst_degree <= 1 ? ROLE_OK : ROLE_NORMAL,
                       "or struct of arrays (c compares it): %lld wavefront%s, %s", (long long)r->soa_row.wavefronts,
                       r->soa_row.wavefronts == 1 ? "" : "s",
                       report_degree_text(r->soa_row.worst_degree, deg, sizeof deg));
    }
    if (r->reorder) {
        char deg[32];
        draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_NORMAL,
                       "or fields by alignment (R in the struct editor), sizeof %d -> %d: %lld wavefronts, %s",
                       a->sc.types.structs[arr->type.struct_index].size, r->reorder_size,
                       (long long)r->reorder_row.wavefronts,
                       report_degree_text(r->reorder_row.worst_degree, deg, sizeof deg));
    }
    /* the other arrays with conflicts, one line while there is room (sweep prints them whole) */
    for (int i = 1; i < r->nsearch && y < in.y + in.h; i++) {
        const advisor_search *o = &r->search[i];
        char name[160];
        if (o->found)
            draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_DIM, "array %s: %s makes its accesses conflict-free",
                           a->sc.arrays[o->array].name, advisor_layout_name(&o->best, name, sizeof name));
        else
            draw_textf_cut(&a->crt, y++, in.x, in.w, ROLE_DIM, "array %s: no layout makes its accesses conflict-free",
                           a->sc.arrays[o->array].name);
    }
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action advisor_actions[] = {
    /* the advisor */
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE},
     .nshow = 2,
     .label = "choose",
     .help = "choose a padding row",
     .handler = advisor_move,
     .modes = MODE_BIT(MODE_ADVISOR)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "apply",
     .help = "apply the chosen padding",
     .handler = advisor_apply,
     .modes = MODE_BIT(MODE_ADVISOR)},
    {.keys = {'s'},
     .nshow = 1,
     .label = "layout",
     .help = "apply the cheapest layout that makes every access conflict-free (its swizzle or padding)",
     .handler = advisor_apply_layout_key,
     .modes = MODE_BIT(MODE_ADVISOR)},
    {.keys = {'m'},
     .nshow = 1,
     .label = "measure",
     .help = "measure every padding on the GPU",
     .handler = advisor_measure,
     .modes = MODE_BIT(MODE_ADVISOR),
     .acts = advisor_can_measure},
};

const tui_mode mode_advisor = {
    .id = MODE_ADVISOR,
    .name = "advisor",
    .overlay = true,
    .enter = advisor_enter,
    .draw = advisor_draw,
    .leave = advisor_leave,
    .state_size = sizeof(advisor_state),
    .release = advisor_release,
    .actions = advisor_actions,
    .nactions = (int)(sizeof advisor_actions / sizeof advisor_actions[0]),
};
