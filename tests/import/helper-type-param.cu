// Helper templates whose shared arrays have the helper's own type parameter (as block-reduce
// helpers are written): the type comes from the call, explicit (block_sum<float, 256>) or deduced
// from an argument declared with it (keep(out, v)), with no -D for it.
template <typename T, int N>
__device__ T block_sum(T v)
{
    __shared__ T part[N / 32];
    if (threadIdx.x % 32 == 0)
        part[threadIdx.x / 32] = v;
    __syncthreads();
    return threadIdx.x < N / 32 ? part[threadIdx.x] : T(0);
}

template <typename T>
__device__ void keep(T *out, T v)
{
    __shared__ T last[32];
    last[threadIdx.x % 32] = v;
    out[threadIdx.x] = last[31 - threadIdx.x % 32];
}

__global__ void k(float *out, double *dout)
{
    float s = block_sum<float, 256>(out[threadIdx.x]);
    keep(dout, (double)s);
}
