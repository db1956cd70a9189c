// The kernel of included-kernel.cu, in a file of its own that the host wrapper includes (as
// Rodinia's lavaMD does): a block reverse through shared memory, and a copy of an anonymous
// struct named by its typedef (four doubles, 8-byte aligned: four 8-byte stores).
#define N_PER_BLOCK 64

typedef struct {
    double v, x, y, z;
} FOUR;

__global__ void reverse(float *d, const FOUR *p, double *o)
{
    __shared__ float s[N_PER_BLOCK];
    __shared__ FOUR q[N_PER_BLOCK];
    int t = threadIdx.x;
    s[t] = d[t];
    q[t] = p[t];
    __syncthreads();
    d[t] = s[N_PER_BLOCK - t - 1];
    o[t] = q[(t + 1) % N_PER_BLOCK].y;
}
