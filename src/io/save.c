/* save: scenario -> JSON and clone (the careful file writing is in save_file.c). */
#include "save.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "io/report.h"

static void key_str(strbuf *o, const char *indent, const char *key, const char *val, bool comma)
{
    strbuf_addf(o, "%s\"%s\": ", indent, key);
    report_json_string(o, val);
    strbuf_addf(o, "%s", comma ? ",\n" : "\n");
}

static void int_list(strbuf *o, const int64_t *v, int n)
{
    strbuf_addc(o, '[');
    for (int i = 0; i < n; i++)
        strbuf_addf(o, "%s%lld", i ? ", " : "", (long long)v[i]);
    strbuf_addc(o, ']');
}

static void save_structs(const scenario *s, strbuf *o)
{
    strbuf_addf(o, "  \"structs\": [\n");
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        strbuf_addf(o, "    { \"name\": ");
        report_json_string(o, st->name);
        if (st->force_align)
            strbuf_addf(o, ", \"align\": %d", st->force_align);
        strbuf_addf(o, ", \"fields\": [");
        for (int f = 0; f < st->nfields; f++) {
            char decl[160];
            if (st->fields[f].count > 1)
                snprintf(decl, sizeof decl, "%s %s[%d]", st->fields[f].type_name, st->fields[f].name,
                         st->fields[f].count);
            else
                snprintf(decl, sizeof decl, "%s %s", st->fields[f].type_name, st->fields[f].name);
            strbuf_addf(o, "%s", f ? ", " : "");
            report_json_string(o, decl);
        }
        strbuf_addf(o, "] }%s\n", i + 1 < s->types.n ? "," : "");
    }
    strbuf_addf(o, "  ],\n");
}

static void save_trace(const scenario *s, strbuf *o)
{
    strbuf_addf(o, "  \"trace\": [\n");
    for (int i = 0; i < s->ntrace; i++) {
        const banks_request *r = &s->trace[i];
        strbuf_addf(o, "    { \"op\": \"%s\"", scenario_op_text(r->op));
        scenario_kind_json(r, o);
        strbuf_addf(o, ", \"width\": %d, \"addresses\": [", r->width);
        for (int l = 0; l < BANKS_WARP; l++) {
            if ((r->active >> l) & 1)
                strbuf_addf(o, "%s%lld", l ? ", " : "", (long long)r->addr[l]);
            else
                strbuf_addf(o, "%snull", l ? ", " : "");
        }
        strbuf_addf(o, "] }%s\n", i + 1 < s->ntrace ? "," : "");
    }
    strbuf_addf(o, "  ]\n}\n");
}

/* An access's "location" object (the known fields only); nothing when nothing is known. */
static void save_location(strbuf *o, const scenario_srcloc *at)
{
    if (!scenario_srcloc_known(at))
        return;
    const char *sep = "";
    strbuf_addf(o, ", \"location\": { ");
    if (at->file) {
        strbuf_addf(o, "\"file\": ");
        report_json_string(o, at->file);
        sep = ", ";
    }
    if (at->line > 0) {
        strbuf_addf(o, "%s\"line\": %d", sep, at->line);
        sep = ", ";
    }
    if (at->column > 0) {
        strbuf_addf(o, "%s\"column\": %d", sep, at->column);
        sep = ", ";
    }
    if (at->text) {
        strbuf_addf(o, "%s\"text\": ", sep);
        report_json_string(o, at->text);
    }
    strbuf_addf(o, " }");
}

/* Whether s needs the version 2 format: a nest, or an access outside the one loop. */
static bool save_is_nest(const scenario *s)
{
    if (s->nloops > 1)
        return true;
    for (int i = 0; s->nloops == 1 && i < s->naccesses; i++)
        if (s->accesses[i].loop != 0)
            return true;
    return false;
}

