/*
 * Internal contracts of hwcrypt, written once.
 *
 * Three layers meet here:
 *   - back ends (src/ct, src/x86, src/riscv): tables of block kernels
 *     (hwc_block_impl) and GHASH kernels (hwc_ghash_impl);
 *   - modes (src/modes): one file per mode, each an hwc_mode_ops table that
 *     owns the mode's rules and calls only the kernels through the k_*()
 *     helpers below;
 *   - the public API (src/api.c) and dispatch (src/dispatch.c), which check
 *     pointers, pick a back end at key setup and route calls to the mode.
 */
#ifndef HWCRYPT_INTERNAL_H
#define HWCRYPT_INTERNAL_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwcrypt/hwcrypt.h"

#define HWC_BLOCK 16

/* ------------------------------------------------------------- back ends */

/* A key schedule: opaque to everything but the back end that wrote it. One
 * schedule holds both directions (set_key writes the decryption part only
 * when asked). Aligned so kernels may use aligned vector loads on it. */
#define HWC_KS_BYTES 2048
typedef union hwc_ks {
    alignas(64) uint8_t bytes[HWC_KS_BYTES];
    uint32_t w32[HWC_KS_BYTES / 4]; /* word views: back ends read round keys */
    uint64_t w64[HWC_KS_BYTES / 8]; /* as words without aliasing casts */
} hwc_ks;

struct hwc_ghash_key; /* below; fused GCM kernels take one */

#define HWC_IMPL_CONSTANT_TIME 0x1u /* no secret-dependent branch or address */

/*
 * Block-cipher back end. Every kernel works on whole 16-byte blocks; `in`
 * and `out` are caller buffers of any alignment, equal or disjoint; `nblocks`
 * may be 0. `iv`, `ctr`, `tweak` are 16-byte chaining values owned by the
 * mode (kept aligned in the context) and are updated to continue the stream.
 * Required: set_key, ecb_enc, ecb_dec. Every other kernel may be NULL: the
 * k_*() helpers then run the generic version built on ecb_enc/ecb_dec.
 */
typedef struct hwc_block_impl {
    const char *name;       /* "ct", "aesni", "zkn64", ... */
    hwc_family family;      /* AES or SM4 */
    uint64_t required_caps; /* all of these HWC_CAP_* bits must be present */
    unsigned flags;         /* HWC_IMPL_* */
    const char *ghash_name; /* GHASH back end to pair with when forced (NULL: auto) */
    const char *note;       /* shown by `hwcrypt caps` / list when usable (NULL: none) */
    /* Extra run-time condition beyond required_caps (e.g. VLEN); NULL: none.
     * Returns 1 if usable, else 0 and sets *why. */
    int (*usable)(uint64_t caps, const char **why);

    /* key_len is 16, 24 or 32 for AES, 16 for SM4 (already validated).
     * want_dec: also prepare the decryption schedule. */
    void (*set_key)(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec);

    void (*ecb_enc)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*ecb_dec)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);

    /* Optional bulk kernels. */
    void (*cbc_enc)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*cbc_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* Full-block CFB-128; iv holds the last ciphertext block. */
    void (*cfb_enc)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*cfb_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* Full-block OFB; iv holds the last keystream block. */
    void (*ofb)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* CTR with the whole 16-byte counter a big-endian integer (wraps at 2^128). */
    void (*ctr128)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* CTR incrementing only the last 4 bytes, big-endian, mod 2^32 (GCM). */
    void (*ctr32)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* XTS full blocks: tweak is the current encrypted tweak T_j; on return it
     * is T_{j+nblocks} (multiplied by alpha, IEEE 1619 little-endian order). */
    void (*xts_enc)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*xts_dec)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* CBC-MAC absorb: mac = E(mac ^ block) for each block (CMAC, CCM). */
    void (*cbc_mac)(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks);
    /* OCB3 full blocks. first_index is the 1-based index i of the first
     * block; L[k] = L_k of RFC 7253 for k = 0..63 (aligned). offset and
     * checksum are updated. */
    void (*ocb_enc)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                    uint8_t offset[16], uint8_t checksum[16],
                    uint8_t *out, const uint8_t *in, size_t nblocks);
    void (*ocb_dec)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                    uint8_t offset[16], uint8_t checksum[16],
                    uint8_t *out, const uint8_t *in, size_t nblocks);

    /* Optional fused GCM: CTR32 encryption stitched with GHASH over the
     * ciphertext, for back ends whose paired GHASH (ghash_name) wrote hk.
     * Processes a prefix of the nblocks whole blocks (e.g. a multiple of its
     * stride) and returns how many; the mode finishes the rest. ctr and
     * ghash_state (GCM byte order) are updated. */
    size_t (*gcm_enc)(const hwc_ks *ks, const struct hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                      uint8_t *out, const uint8_t *in, size_t nblocks);
    size_t (*gcm_dec)(const hwc_ks *ks, const struct hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                      uint8_t *out, const uint8_t *in, size_t nblocks);
    /* Optional fused CCM over whole blocks: CTR (ctr incremented as a
     * 128-bit big-endian integer, like ctr128) interleaved with the CBC-MAC
     * of the plaintext, so the two serial chains overlap. Encryption: mac
     * absorbs in, out = in ^ E(ctr++). Decryption: out = in ^ E(ctr++),
     * mac absorbs out. out may equal in. */
    void (*ccm_enc)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                    size_t nblocks);
    void (*ccm_dec)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                    size_t nblocks);
} hwc_block_impl;

