/* test_advisor: occupancy arithmetic, the padding sweep, swizzle and SoA alternatives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/library.h"
#include "model/advisor.h"
#include "model/scenario_edit.h"
#include "test_util.h"

static void test_occupancy(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    advisor_row r;
    advisor_occupancy(p, 1024, 4096, &r); /* threads: 2048 / 1024 */
    assert_int_equal(r.blocks_per_sm, 2);
    assert_string_equal(r.limit, "threads");
    advisor_occupancy(p, 256, 49152, &r); /* (48 KB + 1 KB reserved) per block: 233472 / 50176 = 4 */
    assert_int_equal(r.blocks_per_sm, 4);
    assert_string_equal(r.limit, "shared");
    assert_true(r.occupancy > 0.49 && r.occupancy < 0.51);
    advisor_occupancy(p, 32, 128, &r); /* block slots: 32 */
    assert_int_equal(r.blocks_per_sm, 32);
    assert_string_equal(r.limit, "blocks");
    advisor_occupancy(p, 32, 300000, &r); /* too big for a block */
    assert_int_equal(r.blocks_per_sm, 0);
}

static void test_sweep_transpose(void **state)
{
    (void)state;
    scenario s;
    test_load_pattern("transpose-naive", &s);
    static advisor_result r;
    assert_true(advisor_sweep(&s, advisor_pick_array(&s), 64, &r));
    assert_int_equal(r.nrows, 65);
    assert_int_equal(r.best_pad, 1);
    assert_int_equal(r.rows[0].worst_degree, 32);
    assert_int_equal(r.rows[2].worst_degree, 2);
    assert_int_equal(r.rows[32].worst_degree, 32);
    assert_int_equal(r.rows[1].smem_bytes - r.rows[0].smem_bytes, 128);
    assert_true(r.swizzle);
    assert_int_equal(r.swizzled.wavefronts, r.swizzled.ideal);
    assert_int_equal(s.arrays[0].pad[1], 0); /* restored */
    assert_string_equal(s.accesses[1].index_text[1], "threadIdx.y");
    scenario_free(&s);
}

static void test_sweep_alignment_and_soa(void **state)
{
    (void)state;
    scenario s;
    static advisor_result r;
    test_load_pattern("float4-32x32", &s);
    assert_true(advisor_sweep(&s, 0, 8, &r));
    assert_false(r.rows[1].valid);
    assert_int_equal(r.best_pad, 4);
    scenario_free(&s);
    test_load_pattern("struct-mixed", &s);
    assert_true(advisor_sweep(&s, 0, 2, &r));
    assert_true(r.soa);
    /* one array per field: d 8 B (2 wavefronts), v 16 B (4), c and s (1 each), all conflict-free */
    assert_int_equal(r.soa_row.wavefronts, 2 + 4 + 1 + 1);
    assert_int_equal(r.soa_row.worst_degree, 1);
    scenario_free(&s);
}

/* Totals of every warp-instruction of the accesses to array: wavefronts, ideal, excluded lanes. */
static void array_totals(const scenario *s, int array, int64_t *wf, int64_t *ideal, int64_t *excl)
{
    *wf = *ideal = *excl = 0;
    scenario_instr in;
    banks_result r;
    scenario_excluded ex;
    for (int64_t k = 0; k < scenario_instr_count(s); k++) {
        scenario_instr_at(s, k, &in);
        if (s->accesses[in.access].array != array)
            continue;
        banks_analyze(s->arch, &in.req, &r, NULL);
        scenario_instr_excluded(&in, &ex);
        *wf += r.wavefronts;
        *ideal += r.ideal_wavefronts;
        *excl += scenario_excluded_total(&ex);
    }
}

/* The brute force: Swizzle<b,m,sh> (m on element offsets) of a 2-D array written into every
 * access's index expressions with the expression function swizzle( ), analysed in full. */
static bool brute_works(const scenario *s0, int array, int b, int m, int sh, int64_t *wf)
{
    scenario s;
    assert_true(scenario_clone(s0, &s));
    int64_t cols = s.arrays[array].extent[1];
    for (int i = 0; i < s.naccesses; i++) {
        scenario_access *a = &s.accesses[i];
        if (a->array != array)
            continue;
        char flat[600], t0[700], t1[700];
        snprintf(flat, sizeof flat, "swizzle(%d, %d, %d, (%s) * %lld + (%s))", b, m, sh, a->index_text[0],
                 (long long)cols, a->index_text[1]);
        snprintf(t0, sizeof t0, "(%s) / %lld", flat, (long long)cols);
        snprintf(t1, sizeof t1, "(%s) %% %lld", flat, (long long)cols);
        free(a->index_text[0]);
        free(a->index_text[1]);
        a->index_text[0] = strdup(t0);
        a->index_text[1] = strdup(t1);
    }
    scenario_error e;
    assert_true(scenario_finish(&s, &e));
    int64_t ideal, excl;
    array_totals(&s, array, wf, &ideal, &excl);
    scenario_free(&s);
    return *wf == ideal && excl == 0;
}

