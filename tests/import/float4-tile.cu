// 16-byte loads from a float tile: each lane reads a float4 of a row.
__global__ void float4_tile(const float *in, float4 *out)
{
    __shared__ float data[32][32];
    for (int k = 0; k < 32; k++)
        data[k][threadIdx.x] = in[k * 32 + threadIdx.x];
    __syncthreads();
    float4 v = reinterpret_cast<float4 *>(&data[threadIdx.x][0])[0];
    float4 w = reinterpret_cast<const float4 *>(data[threadIdx.x % 4])[threadIdx.x / 4];
    out[threadIdx.x] = make_float4(v.x + w.x, v.y, v.z, v.w);
}
