/* mode_prompt: the bottom-line prompts: a file name to save to (JSON or SVG), an array's swizzle, "overwrite?",
 * "quit without saving?" and "open another pattern without saving?". Questions take y/n (and S
 * to save first); a file name takes text. */
#include <curses.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tui/app.h"

/* The prompt's own state (allocated when it opens, freed when it closes). */
typedef struct prompt_state {
    prompt_kind kind;
    bool svg; /* PROMPT_OVERWRITE: the file is an SVG picture */
    int arg;  /* PROMPT_OPEN: direction */
    tui_line line;
    char err[320];  /* PROMPT_STRUCT: why the declaration was refused, "" when none */
    int err_col;    /* its column in the line (0-based), -1 when it has none */
    int line_start; /* PROMPT_STRUCT: where the last line of a paste starts (Enter continues) */
} prompt_state;

/* The open prompt's state (the prompt is the top mode whenever its handlers run). */
static prompt_state *pst(const tui_app *a)
{
    return app_mode_state(a, MODE_PROMPT);
}

/* One way in: the kind, the text the line starts with (selected: typing replaces it) and, for
 * PROMPT_OPEN, the direction. */
void prompt_open(tui_app *a, prompt_kind kind, const char *text, int arg)
{
    if (!app_push(a, &mode_prompt))
        return;
    prompt_state *p = pst(a);
    *p = (prompt_state){.kind = kind, .arg = arg, .err_col = -1};
    line_set(&p->line, text ? text : "", true);
}

bool prompt_asks_quit(const tui_app *a)
{
    const prompt_state *p = app_top(a) == &mode_prompt ? pst(a) : NULL;
    return p && p->kind == PROMPT_QUIT;
}

static bool prompt_is_question(const tui_app *a)
{
    const prompt_state *p = pst(a);
    return p->kind == PROMPT_OVERWRITE || p->kind == PROMPT_QUIT || p->kind == PROMPT_OPEN;
}

/* Save to path now and report (the prompt is closed by then: path is a copy). */
static int save_now(tui_app *a, const char *path, bool svg)
{
    char msg[400];
    bool ok = tui_save(a, path, svg, msg, sizeof msg);
    app_set_message(a, !ok, "%s", msg);
    if (ok && !svg)
        a->modified = false;
    return REACT_REDRAW;
}

/* A key for the line editor (file name, swizzle or declaration); an edit clears the error. */
static int prompt_insert(tui_app *a, int key)
{
    prompt_state *p = pst(a);
    line_key(&p->line, key);
    p->err[0] = '\0';
    return REACT_REDRAW;
}

/* Enter on a struct declaration: before its closing brace (a paste of several lines) the line
 * goes on; after it, the declaration is applied, or the prompt stays open with the error and
 * the cursor on its column. */
static int prompt_struct_accept(tui_app *a)
{
    prompt_state *p = pst(a);
    int depth = 0;
    for (const char *c = p->line.buf; *c; c++)
        depth += *c == '{' ? 1 : *c == '}' ? -1 : 0;
    if (depth > 0 || (p->line.len > 0 && !strchr(p->line.buf, '{'))) {
        /* the pasted line ends here: a // comment on it becomes a block comment, or it would
         * swallow the lines after it on this one line */
        char *c = strstr(p->line.buf + (p->line_start <= p->line.len ? p->line_start : p->line.len), "//");
        if (c && p->line.len + 3 < LINE_MAX_TEXT - 1) {
            c[1] = '*';
            p->line.cur = p->line.len;
            line_key(&p->line, ' ');
            line_key(&p->line, '*');
            line_key(&p->line, '/');
        }
        p->line.cur = p->line.len;
        line_key(&p->line, ' ');
        p->line_start = p->line.len;
        return REACT_REDRAW;
    }
    char text[LINE_MAX_TEXT]; /* the change borrows it past the prompt's close */
    snprintf(text, sizeof text, "%s", p->line.buf);
    scenario_change c = {.kind = SCENARIO_CHANGE_STRUCT_DECL, .u.decl = {.text = text}};
    char msg[300];
    scenario probe;
    if (!scenario_clone(&a->sc, &probe)) {
        app_set_message(a, true, "the scenario cannot be copied");
        return REACT_REDRAW;
    }
    bool ok = scenario_change_apply(&probe, &c, msg, sizeof msg);
    scenario_free(&probe);
    if (!ok) { /* "column N: why": the cursor goes there */
        int col = 0;
        p->err_col = sscanf(msg, "column %d", &col) == 1 && col >= 1 && col - 1 <= p->line.len ? col - 1 : -1;
        snprintf(p->err, sizeof p->err, "%s", msg);
        if (p->err_col >= 0)
            p->line.cur = p->err_col;
        return REACT_REDRAW;
    }
    char name[64] = "";
    const char *b = strstr(text, "struct");
    if (b && sscanf(b + 6, " %63[A-Za-z0-9_]", name) != 1)
        name[0] = '\0';
    app_pop(a); /* p is freed here */
    int r = app_change(a, &c, false);
    if ((r & REACT_EDITED) && name[0]) /* the new struct selected */
        structs_select(a, name);
    return r;
}

