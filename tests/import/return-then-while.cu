// A variable set again after some lanes returned (if (i >= N) return;) is known where it is read:
// the lanes that left never read it. The reduction's while loop is then counted.
__shared__ float cache[16];
__device__ void pd(const float *v, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    cache[threadIdx.x] = 0.f;
    while (i < N) {
        cache[threadIdx.x] += v[i];
        i += gridDim.x * blockDim.x;
    }
    __syncthreads();
    i = 16 / 2;
    while (i > 0) {
        if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
        __syncthreads();
        i /= 2;
    }
}
__global__ void k(const float *v, int N, float *o) { pd(v, N); if (threadIdx.x == 0) o[0] = cache[0]; }
