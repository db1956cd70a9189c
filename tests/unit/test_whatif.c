/* test_whatif: remapping recorded addresses to another layout of a region, and the search, on
 * hand-built traces (whose right answers follow from the bank arithmetic) and on the kept GPU
 * recordings of the transpose (the naive kernel's what-if against what the padded kernel gave). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/whatif.h"
#include "util.h"
#include "test_util.h"

/* The classic transpose of one 32x32 float tile at byte 1024, block 32x8: each warp writes 4 rows
 * and reads 4 columns (64 warp-instructions). */
static int transpose_trace(banks_request *t)
{
    int n = 0;
    for (int store = 1; store >= 0; store--)
        for (int w = 0; w < 8; w++)
            for (int j = 0; j < 32; j += 8) {
                banks_request *e = &t[n++];
                memset(e, 0, sizeof *e);
                e->op = store ? BANKS_STORE : BANKS_LOAD;
                e->width = 4;
                e->active = 0xffffffffu;
                for (int l = 0; l < 32; l++)
                    e->addr[l] = 1024 + (store ? (w + j) * 128 + l * 4 : l * 128 + (w + j) * 4);
            }
    return n;
}

static whatif_input input(const banks_request *t, int n, const whatif_region *r, int nr)
{
    return (whatif_input){
        .arch = banks_profile_default(), .trace = t, .ntrace = n, .regions = r, .nregions = nr, .threads = 256};
}

static void test_remap(void **state)
{
    (void)state;
    banks_request t[64];
    int n = transpose_trace(t);
    whatif_region r[2] = {{.name = "tile", .start = 1024, .bytes = 4096},
                          {.name = "other", .start = 5120, .bytes = 64}};
    whatif_input in = input(t, n, r, 2);
    whatif_layout pad = {.kind = WHATIF_PAD, .region = 0, .pitch = 128, .pad = 4, .extra_bytes = 128};
    int64_t a;
    char why[160];
    assert_true(whatif_remap(&in, &pad, 1024 + 3 * 128 + 8, 4, &a, why, sizeof why));
    assert_int_equal(a, 1024 + 3 * 132 + 8);
    assert_true(whatif_remap(&in, &pad, 5120 + 4, 4, &a, why, sizeof why)); /* after it: moved by 128 */
    assert_int_equal(a, 5120 + 128 + 4);
    assert_true(whatif_remap(&in, &pad, 100, 4, &a, why, sizeof why)); /* before it: stays */
    assert_int_equal(a, 100);
    /* a 16-byte access no longer aligned on a row of 132 bytes */
    assert_false(whatif_remap(&in, &pad, 1024 + 128, 16, &a, why, sizeof why));
    assert_non_null(strstr(why, "misaligned"));
    /* a 16-byte access that would cross a row of 8 bytes */
    whatif_layout narrow = {.kind = WHATIF_PAD, .region = 0, .pitch = 8, .pad = 8};
    assert_false(whatif_remap(&in, &narrow, 1024, 16, &a, why, sizeof why));
    assert_non_null(strstr(why, "crosses a row"));
    /* Swizzle<5,2,5> on bytes: column c ^ row r */
    whatif_layout swz = {.kind = WHATIF_SWIZZLE, .region = 0, .bits = 5, .base = 2, .shift = 5};
    assert_true(whatif_remap(&in, &swz, 1024 + 7 * 128 + 3 * 4, 4, &a, why, sizeof why));
    assert_int_equal(a, 1024 + 7 * 128 + (3 ^ 7) * 4);
}

