/* recording_book: the recording and the summary (recording_book.h). */
#include <stdlib.h>
#include <string.h>

#include "core/recording_book.h"
#include "core/line_sums.h"
#include "core/recording_measured.h"
#include "io/trace_stream.h"
#include "io/jsonw.h"
#include "io/recording.h"
#include "io/safe_open.h"
#include "io/textsafe.h"
#include "model/kinds.h"
#include "model/scenario.h"
#include "util.h"

/* Text of line ln of file (without its newline), or NULL when it cannot be read. The file (named
 * by the program's line info) is opened without blocking, a regular file only, and read no
 * further than RECORD_SOURCE_MAX bytes; a line longer than the readers accept of a string
 * (TRACE_MAX_STRING) is cut on a character boundary and ends with an ellipsis. */
static char *source_text(const char *file, int ln)
{
    char why[128];
    FILE *f = file && ln > 0 ? safe_fopen_regular(file, why, sizeof why) : NULL;
    if (!f)
        return NULL;
    strbuf sb = {0};
    size_t total = 0;
    int c, at = 1;
    bool found = false; /* line ln has begun */
    while (at <= ln && total++ <= RECORD_SOURCE_MAX && (c = getc(f)) != EOF) {
        found = found || at == ln;
        if (c == '\n')
            at++;
        else if (at == ln && sb.len <= TRACE_MAX_STRING) /* what is past the cut is not kept */
            strbuf_addc(&sb, (char)c);
    }
    fclose(f);
    while (sb.len && sb.data[sb.len - 1] == '\r')
        sb.data[--sb.len] = '\0';
    char *out = found ? record_cut_text(strbuf_str(&sb)) : NULL;
    strbuf_free(&sb);
    return out;
}

char *record_cut_text(const char *text)
{
    static const char ellipsis[] = "\xe2\x80\xa6"; /* U+2026 */
    size_t n = strlen(text);
    if (n <= TRACE_MAX_STRING)
        return xstrdup(text);
    size_t keep = textsafe_cut(text, TRACE_MAX_STRING - (sizeof ellipsis - 1));
    char *out = xmalloc(keep + sizeof ellipsis);
    memcpy(out, text, keep);
    memcpy(out + keep, ellipsis, sizeof ellipsis);
    return out;
}

/* Index of the line for (file, ln), appended when new. */
static int line_of(record_book *b, const char *file, int ln)
{
    for (int i = 0; i < b->nlines; i++)
        if (b->lines[i].line == ln &&
            (b->lines[i].file == file || (file && b->lines[i].file && strcmp(file, b->lines[i].file) == 0)))
            return i;
    b->lines = xrealloc(b->lines, (size_t)(b->nlines + 1) * sizeof *b->lines);
    record_line *l = &b->lines[b->nlines];
    memset(l, 0, sizeof *l);
    l->file = file;
    l->line = ln;
    l->text = source_text(file, ln);
    l->degree = 0;
    return b->nlines++;
}

/* Index of pc in b->pcs, appended when new. */
static int pc_of(record_book *b, uint64_t pc)
{
    for (int i = 0; i < b->npcs; i++)
        if (b->pcs[i].pc == pc)
            return i;
    b->pcs = xrealloc(b->pcs, (size_t)(b->npcs + 1) * sizeof *b->pcs);
    record_pc *p = &b->pcs[b->npcs];
    memset(p, 0, sizeof *p);
    p->pc = pc;
    p->sass = record_sass_find(b->sass, pc);
    p->line = line_of(b, p->sass ? p->sass->file : NULL, p->sass ? p->sass->line : 0);
    return b->npcs++;
}

