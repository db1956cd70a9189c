/* svg: the bank grid and the array map of one warp-instruction as a standalone SVG picture for
 * slides and handouts. Pure text generation into a strbuf. */
#ifndef BANKSCOPE_SVG_H
#define BANKSCOPE_SVG_H

#include "model/scenario.h"

/* The warp-instruction with the highest conflict degree (the first one on ties). */
int64_t svg_worst_instr(const scenario *s);
/* Render instruction k of s (see scenario_instr_at). */
void svg_render(const scenario *s, int64_t k, strbuf *out);

#endif