static void test_search_transpose(void **state)
{
    (void)state;
    banks_request t[64];
    int n = transpose_trace(t);
    whatif_region r = {.name = "tile", .start = 1024, .bytes = 4096};
    whatif_input in = input(t, n, &r, 1);
    static whatif_result res;
    whatif_search(&in, 0, &res);
    assert_int_equal(res.current.wavefronts, 32 + 32 * 32);
    assert_int_equal(res.current.ideal, 64);
    assert_int_equal(res.elem, 4);
    assert_true(res.ntop > 0);
    /* the best needs no bytes: a swizzle, conflict-free on every instruction, writes included */
    assert_int_equal(res.top[0].kind, WHATIF_SWIZZLE);
    assert_int_equal(res.top[0].extra_bytes, 0);
    assert_int_equal(res.top_cost[0].wavefronts, 64);
    /* the cheapest conflict-free padding is one float per 128-byte row */
    int k = 0;
    while (k < res.ntop && res.top[k].kind != WHATIF_PAD)
        k++;
    assert_true(k < res.ntop);
    assert_int_equal(res.top[k].pitch, 128);
    assert_int_equal(res.top[k].pad, 4);
    assert_int_equal(res.top[k].extra_bytes, 128);
    assert_int_equal(res.top_cost[k].wavefronts, 64);
    char buf[300];
    assert_string_equal(whatif_layout_decl(&res.top[k], &r, "float", 4, buf, sizeof buf),
                        "__shared__ float tile[32][33]");
    /* the pitches the strides allow: 128 (the column read) and its divisors down to 2 floats */
    bool has128 = false;
    for (int i = 0; i < res.npitches; i++)
        has128 = has128 || res.pitches[i] == 128;
    assert_true(has128);
    assert_false(res.soa); /* the writes read 32 offsets of one "row": not a struct field */
}

/* A long recording (more entries than the sample): every candidate costed on the sample, the
 * best checked on every entry, so the ranked costs are the whole recording's. */
static void test_search_sampled(void **state)
{
    (void)state;
    enum { REPEAT = 100 };
    banks_request *t = xmalloc(sizeof *t * 64 * REPEAT);
    for (int k = 0; k < REPEAT; k++)
        transpose_trace(t + 64 * k);
    whatif_region r = {.name = "tile", .start = 1024, .bytes = 4096, .exact = true};
    whatif_input in = input(t, 64 * REPEAT, &r, 1);
    static whatif_result res;
    whatif_search(&in, 0, &res);
    assert_int_equal(res.sample, WHATIF_SAMPLE);
    assert_true(res.checked >= 1 && res.checked <= WHATIF_CONFIRM + 3);
    assert_int_equal(res.current.wavefronts, REPEAT * (32 + 32 * 32));
    assert_int_equal(res.top[0].kind, WHATIF_SWIZZLE);
    assert_int_equal(res.top_cost[0].wavefronts, REPEAT * 64); /* every entry, not the sample */
    assert_true(res.has[WHATIF_PAD]);
    assert_int_equal(res.best_of[WHATIF_PAD].pad, 4);
    assert_int_equal(res.best_of_cost[WHATIF_PAD].wavefronts, REPEAT * 64);
    free(t);
}

/* An array of 12-byte structs, each lane reading field x (offset 0) and then field z (offset 8)
 * of its own struct: 3 words apart, a conflict only in a few banks; split into arrays each field
 * is read with a 4-byte stride. */
static void test_search_soa(void **state)
{
    (void)state;
    banks_request t[2];
    for (int f = 0; f < 2; f++) {
        memset(&t[f], 0, sizeof t[f]);
        t[f].op = BANKS_LOAD;
        t[f].width = 4;
        t[f].active = 0xffffffffu;
        for (int l = 0; l < 32; l++)
            t[f].addr[l] = l * 16 + f * 8; /* 16-byte structs: a 4-way conflict */
    }
    whatif_region r = {.name = "items", .start = 0, .bytes = 16 * 64};
    whatif_input in = input(t, 2, &r, 1);
    static whatif_result res;
    whatif_search(&in, 0, &res);
    assert_true(res.soa);
    assert_int_equal(res.soa_elem, 16);
    assert_int_equal(res.current.wavefronts, 8);
    bool found = false;
    for (int k = 0; k < res.ntop; k++)
        if (res.top[k].kind == WHATIF_SOA) {
            found = true;
            assert_int_equal(res.top_cost[k].wavefronts, 2);
            assert_int_equal(res.top[k].nfields, 2);
            assert_int_equal(res.top[k].extra_bytes, 0);
        }
    assert_true(found);
}

