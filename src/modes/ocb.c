/*
 * OCB3 (RFC 7253) over AES or SM4.
 *
 * Rules this file owns:
 *   - Nonce: 1..15 bytes (default 12).
 *   - Tag: 1..16 bytes (default 16). The tag length is part of the formatted
 *     nonce, so it is fixed when data starts (first update, or final):
 *     set_tag_len after that is HWC_ERR_STATE, and set_tag with another
 *     length is HWC_ERR_TAG_LEN. The tag is compared in constant time.
 *   - AAD (HASH) streams in any pieces, before the first update.
 *   - Data streams in any pieces. update() releases only whole blocks; the
 *     last 0..15 bytes wait for final(), which writes them (RFC 7253 treats
 *     the final partial block differently, so it cannot be released
 *     earlier). update() may thus write up to in_len + 15 bytes.
 *
 * Per key: L_* = E(0), L_$ = double(L_*), L_i = double^(i+1)(L_$) for
 * i = 0..63 (every block index below 2^64). Per nonce: Offset_0 from
 * Ktop = E(nonce with its low 6 bits cleared) and Stretch; Ktop is cached, so
 * consecutive nonces (which differ in the low bits) cost no block call.
 *
 * Bulk: data blocks go through k_ocb_enc / k_ocb_dec in one call per update;
 * AAD blocks are masked with their offsets here and encrypted with k_ecb_enc
 * in runs of OCB_HASH_CHUNK blocks.
 */
#include "mode.h"

#define OCB_NONCE_MIN 1
#define OCB_NONCE_MAX 15
#define OCB_TAG_MIN 1
#define OCB_TAG_MAX 16
#define OCB_DEFAULT_TAG 16
#define OCB_L_COUNT 64
#define OCB_HASH_CHUNK 64

enum ocb_phase {
    OCB_IDLE = 0, /* keyed, no message started */
    OCB_AAD,      /* started: AAD may come */
    OCB_DATA,     /* data has started: AAD closed, tag length fixed */
    OCB_DONE      /* final done */
};

typedef struct ocb_state {
    alignas(64) uint8_t L[OCB_L_COUNT][16]; /* L_0 .. L_63 */
    alignas(16) uint8_t l_star[16];
    alignas(16) uint8_t l_dollar[16];
    alignas(16) uint8_t ktop_input[16];     /* cache: formatted nonce, low 6 bits cleared */
    alignas(16) uint8_t ktop[16];           /* cache: E(ktop_input) */
    alignas(16) uint8_t offset[16];         /* Offset_i of the data */
    alignas(16) uint8_t checksum[16];
    alignas(16) uint8_t aad_offset[16];     /* Offset_i of HASH */
    alignas(16) uint8_t aad_sum[16];
    alignas(16) uint8_t pending[16];        /* data bytes short of a block */
    alignas(16) uint8_t aad_pending[16];    /* AAD bytes short of a block */
    alignas(16) uint8_t tag[16];            /* encryption: tag after final; decryption: expected tag */
    alignas(16) uint8_t nonce[16];
    uint64_t data_blocks;                   /* full blocks done */
    uint64_t aad_blocks;
    size_t nonce_len;
    size_t pending_len;
    size_t aad_pending_len;
    size_t tag_len;
    int phase;
    int ktop_valid;
    int have_tag;
    int keyed;
    int aad_called;                         /* hwc_aad ran for this message: the tag length is fixed */
} ocb_state;
HWC_MODE_STATE_FITS(ocb_state);

static ocb_state *ocb_get(hwc_ctx *ctx) {
    return HWC_MODE_STATE(ctx, ocb_state);
}

static size_t ocb_default_tag_len(const hwc_cipher *cipher) {
    size_t t = cipher->tag_len;
    return (t >= OCB_TAG_MIN && t <= OCB_TAG_MAX) ? t : OCB_DEFAULT_TAG;
}

