/* jsontree: jsonstream tokens -> a cJSON tree, positions in a side table, duplicate keys refused
 * (a second table of (object, name) pairs, so a large object costs no quadratic search). */
#include "jsontree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct jsontree_slot {
    const cJSON *node; /* NULL: free */
    int line, col;
};

/* A member name of one object, for the duplicate check. */
typedef struct name_slot {
    const cJSON *obj;
    const char *name; /* the member's own string */
} name_slot;

typedef struct builder {
    jsonstream *js;
    jsontree *t;
    jsontree_error *err;
    name_slot *names;
    size_t ncap, nn;
    char path[256]; /* of the value being read, for messages */
    size_t plen;
} builder;

static size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return (size_t)x;
}

static size_t hash_name(const cJSON *obj, const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return (size_t)(h ^ hash_ptr(obj));
}

/* Record where node starts. */
static void put_pos(jsontree *t, const cJSON *node, int64_t line, int64_t col)
{
    if (2 * (t->n + 1) > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        jsontree_slot *s = xcalloc(cap, sizeof *s);
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].node)
                for (size_t k = hash_ptr(t->slots[i].node) & (cap - 1);; k = (k + 1) & (cap - 1))
                    if (!s[k].node) {
                        s[k] = t->slots[i];
                        break;
                    }
        free(t->slots);
        t->slots = s;
        t->cap = cap;
    }
    size_t k = hash_ptr(node) & (t->cap - 1);
    while (t->slots[k].node)
        k = (k + 1) & (t->cap - 1);
    t->slots[k] =
        (jsontree_slot){node, line > 0x7fffffff ? 0x7fffffff : (int)line, col > 0x7fffffff ? 0x7fffffff : (int)col};
    t->n++;
}

/* Record member name of obj; false when obj already has it. */
static bool put_name(builder *b, const cJSON *obj, const char *name)
{
    if (2 * (b->nn + 1) > b->ncap) {
        size_t cap = b->ncap ? 2 * b->ncap : 64;
        name_slot *s = xcalloc(cap, sizeof *s);
        for (size_t i = 0; i < b->ncap; i++)
            if (b->names[i].obj)
                for (size_t k = hash_name(b->names[i].obj, b->names[i].name) & (cap - 1);; k = (k + 1) & (cap - 1))
                    if (!s[k].obj) {
                        s[k] = b->names[i];
                        break;
                    }
        free(b->names);
        b->names = s;
        b->ncap = cap;
    }
    size_t k = hash_name(obj, name) & (b->ncap - 1);
    for (; b->names[k].obj; k = (k + 1) & (b->ncap - 1))
        if (b->names[k].obj == obj && strcmp(b->names[k].name, name) == 0)
            return false;
    b->names[k] = (name_slot){obj, name};
    b->nn++;
    return true;
}

static bool fail(builder *b, int64_t line, int64_t col, const char *msg)
{
    snprintf(b->err->msg, sizeof b->err->msg, "%s%s%s", b->path, b->plen ? ": " : "", msg);
    b->err->line = (int)line;
    b->err->col = (int)col;
    return false;
}

/* The tokenizer's error (it has no path: the grammar is the problem, not a member). */
static bool fail_js(builder *b)
{
    b->plen = 0;
    b->path[0] = '\0';
    return fail(b, b->js->line_tok, b->js->col_tok, b->js->msg);
}

/* Append ".name" or "[i]" to the path; returns the length to restore. */
static size_t path_push(builder *b, const char *name, int index)
{
    size_t old = b->plen;
    int n = name ? snprintf(b->path + old, sizeof b->path - old, "%s%s", old ? "." : "", name)
                 : snprintf(b->path + old, sizeof b->path - old, "[%d]", index);
    b->plen = n < 0 || old + (size_t)n >= sizeof b->path ? sizeof b->path - 1 : old + (size_t)n;
    return old;
}

static void path_pop(builder *b, size_t old)
{
    b->plen = old;
    b->path[old] = '\0';
}

