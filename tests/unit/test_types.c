/* test_types: builtin sizes and struct layout, checked against this C compiler's own layout
 * of the same structs (offsetof/sizeof/_Alignof), which follows the ABI nvcc uses. */
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

/* A C declaration typed or pasted: laid out as the compiler does (sizeof, offsets), in every
 * spelling a person uses; a mistake names its byte position. */
static void test_parse_struct(void **state)
{
    (void)state;
    types_registry r = {0};
    types_struct st;
    int pos;
    char err[200];
    assert_true(types_parse_struct("struct P { float3 pos; float m; };", &r, &st, &pos, err, sizeof err));
    r.structs = test_malloc(sizeof *r.structs * 4);
    r.structs[0] = st;
    r.n = 1;
    assert_true(types_layout(&r, err, sizeof err));
    assert_string_equal(r.structs[0].name, "P");
    assert_int_equal(r.structs[0].nfields, 2);
    assert_int_equal(r.structs[0].fields[1].offset, 12); /* float3 aligns as a float */
    assert_int_equal(r.structs[0].size, 16);
    assert_int_equal(r.structs[0].align, 4);
    /* several declarators, arrays, comments, multi-word types, a typedef, an alignment, a
     * struct of the registry, spread over lines as a paste is */
    assert_true(types_parse_struct("typedef struct __align__(16) {\n  // a comment\n  char c; /* and another */\n"
                                   "  unsigned int a, b[3];\n  struct P p;\n} Q;",
                                   &r, &st, &pos, err, sizeof err));
    r.structs[1] = st;
    r.n = 2;
    assert_true(types_layout(&r, err, sizeof err));
    assert_string_equal(r.structs[1].name, "Q");
    assert_int_equal(r.structs[1].nfields, 4);
    assert_int_equal(r.structs[1].fields[2].count, 3);
    assert_int_equal(r.structs[1].fields[3].offset, 20);
    assert_int_equal(r.structs[1].size, 48); /* 36 rounded up to __align__(16) */
    /* errors and where they are */
    static const struct {
        const char *text;
        int pos;
        const char *msg;
    } bad[] = {
        {"struct P { float3 pos float m; };", 22, "expected ';' after the field"},
        {"struct P { flot x; };", 11, "unknown type 'flot'"},
        {"struct { float x; };", 7, "expected the struct's name"},
        {"struct P { float x; float x; };", 26, "two fields have this name"},
        {"struct P { float x; ", 20, "expected '}' to close the struct"},
        {"struct P { float x[0]; };", 19, "expected an array length of 1 to 65536"},
        {"struct P { float x; } p;", 22, "a variable after the struct: declare only the type"},
        {"struct P { float x; };  int y;", 24, "one struct at a time: text after ';'"},
        {"float x;", 0, "expected 'struct NAME { TYPE NAME; ... };'"},
        {"struct P { float x; /* open", 20, "unclosed comment"},
        {"struct P { };", 7, "a struct needs at least one field"},
        {"struct P { int int; };", 15, "'int' is reserved in CUDA code (a keyword, a built-in, or a bs_ or __ name)"},
        {"struct P { float x, __y; };", 20,
         "'__y' is reserved in CUDA code (a keyword, a built-in, or a bs_ or __ name)"},
        {"struct float4 { float x; };", 7,
         "'float4' is reserved in CUDA code (a keyword, a built-in, or a bs_ or __ name)"},
        {"typedef struct { float x; } bs_q;", 28,
         "'bs_q' is reserved in CUDA code (a keyword, a built-in, or a bs_ or __ name)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(types_parse_struct(bad[i].text, &r, &st, &pos, err, sizeof err));
        if (pos != bad[i].pos || strcmp(err, bad[i].msg) != 0)
            fail_msg("'%s': %d '%s', expected %d '%s'", bad[i].text, pos, err, bad[i].pos, bad[i].msg);
    }
    for (int i = 0; i < r.n; i++) {
        for (int f = 0; f < r.structs[i].nfields; f++) {
            free(r.structs[i].fields[f].name);
            free(r.structs[i].fields[f].type_name);
        }
        free(r.structs[i].fields);
        free(r.structs[i].name);
    }
    test_free(r.structs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_layout_matches_compiler),
        cmocka_unit_test(test_recursive_struct),
        cmocka_unit_test(test_parse_struct),
    };
    return cmocka_run_group_tests_name("types", tests, NULL, NULL);
}
