/* view_source: the source view's input, gathered for the TUI: the rows of the scenario on show
 * per line of the user's source (source_lines, built by the model), with the file's text read
 * from disk only where the user keeps it (the file --source names, or the name resolved under the
 * scenario's folder or --source DIR, by io/safe_open.h's rules) and only when its lines hold the
 * texts the locations carry; otherwise those texts stand in and the reason is kept. And, for a recording (bankscope
 * record), its lines, measured numbers and what it covers (one block of one launch). mode_source.c shows it on the
 * pager.
 *
 * Ownership: a tui_source owns everything in it (source_view_input_free). */
#ifndef BANKSCOPE_TUI_VIEW_SOURCE_H
#define BANKSCOPE_TUI_VIEW_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "io/recording.h"
#include "io/safe_open.h"
#include "model/scenario.h"
#include "model/source_lines.h"

typedef struct tui_source {
    source_lines sl;
    bool is_recording;
    recording_doc *doc;   /* is_recording: the document's recording (a reference held) */
    const recording *rec; /* is_recording: what the recording says beside its trace (doc's) */
    char *path;           /* owned: where the file's text was read; NULL: the texts the locations carry */
    bool differs;         /* a file of that name was there, but its lines are not those the locations carry */
    bool unchecked;       /* a file was there, but no text the locations carry could vouch for it */
    safe_refusal refused; /* path NULL: why the file the locations name was not opened */
} tui_source;

/* The source view's input for s, opened from path (a scenario or a recording file; may be a
 * library name) whose recording, when it is one, is rec (read when the file was opened; NULL:
 * not a recording); hint, when not NULL, is the source file the command line names, dir a folder
 * it names (--source DIR), where named files may be opened too; skips (nskips of them, NULL: not
 * known) the accesses the importer skipped, those of the file shown kept.
 * False with why when nothing of s says where it comes from. */
bool source_view_input(const scenario *s, const char *path, recording_doc *rec, const char *hint, const char *dir,
                       const source_skip *skips, int nskips, tui_source *out, char *why, size_t n);
void source_view_input_free(tui_source *src);

#endif
