/* test_tui: the pure parts of the TUI: layout over many terminal sizes, the single-key edits,
 * and save -> load round trips of every library pattern. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "io/lesson.h"
#include "io/library.h"
#include "io/save.h"
#include "io/svg.h"
#include "test_util.h"
#include "tui/tui.h"

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

/* Every size from tiny to 250x80: panels inside the screen, never overlapping, grid fits. */
static void test_layout_sizes(void **state)
{
    (void)state;
    for (int cols = 10; cols <= 250; cols += 3)
        for (int rows = 5; rows <= 80; rows += 2)
            for (int cmp = 0; cmp <= 1; cmp++)
                for (int banks = 16; banks <= 32; banks += 16) {
                    layout L = layout_compute(cols, rows, banks, cmp);
                    if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
                        assert_true(L.too_small);
                        continue;
                    }
                    assert_false(L.too_small);
                    const layout_rect *all[] = {&L.title, &L.grid, &L.grid2, &L.result, &L.result2,
                                                &L.lanes, &L.map, &L.bar};
                    for (int i = 0; i < 8; i++) {
                        assert_true(inside(all[i], cols, rows));
                        for (int j = i + 1; j < 8; j++)
                            assert_false(overlap(all[i], all[j]));
                    }
                    assert_true(L.cell_w >= 1 && L.cell_w <= 4);
                    assert_true(7 + banks * L.cell_w <= L.grid.w || (cmp && L.cell_w == 1));
                    assert_true(L.grid.h >= 8);
                }
    layout L = layout_compute(160, 48, 32, false);
    assert_true(L.side);
    assert_int_equal(L.cell_w, 3);
    assert_true(L.map.h > 0);
}

static void test_edits(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    char msg[300];
    size_t len;
    const char *t = library_find("default", &len);
    assert_true(load_scenario_text(t, len, "default", NULL, &s, &err));
    assert_true(edit_padding(&s, 0, 1, msg, sizeof msg));
    assert_int_equal(s.arrays[0].pad[1], 1);
    assert_false(edit_padding(&s, 0, -2, msg, sizeof msg));
    assert_int_equal(s.arrays[0].pad[1], 1);
    assert_true(edit_cycle_type(&s, 0, msg, sizeof msg));
    assert_string_equal(s.arrays[0].type_name, "double");
    assert_true(edit_cycle_pattern(&s, 0, msg, sizeof msg));
    assert_string_equal(s.accesses[0].label, "row read");
    assert_true(edit_cycle_block(&s, msg, sizeof msg));
    assert_int_equal(s.block[1], 8);
    assert_true(edit_cycle_arch(&s, msg, sizeof msg));
    assert_string_equal(s.arch->name, "sm_89");
    assert_false(edit_cycle_field(&s, 0, msg, sizeof msg));
    scenario v;
    char label[96];
    assert_true(edit_compare_variant(&s, 0, &v, label, sizeof label));
    scenario_free(&v);
    scenario_free(&s);

    t = library_find("aos-vec3", &len);
    assert_true(load_scenario_text(t, len, "aos", NULL, &s, &err));
    /* the struct editor: delete pad (16 -> 12 bytes), add a char after x, change its type */
    assert_true(edit_field_delete(&s, 0, 3, msg, sizeof msg));
    assert_int_equal(s.types.structs[0].size, 12);
    assert_true(edit_field_add(&s, 0, 0, msg, sizeof msg));
    assert_string_equal(s.types.structs[0].fields[1].name, "f1");
    assert_int_equal(s.types.structs[0].fields[2].offset, 8);
    assert_true(edit_field_type(&s, 0, 1, msg, sizeof msg)); /* char -> short */
    assert_string_equal(s.types.structs[0].fields[1].type_name, "short");
    assert_false(edit_field_delete(&s, 0, 7, msg, sizeof msg));
    assert_true(edit_field_delete(&s, 0, 1, msg, sizeof msg));
    assert_true(edit_cycle_field(&s, 0, msg, sizeof msg));
    assert_true(edit_compare_variant(&s, 0, &v, label, sizeof label));
    assert_non_null(strstr(label, "SoA"));
    assert_null(v.accesses[0].field);
    scenario_free(&v);
    scenario_free(&s);
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
        if (lesson_is(e[i].text, e[i].len))
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
    io_error err;
    size_t len;
    const char *t = library_find("transpose-naive", &len);
    assert_true(load_scenario_text(t, len, "t", NULL, &s, &err));
    int64_t k = svg_worst_instr(&s);
    assert_int_equal(k, 32); /* access 1 (read), warp 0 */
    strbuf sb = {0};
    svg_render(&s, k, &sb);
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
        cmocka_unit_test(test_layout_sizes), cmocka_unit_test(test_edits),
        cmocka_unit_test(test_save_roundtrip), cmocka_unit_test(test_svg),
    };
    return cmocka_run_group_tests_name("tui", tests, NULL, NULL);
}
