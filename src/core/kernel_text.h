/* kernel_text: the text `bankscope kernel FILE` prints (a "// ==== ..." line, then the CUDA
 * source measure runs, for each access or trace entry), built once here for the command and the
 * TUI's kernel view, so the two can never differ. Pure apart from the kernel template lookup
 * (measure_plan); the caller owns the strbuf and the span array. */
#ifndef BANKSCOPE_KERNEL_TEXT_H
#define BANKSCOPE_KERNEL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/measure_plan.h"
#include "model/scenario.h"

/* Where one access's section lies in the text, in 0-based line numbers. */
typedef struct kernel_text_span {
    int head;                 /* the "// ==== ..." line */
    int body_first, body_end; /* the lines generated from the access itself ([first, end));
                                 body_first == body_end when they could not be told apart */
    int end;                  /* one past the section's last line */
} kernel_text_span;

/* Append the "// ==== NAME, access A, ..." line of plan p to out (NAME made safe to show). */
void kernel_text_header(const scenario *s, const char *name, const measure_plan *p, strbuf *out);
/* Append the sections of accesses [first, end) at iteration to out; spans (NULL, or end - first
 * records) say where each lies. False at the first access that cannot be generated, with
 * "access A: why" in err; out then holds the sections before it. */
bool kernel_text(const scenario *s, const char *name, int first, int end, int iteration, strbuf *out,
                 kernel_text_span *spans, char *err, size_t n);

#endif
