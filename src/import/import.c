/* import: parse the CUDA file with libclang and hand the kernel to the walker, which builds the
 * scenario through the model and checks it with the model's checks; the child sends the model's
 * saved form (the scenario saver's JSON) to the parent. The parse runs in a child process with a time limit and
 * a memory limit (an address-space limit outside sanitizer builds, and in every build the parent's watch of
 * the child's resident memory), so that a hostile source (macros that expand exponentially,
 * enormous includes) ends with a message instead of a hang. */
#include "import/import.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "import/import_internal.h"
#include "import/include_check.h"
#include "import/walk_internal.h"
#include "io/save.h"
#include "util.h"

#if defined(__SANITIZE_ADDRESS__)
#define IMPORT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IMPORT_SANITIZED 1
#endif
#endif

#define IMPORT_MEMORY_LIMIT ((rlim_t)4 << 30)

bool import_available(void)
{
    return true;
}

/* Print the parse errors that matter ("file:line:col: error: ..."); true when there was one.
 * Only an error inside the kernel's text stops the import, and each is printed. Errors around it
 * (host code, headers, other kernels: what the prelude or a stand-in header does not declare)
 * are printed as ignored, the first few of them. */
static bool report_errors(CXTranslationUnit tu, CXCursor kernel, char *first, size_t nfirst)
{
    first[0] = '\0';
    unsigned n = clang_getNumDiagnostics(tu), outside_n = 0, errors = 0;
    unsigned kbegin = 0, kend = 0;
    CXFile kfile = NULL;
    if (!clang_Cursor_isNull(kernel)) {
        CXSourceRange r = clang_getCursorExtent(kernel);
        clang_getExpansionLocation(clang_getRangeStart(r), &kfile, NULL, NULL, &kbegin);
        clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &kend);
    }
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            CXFile f = NULL;
            unsigned off = 0;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
            /* outside the kernel's text: in the host code around it, or in a header */
            bool outside = sev == CXDiagnostic_Error && kfile &&
                           (!f || !clang_File_isEqual(f, kfile) || off < kbegin || off > kend);
            if (!outside && errors++ == 0) {
                unsigned l = 0, c = 0;
                clang_getExpansionLocation(clang_getDiagnosticLocation(d), NULL, &l, &c, NULL);
                snprintf(first, nfirst, "the error at %u:%u", l, c);
            }
            if (!outside || outside_n++ < 5) {
                CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
                fprintf(stderr, "%s%s\n", clang_getCString(s), outside ? " (outside the kernel: ignored)" : "");
                clang_disposeString(s);
            }
        }
        clang_disposeDiagnostic(d);
    }
    if (outside_n > 5)
        fprintf(stderr, "(%u more errors outside the kernel: ignored)\n", outside_n - 5);
    return errors > 0;
}

/* The headers the parse did not find, parsed as empty files (a missing include is a note). */
typedef struct parse_files {
    struct CXUnsavedFile *uf; /* the prelude, the stand-ins, then the missing headers */
    char **owned;             /* names and texts made here, freed with the list */
    unsigned n, nowned;
} parse_files;

static void files_add(parse_files *pf, const char *name, const char *text, bool own)
{
    pf->uf = xrealloc(pf->uf, (pf->n + 1) * sizeof *pf->uf);
    pf->uf[pf->n++] = (struct CXUnsavedFile){name, text, (unsigned long)strlen(text)};
    if (own) {
        pf->owned = xrealloc(pf->owned, (pf->nowned + 1) * sizeof *pf->owned);
        pf->owned[pf->nowned++] = (char *)name;
    }
}

static void files_free(parse_files *pf)
{
    for (unsigned i = 0; i < pf->nowned; i++)
        free(pf->owned[i]);
    free(pf->owned);
    free(pf->uf);
}

#define IMPORT_MISSING_DIR "/bankscope/missing"
#define IMPORT_MAX_MISSING 32

/* The header named by a "'NAME' file not found" fatal error of tu (a new string, with where it is
 * included from in *where), or NULL. */
static char *missing_include(CXTranslationUnit tu, char **where)
{
    char *name = NULL;
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu) && !name; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal) {
            CXString s = clang_formatDiagnostic(d, 0);
            const char *t = clang_getCString(s);
            const char *q = t ? strchr(t, '\'') : NULL, *e = q ? strstr(q + 1, "' file not found") : NULL;
            if (e && e > q + 1) {
                name = walk_fmt("%.*s", (int)(e - q - 1), q + 1);
                CXFile f = NULL;
                unsigned l = 0, c = 0;
                clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &l, &c, NULL);
                CXString fn = clang_getFileName(f);
                const char *fs = clang_getCString(fn);
                *where = walk_fmt("%s:%u:%u", fs ? fs : "?", l, c);
                clang_disposeString(fn);
            }
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    return name;
}

