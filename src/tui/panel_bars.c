/* panel_bars: the title line (what is shown: file, arch, declaration, block, warp, iteration)
 * and the bottom line: key hints, a message, or the expression editor with its error. */
#include <stdio.h>
#include <string.h>

#include "tui/draw.h"

void panel_title_draw(tui_app *a)
{
    const layout_rect *r = &a->lay.title;
    const scenario *s = &a->sc;
    draw_fill(a, r->y, r->x, r->w, ROLE_TITLE);
    char decl[160] = "";
    if (!s->is_trace) {
        const scenario_array *arr = &s->arrays[s->accesses[a->access].array];
        int n = snprintf(decl, sizeof decl, "%s %s", types_name(&s->types, &arr->type), arr->name);
        for (int d = 0; d < arr->ndims && n < (int)sizeof decl; d++)
            n += arr->pad[d] ? snprintf(decl + n, sizeof decl - (size_t)n, "[%lld+%lld]", (long long)arr->dims[d], (long long)arr->pad[d])
                             : snprintf(decl + n, sizeof decl - (size_t)n, "[%lld]", (long long)arr->dims[d]);
    }
    char iter[64] = "";
    if (s->loop.var)
        snprintf(iter, sizeof iter, " | %s=%lld (%d/%d)", s->loop.var, (long long)s->loop_values[a->iteration],
                 a->iteration + 1, s->iterations);
    const char *sep = crt_glyph(&a->crt, " │ ", " | ");
    if (a->les.nsteps > 0 && !s->is_trace) {
        draw_text(a, r->y, r->x, r->w, ROLE_TITLE, " bankscope%slesson: %s (n/p)%s%s%s%s%swarp %d/%d%s", sep,
                  a->les.title, sep, a->source, sep, decl, sep, a->warp, scenario_warp_count(s) - 1, iter);
        return;
    }
    if (s->is_trace)
        draw_text(a, r->y, r->x, r->w, ROLE_TITLE, " bankscope%s%s%s%s%strace[%d/%d]", sep, a->source, sep,
                  s->arch->name, sep, a->access + 1, s->ntrace);
    else
        draw_text(a, r->y, r->x, r->w, ROLE_TITLE, " bankscope%s%s%s%s%s%s%sblock %dx%d%s%swarp %d/%d%s%s", sep,
                  a->source, sep, s->arch->name, sep, decl, sep, s->block[0], s->block[1],
                  s->block[2] > 1 ? "x.." : "", sep, a->warp, scenario_warp_count(s) - 1, iter,
                  a->compare ? " | COMPARE" : a->step_mode ? " | STEP" : "");
}

static void editor_draw(tui_app *a, const layout_rect *r)
{
    const scenario_access *ac = &a->sc.accesses[a->access];
    char label[64];
    if (a->edit_dim < 0)
        snprintf(label, sizeof label, " when: ");
    else
        snprintf(label, sizeof label, " %s index %d of %d: ", a->sc.arrays[ac->array].name, a->edit_dim + 1, ac->nidx);
    int x = r->x + draw_text(a, r->y, r->x, r->w, ROLE_KEY, "%s", label);
    for (int i = 0; i <= a->edit_len && x < r->x + r->w; i++, x++) {
        char c = i < a->edit_len ? a->edit_buf[i] : ' ';
        tui_role role = i == a->edit_err_pos ? ROLE_CONFLICT : i == a->edit_len ? ROLE_SELECTED : ROLE_NORMAL;
        draw_text(a, r->y, x, 1, role, "%c", c);
    }
    if (a->edit_err_pos >= 0)
        draw_text(a, r->y, x + 1, r->x + r->w - x - 1, ROLE_ERROR, "%s", a->edit_msg);
    else
        draw_text(a, r->y, x + 1, r->x + r->w - x - 1, ROLE_DIM, "Enter keep  Esc undo  Tab next index");
}

void panel_bar_draw(tui_app *a)
{
    const layout_rect *r = &a->lay.bar;
    draw_fill(a, r->y, r->x, r->w, ROLE_NORMAL);
    if (a->editing) {
        editor_draw(a, r);
        return;
    }
    if (a->message[0]) {
        draw_text(a, r->y, r->x, r->w, a->message_error ? ROLE_ERROR : ROLE_OK, " %s", a->message);
        return;
    }
    if (a->les.nsteps > 0) { /* a lesson: its text stays on screen */
        int x = r->x + draw_text(a, r->y, r->x, r->w, ROLE_KEY, " %d/%d ", a->les_step + 1, a->les.nsteps);
        draw_text(a, r->y, x, r->x + r->w - x, ROLE_NORMAL, "%s", a->les.steps[a->les_step].text);
        return;
    }
    static const char *const keys[][2] = {
        {"+/-", "pad"}, {"t", "type"}, {"a", "pattern"}, {"e", "edit"}, {"w/W", "warp"}, {"i/I", "iter"},
        {"c", "compare"}, {"s", "step"}, {"r", "arch"}, {"b", "block"}, {"f", "field"}, {"n/p", "pattern file"},
        {"S", "save"}, {"?", "help"}, {"q", "quit"},
    };
    int x = r->x + 1;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        int need = (int)(strlen(keys[i][0]) + strlen(keys[i][1]) + 2);
        if (x + need > r->x + r->w)
            break;
        x += draw_text(a, r->y, x, r->w, ROLE_KEY, "%s", keys[i][0]);
        x += draw_text(a, r->y, x, r->w, ROLE_NORMAL, " %s ", keys[i][1]);
    }
}
