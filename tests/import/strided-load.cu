// A block-strided loop: for (i = threadIdx.x; i < N; i += blockDim.x). Each thread's variable is
// its start plus k steps; the scenario's loop counts k, and 'when' keeps i < N.
#define N 1000

__global__ void strided_load(const float *in, float *out)
{
    __shared__ float buf[N];
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        buf[i] = in[i];
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x * 3 % N];
}
