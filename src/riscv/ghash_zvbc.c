/*
 * GHASH with Zvbc (vclmul/vclmulh, SEW=64) for cores that have Zvbc but
 * not Zvkg: back end "zvbc". Built by clang only (cmake/riscv-vector.cmake).
 *
 * Bit order. GCM numbers the bits of a block from the most significant bit
 * of byte 0 (x^0) to the least significant bit of byte 15 (x^127). vbrev8
 * (Zvkb) reverses the bits of every byte, after which the two little-endian
 * 64-bit words of a block hold x^0..x^63 and x^64..x^127 at bits 0..63: the
 * plain polynomial order, in which vclmul/vclmulh compute products directly
 * (no reflected-domain shift). The state goes through vbrev8 in and out.
 *
 * Layout. A group of G blocks is loaded with one two-field segment load
 * (vlseg2e64): a vector of the low words of the G blocks and one of their
 * high words, LMUL=4, so G = VLEN/16 blocks (8 at VLEN=128), capped at 32,
 * the powers the key holds. Every product and the reduction are then
 * element-wise; no lane ever needs its neighbour until the final fold.
 *
 * Product. (a1:a0)(k1:k0) = P3:P2:P1:P0 by schoolbook: eight vclmul(h),
 * four XORs. Reduction modulo g = x^128 + x^7 + x^2 + x + 1, with
 * c = x^7 + x^2 + x + 1 (0x87) and x^128 = c: P3 x^192 = P3 c x^64 puts
 * clmulh(P3, c) into word 2 and clmul(P3, c) into word 1; then word 2,
 * D = P2 ^ clmulh(P3, c), folds as D c: clmulh(D, c) into word 1 and
 * clmul(D, c) into word 0. Four vclmul(h).vx and four XORs. With the
 * same key in every lane (the full groups below), the a1 k1 term is instead
 * taken as a1 (k1 c), k1 c precomputed, which leaves no word 3: see
 * zvbc_power.
 *
 * Aggregation, as ghash_zvkg.c: the key holds H^32 .. H^1, so every lane of
 * a full group is multiplied by H^G (a scalar operand: vclmul.vx) and
 * reduced, the last group by H^G .. H^1 (one per lane), and the lanes are
 * folded once (vredxor). A leading partial group of n mod G blocks is
 * hashed the same way before the full ones.
 *
 * Alignment. Input that is 8-byte aligned is read with vlseg2e64; other
 * input is copied to an aligned stack buffer with vle8/vse8 first, so no
 * access is ever misaligned. Constant time: no branch or address depends on
 * H or on the data (only on the public length and alignment); vclmul and
 * vclmulh are data-independent in time on cores with Zvkt.
 */
#include "riscv/zv_common.h"
#include "getters.h"

typedef vuint64m4_t zvbc_v; /* one 64-bit word of each block of a group */

/* Powers of H in the key: H^j in lo[ZVBC_POWERS - j], hi[ZVBC_POWERS - j]
 * (plain polynomial order), so a group of m blocks reads H^m .. H^1 as one
 * contiguous load of each array. */
#define ZVBC_POWERS 32
typedef struct zvbc_key {
    uint64_t lo[ZVBC_POWERS];
    uint64_t hi[ZVBC_POWERS];
} zvbc_key;
_Static_assert(sizeof(zvbc_key) <= HWC_GHASH_KEY_BYTES, "zvbc key must fit in hwc_ghash_key");

/* x^128 mod g, the reduction constant. */
#define ZVBC_G_LOW 0x87u

/* Blocks per group: VLEN/16 (e64, LMUL=4), at most ZVBC_POWERS. */
ZV_INLINE size_t zvbc_max_blocks(void) {
    size_t g = __riscv_vsetvlmax_e64m4();
    return g < ZVBC_POWERS ? g : ZVBC_POWERS;
}

