/* gpu_internal: what the files of src/gpu/ share: the driver entry points (loaded with dlopen),
 * the NVRTC compiler with its CUBIN cache, and the CUPTI counter reader. */
#ifndef BANKSCOPE_GPU_INTERNAL_H
#define BANKSCOPE_GPU_INTERNAL_H

#include <cuda.h>
#include <stdbool.h>
#include <stddef.h>

#include "gpu/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Driver API entry points, resolved from libcuda.so.1 at run time. */
typedef struct gpu_driver {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*FuncSetAttribute)(CUfunction, CUfunction_attribute, int);
    CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*EventDestroy)(CUevent);
    CUresult (*GetErrorString)(CUresult, const char **);
    CUdevice device;
    CUcontext ctx;
    gpu_device info;
} gpu_driver;

/* The toolkit libraries loaded at run time (gpu_libs.c). */
typedef enum gpu_lib { GPU_LIB_NVRTC, GPU_LIB_CUPTI, GPU_LIB_COUNT } gpu_lib;
/* The library's handle, loaded on the first call; NULL with a one-line reason naming the missing
 * soname (the answer is kept: a later call gives the same). */
void *gpu_lib_open(gpu_lib lib, char *why, size_t n);
/* Resolve name from an opened library into the function pointer at slot; false with a reason. */
bool gpu_lib_sym(gpu_lib lib, void *slot, const char *name, char *why, size_t n);
/* Load name from the folder lib was loaded from, if it is there (a library lib itself loads by
 * name, which the loader then finds already loaded). */
void gpu_lib_companion(gpu_lib lib, const char *name);
/* Load NVRTC and resolve its entry points (gpu_nvrtc.c); false with a reason. */
bool gpu_nvrtc_load(char *why, size_t n);

/* The opened driver, or NULL with a reason (gpu_driver.c). */
gpu_driver *gpu_driver_get(char *why, size_t n);
/* "cuXxx failed: message" for a driver error. */
void gpu_driver_error(gpu_driver *d, CUresult r, const char *what, char *err, size_t n);

/* NVRTC: source -> CUBIN for the device's sm_XY, with memory and disk caches (gpu_nvrtc.c;
 * a disk entry is verified by io/cache.c before it is returned). Returns a malloc'd image the
 * caller frees; note gets "" or why the disk cache is off or refused an entry (said once). */
void *gpu_nvrtc_cubin(const char *source, int cc_major, int cc_minor, size_t *size, bool *cached, char *note,
                      size_t note_n, char *err, size_t n);

/* CUPTI range profiler: run launch(arg) once under the profiler and read the shared-memory
 * wavefront, bank-conflict and instruction counts named by set (gpu_counters.cpp). False with a
 * reason. */
bool gpu_counters_read(CUcontext ctx, const gpu_counter_set *set, bool (*launch)(void *), void *arg, double *wavefronts,
                       double *conflicts, double *instructions, char *why, size_t n);
/* End the CUPTI session (if one was opened). */
void gpu_counters_close(void);

#ifdef __cplusplus
}
#endif

#endif
