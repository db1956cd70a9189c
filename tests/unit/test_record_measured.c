/* test_record_measured: the measured side of `bankscope record` without a GPU: a recording's book
 * (the naive transpose's two shared lines, as the capture of block (0,0,0) gives them) joined with
 * the count and time files the recording library wrote on an H100 (tests/data/measured/ncu), a
 * second block that agrees or not, a failed count run, and the JSON and text that come out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/recording_measured.h"
#include "test_util.h"

/* A book of the naive transpose (tests/gpu/record/transpose.cu) as the capture builds it:
 * line 15 (4 STS at 0x220..0x250? no: the pcs of the kept count file) and line 21 (4 LDS). */
typedef struct {
    record_capture cap;
    record_sass sass;
    record_sass_line sl[8];
    record_line lines[2];
    record_pc pcs[8];
    record_book book;
} fake_book;

/* Fills fb from the count file's own line mapping: its shared pcs of lines 15 and 21. */
static void fake_transpose(fake_book *fb, const measured_file *count, int64_t w15, int64_t w21)
{
    memset(fb, 0, sizeof *fb);
    fb->cap.mangled = (char *)"_Z15transpose_naivePfPKf";
    fb->cap.demangled = (char *)"transpose_naive(float*, float const*)";
    fb->cap.launch = 0;
    fb->cap.grid[0] = fb->cap.grid[1] = 32;
    fb->cap.grid[2] = 1;
    int n = 0;
    for (size_t i = 0; i < count->npcs && n < 8; i++)
        if (count->pcs[i].shared) {
            int line = count->lines[i] == 15 ? 0 : 1;
            fb->pcs[n] = (record_pc){.pc = count->pcs[i].pc, .sass = &fb->sl[n], .line = line, .executions = 8};
            fb->sl[n] = (record_sass_line){.pc = count->pcs[i].pc,
                                           .text = (char *)(line ? "LDS R1, [R2]" : "STS [R2], R1"),
                                           .file = (char *)"transpose.cu",
                                           .line = (int)count->lines[i]};
            n++;
        }
    assert_int_equal(n, 8);
    fb->sass = (record_sass){.lines = fb->sl, .n = n, .has_lines = true};
    fb->lines[0] =
        (record_line){.file = "transpose.cu", .line = 15, .ninstr = 32, .wavefronts = w15, .ideal_wavefronts = 32};
    fb->lines[1] =
        (record_line){.file = "transpose.cu", .line = 21, .ninstr = 32, .wavefronts = w21, .ideal_wavefronts = 32};
    fb->book = (record_book){.cap = &fb->cap,
                             .sass = &fb->sass,
                             .arch = "sm_90",
                             .lines = fb->lines,
                             .nlines = 2,
                             .pcs = fb->pcs,
                             .npcs = n};
}

/* A temporary folder holding the kept H100 files of the naive transpose as count.txt/time.txt. */
static void make_dir(char *dir, size_t n, bool with_time)
{
    snprintf(dir, n, "/tmp/bs-measured-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char src[600], dst[700];
    const char *names[2][2] = {{"transpose-transpose_naive-0.count.txt", "count.txt"},
                               {"transpose-transpose_naive-0.time.txt", "time.txt"}};
    for (int i = 0; i < (with_time ? 2 : 1); i++) {
        char rel[200];
        snprintf(rel, sizeof rel, "data/measured/ncu/%s", names[i][0]);
        snprintf(dst, sizeof dst, "%s/%s", dir, names[i][1]);
        FILE *in = fopen(test_path(rel, src, sizeof src), "rb"), *out = fopen(dst, "wb");
        assert_non_null(in);
        assert_non_null(out);
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, got, out);
        fclose(in);
        fclose(out);
    }
}

