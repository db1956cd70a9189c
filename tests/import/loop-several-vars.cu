// A for loop that declares and steps two variables (as matrixMul's does): the one its condition
// compares is counted, the other is changed by the loop.
#define TILE 32

__global__ void tiles(const float *A, float *C, int wA)
{
    __shared__ float As[TILE][TILE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    float sum = 0;
    for (int a = 0, b = wA * ty; a < wA; a += TILE, b += TILE) {
        As[ty][tx] = A[b + tx];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[k][tx] * As[ty][(a / TILE + k) % TILE];
        __syncthreads();
    }
    C[ty * TILE + tx] = sum;
}
