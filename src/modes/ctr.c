/*
 * CTR as OpenSSL's aes-*-ctr / sm4-ctr: the whole 16-byte IV is a big-endian
 * counter, incremented per block and wrapping at 2^128 (SP 800-38A 6.5 with
 * the standard incrementing function over all 128 bits).
 *
 * Any length; the unused part of a keystream block carries over to the next
 * update. Whole blocks go through k_ctr128().
 */
#include "mode.h"

typedef struct ctr_state {
    alignas(16) uint8_t counter[HWC_BLOCK];   /* next counter block to encrypt */
    alignas(16) uint8_t keystream[HWC_BLOCK]; /* keystream of the previous counter */
    size_t used;                              /* bytes of keystream consumed; 0 = none pending */
    int ready;                                /* start() done and final() not yet */
} ctr_state;
HWC_MODE_STATE_FITS(ctr_state);

static int ctr_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    ctr_state *st = HWC_MODE_STATE(ctx, ctr_state);
    int rc;

    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    memset(st, 0, sizeof *st);
    return HWC_OK;
}

static int ctr_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    return iv_len == HWC_BLOCK ? HWC_OK : HWC_ERR_IV_LEN;
}

static int ctr_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    ctr_state *st = HWC_MODE_STATE(ctx, ctr_state);

    if (iv_len != HWC_BLOCK)
        return HWC_ERR_IV_LEN;
    memcpy(st->counter, iv, HWC_BLOCK);
    hwc_wipe(st->keystream, sizeof st->keystream);
    st->used = 0;
    st->ready = 1;
    return HWC_OK;
}

/* XOR bytes of the pending keystream block (n <= 16 - used). */
static void ctr_partial(ctr_state *st, uint8_t *out, const uint8_t *in, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(in[i] ^ st->keystream[st->used + i]);
    st->used = (st->used + n) % HWC_BLOCK;
}

/* An update with keystream pending or a partial block (ctr_update's
 * slow path, out of line so the whole-block path saves no registers). */
static __attribute__((noinline)) int ctr_update_partial(hwc_ctx *ctx, uint8_t *out, size_t *out_len,
                                                        const uint8_t *in, size_t in_len) {
    ctr_state *st = HWC_MODE_STATE(ctx, ctr_state);
    size_t done = 0, nblocks;

    if (st->used != 0) {
        done = HWC_BLOCK - st->used;
        if (done > in_len)
            done = in_len;
        ctr_partial(st, out, in, done);
    }
    nblocks = (in_len - done) / HWC_BLOCK;
    if (nblocks > 0) {
        k_ctr128(ctx->impl, &ctx->ks[0], st->counter, out + done, in + done, nblocks);
        done += nblocks * HWC_BLOCK;
    }
    if (done < in_len) {
        k_ecb_enc(ctx->impl, &ctx->ks[0], st->keystream, st->counter, 1);
        hwc_ctr128_inc(st->counter);
        ctr_partial(st, out + done, in + done, in_len - done);
    }
    *out_len = in_len;
    return HWC_OK;
}

static int ctr_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    ctr_state *st = HWC_MODE_STATE(ctx, ctr_state);

    if (!st->ready)
        return HWC_ERR_STATE;
    /* The common call (whole blocks, nothing pending) goes straight to the
     * kernel: at 16-64 bytes this path's cost is a fair part of the call. */
    if ((st->used | (in_len % HWC_BLOCK)) != 0 || in_len == 0)
        return ctr_update_partial(ctx, out, out_len, in, in_len);
    *out_len = in_len;
    k_ctr128(ctx->impl, &ctx->ks[0], st->counter, out, in, in_len / HWC_BLOCK);
    return HWC_OK;
}

static int ctr_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    ctr_state *st = HWC_MODE_STATE(ctx, ctr_state);

    (void)out;
    if (!st->ready)
        return HWC_ERR_STATE;
    hwc_wipe(st->keystream, sizeof st->keystream);
    st->used = 0;
    st->ready = 0;
    *out_len = 0;
    return HWC_OK;
}

/* The next counter block: a partly used keystream block's counter is
 * already counted (as OpenSSL's updated IV). */
static void ctr_get_iv(const hwc_ctx *ctx, uint8_t iv[HWC_BLOCK]) {
    memcpy(iv, HWC_MODE_STATE_CONST(ctx, ctr_state)->counter, HWC_BLOCK);
}

const hwc_mode_ops hwc_mode_ctr_ops = {
    .set_key = ctr_set_key,
    .check_iv = ctr_check_iv,
    .start = ctr_start,
    .update = ctr_update,
    .final = ctr_final,
    .get_iv = ctr_get_iv,
};
