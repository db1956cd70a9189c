// Template values from the kernel's launch: BS and T are given by k<128, float><<<...>>>, so
// no -D is needed (a note says where they come from).
template <int BS, class T> __global__ void launch_values(const T *in, T *out)
{
    __shared__ T s[BS];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x * 4) % BS];
}

void run(const float *in, float *out)
{
    launch_values<128, float><<<1, 128>>>(in, out);
}
