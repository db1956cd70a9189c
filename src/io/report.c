/* report: text and JSON renderings of an analysis. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "io/instr_source.h"
#include "io/jsonw.h"
#include "io/textsafe.h"
#include "model/explain.h"
#include "model/kinds.h"
#include "util.h"

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
    if (degree <= 0)
        snprintf(buf, n, "no active lane");
    else if (degree == 1)
        snprintf(buf, n, "conflict-free");
    else
        snprintf(buf, n, "%d-way", degree);
    return buf;
}

const char *report_excluded_text(const scenario_excluded *e, char *buf, size_t n)
{
    const struct {
        int64_t count;
        const char *what;
    } part[] = {{e->misaligned, "misaligned"},
                {e->out_of_bounds, "out of bounds"},
                {e->expression_error, "with an expression error"}};
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
        if (part[i].count && k < n)
            k += (size_t)snprintf(buf + k, n - k, "%s%lld %s", k ? ", " : "", (long long)part[i].count, part[i].what);
    return buf;
}

/* ---- text ---- */

typedef struct text_ctx {
    FILE *out;
    const report_options *o;
    int last_access, last_iter;
    int last_heading; /* the iteration (or loop_heading's code) whose heading was printed last */
    /* the run of warps (or trace entries) with identical results being grouped */
    int run_first, run_last, run_n, run_cycles;
    banks_result run;
    banks_op run_op;
    scenario_excluded run_excluded;
    bool printed_table[256];
} text_ctx;

/* The heading of access a: its kind, array and index expressions, as the file spells them and
 * made safe for a terminal. */
static void access_title(FILE *out, const scenario *s, int a)
{
    const scenario_access *ac = &s->accesses[a];
    const scenario_array *arr = &s->arrays[ac->array];
    strbuf sb = {0}; /* the file's text made safe for a terminal */
    banks_request kind = scenario_access_kind(ac);
    char kt[32];
    strbuf_addf(&sb, "\naccess %d: %s ", a, scenario_kind_text(&kind, kt, sizeof kt));
    textsafe_add(&sb, arr->name);
    for (int d = 0; d < ac->nidx; d++) {
        strbuf_addc(&sb, '[');
        textsafe_add(&sb, ac->index_text[d]);
        strbuf_addc(&sb, ']');
    }
    if (ac->field) {
        strbuf_addc(&sb, '.');
        textsafe_add(&sb, ac->field);
    }
    strbuf_addf(&sb, "  (%s", ac->vector ? "as " : "");
    textsafe_add(&sb, ac->type_text);
    strbuf_addf(&sb, ", %d B per lane)", ac->width);
    if (ac->when_text) {
        strbuf_addf(&sb, "  when ");
        textsafe_add(&sb, ac->when_text);
    }
    if (ac->label) {
        strbuf_addf(&sb, "  -- ");
        textsafe_add(&sb, ac->label);
    }
    fprintf(out, "%s\n", strbuf_str(&sb));
    strbuf_free(&sb);
}

/* Cycles the instruction costs in a kernel (stores of register data): its wavefronts, or one per
 * phase where the architecture says so (banks_issue_cycles). */
static int instr_cycles(const scenario *s, const scenario_instr *in, const banks_result *r)
{
    return (int)banks_issue_cycles(s->arch, &in->req, r, true);
}

/* "24 lanes left out (24 misaligned: the access would fault)" after sep, when lanes were left out. */
static void excluded_note(FILE *out, const char *sep, const scenario_excluded *ex)
{
    int64_t n = scenario_excluded_total(ex);
    if (n == 0)
        return;
    char why[160];
    fprintf(out, "%s%lld lane%s left out (%s%s)", sep, (long long)n, n == 1 ? "" : "s",
            report_excluded_text(ex, why, sizeof why), ex->misaligned ? ": the access would fault" : "");
}

/* One instruction's verdict line (or runs of identical ones): wavefronts, ideal, degree and the
 * lanes left out; a kind the model does not cover says so and gives no verdict. */
