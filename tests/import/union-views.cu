// A shared union of arrays (one buffer read as floats, ints and float4s): every member is a view
// of the union's bytes, as wide as its element.
__global__ void views(float *out)
{
    __shared__ union {
        float f[128];
        int i[128];
        float4 v[32];
    } u;
    u.f[threadIdx.x] = 1.0f;
    u.v[threadIdx.x] = make_float4(0, 0, 0, 0);
    __syncthreads();
    float4 q = u.v[(threadIdx.x * 2) % 32];
    out[threadIdx.x] = u.i[threadIdx.x * 2] + u.v[threadIdx.x % 16].y + q.x;
}
