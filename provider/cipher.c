/*
 * hwcrypt's OpenSSL 3 provider: ciphers.
 *
 * One context type serves every algorithm; a per-algorithm table entry says
 * what OpenSSL calls it and how EVP expects it to behave.  The hwcrypt
 * context does the work; this file translates EVP's conventions:
 *   - two-step init (key and IV in separate calls, in either order), and a
 *     direction change without a new key (hwcrypt needs the key again);
 *   - AAD as update() with out == NULL; CCM's "length first" update with
 *     in == out == NULL, and its one-update message with the tag checked there;
 *   - tags as the "tag" parameter (expected tag / tag length before, the
 *     computed tag after final), truncated on request as OpenSSL's GCM does;
 *   - XTS: each update() is one data unit under the IV given at init;
 *   - GCM TLS 1.2 records (tlsaad, tlsivfixed, tlsivgen, tlsivinv): one
 *     in-place update() of explicit IV || payload || tag;
 *   - key wrap: one update() is one wrap or unwrap;
 *   - OpenSSL's leniencies that programs rely on: a cipher keyed without an
 *     IV runs on zeros, an update after final goes on from the chain, an
 *     in-place stream fed in pieces (out = in - bytes held back) works, a
 *     context may be copied at any point, and a failed tag check leaves no
 *     error entry (only the failure).
 */
#define _GNU_SOURCE /* getrandom */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h> /* OPENSSL_cleanse */
#include <openssl/evp.h> /* EVP_CIPH_*_MODE and the TLS AEAD constants */
#include <openssl/params.h>
#include <openssl/prov_ssl.h> /* TLS1_VERSION, ... */
#include <openssl/proverr.h>  /* PROV_R_*: the reasons programs look for */

#include "prov.h"

#ifndef EVP_CIPH_GCM_SIV_MODE
#define EVP_CIPH_GCM_SIV_MODE 0x10005 /* OpenSSL 3.2's number; 3.0 has no GCM-SIV */
#endif

/* What a table entry says about an algorithm. */
#define F_AEAD 0x001u
#define F_CUSTOM_IV 0x002u
#define F_PAD 0x004u      /* ECB, CBC: padding parameter */
#define F_GCM 0x008u
#define F_CCM 0x010u
#define F_OCB 0x020u
#define F_SIV 0x040u      /* SIV and GCM-SIV: one data update per message */
#define F_XTS 0x080u
#define F_WRAP 0x100u
#define F_CFB1 0x200u
#define F_IVLEN_SET 0x400u /* IV length settable (GCM, CCM, OCB) */

typedef struct cipher_def {
    const char *hwc_name;
    unsigned evp_mode;
    size_t key_len, iv_len, block_size;
    size_t ctx_iv_len, tag_len; /* context defaults: CCM's are 7 and 12, as OpenSSL's */
    unsigned flags;
} cipher_def;

#define MAX_IV 128 /* GCM accepts long IVs; OpenSSL's limit */
#define TAG_MAX 16

typedef struct cipher_ctx {
    const hwcp_provctx *pc;
    const cipher_def *def;
    const hwc_cipher *hc;
    hwc_ctx *hw;
    int enc;        /* direction of the current operation */
    int hw_enc;     /* direction the hwcrypt key schedule was made for */
    int have_key, have_iv;
    int msg_begun;  /* settings pushed to hwcrypt for this message */
    int finished;   /* final() done, or CCM/SIV/wrap message complete */
    int failed;     /* an error left hwcrypt's message unusable */
    int padding, use_bits;
    uint8_t key[64];
    size_t ivlen;
    uint8_t iv[MAX_IV];
    size_t taglen;  /* requested tag length (CCM, OCB; GCM's get may truncate) */
    uint8_t tag[TAG_MAX];
    size_t tag_set; /* length of the expected tag given for decryption, 0 if none */
    uint8_t out_tag[TAG_MAX];
    size_t out_tag_len; /* computed tag available after encryption's final */
    /* CCM */
    int ccm_len_set, ccm_lengths_pushed;
    uint64_t ccm_msg_len;
    /* ECB/CBC/OCB: bytes hwcrypt holds back (a partial block, or CBC's
     * padding block), to size the output and to take in-place pieces */
    size_t held;
    uint8_t updated_iv[MAX_IV]; /* what the updated-iv parameter points to */
    /* What hwcrypt hands to the other providers (reached through the child
     * library context): XTS decryption with equal key halves, which
     * libhwcrypt refuses and OpenSSL's default provider takes (old data),
     * and CCM's TLS 1.2 records (other_tls: for good, until freed). */
    EVP_CIPHER_CTX *other;
    int other_tls;
    /* Bytes not yet added to the provider's counters: an atomic add per
     * call cost more than the cipher on short inputs. Flushed every
     * COUNT_BATCH bytes, at final, init and free. */
    uint64_t uncounted;
    int fast; /* the message may take cipher_update's short path */
    /* XTS: a data unit was processed since the IV was set */
    int xts_used;
    /* GCM TLS 1.2 */
    uint8_t tls_aad[EVP_AEAD_TLS1_AAD_LEN];
    size_t tls_aad_len;
    int tls_iv_gen;
    /* CBC TLS records (libssl's tls-version / tls-mac-size) */
    unsigned tls_version;
    size_t tls_mac_size;
    uint8_t tls_mac[64];
} cipher_ctx;

/* ------------------------------------------------------------- helpers */

/* The context parameters get/set_ctx_params know (OSSL_CIPHER_PARAM_AEAD_IVLEN
 * is "ivlen" too).  A caller's list is indexed in one pass (index_params)
 * instead of being searched once per known key. */
enum {
    P_KEYLEN, P_IVLEN, P_PADDING, P_IV, P_UPDATED_IV, P_TLS_MAC, P_TLS_VERSION, P_TLS_MAC_SIZE, P_USE_BITS,
    P_AEAD_TAG, P_AEAD_TAGLEN, P_TLS1_AAD, P_TLS1_AAD_PAD, P_TLS1_IV_FIXED, P_TLS1_GET_IV_GEN, P_TLS1_SET_IV_INV,
    P_COUNT
};
/* Whether `key` is the literal `lit` (n = sizeof lit, its NUL included):
 * with both constant the loop unrolls into a compare per character, and
 * key[i] is read only after key[0..i-1] matched non-NUL characters. */
static inline __attribute__((always_inline)) int key_is(const char *key, const char *lit, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (key[i] != lit[i])
            return 0;
    return 1;
}
#define KEY_IS(key, lit) key_is((key), "" lit, sizeof(lit)) /* "" lit: a literal only */

/* The id of a known key, or -1: the first character picks the candidates
 * (a key whose first character the switch does not expect is only not
 * found: every candidate is compared whole). */
static int param_id(const char *k) {
    switch (k[0]) {
    case 'i':
        return KEY_IS(k, OSSL_CIPHER_PARAM_IVLEN) ? P_IVLEN : KEY_IS(k, OSSL_CIPHER_PARAM_IV) ? P_IV : -1;
    case 'k':
        return KEY_IS(k, OSSL_CIPHER_PARAM_KEYLEN) ? P_KEYLEN : -1;
    case 'p':
        return KEY_IS(k, OSSL_CIPHER_PARAM_PADDING) ? P_PADDING : -1;
    case 'u':
        return KEY_IS(k, OSSL_CIPHER_PARAM_UPDATED_IV) ? P_UPDATED_IV
               : KEY_IS(k, OSSL_CIPHER_PARAM_USE_BITS) ? P_USE_BITS
                                                       : -1;
    case 't':
        return KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TAG)               ? P_AEAD_TAG
               : KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TAGLEN)          ? P_AEAD_TAGLEN
               : KEY_IS(k, OSSL_CIPHER_PARAM_TLS_MAC)              ? P_TLS_MAC
               : KEY_IS(k, OSSL_CIPHER_PARAM_TLS_VERSION)          ? P_TLS_VERSION
               : KEY_IS(k, OSSL_CIPHER_PARAM_TLS_MAC_SIZE)         ? P_TLS_MAC_SIZE
               : KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD)        ? P_TLS1_AAD
               : KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD)    ? P_TLS1_AAD_PAD
               : KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED)   ? P_TLS1_IV_FIXED
               : KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN) ? P_TLS1_GET_IV_GEN
               : KEY_IS(k, OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV) ? P_TLS1_SET_IV_INV
                                                                   : -1;
    default:
        return -1;
    }
}

/* The known keys of a list: bit k of the result is set when key k is
 * there, at[k] then being its first parameter (the one OSSL_PARAM_locate
 * finds); at[k] is not written otherwise (read it through PARAM_AT).
 * Unknown keys are skipped, as before. */
static unsigned index_params(const OSSL_PARAM *params, OSSL_PARAM *at[P_COUNT]) {
    unsigned found = 0;
    for (const OSSL_PARAM *p = params; p && p->key; p++) {
        int k = param_id(p->key);
        if (k >= 0 && !(found & 1u << k)) {
            found |= 1u << k;
            at[k] = (OSSL_PARAM *)p;
        }
    }
    return found;
}
#define PARAM_AT(k) ((found & 1u << (k)) ? at[k] : NULL)

