// Transpose through an XOR-swizzled tile: element (r, c) lives in column c ^ r (conflict-free
// without padding).
#define TILE 32

__device__ __forceinline__ int swz(int row, int col)
{
    return col ^ row;
}

__global__ void transpose_swizzled(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][swz(threadIdx.y, threadIdx.x)] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][swz(threadIdx.x, threadIdx.y)];
}
