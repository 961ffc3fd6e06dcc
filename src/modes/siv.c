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
 *   - encryption takes the data in exactly one update(): S2V needs all of
 *     the plaintext before the first byte of ciphertext can be produced;
 *   - decryption streams once set_lengths() has declared the length
 *     (siv_flow.h): CTR from V, the plaintext into S2V as it comes.
 */
#include "modes/siv_flow.h"

/* RFC 5297 §7: S2V takes at most 127 components, the plaintext being the
 * last, so at most 126 of associated data (the nonce counts as one). */
#define SIV_MAX_AD_COMPONENTS 126

typedef struct siv_state {
    hwc_cmac_state cmac;               /* keyed with K1 (ctx->ks[0]) */
    alignas(16) uint8_t d_zero[16];    /* CMAC(K1, 0^128): S2V's first D, fixed per key */
    alignas(16) uint8_t d[16];         /* S2V's running value D; from the data on, the final one */
    alignas(16) uint8_t nonce_mac[16]; /* CMAC(K1, nonce): folded in after the AD */
    hwc_siv_ctr ctr;                   /* CTR under K2 */
    alignas(16) uint8_t short_pt[16];  /* a plaintext under 16 bytes, until the tag */
    hwc_siv_flow flow;                 /* phases; its tag is V */
    uint64_t msg_len;                  /* the plaintext's length (S2V's last step depends on it) */
    uint64_t absorbed;                 /* plaintext bytes in S2V so far */
    size_t ad_components;              /* hwc_aad() calls so far */
    int has_nonce;
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

/* The plaintext is S2V's last component: D takes the nonce, and the CMAC
 * state starts over for the plaintext. */
static void siv_data_begin(hwc_ctx *ctx, uint64_t msg_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    if (st->has_nonce)
        siv_fold(st->d, st->nonce_mac);
    hwc_cmac_reset(&st->cmac);
    st->msg_len = msg_len;
    st->absorbed = 0;
}

/* S2V's last step streamed: the length is known, so a plaintext of 16
 * bytes or more is CMACed as it comes, its last 16 bytes xored with D on
 * the way in (xorend); a shorter one waits for the tag (dbl(D) xor pad). */
static void siv_absorb(hwc_ctx *ctx, const uint8_t *pt, size_t len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *k1 = &ctx->ks[0];

    if (st->msg_len < 16) {
        memcpy(st->short_pt + st->absorbed, pt, len);
        st->absorbed += len;
        return;
    }
    uint64_t xorend_at = st->msg_len - 16;
    if (st->absorbed < xorend_at) {
        size_t direct = (uint64_t)len < xorend_at - st->absorbed ? len : (size_t)(xorend_at - st->absorbed);
        hwc_cmac_absorb(&st->cmac, im, k1, pt, direct);
        st->absorbed += direct;
        pt += direct;
        len -= direct;
    }
    if (len) {
        alignas(16) uint8_t t[16];
        hwc_xor(t, pt, st->d + (st->absorbed - xorend_at), len);
        hwc_cmac_absorb(&st->cmac, im, k1, t, len);
        st->absorbed += len;
        hwc_wipe(t, sizeof t);
    }
}

/* V, once the whole plaintext is absorbed. */
static void siv_tag(hwc_ctx *ctx, uint8_t v[16]) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *k1 = &ctx->ks[0];

    if (st->msg_len < 16) {
        /* T = dbl(D) xor pad(plaintext), pad = 10* to 16 bytes. */
        alignas(16) uint8_t last[16];
        size_t len = (size_t)st->msg_len;
        hwc_gf128_dbl_be(last, st->d);
        hwc_xor(last, last, st->short_pt, len);
        last[len] ^= 0x80;
        hwc_cmac_absorb(&st->cmac, im, k1, last, 16);
        hwc_wipe(last, sizeof last);
    }
    hwc_cmac_finish(&st->cmac, im, k1, v);
}

/* CTR under K2 from Q = V with bits 63 and 31 cleared (RFC 5297 §2.5-2.6:
 * then a 32- or 64-bit counter cannot carry out for any practical message,
 * so every implementation agrees). */
