/* app: the TUI's state and loop: open a scenario, keep the analysed view in step with every
 * edit, draw all panels, and turn keys (and mouse clicks) into edits. */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "io/lesson.h"
#include "io/library.h"
#include "io/load.h"
#include "io/measure_plan.h"
#include "io/save.h"
#include "io/svg.h"
#include "tui/draw.h"

#define KEY_ESC 27
#define KEY_TAB 9
#define CTRL_L 12

/* Find source in the pattern library; -1 when it is not a library name. */
static int pattern_index(const char *source)
{
    int n;
    const library_entry *e = library_patterns(&n);
    size_t len = strlen(source);
    for (int i = 0; i < n; i++)
        if (strcmp(e[i].name, source) == 0 ||
            (strncmp(e[i].name, source, len) == 0 && strcmp(e[i].name + len, ".json") == 0))
            return i;
    return -1;
}

/* Open a lesson: its first step, with the lesson kept for n/p. */
static bool open_lesson(tui_app *a, const char *source, char *err, size_t errlen)
{
    lesson l;
    io_error e;
    if (!lesson_load(source, &l, &e)) {
        snprintf(err, errlen, "%s", e.text);
        return false;
    }
    if (!app_open(a, l.steps[0].pattern, err, errlen)) {
        lesson_free(&l);
        return false;
    }
    lesson_free(&a->les);
    a->les = l;
    a->les_step = 0;
    return true;
}

/* True when source (a file or a library name) holds a lesson. */
static bool source_is_lesson(const char *source)
{
    size_t len = 0;
    bool owned;
    io_error e;
    const char *text = load_source_text(source, &len, &owned, &e);
    bool is = text && lesson_is(text, len);
    if (owned)
        free((char *)text);
    return is;
}

bool app_open(tui_app *a, const char *source, char *err, size_t errlen)
{
    if (source_is_lesson(source))
        return open_lesson(a, source, err, errlen);
    scenario s;
    io_error e;
    if (!load_scenario_file(source, NULL, &s, &e)) {
        snprintf(err, errlen, "%s", e.text);
        return false;
    }
    scenario_free(&a->sc);
    a->sc = s;
    free(a->source);
    a->source = xstrdup(source);
    a->access = a->iteration = 0;
    a->warp = s.is_trace ? 0 : scenario_selected_warp(&s, 0);
    a->sel_lane = 1;
    a->grid_scroll = a->lanes_scroll = a->map_scroll = 0;
    a->step = 0;
    a->pattern = pattern_index(source);
    a->totals_valid = false;
    return true;
}

void app_free(tui_app *a)
{
    free(a->adv);
    lesson_free(&a->les);
    scenario_free(&a->sc);
    scenario_free(&a->variant);
    free(a->source);
    free(a->edit_saved);
}

/* Analyse the current warp-instruction of s into v. */
static void view_build(const scenario *s, int access, int iteration, int warp, tui_view *v)
{
    if (s->is_trace)
        scenario_instr_at(s, access, &v->in);
    else
        scenario_instr_build(s, access, iteration, warp, &v->in);
    banks_analyze(s->arch, &v->in.req, &v->res, v->cells);
    v->valid = true;
}

/* Keep the selection inside the scenario after an edit. */
static void clamp_selection(tui_app *a)
{
    const scenario *s = &a->sc;
    int nacc = scenario_access_count(s);
    if (a->access >= nacc)
        a->access = nacc - 1;
    if (a->iteration >= s->iterations)
        a->iteration = s->iterations - 1;
    if (!s->is_trace && a->warp >= scenario_warp_count(s))
        a->warp = scenario_warp_count(s) - 1;
}

