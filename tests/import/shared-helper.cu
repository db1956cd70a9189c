// Shared memory handed out by helpers: the SharedMemory<T> idiom (a class whose conversion
// operator returns the extern __shared__ array) and a __device__ function that declares an
// extern __shared__ array and returns a pointer into it; the reserved name __smem is renamed.
template <class T> struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

__device__ float *scratch()
{
    extern __shared__ float dyn[];
    return dyn + 64;
}

template <class T> __global__ void helpers(const T *in, T *out)
{
    T *sdata = SharedMemory<T>();
    float *s2 = scratch();
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[tid];
    __syncthreads();
    out[tid] = sdata[(tid * 2) % 64] + s2[tid];
}
