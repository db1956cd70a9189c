// What the toolkit's headers give kernels, as the samples use it: a half2 made from two floats,
// a bfloat16 read as a float, a texture fetch, min() of an unsigned and an int, and a host
// check that names the error type cudaError.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdio.h>

inline void check(cudaError err)
{
    if (err != cudaSuccess)
        printf("error %d\n", (int)err);
}

__global__ void names(float *o, const __nv_bfloat16 *b, cudaTextureObject_t tex, int w)
{
    __shared__ half2 h[64];
    __shared__ float f[64];
    half2 zero(0.f, 0.f);
    h[threadIdx.x] = zero;
    f[min(threadIdx.x, w - 1)] = (float)b[threadIdx.x] + tex2D<float>(tex, threadIdx.x, 0);
    __syncthreads();
    o[threadIdx.x] = f[threadIdx.x];
}