void app_refresh_view(tui_app *a)
{
    clamp_selection(a);
    view_build(&a->sc, a->access, a->iteration, a->warp, &a->view);
    if (a->step > a->view.res.wavefronts)
        a->step = a->view.res.wavefronts;
    /* totals over the whole block, every access and iteration: only after a change (moving
     * between warps, lanes or panels leaves them as they are) */
    if (a->compare && a->variant_ok)
        view_build(&a->variant, a->access, a->iteration, a->warp, &a->vview);
    if (a->totals_valid && a->totals_gen == a->gen)
        return;
    a->totals_valid = true;
    a->totals_gen = a->gen;
    a->total_wavefronts = a->total_ideal = a->total_instr = 0;
    a->total_worst = 0;
    scenario_instr in;
    banks_result r;
    int64_t n = scenario_instr_count(&a->sc);
    for (int64_t k = 0; k < n && k < 200000; k++) {
        scenario_instr_at(&a->sc, k, &in);
        banks_analyze(a->sc.arch, &in.req, &r, NULL);
        a->total_wavefronts += r.wavefronts;
        a->total_ideal += r.ideal_wavefronts;
        a->total_instr++;
        if (r.conflict_degree > a->total_worst)
            a->total_worst = r.conflict_degree;
    }
}

/* Rebuild the compare variant (after any edit while compare mode is on). */
static void variant_rebuild(tui_app *a)
{
    scenario_free(&a->variant);
    a->variant_ok = a->compare &&
                    edit_compare_variant(&a->sc, a->access, &a->variant, a->variant_label, sizeof a->variant_label);
}

static void set_message(tui_app *a, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_message(tui_app *a, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->message, sizeof a->message, fmt, ap);
    va_end(ap);
    a->message_error = error;
}

/* Caption of the grid: which warp-instruction it shows. */
static void grid_caption(const tui_app *a, const scenario *s, char *buf, size_t n, const char *prefix)
{
    if (s->is_trace) {
        snprintf(buf, n, "%sbanks: trace[%d] %s, %d B", prefix, a->access, scenario_op_text(s->trace[a->access].op),
                 s->trace[a->access].width);
        return;
    }
    const scenario_access *ac = &s->accesses[a->access];
    int k = snprintf(buf, n, "%sbanks: warp %d %s %s", prefix, a->warp, scenario_op_text(ac->op),
                     s->arrays[ac->array].name);
    for (int d = 0; d < ac->nidx && k < (int)n; d++)
        k += snprintf(buf + k, n - (size_t)k, "[%s]", ac->index_text[d]);
    if (ac->field && k < (int)n)
        k += snprintf(buf + k, n - (size_t)k, ".%s", ac->field);
    if (k < (int)n)
        snprintf(buf + k, n - (size_t)k, " (%s, %d B)%s%s", ac->type_text, ac->width, ac->label ? " - " : "",
                 ac->label ? ac->label : "");
}

void app_draw(tui_app *a)
{
    erase();
    getmaxyx(stdscr, a->rows, a->cols);
    a->lay = layout_compute(a->cols, a->rows, a->sc.arch->banks, a->compare && a->variant_ok);
    if (a->lay.too_small) {
        draw_text(a, 0, 0, a->cols, ROLE_ERROR, "terminal too small");
        draw_text(a, 1, 0, a->cols, ROLE_NORMAL, "bankscope needs %dx%d (now %dx%d)", LAYOUT_MIN_COLS,
                  LAYOUT_MIN_ROWS, a->cols, a->rows);
        draw_text(a, 2, 0, a->cols, ROLE_DIM, "q quits");
        refresh();
        return;
    }
    panel_title_draw(a);
    char cap[256];
    if (a->compare && a->variant_ok) {
        grid_caption(a, &a->sc, cap, sizeof cap, "now: ");
        panel_grid_draw(a, &a->lay.grid, &a->sc, &a->view, cap);
        char cap2[160];
        snprintf(cap2, sizeof cap2, "variant: %s", a->variant_label);
        panel_grid_draw(a, &a->lay.grid2, &a->variant, &a->vview, cap2);
        panel_result_draw(a, &a->lay.result, &a->sc, &a->view, "now");
        panel_result_draw(a, &a->lay.result2, &a->variant, &a->vview, "variant");
    } else {
        grid_caption(a, &a->sc, cap, sizeof cap, "");
        panel_grid_draw(a, &a->lay.grid, &a->sc, &a->view, cap);
        panel_result_draw(a, &a->lay.result, &a->sc, &a->view, "result");
        if (a->lay.map.h > 0 && a->focus != FOCUS_MAP)
            panel_map_draw(a, &a->lay.map);
        if (a->focus == FOCUS_MAP && a->lay.map.h == 0)
            panel_map_draw(a, &a->lay.lanes);
        else if (a->focus == FOCUS_MAP)
            panel_map_draw(a, &a->lay.map);
        if (a->focus != FOCUS_MAP || a->lay.map.h > 0)
            panel_lanes_draw(a, &a->lay.lanes);
    }
    panel_bar_draw(a);
    if (a->prompt) {
        draw_fill(a, a->lay.bar.y, 0, a->cols, ROLE_BAR);
        draw_text(a, a->lay.bar.y, 0, a->cols, ROLE_BAR, a->prompt == 1 ? " save as: %s_  (Enter save, Esc cancel)"
                                                                        : " %s exists: overwrite? (y/n)",
                  a->prompt_buf);
    }
    if (a->overlay == 'v')
        panel_advisor_draw(a);
    else if (a->overlay == 'o')
        panel_struct_draw(a);
    if (a->help)
        panel_help_draw(a);
    refresh();
}

