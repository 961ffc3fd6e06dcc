/*
 * GCM and GMAC (NIST SP 800-38D).
 *
 * Rules this file owns:
 *   - IV: any length from 1 byte. 12 bytes is the fast path (J0 = IV || 1);
 *     any other length gives J0 = GHASH(IV || 0-pad || [0]64 || [len(IV)]64).
 *   - AAD: streamed over any number of hwc_aad() calls of any lengths, at
 *     most 2^61 - 1 bytes in all, and only before the first update.
 *   - Data: streamed over any number of updates of any lengths, at most
 *     2^36 - 32 bytes (SP 800-38D's 2^39 - 256 bits); a call that would pass
 *     the limit fails with HWC_ERR_DATA_LEN before touching anything.
 *   - Counter: inc32 of J0 for the first data block; only the low 32 bits
 *     count, wrapping mod 2^32 (k_ctr32), as the standard says.
 *   - Tag: 4..16 bytes, default 16. SP 800-38D lists 4, 8 and 12..16; we also
 *     accept 5..7, 9..11 because other libraries do, and the caller who picks
 *     a short tag owns that choice. set_tag_len only before data; the length
 *     does not enter the computation, so set_tag (decryption) may give any
 *     valid length at any time before final.
 *   - The tag is compared in constant time; a mismatch is HWC_ERR_AUTH.
 *   - Start resets the tag length to the cipher's default (per message).
 *
 * GMAC is GCM with no data: the message goes through aad() and mac_final()
 * returns the (truncated) tag.
 *
 * Bulk data runs through k_ctr32 and the GHASH back end in chunks of
 * GCM_CHUNK_BLOCKS, which keeps the data in L1 between the two passes and
 * still gives wide kernels long runs.
 *
 * Short messages: GHASH is called lazily. The last block of AAD and the last
 * block of data (full or partial) wait in aad_block / pending until
 * something must follow them, so a message of one AAD block and one data
 * block costs one GHASH call at final over AAD || C || lengths (adjacent in
 * the state) instead of three calls with a reduction each.
 */
#include "mode.h"

#define GCM_TAG_MIN 4
#define GCM_TAG_MAX 16
#define GCM_DEFAULT_TAG 16
#define GCM_FAST_IV_LEN 12
/* len(P) <= 2^39 - 256 bits. */
#define GCM_MAX_MSG_BYTES ((UINT64_C(1) << 36) - 32)
/* len(A) and len(IV) <= 2^64 - 1 bits. */
#define GCM_MAX_AAD_BYTES ((UINT64_C(1) << 61) - 1)
#define GCM_MAX_IV_BYTES ((UINT64_C(1) << 61) - 1)
#define GCM_CHUNK_BLOCKS 256

enum gcm_phase {
    GCM_IDLE = 0, /* keyed, no message started */
    GCM_AAD,      /* started: AAD may come */
    GCM_DATA,     /* data has started: AAD closed */
    GCM_DONE      /* final (or mac_final) done */
};

typedef size_t (*gcm_fused_fn)(const hwc_ks *, const struct hwc_ghash_key *, uint8_t *, uint8_t *, uint8_t *,
                               const uint8_t *, size_t);
typedef void (*gcm_crypt_fn)(const hwc_ks *, const struct hwc_ghash_key *, int, uint8_t *, uint8_t *,
                             const uint8_t *, size_t, uint8_t *, const uint8_t *, size_t, uint8_t *, size_t,
                             uint8_t *, size_t, size_t);

typedef struct gcm_state {
    hwc_ghash_key hkey;                 /* back end's form of H = E(K, 0^128) */
    alignas(16) uint8_t j0[16];         /* pre-counter block */
    alignas(16) uint8_t ctr[16];        /* counter of the next keystream block */
    alignas(16) uint8_t hash[16];       /* running GHASH */
    alignas(16) uint8_t keystream[16];  /* keystream of the current partial data block */
    alignas(16) uint8_t tag[16];        /* encryption: tag after final; decryption: expected tag */
    /* aad_block, pending, lengths: adjacent, so one GHASH call takes them. */
    alignas(16) uint8_t aad_block[16];  /* AAD phase: last AAD bytes not yet hashed (1..16);
                                           data phase: that block zero-padded, if aad_deferred */
    alignas(16) uint8_t pending[16];    /* data phase: ciphertext not yet hashed (1..16 bytes) */
    alignas(16) uint8_t lengths[16];    /* [len(A)]64 || [len(C)]64, built at final */
    uint64_t aad_len;                   /* bytes so far */
    uint64_t msg_len;
    size_t pending_len;                 /* bytes in aad_block (AAD phase) or pending (data phase);
                                           in the data phase also the keystream position */
    size_t tag_len;
    gcm_fused_fn fused_enc, fused_dec;  /* the back end's fused kernels, if usable with ghash (set_key) */
    gcm_crypt_fn crypt;                 /* its one-call GCM step (backend.h gcm_crypt), same condition */
    int phase;
    int aad_deferred;                   /* aad_block holds the last AAD block, not yet hashed */
    int have_tag;
    int keyed;
    int aad_called;                     /* hwc_aad ran for this message: the tag length is fixed */
} gcm_state;
HWC_MODE_STATE_FITS(gcm_state);

static gcm_state *gcm_get(hwc_ctx *ctx) {
    return HWC_MODE_STATE(ctx, gcm_state);
}

static size_t gcm_default_tag_len(const hwc_cipher *cipher) {
    size_t t = cipher->tag_len;
    return (t >= GCM_TAG_MIN && t <= GCM_TAG_MAX) ? t : GCM_DEFAULT_TAG;
}

_Static_assert(offsetof(gcm_state, pending) == offsetof(gcm_state, aad_block) + 16 &&
                   offsetof(gcm_state, lengths) == offsetof(gcm_state, pending) + 16,
               "gcm_state: aad_block, pending, lengths must be adjacent (one GHASH call)");
