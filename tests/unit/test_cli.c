/* Unit tests of the command-line reader cli_args (getopt_long as GNU tools use it): "--opt=value"
 * and "--opt value", options after operands, "--" ending the options, unique prefixes, the usage
 * errors, and the split at "--" that hands a program and its own arguments back untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "cli/cli.h"

static const struct option opts[] = {
    {"warp", required_argument, NULL, 'w'}, {"json", no_argument, NULL, 'j'}, {"summary", no_argument, NULL, 's'}, {0}};

/* Read words; fills warp, json and the operands joined by spaces; returns the last result. */
static int read_words(char **words, int n, bool split, char *warp, int *json, char *operands, char *rest)
{
    cli_args a;
    cli_args_init(&a, "test", n, words, split);
    int c;
    const char *v;
    *warp = *operands = *rest = '\0';
    *json = 0;
    while ((c = cli_args_next(&a, "o:", opts, &v)) != -1 && c != CLI_ARGS_ERROR) {
        if (c == 'w')
            strcpy(warp, v);
        *json += c == 'j';
    }
    for (int i = 0; c != CLI_ARGS_ERROR && i < a.noperands; i++)
        strcat(strcat(operands, i ? " " : ""), a.operands[i]);
    for (int i = 0; a.has_rest && i < a.rest_argc; i++)
        strcat(strcat(rest, i ? " " : ""), a.rest[i]);
    cli_args_free(&a);
    return c;
}

static void test_gnu_forms(void **state)
{
    (void)state;
    char warp[64], ops[256], rest[256];
    int json;
    char *w1[] = {"file.json", "--warp=3", "--json"};
    assert_int_equal(read_words(w1, 3, false, warp, &json, ops, rest), -1);
    assert_string_equal(warp, "3");
    assert_int_equal(json, 1);
    assert_string_equal(ops, "file.json");
    char *w2[] = {"--warp", "5", "a", "--", "--json", "-b"}; /* after "--": operands */
    assert_int_equal(read_words(w2, 6, false, warp, &json, ops, rest), -1);
    assert_string_equal(warp, "5");
    assert_int_equal(json, 0);
    assert_string_equal(ops, "a --json -b");
    char *w3[] = {"--sum", "x", "--wa=7"}; /* unique prefixes */
    assert_int_equal(read_words(w3, 3, false, warp, &json, ops, rest), -1);
    assert_string_equal(warp, "7");
    assert_string_equal(ops, "x");
    char *w4[] = {"--json=1"};
    assert_int_equal(read_words(w4, 1, false, warp, &json, ops, rest), CLI_ARGS_ERROR);
    char *w5[] = {"x", "--warp"};
    assert_int_equal(read_words(w5, 2, false, warp, &json, ops, rest), CLI_ARGS_ERROR);
    char *w6[] = {"--frob"};
    assert_int_equal(read_words(w6, 1, false, warp, &json, ops, rest), CLI_ARGS_ERROR);
    char *w7[] = {"-q"};
    assert_int_equal(read_words(w7, 1, false, warp, &json, ops, rest), CLI_ARGS_ERROR);
}

/* A command that runs a program: the words after the first "--" come back as they were, options
 * of the program included; the words before it are read as usual. */
static void test_split_rest(void **state)
{
    (void)state;
    char warp[64], ops[256], rest[256];
    int json;
    char *w[] = {"--json", "out", "--", "./prog", "--warp", "9", "--", "-x"};
    assert_int_equal(read_words(w, 8, true, warp, &json, ops, rest), -1);
    assert_int_equal(json, 1);
    assert_string_equal(warp, "");
    assert_string_equal(ops, "out");
    assert_string_equal(rest, "./prog --warp 9 -- -x");
    assert_string_equal(w[4], "--warp"); /* the caller's words are not permuted */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_gnu_forms), cmocka_unit_test(test_split_rest)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
