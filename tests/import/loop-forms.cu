// Loops written other ways than 'for (int i = a; i < b; i++)': a while loop stepping a variable
// set before it (from each thread's own start, as Rodinia's lavaMD copies its tiles), a
// condition on 'v + k', and an increment written 'v = v + k'.
#define N 100
#define THREADS 64

__global__ void loop_forms(const float *in, float *out)
{
    __shared__ float t[N];
    __shared__ float u[64];
    int w = threadIdx.x;
    while (w < N) {
        t[w] = in[w];
        w = w + THREADS;
    }
    w = threadIdx.x;
    __syncthreads();
    for (int off = 0; off + 16 <= 64; off += 16)
        u[off + threadIdx.x % 16] = t[off];
    for (int i = 0; i < 2; i = i + 1)
        out[w + i] = u[(w * 2 + i) % 64];
}
