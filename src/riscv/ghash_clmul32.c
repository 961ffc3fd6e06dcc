/*
 * GHASH with 32-bit carry-less multiplication (clmul/clmulh from Zbc or
 * Zbkc on rv32): back end "clmul32".
 *
 * The algebra is clmul64's (ghash_clmul64.c): blocks are loaded as
 * big-endian integers A = A1:A0 (the reflected polynomial), each power of H
 * is stored pre-multiplied by x^-1 so the 256-bit carry-less product needs
 * no shift, and the product is reduced modulo x^128 + x^7 + x^2 + x + 1 by
 * folding its high half back as D ^ D>>1 ^ D>>2 ^ D>>7.
 *
 * Products. A 128x128 product is Karatsuba over 64-bit halves (A0*K0,
 * A1*K1, (A0^A1)*(K0^K1)), and each 64x64 product is Karatsuba again over
 * 32-bit words: three clmul/clmulh pairs. So a block costs 18
 * multiplications; the three 128-bit partial sums are accumulated across a
 * group of blocks and recombined and reduced once per group:
 * S' = (S ^ X1) H^n ^ X2 H^(n-1) ^ ... ^ Xn H, n up to CLMUL32_POWERS. The
 * key holds, per power, the 32-bit halves of K0, K1 and K0^K1 and the XOR
 * of each pair of halves (the inner Karatsuba's middle operand).
 *
 * Byte order: one byte reversal per 32-bit word, rev8 with Zbb/Zbkb (on
 * rv32 it reverses 4 bytes) or two swap stages without, chosen at key setup
 * from the capabilities in effect and stored in the key.
 *
 * Alignment: RV_STREAM_IN (4-byte-aligned input in place, otherwise an
 * aligned bounce buffer); the 16-byte state is accessed by bytes.
 *
 * Constant time: no branch or address depends on H or on the data; clmul
 * is data-independent in time on cores with Zkt.
 */
#if defined(__riscv) && __riscv_xlen == 32

#include "rv_scalar.h"
#include "getters.h"

/* Blocks per reduction: the key holds H^1..H^CLMUL32_POWERS. */
#define CLMUL32_POWERS 12

/* pw[j] = H^(j+1) * x^-1 as K1:K0 (64-bit halves), in 32-bit words:
 * {K0 low, K0 high, K0 low ^ high, the same for K1, then for K0 ^ K1}. */
typedef struct clmul32_key {
    uint32_t pw[CLMUL32_POWERS][9];
    uint32_t rev8; /* 1: byte reversal with rev8 (Zbb or Zbkb present) */
} clmul32_key;

_Static_assert(sizeof(clmul32_key) <= HWC_GHASH_KEY_BYTES, "clmul32 key must fit in hwc_ghash_key");

static inline const clmul32_key *key_view(const hwc_ghash_key *key) {
    return (const clmul32_key *)(const void *)key->bytes;
}

/* acc[0..3] (+)= (ah:al) * (k[1]:k[0]), k[2] = k[0] ^ k[1]: the 64x64
 * carry-less product as inner Karatsuba. */
RV_INLINE void mul64_acc(uint32_t acc[4], uint32_t ah, uint32_t al, const uint32_t *k) {
    const uint32_t ll = rv_clmul(al, k[0]), lh = rv_clmulh(al, k[0]);
    const uint32_t hl = rv_clmul(ah, k[1]), hh = rv_clmulh(ah, k[1]);
    const uint32_t ax = ah ^ al;
    const uint32_t ml = rv_clmul(ax, k[2]) ^ ll ^ hl, mh = rv_clmulh(ax, k[2]) ^ lh ^ hh;
    acc[0] ^= ll;
    acc[1] ^= lh ^ ml;
    acc[2] ^= hl ^ mh;
    acc[3] ^= hh;
}

/* The three 128-bit Karatsuba partial sums of a group. */
typedef struct clmul32_acc {
    uint32_t lo[4], hi[4], mid[4];
} clmul32_acc;

/* acc += (a1:a0) * K, the block as four big-endian words b0..b3
 * (a1 = b0:b1, a0 = b2:b3). */
