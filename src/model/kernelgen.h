/* kernelgen: scenario -> CUDA source of the measured kernel. Pure: the template text comes in
 * as an argument (kernels/measure.cu, embedded by the build), the source goes out in a strbuf.
 * Index expressions are emitted from their AST; names come from the validated scenario (C
 * identifiers that are not keywords), field paths are re-emitted token by token, so no text of a
 * scenario file reaches the kernel unchecked. */
#ifndef BANKSCOPE_KERNELGEN_H
#define BANKSCOPE_KERNELGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/scenario.h"

/* Bytes of dynamic shared memory the kernel needs (arrays, or the trace's highest address). */
int64_t kernelgen_smem_bytes(const scenario *s);
/* Emit the kernel for access (a trace entry for traces: its addresses travel in a table, see
 * gpu_request.table) into out. False with a message when the
 * scenario cannot be expressed (an identifier that is a C/CUDA keyword, a bad field path). */
bool kernelgen_source(const scenario *s, int access, const char *tmpl, strbuf *out, char *err, size_t n);
/* True when name may be used as an identifier in generated code. */
bool kernelgen_name_ok(const char *name);

#endif
