// An unrolled reduction whose steps the template's block size turns off (as SHOC's and the CUDA
// samples' are written): the step no thread takes with the values given is the source's access
// all the same, imported with no active lane (and a note), not dropped.
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
    if (tid == 0)
        out[0] = sdata[0];
}
