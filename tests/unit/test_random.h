/* test_random: what the unit tests that compare two ways of doing the same work share: a
 * repeatable random generator, a bounded builder for the JSON text of random scenarios, every
 * library pattern on every architecture, and field-by-field equality of instructions and
 * results. Include after <cmocka.h>. */
#ifndef BANKSCOPE_TEST_RANDOM_H
#define BANKSCOPE_TEST_RANDOM_H

#include <stdarg.h>
#include <stdio.h>

#include "io/library.h"
#include "io/load.h"
#include "model/banks.h"
#include "model/banks_memo.h"
#include "model/scenario.h"

/* A linear congruential generator: the same seed gives the same scenarios on every machine. */
typedef struct test_rng {
    unsigned state;
} test_rng;

/* A number in [0, n). */
static inline unsigned test_rnd(test_rng *g, unsigned n)
{
    g->state = g->state * 1103515245u + 12345u;
    return (g->state >> 16) % n;
}

/* Append formatted text at *k in buf (n bytes); text past the end is cut, never overrun. */
__attribute__((format(printf, 4, 5))) static inline void test_json_addf(char *buf, size_t n, size_t *k, const char *fmt,
                                                                        ...)
{
    if (*k >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + *k, n - *k, fmt, ap);
    va_end(ap);
    if (m > 0)
        *k += (size_t)m;
}

/* Call fn with every library pattern loaded on every architecture (lessons are not scenarios
 * and are passed over); s is freed after the call. Returns the scenarios passed. */
static inline int test_each_library_scenario(void (*fn)(const scenario *s, void *ctx), void *ctx)
{
    int n, np, scenarios = 0;
    const library_entry *lib = library_patterns(&n);
    const banks_profile *profiles = banks_profiles(&np);
    for (int i = 0; i < n; i++) {
        if (!lib[i].text)
            continue;
        for (int k = 0; k < np; k++) {
            scenario s;
            io_error err;
            if (!load_scenario_text(lib[i].text, lib[i].len, lib[i].name, profiles[k].name, &s, &err))
                continue;
            fn(&s, ctx);
            scenario_free(&s);
            scenarios++;
        }
    }
    return scenarios;
}

/* Every field scenario_instr_build writes (padding left out). */
static inline void test_instr_equal(const scenario_instr *a, const scenario_instr *b)
{
    assert_int_equal(a->seq, b->seq);
    assert_int_equal(a->access, b->access);
    assert_int_equal(a->iteration, b->iteration);
    assert_int_equal(a->loop_value, b->loop_value);
    assert_int_equal(a->warp, b->warp);
    assert_true(banks_request_equal(&a->req, &b->req));
    for (int l = 0; l < BANKS_WARP; l++) {
        const scenario_lane *x = &a->lane[l], *y = &b->lane[l];
        assert_int_equal(x->state, y->state);
        assert_int_equal(x->tid, y->tid);
        assert_int_equal(x->tx, y->tx);
        assert_int_equal(x->ty, y->ty);
        assert_int_equal(x->tz, y->tz);
        for (int d = 0; d < SCENARIO_MAX_DIMS; d++)
            assert_int_equal(x->index[d], y->index[d]);
        assert_int_equal(x->address, y->address);
        assert_int_equal(x->bad_dim, y->bad_dim);
        assert_int_equal(x->eval, y->eval);
        assert_int_equal(x->eval_pos, y->eval_pos);
    }
}

/* Every field of a result that banks_analyze writes. */
static inline void test_result_equal(const banks_result *a, const banks_result *b)
{
    assert_int_equal(a->wavefronts, b->wavefronts);
    assert_int_equal(a->ideal_wavefronts, b->ideal_wavefronts);
    assert_int_equal(a->bank_conflicts, b->bank_conflicts);
    assert_int_equal(a->conflict_degree, b->conflict_degree);
    assert_int_equal(a->active_lanes, b->active_lanes);
    assert_int_equal(a->broadcast_lanes, b->broadcast_lanes);
    assert_int_equal(a->paired, b->paired);
    assert_int_equal(a->not_modelled, b->not_modelled);
    assert_int_equal(a->nphases, b->nphases);
    for (int p = 0; p < a->nphases; p++) {
        assert_int_equal(a->phase[p].lanes, b->phase[p].lanes);
        assert_int_equal(a->phase[p].sub, b->phase[p].sub);
        assert_int_equal(a->phase[p].first_row, b->phase[p].first_row);
        assert_int_equal(a->phase[p].wavefronts, b->phase[p].wavefronts);
        assert_int_equal(a->phase[p].degree, b->phase[p].degree);
    }
    for (int l = 0; l < BANKS_WARP; l++) {
        assert_int_equal(a->lane[l].phase, b->lane[l].phase);
        assert_int_equal(a->lane[l].broadcast, b->lane[l].broadcast);
        assert_int_equal(a->lane[l].wavefront, b->lane[l].wavefront);
    }
}

#endif
