/* report: text and JSON renderings of an analysis. */
#include "report.h"

#include <string.h>

#include "model/explain.h"

void report_json_string(strbuf *sb, const char *s)
{
    strbuf_addc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            strbuf_addf(sb, "\\%c", *p);
        else if (*p == '\n')
            strbuf_add(sb, "\\n", 2);
        else if (*p < 0x20)
            strbuf_addf(sb, "\\u%04x", *p);
        else
            strbuf_addc(sb, (char)*p);
    }
    strbuf_addc(sb, '"');
}

void report_banks_text(const banks_profile *p, int64_t addr, int width, char *buf, size_t n)
{
    int b0 = banks_bank_of(p, addr), b1 = banks_bank_of(p, addr + width - 1);
    if (b0 == b1)
        snprintf(buf, n, "%d", b0);
    else
        snprintf(buf, n, "%d-%d", b0, b1);
}

const char *report_degree_text(int degree, char *buf, size_t n)
{
    if (degree <= 1)
        snprintf(buf, n, "conflict-free");
    else
        snprintf(buf, n, "%d-way", degree);
    return buf;
}

/* Iterate the instructions the options select, calling fn for each. */
typedef void (*visit_fn)(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r);

static void visit(const scenario *s, const report_options *o, visit_fn fn, void *ctx)
{
    scenario_instr in;
    banks_result r;
    if (o->warp >= 0 && !s->is_trace) {
        for (int it = 0; it < s->iterations; it++)
            for (int a = 0; a < s->naccesses; a++) {
                scenario_instr_build(s, a, it, o->warp, &in);
                in.seq = (int64_t)it * s->naccesses + a;
                banks_analyze(s->arch, &in.req, &r, NULL);
                fn(ctx, s, &in, &r);
            }
        return;
    }
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        scenario_instr_at(s, k, &in);
        banks_analyze(s->arch, &in.req, &r, NULL);
        fn(ctx, s, &in, &r);
    }
}

static void totals_add(report_totals *t, const scenario_instr *in, const banks_result *r)
{
    t->instructions++;
    t->wavefronts += r->wavefronts;
    t->ideal += r->ideal_wavefronts;
    t->conflicts += r->bank_conflicts;
    if (r->conflict_degree > t->worst_degree) {
        t->worst_degree = r->conflict_degree;
        t->worst_seq = in->seq;
    }
}

/* ---- text ---- */

typedef struct text_ctx {
    FILE *out;
    const report_options *o;
    report_totals t;
    int last_access, last_iter;
    /* the run of warps (or trace entries) with identical results being grouped */
    int run_first, run_last, run_n, run_cycles;
    banks_result run;
    bool printed_table[256];
} text_ctx;

static void access_title(FILE *out, const scenario *s, int a)
{
    const scenario_access *ac = &s->accesses[a];
    const scenario_array *arr = &s->arrays[ac->array];
    banks_request kind = scenario_access_kind(ac);
    char kt[32];
    fprintf(out, "\naccess %d: %s %s", a, scenario_kind_text(&kind, kt, sizeof kt), arr->name);
    for (int d = 0; d < ac->nidx; d++)
        fprintf(out, "[%s]", ac->index_text[d]);
    if (ac->field)
        fprintf(out, ".%s", ac->field);
    fprintf(out, "  (%s%s, %d B per lane)", ac->vector ? "as " : "", ac->type_text, ac->width);
    if (ac->when_text)
        fprintf(out, "  when %s", ac->when_text);
    if (ac->label)
        fprintf(out, "  -- %s", ac->label);
    fputc('\n', out);
}

/* Cycles the instruction costs in a kernel (stores of register data): its wavefronts, or one per
 * phase where the architecture says so (banks_issue_cycles). */
static int instr_cycles(const scenario *s, const scenario_instr *in, const banks_result *r)
{
    return (int)banks_issue_cycles(s->arch, &in->req, r, true);
}

