// Values a loop changes under a condition that only ever turns false (dwtHaar1D): a thread that
// fails 'tid < active' once fails it at every later iteration, since 'active' only goes down,
// so where it holds 'active', 'stride' and 'pos' have been stepped at every iteration before.
__global__ void levels(float *out, const unsigned n)
{
    __shared__ float s[256];
    const int tid = threadIdx.x;
    unsigned active = 64, stride = 1, pos = tid * 2;
    s[tid] = out[tid];
    for (unsigned i = 1; i < n; ++i) {
        if (tid < active) {
            s[pos] = s[pos] + s[pos + stride];
            active = active >> 1;
            stride <<= 1;
            pos = pos << 1;
        }
        __syncthreads();
    }
}
