// Shared memory from a class template's explicit specialization, chosen by the kernel's type
// parameter (-D T=float): the call on 'Scratch<T>' is the 'float' specialization's method, which
// hands out its extern __shared__ array; the unspecialised template would not compile.
template <typename T> struct Scratch {
    __device__ T *get()
    {
        extern __device__ void no_such_type(void);
        no_such_type();
        return 0;
    }
};
template <> struct Scratch<float> {
    __device__ float *get()
    {
        extern __shared__ float s_float[];
        return s_float;
    }
};
template <> struct Scratch<int> {
    __device__ int *get()
    {
        extern __shared__ int s_int[];
        return s_int;
    }
};
template <class T> __global__ void scale(T *in, T *out)
{
    Scratch<T> sm;
    T *s = sm.get();
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    s[t] = (T)2 * s[t];
    __syncthreads();
    out[t] = s[(t * 4) % 64];
}
