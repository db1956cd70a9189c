/* sgemm: C = A x B for N x N floats (N = 4096 unless given), the tiled kernel of the CUDA
 * programming guide (32x32 tiles of A and B in shared memory, one element of C per thread);
 * prints the time of the kernel (cudaEvent) and a checksum. The benchmark of record's overhead. */
#include <cstdio>
#include <cstdlib>

#define T 32

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)malloc(bytes), *A, *B, *C;
    for (size_t i = 0; i < (size_t)n * n; i++)
        h[i] = (float)(i % 7) - 3.0f;
    cudaMalloc(&A, bytes);
    cudaMalloc(&B, bytes);
    cudaMalloc(&C, bytes);
    cudaMemcpy(A, h, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(B, h, bytes, cudaMemcpyHostToDevice);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventRecord(e0);
    sgemm_tiled<<<dim3(n / T, n / T), dim3(T, T)>>>(A, B, C, n);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaMemcpy(h, C, bytes, cudaMemcpyDeviceToHost);
    double s = 0;
    for (size_t i = 0; i < (size_t)n * n; i += 4099)
        s += h[i];
    printf("sgemm %d: kernel %.2f ms, checksum %.0f\n", n, ms, s);
    return cudaGetLastError() != cudaSuccess;
}
