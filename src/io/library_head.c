/* library_head: the name, title, description, architecture and step count of a catalog entry,
 * streamed from its file (or its built-in text) with jsonstream, every other value skipped: no
 * tree, no analysis, memory bounded by the tokenizer's window whatever the file holds. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "io/safe_open.h"
#include "io/library.h"
#include "util.h"

/* The members read; a second one of them is refused, as the loaders refuse it. */
enum { H_NAME, H_DESCRIPTION, H_ARCH, H_LESSON, H_STEPS, H_N };
static const char *const members[H_N] = {"name", "description", "arch", "lesson", "steps"};

static bool problem(library_head *h, const library_entry *e, const jsonstream *js, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool problem(library_head *h, const library_entry *e, const jsonstream *js, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(h->problem, sizeof h->problem, "%.80s:%lld:%lld: %s", e->name, (long long)js->line_tok,
             (long long)js->col_tok, msg);
    return false;
}

/* One pass over the top-level members; exact: skip values checking them (positions stay
 * right), else skip them fast. False with h->problem set. */
static bool scan(const library_entry *e, jsonstream *js, library_head *h, bool exact)
{
    bool seen[H_N] = {false};
    if (jsonstream_next(js) != JSONSTREAM_OBJECT)
        return js->msg[0] ? problem(h, e, js, "%s", js->msg) : problem(h, e, js, "expected a JSON object");
    for (;;) {
        jsonstream_token k = jsonstream_next(js);
        if (k == JSONSTREAM_OBJECT_END)
            break;
        if (k != JSONSTREAM_KEY)
            return problem(h, e, js, "%s", js->msg);
        int m = 0;
        while (m < H_N && strcmp(js->str, members[m]) != 0)
            m++;
        if (m < H_N && seen[m])
            return problem(h, e, js, "%s: this key is given twice", members[m]);
        if (m < H_N)
            seen[m] = true;
        jsonstream_token v = jsonstream_next(js);
        if (v == JSONSTREAM_ERROR)
            return problem(h, e, js, "%s", js->msg);
        if (m < H_STEPS) {
            if (v != JSONSTREAM_STRING)
                return problem(h, e, js, "%s: expected a string", members[m]);
            char **dst = m == H_NAME || m == H_LESSON ? &h->title : m == H_DESCRIPTION ? &h->description : &h->arch;
            if (m != H_NAME || !h->lesson) { /* a lesson's title is "lesson", not a "name" */
                free(*dst);
                *dst = xstrdup(js->str);
            }
            h->lesson |= m == H_LESSON;
            continue;
        }
        if (m == H_STEPS && v == JSONSTREAM_ARRAY) {
            jsonstream_token s;
            while ((s = jsonstream_next(js)) != JSONSTREAM_ARRAY_END) {
                if (s == JSONSTREAM_ERROR || !(exact ? jsonstream_skip(js, s) : jsonstream_skip_fast(js, s)))
                    return problem(h, e, js, "%s", js->msg);
                h->steps++;
            }
            continue;
        }
        if (!(exact ? jsonstream_skip(js, v) : jsonstream_skip_fast(js, v)))
            return problem(h, e, js, "%s", js->msg);
    }
    if (jsonstream_next(js) != JSONSTREAM_END)
        return problem(h, e, js, "%s", js->msg);
    return true;
}

/* One scan of e from its start. */
static bool scan_entry(const library_entry *e, library_head *h, bool exact)
{
    jsonstream js;
    FILE *f = NULL;
    if (e->text) {
        jsonstream_open_mem(&js, e->text, e->len);
    } else {
        char why[128];
        f = safe_fopen_regular(e->path, why, sizeof why); /* never waits on a FIFO put there */
        if (!f) {
            snprintf(h->problem, sizeof h->problem, "%.300s: cannot be read", e->path);
            return false;
        }
        jsonstream_open_file(&js, f);
    }
    bool ok = scan(e, &js, h, exact);
    jsonstream_close(&js);
    if (f)
        fclose(f);
    return ok;
}

bool library_head_read(const library_entry *e, library_head *h)
{
    memset(h, 0, sizeof *h);
    if (scan_entry(e, h, false))
        return true;
    library_head_free(h); /* the fast pass lost the positions: again, exactly, for the message */
    memset(h, 0, sizeof *h);
    scan_entry(e, h, true);
    if (!h->problem[0])
        snprintf(h->problem, sizeof h->problem, "%.80s: malformed JSON", e->name);
    return false;
}

void library_head_free(library_head *h)
{
    free(h->title);
    free(h->description);
    free(h->arch);
    h->title = h->description = h->arch = NULL;
}
