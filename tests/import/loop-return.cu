// A counted loop, the kernel's last statement, left by a return whose condition is the same for
// every thread (llm.c's softmax_autoregressive_backward_kernel): it ends the loop as a break
// would, at the first iteration where the condition holds (t < 0 at to = 2 when t0 = 1).
__global__ void rows(float *o, int T)
{
    __shared__ float acc[32];
    int t0 = T - 1 - 4 * blockIdx.x;
    for (int to = 0; to < 4; ++to) {
        int t = t0 - to;
        if (t < 0)
            return;
        acc[threadIdx.x] = o[t];
        o[t] = acc[(threadIdx.x + to) % 32];
    }
}
