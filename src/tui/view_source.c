/* view_source: the source view's input (see view_source.h), made from a scenario's source
 * locations, and the gutter's numbers from the model. The mode that shows them on the pager is
 * mode_source.c. */
#include "tui/view_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"

/* Where access ac comes from: its source location, else its "FILE:LINE:COL" label. */
static bool access_where(const scenario_access *ac, char *file, size_t n, int *line, const char **text)
{
    *text = ac->source;
    if (ac->at.file && ac->at.line > 0) {
        snprintf(file, n, "%s", ac->at.file);
        *line = ac->at.line;
        if (ac->at.text)
            *text = ac->at.text;
        return true;
    }
    const char *l = ac->label;
    if (!l)
        return false;
    /* FILE:LINE:COL, the file name possibly holding colons itself */
    const char *c2 = strrchr(l, ':');
    if (!c2 || c2 == l)
        return false;
    const char *c1 = c2 - 1;
    while (c1 > l && *c1 != ':')
        c1--;
    if (c1 == l || c2 - c1 < 2)
        return false;
    char *end;
    long v = strtol(c1 + 1, &end, 10);
    if (end != c2 || v < 1 || v > 100000000)
        return false;
    snprintf(file, n, "%.*s", (int)(c1 - l), l);
    *line = (int)v;
    return true;
}

/* Where entry i comes from: an access's location, or a recording's trace entry's (trace_at). */
static bool entry_where(const scenario *s, int i, char *file, size_t n, int *line, const char **text)
{
    if (!s->is_trace)
        return access_where(&s->accesses[i], file, n, line, text);
    const scenario_srcloc *at = s->trace_at ? &s->trace_at[i] : NULL;
    if (!at || !at->file || at->line < 1)
        return false;
    snprintf(file, n, "%s", at->file);
    *line = at->line;
    *text = at->text;
    return true;
}

/* Cut text (owned, modified) into the lines of src. */
static void split_lines(char *text, tui_source *src)
{
    int cap = 64;
    src->text = xmalloc(sizeof *src->text * (size_t)cap);
    for (char *p = text; p && *p;) {
        if (src->nlines == cap)
            src->text = xrealloc(src->text, sizeof *src->text * (size_t)(cap *= 2));
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len && p[len - 1] == '\r')
            len--;
        src->text[src->nlines] = xmalloc(len + 1);
        memcpy(src->text[src->nlines], p, len);
        src->text[src->nlines++][len] = '\0';
        p = nl ? nl + 1 : NULL;
    }
}

bool source_from_scenario(const scenario *s, tui_source *out)
{
    memset(out, 0, sizeof *out);
    if (s->is_trace && !s->trace_at)
        return false;                 /* a trace without source lines (not a recording) */
    int n = scenario_access_count(s); /* a recording: one "access" per trace entry */
    out->naccesses = n;
    out->line_of = xcalloc((size_t)(n > 0 ? n : 1), sizeof *out->line_of);
    char file[1024] = "", f[1024];
    int maxline = 0;
    for (int i = 0; i < n; i++) {
        int line;
        const char *text;
        if (!entry_where(s, i, f, sizeof f, &line, &text))
            continue;
        if (!file[0])
            snprintf(file, sizeof file, "%s", f);
        if (strcmp(f, file) != 0) /* one file at a time: the kernel's */
            continue;
        out->line_of[i] = line;
        maxline = line > maxline ? line : maxline;
    }
    if (!file[0]) {
        source_free(out);
        return false;
    }
    out->file = xstrdup(file);
    io_error err;
    size_t len;
    char *whole = load_read_file(file, &len, &err);
    if (whole) {
        split_lines(whole, out);
        free(whole);
    }
    if (out->nlines < maxline) { /* not on disk (or changed since): the lines the accesses carry */
        out->text = xrealloc(out->text, sizeof *out->text * (size_t)maxline);
        for (int l = out->nlines; l < maxline; l++)
            out->text[l] = NULL;
        out->nlines = maxline;
        for (int i = 0; i < n; i++) {
            int line = out->line_of[i];
            const char *text;
            if (line > 0 && !out->text[line - 1] && entry_where(s, i, f, sizeof f, &line, &text) && text)
                out->text[line - 1] = xstrdup(text);
        }
    }
    return true;
}

void source_free(tui_source *src)
{
    for (int i = 0; i < src->nlines; i++)
        free(src->text[i]);
    free(src->text);
    for (int i = 0; i < src->nskipped; i++)
        free(src->skipped[i]);
    free(src->skipped);
    free(src->line_of);
    free(src->file);
    memset(src, 0, sizeof *src);
}

void source_costs(const scenario *s, const tui_source *src, tui_source_cost *costs)
{
    for (int l = 0; l < src->nlines; l++)
        costs[l] = (tui_source_cost){.first_access = -1};
    for (int i = src->naccesses - 1; i >= 0; i--)
        if (src->line_of[i] > 0 && src->line_of[i] <= src->nlines)
            costs[src->line_of[i] - 1].first_access = i;
    scenario_instr in;
    banks_result r;
    int64_t total = scenario_instr_count(s);
    for (int64_t k = 0; k < total; k++) { /* every warp-instruction, as analyze sums them */
        scenario_instr_at(s, k, &in);
        int acc = s->is_trace ? (int)k : in.access; /* a trace's warp-instruction k is its entry k */
        if (acc < 0 || acc >= src->naccesses)
            continue;
        int line = src->line_of[acc];
        if (line < 1 || line > src->nlines)
            continue;
        banks_analyze(s->arch, &in.req, &r, NULL);
        tui_source_cost *c = &costs[line - 1];
        c->wavefronts += r.wavefronts;
        c->ideal += r.ideal_wavefronts;
        if (r.conflict_degree > c->worst)
            c->worst = r.conflict_degree;
        if (c->worst == 0)
            c->worst = 1; /* a line with an access: at least conflict-free */
    }
}
