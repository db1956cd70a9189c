/* diff_lines: two files' source rows matched line by line (diff_lines.h). */
#include "core/diff_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/load.h"
#include "io/recording.h"
#include "core/line_sums.h"
#include "model/source_lines.h"
#include "util.h"

/* One file's rows with instructions as sides. */
typedef struct side_list {
    diff_side *v;
    int n;
} side_list;

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p;
}

/* Load path and turn its source rows into sides; false with err. */
static bool load_sides(const char *path, const char *arch, side_list *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    scenario s;
    io_error e;
    recording_doc *doc = NULL; /* a recording's members, read in the same pass as its trace */
    if (!load_scenario_file_doc(path, arch, &s, &doc, &e)) {
        snprintf(err, n, "%s", e.text);
        return false;
    }
    int rc = doc ? doc->rc : 0;
    if (rc < 0) {
        snprintf(err, n, "%s", doc->err.text);
        recording_doc_drop(doc);
        scenario_free(&s);
        return false;
    }
    const recording *rec = rc > 0 ? &doc->r : NULL;
    source_lines sl;
    char why[300];
    bool ok =
        line_sums_source(&s, NULL, 0, rec ? rec->rows : NULL, rec ? rec->nrows : 0, NULL, 0, &sl, why, sizeof why);
    if (!ok) {
        snprintf(err, n, "%s: %s", path, why);
    } else {
        out->v = xcalloc((size_t)(sl.nrows > 0 ? sl.nrows : 1), sizeof *out->v);
        for (int i = 0; i < sl.nrows; i++) {
            const source_row *r = &sl.rows[i];
            if (r->instructions == 0)
                continue;
            diff_side *d = &out->v[out->n++];
            const char *file = r->file ? r->file : i < sl.nfile ? sl.file : NULL;
            d->present = true;
            d->file = file ? xstrdup(file) : NULL;
            d->text = r->text ? xstrdup(r->text) : NULL;
            d->line = r->line;
            d->predicted = r->wavefronts;
            d->predicted_ideal = r->ideal;
            d->measured_known = r->measured.known;
            d->measured = (int64_t)r->measured.wavefronts;
            d->measured_ideal = (int64_t)r->measured.ideal_wavefronts;
        }
        source_lines_free(&sl);
    }
    recording_doc_drop(doc);
    scenario_free(&s);
    return ok;
}

/* Whether two optional file names name the same file by their last component. */
static bool same_file(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(base_name(a), base_name(b)) == 0;
}

/* Whether two texts are equal once spaces at their ends are left out (neither NULL). */
static bool same_text(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    a += strspn(a, " \t");
    b += strspn(b, " \t");
    size_t la = strlen(a), lb = strlen(b);
    while (la && (a[la - 1] == ' ' || a[la - 1] == '\t' || a[la - 1] == '\r'))
        la--;
    while (lb && (b[lb - 1] == ' ' || b[lb - 1] == '\t' || b[lb - 1] == '\r'))
        lb--;
    return la == lb && memcmp(a, b, la) == 0;
}

void diff_result_free(diff_result *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->rows[i].a.file);
        free(d->rows[i].a.text);
        free(d->rows[i].b.file);
        free(d->rows[i].b.text);
    }
    free(d->rows);
    memset(d, 0, sizeof *d);
}

/* Match A's lines with B's: by file and text first (each of B's lines once), then by file and line
 * number; the rest on one side alone. */
bool diff_lines_files(const char *a, const char *b, const char *arch, diff_result *out, char *err, size_t n)
{
    memset(out, 0, sizeof *out);
    side_list la, lb;
    if (!load_sides(a, arch, &la, err, n))
        return false;
    if (!load_sides(b, arch, &lb, err, n)) {
        for (int i = 0; i < la.n; i++) {
            free(la.v[i].file);
            free(la.v[i].text);
        }
        free(la.v);
        return false;
    }
    int *match = xmalloc(sizeof *match * (size_t)(la.n > 0 ? la.n : 1));
    bool *taken = xcalloc((size_t)(lb.n > 0 ? lb.n : 1), sizeof *taken),
         *by_text = xcalloc((size_t)(la.n > 0 ? la.n : 1), sizeof *by_text);
    for (int i = 0; i < la.n; i++) /* by file and text */
        for (match[i] = -1; match[i] < 0;) {
            int j = 0;
            while (j < lb.n &&
                   (taken[j] || !same_file(la.v[i].file, lb.v[j].file) || !same_text(la.v[i].text, lb.v[j].text)))
                j++;
            if (j < lb.n) {
                match[i] = j;
                taken[j] = by_text[i] = true;
            }
            break;
        }
    for (int i = 0; i < la.n; i++) /* then by line number */
        for (int j = 0; j < lb.n && match[i] < 0; j++)
            if (!taken[j] && same_file(la.v[i].file, lb.v[j].file) && la.v[i].line == lb.v[j].line) {
                match[i] = j;
                taken[j] = true;
            }
    out->rows = xcalloc((size_t)(la.n + lb.n + 1), sizeof *out->rows);
    out->measured_a = la.n > 0;
    out->measured_b = lb.n > 0;
    for (int i = 0; i < la.n; i++) {
        diff_row *r = &out->rows[out->n++];
        r->a = la.v[i];
        if (match[i] >= 0) {
            r->b = lb.v[match[i]];
            r->by_text = by_text[i];
        } else {
            out->unmatched++;
        }
    }
    for (int j = 0; j < lb.n; j++)
        if (!taken[j]) {
            out->rows[out->n++].b = lb.v[j];
            out->unmatched++;
        }
    for (int i = 0; i < out->n; i++) {
        const diff_row *r = &out->rows[i];
        out->total_a += r->a.predicted;
        out->total_b += r->b.predicted;
        out->total_measured_a += r->a.measured;
        out->total_measured_b += r->b.measured;
        if (r->a.present && !r->a.measured_known)
            out->measured_a = false;
        if (r->b.present && !r->b.measured_known)
            out->measured_b = false;
    }
    free(match);
    free(taken);
    free(by_text);
    free(la.v);
    free(lb.v);
    return true;
}
