/* whatif_report: `sweep` output on a recording (whatif_report.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonw.h"
#include "io/report.h"
#include "io/sweep_row.h"
#include "io/textsafe.h"
#include "io/whatif_report.h"

#define SHOW_MAX (WHATIF_TOP + 3)

/* The assumption every what-if rests on, as the output states it. */
static const char *const whatif_report_assumption =
    "the kernel's indexing follows the declared layout (a pointer cast that flattens "
    "the array does not change with it)";

/* The last component of a path. */
static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p;
}

/* The layouts to show for a search: the ranked top, then the best of each kind the top left out. */
static int shown_layouts(const whatif_result *r, const whatif_layout **l, const whatif_cost **c)
{
    int n = 0;
    for (int i = 0; i < r->ntop; i++) {
        l[n] = &r->top[i];
        c[n++] = &r->top_cost[i];
    }
    for (int k = WHATIF_PAD; k <= WHATIF_SOA; k++) {
        bool in = false;
        for (int i = 0; i < r->ntop; i++)
            in = in || r->top[i].kind == (whatif_kind)k;
        if (r->has[k] && !in && n < SHOW_MAX) {
            l[n] = &r->best_of[k];
            c[n++] = &r->best_of_cost[k];
        }
    }
    return n;
}

/* The element's C type for declarations: the source's, else none (the declaration says T). */
static const char *elem_type(const recording_regions *g, int i)
{
    return g->types[i][0] ? g->types[i] : NULL;
}

/* The per-line table of one layout: line, before -> after, text. */
static void lines_text(FILE *f, const whatif_input *in, const scenario *s, const whatif_layout *l)
{
    whatif_line *v;
    int n = whatif_lines(in, s->trace_at, l, &v);
    if (n < 0)
        return;
    fprintf(f, "    %-28s %21s  %s\n", "line", "wavefronts before -> after", "source");
    int64_t b = 0, a = 0;
    for (int i = 0; i < n; i++) {
        char where[64], t[200], arrow[48];
        if (v[i].file)
            snprintf(where, sizeof where, "%.50s:%d", base_name(v[i].file), v[i].line);
        else
            snprintf(where, sizeof where, "(no line info)");
        snprintf(arrow, sizeof arrow, "%lld -> %lld", (long long)v[i].before, (long long)v[i].after);
        fprintf(f, "    %-28s %21s%s  %.70s\n", where, arrow, v[i].before != v[i].after ? " *" : "  ",
                v[i].text ? textsafe(v[i].text + strspn(v[i].text, " \t"), t, sizeof t) : "");
        b += v[i].before;
        a += v[i].after;
    }
    char arrow[48];
    snprintf(arrow, sizeof arrow, "%lld -> %lld", (long long)b, (long long)a);
    fprintf(f, "    %-28s %21s\n", "total", arrow);
    free(v);
}

