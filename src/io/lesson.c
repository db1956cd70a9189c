/* lesson: loading and checking lesson files. */
#include "lesson.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/jsonstream.h"
#include "io/jsontree.h"
#include "io/library.h"
#include "io/safe_open.h"

/* A look at the top-level keys only (jsonstream, skipping the values): no tree is built, so
 * asking this of a large trace costs nothing. */
bool lesson_is(const char *text, size_t len)
{
    jsonstream js;
    jsonstream_open_mem(&js, text, len);
    bool is = false;
    if (jsonstream_next(&js) == JSONSTREAM_OBJECT) {
        while (!is && jsonstream_next(&js) == JSONSTREAM_KEY) {
            is = strcmp(js.str, "lesson") == 0;
            if (!is && !jsonstream_skip_fast(&js, jsonstream_next(&js)))
                break;
        }
    }
    jsonstream_close(&js);
    return is;
}

void lesson_free(lesson *l)
{
    for (int i = 0; i < l->nsteps; i++) {
        free(l->steps[i].pattern);
        free(l->steps[i].text);
    }
    free(l->steps);
    free(l->title);
    memset(l, 0, sizeof *l);
}

/* Message at the JSON path, with its line and column. */
static bool fail(const jsontree *t, const char *name, const char *path, const char *msg, io_error *err)
{
    jsontree_pos p = jsontree_locate(t, path);
    snprintf(err->text, sizeof err->text, "%.100s:%d:%d: %.60s: %.400s", name, p.line, p.col, path, msg);
    return false;
}

/* Where a step's pattern is read: a file of the lesson's folder (dir; safe_named_path: no ".."
 * or link out of it, no /proc, /dev, /sys, a regular .json file), its real path into real; else a
 * library name, kept as it is. NULL (with the reason in why) for anything else, so that a lesson
 * from someone else opens nothing the user did not choose. */
static const char *step_source(const char *pattern, const char *dir, char *real, size_t n, const char **why)
{
    static const char *const json_exts[] = {".json", NULL};
    safe_refusal r = SAFE_NOT_FOUND;
    const char *roots[1] = {dir};
    if (dir && safe_named_path(pattern, roots, 1, json_exts, real, n, &r, NULL))
        return real;
    if (!strchr(pattern, '/') && library_entry_find(pattern))
        return pattern;
    *why = r == SAFE_OUTSIDE       ? (dir ? "outside the lesson's folder" : "not a library pattern")
           : r == SAFE_SPECIAL     ? "a system file"
           : r == SAFE_NOT_REGULAR ? "not a regular file"
           : r == SAFE_NOT_SOURCE  ? "not a .json file"
                                   : "no such file beside the lesson, nor a library pattern";
    return NULL;
}

bool lesson_load_text(const char *text, size_t len, const char *name, const char *dir, lesson *out, io_error *err)
{
    memset(out, 0, sizeof *out);
    if (len > LOAD_MAX_SCENARIO_BYTES) { /* parsed into a tree: bounded */
        snprintf(err->text, sizeof err->text, "%.100s: a lesson file is at most %d MiB", name,
                 LOAD_MAX_SCENARIO_BYTES >> 20);
        return false;
    }
    jsontree tree;
    jsontree_error je;
    if (!jsontree_parse(text, len, &tree, &je)) {
        snprintf(err->text, sizeof err->text, "%.100s:%d:%d: %.400s", name, je.line, je.col, je.msg);
        return false;
    }
    const cJSON *root = tree.root;
    bool ok = false;
    if (!cJSON_IsObject(root)) {
        fail(&tree, name, "", "a lesson is a JSON object", err);
        goto done;
    }
    const cJSON *title = cJSON_GetObjectItemCaseSensitive(root, "lesson");
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(root, "steps");
    for (const cJSON *c = root->child; c; c = c->next)
        if (strcmp(c->string, "lesson") != 0 && strcmp(c->string, "steps") != 0 &&
            strcmp(c->string, "description") != 0) {
            fail(&tree, name, c->string, "unknown key (a lesson has lesson, description, steps)", err);
            goto done;
        }
    if (!cJSON_IsString(title)) {
        fail(&tree, name, "lesson", "expected the lesson's title", err);
        goto done;
    }
    if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) < 1 || cJSON_GetArraySize(steps) > 200) {
        fail(&tree, name, "steps", "expected 1..200 steps", err);
        goto done;
    }
    out->title = xstrdup(title->valuestring);
    out->steps = xcalloc((size_t)cJSON_GetArraySize(steps), sizeof *out->steps);
    for (const cJSON *st = steps->child; st; st = st->next) {
        char path[64];
        snprintf(path, sizeof path, "steps[%d]", out->nsteps);
        const cJSON *pat = cJSON_GetObjectItemCaseSensitive(st, "pattern");
        const cJSON *txt = cJSON_GetObjectItemCaseSensitive(st, "text");
        if (!cJSON_IsString(pat) || !cJSON_IsString(txt)) {
            fail(&tree, name, path, "a step needs \"pattern\" and \"text\" strings", err);
            goto done;
        }
        char real[4096];
        const char *why = NULL, *where = step_source(pat->valuestring, dir, real, sizeof real, &why);
        if (!where) {
            char msg[200];
            snprintf(msg, sizeof msg, "not opened: %s", why);
            snprintf(path, sizeof path, "steps[%d].pattern", out->nsteps);
            fail(&tree, name, path, msg, err);
            goto done;
        }
        lesson_step *ls = &out->steps[out->nsteps++];
        ls->pattern = xstrdup(where);
        ls->text = xstrdup(txt->valuestring);
        /* a pattern named again was checked at its first step: each is loaded once, so the
         * lesson costs what its distinct patterns cost */
        bool seen = false;
        for (int k = 0; k < out->nsteps - 1 && !seen; k++)
            seen = strcmp(out->steps[k].pattern, ls->pattern) == 0;
        if (seen)
            continue;
        scenario s;
        io_error e2;
        if (!load_scenario_file(ls->pattern, NULL, &s, &e2)) {
            char msg[sizeof e2.text + 32];
            snprintf(msg, sizeof msg, "pattern does not load: %s", e2.text);
            snprintf(path, sizeof path, "steps[%d].pattern", out->nsteps - 1);
            fail(&tree, name, path, msg, err);
            goto done;
        }
        scenario_free(&s);
    }
    ok = true;
done:
    jsontree_free(&tree);
    if (!ok)
        lesson_free(out);
    return ok;
}

bool lesson_load(const char *source, lesson *out, io_error *err)
{
    size_t len = 0;
    bool owned;
    const char *text = load_source_text(source, &len, &owned, err);
    if (!text)
        return false;
    /* the lesson's folder: where its steps' files may be (none for a built-in lesson) */
    struct stat st;
    bool is_file = stat(source, &st) == 0;
    const library_entry *e = is_file ? NULL : library_entry_find(source);
    const char *file = e ? e->path : is_file ? source : NULL; /* standard input has no folder */
    char dir[4096];
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == file ? 1 : (int)(slash - file), file);
    else
        snprintf(dir, sizeof dir, ".");
    bool ok = lesson_load_text(text, len, source, file ? dir : NULL, out, err);
    if (owned)
        free((char *)text);
    return ok;
}