/* GHASH key: the back end's precomputed powers of H. */
#define HWC_GHASH_KEY_BYTES 512
typedef struct hwc_ghash_key {
    alignas(64) uint8_t bytes[HWC_GHASH_KEY_BYTES];
} hwc_ghash_key;

/*
 * GHASH back end (GCM bit order, as in SP 800-38D): for each 16-byte block
 * X of `in`, state = (state ^ X) * H. `state` is 16 bytes in GCM byte order.
 * POLYVAL (GCM-SIV) is derived from GHASH by the mode (RFC 8452 App. A)
 * unless polyval_update is given.
 */
typedef struct hwc_ghash_impl {
    const char *name;
    uint64_t required_caps;
    unsigned flags;
    int (*usable)(uint64_t caps, const char **why);
    void (*init)(hwc_ghash_key *key, const uint8_t h[16]);
    void (*update)(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks);
    /* Optional native POLYVAL with the same key layout as polyval_init. */
    void (*polyval_init)(hwc_ghash_key *key, const uint8_t h[16]);
    void (*polyval_update)(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks);
} hwc_ghash_impl;

/* Getters: NULL when the back end is not compiled in. Availability on this
 * CPU is decided by dispatch from required_caps and usable(). */
const hwc_block_impl *hwc_aes_ct_get(void);
const hwc_block_impl *hwc_sm4_ct_get(void);
const hwc_ghash_impl *hwc_ghash_ct_get(void);
/* Test hook: the portable SM4 S-box evaluated by its circuit for all 256 inputs. */
void hwc_sm4_ct_sbox_for_test(uint8_t table[256]);
/* x86-64 (src/x86/): NULL on other architectures. */
const hwc_block_impl *hwc_aes_aesni_get(void);
const hwc_block_impl *hwc_aes_vaes_get(void);
const hwc_block_impl *hwc_aes_vaes512_get(void);
const hwc_block_impl *hwc_sm4_aesni_get(void);
const hwc_block_impl *hwc_sm4_gfni_get(void);
const hwc_block_impl *hwc_sm4_gfni512_get(void);
const hwc_ghash_impl *hwc_ghash_pclmul_get(void);
const hwc_ghash_impl *hwc_ghash_vpclmul_get(void);

/* ------------------------------------------------------------- dispatch */

/* Capabilities in effect (src/cpu/caps.c); the arch probe is in
 * src/cpu/<arch>.c and returns the HWC_CAP_* bits the CPU and OS support. */
uint64_t hwc_cpu_probe_arch(void);

/* First available back end of the family in priority order. */
const hwc_block_impl *hwc_select_block_impl(hwc_family family);
/* By name; HWC_ERR_UNKNOWN / HWC_ERR_UNAVAILABLE (with *why) on failure. */
int hwc_find_block_impl(hwc_family family, const char *name, const hwc_block_impl **out, const char **why);
const hwc_ghash_impl *hwc_select_ghash_impl(void);
/* The same for GHASH back ends (tests). */
int hwc_find_ghash_impl(const char *name, const hwc_ghash_impl **out, const char **why);
/* GHASH paired with a block back end (its ghash_name if available, else auto). */
const hwc_ghash_impl *hwc_ghash_for(const hwc_block_impl *impl);
/* 1 if usable under the current caps; else 0 and *why. */
int hwc_block_impl_usable(const hwc_block_impl *impl, const char **why);
int hwc_ghash_impl_usable(const hwc_ghash_impl *impl, const char **why);

