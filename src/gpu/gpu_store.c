/* gpu_store: the store of compiled images gpu's user gives (gpu.h), in both builds. */
#include "gpu/gpu.h"

static const gpu_image_store *current;

void gpu_set_image_store(const gpu_image_store *store)
{
    current = store;
}

const gpu_image_store *gpu_image_store_current(void)
{
    return current;
}
