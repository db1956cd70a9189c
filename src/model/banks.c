/* banks: the architecture profiles and the bank engine (see banks.h for the contract). */
#include "banks.h"
#include "banks_fast.h"
#include "banks_tensor.h"
#include "kinds.h"

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
    {.name = "sm_90",
     .cc = 90,
     .title = "Hopper (H100/H200), checked against hardware counters",
     .source = "[PG] cc 9.0 + [H200]: 32 banks x 4 B, 128 B per wavefront, 8/16-byte loads "
               "pair lanes n^1 or n^2",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .load_pairing = true,
     .smem_per_sm = 233472,
     .smem_per_block = 232448,
     .smem_reserved = 1024,
     .smem_granularity = 128,
     .threads_per_sm = 2048,
     .blocks_per_sm = 32,
     .measured = true,
     .phase_cycles = true /* [H200m] */},
    {.name = "sm_89",
     .cc = 89,
     .title = "Ada (sm_89): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 102400,
     .smem_per_block = 101376,
     .smem_reserved = 1024,
     .smem_granularity = 128,
     .threads_per_sm = 1536,
     .blocks_per_sm = 24},
    {.name = "sm_86",
     .cc = 86,
     .title = "Ampere GA10x (sm_86): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 102400,
     .smem_per_block = 101376,
     .smem_reserved = 1024,
     .smem_granularity = 128,
     .threads_per_sm = 1536,
     .blocks_per_sm = 16},
    {.name = "sm_80",
     .cc = 80,
     .title = "Ampere A100 (sm_80): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 167936,
     .smem_per_block = 166912,
     .smem_reserved = 1024,
     .smem_granularity = 128,
     .threads_per_sm = 2048,
     .blocks_per_sm = 32},
    {.name = "sm_75",
     .cc = 75,
     .title = "Turing (sm_75): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 65536,
     .smem_per_block = 65536,
     .smem_reserved = 0,
     .smem_granularity = 256,
     .threads_per_sm = 1024,
     .blocks_per_sm = 16},
    {.name = "sm_70",
     .cc = 70,
     .title = "Volta (sm_70): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 98304,
     .smem_per_block = 98304,
     .smem_reserved = 0,
     .smem_granularity = 256,
     .threads_per_sm = 2048,
     .blocks_per_sm = 32},
    {.name = "sm_60",
     .cc = 60,
     .title = "Pascal (sm_60): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 65536,
     .smem_per_block = 49152,
     .smem_reserved = 0,
     .smem_granularity = 256,
     .threads_per_sm = 2048,
     .blocks_per_sm = 32},
    {.name = "sm_50",
     .cc = 50,
     .title = "Maxwell (sm_50): 32 banks x 4 B",
     .source = "[PG] cc 5.x and later",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 128,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 5,
     .smem_per_sm = 65536,
     .smem_per_block = 49152,
     .smem_reserved = 0,
     .smem_granularity = 256,
     .threads_per_sm = 2048,
     .blocks_per_sm = 32},
    /* [PG] cc 3.x, 32-bit mode: words i and i+32 of one 64-word segment share a bank slot. */
    {.name = "sm_35",
     .cc = 35,
     .title = "Kepler (sm_35), 4-byte bank mode",
     .source = "[PG] cc 3.x 32-bit mode: 32 banks x 4 B, words i and i+32 in one 256 B segment do not conflict",
     .banks = 32,
     .bank_bytes = 4,
     .request_lanes = 32,
     .wavefront_bytes = 256,
     .same_slot_words = 2,
     .bank_shift = 2,
     .slot_shift = 6,
     .smem_per_sm = 49152,
     .smem_per_block = 49152,
     .smem_reserved = 0,
     .smem_granularity = 256,
     .threads_per_sm = 2048,
     .blocks_per_sm = 16},
    /* [PG] cc 3.x, 64-bit mode (cudaSharedMemBankSizeEightByte). */
    {.name = "sm_35_8byte",
     .cc = 35,
     .title = "Kepler (sm_35), 8-byte bank mode",
     .source = "[PG] cc 3.x 64-bit mode: 32 banks x 8 B, 256 B per wavefront",
     .banks = 32,
     .bank_bytes = 8,
     .request_lanes = 32,
     .wavefront_bytes = 256,
     .same_slot_words = 1,
     .bank_shift = 3,
     .slot_shift = 5,
     .smem_per_sm = 49152,
     .smem_per_block = 49152,
     .smem_reserved = 0,
     .smem_granularity = 256,
     .threads_per_sm = 2048,
     .blocks_per_sm = 16},
    /* [PG] cc 1.x: 16 banks, requests per half-warp, one broadcast word per step, 64-bit
     * accesses compiled as two 32-bit requests. */
    {.name = "sm_13",
     .cc = 13,
     .title = "Tesla (compute capability 1.x): 16 banks, half-warps",
     .source = "[PG] cc 1.x: 16 banks x 4 B per half-warp, a single broadcast word per step",
     .banks = 16,
     .bank_bytes = 4,
     .request_lanes = 16,
     .wavefront_bytes = 64,
     .same_slot_words = 1,
     .bank_shift = 2,
     .slot_shift = 4,
     .split_wide = true,
     .single_broadcast = true,
     .smem_per_sm = 16384,
     .smem_per_block = 16384,
     .smem_reserved = 0,
     .smem_granularity = 512,
     .threads_per_sm = 1024,
     .blocks_per_sm = 8},
};

