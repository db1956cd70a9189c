/* test_tui: the pure parts of the TUI: layout over many terminal sizes, the action table (one
 * table drives dispatch, help and the key bar), the single-key edits applied through
 * scenario_edit, true stride presets, the SoA form, text sanitising, and save -> load round trips
 * of every library pattern. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <locale.h>
#include <unistd.h>

#include "core/analysis.h"
#include "io/lesson.h"
#include "io/library.h"
#include "io/save.h"
#include "io/svg.h"
#include "test_util.h"
#include "tui/app.h"

static bool inside(const layout_rect *r, int cols, int rows)
{
    return r->h == 0 || (r->y >= 0 && r->x >= 0 && r->y + r->h <= rows && r->x + r->w <= cols);
}

static bool overlap(const layout_rect *a, const layout_rect *b)
{
    if (a->h == 0 || b->h == 0)
        return false;
    return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

/* Every size from tiny to 250x80: panels inside the screen, never overlapping, grid fits, the
 * why panel always placed. */
static void test_layout_sizes(void **state)
{
    (void)state;
    for (int cols = 10; cols <= 250; cols += 3)
        for (int rows = 5; rows <= 80; rows += 2)
            for (int cmp = 0; cmp <= 1; cmp++)
                for (int banks = 16; banks <= 32; banks += 16) {
                    layout L = layout_compute(cols, rows, banks, cmp);
                    int need = cmp ? 2 * (7 + banks) + 1 : LAYOUT_MIN_COLS; /* two grids of 1-cell banks */
                    need = need > LAYOUT_MIN_COLS ? need : LAYOUT_MIN_COLS;
                    if (cols < need || rows < LAYOUT_MIN_ROWS) {
                        assert_true(L.too_small);
                        assert_int_equal(L.need_cols, need);
                        continue;
                    }
                    assert_false(L.too_small);
                    const layout_rect *all[] = {&L.title, &L.grid, &L.grid2, &L.result, &L.result2,
                                                &L.lanes, &L.map,  &L.why,   &L.bar};
                    for (int i = 0; i < 9; i++) {
                        assert_true(inside(all[i], cols, rows));
                        for (int j = i + 1; j < 9; j++)
                            assert_false(overlap(all[i], all[j]));
                    }
                    assert_true(L.why.h >= 1);
                    assert_true(L.cell_w >= 1 && L.cell_w <= 4);
                    assert_true(L.label_w == 5 || L.label_w == 2);
                    assert_true(2 + L.label_w + banks * L.cell_w <= L.grid.w);
                    if (cmp)
                        assert_true(2 + L.label_w + banks * L.cell_w <= L.grid2.w);
                    assert_true(L.grid.h >= 8);
                }
    layout L = layout_compute(100, 30, 32, false); /* 3-column cells with compact row labels */
    assert_int_equal(L.cell_w, 3);
    assert_int_equal(L.label_w, 2);
    L = layout_compute(160, 48, 32, false);
    assert_true(L.side);
    assert_int_equal(L.cell_w, 3);
    assert_true(L.map.h > 0);
}

/* The action table: no key is taken twice within a mode (so dispatch reaches every action), every
 * action appears in its modes' help, and every view has a way to close or quit. */
