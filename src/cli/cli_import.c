/* cli_import: `bankscope import FILE.cu`: CUDA source -> scenario JSON (stdout or -o FILE). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "import/import.h"
#include "io/save.h"
#include "model/source_lines.h"

/* Parse "X[,Y[,Z]]" into block; 0 or CLI_USAGE. */
static int parse_block(const char *v, int block[3])
{
    block[0] = block[1] = block[2] = 1;
    const char *p = v;
    for (int d = 0; d < 3; d++) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < 1 || x > 1024)
            return cli_usage_error("import: --block needs X[,Y[,Z]] with 1..1024 each (got '%s')", v);
        block[d] = (int)x;
        if (*end == '\0')
            return (long)block[0] * block[1] * block[2] <= 1024
                       ? 0
                       : cli_usage_error("import: --block %s has more than 1024 threads", v);
        if (*end != ',' || d == 2)
            return cli_usage_error("import: --block needs X[,Y[,Z]] (got '%s')", v);
        p = end + 1;
    }
    return 0;
}

static int parse_num(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    long long x = v ? strtoll(v, &end, 0) : 0;
    if (!v || !*v || *end || x < lo || x > hi)
        return cli_usage_error("import: %s needs a number %lld..%lld", opt, lo, hi);
    *out = x;
    return 0;
}

/* False when v is written as an integer (as strtoll reads one: decimal, 0x hex or 0 octal, with a
 * sign) that does not fit in 64 bits; a value that is no integer (a type, an expression) is
 * left to the importer. */
static bool define_fits(const char *v)
{
    char *end;
    errno = 0;
    (void)strtoll(v, &end, 0);
    return !(end != v && *end == '\0' && errno == ERANGE);
}

/* Whether -o may be written: never the input itself (the same file under another name or a hard
 * link: the same device and inode, as cc checks), and an existing regular file only with
 * --force. Character devices and pipes (/dev/null, /dev/stdout) are written to, not replaced.
 * 0, or CLI_USAGE after a message. */
