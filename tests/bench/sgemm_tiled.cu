/* sgemm_tiled: C = A x B for 4096x4096 floats with 32x32 shared-memory tiles (the textbook tiled
 * SGEMM: each block loads a tile of A and of B, then every thread reads a row of As and a column of
 * Bs). A benchmark program for `bankscope record` against Nsight Compute (tests/bench/bench_record.sh);
 * prints a checksum. */
#include <cstdio>
#include <cstdlib>

#define N 4096
#define T 32

__global__ void sgemm_tiled(float *c, const float *a, const float *b)
{
    __shared__ float as[T][T], bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0;
    for (int k0 = 0; k0 < N; k0 += T) {
        as[threadIdx.y][threadIdx.x] = a[row * N + k0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[row * N + col] = acc;
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *h = (float *)malloc(bytes), *a, *b, *c;
    for (size_t i = 0; i < (size_t)N * N; i++)
        h[i] = (float)(i % 7) - 3;
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
    cudaMalloc(&c, bytes);
    cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, bytes, cudaMemcpyHostToDevice);
    sgemm_tiled<<<dim3(N / T, N / T), dim3(T, T)>>>(c, a, b);
    cudaMemcpy(h, c, bytes, cudaMemcpyDeviceToHost);
    double sum = 0;
    for (size_t i = 0; i < (size_t)N * N; i += 4099)
        sum += h[i];
    printf("checksum %.0f\n", sum);
    return cudaGetLastError() != cudaSuccess;
}
