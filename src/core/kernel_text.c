/* kernel_text: the sections `bankscope kernel` prints, for the command and the TUI's kernel view. */
#include "core/kernel_text.h"

#include <stdio.h>
#include <string.h>

#include "io/textsafe.h"
#include "model/kernelgen.h"

void kernel_text_header(const scenario *s, const char *name, const measure_plan *p, strbuf *out)
{
    char f[600];
    strbuf_addf(out, "// ==== %s, %s %d, %zu bytes of shared memory, block %dx%dx%d%s\n", textsafe(name, f, sizeof f),
                scenario_has_layout(s) ? "access" : "trace entry", p->access, p->rq.smem_bytes, p->rq.block[0],
                p->rq.block[1], p->rq.block[2], s->nloops ? ", loop value passed as bs_loop" : "");
}

/* Lines in text[0, len). */
static int count_lines(const char *text, size_t len)
{
    int k = 0;
    for (size_t i = 0; i < len; i++)
        k += text[i] == '\n';
    return k;
}

bool kernel_text(const scenario *s, const char *name, int first, int end, int iteration, strbuf *out,
                 kernel_text_span *spans, char *err, size_t n)
{
    int lines = count_lines(strbuf_str(out), out->len); /* kept running: each section counts only itself */
    int64_t smem = kernelgen_smem_bytes(s);             /* once: a trace's reads every entry */
    for (int a = first; a < end; a++) {
        measure_plan p;
        char msg[600];
        if (!measure_plan_make_sized(s, a, iteration, smem, &p, msg, sizeof msg)) {
            snprintf(err, n, "access %d: %s", a, msg);
            return false;
        }
        kernel_text_span sp = {.head = lines};
        size_t head_at = out->len;
        kernel_text_header(s, name, &p, out);
        size_t at = out->len;
        strbuf_add(out, p.rq.source, strlen(p.rq.source));
        sp.body_first = sp.body_end = sp.head + 1;
        /* the access's own lines: the same generator with a template that is only the body, found
         * again in the whole source (no second generator, no knowledge of the template) */
        strbuf body = {0};
        if (kernelgen_source(s, a, "@BODY@", &body, msg, sizeof msg) && body.len > 0) {
            const char *hit = strstr(strbuf_str(out) + at, strbuf_str(&body));
            if (hit) {
                sp.body_first = sp.head + 1 + count_lines(strbuf_str(out) + at, (size_t)(hit - (strbuf_str(out) + at)));
                sp.body_end = sp.body_first + count_lines(body.data, body.len);
            }
        }
        strbuf_free(&body);
        sp.end = lines = sp.head + count_lines(strbuf_str(out) + head_at, out->len - head_at);
        if (spans)
            spans[a - first] = sp;
        measure_plan_free(&p);
    }
    return true;
}