/* Number of trailing zero bits of a block index (public, never 0). */
static unsigned ocb_ntz(uint64_t i) {
    unsigned n = 0;
    while ((i & 1) == 0) {
        i >>= 1;
        n++;
    }
    return n;
}

static void ocb_reset_message(ocb_state *st) {
    hwc_wipe(st->offset, sizeof st->offset);
    hwc_wipe(st->checksum, sizeof st->checksum);
    hwc_wipe(st->aad_offset, sizeof st->aad_offset);
    hwc_wipe(st->aad_sum, sizeof st->aad_sum);
    hwc_wipe(st->pending, sizeof st->pending);
    hwc_wipe(st->aad_pending, sizeof st->aad_pending);
    hwc_wipe(st->tag, sizeof st->tag);
    memset(st->nonce, 0, sizeof st->nonce);
    st->data_blocks = 0;
    st->aad_blocks = 0;
    st->nonce_len = 0;
    st->pending_len = 0;
    st->aad_pending_len = 0;
    st->have_tag = 0;
    st->aad_called = 0;
    st->phase = OCB_IDLE;
}

static int ocb_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    /* Always both directions: a later hwc_init may keep this key and switch
     * to decryption. */
    int rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 1);
    if (rc != HWC_OK)
        return rc;
    ocb_state *st = ocb_get(ctx);
    memset(st->l_star, 0, sizeof st->l_star);
    k_ecb_enc(ctx->impl, &ctx->ks[0], st->l_star, st->l_star, 1);
    hwc_gf128_dbl_be(st->l_dollar, st->l_star);
    hwc_gf128_dbl_be(st->L[0], st->l_dollar);
    for (int i = 1; i < OCB_L_COUNT; i++)
        hwc_gf128_dbl_be(st->L[i], st->L[i - 1]);
    hwc_wipe(st->ktop_input, sizeof st->ktop_input);
    hwc_wipe(st->ktop, sizeof st->ktop);
    st->ktop_valid = 0;
    ocb_reset_message(st);
    st->tag_len = ocb_default_tag_len(ctx->cipher);
    st->keyed = 1;
    return HWC_OK;
}

static int ocb_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    if (iv_len < OCB_NONCE_MIN || iv_len > OCB_NONCE_MAX)
        return HWC_ERR_IV_LEN;
    return HWC_OK;
}

static int ocb_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    ocb_state *st = ocb_get(ctx);
    int rc = ocb_check_iv(ctx->cipher, iv_len);
    if (rc != HWC_OK)
        return rc;
    if (!st->keyed)
        return HWC_ERR_STATE;
    ocb_reset_message(st);
    st->tag_len = ocb_default_tag_len(ctx->cipher);
    memcpy(st->nonce, iv, iv_len);
    st->nonce_len = iv_len;
    st->phase = OCB_AAD;
    return HWC_OK;
}

