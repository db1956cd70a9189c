/* actions: the shared rows of the action table {keys, label, help, handler, modes, acts}: the
 * views' actions and those every mode has (help, close, redraw), with their handlers. Each mode's
 * own rows live in its mode file (tui_mode.actions); dispatch, the help screen and the key bar are
 * generated from both (dispatch.c), so a key is written once. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

/* The array the current access reads; -1 for a trace. */
static int cur_array(const tui_app *a)
{
    return scenario_access_array(&a->sc, a->access);
}

static int act_quit(tui_app *a, int key)
{
    (void)key;
    if (a->modified) {
        prompt_open(a, PROMPT_QUIT, NULL, 0);
        return REACT_REDRAW;
    }
    return REACT_QUIT;
}

static int action_close(tui_app *a, int key)
{
    (void)key;
    app_pop(a);
    return REACT_REDRAW | REACT_RECOMPUTE;
}

static int act_help(tui_app *a, int key)
{
    (void)key;
    help_open(a, false);
    return REACT_REDRAW;
}

static int why_open(tui_app *a, int key)
{
    (void)key;
    help_open(a, true);
    return REACT_REDRAW;
}

static int act_pad(tui_app *a, int key)
{
    scenario_change c = {.kind = SCENARIO_CHANGE_PAD,
                         .u.pad = {.array = cur_array(a), .delta = key == '+' || key == '=' ? 1 : -1}};
    return app_change(a, &c, false);
}

static int act_swizzle(tui_app *a, int key)
{
    if (key == 'g') {
        scenario_change c = {.kind = SCENARIO_CHANGE_SWIZZLE_NEXT, .u.swizzle = {.array = cur_array(a), .text = NULL}};
        return app_change(a, &c, false);
    }
    if (cur_array(a) < 0) {
        app_set_message(a, true, "a trace has no array to swizzle");
        return REACT_REDRAW;
    }
    const char *cur = a->sc.arrays[cur_array(a)].swizzle;
    prompt_open(a, PROMPT_SWIZZLE, cur, 0);
    return REACT_REDRAW;
}

static int act_type(tui_app *a, int key)
{
    (void)key;
    scenario_change c = {.kind = SCENARIO_CHANGE_TYPE_NEXT, .u.array = {.array = cur_array(a)}};
    return app_change(a, &c, false);
}

static int act_pattern(tui_app *a, int key)
{
    (void)key;
    if (!scenario_has_layout(&a->sc))
        return app_change(a,
                          &(scenario_change){.kind = SCENARIO_CHANGE_PATTERN_NEXT,
                                             .u.pattern = {.access = a->access, .user_dims = NULL}},
                          false);
    /* the user's dimensions: a stride preset grows the array only while it is shown */
    int ai = cur_array(a);
    const scenario_array *arr = &a->sc.arrays[ai];
    if (!a->preset.grown || a->preset.array != ai || a->preset.gen != a->scen_gen) {
        a->preset.array = ai;
        memcpy(a->preset.dims, arr->dims, sizeof a->preset.dims);
    }
    scenario_change c = {.kind = SCENARIO_CHANGE_PATTERN_NEXT,
                         .u.pattern = {.access = a->access, .user_dims = a->preset.dims}};
    int r = app_change(a, &c, false);
    if (!(r & REACT_EDITED))
        return r;
    arr = &a->sc.arrays[ai];
    a->preset.grown = memcmp(arr->dims, a->preset.dims, sizeof a->preset.dims) != 0;
    a->preset.gen = a->scen_gen + 1; /* the edit's own generation (app_react bumps it) */
    char decl[160];
    view_declaration(&a->sc, a->access, decl, sizeof decl);
    const char *label = a->sc.accesses[a->access].label ? a->sc.accesses[a->access].label : "";
    if (a->preset.grown)
        app_set_message(a, false, "%s: %s (grown for this stride while shown; a restores it)", label, decl);
    else
        app_set_message(a, false, "%s: %s", label, decl);
    return r;
}

static int act_field(tui_app *a, int key)
{
    (void)key;
    scenario_change c = {.kind = SCENARIO_CHANGE_FIELD_NEXT, .u.access = {.access = a->access}};
    return app_change(a, &c, false);
}

static int act_block(tui_app *a, int key)
{
    (void)key;
    scenario_change c = {.kind = SCENARIO_CHANGE_BLOCK_NEXT, .u.array = {.array = 0}};
    return app_change(a, &c, true); /* a block can make an index fail for some lane: refused */
}

