/* loop: the TUI's entry: open the scenario, start the terminal and the GPU worker, then read
 * keys, hand them to the top mode and act on the reaction flags once per key; background jobs and
 * GPU results are polled between keys. Also the headless snapshot (the state's numbers as JSON,
 * after keys, for scripts and tests) and the offscreen redraw benchmark. */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/jsonw.h"
#include "tui/app.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;
}

/* Handle one key with its reactions; false when the program should end. */
static bool key_and_react(tui_app *a, int key)
{
    if (key != KEY_MOUSE)
        a->message[0] = '\0';
    int flags = app_key(a, key);
    if (flags & REACT_QUIT)
        return false;
    app_react(a, flags);
    return true;
}

/* Next key of a snapshot's key string; "\e" is Esc, "\n" Enter, "\t" Tab, "\b" Backspace; 0 at the end. */
static int next_key(const char **p)
{
    if (!**p)
        return 0;
    int c = (unsigned char)*(*p)++;
    if (c == '\\' && **p) {
        int e = (unsigned char)*(*p)++;
        return e == 'e' ? 27 : e == 'n' ? '\r' : e == 't' ? 9 : e == 'b' ? 127 : e;
    }
    return c;
}

/* Print the numbers the screen shows for the current state as JSON (the headline instruction
 * and the totals), after applying keys; every job is waited for. */
/* The lanes left out of an instruction or of the totals, as the snapshot's "excluded_lanes". */
static void snapshot_excluded(jsonw *w, const scenario_excluded *x)
{
    JSONW_KEY(w, "excluded_lanes");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "misaligned", x->misaligned);
    JSONW_KV_INT(w, "out_of_bounds", x->out_of_bounds);
    JSONW_KV_INT(w, "expression_error", x->expression_error);
    jsonw_end_object(w);
}

static int snapshot(tui_app *a, const char *keys)
{
    const char *p = keys ? keys : "";
    int key;
    app_refresh_view(a); /* as the view starts: keys that read the instruction on show (step) see it */
    while ((key = next_key(&p)) != 0) {
        if (!key_and_react(a, key))
            break;
        jobs_wait_all(a);
    }
    jobs_start_totals(a);
    jobs_wait_all(a);
    app_refresh_view(a);
    const char *refused = jobs_refused(a, JOB_TOTALS);
    const tui_view *v = &a->view;
    const tui_totals *t = &a->totals;
    strbuf sb = {0};
    char head[200], decl[200];
    headline_text(&a->sc, v, head, sizeof head);
    view_declaration(&a->sc, a->access, decl, sizeof decl);
    jsonw *w = xmalloc(sizeof *w);
    jsonw_init_string(w, &sb);
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_STRING(w, "source", a->source);
    JSONW_KV_STRING(w, "arch", a->sc.arch->name);
    JSONW_KV_STRING(w, "mode", app_top(a)->name);
    JSONW_KV_BOOL(w, "modified", a->modified);
    JSONW_KV_STRING(w, "declaration", decl);
    JSONW_KV_STRING(w, "whatif", a->sc.whatif); /* NULL: null */
    int64_t seq = app_instr_seq(a);             /* null: a warp outside the scenario's "warps" */
    jsonw_break(w, 1);
    JSONW_KEY(w, "selection");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "access", a->access);
    JSONW_KV_INT(w, "warp", a->warp);
    JSONW_KV_INT(w, "iteration", a->iteration);
    if (seq < 0)
        JSONW_KV_NULL(w, "seq");
    else
        JSONW_KV_INT(w, "seq", seq);
    jsonw_end_object(w);
    jsonw_break(w, 1);
    JSONW_KV_STRING(w, "headline", head);
    const scenario_access *ac = scenario_access_of(&a->sc, a->access);
    if (ac && ac->label) {
        JSONW_KV_STRING(w, "label", ac->label);
        JSONW_KEY(w, "index");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int d = 0; d < ac->nidx; d++)
            jsonw_string(w, ac->index_text[d]);
        jsonw_end_array(w);
    }
    jsonw_break(w, 1);
    JSONW_KEY(w, "instruction");
    jsonw_begin_object(w, JSONW_INLINE);
    static const char *const counts[] = {"wavefronts", "ideal_wavefronts", "bank_conflicts", "conflict_degree"};
    const int values[] = {v->res.wavefronts, v->res.ideal_wavefronts, v->res.bank_conflicts, v->res.conflict_degree};
    for (int k = 0; k < 4; k++) /* a kind the model does not cover: no numbers, as analyze --json says */
        if (v->res.not_modelled)
            jsonw_kv_null(w, counts[k]);
        else
            jsonw_kv_int(w, counts[k], values[k]);
    JSONW_KV_INT(w, "active_lanes", v->res.active_lanes);
    snapshot_excluded(w, &v->excl);
    jsonw_end_object(w);
    /* the totals as the result panel shows them ("56 instr. (+8 idle)") and analyze --json names
     * them: every instruction, those some lane issues, and the idle ones no lane issues */
    jsonw_break(w, 1);
    JSONW_KEY(w, "totals");
    if (refused) { /* over the work limit (--force computes them): null, and why */
        jsonw_null(w);
        JSONW_KV_STRING(w, "totals_refused", refused);
    } else {
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "instructions", t->instructions);
        JSONW_KV_INT(w, "issued_instructions", t->instructions - t->idle);
        JSONW_KV_INT(w, "idle_instructions", t->idle);
        JSONW_KV_INT(w, "wavefronts", t->wavefronts);
        JSONW_KV_INT(w, "ideal_wavefronts", t->ideal);
        JSONW_KV_INT(w, "bank_conflicts", t->conflicts);
        JSONW_KV_INT(w, "worst_conflict_degree", t->worst);
        snapshot_excluded(w, &t->excl);
        jsonw_end_object(w);
    }
    jsonw_break(w, 1);
    JSONW_KV_STRING(w, "message", a->message);
    jsonw_end_object(w);
    jsonw_finish(w, NULL);
    free(w);
    errno = 0;
    bool ok = fwrite(sb.data, 1, sb.len, stdout) == sb.len && fflush(stdout) == 0;
    strbuf_free(&sb);
    if (!ok)
        fprintf(stderr, "bankscope: --snapshot: cannot write the output: %s\n",
                errno ? strerror(errno) : "a write failed (disk full or output closed)");
    return ok ? TUI_OK : TUI_FAIL;
}

