/* load: JSON -> scenario, with strict keys and positions in every message. */
#include "load.h"

#include <cJSON.h>
#include <errno.h>
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/jsontree.h"
#include "io/library.h"
#include "io/recording.h"
#include "io/trace_stream.h"
#include "model/kernelgen.h"
#include "model/kinds.h"

typedef struct loader {
    const jsontree *tree; /* the document, with its positions */
    const char *name;
    io_error *err;
    bool failed;
} loader;

/* Report msg at the value found under the printf-formatted path. */
static bool fail_at(loader *L, int extra_col, const char *msg, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail_at(loader *L, int extra_col, const char *msg, const char *fmt, ...)
{
    if (L->failed)
        return false;
    L->failed = true;
    char path[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    jsontree_pos p = jsontree_locate(L->tree, path);
    snprintf(L->err->text, sizeof L->err->text, "%s:%d:%d: %s%s%s", L->name, p.line, p.col + extra_col, path,
             *path ? ": " : "", msg);
    return false;
}

/* Check that obj has only the keys listed (NULL-terminated). */
static bool only_keys(loader *L, const cJSON *obj, const char *const keys[], const char *path)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        bool ok = false;
        for (int k = 0; keys[k]; k++)
            ok |= strcmp(c->string, keys[k]) == 0;
        if (!ok) {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown key '%.60s'", c->string);
            return fail_at(L, 0, msg, "%s%s%s", path, *path ? "." : "", c->string);
        }
    }
    return true;
}

/* The file format's limits, each written once: the loader checks them at a value's place in the
 * text, load_check_limits on a scenario in memory. */
#define LOAD_MAX_STRING 4096
static const char msg_long_string[] = "string longer than 4096 characters";
static const int64_t loop_big = (int64_t)1 << 40; /* loop bounds and steps */
enum { LIMIT_DIM = 1 << 20, LIMIT_PAD = 4096, LIMIT_BASE = 1 << 24, LIMIT_FACTOR = 1 << 20, LIMIT_BLOCK = 1024 };

static void range_message(char *msg, size_t n, int64_t lo, int64_t hi)
{
    snprintf(msg, n, "out of range: must be %lld..%lld", (long long)lo, (long long)hi);
}

/* Why s cannot be a name at path (NULL: it can): names reach generated CUDA code, so they are
 * strictly checked; the loop variable does not (it becomes bs_loop). */
static const char *ident_problem(const char *s, const char *path)
{
    bool ok =
        s && *s && strlen(s) < 64 && (s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
    for (const char *p = s; ok && *p; p++)
        ok = *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
    if (!ok)
        return "must be a C identifier (letters, digits, _; at most 63)";
    if (strcmp(path, "loop.var") != 0 && !kernelgen_name_ok(s))
        return "is a C/CUDA keyword, a type name or reserved (bs_...)";
    return NULL;
}

/* An integer in [lo, hi] at path; items that are not whole numbers are errors, and so are whole
 * numbers outside the range, however large (compared as doubles before any conversion). */
static bool get_int(loader *L, const cJSON *v, int64_t lo, int64_t hi, int64_t *out, const char *path)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble != floor(v->valuedouble))
        return fail_at(L, 0, "expected a whole number", "%s", path);
    if (v->valuedouble < (double)lo || v->valuedouble > (double)hi) {
        char msg[96];
        range_message(msg, sizeof msg, lo, hi);
        return fail_at(L, 0, msg, "%s", path);
    }
    *out = (int64_t)v->valuedouble;
    return true;
}

/* A string at path (copied); absent is fine when optional. */
static bool get_str(loader *L, const cJSON *obj, const char *key, bool optional, char **out, const char *path)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (optional)
            return true;
        char msg[64];
        snprintf(msg, sizeof msg, "missing key '%s'", key);
        return fail_at(L, 0, msg, "%s", path);
    }
    if (!cJSON_IsString(v))
        return fail_at(L, 0, "expected a string", "%s%s%s", path, *path ? "." : "", key);
    if (strlen(v->valuestring) > LOAD_MAX_STRING)
        return fail_at(L, 0, msg_long_string, "%s%s%s", path, *path ? "." : "", key);
    free(*out);
    *out = xstrdup(v->valuestring);
    return true;
}

/* An identifier-like name (used in generated CUDA code, so strictly checked). */
static bool check_ident(loader *L, const char *s, const char *path)
{
    const char *why = ident_problem(s, path);
    return why ? fail_at(L, 0, why, "%s", path) : true;
}

/* Parse "float x", "char tag[3]" into type, name and count. */
static bool parse_field_decl(loader *L, const char *decl, types_field *f, const char *path)
{
    char buf[160];
    snprintf(buf, sizeof buf, "%s", decl);
    char *end = buf + strlen(buf);
    while (end > buf && end[-1] == ' ')
        *--end = '\0';
    f->count = 1;
    char *br = strchr(buf, '[');
    if (br) {
        char *e;
        long n = strtol(br + 1, &e, 10);
        if (*e != ']' || e[1] != '\0' || n < 1 || n > 65536)
            return fail_at(L, 0, "array field must look like 'float v[4]'", "%s", path);
        f->count = (int)n;
        *br = '\0';
        end = br;
        while (end > buf && end[-1] == ' ')
            *--end = '\0';
    }
    char *sp = strrchr(buf, ' ');
    if (!sp)
        return fail_at(L, 0, "field must look like 'TYPE NAME'", "%s", path);
    *sp = '\0';
    f->name = xstrdup(sp + 1);
    f->type_name = xstrdup(buf);
    return check_ident(L, f->name, path);
}