/* Offset_0 from the nonce and the (now fixed) tag length, RFC 7253 4.2. */
static void ocb_init_offset(const hwc_ctx *ctx, ocb_state *st) {
    alignas(16) uint8_t formatted[16] = {0};
    /* num2str(TAGLEN mod 128, 7) || 0* || 1 || N */
    formatted[0] = (uint8_t)(((st->tag_len * 8) % 128) << 1);
    formatted[15 - st->nonce_len] |= 1;
    memcpy(formatted + 16 - st->nonce_len, st->nonce, st->nonce_len);
    unsigned bottom = formatted[15] & 0x3Fu;
    formatted[15] &= 0xC0u;

    /* Reuse Ktop when the nonce's top bits repeat.  The nonce is public
     * (RFC 7253), but the comparison still runs in constant time so that only
     * its one result (declassified in hwc_ct_memcmp) steers the branch. */
    if (!st->ktop_valid || hwc_ct_memcmp(formatted, st->ktop_input, 16) != 0) {
        memcpy(st->ktop_input, formatted, 16);
        k_ecb_enc(ctx->impl, &ctx->ks[0], st->ktop, formatted, 1);
        st->ktop_valid = 1;
    }

    /* Stretch = Ktop || (Ktop[1..64] ^ Ktop[9..72]); Offset_0 is the 128
     * bits of Stretch starting at bit `bottom` (public, from the nonce). */
    uint8_t stretch[24];
    memcpy(stretch, st->ktop, 16);
    for (int i = 0; i < 8; i++)
        stretch[16 + i] = (uint8_t)(st->ktop[i] ^ st->ktop[i + 1]);
    /* Shift the 192-bit Stretch left by `bottom` in six fixed steps (32,
     * 16, ..., 1 bits), each kept or not by a mask: neither an address nor
     * a shift count depends on the nonce. */
    uint64_t w[3] = {hwc_load_be64(stretch), hwc_load_be64(stretch + 8), hwc_load_be64(stretch + 16)};
    for (unsigned step = 32; step != 0; step >>= 1) {
        const uint64_t keep = 0 - (uint64_t)((bottom & step) != 0);
        const uint64_t s0 = (w[0] << step) | (w[1] >> (64 - step)), s1 = (w[1] << step) | (w[2] >> (64 - step)),
                       s2 = w[2] << step;
        w[0] = (s0 & keep) | (w[0] & ~keep);
        w[1] = (s1 & keep) | (w[1] & ~keep);
        w[2] = (s2 & keep) | (w[2] & ~keep);
    }
    hwc_store_be64(st->offset, w[0]);
    hwc_store_be64(st->offset + 8, w[1]);
    hwc_wipe(w, sizeof w);
    hwc_wipe(stretch, sizeof stretch);
    memset(st->checksum, 0, sizeof st->checksum);
}

/* HASH over full AAD blocks: Sum ^= E(A_i ^ Offset_i). */
static void ocb_hash_blocks(const hwc_ctx *ctx, ocb_state *st, const uint8_t *in, size_t nblocks) {
    alignas(16) uint8_t masked[OCB_HASH_CHUNK][16];
    size_t used = 0;
    while (nblocks != 0) {
        size_t n = nblocks < OCB_HASH_CHUNK ? nblocks : OCB_HASH_CHUNK;
        for (size_t b = 0; b < n; b++) {
            st->aad_blocks++;
            hwc_xor(st->aad_offset, st->aad_offset, st->L[ocb_ntz(st->aad_blocks)], 16);
            hwc_xor(masked[b], in + b * HWC_BLOCK, st->aad_offset, 16);
        }
        k_ecb_enc(ctx->impl, &ctx->ks[0], masked[0], masked[0], n);
        for (size_t b = 0; b < n; b++)
            hwc_xor(st->aad_sum, st->aad_sum, masked[b], 16);
        if (n > used)
            used = n;
        in += n * HWC_BLOCK;
        nblocks -= n;
    }
    hwc_wipe(masked, used * 16);
}

static int ocb_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    ocb_state *st = ocb_get(ctx);
    if (st->phase != OCB_AAD)
        return HWC_ERR_STATE;
    st->aad_called = 1;
    if (aad_len == 0)
        return HWC_OK;
    /* A block is hashed only when full; the last partial one waits for final. */
    if (st->aad_pending_len != 0) {
        size_t take = HWC_BLOCK - st->aad_pending_len;
        if (take > aad_len)
            take = aad_len;
        memcpy(st->aad_pending + st->aad_pending_len, aad, take);
        st->aad_pending_len += take;
        aad += take;
        aad_len -= take;
        if (st->aad_pending_len < HWC_BLOCK)
            return HWC_OK;
        ocb_hash_blocks(ctx, st, st->aad_pending, 1);
        st->aad_pending_len = 0;
    }
    size_t nblocks = aad_len / HWC_BLOCK;
    ocb_hash_blocks(ctx, st, aad, nblocks);
    aad += nblocks * HWC_BLOCK;
    aad_len -= nblocks * HWC_BLOCK;
    memcpy(st->aad_pending, aad, aad_len);
    st->aad_pending_len = aad_len;
    return HWC_OK;
}

