/* recording_arrays: a recording's shared variables as the what-if model's regions
 * (model/whatif.h), and the C declaration of a variable found in the kernel's source, so that a
 * layout can be written as the declaration to type ("__shared__ float tile[32][33]").
 *
 * Ownership: a recording_regions borrows nothing; its names are owned copies. */
#ifndef BANKSCOPE_IO_RECORDING_ARRAYS_H
#define BANKSCOPE_IO_RECORDING_ARRAYS_H

#include <stdbool.h>
#include <stddef.h>

#include "io/recording.h"
#include "model/scenario.h"
#include "model/whatif.h"

typedef struct recording_regions {
    whatif_region regions[WHATIF_MAX_REGIONS];
    int n;
    bool from_cubin;                    /* the recording's "arrays"; false: the recorded window is one region */
    char names[WHATIF_MAX_REGIONS][96]; /* the regions' names (regions[i].name points here) */
    char types[WHATIF_MAX_REGIONS][64]; /* the element's C type as the source declares it; "" unknown */
    /* an unnamed region named after the source's one __shared__ array: what it was ("the
     * recorded window", "the static shared memory"); "" when the name is the recording's */
    char was[WHATIF_MAX_REGIONS][64];
} recording_regions;

/* The regions of recording r (read from path) whose trace s holds: its arrays, else the recorded
 * window [first recorded byte, last recorded byte] as one region. An unnamed static region takes
 * the name of the source's one __shared__ declaration when the kernel's file has exactly one.
 * The element types come from the declarations in the file the recording's lines name, opened
 * only under the recording's folder or source_dir (--source DIR; NULL: none) and only when it
 * holds a line the recording carries (io/safe_open.h). */
void recording_regions_build(const recording *r, const char *path, const char *source_dir, const scenario *s,
                             recording_regions *out);
/* The whatif input of s with regions g. */
whatif_input recording_whatif_input(const scenario *s, const recording *r, const recording_regions *g);

#endif
