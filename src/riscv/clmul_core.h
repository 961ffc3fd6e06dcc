/*
 * The GHASH core of "clmul64" and "clmul32" (ghash_clmul.c has the
 * algebra): the key layout, the Karatsuba products and the reduction, for
 * the build's xlen. On rv64 the fused GCM kernels of zkn64 (aes_zkn.c)
 * read the key clmul64 wrote, so the layout lives here once.
 *
 * Both: a block is the big-endian integer A = A1:A0 (the reflected
 * polynomial), each power of H is stored pre-multiplied by x^-1, and a
 * group of CLMUL_POWERS blocks is recombined and reduced once (clmul_fold).
 * rv64: each 128x128 product is Karatsuba over 64-bit clmul/clmulh (six
 * instructions); rv32: Karatsuba again over 32-bit words (18).
 */
#ifndef HWC_RISCV_CLMUL_CORE_H
#define HWC_RISCV_CLMUL_CORE_H

#include "rv_scalar.h"

/* The reduction of the 256-bit reflected product P3:P2:P1:P0 modulo
 * g = x^128 + x^7 + x^2 + x + 1 into *r1:*r0 (ghash_clmul.c). */
RV_INLINE void clmul_fold(uint64_t p0, uint64_t p1, uint64_t p2, uint64_t p3, uint64_t *r1, uint64_t *r0) {
    uint64_t d1 = p1 ^ (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
    *r1 = p3 ^ d1 ^ (d1 >> 1) ^ (d1 >> 2) ^ (d1 >> 7);
    *r0 = p2 ^ p0 ^ (p0 >> 1) ^ (p0 >> 2) ^ (p0 >> 7) ^ (d1 << 63) ^ (d1 << 62) ^ (d1 << 57);
}

#if __riscv_xlen == 64

/* Blocks hashed per reduction: the key holds H^1..H^CLMUL_POWERS. Sixteen
 * puts the reduction (about 25 instructions) at under 2 per block and still
 * fits the 512-byte hwc_ghash_key. */
#define CLMUL_POWERS 16

/* H^(j+1) * x^-1 in pw[j]: {low word, high word, low ^ high}. */
typedef struct clmul_key {
    uint64_t pw[CLMUL_POWERS][3];
    uint64_t rev8; /* 1: byte reversal with rev8 (Zbb or Zbkb present) */
} clmul_key;

_Static_assert(sizeof(clmul_key) <= HWC_GHASH_KEY_BYTES, "clmul64 key must fit in hwc_ghash_key");
_Static_assert(alignof(hwc_ghash_key) >= alignof(clmul_key), "hwc_ghash_key must be word aligned");

static inline const clmul_key *clmul_key_view(const hwc_ghash_key *key) {
    return (const clmul_key *)(const void *)key->bytes;
}

/* Karatsuba partial sums of a group of products. */
typedef struct clmul_acc {
    uint64_t lo_l, lo_h, hi_l, hi_h, mid_l, mid_h;
} clmul_acc;

/* acc (+)= (a1:a0) * (k1:k0), kx = k0 ^ k1. */
RV_INLINE void clmul_mul_acc(clmul_acc *acc, uint64_t a1, uint64_t a0, const uint64_t *k, int first) {
    uint64_t ax = a0 ^ a1;
    uint64_t ll = rv_clmul(a0, k[0]), lh = rv_clmulh(a0, k[0]);
    uint64_t hl = rv_clmul(a1, k[1]), hh = rv_clmulh(a1, k[1]);
    uint64_t ml = rv_clmul(ax, k[2]), mh = rv_clmulh(ax, k[2]);
    if (first) {
        *acc = (clmul_acc){ll, lh, hl, hh, ml, mh};
    } else {
        acc->lo_l ^= ll;
        acc->lo_h ^= lh;
        acc->hi_l ^= hl;
        acc->hi_h ^= hh;
        acc->mid_l ^= ml;
        acc->mid_h ^= mh;
    }
}

/* Karatsuba recombination and reduction: the reflected product, reduced
 * modulo g, into *r1:*r0. */
RV_INLINE void clmul_reduce(const clmul_acc *acc, uint64_t *r1, uint64_t *r0) {
    uint64_t mid_l = acc->mid_l ^ acc->lo_l ^ acc->hi_l;
    uint64_t mid_h = acc->mid_h ^ acc->lo_h ^ acc->hi_h;
    uint64_t p0 = acc->lo_l, p1 = acc->lo_h ^ mid_l;
    uint64_t p2 = acc->hi_l ^ mid_h, p3 = acc->hi_h;

    clmul_fold(p0, p1, p2, p3, r1, r0);
}

/* One group of n blocks (1..CLMUL_POWERS), one reduction:
 * S' = (S ^ X1) H^n ^ X2 H^(n-1) ^ ... ^ Xn H. The state is *s1:*s0,
 * reflected (big-endian words); the blocks are little-endian words as
 * loaded, byte-reversed here. A whole group is unrolled. */
RV_INLINE void clmul_ghash_group(const clmul_key *k, int rev8, uint64_t *s1, uint64_t *s0, const rv_word *in,
                                 size_t n) {
    clmul_acc acc;
    if (n == CLMUL_POWERS) {
        _Pragma("GCC unroll 16")
        for (unsigned j = 0; j < CLMUL_POWERS; j++) {
            uint64_t a1 = rv_bswap(in[2 * j], rev8), a0 = rv_bswap(in[2 * j + 1], rev8);
            if (j == 0) {
                a1 ^= *s1;
                a0 ^= *s0;
            }
            clmul_mul_acc(&acc, a1, a0, k->pw[CLMUL_POWERS - 1 - j], j == 0);
        }
    } else {
        uint64_t a1 = rv_bswap(in[0], rev8) ^ *s1, a0 = rv_bswap(in[1], rev8) ^ *s0;
        clmul_mul_acc(&acc, a1, a0, k->pw[n - 1], 1);
        for (size_t j = 1; j < n; j++) {
            a1 = rv_bswap(in[2 * j], rev8);
            a0 = rv_bswap(in[2 * j + 1], rev8);
            clmul_mul_acc(&acc, a1, a0, k->pw[n - 1 - j], 0);
        }
    }
    clmul_reduce(&acc, s1, s0);
}

/* Any number of blocks: whole groups, then one shorter group. */
RV_INLINE void clmul_ghash_words(const clmul_key *k, int rev8, uint64_t *s1, uint64_t *s0, const rv_word *in,
                                 size_t n) {
    for (; n >= CLMUL_POWERS; n -= CLMUL_POWERS, in += 2 * CLMUL_POWERS)
        clmul_ghash_group(k, rev8, s1, s0, in, CLMUL_POWERS);
    if (n)
        clmul_ghash_group(k, rev8, s1, s0, in, n);
}

/* Key setup: p1:p0 = H^j (reflected, not shifted) times H, whose shifted
 * form is the key's first power. */
static inline void clmul_next_power(const clmul_key *k, uint64_t *p1, uint64_t *p0) {
    clmul_acc acc;
    clmul_mul_acc(&acc, *p1, *p0, k->pw[0], 1);
    clmul_reduce(&acc, p1, p0);
}

/* A power h1:h0 (reflected, shifted) in the key's layout. */
static inline void clmul_store_power(clmul_key *k, unsigned j, uint64_t h1, uint64_t h0) {
    k->pw[j][0] = h0;
    k->pw[j][1] = h1;
    k->pw[j][2] = h0 ^ h1;
}

#else /* rv32 */

/* Blocks per reduction: the key holds H^1..H^CLMUL_POWERS. */
#define CLMUL_POWERS 12

/* pw[j] = H^(j+1) * x^-1 as K1:K0 (64-bit halves), in 32-bit words:
 * {K0 low, K0 high, K0 low ^ high, the same for K1, then for K0 ^ K1}. */
typedef struct clmul_key {
    uint32_t pw[CLMUL_POWERS][9];
    uint32_t rev8; /* 1: byte reversal with rev8 (Zbb or Zbkb present) */
} clmul_key;

_Static_assert(sizeof(clmul_key) <= HWC_GHASH_KEY_BYTES, "clmul32 key must fit in hwc_ghash_key");

static inline const clmul_key *clmul_key_view(const hwc_ghash_key *key) {
    return (const clmul_key *)(const void *)key->bytes;
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
    clmul_fold(p0, p1, p2, p3, r1, r0);
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

/* One group of n blocks (1..CLMUL_POWERS), one reduction. The state is
 * s1:s0 (reflected); the blocks are little-endian words as loaded. A whole
 * group is unrolled (measured fastest on rv32, though the twelve
 * accumulator words do not all stay in registers; three passes over the
 * group, one per Karatsuba product, measured slower). */
RV_INLINE void clmul_ghash_group(const clmul_key *k, int rev8, uint64_t *s1, uint64_t *s0, const rv_word *in,
                           size_t n) {
    clmul32_acc acc = {{0}, {0}, {0}};
    if (n == CLMUL_POWERS) {
        block_acc(&acc, rev8, in, *s1, *s0, k->pw[CLMUL_POWERS - 1]);
        _Pragma("GCC unroll 16")
        for (unsigned j = 1; j < CLMUL_POWERS; j++)
            block_acc(&acc, rev8, in + 4 * j, 0, 0, k->pw[CLMUL_POWERS - 1 - j]);
    } else {
        block_acc(&acc, rev8, in, *s1, *s0, k->pw[n - 1]);
        for (size_t j = 1; j < n; j++)
            block_acc(&acc, rev8, in + 4 * j, 0, 0, k->pw[n - 1 - j]);
    }
    reduce(&acc, s1, s0);
}

RV_INLINE void clmul_ghash_words(const clmul_key *k, int rev8, uint64_t *s1, uint64_t *s0, const rv_word *in,
                           size_t n) {
    for (; n >= CLMUL_POWERS; n -= CLMUL_POWERS, in += 4 * CLMUL_POWERS)
        clmul_ghash_group(k, rev8, s1, s0, in, CLMUL_POWERS);
    if (n)
        clmul_ghash_group(k, rev8, s1, s0, in, n);
}

/* Key setup: p1:p0 = H^j (reflected, not shifted) times H, whose shifted
 * form is the key's first power. */
static inline void clmul_next_power(const clmul_key *k, uint64_t *p1, uint64_t *p0) {
    clmul32_acc acc = {{0}, {0}, {0}};
    mul128_acc(&acc, (uint32_t)(*p1 >> 32), (uint32_t)*p1, (uint32_t)(*p0 >> 32), (uint32_t)*p0, k->pw[0]);
    reduce(&acc, p1, p0);
}

static inline void store_half(uint32_t *w, uint64_t v) {
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
    w[2] = w[0] ^ w[1];
}

/* A power h1:h0 (reflected, shifted) in the key's layout. */
static inline void clmul_store_power(clmul_key *k, unsigned j, uint64_t h1, uint64_t h0) {
    store_half(k->pw[j], h0);
    store_half(k->pw[j] + 3, h1);
    store_half(k->pw[j] + 6, h0 ^ h1);
}

#endif /* __riscv_xlen */

#endif /* HWC_RISCV_CLMUL_CORE_H */
