/* test_source_lines: the source view's rows. An import's accesses land on the lines their
 * locations (or labels) name, with the file's text or the texts they carry; a recording's trace
 * entries on its lines, with its measured numbers; the rows' predicted sums are the engine's
 * totals over every warp-instruction (what analyze prints); cost order; the import's skips and the
 * lines that name an array with no access. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <unistd.h>

#include "io/recording.h"
#include "core/analysis.h"
#include "core/line_sums.h"
#include "model/source_lines.h"
#include "test_util.h"

/* A kernel file of 9 lines and a scenario of its three accesses, two located by "location" and
 * one by its label only; the row read is free, the column read 32-way. */
static const char *const kfile = "// k.cu\n"
                                 "__global__ void k(float *o)\n"
                                 "{\n"
                                 "    __shared__ float tile[32][32];\n"
                                 "    tile[threadIdx.y][threadIdx.x] = 1.0f;\n"
                                 "    __syncthreads();\n"
                                 "    o[0] = tile[threadIdx.x][threadIdx.y] + tile[threadIdx.y][threadIdx.x];\n"
                                 "    o[1] = tile[0][threadIdx.x]; // tile\n"
                                 "}\n";

static const char *const kscen =
    "{ \"block\": [32, 32], \"arrays\": [ { \"name\": \"tile\", \"type\": \"float\", \"dims\": [32, 32] } ],"
    "  \"accesses\": ["
    "  { \"op\": \"store\", \"array\": \"tile\", \"index\": [\"ty\", \"tx\"], \"label\": \"k.cu:5:5\","
    "    \"location\": { \"file\": \"k.cu\", \"line\": 5, \"column\": 5, \"text\": \"    "
    "tile[threadIdx.y][threadIdx.x] = 1.0f;\" } },"
    "  { \"op\": \"load\", \"array\": \"tile\", \"index\": [\"tx\", \"ty\"], \"label\": \"k.cu:7:12\","
    "    \"source\": \"o[0] = tile[threadIdx.x][threadIdx.y]\" },"
    "  { \"op\": \"load\", \"array\": \"tile\", \"index\": [\"ty\", \"tx\"], \"label\": \"k.cu:7:45\","
    "    \"location\": { \"file\": \"k.cu\", \"line\": 7, \"column\": 45 } } ] }";

/* The engine's totals over every warp-instruction of s (what analyze sums). */
static void engine_totals(const scenario *s, int64_t *wf, int64_t *ideal)
{
    scenario_instr in;
    banks_result r;
    *wf = *ideal = 0;
    for (int64_t k = 0; k < scenario_instr_count(s); k++) {
        scenario_instr_at(s, k, &in);
        banks_analyze(s->arch, &in.req, &r, NULL);
        *wf += r.wavefronts;
        *ideal += r.ideal_wavefronts;
    }
}