/* One region's search as text. */
static void region_text(FILE *f, const whatif_input *in, const scenario *s, const recording_regions *g, int i,
                        const whatif_result *r)
{
    const whatif_region *rg = &g->regions[i];
    char deg[32], buf[400], what[200] = "";
    if (g->was[i][0])
        snprintf(what, sizeof what, " (%s: the source declares this one __shared__ array)", g->was[i]);
    fprintf(f, "\n%s%s: %lld bytes at %lld", rg->name, what, (long long)rg->bytes, (long long)rg->start);
    if (r->elem)
        fprintf(f, ", %lld-byte %s", (long long)r->elem, g->types[i][0] ? g->types[i] : "elements");
    fprintf(f, "\n  now: %lld wavefronts (ideal %lld), %s, over %lld warp-instructions (%lld touch it)\n",
            (long long)r->current.wavefronts, (long long)r->current.ideal,
            report_degree_text(r->current.worst, deg, sizeof deg), (long long)in->ntrace,
            (long long)r->current.touched);
    if (r->current.wavefronts == r->current.ideal) {
        fprintf(f, "  nothing to gain: every recorded instruction is conflict-free\n");
        return;
    }
    fprintf(f, "  %d layouts tried: ", r->tried);
    if (r->npitches) {
        fprintf(f, "paddings of the row pitches");
        for (int k = 0; k < r->npitches; k++)
            fprintf(f, " %lld", (long long)r->pitches[k]);
        fprintf(f, " B by %d..%d B, ", WHATIF_PAD_MIN, WHATIF_PAD_MAX);
    } else {
        fprintf(f, "no padding (no recorded stride between lanes is a row pitch), ");
    }
    fprintf(f, "CuTe swizzles%s\n", r->soa ? ", the struct-of-arrays split" : "");
    if (r->sample)
        fprintf(f, "  each costed on %lld of the %lld warp-instructions first; the %d best checked on every one\n",
                (long long)r->sample, (long long)in->ntrace, r->checked);
    const whatif_layout *l[SHOW_MAX];
    const whatif_cost *c[SHOW_MAX];
    int n = shown_layouts(r, l, c);
    if (n == 0) {
        fprintf(f, "  nothing to gain: no layout tried does better than now\n");
        return;
    }
    char name[SHOW_MAX][120];
    int namew = 26; /* the widest name sets the column: a long region name must not push the numbers out */
    for (int k = 0; k < n; k++) {
        whatif_layout_short(l[k], rg, name[k], sizeof name[k]);
        int w = (int)strlen(name[k]);
        namew = w > namew ? w : namew;
    }
    fprintf(f, "  %4s  %-*s %10s %7s %-13s %8s ", "rank", namew, "layout", "wavefronts", "ideal", "worst", "extra B");
    sweep_row_text_occupancy_head(f);
    fprintf(f, "\n");
    for (int k = 0; k < n; k++) {
        char rank[12] = "";
        if (k < r->ntop)
            snprintf(rank, sizeof rank, "%d", k + 1);
        fprintf(f, "  %4s  %-*s %10lld %7lld %-13s %+8lld ", k < r->ntop ? rank : "-", namew, name[k],
                (long long)c[k]->wavefronts, (long long)c[k]->ideal, report_degree_text(c[k]->worst, deg, sizeof deg),
                (long long)l[k]->extra_bytes);
        sweep_row_text_occupancy(f, c[k]->smem_bytes, c[k]->blocks_per_sm, c[k]->occupancy);
        fprintf(f, "\n");
    }
    fprintf(f, "  best: %s\n", whatif_layout_decl(l[0], rg, elem_type(g, i), r->elem, buf, sizeof buf));
    for (int p = r->npitches - 1; p >= 0; p--) /* the widest recorded row that the swizzle rewrites */
        if (whatif_swizzle_2d(l[0], rg->name, r->elem, r->pitches[p], buf, sizeof buf)) {
            fprintf(f, "        = %s\n", buf);
            break;
        }
    lines_text(f, in, s, l[0]);
    if (l[0]->kind != WHATIF_PAD && r->has[WHATIF_PAD]) {
        const whatif_layout *p = &r->best_of[WHATIF_PAD];
        fprintf(f, "  cheapest padding: %s (%+lld B)\n",
                whatif_layout_decl(p, rg, elem_type(g, i), r->elem, buf, sizeof buf), (long long)p->extra_bytes);
        lines_text(f, in, s, p);
    }
}

