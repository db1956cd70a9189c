/* advisor_swizzle: the layout search. For one array of a scenario it lists candidate layouts in
 * cost order (no extra bytes first: the TMA modes, CuTe Swizzle<B,M,S> over a bounded range, the
 * row XOR; then paddings by their extra bytes), tries each on a sample (the first and last
 * iterations), confirms the survivors in cost order on every warp-instruction of every access to
 * the array, and keeps the first that is conflict-free with no lane excluded, plus the closest
 * that are not. A candidate is applied through the array option "swizzle" (scenario_finish,
 * scenario_swizzle_offset) or the padding; the row XOR rewrites the last index. The scenario is
 * edited in place and restored; nothing here is shared between calls. */
#include "advisor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts of one layout over a set of warp-instructions of the array's accesses, and the first
 * instruction that is not conflict-free (a counterexample for the other candidates). */
typedef struct tally {
    int64_t wf, ideal, excluded, n;
    int worst;
    char why[160];
    int bad_access, bad_iter, bad_warp; /* -1: none */
} tally;

static bool hook_cancelled(const advisor_hooks *h)
{
    return h && h->cancelled && h->cancelled(h->ctx);
}

static void hook_progress(const advisor_hooks *h, double f)
{
    if (h && h->progress)
        h->progress(h->ctx, f);
}

static int log2_exact(int64_t v)
{
    if (v <= 0 || (v & (v - 1)) != 0)
        return -1;
    return __builtin_ctzll((uint64_t)v);
}

static int log2_floor(int64_t v)
{
    return v > 0 ? 63 - __builtin_clzll((uint64_t)v) : -1;
}

/* The widest bytes one lane of an access to array moves (an ldmatrix row is 16 B). */
static int widest_access(const scenario *s, int array)
{
    int w = 1;
    for (int i = 0; i < s->naccesses; i++)
        if (s->accesses[i].array == array && s->accesses[i].width > w)
            w = s->accesses[i].width;
    return w;
}

/* Which warp-instructions a tally counts: every one, a sample (the first and the last
 * iteration, at most cap of each, warps taken evenly), or one instruction. */
typedef enum tally_set { TALLY_ALL, TALLY_SAMPLE, TALLY_ONE } tally_set;

/* Add one warp-instruction to t. */
static void tally_add(const scenario *s, int a, int it, int warp, tally *t)
{
    scenario_instr in;
    banks_result r;
    scenario_excluded ex;
    scenario_instr_build(s, a, it, warp, &in);
    banks_analyze(s->arch, &in.req, &r, NULL);
    t->n++;
    t->wf += r.wavefronts;
    t->ideal += r.ideal_wavefronts;
    if (r.conflict_degree > t->worst)
        t->worst = r.conflict_degree;
    scenario_instr_excluded(&in, &ex);
    int64_t e = scenario_excluded_total(&ex);
    if (e && !t->excluded) {
        const char *reason = ex.misaligned ? "misaligned" : ex.out_of_bounds ? "out of bounds" : "expression error";
        snprintf(t->why, sizeof t->why, "%lld lane%s %s (access %d, warp %d)", (long long)e, e == 1 ? "" : "s", reason,
                 a, warp);
    }
    t->excluded += e;
    if ((e || r.wavefronts != r.ideal_wavefronts) && t->bad_access < 0) {
        t->bad_access = a;
        t->bad_iter = it;
        t->bad_warp = warp;
    }
}

/* Count the warp-instructions of set of every access to array (one: the instruction in *one).
 * False when cancelled. */
