// 5-point stencil over a tile with a one-element halo.
#define BX 32
#define BY 8

__global__ void stencil(const float *in, float *out, int w)
{
    __shared__ float tile[BY + 2][BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty + 1][tx + 1] = in[(blockIdx.y * BY + ty) * w + blockIdx.x * BX + tx];
    if (tx == 0)
        tile[ty + 1][0] = 0.0f;
    __syncthreads();
    float v = tile[ty + 1][tx + 1] * 4.0f - tile[ty][tx + 1] - tile[ty + 2][tx + 1] - tile[ty + 1][tx] -
              tile[ty + 1][tx + 2];
    out[(blockIdx.y * BY + ty) * w + blockIdx.x * BX + tx] = v;
}
