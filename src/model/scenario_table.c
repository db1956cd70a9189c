/* scenario_table: a trace's instructions and their source map as one immutable block shared by
 * every copy of the scenario (clones, the undo history, background jobs), so that copying a trace
 * of any length costs the same as copying a scenario: the description is copied, the table is
 * not. The reference count is atomic because a job thread frees its copy while the TUI edits
 * its own. */
#include <stdlib.h>
#include <string.h>

#include "model/kinds.h"
#include "model/scenario.h"

#define TABLE_MAX_KINDS 64 /* distinct (op, width) pairs remembered; more: every entry is checked */

typedef struct table_kind {
    banks_op op;
    int width, first;
} table_kind;

/* A source map: one location per instruction, shared by the tables of the same instructions at
 * other addresses (a what-if moves addresses, never where they come from). */
typedef struct table_map {
    atomic_int refs;
    int n;
    scenario_srcloc *at; /* owned */
} table_map;

struct scenario_table {
    atomic_int refs;
    int n;
    banks_request *req; /* owned */
    table_map *map;     /* a reference held; NULL: no source map */
    /* the distinct (op, width) pairs and the first entry of each, in entry order; -1: too many */
    int nkinds;
    table_kind kinds[TABLE_MAX_KINDS];
};

/* A new table of n requests (taken over) with the source map map (one more reference taken;
 * NULL: none), one reference held by the caller. */
static scenario_table *table_new(banks_request *req, table_map *map, int n)
{
    scenario_table *t = xcalloc(1, sizeof *t);
    atomic_init(&t->refs, 1);
    t->n = n;
    t->req = req;
    t->map = map;
    if (map)
        atomic_fetch_add(&map->refs, 1);
    for (int i = 0; i < n && t->nkinds >= 0; i++) {
        int k = 0;
        while (k < t->nkinds && (t->kinds[k].op != req[i].op || t->kinds[k].width != req[i].width))
            k++;
        if (k < t->nkinds)
            continue;
        if (t->nkinds == TABLE_MAX_KINDS) {
            t->nkinds = -1;
            break;
        }
        t->kinds[t->nkinds++] = (table_kind){.op = req[i].op, .width = req[i].width, .first = i};
    }
    return t;
}

/* Free n locations and the array that holds them. */
static void locations_free(scenario_srcloc *at, int n)
{
    if (!at)
        return;
    for (int i = 0; i < n; i++)
        scenario_srcloc_free(&at[i]);
    free(at);
}

static void map_release(table_map *m)
{
    if (!m || atomic_fetch_sub(&m->refs, 1) != 1)
        return;
    locations_free(m->at, m->n);
    free(m);
}

static void table_release(scenario_table *t)
{
    if (!t || atomic_fetch_sub(&t->refs, 1) != 1)
        return;
    map_release(t->map);
    free(t->req);
    free(t);
}

/* Point s's trace fields at its table. */
static void table_show(scenario *s)
{
    s->trace = s->table->req;
    s->trace_at = s->table->map ? s->table->map->at : NULL;
    s->ntrace = s->table->n;
}

void scenario_table_seal(scenario *s)
{
    if (!s->is_trace || s->table || !s->trace)
        return;
    table_map *map = NULL;
    if (s->trace_at) {
        map = xcalloc(1, sizeof *map);
        atomic_init(&map->refs, 1);
        map->n = s->ntrace;
        map->at = s->trace_at;
    }
    s->table = table_new(s->trace, map, s->ntrace);
    map_release(map); /* the table holds it now */
    table_show(s);
}

void scenario_table_share(const scenario *src, scenario *dst)
{
    scenario_table_drop(dst);
    if (src->table) {
        atomic_fetch_add(&src->table->refs, 1);
        dst->table = src->table;
        table_show(dst);
        return;
    }
    if (!src->trace) /* not a trace, or one not built yet */
        return;
    /* a trace never finished (so never sealed): a copy of its own */
    dst->ntrace = src->ntrace;
    dst->trace = xmalloc(sizeof *dst->trace * (size_t)(src->ntrace ? src->ntrace : 1));
    memcpy(dst->trace, src->trace, sizeof *dst->trace * (size_t)src->ntrace);
    if (src->trace_at) {
        dst->trace_at = xcalloc((size_t)(src->ntrace ? src->ntrace : 1), sizeof *dst->trace_at);
        for (int i = 0; i < src->ntrace; i++)
            scenario_srcloc_copy(&src->trace_at[i], &dst->trace_at[i]);
    }
}

void scenario_table_drop(scenario *s)
{
    if (s->table) {
        table_release(s->table);
    } else { /* built but never sealed (a reader that stopped half-way) */
        locations_free(s->trace_at, s->ntrace);
        free(s->trace);
    }
    s->table = NULL;
    s->trace = NULL;
    s->trace_at = NULL;
    s->ntrace = 0;
}

void scenario_table_set_requests(scenario *s, banks_request *req)
{
    scenario_table_seal(s);
    scenario_table *old = s->table;
    if (!old) { /* not a trace: nothing to replace */
        free(req);
        return;
    }
    s->table = table_new(req, old->map, old->n);
    table_release(old);
    table_show(s);
}

bool scenario_table_same(const scenario *a, const scenario *b)
{
    return a->table && a->table == b->table;
}

int scenario_table_arch_problem(const scenario *s, char *why, size_t n)
{
    const scenario_table *t = s->table;
    if (!t || t->nkinds < 0) {
        for (int i = 0; i < s->ntrace; i++)
            if (kinds_arch_problem(kinds_of(s->trace[i].op), s->trace[i].width, s->arch, why, n))
                return i;
        return -1;
    }
    for (int k = 0; k < t->nkinds; k++) /* in order of first appearance: the first entry that fails */
        if (kinds_arch_problem(kinds_of(t->kinds[k].op), t->kinds[k].width, s->arch, why, n))
            return t->kinds[k].first;
    return -1;
}