#define NPROFILES ((int)(sizeof profiles / sizeof profiles[0]))

const banks_profile *banks_profiles(int *n)
{
    *n = NPROFILES;
    return profiles;
}

void banks_profile_names(char *out, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return;
    out[0] = '\0';
    for (int i = 0; i < NPROFILES; i++) {
        size_t len = strlen(profiles[i].name) + (i ? 2 : 0);
        if (used + len + 1 > n)
            return;
        used += (size_t)snprintf(out + used, n - used, "%s%s", i ? ", " : "", profiles[i].name);
    }
}

const banks_profile *banks_profile_default(void)
{
    return &profiles[0];
}

/* Profile for a compute capability written as digits (e.g. 86), or NULL. */
static const banks_profile *profile_for_cc(int cc)
{
    static const struct {
        int lo, hi;
        const char *name;
    } map[] = {
        {10, 13, "sm_13"}, {30, 37, "sm_35"}, {50, 53, "sm_50"}, {60, 62, "sm_60"}, {70, 72, "sm_70"},
        {75, 75, "sm_75"}, {80, 80, "sm_80"}, {86, 88, "sm_86"}, {89, 89, "sm_89"}, {90, 90, "sm_90"},
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
    if (strncmp(name, "sm_", 3) == 0 && name[3] >= '1' && name[3] <= '9' && name[4] >= '0' && name[4] <= '9' &&
        name[5] == '\0')
        return profile_for_cc((name[3] - '0') * 10 + (name[4] - '0'));
    return NULL;
}

bool banks_width_ok(int width)
{
    return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

int banks_bank_of(const banks_profile *p, int64_t addr)
{
    return (int)((addr >> p->bank_shift) & (p->banks - 1));
}

int64_t banks_word_of(const banks_profile *p, int64_t addr)
{
    return addr >> p->bank_shift;
}

double banks_issue_cycles(const banks_profile *p, const banks_request *req, const banks_result *r, bool register_data)
{
    if (banks_tensor_op(req->op))
        return banks_tensor_cycles(p, req, r);
    bool per_phase = p->phase_cycles && r->active_lanes > 0 && (kinds_of(req->op)->reads || register_data);
    return per_phase && r->nphases > r->wavefronts ? r->nphases : r->wavefronts;
}

/* [H200] Loads of 8 or 16 bytes merge two phases into one when every lane n reads the same
 * address as lane n^1 (or every lane as lane n^2); an inactive lane pairs with anything.
 * Other pairings (n^3, n^4, per half-warp) are refuted by rows of the calibration set.
 * pairs: the lanes n (with bit `mask` clear) whose partner n^mask is active too. */
static bool lanes_pair(const banks_request *req, int mask)
{
    uint32_t low = mask == 1 ? 0x55555555u : 0x33333333u;
    for (uint32_t m = req->active & (req->active >> mask) & low; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (req->addr[l] != req->addr[l ^ mask])
            return false;
    }
    return true;
}

/* Bits set in v (no popcnt instruction is assumed). */
static int popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

/* Put lane into the grid cell (row, bank) serving bank word bw. */
static void cell_mark(banks_cell *cells, const banks_profile *p, int row, int64_t bw, int lane)
{
    if (!cells || row >= BANKS_MAX_ROWS)
        return;
    banks_cell *c = &cells[row * p->banks + (int)(bw & (p->banks - 1))];
    c->lanes |= 1u << lane;
    c->word = bw;
}

/* Serve one phase with the rule of sm_50 and later: each bank serves one distinct word (slot)
 * per wavefront, and any number of lanes touching that word at once ([PG] 5.x). Lanes are
 * walked in increasing order (first touch decides the rank of a slot); a bank's slots are
 * found by a short linear search (almost always one entry). With one word per slot (every
 * profile but Kepler's 4-byte mode) a matching slot is the same word: a broadcast. */
static int phase_modern(const banks_profile *p, const banks_request *req, int width, int sub, banks_phase *ph,
                        banks_result *out, banks_cell *cells, int *broadcast)
{
    uint8_t count[BANKS_MAX_BANKS];
    int64_t key[BANKS_MAX_BANKS][2 * BANKS_WARP], word[BANKS_MAX_BANKS][2 * BANKS_WARP];
    memset(count, 0, sizeof count);
    const int bshift = p->bank_shift, sshift = p->slot_shift;
    const int64_t bmask = p->banks - 1, off = (int64_t)sub * width;
    const bool one_word = p->same_slot_words == 1;
    const int8_t pi = (int8_t)(ph - out->phase);
    const int row0 = ph->first_row;
    int degree = 0;
    for (uint32_t m = ph->lanes & req->active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        int64_t a = req->addr[l] + off;
        int64_t first = a >> bshift, last = (a + width - 1) >> bshift;
        for (int64_t bw = first; bw <= last; bw++) {
            int b = (int)(bw & bmask), n = count[b], rank = 0;
            int64_t k = one_word ? bw : bw >> sshift;
            const int64_t *kb = key[b];
            while (rank < n && kb[rank] != k)
                rank++;
            bool seen = rank < n;
            if (!seen) {
                key[b][n] = k;
                count[b] = (uint8_t)(n + 1);
                if (n + 1 > degree)
                    degree = n + 1;
                if (!one_word)
                    word[b][n] = bw;
            } else if (!one_word)
                seen = word[b][rank] == bw;
            if (cells)
                cell_mark(cells, p, row0 + rank, bw, l);
            if (bw == first && out->lane[l].phase < 0) {
                out->lane[l].phase = pi;
                out->lane[l].wavefront = (int16_t)(row0 + rank);
                out->lane[l].broadcast = seen;
                *broadcast += seen;
            }
        }
    }
    return degree;
}

/* Units that fast_kernel indexes directly: a window this wide around the first active lane's. */
#define BANKS_WINDOW 8192

/* The four bytes of a banks_lane as one integer: phase pi, broadcast dup, wavefront wf. */
static uint32_t lane_bits(int pi, int dup, int wf)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint32_t)(uint8_t)pi << 24 | (uint32_t)dup << 16 | (uint16_t)wf;
#else
    return (uint8_t)pi | (uint32_t)dup << 8 | (uint32_t)(uint16_t)wf << 16;
#endif
}

