/* scenario: a scenario's lifetime, its loops and warps, and its expansion into warp-instructions
 * (validation and layout: scenario_finish.c). */
#include "scenario.h"

#include "kinds.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scenario_init(scenario *s)
{
    memset(s, 0, sizeof *s);
    s->arch = banks_profile_default();
    s->block[0] = 32;
    s->block[1] = s->block[2] = 1;
}

/* Free what access a owns. */
static void access_free(scenario_access *a)
{
    for (int d = 0; d < a->nidx; d++) {
        free(a->index_text[d]);
        expr_free(&a->index[d]);
    }
    free(a->when_text);
    expr_free(&a->when);
    free(a->array_name);
    free(a->field);
    free(a->vector);
    free(a->label);
    free(a->source);
    scenario_srcloc_free(&a->at);
    free(a->type_text);
}

void scenario_access_remove(scenario *s, int i)
{
    access_free(&s->accesses[i]);
    memmove(&s->accesses[i], &s->accesses[i + 1], (size_t)(s->naccesses - i - 1) * sizeof *s->accesses);
    s->naccesses--;
}

void scenario_free(scenario *s)
{
    free(s->name);
    free(s->description);
    types_registry_free(&s->types);
    for (int i = 0; i < s->narrays; i++) {
        free(s->arrays[i].name);
        free(s->arrays[i].type_name);
        free(s->arrays[i].swizzle);
    }
    free(s->arrays);
    for (int i = 0; i < s->naccesses; i++)
        access_free(&s->accesses[i]);
    free(s->accesses);
    for (int k = 0; k < SCENARIO_MAX_LOOPS; k++) {
        free(s->loops[k].var);
        free(s->loops[k].values);
    }
    free(s->iter_first);
    free(s->warps);
    scenario_table_drop(s);
    free(s->whatif);
    memset(s, 0, sizeof *s);
}

void scenario_srcloc_free(scenario_srcloc *l)
{
    free(l->file);
    free(l->text);
    free(l->sass);
    memset(l, 0, sizeof *l);
}

void scenario_srcloc_copy(const scenario_srcloc *src, scenario_srcloc *dst)
{
    dst->file = src->file ? xstrdup(src->file) : NULL;
    dst->text = src->text ? xstrdup(src->text) : NULL;
    dst->sass = src->sass ? xstrdup(src->sass) : NULL;
    dst->warp = src->warp;
    dst->pc = src->pc;
    dst->line = src->line;
    dst->column = src->column;
}

bool scenario_srcloc_known(const scenario_srcloc *l)
{
    return l->file || l->text || l->line > 0 || l->column > 0;
}

void scenario_srcloc_set(scenario_srcloc *l, const char *file, int line, int column, const char *text)
{
    scenario_srcloc n = {NULL, line > 0 ? line : 0, column > 0 ? column : 0, NULL, NULL, -1, -1};
    n.file = file ? xstrdup(file) : NULL;
    n.text = text ? xstrdup(text) : NULL;
    scenario_srcloc_free(l);
    *l = n;
}

int scenario_threads(const scenario *s)
{
    return s->block[0] * s->block[1] * s->block[2];
}

int scenario_access_count(const scenario *s)
{
    return s->is_trace ? s->ntrace : s->naccesses;
}

int scenario_warp_count(const scenario *s)
{
    return s->is_trace ? 1 : (scenario_threads(s) + BANKS_WARP - 1) / BANKS_WARP;
}

int scenario_selected_warps(const scenario *s)
{
    return s->warps ? s->nwarps : scenario_warp_count(s);
}

int scenario_selected_warp(const scenario *s, int k)
{
    return s->warps ? s->warps[k] : k;
}

int64_t scenario_instr_count(const scenario *s)
{
    if (s->is_trace)
        return s->ntrace;
    int64_t pairs = s->iter_first ? s->iter_first[s->iterations] : (int64_t)s->iterations * s->naccesses;
    return pairs * scenario_selected_warps(s);
}

int scenario_access_loop(const scenario *s, const scenario_access *a)
{
    return a->loop >= 0 && a->loop < s->nloops ? a->loop : -1;
}

bool scenario_loop_encloses(const scenario *s, int k, int inner)
{
    for (int p = inner; p >= 0 && p < s->nloops; p = s->loops[p].parent)
        if (p == k)
            return true;
    return false;
}

