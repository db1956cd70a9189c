/* test_scenario: loading (with error positions), expansion into warp-instructions, traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/jsontree.h"
#include "io/save.h"
#include "io/work.h"
#include "model/scenario.h"
#include "test_util.h"

static banks_result analyze_k(const scenario *s, int64_t k, scenario_instr *in)
{
    banks_result r;
    scenario_instr_at(s, k, in);
    banks_analyze(s->arch, &in->req, &r, NULL);
    return r;
}

static const char *transpose =
    "{\"block\": [32, 32], \"arrays\": [{\"name\": \"tile\", \"type\": \"float\", \"dims\": [32, 32], \"pad\": %d}],\n"
    " \"accesses\": [{\"op\": \"load\", \"array\": \"tile\", \"index\": [\"threadIdx.x\", \"threadIdx.y\"]}]}";

static void test_transpose(void **state)
{
    (void)state;
    char json[512];
    scenario s;
    io_error err;
    scenario_instr in;
    for (int pad = 0; pad <= 1; pad++) {
        snprintf(json, sizeof json, transpose, pad);
        assert_true(test_load(json, &s, &err));
        assert_int_equal(scenario_instr_count(&s), 32);
        banks_result r = analyze_k(&s, 5, &in);
        assert_int_equal(in.warp, 5);
        assert_int_equal(r.conflict_degree, pad ? 1 : 32);
        assert_int_equal(r.wavefronts, pad ? 1 : 32);
        assert_int_equal(in.lane[1].index[0], 1);
        assert_int_equal(in.lane[1].index[1], 5);
        assert_int_equal(in.lane[1].address, (32 + pad) * 4 + 5 * 4);
        scenario_free(&s);
    }
}

/* The same column read written as a trace analyses identically. */
static void test_trace_column(void **state)
{
    (void)state;
    for (int pad = 0; pad <= 1; pad++) {
        strbuf sb = {0};
        strbuf_addf(
            &sb,
            "{\"name\": \"col\", \"arch\": \"sm_90\", \"trace\": [{\"op\": \"load\", \"width\": 4, \"addresses\": [");
        for (int l = 0; l < 32; l++)
            strbuf_addf(&sb, "%s%d", l ? ", " : "", l * (32 + pad) * 4);
        strbuf_addf(&sb, "]}, {\"op\": \"store\", \"width\": 8, \"addresses\": [0, null");
        for (int l = 2; l < 32; l++)
            strbuf_addf(&sb, ", %d", l * 8);
        strbuf_addf(&sb, "]}]}");
        scenario s;
        io_error err;
        scenario_instr in;
        assert_true(test_load(strbuf_str(&sb), &s, &err));
        assert_true(s.is_trace);
        assert_int_equal(scenario_instr_count(&s), 2);
        banks_result r = analyze_k(&s, 0, &in);
        assert_int_equal(r.wavefronts, pad ? 1 : 32);
        assert_int_equal(r.conflict_degree, pad ? 1 : 32);
        r = analyze_k(&s, 1, &in);
        assert_int_equal(r.active_lanes, 31);
        assert_int_equal(r.wavefronts, 2);
        scenario_free(&s);
        strbuf_free(&sb);
    }
}

static void test_loop_when_and_states(void **state)
{
    (void)state;
    const char *json =
        "{\"block\": 64, \"loop\": {\"var\": \"s\", \"from\": 32, \"to\": 0, \"div\": 2},"
        " \"arrays\": [{\"name\": \"d\", \"type\": \"float\", \"dims\": [64]}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"d\", \"index\": \"tid + s\", \"when\": \"tid < s\"},"
        "               {\"op\": \"store\", \"array\": \"d\", \"index\": \"tid * 2\"}]}";
    scenario s;
    io_error err;
    scenario_instr in;
    assert_true(test_load(json, &s, &err));
    assert_int_equal(s.iterations, 6); /* 32 16 8 4 2 1 */
    assert_int_equal(scenario_instr_count(&s), 6 * 2 * 2);
    banks_result r = analyze_k(&s, 4, &in); /* s = 16, access 0, warp 0 */
    assert_int_equal(in.loop_value, 16);
    assert_int_equal(r.active_lanes, 16);
    assert_int_equal(in.lane[20].state, SCENARIO_LANE_MASKED);
    r = analyze_k(&s, 3, &in); /* s = 32, access 1, warp 1: tid*2 up to 126 -> out of bounds */
    assert_int_equal(in.lane[0].state, SCENARIO_LANE_OOB);
    assert_int_equal(in.lane[0].bad_dim, 0);
    assert_int_equal(r.active_lanes, 0);
    r = analyze_k(&s, 2, &in);
    assert_int_equal(r.conflict_degree, 2);
    scenario_free(&s);
}

