/* gpu_toolkit: the driver probe and the toolkit's and recording library's files (gpu_toolkit.h). */
#include "gpu/gpu_toolkit.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "gpu/gpu.h"
#include "util.h"

/* dir/name into buf when it exists (X_OK when exec); true then. */
static bool find_in(const char *dir, const char *name, char *buf, size_t n, bool exec)
{
    if (!dir || !*dir || (size_t)snprintf(buf, n, "%s/%s", dir, name) >= n)
        return false;
    struct stat st;
    return stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, exec ? X_OK : R_OK) == 0;
}

/* A program name as execvp would find it; false when nowhere. */
bool gpu_toolkit_program(const char *name, char *buf, size_t n)
{
    if (strchr(name, '/'))
        return (size_t)snprintf(buf, n, "%s", name) < n && access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
    bool found = false;
    for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save))
        found = find_in(d, name, buf, n, true);
    free(copy);
    return found;
}

/* The CUDA toolkit folders to look in for the sanitizer library and the disassemblers. */
static int toolkit_dirs(const char *dirs[6], char *from_path, size_t n)
{
    int k = 0;
    const char *env = getenv("CUDA_HOME");
    if (env && *env)
        dirs[k++] = env;
    env = getenv("CUDA_PATH");
    if (env && *env)
        dirs[k++] = env;
#ifdef BANKSCOPE_CUDA_DIR
    dirs[k++] = BANKSCOPE_CUDA_DIR;
#endif
    char nvcc[PATH_MAX];
    if (gpu_toolkit_program("nvcc", nvcc, sizeof nvcc)) {
        char *s = strrchr(nvcc, '/');
        if (s) {
            *s = '\0';
            s = strrchr(nvcc, '/');
            if (s) {
                *s = '\0';
                snprintf(from_path, n, "%s", nvcc);
                dirs[k++] = from_path;
            }
        }
    }
    dirs[k++] = "/usr/local/cuda";
    return k;
}

/* libsanitizer-public.so: $BANKSCOPE_SANITIZER_LIB, else TOOLKIT/compute-sanitizer/. */
static bool find_sanitizer(char *buf, size_t n)
{
    const char *env = getenv("BANKSCOPE_SANITIZER_LIB");
    if (env && *env)
        return (size_t)snprintf(buf, n, "%s", env) < n && access(env, R_OK) == 0;
    const char *dirs[6];
    char from_path[PATH_MAX], d[PATH_MAX + 32];
    int k = toolkit_dirs(dirs, from_path, sizeof from_path);
    for (int i = 0; i < k; i++) {
        snprintf(d, sizeof d, "%s/compute-sanitizer", dirs[i]);
        if (find_in(d, "libsanitizer-public.so", buf, n, false))
            return true;
    }
    return false;
}

/* A toolkit program (nvdisasm, cuobjdump): PATH, else TOOLKIT/bin. */
bool gpu_toolkit_tool(const char *name, char *buf, size_t n)
{
    if (gpu_toolkit_program(name, buf, n))
        return true;
    const char *dirs[6];
    char from_path[PATH_MAX], d[PATH_MAX + 32];
    int k = toolkit_dirs(dirs, from_path, sizeof from_path);
    for (int i = 0; i < k; i++) {
        snprintf(d, sizeof d, "%s/bin", dirs[i]);
        if (find_in(d, name, buf, n, true))
            return true;
    }
    return false;
}

/* The recording library and its patches: $BANKSCOPE_RECORD_LIBDIR, beside the running binary
 * (a build tree), or where they are installed. */
static bool find_library(char *lib, char *patch, size_t n)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    const char *dirs[] = {getenv("BANKSCOPE_RECORD_LIBDIR"), len > 0 ? self : NULL,
#ifdef BANKSCOPE_RECORD_PKGLIBDIR
                          BANKSCOPE_RECORD_PKGLIBDIR
#else
                          NULL
#endif
    };
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (find_in(dirs[i], "libbankscope-record.so", lib, n, false) &&
            find_in(dirs[i], "bankscope-record-patch.fatbin", patch, n, false))
            return true;
    return false;
}

/* A driver and a GPU, checked without creating a context (the program creates its own): cuInit
 * and cuDeviceGetCount of libcuda.so.1, loaded with dlopen; *shared false when a GPU takes one
 * process at a time. */
static bool driver_ready(char *why, size_t n, bool *shared)
{
    *shared = true;
#ifndef HAVE_CUDA
    gpu_device dev;
    return gpu_open(&dev, why, n); /* says that CUDA support was not built */
#else
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, n, "no NVIDIA driver (libcuda.so.1 not found)");
        return false;
    }
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(h, "cuInit");
    int (*count)(int *) = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
    int r = init ? init(0) : -1, gpus = 0;
    if (r == 0 && count)
        r = count(&gpus);
    if (r != 0 || gpus < 1) {
        snprintf(why, n,
                 r ? "the NVIDIA driver found no usable GPU (cuInit or cuDeviceGetCount: error %d)"
                   : "the NVIDIA driver found no GPU",
                 r);
        return false;
    }
    /* a GPU in exclusive-process mode takes one process at a time: the runs go one after another
     * (cuda.h: CU_DEVICE_ATTRIBUTE_COMPUTE_MODE 20, CU_COMPUTE_MODE_EXCLUSIVE_PROCESS 3) */
    int (*get)(int *, int) = (int (*)(int *, int))dlsym(h, "cuDeviceGet");
    int (*attr)(int *, int, int) = (int (*)(int *, int, int))dlsym(h, "cuDeviceGetAttribute");
    for (int i = 0; get && attr && i < gpus; i++) {
        int dev = 0, mode = 0;
        if (get(&dev, i) == 0 && attr(&mode, 20, dev) == 0 && mode == 3)
            *shared = false;
    }
    return true;
#endif
}

bool gpu_toolkit_find(gpu_toolkit *t, char *why, size_t n)
{
    if (!driver_ready(why, n, &t->shared))
        return false;
    if (!find_sanitizer(t->sanitizer, sizeof t->sanitizer)) {
        snprintf(why, n,
                 "no libsanitizer-public.so (the CUDA toolkit's compute-sanitizer folder; set CUDA_HOME or "
                 "BANKSCOPE_SANITIZER_LIB)");
        return false;
    }
    if (!find_library(t->library, t->patch, sizeof t->library)) {
        snprintf(why, n,
                 "the recording library (libbankscope-record.so, bankscope-record-patch.fatbin) is not "
                 "installed beside bankscope; set BANKSCOPE_RECORD_LIBDIR");
        return false;
    }
    return true;
}
