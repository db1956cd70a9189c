/* whatif: remapping a recording's addresses to another layout of one region, and the cost of the
 * whole recording with it (whatif.h). */
#include "model/whatif.h"
#include <ctype.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/advisor.h"
#include "util.h"

int whatif_region_of(const whatif_region *r, int n, int64_t addr)
{
    for (int i = 0; i < n; i++)
        if (addr >= r[i].start && addr - r[i].start < r[i].bytes)
            return i;
    return -1;
}

/* Bytes the regions after l's region move by: its extra bytes, rounded up to 16 (the alignment
 * the compiler keeps between shared variables). */
static int64_t shift_after(const whatif_layout *l)
{
    return (l->extra_bytes + 15) / 16 * 16;
}

/* The field of an SoA layout holding struct offset o (and the byte offset of its array from the
 * region's start for n elements), or -1. Fields are laid out widest first, so each array stays
 * aligned to its width. */
static int soa_field(const whatif_layout *l, int64_t o, int64_t nelem, int64_t *array_off)
{
    int f = -1;
    for (int k = 0; k < l->nfields; k++)
        if (o >= l->field_off[k] && o < l->field_off[k] + l->field_width[k])
            f = k;
    if (f < 0)
        return -1;
    int64_t before = 0;
    for (int k = 0; k < l->nfields; k++)
        if (k != f && (l->field_width[k] > l->field_width[f] ||
                       (l->field_width[k] == l->field_width[f] && l->field_off[k] < l->field_off[f])))
            before += l->field_width[k];
    *array_off = before * nelem;
    return f;
}

bool whatif_remap(const whatif_input *in, const whatif_layout *l, int64_t addr, int width, int64_t *out, char *why,
                  size_t n)
{
    const whatif_region *r = &in->regions[l->region];
    *out = addr;
    if (l->kind == WHATIF_AS_IS)
        return true;
    if (addr < r->start || addr - r->start >= r->bytes) {
        if (addr >= r->start + r->bytes && l->extra_bytes)
            *out = addr + shift_after(l);
        return true;
    }
    int64_t rel = addr - r->start, nrel = rel;
    switch (l->kind) {
    case WHATIF_PAD: {
        int64_t row = rel / l->pitch, col = rel % l->pitch;
        if (col + width > l->pitch) {
            snprintf(why, n, "an access of %d bytes crosses a row of %lld bytes", width, (long long)l->pitch);
            return false;
        }
        nrel = row * (l->pitch + l->pad) + col;
        break;
    }
    case WHATIF_SWIZZLE: {
        int64_t mask = ((int64_t)1 << l->bits) - 1;
        nrel = rel ^ (((rel >> (l->base + l->shift)) & mask) << l->base);
        break;
    }
    case WHATIF_SOA: {
        int64_t elem = rel / l->elem, o = rel % l->elem, aoff = 0;
        int f = soa_field(l, o, r->bytes / l->elem, &aoff);
        if (f < 0 || o + width > l->field_off[f] + l->field_width[f]) {
            snprintf(why, n, "an access of %d bytes at offset %lld of the %lld-byte struct is not one field", width,
                     (long long)o, (long long)l->elem);
            return false;
        }
        nrel = aoff + elem * l->field_width[f] + (o - l->field_off[f]);
        break;
    }
    default: break;
    }
    if (nrel >= (r->exact ? r->bytes : r->bytes + (l->kind == WHATIF_PAD ? l->extra_bytes : 0)) &&
        l->kind != WHATIF_PAD) {
        snprintf(why, n, "offset %lld of %s would move past its end", (long long)rel, r->name);
        return false;
    }
    int64_t a = r->start + nrel;
    int align = width > 16 ? 16 : width;
    if (align > 0 && a % align) {
        snprintf(why, n, "an access of %d bytes becomes misaligned (offset %lld)", width, (long long)a);
        return false;
    }
    *out = a;
    return true;
}

bool whatif_remap_request(const whatif_input *in, const whatif_layout *l, const banks_request *req, banks_request *out,
                          char *why, size_t n)
{
    *out = *req;
    for (int k = 0; k < BANKS_WARP; k++)
        if ((req->active >> k) & 1) {
            char w[120];
            if (!whatif_remap(in, l, req->addr[k], req->width, &out->addr[k], w, sizeof w)) {
                snprintf(why, n, "%s (lane %d)", w, k);
                return false;
            }
        }
    return true;
}

/* Whether entry e has an active lane at or past the region's start (what a layout may move). */
static bool touches(const whatif_input *in, const whatif_layout *l, const banks_request *e, bool *inside)
{
    const whatif_region *r = &in->regions[l->region];
    bool moved = false;
    *inside = false;
    for (int k = 0; k < BANKS_WARP; k++)
        if ((e->active >> k) & 1) {
            if (e->addr[k] >= r->start && e->addr[k] - r->start < r->bytes)
                *inside = true;
            if (e->addr[k] >= r->start)
                moved = true;
        }
    return moved;
}

