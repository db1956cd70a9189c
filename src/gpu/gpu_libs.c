/* gpu_libs: the CUDA toolkit's libraries (NVRTC, CUPTI) are loaded with dlopen when a
 * measurement or a PTX compile asks for them, never linked: the same binary starts and analyses
 * on a machine without them, and a no-GPU run never pays for loading them. Each is looked for
 * by its versioned soname (the toolkit's major version, e.g. libnvrtc.so.13) first in the
 * toolkit folder found by configure (or $BANKSCOPE_CUDA_LIBDIR), then on the default library
 * path (LD_LIBRARY_PATH, ld.so.cache). The libraries they load themselves by name (NVRTC's
 * builtins, CUPTI's libnvperf_host.so) are loaded first from the same folder, so a toolkit that
 * is on no library path still works. */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gpu/gpu_internal.h"

#ifndef BANKSCOPE_CUDA_LIBDIR
#define BANKSCOPE_CUDA_LIBDIR "/usr/local/cuda/lib64"
#endif

static const char *const lib_base[GPU_LIB_COUNT] = {"libnvrtc", "libcupti"};
static const char *const lib_what[GPU_LIB_COUNT] = {"NVRTC, the CUDA compiler", "CUPTI, the CUDA profiler"};

static void *handle[GPU_LIB_COUNT];
static char why_not[GPU_LIB_COUNT][300];

/* The folder searched before the default path. */
static const char *lib_dir(void)
{
    const char *env = getenv("BANKSCOPE_CUDA_LIBDIR");
    return env && *env ? env : BANKSCOPE_CUDA_LIBDIR;
}

/* "libnvrtc.so.13": the soname of the toolkit's major version. */
static void gpu_lib_soname(gpu_lib lib, char *out, size_t n)
{
    snprintf(out, n, "%s.so.%d", lib_base[lib], CUDA_VERSION / 1000);
}

void *gpu_lib_open(gpu_lib lib, char *why, size_t n)
{
    if (!handle[lib] && !why_not[lib][0]) {
        char name[64], path[600];
        gpu_lib_soname(lib, name, sizeof name);
        snprintf(path, sizeof path, "%.500s/%s", lib_dir(), name);
        handle[lib] = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!handle[lib])
            handle[lib] = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (!handle[lib])
            snprintf(why_not[lib], sizeof why_not[lib],
                     "%s not found (%s, CUDA %d; looked in %.120s and the library path)", name, lib_what[lib],
                     CUDA_VERSION / 1000, lib_dir());
    }
    if (!handle[lib])
        snprintf(why, n, "%s", why_not[lib]);
    return handle[lib];
}

bool gpu_lib_sym(gpu_lib lib, void *slot, const char *name, char *why, size_t n)
{
    void *p = handle[lib] ? dlsym(handle[lib], name) : NULL;
    memcpy(slot, &p, sizeof p);
    if (!p) {
        char so[64];
        gpu_lib_soname(lib, so, sizeof so);
        snprintf(why, n, "%s has no %s (a different CUDA version than bankscope was built for)", so, name);
    }
    return p != NULL;
}

void gpu_lib_companion(gpu_lib lib, const char *name)
{
    struct link_map *map = NULL;
    if (!handle[lib] || dlinfo(handle[lib], RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name)
        return;
    const char *slash = strrchr(map->l_name, '/');
    if (!slash)
        return;
    char path[700];
    snprintf(path, sizeof path, "%.*s/%s", (int)(slash - map->l_name), map->l_name, name);
    /* kept loaded: the library's own dlopen by soname then finds it */
    (void)dlopen(path, RTLD_NOW | RTLD_LOCAL);
}
