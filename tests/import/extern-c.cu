// A kernel declared extern "C" (as kernels loaded by name through the driver API or a Python
// binding are): one declaration with the linkage, and one in an extern "C" block.
extern "C" __global__ void reverse(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

extern "C" {
__global__ void stride2(float *out)
{
    __shared__ float t[128];
    t[2 * threadIdx.x] = out[threadIdx.x];
}
}
