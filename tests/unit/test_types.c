/* test_types: builtin sizes and struct layout, checked against this C compiler's own layout
 * of the same structs (offsetof/sizeof/_Alignof), which follows the ABI nvcc uses. */
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/types.h"
#include "test_util.h"

typedef struct __attribute__((aligned(16))) {
    float x, y, z, w;
} f4;
typedef struct __attribute__((aligned(8))) {
    float x, y;
} f2;
typedef struct {
    float x, y, z;
} f3;
struct inner {
    char c;
    double d;
};
struct mixed {
    char a;
    double b;
    short c;
    f4 v;
    char tag[3];
    struct inner in;
    f3 p;
    f2 q;
};
struct vec3 {
    float x, y, z, pad;
};
struct __attribute__((aligned(16))) al {
    char c;
};

static void test_builtins(void **state)
{
    (void)state;
    types_builtin b;
    struct {
        const char *n;
        int size, align;
    } cases[] = {
        {"char", 1, 1},    {"short", 2, 2},       {"int", 4, 4},       {"unsigned", 4, 4}, {"long long", 8, 8},
        {"half", 2, 2},    {"float", 4, 4},       {"double", 8, 8},    {"char2", 2, 2},    {"char4", 4, 4},
        {"short2", 4, 4},  {"short4", 8, 8},      {"int2", 8, 8},      {"int4", 16, 16},   {"float2", 8, 8},
        {"float3", 12, 4}, {"float4", 16, 16},    {"double2", 16, 16}, {"double3", 24, 8}, {"double4", 32, 16},
        {"uchar3", 3, 1},  {"longlong2", 16, 16}, {"half2", 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_true(types_builtin_find(cases[i].n, &b));
        assert_int_equal(b.size, cases[i].size);
        assert_int_equal(b.align, cases[i].align);
    }
    assert_false(types_builtin_find("float5", &b));
    assert_false(types_builtin_find("struct", &b));
    assert_false(types_builtin_find("", &b));
}

static void test_layout_matches_compiler(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    const char *json =
        "{\"structs\": ["
        "{\"name\": \"Inner\", \"fields\": [\"char c\", \"double d\"]},"
        "{\"name\": \"Mixed\", \"fields\": [\"char a\", \"double b\", \"short c\", \"float4 v\","
        " \"char tag[3]\", \"Inner in\", \"float3 p\", \"float2 q\"]},"
        "{\"name\": \"Vec3\", \"fields\": [\"float x\", \"float y\", \"float z\", \"float pad\"]},"
        "{\"name\": \"Al\", \"align\": 16, \"fields\": [\"char c\"]}],"
        "\"arrays\": [{\"name\": \"m\", \"type\": \"Mixed\", \"dims\": [4]}],"
        "\"accesses\": [{\"op\": \"load\", \"array\": \"m\", \"index\": \"lane % 4\", \"field\": \"b\"}]}";
    assert_true(test_load(json, &s, &err));
    const types_struct *m = &s.types.structs[1];
    assert_int_equal(m->size, sizeof(struct mixed));
    assert_int_equal(m->align, alignof(struct mixed));
    size_t offs[] = {offsetof(struct mixed, a), offsetof(struct mixed, b),   offsetof(struct mixed, c),
                     offsetof(struct mixed, v), offsetof(struct mixed, tag), offsetof(struct mixed, in),
                     offsetof(struct mixed, p), offsetof(struct mixed, q)};
    for (int f = 0; f < 8; f++)
        assert_int_equal(m->fields[f].offset, offs[f]);
    assert_int_equal(s.types.structs[0].size, sizeof(struct inner));
    assert_int_equal(s.types.structs[2].size, sizeof(struct vec3));
    assert_int_equal(s.types.structs[3].size, sizeof(struct al));
    assert_int_equal(s.types.structs[3].align, alignof(struct al));

    int off;
    types_ref t, mt = {.struct_index = 1};
    char msg[128];
    assert_true(types_field_path(&s.types, &mt, "in.d", &off, &t, msg, sizeof msg));
    assert_int_equal(off, offsetof(struct mixed, in) + offsetof(struct inner, d));
    assert_true(types_field_path(&s.types, &mt, "tag[2]", &off, &t, msg, sizeof msg));
    assert_int_equal(off, offsetof(struct mixed, tag) + 2);
    assert_false(types_field_path(&s.types, &mt, "tag[3]", &off, &t, msg, sizeof msg));
    assert_false(types_field_path(&s.types, &mt, "nope", &off, &t, msg, sizeof msg));
    assert_false(types_field_path(&s.types, &mt, "a.x", &off, &t, msg, sizeof msg));
    /* a CUDA vector's components are field paths too: float3 p.y, float4 v.w, float2 q.x */
    assert_true(types_field_path(&s.types, &mt, "p.y", &off, &t, msg, sizeof msg));
    assert_int_equal(off, offsetof(struct mixed, p) + 4);
    assert_string_equal(types_name(&s.types, &t), "float");
    assert_true(types_field_path(&s.types, &mt, "v.w", &off, &t, msg, sizeof msg));
    assert_int_equal(off, offsetof(struct mixed, v) + 12);
    assert_true(types_field_path(&s.types, &mt, "q.x", &off, &t, msg, sizeof msg));
    assert_int_equal(off, offsetof(struct mixed, q));
    assert_false(types_field_path(&s.types, &mt, "p.w", &off, &t, msg, sizeof msg)); /* float3 has no w */
    assert_false(types_field_path(&s.types, &mt, "q.x.y", &off, &t, msg, sizeof msg));
    assert_false(types_field_path(&s.types, &mt, "v.xy", &off, &t, msg, sizeof msg));

    strbuf sb = {0};
    types_struct_decl(&s.types, 1, true, &sb);
    assert_non_null(strstr(strbuf_str(&sb), "/* 7 byte hole */"));
    assert_non_null(strstr(strbuf_str(&sb), "sizeof 96, alignof 16"));
    strbuf_free(&sb);
    scenario_free(&s);
}

static void test_recursive_struct(void **state)
{
    (void)state;
    scenario s;
    io_error err;
    const char *json = "{\"structs\": [{\"name\": \"A\", \"fields\": [\"A inner\"]}],"
                       "\"arrays\": [{\"name\": \"m\", \"type\": \"A\", \"dims\": [4]}],"
                       "\"accesses\": [{\"op\": \"load\", \"array\": \"m\", \"index\": \"0\"}]}";
    assert_false(test_load(json, &s, &err));
    assert_non_null(strstr(err.text, "contains itself"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_layout_matches_compiler),
        cmocka_unit_test(test_recursive_struct),
    };
    return cmocka_run_group_tests_name("types", tests, NULL, NULL);
}