static void test_vector_and_field(void **state)
{
    (void)state;
    const char *json =
        "{\"structs\": [{\"name\": \"Vec3\", \"fields\": [\"float x\", \"float y\", \"float z\", \"float pad\"]}],"
        " \"arrays\": [{\"name\": \"p\", \"type\": \"Vec3\", \"dims\": [32]},"
        "              {\"name\": \"data\", \"type\": \"float\", \"dims\": [32, 32], \"pad\": 4}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"p\", \"index\": \"lane\", \"field\": \"y\"},"
        "               {\"op\": \"load\", \"array\": \"data\", \"index\": [\"lane\", \"0\"], \"vector\": \"float4\"},"
        "               {\"op\": \"load\", \"array\": \"data\", \"index\": [\"lane\", \"1\"], \"vector\": "
        "\"float4\"}]}";
    scenario s;
    io_error err;
    scenario_instr in;
    assert_true(test_load(json, &s, &err));
    assert_int_equal(s.arrays[1].start, 512);
    banks_result r = analyze_k(&s, 0, &in);
    assert_int_equal(in.lane[3].address, 3 * 16 + 4);
    assert_int_equal(r.conflict_degree, 4);
    r = analyze_k(&s, 1, &in);
    assert_int_equal(in.req.width, 16);
    assert_int_equal(r.wavefronts, 4); /* [32][36]: float4 column read conflict-free per quarter */
    r = analyze_k(&s, 2, &in);
    assert_int_equal(in.lane[0].state, SCENARIO_LANE_MISALIGNED);
    assert_int_equal(r.active_lanes, 0);
    strbuf sb = {0};
    scenario_lane_element(&s, 0, &in.lane[0], &sb);
    scenario_free(&s);
    strbuf_free(&sb);
}

static void expect_error(const char *json, const char *expected)
{
    scenario s;
    io_error err;
    assert_false(test_load(json, &s, &err));
    if (!strstr(err.text, expected))
        print_error("expected '%s' in '%s'\n", expected, err.text);
    assert_non_null(strstr(err.text, expected));
}

static void test_errors_with_positions(void **state)
{
    (void)state;
    expect_error("{\"arrays\": [", "test.json:1:13: malformed JSON (the file ends too early)");
    expect_error("{\n \"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [32]}],\n"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tx + foo\"}]}",
                 "test.json:3:59: accesses[0].index[0]: unknown identifier 'foo'");
    expect_error("{\"arrays\": [{\"name\": \"a\", \"type\": \"flaot\", \"dims\": [32]}],"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tx\"}]}",
                 "test.json:1:35: arrays[0].type: unknown element type");
    expect_error("{\"blok\": 3}", "test.json:1:10: blok: unknown key 'blok'");
    expect_error("{\"block\": [64, 32], \"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [32]}],"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tx\"}]}",
                 "block: a block has at most 1024 threads");
    expect_error("{\"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [65536, 65536]}],"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": [\"tx\", \"0\"]}]}",
                 "arrays[0].dims: array needs 17179869184 bytes");
    expect_error("{\"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [60000]}],"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tx\"}]}",
                 "sm_90 allows 232448 bytes");
    expect_error("{\"arrays\": [{\"name\": \"a\", \"type\": \"float3\", \"dims\": [32]}],"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tx\"}]}",
                 "one lane would move 12 bytes");
    expect_error("{\"trace\": [{\"op\": \"load\", \"width\": 8, \"addresses\": [0]}]}", "expected 32 addresses");
    expect_error("{\"trace\": [{\"op\": \"load\", \"width\": 3, \"addresses\": []}]}", "width is 1, 2, 4, 8 or 16");
    expect_error("{\"arrays\": [{\"name\": \"a b\", \"type\": \"float\", \"dims\": [32]}], \"accesses\": []}",
                 "must be a C identifier");
    expect_error("[1, 2]", "expected a JSON object");
    expect_error("{\"arch\": \"sm_99\"}", "unknown architecture");
    expect_error("{\"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [32]}],"
                 " \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 10, \"step\": -1},"
                 " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"i\"}]}",
                 "loop runs zero times");
    expect_error("{\"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [32]}],"
                 " \"accesses\": [{\"op\": \"read\", \"array\": \"a\", \"index\": \"tx\"}]}",
                 "op is \"load\", \"store\", \"ldmatrix\"");
}

