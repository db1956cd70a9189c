/* app: the TUI's internal shape, shared by its files (tui.h is the public entry).
 *
 * - tui_app (state.c) owns the scenario on show, its undo/redo history, the selection and the
 *   analysed views: what every view shares. The scenario is never mutated in place: every edit
 *   goes through scenario_edit_apply (a validated copy replaces it).
 * - Modes (mode_*.c) are structs of functions {enter, key, draw, resize, leave} kept on a stack;
 *   the top mode gets the keys, a resize is passed to every mode and never closes one. Each mode
 *   owns its state (tui_mode.state_size bytes, allocated when it is pushed, released when it is
 *   popped), is opened through one function in its file, and is read from elsewhere only through
 *   app_mode_state (NULL when the mode is not open).
 * - One action table {keys, label, help, handler, modes, acts} drives dispatch, the help screen
 *   and the key bar (dispatch.c generates them): each mode owns its rows (tui_mode.actions, in its
 *   mode file); the rows the views share are in actions.c.
 * - Panels draw from a per-frame view context (view.h, made by view_ctx.c) and never include
 *   this header; tests/tui/layers.sh holds the layers apart.
 * - Handlers return reaction flags; the loop (loop.c) acts on them once per key.
 * - Panels (panel_*.c) draw into rectangles; the grid and the lane table compute their geometry
 *   once per frame (frame.c) and the same records answer mouse hit tests.
 * - Long work (totals over every warp-instruction, the advisor's sweep, the compare variant) runs
 *   in background jobs (jobs.c) on private copies, with progress, cancelled by the next edit. */
#ifndef BANKSCOPE_TUI_APP_H
#define BANKSCOPE_TUI_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/gpu_worker.h"
#include "core/kernel_text.h"
#include "io/lesson.h"
#include "core/diff_lines.h"
#include "io/recording_arrays.h"
#include "model/advisor.h"
#include "model/banks.h"
#include "model/scenario.h"
#include "model/scenario_edit.h"
#include "tui/pager.h"
#include "tui/view.h"
#include "tui/view_source.h"
#include "tui/tui.h"

typedef enum tui_mode_id {
    MODE_MAIN,
    MODE_HELP,
    MODE_EDIT,
    MODE_PROMPT,
    MODE_ADVISOR,
    MODE_STRUCTS,
    MODE_COMPARE,
    MODE_STEP,
    MODE_LESSON,
    MODE_PRESENT,
    MODE_QUIZ,
    MODE_PICKER,
    MODE_KERNEL,
    MODE_SOURCE,
    MODE_WHATIF,
    MODE_SASS,
    MODE_COUNT
} tui_mode_id;
#define MODE_BIT(m) (1u << (m))
/* Keys the action rows name that curses has no name for. */
#define KEY_ESC 27
#define KEY_TAB 9
#define CTRL(c) ((c)&0x1f)
/* The views that show the scenario (and accept its edits). */
#define MODES_VIEW                                                                                                     \
    (MODE_BIT(MODE_MAIN) | MODE_BIT(MODE_COMPARE) | MODE_BIT(MODE_STEP) | MODE_BIT(MODE_LESSON) |                      \
     MODE_BIT(MODE_PRESENT) | MODE_BIT(MODE_QUIZ))
/* Views closed by Esc or q. */
#define MODES_CLOSABLE                                                                                                 \
    (MODE_BIT(MODE_HELP) | MODE_BIT(MODE_ADVISOR) | MODE_BIT(MODE_STRUCTS) | MODE_BIT(MODE_COMPARE) |                  \
     MODE_BIT(MODE_STEP) | MODE_BIT(MODE_LESSON) | MODE_BIT(MODE_PRESENT) | MODE_BIT(MODE_QUIZ) |                      \
     MODE_BIT(MODE_KERNEL) | MODE_BIT(MODE_SOURCE) | MODE_BIT(MODE_WHATIF) | MODE_BIT(MODE_SASS))

/* Reaction flags a handler returns; the loop acts on them. */
enum {
    REACT_NONE = 0,
    REACT_REDRAW = 1,    /* draw the screen again */
    REACT_RECOMPUTE = 2, /* the selection moved: analyse the shown instruction again */
    REACT_MEASURE = 4,   /* what the GPU would measure changed: a new measurement is due */
    REACT_EDITED = 8,    /* the scenario changed: totals, compare and sweeps start again */
    REACT_QUIT = 16,
    REACT_UNHANDLED = 32 /* no action took the key */
};

typedef struct tui_app tui_app;

