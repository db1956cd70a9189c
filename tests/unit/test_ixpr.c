/* test_ixpr: the importer's expression trees: folding, substitution, and printing checked
 * against bankscope's own parser (printed text evaluates to the tree's value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "import/ixpr.h"
#include "model/expr.h"

static char *print(const ixpr *e)
{
    strbuf sb = {0};
    ixpr_print(e, &sb);
    return strbuf_take(&sb);
}

static void test_fold_and_print(void **state)
{
    (void)state;
    ixpr_arena ar = {0};
    const ixpr *tx = ixpr_var(&ar, "threadIdx.x"), *ty = ixpr_var(&ar, "threadIdx.y");
    const ixpr *c = ixpr_binary(&ar, IXPR_ADD, ixpr_num(&ar, 32), ixpr_num(&ar, 1));
    assert_int_equal(c->kind, IXPR_NUM);
    assert_int_equal(c->value, 33);
    const ixpr *e = ixpr_binary(&ar, IXPR_ADD, ixpr_binary(&ar, IXPR_MUL, ty, c), tx);
    char *s = print(e);
    assert_string_equal(s, "threadIdx.y * 33 + threadIdx.x");
    free(s);
    s = print(ixpr_binary(&ar, IXPR_MUL, ixpr_binary(&ar, IXPR_ADD, tx, ty), ixpr_num(&ar, 2)));
    assert_string_equal(s, "(threadIdx.x + threadIdx.y) * 2");
    free(s);
    s = print(ixpr_binary(&ar, IXPR_SUB, tx, ixpr_binary(&ar, IXPR_SUB, ty, ixpr_num(&ar, 1))));
    assert_string_equal(s, "threadIdx.x - (threadIdx.y - 1)");
    free(s);
    /* identities that cannot hide an error; a failing operation stays for analyze to report */
    assert_ptr_equal(ixpr_binary(&ar, IXPR_ADD, tx, ixpr_num(&ar, 0)), tx);
    assert_ptr_equal(ixpr_binary(&ar, IXPR_MUL, ixpr_num(&ar, 1), tx), tx);
    const ixpr *dz = ixpr_binary(&ar, IXPR_DIV, ixpr_num(&ar, 1), ixpr_num(&ar, 0));
    assert_int_equal(dz->kind, IXPR_BINARY);
    s = print(ixpr_cond(&ar, ixpr_binary(&ar, IXPR_LT, tx, ixpr_num(&ar, 16)), tx, ty));
    assert_string_equal(s, "threadIdx.x < 16 ? threadIdx.x : threadIdx.y");
    free(s);
    /* ?: binds loosest and groups to the right: parentheses only where C needs them */
    const ixpr *lt = ixpr_binary(&ar, IXPR_LT, tx, ixpr_num(&ar, 16)), *c1 = ixpr_cond(&ar, lt, tx, ty);
    s = print(ixpr_cond(&ar, lt, tx, c1));
    assert_string_equal(s, "threadIdx.x < 16 ? threadIdx.x : threadIdx.x < 16 ? threadIdx.x : threadIdx.y");
    free(s);
    s = print(ixpr_cond(&ar, c1, c1, ty));
    assert_string_equal(s, "(threadIdx.x < 16 ? threadIdx.x : threadIdx.y) ? threadIdx.x < 16 ? threadIdx.x : "
                           "threadIdx.y : threadIdx.y");
    free(s);
    s = print(ixpr_binary(&ar, IXPR_MUL, c1, ixpr_num(&ar, 2)));
    assert_string_equal(s, "(threadIdx.x < 16 ? threadIdx.x : threadIdx.y) * 2");
    free(s);
    /* only the chosen arm is evaluated: the other's division by zero is no failure */
    const ixpr *guard = ixpr_cond(&ar, ixpr_binary(&ar, IXPR_NE, tx, ixpr_num(&ar, 0)),
                                  ixpr_binary(&ar, IXPR_DIV, ixpr_num(&ar, 32), tx), ixpr_num(&ar, 0));
    ixpr_env genv = {{"threadIdx.x"}, {0}, 1};
    int64_t gv = -1;
    assert_true(ixpr_eval(guard, &genv, &gv));
    assert_int_equal(gv, 0);
    const ixpr *sub = ixpr_subst(&ar, e, "threadIdx.y", ixpr_num(&ar, 2));
    s = print(sub);
    assert_string_equal(s, "66 + threadIdx.x");
    free(s);
    assert_true(ixpr_uses_thread(e));
    assert_false(ixpr_uses_thread(c));
    ixpr_arena_free(&ar);
}

/* A random tree over threadIdx.x, threadIdx.y, blockDim.x, the loop variable s and constants. */
static const ixpr *random_tree(ixpr_arena *ar, int depth, unsigned *seed)
{
    static const char *const vars[] = {"threadIdx.x", "threadIdx.y", "blockDim.x", "s"};
    int r = rand_r(seed) % 10;
    if (depth == 0 || r < 3)
        return r % 2 ? ixpr_var(ar, vars[rand_r(seed) % 4]) : ixpr_num(ar, rand_r(seed) % 70 - 5);
    if (r == 3)
        return ixpr_unary(ar, (ixpr_op)(rand_r(seed) % 3), random_tree(ar, depth - 1, seed));
    if (r == 4)
        return ixpr_minmax(ar, rand_r(seed) % 2, random_tree(ar, depth - 1, seed), random_tree(ar, depth - 1, seed));
    if (r == 5)
        return ixpr_cond(ar, random_tree(ar, depth - 1, seed), random_tree(ar, depth - 1, seed),
                         random_tree(ar, depth - 1, seed));
    ixpr_op op = (ixpr_op)(IXPR_MUL + rand_r(seed) % (IXPR_NOPS - IXPR_MUL));
    return ixpr_binary(ar, op, random_tree(ar, depth - 1, seed), random_tree(ar, depth - 1, seed));
}

static void test_print_matches_parser(void **state)
{
    (void)state;
    unsigned seed = 12345;
    int compared = 0;
    for (int t = 0; t < 3000; t++) {
        ixpr_arena ar = {0};
        const ixpr *e = random_tree(&ar, 5, &seed);
        char *text = print(e);
        expr x;
        expr_error err;
        if (!expr_parse(text, "s", &x, &err))
            fail_msg("bankscope cannot parse '%s': %s", text, err.msg);
        for (int k = 0; k < 4; k++) {
            int64_t tx = rand_r(&seed) % 32, ty = rand_r(&seed) % 8, s = rand_r(&seed) % 9;
            ixpr_env env = {{"threadIdx.x", "threadIdx.y", "blockDim.x", "s"}, {tx, ty, 32, s}, 4};
            int64_t want, got = 0;
            if (!ixpr_eval(e, &env, &want))
                continue;
            expr_env xe = {{0}};
            xe.v[EXPR_TX] = tx;
            xe.v[EXPR_TY] = ty;
            xe.v[EXPR_BDX] = 32;
            xe.v[EXPR_LOOP] = s;
            int pos;
            if (expr_eval(&x, &xe, &got, &pos) != EXPR_OK || got != want)
                fail_msg("'%s' at tx=%lld ty=%lld s=%lld: tree %lld, bankscope %lld", text, (long long)tx,
                         (long long)ty, (long long)s, (long long)want, (long long)got);
            compared++;
        }
        expr_free(&x);
        free(text);
        ixpr_arena_free(&ar);
    }
    assert_true(compared > 3000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_and_print),
        cmocka_unit_test(test_print_matches_parser),
    };
    return cmocka_run_group_tests_name("ixpr", tests, NULL, NULL);
}