static void test_action_table(void **state)
{
    (void)state;
    int n;
    const tui_action *t = actions_table(&n);
    tui_crt crt = {0};
    assert_true(n > 30);
    for (int m = 0; m < MODE_COUNT; m++) {
        int nh;
        char **help = actions_help_lines(&crt, (tui_mode_id)m, NULL, &nh);
        bool closes = false;
        const tui_mode *mode = mode_of((tui_mode_id)m);
        assert_int_equal(mode->id, m);
        for (int k = 0; k < mode->nactions; k++) /* a mode's own rows are its own */
            assert_true(mode->actions[k].modes & MODE_BIT(m));
        const tui_action *r;
        for (int i = 0; (r = actions_row((tui_mode_id)m, i)) != NULL; i++) {
            assert_non_null(r->handler);
            assert_non_null(r->help);
            bool in_help = false;
            for (int k = 0; k < nh; k++)
                in_help |= strstr(help[k], r->help) != NULL;
            if (!in_help)
                fail_msg("mode %d: '%s' is not in the help", m, r->help);
            for (int k = 0; k < 12 && r->keys[k]; k++) {
                closes |= r->keys[k] == 27 || r->keys[k] == 'q';
                /* the first action of this mode that takes the key is this one */
                const tui_action *q;
                for (int j = 0; j < i && (q = actions_row((tui_mode_id)m, j)) != NULL; j++)
                    for (int kk = 0; kk < 12 && q->keys[kk]; kk++)
                        if (q->keys[kk] == r->keys[k])
                            fail_msg("mode %d: key %d taken by '%s' and '%s'", m, r->keys[k], q->help, r->help);
            }
        }
        if (m != MODE_MAIN && !closes)
            fail_msg("mode %d cannot be closed with Esc or q", m);
        actions_help_free(help, nh);
    }
    char buf[64];
    actions_keys_text(&crt, &t[0], buf, sizeof buf);
    assert_string_equal(buf, "+/-");
    /* with UTF-8 arrows ("↑/↓": 3 cells, 7 bytes) every help text still starts in column 12 */
    crt.utf8 = true;
    for (int m = 0; m < MODE_COUNT; m++) {
        int nh;
        char **help = actions_help_lines(&crt, (tui_mode_id)m, NULL, &nh);
        for (int k = 0; k < nh; k++) {
            const char *text = NULL;
            const tui_action *r;
            for (int i = 0; !text && (r = actions_row((tui_mode_id)m, i)) != NULL; i++)
                if ((text = strstr(help[k], r->help)) != NULL && text == help[k])
                    text = NULL;
            assert_non_null(text);
            char prefix[256];
            snprintf(prefix, sizeof prefix, "%.*s", (int)(text - help[k]), help[k]);
            if (draw_width(prefix) < 12 || (draw_width(prefix) > 12 && prefix[strlen(prefix) - 2] != ' '))
                fail_msg("mode %d: '%s' starts in column %d, not 12", m, help[k], draw_width(prefix));
            else if (draw_width(prefix) > 12 && strstr(prefix, "  "))
                fail_msg("mode %d: '%s' is padded past column 12", m, help[k]);
        }
        actions_help_free(help, nh);
    }
}

/* Load a library pattern. */
static void load_lib(const char *name, scenario *s)
{
    size_t len;
    io_error err;
    const char *t = library_find(name, &len);
    assert_non_null(t);
    assert_true(load_scenario_text(t, len, name, NULL, s, &err));
}

static int degree_of(const scenario *s, int access)
{
    tui_view *v = malloc(sizeof *v);
    view_build(s, access, 0, scenario_selected_warp(s, 0), v);
    int d = v->res.conflict_degree;
    free(v);
    return d;
}

static int gcd(int a, int b)
{
    return b ? gcd(b, a % b) : a;
}

