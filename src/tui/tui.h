/* tui: the interactive interface. One file per panel (draw + keys), app.c owns the loop and the
 * state, crt.c everything about the terminal, layout.c the pure placement of panels.
 * Ownership: tui_app owns its scenarios and analysis buffers. The TUI never calls CUDA: GPU
 * results arrive through src/gpu's worker (when built with CUDA) and are drawn when they come. */
#ifndef BANKSCOPE_TUI_H
#define BANKSCOPE_TUI_H

#include <stdbool.h>

#include "gpu/gpu_worker.h"
#include "io/lesson.h"
#include "model/advisor.h"
#include "model/banks.h"
#include "model/scenario.h"
#include "tui/layout.h"

/* Colour roles; crt maps them to colour pairs or to monochrome attributes. */
typedef enum tui_role {
    ROLE_NORMAL, ROLE_TITLE, ROLE_BAR, ROLE_KEY, ROLE_DIM, ROLE_FRAME, ROLE_OK, ROLE_CONFLICT,
    ROLE_BROADCAST, ROLE_SELECTED, ROLE_PADDING, ROLE_HILITE, ROLE_ERROR, ROLE_BIG, ROLE_BANK_A,
    ROLE_BANK_B, ROLE_COUNT
} tui_role;

/* Terminal capabilities chosen at start. */
typedef struct tui_crt {
    bool color;
    bool utf8;
    bool mouse;
} tui_crt;

typedef enum tui_focus { FOCUS_GRID, FOCUS_LANES, FOCUS_MAP, FOCUS_COUNT } tui_focus;

