// Shared-memory histogram: the atomic's bin depends on the data, so it cannot be predicted.
#define BINS 256

__global__ void histogram(const unsigned char *in, unsigned int *out, int n)
{
    __shared__ unsigned int hist[BINS];
    hist[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&hist[in[i]], 1u);
    unsigned int before = atomicAdd(&hist[threadIdx.x / 8], 1u); // one bin per 8 threads
    atomicAdd(&hist[threadIdx.x % 32], before);
    __syncthreads();
    atomicAdd(&out[threadIdx.x], hist[threadIdx.x]);
}
