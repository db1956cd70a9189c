/* save: scenario -> JSON and clone (the careful file writing is in save_file.c). Every key written
 * here is compared by model/scenario_same.c, which decides the "modified" mark without writing. */
#include "save.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "io/jsonw.h"
#include "model/kinds.h"

/* The keys that go with an instruction's kind, after its "op": "matrices" and "trans" for
 * ldmatrix/stmatrix, "atomic" and "returns" for atomics, and the key a kind is spelled with
 * beside its op ("cp.async" + "cache": "cg", "atomic" + "form": "popc"); from the table of kinds. */
static void save_kind(jsonw *w, const banks_request *r)
{
    const kinds_row *k = kinds_of(r->op);
    if (!k)
        return;
    if (kinds_takes_key(k, "matrices")) {
        JSONW_KV_INT(w, "matrices", r->matrices);
        JSONW_KV_BOOL(w, "trans", r->trans);
    }
    if (kinds_takes_key(k, "atomic")) {
        JSONW_KV_STRING(w, "atomic", banks_atomic_name(r->atomic));
        JSONW_KV_BOOL(w, "returns", r->returns);
    }
    const char *sel = NULL, *key = kinds_select_key(k, &sel);
    if (key)
        jsonw_kv_string(w, key, sel);
}

static void int_list(jsonw *w, const char *key, const int64_t *v, int n)
{
    jsonw_key(w, key);
    jsonw_begin_array(w, JSONW_INLINE);
    for (int i = 0; i < n; i++)
        jsonw_int(w, v[i]);
    jsonw_end_array(w);
}

/* The struct declarations, each field as one declaration text. */
static void save_structs(const scenario *s, jsonw *w)
{
    JSONW_KEY(w, "structs");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        jsonw_begin_object(w, JSONW_SPACED);
        JSONW_KV_STRING(w, "name", st->name);
        if (st->force_align)
            JSONW_KV_INT(w, "align", st->force_align);
        JSONW_KEY(w, "fields");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int f = 0; f < st->nfields; f++) {
            char decl[160];
            types_field_decl(&st->fields[f], decl, sizeof decl);
            jsonw_string(w, decl);
        }
        jsonw_end_array(w);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

/* A trace's entries: kind, width, and the address of each lane (null for an inactive one). */
static void save_trace(const scenario *s, jsonw *w)
{
    JSONW_KEY(w, "trace");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < s->ntrace; i++) {
        const banks_request *r = &s->trace[i];
        jsonw_begin_object(w, JSONW_SPACED);
        JSONW_KV_STRING(w, "op", scenario_op_text(r->op));
        save_kind(w, r);
        JSONW_KV_INT(w, "width", r->width);
        JSONW_KEY(w, "addresses");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int l = 0; l < BANKS_WARP; l++) {
            if ((r->active >> l) & 1)
                jsonw_int(w, r->addr[l]);
            else
                jsonw_null(w);
        }
        jsonw_end_array(w);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

/* An access's "location" object (the known fields only); nothing when nothing is known. */
static void save_location(jsonw *w, const scenario_srcloc *at)
{
    if (!scenario_srcloc_known(at))
        return;
    JSONW_KEY(w, "location");
    jsonw_begin_object(w, JSONW_SPACED);
    if (at->file)
        JSONW_KV_STRING(w, "file", at->file);
    if (at->line > 0)
        JSONW_KV_INT(w, "line", at->line);
    if (at->column > 0)
        JSONW_KV_INT(w, "column", at->column);
    if (at->text)
        JSONW_KV_STRING(w, "text", at->text);
    jsonw_end_object(w);
}

