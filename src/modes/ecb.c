/*
 * ECB: no IV, whole blocks, PKCS#7 padding on by default.
 *
 * Buffering, padding and the in-place rules are CBC's block-stream engine
 * (src/modes/cbc.c), which skips chaining when the cipher's mode is ECB; the
 * wrappers below only route to it, so the two modes cannot drift apart.
 */
#include "mode.h"

static int ecb_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    return hwc_mode_cbc_ops.set_key(ctx, key, key_len);
}

static int ecb_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    return hwc_mode_cbc_ops.start(ctx, iv, iv_len);
}

static int ecb_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    return hwc_mode_cbc_ops.update(ctx, out, out_len, in, in_len);
}

static int ecb_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    return hwc_mode_cbc_ops.final(ctx, out, out_len);
}

static int ecb_set_padding(hwc_ctx *ctx, int on) {
    return hwc_mode_cbc_ops.set_padding(ctx, on);
}

const hwc_mode_ops hwc_mode_ecb_ops = {
    .set_key = ecb_set_key,
    .check_iv = NULL, /* no IV */
    .start = ecb_start,
    .update = ecb_update,
    .final = ecb_final,
    .set_padding = ecb_set_padding,
};
