/* One whole message of any cipher in the table, through the public API,
 * with buffers of exactly the sizes the API documents (the hardening tests:
 * guard pages, threads, constant time).
 *
 * Encryption (`encrypt` 1) turns in[in_len] into out (ciphertext, wrapped
 * key) and tag (AEAD, MAC); decryption (0) turns them back, checking the tag
 * or the integrity value (SIV and GCM-SIV of odd length: streamed, in two
 * updates after hwc_set_lengths).  MACs compute the tag of in (encrypt) or verify it
 * (decrypt); out is unused.  Key wrap uses hwc_ctx_key_wrap/unwrap. */
#ifndef HWC_MSGRUN_H
#define HWC_MSGRUN_H

#include <stddef.h>
#include <stdint.h>

#include "hwcrypt/hwcrypt.h"

typedef struct msg_io {
    const uint8_t *key;  /* hwc_cipher_key_len() bytes */
    const uint8_t *iv;   /* iv_len bytes (NULL when 0) */
    size_t iv_len;
    const uint8_t *aad;  /* AEAD only */
    size_t aad_len;
    const uint8_t *in;
    size_t in_len;
    uint8_t *out;        /* msg_out_cap() bytes */
    uint8_t *tag;        /* tag_len bytes: AEAD, MAC */
    size_t tag_len;
} msg_io;

/* 1 when a plaintext of len bytes is valid for the cipher (XTS >= 16,
 * KW a multiple of 8 and >= 16, KWP >= 1; others any). */
int msg_len_ok(const hwc_cipher *c, size_t len);
/* Room the output needs: encryption of plaintext_len bytes, or decryption of
 * the in_len bytes it produced.  Exact for every mode except ECB/CBC
 * decryption and KWP unwrap, where it is the documented room (in_len,
 * in_len - 8) and the message may be shorter. */
size_t msg_out_cap(const hwc_cipher *c, size_t in_len, int encrypt);
/* The IV length the runner uses: the cipher's default. */
size_t msg_iv_len(const hwc_cipher *c);
/* Run one message on ctx (the caller may have forced a back end with
 * hwc_ctx_set_impl).  Returns 0 or the first error; *out_len gets the
 * bytes written to out. */
int msg_run(hwc_ctx *ctx, const hwc_cipher *c, int encrypt, const msg_io *io, size_t *out_len);

#endif