static int check_output(const char *in, const char *out, bool force)
{
    struct stat si, so;
    if (stat(out, &so) != 0) {
        if (lstat(out, &so) == 0)
            return 0; /* a dangling link: its target is created */
        if (errno != ENOENT)
            return cli_usage_error("import: -o %s: %s", out, strerror(errno));
        /* a new file: its folder must exist (the save writes a temporary file beside it) */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", out);
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else
            slash[slash == dir] = '\0'; /* "/x.json": the folder is "/" */
        struct stat sd;
        if (stat(dir, &sd) != 0 || !S_ISDIR(sd.st_mode))
            return cli_usage_error("import: -o %s: the folder %s %s", out, dir,
                                   stat(dir, &sd) != 0 ? "does not exist" : "is not a folder");
        return 0;
    }
    if (stat(in, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino)
        return cli_usage_error("import: the output %s is the input %s: refusing to replace the CUDA source", out, in);
    if (S_ISREG(so.st_mode) && !force)
        return cli_usage_error("import: %s exists: give --force to replace it, or another -o", out);
    return 0;
}

/* Whether the CUDA file can be read: one that cannot be opened, or a folder, is a usage error
 * with the reason, in the words of the other commands' messages. 0, or CLI_USAGE after it. */
static int check_input(const char *in)
{
    struct stat si;
    FILE *f = fopen(in, "r");
    if (!f)
        return cli_usage_error("import: %s: %s", in, strerror(errno));
    bool dir = fstat(fileno(f), &si) == 0 && S_ISDIR(si.st_mode);
    fclose(f);
    return dir ? cli_usage_error("import: %s: %s", in, strerror(EISDIR)) : 0;
}

/* Whether the file launches a kernel (has "<<<"): the import may then find the block there. */
static bool has_launch(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    int c, run = 0;
    long n = 0;
    while (run < 3 && n++ < IMPORT_MAX_FILE_BYTES && (c = getc(f)) != EOF)
        run = c == '<' ? run + 1 : 0;
    fclose(f);
    return run >= 3;
}

/* Parse the options; 0, or CLI_USAGE after a message. With tui set, the interactive view's flags
 * are collected into tui_argv (argc entries at most). */
static int parse_args(int argc, char **argv, import_options *o, const char **out, bool *force, char **tui_argv,
                      int *tui_argc)
{
    static const struct option opts[] = {
        {"kernel", required_argument, NULL, 'k'},  {"block", required_argument, NULL, 'b'},
        {"smem", required_argument, NULL, 's'},    {"loop", required_argument, NULL, 'l'},
        {"timeout", required_argument, NULL, 't'}, {"force", no_argument, NULL, 'f'},
        {"no-gpu", no_argument, NULL, 'G'},        {"no-color", no_argument, NULL, 'C'},
        {"no-mouse", no_argument, NULL, 'M'},      {0}};
    memset(o, 0, sizeof *o);
    *force = false;
    o->smem_bytes = -1;
    o->timeout_s = 30;
    cli_args args;
    cli_args_init(&args, "import", argc, argv, false);
    int c, rc = 0;
    const char *v;
    while (rc == 0 && (c = cli_args_next(&args, "o:D:I:", opts, &v)) != -1) {
        long long n;
        switch (c) {
        case 'k': o->kernel = v; break;
        case 'b': rc = parse_block(v, o->block); break;
        case 'o': *out = v; break;
        case 'f': /* replaces -o's file; in the view, also jobs above the work limit */
            *force = true;
            if (tui_argv)
                tui_argv[(*tui_argc)++] = "--force";
            break;
        case 's':
            rc = parse_num("--smem", v, 1, 1 << 24, &n);
            o->smem_bytes = n;
            break;
        case 'l':
            rc = parse_num("--loop", v, 1, 1 << 30, &n);
            o->loop_line = (int)n;
            break;
        case 't':
            rc = parse_num("--timeout", v, 1, 3600, &n);
            o->timeout_s = (int)n;
            break;
        case 'D': {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1] || o->ndefines >= IMPORT_MAX_DEFINES)
                rc = cli_usage_error("import: -D needs NAME=VALUE (at most %d)", IMPORT_MAX_DEFINES);
            else if (!define_fits(eq + 1))
                rc = cli_usage_error("import: -D %s: %s does not fit in a 64-bit integer (%lld..%lld)", v, eq + 1,
                                     (long long)INT64_MIN, (long long)INT64_MAX);
            else { /* the name is cut at '=' in place: argv is ours to use */
                ((char *)eq)[0] = '\0';
                o->defines[o->ndefines++] = (import_define){v, eq + 1};
            }
            break;
        }
        case 'I':
            if (o->nincludes >= IMPORT_MAX_INCLUDES)
                rc = cli_usage_error("import: at most %d -I", IMPORT_MAX_INCLUDES);
            else
                o->includes[o->nincludes++] = v;
            break;
        case 'G':
        case 'C':
        case 'M': /* the interactive view's flags, for `bankscope FILE.cu` */
            if (tui_argv)
                tui_argv[(*tui_argc)++] = c == 'G' ? "--no-gpu" : c == 'C' ? "--no-color" : "--no-mouse";
            else
                rc = cli_usage_error("import: unknown option '--%s' (see bankscope --help)", c == 'G'   ? "no-gpu"
                                                                                             : c == 'C' ? "no-color"
                                                                                                        : "no-mouse");
            break;
        default: rc = CLI_USAGE; break;
        }
    }
    if (rc == 0 && args.noperands > 1)
        rc = cli_usage_error("import: one file only (got '%s' and '%s')", args.operands[0], args.operands[1]);
    if (rc == 0 && args.noperands == 1)
        o->file = args.operands[0];
    cli_args_free(&args);
    if (rc)
        return CLI_USAGE;
    if (!o->file)
        return cli_usage_error("import: give a CUDA file (bankscope import FILE.cu --block X[,Y[,Z]])");
    if (!o->block[0] && !has_launch(o->file))
        return cli_usage_error("import: give the block shape with --block X[,Y[,Z]] (the source does not say it)");
    int in = check_input(o->file);
    return in ? in : *out ? check_output(o->file, *out, *force) : 0;
}

