/* mode_source: the source view (V) on the pager: the user's source file (an import's .cu, a
 * recording's kernel file, or the line texts they carry when the file is not at hand), each line
 * with a gutter: its number, the predicted wavefronts / ideal and worst conflict degree of its
 * accesses summed over every warp-instruction (view_source.c's input, the model's rows), and for
 * a measured recording the launch's measured wavefronts with a mark (= equal to predicted x
 * blocks, ≠ not, ? block invariance not established). S sorts the lines by cost and back; Enter
 * goes to the line's first access in the grid view; / n N search; the mouse wheel scrolls. After
 * the file come the lines of other files, the accesses the import skipped (or the lines that
 * name a shared array and have no access) as a list whose Enter goes to the line. A recording
 * opens here (source_open_first). Esc or q goes back to the view it was opened from. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/line_sums.h"
#include "io/report.h"
#include "tui/app.h"

/* The source view (mode_source.c, on view_source.c's input): the rows on show and the pager. */
typedef struct source_state {
    tui_source src;
    bool sorted;               /* by cost, not in file order */
    bool center;               /* the next frame scrolls the cursor to a third of the page */
    int *kind, *ref;           /* owned, per pager line: what it shows (mode_source.c) and its row */
    char **texts;              /* owned, per pager line */
    int n;                     /* pager lines */
    int w_num, w_pred, w_meas; /* gutter column widths */
    int w_wf, w_deg;           /* the predicted column's parts: "1056/64", "32-way" */
    bool narrow;               /* fewer than SOURCE_NARROW columns: short words, no shared indent */
    tui_pager pager;
    unsigned long mask; /* mouse events before the view asked for the wheel too */
} source_state;

/* The source view's state, while it is open. */
static source_state *srst(const tui_app *a)
{
    return app_mode_state(a, MODE_SOURCE);
}

/* What a pager line shows. */
enum { ROW_LINE, ROW_NOTE, ROW_HEAD, ROW_LIST };

/* Lines the pager shows: the page between the two title lines and the two bottom lines. */
static int source_page(const tui_app *a)
{
    int h = a->rows - 4;
    return h > 1 ? h : 1;
}

/* Free the pager lines (not the input). */
static void rows_free(source_state *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->texts[i]);
    free(v->texts);
    free(v->kind);
    free(v->ref);
    v->texts = NULL;
    v->kind = v->ref = NULL;
    v->n = 0;
}

/* Append a pager line of kind k for row ref, its text owned. */
static void push(source_state *v, int *cap, int k, int ref, char *text)
{
    if (v->n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        v->texts = xrealloc(v->texts, sizeof *v->texts * (size_t)*cap);
        v->kind = xrealloc(v->kind, sizeof *v->kind * (size_t)*cap);
        v->ref = xrealloc(v->ref, sizeof *v->ref * (size_t)*cap);
    }
    v->texts[v->n] = text;
    v->kind[v->n] = k;
    v->ref[v->n++] = ref;
}

/* The text of row r: the file's lines as they are (less the first cut spaces that every shown
 * line of the file has), the others after their place. */
static char *row_text(const source_lines *sl, int r, int cut)
{
    const source_row *x = &sl->rows[r];
    strbuf sb = {0};
    if (r >= sl->nfile && x->file)
        strbuf_addf(&sb, "%s:%d: ", x->file, x->line);
    else if (r >= sl->nfile)
        strbuf_addf(&sb, "(no line info) ");
    const char *t = x->text ? x->text : "";
    if (r < sl->nfile)
        t += strspn(t, " ") < (size_t)cut ? strspn(t, " ") : (size_t)cut;
    strbuf_addf(&sb, "%s", t);
    return strbuf_take(&sb);
}

/* The indentation every non-blank shown line of the file shares: a narrow screen leaves it out,
 * so the gutter and the code both fit. */
static int common_indent(const source_state *v)
{
    const source_lines *sl = &v->src.sl;
    int cut = -1;
    for (int r = 0; r < sl->nfile; r++) {
        const char *t = sl->rows[r].text;
        if (!t || !t[strspn(t, " \t")])
            continue;
        int sp = (int)strspn(t, " ");
        cut = cut < 0 || sp < cut ? sp : cut;
    }
    return cut < 0 ? 0 : cut;
}

/* The pager's lines: the file in order (each line's skip messages under it), other files, the
 * list; or the lines with accesses, hottest first. */
