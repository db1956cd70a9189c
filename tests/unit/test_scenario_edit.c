/* test_scenario_edit: copies (every library pattern clones to the same JSON and analysis, a
 * copy shares no description memory with its source, a trace's table is shared), the "same file"
 * question against the writer (on edits, and on every value of written files changed in turn),
 * edits that only replace the scenario when they validate, and the bounded undo/redo stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <sys/stat.h>

#include <cJSON.h>

#include "io/lesson.h"
#include "io/library.h"
#include "io/save.h"
#include "model/scenario.h"
#include "model/scenario_edit.h"
#include "test_util.h"

static void test_clone_library(void **state)
{
    (void)state;
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < n; i++) {
        if (!e[i].text || lesson_is(e[i].text, e[i].len)) /* built-in scenarios only */
            continue;
        scenario a, b;
        io_error err;
        assert_true(load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &a, &err));
        assert_true(scenario_clone(&a, &b));
        strbuf j1 = {0}, j2 = {0};
        save_scenario_json(&a, &j1);
        save_scenario_json(&b, &j2);
        assert_string_equal(strbuf_str(&j1), strbuf_str(&j2));
        int64_t cnt = scenario_instr_count(&a);
        assert_int_equal(cnt, scenario_instr_count(&b));
        for (int64_t k = 0; k < cnt && k < 64; k++) {
            scenario_instr ia, ib;
            scenario_instr_at(&a, k, &ia);
            scenario_instr_at(&b, k, &ib);
            assert_memory_equal(&ia.req, &ib.req, sizeof ia.req);
        }
        if (!a.is_trace) /* nothing shared: the copy's strings are its own */
            assert_ptr_not_equal(a.arrays[0].name, b.arrays[0].name);
        scenario_free(&a); /* the copy outlives its source */
        strbuf_clear(&j1);
        save_scenario_json(&b, &j1);
        assert_string_equal(strbuf_str(&j1), strbuf_str(&j2));
        strbuf_free(&j1);
        strbuf_free(&j2);
        scenario_free(&b);
    }
}

/* An access's source location is model data: loaded, cloned, saved and loaded again unchanged;
 * a wrong one is refused at its position. */
static void test_source_location(void **state)
{
    (void)state;
    static const char text[] =
        "{ \"arrays\": [ { \"name\": \"t\", \"type\": \"float\", \"dims\": [64] } ],\n"
        "  \"accesses\": [ { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx\", \"label\": \"k.cu:9:13\",\n"
        "    \"source\": \"x = t[tx];\", \"location\": { \"file\": \"k.cu\", \"line\": 9, \"column\": 13,\n"
        "    \"text\": \"    x = t[tx];\" } },\n"
        "    { \"op\": \"store\", \"array\": \"t\", \"index\": \"tx\" } ] }\n";
    scenario a, b, c;
    io_error err;
    assert_true(load_scenario_text(text, sizeof text - 1, "loc.json", NULL, &a, &err));
    const scenario_srcloc *at = &a.accesses[0].at;
    assert_string_equal(at->file, "k.cu");
    assert_int_equal(at->line, 9);
    assert_int_equal(at->column, 13);
    assert_string_equal(at->text, "    x = t[tx];");
    assert_string_equal(a.accesses[0].label, "k.cu:9:13"); /* label and source stay as they were */
    assert_string_equal(a.accesses[0].source, "x = t[tx];");
    assert_false(scenario_srcloc_known(&a.accesses[1].at));
    assert_true(scenario_clone(&a, &b));
    assert_ptr_not_equal(b.accesses[0].at.file, at->file);
    scenario_free(&a);
    strbuf j = {0};
    save_scenario_json(&b, &j);
    assert_non_null(strstr(strbuf_str(&j), "\"location\": { \"file\": \"k.cu\", \"line\": 9, \"column\": 13"));
    assert_true(load_scenario_text(strbuf_str(&j), j.len, "saved.json", NULL, &c, &err));
    assert_string_equal(c.accesses[0].at.text, "    x = t[tx];");
    assert_int_equal(c.accesses[0].at.column, 13);
    assert_false(scenario_srcloc_known(&c.accesses[1].at));
    strbuf_free(&j);
    scenario_free(&b);
    scenario_free(&c);
    /* set replaces what was there; a partial location keeps the unknown fields unknown */
    scenario_srcloc l = {0};
    scenario_srcloc_set(&l, "a.cu", 3, 0, NULL);
    scenario_srcloc_set(&l, NULL, 4, 7, "x");
    assert_null(l.file);
    assert_int_equal(l.line, 4);
    scenario_srcloc_free(&l);
    static const char bad[] = "{ \"arrays\": [ { \"name\": \"t\", \"type\": \"float\", \"dims\": [64] } ],\n"
                              "  \"accesses\": [ { \"op\": \"load\", \"array\": \"t\", \"index\": \"tx\",\n"
                              "    \"location\": { \"line\": 0 } } ] }\n";
    assert_false(load_scenario_text(bad, sizeof bad - 1, "bad.json", NULL, &a, &err));
    assert_non_null(strstr(err.text, "bad.json:3:"));
    assert_non_null(strstr(err.text, "accesses[0].location.line"));
}