/* OSSL_PARAM_get/set_size_t, with the native size_t done here: EVP's
 * per-message ctrls and length queries pass one, and libcrypto's converting
 * versions, behind two calls, cost more than the rest of such a query. */
static int get_size_param(const OSSL_PARAM *p, size_t *v) {
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER && p->data_size == sizeof(size_t) && p->data) {
        memcpy(v, p->data, sizeof(size_t));
        return 1;
    }
    return OSSL_PARAM_get_size_t(p, v);
}

static int set_size_param(OSSL_PARAM *p, size_t v) {
    if (p->data_type == OSSL_PARAM_UNSIGNED_INTEGER && p->data_size == sizeof(size_t) && p->data) {
        memcpy(p->data, &v, sizeof(size_t));
        p->return_size = sizeof(size_t);
        return 1;
    }
    return OSSL_PARAM_set_size_t(p, v);
}

#define COUNT_BATCH (64u << 10)

static void flush_count(cipher_ctx *c) {
    if (c->uncounted) {
        hwcp_count_bytes(c->uncounted, (c->def->flags & F_GCM) != 0);
        c->uncounted = 0;
    }
}

static inline void count_bytes(cipher_ctx *c, size_t n) {
    c->uncounted += n;
    if (c->uncounted >= COUNT_BATCH)
        flush_count(c);
}

static int fail(cipher_ctx *c, int rc, const char *what) {
    hwcp_error(c ? c->pc : NULL, rc, what);
    return 0;
}

static int needs_iv(const cipher_def *d) {
    return d->iv_len != 0 && !(d->flags & F_WRAP);
}

/* Modes whose chaining value hwc_get_iv gives (EVP's updated IV). */
static int has_chain(const cipher_def *d) {
    return d->evp_mode == EVP_CIPH_CBC_MODE || d->evp_mode == EVP_CIPH_CFB_MODE || d->evp_mode == EVP_CIPH_OFB_MODE ||
           d->evp_mode == EVP_CIPH_CTR_MODE;
}

/* Stream modes: final() has nothing to do, and OpenSSL lets data go on
 * after it (hwc_final is then never called). */
static int is_stream(const cipher_def *d) {
    return has_chain(d) && !(d->flags & F_PAD);
}

/* Tag lengths hwcrypt takes (libhwcrypt's rules, checked when the tag or
 * its length is given, not at the next update). */
static int tag_len_ok(const cipher_def *d, size_t n) {
    if (d->flags & F_GCM)
        return n >= 4 && n <= 16;
    if (d->flags & F_CCM)
        return n >= 4 && n <= 16 && n % 2 == 0;
    if (d->flags & F_OCB)
        return n >= 1 && n <= 16;
    return n == 16; /* SIV, GCM-SIV */
}

static void reset_message(cipher_ctx *c) {
    c->fast = 0;
    c->msg_begun = 0;
    c->finished = 0;
    c->failed = 0;
    c->out_tag_len = 0;
    c->ccm_len_set = 0;
    c->ccm_lengths_pushed = 0;
    c->ccm_msg_len = 0;
    c->held = 0;
    c->xts_used = 0;
}

/* (Re)starts hwcrypt's message with what the context has: a new key schedule
 * when the key or the direction changed, the IV when there is one. */
static int restart(cipher_ctx *c, int new_key) {
    if (!c->have_key)
        return 1; /* nothing to start yet: key and IV are kept for later */
    int rekey = new_key || c->hw_enc != c->enc || hwc_ctx_impl(c->hw) == NULL;
    const uint8_t *iv = NULL;
    size_t ivlen = 0;
    if (needs_iv(c->def) && c->have_iv) {
        iv = c->iv;
        ivlen = c->ivlen;
    }
    int enc = c->enc ? HWC_ENCRYPT : HWC_DECRYPT;
    int rc = rekey ? hwc_init(c->hw, c->hc, enc, c->key, c->def->key_len, iv, ivlen)
                   : hwc_init(c->hw, NULL, enc, NULL, 0, iv, ivlen);
    if (rc)
        return fail(c, rc, "init");
    c->hw_enc = c->enc;
    reset_message(c);
    return 1;
}

/* Pushes the EVP-level settings into hwcrypt once per message, just before
 * the first AAD, data or final. */
static int begin_message(cipher_ctx *c) {
    const cipher_def *d = c->def;
    if (c->msg_begun && !(c->finished && !c->failed && (d->flags & F_PAD)))
        return 1;
    if (!c->have_key)
        return fail(c, 0, "no key set");
    if (needs_iv(d) && !c->have_iv) {
        /* OpenSSL's providers run such a cipher on an all-zero IV (KRB5KDF
         * initialises AES-CBC so); its AEADs refuse, and so do these. */
        if (d->flags & F_AEAD)
            return fail(c, 0, "no IV set");
        memset(c->iv, 0, c->ivlen);
        c->have_iv = 1;
        if (!restart(c, 0))
            return 0;
    }
    if (c->finished && !c->failed && (d->flags & F_PAD)) {
        /* ECB, CBC: data after final goes on from the chain, as OpenSSL's. */
        uint8_t chain[16];
        int cbc = d->evp_mode == EVP_CIPH_CBC_MODE;
        int rc = cbc ? hwc_get_iv(c->hw, chain, sizeof chain) : 0;
        if (!rc)
            rc = hwc_init(c->hw, NULL, c->enc ? HWC_ENCRYPT : HWC_DECRYPT, NULL, 0, cbc ? chain : NULL,
                          cbc ? sizeof chain : 0);
        if (rc)
            return fail(c, rc, "restart after final");
        reset_message(c);
    }
    if (c->failed || c->finished)
        return fail(c, 0, "message already finished; init again");
    int rc = 0;
    if (d->flags & F_PAD)
        rc = hwc_set_padding(c->hw, c->padding);
    else if ((d->flags & (F_CCM | F_OCB)) && c->enc)
        rc = hwc_set_tag_len(c->hw, c->taglen);
    if (!rc && (d->flags & F_AEAD) && !c->enc && c->tag_set && !(d->flags & F_CCM))
        rc = hwc_set_tag(c->hw, c->tag, c->tag_set);
    if (rc)
        return fail(c, rc, "message setup");
    c->msg_begun = 1;
    /* Modes whose data updates are plain hwc_update calls take the short
     * path of cipher_update from now on (until final or a new init). */
    c->fast = !(d->flags & (F_WRAP | F_CCM | F_OCB | F_SIV | F_XTS | F_CFB1)) && !c->tls_version && !c->other;
    return 1;
}

/* CCM: the lengths go in with the first AAD or data (OpenSSL's rules: a
 * length-only update declares the message length; AAD comes in one piece). */
static int ccm_push_lengths(cipher_ctx *c, uint64_t aad_len, uint64_t msg_len) {
    if (c->ccm_lengths_pushed)
        return 1;
    int rc = hwc_set_lengths(c->hw, aad_len, msg_len);
    if (!rc)
        rc = c->enc || !c->tag_set ? hwc_set_tag_len(c->hw, c->taglen) : hwc_set_tag(c->hw, c->tag, c->tag_set);
    if (rc)
        return fail(c, rc, "CCM lengths");
    c->ccm_lengths_pushed = 1;
    return 1;
}

static int collect_tag(cipher_ctx *c) {
    size_t n = (c->def->flags & (F_CCM | F_OCB)) ? c->taglen : TAG_MAX;
    int rc = hwc_get_tag(c->hw, c->out_tag, n);
    if (rc)
        return fail(c, rc, "get tag");
    c->out_tag_len = n;
    return 1;
}

/* ------------------------------------------------------------ life cycle */

static void *cipher_new(void *provctx, const cipher_def *d) {
    cipher_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->pc = provctx;
    c->def = d;
    c->hc = hwc_cipher_by_name(d->hwc_name);
    c->hw = hwc_ctx_new();
    if (!c->hc || !c->hw) {
        hwc_ctx_free(c->hw);
        free(c);
        return NULL;
    }
    c->padding = 1;
    c->ivlen = d->ctx_iv_len;
    c->taglen = d->tag_len;
    return c;
}

static void cipher_free(void *vctx) {
    cipher_ctx *c = vctx;
    if (!c)
        return;
    flush_count(c);
    EVP_CIPHER_CTX_free(c->other);
    hwc_ctx_free(c->hw);
    memset(c, 0, sizeof *c); /* the key copy */
    __asm__ __volatile__("" : : "r"(c) : "memory");
    free(c);
}

static int set_ctx_params(void *vctx, const OSSL_PARAM params[]);

/* EVP_CIPHER_CTX_copy, at any point of a message: both go on from there. */
static void *cipher_dup(void *vctx) {
    const cipher_ctx *src = vctx;
    cipher_ctx *c = cipher_new((void *)src->pc, src->def);
    if (!c)
        return NULL;
    hwc_ctx *hw = c->hw;
    memcpy(c, src, sizeof *c);
    c->hw = hw;
    c->other = NULL;
    c->uncounted = 0; /* the source's bytes are the source's */
    int rc = hwc_ctx_copy(c->hw, src->hw);
    if (rc || (src->other && (!(c->other = EVP_CIPHER_CTX_new()) || !EVP_CIPHER_CTX_copy(c->other, src->other)))) {
        if (rc)
            hwcp_error(src->pc, rc, "context copy");
        cipher_free(c);
        return NULL;
    }
    return c;
}

