/* cubin: the little bankscope reads of a CUDA module file (an ELF64 cubin): which symbol index a
 * function has, so that a disassembler can be told to list that function alone, and a kernel's
 * static shared variables (its .nv.shared.KERNEL section and the symbols in it). */
#ifndef BANKSCOPE_CUBIN_H
#define BANKSCOPE_CUBIN_H

#include <stddef.h>

/* The index in the symbol table of the symbol called name in the cubin at path; -1 when the
 * file cannot be read, is not an ELF64 file or has no such symbol. */
long cubin_symbol_index(const char *path, const char *name);

#include <stdbool.h>
#include <stdint.h>

/* One static __shared__ variable of a kernel: its symbol (as the cubin names it), a short name
 * for people ("tile" for _ZZ9transposeILi0EEvPfPKfE4tile), its byte offset in the shared window
 * and its size. */
typedef struct cubin_shared_var {
    char *symbol, *name; /* owned */
    int64_t offset, bytes;
} cubin_shared_var;

/* A kernel's static shared memory: the section's size (the reserved bytes included) and the
 * variables named in it. Builds without device debug information (-G) strip the variables'
 * symbols: then nvars is 0 and only the section says how much there is. */
typedef struct cubin_shared {
    bool found;             /* the kernel has a .nv.shared section */
    int64_t section_bytes;  /* its size: the end of the static shared memory in the window */
    int64_t reserved;       /* bytes at the window's start the system reserves (before any variable) */
    cubin_shared_var *vars; /* owned, by offset */
    int nvars;
} cubin_shared;

/* Read the static shared memory of kernel mangled from the cubin at path; false when the file
 * does not read as an ELF64 cubin (*out is then empty). A kernel without static shared memory
 * gives found false. */
bool cubin_shared_read(const char *path, const char *mangled, cubin_shared *out);
void cubin_shared_free(cubin_shared *s);
/* The short name of a variable's symbol: a local static's name after its function
 * (_ZZ...E4tile: "tile"), a namespaced one's last part (_ZN2ns4bufE: "buf"), else the symbol. */
void cubin_short_name(const char *symbol, char *buf, size_t n);

#endif
