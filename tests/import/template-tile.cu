// A templated tile: the size and padding are template parameters with defaults (-D overrides).
template <int TILE = 32, int PAD = 0>
__global__ void copy_tile(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + PAD];
    constexpr int STRIDE = TILE / 4;
    for (int r = 0; r < TILE; r += STRIDE)
        tile[threadIdx.y + r][threadIdx.x] = in[(threadIdx.y + r) * TILE + threadIdx.x];
    __syncthreads();
    for (int r = 0; r < TILE; r += STRIDE)
        out[(threadIdx.y + r) * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y + r];
}