typedef struct tui_action {
    int keys[12]; /* 0-terminated; the first nshow are shown (-1: as a range, first-last) */
    int nshow;
    const char *label; /* key bar word; NULL: help only */
    const char *help;  /* one line for the help screen */
    int (*handler)(tui_app *a, int key);
    unsigned modes; /* MODE_BIT set where the action applies */
    /* NULL, or whether the action does something for the scenario on show: the key bar shows
     * only those (the help lists every action, and a key that does nothing says why) */
    bool (*acts)(const tui_app *a);
} tui_action;

typedef struct tui_mode {
    tui_mode_id id;
    const char *name; /* shown in the help screen's section titles */
    bool overlay;     /* drawn over the view below it */
    void (*enter)(tui_app *a);
    int (*key)(tui_app *a, int key);
    void (*draw)(tui_app *a);
    void (*resize)(tui_app *a);
    void (*leave)(tui_app *a);
    /* the mode's own state: state_size zeroed bytes allocated when the mode is pushed (before
     * enter), handed to release (after leave; NULL: nothing inside it is owned) and freed when it
     * is popped or the app ends; app_mode_state finds it. 0: the mode has no state of its own */
    size_t state_size;
    void (*release)(void *state);
    /* the mode's own rows of the action table (keys, key bar, help): dispatch, the key bar and
     * the help screen take them first, then the shared rows (actions.c) that apply to the mode */
    const tui_action *actions;
    int nactions;
} tui_mode;

/* A background job on a private copy of the scenario (jobs.c). */
/* JOB_CHECK: the loader's check of every lane of an edited expression (mode_edit.c). */
typedef enum tui_job_kind { JOB_TOTALS, JOB_ADVISOR, JOB_VARIANT, JOB_CHECK, JOB_KINDS } tui_job_kind;
typedef struct tui_job tui_job;

/* The advisor's padding sweep measured on the GPU (sweep_measure.c). */
typedef struct tui_sweep {
    bool running, done;
    bool queued; /* m came before the predicted sweep: start when it arrives */
    unsigned long gen;
    int row, access;
    unsigned long id, requests;
    int warps_now;
    double pred_now;
    double sum, pred_sum;
    int warps;
    int nmeasured;
    double measured[257], predicted[257];
    char error[320];
} tui_sweep;

/* ---- the states of the modes other files read (through app_mode_state); every other mode keeps
 * its state private to its file ---- */

/* Below this many columns the source view's gutter says "free" for "conflict-free" and the
 * indentation every shown line shares is left out. */
#define SOURCE_NARROW 100

typedef enum prompt_kind {
    PROMPT_SAVE,
    PROMPT_SVG,
    PROMPT_OVERWRITE,
    PROMPT_QUIT,
    PROMPT_OPEN,
    PROMPT_SWIZZLE, /* the array's swizzle (empty: none) */
    PROMPT_STRUCT   /* a C struct declaration, typed or pasted (the struct editor's i) */
} prompt_kind;

/* The advisor's state (mode_advisor.c; its jobs and the GPU sweep reach it through
 * app_mode_state): the GPU sweep stops when the advisor closes (its rows go with it). */
typedef struct advisor_state {
    advisor_result *res; /* owned; NULL while the sweep runs */
    int cursor, scroll;
    tui_sweep sweep; /* the padding sweep measured on the GPU (sweep_measure.c) */
} advisor_state;

/* The compare view's state (mode_compare.c; the views read it through app_mode_state). The
 * pinned state lives here: closing the compare forgets it, as it always did. */
typedef struct compare_state {
    bool pinned;    /* pinned state vs now; else the best padding / SoA variant */
    scenario other; /* owned (valid when ok) */
    bool ok;
    bool pending; /* the variant job is running */
    char label[200];
    char error[320];
    int access, warp, iteration; /* the pinned selection */
    tui_view view;
    /* other is a file the command line named (bankscope A.json B.json): it follows the
     * selection, stays through edits, and diff holds the two files line by line */
    bool file;
    diff_result diff;
} compare_state;

/* The step mode's state (mode_step.c; the views read it through app_mode_state). */
typedef struct step_state {
    int shown; /* wavefronts revealed */
    bool playing;
    double last_ms;
} step_state;

/* The lesson mode's state (mode_main.c; the views read it through app_mode_state): the lesson
 * is open exactly while the mode is on the stack. */
typedef struct lesson_state {
    lesson les; /* les.nsteps > 0: a lesson is open */
    int step;
} lesson_state;

