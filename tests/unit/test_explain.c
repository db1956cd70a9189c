/* test_explain: the textbook explanation of library patterns (key lines), excluded lanes, pairing,
 * the cycles-per-phase rule, and a property check: the numbers of every lane's arithmetic lines
 * equal the instruction's addresses and the bank engine's result, for every library pattern under
 * every architecture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/library.h"
#include "model/explain.h"
#include "model/kinds.h"
#include "test_util.h"

/* The first warp-instruction of access a (iteration 0, first selected warp), analysed. */
static void first_instr(const scenario *s, int a, scenario_instr *in, banks_result *r)
{
    scenario_instr_build(s, a, 0, scenario_selected_warp(s, 0), in);
    banks_analyze(s->arch, &in->req, r, NULL);
}

/* Index of the first line containing every one of the NULL-terminated strings, or -1. */
static int find_line(const explain_lines *e, ...)
{
    for (int i = 0; i < e->n; i++) {
        va_list ap;
        va_start(ap, e);
        bool all = true;
        for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
            if (!strstr(e->line[i], w))
                all = false;
        va_end(ap);
        if (all)
            return i;
    }
    return -1;
}

/* No line starts with prefix. */
static bool no_line_starts(const explain_lines *e, const char *prefix)
{
    for (int i = 0; i < e->n; i++)
        if (strncmp(e->line[i], prefix, strlen(prefix)) == 0)
            return false;
    return true;
}

