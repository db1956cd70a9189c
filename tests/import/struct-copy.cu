// Struct and vector copies are the stores and loads nvcc emits: a struct of float3 and float
// (4-byte aligned) moves as four 4-byte accesses; a float4 store through reinterpret_cast is one
// 16-byte store; a float3 member is a field path.
struct Body {
    float3 pos;
    float mass;
};

__global__ void struct_copy(const Body *parts, const float4 *in, float *o)
{
    __shared__ Body sp[32];
    __shared__ float Bs[32][36];
    int t = threadIdx.x;
    sp[t] = parts[t];
    __syncthreads();
    float x = sp[t].pos.x;
    Body q = sp[(t + 1) % 32];
    reinterpret_cast<float4 *>(&Bs[t][0])[0] = in[t];
    o[t] = x + q.mass;
}