/* The plan of the portable search-free kernel for req (at least one active lane, a profile with
 * one word per slot that does not split accesses nor broadcast one word per step). An
 * aligned access of width >= bank_bytes covers one unit of width bytes, and every bank of a group
 * of width / bank_bytes banks sees the same units in the same order, so the rank of a lane's unit
 * in its group is the rank of each of its words in its bank (below bank_bytes a unit is one bank
 * word). */
static bool fast_plan(const banks_profile *p, const banks_request *req, banks_fast_plan *plan)
{
    const int wshift = __builtin_ctz((unsigned)req->width);
    plan->ushift = wshift > p->bank_shift ? wshift : p->bank_shift;
    plan->gmask = (unsigned)(p->banks >> (plan->ushift - p->bank_shift)) - 1;
    int per_phase = p->wavefront_bytes >> wshift;
    if (per_phase > p->request_lanes)
        per_phase = p->request_lanes;
    plan->paired = false;
    if (p->load_pairing && kinds_of(req->op)->pairs && req->width >= 8 && per_phase < BANKS_WARP &&
        (lanes_pair(req, 1) || lanes_pair(req, 2))) {
        per_phase *= 2;
        plan->paired = true;
    }
    plan->pshift = __builtin_ctz((unsigned)per_phase);
    return plan->pshift >= 3; /* at most 4 phases: their numbers fit the slot table's 3 bits */
}

