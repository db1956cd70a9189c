/* banks_reference: the bank engine as it was before it was rewritten for speed (64-bit
 * divisions, a scan of all 32 lanes per phase, a cleared result), kept verbatim as the reference
 * that tests/unit/test_banks.c compares the fast engine with on millions of random requests. */
#include "banks_reference.h"

#include <string.h>

/* [H200] Loads of 8 or 16 bytes merge two phases into one when every lane n reads the same
 * address as lane n^1 (or every lane as lane n^2); an inactive lane pairs with anything.
 * Other pairings (n^3, n^4, per half-warp) are refuted by rows of the calibration set. */
static bool lanes_pair(const banks_request *req, int mask)
{
    for (int l = 0; l < BANKS_WARP; l++) {
        int m = l ^ mask;
        uint32_t both = (1u << l) | (1u << m);
        if ((req->active & both) == both && req->addr[l] != req->addr[m])
            return false;
    }
    return true;
}

/* Distinct conflict slots each bank serves within one phase, in first-touch order. */
typedef struct bank_slots {
    int count[BANKS_MAX_BANKS];
    int64_t key[BANKS_MAX_BANKS][BANKS_WARP];
    int64_t word[BANKS_MAX_BANKS][BANKS_WARP];
} bank_slots;

/* Record one bank word; return its rank within its bank and whether it was already there. */
static int slots_add(bank_slots *s, const banks_profile *p, int64_t bw, bool *seen)
{
    int b = (int)(bw % p->banks);
    int64_t key = bw / ((int64_t)p->banks * p->same_slot_words);
    for (int i = 0; i < s->count[b]; i++)
        if (s->key[b][i] == key) {
            *seen = s->word[b][i] == bw;
            return i;
        }
    int r = s->count[b]++;
    s->key[b][r] = key;
    s->word[b][r] = bw;
    *seen = false;
    return r;
}

/* Put lane into the grid cell (row, bank) serving bank word bw. */
static void cell_mark(banks_cell *cells, const banks_profile *p, int row, int64_t bw, int lane)
{
    if (!cells || row >= BANKS_MAX_ROWS)
        return;
    banks_cell *c = &cells[row * p->banks + (int)(bw % p->banks)];
    c->lanes |= 1u << lane;
    c->word = bw;
}

/* Serve one phase with the rule of sm_50 and later: each bank serves one distinct word (slot)
 * per wavefront, and any number of lanes touching that word at once ([PG] 5.x). */
static int phase_modern(const banks_profile *p, const banks_request *req, int width, int sub, banks_phase *ph,
                        banks_result *out, banks_cell *cells)
{
    bank_slots s;
    memset(s.count, 0, sizeof s.count);
    int degree = 0;
    for (int l = 0; l < BANKS_WARP; l++) {
        if (!(ph->lanes & req->active & (1u << l)))
            continue;
        int64_t a = req->addr[l] + (int64_t)sub * width;
        int64_t first = a / p->bank_bytes, last = (a + width - 1) / p->bank_bytes;
        for (int64_t bw = first; bw <= last; bw++) {
            bool seen;
            int rank = slots_add(&s, p, bw, &seen);
            if (rank + 1 > degree)
                degree = rank + 1;
            cell_mark(cells, p, ph->first_row + rank, bw, l);
            if (bw == first && out->lane[l].phase < 0) {
                out->lane[l].phase = (int8_t)(ph - out->phase);
                out->lane[l].wavefront = (int16_t)(ph->first_row + rank);
                out->lane[l].broadcast = seen;
            }
        }
    }
    return degree;
}

/* Serve one half-warp request the cc 1.x way ([PG] 1.x): each step broadcasts the word of the
 * lowest waiting lane to every lane reading it, and every other bank serves one waiting lane. */
static int phase_legacy(const banks_profile *p, const banks_request *req, int width, int sub, banks_phase *ph,
                        banks_result *out, banks_cell *cells)
{
    uint32_t waiting = ph->lanes & req->active;
    int64_t word[BANKS_WARP];
    for (int l = 0; l < BANKS_WARP; l++)
        word[l] = (req->addr[l] + (int64_t)sub * width) / p->bank_bytes;
    int steps = 0;
    while (waiting) {
        int row = ph->first_row + steps;
        int first = __builtin_ctz(waiting);
        int64_t bcast = word[first];
        uint32_t served = 0;
        bool bank_busy[BANKS_MAX_BANKS] = {false};
        for (int l = first; l < BANKS_WARP; l++) {
            if (!(waiting & (1u << l)))
                continue;
            int b = (int)(word[l] % p->banks);
            bool take = word[l] == bcast || (!bank_busy[b] && b != (int)(bcast % p->banks));
            if (!take)
                continue;
            if (word[l] != bcast)
                bank_busy[b] = true;
            served |= 1u << l;
            cell_mark(cells, p, row, word[l], l);
            if (out->lane[l].phase < 0) {
                out->lane[l].phase = (int8_t)(ph - out->phase);
                out->lane[l].wavefront = (int16_t)row;
                out->lane[l].broadcast = word[l] == bcast && l != first;
            }
        }
        waiting &= ~served;
        steps++;
    }
    return steps;
}

void banks_reference_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells)
{
    memset(out, 0, sizeof *out);
    for (int l = 0; l < BANKS_WARP; l++) {
        out->lane[l].phase = -1;
        out->lane[l].wavefront = -1;
    }
    if (cells)
        memset(cells, 0, sizeof *cells * BANKS_MAX_ROWS * (size_t)p->banks);

    int width = req->width, nsub = 1;
    if (p->split_wide && width > p->bank_bytes) {
        nsub = width / p->bank_bytes;
        width = p->bank_bytes;
    }
    int per_phase = p->wavefront_bytes / width;
    if (per_phase > p->request_lanes)
        per_phase = p->request_lanes;
    if (p->load_pairing && req->op == BANKS_LOAD && width >= 8 && per_phase < BANKS_WARP &&
        (lanes_pair(req, 1) || lanes_pair(req, 2))) {
        per_phase *= 2;
        out->paired = true;
    }

    int row = 0;
    for (int sub = 0; sub < nsub; sub++) {
        for (int g = 0; g < BANKS_WARP; g += per_phase) {
            banks_phase *ph = &out->phase[out->nphases++];
            ph->lanes = (per_phase == 32 ? 0xffffffffu : ((1u << per_phase) - 1u)) << g;
            ph->sub = sub;
            ph->first_row = row;
            int n = p->single_broadcast ? phase_legacy(p, req, width, sub, ph, out, cells)
                                        : phase_modern(p, req, width, sub, ph, out, cells);
            ph->wavefronts = n;
            ph->degree = n;
            row += n;
            if (n > 0)
                out->ideal_wavefronts++;
            if (n > out->conflict_degree)
                out->conflict_degree = n;
        }
    }
    out->wavefronts = row;
    out->bank_conflicts = out->wavefronts - out->ideal_wavefronts;
    for (int l = 0; l < BANKS_WARP; l++) {
        if (out->lane[l].phase < 0)
            continue;
        out->active_lanes++;
        if (out->lane[l].broadcast)
            out->broadcast_lanes++;
    }
}