static void summary_line(FILE *out, banks_op op, const banks_result *r, int cycles, const scenario_excluded *ex)
{
    char deg[32];
    if (r->not_modelled) { /* no rule: never a verdict */
        fprintf(out, "not modelled: %s", kinds_of(op)->not_modelled);
        excluded_note(out, "; ", ex);
        fputc('\n', out);
        return;
    }
    if (r->active_lanes == 0) {
        fprintf(out, "no active lane");
        excluded_note(out, "; ", ex);
        fputc('\n', out);
        return;
    }
    /* lanes left out come first: the verdict is then only that of the lanes that remain */
    excluded_note(out, "", ex);
    if (scenario_excluded_total(ex) > 0)
        fprintf(out, "; the %d remaining lane%s: ", r->active_lanes, r->active_lanes == 1 ? "" : "s");
    fprintf(out, "%s, %d wavefront%s (ideal %d), %d bank conflict%s, efficiency %.1f %%%s",
            report_degree_text(r->conflict_degree, deg, sizeof deg), r->wavefronts, r->wavefronts == 1 ? "" : "s",
            r->ideal_wavefronts, r->bank_conflicts, r->bank_conflicts == 1 ? "" : "s",
            100.0 * r->ideal_wavefronts / r->wavefronts, r->paired ? ", lanes paired" : "");
    if (cycles > r->wavefronts)
        fprintf(out, "; %d cycles, one per phase", cycles);
    fputc('\n', out);
}

/* The per-lane table of one warp-instruction: thread, element, address, word, bank, wavefront
 * and a note for lanes left out. */
static void lane_table(FILE *out, const scenario *s, const scenario_instr *in, const banks_result *r)
{
    fprintf(out, "  %4s  %-11s %-22s %9s %7s %6s %4s  %s\n", "lane", "thread", "element", "address", "word", "bank",
            "wave", "note");
    strbuf el = {0};
    for (int l = 0; l < BANKS_WARP; l++) {
        const scenario_lane *ln = &in->lane[l];
        char thr[32];
        if (!scenario_has_layout(s))
            snprintf(thr, sizeof thr, "-");
        else
            snprintf(thr, sizeof thr, "(%d,%d,%d)", ln->tx, ln->ty, ln->tz);
        if (ln->state == SCENARIO_LANE_NO_THREAD) {
            fprintf(out, "  %4d  %-11s %s\n", l, "-", "no thread");
            continue;
        }
        strbuf_clear(&el);
        if (ln->state == SCENARIO_LANE_OK || ln->state == SCENARIO_LANE_MISALIGNED || ln->state == SCENARIO_LANE_OOB)
            scenario_lane_element(s, in->access, ln, &el);
        if (ln->state != SCENARIO_LANE_OK) {
            const char *why = scenario_lane_state_text(ln->state);
            if (ln->state == SCENARIO_LANE_EVAL_ERROR)
                why = expr_status_text(ln->eval);
            fprintf(out, "  %4d  %-11s %-22s %9s %7s %6s %4s  %s\n", l, thr, strbuf_str(&el), "-", "-", "-", "-", why);
            continue;
        }
        char banks[16], moved[96] = "";
        report_banks_text(s->arch, ln->address, in->req.width, banks, sizeof banks);
        int ai = scenario_access_array(s, in->access);
        if (ai >= 0 && s->arrays[ai].swz_bits) { /* where the element was */
            const scenario_array *arr = &s->arrays[ai];
            int64_t was = arr->start + scenario_lane_offset(s, in->access, ln);
            if (was == ln->address)
                snprintf(moved, sizeof moved, "  %s swizzle: in place", arr->swizzle);
            else
                snprintf(moved, sizeof moved, "  %s swizzle (was %lld B)", arr->swizzle, (long long)was);
        }
        char wave[16] = "-"; /* not modelled: no wavefront */
        if (!r->not_modelled)
            snprintf(wave, sizeof wave, "%d", r->lane[l].wavefront);
        fprintf(out, "  %4d  %-11s %-22s %7lld B %7lld %6s %4s%s%s\n", l, thr, strbuf_str(&el), (long long)ln->address,
                (long long)banks_word_of(s->arch, ln->address), banks, wave,
                r->lane[l].broadcast ? "  same word as an earlier lane" : "", moved);
    }
    strbuf_free(&el);
}

