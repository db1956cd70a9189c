/* panel_bars: the title line (what is shown: source or lesson, arch, declaration, block, warp,
 * iteration, the modified mark, the view, the verdict of the instruction on show) and the bottom
 * line: a message, or the key hints of the view context. Drawn from the view context only. */
#include <stdio.h>
#include <string.h>

#include "tui/view.h"

/* One part of the title line: its text, and how readily it gives way when the line is too long
 * (lower first); the name may be shortened, numbers never are. */
typedef struct title_part {
    char text[320];
    const char *suffix; /* kept whole after a shortened text (" (modified)") */
    int prio;
    bool shrink;
    bool gone;
} title_part;

/* Shorten text to at most w cells with an ellipsis (on character boundaries). */
static void shorten(const tui_crt *c, char *text, int w)
{
    const char *dots = crt_glyph(c, "…", "~");
    size_t n = strlen(text);
    while (n > 0 && draw_width(text) + 1 > w) {
        do /* back to the start of the last character */
            n--;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80);
        text[n] = '\0';
    }
    snprintf(text + n, 320 - n, "%s", dots);
}

void panel_title_draw(const tui_vctx *v)
{
    const layout_rect *r = &v->frame->lay.title;
    const scenario *s = v->sc;
    draw_fill(v->crt, r->y, r->x, r->w, ROLE_TITLE);
    const char *sep = crt_glyph(v->crt, " │ ", " | ");
    const char *mode = v->mode_title; /* a mode takes the program's place, first on the line */
    title_part p[9];
    int n = 0;
    memset(p, 0, sizeof p);
    snprintf(p[n].text, sizeof p[n].text, "%s", *mode ? mode : "bankscope");
    p[n++].prio = *mode ? 9 : 0;
    if (v->opts & VIEW_LESSON) { /* the step number is a mode of its own: never cut */
        snprintf(p[0].text, sizeof p[0].text, "%s%slesson %d/%d", mode, *mode ? " " : "", v->lesson_step + 1,
                 v->lesson_nsteps);
        p[0].prio = 9;
        snprintf(p[n].text, sizeof p[n].text, "%s", v->lesson_title);
    } else
        snprintf(p[n].text, sizeof p[n].text, "%s", v->source);
    p[n].suffix = s->whatif ? " (what-if)" : v->modified ? " (modified)" : "";
    p[n].prio = 1;
    p[n++].shrink = true;
    snprintf(p[n].text, sizeof p[n].text, "%s", s->arch->name); /* also in the result panel */
    p[n++].prio = 2;
    if (!scenario_has_layout(s)) {
        snprintf(p[n].text, sizeof p[n].text, "trace[%d/%d]", v->access, s->ntrace - 1);
        p[n++].prio = 9;
    } else {
        view_declaration(s, v->access, p[n].text, sizeof p[n].text);
        p[n].shrink = true;
        p[n++].prio = 4;
        if (s->block[2] > 1)
            snprintf(p[n].text, sizeof p[n].text, "block %dx%dx%d", s->block[0], s->block[1], s->block[2]);
        else
            snprintf(p[n].text, sizeof p[n].text, "block %dx%d", s->block[0], s->block[1]);
        p[n++].prio = 9;
        snprintf(p[n].text, sizeof p[n].text, "warp %d/%d", v->warp, scenario_warp_count(s) - 1);
        p[n++].prio = 9;
        if (s->nloops == 1) {
            snprintf(p[n].text, sizeof p[n].text, "%s=%lld (%d/%d)", s->loops[0].var,
                     (long long)s->loop_values[v->iteration], v->iteration, s->iterations - 1);
            p[n++].prio = 7;
        } else if (s->nloops > 1) { /* a nest: the values of every loop */
            strbuf it = {0};
            scenario_iteration_text(s, -1, v->iteration, &it);
            snprintf(p[n].text, sizeof p[n].text, "%s (%d/%d)", strbuf_str(&it), v->iteration, s->iterations - 1);
            strbuf_free(&it);
            p[n++].prio = 7;
        }
    }
    /* the verdict of the instruction on show (both, side by side); a quiz hides it */
    if (v->quiz_hidden) {
        snprintf(p[n].text, sizeof p[n].text, "degree: predict first");
    } else {
        char a[64], b[64] = "";
        headline_short(v->view, a, sizeof a);
        if (v->other)
            headline_short(v->other, b, sizeof b);
        snprintf(p[n].text, sizeof p[n].text, "%s%s%s", a, *b ? " vs " : "", b);
    }
    p[n++].prio = 9;
    /* too wide: the program's name goes first, then the file's name is shortened to 10 cells,
     * then the architecture (the result panel says it) gives way, then the name is shortened
     * down to one character and the ellipsis (the declaration says what `+` and `t` change: it
     * stays longer), then the declaration is shortened and gives way, then the iteration. Each
     * time a part goes, the name starts again whole, so it is only as short as it must be. The
     * mode, the block, the warp and the verdict are never cut. */
    int seps = draw_width(sep);
    char name[sizeof p[1].text];
    memcpy(name, p[1].text, sizeof name);
    for (;;) {
        int total = 1, shown = 0;
        for (int i = 0; i < n; i++)
            if (!p[i].gone) {
                total += draw_width(p[i].text) + (p[i].suffix ? (int)strlen(p[i].suffix) : 0) + (shown++ ? seps : 0);
            }
        if (total <= r->w)
            break;
        int drop = -1;
        for (int i = 0; i < n; i++)
            if (!p[i].gone && (drop < 0 || p[i].prio < p[drop].prio))
                drop = i;
        if (drop < 0 || p[drop].prio >= 9)
            break; /* only the parts that are never cut are left: the screen cuts them, not us */
        int w = draw_width(p[drop].text), over = total - r->w;
        /* the name's stages: to 10 cells, then (after the architecture) to one character and
         * the ellipsis; a name already that short stays. The declaration loses what follows its
         * dimensions (" swizzle 32B") before it gives way whole. */
        /* a lesson's title may go down to one character at once: its step number stays whole
         * beside it, and lessons keep the architecture */
        int least = p[drop].prio == 1 && !(v->opts & VIEW_LESSON) ? 10 : 2;
        if (drop != 1) {
            char decl[sizeof p[0].text];
            memcpy(decl, p[drop].text, sizeof decl);
            char *end = strrchr(decl, ']');
            if (end)
                end[1] = '\0';
            least = draw_width(decl) + 1; /* the dimensions and the ellipsis */
        }
        if (p[drop].shrink && w > least && w - over >= least) {
            shorten(v->crt, p[drop].text, w - over);
            continue;
        }
        if (p[drop].shrink && drop == 1) { /* as short as this stage goes */
            if (w > least)
                shorten(v->crt, p[drop].text, least);
            p[drop].prio = p[drop].prio == 1 ? 3 : 9;
            p[drop].shrink = p[drop].prio < 9;
            continue;
        }
        p[drop].gone = true;
        memcpy(p[1].text, name, sizeof name); /* the name again whole, for the room now free */
        p[1].prio = 1;
        p[1].shrink = true;
    }
    char line[sizeof p / sizeof p[0] * (sizeof p[0].text + 16)] = " ";
    for (int i = 0, shown = 0; i < n; i++)
        if (!p[i].gone) {
            size_t k = strlen(line);
            snprintf(line + k, sizeof line - k, "%s%s%s", shown++ ? sep : "", p[i].text,
                     p[i].suffix ? p[i].suffix : "");
        }
    draw_text_cut(v->crt, r->y, r->x, r->w, ROLE_TITLE, 0, line); /* even those parts: never cut silently */
}

