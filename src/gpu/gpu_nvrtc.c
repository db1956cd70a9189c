/* gpu_nvrtc: CUDA source -> CUBIN (for the device's real sm_XY) or PTX (compute_90), with a
 * cache in memory and on disk ($XDG_CACHE_HOME or ~/.cache, /bankscope/) keyed by source,
 * options, NVRTC version and compute capability. */
#include <errno.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpu/gpu_internal.h"
#include "io/save.h"

typedef struct cache_entry {
    char *key;
    void *image;
    size_t size;
} cache_entry;

static cache_entry mem_cache[64];
static int mem_next;

static uint64_t fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Compile source with options; returns the program or NULL with the log in err. */
static nvrtcProgram compile(const char *source, const char *arch, char *err, size_t n)
{
    nvrtcProgram prog;
    nvrtcResult r = nvrtcCreateProgram(&prog, source, "bankscope_kernel.cu", 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        snprintf(err, n, "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
        return NULL;
    }
    const char *opts[] = {arch, "--std=c++17", "-lineinfo"};
    r = nvrtcCompileProgram(prog, 3, opts);
    if (r != NVRTC_SUCCESS) {
        size_t len = 0;
        nvrtcGetProgramLogSize(prog, &len);
        char *log = xmalloc(len + 1);
        nvrtcGetProgramLog(prog, log);
        log[len] = '\0';
        for (char *p = log; *p; p++)
            if (*p == '\n')
                *p = ' ';
        snprintf(err, n, "NVRTC: %s", log);
        free(log);
        nvrtcDestroyProgram(&prog);
        return NULL;
    }
    return prog;
}

bool gpu_compile_ptx(const char *source, strbuf *ptx, char *err, size_t n)
{
    nvrtcProgram prog = compile(source, "--gpu-architecture=compute_90", err, n);
    if (!prog)
        return false;
    size_t len = 0;
    nvrtcGetPTXSize(prog, &len);
    char *buf = xmalloc(len + 1);
    nvrtcGetPTX(prog, buf);
    strbuf_add(ptx, buf, strnlen(buf, len));
    free(buf);
    nvrtcDestroyProgram(&prog);
    return true;
}

/* Cache file path for a key hash, or "" when no cache folder can be made. */
static void cache_path(uint64_t h, char *path, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char dir[512];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/bankscope", xdg);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/bankscope", home);
    else {
        path[0] = '\0';
        return;
    }
    char parent[512];
    snprintf(parent, sizeof parent, "%.*s", (int)(strrchr(dir, '/') - dir), dir);
    mkdir(parent, 0755);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        path[0] = '\0';
        return;
    }
    snprintf(path, n, "%s/%016llx.cubin", dir, (unsigned long long)h);
}

/* Read a cached image whose stored key equals key. */
static void *disk_read(const char *path, const char *key, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t klen = strlen(key), stored = 0;
    void *img = NULL;
    if (fread(&stored, sizeof stored, 1, f) == 1 && stored == klen) {
        char *k = xmalloc(klen + 1);
        size_t isz = 0;
        if (fread(k, 1, klen, f) == klen && memcmp(k, key, klen) == 0 && fread(&isz, sizeof isz, 1, f) == 1 &&
            isz > 0 && isz < (64u << 20)) {
            img = xmalloc(isz);
            if (fread(img, 1, isz, f) != isz) {
                free(img);
                img = NULL;
            } else {
                *size = isz;
            }
        }
        free(k);
    }
    fclose(f);
    return img;
}

/* Write key and image to path through a new temporary file (O_EXCL, random name) and rename. */
static void disk_write(const char *path, const char *key, const void *img, size_t size)
{
    char *tmp;
    int fd = save_temp_create(path, &tmp);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
        free(tmp);
        return;
    }
    size_t klen = strlen(key);
    bool ok = fwrite(&klen, sizeof klen, 1, f) == 1 && fwrite(key, 1, klen, f) == klen &&
              fwrite(&size, sizeof size, 1, f) == 1 && fwrite(img, 1, size, f) == size;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
    free(tmp);
}

void *gpu_nvrtc_cubin(const char *source, int cc_major, int cc_minor, size_t *size, bool *cached,
                      char *err, size_t n)
{
    int vmaj = 0, vmin = 0;
    nvrtcVersion(&vmaj, &vmin);
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
    char path[600];
    cache_path(fnv1a(key.data, key.len), path, sizeof path);
    void *img = path[0] ? disk_read(path, key.data, size) : NULL;
    if (!img) {
        *cached = false;
        nvrtcProgram prog = compile(source, arch, err, n);
        if (!prog) {
            strbuf_free(&key);
            return NULL;
        }
        nvrtcGetCUBINSize(prog, size);
        img = xmalloc(*size);
        nvrtcGetCUBIN(prog, img);
        nvrtcDestroyProgram(&prog);
        if (path[0])
            disk_write(path, key.data, img, *size);
    }
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
