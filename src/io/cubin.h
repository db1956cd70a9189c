/* cubin: the little bankscope reads of a CUDA module file (an ELF64 cubin): which symbol index a
 * function has, so that a disassembler can be told to list that function alone. */
#ifndef BANKSCOPE_CUBIN_H
#define BANKSCOPE_CUBIN_H

/* The index in the symbol table of the symbol called name in the cubin at path; -1 when the
 * file cannot be read, is not an ELF64 file or has no such symbol. */
long cubin_symbol_index(const char *path, const char *name);

#endif
