// A loop whose start moves with an enclosing loop (a bitonic sort's 'stride = size / 2'): it runs
// from the furthest start, each iteration only where the variable has passed the start of the
// time; every start is one of its values, so the iterations are exactly the source's.
__global__ void moving_start(float *out)
{
    __shared__ float s[128];
    s[threadIdx.x] = 0.0f;
    for (int size = 2; size <= 64; size <<= 1)
        for (int stride = size / 2; stride > 0; stride >>= 1)
            s[threadIdx.x + stride] += 1.0f;
    out[threadIdx.x] = s[threadIdx.x];
}