/* The search on a 2-D pattern equals the brute force over the same swizzles: it finds one
 * exactly when one works, its answer works and no cheaper swizzle (fewer bits with no extra
 * bytes, or a TMA mode) does, and its numbers are the analysis of the layout applied. */
static void check_against_brute_force(const char *pattern)
{
    scenario s;
    test_load_pattern(pattern, &s);
    static advisor_search sr;
    int array = advisor_pick_array(&s);
    assert_true(advisor_search_layouts(&s, array, 0, NULL, &sr));
    assert_true(sr.complete);
    const scenario_array *arr = &s.arrays[array];
    int le = __builtin_ctzll((uint64_t)arr->elem_size);
    int widest = 1;
    for (int i = 0; i < s.naccesses; i++)
        if (s.accesses[i].array == array && s.accesses[i].width > widest)
            widest = s.accesses[i].width;
    int lu = __builtin_ctzll((uint64_t)(widest > arr->elem_size ? widest : arr->elem_size));
    int top = 63 - __builtin_clzll((uint64_t)(arr->dims[0] * arr->dims[1] * arr->elem_size));
    int any = 0, best_b = 99, tma_b = 99;
    for (int b = 1; b <= 5; b++)
        for (int m = lu; m <= lu + 3; m++)
            for (int sh = b; m + sh + b <= top; sh++) {
                int64_t wf;
                if (!brute_works(&s, array, b, m - le, sh, &wf))
                    continue;
                any++;
                if (b < best_b)
                    best_b = b;
                if (m == 4 && sh == 3 && b <= 3 && b < tma_b)
                    tma_b = b;
            }
    int64_t wf, ideal, excl;
    array_totals(&s, array, &wf, &ideal, &excl);
    bool plain = wf == ideal && excl == 0;
    assert_int_equal(sr.found, any > 0 || plain);
    if (sr.found && !plain) {
        assert_true(sr.best.works);
        assert_int_equal(sr.best.extra_bytes, 0);
        if (tma_b < 99) {
            assert_int_equal(sr.best.kind, ADVISOR_LAYOUT_TMA);
            assert_int_equal(sr.best.bits, tma_b);
        } else {
            assert_int_equal(sr.best.bits, best_b);
        }
        int64_t bw;
        assert_true(brute_works(&s, array, sr.best.bits, sr.best.base - le, sr.best.shift, &bw));
        assert_int_equal(sr.best.wavefronts, bw);
    }
    for (int i = 0; i < sr.nnear; i++) {
        int64_t nw;
        assert_false(sr.near[i].works);
        if (sr.near[i].kind != ADVISOR_LAYOUT_XOR) {
            brute_works(&s, array, sr.near[i].bits, sr.near[i].base - le, sr.near[i].shift, &nw);
            assert_int_equal(sr.near[i].wavefronts, nw);
        }
    }
    scenario_free(&s);
}

static void test_search_brute_force(void **state)
{
    (void)state;
    const char *const pats[] = {"gemm-bf16-tile",  "gemm-bf16-trans", "gemm-stmatrix-epilogue",
                                "transpose-naive", "float4-32x32",    "char-32x128",
                                "double-32x32"};
    for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++)
        check_against_brute_force(pats[i]);
}

/* The bf16 GEMM tile filled by 16-byte cp.async and read by ldmatrix.x4: the TMA 128B swizzle
 * (no extra bytes) is chosen over padding 8 (+1024 B), in every notation, and the scenario is
 * left as it was. */
