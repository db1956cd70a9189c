/* test_kernel_text: the text of `bankscope kernel` (and of the TUI's kernel view) for every
 * library pattern, lessons and tensor kinds included: each section is the header line then
 * exactly the source measure_plan makes for that access, and the highlighted span is the part
 * generated from the access itself (the address function's body, its return included). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kernel_text.h"
#include "io/lesson.h"
#include "test_util.h"

/* The start of line l (0-based) of text, NULL past the end. */
static const char *line_at(const char *text, int l)
{
    for (; l > 0 && text; l--) {
        text = strchr(text, '\n');
        text = text ? text + 1 : NULL;
    }
    return text;
}

static void check_pattern(const char *name, const char *text, size_t len)
{
    scenario s;
    io_error err;
    if (!load_scenario_text(text, len, name, NULL, &s, &err))
        return; /* lessons and other non-scenario entries */
    int n = scenario_access_count(&s);
    strbuf out = {0};
    kernel_text_span *spans = calloc((size_t)n, sizeof *spans);
    char msg[700];
    assert_true(kernel_text(&s, name, 0, n, 0, &out, spans, msg, sizeof msg));
    strbuf want = {0};
    for (int a = 0; a < n; a++) {
        measure_plan p;
        assert_true(measure_plan_make(&s, a, 0, &p, msg, sizeof msg));
        kernel_text_header(&s, name, &p, &want);
        strbuf_add(&want, p.rq.source, strlen(p.rq.source));
        measure_plan_free(&p);
        const kernel_text_span *sp = &spans[a];
        assert_true(sp->head < sp->body_first && sp->body_first < sp->body_end && sp->body_end <= sp->end);
        assert_true(a == 0 ? sp->head == 0 : sp->head == spans[a - 1].end);
        assert_memory_equal(line_at(strbuf_str(&out), sp->head), "// ==== ", 8);
        bool ret = false; /* the address function's return is among the highlighted lines */
        for (int l = sp->body_first; l < sp->body_end; l++)
            ret |= strncmp(line_at(strbuf_str(&out), l), "    return", 10) == 0;
        if (!ret)
            fail_msg("%s access %d: no return among the highlighted lines", name, a);
    }
    assert_string_equal(strbuf_str(&out), strbuf_str(&want));
    strbuf_free(&want);
    strbuf_free(&out);
    free(spans);
    scenario_free(&s);
}

static void test_every_pattern(void **state)
{
    (void)state;
    int n;
    const library_entry *e = library_patterns(&n);
    assert_true(n > 20);
    for (int i = 0; i < n; i++)
        if (e[i].text) /* built-in (not a file of the installed or user folders) */
            check_pattern(e[i].name, e[i].text, e[i].len);
}

/* A trace's section: the addresses come from bs_table, and the highlighted lines read it. */
static void test_trace(void **state)
{
    (void)state;
    char path[512];
    size_t len;
    io_error err;
    char *t = load_read_file(test_path("golden/cases/trace-column-32x33.json", path, sizeof path), &len, &err);
    assert_non_null(t);
    check_pattern("trace-column-32x33.json", t, len);
    scenario s;
    assert_true(load_scenario_text(t, len, "trace.json", NULL, &s, &err));
    strbuf out = {0};
    kernel_text_span sp;
    char msg[700];
    assert_true(kernel_text(&s, "trace.json", 0, 1, 0, &out, &sp, msg, sizeof msg));
    assert_non_null(strstr(line_at(strbuf_str(&out), sp.body_first), "bs_table[bs_lane]"));
    strbuf_free(&out);
    scenario_free(&s);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pattern),
        cmocka_unit_test(test_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
