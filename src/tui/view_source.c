/* view_source: the source view's input (see view_source.h): the recording's members, the file
 * found and read, the model's rows. The mode that shows them on the pager is mode_source.c. */
#include "tui/view_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/load.h"
#include "util.h"

#define SOURCE_MAX_BYTES (16 << 20) /* a larger "source file" is not one: its lines are not read */

/* The text of the regular file path (at most SOURCE_MAX_BYTES), or NULL. */
static char *read_source(const char *path, size_t *len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SOURCE_MAX_BYTES)
        return NULL;
    io_error err;
    return load_read_file(path, len, &err);
}

/* The last component of a path. */
static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Find the file the locations name: the command line's file of that name, the name as written,
 * then beside the scenario file (by the name, then by its last component); the first whose lines
 * hold the texts the locations carry. Its text, and where it was found in *found (owned), or
 * NULL; *differs when a file was there but none of them holds those texts. */
static char *find_source(const scenario *s, const source_record_line *rec, int nrec, const char *file, const char *path,
                         const char *hint, size_t *len, char **found, bool *differs)
{
    char cand[4][4096];
    int n = 0;
    if (hint && strcmp(base_name(hint), base_name(file)) == 0)
        snprintf(cand[n++], sizeof cand[0], "%s", hint);
    snprintf(cand[n++], sizeof cand[0], "%s", file);
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (slash && file[0] != '/') {
        snprintf(cand[n++], sizeof cand[0], "%.*s/%s", (int)(slash - path), path, file);
        snprintf(cand[n++], sizeof cand[0], "%.*s/%s", (int)(slash - path), path, base_name(file));
    }
    for (int i = 0; i < n; i++) {
        char *text = read_source(cand[i], len);
        if (text && source_lines_mismatches(s, rec, nrec, text, *len) == 0) {
            *found = xstrdup(cand[i]);
            return text;
        }
        *differs = *differs || text; /* another file of that name, or the file since changed */
        free(text);
    }
    return NULL;
}

/* The importer's messages about the file shown, parsed (files into bufs, nskipped of them). */
static int skips_of(const char *file, const char *const *skipped, int nskipped, source_skip *out, char (*bufs)[1024])
{
    int k = 0;
    for (int i = 0; file && i < nskipped; i++)
        if (source_lines_parse_skip(skipped[i], bufs[k], sizeof bufs[k], &out[k]) &&
            strcmp(base_name(out[k].file), base_name(file)) == 0)
            k++;
    return k;
}

bool source_view_input(const scenario *s, const char *path, const char *hint, const char *const *skipped, int nskipped,
                       tui_source *out, char *why, size_t n)
{
    memset(out, 0, sizeof *out);
    io_error err;
    if (s->is_trace && path) {
        int rc = recording_read(path, &out->rec, &err);
        if (rc < 0) {
            snprintf(why, n, "%s", err.text);
            return false;
        }
        out->is_recording = rc > 0;
    }
    const source_record_line *rec = out->is_recording ? out->rec.rows : NULL;
    int nrec = out->is_recording ? out->rec.nrows : 0;
    char name[4096];
    const char *file = source_lines_file(s, rec, nrec, name, sizeof name);
    size_t len = 0;
    char *text = file ? find_source(s, rec, nrec, file, path, hint, &len, &out->path, &out->differs) : NULL;
    source_skip *sk = xmalloc(sizeof *sk * (size_t)(nskipped > 0 ? nskipped : 1));
    char(*bufs)[1024] = xmalloc(sizeof *bufs * (size_t)(nskipped > 0 ? nskipped : 1));
    int nsk = s->is_trace ? 0 : skips_of(file, skipped, nskipped, sk, bufs);
    const source_skip *known = skipped ? sk : NULL; /* the importer's messages are at hand */
    bool ok = source_lines_build(s, text, len, rec, nrec, known, nsk, &out->sl, why, n);
    free(text);
    free(sk);
    free(bufs);
    if (!ok)
        source_view_input_free(out);
    return ok;
}

void source_view_input_free(tui_source *src)
{
    source_lines_free(&src->sl);
    recording_free(&src->rec);
    free(src->path);
    memset(src, 0, sizeof *src);
}
