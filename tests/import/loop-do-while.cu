// A double buffer stepped by a do-while loop (as register-prefetching SGEMMs write it): the
// variable its condition compares is stepped once, first in the body; the buffer index flips
// under a condition of that variable, so it alternates from one iteration to the next.
#define BK 8

__global__ void prefetch(const float *A, float *C, int K)
{
    __shared__ float s[2][64];
    int write = 1;
    int k = 0;
    s[0][threadIdx.x] = A[threadIdx.x];
    __syncthreads();
    do {
        k += BK;
        if (k < K) {
            s[write][threadIdx.x] = A[k + threadIdx.x];
        }
        C[threadIdx.x] += s[write ^ 1][(threadIdx.x + k) % 64];
        if (k < K) {
            __syncthreads();
            write ^= 1;
        }
    } while (k < K);
}
