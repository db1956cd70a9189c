/* atomics: shared-memory atomics of several kinds and strides by a block of 128 threads:
 * atomicAdd with a return value and without (red), atomicCAS, atomicMax and atomicExch. */
// clang-format off: each access shares its line with its ADDR_LOG
#include "addrlog.cuh"

__global__ void shared_atomics(int *out, int stride)
{
    __shared__ int a[1024];
    int t = threadIdx.x;
    for (int i = t; i < 1024; i += blockDim.x)
        a[i] = 0;
    __syncthreads();
    int r = atomicAdd(&a[(t * stride) % 1024], t); ADDR_LOG(&a[(t * stride) % 1024]);
    atomicAdd(&a[t % 32], 1); ADDR_LOG(&a[t % 32]);
    r += atomicCAS(&a[(t * 2) % 1024], 0, t); ADDR_LOG(&a[(t * 2) % 1024]);
    atomicMax(&a[(t * 33) % 1024], t); ADDR_LOG(&a[(t * 33) % 1024]);
    r += atomicExch(&a[t], r); ADDR_LOG(&a[t]);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = r + a[t];
}

int main()
{
    int *out, h[256];
    CHECK(cudaMalloc(&out, sizeof h));
    addrlog_arm(true);
    shared_atomics<<<2, 128>>>(out, 16);
    addrlog_print("shared_atomics");
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    long long s = 0;
    for (int i = 0; i < 256; i++)
        s += (long long)h[i] * (i + 1);
    printf("sum %lld\n", s);
    return 0;
}
