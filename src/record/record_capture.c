/* record_capture: the "capture" pass. Through the Compute Sanitizer patching API
 * (libsanitizer-public.so, loaded with dlopen) every module the program loads is patched so
 * that each shared-memory instruction (LDS/STS/ATOMS, LDSM/STSM, LDGSTS, remote shared) calls
 * a device function of record_patch.cu first. One launch is armed at a time: its record_dev
 * holds the chosen block and the entries; every other launch and block returns at once.
 *
 * Output: DIR/capture.txt, one fact per line (read by the record command):
 *   bankscope-capture 1
 *   device MAJOR MINOR NAME          kernel MANGLED DEMANGLED      launch N
 *   grid X Y Z    block_dim X Y Z    block X Y Z    function_pc PC
 *   entries N                         (N warp-instructions in DIR/entries.bin: record_entry as
 *                                      record_dev.h lays it out, inactive lanes unset)
 *   executed N                        (warp-instructions the block executed; > entries: truncated)
 *   end
 * or, when nothing was captured, "none", "outside_launches N BX BY BZ GX GY GZ" when N matching
 * launches had no block (BX,BY,BZ) (the last one's grid), and one "launched COUNT MATCHES MANGLED
 * DEMANGLED" per kernel (MATCHES: 1 when --kernel chose it),
 * or "error TEXT". DIR/module.cubin is the chosen kernel's module, as the driver loaded it.
 * The same launch's second block (record_second_block) is captured in the same run, into
 * DIR/second/capture.txt and DIR/second/entries.bin (the same lines, its own block), when the
 * grid has more than one block and its buffer could be allocated. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record.h"
#include "record_dev.h"
#include "sanitizer_api.h"

#define CAPTURE_MAX_KERNELS 256
#define CAPTURE_MAX_MODULES 256
#define CAPTURE_MAX_CONTEXTS 16
#define CAPTURE_CHUNK 65536 /* entries copied back at a time (10 MiB of pinned memory) */

typedef enum { CAPTURE_SEARCHING, CAPTURE_ARMED, CAPTURE_DONE, CAPTURE_FAILED } capture_state;

typedef struct capture_kernel {
    char *mangled;
    int64_t launches;
    bool matches; /* chosen by --kernel (or no --kernel) */
} capture_kernel;

typedef struct capture_module {
    CUmodule module;
    char *cubin;
    size_t size;
} capture_module;

static struct {
    const record_config *cfg;
    pthread_mutex_t lock;
    capture_state state;
    /* the API */
    sanitizerSubscribe_fn subscribe;
    sanitizerEnableDomain_fn enable_domain;
    sanitizerAddPatchesFromFile_fn add_patches;
    sanitizerPatchInstructions_fn patch_instructions;
    sanitizerPatchModule_fn patch_module;
    sanitizerUnpatchModule_fn unpatch_module;
    sanitizerSetLaunchCallbackData_fn set_launch_data;
    sanitizerAlloc_fn alloc;
    sanitizerAlloc_fn alloc_host;
    sanitizerFree_fn free_dev, free_host;
    sanitizerMemcpyHostToDeviceAsync_fn to_device;
    sanitizerMemcpyDeviceToHost_fn to_host;
    sanitizerStreamSynchronize_fn sync;
    sanitizerGetFunctionPcAndSize_fn function_pc;
    sanitizerGetResultString_fn result_string;
    /* what was seen */
    capture_kernel kernels[CAPTURE_MAX_KERNELS];
    int nkernels;
    capture_module modules[CAPTURE_MAX_MODULES];
    int nmodules;
    CUcontext patched_ctx[CAPTURE_MAX_CONTEXTS];
    int npatched;
    int64_t outside;          /* matching launches skipped because the block is not in their grid */
    uint32_t outside_grid[3]; /* the grid of the last of them */
    /* the armed launch */
    CUcontext ctx;
    CUfunction function;
    CUmodule module;
    record_dev host_dev;   /* what the device copy holds */
    uint32_t blocks[2][3]; /* the blocks of slots 0 and 1 */
    record_dev *dev;       /* device memory (never freed: a stale pointer stays harmless) */
    record_entry *staging;
    char mangled[4096];
    char *armed_name; /* the mangled name whole, for the verdict (record_sync_verdict) */
    char *demangled;  /* whole, however long (CuTe's names run to tens of kilobytes) */
    record_launch launch;
} cap;

