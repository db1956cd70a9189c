/* test_measure_plan: what a GPU measurement is compared against, checked without a GPU: the
 * model's cycles are a prediction for every kind but cp.async (whose measured time includes
 * the copy from global memory). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/measure_plan.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpasync_cycles_not_predicted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
