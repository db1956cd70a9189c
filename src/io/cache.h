/* cache: a folder of compiled kernel images (CUBINs) on disk, keyed by text (source, options,
 * compiler version, compute capability), that is safe to trust:
 *  - the folder is created 0700 and refused when it is a symbolic link, not owned by the user
 *    or writable by group or others (then the disk cache is off; the note says why);
 *  - each entry stores its key, its image and the SHA-256 of both; an entry is returned only
 *    if it is a regular file owned by the user, not writable by group or others, whose key and
 *    digest match (else it is refused with a note and compiled again);
 *  - entries are written through a new O_EXCL temporary file and rename(2);
 *  - the folder's entries are capped (CACHE_MAX_BYTES by default): after each store the least
 *    recently used entries go first; temporary files older than an hour are removed.
 * No GPU needed: the CUDA code uses it, the unit tests check it without one.
 * Not thread-safe: one cache is used by one thread at a time. */
#ifndef BANKSCOPE_CACHE_H
#define BANKSCOPE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CACHE_MAX_BYTES (64ull << 20) /* all entries together */
#define CACHE_MAX_IMAGE (64ull << 20) /* one image */

typedef struct cache {
    int dirfd;          /* the open folder, -1 when the disk cache is off */
    char dir[512];      /* its path */
    uint64_t max_bytes; /* cap on the entries' total size */
    char note[320];     /* the last refusal or why the cache is off; "" when none */
} cache;

/* The default folder: $XDG_CACHE_HOME/bankscope, else $HOME/.cache/bankscope; false when
 * neither variable is set. */
bool cache_default_dir(char *out, size_t n);
/* Open (creating it 0700, and its parent 0700 when missing) the cache folder dir. False with
 * c->note saying why the disk cache is off; a closed cache answers every get with a miss. */
bool cache_open(cache *c, const char *dir, uint64_t max_bytes);
void cache_close(cache *c);
/* The verified image stored for key (malloc'd, *size set), or NULL: a miss, or a refused entry
 * (then c->note says why). A hit becomes the most recently used entry. */
void *cache_get(cache *c, const char *key, size_t keylen, size_t *size);
/* Store image under key, then trim the folder to the cap. False with c->note on failure. */
bool cache_put(cache *c, const char *key, size_t keylen, const void *image, size_t size);
/* The file name of key's entry: 32 hex digits of its SHA-256 and ".cubin". */
void cache_entry_name(const char *key, size_t keylen, char name[40]);

#endif
