// A loop from each thread's own start to that start plus a constant (llm.c's matmul kernel walks
// 'for (si = si_start; si < si_start + 32; si += 4)'): every thread runs the same count.
__global__ void span(float *out)
{
    __shared__ float s[4][33];
    int start = 4 * (8 * threadIdx.y + threadIdx.x);
    float acc = 0.0f;
    for (int si = start; si < start + 32; si += 8)
        acc += s[threadIdx.y][si % 32];
    out[threadIdx.y * 8 + threadIdx.x] = acc;
}
