// The value of a shared scalar handed to a function without a body (__expf(x - s_max)) is a load
// of the scalar, not its address escaping: imported, nothing listed.
__global__ void k(float *out)
{
    __shared__ float s_max;
    if (threadIdx.x == 0)
        s_max = out[0];
    __syncthreads();
    out[threadIdx.x] = __expf(out[threadIdx.x] - s_max);
}
