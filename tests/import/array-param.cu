// Helpers whose shared-array parameters are declared as arrays (float out[HEIGHT][WIDTH]: a
// pointer to rows of WIDTH), the sizes template parameters of the helper, as tile loaders are
// written.
template <int BLOCK_SIZE, int HEIGHT, int WIDTH>
__device__ void load_tile(const float *in, float out[HEIGHT][WIDTH], int tid)
{
    for (int idx = tid; idx < HEIGHT * WIDTH; idx += BLOCK_SIZE) {
        const int row = idx / WIDTH;
        const int col = idx % WIDTH;
        out[row][col] = in[idx];
    }
}

__device__ float first(float v[], int i) { return v[i]; }

__global__ void k(const float *in, float *out)
{
    __shared__ float a[16][32];
    __shared__ float b[32];
    load_tile<128, 16, 32>(in, a, threadIdx.x);
    b[threadIdx.x % 32] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = a[threadIdx.x % 16][0] + first(b, (threadIdx.x * 2) % 32);
}