int64_t scenario_loop_value(const scenario *s, int k, int it)
{
    const scenario_loop *L = &s->loops[k];
    if (L->stride == 1 && it < L->count && L->values) /* the innermost loop: no division */
        return L->values[it];
    return L->values && L->count ? L->values[(it / L->stride) % L->count] : 0;
}

bool scenario_access_active(const scenario *s, int access, int it)
{
    const scenario_access *a = &s->accesses[access];
    /* a loop not around the access: its first iteration, or its last when the access follows it */
    for (unsigned m = a->outside; m; m &= m - 1) {
        const scenario_loop *L = &s->loops[__builtin_ctz(m)];
        if (L->count && (it / L->stride) % L->count != ((a->after >> __builtin_ctz(m)) & 1 ? L->count - 1 : 0))
            return false;
    }
    return true;
}

void scenario_iteration_text(const scenario *s, int access, int it, strbuf *out)
{
    const scenario_access *ac = scenario_access_of(s, access);
    int in = ac ? scenario_access_loop(s, ac) : -2;
    const char *sep = "";
    for (int k = 0; k < s->nloops; k++)
        if (in == -2 || scenario_loop_encloses(s, k, in)) {
            strbuf_addf(out, "%s%s = %lld", sep, s->loops[k].var, (long long)scenario_loop_value(s, k, it));
            sep = ", ";
        }
}

static void instr_env(const scenario *s, int iteration, int warp, expr_env *env);

/* The helpers of build are inlined into it, so that they are compiled for each of its targets. */
#define INLINE static inline __attribute__((always_inline))

/* One warp-instruction worked out a lane vector at a time (build): what every lane record is
 * made of, kept in arrays so that each step is one loop over the 32 lanes. */
typedef struct lane_work {
    uint32_t thread, masked, oob, misaligned, failed; /* lanes in each state (the rest: OK) */
    int64_t index[SCENARIO_MAX_DIMS][BANKS_WARP];     /* written up to the dimension a lane left at */
    int64_t address[BANKS_WARP];                      /* for lanes in bounds */
    expr_status eval[BANKS_WARP];                     /* failed lanes: the error and where */
    int eval_pos[BANKS_WARP], bad_dim[BANKS_WARP];
} lane_work;

/* Evaluate expression x for the lanes in *pending, all at once (expr_eval_lanes): lanes where
 * it fails leave *pending as expression errors (bad_dim = dim); the values go to val[lane] (0 for
 * the other lanes). */
INLINE void eval_lanes(const expr *x, expr_env *env, const expr_lanes *lv, lane_work *w, uint32_t *pending, int dim,
                       int64_t *val)
{
    expr_prepare(x, env);
    uint32_t failed = expr_eval_lanes(x, env, lv, *pending, val, w->eval, w->eval_pos);
    for (uint32_t m = failed; m; m &= m - 1)
        w->bad_dim[__builtin_ctz(m)] = dim;
    w->failed |= failed;
    *pending &= ~failed;
}

/* Lane masks of one test over the 32 lanes: loops without branches, which the compiler turns
 * into vector compares. */
INLINE uint32_t lanes_zero(const int64_t *v)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)(v[l] == 0) << l;
    return m;
}

/* Lanes whose v is outside 0 .. n - 1. */
INLINE uint32_t lanes_outside(const int64_t *v, int64_t n)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)((v[l] < 0) | (v[l] >= n)) << l;
    return m;
}

/* Lanes whose v is above hi. */
INLINE uint32_t lanes_above(const int64_t *v, int64_t hi)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)(v[l] > hi) << l;
    return m;
}

/* Lanes whose v has a bit of mask set. */
INLINE uint32_t lanes_any(const int64_t *v, int64_t mask)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        m |= (uint32_t)((v[l] & mask) != 0) << l;
    return m;
}

/* The per-lane variables of warp (threadIdx.x/y/z, tid, lane) into lv, 0 for lanes without a
 * thread; the lanes with a thread. x runs fastest, as CUDA numbers threads. */
