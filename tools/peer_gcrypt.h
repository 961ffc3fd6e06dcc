/*
 * libgcrypt as a peer row of `hwcrypt speed` (-gcrypt, -peers): loaded with
 * dlopen at run time, so hwcrypt never links against it and runs the same
 * where it is missing (the rows are then left out with the reason).
 */
#ifndef HWC_TOOLS_PEER_GCRYPT_H
#define HWC_TOOLS_PEER_GCRYPT_H

#include <stddef.h>
#include <stdint.h>

#include "hwcrypt/hwcrypt.h"

typedef struct gc_peer gc_peer;

/* Loads libgcrypt once; NULL when it is usable, else why not. */
const char *gc_load(void);
/* "libgcrypt 1.10.1" once loaded, else NULL. */
const char *gc_version(void);

/* What one measured operation is (the same split as the hwcrypt rows). */
enum gc_op { GC_STREAM, GC_UNIT, GC_AEAD, GC_MAC };

/* A libgcrypt handle keyed for cipher c; NULL with *why set when libgcrypt
 * lacks the cipher or mode (then the row is absent, not an error). */
gc_peer *gc_open(const hwc_cipher *c, enum gc_op op, int enc, const uint8_t *key, size_t key_len,
                 const uint8_t *iv, size_t iv_len, size_t tag_len, const char **why);
/* One buffer of a long stream; a refused update (stream limit) restarts the
 * message with iv, as the hwcrypt and OpenSSL rows do. */
int gc_stream(gc_peer *p, uint8_t *dst, const uint8_t *src, size_t len);
/* One XTS data unit with its own tweak. */
int gc_unit(gc_peer *p, const uint8_t *iv, uint8_t *dst, const uint8_t *src, size_t len);
/* One whole AEAD message: seal (tag written) or open (tag checked). */
int gc_aead(gc_peer *p, const uint8_t *iv, const uint8_t *aad, size_t aad_len, uint8_t *dst, const uint8_t *src,
            size_t len, uint8_t *tag);
/* The MAC of one buffer (GMAC with this iv). */
int gc_mac(gc_peer *p, const uint8_t *iv, const uint8_t *src, size_t len, uint8_t *tag);
/* libgcrypt's message for its last failure on p. */
const char *gc_error(const gc_peer *p);
void gc_close(gc_peer *p);

#endif
