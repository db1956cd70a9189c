// Conditions that are not known but the same for every thread (kernel parameters): every thread
// takes the same branch, so the analysis follows one path: past an early return (the code after
// it runs only when it is not taken), then into the 'then' branch; the 'else' is listed.
__global__ void uniform_if(const float *in, float *out, int n, int mode)
{
    __shared__ float s[64];
    if (n == 0)
        return;
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    if (mode > 1)
        out[threadIdx.x] = s[(threadIdx.x * 2) % 64];
    else
        out[threadIdx.x] = s[63 - threadIdx.x];
}