/* The quiz's state (mode_quiz.c; the views read it through app_mode_state). */
typedef struct quiz_state {
    bool answered;
    char buf[8];
    int len;
    int guess;
} quiz_state;

struct tui_app {
    scenario sc; /* the scenario on show (never mutated in place) */
    scenario_history hist;
    bool modified;          /* edits since the last open or save */
    scenario saved;         /* the scenario as opened or last saved (a copy sharing the trace table); arch NULL: none */
    unsigned long scen_gen; /* bumped by every scenario change */
    char *source;           /* file or library name it came from */
    const char *shown_file, *shown_name; /* the header shows shown_name while source is shown_file */
    int pattern;                         /* index in the library for n/p; -1 unknown */
    int access, warp, iteration, sel_lane;
    int focus; /* 0 grid, 1 lanes, 2 map */
    int grid_scroll, map_scroll;
    tui_view view;
    tui_crt crt;
    int cols, rows;
    tui_frame frame;
    char message[256];
    bool message_error;
    const tui_mode *stack[8];
    void *stack_state[8]; /* owned: each stacked mode's own state (tui_mode.state_size), or NULL */
    int depth;
    /* The state below outlives every mode; the modes' own states are in stack_state. */
    /* where the source view finds the source (the command line's): the view itself owns its state */
    struct {
        const char *hint;         /* the source file the command line names (bankscope FILE.cu), or NULL */
        const char *dir;          /* the folder --source names (named files may be opened there), or NULL */
        const source_skip *skips; /* the accesses the importer skipped (borrowed); NULL: not known */
        int nskips;
    } srcopt;
    /* the recording of the file on show (a reference held; NULL: not one), read with its trace
     * when it was opened and borrowed by every view (result panel, source view, what-if); line:
     * the row of the instruction on show (-1 none) in the result panel (view_ctx.c) */
    struct {
        recording_doc *doc;
        int access, line;
    } rec;
    struct {
        bool grown;        /* a stride preset grew array past the user's dimensions */
        int array;         /* the array the dimensions belong to */
        unsigned long gen; /* scen_gen of the preset's edit: any later edit makes dims the user's */
        int64_t dims[SCENARIO_MAX_DIMS];
    } preset; /* the user's dimensions while `a` presets are shown: `a` acts in every view (main,
                 compare, step...), and the dimensions must survive moving between them */
    /* the SASS view's order (by cost): kept from one opening of the view to the next, so it
     * outlives the view's own state */
    bool sass_sorted;
    /* background work */
    tui_job *jobs[JOB_KINDS];
    tui_job *abandoned; /* cancelled jobs still finishing (joined when they do) */
    bool jobs_force;    /* --force or !: jobs start whatever their estimate */
    /* per kind, why the last job asked for was not started ("" when it was): its estimate is
       over the work limit (io/work.h), in the commands' words */
    char job_refused[JOB_KINDS][160];
    tui_totals totals;
    bool totals_valid;
    double totals_progress; /* 0..1 while running */
    /* GPU */
    gpu_worker *worker; /* NULL with --no-gpu */
    unsigned long gen, submitted;
    double changed_ms;
    bool have_meas;
    gpu_worker_result meas;
    double pred_cycles;
    int64_t pred_wavefronts, pred_conflicts;
    const banks_profile *pred_arch; /* the model the measurement is compared with: the GPU's
                                       own, which after `r` may not be the view's (sc.arch) */
    bool pred_no_model;             /* bankscope has no model of the GPU: pred_arch stands in */
    int spinner;
    char gpu_status[300];
    bool quit;
};

