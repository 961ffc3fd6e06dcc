/*
 * The kernel layer: what a back end needs, and what the modes call kernels
 * through. Nothing here knows a mode, a context or the public API's routing.
 *
 * Layers, top first; a file includes and calls only its own layer and the
 * ones below (tests/check-layers.sh enforces it; docs/ARCHITECTURE.md):
 *   api       src/api.c                         internal.h (everything)
 *   modes     src/modes/                        mode.h
 *   dispatch  src/dispatch.c                    dispatch.h
 *   back ends src/ct, src/x86, src/riscv        getters.h (+ their own)
 *   kernel    src/kernel/, src/cpu/, src/util.c backend.h
 * Back ends may call the kernel layer (generic kernels, key setup, CPU
 * capabilities, utilities); it reaches a back end only through its table.
 */
#ifndef HWCRYPT_BACKEND_H
#define HWCRYPT_BACKEND_H

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
    /* Optional: a whole GCM step in one call, for the same back ends (the
     * paired GHASH wrote hk). In order: GHASH absorbs the npre (0..2) blocks
     * at pre (GCM byte order: a waiting AAD block, a completed partial data
     * block); CTR32 stitched with GHASH of the ciphertext (of in when
     * decrypt, else of out) runs over all nblocks whole blocks, ctr and
     * ghash_state updated as above; the n_ecb (0..2) blocks at ecb are
     * encrypted in place (e.g. the counter block of a partial last block
     * and J0 for the tag); GHASH absorbs the npost (0..2) blocks at post
     * after the data (a whole message's partial block and lengths block).
     * partial (0..15): when nonzero, post's first block holds a partial
     * last data block of that many bytes, zero-padded, and ecb's first its
     * counter block; when encrypting, that block is encrypted in place
     * with ecb's keystream (its padding stays zero) before GHASH absorbs
     * it; when decrypting it is hashed as given (the caller decrypts it
     * with ecb's keystream). When set, gcm.c makes one such call per update
     * or whole message instead of separate GHASH, CTR and cipher calls. */
    void (*gcm_crypt)(const hwc_ks *ks, const struct hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                      uint8_t ghash_state[16], const uint8_t *pre, size_t npre, uint8_t *out, const uint8_t *in,
                      size_t nblocks, uint8_t *ecb, size_t n_ecb, uint8_t *post, size_t npost, size_t partial);
    /* Optional fused CCM over whole blocks: CTR (ctr incremented as a
     * 128-bit big-endian integer, like ctr128) interleaved with the CBC-MAC
     * of the plaintext, so the two serial chains overlap. Encryption: mac
     * absorbs in, out = in ^ E(ctr++). Decryption: out = in ^ E(ctr++),
     * mac absorbs out. out may equal in. */
    void (*ccm_enc)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                    size_t nblocks);
    void (*ccm_dec)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                    size_t nblocks);
    /* Optional CTR incrementing only the first 4 bytes, little-endian, mod
     * 2^32 (GCM-SIV). */
    void (*ctr32le)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
    /* Optional key wrap (SP 800-38F): the wrapping function W and its
     * inverse over a (the 8-byte integrity register) and r (n >= 2
     * semiblocks, any alignment), both updated in place; the 6n block
     * operations use the decryption function when `decrypt` is set (W of
     * the inverse-cipher variants, W^-1 of the forward ones), else the
     * encryption function. The whole walk is serial: one call keeps the
     * round keys in registers for all of it. */
    void (*kw_w)(const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n);
    void (*kw_winv)(const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n);
} hwc_block_impl;

/* GHASH key: the back end's precomputed powers of H (the largest:
 * "vpclmul512", H^32..H^1 and their Karatsuba halves). */
#define HWC_GHASH_KEY_BYTES 1024
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

/* What the CPU has (src/cpu/): hwc_caps() (public) is what back ends may
 * ask at run time; the arch probe behind it is src/cpu/<arch>.c and returns
 * the HWC_CAP_* bits the CPU and OS support. */
uint64_t hwc_cpu_probe_arch(void);

/* Block key setup (src/kernel/key.c): validates a block-cipher key length
 * for impl's family (AES 16/24/32, SM4 16; HWC_ERR_KEY_LEN) and writes ks. */
int hwc_block_set_key(const hwc_block_impl *impl, hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec);

/* ------------------------------------------------------ generic kernels */

/* Built on ecb_enc / ecb_dec, several blocks per call (src/kernel/generic.c). */
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
void hwc_generic_ctr32le(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_generic_kw_w(const hwc_block_impl *im, const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n);
void hwc_generic_kw_winv(const hwc_block_impl *im, const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n);
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
HWC_KERNEL_CHAIN(ctr32le)
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

static inline void k_kw_w(const hwc_block_impl *im, const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n) {
    if (im->kw_w)
        im->kw_w(ks, decrypt, a, r, n);
    else
        hwc_generic_kw_w(im, ks, decrypt, a, r, n);
}
static inline void k_kw_winv(const hwc_block_impl *im, const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r,
                             size_t n) {
    if (im->kw_winv)
        im->kw_winv(ks, decrypt, a, r, n);
    else
        hwc_generic_kw_winv(im, ks, decrypt, a, r, n);
}

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

#endif /* HWCRYPT_BACKEND_H */
