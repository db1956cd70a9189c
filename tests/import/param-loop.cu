// A parameter the function changes is followed through its assignments, and counts a loop
// written without an initialisation ('for (; k < n; k += step)', as binary searches are).
__device__ void fill(float *s, int k)
{
    k += 4;
    s[k] = 1.0f;
    for (; k < 64; k += 32)
        s[k + 1] = 2.0f;
}

__global__ void param_loop(float *out)
{
    __shared__ float s[128];
    fill(s, threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * 2];
}
