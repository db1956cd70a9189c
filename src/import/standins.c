/* standins: the CUDA toolkit headers kernel files include, as the parser sees them. No CUDA
 * installation is needed: each header declares the names kernels use from it (cooperative
 * groups, WMMA fragments, cuBLAS handles, the profiler), with no bodies; the importer only
 * needs the names and types to parse the file, never code. A header not listed here and not
 * found on the include path is parsed as empty, with a note (import.c). */
#include "import_internal.h"

#include <stddef.h>

/* assert() on both sides, as the toolkit declares glibc's failure function for device code
 * (crt/common_functions.h); re-included, it follows NDEBUG again like the C library's */
static const char assert_h[] =
    "#ifndef __BS_ASSERT\n#define __BS_ASSERT\n"
    "extern \"C\" __host__ __device__ void __assert_fail(const char *, const char *, unsigned int, const char *);\n"
    "#endif\n#undef assert\n#ifdef NDEBUG\n#define assert(e) ((void)0)\n#else\n"
    "#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __func__))\n#endif\n";

static const char cooperative_groups_h[] =
    "#pragma once\n#ifndef __BS_COOPERATIVE_GROUPS\n#define __BS_COOPERATIVE_GROUPS\n"
    "namespace cooperative_groups {\n"
    "struct thread_group {\n"
    "  __device__ void sync() const; __device__ unsigned long long size() const;\n"
    "  __device__ unsigned long long num_threads() const; __device__ unsigned long long thread_rank() const;\n"
    "  __device__ unsigned meta_group_rank() const; __device__ unsigned meta_group_size() const;\n"
    "  __device__ dim3 group_dim() const;\n"
    "};\n"
    "struct thread_block : thread_group {\n"
    "  __device__ dim3 group_index() const; __device__ dim3 thread_index() const;\n"
    "  __device__ dim3 dim_threads() const;\n"
    "};\n"
    "struct grid_group : thread_group {\n"
    "  __device__ bool is_valid() const; __device__ unsigned long long num_blocks() const;\n"
    "  __device__ unsigned long long block_rank() const; __device__ dim3 group_dim() const;\n"
    "};\n"
    "struct coalesced_group : thread_group {\n"
    "  template <class T> __device__ T shfl(T, int) const;\n"
    "  template <class T> __device__ T shfl_up(T, unsigned) const;\n"
    "  template <class T> __device__ T shfl_down(T, unsigned) const;\n"
    "  template <class T> __device__ T shfl_xor(T, unsigned) const;\n"
    "  __device__ unsigned ballot(int) const; __device__ int any(int) const; __device__ int all(int) const;\n"
    "  template <class T> __device__ unsigned match_any(T) const;\n"
    "};\n"
    "template <unsigned N, class P = void> struct thread_block_tile : coalesced_group {\n"
    "  __device__ thread_block_tile();\n"
    "  template <class Q> __device__ thread_block_tile(const thread_block_tile<N, Q> &);\n"
    "};\n"
    "template <unsigned N, class P = void> struct block_tile_memory {};\n"
    "__device__ thread_block this_thread_block();\n"
    "template <unsigned N, class P> __device__ thread_block this_thread_block(block_tile_memory<N, P> &);\n"
    "__device__ grid_group this_grid();\n"
    "__device__ coalesced_group coalesced_threads();\n"
    "template <unsigned N, class G> __device__ thread_block_tile<N, G> tiled_partition(const G &);\n"
    "__device__ thread_group tiled_partition(const thread_group &, unsigned);\n"
    "template <class G> __device__ void sync(const G &);\n"
    "template <class G> __device__ void wait(const G &);\n"
    "template <class G> __device__ void wait_prior(const G &);\n"
    "template <class G, class T> __device__ void memcpy_async(const G &, T *, const T *, __bs_size_t);\n"
    "template <class T> struct plus { __device__ T operator()(T, T) const; };\n"
    "template <class T> struct less { __device__ T operator()(T, T) const; };\n"
    "template <class T> struct greater { __device__ T operator()(T, T) const; };\n"
    "template <class T> struct bit_and { __device__ T operator()(T, T) const; };\n"
    "template <class T> struct bit_or { __device__ T operator()(T, T) const; };\n"
    "template <class T> struct bit_xor { __device__ T operator()(T, T) const; };\n"
    "template <class G, class T, class Op> __device__ T reduce(const G &, T, Op);\n"
    "template <class G, class T, class Op> __device__ T inclusive_scan(const G &, T, Op);\n"
    "template <class G, class T> __device__ T inclusive_scan(const G &, T);\n"
    "template <class G, class T, class Op> __device__ T exclusive_scan(const G &, T, Op);\n"
    "template <class G, class T> __device__ T exclusive_scan(const G &, T);\n"
    "}\n"
    "#endif\n";

