/* image_cache: the kernel compiler's disk cache. io/cache.c (a folder of verified images) handed
 * to gpu/ as its store of images (gpu_set_image_store), so that neither of the two layers
 * depends on the other. */
#ifndef BANKSCOPE_IMAGE_CACHE_H
#define BANKSCOPE_IMAGE_CACHE_H

/* Give gpu/ the disk cache ($XDG_CACHE_HOME/bankscope, else ~/.cache/bankscope), opened on its
 * first use. */
void image_cache_install(void);

#endif