/* Order of lines: by file, then line; the line without info last. */
static int line_cmp(const void *x, const void *y)
{
    const record_line *a = x, *b = y;
    if (!a->file || !b->file)
        return (a->file == NULL) - (b->file == NULL);
    int c = strcmp(a->file, b->file);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Whether a SASS opcode reaches shared memory where the patching gives no callback (its kind's
 * row says: the TMA copies, checked on an H100, CUDA 13.0: cp.async.bulk, UBLKCP, calls none;
 * the wgmma operands). */
static bool invisible_opcode(const char *text)
{
    const kinds_row *k = kinds_find_sass_line(text);
    return k && k->no_callback;
}

/* Trace entry t on line l. */
static void line_add(record_line *l, int64_t t)
{
    if (l->ninstr == l->room) {
        l->room = l->room ? l->room * 2 : 16;
        l->instr = xrealloc(l->instr, (size_t)l->room * sizeof *l->instr);
    }
    l->instr[l->ninstr++] = t;
}

/* The captured entries, one at a time, for line_sums_walk: an entry at a PC with a problem is
 * not analysed (a kind the model does not cover, kept in the trace or not). */
typedef struct book_walk {
    const record_book *b;
    int64_t i;
} book_walk;

/* The next captured entry for line_sums_walk: 1 with it in *in, 0 after the last. */
static int book_next(void *ctx, line_sums_instr *in)
{
    book_walk *w = ctx;
    const record_book *b = w->b;
    if (w->i >= b->cap->nentries)
        return 0;
    const record_entry *e = &b->cap->entries[w->i];
    int pi = pc_of((record_book *)b, e->pc); /* known: no PC is added */
    const record_pc *p = &b->pcs[pi];
    *in = (line_sums_instr){.access = w->i, .line = p->line, .pc = pi};
    if (b->trace_index[w->i] < 0 || p->problem)
        in->unmodelled = p->problem ? p->problem : "not modelled";
    else
        record_entry_request(e, p->sass ? p->sass->text : NULL, &in->req);
    w->i++;
    return 1;
}

bool record_book_build(record_book *b, const record_capture *c, const record_sass *s, char *why, size_t n)
{
    memset(b, 0, sizeof *b);
    b->cap = c;
    b->sass = s;
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d%d", c->cc_major, c->cc_minor);
    const banks_profile *prof = banks_profile_find(arch);
    if (!prof) {
        snprintf(why, n, "bankscope has no bank model of %s (%s): see bankscope list --arch", arch, c->device);
        return false;
    }
    b->arch = prof->name;
    b->trace_index = xcalloc((size_t)(c->nentries ? c->nentries : 1), sizeof *b->trace_index);
    for (int64_t i = 0; i < c->nentries; i++) {
        const record_entry *e = &c->entries[i];
        int pi = pc_of(b, e->pc);
        record_pc *p = &b->pcs[pi];
        p->executions++;
        banks_request r;
        p->problem = record_entry_request(e, p->sass ? p->sass->text : NULL, &r);
        if (!p->problem && p->sass && invisible_opcode(p->sass->text)) /* a callback where none was seen */
            p->problem = "a TMA copy or wgmma operand: not modelled";
        if (!p->problem && banks_request_problem(&r))
            p->problem = banks_request_problem(&r);
        const kinds_row *k = p->problem ? NULL : kinds_of(r.op);
        if (k && k->rule == KINDS_RULE_NOT_MODELLED) { /* cp.async.cg: named in the trace by op and cache */
            p->problem = k->not_modelled;
            p->traced = true;
        }
        b->trace_index[i] = p->problem && !p->traced ? -1 : b->ntrace++;
    }
    /* the TMA copies and wgmma operand reads that called no patch: instructions of their own on
     * their lines, with no execution recorded, measured only (the count pass has their numbers) */
    for (int i = 0; i < s->n; i++) {
        bool seen = false; /* one that did call the patches is counted as not modelled instead */
        for (int k = 0; k < b->npcs && !seen; k++)
            seen = b->pcs[k].pc == s->lines[i].pc;
        if (!seen && invisible_opcode(s->lines[i].text)) {
            b->invisible = xrealloc(b->invisible, (size_t)(b->ninvisible + 1) * sizeof *b->invisible);
            b->invisible[b->ninvisible++] = &s->lines[i];
            int pi = pc_of(b, s->lines[i].pc); /* pc_of may move b->pcs */
            b->pcs[pi].measured_only = true;
        }
    }
    /* lines sorted, then the PCs pointed at them again */
    int *old_to_new = xcalloc((size_t)(b->nlines ? b->nlines : 1), sizeof *old_to_new);
    for (int i = 0; i < b->nlines; i++)
        b->lines[i].room = i; /* remember the old index through the sort */
    qsort(b->lines, (size_t)b->nlines, sizeof *b->lines, line_cmp);
    for (int i = 0; i < b->nlines; i++) {
        old_to_new[b->lines[i].room] = i;
        b->lines[i].room = 0;
    }
    for (int i = 0; i < b->npcs; i++)
        b->pcs[i].line = old_to_new[b->pcs[i].line];
    free(old_to_new);
    for (int64_t i = 0; i < c->nentries; i++) /* every trace entry on its line (a problem's too) */
        if (b->trace_index[i] >= 0)
            line_add(&b->lines[b->pcs[pc_of(b, c->entries[i].pc)].line], b->trace_index[i]);
    line_sums sums = {.arch = prof,
                      .per_line = xcalloc((size_t)(b->nlines ? b->nlines : 1), sizeof *sums.per_line),
                      .nlines = b->nlines};
    book_walk w = {.b = b};
    line_sums_walk(&sums, book_next, &w);
    for (int i = 0; i < b->nlines; i++) {
        record_line *l = &b->lines[i];
        l->wavefronts = sums.per_line[i].wavefronts;
        l->ideal_wavefronts = sums.per_line[i].ideal;
        l->degree = sums.per_line[i].worst;
        l->unmodelled = sums.per_line[i].not_modelled;
    }
    free(sums.per_line);
    return true;
}

void record_book_free(record_book *b)
{
    for (int i = 0; i < b->nlines; i++) {
        free(b->lines[i].text);
        free(b->lines[i].instr);
    }
    free(b->lines);
    free(b->pcs);
    free(b->trace_index);
    free(b->invisible);
    memset(b, 0, sizeof *b);
}

/* "file:line", or NULL without line info. */
static const char *source_of(const record_sass_line *s, char *buf, size_t n)
{
    if (!s || !s->file)
        return NULL;
    snprintf(buf, n, "%s:%d", s->file, s->line);
    return buf;
}

/* The short name of a kernel: its demangled name without return type and parameters. */
static void short_name(const char *demangled, char *buf, size_t n)
{
    const char *p = demangled;
    const char *paren = strchr(p, '(');
    const char *sp = strchr(p, ' ');
    if (sp && (!paren || sp < paren) && strchr(p, '<') > sp)
        p = sp + 1; /* "void name<...>(...)" */
    else if (sp && paren && sp < paren && !strchr(p, '<'))
        p = sp + 1;
    snprintf(buf, n, "%.*s", (int)(paren && paren > p ? paren - p : (ptrdiff_t)strlen(p)), p);
}

/* Three numbers as a JSON array. */
static void json_dim3(jsonw *w, const char *key, const uint32_t *v)
{
    jsonw_key(w, key);
    jsonw_begin_array(w, JSONW_INLINE);
    for (int i = 0; i < 3; i++)
        jsonw_int(w, v[i]);
    jsonw_end_array(w);
}

/* The trace entry of capture entry i. */
static void json_entry(jsonw *w, const record_book *b, int64_t i)
{
    const record_entry *e = &b->cap->entries[i];
    const record_pc *p = NULL;
    for (int k = 0; k < b->npcs; k++)
        if (b->pcs[k].pc == e->pc)
            p = &b->pcs[k];
    banks_request r;
    record_entry_request(e, p && p->sass ? p->sass->text : NULL, &r);
    char kt[32], src[4200];
    jsonw_begin_object(w, JSONW_INLINE);
    const kinds_row *k = kinds_of(r.op);
    JSONW_KV_STRING(w, "op", k ? kinds_op_text(k) : banks_op_name(r.op));
    const char *sel = NULL, *key = k ? kinds_select_key(k, &sel) : NULL;
    if (key) /* as save.c's save_kind: "op": "cp.async", "cache": "cg"; "op": "atomic", "form": "popc" */
        jsonw_kv_string(w, key, sel);
    JSONW_KV_INT(w, "width", r.width);
    if (r.op == BANKS_LDMATRIX || r.op == BANKS_STMATRIX) {
        JSONW_KV_INT(w, "matrices", r.matrices);
        JSONW_KV_BOOL(w, "trans", r.trans);
    } else if (r.op == BANKS_ATOMIC) {
        JSONW_KV_STRING(w, "atomic", banks_atomic_name(r.atomic));
        JSONW_KV_BOOL(w, "returns", r.returns);
    }
    (void)kt;
    JSONW_KV_INT(w, "pc", (int64_t)e->pc);
    JSONW_KV_STRING(w, "sass", p && p->sass ? p->sass->text : scenario_kind_text(&r, kt, sizeof kt));
    JSONW_KV_INT(w, "warp", e->warp);
    JSONW_KV_STRING(w, "source", source_of(p ? p->sass : NULL, src, sizeof src));
    JSONW_KEY(w, "addresses");
    jsonw_begin_array(w, JSONW_INLINE);
    for (int l = 0; l < RECORD_WARP; l++) {
        if (r.active >> l & 1)
            jsonw_int(w, r.addr[l]);
        else
            jsonw_null(w);
    }
    jsonw_end_array(w);
    jsonw_end_object(w);
}

/* The count run's numbers of the instruction at pc over the whole launch: "measured":
 * {"wavefronts", "ideal_wavefronts", "instructions"}, null when nothing was measured (a pc the
 * count run did not list executed nothing: zeros). */
static void json_pc_measured(jsonw *w, const record_measured *m, uint64_t pc)
{
    if (!m || !m->have) {
        JSONW_KV_NULL(w, "measured");
        return;
    }
    measured_counts c = {0};
    for (size_t i = 0; i < m->count.npcs; i++)
        if (m->count.pcs[i].pc == pc)
            c = m->count.pcs[i].c;
    JSONW_KEY(w, "measured");
    jsonw_begin_object(w, JSONW_INLINE);
    JSONW_KV_INT(w, "wavefronts", (int64_t)c.wavefronts);
    JSONW_KV_INT(w, "ideal_wavefronts", (int64_t)c.ideal_wavefronts);
    JSONW_KV_INT(w, "instructions", (int64_t)c.instructions);
    jsonw_end_object(w);
}

/* An instruction's inline chain, innermost first, the kernel's own line last: "chain": [{"file",
 * "line", "text"}] (text null where the file cannot be read). */
static void json_chain(jsonw *w, const record_sass_line *s)
{
    JSONW_KEY(w, "chain");
    jsonw_begin_array(w, JSONW_INLINE);
    for (int i = 0; i < s->nchain; i++) {
        char *text = source_text(s->chain[i].file, s->chain[i].line);
        jsonw_begin_object(w, JSONW_INLINE);
        JSONW_KV_STRING(w, "file", s->chain[i].file);
        JSONW_KV_INT(w, "line", s->chain[i].line);
        JSONW_KV_STRING(w, "text", text);
        jsonw_end_object(w);
        free(text);
    }
    jsonw_end_array(w);
}

void record_book_json(const record_book *b, const record_measured *m, const char *const *argv, int argc, FILE *out,
                      bool *ok, const char **why)
{
    const record_capture *c = b->cap;
    jsonw w;
    jsonw_init(&w, out);
    char src[4200];
    size_t nlen = strlen(c->demangled) + 1; /* names are kept whole, however long */
    char *name = xmalloc(nlen);
    short_name(c->demangled, name, nlen);
    strbuf db = {0};
    strbuf_addf(&db,
                "Recorded by bankscope record: block (%u,%u,%u) of launch %lld of %s on %s; one block of one launch, "
                "for this input",
                c->block[0], c->block[1], c->block[2], (long long)c->launch, c->demangled, c->device);
    if (c->executed > c->nentries) /* every reader shows the description: say it there too */
        strbuf_addf(&db, "; %lld of %lld warp-instructions captured (truncated)", (long long)c->nentries,
                    (long long)c->executed);
    const char *desc = strbuf_str(&db);
    jsonw_begin_object(&w, JSONW_LINES);
    JSONW_KV_STRING(&w, "format", "bankscope-record/1");
    JSONW_KV_STRING(&w, "name", name);
    JSONW_KV_STRING(&w, "description", desc);
    JSONW_KV_STRING(&w, "arch", b->arch);
    JSONW_KV_STRING(&w, "program", argc > 0 ? argv[0] : NULL);
    JSONW_KEY(&w, "arguments");
    jsonw_begin_array(&w, JSONW_INLINE);
    for (int i = 1; i < argc; i++)
        jsonw_string(&w, argv[i]);
    jsonw_end_array(&w);
    JSONW_KEY(&w, "device");
    jsonw_begin_object(&w, JSONW_INLINE);
    JSONW_KV_STRING(&w, "name", c->device);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", c->cc_major, c->cc_minor);
    JSONW_KV_STRING(&w, "compute_capability", cc);
    jsonw_end_object(&w);
    JSONW_KEY(&w, "kernel");
    jsonw_begin_object(&w, JSONW_INLINE);
    JSONW_KV_STRING(&w, "name", c->demangled);
    JSONW_KV_STRING(&w, "mangled", c->mangled);
    jsonw_end_object(&w);
    JSONW_KV_INT(&w, "launch", c->launch);
    json_dim3(&w, "grid", c->grid);
    json_dim3(&w, "block_dim", c->block_dim);
    json_dim3(&w, "block", c->block);
    JSONW_KV_INT(&w, "executed", c->executed);
    JSONW_KV_INT(&w, "captured", c->nentries);
    JSONW_KV_BOOL(&w, "truncated", c->executed > c->nentries);
    JSONW_KV_BOOL(&w, "line_info", b->sass->has_lines);
    record_arrays_json(&w, b);
    record_measured_json(&w, m);
    JSONW_KEY(&w, "lines");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int i = 0; i < b->nlines; i++) {
        const record_line *l = &b->lines[i];
        jsonw_begin_object(&w, JSONW_INLINE);
        JSONW_KV_STRING(&w, "file", l->file);
        if (l->file)
            JSONW_KV_INT(&w, "line", l->line);
        else
            JSONW_KV_NULL(&w, "line");
        JSONW_KV_STRING(&w, "text", l->text);
        JSONW_KEY(&w, "pcs");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int k = 0; k < b->npcs; k++) {
            if (b->pcs[k].line != i)
                continue;
            jsonw_begin_object(&w, JSONW_INLINE);
            JSONW_KV_INT(&w, "pc", (int64_t)b->pcs[k].pc);
            JSONW_KV_STRING(&w, "sass", b->pcs[k].sass ? b->pcs[k].sass->text : NULL);
            JSONW_KV_INT(&w, "executions", b->pcs[k].executions);
            if (b->pcs[k].measured_only) /* no callback: what the hardware counted is all there is */
                JSONW_KV_BOOL(&w, "measured_only", true);
            if (b->pcs[k].problem)
                JSONW_KV_STRING(&w, "not_modelled", b->pcs[k].problem);
            if (b->pcs[k].sass && b->pcs[k].sass->nchain > 1)
                json_chain(&w, b->pcs[k].sass);
            json_pc_measured(&w, m, b->pcs[k].pc);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
        JSONW_KEY(&w, "instructions");
        jsonw_begin_array(&w, JSONW_INLINE);
        for (int64_t k = 0; k < l->ninstr; k++)
            jsonw_int(&w, l->instr[k]);
        jsonw_end_array(&w);
        JSONW_KV_INT(&w, "not_modelled", l->unmodelled);
        JSONW_KEY(&w, "predicted");
        jsonw_begin_object(&w, JSONW_INLINE);
        JSONW_KV_INT(&w, "wavefronts", l->wavefronts);
        JSONW_KV_INT(&w, "ideal_wavefronts", l->ideal_wavefronts);
        JSONW_KV_INT(&w, "conflict_degree", l->ninstr ? l->degree : 0);
        jsonw_end_object(&w);
        record_measured_json_line(&w, m, i);
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    JSONW_KEY(&w, "not_visible");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int i = 0; i < b->ninvisible; i++) {
        jsonw_begin_object(&w, JSONW_INLINE);
        JSONW_KV_INT(&w, "pc", (int64_t)b->invisible[i]->pc);
        JSONW_KV_STRING(&w, "sass", b->invisible[i]->text);
        JSONW_KV_STRING(&w, "source", source_of(b->invisible[i], src, sizeof src));
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    JSONW_KEY(&w, "trace");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int64_t i = 0; i < c->nentries; i++)
        if (b->trace_index[i] >= 0)
            json_entry(&w, b, i);
    jsonw_end_array(&w);
    jsonw_end_object(&w);
    *ok = jsonw_finish(&w, why);
    free(name);
    strbuf_free(&db);
}

