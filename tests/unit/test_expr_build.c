/* test_expr_build: expressions built node by node (expr_pool): folding with the model's checked
 * arithmetic, substitution, evaluation, and the printer checked against the model's own parser
 * (printed text parses back to the same values; a parsed tree prints as text that parses to it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

#define S_VAR (EXPR_LOOP + 0) /* the loop variable "s" */
static const char *const loop_names[] = {"s"};

static char *print(const expr_pool *p, expr_ref e)
{
    strbuf sb = {0};
    expr_pool_print(p, e, loop_names, 1, &sb);
    return strbuf_take(&sb);
}

/* Assert that e prints as want. */
static void prints(const expr_pool *p, expr_ref e, const char *want)
{
    char *s = print(p, e);
    assert_string_equal(s, want);
    free(s);
}

static void test_fold_and_print(void **state)
{
    (void)state;
    expr_pool p = {0};
    expr_ref tx = expr_pool_var(&p, EXPR_TX), ty = expr_pool_var(&p, EXPR_TY);
    expr_ref c = expr_pool_binary(&p, EXPR_ADD, expr_pool_num(&p, 32), expr_pool_num(&p, 1));
    int64_t v = 0;
    assert_true(expr_pool_const(&p, c, &v));
    assert_int_equal(v, 33);
    expr_ref e = expr_pool_binary(&p, EXPR_ADD, expr_pool_binary(&p, EXPR_MUL, ty, c), tx);
    prints(&p, e, "threadIdx.y * 33 + threadIdx.x");
    prints(&p, expr_pool_binary(&p, EXPR_MUL, expr_pool_binary(&p, EXPR_ADD, tx, ty), expr_pool_num(&p, 2)),
           "(threadIdx.x + threadIdx.y) * 2");
    prints(&p, expr_pool_binary(&p, EXPR_SUB, tx, expr_pool_binary(&p, EXPR_SUB, ty, expr_pool_num(&p, 1))),
           "threadIdx.x - (threadIdx.y - 1)");
    /* identities that cannot hide an error; a failing operation stays for analyze to report */
    assert_int_equal(expr_pool_binary(&p, EXPR_ADD, tx, expr_pool_num(&p, 0)), tx);
    assert_int_equal(expr_pool_binary(&p, EXPR_MUL, expr_pool_num(&p, 1), tx), tx);
    expr_ref dz = expr_pool_binary(&p, EXPR_DIV, expr_pool_num(&p, 1), expr_pool_num(&p, 0));
    assert_false(expr_pool_const(&p, dz, NULL));
    prints(&p, dz, "1 / 0");
    expr_ref ovf = expr_pool_unary(&p, EXPR_NEG, expr_pool_num(&p, INT64_MIN));
    assert_false(expr_pool_const(&p, ovf, NULL));
    prints(&p, expr_pool_binary(&p, EXPR_SHL, expr_pool_num(&p, 1), expr_pool_num(&p, 64)), "1 << 64");
    prints(&p, expr_pool_binary(&p, EXPR_MAX, tx, expr_pool_num(&p, -2)), "max(threadIdx.x, -2)");
    assert_true(expr_pool_const(&p, expr_pool_binary(&p, EXPR_MIN, expr_pool_num(&p, 4), expr_pool_num(&p, -2)), &v));
    assert_int_equal(v, -2);
    prints(&p, expr_pool_binary(&p, EXPR_SUB, tx, expr_pool_num(&p, -3)), "threadIdx.x - (-3)");
    prints(&p, expr_pool_unary(&p, EXPR_LNOT, expr_pool_binary(&p, EXPR_LT, tx, ty)), "!(threadIdx.x < threadIdx.y)");
    prints(&p, expr_pool_cond(&p, expr_pool_binary(&p, EXPR_LT, tx, expr_pool_num(&p, 16)), tx, ty),
           "threadIdx.x < 16 ? threadIdx.x : threadIdx.y");
    /* ?: binds loosest and groups to the right: parentheses only where C needs them */
    expr_ref lt = expr_pool_binary(&p, EXPR_LT, tx, expr_pool_num(&p, 16)), c1 = expr_pool_cond(&p, lt, tx, ty);
    prints(&p, expr_pool_cond(&p, lt, tx, c1),
           "threadIdx.x < 16 ? threadIdx.x : threadIdx.x < 16 ? threadIdx.x : threadIdx.y");
    prints(&p, expr_pool_cond(&p, c1, c1, ty),
           "(threadIdx.x < 16 ? threadIdx.x : threadIdx.y) ? threadIdx.x < 16 ? threadIdx.x : threadIdx.y : "
           "threadIdx.y");
    prints(&p, expr_pool_binary(&p, EXPR_MUL, c1, expr_pool_num(&p, 2)),
           "(threadIdx.x < 16 ? threadIdx.x : threadIdx.y) * 2");
    /* a constant condition chooses its arm */
    assert_int_equal(expr_pool_cond(&p, expr_pool_num(&p, 0), tx, ty), ty);
    /* only the chosen arm is evaluated: the other's division by zero is no failure; && and ||
     * evaluate their right operand only when it decides */
    expr_ref guard = expr_pool_cond(&p, expr_pool_binary(&p, EXPR_NE, tx, expr_pool_num(&p, 0)),
                                    expr_pool_binary(&p, EXPR_DIV, expr_pool_num(&p, 32), tx), expr_pool_num(&p, 0));
    expr_pool_env genv = {{0}, 1u << EXPR_TX};
    int64_t gv = -1;
    assert_true(expr_pool_eval(&p, guard, &genv, &gv));
    assert_int_equal(gv, 0);
    genv.v[EXPR_TX] = 4;
    assert_true(expr_pool_eval(&p, guard, &genv, &gv));
    assert_int_equal(gv, 8);
    assert_false(expr_pool_eval(&p, dz, &genv, &gv));
    assert_false(expr_pool_eval(&p, ovf, &genv, &gv));
    assert_false(expr_pool_eval(&p, ty, &genv, &gv)); /* a variable env does not know */
    genv.v[EXPR_TX] = 0;
    assert_true(expr_pool_eval(&p, expr_pool_binary(&p, EXPR_LAND, tx, ty), &genv, &gv));
    assert_int_equal(gv, 0);
    /* substitution refolds and shares what does not use the variable */
    expr_ref sub = expr_pool_subst(&p, e, EXPR_TY, expr_pool_num(&p, 2));
    prints(&p, sub, "66 + threadIdx.x");
    assert_int_equal(expr_pool_subst(&p, e, EXPR_TZ, expr_pool_num(&p, 2)), e);
    assert_true(expr_pool_uses_thread(&p, e));
    assert_false(expr_pool_uses_thread(&p, c));
    assert_true(expr_pool_uses(&p, e, -1));
    assert_false(expr_pool_uses(&p, 0, -1));
    /* loop variables past a scenario's eight, and their names */
    expr_ref far = expr_pool_binary(&p, EXPR_ADD, expr_pool_var(&p, EXPR_LOOP + 40), expr_pool_var(&p, S_VAR));
    prints(&p, far, "? + s");
    prints(&p, expr_pool_subst(&p, far, EXPR_LOOP + 40, expr_pool_var(&p, EXPR_BDX)), "blockDim.x + s");
    expr_op op;
    assert_true(expr_op_parse("<<", false, &op) && op == EXPR_SHL);
    assert_true(expr_op_parse("-", true, &op) && op == EXPR_NEG);
    assert_true(expr_op_parse("-", false, &op) && op == EXPR_SUB);
    assert_false(expr_op_parse("+", true, &op));
    assert_false(expr_op_parse("=", false, &op));
    expr_pool_free(&p);
}

