// Loops bankscope cannot count, analysed for their first iteration: a grid-stride loop (its step
// needs the grid's size), whose accesses do not depend on its iterations; a loop whose count is
// read from memory (the same for every thread), in which a variable is set again before each
// iteration ends (so it is known in every iteration); a shared access that uses the loop's
// variable is listed, with the loop's reason.
__global__ void first_iteration(const float *in, float *out, const int *count, int n)
{
    __shared__ float acc[128];
    __shared__ float tile[64];
    for (int v = blockIdx.x; v < 256; v += gridDim.x) {
        acc[threadIdx.x] = in[v * 128 + threadIdx.x];
        __syncthreads();
        for (int s = 64; s > 0; s >>= 1)
            if (threadIdx.x < s)
                acc[threadIdx.x] += acc[threadIdx.x + s];
    }
    int w = threadIdx.x;
    for (int k = 0; k < count[blockIdx.x]; k++) {
        while (w < 64) {
            tile[w] = in[w];
            w += 128;
        }
        w = threadIdx.x;
        out[k] = tile[(w * 2) % 64];
        tile[k] = 0;
    }
}
