/*
 * CFB with 128-, 8- and 1-bit feedback (SP 800-38A 6.3).
 *
 * CFB-128 takes any length and carries a partial block across updates, like
 * OpenSSL's `num`. The chaining value then holds the ciphertext bytes of the
 * current block so far followed by the keystream bytes not yet used; once
 * the block completes it is exactly the ciphertext block the next cipher
 * call needs. Whole blocks go through k_cfb_enc / k_cfb_dec.
 *
 * CFB-8 and CFB-1 need one block encryption per byte or bit: no batching.
 * CFB-1's update() takes bytes as 8 bits each, most significant bit first,
 * as OpenSSL's aes-*-cfb1 EVP ciphers do; update_bits() takes a bit count.
 */
#include "mode.h"

typedef struct cfb_state {
    alignas(16) uint8_t iv[HWC_BLOCK]; /* shift register (CFB-128: see above) */
    size_t num;                        /* CFB-128: bytes of the current block used, 0..15 */
    int ready;                         /* start() done and final() not yet */
} cfb_state;
HWC_MODE_STATE_FITS(cfb_state);

static int cfb_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);
    int rc;

    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    /* CFB decrypts with the forward cipher: no decryption schedule. */
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    memset(st, 0, sizeof *st);
    return HWC_OK;
}

static int cfb_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    return iv_len == HWC_BLOCK ? HWC_OK : HWC_ERR_IV_LEN;
}

static int cfb_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);

    if (iv_len != HWC_BLOCK)
        return HWC_ERR_IV_LEN;
    memcpy(st->iv, iv, HWC_BLOCK);
    st->num = 0;
    st->ready = 1;
    return HWC_OK;
}

static int cfb_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);

    (void)out;
    if (!st->ready)
        return HWC_ERR_STATE;
    /* The shift register stays until the next start: hwc_get_iv reads it
     * after final too, as EVP's updated IV. */
    st->num = 0;
    st->ready = 0;
    *out_len = 0;
    return HWC_OK;
}

/* ------------------------------------------------------------- CFB-128 */

/* Bytes within the current block (n <= 16 - num): out = in ^ keystream, and
 * the ciphertext byte replaces the keystream byte it used. Each input byte
 * is read before its output byte is written, for out == in. */
static void cfb128_partial(cfb_state *st, int encrypt, uint8_t *out, const uint8_t *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint8_t x = in[i];
        uint8_t y = (uint8_t)(x ^ st->iv[st->num]);
        st->iv[st->num++] = encrypt ? y : x;
        out[i] = y;
    }
    if (st->num == HWC_BLOCK)
        st->num = 0;
}

static int cfb128_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *ks = &ctx->ks[0];
    size_t done = 0, nblocks;

    if (!st->ready)
        return HWC_ERR_STATE;

    if (st->num != 0) {
        done = HWC_BLOCK - st->num;
        if (done > in_len)
            done = in_len;
        cfb128_partial(st, ctx->encrypt, out, in, done);
    }
    nblocks = (in_len - done) / HWC_BLOCK;
    if (nblocks > 0) {
        if (ctx->encrypt)
            k_cfb_enc(im, ks, st->iv, out + done, in + done, nblocks);
        else
            k_cfb_dec(im, ks, st->iv, out + done, in + done, nblocks);
        done += nblocks * HWC_BLOCK;
    }
    if (done < in_len) {
        k_ecb_enc(im, ks, st->iv, st->iv, 1);
        cfb128_partial(st, ctx->encrypt, out + done, in + done, in_len - done);
    }
    *out_len = in_len;
    return HWC_OK;
}

/* --------------------------------------------------------------- CFB-8 */