/* The arrays: name, type, dims and pad, and base and swizzle when set. */
static void save_arrays(const scenario *s, jsonw *w)
{
    JSONW_KEY(w, "arrays");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < s->narrays; i++) {
        const scenario_array *a = &s->arrays[i];
        jsonw_begin_object(w, JSONW_SPACED);
        JSONW_KV_STRING(w, "name", a->name);
        JSONW_KV_STRING(w, "type", a->type_name);
        int_list(w, "dims", a->dims, a->ndims);
        int_list(w, "pad", a->pad, a->ndims);
        if (a->base >= 0)
            JSONW_KV_INT(w, "base", a->base);
        if (a->swizzle)
            JSONW_KV_STRING(w, "swizzle", a->swizzle);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

/* One loop ("loop" of version 1, or a member of version 2's "loops"). */
static void save_loop(const scenario *s, const scenario_loop *L, jsonw *w)
{
    static const char *const kind[] = {"step", "mul", "div"};
    jsonw_begin_object(w, JSONW_SPACED);
    JSONW_KV_STRING(w, "var", L->var);
    JSONW_KV_INT(w, "from", L->from);
    JSONW_KV_INT(w, "to", L->to);
    jsonw_kv_int(w, kind[L->kind], L->step);
    if (L->parent >= 0)
        JSONW_KV_STRING(w, "in", s->loops[L->parent].var);
    jsonw_end_object(w);
}

/* One access: its kind, array and index, the optional keys it has, its location and (in a nest)
 * the loop it is in. */
static void save_access(const scenario *s, const scenario_access *a, bool nested, jsonw *w)
{
    jsonw_begin_object(w, JSONW_SPACED);
    JSONW_KV_STRING(w, "op", scenario_op_text(a->op));
    banks_request kind = scenario_access_kind(a);
    save_kind(w, &kind);
    JSONW_KV_STRING(w, "array", a->array_name);
    JSONW_KEY(w, "index");
    jsonw_begin_array(w, JSONW_INLINE);
    for (int d = 0; d < a->nidx; d++)
        jsonw_string(w, a->index_text[d]);
    jsonw_end_array(w);
    const char *opt[] = {"field",      a->field, "vector", a->vector, "when",
                         a->when_text, "label",  a->label, "source",  a->source};
    for (int k = 0; k < 10; k += 2)
        if (opt[k + 1])
            jsonw_kv_string(w, opt[k], opt[k + 1]);
    save_location(w, &a->at);
    if (nested && a->loop >= 0 && a->loop < s->nloops)
        JSONW_KV_STRING(w, "loop", s->loops[a->loop].var);
    jsonw_end_object(w);
}

/* The document, through the JSON printer. */
static void save_doc(const scenario *s, jsonw *w)
{
    jsonw_begin_object(w, JSONW_LINES);
    bool nested = !s->is_trace && scenario_is_nest(s);
    if (nested)
        JSONW_KV_INT(w, "version", 2); /* without it: version 1 (one loop around every access) */
    if (s->name)
        JSONW_KV_STRING(w, "name", s->name);
    if (s->description)
        JSONW_KV_STRING(w, "description", s->description);
    JSONW_KV_STRING(w, "arch", s->arch->name);
    if (s->is_trace) {
        save_trace(s, w);
        jsonw_end_object(w);
        return;
    }
    JSONW_KEY(w, "block");
    jsonw_begin_array(w, JSONW_INLINE);
    for (int d = 0; d < 3; d++)
        jsonw_int(w, s->block[d]);
    jsonw_end_array(w);
    if (s->types.n)
        save_structs(s, w);
    save_arrays(s, w);
    if (!nested && s->nloops) {
        JSONW_KEY(w, "loop");
        save_loop(s, &s->loops[0], w);
    } else if (nested) {
        JSONW_KEY(w, "loops");
        jsonw_begin_array(w, JSONW_LINES);
        for (int k = 0; k < s->nloops; k++)
            save_loop(s, &s->loops[k], w);
        jsonw_end_array(w);
    }
    JSONW_KEY(w, "accesses");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < s->naccesses; i++)
        save_access(s, &s->accesses[i], nested, w);
    jsonw_end_array(w);
    if (s->warps) {
        JSONW_KEY(w, "warps");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int k = 0; k < s->nwarps; k++)
            jsonw_int(w, s->warps[k]);
        jsonw_end_array(w);
    }
    jsonw_end_object(w);
}

void save_scenario_json(const scenario *s, strbuf *o)
{
    jsonw *w = xmalloc(sizeof *w); /* its buffer is 64 KiB: not on the stack of a worker thread */
    jsonw_init_string(w, o);
    save_doc(s, w);
    jsonw_finish(w, NULL);
    free(w);
}

bool save_clone(const scenario *src, scenario *dst)
{
    strbuf sb = {0};
    save_scenario_json(src, &sb);
    io_error err;
    bool ok = load_scenario_text(strbuf_str(&sb), sb.len, "(copy)", NULL, dst, &err);
    strbuf_free(&sb);
    return ok;
}
