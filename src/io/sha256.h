/* sha256: the SHA-256 digest (FIPS 180-4), for checking that a cached kernel image is the one
 * that was stored. Incremental: init, update any number of times, final. No allocation. */
#ifndef BANKSCOPE_SHA256_H
#define BANKSCOPE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BYTES 32

typedef struct sha256_ctx {
    uint32_t h[8];
    uint64_t bytes;        /* message length so far */
    unsigned char buf[64]; /* a partial block */
    size_t fill;           /* bytes in buf, < 64 */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
/* Write the digest into out; c must be initialised again before reuse. */
void sha256_final(sha256_ctx *c, unsigned char out[SHA256_BYTES]);
/* Digest of one buffer. */
void sha256(const void *data, size_t n, unsigned char out[SHA256_BYTES]);
/* Lower-case hex of a digest: 64 characters and a NUL. */
void sha256_hex(const unsigned char d[SHA256_BYTES], char hex[2 * SHA256_BYTES + 1]);

#endif
