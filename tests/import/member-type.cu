// A member type of a class template that depends on the kernel's type parameter ('typename
// pair_of<T>::type', as the CUDA samples' n-body writes its vectors): with -D T=float it is the
// type the 'float' specialization names (float2), so the shared memory is read as float2; a
// component of an element read as a vector is the float next to its start.
template <typename T> struct pair_of {
    typedef T type;
};
template <> struct pair_of<float> {
    typedef float2 type;
};
template <> struct pair_of<double> {
    typedef double2 type;
};

template <typename T> __global__ void pairs(const typename pair_of<T>::type *in, float *out)
{
    extern __shared__ float raw[];
    typename pair_of<T>::type *p = reinterpret_cast<typename pair_of<T>::type *>(raw);
    p[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = p[(threadIdx.x * 2) % 32].x + reinterpret_cast<float2 *>(raw)[threadIdx.x].y;
}