static void test_search_gemm_tile(void **state)
{
    (void)state;
    scenario s;
    test_load_pattern("gemm-bf16-tile", &s);
    static advisor_result r;
    assert_true(advisor_sweep(&s, 0, 8, &r));
    assert_int_equal(r.best_pad, 8); /* padding works too, but costs bytes */
    assert_true(r.nsearch >= 1);
    const advisor_search *sr = &r.search[0];
    assert_true(sr->found);
    assert_true(sr->complete);
    assert_int_equal(sr->best.extra_bytes, 0);
    assert_int_equal(sr->best.kind, ADVISOR_LAYOUT_TMA);
    assert_string_equal(sr->best.option, "128B");
    assert_string_equal(sr->best.tma, "CU_TENSOR_MAP_SWIZZLE_128B");
    assert_string_equal(sr->best.cute, "Swizzle<3,3,3>");
    assert_string_equal(sr->best.cute_bytes, "Swizzle<3,4,3>");
    assert_string_equal(sr->best.c_text, "A[r][c ^ ((r & 7) << 3)]");
    assert_string_equal(sr->best.c_flat, "i ^ (((i >> 6) & 7) << 3) with i = r * 64 + c");
    assert_true(sr->best.works);
    int64_t wf, ideal, excl;
    array_totals(&s, 0, &wf, &ideal, &excl);
    assert_int_equal(sr->current.wavefronts, wf); /* the array as it is */
    assert_true(sr->current.wavefronts > sr->current.ideal);
    assert_int_equal(sr->best.ideal, ideal);
    assert_true(sr->sample < wf); /* confirmed beyond the sample */
    assert_true(sr->checked >= 1);
    /* the closest are not conflict-free and say by how much */
    assert_true(sr->nnear > 0);
    assert_true(sr->near[0].wavefronts > sr->near[0].ideal);
    /* applied to a copy, the layout analyses as the search said */
    scenario c;
    char msg[200];
    assert_true(scenario_clone(&s, &c));
    assert_true(advisor_apply_layout(&c, 0, &sr->best, msg, sizeof msg));
    array_totals(&c, 0, &wf, &ideal, &excl);
    assert_int_equal(wf, sr->best.wavefronts);
    assert_int_equal(wf, ideal);
    assert_int_equal(excl, 0);
    assert_int_equal(r.swizzled.wavefronts, wf); /* the old row: the same layout, the same bytes */
    assert_int_equal(r.swizzled.smem_bytes, c.smem_bytes);
    scenario_free(&c);
    /* restored */
    assert_string_equal(s.accesses[0].index_text[0], "k + tid / 8");
    assert_string_equal(s.accesses[1].index_text[1], "k + (lane / 16) * 8");
    assert_int_equal(s.arrays[0].pad[1], 0);
    /* the old fields say the same */
    assert_true(r.swizzle);
    assert_string_equal(r.swizzle_tma, "128B");
    assert_string_equal(r.swizzle_cute, "Swizzle<3,3,3>");
    scenario_free(&s);
}

/* Atomics of many lanes on one bin: no layout separates lanes on one address, and the search
 * says so instead of reporting a layout. */
static void test_search_none(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load("{\"block\": [32], \"arrays\": [{\"name\": \"bins\", \"type\": \"int\", \"dims\": [256]}],"
                          " \"accesses\": [{\"op\": \"atomic\", \"atomic\": \"add\", \"array\": \"bins\","
                          " \"index\": \"lane / 4\"}]}",
                          &s, &err));
    static advisor_search sr;
    assert_true(advisor_search_layouts(&s, 0, 8, NULL, &sr));
    assert_false(sr.found);
    assert_true(sr.complete);
    /* every swizzle moves the four lanes of a word together: none is better than none, so no
     * "closest swizzle" is offered */
    assert_int_equal(sr.nnear, 0);
    scenario_free(&s);
    /* a column read of float[32][32]: the near misses offered are better than the array as it is */
    assert_true(test_load(
        "{\"block\": [32, 32], \"arrays\": [{\"name\": \"t\", \"type\": \"float\", \"dims\": [32, 32]}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"t\", \"index\": [\"threadIdx.x\", \"threadIdx.y\"]}]}",
        &s, &err));
    assert_true(advisor_search_layouts(&s, 0, 0, NULL, &sr));
    for (int i = 0; i < sr.nnear; i++)
        assert_true(sr.near[i].wavefronts < sr.current.wavefronts);
    scenario_free(&s);
}

/* A 1-D array of structs read by field: padding cannot change the banks (one answer for every
 * padding), and reordering the fields is offered where it shrinks the struct. */