int cli_import(int argc, char **argv)
{
    import_options o;
    const char *out = NULL;
    bool force;
    if (parse_args(argc, argv, &o, &out, &force, NULL, NULL))
        return CLI_USAGE;
    import_result res;
    int st = import_run(&o, &res);
    char *json = res.json;
    res.json = NULL;
    import_result_free(&res); /* the messages were printed as they came */
    if (st != IMPORT_OK)
        return st;
    size_t len = strlen(json);
    if (len == 0 || json[len - 1] != '\n') {
        json = xrealloc(json, len + 2);
        json[len++] = '\n';
        json[len] = '\0';
    }
    int rc = CLI_OK;
    if (out) {
        char err[256];
        if (!save_atomic(out, json, len, err, sizeof err)) {
            fprintf(stderr, "bankscope: %s\n", err);
            rc = CLI_FAIL;
        }
    } else {
        fputs(json, stdout);
        rc = cli_finish_stdout("import");
    }
    free(json);
    return rc;
}

int cli_is_cuda_source(const char *arg)
{
    size_t n = strlen(arg);
    return n > 3 && (strcmp(arg + n - 3, ".cu") == 0 || (n > 4 && strcmp(arg + n - 4, ".cuh") == 0));
}

/* The accesses r says were skipped, as the source view lists them (borrowing r's texts). */
static source_skip *view_skips(const import_result *r, int *n)
{
    source_skip *v = xmalloc(sizeof *v * (size_t)(r->nskips > 0 ? r->nskips : 1));
    *n = 0;
    for (int i = 0; i < r->nskips; i++)
        if (r->skips[i].skipped)
            v[(*n)++] = (source_skip){.file = r->skips[i].file,
                                      .line = r->skips[i].line,
                                      .column = r->skips[i].col,
                                      .message = r->skips[i].text};
    return v;
}

int cli_import_tui(int argc, char **argv)
{
    import_options o;
    const char *out = NULL;
    char **tui_argv = xcalloc((size_t)argc + 4, sizeof *tui_argv);
    int tui_argc = 1;
    bool force;
    if (parse_args(argc, argv, &o, &out, &force, tui_argv, &tui_argc)) {
        free(tui_argv);
        return CLI_USAGE;
    }
    import_result res;
    int st = import_run(&o, &res);
    if (st != IMPORT_OK) {
        free(tui_argv);
        import_result_free(&res);
        return st;
    }
    const char *json = res.json;
    /* the view edits and saves a file: the import's (-o), or a new one in the temporary folder,
     * kept after the view closes so that nothing saved there is lost */
    char path[4096];
    int rc = CLI_OK;
    if (out)
        snprintf(path, sizeof path, "%s", out);
    else {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/bankscope-import-XXXXXX.json", dir && *dir ? dir : "/tmp");
        int fd = mkstemps(path, 5);
        if (fd < 0) {
            fprintf(stderr, "bankscope: %s: cannot create a file for the imported scenario\n", path);
            rc = CLI_FAIL;
        } else
            close(fd);
    }
    char err[256];
    if (rc == CLI_OK && !save_atomic(path, json, strlen(json), err, sizeof err)) {
        fprintf(stderr, "bankscope: %s\n", err);
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK) {
        tui_argv[0] = path;
        tui_argv[tui_argc++] = "--source"; /* the source view reads the .cu itself */
        tui_argv[tui_argc++] = (char *)o.file;
        /* the header names the .cu (its last path component), not the temporary file */
        const char *cu = o.file && strrchr(o.file, '/') ? strrchr(o.file, '/') + 1 : o.file;
        int nskips;
        source_skip *skips = view_skips(&res, &nskips);
        rc = cli_tui_named(tui_argc, tui_argv, skips, nskips, out ? NULL : cu);
        free(skips);
        fprintf(stderr, "bankscope: the imported scenario is %s\n", path);
    }
    free(tui_argv);
    import_result_free(&res);
    return rc;
}
