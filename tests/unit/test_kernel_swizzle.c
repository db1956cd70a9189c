/* test_kernel_swizzle: the generated kernel's lane addresses of swizzled arrays equal the
 * model's. The real kernel text (kernelgen_source on kernels/measure.cu) is cut to its structs,
 * its arithmetic helpers and its address function bs_address, compiled as C++ by the system
 * compiler with host stand-ins for threadIdx, blockDim and __cvta_generic_to_shared, and run for
 * every thread of every warp-instruction: lanes the model keeps (active or misaligned) have the
 * model's address, lanes it leaves out (out of bounds, masked, no thread) are inactive. The GPU
 * check of `measure` compares the same addresses on the device. Skipped without c++. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/library.h"
#include "model/kernelgen.h"
#include "test_util.h"

/* Host stand-ins for what the address function uses from CUDA. */
static const char prelude[] =
    "#include <cstdio>\n#include <cstring>\n#define __device__\n#define __forceinline__ inline\n"
    "#define __align__(n) alignas(n)\n"
    "struct bs_uint3 { unsigned x, y, z; };\nstatic bs_uint3 threadIdx, blockDim;\n"
    "static unsigned char *bs_base;\n"
    "static unsigned __cvta_generic_to_shared(const void *p) { return (unsigned)((const unsigned char *)p - "
    "bs_base); }\n"
    "struct alignas(8) float2 { float x, y; };\nstruct alignas(16) float4 { float x, y, z, w; };\n"
    "struct alignas(8) int2 { int x, y; };\nstruct alignas(16) int4 { int x, y, z, w; };\n"
    "struct alignas(4) ushort2 { unsigned short x, y; };\n";

/* The part of text from the line holding start to the line holding end (included). */
static void cut(const char *text, const char *start, const char *end, FILE *f)
{
    const char *a = strstr(text, start);
    assert_non_null(a);
    const char *b = strstr(a, end);
    assert_non_null(b);
    fwrite(a, 1, (size_t)(b - a) + strlen(end), f);
    fputc('\n', f);
}

/* Compile access 0 of s as host C++ and compare every lane of every instruction. */
static void check_scenario(const scenario *s, const char *what)
{
    strbuf k = {0};
    char err[200];
    assert_true(kernelgen_source(s, 0, library_kernel("measure.cu"), &k, err, sizeof err));
    char src[] = "/tmp/bankscope-kswz-XXXXXX";
    int fd = mkstemp(src);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(prelude, f);
    const char *t = strbuf_str(&k);
    const char *structs = strstr(t, "*/\n"); /* after the file's opening comment */
    assert_non_null(structs);
    cut(structs + 3, "", "/* BS_ARITH_END */", f);
    cut(t, "__device__ __forceinline__ unsigned bs_address", "\n}\n", f);
    strbuf_free(&k);
    /* the lanes as a table walked by one loop (a statement per lane made the compile slow) */
    fprintf(f, "alignas(1024) static unsigned char smem[%lld];\nstatic const long long bs_lanes[][4] = {\n",
            (long long)(s->smem_bytes + 16));
    int64_t n = scenario_instr_count(s);
    scenario_instr in;
    int rows = 0;
    for (int64_t i = 0; i < n; i++) {
        scenario_instr_at(s, i, &in);
        for (int l = 0; l < BANKS_WARP; l++) {
            const scenario_lane *ln = &in.lane[l];
            if (ln->state == SCENARIO_LANE_NO_THREAD)
                continue;
            fprintf(f, "    {%d, %d, %d, %lldLL},\n", ln->tx, ln->ty, ln->tz, (long long)in.loop_value);
            rows++;
        }
    }
    fprintf(f,
            "    {0, 0, 0, 0}};\n"
            "int main() {\n    bs_base = smem;\n    blockDim.x = %d; blockDim.y = %d; blockDim.z = %d;\n"
            "    for (int r = 0; r < %d; r++) {\n"
            "        const long long *q = bs_lanes[r];\n"
            "        threadIdx.x = (int)q[0]; threadIdx.y = (int)q[1]; threadIdx.z = (int)q[2]; bool a = false;\n"
            "        unsigned v = bs_address(smem, q[3], nullptr, &a); printf(\"%%d %%u\\n\", a ? 1 : 0, a ? v : 0u);\n"
            "    }\n    return 0;\n}\n",
            s->block[0], s->block[1], s->block[2], rows);
    fclose(f);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "c++ -std=c++17 -O1 -w -x c++ -o %s.bin %s 2>&1 && %s.bin > %s.out", src, src, src, src);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s.out", src);
    f = fopen(cmd, "r");
    assert_non_null(f);
    int checked = 0;
    for (int64_t i = 0; i < n; i++) {
        scenario_instr_at(s, i, &in);
        for (int l = 0; l < BANKS_WARP; l++) {
            const scenario_lane *ln = &in.lane[l];
            if (ln->state == SCENARIO_LANE_NO_THREAD)
                continue;
            int act;
            unsigned v;
            assert_int_equal(fscanf(f, "%d %u", &act, &v), 2);
            bool keep = ln->state == SCENARIO_LANE_OK || ln->state == SCENARIO_LANE_MISALIGNED;
            if (keep != (act != 0) || (keep && (int64_t)v != ln->address))
                fail_msg("%s: instruction %lld lane %d: model %s %lld, kernel %s %u", what, (long long)i, l,
                         scenario_lane_state_text(ln->state), (long long)ln->address, act ? "active" : "inactive", v);
            checked += keep;
        }
    }
    fclose(f);
    printf("# %s: %d lane addresses equal\n", what, checked);
    assert_true(checked > 0);
    snprintf(cmd, sizeof cmd, "rm -f %s %s.bin %s.out", src, src, src);
    assert_int_equal(system(cmd), 0);
}