_Static_assert(offsetof(gcm_state, lengths) + 16 - offsetof(gcm_state, j0) == 8 * 16,
               "gcm_state: the per-message blocks j0 .. lengths must be adjacent (one wipe)");

/* GCC only: clang 14 crashes generating UBSan's alignment-assumption check
 * for it (the fuzz build), and the hint matters for GCC's rv64 code. */
#if defined(__GNUC__) && !defined(__clang__)
#define HWC_ASSUME_ALIGNED16(p) __builtin_assume_aligned((p), 16)
#else
#define HWC_ASSUME_ALIGNED16(p) (p)
#endif

/* Never inlined, and (GCC) never cloned with fewer arguments: gcm_short and
 * gcm_whole take gcm_oneshot's arguments so that its calls stay plain jumps. */
#if defined(__GNUC__) && !defined(__clang__)
#define GCM_OUT_OF_LINE __attribute__((noinline, noclone))
#else
#define GCM_OUT_OF_LINE __attribute__((noinline))
#endif

/* 16-byte moves on the state's 16-aligned blocks, a word at a time (the
 * byte loops cost ~4 instructions a byte on rv64). */
static inline void gcm_copy16(uint8_t *out, const uint8_t *in) {
    uint64_t w[2];
    memcpy(w, HWC_ASSUME_ALIGNED16(in), 16);
    memcpy(HWC_ASSUME_ALIGNED16(out), w, 16);
}
static inline void gcm_xor16(uint8_t *out, const uint8_t *a, const uint8_t *b) {
    uint64_t x[2], y[2];
    memcpy(x, HWC_ASSUME_ALIGNED16(a), 16);
    memcpy(y, HWC_ASSUME_ALIGNED16(b), 16);
    x[0] ^= y[0];
    x[1] ^= y[1];
    memcpy(HWC_ASSUME_ALIGNED16(out), x, 16);
}

/* A 64-bit value as the big-endian word it has in memory. Shifts and masks:
 * byte stores get merged by GCC into a ~45-instruction sequence on rv64
 * without Zbb, this is ~15. */
static inline uint64_t gcm_be64_word(uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = (v >> 32) | (v << 32);
    v = ((v & UINT64_C(0x0000ffff0000ffff)) << 16) | ((v >> 16) & UINT64_C(0x0000ffff0000ffff));
    v = ((v & UINT64_C(0x00ff00ff00ff00ff)) << 8) | ((v >> 8) & UINT64_C(0x00ff00ff00ff00ff));
    return v;
#else
    uint8_t b[8];
    hwc_store_be64(b, v);
    memcpy(&v, b, 8);
    return v;
#endif
}

/* The blocks gcm_whole hands its kernel, each built in two words and
 * written with one 16-byte copy: built bytewise, GCC assembled them in
 * registers, stored them in halves and copied them with a 16-byte load
 * that waited on store forwarding. */
static inline void gcm_store_words(uint8_t block[16], uint64_t w0, uint64_t w1) {
    const uint64_t w[2] = {w0, w1};
    memcpy(block, w, 16);
}
/* The 12-byte IV, then the 32-bit big-endian block counter. */
static inline void gcm_counter_block(uint8_t block[16], const uint8_t iv[GCM_FAST_IV_LEN], uint32_t counter) {
    uint64_t w0;
    uint32_t iv_tail;
    memcpy(&w0, iv, 8);
    memcpy(&iv_tail, iv + 8, 4);
    /* bytes 8..11 the IV's tail, 12..15 the counter, big-endian */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t w1 = gcm_be64_word(counter) | iv_tail;
#else
    const uint64_t w1 = ((uint64_t)iv_tail << 32) | counter;
#endif
    gcm_store_words(block, w0, w1);
}
/* The bit lengths of AAD and data, big-endian. */
static inline void gcm_lengths_block(uint8_t block[16], size_t aad_len, size_t in_len) {
    gcm_store_words(block, gcm_be64_word((uint64_t)aad_len * 8), gcm_be64_word((uint64_t)in_len * 8));
}

/* Forget everything about the current message; keep the key. The
 * per-message blocks are adjacent (j0 .. lengths): one wipe, not eight calls. */
static void gcm_reset_message(gcm_state *st) {
    hwc_wipe(st->j0, offsetof(gcm_state, lengths) + sizeof st->lengths - offsetof(gcm_state, j0));
    st->aad_len = 0;
    st->msg_len = 0;
    st->pending_len = 0;
    st->aad_deferred = 0;
    st->have_tag = 0;
    st->phase = GCM_IDLE;
}

/* The fused kernels are only valid with the GHASH key layout they were
 * written for: their back end's paired GHASH. Decided once per key, not per
 * update. */
static int gcm_fused_usable(const hwc_ctx *ctx) {
    const hwc_block_impl *im = ctx->impl;
    return im->ghash_name && ctx->ghash && strcmp(ctx->ghash->name, im->ghash_name) == 0;
}

static int gcm_set_key(hwc_ctx *ctx, const uint8_t *key, size_t key_len) {
    if (key_len != ctx->cipher->key_len)
        return HWC_ERR_KEY_LEN;
    int rc = hwc_block_set_key(ctx->impl, &ctx->ks[0], key, key_len, 0);
    if (rc != HWC_OK)
        return rc;
    gcm_state *st = gcm_get(ctx);
    alignas(16) uint8_t h[16] = {0};
    k_ecb_enc(ctx->impl, &ctx->ks[0], h, h, 1);
    hwc_ghash_init(ctx->ghash, &st->hkey, h);
    hwc_wipe(h, sizeof h);
    gcm_reset_message(st);
    st->tag_len = gcm_default_tag_len(ctx->cipher);
    const int fused = gcm_fused_usable(ctx);
    st->fused_enc = fused ? ctx->impl->gcm_enc : NULL;
    st->fused_dec = fused ? ctx->impl->gcm_dec : NULL;
    st->crypt = fused ? ctx->impl->gcm_crypt : NULL;
    st->keyed = 1;
    return HWC_OK;
}

