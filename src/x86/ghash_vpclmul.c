/*
 * GHASH and POLYVAL with VPCLMULQDQ on 256-bit registers (back end
 * "vpclmul").
 *
 * The same POLYVAL kernel as the "pclmul" back end (x86_internal.h explains
 * why GHASH is POLYVAL on byte-reversed blocks with H' = mulX_POLYVAL(
 * ByteReverse(H))), but two blocks per instruction and sixteen blocks per
 * reduction:
 *     S' = (S ^ X_1) H^16 ^ X_2 H^15 ^ ... ^ X_16 H
 * Each 256-bit register holds two consecutive blocks; the key stores the
 * matching powers as register-sized pairs, so a sixteen-block step is eight
 * 256-bit Karatsuba products (three VPCLMULQDQ each) summed unreduced, the
 * two 128-bit lanes added, and one Montgomery reduction (clmul_acc_reduce of
 * x86_internal.h). A tail of n < 16 blocks uses the last n powers of the
 * same table. No branch or address depends on H or the data.
 *
 * Key layout: vpclmul_ghash_key in x86_internal.h (H^32..H^1), shared with
 * "vpclmul512" and read by the fused GCM kernels of "vaes" and "vaes512";
 * this kernel reads its low half, H^16..H^1. The key setup is the one of
 * ghash_pclmul.c for that half, then H^17..H^32 as H^1..H^16 times H^16,
 * two per 256-bit product: made once per key, not per call.
 *
 * "vpclmul512" (AVX-512, paired with "vaes512") takes 32-block steps in
 * 512-bit registers over the whole key, the rest (and POLYVAL, whose
 * per-nonce key has only the low half) through the 256-bit kernel below.
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define HWC_TARGET_VPCLMUL __attribute__((target("avx2,pclmul,vpclmulqdq,ssse3")))
#define VPCLMUL_INLINE HWC_X86_INLINE HWC_TARGET_VPCLMUL

#define VPCLMUL_PAIRS (VPCLMUL_POWERS / 2)

/* The sixteen powers H^16..H^1 and their Karatsuba halves, slot s holding
 * H^(16-s): the key's low half. */
typedef struct power_table {
    const uint8_t *power, *karatsuba;
} power_table;

/* Pair m (32 bytes at slot 2m) holds the powers for blocks 2m and 2m + 1 of
 * a sixteen-block step, H^(16-2m) and H^(15-2m). */
static inline const __m256i *key_pair(const power_table *t, unsigned m) {
    return (const __m256i *)(const void *)(t->power + 32 * m);
}
static inline const __m256i *key_karatsuba(const power_table *t, unsigned m) {
    return (const __m256i *)(const void *)(t->karatsuba + 32 * m);
}
/* H^e alone (e in 1..16), as its 16 bytes inside the pair table. */
static inline const __m128i *key_power(const power_table *t, unsigned e) {
    return (const __m128i *)(const void *)(t->power + 16 * (VPCLMUL_POWERS - e));
}
static inline const __m128i *key_power_karatsuba(const power_table *t, unsigned e) {
    return (const __m128i *)(const void *)(t->karatsuba + 16 * (VPCLMUL_POWERS - e));
}

/* ------------------------------------------------------------ key setup */

/* The low half in descending order (slot 16 on). */
static const x86_ghash_layout vpclmul_low_layout = {
    VPCLMUL_POWERS, 1, offsetof(vpclmul_ghash_key, power) + 16 * VPCLMUL_POWERS,
    offsetof(vpclmul_ghash_key, karatsuba) + 16 * VPCLMUL_POWERS};

/* The sixteen powers after H^16, H^17..H^32 = H^1..H^16 times H^16, two per
 * 256-bit Karatsuba product and Montgomery reduction (the steps of
 * clmul_acc_reduce, lane-wise), into slots 0..15 with their Karatsuba
 * halves. The low half (slots 16..31) is already filled. */
