// Lanes limited by control flow: a ?: arm, the right side of && and ||, an early return in a
// block and in an else, and a return inside a called function (which leaves only the callee).
__device__ void half_store(float *t, int tx)
{
    if (tx < 16)
        return;
    t[tx * 2 - 32] = 1.0f;
}

__global__ void control_flow(float *o)
{
    __shared__ float t[64];
    int tx = threadIdx.x;
    o[tx] = tx == 0 ? t[tx * 2] : 0.0f;
    o[tx] += tx < 8 && t[tx * 2] > 0.0f ? 1.0f : 0.0f;
    o[tx] += tx >= 8 || t[tx * 4] > 0.0f ? 1.0f : 0.0f;
    half_store(t, tx);
    t[tx] = 2.0f;
    if (tx < 4) {
        o[tx] = 0.0f;
        return;
    }
    t[tx * 2] = 3.0f;
    if (tx < 24) {
        t[tx + 1] = 4.0f;
    } else {
        o[tx] = 1.0f;
        return;
    }
    t[tx * 2 + 1] = 5.0f;
}