static int xts_hand_over(cipher_ctx *c, int new_key, const OSSL_PARAM params[]) {
    if (!c->other || new_key) {
        OSSL_LIB_CTX *others = hwcp_others((hwcp_provctx *)c->pc);
        EVP_CIPHER *ciph = others ? EVP_CIPHER_fetch(others, c->def->hwc_name, "provider!=hwcrypt") : NULL;
        EVP_CIPHER_CTX_free(c->other);
        c->other = EVP_CIPHER_CTX_new();
        int ok = ciph && c->other && EVP_DecryptInit_ex2(c->other, ciph, c->key, c->have_iv ? c->iv : NULL, params);
        EVP_CIPHER_free(ciph);
        if (!ok)
            return fail(c, HWC_ERR_WEAK_KEY, "XTS decryption with equal key halves (no other provider took it)");
        return 1;
    }
    return EVP_DecryptInit_ex2(c->other, NULL, NULL, c->have_iv ? c->iv : NULL, params);
}

/* CCM's TLS 1.2 records (tlsivfixed / tlsaad), which libssl sets before the
 * key: the other providers' CCM, set up as this context is, does them. */
static int ccm_tls_hand_over(cipher_ctx *c, const OSSL_PARAM params[]) {
    OSSL_LIB_CTX *others = hwcp_others((hwcp_provctx *)c->pc);
    EVP_CIPHER *ciph = others ? EVP_CIPHER_fetch(others, c->def->hwc_name, "provider!=hwcrypt") : NULL;
    EVP_CIPHER_CTX *other = EVP_CIPHER_CTX_new();
    size_t ivlen = c->ivlen;
    OSSL_PARAM setup[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen),
                          OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, c->taglen),
                          OSSL_PARAM_construct_end()};
    int ok = ciph && other && EVP_CipherInit_ex2(other, ciph, NULL, NULL, c->enc, NULL) &&
             EVP_CIPHER_CTX_set_params(other, setup) &&
             (!c->have_key || EVP_CipherInit_ex2(other, NULL, c->key, NULL, c->enc, NULL)) &&
             EVP_CIPHER_CTX_set_params(other, params);
    EVP_CIPHER_free(ciph);
    if (!ok) {
        EVP_CIPHER_CTX_free(other);
        return fail(c, HWC_ERR_UNSUPPORTED, "CCM TLS 1.2 records (no other provider took them)");
    }
    EVP_CIPHER_CTX_free(c->other);
    c->other = other;
    c->other_tls = 1;
    return 1;
}

static int cipher_init(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                       size_t ivlen, const OSSL_PARAM params[], int enc) {
    cipher_ctx *c = vctx;
    const cipher_def *d = c->def;
    if (c->other_tls) {
        if (key && keylen == d->key_len)
            memcpy(c->key, key, keylen);
        c->enc = enc;
        return EVP_CipherInit_ex2(c->other, NULL, key, iv, enc, params);
    }
    c->enc = enc;
    c->tls_aad_len = 0;
    int new_key = 0;
    if (key) {
        if (keylen != d->key_len)
            return fail(c, HWC_ERR_KEY_LEN, "init");
        /* The key it already has (callers that pass the key with every
         * message's IV, as `openssl speed` does for AEADs): no new key
         * schedule.  Compared in constant time; whether it changed is the
         * one bit that decides. */
        new_key = !c->have_key || CRYPTO_memcmp(c->key, key, keylen) != 0;
        if (new_key)
            memcpy(c->key, key, keylen);
    }
    if (iv && d->iv_len) {
        if (d->flags & F_WRAP) {
            /* hwcrypt wraps with the standard ICV only (RFC 3394 / 5649). */
            static const uint8_t kw_icv[8] = {0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6};
            static const uint8_t kwp_icv[4] = {0xA6, 0x59, 0x59, 0xA6};
            const uint8_t *std = d->iv_len == 8 ? kw_icv : kwp_icv;
            if (ivlen != d->iv_len || memcmp(iv, std, ivlen) != 0)
                return fail(c, HWC_ERR_UNSUPPORTED, "key wrap with a non-default IV");
        } else {
            if (ivlen != c->ivlen || ivlen > MAX_IV)
                return fail(c, HWC_ERR_IV_LEN, "init");
            memcpy(c->iv, iv, ivlen);
            c->have_iv = 1;
            c->tls_iv_gen = 0;
        }
    }
    if (key)
        c->have_key = 1;
    if ((d->flags & F_XTS) && !enc && c->have_key && CRYPTO_memcmp(c->key, c->key + d->key_len / 2, d->key_len / 2) == 0)
        return xts_hand_over(c, new_key, params);
    if (c->other) { /* a call into libcrypto per message otherwise */
        EVP_CIPHER_CTX_free(c->other);
        c->other = NULL;
    }
    if (!restart(c, new_key))
        return 0;
    return set_ctx_params(c, params);
}

static int cipher_einit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                        size_t ivlen, const OSSL_PARAM params[]) {
    return cipher_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int cipher_dinit(void *vctx, const unsigned char *key, size_t keylen, const unsigned char *iv,
                        size_t ivlen, const OSSL_PARAM params[]) {
    return cipher_init(vctx, key, keylen, iv, ivlen, params, 0);
}

/* ------------------------------------------------------------------ TLS */

/* One TLS 1.2 GCM record, in place: explicit IV (8) || payload || tag (16). */
static int gcm_tls_record(cipher_ctx *c, unsigned char *out, size_t *outl, const unsigned char *in, size_t len) {
    const size_t eiv = EVP_GCM_TLS_EXPLICIT_IV_LEN, tl = EVP_GCM_TLS_TAG_LEN;
    int ok = 0;
    if (!c->have_key || !c->tls_iv_gen || c->ivlen != 12) {
        fail(c, HWC_ERR_STATE, "TLS record without key and fixed IV");
        goto done;
    }
    if (out != in || len < eiv + tl) {
        fail(c, HWC_ERR_DATA_LEN, "TLS record (must be in place, at least 24 bytes)");
        goto done;
    }
    size_t plen = len - eiv - tl;
    uint8_t *invocation = c->iv + c->ivlen - eiv;
    int rc;
    if (c->enc) {
        memcpy(out, invocation, eiv);
        rc = hwc_aead_seal(c->hw, c->iv, c->ivlen, c->tls_aad, c->tls_aad_len, in + eiv, plen, out + eiv,
                           out + eiv + plen, tl);
        /* The next record's explicit IV: the invocation field plus one. */
        for (int i = (int)eiv - 1; i >= 0 && ++invocation[i] == 0; i--)
            ;
    } else {
        memcpy(invocation, in, eiv);
        rc = hwc_aead_open(c->hw, c->iv, c->ivlen, c->tls_aad, c->tls_aad_len, in + eiv, plen, out + eiv,
                           in + eiv + plen, tl);
    }
    if (rc) {
        fail(c, rc, c->enc ? "TLS record seal" : "TLS record open");
        goto done;
    }
    count_bytes(c, plen);
    *outl = c->enc ? len : plen;
    ok = 1;
done:
    c->tls_aad_len = 0;
    c->finished = 1;
    return ok;
}

/* Constant-time helpers for the CBC record checks: all-ones or zero masks,
 * no branch on their arguments. */
#define SIZE_BITS (sizeof(size_t) * 8)
static size_t ct_msb(size_t x) { return 0 - (x >> (SIZE_BITS - 1)); }
static size_t ct_lt(size_t a, size_t b) { return ct_msb(a ^ ((a ^ b) | ((a - b) ^ b))); }
static size_t ct_ge(size_t a, size_t b) { return ~ct_lt(a, b); }
static size_t ct_eq(size_t a, size_t b) { return ct_msb(~(a ^ b) & ((a ^ b) - 1)); }

/* Strips a decrypted TLS record's CBC padding and copies out its MAC (the
 * last mac_size bytes before the padding) without branching on or indexing
 * by the padding length, which is secret until the MAC is checked (Lucky 13).
 * Bad padding is not reported here: the MAC handed back is then random, so
 * libssl's MAC check fails in the same time as for a wrong MAC.  `len` is
 * public: it only decides how far to scan.  Returns 0 only for a record too
 * short to hold a MAC and padding (public), or, with no MAC (encrypt-then-
 * MAC, whose MAC was already checked), for bad padding. */
static int tls_cbc_unpad(cipher_ctx *c, const uint8_t *rec, size_t len, size_t *payload_len) {
    size_t mac_size = c->tls_mac_size;
    if (len < 1 + mac_size)
        return 0;
    size_t pad = rec[len - 1];
    size_t good = ct_ge(len, 1 + mac_size + pad);
    size_t to_check = len < 256 ? len : 256; /* the most padding there can be */
    for (size_t i = 0; i < to_check; i++) {
        size_t in_pad = ct_ge(pad, i);
        good &= ~(in_pad & (pad ^ rec[len - 1 - i]));
    }
    good = ct_eq(0xff, good & 0xff); /* any differing bit cleared one of the low 8 */
    size_t rest = len - (good & (pad + 1));
    if (mac_size == 0) {
        *payload_len = rest;
        return good != 0;
    }
    /* The MAC ends at `rest`, which may lie anywhere in the last 256 + mac
     * bytes: sweep them all, collecting the MAC rotated by a secret amount. */
    uint8_t rotated[64] = {0}, random_mac[64];
    if (getrandom(random_mac, mac_size, 0) != (ssize_t)mac_size)
        return 0;
    size_t mac_start = rest - mac_size, mac_end = rest;
    size_t scan_start = len > mac_size + 256 ? len - (mac_size + 256) : 0;
    size_t in_mac = 0, rotate = 0;
    for (size_t i = scan_start, j = 0; i < len; i++) {
        size_t started = ct_eq(i, mac_start);
        in_mac = (in_mac | started) & ct_lt(i, mac_end);
        rotate |= j & started;
        rotated[j] |= rec[i] & (uint8_t)in_mac;
        j = (j + 1) & ct_lt(j + 1, mac_size);
    }
    for (size_t i = 0; i < mac_size; i++) {
        size_t idx = i + rotate;
        idx -= mac_size & ct_ge(idx, mac_size);
        uint8_t v = 0;
        for (size_t k = 0; k < mac_size; k++)
            v |= rotated[k] & (uint8_t)ct_eq(k, idx);
        c->tls_mac[i] = (uint8_t)((v & (uint8_t)good) | (random_mac[i] & (uint8_t)~good));
    }
    *payload_len = rest - mac_size;
    return 1;
}

/* One TLS 1.0-1.2 CBC record, in place.  Sending: libssl gives explicit IV
 * (TLS 1.1+) || payload || MAC and we add the padding; receiving: we decrypt,
 * drop the explicit IV, and strip padding and MAC (tls_cbc_unpad).  The CBC
 * chain runs on from record to record, which TLS 1.0's implicit IV needs. */
static int cbc_tls_record(cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                          size_t inl) {
    if (in == NULL || out != in || outsize < inl)
        return fail(c, HWC_ERR_DATA_LEN, "TLS CBC record (must be in place)");
    if (!c->msg_begun) {
        if (!c->have_key || !c->have_iv)
            return fail(c, HWC_ERR_STATE, "TLS CBC record without key and IV");
        int rc = hwc_set_padding(c->hw, 0); /* TLS pads its own way */
        if (rc)
            return fail(c, rc, "TLS CBC record");
        c->msg_begun = 1;
    }
    if (c->enc) {
        size_t padnum = 16 - inl % 16;
        if (outsize < inl + padnum)
            return fail(c, HWC_ERR_BUFFER, "TLS CBC record");
        memset(out + inl, (int)(padnum - 1), padnum);
        inl += padnum;
    } else if (inl % 16 != 0 || inl == 0) {
        return fail(c, HWC_ERR_DATA_LEN, "TLS CBC record length");
    }
    size_t n = 0;
    int rc = hwc_update(c->hw, out, &n, out, inl);
    if (rc || n != inl)
        return fail(c, rc ? rc : HWC_ERR_STATE, "TLS CBC record");
    count_bytes(c, inl);
    if (c->enc) {
        *outl = inl;
        return 1;
    }
    size_t skip = c->tls_version == TLS1_VERSION ? 0 : 16; /* the explicit IV block */
    if (inl < skip || !tls_cbc_unpad(c, out + skip, inl - skip, outl))
        return fail(c, HWC_ERR_PADDING, "TLS CBC record");
    return 1;
}

/* ---------------------------------------------------------- update/final */

static int cipher_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                         size_t inl);
static int cipher_update_general(cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                                 const unsigned char *in, size_t inl);