static const char mma_h[] =
    "#pragma once\n#ifndef __BS_MMA\n#define __BS_MMA\n"
    "namespace nvcuda { namespace wmma {\n"
    "struct matrix_a {}; struct matrix_b {}; struct accumulator {};\n"
    "struct row_major {}; struct col_major {};\n"
    "enum layout_t { mem_row_major, mem_col_major };\n"
    "namespace precision { struct tf32 {}; }\n"
    "namespace experimental { namespace precision { struct u4 {}; struct s4 {}; struct b1 {}; } }\n"
    "template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {\n"
    "  enum { num_elements = 8 }; T x[8];\n"
    "};\n"
    "template <class F, class T> __device__ void fill_fragment(F &, const T &);\n"
    "template <class F, class T> __device__ void load_matrix_sync(F &, const T *, unsigned);\n"
    "template <class F, class T> __device__ void load_matrix_sync(F &, const T *, unsigned, layout_t);\n"
    "template <class T, class F> __device__ void store_matrix_sync(T *, const F &, unsigned, layout_t);\n"
    "template <class D, class A, class B, class C> __device__ void mma_sync(D &, const A &, const B &, const C &);\n"
    "} }\n"
    "#endif\n";

static const char cublas_v2_h[] =
    "#pragma once\n#ifndef __BS_CUBLAS\n#define __BS_CUBLAS\n"
    "typedef struct cublasContext *cublasHandle_t;\n"
    "typedef enum { CUBLAS_STATUS_SUCCESS = 0, CUBLAS_STATUS_NOT_INITIALIZED = 1 } cublasStatus_t;\n"
    "typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;\n"
    "typedef enum { CUBLAS_DEFAULT_MATH = 0, CUBLAS_TENSOR_OP_MATH = 1, CUBLAS_TF32_TENSOR_OP_MATH = 3 } "
    "cublasMath_t;\n"
    "typedef enum { CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_32F_FAST_TF32 = 77, CUBLAS_COMPUTE_16F = 64 } "
    "cublasComputeType_t;\n"
    "typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;\n"
    "typedef enum { CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2, CUDA_R_16BF = 14 } cudaDataType;\n"
    "typedef cudaDataType cudaDataType_t;\n"
    "typedef struct cublasLtContext *cublasLtHandle_t; typedef struct cublasLtMatmulDescOpaque_t "
    "*cublasLtMatmulDesc_t;\n"
    "typedef struct cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;\n"
    "typedef struct cublasLtMatmulPreferenceOpaque_t *cublasLtMatmulPreference_t;\n"
    "typedef struct { int algo[16]; __bs_size_t workspaceSize; int state; float wavesCount; int reserved[4]; }\n"
    "  cublasLtMatmulHeuristicResult_t;\n"
    "cublasStatus_t cublasLtCreate(...); cublasStatus_t cublasLtDestroy(...); cublasStatus_t cublasLtMatmul(...);\n"
    "cublasStatus_t cublasLtMatmulDescCreate(...); cublasStatus_t cublasLtMatmulDescSetAttribute(...);\n"
    "cublasStatus_t cublasLtMatmulDescDestroy(...); cublasStatus_t cublasLtMatrixLayoutCreate(...);\n"
    "cublasStatus_t cublasLtMatrixLayoutDestroy(...); cublasStatus_t cublasLtMatmulPreferenceCreate(...);\n"
    "cublasStatus_t cublasLtMatmulPreferenceSetAttribute(...); cublasStatus_t "
    "cublasLtMatmulPreferenceDestroy(...);\n"
    "cublasStatus_t cublasLtMatmulAlgoGetHeuristic(...);\n"
    "cublasStatus_t cublasCreate(cublasHandle_t *); cublasStatus_t cublasDestroy(cublasHandle_t);\n"
    "cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t);\n"
    "cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t);\n"
    "cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,\n"
    "  const float *, const float *, int, const float *, int, const float *, float *, int);\n"
    "cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,\n"
    "  const double *, const double *, int, const double *, int, const double *, double *, int);\n"
    "cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,\n"
    "  const void *, const void *, cudaDataType, int, const void *, cudaDataType, int, const void *, void *,\n"
    "  cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);\n"
    "cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,\n"
    "  int, const float *, const float *, int, long long, const float *, int, long long, const float *, float *,\n"
    "  int, long long, int);\n"
    "#endif\n";

