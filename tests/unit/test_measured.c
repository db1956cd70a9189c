/* test_measured: the measured side of a recording without a GPU: reading the files the measuring
 * library wrote on an H100 (tests/data/measured, a naive and a padded 32x32 transpose of 1024x1024
 * floats, 32x8 threads, and a shared-atomic histogram), refusing broken ones with their line, the
 * per-line join and agreement rule, and the time-share bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/measured_file.h"
#include "model/measured.h"
#include "test_util.h"

/* Reads tests/data/measured/NAME (it must read). */
static void read_data(const char *name, measured_file *f)
{
    char rel[200], path[600];
    io_error err;
    snprintf(rel, sizeof rel, "data/measured/%s", name);
    bool ok = measured_file_read(test_path(rel, path, sizeof path), f, &err);
    if (!ok)
        fail_msg("%s", err.text);
}

/* The pcs of the instructions of one source line, from CUPTI's own line mapping in the file. */
static size_t pcs_of_line(const measured_file *f, uint32_t line, uint32_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < f->npcs && n < cap; i++)
        if (f->lines[i] == line && f->pcs[i].shared)
            out[n++] = f->pcs[i].pc;
    return n;
}

static void test_read_count(void **state)
{
    (void)state;
    measured_file f;
    read_data("h100-transpose_naive.count.txt", &f);
    assert_true(f.count_pass);
    assert_string_equal(f.kernel, "_Z15transpose_naivePfPKfi");
    assert_int_equal(f.launch, 0);
    assert_int_equal(f.grid[0], 32);
    assert_int_equal(f.grid[1], 32);
    assert_int_equal(f.block[1], 8);
    assert_int_equal(f.sms, 132);
    assert_string_equal(f.device, "NVIDIA H100 80GB HBM3");
    assert_null(f.error);
    assert_int_equal(f.npcs, 49);
    size_t shared = 0;
    for (size_t i = 0; i < f.npcs; i++)
        shared += f.pcs[i].shared;
    assert_int_equal(shared, 8); /* 4 STS and 4 LDS */
    assert_int_equal(f.pcs[39].pc, 0x270);
    assert_int_equal(f.pcs[39].c.wavefronts, 262144);
    assert_int_equal(f.pcs[39].c.ideal_wavefronts, 8192);
    assert_int_equal(f.lines[39], 16);
    assert_non_null(strstr(f.files[39], "transpose.cu"));
    measured_file_free(&f);

    read_data("h100-transpose_naive.time.txt", &f);
    assert_false(f.count_pass);
    assert_true(f.has_duration);
    assert_true(f.duration_ns > 0);
    assert_int_equal(f.npcs, 0);
    measured_file_free(&f);
}

/* Parses text; returns whether it parsed, the message in err. */
static bool parse(const char *text, measured_file *f, io_error *err)
{
    return measured_file_parse(text, strlen(text), "m.txt", f, err);
}

static void test_refused(void **state)
{
    (void)state;
    measured_file f;
    io_error err;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"", "m.txt: incomplete"},
        {"bankscope-measured/1\npass\tcount\n", "m.txt: incomplete"},
        {"bankscope-trace\nend\n", "m.txt:1: not a bankscope-measured/1 file"},
        {"bankscope-measured/1\npc\t10\t1\t5\n", "m.txt:2: bad pc record"},
        {"bankscope-measured/1\npc\tzz\t1\t5\t5\t1\t3\tf.cu\nend\n", "m.txt:2: bad pc record"},
        {"bankscope-measured/1\npc\t10\t2\t5\t5\t1\t3\tf.cu\nend\n", "m.txt:2: bad pc record"},
        {"bankscope-measured/1\npc\t10\t1\t-5\t5\t1\t3\tf.cu\nend\n", "m.txt:2: bad pc record"},
        {"bankscope-measured/1\ngrid\t1 2\nend\n", "m.txt:2: expected three sizes"},
        {"bankscope-measured/1\nwhat\t1\nend\n", "m.txt:2: unknown or malformed record"},
        {"bankscope-measured/1\nend\nmore\n", "m.txt:3: text after \"end\""},
        {"bankscope-measured/1\ndevice\tx\t1\tGPU\nend\n", "m.txt:2: bad device record"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(parse(bad[i].text, &f, &err));
        if (strncmp(err.text, bad[i].msg, strlen(bad[i].msg)) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, err.text, bad[i].msg);
    }
    assert_false(measured_file_read("/nonexistent/m.txt", &f, &err));
    assert_non_null(strstr(err.text, "/nonexistent/m.txt: "));

    assert_true(parse("bankscope-measured/1\npass\tcount\nerror\tno permission to profile this GPU\nend\n", &f, &err));
    assert_string_equal(f.error, "no permission to profile this GPU");
    assert_null(f.kernel);
    measured_file_free(&f);
}