static bool tally_array(const scenario *s, int array, tally_set set, int64_t cap, const tally *one,
                        const advisor_hooks *h, tally *t)
{
    memset(t, 0, sizeof *t);
    t->bad_access = t->bad_iter = t->bad_warp = -1;
    if (set == TALLY_ONE) {
        tally_add(s, one->bad_access, one->bad_iter, one->bad_warp, t);
        return true;
    }
    int nw = scenario_selected_warps(s), nacc = 0;
    for (int i = 0; i < s->naccesses; i++)
        nacc += s->accesses[i].array == array;
    int step = 1, last = s->iterations - 1;
    if (set == TALLY_SAMPLE && nacc > 0 && (int64_t)nacc * nw > cap)
        step = (int)(((int64_t)nacc * nw + cap - 1) / cap);
    for (int it = 0; it <= last; it++) {
        if (set == TALLY_SAMPLE && it != 0 && it != last)
            continue;
        for (int a = 0; a < s->naccesses; a++) {
            if (s->accesses[a].array != array || !scenario_access_active(s, a, it))
                continue;
            if (hook_cancelled(h))
                return false;
            for (int w = 0; w < nw; w += step)
                tally_add(s, a, it, scenario_selected_warp(s, w), t);
        }
    }
    return true;
}

static bool tally_works(const tally *t)
{
    return t->wf == t->ideal && t->excluded == 0;
}

/* A candidate before it is described: kind, Swizzle<B,M,S> on bytes (or the row XOR), pad. */
typedef struct cand {
    advisor_layout_kind kind;
    int bits, base, shift, pad;
    int64_t extra; /* extra shared bytes per block (from scenario_finish) */
    bool valid;    /* scenario_finish accepted it */
    tally sample;  /* on the sample */
    tally full;    /* on every warp-instruction, when checked */
    bool checked;
    bool refuted; /* not conflict-free on a counterexample another candidate's check found */
    char why[160];
} cand;

/* The state of array that a candidate changes, saved to be put back: its padding, its swizzle
 * option and the index texts of its accesses (the row XOR rewrites them; at most 64). */
#define REWRITE_MAX 64
typedef struct saved {
    int64_t pad;
    char *swizzle;
    char *index[REWRITE_MAX][SCENARIO_MAX_DIMS];
    bool rewrote;
} saved;

/* Give access a the index texts text[0..nidx) (copies), keeping its old ones in keep. */
static void set_index(scenario_access *a, char text[][1400], char **keep)
{
    for (int k = 0; k < a->nidx; k++) {
        keep[k] = a->index_text[k];
        a->index_text[k] = xstrdup(text[k]);
    }
}

/* Apply candidate c to array (pad and layout); the caller runs scenario_finish. */
static void cand_apply(scenario *s, int array, const cand *c, saved *sv)
{
    scenario_array *arr = &s->arrays[array];
    memset(sv, 0, sizeof *sv);
    sv->pad = arr->pad[arr->ndims - 1];
    arr->pad[arr->ndims - 1] = c->pad;
    sv->swizzle = arr->swizzle;
    arr->swizzle = NULL;
    if (c->kind == ADVISOR_LAYOUT_TMA || c->kind == ADVISOR_LAYOUT_CUTE) {
        char opt[40];
        if (c->kind == ADVISOR_LAYOUT_TMA)
            snprintf(opt, sizeof opt, "%dB", 16 << c->bits);
        else
            snprintf(opt, sizeof opt, "Swizzle<%d,%d,%d>", c->bits, c->base - log2_exact(arr->elem_size), c->shift);
        arr->swizzle = xstrdup(opt);
        return;
    }
    if (c->kind == ADVISOR_LAYOUT_PADDING)
        return;
    if (c->kind == ADVISOR_LAYOUT_XOR) {
        char text[SCENARIO_MAX_DIMS][1400];
        for (int i = 0; i < s->naccesses && i < REWRITE_MAX; i++) {
            scenario_access *a = &s->accesses[i];
            if (a->array != array || a->nidx != 2)
                continue;
            snprintf(text[0], sizeof text[0], "%s", a->index_text[0]);
            snprintf(text[1], sizeof text[1], "(%s) ^ (((%s) %% %d) * %d)", a->index_text[1], a->index_text[0],
                     1 << c->bits, 1 << c->base);
            set_index(a, text, sv->index[i]);
        }
        sv->rewrote = true;
    }
}