static int gcm_check_iv(const hwc_cipher *cipher, size_t iv_len) {
    (void)cipher;
    if (iv_len == 0 || hwc_len_over(iv_len, GCM_MAX_IV_BYTES))
        return HWC_ERR_IV_LEN;
    return HWC_OK;
}

/* GHASH `len` bytes of a stream whose unhashed tail (st->pending_len bytes)
 * is in `tail`. The last 1..16 bytes always stay in `tail`: they are hashed
 * when more input comes, or with what follows them (gcm_close_hash). */
static void gcm_hash_stream(const hwc_ctx *ctx, gcm_state *st, uint8_t tail[16], const uint8_t *in, size_t len) {
    if (len == 0)
        return; /* `in` may be NULL */
    if (st->pending_len != 0) {
        size_t take = HWC_BLOCK - st->pending_len;
        if (take > len)
            take = len;
        memcpy(tail + st->pending_len, in, take);
        st->pending_len += take;
        in += take;
        len -= take;
        if (len == 0)
            return;
        hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, tail, 1);
        st->pending_len = 0;
    }
    size_t nblocks = (len - 1) / HWC_BLOCK;
    hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, in, nblocks);
    in += nblocks * HWC_BLOCK;
    len -= nblocks * HWC_BLOCK;
    memcpy(tail, in, len);
    st->pending_len = len;
}

/* Zero-pad the unhashed tail (if any) and hash it. */
static void gcm_flush_tail(const hwc_ctx *ctx, gcm_state *st, uint8_t tail[16]) {
    if (st->pending_len == 0)
        return;
    memset(tail + st->pending_len, 0, HWC_BLOCK - st->pending_len);
    hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, tail, 1);
    st->pending_len = 0;
}

/* End of AAD: its last block, zero-padded, waits in aad_block (aad_deferred)
 * to be hashed together with the first data block or the lengths. */
static void gcm_end_aad(gcm_state *st) {
    if (st->pending_len != 0) {
        memset(st->aad_block + st->pending_len, 0, HWC_BLOCK - st->pending_len);
        st->aad_deferred = 1;
    }
    st->pending_len = 0;
    st->phase = GCM_DATA;
}

static const alignas(16) uint8_t gcm_zero_block[16] = {0};

/* J0 = GHASH(IV || 0-pad || [0]64 || [len(IV)]64) for IVs other than 96
 * bits; not inlined, so the 96-bit path of gcm_start saves no registers
 * for it. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void gcm_j0_from_iv(const hwc_ctx *ctx, gcm_state *st, const uint8_t *iv, size_t iv_len) {
    alignas(16) uint8_t len_block[16] = {0};
    gcm_hash_stream(ctx, st, st->aad_block, iv, iv_len);
    gcm_flush_tail(ctx, st, st->aad_block);
    hwc_store_be64(len_block + 8, (uint64_t)iv_len * 8);
    hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, len_block, 1);
    gcm_copy16(st->j0, st->hash);
    gcm_copy16(st->hash, gcm_zero_block);
    gcm_copy16(st->ctr, st->j0);
    hwc_ctr32_inc(st->ctr);
}

static int gcm_start(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len) {
    gcm_state *st = gcm_get(ctx);
    int rc = gcm_check_iv(ctx->cipher, iv_len);
    if (rc != HWC_OK)
        return rc;
    if (!st->keyed)
        return HWC_ERR_STATE;
    /* A message left unfinished still has keystream and data in the state
     * (final wipes them); otherwise every field the message reads is
     * written below or before it is read (tag: by final or set_tag). */
    if (st->phase == GCM_AAD || st->phase == GCM_DATA)
        gcm_reset_message(st);
    gcm_copy16(st->hash, gcm_zero_block);
    st->aad_len = 0;
    st->msg_len = 0;
    st->pending_len = 0;
    st->aad_deferred = 0;
    st->have_tag = 0;
    st->aad_called = 0;
    st->tag_len = gcm_default_tag_len(ctx->cipher);

    if (iv_len == GCM_FAST_IV_LEN) {
        /* J0 = IV || 1, the first counter IV || 2 (constant stores). */
        memcpy(st->j0, iv, GCM_FAST_IV_LEN);
        hwc_store_be32(st->j0 + 12, 1);
        gcm_copy16(st->ctr, st->j0);
        hwc_store_be32(st->ctr + 12, 2);
    } else {
        gcm_j0_from_iv(ctx, st, iv, iv_len);
    }
    st->phase = GCM_AAD;
    return HWC_OK;
}

static int gcm_aad(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len) {
    gcm_state *st = gcm_get(ctx);
    if (st->phase != GCM_AAD)
        return HWC_ERR_STATE;
    if ((uint64_t)aad_len > GCM_MAX_AAD_BYTES - st->aad_len)
        return HWC_ERR_DATA_LEN;
    st->aad_called = 1;
    st->aad_len += aad_len;
    if (st->pending_len == 0 && aad_len <= HWC_BLOCK) {
        /* All of it waits (a TLS header, an AAD block): no GHASH yet. */
        if (aad_len)
            memcpy(st->aad_block, aad, aad_len);
        st->pending_len = aad_len;
        return HWC_OK;
    }
    gcm_hash_stream(ctx, st, st->aad_block, aad, aad_len);
    return HWC_OK;
}

/* Bytes inside the current partial block: XOR with the saved keystream and
 * keep the ciphertext for GHASH. Reads each input byte before writing the
 * output byte, so out == in works. */