static bool set_pad(scenario *s, void *ctx, char *msg, size_t n)
{
    (void)msg;
    (void)n;
    s->arrays[0].pad[s->arrays[0].ndims - 1] = *(int *)ctx;
    return true;
}

static bool bad_index(scenario *s, void *ctx, char *msg, size_t n)
{
    (void)ctx;
    (void)msg;
    (void)n;
    free(s->accesses[0].index_text[0]);
    s->accesses[0].index_text[0] = xstrdup("nosuchvar + 1");
    return true;
}

static bool refuse(scenario *s, void *ctx, char *msg, size_t n)
{
    (void)s;
    (void)ctx;
    snprintf(msg, n, "refused on purpose");
    return false;
}

static void test_apply_undo_redo(void **state)
{
    (void)state;
    scenario s;
    size_t len;
    io_error err;
    const char *t = library_find("default", &len);
    assert_true(load_scenario_text(t, len, "default", NULL, &s, &err));
    scenario_history h = {0};
    char msg[300];
    const scenario_array *before = s.arrays;
    assert_false(scenario_edit_apply(&s, &h, bad_index, NULL, msg, sizeof msg));
    assert_non_null(strstr(msg, "accesses[0]"));
    assert_ptr_equal(s.arrays, before); /* untouched: the failed copy was dropped */
    assert_string_equal(s.accesses[0].index_text[0], "threadIdx.x");
    assert_false(scenario_edit_apply(&s, &h, refuse, NULL, msg, sizeof msg));
    assert_string_equal(msg, "refused on purpose");
    assert_int_equal(h.nundo, 0);
    for (int p = 1; p <= SCENARIO_HISTORY_MAX + 5; p++)
        assert_true(scenario_edit_apply(&s, &h, set_pad, &p, msg, sizeof msg));
    assert_int_equal(h.nundo, SCENARIO_HISTORY_MAX); /* bounded: the oldest dropped */
    assert_int_equal(s.arrays[0].pad[1], SCENARIO_HISTORY_MAX + 5);
    assert_true(scenario_edit_undo(&s, &h));
    assert_int_equal(s.arrays[0].pad[1], SCENARIO_HISTORY_MAX + 4);
    assert_true(scenario_edit_redo(&s, &h));
    assert_int_equal(s.arrays[0].pad[1], SCENARIO_HISTORY_MAX + 5);
    assert_false(scenario_edit_redo(&s, &h));
    assert_true(scenario_edit_undo(&s, &h));
    int p = 7; /* a new edit clears the redo stack */
    assert_true(scenario_edit_apply(&s, &h, set_pad, &p, msg, sizeof msg));
    assert_int_equal(h.nredo, 0);
    scenario_history_free(&h);
    scenario_free(&s);
}

/* Every pair of states a run of edits passes through: the structs say "same file" exactly when
 * the writer writes the same JSON (the TUI's modified mark asks the first, never the second). */
static void check_same_matches_json(scenario *st, int n)
{
    strbuf *j = calloc((size_t)n, sizeof *j);
    for (int i = 0; i < n; i++)
        save_scenario_json(&st[i], &j[i]);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            bool json_same = strcmp(strbuf_str(&j[i]), strbuf_str(&j[k])) == 0;
            if (scenario_same_file(&st[i], &st[k]) != json_same)
                fail_msg("states %d and %d: same_file %d, JSON %d\n%s\n%s", i, k, !json_same, json_same,
                         strbuf_str(&j[i]), strbuf_str(&j[k]));
        }
    for (int i = 0; i < n; i++)
        strbuf_free(&j[i]);
    free(j);
}

