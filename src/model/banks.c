/* banks: the architecture profiles and the bank engine (see banks.h for the contract). */
#include "banks.h"
#include "banks_tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sources of the rules:
 * [PG]  CUDA C++ Programming Guide, "Shared Memory" sections of the compute-capability appendix
 *       (1.x, 3.x, 5.x and later) and the occupancy tables.
 * [H200] Nsight Compute wavefront and bank-conflict counters for 1041 single warp-instructions
 *       on an H200 (tests/data/h200_dev.tsv); every row is reproduced by these rules.
 * [H200m] bankscope measure on an H200 (tests/gpu/data-path.sh, tests/gpu/random.sh): loads
 *       take at least one clock per phase of the request, empty phases included, after
 *       pairing: an 8-byte load whose active lanes are all in one half-warp 2.00 cycles for 1
 *       wavefront, a 16-byte load of one quarter-warp 4.00, one active lane of a 16-byte load
 *       (paired: 2 phases) 2.05 (HARDWARE.md: 2.08), of an 8-byte load 1.04. Stores of
 *       register data likewise (one active lane: 16 bytes 4.00, 8 bytes 2.00); stores of the
 *       zero register take their wavefronts (16 bytes, one lane: 1.00).
 * The sm_50..sm_89 entries share the bank rules of [PG] 5.x; they differ only in capacity. */
static const banks_profile profiles[] = {
    {.name = "sm_90", .title = "Hopper (H100/H200), checked against hardware counters",
     .source = "[PG] cc 9.0 + [H200]: 32 banks x 4 B, 128 B per wavefront, 8/16-byte loads "
               "pair lanes n^1 or n^2",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .load_pairing = true, .smem_per_sm = 233472,
     .smem_per_block = 232448, .smem_reserved = 1024, .smem_granularity = 128,
     .threads_per_sm = 2048, .blocks_per_sm = 32, .measured = true,
     .phase_cycles = true /* [H200m] */},
    {.name = "sm_89", .title = "Ada (sm_89): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 102400, .smem_per_block = 101376,
     .smem_reserved = 1024, .smem_granularity = 128, .threads_per_sm = 1536, .blocks_per_sm = 24},
    {.name = "sm_86", .title = "Ampere GA10x (sm_86): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 102400, .smem_per_block = 101376,
     .smem_reserved = 1024, .smem_granularity = 128, .threads_per_sm = 1536, .blocks_per_sm = 16},
    {.name = "sm_80", .title = "Ampere A100 (sm_80): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 167936, .smem_per_block = 166912,
     .smem_reserved = 1024, .smem_granularity = 128, .threads_per_sm = 2048, .blocks_per_sm = 32},
    {.name = "sm_75", .title = "Turing (sm_75): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 65536, .smem_per_block = 65536,
     .smem_reserved = 0, .smem_granularity = 256, .threads_per_sm = 1024, .blocks_per_sm = 16},
    {.name = "sm_70", .title = "Volta (sm_70): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 98304, .smem_per_block = 98304,
     .smem_reserved = 0, .smem_granularity = 256, .threads_per_sm = 2048, .blocks_per_sm = 32},
    {.name = "sm_60", .title = "Pascal (sm_60): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 65536, .smem_per_block = 49152,
     .smem_reserved = 0, .smem_granularity = 256, .threads_per_sm = 2048, .blocks_per_sm = 32},
    {.name = "sm_50", .title = "Maxwell (sm_50): 32 banks x 4 B", .source = "[PG] cc 5.x and later",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 128,
     .same_slot_words = 1, .smem_per_sm = 65536, .smem_per_block = 49152,
     .smem_reserved = 0, .smem_granularity = 256, .threads_per_sm = 2048, .blocks_per_sm = 32},
    /* [PG] cc 3.x, 32-bit mode: words i and i+32 of one 64-word segment share a bank slot. */
    {.name = "sm_35", .title = "Kepler (sm_35), 4-byte bank mode",
     .source = "[PG] cc 3.x 32-bit mode: 32 banks x 4 B, words i and i+32 in one 256 B segment do not conflict",
     .banks = 32, .bank_bytes = 4, .request_lanes = 32, .wavefront_bytes = 256,
     .same_slot_words = 2, .smem_per_sm = 49152, .smem_per_block = 49152,
     .smem_reserved = 0, .smem_granularity = 256, .threads_per_sm = 2048, .blocks_per_sm = 16},
    /* [PG] cc 3.x, 64-bit mode (cudaSharedMemBankSizeEightByte). */
    {.name = "sm_35_8byte", .title = "Kepler (sm_35), 8-byte bank mode",
     .source = "[PG] cc 3.x 64-bit mode: 32 banks x 8 B, 256 B per wavefront",
     .banks = 32, .bank_bytes = 8, .request_lanes = 32, .wavefront_bytes = 256,
     .same_slot_words = 1, .smem_per_sm = 49152, .smem_per_block = 49152,
     .smem_reserved = 0, .smem_granularity = 256, .threads_per_sm = 2048, .blocks_per_sm = 16},
    /* [PG] cc 1.x: 16 banks, requests per half-warp, one broadcast word per step, 64-bit
     * accesses compiled as two 32-bit requests. */
    {.name = "sm_13", .title = "Tesla (compute capability 1.x): 16 banks, half-warps",
     .source = "[PG] cc 1.x: 16 banks x 4 B per half-warp, a single broadcast word per step",
     .banks = 16, .bank_bytes = 4, .request_lanes = 16, .wavefront_bytes = 64,
     .same_slot_words = 1, .split_wide = true, .single_broadcast = true,
     .smem_per_sm = 16384, .smem_per_block = 16384, .smem_reserved = 0,
     .smem_granularity = 512, .threads_per_sm = 1024, .blocks_per_sm = 8},
};