static void test_import_rows(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load(kscen, &s, &err));
    source_lines sl;
    char why[200];
    assert_true(line_sums_source(&s, kfile, strlen(kfile), NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_string_equal(sl.file, "k.cu");
    assert_int_equal(sl.nfile, 9);
    assert_int_equal(sl.nrows, 9);
    assert_int_equal(sl.unlocated, 0);
    assert_false(sl.recording);
    assert_string_equal(sl.rows[3].text, "    __shared__ float tile[32][32];");
    /* line 5: the store; line 7: both loads, in scenario order */
    assert_int_equal(sl.rows[4].naccess, 1);
    assert_int_equal(sl.rows[4].access[0], 0);
    assert_int_equal(sl.rows[6].naccess, 2);
    assert_int_equal(sl.rows[6].access[0], 1);
    assert_int_equal(sl.rows[6].access[1], 2);
    /* 32 warps each: the store and the row read 1 wavefront, the column read 32 */
    assert_int_equal(sl.rows[4].instructions, 32);
    assert_int_equal(sl.rows[4].wavefronts, 32);
    assert_int_equal(sl.rows[4].worst, 1);
    assert_int_equal(sl.rows[6].instructions, 64);
    assert_int_equal(sl.rows[6].wavefronts, 32 * 32 + 32);
    assert_int_equal(sl.rows[6].ideal, 64);
    assert_int_equal(sl.rows[6].worst, 32);
    assert_int_equal(sl.rows[0].naccess, 0);
    assert_int_equal(sl.rows[0].worst, 0);
    /* the rows' sums are the engine's totals */
    int64_t wf, ideal;
    engine_totals(&s, &wf, &ideal);
    assert_int_equal(sl.wavefronts, wf);
    assert_int_equal(sl.ideal, ideal);
    assert_int_equal(sl.rows[4].wavefronts + sl.rows[6].wavefronts, wf);
    /* line 8 names tile and holds no access: an access the import may have left out; the
     * declaration (line 4) and lines outside the accesses' span are not marked */
    assert_true(sl.rows[7].names_array == false); /* after the last access: outside the span */
    assert_false(sl.rows[3].names_array);
    source_lines_free(&sl);
    scenario_free(&s);
}

static void test_carried_text(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load(kscen, &s, &err));
    source_lines sl;
    char why[200];
    /* the file is not at hand: the texts the locations carry, the rest unknown */
    assert_true(line_sums_source(&s, NULL, 0, NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_int_equal(sl.nfile, 7);
    assert_string_equal(sl.rows[4].text, "    tile[threadIdx.y][threadIdx.x] = 1.0f;");
    assert_string_equal(sl.rows[6].text, "o[0] = tile[threadIdx.x][threadIdx.y]"); /* the access's source */
    assert_null(sl.rows[0].text);
    assert_int_equal(sl.stale, 0);
    source_lines_free(&sl);
    /* a file whose line 5 is no longer the access's: stale, so the caller can say so */
    const char *changed = "a\nb\nc\nd\n    tile[0][0] = 2.0f;\nf\n    o[0] = tile[threadIdx.x][threadIdx.y] + 1;\n";
    assert_true(line_sums_source(&s, changed, strlen(changed), NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_int_equal(sl.stale, 1);
    assert_true(sl.rows[4].stale);
    assert_false(sl.rows[6].stale); /* line 7 still holds the load's statement */
    source_lines_free(&sl);
    assert_true(line_sums_source(&s, kfile, strlen(kfile), NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_int_equal(sl.stale, 0);
    source_lines_free(&sl);
    scenario_free(&s);
}

/* A location far past the file's end (or, with no file, past any real file) takes one row of
 * its own after the file's rows instead of stretching the file to that line. */
static void test_far_line(void **state)
{
    (void)state;
    const char *far =
        "{ \"block\": [32], \"arrays\": [ { \"name\": \"a\", \"type\": \"float\", \"dims\": [32] } ],"
        "  \"accesses\": ["
        "  { \"op\": \"load\", \"array\": \"a\", \"index\": [\"tx\"], \"label\": \"x.cu:2:1\" },"
        "  { \"op\": \"load\", \"array\": \"a\", \"index\": [\"tx\"], \"label\": \"x.cu:999999999:1\" } ] }";
    scenario s;
    io_error err;
    assert_true(test_load(far, &s, &err));
    source_lines sl;
    char why[200];
    assert_true(line_sums_source(&s, NULL, 0, NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_int_equal(sl.nfile, 2);
    assert_int_equal(sl.nrows, 3);
    assert_int_equal(sl.rows[2].line, 999999999);
    source_lines_free(&sl);
    const char *text = "a\nb\nc\n";
    assert_true(line_sums_source(&s, text, strlen(text), NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_int_equal(sl.nfile, 3);
    assert_int_equal(sl.nrows, 4);
    source_lines_free(&sl);
    scenario_free(&s);
}

static void test_order(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load(kscen, &s, &err));
    source_lines sl;
    char why[200];
    assert_true(line_sums_source(&s, kfile, strlen(kfile), NULL, 0, NULL, 0, &sl, why, sizeof why));
    int order[16];
    assert_int_equal(source_lines_order(&sl, false, order), 9);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[8], 8);
    assert_int_equal(source_lines_order(&sl, true, order), 2); /* the lines with accesses, hottest first */
    assert_int_equal(order[0], 6);
    assert_int_equal(order[1], 4);
    source_lines_free(&sl);
    scenario_free(&s);
}

static void test_skips_and_names(void **state)
{
    (void)state;
    /* a histogram whose data-dependent atomic (line 3) was skipped */
    const char *src = "__global__ void h(const int *in) {\n"
                      "    __shared__ unsigned hist[256];\n"
                      "    hist[threadIdx.x] = 0;\n"
                      "    atomicAdd(&hist[in[threadIdx.x]], 1u);\n"
                      "    in += hist[threadIdx.x];\n"
                      "}\n";
    const char *scen = "{ \"block\": [256], \"arrays\": [ { \"name\": \"hist\", \"type\": \"unsigned int\", "
                       "\"dims\": [256] } ], \"accesses\": ["
                       "{ \"op\": \"store\", \"array\": \"hist\", \"index\": \"tid\", \"label\": \"h.cu:3:5\" },"
                       "{ \"op\": \"load\", \"array\": \"hist\", \"index\": \"tid\", \"label\": \"h.cu:5:11\" } ] }";
    scenario s;
    io_error err;
    assert_true(test_load(scen, &s, &err));
    source_lines sl;
    char why[200];
    assert_true(line_sums_source(&s, src, strlen(src), NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_true(sl.rows[3].names_array); /* names hist between the accesses, none imported */
    assert_false(sl.rows[2].names_array);
    assert_false(sl.rows[1].names_array); /* the declaration */
    source_lines_free(&sl);
    source_skip sk[] = {{"dir/h.cu", 4, 5, "h.cu:4:5: skipped atomic of 'hist': depends on data"},
                        {"other.cu", 9, 1, "other.cu:9:1: skipped load of 'x': why"}};
    assert_true(line_sums_source(&s, src, strlen(src), NULL, 0, sk, 2, &sl, why, sizeof why));
    assert_int_equal(sl.rows[3].nskipped, 1);
    assert_string_equal(sl.rows[3].skipped[0], sk[0].message);
    assert_false(sl.rows[3].names_array);     /* the importer said, no guess */
    assert_int_equal(sl.nrows, sl.nfile + 1); /* the other file's skip: an extra row */
    assert_string_equal(sl.rows[sl.nfile].file, "other.cu");
    assert_int_equal(sl.rows[sl.nfile].line, 9);
    source_lines_free(&sl);
    scenario_free(&s);
}

static void test_no_location(void **state)
{
    (void)state;
    scenario s;
    test_load_pattern("transpose-naive", &s);
    source_lines sl;
    char why[200];
    assert_false(line_sums_source(&s, NULL, 0, NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_non_null(strstr(why, "do not say where"));
    char buf[100];
    assert_null(source_lines_file(&s, NULL, 0, buf, sizeof buf));
    scenario_free(&s);
}

static void test_labels(void **state)
{
    (void)state;
    char f[64];
    int line;
    assert_true(source_lines_parse_label("k.cu:12:7", f, sizeof f, &line));
    assert_string_equal(f, "k.cu");
    assert_int_equal(line, 12);
    assert_true(source_lines_parse_label("/a:b/k.cu:26", f, sizeof f, &line));
    assert_string_equal(f, "/a:b/k.cu");
    assert_int_equal(line, 26);
    assert_false(source_lines_parse_label("row 3:4", f, sizeof f, &line));
    assert_false(source_lines_parse_label("k.cu", f, sizeof f, &line));
    assert_false(source_lines_parse_label(":3:4", f, sizeof f, &line));
    assert_false(source_lines_parse_label("k.cu:0:4", f, sizeof f, &line));
    assert_false(source_lines_parse_label(NULL, f, sizeof f, &line));
    source_skip sk;
    const char *m = "dir/h.cu:10:9: skipped atomic of 'hist': depends on data: reads memory";
    assert_true(source_lines_parse_skip(m, f, sizeof f, &sk));
    assert_string_equal(sk.file, "dir/h.cu");
    assert_int_equal(sk.line, 10);
    assert_int_equal(sk.column, 9);
    assert_ptr_equal(sk.message, m);
    assert_true(source_lines_parse_skip("h.cu:3: skipped load of 'a': why", f, sizeof f, &sk));
    assert_int_equal(sk.line, 3);
    assert_int_equal(sk.column, 0);
    assert_false(source_lines_parse_skip("h.cu:3:4: note: blockIdx is block 0", f, sizeof f, &sk));
    assert_false(source_lines_parse_skip("skipped: x", f, sizeof f, &sk));
}

/* A trace of four entries: two on line 3 (one 2-way), one on a header line, one without line
 * info; the recording measured line 3 (its forged conclusions are not carried). */
static void test_recording_rows(void **state)
{
    (void)state;
    char json[4096];
    int n = snprintf(json, sizeof json, "{ \"arch\": \"sm_90\", \"trace\": [");
    for (int e = 0; e < 4; e++) {
        n += snprintf(json + n, sizeof json - (size_t)n, "%s{ \"op\": \"load\", \"width\": 4, \"addresses\": [",
                      e ? ", " : "");
        for (int l = 0; l < 32; l++) /* entry 1: stride 2 words, a 2-way conflict */
            n += snprintf(json + n, sizeof json - (size_t)n, "%s%d", l ? ", " : "", l * 4 * (e == 1 ? 2 : 1));
        n += snprintf(json + n, sizeof json - (size_t)n, "] }");
    }
    snprintf(json + n, sizeof json - (size_t)n, "] }");
    scenario s;
    io_error err;
    assert_true(test_load(json, &s, &err));
    const int64_t i3[] = {0, 1}, ih[] = {2}, in[] = {3};
    source_record_line rec[] = {
        {"t.cu", 3, "  x = s[i];", i3, 2, {true, 700, 200, 200, 300, MEASURED_AGREE_FALSE, "forged", true}},
        {"/usr/include/h.h", 40, "  return *p;", ih, 1, {0}},
        {NULL, 0, NULL, in, 1, {0}},
    };
    const char *text = "a\nb\nc\n";
    source_lines sl;
    char why[200], f[64];
    assert_string_equal(source_lines_file(&s, rec, 3, f, sizeof f), "t.cu");
    assert_true(line_sums_source(&s, text, strlen(text), rec, 3, NULL, 0, &sl, why, sizeof why));
    assert_true(sl.recording);
    /* the .cu file is shown before a header, though the header holds more entries */
    const int64_t three[] = {0, 1, 2}, one[] = {3};
    source_record_line inl[] = {{"/usr/include/h.h", 40, NULL, three, 3, {0}}, {"t.cu", 3, NULL, one, 1, {0}}};
    assert_string_equal(source_lines_file(&s, inl, 2, f, sizeof f), "t.cu");
    assert_true(sl.measured);
    assert_int_equal(sl.nfile, 3);
    assert_string_equal(sl.rows[2].text, "c"); /* the file wins over the carried text */
    assert_int_equal(sl.rows[2].naccess, 2);
    assert_int_equal(sl.rows[2].wavefronts, 3);
    assert_int_equal(sl.rows[2].ideal, 2);
    assert_int_equal(sl.rows[2].worst, 2);
    assert_true(sl.rows[2].measured.known);
    assert_int_equal(sl.rows[2].measured.wavefronts, 700);
    /* the file's conclusions are not carried: the caller computes them (measured_recompute) */
    assert_int_equal(sl.rows[2].measured.agree, MEASURED_AGREE_NULL);
    assert_null(sl.rows[2].measured.why);
    assert_int_equal(sl.rows[2].measured.predicted_launch, 0);
    assert_true(sl.rows[2].measured.second_differs);
    assert_int_equal(sl.nrows, 5); /* the header's line and the entries without line info */
    assert_string_equal(sl.rows[3].file, "/usr/include/h.h");
    assert_int_equal(sl.rows[3].line, 40);
    assert_string_equal(sl.rows[3].text, "  return *p;");
    assert_null(sl.rows[4].file);
    assert_int_equal(sl.rows[4].line, 0);
    assert_int_equal(sl.rows[4].instructions, 1);
    assert_false(sl.rows[3].measured.known);
    int64_t wf, ideal;
    engine_totals(&s, &wf, &ideal);
    assert_int_equal(sl.wavefronts, wf);
    assert_int_equal(sl.rows[2].wavefronts + sl.rows[3].wavefronts + sl.rows[4].wavefronts, wf);
    source_lines_free(&sl);
    /* a line whose instructions have no trace entry (wgmma: measured only) has its row, with the
     * launch's measured numbers and nothing predicted, as analyze lists it: on the file's line 2,
     * and on a row of its own past the file's end */
    source_record_line mo[] = {
        rec[0],
        rec[1],
        rec[2],
        {"t.cu", 2, "  wgmma();", NULL, 0, {true, 144, 144, 32, 0, MEASURED_AGREE_NULL, NULL, false}},
        {"t.cu", 9, "  later();", NULL, 0, {true, 16, 8, 4, 0, MEASURED_AGREE_NULL, NULL, false}},
    };
    assert_true(line_sums_source(&s, NULL, 0, mo, 5, NULL, 0, &sl, why, sizeof why));
    assert_int_equal(sl.nfile, 9); /* the file is not at hand: its rows reach the last line named */
    assert_int_equal(sl.rows[1].naccess, 0);
    assert_true(sl.rows[1].measured.known);
    assert_int_equal(sl.rows[1].measured.wavefronts, 144);
    assert_string_equal(sl.rows[1].text, "  wgmma();");
    assert_int_equal(sl.rows[1].wavefronts, 0);
    assert_true(sl.rows[8].measured.known);
    assert_int_equal(sl.rows[8].measured.ideal_wavefronts, 8);
    assert_int_equal(sl.rows[2].measured.wavefronts, 700); /* line 3 keeps its own */
    source_lines_free(&sl);
    /* a trace without the recording's lines has no source */
    assert_false(line_sums_source(&s, NULL, 0, NULL, 0, NULL, 0, &sl, why, sizeof why));
    assert_non_null(strstr(why, "bankscope record"));
    scenario_free(&s);
}

/* A recording made on an H100 by bankscope record (tests/data/record): its members read, its
 * lines locate the entries exactly as the loader's per-entry locations do, and the 32-way line's
 * sums are the engine's. */
static void test_recording_file(void **state)
{
    (void)state;
    char path[600];
    test_path("data/record/transpose-naive.json", path, sizeof path);
    recording r;
    io_error err;
    assert_int_equal(recording_read(path, &r, &err), 1);
    assert_string_equal(r.kernel, "transpose_naive(float*, float const*)");
    assert_int_equal(r.launch, 0);
    assert_int_equal(r.block[0] + r.block[1] + r.block[2], 0);
    assert_int_equal(r.grid[0], 32);
    assert_false(r.truncated);
    assert_int_equal(r.nrows, 2);
    char scope[300];
    recording_scope(&r, scope, sizeof scope);
    assert_string_equal(scope, "block (0,0,0) of launch 0 of transpose_naive(float*, float const*)");
    scenario s;
    assert_true(load_scenario_file(path, NULL, &s, &err));
    source_lines a, b;
    char why[200];
    assert_true(line_sums_source(&s, NULL, 0, r.rows, r.nrows, NULL, 0, &a, why, sizeof why));
    assert_true(line_sums_source(&s, NULL, 0, NULL, 0, NULL, 0, &b, why, sizeof why)); /* trace_at */
    assert_int_equal(a.nrows, b.nrows);
    for (int i = 0; i < a.nrows; i++) {
        assert_int_equal(a.rows[i].naccess, b.rows[i].naccess);
        assert_int_equal(a.rows[i].wavefronts, b.rows[i].wavefronts);
    }
    assert_int_equal(a.nfile, 22);
    assert_int_equal(a.rows[21].naccess, 32);
    assert_int_equal(a.rows[21].wavefronts, 1024);
    assert_int_equal(a.rows[21].ideal, 32);
    assert_int_equal(a.rows[21].worst, 32);
    assert_int_equal(a.rows[15].wavefronts, 32);
    int64_t wf, ideal;
    engine_totals(&s, &wf, &ideal);
    assert_int_equal(a.wavefronts, wf);
    assert_int_equal(a.rows[15].wavefronts + a.rows[21].wavefronts, wf);
    source_lines_free(&a);
    source_lines_free(&b);
    scenario_free(&s);
    recording_free(&r);
    /* the file the locations were taken from holds their texts; another does not */
    size_t len;
    char *text = load_read_file(test_path("gpu/record/transpose.cu", path, sizeof path), &len, &err);
    assert_non_null(text);
    test_path("data/record/transpose-naive.json", path, sizeof path);
    assert_int_equal(recording_read(path, &r, &err), 1);
    assert_true(load_scenario_file(path, NULL, &s, &err));
    int matched = -1;
    assert_int_equal(source_lines_mismatches(&s, r.rows, r.nrows, text, len, &matched), 0);
    assert_int_equal(matched, 64); /* every entry's text vouches for the file */
    assert_int_equal(source_lines_mismatches(&s, r.rows, r.nrows, "x\ny\n", 4, &matched), 64); /* every entry */
    assert_int_equal(matched, 0);
    /* lines without texts hold in any file, and vouch for none */
    for (int i = 0; i < r.nrows; i++) {
        free((char *)r.rows[i].text);
        r.rows[i].text = NULL;
    }
    scenario_free(&s);
    assert_true(load_scenario_file(path, NULL, &s, &err));
    assert_int_equal(source_lines_mismatches(&s, r.rows, r.nrows, "x\ny\n", 4, &matched), 0);
    assert_int_equal(matched, 0);
    free(text);
    scenario_free(&s);
    recording_free(&r);
    /* a scenario is not a recording */
    assert_int_equal(recording_read(test_path("tui/many-instructions.json", path, sizeof path), &r, &err), 0);
}

/* The one reader of a recording gives each line's SASS instructions with their inline chains and
 * what the count run measured at each (the SASS page's rows), and places an error exactly even
 * after members it does not use (a recording rewritten with one value a line). */
static void test_recording_pcs(void **state)
{
    (void)state;
    char path[600];
    test_path("data/record/modern-histogram256.json", path, sizeof path);
    recording r;
    io_error err;
    assert_int_equal(recording_read(path, &r, &err), 1);
    assert_int_equal(r.nrows, 6);
    assert_int_equal(r.npcs, 22);
    const recording_pc *p = NULL;
    for (int i = 0; i < r.npcs && !p; i++)
        if (r.pcs[i].pc == 368)
            p = &r.pcs[i];
    assert_non_null(p);
    assert_int_equal(r.rows[p->row].line, 21);
    assert_string_equal(p->sass, "ATOMS.POPC.INC.32 RZ, [R7+URZ]");
    assert_int_equal(p->executions, 8);
    assert_int_equal(p->nchain, 2);
    assert_int_equal(p->chain[0].line, 112);
    assert_string_equal(p->chain[1].text, "        atomicAdd(&bins[v], 1u);");
    assert_true(p->has_measured);
    assert_int_equal(p->m.wavefronts, 1188);
    assert_int_equal(p->m.ideal_wavefronts, 512);
    assert_true(r.measured);
    assert_null(r.index); /* only recording_read_indexes keeps them */
    recording_free(&r);
    /* a count out of bounds, after a member spread over many lines: its own line and column */
    char bad[64];
    snprintf(bad, sizeof bad, "/tmp/bankscope-test-rec-%d.json", (int)getpid());
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("{\"format\": \"bankscope-record/1\",\n \"arguments\": [\n  \"a\",\n  \"b\"\n ],\n"
          " \"measured\": {\"blocks\": -3},\n \"lines\": [],\n \"trace\": []\n}\n",
          f);
    fclose(f);
    assert_int_equal(recording_read(bad, &r, &err), -1);
    char want[200];
    snprintf(want, sizeof want, "%s:6:25: blocks: expected an integer from 1 to 1000000000000000", bad);
    assert_string_equal(err.text, want);
    unlink(bad);
}

/* The one walk's rule: a not-modelled instruction counts once and in no other sum, the worst
 * degree is the largest, the costliest access is the first with the most wavefronts beyond ideal,
 * and an instruction is added to its access, line and PC alike. */
typedef struct walk_list {
    const line_sums_instr *v;
    int n, i;
} walk_list;

static int list_next(void *ctx, line_sums_instr *in)
{
    walk_list *w = ctx;
    if (w->i == w->n)
        return 0;
    *in = w->v[w->i++];
    return 1;
}

static void test_line_sums_rule(void **state)
{
    (void)state;
    banks_request conflict = {.op = BANKS_LOAD, .width = 4, .active = 0xffffffffu}, free_ = conflict;
    for (int l = 0; l < 32; l++) {
        conflict.addr[l] = (uint64_t)l * 128; /* one bank: 32-way */
        free_.addr[l] = (uint64_t)l * 4;
    }
    line_sums_instr v[] = {
        {.req = free_, .access = 0, .line = 0, .pc = 1},
        {.req = conflict, .access = 1, .line = 0, .pc = 0},
        {.req = conflict, .access = 2, .line = 0, .pc = 0},
        {.unmodelled = "a kind the model does not cover", .access = 3, .line = 1, .pc = 0},
    };
    line_sum per_line[2] = {0}, per_pc[2] = {0}, per_access[4] = {0};
    line_sums s = {.arch = banks_profile_find("sm_90"),
                   .per_access = per_access,
                   .naccess = 4,
                   .per_line = per_line,
                   .nlines = 2,
                   .per_pc = per_pc,
                   .npcs = 2};
    walk_list w = {v, 4, 0};
    assert_int_equal(line_sums_walk(&s, list_next, &w), 0);
    assert_int_equal(s.total.instructions, 4);
    assert_int_equal(s.total.not_modelled, 1);
    assert_int_equal(s.total.wavefronts, 1 + 32 + 32);
    assert_int_equal(s.total.ideal, 3);
    assert_int_equal(s.total.worst, 32);
    assert_int_equal(per_line[0].instructions, 3);
    assert_int_equal(per_line[1].not_modelled, 1);
    assert_int_equal(per_line[1].wavefronts, 0);
    assert_int_equal(per_line[1].worst, 0);
    assert_false(per_line[1].has_costliest);
    assert_int_equal(per_pc[0].instructions, 3);
    assert_int_equal(per_pc[0].costliest, 1); /* the first of the two 32-way ones */
    assert_int_equal(per_pc[1].wavefronts, 1);
    assert_int_equal(per_access[2].wavefronts, 32);
    assert_int_equal(s.total.costliest, 1);
}

/* The costliest of a line's instructions (what Enter in the source view opens): the most
 * wavefronts beyond ideal, then the most wavefronts, the first on a tie; entries out of range are
 * skipped. Entry 0: 4 B per lane at a stride of 2 words; entry 1: 8 B per lane, the second half
 * at a stride of 4 words; both one wavefront beyond ideal, entry 1 with more wavefronts. */
static void test_costliest_entry(void **state)
{
    (void)state;
    char json[4096];
    int n = snprintf(json, sizeof json, "{ \"arch\": \"sm_90\", \"trace\": [");
    for (int e = 0; e < 3; e++) {
        n += snprintf(json + n, sizeof json - (size_t)n, "%s{ \"op\": \"load\", \"width\": %d, \"addresses\": [",
                      e ? ", " : "", e == 1 ? 8 : 4);
        for (int l = 0; l < 32; l++)
            n += snprintf(json + n, sizeof json - (size_t)n, "%s%d", l ? ", " : "",
                          e == 0   ? l * 8
                          : e == 1 ? (l < 16 ? l * 8 : 1024 + (l - 16) * 16)
                                   : l * 4);
        n += snprintf(json + n, sizeof json - (size_t)n, "] }");
    }
    snprintf(json + n, sizeof json - (size_t)n, "] }");
    scenario s;
    io_error err;
    assert_true(test_load(json, &s, &err));
    banks_result r0, r1;
    banks_analyze(s.arch, &s.trace[0], &r0, NULL);
    banks_analyze(s.arch, &s.trace[1], &r1, NULL);
    assert_int_equal(r0.wavefronts - r0.ideal_wavefronts, r1.wavefronts - r1.ideal_wavefronts);
    assert_true(r1.wavefronts > r0.wavefronts);
    const int both[] = {0, 1}, back[] = {1, 0}, free_first[] = {2, 0}, bad[] = {-1, 7, 2};
    assert_int_equal(line_sums_costliest_entry(&s, both, 2), 1); /* more wavefronts wins the tie */
    assert_int_equal(line_sums_costliest_entry(&s, back, 2), 1);
    assert_int_equal(line_sums_costliest_entry(&s, free_first, 2), 0); /* beyond ideal first */
    assert_int_equal(line_sums_costliest_entry(&s, bad, 3), 2);        /* out of range: skipped */
    scenario_free(&s);
}

/* The core's totals are the engine's sum over every warp-instruction; a set cancel stops the walk
 * before its first instruction. */
static void test_analysis_totals(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    assert_true(test_load(kscen, &s, &err));
    report_totals t;
    assert_true(analysis_totals(&s, &t, NULL));
    int64_t wf, ideal;
    engine_totals(&s, &wf, &ideal);
    assert_int_equal(t.instructions, scenario_instr_count(&s));
    assert_int_equal(t.wavefronts, wf);
    assert_int_equal(t.ideal, ideal);
    atomic_int cancel = 1;
    atomic_llong done = 0;
    assert_false(analysis_totals(&s, &t, &(analysis_progress){.cancel = &cancel, .done = &done}));
    assert_int_equal(t.instructions, 0);
    assert_int_equal(atomic_load(&done), 0);
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recording_pcs),   cmocka_unit_test(test_line_sums_rule),
        cmocka_unit_test(test_import_rows),     cmocka_unit_test(test_carried_text),
        cmocka_unit_test(test_order),           cmocka_unit_test(test_skips_and_names),
        cmocka_unit_test(test_no_location),     cmocka_unit_test(test_labels),
        cmocka_unit_test(test_recording_rows),  cmocka_unit_test(test_recording_file),
        cmocka_unit_test(test_far_line),        cmocka_unit_test(test_costliest_entry),
        cmocka_unit_test(test_analysis_totals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