/* Write "error TEXT" as the pass's whole output and stop capturing. */
static void capture_fail(const char *fmt, const char *what, SanitizerResult r)
{
    const char *why = "";
    if (r != SANITIZER_SUCCESS && cap.result_string)
        cap.result_string(r, &why);
    FILE *f = record_open_output(cap.cfg, "capture.txt");
    if (f) {
        fprintf(f, "bankscope-capture 1\nerror ");
        fprintf(f, fmt, what);
        if (why && *why)
            fprintf(f, " (%s)", why);
        fputc('\n', f);
        fclose(f);
    }
    cap.state = CAPTURE_FAILED;
}

/* The device the launch runs on: "MAJOR MINOR NAME" through the driver already loaded. */
static void capture_write_device(FILE *f)
{
    typedef CUresult (*get_device_fn)(CUdevice *);
    typedef CUresult (*get_name_fn)(char *, int, CUdevice);
    typedef CUresult (*get_attr_fn)(int *, CUdevice_attribute, CUdevice);
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    get_device_fn get_device = h ? (get_device_fn)dlsym(h, "cuCtxGetDevice") : NULL;
    get_name_fn get_name = h ? (get_name_fn)dlsym(h, "cuDeviceGetName") : NULL;
    get_attr_fn get_attr = h ? (get_attr_fn)dlsym(h, "cuDeviceGetAttribute") : NULL;
    CUdevice d;
    char name[256] = "unknown";
    int major = 0, minor = 0;
    if (get_device && get_name && get_attr && get_device(&d) == CUDA_SUCCESS) {
        get_name(name, sizeof name, d);
        get_attr(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
        get_attr(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    }
    fprintf(f, "device %d %d ", major, minor);
    record_write_word(f, name);
    fputc('\n', f);
}

/* The module's cubin as the driver loaded it, into DIR/module.cubin. */
static void capture_write_module(void)
{
    for (int i = 0; i < cap.nmodules; i++) {
        if (cap.modules[i].module != cap.module)
            continue;
        FILE *f = record_open_output(cap.cfg, "module.cubin");
        if (f) {
            fwrite(cap.modules[i].cubin, 1, cap.modules[i].size, f);
            fclose(f);
        }
        return;
    }
}

/* The header lines of a capture file for recorded block b. */
static void capture_write_head(FILE *f, const uint32_t b[3])
{
    fprintf(f, "bankscope-capture 1\n");
    capture_write_device(f);
    fprintf(f, "kernel ");
    record_write_word(f, cap.mangled);
    fputc(' ', f);
    record_write_word(f, cap.demangled);
    uint64_t fpc = 0, fsize = 0;
    cap.function_pc(cap.module, cap.mangled, &fpc, &fsize);
    fprintf(f, "\nlaunch %lld\ngrid %u %u %u\nblock_dim %u %u %u\nblock %u %u %u\nfunction_pc %llu %llu\n",
            (long long)cap.launch.index, cap.launch.grid[0], cap.launch.grid[1], cap.launch.grid[2],
            cap.launch.block_dim[0], cap.launch.block_dim[1], cap.launch.block_dim[2], b[0], b[1], b[2],
            (unsigned long long)fpc, (unsigned long long)fsize);
}

/* Block slot which's capture (capture.txt and entries.bin) into folder sub of DIR ("" for DIR
 * itself): its entries copied back through the pinned staging buffer, a chunk at a time.
 * false when a file cannot be written. */
static bool capture_write_block(const record_dev *d, int which, const char *sub, Sanitizer_StreamHandle stream)
{
    char name[64];
    snprintf(name, sizeof name, "%s%sentries.bin", sub, *sub ? "/" : "");
    FILE *e = record_open_output(cap.cfg, name);
    snprintf(name, sizeof name, "%s%scapture.txt", sub, *sub ? "/" : "");
    FILE *f = e ? record_open_output(cap.cfg, name) : NULL;
    if (!f) {
        if (e)
            fclose(e);
        return false;
    }
    unsigned long long n = d->next[which] < d->max ? d->next[which] : d->max;
    bool ok = true;
    for (unsigned long long at = 0; ok && at < n; at += CAPTURE_CHUNK) {
        unsigned long long k = n - at < CAPTURE_CHUNK ? n - at : CAPTURE_CHUNK;
        ok = cap.to_host(cap.staging, d->entries[which] + at, k * sizeof(record_entry), stream) == SANITIZER_SUCCESS &&
             fwrite(cap.staging, sizeof(record_entry), k, e) == k;
    }
    ok = (fclose(e) == 0) && ok;
    capture_write_head(f, cap.blocks[which]);
    if (ok)
        fprintf(f, "entries %llu\nexecuted %llu\nend\n", n, d->next[which]);
    ok = (fclose(f) == 0) && ok;
    return ok;
}

/* The armed launch has ended: copy its entries back and write the capture files. false when
 * the chosen block executed no shared-memory instruction (the search goes on with the next
 * launch). */
static bool capture_collect(Sanitizer_StreamHandle stream)
{
    cap.sync(stream);
    record_say(cap.cfg, "the armed launch ended");
    record_dev d; /* through the pinned staging buffer: launch callbacks copy only into pinned memory */
    if (cap.to_host(cap.staging, cap.dev, sizeof d, stream) != SANITIZER_SUCCESS) {
        capture_fail("cannot copy the recorded entries back%s", "", SANITIZER_SUCCESS);
        return true;
    }
    memcpy(&d, cap.staging, sizeof d);
    cap.host_dev.armed = 0;
    cap.host_dev.next[0] = cap.host_dev.next[1] = 0;
    cap.to_device(cap.dev, &cap.host_dev, sizeof cap.host_dev, stream);
    cap.sync(stream);
    if (d.next[0] == 0 && cap.cfg->launch < 0)
        return false;
    if (!capture_write_block(&d, 0, "", stream)) {
        cap.state = CAPTURE_FAILED;
        return true;
    }
    char second[4096];
    snprintf(second, sizeof second, "%s/second", cap.cfg->dir);
    /* without the second block, the command says that block invariance is not established */
    if ((d.armed & 2u) && mkdir(second, 0700) == 0)
        capture_write_block(&d, 1, "second", stream);
    capture_write_module();
    unsigned long long kept[2] = {d.next[0] < d.max ? d.next[0] : d.max, d.next[1] < d.max ? d.next[1] : d.max};
    record_say(cap.cfg, "%llu + %llu warp-instructions written", kept[0], (d.armed & 2u) ? kept[1] : 0ULL);
    return true;
}

/* A launch begins: arm it when it is the one chosen, else leave its patches idle. */
static void capture_launch_begin(const Sanitizer_LaunchData *ld)
{
    if (cap.state != CAPTURE_SEARCHING)
        return;
    char *demangled = record_demangle(ld->functionName);
    if (!demangled)
        return;
    bool matches = record_kernel_matches(cap.cfg, ld->functionName, demangled);
    int k = 0;
    while (k < cap.nkernels && strcmp(cap.kernels[k].mangled, ld->functionName) != 0)
        k++;
    if (k == cap.nkernels && k < CAPTURE_MAX_KERNELS) {
        cap.kernels[k].mangled = strdup(ld->functionName);
        cap.kernels[k].matches = matches;
        cap.nkernels++;
    }
    int64_t index = k < CAPTURE_MAX_KERNELS ? cap.kernels[k].launches++ : 0;
    if (!matches || (cap.cfg->launch >= 0 && index != cap.cfg->launch)) {
        free(demangled);
        return;
    }
    const uint32_t *b = cap.cfg->block;
    if (b[0] >= ld->gridDim_x || b[1] >= ld->gridDim_y || b[2] >= ld->gridDim_z) {
        record_sync_verdict(cap.cfg, ld->functionName, index, false);
        if (cap.cfg->launch < 0) { /* searching: a launch without that block cannot be the one */
            cap.outside++;
            cap.outside_grid[0] = ld->gridDim_x;
            cap.outside_grid[1] = ld->gridDim_y;
            cap.outside_grid[2] = ld->gridDim_z;
            free(demangled);
            return;
        }
        FILE *f = record_open_output(cap.cfg, "capture.txt");
        if (f) {
            fprintf(f, "bankscope-capture 1\nkernel ");
            record_write_word(f, ld->functionName);
            fputc(' ', f);
            record_write_word(f, demangled);
            fprintf(f, "\nlaunch %lld\ngrid %u %u %u\noutside %u %u %u\n", (long long)index, ld->gridDim_x,
                    ld->gridDim_y, ld->gridDim_z, b[0], b[1], b[2]);
            fclose(f);
        }
        cap.state = CAPTURE_FAILED;
        free(demangled);
        return;
    }
    if (!cap.dev) {
        size_t bytes = (size_t)cap.cfg->max_instructions * sizeof(record_entry);
        record_entry *entries = NULL;
        SanitizerResult r = cap.alloc(ld->context, (void **)&entries, bytes);
        if (r != SANITIZER_SUCCESS) {
            capture_fail("cannot allocate %s of device memory for the entries (lower --max-instructions)",
                         bytes >= (1u << 20) ? "that much" : "the buffer", r);
            return;
        }
        if (cap.alloc(ld->context, (void **)&cap.dev, sizeof(record_dev)) != SANITIZER_SUCCESS ||
            cap.alloc_host(ld->context, (void **)&cap.staging, CAPTURE_CHUNK * sizeof(record_entry)) !=
                SANITIZER_SUCCESS) {
            capture_fail("cannot allocate the capture's %s", "buffers", SANITIZER_SUCCESS);
            return;
        }
        cap.host_dev.entries[0] = entries;
        /* the second block's buffer is a bonus: without it, one block is recorded */
        if (cap.alloc(ld->context, (void **)&cap.host_dev.entries[1], bytes) != SANITIZER_SUCCESS)
            cap.host_dev.entries[1] = NULL;
        cap.host_dev.max = (unsigned long long)cap.cfg->max_instructions;
        memcpy(cap.blocks[0], b, sizeof cap.blocks[0]);
    }
    cap.host_dev.next[0] = cap.host_dev.next[1] = 0;
    const uint32_t grid[3] = {ld->gridDim_x, ld->gridDim_y, ld->gridDim_z};
    bool second = cap.host_dev.entries[1] && record_second_block(grid, b, cap.blocks[1]);
    cap.host_dev.armed = second ? 3u : 1u;
    for (int k = 0; k < 2; k++) {
        cap.host_dev.x[k] = cap.blocks[k][0];
        cap.host_dev.yz[k][0] = cap.blocks[k][1];
        cap.host_dev.yz[k][1] = cap.blocks[k][2];
    }
    cap.to_device(cap.dev, &cap.host_dev, sizeof cap.host_dev, ld->hStream);
    cap.set_launch_data(ld->hLaunch, ld->function, ld->hStream, cap.dev);
    cap.ctx = ld->context;
    cap.function = ld->function;
    cap.module = ld->module;
    snprintf(cap.mangled, sizeof cap.mangled, "%s", ld->functionName);
    free(cap.armed_name);
    cap.armed_name = strdup(ld->functionName);
    free(cap.demangled);
    cap.demangled = demangled;
    cap.launch = (record_launch){.mangled = cap.mangled,
                                 .demangled = cap.demangled,
                                 .grid = {ld->gridDim_x, ld->gridDim_y, ld->gridDim_z},
                                 .block_dim = {ld->blockDim_x, ld->blockDim_y, ld->blockDim_z},
                                 .index = index};
    cap.state = CAPTURE_ARMED;
    record_say(cap.cfg, "launch %lld of %s armed", (long long)index, demangled);
}

/* A module is loaded: load the patches into its context once, patch every shared-memory
 * instruction, keep a copy of the cubin (for the PC -> line and SASS of the chosen kernel). */
static void capture_module_loaded(const Sanitizer_ResourceModuleData *md)
{
    if (cap.state == CAPTURE_FAILED || cap.state == CAPTURE_DONE)
        return; /* nothing more to record: the module runs as built */
    int c = 0;
    while (c < cap.npatched && cap.patched_ctx[c] != md->context)
        c++;
    if (c == cap.npatched) {
        SanitizerResult r = cap.add_patches(cap.cfg->patch_path, md->context);
        if (r != SANITIZER_SUCCESS) {
            capture_fail("cannot load the device patches %s", cap.cfg->patch_path, r);
            return;
        }
        if (cap.npatched < CAPTURE_MAX_CONTEXTS)
            cap.patched_ctx[cap.npatched++] = md->context;
    }
    static const struct {
        Sanitizer_InstructionId id;
        const char *fn;
    } patches[] = {{SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "record_shared"},
                   {SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS, "record_matrix"},
                   {SANITIZER_INSTRUCTION_MEMCPY_ASYNC, "record_async"},
                   {SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS, "record_remote"}};
    for (size_t i = 0; i < sizeof patches / sizeof *patches; i++) {
        SanitizerResult r = cap.patch_instructions(patches[i].id, md->module, patches[i].fn);
        if (r != SANITIZER_SUCCESS) {
            capture_fail("cannot patch %s", patches[i].fn, r);
            return;
        }
    }
    SanitizerResult r = cap.patch_module(md->module);
    if (r != SANITIZER_SUCCESS) {
        capture_fail("cannot patch a module%s", "", r);
        return;
    }
    record_say(cap.cfg, "patched a module of %zu bytes", md->cubinSize);
    if (cap.nmodules < CAPTURE_MAX_MODULES && md->pCubin && md->cubinSize) {
        capture_module *m = &cap.modules[cap.nmodules++];
        m->module = md->module;
        m->size = md->cubinSize;
        m->cubin = malloc(m->size);
        if (m->cubin)
            memcpy(m->cubin, md->pCubin, m->size);
        else
            m->size = 0;
    }
}

/* Give the entry buffers and the staging buffer back (the capture is written); the small
 * record_dev stays, so a stale pointer to it stays harmless. */
static void capture_release(CUcontext ctx)
{
    for (int k = 0; k < 2; k++)
        if (cap.host_dev.entries[k])
            cap.free_dev(ctx, cap.host_dev.entries[k]);
    if (cap.staging)
        cap.free_host(ctx, cap.staging);
    cap.host_dev.entries[0] = cap.host_dev.entries[1] = NULL;
    cap.staging = NULL;
}

/* The subscriber: every callback of the two domains comes here, serialised. */
static void capture_callback(void *userdata, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                             const void *cbdata)
{
    (void)userdata;
    /* The API's own calls made here (allocations, copies) report callbacks on this thread:
     * those are not the program's and are ignored. */
    static _Thread_local bool inside;
    if (inside)
        return;
    inside = true;
    pthread_mutex_lock(&cap.lock);
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED) {
        capture_module_loaded((const Sanitizer_ResourceModuleData *)cbdata);
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_BEGIN) {
        capture_launch_begin((const Sanitizer_LaunchData *)cbdata);
    } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && cbid == SANITIZER_CBID_LAUNCH_END) {
        const Sanitizer_LaunchData *ld = cbdata;
        if (cap.state == CAPTURE_ARMED && ld->function == cap.function) {
            cap.state = capture_collect(ld->hStream) ? CAPTURE_DONE : CAPTURE_SEARCHING;
            record_sync_verdict(cap.cfg, cap.armed_name ? cap.armed_name : cap.mangled, cap.launch.index,
                                cap.state == CAPTURE_DONE);
            if (cap.state == CAPTURE_DONE) { /* the rest of the run at the program's own speed and memory */
                for (int i = 0; i < cap.nmodules; i++)
                    cap.unpatch_module(cap.modules[i].module);
                capture_release(ld->context);
            }
        }
    }
    pthread_mutex_unlock(&cap.lock);
    inside = false;
}

