// A whole program as the CUDA samples write it: includes, host code and a launch; only the
// kernel is imported (the sample's padded transpose, 32x8 threads copying a 32x32 tile).
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// Coalesced both ways, and no bank conflicts thanks to the padding.
__global__ void transposeNoBankConflicts(float *odata, const float *idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void)
{
    float *a, *b;
    cudaMalloc(&a, 1 << 20);
    cudaMalloc(&b, 1 << 20);
    transposeNoBankConflicts<<<dim3(32, 32), dim3(TILE_DIM, BLOCK_ROWS)>>>(b, a);
    printf("done\n");
}
