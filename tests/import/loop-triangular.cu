// A triangular loop nest, as LU decompositions write it: the inner loop's bound is the outer
// loop's variable. The inner loop runs to the furthest bound, each iteration only where it is
// within the bound of the time (where it is not, no thread runs it).
#define B 16

__global__ void triangular(float *m)
{
    __shared__ float a[B][B + 1];
    a[threadIdx.x][0] = m[threadIdx.x];
    __syncthreads();
    for (int i = 0; i < B; i++)
        for (int j = 0; j < i; j++)
            a[threadIdx.x][i] -= a[threadIdx.x][j] * a[j][i];
}
