/* Unit tests of the streaming input side: the jsonstream tokenizer (grammar, positions in
 * UTF-8 columns, numbers, escapes, limits, reading across its window) and trace_stream (one
 * instruction at a time, the same checks as the whole-file loader). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "io/jsonstream.h"
#include "io/trace_stream.h"
#include "test_util.h"

/* Tokens of text until END or ERROR; returns the last token. */
static jsonstream_token run_all(jsonstream *js, int *count)
{
    jsonstream_token t;
    *count = 0;
    while ((t = jsonstream_next(js)) != JSONSTREAM_END && t != JSONSTREAM_ERROR)
        (*count)++;
    return t;
}

static void expect_syntax_error(const char *text, int line, int col, const char *msg)
{
    jsonstream js;
    jsonstream_open_mem(&js, text, strlen(text));
    int n;
    assert_int_equal(run_all(&js, &n), JSONSTREAM_ERROR);
    if (js.line_tok != line || js.col_tok != col || !strstr(js.msg, msg))
        print_error("'%s': got %lld:%lld %s\n", text, (long long)js.line_tok, (long long)js.col_tok, js.msg);
    assert_int_equal(js.line_tok, line);
    assert_int_equal(js.col_tok, col);
    assert_non_null(strstr(js.msg, msg));
    jsonstream_close(&js);
}

static void test_tokens(void **state)
{
    (void)state;
    const char *t = "{\"a\": [1, -2.5, true, false, null, \"x\\u00e9\\n\"],\n \"\\u00e9b\": {}}  \n";
    jsonstream js;
    jsonstream_open_mem(&js, t, strlen(t));
    static const jsonstream_token want[] = {
        JSONSTREAM_OBJECT, JSONSTREAM_KEY,    JSONSTREAM_ARRAY,      JSONSTREAM_NUMBER,     JSONSTREAM_NUMBER,
        JSONSTREAM_TRUE,   JSONSTREAM_FALSE,  JSONSTREAM_NULL,       JSONSTREAM_STRING,     JSONSTREAM_ARRAY_END,
        JSONSTREAM_KEY,    JSONSTREAM_OBJECT, JSONSTREAM_OBJECT_END, JSONSTREAM_OBJECT_END, JSONSTREAM_END};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        jsonstream_token k = jsonstream_next(&js);
        assert_int_equal(k, want[i]);
        if (i == 3)
            assert_true(js.is_int && js.ival == 1);
        if (i == 4)
            assert_true(!js.is_int && js.num == -2.5);
        if (i == 8)
            assert_string_equal(js.str, "x\xc3\xa9\n");
        if (i == 11) /* after a line break: line 2; columns count characters, not bytes */
            assert_true(js.line_tok == 2 && js.col_tok == 13);
    }
    assert_int_equal(jsonstream_next(&js), JSONSTREAM_END);
    jsonstream_close(&js);
}

static void test_errors(void **state)
{
    (void)state;
    expect_syntax_error("{\"a\": 1} x", 1, 10, "unexpected text after the JSON document");
    expect_syntax_error("{\"a\": [1, 2,]}", 1, 13, "expected a value");
    expect_syntax_error("{\"a\" 1}", 1, 6, "expected ':'");
    expect_syntax_error("[1 2]", 1, 4, "expected ',' or ']'");
    expect_syntax_error("[01]", 1, 3, "malformed number");
    expect_syntax_error("[\"\xc3\xa9\xc3\xa9\", 0x1]", 1, 9, "malformed number");
    expect_syntax_error("{\"a\": [1,\n  2", 2, 4, "the file ends too early");
    expect_syntax_error("[\"a\tb\"]", 1, 4, "control character");
    expect_syntax_error("[\"\\q\"]", 1, 3, "unknown escape");
    expect_syntax_error("[\"\\ud800x\"]", 1, 3, "low surrogate");
    char deep[200];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = '\0';
    expect_syntax_error(deep, 1, 65, "nested more than 64 levels");
    char num[100];
    memset(num, '7', sizeof num - 1);
    num[sizeof num - 1] = '\0';
    expect_syntax_error(num, 1, 1, "number longer than 64 characters");
    char *str = malloc(5000);
    memset(str, 'a', 4999);
    str[0] = '"';
    str[4999] = '\0';
    expect_syntax_error(str, 1, 1, "string longer than 4096 bytes");
    free(str);
}

/* A document larger than the window, read from a FILE: positions stay exact across refills. */
static void test_window(void **state)
{
    (void)state;
    strbuf sb = {0};
    strbuf_add(&sb, "[", 1);
    for (int i = 0; i < 40000; i++)
        strbuf_addf(&sb, "%s%d", i ? (i % 10 ? ", " : ",\n") : "", i);
    strbuf_add(&sb, ", \"\xc3\xa9\", x]", 11);
    FILE *f = fmemopen(sb.data, sb.len, "r");
    jsonstream js;
    jsonstream_open_file(&js, f);
    int n;
    int64_t sum = 0;
    jsonstream_token t;
    for (n = 0; (t = jsonstream_next(&js)) == JSONSTREAM_NUMBER || t == JSONSTREAM_ARRAY; n++)
        sum += js.is_int ? js.ival : 0;
    assert_int_equal(sum, (int64_t)40000 * 39999 / 2);
    assert_int_equal(t, JSONSTREAM_STRING);
    assert_int_equal(jsonstream_next(&js), JSONSTREAM_ERROR);
    assert_int_equal(js.line_tok, 4000);
    assert_int_equal(js.col_tok, 76); /* "39990, ..., 39999, "é", x": the é is one column */
    jsonstream_close(&js);
    fclose(f);
    strbuf_free(&sb);
}

