/* recording: a recording's members beside its trace (recording.h), read with jsonstream. */
#include "io/recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
#include "model/measured.h"
#include "util.h"

/* Fail at the token just read; returns -1. */
static int fail(jsonstream *js, const char *path, io_error *err, const char *what)
{
    snprintf(err->text, sizeof err->text, "%s:%lld:%lld: %s", path, (long long)js->line_tok, (long long)js->col_tok,
             js->msg[0] && what == NULL ? js->msg
             : what                     ? what
                                        : "unexpected value");
    return -1;
}

/* Up to three integers of an array (its '[' read) into v. */
static bool read_triple(jsonstream *js, int64_t *v)
{
    jsonstream_token t;
    int k = 0;
    while ((t = jsonstream_next(js)) == JSONSTREAM_NUMBER)
        if (k < 3)
            v[k++] = js->is_int ? js->ival : 0;
    return t == JSONSTREAM_ARRAY_END;
}

/* The string member "name" of an object (its '{' read) into *dst. */
static bool read_name(jsonstream *js, char **dst)
{
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        bool name = strcmp(js->str, "name") == 0;
        t = jsonstream_next(js);
        if (name && t == JSONSTREAM_STRING) {
            free(*dst);
            *dst = xstrdup(js->str);
        } else if (!jsonstream_skip(js, t)) {
            return false;
        }
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* The largest count a recording holds (as analyze, src/core/recording_lines.c): 10^15 wavefronts is
 * an hour of every shared-memory pipe of a 132-SM GPU, for one launch. */
#define RECORDING_MAX_COUNT 1000000000000000LL

/* A line's "measured" object (its '{' read): the three counts the hardware made, each bounded
 * (else false with what). Its "predicted_launch" and "excess" are conclusions: computed, not read. */
static bool read_measured(jsonstream *js, source_measured *m, const char **what)
{
    jsonstream_token t;
    m->known = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        uint64_t *dst = strcmp(key, "wavefronts") == 0         ? &m->wavefronts
                        : strcmp(key, "ideal_wavefronts") == 0 ? &m->ideal_wavefronts
                        : strcmp(key, "instructions") == 0     ? &m->instructions
                                                               : NULL;
        if (dst && (t != JSONSTREAM_NUMBER || !js->is_int || js->ival < 0 || js->ival > RECORDING_MAX_COUNT)) {
            *what = "a measured count is an integer from 0 to 1000000000000000";
            return false;
        }
        if (dst)
            *dst = (uint64_t)js->ival;
        else if (!jsonstream_skip(js, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* One entry of "lines" (its '{' read) into l; where its "instructions" are into at. False (with
 * what when a value is out of bounds) when it does not read. */
static bool read_line(jsonstream *js, source_record_line *l, int64_t *at, const char **what)
{
    jsonstream_token t;
    int cap = 0;
    int64_t *ins = NULL;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if ((strcmp(key, "file") == 0 || strcmp(key, "text") == 0) && t == JSONSTREAM_STRING) {
            const char **dst = key[0] == 'f' ? &l->file : &l->text;
            free((char *)*dst);
            *dst = xstrdup(js->str);
        } else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && js->is_int) {
            l->line = js->ival > 0 && js->ival < 100000000 ? (int)js->ival : 0;
        } else if (strcmp(key, "instructions") == 0 && t == JSONSTREAM_ARRAY) {
            at[0] = js->line_tok, at[1] = js->col_tok;
            while ((t = jsonstream_next(js)) == JSONSTREAM_NUMBER) {
                if (!js->is_int || js->ival < 0 || js->ival >= INT32_MAX) { /* below: the trace's length */
                    l->instructions = ins;
                    *what = "instructions: a trace index is an integer from 0 to 2147483646";
                    return false;
                }
                if (l->ninstructions == cap)
                    ins = xrealloc(ins, sizeof *ins * (size_t)(cap = cap ? 2 * cap : 16));
                ins[l->ninstructions++] = js->ival;
            }
            l->instructions = ins;
            if (t != JSONSTREAM_ARRAY_END)
                return false;
        } else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_measured(js, &l->measured, what))
                return false;
        } else if (strcmp(key, "agree_why") == 0 && t == JSONSTREAM_STRING) {
            /* the one fact of agreement the trace cannot give: the second block's prediction */
            l->measured.second_differs = strcmp(js->str, measured_why_text(MEASURED_WHY_BLOCKS_DIFFER)) == 0;
        } else if (!jsonstream_skip(js, t)) { /* "agree", "predicted": conclusions, computed */
            return false;
        }
    }
    l->instructions = ins;
    return t == JSONSTREAM_OBJECT_END;
}

/* The top-level "measured" object (its '{' read): the launch's blocks (bounded, else false with
 * what) and whether a second block was recorded. */