/* P3:P2:P1:P0 mod g, per lane (see the top of the file). */
ZV_INLINE void zvbc_reduce(zvbc_v p0, zvbc_v p1, zvbc_v p2, zvbc_v p3, size_t vl, zvbc_v *r0, zvbc_v *r1) {
    zvbc_v d = __riscv_vxor_vv_u64m4(p2, __riscv_vclmulh_vx_u64m4(p3, ZVBC_G_LOW, vl), vl);
    p1 = __riscv_vxor_vv_u64m4(p1, __riscv_vclmul_vx_u64m4(p3, ZVBC_G_LOW, vl), vl);
    *r1 = __riscv_vxor_vv_u64m4(p1, __riscv_vclmulh_vx_u64m4(d, ZVBC_G_LOW, vl), vl);
    *r0 = __riscv_vxor_vv_u64m4(p0, __riscv_vclmul_vx_u64m4(d, ZVBC_G_LOW, vl), vl);
}

/*
 * One power of H as the scalar operands of zvbc_mul_vx. The a1 k1 x^128
 * term of a product is a1 (k1 c) modulo g, and k1 c (71 bits: k1c, then
 * seven bits at x^64) is a constant of the key: multiplying a1 by it puts
 * the term in words 0..2 directly, with no word 3 to reduce. Its bits at
 * x^64 share a word position with k0, so they are merged into k0x (the
 * product is linear in the key): a1 k0 x^64 ^ a1 (k1 c >> 64) x^64 = a1 k0x x^64.
 */
typedef struct zvbc_power {
    uint64_t k0, k1, k1c, k0x;
} zvbc_power;

/* Carry-less k * c in plain shifts (no scalar clmul needed); H is secret
 * and none of this branches. */
ZV_INLINE zvbc_power zvbc_power_of(uint64_t k0, uint64_t k1) {
    zvbc_power p = {k0, k1, k1 ^ (k1 << 1) ^ (k1 << 2) ^ (k1 << 7), k0 ^ (k1 >> 63) ^ (k1 >> 62) ^ (k1 >> 57)};
    return p;
}

/* (a1:a0) * H mod g per lane, the same H in every lane: ten vclmul(h) and
 * seven XORs (words 0..2, then word 2 folded as D c). a1 is consumed first
 * so that fewer register groups are live. */
ZV_INLINE void zvbc_mul_vx(zvbc_v a0, zvbc_v a1, const zvbc_power *k, size_t vl, zvbc_v *r0, zvbc_v *r1) {
    zvbc_v w0 = __riscv_vclmul_vx_u64m4(a1, k->k1c, vl);
    zvbc_v w1 = __riscv_vxor_vv_u64m4(__riscv_vclmulh_vx_u64m4(a1, k->k1c, vl), __riscv_vclmul_vx_u64m4(a1, k->k0x, vl), vl);
    zvbc_v w2 = __riscv_vclmulh_vx_u64m4(a1, k->k0x, vl);
    w0 = __riscv_vxor_vv_u64m4(w0, __riscv_vclmul_vx_u64m4(a0, k->k0, vl), vl);
    w1 = __riscv_vxor_vv_u64m4(w1, __riscv_vclmulh_vx_u64m4(a0, k->k0, vl), vl);
    w1 = __riscv_vxor_vv_u64m4(w1, __riscv_vclmul_vx_u64m4(a0, k->k1, vl), vl);
    w2 = __riscv_vxor_vv_u64m4(w2, __riscv_vclmulh_vx_u64m4(a0, k->k1, vl), vl);
    *r1 = __riscv_vxor_vv_u64m4(w1, __riscv_vclmulh_vx_u64m4(w2, ZVBC_G_LOW, vl), vl);
    *r0 = __riscv_vxor_vv_u64m4(w0, __riscv_vclmul_vx_u64m4(w2, ZVBC_G_LOW, vl), vl);
}

/* (a1:a0) * (k1:k0) mod g with one key per lane (k1:k0 vectors): the
 * schoolbook product and zvbc_reduce (the k1 c form above would need two
 * more key vectors live). */
ZV_INLINE void zvbc_mul_vv(zvbc_v a0, zvbc_v a1, zvbc_v k0, zvbc_v k1, size_t vl, zvbc_v *r0, zvbc_v *r1) {
    zvbc_v p3 = __riscv_vclmulh_vv_u64m4(a1, k1, vl);
    zvbc_v p2 = __riscv_vxor_vv_u64m4(__riscv_vclmul_vv_u64m4(a1, k1, vl), __riscv_vclmulh_vv_u64m4(a0, k1, vl), vl);
    zvbc_v p1 = __riscv_vclmul_vv_u64m4(a0, k1, vl);
    p2 = __riscv_vxor_vv_u64m4(p2, __riscv_vclmulh_vv_u64m4(a1, k0, vl), vl);
    p1 = __riscv_vxor_vv_u64m4(p1, __riscv_vclmul_vv_u64m4(a1, k0, vl), vl);
    p1 = __riscv_vxor_vv_u64m4(p1, __riscv_vclmulh_vv_u64m4(a0, k0, vl), vl);
    zvbc_v p0 = __riscv_vclmul_vv_u64m4(a0, k0, vl);
    zvbc_reduce(p0, p1, p2, p3, vl, r0, r1);
}

