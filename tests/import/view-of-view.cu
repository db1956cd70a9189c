// Dynamic shared memory carved into arrays of different types, one after the other (as kernels
// that keep values and indexes side by side do): a float view of the byte buffer, and an int
// view made from the address just past the floats.
extern __shared__ char buf[];

__global__ void carve(const float *g, float *o, int n)
{
    float *val = reinterpret_cast<float *>(buf);
    int *idx = reinterpret_cast<int *>(&val[n]);
    val[threadIdx.x] = g[threadIdx.x];
    idx[threadIdx.x] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = val[idx[(threadIdx.x + 1) % 32]];
}
