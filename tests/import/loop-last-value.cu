// A variable each iteration sets afresh keeps, after the loop, its value from the last iteration
// (Rodinia's pathfinder and hotspot test a 'computed' flag after their time loop, which ends
// with a break at its last iteration).
__global__ void last_value(float *out)
{
    __shared__ float r[64];
    bool done;
    for (int i = 0; i < 4; i++) {
        done = false;
        if (threadIdx.x >= i * 8) {
            done = true;
            r[threadIdx.x] = i;
        }
        __syncthreads();
        if (i == 3)
            break;
    }
    if (done)
        out[threadIdx.x] = r[threadIdx.x];
}
