// A kernel template hands its tile, and pointers into it, to a helper template: 'As + BM * BK'
// (in the template an operator call, the array's type depending on BM and BK) and a call of
// the specialization fill<4> are followed like any pointer into the array.
template <int BM>
__device__ void fill(float *t, int i)
{
    t[i] = 1.0f;
}

template <int BM, int BK>
__global__ void tiles(float *o)
{
    __shared__ float As[2 * BM * BK];
    fill<BM>(As, threadIdx.x);
    fill<BM>(As + BM * BK, threadIdx.x * 2);
    fill<4>(As + 8, threadIdx.x);
    __syncthreads();
    o[threadIdx.x] = As[threadIdx.x];
}
