/*
 * SIV mode (RFC 5297): S2V over the associated data and the plaintext gives
 * the synthetic IV V, which is both the tag and the CTR starting point.
 *
 * The key is K1 || K2: K1 keys S2V (CMAC, in ctx->ks[0]), K2 keys CTR
 * (ctx->ks[1]). Nothing here is specific to AES, so the same code serves
 * SM4-SIV.
 *
 * Message shape:
 *   - each hwc_aad() call is one S2V component (an empty call is an empty
 *     component, which RFC 5297 distinguishes from no component);
 *   - a nonce given to start() is the last AD component (RFC 5297 §3);
 *   - the data arrives in exactly one update(): S2V needs all of the
 *     plaintext before the first byte of ciphertext can be produced.
 */
#include "internal.h"

/* RFC 5297 §7: S2V takes at most 127 components, the plaintext being the
 * last, so at most 126 of associated data (the nonce counts as one). */
#define SIV_MAX_AD_COMPONENTS 126

enum siv_phase {
    SIV_NO_MESSAGE = 0, /* keyed; start() not called yet */
    SIV_AAD,            /* taking AD components (and the expected tag) */
    SIV_DATA_DONE,      /* the one update() has run */
    SIV_FAILED,         /* decryption failed authentication */
    SIV_FINISHED        /* final() succeeded */
};

typedef struct siv_state {
    hwc_cmac_state cmac;               /* keyed with K1 (ctx->ks[0]) */
    alignas(16) uint8_t d_zero[16];    /* CMAC(K1, 0^128): S2V's first D, fixed per key */
    alignas(16) uint8_t d[16];         /* S2V's running value D */
    alignas(16) uint8_t nonce_mac[16]; /* CMAC(K1, nonce): folded in after the AD */
    alignas(16) uint8_t tag[16];       /* V: computed (encrypt) or expected (decrypt) */
    size_t ad_components;              /* hwc_aad() calls so far */
    int has_nonce;
    int tag_set;
    int phase;
} siv_state;
HWC_MODE_STATE_FITS(siv_state);

/* CMAC(K1, data) of one whole component. */
static void siv_cmac(siv_state *st, const hwc_ctx *ctx, const uint8_t *data, size_t len, uint8_t mac[16]) {
    hwc_cmac_reset(&st->cmac);
    if (len)
        hwc_cmac_absorb(&st->cmac, ctx->impl, &ctx->ks[0], data, len);
    hwc_cmac_finish(&st->cmac, ctx->impl, &ctx->ks[0], mac);
}

/* D = dbl(D) xor mac: folds one S2V component in. */
static void siv_fold(uint8_t d[16], const uint8_t mac[16]) {
    hwc_gf128_dbl_be(d, d);
    hwc_xor(d, d, mac, 16);
}

/* The last step of S2V, with the plaintext as final component: v = V. */
static void siv_s2v_final(siv_state *st, const hwc_ctx *ctx, const uint8_t *pt, size_t len, uint8_t v[16]) {
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *k1 = &ctx->ks[0];
    alignas(16) uint8_t d[16];
    alignas(16) uint8_t last[16];

    memcpy(d, st->d, 16);
    if (st->has_nonce)
        siv_fold(d, st->nonce_mac);

    hwc_cmac_reset(&st->cmac);
    if (len >= 16) {
        /* T = plaintext xorend D: only the last 16 bytes change, so the
         * rest streams straight from the caller's buffer. */
        if (len > 16)
            hwc_cmac_absorb(&st->cmac, im, k1, pt, len - 16);
        hwc_xor(last, pt + len - 16, d, 16);
    } else {
        /* T = dbl(D) xor pad(plaintext), pad = 10* to 16 bytes. */
        hwc_gf128_dbl_be(last, d);
        for (size_t i = 0; i < len; i++)
            last[i] ^= pt[i];
        last[len] ^= 0x80;
    }
    hwc_cmac_absorb(&st->cmac, im, k1, last, 16);
    hwc_cmac_finish(&st->cmac, im, k1, v);

    hwc_wipe(d, sizeof d);
    hwc_wipe(last, sizeof last);
}

/* CTR under K2 from Q = V with bits 63 and 31 cleared (RFC 5297 §2.5-2.6:
 * then a 32- or 64-bit counter cannot carry out for any practical message,
 * so every implementation agrees). */
static void siv_ctr(const hwc_ctx *ctx, const uint8_t v[16], uint8_t *out, const uint8_t *in, size_t len) {
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *k2 = &ctx->ks[1];
    alignas(16) uint8_t ctr[16];
    size_t full = len / 16, rest = len % 16;

    memcpy(ctr, v, 16);
    ctr[8] &= 0x7f;
    ctr[12] &= 0x7f;
    if (full)
        k_ctr128(im, k2, ctr, out, in, full);
    if (rest) {
        alignas(16) uint8_t tail[16] = {0};
        memcpy(tail, in + full * 16, rest);
        k_ctr128(im, k2, ctr, tail, tail, 1);
        memcpy(out + full * 16, tail, rest);
        hwc_wipe(tail, sizeof tail);
    }
    hwc_wipe(ctr, sizeof ctr);
}