/* ---------------------------------------------------------------- modes */

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
    /* CBC, CFB, OFB, CTR: the 16-byte chaining value (hwc_get_iv). */
    void (*get_iv)(const hwc_ctx *ctx, uint8_t iv[16]);
};

extern const hwc_mode_ops hwc_mode_ecb_ops, hwc_mode_cbc_ops, hwc_mode_cfb128_ops,
    hwc_mode_cfb8_ops, hwc_mode_cfb1_ops, hwc_mode_ofb_ops, hwc_mode_ctr_ops,
    hwc_mode_xts_ops, hwc_mode_gcm_ops, hwc_mode_gmac_ops, hwc_mode_ccm_ops,
    hwc_mode_ocb_ops, hwc_mode_cmac_ops, hwc_mode_siv_ops, hwc_mode_gcm_siv_ops,
    hwc_mode_kw_ops, hwc_mode_kwp_ops;

/* One-shot GCM for short messages (src/modes/gcm.c), called by
 * hwc_aead_seal/open after their checks. tag_out (seal) or tag_in (open).
 * Returns HWC_NOT_HANDLED, having changed nothing, when the message is not
 * one it takes (not GCM, IV not 96 bits, too long): the caller then runs
 * the streaming path. */
#define HWC_NOT_HANDLED 1
int hwc_gcm_oneshot(hwc_ctx *ctx, int encrypt, const uint8_t *iv, size_t iv_len, const uint8_t *aad, size_t aad_len,
                    const uint8_t *in, size_t in_len, uint8_t *out, uint8_t *tag_out, const uint8_t *tag_in,
                    size_t tag_len);

