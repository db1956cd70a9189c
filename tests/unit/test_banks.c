/* test_banks: the bank engine against every row of the H200 calibration set, the documented
 * rules of the legacy profiles, and the original engine (banks_reference.c) on random requests. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "banks_reference.h"
#include "model/banks.h"
#include "model/banks_fast.h"
#include "test_random.h"
#include "test_util.h"

static banks_request stride_req(banks_op op, int width, int64_t stride_bytes)
{
    banks_request r = {.op = op, .width = width, .active = 0xffffffffu};
    for (int l = 0; l < 32; l++)
        r.addr[l] = l * stride_bytes;
    return r;
}

/* Every measured row: wavefronts and Nsight Compute bank conflicts must match exactly. */
static void test_calibration_h200(void **state)
{
    (void)state;
    char path[512];
    FILE *f = fopen(test_path("data/h200_dev.tsv", path, sizeof path), "r");
    assert_non_null(f);
    const banks_profile *p = banks_profile_find("sm_90");
    char line[4096];
    int rows = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "id\t", 3) == 0)
            continue;
        char id[128], op[8];
        int width, wf, bc;
        double cyc;
        int used;
        if (sscanf(line, "%127s %7s %d %d %d %lf %n", id, op, &width, &wf, &bc, &cyc, &used) != 6)
            continue;
        banks_request r = {.op = strcmp(op, "st") == 0 ? BANKS_STORE : BANKS_LOAD, .width = width};
        char *q = line + used;
        for (int l = 0; l < 32; l++) {
            long long a = strtoll(q, &q, 10);
            if (a >= 0) {
                r.active |= 1u << l;
                r.addr[l] = a;
            }
        }
        banks_result res, port;
        banks_analyze(p, &r, &res, NULL);
        banks_analyze_portable(p, &r, &port, NULL); /* the path of CPUs without AVX-512 */
        rows++;
        if (res.wavefronts != wf || res.bank_conflicts != bc || port.wavefronts != wf || port.bank_conflicts != bc) {
            bad++;
            print_error("%s: model %d/%d (portable %d/%d), hardware %d/%d\n", id, res.wavefronts, res.bank_conflicts,
                        port.wavefronts, port.bank_conflicts, wf, bc);
        }
        /* the table's cycles were measured storing zeros (see kernels/measure.cu) */
        double pred = banks_issue_cycles(p, &r, &res, false);
        if (fabs(cyc - pred) > 0.05 * pred + 0.1) {
            bad++;
            print_error("%s: model %.2f cycles, hardware %.3f\n", id, pred, cyc);
        }
        assert_int_equal(res.wavefronts, res.ideal_wavefronts + res.bank_conflicts);
    }
    fclose(f);
    assert_int_equal(rows, 1041);
    assert_int_equal(bad, 0);
}

static void test_strides_sm90(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_result r;
    /* gcd rule: stride s words -> gcd(s, 32)-way */
    int expect[] = {1, 1, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16};
    for (int s = 1; s <= 16; s++) {
        banks_request q = stride_req(BANKS_LOAD, 4, 4 * s);
        banks_analyze(p, &q, &r, NULL);
        assert_int_equal(r.conflict_degree, expect[s]);
    }
    banks_request col = stride_req(BANKS_LOAD, 4, 128);
    banks_analyze(p, &col, &r, NULL);
    assert_int_equal(r.wavefronts, 32);
    assert_int_equal(r.bank_conflicts, 31);
    banks_request padded = stride_req(BANKS_LOAD, 4, 132);
    banks_analyze(p, &padded, &r, NULL);
    assert_int_equal(r.wavefronts, 1);
    assert_int_equal(r.conflict_degree, 1);
}

static void test_wide_and_broadcast(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_result r;
    banks_request q = stride_req(BANKS_LOAD, 8, 8);
    banks_analyze(p, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 2);
    q = stride_req(BANKS_LOAD, 16, 16);
    banks_analyze(p, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 4);
    q = stride_req(BANKS_LOAD, 16, 0);
    banks_analyze(p, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 2);
    assert_true(r.paired);
    assert_int_equal(r.broadcast_lanes, 30);
    q = stride_req(BANKS_STORE, 8, 0);
    banks_analyze(p, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 2); /* stores never pair */
    q = stride_req(BANKS_LOAD, 1, 1);  /* char array: 4 lanes per word, no conflict */
    banks_analyze(p, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 1);
    q.active = 0;
    banks_analyze(p, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 0);
    assert_int_equal(r.conflict_degree, 0);
}