static void source_rows(tui_app *a)
{
    source_state *v = srst(a);
    const source_lines *sl = &v->src.sl;
    int cursor_row = v->n && v->pager.cursor >= 0 && v->pager.cursor < v->n ? v->ref[v->pager.cursor] : -1;
    rows_free(v);
    int cap = 0;
    int *order = xmalloc(sizeof *order * (size_t)(sl->nrows > 0 ? sl->nrows : 1));
    int k = source_lines_order(sl, v->sorted, order);
    int indent = v->narrow ? common_indent(v) : 0; /* once: it reads every line */
    for (int i = 0; i < k; i++) {
        int r = order[i];
        const source_row *x = &sl->rows[r];
        if (!v->src.path && r < sl->nfile && !x->text && !x->naccess && !x->nskipped)
            continue; /* the file is not at hand: only the lines whose text is known */
        if (!v->sorted && r == sl->nfile && r < sl->nrows)
            push(v, &cap, ROW_HEAD, -1, xstrdup("-- lines of other files --"));
        push(v, &cap, ROW_LINE, r, row_text(sl, r, indent));
        for (int m = 0; !v->sorted && m < sl->rows[r].nskipped; m++) {
            strbuf sb = {0};
            const char *msg = sl->rows[r].skipped[m], *sk = strstr(msg, ": skipped ");
            strbuf_addf(&sb, "  ^ %s", sk ? sk + 2 : msg); /* its place is the line above */
            push(v, &cap, ROW_NOTE, r, strbuf_take(&sb));
        }
    }
    free(order);
    if (!v->sorted) { /* what the import left out, as a list that leads to its lines */
        bool head = false;
        for (int r = 0; r < sl->nrows; r++) {
            const source_row *x = &sl->rows[r];
            for (int m = 0; m < x->nskipped; m++) {
                if (!head)
                    push(v, &cap, ROW_HEAD, -1, xstrdup("-- accesses the import skipped --"));
                head = true;
                push(v, &cap, ROW_LIST, r, xstrdup(x->skipped[m]));
            }
        }
        for (int r = 0; r < sl->nfile && !head; r++)
            if (sl->rows[r].names_array) {
                push(v, &cap, ROW_HEAD, -1,
                     xstrdup("-- no access imported on these lines (the import's messages say why) --"));
                head = true;
            }
        for (int r = 0; r < sl->nfile; r++)
            if (sl->rows[r].names_array) {
                strbuf sb = {0};
                const char *t = sl->rows[r].text ? sl->rows[r].text : "";
                strbuf_addf(&sb, "line %d: %s", r + 1, t + strspn(t, " \t"));
                push(v, &cap, ROW_LIST, r, strbuf_take(&sb));
            }
    }
    pager_set(&v->pager, (const char *const *)v->texts, v->n, true);
    for (int i = 0; i < v->n && cursor_row >= 0; i++) /* the cursor stays on its line */
        if (v->kind[i] == ROW_LINE && v->ref[i] == cursor_row) {
            v->pager.cursor = i;
            break;
        }
    pager_clamp(&v->pager, source_page(a));
}

/* The two parts of row x's predicted column: "1056/64" and the worst degree in the words of
 * every view (report_degree_text: "32-way", "conflict-free"; "free" on a narrow screen, whose
 * head line says so); a line without accesses says why in deg alone ("skipped", "no access?")
 * or leaves both empty. */
static void pred_parts(const source_row *x, bool narrow, char *wf, char *deg, size_t n)
{
    wf[0] = deg[0] = '\0';
    if (x->naccess == 0 && x->nskipped)
        snprintf(deg, n, "skipped");
    else if (x->naccess == 0 && x->names_array)
        snprintf(deg, n, "no access?");
    else if (x->naccess == 0 && x->measured.known) /* no trace entry: the hardware's count alone */
        snprintf(deg, n, "measured only");
    else if (x->naccess > 0) {
        snprintf(wf, n, "%lld/%lld", (long long)x->wavefronts, (long long)x->ideal);
        if (x->worst <= 0 && x->not_modelled && x->kind && narrow) /* the kind: in the line under the text */
            snprintf(deg, n, "not modelled");
        else if (x->worst <= 0 && x->not_modelled && x->kind) /* only kinds without a rule: never a verdict */
            snprintf(deg, n, "not modelled: %s", x->kind);
        else {
            report_degree_text(x->worst, deg, n);
            if (narrow && x->worst <= 1)
                snprintf(deg, n, "free");
        }
    }
}