static bool read_launch_measured(jsonstream *js, recording *r, const char **what)
{
    jsonstream_token t;
    r->measured = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        bool blocks = strcmp(js->str, "blocks") == 0, second = strcmp(js->str, "second_block") == 0;
        t = jsonstream_next(js);
        if (blocks && (t != JSONSTREAM_NUMBER || !js->is_int || js->ival < 1 || js->ival > RECORDING_MAX_COUNT)) {
            *what = "blocks: expected an integer from 1 to 1000000000000000";
            return false;
        }
        if (blocks)
            r->blocks = js->ival;
        else if (second)
            r->second = t == JSONSTREAM_ARRAY;
        if (!blocks && !jsonstream_skip(js, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* One entry of "arrays" (its '{' read) into a; false with what when it does not read. */
static bool read_array(jsonstream *js, recording_array *a, const char **what)
{
    jsonstream_token t;
    bool off = false, bytes = false;
    *what = "an array needs a name, a kind (static or dynamic), an offset >= 0 and bytes >= 1";
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[16];
        snprintf(key, sizeof key, "%.15s", js->str);
        t = jsonstream_next(js);
        bool num = t == JSONSTREAM_NUMBER && js->is_int;
        if ((strcmp(key, "name") == 0 || strcmp(key, "symbol") == 0) && t == JSONSTREAM_STRING) {
            char **dst = key[0] == 'n' ? &a->name : &a->symbol;
            free(*dst);
            *dst = xstrdup(js->str);
        } else if (strcmp(key, "kind") == 0 && t == JSONSTREAM_STRING) {
            if (strcmp(js->str, "static") != 0 && strcmp(js->str, "dynamic") != 0)
                return false;
            a->dynamic = js->str[0] == 'd';
        } else if (strcmp(key, "offset") == 0 && num && js->ival >= 0 && js->ival < ((int64_t)1 << 32)) {
            a->offset = js->ival;
            off = true;
        } else if (strcmp(key, "bytes") == 0 && num && js->ival >= 1 && js->ival < ((int64_t)1 << 32)) {
            a->bytes = js->ival;
            bytes = true;
        } else if (strcmp(key, "offset") == 0 || strcmp(key, "bytes") == 0 || strcmp(key, "name") == 0) {
            return false;
        } else if (!jsonstream_skip(js, t)) {
            *what = NULL;
            return false;
        }
    }
    return t == JSONSTREAM_OBJECT_END && a->name && off && bytes;
}

/* The members of the top-level object (its '{' read). */
static int read_members(jsonstream *js, const char *path, recording *r, io_error *err)
{
    jsonstream_token t;
    bool is = false;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if (t == JSONSTREAM_ERROR)
            return fail(js, path, err, NULL);
        if (strcmp(key, "format") == 0) {
            is = t == JSONSTREAM_STRING && strcmp(js->str, "bankscope-record/1") == 0;
            if (!is)
                return 0;
        } else if (strcmp(key, "kernel") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_name(js, &r->kernel))
                return fail(js, path, err, NULL);
        } else if (strcmp(key, "device") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_name(js, &r->device))
                return fail(js, path, err, NULL);
        } else if (strcmp(key, "launch") == 0 && t == JSONSTREAM_NUMBER && js->is_int) {
            r->launch = js->ival;
        } else if ((!strcmp(key, "grid") || !strcmp(key, "block_dim") || !strcmp(key, "block")) &&
                   t == JSONSTREAM_ARRAY) {
            int64_t *v = key[0] == 'g' ? r->grid : strcmp(key, "block") == 0 ? r->block : r->block_dim;
            if (!read_triple(js, v))
                return fail(js, path, err, "expected three integers");
        } else if (strcmp(key, "truncated") == 0 || strcmp(key, "line_info") == 0) {
            *(key[0] == 't' ? &r->truncated : &r->line_info) = t == JSONSTREAM_TRUE;
        } else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            const char *what = NULL;
            if (!read_launch_measured(js, r, &what))
                return fail(js, path, err, what);
        } else if (strcmp(key, "measured_why") == 0 && t == JSONSTREAM_STRING) {
            free(r->measured_why);
            r->measured_why = xstrdup(js->str);
        } else if (strcmp(key, "lines") == 0 && t == JSONSTREAM_ARRAY) {
            int cap = 0;
            uint64_t sum[3] = {0, 0, 0}; /* the launch's counts, checked as they add up */
            while ((t = jsonstream_next(js)) == JSONSTREAM_OBJECT) {
                if (r->nrows == cap) {
                    r->rows = xrealloc(r->rows, sizeof *r->rows * (size_t)(cap = cap ? 2 * cap : 16));
                    r->at = xrealloc(r->at, sizeof *r->at * (size_t)cap);
                }
                source_record_line *l = &r->rows[r->nrows];
                memset(l, 0, sizeof *l);
                r->at[r->nrows][0] = r->at[r->nrows][1] = 0;
                const char *what = NULL;
                bool ok = read_line(js, l, r->at[r->nrows++], &what);
                if (!ok)
                    return fail(js, path, err, what ? what : "a line of the recording does not read");
                sum[0] += l->measured.wavefronts; /* each at most 10^15: no overflow before the check */
                sum[1] += l->measured.ideal_wavefronts;
                sum[2] += l->measured.instructions;
                if (sum[0] > RECORDING_MAX_COUNT || sum[1] > RECORDING_MAX_COUNT || sum[2] > RECORDING_MAX_COUNT)
                    return fail(js, path, err, "measured: the lines' counts add up to more than 1000000000000000");
            }
            if (t != JSONSTREAM_ARRAY_END)
                return fail(js, path, err, NULL);
        } else if (strcmp(key, "arrays") == 0 && t == JSONSTREAM_ARRAY && is) { /* (a scenario's are skipped) */
            int cap = 0;
            r->has_arrays = true;
            while ((t = jsonstream_next(js)) == JSONSTREAM_OBJECT) {
                if (r->narrays == cap)
                    r->arrays = xrealloc(r->arrays, sizeof *r->arrays * (size_t)(cap = cap ? 2 * cap : 8));
                recording_array *a = &r->arrays[r->narrays++];
                memset(a, 0, sizeof *a);
                const char *what;
                if (!read_array(js, a, &what))
                    return fail(js, path, err, what);
                for (int k = 0; k + 1 < r->narrays; k++)
                    if (a->offset < r->arrays[k].offset + r->arrays[k].bytes &&
                        r->arrays[k].offset < a->offset + a->bytes)
                        return fail(js, path, err, "two arrays of the recording overlap");
            }
            if (t != JSONSTREAM_ARRAY_END)
                return fail(js, path, err, "\"arrays\" holds objects only");
        } else if (!jsonstream_skip_fast(js, t)) {
            return fail(js, path, err, NULL);
        }
    }
    return is ? 1 : 0;
}

