/* import_internal: what the importer's files share (the libclang walker, the operator reader
 * and the prelude). Not used outside src/import. */
#ifndef BANKSCOPE_IMPORT_INTERNAL_H
#define BANKSCOPE_IMPORT_INTERNAL_H

#include <stdbool.h>

#ifdef __cplusplus
#include <clang-c/Index.h>
#else
#include "import/clang_api.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

extern const char import_prelude[];
extern const char import_prelude_name[];
extern const char import_prelude_more[]; /* included by the prelude */
extern const char import_prelude_more_name[];
extern const char import_prelude_host[]; /* included by the more prelude: the runtime's host functions */
extern const char import_prelude_host_name[];
extern const char import_include_dir[];
/* A CUDA header as the parser sees it (standins.c): its name under import_include_dir and text. */
typedef struct import_standin {
    const char *name, *text;
} import_standin;
extern const import_standin import_standins[]; /* ends with a NULL name */

/* The C spelling of a binary (or compound-assignment) operator cursor ("+", "+=", "?" for one
 * bankscope has no use for); NULL when c is not one. */
const char *import_binary_op(CXCursor c);
/* The spelling of a unary operator cursor ("-", "!", "++", "&", "*"); NULL when c is not one. */
const char *import_unary_op(CXCursor c);
/* "+" or "-" for an overloaded-operator call of that operator with two operands (pointer
 * arithmetic on an array whose type depends on a template parameter); NULL otherwise. */
const char *import_operator_call_op(CXCursor c);
/* Whether an expression depends on a template parameter (clang cannot evaluate it). */
bool import_value_dependent(CXCursor c);

#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
#include "import.h"
#include "model/scenario.h"

/* Walk kernel (a __global__ function) of tu and build the scenario into *out (finished: checked
 * by the model); skipped accesses are printed to stderr, sorted by position, and added to
 * res's skips. False (out empty, *status the exit status) after a message. */
bool import_walk(CXTranslationUnit tu, CXCursor kernel, const import_options *o, scenario *out, int *status,
                 import_result *res);
/* The same walk over a kernel with parse errors in its text (broken: "the error at LINE:COL"):
 * nothing is imported, and every shared access found is listed, with its own reason or broken's. */
void import_walk_broken(CXTranslationUnit tu, CXCursor kernel, const import_options *o, const char *broken,
                        import_result *res);
/* Add the walk's message text (its place line:col) to res's skips. */
void import_result_add(import_result *res, int line, int col, const char *text);
#endif

#endif
