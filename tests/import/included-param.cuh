// The kernel of included-param.cu: its loop's bound is the parameter 'levels'.
__global__ void halves(float *d, const unsigned levels, const unsigned width)
{
    __shared__ float s[128];
    s[threadIdx.x] = d[threadIdx.x];
    for (unsigned i = 1; i < levels; ++i)
        s[threadIdx.x * 2] = s[threadIdx.x] + (float)width;
    d[threadIdx.x] = s[threadIdx.x];
}