/* The predicted column of row x: its numbers right-aligned, its degree left-aligned after them,
 * each in the column every row shares. */
static void pred_text(const source_state *v, const source_row *x, char *buf, size_t n)
{
    char wf[32], deg[32];
    pred_parts(x, v->narrow, wf, deg, sizeof wf);
    if (wf[0])
        snprintf(buf, n, "%*s %-*s", v->w_wf, wf, v->w_deg, deg);
    else
        snprintf(buf, n, "%s", deg);
}

/* The measured column of row x: the launch's wavefronts and their ideal, as the predicted
 * column shows its own ("131072/131072": no conflict); the mark goes beside it. */
static void meas_text(const source_row *x, char *buf, size_t n)
{
    buf[0] = '\0';
    if (x->measured.known)
        snprintf(buf, n, "%llu/%llu", (unsigned long long)x->measured.wavefronts,
                 (unsigned long long)x->measured.ideal_wavefronts);
}

/* The agreement mark of a measured row and its role: = agree, ≠ differ, ? not established. */
static const char *agree_mark(const tui_app *a, const source_row *x, tui_role *role)
{
    switch (x->measured.agree) {
    case MEASURED_AGREE_TRUE: *role = ROLE_OK; return "=";
    case MEASURED_AGREE_FALSE: *role = ROLE_WARN; return crt_glyph(&a->crt, "≠", "!");
    default: *role = ROLE_DIM; return "?";
    }
}

/* The gutter's column widths over every row. */
static void widths(source_state *v)
{
    const source_lines *sl = &v->src.sl;
    v->w_num = 1;
    for (int n = sl->nfile; n >= 10; n /= 10)
        v->w_num++;
    v->w_pred = v->w_meas = v->w_wf = v->w_deg = 0;
    for (int r = 0; r < sl->nrows; r++) {
        char wf[32], deg[32];
        pred_parts(&sl->rows[r], v->narrow, wf, deg, sizeof wf);
        int w = (int)strlen(wf);
        v->w_wf = w > v->w_wf ? w : v->w_wf;
        if (wf[0])
            v->w_deg = (int)strlen(deg) > v->w_deg ? (int)strlen(deg) : v->w_deg;
    }
    for (int r = 0; r < sl->nrows; r++) {
        char buf[80];
        pred_text(v, &sl->rows[r], buf, sizeof buf);
        int w = (int)strlen(buf);
        v->w_pred = w > v->w_pred ? w : v->w_pred;
        meas_text(&sl->rows[r], buf, sizeof buf);
        w = (int)strlen(buf);
        v->w_meas = w > v->w_meas ? w : v->w_meas;
    }
}

/* Why a file a recording or scenario names was not opened (said before its name). */
static const char *refusal_words(safe_refusal r, bool recording, bool dir)
{
    if (r == SAFE_OUTSIDE && dir)
        return recording ? "outside the recording's folder and --source" : "outside the scenario's folder and --source";
    if (r == SAFE_OUTSIDE)
        return recording ? "outside the recording's folder" : "outside the scenario's folder";
    if (r == SAFE_SPECIAL)
        return "a system file";
    if (r == SAFE_NOT_REGULAR)
        return "not a regular file";
    if (r == SAFE_NOT_SOURCE)
        return "not named as a source file";
    return "not found";
}

