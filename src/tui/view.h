/* view: what the panels draw, and nothing of how the application got there.
 *
 * A view context (tui_vctx) is made once per frame by the application (view_ctx.c) from its
 * state: the scenario and the analysed instruction on show, the selection, the view options in
 * force (compare, step, quiz, lesson, presentation: they combine), the totals, the GPU's
 * measurement, the message and the key hints. Panels (panel_*.c) draw from it into rectangles and
 * never see the application, its modes or its jobs; the layer below them is draw/crt/layout.
 * Invariants: every pointer in a context stays valid for the frame it was made for; sel_lane is
 * -1 when no lane is selected. */
#ifndef BANKSCOPE_TUI_VIEW_H
#define BANKSCOPE_TUI_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/gpu_worker.h"
#include "model/banks.h"
#include "model/measured.h"
#include "model/scenario.h"
#include "tui/draw.h"

/* One analysed warp-instruction, ready to draw. */
typedef struct tui_view {
    bool valid;
    scenario_instr in;
    banks_result res;
    scenario_excluded excl;
    banks_cell cells[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
} tui_view;

/* Totals over every warp-instruction (the numbers `analyze` prints in its summary). */
typedef struct tui_totals {
    int64_t instructions, wavefronts, ideal, conflicts;
    int64_t idle; /* warp-instructions no lane issues (idle warps), counted in instructions */
    int worst;
    scenario_excluded excl;
} tui_totals;

/* Grid geometry of one frame: drawing and mouse hits use this same record. */
typedef struct grid_geom {
    layout_rect frame, in;
    int cw, head, x0, y0; /* cell width; header rows; first cell's column and row */
    int lw;               /* row-label columns: 5 ("%3d" and the phase mark) or 2 (compact) */
    int nvis, scroll, rows, banks;
} grid_geom;

typedef struct lanes_geom {
    layout_rect in;
    int scroll;
} lanes_geom;

typedef struct tui_frame {
    bool valid;
    layout lay;
    grid_geom grid, grid2;
    lanes_geom lanes;
} tui_frame;

/* View options: they combine (a quiz in step mode, a lesson in the presentation). */
enum { VIEW_COMPARE = 1, VIEW_STEP = 2, VIEW_QUIZ = 4, VIEW_LESSON = 8, VIEW_PRESENT = 16 };

/* What the result panel's MEASURED block shows. */
typedef struct tui_measured {
    bool fresh;                    /* meas is a measurement of the scenario on show */
    const gpu_worker_result *meas; /* the last result (fresh or not) */
    double pred_cycles;            /* < 0: the model does not predict the time (cp.async) */
    int64_t pred_wavefronts, pred_conflicts;
    const banks_profile *pred_arch; /* the GPU's model; NULL before the first measurement */
    bool pred_no_model;             /* no model of this GPU: pred_arch stands in */
    const char *status;             /* "no GPU: predicted only\n..." */
    /* a recording: its measured numbers for the line of the instruction on show (NULL: none) */
    const struct source_record_line *rec_line;
    int64_t rec_blocks;
    /* without line info (rec_line's line 0 lumps every instruction): the instruction's own PC
     * and what the count run measured there (NULL: not measured at that PC) */
    int64_t rec_pc;
    const measured_counts *rec_pc_counts;
} tui_measured;

/* One key of the key bar: its keys as shown ("+/-") and its word. */
typedef struct tui_keyhint {
    char keys[24];
    const char *label;
    bool essential;   /* help, quit, close (a lesson's next): kept at the right end */
    bool situational; /* shown only for some scenarios (warp, iteration, access, field): placed first */
} tui_keyhint;
#define VIEW_MAX_HINTS 48

typedef struct tui_vctx {
    const tui_crt *crt;
    int cols, rows;
    const tui_frame *frame;
    const scenario *sc;
    const tui_view *view;  /* the instruction on show */
    const tui_view *other; /* VIEW_COMPARE: the instruction beside it; else NULL */
    const char *source;
    bool modified;
    int access, warp, iteration;
    int sel_lane; /* -1: none */
    int focus;    /* 0 grid, 1 lanes, 2 map */
    int map_scroll;
    unsigned opts;          /* VIEW_* */
    const char *mode_title; /* the title's first word ("COMPARE", "STEP", ...; "" for none) */
    int step_shown;         /* VIEW_STEP: wavefronts revealed */
    bool quiz_hidden;       /* VIEW_QUIZ before the answer: verdicts, banks and sizes hidden */
    int quiz_guess;
    const char *quiz_typed;
    int lesson_step, lesson_nsteps; /* VIEW_LESSON */
    const char *lesson_title, *lesson_text;
    const tui_totals *totals;   /* NULL while they are computed */
    double totals_progress;     /* 0..1, -1 unknown */
    const char *totals_refused; /* not computed: over the work limit (what it would cost), or NULL */
    tui_measured measured;
    const char *message;
    bool message_error;
    tui_keyhint hints[VIEW_MAX_HINTS];
    int nhints;
} tui_vctx;

/* ---- view.c: pure helpers on the model ---- */
/* Analyse one warp-instruction for drawing. */
void view_build(const scenario *s, int access, int iteration, int warp, tui_view *v);
/* The C declaration of the array an access reads, e.g. "float tile[32][32+1]". */
void view_declaration(const scenario *s, int access, char *buf, size_t n);
/* The verdict headline of an instruction ("32-way conflict", "24 of 32 lanes misaligned: ..."). */
tui_role headline_text(const scenario *s, const tui_view *v, char *buf, size_t n);
/* The same verdict in a few words for the title line, as analyze's tables say it
 * (report_degree_text: "32-way", "conflict-free", "no active lane"), or "24 lanes left out",
 * "not modelled". */
void headline_short(const tui_view *v, char *buf, size_t n);
grid_geom grid_geom_make(const layout_rect *r, const tui_view *v, int scroll, int cw, int lw);
/* Row and bank under (y, x); false outside the cells. */
bool grid_geom_hit(const grid_geom *g, int y, int x, int *row, int *bank);
/* Lane under (y, x) of the lane table; -1 outside. */
int lanes_geom_hit(const lanes_geom *g, int y, int x);

/* ---- panels ---- */
void panel_title_draw(const tui_vctx *v);
/* The bottom line: the message, or the key hints that fit. */
void panel_bar_draw(const tui_vctx *v);
/* shown: wavefronts revealed (step), -1 all, -2 hidden (quiz). */
void panel_grid_draw(const tui_vctx *ctx, const grid_geom *g, const scenario *s, const tui_view *v, const char *caption,
                     bool focused, int shown);
void panel_result_draw(const tui_vctx *ctx, const layout_rect *r, const scenario *s, const tui_view *v,
                       const char *caption, bool current);
void panel_lanes_draw(const tui_vctx *v, const lanes_geom *g);
/* Returns the map's scroll after clamping (the caller keeps it). */
int panel_map_draw(const tui_vctx *v, const layout_rect *r);
void panel_why_draw(const tui_vctx *v, const layout_rect *r, bool framed);
/* The why text: lesson step, description, then explanation lines (one string per paragraph). */
int why_paragraphs(const tui_vctx *v, char ***out);

#endif
