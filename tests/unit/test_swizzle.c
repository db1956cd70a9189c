/* test_swizzle: the array option "swizzle": the byte-offset permutation equals the expression
 * function swizzle(B, M, S, x) (CuTe's Swizzle) on random inputs, the lane addresses use it, TMA
 * arrays are placed and checked on their alignment, bad values are errors with positions, and a
 * saved scenario keeps the swizzle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/save.h"
#include "model/explain.h"
#include "model/scenario_edit.h"
#include "test_util.h"

/* The expression swizzle(b, m, s, tid) evaluated for tid = x. */
static int64_t expr_value(int b, int m, int s, int64_t x)
{
    char text[96];
    snprintf(text, sizeof text, "swizzle(%d, %d, %d, tid)", b, m, s);
    expr e;
    expr_error ee;
    assert_true(expr_parse(text, NULL, &e, &ee));
    expr_env env = {{0}};
    env.v[EXPR_TID] = x;
    int64_t v = 0;
    int pos;
    assert_int_equal(expr_eval(&e, &env, &v, &pos), EXPR_OK);
    expr_free(&e);
    return v;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* scenario_swizzle_offset agrees with the expression function on random swizzles and offsets,
 * and is its own inverse. */
static void test_offset_equals_expression(void **state)
{
    (void)state;
    for (int k = 0; k < 3000; k++) {
        scenario_array a = {0};
        a.swz_bits = 1 + (int)(next() % 8);
        a.swz_shift = a.swz_bits + (int)(next() % 6);
        a.swz_base = (int)(next() % 12);
        int64_t x = (int64_t)(next() % ((uint64_t)1 << 32));
        int64_t y = scenario_swizzle_offset(&a, x);
        assert_int_equal(y, expr_value(a.swz_bits, a.swz_base, a.swz_shift, x));
        assert_int_equal(scenario_swizzle_offset(&a, y), x);
    }
    scenario_array none = {0};
    assert_int_equal(scenario_swizzle_offset(&none, 12345), 12345);
}

static const char *tile = "{\"block\": [32], \"arrays\": [%s{\"name\": \"t\", \"type\": \"%s\", \"dims\": [%d, %d], "
                          "\"swizzle\": \"%s\"%s}],\n"
                          " \"accesses\": [{\"op\": \"load\", \"array\": \"t\", \"index\": [\"lane\", \"%s\"]}]}";

static bool load_tile(const char *pre, const char *type, int rows, int cols, const char *swz, const char *post,
                      const char *col, scenario *s, io_error *err)
{
    char json[768];
    snprintf(json, sizeof json, tile, pre, type, rows, cols, swz, post, col);
    return test_load(json, s, err);
}

/* The three TMA modes and Swizzle<B,M,S> derive the byte-unit parameters; a column read of a
 * float tile with 128-byte rows lands where CuTe's Swizzle<3,4,3> on bytes puts it. */
static void test_modes_and_addresses(void **state)
{
    (void)state;
    static const struct {
        const char *text, *type;
        int bits, base, shift;
        bool tma;
    } cases[] = {
        {"32B", "float", 1, 4, 3, true},
        {"64B", "float", 2, 4, 3, true},
        {"128B", "float", 3, 4, 3, true},
        {"Swizzle<3,4,3>", "char", 3, 4, 3, false},
        {"Swizzle<3,3,3>", "bf16", 3, 4, 3, false},
        {"Swizzle< 2 , 2 , 3 >", "float", 2, 4, 3, false},
        {"Swizzle<3,0,3>", "float4", 3, 4, 3, false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        scenario s;
        io_error err;
        assert_true(load_tile("", cases[c].type, 32, 64, cases[c].text, "", "0", &s, &err));
        const scenario_array *a = &s.arrays[0];
        assert_string_equal(a->swizzle, cases[c].text);
        assert_int_equal(a->swz_bits, cases[c].bits);
        assert_int_equal(a->swz_base, cases[c].base);
        assert_int_equal(a->swz_shift, cases[c].shift);
        assert_int_equal(a->swz_tma, cases[c].tma);
        scenario_instr in;
        scenario_instr_at(&s, 0, &in);
        for (int l = 0; l < 32; l++) {
            int64_t at = (int64_t)l * 64 * a->elem_size;
            assert_int_equal(in.lane[l].state, SCENARIO_LANE_OK);
            assert_int_equal(in.lane[l].address, expr_value(a->swz_bits, a->swz_base, a->swz_shift, at));
        }
        scenario_free(&s);
    }
    /* float tile[32][32] (128-byte rows), column 0 under 128B: row r's unit 0 moves to unit r % 8,
     * so the 32-way conflict becomes 4-way (8 distinct units x 4 banks each) */
    scenario s;
    io_error err;
    assert_true(load_tile("", "float", 32, 32, "128B", "", "0", &s, &err));
    scenario_instr in;
    scenario_instr_at(&s, 0, &in);
    for (int l = 0; l < 32; l++)
        assert_int_equal(in.lane[l].address, l * 128 + (l % 8) * 16);
    banks_result r;
    banks_analyze(s.arch, &in.req, &r, NULL);
    assert_int_equal(r.conflict_degree, 4);
    scenario_free(&s);
}

/* A float4 read with Swizzle<3,0,3> on float elements moves 16 contiguous bytes from a swizzled
 * start that is only 4-byte aligned: those lanes are misaligned, as on the hardware. */
static void test_vector_wider_than_unit(void **state)
{
    (void)state;
    const char *json = "{\"block\": [32], \"arrays\": [{\"name\": \"t\", \"type\": \"float\", \"dims\": [32, 32], "
                       "\"swizzle\": \"Swizzle<3,0,3>\"}],\n \"accesses\": [{\"op\": \"load\", \"array\": \"t\", "
                       "\"vector\": \"float4\", \"index\": [\"lane / 4\", \"(lane % 4) * 8\"]}]}";
    scenario s;
    io_error err;
    assert_true(test_load(json, &s, &err));
    scenario_instr in;
    scenario_instr_at(&s, 0, &in);
    assert_int_equal(in.lane[0].state, SCENARIO_LANE_OK);
    assert_int_equal(in.lane[1].state, SCENARIO_LANE_MISALIGNED); /* element 8 -> 9: byte 36 */
    assert_int_equal(in.lane[2].state, SCENARIO_LANE_MISALIGNED); /* element 16 -> 18: byte 72 */
    assert_int_equal(in.lane[4].state, SCENARIO_LANE_OK);         /* element 32 -> 36: byte 144 */
    assert_int_equal(in.lane[4].address, 144);
    scenario_free(&s);
}

/* Automatic placement aligns a TMA array to its repeat; an explicit base must be aligned; the
 * element-offset form needs no alignment (CuTe swizzles the offset from the array start). */
static void test_alignment(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    const char *small = "{\"name\": \"x\", \"type\": \"float\", \"dims\": [4]}, ";
    static const struct {
        const char *mode;
        int64_t start;
    } cases[] = {{"32B", 256}, {"64B", 512}, {"128B", 1024}, {"Swizzle<3,4,3>", 16}};
    for (int c = 0; c < 4; c++) {
        assert_true(load_tile(small, "float", 32, 32, cases[c].mode, "", "0", &s, &err));
        assert_int_equal(s.arrays[1].start, cases[c].start);
        assert_int_equal(scenario_swizzle_align(&s.arrays[1]), c < 3 ? cases[c].start : 1);
        scenario_free(&s);
    }
    assert_true(load_tile("", "float", 32, 32, "128B", ", \"base\": 2048", "0", &s, &err));
    assert_int_equal(s.arrays[0].start, 2048);
    scenario_free(&s);
    assert_false(load_tile("", "float", 32, 32, "128B", ", \"base\": 512", "0", &s, &err));
    assert_non_null(strstr(err.text, "test.json:1:104: arrays[0].base: a 128B swizzle works on shared-memory "
                                     "address bits: the array must start at a multiple of 1024 bytes"));
    assert_true(load_tile("", "float", 32, 32, "Swizzle<3,4,3>", ", \"base\": 16", "0", &s, &err));
    scenario_free(&s);
}

static void expect_swz_error(const char *type, int rows, int cols, const char *swz, const char *want)
{
    scenario s;
    io_error err;
    assert_false(load_tile("", type, rows, cols, swz, "", "0", &s, &err));
    if (!strstr(err.text, want))
        print_error("expected '%s' in '%s'\n", want, err.text);
    assert_non_null(strstr(err.text, want));
}

static void test_errors(void **state)
{
    (void)state;
    expect_swz_error("float", 32, 32, "256B", "test.json:1:88: arrays[0].swizzle: unknown swizzle: use \"32B\"");
    expect_swz_error("float", 32, 32, "128b", "arrays[0].swizzle: unknown swizzle");
    expect_swz_error("float", 32, 32, "", "arrays[0].swizzle: unknown swizzle");
    expect_swz_error("float", 32, 32, "Swizzle<3,4>", "e.g. \"Swizzle<3,4,3>\"");
    expect_swz_error("float", 32, 32, "Swizzle<3,4,3> ", "unknown swizzle");
    expect_swz_error("float", 32, 32, "Swizzle<0,4,3>", "B must be 1..16");
    expect_swz_error("float", 32, 32, "Swizzle<3,4,2>", "S must be B..32");
    expect_swz_error("float", 32, 32, "Swizzle<3,33,3>", "M must be 0..32");
    expect_swz_error("float", 32, 32, "Swizzle<16,32,30>", "within 62 bits");
    expect_swz_error("float3", 32, 32, "Swizzle<1,0,1>", "must be a power of two (it is 12 bytes)");
    expect_swz_error("float", 3, 100, "128B", "the swizzle permutes blocks of 128 bytes; the array's 1200 bytes");
    /* an array inside one block is left as it is: no error */
    scenario s;
    io_error err;
    assert_true(load_tile("", "float", 1, 16, "128B", "", "0", &s, &err));
    scenario_free(&s);
    char json[256];
    snprintf(json, sizeof json,
             "{\"arrays\": [{\"name\": \"t\", \"type\": \"float\", \"dims\": [32], \"swizzle\": 128}],"
             " \"accesses\": [{\"op\": \"load\", \"array\": \"t\", \"index\": \"lane\"}]}");
    assert_false(test_load(json, &s, &err));
    assert_non_null(strstr(err.text, "arrays[0].swizzle: expected a string"));
}

/* Save writes the swizzle back as written, the loader reads it back, and a clone keeps it. */
static void test_save_round_trip(void **state)
{
    (void)state;
    scenario s, t, c;
    io_error err;
    assert_true(load_tile("", "bf16", 64, 64, "Swizzle<3,3,3>", "", "0", &s, &err));
    strbuf o = {0};
    save_scenario_json(&s, &o);
    assert_non_null(strstr(strbuf_str(&o), "\"swizzle\": \"Swizzle<3,3,3>\""));
    assert_true(test_load(strbuf_str(&o), &t, &err));
    assert_string_equal(t.arrays[0].swizzle, "Swizzle<3,3,3>");
    assert_int_equal(t.arrays[0].swz_base, 4);
    assert_true(scenario_clone(&t, &c));
    assert_string_equal(c.arrays[0].swizzle, "Swizzle<3,3,3>");
    assert_int_equal(c.arrays[0].swz_bits, 3);
    strbuf_free(&o);
    scenario_free(&s);
    scenario_free(&t);
    scenario_free(&c);
}

/* The explanation of a lane gives the offset, the swizzle step and the address the engine uses;
 * the access's explanation says how the swizzle's lines meet the rows. */
static void test_explain(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(load_tile("", "float", 32, 32, "128B", "", "8", &s, &err));
    scenario_instr in;
    banks_result r;
    scenario_instr_at(&s, 0, &in);
    banks_analyze(s.arch, &in.req, &r, NULL);
    explain_lines e;
    explain_lane(&s, &in, &r, 3, &e);
    assert_int_equal(in.lane[3].address, 400); /* t[3][8]: offset 416 = unit 2 of line 3; 2 ^ 3 = 1 */
    const char *want[] = {"offset = 3 * 128 + 8 * 4 = 416 B",
                          "128B swizzle: offset 416 is 16-byte unit 2 of 128-byte line 3; unit 2 ^ (3 % 8) = 1, "
                          "so it is stored at offset 400",
                          "address = 0 + 400 = 400 B"};
    for (int k = 0; k < 3; k++) {
        bool found = false;
        for (int i = 0; i < e.n; i++)
            found |= strcmp(e.line[i], want[k]) == 0;
        if (!found)
            print_error("missing line '%s'\n", want[k]);
        assert_true(found);
    }
    explain_lines_free(&e);
    explain_access(&s, &in, &r, &e);
    bool rows = false;
    for (int i = 0; i < e.n; i++)
        rows |= strstr(e.line[i], "rows are 128 B, exactly one line") != NULL;
    assert_true(rows);
    explain_lines_free(&e);
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offset_equals_expression),
        cmocka_unit_test(test_modes_and_addresses),
        cmocka_unit_test(test_vector_wider_than_unit),
        cmocka_unit_test(test_alignment),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_save_round_trip),
        cmocka_unit_test(test_explain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
