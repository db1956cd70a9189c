/* scenario_doc: what the front ends ask of a scenario without asking which kind it is (a
 * description that computes its addresses, or a trace that lists them): each answer hides the
 * difference, so a view, a command or a job says what it needs (the array an access reads, the
 * kind of an instruction, the line it comes from) and works for both. A trace has no arrays,
 * accesses, loops or warp selection (narrays, naccesses, nloops and nwarps are 0), so questions
 * about those need no branch at all. */
#include "model/scenario.h"

bool scenario_has_layout(const scenario *s)
{
    return !s->is_trace;
}

bool scenario_is_nest(const scenario *s)
{
    if (s->nloops > 1)
        return true;
    for (int i = 0; s->nloops == 1 && i < s->naccesses; i++)
        if (s->accesses[i].loop != 0)
            return true;
    return false;
}

bool scenario_has_source_map(const scenario *s)
{
    return !scenario_has_layout(s) && s->trace_at != NULL;
}

const scenario_srcloc *scenario_source_of(const scenario *s, int64_t k)
{
    return scenario_has_source_map(s) && k >= 0 && k < s->ntrace ? &s->trace_at[k] : NULL;
}

const scenario_access *scenario_access_of(const scenario *s, int i)
{
    return i >= 0 && i < s->naccesses ? &s->accesses[i] : NULL;
}

int scenario_access_array(const scenario *s, int i)
{
    const scenario_access *a = scenario_access_of(s, i);
    return a ? a->array : -1;
}

banks_request scenario_kind_of(const scenario *s, int i)
{
    return scenario_has_layout(s) ? scenario_access_kind(&s->accesses[i]) : s->trace[i];
}

void scenario_instr_get(const scenario *s, int i, int iteration, int warp, scenario_instr *out)
{
    if (scenario_has_layout(s))
        scenario_instr_build(s, i, iteration, warp, out);
    else
        scenario_instr_at(s, i, out);
}

const char *scenario_access_noun(const scenario *s, bool plural)
{
    if (scenario_has_layout(s))
        return plural ? "accesses" : "access";
    return plural ? "instructions" : "instruction";
}