/* A random tree over threadIdx.x, threadIdx.y, blockDim.x, the loop variable s and constants. */
static expr_ref random_tree(expr_pool *p, int depth, unsigned *seed)
{
    static const int vars[] = {EXPR_TX, EXPR_TY, EXPR_BDX, S_VAR};
    int r = rand_r(seed) % 10;
    if (depth == 0 || r < 3)
        return r % 2 ? expr_pool_var(p, vars[rand_r(seed) % 4]) : expr_pool_num(p, rand_r(seed) % 70 - 5);
    if (r == 3)
        return expr_pool_unary(p, (expr_op)(rand_r(seed) % 3), random_tree(p, depth - 1, seed));
    if (r == 4) {
        expr_op mm = rand_r(seed) % 2 ? EXPR_MAX : EXPR_MIN;
        expr_ref a = random_tree(p, depth - 1, seed);
        return expr_pool_binary(p, mm, a, random_tree(p, depth - 1, seed));
    }
    if (r == 5) {
        expr_ref c = random_tree(p, depth - 1, seed), a = random_tree(p, depth - 1, seed);
        return expr_pool_cond(p, c, a, random_tree(p, depth - 1, seed));
    }
    expr_op op = (expr_op)(EXPR_MUL + rand_r(seed) % (EXPR_LOR - EXPR_MUL + 1));
    expr_ref a = random_tree(p, depth - 1, seed);
    return expr_pool_binary(p, op, a, random_tree(p, depth - 1, seed));
}

/* Printed text parses, evaluates to the pool's value wherever the pool's evaluation succeeds,
 * and prints back to the same text. */