/* The portable search-free kernel (see banks_fast.h), for every active lane aligned and the units
 * within BANKS_WINDOW / 2 of the first active lane's. One byte per unit holds the phase that last
 * touched it (3 bits, 1-based) and its rank there (5 bits): every lane is a few branch-free
 * operations. */
static inline __attribute__((always_inline)) bool fast_kernel(const banks_profile *p, const banks_request *req,
                                                              const banks_fast_plan *plan, banks_result *out)
{
    _Static_assert(sizeof(banks_lane) == 4, "banks_lane is written as four bytes");
    (void)p;
    const uint32_t active = req->active;
    const int ushift = plan->ushift;
    /* the base is a multiple of 32 units, so an index's low bits are its unit's */
    const int64_t base = ((req->addr[__builtin_ctz(active)] >> ushift) - BANKS_WINDOW / 2) & ~(int64_t)31;
    uint8_t slot[BANKS_WINDOW]; /* by unit - base: (phase + 1) << 5 | rank; other phases: stale */
    uint16_t idx[BANKS_WARP];
    uint64_t far = 0;
    int64_t misaligned = 0;
    for (uint32_t m = active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        int64_t a = req->addr[l];
        uint64_t i = (uint64_t)((a >> ushift) - base);
        far |= i;
        misaligned |= a;
        idx[l] = (uint16_t)i;
        slot[i & (BANKS_WINDOW - 1)] = 0;
    }
    if ((far & ~(uint64_t)(BANKS_WINDOW - 1)) || (misaligned & (req->width - 1)))
        return false;

    uint32_t lane_out[BANKS_WARP];
    for (int l = 0; l < BANKS_WARP; l++)
        lane_out[l] = lane_bits(-1, 0, -1);
    const unsigned gmask = plan->gmask;
    const int per_phase = 1 << plan->pshift;
    const uint32_t group = per_phase == 32 ? 0xffffffffu : ((1u << per_phase) - 1u);
    int row = 0, ideal = 0, degree = 0, nphases = 0, nb = 0;
    for (int g = 0; g < BANKS_WARP; g += per_phase, nphases++) {
        banks_phase *ph = &out->phase[nphases];
        ph->lanes = group << g;
        ph->sub = 0;
        ph->first_row = row;
        union {
            uint8_t n[BANKS_MAX_BANKS];
            uint64_t zero[BANKS_MAX_BANKS / 8];
        } count = {.zero = {0}};
        const unsigned tag = (unsigned)(nphases + 1) << 5;
        const uint32_t first = lane_bits(nphases, 0, row);
        unsigned top = 0; /* highest rank */
        for (uint32_t m = ph->lanes & active; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            unsigned i = idx[l], t = slot[i] ^ tag; /* the rank when the tag matches */
            unsigned c = count.n[i & gmask];
            unsigned dup = t < 32;
            unsigned rank = dup ? t : c;
            count.n[i & gmask] = (uint8_t)(c + 1 - dup);
            slot[i] = (uint8_t)(tag | rank);
            top = rank > top ? rank : top;
            lane_out[l] = first + (lane_bits(0, 0, (int)rank) | lane_bits(0, (int)dup, 0));
            nb += (int)dup;
        }
        int n = (ph->lanes & active) ? (int)top + 1 : 0;
        ph->wavefronts = n;
        ph->degree = n;
        row += n;
        ideal += n > 0;
        degree = n > degree ? n : degree;
    }
    memcpy(out->lane, lane_out, sizeof lane_out);
    out->paired = plan->paired;
    out->not_modelled = false;
    out->nphases = nphases;
    out->wavefronts = row;
    out->ideal_wavefronts = ideal;
    out->conflict_degree = degree;
    out->bank_conflicts = row - ideal;
    out->active_lanes = popcount32(active);
    out->broadcast_lanes = nb;
    return true;
}

