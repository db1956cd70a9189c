/* explain: the textbook explanation of a warp-instruction (see explain.h for the contract).
 *
 * Which lanes share a bank word or wait behind others is read from the bank engine's own grid
 * (banks_analyze with cells), so the explanation can never disagree with the numbers `analyze`
 * prints; the stride and gcd reasoning is a claim checked against the engine's result before it
 * is printed. */
#include "explain.h"
#include "kinds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Take sb's text as the next line of e; control characters (which expression text could carry
 * as whitespace) become spaces, so a line never moves a terminal's cursor. */
static void push_line(explain_lines *e, strbuf *sb)
{
    char *text = strbuf_take(sb);
    for (unsigned char *c = (unsigned char *)text; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            *c = ' ';
    e->line = xrealloc(e->line, sizeof *e->line * (size_t)(e->n + 1));
    e->line[e->n++] = text;
}

/* Append one formatted line to e. */
static void add_line(explain_lines *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_line(explain_lines *e, const char *fmt, ...)
{
    strbuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    strbuf_vaddf(&sb, fmt, ap);
    va_end(ap);
    push_line(e, &sb);
}

void explain_lines_free(explain_lines *e)
{
    for (int i = 0; i < e->n; i++)
        free(e->line[i]);
    free(e->line);
    e->line = NULL;
    e->n = 0;
}

static int popcount32(uint32_t m)
{
    return __builtin_popcount(m);
}

/* Lanes of mask as ranges: "0-4, 6, 8-31" ("none" when empty). */
static void lanes_text(uint32_t mask, strbuf *sb)
{
    if (!mask) {
        strbuf_addf(sb, "none");
        return;
    }
    bool first = true;
    for (int l = 0; l < BANKS_WARP; l++) {
        if (!(mask >> l & 1u))
            continue;
        int e = l;
        while (e + 1 < BANKS_WARP && (mask >> (e + 1) & 1u))
            e++;
        strbuf_addf(sb, first ? "" : ", ");
        first = false;
        if (e == l)
            strbuf_addf(sb, "%d", l);
        else
            strbuf_addf(sb, "%d-%d", l, e);
        l = e;
    }
}

/* "lane 3" or "lanes 0-4, 6" for mask. */
static void lanes_phrase(uint32_t mask, strbuf *sb)
{
    strbuf_addf(sb, popcount32(mask) == 1 ? "lane " : "lanes ");
    lanes_text(mask, sb);
}

/* The greatest common divisor of |a| and |b| (0 and 0 give 0). */
static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0)
        a = -a;
    if (b < 0)
        b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The bytes one served part of a lane's access covers: the whole access, or on profiles that
 * split wide accesses into 32-bit requests (cc 1.x) one bank word of it (as banks_analyze does). */
static int part_width(const banks_profile *p, int width)
{
    return p->split_wide && width > p->bank_bytes ? p->bank_bytes : width;
}

/* The engine's grid for in (rows x banks), freshly computed; free() it. */
static banks_cell *grid_of(const banks_profile *p, const scenario_instr *in)
{
    banks_cell *cells = xcalloc((size_t)BANKS_MAX_ROWS * (size_t)p->banks, sizeof *cells);
    banks_result chk;
    banks_analyze(p, &in->req, &chk, cells);
    return cells;
}

/* Last row (exclusive) of phase ph that the grid holds. */
static int phase_end(const banks_phase *ph)
{
    int end = ph->first_row + ph->wavefronts;
    return end > BANKS_MAX_ROWS ? BANKS_MAX_ROWS : end;
}

/* Bank word that lane l's part sub places on bank b, or -1 when it touches no word of b. */
static int64_t word_on_bank(const banks_profile *p, const banks_request *req, int sub, int l, int b)
{
    int w = part_width(p, req->width);
    int64_t a = req->addr[l] + (int64_t)sub * w;
    for (int64_t bw = a / p->bank_bytes; bw <= (a + w - 1) / p->bank_bytes; bw++)
        if (bw % p->banks == b)
            return bw;
    return -1;
}

/* Name of the array element type, e.g. "float" or "struct Vec3". */
static void elem_type_text(const scenario *s, const scenario_array *arr, strbuf *sb)
{
    strbuf_addf(sb, "%s%s", arr->type.struct_index >= 0 ? "struct " : "", types_name(&s->types, &arr->type));
}

/* The index arithmetic of a scenario lane: "address = 0 + 1 * 128 + 0 * 4 = 128 B" and the line
 * saying where the numbers come from. */
static void address_lines(const scenario *s, const scenario_instr *in, const scenario_lane *ln, explain_lines *e)
{
    const scenario_access *a = &s->accesses[in->access];
    const scenario_array *arr = &s->arrays[a->array];
    int64_t mult[SCENARIO_MAX_DIMS];
    int64_t m = arr->elem_size;
    for (int d = arr->ndims - 1; d >= 0; d--) {
        mult[d] = m;
        m *= arr->extent[d];
    }
    strbuf sb = {0};
    bool swz = arr->swz_bits != 0; /* then: offset, its swizzle, address = start + swizzled offset */
    if (swz)
        strbuf_addf(&sb, "offset = ");
    else
        strbuf_addf(&sb, "address = %lld + ", (long long)arr->start);
    for (int d = 0; d < a->nidx; d++)
        strbuf_addf(&sb, "%s%lld * %lld", d ? " + " : "", (long long)ln->index[d], (long long)mult[d]);
    if (a->field)
        strbuf_addf(&sb, " + %d", a->offset);
    int64_t off = scenario_lane_offset(s, in->access, ln);
    strbuf_addf(&sb, " = %lld B", (long long)(swz ? off : ln->address));
    push_line(e, &sb);
    if (swz) {
        scenario_swizzle_step(arr, off, &sb);
        push_line(e, &sb);
        strbuf_addf(&sb, "address = %lld + %lld = %lld B", (long long)arr->start,
                    (long long)scenario_swizzle_offset(arr, off), (long long)ln->address);
        push_line(e, &sb);
    }

    strbuf_addf(&sb, "(%s starts at byte %lld", arr->name, (long long)arr->start);
    static const char *const what[] = {"rows", "planes"};
    for (int d = arr->ndims - 2; d >= 0; d--) {
        int k = arr->ndims - 2 - d;
        int64_t elems = mult[d] / arr->elem_size;
        strbuf_addf(&sb, "; %s are %lld ", k < 2 ? what[k] : "blocks", (long long)elems);
        elem_type_text(s, arr, &sb);
        strbuf_addf(&sb, "%s = %lld B apart", elems == 1 ? "" : "s", (long long)mult[d]);
        if (arr->pad[d + 1] && d == arr->ndims - 2)
            strbuf_addf(&sb, " (%lld + %lld padding)", (long long)arr->dims[d + 1], (long long)arr->pad[d + 1]);
    }
    strbuf_addf(&sb, "; one ");
    elem_type_text(s, arr, &sb);
    strbuf_addf(&sb, " is %lld B", (long long)arr->elem_size);
    if (a->field)
        strbuf_addf(&sb, "; field %s is at offset %d", a->field, a->offset);
    strbuf_addf(&sb, ")");
    push_line(e, &sb);
}

/* "word 128 / 4 = 32 -> bank 32 mod 32 = 0 -> phase 0, wavefront 1" with the span of wide
 * accesses: the line whose numbers the tests check against the engine. */
static void arithmetic_line(const banks_profile *p, const scenario_instr *in, const banks_result *r, int l,
                            explain_lines *e)
{
    int64_t addr = in->req.addr[l], word = banks_word_of(p, addr);
    strbuf sb = {0};
    strbuf_addf(&sb, "address %lld B -> word %lld / %d = %lld -> bank %lld mod %d = %d -> phase %d, wavefront %d",
                (long long)addr, (long long)addr, p->bank_bytes, (long long)word, (long long)word, p->banks,
                banks_bank_of(p, addr), r->lane[l].phase, r->lane[l].wavefront);
    int64_t last = banks_word_of(p, addr + in->req.width - 1);
    if (last != word)
        strbuf_addf(&sb, "; its %d bytes cover words %lld-%lld, banks %d-%d", in->req.width, (long long)word,
                    (long long)last, banks_bank_of(p, addr), banks_bank_of(p, addr + in->req.width - 1));
    push_line(e, &sb);
}

/* Who else a served lane meets in its phase: lanes sharing its words, lanes waiting on its banks. */
static void peers_lines(const banks_profile *p, const scenario_instr *in, const banks_result *r, int l,
                        explain_lines *e)
{
    int pi = r->lane[l].phase;
    const banks_phase *ph = &r->phase[pi];
    banks_cell *cells = grid_of(p, in);
    int end = phase_end(ph);
    uint32_t same = 0, slot = 0, waiting = 0;
    int worst_bank = -1, worst_rows = 0;
    strbuf sb = {0};
    strbuf_addf(&sb, "phase %d of %d serves ", pi, r->nphases);
    lanes_phrase(ph->lanes, &sb);
    if (p->split_wide && in->req.width > p->bank_bytes)
        strbuf_addf(&sb, " (bytes %d-%d of each access)", ph->sub * p->bank_bytes,
                    ph->sub * p->bank_bytes + p->bank_bytes - 1);
    if (ph->wavefronts == 1)
        strbuf_addf(&sb, " in wavefront %d", ph->first_row);
    else
        strbuf_addf(&sb, " in wavefronts %d-%d", ph->first_row, ph->first_row + ph->wavefronts - 1);
    push_line(e, &sb);
    for (int b = 0; b < p->banks; b++) {
        int64_t mine = word_on_bank(p, &in->req, ph->sub, l, b);
        if (mine < 0)
            continue;
        int rows = 0;
        for (int row = ph->first_row; row < end; row++) {
            const banks_cell *c = &cells[row * p->banks + b];
            if (!c->lanes)
                continue;
            rows++;
            if (!(c->lanes >> l & 1u)) {
                waiting |= c->lanes;
                continue;
            }
            for (int k = 0; k < BANKS_WARP; k++) {
                if (k == l || !(c->lanes >> k & 1u))
                    continue;
                if (word_on_bank(p, &in->req, ph->sub, k, b) == mine)
                    same |= 1u << k;
                else
                    slot |= 1u << k;
            }
        }
        if (rows > worst_rows) {
            worst_rows = rows;
            worst_bank = b;
        }
    }
    free(cells);
    same &= ~waiting;
    if (same) {
        lanes_phrase(same, &sb);
        strbuf_addf(&sb, " read%s the same word as this lane: %s, no extra wavefront", popcount32(same) == 1 ? "s" : "",
                    kinds_of(in->req.op)->reads   ? "one bank read serves them all (broadcast)"
                    : kinds_of(in->req.op)->merge ? kinds_of(in->req.op)->merge
                                                  : "the writes merge (one lane's value wins)");
        push_line(e, &sb);
    }
    if (slot) {
        lanes_phrase(slot, &sb);
        strbuf_addf(&sb,
                    " read%s another word of the same %d-word segment, which shares the bank slot "
                    "(%s): served together",
                    popcount32(slot) == 1 ? "s" : "", p->banks * p->same_slot_words, p->name);
        push_line(e, &sb);
    }
    if (waiting) {
        strbuf_addf(&sb, "conflict: bank %d serves %d different words in phase %d, one per wavefront; ", worst_bank,
                    worst_rows, pi);
        lanes_phrase(waiting, &sb);
        strbuf_addf(&sb, " read%s other words of %s bank%s in this phase, so this lane is served in wavefront %d",
                    popcount32(waiting) == 1 ? "s" : "", in->req.width > p->bank_bytes ? "its" : "this",
                    in->req.width > p->bank_bytes ? "s" : "", r->lane[l].wavefront);
        push_line(e, &sb);
    } else {
        add_line(e, "no other lane of phase %d reads a different word of %s bank%s: no conflict for this lane", pi,
                 in->req.width > p->bank_bytes ? "its" : "this", in->req.width > p->bank_bytes ? "s" : "");
    }
}

/* Why lane ln of a scenario instruction was left out or takes no part. */
static void excluded_lane_lines(const scenario *s, const scenario_instr *in, const scenario_lane *ln, int l,
                                explain_lines *e)
{
    const scenario_access *a = &s->accesses[in->access];
    const scenario_array *arr = &s->arrays[a->array];
    strbuf sb = {0};
    switch (ln->state) {
    case SCENARIO_LANE_MASKED:
        if (a->when_text)
            add_line(e, "'when %s' is false for this thread: lane %d takes no part in this access", a->when_text, l);
        else
            add_line(e, "this instruction does not use lane %d's address: it takes no part", l);
        break;
    case SCENARIO_LANE_EVAL_ERROR: {
        const char *text = ln->bad_dim < 0 ? a->when_text : a->index_text[ln->bad_dim];
        if (ln->bad_dim < 0)
            strbuf_addf(&sb, "expression error: 'when %s'", text);
        else
            strbuf_addf(&sb, "expression error: index %d '%s'", ln->bad_dim, text);
        strbuf_addf(&sb, " fails with %s at offset %d", expr_status_text(ln->eval), ln->eval_pos);
        if (text && ln->eval_pos >= 0 && (size_t)ln->eval_pos < strlen(text))
            strbuf_addf(&sb, " ('%c')", text[ln->eval_pos]);
        strbuf_addf(&sb, " for this thread: lane %d is left out of the analysis", l);
        push_line(e, &sb);
        break;
    }
    case SCENARIO_LANE_OOB: {
        int d = ln->bad_dim;
        if (scenario_lane_past_end(s, in->access, ln)) {
            add_line(e,
                     "out of bounds: the %d-byte %s read at this element reaches past the end of %s (%lld B): "
                     "lane %d is left out of the analysis",
                     a->width, a->type_text, arr->name, (long long)arr->bytes, l);
            break;
        }
        add_line(e,
                 "out of bounds: index %d ('%s') = %lld, but %s has %lld %s (0..%lld) in dimension %d: "
                 "lane %d is left out of the analysis",
                 d, a->index_text[d], (long long)ln->index[d], arr->name, (long long)arr->extent[d],
                 d == arr->ndims - 1 ? "elements" : "rows", (long long)(arr->extent[d] - 1), d, l);
        break;
    }
    case SCENARIO_LANE_MISALIGNED:
        address_lines(s, in, ln, e);
        add_line(e,
                 "misaligned: %lld mod %d = %lld; a %s access needs %d-byte alignment, so the hardware would "
                 "fault (misaligned address): lane %d is left out of the analysis",
                 (long long)ln->address, a->align, (long long)(ln->address % a->align), a->type_text, a->align, l);
        break;
    default: break;
    }
}

void explain_lane(const scenario *s, const scenario_instr *in, const banks_result *r, int lane, explain_lines *out)
{
    const banks_profile *p = s->arch;
    *out = (explain_lines){0};
    if (lane < 0 || lane >= BANKS_WARP) {
        add_line(out, "no lane %d: a warp has %d lanes", lane, BANKS_WARP);
        return;
    }
    const scenario_lane *ln = &in->lane[lane];
    bool served = (in->req.active >> lane & 1u) && r->lane[lane].phase >= 0;
    if (r->not_modelled) {
        char kt[32];
        add_line(out, "lane %d: %s: not modelled (%s)", lane, scenario_kind_text(&in->req, kt, sizeof kt),
                 kinds_of(in->req.op)->not_modelled);
        return;
    }
    if (in->access < 0) {
        if (!served) {
            add_line(out, "lane %d is inactive in this trace entry: it takes no part", lane);
            return;
        }
        add_line(out, "lane %d: %s of %d B at byte %lld (trace entry %lld)", lane, scenario_op_text(in->req.op),
                 in->req.width, (long long)in->req.addr[lane], (long long)in->seq);
        arithmetic_line(p, in, r, lane, out);
        peers_lines(p, in, r, lane, out);
        return;
    }
    const scenario_access *a = &s->accesses[in->access];
    if (ln->state == SCENARIO_LANE_NO_THREAD) {
        add_line(out, "lane %d of warp %d would be thread %d, but the block has only %d threads: no thread", lane,
                 in->warp, ln->tid, scenario_threads(s));
        return;
    }
    strbuf sb = {0};
    strbuf_addf(&sb, "lane %d = thread (%d,%d,%d): %s ", lane, ln->tx, ln->ty, ln->tz, scenario_op_text(in->req.op));
    if (ln->state == SCENARIO_LANE_OK || ln->state == SCENARIO_LANE_MISALIGNED || ln->state == SCENARIO_LANE_OOB)
        scenario_lane_element(s, in->access, ln, &sb);
    else
        strbuf_addf(&sb, "%s", s->arrays[a->array].name);
    strbuf_addf(&sb, "%s%s (%d B)", a->vector ? " as " : ", a ", a->type_text, a->width);
    push_line(out, &sb);
    if (ln->state != SCENARIO_LANE_OK || !served) {
        excluded_lane_lines(s, in, ln, lane, out);
        return;
    }
    address_lines(s, in, ln, out);
    arithmetic_line(p, in, r, lane, out);
    peers_lines(p, in, r, lane, out);
}

/* Number of distinct banks the grid uses in the rows of phase ph. */
static int phase_banks(const banks_profile *p, const banks_cell *cells, const banks_phase *ph)
{
    int n = 0;
    for (int b = 0; b < p->banks; b++)
        for (int row = ph->first_row; row < phase_end(ph); row++)
            if (cells[row * p->banks + b].lanes) {
                n++;
                break;
            }
    return n;
}

/* The stride s of an affine lane -> address map over the active lanes (address = base + s * lane);
 * false when the map is not affine or fewer than two lanes are active. */
static bool affine_stride(const banks_request *req, int64_t *stride)
{
    int l0 = -1, l1 = -1;
    for (int l = 0; l < BANKS_WARP; l++)
        if (req->active >> l & 1u) {
            if (l0 < 0)
                l0 = l;
            else if (l1 < 0)
                l1 = l;
        }
    if (l1 < 0)
        return false;
    int64_t diff = req->addr[l1] - req->addr[l0];
    if (diff % (l1 - l0) != 0)
        return false;
    *stride = diff / (l1 - l0);
    for (int l = 0; l < BANKS_WARP; l++)
        if ((req->active >> l & 1u) && req->addr[l] != req->addr[l0] + *stride * (l - l0))
            return false;
    return true;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* True when every phase with an active lane has exactly the banks and degree that lanes spread
 * evenly over `spots` places of `k` banks each predict (the gcd claim). */
static bool claim_holds(const banks_profile *p, const banks_request *req, const banks_result *r,
                        const banks_cell *cells, int64_t spots, int k)
{
    for (int i = 0; i < r->nphases; i++) {
        const banks_phase *ph = &r->phase[i];
        int n = popcount32(ph->lanes & req->active);
        if (n == 0)
            continue;
        int64_t used = n < spots ? n : spots;
        if (phase_banks(p, cells, ph) != used * k || ph->degree != ceil_div(n, spots))
            return false;
    }
    return true;
}

/* Most active lanes any phase has. */
static int phase_lanes_max(const banks_request *req, const banks_result *r)
{
    int best = 0;
    for (int i = 0; i < r->nphases; i++) {
        int n = popcount32(r->phase[i].lanes & req->active);
        if (n > best)
            best = n;
    }
    return best;
}

/* (a) The stride and gcd reasoning when the address is affine in the lane, printed only where
 * the engine's result confirms it. */
static void stride_lines(const banks_profile *p, const scenario_instr *in, const banks_result *r,
                         const banks_cell *cells, explain_lines *e)
{
    int64_t st;
    if (!affine_stride(&in->req, &st))
        return;
    int first = __builtin_ctz(in->req.active);
    if (st == 0) {
        add_line(e, "all %d active lanes %s the same address (%lld B): one bank word, %s", r->active_lanes,
                 kinds_of(in->req.op)->reads ? "read" : "write", (long long)in->req.addr[first],
                 kinds_of(in->req.op)->reads   ? "sent to every lane at once (broadcast)"
                 : kinds_of(in->req.op)->merge ? kinds_of(in->req.op)->merge
                                               : "one write (one lane's value wins)");
        return;
    }
    int64_t S = st < 0 ? -st : st;
    int pw = part_width(p, in->req.width);
    int k = pw > p->bank_bytes ? pw / p->bank_bytes : 1;
    int n = phase_lanes_max(&in->req, r);
    strbuf sb = {0};
    strbuf_addf(&sb, "consecutive lanes are %lld B", (long long)S);
    if (S % p->bank_bytes != 0) {
        int64_t row = (int64_t)p->banks * p->bank_bytes;
        strbuf_addf(&sb,
                    " apart, not a whole number of %d-byte bank words; %lld mod %lld = %lld, so each lane lands "
                    "%lld B further along the %lld B that the %d banks cover",
                    p->bank_bytes, (long long)S, (long long)row, (long long)(S % row), (long long)(S % row),
                    (long long)row, p->banks);
        push_line(e, &sb);
        return;
    }
    int64_t W = S / p->bank_bytes;
    strbuf_addf(&sb, " = %lld word%s apart", (long long)W, W == 1 ? "" : "s");
    if (k > 1 && W % k != 0) {
        strbuf_addf(&sb, ", not a multiple of the %d words each lane reads", k);
        push_line(e, &sb);
        return;
    }
    int64_t groups = p->banks / k, step = W / k, g = gcd64(step, groups), spots = groups / g;
    if (!claim_holds(p, &in->req, r, cells, spots, k)) {
        strbuf_addf(&sb, "; here the stride alone does not decide the conflict (");
        if (p->same_slot_words > 1)
            strbuf_addf(&sb, "on %s words w and w+%d share a bank slot", p->name, p->banks);
        else if (p->single_broadcast)
            strbuf_addf(&sb, "%s serves one broadcast word per step", p->name);
        else
            strbuf_addf(&sb, "not every lane of a phase takes part");
        strbuf_addf(&sb, ")");
        push_line(e, &sb);
        return;
    }
    int used = (int)(n < spots ? n : spots), deg = (int)ceil_div(n, spots);
    if (k > 1)
        strbuf_addf(&sb,
                    "; each lane reads %d words, so the %d banks work as %lld groups of %d, and lanes are "
                    "%lld group%s apart; gcd(%lld, %lld) = %lld",
                    k, p->banks, (long long)groups, k, (long long)step, step == 1 ? "" : "s", (long long)step,
                    (long long)groups, (long long)g);
    else
        strbuf_addf(&sb, "; gcd(%lld, %d) = %lld", (long long)W, p->banks, (long long)g);
    strbuf_addf(&sb, " -> the %d lanes of a phase fall on ", n);
    if (n >= spots)
        strbuf_addf(&sb, "%lld/%lld = ", (long long)groups, (long long)g);
    strbuf_addf(&sb, "%d %s%s", used, k > 1 ? "group" : "bank", used == 1 ? "" : "s");
    if (deg > 1)
        strbuf_addf(&sb, ", %d different words on %s: %d-way", deg, used == 1 ? "it" : "each", deg);
    else
        strbuf_addf(&sb, ", one lane each: conflict-free");
    push_line(e, &sb);
}

/* The bank that forced the conflict degree: which lanes and words it serves in its phase. */
static void worst_bank_line(const banks_profile *p, const banks_result *r, const banks_cell *cells, explain_lines *e)
{
    if (r->conflict_degree < 2)
        return;
    for (int i = 0; i < r->nphases; i++) {
        const banks_phase *ph = &r->phase[i];
        if (ph->degree != r->conflict_degree)
            continue;
        int best = -1, best_rows = 0;
        for (int b = 0; b < p->banks; b++) {
            int rows = 0;
            for (int row = ph->first_row; row < phase_end(ph); row++)
                rows += cells[row * p->banks + b].lanes != 0;
            if (rows > best_rows) {
                best_rows = rows;
                best = b;
            }
        }
        strbuf sb = {0}, words = {0};
        uint32_t lanes = 0;
        int shown = 0;
        for (int row = ph->first_row; row < phase_end(ph); row++) {
            const banks_cell *c = &cells[row * p->banks + best];
            if (!c->lanes)
                continue;
            lanes |= c->lanes;
            if (shown < 4)
                strbuf_addf(&words, "%s%lld", shown ? ", " : "", (long long)c->word);
            else if (shown == 4)
                strbuf_addf(&words, ", ...");
            shown++;
        }
        /* Kepler's 4-byte mode: two words of one segment share a slot, so count slots, not words */
        bool slots = p->same_slot_words > 1;
        strbuf_addf(&sb, "worst: bank %d in phase %d serves %d different %s", best, i, best_rows,
                    slots ? "slots" : "words");
        if (slots)
            strbuf_addf(&sb, " (the words of one %d-word segment share a slot)", p->banks * p->same_slot_words);
        else
            strbuf_addf(&sb, " (%s)", strbuf_str(&words));
        strbuf_free(&words);
        strbuf_addf(&sb, " to ");
        lanes_phrase(lanes, &sb);
        strbuf_addf(&sb, ", one %s per wavefront: the phase takes %d wavefronts instead of 1", slots ? "slot" : "word",
                    ph->wavefronts);
        push_line(e, &sb);
        return;
    }
}

/* Which lane pairing (1: n^1, 2: n^2) the sm_90 rule found, as banks_analyze checks it. */
static int pairing_mask(const banks_request *req)
{
    for (int mask = 1; mask <= 2; mask++) {
        bool ok = true;
        for (int l = 0; l < BANKS_WARP && ok; l++) {
            int m = l ^ mask;
            uint32_t both = (1u << l) | (1u << m);
            ok = (req->active & both) != both || req->addr[l] == req->addr[m];
        }
        if (ok)
            return mask;
    }
    return 0;
}

static const char *group_name(int lanes)
{
    switch (lanes) {
    case 32: return "whole warp";
    case 16: return "half-warps";
    case 8: return "quarter-warps";
    case 4: return "eighth-warps";
    default: return "lane groups";
    }
}

void explain_phases_text(const banks_result *r, bool brief, char *buf, size_t n)
{
    int per = r->nphases > 0 ? popcount32(r->phase[0].lanes) : BANKS_WARP; /* every phase has as many */
    snprintf(buf, n, "%d phase%s of %d lanes%s%s%s", r->nphases, r->nphases == 1 ? "" : "s", per, brief ? "" : " (",
             brief ? "" : group_name(per), brief ? "" : ")");
}

/* (b), (c) How the request is split into phases, pairing, and the ideal it implies. The phases
 * the model served are said by explain_phases_text, as the grid's footer says them; with load
 * pairing the count before it comes first. */
static void phase_lines(const banks_profile *p, const scenario_instr *in, const banks_result *r, explain_lines *e)
{
    int w = in->req.width, pw = part_width(p, w), nsub = w / pw;
    int per = p->wavefront_bytes / pw;
    if (per > p->request_lanes)
        per = p->request_lanes;
    int phases = nsub * (BANKS_WARP / per); /* before pairing */
    char served[128], before[128], phases_text[80];
    explain_phases_text(r, false, phases_text, sizeof phases_text);
    snprintf(served, sizeof served, "the warp is served in %s", phases_text);
    snprintf(before, sizeof before, "%s %d phases of %d lanes (%s)",
             r->paired ? "without load pairing the warp would take" : "the warp is served in", phases, per,
             group_name(per));
    if (phases > 1 || r->paired) {
        if (nsub > 1)
            add_line(e, "%s issues each %d-byte access as %d separate %d-byte requests: %s", p->name, w, nsub, pw,
                     r->paired ? before : served);
        else if (per < p->request_lanes || p->request_lanes == BANKS_WARP)
            add_line(e, "one wavefront carries at most %d B; %d lanes x %d B = %d B, so %s", p->wavefront_bytes,
                     BANKS_WARP, w, BANKS_WARP * w, r->paired ? before : served);
        else
            add_line(e, "%s: %s", p->name, r->paired ? before : served);
    }
    int mask = r->paired ? pairing_mask(&in->req) : 0;
    if (r->paired && mask) {
        int second = mask == 1 ? 2 : 1;
        /* say what made the pairing hold: partners that share an address, or partners left out
         * (the rule pairs a lane whose partner does not take part with anything) */
        int shared = 0, alone = 0;
        for (int l = 0; l < BANKS_WARP; l++) {
            bool act = (in->req.active >> l) & 1, partner = (in->req.active >> (l ^ mask)) & 1;
            shared += act && partner;
            alone += act && !partner;
        }
        char why[200];
        if (alone == 0)
            snprintf(why, sizeof why,
                     "every active lane reads the same address as lane n^%d (lanes 0 and %d, %d and %d, ...)", mask,
                     mask, second, second ^ mask);
        else if (shared == 0)
            snprintf(why, sizeof why,
                     "no two partner lanes n and n^%d both take part: the partner of each of the %d active lanes is "
                     "left out, and a lane whose partner does not take part pairs with anything",
                     mask, alone);
        else
            snprintf(why, sizeof why,
                     "%d active lanes read the same address as their partner n^%d, and the partners of the other "
                     "%d are left out (such a lane pairs with anything)",
                     shared, mask, alone);
        add_line(e, "%s load pairing: %s, so two phases merge into one: %s", p->name, why, served);
    }
    if (r->active_lanes == 0 || (r->nphases <= 1 && !r->paired))
        return;
    if (r->ideal_wavefronts < r->nphases)
        add_line(e, "only %d of the %d phases have an active lane: the ideal is %d wavefront%s", r->ideal_wavefronts,
                 r->nphases, r->ideal_wavefronts, r->ideal_wavefronts == 1 ? "" : "s");
    else
        add_line(e, "the ideal is %d wavefront%s, one per phase; conflicts are counted within a phase",
                 r->ideal_wavefronts, r->ideal_wavefronts == 1 ? "" : "s");
}

/* (c) broadcast lanes. */
static void broadcast_line(const scenario_instr *in, const banks_result *r, explain_lines *e)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        if (r->lane[l].broadcast)
            m |= 1u << l;
    if (!m)
        return;
    strbuf sb = {0};
    lanes_phrase(m, &sb);
    strbuf_addf(&sb, " (%d) %s a word an earlier lane of the same phase %s: %s, no extra wavefront", popcount32(m),
                kinds_of(in->req.op)->reads ? "read" : "write", kinds_of(in->req.op)->reads ? "reads" : "writes",
                kinds_of(in->req.op)->reads   ? "broadcast"
                : kinds_of(in->req.op)->merge ? kinds_of(in->req.op)->merge
                                              : "the writes merge (one lane's value wins)");
    push_line(e, &sb);
}

/* (d) the cycles-per-phase rule. */
static void cycles_line(const banks_profile *p, const scenario_instr *in, const banks_result *r, explain_lines *e)
{
    int cycles = (int)banks_issue_cycles(p, &in->req, r, true);
    if (cycles <= r->wavefronts)
        return;
    add_line(e,
             "on %s a %s takes at least one cycle per phase of its request, empty phases included: %d phases -> "
             "%d cycles for %d wavefront%s",
             p->name, kinds_of(in->req.op)->reads ? "load" : "store of register data", r->nphases, cycles,
             r->wavefronts, r->wavefronts == 1 ? "" : "s");
}

/* Mask of the lanes of in in state st. */
static uint32_t state_mask(const scenario_instr *in, scenario_lane_state st)
{
    uint32_t m = 0;
    for (int l = 0; l < BANKS_WARP; l++)
        if (in->lane[l].state == st)
            m |= 1u << l;
    return m;
}

/* (e) lanes left out, with counts and reasons, and lanes that take no part. */
static void excluded_lines(const scenario *s, const scenario_instr *in, explain_lines *e)
{
    strbuf sb = {0};
    uint32_t m = state_mask(in, SCENARIO_LANE_MISALIGNED);
    const scenario_access *a = in->access >= 0 ? &s->accesses[in->access] : NULL;
    if (m && a) {
        int l = __builtin_ctz(m);
        const scenario_lane *ln = &in->lane[l];
        strbuf_addf(&sb,
                    "%d of %d lanes misaligned (%s needs %d-byte alignment; lane %d at %lld B: %lld mod %d = %lld): ",
                    popcount32(m), scenario_instr_threads(in), a->type_text, a->align, l, (long long)ln->address,
                    (long long)ln->address, a->align, (long long)(ln->address % a->align));
        lanes_phrase(m, &sb);
        strbuf_addf(&sb, "; this access would fault");
        push_line(e, &sb);
    }
    m = state_mask(in, SCENARIO_LANE_OOB);
    if (m && a) {
        int l = __builtin_ctz(m), d = in->lane[l].bad_dim;
        const scenario_array *arr = &s->arrays[a->array];
        if (scenario_lane_past_end(s, in->access, &in->lane[l]))
            strbuf_addf(
                &sb, "%d of %d lanes out of bounds (lane %d: its %d-byte %s reaches past the end of %s, %lld B): ",
                popcount32(m), scenario_instr_threads(in), l, a->width, a->type_text, arr->name, (long long)arr->bytes);
        else
            strbuf_addf(&sb, "%d of %d lanes out of bounds (lane %d: index %d = %lld, %s has %lld in dimension %d): ",
                        popcount32(m), scenario_instr_threads(in), l, d, (long long)in->lane[l].index[d], arr->name,
                        (long long)arr->extent[d], d);
        lanes_phrase(m, &sb);
        strbuf_addf(&sb, "; left out of the analysis");
        push_line(e, &sb);
    }
    m = state_mask(in, SCENARIO_LANE_EVAL_ERROR);
    if (m && a) {
        int l = __builtin_ctz(m);
        const scenario_lane *ln = &in->lane[l];
        strbuf_addf(&sb, "%d of %d lanes hit an expression error (lane %d: %s in ", popcount32(m),
                    scenario_instr_threads(in), l, expr_status_text(ln->eval));
        if (ln->bad_dim < 0)
            strbuf_addf(&sb, "'when'");
        else
            strbuf_addf(&sb, "index %d", ln->bad_dim);
        strbuf_addf(&sb, " at offset %d): ", ln->eval_pos);
        lanes_phrase(m, &sb);
        strbuf_addf(&sb, "; left out of the analysis");
        push_line(e, &sb);
    }
    m = state_mask(in, SCENARIO_LANE_MASKED);
    if (m) {
        lanes_phrase(m, &sb);
        if (a)
            /* the condition's text is in the access title and the lane's explanation; left out
             * here so that equal accesses spelled differently explain alike */
            strbuf_addf(&sb, " take%s no part (%s)", popcount32(m) == 1 ? "s" : "",
                        a->when_text ? "the access's 'when' is false for them"
                                     : "the instruction does not use their addresses");
        else
            strbuf_addf(&sb, " %s inactive in this trace entry", popcount32(m) == 1 ? "is" : "are");
        push_line(e, &sb);
    }
    m = state_mask(in, SCENARIO_LANE_NO_THREAD);
    if (m) {
        lanes_phrase(m, &sb);
        strbuf_addf(&sb, " ha%s no thread (the block has %d threads)", popcount32(m) == 1 ? "s" : "ve",
                    scenario_threads(s));
        push_line(e, &sb);
    }
}

/* (f) the verdict, consistent with r and never "conflict-free" when lanes were left out. */
static void verdict_line(const scenario_instr *in, const banks_result *r, explain_lines *e)
{
    scenario_excluded ex;
    scenario_instr_excluded(in, &ex);
    int64_t nex = scenario_excluded_total(&ex);
    strbuf sb = {0};
    if (nex > 0) {
        strbuf_addf(&sb, "verdict: not valid as written: %lld of %d lanes are left out", (long long)nex,
                    scenario_instr_threads(in));
        if (ex.misaligned)
            strbuf_addf(&sb, " (misaligned: the kernel would fault)");
        if (r->active_lanes == 0)
            strbuf_addf(&sb, "; no lane remains");
        else if (r->conflict_degree <= 1)
            strbuf_addf(&sb, "; the %d remaining lane%s alone: conflict-free, %d wavefront%s (ideal %d)",
                        r->active_lanes, r->active_lanes == 1 ? "" : "s", r->wavefronts, r->wavefronts == 1 ? "" : "s",
                        r->ideal_wavefronts);
        else
            strbuf_addf(&sb, "; the %d remaining lanes alone: %d-way, %d wavefronts (ideal %d)", r->active_lanes,
                        r->conflict_degree, r->wavefronts, r->ideal_wavefronts);
    } else if (r->active_lanes == 0) {
        strbuf_addf(&sb, "verdict: no active lane: no wavefront");
    } else if (r->conflict_degree <= 1) {
        strbuf_addf(&sb, "verdict: conflict-free: %d wavefront%s, the ideal", r->wavefronts,
                    r->wavefronts == 1 ? "" : "s");
    } else {
        strbuf_addf(
            &sb, "verdict: %d-way bank conflict: %d wavefronts instead of %d (%d bank conflict%s), efficiency %.1f %%",
            r->conflict_degree, r->wavefronts, r->ideal_wavefronts, r->bank_conflicts,
            r->bank_conflicts == 1 ? "" : "s", 100.0 * r->ideal_wavefronts / r->wavefronts);
    }
    push_line(e, &sb);
}

/* (b) for the tensor-era kinds: how the instruction is served ([H200m] in banks_tensor.c). */
static void tensor_lines(const scenario_instr *in, const banks_result *r, explain_lines *e)
{
    const banks_request *q = &in->req;
    const kinds_row *k = kinds_of(q->op);
    char kt[32];
    scenario_kind_text(q, kt, sizeof kt);
    if (k->rule == KINDS_RULE_MATRIX)
        add_line(e,
                 "%s: lane l gives the 16-byte row l %% 8 of matrix l / 8 (lanes 0-%d); each matrix is one phase "
                 "of 8 rows, so the ideal is %d wavefront%s; lanes that give the same row share it%s",
                 kt, 8 * q->matrices - 1, q->matrices, q->matrices == 1 ? "" : "s",
                 q->matrices < 4 ? "; the other lanes' addresses are ignored" : "");
    else if (kinds_takes_key(k, "atomic"))
        add_line(e,
                 "%s: lanes never share a wavefront, not even on one address: a bank serves one lane per wavefront, "
                 "so a phase takes as many wavefronts as the most lanes on one bank%s",
                 kt,
                 kinds_atomic(q->atomic)->passes > 1 ? "; cas takes two passes (the conflicts are counted once)" : "");
    else
        add_line(
            e,
            "cp.async of %d B: served in phases of %d lanes like a store, but lanes on one address do not merge: a "
            "phase takes as many wavefronts as the most lanes on one bank (the global source laid out as the "
            "destination); cycles not predicted: the time includes the copy from global memory",
            q->width, q->width >= 8 ? 128 / q->width : 32);
    (void)r;
}

void explain_access(const scenario *s, const scenario_instr *in, const banks_result *r, explain_lines *out)
{
    const banks_profile *p = s->arch;
    *out = (explain_lines){0};
    const kinds_row *k = kinds_of(in->req.op);
    if (r->not_modelled) { /* no rule: say so, never a verdict */
        char kt[32];
        add_line(out, "%s: not modelled: %s", scenario_kind_text(&in->req, kt, sizeof kt), k->not_modelled);
        return;
    }
    banks_cell *cells = grid_of(p, in);
    bool tensor = k->rule != KINDS_RULE_WORDS;
    if (r->active_lanes > 0 && tensor) {
        tensor_lines(in, r, out);
        if (k->rule == KINDS_RULE_MATRIX)
            worst_bank_line(p, r, cells, out);
        cycles_line(p, in, r, out);
    } else if (r->active_lanes > 0) {
        phase_lines(p, in, r, out);
        stride_lines(p, in, r, cells, out);
        worst_bank_line(p, r, cells, out);
        broadcast_line(in, r, out);
        cycles_line(p, in, r, out);
    }
    free(cells);
    if (in->access >= 0 && s->arrays[s->accesses[in->access].array].swz_bits) {
        strbuf sb = {0};
        scenario_swizzle_rows(&s->arrays[s->accesses[in->access].array], &sb);
        push_line(out, &sb);
    }
    excluded_lines(s, in, out);
    verdict_line(in, r, out);
}

void explain_wavefront(const scenario *s, const scenario_instr *in, const banks_result *r, int row, explain_lines *out)
{
    const banks_profile *p = s->arch;
    *out = (explain_lines){0};
    if (row < 0 || row >= r->wavefronts || row >= BANKS_MAX_ROWS) {
        add_line(out, "no wavefront %d: this access takes %d", row, r->wavefronts);
        return;
    }
    int pi = 0;
    while (pi + 1 < r->nphases &&
           !(row >= r->phase[pi].first_row && row < r->phase[pi].first_row + r->phase[pi].wavefronts))
        pi++;
    const banks_phase *ph = &r->phase[pi];
    banks_cell *cells = grid_of(p, in);
    uint32_t served = 0, later = 0;
    int busy = 0, one_bank = -1;
    int64_t one_word = -1;
    for (int b = 0; b < p->banks; b++) {
        const banks_cell *c = &cells[row * p->banks + b];
        if (!c->lanes)
            continue;
        busy++;
        one_bank = b;
        one_word = c->word;
        served |= c->lanes;
    }
    for (int k = row + 1; k < phase_end(ph); k++)
        for (int b = 0; b < p->banks; b++)
            later |= cells[k * p->banks + b].lanes;
    free(cells);
    strbuf sb = {0};
    /* ids from 0 (as CUDA's lanes and warps), counts as "k of n": wavefront 1 is the 2nd of 32 */
    strbuf_addf(&sb, "wavefront %d (%d of %d; phase %d", row, row + 1, r->wavefronts, pi);
    if (ph->wavefronts > 1)
        strbuf_addf(&sb, ", %d of its %d", row - ph->first_row + 1, ph->wavefronts);
    strbuf_addf(&sb, "): ");
    if (busy == 1)
        strbuf_addf(&sb, "bank %d serves word %lld to ", one_bank, (long long)one_word);
    else
        strbuf_addf(&sb, "%d banks serve one word each to ", busy);
    lanes_phrase(served, &sb);
    push_line(out, &sb);
    later &= ~served;
    if (later) {
        lanes_phrase(later, &sb);
        bool one = popcount32(later) == 1;
        strbuf_addf(&sb, " of phase %d still wait%s: %s one word per wavefront", pi, one ? "s" : "",
                    one ? "its bank serves" : "their banks serve");
        push_line(out, &sb);
    } else if (ph->wavefronts > 1) {
        add_line(out, "the last wavefront of phase %d: its %d wavefronts are %d more than the ideal 1", pi,
                 ph->wavefronts, ph->wavefronts - 1);
    }
}