/* An EVP caller that feeds one buffer through in place, in pieces, passes
 * out = in - (bytes the cipher holds back): a partial overlap, which
 * libhwcrypt refuses and OpenSSL's providers take.  When the output starts
 * at least that many bytes before the input it never overtakes the input
 * still to be read, so the input goes through a bounce buffer in pieces;
 * otherwise (output ahead of the input, or a mode that takes its data in
 * one update) through a whole copy. */
static int update_overlapping(cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                              const unsigned char *in, size_t inl, size_t in_bytes) {
    const cipher_def *d = c->def;
    uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;
    int pieces = o < i && i - o >= c->held && !(d->flags & (F_CCM | F_SIV | F_XTS)) && !(d->flags & F_CFB1 && c->use_bits);
    int ok = 1;
    if (!pieces) {
        uint8_t *copy = malloc(in_bytes);
        if (!copy)
            return fail(c, HWC_ERR_NO_MEM, "update");
        memcpy(copy, in, in_bytes);
        ok = cipher_update(c, out, outl, outsize, copy, inl);
        OPENSSL_cleanse(copy, in_bytes);
        free(copy);
        return ok;
    }
    uint8_t bounce[1024];
    size_t total = 0;
    for (size_t done = 0; ok && done < inl;) {
        size_t n = inl - done < sizeof bounce ? inl - done : sizeof bounce, m = 0;
        memcpy(bounce, in + done, n);
        ok = cipher_update(c, out + total, &m, outsize - total, bounce, n);
        total += m;
        done += n;
    }
    OPENSSL_cleanse(bounce, sizeof bounce);
    *outl = ok ? total : 0;
    return ok;
}

/* Everything but the short path below (out of line: its register saves
 * and stack are not the short path's). */
__attribute__((noinline)) static int cipher_update_general(cipher_ctx *c, unsigned char *out, size_t *outl, size_t outsize,
                                 const unsigned char *in, size_t inl) {
    const cipher_def *d = c->def;
    int rc;
    *outl = 0;
    /* No buffer is longer than PTRDIFF_MAX (EVP's lengths are ints; the
     * dispatch table takes any size_t): refused here, inl + 16, held + inl,
     * (inl + 7) / 8 and the wrap lengths below cannot wrap past a check. */
    if (inl > (size_t)PTRDIFF_MAX)
        return fail(c, HWC_ERR_DATA_LEN, "update");
    if (c->other) {
        int n = 0;
        if (inl > INT_MAX || !EVP_CipherUpdate(c->other, out, &n, in, (int)inl))
            return 0;
        *outl = (size_t)n;
        return 1;
    }
    if (c->tls_aad_len)
        return gcm_tls_record(c, out, outl, in, inl);
    if (c->tls_version)
        return cbc_tls_record(c, out, outl, outsize, in, inl);
    if (out && in && out != in && !(d->flags & F_WRAP)) {
        size_t in_bytes = d->flags & F_CFB1 && c->use_bits ? inl / 8 + (inl % 8 != 0) : inl;
        uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;
        if (in_bytes && o < i + in_bytes && i < o + in_bytes + c->held)
            return update_overlapping(c, out, outl, outsize, in, inl, in_bytes);
    }

    if (d->flags & F_WRAP) {
        if (!c->have_key)
            return fail(c, 0, "no key set");
        size_t need = c->enc ? (inl + 15) / 8 * 8 : inl; /* hwcrypt's bound; exact after */
        if (out == NULL) { /* EVP asks for the output length first */
            *outl = c->enc ? (d->iv_len == 4 ? (inl + 7) / 8 * 8 + 8 : inl + 8) : (inl >= 8 ? inl - 8 : 0);
            return 1;
        }
        if (inl == 0)
            return 1;
        /* EVP sizes the output as inl + 8, short of KWP's padded length;
         * like OpenSSL's own wrap, require room for the input and trust the
         * caller to have sized the rest by the formula above (what a length
         * query returns). */
        if (outsize < inl)
            return fail(c, HWC_ERR_BUFFER, c->enc ? "key wrap" : "key unwrap");
        size_t n = 0;
        rc = c->enc ? hwc_ctx_key_wrap(c->hw, in, inl, out, need, &n)
                    : hwc_ctx_key_unwrap(c->hw, in, inl, out, need, &n);
        if (rc)
            return fail(c, rc, c->enc ? "key wrap" : "key unwrap");
        count_bytes(c, inl);
        *outl = n;
        return 1;
    }

    if (!begin_message(c))
        return 0;

    if (out == NULL) { /* AAD, or CCM's length declaration */
        if (!(d->flags & F_AEAD))
            return fail(c, HWC_ERR_NULL, "update without output");
        if (d->flags & F_CCM) {
            if (in == NULL) {
                c->ccm_msg_len = inl;
                c->ccm_len_set = 1;
                *outl = inl;
                return 1;
            }
            if (c->ccm_lengths_pushed)
                return fail(c, HWC_ERR_STATE, "CCM AAD must come in one update");
            if (!c->ccm_len_set) {
                /* As OpenSSL's CCM: AAD needs the message length first. */
                if (inl != 0)
                    return fail(c, HWC_ERR_STATE, "CCM AAD before the message length");
                return 1;
            }
            if (!ccm_push_lengths(c, inl, c->ccm_len_set ? c->ccm_msg_len : 0))
                return 0;
        }
        if ((rc = hwc_aad(c->hw, in, inl)))
            return fail(c, rc, "AAD");
        *outl = inl;
        return 1;
    }
    if (in == NULL && inl != 0)
        return fail(c, HWC_ERR_NULL, "update");

    if (d->flags & F_CFB1 && c->use_bits) { /* inl counts bits */
        if (outsize < (inl + 7) / 8)
            return fail(c, HWC_ERR_BUFFER, "update");
        if ((rc = hwc_update_bits(c->hw, out, in, inl)))
            return fail(c, rc, "update");
        count_bytes(c, (inl + 7) / 8);
        *outl = inl;
        return 1;
    }

    size_t n = 0;
    if (d->flags & F_CCM) {
        if (c->finished)
            return fail(c, HWC_ERR_STATE, "CCM takes one data update per message");
        if (outsize < inl)
            return fail(c, HWC_ERR_BUFFER, "update");
        if (!ccm_push_lengths(c, 0, c->ccm_len_set ? c->ccm_msg_len : inl))
            return 0;
        if ((rc = hwc_update(c->hw, out, &n, in, inl)) == 0) {
            size_t m = 0;
            uint8_t none[16];
            rc = hwc_final(c->hw, none, &m); /* checks the tag when decrypting */
            if (!rc && c->enc && !collect_tag(c))
                return 0;
        }
        c->finished = 1;
        if (rc) {
            if (!c->enc && out && inl)
                memset(out, 0, inl); /* never release unauthenticated plaintext */
            c->failed = 1;
            /* A wrong tag: OpenSSL's CCM reports only "cipher operation failed". */
            hwcp_error_reason(c->pc, rc == HWC_ERR_AUTH ? PROV_R_CIPHER_OPERATION_FAILED : 0, rc,
                              c->enc ? "CCM encrypt" : "CCM decrypt");
            return 0;
        }
        c->tag_set = 0;
        count_bytes(c, inl);
        *outl = n;
        return 1;
    }

    if (d->flags & F_XTS) {
        /* OpenSSL: every update is a whole data unit under the init IV. */
        if (c->xts_used && (rc = hwc_init(c->hw, NULL, c->enc ? HWC_ENCRYPT : HWC_DECRYPT, NULL, 0, c->iv,
                                          c->ivlen)))
            return fail(c, rc, "XTS restart");
        c->xts_used = 1;
    }

    if (d->flags & F_OCB) {
        size_t produced = (c->held + inl) / 16 * 16;
        if (outsize < produced)
            return fail(c, HWC_ERR_BUFFER, "update");
        if (out == in && c->held) {
            /* hwcrypt's in-place OCB with held bytes needs 16 bytes of
             * room past the input; EVP promises only inl. */
            uint8_t *tmp = malloc(inl + 16);
            if (!tmp)
                return fail(c, HWC_ERR_NO_MEM, "update");
            rc = hwc_update(c->hw, tmp, &n, in, inl);
            if (!rc)
                memcpy(out, tmp, n);
            memset(tmp, 0, inl + 16);
            free(tmp);
        } else {
            rc = hwc_update(c->hw, out, &n, in, inl);
        }
        if (rc)
            return fail(c, rc, "update");
        c->held = (c->held + inl) % 16;
        count_bytes(c, inl);
        *outl = n;
        return 1;
    }

    size_t room = (d->flags & F_PAD) ? inl + 16 : inl;
    if (outsize < room && !((d->flags & F_PAD) && outsize >= inl + 15))
        return fail(c, HWC_ERR_BUFFER, "update");
    if ((rc = hwc_update(c->hw, out, &n, in, inl))) {
        if (d->flags & F_SIV)
            c->failed = 1;
        if (rc == HWC_ERR_AUTH)
            return 0; /* a wrong tag: the failure alone, as OpenSSL's */
        return fail(c, rc, "update");
    }
    if (d->flags & F_PAD)
        c->held = c->held + inl - n;
    count_bytes(c, inl);
    *outl = n;
    return 1;
}

