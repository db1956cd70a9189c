/* recording_arrays: a recording's regions and the declarations of its variables
 * (recording_arrays.h). */
#include "io/recording_arrays.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/safe_open.h"
#include "util.h"

#define SOURCE_MAX (16 << 20)

/* Whether text holds one of the recording's non-empty line texts (the file is the one it ran). */
static bool holds_a_line(const recording *r, const char *text)
{
    for (int i = 0; i < r->nrows; i++) {
        const char *t = r->rows[i].text;
        if (t && *(t += strspn(t, " \t")) && strstr(text, t))
            return true;
    }
    return false;
}

/* The kernel's source file named by the recording's first line with a file, by its name, its
 * part after "/./" (nvcc given ./path) and its last component, resolved under the recording's
 * folder or source_dir only (safe_named_path), read capped and kept only when it holds a line
 * the recording carries. Its text, or NULL. */
static char *find_source(const recording *r, const char *path, const char *source_dir, size_t *len)
{
    const char *file = NULL;
    for (int i = 0; i < r->nrows && !file; i++)
        file = r->rows[i].file;
    if (!file || !path)
        return NULL;
    char folder[4096];
    const char *slash = strrchr(path, '/');
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash == path ? 1 : slash - path) : 1, slash ? path : ".");
    char given[4096]; /* --source FILE: its folder */
    struct stat st;
    if (source_dir && stat(source_dir, &st) == 0 && S_ISREG(st.st_mode)) {
        const char *sl = strrchr(source_dir, '/');
        snprintf(given, sizeof given, "%.*s", sl ? (int)(sl == source_dir ? 1 : sl - source_dir) : 1,
                 sl ? source_dir : ".");
        source_dir = given;
    }
    const char *roots[2] = {folder, source_dir};
    const char *dot = strstr(file, "/./"), *base = strrchr(file, '/');
    const char *names[3] = {file, dot ? dot + 3 : NULL, base ? base + 1 : file};
    for (int i = 0; i < 3; i++) {
        char real[4096], why[200];
        safe_refusal refused;
        if (!names[i] ||
            !safe_named_path(names[i], roots, source_dir ? 2 : 1, safe_source_exts, real, sizeof real, &refused, NULL))
            continue;
        char *t = safe_read_capped(real, SOURCE_MAX, len, why, sizeof why);
        if (t && safe_is_text(t, *len) && holds_a_line(r, t))
            return t;
        free(t);
    }
    return NULL;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The __shared__ declarations of text that are arrays ("__shared__ TYPE NAME[", not extern):
 * calls fn for each with the type and name; returns how many. */
static int each_decl(const char *text, void (*fn)(void *, const char *, const char *), void *ctx)
{
    int count = 0;
    for (const char *p = strstr(text, "__shared__"); p; p = strstr(p + 10, "__shared__")) {
        if (p > text && ident_char(p[-1]))
            continue;
        const char *line = p;
        while (line > text && line[-1] != '\n')
            line--;
        if (strstr(line, "extern") && strstr(line, "extern") < p)
            continue;
        /* TYPE words up to the name before '[' on the same line */
        const char *br = p + 10;
        while (*br && *br != '[' && *br != ';' && *br != '\n' && *br != '=')
            br++;
        if (*br != '[')
            continue;
        const char *ne = br;
        while (ne > p + 10 && isspace((unsigned char)ne[-1]))
            ne--;
        const char *nb = ne;
        while (nb > p + 10 && ident_char(nb[-1]))
            nb--;
        const char *tb = p + 10, *te = nb;
        while (tb < te && isspace((unsigned char)*tb))
            tb++;
        while (te > tb && isspace((unsigned char)te[-1]))
            te--;
        if (nb == ne || tb == te || ne - nb > 80 || te - tb > 60)
            continue;
        char type[64], name[96];
        snprintf(type, sizeof type, "%.*s", (int)(te - tb), tb);
        snprintf(name, sizeof name, "%.*s", (int)(ne - nb), nb);
        if (strncmp(type, "alignas", 7) == 0 || strstr(type, "__align__")) { /* keep the type after it */
            const char *close = strrchr(type, ')');
            if (close) {
                memmove(type, close + 1 + strspn(close + 1, " "), strlen(close + 1 + strspn(close + 1, " ")) + 1);
            }
        }
        count++;
        if (fn)
            fn(ctx, type, name);
    }
    return count;
}

