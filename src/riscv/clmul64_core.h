/*
 * The GHASH core of "clmul64" (see ghash_clmul64.c for the algebra): the key
 * layout, the Karatsuba product and the reduction, shared by the GHASH back
 * end and the fused GCM kernels of the block back ends that pair with it
 * (aes_zkn64.c, sm4_zksed64.c). Those read the key clmul64 wrote, so the
 * layout lives here once.
 */
#ifndef HWC_RISCV_CLMUL64_CORE_H
#define HWC_RISCV_CLMUL64_CORE_H

#include "rv_scalar.h"

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

    uint64_t d1 = p1 ^ (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
    *r1 = p3 ^ d1 ^ (d1 >> 1) ^ (d1 >> 2) ^ (d1 >> 7);
    *r0 = p2 ^ p0 ^ (p0 >> 1) ^ (p0 >> 2) ^ (p0 >> 7) ^ (d1 << 63) ^ (d1 << 62) ^ (d1 << 57);
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

#endif /* HWC_RISCV_CLMUL64_CORE_H */