/* The accessors on a description: its accesses, their arrays and kinds, no source map. */
static void test_accessors_description(void **state)
{
    (void)state;
    scenario s;
    test_load_pattern("transpose-naive", &s);
    assert_true(scenario_has_layout(&s));
    assert_false(scenario_has_source_map(&s));
    assert_null(scenario_source_of(&s, 0));
    assert_ptr_equal(scenario_access_of(&s, 0), &s.accesses[0]);
    assert_null(scenario_access_of(&s, s.naccesses));
    assert_int_equal(scenario_access_array(&s, 0), s.accesses[0].array);
    assert_int_equal(scenario_kind_of(&s, 0).width, s.accesses[0].width);
    assert_string_equal(scenario_access_noun(&s, false), "access");
    scenario_free(&s);
}

static void test_same_file_matches_json(void **state)
{
    (void)state;
    static const scenario_change steps[] = {
        {SCENARIO_CHANGE_PAD, .u.pad = {0, 1}},
        {SCENARIO_CHANGE_PAD, .u.pad = {0, -1}},
        {SCENARIO_CHANGE_TYPE_NEXT, .u.array = {0}},
        {SCENARIO_CHANGE_ARCH_STEP, .u.arch = {1, 0}},
        {SCENARIO_CHANGE_ARCH_STEP, .u.arch = {-1, 0}},
        {SCENARIO_CHANGE_BLOCK_NEXT, .u.arch = {0, 0}},
        {SCENARIO_CHANGE_SWIZZLE_NEXT, .u.swizzle = {0, NULL}},
        {SCENARIO_CHANGE_PATTERN_NEXT, .u.pattern = {0, NULL}},
        {SCENARIO_CHANGE_FIELD_NEXT, .u.access = {0}},
        {SCENARIO_CHANGE_DIMENSION, .u.dimension = {0, true, true}},
        {SCENARIO_CHANGE_INDEX, .u.index = {0, 0, "threadIdx.x * 2"}},
        {SCENARIO_CHANGE_INDEX, .u.index = {0, -1, "threadIdx.x < 16"}},
        {SCENARIO_CHANGE_FIELD_TYPE_NEXT, .u.field = {0, 0, false}},
        {SCENARIO_CHANGE_FIELD_ADD, .u.field = {0, -1, false}},
        {SCENARIO_CHANGE_FIELDS_REORDER, .u.field = {0, 0, false}},
        {SCENARIO_CHANGE_FIELD_DELETE, .u.field = {0, 0, true}},
        {SCENARIO_CHANGE_STRUCT_DECL, .u.decl = {"struct pt { float x; double y; };"}},
    };
    enum { NSTEPS = sizeof steps / sizeof steps[0] };
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < n; i++) {
        if (!e[i].text || lesson_is(e[i].text, e[i].len))
            continue;
        scenario st[NSTEPS + 2];
        int ns = 0;
        io_error err;
        assert_true(load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &st[ns++], &err));
        assert_true(load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &st[ns++], &err)); /* loaded twice */
        for (int k = 0; k < NSTEPS; k++) {
            char msg[300];
            scenario next;
            assert_true(scenario_clone(&st[ns - 1], &next));
            if (scenario_edit_change(&next, NULL, &steps[k], msg, sizeof msg))
                st[ns++] = next;
            else
                scenario_free(&next);
        }
        check_same_matches_json(st, ns);
        for (int k = 0; k < ns; k++)
            scenario_free(&st[k]);
    }
    /* loop nests and an access outside them (version 2), each against its edits and the other */
    scenario nest[NSTEPS + 2];
    int nn = 0;
    char path[512];
    io_error err;
    static const char *const files[] = {"golden/cases/loop-outside-nest.json", "golden/cases/loop-outside.json"};
    for (int f = 0; f < 2; f++) {
        assert_true(load_scenario_file(test_path(files[f], path, sizeof path), NULL, &nest[nn++], &err));
        for (int k = 0; k < 3; k++) {
            char msg[300];
            scenario next;
            assert_true(scenario_clone(&nest[nn - 1], &next));
            if (scenario_edit_change(&next, NULL, &steps[k], msg, sizeof msg))
                nest[nn++] = next;
            else
                scenario_free(&next);
        }
    }
    check_same_matches_json(nest, nn);
    for (int k = 0; k < nn; k++)
        scenario_free(&nest[k]);
}

