/* source_lines: a scenario seen per line of the user's source file: the rows the source view shows
 * (its input, with the file's text and a recording's details, is tui/view_source.h's tui_source).
 * Pure: no files (the caller reads the source text and a recording's lines and passes them in),
 * no globals, no curses.
 *
 * Where an access comes from: an imported access's source location (file, line, column, text),
 * else its label "FILE:LINE:COL"; a trace's entries (a recording's instructions) from the
 * recording's "lines", which partition them (source_record_line, read by io/recording.h), or
 * else from the locations the loader kept per entry (scenario.trace_at).
 * The file shown is the one most accesses come from; the lines of other files, and the entries
 * without line info, come after its lines as extra rows.
 *
 * The layout places every access on its row (row_of); the rows' predicted numbers are summed
 * over every warp-instruction of their accesses by core/line_sums.h (line_sums_source: the one
 * walk every view of per-line numbers takes), so the rows' sums are analyze's totals. A
 * recording's measured numbers (whole launch) are carried as it gives them.
 *
 * Ownership: a source_lines owns every string and array it points to (source_lines_free).
 * Invariants: rows[0 .. nfile) are the file's lines 1 .. nfile in order (row i is line i + 1);
 * rows[nfile .. nrows) are the extra rows; every access with a location is in exactly one row's
 * accesses (ascending). */
#ifndef BANKSCOPE_MODEL_SOURCE_LINES_H
#define BANKSCOPE_MODEL_SOURCE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measured.h"
#include "scenario.h"

/* What the hardware counted for one line over the whole launch (a recording's lines[].measured,
 * agree and agree_why). */
typedef struct source_measured {
    bool known; /* false: not measured (the rest is zero) */
    uint64_t wavefronts, ideal_wavefronts, instructions;
    uint64_t predicted_launch; /* the row's predicted wavefronts x the launch's blocks (computed) */
    measured_agree agree;      /* computed by the caller (measured_recompute), never read from a file */
    char *why;                 /* owned, NULL: none (agree true) */
    bool second_differs;       /* the recording's second block predicts differently on the line */
} source_measured;

/* One entry of a recording's "lines" (borrowed strings and arrays). */
typedef struct source_record_line {
    const char *file; /* NULL: instructions without line info */
    int line;
    const char *text;
    const int64_t *instructions; /* trace entries (0-based) */
    int ninstructions;
    source_measured measured; /* why borrowed here */
} source_record_line;

/* An access an import skipped (file, line, column and the importer's message; borrowed). */
typedef struct source_skip {
    const char *file;
    int line, column;
    const char *message;
} source_skip;

typedef struct source_row {
    char *file;  /* owned: extra rows only (NULL on the file's own lines) */
    int line;    /* 1-based; 0: no line info */
    char *text;  /* owned; NULL: the text is not known */
    int *access; /* owned: the accesses (trace entries) on this line, ascending */
    int naccess;
    int64_t instructions;      /* warp-instructions of those accesses (every selected warp and iteration) */
    int64_t idle;              /* of which idle (no lane active: nothing issued) */
    int64_t wavefronts, ideal; /* predicted, summed */
    int worst;                 /* worst conflict degree; 0 when no instruction issued */
    int64_t not_modelled;      /* of which of kinds the model does not cover (cp.async.cg) */
    const char *kind;          /* the first such kind's name (static), NULL: none */
    source_measured measured;
    char **skipped; /* owned: the importer's messages for this line */
    int nskipped;
    bool names_array; /* the text names a shared array of the scenario and no access is here */
    bool stale;       /* the file's line does not hold the text a location carries */
} source_row;

typedef struct source_lines {
    char *file; /* owned: the file shown (as the locations name it) */
    source_row *rows;
    int nrows, nfile;
    int unlocated;  /* accesses (entries) with no location at all */
    int stale;      /* rows whose file text differs from what the locations carry (the file changed) */
    bool recording; /* built from a recording's lines */
    bool measured;  /* some row carries measured numbers */
    int64_t wavefronts, ideal, instructions; /* totals over every instruction (analyze's) */
    int *row_of;                             /* owned: per access, its row (-1: not located) */
    int naccess;
} source_lines;

/* The rows of s, their predicted numbers zero (line_sums_source fills them). file_text (len bytes, may be NULL) is the
 * file's content when the caller could read it; otherwise the texts the locations carry stand in. rec (nrec, may be
 * NULL): a recording's lines, which locate a trace's entries. skips (nskips): what the import skipped; NULL when that
 * is not known (then the lines that name an array of s but hold no access are marked names_array instead). False with
 * why when nothing of s says where it comes from. */
bool source_lines_layout(const scenario *s, const char *file_text, size_t len, const source_record_line *rec, int nrec,
                         const source_skip *skips, int nskips, source_lines *out, char *why, size_t n);
/* The file the locations of s name (the one with the most accesses), or NULL; owned by s. For a
 * recording rec names it. Lets the caller find the file before building. */
const char *source_lines_file(const scenario *s, const source_record_line *rec, int nrec, char *buf, size_t n);
/* How many located accesses of the file shown carry a text that the same line of file_text does
 * not hold (0: file_text is the file the locations were taken from, as far as they tell), and in
 * *matched (may be NULL) how many carry a non-empty text that it holds: 0 means nothing vouches
 * for file_text (locations without texts say nothing about a file). Cheap: nothing is analysed,
 * so a caller can try several candidate files before building. */
int source_lines_mismatches(const scenario *s, const source_record_line *rec, int nrec, const char *file_text,
                            size_t len, int *matched);
void source_lines_free(source_lines *sl);

/* The rows ordered for display: file order (sorted false), or the rows with instructions by cost
 * (the wavefronts beyond ideal, then wavefronts, then position; hottest first). order holds
 * nrows entries; returns how many it filled. */
int source_lines_order(const source_lines *sl, bool sorted, int *order);

/* An importer's message "FILE:LINE:COL: skipped OP of 'ARRAY': REASON" into *out (file into buf,
 * message borrowed); false for any other line. */
bool source_lines_parse_skip(const char *msg, char *buf, size_t n, source_skip *out);
/* Parse "FILE:LINE:COL" (or "FILE:LINE"): the file part into file, the line into *line. */
bool source_lines_parse_label(const char *label, char *file, size_t n, int *line);

#endif
