/* test_work: the one work limit of every front end. The interactive view's background jobs are
 * estimated as the commands that do the same work are (the totals as `analyze --summary`, the
 * advisor's sweep as `sweep --max-pad 32`), so a job starts exactly when the command would run
 * without --force; the compare variant is priced at its 34 analyses of one access. Forced jobs
 * and traces always start; a refusal's words are the commands'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/work.h"
#include "test_util.h"

/* A scenario of one array, block 1024, the loop to 4096 (the file caps), and n accesses, the
 * k-th indexed by index[k % m]. */
static void scenario_of(scenario *s, const char *const *index, int m, int n)
{
    strbuf sb = {0};
    strbuf_addf(&sb, "{\"block\": [1024], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 4096}, "
                     "\"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [8192]}], \"accesses\": [");
    for (int k = 0; k < n; k++)
        strbuf_addf(&sb, "%s{\"op\": \"load\", \"array\": \"a\", \"index\": \"%s\"}", k ? ", " : "", index[k % m]);
    strbuf_addf(&sb, "]}");
    io_error err;
    bool ok = load_scenario_text(sb.data, sb.len, "test.json", NULL, s, &err);
    strbuf_free(&sb);
    if (!ok)
        fail_msg("%s", err.text);
}

/* An index of terms sums (threadIdx.x * t + i) % 7, every one reading the loop. */
static const char *long_index(int terms, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "(i");
    for (int t = 1; t <= terms && k + 40 < n; t++)
        k += (size_t)snprintf(buf + k, n - k, "+(threadIdx.x*%d+i)%%7", t);
    snprintf(buf + k, n - k, ") %% 8192");
    return buf;
}

/* What analyze --summary without --force decides for s: whether it runs, and its message. */
static bool analyze_runs(const scenario *s, char *msg, size_t n)
{
    work_estimate e;
    work_estimate_analyze(s, -1, WORK_OUT_SUMMARY, true, &e);
    return work_within_limits(&e, "analyze", "--warp N or fewer loop iterations", "--summary or --warp N", msg, n);
}

/* The totals start exactly when analyze --summary runs, over loops of every length from a few
 * iterations to far over the limit, with indexes that read the loop in full, through slots, or
 * not at all; a refusal's cost is the words of analyze's message. */
static void test_totals_as_analyze(void **state)
{
    (void)state;
    static const char *const kinds[][2] = {{"(threadIdx.x * 33 + i * 7 + (i % 5) * threadIdx.x) % 8192",
                                            "(threadIdx.x * 7 + i * 3 + (i % 3) * threadIdx.x) % 8192"},
                                           {"(threadIdx.x + (i % 32)) % 8192", "threadIdx.x * 2"},
                                           {"threadIdx.x * 3", "(threadIdx.x ^ 5) % 8192"}};
    int refused = 0, admitted = 0;
    for (int k = 0; k < 3; k++)
        for (int n = 1; n <= SCENARIO_MAX_ACCESSES; n *= 2) {
            scenario s;
            scenario_of(&s, kinds[k], 2, n);
            work_estimate e;
            char msg[600], cost[200];
            bool runs = analyze_runs(&s, msg, sizeof msg);
            bool starts = work_job_admitted(&s, WORK_JOB_TOTALS, 0, false, &e);
            assert_int_equal(starts, runs);
            if (!starts) {
                refused++;
                work_cost_text(&e, cost, sizeof cost);
                assert_non_null(strstr(msg, cost)); /* "about N warp-instructions, about T s ..." */
                assert_true(e.cost_ns > WORK_MAX_NS);
            } else {
                admitted++;
            }
            assert_true(work_job_admitted(&s, WORK_JOB_TOTALS, 0, true, &e)); /* ! or --force */
            scenario_free(&s);
        }
    assert_true(refused > 0); /* both answers were reached */
    assert_true(admitted > 0);
}

/* The advisor's sweep starts exactly when `sweep --max-pad 32` runs without --force (1 access
 * is admitted, 8 are not). */
