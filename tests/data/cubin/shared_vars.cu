// Shared variables of three kinds for the cubin reader's tests (tests/unit/test_cubin.c):
// nvcc -cubin -arch=sm_90 -G -o shared-vars-G.cubin shared_vars.cu (names kept) and -lineinfo (stripped)
__shared__ float g_s[128];
template <int PAD> __global__ void tile_kernel(float *o)
{
    __shared__ float tile[32][32 + PAD];
    __shared__ double partial[64];
    tile[threadIdx.y][threadIdx.x] = o[threadIdx.x];
    partial[threadIdx.x % 64] = 1;
    g_s[threadIdx.x % 128] = 2;
    __syncthreads();
    o[threadIdx.x] = tile[threadIdx.x][threadIdx.y] + partial[threadIdx.x % 64 ^ 1] + g_s[threadIdx.x % 128 ^ 3];
}
template __global__ void tile_kernel<1>(float *);
__global__ void dyn_kernel(float *o)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = 2;
    __syncthreads();
    o[threadIdx.x] = dyn[threadIdx.x ^ 5];
}
