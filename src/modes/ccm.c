/*
 * CCM (NIST SP 800-38C, RFC 3610).
 *
 * Rules this file owns:
 *   - Nonce: 7..13 bytes; the length field is q = 15 - nonce_len bytes.
 *   - Lengths first: CCM's first block B0 encodes the message length, so
 *     set_lengths(aad_len, msg_len) is required after start and before any
 *     aad/update/final (else HWC_ERR_STATE). We do not guess the length from
 *     a single update as OpenSSL may: one rule is easier to get right.
 *     msg_len must fit in q bytes (else HWC_ERR_DATA_LEN).
 *   - AAD and data stream in any pieces but must add up exactly to the
 *     declared lengths: a call that would exceed one fails with
 *     HWC_ERR_DATA_LEN before touching anything, and so does final (or the
 *     first update) when declared AAD or data is missing. AAD only before data.
 *   - Tag: 4..16 bytes, even (default 16). The tag length is part of B0, so it
 *     is fixed when the MAC starts (the first aad, update or final);
 *     set_tag_len after that is HWC_ERR_STATE, and set_tag with another
 *     length is HWC_ERR_TAG_LEN. The tag is compared in constant time.
 *
 * Counter: A_i = flags || nonce || [i]_q, data from i = 1. msg_len < 2^(8q)
 * bytes means i <= 2^(8q-4), so the counter never carries out of its q
 * bytes and k_ctr128's full-width increment is exactly CCM's. (k_ctr32 would
 * wrap its 4 bytes when q > 4 and the message is over 2^36 bytes.)
 *
 * Bulk: the back end's fused ccm_enc/ccm_dec when it has them (CTR in the
 * latency shadow of the serial CBC-MAC, one pass); else CBC-MAC over the
 * plaintext via k_cbc_mac and CTR via k_ctr128, in chunks of
 * CCM_CHUNK_BLOCKS so the data stays in L1 between the two passes.
 */
#include "mode.h"

#define CCM_NONCE_MIN 7
#define CCM_NONCE_MAX 13
#define CCM_TAG_MIN 4
#define CCM_TAG_MAX 16
#define CCM_DEFAULT_TAG 16
#define CCM_CHUNK_BLOCKS 256

enum ccm_phase {
    CCM_IDLE = 0, /* keyed, no message started */
    CCM_HEADER,   /* started: lengths, then AAD */
    CCM_DATA,     /* data has started: AAD closed */
    CCM_DONE      /* final done */
};

typedef struct ccm_state {
    alignas(16) uint8_t mac[16];        /* running CBC-MAC */
    alignas(16) uint8_t ctr[16];        /* A_i of the next keystream block */
    alignas(16) uint8_t pending[16];    /* partial block not yet MACed (AAD, then plaintext) */
    alignas(16) uint8_t keystream[16];  /* keystream of the current partial data block */
    alignas(16) uint8_t tag[16];        /* encryption: tag after final; decryption: expected tag */
    alignas(16) uint8_t nonce[16];
    uint64_t aad_len;                   /* declared */
    uint64_t msg_len;
    uint64_t aad_seen;                  /* arrived so far */
    uint64_t msg_seen;
    size_t nonce_len;
    size_t pending_len;                 /* in the data phase, also the keystream position */
    size_t tag_len;
    int phase;
    int lengths_set;
    int mac_started;                    /* B0 absorbed: tag length fixed */
    int have_tag;
    int keyed;
} ccm_state;
HWC_MODE_STATE_FITS(ccm_state);

static ccm_state *ccm_get(hwc_ctx *ctx) {
    return HWC_MODE_STATE(ctx, ccm_state);
}

static int ccm_tag_len_ok(size_t tag_len) {
    return tag_len >= CCM_TAG_MIN && tag_len <= CCM_TAG_MAX && tag_len % 2 == 0;
}

static size_t ccm_default_tag_len(const hwc_cipher *cipher) {
    return ccm_tag_len_ok(cipher->tag_len) ? cipher->tag_len : CCM_DEFAULT_TAG;
}

