/* whatif_search: the candidate layouts of one region of a recording and their ranking
 * (whatif.h). Candidates: every row pitch that divides the region's bytes and that some recorded
 * stride between two lanes of one instruction is a multiple of, padded by 4..32 bytes (steps of
 * the widest access, so rows stay aligned); CuTe Swizzle<B,M,S> on byte offsets with B 1..5, M
 * from the widest access (so no access is split) up to 3 more, S >= B within the region; and the
 * struct-of-arrays split when every instruction's lanes read one field of their own struct. */
#include "model/whatif.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static int log2_floor(int64_t v)
{
    return v > 0 ? 63 - __builtin_clzll((uint64_t)v) : -1;
}

/* Narrowest and widest access width of the entries with a lane in region r. */
static void widths(const whatif_input *in, int r, int64_t *narrow, int64_t *wide)
{
    *narrow = 0;
    *wide = 0;
    for (int64_t i = 0; i < in->ntrace; i++) {
        const banks_request *e = &in->trace[i];
        for (int k = 0; k < BANKS_WARP; k++)
            if (((e->active >> k) & 1) && whatif_region_of(in->regions, in->nregions, e->addr[k]) == r) {
                if (!*narrow || e->width < *narrow)
                    *narrow = e->width;
                if (e->width > *wide)
                    *wide = e->width;
                break;
            }
    }
}

/* Distinct positive strides between consecutive active lanes of one instruction, both lanes in
 * region r (at most max); returns how many. */
static int strides(const whatif_input *in, int r, int64_t *out, int max)
{
    int n = 0;
    for (int64_t i = 0; i < in->ntrace; i++) {
        const banks_request *e = &in->trace[i];
        int64_t prev = -1;
        for (int k = 0; k < BANKS_WARP; k++) {
            if (!((e->active >> k) & 1) || whatif_region_of(in->regions, in->nregions, e->addr[k]) != r)
                continue;
            if (prev >= 0) {
                int64_t d = e->addr[k] > prev ? e->addr[k] - prev : prev - e->addr[k];
                bool seen = d == 0;
                for (int j = 0; j < n && !seen; j++)
                    seen = out[j] == d;
                if (!seen && n < max)
                    out[n++] = d;
            }
            prev = e->addr[k];
        }
    }
    return n;
}

/* The struct size when every instruction touching r reads one field of each lane's own struct:
 * the lanes' strides that are wider than the access and divide the region's bytes, agreeing on
 * one size E, with all active lanes of each instruction at the same offset modulo E, and some
 * access narrower than E. Fields (offset, width) into l; 0 when it does not look like that. */
static int64_t soa_shape(const whatif_input *in, int r, whatif_layout *l)
{
    const whatif_region *rg = &in->regions[r];
    int64_t elem = 0;
    for (int64_t i = 0; i < in->ntrace; i++) {
        const banks_request *e = &in->trace[i];
        int64_t prev = -1;
        for (int k = 0; k < BANKS_WARP; k++) {
            if (!((e->active >> k) & 1) || whatif_region_of(in->regions, in->nregions, e->addr[k]) != r)
                continue;
            if (prev >= 0 && e->addr[k] > prev) {
                int64_t d = e->addr[k] - prev;
                if (d > e->width && d <= 256 && rg->bytes % d == 0 && (elem == 0 || d < elem))
                    elem = d;
            }
            prev = e->addr[k];
        }
    }
    if (elem == 0)
        return 0;
    l->nfields = 0;
    bool narrower = false;
    for (int64_t i = 0; i < in->ntrace; i++) {
        const banks_request *e = &in->trace[i];
        int64_t off = -1;
        for (int k = 0; k < BANKS_WARP; k++) {
            if (!((e->active >> k) & 1) || whatif_region_of(in->regions, in->nregions, e->addr[k]) != r)
                continue;
            int64_t o = (e->addr[k] - rg->start) % elem;
            if (off >= 0 && o != off)
                return 0; /* lanes at different offsets: not one field of each struct */
            off = o;
        }
        if (off < 0)
            continue;
        if (off + e->width > elem)
            return 0;
        narrower = narrower || e->width < elem;
        /* merge [off, off + width) into the fields */
        int64_t lo = off, hi = off + e->width;
        for (int f = 0; f < l->nfields;) {
            int64_t flo = l->field_off[f], fhi = flo + l->field_width[f];
            if (flo < hi && lo < fhi) {
                lo = flo < lo ? flo : lo;
                hi = fhi > hi ? fhi : hi;
                l->field_off[f] = l->field_off[l->nfields - 1];
                l->field_width[f] = l->field_width[l->nfields - 1];
                l->nfields--;
            } else {
                f++;
            }
        }
        if (l->nfields == WHATIF_MAX_FIELDS)
            return 0;
        l->field_off[l->nfields] = lo;
        l->field_width[l->nfields++] = hi - lo;
    }
    if (!narrower || l->nfields < 1)
        return 0;
    /* by offset */
    for (int a = 1; a < l->nfields; a++)
        for (int b = a; b > 0 && l->field_off[b - 1] > l->field_off[b]; b--) {
            int64_t t = l->field_off[b];
            l->field_off[b] = l->field_off[b - 1];
            l->field_off[b - 1] = t;
            t = l->field_width[b];
            l->field_width[b] = l->field_width[b - 1];
            l->field_width[b - 1] = t;
        }
    return elem;
}

