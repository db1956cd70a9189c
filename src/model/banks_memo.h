/* banks_memo: answers identical warp-requests from a table owned by the caller, so that work
 * that repeats (a loop whose variable no index uses, the same access of many warps) runs the
 * bank rule once per distinct request. The key is everything banks_analyze reads: the
 * architecture and the whole request (kind, width, active mask, the 32 addresses); a hit copies
 * the result stored for an equal key, so answers are exactly banks_analyze's. Where almost nothing
 * repeats, looking up and storing each request costs more than the bank rule: after a window of
 * lookups with fewer than one hit in BANKS_MEMO_RARE, the next requests go straight to
 * banks_analyze for seven windows, then the table is tried again. */
#ifndef BANKSCOPE_MODEL_BANKS_MEMO_H
#define BANKSCOPE_MODEL_BANKS_MEMO_H

#include <stdbool.h>
#include <stdint.h>

#include "model/banks.h"

#define BANKS_MEMO_WINDOW 8192 /* lookups that decide whether the table pays */
#define BANKS_MEMO_RARE 32     /* fewer hits than 1 in this many: bypass it */

typedef struct banks_memo_entry {
    const banks_profile *arch; /* NULL: empty slot */
    banks_request req;
    banks_result res;
} banks_memo_entry;

typedef struct banks_memo {
    banks_memo_entry *slot; /* owned; direct-mapped: a new request replaces the one in its slot */
    uint64_t *key;          /* owned: the hash of each slot's request */
    uint32_t mask;          /* slots - 1 */
    int64_t hits, misses;
    /* requests that rarely repeat (a random trace) skip the table for a while: counts of the
     * current window of lookups, and how many requests are still to bypass it */
    int32_t window, window_hits, bypass;
} banks_memo;

/* A table of 2^log2_slots entries (1..16); the memory is taken on first use. */
void banks_memo_init(banks_memo *m, int log2_slots);
void banks_memo_free(banks_memo *m);
/* banks_analyze(p, req, out, NULL), from the table when an equal request was answered before. */
void banks_memo_analyze(banks_memo *m, const banks_profile *p, const banks_request *req, banks_result *out);
/* Whether a and b are the same request (every field banks_analyze reads). */
bool banks_request_equal(const banks_request *a, const banks_request *b);

#endif