/* The one JSON reader: positions of values in the side table, paths to the deepest part found,
 * every duplicate key refused at its position, a byte-order mark skipped. */
static void test_jsontree(void **state)
{
    (void)state;
    const char *t = "{\n  \"a\": [1, {\"b\": \"x\"}],\n  \"c\": {\"d\": [5, 6]}\n}";
    jsontree tr;
    jsontree_error je;
    assert_true(jsontree_parse(t, strlen(t), &tr, &je));
    jsontree_pos p = jsontree_locate(&tr, "a[1].b");
    assert_true(p.found);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.col, 18);
    p = jsontree_locate(&tr, "c.d[1]");
    assert_int_equal(p.line, 3);
    assert_int_equal(p.col, 18);
    p = jsontree_locate(&tr, "c.zz"); /* the deepest part found: c */
    assert_false(p.found);
    assert_int_equal(p.line, 3);
    assert_int_equal(p.col, 8);
    p = jsontree_at(&tr, cJSON_GetObjectItemCaseSensitive(tr.root, "a"));
    assert_true(p.found && p.line == 2 && p.col == 8);
    jsontree_free(&tr);
    const char *dup = "{\"a\": {\"x\": 1,\n \"y\": [{\"k\": 1, \"k\": 2}]}}";
    assert_false(jsontree_parse(dup, strlen(dup), &tr, &je));
    assert_string_equal(je.msg, "a.y[0].k: this key is given twice");
    assert_int_equal(je.line, 2);
    assert_int_equal(je.col, 17);
    const char *bom = "\xef\xbb\xbf{\"a\": 1}";
    assert_true(jsontree_parse(bom, strlen(bom), &tr, &je));
    assert_int_equal(jsontree_locate(&tr, "a").col, 7);
    jsontree_free(&tr);
    const char *bad = "{\"a\": [1,]}";
    assert_false(jsontree_parse(bad, strlen(bad), &tr, &je));
    assert_int_equal(je.col, 10); /* the ']' where a value must come */
    assert_non_null(strstr(je.msg, "malformed JSON"));
}

/* The evaluation check is bounded by lane evaluations (not instructions), finds an error within
 * its budget with its position, and stops when cancelled. */
static void test_check_eval_budget(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    /* may fail for the prover (a division by a lane-dependent value), never fails */
    assert_true(
        test_load("{\"block\": [64], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 64},"
                  " \"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [64]}],"
                  " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tid / ((tid ^ i) | 1)\"}]}",
                  &s, &err));
    assert_true(scenario_access_may_fail(&s, 0));
    /* fails at i = 63 only: the last instructions (k = 126, 127) */
    free(s.accesses[0].index_text[0]);
    s.accesses[0].index_text[0] = xstrdup("tid / ((tid ^ i) | 1) + 64 / (63 - i)");
    scenario_error se;
    assert_true(scenario_finish(&s, &se));
    int64_t per = BANKS_WARP * (1 + scenario_access_nodes(&s.accesses[0]));
    assert_int_equal(scenario_check_eval_run(&s, 126 * per, NULL, &se), SCENARIO_CHECK_OK);
    assert_int_equal(scenario_check_eval_run(&s, 127 * per, NULL, &se), SCENARIO_CHECK_FAILED);
    assert_string_equal(se.msg, "division by zero for thread (0,0,0), i = 63");
    assert_string_equal(se.path, "accesses[0].index[0]");
    assert_int_equal(se.expr_pos, 27); /* the '/' of 64 / (63 - i) */
    assert_false(scenario_check_eval(&s, INT64_MAX, &se));
    atomic_int cancel = 1;
    assert_int_equal(scenario_check_eval_run(&s, INT64_MAX, &cancel, &se), SCENARIO_CHECK_CANCELLED);
    scenario_free(&s);
}

/* The wavefronts of every warp-instruction of s, in order, into wf (at most n); the count. */
static int wavefront_list(const scenario *s, int64_t *wf, int n)
{
    int64_t cnt = scenario_instr_count(s);
    assert_true(cnt <= n);
    for (int64_t k = 0; k < cnt; k++) {
        scenario_instr in;
        banks_result r;
        scenario_instr_at(s, k, &in);
        banks_analyze(s->arch, &in.req, &r, NULL);
        wf[k] = r.wavefronts;
    }
    return (int)cnt;
}