static const char cuda_profiler_api_h[] = "#pragma once\n#ifndef __BS_PROFILER\n#define __BS_PROFILER\n"
                                          "cudaError_t cudaProfilerStart(void);\n"
                                          "cudaError_t cudaProfilerStop(void);\n"
                                          "#endif\n";

static const char cuda_pipeline_h[] = "#pragma once\n#ifndef __BS_PIPELINE\n#define __BS_PIPELINE\n"
                                      "__device__ void __pipeline_memcpy_async(void *, const void *, __bs_size_t, "
                                      "__bs_size_t = 0);\n"
                                      "__device__ void __pipeline_commit(void);\n"
                                      "__device__ void __pipeline_wait_prior(__bs_size_t);\n"
                                      "#endif\n";

/* cuRAND's device API (curand_kernel.h): the generator states and the draws, for any state */
static const char curand_kernel_h[] =
    "#pragma once\n#ifndef __BS_CURAND_KERNEL\n#define __BS_CURAND_KERNEL\n"
    "struct curandStateXORWOW { unsigned int d, v[5]; int boxmuller_flag, boxmuller_flag_double;\n"
    "  float boxmuller_extra; double boxmuller_extra_double; };\n"
    "typedef struct curandStateXORWOW curandStateXORWOW_t; typedef struct curandStateXORWOW curandState_t;\n"
    "typedef struct curandStateXORWOW curandState;\n"
    "struct curandStatePhilox4_32_10 { unsigned int ctr[4], key[2], output[4]; unsigned int STATE; };\n"
    "typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;\n"
    "struct curandStateMRG32k3a { double s1[3], s2[3]; }; typedef struct curandStateMRG32k3a "
    "curandStateMRG32k3a_t;\n"
    "template <class S> __device__ void curand_init(unsigned long long, unsigned long long, unsigned long long, S "
    "*);\n"
    "template <class S> __device__ unsigned int curand(S *);\n"
    "template <class S> __device__ float curand_uniform(S *); template <class S> __device__ double "
    "curand_uniform_double(S *);\n"
    "template <class S> __device__ float curand_normal(S *); template <class S> __device__ double "
    "curand_normal_double(S *);\n"
    "template <class S> __device__ float2 curand_normal2(S *); template <class S> __device__ float4 "
    "curand_uniform4(S *);\n"
    "template <class S> __device__ float4 curand_normal4(S *);\n"
    "template <class S> __device__ float curand_log_normal(S *, float, float);\n"
    "template <class S> __device__ unsigned int curand_poisson(S *, double);\n"
    "#endif\n";

/* cuRAND's host API (curand.h): only the names host code around a kernel calls */
static const char curand_h[] = "#pragma once\n#ifndef __BS_CURAND\n#define __BS_CURAND\n"
                               "typedef struct curandGenerator_st *curandGenerator_t;\n"
                               "typedef enum { CURAND_STATUS_SUCCESS = 0 } curandStatus_t;\n"
                               "typedef enum { CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101,\n"
                               "  CURAND_RNG_QUASI_SOBOL32 = 201 } curandRngType_t;\n"
                               "curandStatus_t curandCreateGenerator(...); curandStatus_t "
                               "curandDestroyGenerator(...);\n"
                               "curandStatus_t curandSetPseudoRandomGeneratorSeed(...); curandStatus_t "
                               "curandGenerateUniform(...);\n"
                               "curandStatus_t curandGenerateNormal(...); curandStatus_t curandSetStream(...);\n"
                               "#endif\n";