/* The value whose first token tok was just read; NULL after an error. */
static cJSON *read_value(builder *b, jsonstream_token tok)
{
    jsonstream *js = b->js;
    int64_t line = js->line_tok, col = js->col_tok;
    cJSON *v = NULL;
    switch (tok) {
    case JSONSTREAM_STRING: v = cJSON_CreateString(js->str); break;
    case JSONSTREAM_NUMBER: v = cJSON_CreateNumber(js->num); break;
    case JSONSTREAM_TRUE: v = cJSON_CreateTrue(); break;
    case JSONSTREAM_FALSE: v = cJSON_CreateFalse(); break;
    case JSONSTREAM_NULL: v = cJSON_CreateNull(); break;
    case JSONSTREAM_ARRAY:
        v = cJSON_CreateArray();
        for (int i = 0;; i++) {
            jsonstream_token e = jsonstream_next(js);
            if (e == JSONSTREAM_ARRAY_END)
                break;
            size_t old = path_push(b, NULL, i);
            cJSON *item = e == JSONSTREAM_ERROR ? (fail_js(b), NULL) : read_value(b, e);
            path_pop(b, old);
            if (!item) {
                cJSON_Delete(v);
                return NULL;
            }
            cJSON_AddItemToArray(v, item);
        }
        break;
    case JSONSTREAM_OBJECT:
        v = cJSON_CreateObject();
        for (;;) {
            jsonstream_token k = jsonstream_next(js);
            if (k == JSONSTREAM_OBJECT_END)
                break;
            if (k != JSONSTREAM_KEY) {
                cJSON_Delete(v);
                return fail_js(b), NULL;
            }
            int64_t kline = js->line_tok, kcol = js->col_tok;
            char *name = xstrdup(js->str);
            size_t old = path_push(b, name, 0);
            cJSON *item = NULL;
            jsonstream_token e = jsonstream_next(js);
            item = e == JSONSTREAM_ERROR ? (fail_js(b), NULL) : read_value(b, e);
            if (item) {
                cJSON_AddItemToObject(v, name, item);
                if (!put_name(b, v, item->string)) {
                    fail(b, kline, kcol, "this key is given twice");
                    item = NULL;
                }
            }
            free(name);
            path_pop(b, old);
            if (!item) {
                cJSON_Delete(v);
                return NULL;
            }
        }
        break;
    default: return fail_js(b), NULL;
    }
    if (!v) /* cJSON's allocator failed */
        return fail(b, line, col, "out of memory"), NULL;
    put_pos(b->t, v, line, col);
    return v;
}

/* Read the document of js (opened, no token read yet) into t; the caller closes js. */
static bool jsontree_read(jsonstream *js, jsontree *t, jsontree_error *err)
{
    memset(t, 0, sizeof *t);
    memset(err, 0, sizeof *err);
    if (js->maxstr < JSONTREE_MAX_STRING)
        jsonstream_max_string(js, JSONTREE_MAX_STRING);
    builder b = {.js = js, .t = t, .err = err};
    jsonstream_token first = jsonstream_next(js);
    t->root = first == JSONSTREAM_ERROR ? (fail_js(&b), NULL) : read_value(&b, first);
    free(b.names);
    if (t->root && jsonstream_next(js) != JSONSTREAM_END)
        fail_js(&b);
    else if (t->root)
        return true;
    jsontree_free(t);
    return false;
}

bool jsontree_parse(const char *text, size_t len, jsontree *t, jsontree_error *err)
{
    jsonstream js;
    jsonstream_open_mem(&js, text, len);
    bool ok = jsontree_read(&js, t, err);
    jsonstream_close(&js);
    return ok;
}

void jsontree_free(jsontree *t)
{
    cJSON_Delete(t->root);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

jsontree_pos jsontree_at(const jsontree *t, const cJSON *node)
{
    jsontree_pos p = {0};
    if (!node || !t->cap)
        return p;
    for (size_t k = hash_ptr(node) & (t->cap - 1); t->slots[k].node; k = (k + 1) & (t->cap - 1))
        if (t->slots[k].node == node) {
            p.line = t->slots[k].line;
            p.col = t->slots[k].col;
            p.found = true;
            break;
        }
    return p;
}

jsontree_pos jsontree_locate(const jsontree *t, const char *path)
{
    const cJSON *at = t->root;
    bool found = true;
    for (const char *p = path; *p && found;) {
        const cJSON *next = NULL;
        if (*p == '[') {
            char *end;
            long n = strtol(p + 1, &end, 10);
            if (cJSON_IsArray(at) && n >= 0 && n <= 0x7fffffff)
                next = cJSON_GetArrayItem(at, (int)n);
            p = *end == ']' ? end + 1 : end;
        } else {
            if (*p == '.')
                p++;
            size_t n = strcspn(p, ".[");
            if (cJSON_IsObject(at))
                for (const cJSON *c = at->child; c && !next; c = c->next)
                    if (strlen(c->string) == n && strncmp(c->string, p, n) == 0)
                        next = c;
            p += n;
        }
        if (next)
            at = next;
        else
            found = false;
    }
    jsontree_pos r = jsontree_at(t, at);
    r.found = found && r.found;
    if (!r.line)
        r.line = r.col = 1;
    return r;
}