RV_INLINE void mul128_acc(clmul32_acc *acc, uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3, const uint32_t *k) {
    mul64_acc(acc->lo, b2, b3, k);
    mul64_acc(acc->hi, b0, b1, k + 3);
    mul64_acc(acc->mid, b0 ^ b2, b1 ^ b3, k + 6);
}

RV_INLINE uint64_t join64(uint32_t hi, uint32_t lo) {
    return ((uint64_t)hi << 32) | lo;
}

/* Karatsuba recombination and reduction (clmul64's, on 64-bit values). */
RV_INLINE void reduce(const clmul32_acc *acc, uint64_t *r1, uint64_t *r0) {
    uint32_t mid[4];
    for (unsigned i = 0; i < 4; i++)
        mid[i] = acc->mid[i] ^ acc->lo[i] ^ acc->hi[i];
    const uint64_t p0 = join64(acc->lo[1], acc->lo[0]);
    const uint64_t p1 = join64(acc->lo[3], acc->lo[2]) ^ join64(mid[1], mid[0]);
    const uint64_t p2 = join64(acc->hi[1], acc->hi[0]) ^ join64(mid[3], mid[2]);
    const uint64_t p3 = join64(acc->hi[3], acc->hi[2]);
    const uint64_t d1 = p1 ^ (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
    *r1 = p3 ^ d1 ^ (d1 >> 1) ^ (d1 >> 2) ^ (d1 >> 7);
    *r0 = p2 ^ p0 ^ (p0 >> 1) ^ (p0 >> 2) ^ (p0 >> 7) ^ (d1 << 63) ^ (d1 << 62) ^ (d1 << 57);
}

/* One block's contribution: acc += X * K, X given as little-endian words
 * as loaded, with x1:x0 (the state, for a group's first block) added. */
RV_INLINE void block_acc(clmul32_acc *acc, int rev8, const rv_word *in, uint64_t x1, uint64_t x0,
                         const uint32_t *k) {
    const uint32_t b0 = rv_bswap(in[0], rev8) ^ (uint32_t)(x1 >> 32);
    const uint32_t b1 = rv_bswap(in[1], rev8) ^ (uint32_t)x1;
    const uint32_t b2 = rv_bswap(in[2], rev8) ^ (uint32_t)(x0 >> 32);
    const uint32_t b3 = rv_bswap(in[3], rev8) ^ (uint32_t)x0;
    mul128_acc(acc, b0, b1, b2, b3, k);
}

/* One group of n blocks (1..CLMUL32_POWERS), one reduction. The state is
 * s1:s0 (reflected); the blocks are little-endian words as loaded. A whole
 * group is unrolled (measured fastest on rv32, though the twelve
 * accumulator words do not all stay in registers; three passes over the
 * group, one per Karatsuba product, measured slower). */
RV_INLINE void ghash_group(const clmul32_key *k, int rev8, uint64_t *s1, uint64_t *s0, const rv_word *in,
                           size_t n) {
    clmul32_acc acc = {{0}, {0}, {0}};
    if (n == CLMUL32_POWERS) {
        block_acc(&acc, rev8, in, *s1, *s0, k->pw[CLMUL32_POWERS - 1]);
        _Pragma("GCC unroll 16")
        for (unsigned j = 1; j < CLMUL32_POWERS; j++)
            block_acc(&acc, rev8, in + 4 * j, 0, 0, k->pw[CLMUL32_POWERS - 1 - j]);
    } else {
        block_acc(&acc, rev8, in, *s1, *s0, k->pw[n - 1]);
        for (size_t j = 1; j < n; j++)
            block_acc(&acc, rev8, in + 4 * j, 0, 0, k->pw[n - 1 - j]);
    }
    reduce(&acc, s1, s0);
}

RV_INLINE void ghash_words(const clmul32_key *k, int rev8, uint64_t *s1, uint64_t *s0, const rv_word *in,
                           size_t n) {
    for (; n >= CLMUL32_POWERS; n -= CLMUL32_POWERS, in += 4 * CLMUL32_POWERS)
        ghash_group(k, rev8, s1, s0, in, CLMUL32_POWERS);
    if (n)
        ghash_group(k, rev8, s1, s0, in, n);
}

/* ----------------------------------------------------------------- key */

/* h * x^-1 in reflected form: a left shift, and when bit 127 falls off,
 * g / x comes in (bits 0, 121, 126, 127). Masked: H is secret. */
static void times_x_inverse(uint64_t *h1, uint64_t *h0) {
    const uint64_t mask = 0 - (*h1 >> 63);
    *h1 = (*h1 << 1) | (*h0 >> 63);
    *h0 = *h0 << 1;
    *h1 ^= mask & 0xC200000000000000ull;
    *h0 ^= mask & 1;
}

static void store_half(uint32_t *w, uint64_t v) {
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
    w[2] = w[0] ^ w[1];
}

static void store_power(uint32_t pw[9], uint64_t h1, uint64_t h0) {
    times_x_inverse(&h1, &h0);
    store_half(pw, h0);
    store_half(pw + 3, h1);
    store_half(pw + 6, h0 ^ h1);
}

static void hwc_ghash_init_clmul32(hwc_ghash_key *key, const uint8_t h[16]) {
    clmul32_key k;
    const uint64_t h1 = hwc_load_be64(h), h0 = hwc_load_be64(h + 8);
    uint64_t p1 = h1, p0 = h0; /* H^j, reflected, not shifted */
    store_power(k.pw[0], h1, h0);
    for (unsigned j = 1; j < CLMUL32_POWERS; j++) {
        clmul32_acc acc = {{0}, {0}, {0}};
        mul128_acc(&acc, (uint32_t)(p1 >> 32), (uint32_t)p1, (uint32_t)(p0 >> 32), (uint32_t)p0, k.pw[0]);
        reduce(&acc, &p1, &p0); /* H^j * H */
        store_power(k.pw[j], p1, p0);
    }
    k.rev8 = (hwc_caps() & (HWC_CAP_ZBB | HWC_CAP_ZBKB)) != 0;
    memset(key->bytes, 0, sizeof key->bytes);
    memcpy(key->bytes, &k, sizeof k);
    hwc_wipe(&k, sizeof k);
}

/* -------------------------------------------------------------- update */

static void hwc_ghash_update_clmul32(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                     size_t nblocks) {
    const clmul32_key *k = key_view(key);
    if (nblocks == 0)
        return;
    uint64_t s1 = hwc_load_be64(state), s0 = hwc_load_be64(state + 8);
    if (k->rev8)
        RV_STREAM_IN(in, nblocks, ghash_words(k, 1, &s1, &s0, rv_in, rv_n));
    else
        RV_STREAM_IN(in, nblocks, ghash_words(k, 0, &s1, &s0, rv_in, rv_n));
    hwc_store_be64(state, s1);
    hwc_store_be64(state + 8, s0);
}

/* ----------------------------------------------------------------- table */

/* clmul and clmulh are in both Zbc and Zbkc: either will do. */
static int clmul32_usable(uint64_t caps, const char **why) {
    if (caps & (HWC_CAP_ZBC | HWC_CAP_ZBKC))
        return 1;
    if (why)
        *why = (hwc_caps_probed() & (HWC_CAP_ZBC | HWC_CAP_ZBKC)) ? "needs zbc or zbkc (disabled by HWCRYPT_CAPS)"
                                                                   : "needs zbc or zbkc (not on this CPU)";
    return 0;
}

static const hwc_ghash_impl ghash_clmul32_impl = {
    .name = "clmul32",
    .required_caps = 0,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = clmul32_usable,
    .init = hwc_ghash_init_clmul32,
    .update = hwc_ghash_update_clmul32,
    .polyval_init = NULL,
    .polyval_update = NULL,
};

const hwc_ghash_impl *hwc_ghash_clmul32_get(void) {
    return &ghash_clmul32_impl;
}

#endif /* __riscv && __riscv_xlen == 32 */
