/* measured_file: a line-by-line reader of bankscope-measured/1 (measured_file.h has the grammar);
 * every error names the file and line. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/measured_file.h"
#include "util.h"

#define MAX_FIELDS 8

/* Splits a line (NUL-terminated, modified) at tabs; the number of fields. */
static int split_tabs(char *s, char *field[MAX_FIELDS])
{
    int n = 0;
    field[n++] = s;
    for (char *p = s; *p && n < MAX_FIELDS; p++)
        if (*p == '\t') {
            *p = '\0';
            field[n++] = p + 1;
        }
    return n;
}

/* An unsigned decimal (or hex with base 16) that fills the whole field. */
static bool parse_u64(const char *s, int base, uint64_t *v)
{
    if (!*s || *s == '-' || *s == '+' || *s == ' ')
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, base);
    if (errno || *end)
        return false;
    *v = x;
    return true;
}

/* Three unsigned numbers separated by single spaces. */
static bool parse_dims(const char *s, unsigned d[3])
{
    unsigned long long a, b, c;
    char extra;
    if (sscanf(s, "%llu %llu %llu%c", &a, &b, &c, &extra) != 3 || a > UINT32_MAX || b > UINT32_MAX || c > UINT32_MAX)
        return false;
    d[0] = (unsigned)a;
    d[1] = (unsigned)b;
    d[2] = (unsigned)c;
    return true;
}

/* One "pc" record into f's arrays. */
static bool parse_pc(measured_file *f, char **fd, int nf, size_t *cap)
{
    uint64_t pc, shared, w, i, e, line;
    if (nf != 8 || !parse_u64(fd[1], 16, &pc) || pc > UINT32_MAX || !parse_u64(fd[2], 10, &shared) || shared > 1 ||
        !parse_u64(fd[3], 10, &w) || !parse_u64(fd[4], 10, &i) || !parse_u64(fd[5], 10, &e) ||
        !parse_u64(fd[6], 10, &line) || line > UINT32_MAX)
        return false;
    if (f->npcs == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        f->pcs = xrealloc(f->pcs, *cap * sizeof *f->pcs);
        f->lines = xrealloc(f->lines, *cap * sizeof *f->lines);
        f->files = xrealloc(f->files, *cap * sizeof *f->files);
    }
    size_t k = f->npcs++;
    f->pcs[k] = (measured_pc){.pc = (uint32_t)pc, .shared = shared == 1, .c = {w, i, e}};
    f->lines[k] = (uint32_t)line;
    f->files[k] = *fd[7] ? xstrdup(fd[7]) : NULL;
    return true;
}

/* One record (a line without its newline, modified); NULL or the message. */
static const char *parse_record(measured_file *f, char *s, size_t *cap)
{
    char *fd[MAX_FIELDS];
    int nf = split_tabs(s, fd);
    uint64_t v;
    const char *k = fd[0];
    if (strcmp(k, "pc") == 0)
        return parse_pc(f, fd, nf, cap) ? NULL
                                        : "bad pc record (pc, shared, wavefronts, ideal, instructions, line, file)";
    if (strcmp(k, "pass") == 0 && nf == 2 && (strcmp(fd[1], "count") == 0 || strcmp(fd[1], "time") == 0)) {
        f->count_pass = strcmp(fd[1], "count") == 0;
        return NULL;
    }
    if (strcmp(k, "kernel") == 0 && nf == 2 && *fd[1] && !f->kernel) {
        f->kernel = xstrdup(fd[1]);
        return NULL;
    }
    if (strcmp(k, "launch") == 0 && nf == 2 && parse_u64(fd[1], 10, &v) && v <= INT32_MAX) {
        f->launch = (long)v;
        return NULL;
    }
    if ((strcmp(k, "grid") == 0 || strcmp(k, "block") == 0) && nf == 2)
        return parse_dims(fd[1], k[0] == 'g' ? f->grid : f->block) ? NULL : "expected three sizes";
    if (strcmp(k, "device") == 0 && nf == 4 && !f->device) {
        uint64_t sms, khz;
        if (!parse_u64(fd[1], 10, &sms) || !parse_u64(fd[2], 10, &khz) || sms > 100000 || khz > 100000000)
            return "bad device record (SMs, clock kHz, name)";
        f->sms = (int)sms;
        f->clock_khz = (int)khz;
        f->device = xstrdup(fd[3]);
        return NULL;
    }
    if (strcmp(k, "duration_ns") == 0 && nf == 2 && parse_u64(fd[1], 10, &v)) {
        f->has_duration = true;
        f->duration_ns = v;
        return NULL;
    }
    if (strcmp(k, "error") == 0 && nf == 2 && !f->error) {
        f->error = xstrdup(fd[1]);
        return NULL;
    }
    return "unknown or malformed record";
}

bool measured_file_parse(const char *text, size_t len, const char *name, measured_file *out, io_error *err)
{
    memset(out, 0, sizeof *out);
    size_t cap = 0, pos = 0;
    int lineno = 0;
    bool ended = false;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        lineno++;
        char *s = xstrdup_n(text + pos, n);
        pos += n + (nl ? 1 : 0);
        const char *msg = NULL;
        if (ended)
            msg = "text after \"end\"";
        else if (memchr(s, '\0', n))
            msg = "NUL byte in the file";
        else if (lineno == 1)
            msg = strcmp(s, "bankscope-measured/1") == 0 ? NULL : "not a bankscope-measured/1 file";
        else if (strcmp(s, "end") == 0)
            ended = true;
        else
            msg = parse_record(out, s, &cap);
        free(s);
        if (msg) {
            snprintf(err->text, sizeof err->text, "%.400s:%d: %s", name, lineno, msg);
            measured_file_free(out);
            return false;
        }
    }
    if (!ended) {
        snprintf(err->text, sizeof err->text, "%.400s: incomplete (no \"end\": the program stopped while writing it)",
                 name);
        measured_file_free(out);
        return false;
    }
    return true;
}

bool measured_file_read(const char *path, measured_file *out, io_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err->text, sizeof err->text, "%.400s: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    bool read_error = ferror(fp) != 0;
    fclose(fp);
    bool ok = false;
    if (read_error)
        snprintf(err->text, sizeof err->text, "%.400s: read error", path);
    else
        ok = measured_file_parse(buf, len, path, out, err);
    free(buf);
    return ok;
}

void measured_file_free(measured_file *f)
{
    for (size_t i = 0; i < f->npcs; i++)
        free(f->files[i]);
    free(f->files);
    free(f->lines);
    free(f->pcs);
    free(f->kernel);
    free(f->device);
    free(f->error);
    memset(f, 0, sizeof *f);
}
