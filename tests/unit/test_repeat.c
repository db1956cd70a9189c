/* test_repeat: the shortcuts for work that repeats give exactly the answers of doing it again.
 * An instruction source hands out the instructions of loop-invariant accesses from a table built
 * at their first iteration (instr_source_next_ref); banks_memo answers identical requests from
 * a table. An access that reads the loops only through the slots of its expressions ("i % 3")
 * is built once per warp and slot values and handed out from a table too. Over every library
 * pattern on every architecture and random scenarios (loops used or not by each access, 'when',
 * selected warps), each instruction equals scenario_instr_at's (or scenario_instr_build's for one
 * warp), a table slot always names the same request, and each result is banks_analyze's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/instr_source.h"
#include "io/library.h"
#include "io/load.h"
#include "model/banks_memo.h"
#include "test_random.h"
#include "test_util.h"

static int64_t served_from_slot; /* instructions handed out from a table, over all the tests */

/* The source's instructions of s (all selected warps, then warp w alone) against building each
 * anew, and the memo's results (a large table and a two-slot one that keeps replacing) against
 * banks_analyze. Returns the instructions compared. */
static int64_t compare_all(const scenario *s, int w)
{
    int64_t n = 0;
    banks_memo big, tiny;
    banks_memo_init(&big, 12);
    banks_memo_init(&tiny, 1);
    for (int pass = 0; pass < 2; pass++) {
        instr_source src;
        instr_source_scenario(&src, s, pass ? w : -1);
        scenario_instr buf, want;
        int64_t slot;
        const scenario_instr *in;
        int64_t k = 0;
        /* the request first handed out under each slot: a slot names one request (the report
         * keeps one result per slot) */
        banks_request *by_slot = NULL;
        int64_t nslots = 0;
        while ((in = instr_source_next_ref(&src, &buf, &slot))) {
            if (slot >= 0) {
                if (!by_slot) {
                    nslots = instr_source_slots(&src);
                    by_slot = calloc((size_t)nslots, sizeof *by_slot);
                    for (int64_t i = 0; i < nslots; i++)
                        by_slot[i].width = 0; /* no request yet */
                }
                assert_true(slot < nslots);
                if (by_slot[slot].width == 0)
                    by_slot[slot] = in->req;
                else
                    assert_true(banks_request_equal(&by_slot[slot], &in->req));
                served_from_slot++;
            }
            if (pass == 0 || s->is_trace) {
                scenario_instr_at(s, k, &want);
            } else {
                scenario_instr_build(s, in->access, in->iteration, w, &want);
                want.seq = in->seq;
                assert_true(scenario_access_active(s, in->access, in->iteration) || !s->iter_first);
            }
            test_instr_equal(in, &want);
            banks_result r0, r1, r2;
            banks_analyze(s->arch, &want.req, &r0, NULL);
            banks_memo_analyze(&big, s->arch, &in->req, &r1);
            banks_memo_analyze(&tiny, s->arch, &in->req, &r2);
            test_result_equal(&r0, &r1);
            test_result_equal(&r0, &r2);
            k++;
        }
        free(by_slot);
        assert_false(src.failed);
        if (pass == 0)
            assert_int_equal(k, scenario_instr_count(s));
        n += k;
        instr_source_close(&src);
    }
    banks_memo_free(&big);
    banks_memo_free(&tiny);
    return n;
}

static void compare_library_scenario(const scenario *s, void *ctx)
{
    (void)ctx;
    compare_all(s, scenario_warp_count(s) - 1);
}

static void test_library_patterns(void **state)
{
    (void)state;
    int scenarios = test_each_library_scenario(compare_library_scenario, NULL);
    printf("# %d library scenarios x architectures compared\n", scenarios);
    assert_true(scenarios > 50);
}

static test_rng rng = {.state = 12345};
static unsigned rnd(unsigned n)
{
    return test_rnd(&rng, n);
}