static void ccm_reset_message(ccm_state *st) {
    hwc_wipe(st->mac, sizeof st->mac);
    hwc_wipe(st->ctr, sizeof st->ctr);
    hwc_wipe(st->pending, sizeof st->pending);
    hwc_wipe(st->keystream, sizeof st->keystream);
    hwc_wipe(st->tag, sizeof st->tag);
    memset(st->nonce, 0, sizeof st->nonce);
    st->aad_len = st->msg_len = st->aad_seen = st->msg_seen = 0;
    st->nonce_len = 0;
    st->pending_len = 0;
    st->phase = CCM_IDLE;
    st->lengths_set = 0;
    st->mac_started = 0;
    st->have_tag = 0;
}

static int ccm_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    int rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    ccm_state *st = ccm_get(ctx);
    ccm_reset_message(st);
    st->tag_len = ccm_default_tag_len(ctx->cipher);
    st->keyed = 1;
    return HWC_OK;
}

static int ccm_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    if (iv_len < CCM_NONCE_MIN || iv_len > CCM_NONCE_MAX)
        return HWC_ERR_IV_LEN;
    return HWC_OK;
}

static int ccm_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    ccm_state *st = ccm_get(ctx);
    int rc = ccm_check_iv(ctx->cipher, iv_len);
    if (rc != HWC_OK)
        return rc;
    if (!st->keyed)
        return HWC_ERR_STATE;
    ccm_reset_message(st);
    st->tag_len = ccm_default_tag_len(ctx->cipher);
    memcpy(st->nonce, iv, iv_len);
    st->nonce_len = iv_len;
    st->phase = CCM_HEADER;
    return HWC_OK;
}

static int ccm_set_lengths(hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len) {
    ccm_state *st = ccm_get(ctx);
    if (st->phase != CCM_HEADER || st->mac_started)
        return HWC_ERR_STATE;
    size_t q = 15 - st->nonce_len;
    if (q < 8 && (msg_len >> (8 * q)) != 0)
        return HWC_ERR_DATA_LEN;
    st->aad_len = aad_len;
    st->msg_len = msg_len;
    st->lengths_set = 1;
    return HWC_OK;
}

/* Counter block A_i with i = 0 (the other counters follow by increment). */
static void ccm_counter_block(const ccm_state *st, uint8_t a[16]) {
    size_t q = 15 - st->nonce_len;
    memset(a, 0, 16);
    a[0] = (uint8_t)(q - 1);
    memcpy(a + 1, st->nonce, st->nonce_len);
}

/* MAC B0 and queue the AAD length encoding: the first aad/update/final. */
static void ccm_start_mac(const hwc_ctx *ctx, ccm_state *st) {
    size_t q = 15 - st->nonce_len;
    alignas(16) uint8_t b0[16];
    b0[0] = (uint8_t)((st->aad_len != 0 ? 0x40 : 0) | (((st->tag_len - 2) / 2) << 3) | (q - 1));
    memcpy(b0 + 1, st->nonce, st->nonce_len);
    uint64_t len = st->msg_len;
    for (size_t i = 0; i < q; i++, len >>= 8)
        b0[15 - i] = (uint8_t)len;
    memset(st->mac, 0, sizeof st->mac);
    k_cbc_mac(ctx->impl, &ctx->ks[0], st->mac, b0, 1);

    /* SP 800-38C A.2.2: 2, 6 or 10 bytes of length before the AAD. */
    uint64_t a = st->aad_len;
    st->pending_len = 0;
    if (a == 0) {
        /* no AAD block at all */
    } else if (a < 0xFF00u) {
        st->pending[0] = (uint8_t)(a >> 8);
        st->pending[1] = (uint8_t)a;
        st->pending_len = 2;
    } else if (a <= 0xFFFFFFFFu) {
        st->pending[0] = 0xFF;
        st->pending[1] = 0xFE;
        hwc_store_be32(st->pending + 2, (uint32_t)a);
        st->pending_len = 6;
    } else {
        st->pending[0] = 0xFF;
        st->pending[1] = 0xFF;
        hwc_store_be64(st->pending + 2, a);
        st->pending_len = 10;
    }

    ccm_counter_block(st, st->ctr);
    hwc_ctr128_inc(st->ctr); /* A_1 */
    st->mac_started = 1;
}

