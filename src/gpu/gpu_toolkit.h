/* gpu_toolkit: what `bankscope record` needs of the machine before it runs a program, found in
 * one place: a driver with a GPU (probed without a context), the CUDA toolkit's sanitizer library
 * and disassemblers (CUDA_HOME, CUDA_PATH, the toolkit bankscope was built with, nvcc on PATH,
 * /usr/local/cuda), and the recording library with its patches. */
#ifndef BANKSCOPE_GPU_TOOLKIT_H
#define BANKSCOPE_GPU_TOOLKIT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* What a recording runs with. */
typedef struct gpu_toolkit {
    char sanitizer[PATH_MAX]; /* libsanitizer-public.so */
    char library[PATH_MAX];   /* libbankscope-record.so */
    char patch[PATH_MAX];     /* bankscope-record-patch.fatbin */
    bool shared;              /* the GPUs take several processes at once (not exclusive-process) */
} gpu_toolkit;

/* Probe the driver, then find the sanitizer library, then the recording library, into *t;
 * false at the first that is missing, with the reason (a sentence for the user) in why. */
bool gpu_toolkit_find(gpu_toolkit *t, char *why, size_t n);
/* A program name as execvp would find it, into buf; false when nowhere. */
bool gpu_toolkit_program(const char *name, char *buf, size_t n);
/* A toolkit program (nvdisasm, cuobjdump): PATH, else TOOLKIT/bin; false when nowhere. */
bool gpu_toolkit_tool(const char *name, char *buf, size_t n);

#endif