/* Open the source view of the scenario on show (V); says why when it has no source. */
int source_open(tui_app *a, int key)
{
    (void)key;
    if (!app_push(a, &mode_source)) /* its state, filled here (popped again when there is no source) */
        return REACT_REDRAW;
    source_state *v = srst(a);
    const char *dir = a->srcopt.dir;
    char why[700];
    if (!source_view_input(&a->sc, a->source, a->rec.doc, a->srcopt.hint, dir, a->srcopt.skips, a->srcopt.nskips,
                           &v->src, why, sizeof why)) {
        app_pop(a);
        app_set_message(a, true, "no source: %s", why);
        return REACT_REDRAW;
    }
    v->sorted = false;
    v->narrow = a->cols < SOURCE_NARROW;
    widths(v);
    source_rows(a);
    /* start on the line of the access on show */
    for (int i = 0; i < v->n; i++) {
        const source_row *x = v->kind[i] == ROW_LINE ? &v->src.sl.rows[v->ref[i]] : NULL;
        for (int k = 0; x && k < x->naccess; k++)
            if (x->access[k] == a->access) {
                v->pager.cursor = i;
                i = v->n;
                break;
            }
    }
    v->center = true; /* the first frame shows the lines before it too */
    if (v->src.differs && !v->src.path)
        app_set_message(a, true, "%s changed since (or is another file): the lines the %s carries are shown",
                        v->src.sl.file ? v->src.sl.file : "the source", v->src.is_recording ? "recording" : "scenario");
    else if (!v->src.path && v->src.sl.file && v->src.unchecked)
        app_set_message(a, true, "source not opened: the %s's lines carry no text to check %s against",
                        v->src.is_recording ? "recording" : "scenario", v->src.sl.file);
    else if (!v->src.path && v->src.sl.file && v->src.refused == SAFE_NOT_FOUND)
        app_set_message(a, false, "%s not found: the lines the %s carries are shown", v->src.sl.file,
                        v->src.is_recording ? "recording" : "scenario");
    else if (!v->src.path && v->src.sl.file)
        app_set_message(a, true, "source not opened, %s: %s%s", /* the reason first: a long path is cut */
                        refusal_words(v->src.refused, v->src.is_recording, dir != NULL), v->src.sl.file,
                        v->src.refused == SAFE_OUTSIDE && !dir ? " (--source DIR adds a folder)" : "");
    return REACT_REDRAW;
}

void source_open_first(tui_app *a)
{
    bool lines = false; /* a recording with line info opens on its source, one without on its SASS */
    for (int k = 0; a->sc.trace_at && k < a->sc.ntrace && !lines; k++)
        lines = a->sc.trace_at[k].file != NULL;
    if (a->sc.recording && a->sc.trace_at && !lines) {
        sass_open(a, 0);
        return;
    }
    if (scenario_has_source_map(&a->sc) && lines)
        source_open(a, 'V');
}

/* Free the rows and the input (the view is popped). */
static void source_release(void *st)
{
    source_state *v = st;
    rows_free(v);
    source_view_input_free(&v->src);
}

/* Enter: the grid view of the line's worst instruction (a recording) or first access, or the
 * listed line in the file. */
static int source_enter(tui_app *a)
{
    source_state *v = srst(a);
    int i = v->pager.cursor;
    if (i < 0 || i >= v->n || v->ref[i] < 0)
        return REACT_REDRAW;
    int r = v->ref[i];
    const source_row *x = &v->src.sl.rows[r];
    if (v->kind[i] == ROW_LIST || (v->kind[i] == ROW_NOTE && x->naccess == 0)) {
        for (int j = 0; j < v->n; j++)
            if (v->kind[j] == ROW_LINE && v->ref[j] == r)
                v->pager.cursor = j;
        pager_clamp(&v->pager, source_page(a));
        return REACT_REDRAW;
    }
    if (x->naccess == 0) {
        app_set_message(a, true,
                        x->measured.known ? "measured only: no recorded lanes on this line" : "no access on this line");
        return REACT_REDRAW;
    }
    bool worst = scenario_has_source_map(&a->sc); /* a recording: where the line costs most */
    int acc = worst ? line_sums_costliest_entry(&a->sc, x->access, x->naccess) : x->access[0], line = x->line,
        nacc = x->naccess;                /* x is freed with the view */
    while (app_top(a)->id == MODE_SOURCE) /* back to the view it was opened from */
        app_pop(a);
    a->access = acc;
    step_restart(a);
    if (line > 0)
        app_set_message(a, false, "line %d: %s %d, the %s of %d on the line%s", line,
                        scenario_access_noun(&a->sc, false), acc, worst ? "costliest" : "first", nacc,
                        worst && nacc > 1 ? " ([ / ] the previous / next of the line)" : "");
    return REACT_RECOMPUTE | REACT_MEASURE | REACT_REDRAW;
}

/* Scroll, sort, search and go to the grid. */
static int source_key(tui_app *a, int key)
{
    source_state *v = srst(a);
    int page = source_page(a);
    if (key == 'S') {
        v->sorted = !v->sorted;
        source_rows(a);
        if (v->sorted) {
            v->pager.cursor = 0;
            pager_clamp(&v->pager, page);
        }
        app_set_message(a, false, "%s",
                        v->sorted ? "lines with accesses by cost: wavefronts beyond ideal first"
                                  : "lines in file order");
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
            app_set_message(a, true, "%s", v->pager.query.buf[0] ? "not in the source" : "no search yet: / starts one");
        return REACT_REDRAW;
    }
    if (key == '\r' || key == '\n' || key == KEY_ENTER)
        return source_enter(a);
    pager_scroll_key(&v->pager, key, page);
    return REACT_REDRAW;
}

