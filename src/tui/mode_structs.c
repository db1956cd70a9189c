/* mode_structs: the struct editor over the screen: the layout of every struct exactly as the
 * compiler makes it (offsets, sizes, holes, tail padding, sizeof); arrows select a field, t
 * changes its type, + adds a field, d deletes it, R reorders the fields by alignment. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"

/* The struct editor's own state (allocated when it opens, freed when it closes). */
typedef struct structs_state {
    int sel_struct, sel_field;
    /* d on a field an access reads asks first: the field asked about (-1: none) */
    int ask_struct, ask_field;
} structs_state;

/* The editor's state, while it is open. */
static structs_state *sst(const tui_app *a)
{
    return app_mode_state(a, MODE_STRUCTS);
}

int structs_open(tui_app *a, int key)
{
    (void)key;
    if (app_push(a, &mode_structs))
        *sst(a) = (structs_state){.ask_struct = -1, .ask_field = -1};
    return REACT_REDRAW;
}

void structs_select(tui_app *a, const char *name)
{
    structs_state *st = sst(a);
    int k = types_struct_find(&a->sc.types, name);
    if (st && k >= 0)
        *st = (structs_state){.sel_struct = k, .ask_struct = -1, .ask_field = -1};
}

static int structs_move(tui_app *a, int key)
{
    structs_state *st = sst(a);
    const types_registry *t = &a->sc.types;
    if (t->n == 0)
        return REACT_NONE;
    int si = st->sel_struct < t->n ? st->sel_struct : 0;
    if (key == KEY_HOME || key == 'g') { /* the first field of the first struct */
        st->sel_struct = 0;
        st->sel_field = 0;
    } else if (key == KEY_END || key == 'G') { /* the last field of the last struct */
        st->sel_struct = t->n - 1;
        st->sel_field = t->structs[t->n - 1].nfields - 1;
    } else if (key == KEY_UP || key == 'k') {
        if (st->sel_field > 0)
            st->sel_field--;
        else if (si > 0) {
            st->sel_struct = si - 1;
            st->sel_field = t->structs[si - 1].nfields - 1;
        }
    } else if (st->sel_field + 1 < t->structs[si].nfields) {
        st->sel_field++;
    } else if (si + 1 < t->n) {
        st->sel_struct = si + 1;
        st->sel_field = 0;
    }
    return REACT_REDRAW;
}

/* i: type or paste a C declaration; it is laid out as the compiler does (added, or in place of
 * the struct of its name). The line starts with the selected struct, one line, to edit. */
static int structs_declare(tui_app *a, int key)
{
    (void)key;
    strbuf sb = {0};
    if (a->sc.types.n > 0)
        types_struct_decl_line(&a->sc.types, sst(a)->sel_struct < a->sc.types.n ? sst(a)->sel_struct : 0, &sb);
    prompt_open(a, PROMPT_STRUCT, strbuf_str(&sb), 0);
    strbuf_free(&sb);
    return REACT_REDRAW;
}

static int structs_edit(tui_app *a, int key)
{
    structs_state *st = sst(a);
    if (a->sc.types.n == 0 && key == '+') { /* a first struct to start from */
        scenario_change c = {.kind = SCENARIO_CHANGE_STRUCT_DECL, .u.decl = {.text = "struct S { float x; };"}};
        st->sel_struct = st->sel_field = 0;
        return app_change(a, &c, false);
    }
    if (a->sc.types.n == 0) {
        app_set_message(a, true, "no struct yet: + starts one, i types or pastes a C declaration");
        return REACT_REDRAW;
    }
    int si = st->sel_struct < a->sc.types.n ? st->sel_struct : 0;
    /* d on a field an access reads: the first d says so, the second moves the access */
    bool again = key == 'd' && st->ask_struct == si && st->ask_field == st->sel_field;
    scenario_change c = {.kind = key == 't'   ? SCENARIO_CHANGE_FIELD_TYPE_NEXT
                                 : key == '+' ? SCENARIO_CHANGE_FIELD_ADD
                                 : key == 'd' ? SCENARIO_CHANGE_FIELD_DELETE
                                              : SCENARIO_CHANGE_FIELDS_REORDER,
                         .u.field = {.struct_index = si, .field = st->sel_field, .retarget = again}};
    st->ask_struct = st->ask_field = -1;
    char sel_name[64] = ""; /* R moves the fields: the selection follows its field */
    if (key == 'R' && st->sel_field >= 0 && st->sel_field < a->sc.types.structs[si].nfields)
        snprintf(sel_name, sizeof sel_name, "%s", a->sc.types.structs[si].fields[st->sel_field].name);
    int r = app_change(a, &c, false);
    for (int f = 0; sel_name[0] && si < a->sc.types.n && f < a->sc.types.structs[si].nfields; f++)
        if (strcmp(a->sc.types.structs[si].fields[f].name, sel_name) == 0)
            st->sel_field = f;
    if (key == 'd' && !(r & REACT_EDITED) && strstr(a->message, " is read by access ")) {
        st->ask_struct = si;
        st->ask_field = st->sel_field;
    }
    st->sel_struct = si;
    if (st->sel_field >= a->sc.types.structs[si].nfields)
        st->sel_field = a->sc.types.structs[si].nfields - 1;
    return r;
}

