/* file_save: saving from the TUI. The bytes about to be written are first read back by the same
 * loader that opens files (and must give the same scenario again), so the TUI never writes a file
 * it could not open; then they are written atomically. Messages name the target, never the
 * temporary file used on the way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/analysis.h"
#include "io/load.h"
#include "model/scenario_edit.h"
#include "io/save.h"
#include "tui/app.h"

/* The reason at the end of an error text ("...: No such file or directory"). */
static const char *reason_of(const char *err)
{
    const char *r = strrchr(err, ':');
    return r && r[1] == ' ' ? r + 2 : err;
}

/* The name and description to save: the file's own while the scenario is as opened (or last
 * saved); after edits they described the scenario before them, so the name says "(edited)" and
 * the description is marked as the one of the state before the edits (kept, never lost). */
static void edited_texts(const tui_app *a, char **name, char **desc)
{
    const scenario *s = &a->sc;
    *name = s->name ? xstrdup(s->name) : NULL;
    *desc = s->description ? xstrdup(s->description) : NULL;
    if (!a->saved.arch || scenario_same_file(s, &a->saved))
        return;
    static const char mark[] = " (edited)", before[] = "Before the edits saved here: ";
    size_t ln = s->name ? strlen(s->name) : 0;
    if (s->name && !(ln >= sizeof mark - 1 && strcmp(s->name + ln - (sizeof mark - 1), mark) == 0)) {
        strbuf sb = {0};
        strbuf_addf(&sb, "%s%s", s->name, mark);
        free(*name);
        *name = strbuf_take(&sb);
    }
    if (s->description && strncmp(s->description, before, sizeof before - 1) != 0) {
        strbuf sb = {0};
        strbuf_addf(&sb, "%s%s", before, s->description);
        free(*desc);
        *desc = strbuf_take(&sb);
    }
}

bool tui_save(tui_app *a, const char *path, bool svg, char *msg, size_t n)
{
    strbuf sb = {0};
    char *name = NULL, *desc = NULL;
    if (svg) {
        int64_t k = app_instr_seq(a);
        scenario one;
        if (k < 0 && scenario_clone(&a->sc, &one)) { /* a warp the file's "warps" leaves out: draw that one */
            one.warps[0] = a->warp;
            one.nwarps = 1;
            scenario_error se;
            if (scenario_finish(&one, &se))
                analysis_svg(&one, (int64_t)a->iteration * one.naccesses + a->access, &sb);
            scenario_free(&one);
        } else
            analysis_svg(&a->sc, k < 0 ? 0 : k, &sb);
        if (sb.len == 0) {
            snprintf(msg, n, "not saved: warp %d could not be drawn", a->warp);
            return false;
        }
    } else {
        edited_texts(a, &name, &desc);
        scenario shown = a->sc; /* a shallow copy that only lends the texts to the writer */
        shown.name = name;
        shown.description = desc;
        save_scenario_json(&shown, &sb);
        scenario back;
        io_error e;
        if (!load_scenario_text(strbuf_str(&sb), sb.len, path, NULL, &back, &e)) {
            snprintf(msg, n, "not saved: the file would not load again (%.200s)", e.text);
            strbuf_free(&sb);
            free(name);
            free(desc);
            return false;
        }
        strbuf again = {0};
        save_scenario_json(&back, &again);
        bool same = strcmp(strbuf_str(&again), strbuf_str(&sb)) == 0;
        strbuf_free(&again);
        scenario_free(&back);
        if (!same) {
            snprintf(msg, n, "not saved: the file would load as a different scenario");
            strbuf_free(&sb);
            free(name);
            free(desc);
            return false;
        }
    }
    char err[400];
    bool ok = save_atomic(path, sb.data, sb.len, err, sizeof err);
    if (ok && !svg) { /* the scenario on show is now the file's: same texts, a new starting point */
        free(a->sc.name);
        free(a->sc.description);
        a->sc.name = name;
        a->sc.description = desc;
        name = desc = NULL;
        scenario_free(&a->saved);
        scenario_clone(&a->sc, &a->saved); /* as the file now holds it (the trace's table shared) */
    }
    strbuf_free(&sb);
    free(name);
    free(desc);
    if (ok)
        snprintf(msg, n, "saved %.200s", path);
    else
        snprintf(msg, n, "not saved to %.150s: %.150s", path, reason_of(err));
    return ok;
}

bool tui_save_default_name(tui_app *a, bool svg, char *buf, size_t n)
{
    strbuf base = {0};
    strbuf_addf(&base, "%s", a->source ? a->source : "scenario");
    char *b = base.data;
    char *dot = strstr(b, ".json");
    int len;
    if (svg) {
        if (dot)
            *dot = '\0';
        char *slash = strrchr(b, '/');
        len = snprintf(buf, n, "%s-a%d-w%d.svg", slash ? slash + 1 : b, a->access, a->warp);
    } else {
        len = snprintf(buf, n, "%s%s", b, dot ? "" : ".json");
    }
    strbuf_free(&base);
    if (len < 0 || (size_t)len >= n) { /* never a shorter name, which would be another file */
        buf[0] = '\0';
        return false;
    }
    return true;
}

/* Unsaved edits when a signal ends the view (SIGTERM, SIGHUP: a closed SSH session): kept in a
 * new $TMPDIR/bankscope-unsaved-XXXXXX.json, whose name goes to path. The file is written even
 * when the loader would refuse it (an expression that divides by zero): it is a copy of the work,
 * not a checked save. */
bool tui_keep_unsaved(tui_app *a, char *path, size_t n)
{
    const char *dir = getenv("TMPDIR");
    snprintf(path, n, "%s/bankscope-unsaved-XXXXXX.json", dir && *dir ? dir : "/tmp");
    int fd = mkstemps(path, 5);
    if (fd < 0)
        return false;
    close(fd);
    char msg[400];
    if (tui_save(a, path, false, msg, sizeof msg))
        return true;
    strbuf sb = {0};
    save_scenario_json(&a->sc, &sb);
    char err[400];
    bool ok = save_atomic(path, sb.data, sb.len, err, sizeof err);
    strbuf_free(&sb);
    if (!ok)
        unlink(path);
    return ok;
}
