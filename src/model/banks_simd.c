/* banks_simd: the AVX-512 kernel of the bank engine (see banks_fast.h). It finds what the
 * portable kernel of banks.c finds with a table, for whole vectors of lanes. The lanes that share
 * a value of 0-31 with each lane come from a 32 x 32 bit transposition of the lanes' one-hot
 * values (vpermi2b, vgf2p8affineqb): for the group of banks, and for three 5-bit pieces of the
 * unit when the units lie within 2^14 of each other (two lanes share a unit when they share all
 * three; otherwise vpconflictd compares the units). A lane whose unit an earlier lane touched is
 * a broadcast and takes that lane's rank; the rank of a first touch is the number of earlier
 * first touches in its group (vpopcntd). Compiled for AVX-512 F, CD, VPOPCNTDQ and VBMI with GFNI
 * by a function attribute and used only where the CPU has them (Ice Lake, Sapphire Rapids and
 * later, Zen 4 and later), so the same binary runs everywhere; elsewhere it is never called. */
#include "banks_fast.h"
#include "kinds.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define SIMD_TARGET __attribute__((target("avx512f,avx512cd,avx512vpopcntdq,avx512vbmi,gfni")))

bool banks_fast_simd_usable(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vbmi") &&
           __builtin_cpu_supports("gfni");
}

/* The largest lane of each block of 8 lanes of v, in every lane of the block. */
SIMD_TARGET static __m512i max_per_8(__m512i v)
{
    v = _mm512_max_epu32(v, _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4e));
    v = _mm512_max_epu32(v, _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0xb1));
    return _mm512_max_epu32(v, _mm512_shuffle_i32x4(v, v, 0xb1));
}

/* Lanes of the same phase before lane l when phases have 1 << s lanes. */
#define BEFORE(l, s) (((1u << (l)) - 1u) & ~((1u << ((l) & ~((1u << (s)) - 1u))) - 1u))
#define BEFORE8(l, s)                                                                                                  \
    BEFORE(l, s), BEFORE(l + 1, s), BEFORE(l + 2, s), BEFORE(l + 3, s), BEFORE(l + 4, s), BEFORE(l + 5, s),            \
        BEFORE(l + 6, s), BEFORE(l + 7, s)
#define BEFORE32(s)                                                                                                    \
    {                                                                                                                  \
        BEFORE8(0, s), BEFORE8(8, s), BEFORE8(16, s), BEFORE8(24, s)                                                   \
    }
static const uint32_t before_in_phase[3][32] = {BEFORE32(3), BEFORE32(4), BEFORE32(5)};

/* Lanes of phase ph when phases have 1 << pshift lanes (0 past the last phase). */
static const uint32_t phase_lanes[3][4] = {
    {0x000000ffu, 0x0000ff00u, 0x00ff0000u, 0xff000000u},
    {0x0000ffffu, 0xffff0000u, 0, 0},
    {0xffffffffu, 0, 0, 0},
};

/* Pairs of bits (n, n^1) or (n, n^2) of an 8-lane mask both set, as the lower bit n. */
static unsigned both_of_pair(unsigned k, int mask)
{
    unsigned low = mask == 1 ? 0x55u : 0x33u;
    return k & (k >> mask) & low;
}

/* The transposition of same_value: the bytes of the one-hot rows gathered into 8x8 bit blocks
 * (block L, B: bits 8B-8B+7 of lanes 8L-8L+7, the rows in reverse as vgf2p8affineqb wants them,
 * at qword 4L + B), and the transposed blocks put back as rows by group (byte L of group g). */
#define GATHER(z, t) (4 * (8 * (((8 * (z) + (t) / 8) >> 2)) + 7 - (t) % 8) + ((8 * (z) + (t) / 8) & 3))
#define SCATTER(z, t) ((4 * ((t) % 4) + (16 * (z) + (t) / 4) / 8) * 8 + (16 * (z) + (t) / 4) % 8)
#define BYTES8(f, z, t)                                                                                                \
    f(z, t), f(z, t + 1), f(z, t + 2), f(z, t + 3), f(z, t + 4), f(z, t + 5), f(z, t + 6), f(z, t + 7)
#define BYTES64(f, z)                                                                                                  \
    {                                                                                                                  \
        BYTES8(f, z, 0), BYTES8(f, z, 8), BYTES8(f, z, 16), BYTES8(f, z, 24), BYTES8(f, z, 32), BYTES8(f, z, 40),      \
            BYTES8(f, z, 48), BYTES8(f, z, 56)                                                                         \
    }
