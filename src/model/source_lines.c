/* source_lines: builds the per-line rows of the source view from a scenario (see
 * source_lines.h): where each access comes from, the rows of the file and the extra rows, a
 * recording's measured numbers and an import's skips. */
#include "source_lines.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int count_lines(const char *text, size_t len);

/* Where one access (trace entry) comes from; borrowed strings. */
typedef struct where {
    const char *file; /* NULL with line 0: no line info; NULL with line -1: not located */
    int line;
    const char *text;
} where;

bool source_lines_parse_label(const char *label, char *file, size_t n, int *line)
{
    if (!label)
        return false;
    /* from the right: ":COL" is optional, ":LINE" is not; the file name may hold colons itself */
    const char *end = label + strlen(label);
    long nums[2];
    int k = 0;
    const char *p = end;
    while (k < 2) {
        const char *q = p;
        while (q > label && isdigit((unsigned char)q[-1]))
            q--;
        if (q == p || q == label || q[-1] != ':' || p - q > 9)
            break;
        nums[k++] = strtol(q, NULL, 10);
        p = q - 1;
    }
    if (k == 0 || p == label)
        return false;
    bool path = false; /* a file name has a dot or a slash: "row 3:4" is a label, not a place */
    for (const char *c = label; c < p && !path; c++)
        path = *c == '.' || *c == '/';
    if (!path)
        return false;
    long l = k == 2 ? nums[1] : nums[0];
    if (l < 1)
        return false;
    snprintf(file, n, "%.*s", (int)(p - label), label);
    *line = (int)l;
    return true;
}

bool source_lines_parse_skip(const char *msg, char *buf, size_t n, source_skip *out)
{
    const char *k = msg ? strstr(msg, ": skipped ") : NULL;
    if (!k || (size_t)(k - msg) >= n)
        return false;
    char head[4096];
    snprintf(head, sizeof head, "%.*s", (int)(k - msg), msg);
    int line;
    if (!source_lines_parse_label(head, buf, n, &line))
        return false;
    const char *c = strrchr(head, ':'); /* the column, when the place has one */
    int col = c && strlen(buf) < (size_t)(c - head) ? atoi(c + 1) : 0;
    *out = (source_skip){buf, line, col, msg};
    return true;
}

/* The location of every access of s into w (count entries). Label files are written into
 * labels (one buffer per access, owned by the caller). */
static void locate(const scenario *s, const source_record_line *rec, int nrec, where *w, int count, char (*labels)[512])
{
    for (int i = 0; i < count; i++)
        w[i] = (where){NULL, -1, NULL};
    if (nrec == 0 && scenario_has_source_map(s)) { /* a recording's entries located by the loader */
        for (int i = 0; i < count; i++) {
            const scenario_srcloc *at = &s->trace_at[i];
            if (at->file && at->line > 0)
                w[i] = (where){at->file, at->line, at->text};
        }
        return;
    }
    if (!scenario_has_layout(s)) {
        for (int r = 0; r < nrec; r++)
            for (int k = 0; k < rec[r].ninstructions; k++) {
                int64_t e = rec[r].instructions[k];
                if (e >= 0 && e < count)
                    w[e] = (where){rec[r].file, rec[r].file ? rec[r].line : 0, rec[r].text};
            }
        return;
    }
    for (int i = 0; i < count; i++) {
        const scenario_access *ac = &s->accesses[i];
        const char *text = ac->at.text ? ac->at.text : ac->source;
        int line;
        if (ac->at.file && ac->at.line > 0)
            w[i] = (where){ac->at.file, ac->at.line, text};
        else if (source_lines_parse_label(ac->label, labels[i], sizeof labels[i], &line))
            w[i] = (where){labels[i], line, text};
    }
}

/* Whether a file name is a CUDA source file (.cu): the kernel's, rather than a header inlined
 * into it (a toolkit header's atomicAdd, say). */
static bool is_cu(const char *f)
{
    size_t n = strlen(f);
    return n > 3 && strcmp(f + n - 3, ".cu") == 0;
}

/* The file the view shows: of the files the accesses come from, a .cu one before a header, then
 * the one with the most accesses (the first such on a tie); NULL when none has a file. Linear in
 * the accesses (a recording has up to a million), times the few distinct files. */