static void test_struct_array_advice(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(
        test_load("{\"block\": [32], \"structs\": [{\"name\": \"M\", \"fields\": [\"char c\", \"double d\", \"short "
                  "s\", \"float4 v\", \"char tag[3]\"]}],"
                  " \"arrays\": [{\"name\": \"m\", \"type\": \"M\", \"dims\": [32]}],"
                  " \"accesses\": [{\"op\": \"load\", \"array\": \"m\", \"index\": \"tid\", \"field\": \"d\"}]}",
                  &s, &err));
    static advisor_result r;
    assert_true(advisor_sweep(&s, 0, 4, &r));
    assert_non_null(advisor_padding_no_effect(&s, &r));
    assert_string_equal(advisor_padding_no_effect(&s, &r), "1-D");
    assert_true(r.soa);
    assert_true(r.reorder);
    assert_int_equal(s.types.structs[0].size, 64);
    assert_int_equal(r.reorder_size, 32);
    assert_true(r.reorder_row.wavefronts < r.rows[0].wavefronts);
    scenario_free(&s);
    /* {char c; double d; short s} (24 B) reordered is 16 B: 2-way where 24 B is conflict-free
     * for 8-byte reads, so reordering is not offered */
    assert_true(test_load(
        "{\"block\": [32], \"structs\": [{\"name\": \"M\", \"fields\": [\"char c\", \"double d\", \"short s\"]}],"
        " \"arrays\": [{\"name\": \"m\", \"type\": \"M\", \"dims\": [32]}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"m\", \"index\": \"tid\", \"field\": \"d\"}]}",
        &s, &err));
    assert_true(advisor_sweep(&s, 0, 4, &r));
    assert_false(r.reorder);
    scenario_free(&s);
}

/* A loop whose first iteration is conflict-free in every layout but whose second reads a
 * column: the sample cannot decide, the confirmation on every instruction does. */
static void test_search_confirms(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load("{\"block\": [32], \"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [32, 32]}],"
                          " \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 3, \"step\": 1},"
                          " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": [\"lane * (i % 2)\", \"lane "
                          "* (1 - i % 2)\"]}]}",
                          &s, &err));
    static advisor_search sr;
    assert_true(advisor_search_layouts(&s, 0, 4, NULL, &sr));
    assert_true(sr.found);
    assert_true(sr.best.works);
    assert_true(sr.checked >= 1);
    assert_string_equal(sr.best.cute, "Swizzle<5,0,5>");
    scenario c;
    char msg[200];
    int64_t wf, ideal, excl;
    assert_true(scenario_clone(&s, &c));
    assert_true(advisor_apply_layout(&c, 0, &sr.best, msg, sizeof msg));
    array_totals(&c, 0, &wf, &ideal, &excl);
    assert_int_equal(wf, ideal);
    assert_int_equal(excl, 0);
    scenario_free(&c);
    scenario_free(&s);
}

/* An array that already has a swizzle option: the search starts from it ("now"), tries the
 * others without it, and gives it back. */
static void test_search_from_swizzled(void **state)
{
    (void)state;
    scenario s;
    test_load_pattern("gemm-bf16-tile", &s);
    s.arrays[0].swizzle = strdup("64B");
    scenario_error e;
    assert_true(scenario_finish(&s, &e));
    int64_t wf, ideal, excl;
    array_totals(&s, 0, &wf, &ideal, &excl);
    static advisor_search sr;
    assert_true(advisor_search_layouts(&s, 0, 8, NULL, &sr));
    assert_string_equal(sr.current.option, "64B");
    assert_int_equal(sr.current.wavefronts, wf);
    assert_false(sr.current.wavefronts == sr.current.ideal);
    assert_true(sr.found);
    assert_string_equal(sr.best.option, "128B");
    assert_string_equal(s.arrays[0].swizzle, "64B");
    assert_int_equal(s.arrays[0].swz_bits, 2);
    int64_t wf2;
    array_totals(&s, 0, &wf2, &ideal, &excl);
    assert_int_equal(wf2, wf);
    scenario_free(&s);
}

/* The row XOR of a row that is not a power of two (a rewrite of the last index): applied, the
 * column read of a 32x96 float tile is conflict-free; the search restores the index texts it
 * tried it with. */
static void test_row_xor(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load("{\"block\": [32], \"arrays\": [{\"name\": \"t\", \"type\": \"float\", \"dims\": [32, 96]}],"
                          " \"accesses\": [{\"op\": \"load\", \"array\": \"t\", \"index\": [\"lane\", \"0\"]},"
                          " {\"op\": \"store\", \"array\": \"t\", \"index\": [\"0\", \"lane\"]}]}",
                          &s, &err));
    static advisor_search sr;
    assert_true(advisor_search_layouts(&s, 0, 2, NULL, &sr));
    assert_string_equal(s.accesses[0].index_text[1], "0");
    assert_string_equal(s.accesses[1].index_text[1], "lane");
    advisor_layout l = {.kind = ADVISOR_LAYOUT_XOR, .bits = 5, .base = 0};
    scenario c;
    char msg[200];
    int64_t wf, ideal, excl;
    assert_true(scenario_clone(&s, &c));
    assert_true(advisor_apply_layout(&c, 0, &l, msg, sizeof msg));
    assert_string_equal(c.accesses[0].index_text[1], "(0) ^ (((lane) % 32) * 1)");
    array_totals(&c, 0, &wf, &ideal, &excl);
    assert_int_equal(wf, ideal);
    assert_int_equal(excl, 0);
    scenario_free(&c);
    scenario_free(&s);
}

