/* prelude: the header the importer puts in front of every CUDA file (as an unsaved file, so no
 * CUDA installation is needed). It declares what kernels use: the execution-space keywords,
 * the built-in index variables, the vector types with their CUDA alignments, and the common
 * intrinsics. Only the names matter to the importer; nothing here is ever compiled to code. */
#include "import_internal.h"

#define VEC(T, N, A1, A2, A3, A4)                                                                                      \
    "struct __attribute__((aligned(" #A1 "))) " #N "1 { " T " x; };\n"                                                 \
    "struct __attribute__((aligned(" #A2 "))) " #N "2 { " T " x, y; };\n"                                              \
    "struct " #N "3 { " T " x, y, z; };\n"                                                                             \
    "struct __attribute__((aligned(" #A4 "))) " #N "4 { " T " x, y, z, w; };\n"

const char import_prelude_name[] = "/bankscope/cuda_prelude.h";

/* The CUDA headers a kernel file may include: empty stand-ins (the prelude declares what they
 * would), found in import_include_dir. */
const char import_include_dir[] = "/bankscope/include";
const char *const import_standins[] = {"cuda_runtime.h",
                                       "cuda_runtime_api.h",
                                       "cuda.h",
                                       "device_launch_parameters.h",
                                       "cuda_fp16.h",
                                       "cuda_bf16.h",
                                       "vector_types.h",
                                       "device_functions.h",
                                       "cuda_device_runtime_api.h",
                                       "sm_20_atomic_functions.h",
                                       "math_constants.h",
                                       "helper_cuda.h",
                                       NULL};