/* Time n redraws of the whole screen after alternating padding edits, offscreen at 160x48. */
static int bench_redraw(tui_app *a, int n)
{
    /* newterm needs an output and an input stream; both are /dev/null here on purpose */
    // cppcheck-suppress incompatibleFileOpen
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = out && in ? newterm("xterm-256color", out, in) : NULL;
    if (!scr) {
        fprintf(stderr, "bankscope: --bench-redraw: cannot open a terminal (TERM xterm-256color)\n");
        if (out)
            fclose(out);
        if (in)
            fclose(in);
        return TUI_FAIL;
    }
    resizeterm(48, 160);
    a->crt = (tui_crt){.color = true, .utf8 = true};
    start_color();
    app_refresh_view(a);
    app_draw(a);
    clock_t t0 = clock();
    for (int i = 0; i < n; i++) {
        key_and_react(a, i % 2 ? '-' : '+');
        app_draw(a);
    }
    double ms = (double)(clock() - t0) * 1000.0 / CLOCKS_PER_SEC / n;
    jobs_wait_all(a);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    printf("redraw at 160x48: %.3f ms CPU per keypress (edit + analysis of the shown instruction + full draw; "
           "totals over %lld warp-instruction%s in the background), %d frames\n",
           ms, (long long)a->totals.instructions, a->totals.instructions == 1 ? "" : "s", n);
    return TUI_OK;
}

/* Ctrl-C with unsaved edits asks, as q does, instead of throwing them away; a second Ctrl-C
 * (the question on screen) quits. True when it asked. SIGTERM and SIGHUP end at once. */
static bool interrupt_asks(tui_app *a)
{
    if (got_signal != SIGINT || !a->modified)
        return false;
    if (prompt_asks_quit(a))
        return false;
    got_signal = 0;
    if (app_top(a) == &mode_prompt) /* a file name being typed: that prompt gives way */
        app_pop(a);
    prompt_open(a, PROMPT_QUIT, NULL, 0);
    app_draw(a);
    return true;
}