/* Keep candidate l with cost c among the ranked top layouts when it is valid and does better
 * than now. */
static void consider(whatif_result *out, const whatif_layout *l, const whatif_cost *c)
{
    if (!c->valid || c->wavefronts >= out->current.wavefronts)
        return;
    if (!out->has[l->kind] || whatif_rank(l, c, &out->best_of[l->kind], &out->best_of_cost[l->kind]) < 0) {
        out->has[l->kind] = true;
        out->best_of[l->kind] = *l;
        out->best_of_cost[l->kind] = *c;
    }
    int at = out->ntop;
    while (at > 0 && whatif_rank(l, c, &out->top[at - 1], &out->top_cost[at - 1]) < 0)
        at--;
    if (at >= WHATIF_TOP)
        return;
    int last = out->ntop < WHATIF_TOP ? out->ntop : WHATIF_TOP - 1;
    for (int k = last; k > at; k--) {
        out->top[k] = out->top[k - 1];
        out->top_cost[k] = out->top_cost[k - 1];
    }
    out->top[at] = *l;
    out->top_cost[at] = *c;
    if (out->ntop < WHATIF_TOP)
        out->ntop++;
}

/* The candidates of a search, costed on the sample first. */
typedef struct cand {
    whatif_layout l;
    whatif_cost sample;
} cand;
typedef struct cand_list {
    cand *v;
    int n, cap;
} cand_list;

static void collect(cand_list *cl, const whatif_layout *l)
{
    if (cl->n == cl->cap)
        cl->v = xrealloc(cl->v, sizeof *cl->v * (size_t)(cl->cap = cl->cap ? 2 * cl->cap : 64));
    cl->v[cl->n++] = (cand){.l = *l};
}

static int cand_cmp(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->sample.valid != b->sample.valid)
        return a->sample.valid ? -1 : 1;
    return whatif_rank(&a->l, &a->sample, &b->l, &b->sample);
}

/* Cost every candidate on a sample of the recording (every entry when it has at most
 * WHATIF_SAMPLE; else WHATIF_SAMPLE entries taken evenly), then check the best of them, and the
 * best of each kind, on every entry: only layouts checked on every entry are ranked. */
static void rank_candidates(const whatif_input *in, cand_list *cl, whatif_result *out)
{
    whatif_input sample = *in;
    banks_request *sub = NULL;
    if (in->ntrace > WHATIF_SAMPLE) {
        sub = xmalloc(sizeof *sub * WHATIF_SAMPLE);
        for (int64_t k = 0; k < WHATIF_SAMPLE; k++)
            sub[k] = in->trace[k * in->ntrace / WHATIF_SAMPLE];
        sample.trace = sub;
        sample.ntrace = WHATIF_SAMPLE;
        out->sample = WHATIF_SAMPLE;
    }
    for (int i = 0; i < cl->n; i++)
        whatif_evaluate(&sample, &cl->v[i].l, &cl->v[i].sample);
    out->tried = cl->n;
    if (!sub) { /* the sample is every entry: the costs are final */
        for (int i = 0; i < cl->n; i++)
            consider(out, &cl->v[i].l, &cl->v[i].sample);
        return;
    }
    qsort(cl->v, (size_t)cl->n, sizeof *cl->v, cand_cmp);
    bool kind_seen[4] = {false};
    for (int i = 0; i < cl->n; i++) {
        const cand *c = &cl->v[i];
        bool first_of_kind = c->sample.valid && !kind_seen[c->l.kind];
        if (c->sample.valid)
            kind_seen[c->l.kind] = true;
        if (i >= WHATIF_CONFIRM && !first_of_kind)
            continue;
        whatif_cost full;
        whatif_evaluate(in, &c->l, &full);
        out->checked++;
        consider(out, &c->l, &full);
    }
    free(sub);
}

