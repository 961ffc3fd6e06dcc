/*
 * Shared pieces of the x86-64 back ends (src/x86/): the AES-NI key schedule
 * layout inside hwc_ks, the PCLMULQDQ GHASH key layout inside hwc_ghash_key,
 * and the carry-less multiply/reduce steps that both the GHASH back end and
 * the fused GCM kernels use, so the two always agree on the key.
 *
 * GHASH is computed as POLYVAL (RFC 8452), whose bit order is the natural
 * one for PCLMULQDQ: a 16-byte POLYVAL block loaded little-endian is the
 * polynomial with x^i at bit i, and the 256-bit carry-less product needs no
 * shift. RFC 8452 Appendix A gives
 *     GHASH(H, X_1..X_n) =
 *         ByteReverse(POLYVAL(mulX_POLYVAL(ByteReverse(H)), ByteReverse(X_1), ...))
 * so GHASH is POLYVAL on byte-reversed blocks (one PSHUFB each) with the key
 * H' = mulX_POLYVAL(ByteReverse(H)), and a byte-reversed state. Both entry
 * points of the GHASH back end then share one key layout and one kernel.
 *
 * POLYVAL's product is dot(a, b) = a * b * x^-128 mod Q,
 * Q = x^128 + x^127 + x^126 + x^121 + 1. The x^-128 is a Montgomery
 * reduction: two folds of 64 bits, each one carry-less multiply by
 * x^63 + x^62 + x^57 (Q without its x^128 and 1 terms, divided by x^64).
 */
#ifndef HWCRYPT_X86_INTERNAL_H
#define HWCRYPT_X86_INTERNAL_H

#if defined(__x86_64__)

#include <immintrin.h>

#include "getters.h"

/* Per-function targets: the library runs on any x86-64, the dispatcher only
 * calls these functions when required_caps are present. */
#define HWC_TARGET_AESNI __attribute__((target("aes,pclmul,ssse3,sse4.1")))
#define HWC_TARGET_PCLMUL __attribute__((target("pclmul,ssse3")))

/* --------------------------------------------------- AES-NI key schedule */

#define AESNI_MAX_ROUNDS 14

/* Layout of an AES-NI schedule in hwc_ks. dec[] is the equivalent inverse
 * cipher's schedule (FIPS-197 5.3.5): dec[0] = enc[Nr], dec[r] =
 * InvMixColumns(enc[Nr - r]), dec[Nr] = enc[0]. */
typedef struct aesni_schedule {
    alignas(16) uint8_t enc[AESNI_MAX_ROUNDS + 1][16];
    alignas(16) uint8_t dec[AESNI_MAX_ROUNDS + 1][16];
    uint32_t rounds; /* 10, 12 or 14 */
} aesni_schedule;

_Static_assert(sizeof(aesni_schedule) <= HWC_KS_BYTES, "AES-NI schedule must fit in hwc_ks");

/* Key expansion (src/x86/aes_aesni.c), also for other x86 AES back ends. */
void hwc_aesni_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec);

/* The parallel kernels of "aesni", which the wider back ends call directly
 * (no table, no hop through "vaes") for calls and tails below 16 blocks: same
 * schedule layout. */
