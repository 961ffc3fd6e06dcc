/*
 * CMAC (NIST SP 800-38B, RFC 4493): the streaming core shared with SIV's S2V,
 * and the CMAC mode (aes-128-cmac, sm4-cmac, ...).
 *
 * The core keeps the last 1..16 bytes of the message back: only at finish is
 * it known whether that block is complete (XOR K1) or must be padded with
 * 10* (XOR K2). Everything before it goes through k_cbc_mac in one call per
 * absorb, so a hardware CBC-MAC kernel sees long runs.
 *
 * The mode: no IV; the message comes through aad() in any number of pieces;
 * mac_final() returns the tag truncated to 1..16 bytes (SP 800-38B advises at
 * least 8; the choice is the caller's). After mac_final a new message needs
 * a new start (hwc_init with a NULL key keeps the key schedule).
 */
#include "mode.h"

#define CMAC_TAG_MIN 1
#define CMAC_TAG_MAX 16

/* GF(2^128) doubling (mode.h): CMAC subkeys, SIV's S2V, OCB's L table. */
void hwc_gf128_dbl_be(uint8_t out[16], const uint8_t in[16]) {
    /* Masked reduction: the input is key-derived (CMAC/OCB subkeys). */
    uint8_t fold = (uint8_t)(0x87u & (0u - (unsigned)(in[0] >> 7)));

    /* Front to back: in[i + 1] is read before out[i + 1] is written, so
     * out == in works. */
    for (int i = 0; i < 15; i++)
        out[i] = (uint8_t)((in[i] << 1) | (in[i + 1] >> 7));
    out[15] = (uint8_t)((in[15] << 1) ^ fold);
}

void hwc_cmac_init(hwc_cmac_state *st, const hwc_block_impl *im, const hwc_ks *ks) {
    alignas(16) uint8_t l[16] = {0};
    k_ecb_enc(im, ks, l, l, 1);
    hwc_gf128_dbl_be(st->k1, l);
    hwc_gf128_dbl_be(st->k2, st->k1);
    hwc_wipe(l, sizeof l);
    hwc_cmac_reset(st);
}

void hwc_cmac_reset(hwc_cmac_state *st) {
    hwc_wipe(st->mac, sizeof st->mac);
    hwc_wipe(st->buf, sizeof st->buf);
    st->buf_len = 0;
}

void hwc_cmac_absorb(hwc_cmac_state *st, const hwc_block_impl *im, const hwc_ks *ks,
                     const uint8_t *in, size_t len) {
    if (len == 0)
        return;
    /* Top up the held-back block; it is absorbed only once more data
     * proves it is not the last one. */
    size_t take = HWC_BLOCK - st->buf_len;
    if (take > len)
        take = len;
    memcpy(st->buf + st->buf_len, in, take);
    st->buf_len += take;
    in += take;
    len -= take;
    if (len == 0)
        return;
    k_cbc_mac(im, ks, st->mac, st->buf, 1);
    /* Absorb all but the last 1..16 bytes straight from the input. */
    size_t nblocks = (len - 1) / HWC_BLOCK;
    k_cbc_mac(im, ks, st->mac, in, nblocks);
    in += nblocks * HWC_BLOCK;
    len -= nblocks * HWC_BLOCK;
    memcpy(st->buf, in, len);
    st->buf_len = len;
}

void hwc_cmac_finish(hwc_cmac_state *st, const hwc_block_impl *im, const hwc_ks *ks, uint8_t mac[16]) {
    if (st->buf_len == HWC_BLOCK) {
        hwc_xor(st->buf, st->buf, st->k1, HWC_BLOCK);
    } else {
        /* Empty message or partial last block: pad with 10*. */
        st->buf[st->buf_len] = 0x80;
        memset(st->buf + st->buf_len + 1, 0, HWC_BLOCK - st->buf_len - 1);
        hwc_xor(st->buf, st->buf, st->k2, HWC_BLOCK);
    }
    k_cbc_mac(im, ks, st->mac, st->buf, 1);
    memcpy(mac, st->mac, 16);
    hwc_cmac_reset(st);
}

/* ------------------------------------------------------------ the mode */

enum cmac_phase {
    CMAC_IDLE = 0, /* keyed, no message started */
    CMAC_MESSAGE,  /* started: message bytes may come */
    CMAC_DONE      /* mac_final done */
};

typedef struct cmac_mode_state {
    hwc_cmac_state core;
    int phase;
    int keyed;
} cmac_mode_state;
HWC_MODE_STATE_FITS(cmac_mode_state);

static cmac_mode_state *cmac_get(hwc_ctx *ctx) {
    return HWC_MODE_STATE(ctx, cmac_mode_state);
}

static int cmac_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    int rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    cmac_mode_state *st = cmac_get(ctx);
    hwc_cmac_init(&st->core, ctx->impl, &ctx->ks[0]);
    st->phase = CMAC_IDLE;
    st->keyed = 1;
    return HWC_OK;
}

static int cmac_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    (void)iv;
    cmac_mode_state *st = cmac_get(ctx);
    if (iv_len != 0)
        return HWC_ERR_IV_LEN;
    if (!st->keyed)
        return HWC_ERR_STATE;
    hwc_cmac_reset(&st->core);
    st->phase = CMAC_MESSAGE;
    return HWC_OK;
}

static int cmac_message(hwc_ctx *ctx, const uint8_t *msg, size_t msg_len) {
    cmac_mode_state *st = cmac_get(ctx);
    if (st->phase != CMAC_MESSAGE)
        return HWC_ERR_STATE;
    hwc_cmac_absorb(&st->core, ctx->impl, &ctx->ks[0], msg, msg_len);
    return HWC_OK;
}

static int cmac_mac_final(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    cmac_mode_state *st = cmac_get(ctx);
    if (st->phase != CMAC_MESSAGE)
        return HWC_ERR_STATE;
    if (tag_len < CMAC_TAG_MIN || tag_len > CMAC_TAG_MAX)
        return HWC_ERR_TAG_LEN;
    alignas(16) uint8_t full_tag[16];
    hwc_cmac_finish(&st->core, ctx->impl, &ctx->ks[0], full_tag);
    memcpy(tag, full_tag, tag_len);
    hwc_wipe(full_tag, sizeof full_tag);
    st->phase = CMAC_DONE;
    return HWC_OK;
}

const hwc_mode_ops hwc_mode_cmac_ops = {
    .set_key = cmac_set_key,
    .check_iv = NULL, /* no IV */
    .start = cmac_start,
    .aad = cmac_message,
    .mac_final = cmac_mac_final,
};
