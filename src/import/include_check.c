/* include_check: before the parser sees a source, the files its #include lines name (and those
 * theirs name, as far as they can be found the way the compiler looks) must be regular files.
 * A device, FIFO or /proc file as an include makes the parser read forever or block
 * (/dev/zero, a FIFO without a writer) or disclose what the user did not choose; such an include
 * is refused at its position. Includes named through macros are not followed here: the parser's
 * time and memory limits bound them. */
#include "import/include_check.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHECK_MAX_FILES 512
#define CHECK_MAX_DEPTH 32

typedef struct seen_list {
    char *path[CHECK_MAX_FILES];
    int n;
} seen_list;

/* Whether a path lies under a folder of the system's special files (/dev, /proc, /sys). */
static bool special_place(const char *path)
{
    static const char *const dirs[] = {"/dev", "/proc", "/sys"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        size_t n = strlen(dirs[i]);
        if (!strncmp(path, dirs[i], n) && (path[n] == '/' || path[n] == '\0'))
            return true;
    }
    return false;
}

/* Where a quoted or angled include NAME of the file in dir resolves (a new string), or NULL when
 * it is nowhere the compiler would look first (a system header, a missing one). */
static char *resolve(const char *name, bool quoted, const char *dir, const import_options *o)
{
    char buf[PATH_MAX];
    struct stat st;
    if (name[0] == '/')
        return lstat(name, &st) == 0 ? strdup(name) : NULL;
    if (quoted && snprintf(buf, sizeof buf, "%s/%s", dir, name) < (int)sizeof buf && lstat(buf, &st) == 0)
        return strdup(buf);
    for (int i = 0; i < o->nincludes; i++)
        if (snprintf(buf, sizeof buf, "%s/%s", o->includes[i], name) < (int)sizeof buf && lstat(buf, &st) == 0)
            return strdup(buf);
    return NULL;
}

static bool check_file(const char *path, const import_options *o, seen_list *seen, int depth);

/* Check one #include line (p after the '#'); false with the message printed when refused. */
static bool check_line(const char *p, const char *file, int line, int col, const char *dir, const import_options *o,
                       seen_list *seen, int depth)
{
    while (*p == ' ' || *p == '\t')
        p++;
    size_t kw = strncmp(p, "include_next", 12) == 0 ? 12
                : strncmp(p, "include", 7) == 0     ? 7
                : strncmp(p, "import", 6) == 0      ? 6
                                                    : 0;
    if (!kw)
        return true;
    p += kw;
    while (*p == ' ' || *p == '\t')
        p++;
    char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
    if (!close)
        return true; /* through a macro: not followed here */
    const char *e = strchr(p + 1, close), *nl = strchr(p + 1, '\n');
    if (!e || (nl && nl < e) || e - p - 1 <= 0 || e - p - 1 >= PATH_MAX)
        return true;
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%.*s", (int)(e - p - 1), p + 1);
    char *path = resolve(name, close == '"', dir, o);
    if (!path)
        return true;
    struct stat st;
    char *real = realpath(path, NULL);
    bool bad = stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (real && special_place(real)) || special_place(path);
    free(real);
    if (bad) {
        fprintf(stderr, "%s:%d:%d: error: #include %c%s%c names %s, not a regular source file: refused\n", file, line,
                col, close == '"' ? '"' : '<', name, close, path);
        free(path);
        return false;
    }
    bool ok = check_file(path, o, seen, depth + 1);
    free(path);
    return ok;
}

/* Check the includes of one regular file (each file once, depth and count bounded). */
static bool check_file(const char *path, const import_options *o, seen_list *seen, int depth)
{
    if (depth > CHECK_MAX_DEPTH || seen->n >= CHECK_MAX_FILES)
        return true;
    for (int i = 0; i < seen->n; i++)
        if (!strcmp(seen->path[i], path))
            return true;
    seen->path[seen->n++] = strdup(path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return true;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return true;
    }
    /* the whole file, up to the size an imported source may have */
    size_t cap = IMPORT_MAX_FILE_BYTES, len = 0;
    char *text = malloc(cap + 1);
    if (!text) {
        fclose(f);
        return true;
    }
    len = fread(text, 1, cap, f);
    fclose(f);
    text[len] = '\0';
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path)
        snprintf(dir, sizeof dir, "/");
    bool ok = true;
    int line = 1;
    for (char *p = text; ok && p < text + len; line++) {
        char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '#')
            ok = check_line(q + 1, path, line, (int)(q - p) + 1, dir, o, seen, depth);
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        if (!nl)
            break;
        p = nl + 1;
    }
    free(text);
    return ok;
}

bool import_check_includes(const import_options *o)
{
    seen_list seen = {.n = 0};
    bool ok = check_file(o->file, o, &seen, 0);
    for (int i = 0; i < seen.n; i++)
        free(seen.path[i]);
    return ok;
}