/* Typed view of the mode state. */
#define HWC_MODE_STATE(ctx, type) ((type *)(void *)(ctx)->mode_state)
#define HWC_MODE_STATE_CONST(ctx, type) ((const type *)(const void *)(ctx)->mode_state)
#define HWC_MODE_STATE_FITS(type) \
    _Static_assert(sizeof(type) <= HWC_MODE_STATE_BYTES, #type " must fit in hwc_ctx.mode_state")

/* Shared key-setup helper: validates a block-cipher key length for the
 * family (AES 16/24/32, SM4 16) and writes ks with ctx->impl. */
int hwc_block_set_key(const hwc_ctx *ctx, hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec);

/* ------------------------------------------------------ generic kernels */

/* Built on ecb_enc / ecb_dec, several blocks per call (src/modes/generic.c). */
void hwc_generic_cbc_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_cbc_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_cfb_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_cfb_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_ofb(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_ctr128(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_ctr32(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_xts_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_xts_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_cbc_mac(const hwc_block_impl *im, const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks);
void hwc_generic_ocb_enc(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                         uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_ocb_dec(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                         uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks);

/* Kernel calls used by the modes: the back end's own, else generic. */
#define HWC_KERNEL_CHAIN(op)                                                                      \
    static inline void k_##op(const hwc_block_impl *im, const hwc_ks *ks, uint8_t chain[16],       \
                              uint8_t *out, const uint8_t *in, size_t nblocks) {                   \
        if (im->op)                                                                                \
            im->op(ks, chain, out, in, nblocks);                                                   \
        else                                                                                       \
            hwc_generic_##op(im, ks, chain, out, in, nblocks);                                     \
    }
HWC_KERNEL_CHAIN(cbc_enc)
HWC_KERNEL_CHAIN(cbc_dec)
HWC_KERNEL_CHAIN(cfb_enc)
HWC_KERNEL_CHAIN(cfb_dec)
HWC_KERNEL_CHAIN(ofb)
HWC_KERNEL_CHAIN(ctr128)
HWC_KERNEL_CHAIN(ctr32)
HWC_KERNEL_CHAIN(xts_enc)
HWC_KERNEL_CHAIN(xts_dec)
#undef HWC_KERNEL_CHAIN

static inline void k_ecb_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    im->ecb_enc(ks, out, in, nblocks);
}
static inline void k_ecb_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    im->ecb_dec(ks, out, in, nblocks);
}
static inline void k_cbc_mac(const hwc_block_impl *im, const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    if (im->cbc_mac)
        im->cbc_mac(ks, mac, in, nblocks);
    else
        hwc_generic_cbc_mac(im, ks, mac, in, nblocks);
}
static inline void k_ocb_enc(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                             uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (im->ocb_enc)
        im->ocb_enc(ks, L, first_index, offset, checksum, out, in, nblocks);
    else
        hwc_generic_ocb_enc(im, ks, L, first_index, offset, checksum, out, in, nblocks);
}
static inline void k_ocb_dec(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                             uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (im->ocb_dec)
        im->ocb_dec(ks, L, first_index, offset, checksum, out, in, nblocks);
    else
        hwc_generic_ocb_dec(im, ks, L, first_index, offset, checksum, out, in, nblocks);
}

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

/* ---------------------------------------------------------------- utils */

/* Wipe that the compiler may not elide. */
void hwc_wipe(void *p, size_t n);
/* Constant-time comparison: 0 if equal, else non-zero (no early exit).
 * The result is declassified (HWC_DECLASSIFY): it is the single public bit
 * of a tag comparison or integrity check. */
int hwc_ct_memcmp(const void *a, const void *b, size_t n);
/* The valgrind constant-time check (tests/ct/) marks keys and data
 * undefined; memcheck then reports every branch and address that depends on
 * them.  HWC_DECLASSIFY marks n bytes at p as defined: only for values that
 * are public by design (a comparison's result, a padding check's result and
 * the length it gives).  With HWC_CT_VALGRIND off it compiles to nothing;
 * on, it is a client request that costs a few instructions outside valgrind. */
#if defined(HWC_CT_VALGRIND) && HWC_CT_VALGRIND
#include <valgrind/memcheck.h>
#define HWC_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define HWC_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif
/* XOR n bytes: out = a ^ b (out may equal a or b). */
static inline void hwc_xor(uint8_t *out, const uint8_t *a, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(a[i] ^ b[i]);
}
static inline uint32_t hwc_load_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline void hwc_store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}
static inline uint64_t hwc_load_be64(const uint8_t *p) {
    return ((uint64_t)hwc_load_be32(p) << 32) | hwc_load_be32(p + 4);
}
static inline void hwc_store_be64(uint8_t *p, uint64_t v) {
    hwc_store_be32(p, (uint32_t)(v >> 32)); hwc_store_be32(p + 4, (uint32_t)v);
}
static inline uint32_t hwc_load_le32(const uint8_t *p) {
    return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | p[0];
}
static inline void hwc_store_le32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline uint64_t hwc_load_le64(const uint8_t *p) {
    return ((uint64_t)hwc_load_le32(p + 4) << 32) | hwc_load_le32(p);
}
static inline void hwc_store_le64(uint8_t *p, uint64_t v) {
    hwc_store_le32(p, (uint32_t)v); hwc_store_le32(p + 4, (uint32_t)(v >> 32));
}
/* Hides v from the optimizer.  A counter that goes up by one per loop
 * iteration can otherwise become the loop's induction variable, and the
 * loop's exit test a branch on the counter (which holds the secret-marked
 * IV: the valgrind constant-time check, tests/ct/, reports it). */
static inline uint64_t hwc_value_barrier_u64(uint64_t v) {
#if defined(__GNUC__)
    __asm__("" : "+r"(v));
#endif
    return v;
}
/* len > max for a size_t length against a 64-bit limit: a function, so that
 * where size_t is 32 bits the always-false comparison draws no warning. */
static inline int hwc_len_over(uint64_t len, uint64_t max) { return len > max; }
/* Add 1 to a 16-byte big-endian counter (mod 2^128). */
static inline void hwc_ctr128_inc(uint8_t ctr[16]) {
    unsigned carry = 1;
    for (int i = 15; i >= 0; i--) {
        carry += ctr[i];
        ctr[i] = (uint8_t)carry;
        carry >>= 8;
    }
}
/* Add 1 to the last 4 bytes, big-endian, mod 2^32. */
static inline void hwc_ctr32_inc(uint8_t ctr[16]) {
    hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + 1);
}

#endif /* HWCRYPT_INTERNAL_H */