static void summary_line(FILE *out, const banks_result *r, int cycles)
{
    char deg[32];
    if (r->active_lanes == 0) {
        fprintf(out, "no active lane\n");
        return;
    }
    fprintf(out, "%s, %d wavefront%s (ideal %d), %d bank conflict%s, efficiency %.1f %%%s",
            report_degree_text(r->conflict_degree, deg, sizeof deg), r->wavefronts,
            r->wavefronts == 1 ? "" : "s", r->ideal_wavefronts, r->bank_conflicts,
            r->bank_conflicts == 1 ? "" : "s", 100.0 * r->ideal_wavefronts / r->wavefronts,
            r->paired ? ", lanes paired" : "");
    if (cycles > r->wavefronts)
        fprintf(out, "; %d cycles, one per phase", cycles);
    fputc('\n', out);
}

static void lane_table(FILE *out, const scenario *s, const scenario_instr *in, const banks_result *r)
{
    fprintf(out, "  %4s  %-11s %-22s %9s %7s %6s %4s  %s\n", "lane", "thread", "element", "address",
            "word", "bank", "wave", "note");
    strbuf el = {0};
    for (int l = 0; l < BANKS_WARP; l++) {
        const scenario_lane *ln = &in->lane[l];
        char thr[32];
        if (s->is_trace)
            snprintf(thr, sizeof thr, "-");
        else
            snprintf(thr, sizeof thr, "(%d,%d,%d)", ln->tx, ln->ty, ln->tz);
        if (ln->state == SCENARIO_LANE_NO_THREAD) {
            fprintf(out, "  %4d  %-11s %s\n", l, "-", "no thread");
            continue;
        }
        strbuf_clear(&el);
        if (ln->state == SCENARIO_LANE_OK || ln->state == SCENARIO_LANE_MISALIGNED ||
            ln->state == SCENARIO_LANE_OOB)
            scenario_lane_element(s, in->access, ln, &el);
        if (ln->state != SCENARIO_LANE_OK) {
            const char *why = scenario_lane_state_text(ln->state);
            if (ln->state == SCENARIO_LANE_EVAL_ERROR)
                why = expr_status_text(ln->eval);
            fprintf(out, "  %4d  %-11s %-22s %9s %7s %6s %4s  %s\n", l, thr, strbuf_str(&el), "-", "-",
                    "-", "-", why);
            continue;
        }
        char banks[16];
        report_banks_text(s->arch, ln->address, in->req.width, banks, sizeof banks);
        fprintf(out, "  %4d  %-11s %-22s %7lld B %7lld %6s %4d%s\n", l, thr, strbuf_str(&el),
                (long long)ln->address, (long long)banks_word_of(s->arch, ln->address), banks,
                r->lane[l].wavefront, r->lane[l].broadcast ? "  same word as an earlier lane" : "");
    }
    strbuf_free(&el);
}

/* The textbook explanation of an access (explain_access), under its first warp-instruction. */
static void why_lines(FILE *out, const scenario *s, const scenario_instr *in, const banks_result *r)
{
    explain_lines e;
    explain_access(s, in, r, &e);
    fprintf(out, "  why:\n");
    for (int i = 0; i < e.n; i++)
        fprintf(out, "    %s\n", e.line[i]);
    explain_lines_free(&e);
}

static bool same_result(const banks_result *a, const banks_result *b)
{
    return a->wavefronts == b->wavefronts && a->ideal_wavefronts == b->ideal_wavefronts &&
           a->conflict_degree == b->conflict_degree && a->active_lanes == b->active_lanes &&
           a->paired == b->paired;
}

static void flush_run(text_ctx *c, const scenario *s)
{
    if (c->run_n == 0)
        return;
    if (s->is_trace)
        fprintf(c->out, "  trace[%d%s", c->run_first, c->run_n > 1 ? ".." : "");
    else
        fprintf(c->out, "  warp%s %d%s", c->run_n > 1 ? "s" : "", c->run_first, c->run_n > 1 ? ".." : "");
    if (c->run_n > 1)
        fprintf(c->out, "%d", c->run_last);
    fprintf(c->out, "%s ", s->is_trace ? "]:" : ":");
    summary_line(c->out, &c->run, c->run_cycles);
    c->run_n = 0;
}