/* Put back what cand_apply changed (the caller runs scenario_finish). */
static void cand_restore(scenario *s, int array, saved *sv)
{
    scenario_array *arr = &s->arrays[array];
    arr->pad[arr->ndims - 1] = sv->pad;
    free(arr->swizzle);
    arr->swizzle = sv->swizzle;
    if (!sv->rewrote)
        return;
    for (int i = 0; i < s->naccesses && i < REWRITE_MAX; i++)
        for (int k = 0; k < SCENARIO_MAX_DIMS; k++)
            if (sv->index[i][k]) {
                free(s->accesses[i].index_text[k]);
                s->accesses[i].index_text[k] = sv->index[i][k];
            }
}

int advisor_conflicted_arrays(const scenario *s, int *arrays, int max)
{
    int64_t *bad = calloc((size_t)s->narrays + 1, sizeof *bad);
    if (!bad)
        util_oom();
    scenario_instr in;
    banks_result r;
    scenario_excluded ex;
    int64_t n = scenario_instr_count(s);
    for (int64_t k = 0; k < n; k++) {
        scenario_instr_at(s, k, &in);
        banks_analyze(s->arch, &in.req, &r, NULL);
        scenario_instr_excluded(&in, &ex);
        bad[s->accesses[in.access].array] += r.bank_conflicts + scenario_excluded_total(&ex);
    }
    int m = 0;
    while (m < max) {
        int best = -1;
        for (int i = 0; i < s->narrays; i++)
            if (bad[i] > 0 && (best < 0 || bad[i] > bad[best]))
                best = i;
        if (best < 0)
            break;
        arrays[m++] = best;
        bad[best] = 0;
    }
    free(bad);
    return m;
}

/* The cost order: extra bytes, then the array as it is (no layout), a TMA mode (TMA writes it
 * for free), another CuTe swizzle, the row XOR, a padding; then fewer bits, base, shift. */
static int cand_rank(const cand *c)
{
    if (c->kind == ADVISOR_LAYOUT_PADDING)
        return c->pad == 0 ? 0 : 4;
    return c->kind == ADVISOR_LAYOUT_TMA ? 1 : c->kind == ADVISOR_LAYOUT_CUTE ? 2 : 3;
}

/* qsort's order of candidates: valid first, then fewer extra bytes, then cand_rank, bits, base,
 * shift and padding. */
static int cand_cmp(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->valid != b->valid)
        return a->valid ? -1 : 1;
    if (a->extra != b->extra)
        return a->extra < b->extra ? -1 : 1;
    int k[2][5] = {{cand_rank(a), a->bits, a->base, a->shift, a->pad},
                   {cand_rank(b), b->bits, b->base, b->shift, b->pad}};
    for (int i = 0; i < 5; i++)
        if (k[0][i] != k[1][i])
            return k[0][i] < k[1][i] ? -1 : 1;
    return 0;
}

