// A flat element pointer over a two-dimensional tile (reinterpret_cast<float *>(tile) + n, as
// thread-tiled matmuls walk their shared tiles): indexed and dereferenced across the rows.
__global__ void k(float *out)
{
    __shared__ float tile[8][32];
    tile[threadIdx.x / 32][threadIdx.x % 32] = 1.0f;
    __syncthreads();
    const float *t = reinterpret_cast<const float *>(tile) + (threadIdx.x / 16) * 64;
    out[threadIdx.x] = t[threadIdx.x % 16] + *(t + 40);
}
