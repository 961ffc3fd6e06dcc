/*
 * hwcrypt's OpenSSL 3 provider: what prov.c, cipher.c and mac.c share.
 * Only OpenSSL's public provider API is used (core_dispatch.h, core_names.h,
 * params.h; evp.h for its mode numbers and TLS constants).
 */
#ifndef HWCRYPT_PROV_H
#define HWCRYPT_PROV_H

#include <pthread.h>
#include <stdint.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

#include "hwcrypt/hwcrypt.h"

/* Custom provider parameters (OSSL_PROVIDER_get_params): bytes that went
 * through the provider's ciphers, so a test or an operator can see that
 * traffic really used hwcrypt. */
#define HWCP_PARAM_BYTES "hwcrypt-bytes"         /* uint64: all cipher data bytes */
#define HWCP_PARAM_GCM_BYTES "hwcrypt-gcm-bytes" /* uint64: GCM data bytes (TLS records included) */
#define HWCP_PARAM_AES_IMPL "hwcrypt-aes-impl"   /* utf8: the AES back end a new key gets */
#define HWCP_PARAM_SM4_IMPL "hwcrypt-sm4-impl"
#define HWCP_PARAM_GHASH_IMPL "hwcrypt-ghash-impl"

typedef struct hwcp_provctx {
    const OSSL_CORE_HANDLE *handle;
    const OSSL_DISPATCH *core_in; /* the core's functions, for the child library context */
    pthread_mutex_t lock;
    OSSL_LIB_CTX *others; /* made on first use: the other providers, as seen from this one */
} hwcp_provctx;

/* The library context through which the provider reaches the other
 * providers loaded beside it (OSSL_LIB_CTX_new_child), made on first use:
 * a MAC asked for a cipher hwcrypt lacks runs there.  NULL on failure
 * (error queued). */
OSSL_LIB_CTX *hwcp_others(hwcp_provctx *pc);

extern const OSSL_ALGORITHM hwcp_ciphers[];
extern const OSSL_ALGORITHM hwcp_macs[];

/* Counters (relaxed atomics; read by the provider's get_params). */
void hwcp_count_bytes(uint64_t n, int gcm);

/* Puts an error on OpenSSL's error queue: `rc` is an hwc_err (its text is
 * appended) or 0 for a provider-level error described by `what`. */
void hwcp_error(const hwcp_provctx *pc, int rc, const char *what);
/* The same under OpenSSL's provider reason PROV_R_... (0: from rc). */
void hwcp_error_reason(const hwcp_provctx *pc, int prov_reason, int rc, const char *what);

#endif
