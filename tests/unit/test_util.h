/* test_util: helpers shared by the cmocka unit tests (fixture paths, scenario loading). */
#ifndef BANKSCOPE_TEST_UTIL_H
#define BANKSCOPE_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/library.h"
#include "io/load.h"

/* Path of a file under the source tree's tests/ folder. */
static inline const char *test_path(const char *rel, char *buf, size_t n)
{
    const char *src = getenv("srcdir");
    snprintf(buf, n, "%s/tests/%s", src ? src : ".", rel);
    return buf;
}

/* Load JSON text as a scenario; returns true on success, err filled otherwise. */
static inline bool test_load(const char *json, scenario *s, io_error *err)
{
    return load_scenario_text(json, strlen(json), "test.json", NULL, s, err);
}

/* Load the library pattern called name (it must load). */
static inline void test_load_pattern(const char *name, scenario *s)
{
    size_t len;
    const char *t = library_find(name, &len);
    io_error err;
    assert_non_null(t);
    assert_true(load_scenario_text(t, len, name, NULL, s, &err));
}

#endif
