/* gpu_stub: the GPU interface when bankscope is built without the CUDA toolkit. */
#include "gpu/gpu.h"

#include <stdio.h>

bool gpu_open(gpu_device *dev, char *why, size_t n)
{
    (void)dev;
    snprintf(why, n, "built without CUDA support: predicted only");
    return false;
}
