/* view_source: the source view's input (see view_source.h): the recording's members, the file
 * found and read, the model's rows. The mode that shows them on the pager is mode_source.c. */
#include "tui/view_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/line_sums.h"
#include "io/load.h"
#include "io/safe_open.h"
#include "util.h"

#define SOURCE_MAX_BYTES (16 << 20) /* a larger "source file" is not one: it is not read */

/* The last component of a path. */
static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The text of the file at real when it may be shown for the locations of s: a regular text file
 * (read without blocking, at most SOURCE_MAX_BYTES) whose lines hold every text the locations
 * carry, and at least one (need_match: a location without text never vouches for a file).
 * *differs is set when the file was read but does not hold them, *unchecked when nothing the
 * locations carry could vouch for it. */
static char *try_file(const scenario *s, const source_record_line *rec, int nrec, const char *real, bool need_match,
                      size_t *len, bool *differs, bool *unchecked)
{
    char why[160];
    char *text = safe_read_capped(real, SOURCE_MAX_BYTES, len, why, sizeof why);
    if (!text)
        return NULL;
    int matched = 0;
    if (safe_is_text(text, *len) && source_lines_mismatches(s, rec, nrec, text, *len, &matched) == 0 &&
        (matched > 0 || !need_match))
        return text;
    *differs = *differs || matched > 0 || !need_match; /* another file of that name, or the file since changed */
    *unchecked = *unchecked || (need_match && matched == 0 && safe_is_text(text, *len));
    free(text);
    return NULL;
}

/* Find the file the locations name, opening only what the user chose: the command line's file
 * of that name (--source FILE), else the name resolved under the scenario's folder or
 * --source DIR (safe_named_path: no ".." or symbolic link out, no /proc, /dev, /sys, a source
 * file's extension), by the name and then by its last component; the first whose lines hold
 * the texts the locations carry. Its text, and where it was found in *found (owned), or NULL with
 * the reason the name as written was refused in *refused; *differs when a file was there but
 * does not hold those texts. */
static char *find_source(const scenario *s, const source_record_line *rec, int nrec, const char *file, const char *path,
                         const char *hint, const char *dir, size_t *len, char **found, bool *differs, bool *unchecked,
                         safe_refusal *refused)
{
    *refused = SAFE_NOT_FOUND;
    if (hint && strcmp(base_name(hint), base_name(file)) == 0) {
        char *text = try_file(s, rec, nrec, hint, false, len, differs, unchecked);
        if (text) {
            *found = xstrdup(hint);
            return text;
        }
    }
    struct stat st;
    char *folder = NULL;
    if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode)) { /* a file, not a library name */
        const char *slash = strrchr(path, '/');
        size_t k = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
        folder = xmalloc(k + 1);
        memcpy(folder, slash ? path : ".", k);
        folder[k] = '\0';
    }
    const char *roots[2] = {folder, dir};
    const char *names[2] = {file, base_name(file)};
    char *text = NULL;
    for (int i = 0; i < 2 && !text; i++) {
        if (i == 1 && strcmp(names[0], names[1]) == 0)
            break;
        char real[4096];
        safe_refusal r;
        int k = 0;
        if (safe_named_path(names[i], roots, 2, safe_source_exts, real, sizeof real, &r, &k)) {
            text = try_file(s, rec, nrec, real, true, len, differs, unchecked);
            strbuf shown = {0}; /* as the user would spell it: the folder they gave, then the name */
            if (names[i][0] == '/' || strcmp(roots[k], ".") == 0)
                strbuf_addf(&shown, "%s", names[i]);
            else
                strbuf_addf(&shown, "%s/%s", roots[k], names[i]);
            if (text)
                *found = strbuf_take(&shown);
            strbuf_free(&shown);
        }
        if (i == 0)
            *refused = r;
    }
    free(folder);
    return text;
}

/* The importer's skipped accesses in the file shown (copied into out). */
static int skips_of(const char *file, const source_skip *skips, int nskips, source_skip *out)
{
    int k = 0;
    for (int i = 0; file && i < nskips; i++)
        if (strcmp(base_name(skips[i].file), base_name(file)) == 0)
            out[k++] = skips[i];
    return k;
}

/* The row of sl that recording line r went to (-1: none): the row of its first located entry, or
 * for a line with no entry (measured only) the row of its file and line. */