/* A loop nest (an outer loop, an inner loop inside it, an access after the inner loop and one
 * after every loop) gives, instruction by instruction, what the same code unrolled by hand
 * gives; the saved file says version 2 and loads back the same; a v1 file keeps loading. */
static void test_loop_nest(void **state)
{
    (void)state;
    static const char nest[] =
        "{ \"block\": [64], \"arrays\": [ { \"name\": \"t\", \"type\": \"float\", \"dims\": [512] } ],\n"
        "  \"loops\": [ { \"var\": \"k\", \"from\": 0, \"to\": 4 },\n"
        "             { \"var\": \"i\", \"from\": 1, \"to\": 8, \"mul\": 2, \"in\": \"k\" } ],\n"
        "  \"accesses\": [ { \"op\": \"store\", \"array\": \"t\", \"index\": \"k * 64 + tx\", \"loop\": \"k\" },\n"
        "    { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx * i + k\", \"loop\": \"i\" },\n"
        "    { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx * 2 + k\", \"loop\": \"k\" },\n"
        "    { \"op\": \"store\", \"array\": \"t\", \"index\": \"tx * 4\" } ] }\n";
    strbuf un = {0}; /* the same by hand: for k { store; for i { load }; load } store */
    strbuf_addf(&un, "{ \"block\": [64], \"arrays\": [ { \"name\": \"t\", \"type\": \"float\", \"dims\": [512] } ],"
                     " \"accesses\": [");
    for (int k = 0; k < 4; k++) {
        strbuf_addf(&un, "%s{ \"op\": \"store\", \"array\": \"t\", \"index\": \"%d * 64 + tx\" }", k ? ", " : "", k);
        for (int i = 1; i < 8; i *= 2)
            strbuf_addf(&un, ", { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx * %d + %d\" }", i, k);
        strbuf_addf(&un, ", { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx * 2 + %d\" }", k);
    }
    strbuf_addf(&un, ", { \"op\": \"store\", \"array\": \"t\", \"index\": \"tx * 4\" } ] }");
    scenario a, b, c;
    io_error err;
    assert_true(test_load(nest, &a, &err));
    assert_true(test_load(strbuf_str(&un), &b, &err));
    assert_int_equal(a.iterations, 12);
    int64_t wa[128], wb[128];
    int na = wavefront_list(&a, wa, 128), nb = wavefront_list(&b, wb, 128);
    assert_int_equal(na, 2 * (4 * 5 + 1));
    assert_int_equal(na, nb);
    assert_memory_equal(wa, wb, sizeof wa[0] * (size_t)na);
    scenario_instr in;
    scenario_instr_at(&a, 4, &in); /* k = 0, i = 2: the second inner load */
    assert_int_equal(in.access, 1);
    strbuf it = {0};
    scenario_iteration_text(&a, in.access, in.iteration, &it);
    assert_string_equal(strbuf_str(&it), "k = 0, i = 2");
    strbuf_free(&it);
    /* saved as version 2, loaded back the same */
    strbuf sv = {0};
    save_scenario_json(&a, &sv);
    assert_non_null(strstr(strbuf_str(&sv), "\"version\": 2"));
    assert_non_null(strstr(strbuf_str(&sv), "\"in\": \"k\""));
    assert_true(test_load(strbuf_str(&sv), &c, &err));
    int64_t wc[128];
    assert_int_equal(wavefront_list(&c, wc, 128), na);
    assert_memory_equal(wa, wc, sizeof wa[0] * (size_t)na);
    /* an access using a loop variable that is not around it is refused at its position */
    static const char bad[] =
        "{ \"arrays\": [ { \"name\": \"t\", \"type\": \"float\", \"dims\": [512] } ],\n"
        "  \"loops\": [ { \"var\": \"k\", \"from\": 0, \"to\": 4 }, { \"var\": \"j\", \"from\": 0, \"to\": 2 } ],\n"
        "  \"accesses\": [ { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx + j\", \"loop\": \"k\" } ] }\n";
    scenario d;
    assert_false(test_load(bad, &d, &err));
    assert_non_null(strstr(err.text, "accesses[0].index[0]"));
    strbuf_free(&sv);
    strbuf_free(&un);
    scenario_free(&a);
    scenario_free(&b);
    scenario_free(&c);
}