static const char *A32 = "0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, "
                         "92, 96, 100, 104, 108, 112, 116, 120, 124";

static void test_trace_stream(void **state)
{
    (void)state;
    strbuf sb = {0};
    strbuf_addf(&sb, "{\"name\": \"t\", \"trace\": [\n");
    for (int i = 0; i < 3; i++)
        strbuf_addf(&sb, "{\"addresses\": [%s], \"width\": 4, \"op\": \"%s\"},\n", A32, i == 1 ? "store" : "load");
    strbuf_addf(&sb, "{\"op\": \"load\", \"width\": 4, \"addresses\": [null, %s]}\n], \"arch\": \"sm_80\"}", A32 + 3);
    trace_stream *t;
    io_error err;
    assert_int_equal(trace_stream_open(NULL, sb.data, sb.len, "t.json", NULL, &t, &err), TRACE_STREAM_OK);
    assert_string_equal(trace_stream_header(t)->arch->name, "sm_80"); /* found ahead */
    banks_request r;
    int n = 0;
    while (trace_stream_next(t, &r, &err) > 0) {
        assert_int_equal(r.op, n == 1 ? BANKS_STORE : BANKS_LOAD);
        assert_int_equal(r.active, n == 3 ? 0xfffffffeu : 0xffffffffu);
        assert_int_equal(r.addr[31], 124);
        n++;
    }
    assert_int_equal(n, 4);
    assert_int_equal(trace_stream_header(t)->ntrace, 4);
    trace_stream_close(t);
    /* a scenario is not a trace */
    const char *sc = "{\"arrays\": []}";
    assert_int_equal(trace_stream_open(NULL, sc, strlen(sc), "s.json", NULL, &t, &err), TRACE_STREAM_NOT_TRACE);
    /* the in-memory loader keeps the loader's messages */
    scenario s;
    strbuf_clear(&sb);
    strbuf_addf(&sb, "{\"trace\": [{\"op\": \"load\", \"width\": 4, \"addresses\": [%s, 0]}]}", A32);
    assert_false(test_load(sb.data, &s, &err));
    assert_string_equal(err.text,
                        "test.json:1:52: trace[0].addresses: expected 32 addresses (null for an inactive lane)");
    /* the merged atomic: by "form", or by a recording's SASS (files written before the form existed) */
    strbuf_clear(&sb);
    strbuf_addf(&sb, "{\"trace\": [{\"op\": \"atomic\", \"form\": \"popc\", \"addresses\": [%s]},\n", A32);
    strbuf_addf(&sb,
                "{\"op\": \"atomic\", \"atomic\": \"add\", \"returns\": false, \"width\": 4, \"pc\": 16, "
                "\"sass\": \"@P0 ATOMS.POPC.INC.32 RZ, [R2+URZ], RZ\", \"addresses\": [%s]},\n",
                A32);
    strbuf_addf(&sb,
                "{\"op\": \"atomic\", \"atomic\": \"add\", \"returns\": false, \"width\": 4, "
                "\"sass\": \"ATOMS.ADD RZ, [R2], R3\", \"addresses\": [%s]}]}",
                A32);
    assert_true(test_load(sb.data, &s, &err));
    assert_int_equal(s.ntrace, 3);
    assert_int_equal(s.trace[0].op, BANKS_ATOMIC_POPC);
    assert_int_equal(s.trace[0].width, 4);
    assert_int_equal(s.trace[1].op, BANKS_ATOMIC_POPC);
    assert_int_equal(s.trace[2].op, BANKS_ATOMIC);
    scenario_free(&s);
    strbuf_clear(&sb);
    strbuf_addf(&sb, "{\"trace\": [{\"op\": \"atomic\", \"form\": \"popc\", \"returns\": false, \"addresses\": [%s]}]}",
                A32);
    assert_false(test_load(sb.data, &s, &err));
    assert_non_null(strstr(err.text, "trace[0].returns: the popc form adds 1 and returns nothing"));
    strbuf_clear(&sb);
    strbuf_addf(&sb, "{\"trace\": [{\"op\": \"atomic\", \"form\": \"inc\", \"addresses\": [%s]}]}", A32);
    assert_false(test_load(sb.data, &s, &err));
    assert_non_null(strstr(err.text, "trace[0].form: form is \"popc\""));
    /* a recording's names are kept whole, however long (a CuTe kernel's demangled name) */
    strbuf_clear(&sb);
    strbuf_addf(&sb, "{\"name\": \"");
    for (int k = 0; k < 2000; k++)
        strbuf_addf(&sb, "tuple<C<%d>>", k);
    strbuf_addf(&sb, "\", \"trace\": [{\"op\": \"load\", \"width\": 4, \"addresses\": [%s]}]}", A32);
    assert_true(test_load(sb.data, &s, &err));
    assert_true(strlen(s.name) > 20000);
    scenario_free(&s);
    strbuf_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_trace_stream),
    };
    return cmocka_run_group_tests_name("stream", tests, NULL, NULL);
}