static int prompt_yes(tui_app *a, int key);

static int prompt_accept(tui_app *a, int key)
{
    prompt_state *p = pst(a);
    if (prompt_is_question(a))
        return prompt_yes(a, key);
    if (p->kind == PROMPT_SWIZZLE) { /* an edit like any other: undo takes it back */
        char text[LINE_MAX_TEXT];    /* the change borrows it past the prompt's close */
        snprintf(text, sizeof text, "%s", p->line.buf);
        scenario_change c = {.kind = SCENARIO_CHANGE_SWIZZLE,
                             .u.swizzle = {.array = scenario_access_array(&a->sc, a->access), .text = text}};
        app_pop(a);
        return app_change(a, &c, false);
    }
    if (p->kind == PROMPT_STRUCT)
        return prompt_struct_accept(a);
    if (p->line.len == 0)
        return REACT_REDRAW;
    bool svg = p->kind == PROMPT_SVG;
    if (access(p->line.buf, F_OK) == 0) {
        p->svg = svg;
        p->kind = PROMPT_OVERWRITE;
        return REACT_REDRAW;
    }
    char path[LINE_MAX_TEXT];
    snprintf(path, sizeof path, "%s", p->line.buf);
    app_pop(a);
    return save_now(a, path, svg);
}

static int prompt_cancel(tui_app *a, int key)
{
    (void)key;
    prompt_kind k = pst(a)->kind;
    bool save = k == PROMPT_SAVE || k == PROMPT_SVG || k == PROMPT_OVERWRITE;
    app_set_message(a, false, "%s", save ? "not saved" : "cancelled");
    app_pop(a);
    return REACT_REDRAW;
}

static int prompt_yes(tui_app *a, int key)
{
    if (!prompt_is_question(a))
        return prompt_insert(a, key);
    prompt_state p = *pst(a); /* a copy: closing the prompt frees its state */
    app_pop(a);
    if (p.kind == PROMPT_OVERWRITE)
        return save_now(a, p.line.buf, p.svg);
    if (p.kind == PROMPT_QUIT)
        return REACT_QUIT;
    return app_open_relative(a, p.arg, true);
}

static int prompt_no(tui_app *a, int key)
{
    if (!prompt_is_question(a))
        return prompt_insert(a, key);
    return prompt_cancel(a, key);
}

static int prompt_open_save(tui_app *a, int key)
{
    prompt_state *p = pst(a);
    if (!prompt_is_question(a) || p->kind == PROMPT_OVERWRITE)
        return prompt_insert(a, key);
    /* save first: the file name prompt replaces the question */
    p->kind = PROMPT_SAVE;
    char name[LINE_MAX_TEXT];
    if (!tui_save_default_name(a, false, name, sizeof name))
        app_set_message(a, true, "the file's name is longer than %d bytes: type the name to save as",
                        LINE_MAX_TEXT - 1);
    line_set(&p->line, name, true);
    return REACT_REDRAW;
}

static int prompt_line(tui_app *a, int key)
{
    prompt_state *p = pst(a);
    if (!prompt_is_question(a))
        line_key(&p->line, key);
    if (key != KEY_LEFT && key != KEY_RIGHT && key != KEY_HOME && key != KEY_END)
        p->err[0] = '\0';
    return REACT_REDRAW;
}

static int prompt_key(tui_app *a, int key)
{
    int r = actions_dispatch(a, MODE_PROMPT, key);
    if (!(r & REACT_UNHANDLED))
        return r;
    if (prompt_is_question(a)) /* any other key answers no */
        return prompt_cancel(a, key);
    return prompt_insert(a, key);
}

