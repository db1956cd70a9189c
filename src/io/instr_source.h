/* instr_source: the warp-instructions that `analyze` consumes, one at a time, so that nothing
 * holds all of them: built from a loaded scenario as they are asked for, or read from a trace
 * file as it streams (trace_stream). The source owns the scenario it loaded (for a streamed
 * trace: only its header, with no instructions). */
#ifndef BANKSCOPE_INSTR_SOURCE_H
#define BANKSCOPE_INSTR_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "io/load.h"
#include "model/scenario.h"

struct trace_stream;

typedef struct instr_source {
    const scenario *s;       /* what is analysed (for a streamed trace, ntrace grows as it is read) */
    scenario own;            /* the loaded scenario or the stream's header copy; s may point here */
    struct trace_stream *ts; /* NULL unless streaming */
    char *path;              /* owned, for messages */
    int64_t size;            /* bytes of the streamed file (progress) */
    int warp;                /* -1: the scenario's selection; else only this warp */
    int64_t k;               /* instructions handed out */
    int64_t counted;         /* instructions the checking pass found; -1 when none was made */
    const char *progress;    /* when set, progress under this name on a terminal's stderr */
    bool failed;
    bool recording; /* the file says "format": "bankscope-record/1"; for a streamed trace known
                       before its instructions when it says so first, else once read through (the
                       checking pass, or the end of the stream) */
    bool brief;     /* the instructions hold only their request and lane states (set before the first
                       one: scenario_instr_build_brief; a trace's lanes but their states unwritten) */
    io_error err;   /* why, when failed (also: interrupted by a signal, see work.h) */
    /* instructions of loop-invariant accesses, built once per (access, warp) and handed out again
     * at every iteration (scenario_access_loop_invariant): rep[access * warps + w] */
    scenario_instr *rep;
    signed char *rep_state; /* per slot: 0 not built, 1 built; per access (rep_inv): 1 invariant */
    signed char *rep_inv;
    int rep_warps;
    int64_t rep_slots;
    bool rep_off;   /* no repeats to serve (a trace, a single iteration, too many slots) */
    bool rep_ready; /* the tables were set up (or turned off) */
    /* instructions of accesses that read the loops only through the slots of their expressions
     * (scenario_access_loop_slotted), built once per (access, warp, key) and handed out again at
     * every iteration with that key: up to INSTR_SOURCE_KEYED of them, slots rep_slots and up */
    signed char *rep_keyed_access; /* per access: 1 keyed */
    struct instr_keyed *keyed;     /* the keys, then the instructions */
    scenario_instr *keyed_instr;
    int *keyed_table; /* open addressing: entry + 1, 0 empty */
    int nkeyed;
    /* where the next instruction of the selection is, once one was handed out (at_k: its index) */
    int64_t at_k;
    int at_it, at_access, at_w;
} instr_source;

/* Instructions of a loaded scenario s (borrowed), for one warp (or -1: its selection). */
void instr_source_scenario(instr_source *src, const scenario *s, int warp);
/* Open path (a scenario, a trace, or a pattern name). A trace in a regular file streams; with
 * checked, a first pass reads the whole trace, checks it and counts its instructions, so that
 * nothing is printed for a bad file and the count is known before the first instruction.
 * Without it, errors can be found after instructions were handed out (instr_source_next then
 * fails). false with err filled. */
bool instr_source_open(instr_source *src, const char *path, const char *arch, bool checked, io_error *err);
/* What the checking pass of instr_source_open_keep hands the caller: once when the stream that
 * keeps the recording is open (k -1, r NULL: its recording, when its lines came before the trace,
 * can be taken there: trace_stream_take_recording), then, in the checking pass, each instruction
 * as it is read (k its index; its "pc": trace_stream_pc). */
struct trace_stream;
typedef void (*instr_source_check_fn)(void *ctx, struct trace_stream *ts, int64_t k, const banks_request *r);
/* instr_source_open whose stream (the checking pass's when checked, else the one handed out)
 * keeps a recording's members (keep: a trace_stream_keep), read in the same pass as the trace, and
 * calls fn (not NULL) as said above. A pipe keeps nothing. */
bool instr_source_open_keep(instr_source *src, const char *path, const char *arch, bool checked, int keep,
                            instr_source_check_fn fn, void *ctx, io_error *err);
/* The "pc" of the instruction handed out last (a recording's entry), -1 when it gave none. */
int64_t instr_source_pc(const instr_source *src);
/* True when the instructions are read from the file as they are asked for. */
bool instr_source_streams(const instr_source *src);
/* Only warp w (a scenario's; no effect on traces). */
void instr_source_set_warp(instr_source *src, int warp);
/* The next instruction into *in; false at the end, or on an error (src->failed, src->err), or
 * once a caught signal asked to stop (work_cancelled). */
bool instr_source_next(instr_source *src, scenario_instr *in);
/* As instr_source_next, without copying a repeated instruction: the next one (in, or an entry of
 * the table of loop-invariant instructions, valid until the next call), NULL at the end or on
 * failure. *slot: the table entry (the same for every iteration of that access and warp), or -1
 * for an instruction built anew. */
const scenario_instr *instr_source_next_ref(instr_source *src, scenario_instr *in, int64_t *slot);
#define INSTR_SOURCE_KEYED 4096 /* keyed instructions kept at most (2.3 KiB each) */

/* Entries of the tables of repeated instructions (slots are below it; 0 before the first). */
int64_t instr_source_slots(const instr_source *src);
/* Fraction of the work done, 0..1 (for progress). */
double instr_source_progress(const instr_source *src);
void instr_source_close(instr_source *src);

#endif
