// An unrolled reduction whose steps the template's block size turns off (as SHOC's and the CUDA
// samples' are written): the step no thread takes with the values given is the source's access
// all the same, imported with no active lane (and a note), not dropped; so are the accesses of a
// loop that never runs, at the values its variables start with.
template <int blockSize>
__global__ void reduce(float *out)
{
    __shared__ float sdata[blockSize];
    unsigned tid = threadIdx.x;
    sdata[tid] = tid;
    __syncthreads();
    if (blockSize >= 512) {
        if (tid < 256)
            sdata[tid] += sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128)
            sdata[tid] += sdata[tid + 128];
        __syncthreads();
    }
    for (int s = blockSize; s < 128; s *= 2) /* a loop no iteration of which runs */
        sdata[(tid + s) % blockSize] = 0;
    if (tid == 0)
        out[0] = sdata[0];
}
