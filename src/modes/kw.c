/*
 * Key wrap: KW (RFC 3394, SP 800-38F §6.2) and KWP (RFC 5649, §6.3).
 *
 * Both run the wrapping function W of SP 800-38F over 64-bit semiblocks:
 * six passes, each block-cipher call taking the integrity register A and one
 * semiblock. The walk is inherently serial: it runs below the mode, in the
 * back end's kw_w/kw_winv kernels (or the generic ones, one ECB call per
 * step).
 *
 * Ciphers flagged HWC_CIPHER_INVERSE use the "inverse cipher" option of
 * SP 800-38F: wrapping runs the block decryption function and unwrapping the
 * encryption function. The key schedule therefore always holds both
 * directions.
 */
#include "mode.h"

/* SP 800-38F: KW handles 2 .. 2^54 - 1 semiblocks of plaintext. */
#define KW_MAX_SEMIBLOCKS (((uint64_t)1 << 54) - 1)
/* KWP: 1 .. 2^32 - 1 bytes of plaintext. */
#define KWP_MAX_LEN ((uint64_t)0xFFFFFFFFu)

static const uint8_t kw_default_iv[8] = {0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6, 0xA6};
/* First half of the KWP alternative IV; the second is the length. */
static const uint8_t kwp_iv_prefix[4] = {0xA6, 0x59, 0x59, 0xA6};

/* The block function of the wrap direction (forward unless inverse), for
 * KWP's single semiblock. */
static void kw_wrap_block(const hwc_ctx *ctx, uint8_t block[16]) {
    if (ctx->cipher->flags & HWC_CIPHER_INVERSE)
        k_ecb_dec(ctx->impl, &ctx->ks[0], block, block, 1);
    else
        k_ecb_enc(ctx->impl, &ctx->ks[0], block, block, 1);
}

/* The block function of the unwrap direction. */
static void kw_unwrap_block(const hwc_ctx *ctx, uint8_t block[16]) {
    if (ctx->cipher->flags & HWC_CIPHER_INVERSE)
        k_ecb_enc(ctx->impl, &ctx->ks[0], block, block, 1);
    else
        k_ecb_dec(ctx->impl, &ctx->ks[0], block, block, 1);
}

/* W and W^-1 (SP 800-38F 6.1) run below the mode: a kernel of the back end
 * (the whole serial walk in one call) or the generic one. The inverse-cipher
 * variants wrap with the decryption function and unwrap with encryption. */
static void kw_wrap_semiblocks(const hwc_ctx *ctx, uint8_t a[8], uint8_t *r, size_t n) {
    k_kw_w(ctx->impl, &ctx->ks[0], (ctx->cipher->flags & HWC_CIPHER_INVERSE) != 0, a, r, n);
}
static void kw_unwrap_semiblocks(const hwc_ctx *ctx, uint8_t a[8], uint8_t *r, size_t n) {
    k_kw_winv(ctx->impl, &ctx->ks[0], (ctx->cipher->flags & HWC_CIPHER_INVERSE) == 0, a, r, n);
}

/* 1 if x < y, else 0, without a branch (x, y < 2^63). */
static uint64_t kw_ct_lt(uint64_t x, uint64_t y) {
    return (x - y) >> 63;
}

static int kw_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    /* Both directions: wrap and unwrap use opposite ones. */
    return hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 1);
}

/* The length checks of each direction (HWC_ERR_DATA_LEN, then
 * HWC_ERR_BUFFER), without side effects: api.c runs them before its
 * overlap check, the order docs/ERRORS.md gives. */
static int kw_wrap_lengths(size_t in_len, size_t out_cap) {
    if (in_len % 8 != 0 || in_len < 16 || in_len > SIZE_MAX - 8 || hwc_len_over(in_len / 8, KW_MAX_SEMIBLOCKS))
        return HWC_ERR_DATA_LEN;
    return out_cap < in_len + 8 ? HWC_ERR_BUFFER : HWC_OK;
}

static int kw_unwrap_lengths(size_t in_len, size_t out_cap) {
    if (in_len % 8 != 0 || in_len < 24 || (uint64_t)in_len / 8 - 1 > KW_MAX_SEMIBLOCKS)
        return HWC_ERR_DATA_LEN;
    return out_cap < in_len - 8 ? HWC_ERR_BUFFER : HWC_OK;
}

/* The second bound keeps the padded length + 8 from overflowing a 32-bit size_t. */
static int kwp_wrap_lengths(size_t in_len, size_t out_cap) {
    if (in_len == 0 || hwc_len_over(in_len, KWP_MAX_LEN) || in_len > SIZE_MAX - 15)
        return HWC_ERR_DATA_LEN;
    return out_cap < ((in_len + 7) & ~(size_t)7) + 8 ? HWC_ERR_BUFFER : HWC_OK;
}

static int kwp_unwrap_lengths(size_t in_len, size_t out_cap) {
    if (in_len % 8 != 0 || in_len < 16 || (uint64_t)in_len - 8 > KWP_MAX_LEN + 1)
        return HWC_ERR_DATA_LEN;
    return out_cap < in_len - 8 ? HWC_ERR_BUFFER : HWC_OK;
}

static int kw_check_lengths(const hwc_ctx *ctx, int wrap, size_t in_len, size_t out_cap) {
    (void)ctx;
    return wrap ? kw_wrap_lengths(in_len, out_cap) : kw_unwrap_lengths(in_len, out_cap);
}

static int kwp_check_lengths(const hwc_ctx *ctx, int wrap, size_t in_len, size_t out_cap) {
    (void)ctx;
    return wrap ? kwp_wrap_lengths(in_len, out_cap) : kwp_unwrap_lengths(in_len, out_cap);
}