static int source_mouse(tui_app *a, int key)
{
    (void)key;
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return REACT_NONE;
    if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
        pager_scroll_by(&srst(a)->pager, ev.bstate & BUTTON4_PRESSED ? -3 : 3, source_page(a));
        return REACT_REDRAW;
    }
    int row = ev.y - 2; /* a click chooses the line */
    if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED) && row >= 0 && row < source_page(a) &&
        srst(a)->pager.scroll + row < srst(a)->n) {
        srst(a)->pager.cursor = srst(a)->pager.scroll + row;
        return REACT_REDRAW;
    }
    return REACT_NONE;
}

/* The gutter of pager line i: number, predicted (coloured by degree, as the grid's cells),
 * measured and its mark. */
static void source_style(void *ctx, int i, tui_pager_line *out)
{
    tui_app *a = ctx;
    const source_state *v = srst(a);
    const source_lines *sl = &v->src.sl;
    out->gutter_role = ROLE_DIM;
    if (v->kind[i] != ROW_LINE) {
        snprintf(out->gutter, sizeof out->gutter, "%*s", v->w_num, "");
        out->role = v->kind[i] == ROW_HEAD ? ROLE_KEY : ROLE_DIM;
        snprintf(out->extra[0].text, sizeof out->extra[0].text, " %*s", v->w_pred, "");
        if (sl->measured)
            snprintf(out->extra[1].text, sizeof out->extra[1].text, " %*s  ", v->w_meas, "");
        return;
    }
    const source_row *x = &sl->rows[v->ref[i]];
    if (v->ref[i] < sl->nfile)
        snprintf(out->gutter, sizeof out->gutter, "%*d", v->w_num, x->line);
    else
        snprintf(out->gutter, sizeof out->gutter, "%*s", v->w_num, "");
    char buf[80];
    pred_text(v, x, buf, sizeof buf);
    snprintf(out->extra[0].text, sizeof out->extra[0].text, " %*.40s", v->w_pred < 40 ? v->w_pred : 40, buf);
    out->extra[0].role = x->naccess == 0 ? ROLE_DIM : x->worst > 1 ? ROLE_CONFLICT : ROLE_OK;
    if ((x->naccess == 0 && (x->names_array || x->nskipped)) || (x->worst <= 0 && x->not_modelled && x->kind))
        out->extra[0].role = ROLE_KEY; /* not a verdict: an access the model does not see (or has no rule for) */
    if (sl->measured) {
        tui_role mr = ROLE_DIM;
        meas_text(x, buf, sizeof buf);
        const char *mark = x->measured.known ? agree_mark(a, x, &mr) : " ";
        snprintf(out->extra[1].text, sizeof out->extra[1].text, " %*.24s%s ", v->w_meas < 24 ? v->w_meas : 24, buf,
                 mark);
        out->extra[1].role = mr;
    }
    bool current = false;
    for (int k = 0; k < x->naccess && !current; k++)
        current = x->access[k] == a->access;
    out->role = current ? ROLE_HILITE : x->text || v->ref[i] >= sl->nfile ? ROLE_NORMAL : ROLE_DIM;
}

static int source_mode_key(tui_app *a, int key)
{
    source_state *v = srst(a);
    if (!v->pager.searching)
        return actions_dispatch(a, MODE_SOURCE, key);
    int r = pager_search_key(&v->pager, key, source_page(a));
    if (r == PAGER_NOT_FOUND)
        app_set_message(a, true, "'%s' is not in the source", v->pager.query.buf);
    return REACT_REDRAW;
}

