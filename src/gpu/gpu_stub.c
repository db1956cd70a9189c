/* gpu_stub: the GPU interface when bankscope is built without the CUDA toolkit. */
#include "gpu/gpu.h"

#include <stdio.h>

static const char why_not[] = "built without CUDA support: predicted only";

bool gpu_open(gpu_device *dev, char *why, size_t n)
{
    (void)dev;
    snprintf(why, n, "%s", why_not);
    return false;
}

bool gpu_compile_ptx(const char *source, strbuf *ptx, char *err, size_t n)
{
    (void)source;
    (void)ptx;
    snprintf(err, n, "%s", why_not);
    return false;
}

bool gpu_measure(const gpu_request *rq, gpu_measurement *out, char *err, size_t n)
{
    (void)rq;
    (void)out;
    snprintf(err, n, "%s", why_not);
    return false;
}

void gpu_close(void)
{
}
