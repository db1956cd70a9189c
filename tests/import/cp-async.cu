// Asynchronous copies into shared memory of one thread each (sm_80's cp.async, as the toolkit's
// pipeline primitives write it): the cp.async of 16 or 4 bytes at the destination.
#include <cuda_pipeline.h>

__global__ void stage(const float *g, float *o)
{
    __shared__ float tile[2][256];
    __pipeline_memcpy_async(&tile[0][threadIdx.x * 4], &g[threadIdx.x * 4], 16);
    __pipeline_memcpy_async(&tile[1][threadIdx.x], &g[1024 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    o[threadIdx.x] = tile[1][threadIdx.x] + tile[0][threadIdx.x * 4];
}
