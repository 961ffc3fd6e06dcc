/*
 * GHASH with carry-less multiplication (clmul/clmulh from Zbc or Zbkc):
 * back end "clmul64" on rv64, "clmul32" on rv32 (one source; the products
 * are the xlen's own, in clmul_core.h).
 *
 * Bit order. GCM numbers the bits of a block from the most significant bit
 * of byte 0 (x^0) to the least significant bit of byte 15 (x^127). Loading
 * the block big-endian as two words, A1 = bytes 0..7 and A0 = bytes 8..15,
 * gives the 128-bit integer A = A1:A0 in which x^i sits at bit 127 - i:
 * the "reflected" polynomial. Loading big-endian costs one byte reversal
 * per word (rev8 with Zbb/Zbkb, 13 base instructions without, chosen at
 * key setup from the capabilities in effect and stored in the key).
 *
 * Product. For reflected a and b, the 256-bit carry-less product of the two
 * integers holds the coefficient of x^k of a*b at bit 254 - k, i.e. it is
 * the reflected form of a*b*x over 256 bits. Storing each power of H
 * pre-multiplied by x^-1 cancels that extra x, so no shift is needed:
 * P3:P2:P1:P0 = clmul(A, H^j * x^-1) is the reflected a*H^j, with the low
 * half of the polynomial (x^0..x^127) in P3:P2 and the high half
 * (x^128..x^255) in D = P1:P0.
 *
 * Reduction modulo g = x^128 + x^7 + x^2 + x + 1. x^128 = 1 + x + x^2 + x^7,
 * and multiplying by x^s is a right shift by s in the reflected form, so
 * the high half folds in as D ^ D>>1 ^ D>>2 ^ D>>7. The bits those shifts
 * push out below bit 0 are terms of degree >= 128 again; they are the low
 * 7 bits of D, and added back first as E = D<<127 ^ D<<126 ^ D<<121 (they
 * land in the top 7 bits, where a second fold cannot overflow). With
 * D' = D ^ E the result is P3:P2 ^ D' ^ D'>>1 ^ D'>>2 ^ D'>>7: about 25
 * instructions with no multiplication.
 *
 * Aggregation (rv64). Sixteen blocks are hashed with one reduction:
 * S' = (S ^ X1) H^16 ^ X2 H^15 ^ ... ^ X16 H. Each product is Karatsuba (three
 * 64x64 products, six instructions), and the three partial sums are kept
 * apart until the end of the group, so a block costs 6 multiplications and
 * about 8 XORs besides its loads. The key holds H^1..H^16 (each times x^-1)
 * and the XOR of each power's halves for the Karatsuba middle term. The
 * core (key layout, product, reduction) is in clmul_core.h, shared with
 * the fused GCM kernels of zkn64.
 *
 * rv32. A 128x128 product is Karatsuba over 64-bit halves (A0*K0, A1*K1,
 * (A0^A1)*(K0^K1)), and each 64x64 product is Karatsuba again over 32-bit
 * words: three clmul/clmulh pairs. So a block costs 18 multiplications;
 * the three 128-bit partial sums are accumulated across a group of twelve
 * blocks and recombined and reduced once per group. The key holds, per
 * power, the 32-bit halves of K0, K1 and K0^K1 and the XOR of each pair of
 * halves (the inner Karatsuba's middle operand).
 *
 * Byte order: one byte reversal per word, rev8 with Zbb/Zbkb or swap
 * stages without, chosen at key setup from the capabilities in effect and
 * stored in the key. Alignment: RV_STREAM_IN (word-aligned input in place,
 * otherwise an aligned bounce buffer).
 *
 * Constant time: no branch or address depends on H or on the data; clmul
 * is data-independent in time on cores with Zkt.
 */
#if defined(__riscv)

#include "clmul_core.h"
#include "getters.h"

/* h * x^-1 in reflected form: a left shift, and when the x^0 term (bit
 * 127) falls off, g / x = x^127 + x^6 + x + 1 comes in (bits 0, 121, 126,
 * 127). Masked: H is secret. */
static void times_x_inverse(uint64_t *h1, uint64_t *h0) {
    uint64_t mask = 0 - (*h1 >> 63);
    *h1 = (*h1 << 1) | (*h0 >> 63);
    *h0 = *h0 << 1;
    *h1 ^= mask & 0xC200000000000000ull;
    *h0 ^= mask & 1;
}

static void store_power(clmul_key *k, unsigned j, uint64_t h1, uint64_t h0) {
    times_x_inverse(&h1, &h0);
    clmul_store_power(k, j, h1, h0);
}