/* The "structs" array: each struct's name, alignment and field declarations, resolved and laid
 * out. */
static bool load_structs(loader *L, const cJSON *arr, scenario *s)
{
    if (!cJSON_IsArray(arr))
        return fail_at(L, 0, "expected an array of structs", "structs");
    int n = cJSON_GetArraySize(arr);
    if (n > 256)
        return fail_at(L, 0, "at most 256 structs", "structs");
    s->types.structs = xcalloc((size_t)n, sizeof *s->types.structs);
    int i = 0;
    for (const cJSON *st = arr->child; st; st = st->next, i++) {
        char path[64];
        snprintf(path, sizeof path, "structs[%d]", i);
        s->types.n = i + 1;
        types_struct *ts = &s->types.structs[i];
        static const char *const keys[] = {"name", "fields", "align", NULL};
        if (!cJSON_IsObject(st))
            return fail_at(L, 0, "expected an object", "%s", path);
        if (!only_keys(L, st, keys, path) || !get_str(L, st, "name", false, &ts->name, path))
            return false;
        char npath[80];
        snprintf(npath, sizeof npath, "%s.name", path);
        if (!check_ident(L, ts->name, npath))
            return false;
        const cJSON *al = cJSON_GetObjectItemCaseSensitive(st, "align");
        int64_t a = 0;
        snprintf(npath, sizeof npath, "%s.align", path);
        if (al && !get_int(L, al, 1, 256, &a, npath))
            return false;
        ts->force_align = (int)a;
        const cJSON *fs = cJSON_GetObjectItemCaseSensitive(st, "fields");
        snprintf(npath, sizeof npath, "%s.fields", path);
        if (!cJSON_IsArray(fs) || cJSON_GetArraySize(fs) < 1 || cJSON_GetArraySize(fs) > 256)
            return fail_at(L, 0, "expected 1..256 fields", "%s", npath);
        ts->fields = xcalloc((size_t)cJSON_GetArraySize(fs), sizeof *ts->fields);
        int k = 0;
        for (const cJSON *f = fs->child; f; f = f->next, k++) {
            char fpath[112];
            snprintf(fpath, sizeof fpath, "%s[%d]", npath, k);
            ts->nfields = k + 1;
            types_field *tf = &ts->fields[k];
            if (cJSON_IsString(f)) {
                if (!parse_field_decl(L, f->valuestring, tf, fpath))
                    return false;
                continue;
            }
            static const char *const fkeys[] = {"name", "type", "count", NULL};
            if (!cJSON_IsObject(f))
                return fail_at(L, 0, "expected \"TYPE NAME\" or {\"name\", \"type\"}", "%s", fpath);
            if (!only_keys(L, f, fkeys, fpath) || !get_str(L, f, "name", false, &tf->name, fpath) ||
                !get_str(L, f, "type", false, &tf->type_name, fpath))
                return false;
            char cpath[128];
            snprintf(cpath, sizeof cpath, "%s.name", fpath);
            if (!check_ident(L, tf->name, cpath))
                return false;
            int64_t c = 1;
            const cJSON *cnt = cJSON_GetObjectItemCaseSensitive(f, "count");
            snprintf(cpath, sizeof cpath, "%s.count", fpath);
            if (cnt && !get_int(L, cnt, 1, 65536, &c, cpath))
                return false;
            tf->count = (int)c;
        }
        for (int a2 = 0; a2 < ts->nfields; a2++)
            for (int b = 0; b < a2; b++)
                if (strcmp(ts->fields[a2].name, ts->fields[b].name) == 0)
                    return fail_at(L, 0, "two fields have this name", "%s[%d]", npath, a2);
    }
    return true;
}

/* Dimensions or padding: a number or an array of up to 3 numbers. */
static int load_int_list(loader *L, const cJSON *v, int64_t lo, int64_t hi, int64_t out[3], const char *path)
{
    if (cJSON_IsNumber(v))
        return get_int(L, v, lo, hi, &out[0], path) ? 1 : -1;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 || cJSON_GetArraySize(v) > 3) {
        fail_at(L, 0, "expected a number or an array of 1 to 3 numbers", "%s", path);
        return -1;
    }
    int n = 0;
    for (const cJSON *c = v->child; c; c = c->next, n++) {
        char p[96];
        snprintf(p, sizeof p, "%s[%d]", path, n);
        if (!get_int(L, c, lo, hi, &out[n], p))
            return -1;
    }
    return n;
}