static const char *main_file(const where *w, int count)
{
    enum { MAX_FILES = 64 };
    const char *files[MAX_FILES] = {0};
    int counts[MAX_FILES], nf = 0, last = -1;
    for (int i = 0; i < count; i++) {
        const char *f = w[i].file;
        if (!f)
            continue;
        if (last < 0 || (files[last] != f && strcmp(files[last], f) != 0)) {
            last = -1;
            for (int k = 0; k < nf && last < 0; k++)
                if (files[k] == f || strcmp(files[k], f) == 0)
                    last = k;
            if (last < 0 && nf == MAX_FILES)
                continue; /* beyond the first 64 files: counted nowhere */
            if (last < 0) {
                files[nf] = f;
                counts[nf] = 0;
                last = nf++;
            }
        }
        counts[last]++;
    }
    int best = -1;
    for (int k = 0; k < nf; k++)
        if (best < 0 || is_cu(files[k]) > is_cu(files[best]) ||
            (is_cu(files[k]) == is_cu(files[best]) && counts[k] > counts[best]))
            best = k;
    return best < 0 ? NULL : files[best];
}

const char *source_lines_file(const scenario *s, const source_record_line *rec, int nrec, char *buf, size_t n)
{
    int count = scenario_access_count(s);
    where *w = xmalloc(sizeof *w * (size_t)(count > 0 ? count : 1));
    char(*labels)[512] = !scenario_has_layout(s) ? NULL : xmalloc(sizeof *labels * (size_t)(count > 0 ? count : 1));
    locate(s, rec, nrec, w, count, labels);
    const char *f = main_file(w, count);
    if (f)
        snprintf(buf, n, "%s", f);
    free(w);
    free(labels);
    return f ? buf : NULL;
}

/* Whether line holds text (both without their leading and trailing blanks). */
static bool holds(const char *line, const char *text)
{
    text += strspn(text, " \t");
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\r'))
        n--;
    for (const char *p = line; *p; p++)
        if (strncmp(p, text, n) == 0)
            return true;
    return n == 0;
}

int source_lines_mismatches(const scenario *s, const source_record_line *rec, int nrec, const char *file_text,
                            size_t len, int *matched)
{
    int good = 0;
    int count = scenario_access_count(s), bad = 0, nl = count_lines(file_text, len);
    where *w = xmalloc(sizeof *w * (size_t)(count > 0 ? count : 1));
    char(*labels)[512] = !scenario_has_layout(s) ? NULL : xmalloc(sizeof *labels * (size_t)(count > 0 ? count : 1));
    locate(s, rec, nrec, w, count, labels);
    const char *file = main_file(w, count);
    size_t *start = xmalloc(sizeof *start * (size_t)(nl + 1)), k = 0;
    start[0] = 0;
    for (size_t i = 0; i < len && (int)k < nl; i++)
        if (file_text[i] == '\n')
            start[++k] = i + 1;
    char *line = xmalloc(len + 1);
    int shown = -1; /* the line now in the buffer */
    for (int i = 0; file && i < count; i++) {
        if (!w[i].file || !w[i].text || strcmp(w[i].file, file) != 0)
            continue;
        if (w[i].line > nl) {
            bad++;
            continue;
        }
        if (shown != w[i].line) {
            size_t b = start[w[i].line - 1], e = b;
            while (e < len && file_text[e] != '\n')
                e++;
            memcpy(line, file_text + b, e - b);
            line[e - b] = '\0';
            shown = w[i].line;
        }
        if (!holds(line, w[i].text))
            bad++;
        else if (w[i].text[strspn(w[i].text, " \t\r")])
            good++; /* a text with something in it: an empty one holds in any line */
    }
    free(line);
    free(start);
    free(w);
    free(labels);
    if (matched)
        *matched = good;
    return bad;
}

/* Append access i to row r. */
static void row_add(source_row *r, int i)
{
    if ((r->naccess & (r->naccess - 1)) == 0) /* 0 or a power of two: full, double (linear in all) */
        r->access = xrealloc(r->access, sizeof *r->access * (size_t)(r->naccess ? 2 * r->naccess : 1));
    r->access[r->naccess++] = i;
}