typedef struct decl_find {
    const char *name;
    char *type;
    size_t n;
    char first_type[64], first_name[96];
    int seen;
} decl_find;

/* each_decl's callback: keep the first declaration, and the type of the one named d->name. */
static void decl_match(void *ctx, const char *type, const char *name)
{
    decl_find *d = ctx;
    if (d->seen++ == 0) {
        snprintf(d->first_type, sizeof d->first_type, "%s", type);
        snprintf(d->first_name, sizeof d->first_name, "%s", name);
    }
    if (d->name && strcmp(d->name, name) == 0)
        snprintf(d->type, d->n, "%s", type);
}

void recording_regions_build(const recording *r, const char *path, const char *source_dir, const scenario *s,
                             recording_regions *out)
{
    memset(out, 0, sizeof *out);
    if (r && r->has_arrays && r->narrays > 0) {
        out->from_cubin = true;
        for (int i = 0; i < r->narrays && out->n < WHATIF_MAX_REGIONS; i++) {
            snprintf(out->names[out->n], sizeof out->names[0], "%s", r->arrays[i].name);
            out->regions[out->n] = (whatif_region){.name = out->names[out->n],
                                                   .start = r->arrays[i].offset,
                                                   .bytes = r->arrays[i].bytes,
                                                   .dynamic = r->arrays[i].dynamic,
                                                   .exact = !r->arrays[i].dynamic};
            out->n++;
        }
    } else {
        int64_t lo = INT64_MAX, hi = -1;
        for (int i = 0; i < s->ntrace; i++)
            for (int l = 0; l < BANKS_WARP; l++)
                if ((s->trace[i].active >> l) & 1) {
                    int64_t a = s->trace[i].addr[l], end = a + (s->trace[i].width > 0 ? s->trace[i].width : 1);
                    lo = a < lo ? a : lo;
                    hi = end > hi ? end : hi;
                }
        if (hi > lo) {
            snprintf(out->names[0], sizeof out->names[0], "recorded window");
            out->regions[0] = (whatif_region){.name = out->names[0], .start = lo, .bytes = hi - lo};
            out->n = 1;
        }
    }
    size_t len;
    char *text = r ? find_source(r, path, source_dir, &len) : NULL;
    if (!text)
        return;
    decl_find all = {0};
    int ndecl = each_decl(text, decl_match, &all);
    for (int i = 0; i < out->n; i++) {
        /* an unnamed static region (stripped symbols, or no arrays at all) of a file that
         * declares one shared array: that array */
        bool unnamed = !out->regions[i].dynamic &&
                       (!out->from_cubin ||
                        (r->arrays[i].symbol == NULL && strcmp(r->arrays[i].name, "static shared memory") == 0));
        if (unnamed && ndecl == 1) {
            snprintf(out->was[i], sizeof out->was[0], "the %s", out->names[i]);
            snprintf(out->names[i], sizeof out->names[0], "%s", all.first_name);
        }
        decl_find d = {.name = out->names[i], .type = out->types[i], .n = sizeof out->types[0]};
        each_decl(text, decl_match, &d);
    }
    free(text);
}

whatif_input recording_whatif_input(const scenario *s, const recording *r, const recording_regions *g)
{
    int threads = 0;
    if (r && r->block_dim[0] > 0)
        threads =
            (int)(r->block_dim[0] * (r->block_dim[1] ? r->block_dim[1] : 1) * (r->block_dim[2] ? r->block_dim[2] : 1));
    if (threads <= 0)
        threads = scenario_threads(s);
    return (whatif_input){.arch = s->arch,
                          .trace = s->trace,
                          .ntrace = s->ntrace,
                          .regions = g->regions,
                          .nregions = g->n,
                          .threads = threads};
}
