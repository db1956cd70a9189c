/* scenario_reference: the first scenario_instr_build (a lane record at a time), kept as the
 * reference the vector builder of scenario.c is compared with (tests/unit/test_build.c). */
#include "scenario_reference.h"

/* Evaluate expression x for the lanes in *pending, all at once (expr_eval_lanes): lanes where
 * it fails leave *pending as expression errors (bad_dim = dim); the values go to val[lane]. */
static void eval_lanes(const expr *x, expr_env *env, const expr_lanes *lv, scenario_instr *out, uint32_t *pending,
                       int dim, int64_t *val)
{
    expr_prepare(x, env);
    expr_status st[BANKS_WARP];
    int pos[BANKS_WARP];
    uint32_t failed = expr_eval_lanes(x, env, lv, *pending, val, st, pos);
    for (uint32_t m = failed; m; m &= m - 1) {
        int ln = __builtin_ctz(m);
        scenario_lane *l = &out->lane[ln];
        l->state = SCENARIO_LANE_EVAL_ERROR;
        l->eval = st[ln];
        l->eval_pos = pos[ln];
        l->bad_dim = dim;
    }
    *pending &= ~failed;
}

/* The builder as it was written first, one lane at a time. */
void scenario_reference_build(const scenario *s, int access, int iteration, int warp, scenario_instr *out)
{
    /* every field is written below (no clearing of the whole instruction) */
    out->seq = 0;
    out->access = access;
    out->iteration = iteration;
    out->warp = warp;
    out->loop_value = s->loop_values[iteration];
    const scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    out->req.op = a->op;
    out->req.width = a->width;
    out->req.active = 0;
    scenario_tensor_request(a, &out->req);
    expr_env env;
    env.v[EXPR_BDX] = s->block[0];
    env.v[EXPR_BDY] = s->block[1];
    env.v[EXPR_BDZ] = s->block[2];
    for (int k = 0; k < SCENARIO_MAX_LOOPS; k++)
        env.v[EXPR_LOOP + k] = k < s->nloops ? scenario_loop_value(s, k, iteration) : 0;
    env.v[EXPR_WARP] = warp;
    int threads = scenario_threads(s);
    uint32_t pending = 0; /* lanes still taking part */
    expr_lanes lv;
    int tid = warp * BANKS_WARP;
    int tx = tid % s->block[0], ty = (tid / s->block[0]) % s->block[1], tz = tid / (s->block[0] * s->block[1]);
    for (int ln = 0; ln < BANKS_WARP; ln++, tid++) {
        scenario_lane *l = &out->lane[ln];
        l->tid = tid;
        l->tx = l->ty = l->tz = 0;
        l->index[0] = l->index[1] = l->index[2] = 0;
        l->address = 0;
        l->bad_dim = -1;
        l->eval = EXPR_OK;
        l->eval_pos = 0;
        out->req.addr[ln] = 0;
        if (tid >= threads) {
            l->state = SCENARIO_LANE_NO_THREAD;
            for (int k = 0; k < 5; k++) /* in range, as expr_eval_lanes requires; never used */
                lv.v[k][ln] = 0;
            continue;
        }
        l->tx = tx;
        l->ty = ty;
        l->tz = tz;
        lv.v[0][ln] = tx;
        lv.v[1][ln] = ty;
        lv.v[2][ln] = tz;
        lv.v[3][ln] = tid;
        lv.v[4][ln] = ln;
        pending |= 1u << ln;
        if (++tx == s->block[0]) { /* tid advances one thread: x fastest, as CUDA numbers them */
            tx = 0;
            if (++ty == s->block[1]) {
                ty = 0;
                tz++;
            }
        }
    }
    int64_t val[BANKS_WARP], elem[BANKS_WARP] = {0};
    if (a->when_text) {
        eval_lanes(&a->when, &env, &lv, out, &pending, -1, val);
        for (uint32_t m = pending; m; m &= m - 1) {
            int ln = __builtin_ctz(m);
            if (!val[ln]) {
                out->lane[ln].state = SCENARIO_LANE_MASKED;
                pending &= ~(1u << ln);
            }
        }
    }
    for (int d = 0; d < a->nidx; d++) {
        eval_lanes(&a->index[d], &env, &lv, out, &pending, d, val);
        for (uint32_t m = pending; m; m &= m - 1) {
            int ln = __builtin_ctz(m);
            scenario_lane *l = &out->lane[ln];
            l->index[d] = val[ln];
            if (val[ln] < 0 || val[ln] >= arr->extent[d]) {
                l->state = SCENARIO_LANE_OOB;
                l->bad_dim = d;
                pending &= ~(1u << ln);
            } else
                elem[ln] = elem[ln] * arr->extent[d] + val[ln];
        }
    }
    uint32_t active = 0;
    for (uint32_t m = pending; m; m &= m - 1) {
        int ln = __builtin_ctz(m);
        scenario_lane *l = &out->lane[ln];
        int64_t at = elem[ln] * arr->elem_size + a->offset; /* bytes into the array */
        int64_t to = scenario_swizzle_offset(arr, at);      /* where that byte is stored */
        /* a vector wider than the element reads past the end (before or after the swizzle) */
        if (at + a->width > arr->bytes || to + a->width > arr->bytes) {
            l->state = SCENARIO_LANE_OOB;
            l->bad_dim = a->nidx - 1;
            continue;
        }
        l->address = arr->start + to;
        if ((l->address & (a->align - 1)) != 0) { /* alignments are powers of two */
            l->state = SCENARIO_LANE_MISALIGNED;
            continue;
        }
        l->state = SCENARIO_LANE_OK;
        active |= 1u << ln;
        out->req.addr[ln] = l->address;
    }
    out->req.active = active;
    scenario_tensor_lanes(out);
}