void record_book_print(const record_book *b, FILE *out)
{
    const record_capture *c = b->cap;
    char t[512];
    textsafe(c->demangled, t, sizeof t - 4);
    if (strlen(t) < strlen(c->demangled)) /* a long name is cut on screen, and says so */
        strcat(t, "\xe2\x80\xa6");
    fprintf(out, "%s, launch %lld, block (%u,%u,%u) of grid (%u,%u,%u), block %ux%ux%u, on %s (%s)\n", t,
            (long long)c->launch, c->block[0], c->block[1], c->block[2], c->grid[0], c->grid[1], c->grid[2],
            c->block_dim[0], c->block_dim[1], c->block_dim[2], c->device, b->arch);
    fprintf(out, "%lld warp-instructions captured at %d SASS instructions%s\n", (long long)c->nentries, b->npcs,
            c->executed > c->nentries ? "" : "");
    if (c->executed > c->nentries)
        fprintf(out, "truncated: the block executed %lld; the first %lld are kept (--max-instructions)\n",
                (long long)c->executed, (long long)c->nentries);
    if (!b->sass->has_lines)
        fprintf(out,
                "no line info: build the program with nvcc -lineinfo to see source lines (PCs and SASS are kept)\n");
    fputc('\n', out);
    record_row_header(out);
    int64_t tw = 0, ti = 0, tn = 0;
    for (int i = 0; i < b->nlines; i++) {
        const record_line *l = &b->lines[i];
        char kind[32] = "";
        for (int k = 0; k < b->npcs && !kind[0]; k++)
            if (b->pcs[k].line == i && b->pcs[k].problem)
                recording_kind_name(b->pcs[k].sass ? b->pcs[k].sass->text : NULL, kind, sizeof kind);
        record_row_print(out, l->file, l->line, l->text, l->ninstr, l->wavefronts, l->ideal_wavefronts,
                         l->ninstr ? l->degree : 0, l->unmodelled, kind);
        tw += l->wavefronts;
        ti += l->ideal_wavefronts;
        tn += l->ninstr;
    }
    fprintf(out, "%-28s %8lld %10lld %10lld\n", "total", (long long)tn, (long long)tw, (long long)ti);
    for (int k = 0; k < b->npcs; k++)
        if (b->pcs[k].problem)
            fprintf(out, "not modelled: %s at pc 0x%llx (%s), %lld executions\n",
                    b->pcs[k].sass ? textsafe(b->pcs[k].sass->text, t, sizeof t) : "?",
                    (unsigned long long)b->pcs[k].pc, b->pcs[k].problem, (long long)b->pcs[k].executions);
    for (int i = 0; i < b->ninvisible; i++)
        fprintf(out,
                "measured only: %s at pc 0x%llx (its shared-memory side passes no callback: no address is "
                "recorded, the count run measures it on its line)\n",
                textsafe(b->invisible[i]->text, t, sizeof t), (unsigned long long)b->invisible[i]->pc);
    fprintf(out, "\nOne block of one launch, for this input: other blocks, launches or inputs may differ.\n");
}