/* Print the first warp-instruction of each access in full, then group the following ones
 * (consecutive warps or trace entries with identical results) into one line each. */
static void text_visit(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r)
{
    text_ctx *c = ctx;
    totals_add(&c->t, in, r);
    if (c->o->summary)
        return;
    int key = s->is_trace ? (int)in->seq : in->warp;
    if (!s->is_trace && (in->access != c->last_access || in->iteration != c->last_iter)) {
        flush_run(c, s);
        if (s->loop.var && in->iteration != c->last_iter)
            fprintf(c->out, "\n%s = %lld", s->loop.var, (long long)in->loop_value);
        access_title(c->out, s, in->access);
    }
    c->last_access = in->access;
    c->last_iter = in->iteration;
    int slot = in->access < 0 ? 0 : in->access % 256, cycles = instr_cycles(s, in, r);
    if (c->o->all_lanes || !c->printed_table[slot]) {
        bool first = !c->printed_table[slot];
        c->printed_table[slot] = true;
        flush_run(c, s);
        char kt[32];
        if (s->is_trace)
            fprintf(c->out, "\ntrace[%lld]: %s, %d B per lane: ", (long long)in->seq,
                    scenario_kind_text(&in->req, kt, sizeof kt), in->req.width);
        else
            fprintf(c->out, "  warp %d: ", in->warp);
        summary_line(c->out, r, cycles);
        if (first)
            why_lines(c->out, s, in, r);
        lane_table(c->out, s, in, r);
        return;
    }
    if (c->run_n > 0 && same_result(&c->run, r) && c->run_cycles == cycles &&
        key == c->run_last + 1) {
        c->run_last = key;
        c->run_n++;
        return;
    }
    flush_run(c, s);
    c->run_first = c->run_last = key;
    c->run = *r;
    c->run_cycles = cycles;
    c->run_n = 1;
}

static void scenario_header(FILE *out, const scenario *s)
{
    fprintf(out, "%s\n", s->name ? s->name : "(unnamed scenario)");
    if (s->description)
        fprintf(out, "%s\n", s->description);
    fprintf(out, "architecture %s: %s\n", s->arch->name, s->arch->title);
    if (s->is_trace) {
        fprintf(out, "trace of %d warp-instruction%s\n", s->ntrace, s->ntrace == 1 ? "" : "s");
        return;
    }
    for (int i = 0; i < s->types.n; i++) {
        strbuf sb = {0};
        types_struct_decl(&s->types, i, true, &sb);
        fputs(strbuf_str(&sb), out);
        strbuf_free(&sb);
    }
    for (int i = 0; i < s->narrays; i++) {
        const scenario_array *a = &s->arrays[i];
        fprintf(out, "__shared__ %s%s %s", a->type.struct_index >= 0 ? "struct " : "",
                types_name(&s->types, &a->type), a->name);
        for (int d = 0; d < a->ndims; d++) {
            if (a->pad[d])
                fprintf(out, "[%lld+%lld]", (long long)a->dims[d], (long long)a->pad[d]);
            else
                fprintf(out, "[%lld]", (long long)a->dims[d]);
        }
        fprintf(out, ";  /* base %lld B, %lld B */\n", (long long)a->start, (long long)a->bytes);
    }
    fprintf(out, "block %dx%dx%d, %d warp%s", s->block[0], s->block[1], s->block[2],
            scenario_warp_count(s), scenario_warp_count(s) == 1 ? "" : "s");
    if (s->loop.var)
        fprintf(out, "; loop %s: %d iteration%s", s->loop.var, s->iterations, s->iterations == 1 ? "" : "s");
    fputc('\n', out);
}