/* The textbook explanation of an access (explain_access), under its first warp-instruction. */
static void why_lines(FILE *out, const scenario *s, const scenario_instr *in, const banks_result *r)
{
    explain_lines e;
    explain_access(s, in, r, &e);
    fprintf(out, "  why:\n");
    for (int i = 0; i < e.n; i++) { /* lines quote the scenario's expressions: made safe */
        fputs("    ", out);
        textsafe_fputs(e.line[i], out);
        fputc('\n', out);
    }
    explain_lines_free(&e);
}

static bool same_result(const banks_result *a, const banks_result *b)
{
    return a->not_modelled == b->not_modelled && a->wavefronts == b->wavefronts &&
           a->ideal_wavefronts == b->ideal_wavefronts && a->conflict_degree == b->conflict_degree &&
           a->active_lanes == b->active_lanes && a->paired == b->paired;
}

/* Print the pending run of warps (or trace entries) with the same result as one line. */
static void flush_run(text_ctx *c, const scenario *s)
{
    if (c->run_n == 0)
        return;
    if (!scenario_has_layout(s))
        fprintf(c->out, "  trace[%d%s", c->run_first, c->run_n > 1 ? ".." : "");
    else
        fprintf(c->out, "  warp%s %d%s", c->run_n > 1 ? "s" : "", c->run_first, c->run_n > 1 ? ".." : "");
    if (c->run_n > 1)
        fprintf(c->out, "%d", c->run_last);
    fprintf(c->out, "%s ", !scenario_has_layout(s) ? "]:" : ":");
    summary_line(c->out, c->run_op, &c->run, c->run_cycles, &c->run_excluded);
    c->run_n = 0;
}

/* The heading code of access a at iteration it: it for an access inside a loop; for one outside
 * every loop, -2 - (the loops it follows, as bits), so that it gets its own heading. */
static int loop_heading(const scenario *s, int a, int it)
{
    const scenario_access *ac = &s->accesses[a];
    return ac->loop >= 0 && ac->loop < s->nloops ? it : -2 - (int)(ac->after & 0xffu);
}

/* The heading of an access outside every loop: "after loop s" (naming the outermost loops it
 * follows) or "before loop s"; it runs once, not once per iteration. */
static void outside_heading(FILE *out, const scenario *s, int a)
{
    unsigned after = s->accesses[a].after, named = 0;
    for (int k = 0; k < s->nloops; k++) /* the outermost loops it follows (or comes before) */
        if (s->loops[k].parent < 0 && (!after || (after >> k & 1u)))
            named |= 1u << k;
    if (!named)
        named = after;
    int n = 0;
    for (int k = 0; k < s->nloops; k++)
        n += (int)(named >> k & 1u);
    fprintf(out, "\n%s loop%s ", after ? "after" : "before", n == 1 ? "" : "s");
    const char *sep = "";
    for (int k = 0; k < s->nloops; k++)
        if (named >> k & 1u) {
            fprintf(out, "%s", sep);
            textsafe_fputs(s->loops[k].var, out);
            sep = ", ";
        }
    fprintf(out, " (outside the loop%s: runs once)", n == 1 ? "" : "s");
}

/* Print the first warp-instruction of each access in full, then group the following ones
 * (consecutive warps or trace entries with identical results) into one line each. */
