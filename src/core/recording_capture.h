/* recording_capture: what `bankscope record` reads back after a run of the program: the capture pass's
 * capture.txt and the entries.bin beside it (src/record/record_capture.c says their contents) and
 * the disassembly of the recorded kernel (nvdisasm -g, with -gi for inlined toolkit code, or
 * cuobjdump -sass without line info), and how one captured
 * warp-instruction becomes a trace entry (banks_request) from its kind, flags and SASS.
 *
 * Ownership: a record_capture and a record_sass own every string and array they point to
 * (freed by their _free). Units: PCs are byte offsets from the start of the kernel's code. */
#ifndef BANKSCOPE_CORE_RECORDING_CAPTURE_H
#define BANKSCOPE_CORE_RECORDING_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/banks.h"
#include "record/record_dev.h"

typedef enum record_status {
    RECORD_CAPTURED, /* entries follow */
    RECORD_NONE,     /* no launch was chosen: kernels[] says what ran */
    RECORD_OUTSIDE,  /* the chosen launch has no such block */
    RECORD_ERROR     /* the pass failed: error says why */
} record_status;

typedef struct record_kernel_seen {
    char *mangled, *demangled;
    int64_t launches;
    bool matches; /* chosen by --kernel (or there was none) */
} record_kernel_seen;

typedef struct record_capture {
    record_status status;
    char *error;
    char *device;
    int cc_major, cc_minor;
    char *mangled, *demangled;
    int64_t launch;
    uint32_t grid[3], block_dim[3], block[3];
    uint64_t function_pc, function_size;
    record_entry *entries; /* pc made relative to function_pc */
    int64_t nentries;
    int64_t executed; /* warp-instructions the block executed (> nentries: truncated) */
    bool complete;    /* the file ended with "end" */
    record_kernel_seen *kernels;
    int nkernels;
    int64_t outside_launches; /* RECORD_NONE: launches without the block; grid: the last one's */
} record_capture;

/* Read capture.txt; false with a one-line message in why (a file the pass did not finish), and
 * then *c owns nothing. */
bool record_capture_read(const char *path, record_capture *c, char *why, size_t n);
void record_capture_free(record_capture *c);
/* The reason the recording library left in DIR/error.txt (its line "error TEXT", escapes
 * undone, made printable) into why; false when there is no such file. */
bool record_error_read(const char *dir, char *why, size_t n);

/* One location of an inline chain: a file and a line of it. */
typedef struct record_site {
    char *file;
    int line;
} record_site;

/* One instruction of the disassembly. */
typedef struct record_sass_line {
    uint64_t pc;
    char *text; /* "LDS R15, [R18+0x20]" (predicate included, no ';') */
    char *file; /* NULL: no line info; else the line of the kernel's own body the instruction is
                   in or was inlined from (the outermost of chain) */
    int line;
    record_site *chain; /* the inline chain, innermost first, the kernel's own line last (nvdisasm
                           -gi); nchain 1 for code not inlined; owned */
    int nchain;
} record_sass_line;

typedef struct record_sass {
    record_sass_line *lines; /* sorted by pc */
    int n;
    bool has_lines; /* any instruction had file:line */
} record_sass;

/* Parse a disassembly listing (nvdisasm -g -c or -gi -c, or cuobjdump -sass) of a module: the
 * instructions of function mangled. Lines of other functions are skipped. */
void record_sass_parse(FILE *in, const char *mangled, record_sass *s);
/* Whether an instruction's line is in the CUDA toolkit's headers (an inlined atomicAdd: nvdisasm
 * -g gives device_atomic_functions.hpp). */
bool record_sass_in_toolkit(const record_sass *s);
/* Give every instruction the inline chain outer has for the same pc and, as its line, the
 * innermost location of the chain in the kernel's own file (the file of its outermost location):
 * a helper of that file keeps its line, code inlined from other files (headers, libraries) is on
 * the line of the kernel's file that calls it (outer: the listing of nvdisasm
 * -gi, whose annotations before an instruction are its chain, innermost first; checked on an H100
 * and an H200 with CUDA 13.0: atomicAdd and a CuTe-style copy() get the kernel's line that calls
 * them). */
void record_sass_inline(record_sass *s, const record_sass *outer);
/* The instruction at pc, or NULL. */
const record_sass_line *record_sass_find(const record_sass *s, uint64_t pc);
void record_sass_free(record_sass *s);

/* The trace entry of captured warp-instruction e: op, width, matrices, trans, atomic, returns
 * from the kind, the flags and the SASS text (sass may be NULL); lanes past 8 x matrices of an
 * ldmatrix/stmatrix are made inactive (the hardware ignores their addresses). NULL, or the name
 * of a kind the model does not cover ("remote shared memory", "ATOMS.CAST.SPIN") when the entry
 * cannot become one. */
const char *record_entry_request(const record_entry *e, const char *sass, banks_request *r);

#endif