/* Add candidate (kind, B, M, S on bytes, pad) to the list (bounded by cap). */
static void cand_add(cand *list, int *n, int cap, advisor_layout_kind kind, int b, int m, int sh, int pad)
{
    if (*n >= cap)
        return;
    cand *c = &list[(*n)++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->bits = b;
    c->base = m;
    c->shift = sh;
    c->pad = pad;
}

#define CAND_MAX 2048 /* > 3 TMA + 5 x 4 x 30 CuTe + the row XOR + 257 paddings */

/* Every candidate layout of array: the unchanged array, the TMA modes, CuTe Swizzle<B,M,S> with
 * B 1..5, M (bytes) from the widest unit a lane moves (so that no vector or ldmatrix row is
 * split) up to 3 more, S >= B with M + S + B within the array's bytes, the row XOR of a 2-D array
 * whose row is not a power of two, and paddings 1..max_pad. */
static int cand_list(const scenario *s, int array, int max_pad, cand *list)
{
    const scenario_array *arr = &s->arrays[array];
    int n = 0;
    cand_add(list, &n, CAND_MAX, ADVISOR_LAYOUT_PADDING, 0, 0, 0, 0);
    int le = log2_exact(arr->elem_size);
    int widest = widest_access(s, array);
    int lu = log2_exact(widest > arr->elem_size ? widest : arr->elem_size);
    int64_t bytes0 = arr->elem_size;
    for (int k = 0; k < arr->ndims; k++)
        bytes0 *= arr->dims[k];
    int top = log2_floor(bytes0); /* M + S + B <= top: the source bits lie inside the array */
    if (top > 30)
        top = 30;
    if (le >= 0 && lu >= 0) {
        for (int b = 1; b <= 3; b++) /* the TMA modes: Swizzle<1|2|3,4,3> on bytes */
            if (lu <= 4 && 4 + 3 + b <= top)
                cand_add(list, &n, CAND_MAX, ADVISOR_LAYOUT_TMA, b, 4, 3, 0);
        for (int b = 1; b <= 5; b++)
            for (int m = lu; m <= lu + 3; m++)
                for (int sh = b; m + sh + b <= top; sh++)
                    if (!(m == 4 && sh == 3 && b <= 3 && lu <= 4))
                        cand_add(list, &n, CAND_MAX, ADVISOR_LAYOUT_CUTE, b, m, sh, 0);
    }
    /* the row XOR c ^ ((r % R) * U): U elements per unit (a word or the widest access), R units
     * per 128 bytes; only where the row is not a power of two (else a CuTe swizzle above) */
    if (arr->ndims == 2 && log2_exact(arr->dims[1]) < 0 && le >= 0) {
        int w = widest > 4 ? widest : 4;
        int64_t u = w / arr->elem_size, r = 128 / w;
        if (u >= 1 && r >= 2 && arr->dims[1] % (r * u) == 0)
            cand_add(list, &n, CAND_MAX, ADVISOR_LAYOUT_XOR, log2_exact(r), log2_exact(u), 0, 0);
    }
    for (int p = 1; p <= max_pad; p++)
        cand_add(list, &n, CAND_MAX, ADVISOR_LAYOUT_PADDING, 0, 0, 0, p);
    return n;
}

/* Apply c, validate, and count it on set (TALLY_ONE: the instruction of *one, refuting c when it
 * is not conflict-free there); restore. False when cancelled. */
static bool cand_try(scenario *s, int array, cand *c, tally_set set, const tally *one, int64_t base_smem,
                     const advisor_hooks *h)
{
    saved sv;
    scenario_error e;
    cand_apply(s, array, c, &sv);
    bool ok = true;
    c->valid = scenario_finish(s, &e);
    if (c->valid) {
        c->extra = s->smem_bytes - base_smem;
        tally t;
        ok = tally_array(s, array, set, 256, one, h,
                         set == TALLY_ALL      ? &c->full
                         : set == TALLY_SAMPLE ? &c->sample
                                               : &t);
        if (set == TALLY_ALL)
            c->checked = true;
        if (set == TALLY_ONE && !tally_works(&t))
            c->refuted = true;
    } else {
        snprintf(c->why, sizeof c->why, "%.150s", e.msg);
    }
    cand_restore(s, array, &sv);
    scenario_finish(s, &e);
    return ok;
}

/* Append "Swizzle<B,M,S>" of x (bits of x from M + S into the bits from M) as C text. */
static void swizzle_c(char *buf, size_t n, const char *x, int b, int m, int sh)
{
    int mask = (1 << b) - 1;
    if (m == 0)
        snprintf(buf, n, "%s ^ ((%s >> %d) & %d)", x, x, m + sh, mask);
    else
        snprintf(buf, n, "%s ^ (((%s >> %d) & %d) << %d)", x, x, m + sh, mask, m);
}

/* Describe candidate c of array as the layout the search reports. */
static void cand_describe(const scenario *s, int array, const cand *c, advisor_layout *l)
{
    const scenario_array *arr = &s->arrays[array];
    memset(l, 0, sizeof *l);
    l->kind = c->kind;
    l->bits = c->bits;
    l->base = c->base;
    l->shift = c->shift;
    l->pad = c->pad;
    l->extra_bytes = c->extra;
    const tally *t = c->checked ? &c->full : &c->sample;
    l->wavefronts = t->wf;
    l->ideal = t->ideal;
    l->excluded = t->excluded;
    l->instructions = t->n;
    l->worst_degree = t->worst;
    l->works = c->valid && c->checked && tally_works(t);
    snprintf(l->why, sizeof l->why, "%s", c->valid ? t->why : c->why);
    int d = arr->ndims;
    const char *nm = arr->name;
    if (c->kind == ADVISOR_LAYOUT_PADDING) {
        int len = snprintf(l->c_text, sizeof l->c_text, "%.40s", nm);
        for (int k = 0; k < d && len < (int)sizeof l->c_text; k++)
            if (k < d - 1 || c->pad == 0)
                len += snprintf(l->c_text + len, sizeof l->c_text - (size_t)len, "[%lld]", (long long)arr->dims[k]);
            else
                len += snprintf(l->c_text + len, sizeof l->c_text - (size_t)len, "[%lld + %d]", (long long)arr->dims[k],
                                c->pad);
        return;
    }
    if (c->kind == ADVISOR_LAYOUT_XOR) {
        if (c->base == 0)
            snprintf(l->c_text, sizeof l->c_text, "%s[r][c ^ (r %% %d)]", nm, 1 << c->bits);
        else
            snprintf(l->c_text, sizeof l->c_text, "%s[r][c ^ ((r %% %d) * %d)]", nm, 1 << c->bits, 1 << c->base);
        return;
    }
    int me = c->base - log2_exact(arr->elem_size);
    snprintf(l->cute, sizeof l->cute, "Swizzle<%d,%d,%d>", c->bits, me, c->shift);
    snprintf(l->cute_bytes, sizeof l->cute_bytes, "Swizzle<%d,%d,%d>", c->bits, c->base, c->shift);
    if (c->kind == ADVISOR_LAYOUT_TMA) {
        snprintf(l->option, sizeof l->option, "%dB", 16 << c->bits);
        snprintf(l->tma, sizeof l->tma, "CU_TENSOR_MAP_SWIZZLE_%dB", 16 << c->bits);
    } else {
        snprintf(l->option, sizeof l->option, "%s", l->cute);
    }
    /* the flattened form on element offsets */
    char flat[64], idx[64];
    swizzle_c(flat, sizeof flat, "i", c->bits, me, c->shift);
    if (d == 1) {
        snprintf(l->c_text, sizeof l->c_text, "%.40s[%s]", nm, flat);
        return;
    }
    if (d == 2)
        snprintf(idx, sizeof idx, "i = r * %lld + c", (long long)arr->dims[1]);
    else
        snprintf(idx, sizeof idx, "i = (p * %lld + r) * %lld + c", (long long)arr->dims[1], (long long)arr->dims[2]);
    snprintf(l->c_flat, sizeof l->c_flat, "%s with %s", flat, idx);
    snprintf(l->c_text, sizeof l->c_text, "%s", l->c_flat);
    /* on a 2-D array with rows of 2^k elements whose swizzle takes bits of r into bits of c:
     * c ^ (((r >> (M + S - k)) & mask) << M) */
    int k = log2_exact(arr->dims[d - 1]);
    char col[80];
    if (d == 2 && k >= 0 && advisor_swizzle_col_text(me, c->bits, c->shift, k, col, sizeof col))
        snprintf(l->c_text, sizeof l->c_text, "%.40s[r][%s]", nm, col);
}

bool advisor_swizzle_col_text(int me, int bits, int shift, int k, char *col, size_t n)
{
    if (me + bits > k || me + shift < k)
        return false;
    char rr[48];
    int down = me + shift - k, mask = (1 << bits) - 1;
    if (down)
        snprintf(rr, sizeof rr, "((r >> %d) & %d)", down, mask);
    else
        snprintf(rr, sizeof rr, "(r & %d)", mask);
    if (me)
        snprintf(col, n, "c ^ (%s << %d)", rr, me);
    else
        snprintf(col, n, "c ^ %s", rr);
    return true;
}

/* Sample tallies compare as near misses: no lane excluded first, then fewest extra wavefronts. */
static int near_cmp(const void *x, const void *y)
{
    const cand *a = *(cand *const *)x, *b = *(cand *const *)y;
    if ((a->sample.excluded > 0) != (b->sample.excluded > 0))
        return a->sample.excluded > 0 ? 1 : -1;
    int64_t ea = a->sample.wf - a->sample.ideal, eb = b->sample.wf - b->sample.ideal;
    if (ea != eb)
        return ea < eb ? -1 : 1;
    return cand_cmp(a, b);
}

/* Reported layouts that do not work, closest first: none excluded, then fewest wavefronts. */
static int layout_cmp(const void *x, const void *y)
{
    const advisor_layout *a = x, *b = y;
    if ((a->excluded > 0) != (b->excluded > 0))
        return a->excluded > 0 ? 1 : -1;
    if (a->wavefronts != b->wavefronts)
        return a->wavefronts < b->wavefronts ? -1 : 1;
    return 0;
}

/* Confirm the candidates that pass the sample, in cost order, on every warp-instruction; the
 * first that works is the answer. A check that fails gives the first instruction that is not
 * conflict-free, and every later candidate is tried on it first (most fall there, cheaply). */
static bool confirm(scenario *s, int array, cand *list, int n, bool sample_is_all, int64_t base_smem,
                    const advisor_hooks *h, advisor_search *out)
{
    for (int i = 0; i < n; i++) {
        cand *c = &list[i];
        if (!c->valid || c->refuted || !tally_works(&c->sample))
            continue;
        if (sample_is_all) {
            c->full = c->sample;
            c->checked = true;
        } else {
            if (out->checked >= ADVISOR_SEARCH_FULL_MAX) {
                out->complete = false;
                return true;
            }
            if (!cand_try(s, array, c, TALLY_ALL, NULL, base_smem, h))
                return false;
            out->checked++;
        }
        if (tally_works(&c->full)) {
            out->found = true;
            cand_describe(s, array, c, &out->best);
            return true;
        }
        for (int j = i + 1; j < n; j++)
            if (list[j].valid && !list[j].refuted && tally_works(&list[j].sample) &&
                !cand_try(s, array, &list[j], TALLY_ONE, &c->full, base_smem, h))
                return false;
    }
    return true;
}

bool advisor_search_layouts(scenario *s, int array, int max_pad, const advisor_hooks *h, advisor_search *out)
{
    memset(out, 0, sizeof *out);
    out->array = array;
    if (array < 0 || array >= s->narrays) /* a trace has no array */
        return false;
    if (max_pad > 256)
        max_pad = 256;
    scenario_array *arr = &s->arrays[array];
    cand now = {.kind = ADVISOR_LAYOUT_PADDING, .pad = (int)arr->pad[arr->ndims - 1], .valid = true};
    if (arr->swz_bits) {
        now.kind = arr->swz_tma ? ADVISOR_LAYOUT_TMA : ADVISOR_LAYOUT_CUTE;
        now.bits = arr->swz_bits;
        now.base = arr->swz_base;
        now.shift = arr->swz_shift;
    }
    if (!tally_array(s, array, TALLY_ALL, 0, NULL, h, &now.full))
        return false;
    now.checked = true;
    cand *list = xmalloc(CAND_MAX * sizeof *list);
    int n = cand_list(s, array, max_pad, list);
    /* the shared bytes the extra bytes count from: the array unpadded, as it is laid out */
    bool ok = cand_try(s, array, &list[0], TALLY_SAMPLE, NULL, 0, h);
    int64_t base_smem = list[0].valid ? list[0].extra : s->smem_bytes;
    now.extra = s->smem_bytes - base_smem;
    cand_describe(s, array, &now, &out->current);
    for (int i = 0; i < n && ok; i++) {
        ok = cand_try(s, array, &list[i], TALLY_SAMPLE, NULL, base_smem, h);
        hook_progress(h, 0.8 * (i + 1) / n);
    }
    out->tried = n;
    out->sample = list[0].sample.n;
    bool sample_is_all = list[0].valid && list[0].sample.n == now.full.n;
    qsort(list, (size_t)n, sizeof *list, cand_cmp);
    out->complete = true;
    ok = ok && confirm(s, array, list, n, sample_is_all, base_smem, h, out);
    /* the closest swizzles that do not work, measured on every instruction */
    cand **miss = xmalloc((size_t)n * sizeof *miss);
    int nm = 0;
    for (int i = 0; i < n && ok; i++) {
        cand *c = &list[i];
        bool failed = c->checked ? !tally_works(&c->full) : (c->refuted || !tally_works(&c->sample));
        if (c->valid && c->kind != ADVISOR_LAYOUT_PADDING && failed)
            miss[nm++] = c;
    }
    qsort(miss, (size_t)nm, sizeof *miss, near_cmp);
    /* an array that is conflict-free as it is needs no alternatives */
    if (out->found && out->best.kind == ADVISOR_LAYOUT_PADDING && out->best.pad == 0)
        nm = 0;
    for (int i = 0; i < nm && out->nnear < ADVISOR_NEAR_MAX && ok; i++) {
        if (!miss[i]->checked && sample_is_all) {
            miss[i]->full = miss[i]->sample;
            miss[i]->checked = true;
        } else if (!miss[i]->checked) {
            ok = cand_try(s, array, miss[i], TALLY_ALL, NULL, base_smem, h);
        }
        cand_describe(s, array, miss[i], &out->near[out->nnear]);
        /* a near miss no better than the array as it is teaches nothing: it is left out */
        const advisor_layout *l = &out->near[out->nnear];
        if (l->excluded == 0 && l->wavefronts < out->current.wavefronts)
            out->nnear++;
    }
    qsort(out->near, (size_t)out->nnear, sizeof out->near[0], layout_cmp);
    hook_progress(h, 1.0);
    free(miss);
    free(list);
    if (!ok)
        out->complete = false;
    return ok;
}

bool advisor_apply_layout(scenario *s, int array, const advisor_layout *l, char *msg, size_t n)
{
    if (array < 0 || array >= s->narrays) {
        snprintf(msg, n, "a trace has no array to lay out");
        return false;
    }
    cand c = {.kind = l->kind, .bits = l->bits, .base = l->base, .shift = l->shift, .pad = l->pad};
    saved sv;
    cand_apply(s, array, &c, &sv);
    /* the new layout stays: free the saved originals */
    free(sv.swizzle);
    for (int i = 0; i < REWRITE_MAX; i++)
        for (int k = 0; k < SCENARIO_MAX_DIMS; k++)
            free(sv.index[i][k]);
    scenario_error e;
    if (!scenario_finish(s, &e)) {
        snprintf(msg, n, "%s: %s", e.path, e.msg);
        return false;
    }
    return true;
}

/* How a layout is named: the scenario option to write, the row XOR, a padding. */
const char *advisor_layout_name(const advisor_layout *l, char *buf, size_t n)
{
    if (l->option[0])
        snprintf(buf, n, "\"swizzle\": \"%s\"", l->option);
    else if (l->kind == ADVISOR_LAYOUT_XOR)
        snprintf(buf, n, "%s", l->c_text);
    else if (l->pad)
        snprintf(buf, n, "padding %d (%s)", l->pad, l->c_text);
    else
        snprintf(buf, n, "no padding and no \"swizzle\"");
    return buf;
}
