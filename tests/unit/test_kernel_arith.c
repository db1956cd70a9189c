/* test_kernel_arith: the generated kernel computes exactly what the model computes. Random
 * expressions are emitted as CUDA (expr_emit_cuda) together with the checked helpers of the
 * real kernel template (kernels/measure.cu, between BS_ARITH_BEGIN and BS_ARITH_END), compiled
 * as C++ by the system compiler and run on the host for many variable values: where the model
 * gives a value the kernel gives the same one, where the model reports an error (division by
 * zero, overflow, bad shift) the kernel sets bs_err. Skipped without c++. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expr_reference.h"
#include "io/library.h"
#include "model/expr.h"
#include "test_util.h"

enum { NEXPR = 400, NENV = 12 };

/* The helper block of the kernel template. */
static char *arith_block(void)
{
    const char *t = library_kernel("measure.cu");
    assert_non_null(t);
    const char *a = strstr(t, "/* BS_ARITH_BEGIN"), *b = strstr(t, "/* BS_ARITH_END */");
    assert_non_null(a);
    assert_non_null(b);
    char *s = malloc((size_t)(b - a) + 1);
    memcpy(s, a, (size_t)(b - a));
    s[b - a] = '\0';
    return s;
}

/* Values for one run: small, edge and huge, different per variable. */
static int64_t env_value(int e, int k)
{
    static const int64_t edge[] = {0, 1, -1, 31, 32, 63, 64, INT64_MAX, INT64_MIN, 4611686018427387904LL};
    if (e < 4)
        return (int64_t)(expr_reference_rnd() % 1100);
    if (e < 8)
        return edge[(e * 7 + k) % 10];
    return (int64_t)expr_reference_rnd();
}

static void test_kernel_matches_model(void **state)
{
    (void)state;
    if (system("c++ --version > /dev/null 2>&1") != 0)
        skip();
    static const char *const names[EXPR_NVARS] = {"tx", "ty", "tz", "bdx", "bdy", "bdz", "lane", "warp", "tid", "loop"};
    expr *ex = calloc(NEXPR, sizeof *ex);
    static expr_env envs[NEXPR][NENV];
    char src[] = "/tmp/bankscope-arith-XXXXXX";
    int fd = mkstemp(src);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    char *block = arith_block();
    fprintf(f, "#include <cstdio>\n#define __device__\n#define __forceinline__ inline\n%s\n", block);
    free(block);
    int n = 0;
    while (n < NEXPR) {
        strbuf sb = {0};
        expr_reference_random(&sb, 0);
        expr_error err;
        if (expr_parse(strbuf_str(&sb), "loop", &ex[n], &err)) {
            strbuf code = {0};
            expr_emit_cuda(&ex[n], names, &code);
            fprintf(f,
                    "static long long f%d(long long tx, long long ty, long long tz, long long bdx, long long bdy, "
                    "long long bdz, long long lane, long long warp, long long tid, long long loop, bool &bs_err)\n"
                    "{ (void)tx; (void)ty; (void)tz; (void)bdx; (void)bdy; (void)bdz; (void)lane; (void)warp; "
                    "(void)tid; (void)loop; return %s; }\n",
                    n, strbuf_str(&code));
            strbuf_free(&code);
            n++;
        }
        strbuf_free(&sb);
    }
    /* the calls as tables (functions, then values) and one loop: a main of 4,800 calls took most
     * of the compile time */
    fprintf(f,
            "typedef long long (*bs_fn)(long long, long long, long long, long long, long long, long long, "
            "long long, long long, long long, long long, bool &);\nstatic const bs_fn fns[%d] = {",
            NEXPR);
    for (int i = 0; i < NEXPR; i++)
        fprintf(f, "%sf%d", i ? ", " : "", i);
    fprintf(f, "};\nstatic const long long vals[%d][%d] = {\n", NEXPR * NENV, EXPR_LOOP + 1);
    for (int i = 0; i < NEXPR; i++)
        for (int j = 0; j < NENV; j++) {
            expr_env *env = &envs[i][j];
            memset(env, 0, sizeof *env);
            fprintf(f, "    {");
            for (int k = 0; k <= EXPR_LOOP; k++) { /* the expressions use one loop variable */
                env->v[k] = env_value(j, k);
                fprintf(f, "%s%lldLL", k ? ", " : "", (long long)env->v[k] + (env->v[k] == INT64_MIN));
                if (env->v[k] == INT64_MIN)
                    fprintf(f, " - 1LL"); /* INT64_MIN has no literal */
            }
            fprintf(f, "},\n");
        }
    fprintf(f,
            "};\nint main() {\n    for (int i = 0; i < %d; i++)\n        for (int j = 0; j < %d; j++) {\n"
            "            const long long *a = vals[i * %d + j];\n            bool e = false;\n"
            "            long long v = fns[i](a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], e);\n"
            "            printf(\"%%d %%lld\\n\", e ? 1 : 0, e ? 0LL : v);\n        }\n}\n",
            NEXPR, NENV, NENV);
    fclose(f);
    char cmd[512];
    /* -O0: the 4,800 values printed are the same at -O1 (compared when this changed), and the
     * 1.2 MB of generated code compiles in a sixth of the time. */
    snprintf(cmd, sizeof cmd, "c++ -std=c++17 -O0 -x c++ -o %s.bin %s 2>&1 && %s.bin > %s.out", src, src, src, src);
    assert_int_equal(system(cmd), 0);
    char out[300];
    snprintf(out, sizeof out, "%s.out", src);
    f = fopen(out, "r");
    assert_non_null(f);
    int errors = 0;
    for (int i = 0; i < NEXPR; i++) {
        for (int j = 0; j < NENV; j++) {
            int kerr;
            long long kv;
            assert_int_equal(fscanf(f, "%d %lld", &kerr, &kv), 2);
            int64_t mv = 0;
            int pos;
            expr_status st = expr_eval(&ex[i], &envs[i][j], &mv, &pos);
            errors += st != EXPR_OK;
            if ((st != EXPR_OK) != (kerr != 0) || (st == EXPR_OK && mv != kv))
                fail_msg("'%s' (values %d): model %s %lld, kernel %s %lld", ex[i].text, j, expr_status_text(st),
                         (long long)mv, kerr ? "error" : "ok", kv);
        }
        expr_free(&ex[i]);
    }
    fclose(f);
    free(ex);
    printf("# %d expressions x %d values, %d model errors, all matched\n", NEXPR, NENV, errors);
    assert_true(errors > 0);
    snprintf(cmd, sizeof cmd, "rm -f %s %s.bin %s.out", src, src, src);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_kernel_matches_model)};
    return cmocka_run_group_tests_name("kernel_arith", tests, NULL, NULL);
}
