/*
 * AES-GCM-SIV (RFC 8452): nonce-misuse-resistant AEAD.
 *
 * ctx->ks[0] holds the key-generating key. Each nonce derives a
 * message-authentication key (POLYVAL) and a message-encryption key
 * (schedule in ctx->ks[1]). The tag is the encrypted POLYVAL of the AAD,
 * the plaintext and their lengths; it also seeds CTR, so encryption needs
 * all of the plaintext before producing output: the data comes in one
 * update() call.  Decryption streams once set_lengths() has declared the
 * length (siv_flow.h).  AAD may be streamed over several hwc_aad() calls.
 */
#include "modes/siv_flow.h"

/* RFC 8452 §6: plaintext and AAD are at most 2^36 bytes each. */
#define GCM_SIV_MAX_LEN ((uint64_t)1 << 36)
#define GCM_SIV_NONCE_LEN 12

typedef struct gcm_siv_state {
    hwc_ghash_key polyval_key;          /* per nonce: message-authentication key */
    alignas(16) uint8_t acc[16];        /* POLYVAL accumulator */
    alignas(16) uint8_t buf[16];        /* AAD, then plaintext, bytes short of a whole block */
    alignas(16) uint8_t nonce[16];      /* first 12 bytes used */
    hwc_siv_ctr ctr;                    /* bytes 0-3 of its counter block count (k_ctr32le) */
    hwc_siv_flow flow;                  /* phases, the tag, the AAD length */
    uint64_t msg_len;
    size_t buf_len;
    size_t key_len;                     /* key-generating key: 16 or 32 */
} gcm_siv_state;
HWC_MODE_STATE_FITS(gcm_siv_state);

/* POLYVAL over a stream (the AAD, then the plaintext): whole blocks at
 * once, the rest held in buf. */
static void gcm_siv_absorb_stream(gcm_siv_state *st, const hwc_ghash_impl *g, const uint8_t *data, size_t len) {
    size_t full;

    if (st->buf_len) {
        size_t take = 16 - st->buf_len;
        if (take > len)
            take = len;
        memcpy(st->buf + st->buf_len, data, take);
        st->buf_len += take;
        data += take;
        len -= take;
        if (st->buf_len < 16)
            return;
        hwc_polyval_update(g, &st->polyval_key, st->acc, st->buf, 1);
        st->buf_len = 0;
    }
    full = len / 16;
    if (full)
        hwc_polyval_update(g, &st->polyval_key, st->acc, data, full);
    st->buf_len = len % 16;
    if (st->buf_len)
        memcpy(st->buf, data + full * 16, st->buf_len);
}

/* The end of the AAD or of the plaintext: its last partial block, zero-padded. */
static void gcm_siv_absorb_pad(gcm_siv_state *st, const hwc_ghash_impl *g) {
    if (st->buf_len) {
        memset(st->buf + st->buf_len, 0, 16 - st->buf_len);
        hwc_polyval_update(g, &st->polyval_key, st->acc, st->buf, 1);
        hwc_wipe(st->buf, sizeof st->buf);
        st->buf_len = 0;
    }
}

/* The hooks of siv_flow.h: the plaintext goes through POLYVAL as it
 * comes; the tag is the encrypted POLYVAL of AAD, plaintext and lengths
 * (RFC 8452 §4). */
static void gcm_siv_data_begin(hwc_ctx *ctx, uint64_t msg_len) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    gcm_siv_absorb_pad(st, ctx->ghash); /* the AAD ends where the plaintext begins */
    st->msg_len = msg_len;
}

static void gcm_siv_absorb(hwc_ctx *ctx, const uint8_t *pt, size_t len) {
    gcm_siv_absorb_stream(HWC_MODE_STATE(ctx, gcm_siv_state), ctx->ghash, pt, len);
}

static void gcm_siv_tag(hwc_ctx *ctx, uint8_t tag[16]) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    alignas(16) uint8_t block[16];

    gcm_siv_absorb_pad(st, ctx->ghash);
    hwc_store_le64(block, st->flow.aad_bytes * 8);
    hwc_store_le64(block + 8, st->msg_len * 8);
    hwc_polyval_update(ctx->ghash, &st->polyval_key, st->acc, block, 1);

    memcpy(block, st->acc, 16);
    hwc_xor(block, block, st->nonce, GCM_SIV_NONCE_LEN);
    block[15] &= 0x7f;
    k_ecb_enc(ctx->impl, &ctx->ks[1], tag, block, 1);
    hwc_wipe(block, sizeof block);
}

/* CTR from the tag with its top bit set; the counter is the first 4 bytes,
 * little-endian, wrapping mod 2^32 without carry into the rest
 * (k_ctr32le); a partial block's unused keystream waits for the next call. */
static void gcm_siv_ctr_begin(hwc_ctx *ctx, const uint8_t tag[16]) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    memcpy(st->ctr.ctr, tag, 16);
    st->ctr.ctr[15] |= 0x80;
    st->ctr.ks_left = 0;
}

static void gcm_siv_ctr(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len) {
    hwc_siv_ctr_xor(&HWC_MODE_STATE(ctx, gcm_siv_state)->ctr, k_ctr32le, ctx->impl, &ctx->ks[1], out, in, len);
}

static void gcm_siv_data_end(hwc_ctx *ctx) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    hwc_siv_ctr_wipe(&st->ctr);
    hwc_wipe(st->buf, sizeof st->buf);
    st->buf_len = 0;
}