/* Apply an edit result: refresh and report. */
static bool after_edit(tui_app *a, bool ok, const char *msg, const char *what)
{
    if (!ok) {
        set_message(a, true, "%s", msg);
        return true;
    }
    app_changed(a);
    variant_rebuild(a);
    app_refresh_view(a);
    a->step = 0;
    if (what)
        set_message(a, false, "%s", what);
    return true;
}

static void edit_begin(tui_app *a, int dim)
{
    const scenario_access *ac = &a->sc.accesses[a->access];
    const char *text = dim < 0 ? (ac->when_text ? ac->when_text : "1") : ac->index_text[dim];
    a->editing = true;
    a->edit_dim = dim;
    snprintf(a->edit_buf, sizeof a->edit_buf, "%s", text);
    a->edit_len = (int)strlen(a->edit_buf);
    free(a->edit_saved);
    a->edit_saved = xstrdup(text);
    a->edit_err_pos = -1;
}

/* Put the edited text into the scenario if it parses and validates; else show where it fails. */
static void edit_apply_live(tui_app *a)
{
    scenario_access *ac = &a->sc.accesses[a->access];
    char **slot = a->edit_dim < 0 ? &ac->when_text : &ac->index_text[a->edit_dim];
    char *old = *slot;
    *slot = xstrdup(a->edit_buf);
    scenario_error e;
    if (scenario_finish(&a->sc, &e)) {
        free(old);
        a->edit_err_pos = -1;
        app_changed(a);
        variant_rebuild(a);
        app_refresh_view(a);
        return;
    }
    free(*slot);
    *slot = old;
    scenario_error e2;
    scenario_finish(&a->sc, &e2);
    a->edit_err_pos = e.expr_pos >= 0 ? e.expr_pos : a->edit_len;
    snprintf(a->edit_msg, sizeof a->edit_msg, "%.150s", e.msg);
}

static bool edit_key(tui_app *a, int key)
{
    if (key == KEY_ESC) {
        snprintf(a->edit_buf, sizeof a->edit_buf, "%s", a->edit_saved);
        a->edit_len = (int)strlen(a->edit_buf);
        edit_apply_live(a);
        a->editing = false;
        set_message(a, false, "edit undone");
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        if (a->edit_err_pos >= 0)
            set_message(a, true, "kept the last valid expression");
        a->editing = false;
    } else if (key == KEY_TAB) {
        int n = a->sc.accesses[a->access].nidx;
        a->editing = false;
        edit_begin(a, a->edit_dim + 1 < n ? a->edit_dim + 1 : -1);
    } else if (key == KEY_BACKSPACE || key == 127 || key == 8) {
        if (a->edit_len > 0)
            a->edit_buf[--a->edit_len] = '\0';
        edit_apply_live(a);
    } else if (key >= 32 && key < 127 && a->edit_len + 1 < (int)sizeof a->edit_buf) {
        a->edit_buf[a->edit_len++] = (char)key;
        a->edit_buf[a->edit_len] = '\0';
        edit_apply_live(a);
    }
    return true;
}

