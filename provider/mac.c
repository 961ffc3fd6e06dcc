/*
 * hwcrypt's OpenSSL 3 provider: CMAC and GMAC (EVP_MAC), with the block
 * cipher named by the "cipher" parameter as OpenSSL's own MACs take it
 * (CMAC: a CBC cipher such as "AES-128-CBC" or "SM4-CBC"; GMAC: a GCM
 * cipher such as "AES-256-GCM" or "id-aes256-GCM").
 *
 * With hwcrypt preferred system-wide, every CMAC and GMAC comes here, also
 * for ciphers hwcrypt lacks (3DES-CMAC, ARIA-GMAC, ...): such a context
 * hands everything to the same MAC of the other providers, reached through
 * a child library context, so installing hwcrypt breaks none of them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "prov.h"

#define MAC_SIZE 16
#define MAX_IV 128

typedef struct mac_ctx {
    const hwcp_provctx *pc;
    int gmac;
    const hwc_cipher *mc; /* hwcrypt's MAC cipher (aes-128-cmac, sm4-gmac, ...) */
    hwc_ctx *hw;
    uint8_t key[32];
    int have_key;
    uint8_t iv[MAX_IV];
    size_t ivlen;
    int started;
    EVP_MAC_CTX *other; /* the other providers' MAC, for a cipher hwcrypt lacks */
    uint64_t uncounted; /* bytes not yet in the provider's counters (added at final and free) */
} mac_ctx;

static void mac_flush_count(mac_ctx *m) {
    if (m->uncounted) {
        hwcp_count_bytes(m->uncounted, m->gmac);
        m->uncounted = 0;
    }
}

static int mac_fail(mac_ctx *m, int rc, const char *what) {
    hwcp_error(m->pc, rc, what);
    return 0;
}

static void *mac_new(void *provctx, int gmac) {
    mac_ctx *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->pc = provctx;
    m->gmac = gmac;
    if (!(m->hw = hwc_ctx_new())) {
        free(m);
        return NULL;
    }
    return m;
}
static void *cmac_new(void *provctx) { return mac_new(provctx, 0); }
static void *gmac_new(void *provctx) { return mac_new(provctx, 1); }

static void mac_free(void *vctx);

/* EVP_MAC_CTX_dup, at any point (KBKDF copies a keyed CMAC before each
 * block; pyca's CMAC.copy() mid-message). */
static void *mac_dup(void *vctx) {
    const mac_ctx *src = vctx;
    mac_ctx *m = mac_new((void *)src->pc, src->gmac);
    if (!m)
        return NULL;
    hwc_ctx *hw = m->hw;
    memcpy(m, src, sizeof *m);
    m->hw = hw;
    m->other = NULL;
    m->uncounted = 0;
    int rc = hwc_ctx_copy(m->hw, src->hw);
    if (rc || (src->other && !(m->other = EVP_MAC_CTX_dup(src->other)))) {
        if (rc)
            mac_fail(m, rc, "MAC context copy");
        mac_free(m);
        return NULL;
    }
    return m;
}

static void mac_free(void *vctx) {
    mac_ctx *m = vctx;
    if (!m)
        return;
    mac_flush_count(m);
    EVP_MAC_CTX_free(m->other);
    hwc_ctx_free(m->hw);
    memset(m, 0, sizeof *m);
    __asm__ __volatile__("" : : "r"(m) : "memory");
    free(m);
}

/* "AES-128-CBC" -> aes-128-cmac; "id-aes256-GCM" -> aes-256-gmac. */
static const hwc_cipher *mac_cipher_for(const char *name, int gmac) {
    char low[64];
    size_t n = strlen(name);
    if (n >= sizeof low)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    char alt[64];
    unsigned bits;
    if (sscanf(low, "id-aes%u-gcm", &bits) == 1) { /* OpenSSL's short name for GCM */
        snprintf(alt, sizeof alt, "aes-%u-gcm", bits);
        memcpy(low, alt, strlen(alt) + 1);
    }
    const hwc_cipher *c = hwc_cipher_by_name(low);
    if (!c || hwc_cipher_mode(c) != (gmac ? HWC_MODE_GCM : HWC_MODE_CBC))
        return NULL;
    if (hwc_cipher_family(c) == HWC_FAMILY_SM4)
        snprintf(alt, sizeof alt, "sm4-%s", gmac ? "gmac" : "cmac");
    else
        snprintf(alt, sizeof alt, "aes-%zu-%s", hwc_cipher_key_len(c) * 8, gmac ? "gmac" : "cmac");
    return hwc_cipher_by_name(alt);
}

