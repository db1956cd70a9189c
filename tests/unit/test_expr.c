/* test_expr: parser, positions of errors, checked evaluation, CUDA emission. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "expr_reference.h"
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

/* c ? a : b: C's precedence (loosest of all) and right associativity; only one arm runs. */
static void test_conditional(void **state)
{
    (void)state;
    assert_int_equal(eval("tx < 16 ? tx : 31 - tx", 3), 3);
    assert_int_equal(eval("tx < 16 ? tx : 31 - tx", 20), 11);
    assert_int_equal(eval("tx ? 1 : 2 + 10", 0), 12); /* tx ? 1 : (2 + 10) */
    assert_int_equal(eval("1 + tx ? 7 : 8", 0), 7);   /* (1 + tx) ? 7 : 8 */
    assert_int_equal(eval("tx || 0 ? 5 : 6", 0), 6);  /* (tx || 0) ? 5 : 6 */
    /* a ? b : c ? d : e is a ? b : (c ? d : e) */
    assert_int_equal(eval("tx == 0 ? 10 : tx == 1 ? 11 : 12", 0), 10);
    assert_int_equal(eval("tx == 0 ? 10 : tx == 1 ? 11 : 12", 1), 11);
    assert_int_equal(eval("tx == 0 ? 10 : tx == 1 ? 11 : 12", 2), 12);
    /* the middle operand is a whole expression, a conditional too */
    assert_int_equal(eval("tx ? ty ? 1 : 2 : 3", 1), 1);
    assert_int_equal(eval("tx ? ty ? 1 : 2 : 3", 0), 3);
    assert_int_equal(eval("(tx ? 4 : 5) * 2", 1), 8);
    assert_int_equal(eval("min(tx > 2 ? 9 : 1, 5)", 3), 5);
    assert_int_equal(eval("tx ? i : ty", 2), 5);
    /* the untaken arm raises no error, in the generic and the specialised programs */
    const char *guarded[] = {"tx != 0 ? 32 / tx : 0", "tx == 0 ? 0 : 32 / tx", "tx ? 32 % tx : 1 << 64",
                             "tx < 16 ? 9223372036854775792 + tx : tx"};
    for (size_t k = 0; k < sizeof guarded / sizeof guarded[0]; k++) {
        expr e;
        expr_error err;
        assert_true(expr_parse(guarded[k], NULL, &e, &err));
        expr_range r = {{0}, {0}};
        r.hi[EXPR_TX] = 31;
        r.hi[EXPR_TID] = 31;
        r.hi[EXPR_LANE] = 31;
        r.lo[EXPR_BDX] = r.hi[EXPR_BDX] = 32;
        r.lo[EXPR_BDY] = r.hi[EXPR_BDY] = r.lo[EXPR_BDZ] = r.hi[EXPR_BDZ] = 1;
        expr_specialize(&e, &r);
        expr_env env = {{0}};
        env.v[EXPR_BDX] = 32;
        env.v[EXPR_BDY] = env.v[EXPR_BDZ] = 1;
        expr_prepare(&e, &env);
        expr_lanes lv = {{{0}}};
        for (int l = 0; l < EXPR_LANES; l++) {
            int64_t v = -1, w = -1;
            int pos = -1;
            env.v[EXPR_TX] = env.v[EXPR_TID] = env.v[EXPR_LANE] = l;
            lv.v[0][l] = lv.v[3][l] = lv.v[4][l] = l;
            bool in_range = k != 2 || l != 0; /* tx ? .. : 1 << 64 fails for lane 0 only */
            assert_int_equal(expr_eval(&e, &env, &v, &pos), in_range ? EXPR_OK : EXPR_BAD_SHIFT);
            assert_int_equal(expr_eval_fast(&e, &env, &w, &pos), in_range ? EXPR_OK : EXPR_BAD_SHIFT);
            assert_int_equal(v, w);
            if (k < 2)
                assert_int_equal(v, l ? 32 / l : 0);
        }
        int64_t out[EXPR_LANES];
        expr_status st[EXPR_LANES];
        int pos[EXPR_LANES];
        env.v[EXPR_TX] = env.v[EXPR_TID] = env.v[EXPR_LANE] = 0;
        uint32_t failed = expr_eval_lanes(&e, &env, &lv, 0xffffffffu, out, st, pos);
        assert_int_equal(failed, k == 2 ? 1u : 0u);
        if (k == 2)
            assert_int_equal(pos[0], 17); /* the taken arm's << */
        expr_free(&e);
    }
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
    expect_parse_error("tx ? 1", 6, "expected ':'");
    expect_parse_error("tx ? 1 : ", 9, "ends too early");
    expect_parse_error("tx : 1", 3, "unexpected ':'");
    expect_parse_error("? 1 : 2", 0, "unexpected character '?'");
    char deep[2000];
    memset(deep, '(', 1000);
    deep[1000] = '\0';
    expect_parse_error(deep, 100, "nested too deeply");
}