static int kw_wrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    alignas(16) uint8_t a[8];
    int rc;

    if (!ctx->keyed)
        return HWC_ERR_STATE;
    if ((rc = kw_wrap_lengths(in_len, out_cap)) != HWC_OK)
        return rc;

    /* memmove: out == in is allowed and the output is 8 bytes longer. */
    memmove(out + 8, in, in_len);
    memcpy(a, kw_default_iv, 8);
    kw_wrap_semiblocks(ctx, a, out + 8, in_len / 8);
    memcpy(out, a, 8);
    *out_len = in_len + 8;
    return HWC_OK;
}

static int kw_unwrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    alignas(16) uint8_t a[8];
    int bad, rc;

    if (!ctx->keyed)
        return HWC_ERR_STATE;
    if ((rc = kw_unwrap_lengths(in_len, out_cap)) != HWC_OK)
        return rc;

    memcpy(a, in, 8); /* before the move: out may equal in */
    memmove(out, in + 8, in_len - 8);
    kw_unwrap_semiblocks(ctx, a, out, (in_len - 8) / 8);
    bad = hwc_ct_memcmp(a, kw_default_iv, 8);
    hwc_wipe(a, sizeof a);
    if (bad) {
        hwc_wipe(out, out_cap);
        *out_len = 0;
        return HWC_ERR_AUTH;
    }
    *out_len = in_len - 8;
    return HWC_OK;
}

static int kwp_wrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    alignas(16) uint8_t a[8];
    size_t padded_len;
    int rc;

    if (!ctx->keyed)
        return HWC_ERR_STATE;
    if ((rc = kwp_wrap_lengths(in_len, out_cap)) != HWC_OK)
        return rc;
    padded_len = (in_len + 7) & ~(size_t)7;

    memmove(out + 8, in, in_len);
    memset(out + 8 + in_len, 0, padded_len - in_len);
    memcpy(a, kwp_iv_prefix, 4);
    hwc_store_be32(a + 4, (uint32_t)in_len);
    if (padded_len == 8) {
        /* One semiblock: a single block-cipher call replaces W (§6.3). */
        alignas(16) uint8_t b[16];
        memcpy(b, a, 8);
        memcpy(b + 8, out + 8, 8);
        kw_wrap_block(ctx, b);
        memcpy(out, b, 16);
        hwc_wipe(b, sizeof b);
    } else {
        kw_wrap_semiblocks(ctx, a, out + 8, padded_len / 8);
        memcpy(out, a, 8);
    }
    *out_len = padded_len + 8;
    return HWC_OK;
}

/*
 * The output must have room for in_len - 8 bytes (the padded plaintext):
 * the true length is only known after decryption, and looking at it before
 * the integrity check passes would leak it.
 */
static int kwp_unwrap(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len) {
    alignas(16) uint8_t a[8];
    size_t padded_len;
    uint64_t msg_len, bad, pad_len, pad_mask;
    int rc;

    if (!ctx->keyed)
        return HWC_ERR_STATE;
    if ((rc = kwp_unwrap_lengths(in_len, out_cap)) != HWC_OK)
        return rc;
    padded_len = in_len - 8;

    if (padded_len == 8) {
        alignas(16) uint8_t b[16];
        memcpy(b, in, 16);
        kw_unwrap_block(ctx, b);
        memcpy(a, b, 8);
        memcpy(out, b + 8, 8);
        hwc_wipe(b, sizeof b);
    } else {
        memcpy(a, in, 8); /* before the move: out may equal in */
        memmove(out, in + 8, padded_len);
        kw_unwrap_semiblocks(ctx, a, out, padded_len / 8);
    }

    /* Checks of §6.3 without a branch or an address that depends on the
     * decrypted values: the IV prefix, 8 * (n - 1) < length <= 8 * n, and
     * zero padding. The padding is the last padded_len - length bytes, 0..7
     * when the length is in range (& 7 keeps the shift defined otherwise,
     * when the range check has already failed). */
    msg_len = hwc_load_be32(a + 4);
    bad = (uint64_t)(hwc_ct_memcmp(a, kwp_iv_prefix, 4) != 0);
    bad |= kw_ct_lt(msg_len, (uint64_t)padded_len - 7);
    bad |= kw_ct_lt((uint64_t)padded_len, msg_len);
    pad_len = ((uint64_t)padded_len - msg_len) & 7;
    pad_mask = ((uint64_t)1 << (8 * pad_len)) - 1;
    bad |= (uint64_t)((hwc_load_be64(out + padded_len - 8) & pad_mask) != 0);
    hwc_wipe(a, sizeof a);
    HWC_DECLASSIFY(&bad, sizeof bad); /* the integrity check's result is public */
    if (bad) {
        hwc_wipe(out, out_cap);
        *out_len = 0;
        return HWC_ERR_AUTH;
    }
    HWC_DECLASSIFY(&msg_len, sizeof msg_len); /* so is the length of a valid message */
    *out_len = (size_t)msg_len;
    return HWC_OK;
}

const hwc_mode_ops hwc_mode_kw_ops = {
    .set_key = kw_set_key,
    .wrap = kw_wrap,
    .unwrap = kw_unwrap,
    .wrap_lengths = kw_check_lengths,
};

const hwc_mode_ops hwc_mode_kwp_ops = {
    .set_key = kw_set_key,
    .wrap = kwp_wrap,
    .unwrap = kwp_unwrap,
    .wrap_lengths = kwp_check_lengths,
};
