/*
 * The mode layer: what a mode (src/modes/) needs. A mode is an hwc_mode_ops
 * table that owns the mode's rules and calls the kernels only through the
 * k_*() helpers and the GHASH glue; it never names a back end or dispatch.
 */
#ifndef HWCRYPT_MODE_H
#define HWCRYPT_MODE_H

#include "backend.h"

/* Mode-private state lives in the context, aligned; each mode casts it to
 * its own struct and static-asserts the size. */
#define HWC_MODE_STATE_BYTES 2048

typedef struct hwc_mode_ops hwc_mode_ops;

struct hwc_cipher {
    const char *name;      /* OpenSSL spelling, lower case */
    hwc_family family;
    hwc_mode mode;
    size_t key_len;        /* total key bytes the caller passes */
    size_t block_key_len;  /* bytes of one block-cipher key (16/24/32) */
    size_t iv_len;         /* default IV / nonce length */
    size_t tag_len;        /* default tag length */
    size_t block_size;     /* 16 for ECB/CBC, else 1 */
    unsigned flags;        /* HWC_CIPHER_* */
    const hwc_mode_ops *ops;
};

struct hwc_ctx {
    const hwc_cipher *cipher;      /* NULL until the first hwc_init */
    const hwc_block_impl *impl;    /* block back end chosen at key setup */
    const hwc_ghash_impl *ghash;   /* GHASH back end (GCM, GMAC, GCM-SIV) */
    char forced[24];               /* back-end name from hwc_ctx_set_impl, or "" (automatic) */
    int encrypt;                   /* HWC_ENCRYPT / HWC_DECRYPT */
    int keyed;                     /* a key schedule is present */
    int started;                   /* mode start() succeeded: ready for data */
    hwc_ks ks[2];                  /* [0] main key; [1] second key (XTS tweak, SIV CTR, GCM-SIV message key) */
    alignas(64) uint8_t mode_state[HWC_MODE_STATE_BYTES];
};

/*
 * A mode. api.c has already checked: ctx has a cipher (else HWC_ERR_STATE),
 * non-NULL pointers for non-zero lengths, no partial overlap of in/out, and
 * that the operation's function pointer is non-NULL (else
 * HWC_ERR_UNSUPPORTED). The mode checks lengths and its own state, and must
 * return an error *before* changing anything.
 */
struct hwc_mode_ops {
    /* Key setup (ctx->impl, ctx->ghash, ctx->encrypt already set): validate
     * key_len against ctx->cipher (HWC_ERR_KEY_LEN, HWC_ERR_WEAK_KEY), then
     * fill ctx->ks[] and any per-key mode state (e.g. GHASH H, OCB L table,
     * CMAC subkeys). Called before start(). */
    int (*set_key)(hwc_ctx *ctx, const uint8_t *key, size_t key_len);
    /* Validate an IV length without side effects (so api.c can check it
     * before set_key touches anything). NULL: the IV must be absent (0). */
    int (*check_iv)(const hwc_cipher *cipher, size_t iv_len);
    /* New message with the current key (resets per-message state). */
    int (*start)(hwc_ctx *ctx, const uint8_t *iv, size_t iv_len);
    int (*aad)(hwc_ctx *ctx, const uint8_t *aad, size_t aad_len);
    int (*update)(hwc_ctx *ctx, uint8_t *out, size_t *out_len, const uint8_t *in, size_t in_len);
    int (*final)(hwc_ctx *ctx, uint8_t *out, size_t *out_len);
    /* CFB1 only: nbits bits, most significant bit of each byte first. */
    int (*update_bits)(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t nbits);
    int (*set_padding)(hwc_ctx *ctx, int on);
    int (*set_tag_len)(hwc_ctx *ctx, size_t tag_len);
    int (*set_lengths)(hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len);
    int (*set_tag)(hwc_ctx *ctx, const uint8_t *tag, size_t tag_len);
    int (*get_tag)(hwc_ctx *ctx, uint8_t *tag, size_t tag_len);
    /* MACs: the message goes through aad(). */
    int (*mac_final)(hwc_ctx *ctx, uint8_t *tag, size_t tag_len);
    /* Key wrap. On unwrap failure: zero out (out_cap bytes), HWC_ERR_AUTH. */
    int (*wrap)(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len);
    int (*unwrap)(hwc_ctx *ctx, const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len);
    /* Key wrap: the length errors wrap (wrap != 0) or unwrap would return
     * (HWC_ERR_DATA_LEN, HWC_ERR_BUFFER), without side effects, so api.c
     * can report them before an overlap. */
    int (*wrap_lengths)(const hwc_ctx *ctx, int wrap, size_t in_len, size_t out_cap);
    /* CBC, CFB, OFB, CTR: the 16-byte chaining value (hwc_get_iv). */
    void (*get_iv)(const hwc_ctx *ctx, uint8_t iv[16]);
    /* Optional one-shot AEAD for messages the mode can finish in one pass
     * (GCM: 96-bit IV, short data and AAD), called by hwc_aead_seal/open
     * after their checks, with tag_out (seal) or tag_in (open). Returns
     * HWC_NOT_HANDLED, having changed nothing, for a message it does not
     * take: the caller then runs the streaming calls. Otherwise it leaves
     * the context as they would (message done, tag readable). */
    int (*aead_oneshot)(hwc_ctx *ctx, int encrypt, const uint8_t *iv, size_t iv_len, const uint8_t *aad,
                        size_t aad_len, const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag_out,
                        const uint8_t *tag_in, size_t tag_len);
};
#define HWC_NOT_HANDLED 1