static void gcm_crypt_partial(gcm_state *st, int encrypt, uint8_t *out, const uint8_t *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint8_t x = in[i];
        uint8_t y = (uint8_t)(x ^ st->keystream[st->pending_len]);
        out[i] = y;
        st->pending[st->pending_len++] = encrypt ? y : x;
    }
}

/* gcm_crypt_partial for the one-call path: n (0..15) bytes in words of 8,
 * 4, 2 and 1 bytes, the keystream position in a register. The byte loop
 * reloads pending_len after every byte store (a uint8_t store may alias
 * it): a chain through memory of several cycles a byte, paid at both ends
 * of every streamed update whose length is not a multiple of 16. Reads
 * each word of input before writing it, so out == in works. */
#define GCM_PARTIAL_WORD(W, T)                                                                                  \
    if (n & (W)) {                                                                                             \
        T x, k, y;                                                                                             \
        memcpy(&x, in + i, W);                                                                                 \
        memcpy(&k, ks + i, W);                                                                                 \
        y = (T)(x ^ k);                                                                                        \
        memcpy(out + i, &y, W);                                                                                \
        memcpy(keep + i, encrypt ? &y : &x, W);                                                                \
        i += (W);                                                                                              \
    }
static inline void gcm_crypt_partial_words(gcm_state *st, int encrypt, uint8_t *out, const uint8_t *in, size_t n) {
    const size_t pos = st->pending_len;
    const uint8_t *ks = st->keystream + pos;
    uint8_t *keep = st->pending + pos;
    size_t i = 0;
    GCM_PARTIAL_WORD(8, uint64_t)
    GCM_PARTIAL_WORD(4, uint32_t)
    GCM_PARTIAL_WORD(2, uint16_t)
    GCM_PARTIAL_WORD(1, uint8_t)
    st->pending_len = pos + n;
}
#undef GCM_PARTIAL_WORD

/* One whole block that ends the update, pending empty: CTR on the caller's
 * buffers, the ciphertext kept unhashed (copied from `in` before CTR
 * overwrites it when decrypting in place). */
static inline void gcm_crypt_last_block(hwc_ctx *ctx, gcm_state *st, uint8_t *out, const uint8_t *in) {
    if (!ctx->encrypt)
        memcpy(st->pending, in, HWC_BLOCK);
    k_ctr32(ctx->impl, &ctx->ks[0], st->ctr, out, in, 1);
    if (ctx->encrypt)
        memcpy(st->pending, out, HWC_BLOCK);
    st->pending_len = HWC_BLOCK;
}

static int gcm_update_any(hwc_ctx *ctx, gcm_state *st, uint8_t *out, const uint8_t *in, size_t in_len);
static int gcm_update_one_call(hwc_ctx *ctx, gcm_state *st, uint8_t *out, const uint8_t *in, size_t in_len);

static int gcm_update(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len) {
    gcm_state *st = gcm_get(ctx);
    if (st->phase != GCM_AAD && st->phase != GCM_DATA)
        return HWC_ERR_STATE;
    if ((uint64_t)in_len > GCM_MAX_MSG_BYTES - st->msg_len)
        return HWC_ERR_DATA_LEN;
    if (st->phase == GCM_AAD)
        gcm_end_aad(st);
    st->msg_len += in_len;
    *out_len = in_len;
    /* The short-message case without the general path's register saves. */
    if (in_len == HWC_BLOCK && st->pending_len == 0) {
        gcm_crypt_last_block(ctx, st, out, in);
        return HWC_OK;
    }
    return st->crypt ? gcm_update_one_call(ctx, st, out, in, in_len) : gcm_update_any(ctx, st, out, in, in_len);
}

/* gcm_update_any with the back end's gcm_crypt: what waits unhashed (the
 * AAD block, a partial block this call completes) goes in as its pre
 * blocks, every whole block through it, and the keystream of a new partial
 * block comes out of the same call; only the bytes of partial blocks are
 * handled here. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int gcm_update_one_call(hwc_ctx *ctx, gcm_state *st, uint8_t *out, const uint8_t *in, size_t in_len) {
    const int encrypt = ctx->encrypt;
    const uint8_t *pre = NULL;
    size_t npre = 0, done = 0;
    if (st->pending_len != 0 && st->pending_len != HWC_BLOCK) {
        size_t take = HWC_BLOCK - st->pending_len;
        if (take > in_len)
            take = in_len;
        gcm_crypt_partial_words(st, encrypt, out, in, take);
        done = take;
        if (done == in_len)
            return HWC_OK; /* the block (partial or now full) still waits */
    }
    if (st->pending_len == HWC_BLOCK) {
        /* aad_block and pending are adjacent: one or two pre blocks. */
        pre = st->aad_deferred ? st->aad_block : st->pending;
        npre = st->aad_deferred ? 2 : 1;
    } else if (st->aad_deferred && in_len > HWC_BLOCK) {
        pre = st->aad_block;
        npre = 1;
    }
    if (npre != 0) {
        st->aad_deferred = 0;
        st->pending_len = 0;
    }
    /* A last block of exactly 16 bytes waits (gcm_crypt_last_block). */
    size_t nblocks = (in_len - done) / HWC_BLOCK;
    if (in_len - done == HWC_BLOCK)
        nblocks = 0;
    const size_t rest = in_len - done - HWC_BLOCK * nblocks;
    if (nblocks == 0) {
        /* Nothing for the kernel's batches: the waiting blocks through
         * GHASH and a partial block's keystream through CTR, as without
         * gcm_crypt (a stream of 16-byte updates measured 1.2x slower
         * through the kernel's entry). */
        if (npre != 0)
            hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, pre, npre);
        if (rest == HWC_BLOCK) {
            gcm_crypt_last_block(ctx, st, out + done, in + done);
        } else if (rest != 0) {
            memset(st->keystream, 0, sizeof st->keystream);
            k_ctr32(ctx->impl, &ctx->ks[0], st->ctr, st->keystream, st->keystream, 1);
            gcm_crypt_partial_words(st, encrypt, out + done, in + done, rest);
        }
        return HWC_OK;
    }
    size_t n_ecb = 0;
    if (rest != 0) {
        /* The new partial block's counter, the one after the whole blocks,
         * becomes its keystream in place (the state's block, wiped with the
         * message). */
        gcm_copy16(st->keystream, st->ctr);
        hwc_store_be32(st->keystream + 12, hwc_load_be32(st->ctr + 12) + (uint32_t)nblocks);
        n_ecb = 1;
    }
    st->crypt(&ctx->ks[0], &st->hkey, !encrypt, st->ctr, st->hash, pre, npre, out + done, in + done, nblocks,
              st->keystream, n_ecb, NULL, 0, 0);
    done += HWC_BLOCK * nblocks;
    if (rest != 0) {
        hwc_ctr32_inc(st->ctr);
        gcm_crypt_partial_words(st, encrypt, out + done, in + done, rest);
    }
    return HWC_OK;
}

