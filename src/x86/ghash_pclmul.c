/*
 * GHASH and POLYVAL with PCLMULQDQ (back end "pclmul").
 *
 * Both run one POLYVAL kernel (see x86_internal.h for why GHASH is POLYVAL
 * on byte-reversed blocks). The key holds H^1..H^8, so eight blocks share
 * one reduction:
 *     S' = (S ^ X_1) H^8 ^ X_2 H^7 ^ ... ^ X_8 H
 * with the 256-bit products summed unreduced (Karatsuba, three PCLMULQDQ per
 * block) and a tail of fewer than eight blocks handled the same way with
 * H^n..H^1. No branch or address depends on H or the data.
 */
#if defined(__x86_64__)

#include "x86_internal.h"

/* dot(a, b) for the key powers. */
static HWC_TARGET_PCLMUL __m128i polyval_mul(__m128i a, __m128i b) {
    clmul_acc acc;
    clmul_acc_first(&acc, a, b, _mm_xor_si128(b, _mm_shuffle_epi32(b, 0x4e)));
    return clmul_acc_reduce(&acc);
}

/* The key setup of both x86 GHASH back ends (x86_internal.h). */
static HWC_TARGET_PCLMUL void fill_key(hwc_ghash_key *key, __m128i h, const x86_ghash_layout *layout) {
    hwc_ghash_key k;
    memset(&k, 0, sizeof k);
    __m128i power = h;
    for (unsigned e = 1; e <= layout->powers; e++) {
        if (e != 1)
            power = polyval_mul(power, h);
        const size_t slot = 16 * (layout->descending ? layout->powers - e : e - 1);
        _mm_storeu_si128((__m128i *)(void *)(k.bytes + layout->power_offset + slot), power);
        _mm_storeu_si128((__m128i *)(void *)(k.bytes + layout->karatsuba_offset + slot),
                         _mm_xor_si128(power, _mm_shuffle_epi32(power, 0x4e)));
    }
    memcpy(key->bytes, k.bytes, sizeof key->bytes);
    hwc_wipe(&k, sizeof k);
}

HWC_TARGET_PCLMUL void hwc_x86_ghash_init(hwc_ghash_key *key, const uint8_t h[16], const x86_ghash_layout *layout) {
    /* H' = mulX_POLYVAL(ByteReverse(H)): shift left one bit as a
     * little-endian integer, folding the bit shifted out back as Q's low
     * terms. Masked, not branched: H is secret. */
    uint64_t hi = hwc_load_be64(h), lo = hwc_load_be64(h + 8);
    uint64_t carry_mask = 0 - (hi >> 63);
    hi = (hi << 1) | (lo >> 63);
    lo = lo << 1;
    hi ^= 0xC200000000000000ull & carry_mask;
    lo ^= 1u & carry_mask;
    fill_key(key, _mm_set_epi64x((long long)hi, (long long)lo), layout);
}

HWC_TARGET_PCLMUL void hwc_x86_polyval_init(hwc_ghash_key *key, const uint8_t h[16], const x86_ghash_layout *layout) {
    fill_key(key, _mm_loadu_si128((const __m128i *)(const void *)h), layout);
}

static const x86_ghash_layout pclmul_layout = {PCLMUL_POWERS, 0, offsetof(pclmul_ghash_key, power),
                                               offsetof(pclmul_ghash_key, karatsuba)};

static void pclmul_ghash_init(hwc_ghash_key *key, const uint8_t h[16]) {
    hwc_x86_ghash_init(key, h, &pclmul_layout);
}

static void pclmul_polyval_init(hwc_ghash_key *key, const uint8_t h[16]) {
    hwc_x86_polyval_init(key, h, &pclmul_layout);
}

/* One block, byte-reversed when hashing GHASH. */
HWC_X86_INLINE HWC_TARGET_PCLMUL __m128i load_block(const uint8_t *p, int reflect, __m128i bswap) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    return reflect ? _mm_shuffle_epi8(x, bswap) : x;
}

/* The shared kernel; `reflect` is a constant after inlining. */
HWC_X86_INLINE HWC_TARGET_PCLMUL void pclmul_hash(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                                  size_t nblocks, int reflect) {
    const __m128i bswap = pclmul_byteswap_mask();
    __m128i s = load_block(state, reflect, bswap);
    clmul_acc acc;

    for (; nblocks >= PCLMUL_POWERS; nblocks -= PCLMUL_POWERS, in += PCLMUL_POWERS * 16) {
        clmul_acc_first(&acc, _mm_xor_si128(s, load_block(in, reflect, bswap)),
                        _mm_load_si128(pclmul_power(key, PCLMUL_POWERS)),
                        _mm_load_si128(pclmul_karatsuba(key, PCLMUL_POWERS)));
        for (unsigned j = 1; j < PCLMUL_POWERS; j++)
            clmul_acc_add(&acc, load_block(in + 16 * j, reflect, bswap),
                          _mm_load_si128(pclmul_power(key, PCLMUL_POWERS - j)),
                          _mm_load_si128(pclmul_karatsuba(key, PCLMUL_POWERS - j)));
        s = clmul_acc_reduce(&acc);
    }
    if (nblocks != 0) {
        unsigned n = (unsigned)nblocks;
        clmul_acc_first(&acc, _mm_xor_si128(s, load_block(in, reflect, bswap)), _mm_load_si128(pclmul_power(key, n)),
                        _mm_load_si128(pclmul_karatsuba(key, n)));
        for (unsigned j = 1; j < n; j++)
            clmul_acc_add(&acc, load_block(in + 16 * j, reflect, bswap), _mm_load_si128(pclmul_power(key, n - j)),
                          _mm_load_si128(pclmul_karatsuba(key, n - j)));
        s = clmul_acc_reduce(&acc);
    }
    if (reflect)
        s = _mm_shuffle_epi8(s, bswap);
    _mm_storeu_si128((__m128i *)(void *)state, s);
}

static HWC_TARGET_PCLMUL void pclmul_ghash_update(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                                  size_t nblocks) {
    pclmul_hash(key, state, in, nblocks, 1);
}

static HWC_TARGET_PCLMUL void pclmul_polyval_update(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                                    size_t nblocks) {
    pclmul_hash(key, state, in, nblocks, 0);
}

static const hwc_ghash_impl ghash_pclmul_impl = {
    .name = "pclmul",
    .required_caps = HWC_CAP_PCLMUL | HWC_CAP_SSSE3,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = NULL,
    .init = pclmul_ghash_init,
    .update = pclmul_ghash_update,
    .polyval_init = pclmul_polyval_init,
    .polyval_update = pclmul_polyval_update,
};

const hwc_ghash_impl *hwc_ghash_pclmul_get(void) {
    return &ghash_pclmul_impl;
}

#endif /* __x86_64__ */