static int act_dims(tui_app *a, int key)
{
    scenario_change c = {
        .kind = SCENARIO_CHANGE_DIMENSION,
        .u.dimension = {.array = cur_array(a), .inner = key == '<' || key == '>', .grow = key == '>' || key == '}'}};
    return app_change(a, &c, false);
}

static int act_arch(tui_app *a, int key)
{
    scenario_change c = {.kind = SCENARIO_CHANGE_ARCH_STEP, .u.arch = {.step = key == 'R' ? -1 : 1, .index = 0}};
    return app_change(a, &c, false);
}

static int act_warp(tui_app *a, int key)
{
    if (!scenario_has_layout(&a->sc))
        return REACT_REDRAW;
    int n = scenario_warp_count(&a->sc);
    a->warp = (a->warp + (key == 'w' ? 1 : n - 1)) % n;
    step_restart(a);
    return REACT_RECOMPUTE | REACT_REDRAW;
}

static int act_iteration(tui_app *a, int key)
{
    int n = a->sc.iterations;
    a->iteration = (a->iteration + (key == 'i' ? 1 : n - 1)) % n;
    step_restart(a);
    return REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
}

static int act_access(tui_app *a, int key)
{
    compare_state *cs = app_mode_state(a, MODE_COMPARE);
    int n = scenario_access_count(&a->sc);
    a->access = (a->access + (key == 'x' ? 1 : n - 1)) % n;
    step_restart(a);
    int r = REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
    if (cs && !cs->pinned && !cs->file)
        jobs_start_variant(a);
    return r;
}

/* Whether trace entries i and j of a recording come from the same source line (file and line). */
static bool same_line(const scenario *s, int i, int j)
{
    const scenario_srcloc *x = &s->trace_at[i], *y = &s->trace_at[j];
    return x->line == y->line && ((!x->file && !y->file) || (x->file && y->file && strcmp(x->file, y->file) == 0));
}

/* ] / [: the next / previous instruction of a recording on the same source line, in trace order
 * (wrapping); says which of how many it is. */
static int act_line_instr(tui_app *a, int key)
{
    const scenario *s = &a->sc;
    if (!scenario_has_source_map(s) || s->ntrace < 2 || a->access < 0 || a->access >= s->ntrace) {
        app_set_message(a, true, "[ and ] step through a recording's instructions of one source line");
        return REACT_REDRAW;
    }
    int n = s->ntrace, cur = a->access, step = key == ']' ? 1 : n - 1, k = 0, total = 0, next = cur;
    for (int i = 0; i < n; i++)
        if (same_line(s, i, cur)) {
            total++;
            if (i <= cur)
                k++;
        }
    for (int i = (cur + step) % n; i != cur; i = (i + step) % n)
        if (same_line(s, i, cur)) {
            next = i;
            break;
        }
    if (next == cur) {
        app_set_message(a, true, "the only instruction of its line");
        return REACT_REDRAW;
    }
    a->access = next;
    step_restart(a);
    k = key == ']' ? (k % total) + 1 : (k + total - 2) % total + 1;
    app_set_message(a, false, "instruction %d: %d of %d on %s:%d", next, k, total,
                    s->trace_at[next].file ? s->trace_at[next].file : "(no line info)", s->trace_at[next].line);
    return REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
}

static int act_measure(tui_app *a, int key)
{
    (void)key;
    if (!a->worker)
        app_set_message(a, true, "GPU measurement is off (--no-gpu)");
    a->changed_ms = 0; /* now, without the debounce */
    return REACT_MEASURE | REACT_REDRAW;
}

static int act_open(tui_app *a, int key)
{
    return app_open_relative(a, key == 'n' ? 1 : -1, false);
}

static int act_save(tui_app *a, int key)
{
    char name[LINE_MAX_TEXT];
    if (!tui_save_default_name(a, key == 'E', name, sizeof name))
        app_set_message(a, true, "the file's name is longer than %d bytes: type the name to save as",
                        LINE_MAX_TEXT - 1);
    prompt_open(a, key == 'E' ? PROMPT_SVG : PROMPT_SAVE, name, 0); /* typing replaces the proposed name */
    return REACT_REDRAW;
}

static int act_undo(tui_app *a, int key)
{
    bool redo = key != 'u';
    if (!(redo ? scenario_edit_redo(&a->sc, &a->hist) : scenario_edit_undo(&a->sc, &a->hist))) {
        app_set_message(a, false, "nothing to %s", redo ? "redo" : "undo");
        return REACT_REDRAW;
    }
    a->modified = true;
    app_set_message(a, false, "%s (%d more to undo, %d to redo)", redo ? "redone" : "undone", a->hist.nundo,
                    a->hist.nredo);
    return REACT_EDITED | REACT_REDRAW;
}

