// A continue ends one iteration for the lanes that take it; a loop with a break is listed.
__global__ void loop_continue(float *o)
{
    __shared__ float t[64];
    int tx = threadIdx.x;
    for (int i = 0; i < 4; i++) {
        if (tx == i)
            continue;
        t[tx + 8 * i] = 5.0f;
    }
    for (int i = 0; i < 4; i++) {
        if (o[tx] > 0.0f)
            break;
        t[tx + i] = 6.0f;
    }
}
