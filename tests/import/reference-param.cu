// Shared elements passed by reference: the callee's reads and writes of the reference are the
// loads and stores (the call itself reads nothing); a condition on them depends on data.
__device__ inline void swap_if(unsigned &a, unsigned &b, unsigned up)
{
    unsigned lo = a;
    b = lo + up;
    if ((a > b) == up) {
        a = b;
    }
}

__global__ void reference_param(unsigned *out)
{
    __shared__ unsigned key[128];
    unsigned t = threadIdx.x;
    key[t] = out[t];
    __syncthreads();
    swap_if(key[2 * t], key[2 * t + 1], 1);
    out[t] = key[t];
}