/* The layout as a JSON object, with its lines. */
static void layout_json(jsonw *w, const whatif_input *in, const scenario *s, const recording_regions *g, int i,
                        const whatif_result *r, const whatif_layout *l, const whatif_cost *c, int rank)
{
    static const char *const kinds[] = {"as_is", "padding", "swizzle", "soa"};
    char buf[400];
    const whatif_region *rg = &g->regions[i];
    jsonw_begin_object(w, JSONW_LINES);
    if (rank > 0)
        JSONW_KV_INT(w, "rank", rank);
    else
        JSONW_KV_NULL(w, "rank");
    JSONW_KV_STRING(w, "kind", kinds[l->kind]);
    if (l->kind == WHATIF_PAD) {
        JSONW_KV_INT(w, "pitch", l->pitch);
        JSONW_KV_INT(w, "pad", l->pad);
    }
    if (l->kind == WHATIF_SWIZZLE) {
        snprintf(buf, sizeof buf, "Swizzle<%d,%d,%d>", l->bits, l->base, l->shift);
        JSONW_KV_STRING(w, "swizzle_bytes", buf);
        int le = r->elem > 0 && (r->elem & (r->elem - 1)) == 0 ? __builtin_ctzll((unsigned long long)r->elem) : -1;
        if (le >= 0 && l->base >= le) {
            snprintf(buf, sizeof buf, "Swizzle<%d,%d,%d>", l->bits, l->base - le, l->shift);
            JSONW_KV_STRING(w, "cute", buf);
        } else {
            JSONW_KV_NULL(w, "cute");
        }
    }
    if (l->kind == WHATIF_SOA) {
        JSONW_KV_INT(w, "struct_bytes", l->elem);
        JSONW_KEY(w, "fields");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int f = 0; f < l->nfields; f++) {
            jsonw_begin_object(w, JSONW_INLINE);
            JSONW_KV_INT(w, "offset", l->field_off[f]);
            JSONW_KV_INT(w, "bytes", l->field_width[f]);
            jsonw_end_object(w);
        }
        jsonw_end_array(w);
    }
    JSONW_KV_STRING(w, "declaration", whatif_layout_decl(l, rg, elem_type(g, i), r->elem, buf, sizeof buf));
    JSONW_KV_INT(w, "extra_bytes", l->extra_bytes);
    sweep_row_json_conflicts(w, c->wavefronts, c->ideal, c->worst);
    sweep_row_json_occupancy(w, c->smem_bytes, c->blocks_per_sm, c->occupancy);
    JSONW_KEY(w, "lines");
    jsonw_begin_array(w, JSONW_LINES);
    whatif_line *v;
    int n = whatif_lines(in, s->trace_at, l, &v);
    for (int k = 0; k < n; k++) {
        jsonw_begin_object(w, JSONW_INLINE);
        if (v[k].file)
            JSONW_KV_STRING(w, "file", v[k].file);
        else
            JSONW_KV_NULL(w, "file");
        JSONW_KV_INT(w, "line", v[k].line);
        if (v[k].text)
            JSONW_KV_STRING(w, "text", v[k].text);
        else
            JSONW_KV_NULL(w, "text");
        JSONW_KV_INT(w, "instructions", v[k].instructions);
        JSONW_KV_INT(w, "before", v[k].before);
        JSONW_KV_INT(w, "before_ideal", v[k].before_ideal);
        JSONW_KV_INT(w, "after", v[k].after);
        JSONW_KV_INT(w, "after_ideal", v[k].after_ideal);
        jsonw_end_object(w);
    }
    if (n > 0)
        free(v);
    jsonw_end_array(w);
    jsonw_end_object(w);
}

/* A cost of the whole recording as a JSON object. */
static void cost_json(jsonw *w, const whatif_cost *c)
{
    jsonw_begin_object(w, JSONW_INLINE);
    sweep_row_json_conflicts(w, c->wavefronts, c->ideal, c->worst);
    JSONW_KV_INT(w, "instructions_touching", c->touched);
    sweep_row_json_occupancy(w, c->smem_bytes, c->blocks_per_sm, c->occupancy);
    jsonw_end_object(w);
}