static void text_visit(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r,
                       const report_lanes *b)
{
    text_ctx *c = ctx;
    scenario_excluded ex = b->ex;
    if (c->o->summary)
        return;
    int key = !scenario_has_layout(s) ? (int)in->seq : in->warp;
    if (scenario_has_layout(s) && (in->access != c->last_access || in->iteration != c->last_iter)) {
        flush_run(c, s);
        int heading = s->nloops ? loop_heading(s, in->access, in->iteration) : -1;
        if (heading != c->last_heading && heading < -1) {
            outside_heading(c->out, s, in->access);
        } else if (heading != c->last_heading && heading >= 0) {
            strbuf it = {0};
            scenario_iteration_text(s, -1, in->iteration, &it);
            fprintf(c->out, "\n%s", strbuf_str(&it));
            strbuf_free(&it);
        }
        c->last_heading = heading;
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
        if (!scenario_has_layout(s))
            fprintf(c->out, "\ntrace[%lld]: %s, %d B per lane: ", (long long)in->seq,
                    scenario_kind_text(&in->req, kt, sizeof kt), in->req.width);
        else
            fprintf(c->out, "  warp %d: ", in->warp);
        summary_line(c->out, in->req.op, r, cycles, &ex);
        if (first)
            why_lines(c->out, s, in, r);
        lane_table(c->out, s, in, r);
        return;
    }
    if (c->run_n > 0 && same_result(&c->run, r) && c->run_cycles == cycles &&
        memcmp(&c->run_excluded, &ex, sizeof ex) == 0 && key == c->run_last + 1) {
        c->run_last = key;
        c->run_n++;
        return;
    }
    flush_run(c, s);
    c->run_first = c->run_last = key;
    c->run = *r;
    c->run_op = in->req.op;
    c->run_cycles = cycles;
    c->run_excluded = ex;
    c->run_n = 1;
}

#define HEADER_TEXT_MAX 400 /* bytes of a name or description the text report shows */

/* text, made printable, cut at HEADER_TEXT_MAX bytes (on a character boundary) with an ellipsis:
 * a recording's demangled kernel name can run to tens of kilobytes (--json keeps it whole). */
static void header_text(const char *text, FILE *out)
{
    size_t len = strlen(text), keep = len > HEADER_TEXT_MAX ? HEADER_TEXT_MAX : len;
    while (keep < len && keep > 0 && ((unsigned char)text[keep] & 0xC0) == 0x80)
        keep--;
    char *cut = xstrdup(text);
    cut[keep] = '\0';
    textsafe_fputs(cut, out);
    free(cut);
    fputs(keep < len ? "\xe2\x80\xa6\n" : "\n", out);
}

/* The scenario's name, description, architecture and layout (structs, arrays, block, loops)
 * before the instructions. */
static void scenario_header(FILE *out, const scenario *s)
{
    header_text(s->name ? s->name : "(unnamed scenario)", out);
    if (s->description)
        header_text(s->description, out);
    fprintf(out, "architecture %s: %s\n", s->arch->name, s->arch->title);
    if (!scenario_has_layout(s)) {
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
        fprintf(out, "__shared__ %s%s %s", a->type.struct_index >= 0 ? "struct " : "", types_name(&s->types, &a->type),
                a->name);
        for (int d = 0; d < a->ndims; d++) {
            if (a->pad[d])
                fprintf(out, "[%lld+%lld]", (long long)a->dims[d], (long long)a->pad[d]);
            else
                fprintf(out, "[%lld]", (long long)a->dims[d]);
        }
        fprintf(out, ";  /* base %lld B, %lld B", (long long)a->start, (long long)a->bytes);
        if (a->swz_bits) {
            strbuf sw = {0};
            scenario_swizzle_name(a, &sw);
            fprintf(out, ", swizzle %s", strbuf_str(&sw));
            strbuf_free(&sw);
        }
        fprintf(out, " */\n");
    }
    fprintf(out, "block %dx%dx%d, %d warp%s", s->block[0], s->block[1], s->block[2], scenario_warp_count(s),
            scenario_warp_count(s) == 1 ? "" : "s");
    if (s->nloops == 1)
        fprintf(out, "; loop %s: %d iteration%s", s->loops[0].var, s->iterations, s->iterations == 1 ? "" : "s");
    else if (s->nloops > 1) {
        fprintf(out, "; loops");
        for (int k = 0; k < s->nloops; k++)
            fprintf(out, "%s %s", k ? "," : "", s->loops[k].var);
        fprintf(out, ": %d iterations in all", s->iterations);
    }
    fputc('\n', out);
}