/* CBC-MAC `len` bytes of a stream whose partial block is st->pending. */
static void ccm_mac_stream(const hwc_ctx *ctx, ccm_state *st, const uint8_t *in, size_t len) {
    if (len == 0)
        return; /* `in` may be NULL */
    if (st->pending_len != 0) {
        size_t take = HWC_BLOCK - st->pending_len;
        if (take > len)
            take = len;
        memcpy(st->pending + st->pending_len, in, take);
        st->pending_len += take;
        in += take;
        len -= take;
        if (st->pending_len < HWC_BLOCK)
            return;
        k_cbc_mac(ctx->impl, &ctx->ks[0], st->mac, st->pending, 1);
        st->pending_len = 0;
    }
    size_t nblocks = len / HWC_BLOCK;
    k_cbc_mac(ctx->impl, &ctx->ks[0], st->mac, in, nblocks);
    in += nblocks * HWC_BLOCK;
    len -= nblocks * HWC_BLOCK;
    memcpy(st->pending, in, len);
    st->pending_len = len;
}

/* Zero-pad and MAC the partial block, if any (end of AAD or of data). */
static void ccm_flush_pending(const hwc_ctx *ctx, ccm_state *st) {
    if (st->pending_len == 0)
        return;
    memset(st->pending + st->pending_len, 0, HWC_BLOCK - st->pending_len);
    k_cbc_mac(ctx->impl, &ctx->ks[0], st->mac, st->pending, 1);
    st->pending_len = 0;
}

static int ccm_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    ccm_state *st = ccm_get(ctx);
    if (st->phase != CCM_HEADER || !st->lengths_set)
        return HWC_ERR_STATE;
    if ((uint64_t)aad_len > st->aad_len - st->aad_seen)
        return HWC_ERR_DATA_LEN;
    if (!st->mac_started)
        ccm_start_mac(ctx, st);
    st->aad_seen += aad_len;
    ccm_mac_stream(ctx, st, aad, aad_len);
    return HWC_OK;
}

/* Close the AAD part: after it the pending block holds plaintext. */
static void ccm_begin_data(const hwc_ctx *ctx, ccm_state *st) {
    if (!st->mac_started)
        ccm_start_mac(ctx, st);
    if (st->phase == CCM_HEADER) {
        ccm_flush_pending(ctx, st);
        st->phase = CCM_DATA;
    }
}

/* Bytes inside the current partial block: XOR with the saved keystream and
 * keep the plaintext for the CBC-MAC. Each input byte is read before its
 * output byte is written, so out == in works. */
static void ccm_crypt_partial(ccm_state *st, int encrypt, uint8_t *out, const uint8_t *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint8_t x = in[i];
        uint8_t y = (uint8_t)(x ^ st->keystream[st->pending_len]);
        out[i] = y;
        st->pending[st->pending_len++] = encrypt ? x : y;
    }
}

static int ccm_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    ccm_state *st = ccm_get(ctx);
    if ((st->phase != CCM_HEADER && st->phase != CCM_DATA) || !st->lengths_set)
        return HWC_ERR_STATE;
    if (st->aad_seen != st->aad_len)
        return HWC_ERR_DATA_LEN; /* declared AAD still missing */
    if ((uint64_t)in_len > st->msg_len - st->msg_seen)
        return HWC_ERR_DATA_LEN;
    ccm_begin_data(ctx, st);
    st->msg_seen += in_len;
    *out_len = in_len;

    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *ks = &ctx->ks[0];
    int encrypt = ctx->encrypt;
    size_t done = 0;

    if (st->pending_len != 0) {
        size_t take = HWC_BLOCK - st->pending_len;
        if (take > in_len)
            take = in_len;
        ccm_crypt_partial(st, encrypt, out, in, take);
        done = take;
        if (st->pending_len == HWC_BLOCK) {
            k_cbc_mac(im, ks, st->mac, st->pending, 1);
            st->pending_len = 0;
        }
    }

    size_t nblocks = (in_len - done) / HWC_BLOCK;
    if (nblocks != 0 && (encrypt ? im->ccm_enc : im->ccm_dec) != NULL) {
        /* Fused kernel: CTR and CBC-MAC in one pass, no chunking needed. */
        if (encrypt)
            im->ccm_enc(ks, st->ctr, st->mac, out + done, in + done, nblocks);
        else
            im->ccm_dec(ks, st->ctr, st->mac, out + done, in + done, nblocks);
        done += nblocks * HWC_BLOCK;
        nblocks = 0;
    }
    while (nblocks != 0) {
        size_t n = nblocks < CCM_CHUNK_BLOCKS ? nblocks : CCM_CHUNK_BLOCKS;
        /* The MAC covers the plaintext: before CTR when encrypting (in place,
         * CTR overwrites it), after it when decrypting. */
        if (encrypt) {
            k_cbc_mac(im, ks, st->mac, in + done, n);
            k_ctr128(im, ks, st->ctr, out + done, in + done, n);
        } else {
            k_ctr128(im, ks, st->ctr, out + done, in + done, n);
            k_cbc_mac(im, ks, st->mac, out + done, n);
        }
        done += n * HWC_BLOCK;
        nblocks -= n;
    }

    if (done < in_len) {
        memset(st->keystream, 0, sizeof st->keystream);
        k_ctr128(im, ks, st->ctr, st->keystream, st->keystream, 1);
        ccm_crypt_partial(st, encrypt, out + done, in + done, in_len - done);
    }
    return HWC_OK;
}