/* OSSL_FUNC_cipher_update.  The short path (most calls: a message under way
 * in a mode whose data update is hwcrypt's, data in place or apart) is kept
 * in a function of its own, whose few registers and checks are all a short
 * message pays for. */
static int cipher_update(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                         size_t inl) {
    cipher_ctx *c = vctx;
    if (c->fast && out && in && !c->tls_aad_len) {
        uintptr_t o = (uintptr_t)out, i = (uintptr_t)in;
        if ((o == i || o >= i + inl || i >= o + inl + c->held) &&
            (!(c->def->flags & F_PAD) || outsize >= inl + 15)) {
            /* The library writes the output length straight to *outl
             * (only on success; a failure sets it to 0 here). */
            int rc = hwc_update(c->hw, out, outl, in, inl);
            if (rc) {
                *outl = 0;
                return fail(c, rc, "update");
            }
            c->held = c->held + inl - *outl;
            count_bytes(c, inl);
            return 1;
        }
    }
    return cipher_update_general(c, out, outl, outsize, in, inl);
}

static int cipher_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize) {
    cipher_ctx *c = vctx;
    const cipher_def *d = c->def;
    *outl = 0;
    c->fast = 0;
    flush_count(c);
    if (c->other) {
        int n = 0;
        if (!EVP_CipherFinal_ex(c->other, out, &n))
            return 0;
        *outl = (size_t)n;
        return 1;
    }
    if (d->flags & F_WRAP || c->tls_version)
        return 1; /* key wrap and TLS records are whole in each update */
    if (d->flags & F_XTS)
        return 1; /* each update was a whole data unit */
    if (d->flags & F_CCM) {
        /* The message and its tag were done in update(); with no data
         * update there is no tag to hand out (as OpenSSL's CCM). */
        if (!c->have_key || c->failed)
            return fail(c, 0, c->failed ? "CCM message failed; init again" : "no key set");
        return 1;
    }
    if (d->flags & F_GCM && c->finished && !c->msg_begun)
        return 1; /* after a TLS record */
    if (!begin_message(c))
        return 0;
    if (is_stream(d))
        return 1; /* nothing held: the stream may go on, as OpenSSL's */
    uint8_t tmp[32];
    size_t n = 0;
    int rc = hwc_final(c->hw, tmp, &n);
    if (rc == HWC_ERR_DATA_LEN && (d->flags & F_PAD))
        /* A partial block left: nothing changed, the message may go on (as
         * OpenSSL's), under the reason programs look for. */
        return hwcp_error_reason(c->pc, PROV_R_WRONG_FINAL_BLOCK_LENGTH, rc, "final"), 0;
    c->finished = 1;
    if (rc) {
        memset(tmp, 0, sizeof tmp);
        c->failed = 1;
        if (rc == HWC_ERR_AUTH && (d->flags & F_AEAD))
            return 0; /* a wrong tag: the failure alone, no error entry, as OpenSSL's */
        hwcp_error_reason(c->pc, 0, rc, "final");
        return 0;
    }
    if (n > outsize || (n && !out)) {
        memset(tmp, 0, sizeof tmp);
        return fail(c, HWC_ERR_BUFFER, "final");
    }
    if (n)
        memcpy(out, tmp, n);
    memset(tmp, 0, sizeof tmp);
    if ((d->flags & F_AEAD) && c->enc && !collect_tag(c))
        return 0;
    if (!c->enc)
        c->tag_set = 0;
    *outl = n;
    return 1;
}

/* EVP_Cipher(): one call with data, or (in == NULL) the final. */
static int cipher_oneshot(void *vctx, unsigned char *out, size_t *outl, size_t outsize, const unsigned char *in,
                          size_t inl) {
    if (in == NULL && out != NULL)
        return cipher_final(vctx, out, outl, outsize);
    return cipher_update(vctx, out, outl, outsize, in, inl);
}

/* ---------------------------------------------------------- parameters */

static int get_params_common(const cipher_def *d, OSSL_PARAM params[]) {
    OSSL_PARAM *p;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE)) && !OSSL_PARAM_set_uint(p, d->evp_mode))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) && !OSSL_PARAM_set_size_t(p, d->key_len))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN)) && !OSSL_PARAM_set_size_t(p, d->iv_len))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) && !OSSL_PARAM_set_size_t(p, d->block_size))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD)) && !OSSL_PARAM_set_int(p, !!(d->flags & F_AEAD)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV)) &&
        !OSSL_PARAM_set_int(p, !!(d->flags & F_CUSTOM_IV)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS)) && !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK)) && !OSSL_PARAM_set_int(p, 0))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY)) && !OSSL_PARAM_set_int(p, 0))
        return 0;
    return 1;
}

static const OSSL_PARAM cipher_known_gettable[] = {
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
    OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
    OSSL_PARAM_END};

static const OSSL_PARAM *cipher_gettable_params(void *provctx) {
    (void)provctx;
    return cipher_known_gettable;
}

