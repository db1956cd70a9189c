/* histogram256: a skewed 256-bin histogram in shared memory, the way it is usually written:
 * atomicAdd(&bins[v], 1u) with the result unused (ATOMS.POPC.INC: lanes on one bin merge), then
 * a float weight per bin (atomicAdd of a float: an ATOMS.CAST.SPIN loop). Half of the values fall
 * in bin 0. 64 blocks of 256 threads, 16 values per thread. */
#include <cstdio>
#include <cstdlib>

#define BINS 256
#define PER 16

__global__ void histogram256(unsigned *out, float *wout, const unsigned char *data)
{
    __shared__ unsigned bins[BINS];
    __shared__ float weight[BINS];
    bins[threadIdx.x] = 0;
    weight[threadIdx.x] = 0;
    __syncthreads();
    const unsigned char *p = data + (blockIdx.x * blockDim.x + threadIdx.x) * PER;
    for (int k = 0; k < PER; k++) {
        unsigned v = p[k];
        atomicAdd(&bins[v], 1u);
        if (k == 0)
            atomicAdd(&weight[v], 0.5f);
    }
    __syncthreads();
    atomicAdd(&out[threadIdx.x], bins[threadIdx.x]);
    atomicAdd(&wout[threadIdx.x], weight[threadIdx.x]);
}

int main()
{
    const int blocks = 64, threads = 256, n = blocks * threads * PER;
    unsigned char *h = (unsigned char *)malloc(n), *data;
    unsigned *out, ho[BINS];
    float *wout;
    unsigned s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        h[i] = (s >> 9) & 1 ? 0 : (unsigned char)(s >> 16);
    }
    if (cudaMalloc(&data, n) || cudaMalloc(&out, sizeof ho) || cudaMalloc(&wout, BINS * sizeof(float)))
        return 1;
    cudaMemcpy(data, h, n, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof ho);
    cudaMemset(wout, 0, BINS * sizeof(float));
    histogram256<<<blocks, threads>>>(out, wout, data);
    if (cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    unsigned long long sum = 0;
    for (int i = 0; i < BINS; i++)
        sum += ho[i];
    printf("histogram256: %llu values, bin 0 holds %u\n", sum, ho[0]);
    free(h);
    return 0;
}
