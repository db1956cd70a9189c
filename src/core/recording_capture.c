/* recording_capture: capture.txt, the kernel's disassembly, and captured warp-instructions as trace
 * entries (recording_capture.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/recording_capture.h"
#include "io/textsafe.h"
#include "model/kinds.h"
#include "util.h"

/* Undo record_write_word's \xHH escapes in place. */
static char *unescape(char *w)
{
    char *o = w;
    for (const char *p = w; *p; p++) {
        unsigned v;
        if (p[0] == '\\' && p[1] == 'x' && sscanf(p + 2, "%2x", &v) == 1 && isxdigit((unsigned char)p[2]) &&
            isxdigit((unsigned char)p[3])) {
            *o++ = (char)v;
            p += 3;
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return w;
}

/* The next space-separated word of *s (unescaped, owned by the line), or NULL. */
static char *word(char **s)
{
    char *w = strsep(s, " \n");
    while (w && !*w)
        w = strsep(s, " \n");
    return w ? unescape(w) : NULL;
}

/* An "e" line: KIND PC SIZE FLAGS COUNT WARP MASK A0..A31. */
static bool parse_entry(char *rest, record_entry *e)
{
    unsigned long long pc;
    unsigned kind, size, flags, count, warp, mask;
    int used = 0;
    if (sscanf(rest, "%u %llu %u %u %u %u %x%n", &kind, &pc, &size, &flags, &count, &warp, &mask, &used) != 7)
        return false;
    *e = (record_entry){
        .pc = pc, .kind = kind, .size = size, .flags = flags, .count = count, .warp = warp, .mask = mask};
    char *p = rest + used;
    for (int l = 0; l < RECORD_WARP; l++) {
        char *w = word(&p);
        if (!w)
            return false;
        if (strcmp(w, "-") == 0)
            continue;
        char *end;
        unsigned long v = strtoul(w, &end, 10);
        if (*end || !(mask >> l & 1))
            return false;
        e->addr[l] = (uint32_t)v;
    }
    return true;
}

/* The count raw entries of the entries file beside path (capture.txt's folder, entries.bin),
 * as c's entries; lanes outside an entry's mask (never written) are zeroed. false with why when
 * the file is missing or its size is not count entries (checked before anything is allocated). */
static bool read_entries_file(const char *path, long long count, record_capture *c, char *why, size_t n)
{
    char bin[4096 + 16];
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path + 1) : 0;
    snprintf(bin, sizeof bin, "%.*sentries.bin", dirlen, path);
    FILE *f = fopen(bin, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        snprintf(why, n, "%s: cannot read the captured entries: %s", bin, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    if (count < 0 || count > RECORD_ENTRIES_MAX ||
        (unsigned long long)st.st_size != (unsigned long long)count * sizeof(record_entry)) {
        snprintf(why, n, "%s: %lld bytes, where %lld entries of %zu bytes were announced", bin, (long long)st.st_size,
                 count, sizeof(record_entry));
        fclose(f);
        return false;
    }
    c->entries = xrealloc(c->entries, (size_t)(count ? count : 1) * sizeof *c->entries);
    bool ok = fread(c->entries, sizeof *c->entries, (size_t)count, f) == (size_t)count;
    fclose(f);
    for (long long i = 0; ok && i < count; i++) {
        record_entry *e = &c->entries[i];
        for (int l = 0; l < RECORD_WARP; l++)
            if (!(e->mask >> l & 1))
                e->addr[l] = 0;
        e->pc -= c->function_pc;
    }
    c->nentries = ok ? count : 0;
    if (!ok)
        snprintf(why, n, "%s: cannot read %lld entries", bin, count);
    return ok;
}

bool record_capture_read(const char *path, record_capture *c, char *why, size_t n)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, n,
                 "the capture pass wrote nothing (the program may not use CUDA, or it was not started "
                 "through the CUDA driver)");
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    int64_t room = 0, lineno = 0;
    bool ok = true, header = false, entries_why = false;
    c->status = RECORD_CAPTURED;
    while (ok && getline(&line, &cap, f) > 0) {
        lineno++;
        char *p = line;
        char *key = word(&p);
        if (!key)
            continue;
        if (lineno == 1) {
            header = strcmp(key, "bankscope-capture") == 0;
            ok = header;
        } else if (strcmp(key, "e") == 0) {
            ok = c->nentries == 0 || room > 0; /* never after an entries file */
            if (ok && c->nentries == room) {
                room = room ? room * 2 : 1024;
                c->entries = xrealloc(c->entries, (size_t)room * sizeof *c->entries);
            }
            ok = ok && parse_entry(p, &c->entries[c->nentries]);
            if (ok)
                c->entries[c->nentries++].pc -= c->function_pc;
        } else if (strcmp(key, "device") == 0) {
            ok = sscanf(p, "%d %d", &c->cc_major, &c->cc_minor) == 2;
            word(&p), word(&p);
            char *d = word(&p);
            free(c->device); /* a repeated line: the last one counts */
            c->device = xstrdup(d ? d : "");
        } else if (strcmp(key, "kernel") == 0) {
            char *m = word(&p), *d = word(&p);
            ok = m && d;
            if (ok) {
                free(c->mangled);
                free(c->demangled);
                c->mangled = xstrdup(m);
                c->demangled = xstrdup(d);
            }
        } else if (strcmp(key, "launch") == 0) {
            long long v = 0;
            ok = sscanf(p, "%lld", &v) == 1;
            c->launch = v;
        } else if (strcmp(key, "grid") == 0) {
            ok = sscanf(p, "%u %u %u", &c->grid[0], &c->grid[1], &c->grid[2]) == 3;
        } else if (strcmp(key, "block_dim") == 0) {
            ok = sscanf(p, "%u %u %u", &c->block_dim[0], &c->block_dim[1], &c->block_dim[2]) == 3;
        } else if (strcmp(key, "block") == 0 || strcmp(key, "outside") == 0) {
            ok = sscanf(p, "%u %u %u", &c->block[0], &c->block[1], &c->block[2]) == 3;
            if (key[0] == 'o')
                c->status = RECORD_OUTSIDE;
        } else if (strcmp(key, "function_pc") == 0) {
            unsigned long long a = 0, b = 0;
            ok = sscanf(p, "%llu %llu", &a, &b) == 2;
            c->function_pc = a;
            c->function_size = b;
        } else if (strcmp(key, "entries") == 0) {
            long long v = -1;
            ok = room == 0 && c->nentries == 0 && sscanf(p, "%lld", &v) == 1;
            if (ok && !(ok = read_entries_file(path, v, c, why, n)))
                entries_why = true;
        } else if (strcmp(key, "executed") == 0) {
            long long v = 0;
            ok = sscanf(p, "%lld", &v) == 1;
            c->executed = v;
        } else if (strcmp(key, "end") == 0) {
            c->complete = true;
        } else if (strcmp(key, "outside_launches") == 0) {
            long long v = 0;
            ok = sscanf(p, "%lld %u %u %u %u %u %u", &v, &c->block[0], &c->block[1], &c->block[2], &c->grid[0],
                        &c->grid[1], &c->grid[2]) == 7;
            c->outside_launches = v;
        } else if (strcmp(key, "none") == 0) {
            c->status = RECORD_NONE;
        } else if (strcmp(key, "launched") == 0) {
            long long v = 0;
            int matches = 0;
            char *cnt = word(&p), *mt = word(&p), *m = word(&p), *d = word(&p);
            ok = cnt && mt && m && d && sscanf(cnt, "%lld", &v) == 1 && sscanf(mt, "%d", &matches) == 1;
            if (ok) {
                c->kernels = xrealloc(c->kernels, (size_t)(c->nkernels + 1) * sizeof *c->kernels);
                c->kernels[c->nkernels++] = (record_kernel_seen){
                    .mangled = xstrdup(m), .demangled = xstrdup(d), .launches = v, .matches = matches == 1};
            }
        } else if (strcmp(key, "error") == 0) {
            c->status = RECORD_ERROR;
            p[strcspn(p, "\n")] = '\0';
            free(c->error);
            c->error = xstrdup(p);
        }
    }
    free(line);
    fclose(f);
    if (!ok) {
        if (!entries_why)
            snprintf(why, n, "%s:%lld: not a capture file the record pass writes", path, (long long)lineno);
        record_capture_free(c);
        return false;
    }
    if (c->status == RECORD_CAPTURED && !c->complete) {
        snprintf(why, n, "%s: the capture pass stopped before it finished writing", path);
        record_capture_free(c);
        return false;
    }
    return true;
}

bool record_error_read(const char *dir, char *why, size_t n)
{
    char path[4096 + 16];
    snprintf(path, sizeof path, "%s/error.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[1024] = "";
    bool got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    line[strcspn(line, "\r\n")] = '\0';
    char *p = unescape(strncmp(line, "error ", 6) == 0 ? line + 6 : line);
    textsafe(got && *p ? p : "it wrote error.txt without a reason", why, n);
    return true;
}

void record_capture_free(record_capture *c)
{
    free(c->error);
    free(c->device);
    free(c->mangled);
    free(c->demangled);
    free(c->entries);
    for (int k = 0; k < c->nkernels; k++) {
        free(c->kernels[k].mangled);
        free(c->kernels[k].demangled);
    }
    free(c->kernels);
    memset(c, 0, sizeof *c);
}

/* The function a listing line starts, into name (size n): nvdisasm's ".text.NAME:" label or
 * cuobjdump's "Function : NAME". */
static bool function_start(const char *line, char *name, size_t n)
{
    const char *p = line + strspn(line, " \t");
    const char *q;
    size_t len;
    if (strncmp(p, ".text.", 6) == 0 && (q = strchr(p, ':')) && q[1 + strspn(q + 1, " \t\r\n")] == '\0') {
        p += 6;
        len = (size_t)(q - p);
    } else if (strncmp(p, "Function : ", 11) == 0) {
        p += 11;
        len = strcspn(p, " \t\r\n");
    } else {
        return false;
    }
    snprintf(name, n, "%.*s", (int)len, p);
    return true;
}

/* Whether a source file is the CUDA toolkit's own (its headers: atomicAdd, intrinsics). */
static bool toolkit_file(const char *path)
{
    static const char *const marks[] = {"/include/crt/", "/targets/", "/cuda/include/", "/usr/include/",
                                        "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (strstr(path, marks[i]))
            return true;
    return false;
}

/* The location of an annotation (after '//## File "'): 'FILE", line N' (what may follow, '
 * inlined at "FILE", line N', is the next annotation's location); false when it has none. */
static bool source_location(const char *p, char *file, size_t n, int *lineno)
{
    const char *q = strchr(p, '"');
    int ln;
    if (!q || sscanf(q, "\", line %d", &ln) != 1)
        return false;
    snprintf(file, n, "%.*s", (int)(q - p), p);
    *lineno = ln;
    return true;
}

/* A copy of n sites. */
static record_site *sites_dup(const record_site *a, int n)
{
    record_site *c = n ? xmalloc((size_t)n * sizeof *c) : NULL;
    for (int i = 0; i < n; i++)
        c[i] = (record_site){.file = xstrdup(a[i].file), .line = a[i].line};
    return c;
}

static void sites_free(record_site *a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i].file);
    free(a);
}

void record_sass_parse(FILE *in, const char *mangled, record_sass *s)
{
    memset(s, 0, sizeof *s);
    char *line = NULL, fn[4096] = "", file[4096] = "";
    size_t cap = 0;
    int room = 0, lineno = 0;
    /* the annotations since the last instruction (the next one's chain), and the chain in force */
    record_site *pend = NULL, *chain = NULL;
    int npend = 0, nchain = 0, pend_room = 0;
    bool after_instr = true;
    while (getline(&line, &cap, in) > 0) {
        if (function_start(line, fn, sizeof fn)) {
            sites_free(chain, nchain);
            chain = NULL;
            nchain = 0;
            for (int i = 0; i < npend; i++)
                free(pend[i].file);
            npend = 0;
            continue;
        }
        if (strcmp(fn, mangled) != 0)
            continue;
        const char *loc = strstr(line, "//## File \"");
        if (loc) {
            if (after_instr) { /* a new chain starts */
                for (int i = 0; i < npend; i++)
                    free(pend[i].file);
                npend = 0;
                after_instr = false;
            }
            if (source_location(loc + 11, file, sizeof file, &lineno)) {
                if (npend == pend_room)
                    pend = xrealloc(pend, (size_t)(pend_room = pend_room ? 2 * pend_room : 8) * sizeof *pend);
                pend[npend++] = (record_site){.file = xstrdup(file), .line = lineno};
            }
            continue;
        }
        const char *a = strstr(line, "/*");
        unsigned long long pc;
        int used = 0;
        if (!a || sscanf(a, "/*%llx*/%n", &pc, &used) != 1 || used < 6 || !used)
            continue;
        const char *t = a + used;
        t += strspn(t, " \t");
        const char *semi = strchr(t, ';');
        if (!semi || semi == t)
            continue;
        if (s->n == room) {
            room = room ? room * 2 : 256;
            s->lines = xrealloc(s->lines, (size_t)room * sizeof *s->lines);
        }
        size_t len = (size_t)(semi - t);
        while (len && (t[len - 1] == ' ' || t[len - 1] == '\t'))
            len--;
        if (!after_instr && npend) { /* the annotations just read are the chain from here on */
            sites_free(chain, nchain);
            chain = sites_dup(pend, npend);
            nchain = npend;
        }
        after_instr = true;
        record_sass_line *l = &s->lines[s->n++];
        l->pc = pc;
        l->text = xstrdup_n(t, len);
        l->chain = sites_dup(chain, nchain);
        l->nchain = nchain;
        l->file = nchain ? xstrdup(chain[nchain - 1].file) : NULL; /* the outermost: the kernel's own file */
        l->line = nchain ? chain[nchain - 1].line : 0;
        for (int j = 0; j < nchain - 1; j++) /* its innermost line in that file: a helper's own */
            if (chain[j].file && strcmp(chain[j].file, chain[nchain - 1].file) == 0) {
                l->line = chain[j].line;
                break;
            }
        s->has_lines |= nchain > 0;
    }
    sites_free(chain, nchain);
    for (int i = 0; i < npend; i++)
        free(pend[i].file);
    free(pend);
    free(line);
}

bool record_sass_in_toolkit(const record_sass *s)
{
    for (int i = 0; i < s->n; i++)
        if (s->lines[i].file && toolkit_file(s->lines[i].file))
            return true;
    return false;
}

void record_sass_inline(record_sass *s, const record_sass *outer)
{
    for (int i = 0; i < s->n; i++) {
        record_sass_line *l = &s->lines[i];
        const record_sass_line *o = record_sass_find(outer, l->pc);
        if (!o || !o->nchain)
            continue;
        sites_free(l->chain, l->nchain);
        l->chain = sites_dup(o->chain, o->nchain);
        l->nchain = o->nchain;
        /* the innermost frame in the kernel's own file: a helper of that file keeps its own
           line (a transpose's loads stay on theirs), code inlined from headers or libraries
           goes to the line of that file that calls it */
        const record_site *own = NULL;
        for (int j = 0; j < o->nchain && !own; j++)
            if (o->chain[j].file && o->file && strcmp(o->chain[j].file, o->file) == 0)
                own = &o->chain[j];
        free(l->file);
        l->file = xstrdup(o->file);
        l->line = own ? own->line : o->line;
    }
}

const record_sass_line *record_sass_find(const record_sass *s, uint64_t pc)
{
    int lo = 0, hi = s->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (s->lines[mid].pc == pc)
            return &s->lines[mid];
        if (s->lines[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

void record_sass_free(record_sass *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->lines[i].text);
        free(s->lines[i].file);
        sites_free(s->lines[i].chain, s->lines[i].nchain);
    }
    free(s->lines);
    memset(s, 0, sizeof *s);
}

/* A SASS line past its leading blanks and its predicate ("@!P0 "): the opcode. */
static const char *skip_predicate(const char *sass)
{
    const char *p = sass + strspn(sass, " \t");
    if (*p == '@')
        p += strcspn(p, " \t"), p += strspn(p, " \t");
    return p;
}

/* The opcode of a SASS line, without its predicate: "ATOMS.POPC.INC.32". */
static void opcode(const char *sass, char *op, size_t n)
{
    const char *p = skip_predicate(sass);
    snprintf(op, n, "%.*s", (int)strcspn(p, " \t"), p);
}

/* A shared atomic from its SASS: ATOMS.<OP>[.type] DEST, [addr], ... [SASS names, sm_90]. */
static const char *atomic_from_sass(const char *sass, banks_request *r)
{
    char op[64];
    opcode(sass, op, sizeof op);
    static const struct {
        const char *prefix;
        banks_atomic a;
    } kinds[] = {{"ATOMS.ADD", BANKS_ATOM_ADD},   {"ATOMS.MIN", BANKS_ATOM_MIN}, {"ATOMS.MAX", BANKS_ATOM_MAX},
                 {"ATOMS.AND", BANKS_ATOM_AND},   {"ATOMS.OR", BANKS_ATOM_OR},   {"ATOMS.XOR", BANKS_ATOM_XOR},
                 {"ATOMS.EXCH", BANKS_ATOM_EXCH}, {"ATOMS.CAS", BANKS_ATOM_CAS}, {"ATOMS.INC", BANKS_ATOM_INC}};
    if (strncmp(op, "ATOMS.POPC.INC", 14) == 0) { /* atomicAdd(p, 1), result unused: lanes on a word merge */
        r->op = BANKS_ATOMIC_POPC;
        r->atomic = BANKS_ATOM_ADD;
        r->returns = false;
        return NULL;
    }
    if (strncmp(op, "ATOMS.CAST.SPIN", 15) == 0)
        return "ATOMS.CAST.SPIN is a compare-and-swap loop (a float atomicAdd, an 8-byte add/min/max): how often "
               "it runs depends on which lanes win each round (measured on an H200: 2 wavefronts, 0 conflicts per "
               "execution; the executions differ from run to run)";
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        size_t k = strlen(kinds[i].prefix);
        if (strncmp(op, kinds[i].prefix, k) == 0 && (op[k] == '\0' || op[k] == '.')) {
            if (strncmp(op, "ATOMS.CAST", 10) == 0)
                break;
            r->atomic = kinds[i].a;
            /* red (no value returned) writes the zero register */
            const char *dest = skip_predicate(sass);
            dest += strcspn(dest, " \t");
            dest += strspn(dest, " \t");
            r->returns = strncmp(dest, "RZ,", 3) != 0;
            return NULL;
        }
    }
    return op[0] ? "a shared atomic the model does not cover" : "a shared atomic without its SASS";
}

const char *record_entry_request(const record_entry *e, const char *sass, banks_request *r)
{
    memset(r, 0, sizeof *r);
    r->width = (int)e->size;
    r->active = e->mask;
    for (int l = 0; l < RECORD_WARP; l++)
        r->addr[l] = e->mask >> l & 1 ? e->addr[l] : 0;
    switch (e->kind) {
    case RECORD_KIND_SHARED:
        if ((e->flags & 3) == 3) {
            r->op = BANKS_ATOMIC;
            return atomic_from_sass(sass ? sass : "", r);
        }
        r->op = e->flags & 2 ? BANKS_STORE : BANKS_LOAD;
        return NULL;
    case RECORD_KIND_MATRIX: {
        r->op = e->flags & 2 ? BANKS_STMATRIX : BANKS_LDMATRIX;
        r->matrices = (int)e->count;
        char op[64] = "";
        if (sass)
            opcode(sass, op, sizeof op);
        r->trans = strstr(op, ".MT88") != NULL || strstr(op, ".T") != NULL;
        if (r->matrices >= 1 && r->matrices <= 4)
            r->active &= r->matrices == 4 ? 0xffffffffu : (1u << (8 * r->matrices)) - 1;
        return NULL;
    }
    case RECORD_KIND_ASYNC: {
        /* by its SASS: LDGSTS is cp.async.ca (modelled), LDGSTS.E.BYPASS cp.async.cg (not
         * modelled: src/model/kinds.c says why) */
        char op[64] = "";
        if (sass)
            opcode(sass, op, sizeof op);
        const kinds_row *k = op[0] ? kinds_find_sass(op) : NULL;
        r->op = k && k->op >= 0 ? (banks_op)k->op : BANKS_CP_ASYNC;
        return NULL; /* a kind files can name: kept in the trace, which says "not modelled" */
    }
    case RECORD_KIND_REMOTE: return "distributed shared memory (another block of the cluster)";
    default: return "an unknown kind of shared-memory instruction";
    }
}
