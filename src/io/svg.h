/* svg: the bank grid and the array map of one warp-instruction as a standalone SVG picture for
 * slides and handouts. Pure text generation into a strbuf. */
#ifndef BANKSCOPE_SVG_H
#define BANKSCOPE_SVG_H

#include "model/scenario.h"

/* Render warp-instruction in of s with its result r and cells (banks_analyze's: the core
 * analyses, core/analysis.h analysis_svg). */
void svg_render(const scenario *s, const scenario_instr *in, const banks_result *r, const banks_cell *cells,
                strbuf *out);

#endif