/* The regions' bytes: from the first region's start to the last one's end. */
static int64_t regions_bytes(const whatif_input *in)
{
    int64_t lo = INT64_MAX, hi = 0;
    for (int i = 0; i < in->nregions; i++) {
        if (in->regions[i].start < lo)
            lo = in->regions[i].start;
        if (in->regions[i].start + in->regions[i].bytes > hi)
            hi = in->regions[i].start + in->regions[i].bytes;
    }
    return hi > lo ? hi - lo : 0;
}

void whatif_evaluate(const whatif_input *in, const whatif_layout *l, whatif_cost *c)
{
    memset(c, 0, sizeof *c);
    c->valid = true;
    for (int64_t i = 0; i < in->ntrace; i++) {
        const banks_request *e = &in->trace[i];
        banks_request m;
        banks_result res;
        bool inside = false;
        if (l->kind != WHATIF_AS_IS && touches(in, l, e, &inside)) {
            char w[130];
            if (!whatif_remap_request(in, l, e, &m, w, sizeof w)) {
                snprintf(c->why, sizeof c->why, "%.120s, entry %lld", w, (long long)i);
                c->valid = false;
                return;
            }
            e = &m;
        } else if (l->kind == WHATIF_AS_IS) {
            touches(in, l, e, &inside);
        }
        c->touched += inside;
        banks_analyze(in->arch, e, &res, NULL);
        if (res.not_modelled)
            continue;
        c->wavefronts += res.wavefronts;
        c->ideal += res.ideal_wavefronts;
        if (res.conflict_degree > c->worst)
            c->worst = res.conflict_degree;
    }
    advisor_row row;
    memset(&row, 0, sizeof row);
    advisor_occupancy(in->arch, in->threads > 0 ? in->threads : 32, regions_bytes(in) + l->extra_bytes, &row);
    c->smem_bytes = row.smem_bytes;
    c->blocks_per_sm = row.blocks_per_sm;
    c->occupancy = row.occupancy;
}

int whatif_rank(const whatif_layout *a, const whatif_cost *ca, const whatif_layout *b, const whatif_cost *cb)
{
    if (ca->wavefronts != cb->wavefronts)
        return ca->wavefronts < cb->wavefronts ? -1 : 1;
    if (a->extra_bytes != b->extra_bytes)
        return a->extra_bytes < b->extra_bytes ? -1 : 1;
    if (ca->occupancy != cb->occupancy)
        return ca->occupancy > cb->occupancy ? -1 : 1;
    if (a->kind != b->kind) /* a swizzle before the SoA split before a padding: fewer edits */
        return a->kind == WHATIF_SWIZZLE ? -1 : b->kind == WHATIF_SWIZZLE ? 1 : a->kind == WHATIF_SOA ? -1 : 1;
    return 0;
}

static int log2_exact(int64_t v)
{
    if (v <= 0 || (v & (v - 1)) != 0)
        return -1;
    return __builtin_ctzll((uint64_t)v);
}

/* name when it is a C identifier, else "smem": what C text calls a region named by a description
 * ("recorded window", "static shared memory"). */
static const char *whatif_c_name(const char *name)
{
    bool ok = name && (isalpha((unsigned char)name[0]) || name[0] == '_');
    for (const char *p = name; ok && *p; p++)
        ok = isalnum((unsigned char)*p) || *p == '_';
    return ok ? name : "smem";
}

