/* cupti_api: dlopen of libcupti inside the recorded program for the measuring passes. CUPTI loads
 * its companions (libnvperf_*) by soname itself, which the toolkit folder holds beside it; the
 * folder is tried first so a toolkit that is on no library path still works ($BANKSCOPE_CUPTI_DIR,
 * then the toolkit bankscope was built with, then the usual places, then the library path). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#include "config.h"
#include "record/cupti_api.h"

#ifndef BANKSCOPE_CUDA_LIBDIR
#define BANKSCOPE_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

cupti_api_table cupti_api;
cupti_driver_table cupti_driver;

static bool loaded;

/* dlopen by soname in a folder (NULL: the library path); the handle or NULL. */
static void *open_in(const char *dir, const char *soname)
{
    char path[700];
    if (!dir)
        return dlopen(soname, RTLD_NOW | RTLD_GLOBAL);
    snprintf(path, sizeof path, "%.600s/%s", dir, soname);
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

/* The driver's entries from the loaded libcuda.so.1; false with a reason. */
static bool driver_load(char *why, size_t n)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) {
        snprintf(why, n, "libcuda.so.1 (the CUDA driver) is not loaded in the program");
        return false;
    }
    static const char *const name[] = {"cuCtxSynchronize", "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2",
                                       "cuCtxGetDevice",   "cuDeviceGetName",     "cuDeviceGetAttribute"};
    void *p[6];
    for (int i = 0; i < 6; i++)
        if (!(p[i] = dlsym(h, name[i]))) {
            snprintf(why, n, "the CUDA driver has no %s", name[i]);
            return false;
        }
    memcpy(&cupti_driver.ctx_synchronize, &p[0], sizeof p[0]);
    memcpy(&cupti_driver.ctx_push, &p[1], sizeof p[1]);
    memcpy(&cupti_driver.ctx_pop, &p[2], sizeof p[2]);
    memcpy(&cupti_driver.ctx_get_device, &p[3], sizeof p[3]);
    memcpy(&cupti_driver.device_get_name, &p[4], sizeof p[4]);
    memcpy(&cupti_driver.device_get_attribute, &p[5], sizeof p[5]);
    return true;
}

bool cupti_api_load(char *why, size_t n)
{
    if (loaded)
        return true;
    if (!driver_load(why, n))
        return false;
    char soname[64];
    snprintf(soname, sizeof soname, "libcupti.so.%d", CUDA_VERSION / 1000);
    const char *env = getenv("BANKSCOPE_CUPTI_DIR");
    const char *dirs[] = {env && *env ? env : NULL, BANKSCOPE_CUDA_LIBDIR, "/usr/local/cuda/lib64",
                          "/usr/local/cuda/extras/CUPTI/lib64"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && !h; i++)
        if (dirs[i])
            h = open_in(dirs[i], soname);
    if (!h)
        h = open_in(NULL, soname);
    if (!h) {
        snprintf(why, n, "%s (CUPTI, the CUDA profiling library) not found", soname);
        return false;
    }
#define CUPTI_API_SYM(f)                                                                                               \
    {                                                                                                                  \
        void *p = dlsym(h, #f);                                                                                        \
        if (!p) {                                                                                                      \
            snprintf(why, n, "%s has no %s (CUPTI older than CUDA %d)", soname, #f, CUDA_VERSION / 1000);              \
            return false;                                                                                              \
        }                                                                                                              \
        memcpy(&cupti_api.f, &p, sizeof p);                                                                            \
    }
    CUPTI_API_FUNCS(CUPTI_API_SYM)
#undef CUPTI_API_SYM
    loaded = true;
    return true;
}

const char *cupti_api_error(CUptiResult r)
{
    static char num[32];
    const char *s = NULL;
    if (loaded && cupti_api.cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s)
        return s;
    snprintf(num, sizeof num, "CUPTI error %d", (int)r);
    return num;
}
