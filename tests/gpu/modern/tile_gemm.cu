/* tile_gemm: a kernel in CuTe's style (tile_style.hpp) whose name demangles to more than 4 KB:
 * one warpgroup (128 threads) copies a 64x16 and a 16x8 f16 tile to shared memory with
 * cp.async.cg, reads a swizzled tile with ldmatrix and multiplies the two with wgmma (HGMMA,
 * operands read from shared memory through descriptors). Build: nvcc -arch=sm_90a -lineinfo. */
#include <cstdio>
#include <cstdlib>

#include "tile_style.hpp"

template <class ShapeA, class ShapeB, class Swz>
__global__ void tile_gemm(float *out, const uint4 *A, const uint4 *B, tile::Layout<ShapeA, ShapeB>, Swz)
{
    __shared__ __align__(128) uint4 sA[128]; /* 64 x 16 f16 = 2 KB */
    __shared__ __align__(128) uint4 sB[16];  /* 16 x 8 f16 = 256 B */
    __shared__ __align__(128) uint4 sT[256]; /* a 32 x 64 f16 tile for ldmatrix, swizzled */
    const int t = threadIdx.x;
    tile::copy(&sA[t], &A[t]);
    if (t < 16)
        tile::copy(&sB[t], &B[t]);
    tile::copy(&sT[Swz::apply(t)], &A[t]);
    tile::copy(&sT[Swz::apply(t + 128)], &A[t + 128]);
    tile::copy_wait();
    __syncthreads();
    uint32_t r[4];
    tile::copy_s2r(&sT[Swz::apply((t % 32) * 8 + t / 32)], r);
    float d[4] = {0, 0, 0, 0};
    tile::gemm(sA, sB, d);
    out[blockIdx.x * 128 + t] = d[0] + d[1] + d[2] + d[3] + (float)(r[0] ^ r[1] ^ r[2] ^ r[3]);
}

int main()
{
    const int blocks = 8;
    uint4 *A, *B;
    float *out, h[128];
    if (cudaMalloc(&A, 256 * sizeof(uint4)) || cudaMalloc(&B, 16 * sizeof(uint4)) ||
        cudaMalloc(&out, blocks * 128 * sizeof(float))) {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(A, 0, 256 * sizeof(uint4));
    cudaMemset(B, 0, 16 * sizeof(uint4));
    tile_gemm<<<blocks, 128>>>(out, A, B, tile::Layout<tile::S4, tile::S4>{}, tile::Swizzle<3, 0, 3>{});
    cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        fprintf(stderr, "tile_gemm: %s\n", cudaGetErrorString(e));
        return 1;
    }
    double s = 0;
    for (int i = 0; i < 128; i++)
        s += h[i];
    printf("tile_gemm %.0f\n", s);
    return 0;
}
