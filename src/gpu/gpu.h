/* gpu: the only interface to CUDA. Implemented by the files of src/gpu/ when built with the CUDA
 * toolkit, and by gpu_stub.c otherwise ("built without CUDA support"). The driver is loaded at
 * run time, so one binary runs with or without an NVIDIA driver.
 * Units: cycles are SM clock cycles; times in nanoseconds or milliseconds as named. */
#ifndef BANKSCOPE_GPU_H
#define BANKSCOPE_GPU_H

#include <stdbool.h>
#include <stddef.h>

typedef struct gpu_device {
    char name[256];
    int cc_major, cc_minor;
    int sms;
    int clock_khz;
} gpu_device;

/* Open the first GPU. False with a one-line reason (no driver, no device, no CUDA support). */
bool gpu_open(gpu_device *dev, char *why, size_t n);

#endif