INLINE uint32_t warp_lanes(const scenario *s, int warp, expr_lanes *lv)
{
    const int bx = s->block[0], by = s->block[1], tid0 = warp * BANKS_WARP;
    const int n = scenario_threads(s) - tid0;
    const uint32_t thread = n >= BANKS_WARP ? 0xffffffffu : n <= 0 ? 0 : (1u << n) - 1u;
    if (bx % BANKS_WARP == 0) { /* the usual block: a warp is one run of x */
        const int64_t tx = tid0 % bx, ty = (tid0 / bx) % by, tz = tid0 / (bx * by);
        for (int l = 0; l < BANKS_WARP; l++) {
            lv->v[0][l] = tx + l;
            lv->v[1][l] = ty;
            lv->v[2][l] = tz;
            lv->v[3][l] = tid0 + l;
            lv->v[4][l] = l;
        }
        return thread;
    }
    int tx = tid0 % bx, ty = (tid0 / bx) % by, tz = tid0 / (bx * by);
    for (int l = 0; l < BANKS_WARP; l++) {
        bool has = (thread >> l) & 1;
        lv->v[0][l] = has ? tx : 0;
        lv->v[1][l] = has ? ty : 0;
        lv->v[2][l] = has ? tz : 0;
        lv->v[3][l] = has ? tid0 + l : 0;
        lv->v[4][l] = has ? l : 0;
        if (++tx == bx) {
            tx = 0;
            if (++ty == by) {
                ty = 0;
                tz++;
            }
        }
    }
    return thread;
}

/* Every lane record of out from w: what each lane reached before it left (or 0). */
INLINE void fill_lanes(const scenario_access *a, int warp, const expr_lanes *lv, const lane_work *w,
                       scenario_instr *out)
{
    for (int l = 0; l < BANKS_WARP; l++) {
        scenario_lane *ln = &out->lane[l];
        uint32_t b = 1u << l;
        bool has = w->thread & b;
        ln->tid = warp * BANKS_WARP + l;
        ln->tx = has ? (int)lv->v[0][l] : 0;
        ln->ty = has ? (int)lv->v[1][l] : 0;
        ln->tz = has ? (int)lv->v[2][l] : 0;
        ln->bad_dim = -1;
        ln->eval = EXPR_OK;
        ln->eval_pos = 0;
        ln->address = 0;
        int reached = 0; /* index dimensions the lane evaluated */
        if (has && !(w->masked & b) && !(w->failed & b && w->bad_dim[l] < 0)) {
            if (w->failed & b) {
                reached = w->bad_dim[l];
                ln->bad_dim = w->bad_dim[l];
                ln->eval = w->eval[l];
                ln->eval_pos = w->eval_pos[l];
            } else if (w->oob & b) { /* its index d is outside (past the end: d = nidx - 1) */
                reached = w->bad_dim[l] + 1;
                ln->bad_dim = w->bad_dim[l];
            } else {
                reached = a->nidx;
                ln->address = w->address[l];
            }
        } else if (has && (w->failed & b)) { /* 'when' failed */
            ln->bad_dim = -1;
            ln->eval = w->eval[l];
            ln->eval_pos = w->eval_pos[l];
        }
        for (int d = 0; d < SCENARIO_MAX_DIMS; d++)
            ln->index[d] = d < reached ? w->index[d][l] : 0;
    }
}

/* Build the instruction of (access, iteration, warp) into out: the request always; every lane
 * record when full, else only each lane's state (what the bank rule and the totals read). The
 * lanes are worked out as vectors (lane_work), the records written once at the end. */