/* Default file name for saving: the file it came from, or NAME.json for a library pattern;
 * for pictures NAME-aA-wW.svg. */
static void save_default_name(tui_app *a)
{
    if (a->prompt_svg) {
        char base[200];
        snprintf(base, sizeof base, "%s", a->source);
        char *dot = strstr(base, ".json");
        if (dot)
            *dot = '\0';
        char *slash = strrchr(base, '/');
        snprintf(a->prompt_buf, sizeof a->prompt_buf, "%s-a%d-w%d.svg", slash ? slash + 1 : base, a->access, a->warp);
        a->prompt_len = (int)strlen(a->prompt_buf);
        return;
    }
    const char *src = a->source;
    if (a->pattern >= 0 || strchr(src, '.') == NULL)
        snprintf(a->prompt_buf, sizeof a->prompt_buf, "%s%s", src, strstr(src, ".json") ? "" : ".json");
    else
        snprintf(a->prompt_buf, sizeof a->prompt_buf, "%s", src);
    a->prompt_len = (int)strlen(a->prompt_buf);
}

static void save_now(tui_app *a)
{
    strbuf sb = {0};
    if (a->prompt_svg) {
        int64_t k = a->sc.is_trace ? a->access
                                   : ((int64_t)a->iteration * a->sc.naccesses + a->access) * scenario_selected_warps(&a->sc);
        for (int w = 0; !a->sc.is_trace && w < scenario_selected_warps(&a->sc); w++)
            if (scenario_selected_warp(&a->sc, w) == a->warp)
                k += w;
        svg_render(&a->sc, k, &sb);
    } else {
        save_scenario_json(&a->sc, &sb);
    }
    char err[300];
    if (save_atomic(a->prompt_buf, sb.data, sb.len, err, sizeof err))
        set_message(a, false, "saved %s", a->prompt_buf);
    else
        set_message(a, true, "not saved: %s", err);
    strbuf_free(&sb);
}

static bool prompt_key(tui_app *a, int key)
{
    if (a->prompt == 2) {
        if (key == 'y' || key == 'Y')
            save_now(a);
        else
            set_message(a, false, "not saved");
        a->prompt = 0;
        return true;
    }
    if (key == KEY_ESC) {
        a->prompt = 0;
        set_message(a, false, "not saved");
    } else if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        if (a->prompt_len == 0)
            return true;
        a->prompt = access(a->prompt_buf, F_OK) == 0 ? 2 : 0;
        if (a->prompt == 0)
            save_now(a);
    } else if ((key == KEY_BACKSPACE || key == 127 || key == 8) && a->prompt_len > 0) {
        a->prompt_buf[--a->prompt_len] = '\0';
    } else if (key > 32 && key < 127 && a->prompt_len + 1 < (int)sizeof a->prompt_buf) {
        a->prompt_buf[a->prompt_len++] = (char)key;
        a->prompt_buf[a->prompt_len] = '\0';
    }
    return true;
}

/* Step a lesson forwards or back (stopping at its ends). */
static void lesson_move(tui_app *a, int delta)
{
    int k = a->les_step + delta;
    if (k < 0 || k >= a->les.nsteps) {
        set_message(a, false, "%s of the lesson", k < 0 ? "start" : "end");
        return;
    }
    char err[640];
    lesson keep = a->les;
    a->les = (lesson){0};
    if (!app_open(a, keep.steps[k].pattern, err, sizeof err))
        set_message(a, true, "%s", err);
    else
        a->les_step = k;
    a->les = keep;
    app_changed(a);
    variant_rebuild(a);
    app_refresh_view(a);
}

