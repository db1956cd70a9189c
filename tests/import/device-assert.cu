// assert() and printf in a kernel, as the toolkit's headers give them for device code.
#include <assert.h>
#include <cstdio>

__global__ void checked(float *out, int n)
{
    __shared__ float s[64];
    assert(n > 0 && blockDim.x == 32);
    s[threadIdx.x * 2] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
        printf("n = %d\n", n);
    out[threadIdx.x] = s[threadIdx.x];
}
