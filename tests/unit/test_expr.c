/* test_expr: parser, positions of errors, checked evaluation, CUDA emission. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/expr.h"
#include "test_util.h"

static int64_t eval(const char *text, int64_t tx)
{
    expr e;
    expr_error err;
    assert_true(expr_parse(text, "i", &e, &err));
    expr_env env = {{0}};
    env.v[EXPR_TX] = tx;
    env.v[EXPR_TY] = 3;
    env.v[EXPR_LOOP] = 5;
    env.v[EXPR_BDX] = 32;
    int64_t v = 0;
    assert_int_equal(expr_eval(&e, &env, &v, NULL), EXPR_OK);
    expr_free(&e);
    return v;
}

static void test_eval(void **state)
{
    (void)state;
    assert_int_equal(eval("1 + 2 * 3", 0), 7);
    assert_int_equal(eval("(1 + 2) * 3", 0), 9);
    assert_int_equal(eval("tx * 33 + ty", 2), 69);
    assert_int_equal(eval("threadIdx.x + i", 1), 6);
    assert_int_equal(eval("tx ^ ty", 1), 2);
    assert_int_equal(eval("tx + tx / 32", 40), 41);
    assert_int_equal(eval("1 << 4 | 1", 0), 17);
    assert_int_equal(eval("-7 / 2", 0), -3);
    assert_int_equal(eval("-7 % 2", 0), -1);
    assert_int_equal(eval("min(tx, 4) + max(2, 3)", 9), 7);
    assert_int_equal(eval("tx < 4 && ty == 3", 1), 1);
    assert_int_equal(eval("!tx || 0", 0), 1);
    assert_int_equal(eval("~0", 0), -1);
    assert_int_equal(eval("0x10 + warpSize", 0), 48);
    assert_int_equal(eval("blockDim.x - 1 >= 31", 0), 1);
    assert_int_equal(eval("8 >> 1 != 4", 0), 0);
    assert_int_equal(eval("tx <= 2", 3), 0);
}

static void expect_parse_error(const char *text, int pos, const char *fragment)
{
    expr e;
    expr_error err;
    assert_false(expr_parse(text, "i", &e, &err));
    if (err.pos != pos || !strstr(err.msg, fragment))
        print_error("'%s': got pos %d '%s'\n", text, err.pos, err.msg);
    assert_int_equal(err.pos, pos);
    assert_non_null(strstr(err.msg, fragment));
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_parse_error("tx +", 4, "ends too early");
    expect_parse_error("thredIdx.x", 0, "unknown identifier 'thredIdx.x'");
    expect_parse_error("tx + $", 5, "unexpected character '$'");
    expect_parse_error("(tx + 1", 7, "expected ')'");
    expect_parse_error("tx 1", 3, "unexpected '1'");
    expect_parse_error("min(1 2)", 6, "expected ','");
    expect_parse_error("99999999999999999999", 0, "too large");
    expect_parse_error("12abc", 2, "unexpected character 'a'");
    expect_parse_error("", 0, "ends too early");
    expect_parse_error("tx; asm(\"trap;\")", 2, "unexpected ';'");
    char deep[2000];
    memset(deep, '(', 1000);
    deep[1000] = '\0';
    expect_parse_error(deep, 100, "nested too deeply");
}

static void test_eval_errors(void **state)
{
    (void)state;
    struct { const char *t; expr_status st; int pos; } cases[] = {
        {"1 / (tx - tx)", EXPR_DIV_ZERO, 2},
        {"5 % 0", EXPR_DIV_ZERO, 2},
        {"9223372036854775807 + 1", EXPR_OVERFLOW, 20},
        {"1 << 64", EXPR_BAD_SHIFT, 2},
        {"1 >> -1", EXPR_BAD_SHIFT, 2},
        {"-1 << 2", EXPR_OVERFLOW, 3},
        {"4611686018427387904 * 2", EXPR_OVERFLOW, 20},
        {"88 << 63", EXPR_OVERFLOW, 3}, /* found by fuzz_expr: 1 << 63 itself must not be computed */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expr e;
        expr_error err;
        assert_true(expr_parse(cases[i].t, NULL, &e, &err));
        expr_env env = {{0}};
        int64_t v;
        int pos = -1;
        assert_int_equal(expr_eval(&e, &env, &v, &pos), cases[i].st);
        assert_int_equal(pos, cases[i].pos);
        expr_free(&e);
    }
}

static void test_emit(void **state)
{
    (void)state;
    expr e;
    expr_error err;
    assert_true(expr_parse("tx * 33 + min(ty, i) % 4", "i", &e, &err));
    const char *names[EXPR_NVARS] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y",
                                     "blockDim.z", "lane", "warp", "tid", "it"};
    strbuf sb = {0};
    expr_emit_cuda(&e, names, &sb);
    assert_string_equal(strbuf_str(&sb),
                        "((((long long)threadIdx.x) * 33LL) + (min(((long long)threadIdx.y), ((long long)it)) % 4LL))");
    assert_true(expr_uses(&e, EXPR_LOOP));
    assert_false(expr_uses(&e, EXPR_LANE));
    strbuf_free(&sb);
    expr_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval), cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_eval_errors), cmocka_unit_test(test_emit),
    };
    return cmocka_run_group_tests_name("expr", tests, NULL, NULL);
}
