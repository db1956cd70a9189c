/* histogram: 64 bins in shared memory, bins chosen by the data (a fixed pseudo-random input),
 * so which banks meet is known only when it runs. Block 256 threads, each adds 8 values. */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"

#define BINS 64
#define PER 8

__global__ void histogram(unsigned *out, const unsigned *data, int n)
{
    __shared__ unsigned bins[BINS];
    if (threadIdx.x < BINS) {
        bins[threadIdx.x] = 0; ADDR_LOG(&bins[threadIdx.x]);
    }
    __syncthreads();
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * PER;
    for (int k = 0; k < PER; k++) {
        unsigned v = data[base + k] % BINS;
        atomicAdd(&bins[v], 1u); ADDR_LOG(&bins[v]);
    }
    __syncthreads();
    if (threadIdx.x < BINS) {
        atomicAdd(&out[threadIdx.x], bins[threadIdx.x]); ADDR_LOG(&bins[threadIdx.x]);
    }
}

int main()
{
    const int blocks = 64, threads = 256, n = blocks * threads * PER;
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *data, *out;
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        h[i] = (s >> 8) % 1000;
    }
    CHECK(cudaMalloc(&data, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&out, BINS * sizeof(unsigned)));
    CHECK(cudaMemcpy(data, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, BINS * sizeof(unsigned)));
    addrlog_arm(true);
    histogram<<<blocks, threads>>>(out, data, n);
    addrlog_print("histogram");
    unsigned r[BINS];
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    unsigned total = 0;
    for (int i = 0; i < BINS; i++)
        total += r[i];
    printf("total %u bin0 %u bin63 %u\n", total, r[0], r[63]);
    return 0;
}
