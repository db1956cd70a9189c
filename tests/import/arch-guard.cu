// Code under '#if __CUDA_ARCH__ >= 700' is read as nvcc's device pass for sm_90 reads it (the
// CUDA samples' simpleAWBarrier), and the 'extern __shared__' array of a helper template
// called with two template arguments is one array, the block's dynamic shared memory; the
// value of its bool template parameter is known in each instantiation.
#if __CUDA_ARCH__ >= 700
template <bool square>
__device__ void reduce_block(double sum, double *result)
{
    extern __shared__ double tmp[];
    if (threadIdx.x % 32 == 0)
        tmp[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x < 8)
        *result = square ? tmp[threadIdx.x] * 2 : tmp[threadIdx.x];
}
#endif

__global__ void norm(const float *v, double *out)
{
#if __CUDA_ARCH__ >= 700
    double s = v[threadIdx.x];
    reduce_block<false>(s, out);
    reduce_block<true>(s, out + 1);
#endif
}
