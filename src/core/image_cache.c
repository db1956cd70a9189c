/* image_cache: io's disk cache as gpu's store of compiled images (see image_cache.h). One cache,
 * used by the one thread that measures. */
#include "core/image_cache.h"

#include <stdio.h>

#include "gpu/gpu.h"
#include "io/cache.h"

static cache disk;
static int disk_state; /* 0 not opened yet, 1 opened (on or off) */

/* The disk cache, opened on first use (its note then says why it is off). */
static cache *disk_cache(void)
{
    if (!disk_state) {
        disk_state = 1;
        char dir[512];
        disk.dirfd = -1;
        if (!cache_default_dir(dir, sizeof dir))
            snprintf(disk.note, sizeof disk.note, "kernel cache off: neither XDG_CACHE_HOME nor HOME is set");
        else
            cache_open(&disk, dir, CACHE_MAX_BYTES);
    }
    return &disk;
}

static void *store_get(const char *key, size_t keylen, size_t *size)
{
    return cache_get(disk_cache(), key, keylen, size);
}

static void store_put(const char *key, size_t keylen, const void *image, size_t size)
{
    cache_put(disk_cache(), key, keylen, image, size);
}

/* The cache's note, said once. */
static void store_note(char *note, size_t n)
{
    cache *c = disk_cache();
    if (c->note[0] && note && n) {
        snprintf(note, n, "%s", c->note);
        c->note[0] = '\0';
    }
}

void image_cache_install(void)
{
    static const gpu_image_store store = {.get = store_get, .put = store_put, .note = store_note};
    gpu_set_image_store(&store);
}
