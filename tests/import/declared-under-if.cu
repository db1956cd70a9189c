// A variable declared inside an if and set there (HSOpticalFlow's halo loads): it exists only
// where the condition holds, so its value there is known, not "set only under a condition".
__global__ void halo(const float *g, int w)
{
    __shared__ float s[8 * 34];
    const int pos = threadIdx.x + 1 + (threadIdx.y + 1) * 34;
    s[pos] = g[threadIdx.x];
    if (threadIdx.y == 0) {
        int smPos;
        smPos = threadIdx.x + 1;
        s[smPos] = g[0];
        smPos += 7 * 34;
        s[smPos] = g[1];
    }
}