/* The naive transpose's two shared lines against the engine's per-block figures: a 32x8 block is
 * 8 warps, each running 4 STS (1 wavefront each) on line 11 and 4 LDS (32 wavefronts: every lane
 * in one bank) on line 16; 1024 blocks. */
static void test_lines_transpose(void **state)
{
    (void)state;
    measured_file f;
    read_data("h100-transpose_naive.count.txt", &f);
    uint32_t sts[8], lds[8];
    size_t nsts = pcs_of_line(&f, 11, sts, 8), nlds = pcs_of_line(&f, 16, lds, 8);
    assert_int_equal(nsts, 4);
    assert_int_equal(nlds, 4);
    uint64_t blocks = (uint64_t)f.grid[0] * f.grid[1] * f.grid[2];
    measured_line l[2] = {
        {.pcs = sts,
         .npcs = nsts,
         .predicted_wavefronts = 32,
         .predicted_ideal = 32,
         .has_second = true,
         .second_wavefronts = 32,
         .second_ideal = 32},
        {.pcs = lds,
         .npcs = nlds,
         .predicted_wavefronts = 1024,
         .predicted_ideal = 32,
         .has_second = true,
         .second_wavefronts = 1024,
         .second_ideal = 32},
    };
    measured_lines(l, 2, f.pcs, f.npcs, blocks, false);
    assert_int_equal(l[0].measured.wavefronts, 32768);
    assert_int_equal(l[0].excess, 0);
    assert_int_equal(l[0].agree, MEASURED_AGREE_TRUE);
    assert_int_equal(l[1].measured.wavefronts, 1048576);
    assert_int_equal(l[1].measured.ideal_wavefronts, 32768);
    assert_int_equal(l[1].measured.instructions, 32768);
    assert_int_equal(l[1].excess, 1048576 - 32768);
    assert_int_equal(l[1].expected, 1048576);
    assert_int_equal(l[1].agree, MEASURED_AGREE_TRUE);
    assert_int_equal(l[1].why, MEASURED_WHY_NONE);

    /* a repeated pc counts once */
    uint32_t twice[2] = {lds[0], lds[0]};
    measured_line r = {
        .pcs = twice, .npcs = 2, .predicted_wavefronts = 256, .has_second = true, .second_wavefronts = 256};
    measured_lines(&r, 1, f.pcs, f.npcs, blocks, false);
    assert_int_equal(r.measured.wavefronts, 262144);
    assert_int_equal(r.agree, MEASURED_AGREE_TRUE);

    /* the rule's other outcomes */
    measured_line one = l[1];
    one.has_second = false;
    measured_lines(&one, 1, f.pcs, f.npcs, blocks, false);
    assert_int_equal(one.agree, MEASURED_AGREE_NULL);
    assert_int_equal(one.why, MEASURED_WHY_ONE_BLOCK);
    assert_int_equal(one.measured.wavefronts, 1048576); /* measured anyway */
    measured_line differ = l[1];
    differ.second_wavefronts = 512;
    measured_lines(&differ, 1, f.pcs, f.npcs, blocks, false);
    assert_int_equal(differ.agree, MEASURED_AGREE_NULL);
    assert_int_equal(differ.why, MEASURED_WHY_BLOCKS_DIFFER);
    measured_line wrong = l[1];
    wrong.predicted_wavefronts = wrong.second_wavefronts = 512;
    measured_lines(&wrong, 1, f.pcs, f.npcs, blocks, false);
    assert_int_equal(wrong.agree, MEASURED_AGREE_FALSE);
    assert_int_equal(wrong.why, MEASURED_WHY_OTHER_BLOCKS);
    measured_lines(&wrong, 1, f.pcs, f.npcs, blocks, true);
    assert_int_equal(wrong.why, MEASURED_WHY_ASYNC_FILL);
    measured_line unmodelled = l[1];
    unmodelled.unmodelled = true;
    measured_lines(&unmodelled, 1, f.pcs, f.npcs, blocks, false);
    assert_int_equal(unmodelled.agree, MEASURED_AGREE_FALSE);
    assert_int_equal(unmodelled.why, MEASURED_WHY_NOT_MODELLED);
    uint32_t none[1] = {0x2b0}; /* an instruction without shared-memory counts */
    measured_line uncounted = {.pcs = none, .npcs = 1, .has_second = true};
    measured_lines(&uncounted, 1, f.pcs, f.npcs, blocks, false);
    assert_int_equal(uncounted.agree, MEASURED_AGREE_FALSE);
    assert_int_equal(uncounted.why, MEASURED_WHY_UNCOUNTED);
    assert_true(strlen(measured_why_text(MEASURED_WHY_ASYNC_FILL)) > 0);
    assert_string_equal(measured_agree_name(MEASURED_AGREE_NULL), "null");
    measured_file_free(&f);
}