static hwc_siv_flow *gcm_siv_flow_of(hwc_ctx *ctx) { return &HWC_MODE_STATE(ctx, gcm_siv_state)->flow; }

static const hwc_siv_hooks gcm_siv_hooks = {
    .flow = gcm_siv_flow_of,
    .data_begin = gcm_siv_data_begin,
    .absorb = gcm_siv_absorb,
    .tag = gcm_siv_tag,
    .ctr_begin = gcm_siv_ctr_begin,
    .ctr = gcm_siv_ctr,
    .data_end = gcm_siv_data_end,
    .max_data_len = GCM_SIV_MAX_LEN,
    .max_aad_len = GCM_SIV_MAX_LEN,
};

static int gcm_siv_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    int rc;

    if (key_len != ctx->cipher->key_len || (key_len != 16 && key_len != 32))
        return HWC_ERR_KEY_LEN;
    rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    hwc_wipe(st, sizeof *st);
    st->key_len = key_len;
    st->flow.phase = HWC_SIV_NO_MESSAGE;
    return HWC_OK;
}

static int gcm_siv_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    return iv_len == GCM_SIV_NONCE_LEN ? HWC_OK : HWC_ERR_IV_LEN;
}

/* Per-nonce key derivation (RFC 8452 §4): block i is E(K, LE32(i) || N);
 * keep the first 8 bytes of each. Blocks 0-1 make the authentication key,
 * blocks 2-3 (2-5 for AES-256) the encryption key. */
static int gcm_siv_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    alignas(16) uint8_t blocks[6 * 16];
    alignas(16) uint8_t auth_key[16];
    alignas(16) uint8_t enc_key[32];
    size_t nblocks, i;
    int rc;

    if (gcm_siv_check_iv(ctx->cipher, iv_len) != HWC_OK)
        return HWC_ERR_IV_LEN;
    if (!ctx->keyed || (st->key_len != 16 && st->key_len != 32))
        return HWC_ERR_STATE;

    nblocks = 2 + st->key_len / 8;
    for (i = 0; i < nblocks; i++) {
        hwc_store_le32(blocks + 16 * i, (uint32_t)i);
        memcpy(blocks + 16 * i + 4, iv, GCM_SIV_NONCE_LEN);
    }
    k_ecb_enc(ctx->impl, &ctx->ks[0], blocks, blocks, nblocks);
    memcpy(auth_key, blocks, 8);
    memcpy(auth_key + 8, blocks + 16, 8);
    for (i = 2; i < nblocks; i++)
        memcpy(enc_key + 8 * (i - 2), blocks + 16 * i, 8);

    rc = hwc_block_set_key(ctx->impl, &ctx->ks[1], enc_key, st->key_len, 0);
    if (rc == HWC_OK) {
        hwc_polyval_init(ctx->ghash, &st->polyval_key, auth_key);
        memset(st->acc, 0, sizeof st->acc);
        hwc_wipe(st->buf, sizeof st->buf);
        memset(st->nonce, 0, sizeof st->nonce);
        memcpy(st->nonce, iv, GCM_SIV_NONCE_LEN);
        gcm_siv_data_end(ctx); /* what an abandoned message left */
        hwc_siv_flow_begin(&st->flow);
    }
    hwc_wipe(blocks, sizeof blocks);
    hwc_wipe(auth_key, sizeof auth_key);
    hwc_wipe(enc_key, sizeof enc_key);
    return rc;
}

static int gcm_siv_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    int rc = hwc_siv_flow_aad_check(&gcm_siv_hooks, &st->flow, aad_len);

    if (rc != HWC_OK)
        return rc;
    hwc_siv_flow_aad_taken(&st->flow, aad_len);
    if (aad_len)
        gcm_siv_absorb_stream(st, ctx->ghash, aad, aad_len);
    return HWC_OK;
}

static int gcm_siv_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    return hwc_siv_flow_update(&gcm_siv_hooks, ctx, out, out_len, in, in_len);
}

static int gcm_siv_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    (void)out;
    return hwc_siv_flow_final(&gcm_siv_hooks, ctx, out_len);
}

static int gcm_siv_set_lengths(hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len) {
    return hwc_siv_flow_set_lengths(&gcm_siv_hooks, ctx, aad_len, msg_len);
}

static int gcm_siv_set_tag_len(hwc_ctx *ctx, size_t tag_len) {
    return hwc_siv_flow_set_tag_len(gcm_siv_flow_of(ctx), ctx, tag_len);
}

static int gcm_siv_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    return hwc_siv_flow_set_tag(gcm_siv_flow_of(ctx), ctx, tag, tag_len);
}

static int gcm_siv_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    return hwc_siv_flow_get_tag(gcm_siv_flow_of(ctx), ctx, tag, tag_len);
}

const hwc_mode_ops hwc_mode_gcm_siv_ops = {
    .set_key = gcm_siv_set_key,
    .check_iv = gcm_siv_check_iv,
    .start = gcm_siv_start,
    .aad = gcm_siv_aad,
    .update = gcm_siv_update,
    .final = gcm_siv_final,
    .set_tag_len = gcm_siv_set_tag_len,
    .set_lengths = gcm_siv_set_lengths,
    .set_tag = gcm_siv_set_tag,
    .get_tag = gcm_siv_get_tag,
};
