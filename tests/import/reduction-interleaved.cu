// Block reduction with interleaved addressing: index = 2 * s * tid makes the active lanes
// stride through the banks (2-way, 4-way, ... conflicts).
__global__ void reduce_interleaved(const int *in, int *out)
{
    extern __shared__ int sdata[];
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
