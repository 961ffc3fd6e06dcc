/*
 * CBC, and the block-stream engine it shares with ECB (src/modes/ecb.c).
 *
 * Streaming follows OpenSSL's EVP: update takes any length and writes whole
 * blocks, buffering the rest. With PKCS#7 padding on, decryption holds back
 * the last full block until final, which checks and strips the padding.
 * Without padding, final insists that no partial block is left.
 *
 * ECB is this engine with chaining switched off (the cipher's mode says
 * which), so buffering, padding and the in-place rules exist once.
 */
#include "mode.h"

typedef struct cbc_state {
    alignas(16) uint8_t iv[HWC_BLOCK];  /* CBC chaining value: last ciphertext block */
    alignas(16) uint8_t buf[HWC_BLOCK]; /* input bytes not yet processed */
    size_t buf_len;                     /* 0..15, or 16 for a held-back block */
    int padding;                        /* PKCS#7 on; set at key setup, kept across messages */
    int data_seen;                      /* this message has had input: padding is fixed */
    int ready;                          /* start() done and final() not yet */
} cbc_state;
HWC_MODE_STATE_FITS(cbc_state);

static int is_chained(const hwc_ctx *ctx) {
    return ctx->cipher->mode == HWC_MODE_CBC;
}

/* Run whole blocks through the cipher in the context's direction. `iv` is
 * the chaining value to use and update (ignored for ECB). */
static void process_blocks(const hwc_ctx *ctx, uint8_t iv[HWC_BLOCK], uint8_t *out, const uint8_t *in,
                           size_t nblocks) {
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *ks = &ctx->ks[0];

    if (nblocks == 0)
        return;
    if (is_chained(ctx)) {
        if (ctx->encrypt)
            k_cbc_enc(im, ks, iv, out, in, nblocks);
        else
            k_cbc_dec(im, ks, iv, out, in, nblocks);
    } else {
        if (ctx->encrypt)
            k_ecb_enc(im, ks, out, in, nblocks);
        else
            k_ecb_dec(im, ks, out, in, nblocks);
    }
}

/* Compared as integers: relational operators on pointers into different
 * objects are undefined in C. */
static int ranges_overlap(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len) {
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;

    return a_len > 0 && b_len > 0 && pa < pb + b_len && pb < pa + a_len;
}

static int cbc_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    cbc_state *st = HWC_MODE_STATE(ctx, cbc_state);
    int rc;

    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    /* Always prepare decryption too: a later init may keep this key and
     * switch direction without a new key schedule. */
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 1);
    if (rc != HWC_OK)
        return rc;
    memset(st, 0, sizeof *st);
    st->padding = 1;
    return HWC_OK;
}

static int cbc_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    return iv_len == HWC_BLOCK ? HWC_OK : HWC_ERR_IV_LEN;
}

static int cbc_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    cbc_state *st = HWC_MODE_STATE(ctx, cbc_state);

    if (is_chained(ctx) ? iv_len != HWC_BLOCK : iv_len != 0)
        return HWC_ERR_IV_LEN;
    if (iv_len > 0)
        memcpy(st->iv, iv, HWC_BLOCK);
    else
        memset(st->iv, 0, HWC_BLOCK);
    hwc_wipe(st->buf, sizeof st->buf);
    st->buf_len = 0;
    st->data_seen = 0;
    st->ready = 1;
    return HWC_OK;
}

/* cbc_update past its checks, when bytes are buffered, held back or left
 * over (out of line: the whole-block path then saves no registers). */