/* A stencil tile that follows a 16x16 block (tile[18][18]) is 2-way and needs padding 30 to be
 * conflict-free; the same 256 threads as 32x8 with tile[10][34] are conflict-free with 64 more
 * bytes. Shapes that read out of the tile are refused; a tile that does not follow the block
 * (the transpose) gets no shape. */
static void test_block_shape(void **state)
{
    (void)state;
    const char *json =
        "{\"block\": [16, 16], \"arrays\": [{\"name\": \"tile\", \"type\": \"float\", \"dims\": [18, 18]}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"tile\", \"index\": [\"ty + 1\", \"tx + 1\"]},"
        "  {\"op\": \"load\", \"array\": \"tile\", \"index\": [\"ty\", \"tx + 1\"]},"
        "  {\"op\": \"load\", \"array\": \"tile\", \"index\": [\"ty + 1\", \"tx + 2\"]}]}";
    scenario s;
    io_error err;
    assert_true(test_load(json, &s, &err));
    static advisor_result r;
    assert_true(advisor_sweep(&s, 0, 64, &r));
    assert_int_equal(r.best_pad, 30);
    assert_true(r.block.tried && r.block.found);
    assert_int_equal(r.block.block[0], 32);
    assert_int_equal(r.block.block[1], 8);
    assert_int_equal(r.block.dims[0], 10);
    assert_int_equal(r.block.dims[1], 34);
    assert_int_equal(r.block.row.smem_bytes, 10 * 34 * 4);
    assert_int_equal(r.block.row.wavefronts, r.block.row.ideal);
    assert_string_equal(r.block.text, "block 32x8 with tile[10][34]");
    /* the scenario is restored */
    assert_int_equal(s.block[0], 16);
    assert_int_equal(s.arrays[0].dims[1], 18);
    assert_int_equal(s.smem_bytes, 18 * 18 * 4);
    scenario_free(&s);

    test_load_pattern("transpose-naive", &s); /* tile[32][32], block 32x32: 64x16 reads out of it */
    advisor_block b;
    advisor_block_shape(&s, 0, NULL, &b);
    assert_false(b.found);
    scenario_free(&s);
}

/* A cancel hook that says stop from its n-th call on. */
typedef struct cancel_at {
    int calls, at;
} cancel_at;

static bool cancel_from(void *ctx)
{
    cancel_at *c = ctx;
    return ++c->calls >= c->at;
}

/* The sweep stops inside an analysis when its hook cancels (the interactive view's jobs stay
 * cancellable on any scenario): a padding's row whose analysis was stopped is marked so, and no
 * later stage runs to its end. */
static void test_sweep_cancelled(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load("{\"block\": [1024], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 64}, "
                          "\"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [64, 64]}], "
                          "\"accesses\": [{\"op\": \"load\", \"array\": \"a\", "
                          "\"index\": [\"threadIdx.x % 64\", \"(threadIdx.x / 64 + i) % 64\"]}]}",
                          &s, &err));
    assert_true(scenario_instr_count(&s) > 1024);
    static advisor_result r;
    for (int at = 1; at <= 40; at++) {
        cancel_at c = {0, at};
        assert_false(advisor_sweep_hooked(&s, 0, 32, &(advisor_hooks){.cancelled = cancel_from, .ctx = &c}, &r));
        assert_true(r.cancelled);
        assert_true(c.calls <= at + 1); /* once told, it asks at most once more */
        if (at == 3) { /* padding 0 asked, its analysis at instruction 0, then at 1024: stopped there */
            assert_int_equal(r.nrows, 1);
            assert_false(r.rows[0].valid);
            assert_string_equal(r.rows[0].why, "cancelled");
        }
    }
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy),
        cmocka_unit_test(test_sweep_transpose),
        cmocka_unit_test(test_sweep_alignment_and_soa),
        cmocka_unit_test(test_search_gemm_tile),
        cmocka_unit_test(test_search_brute_force),
        cmocka_unit_test(test_search_none),
        cmocka_unit_test(test_struct_array_advice),
        cmocka_unit_test(test_search_confirms),
        cmocka_unit_test(test_search_from_swizzled),
        cmocka_unit_test(test_row_xor),
        cmocka_unit_test(test_block_shape),
        cmocka_unit_test(test_sweep_cancelled),
    };
    return cmocka_run_group_tests_name("advisor", tests, NULL, NULL);
}