void report_text(FILE *out, const scenario *s, const report_options *o)
{
    text_ctx c = {.out = out, .o = o, .last_access = -2, .last_iter = -1};
    scenario_header(out, s);
    visit(s, o, text_visit, &c);
    flush_run(&c, s);
    char deg[32];
    fprintf(out, "\ntotal: %lld warp-instruction%s, %lld wavefront%s (ideal %lld), %lld bank conflict%s",
            (long long)c.t.instructions, c.t.instructions == 1 ? "" : "s", (long long)c.t.wavefronts,
            c.t.wavefronts == 1 ? "" : "s", (long long)c.t.ideal, (long long)c.t.conflicts,
            c.t.conflicts == 1 ? "" : "s");
    if (c.t.wavefronts)
        fprintf(out, ", efficiency %.1f %%", 100.0 * (double)c.t.ideal / (double)c.t.wavefronts);
    fprintf(out, "\nworst: %s\n", report_degree_text(c.t.worst_degree, deg, sizeof deg));
    fprintf(out, "predicted by the %s model%s\n", s->arch->name,
            s->arch->measured ? " (matches H100/H200 hardware counters)" : "");
}

/* ---- JSON ---- */

typedef struct json_ctx {
    FILE *out;
    strbuf sb;
    report_totals t;
    bool first;
} json_ctx;

static void json_visit(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r)
{
    json_ctx *c = ctx;
    strbuf *sb = &c->sb;
    strbuf_clear(sb);
    totals_add(&c->t, in, r);
    strbuf_addf(sb, "%s\n    {\"seq\": %lld, \"access\": ", c->first ? "" : ",", (long long)in->seq);
    c->first = false;
    if (in->access >= 0)
        strbuf_addf(sb, "%d", in->access);
    else
        strbuf_addf(sb, "null");
    strbuf_addf(sb, ", \"warp\": %d, \"iteration\": %d", in->warp, in->iteration);
    if (s->loop.var && !s->is_trace)
        strbuf_addf(sb, ", \"loop_value\": %lld", (long long)in->loop_value);
    strbuf_addf(sb, ", \"op\": \"%s\"", scenario_op_text(in->req.op));
    scenario_kind_json(&in->req, sb);
    strbuf_addf(sb, ", \"width\": %d, \"wavefronts\": %d, \"ideal_wavefronts\": %d, "
                "\"conflict_degree\": %d, \"bank_conflicts\": %d, \"cycles\": %d, \"active_lanes\": %d, "
                "\"broadcast_lanes\": %d, \"paired\": %s, \"lanes\": [",
                in->req.width, r->wavefronts, r->ideal_wavefronts,
                r->conflict_degree, r->bank_conflicts, instr_cycles(s, in, r), r->active_lanes,
                r->broadcast_lanes, r->paired ? "true" : "false");
    for (int l = 0; l < BANKS_WARP; l++) {
        const scenario_lane *ln = &in->lane[l];
        bool act = ln->state == SCENARIO_LANE_OK;
        strbuf_addf(sb, "%s{\"lane\": %d, \"active\": %s", l ? ", " : "", l, act ? "true" : "false");
        if (act)
            strbuf_addf(sb, ", \"address\": %lld, \"word\": %lld, \"bank\": %d, \"wavefront\": %d",
                        (long long)ln->address, (long long)banks_word_of(s->arch, ln->address),
                        banks_bank_of(s->arch, ln->address), r->lane[l].wavefront);
        else
            strbuf_addf(sb, ", \"address\": null, \"bank\": null, \"state\": \"%s\"",
                        scenario_lane_state_text(ln->state));
        if (!s->is_trace && ln->state != SCENARIO_LANE_NO_THREAD && ln->state != SCENARIO_LANE_EVAL_ERROR &&
            ln->state != SCENARIO_LANE_MASKED) {
            strbuf_addf(sb, ", \"index\": [");
            for (int d = 0; d < s->accesses[in->access].nidx; d++)
                strbuf_addf(sb, "%s%lld", d ? ", " : "", (long long)ln->index[d]);
            strbuf_addc(sb, ']');
        }
        strbuf_addc(sb, '}');
    }
    strbuf_addf(sb, "]}");
    fwrite(sb->data, 1, sb->len, c->out);
}

