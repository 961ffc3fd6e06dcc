/*
 * The public API: the cipher table, contexts, and the routing of every call
 * to its mode.  This layer checks what is common to all modes (pointers,
 * overlap, whether the context has a cipher and a key) so that each mode only
 * checks its own lengths and state.
 */
#include <stdlib.h>

#include "internal.h"

/* ---------------------------------------------------------- cipher table */

#define AEAD HWC_CIPHER_AEAD
#define MAC HWC_CIPHER_MAC
#define WRAP HWC_CIPHER_WRAP
#define STREAM HWC_CIPHER_STREAM
#define PAD HWC_CIPHER_PADDING
#define ONE HWC_CIPHER_ONE_SHOT
#define INV HWC_CIPHER_INVERSE

/* name, family, mode, total key, block key, iv, tag, block size, flags, ops */
#define C(name, fam, mode, key, bkey, iv, tag, bs, flags, ops) \
    {name, fam, mode, key, bkey, iv, tag, bs, flags, &ops}

#define AES_COMMON(K, B)                                                                                   \
    C("aes-" #K "-ecb", HWC_FAMILY_AES, HWC_MODE_ECB, B, B, 0, 0, 16, PAD, hwc_mode_ecb_ops),            \
    C("aes-" #K "-cbc", HWC_FAMILY_AES, HWC_MODE_CBC, B, B, 16, 0, 16, PAD, hwc_mode_cbc_ops),           \
    C("aes-" #K "-cfb", HWC_FAMILY_AES, HWC_MODE_CFB128, B, B, 16, 0, 1, STREAM, hwc_mode_cfb128_ops),   \
    C("aes-" #K "-cfb8", HWC_FAMILY_AES, HWC_MODE_CFB8, B, B, 16, 0, 1, STREAM, hwc_mode_cfb8_ops),      \
    C("aes-" #K "-cfb1", HWC_FAMILY_AES, HWC_MODE_CFB1, B, B, 16, 0, 1, STREAM, hwc_mode_cfb1_ops),      \
    C("aes-" #K "-ofb", HWC_FAMILY_AES, HWC_MODE_OFB, B, B, 16, 0, 1, STREAM, hwc_mode_ofb_ops),         \
    C("aes-" #K "-ctr", HWC_FAMILY_AES, HWC_MODE_CTR, B, B, 16, 0, 1, STREAM, hwc_mode_ctr_ops),         \
    C("aes-" #K "-gcm", HWC_FAMILY_AES, HWC_MODE_GCM, B, B, 12, 16, 1, AEAD | STREAM, hwc_mode_gcm_ops), \
    C("aes-" #K "-ccm", HWC_FAMILY_AES, HWC_MODE_CCM, B, B, 12, 16, 1, AEAD | STREAM, hwc_mode_ccm_ops), \
    C("aes-" #K "-ocb", HWC_FAMILY_AES, HWC_MODE_OCB, B, B, 12, 16, 1, AEAD, hwc_mode_ocb_ops),          \
    C("aes-" #K "-siv", HWC_FAMILY_AES, HWC_MODE_SIV, 2 * B, B, 0, 16, 1, AEAD | ONE, hwc_mode_siv_ops), \
    C("aes-" #K "-wrap", HWC_FAMILY_AES, HWC_MODE_KW, B, B, 0, 0, 8, WRAP, hwc_mode_kw_ops),             \
    C("aes-" #K "-wrap-pad", HWC_FAMILY_AES, HWC_MODE_KWP, B, B, 0, 0, 8, WRAP, hwc_mode_kwp_ops),       \
    C("aes-" #K "-wrap-inv", HWC_FAMILY_AES, HWC_MODE_KW, B, B, 0, 0, 8, WRAP | INV, hwc_mode_kw_ops),   \
    C("aes-" #K "-wrap-pad-inv", HWC_FAMILY_AES, HWC_MODE_KWP, B, B, 0, 0, 8, WRAP | INV, hwc_mode_kwp_ops), \
    C("aes-" #K "-cmac", HWC_FAMILY_AES, HWC_MODE_CMAC, B, B, 0, 16, 1, MAC, hwc_mode_cmac_ops),         \
    C("aes-" #K "-gmac", HWC_FAMILY_AES, HWC_MODE_GMAC, B, B, 12, 16, 1, MAC, hwc_mode_gmac_ops)

static const hwc_cipher cipher_table[] = {
    AES_COMMON(128, 16),
    AES_COMMON(192, 24),
    AES_COMMON(256, 32),
    C("aes-128-xts", HWC_FAMILY_AES, HWC_MODE_XTS, 32, 16, 16, 0, 1, ONE, hwc_mode_xts_ops),
    C("aes-256-xts", HWC_FAMILY_AES, HWC_MODE_XTS, 64, 32, 16, 0, 1, ONE, hwc_mode_xts_ops),
    C("aes-128-gcm-siv", HWC_FAMILY_AES, HWC_MODE_GCM_SIV, 16, 16, 12, 16, 1, AEAD | ONE, hwc_mode_gcm_siv_ops),
    C("aes-256-gcm-siv", HWC_FAMILY_AES, HWC_MODE_GCM_SIV, 32, 32, 12, 16, 1, AEAD | ONE, hwc_mode_gcm_siv_ops),
    C("sm4-ecb", HWC_FAMILY_SM4, HWC_MODE_ECB, 16, 16, 0, 0, 16, PAD, hwc_mode_ecb_ops),
    C("sm4-cbc", HWC_FAMILY_SM4, HWC_MODE_CBC, 16, 16, 16, 0, 16, PAD, hwc_mode_cbc_ops),
    C("sm4-cfb", HWC_FAMILY_SM4, HWC_MODE_CFB128, 16, 16, 16, 0, 1, STREAM, hwc_mode_cfb128_ops),
    C("sm4-cfb8", HWC_FAMILY_SM4, HWC_MODE_CFB8, 16, 16, 16, 0, 1, STREAM, hwc_mode_cfb8_ops),
    C("sm4-cfb1", HWC_FAMILY_SM4, HWC_MODE_CFB1, 16, 16, 16, 0, 1, STREAM, hwc_mode_cfb1_ops),
    C("sm4-ofb", HWC_FAMILY_SM4, HWC_MODE_OFB, 16, 16, 16, 0, 1, STREAM, hwc_mode_ofb_ops),
    C("sm4-ctr", HWC_FAMILY_SM4, HWC_MODE_CTR, 16, 16, 16, 0, 1, STREAM, hwc_mode_ctr_ops),
    C("sm4-xts", HWC_FAMILY_SM4, HWC_MODE_XTS, 32, 16, 16, 0, 1, ONE, hwc_mode_xts_ops),
    C("sm4-xts-gb", HWC_FAMILY_SM4, HWC_MODE_XTS, 32, 16, 16, 0, 1, ONE | HWC_CIPHER_XTS_GB, hwc_mode_xts_ops),
    C("sm4-gcm", HWC_FAMILY_SM4, HWC_MODE_GCM, 16, 16, 12, 16, 1, AEAD | STREAM, hwc_mode_gcm_ops),
    C("sm4-ccm", HWC_FAMILY_SM4, HWC_MODE_CCM, 16, 16, 12, 16, 1, AEAD | STREAM, hwc_mode_ccm_ops),
    C("sm4-ocb", HWC_FAMILY_SM4, HWC_MODE_OCB, 16, 16, 12, 16, 1, AEAD, hwc_mode_ocb_ops),
    C("sm4-siv", HWC_FAMILY_SM4, HWC_MODE_SIV, 32, 16, 0, 16, 1, AEAD | ONE, hwc_mode_siv_ops),
    C("sm4-wrap", HWC_FAMILY_SM4, HWC_MODE_KW, 16, 16, 0, 0, 8, WRAP, hwc_mode_kw_ops),
    C("sm4-wrap-pad", HWC_FAMILY_SM4, HWC_MODE_KWP, 16, 16, 0, 0, 8, WRAP, hwc_mode_kwp_ops),
    C("sm4-cmac", HWC_FAMILY_SM4, HWC_MODE_CMAC, 16, 16, 0, 16, 1, MAC, hwc_mode_cmac_ops),
    C("sm4-gmac", HWC_FAMILY_SM4, HWC_MODE_GMAC, 16, 16, 12, 16, 1, MAC, hwc_mode_gmac_ops),
};

/* Other spellings OpenSSL accepts for the same ciphers. */
static const struct {
    const char *alias, *name;
} cipher_aliases[] = {
    {"aes-128-cfb128", "aes-128-cfb"}, {"aes-192-cfb128", "aes-192-cfb"}, {"aes-256-cfb128", "aes-256-cfb"},
    {"sm4-cfb128", "sm4-cfb"},         {"aes128", "aes-128-cbc"},         {"aes192", "aes-192-cbc"},
    {"aes256", "aes-256-cbc"},         {"sm4", "sm4-cbc"},                {"id-aes128-wrap", "aes-128-wrap"},
    {"id-aes192-wrap", "aes-192-wrap"}, {"id-aes256-wrap", "aes-256-wrap"}, {"aes128-wrap", "aes-128-wrap"},
    {"aes192-wrap", "aes-192-wrap"},   {"aes256-wrap", "aes-256-wrap"},   {"id-aes128-wrap-pad", "aes-128-wrap-pad"},
    {"id-aes192-wrap-pad", "aes-192-wrap-pad"}, {"id-aes256-wrap-pad", "aes-256-wrap-pad"},
    {"aes128-wrap-pad", "aes-128-wrap-pad"}, {"aes192-wrap-pad", "aes-192-wrap-pad"},
    {"aes256-wrap-pad", "aes-256-wrap-pad"},
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static int name_equal_nocase(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
        if (x != y)
            return 0;
    }
    return *a == *b;
}

const hwc_cipher *hwc_cipher_by_name(const char *name) {
    if (!name)
        return NULL;
    for (size_t i = 0; i < N_ELEMS(cipher_aliases); i++)
        if (name_equal_nocase(name, cipher_aliases[i].alias)) {
            name = cipher_aliases[i].name;
            break;
        }
    for (size_t i = 0; i < N_ELEMS(cipher_table); i++)
        if (name_equal_nocase(name, cipher_table[i].name))
            return &cipher_table[i];
    return NULL;
}

size_t hwc_cipher_count(void) { return N_ELEMS(cipher_table); }
const hwc_cipher *hwc_cipher_at(size_t index) { return index < N_ELEMS(cipher_table) ? &cipher_table[index] : NULL; }
const char *hwc_cipher_name(const hwc_cipher *c) { return c ? c->name : NULL; }
hwc_family hwc_cipher_family(const hwc_cipher *c) { return c ? c->family : (hwc_family)0; }
hwc_mode hwc_cipher_mode(const hwc_cipher *c) { return c ? c->mode : (hwc_mode)0; }
unsigned hwc_cipher_flags(const hwc_cipher *c) { return c ? c->flags : 0; }
size_t hwc_cipher_key_len(const hwc_cipher *c) { return c ? c->key_len : 0; }
size_t hwc_cipher_iv_len(const hwc_cipher *c) { return c ? c->iv_len : 0; }
size_t hwc_cipher_block_size(const hwc_cipher *c) { return c ? c->block_size : 0; }
size_t hwc_cipher_tag_len(const hwc_cipher *c) { return c ? c->tag_len : 0; }

/* Tag lengths each mode allows, checked here too so one-shot calls can
 * refuse before starting a message. */
static int tag_len_ok(const hwc_cipher *c, size_t len) {
    switch (c->mode) {
    case HWC_MODE_GCM:
    case HWC_MODE_GMAC:
        return len >= 4 && len <= 16;
    case HWC_MODE_CCM:
        return len >= 4 && len <= 16 && len % 2 == 0;
    case HWC_MODE_OCB:
    case HWC_MODE_CMAC:
        return len >= 1 && len <= 16;
    case HWC_MODE_SIV:
    case HWC_MODE_GCM_SIV:
        return len == 16;
    default:
        return 0;
    }
}

/* --------------------------------------------------------- shared helpers */

/* Exact in-place is fine; any other overlap of [in, in+in_len) with
 * [out, out+out_len) is not.  Compares distances, so no sum can wrap. */
static int overlaps(const void *in, size_t in_len, const void *out, size_t out_len) {
    if (!in || !out || in_len == 0 || out_len == 0 || in == out)
        return 0;
    uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
    return a < b ? b - a < in_len : a - b < out_len;
}

/* No object is longer than PTRDIFF_MAX bytes, so a longer length is a
 * caller's bug.  Refusing it here means no mode's `len + 15` or
 * `held + len` can wrap. */
static int len_impossible(size_t len) { return len > (size_t)PTRDIFF_MAX; }

#define NEED(ptr, len)                         \
    do {                                       \
        if ((len) != 0 && (ptr) == NULL)       \
            return HWC_ERR_NULL;               \
    } while (0)

/* --------------------------------------------------------------- contexts */

hwc_ctx *hwc_ctx_new(void) {
    size_t size = (sizeof(hwc_ctx) + 63) & ~(size_t)63;
    hwc_ctx *ctx = aligned_alloc(64, size);
    if (ctx)
        memset(ctx, 0, sizeof *ctx);
    return ctx;
}

void hwc_ctx_free(hwc_ctx *ctx) {
    if (!ctx)
        return;
    hwc_wipe(ctx, sizeof *ctx);
    free(ctx);
}

int hwc_ctx_copy(hwc_ctx *dst, const hwc_ctx *src) {
    if (!dst || !src)
        return HWC_ERR_NULL;
    /* A context holds no pointer into itself or to memory it owns (only to
     * the static cipher and back-end tables): a copy is a byte copy. */
    if (dst != src)
        memcpy(dst, src, sizeof *dst);
    return HWC_OK;
}

int hwc_ctx_set_impl(hwc_ctx *ctx, const char *impl_name) {
    if (!ctx)
        return HWC_ERR_NULL;
    if (!impl_name || !*impl_name) {
        ctx->forced[0] = 0;
        return HWC_OK;
    }
    if (strlen(impl_name) >= sizeof ctx->forced)
        return HWC_ERR_UNKNOWN;
    /* The name must exist for some family and be usable for at least one. */
    int exists = 0, usable = 0;
    const hwc_block_impl *impl;
    const hwc_family fams[] = {HWC_FAMILY_AES, HWC_FAMILY_SM4};
    for (size_t i = 0; i < 2; i++) {
        int rc = hwc_find_block_impl(fams[i], impl_name, &impl, NULL);
        exists |= rc != HWC_ERR_UNKNOWN;
        usable |= rc == HWC_OK;
    }
    if (!exists)
        return HWC_ERR_UNKNOWN;
    if (!usable)
        return HWC_ERR_UNAVAILABLE;
    strcpy(ctx->forced, impl_name);
    return HWC_OK;
}

const char *hwc_ctx_impl(const hwc_ctx *ctx) { return ctx && ctx->keyed ? ctx->impl->name : NULL; }
const char *hwc_ctx_ghash_impl(const hwc_ctx *ctx) {
    return ctx && ctx->keyed && ctx->ghash ? ctx->ghash->name : NULL;
}

/* May this mode start a message without an IV? */
static int iv_optional(const hwc_cipher *c) { return !c->ops->check_iv || c->ops->check_iv(c, 0) == HWC_OK; }

/* Key setup part of hwc_init (arguments already checked). Not inlined:
 * a new message on a keyed context (the per-message path) then saves no
 * registers for it. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int init_key(hwc_ctx *ctx, const hwc_cipher *c, int encrypt, const uint8_t *key, size_t key_len) {
    const hwc_block_impl *impl = NULL;
    if (ctx->forced[0]) {
        int rc = hwc_find_block_impl(c->family, ctx->forced, &impl, NULL);
        if (rc)
            return rc;
    } else {
        impl = hwc_select_block_impl(c->family);
    }
    /* Keep what set_key may refuse (weak XTS key) restorable. */
    const hwc_cipher *old_cipher = ctx->cipher;
    const hwc_block_impl *old_impl = ctx->impl;
    const hwc_ghash_impl *old_ghash = ctx->ghash;
    int old_encrypt = ctx->encrypt, old_keyed = ctx->keyed, old_started = ctx->started;
    ctx->cipher = c;
    ctx->impl = impl;
    ctx->ghash = hwc_ghash_for(impl);
    ctx->encrypt = encrypt;
    int rc = c->ops->set_key ? c->ops->set_key(ctx, key, key_len) : HWC_ERR_UNSUPPORTED;
    if (rc) {
        ctx->cipher = old_cipher;
        ctx->impl = old_impl;
        ctx->ghash = old_ghash;
        ctx->encrypt = old_encrypt;
        ctx->keyed = old_keyed;
        ctx->started = old_started;
        return rc;
    }
    ctx->keyed = 1;
    ctx->started = 0;
    return HWC_OK;
}

int hwc_init(hwc_ctx *ctx, const hwc_cipher *cipher, int encrypt, const uint8_t *key, size_t key_len,
             const uint8_t *iv, size_t iv_len) {
    if (!ctx)
        return HWC_ERR_NULL;
    NEED(key, key ? key_len : 0);
    NEED(iv, iv_len);
    const hwc_cipher *c = cipher ? cipher : ctx->cipher;
    if (!c)
        return HWC_ERR_STATE;
    if (!key && (!ctx->keyed || c != ctx->cipher))
        return HWC_ERR_STATE; /* a new cipher needs a key */
    if (encrypt != HWC_ENCRYPT && encrypt != HWC_DECRYPT)
        return HWC_ERR_UNSUPPORTED;
    if (key && key_len != c->key_len)
        return HWC_ERR_KEY_LEN;
    /* The IV is validated before anything changes. */
    int have_iv = iv_len != 0;
    if (have_iv) {
        if (!c->ops->check_iv || len_impossible(iv_len))
            return HWC_ERR_IV_LEN; /* SIV takes any nonce length, but none past a buffer */
        int rc = c->ops->check_iv(c, iv_len);
        if (rc)
            return rc;
    }
    if (key) {
        int rc = init_key(ctx, c, encrypt, key, key_len);
        if (rc)
            return rc;
    }
    ctx->encrypt = encrypt;
    if (c->flags & HWC_CIPHER_WRAP) {
        ctx->started = 1; /* key wrap has no per-message state */
        return HWC_OK;
    }
    if (!have_iv && !iv_optional(c)) {
        ctx->started = 0; /* keyed; waiting for an IV (EVP-style two-step init) */
        return HWC_OK;
    }
    int rc = c->ops->start(ctx, iv, iv_len);
    ctx->started = rc == HWC_OK;
    return rc;
}

/* Common entry checks for calls on a started message. */
static int ready(const hwc_ctx *ctx) {
    if (!ctx)
        return HWC_ERR_NULL;
    if (!ctx->cipher || !ctx->keyed || !ctx->started)
        return HWC_ERR_STATE;
    return HWC_OK;
}

#define ROUTE(ctx, op, ...)                                  \
    do {                                                     \
        int rc_ = ready(ctx);                                \
        if (rc_)                                             \
            return rc_;                                      \
        if (!(ctx)->cipher->ops->op)                         \
            return HWC_ERR_UNSUPPORTED;                      \
        return (ctx)->cipher->ops->op(__VA_ARGS__);          \
    } while (0)

/* ROUTE for calls that take data: after the state and the operation, the
 * length, then overlap (docs/ERRORS.md's order). */
#define ROUTE_DATA(ctx, op, len, in, out, ...)               \
    do {                                                     \
        int rc_ = ready(ctx);                                \
        if (rc_)                                             \
            return rc_;                                      \
        if (!(ctx)->cipher->ops->op)                         \
            return HWC_ERR_UNSUPPORTED;                      \
        if (len_impossible(len))                             \
            return HWC_ERR_DATA_LEN;                         \
        if (overlaps(in, len, out, len))                     \
            return HWC_ERR_OVERLAP;                          \
        return (ctx)->cipher->ops->op(__VA_ARGS__);          \
    } while (0)

int hwc_set_padding(hwc_ctx *ctx, int on) { ROUTE(ctx, set_padding, ctx, on ? 1 : 0); }

/* The mode checks its state before the length (docs/ERRORS.md). */
int hwc_set_tag_len(hwc_ctx *ctx, size_t tag_len) { ROUTE(ctx, set_tag_len, ctx, tag_len); }

int hwc_set_lengths(hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len) {
    ROUTE(ctx, set_lengths, ctx, aad_len, msg_len);
}

int hwc_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    NEED(tag, tag_len);
    ROUTE(ctx, set_tag, ctx, tag, tag_len);
}

int hwc_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    NEED(tag, tag_len);
    ROUTE(ctx, get_tag, ctx, tag, tag_len);
}

int hwc_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    NEED(aad, aad_len);
    ROUTE_DATA(ctx, aad, aad_len, NULL, NULL, ctx, aad, aad_len);
}

int hwc_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    if (!out_len)
        return HWC_ERR_NULL;
    NEED(in, in_len);
    NEED(out, in_len);
    ROUTE_DATA(ctx, update, in_len, in, out, ctx, out, out_len, in, in_len);
}

int hwc_update_bits(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t nbits) {
    size_t bytes = nbits / 8 + (nbits % 8 != 0); /* (nbits + 7) / 8 wraps to 0 near SIZE_MAX */
    NEED(in, bytes);
    NEED(out, bytes);
    ROUTE_DATA(ctx, update_bits, bytes, in, out, ctx, out, in, nbits);
}

int hwc_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    if (!out_len)
        return HWC_ERR_NULL;
    ROUTE(ctx, final, ctx, out, out_len);
}

int hwc_get_iv(const hwc_ctx *ctx, uint8_t *iv, size_t iv_len) {
    NEED(iv, iv_len);
    int rc = ready(ctx);
    if (rc)
        return rc;
    if (!ctx->cipher->ops->get_iv)
        return HWC_ERR_UNSUPPORTED;
    if (iv_len != HWC_BLOCK || !iv)
        return HWC_ERR_IV_LEN;
    ctx->cipher->ops->get_iv(ctx, iv);
    return HWC_OK;
}

/* The mode checks its state before the length (docs/ERRORS.md). */
int hwc_mac_final(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    NEED(tag, tag_len);
    ROUTE(ctx, mac_final, ctx, tag, tag_len);
}

int hwc_mac_verify(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    NEED(tag, tag_len);
    alignas(16) uint8_t computed[16];
    if (tag_len > sizeof computed) {
        /* Too long for any MAC, but the state and the operation come first:
         * length 0 is refused by every MAC, after those checks. */
        int rc = hwc_mac_final(ctx, computed, 0);
        return rc ? rc : HWC_ERR_TAG_LEN;
    }
    int rc = hwc_mac_final(ctx, computed, tag_len);
    if (rc)
        return rc;
    rc = hwc_ct_memcmp(computed, tag, tag_len) ? HWC_ERR_AUTH : HWC_OK;
    hwc_wipe(computed, sizeof computed);
    return rc;
}

/* ---------------------------------------------------------------- one-shot */

static int aead_check(hwc_ctx *ctx, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                      const uint8_t *in, size_t in_len, const uint8_t *out, const uint8_t *tag, size_t tag_len) {
    if (!ctx)
        return HWC_ERR_NULL;
    NEED(nonce, nonce_len);
    NEED(aad, aad_len);
    NEED(in, in_len);
    NEED(out, in_len);
    if (!tag)
        return HWC_ERR_NULL;
    if (!ctx->cipher || !ctx->keyed)
        return HWC_ERR_STATE;
    if (!(ctx->cipher->flags & HWC_CIPHER_AEAD))
        return HWC_ERR_UNSUPPORTED;
    if (!tag_len_ok(ctx->cipher, tag_len))
        return HWC_ERR_TAG_LEN;
    if (nonce_len) {
        int rc = ctx->cipher->ops->check_iv && !len_impossible(nonce_len)
                     ? ctx->cipher->ops->check_iv(ctx->cipher, nonce_len)
                     : HWC_ERR_IV_LEN;
        if (rc)
            return rc;
    } else if (!iv_optional(ctx->cipher)) {
        return HWC_ERR_IV_LEN;
    }
    if (len_impossible(in_len) || len_impossible(aad_len))
        return HWC_ERR_DATA_LEN;
    if (overlaps(in, in_len, out, in_len))
        return HWC_ERR_OVERLAP;
    return HWC_OK;
}

/* Runs one whole message through the streaming ops. */
static int aead_run(hwc_ctx *ctx, int encrypt, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad,
                    size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag_out,
                    const uint8_t *tag_in, size_t tag_len) {
    int rc = hwc_init(ctx, NULL, encrypt, NULL, 0, nonce, nonce_len);
    if (rc)
        return rc;
    if (ctx->cipher->mode == HWC_MODE_CCM && (rc = hwc_set_lengths(ctx, aad_len, in_len)))
        return rc;
    if (encrypt)
        rc = hwc_set_tag_len(ctx, tag_len);
    else
        rc = hwc_set_tag(ctx, tag_in, tag_len);
    if (rc)
        return rc;
    if (aad_len && (rc = hwc_aad(ctx, aad, aad_len)))
        return rc;
    size_t n = 0, m = 0;
    if ((rc = hwc_update(ctx, out, &n, in, in_len)))
        return rc;
    /* OCB may hold back a partial block that final() writes. */
    alignas(16) uint8_t tail[32];
    if ((rc = hwc_final(ctx, tail, &m)))
        return rc;
    if (n + m != in_len) {
        hwc_wipe(tail, sizeof tail);
        return HWC_ERR_STATE;
    }
    if (m)
        memcpy(out + n, tail, m);
    hwc_wipe(tail, sizeof tail);
    return encrypt ? hwc_get_tag(ctx, tag_out, tag_len) : HWC_OK;
}

int hwc_aead_seal(hwc_ctx *ctx, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                  const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag, size_t tag_len) {
    int rc = aead_check(ctx, nonce, nonce_len, aad, aad_len, in, in_len, out, tag, tag_len);
    if (rc)
        return rc;
    const hwc_mode_ops *ops = ctx->cipher->ops;
    if (ops->aead_oneshot &&
        (rc = ops->aead_oneshot(ctx, HWC_ENCRYPT, nonce, nonce_len, aad, aad_len, in, in_len, out, tag, NULL,
                                tag_len)) != HWC_NOT_HANDLED)
        return rc; /* short message: one pass, no streaming state */
    return aead_run(ctx, HWC_ENCRYPT, nonce, nonce_len, aad, aad_len, in, in_len, out, tag, NULL, tag_len);
}

int hwc_aead_open(hwc_ctx *ctx, const uint8_t *nonce, size_t nonce_len, const uint8_t *aad, size_t aad_len,
                  const uint8_t *in, size_t in_len, uint8_t *out, const uint8_t *tag, size_t tag_len) {
    int rc = aead_check(ctx, nonce, nonce_len, aad, aad_len, in, in_len, out, tag, tag_len);
    if (rc)
        return rc;
    const hwc_mode_ops *ops = ctx->cipher->ops;
    if (ops->aead_oneshot &&
        (rc = ops->aead_oneshot(ctx, HWC_DECRYPT, nonce, nonce_len, aad, aad_len, in, in_len, out, NULL, tag,
                                tag_len)) != HWC_NOT_HANDLED) {
        if (rc == HWC_ERR_AUTH && in_len)
            hwc_wipe(out, in_len);
        return rc;
    }
    rc = aead_run(ctx, HWC_DECRYPT, nonce, nonce_len, aad, aad_len, in, in_len, out, NULL, tag, tag_len);
    if (rc == HWC_ERR_AUTH && in_len)
        hwc_wipe(out, in_len);
    return rc;
}

int hwc_mac(const hwc_cipher *cipher, const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
            const uint8_t *msg, size_t msg_len, uint8_t *tag, size_t tag_len) {
    if (!cipher || !key || !tag)
        return HWC_ERR_NULL;
    NEED(msg, msg_len);
    if (!(cipher->flags & HWC_CIPHER_MAC))
        return HWC_ERR_UNSUPPORTED;
    if (!tag_len_ok(cipher, tag_len))
        return HWC_ERR_TAG_LEN;
    hwc_ctx *ctx = hwc_ctx_new();
    if (!ctx)
        return HWC_ERR_NO_MEM;
    int rc = hwc_init(ctx, cipher, HWC_ENCRYPT, key, key_len, iv, iv_len);
    if (!rc && !ctx->started)
        rc = HWC_ERR_IV_LEN; /* GMAC without an IV */
    if (!rc)
        rc = hwc_aad(ctx, msg, msg_len);
    if (!rc)
        rc = hwc_mac_final(ctx, tag, tag_len);
    hwc_ctx_free(ctx);
    return rc;
}

/* --------------------------------------------------------------- key wrap */

/* docs/ERRORS.md's order: pointers, state, operation, lengths (the mode's
 * too), then overlap. */
static int wrap_check(hwc_ctx *ctx, int wrap, const uint8_t *in, size_t in_len, const uint8_t *out, size_t out_cap,
                      const size_t *out_len) {
    if (!ctx || !out_len)
        return HWC_ERR_NULL;
    NEED(in, in_len);
    NEED(out, out_cap);
    if (!ctx->cipher || !ctx->keyed)
        return HWC_ERR_STATE;
    if (!(ctx->cipher->flags & HWC_CIPHER_WRAP))
        return HWC_ERR_UNSUPPORTED;
    /* A failed unwrap zeroes out_cap bytes: no capacity past any buffer. */
    if (len_impossible(in_len) || len_impossible(out_cap))
        return HWC_ERR_DATA_LEN;
    int rc = ctx->cipher->ops->wrap_lengths(ctx, wrap, in_len, out_cap);
    if (rc)
        return rc;
    if (overlaps(in, in_len, out, out_cap))
        return HWC_ERR_OVERLAP;
    return HWC_OK;
}

int hwc_ctx_key_wrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    int rc = wrap_check(ctx, 1, in, in_len, out, out_cap, out_len);
    return rc ? rc : ctx->cipher->ops->wrap(ctx, in, in_len, out, out_cap, out_len);
}

int hwc_ctx_key_unwrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap,
                       size_t *out_len) {
    int rc = wrap_check(ctx, 0, in, in_len, out, out_cap, out_len);
    return rc ? rc : ctx->cipher->ops->unwrap(ctx, in, in_len, out, out_cap, out_len);
}

static int wrap_oneshot(const hwc_cipher *cipher, const uint8_t *kek, size_t kek_len, const uint8_t *in,
                        size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len, int wrap) {
    if (!cipher || !kek)
        return HWC_ERR_NULL;
    if (!(cipher->flags & HWC_CIPHER_WRAP))
        return HWC_ERR_UNSUPPORTED;
    hwc_ctx *ctx = hwc_ctx_new();
    if (!ctx)
        return HWC_ERR_NO_MEM;
    int rc = hwc_init(ctx, cipher, wrap ? HWC_ENCRYPT : HWC_DECRYPT, kek, kek_len, NULL, 0);
    if (!rc)
        rc = wrap ? hwc_ctx_key_wrap(ctx, in, in_len, out, out_cap, out_len)
                  : hwc_ctx_key_unwrap(ctx, in, in_len, out, out_cap, out_len);
    hwc_ctx_free(ctx);
    return rc;
}

int hwc_key_wrap(const hwc_cipher *cipher, const uint8_t *kek, size_t kek_len, const uint8_t *in, size_t in_len,
                 uint8_t *out, size_t out_cap, size_t *out_len) {
    return wrap_oneshot(cipher, kek, kek_len, in, in_len, out, out_cap, out_len, 1);
}

int hwc_key_unwrap(const hwc_cipher *cipher, const uint8_t *kek, size_t kek_len, const uint8_t *in, size_t in_len,
                   uint8_t *out, size_t out_cap, size_t *out_len) {
    return wrap_oneshot(cipher, kek, kek_len, in, in_len, out, out_cap, out_len, 0);
}
