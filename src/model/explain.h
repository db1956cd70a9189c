/* explain: the textbook explanation of one warp-instruction, in plain lines of text.
 *
 * For one lane: the element it touches, the byte address as array start + index arithmetic,
 * word = address / bank width, bank = word mod banks (the profile's numbers), the phase and
 * wavefront that serve it, and whether it shares a word (broadcast) or waits behind other lanes
 * (conflict); for a lane left out, why. For the whole access: the stride and gcd reasoning when
 * the address is affine in the lane, why 8- and 16-byte accesses need 2 or 4 wavefronts, load
 * pairing, broadcasts, the cycles-per-phase rule, the lanes left out, and a verdict.
 *
 * Every number is taken from the instruction (scenario_instr) and the bank engine's result
 * (banks_result) it is given, never re-derived by a different rule: the text agrees with
 * `analyze`. Pure: no I/O, no globals; the lines are allocated and owned by the explain_lines.
 * Lines are UTF-8 (in practice ASCII), unwrapped, without control characters; the caller wraps. */
#ifndef BANKSCOPE_EXPLAIN_H
#define BANKSCOPE_EXPLAIN_H

#include "banks.h"
#include "scenario.h"

typedef struct explain_lines {
    char **line; /* owned: n lines, each owned */
    int n;
} explain_lines;

/* Explain lane (0..31) of instruction in, analysed as r (banks_analyze of in->req under s->arch).
 * *out is overwritten (it need not be initialised); free it with explain_lines_free. */
void explain_lane(const scenario *s, const scenario_instr *in, const banks_result *r, int lane, explain_lines *out);
/* Explain the whole warp-instruction in analysed as r. *out is overwritten. */
void explain_access(const scenario *s, const scenario_instr *in, const banks_result *r, explain_lines *out);
/* Narrate wavefront row (0 <= row < r->wavefronts) of instruction in, as step mode reveals it:
 * its phase, the banks and words it serves to which lanes, and which lanes of the phase still
 * wait. *out is overwritten. */
void explain_wavefront(const scenario *s, const scenario_instr *in, const banks_result *r, int row, explain_lines *out);
/* Free the lines; *e becomes empty (n = 0) and may be freed again. */
void explain_lines_free(explain_lines *e);
/* The phases the model served r in, as the grid's footer and the why text both say them:
 * "4 phases of 8 lanes (quarter-warps)", after load pairing ("2 phases of 16 lanes (half-warps)"),
 * counting every part of a split request; without the group's name when brief. */
void explain_phases_text(const banks_result *r, bool brief, char *buf, size_t n);

#endif