/* At exit without a capture: say so, with the kernels that ran. */
static void capture_stop(void)
{
    pthread_mutex_lock(&cap.lock);
    if (cap.state == CAPTURE_SEARCHING || cap.state == CAPTURE_ARMED) {
        FILE *f = record_open_output(cap.cfg, "capture.txt");
        if (f) {
            fprintf(f, "bankscope-capture 1\nnone\n");
            if (cap.outside)
                fprintf(f, "outside_launches %lld %u %u %u %u %u %u\n", (long long)cap.outside, cap.cfg->block[0],
                        cap.cfg->block[1], cap.cfg->block[2], cap.outside_grid[0], cap.outside_grid[1],
                        cap.outside_grid[2]);
            for (int k = 0; k < cap.nkernels; k++) {
                char *d = record_demangle(cap.kernels[k].mangled);
                fprintf(f, "launched %lld %d ", (long long)cap.kernels[k].launches, cap.kernels[k].matches ? 1 : 0);
                record_write_word(f, cap.kernels[k].mangled);
                fputc(' ', f);
                record_write_word(f, d ? d : cap.kernels[k].mangled);
                free(d);
                fputc('\n', f);
            }
            fclose(f);
        }
        cap.state = CAPTURE_DONE;
    }
    pthread_mutex_unlock(&cap.lock);
}