/* The "arrays" array: each array's name, type, dims, pad, base and swizzle. */
static bool load_arrays(loader *L, const cJSON *arr, scenario *s)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) < 1 || cJSON_GetArraySize(arr) > SCENARIO_MAX_ARRAYS)
        return fail_at(L, 0, "expected an array of 1..64 arrays", "arrays");
    s->arrays = xcalloc((size_t)cJSON_GetArraySize(arr), sizeof *s->arrays);
    int i = 0;
    for (const cJSON *a = arr->child; a; a = a->next, i++) {
        char path[64], p2[96];
        snprintf(path, sizeof path, "arrays[%d]", i);
        s->narrays = i + 1;
        scenario_array *sa = &s->arrays[i];
        sa->base = -1;
        static const char *const keys[] = {"name", "type", "dims", "pad", "base", "swizzle", NULL};
        if (!cJSON_IsObject(a))
            return fail_at(L, 0, "expected an object", "%s", path);
        if (!only_keys(L, a, keys, path) || !get_str(L, a, "name", false, &sa->name, path) ||
            !get_str(L, a, "type", false, &sa->type_name, path))
            return false;
        snprintf(p2, sizeof p2, "%s.name", path);
        if (!check_ident(L, sa->name, p2))
            return false;
        snprintf(p2, sizeof p2, "%s.dims", path);
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(a, "dims");
        if (!d)
            return fail_at(L, 0, "missing key 'dims'", "%s", path);
        sa->ndims = load_int_list(L, d, 1, LIMIT_DIM, sa->dims, p2);
        if (sa->ndims < 0)
            return false;
        const cJSON *pd = cJSON_GetObjectItemCaseSensitive(a, "pad");
        snprintf(p2, sizeof p2, "%s.pad", path);
        if (cJSON_IsNumber(pd)) {
            if (!get_int(L, pd, 0, LIMIT_PAD, &sa->pad[sa->ndims - 1], p2))
                return false;
        } else if (pd) {
            int64_t pads[3] = {0};
            int n = load_int_list(L, pd, 0, LIMIT_PAD, pads, p2);
            if (n < 0)
                return false;
            if (n != sa->ndims)
                return fail_at(L, 0, "give one padding per dimension, or one number for the last", "%s", p2);
            memcpy(sa->pad, pads, sizeof pads);
        }
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(a, "base");
        snprintf(p2, sizeof p2, "%s.base", path);
        if (b && !get_int(L, b, 0, LIMIT_BASE, &sa->base, p2))
            return false;
        if (!get_str(L, a, "swizzle", true, &sa->swizzle, path)) /* checked by scenario_finish */
            return false;
    }
    return true;
}

/* The op of an access or trace entry and, for the tensor-era kinds, its keys "matrices" (1, 2 or
 * 4; default 4), "trans" (default false), "atomic" (required for atomics) and "returns" (default
 * true): into r (op, matrices, trans, atomic, returns). */
static bool load_op(loader *L, const cJSON *o, const char *path, banks_request *r)
{
    char *op = NULL, *kind = NULL;
    bool ok = get_str(L, o, "op", false, &op, path);
    char msg[160];
    if (ok && !banks_op_parse(op, &r->op))
        ok = fail_at(L, 0, kinds_op_message(msg, sizeof msg), "%s.op", path);
    free(op);
    if (!ok)
        return false;
    const cJSON *form = cJSON_GetObjectItemCaseSensitive(o, "form"); /* atomic.popc is a kind of its own */
    if (form) {
        if (!cJSON_IsString(form) || !kinds_find_form("atomic", form->valuestring))
            return fail_at(L, 0, "form is \"popc\" (an add of 1 whose lanes on one word merge)", "%s.form", path);
        const kinds_row *k = kinds_find_form(banks_op_name(r->op), form->valuestring);
        if (!k)
            return fail_at(L, 0, "only atomics take this key", "%s.form", path);
        r->op = (banks_op)k->op;
    }
    const kinds_row *krow = kinds_of(r->op);
    bool matrix = kinds_takes_key(krow, "matrices");
    static const char *const tensor_keys[] = {"matrices", "trans", "atomic", "returns"};
    for (int k = 0; k < 4; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, tensor_keys[k]);
        bool fits = kinds_takes_key(krow, tensor_keys[k]);
        if (v && !fits)
            return fail_at(L, 0,
                           k < 2  ? "only ldmatrix and stmatrix take this key"
                           : form ? "the popc form adds 1 and returns nothing: it takes no atomic or returns"
                                  : "only atomics take this key",
                           "%s.%s", path, tensor_keys[k]);
        if (v && (k == 1 || k == 3) && !cJSON_IsBool(v))
            return fail_at(L, 0, "expected true or false", "%s.%s", path, tensor_keys[k]);
    }
    r->matrices = matrix ? 4 : 0;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "matrices");
    if (m) {
        int64_t n;
        char p2[112];
        snprintf(p2, sizeof p2, "%s.matrices", path);
        if (!get_int(L, m, 1, 4, &n, p2))
            return false;
        if (n == 3)
            return fail_at(L, 0, "matrices is 1, 2 or 4", "%s", p2);
        r->matrices = (int)n;
    }
    r->trans = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "trans"));
    r->returns = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o, "returns"));
    const cJSON *cache = cJSON_GetObjectItemCaseSensitive(o, "cache"); /* cp.async.cg is a kind of its own */
    if (cache) {
        if (!cJSON_IsString(cache) || !kinds_find_op("cp.async", cache->valuestring))
            return fail_at(L, 0, "cache is \"ca\" (through L1, the default) or \"cg\" (L1 bypassed)", "%s.cache", path);
        const kinds_row *k = kinds_find_op(banks_op_name(r->op), cache->valuestring);
        if (!k)
            return fail_at(L, 0, "only cp.async takes this key", "%s.cache", path);
        r->op = (banks_op)k->op;
    }
    if (!kinds_takes_key(krow, "atomic"))
        return true;
    if (!get_str(L, o, "atomic", false, &kind, path))
        return false;
    ok = banks_atomic_parse(kind, &r->atomic);
    free(kind);
    if (!ok)
        return fail_at(L, 0, "atomic is add, min, max, and, or, xor, exch, cas or inc", "%s.atomic", path);
    if (!r->returns && kinds_atomic(r->atomic)->returns_only)
        return fail_at(L, 0, "exch and cas return the old value: returns must be true", "%s.returns", path);
    return true;
}