const char *whatif_layout_decl(const whatif_layout *l, const whatif_region *r, const char *elem_type, int64_t elem,
                               char *buf, size_t n)
{
    const char *t = elem_type ? elem_type : "T";
    switch (l->kind) {
    case WHATIF_PAD:
        if (elem > 0 && l->pitch % elem == 0 && l->pad % elem == 0 && r->bytes % l->pitch == 0)
            snprintf(buf, n, "__shared__ %s %s[%lld][%lld]", t, whatif_c_name(r->name),
                     (long long)(r->bytes / l->pitch), (long long)((l->pitch + l->pad) / elem));
        else
            snprintf(buf, n, "%s: rows of %lld bytes each followed by %d bytes", r->name, (long long)l->pitch, l->pad);
        break;
    case WHATIF_SWIZZLE: {
        int le = log2_exact(elem);
        int mask = (1 << l->bits) - 1;
        if (le >= 0 && l->base >= le) {
            int me = l->base - le;
            char ix[96];
            if (me)
                snprintf(ix, sizeof ix, "i ^ (((i >> %d) & %d) << %d)", me + l->shift, mask, me);
            else
                snprintf(ix, sizeof ix, "i ^ ((i >> %d) & %d)", l->shift, mask);
            snprintf(buf, n,
                     "Swizzle<%d,%d,%d> on the byte offsets of %s = CuTe Swizzle<%d,%d,%d> on its %lld-byte "
                     "elements: element i at %s",
                     l->bits, l->base, l->shift, r->name, l->bits, me, l->shift, (long long)elem, ix);
        } else {
            snprintf(buf, n, "Swizzle<%d,%d,%d> on the byte offsets of %s", l->bits, l->base, l->shift, r->name);
        }
        break;
    }
    case WHATIF_SOA: {
        int k = snprintf(buf, n, "struct of arrays: %s's %lld-byte elements split into %d arrays of %lld elements (",
                         r->name, (long long)l->elem, l->nfields, (long long)(r->bytes / l->elem));
        for (int f = 0; f < l->nfields && k > 0 && (size_t)k < n; f++)
            k += snprintf(buf + k, n - (size_t)k, "%sbytes %lld-%lld", f ? ", " : "", (long long)l->field_off[f],
                          (long long)(l->field_off[f] + l->field_width[f] - 1));
        if (k > 0 && (size_t)k < n)
            snprintf(buf + k, n - (size_t)k, ")");
        break;
    }
    default: snprintf(buf, n, "%s as recorded", r->name);
    }
    return buf;
}

const char *whatif_swizzle_2d(const whatif_layout *l, const char *name, int64_t elem, int64_t pitch, char *buf,
                              size_t n)
{
    int le = log2_exact(elem), k = log2_exact(elem > 0 ? pitch / elem : 0);
    if (l->kind != WHATIF_SWIZZLE || le < 0 || k < 0 || pitch % elem || l->base < le)
        return NULL;
    char col[96]; /* the source bits lie in r and the target bits in c */
    if (!advisor_swizzle_col_text(l->base - le, l->bits, l->shift, k, col, sizeof col))
        return NULL;
    snprintf(buf, n, "%s[r][%s] (rows of %lld elements)", whatif_c_name(name), col, (long long)(pitch / elem));
    return buf;
}

const char *whatif_layout_short(const whatif_layout *l, const whatif_region *r, char *buf, size_t n)
{
    switch (l->kind) {
    case WHATIF_PAD: snprintf(buf, n, "%s rows %lld+%d B", r->name, (long long)l->pitch, l->pad); break;
    case WHATIF_SWIZZLE: snprintf(buf, n, "%s Swizzle<%d,%d,%d>", r->name, l->bits, l->base, l->shift); break;
    case WHATIF_SOA: snprintf(buf, n, "%s as struct of arrays", r->name); break;
    default: snprintf(buf, n, "%s as recorded", r->name);
    }
    return buf;
}

/* Whether two locations name the same line. */
static bool same_line(const scenario_srcloc *a, const scenario_srcloc *b)
{
    if (a->line != b->line)
        return false;
    if (!a->file || !b->file)
        return a->file == b->file;
    return strcmp(a->file, b->file) == 0;
}

int whatif_lines(const whatif_input *in, const scenario_srcloc *at, const whatif_layout *l, whatif_line **out)
{
    static const scenario_srcloc none = {0};
    whatif_line *v = NULL;
    int n = 0, cap = 0;
    const scenario_srcloc **key = NULL;
    for (int64_t i = 0; i < in->ntrace; i++) {
        const scenario_srcloc *loc = at ? &at[i] : &none;
        int k = n - 1; /* entries of one line mostly come together */
        if (k < 0 || !same_line(key[k], loc))
            for (k = 0; k < n && !same_line(key[k], loc); k++)
                ;
        if (k == n) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                v = xrealloc(v, sizeof *v * (size_t)cap);
                key = xrealloc(key, sizeof *key * (size_t)cap);
            }
            key[n] = loc;
            v[n++] = (whatif_line){.file = loc->file, .text = loc->text, .line = loc->line};
        }
        banks_result r;
        banks_analyze(in->arch, &in->trace[i], &r, NULL);
        if (r.not_modelled)
            continue;
        v[k].instructions++;
        v[k].before += r.wavefronts;
        v[k].before_ideal += r.ideal_wavefronts;
        banks_request m = in->trace[i];
        char why[160];
        if (l && !whatif_remap_request(in, l, &in->trace[i], &m, why, sizeof why)) {
            free(v);
            free(key);
            *out = NULL;
            return -1;
        }
        banks_analyze(in->arch, &m, &r, NULL);
        v[k].after += r.wavefronts;
        v[k].after_ideal += r.ideal_wavefronts;
    }
    free(key);
    *out = v;
    return n;
}