static HWC_TARGET_VPCLMUL void fill_high_powers(hwc_ghash_key *key) {
    uint8_t *power = key->bytes + offsetof(vpclmul_ghash_key, power);
    uint8_t *karatsuba = key->bytes + offsetof(vpclmul_ghash_key, karatsuba);
    const uint8_t *low = power + 16 * VPCLMUL_POWERS, *low_k = karatsuba + 16 * VPCLMUL_POWERS;
    const __m256i h16 = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)low));
    const __m256i h16_mid = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(const void *)low_k));
    const __m256i fold = _mm256_broadcastsi128_si256(_mm_set_epi64x(0, (long long)0xC200000000000000ull));
    for (unsigned m = 0; m < VPCLMUL_POWERS / 2; m++) {
        const __m256i x = _mm256_load_si256((const __m256i *)(const void *)(low + 32 * m));
        const __m256i lo = _mm256_clmulepi64_epi128(x, h16, 0x00), hi = _mm256_clmulepi64_epi128(x, h16, 0x11);
        const __m256i mid = _mm256_xor_si256(
            _mm256_clmulepi64_epi128(_mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e)), h16_mid, 0x00),
            _mm256_xor_si256(lo, hi));
        const __m256i lower = _mm256_xor_si256(lo, _mm256_bslli_epi128(mid, 8));
        const __m256i higher = _mm256_xor_si256(hi, _mm256_bsrli_epi128(mid, 8));
        const __m256i once =
            _mm256_xor_si256(_mm256_shuffle_epi32(lower, 0x4e), _mm256_clmulepi64_epi128(lower, fold, 0x00));
        const __m256i twice =
            _mm256_xor_si256(_mm256_shuffle_epi32(once, 0x4e), _mm256_clmulepi64_epi128(once, fold, 0x00));
        const __m256i product = _mm256_xor_si256(higher, twice);
        _mm256_store_si256((__m256i *)(void *)(power + 32 * m), product);
        _mm256_store_si256((__m256i *)(void *)(karatsuba + 32 * m),
                           _mm256_xor_si256(product, _mm256_shuffle_epi32(product, 0x4e)));
    }
}

/* Both back ends' GHASH key: all 32 powers. */
static void vpclmul_ghash_init(hwc_ghash_key *key, const uint8_t h[16]) {
    hwc_x86_ghash_init(key, h, &vpclmul_low_layout);
    fill_high_powers(key);
}

/* POLYVAL (GCM-SIV, a new key per nonce) reads the low half only. */
static void vpclmul_polyval_init(hwc_ghash_key *key, const uint8_t h[16]) {
    hwc_x86_polyval_init(key, h, &vpclmul_low_layout);
}

/* --------------------------------------------------------------- kernel */

/* An unreduced sum of 256-bit products, two lanes of Karatsuba parts. */
typedef struct clmul_acc256 {
    __m256i lo, mid, hi;
} clmul_acc256;

VPCLMUL_INLINE void acc256_first(clmul_acc256 *acc, __m256i x, __m256i h, __m256i h_mid) {
    acc->lo = _mm256_clmulepi64_epi128(x, h, 0x00);
    acc->hi = _mm256_clmulepi64_epi128(x, h, 0x11);
    acc->mid = _mm256_clmulepi64_epi128(_mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e)), h_mid, 0x00);
}

VPCLMUL_INLINE void acc256_add(clmul_acc256 *acc, __m256i x, __m256i h, __m256i h_mid) {
    acc->lo = _mm256_xor_si256(acc->lo, _mm256_clmulepi64_epi128(x, h, 0x00));
    acc->hi = _mm256_xor_si256(acc->hi, _mm256_clmulepi64_epi128(x, h, 0x11));
    acc->mid = _mm256_xor_si256(
        acc->mid, _mm256_clmulepi64_epi128(_mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e)), h_mid, 0x00));
}

/* The two lanes summed: a 128-bit accumulator ready for clmul_acc_reduce. */
VPCLMUL_INLINE clmul_acc acc256_fold(const clmul_acc256 *acc) {
    clmul_acc r;
    r.lo = _mm_xor_si128(_mm256_castsi256_si128(acc->lo), _mm256_extracti128_si256(acc->lo, 1));
    r.mid = _mm_xor_si128(_mm256_castsi256_si128(acc->mid), _mm256_extracti128_si256(acc->mid, 1));
    r.hi = _mm_xor_si128(_mm256_castsi256_si128(acc->hi), _mm256_extracti128_si256(acc->hi, 1));
    return r;
}

VPCLMUL_INLINE __m256i load_pair(const uint8_t *p, int reflect, __m256i bswap) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    return reflect ? _mm256_shuffle_epi8(x, bswap) : x;
}

VPCLMUL_INLINE __m128i load_block(const uint8_t *p, int reflect, __m128i bswap) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    return reflect ? _mm_shuffle_epi8(x, bswap) : x;
}

/* Tails of up to this many blocks take 128-bit products. */
#define TAIL_128 4