/* libcu++'s barrier and pipeline (<cuda/barrier>, <cuda/pipeline>): the names kernels use, as
 * the CUDA samples and SGEMM's double buffering do */
static const char cuda_barrier_h[] =
    "#pragma once\n#ifndef __BS_CUDA_BARRIER\n#define __BS_CUDA_BARRIER\n#include <utility>\n"
    "namespace cuda {\n"
    "enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2,\n"
    "  thread_scope_thread = 3 };\n"
    "struct __attribute__((aligned(8))) __bs_barrier_base { unsigned long long __state; };\n"
    "template <thread_scope S, class F = void> class barrier : public __bs_barrier_base {\n"
    " public:\n"
    "  struct arrival_token { unsigned long long __t; };\n"
    "  barrier() = default;\n"
    "  __device__ arrival_token arrive(__PTRDIFF_TYPE__ = 1);\n"
    "  __device__ void wait(arrival_token &&) const;\n"
    "  __device__ void arrive_and_wait(); __device__ void arrive_and_drop();\n"
    "};\n"
    "template <thread_scope S, class F> __device__ void init(barrier<S, F> *, __PTRDIFF_TYPE__);\n"
    "template <__bs_size_t N> struct aligned_size_t { __bs_size_t value; __host__ __device__ "
    "aligned_size_t(__bs_size_t v) : value(v) {} };\n"
    "template <thread_scope S> class pipeline {\n"
    " public:\n"
    "  __device__ void producer_acquire(); __device__ void producer_commit();\n"
    "  __device__ void consumer_wait(); __device__ void consumer_release();\n"
    "};\n"
    "template <class G, thread_scope S, __bs_size_t N> struct pipeline_shared_state {};\n"
    "__device__ pipeline<thread_scope_thread> make_pipeline();\n"
    "template <class G, class T> __device__ pipeline<thread_scope_block> make_pipeline(const G &, T *);\n"
    "template <class T, class B> __device__ void memcpy_async(void *, const void *, T, B &);\n"
    "template <class G, class T, class B> __device__ void memcpy_async(const G &, void *, const void *, T, B &);\n"
    "template <thread_scope S> __device__ void pipeline_consumer_wait_prior(pipeline<S> &);\n"
    "}\n"
    "#endif\n";

static const char empty_h[] = "#pragma once\n";

const import_standin import_standins[] = {
    {"assert.h", assert_h},
    {"cassert", assert_h},
    {"cuda_runtime.h", empty_h},
    {"cuda_runtime_api.h", empty_h},
    {"cuda.h", empty_h},
    {"device_launch_parameters.h", empty_h},
    {"cuda_fp16.h", empty_h},
    {"cuda_bf16.h", empty_h},
    {"cuda_fp8.h", empty_h},
    {"vector_types.h", empty_h},
    {"vector_functions.h", empty_h},
    {"device_functions.h", empty_h},
    {"cuda_device_runtime_api.h", empty_h},
    {"sm_20_atomic_functions.h", empty_h},
    {"sm_60_atomic_functions.h", empty_h},
    {"math_constants.h", empty_h},
    {"helper_cuda.h", empty_h},
    {"cooperative_groups.h", cooperative_groups_h},
    {"cooperative_groups/reduce.h", cooperative_groups_h},
    {"cooperative_groups/scan.h", cooperative_groups_h},
    {"cooperative_groups/memcpy_async.h", cooperative_groups_h},
    {"mma.h", mma_h},
    {"cublas_v2.h", cublas_v2_h},
    {"cublas.h", cublas_v2_h},
    {"cublasLt.h", cublas_v2_h},
    {"cuda_profiler_api.h", cuda_profiler_api_h},
    {"cuda_pipeline.h", cuda_pipeline_h},
    {"cuda_pipeline_primitives.h", cuda_pipeline_h},
    {"curand.h", curand_h},
    {"curand_kernel.h", curand_kernel_h},
    {"cuda_awbarrier.h", empty_h},
    {"cuda/barrier", cuda_barrier_h},
    {"cuda/pipeline", cuda_barrier_h},
    {"cuda/std/barrier", cuda_barrier_h},
    {"nvtx3/nvToolsExt.h", empty_h},
    {"nvToolsExt.h", empty_h},
    {NULL, NULL},
};