void whatif_search(const whatif_input *in, int region, whatif_result *out)
{
    memset(out, 0, sizeof *out);
    out->region = region;
    if (region < 0 || region >= in->nregions)
        return;
    const whatif_region *r = &in->regions[region];
    whatif_layout l = {.kind = WHATIF_AS_IS, .region = region};
    whatif_evaluate(in, &l, &out->current);
    int64_t narrow, wide;
    widths(in, region, &narrow, &wide);
    out->elem = narrow;
    if (!narrow || out->current.wavefronts == out->current.ideal)
        return; /* nothing touches it, or nothing to gain */
    cand_list cl = {0};
    /* row padding */
    int64_t st[64];
    int ns = strides(in, region, st, 64);
    int64_t step = wide > 4 ? wide : 4;
    for (int64_t p = 2 * narrow; p <= r->bytes / 2 && out->npitches < 16; p += narrow) {
        if ((r->exact && r->bytes % p) || p % wide)
            continue;
        bool allowed = false;
        for (int j = 0; j < ns && !allowed; j++)
            allowed = st[j] >= p && st[j] % p == 0;
        if (!allowed)
            continue;
        out->pitches[out->npitches++] = p;
        for (int64_t pad = WHATIF_PAD_MIN; pad <= WHATIF_PAD_MAX; pad += 4) {
            if (pad % step)
                continue;
            l = (whatif_layout){
                .kind = WHATIF_PAD, .region = region, .pitch = p, .pad = (int)pad, .extra_bytes = r->bytes / p * pad};
            collect(&cl, &l);
        }
    }
    /* CuTe swizzles on byte offsets */
    int lu = log2_floor(wide), top = log2_floor(r->bytes);
    for (int b = 1; b <= 5; b++)
        for (int m = lu; m <= lu + 3; m++)
            for (int sh = b; m + sh + b <= top; sh++) {
                if (r->exact && r->bytes % ((int64_t)1 << (m + sh + b)))
                    continue; /* (a recorded window: an address moved past its end refutes it) */
                l = (whatif_layout){.kind = WHATIF_SWIZZLE, .region = region, .bits = b, .base = m, .shift = sh};
                collect(&cl, &l);
            }
    /* struct of arrays */
    l = (whatif_layout){.kind = WHATIF_SOA, .region = region};
    int64_t e = soa_shape(in, region, &l);
    if (e > 0) {
        l.elem = e;
        out->soa = true;
        out->soa_elem = e;
        /* the bytes no access reads stay together after the fields: no extra bytes */
        collect(&cl, &l);
    }
    rank_candidates(in, &cl, out);
    free(cl.v);
}

int whatif_conflicted_regions(const whatif_input *in, int *regions, int max)
{
    int64_t *bad = xcalloc((size_t)in->nregions + 1, sizeof *bad);
    for (int64_t i = 0; i < in->ntrace; i++) {
        banks_result res;
        banks_analyze(in->arch, &in->trace[i], &res, NULL);
        if (res.not_modelled || res.wavefronts == res.ideal_wavefronts)
            continue;
        for (int k = 0; k < BANKS_WARP; k++)
            if ((in->trace[i].active >> k) & 1) {
                int g = whatif_region_of(in->regions, in->nregions, in->trace[i].addr[k]);
                if (g >= 0) {
                    bad[g] += res.bank_conflicts;
                    break;
                }
            }
    }
    int m = 0;
    while (m < max) {
        int best = -1;
        for (int i = 0; i < in->nregions; i++)
            if (bad[i] > 0 && (best < 0 || bad[i] > bad[best]))
                best = i;
        if (best < 0)
            break;
        regions[m++] = best;
        bad[best] = 0;
    }
    free(bad);
    return m;
}