static bool load_access_loop(loader *L, const cJSON *a, const char *path, scenario *s, scenario_access *sa);

/* The optional "location" of an access: { "file", "line", "column", "text" }, each optional. */
static bool load_location(loader *L, const cJSON *a, const char *path, scenario_srcloc *at)
{
    static const char *const keys[] = {"file", "line", "column", "text", NULL};
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(a, "location");
    char p2[96];
    snprintf(p2, sizeof p2, "%s.location", path);
    if (!o)
        return true;
    if (!cJSON_IsObject(o))
        return fail_at(L, 0, "expected an object", "%s", p2);
    if (!only_keys(L, o, keys, p2) || !get_str(L, o, "file", true, &at->file, p2) ||
        !get_str(L, o, "text", true, &at->text, p2))
        return false;
    int *const num[] = {&at->line, &at->column};
    for (int k = 0; k < 2; k++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, keys[1 + k]);
        char p3[112];
        snprintf(p3, sizeof p3, "%s.%s", p2, keys[1 + k]);
        int64_t n;
        if (v && !get_int(L, v, 1, INT32_MAX, &n, p3))
            return false;
        if (v)
            *num[k] = (int)n;
    }
    return true;
}

/* Access i of the "accesses" array: its known keys only, each checked where it stands. */
static bool load_access(loader *L, const cJSON *a, int i, scenario *s)
{
    char path[64], p2[96];
    snprintf(path, sizeof path, "accesses[%d]", i);
    scenario_access *sa = &s->accesses[i];
    static const char *const keys[] = {"op",       "array",    "index", "field",  "vector",  "when",
                                       "label",    "matrices", "trans", "atomic", "returns", "source",
                                       "location", "cache",    "form",  "loop",   NULL};
    if (!cJSON_IsObject(a))
        return fail_at(L, 0, "expected an object", "%s", path);
    banks_request kind = {0};
    bool ok = only_keys(L, a, keys, path) && load_op(L, a, path, &kind);
    sa->op = kind.op;
    sa->matrices = kind.matrices;
    sa->trans = kind.trans;
    sa->atomic = kind.atomic;
    sa->returns = kind.returns;
    if (!ok || !get_str(L, a, "array", false, &sa->array_name, path) ||
        !get_str(L, a, "field", true, &sa->field, path) || !get_str(L, a, "vector", true, &sa->vector, path) ||
        !get_str(L, a, "when", true, &sa->when_text, path) || !get_str(L, a, "label", true, &sa->label, path) ||
        !get_str(L, a, "source", true, &sa->source, path) || !load_location(L, a, path, &sa->at) ||
        !load_access_loop(L, a, path, s, sa))
        return false;
    const cJSON *ix = cJSON_GetObjectItemCaseSensitive(a, "index");
    snprintf(p2, sizeof p2, "%s.index", path);
    if (cJSON_IsString(ix)) {
        sa->nidx = 1;
        sa->index_text[0] = xstrdup(ix->valuestring);
        return true;
    }
    if (!cJSON_IsArray(ix) || cJSON_GetArraySize(ix) < 1 || cJSON_GetArraySize(ix) > 3)
        return fail_at(L, 0, "expected an index expression or an array of 1 to 3", "%s", ix ? p2 : path);
    for (const cJSON *c = ix->child; c; c = c->next) {
        if (!cJSON_IsString(c)) /* the parser bounds the length, at the character that passes it */
            return fail_at(L, 0, "expected an expression string", "%s[%d]", p2, sa->nidx);
        sa->index_text[sa->nidx++] = xstrdup(c->valuestring);
    }
    return true;
}

/* One loop object at path ("loop", or "loops[k]" with "in" naming its parent) into s->loops[k]. */
static bool load_loop(loader *L, const cJSON *lp, scenario *s, int k, const char *path)
{
    static const char *const keys[] = {"var", "from", "to", "step", "mul", "div", "in", NULL};
    static const char *const keys1[] = {"var", "from", "to", "step", "mul", "div", NULL};
    scenario_loop *sl = &s->loops[k];
    char p2[48];
    sl->parent = -1;
    if (!cJSON_IsObject(lp))
        return fail_at(L, 0, "expected an object", "%s", path);
    snprintf(p2, sizeof p2, "%s.var", path);
    if (!only_keys(L, lp, s->nested ? keys : keys1, path) || !get_str(L, lp, "var", false, &sl->var, path) ||
        !check_ident(L, sl->var, p2))
        return false;
    const int64_t big = loop_big;
    const cJSON *from = cJSON_GetObjectItemCaseSensitive(lp, "from");
    const cJSON *to = cJSON_GetObjectItemCaseSensitive(lp, "to");
    if (!from || !to)
        return fail_at(L, 0, "a loop needs 'from' and 'to'", "%s", path);
    char pf[48], pt[48];
    snprintf(pf, sizeof pf, "%s.from", path);
    snprintf(pt, sizeof pt, "%s.to", path);
    if (!get_int(L, from, -big, big, &sl->from, pf) || !get_int(L, to, -big, big, &sl->to, pt))
        return false;
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(lp, "in");
    if (in) {
        for (int j = 0; j < k && cJSON_IsString(in); j++)
            if (!strcmp(s->loops[j].var, in->valuestring))
                sl->parent = j;
        if (sl->parent < 0)
            return fail_at(L, 0, "'in' names the variable of a loop listed before this one", "%s.in", path);
    }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(lp, "step");
    const cJSON *mul = cJSON_GetObjectItemCaseSensitive(lp, "mul");
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(lp, "div");
    if (!!st + !!mul + !!dv > 1)
        return fail_at(L, 0, "give one of 'step', 'mul', 'div'", "%s", path);
    sl->step = 1;
    sl->kind = mul ? SCENARIO_LOOP_MUL : dv ? SCENARIO_LOOP_DIV : SCENARIO_LOOP_ADD;
    char ps[48];
    snprintf(ps, sizeof ps, "%s.%s", path, st ? "step" : mul ? "mul" : "div");
    if (st)
        return get_int(L, st, -big, big, &sl->step, ps);
    if (mul || dv)
        return get_int(L, mul ? mul : dv, 2, LIMIT_FACTOR, &sl->step, ps);
    return true;
}