/* Starts a MAC when cipher, key (and GMAC's IV) are all known. */
static int mac_start(mac_ctx *m) {
    m->started = 0;
    if (!m->mc || !m->have_key || (m->gmac && !m->ivlen))
        return 1;
    int rc = hwc_init(m->hw, m->mc, HWC_ENCRYPT, m->key, hwc_cipher_key_len(m->mc), m->gmac ? m->iv : NULL,
                      m->gmac ? m->ivlen : 0);
    if (rc)
        return mac_fail(m, rc, "MAC init");
    m->started = 1;
    return 1;
}

static int mac_set_key(mac_ctx *m, const unsigned char *key, size_t keylen) {
    if (!m->mc)
        return mac_fail(m, 0, "MAC key before cipher");
    if (keylen != hwc_cipher_key_len(m->mc))
        return mac_fail(m, HWC_ERR_KEY_LEN, "MAC key");
    memcpy(m->key, key, keylen);
    m->have_key = 1;
    return 1;
}

/* From now on the context is the other providers' MAC (a cipher hwcrypt
 * lacks): made from the same parameters. */
static int mac_hand_over(mac_ctx *m, const OSSL_PARAM params[]) {
    OSSL_LIB_CTX *others = hwcp_others((hwcp_provctx *)m->pc);
    EVP_MAC *mac = others ? EVP_MAC_fetch(others, m->gmac ? "GMAC" : "CMAC", "provider!=hwcrypt") : NULL;
    EVP_MAC_CTX *other = mac ? EVP_MAC_CTX_new(mac) : NULL;
    EVP_MAC_free(mac);
    if (!other || !EVP_MAC_CTX_set_params(other, params)) {
        EVP_MAC_CTX_free(other);
        return mac_fail(m, HWC_ERR_UNKNOWN, m->gmac ? "GMAC: no provider has this GCM cipher"
                                                    : "CMAC: no provider has this CBC cipher");
    }
    EVP_MAC_CTX_free(m->other);
    m->other = other;
    m->mc = NULL;
    m->have_key = 0;
    m->started = 0;
    return 1;
}

static int mac_set_params(void *vctx, const OSSL_PARAM params[]) {
    mac_ctx *m = vctx;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    int changed = 0;
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_CIPHER))) {
        const char *name = NULL;
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name))
            return mac_fail(m, 0, "MAC cipher parameter");
        const hwc_cipher *c = mac_cipher_for(name, m->gmac);
        if (!c)
            return mac_hand_over(m, params);
        EVP_MAC_CTX_free(m->other); /* back to hwcrypt's own */
        m->other = NULL;
        if (c != m->mc)
            m->have_key = 0;
        m->mc = c;
        changed = 1;
    } else if (m->other) {
        return EVP_MAC_CTX_set_params(m->other, params);
    }
    if ((p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY))) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || !mac_set_key(m, p->data, p->data_size))
            return mac_fail(m, HWC_ERR_KEY_LEN, "MAC key parameter");
        changed = 1;
    }
    if (m->gmac && (p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_IV))) {
        if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 || p->data_size > MAX_IV)
            return mac_fail(m, HWC_ERR_IV_LEN, "GMAC IV");
        memcpy(m->iv, p->data, p->data_size);
        m->ivlen = p->data_size;
        changed = 1;
    }
    return changed ? mac_start(m) : 1;
}

static int mac_init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[]) {
    mac_ctx *m = vctx;
    if (!mac_set_params(m, params))
        return 0;
    if (m->other)
        return EVP_MAC_init(m->other, key, keylen, NULL);
    if (key && !mac_set_key(m, key, keylen))
        return 0;
    if (!mac_start(m))
        return 0;
    return m->started ? 1 : mac_fail(m, HWC_ERR_STATE, m->gmac ? "GMAC needs cipher, key and IV" : "CMAC needs cipher and key");
}