void save_scenario_json(const scenario *s, strbuf *o)
{
    strbuf_addf(o, "{\n");
    if (!s->is_trace && save_is_nest(s))
        strbuf_addf(o, "  \"version\": 2,\n"); /* without it: version 1 (one loop around every access) */
    if (s->name)
        key_str(o, "  ", "name", s->name, true);
    if (s->description)
        key_str(o, "  ", "description", s->description, true);
    key_str(o, "  ", "arch", s->arch->name, true);
    if (s->is_trace) {
        save_trace(s, o);
        return;
    }
    strbuf_addf(o, "  \"block\": [%d, %d, %d],\n", s->block[0], s->block[1], s->block[2]);
    if (s->types.n)
        save_structs(s, o);
    strbuf_addf(o, "  \"arrays\": [\n");
    for (int i = 0; i < s->narrays; i++) {
        const scenario_array *a = &s->arrays[i];
        strbuf_addf(o, "    { \"name\": ");
        report_json_string(o, a->name);
        strbuf_addf(o, ", \"type\": ");
        report_json_string(o, a->type_name);
        strbuf_addf(o, ", \"dims\": ");
        int_list(o, a->dims, a->ndims);
        strbuf_addf(o, ", \"pad\": ");
        int_list(o, a->pad, a->ndims);
        if (a->base >= 0)
            strbuf_addf(o, ", \"base\": %lld", (long long)a->base);
        if (a->swizzle) {
            strbuf_addf(o, ", \"swizzle\": ");
            report_json_string(o, a->swizzle);
        }
        strbuf_addf(o, " }%s\n", i + 1 < s->narrays ? "," : "");
    }
    strbuf_addf(o, "  ],\n");
    static const char *const kind[] = {"step", "mul", "div"};
    bool nested = save_is_nest(s);
    for (int k = 0; k < s->nloops; k++) {
        const scenario_loop *L = &s->loops[k];
        strbuf_addf(o, "%s{ \"var\": ", !nested ? "  \"loop\": " : k ? ",\n    " : "  \"loops\": [\n    ");
        report_json_string(o, L->var);
        strbuf_addf(o, ", \"from\": %lld, \"to\": %lld, \"%s\": %lld", (long long)L->from, (long long)L->to,
                    kind[L->kind], (long long)L->step);
        if (L->parent >= 0) {
            strbuf_addf(o, ", \"in\": ");
            report_json_string(o, s->loops[L->parent].var);
        }
        strbuf_addf(o, " }%s", nested ? "" : ",\n");
    }
    if (nested)
        strbuf_addf(o, "\n  ],\n");
    strbuf_addf(o, "  \"accesses\": [\n");
    for (int i = 0; i < s->naccesses; i++) {
        const scenario_access *a = &s->accesses[i];
        strbuf_addf(o, "    { \"op\": \"%s\"", scenario_op_text(a->op));
        banks_request kind = scenario_access_kind(a);
        scenario_kind_json(&kind, o);
        strbuf_addf(o, ", \"array\": ");
        report_json_string(o, a->array_name);
        strbuf_addf(o, ", \"index\": [");
        for (int d = 0; d < a->nidx; d++) {
            strbuf_addf(o, "%s", d ? ", " : "");
            report_json_string(o, a->index_text[d]);
        }
        strbuf_addc(o, ']');
        const char *opt[] = {"field",      a->field, "vector", a->vector, "when",
                             a->when_text, "label",  a->label, "source",  a->source};
        for (int k = 0; k < 10; k += 2)
            if (opt[k + 1]) {
                strbuf_addf(o, ", \"%s\": ", opt[k]);
                report_json_string(o, opt[k + 1]);
            }
        save_location(o, &a->at);
        if (nested && a->loop >= 0 && a->loop < s->nloops) {
            strbuf_addf(o, ", \"loop\": ");
            report_json_string(o, s->loops[a->loop].var);
        }
        strbuf_addf(o, " }%s\n", i + 1 < s->naccesses ? "," : "");
    }
    strbuf_addf(o, "  ]");
    if (s->warps) {
        strbuf_addf(o, ",\n  \"warps\": [");
        for (int k = 0; k < s->nwarps; k++)
            strbuf_addf(o, "%s%d", k ? ", " : "", s->warps[k]);
        strbuf_addc(o, ']');
    }
    strbuf_addf(o, "\n}\n");
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
