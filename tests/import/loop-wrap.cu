// A position stepped around a power-of-two buffer once per iteration ('pos = (pos + 4) & 63', as
// the CUDA samples' 64-bin histogram reads its sub-histograms): after k steps it is
// (pos0 + 4 * k) & 63.
__global__ void wrap(unsigned *out)
{
    __shared__ unsigned char h[64 * 64];
    unsigned sum = 0;
    unsigned pos = 4 * (threadIdx.x & 15);
    for (int i = 0; i < 16; i++) {
        sum += h[threadIdx.x * 64 + pos];
        pos = (pos + 4) & 63;
    }
    out[threadIdx.x] = sum;
}
