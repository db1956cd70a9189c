/* test_tensor: the tensor-era access kinds (ldmatrix, stmatrix, shared atomics, cp.async) against
 * every row of the H200 calibration table tests/data/h200_tensor.tsv, and which instructions the
 * model accepts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/banks.h"
#include "model/scenario.h"
#include "test_util.h"

/* Every measured row: wavefronts and bank conflicts equal the counters; cycles within 5 % + 0.1
 * (cp.async: the measured cycles include the global load, which the model does not predict). */
static void test_calibration_tensor(void **state)
{
    (void)state;
    char path[512];
    FILE *f = fopen(test_path("data/h200_tensor.tsv", path, sizeof path), "r");
    assert_non_null(f);
    const banks_profile *p = banks_profile_find("sm_90");
    char line[4096];
    int rows = 0, bad = 0, kinds[6] = {0};
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "id\t", 3) == 0)
            continue;
        char id[128], op[32];
        int width, wf, bc, used;
        double cyc;
        if (sscanf(line, "%127s %31s %d %d %d %lf %n", id, op, &width, &wf, &bc, &cyc, &used) != 6)
            continue;
        banks_request r = {.width = width};
        assert_true(scenario_kind_parse(op, &r));
        assert_null(banks_request_problem(&r));
        char *q = line + used;
        for (int l = 0; l < 32; l++) {
            long long a = strtoll(q, &q, 10);
            if (a >= 0) {
                r.active |= 1u << l;
                r.addr[l] = a;
            }
        }
        banks_result res;
        banks_analyze(p, &r, &res, NULL);
        rows++;
        kinds[r.op]++;
        if (res.wavefronts != wf || res.bank_conflicts != bc) {
            bad++;
            print_error("%s: model %d/%d, hardware %d/%d\n", id, res.wavefronts, res.bank_conflicts, wf, bc);
        }
        double pred = banks_issue_cycles(p, &r, &res, true);
        if (r.op != BANKS_CP_ASYNC && fabs(cyc - pred) > 0.05 * pred + 0.1) {
            bad++;
            print_error("%s: model %.2f cycles, hardware %.3f\n", id, pred, cyc);
        }
        assert_int_equal(res.wavefronts, res.ideal_wavefronts + res.bank_conflicts);
    }
    fclose(f);
    assert_true(rows >= 1000);
    assert_true(kinds[BANKS_LDMATRIX] > 0 && kinds[BANKS_STMATRIX] > 0 && kinds[BANKS_ATOMIC] > 0 &&
                kinds[BANKS_CP_ASYNC] > 0);
    assert_int_equal(bad, 0);
}

static banks_request matrix_req(int matrices, int64_t pitch)
{
    banks_request r = {.op = BANKS_LDMATRIX, .width = 16, .matrices = matrices, .active = 0xffffffffu};
    for (int l = 0; l < 32; l++)
        r.addr[l] = (l % 16) * pitch + (l / 16) * 16;
    return r;
}

/* The rules in small: a bf16 tile of 64 columns (128-byte rows) read with ldmatrix.x4 is 8-way;
 * padding the row by 16 bytes makes it conflict-free; lanes past 8 x matrices are ignored. */
static void test_matrix_rules(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_result res;
    banks_request r = matrix_req(4, 128);
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 32);
    assert_int_equal(res.conflict_degree, 8);
    r = matrix_req(4, 144);
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 4);
    assert_int_equal(res.bank_conflicts, 0);
    r = matrix_req(1, 144);
    for (int l = 8; l < 32; l++)
        r.addr[l] = 0; /* ignored */
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 1);
    assert_int_equal(res.active_lanes, 8);
    assert_int_equal(res.lane[9].phase, -1);
    /* one row for all lanes of a matrix: a broadcast */
    for (int l = 0; l < 8; l++)
        r.addr[l] = 256;
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 1);
    assert_int_equal(res.broadcast_lanes, 7);
}

/* Atomics: same-address lanes serialise; cas takes two passes; 8-byte exch a cycle per phase. */
static void test_atomic_rules(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_request r = {
        .op = BANKS_ATOMIC, .width = 4, .atomic = BANKS_ATOM_ADD, .returns = true, .active = 0xffffffffu};
    banks_result res;
    banks_analyze(p, &r, &res, NULL); /* every lane on address 0 */
    assert_int_equal(res.wavefronts, 32);
    assert_int_equal(res.bank_conflicts, 31);
    assert_int_equal(res.broadcast_lanes, 0);
    for (int l = 0; l < 32; l++)
        r.addr[l] = 4 * l;
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 1);
    r.atomic = BANKS_ATOM_CAS;
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 2);
    assert_int_equal(res.bank_conflicts, 0);
    r.width = 8;
    r.atomic = BANKS_ATOM_EXCH;
    r.active = 1u << 3;
    r.addr[3] = 64;
    banks_analyze(p, &r, &res, NULL);
    assert_int_equal(res.wavefronts, 1);
    assert_true(fabs(banks_issue_cycles(p, &r, &res, true) - 2.0) < 1e-9);
}