static __attribute__((noinline)) int cbc_update_general(hwc_ctx *ctx, uint8_t *out, size_t *out_len,
                                                        const uint8_t *in, size_t in_len) {
    cbc_state *st = HWC_MODE_STATE(ctx, cbc_state);
    size_t total, keep, emit;

    total = st->buf_len + in_len;
    keep = total % HWC_BLOCK;
    /* Padded decryption: the last full block may be the padding block, so it
     * waits for final(). */
    if (keep == 0 && total > 0 && st->padding && !ctx->encrypt)
        keep = HWC_BLOCK;
    emit = total - keep;
    if (in_len > 0)
        st->data_seen = 1;

    if (emit == 0) {
        if (in_len > 0)
            memcpy(st->buf + st->buf_len, in, in_len);
        st->buf_len = total;
        *out_len = 0;
        return HWC_OK;
    }

    if (st->buf_len > 0 && ranges_overlap(out, total, in, in_len)) {
        /* Buffered bytes shift the output ahead of the input, so in place a
         * block's output would overwrite input not yet read. Lay the whole
         * stream (buffer, then input) out contiguously in `out`, which has
         * room for in_len + 16 bytes, and process it in place. */
        memmove(out + st->buf_len, in, in_len);
        memcpy(out, st->buf, st->buf_len);
        process_blocks(ctx, st->iv, out, out, emit / HWC_BLOCK);
        memcpy(st->buf, out + emit, keep);
        hwc_wipe(out + emit, keep); /* no staged input left past *out_len */
    } else {
        size_t used = 0; /* input bytes consumed */
        size_t done = 0; /* output bytes written */
        if (st->buf_len > 0) {
            used = HWC_BLOCK - st->buf_len; /* 0 for a held-back full block */
            memcpy(st->buf + st->buf_len, in, used);
            process_blocks(ctx, st->iv, out, st->buf, 1);
            done = HWC_BLOCK;
        }
        process_blocks(ctx, st->iv, out + done, in + used, (emit - done) / HWC_BLOCK);
        used += emit - done;
        memcpy(st->buf, in + used, keep);
    }
    st->buf_len = keep;
    *out_len = emit;
    return HWC_OK;
}

static int cbc_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    cbc_state *st = HWC_MODE_STATE(ctx, cbc_state);

    if (!st->ready)
        return HWC_ERR_STATE;
    if (in_len > SIZE_MAX - 2 * HWC_BLOCK)
        return HWC_ERR_DATA_LEN;
    /* Whole blocks with nothing buffered go straight to the kernel, as the
     * general path would (padded decryption excepted: it holds back the
     * last block): at 16-64 bytes that path's bookkeeping was a fifth of
     * the call. (For encryption this measured two cycles slower in a
     * 16-byte library call on Zen 5, where the IV chain hid the
     * bookkeeping; on Zen 3 it was 78 of the 288 instructions of a 16-byte
     * call through the provider, which ran at 0.85 of OpenSSL's.) */
    if ((st->buf_len | (in_len % HWC_BLOCK)) != 0 || in_len == 0 || (st->padding && !ctx->encrypt))
        return cbc_update_general(ctx, out, out_len, in, in_len);
    st->data_seen = 1;
    *out_len = in_len;
    /* process_blocks' dispatch, written out: through process_blocks (its
     * zero check moved to the callers) 16-byte calls measured 1.01-1.05x
     * slower on Zen 3. */
    const hwc_block_impl *im = ctx->impl;
    const size_t nblocks = in_len / HWC_BLOCK;
    if (!ctx->encrypt) {
        if (is_chained(ctx))
            k_cbc_dec(im, &ctx->ks[0], st->iv, out, in, nblocks);
        else
            k_ecb_dec(im, &ctx->ks[0], out, in, nblocks);
    } else if (is_chained(ctx)) {
        k_cbc_enc(im, &ctx->ks[0], st->iv, out, in, nblocks);
    } else {
        k_ecb_enc(im, &ctx->ks[0], out, in, nblocks);
    }
    return HWC_OK;
}

/* 0 when the block ends in valid PKCS#7 padding (1..16 bytes all equal to
 * the count), else non-zero; *pad_len receives the count. No branch or index
 * depends on the decrypted bytes. */