static void RV_XNAME(hwc_ghash_init_clmul, )(hwc_ghash_key *key, const uint8_t h[16]) {
    clmul_key k;
    const uint64_t h1 = hwc_load_be64(h), h0 = hwc_load_be64(h + 8);
    uint64_t p1 = h1, p0 = h0; /* H^j, reflected, not shifted */

    store_power(&k, 0, h1, h0);
    for (unsigned j = 1; j < CLMUL_POWERS; j++) {
        clmul_next_power(&k, &p1, &p0); /* H^j * H */
        store_power(&k, j, p1, p0);
    }
    k.rev8 = (hwc_caps() & (HWC_CAP_ZBB | HWC_CAP_ZBKB)) != 0;
    memset(key->bytes, 0, sizeof key->bytes);
    memcpy(key->bytes, &k, sizeof k);
    hwc_wipe(&k, sizeof k);
}

#if __riscv_xlen == 64
/* --------------------------------------------------------------- update */

/* The whole update for one byte-reversal flavour. Not inlined: the
 * unrolled 16-block group wants most of the registers, and a short update
 * (one AAD or length block, the common case for small messages) should not
 * pay for saving them; see ghash_update_short. */
__attribute__((noinline)) static void ghash_update_long(const clmul_key *k, int rev8, uint8_t state[16],
                                                        const uint8_t *in, size_t nblocks) {
    uint64_t w0, w1;
    rv_load_chain2(state, &w0, &w1);
    if (rev8) {
        uint64_t s1 = rv_rev8(w0), s0 = rv_rev8(w1);
        RV_STREAM_IN(in, nblocks, clmul_ghash_words(k, 1, &s1, &s0, rv_in, rv_n));
        rv_store_chain2(state, rv_rev8(s1), rv_rev8(s0));
    } else {
        uint64_t s1 = rv_bswap_base(w0), s0 = rv_bswap_base(w1);
        RV_STREAM_IN(in, nblocks, clmul_ghash_words(k, 0, &s1, &s0, rv_in, rv_n));
        rv_store_chain2(state, rv_bswap_base(s1), rv_bswap_base(s0));
    }
}

/* Fewer than CLMUL_POWERS blocks from an aligned buffer: one group, in
 * few enough registers that no callee-saved one is touched. */
RV_INLINE void ghash_short_body(const clmul_key *k, int rev8, uint8_t state[16], const rv_word *in, size_t n) {
    uint64_t w0, w1;
    rv_load_chain2(state, &w0, &w1);
    uint64_t s1 = rv_bswap(w0, rev8), s0 = rv_bswap(w1, rev8);
    clmul_ghash_group(k, rev8, &s1, &s0, in, n);
    rv_store_chain2(state, rv_bswap(s1, rev8), rv_bswap(s0, rev8));
}

static void RV_XNAME(hwc_ghash_update_clmul, )(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                     size_t nblocks) {
    const clmul_key *k = clmul_key_view(key);
    if (nblocks == 0)
        return;
    if (nblocks < CLMUL_POWERS && rv_aligned(in)) {
        const rv_word *words = (const rv_word *)(const void *)in;
        if (k->rev8)
            ghash_short_body(k, 1, state, words, nblocks);
        else
            ghash_short_body(k, 0, state, words, nblocks);
        return;
    }
    if (k->rev8)
        ghash_update_long(k, 1, state, in, nblocks);
    else
        ghash_update_long(k, 0, state, in, nblocks);
}

#else /* rv32 */

/* -------------------------------------------------------------- update */

static void RV_XNAME(hwc_ghash_update_clmul, )(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in,
                                     size_t nblocks) {
    const clmul_key *k = clmul_key_view(key);
    if (nblocks == 0)
        return;
    uint64_t s1 = hwc_load_be64(state), s0 = hwc_load_be64(state + 8);
    if (k->rev8)
        RV_STREAM_IN(in, nblocks, clmul_ghash_words(k, 1, &s1, &s0, rv_in, rv_n));
    else
        RV_STREAM_IN(in, nblocks, clmul_ghash_words(k, 0, &s1, &s0, rv_in, rv_n));
    hwc_store_be64(state, s1);
    hwc_store_be64(state + 8, s0);
}

#endif /* __riscv_xlen */

/* ----------------------------------------------------------------- table */

/* clmul and clmulh are in both Zbc and Zbkc: either will do. */
static int clmul_usable(uint64_t caps, const char **why) {
    if (caps & (HWC_CAP_ZBC | HWC_CAP_ZBKC))
        return 1;
    if (why)
        *why = (hwc_caps_probed() & (HWC_CAP_ZBC | HWC_CAP_ZBKC)) ? "needs zbc or zbkc (disabled by HWCRYPT_CAPS)"
                                                                   : "needs zbc or zbkc (not on this CPU)";
    return 0;
}

static const hwc_ghash_impl ghash_clmul_impl = {
    .name = "clmul" RV_XLEN_STR,
    .required_caps = 0,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = clmul_usable,
    .init = RV_XNAME(hwc_ghash_init_clmul, ),
    .update = RV_XNAME(hwc_ghash_update_clmul, ),
    .polyval_init = NULL,
    .polyval_update = NULL,
};

const hwc_ghash_impl *RV_XNAME(hwc_ghash_clmul, _get)(void) {
    return &ghash_clmul_impl;
}

#endif /* __riscv */