/* What the model refuses, with a reason. */
static void test_problems(void **state)
{
    (void)state;
    banks_request r = {.op = BANKS_ATOMIC, .width = 8, .atomic = BANKS_ATOM_ADD, .returns = true};
    assert_non_null(strstr(banks_request_problem(&r), "compare-and-swap"));
    r.atomic = BANKS_ATOM_CAS;
    assert_null(banks_request_problem(&r));
    r.returns = false;
    assert_non_null(banks_request_problem(&r));
    r = (banks_request){.op = BANKS_LDMATRIX, .width = 16, .matrices = 3};
    assert_non_null(banks_request_problem(&r));
    r = (banks_request){.op = BANKS_CP_ASYNC, .width = 2};
    assert_non_null(banks_request_problem(&r));
    banks_op op;
    assert_true(banks_op_parse("cp.async", &op) && op == BANKS_CP_ASYNC);
    assert_false(banks_op_parse("ldsm", &op));
    assert_string_equal(banks_op_name(BANKS_STMATRIX), "stmatrix");
    /* the instruction's text and its parser agree */
    const char *texts[] = {"ldmatrix.x4.trans", "stmatrix.x1", "atom.cas", "red.inc", "cp.async", "load", "store"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        banks_request k = {0};
        char buf[32];
        assert_true(scenario_kind_parse(texts[i], &k));
        assert_string_equal(scenario_kind_text(&k, buf, sizeof buf), texts[i]);
    }
    banks_request k = {0};
    assert_false(scenario_kind_parse("ldmatrix.x3", &k));
    assert_false(scenario_kind_parse("atom.fetch", &k));
}

/* CuTe's Swizzle<B,M,S>: x ^ shiftr(x & (((1 << B) - 1) << (M + max(0, S))), S). */
static int64_t cute_swizzle(int b, int m, int sh, int64_t x)
{
    int64_t y = x & ((((int64_t)1 << b) - 1) << (m + (sh > 0 ? sh : 0)));
    return x ^ (sh >= 0 ? y >> sh : y << -sh);
}

/* swizzle(B, M, S, x) in index expressions equals CuTe's Swizzle<B,M,S> on every lane, and the
 * TMA 128B pattern is Swizzle<3,4,3> on byte offsets. */
static void test_swizzle_expression(void **state)
{
    (void)state;
    const int cases[][3] = {{3, 4, 3}, {3, 3, 3}, {2, 4, 3}, {1, 4, 3}, {5, 0, 5}, {2, 0, -3}, {3, 1, 6}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char json[512];
        snprintf(
            json, sizeof json,
            "{\"block\": [32], \"arrays\": [{\"name\": \"A\", \"type\": \"char\", \"dims\": [65536]}],"
            " \"accesses\": [{\"op\": \"load\", \"array\": \"A\", \"index\": \"swizzle(%d, %d, %d, lane * 37 + 5)\"}]}",
            cases[c][0], cases[c][1], cases[c][2]);
        scenario s;
        io_error err;
        if (!test_load(json, &s, &err))
            fail_msg("%s", err.text);
        scenario_instr in;
        scenario_instr_at(&s, 0, &in);
        for (int l = 0; l < 32; l++)
            assert_int_equal(in.lane[l].address, cute_swizzle(cases[c][0], cases[c][1], cases[c][2], l * 37 + 5));
        scenario_free(&s);
    }
    scenario s;
    io_error err;
    assert_false(
        test_load("{\"block\": [32], \"arrays\": [{\"name\": \"A\", \"type\": \"int\", \"dims\": [64]}],"
                  " \"accesses\": [{\"op\": \"load\", \"array\": \"A\", \"index\": \"swizzle(3, 2, 1, lane)\"}]}",
                  &s, &err));
    assert_non_null(strstr(err.text, "|S| must be at least B"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration_tensor), cmocka_unit_test(test_matrix_rules),
        cmocka_unit_test(test_atomic_rules),       cmocka_unit_test(test_problems),
        cmocka_unit_test(test_swizzle_expression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