static void json_structs(strbuf *sb, const scenario *s)
{
    strbuf_addf(sb, "  \"structs\": [");
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        strbuf_addf(sb, "%s\n    {\"name\": ", i ? "," : "");
        report_json_string(sb, st->name);
        strbuf_addf(sb, ", \"size\": %d, \"align\": %d, \"fields\": [", st->size, st->align);
        for (int f = 0; f < st->nfields; f++) {
            const types_field *fd = &st->fields[f];
            char tn[96];
            snprintf(tn, sizeof tn, "%s%s", fd->type.struct_index >= 0 ? "struct " : "",
                     types_name(&s->types, &fd->type));
            if (fd->count > 1) {
                size_t n = strlen(tn);
                snprintf(tn + n, sizeof tn - n, "[%d]", fd->count);
            }
            strbuf_addf(sb, "%s{\"name\": ", f ? ", " : "");
            report_json_string(sb, fd->name);
            strbuf_addf(sb, ", \"type\": ");
            report_json_string(sb, tn);
            strbuf_addf(sb, ", \"offset\": %d, \"size\": %d, \"count\": %d}", fd->offset,
                        types_size(&s->types, &fd->type) * fd->count, fd->count);
        }
        strbuf_addf(sb, "]}");
    }
    strbuf_addf(sb, "%s],\n", s->types.n ? "\n  " : "");
}

static void json_arrays(strbuf *sb, const scenario *s)
{
    strbuf_addf(sb, "  \"arrays\": [");
    for (int i = 0; i < s->narrays; i++) {
        const scenario_array *a = &s->arrays[i];
        strbuf_addf(sb, "%s\n    {\"name\": ", i ? "," : "");
        report_json_string(sb, a->name);
        char tn[64];
        snprintf(tn, sizeof tn, "%s%s", a->type.struct_index >= 0 ? "struct " : "",
                 types_name(&s->types, &a->type));
        strbuf_addf(sb, ", \"type\": ");
        report_json_string(sb, tn);
        strbuf_addf(sb, ", \"dims\": [");
        for (int d = 0; d < a->ndims; d++)
            strbuf_addf(sb, "%s%lld", d ? ", " : "", (long long)a->dims[d]);
        strbuf_addf(sb, "], \"pad\": [");
        for (int d = 0; d < a->ndims; d++)
            strbuf_addf(sb, "%s%lld", d ? ", " : "", (long long)a->pad[d]);
        strbuf_addf(sb, "], \"element_size\": %lld, \"base\": %lld, \"bytes\": %lld}",
                    (long long)a->elem_size, (long long)a->start, (long long)a->bytes);
    }
    strbuf_addf(sb, "%s],\n", s->narrays ? "\n  " : "");
}

void report_json(FILE *out, const scenario *s, const report_options *o)
{
    json_ctx c = {.out = out, .first = true};
    strbuf *sb = &c.sb;
    strbuf_addf(sb, "{\n  \"name\": ");
    report_json_string(sb, s->name ? s->name : "");
    strbuf_addf(sb, ",\n  \"arch\": \"%s\",\n  \"predicted\": true,\n  \"kind\": \"%s\",\n", s->arch->name,
                s->is_trace ? "trace" : "scenario");
    if (!s->is_trace) {
        strbuf_addf(sb, "  \"block\": [%d, %d, %d],\n  \"warps\": %d,\n  \"iterations\": %d,\n"
                    "  \"shared_bytes\": %lld,\n",
                    s->block[0], s->block[1], s->block[2], scenario_warp_count(s), s->iterations,
                    (long long)s->smem_bytes);
    }
    json_structs(sb, s);
    if (!s->is_trace)
        json_arrays(sb, s);
    strbuf_addf(sb, "  \"accesses\": [");
    fwrite(sb->data, 1, sb->len, out);
    visit(s, o, json_visit, &c);
    fprintf(out, "%s],\n  \"summary\": {\"instructions\": %lld, \"wavefronts\": %lld, "
            "\"ideal_wavefronts\": %lld, \"bank_conflicts\": %lld, \"worst_conflict_degree\": %d, "
            "\"efficiency\": %.4f}\n}\n",
            c.t.instructions ? "\n  " : "", (long long)c.t.instructions, (long long)c.t.wavefronts,
            (long long)c.t.ideal, (long long)c.t.conflicts, c.t.worst_degree,
            c.t.wavefronts ? (double)c.t.ideal / (double)c.t.wavefronts : 1.0);
    strbuf_free(sb);
}
