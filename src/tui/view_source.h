/* view_source: the source view, on the pager: a source file (an import's .cu, or the line texts a
 * recording carries), each line with a gutter holding the model's prediction for the accesses
 * on it (wavefronts / ideal over every warp-instruction, as `analyze` sums them, and the worst
 * conflict degree); S sorts the lines by cost (the wavefronts beyond ideal), Enter goes to the
 * line's first access in the grid view; the accesses an import left out are listed after the
 * text when given.
 *
 * Its input is small on purpose (tui_source), so an import and a recording both feed it: the
 * file's name, its lines, and for each access (scenario order) the 1-based line it is on.
 * Ownership: a tui_source owns every string and array in it (source_free). */
#ifndef BANKSCOPE_TUI_VIEW_SOURCE_H
#define BANKSCOPE_TUI_VIEW_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/scenario.h"

typedef struct tui_source {
    char *file;   /* shown in the title */
    char **text;  /* line i + 1 is text[i]; NULL: not known (only its accesses are) */
    int nlines;   /* 0 when no line of the file is known */
    int *line_of; /* per access (scenario order): its 1-based line, 0: none */
    int naccesses;
    char **skipped; /* accesses left out ("file:line:col: skipped ...: reason"), one a line */
    int nskipped;
} tui_source;

/* The per-line numbers of the gutter (filled by source_costs). */
typedef struct tui_source_cost {
    int64_t wavefronts, ideal; /* summed over the line's accesses' warp-instructions */
    int worst;                 /* worst conflict degree; 0: no access on the line */
    int first_access;          /* the line's first access (scenario order), -1 none */
} tui_source_cost;

/* The source of s: the file named by its accesses' source locations (read from disk when it can
 * be, else the line texts the locations carry); false when no access says where it comes from. */
bool source_from_scenario(const scenario *s, tui_source *out);
void source_free(tui_source *src);
/* The gutter's numbers for every line (costs[nlines], caller-allocated), from the same model
 * analysis `analyze` uses, over every warp-instruction of s. */
void source_costs(const scenario *s, const tui_source *src, tui_source_cost *costs);

#endif
