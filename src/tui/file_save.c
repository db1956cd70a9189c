/* file_save: saving from the TUI. The bytes about to be written are first read back by the same
 * loader that opens files (and must give the same scenario again), so the TUI never writes a file
 * it could not open; then they are written atomically. Messages name the target, never the
 * temporary file used on the way. */
#include <stdio.h>
#include <string.h>

#include "io/load.h"
#include "io/save.h"
#include "io/svg.h"
#include "tui/app.h"

/* The reason at the end of an error text ("...: No such file or directory"). */
static const char *reason_of(const char *err)
{
    const char *r = strrchr(err, ':');
    return r && r[1] == ' ' ? r + 2 : err;
}

bool tui_save(tui_app *a, const char *path, bool svg, char *msg, size_t n)
{
    strbuf sb = {0};
    if (svg) {
        svg_render(&a->sc, app_instr_seq(a), &sb);
    } else {
        save_scenario_json(&a->sc, &sb);
        scenario back;
        io_error e;
        if (!load_scenario_text(strbuf_str(&sb), sb.len, path, NULL, &back, &e)) {
            snprintf(msg, n, "not saved: the file would not load again (%.200s)", e.text);
            strbuf_free(&sb);
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
            return false;
        }
    }
    char err[400];
    bool ok = save_atomic(path, sb.data, sb.len, err, sizeof err);
    strbuf_free(&sb);
    if (ok)
        snprintf(msg, n, "saved %.200s", path);
    else
        snprintf(msg, n, "not saved to %.150s: %.150s", path, reason_of(err));
    return ok;
}

void tui_save_default_name(tui_app *a, bool svg, char *buf, size_t n)
{
    char base[200];
    snprintf(base, sizeof base, "%s", a->source);
    char *dot = strstr(base, ".json");
    if (svg) {
        if (dot)
            *dot = '\0';
        char *slash = strrchr(base, '/');
        snprintf(buf, n, "%s-a%d-w%d.svg", slash ? slash + 1 : base, a->access, a->warp);
        return;
    }
    snprintf(buf, n, "%s%s", base, dot ? "" : ".json");
}
