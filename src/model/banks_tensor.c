/* banks_tensor: how sm_90 serves ldmatrix, stmatrix, shared atomics and cp.async (see
 * banks_tensor.h). Every rule here was derived from, and reproduces every row of, the calibration
 * table tests/data/h200_tensor.tsv:
 * [H200m] tests/gpu/calib_tensor.cu on an NVIDIA H200 (sm_90, CUDA 13.0, driver 580): one warp
 *   issuing the instruction once under the CUPTI range profiler (per-op wavefront and bank-conflict
 *   counters), and throughput cycles per warp-instruction per SM with every SM full of warps.
 * The other profiles get the same rules with their bank count and width; only sm_90 is measured.
 * Which rule, how many passes and which widths come from the kinds table (kinds.c); kinds the
 * architecture lacks never reach here (scenario_finish and the trace reader refuse them). */
#include "banks_tensor.h"

#include <string.h>

#include "kinds.h"

const char *banks_op_name(banks_op op)
{
    const kinds_row *k = kinds_of(op);
    return k ? k->name : "?";
}

bool banks_op_parse(const char *name, banks_op *op)
{
    const kinds_row *k = kinds_find_op(name, NULL); /* cp.async.cg: "cp.async" with "cache": "cg" */
    if (!k)
        return false;
    *op = (banks_op)k->op;
    return true;
}

const char *banks_atomic_name(banks_atomic a)
{
    const kinds_atomic_row *k = kinds_atomic(a);
    return k ? k->name : "?";
}

bool banks_atomic_parse(const char *name, banks_atomic *a)
{
    return kinds_atomic_parse(name, a);
}

bool banks_tensor_op(banks_op op)
{
    const kinds_row *k = kinds_of(op);
    return !k || k->rule != KINDS_RULE_WORDS;
}

int banks_request_align(const banks_request *req)
{
    return req->width;
}

const char *banks_request_problem(const banks_request *req)
{
    const kinds_row *k = kinds_of(req->op);
    if (!k)
        return "unknown op";
    const kinds_atomic_row *at = NULL;
    if (kinds_takes_key(k, "matrices") && req->matrices != 1 && req->matrices != 2 && req->matrices != 4)
        return "matrices must be 1, 2 or 4";
    if (kinds_takes_key(k, "atomic")) {
        if (!(at = kinds_atomic(req->atomic)))
            return "unknown atomic operation";
        if (!req->returns && at->returns_only)
            return "exch and cas return the old value (there is no red.exch or red.cas)";
    }
    if (!kinds_width_ok(k, req->width))
        return k->width_text;
    if (at && !(at->widths & KINDS_W(req->width)))
        return at->width_text;
    return NULL;
}

/* Put lane into the grid cell (row, bank) serving bank word bw. */
static void cell_put(banks_cell *cells, const banks_profile *p, int row, int64_t bw, int lane)
{
    if (!cells || row >= BANKS_MAX_ROWS)
        return;
    banks_cell *c = &cells[row * p->banks + (int)(bw % p->banks)];
    c->lanes |= 1u << lane;
    c->word = bw;
}

/* Lanes of phase g (per_phase lanes from lane g * per_phase) that take part. */
static uint32_t phase_lanes(const banks_request *req, int g, int per_phase)
{
    uint32_t m = (per_phase == 32 ? 0xffffffffu : ((1u << per_phase) - 1u)) << (g * per_phase);
    return m & req->active;
}

/* [H200m] ldmatrix/stmatrix: each matrix (8 lanes, 8 rows of 16 bytes) is one phase; within it a
 * bank serves one distinct 4-byte word per wavefront and lanes that give the same row share it
 * (broadcast). .trans changes nothing. 2920 rows: counters equal, cycles = wavefronts (within
 * 0.7 %). Returns the phase's wavefronts. */
static int phase_matrix(const banks_profile *p, const banks_request *req, uint32_t lanes, banks_phase *ph,
                        banks_result *out, banks_cell *cells)
{
    int64_t words[BANKS_MAX_BANKS][BANKS_WARP];
    int count[BANKS_MAX_BANKS] = {0}, degree = 0;
    for (int l = 0; l < BANKS_WARP; l++) {
        if (!(lanes & (1u << l)))
            continue;
        int64_t first = req->addr[l] / p->bank_bytes, last = (req->addr[l] + req->width - 1) / p->bank_bytes;
        for (int64_t bw = first; bw <= last; bw++) {
            int b = (int)(bw % p->banks), rank = 0;
            while (rank < count[b] && words[b][rank] != bw)
                rank++;
            bool seen = rank < count[b];
            if (!seen)
                words[b][count[b]++] = bw;
            if (rank + 1 > degree)
                degree = rank + 1;
            cell_put(cells, p, ph->first_row + rank, bw, l);
            if (bw == first) {
                out->lane[l].phase = (int8_t)(ph - out->phase);
                out->lane[l].wavefront = (int16_t)(ph->first_row + rank);
                out->lane[l].broadcast = seen;
            }
        }
    }
    return degree;
}

