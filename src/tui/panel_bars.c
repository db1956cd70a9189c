/* panel_bars: the title line (what is shown: source or lesson, arch, declaration, block, warp,
 * iteration, the modified mark, the mode) and the bottom line: a message, or the key bar of the
 * top mode generated from the action table. */
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

/* Title text of the current mode, "" for the main view. */
static const char *mode_title(const tui_app *a)
{
    switch (app_top(a)->id) {
    case MODE_COMPARE: return a->cmp.ok ? "COMPARE" : "";
    case MODE_STEP: return "STEP";
    case MODE_QUIZ: return "QUIZ";
    case MODE_PRESENT: return "PRESENT";
    default: break;
    }
    if (app_in_mode(a, MODE_COMPARE) && a->cmp.ok) /* never the title without the comparison */
        return "COMPARE";
    return "";
}

void panel_title_draw(tui_app *a)
{
    const layout_rect *r = &a->frame.lay.title;
    const scenario *s = &a->sc;
    draw_fill(a, r->y, r->x, r->w, ROLE_TITLE);
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    char decl[200] = "", iter[96] = "", where[300], block[48];
    app_declaration(s, a->access, decl, sizeof decl);
    if (s->nloops == 1)
        snprintf(iter, sizeof iter, "%s%s=%lld (%d/%d)", sep, s->loops[0].var, (long long)s->loop_values[a->iteration],
                 a->iteration, s->iterations - 1);
    else if (s->nloops > 1) { /* a nest: the values of every loop */
        strbuf it = {0};
        scenario_iteration_text(s, -1, a->iteration, &it);
        snprintf(iter, sizeof iter, "%s%s (%d/%d)", sep, strbuf_str(&it), a->iteration, s->iterations - 1);
        strbuf_free(&it);
    }
    if (app_in_mode(a, MODE_LESSON) && a->lesson.les.nsteps > 0)
        snprintf(where, sizeof where, "lesson %d/%d: %s", a->lesson.step + 1, a->lesson.les.nsteps,
                 a->lesson.les.title);
    else
        snprintf(where, sizeof where, "%s", a->source);
    if (a->modified)
        snprintf(where + strlen(where), sizeof where - strlen(where), " (modified)");
    const char *mode = mode_title(a); /* a mode takes the program's place, first on the line */
    char head[32];
    snprintf(head, sizeof head, " %s", *mode ? mode : "bankscope");
    if (s->is_trace) {
        draw_text(a, r->y, r->x, r->w, ROLE_TITLE, "%s%s%s%s%s%strace[%d/%d]", head, sep, where, sep, s->arch->name,
                  sep, a->access, s->ntrace - 1);
        return;
    }
    if (s->block[2] > 1)
        snprintf(block, sizeof block, "%dx%dx%d", s->block[0], s->block[1], s->block[2]);
    else
        snprintf(block, sizeof block, "%dx%d", s->block[0], s->block[1]);
    char line[700];
    snprintf(line, sizeof line, "%s%s%s%s%s%s%s%sblock %s%swarp %d/%d%s", head, sep, where, sep, s->arch->name, sep,
             decl, sep, block, sep, a->warp, scenario_warp_count(s) - 1, iter);
    /* too wide: the program's name goes first, what is shown stays */
    const char *show = draw_width(line) > r->w && !*mode ? line + strlen(head) + strlen(sep) - 1 : line;
    draw_text(a, r->y, r->x, r->w, ROLE_TITLE, "%s", show);
}

void panel_bar_draw(tui_app *a)
{
    const layout_rect *r = &a->frame.lay.bar;
    draw_fill(a, r->y, r->x, r->w, ROLE_NORMAL);
    if (a->message[0]) { /* a message longer than the line says that it was cut */
        tui_role role = a->message_error ? ROLE_ERROR : ROLE_OK;
        bool cut = draw_width(a->message) + 1 > r->w;
        int w = draw_text(a, r->y, r->x, r->w - (cut ? 1 : 0), role, " %s", a->message);
        if (cut)
            draw_text(a, r->y, r->x + w, 1, role, "%s", crt_glyph(&a->crt, "…", "~"));
        return;
    }
    panel_keybar_draw(a, app_top(a)->id);
}
