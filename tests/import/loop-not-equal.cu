// The dot product of "CUDA by Example": a tree whose loop runs while (i != 0), halving i. The
// halving reaches 0 exactly, so the loop is counted as while (i > 0); so is a for loop that
// doubles up to a bound it reaches.
#define threadsPerBlock 256

__global__ void dot(const float *a, const float *b, float *c, int N)
{
    __shared__ float cache[threadsPerBlock];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;
    float temp = 0;
    if (tid < N)
        temp = a[tid] * b[tid];
    cache[cacheIndex] = temp;
    __syncthreads();
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }
    for (int s = 1; s != 64; s *= 2)
        cache[(cacheIndex * s) % threadsPerBlock] = 0;
    if (cacheIndex == 0)
        c[blockIdx.x] = cache[0];
}