static const uint8_t gather_blocks[2][64] = {BYTES64(GATHER, 0), BYTES64(GATHER, 1)};
static const uint8_t scatter_rows[2][64] = {BYTES64(SCATTER, 0), BYTES64(SCATTER, 1)};

/* For each lane, the lanes (a 32-bit lane mask) whose value is its value, for values 0-31 (v0:
 * lanes 0-15, v1: lanes 16-31; the lane itself included): a 32 x 32 bit transposition of the
 * lanes' one-hot values, 8 x 8 bits at a time with vgf2p8affineqb, gives the lanes of each value,
 * which every lane then picks up by its value. */
SIMD_TARGET static void same_value(__m512i v0, __m512i v1, __m512i *s0, __m512i *s1)
{
    const __m512i one = _mm512_set1_epi32(1), diagonal = _mm512_set1_epi64(0x8040201008040201);
    const __m512i r0 = _mm512_sllv_epi32(one, v0), r1 = _mm512_sllv_epi32(one, v1);
    const __m512i b0 = _mm512_permutex2var_epi8(r0, _mm512_loadu_si512(gather_blocks[0]), r1);
    const __m512i b1 = _mm512_permutex2var_epi8(r0, _mm512_loadu_si512(gather_blocks[1]), r1);
    const __m512i t0 = _mm512_gf2p8affine_epi64_epi8(diagonal, b0, 0);
    const __m512i t1 = _mm512_gf2p8affine_epi64_epi8(diagonal, b1, 0);
    const __m512i m0 = _mm512_permutex2var_epi8(t0, _mm512_loadu_si512(scatter_rows[0]), t1);
    const __m512i m1 = _mm512_permutex2var_epi8(t0, _mm512_loadu_si512(scatter_rows[1]), t1);
    *s0 = _mm512_permutex2var_epi32(m0, v0, m1);
    *s1 = _mm512_permutex2var_epi32(m0, v1, m1);
}