/* gcm_update after its checks: any pending state, any length. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int gcm_update_any(hwc_ctx *ctx, gcm_state *st, uint8_t *out, const uint8_t *in, size_t in_len) {
    const hwc_block_impl *im = ctx->impl;
    const hwc_ks *ks = &ctx->ks[0];
    int encrypt = ctx->encrypt;
    size_t done = 0;

    /* What waits unhashed goes first, unless this call only adds to the
     * pending block (then it may still be hashed together with the rest). */
    if (st->pending_len == HWC_BLOCK) {
        /* A full ciphertext block, after the AAD block if that waits too:
         * adjacent in the state, one call. */
        hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, st->aad_deferred ? st->aad_block : st->pending,
                         st->aad_deferred ? 2 : 1);
        st->aad_deferred = 0;
        st->pending_len = 0;
    } else if (st->aad_deferred && in_len > HWC_BLOCK - st->pending_len) {
        hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, st->aad_block, 1);
        st->aad_deferred = 0;
    }

    if (st->pending_len != 0) {
        size_t take = HWC_BLOCK - st->pending_len;
        if (take > in_len)
            take = in_len;
        gcm_crypt_partial(st, encrypt, out, in, take);
        done = take;
        if (st->pending_len == HWC_BLOCK && done < in_len) {
            hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, st->pending, 1);
            st->pending_len = 0;
        }
    }

    /* A last block of exactly 16 bytes is left to the deferred path below. */
    size_t nblocks = (in_len - done) / HWC_BLOCK;
    if (in_len - done == HWC_BLOCK)
        nblocks = 0;
    /* A back end's fused kernel (CTR stitched with GHASH) takes what it can
     * when its own GHASH wrote the key; the loop below does the rest. */
    gcm_fused_fn fused = encrypt ? st->fused_enc : st->fused_dec;
    if (fused && nblocks) {
        size_t n = fused(ks, &st->hkey, st->ctr, st->hash, out + done, in + done, nblocks);
        done += n * HWC_BLOCK;
        nblocks -= n;
    }
    while (nblocks != 0) {
        size_t n = nblocks < GCM_CHUNK_BLOCKS ? nblocks : GCM_CHUNK_BLOCKS;
        /* GHASH always runs over the ciphertext: after CTR when encrypting,
         * before it when decrypting (in place, CTR overwrites it). */
        if (encrypt) {
            k_ctr32(im, ks, st->ctr, out + done, in + done, n);
            hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, out + done, n);
        } else {
            hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, in + done, n);
            k_ctr32(im, ks, st->ctr, out + done, in + done, n);
        }
        done += n * HWC_BLOCK;
        nblocks -= n;
    }

    if (in_len - done == HWC_BLOCK) {
        gcm_crypt_last_block(ctx, st, out + done, in + done);
    } else if (done < in_len) {
        /* Start a partial block: its keystream is CTR over a zero block. */
        memset(st->keystream, 0, sizeof st->keystream);
        k_ctr32(im, ks, st->ctr, st->keystream, st->keystream, 1);
        gcm_crypt_partial(st, encrypt, out + done, in + done, in_len - done);
    }
    return HWC_OK;
}

/* The full 16-byte tag of the message so far (16-aligned); closes the
 * GHASH: what still waits (AAD block, data block) and the lengths block in
 * one call. */
static void gcm_compute_tag(const hwc_ctx *ctx, gcm_state *st, uint8_t full_tag[16]) {
    if (st->phase == GCM_AAD)
        gcm_end_aad(st); /* no data (GMAC, or GCM with empty plaintext) */
    if (st->aad_deferred && st->pending_len == 0) {
        gcm_copy16(st->pending, st->aad_block); /* next to the lengths */
        st->pending_len = HWC_BLOCK;
        st->aad_deferred = 0;
    }
    uint8_t *first = st->lengths;
    size_t nblocks = 1;
    if (st->pending_len != 0) {
        if (st->pending_len < HWC_BLOCK)
            memset(st->pending + st->pending_len, 0, HWC_BLOCK - st->pending_len);
        first = st->aad_deferred ? st->aad_block : st->pending;
        nblocks = st->aad_deferred ? 3 : 2;
    }
    uint64_t len_words[2] = {gcm_be64_word(st->aad_len * 8), gcm_be64_word(st->msg_len * 8)};
    memcpy(HWC_ASSUME_ALIGNED16(st->lengths), len_words, 16);
    hwc_ghash_update(ctx->ghash, &st->hkey, st->hash, first, nblocks);
    st->aad_deferred = 0;
    st->pending_len = 0;
    k_ecb_enc(ctx->impl, &ctx->ks[0], full_tag, st->j0, 1);
    gcm_xor16(full_tag, full_tag, st->hash);
}