/* The key hints that fit: the essential ones (help, quit, close) at the right end, the others
 * from the left in the table's order, skipping one that does not fit for a shorter one after. */
static void keybar_draw(const tui_vctx *v, const layout_rect *r)
{
    int end = r->x + r->w;
    for (int i = v->nhints - 1; i >= 0; i--) {
        const tui_keyhint *h = &v->hints[i];
        if (!h->essential)
            continue;
        int need = draw_width(h->keys) + (int)strlen(h->label) + 2;
        if (end - need < r->x + 1)
            break;
        end -= need;
        int x = end + draw_text(v->crt, r->y, end, need, ROLE_KEY, "%s", h->keys);
        draw_text(v->crt, r->y, x, need, ROLE_NORMAL, " %s ", h->label);
    }
    /* the keys this scenario adds (warp, iteration, access, field) get their room first; then the
     * others in the table's order; all drawn in the table's order */
    bool take[VIEW_MAX_HINTS] = {false};
    int room = end - (r->x + 1);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < v->nhints; i++) {
            const tui_keyhint *h = &v->hints[i];
            if (h->essential || h->situational != (pass == 0))
                continue;
            int need = draw_width(h->keys) + (int)strlen(h->label) + 2;
            if (need <= room) { /* else a shorter one further on may still fit */
                take[i] = true;
                room -= need;
            }
        }
    int x = r->x + 1;
    for (int i = 0; i < v->nhints; i++) {
        const tui_keyhint *h = &v->hints[i];
        if (!take[i])
            continue;
        x += draw_text(v->crt, r->y, x, r->w, ROLE_KEY, "%s", h->keys);
        x += draw_text(v->crt, r->y, x, r->w, ROLE_NORMAL, " %s ", h->label);
    }
}

void panel_bar_draw(const tui_vctx *v)
{
    const layout_rect *r = &v->frame->lay.bar;
    draw_fill(v->crt, r->y, r->x, r->w, ROLE_NORMAL);
    if (v->message[0]) { /* a message longer than the line says that it was cut */
        tui_role role = v->message_error ? ROLE_ERROR : ROLE_OK;
        bool cut = draw_width(v->message) + 1 > r->w;
        int w = draw_text(v->crt, r->y, r->x, r->w - (cut ? 1 : 0), role, " %s", v->message);
        if (cut)
            draw_text(v->crt, r->y, r->x + w, 1, role, "%s", crt_glyph(v->crt, "…", "~"));
        return;
    }
    keybar_draw(v, r);
}
