/* scenario_swizzle: the array option "swizzle" (TMA/wgmma hardware swizzle modes and CuTe's
 * Swizzle<B,M,S>): parsing, the invariants it needs and the byte-offset permutation itself.
 *
 * The permutation is expr_swizzle, the arithmetic of the expression function swizzle(B,M,S,x),
 * applied to byte offsets: the TMA modes CU_TENSOR_MAP_SWIZZLE_32B/64B/128B are CuTe's
 * Swizzle<1,4,3>, <2,4,3>, <3,4,3> on bytes (16-byte units; CUDA driver API documentation of
 * cuTensorMapEncodeTiled, CUTLASS cute/swizzle.hpp and cute/atom/copy_traits_sm90_tma.hpp), and
 * Swizzle<B,M,S> on element offsets of 2^k-byte elements is Swizzle<B,M+k,S> on byte offsets. */
#include "scenario.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t scenario_swizzle_offset(const scenario_array *a, int64_t byte_offset)
{
    if (a->swz_bits == 0)
        return byte_offset;
    return expr_swizzle(a->swz_bits, a->swz_base, a->swz_shift, byte_offset);
}

int64_t scenario_swizzle_align(const scenario_array *a)
{
    return a->swz_tma ? (int64_t)1 << (a->swz_base + a->swz_shift + a->swz_bits) : 1;
}

/* Fill err at arrays[i].swizzle with msg. */
static bool swz_fail(scenario_error *err, int i, const char *msg)
{
    snprintf(err->path, sizeof err->path, "arrays[%d].swizzle", i);
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    err->expr_pos = -1;
    return false;
}

/* A whole number 0..99 at *p (spaces around it allowed), then the character end. */
static bool swz_number(const char **p, char end, int *out)
{
    const char *s = *p;
    while (*s == ' ')
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    int v = 0;
    for (int k = 0; isdigit((unsigned char)*s); k++, s++) {
        if (k == 2)
            return false;
        v = v * 10 + (*s - '0');
    }
    while (*s == ' ')
        s++;
    if (*s != end)
        return false;
    *p = s + 1;
    *out = v;
    return true;
}

/* Parse "Swizzle<B,M,S>" into *b, *m, *s; false when the text has another form. */
static bool swz_parse_cute(const char *text, int *b, int *m, int *s)
{
    const char *p = text;
    if (strncmp(p, "Swizzle<", 8) != 0)
        return false;
    p += 8;
    return swz_number(&p, ',', b) && swz_number(&p, ',', m) && swz_number(&p, '>', s) && *p == '\0';
}

bool scenario_swizzle_finish(scenario_array *a, int i, scenario_error *err)
{
    a->swz_bits = a->swz_base = a->swz_shift = 0;
    a->swz_tma = false;
    if (!a->swizzle)
        return true;
    static const char *const tma[] = {"32B", "64B", "128B"};
    for (int k = 0; k < 3; k++)
        if (strcmp(a->swizzle, tma[k]) == 0) { /* Swizzle<k+1,4,3> on bytes */
            a->swz_bits = k + 1;
            a->swz_base = 4;
            a->swz_shift = 3;
            a->swz_tma = true;
        }
    char msg[256];
    if (!a->swz_tma) {
        int b, m, s;
        if (!swz_parse_cute(a->swizzle, &b, &m, &s))
            return swz_fail(err, i,
                            "unknown swizzle: use \"32B\", \"64B\" or \"128B\" (the TMA/wgmma modes, on byte "
                            "offsets) or \"Swizzle<B,M,S>\" (CuTe's, on element offsets), e.g. \"Swizzle<3,4,3>\"");
        if (b < 1 || b > 16)
            return swz_fail(err, i, "Swizzle<B,M,S>: B must be 1..16 (B = 0 swizzles nothing: leave the key out)");
        if (m > 32)
            return swz_fail(err, i, "Swizzle<B,M,S>: M must be 0..32");
        if (s < b || s > 32)
            return swz_fail(err, i,
                            "Swizzle<B,M,S>: S must be B..32, so that the bits read are not the bits changed "
                            "(then it is a permutation)");
        int64_t e = a->elem_size;
        if (e < 1 || (e & (e - 1)) != 0) {
            snprintf(msg, sizeof msg,
                     "Swizzle<B,M,S> works on element offsets, so the element size must be a power of two "
                     "(it is %lld bytes); a TMA mode (\"128B\"...) works on bytes",
                     (long long)e);
            return swz_fail(err, i, msg);
        }
        a->swz_bits = b;
        a->swz_base = m + __builtin_ctzll((unsigned long long)e);
        a->swz_shift = s;
    }
    if (a->swz_base + a->swz_shift + a->swz_bits > 62)
        return swz_fail(err, i, "Swizzle<B,M,S>: M + S + B (in bytes) must stay within 62 bits");
    /* every block of 2^(base + shift) bytes is permuted in place: a partial last block could send
     * an element past the end of the array (an array inside one block is left as it is) */
    int64_t block = (int64_t)1 << (a->swz_base + a->swz_shift);
    if (a->bytes % block != 0 && a->bytes > block) {
        snprintf(msg, sizeof msg,
                 "the swizzle permutes blocks of %lld bytes; the array's %lld bytes are not a multiple of it "
                 "(some elements would be stored past its end): change the dimensions or the padding",
                 (long long)block, (long long)a->bytes);
        return swz_fail(err, i, msg);
    }
    return true;
}