static void test_sweep_as_cli(void **state)
{
    (void)state;
    static const char *const index[] = {"(threadIdx.x * 3 + i) % 8192", "(threadIdx.x ^ i) % 8192"};
    int refused = 0, admitted = 0;
    for (int n = 1; n <= 8; n++) {
        scenario s;
        scenario_of(&s, index, 2, n);
        work_estimate cli, job;
        char msg[600];
        work_estimate_sweep(&s, 32, work_sweep_layouts(32), &cli);
        bool runs = work_within_limits(&cli, "sweep", "a smaller --max-pad", "a smaller --max-pad", msg, sizeof msg);
        bool starts = work_job_admitted(&s, WORK_JOB_SWEEP, 0, false, &job);
        assert_int_equal(starts, runs);
        if (!starts) {
            refused++;
            assert_int_equal(job.cost_ns, cli.cost_ns);
            assert_int_equal(job.instructions, cli.instructions);
        } else {
            admitted++;
        }
        scenario_free(&s);
    }
    assert_true(refused > 0);
    assert_true(admitted > 0);
}

/* The compare variant analyses its one access 34 times (the current padding and 0..32): it is
 * refused where the totals of the same scenario are not, its price grows with the access's
 * expression, and it is priced on its own access only. */
static void test_variant(void **state)
{
    (void)state;
    char big[EXPR_MAX_LEN];
    const char *index[] = {long_index(150, big, sizeof big), "threadIdx.x"};
    scenario s;
    scenario_of(&s, index, 2, 2);
    work_estimate t, v0, v1;
    assert_true(work_job_admitted(&s, WORK_JOB_TOTALS, 0, false, &t));
    assert_false(work_job_admitted(&s, WORK_JOB_VARIANT, 0, false, &v0));
    assert_true(work_job_admitted(&s, WORK_JOB_VARIANT, 0, true, &v0));
    work_estimate_job(&s, WORK_JOB_VARIANT, 0, &v0);
    work_estimate_job(&s, WORK_JOB_VARIANT, 1, &v1);
    int64_t per_access = (int64_t)scenario_selected_warps(&s) * s.iterations;
    assert_int_equal(v0.instructions, 34 * per_access);
    assert_int_equal(v1.instructions, 34 * per_access);
    assert_true(v0.cost_ns > v1.cost_ns); /* the larger expression costs more */
    assert_true(v0.cost_ns > WORK_MAX_NS);
    work_estimate_job(&s, WORK_JOB_VARIANT, 7, &v1); /* no such access: nothing */
    assert_int_equal(v1.cost_ns, 0);
    scenario_free(&s);
}

/* A trace costs what its file holds (as for analyze): its jobs always start; a library pattern's
 * jobs start too. */
static void test_small_and_traces(void **state)
{
    (void)state;
    strbuf sb = {0};
    strbuf_addf(&sb, "{\"trace\": [{\"op\": \"load\", \"width\": 4, \"addresses\": [");
    for (int l = 0; l < 32; l++)
        strbuf_addf(&sb, "%s%d", l ? "," : "", l * 4);
    strbuf_addf(&sb, "]}]}");
    scenario s;
    io_error err;
    assert_true(load_scenario_text(sb.data, sb.len, "t.json", NULL, &s, &err));
    strbuf_free(&sb);
    work_estimate e;
    for (int j = WORK_JOB_TOTALS; j <= WORK_JOB_VARIANT; j++)
        assert_true(work_job_admitted(&s, (work_job)j, 0, false, &e));
    scenario_free(&s);
    test_load_pattern("transpose-naive", &s);
    for (int j = WORK_JOB_TOTALS; j <= WORK_JOB_VARIANT; j++) {
        assert_true(work_job_admitted(&s, (work_job)j, 0, false, &e));
        assert_true(e.cost_ns > 0 && e.cost_ns <= WORK_MAX_NS);
    }
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_totals_as_analyze),
        cmocka_unit_test(test_sweep_as_cli),
        cmocka_unit_test(test_variant),
        cmocka_unit_test(test_small_and_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