/* " over warp 0 only (of 32; --warp N for another)" when the totals cover some of the block's
 * warps, "" when they cover all (or s is a trace, which has no warps). */
static const char *warps_covered_text(const scenario *s, const report_options *o, char *buf, size_t n)
{
    buf[0] = '\0';
    int all = !scenario_has_layout(s) ? 0 : scenario_warp_count(s);
    if (!scenario_has_layout(s))
        return buf;
    if (o->warp >= 0) {
        if (all > 1)
            snprintf(buf, n, " over warp %d only (of %d)", o->warp, all);
        return buf;
    }
    int k = scenario_selected_warps(s);
    if (k == all)
        return buf;
    strbuf sb = {0};
    for (int i = 0; i < k; i++)
        strbuf_addf(&sb, "%s%d", i ? ", " : "", scenario_selected_warp(s, i));
    snprintf(buf, n, " over warp%s %.80s only (of %d: the file's \"warps\"; --warp N for another)", k == 1 ? "" : "s",
             strbuf_str(&sb), all);
    strbuf_free(&sb);
    return buf;
}

void report_text(FILE *out, const scenario *s, const report_options *o)
{
    text_ctx c = {.out = out, .o = o, .last_access = -2, .last_iter = -1, .last_heading = -1};
    if (!o->summary)
        scenario_header(out, s);
    report_totals t;
    o->engine->walk(s, o, o->summary, text_visit, &c, &t);
    flush_run(&c, s);
    if (o->summary) /* after the instructions: a streamed trace's count is known only then */
        scenario_header(out, s);
    char deg[32], cover[160];
    int64_t issued = t.instructions - t.idle;
    fprintf(out, "\ntotal%s: %lld warp-instruction%s", warps_covered_text(s, o, cover, sizeof cover), (long long)issued,
            issued == 1 ? "" : "s");
    if (t.idle)
        fprintf(out, " issued (+%lld of idle warps: no active lane, nothing issued)", (long long)t.idle);
    fprintf(out, ", %lld wavefront%s (ideal %lld), %lld bank conflict%s", (long long)t.wavefronts,
            t.wavefronts == 1 ? "" : "s", (long long)t.ideal, (long long)t.conflicts, t.conflicts == 1 ? "" : "s");
    if (t.wavefronts)
        fprintf(out, ", efficiency %.1f %%", 100.0 * (double)t.ideal / (double)t.wavefronts);
    excluded_note(out, "; ", &t.excluded);
    if (t.not_modelled)
        fprintf(out, "\nnot modelled: %lld warp-instruction%s (counted in none of the sums above)",
                (long long)t.not_modelled, t.not_modelled == 1 ? "" : "s");
    if (t.not_modelled == t.instructions && t.instructions) /* nothing was predicted */
        fprintf(out, "\nworst: none predicted\n");
    else {
        fprintf(out, "\nworst: %s", report_degree_text(t.worst_degree, deg, sizeof deg));
        /* totals over some warps only: a worse warp of the block is named, so "worst" never
         * hides it (char tile[32][33]: warp 0 conflict-free, warp 2 2-way) */
        int all_worst, all_warp;
        if (cover[0] && o->engine->worst_all_warps(s, &all_worst, &all_warp) && all_worst > t.worst_degree)
            fprintf(out, " in the warps of the total; %s in warp %d of the %d of the block (--warp %d)",
                    report_degree_text(all_worst, deg, sizeof deg), all_warp, scenario_warp_count(s), all_warp);
        fputc('\n', out);
    }
    fprintf(out, "predicted by the %s model%s\n", s->arch->name,
            s->arch->measured ? " (matches H100/H200 hardware counters)" : "");
}

/* ---- JSON ---- */

typedef struct json_ctx {
    jsonw *w;
    bool explained[256]; /* "why" written for this access (as the text output's first table) */
} json_ctx;

