/* diff_lines: two recordings (or two scenarios imported from source) line by line, for `bankscope
 * diff` and the interactive view's diff. Each file's lines are its source rows (core/
 * line_sums.h: predicted with the model, a recording's measured numbers beside them); a line of
 * A is matched with the line of B of the same file (by its last component) and text (spaces at
 * the ends ignored), else of the same file and line number; what is left shows on one side only.
 *
 * Ownership: a diff_result owns its rows and their strings (diff_result_free). */
#ifndef BANKSCOPE_CORE_DIFF_LINES_H
#define BANKSCOPE_CORE_DIFF_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct diff_side {
    bool present;
    char *file, *text;                  /* owned; NULL unknown */
    int line;                           /* 0: no line info */
    int64_t predicted, predicted_ideal; /* wavefronts of the recorded block (or the scenario) */
    bool measured_known;
    int64_t measured, measured_ideal; /* the whole launch, as the recording measured it */
} diff_side;

typedef struct diff_row {
    diff_side a, b;
    bool by_text; /* matched by file and text (else by line number, or not matched) */
} diff_row;

typedef struct diff_result {
    diff_row *rows;
    int n;
    int unmatched;
    int64_t total_a, total_b;
    bool measured_a, measured_b; /* every line of that side measured */
    int64_t total_measured_a, total_measured_b;
} diff_result;

/* Load both files (with arch, NULL: each file's own) and match their lines; false with a message
 * in err (the file and position where it does not read, or what it lacks). */
bool diff_lines_files(const char *a, const char *b, const char *arch, diff_result *out, char *err, size_t n);
void diff_result_free(diff_result *d);

#endif