static int cfb8_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);
    alignas(16) uint8_t keystream[HWC_BLOCK];

    if (!st->ready)
        return HWC_ERR_STATE;
    for (size_t i = 0; i < in_len; i++) {
        uint8_t x = in[i];
        uint8_t y;
        k_ecb_enc(ctx->impl, &ctx->ks[0], keystream, st->iv, 1);
        y = (uint8_t)(x ^ keystream[0]);
        /* The register shifts one byte left and takes in the ciphertext byte. */
        memmove(st->iv, st->iv + 1, HWC_BLOCK - 1);
        st->iv[HWC_BLOCK - 1] = ctx->encrypt ? y : x;
        out[i] = y;
    }
    hwc_wipe(keystream, sizeof keystream);
    *out_len = in_len;
    return HWC_OK;
}

/* --------------------------------------------------------------- CFB-1 */

/* Shift the 128-bit register left by one bit, taking `bit` in at the end. */
static void shift_in_bit(uint8_t reg[HWC_BLOCK], unsigned bit) {
    for (int i = 0; i < HWC_BLOCK - 1; i++)
        reg[i] = (uint8_t)((reg[i] << 1) | (reg[i + 1] >> 7));
    reg[HWC_BLOCK - 1] = (uint8_t)((reg[HWC_BLOCK - 1] << 1) | bit);
}

/* nbits bits of in, most significant bit of each byte first; the unused low
 * bits of a last partial output byte are zero. */
static void cfb1_bits(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t nbits) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);
    alignas(16) uint8_t keystream[HWC_BLOCK];
    size_t nbytes = nbits / 8 + (nbits % 8 != 0);

    for (size_t j = 0; j < nbytes; j++) {
        unsigned src = in[j], dst = 0;
        unsigned bits = j < nbits / 8 ? 8 : (unsigned)(nbits % 8); /* (j + 1) * 8 could wrap */
        for (unsigned b = 0; b < bits; b++) {
            unsigned x = (src >> (7 - b)) & 1u;
            unsigned y;
            k_ecb_enc(ctx->impl, &ctx->ks[0], keystream, st->iv, 1);
            y = x ^ (unsigned)(keystream[0] >> 7);
            shift_in_bit(st->iv, ctx->encrypt ? y : x);
            dst |= y << (7 - b);
        }
        out[j] = (uint8_t)dst;
    }
    hwc_wipe(keystream, sizeof keystream);
}

static int cfb1_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);

    if (!st->ready)
        return HWC_ERR_STATE;
    if (in_len > SIZE_MAX / 8)
        return HWC_ERR_DATA_LEN;
    cfb1_bits(ctx, out, in, in_len * 8);
    *out_len = in_len;
    return HWC_OK;
}

static int cfb1_update_bits(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t nbits) {
    cfb_state *st = HWC_MODE_STATE(ctx, cfb_state);

    if (!st->ready)
        return HWC_ERR_STATE;
    cfb1_bits(ctx, out, in, nbits);
    return HWC_OK;
}

static void cfb_get_iv(const hwc_ctx *ctx, uint8_t iv[HWC_BLOCK]) {
    memcpy(iv, HWC_MODE_STATE_CONST(ctx, cfb_state)->iv, HWC_BLOCK);
}

const hwc_mode_ops hwc_mode_cfb128_ops = {
    .set_key = cfb_set_key,
    .check_iv = cfb_check_iv,
    .start = cfb_start,
    .update = cfb128_update,
    .final = cfb_final,
    .get_iv = cfb_get_iv,
};

const hwc_mode_ops hwc_mode_cfb8_ops = {
    .set_key = cfb_set_key,
    .check_iv = cfb_check_iv,
    .start = cfb_start,
    .update = cfb8_update,
    .final = cfb_final,
    .get_iv = cfb_get_iv,
};

const hwc_mode_ops hwc_mode_cfb1_ops = {
    .set_key = cfb_set_key,
    .check_iv = cfb_check_iv,
    .start = cfb_start,
    .update = cfb1_update,
    .final = cfb_final,
    .get_iv = cfb_get_iv,
    .update_bits = cfb1_update_bits,
};