/* The loops: version 1's single "loop" (around every access), or version 2's "loops" nest. */
static bool load_loops(loader *L, const cJSON *root, scenario *s)
{
    const cJSON *lp = cJSON_GetObjectItemCaseSensitive(root, "loop");
    const cJSON *ls = cJSON_GetObjectItemCaseSensitive(root, "loops");
    if (lp && ls)
        return fail_at(L, 0, "give 'loop' (one loop) or 'loops' (a nest), not both", "loops");
    if (lp) {
        s->nloops = 1;
        return load_loop(L, lp, s, 0, "loop");
    }
    if (!ls)
        return true;
    s->nested = true;
    if (!cJSON_IsArray(ls) || cJSON_GetArraySize(ls) > SCENARIO_MAX_LOOPS)
        return fail_at(L, 0, "expected an array of at most 8 loops", "loops");
    int k = 0;
    for (const cJSON *c = ls->child; c; c = c->next, k++) {
        char path[24];
        snprintf(path, sizeof path, "loops[%d]", k);
        s->nloops = k + 1;
        if (!load_loop(L, c, s, k, path))
            return false;
    }
    return true;
}

/* An access's "loop" (version 2): the variable of the innermost loop around it; absent: none. */
static bool load_access_loop(loader *L, const cJSON *a, const char *path, scenario *s, scenario_access *sa)
{
    sa->loop = s->nested ? -1 : 0;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(a, "loop");
    if (!v)
        return true;
    if (!s->nested)
        return fail_at(L, 0, "an access names its loop in a scenario with 'loops'", "%s.loop", path);
    for (int k = 0; k < s->nloops && cJSON_IsString(v); k++)
        if (!strcmp(s->loops[k].var, v->valuestring))
            sa->loop = k;
    if (sa->loop < 0)
        return fail_at(L, 0, "expected the variable of one of the 'loops'", "%s.loop", path);
    return true;
}

/* Read the members of the top-level object into s. */
static bool load_root(loader *L, const cJSON *root, scenario *s)
{
    static const char *const keys[] = {"name",  "description", "arch",     "block", "structs", "arrays", "loop",
                                       "loops", "version",     "accesses", "warps", "trace",   NULL};
    if (!cJSON_IsObject(root))
        return fail_at(L, 0, "expected a JSON object", "%s", "");
    if (cJSON_GetObjectItemCaseSensitive(root, "lesson"))
        return fail_at(L, 0, "this is a lesson (a list of scenarios): open it with 'bankscope FILE'", "%s", "");
    if (!only_keys(L, root, keys, "") || !get_str(L, root, "name", true, &s->name, "") ||
        !get_str(L, root, "description", true, &s->description, ""))
        return false;
    char *arch = NULL;
    if (!get_str(L, root, "arch", true, &arch, ""))
        return false;
    if (arch) {
        s->arch = banks_profile_find(arch);
        free(arch);
        if (!s->arch) {
            char names[256], msg[300];
            banks_profile_names(names, sizeof names);
            snprintf(msg, sizeof msg, "unknown architecture (%s)", names);
            return fail_at(L, 0, msg, "arch");
        }
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "trace")) { /* traces are read by trace_stream */
        static const char *const tkeys[] = {"name", "description", "arch", "trace", NULL};
        return only_keys(L, root, tkeys, "") && fail_at(L, 0, "unexpected trace", "%s", "trace");
    }
    const cJSON *bl = cJSON_GetObjectItemCaseSensitive(root, "block");
    if (bl) {
        int64_t b[3] = {1, 1, 1};
        if (load_int_list(L, bl, 1, LIMIT_BLOCK, b, "block") < 0)
            return false;
        for (int d = 0; d < 3; d++)
            s->block[d] = (int)b[d];
    }
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "structs");
    if (st && !load_structs(L, st, s))
        return false;
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
    int64_t version = 1;
    if (ver && !get_int(L, ver, 1, 2, &version, "version"))
        return false;
    if (!load_loops(L, root, s))
        return false;
    const cJSON *ar = cJSON_GetObjectItemCaseSensitive(root, "arrays");
    if (!ar)
        return fail_at(L, 0, "missing key 'arrays' (or 'trace')", "%s", "");
    if (!load_arrays(L, ar, s))
        return false;
    const cJSON *ac = cJSON_GetObjectItemCaseSensitive(root, "accesses");
    if (!ac)
        return fail_at(L, 0, "missing key 'accesses'", "%s", "");
    if (!cJSON_IsArray(ac) || cJSON_GetArraySize(ac) < 1 || cJSON_GetArraySize(ac) > SCENARIO_MAX_ACCESSES)
        return fail_at(L, 0, "expected an array of 1..256 accesses", "accesses");
    s->accesses = xcalloc((size_t)cJSON_GetArraySize(ac), sizeof *s->accesses);
    int i = 0;
    for (const cJSON *a = ac->child; a; a = a->next, i++) {
        s->naccesses = i + 1;
        if (!load_access(L, a, i, s))
            return false;
    }
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(root, "warps");
    if (w) {
        if (!cJSON_IsArray(w) || cJSON_GetArraySize(w) < 1 || cJSON_GetArraySize(w) > 32)
            return fail_at(L, 0, "expected an array of 1..32 warp numbers", "warps");
        s->warps = xcalloc(32, sizeof *s->warps);
        for (const cJSON *c = w->child; c; c = c->next) {
            char p[32];
            snprintf(p, sizeof p, "warps[%d]", s->nwarps);
            int64_t v;
            if (!get_int(L, c, 0, 31, &v, p))
                return false;
            s->warps[s->nwarps++] = (int)v;
        }
    }
    return true;
}

