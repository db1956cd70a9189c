/* twice: one kernel launched twice with a different stride; `--launch 1` must record the
 * second launch's addresses (stride 2 the first time, 8 the second). */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"

__global__ void strided(float *out, int stride)
{
    __shared__ float s[32 * 8];
    int t = threadIdx.x;
    s[(t * stride) % 256] = (float)t; ADDR_LOG(&s[(t * stride) % 256]);
    __syncthreads();
    float a = s[(t * stride) % 256]; ADDR_LOG(&s[(t * stride) % 256]);
    float b = s[t]; ADDR_LOG(&s[t]);
    out[t] = a + b;
}

int main()
{
    float *out, h[64];
    CHECK(cudaMalloc(&out, sizeof h));
    addrlog_arm(true);
    strided<<<1, 64>>>(out, 2);
    addrlog_print("strided0");
    addrlog_arm(true);
    strided<<<1, 64>>>(out, 8);
    addrlog_print("strided1");
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    printf("out %g %g\n", h[1], h[63]);
    return 0;
}