/* The shared kernel; `reflect` (GHASH) is a constant after inlining. */
VPCLMUL_INLINE void vpclmul_hash(const power_table *key, uint8_t state[16], const uint8_t *in, size_t nblocks,
                                 int reflect) {
    const __m128i bswap = pclmul_byteswap_mask();
    const __m256i bswap2 = _mm256_broadcastsi128_si256(bswap);
    __m128i s = load_block(state, reflect, bswap);

    for (; nblocks >= VPCLMUL_POWERS; nblocks -= VPCLMUL_POWERS, in += VPCLMUL_POWERS * 16) {
        clmul_acc256 acc;
        acc256_first(&acc, load_pair(in + 32, reflect, bswap2), _mm256_load_si256(key_pair(key, 1)),
                     _mm256_load_si256(key_karatsuba(key, 1)));
        for (unsigned m = 2; m < VPCLMUL_PAIRS; m++)
            acc256_add(&acc, load_pair(in + 32 * m, reflect, bswap2), _mm256_load_si256(key_pair(key, m)),
                       _mm256_load_si256(key_karatsuba(key, m)));
        /* The state joins the first block (low lane), added last: the loop's
         * dependency chain is then one product and the reduction. */
        __m256i first = _mm256_xor_si256(load_pair(in, reflect, bswap2), _mm256_zextsi128_si256(s));
        acc256_add(&acc, first, _mm256_load_si256(key_pair(key, 0)), _mm256_load_si256(key_karatsuba(key, 0)));
        clmul_acc folded = acc256_fold(&acc);
        s = clmul_acc_reduce(&folded);
    }

    if (nblocks != 0 && nblocks <= TAIL_128) {
        /* A few blocks: one 128-bit product each, no lane folds (their
         * extracts lengthen a short call's dependency chain). */
        const unsigned n = (unsigned)nblocks;
        clmul_acc acc;
        clmul_acc_first(&acc, _mm_xor_si128(s, load_block(in, reflect, bswap)), _mm_loadu_si128(key_power(key, n)),
                        _mm_loadu_si128(key_power_karatsuba(key, n)));
        for (unsigned j = 1; j < n; j++)
            clmul_acc_add(&acc, load_block(in + 16 * j, reflect, bswap), _mm_loadu_si128(key_power(key, n - j)),
                          _mm_loadu_si128(key_power_karatsuba(key, n - j)));
        s = clmul_acc_reduce(&acc);
    } else if (nblocks != 0) {
        /* n < 16 blocks take H^n..H^1: the first block (with the state)
         * alone if n is odd, else the first pair; then the remaining pairs
         * with the last pairs of the table. */
        unsigned n = (unsigned)nblocks;
        clmul_acc acc;
        if (n & 1) {
            clmul_acc_first(&acc, _mm_xor_si128(s, load_block(in, reflect, bswap)),
                            _mm_loadu_si128(key_power(key, n)), _mm_loadu_si128(key_power_karatsuba(key, n)));
            in += 16;
            n -= 1;
        } else {
            const unsigned m = VPCLMUL_PAIRS - n / 2;
            clmul_acc256 first;
            acc256_first(&first, _mm256_xor_si256(load_pair(in, reflect, bswap2), _mm256_zextsi128_si256(s)),
                         _mm256_load_si256(key_pair(key, m)), _mm256_load_si256(key_karatsuba(key, m)));
            acc = acc256_fold(&first);
            in += 32;
            n -= 2;
        }
        if (n != 0) {
            unsigned m = VPCLMUL_PAIRS - n / 2;
            clmul_acc256 rest;
            acc256_first(&rest, load_pair(in, reflect, bswap2), _mm256_load_si256(key_pair(key, m)),
                         _mm256_load_si256(key_karatsuba(key, m)));
            for (m++, in += 32; m < VPCLMUL_PAIRS; m++, in += 32)
                acc256_add(&rest, load_pair(in, reflect, bswap2), _mm256_load_si256(key_pair(key, m)),
                           _mm256_load_si256(key_karatsuba(key, m)));
            const clmul_acc part = acc256_fold(&rest);
            acc.lo = _mm_xor_si128(acc.lo, part.lo);
            acc.mid = _mm_xor_si128(acc.mid, part.mid);
            acc.hi = _mm_xor_si128(acc.hi, part.hi);
        }
        s = clmul_acc_reduce(&acc);
    }

    if (reflect)
        s = _mm_shuffle_epi8(s, bswap);
    _mm_storeu_si128((__m128i *)(void *)state, s);
}

static power_table low_powers(const hwc_ghash_key *key) {
    return (power_table){vpclmul_power_slots(key) + 16 * VPCLMUL_POWERS,
                         vpclmul_karatsuba_slots(key) + 16 * VPCLMUL_POWERS};
}

static HWC_TARGET_VPCLMUL void vpclmul_ghash_update(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                                    size_t nblocks) {
    const power_table t = low_powers(key);
    vpclmul_hash(&t, state, in, nblocks, 1);
}

static HWC_TARGET_VPCLMUL void vpclmul_polyval_update(const hwc_ghash_key *key, uint8_t state[16],
                                                      const uint8_t *in, size_t nblocks) {
    const power_table t = low_powers(key);
    vpclmul_hash(&t, state, in, nblocks, 0);
}