/* Parse, going on without each header that cannot be found (an empty file in its place, and a
 * note saying so). */
static enum CXErrorCode parse(CXIndex idx, const import_options *o, const char *const *args, int na, parse_files *pf,
                              CXTranslationUnit *tu)
{
    for (int tries = 0;; tries++) {
        enum CXErrorCode ec = clang_parseTranslationUnit2(idx, o->file, args, na, pf->uf, pf->n, 0, tu);
        if (ec != CXError_Success || !*tu || tries == IMPORT_MAX_MISSING)
            return ec;
        char *where = NULL, *name = missing_include(*tu, &where);
        if (!name)
            return ec;
        bool known = false;
        char *path = walk_fmt("%s/%s", IMPORT_MISSING_DIR, name);
        for (unsigned i = 0; i < pf->n; i++)
            known |= strcmp(pf->uf[i].Filename, path) == 0;
        if (known) { /* found empty and still missing: give up on it */
            free(path);
            free(name);
            free(where);
            return ec;
        }
        fprintf(stderr, "%s: note: '%s' not found: parsed without it (give -I DIR to use it)\n", where, name);
        files_add(pf, path, "", true);
        free(name);
        free(where);
        clang_disposeTranslationUnit(*tu);
        *tu = NULL;
    }
}

/* Whether the parse stopped early (a missing include, too many errors). */
static bool has_fatal(CXTranslationUnit tu)
{
    bool fatal = false;
    for (unsigned i = 0; i < clang_getNumDiagnostics(tu) && !fatal; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        fatal = clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal;
        clang_disposeDiagnostic(d);
    }
    return fatal;
}

static enum CXChildVisitResult global_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CUDAGlobalAttr) {
        *(bool *)d = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

typedef struct kernel_find {
    const char *want;
    CXCursor found;
    int n, matches;
    strbuf names;
    bool included; /* look in the files the main file includes (not in system headers) */
} kernel_find;

/* Collect the __global__ functions defined in the main file (with included set: in the user's
 * files it includes, such as a kernel file a host wrapper includes). */
static enum CXChildVisitResult kernel_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    kernel_find *k = d;
    enum CXCursorKind kind = clang_getCursorKind(c);
    /* libclang 14 reports an extern "C" block as an unexposed declaration */
    if (kind == CXCursor_Namespace || kind == CXCursor_LinkageSpec || kind == CXCursor_UnexposedDecl)
        return CXChildVisit_Recurse;
    CXSourceLocation loc = clang_getCursorLocation(c);
    if ((kind != CXCursor_FunctionDecl && kind != CXCursor_FunctionTemplate) || !clang_isCursorDefinition(c) ||
        clang_Location_isFromMainFile(loc) == k->included || clang_Location_isInSystemHeader(loc))
        return CXChildVisit_Continue;
    bool global = false;
    clang_visitChildren(c, global_visit, &global);
    if (!global)
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    strbuf_addf(&k->names, "%s%s", k->n ? ", " : "", name);
    k->n++;
    if (!k->want || strcmp(k->want, name) == 0) {
        k->found = c;
        k->matches++;
    }
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

typedef struct decl_find {
    const char *name;
    bool found;
} decl_find;

static enum CXChildVisitResult decl_visit(CXCursor c, CXCursor parent, CXClientData d)
{
    (void)parent;
    decl_find *f = d;
    enum CXCursorKind k = clang_getCursorKind(c);
    /* the file and the headers of the user's it includes (a kernel in a header its host file
     * includes), not the prelude or the toolkit's stand-ins */
    if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl || k == CXCursor_NonTypeTemplateParameter ||
        k == CXCursor_TemplateTypeParameter) {
        CXString s = clang_getCursorSpelling(c);
        f->found |= strcmp(clang_getCString(s), f->name) == 0;
        clang_disposeString(s);
    }
    return f->found ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether the file or a header of the user's it includes declares a variable, parameter or
 * template parameter called name. */
static bool declares(CXTranslationUnit tu, const char *name)
{
    decl_find f = {name, false};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), decl_visit, &f);
    return f.found;
}