static void test_eval_errors(void **state)
{
    (void)state;
    struct {
        const char *t;
        expr_status st;
        int pos;
    } cases[] = {
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
                                     "blockDim.z",  "lane",        "warp",        "tid",        "it"};
    strbuf sb = {0};
    expr_emit_cuda(&e, names, &sb);
    assert_string_equal(
        strbuf_str(&sb),
        "bs_add(bs_mul(((long long)threadIdx.x), 33LL, bs_err), bs_mod(bs_min(((long long)threadIdx.y), "
        "((long long)it)), 4LL, bs_err), bs_err)");
    assert_true(expr_uses(&e, EXPR_LOOP));
    assert_false(expr_uses(&e, EXPR_LANE));
    strbuf_free(&sb);
    expr_free(&e);
    /* comparisons are widened before any shift: no 32-bit int arithmetic in the kernel */
    assert_true(expr_parse("((lane < 16) << 31) >> 26", NULL, &e, &err));
    strbuf_clear(&sb);
    expr_emit_cuda(&e, names, &sb);
    assert_string_equal(strbuf_str(&sb),
                        "bs_shr(bs_shl(((long long)(((long long)lane) < 16LL)), 31LL, bs_err), 26LL, bs_err)");
    expr_free(&e);
    /* ?: is emitted parenthesised, as C's own operator: only the chosen arm runs there too */
    assert_true(expr_parse("tx < 16 ? tx : 31 - tx", NULL, &e, &err));
    strbuf_clear(&sb);
    expr_emit_cuda(&e, names, &sb);
    assert_string_equal(strbuf_str(&sb), "(((long long)(((long long)threadIdx.x) < 16LL)) ? ((long long)threadIdx.x) "
                                         ": bs_sub(31LL, ((long long)threadIdx.x), bs_err))");
    strbuf_free(&sb);
    expr_free(&e);
}

/* Compiled programs (generic and specialised for random ranges) against the tree evaluator:
 * same value, same error, same position; and no error where the compiler proved none. */
