// An array of structs in shared memory: reading one field strides by the struct's size.
struct Particle {
    float x, y, z;
    int id;
};

__global__ void particles(const Particle *in, float *out)
{
    __shared__ Particle p[64];
    int i = threadIdx.x;
    p[i].x = in[i].x;
    p[i].id = i;
    __syncthreads();
    out[i] = p[i].y + p[(i + 1) % 64].z;
}