/* The work estimate prices what analyze does: a warp-instruction by its expression nodes (a
 * fixed price plus one per node), a loop-invariant access in full once per warp, then at the
 * price of a repeat, and a per-slot access in full once per warp and key, then as a repeat
 * (unless its keys overflow the table: in full every time), unless the command does not take
 * that shortcut; and what sweep does: an analysis per padding and the layout search. */
static void test_work_estimate(void **state)
{
    (void)state;
    const char *json = "{\"block\": [64], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 100},"
                       " \"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [4096]}],"
                       " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"tid\"},"
                       " {\"op\": \"load\", \"array\": \"a\", \"index\": \"(tid * 3 + i) % 4096\"},"
                       " {\"op\": \"load\", \"array\": \"a\", \"index\": \"(tid + i % 4) % 4096\"}]}";
    scenario s;
    io_error err;
    assert_true(test_load(json, &s, &err));
    assert_true(scenario_access_loop_invariant(&s, 0));
    assert_false(scenario_access_loop_invariant(&s, 1));
    assert_false(scenario_access_loop_slotted(&s, 1));
    assert_true(scenario_access_loop_slotted(&s, 2));
    work_estimate full, shortcut, sweep;
    work_estimate_analyze(&s, -1, WORK_OUT_SUMMARY, false, &full);
    work_estimate_analyze(&s, -1, WORK_OUT_SUMMARY, true, &shortcut);
    int64_t n[3], each[3], sweep_each = 0;
    for (int a = 0; a < 3; a++) {
        n[a] = scenario_access_nodes(&s.accesses[a]);
        each[a] = WORK_NS_INSTR + WORK_NS_NODE * n[a];
        sweep_each += 11 * (WORK_NS_SWEEP_PAD + WORK_NS_SWEEP_PAD_NODE * n[a]) + WORK_NS_SWEEP_SEARCH +
                      WORK_NS_SWEEP_SEARCH_NODE * n[a];
    }
    assert_int_equal(full.instructions, 3 * 2 * 100);
    assert_int_equal(full.cost_ns, 2 * 100 * (each[0] + each[1] + each[2]));
    assert_int_equal(shortcut.cost_ns,
                     2 * (each[0] + 99 * WORK_NS_REPEAT) + 2 * 100 * each[1] + 2 * (4 * each[2] + 96 * WORK_NS_REPEAT));
    work_estimate_sweep(&s, 8, 10, &sweep);
    assert_int_equal(sweep.instructions, 10 * 3 * 2 * 100);
    assert_int_equal(sweep.cost_ns, 2 * 100 * sweep_each);
    work_estimate_repeat(&full, 3);
    assert_int_equal(full.cost_ns, 3 * 2 * 100 * (each[0] + each[1] + each[2]));
    char msg[400];
    assert_true(work_within_limits(&full, "analyze", "--warp N", "--summary", msg, sizeof msg));
    full.cost_ns = WORK_MAX_NS + 1;
    assert_false(work_within_limits(&full, "analyze", "--warp N", "--summary", msg, sizeof msg));
    assert_non_null(strstr(msg, "s of analysis, more than the limit of 20 s"));
    scenario_free(&s);
    /* 3000 keys per warp, two warps: more than the table holds, every instruction in full */
    const char *many = "{\"block\": [64], \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 4000},"
                       " \"arrays\": [{\"name\": \"a\", \"type\": \"float\", \"dims\": [4096]}],"
                       " \"accesses\": [{\"op\": \"load\", \"array\": \"a\", \"index\": \"(tid + i % 3000) % 4096\"}]}";
    assert_true(test_load(many, &s, &err));
    assert_true(scenario_access_loop_slotted(&s, 0));
    work_estimate_analyze(&s, -1, WORK_OUT_SUMMARY, true, &shortcut);
    assert_int_equal(shortcut.cost_ns,
                     2 * 4000 * (WORK_NS_INSTR + WORK_NS_NODE * scenario_access_nodes(&s.accesses[0])));
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_work_estimate),    cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_trace_column),     cmocka_unit_test(test_loop_when_and_states),
        cmocka_unit_test(test_vector_and_field), cmocka_unit_test(test_errors_with_positions),
        cmocka_unit_test(test_jsontree),         cmocka_unit_test(test_check_eval_budget),
        cmocka_unit_test(test_loop_nest),
    };
    return cmocka_run_group_tests_name("scenario", tests, NULL, NULL);
}
