__global__ void k()
{
    __shared__ float t[32];
    t[threadIdx.x] = 0;
}