/* ---- state.c ---- */
bool app_open(tui_app *a, const char *source, char *err, size_t errlen);
void app_free(tui_app *a);
void app_set_message(tui_app *a, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Analyse the shown instruction again (and the compare side). */
void app_refresh_view(tui_app *a);
/* Act on reaction flags (the loop's only way to change derived state). */
void app_react(tui_app *a, int flags);
/* Apply an edit through scenario_edit; returns reaction flags (a message either way). */
int app_edit(tui_app *a, scenario_edit_fn fn, void *ctx, const char *done);
/* Apply a typed change as one undoable edit; check_lanes: refuse it, as the loader would, when an
 * expression fails for some lane (the block key). Returns reaction flags (a message either way). */
int app_change(tui_app *a, const scenario_change *c, bool check_lanes);
/* Replace the scenario by next (taken over), as one undoable edit. */
int app_replace(tui_app *a, scenario *next, const char *done);
/* The instruction number (scenario order) of the selection; -1 for a warp that the scenario's
 * "warps" leaves out (the view shows it, analyze does not count it). */
int64_t app_instr_seq(const tui_app *a);
double app_now_ms(void);
/* Open pattern delta steps away in the library (or the lesson), asking first when modified. */
int app_open_relative(tui_app *a, int delta, bool confirmed);

/* ---- modes (mode_*.c) and the stack (modes.c) ---- */
extern const tui_mode mode_whatif;
extern const tui_mode mode_sass;
extern const tui_mode mode_main, mode_help, mode_edit, mode_prompt, mode_advisor, mode_structs, mode_compare, mode_step,
    mode_lesson, mode_present, mode_quiz, mode_picker, mode_kernel, mode_source;
const tui_mode *app_top(const tui_app *a);
/* The mode of id (every mode, for dispatch and help by id). */
const tui_mode *mode_of(tui_mode_id id);
bool app_in_mode(const tui_app *a, tui_mode_id id);
/* Push mode m (its state allocated, then its enter run); false when the stack is full. */
bool app_push(tui_app *a, const tui_mode *m);
/* The state of the topmost mode id on the stack (tui_mode.state_size bytes), NULL when the mode
 * is not open or has no state. */
void *app_mode_state(const tui_app *a, tui_mode_id id);
/* Pop every mode, the main one too, and free their states (the app's end). */
void app_modes_free(tui_app *a);
/* Pop the top mode (never the main one). */
void app_pop(tui_app *a);
/* Draw the screen: the topmost view, then the overlays above it. */
void app_draw(tui_app *a);
/* Hand one key to the top mode; returns reaction flags. */
int app_key(tui_app *a, int key);
/* The view every view mode draws: title, grid(s), panels, bar. */
void view_draw(tui_app *a);

/* ---- actions.c / dispatch.c ---- */
/* The shared rows: the views' actions and those of every mode (help, close, redraw); each mode's
 * own rows are in its tui_mode. */
const tui_action *actions_table(int *n);
/* The k-th row that applies to mode: its own rows first, then the shared ones; NULL past the end. */
const tui_action *actions_row(tui_mode_id mode, int k);
/* Run the action of mode for key; REACT_UNHANDLED when none takes it. */
int actions_dispatch(tui_app *a, tui_mode_id mode, int key);
/* The key hints of mode for the key bar (the table's labelled actions, in table order); count. */
int actions_keyhints(const tui_app *a, tui_mode_id mode, tui_keyhint *out, int max);
/* "+/-" from an action's shown keys. */
void actions_keys_text(const tui_crt *c, const tui_action *act, char *buf, size_t n);
/* The help lines of a mode ("KEYS  help"), generated from the table; count in *n (malloc'd).
 * With a, only the keys that act on a's scenario (the others: actions_help_idle). */
char **actions_help_lines(const tui_crt *c, tui_mode_id mode, const tui_app *a, int *n);
/* The keys of mode that do nothing for a's scenario, as the key bar writes them ("+/- t"). */
void actions_help_idle(const tui_app *a, tui_mode_id mode, char *buf, size_t n);
void actions_help_free(char **lines, int n);
/* Common handlers modes use directly. */

/* Each mode is opened through one function in its mode_*.c (the shared action rows name most of
 * them); the handlers of a mode's own rows are static there. */
int edit_begin_key(tui_app *a, int key);
/* Open the bottom-line prompt of kind: its line starts with text (NULL: empty; selected, so
 * typing replaces it); arg is PROMPT_OPEN's direction. */
void prompt_open(tui_app *a, prompt_kind kind, const char *text, int arg);
/* True when the top mode is the "quit without saving?" question. */
bool prompt_asks_quit(const tui_app *a);
/* Select the struct named name in the struct editor, when it is open. */
void structs_select(tui_app *a, const char *name);
int advisor_open(tui_app *a, int key);
int structs_open(tui_app *a, int key);
int compare_toggle(tui_app *a, int key);
/* Compare the file on show with the file at path (bankscope A.json B.json): 0, or -1 with err. */
int compare_open_file(tui_app *a, const char *path, char *err, size_t n);
/* The two files' lines where the explanation goes (compare with a file). */
void compare_diff_draw(tui_app *a, layout_rect r);
/* The advisor on a trace: a recording's what-if (mode_whatif.c). */
int whatif_open(tui_app *a, int key);
int compare_pin(tui_app *a, int key);
int step_toggle(tui_app *a, int key);
/* Wavefronts the step mode has revealed; -1 when it is not open. */
int step_shown(const tui_app *a);
/* The selection or the scenario changed: the replay starts again (when the step mode is open). */
void step_restart(tui_app *a);
/* Reveal no more than the wavefronts the instruction on show has. */
void step_clamp(tui_app *a, int wavefronts);
int present_toggle(tui_app *a, int key);
int quiz_toggle(tui_app *a, int key);
/* True while the quiz waits for a prediction (verdict and cells hidden). */
bool quiz_hidden(const tui_app *a);
/* The scenario changed: the quiz asks again (when it is open). */
void quiz_restart(tui_app *a);
int picker_open(tui_app *a, int key);
/* Open lesson l (taken over) in the lesson mode, in place of one already open. */
void lesson_open(tui_app *a, lesson *l);
/* Open the help screen: the keys of the mode below it, or (why) the whole why text. */
void help_open(tui_app *a, bool why);
int kernel_open(tui_app *a, int key);
/* The SASS view of a recording (mode_sass.c). */
int sass_open(tui_app *a, int key);
int source_open(tui_app *a, int key);
/* Open the source view at startup when the file on show is a recording (it opens there). */
void source_open_first(tui_app *a);

/* ---- frame.c: per-frame geometry and hit tests ---- */
/* The presentation mode's grid (mode_present.c), for frame_compute. */
grid_geom present_geom(const tui_app *a);
/* The grid of one side (other: the right) of a compare in presentation mode. */
grid_geom present_compare_geom(const tui_app *a, bool other);
void frame_compute(tui_app *a);
int app_mouse(tui_app *a, int y, int x);

/* ---- jobs.c ---- */
void jobs_start_totals(tui_app *a);
void jobs_start_advisor(tui_app *a, int array);
void jobs_start_variant(tui_app *a);
void jobs_cancel(tui_app *a, tui_job_kind k);
/* Why the last job of kind k was not started (over the work limit), or NULL when it was. */
const char *jobs_refused(const tui_app *a, tui_job_kind k);
/* From now on start every job whatever its estimate (as --force), and start those refused. */
int jobs_force_key(tui_app *a, int key);
/* Check candidate (taken over) as the loader does, off the key path; edit_check_done gets the
 * result with serial when it arrives. */
void jobs_start_check(tui_app *a, scenario *candidate, unsigned long serial);
/* The index editor's answer to a finished check (mode_edit.c); returns reaction flags. */
int edit_check_done(tui_app *a, unsigned long serial, bool ok, const scenario_error *err);
/* Collect finished jobs; true when something on screen changed. */
bool jobs_poll(tui_app *a);
bool jobs_busy(const tui_app *a);
/* Progress of job k: 0..1, or -1 when it cannot say. */
double jobs_progress(const tui_app *a, tui_job_kind k);
/* Wait for every job (headless use and exit). */
void jobs_wait_all(tui_app *a);
void jobs_free(tui_app *a);

/* ---- view_ctx.c, mode_main.c ---- */
/* The view context of this frame (what the panels draw). */
void app_view_context(tui_app *a, tui_vctx *v);
/* The bottom line (message or key bar) of the top mode, for modes that draw their own screen. */
void app_bar_draw(tui_app *a);
/* The "label: declaration" caption of a compare side. */
void compare_caption(const tui_app *a, bool other, char *buf, size_t n);
/* The caption of the grid of view v of s: which warp-instruction it shows (a recording's: its
 * line, warp and SASS), after prefix. */
void grid_caption(const tui_app *a, const scenario *s, const tui_view *v, char *buf, size_t n, const char *prefix);

/* ---- gpu.c / sweep_measure.c ---- */
bool app_gpu_tick(tui_app *a);
bool sweep_measure_start(tui_app *a);
void sweep_measure_cancel(tui_app *a);
bool sweep_measure_result(tui_app *a, const gpu_worker_result *r);
bool sweep_measure_busy(const tui_app *a);

/* ---- save.c (TUI side): save with a reload check ---- */
/* Serialise, check that the bytes load again, then write atomically; false with a message that
 * names the target, never a temporary file. */
bool tui_save(tui_app *a, const char *path, bool svg, char *msg, size_t n);
/* Keep unsaved edits in a new file in $TMPDIR when a signal ends the view; its name in path. */
bool tui_keep_unsaved(tui_app *a, char *path, size_t n);
/* The name S (svg: E) proposes: the file opened (its ".json" added when missing), or for an SVG
 * its base name with the access and warp. False (buf empty) when it does not fit n bytes: a name
 * is never cut, which would save into another file. */
bool tui_save_default_name(tui_app *a, bool svg, char *buf, size_t n);

#endif
