/* faults: a program that fails in the ways `bankscope record` must report: "crash" launches a
 * kernel with shared memory and then dies of SIGSEGV, "fail" exits with status 3 after it,
 * "nolaunch" initialises CUDA and launches nothing, "ok" succeeds. Prints "started" first, so a
 * test can tell whether it ran at all. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <csignal>

__global__ void touch(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    printf("started %s\n", mode);
    fflush(stdout);
    float *out;
    cudaMalloc(&out, 64 * sizeof(float));
    if (strcmp(mode, "nolaunch") == 0)
        return 0;
    touch<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    if (strcmp(mode, "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(mode, "fail") == 0)
        return 3;
    return 0;
}
