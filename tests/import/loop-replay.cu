// A value a loop changes under a condition, the loop's iterations all known (Rodinia's srad
// reduce): 'df' ends as the largest power of two not above 'nf' (16 for nf = 28), the bound of
// the next loop, whose step is written 'i = 2 * i'.
__global__ void last_block(float *d, int nf)
{
    __shared__ float p[512];
    int df = 0;
    p[threadIdx.x] = d[threadIdx.x];
    for (int i = 2; i <= 512; i = 2 * i) {
        if (nf >= i) {
            df = i;
        }
    }
    for (int i = 2; i <= df; i = 2 * i) {
        if ((threadIdx.x + 1) % i == 0 && threadIdx.x < df)
            p[threadIdx.x] = p[threadIdx.x] + p[threadIdx.x - i / 2];
        __syncthreads();
    }
    d[threadIdx.x] = p[threadIdx.x];
}