static void test_print_matches_parser(void **state)
{
    (void)state;
    unsigned seed = 12345;
    int compared = 0;
    const char *loops[EXPR_MAX_LOOPS] = {"s"};
    for (int t = 0; t < 3000; t++) {
        expr_pool p = {0};
        expr_ref e = random_tree(&p, 5, &seed);
        char *text = print(&p, e);
        expr x;
        expr_error err;
        if (!expr_parse_loops(text, loops, &x, &err))
            fail_msg("bankscope cannot parse '%s': %s", text, err.msg);
        /* the parsed tree prints as text that parses to itself (a negative number comes back as
         * the negation of its magnitude, so the first print may differ from the pool's) */
        strbuf once = {0}, twice = {0};
        expr_print(&x, loop_names, 1, &once);
        expr y;
        if (!expr_parse_loops(strbuf_str(&once), loops, &y, &err))
            fail_msg("bankscope cannot parse '%s' (printed from '%s'): %s", strbuf_str(&once), text, err.msg);
        expr_print(&y, loop_names, 1, &twice);
        if (strcmp(strbuf_str(&once), strbuf_str(&twice)) != 0)
            fail_msg("'%s' prints back as '%s'", strbuf_str(&once), strbuf_str(&twice));
        expr_free(&y);
        strbuf_free(&once);
        strbuf_free(&twice);
        for (int k = 0; k < 4; k++) {
            int64_t tx = rand_r(&seed) % 32, ty = rand_r(&seed) % 8, s = rand_r(&seed) % 9;
            expr_pool_env env = {{0}, 1u << EXPR_TX | 1u << EXPR_TY | 1u << EXPR_BDX | 1u << S_VAR};
            env.v[EXPR_TX] = tx;
            env.v[EXPR_TY] = ty;
            env.v[EXPR_BDX] = 32;
            env.v[S_VAR] = s;
            int64_t want, got = 0;
            expr_env xe = {{0}};
            memcpy(xe.v, env.v, sizeof env.v);
            int pos;
            expr_status st = expr_eval(&x, &xe, &got, &pos);
            if (!expr_pool_eval(&p, e, &env, &want)) {
                if (st == EXPR_OK)
                    fail_msg("'%s' at tx=%lld ty=%lld s=%lld: the pool fails, bankscope gives %lld", text,
                             (long long)tx, (long long)ty, (long long)s, (long long)got);
                continue;
            }
            if (st != EXPR_OK || got != want)
                fail_msg("'%s' at tx=%lld ty=%lld s=%lld: pool %lld, bankscope %lld", text, (long long)tx,
                         (long long)ty, (long long)s, (long long)want, (long long)got);
            compared++;
        }
        expr_free(&x);
        free(text);
        expr_pool_free(&p);
    }
    assert_true(compared > 3000);
}

/* A tree that shares its parts (x = x + (x >> 1), 60 times) is far larger than its pool: its
 * substitution and variable checks work on the pool, and its text stops just past what the
 * parser takes. */
static void test_shared_trees(void **state)
{
    (void)state;
    expr_pool p = {0};
    expr_ref x = expr_pool_var(&p, S_VAR);
    for (int k = 0; k < 60; k++)
        x = expr_pool_binary(&p, EXPR_ADD, x, expr_pool_binary(&p, EXPR_SHR, x, expr_pool_num(&p, 1)));
    int before = p.n;
    expr_ref y = expr_pool_subst(&p, x, S_VAR, expr_pool_var(&p, EXPR_TX));
    assert_true(p.n - before < 300); /* each shared part rewritten once */
    assert_true(expr_pool_uses(&p, y, EXPR_TX));
    assert_false(expr_pool_uses(&p, y, S_VAR));
    assert_true(expr_pool_uses_thread(&p, y));
    expr_pool_env env = {{0}, 1u << EXPR_TX}; /* evaluated once per shared part: at once */
    env.v[EXPR_TX] = 0;
    int64_t ev = -1;
    assert_true(expr_pool_eval(&p, y, &env, &ev));
    assert_int_equal(ev, 0);
    env.v[EXPR_TX] = 2;
    int64_t want = 2;
    for (int k = 0; k < 60; k++)
        want += want >> 1;
    assert_true(expr_pool_eval(&p, y, &env, &ev));
    assert_int_equal(ev, want);
    strbuf sb = {0};
    strbuf_addf(&sb, "t[");
    expr_pool_print(&p, y, loop_names, 1, &sb);
    assert_true(sb.len > EXPR_MAX_LEN + 2 && sb.len < 2 * EXPR_MAX_LEN);
    expr e;
    expr_error err;
    assert_false(expr_parse(strbuf_str(&sb) + 2, NULL, &e, &err));
    assert_non_null(strstr(err.msg, "longer than"));
    strbuf_free(&sb);
    /* variables past 62 share a bit of the summary: still told apart */
    expr_ref far = expr_pool_binary(&p, EXPR_ADD, expr_pool_var(&p, EXPR_LOOP + 100), expr_pool_num(&p, 1));
    assert_true(expr_pool_uses(&p, far, EXPR_LOOP + 100));
    assert_false(expr_pool_uses(&p, far, EXPR_LOOP + 101));
    assert_false(expr_pool_uses(&p, far, EXPR_TX));
    expr_ref g = expr_pool_subst(&p, far, EXPR_LOOP + 100, expr_pool_num(&p, 4));
    int64_t v;
    assert_true(expr_pool_const(&p, g, &v) && v == 5);
    expr_pool_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_and_print),
        cmocka_unit_test(test_print_matches_parser),
        cmocka_unit_test(test_shared_trees),
    };
    return cmocka_run_group_tests_name("expr_build", tests, NULL, NULL);
}