static void prompt_draw(tui_app *a)
{
    const layout_rect *r = &a->frame.lay.bar;
    const prompt_state *p = pst(a);
    draw_fill(&a->crt, r->y, 0, a->cols, ROLE_BAR);
    switch (p->kind) {
    case PROMPT_SAVE:
    case PROMPT_SVG:
    case PROMPT_SWIZZLE: {
        int x = draw_text(&a->crt, r->y, 0, a->cols, ROLE_BAR,
                          p->kind == PROMPT_SWIZZLE ? " swizzle: "
                          : p->kind == PROMPT_SVG   ? " export SVG as: "
                                                    : " save as: ");
        x += draw_line(&a->crt, r->y, x, a->cols - x - 20, ROLE_BAR, &p->line, '_');
        draw_text(&a->crt, r->y, x, a->cols - x, ROLE_BAR,
                  p->kind == PROMPT_SWIZZLE ? "  (32B 64B 128B Swizzle<B,M,S>; empty: none; Enter, Esc)"
                                            : "  (Enter save, Esc cancel)");
        break;
    }
    case PROMPT_STRUCT: { /* the line, and above it the error with a caret under its column */
        int x = draw_text(&a->crt, r->y, 0, a->cols, ROLE_BAR, " C: ");
        int w = a->cols - x - 1;
        int first = p->line.cur + 1 > w ? p->line.cur + 1 - w : 0; /* as draw_line scrolls */
        draw_line(&a->crt, r->y, x, w, ROLE_BAR, &p->line, '_');
        if (p->err[0] && r->y >= 2) {
            draw_fill(&a->crt, r->y - 1, 0, a->cols, ROLE_ERROR);
            int cx = p->err_col >= 0 ? x + p->err_col - first : -1, mw = draw_width(p->err);
            const char *arrow = crt_glyph(&a->crt, "↓", "v");
            if (cx < 0 || cx >= a->cols || (cx + 2 + mw > a->cols && mw + 1 > cx)) {
                /* no column on screen, or no room beside the arrow: the message alone, which
                 * names the column (the cursor is on it), cut with an ellipsis */
                draw_textf_cut(&a->crt, r->y - 1, 1, a->cols - 1, ROLE_ERROR, "%s", p->err);
            } else if (cx + 2 + mw <= a->cols) { /* the arrow over the column, the message after it */
                draw_text(&a->crt, r->y - 1, cx, a->cols - cx, ROLE_ERROR, "%s %s", arrow, p->err);
            } else { /* the message before the arrow */
                draw_text(&a->crt, r->y - 1, cx - 1 - mw, mw, ROLE_ERROR, "%s", p->err);
                draw_text(&a->crt, r->y - 1, cx, 1, ROLE_ERROR, "%s", arrow);
            }
        } else if (r->y >= 2) {
            draw_fill(&a->crt, r->y - 1, 0, a->cols, ROLE_BAR);
            draw_text(&a->crt, r->y - 1, 0, a->cols, ROLE_BAR,
                      " type or paste a struct: struct P { float3 pos; float m; };  (Enter, Esc)");
        }
        break;
    }
    case PROMPT_OVERWRITE:
        draw_text(&a->crt, r->y, 0, a->cols, ROLE_BAR, " %s exists: overwrite? (y/n)", p->line.buf);
        break;
    case PROMPT_QUIT:
        draw_text(&a->crt, r->y, 0, a->cols, ROLE_BAR, " quit without saving? (y/n, S saves first)");
        break;
    case PROMPT_OPEN:
        draw_text(&a->crt, r->y, 0, a->cols, ROLE_BAR,
                  " open the %s pattern without saving your edits? (y/n, S saves first)",
                  p->arg > 0 ? "next" : "previous");
        break;
    }
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action prompt_actions[] = {
    /* prompts */
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "ok",
     .help = "confirm",
     .handler = prompt_accept,
     .modes = MODE_BIT(MODE_PROMPT)},
    {.keys = {KEY_ESC},
     .nshow = 1,
     .label = "cancel",
     .help = "cancel",
     .handler = prompt_cancel,
     .modes = MODE_BIT(MODE_PROMPT)},
    {.keys = {'y', 'Y'},
     .nshow = 1,
     .label = "yes",
     .help = "yes (questions only)",
     .handler = prompt_yes,
     .modes = MODE_BIT(MODE_PROMPT)},
    {.keys = {'n', 'N'},
     .nshow = 1,
     .label = "no",
     .help = "no (questions only)",
     .handler = prompt_no,
     .modes = MODE_BIT(MODE_PROMPT)},
    {.keys = {'S'},
     .nshow = 1,
     .label = "save first",
     .help = "save first (questions only)",
     .handler = prompt_open_save,
     .modes = MODE_BIT(MODE_PROMPT)},
    {.keys = {KEY_BACKSPACE, KEY_DC, KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_END, CTRL('a'), CTRL('e'), CTRL('u'), CTRL('k'),
              CTRL('w'), 127},
     .nshow = 1,
     .help = "edit the line: arrows, Home/End (Ctrl-A/E) move; Ctrl-U/Ctrl-K erase to the start/end, Ctrl-W a word",
     .handler = prompt_line,
     .modes = MODE_BIT(MODE_PROMPT)},
};

const tui_mode mode_prompt = {
    .id = MODE_PROMPT,
    .name = "prompt",
    .overlay = true,
    .key = prompt_key,
    .draw = prompt_draw,
    .state_size = sizeof(prompt_state),
    .actions = prompt_actions,
    .nactions = (int)(sizeof prompt_actions / sizeof prompt_actions[0]),
};