/* A random scenario: 1-2 loops, accesses that read a loop variable or not, some with 'when'. */
static void random_scenario(char *buf, size_t n, bool nest)
{
    static const char *const idx_inv[] = {"tx", "ty * 4 + tx % 4", "lane * 2", "(tid * 3) % 64", "warp + lane"};
    static const char *const idx_var[] = {"(tx + i) % 64", "(i * 4 + lane) % 64", "(tid + i * 7) % 64",
                                          "(tx * 2 + i % 3) % 64"};
    int bx = 1 + (int)rnd(64), by = 1 + (int)rnd(4);
    int na = 1 + (int)rnd(6);
    size_t k = 0;
    test_json_addf(buf, n, &k, "{\"block\": [%d, %d], ", bx, by);
    if (nest) {
        int ni = 2 + (int)rnd(5), nj = 1 + (int)rnd(4);
        test_json_addf(buf, n, &k,
                       "\"loops\": [{\"var\": \"i\", \"from\": 0, \"to\": %d}, {\"var\": \"j\", \"from\": 0, "
                       "\"to\": %d, \"in\": \"i\"}], ",
                       ni, nj);
    } else
        test_json_addf(buf, n, &k, "\"loop\": {\"var\": \"i\", \"from\": 0, \"to\": %d}, ", 1 + (int)rnd(40));
    if (rnd(3) == 0)
        test_json_addf(buf, n, &k, "\"warps\": [0, %d], ", (bx * by - 1) / 32);
    const char *type = rnd(2) ? "float" : "double";
    int pad = (int)rnd(3);
    test_json_addf(buf, n, &k,
                   "\"arrays\": [{\"name\": \"t\", \"type\": \"%s\", \"dims\": [64], \"pad\": %d}], \"accesses\": [",
                   type, pad);
    for (int a = 0; a < na; a++) {
        bool var = rnd(2);
        const char *ix = var ? idx_var[rnd(4)] : idx_inv[rnd(5)];
        test_json_addf(buf, n, &k, "%s{\"op\": \"%s\", \"array\": \"t\", \"index\": \"%s\"", a ? ", " : "",
                       rnd(2) ? "load" : "store", ix);
        if (rnd(3) == 0)
            test_json_addf(buf, n, &k, ", \"when\": \"%s\"", rnd(2) ? "lane % 3 != 1" : "lane < 20 - i");
        if (nest)
            test_json_addf(buf, n, &k, ", \"loop\": \"%s\"", rnd(3) == 0 ? "i" : "j");
        test_json_addf(buf, n, &k, "}");
    }
    test_json_addf(buf, n, &k, "]}");
}

static void test_random_scenarios(void **state)
{
    (void)state;
    char text[4096];
    int loaded = 0, invariant = 0, slotted = 0;
    int64_t instrs = 0;
    for (int t = 0; t < 300; t++) {
        random_scenario(text, sizeof text, t % 3 == 2);
        scenario s;
        io_error err;
        if (!load_scenario_text(text, strlen(text), "random.json", NULL, &s, &err)) {
            /* "lane < 20 - i" reads the loop only where a loop exists: always here */
            fail_msg("%s: %s", text, err.text);
        }
        for (int a = 0; a < s.naccesses; a++) {
            invariant += scenario_access_loop_invariant(&s, a);
            slotted += !scenario_access_loop_invariant(&s, a) && scenario_access_loop_slotted(&s, a);
        }
        instrs += compare_all(&s, (int)rnd((unsigned)scenario_warp_count(&s)));
        scenario_free(&s);
        loaded++;
    }
    printf("# %d random scenarios (%d loop-invariant accesses, %d that read the loop only through slots), %lld "
           "instructions compared, %lld of them handed out from a table\n",
           loaded, invariant, slotted, (long long)instrs, (long long)served_from_slot);
    assert_true(invariant > 100);
    assert_true(slotted > 50);
}

/* An access reads the loop or not: the test that decides which instructions are repeats. */
static void test_invariance(void **state)
{
    (void)state;
    const char *text = "{\"block\": [32], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 4}, \"arrays\": [{\"name\": "
                       "\"t\", \"type\": \"float\", \"dims\": [64]}], \"accesses\": [{\"op\": \"load\", \"array\": "
                       "\"t\", \"index\": \"lane\"}, {\"op\": \"load\", \"array\": \"t\", \"index\": \"lane + i\"}, "
                       "{\"op\": \"load\", \"array\": \"t\", \"index\": \"lane\", \"when\": \"lane > i\"}]}";
    scenario s;
    io_error err;
    assert_true(load_scenario_text(text, strlen(text), "t.json", NULL, &s, &err));
    assert_true(scenario_access_loop_invariant(&s, 0));
    assert_false(scenario_access_loop_invariant(&s, 1));
    assert_false(scenario_access_loop_invariant(&s, 2));
    instr_source src;
    instr_source_scenario(&src, &s, -1);
    scenario_instr buf;
    int64_t slot, slots[12];
    int n = 0;
    const scenario_instr *in;
    while ((in = instr_source_next_ref(&src, &buf, &slot)))
        slots[n++] = slot;
    assert_int_equal(n, 12);
    for (int it = 0; it < 4; it++) { /* access 0 from its table entry at every iteration */
        assert_int_equal(slots[it * 3], slots[0]);
        assert_true(slots[it * 3] >= 0);
        assert_int_equal(slots[it * 3 + 1], -1);
        assert_int_equal(slots[it * 3 + 2], -1);
    }
    instr_source_close(&src);
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_invariance),
        cmocka_unit_test(test_library_patterns),
        cmocka_unit_test(test_random_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