static int gcm_final(hwc_ctx *ctx, uint8_t *out, size_t *out_len) {
    (void)out;
    gcm_state *st = gcm_get(ctx);
    if (st->phase != GCM_AAD && st->phase != GCM_DATA)
        return HWC_ERR_STATE;
    if (!ctx->encrypt && !st->have_tag)
        return HWC_ERR_STATE;
    if (out_len != NULL)
        *out_len = 0;

    int rc = HWC_OK;
    if (ctx->encrypt) {
        gcm_compute_tag(ctx, st, st->tag);
        st->have_tag = 1;
    } else {
        alignas(16) uint8_t full_tag[16];
        gcm_compute_tag(ctx, st, full_tag);
        if (hwc_ct_memcmp(full_tag, st->tag, st->tag_len) != 0)
            rc = HWC_ERR_AUTH;
        hwc_wipe(full_tag, sizeof full_tag);
    }
    /* The keystream, and the AAD and ciphertext blocks (adjacent). */
    hwc_wipe(st->keystream, sizeof st->keystream);
    hwc_wipe(st->aad_block, 2 * HWC_BLOCK);
    st->phase = GCM_DONE;
    return rc;
}

/* Before any AAD; when decrypting, before set_tag (whose length counts). */
static int gcm_set_tag_len(hwc_ctx *ctx, size_t tag_len) {
    gcm_state *st = gcm_get(ctx);
    if (st->phase != GCM_AAD || st->aad_called || (!ctx->encrypt && st->have_tag))
        return HWC_ERR_STATE;
    if (tag_len < GCM_TAG_MIN || tag_len > GCM_TAG_MAX)
        return HWC_ERR_TAG_LEN;
    st->tag_len = tag_len;
    return HWC_OK;
}

static int gcm_set_tag(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    gcm_state *st = gcm_get(ctx);
    if (ctx->encrypt || (st->phase != GCM_AAD && st->phase != GCM_DATA))
        return HWC_ERR_STATE;
    if (tag_len < GCM_TAG_MIN || tag_len > GCM_TAG_MAX)
        return HWC_ERR_TAG_LEN;
    memcpy(st->tag, tag, tag_len);
    st->tag_len = tag_len;
    st->have_tag = 1;
    return HWC_OK;
}

static int gcm_get_tag(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    gcm_state *st = gcm_get(ctx);
    if (!ctx->encrypt || st->phase != GCM_DONE || !st->have_tag)
        return HWC_ERR_STATE;
    if (tag_len != st->tag_len)
        return HWC_ERR_TAG_LEN;
    memcpy(tag, st->tag, tag_len);
    return HWC_OK;
}

static int gmac_final(hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    gcm_state *st = gcm_get(ctx);
    if (st->phase != GCM_AAD)
        return HWC_ERR_STATE;
    if (tag_len < GCM_TAG_MIN || tag_len > GCM_TAG_MAX)
        return HWC_ERR_TAG_LEN;
    alignas(16) uint8_t full_tag[16];
    gcm_compute_tag(ctx, st, full_tag);
    memcpy(tag, full_tag, tag_len);
    hwc_wipe(full_tag, sizeof full_tag);
    hwc_wipe(st->aad_block, 2 * HWC_BLOCK);
    st->phase = GCM_DONE;
    return HWC_OK;
}

/*
 * One whole short message (hwc_aead_seal / hwc_aead_open): with a 96-bit IV,
 * at most GCM_SHORT_MAX bytes of data and GCM_SHORT_MAX_AAD of AAD, the streaming
 * machinery (pending blocks, a GHASH call and a reduction per stage, E(J0)
 * as a separate cipher call) costs more than the work. Here E(J0) and the
 * keystream come from one k_ctr32 call starting at J0, and AAD || C ||
 * lengths, zero-padded in one buffer, go through one GHASH call (one
 * aggregated reduction with the back end's precomputed powers of H).
 * Works with every back end: it calls only k_ctr32 and the GHASH back end.
 * The limits: up to 256 bytes of data this path measured faster than the
 * streaming one on every x86 back end (aesni, vaes, vaes512); above, the
 * fused bulk kernels take over. With a gcm_crypt kernel, GCM_WHOLE_FROM
 * bytes and up go to it instead: the vaes kernels' 16-block batches run
 * from 16 blocks on, and a 256-byte seal through gcm_whole took 0.66-0.72
 * of gcm_short's time on Intel's AVX2 path (17 CTR blocks here are one
 * batch and one AES-NI block, and 18 GHASH blocks a second pass).
 */
#define GCM_SHORT_MAX 256     /* data bytes */
#define GCM_SHORT_MAX_AAD 64  /* AAD bytes (a TLS record header is 13) */
#define GCM_SHORT_BLOCKS (GCM_SHORT_MAX / HWC_BLOCK)
#define GCM_SHORT_AAD_BLOCKS (GCM_SHORT_MAX_AAD / HWC_BLOCK)
#define GCM_WHOLE_FROM 256 /* data bytes, with a gcm_crypt kernel */

/* The context after a whole message, as the streaming calls leave it. */
static void gcm_whole_done(hwc_ctx *ctx, gcm_state *st, int encrypt, size_t aad_len, size_t in_len, size_t tag_len,
                           const uint8_t full_tag[16]) {
    ctx->encrypt = encrypt;
    ctx->started = 1;
    st->phase = GCM_DONE;
    st->have_tag = encrypt;
    st->tag_len = tag_len;
    st->aad_len = aad_len;
    st->msg_len = in_len;
    st->pending_len = 0;
    st->aad_deferred = 0;
    if (encrypt)
        memcpy(st->tag, full_tag, 16);
}

/*
 * A whole message of any length with a 96-bit IV, for back ends with a
 * gcm_crypt kernel: the AAD (its last block zero-padded) goes in as the
 * kernel's pre blocks (at most two; longer AAD hashes its leading blocks
 * first), every whole data block through the kernel, the partial last block
 * (if any, zero-padded) and the lengths block as its post blocks, and the
 * partial block's counter and J0 through the cipher in the same call: the
 * kernel encrypts the partial block and its last reduction covers it and
 * the lengths, so no GHASH call follows. Decryption writes the plaintext
 * before the tag check (hwc_aead_open wipes it on failure, as after the
 * streaming calls).
 */
