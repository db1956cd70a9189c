/* panel_struct: the struct explorer over the screen: the layout of every struct exactly as the
 * compiler makes it (offsets, sizes, holes, tail padding, sizeof); R reorders the fields by
 * alignment to remove holes, f reads another field across the warp, c compares with SoA. */
#include <stdio.h>
#include <string.h>

#include "tui/draw.h"

void panel_struct_draw(tui_app *a)
{
    const scenario *s = &a->sc;
    int w = a->cols - 4 < 90 ? a->cols - 4 : 90, h = a->rows - 2;
    layout_rect box = {1, (a->cols - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(a, y, box.x, box.w, ROLE_NORMAL);
    layout_rect in = panel_frame(a, &box, "structs: arrows select, t type, + add, d delete, R reorder, Esc", true);
    if (s->types.n == 0) {
        draw_text(a, in.y, in.x, in.w, ROLE_DIM, "this scenario uses no struct; see aos-vec3 or struct-mixed");
        return;
    }
    int y = in.y;
    for (int i = 0; i < s->types.n && y < in.y + in.h; i++) {
        strbuf sb = {0};
        types_struct_decl(&s->types, i, true, &sb);
        int field = -1; /* field lines are the ones with "offset" */
        for (char *line = sb.data, *nl; line && *line && y < in.y + in.h; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            int len = nl ? (int)(nl - line) : (int)strlen(line);
            bool is_field = strstr(line, "offset") && strstr(line, "offset") < line + len;
            field += is_field;
            tui_role role = strstr(line, "hole") || strstr(line, "tail padding") ? ROLE_PADDING
                            : strstr(line, "sizeof") ? ROLE_KEY : ROLE_NORMAL;
            if (is_field && i == a->sel_struct && field == a->sel_field)
                role = ROLE_SELECTED;
            draw_text(a, y++, in.x + 1, in.w - 1, role, "%.*s", len, line);
        }
        strbuf_free(&sb);
        y++;
    }
    if (!s->is_trace) {
        const scenario_access *ac = &s->accesses[a->access];
        if (ac->field && y < in.y + in.h)
            draw_text(a, y, in.x + 1, in.w - 1, ROLE_DIM, "access %d reads field %s (offset %d, %d B) of %s", a->access,
                      ac->field, ac->offset, ac->width, s->arrays[ac->array].name);
    }
}