static unsigned check_padding(const uint8_t block[HWC_BLOCK], size_t *pad_len) {
    uint32_t pad = block[HWC_BLOCK - 1];
    uint32_t bad = 0;

    /* (a - b) >> 31 is 1 exactly when a < b, for a, b < 2^31. */
    bad |= (pad - 1) >> 31;                       /* pad == 0 */
    bad |= ((uint32_t)HWC_BLOCK - pad) >> 31;     /* pad > 16 */
    for (uint32_t i = 0; i < HWC_BLOCK; i++) {
        /* Byte i lies in the padding when i >= 16 - pad. */
        uint32_t in_pad = 1u ^ ((i - ((uint32_t)HWC_BLOCK - pad)) >> 31);
        bad |= (0u - in_pad) & (block[i] ^ pad);
    }
    *pad_len = pad;
    return bad;
}

static int cbc_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    cbc_state *st = HWC_MODE_STATE(ctx, cbc_state);

    if (!st->ready)
        return HWC_ERR_STATE;
    /* api.c lets out be NULL for modes that never write at final; padded
     * final writes (encryption always, decryption unless the block is all
     * padding). */
    if (st->padding && out == NULL)
        return HWC_ERR_NULL;

    if (!st->padding) {
        if (st->buf_len != 0)
            return HWC_ERR_DATA_LEN;
        *out_len = 0;
    } else if (ctx->encrypt) {
        size_t pad = HWC_BLOCK - st->buf_len; /* 1..16: a full block when aligned */
        memset(st->buf + st->buf_len, (int)pad, pad);
        process_blocks(ctx, st->iv, out, st->buf, 1);
        *out_len = HWC_BLOCK;
    } else {
        alignas(16) uint8_t iv[HWC_BLOCK];
        alignas(16) uint8_t block[HWC_BLOCK];
        size_t pad_len;
        unsigned bad;

        /* A padded ciphertext is a non-empty multiple of the block size. */
        if (st->buf_len != HWC_BLOCK)
            return HWC_ERR_DATA_LEN;
        /* Decrypt on copies: a padding error must leave the context as it was. */
        memcpy(iv, st->iv, HWC_BLOCK);
        process_blocks(ctx, iv, block, st->buf, 1);
        bad = check_padding(block, &pad_len);
        HWC_DECLASSIFY(&bad, sizeof bad); /* the check's result is public */
        if (bad) {
            hwc_wipe(block, sizeof block);
            return HWC_ERR_PADDING;
        }
        HWC_DECLASSIFY(&pad_len, sizeof pad_len); /* so is the length of a valid message */
        if (pad_len < HWC_BLOCK)
            memcpy(out, block, HWC_BLOCK - pad_len);
        *out_len = HWC_BLOCK - pad_len;
        memcpy(st->iv, iv, HWC_BLOCK);
        hwc_wipe(block, sizeof block);
    }
    hwc_wipe(st->buf, sizeof st->buf);
    st->buf_len = 0;
    st->ready = 0;
    return HWC_OK;
}

static int cbc_set_padding(hwc_ctx *ctx, int on) {
    cbc_state *st = HWC_MODE_STATE(ctx, cbc_state);

    /* Padding decides what update() holds back: it cannot change mid-message. */
    if (st->data_seen)
        return HWC_ERR_STATE;
    st->padding = on ? 1 : 0;
    return HWC_OK;
}

/* The last ciphertext block processed: a block held back for padding or a
 * partial block is not part of it yet (as OpenSSL's updated IV). */
static void cbc_get_iv(const hwc_ctx *ctx, uint8_t iv[HWC_BLOCK]) {
    memcpy(iv, HWC_MODE_STATE_CONST(ctx, cbc_state)->iv, HWC_BLOCK);
}

const hwc_mode_ops hwc_mode_cbc_ops = {
    .set_key = cbc_set_key,
    .check_iv = cbc_check_iv,
    .start = cbc_start,
    .update = cbc_update,
    .final = cbc_final,
    .set_padding = cbc_set_padding,
    .get_iv = cbc_get_iv,
};