/* ---- the same limits on a scenario in memory ---- */

typedef struct limits {
    scenario_error *se;
} limits;

static bool limit_fail(limits *c, const char *msg, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Report msg at the printf-formatted path (as the loader names it); always false. */
static bool limit_fail(limits *c, const char *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->se->path, sizeof c->se->path, fmt, ap);
    va_end(ap);
    snprintf(c->se->msg, sizeof c->se->msg, "%s", msg);
    c->se->expr_pos = -1;
    return false;
}

/* An optional string at path.key: at most LOAD_MAX_STRING bytes. */
static bool limit_str(limits *c, const char *v, const char *path, const char *key)
{
    return !v || strlen(v) <= LOAD_MAX_STRING || limit_fail(c, msg_long_string, "%s%s%s", path, *path ? "." : "", key);
}

static bool limit_int(limits *c, int64_t v, int64_t lo, int64_t hi, const char *path)
{
    char msg[96];
    if (v >= lo && v <= hi)
        return true;
    range_message(msg, sizeof msg, lo, hi);
    return limit_fail(c, msg, "%s", path);
}

static bool limit_ident(limits *c, const char *v, const char *path)
{
    const char *why = ident_problem(v, path);
    return !why || limit_fail(c, why, "%s", path);
}

/* The structs within the file format's limits (count, names, alignment, fields). */
static bool limit_structs(limits *c, const scenario *s)
{
    if (s->types.n > 256)
        return limit_fail(c, "at most 256 structs", "structs");
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        char path[64], p2[96];
        snprintf(path, sizeof path, "structs[%d]", i);
        snprintf(p2, sizeof p2, "%s.name", path);
        if (!limit_str(c, st->name, path, "name") || !limit_ident(c, st->name, p2))
            return false;
        snprintf(p2, sizeof p2, "%s.align", path);
        if (st->force_align && !limit_int(c, st->force_align, 1, 256, p2))
            return false;
        if (st->nfields < 1 || st->nfields > 256)
            return limit_fail(c, "expected 1..256 fields", "%s.fields", path);
        for (int f = 0; f < st->nfields; f++) { /* written as "TYPE NAME[COUNT]" */
            snprintf(p2, sizeof p2, "%s.fields[%d]", path, f);
            if (st->fields[f].count < 1 || st->fields[f].count > 65536)
                return limit_fail(c, "array field must look like 'float v[4]'", "%s", p2);
            if (!limit_ident(c, st->fields[f].name, p2))
                return false;
        }
    }
    return true;
}

/* The loops within the file format's limits (names, bounds, steps), named by their paths in the
 * file. */
static bool limit_loops(limits *c, const scenario *s)
{
    static const char *const step_key[] = {"step", "mul", "div"};
    bool nest = scenario_is_nest(s); /* written as "loops": the paths the loader names */
    for (int k = 0; k < s->nloops; k++) {
        const scenario_loop *L = &s->loops[k];
        char path[24], p2[48];
        if (nest)
            snprintf(path, sizeof path, "loops[%d]", k);
        else
            snprintf(path, sizeof path, "loop");
        snprintf(p2, sizeof p2, "%s.var", path);
        if (!limit_str(c, L->var, path, "var") || !limit_ident(c, L->var, p2))
            return false;
        snprintf(p2, sizeof p2, "%s.from", path);
        if (!limit_int(c, L->from, -loop_big, loop_big, p2))
            return false;
        snprintf(p2, sizeof p2, "%s.to", path);
        if (!limit_int(c, L->to, -loop_big, loop_big, p2))
            return false;
        snprintf(p2, sizeof p2, "%s.%s", path, step_key[L->kind]);
        if (L->kind == SCENARIO_LOOP_ADD ? !limit_int(c, L->step, -loop_big, loop_big, p2)
                                         : !limit_int(c, L->step, 2, LIMIT_FACTOR, p2))
            return false;
    }
    return true;
}