/* Load libsanitizer-public.so and subscribe to module loads and launches. */
static int capture_start(const record_config *cfg)
{
    cap.cfg = cfg;
    pthread_mutex_init(&cap.lock, NULL);
    if (!cfg->sanitizer_path || !cfg->patch_path) {
        capture_fail("%s", "the sanitizer library or the patch file was not named", SANITIZER_SUCCESS);
        return -1;
    }
    void *h = dlopen(cfg->sanitizer_path, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        capture_fail("cannot load %s", dlerror(), SANITIZER_SUCCESS);
        return -1;
    }
#define CAPTURE_SYM(field, name)                                                                                       \
    do {                                                                                                               \
        *(void **)&cap.field = dlsym(h, name);                                                                         \
        if (!cap.field) {                                                                                              \
            capture_fail("the sanitizer library has no %s", name, SANITIZER_SUCCESS);                                  \
            return -1;                                                                                                 \
        }                                                                                                              \
    } while (0)
    CAPTURE_SYM(result_string, "sanitizerGetResultString");
    CAPTURE_SYM(subscribe, "sanitizerSubscribe");
    CAPTURE_SYM(enable_domain, "sanitizerEnableDomain");
    CAPTURE_SYM(add_patches, "sanitizerAddPatchesFromFile");
    CAPTURE_SYM(patch_instructions, "sanitizerPatchInstructions");
    CAPTURE_SYM(patch_module, "sanitizerPatchModule");
    CAPTURE_SYM(unpatch_module, "sanitizerUnpatchModule");
    CAPTURE_SYM(set_launch_data, "sanitizerSetLaunchCallbackData");
    CAPTURE_SYM(alloc, "sanitizerAlloc");
    CAPTURE_SYM(alloc_host, "sanitizerAllocHost");
    CAPTURE_SYM(free_dev, "sanitizerFree");
    CAPTURE_SYM(free_host, "sanitizerFreeHost");
    CAPTURE_SYM(to_device, "sanitizerMemcpyHostToDeviceAsync");
    CAPTURE_SYM(to_host, "sanitizerMemcpyDeviceToHost");
    CAPTURE_SYM(sync, "sanitizerStreamSynchronize");
    CAPTURE_SYM(function_pc, "sanitizerGetFunctionPcAndSize");
#undef CAPTURE_SYM
    Sanitizer_SubscriberHandle sub;
    SanitizerResult r = cap.subscribe(&sub, capture_callback, NULL);
    if (r == SANITIZER_SUCCESS)
        r = cap.enable_domain(1, sub, SANITIZER_CB_DOMAIN_RESOURCE);
    if (r == SANITIZER_SUCCESS)
        r = cap.enable_domain(1, sub, SANITIZER_CB_DOMAIN_LAUNCH);
    if (r != SANITIZER_SUCCESS) {
        capture_fail("cannot subscribe to the sanitizer callbacks%s", "", r);
        return -1;
    }
    cap.state = CAPTURE_SEARCHING;
    return 0;
}

const record_pass record_capture_pass = {.name = "capture", .start = capture_start, .stop = capture_stop};