/* The portable kernel as every CPU runs it. */
static bool fast_portable(const banks_profile *p, const banks_request *req, const banks_fast_plan *plan,
                          banks_result *out)
{
    return fast_kernel(p, req, plan, out);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same kernel compiled for AVX2 with BMI1/2, POPCNT and LZCNT (every x86-64 server since
 * 2013): the lane loop's bit operations become single instructions (tzcnt, blsr, shlx, popcnt)
 * and its copies vector moves. Called only where the CPU has them (banks_fast_avx2_usable). */
__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))) static bool
fast_avx2(const banks_profile *p, const banks_request *req, const banks_fast_plan *plan, banks_result *out)
{
    return fast_kernel(p, req, plan, out);
}

/* What fast_avx2 was compiled for, asked of the CPU at run time. */
bool banks_fast_avx2_usable(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("popcnt");
}
#else
static bool fast_avx2(const banks_profile *p, const banks_request *req, const banks_fast_plan *plan, banks_result *out)
{
    return fast_kernel(p, req, plan, out);
}

bool banks_fast_avx2_usable(void)
{
    return false;
}
#endif

/* Serve one half-warp request the cc 1.x way ([PG] 1.x): each step broadcasts the word of the
 * lowest waiting lane to every lane reading it, and every other bank serves one waiting lane. */
static int phase_legacy(const banks_profile *p, const banks_request *req, int width, int sub, banks_phase *ph,
                        banks_result *out, banks_cell *cells, int *broadcast)
{
    uint32_t waiting = ph->lanes & req->active;
    int64_t word[BANKS_WARP];
    for (uint32_t m = waiting; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        word[l] = (req->addr[l] + (int64_t)sub * width) >> p->bank_shift;
    }
    const int64_t bmask = p->banks - 1;
    int steps = 0;
    while (waiting) {
        int row = ph->first_row + steps;
        int first = __builtin_ctz(waiting);
        int64_t bcast = word[first];
        uint32_t served = 0, bank_busy = 0;
        for (uint32_t m = waiting; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            int b = (int)(word[l] & bmask);
            bool take = word[l] == bcast || (!(bank_busy & (1u << b)) && b != (int)(bcast & bmask));
            if (!take)
                continue;
            if (word[l] != bcast)
                bank_busy |= 1u << b;
            served |= 1u << l;
            cell_mark(cells, p, row, word[l], l);
            if (out->lane[l].phase < 0) {
                out->lane[l].phase = (int8_t)(ph - out->phase);
                out->lane[l].wavefront = (int16_t)row;
                out->lane[l].broadcast = word[l] == bcast && l != first;
                *broadcast += out->lane[l].broadcast;
            }
        }
        waiting &= ~served;
        steps++;
    }
    return steps;
}