static void remove_dir(const char *dir)
{
    char p[700];
    snprintf(p, sizeof p, "%s/count.txt", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/time.txt", dir);
    unlink(p);
    rmdir(dir);
}

/* The recording's measured members, written with jsonw into an object and parsed back. */
static cJSON *json_of(const record_measured *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    static jsonw w;
    jsonw_init(&w, f);
    jsonw_begin_object(&w, JSONW_LINES);
    record_measured_json(&w, m);
    JSONW_KEY(&w, "lines");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int i = 0; i < (m->have ? m->nlines : 1); i++) {
        jsonw_begin_object(&w, JSONW_INLINE);
        record_measured_json_line(&w, m, i);
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    jsonw_end_object(&w);
    const char *why;
    assert_true(jsonw_finish(&w, &why));
    fclose(f);
    cJSON *j = cJSON_Parse(text);
    free(text);
    assert_non_null(j);
    return j;
}

/* The printed summary as text (caller frees). */
static char *print_of(const record_measured *m, const record_book *b)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    record_measured_print(m, b, f);
    fclose(f);
    return text;
}

static void test_agree(void **state)
{
    (void)state;
    char dir[64], path[700];
    make_dir(dir, sizeof dir, true);
    measured_file count;
    io_error err;
    snprintf(path, sizeof path, "%s/count.txt", dir);
    assert_true(measured_file_read(path, &count, &err));
    fake_book a, b;
    fake_transpose(&a, &count, 32, 1024);
    fake_transpose(&b, &count, 32, 1024);
    b.cap.block[0] = b.cap.block[1] = 31;
    record_measured m;
    record_measured_build(&m, &a.book, &b.book, dir);
    assert_true(m.have);
    assert_true(m.have_time);
    assert_true(m.invariant);
    assert_int_equal(m.blocks, 1024);
    assert_int_equal(m.lines[1].measured.wavefronts, 1048576);
    assert_int_equal(m.lines[1].agree, MEASURED_AGREE_TRUE);
    assert_int_equal(m.lines[0].agree, MEASURED_AGREE_TRUE);
    assert_int_equal(m.excess, 1015808);
    assert_true(m.share > 0.38 && m.share < 0.39); /* 1015808 / (132 x 1.98 GHz x 10080 ns) */
    assert_int_equal(m.nunrecorded, 0);

    cJSON *j = json_of(&m);
    cJSON *top = cJSON_GetObjectItem(j, "measured");
    assert_int_equal(cJSON_GetObjectItem(top, "blocks")->valuedouble, 1024);
    assert_int_equal(cJSON_GetObjectItem(top, "duration_ns")->valuedouble, 10080);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(top, "second_block")), 3);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "measured_why")));
    cJSON *l1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "lines"), 1);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(l1, "measured"), "excess")->valuedouble, 1015808);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(l1, "agree")));
    cJSON_Delete(j);

    char *text = print_of(&m, &a.book);
    assert_non_null(strstr(text, "transpose.cu:21"));
    assert_non_null(strstr(text, "1048576"));
    assert_non_null(strstr(text, "at most 38.6%"));
    free(text);
    record_measured_free(&m);

    /* the second block predicts differently on line 21: agree is null there, the launch is not invariant */
    b.lines[1].wavefronts = 512;
    record_measured_build(&m, &a.book, &b.book, dir);
    assert_false(m.invariant);
    assert_int_equal(m.lines[1].agree, MEASURED_AGREE_NULL);
    assert_int_equal(m.lines[1].why, MEASURED_WHY_BLOCKS_DIFFER);
    record_measured_free(&m);

    /* a prediction that is wrong for an invariant launch disagrees, and is flagged in the text */
    b.lines[1].wavefronts = 512;
    a.lines[1].wavefronts = 512;
    record_measured_build(&m, &a.book, &b.book, dir);
    assert_int_equal(m.lines[1].agree, MEASURED_AGREE_FALSE);
    text = print_of(&m, &a.book);
    assert_non_null(strstr(text, "transpose.cu:21 disagrees: other blocks"));
    free(text);
    record_measured_free(&m);

    /* one block recorded */
    record_measured_build(&m, &a.book, NULL, dir);
    assert_int_equal(m.lines[0].agree, MEASURED_AGREE_NULL);
    assert_int_equal(m.lines[0].why, MEASURED_WHY_ONE_BLOCK);
    record_measured_free(&m);
    measured_file_free(&count);
    remove_dir(dir);
}