/* Full data blocks through the back end's OCB kernel. */
static void ocb_crypt_blocks(const hwc_ctx *ctx, ocb_state *st, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks == 0)
        return;
    const uint8_t(*L)[16] = (const uint8_t(*)[16])st->L;
    if (ctx->encrypt)
        k_ocb_enc(ctx->impl, &ctx->ks[0], L, st->data_blocks + 1, st->offset, st->checksum, out, in, nblocks);
    else
        k_ocb_dec(ctx->impl, &ctx->ks[0], L, st->data_blocks + 1, st->offset, st->checksum, out, in, nblocks);
    st->data_blocks += nblocks;
}

static void ocb_begin_data(const hwc_ctx *ctx, ocb_state *st) {
    if (st->phase == OCB_AAD) {
        ocb_init_offset(ctx, st);
        st->phase = OCB_DATA;
    }
}

static int ocb_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    ocb_state *st = ocb_get(ctx);
    if (st->phase != OCB_AAD && st->phase != OCB_DATA)
        return HWC_ERR_STATE;
    ocb_begin_data(ctx, st);

    size_t held = st->pending_len;
    size_t total = held + in_len;
    size_t nblocks = total / HWC_BLOCK;
    size_t produced = nblocks * HWC_BLOCK;
    *out_len = produced;

    if (nblocks == 0) {
        if (in_len != 0) /* `in` may be NULL when empty */
            memcpy(st->pending + held, in, in_len);
        st->pending_len = total;
        return HWC_OK;
    }
    if (held == 0) {
        ocb_crypt_blocks(ctx, st, out, in, nblocks);
    } else if (out != in) {
        /* Complete the held block, then run the rest straight from `in`. */
        size_t take = HWC_BLOCK - held;
        memcpy(st->pending + held, in, take);
        ocb_crypt_blocks(ctx, st, out, st->pending, 1);
        ocb_crypt_blocks(ctx, st, out + HWC_BLOCK, in + take, nblocks - 1);
    } else {
        /* In place with bytes held, output block k would overwrite the
         * first `held` input bytes of block k + 1 before they are read.
         * Shift the input up by `held` (the caller's buffer has room for
         * in_len + 16), put the held bytes in front and work in place. */
        memmove(out + held, in, in_len);
        memcpy(out, st->pending, held);
        ocb_crypt_blocks(ctx, st, out, out, nblocks);
    }
    size_t rest = total - produced;
    if (out == in && held != 0) {
        /* The unprocessed tail was shifted up along with the rest. */
        memcpy(st->pending, out + produced, rest);
        /* Leave nothing of ours past the output in the caller's spare room. */
        size_t from = produced > in_len ? produced : in_len;
        memset(out + from, 0, total - from);
    } else {
        memcpy(st->pending, in + in_len - rest, rest);
    }
    st->pending_len = rest;
    return HWC_OK;
}

