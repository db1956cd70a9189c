/* test_layout_gcc: every struct of the pattern library (and a few harder ones) is declared in a
 * C++ file, compiled by the system compiler against CUDA's own vector_types.h, and its
 * offsetof / sizeof / alignof compared with the model. Skipped without c++ or CUDA headers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/lesson.h"
#include "io/library.h"
#include "test_util.h"

static const char *cuda_inc(void)
{
    const char *dirs[] = {"/usr/local/cuda/include", "/usr/include"};
    for (int i = 0; i < 2; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/vector_types.h", dirs[i]);
        if (access(p, R_OK) == 0)
            return dirs[i];
    }
    return NULL;
}

/* Compile and run one program printing each struct's layout for the n scenarios (each in a
 * namespace of its own: one compile of the CUDA headers for all); compare with each. */
static void check_scenarios(const scenario *const *sc, int n, const char *inc)
{
    char src[] = "/tmp/bankscope-layout-XXXXXX";
    int fd = mkstemp(src);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "#include <vector_types.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include "
               "<cuda_fp8.h>\n#include <cstddef>\n#include <cstdio>\n");
    for (int j = 0; j < n; j++) {
        fprintf(f, "namespace bs%d {\n", j);
        for (int i = 0; i < sc[j]->types.n; i++) {
            strbuf sb = {0};
            types_struct_decl(&sc[j]->types, i, false, &sb);
            fputs(sb.data, f);
            strbuf_free(&sb);
        }
        fprintf(f, "}\n");
    }
    fprintf(f, "int main() {\n");
    for (int j = 0; j < n; j++)
        for (int i = 0; i < sc[j]->types.n; i++) {
            const types_struct *st = &sc[j]->types.structs[i];
            fprintf(f, "  printf(\"%%zu %%zu\\n\", sizeof(bs%d::%s), alignof(bs%d::%s));\n", j, st->name, j, st->name);
            for (int k = 0; k < st->nfields; k++)
                fprintf(f, "  printf(\"%%zu\\n\", offsetof(bs%d::%s, %s));\n", j, st->name, st->fields[k].name);
        }
    fprintf(f, "}\n");
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "c++ -std=c++17 -x c++ -I%s -o %s.bin %s 2>&1 && %s.bin > %s.out", inc, src, src, src,
             src);
    int rc = system(cmd);
    assert_int_equal(rc, 0);
    char out[300];
    snprintf(out, sizeof out, "%s.out", src);
    f = fopen(out, "r");
    assert_non_null(f);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < sc[j]->types.n; i++) {
            const types_struct *st = &sc[j]->types.structs[i];
            size_t size, align, off;
            assert_int_equal(fscanf(f, "%zu %zu", &size, &align), 2);
            assert_int_equal(size, st->size);
            assert_int_equal(align, st->align);
            for (int k = 0; k < st->nfields; k++) {
                assert_int_equal(fscanf(f, "%zu", &off), 1);
                if ((int)off != st->fields[k].offset)
                    fail_msg("%s.%s: compiler %zu, model %d", st->name, st->fields[k].name, off, st->fields[k].offset);
            }
        }
    fclose(f);
    snprintf(cmd, sizeof cmd, "rm -f %s %s.bin %s.out", src, src, src);
    assert_int_equal(system(cmd), 0);
}

static void test_library_structs(void **state)
{
    (void)state;
    const char *inc = cuda_inc();
    if (!inc || system("c++ --version > /dev/null 2>&1") != 0)
        skip();
    int n, checked = 0;
    const library_entry *e = library_patterns(&n);
    scenario *all = calloc((size_t)n, sizeof *all);
    const scenario **with = calloc((size_t)n, sizeof *with);
    assert_true(all && with);
    for (int i = 0; i < n; i++) {
        io_error err;
        if (!e[i].text || lesson_is(e[i].text, e[i].len) ||
            !load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &all[i], &err)) {
            memset(&all[i], 0, sizeof all[i]);
            continue;
        }
        if (all[i].types.n > 0)
            with[checked++] = &all[i];
    }
    assert_true(checked >= 2);
    check_scenarios(with, checked, inc);
    for (int i = 0; i < n; i++)
        scenario_free(&all[i]);
    free(with);
    free(all);
}

static void test_harder_structs(void **state)
{
    (void)state;
    const char *inc = cuda_inc();
    if (!inc || system("c++ --version > /dev/null 2>&1") != 0)
        skip();
    const char *json =
        "{\"structs\": ["
        "{\"name\": \"Inner\", \"fields\": [\"char c\", \"double3 d\", \"short s[3]\"]},"
        "{\"name\": \"Outer\", \"fields\": [\"char a\", \"Inner in[2]\", \"half h\", \"half2 h2\", \"uchar3 u\", "
        "\"long long q\", \"float2 f\", \"char4 c4\", \"short4 s4\", \"longlong2 l2\", \"int3 i3\"]},"
        "{\"name\": \"Aligned\", \"align\": 32, \"fields\": [\"char c\", \"float f\"]},"
        "{\"name\": \"Tensor\", \"fields\": [\"__nv_fp8_e4m3 a\", \"bf16 b\", \"fp8_e5m2 c\", \"__nv_bfloat162 d\", "
        "\"__nv_fp8_e5m2 e[3]\", \"half2 f\", \"__nv_bfloat16 g[3]\"]}],"
        "\"arrays\": [{\"name\": \"o\", \"type\": \"Outer\", \"dims\": [4]}],"
        "\"accesses\": [{\"op\": \"load\", \"array\": \"o\", \"index\": \"lane % 4\", \"field\": \"q\"}]}";
    scenario s;
    io_error err;
    if (!test_load(json, &s, &err))
        fail_msg("%s", err.text);
    const scenario *one = &s;
    check_scenarios(&one, 1, inc);
    scenario_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_library_structs),
        cmocka_unit_test(test_harder_structs),
    };
    return cmocka_run_group_tests_name("layout_gcc", tests, NULL, NULL);
}
