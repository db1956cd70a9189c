/* record_lines: the per-source-line table `analyze` adds for a recording (bankscope record): read
 * from the file's "lines" with the streaming tokenizer (the trace beside them is skipped), so a
 * recording of any size costs a few kilobytes here. Its total is the analysis' total: the lines
 * partition the trace and each line's numbers come from the same engine. */
#include <stdlib.h>
#include <string.h>

#include "cli/record_write.h"
#include "io/jsonstream.h"
#include "io/textsafe.h"
#include "util.h"

typedef struct lines_row {
    char *file, *text;
    int64_t line, instrs, wavefronts, ideal, degree, unmodelled;
} lines_row;

/* One member of "predicted": the three numbers. */
static bool read_predicted(jsonstream *js, lines_row *r)
{
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if (t == JSONSTREAM_NUMBER && js->is_int) {
            if (strcmp(key, "wavefronts") == 0)
                r->wavefronts = js->ival;
            else if (strcmp(key, "ideal_wavefronts") == 0)
                r->ideal = js->ival;
            else if (strcmp(key, "conflict_degree") == 0)
                r->degree = js->ival;
        } else if (!jsonstream_skip(js, t)) {
            return false;
        }
    }
    return t == JSONSTREAM_OBJECT_END;
}

/* One line object (its '{' read). */
static bool read_row(jsonstream *js, lines_row *r)
{
    memset(r, 0, sizeof *r);
    jsonstream_token t;
    while ((t = jsonstream_next(js)) == JSONSTREAM_KEY) {
        char key[32];
        snprintf(key, sizeof key, "%.31s", js->str);
        t = jsonstream_next(js);
        if ((strcmp(key, "file") == 0 || strcmp(key, "text") == 0) && t == JSONSTREAM_STRING) {
            char **dst = key[0] == 'f' ? &r->file : &r->text;
            free(*dst);
            *dst = xstrdup(js->str);
        } else if (strcmp(key, "line") == 0 && t == JSONSTREAM_NUMBER && js->is_int) {
            r->line = js->ival;
        } else if (strcmp(key, "not_modelled") == 0 && t == JSONSTREAM_NUMBER && js->is_int) {
            r->unmodelled = js->ival;
        } else if (strcmp(key, "instructions") == 0 && t == JSONSTREAM_ARRAY) {
            while ((t = jsonstream_next(js)) == JSONSTREAM_NUMBER)
                r->instrs++;
            if (t != JSONSTREAM_ARRAY_END)
                return false;
        } else if (strcmp(key, "predicted") == 0 && t == JSONSTREAM_OBJECT) {
            if (!read_predicted(js, r))
                return false;
        } else if (!jsonstream_skip(js, t)) {
            return false;
        }
    }
    return t == JSONSTREAM_OBJECT_END;
}

void record_row_print(FILE *out, const char *file, int64_t line, const char *text, int64_t instrs, int64_t wavefronts,
                      int64_t ideal, int64_t degree, int64_t unmodelled)
{
    char where[80], deg[24], t[256];
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(where, sizeof where, "%.50s:%lld", textsafe(base ? base + 1 : file, t, sizeof t), (long long)line);
    } else {
        snprintf(where, sizeof where, "(no line info)");
    }
    snprintf(deg, sizeof deg, degree > 1 ? "%lld-way" : instrs ? "none" : "-", (long long)degree);
    const char *txt = text ? text + strspn(text, " \t") : "";
    fprintf(out, "%-28s %8lld %10lld %10lld %7s  %.70s\n", where, (long long)instrs, (long long)wavefronts,
            (long long)ideal, deg, textsafe(txt, t, sizeof t));
    if (unmodelled)
        fprintf(out, "%-28s %8lld not modelled\n", "", (long long)unmodelled);
}

void record_row_header(FILE *out)
{
    fprintf(out, "%-28s %8s %10s %10s %7s  %s\n", "line", "instrs", "wavefronts", "ideal", "worst", "source");
}

void record_lines_report(const char *path, FILE *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    jsonstream js;
    jsonstream_open_file(&js, f);
    bool is_record = false, header = false;
    int64_t tn = 0, tw = 0, ti = 0;
    if (jsonstream_next(&js) == JSONSTREAM_OBJECT) {
        jsonstream_token t;
        while ((t = jsonstream_next(&js)) == JSONSTREAM_KEY) {
            bool fmt = strcmp(js.str, "format") == 0, lines = strcmp(js.str, "lines") == 0;
            t = jsonstream_next(&js);
            if (fmt) {
                is_record = t == JSONSTREAM_STRING && strcmp(js.str, "bankscope-record/1") == 0;
                if (!is_record)
                    break;
            } else if (lines && is_record && t == JSONSTREAM_ARRAY) {
                lines_row r;
                while ((t = jsonstream_next(&js)) == JSONSTREAM_OBJECT) {
                    bool ok = read_row(&js, &r);
                    if (ok) {
                        if (!header) {
                            fprintf(out, "\nper source line (the recorded block; its lines partition the trace):\n");
                            record_row_header(out);
                        }
                        header = true;
                        record_row_print(out, r.file, r.line, r.text, r.instrs, r.wavefronts, r.ideal, r.degree,
                                         r.unmodelled);
                        tn += r.instrs;
                        tw += r.wavefronts;
                        ti += r.ideal;
                    }
                    free(r.file);
                    free(r.text);
                    if (!ok)
                        break;
                }
                break; /* the lines come before the trace: nothing more to read */
            } else if (!jsonstream_skip_fast(&js, t)) {
                break;
            }
        }
    }
    if (header)
        fprintf(out, "%-28s %8lld %10lld %10lld\n", "total", (long long)tn, (long long)tw, (long long)ti);
    jsonstream_close(&js);
    fclose(f);
}
