/* cpasync: a block of 64 threads fills a 32x32 float tile from global memory with cp.async,
 * 16 bytes per thread and copy (cp.async.cg), and a 4-byte copy (cp.async.ca) with a stride. */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"

__global__ void cpasync_fill(float *out, const float *in)
{
    __shared__ __align__(16) float tile[32][32];
    __shared__ float col[64 * 2];
    int t = threadIdx.x;
    for (int i = t; i < 32 * 8; i += 64) {
        float *dst = &tile[i / 8][(i % 8) * 4];
        unsigned d = (unsigned)__cvta_generic_to_shared(dst);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(in + (i / 8) * 32 + (i % 8) * 4)); ADDR_LOG(dst);
    }
    float *c = &col[(t * 2) % 128];
    unsigned e = (unsigned)__cvta_generic_to_shared(c);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(e), "l"(in + t)); ADDR_LOG(c);
    asm volatile("cp.async.commit_group;\ncp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[t] = tile[t % 32][t / 2] + col[t];
}

int main()
{
    float *in, *out, h[1024];
    for (int i = 0; i < 1024; i++)
        h[i] = (float)i;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, 64 * sizeof(float)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    addrlog_arm(true);
    cpasync_fill<<<4, 64>>>(out, in);
    addrlog_print("cpasync_fill");
    CHECK(cudaMemcpy(h, out, 64 * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < 64; i++)
        s += h[i] * (i + 1);
    printf("sum %.0f\n", s);
    return 0;
}