/* [H200m] atomics and cp.async: lanes never share a wavefront, not even on one address: each
 * bank serves one lane per wavefront, so a phase takes as many wavefronts as the most lanes that
 * touch one bank (a 256-bin histogram with 5 lanes on one bin: 5). Atomics: 544 rows of the
 * 4-byte kinds and 68 of 8-byte exch/cas; cp.async: 240 rows (LDGSTS, the SASS counters).
 * passes > 1 (cas) repeats the rows in the grid. Returns the lanes of the busiest bank. */
static int phase_lanes_per_bank(const banks_profile *p, const banks_request *req, uint32_t lanes, int passes,
                                banks_phase *ph, banks_result *out, banks_cell *cells)
{
    int count[BANKS_MAX_BANKS] = {0}, most = 0;
    for (int l = 0; l < BANKS_WARP; l++) {
        if (!(lanes & (1u << l)))
            continue;
        int64_t first = req->addr[l] / p->bank_bytes, last = (req->addr[l] + req->width - 1) / p->bank_bytes;
        for (int64_t bw = first; bw <= last; bw++) {
            int b = (int)(bw % p->banks), rank = count[b]++;
            if (count[b] > most)
                most = count[b];
            if (bw == first) {
                out->lane[l].phase = (int8_t)(ph - out->phase);
                out->lane[l].wavefront = (int16_t)(ph->first_row + rank);
                out->lane[l].broadcast = false;
            }
        }
    }
    /* the grid: a lane's words in the rows of its rank, once per pass */
    int rank_of[BANKS_MAX_BANKS] = {0};
    for (int l = 0; l < BANKS_WARP && cells; l++) {
        if (!(lanes & (1u << l)))
            continue;
        int64_t first = req->addr[l] / p->bank_bytes, last = (req->addr[l] + req->width - 1) / p->bank_bytes;
        for (int64_t bw = first; bw <= last; bw++) {
            int b = (int)(bw % p->banks), rank = rank_of[b]++;
            for (int k = 0; k < passes; k++)
                cell_put(cells, p, ph->first_row + k * most + rank, bw, l);
        }
    }
    return most;
}

void banks_tensor_analyze(const banks_profile *p, const banks_request *req, banks_result *out, banks_cell *cells)
{
    memset(out, 0, sizeof *out);
    for (int l = 0; l < BANKS_WARP; l++) {
        out->lane[l].phase = -1;
        out->lane[l].wavefront = -1;
    }
    const kinds_row *k = kinds_of(req->op);
    if (!k || k->rule == KINDS_RULE_NOT_MODELLED) {
        out->not_modelled = true;
        out->active_lanes = __builtin_popcount(req->active);
        return;
    }
    bool matrix = k->rule == KINDS_RULE_MATRIX;
    int per_phase, nphases, passes = 1;
    if (matrix) {
        per_phase = 8; /* one matrix */
        nphases = req->matrices;
    } else {
        per_phase = p->wavefront_bytes / req->width; /* 4 B: the warp, 8 B: half-warps, 16 B: quarters */
        if (per_phase > BANKS_WARP)
            per_phase = BANKS_WARP;
        nphases = BANKS_WARP / per_phase;
        /* [H200m] cas: two passes (ATOMS.CAS: 2 x the lanes of the busiest bank in wavefronts),
         * of which the bank-conflict counter counts the conflicts once */
        if (kinds_takes_key(k, "atomic"))
            passes = kinds_atomic(req->atomic)->passes;
    }
    int row = 0;
    for (int g = 0; g < nphases; g++) {
        banks_phase *ph = &out->phase[out->nphases++];
        ph->lanes = (per_phase == 32 ? 0xffffffffu : ((1u << per_phase) - 1u)) << (g * per_phase);
        ph->first_row = row;
        uint32_t lanes = phase_lanes(req, g, per_phase);
        int n = matrix ? phase_matrix(p, req, lanes, ph, out, cells)
                       : phase_lanes_per_bank(p, req, lanes, passes, ph, out, cells);
        ph->degree = n;
        ph->wavefronts = n * passes;
        row += n * passes;
        if (n > 0)
            out->bank_conflicts += n - 1;
        if (n > out->conflict_degree)
            out->conflict_degree = n;
    }
    out->wavefronts = row;
    out->ideal_wavefronts = out->wavefronts - out->bank_conflicts;
    for (int l = 0; l < BANKS_WARP; l++) {
        if (out->lane[l].phase < 0)
            continue;
        out->active_lanes++;
        if (out->lane[l].broadcast)
            out->broadcast_lanes++;
    }
}

double banks_tensor_cycles(const banks_profile *p, const banks_request *req, const banks_result *r)
{
    (void)p;
    const kinds_row *k = kinds_of(req->op);
    if (r->active_lanes == 0 || !k || k->rule == KINDS_RULE_NOT_MODELLED)
        return 0;
    /* [H200m] 8-byte atomics take a cycle per phase, the empty one included (exch, one lane: 1
     * wavefront, 2.00 cycles), cas two (one lane: 4.00); otherwise cycles = wavefronts (every
     * ldmatrix, stmatrix and atomic row within 0.7 %). cp.async: the shared side only; the
     * measured cycles also wait for the global load (up to 10 cycles more in the table). */
    if (k->phase_floor & KINDS_W(req->width)) {
        int floor = r->nphases * (kinds_takes_key(k, "atomic") ? kinds_atomic(req->atomic)->passes : 1);
        return r->wavefronts > floor ? r->wavefronts : floor;
    }
    return r->wavefronts;
}