/* The arrays within the file format's limits (count, names, types, dims, pads). */
static bool limit_arrays(limits *c, const scenario *s)
{
    if (s->narrays < 1 || s->narrays > SCENARIO_MAX_ARRAYS)
        return limit_fail(c, "expected an array of 1..64 arrays", "arrays");
    for (int i = 0; i < s->narrays; i++) {
        const scenario_array *a = &s->arrays[i];
        char path[64], p2[96];
        snprintf(path, sizeof path, "arrays[%d]", i);
        snprintf(p2, sizeof p2, "%s.name", path);
        if (!limit_str(c, a->name, path, "name") || !limit_str(c, a->type_name, path, "type") ||
            !limit_ident(c, a->name, p2))
            return false;
        for (int d = 0; d < a->ndims; d++) {
            snprintf(p2, sizeof p2, "%s.dims[%d]", path, d);
            if (!limit_int(c, a->dims[d], 1, LIMIT_DIM, p2))
                return false;
        }
        for (int d = 0; d < a->ndims; d++) {
            snprintf(p2, sizeof p2, "%s.pad[%d]", path, d);
            if (!limit_int(c, a->pad[d], 0, LIMIT_PAD, p2))
                return false;
        }
        snprintf(p2, sizeof p2, "%s.base", path);
        if ((a->base >= 0 && !limit_int(c, a->base, 0, LIMIT_BASE, p2)) || !limit_str(c, a->swizzle, path, "swizzle"))
            return false;
    }
    return true;
}

/* The accesses within the file format's limits (count and the lengths of their texts). */
static bool limit_accesses(limits *c, const scenario *s)
{
    if (s->naccesses < 1 || s->naccesses > SCENARIO_MAX_ACCESSES)
        return limit_fail(c, "expected an array of 1..256 accesses", "accesses");
    for (int i = 0; i < s->naccesses; i++) {
        const scenario_access *a = &s->accesses[i];
        char path[64], p2[96];
        snprintf(path, sizeof path, "accesses[%d]", i);
        snprintf(p2, sizeof p2, "%s.location", path);
        if (!limit_str(c, a->array_name, path, "array") || !limit_str(c, a->field, path, "field") ||
            !limit_str(c, a->vector, path, "vector") || !limit_str(c, a->when_text, path, "when") ||
            !limit_str(c, a->label, path, "label") || !limit_str(c, a->source, path, "source") ||
            !limit_str(c, a->at.file, p2, "file") || !limit_str(c, a->at.text, p2, "text"))
            return false;
    }
    return true;
}

bool load_check_limits(const scenario *s, scenario_error *se)
{
    limits c = {.se = se};
    if (s->is_trace)
        return true;
    if (!limit_str(&c, s->name, "", "name") || !limit_str(&c, s->description, "", "description"))
        return false;
    for (int d = 0; d < 3; d++) {
        char p[24];
        snprintf(p, sizeof p, "block[%d]", d);
        if (!limit_int(&c, s->block[d], 1, LIMIT_BLOCK, p))
            return false;
    }
    if (!limit_structs(&c, s) || !limit_loops(&c, s) || !limit_arrays(&c, s) || !limit_accesses(&c, s))
        return false;
    if (s->warps && (s->nwarps < 1 || s->nwarps > 32))
        return limit_fail(&c, "expected an array of 1..32 warp numbers", "warps");
    for (int k = 0; s->warps && k < s->nwarps; k++) {
        char p[32];
        snprintf(p, sizeof p, "warps[%d]", k);
        if (!limit_int(&c, s->warps[k], 0, 31, p))
            return false;
    }
    return true;
}

/* The evaluation check within LOAD_EVAL_CHECK_LANE_OPS (scenario_check_eval_run). */
bool load_check_eval(const scenario *s, scenario_error *se)
{
    return scenario_check_eval(s, LOAD_EVAL_CHECK_LANE_OPS, se);
}

scenario_check load_check_eval_job(const scenario *s, const atomic_int *cancel, scenario_error *se)
{
    return scenario_check_eval_run(s, LOAD_EVAL_CHECK_LANE_OPS, cancel, se);
}

/* Read every instruction of an open trace into out (a trace kept in memory: at most
 * LOAD_MAX_TRACE instructions), and the recording the stream kept into *rec (rec not NULL);
 * closes t. */
static bool load_trace_all(trace_stream *t, scenario *out, recording_doc **rec, io_error *err)
{
    trace_stream_limit(t, LOAD_MAX_TRACE);
    int cap = 0, rc;
    banks_request r;
    while ((rc = trace_stream_next(t, &r, err)) > 0) {
        if (out->ntrace == cap) {
            cap = cap ? 2 * cap : 256;
            out->trace = xrealloc(out->trace, (size_t)cap * sizeof *out->trace);
            if (out->trace_at) {
                out->trace_at = xrealloc(out->trace_at, (size_t)cap * sizeof *out->trace_at);
                memset(out->trace_at + out->ntrace, 0, (size_t)(cap - out->ntrace) * sizeof *out->trace_at);
            }
        }
        const scenario_srcloc *at = trace_stream_location(t);
        if (at && !out->trace_at) /* a recording: a location per entry from here on */
            out->trace_at = xcalloc((size_t)cap, sizeof *out->trace_at);
        if (at)
            scenario_srcloc_copy(at, &out->trace_at[out->ntrace]);
        out->trace[out->ntrace++] = r;
    }
    scenario *h = trace_stream_header(t);
    out->name = h->name;
    out->description = h->description;
    h->name = h->description = NULL;
    out->arch = h->arch;
    out->is_trace = true;
    out->recording = h->recording;
    if (rec && rc == 0) {
        recording r;
        io_error re;
        int got = trace_stream_take_recording(t, &r, &re);
        *rec = got != 0 ? recording_doc_new(got, &r, &re) : NULL;
    }
    trace_stream_close(t);
    scenario_error se;
    if (rc == 0 && !scenario_finish(out, &se)) {
        snprintf(err->text, sizeof err->text, "%.200s", se.msg);
        rc = -1;
    }
    if (rc < 0) {
        scenario_free(out);
        scenario_init(out);
        if (rec) {
            recording_doc_drop(*rec);
            *rec = NULL;
        }
    }
    return rc == 0;
}