/* The whole import, in the child: parse, find the kernel, walk (which builds and checks the
 * scenario), save. */
static int import_child(const import_options *o, import_result *res)
{
    char **json = &res->json;
    *json = NULL;
    char lerr[256];
    if (!import_clang_load(lerr, sizeof lerr)) {
        fprintf(stderr, "bankscope: %s\n", lerr);
        return IMPORT_FAIL;
    }
    const char *args[20 + 2 * IMPORT_MAX_DEFINES + 2 * IMPORT_MAX_INCLUDES];
    int na = 0;
    args[na++] = "-x";
    args[na++] = "cuda";
    args[na++] = "--cuda-host-only";
    args[na++] = "-nocudainc";
    args[na++] = "-nocudalib";
    args[na++] = "-std=c++17";
    args[na++] = "-Wno-unknown-cuda-version";
    args[na++] = "-ferror-limit=0"; /* every error is looked at: those outside the kernel are notes */
    args[na++] = "-fmacro-backtrace-limit=1";
    args[na++] = "-include";
    args[na++] = import_prelude_name;
    args[na++] = "-isystem";
    args[na++] = import_include_dir;
    args[na++] = "-idirafter";
    args[na++] = IMPORT_MISSING_DIR;
    strbuf defs = {0};
    char *owned[IMPORT_MAX_DEFINES];
    int nowned = 0;
    for (int i = 0; i < o->ndefines; i++) {
        /* every -D is also a macro unless a declaration of the file has that name, which the walker
         * then reads instead (a template parameter, a constant, a kernel parameter) */
        if (strchr(o->defines[i].name, '.'))
            continue;
        strbuf_addf(&defs, "-D%s=%s", o->defines[i].name, o->defines[i].value);
        owned[nowned++] = strbuf_take(&defs);
    }
    for (int i = 0; i < o->nincludes; i++) {
        args[na++] = "-I";
        args[na++] = o->includes[i];
    }
    /* the prelude and the CUDA header stand-ins, as files that exist only for the parser */
    parse_files pf = {NULL, NULL, 0, 0};
    files_add(&pf, import_prelude_name, import_prelude, false);
    files_add(&pf, import_prelude_more_name, import_prelude_more, false);
    files_add(&pf, import_prelude_host_name, import_prelude_host, false);
    for (int i = 0; import_standins[i].name; i++)
        files_add(&pf, walk_fmt("%s/%s", import_include_dir, import_standins[i].name), import_standins[i].text, true);
    CXIndex idx = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    /* first without the -D macros, to learn which names the file declares */
    enum CXErrorCode ec = parse(idx, o, args, na, &pf, &tu);
    int status = IMPORT_BAD_INPUT;
    if (ec != CXError_Success || !tu) {
        fprintf(stderr, "%s: libclang could not parse the file (error %d)\n", o->file, (int)ec);
        goto done;
    }
    if (nowned) {
        int macro_args = 0;
        for (int i = 0; i < nowned; i++) {
            const char *nm = owned[i] + 2;
            char key[128];
            snprintf(key, sizeof key, "%.*s", (int)strcspn(nm, "="), nm);
            if (!declares(tu, key))
                args[na + macro_args++] = owned[i];
        }
        if (macro_args) {
            clang_disposeTranslationUnit(tu);
            tu = NULL;
            ec = parse(idx, o, args, na + macro_args, &pf, &tu);
            if (ec != CXError_Success || !tu) {
                fprintf(stderr, "%s: libclang could not parse the file (error %d)\n", o->file, (int)ec);
                goto done;
            }
        }
    }
    kernel_find kf = {o->kernel, clang_getNullCursor(), 0, 0, {0}, false};
    if (!has_fatal(tu)) {
        clang_visitChildren(clang_getTranslationUnitCursor(tu), kernel_visit, &kf);
        if (kf.matches == 0) { /* none (or none of that name) in the main file: in the files it includes */
            kernel_find inc = {o->kernel, clang_getNullCursor(), 0, 0, {0}, true};
            clang_visitChildren(clang_getTranslationUnitCursor(tu), kernel_visit, &inc);
            if (inc.matches > 0) {
                strbuf_free(&kf.names);
                kf = inc;
            } else
                strbuf_free(&inc.names);
        }
    }
    /* without one kernel every error counts; with it, those around it are only noted */
    char first[64];
    if (report_errors(tu, kf.matches == 1 ? kf.found : clang_getNullCursor(), first, sizeof first)) {
        if (kf.matches == 1) /* every access of the kernel is listed, none lost without a word */
            import_walk_broken(tu, kf.found, o, first, res);
    } else if (kf.n == 0)
        fprintf(stderr, "%s: no __global__ function in this file\n", o->file);
    else if (kf.matches == 0)
        fprintf(stderr, "%s: no kernel named '%s' (kernels: %s)\n", o->file, o->kernel, strbuf_str(&kf.names));
    else if (kf.matches > 1)
        fprintf(stderr, "%s: %d kernels (%s): choose one with --kernel NAME\n", o->file, kf.n, strbuf_str(&kf.names));
    else {
        scenario sc;
        if (import_walk(tu, kf.found, o, &sc, &status, res)) {
            /* the model's own saved form: the file looks like every other scenario */
            strbuf sb = {0};
            save_scenario_json(&sc, &sb);
            scenario_free(&sc);
            *json = strbuf_take(&sb);
        }
    }
    strbuf_free(&kf.names);
done:
    for (int i = 0; i < nowned; i++)
        free(owned[i]);
    files_free(&pf);
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(idx);
    return *json ? IMPORT_OK : status;
}

