/* test_limits: load_check_limits says what the loader would say of the scenario's saved form:
 * the same path and message for each of the file format's limits, and nothing for a scenario
 * within them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "io/save.h"
#include "model/types.h"

static const char base_json[] =
    "{ \"name\": \"t\", \"block\": [32, 1, 1],\n"
    "  \"structs\": [ { \"name\": \"P\", \"fields\": [\"float x\", \"int v[4]\"] } ],\n"
    "  \"arrays\": [ { \"name\": \"a\", \"type\": \"float\", \"dims\": [32, 32] },\n"
    "              { \"name\": \"p\", \"type\": \"P\", \"dims\": [8] } ],\n"
    "  \"loop\": { \"var\": \"i\", \"from\": 0, \"to\": 4, \"step\": 1 },\n"
    "  \"accesses\": [ { \"op\": \"load\", \"array\": \"a\", \"index\": [\"threadIdx.x % 4\", \"threadIdx.x\"] } ],\n"
    "  \"warps\": [0] }\n";

static void load_base(scenario *s)
{
    io_error err;
    if (!load_scenario_text(base_json, strlen(base_json), "base", NULL, s, &err))
        fail_msg("%s", err.text);
}

/* The loader's "path: message" for s saved, or "" when it loads. */
static void loader_says(const scenario *s, char *out, size_t n)
{
    strbuf sb = {0};
    save_scenario_json(s, &sb);
    scenario t;
    io_error err;
    bool ok = load_scenario_text(strbuf_str(&sb), sb.len, "-", NULL, &t, &err);
    scenario_free(&t);
    strbuf_free(&sb);
    out[0] = '\0';
    if (ok)
        return;
    /* "-:LINE:COL: path: message" */
    const char *m = strchr(err.text, ' ');
    snprintf(out, n, "%s", m ? m + 1 : err.text);
}

/* Whether load_check_limits and the loader agree on s (and refuse it when refused is set). */
static void agree(const scenario *s, bool refused)
{
    char want[700], got[400];
    loader_says(s, want, sizeof want);
    scenario_error se;
    bool ok = load_check_limits(s, &se);
    got[0] = '\0';
    if (!ok)
        snprintf(got, sizeof got, "%s: %s", se.path, se.msg);
    assert_string_equal(got, want);
    assert_int_equal(ok, !refused);
}

static void set_str(char **p, const char *v)
{
    free(*p);
    *p = strdup(v);
}

static char *long_text(size_t n, char c)
{
    char *t = malloc(n + 1);
    memset(t, c, n);
    t[n] = '\0';
    return t;
}

static void test_within(void **state)
{
    (void)state;
    scenario s;
    load_base(&s);
    agree(&s, false);
    scenario_free(&s);
}

static void test_names(void **state)
{
    (void)state;
    char *name64 = long_text(64, 'n');
    const char *bad[] = {name64, "int", "9a", "bs_x"};
    for (int k = 0; k < 4; k++) {
        scenario s;
        load_base(&s);
        set_str(&s.arrays[0].name, bad[k]);
        set_str(&s.accesses[0].array_name, bad[k]);
        agree(&s, true);
        scenario_free(&s);
        load_base(&s);
        set_str(&s.loops[0].var, k == 1 ? "a-b" : bad[k]); /* a keyword is a fine loop variable */
        agree(&s, k != 3);
        scenario_free(&s);
        load_base(&s);
        set_str(&s.types.structs[0].fields[1].name, bad[k]);
        agree(&s, true);
        scenario_free(&s);
    }
    free(name64);
}

static void test_strings(void **state)
{
    (void)state;
    char *t = long_text(4097, 'x');
    for (int k = 0; k < 4; k++) {
        scenario s;
        load_base(&s);
        char **p = k == 0 ? &s.name : k == 1 ? &s.accesses[0].label : k == 2 ? &s.accesses[0].at.text : &s.description;
        set_str(p, t);
        agree(&s, true);
        t[4096] = '\0'; /* 4096 characters are allowed */
        set_str(p, t);
        agree(&s, false);
        t[4096] = 'x';
        scenario_free(&s);
    }
    free(t);
}

static void test_numbers(void **state)
{
    (void)state;
    for (int k = 0; k < 9; k++) {
        scenario s;
        load_base(&s);
        switch (k) {
        case 0: s.loops[0].to = ((int64_t)1 << 40) + 1; break;
        case 1: s.loops[0].from = -((int64_t)1 << 41); break;
        case 2: s.loops[0].step = (int64_t)1 << 42; break;
        case 3:
            s.loops[0].kind = SCENARIO_LOOP_MUL;
            s.loops[0].from = 1;
            s.loops[0].step = (1 << 20) + 1;
            break;
        case 4: s.arrays[0].dims[1] = (1 << 20) + 1; break;
        case 5: s.arrays[0].pad[1] = 4097; break;
        case 6: s.arrays[1].base = (1 << 24) + 16; break;
        case 7: s.block[2] = 2000; break;
        case 8: s.warps[0] = 32; break;
        }
        agree(&s, true);
        scenario_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_within),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