const char import_prelude[] =
    "#pragma clang system_header\n"
    "#define __CUDACC__ 1\n"
    "#define __BANKSCOPE_IMPORT__ 1\n"
    "#define __global__ __attribute__((global))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "#define __shared__ __attribute__((shared))\n"
    "#define __constant__ __attribute__((constant))\n"
    "#define __managed__ __attribute__((managed))\n"
    "#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))\n"
    "#define __forceinline__ inline __attribute__((always_inline))\n"
    "#define __noinline__ __attribute__((noinline))\n"
    "#define __align__(n) __attribute__((aligned(n)))\n"
    "#define __restrict__ __restrict\n"
    "#define __device_builtin__\n"
    "#define __builtin_align__(n) __attribute__((aligned(n)))\n"
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "typedef __SIZE_TYPE__ __bs_size_t;\n"
    "typedef unsigned int uint; typedef unsigned short ushort; typedef unsigned char uchar;\n" VEC(
        "signed char", char, 1, 2, 1, 4) VEC("unsigned char", uchar, 1, 2, 1,
                                             4) VEC("short", short, 2, 4, 2, 8) VEC("unsigned short", ushort, 2, 4, 2,
                                                                                    8) VEC("int", int, 4, 8, 4, 16)
        VEC("unsigned int", uint, 4, 8, 4, 16) VEC("long", long, 8, 16, 8, 16) VEC(
            "unsigned long", ulong,
            8, 16, 8, 16) VEC("long long", longlong, 8, 16, 8, 16)
            VEC("unsigned long long", ulonglong, 8, 16, 8, 16) VEC("float", float, 4, 8, 4, 16) VEC(
                "double", double,
                8, 16, 8,
                16) "struct dim3 { unsigned int x, y, z;\n"
                    "  dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {} "
                    "};\n"
                    "struct __attribute__((aligned(2))) __half { unsigned short __x; };\n"
                    "struct __attribute__((aligned(4))) __half2 { __half x, y; };\n"
                    "typedef __half half; typedef __half2 half2;\n"
                    "struct __attribute__((aligned(2))) __nv_bfloat16 { unsigned short __x; };\n"
                    "extern const __device__ uint3 threadIdx;\n"
                    "extern const __device__ uint3 blockIdx;\n"
                    "extern const __device__ dim3 blockDim;\n"
                    "extern const __device__ dim3 gridDim;\n"
                    "extern const __device__ int warpSize;\n"
                    "__device__ void __syncthreads(void);\n"
                    "__device__ int __syncthreads_count(int);\n"
                    "__device__ int __syncthreads_and(int);\n"
                    "__device__ int __syncthreads_or(int);\n"
                    "__device__ void __syncwarp(unsigned int mask = 0xffffffffu);\n"
                    "__device__ void __threadfence(void);\n"
                    "__device__ void __threadfence_block(void);\n"
                    "template <class T> __device__ T atomicAdd(T *, T);\n"
                    "template <class T> __device__ T atomicSub(T *, T);\n"
                    "template <class T> __device__ T atomicExch(T *, T);\n"
                    "template <class T> __device__ T atomicMin(T *, T);\n"
                    "template <class T> __device__ T atomicMax(T *, T);\n"
                    "template <class T> __device__ T atomicAnd(T *, T);\n"
                    "template <class T> __device__ T atomicOr(T *, T);\n"
                    "template <class T> __device__ T atomicXor(T *, T);\n"
                    "template <class T> __device__ T atomicCAS(T *, T, T);\n"
                    "__device__ unsigned int atomicInc(unsigned int *, unsigned int);\n"
                    "__device__ unsigned int atomicDec(unsigned int *, unsigned int);\n"
                    "template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);\n"
                    "template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);\n"
                    "template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);\n"
                    "template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);\n"
                    "template <class T> __device__ T __ldg(const T *);\n"
                    "__device__ unsigned __ballot_sync(unsigned, int);\n"
                    "__device__ int __all_sync(unsigned, int);\n"
                    "__device__ int __any_sync(unsigned, int);\n"
                    "__device__ unsigned __activemask(void);\n"
                    "__device__ int __popc(unsigned);\n"
                    "__device__ int __clz(int);\n"
                    "__device__ int __ffs(int);\n"
                    "__device__ unsigned __brev(unsigned);\n"
                    "__device__ int __mul24(int, int);\n"
                    "__device__ unsigned __umul24(unsigned, unsigned);\n"
                    "__device__ float __fdividef(float, float);\n"
                    "__device__ float __expf(float);\n"
                    "__device__ float __sinf(float);\n"
                    "__device__ float __cosf(float);\n"
                    "__device__ float __half2float(__half);\n"
                    "__device__ __half __float2half(float);\n"
                    "__device__ __half2 __floats2half2_rn(float, float);\n"
                    "__device__ int min(int, int); __device__ unsigned min(unsigned, unsigned);\n"
                    "__device__ long long min(long long, long long); __device__ float min(float, float);\n"
                    "__device__ int max(int, int); __device__ unsigned max(unsigned, unsigned);\n"
                    "__device__ long long max(long long, long long); __device__ float max(float, float);\n"
                    "__device__ unsigned umin(unsigned, unsigned); __device__ unsigned umax(unsigned, unsigned);\n"
                    "__device__ float fminf(float, float); __device__ float fmaxf(float, float);\n"
                    "__device__ float sqrtf(float); __device__ float rsqrtf(float); __device__ float expf(float);\n"
                    "__device__ float logf(float); __device__ float sinf(float); __device__ float cosf(float);\n"
                    "__device__ float fabsf(float); __device__ float floorf(float); __device__ float ceilf(float);\n"
                    "__device__ float fmaf(float, float, float); __device__ float powf(float, float);\n"
                    "__device__ double sqrt(double); __device__ double exp(double); __device__ double fabs(double);\n"
                    "__device__ int abs(int);\n"
                    "__device__ float2 make_float2(float, float);\n"
                    "__device__ float3 make_float3(float, float, float);\n"
                    "__device__ float4 make_float4(float, float, float, float);\n"
                    "__device__ int2 make_int2(int, int);\n"
                    "__device__ int4 make_int4(int, int, int, int);\n"
                    "__device__ double2 make_double2(double, double);\n"
                    "__device__ uint2 make_uint2(unsigned, unsigned);\n"
                    "__device__ uint4 make_uint4(unsigned, unsigned, unsigned, unsigned);\n"
                    "extern \"C\" int printf(const char *, ...);\n"
                    /* host code around the kernel: the common runtime calls and the <<<...>>> launch */
                    "typedef int cudaError_t; typedef struct CUstream_st *cudaStream_t; typedef struct CUevent_st "
                    "*cudaEvent_t;\n"
                    "enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,\n"
                    "  cudaMemcpyDeviceToDevice, cudaMemcpyDefault };\n"
                    "enum { cudaSuccess = 0 };\n"
                    "extern \"C\" int cudaConfigureCall(dim3, dim3, __bs_size_t = 0, cudaStream_t = 0);\n"
                    "extern \"C\" unsigned __cudaPushCallConfiguration(dim3, dim3, __bs_size_t = 0, void * = 0);\n"
                    "template <class T> cudaError_t cudaMalloc(T **, __bs_size_t);\n"
                    "template <class T> cudaError_t cudaMallocManaged(T **, __bs_size_t, unsigned = 1);\n"
                    "template <class T> cudaError_t cudaMallocHost(T **, __bs_size_t);\n"
                    "cudaError_t cudaFree(void *); cudaError_t cudaFreeHost(void *);\n"
                    "cudaError_t cudaMemcpy(void *, const void *, __bs_size_t, cudaMemcpyKind);\n"
                    "cudaError_t cudaMemcpyAsync(void *, const void *, __bs_size_t, cudaMemcpyKind, cudaStream_t = "
                    "0);\n"
                    "cudaError_t cudaMemset(void *, int, __bs_size_t);\n"
                    "template <class T> cudaError_t cudaMemcpyToSymbol(const T &, const void *, __bs_size_t, "
                    "__bs_size_t = 0,\n"
                    "  cudaMemcpyKind = cudaMemcpyHostToDevice);\n"
                    "cudaError_t cudaDeviceSynchronize(void); cudaError_t cudaDeviceReset(void);\n"
                    "cudaError_t cudaGetLastError(void); cudaError_t cudaPeekAtLastError(void);\n"
                    "const char *cudaGetErrorString(cudaError_t);\n"
                    "cudaError_t cudaSetDevice(int); cudaError_t cudaGetDevice(int *);\n"
                    "cudaError_t cudaEventCreate(cudaEvent_t *); cudaError_t cudaEventDestroy(cudaEvent_t);\n"
                    "cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = 0); cudaError_t "
                    "cudaEventSynchronize(cudaEvent_t);\n"
                    "cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);\n"
                    "cudaError_t cudaStreamCreate(cudaStream_t *); cudaError_t cudaStreamDestroy(cudaStream_t);\n"
                    "cudaError_t cudaStreamSynchronize(cudaStream_t);\n";
