/* tma: a bulk copy (the TMA engine: cp.async.bulk, completed through an mbarrier) of 4 KiB into
 * shared memory, then a plain read of it. The capture should name the bulk copy (not model
 * it) and record the plain loads. */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"
#include <cstdint>

__global__ void bulk_copy(float *out, const float *in)
{
    __shared__ __align__(128) float buf[1024];
    __shared__ __align__(8) unsigned long long bar;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar), d = (unsigned)__cvta_generic_to_shared(buf);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(b));
        asm volatile("fence.proxy.async.shared::cta;");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 4096;" :: "r"(b));
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, [%2];" :: "r"(d), "l"(in), "r"(b) : "memory");
    }
    asm volatile("{\n.reg .pred p;\nW: mbarrier.try_wait.parity.shared.b64 p, [%0], 0;\n@!p bra W;\n}" :: "r"(b) : "memory");
    out[threadIdx.x] = buf[threadIdx.x * 4]; ADDR_LOG(&buf[threadIdx.x * 4]);
}

int main()
{
    float *in, *out, h[1024];
    for (int i = 0; i < 1024; i++)
        h[i] = (float)i;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, 256 * sizeof(float)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    addrlog_arm(true);
    bulk_copy<<<1, 256>>>(out, in);
    addrlog_print("bulk_copy");
    CHECK(cudaMemcpy(h, out, 256 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("out %g %g\n", h[1], h[255]);
    return 0;
}