EXPR_CLONES static void build(const scenario *s, int access, int iteration, int warp, scenario_instr *out, bool full)
{
    out->seq = 0;
    out->access = access;
    out->iteration = iteration;
    out->warp = warp;
    out->loop_value = s->loop_values[iteration];
    const scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    out->req.op = a->op;
    out->req.width = a->width;
    scenario_tensor_request(a, &out->req);
    expr_env env;
    instr_env(s, iteration, warp, &env);
    expr_lanes lv;
    lane_work w;
    w.thread = warp_lanes(s, warp, &lv);
    w.masked = w.oob = w.misaligned = w.failed = 0;
    uint32_t pending = w.thread; /* lanes still taking part */
    int64_t val[BANKS_WARP];
    uint64_t elem[BANKS_WARP]; /* wrapping: only lanes in bounds are used */
    if (a->when_text) {
        eval_lanes(&a->when, &env, &lv, &w, &pending, -1, val);
        w.masked = lanes_zero(val) & pending;
        pending &= ~w.masked;
    }
    for (int d = 0; d < a->nidx; d++) {
        eval_lanes(&a->index[d], &env, &lv, &w, &pending, d, val);
        const int64_t ext = arr->extent[d];
        for (int l = 0; l < BANKS_WARP; l++) {
            w.index[d][l] = val[l];
            elem[l] = (d ? elem[l] * (uint64_t)ext : 0) + (uint64_t)val[l];
        }
        uint32_t out_of = lanes_outside(val, ext) & pending;
        for (uint32_t m = out_of; m; m &= m - 1)
            w.bad_dim[__builtin_ctz(m)] = d;
        w.oob |= out_of;
        pending &= ~out_of;
    }
    /* the byte each lane moves first: element, field, then the swizzle; a vector wider than the
     * element may reach past the end (before or after the swizzle) */
    const int64_t esize = arr->elem_size, off = a->offset, bytes = arr->bytes - a->width, start = arr->start;
    const int64_t amask = a->align - 1; /* alignments are powers of two */
    uint32_t past = 0;
    if (arr->swz_bits == 0) {
        for (int l = 0; l < BANKS_WARP; l++)
            w.address[l] = (int64_t)(elem[l] * (uint64_t)esize + (uint64_t)off);
        past = lanes_above(w.address, bytes) & pending;
    } else {
        for (uint32_t m = pending; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            int64_t at = (int64_t)(elem[l] * (uint64_t)esize + (uint64_t)off), to = scenario_swizzle_offset(arr, at);
            past |= (uint32_t)((at > bytes) | (to > bytes)) << l;
            w.address[l] = to;
        }
    }
    for (uint32_t m = past; m; m &= m - 1)
        w.bad_dim[__builtin_ctz(m)] = a->nidx - 1;
    w.oob |= past;
    pending &= ~past;
    for (int l = 0; l < BANKS_WARP; l++)
        w.address[l] = (int64_t)((uint64_t)w.address[l] + (uint64_t)start);
    w.misaligned = lanes_any(w.address, amask) & pending;
    uint32_t active = pending & ~w.misaligned;
    for (int l = 0; l < BANKS_WARP; l++)
        out->req.addr[l] = (active >> l) & 1 ? w.address[l] : 0;
    out->req.active = active;
    for (int l = 0; l < BANKS_WARP; l++) /* the masks are disjoint: one term at most is not 0 */
        out->lane[l].state = (scenario_lane_state)((((~w.thread >> l) & 1) * SCENARIO_LANE_NO_THREAD) |
                                                   (((w.masked >> l) & 1) * SCENARIO_LANE_MASKED) |
                                                   (((w.failed >> l) & 1) * SCENARIO_LANE_EVAL_ERROR) |
                                                   (((w.oob >> l) & 1) * SCENARIO_LANE_OOB) |
                                                   (((w.misaligned >> l) & 1) * SCENARIO_LANE_MISALIGNED));
    if (full)
        fill_lanes(a, warp, &lv, &w, out);
    scenario_tensor_lanes(out); /* ldmatrix/stmatrix: lanes past 8 x matrices give no row */
}

void scenario_instr_build(const scenario *s, int access, int iteration, int warp, scenario_instr *out)
{
    build(s, access, iteration, warp, out, true);
}

void scenario_instr_build_brief(const scenario *s, int access, int iteration, int warp, scenario_instr *out)
{
    build(s, access, iteration, warp, out, false);
}

void scenario_instr_at(const scenario *s, int64_t k, scenario_instr *out)
{
    if (s->is_trace) {
        memset(out, 0, sizeof *out);
        out->seq = k;
        out->access = -1;
        out->req = s->trace[k];
        for (int ln = 0; ln < BANKS_WARP; ln++) {
            scenario_lane *l = &out->lane[ln];
            l->tid = ln;
            l->tx = ln;
            l->bad_dim = -1;
            l->address = out->req.addr[ln];
            l->state = (out->req.active >> ln) & 1 ? SCENARIO_LANE_OK : SCENARIO_LANE_MASKED;
        }
        return;
    }
    int64_t nw = scenario_selected_warps(s);
    int it, access;
    scenario_instr_locate(s, k, &it, &access);
    scenario_instr_build(s, access, it, scenario_selected_warp(s, (int)(k % nw)), out);
    out->seq = k;
}