int64_t scenario_lane_offset(const scenario *s, int access, const scenario_lane *l)
{
    const scenario_access *a = &s->accesses[access];
    const scenario_array *arr = &s->arrays[a->array];
    int64_t elem = 0;
    for (int d = 0; d < a->nidx; d++)
        elem = elem * arr->extent[d] + l->index[d];
    return elem * arr->elem_size + a->offset;
}

void scenario_swizzle_name(const scenario_array *a, strbuf *out)
{
    if (!a->swz_bits)
        return;
    strbuf_addf(out, "%s", a->swizzle);
    if (!a->swz_tma)
        strbuf_addf(out, " (Swizzle<%d,%d,%d> on bytes)", a->swz_bits, a->swz_base, a->swz_shift);
}

void scenario_swizzle_step(const scenario_array *a, int64_t off, strbuf *out)
{
    if (!a->swz_bits)
        return;
    int64_t unit = (int64_t)1 << a->swz_base, line = unit << a->swz_shift, keys = (int64_t)1 << a->swz_bits;
    int64_t u = (off / unit) % (line / unit), l = off / line, to = scenario_swizzle_offset(a, off);
    /* the XOR reaches only the low swz_bits bits of the unit number inside its line */
    strbuf_addf(out,
                "%s swizzle: offset %lld is %lld-byte unit %lld of %lld-byte line %lld; unit %lld ^ (%lld %% %lld) = "
                "%lld, so it is stored at offset %lld",
                a->swizzle, (long long)off, (long long)unit, (long long)u, (long long)line, (long long)l, (long long)u,
                (long long)l, (long long)keys, (long long)(u ^ (l % keys)), (long long)to);
}

void scenario_swizzle_rows(const scenario_array *a, strbuf *out)
{
    if (!a->swz_bits)
        return;
    int64_t unit = (int64_t)1 << a->swz_base, line = unit << a->swz_shift, keys = (int64_t)1 << a->swz_bits;
    strbuf_addf(out,
                "the %s swizzle permutes the %lld-byte units of each %lld-byte line of %s: unit u of line L is stored "
                "at unit u ^ (L %% %lld)",
                a->swizzle, (long long)unit, (long long)line, a->name, (long long)keys);
    if (a->ndims < 2) {
        strbuf_addf(out, " (offsets from the array start)");
        return;
    }
    int64_t row = a->extent[a->ndims - 1] * a->elem_size;
    if (row == line)
        strbuf_addf(out, "; rows are %lld B, exactly one line: the row number picks the pattern", (long long)row);
    else if (row % line == 0)
        strbuf_addf(out, "; rows are %lld B, %lld lines each: each part of a row has its own line number",
                    (long long)row, (long long)(row / line));
    else if (line % row == 0)
        strbuf_addf(out, "; rows are %lld B: %lld rows share one line (the pattern follows lines, not rows)",
                    (long long)row, (long long)(line / row));
    else
        strbuf_addf(out,
                    "; rows are %lld B, not a multiple or a divisor of the %lld-byte line: the pattern follows byte "
                    "offsets, not rows",
                    (long long)row, (long long)line);
}