/* The interactive loop: keys to the top mode, reactions, then jobs and GPU results. */
static void run_loop(tui_app *a)
{
    while (!a->quit && (!got_signal || interrupt_asks(a))) {
        bool gpu_wait = a->worker && (gpu_worker_busy(a->worker) || a->submitted != a->gen);
        step_state *st = app_mode_state(a, MODE_STEP);
        bool busy = (st && st->playing) || gpu_wait || jobs_busy(a) || sweep_measure_busy(a);
        timeout(busy ? 50 : -1);
        int key = getch();
        bool redraw = key != ERR;
        if (key != ERR && !key_and_react(a, key))
            break;
        st = app_mode_state(a, MODE_STEP); /* the key may have closed the step mode */
        if (st && st->playing && app_now_ms() - st->last_ms >= 400) {
            st->last_ms = app_now_ms();
            int before = st->shown; /* Space goes on while a grid (compare: either) has more */
            if (!key_and_react(a, ' '))
                break;
            st = app_mode_state(a, MODE_STEP);
            if (st && st->shown == before)
                st->playing = false;
            redraw = true;
        }
        redraw |= jobs_poll(a);
        redraw |= app_gpu_tick(a);
        if (busy && key == ERR)
            redraw = true; /* progress and spinners move */
        if (redraw)
            app_draw(a);
    }
}

int tui_main(const tui_options *o)
{
    double t_start = app_now_ms();
    tui_app *a = xmalloc(sizeof *a);
    memset(a, 0, sizeof *a);
    a->stack[a->depth++] = &mode_main;
    char err[700];
    if (o->display && o->file) { /* an import: its .cu's name, not the temporary file's */
        a->shown_file = o->file;
        a->shown_name = o->display;
    }
    if (!app_open(a, o->file ? o->file : "default", err, sizeof err)) {
        fprintf(stderr, "bankscope: %s\n", err);
        app_free(a);
        free(a);
        return TUI_USAGE;
    }
    if (o->compare && compare_open_file(a, o->compare, err, sizeof err) != 0) {
        fprintf(stderr, "bankscope: %s\n", err);
        app_free(a);
        free(a);
        return TUI_USAGE;
    }
    snprintf(a->gpu_status, sizeof a->gpu_status, "no GPU: predicted only\nmeasurement off (--no-gpu)");
    a->jobs_force = o->force;
    if (o->present)
        app_push(a, &mode_present);
    a->srcopt.hint = o->source_file;
    a->srcopt.dir = o->source_dir;
    a->srcopt.skips = o->skips;
    a->srcopt.nskips = o->nskips;
    int rc = TUI_OK;
    if (o->snapshot) {
        rc = snapshot(a, o->keys);
    } else if (o->bench_redraw > 0) {
        jobs_start_totals(a);
        rc = bench_redraw(a, o->bench_redraw);
    } else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "bankscope: the interactive view needs a terminal (try 'bankscope analyze FILE')\n");
        rc = TUI_USAGE;
    } else {
        if (o->gpu) {
            a->worker = gpu_worker_start();
            app_react(a, REACT_MEASURE);
            app_gpu_tick(a);
        }
        struct sigaction sa = {.sa_handler = on_signal};
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        crt_init(&a->crt, o->color, o->mouse);
        if (o->present)
            a->crt.contrast = true;
        jobs_start_totals(a);
        app_refresh_view(a);
        if (!o->present && !o->compare)
            source_open_first(a);
        app_draw(a);
        if (o->bench_startup) { /* the first frame is on screen: report how long it took and leave */
            double ms = app_now_ms() - t_start;
            crt_done();
            printf("first frame %.2f ms after the TUI started (GPU opening and totals in the background)\n", ms);
        } else {
            run_loop(a);
            crt_done();
            char kept[4096];
            if (got_signal && a->modified) { /* a signal ended the view: the edits are not lost */
                if (tui_keep_unsaved(a, kept, sizeof kept))
                    fprintf(stderr, "bankscope: unsaved edits kept in %s\n", kept);
                else
                    fprintf(stderr, "bankscope: unsaved edits lost: no file could be written in $TMPDIR\n");
            }
        }
        gpu_worker_stop(a->worker);
        rc = got_signal ? 128 + got_signal : TUI_OK;
    }
    app_free(a);
    free(a);
    return rc;
}