/* Context parameters: one table per family of behaviour. */
static const OSSL_PARAM ctx_gettable_basic[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_gettable_aead[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_gettable_gcm[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD_PAD, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_GET_IV_GEN, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM ctx_settable_basic[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_settable_pad[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_TLS_VERSION, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_settable_cfb1[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_uint(OSSL_CIPHER_PARAM_USE_BITS, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_settable_aead[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_settable_siv[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_END};
static const OSSL_PARAM ctx_settable_gcm[] = {
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
    OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, NULL),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_AAD, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_IV_FIXED, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_AEAD_TLS1_SET_IV_INV, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *gettable_for(const cipher_def *d) {
    if (d->flags & F_GCM)
        return ctx_gettable_gcm;
    return (d->flags & F_AEAD) ? ctx_gettable_aead : ctx_gettable_basic;
}

static const OSSL_PARAM *settable_for(const cipher_def *d) {
    if (d->flags & F_GCM)
        return ctx_settable_gcm;
    if (d->flags & F_SIV)
        return ctx_settable_siv;
    if (d->flags & F_AEAD)
        return ctx_settable_aead;
    if (d->flags & F_PAD)
        return ctx_settable_pad;
    if (d->flags & F_CFB1)
        return ctx_settable_cfb1;
    return ctx_settable_basic;
}

/* The AEAD IV length (GCM, CCM, OCB). */
static int set_aead_ivlen(cipher_ctx *c, const OSSL_PARAM *p) {
    const cipher_def *d = c->def;
    size_t v;
    int ok = get_size_param(p, &v);
    if (ok && (d->flags & F_GCM))
        ok = v >= 1 && v <= MAX_IV;
    else if (ok && (d->flags & F_CCM))
        ok = v >= 7 && v <= 13;
    else if (ok)
        ok = v >= 1 && v <= 15; /* OCB */
    if (!ok)
        return fail(c, HWC_ERR_IV_LEN, "set ivlen");
    if (v != c->ivlen) {
        c->ivlen = v;
        c->have_iv = 0;
    }
    return 1;
}

/* The expected tag (decryption) or, without data, the tag length to
 * produce (CCM, OCB). GCM takes only a tag, as OpenSSL's GCM: a length
 * alone (EVP_CTRL_AEAD_SET_TAG with no buffer) is refused, when encrypting
 * or decrypting. */
static int set_aead_tag(cipher_ctx *c, const OSSL_PARAM *p) {
    const cipher_def *d = c->def;
    if (p->data_type != OSSL_PARAM_OCTET_STRING || !tag_len_ok(d, p->data_size))
        return fail(c, HWC_ERR_TAG_LEN, "set tag");
    if (p->data == NULL && d->flags & F_GCM)
        return fail(c, HWC_ERR_STATE, "set a GCM tag length without the tag");
    if (p->data == NULL) { /* the tag length to produce (CCM, OCB) */
        if (d->flags & F_SIV && p->data_size != TAG_MAX)
            return fail(c, HWC_ERR_TAG_LEN, "set tag length");
        if (d->flags & (F_CCM | F_OCB))
            c->taglen = p->data_size;
    } else {
        if (c->enc)
            return fail(c, HWC_ERR_STATE, "set tag when encrypting");
        memcpy(c->tag, p->data, p->data_size);
        c->tag_set = p->data_size;
        if (d->flags & (F_CCM | F_OCB))
            c->taglen = p->data_size;
        /* CCM's tag may come late: after the lengths and AAD, before
         * the data. */
        int now = (d->flags & F_CCM) ? c->ccm_lengths_pushed && !c->finished : c->msg_begun;
        if (now) {
            int rc = hwc_set_tag(c->hw, c->tag, c->tag_set);
            if (rc)
                return fail(c, rc, "set tag");
        }
    }
    return 1;
}

static int get_ctx_params(void *vctx, OSSL_PARAM params[]) {
    cipher_ctx *c = vctx;
    const cipher_def *d = c->def;
    OSSL_PARAM *p;
    if (c->other)
        return EVP_CIPHER_CTX_get_params(c->other, params);
    size_t ivlen = (d->flags & F_WRAP) ? d->iv_len : c->ivlen;
    if (params && params[0].key && !params[1].key) {
        /* One parameter, as EVP's length queries (at every init after an
         * IV length ctrl) pass: the key and IV lengths directly. */
        int k = param_id(params[0].key);
        if (k == P_KEYLEN || k == P_IVLEN) {
            if (!set_size_param(params, k == P_KEYLEN ? d->key_len : ivlen))
                return fail(c, 0, k == P_KEYLEN ? "get keylen" : "get ivlen");
            return 1;
        }
    }
    OSSL_PARAM *at[P_COUNT];
    unsigned found = index_params(params, at);
    if ((p = PARAM_AT(P_KEYLEN)) && !set_size_param(p, d->key_len))
        return fail(c, 0, "get keylen");
    if ((p = PARAM_AT(P_IVLEN)) && !set_size_param(p, ivlen))
        return fail(c, 0, "get ivlen");
    if ((p = PARAM_AT(P_PADDING)) && !OSSL_PARAM_set_uint(p, (unsigned)c->padding))
        return fail(c, 0, "get padding");
    if ((p = PARAM_AT(P_IV)) && c->have_iv &&
        !OSSL_PARAM_set_octet_string(p, c->iv, c->ivlen))
        return fail(c, 0, "get iv");
    if ((p = PARAM_AT(P_UPDATED_IV))) {
        /* The chaining value for CBC/CFB/OFB/CTR, else the IV (as OpenSSL's);
         * as a pointer (EVP_CIPHER_CTX_iv) or a copy. */
        size_t len = (d->flags & F_WRAP) ? 0 : c->ivlen;
        if (!(has_chain(d) && c->have_iv && hwc_get_iv(c->hw, c->updated_iv, 16) == 0))
            memcpy(c->updated_iv, c->iv, len);
        if (!OSSL_PARAM_set_octet_ptr(p, c->updated_iv, len) && !OSSL_PARAM_set_octet_string(p, c->updated_iv, len))
            return fail(c, HWC_ERR_BUFFER, "get updated-iv");
    }
    if ((p = PARAM_AT(P_TLS_MAC)) &&
        !OSSL_PARAM_set_octet_ptr(p, c->tls_mac, c->tls_mac_size))
        return fail(c, 0, "get tls-mac");
    if (d->flags & F_AEAD) {
        if ((p = PARAM_AT(P_AEAD_TAGLEN)) &&
            !set_size_param(p, (d->flags & (F_CCM | F_OCB)) ? c->taglen : TAG_MAX))
            return fail(c, 0, "get taglen");
        if ((p = PARAM_AT(P_AEAD_TAG))) {
            if (!c->enc || !c->out_tag_len || p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size == 0 ||
                p->data_size > c->out_tag_len || !p->data)
                return fail(c, HWC_ERR_STATE, "get tag (encryption, after final, 1..tag length bytes)");
            memcpy(p->data, c->out_tag, p->data_size); /* a shorter request truncates, as OpenSSL's GCM */
            p->return_size = p->data_size;
        }
    }
    if (d->flags & F_GCM) {
        if ((p = PARAM_AT(P_TLS1_AAD_PAD)) &&
            !set_size_param(p, EVP_GCM_TLS_TAG_LEN))
            return fail(c, 0, "get tlsaadpad");
        if ((p = PARAM_AT(P_TLS1_GET_IV_GEN))) {
            /* Start a message with the current IV, hand out its last bytes
             * (the explicit part) and step the invocation counter. */
            if (!c->tls_iv_gen || !c->have_key || !p->data || p->data_type != OSSL_PARAM_OCTET_STRING)
                return fail(c, HWC_ERR_STATE, "tlsivgen");
            size_t len = p->data_size == 0 || p->data_size > c->ivlen ? c->ivlen : p->data_size;
            if (!restart(c, 0))
                return 0;
            memcpy(p->data, c->iv + c->ivlen - len, len);
            p->return_size = len;
            uint8_t *ctr = c->iv + c->ivlen - 8;
            for (int i = 7; i >= 0 && ++ctr[i] == 0; i--)
                ;
        }
    }
    return 1;
}

static int set_ctx_params(void *vctx, const OSSL_PARAM params[]) {
    cipher_ctx *c = vctx;
    const cipher_def *d = c->def;
    const OSSL_PARAM *p;
    if (params == NULL)
        return 1;
    if (c->other)
        return EVP_CIPHER_CTX_set_params(c->other, params);
    if (params[0].key && !params[1].key) {
        /* One parameter, as EVP's per-message SET_IVLEN and SET_TAG ctrls
         * pass: the one block below that can apply to it, directly. */
        int k = param_id(params[0].key);
        if (k == P_IVLEN && (d->flags & F_IVLEN_SET))
            return set_aead_ivlen(c, params);
        if (k == P_AEAD_TAG && (d->flags & F_AEAD))
            return set_aead_tag(c, params);
    }
    OSSL_PARAM *at[P_COUNT];
    unsigned found = index_params(params, at);
    if ((p = PARAM_AT(P_KEYLEN))) {
        size_t v;
        if (!get_size_param(p, &v) || v != d->key_len)
            return fail(c, HWC_ERR_KEY_LEN, "set keylen");
    }
    if ((p = PARAM_AT(P_TLS_VERSION)) && !(d->flags & F_AEAD)) {
        /* libssl sets this on every provided cipher; an AEAD needs nothing
         * from it (its records come through tlsaad). CBC then takes whole
         * records (cbc_tls_record); other modes are refused rather than
         * left to pass records through unchecked. SSL 3.0 pads differently
         * and is not supported. */
        unsigned v;
        if (!OSSL_PARAM_get_uint(p, &v))
            return fail(c, 0, "tls-version");
        int known = v == TLS1_VERSION || v == TLS1_1_VERSION || v == TLS1_2_VERSION || v == DTLS1_VERSION ||
                    v == DTLS1_2_VERSION || v == DTLS1_BAD_VER;
        if (d->evp_mode != EVP_CIPH_CBC_MODE || !known)
            return fail(c, HWC_ERR_UNSUPPORTED, "TLS records with this cipher or protocol version");
        c->tls_version = v;
        c->fast = 0;
    }
    if ((p = PARAM_AT(P_TLS_MAC_SIZE)) && !(d->flags & F_AEAD)) {
        size_t v;
        if (!get_size_param(p, &v) || v > sizeof c->tls_mac)
            return fail(c, 0, "tls-mac-size");
        c->tls_mac_size = v;
    }
    int tls12 = (found & (1u << P_TLS1_AAD | 1u << P_TLS1_IV_FIXED)) != 0;
    if (tls12 && (d->flags & F_CCM))
        return ccm_tls_hand_over(c, params);
    if (tls12 && !(d->flags & F_GCM))
        return fail(c, HWC_ERR_UNSUPPORTED, "TLS 1.2 records with this cipher (hwcrypt does them for GCM)");
    if ((p = PARAM_AT(P_PADDING))) {
        unsigned v;
        if (!OSSL_PARAM_get_uint(p, &v))
            return fail(c, 0, "set padding");
        if (d->flags & F_PAD) {
            if (c->msg_begun && (v != 0) != c->padding)
                return fail(c, HWC_ERR_STATE, "padding change after data");
            c->padding = v != 0;
        }
    }
    if ((p = PARAM_AT(P_USE_BITS))) {
        unsigned v;
        if (!OSSL_PARAM_get_uint(p, &v))
            return fail(c, 0, "set use-bits");
        c->use_bits = v != 0;
    }
    if ((d->flags & F_IVLEN_SET) && (p = PARAM_AT(P_IVLEN)) && !set_aead_ivlen(c, p))
        return 0;
    if ((d->flags & F_AEAD) && (p = PARAM_AT(P_AEAD_TAG)) && !set_aead_tag(c, p))
        return 0;
    if (d->flags & F_GCM) {
        if ((p = PARAM_AT(P_TLS1_AAD))) {
            if (p->data_type != OSSL_PARAM_OCTET_STRING || p->data_size != EVP_AEAD_TLS1_AAD_LEN || !p->data)
                return fail(c, HWC_ERR_DATA_LEN, "tlsaad");
            memcpy(c->tls_aad, p->data, EVP_AEAD_TLS1_AAD_LEN);
            /* The record length in the AAD counts the explicit IV (and the
             * tag when decrypting); the authenticated length does not. */
            size_t len = (size_t)c->tls_aad[11] << 8 | c->tls_aad[12];
            size_t over = EVP_GCM_TLS_EXPLICIT_IV_LEN + (c->enc ? 0 : EVP_GCM_TLS_TAG_LEN);
            if (len < over)
                return fail(c, HWC_ERR_DATA_LEN, "tlsaad record length");
            len -= over;
            c->tls_aad[11] = (uint8_t)(len >> 8);
            c->tls_aad[12] = (uint8_t)len;
            c->tls_aad_len = EVP_AEAD_TLS1_AAD_LEN;
        }
        if ((p = PARAM_AT(P_TLS1_IV_FIXED))) {
            if (p->data_type != OSSL_PARAM_OCTET_STRING || !p->data)
                return fail(c, HWC_ERR_IV_LEN, "tlsivfixed");
            size_t len = p->data_size;
            if (len == c->ivlen || len == (size_t)-1) { /* the whole IV (EVP passes -1 for it) */
                memcpy(c->iv, p->data, c->ivlen);
            } else {
                /* Without a sum: EVP passes a negative int length as a
                 * size_t near SIZE_MAX, where len + 8 wraps. */
                if (len < EVP_GCM_TLS_FIXED_IV_LEN || len > c->ivlen || c->ivlen - len < EVP_GCM_TLS_EXPLICIT_IV_LEN)
                    return fail(c, HWC_ERR_IV_LEN, "tlsivfixed");
                memcpy(c->iv, p->data, len);
                /* The sender's invocation field starts at a random value;
                 * the receiver's comes from each record. */
                if (c->enc && getrandom(c->iv + len, c->ivlen - len, 0) != (ssize_t)(c->ivlen - len))
                    return fail(c, 0, "tlsivfixed: no randomness");
            }
            c->tls_iv_gen = 1;
            c->have_iv = 1;
        }
        if ((p = PARAM_AT(P_TLS1_SET_IV_INV))) {
            if (p->data_type != OSSL_PARAM_OCTET_STRING || !p->data || !c->tls_iv_gen || c->enc ||
                p->data_size == 0 || p->data_size > c->ivlen)
                return fail(c, HWC_ERR_STATE, "tlsivinv");
            memcpy(c->iv + c->ivlen - p->data_size, p->data, p->data_size);
            if (!restart(c, 0))
                return 0;
        }
    }
    return 1;
}


/* ------------------------------------------------------ algorithm table */

#define AES_KW(K, PFX) "AES-" #K "-WRAP:id-aes" #K "-wrap:AES" #K "-WRAP:2.16.840.1.101.3.4.1." PFX
/*   id         OpenSSL names                                          hwcrypt name            mode  key iv  blk ctxiv tag flags */
#define HWCP_CIPHERS(X)                                                                                                      \
    X(aes128ecb, "AES-128-ECB:2.16.840.1.101.3.4.1.1", "aes-128-ecb", ECB, 16, 0, 16, 0, 0, F_PAD)                          \
    X(aes192ecb, "AES-192-ECB:2.16.840.1.101.3.4.1.21", "aes-192-ecb", ECB, 24, 0, 16, 0, 0, F_PAD)                         \
    X(aes256ecb, "AES-256-ECB:2.16.840.1.101.3.4.1.41", "aes-256-ecb", ECB, 32, 0, 16, 0, 0, F_PAD)                         \
    X(aes128cbc, "AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2", "aes-128-cbc", CBC, 16, 16, 16, 16, 0, F_PAD)                 \
    X(aes192cbc, "AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22", "aes-192-cbc", CBC, 24, 16, 16, 16, 0, F_PAD)                \
    X(aes256cbc, "AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", "aes-256-cbc", CBC, 32, 16, 16, 16, 0, F_PAD)                \
    X(aes128cfb, "AES-128-CFB:2.16.840.1.101.3.4.1.4", "aes-128-cfb", CFB, 16, 16, 1, 16, 0, 0)                             \
    X(aes192cfb, "AES-192-CFB:2.16.840.1.101.3.4.1.24", "aes-192-cfb", CFB, 24, 16, 1, 16, 0, 0)                            \
    X(aes256cfb, "AES-256-CFB:2.16.840.1.101.3.4.1.44", "aes-256-cfb", CFB, 32, 16, 1, 16, 0, 0)                            \
    X(aes128cfb8, "AES-128-CFB8", "aes-128-cfb8", CFB, 16, 16, 1, 16, 0, 0)                                                 \
    X(aes192cfb8, "AES-192-CFB8", "aes-192-cfb8", CFB, 24, 16, 1, 16, 0, 0)                                                 \
    X(aes256cfb8, "AES-256-CFB8", "aes-256-cfb8", CFB, 32, 16, 1, 16, 0, 0)                                                 \
    X(aes128cfb1, "AES-128-CFB1", "aes-128-cfb1", CFB, 16, 16, 1, 16, 0, F_CFB1)                                            \
    X(aes192cfb1, "AES-192-CFB1", "aes-192-cfb1", CFB, 24, 16, 1, 16, 0, F_CFB1)                                            \
    X(aes256cfb1, "AES-256-CFB1", "aes-256-cfb1", CFB, 32, 16, 1, 16, 0, F_CFB1)                                            \
    X(aes128ofb, "AES-128-OFB:2.16.840.1.101.3.4.1.3", "aes-128-ofb", OFB, 16, 16, 1, 16, 0, 0)                             \
    X(aes192ofb, "AES-192-OFB:2.16.840.1.101.3.4.1.23", "aes-192-ofb", OFB, 24, 16, 1, 16, 0, 0)                            \
    X(aes256ofb, "AES-256-OFB:2.16.840.1.101.3.4.1.43", "aes-256-ofb", OFB, 32, 16, 1, 16, 0, 0)                            \
    X(aes128ctr, "AES-128-CTR", "aes-128-ctr", CTR, 16, 16, 1, 16, 0, 0)                                                    \
    X(aes192ctr, "AES-192-CTR", "aes-192-ctr", CTR, 24, 16, 1, 16, 0, 0)                                                    \
    X(aes256ctr, "AES-256-CTR", "aes-256-ctr", CTR, 32, 16, 1, 16, 0, 0)                                                    \
    X(aes128gcm, "AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", "aes-128-gcm", GCM, 16, 12, 1, 12, 16, F_GCM_)         \
    X(aes192gcm, "AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", "aes-192-gcm", GCM, 24, 12, 1, 12, 16, F_GCM_)        \
    X(aes256gcm, "AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", "aes-256-gcm", GCM, 32, 12, 1, 12, 16, F_GCM_)        \
    X(aes128ccm, "AES-128-CCM:id-aes128-CCM:2.16.840.1.101.3.4.1.7", "aes-128-ccm", CCM, 16, 12, 1, 7, 12, F_CCM_)          \
    X(aes192ccm, "AES-192-CCM:id-aes192-CCM:2.16.840.1.101.3.4.1.27", "aes-192-ccm", CCM, 24, 12, 1, 7, 12, F_CCM_)         \
    X(aes256ccm, "AES-256-CCM:id-aes256-CCM:2.16.840.1.101.3.4.1.47", "aes-256-ccm", CCM, 32, 12, 1, 7, 12, F_CCM_)         \
    X(aes128ocb, "AES-128-OCB", "aes-128-ocb", OCB, 16, 12, 16, 12, 16, F_OCB_)                                              \
    X(aes192ocb, "AES-192-OCB", "aes-192-ocb", OCB, 24, 12, 16, 12, 16, F_OCB_)                                              \
    X(aes256ocb, "AES-256-OCB", "aes-256-ocb", OCB, 32, 12, 16, 12, 16, F_OCB_)                                              \
    X(aes128xts, "AES-128-XTS:1.3.111.2.1619.0.1.1", "aes-128-xts", XTS, 32, 16, 1, 16, 0, F_XTS | F_CUSTOM_IV)             \
    X(aes256xts, "AES-256-XTS:1.3.111.2.1619.0.1.2", "aes-256-xts", XTS, 64, 16, 1, 16, 0, F_XTS | F_CUSTOM_IV)             \
    X(aes128siv, "AES-128-SIV", "aes-128-siv", SIV, 32, 0, 1, 0, 16, F_SIV_)                                                \
    X(aes192siv, "AES-192-SIV", "aes-192-siv", SIV, 48, 0, 1, 0, 16, F_SIV_)                                                \
    X(aes256siv, "AES-256-SIV", "aes-256-siv", SIV, 64, 0, 1, 0, 16, F_SIV_)                                                \
    X(aes128gcmsiv, "AES-128-GCM-SIV", "aes-128-gcm-siv", GCM_SIV, 16, 12, 1, 12, 16, F_SIV_)                              \
    X(aes256gcmsiv, "AES-256-GCM-SIV", "aes-256-gcm-siv", GCM_SIV, 32, 12, 1, 12, 16, F_SIV_)                              \
    X(aes128wrap, AES_KW(128, "5"), "aes-128-wrap", WRAP, 16, 8, 8, 8, 0, F_WRAP_)                                          \
    X(aes192wrap, AES_KW(192, "25"), "aes-192-wrap", WRAP, 24, 8, 8, 8, 0, F_WRAP_)                                         \
    X(aes256wrap, AES_KW(256, "45"), "aes-256-wrap", WRAP, 32, 8, 8, 8, 0, F_WRAP_)                                         \
    X(aes128wrappad, "AES-128-WRAP-PAD:id-aes128-wrap-pad:AES128-WRAP-PAD:2.16.840.1.101.3.4.1.8", "aes-128-wrap-pad",      \
      WRAP, 16, 4, 8, 4, 0, F_WRAP_)                                                                                         \
    X(aes192wrappad, "AES-192-WRAP-PAD:id-aes192-wrap-pad:AES192-WRAP-PAD:2.16.840.1.101.3.4.1.28", "aes-192-wrap-pad",     \
      WRAP, 24, 4, 8, 4, 0, F_WRAP_)                                                                                         \
    X(aes256wrappad, "AES-256-WRAP-PAD:id-aes256-wrap-pad:AES256-WRAP-PAD:2.16.840.1.101.3.4.1.48", "aes-256-wrap-pad",     \
      WRAP, 32, 4, 8, 4, 0, F_WRAP_)                                                                                         \
    X(aes128wrapinv, "AES-128-WRAP-INV:AES128-WRAP-INV", "aes-128-wrap-inv", WRAP, 16, 8, 8, 8, 0, F_WRAP_)                 \
    X(aes192wrapinv, "AES-192-WRAP-INV:AES192-WRAP-INV", "aes-192-wrap-inv", WRAP, 24, 8, 8, 8, 0, F_WRAP_)                 \
    X(aes256wrapinv, "AES-256-WRAP-INV:AES256-WRAP-INV", "aes-256-wrap-inv", WRAP, 32, 8, 8, 8, 0, F_WRAP_)                 \
    X(aes128wrappadinv, "AES-128-WRAP-PAD-INV:AES128-WRAP-PAD-INV", "aes-128-wrap-pad-inv", WRAP, 16, 4, 8, 4, 0, F_WRAP_)  \
    X(aes192wrappadinv, "AES-192-WRAP-PAD-INV:AES192-WRAP-PAD-INV", "aes-192-wrap-pad-inv", WRAP, 24, 4, 8, 4, 0, F_WRAP_)  \
    X(aes256wrappadinv, "AES-256-WRAP-PAD-INV:AES256-WRAP-PAD-INV", "aes-256-wrap-pad-inv", WRAP, 32, 4, 8, 4, 0, F_WRAP_)  \
    X(sm4ecb, "SM4-ECB:1.2.156.10197.1.104.1", "sm4-ecb", ECB, 16, 0, 16, 0, 0, F_PAD)                                      \
    X(sm4cbc, "SM4-CBC:SM4:1.2.156.10197.1.104.2", "sm4-cbc", CBC, 16, 16, 16, 16, 0, F_PAD)                                \
    X(sm4cfb, "SM4-CFB:SM4-CFB128:1.2.156.10197.1.104.4", "sm4-cfb", CFB, 16, 16, 1, 16, 0, 0)                              \
    X(sm4ofb, "SM4-OFB:SM4-OFB128:1.2.156.10197.1.104.3", "sm4-ofb", OFB, 16, 16, 1, 16, 0, 0)                              \
    X(sm4ctr, "SM4-CTR:1.2.156.10197.1.104.7", "sm4-ctr", CTR, 16, 16, 1, 16, 0, 0)                                         \
    X(sm4gcm, "SM4-GCM:1.2.156.10197.1.104.8", "sm4-gcm", GCM, 16, 12, 1, 12, 16, F_GCM_)                                   \
    X(sm4ccm, "SM4-CCM:1.2.156.10197.1.104.9", "sm4-ccm", CCM, 16, 12, 1, 7, 12, F_CCM_)                                    \
    X(sm4xts, "SM4-XTS:1.2.156.10197.1.104.10", "sm4-xts", XTS, 32, 16, 1, 16, 0, F_XTS | F_CUSTOM_IV)

#define F_GCM_ (F_GCM | F_AEAD | F_CUSTOM_IV | F_IVLEN_SET)
#define F_CCM_ (F_CCM | F_AEAD | F_CUSTOM_IV | F_IVLEN_SET)
#define F_OCB_ (F_OCB | F_AEAD | F_CUSTOM_IV | F_IVLEN_SET)
#define F_SIV_ (F_SIV | F_AEAD | F_CUSTOM_IV)
#define F_WRAP_ (F_WRAP | F_CUSTOM_IV)

#define DEF(id, names, hname, mode, key, iv, blk, ctxiv, tag, flags) \
    static const cipher_def def_##id = {hname, EVP_CIPH_##mode##_MODE, key, iv, blk, ctxiv, tag, flags};
HWCP_CIPHERS(DEF)

/* Per-algorithm entry points: newctx and get_params know which algorithm
 * they serve; everything else is shared. Gettable/settable context tables
 * come from the per-algorithm functions so they can be asked before a
 * context exists. */
#define FUNCS(id, names, hname, mode, key, iv, blk, ctxiv, tag, flags)                                  \
    static void *new_##id(void *provctx) { return cipher_new(provctx, &def_##id); }                     \
    static int params_##id(OSSL_PARAM params[]) { return get_params_common(&def_##id, params); }        \
    static const OSSL_PARAM *gettable_ctx_##id(void *vctx, void *provctx) {                             \
        (void)vctx;                                                                                      \
        (void)provctx;                                                                                   \
        return gettable_for(&def_##id);                                                                  \
    }                                                                                                    \
    static const OSSL_PARAM *settable_ctx_##id(void *vctx, void *provctx) {                             \
        (void)vctx;                                                                                      \
        (void)provctx;                                                                                   \
        return settable_for(&def_##id);                                                                  \
    }                                                                                                    \
    static const OSSL_DISPATCH dispatch_##id[] = {                                                      \
        {OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))new_##id},                                             \
        {OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))cipher_free},                                         \
        {OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))cipher_dup},                                           \
        {OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))cipher_einit},                                   \
        {OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))cipher_dinit},                                   \
        {OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))cipher_update},                                        \
        {OSSL_FUNC_CIPHER_FINAL, (void (*)(void))cipher_final},                                          \
        {OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))cipher_oneshot},                                       \
        {OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))params_##id},                                      \
        {OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))cipher_gettable_params},                      \
        {OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))get_ctx_params},                               \
        {OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))set_ctx_params},                               \
        {OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS, (void (*)(void))gettable_ctx_##id},                       \
        {OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS, (void (*)(void))settable_ctx_##id},                       \
        {0, NULL}};
HWCP_CIPHERS(FUNCS)

#define ALG(id, names, hname, mode, key, iv, blk, ctxiv, tag, flags) \
    {names, "provider=hwcrypt", dispatch_##id, "hwcrypt " hname},
const OSSL_ALGORITHM hwcp_ciphers[] = {HWCP_CIPHERS(ALG){NULL, NULL, NULL, NULL}};