/* The extra rows found by (file, line): an open-addressing table of row numbers (-1: empty), so
 * that a recording whose every entry is on a line of another file costs linear time. */
typedef struct extra_index {
    int *slot;
    size_t mask;
} extra_index;

/* FNV-1a of the file name and the line number. */
static size_t extra_hash(const char *file, int line)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = file ? file : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ (uint32_t)line) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

/* The extra row for (file, line), added when there is none yet. */
static int extra_row(source_lines *sl, int *cap, extra_index *ix, const char *file, int line, const char *text)
{
    size_t at = extra_hash(file, line) & ix->mask;
    for (; ix->slot[at] >= 0; at = (at + 1) & ix->mask) {
        const source_row *x = &sl->rows[ix->slot[at]];
        if (x->line == line && ((!x->file && !file) || (x->file && file && strcmp(x->file, file) == 0)))
            return ix->slot[at];
    }
    if (sl->nrows == *cap)
        sl->rows = xrealloc(sl->rows, sizeof *sl->rows * (size_t)(*cap *= 2));
    source_row *x = &sl->rows[sl->nrows];
    memset(x, 0, sizeof *x);
    x->file = file ? xstrdup(file) : NULL;
    x->line = line;
    x->text = text ? xstrdup(text) : NULL;
    ix->slot[at] = sl->nrows;
    return sl->nrows++;
}

/* The file's text cut into the first nfile rows (at most max lines). */
static int file_lines(const char *text, size_t len, source_row *rows, int max)
{
    int n = 0;
    size_t p = 0;
    while (p < len && n < max) {
        const char *nl = memchr(text + p, '\n', len - p);
        size_t e = nl ? (size_t)(nl - text) : len, l = e - p;
        if (l && text[p + l - 1] == '\r')
            l--;
        char *t = xmalloc(l + 1);
        memcpy(t, text + p, l);
        t[l] = '\0';
        rows[n++].text = t;
        p = e + 1;
    }
    return n;
}

/* Lines of text (a final line without a newline counts). */
static int count_lines(const char *text, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    return n + (len > 0 && text[len - 1] != '\n');
}

/* Whether text (up to a // comment) names identifier id as a whole word. */
static bool names_word(const char *text, const char *id)
{
    size_t n = strlen(id);
    const char *cmt = strstr(text, "//");
    for (const char *p = strstr(text, id); p && (!cmt || p < cmt); p = strstr(p + 1, id)) {
        bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return true;
    }
    return false;
}

/* Mark the rows between the first and last located access that name an array of s but hold no
 * access (and no skip message): an access the import may have left out. */
static void mark_names(const scenario *s, source_lines *sl)
{
    int lo = 0, hi = -1;
    for (int r = 0; r < sl->nfile; r++)
        if (sl->rows[r].naccess) {
            lo = hi < 0 ? r : lo;
            hi = r;
        }
    for (int r = lo; r <= hi; r++) {
        source_row *x = &sl->rows[r];
        if (x->naccess || x->nskipped || !x->text || strstr(x->text, "__shared__"))
            continue;
        for (int a = 0; a < s->narrays && !x->names_array; a++)
            x->names_array = s->arrays[a].name && names_word(x->text, s->arrays[a].name);
    }
}

/* Add m's measured counts into the row's (bounded by the reader: the sums fit). */
static void add_measured(source_row *x, const source_measured *m)
{
    if (!m->known)
        return;
    source_measured *d = &x->measured;
    d->known = true;
    d->wavefronts += m->wavefronts;
    d->ideal_wavefronts += m->ideal_wavefronts;
    d->instructions += m->instructions;
    d->second_differs = d->second_differs || m->second_differs; /* agreement: computed by the caller */
}

/* Whether a (possibly longer) path and the shown file name the same file: equal, or one is
 * the other's last components ("dir/k.cu" and "k.cu"). */
static bool same_file(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la < lb) {
        const char *t = a;
        a = b;
        b = t;
        size_t tl = la;
        la = lb;
        lb = tl;
    }
    return strcmp(a + la - lb, b) == 0 && (la == lb || a[la - lb - 1] == '/');
}