/* The message for a file too large to be a scenario. */
static bool too_large(const char *name, io_error *err)
{
    snprintf(err->text, sizeof err->text,
             "%s: larger than %d MiB, which only a trace may be (a trace's members: name, description, arch, "
             "then trace)",
             name, LOAD_MAX_SCENARIO_BYTES >> 20);
    return false;
}

bool load_scenario_text(const char *text, size_t len, const char *name, const char *arch, scenario *out, io_error *err)
{
    scenario_init(out);
    trace_stream *ts;
    trace_stream_status st = trace_stream_open(NULL, text, len, name, arch, &ts, err);
    if (st == TRACE_STREAM_ERROR)
        return false;
    if (st == TRACE_STREAM_OK)
        return load_trace_all(ts, out, NULL, err);
    if (len > LOAD_MAX_SCENARIO_BYTES)
        return too_large(name, err);
    jsontree tree;
    jsontree_error je;
    if (!jsontree_parse(text, len, &tree, &je)) {
        snprintf(err->text, sizeof err->text, "%s:%d:%d: %s", name, je.line, je.col, je.msg);
        return false;
    }
    loader L = {.tree = &tree, .name = name, .err = err};
    const cJSON *root = tree.root;
    bool ok = load_root(&L, root, out);
    if (ok && arch) {
        out->arch = banks_profile_find(arch);
        if (!out->arch) {
            snprintf(err->text, sizeof err->text, "%s: unknown architecture '%s'", name, arch);
            ok = false;
        }
    }
    if (ok) {
        scenario_error se;
        if (!scenario_finish(out, &se) || !load_check_eval(out, &se)) {
            L.failed = false;
            if (se.expr_pos >= 0)
                fail_at(&L, 1 + se.expr_pos, se.msg, "%s", se.path);
            else
                fail_at(&L, 0, se.msg, "%s", se.path);
            ok = false;
        }
    }
    jsontree_free(&tree);
    if (!ok) {
        scenario_free(out);
        scenario_init(out);
    }
    return ok;
}

static atomic_long opens; /* load_fopen's count (job threads load too) */

FILE *load_fopen(const char *path)
{
    atomic_fetch_add(&opens, 1);
    return fopen(path, "rb");
}

long load_opens(void)
{
    return atomic_load(&opens);
}

char *load_read_file(const char *path, size_t *len, io_error *err)
{
    bool std = strcmp(path, "-") == 0; /* standard input, as GNU tools read "-" */
    FILE *f = std ? stdin : load_fopen(path);
    if (!f) {
        snprintf(err->text, sizeof err->text, "%s: %s", path, strerror(errno));
        return NULL;
    }
    strbuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        strbuf_add(&sb, buf, n);
        if (sb.len > LOAD_MAX_BYTES) {
            if (!std)
                fclose(f);
            strbuf_free(&sb);
            snprintf(err->text, sizeof err->text, "%s: file larger than 256 MiB", path);
            return NULL;
        }
    }
    bool bad = ferror(f);
    int why = errno; /* fread's reason (a directory: EISDIR), before fclose can change it */
    if (!std)
        fclose(f);
    if (bad) {
        strbuf_free(&sb);
        snprintf(err->text, sizeof err->text, "%s: %s", path, strerror(why));
        return NULL;
    }
    *len = sb.len;
    return strbuf_take(&sb);
}

const char *load_source_text(const char *source, size_t *len, bool *owned, io_error *err)
{
    FILE *probe = strcmp(source, "-") == 0 ? NULL : load_fopen(source);
    *owned = probe != NULL || strcmp(source, "-") == 0;
    if (*owned) {
        if (probe)
            fclose(probe);
        return load_read_file(source, len, err);
    }
    const library_entry *e = library_entry_find(source);
    if (e && !e->text) { /* a file of the installed or user folder, read now */
        *owned = true;
        return load_read_file(e->path, len, err);
    }
    if (!e)
        return load_read_file(source, len, err); /* for its message */
    *len = e->len;
    return e->text;
}

int load_trace_file(const char *path, const char *arch, scenario *out, recording_doc **rec, io_error *err)
{
    struct stat sb;
    scenario_init(out);
    if (rec)
        *rec = NULL;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return 0;
    trace_stream *ts;
    trace_stream_status st =
        trace_stream_open_keep(path, NULL, 0, path, arch, rec ? TRACE_KEEP_RECORDING : TRACE_KEEP_LOCATIONS, &ts, err);
    if (st == TRACE_STREAM_ERROR)
        return -1;
    if (st != TRACE_STREAM_OK)
        return 0;
    return load_trace_all(ts, out, rec, err) ? 1 : -1;
}

bool load_scenario_file_doc(const char *path, const char *arch, scenario *out, recording_doc **rec, io_error *err)
{
    struct stat sb;
    int t = load_trace_file(path, arch, out, rec, err); /* a trace streams from its file */
    if (t != 0)
        return t > 0;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > LOAD_MAX_SCENARIO_BYTES)
        return too_large(path, err);
    size_t len = 0;
    bool owned;
    const char *text = load_source_text(path, &len, &owned, err);
    if (!text) {
        scenario_init(out);
        return false;
    }
    bool ok = load_scenario_text(text, len, path, arch, out, err);
    if (owned)
        free((char *)text);
    return ok;
}

bool load_scenario_file(const char *path, const char *arch, scenario *out, io_error *err)
{
    return load_scenario_file_doc(path, arch, out, NULL, err);
}