/* Other values for a leaf of the written JSON, each tried in turn (a value the loader refuses
 * is passed over): numbers moved, strings changed, booleans flipped, a null lane made active. */
static int other_values(const cJSON *leaf, cJSON **out)
{
    int n = 0;
    if (cJSON_IsNumber(leaf)) {
        double v = leaf->valuedouble, alt[] = {v + 1, v - 1, v * 2, 0, 16, 1};
        for (size_t k = 0; k < sizeof alt / sizeof alt[0]; k++)
            if (alt[k] != v)
                out[n++] = cJSON_CreateNumber(alt[k]);
    } else if (cJSON_IsString(leaf)) {
        static const char *const alt[] = {"x",   "sm_80", "float",          "double", "lane", "load", "store",
                                          "add", "cg",    "Swizzle<2,4,3>", "i",      "j",    "g",    "exch"};
        char longer[400];
        snprintf(longer, sizeof longer, "%s ", leaf->valuestring);
        out[n++] = cJSON_CreateString(longer);
        const char *fl = strstr(leaf->valuestring, "float"); /* a declaration of another type */
        if (fl) {
            snprintf(longer, sizeof longer, "%.*sint%s", (int)(fl - leaf->valuestring), leaf->valuestring, fl + 5);
            out[n++] = cJSON_CreateString(longer);
        }
        for (size_t k = 0; k < sizeof alt / sizeof alt[0]; k++)
            if (strcmp(alt[k], leaf->valuestring) != 0)
                out[n++] = cJSON_CreateString(alt[k]);
    } else if (cJSON_IsBool(leaf)) {
        out[n++] = cJSON_CreateBool(!cJSON_IsTrue(leaf));
    } else if (cJSON_IsNull(leaf)) {
        out[n++] = cJSON_CreateNumber(0);
    }
    return n;
}

typedef struct mutation_run {
    const scenario *orig;
    const char *orig_json;
    cJSON *root;
    int checked;          /* mutations that loaded and wrote another file */
    char changed[64][32]; /* the keys whose change was seen (an array's members go by its key) */
    int nchanged;
} mutation_run;

static void note_key(mutation_run *m, const char *key)
{
    for (int i = 0; i < m->nchanged; i++)
        if (strcmp(m->changed[i], key) == 0)
            return;
    assert_true(m->nchanged < 64);
    snprintf(m->changed[m->nchanged++], sizeof m->changed[0], "%s", key);
}

/* The document as it stands now, if the loader takes it: the structs must say "same file"
 * exactly when the writer writes the same JSON; a change of the file is noted under name. */
static void try_document(mutation_run *m, const char *name)
{
    char *text = cJSON_PrintUnformatted(m->root);
    scenario t;
    io_error err;
    if (load_scenario_text(text, strlen(text), "mutated.json", NULL, &t, &err)) {
        strbuf j = {0};
        save_scenario_json(&t, &j);
        bool json_same = strcmp(strbuf_str(&j), m->orig_json) == 0;
        if (scenario_same_file(m->orig, &t) != json_same)
            fail_msg("key \"%s\": same_file %d, JSON %d\n%s\n%s", name, !json_same, json_same, m->orig_json,
                     strbuf_str(&j));
        if (!json_same) {
            m->checked++;
            note_key(m, name);
        }
        strbuf_free(&j);
        scenario_free(&t);
    }
    free(text);
}

/* Make v (or nothing, v NULL) stand where c stands under node, after before (NULL: c is the first
 * member), by the next links alone (all that printing reads); link_back undoes it. */
static void link_in(cJSON *node, cJSON *before, cJSON *c, cJSON *v)
{
    cJSON *in = v ? v : c->next;
    if (v)
        v->next = c->next;
    if (before)
        before->next = in;
    else
        node->child = in;
}

