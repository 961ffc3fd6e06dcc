/*
 * GHASH (SP 800-38D) in portable, constant-time C.
 *
 * Carry-less multiplication from integer multiplication: keep only every
 * fourth bit of each 32-bit operand (4 masks), so a product of two masked
 * words has at most 8 terms landing on any bit of its class; 8 fits in the
 * 4 bits before the next bit of the same class, so no carry ever reaches a
 * bit we keep. 16 such 32x32->64 products, masked back, give one 64-bit
 * carry-less product. Nothing depends on secret data but the multiplier's
 * operands (fine on CPUs whose multiplier has data-independent timing, which
 * is nearly all of them; not, e.g., ARM Cortex-M3).
 *
 * A 128x128 product is Karatsuba twice (128 = 2 x 64, 64 = 2 x 32): 9
 * products of 32-bit words. The key holds the 9 words of H, H^2 and H^3
 * already masked; update() folds three blocks per reduction:
 *     S' = (S ^ X1) H^3 ^ X2 H^2 ^ X3 H
 * accumulating the 9 partial products before combining them once.
 *
 * Bit order: a block read as a 128-bit big-endian integer has the
 * coefficient of x^i at bit 127 - i (GCM's "reflected" order). Multiplying
 * two such integers gives the product with x^k at bit 254 - k; one left
 * shift makes it a 256-bit reflected value, whose reduction modulo
 * x^128 + x^7 + x^2 + x + 1 is right shifts (see gf128_reduce).
 */
#include "getters.h"

#define GHASH_POWERS 3      /* H^1 .. H^3 in the key */
#define KARATSUBA_WORDS 9   /* 32-bit operand words of a 128-bit Karatsuba product */

/* One operand word split into its four bit classes. */
typedef struct { uint32_t bit_class[4]; } masked_word;
/* A power of H as the 9 Karatsuba words, each masked. */
typedef struct { masked_word word[KARATSUBA_WORDS]; } h_power;
typedef struct { h_power power[GHASH_POWERS]; } ghash_ct_key; /* power[i] = H^(i+1) */

_Static_assert(sizeof(ghash_ct_key) <= HWC_GHASH_KEY_BYTES, "GHASH key must fit in hwc_ghash_key");
_Static_assert(sizeof(masked_word) == 16 && sizeof(h_power) == KARATSUBA_WORDS * 16, "no padding: read word by word");

#define CLASS0 0x11111111u

/* The 9 32-bit Karatsuba operand words of a 128-bit value (hi, lo):
 * for each of hi, lo, hi^lo: its high half, low half, and their XOR. */
static inline void karatsuba_words(uint32_t w[KARATSUBA_WORDS], uint64_t hi, uint64_t lo) {
    const uint64_t halves[3] = {hi, lo, hi ^ lo};
    for (unsigned i = 0; i < 3; i++) {
        uint32_t high = (uint32_t)(halves[i] >> 32), low = (uint32_t)halves[i];
        w[3 * i] = high;
        w[3 * i + 1] = low;
        w[3 * i + 2] = high ^ low;
    }
}

static inline masked_word mask_word(uint32_t x) {
    masked_word m;
    for (unsigned c = 0; c < 4; c++)
        m.bit_class[c] = x & (CLASS0 << c);
    return m;
}

/* Carry-less 32x32 -> 64 (bit 63 is always 0). */
static inline uint64_t clmul32(uint32_t x, const masked_word *y) {
    const uint32_t x0 = x & CLASS0, x1 = x & (CLASS0 << 1), x2 = x & (CLASS0 << 2), x3 = x & (CLASS0 << 3);
    const uint32_t y0 = y->bit_class[0], y1 = y->bit_class[1], y2 = y->bit_class[2], y3 = y->bit_class[3];
    /* Products whose classes add to c (mod 4) hold the bits of class c. */
    uint64_t z0 = ((uint64_t)x0 * y0) ^ ((uint64_t)x1 * y3) ^ ((uint64_t)x2 * y2) ^ ((uint64_t)x3 * y1);
    uint64_t z1 = ((uint64_t)x0 * y1) ^ ((uint64_t)x1 * y0) ^ ((uint64_t)x2 * y3) ^ ((uint64_t)x3 * y2);
    uint64_t z2 = ((uint64_t)x0 * y2) ^ ((uint64_t)x1 * y1) ^ ((uint64_t)x2 * y0) ^ ((uint64_t)x3 * y3);
    uint64_t z3 = ((uint64_t)x0 * y3) ^ ((uint64_t)x1 * y2) ^ ((uint64_t)x2 * y1) ^ ((uint64_t)x3 * y0);
    return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull) |
           (z2 & 0x4444444444444444ull) | (z3 & 0x8888888888888888ull);
}

/* acc[i] ^= x_word[i] * h_word[i] for the 9 Karatsuba words; h is one
 * h_power as stored in the key (read with memcpy: the key is bytes). */
static inline void accumulate_products(uint64_t acc[KARATSUBA_WORDS], uint64_t hi, uint64_t lo,
                                       const uint8_t *h) {
    uint32_t w[KARATSUBA_WORDS];
    karatsuba_words(w, hi, lo);
    for (unsigned i = 0; i < KARATSUBA_WORDS; i++) {
        masked_word hw;
        memcpy(&hw, h + i * sizeof hw, sizeof hw);
        acc[i] ^= clmul32(w[i], &hw);
    }
}

static inline const uint8_t *power_bytes(const uint8_t *key_bytes, unsigned exponent) {
    return key_bytes + offsetof(ghash_ct_key, power) + (exponent - 1) * sizeof(h_power);
}