static int ccm_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    (void)out;
    ccm_state *st = ccm_get(ctx);
    if ((st->phase != CCM_HEADER && st->phase != CCM_DATA) || !st->lengths_set)
        return HWC_ERR_STATE;
    if (!ctx->encrypt && !st->have_tag)
        return HWC_ERR_STATE;
    if (st->aad_seen != st->aad_len || st->msg_seen != st->msg_len)
        return HWC_ERR_DATA_LEN;
    if (out_len != NULL)
        *out_len = 0;

    ccm_begin_data(ctx, st);
    ccm_flush_pending(ctx, st);
    /* T = MSB_t(CBC-MAC) ^ MSB_t(E(A_0)); keep all 16 bytes, use tag_len. */
    alignas(16) uint8_t s0[16];
    ccm_counter_block(st, s0);
    k_ecb_enc(ctx->impl, &ctx->ks[0], s0, s0, 1);
    hwc_xor(s0, s0, st->mac, 16);

    int rc = HWC_OK;
    if (ctx->encrypt) {
        memcpy(st->tag, s0, 16);
        st->have_tag = 1;
    } else if (hwc_ct_memcmp(s0, st->tag, st->tag_len) != 0) {
        rc = HWC_ERR_AUTH;
    }
    hwc_wipe(s0, sizeof s0);
    hwc_wipe(st->keystream, sizeof st->keystream);
    hwc_wipe(st->pending, sizeof st->pending);
    st->phase = CCM_DONE;
    return rc;
}

/* Before AAD or data (B0 encodes it); when decrypting, before set_tag. */
static int ccm_set_tag_len(hwc_ctx *ctx, size_t tag_len) {
    ccm_state *st = ccm_get(ctx);
    if (st->phase != CCM_HEADER || st->mac_started || (!ctx->encrypt && st->have_tag))
        return HWC_ERR_STATE;
    if (!ccm_tag_len_ok(tag_len))
        return HWC_ERR_TAG_LEN;
    st->tag_len = tag_len;
    return HWC_OK;
}

static int ccm_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    ccm_state *st = ccm_get(ctx);
    if (ctx->encrypt || (st->phase != CCM_HEADER && st->phase != CCM_DATA))
        return HWC_ERR_STATE;
    if (!ccm_tag_len_ok(tag_len) || (st->mac_started && tag_len != st->tag_len))
        return HWC_ERR_TAG_LEN;
    memcpy(st->tag, tag, tag_len);
    st->tag_len = tag_len;
    st->have_tag = 1;
    return HWC_OK;
}

static int ccm_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    ccm_state *st = ccm_get(ctx);
    if (!ctx->encrypt || st->phase != CCM_DONE || !st->have_tag)
        return HWC_ERR_STATE;
    if (tag_len != st->tag_len)
        return HWC_ERR_TAG_LEN;
    memcpy(tag, st->tag, tag_len);
    return HWC_OK;
}

const hwc_mode_ops hwc_mode_ccm_ops = {
    .set_key = ccm_set_key,
    .check_iv = ccm_check_iv,
    .start = ccm_start,
    .aad = ccm_aad,
    .update = ccm_update,
    .final = ccm_final,
    .set_tag_len = ccm_set_tag_len,
    .set_lengths = ccm_set_lengths,
    .set_tag = ccm_set_tag,
    .get_tag = ccm_get_tag,
};
