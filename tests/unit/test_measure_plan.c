/* test_measure_plan: what a GPU measurement is compared against, checked without a GPU: the
 * model's cycles are a prediction for every kind but cp.async (whose measured time includes
 * the copy from global memory); measurements are compared with the GPU's own architecture's model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/measure_plan.h"
#include "test_util.h"

/* cp.async: the plan says its cycles are not predicted; a load of the same scenario's kind is. */
static void test_cpasync_cycles_not_predicted(void **state)
{
    (void)state;
    const char *names[] = {"cpasync-fill-4", "cpasync-fill-16", "transpose-naive", "float4-32x32"};
    const bool predicted[] = {false, false, true, true};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        scenario s;
        test_load_pattern(names[i], &s);
        measure_plan p;
        char err[300];
        assert_true(measure_plan_make(&s, 0, 0, &p, err, sizeof err));
        if (p.cycles_predicted != predicted[i])
            fail_msg("%s: cycles_predicted %d, expected %d", names[i], p.cycles_predicted, predicted[i]);
        measure_plan_free(&p);
        scenario_free(&s);
    }
}

/* The model a measurement is compared with is the GPU's own: cc 1.x rules are never the
 * prediction for an sm_90, and the note says what was asked for and what is compared. */
static void test_compare_arch(void **state)
{
    (void)state;
    const banks_profile *sm90 = banks_profile_find("sm_90"), *sm13 = banks_profile_find("sm_13");
    const banks_profile *sm86 = banks_profile_find("sm_86"), *sm80 = banks_profile_find("sm_80");
    char note[400];
    assert_ptr_equal(measure_plan_compare_arch(sm90, 9, 0, note, sizeof note), sm90); /* the GPU's own */
    assert_string_equal(note, "");
    assert_ptr_equal(measure_plan_compare_arch(sm86, 8, 7, note, sizeof note), sm86); /* same family */
    assert_string_equal(note, "");
    assert_ptr_equal(measure_plan_compare_arch(banks_profile_find("sm_35_8byte"), 3, 5, note, sizeof note),
                     banks_profile_find("sm_35_8byte")); /* a bank mode of the same GPU */
    assert_string_equal(note, "");
    assert_ptr_equal(measure_plan_compare_arch(sm13, 9, 0, note, sizeof note), sm90);
    assert_non_null(strstr(note, "the sm_13 model"));
    assert_non_null(strstr(note, "is not what this GPU runs"));
    assert_non_null(strstr(note, "compared with the sm_90 model, the GPU's own"));
    assert_ptr_equal(measure_plan_compare_arch(sm80, 9, 0, note, sizeof note), sm90); /* no pairing on sm_80 */
    assert_non_null(strstr(note, "the sm_80 model"));
    /* a GPU bankscope has no model for: the chosen model, said to be a stand-in */
    assert_ptr_equal(measure_plan_compare_arch(sm90, 10, 0, note, sizeof note), sm90);
    assert_non_null(strstr(note, "no bank model for sm_100"));
    assert_null(measure_plan_gpu_arch(12, 0));
    assert_ptr_equal(measure_plan_gpu_arch(1, 3), sm13);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpasync_cycles_not_predicted),
        cmocka_unit_test(test_compare_arch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