#define NPROFILES ((int)(sizeof profiles / sizeof profiles[0]))

const banks_profile *banks_profiles(int *n)
{
    *n = NPROFILES;
    return profiles;
}

const banks_profile *banks_profile_default(void)
{
    return &profiles[0];
}

/* Profile for a compute capability written as digits (e.g. 86), or NULL. */
static const banks_profile *profile_for_cc(int cc)
{
    static const struct { int lo, hi; const char *name; } map[] = {
        {10, 13, "sm_13"}, {30, 37, "sm_35"}, {50, 53, "sm_50"}, {60, 62, "sm_60"},
        {70, 72, "sm_70"}, {75, 75, "sm_75"}, {80, 80, "sm_80"}, {86, 88, "sm_86"},
        {89, 89, "sm_89"}, {90, 90, "sm_90"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (cc >= map[i].lo && cc <= map[i].hi)
            return banks_profile_find(map[i].name);
    return NULL;
}

const banks_profile *banks_profile_find(const char *name)
{
    if (!name)
        return NULL;
    for (int i = 0; i < NPROFILES; i++)
        if (strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    if (strcmp(name, "cc1x") == 0)
        return banks_profile_find("sm_13");
    if (strncmp(name, "sm_", 3) == 0 && name[3] >= '1' && name[3] <= '9' && name[4] >= '0' &&
        name[4] <= '9' && name[5] == '\0')
        return profile_for_cc((name[3] - '0') * 10 + (name[4] - '0'));
    return NULL;
}

bool banks_width_ok(int width)
{
    return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

int banks_bank_of(const banks_profile *p, int64_t addr)
{
    return (int)((addr / p->bank_bytes) % p->banks);
}

int64_t banks_word_of(const banks_profile *p, int64_t addr)
{
    return addr / p->bank_bytes;
}

double banks_issue_cycles(const banks_profile *p, const banks_request *req, const banks_result *r,
                          bool register_data)
{
    if (banks_tensor_op(req->op))
        return banks_tensor_cycles(p, req, r);
    bool per_phase = p->phase_cycles && r->active_lanes > 0 && (req->op == BANKS_LOAD || register_data);
    return per_phase && r->nphases > r->wavefronts ? r->nphases : r->wavefronts;
}

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
static int phase_modern(const banks_profile *p, const banks_request *req, int width, int sub,
                        banks_phase *ph, banks_result *out, banks_cell *cells)
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
static int phase_legacy(const banks_profile *p, const banks_request *req, int width, int sub,
                        banks_phase *ph, banks_result *out, banks_cell *cells)
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

void banks_analyze(const banks_profile *p, const banks_request *req, banks_result *out,
                   banks_cell *cells)
{
    memset(out, 0, sizeof *out);
    for (int l = 0; l < BANKS_WARP; l++) {
        out->lane[l].phase = -1;
        out->lane[l].wavefront = -1;
    }
    if (cells)
        memset(cells, 0, sizeof *cells * BANKS_MAX_ROWS * (size_t)p->banks);
    if (banks_tensor_op(req->op)) {
        banks_tensor_analyze(p, req, out, cells);
        return;
    }

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
