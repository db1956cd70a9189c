// Dynamic shared memory carved into two arrays by pointers.
__global__ void carve(const float *in, float *out)
{
    extern __shared__ float smem[];
    float *a = smem;
    float *b = smem + 256;
    int t = threadIdx.x;
    a[t] = in[t];
    b[t] = 2.0f * in[t];
    __syncthreads();
    out[t] = a[255 - t] + b[(t * 2) % 256];
}