static void test_compiled_vs_reference(void **state)
{
    (void)state;
    int specialised = 0, linear = 0, proven = 0;
    for (int t = 0; t < 20000; t++) {
        strbuf sb = {0};
        expr_reference_random(&sb, 0);
        expr e;
        expr_error err;
        if (!expr_parse(strbuf_str(&sb), "i", &e, &err)) {
            strbuf_free(&sb);
            continue;
        }
        expr_range r;
        for (int k = 0; k < EXPR_NVARS; k++) {
            int64_t lo = (int64_t)(expr_reference_rnd() % 64) - (k == EXPR_LOOP ? 32 : 0);
            int64_t span = expr_reference_rnd() % 3 == 0 ? 0 : (int64_t)(expr_reference_rnd() % 1100);
            if (expr_reference_rnd() % 50 == 0) { /* extreme loop values */
                lo = expr_reference_rnd() % 2 ? INT64_MAX - 5 : INT64_MIN;
                span = 5;
            }
            r.lo[k] = lo;
            r.hi[k] = lo + span;
        }
        expr_specialize(&e, &r);
        specialised++;
        linear += e.fast.ncode == 1;
        proven += !e.fast.may_fail;
        for (int v = 0; v < 24; v++) {
            expr_env env;
            memset(&env, 0, sizeof env);
            for (int k = 0; k < EXPR_NVARS; k++) {
                uint64_t span = (uint64_t)(r.hi[k] - r.lo[k]) + 1;
                env.v[k] = r.lo[k] + (int64_t)(v == 0 ? 0 : v == 1 ? span - 1 : expr_reference_rnd() % span);
            }
            int64_t want = 0, got = 0, gen_v = 0;
            int wpos = -1, gpos = -1, ppos = -1;
            expr_status ws = expr_reference_eval(&e, &env, &want, &wpos);
            expr_status gs = expr_eval(&e, &env, &gen_v, &ppos);
            expr_prepare(&e, &env);
            expr_status fs = expr_eval_fast(&e, &env, &got, &gpos);
            if (ws != fs || ws != gs || (ws == EXPR_OK && (want != got || want != gen_v)) ||
                (ws != EXPR_OK && (wpos != gpos || wpos != ppos)) || (ws != EXPR_OK && !e.fast.may_fail))
                print_error("'%s': reference %d %lld @%d, compiled %d %lld @%d, generic %d %lld @%d, may_fail %d\n",
                            strbuf_str(&sb), ws, (long long)want, wpos, fs, (long long)got, gpos, gs, (long long)gen_v,
                            ppos, e.fast.may_fail);
            assert_int_equal(fs, ws);
            assert_int_equal(gs, ws);
            if (ws == EXPR_OK) {
                assert_true(want == got);
                assert_true(want == gen_v);
            } else {
                assert_int_equal(gpos, wpos);
                assert_int_equal(ppos, wpos);
                assert_true(e.fast.may_fail);
            }
        }
        /* a warp at a time: per-lane variables differ, the others are shared */
        expr_env env;
        memset(&env, 0, sizeof env);
        expr_lanes lv;
        static const int lane_vars[5] = {EXPR_TX, EXPR_TY, EXPR_TZ, EXPR_TID, EXPR_LANE};
        for (int k = 0; k < EXPR_NVARS; k++)
            env.v[k] = r.lo[k] + (int64_t)(expr_reference_rnd() % ((uint64_t)(r.hi[k] - r.lo[k]) + 1));
        for (int j = 0; j < 5; j++)
            for (int l = 0; l < EXPR_LANES; l++)
                lv.v[j][l] = r.lo[lane_vars[j]] + (int64_t)(expr_reference_rnd() %
                                                            ((uint64_t)(r.hi[lane_vars[j]] - r.lo[lane_vars[j]]) + 1));
        expr_prepare(&e, &env);
        uint32_t mask = (uint32_t)expr_reference_rnd() | 1u;
        int64_t out[EXPR_LANES];
        expr_status st[EXPR_LANES];
        int pos[EXPR_LANES];
        uint32_t failed = expr_eval_lanes(&e, &env, &lv, mask, out, st, pos);
        assert_int_equal(failed & ~mask, 0);
        for (int l = 0; l < EXPR_LANES; l++) {
            if (!(mask >> l & 1))
                continue;
            expr_env x = env;
            for (int j = 0; j < 5; j++)
                x.v[lane_vars[j]] = lv.v[j][l];
            int64_t want = 0;
            int wpos = -1;
            expr_status ws = expr_reference_eval(&e, &x, &want, &wpos);
            if ((ws != EXPR_OK) != ((failed >> l & 1) != 0) || (ws == EXPR_OK && want != out[l]) ||
                (ws != EXPR_OK && (ws != st[l] || wpos != pos[l])))
                print_error("'%s' lane %d: reference %d %lld @%d, warp %d %lld @%d\n", strbuf_str(&sb), l, ws,
                            (long long)want, wpos, (failed >> l & 1) ? st[l] : 0, (long long)out[l], pos[l]);
            assert_int_equal((failed >> l & 1) != 0, ws != EXPR_OK);
            if (ws == EXPR_OK)
                assert_true(want == out[l]);
            else {
                assert_int_equal(st[l], ws);
                assert_int_equal(pos[l], wpos);
            }
        }
        expr_free(&e);
        strbuf_free(&sb);
    }
    printf("# %d expressions, %d linear, %d proven free of errors\n", specialised, linear, proven);
    assert_true(specialised > 10000);
}

