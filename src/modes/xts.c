/*
 * XTS (IEEE Std 1619-2018, SP 800-38E) with ciphertext stealing, and the
 * GB/T 17964-2021 variant used with SM4.
 *
 * The key is key1 || key2: key1 encrypts the data, key2 encrypts the IV into
 * the first tweak T_0. Block j uses T_j = T_0 * alpha^j in GF(2^128). The
 * two standards differ only in how the 16 tweak bytes map to a polynomial:
 *   IEEE 1619  little-endian: shift left, fold 0x87 into byte 0;
 *   GB/T 17964 big-endian, reflected (GCM's order): shift right, fold 0xE1
 *              into byte 0 (OpenSSL's sm4-xts with XTSStandard=GB).
 * IEEE runs on the back end's k_xts_*() kernels; GB on batched ECB here.
 *
 * One hwc_update() per hwc_init() is one data unit of 16 bytes .. 2^20
 * blocks: stealing needs the end of the unit, so it cannot stream.
 */
#include "mode.h"

#define XTS_MAX_BLOCKS ((size_t)1 << 20) /* IEEE 1619 data unit limit */
#define XTS_BATCH 8

typedef struct xts_state {
    alignas(16) uint8_t tweak[HWC_BLOCK]; /* T_0, then the running tweak */
    int gb;                               /* GB/T 17964 tweak order */
    int started;                          /* start() done and final() not yet */
    int unit_done;                        /* this init's data unit went through update() */
} xts_state;
HWC_MODE_STATE_FITS(xts_state);

/* T *= alpha, IEEE order. Masked fold: the tweak is secret (E_key2(IV)). */
static void mul_alpha_ieee(uint8_t t[HWC_BLOCK]) {
    uint64_t lo = hwc_load_le64(t), hi = hwc_load_le64(t + 8);
    uint64_t carry = hi >> 63;

    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ (0x87u & (0 - carry));
    hwc_store_le64(t, lo);
    hwc_store_le64(t + 8, hi);
}

/* T *= alpha, GB order: x^0 is the top bit of byte 0, so multiplying by x
 * is a right shift of the big-endian value; x^128 folds as 0xE1 in byte 0. */
static void mul_alpha_gb(uint8_t t[HWC_BLOCK]) {
    uint64_t hi = hwc_load_be64(t), lo = hwc_load_be64(t + 8);
    uint64_t carry = lo & 1;

    lo = (lo >> 1) | (hi << 63);
    hi = (hi >> 1) ^ ((uint64_t)0xE1 << 56 & (0 - carry));
    hwc_store_be64(t, hi);
    hwc_store_be64(t + 8, lo);
}

/* Full GB blocks on the ECB kernel, several per call. */
static void gb_blocks(const hwc_block_impl *im, const hwc_ks *ks, uint8_t tweak[HWC_BLOCK], uint8_t *out,
                      const uint8_t *in, size_t nblocks, int decrypt) {
    alignas(16) uint8_t tweaks[XTS_BATCH * HWC_BLOCK];
    alignas(16) uint8_t data[XTS_BATCH * HWC_BLOCK];

    while (nblocks > 0) {
        size_t n = nblocks < XTS_BATCH ? nblocks : XTS_BATCH;
        size_t bytes = n * HWC_BLOCK;

        for (size_t j = 0; j < n; j++) {
            memcpy(tweaks + j * HWC_BLOCK, tweak, HWC_BLOCK);
            mul_alpha_gb(tweak);
        }
        memcpy(data, in, bytes); /* before any write: out may equal in */
        hwc_xor(data, data, tweaks, bytes);
        if (decrypt)
            k_ecb_dec(im, ks, data, data, n);
        else
            k_ecb_enc(im, ks, data, data, n);
        hwc_xor(data, data, tweaks, bytes);
        memcpy(out, data, bytes);

        in += bytes;
        out += bytes;
        nblocks -= n;
    }
    hwc_wipe(tweaks, sizeof tweaks);
    hwc_wipe(data, sizeof data);
}

/* Full blocks in the context's direction; tweak advances past them. */
static void xts_blocks(const hwc_ctx *ctx, int gb, uint8_t tweak[HWC_BLOCK], uint8_t *out, const uint8_t *in,
                       size_t nblocks) {
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *ks = &ctx->ks[0];

    if (nblocks == 0)
        return;
    if (gb)
        gb_blocks(im, ks, tweak, out, in, nblocks, !ctx->encrypt);
    else if (ctx->encrypt)
        k_xts_enc(im, ks, tweak, out, in, nblocks);
    else
        k_xts_dec(im, ks, tweak, out, in, nblocks);
}