/* Whether a recording's line holds no trace entry and only the launch's measured numbers (its
 * instructions have no callback: TMA, wgmma operands), so that its row comes from the line itself. */
static bool measured_only(const source_record_line *l)
{
    return l->ninstructions == 0 && l->measured.known && l->file && l->line >= 1;
}

/* Without the file at hand, its rows go at most this far; a location past the file's end (or
 * past this) gets a row of its own after the file's rows, so that a location naming line
 * 99999999 costs one row, not a hundred million. */
#define SOURCE_LINES_MAX_FILE (1 << 20)

bool source_lines_layout(const scenario *s, const char *file_text, size_t len, const source_record_line *rec, int nrec,
                         const source_skip *skips, int nskips, source_lines *out, char *why, size_t n)
{
    memset(out, 0, sizeof *out);
    int count = scenario_access_count(s);
    where *w = xmalloc(sizeof *w * (size_t)(count > 0 ? count : 1));
    char(*labels)[512] = !scenario_has_layout(s) ? NULL : xmalloc(sizeof *labels * (size_t)(count > 0 ? count : 1));
    locate(s, rec, nrec, w, count, labels);
    const char *file = main_file(w, count);
    bool any = file != NULL;
    for (int i = 0; i < count && !any; i++)
        any = w[i].line == 0; /* a recording without line info still has its rows */
    if (!any) {
        snprintf(why, n, "%s",
                 !scenario_has_layout(s)
                     ? (nrec ? "the recording's lines hold no instruction"
                             : "a trace carries no source lines (a recording of bankscope record does)")
                     : "the accesses do not say where they come from (bankscope FILE.cu does)");
        free(w);
        free(labels);
        return false;
    }
    out->recording = !scenario_has_layout(s);
    out->file = file ? xstrdup(file) : NULL;
    int maxline = 0;
    int flines = file_text ? count_lines(file_text, len) : 0;
    int limit = file_text ? flines : SOURCE_LINES_MAX_FILE;
    for (int i = 0; i < count; i++)
        if (file && w[i].file && strcmp(w[i].file, file) == 0 && w[i].line > maxline && w[i].line <= limit)
            maxline = w[i].line;
    for (int r = 0; !scenario_has_layout(s) && r < nrec; r++) /* lines measured only have rows too */
        if (measured_only(&rec[r]) && file && strcmp(rec[r].file, file) == 0 && rec[r].line > maxline &&
            rec[r].line <= limit)
            maxline = rec[r].line;
    out->nfile = flines > maxline ? flines : maxline;
    int cap = out->nfile + 16;
    out->rows = xcalloc((size_t)cap, sizeof *out->rows);
    out->nrows = out->nfile;
    for (int r = 0; r < out->nfile; r++)
        out->rows[r].line = r + 1;
    if (file_text)
        file_lines(file_text, len, out->rows, out->nfile);
    int *row_of = xmalloc(sizeof *row_of * (size_t)(count > 0 ? count : 1));
    extra_index ix = {.mask = 15};
    while (ix.mask < 2 * ((size_t)count + (size_t)nskips + (size_t)(nrec > 0 ? nrec : 0))) /* at most half full */
        ix.mask = 2 * ix.mask + 1;
    ix.slot = xmalloc((ix.mask + 1) * sizeof *ix.slot);
    memset(ix.slot, 0xff, (ix.mask + 1) * sizeof *ix.slot);
    for (int i = 0; i < count; i++) {
        row_of[i] = -1;
        if (w[i].line < 0) {
            out->unlocated++;
            continue;
        }
        if (file && w[i].file && strcmp(w[i].file, file) == 0 && w[i].line >= 1 && w[i].line <= out->nfile) {
            source_row *x = &out->rows[w[i].line - 1];
            if (!x->text && w[i].text) /* the file is not at hand: the text the location carries */
                x->text = xstrdup(w[i].text);
            else if (x->text && w[i].text && !holds(x->text, w[i].text) && !x->stale) {
                x->stale = true; /* the file is not the one the locations were taken from */
                out->stale++;
            }
            row_of[i] = w[i].line - 1;
        } else {
            row_of[i] = extra_row(out, &cap, &ix, w[i].file, w[i].line, w[i].text);
        }
        row_add(&out->rows[row_of[i]], i);
    }
    for (int r = 0; !scenario_has_layout(s) && r < nrec; r++) { /* a line's measured numbers, on its row */
        int row = -1;
        for (int k = 0; k < rec[r].ninstructions && row < 0; k++)
            if (rec[r].instructions[k] >= 0 && rec[r].instructions[k] < count)
                row = row_of[rec[r].instructions[k]];
        if (row < 0 && measured_only(&rec[r])) { /* no trace entry: the line's own row, as analyze lists it */
            bool own = file && strcmp(rec[r].file, file) == 0 && rec[r].line >= 1 && rec[r].line <= out->nfile;
            row = own ? rec[r].line - 1 : extra_row(out, &cap, &ix, rec[r].file, rec[r].line, rec[r].text);
            if (!out->rows[row].text && rec[r].text)
                out->rows[row].text = xstrdup(rec[r].text);
        }
        if (row >= 0 && rec[r].measured.known) {
            add_measured(&out->rows[row], &rec[r].measured);
            out->measured = true;
        }
    }
    for (int k = 0; k < nskips; k++) { /* the import's messages, on their lines */
        const source_skip *sk = &skips[k];
        int row = file && sk->file && same_file(sk->file, file) && sk->line >= 1 && sk->line <= out->nfile
                      ? sk->line - 1
                      : extra_row(out, &cap, &ix, sk->file, sk->line, NULL);
        source_row *x = &out->rows[row];
        x->skipped = xrealloc(x->skipped, sizeof *x->skipped * (size_t)(x->nskipped + 1));
        x->skipped[x->nskipped++] = xstrdup(sk->message ? sk->message : "skipped");
    }
    if (scenario_has_layout(s) && !skips) /* the importer's messages are not at hand: say where one may be missing */
        mark_names(s, out);
    out->row_of = row_of;
    out->naccess = count;
    free(ix.slot);
    free(w);
    free(labels);
    return true;
}

