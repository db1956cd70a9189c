/* test_advisor: occupancy arithmetic, the padding sweep, swizzle and SoA alternatives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/library.h"
#include "model/advisor.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_occupancy),
        cmocka_unit_test(test_sweep_transpose),
        cmocka_unit_test(test_sweep_alignment_and_soa),
    };
    return cmocka_run_group_tests_name("advisor", tests, NULL, NULL);
}