static int ocb_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    ocb_state *st = ocb_get(ctx);
    if (st->phase != OCB_AAD && st->phase != OCB_DATA)
        return HWC_ERR_STATE;
    if (!ctx->encrypt && !st->have_tag)
        return HWC_ERR_STATE;
    if (out == NULL && st->pending_len != 0)
        return HWC_ERR_NULL; /* the last partial block has to go somewhere */
    ocb_begin_data(ctx, st);

    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *ks = &ctx->ks[0];
    alignas(16) uint8_t block[16];
    size_t n = st->pending_len;

    if (n != 0) {
        /* P_*: Offset_* = Offset_m ^ L_*, Pad = E(Offset_*), C_* = P_* ^ Pad;
         * Checksum ^= P_* || 1 || 0*. */
        hwc_xor(st->offset, st->offset, st->l_star, 16);
        k_ecb_enc(im, ks, block, st->offset, 1);
        hwc_xor(out, st->pending, block, n);
        const uint8_t *plain = ctx->encrypt ? st->pending : out;
        hwc_xor(st->checksum, st->checksum, plain, n);
        st->checksum[n] ^= 0x80;
    }
    if (st->aad_pending_len != 0) {
        /* A_*: Sum ^= E((A_* || 1 || 0*) ^ Offset_* ). */
        size_t a = st->aad_pending_len;
        hwc_xor(st->aad_offset, st->aad_offset, st->l_star, 16);
        memset(block, 0, sizeof block);
        memcpy(block, st->aad_pending, a);
        block[a] = 0x80;
        hwc_xor(block, block, st->aad_offset, 16);
        k_ecb_enc(im, ks, block, block, 1);
        hwc_xor(st->aad_sum, st->aad_sum, block, 16);
    }
    /* Tag = E(Checksum ^ Offset ^ L_$) ^ HASH(A). */
    hwc_xor(block, st->checksum, st->offset, 16);
    hwc_xor(block, block, st->l_dollar, 16);
    k_ecb_enc(im, ks, block, block, 1);
    hwc_xor(block, block, st->aad_sum, 16);

    int rc = HWC_OK;
    if (ctx->encrypt) {
        memcpy(st->tag, block, 16);
        st->have_tag = 1;
    } else if (hwc_ct_memcmp(block, st->tag, st->tag_len) != 0) {
        rc = HWC_ERR_AUTH;
    }
    if (rc == HWC_OK) {
        if (out_len != NULL)
            *out_len = n;
    } else {
        /* Release no plaintext from a forged message. */
        if (n != 0)
            hwc_wipe(out, n);
        if (out_len != NULL)
            *out_len = 0;
    }
    hwc_wipe(block, sizeof block);
    hwc_wipe(st->pending, sizeof st->pending);
    hwc_wipe(st->aad_pending, sizeof st->aad_pending);
    st->pending_len = 0;
    st->aad_pending_len = 0;
    st->phase = OCB_DONE;
    return rc;
}

/* Before any AAD; when decrypting, before set_tag (whose length counts). */
static int ocb_set_tag_len(hwc_ctx *ctx, size_t tag_len) {
    ocb_state *st = ocb_get(ctx);
    if (st->phase != OCB_AAD || st->aad_called || (!ctx->encrypt && st->have_tag))
        return HWC_ERR_STATE;
    if (tag_len < OCB_TAG_MIN || tag_len > OCB_TAG_MAX)
        return HWC_ERR_TAG_LEN;
    st->tag_len = tag_len;
    return HWC_OK;
}

static int ocb_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    ocb_state *st = ocb_get(ctx);
    if (ctx->encrypt || (st->phase != OCB_AAD && st->phase != OCB_DATA))
        return HWC_ERR_STATE;
    if (tag_len < OCB_TAG_MIN || tag_len > OCB_TAG_MAX ||
        (st->phase == OCB_DATA && tag_len != st->tag_len))
        return HWC_ERR_TAG_LEN;
    memcpy(st->tag, tag, tag_len);
    st->tag_len = tag_len;
    st->have_tag = 1;
    return HWC_OK;
}

static int ocb_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    ocb_state *st = ocb_get(ctx);
    if (!ctx->encrypt || st->phase != OCB_DONE || !st->have_tag)
        return HWC_ERR_STATE;
    if (tag_len != st->tag_len)
        return HWC_ERR_TAG_LEN;
    memcpy(tag, st->tag, tag_len);
    return HWC_OK;
}

const hwc_mode_ops hwc_mode_ocb_ops = {
    .set_key = ocb_set_key,
    .check_iv = ocb_check_iv,
    .start = ocb_start,
    .aad = ocb_aad,
    .update = ocb_update,
    .final = ocb_final,
    .set_tag_len = ocb_set_tag_len,
    .set_tag = ocb_set_tag,
    .get_tag = ocb_get_tag,
};
