/* test_kinds: the kinds table (src/model/kinds.c). The table-driven engine gives exactly the
 * answers the per-kind branches gave (tests/unit/kinds_reference.c, frozen) for every kind, width,
 * matrix count, atomic operation and architecture on random and structured addresses; each kind
 * knows the architectures that have it, its counters and its opcodes. */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/load.h"
#include "io/save.h"
#include "kinds_reference.h"
#include "model/banks.h"
#include "model/kinds.h"
#include "test_util.h"

/* Deterministic 64-bit generator (xorshift). */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Fill req with one of a few address shapes (strides, one word, random in a small window). */
static void fill_addresses(banks_request *req, uint64_t *seed)
{
    int shape = (int)(next_random(seed) % 5), w = req->width;
    int64_t stride = (int64_t)w << (next_random(seed) % 6), base = (int64_t)(next_random(seed) % 64) * w;
    req->active = (next_random(seed) % 3) ? 0xffffffffu : (uint32_t)next_random(seed);
    for (int l = 0; l < BANKS_WARP; l++) {
        int64_t a = shape == 0   ? base + l * stride
                    : shape == 1 ? base
                    : shape == 2 ? base + (l ^ 1) / 2 * w
                    : shape == 3 ? base + (l % 8) * 128
                                 : (int64_t)(next_random(seed) % 2048) * w;
        req->addr[l] = a;
    }
}