/* Nothing to gain: a conflict-free region gets no candidates. */
static void test_nothing_to_gain(void **state)
{
    (void)state;
    banks_request t;
    memset(&t, 0, sizeof t);
    t.op = BANKS_LOAD;
    t.width = 4;
    t.active = 0xffffffffu;
    for (int l = 0; l < 32; l++)
        t.addr[l] = l * 4;
    whatif_region r = {.name = "a", .start = 0, .bytes = 128};
    whatif_input in = input(&t, 1, &r, 1);
    static whatif_result res;
    whatif_search(&in, 0, &res);
    assert_int_equal(res.ntop, 0);
    assert_int_equal(res.current.wavefronts, res.current.ideal);
    int regions[4];
    assert_int_equal(whatif_conflicted_regions(&in, regions, 4), 0);
}

/* Per source line of a recording: wavefronts of its entries, with layout l (NULL: as recorded). */
static void line_costs(const scenario *s, const whatif_input *in, const whatif_layout *l, int line, int64_t *wf,
                       int64_t *ideal)
{
    *wf = *ideal = 0;
    for (int i = 0; i < s->ntrace; i++) {
        if (s->trace_at[i].line != line)
            continue;
        banks_request m = s->trace[i];
        char why[160];
        if (l)
            assert_true(whatif_remap_request(in, l, &s->trace[i], &m, why, sizeof why));
        banks_result r;
        banks_analyze(in->arch, &m, &r, NULL);
        *wf += r.wavefronts;
        *ideal += r.ideal_wavefronts;
    }
}

/* The GPU recordings: the naive transpose's best padding predicts, line by line, what the padded
 * kernel's recording predicts, and the padded kernel's measured wavefronts per block. */
static void test_recorded_transpose(void **state)
{
    (void)state;
    char p[512];
    scenario naive, padded;
    io_error err;
    assert_true(load_scenario_file(test_path("data/record/transpose-naive.json", p, sizeof p), NULL, &naive, &err));
    assert_true(load_scenario_file(test_path("data/record/transpose-padded.json", p, sizeof p), NULL, &padded, &err));
    assert_true(naive.is_trace);
    /* no arrays in these recordings: the recorded window is one region */
    int64_t lo = INT64_MAX, hi = 0;
    for (int i = 0; i < naive.ntrace; i++)
        for (int l = 0; l < 32; l++)
            if ((naive.trace[i].active >> l) & 1) {
                lo = naive.trace[i].addr[l] < lo ? naive.trace[i].addr[l] : lo;
                int64_t end = naive.trace[i].addr[l] + naive.trace[i].width;
                hi = end > hi ? end : hi;
            }
    assert_int_equal(hi - lo, 4096);
    whatif_region r = {.name = "recorded window", .start = lo, .bytes = hi - lo};
    whatif_input in = input(naive.trace, naive.ntrace, &r, 1);
    static whatif_result res;
    whatif_search(&in, 0, &res);
    int k = 0;
    while (k < res.ntop && res.top[k].kind != WHATIF_PAD)
        k++;
    assert_true(k < res.ntop);
    assert_int_equal(res.top[k].pitch, 128);
    assert_int_equal(res.top[k].pad, 4);
    whatif_region rp = {.name = "recorded window", .start = lo, .bytes = 4096 + 128};
    whatif_input inp = input(padded.trace, padded.ntrace, &rp, 1);
    int lines[2] = {naive.trace_at[0].line, naive.trace_at[naive.ntrace - 1].line};
    for (int i = 0; i < 2; i++) {
        int64_t wf, ideal, pwf, pideal;
        line_costs(&naive, &in, &res.top[k], lines[i], &wf, &ideal);
        line_costs(&padded, &inp, NULL, lines[i], &pwf, &pideal);
        assert_int_equal(wf, pwf);
        assert_int_equal(ideal, pideal);
        assert_int_equal(wf, 32); /* the padded kernel measured 32768 wavefronts per line over 1024 blocks */
    }
    scenario_free(&naive);
    scenario_free(&padded);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_remap),           cmocka_unit_test(test_search_transpose),
        cmocka_unit_test(test_search_sampled),  cmocka_unit_test(test_search_soa),
        cmocka_unit_test(test_nothing_to_gain), cmocka_unit_test(test_recorded_transpose),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