void hwc_aesni_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_xts_enc(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_xts_dec(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                       uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                       uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks);

/* The serial kernels of "aesni" (latency-bound at any register width), which
 * the wider back ends put in their own tables: same schedule layout. */
void hwc_aesni_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_cfb_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_ofb(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_aesni_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks);
void hwc_aesni_ccm_enc(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                       size_t nblocks);
void hwc_aesni_ccm_dec(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                       size_t nblocks);

#define HWC_X86_INLINE static inline __attribute__((always_inline))

/* Unaligned 16-byte loads and stores (plain SSE2, any back end). */
HWC_X86_INLINE __m128i x86_loadu(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
HWC_X86_INLINE void x86_storeu(uint8_t *p, __m128i v) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* Instantiate BODY(..., nr) for an AES-NI key's round count, so that round
 * loops run with a constant trip count. */
#define FOR_ROUNDS(ks, call_10, call_12, call_14) \
    do {                                            \
        switch (aesni_rounds(ks)) {                 \
        case 10: call_10; break;                    \
        case 12: call_12; break;                    \
        default: call_14; break;                    \
        }                                           \
    } while (0)
#define BY_ROUNDS(ks, body, ...) FOR_ROUNDS(ks, body(__VA_ARGS__, 10), body(__VA_ARGS__, 12), body(__VA_ARGS__, 14))

static inline const __m128i *aesni_enc_keys(const hwc_ks *ks) {
    return (const __m128i *)(const void *)(ks->bytes + offsetof(aesni_schedule, enc));
}
static inline const __m128i *aesni_dec_keys(const hwc_ks *ks) {
    return (const __m128i *)(const void *)(ks->bytes + offsetof(aesni_schedule, dec));
}
static inline unsigned aesni_rounds(const hwc_ks *ks) {
    uint32_t r;
    memcpy(&r, ks->bytes + offsetof(aesni_schedule, rounds), sizeof r);
    return r;
}

/* ------------------------------------------------ PCLMULQDQ GHASH key */

#define PCLMUL_POWERS 8 /* blocks per aggregated reduction */

/* Layout in hwc_ghash_key: powers of the POLYVAL-domain key (H' for GHASH,
 * H itself for native POLYVAL), each 16 bytes little-endian; power[i] is
 * H^(i+1) under dot(). karatsuba[i] holds hi ^ lo of power[i] in both
 * halves, the middle operand of a Karatsuba product. */
typedef struct pclmul_ghash_key {
    alignas(16) uint8_t power[PCLMUL_POWERS][16];
    alignas(16) uint8_t karatsuba[PCLMUL_POWERS][16];
} pclmul_ghash_key;

_Static_assert(sizeof(pclmul_ghash_key) <= HWC_GHASH_KEY_BYTES, "PCLMUL GHASH key must fit in hwc_ghash_key");

/* H^exponent, exponent in 1..PCLMUL_POWERS. */
static inline const __m128i *pclmul_power(const hwc_ghash_key *key, unsigned exponent) {
    return (const __m128i *)(const void *)(key->bytes + offsetof(pclmul_ghash_key, power) + 16 * (exponent - 1));
}
static inline const __m128i *pclmul_karatsuba(const hwc_ghash_key *key, unsigned exponent) {
    return (const __m128i *)(const void *)(key->bytes + offsetof(pclmul_ghash_key, karatsuba) + 16 * (exponent - 1));
}

/* ----------------------------------------------- VPCLMULQDQ GHASH key */

#define VPCLMUL_POWERS 16 /* blocks per reduction of the "vpclmul" back end's own GHASH */
#define VPCLMUL_KEY_POWERS 32

/* Layout in hwc_ghash_key of both VPCLMULQDQ GHASH back ends, "vpclmul" and
 * "vpclmul512" (ghash_vpclmul.c), which the fused GCM kernels of "vaes" and
 * "vaes512" read too: the powers H^32..H^1 in consecutive 16-byte slots
 * (slot s = H^(32-s)), then their Karatsuba halves (hi ^ lo in both halves)
 * in the same order. So 32 bytes at slot 2m are the powers of a 256-bit
 * register, 64 bytes at slot 4q those of a 512-bit register. The 256-bit
 * GHASH kernel and POLYVAL (GCM-SIV: a key per nonce, which fills only
 * this half) read the low half, slots 16..31; vaes512's 32-block batches
 * read all of it, and vaes's last batch with the blocks after it (one
 * reduction for up to 32 blocks). */
typedef struct vpclmul_ghash_key {
    alignas(64) uint8_t power[VPCLMUL_KEY_POWERS][16];
    alignas(64) uint8_t karatsuba[VPCLMUL_KEY_POWERS][16];
} vpclmul_ghash_key;

_Static_assert(sizeof(vpclmul_ghash_key) <= HWC_GHASH_KEY_BYTES, "VPCLMUL GHASH key must fit in hwc_ghash_key");

static inline const uint8_t *vpclmul_power_slots(const hwc_ghash_key *key) {
    return key->bytes + offsetof(vpclmul_ghash_key, power);
}
static inline const uint8_t *vpclmul_karatsuba_slots(const hwc_ghash_key *key) {
    return key->bytes + offsetof(vpclmul_ghash_key, karatsuba);
}

/* Fills a GHASH back end's key (pclmul_ghash_key, vpclmul_ghash_key) from H
 * (ghash_pclmul.c): the powers h^1..h^n of the POLYVAL-domain key, h^e at
 * power + 16 * slot(e) and hi ^ lo of it at karatsuba + 16 * slot(e), with
 * slot(e) = e - 1 (ascending) or n - e (descending); the rest of the key
 * zeroed. The GHASH key is H' = mulX_POLYVAL(ByteReverse(H)), the POLYVAL
 * key H itself. */
typedef struct x86_ghash_layout {
    unsigned powers;
    int descending;
    size_t power_offset, karatsuba_offset;
} x86_ghash_layout;
void hwc_x86_ghash_init(hwc_ghash_key *key, const uint8_t h[16], const x86_ghash_layout *layout);
void hwc_x86_polyval_init(hwc_ghash_key *key, const uint8_t h[16], const x86_ghash_layout *layout);

/* An unreduced sum of 256-bit products, in Karatsuba form. */
typedef struct clmul_acc {
    __m128i lo, mid, hi;
} clmul_acc;


/* Plain SSE2 (no target), usable from any x86 back end. */
HWC_X86_INLINE __m128i pclmul_byteswap_mask(void) {
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* The POLYVAL-domain value of a GHASH block (or state). */
HWC_X86_INLINE HWC_TARGET_PCLMUL __m128i pclmul_load_ghash(const uint8_t *p, __m128i bswap) {
    return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), bswap);
}

HWC_X86_INLINE HWC_TARGET_PCLMUL void clmul_acc_first(clmul_acc *acc, __m128i x, __m128i h, __m128i h_mid) {
    acc->lo = _mm_clmulepi64_si128(x, h, 0x00);
    acc->hi = _mm_clmulepi64_si128(x, h, 0x11);
    acc->mid = _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), h_mid, 0x00);
}

