/* transpose_pad: the classic transpose of a 1024x1024 float matrix through a 32x32 shared tile,
 * blocks of 32x8 threads, the tile's rows padded by PAD floats (nvcc -D PAD=1: tile[32][33];
 * without it, tile[32][32] and its 32-way conflict on the column read). tests/gpu/whatif.sh
 * records it as it is, builds it again with the padding the sweep advises, and records that. */
#include <cstdio>
#include <cstdlib>

#ifndef PAD
#define PAD 0
#endif
#define N 1024
#define TILE 32
#define ROWS 8

__global__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main()
{
    float *in, *out;
    if (cudaMalloc(&in, N * N * sizeof(float)) != cudaSuccess || cudaMalloc(&out, N * N * sizeof(float)) != cudaSuccess)
        return 1;
    float *h = (float *)malloc(N * N * sizeof(float));
    for (int i = 0; i < N * N; i++)
        h[i] = (float)(i % 977);
    cudaMemcpy(in, h, N * N * sizeof(float), cudaMemcpyHostToDevice);
    transpose<<<dim3(N / TILE, N / TILE), dim3(TILE, ROWS)>>>(out, in);
    cudaMemcpy(h, out, N * N * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0;
    for (int i = 0; i < N * N; i++)
        sum += h[i] * (double)(i % 13);
    printf("checksum %.0f\n", sum);
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