/* Open pattern k of the library (wrapping), or the next step of an open lesson. */
static void open_pattern(tui_app *a, int delta)
{
    if (a->les.nsteps > 0) {
        lesson_move(a, delta);
        return;
    }
    int n;
    const library_entry *e = library_patterns(&n);
    int k = a->pattern < 0 ? 0 : ((a->pattern + delta) % n + n) % n;
    char err[640];
    if (!app_open(a, e[k].name, err, sizeof err)) {
        set_message(a, true, "%s", err);
        return;
    }
    app_changed(a);
    variant_rebuild(a);
    app_refresh_view(a);
    set_message(a, false, "%s", a->sc.description ? a->sc.description : e[k].name);
}

static void mouse_key(tui_app *a)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    const layout_rect *g = &a->lay.grid, *l = &a->lay.lanes;
    int cw = a->lay.cell_w;
    if (ev.y > g->y + 1 && ev.y < g->y + g->h - 2 && ev.x >= g->x + 6 && ev.x < g->x + 6 + a->sc.arch->banks * cw) {
        int row = a->grid_scroll + ev.y - g->y - 2, bank = (ev.x - g->x - 6) / cw;
        if (row < a->view.res.wavefronts) {
            uint32_t lanes = a->view.cells[row * a->sc.arch->banks + bank].lanes;
            if (lanes)
                a->sel_lane = __builtin_ctz(lanes);
        }
    } else if (ev.y > l->y && ev.y < l->y + l->h - 1 && ev.x > l->x && ev.x < l->x + l->w) {
        int lane = a->lanes_scroll + ev.y - l->y - 1;
        if (lane >= 0 && lane < BANKS_WARP)
            a->sel_lane = lane;
    }
}

/* Arrow keys by panel: select lanes, scroll the grid or the map. */
static void move_key(tui_app *a, int dy, int dx)
{
    if (dx)
        a->sel_lane = (a->sel_lane + dx + BANKS_WARP) % BANKS_WARP;
    if (!dy)
        return;
    if (a->focus == FOCUS_LANES)
        a->sel_lane = (a->sel_lane + dy + BANKS_WARP) % BANKS_WARP;
    else if (a->focus == FOCUS_GRID)
        a->grid_scroll = a->grid_scroll + dy < 0 ? 0 : a->grid_scroll + dy;
    else
        a->map_scroll = a->map_scroll + dy < 0 ? 0 : a->map_scroll + dy;
}

/* Keys while the advisor or struct overlay is open. */
static bool overlay_key(tui_app *a, int key)
{
    char msg[300] = "";
    if (key == 'q') {
        a->quit = true;
        return false;
    }
    if (a->overlay == 'v' && key == 'm') {
        sweep_measure_start(a);
        return true;
    }
    if (a->overlay == 'v' && (key == '\n' || key == '\r' || key == KEY_ENTER) && a->adv && a->adv->best_pad >= 0) {
        scenario_array *arr = &a->sc.arrays[a->adv->array];
        int delta = a->adv->best_pad - (int)arr->pad[arr->ndims - 1];
        a->overlay = 0;
        return after_edit(a, edit_padding(&a->sc, a->adv->array, delta, msg, sizeof msg), msg, "smallest conflict-free padding applied");
    }
    if (a->overlay == 'o' && a->sc.types.n > 0) {
        int si = a->sel_struct < a->sc.types.n ? a->sel_struct : 0, nf = a->sc.types.structs[si].nfields;
        bool ok;
        switch (key) {
        case KEY_UP: case 'k':
            if (a->sel_field > 0)
                a->sel_field--;
            else if (si > 0) {
                a->sel_struct = si - 1;
                a->sel_field = a->sc.types.structs[si - 1].nfields - 1;
            }
            return true;
        case KEY_DOWN: case 'j':
            if (a->sel_field + 1 < nf)
                a->sel_field++;
            else if (si + 1 < a->sc.types.n) {
                a->sel_struct = si + 1;
                a->sel_field = 0;
            }
            return true;
        case 'R': ok = edit_reorder_fields(&a->sc, si, msg, sizeof msg); break;
        case 't': ok = edit_field_type(&a->sc, si, a->sel_field, msg, sizeof msg); break;
        case '+': ok = edit_field_add(&a->sc, si, a->sel_field, msg, sizeof msg); break;
        case 'd':
            ok = edit_field_delete(&a->sc, si, a->sel_field, msg, sizeof msg);
            if (ok && a->sel_field >= a->sc.types.structs[si].nfields)
                a->sel_field = a->sc.types.structs[si].nfields - 1;
            break;
        default: a->overlay = 0; return true;
        }
        a->sel_struct = si;
        return after_edit(a, ok, msg, ok ? msg : NULL);
    }
    a->overlay = 0;
    return true;
}