/* ---- what the parser child sends back: its messages as records, then the document ---- */

/* One record's head on the pipe, followed by file_len bytes of file and text_len of text. The
 * child and the parent are one program, so the struct is written as it is in memory. */
typedef struct import_wire {
    uint32_t kind; /* IMPORT_WIRE_SKIP, _NOTE, or _DOC (the scenario's text; the last record) */
    int32_t line, col;
    uint32_t file_len, text_len;
} import_wire;
enum { IMPORT_WIRE_SKIP = 1, IMPORT_WIRE_NOTE, IMPORT_WIRE_DOC };

/* Room for one more skip record: doubled when full, so that 100,000 messages cost linear time
 * (a realloc per record copies the whole list where realloc always moves, as in ASan builds). */
static import_skip *skip_slot(import_result *r)
{
    if (r->nskips >= r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->skips = xrealloc(r->skips, sizeof *r->skips * (size_t)r->cap);
    }
    return &r->skips[r->nskips++];
}

void import_result_add(import_result *res, int line, int col, const char *text)
{
    /* the walk writes "FILE:LINE:COL: ..." (a note about a line: "FILE:LINE: ..."); its place is
     * known, so the file is what comes before it */
    char with_col[48], line_only[32];
    snprintf(with_col, sizeof with_col, ":%d:%d: ", line, col);
    snprintf(line_only, sizeof line_only, ":%d: ", line);
    const char *at = strstr(text, with_col), *rest;
    if (at)
        rest = at + strlen(with_col);
    else if ((at = strstr(text, line_only)) != NULL) {
        rest = at + strlen(line_only);
        col = 0;
    } else { /* no place in the text: the message alone */
        at = text;
        rest = text;
        col = 0;
    }
    *skip_slot(res) = (import_skip){.file = xstrdup_n(text, (size_t)(at - text)),
                                    .line = line,
                                    .col = col,
                                    .skipped = strncmp(rest, "skipped ", 8) == 0,
                                    .text = xstrdup(text)};
}

void import_result_free(import_result *r)
{
    for (int i = 0; i < r->nskips; i++) {
        free(r->skips[i].file);
        free(r->skips[i].text);
    }
    free(r->skips);
    free(r->json);
    *r = (import_result){0};
}

