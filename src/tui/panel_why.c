/* panel_why: the "why" panel, always on screen: the lesson step's text (in a lesson), the
 * pattern's description, then the explanation of the shown access and the selected lane
 * (src/model/explain: the numbers the grid shows, never re-derived here); after edits the file's
 * description comes last, marked as describing the file as loaded. Text is wrapped, never cut: when it does not
 * fit, the last line says so and y shows all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/explain.h"
#include "tui/view.h"

/* Append the lines of e to the paragraph list (grown as needed), prefixed with prefix. */
static void add_lines(char ***p, int *n, int *cap, explain_lines *e, const char *prefix)
{
    for (int i = 0; i < e->n; i++) {
        if (*n == *cap)
            *p = xrealloc(*p, sizeof **p * (size_t)(*cap *= 2));
        strbuf sb = {0};
        strbuf_addf(&sb, "%s%s", prefix, e->line[i]);
        (*p)[(*n)++] = strbuf_take(&sb);
    }
    explain_lines_free(e);
}

#define WHY_NAME_MAX 400 /* bytes of a recording's description the panel shows */

/* A copy of text cut to at most max bytes on a character boundary, ending in an ellipsis when
 * cut (the whole text is in the file and in analyze --json). */
static char *why_shorten(const char *text, size_t max)
{
    size_t len = strlen(text);
    if (len <= max)
        return xstrdup(text);
    while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80)
        max--;
    strbuf sb = {0};
    strbuf_addf(&sb, "%.*s\xe2\x80\xa6", (int)max, text);
    return strbuf_take(&sb);
}

int why_paragraphs(const tui_vctx *ctx, char ***out)
{
    int n = 0, cap = 8;
    char **p = xmalloc(sizeof *p * (size_t)cap);
    if (ctx->opts & VIEW_LESSON)
        p[n++] = xstrdup(ctx->lesson_text);
    const scenario *s = ctx->sc;
    const tui_view *v = ctx->view;
    if (ctx->quiz_hidden) { /* the text would give the answer away */
        p[n++] = xstrdup("Predict first: the description and the explanation appear after your answer.");
        *out = p;
        return n;
    }
    if ((ctx->opts & VIEW_STEP) && ctx->step_shown > 0 && v->valid) { /* the wavefront just revealed */
        explain_lines e;
        explain_wavefront(s, &v->in, &v->res, ctx->step_shown - 1, &e);
        add_lines(&p, &n, &cap, &e, "");
    }
    const char *d = s->description ? s->description : s->name;
    if (d && !ctx->modified && !s->recording)
        p[n++] = xstrdup(d);
    /* the explanation of what is on screen now: the access, then the selected lane */
    if (v->valid) {
        explain_lines e;
        explain_access(s, &v->in, &v->res, &e);
        add_lines(&p, &n, &cap, &e, "");
        if (ctx->sel_lane >= 0) {
            explain_lane(s, &v->in, &v->res, ctx->sel_lane, &e);
            add_lines(&p, &n, &cap, &e, "");
        }
    }
    if (d && !ctx->modified && s->recording) { /* a recording's kernel name can run to kilobytes: after the
                                                  explanation, shortened */
        if (n == cap)
            p = xrealloc(p, sizeof *p * (size_t)(cap *= 2));
        p[n++] = why_shorten(d, WHY_NAME_MAX);
    }
    if (d && ctx->modified) { /* the file's text describes the file, not the edits since */
        if (n == cap)
            p = xrealloc(p, sizeof *p * (size_t)(cap *= 2));
        strbuf sb = {0};
        strbuf_addf(&sb, "As loaded, before your edits: %s", d);
        p[n++] = strbuf_take(&sb);
    }
    *out = p;
    return n;
}

void panel_why_draw(const tui_vctx *ctx, const layout_rect *r, bool framed)
{
    layout_rect in = framed ? panel_frame(ctx->crt, r, "why", false) : *r;
    if (in.h < 1 || in.w < 8)
        return;
    char **paras;
    int np = why_paragraphs(ctx, &paras);
    int y = in.y, end = in.y + in.h;
    bool cut = false;
    for (int i = 0; i < np && !cut; i++) {
        char **lines;
        int nl = draw_wrap(paras[i], in.w - 1, &lines);
        for (int k = 0; k < nl; k++) {
            if (y == end - 1 && (k + 1 < nl || i + 1 < np)) {
                cut = true; /* the rest is one key away, never silently dropped */
                int w = draw_text(ctx->crt, y, in.x, in.w - 11, ROLE_DIM, "%s", lines[k]);
                draw_text(ctx->crt, y, in.x + w, in.w - w, ROLE_KEY, " %s y: more", crt_glyph(ctx->crt, "…", "..."));
                break;
            }
            draw_text(ctx->crt, y++, in.x, in.w, i == 0 && (ctx->opts & VIEW_LESSON) ? ROLE_NORMAL : ROLE_DIM, "%s",
                      lines[k]);
        }
        draw_wrap_free(lines, nl);
    }
    for (int i = 0; i < np; i++)
        free(paras[i]);
    free(paras);
}
