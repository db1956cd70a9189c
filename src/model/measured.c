/* measured: the per-line join of the hardware's per-instruction counts with a recording's
 * predictions, the agreement rule and the time-share bound (measured.h states them). */
#include "model/measured.h"

/* The measured instruction at pc, or NULL (linear: a kernel has a few thousand instructions). */
static const measured_pc *find_pc(const measured_pc *pcs, size_t npcs, uint32_t pc)
{
    for (size_t i = 0; i < npcs; i++)
        if (pcs[i].pc == pc)
            return &pcs[i];
    return NULL;
}

/* Whether pcs[i] appeared earlier in the list (a line's pcs may repeat). */
static bool seen_before(const uint32_t *pcs, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (pcs[k] == pcs[i])
            return true;
    return false;
}

/* Sums the line's distinct instructions; false when one of them has no wavefront count. */
static bool sum_line(measured_line *l, const measured_pc *pcs, size_t npcs)
{
    bool all = true;
    measured_counts c = {0, 0, 0};
    for (size_t i = 0; i < l->npcs; i++) {
        if (seen_before(l->pcs, i))
            continue;
        const measured_pc *p = find_pc(pcs, npcs, l->pcs[i]);
        if (!p || !p->shared) {
            all = false;
            if (!p)
                continue;
        }
        c.wavefronts += p->c.wavefronts;
        c.ideal_wavefronts += p->c.ideal_wavefronts;
        c.instructions += p->c.instructions;
    }
    l->measured = c;
    return all;
}

void measured_lines(measured_line *lines, size_t nlines, const measured_pc *pcs, size_t npcs, uint64_t blocks,
                    bool async_fill)
{
    for (size_t i = 0; i < nlines; i++) {
        measured_line *l = &lines[i];
        bool counted = sum_line(l, pcs, npcs);
        l->excess = (int64_t)l->measured.wavefronts - (int64_t)l->measured.ideal_wavefronts;
        l->expected = l->predicted_wavefronts * blocks;
        if (!l->has_second) {
            l->agree = MEASURED_AGREE_NULL;
            l->why = MEASURED_WHY_ONE_BLOCK;
        } else if (l->second_wavefronts != l->predicted_wavefronts || l->second_ideal != l->predicted_ideal) {
            l->agree = MEASURED_AGREE_NULL;
            l->why = MEASURED_WHY_BLOCKS_DIFFER;
        } else if (counted && l->measured.wavefronts == l->expected && !l->unmodelled) {
            l->agree = MEASURED_AGREE_TRUE;
            l->why = MEASURED_WHY_NONE;
        } else {
            l->agree = MEASURED_AGREE_FALSE;
            l->why = !counted                                             ? MEASURED_WHY_UNCOUNTED
                     : l->unmodelled                                      ? MEASURED_WHY_NOT_MODELLED
                     : async_fill && l->measured.wavefronts > l->expected ? MEASURED_WHY_ASYNC_FILL
                                                                          : MEASURED_WHY_OTHER_BLOCKS;
        }
    }
}

bool measured_recompute(const measured_launch *l, const measured_counts *c, uint64_t predicted_wavefronts,
                        bool unmodelled, int64_t *excess, uint64_t *expected, measured_agree *agree, measured_why *why)
{
    uint64_t e;
    if (__builtin_mul_overflow(predicted_wavefronts, l->blocks, &e) || c->wavefronts > INT64_MAX ||
        c->ideal_wavefronts > INT64_MAX)
        return false;
    *expected = e;
    *excess = (int64_t)c->wavefronts - (int64_t)c->ideal_wavefronts; /* both below 2^63: no overflow */
    bool same = l->blocks == 1 || (l->has_second && l->invariant);   /* every block does the same */
    if (!same) {
        *agree = MEASURED_AGREE_NULL;
        *why = l->has_second ? MEASURED_WHY_BLOCKS_DIFFER : MEASURED_WHY_ONE_BLOCK;
    } else if (c->wavefronts == e && !unmodelled) {
        *agree = MEASURED_AGREE_TRUE;
        *why = MEASURED_WHY_NONE;
    } else {
        *agree = MEASURED_AGREE_FALSE;
        *why = unmodelled                           ? MEASURED_WHY_NOT_MODELLED
               : l->async_fill && c->wavefronts > e ? MEASURED_WHY_ASYNC_FILL
                                                    : MEASURED_WHY_OTHER_BLOCKS;
    }
    return true;
}

double measured_share(uint64_t excess, int sms, int clock_khz, uint64_t duration_ns)
{
    if (sms <= 0 || clock_khz <= 0 || duration_ns == 0)
        return -1;
    /* cycles available to all SMs' shared pipes during the launch: SMs x kHz x 1e3 x ns x 1e-9 */
    double cycles = (double)sms * (double)clock_khz * (double)duration_ns * 1e-6;
    return (double)excess / cycles;
}

const char *measured_why_text(measured_why why)
{
    switch (why) {
    case MEASURED_WHY_NONE: return "";
    case MEASURED_WHY_ONE_BLOCK: return "one block recorded: whether every block does the same is not established";
    case MEASURED_WHY_BLOCKS_DIFFER:
        return "the two recorded blocks predict differently (accesses depend on the block or the data)";
    case MEASURED_WHY_NOT_MODELLED: return "the line has shared accesses of kinds the model does not predict";
    case MEASURED_WHY_ASYNC_FILL:
        return "the kernel fills shared memory asynchronously (cp.async/TMA): the hardware counts arbitration "
               "with those fills as extra wavefronts";
    case MEASURED_WHY_OTHER_BLOCKS: return "other blocks access differently from the two recorded ones";
    case MEASURED_WHY_UNCOUNTED: return "an instruction of the line has no hardware wavefront count";
    }
    return "";
}

const char *measured_agree_name(measured_agree a)
{
    return a == MEASURED_AGREE_TRUE ? "true" : a == MEASURED_AGREE_FALSE ? "false" : "null";
}