bool whatif_report_json(const whatif_report *p, FILE *f, const char **why)
{
    const scenario *s = p->s;
    const whatif_input *in = p->in;
    const recording_regions *g = p->g;
    static jsonw w;
    jsonw_init(&w, f);
    jsonw_begin_object(&w, JSONW_LINES);
    JSONW_KV_STRING(&w, "format", "bankscope-sweep/1");
    JSONW_KV_STRING(&w, "name", s->name ? s->name : "");
    JSONW_KV_STRING(&w, "arch", s->arch->name);
    JSONW_KV_BOOL(&w, "recording", true);
    JSONW_KV_BOOL(&w, "predicted", true);
    JSONW_KV_STRING(&w, "assumption", whatif_report_assumption);
    JSONW_KV_STRING(&w, "arrays_from", g->from_cubin ? "recording" : "recorded window");
    JSONW_KEY(&w, "recording_layouts");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int k = 0; k < p->nsearched; k++) {
        int i = p->searched[k];
        const whatif_result *r = &p->res[k];
        const whatif_region *rg = &g->regions[i];
        jsonw_begin_object(&w, JSONW_LINES);
        JSONW_KV_STRING(&w, "array", rg->name);
        if (g->was[i][0])
            JSONW_KV_STRING(&w, "named_from_source", g->was[i]);
        JSONW_KV_INT(&w, "offset", rg->start);
        JSONW_KV_INT(&w, "bytes", rg->bytes);
        JSONW_KV_INT(&w, "element_bytes", r->elem);
        if (g->types[i][0])
            JSONW_KV_STRING(&w, "element_type", g->types[i]);
        else
            JSONW_KV_NULL(&w, "element_type");
        JSONW_KEY(&w, "current");
        cost_json(&w, &r->current);
        JSONW_KV_INT(&w, "tried", r->tried);
        JSONW_KV_INT(&w, "sample_instructions", r->sample ? r->sample : in->ntrace);
        JSONW_KV_INT(&w, "checked", r->sample ? r->checked : r->tried);
        JSONW_KEY(&w, "pitches");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int p = 0; p < r->npitches; p++)
            jsonw_int(&w, r->pitches[p]);
        jsonw_end_array(&w);
        const whatif_layout *l[SHOW_MAX];
        const whatif_cost *c[SHOW_MAX];
        int n = shown_layouts(r, l, c);
        JSONW_KV_BOOL(&w, "nothing_to_gain", n == 0);
        JSONW_KEY(&w, "layouts");
        jsonw_begin_array(&w, JSONW_LINES);
        for (int j = 0; j < n; j++)
            layout_json(&w, in, s, g, i, r, l[j], c[j], j < r->ntop ? j + 1 : 0);
        jsonw_end_array(&w);
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    jsonw_end_object(&w);
    return jsonw_finish(&w, why);
}

void whatif_report_text(const whatif_report *p, FILE *f)
{
    const scenario *s = p->s;
    char scope[600], t[600];
    recording_scope(p->rec, scope, sizeof scope);
    fprintf(f, "what-if on the recording %s: %s, %lld warp-instructions\n", textsafe(p->file, t, sizeof t),
            textsafe(scope, scope, sizeof scope), (long long)s->ntrace);
    if (p->g->from_cubin) {
        fprintf(f, "arrays (the recording's, from the cubin):");
        for (int i = 0; i < p->rec->narrays; i++)
            fprintf(f, "%s %s (%lld B at %lld)", i ? "," : "", textsafe(p->rec->arrays[i].name, t, sizeof t),
                    (long long)p->rec->arrays[i].bytes, (long long)p->rec->arrays[i].offset);
        fprintf(f, "\n");
    } else {
        fprintf(f, "arrays: none in the recording: the recorded window is one region\n");
    }
    fprintf(f, "assumption: %s\n", whatif_report_assumption);
    if (p->nsearched == 0) {
        fprintf(f, "\nnothing to gain: no recorded instruction has a bank conflict (%lld wavefronts = ideal)\n",
                (long long)p->wavefronts);
    }
    for (int k = 0; k < p->nsearched; k++)
        region_text(f, p->in, s, p->g, p->searched[k], &p->res[k]);
    fprintf(f, "predicted by the %s model on the recorded addresses, remapped; '*': the line changes\n", s->arch->name);
}
