/* test_build: the warp-instruction builder (scenario_instr_build, lanes worked out as vectors)
 * writes exactly what the first builder wrote a lane at a time (tests/unit/scenario_reference.c),
 * every field of every lane, and scenario_instr_build_brief the same request and lane states.
 * Over every library pattern on every architecture and random scenarios made to reach every lane
 * state: blocks that leave lanes without a thread, 'when' false or failing, indexes that fail
 * (division by zero, bad shift, overflow) or leave the array, vectors past the end, misaligned
 * addresses, swizzles, ldmatrix of 1 and 2 matrices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/library.h"
#include "io/load.h"
#include "model/banks_memo.h"
#include "scenario_reference.h"
#include "test_random.h"
#include "test_util.h"

/* Every instruction of s (up to max of them) built three ways; the count of each lane state
 * into states[]. Returns the instructions compared. */
static int64_t compare_builds(const scenario *s, int64_t max, int64_t *states)
{
    int64_t n = 0;
    for (int it = 0; it < s->iterations; it++)
        for (int a = 0; a < s->naccesses; a++)
            for (int w = 0; w < scenario_warp_count(s) && n < max; w++, n++) {
                scenario_instr want, got, brief;
                memset(&want, 0x5a, sizeof want); /* any field left unwritten differs */
                memset(&got, 0xa5, sizeof got);
                memset(&brief, 0x33, sizeof brief);
                scenario_reference_build(s, a, it, w, &want);
                scenario_instr_build(s, a, it, w, &got);
                scenario_instr_build_brief(s, a, it, w, &brief);
                test_instr_equal(&got, &want);
                assert_true(banks_request_equal(&brief.req, &want.req));
                assert_int_equal(brief.iteration, want.iteration);
                assert_int_equal(brief.access, want.access);
                assert_int_equal(brief.warp, want.warp);
                for (int l = 0; l < BANKS_WARP; l++) {
                    assert_int_equal(brief.lane[l].state, want.lane[l].state);
                    states[want.lane[l].state]++;
                }
            }
    return n;
}

/* What the library's scenarios add up to: instructions compared and lanes in each state. */
typedef struct build_counts {
    int64_t instrs, states[6];
} build_counts;

static void compare_library_scenario(const scenario *s, void *ctx)
{
    build_counts *c = ctx;
    c->instrs += compare_builds(s, 4096, c->states);
}

static void test_library_patterns(void **state)
{
    (void)state;
    build_counts c = {.instrs = 0};
    int scenarios = test_each_library_scenario(compare_library_scenario, &c);
    printf("# %d library scenarios x architectures, %lld instructions compared\n", scenarios, (long long)c.instrs);
    assert_true(scenarios > 50);
}

static test_rng rng = {.state = 4321};
static unsigned rnd(unsigned n)
{
    return test_rnd(&rng, n);
}

/* Expressions that fail for some lanes (division by zero, bad shift, overflow): the loader's
 * evaluation check refuses them, so they are put in after loading, as an edit does. */
static const char *const failing_idx[] = {"tx / (lane % 4)", "(lane << (i + 60)) % 50",
                                          "(tid * 4611686018427387904 + lane) % 50", "lane % (3 - i)"};
static const char *const failing_when[] = {"64 / (lane - 7) > 1", "(lane << (62 + i)) > 0"};

