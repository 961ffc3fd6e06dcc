/*
 * AES-GCM-SIV (RFC 8452): nonce-misuse-resistant AEAD.
 *
 * ctx->ks[0] holds the key-generating key. Each nonce derives a
 * message-authentication key (POLYVAL) and a message-encryption key
 * (schedule in ctx->ks[1]). The tag is the encrypted POLYVAL of the AAD,
 * the plaintext and their lengths; it also seeds CTR, so encryption needs
 * all of the plaintext before producing output: the data comes in one
 * update() call. AAD may be streamed over several hwc_aad() calls.
 */
#include "modes/siv_flow.h"

/* RFC 8452 §6: plaintext and AAD are at most 2^36 bytes each. */
#define GCM_SIV_MAX_LEN ((uint64_t)1 << 36)
#define GCM_SIV_NONCE_LEN 12

typedef struct gcm_siv_state {
    hwc_ghash_key polyval_key;       /* per nonce: message-authentication key */
    alignas(16) uint8_t acc[16];     /* POLYVAL accumulator */
    alignas(16) uint8_t aad_buf[16]; /* AAD bytes short of a whole block */
    alignas(16) uint8_t nonce[16];   /* first 12 bytes used */
    hwc_siv_flow flow;               /* phases and the tag */
    uint64_t aad_len;                /* AAD bytes so far */
    size_t aad_buf_len;
    size_t key_len;                  /* key-generating key: 16 or 32 */
} gcm_siv_state;
HWC_MODE_STATE_FITS(gcm_siv_state);

/* POLYVAL over data zero-padded to whole blocks. */
static void gcm_siv_absorb_padded(gcm_siv_state *st, const hwc_ghash_impl *g, const uint8_t *data, size_t len) {
    size_t full = len / 16, rest = len % 16;

    if (full)
        hwc_polyval_update(g, &st->polyval_key, st->acc, data, full);
    if (rest) {
        alignas(16) uint8_t block[16] = {0};
        memcpy(block, data + full * 16, rest);
        hwc_polyval_update(g, &st->polyval_key, st->acc, block, 1);
        hwc_wipe(block, sizeof block);
    }
}

/* Tag from the plaintext already absorbed (RFC 8452 §4). */
static void gcm_siv_compute_tag(gcm_siv_state *st, const hwc_ctx *ctx, uint64_t msg_len, uint8_t tag[16]) {
    alignas(16) uint8_t block[16];

    hwc_store_le64(block, st->aad_len * 8);
    hwc_store_le64(block + 8, msg_len * 8);
    hwc_polyval_update(ctx->ghash, &st->polyval_key, st->acc, block, 1);

    memcpy(block, st->acc, 16);
    hwc_xor(block, block, st->nonce, GCM_SIV_NONCE_LEN);
    block[15] &= 0x7f;
    k_ecb_enc(ctx->impl, &ctx->ks[1], tag, block, 1);
    hwc_wipe(block, sizeof block);
}

/* CTR from the tag with its top bit set; the counter is the first 4 bytes,
 * little-endian, wrapping mod 2^32 without carry into the rest (k_ctr32le);
 * a last partial block through a zero block. */
static void gcm_siv_ctr(const hwc_ctx *ctx, const uint8_t tag[16], uint8_t *out, const uint8_t *in, size_t len) {
    alignas(16) uint8_t ctr[16];
    alignas(16) uint8_t last[16];
    const size_t whole = len / 16, rest = len % 16;

    memcpy(ctr, tag, 16);
    ctr[15] |= 0x80;
    if (whole)
        k_ctr32le(ctx->impl, &ctx->ks[1], ctr, out, in, whole);
    if (rest) {
        memset(last, 0, sizeof last);
        memcpy(last, in + 16 * whole, rest);
        k_ctr32le(ctx->impl, &ctx->ks[1], ctr, last, last, 1);
        memcpy(out + 16 * whole, last, rest);
    }
    hwc_wipe(ctr, sizeof ctr);
    hwc_wipe(last, sizeof last);
}

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
        hwc_wipe(st->aad_buf, sizeof st->aad_buf);
        memset(st->nonce, 0, sizeof st->nonce);
        memcpy(st->nonce, iv, GCM_SIV_NONCE_LEN);
        st->aad_len = 0;
        st->aad_buf_len = 0;
        hwc_siv_flow_begin(&st->flow);
    }
    hwc_wipe(blocks, sizeof blocks);
    hwc_wipe(auth_key, sizeof auth_key);
    hwc_wipe(enc_key, sizeof enc_key);
    return rc;
}

static int gcm_siv_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);
    size_t full;

    if (st->flow.phase != HWC_SIV_AAD)
        return HWC_ERR_STATE;
    if ((uint64_t)aad_len > GCM_SIV_MAX_LEN - st->aad_len)
        return HWC_ERR_DATA_LEN;
    st->flow.aad_called = 1;
    if (aad_len == 0)
        return HWC_OK;
    st->aad_len += aad_len;

    if (st->aad_buf_len) {
        size_t take = 16 - st->aad_buf_len;
        if (take > aad_len)
            take = aad_len;
        memcpy(st->aad_buf + st->aad_buf_len, aad, take);
        st->aad_buf_len += take;
        aad += take;
        aad_len -= take;
        if (st->aad_buf_len < 16)
            return HWC_OK;
        hwc_polyval_update(ctx->ghash, &st->polyval_key, st->acc, st->aad_buf, 1);
        st->aad_buf_len = 0;
    }
    full = aad_len / 16;
    if (full)
        hwc_polyval_update(ctx->ghash, &st->polyval_key, st->acc, aad, full);
    st->aad_buf_len = aad_len % 16;
    if (st->aad_buf_len)
        memcpy(st->aad_buf, aad + full * 16, st->aad_buf_len);
    return HWC_OK;
}

static hwc_siv_flow *gcm_siv_flow_of(hwc_ctx *ctx) { return &HWC_MODE_STATE(ctx, gcm_siv_state)->flow; }

/* The AAD ends where the plaintext begins: pad its last partial block,
 * absorb the plaintext, then the lengths. */
static void gcm_siv_tag_of(hwc_ctx *ctx, const uint8_t *pt, size_t len, uint8_t tag[16]) {
    gcm_siv_state *st = HWC_MODE_STATE(ctx, gcm_siv_state);

    if (st->aad_buf_len) {
        memset(st->aad_buf + st->aad_buf_len, 0, 16 - st->aad_buf_len);
        hwc_polyval_update(ctx->ghash, &st->polyval_key, st->acc, st->aad_buf, 1);
        hwc_wipe(st->aad_buf, sizeof st->aad_buf);
        st->aad_buf_len = 0;
    }
    gcm_siv_absorb_padded(st, ctx->ghash, pt, len);
    gcm_siv_compute_tag(st, ctx, (uint64_t)len, tag);
}

static const hwc_siv_hooks gcm_siv_hooks = {
    .flow = gcm_siv_flow_of,
    .compute_tag = gcm_siv_tag_of,
    .ctr = gcm_siv_ctr,
    .max_data_len = GCM_SIV_MAX_LEN,
};

static int gcm_siv_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    return hwc_siv_flow_update(&gcm_siv_hooks, ctx, out, out_len, in, in_len);
}

static int gcm_siv_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    (void)out;
    return hwc_siv_flow_final(&gcm_siv_hooks, ctx, out_len);
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
    .set_tag = gcm_siv_set_tag,
    .get_tag = gcm_siv_get_tag,
};
