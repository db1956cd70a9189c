/* trace_stream: a trace file ({"name", "description", "arch", "trace": [{"op", "width",
 * "addresses": [32 x address or null]}, ...]}, or a recording: the same with "format":
 * "bankscope-record/1", the members trace_stream_record_key names, and "pc", "sass", "warp",
 * "source" in each entry) read one warp-instruction at a time with
 * jsonstream, in bounded memory whatever its length: nothing of an instruction is kept once it
 * has been handed out. Every check of the whole-file loader is made as the file is read, with
 * the same messages ("FILE:LINE:COL: trace[N].addresses[L]: ..."). The stream owns its header
 * (a scenario holding name, description and architecture, no instructions). */
#ifndef BANKSCOPE_TRACE_STREAM_H
#define BANKSCOPE_TRACE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/load.h"
#include "model/scenario.h"

/* A string's bound in a trace: a recording's names and descriptions hold demangled C++ names
 * (CuTe's run to tens of kilobytes) and are kept whole; `record` cuts a longer line text. */
#define TRACE_MAX_STRING (1u << 20)

typedef struct trace_stream trace_stream;

typedef enum trace_stream_status {
    TRACE_STREAM_OK,        /* a trace: read it with trace_stream_next */
    TRACE_STREAM_NOT_TRACE, /* no "trace" before the first other member (a scenario, a lesson,
                               not an object): load it whole instead, which reports its errors */
    TRACE_STREAM_ERROR      /* err filled */
} trace_stream_status;

/* Open a trace: the file at path when text is NULL, else len bytes of text; name is used in
 * messages; arch, when not NULL, replaces the file's architecture. Reads the members before
 * "trace". When the architecture is not known there, a quick look ahead finds it. */
trace_stream_status trace_stream_open(const char *path, const char *text, size_t len, const char *name,
                                      const char *arch, trace_stream **out, io_error *err);
/* What a stream keeps of a recording ("format": "bankscope-record/1") beside its trace. */
typedef enum trace_stream_keep {
    TRACE_KEEP_LOCATIONS, /* each line's file, line and text: the locations of the entries */
    TRACE_KEEP_RECORDING, /* the whole recording (io/recording.h), read in the same pass */
    TRACE_KEEP_INDEXES,   /* and every trace index with its position (recording_read_indexes) */
} trace_stream_keep;
/* trace_stream_open keeping more of a recording: its members are read by the recording's one
 * reader as the stream meets them, so that the file is read once for both (trace_stream_take_recording).
 * A member that breaks the recording's rules does not stop the trace. */
trace_stream_status trace_stream_open_keep(const char *path, const char *text, size_t len, const char *name,
                                           const char *arch, trace_stream_keep keep, trace_stream **out, io_error *err);
struct recording;
/* The recording read in the stream's pass, taken over into *out (recording_free): 1, or -1 with
 * err at its first broken rule ("PATH:LINE:COL: why", as recording_read says it), -2 stopped by a
 * signal; 0 when the file is not a recording, the stream keeps none, or it is not read yet (its
 * lines come before the trace in a file `record` wrote; else once the trace has been read
 * through). Taken once. */
int trace_stream_take_recording(trace_stream *t, struct recording *out, io_error *err);
/* Open a trace read from a pipe f (owned, closed with the stream): its first n bytes were read
 * into head already (at most JSONSTREAM_WINDOW). Nothing can be read twice, so there is no look
 * ahead: an "arch" after the trace is refused unless arch (--arch) is given. */
trace_stream_status trace_stream_open_pipe(FILE *f, const char *head, size_t n, const char *name, const char *arch,
                                           trace_stream **out, io_error *err);
/* Whether text (the start of a document) is a trace: an object whose members before "trace" are
 * only string-valued "name", "description" and "arch". */
bool trace_stream_is_trace(const char *text, size_t len);
/* The source location of the instruction trace_stream_next returned last (a recording's
 * "source" "FILE:LINE", with the line's text from its "lines"), or NULL when it has none. Owned
 * by the stream, valid until the next call. */
const scenario_srcloc *trace_stream_location(const trace_stream *t);
/* The last instruction's "pc" and "warp" (a recording's entry: the SASS instruction and the warp of
 * the block that executed it), -1 when it gave none. */
int64_t trace_stream_pc(const trace_stream *t);
int64_t trace_stream_warp(const trace_stream *t);
/* Refuse more than max instructions (0: no limit), for loaders that keep them all. */
void trace_stream_limit(trace_stream *t, int64_t max);
/* The next instruction into *r: 1, or 0 at the end of the trace (the rest of the file has then
 * been read and checked), or -1 with err filled. */
int trace_stream_next(trace_stream *t, banks_request *r, io_error *err);
/* Name, description and architecture (those after the trace only once it is read); ntrace:
 * instructions read so far. */
scenario *trace_stream_header(trace_stream *t);
/* Bytes read so far (for progress). */
int64_t trace_stream_offset(const trace_stream *t);
void trace_stream_close(trace_stream *t);
/* Whether key is one of the members a recording (bankscope record, "format":
 * "bankscope-record/1") has beside its trace; readers skip them. */
bool trace_stream_record_key(const char *key);

#endif