static void test_not_measured(void **state)
{
    (void)state;
    char dir[64], path[700];
    make_dir(dir, sizeof dir, false);
    measured_file count;
    io_error err;
    snprintf(path, sizeof path, "%s/count.txt", dir);
    assert_true(measured_file_read(path, &count, &err));
    fake_book a;
    fake_transpose(&a, &count, 32, 1024);
    measured_file_free(&count);

    /* no time.txt: counts, but no duration and no share */
    record_measured m;
    record_measured_build(&m, &a.book, NULL, dir);
    assert_true(m.have);
    assert_false(m.have_time);
    assert_true(m.share < 0);
    assert_non_null(strstr(m.time_why, "time.txt"));
    record_measured_free(&m);

    /* a count run without permission: measured null and its one line */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("bankscope-measured/1\npass\tcount\nerror\tno permission to profile this GPU\nend\n", f);
    fclose(f);
    record_measured_build(&m, &a.book, NULL, dir);
    assert_false(m.have);
    assert_string_equal(m.why, "no permission to profile this GPU");
    cJSON *j = json_of(&m);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "measured")));
    assert_string_equal(cJSON_GetObjectItem(j, "measured_why")->valuestring, "no permission to profile this GPU");
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "lines"), 0), "measured")));
    cJSON_Delete(j);
    char *text = print_of(&m, &a.book);
    assert_string_equal(text, "\nmeasured: none (no permission to profile this GPU)\n");
    free(text);
    record_measured_free(&m);

    /* another kernel counted */
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("bankscope-measured/1\npass\tcount\nkernel\t_Z5otherv\nlaunch\t0\nend\n", f);
    fclose(f);
    record_measured_build(&m, &a.book, NULL, dir);
    assert_false(m.have);
    assert_non_null(strstr(m.why, "did not launch the recorded kernel"));
    record_measured_free(&m);

    /* no file at all (the program died in the count run) */
    unlink(path);
    record_measured_build(&m, &a.book, NULL, dir);
    assert_false(m.have);
    assert_non_null(strstr(m.why, "the count run of the program wrote no result"));
    record_measured_free(&m);
    remove_dir(dir);
}

/* The second block: the last of the grid, the first when the last is the recorded one, none for
 * a one-block grid. */
static void test_second_block(void **state)
{
    (void)state;
    uint32_t grid[3] = {32, 32, 1}, first[3] = {0, 0, 0}, last[3] = {31, 31, 0}, mid[3] = {5, 7, 0}, b[3];
    assert_true(record_second_block(grid, first, b));
    assert_memory_equal(b, last, sizeof b);
    assert_true(record_second_block(grid, mid, b));
    assert_memory_equal(b, last, sizeof b);
    assert_true(record_second_block(grid, last, b));
    assert_memory_equal(b, first, sizeof b);
    uint32_t one[3] = {1, 1, 1};
    assert_false(record_second_block(one, first, b));
}

/* The tables' "line" cell keeps its column: a long file name is cut at its start after "...",
 * the line number stays; a short one and no line info are as they are. */
static void test_where_cell(void **state)
{
    (void)state;
    char buf[80];
    record_where("/usr/local/cuda/include/crt/device_atomic_functions.hpp", 112, buf, sizeof buf);
    assert_string_equal(buf, "..._atomic_functions.hpp:112");
    assert_int_equal((int)strlen(buf), RECORD_WHERE_WIDTH);
    record_where("/src/histogram.cu", 12, buf, sizeof buf);
    assert_string_equal(buf, "histogram.cu:12");
    record_where(NULL, 0, buf, sizeof buf);
    assert_string_equal(buf, "(no line info)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agree),
        cmocka_unit_test(test_not_measured),
        cmocka_unit_test(test_second_block),
        cmocka_unit_test(test_where_cell),
    };
    return cmocka_run_group_tests_name("record_measured", tests, NULL, NULL);
}
