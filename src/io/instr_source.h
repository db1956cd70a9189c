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
    io_error err; /* why, when failed (also: interrupted by a signal, see work.h) */
} instr_source;

/* Instructions of a loaded scenario s (borrowed), for one warp (or -1: its selection). */
void instr_source_scenario(instr_source *src, const scenario *s, int warp);
/* Open path (a scenario, a trace, or a pattern name). A trace in a regular file streams; with
 * checked, a first pass reads the whole trace, checks it and counts its instructions, so that
 * nothing is printed for a bad file and the count is known before the first instruction.
 * Without it, errors can be found after instructions were handed out (instr_source_next then
 * fails). false with err filled. */
bool instr_source_open(instr_source *src, const char *path, const char *arch, bool checked, io_error *err);
/* True when the instructions are read from the file as they are asked for. */
bool instr_source_streams(const instr_source *src);
/* Only warp w (a scenario's; no effect on traces). */
void instr_source_set_warp(instr_source *src, int warp);
/* The next instruction into *in; false at the end, or on an error (src->failed, src->err), or
 * once a caught signal asked to stop (work_cancelled). */
bool instr_source_next(instr_source *src, scenario_instr *in);
/* Fraction of the work done, 0..1 (for progress). */
double instr_source_progress(const instr_source *src);
void instr_source_close(instr_source *src);

#endif