void source_lines_free(source_lines *sl)
{
    for (int r = 0; r < sl->nrows; r++) {
        source_row *x = &sl->rows[r];
        free(x->file);
        free(x->text);
        free(x->access);
        free(x->measured.why);
        for (int k = 0; k < x->nskipped; k++)
            free(x->skipped[k]);
        free(x->skipped);
    }
    free(sl->rows);
    free(sl->file);
    free(sl->row_of);
    memset(sl, 0, sizeof *sl);
}

/* Cost order for qsort: the wavefronts beyond ideal, then the wavefronts, descending; then
 * position (a total order, so the sort is stable). */
static int costlier_cmp(const void *pa, const void *pb, const source_lines *sl)
{
    int ia = *(const int *)pa, ib = *(const int *)pb;
    const source_row *a = &sl->rows[ia], *b = &sl->rows[ib];
    int64_t ea = a->wavefronts - a->ideal, eb = b->wavefronts - b->ideal;
    if (ea != eb)
        return ea > eb ? -1 : 1;
    if (a->wavefronts != b->wavefronts)
        return a->wavefronts > b->wavefronts ? -1 : 1;
    return (ia > ib) - (ia < ib);
}

/* qsort's comparator carries no context: the rows to order go with each key. */
typedef struct order_key {
    int row;
    const source_lines *sl;
} order_key;

static int order_cmp(const void *a, const void *b)
{
    const order_key *x = a, *y = b;
    return costlier_cmp(&x->row, &y->row, x->sl);
}

int source_lines_order(const source_lines *sl, bool sorted, int *order)
{
    int k = 0;
    for (int r = 0; r < sl->nrows; r++)
        if (!sorted || sl->rows[r].naccess > 0)
            order[k++] = r;
    if (!sorted || k < 2)
        return k;
    order_key *keys = xmalloc(sizeof *keys * (size_t)k); /* n log n: a recording has many lines */
    for (int i = 0; i < k; i++)
        keys[i] = (order_key){order[i], sl};
    qsort(keys, (size_t)k, sizeof *keys, order_cmp);
    for (int i = 0; i < k; i++)
        order[i] = keys[i].row;
    free(keys);
    return k;
}
