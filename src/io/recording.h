/* recording: the one reader of a recording (bankscope record, "format": "bankscope-record/1")
 * beside its trace: the kernel, launch and block it recorded, how much was captured, the launch's
 * measurements, its shared arrays, and its "lines" (file, line, text, the trace entries of each,
 * the measured numbers of the whole launch) with each line's SASS instructions ("pcs": SASS text,
 * executions, inline chain, what the count run measured at the PC). analyze (core/
 * recording_lines.h: predicted and checked against the trace), the source view, the SASS page,
 * diff and what-if all take this struct. Read with the streaming tokenizer; the trace itself is
 * not read (the loader reads it as a trace): the members a recording needs come before it.
 *
 * A recording is checked, not trusted: every count is an integer within what a real recording can
 * hold (RECORDING_MAX_COUNT), every index within what a trace can hold; a value that breaks a rule
 * is an error at its position ("PATH:LINE:COL: why"). Nothing derived is read (a line's
 * "predicted", "agree", the launch's excess and time share): readers compute them.
 *
 * Ownership: a recording owns every string and array it points to (recording_free); rows[] view
 * its lines for source_lines_layout and borrow from them. */
#ifndef BANKSCOPE_IO_RECORDING_H
#define BANKSCOPE_IO_RECORDING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "io/load.h"
#include "model/measured.h"
#include "model/source_lines.h"

/* The largest count a recording holds: 10^15 wavefronts is an hour of every shared-memory pipe of
 * a 132-SM GPU at 2 GHz, for one launch; anything larger was not measured. */
#define RECORDING_MAX_COUNT 1000000000000000LL

/* One location of a PC's inline chain. */
typedef struct recording_site {
    char *file, *text;
    int64_t line;
} recording_site;

/* One SASS instruction of a line (its "pcs"). */
typedef struct recording_pc {
    int64_t pc; /* -1: not given */
    char *sass;
    int row;               /* its line (index into rows) */
    recording_site *chain; /* innermost first; nchain > 1 only for inlined code */
    int nchain;
    int64_t executions; /* warp-instructions of the recorded block at it */
    bool measured_only; /* no callback (TMA, wgmma operands): no trace entry, measured only */
    char *not_modelled; /* the recording's reason, or NULL */
    bool has_measured;
    measured_counts m; /* what the count run measured at the PC over the whole launch */
} recording_pc;

/* What a line says beyond its source_record_line (parallel to rows). */
typedef struct recording_line {
    int64_t not_modelled; /* the line's count of warp-instructions not modelled */
    char kind[32];        /* the first not-modelled kind of its PCs ("cp.async.cg"), or "" */
    bool unmodelled_pcs;  /* a PC of the line is not modelled or measured only */
} recording_line;

/* A kind and how many times it was met (the kinds a recording did not model or record). */
typedef struct recording_kind {
    char *name, *why;
    int64_t count;
} recording_kind;

/* Where one trace index of a line was read (recording_read_indexes), for messages. */
typedef struct recording_index {
    int64_t entry;
    int row;
    int64_t at_line, at_col;
} recording_index;

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
    int64_t grid_blocks; /* the grid's blocks, multiplied; 0 not given */
    bool truncated, line_info;
    int64_t executed, captured; /* warp-instructions the block executed, and captured */
    /* the launch's top-level "measured" */
    bool measured;             /* the launch was measured (a "measured" object) */
    int64_t blocks;            /* measured.blocks (the grid's); 0 unknown */
    int64_t blocks_at[2];      /* where "blocks" is (line, column), for messages */
    int64_t sms, clock_khz;    /* the device's SMs and SM clock */
    bool has_duration;         /* the launch's time was measured: */
    int64_t duration_ns;       /* measured.duration_ns */
    bool second;               /* measured.second_block: a second block was recorded */
    int64_t unrecorded_excess; /* measured.unrecorded: the excess of shared instructions no line holds */
    char *invariance, *duration_why;
    char *measured_why;       /* why not measured; NULL when measured or not said */
    bool has_lines;           /* the file has "lines" */
    source_record_line *rows; /* nrows; strings and arrays owned through this struct */
    recording_line *lines;    /* nrows: the rest of each line */
    int64_t (*at)[2];         /* per row: where its "instructions" are (line, column), for messages */
    int nrows;
    recording_pc *pcs; /* every line's PCs, in the file's order */
    int npcs;
    bool async_fill;                             /* a PC fills shared memory asynchronously (cp.async, TMA) */
    recording_kind *not_modelled, *not_recorded; /* by kinds.h's name: the PCs "not_modelled"
                                                    (executions), "not_visible" (SASS instructions) */
    int nnot_modelled, nnot_recorded;
    recording_index *index; /* recording_read_indexes: every line's indexes in the file's order */
    size_t nindex;
    bool has_arrays;         /* the recording has "arrays" (recordings made before it do not) */
    recording_array *arrays; /* narrays, by offset */
    int narrays;
} recording;