static int row_of_line(const recording *rec, int r, const source_lines *sl)
{
    const source_record_line *l = &rec->rows[r];
    for (int k = 0; k < l->ninstructions; k++)
        if (l->instructions[k] >= 0 && l->instructions[k] < sl->naccess && sl->row_of[l->instructions[k]] >= 0)
            return sl->row_of[l->instructions[k]];
    for (int i = 0; l->ninstructions == 0 && l->file && i < sl->nrows; i++) {
        const char *file = i < sl->nfile ? sl->file : sl->rows[i].file;
        if (sl->rows[i].line == l->line && file && strcmp(file, l->file) == 0)
            return i;
    }
    return -1;
}

/* Each measured row's predicted x blocks and agreement, computed from its prediction with the
 * model in use and its measured counts (never the file's conclusions), by the rule analyze
 * applies (core/recording_lines.c): the launch's asynchronous fills, and whether the row holds
 * instructions the model does not cover (a kind it has no rule for, one its trace entries name or
 * one the recording lists at its pcs: ATOMS.CAST.SPIN, wgmma). A row whose product does not fit
 * 64 bits is shown as not agreeing, with why. */
static void agreement(const recording *rec, source_lines *sl)
{
    bool *unmodelled = xcalloc((size_t)(sl->nrows ? sl->nrows : 1), sizeof *unmodelled);
    for (int r = 0; r < rec->nrows; r++) {
        int row = row_of_line(rec, r, sl);
        if (row >= 0 && rec->lines && (rec->lines[r].not_modelled > 0 || rec->lines[r].unmodelled_pcs))
            unmodelled[row] = true;
    }
    for (int i = 0; i < sl->nrows; i++) {
        source_measured *m = &sl->rows[i].measured;
        if (!m->known)
            continue;
        measured_launch l = {.blocks = (uint64_t)(rec->blocks > 0 ? rec->blocks : 1),
                             .has_second = rec->second,
                             .invariant = rec->second && !m->second_differs,
                             .async_fill = rec->async_fill};
        int64_t excess;
        measured_why why = MEASURED_WHY_NONE;
        free(m->why);
        m->why = NULL;
        if (!measured_recompute(&l, &(measured_counts){m->wavefronts, m->ideal_wavefronts, m->instructions},
                                (uint64_t)(sl->rows[i].wavefronts > 0 ? sl->rows[i].wavefronts : 0),
                                unmodelled[i] || sl->rows[i].not_modelled > 0, &excess, &m->predicted_launch, &m->agree,
                                &why)) {
            m->agree = MEASURED_AGREE_NULL;
            m->why = xstrdup("predicted x blocks does not fit 64 bits");
        } else if (why != MEASURED_WHY_NONE) {
            m->why = xstrdup(measured_why_text(why));
        }
    }
    free(unmodelled);
}

bool source_view_input(const scenario *s, const char *path, recording_doc *doc, const char *hint, const char *dir,
                       const source_skip *skips, int nskips, tui_source *out, char *why, size_t n)
{
    memset(out, 0, sizeof *out);
    io_error err;
    if (!scenario_has_layout(s) && doc) { /* read with the file: borrowed, never read again */
        if (doc->rc < 0 || (doc->rc > 0 && !recording_check(&doc->r, path, scenario_access_count(s), &err))) {
            snprintf(why, n, "%s", doc->rc < 0 ? doc->err.text : err.text); /* the lines must partition the trace */
            return false;
        }
        out->is_recording = doc->rc > 0;
        out->doc = out->is_recording ? recording_doc_hold(doc) : NULL;
        out->rec = out->is_recording ? &doc->r : NULL;
    }
    const source_record_line *rec = out->is_recording ? out->rec->rows : NULL;
    int nrec = out->is_recording ? out->rec->nrows : 0;
    char name[4096];
    const char *file = source_lines_file(s, rec, nrec, name, sizeof name);
    size_t len = 0;
    char *text = file ? find_source(s, rec, nrec, file, path, hint, dir, &len, &out->path, &out->differs,
                                    &out->unchecked, &out->refused)
                      : NULL;
    source_skip *sk = xmalloc(sizeof *sk * (size_t)(nskips > 0 ? nskips : 1));
    int nsk = !scenario_has_layout(s) ? 0 : skips_of(file, skips, nskips, sk);
    const source_skip *known = skips ? sk : NULL; /* the importer's messages are at hand */
    bool ok = line_sums_source(s, text, len, rec, nrec, known, nsk, &out->sl, why, n);
    if (ok && out->is_recording)
        agreement(out->rec, &out->sl);
    free(text);
    free(sk);
    if (!ok)
        source_view_input_free(out);
    return ok;
}

void source_view_input_free(tui_source *src)
{
    source_lines_free(&src->sl);
    recording_doc_drop(src->doc);
    free(src->path);
    memset(src, 0, sizeof *src);
}