static void test_edits(void **state)
{
    (void)state;
    scenario s;
    char msg[300];
    scenario_history h = {0};
    load_lib("default", &s);
    scenario_change c = {SCENARIO_CHANGE_PAD, .u.pad = {0, 1}};
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_int_equal(s.arrays[0].pad[1], 1);
    c.u.pad.delta = -2;
    assert_false(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_int_equal(s.arrays[0].pad[1], 1);
    c = (scenario_change){SCENARIO_CHANGE_TYPE_NEXT, .u.array = {0}};
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_string_equal(s.arrays[0].type_name, "double");
    c = (scenario_change){SCENARIO_CHANGE_PATTERN_NEXT, .u.pattern = {0, NULL}};
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_string_equal(s.accesses[0].label, "row read");
    c = (scenario_change){SCENARIO_CHANGE_BLOCK_NEXT, .u.array = {0}};
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_int_equal(s.block[1], 8);
    c = (scenario_change){SCENARIO_CHANGE_ARCH_STEP, .u.arch = {1, 0}};
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_string_equal(s.arch->name, "sm_89");
    c.u.arch.step = -1; /* R: back to sm_90 */
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    assert_string_equal(s.arch->name, "sm_90");
    assert_true(scenario_edit_change(&s, &h, &c, msg, sizeof msg)); /* wraps to the last */
    assert_string_equal(s.arch->name, "sm_13");
    c = (scenario_change){SCENARIO_CHANGE_FIELD_NEXT, .u.access = {0}};
    assert_false(scenario_edit_change(&s, &h, &c, msg, sizeof msg));
    /* every edit is one undo step; undo walks back to the file as loaded */
    while (scenario_edit_undo(&s, &h))
        ;
    assert_int_equal(s.arrays[0].pad[1], 0);
    assert_string_equal(s.arrays[0].type_name, "float");
    assert_string_equal(s.arch->name, "sm_90");
    scenario_history_free(&h);
    scenario_free(&s);

    load_lib("aos-vec3", &s);
    /* the struct editor: delete pad (16 -> 12 bytes), add a char after x, change its type */
    c = (scenario_change){SCENARIO_CHANGE_FIELD_DELETE, .u.field = {0, 3}};
    assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_int_equal(s.types.structs[0].size, 12);
    c = (scenario_change){SCENARIO_CHANGE_FIELD_ADD, .u.field = {0, 0}};
    assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_string_equal(s.types.structs[0].fields[1].name, "f1");
    assert_int_equal(s.types.structs[0].fields[2].offset, 8);
    c = (scenario_change){SCENARIO_CHANGE_FIELD_TYPE_NEXT, .u.field = {0, 1}};
    assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg)); /* char -> short */
    assert_string_equal(s.types.structs[0].fields[1].type_name, "short");
    c = (scenario_change){SCENARIO_CHANGE_FIELD_DELETE, .u.field = {0, 7}};
    assert_false(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    /* x is read by access 0: a delete says so and changes nothing; asked again (retarget) it
     * deletes x and the access reads the first scalar field left */
    c = (scenario_change){SCENARIO_CHANGE_FIELD_DELETE, .u.field = {0, 0}};
    assert_false(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_string_equal(msg, "x is read by access 0: d again deletes it and the access reads f1");
    assert_string_equal(s.types.structs[0].fields[0].name, "x");
    c.u.field.retarget = true;
    assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_string_equal(s.accesses[0].field, "f1");
    assert_string_equal(s.types.structs[0].fields[0].name, "f1");
    scenario_free(&s);

    /* a struct declared in C in a scenario that has none: laid out as the compiler does; a
     * second declaration of the same name replaces it; a mistake names its column */
    load_lib("default", &s);
    c = (scenario_change){SCENARIO_CHANGE_STRUCT_DECL, .u.decl = {"struct P { float3 pos; float m; };"}};
    assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_string_equal(msg, "struct P added: sizeof 16, alignof 4");
    assert_int_equal(s.types.n, 1);
    assert_int_equal(s.types.structs[0].fields[1].offset, 12);
    c.u.decl.text = "struct P { double d; char c; };";
    assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_string_equal(msg, "struct P replaced: sizeof 16, alignof 8");
    assert_int_equal(s.types.n, 1);
    c.u.decl.text = "struct P { float3 pos float m; };";
    assert_false(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
    assert_string_equal(msg, "column 23: expected ';' after the field");
    scenario_free(&s);
}

/* t reaches the vector types, in the main view and in the struct editor. */
static void test_type_cycle(void **state)
{
    (void)state;
    scenario s;
    char msg[300];
    load_lib("default", &s);
    bool seen[4] = {0};
    static const char *const want[] = {"float2", "float4", "double2", "char4"};
    scenario_change c = {SCENARIO_CHANGE_TYPE_NEXT, .u.array = {0}};
    for (int k = 0; k < 12; k++) {
        assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
        for (int i = 0; i < 4; i++)
            seen[i] |= strcmp(s.arrays[0].type.builtin.name, want[i]) == 0;
    }
    for (int i = 0; i < 4; i++)
        if (!seen[i])
            fail_msg("t never reached %s", want[i]);
    scenario_free(&s);
    load_lib("aos-vec3", &s);
    bool fseen[4] = {0};
    c = (scenario_change){SCENARIO_CHANGE_FIELD_TYPE_NEXT, .u.field = {0, 3}}; /* pad: read by no access */
    for (int k = 0; k < 14; k++) {
        assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
        for (int i = 0; i < 4; i++)
            fseen[i] |= strcmp(s.types.structs[0].fields[3].type.builtin.name, want[i]) == 0;
    }
    for (int i = 0; i < 4; i++)
        if (!fseen[i])
            fail_msg("the struct editor's t never reached %s", want[i]);
    scenario_free(&s);
}

/* A preset labelled "stride s" is stride s: gcd(s, 32)-way, never wrapped into something else;
 * a 1-D array offers 6, 12 and 24 (2-, 4- and 8-way: the gcd counts, not a power of two). */
static void test_stride_presets(void **state)
{
    (void)state;
    const char *sources[] = {"stride-8", "default"};
    for (int f = 0; f < 2; f++) {
        scenario s;
        char msg[300];
        load_lib(sources[f], &s);
        scenario_change c = {SCENARIO_CHANGE_PATTERN_NEXT, .u.pattern = {0, NULL}};
        int checked = 0, nongeo = 0;
        for (int k = 0; k < 24; k++) {
            assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
            const char *label = s.accesses[0].label;
            int stride;
            if (label && sscanf(label, "stride %d", &stride) == 1) {
                nongeo |= stride == 6 ? 1 : stride == 12 ? 2 : stride == 24 ? 4 : 0;
                int want = gcd(stride, 32);
                if (degree_of(&s, 0) != want)
                    fail_msg("%s: '%s' is %d-way, not %d-way", sources[f], label, degree_of(&s, 0), want);
                checked++;
            }
        }
        assert_true(checked >= 1);
        if (f == 0 && nongeo != 7)
            fail_msg("stride-8's presets lack stride 6, 12 or 24 (seen mask %d)", nongeo);
        scenario_free(&s);
    }
}

/* The a presets: strides 3, 5 and 7 are there and conflict-free (odd strides), a 2-D tile has
 * strides beyond 2, and a stride preset grows the array only from the user's dimensions: the
 * next preset starts from them again. */
static void test_stride_preset_dims(void **state)
{
    (void)state;
    scenario s;
    char msg[300];
    load_lib("default", &s); /* float tile[32][32], column read */
    int64_t user[SCENARIO_MAX_DIMS];
    memcpy(user, s.arrays[0].dims, sizeof user);
    scenario_change c = {SCENARIO_CHANGE_PATTERN_NEXT, .u.pattern = {0, user}};
    bool saw3 = false, saw8 = false, restored = false;
    for (int k = 0; k < 9; k++) {
        assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
        const char *label = s.accesses[0].label;
        if (strcmp(label, "stride 3 in a row") == 0) {
            saw3 = true;
            assert_int_equal(s.arrays[0].dims[1], 3 * 31 + 1);
            assert_int_equal(degree_of(&s, 0), 1);
        }
        if (strcmp(label, "stride 8 in a row") == 0) {
            saw8 = true;
            assert_int_equal(degree_of(&s, 0), 8);
        }
        if (strcmp(label, "column read") == 0) { /* back to the user's [32][32]: 32-way again */
            restored = saw8;
            assert_int_equal(s.arrays[0].dims[1], 32);
            assert_int_equal(degree_of(&s, 0), 32);
        }
    }
    assert_true(saw3 && saw8 && restored);
    scenario_free(&s);
    load_lib("stride-8", &s); /* 1-D */
    memcpy(user, s.arrays[0].dims, sizeof user);
    bool odd[8] = {0};
    for (int k = 0; k < 16; k++) {
        assert_true(scenario_edit_change(&s, NULL, &c, msg, sizeof msg));
        int stride;
        if (sscanf(s.accesses[0].label, "stride %d", &stride) == 1 && stride < 8 && stride % 2) {
            odd[stride] = true;
            assert_int_equal(degree_of(&s, 0), 1);
        }
    }
    assert_true(odd[3] && odd[5] && odd[7]);
    scenario_free(&s);
}

/* The one line editor: readline keys, and a pre-filled text replaced (never appended to). */
static void test_line_editor(void **state)
{
    (void)state;
    tui_line l;
    line_set(&l, "default.json", true);
    assert_int_equal(line_key(&l, 'x'), LINE_CHANGED);
    assert_string_equal(l.buf, "x");
    line_set(&l, "default.json", true);
    line_key(&l, KEY_BACKSPACE);
    assert_string_equal(l.buf, "");
    line_set(&l, "tile.json", true);
    line_key(&l, KEY_END); /* a move keeps the text and ends the selection */
    line_key(&l, 'x');
    assert_string_equal(l.buf, "tile.jsonx");
    line_set(&l, "threadIdx.x * 33", false);
    line_key(&l, 0x17); /* Ctrl-W: the word before the cursor */
    assert_string_equal(l.buf, "threadIdx.x * ");
    line_key(&l, 0x01); /* Ctrl-A, then type at the start */
    line_key(&l, '(');
    assert_string_equal(l.buf, "(threadIdx.x * ");
    assert_int_equal(l.cur, 1);
    line_key(&l, KEY_RIGHT);
    line_key(&l, 0x0b); /* Ctrl-K */
    assert_string_equal(l.buf, "(t");
    line_key(&l, 0x15); /* Ctrl-U */
    assert_string_equal(l.buf, "");
    assert_int_equal(line_key(&l, KEY_LEFT), LINE_MOVED);
    assert_int_equal(line_key(&l, 'q' | 0x1000), LINE_IGNORED);
    for (int i = 0; i < 5000; i++)
        line_key(&l, 'a');
    assert_int_equal(l.len, LINE_MAX_TEXT - 1);
    /* an expression of the longest length a file may hold is held whole, never cut */
    char longest[EXPR_MAX_LEN + 1];
    memset(longest, '1', EXPR_MAX_LEN);
    longest[EXPR_MAX_LEN] = '\0';
    assert_true(line_set(&l, longest, false));
    assert_int_equal(l.len, EXPR_MAX_LEN);
    assert_string_equal(l.buf, longest);
    char over[LINE_MAX_TEXT + 1];
    memset(over, 'x', LINE_MAX_TEXT);
    over[LINE_MAX_TEXT] = '\0';
    assert_false(line_set(&l, over, true)); /* refused whole, not cut */
    assert_int_equal(l.len, 0);
}

/* The name S proposes is the file's whole name, or none (with a message): never a shorter name,
 * which would be another file. */
static void test_save_default_name(void **state)
{
    (void)state;
    tui_app *a = calloc(1, sizeof *a);
    char path[4000];
    memset(path, 'd', sizeof path);
    for (int i = 100; i < (int)sizeof path - 20; i += 100)
        path[i] = '/';
    snprintf(path + sizeof path - 20, 20, "/my-file.json");
    a->source = path;
    char name[LINE_MAX_TEXT];
    assert_true(tui_save_default_name(a, false, name, sizeof name));
    assert_string_equal(name, path);
    assert_true(tui_save_default_name(a, true, name, sizeof name));
    assert_string_equal(name, "my-file-a0-w0.svg");
    char small[300];
    assert_false(tui_save_default_name(a, false, small, sizeof small));
    assert_string_equal(small, "");
    free(a);
}

/* The one pager: scrolling within the text, a cursor that the view follows, search with wrap. */
static void test_pager(void **state)
{
    (void)state;
    static const char *const lines[] = {"a", "b tile", "c", "d", "e tile", "f", "g", "h", "i", "j"};
    tui_pager p;
    memset(&p, 0, sizeof p);
    pager_set(&p, lines, 10, false);
    pager_scroll_key(&p, KEY_NPAGE, 4);
    assert_int_equal(p.scroll, 4);
    pager_scroll_key(&p, KEY_END, 4);
    assert_int_equal(p.scroll, 6); /* the last page, never past it */
    pager_scroll_key(&p, KEY_HOME, 4);
    assert_int_equal(p.scroll, 0);
    pager_search_begin(&p);
    const char *q = "tile";
    for (const char *c = q; *c; c++)
        pager_search_key(&p, *c, 4);
    assert_int_equal(pager_search_key(&p, '\r', 4), PAGER_FOUND);
    assert_int_equal(p.hit, 1);
    bool wrapped;
    assert_int_equal(pager_find_next(&p, 1, 4, &wrapped), PAGER_FOUND);
    assert_int_equal(p.hit, 4);
    assert_false(wrapped);
    assert_int_equal(pager_find_next(&p, 1, 4, &wrapped), PAGER_FOUND);
    assert_int_equal(p.hit, 1);
    assert_true(wrapped);
    pager_set(&p, lines, 10, true); /* with a cursor: the keys move it, the page follows */
    for (int i = 0; i < 5; i++)
        pager_scroll_key(&p, KEY_DOWN, 4);
    assert_int_equal(p.cursor, 5);
    assert_int_equal(p.scroll, 2);
    pager_scroll_by(&p, -10, 4);
    assert_int_equal(p.scroll, 0);
    assert_int_equal(p.cursor, 3); /* kept on the page */
}

/* c on a struct array read by several accesses: the SoA form covers every field access. */
static void test_soa_whole_array(void **state)
{
    (void)state;
    scenario s, v;
    char label[200];
    load_lib("struct-mixed", &s);
    assert_true(scenario_edit_soa(&s, &v, label, sizeof label));
    assert_non_null(strstr(label, "SoA"));
    for (int i = 0; i < v.naccesses; i++) {
        assert_null(v.accesses[i].field);
        assert_int_equal(degree_of(&v, i), 1);
    }
    scenario_free(&v);
    scenario_free(&s);
}

/* Wrapping keeps every word and never exceeds the width; control characters are not drawn raw. */
static void test_wrap_and_sanitise(void **state)
{
    (void)state;
    char **lines;
    const char *text =
        "Warp 0 of a 32x32 block reads tile[threadIdx.x][threadIdx.y]: successive lanes. Press + to pad.";
    int n = draw_wrap(text, 40, &lines);
    strbuf all = {0};
    for (int i = 0; i < n; i++) {
        assert_true(draw_width(lines[i]) <= 40);
        strbuf_addf(&all, "%s%s", i ? " " : "", lines[i]);
    }
    assert_string_equal(strbuf_str(&all), text);
    strbuf_free(&all);
    draw_wrap_free(lines, n);
    assert_int_equal(draw_width("a\x1b]0;x\x07"
                                "b"),
                     8); /* each control character one "?" */
    if (setlocale(LC_ALL, "C.UTF-8"))
        assert_int_equal(draw_width("\xe4\xb8\xad"), 2); /* a wide character counts two cells */
    assert_int_equal(draw_width("\xe4\xb8"), 2);         /* a cut sequence: two '?' */
    /* the bidirectional controls from a file (an override, an isolate, a mark, the Arabic letter
     * mark) are drawn as '?', so a line never reads reordered */
    char out[128];
    draw_safe("a\xe2\x80\xae"
              "cba\xe2\x81\xa6"
              "d\xe2\x80\x8f"
              "e\xd8\x9c"
              "f\xe2\x81\xa9",
              out, sizeof out);
    assert_string_equal(out, "a?cba?d?e?f?");
    draw_safe("caf\xc3\xa9 \xe2\x80\x94 ok", out, sizeof out); /* other characters stay */
    assert_string_equal(out, "caf\xc3\xa9 \xe2\x80\x94 ok");
}

/* Saving then loading gives the same scenario (same JSON again, same analysis). */
static void test_save_roundtrip(void **state)
{
    (void)state;
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < n; i++) {
        scenario a, b;
        io_error err;
        if (!e[i].text || lesson_is(e[i].text, e[i].len)) /* built-in scenarios only */
            continue;
        assert_true(load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &a, &err));
        strbuf j1 = {0}, j2 = {0};
        save_scenario_json(&a, &j1);
        if (!load_scenario_text(j1.data, j1.len, "saved", NULL, &b, &err))
            fail_msg("%s: %s\n%s", e[i].name, err.text, j1.data);
        save_scenario_json(&b, &j2);
        assert_string_equal(strbuf_str(&j1), strbuf_str(&j2));
        assert_int_equal(scenario_instr_count(&a), scenario_instr_count(&b));
        strbuf_free(&j1);
        strbuf_free(&j2);
        scenario_free(&a);
        scenario_free(&b);
    }
    char path[] = "/tmp/bankscope-save-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char msg[256];
    assert_true(save_atomic(path, "{}\n", 3, msg, sizeof msg));
    assert_false(save_atomic("/nonexistent-dir/x.json", "{}", 2, msg, sizeof msg));
    remove(path);
}