static void link_back(cJSON *node, cJSON *before, cJSON *c)
{
    if (before)
        before->next = c;
    else
        node->child = c;
}

/* Every leaf below node changed to each of its other values and, in an object, left out, one at
 * a time (try_document); the tree is as it was after. */
static void mutate_leaves(mutation_run *m, cJSON *node, const char *key)
{
    for (cJSON *c = node->child, *before = NULL; c; before = c, c = c->next) {
        const char *k = cJSON_IsObject(node) ? c->string : key;
        if (cJSON_IsArray(c) || cJSON_IsObject(c)) {
            mutate_leaves(m, c, k);
            continue;
        }
        char name[32];
        snprintf(name, sizeof name, "%s", k ? k : "?");
        cJSON *alt[24];
        int n = other_values(c, alt);
        for (int a = 0; a < n; a++) {
            if (c->string)
                alt[a]->string = strdup(c->string);
            link_in(node, before, c, alt[a]);
            try_document(m, name);
            link_back(node, before, c);
            alt[a]->next = NULL;
            cJSON_Delete(alt[a]);
        }
        if (cJSON_IsObject(node)) {
            link_in(node, before, c, NULL);
            try_document(m, name);
            link_back(node, before, c);
        }
    }
}

/* Every key below node that holds values (not only objects), once each, into keys. */
static void list_keys(cJSON *node, char (*keys)[32], int *n)
{
    for (cJSON *c = node->child; c; c = c->next) {
        bool holds_values = !cJSON_IsObject(c) &&
                            !(cJSON_IsArray(c) && c->child && (cJSON_IsObject(c->child) || cJSON_IsArray(c->child)));
        if (cJSON_IsObject(node) && holds_values) {
            int i = 0;
            while (i < *n && strcmp(keys[i], c->string) != 0)
                i++;
            if (i == *n) {
                assert_true(*n < 64);
                snprintf(keys[(*n)++], 32, "%s", c->string);
            }
        }
        list_keys(c, keys, n);
    }
}

/* One scenario's written JSON, every leaf changed in turn (mutate_leaves); its keys into keys. */
static int mutate_scenario(const scenario *s, mutation_run *m, char (*keys)[32], int *nkeys)
{
    strbuf j = {0};
    save_scenario_json(s, &j);
    m->orig = s;
    m->orig_json = strbuf_str(&j);
    m->root = cJSON_Parse(m->orig_json);
    assert_non_null(m->root);
    list_keys(m->root, keys, nkeys);
    int before = m->checked;
    mutate_leaves(m, m->root, NULL);
    cJSON_Delete(m->root);
    strbuf_free(&j);
    return m->checked - before;
}

/* What the writer writes and what the "same file" question compares are kept in step by hand
 * (io/save.c, model/scenario_same.c): change any one value of the written file, of the library's
 * scenarios, the golden cases' and tests/unit/every-key.json (every optional key the writer knows,
 * and a loop and an array nothing names, so that their names can change), and the two must agree on
 * whether the file changed; and every key the writer writes must be seen to change the file, so
 * a key added to the writer and not to the comparison fails here. */
static void test_same_file_every_key(void **state)
{
    (void)state;
    mutation_run m = {.checked = 0};
    char keys[64][32];
    int nkeys = 0, scenarios = 0;
    scenario s;
    io_error err;
    char path[1024];
    assert_true(load_scenario_file(test_path("unit/every-key.json", path, sizeof path), NULL, &s, &err));
    assert_true(mutate_scenario(&s, &m, keys, &nkeys) > 0);
    scenario_free(&s);
    int n;
    const library_entry *e = library_patterns(&n);
    for (int i = 0; i < n; i++) {
        if (!e[i].text || lesson_is(e[i].text, e[i].len))
            continue;
        assert_true(load_scenario_text(e[i].text, e[i].len, e[i].name, NULL, &s, &err));
        mutate_scenario(&s, &m, keys, &nkeys);
        scenario_free(&s);
        scenarios++;
    }
    char dir[512];
    DIR *d = opendir(test_path("golden/cases", dir, sizeof dir));
    assert_non_null(d);
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0 || strncmp(de->d_name, "bad-", 4) == 0 ||
            strncmp(de->d_name, "hostile-", 8) == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (!load_scenario_file(path, NULL, &s, &err))
            continue; /* lessons, sweeps' inputs of other kinds */
        struct stat st;
        if (stat(path, &st) == 0 && st.st_size <= 4096) { /* a long file adds nothing but time */
            mutate_scenario(&s, &m, keys, &nkeys);
            scenarios++;
        }
        scenario_free(&s);
    }
    closedir(d);
    printf("# %d scenarios, %d changed files compared\n", scenarios + 1, m.checked);
    for (int i = 0; i < nkeys; i++) {
        /* "version" follows from the loops, "form" has one value and names the kind with "op":
         * neither can change alone */
        bool seen = strcmp(keys[i], "version") == 0 || strcmp(keys[i], "form") == 0;
        for (int k = 0; k < m.nchanged && !seen; k++)
            seen = strcmp(keys[i], m.changed[k]) == 0;
        if (!seen)
            fail_msg("no change of the key \"%s\" loaded and wrote another file: give it a value the loader takes",
                     keys[i]);
    }
}