/* One analysed warp-instruction, ready to draw. */
typedef struct tui_view {
    bool valid;
    scenario_instr in;
    banks_result res;
    banks_cell cells[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
} tui_view;

/* The advisor's padding sweep measured on the GPU (sweep_measure.c). */
typedef struct tui_sweep {
    bool running, done;       /* done: every row measured */
    unsigned long gen;        /* the scenario generation the rows belong to */
    int row, access;          /* the request in flight */
    unsigned long id, requests;
    int warps_now;            /* active warps and predicted cycles of the request in flight */
    double pred_now;
    double sum, pred_sum;     /* of the row so far, weighted by warps */
    int warps;
    int nmeasured;            /* rows measured since the start; 0 after a cancel */
    double measured[257], predicted[257]; /* cycles per warp-access per row; -1 not yet */
    char error[320];          /* why it stopped or could not start; "" otherwise */
} tui_sweep;

typedef struct tui_app {
    scenario sc;
    char *source;            /* file or pattern the scenario came from */
    int access, warp, iteration;
    tui_focus focus;
    int sel_lane;
    int grid_scroll, lanes_scroll, map_scroll;
    bool help, compare, step_mode, playing;
    int step;                /* step mode: wavefronts shown */
    bool editing;
    int edit_dim;            /* index expression being edited; -1: 'when' */
    char edit_buf[256];
    int edit_len;
    char *edit_saved;
    char edit_msg[200];
    int edit_err_pos;        /* -1 when the text parses */
    char message[256];
    bool message_error;
    int pattern;             /* index in the pattern library for n/p, -1 unknown */
    lesson les;              /* les.nsteps > 0: a lesson is open; n/p step through it */
    int les_step;
    tui_crt crt;
    layout lay;
    tui_view view;
    scenario variant;        /* compare mode */
    bool variant_ok;
    char variant_label[96];
    tui_view vview;
    /* totals over every warp-instruction of the scenario */
    int64_t total_wavefronts, total_ideal, total_instr;
    int total_worst;
    bool totals_valid;       /* the totals belong to totals_gen */
    unsigned long totals_gen;
    /* GPU: the worker, the edit generation a measurement belongs to, and the last result */
    gpu_worker *worker;      /* NULL with --no-gpu */
    unsigned long gen;       /* bumped by every change that alters what would be measured */
    unsigned long submitted; /* generation last sent to the worker */
    double changed_ms;       /* when gen last changed (for the debounce) */
    bool have_meas;
    gpu_worker_result meas;  /* valid for gen == meas.id */
    double pred_cycles;      /* prediction the measurement is compared with */
    int64_t pred_wavefronts, pred_conflicts;
    int spinner;
    char gpu_status[300];
    int cols, rows;
    int prompt;              /* 0 none, 1 file name to save, 2 confirm overwrite */
    bool prompt_svg;         /* the prompt saves an SVG picture, not the scenario */
    int overlay;             /* 0 none, 'v' advisor, 'o' struct layout */
    advisor_result *adv;     /* owned; the sweep shown by the advisor overlay */
    tui_sweep sweep;         /* its measurement on the GPU */
    int sel_struct, sel_field; /* the struct editor's selection */
    char prompt_buf[256];
    int prompt_len;
    bool quit;
} tui_app;

/* crt.c */
void crt_init(tui_crt *c, bool want_color, bool want_mouse);
void crt_done(void);
int crt_attr(const tui_crt *c, tui_role r);
/* Line-drawing and glyphs with ASCII fallbacks. */
const char *crt_glyph(const tui_crt *c, const char *utf8, const char *ascii);

/* app.c */
bool app_open(tui_app *a, const char *source, char *err, size_t errlen);
void app_free(tui_app *a);
void app_refresh_view(tui_app *a);
void app_draw(tui_app *a);
/* Handle one key; returns true when the screen must be redrawn. */
bool app_key(tui_app *a, int key);
/* Mark the scenario changed: a new measurement is due. */
void app_changed(tui_app *a);
/* Talk to the worker: submit after the debounce, collect results. True when the screen changed. */
bool app_gpu_tick(tui_app *a);

/* sweep_measure.c: `m` in the advisor measures every padding through the worker. */
bool sweep_measure_start(tui_app *a);
void sweep_measure_cancel(tui_app *a);
/* Take a worker result if it belongs to the sweep (then true), and submit the next request. */
bool sweep_measure_result(tui_app *a, const gpu_worker_result *r);
bool sweep_measure_busy(const tui_app *a);

/* edits.c: the single-key edits (pure scenario changes). Each returns false with a message. */
bool edit_padding(scenario *s, int array, int delta, char *msg, size_t n);
bool edit_cycle_type(scenario *s, int array, char *msg, size_t n);
bool edit_cycle_pattern(scenario *s, int access, char *msg, size_t n);
bool edit_cycle_block(scenario *s, char *msg, size_t n);
/* Halve or double the innermost (inner) or outermost dimension of an array. */
bool edit_dimension(scenario *s, int array, bool inner, bool grow, char *msg, size_t n);
bool edit_cycle_arch(scenario *s, char *msg, size_t n);
bool edit_cycle_field(scenario *s, int access, char *msg, size_t n);
bool edit_compare_variant(const scenario *s, int access, scenario *out, char *label, size_t n);

/* panels */
void panel_title_draw(tui_app *a);
void panel_bar_draw(tui_app *a);
void panel_grid_draw(tui_app *a, const layout_rect *r, const scenario *s, const tui_view *v, const char *caption);
void panel_result_draw(tui_app *a, const layout_rect *r, const scenario *s, const tui_view *v, const char *caption);
void panel_lanes_draw(tui_app *a, const layout_rect *r);
void panel_map_draw(tui_app *a, const layout_rect *r);
void panel_help_draw(tui_app *a);
void panel_advisor_draw(tui_app *a);
void panel_struct_draw(tui_app *a);
/* Reorder the fields of struct si by decreasing alignment (removes holes); false with a message. */
bool edit_reorder_fields(scenario *s, int si, char *msg, size_t n);
/* The struct editor: cycle field fi's type, add a char field after it, delete it. */
bool edit_field_type(scenario *s, int si, int fi, char *msg, size_t n);
bool edit_field_add(scenario *s, int si, int fi, char *msg, size_t n);
bool edit_field_delete(scenario *s, int si, int fi, char *msg, size_t n);
/* Draw a frame with a title; returns the inner rectangle. */
layout_rect panel_frame(tui_app *a, const layout_rect *r, const char *title, bool focused);

#endif