/* Typical index expressions become one linear instruction (or a slot per warp-instruction). */
static void test_linear_forms(void **state)
{
    (void)state;
    expr_range r = {{0}, {0}};
    r.hi[EXPR_TX] = 31;
    r.hi[EXPR_TY] = 31;
    r.lo[EXPR_BDX] = r.hi[EXPR_BDX] = 32;
    r.lo[EXPR_BDY] = r.hi[EXPR_BDY] = 32;
    r.lo[EXPR_BDZ] = r.hi[EXPR_BDZ] = 1;
    r.hi[EXPR_LANE] = 31;
    r.hi[EXPR_WARP] = 31;
    r.hi[EXPR_TID] = 1023;
    r.hi[EXPR_LOOP] = 4095;
    const char *const one[] = {"2 * lane + 5",
                               "threadIdx.x * 33 + threadIdx.y",
                               "tx * 4 + ty * 128 - 3 * i + 7",
                               "(lane << 2) + warp * blockDim.x",
                               "tid - (i % 32) * 2",
                               "-(tx) + 40"};
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++) {
        expr e;
        expr_error err;
        assert_true(expr_parse(one[k], "i", &e, &err));
        expr_specialize(&e, &r);
        if (e.fast.ncode != 1)
            print_error("'%s': %d instructions\n", one[k], e.fast.ncode);
        assert_int_equal(e.fast.ncode, 1);
        assert_false(e.fast.may_fail);
        expr_free(&e);
    }
    expr e;
    expr_error err;
    assert_true(expr_parse("100 / (tx - 3)", "i", &e, &err));
    expr_specialize(&e, &r);
    assert_true(e.fast.may_fail);
    expr_free(&e);
}

/* Hostile sizes: a long chain is an error at its 4097th character, never a stack overflow; a
 * chain at the limit evaluates; too many pending values is an error with a position. */
static void test_limits(void **state)
{
    (void)state;
    size_t n = 400000;
    char *s = malloc(n + 8);
    for (size_t k = 0; k < n; k += 2)
        memcpy(s + k, "0+", 2);
    strcpy(s + n, "tx");
    expr e;
    expr_error err;
    assert_false(expr_parse(s, NULL, &e, &err));
    assert_int_equal(err.pos, EXPR_MAX_LEN);
    assert_non_null(strstr(err.msg, "longer than 4096"));
    strcpy(s + EXPR_MAX_LEN - 2, "tx"); /* exactly 4096 characters: 2047 additions */
    assert_true(expr_parse(s, NULL, &e, &err));
    expr_env env = {{0}};
    env.v[EXPR_TX] = 5;
    int64_t v = 0;
    assert_int_equal(expr_eval(&e, &env, &v, NULL), EXPR_OK);
    assert_int_equal(v, 5);
    strbuf sb = {0};
    const char *names[EXPR_NVARS] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    expr_emit_cuda(&e, names, &sb);
    assert_true(sb.len > 4096);
    strbuf_free(&sb);
    expr_free(&e);
    strbuf wide = {0};
    for (int k = 0; k < 90; k++)
        strbuf_addf(&wide, "tx||tx&&tx|tx^tx&tx==tx<tx<<tx+tx*(");
    strbuf_addf(&wide, "tx");
    for (int k = 0; k < 90; k++)
        strbuf_addc(&wide, ')');
    assert_false(expr_parse(strbuf_str(&wide), NULL, &e, &err));
    assert_non_null(strstr(err.msg, "too complex"));
    assert_true(err.pos > 0 && err.pos < (int)wide.len);
    strbuf_free(&wide);
    free(s);
}

/* Identifiers are compared in full: a long name that starts like the loop variable is not it. */
static void test_long_identifiers(void **state)
{
    (void)state;
    char loop[64], longer[80];
    memset(loop, 'k', 63);
    loop[63] = '\0';
    snprintf(longer, sizeof longer, "%sextra", loop);
    expr e;
    expr_error err;
    assert_true(expr_parse(loop, loop, &e, &err));
    assert_true(expr_uses(&e, EXPR_LOOP));
    expr_free(&e);
    assert_false(expr_parse(longer, loop, &e, &err));
    assert_non_null(strstr(err.msg, "unknown identifier"));
    assert_false(expr_parse("lanes", "i", &e, &err));
    assert_false(expr_parse("tidx", "i", &e, &err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_conditional),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_eval_errors),
        cmocka_unit_test(test_emit),
        cmocka_unit_test(test_compiled_vs_reference),
        cmocka_unit_test(test_linear_forms),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_long_identifiers),
    };
    return cmocka_run_group_tests_name("expr", tests, NULL, NULL);
}
