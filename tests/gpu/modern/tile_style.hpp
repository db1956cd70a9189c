/* tile_style: a few lines in the style of CuTe (compile-time shapes as nested tuple types, a
 * swizzle functor, copy and gemm helpers that the kernel calls and the compiler inlines), written
 * for bankscope's tests: no CUTLASS code. The helpers' instructions carry this file's lines in the
 * line table; the kernel's own lines are in the inline chain above them. */
#pragma once
#include <cstdint>

namespace tile {
template <int N> struct C {
    static constexpr int value = N;
};
template <class... T> struct tuple {};
/* shapes and strides as nested tuples: their names demangle to kilobytes, as CuTe's do */
using S1 = tuple<C<1>, C<2>, C<4>, C<8>>;
using S2 = tuple<S1, S1, tuple<S1, C<16>>, S1>;
using S3 = tuple<S2, S2, S2, tuple<S2, C<32>>>;
using S4 = tuple<S3, S3, S3, S3>;
template <class Shape, class Stride> struct Layout {};
template <int B, int M, int S> struct Swizzle {
    __device__ static int apply(int off) { return off ^ ((off >> S) & (((1 << B) - 1) << M)); }
};

/* copy: 16 bytes per lane from global to shared (cp.async.cg, as Triton and CuTe load tiles) */
__device__ __forceinline__ void copy(void *smem_dst, const void *gmem_src)
{
    uint32_t d = (uint32_t)__cvta_generic_to_shared(smem_dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(gmem_src) : "memory");
}
__device__ __forceinline__ void copy_wait()
{
    asm volatile("cp.async.commit_group;\ncp.async.wait_all;" ::: "memory");
}
/* ldmatrix x4 from shared memory, one row address per lane */
__device__ __forceinline__ void ldsm_x4(const void *row, uint32_t (&r)[4])
{
    uint32_t a = (uint32_t)__cvta_generic_to_shared(row);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}
__device__ __forceinline__ void copy_s2r(const void *row, uint32_t (&r)[4])
{
    ldsm_x4(row, r);
}
/* a wgmma shared-memory matrix descriptor, no swizzle: start, leading and stride byte offsets */
__device__ __forceinline__ uint64_t desc(const void *smem, uint32_t lbo, uint32_t sbo)
{
    uint64_t a = (uint32_t)__cvta_generic_to_shared(smem);
    return ((a & 0x3ffff) >> 4) | (uint64_t)((lbo >> 4) & 0x3fff) << 16 | (uint64_t)((sbo >> 4) & 0x3fff) << 32;
}
/* one warpgroup wgmma m64n8k16, f16 inputs from shared memory, f32 accumulators */
__device__ __forceinline__ void gemm(const void *a, const void *b, float (&d)[4])
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    uint64_t da = desc(a, 128, 256), db = desc(b, 128, 256);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#else
    (void)a, (void)b, (void)d;
#endif
}
} // namespace tile
