// A host wrapper that includes its kernel's file and calls deprecated runtime functions
// (cudaThreadSynchronize, cudaMemcpy2D): the kernel is found in the included file, and the host
// code around it never stops the import.
#include <stdio.h>

#include "included-kernel.cuh"

void run(float *h, float *d, size_t pitch)
{
    cudaThreadSynchronize();
    cudaMemcpy2D(d, pitch, h, 64 * sizeof(float), 64 * sizeof(float), 1, cudaMemcpyHostToDevice);
    reverse<<<1, 64>>>(d, 0, 0);
    cudaThreadSynchronize();
    cudaThreadExit();
}