/* Which search-free kernel analyze tries first: the portable one always follows. */
typedef enum kernel { KERNEL_PORTABLE, KERNEL_AVX2, KERNEL_AVX512 } kernel;

/* banks_analyze, with the kernel k (and the portable one where k cannot take the request). */
static void analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells, kernel k)
{
    /* Every field is written below, phase entries past nphases excepted: no clearing. */
    banks_fast_plan plan;
    if (!cells && !banks_tensor_op(req->op) && req->active && p->same_slot_words == 1 && !p->single_broadcast &&
        !(p->split_wide && req->width > p->bank_bytes) &&
        ((k == KERNEL_AVX512 && banks_fast_simd(p, req, out)) ||
         (fast_plan(p, req, &plan) &&
          (k == KERNEL_AVX2 ? fast_avx2(p, req, &plan, out) : fast_portable(p, req, &plan, out)))))
        return;
    if (cells)
        memset(cells, 0, sizeof *cells * BANKS_MAX_ROWS * (size_t)p->banks);
    if (banks_tensor_op(req->op)) {
        banks_tensor_analyze(p, req, out, cells);
        return;
    }
    int width = req->width, nsub = 1;
    if (p->split_wide && width > p->bank_bytes) {
        nsub = width >> p->bank_shift;
        width = p->bank_bytes;
    }
    const banks_lane none = {.phase = -1, .wavefront = -1, .broadcast = false};
    for (int l = 0; l < BANKS_WARP; l++)
        out->lane[l] = none;
    int per_phase = p->wavefront_bytes >> __builtin_ctz((unsigned)width);
    if (per_phase > p->request_lanes)
        per_phase = p->request_lanes;
    out->paired = false;
    out->not_modelled = false;
    if (p->load_pairing && kinds_of(req->op)->pairs && width >= 8 && per_phase < BANKS_WARP &&
        (lanes_pair(req, 1) || lanes_pair(req, 2))) {
        per_phase *= 2;
        out->paired = true;
    }

    int row = 0, ideal = 0, degree = 0, nphases = 0, broadcast = 0;
    const uint32_t group = per_phase == 32 ? 0xffffffffu : ((1u << per_phase) - 1u);
    for (int sub = 0; sub < nsub; sub++) {
        for (int g = 0; g < BANKS_WARP; g += per_phase) {
            banks_phase *ph = &out->phase[nphases++];
            ph->lanes = group << g;
            ph->sub = sub;
            ph->first_row = row;
            int n = 0;
            uint32_t lanes = ph->lanes & req->active;
            if (lanes && p->single_broadcast)
                n = phase_legacy(p, req, width, sub, ph, out, cells, &broadcast);
            else if (lanes)
                n = phase_modern(p, req, width, sub, ph, out, cells, &broadcast);
            ph->wavefronts = n;
            ph->degree = n;
            row += n;
            ideal += n > 0;
            degree = n > degree ? n : degree;
        }
    }
    out->nphases = nphases;
    out->wavefronts = row;
    out->ideal_wavefronts = ideal;
    out->conflict_degree = degree;
    out->bank_conflicts = row - ideal;
    out->active_lanes = popcount32(req->active); /* every active lane is served */
    out->broadcast_lanes = broadcast;
}

void banks_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells)
{
    analyze(p, req, out, cells,
            banks_fast_simd_usable()   ? KERNEL_AVX512
            : banks_fast_avx2_usable() ? KERNEL_AVX2
                                       : KERNEL_PORTABLE);
}

void banks_analyze_portable(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells)
{
    analyze(p, req, out, cells, KERNEL_PORTABLE);
}

void banks_analyze_avx2(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells)
{
    analyze(p, req, out, cells, banks_fast_avx2_usable() ? KERNEL_AVX2 : KERNEL_PORTABLE);
}