/* Back to the scenario as its file holds it (as opened, or as last saved): one undoable edit. */
static int act_reset(tui_app *a, int key)
{
    (void)key;
    if (!a->modified || !a->saved.arch) {
        app_set_message(a, false, "nothing to reset: the scenario is as its file holds it");
        return REACT_REDRAW;
    }
    scenario s;
    if (!scenario_clone(&a->saved, &s)) { /* a copy of a finished scenario always validates */
        app_set_message(a, true, "the file as opened does not validate");
        return REACT_REDRAW;
    }
    int r = app_replace(a, &s, "back to the file as opened or saved (u undoes)");
    if (a->access >= scenario_access_count(&a->sc))
        a->access = 0;
    return r;
}

static int act_focus(tui_app *a, int key)
{
    (void)key;
    a->focus = (a->focus + 1) % 3;
    return REACT_REDRAW;
}

/* Arrows by panel: left/right select lanes; up/down select lanes or scroll the grid or the map. */
static int act_move(tui_app *a, int key)
{
    int dx = key == KEY_LEFT || key == 'h' ? -1 : key == KEY_RIGHT || key == 'l' ? 1 : 0;
    int dy = key == KEY_UP || key == 'k' ? -1 : key == KEY_DOWN || key == 'j' ? 1 : 0;
    if (key == KEY_PPAGE || key == KEY_NPAGE)
        dy = key == KEY_PPAGE ? -8 : 8;
    int step = dx ? dx : dy > 0 ? 1 : -1;
    bool lanes = dx || (dy && a->focus == 1);
    if (lanes && a->sel_lane < 0) /* the first selection: lane 0, or lane 31 going back */
        a->sel_lane = step > 0 ? 0 : BANKS_WARP - 1;
    else if (lanes)
        a->sel_lane = (a->sel_lane + step + BANKS_WARP) % BANKS_WARP;
    if (dy && a->focus == 0)
        a->grid_scroll = a->grid_scroll + dy < 0 ? 0 : a->grid_scroll + dy;
    else if (dy && a->focus == 2)
        a->map_scroll = a->map_scroll + dy < 0 ? 0 : a->map_scroll + dy;
    return REACT_REDRAW;
}

static int act_mouse(tui_app *a, int key)
{
    (void)key;
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return REACT_NONE;
    return app_mouse(a, ev.y, ev.x);
}

static int act_redraw(tui_app *a, int key)
{
    (void)key;
    (void)a;
    clear();
    return REACT_REDRAW;
}

/* Whether an action does something for the scenario on show (the key bar shows only those). */
static bool acts_array(const tui_app *a)
{
    return scenario_has_layout(&a->sc);
}

static bool acts_field(const tui_app *a)
{
    int ai = cur_array(a);
    return ai >= 0 && a->sc.arrays[ai].type.struct_index >= 0;
}

static bool acts_warp(const tui_app *a)
{
    return scenario_warp_count(&a->sc) > 1; /* a trace's instructions carry their own warps: 1 */
}

static bool acts_iteration(const tui_app *a)
{
    return a->sc.iterations > 1;
}

static bool acts_access(const tui_app *a)
{
    return scenario_access_count(&a->sc) > 1;
}

static bool acts_line(const tui_app *a)
{
    return scenario_has_source_map(&a->sc) && a->sc.ntrace > 1;
}

static bool acts_sass(const tui_app *a)
{
    const scenario_srcloc *at = scenario_source_of(&a->sc, 0);
    return at && at->sass;
}

static bool acts_source(const tui_app *a)
{
    if (!scenario_has_layout(&a->sc)) /* a recording's instructions carry their lines */
        return scenario_has_source_map(&a->sc);
    for (int i = 0; i < a->sc.naccesses; i++) { /* an import's: a location, or FILE:LINE:COL */
        const scenario_access *ac = &a->sc.accesses[i];
        char file[1024];
        int line;
        if (ac->at.file || (ac->label && source_lines_parse_label(ac->label, file, sizeof file, &line)))
            return true;
    }
    return false;
}

/* A background job was not started: over the work limit. */
static bool acts_refused(const tui_app *a)
{
    for (int k = 0; k < JOB_KINDS; k++)
        if (jobs_refused(a, (tui_job_kind)k))
            return true;
    return false;
}