static int xts_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    xts_state *st = HWC_MODE_STATE(ctx, xts_state);
    size_t half = key_len / 2;
    int rc;

    if (key_len != ctx->cipher->key_len || key_len % 2 != 0)
        return HWC_ERR_KEY_LEN;
    /* Equal halves make the tweak E_key1(IV) and void the XTS security proof
     * (SP 800-38E, IEEE 1619 5.1). Constant time: the halves are secret. */
    if (hwc_ct_memcmp(key, key + half, half) == 0)
        return HWC_ERR_WEAK_KEY;
    /* key1 in both directions: a later init may switch direction without
     * a new key. key2 only ever encrypts the IV. */
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, half, 1);
    if (rc != HWC_OK)
        return rc;
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[1], key + half, half, 0);
    if (rc != HWC_OK)
        return rc;
    memset(st, 0, sizeof *st);
    return HWC_OK;
}

static int xts_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    return iv_len == HWC_BLOCK ? HWC_OK : HWC_ERR_IV_LEN;
}

static int xts_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    xts_state *st = HWC_MODE_STATE(ctx, xts_state);

    if (iv_len != HWC_BLOCK)
        return HWC_ERR_IV_LEN;
    k_ecb_enc(ctx->impl, &ctx->ks[1], st->tweak, iv, 1);
    st->gb = (ctx->cipher->flags & HWC_CIPHER_XTS_GB) != 0;
    st->started = 1;
    st->unit_done = 0;
    return HWC_OK;
}

/*
 * Ciphertext stealing for the last full block P_{m-1} and the r-byte tail
 * P_m (1 <= r <= 15), tweak = T_{m-1} on entry.
 *   encrypt: CC = XTS(P_{m-1}, T_{m-1}); C_m = CC[0..r);
 *            C_{m-1} = XTS(P_m || CC[r..16), T_m)
 *   decrypt: PP = XTS^-1(C_{m-1}, T_m); P_m = PP[0..r);
 *            P_{m-1} = XTS^-1(C_m || PP[r..16), T_{m-1})
 * Both blocks are read before either is written (out may equal in).
 */
static void xts_steal(const hwc_ctx *ctx, int gb, uint8_t tweak[HWC_BLOCK], uint8_t *out, const uint8_t *in,
                      size_t r) {
    alignas(16) uint8_t full[HWC_BLOCK]; /* the last full input block */
    alignas(16) uint8_t tail[HWC_BLOCK]; /* the partial input block, r bytes */
    alignas(16) uint8_t first[HWC_BLOCK];
    alignas(16) uint8_t second[HWC_BLOCK];
    alignas(16) uint8_t tweak_last[HWC_BLOCK];

    memcpy(full, in, HWC_BLOCK);
    memcpy(tail, in + HWC_BLOCK, r);

    if (ctx->encrypt) {
        xts_blocks(ctx, gb, tweak, first, full, 1); /* tweak becomes T_m */
        memcpy(second, tail, r);
        memcpy(second + r, first + r, HWC_BLOCK - r);
        xts_blocks(ctx, gb, tweak, second, second, 1);
    } else {
        /* Decryption needs T_m before T_{m-1}. */
        memcpy(tweak_last, tweak, HWC_BLOCK);
        if (gb)
            mul_alpha_gb(tweak_last);
        else
            mul_alpha_ieee(tweak_last);
        xts_blocks(ctx, gb, tweak_last, first, full, 1);
        memcpy(second, tail, r);
        memcpy(second + r, first + r, HWC_BLOCK - r);
        xts_blocks(ctx, gb, tweak, second, second, 1);
    }
    memcpy(out, second, HWC_BLOCK);
    memcpy(out + HWC_BLOCK, first, r);

    hwc_wipe(full, sizeof full);
    hwc_wipe(tail, sizeof tail);
    hwc_wipe(first, sizeof first);
    hwc_wipe(second, sizeof second);
    hwc_wipe(tweak_last, sizeof tweak_last);
}

static int xts_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    xts_state *st = HWC_MODE_STATE(ctx, xts_state);
    size_t full = in_len / HWC_BLOCK, r = in_len % HWC_BLOCK;

    if (!st->started || st->unit_done)
        return HWC_ERR_STATE;
    if (in_len < HWC_BLOCK || in_len > XTS_MAX_BLOCKS * HWC_BLOCK)
        return HWC_ERR_DATA_LEN;

    if (r == 0) {
        xts_blocks(ctx, st->gb, st->tweak, out, in, full);
    } else {
        size_t lead = (full - 1) * HWC_BLOCK;
        xts_blocks(ctx, st->gb, st->tweak, out, in, full - 1);
        xts_steal(ctx, st->gb, st->tweak, out + lead, in + lead, r);
    }
    hwc_wipe(st->tweak, sizeof st->tweak);
    st->unit_done = 1;
    *out_len = in_len;
    return HWC_OK;
}

static int xts_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    xts_state *st = HWC_MODE_STATE(ctx, xts_state);

    (void)out;
    if (!st->started)
        return HWC_ERR_STATE;
    hwc_wipe(st->tweak, sizeof st->tweak);
    st->started = 0;
    *out_len = 0;
    return HWC_OK;
}

const hwc_mode_ops hwc_mode_xts_ops = {
    .set_key = xts_set_key,
    .check_iv = xts_check_iv,
    .start = xts_start,
    .update = xts_update,
    .final = xts_final,
};