static int mac_update(void *vctx, const unsigned char *in, size_t inl) {
    mac_ctx *m = vctx;
    if (m->other)
        return EVP_MAC_update(m->other, in, inl);
    if (!m->started)
        return mac_fail(m, HWC_ERR_STATE, "MAC update before init");
    int rc = hwc_aad(m->hw, in, inl);
    if (rc)
        return mac_fail(m, rc, "MAC update");
    m->uncounted += inl;
    return 1;
}

static int mac_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize) {
    mac_ctx *m = vctx;
    if (m->other)
        return EVP_MAC_final(m->other, out, outl, outsize);
    mac_flush_count(m);
    if (!m->started)
        return mac_fail(m, HWC_ERR_STATE, "MAC final before init");
    if (outsize < MAC_SIZE)
        return mac_fail(m, HWC_ERR_BUFFER, "MAC final");
    int rc = hwc_mac_final(m->hw, out, MAC_SIZE);
    m->started = 0;
    if (rc)
        return mac_fail(m, rc, "MAC final");
    *outl = MAC_SIZE;
    return 1;
}

static const OSSL_PARAM cmac_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM gmac_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM cmac_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM gmac_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_utf8_string(OSSL_MAC_PARAM_PROPERTIES, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_IV, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *cmac_gettable_ctx(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    return cmac_gettable;
}
static const OSSL_PARAM *gmac_gettable_ctx(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    return gmac_gettable;
}
static const OSSL_PARAM *cmac_settable_ctx(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    return cmac_settable;
}
static const OSSL_PARAM *gmac_settable_ctx(void *vctx, void *provctx) {
    (void)vctx;
    (void)provctx;
    return gmac_settable;
}

static int mac_get_params(void *vctx, OSSL_PARAM params[]) {
    mac_ctx *m = vctx;
    OSSL_PARAM *p;
    if (m->other)
        return EVP_MAC_CTX_get_params(m->other, params);
    /* CMAC's sizes are its cipher's block size: 0 until a cipher is set, as
     * OpenSSL's (evp_test compares them before and after init). */
    size_t size = m->gmac || m->mc ? MAC_SIZE : 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE)) && !OSSL_PARAM_set_size_t(p, size))
        return 0;
    if (!m->gmac && (p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, size))
        return 0;
    return 1;
}

#define MAC_DISPATCH(kind)                                                              \
    static const OSSL_DISPATCH kind##_dispatch[] = {                                    \
        {OSSL_FUNC_MAC_NEWCTX, (void (*)(void))kind##_new},                             \
        {OSSL_FUNC_MAC_FREECTX, (void (*)(void))mac_free},                              \
        {OSSL_FUNC_MAC_DUPCTX, (void (*)(void))mac_dup},                                \
        {OSSL_FUNC_MAC_INIT, (void (*)(void))mac_init},                                 \
        {OSSL_FUNC_MAC_UPDATE, (void (*)(void))mac_update},                             \
        {OSSL_FUNC_MAC_FINAL, (void (*)(void))mac_final},                               \
        {OSSL_FUNC_MAC_GETTABLE_CTX_PARAMS, (void (*)(void))kind##_gettable_ctx},       \
        {OSSL_FUNC_MAC_GET_CTX_PARAMS, (void (*)(void))mac_get_params},                 \
        {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (void (*)(void))kind##_settable_ctx},       \
        {OSSL_FUNC_MAC_SET_CTX_PARAMS, (void (*)(void))mac_set_params},                 \
        {0, NULL}};
MAC_DISPATCH(cmac)
MAC_DISPATCH(gmac)

const OSSL_ALGORITHM hwcp_macs[] = {
    {"CMAC", "provider=hwcrypt", cmac_dispatch, "hwcrypt CMAC (AES, SM4)"},
    {"GMAC:1.0.9797.3.4", "provider=hwcrypt", gmac_dispatch, "hwcrypt GMAC (AES, SM4)"},
    {NULL, NULL, NULL, NULL}};