/* Same answers as the reference, field by field, grid included. */
static void check_same(const banks_profile *p, const banks_request *req)
{
    static banks_cell c1[BANKS_MAX_ROWS * BANKS_MAX_BANKS], c2[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
    banks_result a, b;
    kinds_reference_analyze(p, req, &b, c2);
    banks_analyze(p, req, &a, c1);
    assert_false(a.not_modelled);
    assert_int_equal(a.wavefronts, b.wavefronts);
    assert_int_equal(a.ideal_wavefronts, b.ideal_wavefronts);
    assert_int_equal(a.bank_conflicts, b.bank_conflicts);
    assert_int_equal(a.conflict_degree, b.conflict_degree);
    assert_int_equal(a.active_lanes, b.active_lanes);
    assert_int_equal(a.broadcast_lanes, b.broadcast_lanes);
    assert_int_equal(a.paired, b.paired);
    assert_int_equal(a.nphases, b.nphases);
    for (int g = 0; g < a.nphases; g++) {
        assert_int_equal(a.phase[g].lanes, b.phase[g].lanes);
        assert_int_equal(a.phase[g].wavefronts, b.phase[g].wavefronts);
        assert_int_equal(a.phase[g].first_row, b.phase[g].first_row);
    }
    for (int l = 0; l < BANKS_WARP; l++) {
        assert_int_equal(a.lane[l].phase, b.lane[l].phase);
        assert_int_equal(a.lane[l].wavefront, b.lane[l].wavefront);
        assert_int_equal(a.lane[l].broadcast, b.lane[l].broadcast);
    }
    int rows = a.wavefronts < BANKS_MAX_ROWS ? a.wavefronts : BANKS_MAX_ROWS;
    for (int i = 0; i < rows * p->banks; i++) {
        assert_int_equal(c1[i].lanes, c2[i].lanes);
        if (c1[i].lanes)
            assert_int_equal(c1[i].word, c2[i].word);
    }
    banks_analyze(p, req, &a, NULL); /* the fast kernels, without a grid */
    assert_int_equal(a.wavefronts, b.wavefronts);
    assert_int_equal(a.bank_conflicts, b.bank_conflicts);
    for (int rd = 0; rd < 2; rd++)
        assert_true(banks_issue_cycles(p, req, &a, rd) == kinds_reference_cycles(p, req, &b, rd));
}

/* Every op, width 0..17, matrices 0..4, atomic operation, returns, on every architecture: the
 * same refusal, and for the accepted ones the same analysis. */
static void test_same_as_before(void **state)
{
    (void)state;
    int np;
    const banks_profile *ps = banks_profiles(&np);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int compared = 0;
    for (int op = BANKS_LOAD; op <= BANKS_CP_ASYNC; op++)
        for (int width = 0; width <= 17; width++)
            for (int mats = 0; mats <= 4; mats++)
                for (int at = 0; at <= BANKS_ATOM_INC + 1; at++)
                    for (int ret = 0; ret < 2; ret++) {
                        banks_request req = {.op = (banks_op)op,
                                             .width = width,
                                             .matrices = mats,
                                             .atomic = (banks_atomic)at,
                                             .returns = ret,
                                             .trans = mats & 1};
                        const char *want = kinds_reference_problem(&req), *got = banks_request_problem(&req);
                        if (!want || !got)
                            assert_ptr_equal(want, got);
                        else
                            assert_string_equal(want, got);
                        if (want)
                            continue;
                        for (int i = 0; i < np; i++)
                            for (int k = 0; k < 6; k++) {
                                fill_addresses(&req, &seed);
                                check_same(&ps[i], &req);
                                compared++;
                            }
                    }
    assert_true(compared > 10000);
}

/* Names, file spellings and availability. */
static void test_rows(void **state)
{
    (void)state;
    int n;
    const kinds_row *t = kinds_table(&n);
    for (int op = 0; op < BANKS_OP_COUNT; op++) {
        assert_int_equal(t[op].op, op);
        assert_ptr_equal(kinds_of((banks_op)op), &t[op]);
        assert_non_null(t[op].ptx);
        assert_non_null(t[op].sass);
        assert_non_null(t[op].counters.wavefronts);
    }
    int not_modelled = 0;
    for (int i = 0; i < n; i++) {
        assert_ptr_equal(kinds_find(t[i].name), &t[i]);
        if (t[i].rule == KINDS_RULE_NOT_MODELLED) {
            not_modelled++;
            assert_non_null(t[i].not_modelled);
        }
    }
    assert_true(not_modelled >= 4); /* cp.async.cg, TMA, wgmma, distributed shared memory */
    assert_ptr_equal(kinds_find_op("cp.async", "cg"), kinds_of(BANKS_CP_ASYNC_CG));
    assert_ptr_equal(kinds_find_op("cp.async", "ca"), kinds_of(BANKS_CP_ASYNC));
    assert_ptr_equal(kinds_find_op("cp.async", NULL), kinds_of(BANKS_CP_ASYNC));
    assert_null(kinds_find_op("load", "cg"));
    assert_null(kinds_find_op("cp.async.cg", NULL));
    assert_null(kinds_find_op("wgmma", NULL));
    assert_string_equal(kinds_op_text(kinds_of(BANKS_CP_ASYNC_CG)), "cp.async");
    char msg[160];
    assert_string_equal(kinds_op_message(msg, sizeof msg),
                        "op is \"load\", \"store\", \"ldmatrix\", \"stmatrix\", \"atomic\" or \"cp.async\"");
    int np; /* every profile's compute capability is the one its name says */
    const banks_profile *ps = banks_profiles(&np);
    for (int i = 0; i < np; i++) {
        int cc = 0;
        assert_int_equal(sscanf(ps[i].name, "sm_%2d", &cc), 1);
        assert_int_equal(ps[i].cc, cc);
    }
    banks_op op;
    assert_false(banks_op_parse("cp.async.cg", &op));
    assert_true(banks_op_parse("cp.async", &op) && op == BANKS_CP_ASYNC);
    /* SASS opcodes: the longest spelling wins */
    assert_ptr_equal(kinds_find_sass("LDSM.16.M88.4"), kinds_of(BANKS_LDMATRIX));
    assert_ptr_equal(kinds_find_sass("STSM.16.MT88.2"), kinds_of(BANKS_STMATRIX));
    assert_ptr_equal(kinds_find_sass("LDS.128"), kinds_of(BANKS_LOAD));
    assert_ptr_equal(kinds_find_sass("ATOMS.CAS.64"), kinds_of(BANKS_ATOMIC));
    assert_ptr_equal(kinds_find_sass("LDGSTS.E.LTC128B.128"), kinds_of(BANKS_CP_ASYNC));
    assert_ptr_equal(kinds_find_sass("LDGSTS.E.BYPASS.LTC128B.128"), kinds_of(BANKS_CP_ASYNC_CG));
    assert_ptr_equal(kinds_find_sass("UTMALDG.2D"), kinds_find("cp.async.bulk"));
    assert_ptr_equal(kinds_find_sass("HGMMA.64x128x16.F32"), kinds_find("wgmma"));
    assert_ptr_equal(kinds_find_sass("ATOMS.POPC.INC.32"), kinds_of(BANKS_ATOMIC_POPC));
    assert_ptr_equal(kinds_find_sass("ATOMS.ADD"), kinds_of(BANKS_ATOMIC));
    assert_ptr_equal(kinds_find_sass("ATOMS.INC"), kinds_of(BANKS_ATOMIC));
    /* atomic.popc: "op": "atomic", "form": "popc" */
    assert_ptr_equal(kinds_find_form("atomic", "popc"), kinds_of(BANKS_ATOMIC_POPC));
    assert_null(kinds_find_form("load", "popc"));
    assert_null(kinds_find_form("atomic", "add"));
    assert_ptr_equal(kinds_find_op("atomic", NULL), kinds_of(BANKS_ATOMIC));
    const char *sel = NULL;
    assert_string_equal(kinds_select_key(kinds_of(BANKS_ATOMIC_POPC), &sel), "form");
    assert_string_equal(sel, "popc");
    assert_string_equal(kinds_select_key(kinds_of(BANKS_CP_ASYNC_CG), &sel), "cache");
    assert_string_equal(sel, "cg");
    assert_null(kinds_select_key(kinds_of(BANKS_ATOMIC), &sel));
    assert_false(banks_op_parse("atomic.popc", &op));
    assert_null(kinds_find_sass("LDSMX"));
    assert_null(kinds_find_sass("LD.E"));
}

/* Which architecture has which kind ([PTX] target ISA notes). */
static void test_architectures(void **state)
{
    (void)state;
    char buf[160];
    const banks_profile *sm90 = banks_profile_find("sm_90"), *sm80 = banks_profile_find("sm_80"),
                        *sm75 = banks_profile_find("sm_75"), *sm50 = banks_profile_find("sm_50"),
                        *sm35 = banks_profile_find("sm_35"), *cc1 = banks_profile_find("cc1x");
    const kinds_row *ld = kinds_of(BANKS_LOAD), *ldm = kinds_of(BANKS_LDMATRIX), *stm = kinds_of(BANKS_STMATRIX),
                    *at = kinds_of(BANKS_ATOMIC), *cp = kinds_of(BANKS_CP_ASYNC);
    assert_null(kinds_arch_problem(ld, 16, cc1, buf, sizeof buf));
    assert_null(kinds_arch_problem(ldm, 16, sm75, buf, sizeof buf));
    assert_string_equal(kinds_arch_problem(ldm, 16, sm50, buf, sizeof buf), "ldmatrix exists from sm_75, not on sm_50");
    assert_string_equal(kinds_arch_problem(stm, 16, sm80, buf, sizeof buf), "stmatrix exists from sm_90, not on sm_80");
    assert_null(kinds_arch_problem(stm, 16, sm90, buf, sizeof buf));
    assert_null(kinds_arch_problem(cp, 16, sm80, buf, sizeof buf));
    assert_string_equal(kinds_arch_problem(cp, 4, sm75, buf, sizeof buf), "cp.async exists from sm_80, not on sm_75");
    assert_null(kinds_arch_problem(at, 4, cc1, buf, sizeof buf)); /* sm_13: 32-bit shared atomics from sm_12 */
    assert_null(kinds_arch_problem(at, 8, sm35, buf, sizeof buf));
    assert_string_equal(kinds_arch_problem(at, 8, cc1, buf, sizeof buf),
                        "8-byte atomic exists from sm_20, not on sm_13");
    assert_string_equal(kinds_arch_problem(ldm, 16, banks_profile_find("sm_35_8byte"), buf, sizeof buf),
                        "ldmatrix exists from sm_75, not on sm_35_8byte");
}

/* A kind the model does not cover: no verdict, every count zero. */
static void test_not_modelled(void **state)
{
    (void)state;
    banks_request req = {.op = BANKS_CP_ASYNC_CG, .width = 16, .active = 0xffffffffu};
    for (int l = 0; l < BANKS_WARP; l++)
        req.addr[l] = 16 * l;
    assert_null(banks_request_problem(&req));
    req.width = 4;
    assert_string_equal(banks_request_problem(&req), "cp.async.cg copies 16 bytes");
    req.width = 16;
    static banks_cell cells[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
    banks_result r;
    banks_analyze(banks_profile_default(), &req, &r, cells);
    assert_true(r.not_modelled);
    assert_int_equal(r.wavefronts, 0);
    assert_int_equal(r.nphases, 0);
    assert_int_equal(banks_issue_cycles(banks_profile_default(), &req, &r, true), 0);
    req.op = BANKS_LOAD;
    banks_analyze(banks_profile_default(), &req, &r, NULL);
    assert_false(r.not_modelled);
}

/* "cache": "cg" survives saving (scenario and trace), and a kind the architecture lacks is refused
 * when the file is read, with its position. */
static void test_files(void **state)
{
    (void)state;
    static const char sc[] =
        "{ \"block\": [32], \"arrays\": [ { \"name\": \"t\", \"type\": \"float4\", \"dims\": [32] } ],\n"
        "  \"accesses\": [ { \"op\": \"cp.async\", \"cache\": \"cg\", \"array\": \"t\", "
        "\"index\": [\"tx\"] } ] }";
    scenario s, back;
    io_error err;
    assert_true(load_scenario_text(sc, sizeof sc - 1, "sc.json", NULL, &s, &err));
    assert_int_equal(s.accesses[0].op, BANKS_CP_ASYNC_CG);
    strbuf out = {0};
    save_scenario_json(&s, &out);
    assert_non_null(strstr(strbuf_str(&out), "\"op\": \"cp.async\", \"cache\": \"cg\""));
    assert_true(load_scenario_text(strbuf_str(&out), out.len, "saved.json", NULL, &back, &err));
    assert_int_equal(back.accesses[0].op, BANKS_CP_ASYNC_CG);
    scenario_free(&back);
    strbuf_free(&out);
    scenario_free(&s);
    assert_false(load_scenario_text(sc, sizeof sc - 1, "sc.json", "sm_75", &s, &err));
    assert_string_equal(err.text, "sc.json:2:25: accesses[0].op: cp.async.cg exists from sm_80, not on sm_75");
}

/* [H100p] atomic.popc: lanes on one word merge (wavefronts follow the most distinct words in one
 * bank, like a load); the same addresses as a plain atomic add count every lane. */
static void test_atomic_popc(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_request req = {.op = BANKS_ATOMIC_POPC, .width = 4, .active = 0xffffffffu};
    banks_result r;
    assert_null(banks_request_problem(&req));
    banks_analyze(p, &req, &r, NULL); /* every lane on word 0 */
    assert_int_equal(r.wavefronts, 1);
    assert_int_equal(r.ideal_wavefronts, 1);
    assert_int_equal(r.conflict_degree, 1);
    req.op = BANKS_ATOMIC;
    req.returns = false;
    banks_analyze(p, &req, &r, NULL);
    assert_int_equal(r.wavefronts, 32);
    req.op = BANKS_ATOMIC_POPC; /* lanes 0-15 on word 0, 16-31 on word 32 (bank 0 too): 2 words */
    for (int l = 16; l < 32; l++)
        req.addr[l] = 128;
    banks_analyze(p, &req, &r, NULL);
    assert_int_equal(r.wavefronts, 2);
    assert_int_equal(r.conflict_degree, 2);
    for (int l = 0; l < 32; l++) /* 32 lanes, 8 bins of one bank each 4 lanes apart: 8-way */
        req.addr[l] = 128 * (l % 8);
    banks_analyze(p, &req, &r, NULL);
    assert_int_equal(r.wavefronts, 8);
    req.width = 8;
    assert_string_equal(banks_request_problem(&req), "atomic.popc is a 4-byte add of 1");
    /* files: "op": "atomic", "form": "popc", saved the same way */
    static const char sc[] =
        "{ \"block\": [32], \"arrays\": [ { \"name\": \"h\", \"type\": \"unsigned\", \"dims\": [256] } ],\n"
        "  \"accesses\": [ { \"op\": \"atomic\", \"form\": \"popc\", \"array\": \"h\", "
        "\"index\": [\"tx % 8 * 32\"] } ] }";
    scenario s, back;
    io_error err;
    assert_true(load_scenario_text(sc, sizeof sc - 1, "sc.json", NULL, &s, &err));
    assert_int_equal(s.accesses[0].op, BANKS_ATOMIC_POPC);
    strbuf out = {0};
    save_scenario_json(&s, &out);
    assert_non_null(strstr(strbuf_str(&out), "\"op\": \"atomic\", \"form\": \"popc\""));
    assert_true(load_scenario_text(strbuf_str(&out), out.len, "saved.json", NULL, &back, &err));
    assert_int_equal(back.accesses[0].op, BANKS_ATOMIC_POPC);
    scenario_free(&back);
    strbuf_free(&out);
    scenario_free(&s);
    static const char bad[] = "{ \"block\": [32], \"arrays\": [ { \"name\": \"h\", \"type\": \"unsigned\", "
                              "\"dims\": [256] } ],\n  \"accesses\": [ { \"op\": \"atomic\", \"form\": \"popc\", "
                              "\"atomic\": \"add\", \"array\": \"h\", \"index\": [\"tx\"] } ] }";
    assert_false(load_scenario_text(bad, sizeof bad - 1, "bad.json", NULL, &s, &err));
    assert_non_null(strstr(err.text, "accesses[0].atomic: the popc form adds 1 and returns nothing"));
    static const char bad2[] = "{ \"block\": [32], \"arrays\": [ { \"name\": \"h\", \"type\": \"unsigned\", "
                               "\"dims\": [256] } ],\n  \"accesses\": [ { \"op\": \"load\", \"form\": \"popc\", "
                               "\"array\": \"h\", \"index\": [\"tx\"] } ] }";
    assert_false(load_scenario_text(bad2, sizeof bad2 - 1, "bad.json", NULL, &s, &err));
    assert_non_null(strstr(err.text, "accesses[0].form: only atomics take this key"));
}

/* The counters of each kind: what bankscope measure reads ([CUPTI], README). */
static void test_counters(void **state)
{
    (void)state;
    assert_string_equal(kinds_of(BANKS_LDMATRIX)->counters.instructions, "smsp__inst_executed_op_ldsm.sum");
    assert_string_equal(kinds_of(BANKS_STMATRIX)->counters.instructions, "smsp__inst_executed_op_shared_stsm.sum");
    assert_string_equal(kinds_of(BANKS_LDMATRIX)->counters.wavefronts,
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    assert_string_equal(kinds_of(BANKS_STORE)->counters.conflicts,
                        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    assert_string_equal(kinds_of(BANKS_ATOMIC)->counters.wavefronts,
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum");
    assert_string_equal(kinds_of(BANKS_CP_ASYNC)->counters.wavefronts,
                        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum");
    assert_int_equal(kinds_of(BANKS_LOAD)->counters.group, kinds_of(BANKS_STMATRIX)->counters.group);
    assert_true(kinds_of(BANKS_LOAD)->counters.group != kinds_of(BANKS_ATOMIC)->counters.group);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_before), cmocka_unit_test(test_rows),     cmocka_unit_test(test_architectures),
        cmocka_unit_test(test_not_modelled),   cmocka_unit_test(test_counters), cmocka_unit_test(test_atomic_popc),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