/* A random scenario whose lanes reach every state but expression errors. */
static void random_scenario(char *buf, size_t n)
{
    static const char *const idx[] = {"tx",       "(tx + i) % 40",      "lane * 3 + i",
                                      "tid - 40", "ty * 4 + tz",        "i ? lane : 2",
                                      "lane ^ i", "(tid * 7) % 50 - i", "warp * 8 + lane % 8"};
    static const char *const when[] = {"lane % 3 != 1", "tid < 40 - i", "i || lane > 4"};
    static const char *const types[] = {"float", "double", "char", "short", "float4", "int2"};
    int bx = 1 + (int)rnd(48), by = 1 + (int)rnd(3), bz = 1 + (int)rnd(2);
    int ndims = 1 + (int)rnd(3), na = 1 + (int)rnd(4);
    size_t k = 0;
    test_json_addf(buf, n, &k, "{\"block\": [%d, %d, %d], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": %d}, ", bx,
                   by, bz, 1 + (int)rnd(4));
    const char *type = types[rnd(6)];
    test_json_addf(buf, n, &k, "\"arrays\": [{\"name\": \"t\", \"type\": \"%s\", \"dims\": [", type);
    for (int d = 0; d < ndims; d++)
        test_json_addf(buf, n, &k, "%s%d", d ? ", " : "", 8 + (int)rnd(50));
    test_json_addf(buf, n, &k, "], \"pad\": %d", (int)rnd(2));
    if (rnd(3) == 0 && strcmp(type, "float4") != 0)
        test_json_addf(buf, n, &k, ", \"swizzle\": \"Swizzle<2,0,3>\"");
    test_json_addf(buf, n, &k, "}], \"accesses\": [");
    for (int a = 0; a < na; a++) {
        test_json_addf(buf, n, &k, "%s{\"op\": \"%s\", \"array\": \"t\", \"index\": [", a ? ", " : "",
                       rnd(2) ? "load" : "store");
        for (int d = 0; d < ndims; d++)
            test_json_addf(buf, n, &k, "%s\"%s\"", d ? ", " : "", idx[rnd(9)]);
        test_json_addf(buf, n, &k, "]");
        if (rnd(3) == 0)
            test_json_addf(buf, n, &k, ", \"when\": \"%s\"", when[rnd(3)]);
        if (rnd(4) == 0 && (strcmp(type, "char") == 0 || strcmp(type, "float") == 0))
            test_json_addf(buf, n, &k, ", \"vector\": \"int2\""); /* wider than the element */
        test_json_addf(buf, n, &k, "}");
    }
    test_json_addf(buf, n, &k, "]}");
}

/* Put a failing expression into some index or 'when' of s, as an edit would; false when the
 * scenario no longer finishes (left as it was then). */
static bool add_failures(scenario *s)
{
    for (int a = 0; a < s->naccesses; a++) {
        scenario_access *x = &s->accesses[a];
        if (rnd(2) == 0)
            continue;
        char **text = rnd(3) == 0 ? &x->when_text : &x->index_text[rnd((unsigned)x->nidx)];
        free(*text);
        *text = strdup(text == &x->when_text ? failing_when[rnd(2)] : failing_idx[rnd(4)]);
    }
    scenario_error se;
    return scenario_finish(s, &se);
}

static void test_random_scenarios(void **state)
{
    (void)state;
    char text[4096];
    int loaded = 0;
    int64_t instrs = 0, states[6] = {0};
    for (int t = 0; t < 3000; t++) {
        random_scenario(text, sizeof text);
        scenario s;
        io_error err;
        if (!load_scenario_text(text, strlen(text), "random.json", NULL, &s, &err))
            continue; /* a vector the element cannot hold, a swizzle the shape refuses */
        if (t % 2 && !add_failures(&s))
            fail_msg("%s: no longer finishes with a failing expression", text);
        instrs += compare_builds(&s, 1 << 20, states);
        scenario_free(&s);
        loaded++;
    }
    printf("# %d random scenarios, %lld instructions compared; lanes ok %lld, no thread %lld, masked %lld, out of "
           "bounds %lld, misaligned %lld, expression errors %lld\n",
           loaded, (long long)instrs, (long long)states[SCENARIO_LANE_OK], (long long)states[SCENARIO_LANE_NO_THREAD],
           (long long)states[SCENARIO_LANE_MASKED], (long long)states[SCENARIO_LANE_OOB],
           (long long)states[SCENARIO_LANE_MISALIGNED], (long long)states[SCENARIO_LANE_EVAL_ERROR]);
    assert_true(loaded > 1000);
    for (int st = 0; st < 6; st++) /* every state reached */
        assert_true(states[st] > 0);
}

/* ldmatrix of 1 and 2 matrices: the lanes past 8 x matrices are masked after they were built. */
static void test_matrix_rows(void **state)
{
    (void)state;
    for (int m = 1; m <= 4; m *= 2) {
        char text[600];
        snprintf(text, sizeof text,
                 "{\"arch\": \"sm_90\", \"block\": [64], \"arrays\": [{\"name\": \"A\", \"type\": \"bf16\", \"dims\": "
                 "[64, 64]}], \"accesses\": [{\"op\": \"ldmatrix\", \"matrices\": %d, \"array\": \"A\", \"index\": "
                 "[\"lane %% 16 + lane / 28\", \"(lane / 16) * 8\"]}]}",
                 m);
        scenario s;
        io_error err;
        if (!load_scenario_text(text, strlen(text), "m.json", NULL, &s, &err))
            fail_msg("%s", err.text);
        int64_t states[6] = {0};
        compare_builds(&s, 100, states);
        scenario_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrix_rows),
        cmocka_unit_test(test_library_patterns),
        cmocka_unit_test(test_random_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