void scenario_instr_locate(const scenario *s, int64_t k, int *iteration, int *access)
{
    int64_t pair = k / scenario_selected_warps(s); /* the (iteration, access) pair, in order */
    if (s->iter_first[s->iterations] == (int64_t)s->iterations * s->naccesses) { /* every pair runs */
        *iteration = (int)(pair / s->naccesses);
        *access = (int)(pair % s->naccesses);
        return;
    }
    int lo = 0, hi = s->iterations - 1;
    while (lo < hi) { /* the last iteration whose first pair is at or before this one */
        int mid = (lo + hi + 1) / 2;
        if (s->iter_first[mid] <= pair)
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t j = pair - s->iter_first[lo];
    int a = 0;
    for (; a < s->naccesses - 1; a++)
        if (scenario_access_active(s, a, lo) && j-- == 0)
            break;
    *iteration = lo;
    *access = a;
}

bool scenario_access_may_fail(const scenario *s, int access)
{
    const scenario_access *a = &s->accesses[access];
    for (int d = 0; d < a->nidx; d++)
        if (!a->index[d].fast.ncode || a->index[d].fast.may_fail)
            return true;
    return a->when_text && (!a->when.fast.ncode || a->when.fast.may_fail);
}

/* The instruction depends on the iteration only through the loop variables its expressions read
 * (scenario_instr_build): without them, every iteration builds the same one. */
bool scenario_access_loop_invariant(const scenario *s, int access)
{
    const scenario_access *a = &s->accesses[access];
    for (int k = 0; k < s->nloops; k++) {
        expr_var v = (expr_var)(EXPR_LOOP + k);
        if (expr_uses(&a->when, v))
            return false;
        for (int d = 0; d < a->nidx; d++)
            if (expr_uses(&a->index[d], v))
                return false;
    }
    return true;
}

/* The environment of an instruction of (iteration, warp) before its slots: block, loops, warp. */
static void instr_env(const scenario *s, int iteration, int warp, expr_env *env)
{
    env->v[EXPR_BDX] = s->block[0];
    env->v[EXPR_BDY] = s->block[1];
    env->v[EXPR_BDZ] = s->block[2];
    for (int k = 0; k < SCENARIO_MAX_LOOPS; k++)
        env->v[EXPR_LOOP + k] = k < s->nloops ? scenario_loop_value(s, k, iteration) : 0;
    env->v[EXPR_WARP] = warp;
}

/* The instruction reads the loop only through the slots of its expressions (scenario_access_key):
 * none of their value codes reads a loop variable itself. */
bool scenario_access_loop_slotted(const scenario *s, int access)
{
    const scenario_access *a = &s->accesses[access];
    for (int k = 0; k < s->nloops; k++) {
        expr_var v = (expr_var)(EXPR_LOOP + k);
        if (a->when_text && expr_reads_directly(&a->when, v))
            return false;
        for (int d = 0; d < a->nidx; d++)
            if (expr_reads_directly(&a->index[d], v))
                return false;
    }
    return true;
}

/* The slots expr_prepare computes for each expression of access, in order ('when' first). */
int scenario_access_key(const scenario *s, int access, int iteration, int warp, int64_t *key)
{
    const scenario_access *a = &s->accesses[access];
    expr_env env;
    instr_env(s, iteration, warp, &env);
    int n = 0;
    for (int d = -1; d < a->nidx; d++) {
        const expr *x = d < 0 ? &a->when : &a->index[d];
        if (d < 0 && !a->when_text)
            continue;
        expr_prepare(x, &env);
        for (int k = 0; k < expr_slot_count(x); k++)
            key[n++] = env.v[EXPR_NVARS + k];
    }
    return n;
}

int64_t scenario_access_nodes(const scenario_access *a)
{
    int64_t n = a->when.n;
    for (int d = 0; d < a->nidx; d++)
        n += a->index[d].n;
    return n;
}

bool scenario_lane_past_end(const scenario *s, int access, const scenario_lane *l)
{
    if (access < 0 || l->state != SCENARIO_LANE_OOB)
        return false;
    const scenario_access *a = &s->accesses[access];
    for (int d = 0; d < a->nidx; d++)
        if (l->index[d] < 0 || l->index[d] >= s->arrays[a->array].extent[d])
            return false;
    return true;
}

void scenario_lane_element(const scenario *s, int access, const scenario_lane *l, strbuf *out)
{
    if (access < 0) {
        strbuf_addf(out, "smem[%lld]", (long long)l->address);
        return;
    }
    const scenario_access *a = &s->accesses[access];
    strbuf_addf(out, "%s", s->arrays[a->array].name);
    for (int d = 0; d < a->nidx; d++)
        strbuf_addf(out, "[%lld]", (long long)l->index[d]);
    if (a->field)
        strbuf_addf(out, ".%s", a->field);
}

void scenario_map_shape(const scenario_array *a, int64_t *rows, int64_t *cols)
{
    *cols = a->extent[a->ndims - 1];
    *rows = 1;
    for (int d = 0; d < a->ndims - 1; d++)
        *rows *= a->extent[d];
    if (a->ndims == 1) {
        int64_t per = 128 / a->elem_size > 0 ? 128 / a->elem_size : 1;
        *cols = per < a->extent[0] ? per : a->extent[0];
        *rows = (a->extent[0] + *cols - 1) / *cols;
    }
}

bool scenario_map_cell(const scenario_array *a, int64_t rowlen, int64_t e, int offset, int64_t *slot, int64_t *held)
{
    *slot = e * a->elem_size + offset;
    *held = scenario_swizzle_offset(a, *slot) / a->elem_size;
    if (a->ndims == 1)
        return *held >= a->dims[0];
    int64_t hrow = *held / rowlen, hc = *held % rowlen;
    bool pad = hc >= a->dims[a->ndims - 1];
    if (a->ndims == 3)
        pad |= hrow % a->extent[1] >= a->dims[1] || hrow / a->extent[1] >= a->dims[0];
    else
        pad |= hrow >= a->dims[0];
    return pad;
}

const char *scenario_lane_state_text(scenario_lane_state st)
{
    switch (st) {
    case SCENARIO_LANE_OK: return "active";
    case SCENARIO_LANE_NO_THREAD: return "no thread";
    case SCENARIO_LANE_MASKED: return "inactive";
    case SCENARIO_LANE_OOB: return "out of bounds";
    case SCENARIO_LANE_MISALIGNED: return "misaligned";
    case SCENARIO_LANE_EVAL_ERROR: return "expression error";
    }
    return "?";
}

bool scenario_instr_idle(const scenario_instr *in)
{
    for (int l = 0; l < BANKS_WARP; l++)
        if (in->lane[l].state != SCENARIO_LANE_NO_THREAD && in->lane[l].state != SCENARIO_LANE_MASKED)
            return false;
    return true;
}

int scenario_instr_threads(const scenario_instr *in)
{
    int n = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        n += in->lane[l].state != SCENARIO_LANE_NO_THREAD;
    return n;
}

void scenario_instr_excluded(const scenario_instr *in, scenario_excluded *out)
{
    int mis = 0, oob = 0, err = 0;
    for (int l = 0; l < BANKS_WARP; l++) { /* counted without a branch */
        scenario_lane_state st = in->lane[l].state;
        mis += st == SCENARIO_LANE_MISALIGNED;
        oob += st == SCENARIO_LANE_OOB;
        err += st == SCENARIO_LANE_EVAL_ERROR;
    }
    *out = (scenario_excluded){.misaligned = mis, .out_of_bounds = oob, .expression_error = err};
}

void scenario_excluded_add(scenario_excluded *sum, const scenario_excluded *add)
{
    sum->misaligned += add->misaligned;
    sum->out_of_bounds += add->out_of_bounds;
    sum->expression_error += add->expression_error;
}

int64_t scenario_excluded_total(const scenario_excluded *e)
{
    return e->misaligned + e->out_of_bounds + e->expression_error;
}

const char *scenario_op_text(banks_op op)
{
    const kinds_row *k = kinds_of(op);
    return k ? kinds_op_text(k) : "?"; /* cp.async.cg: "cp.async" (with "cache": "cg") */
}
