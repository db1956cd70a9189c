// A break under a condition that is the same for every thread ends the loop at its last
// iteration: the loop is cut there, and the rest of that iteration runs where it does not hold
// (the Rodinia hotspot and pathfinder kernels stop their time loop this way).
__global__ void loop_break(float *o, int unused)
{
    __shared__ float t[64];
    for (int i = 0; i < 8; i++) {
        t[threadIdx.x + i] = 1.0f;
        if (i == 5)
            break;
        t[threadIdx.x * 2] = 2.0f;
    }
}