/* acc += x * h; h_mid is hi ^ lo of h (low half used). */
HWC_X86_INLINE HWC_TARGET_PCLMUL void clmul_acc_add(clmul_acc *acc, __m128i x, __m128i h, __m128i h_mid) {
    acc->lo = _mm_xor_si128(acc->lo, _mm_clmulepi64_si128(x, h, 0x00));
    acc->hi = _mm_xor_si128(acc->hi, _mm_clmulepi64_si128(x, h, 0x11));
    acc->mid = _mm_xor_si128(acc->mid,
                             _mm_clmulepi64_si128(_mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e)), h_mid, 0x00));
}

/* Emits nothing; makes the accumulator a register value at this point, so
 * the compiler cannot reassociate a long XOR chain into a sum of many live
 * products (which spills with 16 vector registers). */
HWC_X86_INLINE void clmul_acc_pin(clmul_acc *acc) {
    __asm__("" : "+x"(acc->lo), "+x"(acc->mid), "+x"(acc->hi));
}

/* acc * x^-128 mod Q: the Karatsuba sum to 256 bits (t3:t2:t1:t0), then the
 * two Montgomery folds. Fold one cancels t0 by adding t0 * Q * x^0: since
 * Q = 1 + x^128 + x^64 * C with C = x^63 + x^62 + x^57, that adds t0 * C to
 * (t2:t1) and t0 to t2. Fold two does the same for the new t1 one limb up.
 * What remains is (t3:t2), already of degree < 128. */
HWC_X86_INLINE HWC_TARGET_PCLMUL __m128i clmul_acc_reduce(const clmul_acc *acc) {
    const __m128i fold = _mm_set_epi64x(0, (long long)0xC200000000000000ull);
    __m128i mid = _mm_xor_si128(acc->mid, _mm_xor_si128(acc->lo, acc->hi));
    __m128i low = _mm_xor_si128(acc->lo, _mm_slli_si128(mid, 8));  /* t1:t0 */
    __m128i high = _mm_xor_si128(acc->hi, _mm_srli_si128(mid, 8)); /* t3:t2 */
    /* (t0 + p1 : t1 + p0): the low limb is the new t1, the high one goes to t2. */
    __m128i once = _mm_xor_si128(_mm_shuffle_epi32(low, 0x4e), _mm_clmulepi64_si128(low, fold, 0x00));
    __m128i twice = _mm_xor_si128(_mm_shuffle_epi32(once, 0x4e), _mm_clmulepi64_si128(once, fold, 0x00));
    return _mm_xor_si128(high, twice);
}

#endif /* __x86_64__ */
#endif /* HWCRYPT_X86_INTERNAL_H */