/* The padded transpose measures no excess; the histogram's atomics do (data-dependent bins). */
static void test_padded_and_histogram(void **state)
{
    (void)state;
    measured_file f;
    read_data("h100-transpose_padded.count.txt", &f);
    for (size_t i = 0; i < f.npcs; i++)
        assert_int_equal(f.pcs[i].c.wavefronts, f.pcs[i].c.ideal_wavefronts);
    measured_file_free(&f);
    read_data("h100-histogram.count.txt", &f);
    uint64_t excess = 0;
    for (size_t i = 0; i < f.npcs; i++)
        excess += f.pcs[i].c.wavefronts - f.pcs[i].c.ideal_wavefronts;
    assert_true(excess > 0);
    measured_file_free(&f);
}

/* Every file the library wrote in the H100 run kept beside ncu's pages reads, and says what it is. */
static void test_read_all_kept(void **state)
{
    (void)state;
    char path[600];
    DIR *dir = opendir(test_path("data/measured/ncu", path, sizeof path));
    assert_non_null(dir);
    int counts = 0, times = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        bool count = strstr(e->d_name, ".count.txt") != NULL, time = strstr(e->d_name, ".time.txt") != NULL;
        if (!count && !time)
            continue;
        char rel[300];
        snprintf(rel, sizeof rel, "ncu/%s", e->d_name);
        measured_file f;
        read_data(rel, &f);
        assert_int_equal(f.count_pass, count);
        assert_non_null(f.kernel);
        assert_null(f.error);
        assert_true(count ? f.npcs > 0 : f.has_duration && f.duration_ns > 0);
        counts += count;
        times += time;
        measured_file_free(&f);
    }
    closedir(dir);
    assert_int_equal(counts, 9);
    assert_int_equal(times, 9);
}

/* Agreement computed again from a line's counts and prediction: never taken from a file; a
 * product that does not fit 64 bits is refused, not wrapped. */
static void test_recompute(void **state)
{
    (void)state;
    measured_launch l = {.blocks = 1024, .has_second = true, .invariant = true};
    measured_counts c = {1048576, 32768, 32768};
    int64_t excess;
    uint64_t expected;
    measured_agree agree;
    measured_why why;
    assert_true(measured_recompute(&l, &c, 1024, false, &excess, &expected, &agree, &why));
    assert_int_equal(expected, 1048576);
    assert_int_equal(excess, 1015808);
    assert_int_equal(agree, MEASURED_AGREE_TRUE);
    assert_true(measured_recompute(&l, &c, 512, false, &excess, &expected, &agree, &why)); /* another model */
    assert_int_equal(expected, 524288);
    assert_int_equal(agree, MEASURED_AGREE_FALSE);
    assert_int_equal(why, MEASURED_WHY_OTHER_BLOCKS);
    assert_true(measured_recompute(&l, &c, 1024, true, &excess, &expected, &agree, &why));
    assert_int_equal(why, MEASURED_WHY_NOT_MODELLED);
    l.invariant = false; /* the second block differs on this line: not established */
    assert_true(measured_recompute(&l, &c, 1024, false, &excess, &expected, &agree, &why));
    assert_int_equal(agree, MEASURED_AGREE_NULL);
    assert_int_equal(why, MEASURED_WHY_BLOCKS_DIFFER);
    l.has_second = false;
    assert_true(measured_recompute(&l, &c, 1024, false, &excess, &expected, &agree, &why));
    assert_int_equal(why, MEASURED_WHY_ONE_BLOCK);
    l.blocks = 1; /* one block: the recorded one is the launch */
    assert_true(measured_recompute(&l, &c, 1048576, false, &excess, &expected, &agree, &why));
    assert_int_equal(agree, MEASURED_AGREE_TRUE);
    l.blocks = (uint64_t)1 << 40;
    assert_false(measured_recompute(&l, &c, (uint64_t)1 << 30, false, &excess, &expected, &agree, &why));
}

static void test_share(void **state)
{
    (void)state;
    /* 132 SMs at 1.98 GHz for 6432 ns: 1 681 021 cycles of shared pipes */
    double s = measured_share(1015808, 132, 1980000, 6432);
    assert_true(fabs(s - 1015808.0 / (132.0 * 1.98e9 * 6432e-9)) < 1e-12);
    assert_true(measured_share(1, 0, 1980000, 10) < 0);
    assert_true(measured_share(1, 132, 0, 10) < 0);
    assert_true(measured_share(1, 132, 1980000, 0) < 0);
    assert_true(measured_share(0, 132, 1980000, 10) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_count),      cmocka_unit_test(test_refused),
        cmocka_unit_test(test_lines_transpose), cmocka_unit_test(test_padded_and_histogram),
        cmocka_unit_test(test_recompute),       cmocka_unit_test(test_share),
        cmocka_unit_test(test_read_all_kept),
    };
    return cmocka_run_group_tests_name("measured", tests, NULL, NULL);
}