bool app_key(tui_app *a, int key)
{
    char msg[300] = "";
    if (a->prompt)
        return prompt_key(a, key);
    if (a->editing)
        return edit_key(a, key);
    a->message[0] = '\0';
    if (a->help) {
        if (key == 'q')
            a->quit = true;
        a->help = false;
        return true;
    }
    scenario *s = &a->sc;
    if (a->overlay)
        return overlay_key(a, key);
    int arr = s->is_trace ? -1 : s->accesses[a->access].array;
    int nacc = scenario_access_count(s);
    switch (key) {
    case 'q': a->quit = true; return false;
    case '?': case KEY_F(1): a->help = true; return true;
    case '+': case '=': return after_edit(a, edit_padding(s, arr, 1, msg, sizeof msg), msg, NULL);
    case '-': case '_': return after_edit(a, edit_padding(s, arr, -1, msg, sizeof msg), msg, NULL);
    case 't': return after_edit(a, edit_cycle_type(s, arr, msg, sizeof msg), msg, NULL);
    case 'a': {
        /* the edit replaces the label: read it only afterwards */
        bool ok = edit_cycle_pattern(s, a->access, msg, sizeof msg);
        return after_edit(a, ok, msg, ok && !s->is_trace ? s->accesses[a->access].label : NULL);
    }
    case 'f': return after_edit(a, edit_cycle_field(s, a->access, msg, sizeof msg), msg, NULL);
    case 'b': return after_edit(a, edit_cycle_block(s, msg, sizeof msg), msg, NULL);
    case '<': case '>': case '{': case '}':
        return after_edit(a, edit_dimension(s, arr, key == '<' || key == '>', key == '>' || key == '}', msg, sizeof msg),
                          msg, NULL);
    case 'r': {
        bool ok = edit_cycle_arch(s, msg, sizeof msg);
        return after_edit(a, ok, msg, ok ? s->arch->title : NULL);
    }
    case 'e':
        if (s->is_trace) {
            set_message(a, true, "a trace has no expressions");
            return true;
        }
        edit_begin(a, 0);
        return true;
    case 'w': case 'W':
        if (!s->is_trace) {
            int n = scenario_warp_count(s);
            a->warp = (a->warp + (key == 'w' ? 1 : n - 1)) % n;
        }
        break;
    case 'i': case 'I':
        a->iteration = (a->iteration + (key == 'i' ? 1 : s->iterations - 1)) % s->iterations;
        app_changed(a);
        break;
    case 'x': case 'X':
        a->access = (a->access + (key == 'x' ? 1 : nacc - 1)) % nacc;
        app_changed(a);
        variant_rebuild(a);
        break;
    case 'm':
        if (!a->worker)
            set_message(a, true, "GPU measurement is off (--no-gpu)");
        app_changed(a);
        a->changed_ms = 0; /* now, without the debounce */
        return true;
    case 'c':
        a->compare = !a->compare;
        variant_rebuild(a);
        if (a->compare && !a->variant_ok)
            set_message(a, true, "%s", a->variant_label);
        break;
    case 's':
        a->step_mode = !a->step_mode;
        a->step = 0;
        a->playing = false;
        break;
    case ' ':
        if (a->step_mode && a->step < a->view.res.wavefronts)
            a->step++;
        return true;
    case '\n': case '\r': case KEY_ENTER:
        if (a->step_mode)
            a->playing = !a->playing;
        return true;
    case 'n': open_pattern(a, 1); return true;
    case 'p': open_pattern(a, -1); return true;
    case 'S': case 'E':
        a->prompt_svg = key == 'E';
        save_default_name(a);
        a->prompt = 1;
        return true;
    case 'v':
        if (s->is_trace) {
            set_message(a, true, "a trace has no array to pad");
            return true;
        }
        if (!a->adv)
            a->adv = xmalloc(sizeof *a->adv);
        advisor_sweep(s, s->accesses[a->access].array, 32, a->adv);
        a->overlay = 'v';
        return true;
    case 'o':
        a->overlay = 'o';
        return true;
    case KEY_TAB:
        a->focus = (a->focus + 1) % FOCUS_COUNT;
        return true;
    case KEY_UP: case 'k': move_key(a, -1, 0); return true;
    case KEY_DOWN: case 'j': move_key(a, 1, 0); return true;
    case KEY_LEFT: case 'h': move_key(a, 0, -1); return true;
    case KEY_RIGHT: case 'l': move_key(a, 0, 1); return true;
    case KEY_MOUSE: mouse_key(a); return true;
    case KEY_RESIZE: case CTRL_L: clear(); return true;
    case ERR: return false;
    default: return false;
    }
    app_refresh_view(a);
    return true;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void app_changed(tui_app *a)
{
    sweep_measure_cancel(a);
    a->gen++;
    a->changed_ms = now_ms();
}

/* What the result panel says about the GPU right now. */
static void gpu_status_text(tui_app *a)
{
    static const char *const spin[] = {"|", "/", "-", "\\"};
    char dev[300];
    gpu_worker_state st = gpu_worker_status(a->worker, dev, sizeof dev);
    if (st == WORKER_OPENING)
        snprintf(a->gpu_status, sizeof a->gpu_status, "opening the GPU %s", spin[a->spinner % 4]);
    else if (st == WORKER_NO_GPU)
        snprintf(a->gpu_status, sizeof a->gpu_status, "no GPU: predicted only\n%.250s", dev);
    else if (a->have_meas && a->meas.id == a->gen && !a->meas.ok)
        snprintf(a->gpu_status, sizeof a->gpu_status, "GPU error: %.200s", a->meas.error);
    else if (a->have_meas && a->meas.id == a->gen)
        snprintf(a->gpu_status, sizeof a->gpu_status, "%s", dev);
    else
        snprintf(a->gpu_status, sizeof a->gpu_status, "measuring on %.200s %s", dev, spin[a->spinner % 4]);
}

bool app_gpu_tick(tui_app *a)
{
    if (!a->worker)
        return false;
    bool redraw = false;
    gpu_worker_result r;
    if (gpu_worker_poll(a->worker, &r)) {
        if (sweep_measure_result(a, &r)) {
            redraw = true;
        } else if (r.id == a->gen) {
            a->meas = r;
            a->have_meas = true;
            redraw = true;
        }
    }
    char dev[300];
    if (!sweep_measure_busy(a) && gpu_worker_status(a->worker, dev, sizeof dev) == WORKER_READY && a->submitted != a->gen &&
        now_ms() - a->changed_ms >= 250) {
        measure_plan p;
        char err[600];
        a->submitted = a->gen;
        if (measure_plan_make(&a->sc, a->access, a->iteration, &p, err, sizeof err)) {
            a->pred_cycles = p.cycles_per_access;
            a->pred_wavefronts = p.wavefronts;
            a->pred_conflicts = p.bank_conflicts;
            gpu_worker_submit(a->worker, &p.rq, a->gen);
            measure_plan_free(&p);
        } else {
            a->have_meas = true;
            a->meas = (gpu_worker_result){.id = a->gen, .ok = false};
            snprintf(a->meas.error, sizeof a->meas.error, "cannot measure: %.250s", err);
        }
        redraw = true;
    }
    a->spinner++;
    char old[300];
    snprintf(old, sizeof old, "%s", a->gpu_status);
    gpu_status_text(a);
    return redraw || strcmp(old, a->gpu_status) != 0;
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

/* Time n redraws of the whole screen after alternating padding edits, offscreen at cols x rows. */
static int bench_redraw(tui_app *a, int n)
{
    /* newterm needs an output and an input stream; both are /dev/null here on purpose */
    // cppcheck-suppress incompatibleFileOpen
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = out && in ? newterm("xterm-256color", out, in) : NULL;
    if (!scr) {
        fprintf(stderr, "bankscope: --bench-redraw: cannot open a terminal (TERM xterm-256color)\n");
        return CLI_FAIL;
    }
    resizeterm(48, 160);
    a->crt = (tui_crt){.color = true, .utf8 = true};
    start_color();
    app_refresh_view(a);
    app_draw(a);
    clock_t t0 = clock();
    for (int i = 0; i < n; i++) {
        app_key(a, i % 2 ? '-' : '+');
        app_draw(a);
    }
    double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC / n;
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    printf("redraw at 160x48: %.3f ms CPU per keypress (edit + analysis of %lld warp-instructions + full draw), %d frames\n",
           ms, (long long)a->total_instr, n);
    return CLI_OK;
}

int cli_tui(int argc, char **argv)
{
    const char *file = NULL;
    bool color = true, mouse = true, gpu = true, startup = false;
    int bench = 0;
    double t_start = now_ms();
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--no-color") == 0)
            color = false;
        else if (strcmp(argv[i], "--no-mouse") == 0)
            mouse = false;
        else if (strcmp(argv[i], "--no-gpu") == 0)
            gpu = false;
        else if (strcmp(argv[i], "--bench-redraw") == 0 && i + 1 < argc)
            bench = atoi(argv[++i]);
        else if (strcmp(argv[i], "--bench-startup") == 0)
            startup = true;
        else if (argv[i][0] == '-')
            return cli_usage_error("unknown option '%s' (see bankscope --help)", argv[i]);
        else if (file)
            return cli_usage_error("one file only (got '%s' and '%s')", file, argv[i]);
        else
            file = argv[i];
    }
    tui_app a;
    memset(&a, 0, sizeof a);
    char err[700];
    if (!app_open(&a, file ? file : "default", err, sizeof err)) {
        fprintf(stderr, "bankscope: %s\n", err);
        app_free(&a);
        return CLI_USAGE;
    }
    if (bench > 0) {
        int rc = bench_redraw(&a, bench);
        app_free(&a);
        return rc;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        app_free(&a);
        fprintf(stderr, "bankscope: the interactive view needs a terminal (try 'bankscope analyze FILE')\n");
        return CLI_USAGE;
    }
    snprintf(a.gpu_status, sizeof a.gpu_status, "no GPU: predicted only\nmeasurement off (--no-gpu)");
    if (gpu) {
        a.worker = gpu_worker_start();
        app_changed(&a);
        app_gpu_tick(&a);
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    atexit(crt_done);
    crt_init(&a.crt, color, mouse);
    app_refresh_view(&a);
    app_draw(&a);
    if (startup) { /* the first frame is on screen: report how long it took and leave */
        double ms = now_ms() - t_start;
        crt_done();
        gpu_worker_stop(a.worker);
        app_free(&a);
        printf("first frame %.2f ms after the TUI started (GPU opening in the background)\n", ms);
        return CLI_OK;
    }
    double last_step = now_ms();
    while (!a.quit && !got_signal) {
        bool gpu_wait = a.worker && (gpu_worker_busy(a.worker) || a.submitted != a.gen);
        timeout(a.playing || gpu_wait ? 100 : -1);
        int key = getch();
        bool redraw = key != ERR;
        if (key != ERR)
            app_key(&a, key);
        if (a.playing && now_ms() - last_step >= 400) {
            last_step = now_ms();
            if (a.step < a.view.res.wavefronts)
                a.step++;
            else
                a.playing = false;
            redraw = true;
        }
        redraw |= app_gpu_tick(&a);
        if (!a.quit && redraw)
            app_draw(&a);
    }
    crt_done();
    gpu_worker_stop(a.worker);
    app_free(&a);
    return got_signal ? 128 + got_signal : CLI_OK;
}