/* Write n bytes to fd (a pipe), however many writes it takes. */
static bool write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = write(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

static bool wire_put(int fd, uint32_t kind, int line, int col, const char *file, const char *text)
{
    size_t fl = file ? strlen(file) : 0, tl = text ? strlen(text) : 0;
    import_wire h = {.kind = kind, .line = line, .col = col, .file_len = (uint32_t)fl, .text_len = (uint32_t)tl};
    return write_all(fd, &h, sizeof h) && write_all(fd, file, fl) && write_all(fd, text, tl);
}

/* The child's side: every message, then the document when there is one. */
static void wire_send(int fd, const import_result *r)
{
    bool ok = true;
    for (int i = 0; ok && i < r->nskips; i++) {
        const import_skip *k = &r->skips[i];
        ok = wire_put(fd, k->skipped ? IMPORT_WIRE_SKIP : IMPORT_WIRE_NOTE, k->line, k->col, k->file, k->text);
    }
    if (ok && r->json)
        wire_put(fd, IMPORT_WIRE_DOC, 0, 0, NULL, r->json);
}

/* The parent's side: the records of buf (len bytes) into r; false when they are cut short. */
static bool wire_read(const char *buf, size_t len, import_result *r)
{
    size_t at = 0;
    while (at < len) {
        import_wire h;
        if (len - at < sizeof h)
            return false;
        memcpy(&h, buf + at, sizeof h);
        at += sizeof h;
        if ((size_t)h.file_len > len - at || (size_t)h.text_len > len - at - h.file_len)
            return false;
        const char *file = buf + at, *text = file + h.file_len;
        at += (size_t)h.file_len + h.text_len;
        if (h.kind == IMPORT_WIRE_DOC) {
            free(r->json);
            r->json = xstrdup_n(text, h.text_len);
            continue;
        }
        *skip_slot(r) = (import_skip){.file = xstrdup_n(file, h.file_len),
                                      .line = h.line,
                                      .col = h.col,
                                      .skipped = h.kind == IMPORT_WIRE_SKIP,
                                      .text = xstrdup_n(text, h.text_len)};
    }
    return true;
}

/* The resident memory of process pid in bytes (Linux's /proc/PID/statm); 0 when unknown. */
static unsigned long long resident_bytes(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    FILE *f = fopen(path, "r");
    unsigned long long size = 0, rss = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%llu %llu", &size, &rss) != 2)
        rss = 0;
    fclose(f);
    long page = sysconf(_SC_PAGESIZE);
    return rss * (unsigned long long)(page > 0 ? page : 4096);
}

/* Read everything from fd until EOF or the deadline; NULL on timeout. The child pid is watched
 * meanwhile: past IMPORT_MEMORY_LIMIT of resident memory it is killed and *too_big set (the
 * limit that holds in sanitizer builds too, where an address-space limit cannot be set). */
static char *read_all(int fd, time_t deadline, bool *timed_out, pid_t pid, bool *too_big, size_t *len)
{
    strbuf sb = {0};
    char buf[4096];
    *timed_out = false;
    *too_big = false;
    for (;;) {
        time_t now = time(NULL);
        if (now >= deadline) {
            *timed_out = true;
            break;
        }
        if (resident_bytes(pid) > (unsigned long long)IMPORT_MEMORY_LIMIT) {
            kill(pid, SIGKILL);
            *too_big = true;
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 100); /* a tenth of a second between looks at the child's memory */
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue;
        if (r < 0)
            break;
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        strbuf_add(&sb, buf, (size_t)n);
    }
    *len = sb.len;
    return strbuf_take(&sb);
}

/* ---- the parser child never outlives its parent, nor the time limit ---- */

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIG_CAUGHT 4
static volatile sig_atomic_t guarded_child; /* the parser child while the parent waits, else 0 */

/* A signal that ends the parent ends the parser first, then the parent as the signal would
 * have (async-signal-safe: kill, sigaction and raise only). */
static void on_parent_signal(int sig)
{
    if (guarded_child > 0)
        kill((pid_t)guarded_child, SIGKILL);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

/* While a child runs: the signals that end the process kill it first (old keeps the handlers
 * in place before, such as work.c's cancel flag, which child_guard_off restores). */
static void child_guard_on(struct sigaction old[NSIG_CAUGHT])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_parent_signal;
    sigemptyset(&sa.sa_mask);
    guarded_child = 0;
    for (int i = 0; i < NSIG_CAUGHT; i++)
        sigaction(caught_signals[i], &sa, &old[i]);
}

static void child_guard_off(const struct sigaction old[NSIG_CAUGHT])
{
    guarded_child = 0;
    for (int i = 0; i < NSIG_CAUGHT; i++)
        sigaction(caught_signals[i], &old[i], NULL);
}

/* In the child, first thing: die with the parent (Linux's PR_SET_PDEATHSIG, then a check that
 * the parent did not die before it was set), and stop on its own one second after the parent's
 * deadline (alarm: wall-clock time; RLIMIT_CPU: processor time) even if nobody is left to kill it. */
static void child_bound(pid_t parent, int timeout_s)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int i = 0; i < NSIG_CAUGHT; i++)
        sigaction(caught_signals[i], &dfl, NULL);
    sigaction(SIGALRM, &dfl, NULL);
    sigaction(SIGXCPU, &dfl, NULL);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(IMPORT_FAIL);
    alarm((unsigned)timeout_s + 1);
    struct rlimit cpu = {(rlim_t)timeout_s + 1, (rlim_t)timeout_s + 2};
    setrlimit(RLIMIT_CPU, &cpu);
}