int recording_read(const char *path, recording *r, io_error *err)
{
    memset(r, 0, sizeof *r);
    r->launch = -1;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0; /* the loader says why */
    jsonstream js;
    jsonstream_open_file(&js, f);
    jsonstream_max_string(&js, 1 << 20);
    int rc = jsonstream_next(&js) == JSONSTREAM_OBJECT ? read_members(&js, path, r, err) : 0;
    jsonstream_close(&js);
    fclose(f);
    if (rc <= 0)
        recording_free(r);
    if (rc == 0)
        r->launch = -1;
    return rc;
}

/* Order of (entry, row) pairs: by entry, then row. */
static int pair_cmp(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

bool recording_check(const recording *r, const char *path, int64_t ntrace, io_error *err)
{
    size_t n = 0;
    for (int i = 0; i < r->nrows; i++)
        n += (size_t)r->rows[i].ninstructions;
    if (n == 0)
        return true; /* no indexes: the entries' own sources locate them */
    int64_t(*p)[2] = xmalloc(n * sizeof *p), k = 0;
    for (int i = 0; i < r->nrows; i++)
        for (int j = 0; j < r->rows[i].ninstructions; j++)
            p[k][0] = r->rows[i].instructions[j], p[k++][1] = i;
    qsort(p, n, sizeof *p, pair_cmp); /* n log n in the indexes: never sized by an index's value */
    int bad = -1;
    char what[200] = "";
    for (size_t i = 0; i < n && bad < 0; i++) {
        int64_t want = (int64_t)i; /* sorted and distinct, the i-th index is entry i */
        if (p[i][0] >= ntrace)
            snprintf(what, sizeof what, "trace entry %lld is past the trace's end (it has %lld entries)",
                     (long long)p[i][0], (long long)ntrace);
        else if (i > 0 && p[i][0] == p[i - 1][0])
            snprintf(what, sizeof what,
                     "trace entry %lld is also in line %lld of the recording (lines must not overlap)",
                     (long long)p[i][0], (long long)p[i - 1][1] + 1);
        else if (p[i][0] != want)
            snprintf(what, sizeof what, "trace entry %lld is in no line of the recording (lines must cover the trace)",
                     (long long)want);
        if (what[0])
            bad = (int)p[i][1];
    }
    if (bad < 0 && (int64_t)n < ntrace) {
        snprintf(what, sizeof what, "trace entry %lld is in no line of the recording (lines must cover the trace)",
                 (long long)n);
        bad = (int)p[n - 1][1];
    }
    free(p);
    if (bad >= 0)
        snprintf(err->text, sizeof err->text, "%s:%lld:%lld: instructions: %s", path, (long long)r->at[bad][0],
                 (long long)r->at[bad][1], what);
    return bad < 0;
}

void recording_free(recording *r)
{
    for (int i = 0; i < r->nrows; i++) {
        free((char *)r->rows[i].file);
        free((char *)r->rows[i].text);
        free((int64_t *)r->rows[i].instructions);
        free(r->rows[i].measured.why);
    }
    free(r->rows);
    free(r->at);
    for (int i = 0; i < r->narrays; i++) {
        free(r->arrays[i].name);
        free(r->arrays[i].symbol);
    }
    free(r->arrays);
    free(r->kernel);
    free(r->device);
    free(r->measured_why);
    memset(r, 0, sizeof *r);
}

void recording_scope(const recording *r, char *buf, size_t n)
{
    snprintf(buf, n, "block (%lld,%lld,%lld) of launch %lld of %s", (long long)r->block[0], (long long)r->block[1],
             (long long)r->block[2], (long long)r->launch, r->kernel ? r->kernel : "the kernel");
}
