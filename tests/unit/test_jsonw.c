/* test_jsonw: the JSON writer (escaping, invalid UTF-8, exact numbers, nesting checks, write
 * errors, streaming of a document bigger than its buffer) and textsafe's escaping for terminals
 * and XML. Every document written is parsed back with cJSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonw.h"
#include "io/textsafe.h"

static jsonw w; /* 64 KiB: not on the stack */

/* Run fn into a memory stream; returns the text (caller frees) and whether finish succeeded. */
static char *capture(void (*fn)(jsonw *), bool *ok)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    jsonw_init(&w, f);
    fn(&w);
    const char *why;
    *ok = jsonw_finish(&w, &why);
    fclose(f);
    return text;
}

static void write_strings(jsonw *j)
{
    jsonw_begin_array(j, JSONW_INLINE);
    jsonw_string(j, "quote \" backslash \\ slash /");
    jsonw_string(j, "nl\n tab\t cr\r bell\a esc\x1b del\x7f csi\xc2\x9b");
    jsonw_string(j, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    jsonw_string(j, "bad \xff \xc3 \xed\xa0\x80 \xc0\xaf end"); /* stray, cut, surrogate, overlong */
    jsonw_string_n(j, "nul\0inside", 10);
    jsonw_string(j, NULL);
    jsonw_end_array(j);
}

static void test_strings(void **state)
{
    (void)state;
    bool ok;
    char *t = capture(write_strings, &ok);
    assert_true(ok);
    assert_non_null(strstr(t, "\\u001b"));
    assert_non_null(strstr(t, "\\u007f"));
    assert_null(strchr(t, 0x1b));
    assert_non_null(strstr(t, "\\u009b"));
    cJSON *doc = cJSON_Parse(t);
    assert_non_null(doc);
    assert_string_equal(cJSON_GetArrayItem(doc, 0)->valuestring, "quote \" backslash \\ slash /");
    assert_string_equal(cJSON_GetArrayItem(doc, 1)->valuestring, "nl\n tab\t cr\r bell\a esc\x1b del\x7f csi\xc2\x9b");
    assert_string_equal(cJSON_GetArrayItem(doc, 2)->valuestring, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    /* each bad byte is one U+FFFD */
    assert_string_equal(cJSON_GetArrayItem(doc, 3)->valuestring,
                        "bad \xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd "
                        "\xef\xbf\xbd\xef\xbf\xbd end");
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(doc, 5)));
    assert_non_null(strstr(t, "nul\\u0000inside"));
    cJSON_Delete(doc);
    free(t);
}

static void write_numbers(jsonw *j)
{
    jsonw_begin_object(j, JSONW_LINES);
    jsonw_kv_int(j, "zero", 0);
    jsonw_kv_int(j, "min", INT64_MIN);
    jsonw_kv_int(j, "max", INT64_MAX);
    jsonw_kv_int(j, "neg", -1234567);
    jsonw_kv_double(j, "tenth", 0.1);
    jsonw_kv_double(j, "third", 1.0 / 3.0);
    jsonw_kv_double(j, "big", 1e300);
    jsonw_kv_double(j, "nan", NAN);
    jsonw_kv_double(j, "inf", INFINITY);
    jsonw_kv_bool(j, "t", true);
    jsonw_kv_null(j, "n");
    jsonw_end_object(j);
}

static void test_numbers(void **state)
{
    (void)state;
    bool ok;
    char *t = capture(write_numbers, &ok);
    assert_true(ok);
    assert_non_null(strstr(t, "\"min\": -9223372036854775808"));
    assert_non_null(strstr(t, "\"max\": 9223372036854775807"));
    assert_non_null(strstr(t, "\"tenth\": 0.1,"));
    assert_non_null(strstr(t, "\"nan\": null"));
    cJSON *doc = cJSON_Parse(t);
    assert_non_null(doc);
    assert_true(cJSON_GetObjectItem(doc, "third")->valuedouble == 1.0 / 3.0);
    assert_true(cJSON_GetObjectItem(doc, "big")->valuedouble == 1e300);
    assert_int_equal(cJSON_GetObjectItem(doc, "neg")->valueint, -1234567);
    cJSON_Delete(doc);
    free(t);
    /* every integer formats like printf */
    char a[32], b[32];
    for (int64_t v = -100000; v <= 100000; v += 7) {
        int n = jsonw_format_int(v * 1000003, a);
        a[n] = '\0';
        snprintf(b, sizeof b, "%lld", (long long)(v * 1000003));
        assert_string_equal(a, b);
    }
}

