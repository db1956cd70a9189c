// A struct that packs four floats into 16 aligned bytes (llm.c's Packed128<float>) read and written
// through a reinterpreting pointer into a shared array: one 16-byte access each.
template <class E> struct alignas(16) Packed128 {
    static constexpr int size = sizeof(int4) / sizeof(E);
    E payload[size];
    __device__ E &operator[](int i) { return payload[i]; }
};
typedef Packed128<float> x128;
__global__ void k(const float *in, float *out)
{
    __shared__ float buf[32 * 8];
    x128 *v = reinterpret_cast<x128 *>(buf);
    x128 a;
    for (int i = 0; i < 4; i++) a[i] = in[threadIdx.x * 4 + i];
    v[threadIdx.x] = a;
    __syncthreads();
    x128 b = v[(threadIdx.x * 2) % 64];
    out[threadIdx.x] = b[0];
}