/* The SVG of the worst instruction of transpose-naive: the 32-way column read. */
static void test_svg(void **state)
{
    (void)state;
    scenario s;
    load_lib("transpose-naive", &s);
    int64_t k = analysis_worst_instr(&s);
    assert_int_equal(k, 32); /* access 1 (read), warp 0 */
    strbuf sb = {0};
    analysis_svg(&s, k, &sb);
    assert_non_null(strstr(sb.data, "<svg"));
    assert_non_null(strstr(sb.data, "32-way: 32 wavefronts"));
    int red = 0;
    for (const char *p = sb.data; (p = strstr(p, "#f08080")) != NULL; p++)
        red++;
    assert_int_equal(red, 32);
    strbuf_free(&sb);
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_sizes),
        cmocka_unit_test(test_action_table),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_type_cycle),
        cmocka_unit_test(test_stride_presets),
        cmocka_unit_test(test_soa_whole_array),
        cmocka_unit_test(test_stride_preset_dims),
        cmocka_unit_test(test_line_editor),
        cmocka_unit_test(test_save_default_name),
        cmocka_unit_test(test_pager),
        cmocka_unit_test(test_wrap_and_sanitise),
        cmocka_unit_test(test_save_roundtrip),
        cmocka_unit_test(test_svg),
    };
    return cmocka_run_group_tests_name("tui", tests, NULL, NULL);
}
