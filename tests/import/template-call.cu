// Calls of function templates and namespaced functions are inlined (the template argument
// binds the callee's parameter); a __shared__ scalar is an array of one; blockIdx is block 0.
namespace tile {
template <int STRIDE> __device__ float pick(int x, const float *b)
{
    return b[(x * STRIDE) % 256];
}
__device__ void put(float *b, int i)
{
    b[i] = 1.0f;
}
} // namespace tile

template <int S> __global__ void template_call(float *o)
{
    __shared__ float s[256];
    __shared__ int count;
    tile::put(s, threadIdx.x + blockIdx.x * 0);
    o[blockIdx.x * blockDim.x + threadIdx.x] = tile::pick<S + 1>(threadIdx.x, s);
    if (threadIdx.x == 0)
        count = 0;
    atomicAdd(&count, 1);
}