static void write_nothing_open(jsonw *j)
{
    jsonw_begin_object(j, JSONW_INLINE);
    jsonw_key(j, "a");
    jsonw_begin_array(j, JSONW_INLINE);
}

static void write_value_without_key(jsonw *j)
{
    jsonw_begin_object(j, JSONW_INLINE);
    jsonw_int(j, 1);
    jsonw_end_object(j);
}

static void write_mismatch(jsonw *j)
{
    jsonw_begin_object(j, JSONW_INLINE);
    jsonw_end_array(j);
}

static void write_two_top(jsonw *j)
{
    jsonw_int(j, 1);
    jsonw_int(j, 2);
}

static void write_key_in_array(jsonw *j)
{
    jsonw_begin_array(j, JSONW_INLINE);
    jsonw_key(j, "k");
    jsonw_end_array(j);
}

static void test_nesting(void **state)
{
    (void)state;
    void (*bad[])(jsonw *) = {write_nothing_open, write_value_without_key, write_mismatch, write_two_top,
                              write_key_in_array};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bool ok = true;
        free(capture(bad[i], &ok));
        assert_false(ok);
    }
}

/* A document of several MB goes through the 64 KiB buffer and parses back whole. */
static void write_big(jsonw *j)
{
    jsonw_begin_object(j, JSONW_LINES);
    jsonw_key(j, "rows");
    jsonw_begin_array(j, JSONW_LINES);
    for (int i = 0; i < 50000; i++) {
        jsonw_begin_object(j, JSONW_INLINE);
        jsonw_kv_int(j, "i", i);
        jsonw_kv_string(j, "s", "x\"y\xc3\xa9");
        jsonw_end_object(j);
    }
    jsonw_end_array(j);
    jsonw_end_object(j);
}

static void test_streaming(void **state)
{
    (void)state;
    bool ok;
    char *t = capture(write_big, &ok);
    assert_true(ok);
    cJSON *doc = cJSON_Parse(t);
    assert_non_null(doc);
    cJSON *rows = cJSON_GetObjectItem(doc, "rows");
    assert_int_equal(cJSON_GetArraySize(rows), 50000);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(rows, 49999), "i")->valueint, 49999);
    cJSON_Delete(doc);
    free(t);
}

/* A long string of multi-byte characters is escaped in chunks: no chunk may split one. */
static void write_long_utf8(jsonw *j)
{
    static char s[3 * 700 + 2];
    size_t n = 0;
    s[n++] = 'x'; /* shifts the 3-byte characters across every chunk boundary */
    for (int i = 0; i < 700; i++) {
        memcpy(s + n, "\xe2\x82\xac", 3);
        n += 3;
    }
    s[n] = '\0';
    jsonw_string(j, s);
}

static void test_long_utf8(void **state)
{
    (void)state;
    bool ok;
    char *t = capture(write_long_utf8, &ok);
    assert_true(ok);
    assert_null(strstr(t, "\xef\xbf\xbd")); /* no replacement character: nothing was cut */
    cJSON *doc = cJSON_Parse(t);
    assert_non_null(doc);
    assert_int_equal(strlen(doc->valuestring), 1 + 3 * 700);
    cJSON_Delete(doc);
    free(t);
}

static void test_write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f)
        skip();
    jsonw_init(&w, f);
    write_big(&w);
    const char *why = NULL;
    assert_false(jsonw_finish(&w, &why));
    assert_non_null(why);
    fclose(f);
}