/* The line below the text: the cursor line's numbers in words (what the gutter abbreviates). */
static void detail_draw(tui_app *a, int y)
{
    const source_state *v = srst(a);
    draw_fill(&a->crt, y, 0, a->cols, ROLE_NORMAL);
    int i = v->pager.cursor;
    if (i < 0 || i >= v->n || v->ref[i] < 0) {
        pager_status_draw(&a->crt, &v->pager, y, a->cols, source_page(a));
        return;
    }
    const source_row *x = &v->src.sl.rows[v->ref[i]];
    strbuf sb = {0};
    if (a->sc.whatif)
        strbuf_addf(&sb, " what-if: %s:", a->sc.whatif);
    if (x->line > 0)
        strbuf_addf(&sb, " line %d: ", x->line);
    else
        strbuf_addf(&sb, " no line info: ");
    if (x->naccess == 0)
        strbuf_addf(&sb, "%s",
                    x->nskipped      ? "the import skipped its access (see below)"
                    : x->names_array ? "names a shared array; no access imported"
                    : x->measured.known
                        ? "measured only (its instructions pass no callback: no recorded lanes to predict)"
                        : "no access");
    else {
        if (!v->src.sl.recording) /* a recording's entries are its warp-instructions */
            strbuf_addf(&sb, "%d access%s, ", x->naccess, x->naccess == 1 ? "" : "es");
        strbuf_addf(&sb, "%lld warp-instr.", (long long)x->instructions);
        if (x->idle)
            strbuf_addf(&sb, " (%lld idle)", (long long)x->idle);
        char wf[48], deg[48];
        pred_parts(x, false, wf, deg, sizeof deg); /* words: never the narrow "free" */
        strbuf_addf(&sb, ", %lld wavefronts (ideal %lld), %s%s", (long long)x->wavefronts, (long long)x->ideal,
                    x->worst > 0 ? "worst " : "", deg);
    }
    if (x->measured.known) { /* the launch: wavefronts/ideal, the excess, then the prediction x blocks */
        const source_measured *m = &x->measured;
        strbuf_addf(&sb, "; measured %llu/%llu, excess %llu; pred x blocks %llu", (unsigned long long)m->wavefronts,
                    (unsigned long long)m->ideal_wavefronts, (unsigned long long)(m->wavefronts - m->ideal_wavefronts),
                    (unsigned long long)m->predicted_launch);
        if (m->why)
            strbuf_addf(&sb, ": %s", m->why);
    }
    draw_text_cut(&a->crt, y, 0, a->cols, ROLE_DIM, 0, strbuf_str(&sb)); /* cut: said by its ellipsis */
    strbuf_free(&sb);
}

