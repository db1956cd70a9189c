// Inline PTX on shared addresses taken with __cvta_generic_to_shared (as hand-tuned GEMMs and
// attention kernels write them): ldmatrix in a helper, cp.async.cg, ld.shared (with an offset
// in the brackets), ld.shared.v4 and st.shared are the accesses at their [%N] operands.
#include <cuda_fp16.h>
__device__ void ldsm_x2(unsigned &r0, unsigned &r1, unsigned addr)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r0), "=r"(r1) : "r"(addr));
}
__global__ void k(const float *g, float *o)
{
    __shared__ half s[64][64];
    __shared__ float f[256];
    unsigned a = __cvta_generic_to_shared(&s[threadIdx.x % 16][(threadIdx.x / 16) * 8]);
    unsigned r0, r1;
    ldsm_x2(r0, r1, a + 16 * 64 * 2);
    unsigned fa = static_cast<unsigned>(__cvta_generic_to_shared(f));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(fa + threadIdx.x * 16), "l"(g));
    asm volatile("cp.async.wait_all;\n" ::);
    float x;
    asm volatile("ld.shared.f32 %0, [%1 + 4];" : "=f"(x) : "r"(fa + threadIdx.x * 4));
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(fa + threadIdx.x * 16));
    asm volatile("st.shared.f32 [%0], %1;" ::"r"(fa + (threadIdx.x * 4 + 128) % 1024), "f"(x));
    o[threadIdx.x] = x + v.x + r0 + r1;
}