static const hwc_ghash_impl ghash_vpclmul_impl = {
    .name = "vpclmul",
    .required_caps = HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_AVX2 | HWC_CAP_VPCLMUL,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = NULL,
    .init = vpclmul_ghash_init,
    .update = vpclmul_ghash_update,
    .polyval_init = vpclmul_polyval_init,
    .polyval_update = vpclmul_polyval_update,
};

const hwc_ghash_impl *hwc_ghash_vpclmul_get(void) {
    return &ghash_vpclmul_impl;
}

/* ------------------------------------------------------------ vpclmul512 */

#define HWC_TARGET_VPCLMUL512 __attribute__((target("avx512f,avx512bw,vpclmulqdq,avx2,pclmul,ssse3")))
#define VPCLMUL512_INLINE HWC_X86_INLINE HWC_TARGET_VPCLMUL512

/* GHASH of whole 32-block steps, four blocks per register, eight registers
 * per step against H^32..H^1 (Karatsuba, one lane-wise reduction per step:
 * the steps of ghash_reduce in aes_vaes_wide.h); the state joins the first
 * block. Then the 256-bit kernel on the H^16..H^1 half for the rest. */
static HWC_TARGET_VPCLMUL512 void vpclmul512_ghash_update(const hwc_ghash_key *key, uint8_t state[16],
                                                          const uint8_t *in, size_t nblocks) {
    if (nblocks >= VPCLMUL_KEY_POWERS) {
        const __m128i bswap = pclmul_byteswap_mask();
        const __m512i bswap4 = _mm512_broadcast_i32x4(bswap);
        const __m512i fold = _mm512_broadcast_i32x4(_mm_set_epi64x(0, (long long)0xC200000000000000ull));
        const uint8_t *power = vpclmul_power_slots(key), *karatsuba = vpclmul_karatsuba_slots(key);
        __m128i s = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)state), bswap);
        for (; nblocks >= VPCLMUL_KEY_POWERS; nblocks -= VPCLMUL_KEY_POWERS, in += 16 * VPCLMUL_KEY_POWERS) {
            __m512i lo = _mm512_setzero_si512(), mid = lo, hi = lo;
            for (unsigned q = 0; q < VPCLMUL_KEY_POWERS / 4; q++) {
                __m512i x = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(in + 64 * q)), bswap4);
                if (q == 0)
                    x = _mm512_xor_si512(x, _mm512_zextsi128_si512(s));
                const __m512i h = _mm512_loadu_si512((const void *)(power + 64 * q));
                const __m512i h_mid = _mm512_loadu_si512((const void *)(karatsuba + 64 * q));
                lo = _mm512_xor_si512(lo, _mm512_clmulepi64_epi128(x, h, 0x00));
                hi = _mm512_xor_si512(hi, _mm512_clmulepi64_epi128(x, h, 0x11));
                mid = _mm512_xor_si512(
                    mid, _mm512_clmulepi64_epi128(_mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC)),
                                                  h_mid, 0x00));
            }
            mid = _mm512_ternarylogic_epi64(mid, lo, hi, 0x96);
            mid = _mm512_ternarylogic_epi64(mid, _mm512_shuffle_epi32(lo, _MM_PERM_BADC),
                                            _mm512_clmulepi64_epi128(lo, fold, 0x00), 0x96);
            hi = _mm512_ternarylogic_epi64(hi, _mm512_shuffle_epi32(mid, _MM_PERM_BADC),
                                           _mm512_clmulepi64_epi128(mid, fold, 0x00), 0x96);
            const __m256i half = _mm256_xor_si256(_mm512_castsi512_si256(hi), _mm512_extracti64x4_epi64(hi, 1));
            s = _mm_xor_si128(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
        }
        _mm_storeu_si128((__m128i *)(void *)state, _mm_shuffle_epi8(s, bswap));
    }
    if (nblocks != 0) {
        const power_table t = low_powers(key);
        vpclmul_hash(&t, state, in, nblocks, 1);
    }
}

static const hwc_ghash_impl ghash_vpclmul512_impl = {
    .name = "vpclmul512",
    .required_caps = HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_AVX2 | HWC_CAP_VPCLMUL | HWC_CAP_AVX512,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = NULL,
    .init = vpclmul_ghash_init, /* the same key */
    .update = vpclmul512_ghash_update,
    .polyval_init = vpclmul_polyval_init,
    .polyval_update = vpclmul_polyval_update,
};

const hwc_ghash_impl *hwc_ghash_vpclmul512_get(void) {
    return &ghash_vpclmul512_impl;
}

#endif /* __x86_64__ */
