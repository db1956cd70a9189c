/* banks_memo: identical warp-requests answered once (see banks_memo.h). */
#include "banks_memo.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void banks_memo_init(banks_memo *m, int log2_slots)
{
    if (log2_slots < 1)
        log2_slots = 1;
    if (log2_slots > 16)
        log2_slots = 16;
    *m = (banks_memo){.slot = NULL, .mask = (1u << log2_slots) - 1};
}

void banks_memo_free(banks_memo *m)
{
    free(m->slot);
    free(m->key);
    m->slot = NULL;
    m->key = NULL;
}

bool banks_request_equal(const banks_request *a, const banks_request *b)
{
    if (a->op != b->op || a->width != b->width || a->matrices != b->matrices || a->trans != b->trans ||
        a->atomic != b->atomic || a->returns != b->returns || a->active != b->active)
        return false;
    return memcmp(a->addr, b->addr, sizeof a->addr) == 0;
}

/* A 64-bit mix of the request: each address multiplied by its own odd constant (independent
 * multiplies, no chain through the lanes), summed, then the head mixed in; equal requests hash
 * equally. */
static uint64_t request_hash(const banks_profile *p, const banks_request *r)
{
    uint64_t sum[4] = {0, 0, 0, 0};
    for (int l = 0; l < BANKS_WARP; l += 4)
        for (int k = 0; k < 4; k++)
            sum[k] += ((uint64_t)r->addr[l + k] ^ (uint64_t)(l + k) << 56) * (0x9E3779B97F4A7C15ull + 2u * (uint64_t)l);
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
    uint64_t head = (uint64_t)r->op | (uint64_t)r->width << 8 | (uint64_t)r->matrices << 16 | (uint64_t)r->trans << 24 |
                    (uint64_t)r->atomic << 32 | (uint64_t)r->returns << 40;
    h = (h ^ head) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ r->active) * 0x94D049BB133111EBull;
    h = (h ^ sum[0]) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ sum[1] ^ (sum[2] << 17 | sum[2] >> 47) ^ (sum[3] << 39 | sum[3] >> 25)) * 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

/* *out = *r without the phase entries past r->nphases, which banks_analyze leaves unspecified
 * (a whole copy is three times longer than what a request of 4 phases uses). */
static void result_copy(banks_result *out, const banks_result *r)
{
    memcpy(out, r, offsetof(banks_result, phase));
    for (int i = 0; i < r->nphases; i++)
        out->phase[i] = r->phase[i];
    memcpy(out->lane, r->lane, sizeof out->lane);
}

void banks_memo_analyze(banks_memo *m, const banks_profile *p, const banks_request *req, banks_result *out)
{
    if (m->bypass > 0) { /* few requests repeated lately */
        m->bypass--;
        banks_analyze(p, req, out, NULL);
        return;
    }
    if (++m->window == BANKS_MEMO_WINDOW) { /* a window ends: keep the table if it paid */
        if (m->window_hits < BANKS_MEMO_WINDOW / BANKS_MEMO_RARE)
            m->bypass = 7 * BANKS_MEMO_WINDOW;
        m->window = m->window_hits = 0;
    }
    if (!m->slot) {
        m->slot = calloc((size_t)m->mask + 1, sizeof *m->slot);
        m->key = calloc((size_t)m->mask + 1, sizeof *m->key);
        if (!m->slot || !m->key) { /* no table: every request analysed */
            banks_memo_free(m);
            banks_analyze(p, req, out, NULL);
            return;
        }
    }
    const uint64_t h = request_hash(p, req);
    const uint32_t i = (uint32_t)h & m->mask;
    banks_memo_entry *e = &m->slot[i];
    /* the hashes first (a small array that stays in the cache), the entry only when they agree */
    if (m->key[i] == h && e->arch == p && banks_request_equal(&e->req, req)) {
        m->hits++;
        m->window_hits++;
        result_copy(out, &e->res);
        return;
    }
    m->misses++;
    banks_analyze(p, req, out, NULL);
    m->key[i] = h;
    e->arch = p;
    e->req = *req;
    e->res = *out;
}