static void structs_draw(tui_app *a)
{
    const scenario *s = &a->sc;
    const structs_state *st = sst(a);
    int w = a->cols - 4 < 90 ? a->cols - 4 : 90, h = a->rows - 2;
    layout_rect box = {1, (a->cols - w) / 2, h, w};
    for (int y = box.y; y < box.y + box.h; y++)
        draw_fill(&a->crt, y, box.x, box.w, ROLE_NORMAL);
    layout_rect in = panel_frame(&a->crt, &box, "structs: i declare, t type, + add, d delete, R reorder, Esc", true);
    app_bar_draw(a);
    if (s->types.n == 0) {
        static const char *const lines[] = {
            "No struct yet.",
            "",
            "i  type or paste a C declaration, laid out as the compiler does:",
            "       struct P { float3 pos; float m; };",
            "+  start from struct S { float x; } and change it here",
            "",
            "aos-vec3 and struct-mixed (L) read arrays of structs.",
        };
        for (int i = 0; i < 7 && i < in.h; i++)
            draw_text(&a->crt, in.y + i, in.x + 1, in.w - 1, i == 0 ? ROLE_KEY : ROLE_NORMAL, "%s", lines[i]);
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
                            : strstr(line, "sizeof")                             ? ROLE_KEY
                                                                                 : ROLE_NORMAL;
            bool sel = is_field && i == st->sel_struct && field == st->sel_field;
            draw_text_mark(&a->crt, y++, in.x + 1, in.w - 1, role, sel ? MARK_SELECT : 0, "%s%.*s", sel ? ">" : " ",
                           len, line);
        }
        strbuf_free(&sb);
        y++;
    }
    const scenario_access *ac = scenario_access_of(s, a->access);
    if (ac && ac->field && y < in.y + in.h)
        draw_text(&a->crt, y, in.x + 1, in.w - 1, ROLE_DIM, "access %d reads field %s (offset %d, %d B) of %s",
                  a->access, ac->field, ac->offset, ac->width, s->arrays[ac->array].name);
}

/* This mode's own rows of the action table (dispatch, key bar and help take them first). */
static const tui_action structs_actions[] = {
    /* the struct editor */
    {.keys = {KEY_UP, KEY_DOWN, 'k', 'j'},
     .nshow = 2,
     .label = "select",
     .help = "select a field",
     .handler = structs_move,
     .modes = MODE_BIT(MODE_STRUCTS)},
    {.keys = {KEY_HOME, KEY_END, 'g', 'G'},
     .nshow = 2,
     .help = "the first / last field",
     .handler = structs_move,
     .modes = MODE_BIT(MODE_STRUCTS)},
    {.keys = {'i'},
     .nshow = 1,
     .label = "declare",
     .help = "type or paste a C struct declaration (added, or replacing the struct of its name)",
     .handler = structs_declare,
     .modes = MODE_BIT(MODE_STRUCTS)},
    {.keys = {'t'},
     .nshow = 1,
     .label = "type",
     .help = "change the selected field's type",
     .handler = structs_edit,
     .modes = MODE_BIT(MODE_STRUCTS)},
    {.keys = {'+'},
     .nshow = 1,
     .label = "add",
     .help = "add a char field after the selected one (no struct yet: start struct S)",
     .handler = structs_edit,
     .modes = MODE_BIT(MODE_STRUCTS)},
    {.keys = {'d'},
     .nshow = 1,
     .label = "delete",
     .help = "delete the selected field (one an access reads: d again, and the access reads another field)",
     .handler = structs_edit,
     .modes = MODE_BIT(MODE_STRUCTS)},
    {.keys = {'R'},
     .nshow = 1,
     .label = "reorder",
     .help = "reorder the fields by alignment (removes holes)",
     .handler = structs_edit,
     .modes = MODE_BIT(MODE_STRUCTS)},
};

const tui_mode mode_structs = {
    .id = MODE_STRUCTS,
    .name = "struct editor",
    .overlay = true,
    .draw = structs_draw,
    .state_size = sizeof(structs_state),
    .actions = structs_actions,
    .nactions = (int)(sizeof structs_actions / sizeof structs_actions[0]),
};