/* m blocks of caller input as low and high words in polynomial order. a8
 * (a constant per instantiation): in is 8-byte aligned; otherwise the
 * blocks are copied to `bounce` (aligned, 16 * m bytes) with byte accesses. */
ZV_INLINE void zvbc_load(int a8, const uint8_t *in, size_t m, uint64_t *bounce, zvbc_v *lo, zvbc_v *hi) {
    const uint64_t *words = (const uint64_t *)(const void *)in;
    if (!a8) {
        __riscv_vse8_v_u8m8((uint8_t *)(void *)bounce, __riscv_vle8_v_u8m8(in, 16 * m), 16 * m);
        words = bounce;
    }
    vuint64m4x2_t t = __riscv_vlseg2e64_v_u64m4x2(words, m);
    *lo = __riscv_vbrev8_v_u64m4(__riscv_vget_v_u64m4x2_u64m4(t, 0), m);
    *hi = __riscv_vbrev8_v_u64m4(__riscv_vget_v_u64m4x2_u64m4(t, 1), m);
}

/* A 16-byte block (GCM order, any alignment) as two words in polynomial order. */
ZV_INLINE void zvbc_block_words(const uint8_t b[16], uint64_t *lo, uint64_t *hi) {
    vuint64m1_t v = __riscv_vbrev8_v_u64m1(__riscv_vreinterpret_v_u8m1_u64m1(__riscv_vle8_v_u8m1(b, 16)), 2);
    *lo = __riscv_vmv_x_s_u64m1_u64(v);
    *hi = __riscv_vmv_x_s_u64m1_u64(__riscv_vslidedown_vx_u64m1(v, 1, 2));
}

ZV_INLINE void zvbc_store_block(uint8_t b[16], uint64_t lo, uint64_t hi) {
    vuint64m1_t v = __riscv_vmv_s_x_u64m1_tu(__riscv_vmv_v_x_u64m1(hi, 2), lo, 2);
    __riscv_vse8_v_u8m1(b, __riscv_vreinterpret_v_u64m1_u8m1(__riscv_vbrev8_v_u64m1(v, 2)), 16);
}

/* The XOR of the m lanes of r0, r1: the new state. */
ZV_INLINE void zvbc_fold(zvbc_v r0, zvbc_v r1, size_t m, uint64_t *y0, uint64_t *y1) {
    vuint64m1_t zero = __riscv_vmv_v_x_u64m1(0, 1);
    *y0 = __riscv_vmv_x_s_u64m1_u64(__riscv_vredxor_vs_u64m4_u64m1(r0, zero, m));
    *y1 = __riscv_vmv_x_s_u64m1_u64(__riscv_vredxor_vs_u64m4_u64m1(r1, zero, m));
}

/* The state enters lane 0 only (tail undisturbed). */
ZV_INLINE void zvbc_add_state(zvbc_v *x0, zvbc_v *x1, uint64_t y0, uint64_t y1) {
    *x0 = __riscv_vxor_vx_u64m4_tu(*x0, *x0, y0, 1);
    *x1 = __riscv_vxor_vx_u64m4_tu(*x1, *x1, y1, 1);
}

/* m lanes times H^m .. H^1, reduced and folded into the state. */
ZV_INLINE void zvbc_last_group(const zvbc_key *k, zvbc_v x0, zvbc_v x1, size_t m, uint64_t *y0, uint64_t *y1) {
    zvbc_v r0, r1;
    zvbc_mul_vv(x0, x1, __riscv_vle64_v_u64m4(k->lo + ZVBC_POWERS - m, m),
                __riscv_vle64_v_u64m4(k->hi + ZVBC_POWERS - m, m), m, &r0, &r1);
    zvbc_fold(r0, r1, m, y0, y1);
}

