/* sanitizer_api: the part of the Compute Sanitizer API (CUDA toolkit, compute-sanitizer/include)
 * that the capture pass uses. Where the toolkit has its headers (configure defines
 * HAVE_SANITIZER_H), they are used; a toolkit without them (some packaged toolkits) gets the
 * declarations below, written from NVIDIA's public API documentation (Compute Sanitizer API
 * Reference: sanitizer_callbacks.h, sanitizer_patching.h, sanitizer_memory.h,
 * sanitizer_stream.h) as CUDA 13.0 has them: compared with the real headers on an H100
 * (tests/gpu/record_abi.sh, which the GPU tests run first). Only documented enumerator values and
 * the leading members of the callback-data structures the pass reads are declared.
 *
 * The library itself is never linked: record_capture.c loads libsanitizer-public.so with dlopen,
 * so every function is used through a pointer of the *_fn types below. */
#ifndef BANKSCOPE_SANITIZER_API_H
#define BANKSCOPE_SANITIZER_API_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#ifdef HAVE_SANITIZER_H
#include <sanitizer.h>
#else
typedef int SanitizerResult; /* SANITIZER_SUCCESS = 0 */
#define SANITIZER_SUCCESS 0

typedef enum { SANITIZER_CB_DOMAIN_RESOURCE = 3, SANITIZER_CB_DOMAIN_LAUNCH = 5 } Sanitizer_CallbackDomain;

enum { SANITIZER_CBID_RESOURCE_MODULE_LOADED = 9 }; /* 9 in CUDA 13.0 (8 in older headers) */
enum { SANITIZER_CBID_LAUNCH_BEGIN = 1, SANITIZER_CBID_LAUNCH_END = 3 };

typedef enum {
    SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS = 4,
    SANITIZER_INSTRUCTION_MEMCPY_ASYNC = 14,
    SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS = 17,
    SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS = 19
} Sanitizer_InstructionId;

typedef uint32_t Sanitizer_CallbackId;
typedef struct Sanitizer_Subscriber_st *Sanitizer_SubscriberHandle;
typedef struct Sanitizer_Stream_st *Sanitizer_StreamHandle;
typedef struct Sanitizer_Launch_st *Sanitizer_LaunchHandle;
typedef void (*Sanitizer_CallbackFunc)(void *userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                                       const void *cbdata);

typedef struct {
    CUcontext context;
    CUmodule module;
    size_t cubinSize;
    const char *pCubin;
} Sanitizer_ResourceModuleData;

typedef struct {
    CUcontext context;
    CUstream stream;
    Sanitizer_StreamHandle hStream;
    CUmodule module;
    CUfunction function;
    const char *functionName;
    uint32_t gridDim_x, gridDim_y, gridDim_z;
    uint32_t blockDim_x, blockDim_y, blockDim_z;
    uint32_t clusterDim_x, clusterDim_y, clusterDim_z;
    uint64_t gridId;
    Sanitizer_LaunchHandle hLaunch;
    CUdevice device;
} Sanitizer_LaunchData;
#endif

/* The functions, as pointer types (the names of the API with _fn). */
typedef SanitizerResult (*sanitizerSubscribe_fn)(Sanitizer_SubscriberHandle *, Sanitizer_CallbackFunc, void *);
typedef SanitizerResult (*sanitizerEnableDomain_fn)(uint32_t, Sanitizer_SubscriberHandle, Sanitizer_CallbackDomain);
typedef SanitizerResult (*sanitizerAddPatchesFromFile_fn)(const char *, CUcontext);
typedef SanitizerResult (*sanitizerPatchInstructions_fn)(Sanitizer_InstructionId, CUmodule, const char *);
typedef SanitizerResult (*sanitizerPatchModule_fn)(CUmodule);
typedef SanitizerResult (*sanitizerUnpatchModule_fn)(CUmodule);
typedef SanitizerResult (*sanitizerSetLaunchCallbackData_fn)(Sanitizer_LaunchHandle, CUfunction, Sanitizer_StreamHandle,
                                                             const void *);
typedef SanitizerResult (*sanitizerAlloc_fn)(CUcontext, void **, size_t);
typedef SanitizerResult (*sanitizerFree_fn)(CUcontext, void *);
typedef SanitizerResult (*sanitizerMemcpyHostToDeviceAsync_fn)(void *, void *, size_t, Sanitizer_StreamHandle);
typedef SanitizerResult (*sanitizerMemcpyDeviceToHost_fn)(void *, void *, size_t, Sanitizer_StreamHandle);
typedef SanitizerResult (*sanitizerStreamSynchronize_fn)(Sanitizer_StreamHandle);
typedef SanitizerResult (*sanitizerGetFunctionPcAndSize_fn)(CUmodule, const char *, uint64_t *, uint64_t *);
typedef SanitizerResult (*sanitizerGetResultString_fn)(SanitizerResult, const char **);

#endif