GCM_OUT_OF_LINE static int gcm_whole(hwc_ctx *ctx, int encrypt, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                     size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out,
                                     uint8_t *tag_out, const uint8_t *tag_in, size_t tag_len) {
    (void)iv_len; /* GCM_FAST_IV_LEN: checked by gcm_oneshot */
    gcm_state *st = gcm_get(ctx);
    alignas(16) uint8_t counter[16], hash[16] = {0}, pre[32], ecb[32], post[32], full_tag[16];
    const size_t nblocks = in_len / HWC_BLOCK, rest = in_len % HWC_BLOCK, aad_total = aad_len;
    size_t npre = 0;

    gcm_counter_block(counter, iv, 2);
    if (aad_len > 2 * HWC_BLOCK) {
        size_t lead = (aad_len - 1) / HWC_BLOCK; /* leaves 1..16 bytes */
        hwc_ghash_update(ctx->ghash, &st->hkey, hash, aad, lead);
        aad += HWC_BLOCK * lead;
        aad_len -= HWC_BLOCK * lead;
    }
    if (aad_len != 0) {
        npre = (aad_len + HWC_BLOCK - 1) / HWC_BLOCK;
        memset(pre, 0, sizeof pre);
        memcpy(pre, aad, aad_len);
    }
    /* ecb: the partial block's counter (if any), then J0. post: the
     * partial block (if any), then the lengths. */
    uint8_t *ej0 = rest ? ecb + HWC_BLOCK : ecb, *lengths = rest ? post + HWC_BLOCK : post;
    gcm_counter_block(ej0, iv, 1);
    const uint8_t *src = in + HWC_BLOCK * nblocks;
    uint8_t *dst = out + HWC_BLOCK * nblocks;
    if (rest) {
        gcm_counter_block(ecb, iv, (uint32_t)(2 + nblocks));
        memset(post, 0, HWC_BLOCK);
        memcpy(post, src, rest);
    }
    gcm_lengths_block(lengths, aad_total, in_len);
    st->crypt(&ctx->ks[0], &st->hkey, !encrypt, counter, hash, npre ? pre : NULL, npre, out, in, nblocks, ecb,
              rest ? 2 : 1, post, rest ? 2 : 1, rest);
    if (rest) {
        if (encrypt)
            memcpy(dst, post, rest);
        else
            for (size_t i = 0; i < rest; i++)
                dst[i] = (uint8_t)(post[i] ^ ecb[i]);
    }
    for (size_t i = 0; i < 16; i++)
        full_tag[i] = (uint8_t)(ej0[i] ^ hash[i]);

    int rc = HWC_OK;
    if (encrypt)
        memcpy(tag_out, full_tag, tag_len);
    else if (hwc_ct_memcmp(full_tag, tag_in, tag_len) != 0)
        rc = HWC_ERR_AUTH; /* hwc_aead_open wipes the output */
    gcm_whole_done(ctx, st, encrypt, aad_total, in_len, tag_len, full_tag);
    hwc_wipe(ecb, sizeof ecb); /* post holds ciphertext and lengths only */
    hwc_wipe(full_tag, sizeof full_tag);
    return rc;
}

/* Zeros for k_ctr32 to turn into E(J0) and the keystream of a short message. */
static const alignas(16) uint8_t gcm_short_zeros[HWC_BLOCK * (1 + GCM_SHORT_BLOCKS)] = {0};

/* The lengths block of a short message: both bit counts fit in 16 bits, so
 * bytes 6-7 and 14-15 of the (zeroed) block hold them. Byte stores: the
 * 16-byte big-endian store of two full 64-bit counts became ~40 lane
 * inserts on aarch64 (GCC 12 vectorizes it). */
_Static_assert(GCM_SHORT_MAX * 8 <= 0xffff && GCM_SHORT_MAX_AAD * 8 <= 0xffff, "short lengths fit in 16 bits");
static inline void gcm_short_lengths(uint8_t block[16], size_t aad_len, size_t in_len) {
    const unsigned aad_bits = (unsigned)aad_len * 8, in_bits = (unsigned)in_len * 8;
    block[6] = (uint8_t)(aad_bits >> 8);
    block[7] = (uint8_t)aad_bits;
    block[14] = (uint8_t)(in_bits >> 8);
    block[15] = (uint8_t)in_bits;
}

/* A short message: a 96-bit IV, aad_len <= GCM_SHORT_MAX_AAD and in_len <=
 * GCM_SHORT_MAX (checked by gcm_oneshot, its only caller). */