/* A trace's instructions are one table shared by its copies (never copied), freed with the last
 * of them; new addresses make a new table that keeps the same source map. */
static void test_trace_table_shared(void **state)
{
    (void)state;
    char path[512];
    scenario a, b, c, d;
    io_error err;
    assert_true(load_scenario_file(test_path("data/record/transpose-naive.json", path, sizeof path), NULL, &a, &err));
    assert_true(a.is_trace);
    assert_non_null(a.trace_at);
    /* what the accessors rely on: a trace describes no arrays, accesses, loops or warps */
    assert_int_equal(a.narrays + a.naccesses + a.nloops + a.nwarps, 0);
    assert_null(a.warps);
    assert_false(scenario_has_layout(&a));
    assert_true(scenario_has_source_map(&a));
    assert_null(scenario_access_of(&a, 0));
    assert_int_equal(scenario_access_array(&a, 0), -1);
    assert_ptr_equal(scenario_source_of(&a, 1), &a.trace_at[1]);
    assert_null(scenario_source_of(&a, a.ntrace));
    assert_int_equal(scenario_kind_of(&a, 1).addr[3], a.trace[1].addr[3]);
    assert_string_equal(scenario_access_noun(&a, true), "instructions");
    assert_int_equal(scenario_warp_count(&a), 1);
    assert_true(scenario_clone(&a, &b));
    assert_ptr_equal(a.trace, b.trace);
    assert_ptr_equal(a.trace_at, b.trace_at);
    assert_true(scenario_same_file(&a, &b));
    scenario_free(&a); /* the copy outlives its source */
    assert_true(scenario_clone(&b, &c));
    banks_request *moved = malloc(sizeof *moved * (size_t)c.ntrace);
    memcpy(moved, c.trace, sizeof *moved * (size_t)c.ntrace);
    scenario_table_set_requests(&c, moved);
    assert_ptr_not_equal(c.trace, b.trace);
    assert_ptr_equal(c.trace_at, b.trace_at);
    assert_true(scenario_same_file(&b, &c)); /* equal entries in two tables: the same file */
    int l = 0;
    while (!((c.trace[0].active >> l) & 1))
        l++;
    assert_true(scenario_clone(&c, &d));
    banks_request *other = malloc(sizeof *other * (size_t)d.ntrace);
    memcpy(other, d.trace, sizeof *other * (size_t)d.ntrace);
    other[0].addr[l] += 4;
    scenario_table_set_requests(&d, other);
    assert_false(scenario_same_file(&c, &d));
    scenario scen[3] = {b, c, d};
    check_same_matches_json(scen, 3);
    scenario_free(&b);
    scenario_free(&c); /* the source map outlives the table it came with */
    assert_non_null(d.trace_at[0].file);
    scenario_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clone_library),       cmocka_unit_test(test_apply_undo_redo),
        cmocka_unit_test(test_source_location),     cmocka_unit_test(test_same_file_matches_json),
        cmocka_unit_test(test_trace_table_shared),  cmocka_unit_test(test_accessors_description),
        cmocka_unit_test(test_same_file_every_key),
    };
    return cmocka_run_group_tests_name("scenario_edit", tests, NULL, NULL);
}