/* The number of lines of path (a last line without a newline counts); -1 when it cannot be read. */
static long count_lines(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long n = 0;
    int c, last = '\n';
    while ((c = getc(f)) != EOF) {
        n += c == '\n';
        last = c;
    }
    fclose(f);
    return n + (last != '\n');
}

int import_run(const import_options *o, import_result *r)
{
    *r = (import_result){.skips = xmalloc(sizeof *r->skips)}; /* known, even when there are none */
    struct stat st;
    if (stat(o->file, &st) != 0) {
        fprintf(stderr, "%s: %s\n", o->file, strerror(errno));
        return IMPORT_BAD_INPUT;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "%s: not a regular file\n", o->file);
        return IMPORT_BAD_INPUT;
    }
    if (st.st_size > IMPORT_MAX_FILE_BYTES) {
        fprintf(stderr, "%s: %lld bytes: larger than the %d MiB an imported source may have\n", o->file,
                (long long)st.st_size, IMPORT_MAX_FILE_BYTES >> 20);
        return IMPORT_BAD_INPUT;
    }
    if (!import_check_includes(o))
        return IMPORT_BAD_INPUT;
    long nlines = o->loop_line > 0 ? count_lines(o->file) : 0;
    if (nlines >= 0 && o->loop_line > nlines) {
        fprintf(stderr, "bankscope: --loop %d: %s has %ld line%s\n", o->loop_line, o->file, nlines,
                nlines == 1 ? "" : "s");
        return IMPORT_BAD_INPUT;
    }
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "bankscope: pipe: %s\n", strerror(errno));
        return IMPORT_FAIL;
    }
    fflush(stderr);
    int timeout_s = o->timeout_s > 0 ? o->timeout_s : 30;
    pid_t parent = getpid();
    struct sigaction old[NSIG_CAUGHT];
    child_guard_on(old);
    pid_t pid = fork();
    if (pid < 0) {
        child_guard_off(old);
        fprintf(stderr, "bankscope: fork: %s\n", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return IMPORT_FAIL;
    }
    if (pid == 0) {
        close(fds[0]);
        child_bound(parent, timeout_s);
#ifndef IMPORT_SANITIZED
        struct rlimit rl = {IMPORT_MEMORY_LIMIT, IMPORT_MEMORY_LIMIT};
        setrlimit(RLIMIT_AS, &rl);
#endif
        import_result out = {0};
        int st2 = import_child(o, &out);
        wire_send(fds[1], &out);
        import_result_free(&out);
        close(fds[1]);
        fflush(stderr);
        _exit(st2);
    }
    guarded_child = pid;
    close(fds[1]);
    bool timed_out, too_big;
    size_t len = 0;
    char *text = read_all(fds[0], time(NULL) + timeout_s, &timed_out, pid, &too_big, &len);
    close(fds[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int wst = 0;
    while (waitpid(pid, &wst, 0) < 0 && errno == EINTR)
        ;
    child_guard_off(old);
    /* the child's own bounds (child_bound) stop it just after the parent's deadline */
    bool own_limit = WIFSIGNALED(wst) && (WTERMSIG(wst) == SIGALRM || WTERMSIG(wst) == SIGXCPU);
    if (timed_out || own_limit) {
        free(text);
        fprintf(stderr, "%s: parsing took longer than %d s (a macro that expands enormously?): stopped\n", o->file,
                timeout_s);
        return IMPORT_BAD_INPUT;
    }
    if (too_big) {
        free(text);
        fprintf(stderr, "%s: the parser used more than %d GiB of memory (an enormous include or expansion?): stopped\n",
                o->file, (int)(IMPORT_MEMORY_LIMIT >> 30));
        return IMPORT_BAD_INPUT;
    }
    if (WIFSIGNALED(wst)) {
        free(text);
        fprintf(stderr, "%s: the parser stopped (signal %d; out of memory?)\n", o->file, WTERMSIG(wst));
        return IMPORT_BAD_INPUT;
    }
    int status = WIFEXITED(wst) ? WEXITSTATUS(wst) : IMPORT_FAIL;
    bool whole = wire_read(text, len, r);
    free(text);
    if (status == IMPORT_OK && (!whole || !r->json || !*r->json))
        status = IMPORT_FAIL;
    if (status != IMPORT_OK) {
        free(r->json);
        r->json = NULL;
    }
    return status;
}
