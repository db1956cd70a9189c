/* gpu_driver: loads libcuda.so.1 with dlopen (never linked, so bankscope starts without a
 * driver), resolves the entry points, and opens the first device's primary context. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu/gpu_internal.h"

static gpu_driver drv;
static int drv_state; /* 0 untried, 1 open, -1 failed */
static char drv_why[256];

void gpu_driver_error(gpu_driver *d, CUresult r, const char *what, char *err, size_t n)
{
    const char *s = NULL;
    if (d && d->GetErrorString)
        d->GetErrorString(r, &s);
    snprintf(err, n, "%s failed: %s (%d)", what, s ? s : "unknown error", (int)r);
}

/* Resolve name (or its fallback) into *slot; false when neither exists. */
static bool sym(void *lib, void *slot, const char *name, const char *fallback)
{
    void *p = dlsym(lib, name);
    if (!p && fallback)
        p = dlsym(lib, fallback);
    memcpy(slot, &p, sizeof p);
    return p != NULL;
}

/* dlopen the driver and resolve every entry point bankscope uses, so that one binary runs with or
 * without a driver; false with the reason in drv_why. */
static bool driver_load(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(drv_why, sizeof drv_why, "no NVIDIA driver (libcuda.so.1 not found)");
        return false;
    }
    bool ok =
        sym(lib, &drv.Init, "cuInit", NULL) && sym(lib, &drv.DeviceGet, "cuDeviceGet", NULL) &&
        sym(lib, &drv.DeviceGetCount, "cuDeviceGetCount", NULL) &&
        sym(lib, &drv.DeviceGetName, "cuDeviceGetName", NULL) &&
        sym(lib, &drv.DeviceGetAttribute, "cuDeviceGetAttribute", NULL) &&
        sym(lib, &drv.DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", NULL) &&
        sym(lib, &drv.CtxSetCurrent, "cuCtxSetCurrent", NULL) &&
        sym(lib, &drv.CtxSynchronize, "cuCtxSynchronize", NULL) &&
        sym(lib, &drv.ModuleLoadData, "cuModuleLoadData", NULL) &&
        sym(lib, &drv.ModuleUnload, "cuModuleUnload", NULL) &&
        sym(lib, &drv.ModuleGetFunction, "cuModuleGetFunction", NULL) &&
        sym(lib, &drv.FuncSetAttribute, "cuFuncSetAttribute", NULL) &&
        sym(lib, &drv.OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", NULL) &&
        sym(lib, &drv.MemAlloc, "cuMemAlloc_v2", NULL) && sym(lib, &drv.MemFree, "cuMemFree_v2", NULL) &&
        sym(lib, &drv.MemcpyDtoH, "cuMemcpyDtoH_v2", NULL) && sym(lib, &drv.MemcpyHtoD, "cuMemcpyHtoD_v2", NULL) &&
        sym(lib, &drv.MemsetD8, "cuMemsetD8_v2", NULL) && sym(lib, &drv.LaunchKernel, "cuLaunchKernel", NULL) &&
        sym(lib, &drv.EventCreate, "cuEventCreate", NULL) && sym(lib, &drv.EventRecord, "cuEventRecord", NULL) &&
        sym(lib, &drv.EventSynchronize, "cuEventSynchronize", NULL) &&
        sym(lib, &drv.EventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime") &&
        sym(lib, &drv.EventDestroy, "cuEventDestroy_v2", NULL) &&
        sym(lib, &drv.GetErrorString, "cuGetErrorString", NULL);
    if (!ok) {
        snprintf(drv_why, sizeof drv_why, "the NVIDIA driver is too old for CUDA 13 (missing entry points)");
        return false;
    }
    CUresult r = drv.Init(0);
    int count = 0;
    if (r == CUDA_SUCCESS)
        r = drv.DeviceGetCount(&count);
    if (r != CUDA_SUCCESS) {
        gpu_driver_error(&drv, r, "cuInit", drv_why, sizeof drv_why);
        return false;
    }
    if (count < 1) {
        snprintf(drv_why, sizeof drv_why, "no CUDA device found");
        return false;
    }
    gpu_device *g = &drv.info;
    if ((r = drv.DeviceGet(&drv.device, 0)) != CUDA_SUCCESS ||
        (r = drv.DeviceGetName(g->name, sizeof g->name, drv.device)) != CUDA_SUCCESS ||
        (r = drv.DeviceGetAttribute(&g->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, drv.device)) !=
            CUDA_SUCCESS ||
        (r = drv.DeviceGetAttribute(&g->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, drv.device)) !=
            CUDA_SUCCESS ||
        (r = drv.DeviceGetAttribute(&g->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, drv.device)) != CUDA_SUCCESS ||
        (r = drv.DeviceGetAttribute(&g->clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, drv.device)) != CUDA_SUCCESS ||
        (r = drv.DevicePrimaryCtxRetain(&drv.ctx, drv.device)) != CUDA_SUCCESS ||
        (r = drv.CtxSetCurrent(drv.ctx)) != CUDA_SUCCESS) {
        gpu_driver_error(&drv, r, "opening the GPU", drv_why, sizeof drv_why);
        return false;
    }
    return true;
}

gpu_driver *gpu_driver_get(char *why, size_t n)
{
    if (drv_state == 0)
        drv_state = driver_load() ? 1 : -1;
    if (drv_state < 0) {
        snprintf(why, n, "%s", drv_why);
        return NULL;
    }
    drv.CtxSetCurrent(drv.ctx);
    return &drv;
}

bool gpu_open(gpu_device *dev, char *why, size_t n)
{
    gpu_driver *d = gpu_driver_get(why, n);
    if (!d || !gpu_nvrtc_load(why, n)) /* the driver first: without one, NVRTC is never loaded */
        return false;
    *dev = d->info;
    return true;
}
