/* names: which identifiers a scenario may use for its arrays, structs, fields and loop
 * variable. Array, struct and field names appear in the generated CUDA source (kernelgen), so
 * they must not be C or C++ keywords (alternative tokens such as xor included), CUDA built-ins,
 * types or macros NVRTC knows (dim3, NULL, threadIdx, int4...), nor use the prefixes the
 * measurement kernel keeps for itself (bs_, BS_, __). The loop variable becomes bs_loop in a
 * kernel, but in expressions it must not shadow a word of the expression language (lane, tid,
 * threadIdx, min...). Names are compared in full. Pure. */
#ifndef BANKSCOPE_NAMES_H
#define BANKSCOPE_NAMES_H

#include <stdbool.h>

/* True when name may name an array, a struct or a field (it is also a C identifier). */
bool names_ok_in_cuda(const char *name);
/* True when name may be the loop variable: a C identifier that is no word of expressions. */
bool names_ok_for_loop(const char *name);

#endif