SIMD_TARGET bool banks_fast_simd(const banks_profile *p, const banks_request *req, banks_result *out)
{
    const uint32_t active = req->active;
    const int width = req->width, wshift = __builtin_ctz((unsigned)width);
    const int ushift = wshift > p->bank_shift ? wshift : p->bank_shift;
    int per_phase = p->wavefront_bytes >> wshift;
    per_phase = per_phase < p->request_lanes ? per_phase : p->request_lanes;
    const int pshift0 = __builtin_ctz((unsigned)per_phase);
    const __m128i ushift_v = _mm_cvtsi32_si128(ushift);
    /* units: 64-bit, then their low 32 bits, which tell units apart when all lie within 2^31 of
     * the first active lane's; inactive lanes count as 0 (loaded whole, so that the loads need
     * not wait for the mask) */
    const __m512i u0 = _mm512_set1_epi64(req->addr[__builtin_ctz(active)] >> ushift);
    const __m512i half = _mm512_set1_epi64((int64_t)1 << 31);
    __m512i a[4], u[4], any_a = _mm512_setzero_si512(), any_d = _mm512_setzero_si512();
    for (int j = 0; j < 4; j++) {
        const __mmask8 k = (__mmask8)(active >> (8 * j));
        a[j] = _mm512_maskz_mov_epi64(k, _mm512_loadu_si512(&req->addr[8 * j]));
        u[j] = _mm512_sra_epi64(a[j], ushift_v);
        any_a = _mm512_or_si512(any_a, a[j]);
        any_d = _mm512_or_si512(any_d, _mm512_maskz_add_epi64(k, _mm512_sub_epi64(u[j], u0), half));
    }
    if (_mm512_test_epi64_mask(any_a, _mm512_set1_epi64(req->width - 1)) ||
        _mm512_test_epi64_mask(any_d, _mm512_set1_epi64((int64_t)0xffffffff00000000u)) || pshift0 < 3)
        return false; /* a lane misaligned, or units 2^31 or more from the first */
    bool paired = false;
    if (p->load_pairing & kinds_of(req->op)->pairs & (width >= 8) & (pshift0 < 5)) {
        /* [H200] pairing (lanes_pair in banks.c): active lanes n and n^1 (or n^2) alike */
        unsigned unpaired1 = 0, unpaired2 = 0;
        for (int j = 0; j < 4; j++) {
            const unsigned k = (active >> (8 * j)) & 0xffu;
            unpaired1 |= _mm512_mask_cmpneq_epi64_mask((__mmask8)both_of_pair(k, 1), a[j],
                                                       _mm512_shuffle_epi32(a[j], (_MM_PERM_ENUM)0x4e));
            unpaired2 |= _mm512_mask_cmpneq_epi64_mask((__mmask8)both_of_pair(k, 2), a[j],
                                                       _mm512_shuffle_i64x2(a[j], a[j], 0xb1));
        }
        paired = !unpaired1 || !unpaired2;
    }
    const int pshift = pshift0 + paired;

    const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
    const __m512i iota0 = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i iota1 = _mm512_add_epi32(iota0, _mm512_set1_epi32(16));
    const __m512i even = _mm512_add_epi32(iota0, iota0); /* the low halves of 64-bit lanes */
    const __m512i k0 = _mm512_permutex2var_epi32(u[0], even, u[1]), k1 = _mm512_permutex2var_epi32(u[2], even, u[3]);
    const __m512i gmask = _mm512_set1_epi32((p->banks >> (ushift - p->bank_shift)) - 1);
    const __m512i g0 = _mm512_and_si512(k0, gmask), g1 = _mm512_and_si512(k1, gmask);

    /* per lane, as 32-bit lane masks: earlier active lanes of its phase with its unit (uc) and
     * with its group (gc) */
    const __m512i act = _mm512_set1_epi32((int)active);
    const __m512i before0 = _mm512_and_si512(_mm512_loadu_si512(before_in_phase[pshift - 3]), act);
    const __m512i before1 = _mm512_and_si512(_mm512_loadu_si512(before_in_phase[pshift - 3] + 16), act);
    __m512i uc0, uc1, gc0, gc1;
    same_value(g0, g1, &gc0, &gc1);
    gc0 = _mm512_and_si512(gc0, before0);
    gc1 = _mm512_and_si512(gc1, before1);
    /* units within 2^14 of the first active lane's (almost always): equal when three 5-bit
     * pieces of their distance from a base are */
    const uint32_t base = ((uint32_t)(req->addr[__builtin_ctz(active)] >> ushift) & ~31u) - (1u << 14);
    const __m512i dist0 = _mm512_sub_epi32(k0, _mm512_set1_epi32((int)base));
    const __m512i dist1 = _mm512_sub_epi32(k1, _mm512_set1_epi32((int)base)), span = _mm512_set1_epi32(1 << 15);
    if (!(_mm512_mask_cmpge_epu32_mask((__mmask16)active, dist0, span) |
          _mm512_mask_cmpge_epu32_mask((__mmask16)(active >> 16), dist1, span))) {
        const __m512i five = _mm512_set1_epi32(31);
        __m512i e0, e1;
        same_value(_mm512_and_si512(dist0, five), _mm512_and_si512(dist1, five), &uc0, &uc1);
        same_value(_mm512_and_si512(_mm512_srli_epi32(dist0, 5), five),
                   _mm512_and_si512(_mm512_srli_epi32(dist1, 5), five), &e0, &e1);
        uc0 = _mm512_and_si512(uc0, e0);
        uc1 = _mm512_and_si512(uc1, e1);
        same_value(_mm512_srli_epi32(dist0, 10), _mm512_srli_epi32(dist1, 10), &e0, &e1);
        uc0 = _mm512_and_si512(_mm512_and_si512(uc0, e0), before0);
        uc1 = _mm512_and_si512(_mm512_and_si512(uc1, e1), before1);
    } else {
        uc0 = _mm512_and_si512(_mm512_conflict_epi32(k0), before0);
        uc1 = _mm512_slli_epi32(_mm512_conflict_epi32(k1), 16);
        if (pshift == 5) { /* one phase: lanes 16-31 against each of lanes 0-15 */
            uint32_t kk[16];
            _mm512_storeu_si512(kk, k0);
            __m512i bit = one;
            for (int i = 0; i < 16; i++) {
                uc1 = _mm512_mask_or_epi32(uc1, _mm512_cmpeq_epi32_mask(_mm512_set1_epi32((int)kk[i]), k1), uc1, bit);
                bit = _mm512_add_epi32(bit, bit);
            }
        }
        uc1 = _mm512_and_si512(uc1, before1);
    }

    /* a lane whose unit an earlier lane touched is a broadcast and takes that lane's rank; a first
     * touch ranks after the first touches before it in its group */
    const __mmask16 a0 = (__mmask16)active, a1 = (__mmask16)(active >> 16);
    const __mmask16 d0 = _mm512_mask_test_epi32_mask(a0, uc0, uc0), d1 = _mm512_mask_test_epi32_mask(a1, uc1, uc1);
    const uint32_t dup = (uint32_t)d0 | (uint32_t)d1 << 16;
    const __m512i first = _mm512_set1_epi32((int)(active & ~dup));
    const __m512i rf0 = _mm512_popcnt_epi32(_mm512_and_si512(gc0, first));
    const __m512i rf1 = _mm512_popcnt_epi32(_mm512_and_si512(gc1, first));
    const __m512i top = _mm512_set1_epi32(31);
    __m512i fi0 = _mm512_sub_epi32(top, _mm512_lzcnt_epi32(_mm512_and_si512(uc0, _mm512_sub_epi32(zero, uc0))));
    __m512i fi1 = _mm512_sub_epi32(top, _mm512_lzcnt_epi32(_mm512_and_si512(uc1, _mm512_sub_epi32(zero, uc1))));
    const __m512i r0 = _mm512_mask_mov_epi32(rf0, d0, _mm512_permutexvar_epi32(fi0, rf0));
    const __m512i r1 = _mm512_mask_mov_epi32(rf1, d1, _mm512_permutex2var_epi32(rf0, fi1, rf1));

    /* wavefronts of each phase: its highest rank + 1 (0 without an active lane); four phase
     * entries are written whatever nphases is (those past it are unspecified) */
    uint32_t block[32];
    _mm512_storeu_si512(block, max_per_8(_mm512_maskz_add_epi32(a0, r0, one)));
    _mm512_storeu_si512(block + 16, max_per_8(_mm512_maskz_add_epi32(a1, r1, one)));
    const int b0 = (int)block[0], b1 = (int)block[8], b2 = (int)block[16], b3 = (int)block[24];
    const int m01 = b0 > b1 ? b0 : b1, m23 = b2 > b3 ? b2 : b3, all = m01 > m23 ? m01 : m23;
    const bool p3 = pshift == 3, p4 = pshift == 4;
    const int n[4] = {p3 ? b0 : p4 ? m01 : all, p3 ? b1 : p4 ? m23 : 0, p3 ? b2 : 0, p3 ? b3 : 0};
    const int first_row[4] = {0, n[0], n[0] + n[1], n[0] + n[1] + n[2]};
    for (int ph = 0; ph < 4; ph++) {
        banks_phase *x = &out->phase[ph];
        x->lanes = phase_lanes[pshift - 3][ph];
        x->sub = 0;
        x->first_row = first_row[ph];
        x->wavefronts = n[ph];
        x->degree = n[ph];
    }
    const int row = first_row[3] + n[3];

    /* the lanes as banks_lane's four bytes (x86 is little-endian): phase, broadcast, wavefront;
     * the first rows go into a register (from memory they would wait for the stores above) */
    const __m512i rows = _mm512_castsi128_si512(_mm_setr_epi32(0, n[0], first_row[2], first_row[3]));
    const __m512i none = _mm512_set1_epi32((int)0xffff00ffu);
    const __m512i bcast = _mm512_set1_epi32(0x100);
    const __m512i ph0 = _mm512_srl_epi32(iota0, _mm_cvtsi32_si128(pshift));
    const __m512i ph1 = _mm512_srl_epi32(iota1, _mm_cvtsi32_si128(pshift));
    __m512i w0 = _mm512_or_si512(ph0, _mm512_slli_epi32(_mm512_add_epi32(r0, _mm512_permutexvar_epi32(ph0, rows)), 16));
    __m512i w1 = _mm512_or_si512(ph1, _mm512_slli_epi32(_mm512_add_epi32(r1, _mm512_permutexvar_epi32(ph1, rows)), 16));
    w0 = _mm512_mask_mov_epi32(none, a0, _mm512_mask_or_epi32(w0, d0, w0, bcast));
    w1 = _mm512_mask_mov_epi32(none, a1, _mm512_mask_or_epi32(w1, d1, w1, bcast));
    _mm512_storeu_si512(&out->lane[0], w0);
    _mm512_storeu_si512(&out->lane[16], w1);

    out->paired = paired;
    out->not_modelled = false;
    out->nphases = BANKS_WARP >> pshift;
    out->wavefronts = row;
    out->ideal_wavefronts = (n[0] > 0) + (n[1] > 0) + (n[2] > 0) + (n[3] > 0);
    out->conflict_degree = all;
    out->bank_conflicts = row - out->ideal_wavefronts;
    out->active_lanes = __builtin_popcount(active);
    out->broadcast_lanes = __builtin_popcount(dup);
    return true;
}

#else

bool banks_fast_simd_usable(void)
{
    return false;
}

bool banks_fast_simd(const banks_profile *p, const banks_request *req, banks_result *out)
{
    (void)p;
    (void)req;
    (void)out;
    return false;
}

#endif