/* 64x64 -> 128 from the three 32-bit products (high, low, middle). */
static inline void combine64(uint64_t *hi, uint64_t *lo, const uint64_t p[3]) {
    uint64_t mid = p[2] ^ p[0] ^ p[1];
    *hi = p[0] ^ (mid >> 32);
    *lo = p[1] ^ (mid << 32);
}

/* Reduce the 255-bit product (z[0] most significant) into (hi, lo). */
static inline void gf128_reduce(uint64_t *hi, uint64_t *lo, const uint64_t z[4]) {
    /* Shift left by one: x^k now at bit 255 - k. */
    uint64_t u1 = (z[0] << 1) | (z[1] >> 63);
    uint64_t u0 = (z[1] << 1) | (z[2] >> 63);
    uint64_t d1 = (z[2] << 1) | (z[3] >> 63);
    uint64_t d0 = z[3] << 1;
    /* The low half D holds x^128 .. x^255; x^128 = 1 + x + x^2 + x^7.
     * D * x^k is D >> k, except the k lowest bits of D, which pass x^128
     * again: they come back as E = D << (128 - k) for k = 1, 2, 7, which
     * lives in the top 7 bits. E * (1 + x + x^2 + x^7) no longer overflows,
     * so fold E into D and shift once. */
    uint64_t f1 = d1 ^ (d0 << 63) ^ (d0 << 62) ^ (d0 << 57);
    uint64_t f0 = d0;
    *hi = u1 ^ f1 ^ (f1 >> 1) ^ (f1 >> 2) ^ (f1 >> 7);
    *lo = u0 ^ f0 ^ (f0 >> 1) ^ (f1 << 63) ^ (f0 >> 2) ^ (f1 << 62) ^ (f0 >> 7) ^ (f1 << 57);
}

/* The accumulated Karatsuba products -> reduced 128-bit result. */
static inline void finish_product(uint64_t *hi, uint64_t *lo, const uint64_t acc[KARATSUBA_WORDS]) {
    uint64_t high[2], low[2], mid[2], z[4];
    combine64(&high[0], &high[1], acc + 0);
    combine64(&low[0], &low[1], acc + 3);
    combine64(&mid[0], &mid[1], acc + 6);
    mid[0] ^= high[0] ^ low[0];
    mid[1] ^= high[1] ^ low[1];
    z[0] = high[0];
    z[1] = high[1] ^ mid[0];
    z[2] = low[0] ^ mid[1];
    z[3] = low[1];
    gf128_reduce(hi, lo, z);
}

static void make_power(h_power *p, uint64_t hi, uint64_t lo) {
    uint32_t w[KARATSUBA_WORDS];
    karatsuba_words(w, hi, lo);
    for (unsigned i = 0; i < KARATSUBA_WORDS; i++)
        p->word[i] = mask_word(w[i]);
    hwc_wipe(w, sizeof w);
}

static void ghash_ct_init(hwc_ghash_key *key, const uint8_t h[16]) {
    ghash_ct_key k;
    uint64_t hi = hwc_load_be64(h), lo = hwc_load_be64(h + 8);
    const uint64_t h_hi = hi, h_lo = lo;
    make_power(&k.power[0], hi, lo);
    for (unsigned i = 1; i < GHASH_POWERS; i++) {
        uint64_t acc[KARATSUBA_WORDS] = {0};
        accumulate_products(acc, h_hi, h_lo, (const uint8_t *)&k.power[i - 1]);
        finish_product(&hi, &lo, acc);
        make_power(&k.power[i], hi, lo);
        hwc_wipe(acc, sizeof acc);
    }
    memset(key->bytes, 0, sizeof key->bytes);
    memcpy(key->bytes, &k, sizeof k);
    hwc_wipe(&k, sizeof k);
}

static void ghash_ct_update(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks) {
    const uint8_t *h1 = power_bytes(key->bytes, 1), *h2 = power_bytes(key->bytes, 2),
                  *h3 = power_bytes(key->bytes, 3);
    uint64_t s_hi = hwc_load_be64(state), s_lo = hwc_load_be64(state + 8);
    while (nblocks >= GHASH_POWERS) {
        uint64_t acc[KARATSUBA_WORDS] = {0};
        accumulate_products(acc, s_hi ^ hwc_load_be64(in), s_lo ^ hwc_load_be64(in + 8), h3);
        accumulate_products(acc, hwc_load_be64(in + 16), hwc_load_be64(in + 24), h2);
        accumulate_products(acc, hwc_load_be64(in + 32), hwc_load_be64(in + 40), h1);
        finish_product(&s_hi, &s_lo, acc);
        in += GHASH_POWERS * 16;
        nblocks -= GHASH_POWERS;
    }
    for (; nblocks; nblocks--, in += 16) {
        uint64_t acc[KARATSUBA_WORDS] = {0};
        accumulate_products(acc, s_hi ^ hwc_load_be64(in), s_lo ^ hwc_load_be64(in + 8), h1);
        finish_product(&s_hi, &s_lo, acc);
    }
    hwc_store_be64(state, s_hi);
    hwc_store_be64(state + 8, s_lo);
}

static const hwc_ghash_impl ghash_ct_impl = {
    .name = "ct",
    .required_caps = 0,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = NULL,
    .init = ghash_ct_init,
    .update = ghash_ct_update,
    .polyval_init = NULL,
    .polyval_update = NULL,
};

const hwc_ghash_impl *hwc_ghash_ct_get(void) {
    return &ghash_ct_impl;
}