static int siv_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    const hwc_cipher *c = ctx->cipher;
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    static const uint8_t zero[16] = {0};
    size_t half = key_len / 2;
    int rc;

    if (key_len != c->key_len || key_len != 2 * c->block_key_len)
        return HWC_ERR_KEY_LEN;
    /* Both halves only ever run the forward cipher (CMAC and CTR). */
    rc = hwc_block_set_key(ctx, &ctx->ks[0], key, half, 0);
    if (rc != HWC_OK)
        return rc;
    rc = hwc_block_set_key(ctx, &ctx->ks[1], key + half, half, 0);
    if (rc != HWC_OK)
        return rc;

    hwc_wipe(st, sizeof *st);
    hwc_cmac_init(&st->cmac, ctx->impl, &ctx->ks[0]);
    siv_cmac(st, ctx, zero, 16, st->d_zero);
    st->phase = SIV_NO_MESSAGE;
    return HWC_OK;
}

/* Any nonce length: it is just one more AD component. */
static int siv_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    (void)iv_len;
    return HWC_OK;
}

static int siv_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);

    if (!ctx->keyed)
        return HWC_ERR_STATE;
    memcpy(st->d, st->d_zero, 16);
    hwc_wipe(st->tag, sizeof st->tag);
    st->ad_components = 0;
    st->tag_set = 0;
    st->has_nonce = iv_len > 0;
    if (st->has_nonce)
        siv_cmac(st, ctx, iv, iv_len, st->nonce_mac);
    else
        hwc_wipe(st->nonce_mac, sizeof st->nonce_mac);
    st->phase = SIV_AAD;
    return HWC_OK;
}

static int siv_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    alignas(16) uint8_t mac[16];
    size_t limit = SIV_MAX_AD_COMPONENTS - (size_t)(st->has_nonce ? 1 : 0);

    if (st->phase != SIV_AAD)
        return HWC_ERR_STATE;
    if (st->ad_components >= limit)
        return HWC_ERR_DATA_LEN;
    siv_cmac(st, ctx, aad, aad_len, mac);
    siv_fold(st->d, mac);
    st->ad_components++;
    hwc_wipe(mac, sizeof mac);
    return HWC_OK;
}

/* The single data call; also run by final() when update() never came. */
static int siv_process(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    alignas(16) uint8_t v[16];

    if (ctx->encrypt) {
        siv_s2v_final(st, ctx, in, len, st->tag);
        siv_ctr(ctx, st->tag, out, in, len);
        st->phase = SIV_DATA_DONE;
        return HWC_OK;
    }
    siv_ctr(ctx, st->tag, out, in, len);
    siv_s2v_final(st, ctx, out, len, v);
    if (hwc_ct_memcmp(v, st->tag, 16) != 0) {
        hwc_wipe(out, len);
        hwc_wipe(v, sizeof v);
        st->phase = SIV_FAILED;
        return HWC_ERR_AUTH;
    }
    hwc_wipe(v, sizeof v);
    st->phase = SIV_DATA_DONE;
    return HWC_OK;
}

static int siv_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    int rc;

    if (st->phase != SIV_AAD)
        return HWC_ERR_STATE;
    if (!ctx->encrypt && !st->tag_set)
        return HWC_ERR_STATE;
    rc = siv_process(ctx, out, in, in_len);
    if (out_len)
        *out_len = rc == HWC_OK ? in_len : 0;
    return rc;
}

static int siv_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    int rc;

    (void)out;
    if (st->phase == SIV_FAILED)
        return HWC_ERR_AUTH;
    if (st->phase == SIV_AAD) {
        /* No update(): the message is empty. */
        if (!ctx->encrypt && !st->tag_set)
            return HWC_ERR_STATE;
        rc = siv_process(ctx, NULL, NULL, 0);
        if (rc != HWC_OK)
            return rc;
    }
    if (st->phase != SIV_DATA_DONE)
        return HWC_ERR_STATE;
    st->phase = SIV_FINISHED;
    if (out_len)
        *out_len = 0;
    return HWC_OK;
}

static int siv_set_tag_len(hwc_ctx *ctx, size_t tag_len) {
    (void)ctx;
    return tag_len == 16 ? HWC_OK : HWC_ERR_TAG_LEN;
}

/* Decryption needs V before it can decrypt, so the tag comes before update(). */
static int siv_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);

    if (ctx->encrypt || st->phase != SIV_AAD)
        return HWC_ERR_STATE;
    if (tag_len != 16)
        return HWC_ERR_TAG_LEN;
    memcpy(st->tag, tag, 16);
    st->tag_set = 1;
    return HWC_OK;
}

static int siv_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);

    if (!ctx->encrypt || st->phase != SIV_FINISHED)
        return HWC_ERR_STATE;
    if (tag_len != 16)
        return HWC_ERR_TAG_LEN;
    memcpy(tag, st->tag, 16);
    return HWC_OK;
}

const hwc_mode_ops hwc_mode_siv_ops = {
    .set_key = siv_set_key,
    .check_iv = siv_check_iv,
    .start = siv_start,
    .aad = siv_aad,
    .update = siv_update,
    .final = siv_final,
    .set_tag_len = siv_set_tag_len,
    .set_tag = siv_set_tag,
    .get_tag = siv_get_tag,
};
