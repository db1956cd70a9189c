/* recording: what a recording (bankscope record, "format": "bankscope-record/1") says beside its
 * trace, for the source view: the kernel, launch and block it recorded, and its "lines" (file,
 * line, text, the trace entries of each, the measured numbers of the whole launch). Read with
 * the streaming tokenizer; the trace itself is skipped (the loader reads it as a trace).
 *
 * Ownership: a recording owns every string and array it points to (recording_free); rows[] view
 * its lines for source_lines_layout and borrow from them. */
#ifndef BANKSCOPE_IO_RECORDING_H
#define BANKSCOPE_IO_RECORDING_H

#include <stdbool.h>
#include <stdint.h>

#include "io/load.h"
#include "model/source_lines.h"

/* One of the kernel's shared variables (the recording's "arrays"; schemas/bankscope-record-1). */
typedef struct recording_array {
    char *name, *symbol; /* owned; symbol NULL for an unnamed region */
    bool dynamic;
    int64_t offset, bytes;
} recording_array;

typedef struct recording {
    char *kernel;   /* demangled name; NULL unknown */
    char *device;   /* NULL unknown */
    int64_t launch; /* -1 unknown */
    int64_t grid[3], block_dim[3], block[3];
    bool truncated, line_info;
    bool measured;            /* the launch was measured (a top-level "measured" object) */
    int64_t blocks;           /* measured.blocks (the grid's); 0 unknown */
    bool second;              /* measured.second_block: a second block was recorded */
    char *measured_why;       /* why not measured; NULL when measured or not said */
    source_record_line *rows; /* nrows; strings and arrays owned through this struct */
    int64_t (*at)[2];         /* per row: where its "instructions" are (line, column), for messages */
    int nrows;
    bool has_arrays;         /* the recording has "arrays" (recordings made before it do not) */
    recording_array *arrays; /* narrays, by offset */
    int narrays;
} recording;

/* Read path's recording members. 1: a recording, 0: not one (a scenario, a plain trace),
 * -1: a recording whose members do not read (err says where). */
int recording_read(const char *path, recording *r, io_error *err);
/* Whether the lines' trace indexes partition a trace of ntrace entries (each entry in exactly
 * one line, none past the end; lines that give no indexes at all are located by the entries'
 * sources instead); false with "PATH:LINE:COL: why" at the line that breaks it. */
bool recording_check(const recording *r, const char *path, int64_t ntrace, io_error *err);
void recording_free(recording *r);
/* "block (0,0,0) of launch 0 of KERNEL": what the recording covers, into buf. */
void recording_scope(const recording *r, char *buf, size_t n);

#endif
