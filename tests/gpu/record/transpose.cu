/* transpose: the classic shared-memory transpose of a 1024x1024 float matrix, naive (32x32
 * tile: the column read is a 32-way conflict) and padded (32x33: none); block 32x8, each thread
 * moves 4 elements. Prints the addresses block (0,0,0) uses (addrlog.cuh) and a checksum. */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"

#define N 1024
#define TILE 32
#define ROWS 8

template <int PAD> __device__ __forceinline__ void transpose(float *out, const float *in)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * N + x]; ADDR_LOG(&tile[threadIdx.y + j][threadIdx.x]);
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS) {
        out[(y + j) * N + x] = tile[threadIdx.x][threadIdx.y + j]; ADDR_LOG(&tile[threadIdx.x][threadIdx.y + j]);
    }
}

__global__ void transpose_naive(float *out, const float *in) { transpose<0>(out, in); }
__global__ void transpose_padded(float *out, const float *in) { transpose<1>(out, in); }

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 1;
    float *in, *out;
    CHECK(cudaMalloc(&in, N * N * sizeof(float)));
    CHECK(cudaMalloc(&out, N * N * sizeof(float)));
    float *h = (float *)malloc(N * N * sizeof(float));
    for (int i = 0; i < N * N; i++)
        h[i] = (float)(i % 977);
    CHECK(cudaMemcpy(in, h, N * N * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(N / TILE, N / TILE), block(TILE, ROWS);
    addrlog_arm(true);
    transpose_naive<<<grid, block>>>(out, in);
    addrlog_print("transpose_naive");
    addrlog_arm(true);
    transpose_padded<<<grid, block>>>(out, in);
    addrlog_print("transpose_padded");
    addrlog_arm(false);
    for (int r = 1; r < reps; r++) {
        transpose_naive<<<grid, block>>>(out, in);
        transpose_padded<<<grid, block>>>(out, in);
    }
    CHECK(cudaMemcpy(h, out, N * N * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = 0; i < N * N; i++)
        sum += h[i] * (double)(i % 13);
    printf("checksum %.0f\n", sum);
    return 0;
}