extern const hwc_mode_ops hwc_mode_ecb_ops, hwc_mode_cbc_ops, hwc_mode_cfb128_ops,
    hwc_mode_cfb8_ops, hwc_mode_cfb1_ops, hwc_mode_ofb_ops, hwc_mode_ctr_ops,
    hwc_mode_xts_ops, hwc_mode_gcm_ops, hwc_mode_gmac_ops, hwc_mode_ccm_ops,
    hwc_mode_ocb_ops, hwc_mode_cmac_ops, hwc_mode_siv_ops, hwc_mode_gcm_siv_ops,
    hwc_mode_kw_ops, hwc_mode_kwp_ops;

/* Typed view of the mode state. */
#define HWC_MODE_STATE(ctx, type) ((type *)(void *)(ctx)->mode_state)
#define HWC_MODE_STATE_CONST(ctx, type) ((const type *)(const void *)(ctx)->mode_state)
#define HWC_MODE_STATE_FITS(type) \
    _Static_assert(sizeof(type) <= HWC_MODE_STATE_BYTES, #type " must fit in hwc_ctx.mode_state")

/* GHASH and POLYVAL through the context's GHASH back end (src/modes/ghash.c). */
void hwc_ghash_init(const hwc_ghash_impl *g, hwc_ghash_key *key, const uint8_t h[16]);
void hwc_ghash_update(const hwc_ghash_impl *g, const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks);
void hwc_polyval_init(const hwc_ghash_impl *g, hwc_ghash_key *key, const uint8_t h[16]);
void hwc_polyval_update(const hwc_ghash_impl *g, const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks);

/* ------------------------------------------------- shared mode pieces */

/* Doubling in GF(2^128), big-endian bit order (CMAC subkeys, SIV's S2V,
 * OCB's L table): out = in << 1, xor 0x87 into the last byte if the top bit
 * was set. Constant time. out may equal in. */
void hwc_gf128_dbl_be(uint8_t out[16], const uint8_t in[16]);

/* Streaming CMAC core (src/modes/cmac.c), shared by CMAC and SIV's S2V. */
typedef struct hwc_cmac_state {
    alignas(16) uint8_t k1[16]; /* subkeys of SP 800-38B */
    alignas(16) uint8_t k2[16];
    alignas(16) uint8_t mac[16];  /* running CBC-MAC */
    alignas(16) uint8_t buf[16];  /* pending bytes: the last block is held back */
    size_t buf_len;
} hwc_cmac_state;
/* Derive subkeys from ks (an encryption schedule) and reset. */
void hwc_cmac_init(hwc_cmac_state *st, const hwc_block_impl *im, const hwc_ks *ks);
/* Forget absorbed data, keep subkeys. */
void hwc_cmac_reset(hwc_cmac_state *st);
void hwc_cmac_absorb(hwc_cmac_state *st, const hwc_block_impl *im, const hwc_ks *ks, const uint8_t *in, size_t len);
/* Full 16-byte tag; the state is then reset for another message. */
void hwc_cmac_finish(hwc_cmac_state *st, const hwc_block_impl *im, const hwc_ks *ks, uint8_t mac[16]);

#endif /* HWCRYPT_MODE_H */