GCM_OUT_OF_LINE static int gcm_short(hwc_ctx *ctx, int encrypt, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                                     size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out,
                                     uint8_t *tag_out, const uint8_t *tag_in, size_t tag_len) {
    (void)iv_len; /* GCM_FAST_IV_LEN */
    gcm_state *st = gcm_get(ctx);
    const size_t aad_blocks = (aad_len + HWC_BLOCK - 1) / HWC_BLOCK;
    const size_t data_blocks = (in_len + HWC_BLOCK - 1) / HWC_BLOCK;
    /* stream: E(J0), then the keystream; E(J0) becomes the full tag (one
     * wipe for both). hashed: AAD || C || lengths. */
    alignas(16) uint64_t stream[2 * (1 + GCM_SHORT_BLOCKS)];
    alignas(16) uint64_t hashed[2 * (GCM_SHORT_AAD_BLOCKS + GCM_SHORT_BLOCKS + 1)];
    alignas(16) uint8_t counter[16], hash[16] = {0};
    uint8_t *hashed_bytes = (uint8_t *)hashed, *cipher = hashed_bytes + HWC_BLOCK * aad_blocks;
    uint64_t *cipher_words = hashed + 2 * aad_blocks;
    uint8_t *full_tag = (uint8_t *)stream;

    memcpy(counter, iv, GCM_FAST_IV_LEN);
    hwc_store_be32(counter + 12, 1);
    k_ctr32(ctx->impl, &ctx->ks[0], counter, (uint8_t *)stream, gcm_short_zeros, 1 + data_blocks);

    if (encrypt) {
        /* Only the pads zeroed, and the ciphertext's whole blocks made from
         * the input straight into hashed and out: filling hashed with zeros
         * and the input first, then copying it out, took 64-240 byte seals
         * 1.03-1.2x this time on x86. (Decryption keeps the plain copy: for
         * it the pad-only zeroing measured 1-4% slower at 16-64 bytes.) */
        const size_t whole = in_len / HWC_BLOCK, rest = in_len % HWC_BLOCK;
        if (aad_len) {
            memcpy(hashed_bytes, aad, aad_len);
            memset(hashed_bytes + aad_len, 0, HWC_BLOCK * aad_blocks - aad_len);
        }
        for (size_t w = 0; w < 2 * whole; w++) {
            uint64_t x;
            memcpy(&x, in + 8 * w, 8);
            x ^= stream[2 + w];
            cipher_words[w] = x;
            memcpy(out + 8 * w, &x, 8); /* in == out is fine: word w is read first */
        }
        if (rest) { /* zero-padded, encrypted, the pad zeroed again for GHASH */
            uint8_t *last = cipher + HWC_BLOCK * whole;
            memset(last, 0, HWC_BLOCK);
            memcpy(last, in + HWC_BLOCK * whole, rest);
            gcm_xor16(last, last, (const uint8_t *)(stream + 2 + 2 * whole));
            memset(last + rest, 0, HWC_BLOCK - rest);
            memcpy(out + HWC_BLOCK * whole, last, rest);
        }
        memset(cipher + HWC_BLOCK * data_blocks, 0, HWC_BLOCK);
    } else {
        memset(hashed, 0, HWC_BLOCK * (aad_blocks + data_blocks + 1));
        if (aad_len)
            memcpy(hashed_bytes, aad, aad_len);
        if (in_len)
            memcpy(cipher, in, in_len);
    }
    gcm_short_lengths(cipher + HWC_BLOCK * data_blocks, aad_len, in_len);
    hwc_ghash_update(ctx->ghash, &st->hkey, hash, hashed_bytes, aad_blocks + data_blocks + 1);
    gcm_xor16(full_tag, full_tag, hash);

    int rc = HWC_OK;
    if (encrypt) {
        memcpy(tag_out, full_tag, tag_len);
    } else if (hwc_ct_memcmp(full_tag, tag_in, tag_len) != 0) {
        rc = HWC_ERR_AUTH; /* nothing written */
    } else {
        for (size_t w = 0; w < 2 * data_blocks; w++)
            cipher_words[w] ^= stream[2 + w];
        if (in_len)
            memcpy(out, cipher, in_len);
    }
    /* The context ends as after the streaming calls: message done. */
    gcm_whole_done(ctx, st, encrypt, aad_len, in_len, tag_len, full_tag);
    hwc_wipe(stream, HWC_BLOCK * (1 + data_blocks));
    if (!encrypt)
        hwc_wipe(cipher, HWC_BLOCK * data_blocks); /* plaintext */
    return rc;
}

/*
 * hwc_aead_seal/open's one pass: a short message, or a whole message through
 * the back end's gcm_crypt kernel; HWC_NOT_HANDLED sends the rest through the
 * streaming calls. gcm_short and gcm_whole take this function's arguments so
 * that the call is a jump (no argument moves, no frame here), and each keeps
 * its own frame and saved registers off the other's path: inlined into one
 * function, GCC 12 gave the short path the whole-message prologue (15 more
 * instructions a message on aarch64).
 */
static int gcm_oneshot(hwc_ctx *ctx, int encrypt, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                       size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag_out,
                       const uint8_t *tag_in, size_t tag_len) {
    const gcm_state *st = gcm_get(ctx);
    if (iv_len != GCM_FAST_IV_LEN || !st->keyed || tag_len < GCM_TAG_MIN || tag_len > GCM_TAG_MAX)
        return HWC_NOT_HANDLED;
    if (aad_len <= GCM_SHORT_MAX_AAD && in_len <= GCM_SHORT_MAX && !(st->crypt && in_len >= GCM_WHOLE_FROM))
        return gcm_short(ctx, encrypt, iv, iv_len, aad, aad_len, in, in_len, out, tag_out, tag_in, tag_len);
    if (!st->crypt || hwc_len_over(in_len, GCM_MAX_MSG_BYTES) || hwc_len_over(aad_len, GCM_MAX_AAD_BYTES))
        return HWC_NOT_HANDLED;
    return gcm_whole(ctx, encrypt, iv, iv_len, aad, aad_len, in, in_len, out, tag_out, tag_in, tag_len);
}

const hwc_mode_ops hwc_mode_gcm_ops = {
    .set_key = gcm_set_key,
    .check_iv = gcm_check_iv,
    .start = gcm_start,
    .aad = gcm_aad,
    .update = gcm_update,
    .final = gcm_final,
    .set_tag_len = gcm_set_tag_len,
    .set_tag = gcm_set_tag,
    .get_tag = gcm_get_tag,
    .aead_oneshot = gcm_oneshot, /* not GMAC's: a MAC has no AEAD calls */
};

const hwc_mode_ops hwc_mode_gmac_ops = {
    .set_key = gcm_set_key,
    .check_iv = gcm_check_iv,
    .start = gcm_start,
    .aad = gcm_aad,
    .mac_final = gmac_final,
};