static void ghash_zvbc_init(hwc_ghash_key *key, const uint8_t h[16]) {
    memset(key, 0, sizeof *key);
    zvbc_key *k = (zvbc_key *)(void *)key->bytes;
    uint64_t h0, h1;
    zvbc_block_words(h, &h0, &h1);
    k->lo[ZVBC_POWERS - 1] = h0;
    k->hi[ZVBC_POWERS - 1] = h1;
    /* Doubling: H^k .. H^1 (contiguous, descending) times H^k is
     * H^2k .. H^(k+1), stored just before them. */
    const size_t vlmax = __riscv_vsetvlmax_e64m4();
    for (size_t have = 1; have < ZVBC_POWERS; have *= 2) {
        const size_t from = ZVBC_POWERS - have;
        const zvbc_power hk = zvbc_power_of(k->lo[from], k->hi[from]);
        for (size_t i = 0; i < have; i += vlmax) {
            size_t vl = have - i < vlmax ? have - i : vlmax;
            zvbc_v r0, r1;
            zvbc_mul_vx(__riscv_vle64_v_u64m4(k->lo + from + i, vl), __riscv_vle64_v_u64m4(k->hi + from + i, vl), &hk,
                        vl, &r0, &r1);
            __riscv_vse64_v_u64m4(k->lo + from - have + i, r0, vl);
            __riscv_vse64_v_u64m4(k->hi + from - have + i, r1, vl);
        }
    }
}

ZV_INLINE void ghash_zvbc_update_body(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks,
                                      const int a8) {
    const zvbc_key *k = (const zvbc_key *)(const void *)key->bytes;
    const size_t gmax = zvbc_max_blocks();
    alignas(8) uint64_t bounce[2 * ZVBC_POWERS];
    const size_t bounced = 16 * (nblocks < gmax ? nblocks : gmax);
    uint64_t y0, y1;
    zvbc_v x0, x1;
    zvbc_block_words(state, &y0, &y1);
    size_t r = nblocks % gmax;
    if (r != 0) {
        zvbc_load(a8, in, r, bounce, &x0, &x1);
        zvbc_add_state(&x0, &x1, y0, y1);
        zvbc_last_group(k, x0, x1, r, &y0, &y1);
        in += 16 * r;
        nblocks -= r;
    }
    if (nblocks != 0) {
        const zvbc_power hg = zvbc_power_of(k->lo[ZVBC_POWERS - gmax], k->hi[ZVBC_POWERS - gmax]);
        const uint8_t *last = in + 16 * (nblocks - gmax);
        zvbc_load(a8, in, gmax, bounce, &x0, &x1);
        zvbc_add_state(&x0, &x1, y0, y1);
        while (in != last) {
            zvbc_v r0, r1;
            zvbc_mul_vx(x0, x1, &hg, gmax, &r0, &r1);
            in += 16 * gmax;
            zvbc_load(a8, in, gmax, bounce, &x0, &x1);
            x0 = __riscv_vxor_vv_u64m4(x0, r0, gmax);
            x1 = __riscv_vxor_vv_u64m4(x1, r1, gmax);
        }
        zvbc_last_group(k, x0, x1, gmax, &y0, &y1);
    }
    zvbc_store_block(state, y0, y1);
    if (!a8)
        hwc_wipe(bounce, bounced); /* the data may be secret (POLYVAL hashes plaintext) */
}

/* vlseg2e64 when the input is 8-byte aligned, bytes otherwise. */
static void ghash_zvbc_update(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks) {
    if (((uintptr_t)in & 7) == 0)
        ghash_zvbc_update_body(key, state, in, nblocks, 1);
    else
        ghash_zvbc_update_body(key, state, in, nblocks, 0);
}

static const hwc_ghash_impl ghash_zvbc_impl = {
    .name = "zvbc",
    .required_caps = HWC_CAP_V | HWC_CAP_ZVBC | HWC_CAP_ZVKB,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = zv_usable_vlen,
    .init = ghash_zvbc_init,
    .update = ghash_zvbc_update,
};

const hwc_ghash_impl *hwc_ghash_zvbc_get(void) {
    return &ghash_zvbc_impl;
}
