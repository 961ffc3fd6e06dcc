/*
 * OFB (SP 800-38A 6.4): the keystream is the IV encrypted again and again,
 * independent of the data, so encryption and decryption are the same.
 *
 * Any length; a partial keystream block carries over to the next update.
 * The register holds the current keystream block (at the start, the IV,
 * which is "keystream block 0"): exactly what k_ofb() continues from once
 * a block is used up. Whole blocks go through k_ofb().
 */
#include "mode.h"

typedef struct ofb_state {
    alignas(16) uint8_t keystream[HWC_BLOCK]; /* current keystream block */
    size_t used;                              /* bytes of it consumed; 0 = whole block used */
    int ready;                                /* start() done and final() not yet */
} ofb_state;
HWC_MODE_STATE_FITS(ofb_state);

static int ofb_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    ofb_state *st = HWC_MODE_STATE(ctx, ofb_state);
    int rc;

    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    memset(st, 0, sizeof *st);
    return HWC_OK;
}

static int ofb_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    return iv_len == HWC_BLOCK ? HWC_OK : HWC_ERR_IV_LEN;
}

static int ofb_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    ofb_state *st = HWC_MODE_STATE(ctx, ofb_state);

    if (iv_len != HWC_BLOCK)
        return HWC_ERR_IV_LEN;
    memcpy(st->keystream, iv, HWC_BLOCK);
    st->used = 0;
    st->ready = 1;
    return HWC_OK;
}

/* XOR bytes of the current keystream block (n <= 16 - used). */
static void ofb_partial(ofb_state *st, uint8_t *out, const uint8_t *in, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(in[i] ^ st->keystream[st->used + i]);
    st->used = (st->used + n) % HWC_BLOCK;
}

static int ofb_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    ofb_state *st = HWC_MODE_STATE(ctx, ofb_state);
    size_t done = 0, nblocks;

    if (!st->ready)
        return HWC_ERR_STATE;

    if (st->used != 0) {
        done = HWC_BLOCK - st->used;
        if (done > in_len)
            done = in_len;
        ofb_partial(st, out, in, done);
    }
    nblocks = (in_len - done) / HWC_BLOCK;
    if (nblocks > 0) {
        k_ofb(ctx->impl, &ctx->ks[0], st->keystream, out + done, in + done, nblocks);
        done += nblocks * HWC_BLOCK;
    }
    if (done < in_len) {
        k_ecb_enc(ctx->impl, &ctx->ks[0], st->keystream, st->keystream, 1);
        ofb_partial(st, out + done, in + done, in_len - done);
    }
    *out_len = in_len;
    return HWC_OK;
}

static int ofb_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    ofb_state *st = HWC_MODE_STATE(ctx, ofb_state);

    (void)out;
    if (!st->ready)
        return HWC_ERR_STATE;
    /* The keystream block stays until the next start: it is OFB's chaining
     * value, which hwc_get_iv reads after final too (EVP's updated IV). */
    st->used = 0;
    st->ready = 0;
    *out_len = 0;
    return HWC_OK;
}

static void ofb_get_iv(const hwc_ctx *ctx, uint8_t iv[HWC_BLOCK]) {
    memcpy(iv, HWC_MODE_STATE_CONST(ctx, ofb_state)->keystream, HWC_BLOCK);
}

const hwc_mode_ops hwc_mode_ofb_ops = {
    .set_key = ofb_set_key,
    .check_iv = ofb_check_iv,
    .start = ofb_start,
    .update = ofb_update,
    .final = ofb_final,
    .get_iv = ofb_get_iv,
};
