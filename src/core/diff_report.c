/* diff_report: `diff` output as text and JSON (diff_report.h). */
#include <stdio.h>
#include <string.h>

#include "core/diff_report.h"
#include "io/jsonw.h"
#include "io/textsafe.h"

/* The last component of a path. */
static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "";
}

/* "transpose.cu:22" of one side, or "-". */
static const char *where(const diff_side *d, char *buf, size_t n)
{
    if (!d->present)
        snprintf(buf, n, "-");
    else if (d->line)
        snprintf(buf, n, "%.40s:%d", base_name(d->file), d->line);
    else
        snprintf(buf, n, "(no line info)");
    return buf;
}

/* A number, or "-" when not known. */
static const char *num(bool known, int64_t v, char *buf, size_t n)
{
    if (known)
        snprintf(buf, n, "%lld", (long long)v);
    else
        snprintf(buf, n, "-");
    return buf;
}

/* A change, signed, or "-". */
static const char *change(bool known, int64_t v, char *buf, size_t n)
{
    if (known)
        snprintf(buf, n, "%+lld", (long long)v);
    else
        snprintf(buf, n, "-");
    return buf;
}

void diff_report_text(const diff_report *p, FILE *f)
{
    const diff_result *d = p->d;
    const char *fa = p->a, *fb = p->b;
    char t1[300], t2[300];
    fprintf(f, "diff %s -> %s: lines matched by file and text, then by line number\n", textsafe(fa, t1, sizeof t1),
            textsafe(fb, t2, sizeof t2));
    fprintf(f,
            "predicted: wavefronts of the recorded block (the model); measured: the whole launch (the hardware)\n\n");
    fprintf(f, "%-22s %-22s %10s %10s %7s %12s %12s %10s  %s\n", "line A", "line B", "A pred.", "B pred.", "change",
            "A measured", "B measured", "change", "source");
    for (int i = 0; i < d->n; i++) {
        const diff_row *r = &d->rows[i];
        char wa[64], wb[64], n1[32], n2[32], n3[32], n4[32], n5[32], n6[32], t[200];
        const diff_side *s = r->a.present ? &r->a : &r->b;
        fprintf(f, "%-22s %-22s %10s %10s %7s %12s %12s %10s  %.60s\n", where(&r->a, wa, sizeof wa),
                where(&r->b, wb, sizeof wb), num(r->a.present, r->a.predicted, n1, sizeof n1),
                num(r->b.present, r->b.predicted, n2, sizeof n2),
                change(r->a.present && r->b.present, r->b.predicted - r->a.predicted, n3, sizeof n3),
                num(r->a.measured_known, r->a.measured, n4, sizeof n4),
                num(r->b.measured_known, r->b.measured, n5, sizeof n5),
                change(r->a.measured_known && r->b.measured_known, r->b.measured - r->a.measured, n6, sizeof n6),
                s->text ? textsafe(s->text + strspn(s->text, " \t"), t, sizeof t) : "");
    }
    char n1[32], n2[32], n3[32], n4[32], n5[32], n6[32];
    fprintf(f, "%-22s %-22s %10lld %10lld %7s %12s %12s %10s\n", "total", "", (long long)d->total_a,
            (long long)d->total_b, change(true, d->total_b - d->total_a, n3, sizeof n3),
            num(d->measured_a, d->total_measured_a, n1, sizeof n1),
            num(d->measured_b, d->total_measured_b, n2, sizeof n2),
            change(d->measured_a && d->measured_b, d->total_measured_b - d->total_measured_a, n4, sizeof n4));
    (void)n5;
    (void)n6;
    if (d->unmatched)
        fprintf(f, "%d line%s in one of them only ('-' on the other side)\n", d->unmatched,
                d->unmatched == 1 ? "" : "s");
}

/* One side of a line as a JSON member (null when the line is not in that file). */
static void side_json(jsonw *w, const char *key, const diff_side *s)
{
    jsonw_key(w, key);
    if (!s->present) {
        jsonw_null(w);
        return;
    }
    jsonw_begin_object(w, JSONW_INLINE);
    if (s->file)
        JSONW_KV_STRING(w, "file", s->file);
    else
        JSONW_KV_NULL(w, "file");
    JSONW_KV_INT(w, "line", s->line);
    if (s->text)
        JSONW_KV_STRING(w, "text", s->text);
    else
        JSONW_KV_NULL(w, "text");
    JSONW_KV_INT(w, "predicted", s->predicted);
    JSONW_KV_INT(w, "predicted_ideal", s->predicted_ideal);
    if (s->measured_known) {
        JSONW_KV_INT(w, "measured", s->measured);
        JSONW_KV_INT(w, "measured_ideal", s->measured_ideal);
    } else {
        JSONW_KV_NULL(w, "measured");
        JSONW_KV_NULL(w, "measured_ideal");
    }
    jsonw_end_object(w);
}

bool diff_report_json(const diff_report *p, FILE *f, const char **why)
{
    const diff_result *d = p->d;
    const char *fa = p->a, *fb = p->b;
    static jsonw w;
    jsonw_init(&w, f);
    jsonw_begin_object(&w, JSONW_LINES);
    JSONW_KV_STRING(&w, "format", "bankscope-diff/1");
    JSONW_KV_STRING(&w, "a", fa);
    JSONW_KV_STRING(&w, "b", fb);
    JSONW_KEY(&w, "lines");
    jsonw_begin_array(&w, JSONW_LINES);
    for (int i = 0; i < d->n; i++) {
        const diff_row *r = &d->rows[i];
        jsonw_begin_object(&w, JSONW_INLINE);
        JSONW_KV_STRING(&w, "matched_by", r->by_text ? "text" : r->a.present && r->b.present ? "line" : "none");
        side_json(&w, "a", &r->a);
        side_json(&w, "b", &r->b);
        if (r->a.present && r->b.present)
            JSONW_KV_INT(&w, "predicted_change", r->b.predicted - r->a.predicted);
        else
            JSONW_KV_NULL(&w, "predicted_change");
        if (r->a.measured_known && r->b.measured_known)
            JSONW_KV_INT(&w, "measured_change", r->b.measured - r->a.measured);
        else
            JSONW_KV_NULL(&w, "measured_change");
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    JSONW_KEY(&w, "total");
    jsonw_begin_object(&w, JSONW_INLINE);
    JSONW_KV_INT(&w, "a_predicted", d->total_a);
    JSONW_KV_INT(&w, "b_predicted", d->total_b);
    if (d->measured_a)
        JSONW_KV_INT(&w, "a_measured", d->total_measured_a);
    else
        JSONW_KV_NULL(&w, "a_measured");
    if (d->measured_b)
        JSONW_KV_INT(&w, "b_measured", d->total_measured_b);
    else
        JSONW_KV_NULL(&w, "b_measured");
    jsonw_end_object(&w);
    jsonw_end_object(&w);
    return jsonw_finish(&w, why);
}