/* Read path's recording members. 1: a recording, 0: not one (a scenario, a plain trace),
 * -1: a recording whose members do not read or break a rule (err says where), -2: stopped by a
 * signal (work_cancelled). */
int recording_read(const char *path, recording *r, io_error *err);
/* The same, keeping every trace index with its position (index, nindex) for a check against the
 * trace as it streams (analyze). */
int recording_read_indexes(const char *path, recording *r, io_error *err);
/* A recording's "lines" (the '[' just read from js, a stream of the caller's: the trace stream
 * meets them on its way to the trace) into r (zeroed; recording_free): of each line only its
 * file, line and text (rows[]), read and checked as recording_read reads them, the rest skipped.
 * False with "PATH:LINE:COL: why" in err. */
struct jsonstream;
bool recording_read_locations(struct jsonstream *js, const char *path, recording *r, io_error *err);
/* A recording read member by member from a stream of the caller's, in the caller's one pass over
 * the file (the trace stream meets the members on its way to the trace): each top-level member
 * after "format" is handed over as it comes, read as recording_read reads it (the same rules,
 * messages and positions, path naming the file), or skipped exactly. */
typedef struct recording_reader recording_reader;
recording_reader *recording_reader_new(const char *path, bool indexes);
/* The member key whose value's first token t was just read from js. False once a member broke a
 * rule (the first error kept; later members are not read) or a signal stopped it; the stream is
 * then anywhere inside the member. */
bool recording_reader_member(recording_reader *rr, struct jsonstream *js, const char *key, int t);
/* Whether lines were read (they come before the trace in a file `record` wrote). */
bool recording_reader_has_lines(const recording_reader *rr);
/* The first broken rule ("PATH:LINE:COL: why"), NULL: none. */
const char *recording_reader_error(const recording_reader *rr);
/* Whether the error is one of the lines' locations (file, line, text), which stops the stream the
 * reader is in as it stops a stream that reads only them; any other broken rule is the
 * recording's, the lines being read on for their locations. */
bool recording_reader_stops(const recording_reader *rr);
/* What was read so far (its rows for the locations of the trace's entries). */
const recording *recording_reader_peek(const recording_reader *rr);
/* The recording read: 1 (*r taken over), -1 (err: the first broken rule), -2 (a signal); frees
 * rr. */
int recording_reader_finish(recording_reader *rr, recording *r, io_error *err);
void recording_reader_free(recording_reader *rr);
/* Whether the lines' trace indexes partition a trace of ntrace entries (each entry in exactly
 * one line, none past the end; lines that give no indexes at all are located by the entries'
 * sources instead); false with "PATH:LINE:COL: why" at the line that breaks it. */
bool recording_check(const recording *r, const char *path, int64_t ntrace, io_error *err);
void recording_free(recording *r);

/* A recording as a document holds it: read once when its file is opened (with the trace, in one
 * pass: load_scenario_file_doc) and shared by every view of it, which borrow it (or hold a
 * reference when they outlive the document: job threads). rc is recording_read's answer (1 read,
 * -1 err says why, -2 stopped by a signal). */
typedef struct recording_doc {
    atomic_int refs;
    int rc;
    io_error err;
    recording r; /* rc 1 */
} recording_doc;
/* A document of r (taken over) or of the error err (rc -1, -2); one reference. */
recording_doc *recording_doc_new(int rc, recording *r, const io_error *err);
/* One more reference (d may be NULL); returns d. */
recording_doc *recording_doc_hold(recording_doc *d);
/* One reference less; the last frees it (d may be NULL). */
void recording_doc_drop(recording_doc *d);
/* The name of the kind a not-modelled instruction is, from its SASS: the kinds table's name
 * ("cp.async.cg", "wgmma") or else the opcode ("ATOMS.CAST.SPIN"), into buf. */
const char *recording_kind_name(const char *sass, char *buf, size_t n);
/* "block (0,0,0) of launch 0 of KERNEL": what the recording covers, into buf. */
void recording_scope(const recording *r, char *buf, size_t n);

#endif