static void json_excluded(jsonw *w, const scenario_excluded *e)
{
    jsonw_begin_object(w, JSONW_INLINE);
    jsonw_kv_int(w, "misaligned", e->misaligned);
    jsonw_kv_int(w, "out_of_bounds", e->out_of_bounds);
    jsonw_kv_int(w, "expression_error", e->expression_error);
    jsonw_end_object(w);
}

/* One warp-instruction as an object of the JSON report's instruction array. */
static void json_visit(void *ctx, const scenario *s, const scenario_instr *in, const banks_result *r,
                       const report_lanes *b)
{
    json_ctx *c = ctx;
    jsonw *w = c->w;
    scenario_excluded ex = b->ex;
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "seq", in->seq);
    if (in->access >= 0)
        JSONW_KV_INT(w, "access", in->access);
    else
        JSONW_KV_NULL(w, "access");
    JSONW_KV_INT(w, "warp", in->warp);
    JSONW_KV_INT(w, "iteration", in->iteration);
    if (s->nloops) /* a trace has none */
        JSONW_KV_INT(w, "loop_value", in->loop_value);
    if (s->nloops > 1) { /* a nest: every loop's value, in the order of "loops" */
        JSONW_KEY(w, "loop_values");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int k = 0; k < s->nloops; k++)
            jsonw_int(w, scenario_loop_value(s, k, in->iteration));
        jsonw_end_array(w);
    }
    report_json_kind(w, &in->req);
    JSONW_KV_INT(w, "width", in->req.width);
    if (r->not_modelled) { /* no rule: every prediction null, and why */
        JSONW_KV_BOOL(w, "modelled", false);
        JSONW_KV_STRING(w, "not_modelled", kinds_of(in->req.op)->not_modelled);
        static const char *const none[] = {"wavefronts", "ideal_wavefronts", "conflict_degree", "bank_conflicts",
                                           "cycles"};
        for (int k = 0; k < 5; k++) {
            jsonw_key(w, none[k]);
            jsonw_null(w);
        }
    } else {
        JSONW_KV_INT(w, "wavefronts", r->wavefronts);
        JSONW_KV_INT(w, "ideal_wavefronts", r->ideal_wavefronts);
        JSONW_KV_INT(w, "conflict_degree", r->conflict_degree);
        JSONW_KV_INT(w, "bank_conflicts", r->bank_conflicts);
        if (!kinds_of(in->req.op)->cycles) /* cp.async: the time includes the global-memory copy */
            JSONW_KV_NULL(w, "cycles");
        else
            JSONW_KV_INT(w, "cycles", instr_cycles(s, in, r));
    }
    JSONW_KV_INT(w, "active_lanes", r->active_lanes);
    JSONW_KV_INT(w, "excluded_lanes", scenario_excluded_total(&ex));
    JSONW_KV_INT(w, "broadcast_lanes", r->broadcast_lanes);
    JSONW_KV_BOOL(w, "paired", r->paired);
    int slot = in->access < 0 ? 0 : in->access % 256;
    if (!c->explained[slot]) {
        c->explained[slot] = true;
        explain_lines e;
        explain_access(s, in, r, &e);
        JSONW_KEY(w, "why");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int i = 0; i < e.n; i++)
            jsonw_string(w, e.line[i]);
        jsonw_end_array(w);
        explain_lines_free(&e);
    }
    JSONW_KEY(w, "lanes");
    jsonw_begin_array(w, JSONW_INLINE);
    const scenario_access *ac = scenario_access_of(s, in->access); /* NULL for a trace's entry */
    int nidx = ac ? ac->nidx : 0, ai = scenario_access_array(s, in->access);
    for (int l = 0; l < BANKS_WARP; l++) {
        const scenario_lane *ln = &in->lane[l];
        bool act = ln->state == SCENARIO_LANE_OK;
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_INT(w, "lane", l);
        JSONW_KV_BOOL(w, "active", act);
        if (act) {
            JSONW_KV_INT(w, "address", ln->address);
            JSONW_KV_INT(w, "word", banks_word_of(s->arch, ln->address));
            JSONW_KV_INT(w, "bank", banks_bank_of(s->arch, ln->address));
            if (r->not_modelled)
                JSONW_KV_NULL(w, "wavefront");
            else
                JSONW_KV_INT(w, "wavefront", r->lane[l].wavefront);
            if (ai >= 0 && s->arrays[ai].swz_bits)
                JSONW_KV_INT(w, "unswizzled_address", s->arrays[ai].start + scenario_lane_offset(s, in->access, ln));
        } else {
            JSONW_KV_NULL(w, "address");
            JSONW_KV_NULL(w, "bank");
            JSONW_KV_STRING(w, "state", scenario_lane_state_text(ln->state));
        }
        if (scenario_has_layout(s) && ln->state != SCENARIO_LANE_NO_THREAD && ln->state != SCENARIO_LANE_EVAL_ERROR &&
            ln->state != SCENARIO_LANE_MASKED) {
            JSONW_KEY(w, "index");
            jsonw_begin_array(w, JSONW_INLINE);
            for (int d = 0; d < nidx; d++)
                jsonw_int(w, ln->index[d]);
            jsonw_end_array(w);
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    jsonw_end_object(w);
}

void report_json_kind(jsonw *w, const banks_request *r)
{
    const kinds_row *k = kinds_of(r->op);
    jsonw_kv_string(w, "op", scenario_op_text(r->op));
    if (kinds_takes_key(k, "matrices")) {
        jsonw_kv_int(w, "matrices", r->matrices);
        jsonw_kv_bool(w, "trans", r->trans);
    }
    if (kinds_takes_key(k, "atomic")) {
        jsonw_kv_string(w, "atomic", banks_atomic_name(r->atomic));
        jsonw_kv_bool(w, "returns", r->returns);
    }
    const char *sel = NULL, *key = kinds_select_key(k, &sel); /* "cache": "cg", "form": "popc" */
    if (key)
        jsonw_kv_string(w, key, sel);
}

/* A type's C name, "struct " included for structs, "[n]" for field arrays. */
static void type_text(const scenario *s, const types_ref *t, int count, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s", t->struct_index >= 0 ? "struct " : "", types_name(&s->types, t));
    if (count > 1) {
        size_t k = strlen(buf);
        snprintf(buf + k, n - k, "[%d]", count);
    }
}

/* The structs' layouts (size, alignment, each field's offset) as the "structs" array. */
static void json_structs(jsonw *w, const scenario *s)
{
    jsonw_key(w, "structs");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < s->types.n; i++) {
        const types_struct *st = &s->types.structs[i];
        jsonw_begin_object(w, JSONW_INLINE);
        jsonw_kv_string(w, "name", st->name);
        jsonw_kv_int(w, "size", st->size);
        jsonw_kv_int(w, "align", st->align);
        jsonw_key(w, "fields");
        jsonw_begin_array(w, JSONW_INLINE);
        for (int f = 0; f < st->nfields; f++) {
            const types_field *fd = &st->fields[f];
            char tn[160];
            type_text(s, &fd->type, fd->count, tn, sizeof tn);
            jsonw_begin_object(w, JSONW_INLINE);
            jsonw_kv_string(w, "name", fd->name);
            jsonw_kv_string(w, "type", tn);
            jsonw_kv_int(w, "offset", fd->offset);
            jsonw_kv_int(w, "size", (int64_t)types_size(&s->types, &fd->type) * fd->count);
            jsonw_kv_int(w, "count", fd->count);
            jsonw_end_object(w);
        }
        jsonw_end_array(w);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

static void json_int_array(jsonw *w, const char *key, const int64_t *v, int n)
{
    jsonw_key(w, key);
    jsonw_begin_array(w, JSONW_INLINE);
    for (int d = 0; d < n; d++)
        jsonw_int(w, v[d]);
    jsonw_end_array(w);
}

/* The arrays with their element types and placement as the "arrays" array. */
static void json_arrays(jsonw *w, const scenario *s)
{
    jsonw_key(w, "arrays");
    jsonw_begin_array(w, JSONW_LINES);
    for (int i = 0; i < s->narrays; i++) {
        const scenario_array *a = &s->arrays[i];
        char tn[160];
        type_text(s, &a->type, 1, tn, sizeof tn);
        jsonw_begin_object(w, JSONW_INLINE);
        jsonw_kv_string(w, "name", a->name);
        jsonw_kv_string(w, "type", tn);
        json_int_array(w, "dims", a->dims, a->ndims);
        json_int_array(w, "pad", a->pad, a->ndims);
        jsonw_kv_int(w, "element_size", a->elem_size);
        jsonw_kv_int(w, "base", a->start);
        jsonw_kv_int(w, "bytes", a->bytes);
        if (a->swz_bits) { /* only when set; as written, and as CuTe's Swizzle on byte offsets */
            char cute[48];
            snprintf(cute, sizeof cute, "Swizzle<%d,%d,%d>", a->swz_bits, a->swz_base, a->swz_shift);
            jsonw_kv_string(w, "swizzle", a->swizzle);
            jsonw_kv_string(w, "swizzle_bytes", cute);
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

bool report_json(FILE *out, const scenario *s, const report_options *o, const char **why)
{
    static jsonw w; /* 64 KiB buffer: not on the stack */
    json_ctx c = {.w = &w};
    jsonw_init(&w, out);
    jsonw_begin_object(&w, JSONW_LINES);
    jsonw_kv_string(&w, "format", REPORT_ANALYZE_FORMAT);
    jsonw_kv_string(&w, "name", s->name ? s->name : "");
    jsonw_kv_string(&w, "arch", s->arch->name);
    jsonw_kv_bool(&w, "predicted", true);
    jsonw_kv_string(&w, "kind", !scenario_has_layout(s) ? "trace" : "scenario");
    if (scenario_has_layout(s)) {
        jsonw_key(&w, "block");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int d = 0; d < 3; d++)
            jsonw_int(&w, s->block[d]);
        jsonw_end_array(&w);
        jsonw_kv_int(&w, "warps", scenario_warp_count(s));
        jsonw_kv_int(&w, "iterations", s->iterations);
        jsonw_kv_int(&w, "shared_bytes", s->smem_bytes);
    }
    json_structs(&w, s);
    if (scenario_has_layout(s))
        json_arrays(&w, s);
    jsonw_key(&w, "accesses");
    jsonw_begin_array(&w, JSONW_LINES);
    report_totals t;
    o->engine->walk(s, o, false, json_visit, &c, &t);
    jsonw_end_array(&w);
    jsonw_key(&w, "summary");
    jsonw_begin_object(&w, JSONW_INLINE);
    jsonw_kv_int(&w, "instructions", t.instructions);
    jsonw_kv_int(&w, "issued_instructions", t.instructions - t.idle);
    jsonw_kv_int(&w, "idle_instructions", t.idle);
    if (scenario_has_layout(s)) {
        jsonw_key(&w, "warps_covered");
        jsonw_begin_array(&w, JSONW_INLINE);
        if (o->warp >= 0)
            jsonw_int(&w, o->warp);
        else
            for (int i = 0; i < scenario_selected_warps(s); i++)
                jsonw_int(&w, scenario_selected_warp(s, i));
        jsonw_end_array(&w);
    }
    jsonw_kv_int(&w, "wavefronts", t.wavefronts);
    jsonw_kv_int(&w, "ideal_wavefronts", t.ideal);
    jsonw_kv_int(&w, "bank_conflicts", t.conflicts);
    jsonw_kv_int(&w, "worst_conflict_degree", t.worst_degree);
    jsonw_kv_double(&w, "efficiency", t.wavefronts ? (double)t.ideal / (double)t.wavefronts : 1.0);
    jsonw_key(&w, "excluded_lanes");
    json_excluded(&w, &t.excluded);
    if (t.not_modelled) /* in "instructions", in none of the sums */
        jsonw_kv_int(&w, "not_modelled", t.not_modelled);
    jsonw_end_object(&w);
    if (o->json_extra)
        o->json_extra(&w, o->json_extra_ctx);
    jsonw_end_object(&w);
    return jsonw_finish(&w, why);
}