static bool acts_gpu(const tui_app *a)
{
    return a->worker != NULL;
}

#define V MODES_VIEW
#define M(x) MODE_BIT(MODE_##x)
#define NAV (V | M(HELP) | M(ADVISOR) | M(STRUCTS) | M(PICKER) | M(KERNEL) | M(SOURCE) | M(SASS) | M(WHATIF))

static const tui_action table[] = {
    /* the views */
    {.keys = {'+', '-', '=', '_'},
     .nshow = 2,
     .label = "pad",
     .help = "padding of the innermost dimension (elements)",
     .handler = act_pad,
     .modes = V,
     .acts = acts_array},
    {.keys = {'t'},
     .nshow = 1,
     .label = "type",
     .help = "element type: float double char short int half float2 float4 double2 char4",
     .handler = act_type,
     .modes = V,
     .acts = acts_array},
    {.keys = {'a'},
     .nshow = 1,
     .label = "pattern",
     .help = "access pattern presets: column, row, diagonal, swizzle, true strides, broadcast",
     .handler = act_pattern,
     .modes = V,
     .acts = acts_array},
    {.keys = {'e'},
     .nshow = 1,
     .label = "edit",
     .help = "edit the index expressions (live; the error position is shown)",
     .handler = edit_begin_key,
     .modes = V,
     .acts = acts_array},
    {.keys = {'V'},
     .nshow = 1,
     .label = "source",
     .help =
         "the source view: each line of an imported .cu or a recording with its wavefronts / ideal and worst degree",
     .handler = source_open,
     .modes = V,
     .acts = acts_source},
    {.keys = {'c'},
     .nshow = 1,
     .label = "compare",
     .help = "compare with the best padding, or the struct-of-arrays form",
     .handler = compare_toggle,
     .modes = V,
     .acts = acts_array},
    {.keys = {'s'},
     .nshow = 1,
     .label = "step",
     .help = "step mode: replay the instruction wavefront by wavefront",
     .handler = step_toggle,
     .modes = V},
    {.keys = {'f'},
     .nshow = 1,
     .label = "field",
     .help = "the struct field read by the warp (AoS)",
     .handler = act_field,
     .modes = V,
     .acts = acts_field},
    {.keys = {'w', 'W'},
     .nshow = 2,
     .label = "warp",
     .help = "next / previous warp (0-based)",
     .handler = act_warp,
     .modes = V,
     .acts = acts_warp},
    {.keys = {'i', 'I'},
     .nshow = 2,
     .label = "iter",
     .help = "next / previous loop iteration (0-based)",
     .handler = act_iteration,
     .modes = V,
     .acts = acts_iteration},
    {.keys = {'x', 'X'},
     .nshow = 2,
     .label = "access",
     .help = "next / previous access of the scenario",
     .handler = act_access,
     .modes = V,
     .acts = acts_access},
    {.keys = {']', '['},
     .nshow = 2,
     .label = "line instr",
     .help = "a recording: next / previous instruction of the same source line",
     .handler = act_line_instr,
     .modes = V,
     .acts = acts_line},
    {.keys = {'b'},
     .nshow = 1,
     .label = "block",
     .help = "block shape (2-D and 3-D shapes)",
     .handler = act_block,
     .modes = V,
     .acts = acts_array},
    {.keys = {'<', '>', '{', '}'},
     .nshow = 4,
     .help = "halve / double the innermost dimension; { / } the outermost",
     .handler = act_dims,
     .modes = V,
     .acts = acts_array},
    {.keys = {'r', 'R'},
     .nshow = 2,
     .label = "arch",
     .help = "next / previous architecture (sm_90 ... cc 1.x)",
     .handler = act_arch,
     .modes = V},
    {.keys = {'A'}, .nshow = 1, .help = "choose the architecture from a list", .handler = picker_open, .modes = V},
    {.keys = {'L'},
     .nshow = 1,
     .help = "choose a pattern or lesson from the library",
     .handler = picker_open,
     .modes = V},
    {.keys = {'n', 'p'},
     .nshow = 2,
     .label = "next",
     .help = "next / previous pattern of the library (or lesson step); asks first if edited",
     .handler = act_open,
     .modes = V},
    {.keys = {'P'},
     .nshow = 1,
     .label = "pin",
     .help = "pin this state; then keep editing and compare pinned vs now",
     .handler = compare_pin,
     .modes = V},
    {.keys = {'z'},
     .nshow = 1,
     .help = "presentation: the grid alone, big verdict, high contrast",
     .handler = present_toggle,
     .modes = V},
    {.keys = {'Q'},
     .nshow = 1,
     .label = "quiz",
     .help = "predict first: the verdict stays hidden until a number is typed",
     .handler = quiz_toggle,
     .modes = V},
    {.keys = {'y'},
     .nshow = 1,
     .label = "why",
     .help = "the whole explanation of the pattern and the selected lane",
     .handler = why_open,
     .modes = V},
    {.keys = {'F'},
     .nshow = 1,
     .help = "reset: back to the file as opened or last saved (one edit: u undoes it)",
     .handler = act_reset,
     .modes = V},
    {.keys = {'u', 'U', CTRL('r')},
     .nshow = 2,
     .label = "undo",
     .help = "undo / redo an edit (Ctrl-R redoes too)",
     .handler = act_undo,
     .modes = V},
    {.keys = {'v'},
     .nshow = 1,
     .label = "advisor",
     .help = "advisor: padding sweep, occupancy, swizzle, SoA",
     .handler = advisor_open,
     .modes = V},
    {.keys = {'g', 'G'},
     .nshow = 2,
     .help = "swizzle of the array: next TMA mode (none 32B 64B 128B) / type one (Swizzle<B,M,S>; empty: none)",
     .handler = act_swizzle,
     .modes = V,
     .acts = acts_array},
    {.keys = {'D'},
     .nshow = 1,
     .label = "sass",
     .help = "a recording: its SASS instructions, by pc or by cost (Enter: one's grid)",
     .handler = sass_open,
     .modes = V | M(SOURCE),
     .acts = acts_sass},
    {.keys = {'K'},
     .nshow = 1,
     .label = "kernel",
     .help = "the generated CUDA kernel that measure runs, as `bankscope kernel` prints it (no GPU needed)",
     .handler = kernel_open,
     .modes = V},
    {.keys = {'o'},
     .nshow = 1,
     .label = "structs",
     .help = "struct editor: layout, holes, sizeof; start one or paste a C declaration",
     .handler = structs_open,
     .modes = V},
    {.keys = {'!'},
     .nshow = 1,
     .label = "compute anyway",
     .help = "start the totals, sweep or variant refused over the work limit, and from now on all (as --force)",
     .handler = jobs_force_key,
     .modes = V | M(ADVISOR),
     .acts = acts_refused},
    {.keys = {'m'},
     .nshow = 1,
     .help = "measure again on the GPU (it measures by itself after each change)",
     .handler = act_measure,
     .modes = V,
     .acts = acts_gpu},
    {.keys = {'S', 'E'},
     .nshow = 2,
     .label = "save",
     .help = "save the scenario as JSON / the grid and array map as SVG",
     .handler = act_save,
     .modes = V},
    {.keys = {KEY_TAB},
     .nshow = 1,
     .help = "move between panels (grid, lanes, map)",
     .handler = act_focus,
     .modes = V & ~M(COMPARE)},
    {.keys = {KEY_LEFT, KEY_RIGHT, 'h', 'l'},
     .nshow = 2,
     .help = "select the previous / next lane",
     .handler = act_move,
     .modes = V},
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j', KEY_PPAGE, KEY_NPAGE},
     .nshow = 2,
     .help = "scroll the focused panel (lanes: select)",
     .handler = act_move,
     .modes = V & ~M(COMPARE)},
    {.keys = {KEY_MOUSE},
     .nshow = 1,
     .help = "mouse: click a grid cell or a lane to select that lane",
     .handler = act_mouse,
     .modes = V},
    {.keys = {CTRL('l')},
     .nshow = 1,
     .help = "redraw the screen",
     .handler = act_redraw,
     .modes = V | M(HELP) | M(ADVISOR) | M(STRUCTS) | M(KERNEL) | M(SOURCE)},
    {.keys = {'?', KEY_F(1)},
     .nshow = 1,
     .label = "help",
     .help = "the keys of this view",
     .handler = act_help,
     .modes = NAV & ~M(HELP)},
    {.keys = {'q'},
     .nshow = 1,
     .label = "quit",
     .help = "quit (asks first when there are unsaved edits)",
     .handler = act_quit,
     .modes = M(MAIN)},
    {.keys = {KEY_ESC, 'q'},
     .nshow = 2,
     .label = "close",
     .help = "close this view",
     .handler = action_close,
     .modes = MODES_CLOSABLE},
};

const tui_action *actions_table(int *n)
{
    *n = (int)(sizeof table / sizeof table[0]);
    return table;
}