static void siv_ctr_begin(hwc_ctx *ctx, const uint8_t v[16]) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    memcpy(st->ctr.ctr, v, 16);
    st->ctr.ctr[8] &= 0x7f;
    st->ctr.ctr[12] &= 0x7f;
    st->ctr.ks_left = 0;
}

static void siv_ctr(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len) {
    hwc_siv_ctr_xor(&HWC_MODE_STATE(ctx, siv_state)->ctr, k_ctr128, ctx->impl, &ctx->ks[1], out, in, len);
}

static void siv_data_end(hwc_ctx *ctx) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    hwc_siv_ctr_wipe(&st->ctr);
    hwc_wipe(st->short_pt, sizeof st->short_pt);
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
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, half, 0);
    if (rc != HWC_OK)
        return rc;
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[1], key + half, half, 0);
    if (rc != HWC_OK)
        return rc;

    hwc_wipe(st, sizeof *st);
    hwc_cmac_init(&st->cmac, ctx->impl, &ctx->ks[0]);
    siv_cmac(st, ctx, zero, 16, st->d_zero);
    st->flow.phase = HWC_SIV_NO_MESSAGE;
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
    st->ad_components = 0;
    st->has_nonce = iv_len > 0;
    if (st->has_nonce)
        siv_cmac(st, ctx, iv, iv_len, st->nonce_mac);
    else
        hwc_wipe(st->nonce_mac, sizeof st->nonce_mac);
    siv_data_end(ctx); /* what an abandoned message left */
    hwc_siv_flow_begin(&st->flow);
    return HWC_OK;
}

static hwc_siv_flow *siv_flow_of(hwc_ctx *ctx) { return &HWC_MODE_STATE(ctx, siv_state)->flow; }

static const hwc_siv_hooks siv_hooks = {
    .flow = siv_flow_of,
    .data_begin = siv_data_begin,
    .absorb = siv_absorb,
    .tag = siv_tag,
    .ctr_begin = siv_ctr_begin,
    .ctr = siv_ctr,
    .data_end = siv_data_end,
    .max_data_len = UINT64_MAX,
    .max_aad_len = UINT64_MAX,
};

static int siv_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    siv_state *st = HWC_MODE_STATE(ctx, siv_state);
    alignas(16) uint8_t mac[16];
    size_t limit = SIV_MAX_AD_COMPONENTS - (size_t)(st->has_nonce ? 1 : 0);
    int rc = hwc_siv_flow_aad_check(&siv_hooks, &st->flow, aad_len);

    if (rc != HWC_OK)
        return rc;
    if (st->ad_components >= limit)
        return HWC_ERR_DATA_LEN;
    hwc_siv_flow_aad_taken(&st->flow, aad_len);
    siv_cmac(st, ctx, aad, aad_len, mac);
    siv_fold(st->d, mac);
    st->ad_components++;
    hwc_wipe(mac, sizeof mac);
    return HWC_OK;
}

static int siv_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    return hwc_siv_flow_update(&siv_hooks, ctx, out, out_len, in, in_len);
}

static int siv_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    (void)out;
    return hwc_siv_flow_final(&siv_hooks, ctx, out_len);
}

static int siv_set_lengths(hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len) {
    return hwc_siv_flow_set_lengths(&siv_hooks, ctx, aad_len, msg_len);
}

static int siv_set_tag_len(hwc_ctx *ctx, size_t tag_len) {
    return hwc_siv_flow_set_tag_len(siv_flow_of(ctx), ctx, tag_len);
}

static int siv_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    return hwc_siv_flow_set_tag(siv_flow_of(ctx), ctx, tag, tag_len);
}

static int siv_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    return hwc_siv_flow_get_tag(siv_flow_of(ctx), ctx, tag, tag_len);
}

const hwc_mode_ops hwc_mode_siv_ops = {
    .set_key = siv_set_key,
    .check_iv = siv_check_iv,
    .start = siv_start,
    .aad = siv_aad,
    .update = siv_update,
    .final = siv_final,
    .set_tag_len = siv_set_tag_len,
    .set_lengths = siv_set_lengths,
    .set_tag = siv_set_tag,
    .get_tag = siv_get_tag,
};
