/* scenario_reference: the first warp-instruction builder, the reference for the one in use. */
#ifndef BANKSCOPE_SCENARIO_REFERENCE_H
#define BANKSCOPE_SCENARIO_REFERENCE_H

#include "model/scenario.h"

/* Same contract as scenario_instr_build. */
void scenario_reference_build(const scenario *s, int access, int iteration, int warp, scenario_instr *out);

#endif