static void source_draw(tui_app *a)
{
    source_state *v = srst(a);
    const source_lines *sl = &v->src.sl;
    if (v->narrow != (a->cols < SOURCE_NARROW)) { /* a resize across the width: the gutter again */
        v->narrow = a->cols < SOURCE_NARROW;
        int scroll = v->pager.scroll;
        widths(v);
        source_rows(a);
        v->pager.scroll = scroll; /* the same lines in view */
    }
    int page = source_page(a);
    if (v->center) {
        v->pager.scroll = v->pager.cursor - page / 3;
        v->center = false;
    }
    pager_clamp(&v->pager, page);
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    const char *file = v->src.path ? v->src.path : sl->file ? sl->file : "(no line info)";
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    draw_fill(&a->crt, 0, 0, a->cols, ROLE_TITLE);
    const char *order = v->sorted ? "by cost (S: file order)" : "file order (S: by cost)";
    char line[1200], scope[600];
    /* the head lines: what does not fit ends in an ellipsis (draw_text_cut); the sort order,
     * which the key bar also says, gives way first */
    if (v->src.is_recording && a->sc.whatif) { /* a what-if: its name before anything else */
        snprintf(line, sizeof line, " SOURCE%s%s%swhat-if: %s (predicted on the remapped addresses)%s%s", sep, base,
                 sep, a->sc.whatif, sep, order);
        draw_text_cut(&a->crt, 0, 0, a->cols, ROLE_TITLE, 0, line);
        snprintf(line, sizeof line, " what-if: wavefronts/ideal, worst degree predicted with %s%s%s", a->sc.whatif,
                 sl->measured ? "; measured: the recording as it ran" : "", "; u returns to the recording as measured");
        draw_text_cut(&a->crt, 1, 0, a->cols, ROLE_WARN, 0, line);
    } else if (v->src.is_recording) { /* what a recording is, before anything else */
        snprintf(line, sizeof line, " SOURCE%s%s%sone block of one launch, for this input%s%s", sep, base, sep, sep,
                 order);
        if (draw_width(line) > a->cols)
            snprintf(line, sizeof line, " SOURCE%s%s%sone block of one launch, for this input", sep, base, sep);
        draw_text_cut(&a->crt, 0, 0, a->cols, ROLE_TITLE, 0, line);
        recording_scope(v->src.rec, scope, sizeof scope);
        snprintf(line, sizeof line, " predicted wavefronts/ideal, worst degree%s%s%s%s%s%s",
                 v->narrow ? " (free: no conflict)" : "", sl->measured ? sep : "",
                 sl->measured ? "measured wavefronts/ideal over the launch: = pred x blocks, " : "",
                 sl->measured ? crt_glyph(&a->crt, "≠ not, ? unknown", "! not, ? unknown") : "", sep, scope);
        int room = a->cols - (v->src.rec->truncated ? 12 : 0);
        draw_text_cut(&a->crt, 1, 0, room, ROLE_DIM, 0, line);
        if (v->src.rec->truncated)
            draw_text(&a->crt, 1, a->cols - 12, 12, ROLE_WARN, " truncated ");
    } else {
        const char *where = v->src.path ? file : "its lines as the scenario carries them";
        snprintf(line, sizeof line, " SOURCE%s%s%s%s%s%s", sep, base, sep, order, sep, where);
        if (draw_width(line) > a->cols)
            snprintf(line, sizeof line, " SOURCE%s%s%s%s", sep, base, sep, where);
        draw_text_cut(&a->crt, 0, 0, a->cols, ROLE_TITLE, 0, line);
        snprintf(line, sizeof line, " line, wavefronts/ideal, worst degree%s (every warp-instruction, %s model)%s%s",
                 v->narrow ? ", free: no conflict" : "", a->sc.arch->name, sep, "Enter: grid");
        if (draw_width(line) > a->cols) /* the key bar says Enter too */
            line[strlen(line) - strlen("Enter: grid") - strlen(sep)] = '\0';
        draw_text_cut(&a->crt, 1, 0, a->cols, ROLE_DIM, 0, line);
    }
    layout_rect text = {2, 0, page, a->cols};
    pager_draw(&a->crt, &v->pager, &text, source_style, a);
    if (v->pager.searching)
        pager_status_draw(&a->crt, &v->pager, a->rows - 2, a->cols, page);
    else
        detail_draw(a, a->rows - 2);
    app_bar_draw(a);
}

static void source_enter_mode(tui_app *a)
{
    source_state *v = srst(a);
    v->mask = crt_mouse_wheel(&a->crt); /* the wheel too, while the view is open */
}

static void source_leave(tui_app *a)
{
    crt_mouse_restore(&a->crt, srst(a)->mask);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action source_actions[] = {
    /* the source view */
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j'},
     .nshow = 2,
     .label = "line",
     .help = "choose a line",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {KEY_PPAGE, KEY_NPAGE, 'b', ' '},
     .nshow = 2,
     .help = "a page (b / Space too)",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {KEY_HOME, KEY_END, 'g', 'G'},
     .nshow = 2,
     .label = "ends",
     .help = "the first / last line (g / G too)",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {KEY_LEFT, KEY_RIGHT, 'h', 'l'},
     .nshow = 2,
     .help = "scroll sideways (long lines)",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {'\r', '\n', KEY_ENTER},
     .nshow = 1,
     .label = "grid",
     .help = "the grid view of the line's first access (a recording: its costliest instruction)",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {'S'},
     .nshow = 1,
     .label = "sort",
     .help = "lines by cost (wavefronts beyond ideal) / in file order",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {'/'},
     .nshow = 1,
     .label = "search",
     .help = "search the text (Enter finds, Esc cancels)",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {'n', 'N'},
     .nshow = 2,
     .label = "match",
     .help = "next / previous match of the search",
     .handler = source_key,
     .modes = MODE_BIT(MODE_SOURCE)},
    {.keys = {KEY_MOUSE},
     .nshow = 1,
     .help = "mouse: the wheel scrolls, a click chooses a line",
     .handler = source_mouse,
     .modes = MODE_BIT(MODE_SOURCE)},
};

const tui_mode mode_source = {
    .id = MODE_SOURCE,
    .name = "source view",
    .enter = source_enter_mode,
    .key = source_mode_key,
    .draw = source_draw,
    .leave = source_leave,
    .state_size = sizeof(source_state),
    .release = source_release,
    .actions = source_actions,
    .nactions = (int)(sizeof source_actions / sizeof source_actions[0]),
};
