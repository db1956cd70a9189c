/* recording: a recording's members beside its trace (recording.h), read with jsonstream. */
#include "io/recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/jsonstream.h"
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

/* A line's "measured" object (its '{' read). */
static bool read_measured(jsonstream *js, source_measured *m)
{
    jsonstream_token t;
    m->known = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        uint64_t v = t == JSONSTREAM_NUMBER && js->is_int && js->ival >= 0 ? (uint64_t)js->ival : 0;
        if (strcmp(key, "wavefronts") == 0)
            m->wavefronts = v;
        else if (strcmp(key, "ideal_wavefronts") == 0)
            m->ideal_wavefronts = v;
        else if (strcmp(key, "instructions") == 0)
            m->instructions = v;
        else if (strcmp(key, "predicted_launch") == 0)
            m->predicted_launch = v;
        else if (!jsonstream_skip(js, t))
            return false;
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* One entry of "lines" (its '{' read) into l. */
static bool read_line(jsonstream *js, source_record_line *l)
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
            while ((t = jsonstream_next(js)) == JSONSTREAM_NUMBER) {
                if (l->ninstructions == cap)
                    ins = xrealloc(ins, sizeof *ins * (size_t)(cap = cap ? 2 * cap : 16));
                ins[l->ninstructions++] = js->is_int ? js->ival : -1;
            }
            l->instructions = ins;
            if (t != JSONSTREAM_ARRAY_END)
                return false;
        } else if (strcmp(key, "measured") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_measured(js, &l->measured))
                return false;
        } else if (strcmp(key, "agree") == 0 && (t == JSONSTREAM_TRUE || t == JSONSTREAM_FALSE)) {
            l->measured.agree = t == JSONSTREAM_TRUE ? MEASURED_AGREE_TRUE : MEASURED_AGREE_FALSE;
        } else if (strcmp(key, "agree_why") == 0 && t == JSONSTREAM_STRING) {
            free(l->measured.why);
            l->measured.why = xstrdup(js->str);
        } else if (!jsonstream_skip(js, t)) {
            return false;
        }
    }
    l->instructions = ins;
    return t == JSONSTREAM_OBJECT_END;
}

/* The top-level "measured" object (its '{' read): the launch's blocks. */
static bool read_launch_measured(jsonstream *js, recording *r)
{
    jsonstream_token t;
    r->measured = true;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        bool blocks = strcmp(js->str, "blocks") == 0;
        t = jsonstream_next(js);
        if (blocks && t == JSONSTREAM_NUMBER && js->is_int)
            r->blocks = js->ival;
        else if (!jsonstream_skip(js, t))
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
            if (!read_launch_measured(js, r))
                return fail(js, path, err, NULL);
        } else if (strcmp(key, "measured_why") == 0 && t == JSONSTREAM_STRING) {
            free(r->measured_why);
            r->measured_why = xstrdup(js->str);
        } else if (strcmp(key, "lines") == 0 && t == JSONSTREAM_ARRAY) {
            int cap = 0;
            while ((t = jsonstream_next(js)) == JSONSTREAM_OBJECT) {
                if (r->nrows == cap)
                    r->rows = xrealloc(r->rows, sizeof *r->rows * (size_t)(cap = cap ? 2 * cap : 16));
                source_record_line *l = &r->rows[r->nrows++];
                memset(l, 0, sizeof *l);
                if (!read_line(js, l))
                    return fail(js, path, err, "a line of the recording does not read");
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

void recording_free(recording *r)
{
    for (int i = 0; i < r->nrows; i++) {
        free((char *)r->rows[i].file);
        free((char *)r->rows[i].text);
        free((int64_t *)r->rows[i].instructions);
        free(r->rows[i].measured.why);
    }
    free(r->rows);
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
