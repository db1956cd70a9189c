/* calib_forms: one warp-instruction pattern per source line, for `bankscope record`'s measured
 * numbers per line (the CUPTI SASS metric smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared, equal
 * to Nsight Compute's source page) against the model. One block of one warp, launched once:
 * each line's measured wavefronts are those of one execution of its instruction.
 *   cg_*    cp.async.cg 16-byte copies (LDGSTS.E.BYPASS.128): destination pattern x global source
 *   popc_*  atomicAdd(&s[i], 1u), result unused (ATOMS.POPC.INC.32)
 *   add_*   the same addresses with a used result (ATOMS.ADD): every lane counts
 *   fadd_*  float atomicAdd (ATOMS.CAST.SPIN loop)
 * Every pattern's destination offsets are lane-only; bins are 4 bytes. */
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* a macro, not a function: each copy keeps its own line */
#define cg16(dst, src)                                                                             \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), \
                 "l"(src)                                                                          \
                 : "memory")

// clang-format off: one pattern per line
__global__ void calib_forms(unsigned *out, const float *in, const unsigned *bins)
{
    __shared__ __align__(128) unsigned char sm[16384];
    __shared__ unsigned h[1024];
    __shared__ float f[1024];
    const int l = threadIdx.x;
    for (int i = l; i < 1024; i += 32) { h[i] = 0; f[i] = 0; }
    __syncthreads();
    /* cp.async.cg: destination x source */
    cg16(sm + 16 * l, in + 4 * l);                /* cg_contig: dst 16*l, src 16*l */
    cg16(sm + 1024 + 32 * l, in + 4 * l);         /* cg_dst32: dst 32*l (2-way at 16 B), src contiguous */
    cg16(sm + 2048 + 128 * (l % 8) + 1024 * (l / 8), in + 4 * l); /* cg_dst128: dst 128-byte stride in quarters (8-way) */
    cg16(sm + 8192, in + 4 * l);                  /* cg_bcast: every lane to one 16-byte slot */
    cg16(sm + 9216 + 16 * l, in + 1024 * l);      /* cg_src4k: dst contiguous, src 4 KB apart */
    cg16(sm + 10240 + 16 * l, in + 4 * (l ^ 1));  /* cg_srcswap: dst contiguous, src pairs swapped */
    cg16(sm + 11264 + 16 * l, in);                /* cg_srcsame: dst contiguous, one source */
    cg16(sm + 12288 + 16 * ((l * 9) % 32), in + 4 * l); /* cg_perm: dst a permutation of 512 B */
    cg16(sm + 12800 + 128 * l, in + 1024 * l);    /* cg_dst128_src4k: dst 128 B apart (8-way), src 4 KB apart */
    asm volatile("cp.async.commit_group;\ncp.async.wait_all;" ::: "memory");
    __syncthreads();
    /* atomicAdd(.., 1u), result unused: ATOMS.POPC.INC */
    atomicAdd(&h[0], 1u);                         /* popc_one: 32 lanes, one word */
    atomicAdd(&h[l], 1u);                         /* popc_distinct: 32 words, 32 banks */
    atomicAdd(&h[32 * (l % 8)], 1u);              /* popc_skew8: 8 words in bank 0, 4 lanes each */
    atomicAdd(&h[32 * l], 1u);                    /* popc_stride32: 32 words in bank 0 */
    atomicAdd(&h[bins[l] & 1023], 1u);            /* popc_data: bins from the data */
    /* atomicAdd with its result used: ATOMS.ADD */
    out[64 + l] = atomicAdd(&h[0], 1u);           /* add_one */
    out[96 + l] = atomicAdd(&h[32 * (l % 8)], 1u); /* add_skew8 */
    /* float atomicAdd: ATOMS.CAST.SPIN */
    atomicAdd(&f[l], 1.0f);                       /* fadd_distinct */
    atomicAdd(&f[32 * (l % 8)], 1.0f);            /* fadd_skew8 */
    atomicAdd(&f[0], 1.0f);                       /* fadd_one */
    __syncthreads();
    unsigned s = 0;
    for (int i = l; i < 1024; i += 32) s += h[i] + (unsigned)f[i];
    for (int i = l; i < 16384; i += 32) s += sm[i];
    out[l] = s;
}
// clang-format on

int main()
{
    float *in;
    unsigned *out, *bins, hb[32];
    CHECK(cudaMalloc(&in, 1 << 20));
    CHECK(cudaMemset(in, 0, 1 << 20));
    CHECK(cudaMalloc(&out, 256 * sizeof(unsigned)));
    CHECK(cudaMalloc(&bins, sizeof hb));
    for (int i = 0; i < 32; i++)
        hb[i] = (i % 3 == 0) ? 5 : (i * 37) % 1024; /* a third of the lanes on bin 5 */
    CHECK(cudaMemcpy(bins, hb, sizeof hb, cudaMemcpyHostToDevice));
    calib_forms<<<1, 32>>>(out, in, bins);
    CHECK(cudaDeviceSynchronize());
    unsigned h[32];
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    unsigned s = 0;
    for (int i = 0; i < 32; i++)
        s += h[i];
    printf("calib_forms %u\n", s);
    return 0;
}