/* Explain access a of pattern name and check that lines with each NULL-separated group exist. */
static void expect_access(const char *name, int a, const char *want1, const char *want2, const char *verdict)
{
    scenario s;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    test_load_pattern(name, &s);
    first_instr(&s, a, &in, &r);
    explain_access(&s, &in, &r, &e);
    if (want1 && find_line(&e, want1, want2, (const char *)NULL) < 0) {
        for (int i = 0; i < e.n; i++)
            print_message("%s: %s\n", name, e.line[i]);
        fail_msg("%s: no line with '%s' and '%s'", name, want1, want2 ? want2 : "");
    }
    assert_true(find_line(&e, "verdict: ", verdict, (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lines_free(&e); /* freeing twice is allowed */
    scenario_free(&s);
}

static void test_library_reasoning(void **state)
{
    (void)state;
    expect_access("default", 0, "32 words apart; gcd(32, 32) = 32", "1 bank, 32 different words on it: 32-way",
                  "32-way bank conflict: 32 wavefronts instead of 1");
    expect_access("transpose-naive", 1, "gcd(32, 32) = 32", "32-way", "32-way");
    expect_access("transpose-padded", 1, "132 B = 33 words apart; gcd(33, 32) = 1", "32 banks, one lane each",
                  "conflict-free: 1 wavefront, the ideal");
    expect_access("stride-8", 0, "gcd(8, 32) = 8", "32/8 = 4 banks, 8 different words on each: 8-way", "8-way");
    expect_access("double-32x32", 0, "2 phases of 16 lanes (half-warps)", NULL, "16-way");
    expect_access("double-32x32", 0, "gcd(32, 16) = 16", "16-way", "32 wavefronts instead of 2");
    expect_access("float4-32x36", 0, "4 phases of 8 lanes (quarter-warps)", "512 B", "conflict-free: 4 wavefronts");
    expect_access("float4-32x36", 0, "gcd(9, 8) = 1", "one lane each", "conflict-free");
    expect_access("float4-32x32", 0, "the ideal is 4 wavefronts, one per phase", NULL, "8-way");
    expect_access("char-32x129", 0, "129 B apart, not a whole number of 4-byte bank words", NULL, "4-way");
    expect_access("char-32x129", 0, "worst: bank 0 in phase 0 serves 4 different words", "lanes 0-3", "4-way");
    expect_access("broadcast", 0, "lanes 1-31 (31)", "broadcast", "conflict-free: 1 wavefront");
    expect_access("broadcast", 1, "lanes 1-7, 9-15, 17-23, 25-31 (28)", "broadcast", "conflict-free");
    expect_access("aos-vec3", 0, "16 B = 4 words apart; gcd(4, 32) = 4", "4-way", "4-way");
    expect_access("legacy-stride4", 0, "sm_13: the warp is served in 2 phases of 16 lanes (half-warps)", NULL, "4-way");
    expect_access("legacy-stride4", 0, "gcd(4, 16) = 4", "16/4 = 4 banks", "4-way");
}

static void test_lane_lines(void **state)
{
    (void)state;
    scenario s;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    test_load_pattern("default", &s);
    first_instr(&s, 0, &in, &r);
    explain_lane(&s, &in, &r, 1, &e);
    assert_true(find_line(&e, "lane 1 = thread (1,0,0): load tile[1][0], a float (4 B)", (const char *)NULL) == 0);
    assert_true(find_line(&e, "address = 0 + 1 * 128 + 0 * 4 = 128 B", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "rows are 32 floats = 128 B apart", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "address 128 B -> word 128 / 4 = 32 -> bank 32 mod 32 = 0 -> phase 0, wavefront 1",
                          (const char *)NULL) >= 0);
    assert_true(find_line(&e, "conflict: bank 0 serves 32 different words", "lanes 0, 2-31", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 32, &e);
    assert_int_equal(e.n, 1);
    explain_lines_free(&e);
    scenario_free(&s);

    test_load_pattern("broadcast", &s);
    first_instr(&s, 1, &in, &r); /* data[lane / 8] */
    explain_lane(&s, &in, &r, 9, &e);
    assert_true(find_line(&e, "lanes 8, 10-15 read the same word as this lane", "broadcast", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "no conflict for this lane", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);

    test_load_pattern("aos-vec3", &s);
    first_instr(&s, 0, &in, &r);
    explain_lane(&s, &in, &r, 2, &e);
    assert_true(find_line(&e, "address = 0 + 2 * 16 + 0 = 32 B", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "one struct Vec3 is 16 B; field x is at offset 0", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);

    test_load_pattern("float4-32x32", &s);
    first_instr(&s, 0, &in, &r);
    explain_lane(&s, &in, &r, 3, &e);
    assert_true(find_line(&e, "its 16 bytes cover words 96-99, banks 0-3", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

static void test_misaligned(void **state)
{
    (void)state;
    scenario s;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    scenario_error serr;
    test_load_pattern("float4-32x32", &s);
    s.arrays[0].pad[1] = 1; /* rows of 33 floats: 3 of every 4 rows start off a 16-byte boundary */
    assert_true(scenario_finish(&s, &serr));
    first_instr(&s, 0, &in, &r);
    explain_access(&s, &in, &r, &e);
    assert_true(find_line(&e, "24 of 32 lanes misaligned (float4 needs 16-byte alignment", "would fault",
                          (const char *)NULL) >= 0);
    assert_true(find_line(&e, "verdict: not valid as written: 24 of 32 lanes are left out", (const char *)NULL) >= 0);
    assert_true(no_line_starts(&e, "verdict: conflict-free"));
    /* the pairing holds only because each active lane's partner is misaligned: said so, not
     * "every active lane reads the same address as lane n^1" */
    assert_true(find_line(&e, "load pairing: no two partner lanes n and n^1 both take part",
                          "the partner of each of the 8 active lanes is left out", (const char *)NULL) >= 0);
    assert_true(no_line_starts(&e, "sm_90 load pairing: every active lane"));
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 1, &e);
    assert_true(find_line(&e, "address = 0 + 1 * 132 + 0 * 4 = 132 B", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "misaligned: 132 mod 16 = 4", "left out", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

static void test_excluded_and_masked(void **state)
{
    (void)state;
    const char *json =
        "{\"block\": 24, \"arrays\": [{\"name\": \"d\", \"type\": \"float\", \"dims\": [32]}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"d\", \"index\": \"lane + 12\"},"
        "               {\"op\": \"store\", \"array\": \"d\", \"index\": \"32 / (lane + 3)\"},"
        "               {\"op\": \"load\", \"array\": \"d\", \"index\": \"lane\", \"when\": \"lane < 4\"}]}";
    scenario s;
    io_error err;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    assert_true(test_load(json, &s, &err));
    first_instr(&s, 0, &in, &r);
    explain_access(&s, &in, &r, &e);
    /* "4 of 24": counted of the lanes that have a thread, as the view's headline counts them */
    assert_int_equal(scenario_instr_threads(&in), 24);
    assert_true(find_line(&e, "4 of 24 lanes out of bounds (lane 20: index 0 = 32, d has 32 in dimension 0)",
                          "lanes 20-23", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "lanes 24-31 have no thread (the block has 24 threads)", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "verdict: not valid as written: 4 of 24 lanes are left out", "20 remaining lanes",
                          (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 21, &e);
    assert_true(find_line(&e, "out of bounds: index 0 ('lane + 12') = 33", "0..31", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 30, &e);
    assert_true(find_line(&e, "would be thread 30, but the block has only 24 threads", (const char *)NULL) >= 0);
    explain_lines_free(&e);

    /* the loader refuses expressions that fail; an edit can still make one (as the TUI does) */
    scenario_error serr;
    free(s.accesses[1].index_text[0]);
    s.accesses[1].index_text[0] = xstrdup("32 / (lane - 3)");
    assert_true(scenario_parse_access(&s, &s.accesses[1], 1, &serr));
    first_instr(&s, 1, &in, &r);
    explain_access(&s, &in, &r, &e);
    assert_true(find_line(&e, "1 of 24 lanes hit an expression error (lane 3: division by zero in index 0 at offset 3)",
                          (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 3, &e);
    assert_true(find_line(&e,
                          "expression error: index 0 '32 / (lane - 3)' fails with division by zero at offset 3 ('/')",
                          (const char *)NULL) >= 0);
    explain_lines_free(&e);

    first_instr(&s, 2, &in, &r);
    explain_access(&s, &in, &r, &e);
    assert_true(find_line(&e, "lanes 4-23 take no part (the access's 'when' is false for them)", (const char *)NULL) >=
                0);
    assert_true(find_line(&e, "verdict: conflict-free: 1 wavefront", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 5, &e);
    assert_true(find_line(&e, "'when lane < 4' is false for this thread", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

static void test_pairing_and_cycles(void **state)
{
    (void)state;
    const char *json =
        "{\"block\": 32, \"arrays\": [{\"name\": \"d\", \"type\": \"double\", \"dims\": [64]}],"
        " \"accesses\": [{\"op\": \"load\", \"array\": \"d\", \"index\": \"lane / 2 * 2\"},"
        "               {\"op\": \"load\", \"array\": \"d\", \"index\": \"lane\", \"when\": \"lane < 16\"}]}";
    scenario s;
    io_error err;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    assert_true(test_load(json, &s, &err));
    first_instr(&s, 0, &in, &r);
    assert_true(r.paired);
    explain_access(&s, &in, &r, &e);
    assert_true(find_line(&e,
                          "sm_90 load pairing: every active lane reads the same address as lane n^1 (lanes 0 and 1, "
                          "2 and 3, ...)",
                          "merge into one: the warp is served in 1 phase of 32 lanes", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "an inactive lane pairs with anything", (const char *)NULL) < 0);
    assert_true(find_line(&e, "the ideal is 1 wavefront, one per phase", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "lanes 1, 3, 5", "broadcast", (const char *)NULL) >= 0);
    explain_lines_free(&e);

    first_instr(&s, 1, &in, &r); /* one half-warp of 8-byte loads: 1 wavefront, 2 cycles */
    explain_access(&s, &in, &r, &e);
    assert_true(
        find_line(&e, "only 1 of the 2 phases have an active lane: the ideal is 1 wavefront", (const char *)NULL) >= 0);
    assert_true(find_line(&e,
                          "one cycle per phase of its request, empty phases included: 2 phases -> 2 cycles for 1 "
                          "wavefront",
                          (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

/* Parse "address = S + i0 * m0 + i1 * m1 [+ f] = A B" and check it against the lane; for a
 * swizzled array "offset = i0 * m0 + i1 * m1 [+ f] = O B" (the byte offset before the swizzle)
 * and "address = S + X = A B" with X the swizzled offset. */
static void check_address_line(const scenario *s, const scenario_instr *in, int l, const char *line)
{
    const scenario_access *a = &s->accesses[in->access];
    const scenario_array *arr = &s->arrays[a->array];
    bool swz = arr->swz_bits != 0, offset = strncmp(line, "offset = ", 9) == 0;
    if (swz && !offset) {
        long long st, x, addr;
        assert_int_equal(sscanf(line, "address = %lld + %lld = %lld B", &st, &x, &addr), 3);
        assert_int_equal(st, arr->start);
        assert_int_equal(x, scenario_swizzle_offset(arr, scenario_lane_offset(s, in->access, &in->lane[l])));
        assert_int_equal(addr, in->lane[l].address);
        return;
    }
    const char *p = line + strlen(offset ? "offset = " : "address = ");
    char *end = (char *)p;
    long long start = offset ? 0 : strtoll(p, &end, 10), sum = start, mult = arr->elem_size;
    if (offset) { /* the first term has no " + " before it: parse as if it had */
        static char buf[512];
        snprintf(buf, sizeof buf, " + %s", p);
        end = buf;
    }
    if (!offset)
        assert_int_equal(start, arr->start);
    long long m[SCENARIO_MAX_DIMS];
    for (int d = arr->ndims - 1; d >= 0; d--) {
        m[d] = mult;
        mult *= arr->extent[d];
    }
    for (int d = 0; d < a->nidx; d++) {
        long long i, k;
        int used;
        assert_int_equal(sscanf(end, " + %lld * %lld%n", &i, &k, &used), 2);
        assert_int_equal(i, in->lane[l].index[d]);
        assert_int_equal(k, m[d]);
        sum += i * k;
        end += used;
    }
    long long f, total;
    int used;
    if (sscanf(end, " + %lld%n", &f, &used) == 1) {
        assert_int_equal(f, a->offset);
        sum += f;
        end += used;
    }
    assert_int_equal(sscanf(end, " = %lld B", &total), 1);
    assert_int_equal(total, sum);
    assert_int_equal(total, offset ? scenario_lane_offset(s, in->access, &in->lane[l]) : in->lane[l].address);
}

/* Every number of every lane's arithmetic equals the instruction and the engine's result. */
static void check_lanes(const scenario *s, const scenario_instr *in, const banks_result *r)
{
    const banks_profile *p = s->arch;
    for (int l = 0; l < BANKS_WARP; l++) {
        explain_lines e;
        explain_lane(s, in, r, l, &e);
        bool served = in->req.active >> l & 1u;
        int found = 0;
        for (int i = 0; i < e.n; i++) {
            const char *t = e.line[i];
            for (const char *c = t; *c; c++)
                assert_true((unsigned char)*c >= 0x20);
            if ((strncmp(t, "address = ", 10) == 0 || strncmp(t, "offset = ", 9) == 0) && in->access >= 0) {
                check_address_line(s, in, l, t);
                found |= 1;
            }
            long long addr, a2, word, w2;
            int bb, nb, bk, ph, wf;
            if (sscanf(t, "address %lld B -> word %lld / %d = %lld -> bank %lld mod %d = %d -> phase %d, wavefront %d",
                       &addr, &a2, &bb, &word, &w2, &nb, &bk, &ph, &wf) == 9) {
                assert_true(served);
                assert_int_equal(addr, in->req.addr[l]);
                assert_int_equal(a2, addr);
                assert_int_equal(bb, p->bank_bytes);
                assert_int_equal(word, addr / p->bank_bytes);
                assert_int_equal(word, banks_word_of(p, addr));
                assert_int_equal(w2, word);
                assert_int_equal(nb, p->banks);
                assert_int_equal(bk, banks_bank_of(p, addr));
                assert_int_equal(ph, r->lane[l].phase);
                assert_int_equal(wf, r->lane[l].wavefront);
                found |= 2;
            }
        }
        if (served)
            assert_int_equal(found, in->access >= 0 ? 3 : 2);
        explain_lines_free(&e);
    }
}

static void test_property_library(void **state)
{
    (void)state;
    int n, np;
    const library_entry *lib = library_patterns(&n);
    const banks_profile *profiles = banks_profiles(&np);
    int checked = 0;
    for (int i = 0; i < n; i++) {
        if (!lib[i].text) /* a file of the installed or user folders: not the library's */
            continue;
        for (int k = 0; k < np; k++) {
            scenario s;
            io_error err;
            if (!load_scenario_text(lib[i].text, lib[i].len, lib[i].name, profiles[k].name, &s, &err))
                continue; /* lessons are not scenarios */
            scenario_instr in;
            banks_result r;
            explain_lines e;
            scenario_instr_at(&s, 0, &in);
            banks_analyze(s.arch, &in.req, &r, NULL);
            check_lanes(&s, &in, &r);
            explain_access(&s, &in, &r, &e);
            assert_true(find_line(&e, "verdict: ", (const char *)NULL) >= 0);
            /* the phases the why text says are the ones the grid's footer says (one function) */
            char ph[80];
            explain_phases_text(&r, false, ph, sizeof ph);
            if (kinds_of(in.req.op)->rule == KINDS_RULE_WORDS && r.active_lanes > 0 && (r.nphases > 1 || r.paired) &&
                find_line(&e, "the warp is served in ", ph, (const char *)NULL) < 0)
                fail_msg("%s on %s: the why text does not say '%s'", lib[i].name, profiles[k].name, ph);
            explain_lines_free(&e);
            checked++;
            scenario_free(&s);
        }
    }
    assert_true(checked >= 20 * np);
}

/* Load the one-entry trace JSON in sb (freed), and analyse its entry into in and r. */
static void load_trace_entry(strbuf *sb, scenario *s, scenario_instr *in, banks_result *r)
{
    io_error err;
    assert_true(test_load(strbuf_str(sb), s, &err));
    strbuf_free(sb);
    scenario_instr_at(s, 0, in);
    banks_analyze(s->arch, &in->req, r, NULL);
}

/* The phases of one 32-lane trace entry (addr(l) bytes, width w, arch) as the footer says them,
 * and the why text says the same. */
static void expect_phases(const char *arch, int w, int mul, int div, const char *want)
{
    strbuf sb = {0};
    strbuf_addf(&sb, "{\"arch\": \"%s\", \"trace\": [{\"op\": \"load\", \"width\": %d, \"addresses\": [", arch, w);
    for (int l = 0; l < BANKS_WARP; l++)
        strbuf_addf(&sb, "%d%s", w * mul * (l / div), l == BANKS_WARP - 1 ? "" : ", ");
    strbuf_addf(&sb, "]}]}");
    scenario s;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    load_trace_entry(&sb, &s, &in, &r);
    char brief[80], full[80];
    explain_phases_text(&r, true, brief, sizeof brief);
    explain_phases_text(&r, false, full, sizeof full);
    assert_string_equal(full, want);
    assert_true(strncmp(full, brief, strlen(brief)) == 0);
    explain_access(&s, &in, &r, &e);
    if (find_line(&e, "the warp is served in ", want, (const char *)NULL) < 0) {
        for (int i = 0; i < e.n; i++)
            print_message("%s\n", e.line[i]);
        fail_msg("no line says '%s'", want);
    }
    explain_lines_free(&e);
    scenario_free(&s);
}

/* The grid's footer and the why text say the phases the model computed: after load pairing,
 * counting the parts of a split request. */
static void test_phases_words(void **state)
{
    (void)state;
    expect_phases("sm_90", 16, 1, 1, "4 phases of 8 lanes (quarter-warps)");
    expect_phases("sm_90", 16, 1, 2, "2 phases of 16 lanes (half-warps)"); /* lanes n, n^1 paired */
    expect_phases("sm_90", 8, 1, 1, "2 phases of 16 lanes (half-warps)");
    expect_phases("sm_90", 8, 1, 2, "1 phase of 32 lanes (whole warp)");
    expect_phases("sm_13", 8, 1, 1, "4 phases of 16 lanes (half-warps)"); /* two 4-byte requests */
    expect_phases("sm_13", 4, 1, 1, "2 phases of 16 lanes (half-warps)");
}

static void test_trace(void **state)
{
    (void)state;
    strbuf sb = {0};
    strbuf_addf(&sb, "{\"arch\": \"sm_90\", \"trace\": [{\"op\": \"load\", \"width\": 4, \"addresses\": [");
    for (int l = 0; l < BANKS_WARP; l++)
        if (l == 3)
            strbuf_addf(&sb, "null, ");
        else
            strbuf_addf(&sb, "%d%s", 8 * l, l == BANKS_WARP - 1 ? "" : ", ");
    strbuf_addf(&sb, "]}]}");
    scenario s;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    load_trace_entry(&sb, &s, &in, &r);
    check_lanes(&s, &in, &r);
    explain_lane(&s, &in, &r, 16, &e);
    assert_true(find_line(&e, "lane 16: load of 4 B at byte 128 (trace entry 0)", (const char *)NULL) == 0);
    assert_true(find_line(&e, "address 128 B -> word 128 / 4 = 32 -> bank 32 mod 32 = 0 -> phase 0, wavefront 1",
                          (const char *)NULL) >= 0);
    assert_true(find_line(&e, "conflict: bank 0 serves 2 different words", "lane 0 reads", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 3, &e);
    assert_true(find_line(&e, "lane 3 is inactive in this trace entry", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_access(&s, &in, &r, &e);
    assert_true(find_line(&e, "consecutive lanes are 8 B = 2 words apart; gcd(2, 32) = 2", "31 lanes of a phase",
                          "16 banks, 2 different words on each: 2-way", (const char *)NULL) >= 0);
    assert_true(find_line(&e, "lane 3 is inactive in this trace entry", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

static void test_wavefronts(void **state)
{
    (void)state;
    scenario s;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    test_load_pattern("default", &s);
    first_instr(&s, 0, &in, &r);
    explain_wavefront(&s, &in, &r, 1, &e);
    assert_true(find_line(&e, "wavefront 1 (2 of 32; phase 0, 2 of its 32): bank 0 serves word 32 to lane 1",
                          (const char *)NULL) == 0);
    assert_true(find_line(&e, "lanes 2-31 of phase 0 still wait", (const char *)NULL) == 1);
    explain_lines_free(&e);
    explain_wavefront(&s, &in, &r, 31, &e);
    assert_true(find_line(&e, "the last wavefront of phase 0: its 32 wavefronts are 31 more than the ideal 1",
                          (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_wavefront(&s, &in, &r, 32, &e);
    assert_true(find_line(&e, "no wavefront 32: this access takes 32", (const char *)NULL) == 0);
    explain_lines_free(&e);
    scenario_free(&s);
    test_load_pattern("float4-32x36", &s);
    first_instr(&s, 0, &in, &r);
    explain_wavefront(&s, &in, &r, 2, &e);
    assert_int_equal(e.n, 1);
    assert_true(find_line(&e, "wavefront 2 (3 of 4; phase 2): 32 banks serve one word each to lanes 16-23",
                          (const char *)NULL) == 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

/* Expression text may carry tabs and newlines as whitespace: no line may contain them. */
static void test_no_control_chars(void **state)
{
    (void)state;
    const char *json = "{\"block\": 32, \"arrays\": [{\"name\": \"d\", \"type\": \"float\", \"dims\": [36]}],"
                       " \"accesses\": [{\"op\": \"load\", \"array\": \"d\", \"index\": \"lane\\t+\\n10\","
                       " \"when\": \"lane\\t< 30\"}]}";
    scenario s;
    io_error err;
    scenario_instr in;
    banks_result r;
    explain_lines e;
    assert_true(test_load(json, &s, &err));
    first_instr(&s, 0, &in, &r);
    for (int l = -1; l < BANKS_WARP; l++) {
        if (l < 0)
            explain_access(&s, &in, &r, &e);
        else
            explain_lane(&s, &in, &r, l, &e);
        for (int i = 0; i < e.n; i++)
            for (const char *c = e.line[i]; *c; c++)
                assert_true((unsigned char)*c >= 0x20 && *c != 0x7f);
        explain_lines_free(&e);
    }
    explain_lane(&s, &in, &r, 31, &e);
    assert_true(find_line(&e, "'when lane < 30' is false", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    explain_lane(&s, &in, &r, 26, &e);
    assert_true(find_line(&e, "out of bounds: index 0 ('lane + 10') = 36", (const char *)NULL) >= 0);
    explain_lines_free(&e);
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_reasoning),
        cmocka_unit_test(test_lane_lines),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_excluded_and_masked),
        cmocka_unit_test(test_pairing_and_cycles),
        cmocka_unit_test(test_property_library),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_phases_words),
        cmocka_unit_test(test_no_control_chars),
        cmocka_unit_test(test_wavefronts),
    };
    return cmocka_run_group_tests_name("explain", tests, NULL, NULL);
}