static void test_textsafe(void **state)
{
    (void)state;
    strbuf sb = {0};
    textsafe_add(&sb, "title\x1b]0;pwned\x07 clear\x1b[2J \xc2\x9b csi \xff ok \xc3\xa9");
    assert_string_equal(strbuf_str(&sb), "title\\x1b]0;pwned\\x07 clear\\x1b[2J \\u009b csi \\xff ok \xc3\xa9");
    strbuf_clear(&sb);
    textsafe_xml_add(&sb, "<a href=\"x\">&'</a>\x01");
    assert_string_equal(strbuf_str(&sb), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;\\x01");
    strbuf_free(&sb);
    /* cuts never split a character: "é" is 2 bytes, "€" 3 */
    assert_int_equal(textsafe_cut("a\xc3\xa9", 2), 1);
    assert_int_equal(textsafe_cut("a\xc3\xa9", 3), 3);
    assert_int_equal(textsafe_cut("\xe2\x82\xac\xe2\x82\xac", 5), 3);
    assert_int_equal(textsafe_cut("abc", 10), 3);
    char buf[4];
    assert_string_equal(textsafe("\xe2\x82\xac\xe2\x82\xac", buf, sizeof buf), "\xe2\x82\xac");
    /* compiler logs keep their lines, never their escape sequences */
    char *log = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&log, &len);
    textsafe_fputs_lines("line 1\n\tline 2\x1b[2J", f);
    fclose(f);
    assert_string_equal(log, "line 1\n\tline 2\\x1b[2J");
    free(log);
    /* the bidirectional controls are escaped like other controls, for terminals and in XML */
    strbuf_clear(&sb);
    textsafe_add(&sb, "x\xe2\x80\xae"
                      "abc\xe2\x80\xac"
                      "\xe2\x81\xa7"
                      "\xe2\x80\x8e"
                      "\xd8\x9c"
                      "y \xe2\x80\x94");
    assert_string_equal(strbuf_str(&sb), "x\\u202eabc\\u202c\\u2067\\u200e\\u061cy \xe2\x80\x94");
    strbuf_clear(&sb);
    textsafe_xml_add(&sb, "\xe2\x80\xae"
                          "evil");
    assert_string_equal(strbuf_str(&sb), "\\u202eevil");
    strbuf_free(&sb);
}

/* The string sink gets what the FILE sink gets, byte for byte, past the buffer's size too; the
 * spaced layout and a line break between inline members are as scenario files and the snapshot
 * write them. */
static void test_string_sink(void **state)
{
    (void)state;
    strbuf sb = {0};
    jsonw *w = malloc(sizeof *w);
    jsonw_init_string(w, &sb);
    jsonw_begin_object(w, JSONW_LINES);
    JSONW_KEY(w, "rows");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < 2; i++) {
        jsonw_begin_object(w, JSONW_SPACED);
        JSONW_KV_STRING(w, "op", "load");
        jsonw_kv_int(w, "width", 4 * i);
        JSONW_KEY(w, "at");
        jsonw_begin_array(w, JSONW_INLINE);
        jsonw_int(w, i);
        jsonw_null(w);
        jsonw_end_array(w);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    JSONW_KEY(w, "snap");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "a", 1);
    jsonw_break(w, 1);
    jsonw_kv_string(w, "b", "x\"y");
    jsonw_break(w, 1);
    JSONW_KEY(w, "c");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_BOOL(w, "d", true);
    jsonw_end_object(w);
    jsonw_end_object(w);
    jsonw_end_object(w);
    assert_true(jsonw_finish(w, NULL));
    assert_string_equal(strbuf_str(&sb), "{\n"
                                         "  \"rows\": [\n"
                                         "    { \"op\": \"load\", \"width\": 0, \"at\": [0, null] },\n"
                                         "    { \"op\": \"load\", \"width\": 4, \"at\": [1, null] }\n"
                                         "  ],\n"
                                         "  \"snap\": {\"a\": 1,\n \"b\": \"x\\\"y\",\n \"c\": {\"d\": true}}\n"
                                         "}\n");
    /* a document larger than the buffer, into both sinks */
    strbuf big = {0};
    FILE *f = tmpfile();
    assert_non_null(f);
    for (int sink = 0; sink < 2; sink++) {
        if (sink)
            jsonw_init(w, f);
        else
            jsonw_init_string(w, &big);
        jsonw_begin_array(w, JSONW_LINES);
        for (int i = 0; i < 20000; i++) {
            jsonw_begin_object(w, JSONW_SPACED);
            JSONW_KV_INT(w, "i", i);
            jsonw_end_object(w);
        }
        jsonw_end_array(w);
        assert_true(jsonw_finish(w, NULL));
    }
    long n = ftell(f);
    assert_int_equal((size_t)n, big.len);
    char *back = malloc((size_t)n);
    rewind(f);
    assert_int_equal(fread(back, 1, (size_t)n, f), (size_t)n);
    assert_memory_equal(back, big.data, (size_t)n);
    free(back);
    fclose(f);
    strbuf_free(&big);
    strbuf_free(&sb);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings),   cmocka_unit_test(test_numbers),     cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_streaming), cmocka_unit_test(test_write_error), cmocka_unit_test(test_textsafe),
        cmocka_unit_test(test_long_utf8), cmocka_unit_test(test_string_sink),
    };
    return cmocka_run_group_tests_name("jsonw", tests, NULL, NULL);
}