/* The grid lists every active lane exactly once per bank word it touches. */
static void test_grid_cells(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_cell cells[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
    banks_result r;
    banks_request q = stride_req(BANKS_LOAD, 4, 128);
    banks_analyze(p, &q, &r, cells);
    for (int row = 0; row < 32; row++) {
        assert_int_equal(cells[row * 32 + 0].lanes, 1u << row);
        assert_int_equal(cells[row * 32 + 1].lanes, 0);
    }
    q = stride_req(BANKS_LOAD, 16, 16);
    banks_analyze(p, &q, &r, cells);
    assert_int_equal(cells[0 * 32 + 4].lanes, 1u << 1);
    assert_int_equal(cells[3 * 32 + 31].lanes, 1u << 31);
    assert_int_equal(r.lane[9].wavefront, 1);
}

static void test_legacy_profiles(void **state)
{
    (void)state;
    banks_result r;
    const banks_profile *cc1 = banks_profile_find("sm_13");
    assert_non_null(cc1);
    assert_ptr_equal(banks_profile_find("cc1x"), cc1);
    /* [PG] 1.x: char array shared[tid] -> 4-way conflict per half-warp */
    banks_request q = stride_req(BANKS_LOAD, 1, 1);
    banks_analyze(cc1, &q, &r, NULL);
    assert_int_equal(r.conflict_degree, 4);
    assert_int_equal(r.wavefronts, 8);
    /* stride 17 words on 16 banks: conflict-free; stride 4: 4-way */
    q = stride_req(BANKS_LOAD, 4, 68);
    banks_analyze(cc1, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 2);
    q = stride_req(BANKS_LOAD, 4, 16);
    banks_analyze(cc1, &q, &r, NULL);
    assert_int_equal(r.conflict_degree, 4);
    /* all lanes one word: broadcast, one step per half-warp */
    q = stride_req(BANKS_LOAD, 4, 0);
    banks_analyze(cc1, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 2);
    /* double: two 32-bit requests of stride 2 words -> 2-way each */
    q = stride_req(BANKS_LOAD, 8, 8);
    banks_analyze(cc1, &q, &r, NULL);
    assert_int_equal(r.conflict_degree, 2);
    assert_int_equal(r.wavefronts, 8);
    /* Kepler 8-byte mode: stride-1 double is one wavefront */
    const banks_profile *k8 = banks_profile_find("sm_35_8byte");
    q = stride_req(BANKS_LOAD, 8, 8);
    banks_analyze(k8, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 1);
    /* Kepler 4-byte mode: words i and i+32 of one 256 B segment do not conflict */
    const banks_profile *k4 = banks_profile_find("sm_35");
    q = stride_req(BANKS_LOAD, 8, 8);
    banks_analyze(k4, &q, &r, NULL);
    assert_int_equal(r.wavefronts, 1);
    q = stride_req(BANKS_LOAD, 4, 256);
    banks_analyze(k4, &q, &r, NULL);
    assert_int_equal(r.conflict_degree, 32);
    /* sm_50..sm_89 aliases and 8-byte half-warps */
    assert_ptr_equal(banks_profile_find("sm_87"), banks_profile_find("sm_86"));
    assert_null(banks_profile_find("sm_99"));
    assert_null(banks_profile_find("gfx90a"));
    q = stride_req(BANKS_LOAD, 8, 0);
    banks_analyze(banks_profile_find("sm_80"), &q, &r, NULL);
    assert_int_equal(r.wavefronts, 2);
}

/* One request of lanes [first, first+n) (step bytes apart) of width bytes. */
static banks_request lanes_req(banks_op op, int width, int first, int n, int step)
{
    banks_request q = {.op = op, .width = width};
    for (int l = first; l < first + n; l++) {
        q.active |= 1u << l;
        q.addr[l] = 256 + (int64_t)(l - first) * step;
    }
    return q;
}

/* Cycles per phase ([H200m] in banks.c): measured on an H200 by tests/gpu/data-path.sh and
 * tests/gpu/random.sh. */
static void test_issue_cycles(void **state)
{
    (void)state;
    const banks_profile *p = banks_profile_default();
    banks_result r;
    struct {
        banks_op op;
        int width, first, n, step;
        bool data;
        double cycles;
    } cases[] = {
        {BANKS_LOAD, 16, 6, 1, 16, true, 2.0},   /* one lane: paired, 2 phases (2.05 measured) */
        {BANKS_LOAD, 8, 6, 1, 8, true, 1.0},     /* one lane: paired, 1 phase (1.04) */
        {BANKS_LOAD, 8, 0, 16, 8, true, 2.0},    /* one half-warp: 1 wavefront, 2 phases (2.00) */
        {BANKS_LOAD, 16, 16, 8, 16, true, 4.0},  /* one quarter-warp: 1 wavefront, 4 phases (4.00) */
        {BANKS_LOAD, 16, 0, 32, 16, true, 4.0},  /* stride 16 B: 4 wavefronts */
        {BANKS_LOAD, 4, 0, 32, 128, true, 32.0}, /* 32-way: wavefronts */
        {BANKS_STORE, 16, 6, 1, 16, false, 1.0}, /* zero register: wavefronts (1.00) */
        {BANKS_STORE, 16, 6, 1, 16, true, 4.0},  /* register data: 4 phases (4.00) */
        {BANKS_STORE, 8, 6, 1, 8, true, 2.0},    /* (2.00) */
        {BANKS_STORE, 4, 6, 1, 4, true, 1.0},    /* (1.00) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        banks_request q = lanes_req(cases[i].op, cases[i].width, cases[i].first, cases[i].n, cases[i].step);
        banks_analyze(p, &q, &r, NULL);
        assert_true(banks_issue_cycles(p, &q, &r, cases[i].data) == cases[i].cycles);
    }
    /* no active lane: nothing; profiles without the rule: wavefronts only */
    banks_request none = {.op = BANKS_LOAD, .width = 16};
    banks_analyze(p, &none, &r, NULL);
    assert_true(banks_issue_cycles(p, &none, &r, true) == 0.0);
    banks_request q = lanes_req(BANKS_LOAD, 16, 16, 8, 16);
    banks_analyze(banks_profile_find("sm_80"), &q, &r, NULL);
    assert_true(banks_issue_cycles(banks_profile_find("sm_80"), &q, &r, true) == r.wavefronts);
}

/* splitmix64: the same requests on every run */
static uint64_t seed = 0x5eed;
static uint64_t rnd(void)
{
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random request: strides, broadcasts, pairs of lanes, a few hot words, random words, huge
 * addresses, lanes gigabytes apart; every mask from all lanes to none. */
static void random_request(banks_request *r, int width)
{
    r->op = rnd() % 2 ? BANKS_LOAD : BANKS_STORE;
    r->width = width;
    switch (rnd() % 6) {
    case 0: r->active = 0xffffffffu; break;
    case 1: r->active = (uint32_t)rnd(); break;
    case 2: r->active = (uint32_t)rnd() & (uint32_t)rnd() & (uint32_t)rnd(); break;
    case 3: r->active = 1u << (rnd() % 32); break;
    case 4: r->active = rnd() % 2 ? 0x0000ffffu : 0x000000ffu << (8 * (rnd() % 4)); break;
    default: r->active = rnd() % 8 ? ~(1u << (rnd() % 32)) : 0; break;
    }
    int kind = (int)(rnd() % 7);
    int64_t stride = (int64_t)(rnd() % 70), base = (int64_t)(rnd() % 512) * width, hot = 1 + (int64_t)(rnd() % 5);
    for (int l = 0; l < 32; l++) {
        int64_t a;
        switch (kind) {
        case 0: a = base + l * stride * width; break;                                      /* strides */
        case 1: a = base + (l / (1 + (int)(rnd() % 4))) * width; break;                    /* broadcast groups */
        case 2: a = base + (int64_t)((l >> 1) * stride) * width; break;                    /* lanes n, n^1 alike */
        case 3: a = (int64_t)(rnd() % (uint64_t)hot) * 128 * hot + (l % 3) * width; break; /* hot words */
        case 4: a = (int64_t)(rnd() % 4096) * width; break;                                /* random */
        case 5: a = ((int64_t)1 << 40) + (int64_t)(rnd() % 1024) * width + l * 4096; break;
        default: a = (int64_t)(rnd() % 64) * width + (l % 5 == 4 ? (int64_t)l << (26 + rnd() % 12) : 0); /* far */
        }
        if (rnd() % 64 == 0)
            a += 1 + (int64_t)(rnd() % (uint64_t)width); /* a few unaligned lanes */
        r->addr[l] = a;
    }
}

/* The fast engine against the original one (tests/unit/banks_reference.c) on 1.2 million
 * seeded random requests: every profile, width, op and mask; the grid cells on every 64th. The
 * engine as it runs here (the AVX-512 kernel where the CPU has it), its portable path and its
 * AVX2 kernel (where the CPU has AVX2: every x86-64 machine the tests run on). */
static void test_engine_vs_reference(void **state)
{
    (void)state;
    static const int widths[] = {1, 2, 4, 8, 16};
    int np;
    const banks_profile *profiles = banks_profiles(&np);
    static banks_cell cells_a[BANKS_MAX_ROWS * BANKS_MAX_BANKS], cells_b[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
    long n = 0;
    banks_result a, b, c;
    memset(&a, 0x5a, sizeof a); /* stale data must not leak into the result */
    memset(&c, 0xa5, sizeof c);
    for (int rep = 0; rep < 22000; rep++)
        for (int pi = 0; pi < np; pi++) {
            const banks_profile *p = &profiles[pi];
            for (int w = 0; w < 5; w++, n++) {
                banks_request r;
                random_request(&r, widths[w]);
                bool cells = n % 64 == 0;
                banks_analyze(p, &r, &a, cells ? cells_a : NULL);
                banks_reference_analyze(p, &r, &b, cells ? cells_b : NULL);
                test_result_equal(&a, &b);
                if (cells)
                    assert_memory_equal(cells_a, cells_b, sizeof *cells_a * BANKS_MAX_ROWS * (size_t)p->banks);
                banks_analyze_portable(p, &r, &c, NULL);
                test_result_equal(&c, &b);
                memset(&c, 0x3c, sizeof c);
                banks_analyze_avx2(p, &r, &c, NULL);
                test_result_equal(&c, &b);
            }
        }
    assert_true(n >= 1000000);
}

/* The engine as it runs here and its portable path agree on the tensor-era kinds too (ldmatrix,
 * stmatrix, atomics, cp.async: every valid width, matrix count and atomic operation, every mask
 * kind), with and without the grid. */
static void test_portable_tensor_kinds(void **state)
{
    (void)state;
    static const banks_op ops[] = {BANKS_LDMATRIX, BANKS_STMATRIX, BANKS_ATOMIC, BANKS_CP_ASYNC};
    static const int widths[] = {4, 8, 16};
    static banks_cell cells_a[BANKS_MAX_ROWS * BANKS_MAX_BANKS], cells_b[BANKS_MAX_ROWS * BANKS_MAX_BANKS];
    int np, n = 0;
    const banks_profile *profiles = banks_profiles(&np);
    banks_result a, b;
    for (int rep = 0; rep < 4000; rep++)
        for (int pi = 0; pi < np; pi++) {
            banks_request r;
            random_request(&r, widths[rnd() % 3]);
            r.op = ops[rnd() % 4];
            r.matrices = 1 << (rnd() % 3);
            r.trans = rnd() % 2;
            r.atomic = (banks_atomic)(rnd() % (BANKS_ATOM_INC + 1));
            r.returns = rnd() % 2;
            if (r.op == BANKS_LDMATRIX || r.op == BANKS_STMATRIX)
                r.width = 16;
            if (r.op == BANKS_ATOMIC && r.width == 16)
                r.width = 4;
            for (int l = 0; l < BANKS_WARP; l++)
                r.addr[l] -= r.addr[l] % r.width; /* aligned, as the loaders ensure */
            if (banks_request_problem(&r))
                continue;
            bool cells = rep % 8 == 0;
            banks_analyze(&profiles[pi], &r, &a, cells ? cells_a : NULL);
            banks_analyze_portable(&profiles[pi], &r, &b, cells ? cells_b : NULL);
            test_result_equal(&a, &b);
            if (cells)
                assert_memory_equal(cells_a, cells_b, sizeof *cells_a * BANKS_MAX_ROWS * (size_t)profiles[pi].banks);
            n++;
        }
    assert_true(n >= 20000);
}

/* The shifts stored in each profile are those of its bank size and count. */
static void test_profile_shifts(void **state)
{
    (void)state;
    int np;
    const banks_profile *profiles = banks_profiles(&np);
    for (int i = 0; i < np; i++) {
        const banks_profile *p = &profiles[i];
        assert_int_equal(1 << p->bank_shift, p->bank_bytes);
        assert_int_equal(1 << p->slot_shift, p->banks * p->same_slot_words);
        assert_int_equal(p->banks & (p->banks - 1), 0);
        assert_int_equal(p->wavefront_bytes & (p->wavefront_bytes - 1), 0);
    }
}

/* The list of names shown in messages holds every profile once, in the table's order, and a
 * buffer too small for all is cut at a name, never inside one. */
static void test_profile_names(void **state)
{
    (void)state;
    char all[512], small[12];
    banks_profile_names(all, sizeof all);
    int np;
    const banks_profile *profiles = banks_profiles(&np);
    const char *at = all;
    for (int i = 0; i < np; i++) {
        const char *hit = strstr(at, profiles[i].name);
        assert_non_null(hit);
        at = hit + strlen(profiles[i].name);
    }
    assert_non_null(strstr(all, "sm_89"));
    banks_profile_names(small, sizeof small);
    assert_string_equal(small, "sm_90");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration_h200),      cmocka_unit_test(test_strides_sm90),
        cmocka_unit_test(test_wide_and_broadcast),    cmocka_unit_test(test_grid_cells),
        cmocka_unit_test(test_legacy_profiles),       cmocka_unit_test(test_issue_cycles),
        cmocka_unit_test(test_engine_vs_reference),   cmocka_unit_test(test_profile_names),
        cmocka_unit_test(test_portable_tensor_kinds), cmocka_unit_test(test_profile_shifts),
    };
    return cmocka_run_group_tests_name("banks", tests, NULL, NULL);
}