static void check_file(const char *rel)
{
    char path[512];
    test_path(rel, path, sizeof path);
    scenario s;
    io_error err;
    if (!load_scenario_file(path, NULL, &s, &err))
        fail_msg("%s", err.text);
    check_scenario(&s, rel);
    scenario_free(&s);
}

/* The golden swizzle scenarios: 128B transpose read, 64B fields of 32-byte structs, float4
 * reads through an element swizzle (misaligned lanes), CuTe's Swizzle<3,3,3> on bf16; and the
 * library's TMA tiles read by ldmatrix. */
static void test_golden(void **state)
{
    (void)state;
    if (system("c++ --version > /dev/null 2>&1") != 0)
        skip();
    check_file("golden/cases/swizzle-128b.json");
    check_file("golden/cases/swizzle-wide-struct.json");
    check_file("golden/cases/swizzle-cute-float4.json");
    check_file("golden/cases/kernel-swizzle-cute.json");
    static const char *const lib[] = {"tma-128b-ldmatrix", "tma-64b-ldmatrix", "tma-32b-ldmatrix"};
    for (int i = 0; i < 3; i++) { /* the library's TMA tiles */
        scenario s;
        test_load_pattern(lib[i], &s);
        check_scenario(&s, lib[i]);
        scenario_free(&s);
    }
}

/* Random swizzles on a few shapes, types and index patterns, with a field and a base. */
static void test_random(void **state)
{
    (void)state;
    if (system("c++ --version > /dev/null 2>&1") != 0)
        skip();
    static const char *const modes[] = {"32B", "64B", "128B", "Swizzle<1,2,3>", "Swizzle<2,0,2>", "Swizzle<3,1,4>"};
    static const char *const types[] = {"float", "char", "double", "float4", "Pair"};
    static const char *const idx[] = {"\"lane\", \"threadIdx.y\"", "\"threadIdx.y\", \"lane * 3 % 64\"",
                                      "\"(lane + i) % 16\", \"lane / 2 + i\""};
    unsigned seed = 12345;
    for (int k = 0; k < 6; k++) {
        seed = seed * 1103515245u + 12345u;
        const char *type = types[(seed >> 8) % 5];
        const char *mode = modes[k];
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"block\": [32, 2], \"structs\": [{\"name\": \"Pair\", \"fields\": [\"int a\", \"float b\"]}],\n"
                 " \"arrays\": [{\"name\": \"pre\", \"type\": \"char\", \"dims\": [40]},\n"
                 "   {\"name\": \"t\", \"type\": \"%s\", \"dims\": [32, 64], \"swizzle\": \"%s\"}],\n"
                 " \"loop\": {\"var\": \"i\", \"from\": 0, \"to\": 3},\n"
                 " \"accesses\": [{\"op\": \"%s\", \"array\": \"t\", %s\"index\": [%s]}]}",
                 type, mode, seed & 1 ? "load" : "store", strcmp(type, "Pair") == 0 ? "\"field\": \"b\", " : "",
                 idx[(seed >> 4) % 3]);
        scenario s;
        io_error err;
        if (!test_load(json, &s, &err))
            fail_msg("%s\n%s", err.text, json);
        check_scenario(&s, mode);
        scenario_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden), cmocka_unit_test(test_random)};
    return cmocka_run_group_tests_name("kernel_swizzle", tests, NULL, NULL);
}
