/* gpu_nvrtc: CUDA source -> CUBIN (for the device's real sm_XY) or PTX (compute_90) through
 * NVRTC loaded at run time (gpu_libs.c), with a cache in memory and the store of images its user
 * gives (gpu_set_image_store: on disk, checked, digested and capped by io/cache.c) keyed by
 * source, options, NVRTC version and compute capability. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_internal.h"

/* NVRTC's entry points, resolved from the library at run time (gpu_libs.c); the types come
 * from nvrtc.h. */
#define NVRTC_FUNCS(X)                                                                                                 \
    X(nvrtcVersion)                                                                                                    \
    X(nvrtcGetErrorString)                                                                                             \
    X(nvrtcCreateProgram)                                                                                              \
    X(nvrtcCompileProgram)                                                                                             \
    X(nvrtcGetProgramLogSize)                                                                                          \
    X(nvrtcGetProgramLog)                                                                                              \
    X(nvrtcDestroyProgram)                                                                                             \
    X(nvrtcGetPTXSize)                                                                                                 \
    X(nvrtcGetPTX)                                                                                                     \
    X(nvrtcGetCUBINSize)                                                                                               \
    X(nvrtcGetCUBIN)
#define NV_FIELD(f) __typeof__(&f) f;
static struct {
    NVRTC_FUNCS(NV_FIELD)
} nv;

bool gpu_nvrtc_load(char *why, size_t n)
{
    static int state; /* 0 untried, 1 loaded, -1 missing */
    static char reason[300];
    if (!state) {
        state = -1;
        if (gpu_lib_open(GPU_LIB_NVRTC, reason, sizeof reason)) {
            bool ok = true;
#define NV_LOAD(f) ok = ok && gpu_lib_sym(GPU_LIB_NVRTC, &nv.f, #f, reason, sizeof reason);
            NVRTC_FUNCS(NV_LOAD)
            state = ok ? 1 : -1;
            int major = 0, minor = 0;
            if (ok && nv.nvrtcVersion(&major, &minor) == NVRTC_SUCCESS) {
                char builtins[64];
                snprintf(builtins, sizeof builtins, "libnvrtc-builtins.so.%d.%d", major, minor);
                gpu_lib_companion(GPU_LIB_NVRTC, builtins);
            }
        }
    }
    if (state < 0)
        snprintf(why, n, "%s", reason);
    return state > 0;
}

typedef struct cache_entry {
    char *key;
    void *image;
    size_t size;
} cache_entry;

static cache_entry mem_cache[64];
static int mem_next;

/* Compile source with options; returns the program or NULL with the log in err. */
static nvrtcProgram compile(const char *source, const char *arch, char *err, size_t n)
{
    nvrtcProgram prog;
    nvrtcResult r = nv.nvrtcCreateProgram(&prog, source, "bankscope_kernel.cu", 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        snprintf(err, n, "nvrtcCreateProgram: %s", nv.nvrtcGetErrorString(r));
        return NULL;
    }
    const char *opts[] = {arch, "--std=c++17", "-lineinfo"};
    r = nv.nvrtcCompileProgram(prog, 3, opts);
    if (r != NVRTC_SUCCESS) {
        size_t len = 0;
        nv.nvrtcGetProgramLogSize(prog, &len);
        char *log = xmalloc(len + 1);
        nv.nvrtcGetProgramLog(prog, log);
        log[len] = '\0';
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(err, n, "NVRTC: %s", log);
        free(log);
        nv.nvrtcDestroyProgram(&prog);
        return NULL;
    }
    return prog;
}

bool gpu_compile_ptx(const char *source, strbuf *ptx, char *err, size_t n)
{
    if (!gpu_nvrtc_load(err, n))
        return false;
    nvrtcProgram prog = compile(source, "--gpu-architecture=compute_90", err, n);
    if (!prog)
        return false;
    size_t len = 0;
    nv.nvrtcGetPTXSize(prog, &len);
    char *buf = xmalloc(len + 1);
    nv.nvrtcGetPTX(prog, buf);
    strbuf_add(ptx, buf, strnlen(buf, len));
    free(buf);
    nv.nvrtcDestroyProgram(&prog);
    return true;
}

void *gpu_nvrtc_cubin(const char *source, int cc_major, int cc_minor, size_t *size, bool *cached, char *note,
                      size_t note_n, char *err, size_t n)
{
    if (note_n)
        note[0] = '\0';
    if (!gpu_nvrtc_load(err, n))
        return NULL;
    int vmaj = 0, vmin = 0;
    nv.nvrtcVersion(&vmaj, &vmin);
    char arch[64];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", cc_major, cc_minor);
    strbuf key = {0};
    strbuf_addf(&key, "nvrtc %d.%d|%s --std=c++17 -lineinfo|", vmaj, vmin, arch);
    strbuf_add(&key, source, strlen(source));
    *cached = true;
    for (int i = 0; i < 64; i++)
        if (mem_cache[i].key && strcmp(mem_cache[i].key, key.data) == 0) {
            void *copy = xmalloc(mem_cache[i].size);
            memcpy(copy, mem_cache[i].image, mem_cache[i].size);
            *size = mem_cache[i].size;
            strbuf_free(&key);
            return copy;
        }
    const gpu_image_store *store = gpu_image_store_current();
    void *img = store ? store->get(key.data, key.len, size) : NULL;
    if (!img) {
        *cached = false;
        nvrtcProgram prog = compile(source, arch, err, n);
        if (!prog) {
            strbuf_free(&key);
            return NULL;
        }
        nv.nvrtcGetCUBINSize(prog, size);
        img = xmalloc(*size);
        nv.nvrtcGetCUBIN(prog, img);
        nv.nvrtcDestroyProgram(&prog);
        if (store)
            store->put(key.data, key.len, img, *size);
    }
    if (store) /* why it is off, or a refusal or failure of get or put */
        store->note(note, note_n);
    cache_entry *e = &mem_cache[mem_next];
    mem_next = (mem_next + 1) % 64;
    free(e->key);
    free(e->image);
    e->key = strbuf_take(&key);
    e->image = xmalloc(*size);
    memcpy(e->image, img, *size);
    e->size = *size;
    return img;
}
