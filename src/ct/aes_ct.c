/*
 * Portable constant-time AES (back end "ct"): bitsliced, four blocks at once.
 *
 * State layout. Four blocks live in eight 64-bit words q[0..7]: word q[i]
 * holds bit i of every byte of the four blocks, the byte in row `row`,
 * column `col` of block `blk` sitting at bit 16*row + 4*col + blk. So each
 * row is one 16-bit lane, each column a nibble of that lane, and moving a
 * whole row onto the next (what MixColumns needs) is a 64-bit rotation.
 *
 * Every operation is a fixed sequence of AND/XOR/shift/rotate on the eight
 * words: no branch and no memory address ever depends on key or data. The
 * S-box is the Boyar-Peralta depth-16 circuit; the inverse S-box shares its
 * nonlinear middle and bottom layers, with its own top layer (the inverse
 * affine map folded in) and the inverse affine map again at the end.
 *
 * ShiftRows is never done as such (it would cost more than the S-box).
 * Instead the state is kept in a "rotated" form: with offset k the true
 * byte (row, col) is stored at (row, col - k*row). ShiftRows then only
 * changes k (by -1, InvShiftRows by +1), and MixColumns, which must combine
 * the bytes of a true column, reads row r+1 shifted by k columns: still two
 * rotations and two masks per word. Round key i is stored pre-rotated to the
 * offset the state has when it is added (-i mod 4, the same in both
 * directions when decryption starts at offset -Nr), so the only real row
 * shuffle is one cheap byte swap per four blocks (for 10 and 14 rounds).
 *
 * The S-box constant 0x63 is folded into round keys 1..Nr (see set_key),
 * which removes every NOT from both the forward and the inverse S-box.
 */
#include "getters.h"

#define CT_MAX_ROUNDS 14
#define CT_PARALLEL 4                        /* blocks per bitsliced state */
#define CT_STATE_BYTES (CT_PARALLEL * HWC_BLOCK)
#define CT_ROUND_KEY_BYTES 64                /* eight words per round key */
#define CT_NROUNDS_OFFSET ((CT_MAX_ROUNDS + 1) * CT_ROUND_KEY_BYTES)

_Static_assert(CT_NROUNDS_OFFSET + 1 <= HWC_KS_BYTES, "AES ct key schedule must fit in hwc_ks");
_Static_assert(alignof(hwc_ks) >= alignof(uint64_t), "hwc_ks must be aligned for 64-bit words");

/* The schedule's round keys, as aligned 64-bit words. This file is the only
 * one that reads or writes them, always through this view (a memcpy here
 * would become a byte-by-byte library call on strict-alignment targets). */
static inline const uint64_t *schedule_words(const hwc_ks *ks) {
    return ks->w64;
}

/* Helpers below are small or take constant arguments that must fold; some
 * compilers otherwise keep them out of line (and the planes in memory). */
#if defined(__GNUC__) || defined(__clang__)
#define CT_INLINE static inline __attribute__((always_inline))
#else
#define CT_INLINE static inline
#endif

CT_INLINE uint64_t ror64(uint64_t x, unsigned n) {
    return (x >> n) | (x << (64 - n)); /* n is always a constant in 1..63 */
}

/* ------------------------------------------------------- S-box circuit */

/*
 * The S-box is the depth-16 circuit of Boyar and Peralta (2011): a linear
 * top layer, a nonlinear middle (inversion in GF(2^8) through GF(2^4)) and
 * a linear bottom layer that includes the affine map. Names follow the
 * paper (T1..T27, M1..M63, L0..L29; U0 and S0 are the most significant
 * bits, here bit planes 7).
 *
 * The top layer outputs the middle needs are linear forms of the input
 * bits; the two programs below compute them in 23 XORs each, one from the
 * S-box input and one from the inverse S-box input (the inverse affine map
 * folded in). Both were found with a greedy shortest-linear-program search
 * and are checked on every byte value by tests/test_ct_aes.c.
 */
typedef struct sbox_top {
    uint64_t t1, t2, t3, t4, t6, t8, t9, t10, t13, t14, t15, t16, t17, t19, t20, t22, t23, t24, t25,
        t26, t27, d; /* d is U7 */
} sbox_top;

/* Top layer of the forward S-box; x[i] is bit plane i of the input. */
CT_INLINE void sbox_top_forward(sbox_top *t, const uint64_t x[8]) {
    t->d = x[0];
    t->t1 = x[7] ^ x[4];
    t->t2 = x[2] ^ x[7];
    t->t3 = x[1] ^ x[7];
    t->t4 = t->t2 ^ t->t1;
    t->t13 = t->t3 ^ t->t4;
    const uint64_t r1 = x[3] ^ t->t13;
    t->t14 = x[6] ^ r1;
    t->t15 = t->t1 ^ t->t14;
    t->t6 = x[2] ^ r1;
    t->t17 = x[0] ^ t->t15;
    t->t8 = x[0] ^ t->t6;
    const uint64_t r2 = x[5] ^ t->t14;
    t->t10 = x[2] ^ r2;
    t->t9 = t->t8 ^ t->t10;
    t->t16 = t->t17 ^ t->t9;
    t->t22 = x[1] ^ t->t9;
    t->t20 = t->t3 ^ t->t22;
    t->t24 = x[7] ^ r2;
    t->t26 = t->t3 ^ t->t16;
    t->t27 = t->t6 ^ t->t16;
    t->t19 = x[4] ^ t->t9;
    t->t25 = t->t17 ^ t->t20;
    t->t23 = t->t2 ^ t->t22;
}

/* Top layer of the forward circuit applied to A^-1 * y: y[i] is bit plane
 * i of the inverse S-box input. */
CT_INLINE void sbox_top_inverse(sbox_top *t, const uint64_t y[8]) {
    t->t22 = y[6] ^ y[4];
    t->t24 = y[0] ^ y[3];
    t->t2 = y[6] ^ y[7];
    t->t1 = y[3] ^ y[4];
    t->t10 = t->t2 ^ t->t24;
    t->t25 = y[5] ^ t->t1;
    t->t9 = t->t24 ^ y[4];
    t->t3 = y[1] ^ t->t9;
    t->t20 = t->t22 ^ t->t3;
    t->t19 = t->t20 ^ t->t1;
    t->t17 = y[5] ^ t->t19;
    t->t4 = t->t1 ^ t->t2;
    t->t26 = y[1] ^ t->t17;
    t->t8 = y[7] ^ t->t22;
    t->t23 = y[6] ^ t->t8;
    t->t13 = t->t3 ^ t->t4;
    t->t16 = t->t9 ^ t->t17;
    const uint64_t r1 = y[7] ^ y[2];
    t->d = r1 ^ y[5];
    t->t15 = t->d ^ t->t17;
    t->t14 = r1 ^ t->t20;
    t->t27 = t->t10 ^ t->t15;
    t->t6 = t->d ^ t->t8;
}

/* Middle and bottom layers: q gets S(x) ^ 0x63 (the paper's four XNORs
 * became XORs: the constant is folded into the round keys). */
CT_INLINE void sbox_middle_bottom(uint64_t q[8], const sbox_top *t) {
    const uint64_t m1 = t->t13 & t->t6, m2 = t->t23 & t->t8, m3 = t->t14 ^ m1, m4 = t->t19 & t->d;
    const uint64_t m5 = m4 ^ m1, m6 = t->t3 & t->t16, m7 = t->t22 & t->t9, m8 = t->t26 ^ m6;
    const uint64_t m9 = t->t20 & t->t17, m10 = m9 ^ m6, m11 = t->t1 & t->t15, m12 = t->t4 & t->t27;
    const uint64_t m13 = m12 ^ m11, m14 = t->t2 & t->t10, m15 = m14 ^ m11, m16 = m3 ^ m2;
    const uint64_t m17 = m5 ^ t->t24, m18 = m8 ^ m7, m19 = m10 ^ m15, m20 = m16 ^ m13;
    const uint64_t m21 = m17 ^ m15, m22 = m18 ^ m13, m23 = m19 ^ t->t25, m24 = m22 ^ m23;
    const uint64_t m25 = m22 & m20, m26 = m21 ^ m25, m27 = m20 ^ m21, m28 = m23 ^ m25;
    const uint64_t m29 = m28 & m27, m30 = m26 & m24, m31 = m20 & m23, m32 = m27 & m31;
    const uint64_t m33 = m27 ^ m25, m34 = m21 & m22, m35 = m24 & m34, m36 = m24 ^ m25;
    const uint64_t m37 = m21 ^ m29, m38 = m32 ^ m33, m39 = m23 ^ m30, m40 = m35 ^ m36;
    const uint64_t m41 = m38 ^ m40, m42 = m37 ^ m39, m43 = m37 ^ m38, m44 = m39 ^ m40;
    const uint64_t m45 = m42 ^ m41;
    const uint64_t m46 = m44 & t->t6, m47 = m40 & t->t8, m48 = m39 & t->d, m49 = m43 & t->t16;
    const uint64_t m50 = m38 & t->t9, m51 = m37 & t->t17, m52 = m42 & t->t15, m53 = m45 & t->t27;
    const uint64_t m54 = m41 & t->t10, m55 = m44 & t->t13, m56 = m40 & t->t23, m57 = m39 & t->t19;
    const uint64_t m58 = m43 & t->t3, m59 = m38 & t->t22, m60 = m37 & t->t20, m61 = m42 & t->t1;
    const uint64_t m62 = m45 & t->t4, m63 = m41 & t->t2;

    const uint64_t l0 = m61 ^ m62, l1 = m50 ^ m56, l2 = m46 ^ m48, l3 = m47 ^ m55;
    const uint64_t l4 = m54 ^ m58, l5 = m49 ^ m61, l6 = m62 ^ l5, l7 = m46 ^ l3;
    const uint64_t l8 = m51 ^ m59, l9 = m52 ^ m53, l10 = m53 ^ l4, l11 = m60 ^ l2;
    const uint64_t l12 = m48 ^ m51, l13 = m50 ^ l0, l14 = m52 ^ m61, l15 = m55 ^ l1;
    const uint64_t l16 = m56 ^ l0, l17 = m57 ^ l1, l18 = m58 ^ l8, l19 = m63 ^ l4;
    const uint64_t l20 = l0 ^ l1, l21 = l1 ^ l7, l22 = l3 ^ l12, l23 = l18 ^ l2;
    const uint64_t l24 = l15 ^ l9, l25 = l6 ^ l10, l26 = l7 ^ l9, l27 = l8 ^ l10;
    const uint64_t l28 = l11 ^ l14, l29 = l11 ^ l17;

    q[7] = l6 ^ l24;   /* S0 */
    q[6] = l16 ^ l26;  /* S1 (XNOR in the paper) */
    q[5] = l19 ^ l28;  /* S2 (XNOR) */
    q[4] = l6 ^ l21;   /* S3 */
    q[3] = l20 ^ l22;  /* S4 */
    q[2] = l25 ^ l29;  /* S5 */
    q[1] = l13 ^ l27;  /* S6 (XNOR) */
    q[0] = l6 ^ l23;   /* S7 (XNOR) */
}

/* AES S-box without its final XOR with 0x63, on eight bit planes. */
static void sbox_no_constant(uint64_t q[8]) {
    sbox_top top;
    sbox_top_forward(&top, q);
    sbox_middle_bottom(q, &top);
}

/* Linear part of the inverse S-box's affine map:
 * b'[i] = b[i+2] ^ b[i+5] ^ b[i+7] (indices mod 8). */
CT_INLINE void inverse_affine_linear(uint64_t q[8]) {
    const uint64_t b0 = q[0], b1 = q[1], b2 = q[2], b3 = q[3];
    const uint64_t b4 = q[4], b5 = q[5], b6 = q[6], b7 = q[7];
    q[0] = b2 ^ b5 ^ b7;
    q[1] = b3 ^ b6 ^ b0;
    q[2] = b4 ^ b7 ^ b1;
    q[3] = b5 ^ b0 ^ b2;
    q[4] = b6 ^ b1 ^ b3;
    q[5] = b7 ^ b2 ^ b4;
    q[6] = b0 ^ b3 ^ b5;
    q[7] = b1 ^ b4 ^ b6;
}

/*
 * Inverse S-box. With S(x) = A*inv(x) ^ 0x63 and A^-1 * 0x63 = 0x05:
 * InvS(y) = A^-1 * S'(A^-1 * (y ^ 0x63)), S' the circuit without its
 * constant. The input's 0x63 comes with the round keys (see set_key), so
 * this is exact; the inner A^-1 lives in sbox_top_inverse.
 */
static void inv_sbox(uint64_t q[8]) {
    sbox_top top;
    sbox_top_inverse(&top, q);
    sbox_middle_bottom(q, &top);
    inverse_affine_linear(q);
}

/* ------------------------------------------------------ linear layers */

/*
 * Row r+1 of the same true column, moved onto row r, when the state has
 * offset k: stored byte (r+1, c - k) goes to (r, c). Source columns that
 * would wrap past column 3 need a 16-bit longer rotation.
 */
CT_INLINE uint64_t next_row(uint64_t x, unsigned k) {
    switch (k) {
    case 0:
        return ror64(x, 16);
    case 1:
        return (ror64(x, 12) & 0xFFF0FFF0FFF0FFF0u) | (ror64(x, 28) & 0x000F000F000F000Fu);
    case 2:
        return (ror64(x, 8) & 0xFF00FF00FF00FF00u) | (ror64(x, 24) & 0x00FF00FF00FF00FFu);
    default:
        return (ror64(x, 4) & 0xF000F000F000F000u) | (ror64(x, 20) & 0x0FFF0FFF0FFF0FFFu);
    }
}

/* Row r+2 of the same true column onto row r (next_row applied twice). */
CT_INLINE uint64_t row_after_next(uint64_t x, unsigned k) {
    if ((k & 1) == 0)
        return ror64(x, 32);
    return (ror64(x, 24) & 0xFF00FF00FF00FF00u) | (ror64(x, 40) & 0x00FF00FF00FF00FFu);
}

/*
 * MixColumns at offset k: out = 2a ^ 3b ^ c ^ d for a column (a, b, c, d)
 * read from row r down, computed as 2(a^b) ^ b ^ (c^d), where (c^d) is the
 * row-after-next of (a^b). Written out plane by plane (no loops) so that
 * compilers keep the planes in registers rather than in stack arrays.
 */
CT_INLINE void mix_columns_at(uint64_t q[8], unsigned k) {
    const uint64_t n0 = next_row(q[0], k), n1 = next_row(q[1], k), n2 = next_row(q[2], k);
    const uint64_t n3 = next_row(q[3], k), n4 = next_row(q[4], k), n5 = next_row(q[5], k);
    const uint64_t n6 = next_row(q[6], k), n7 = next_row(q[7], k);
    const uint64_t p0 = q[0] ^ n0, p1 = q[1] ^ n1, p2 = q[2] ^ n2, p3 = q[3] ^ n3;
    const uint64_t p4 = q[4] ^ n4, p5 = q[5] ^ n5, p6 = q[6] ^ n6, p7 = q[7] ^ n7;
    /* 2(a^b), with the top plane p7 folded back as x^4 + x^3 + x + 1 */
    q[0] = p7 ^ n0 ^ row_after_next(p0, k);
    q[1] = p0 ^ p7 ^ n1 ^ row_after_next(p1, k);
    q[2] = p1 ^ n2 ^ row_after_next(p2, k);
    q[3] = p2 ^ p7 ^ n3 ^ row_after_next(p3, k);
    q[4] = p3 ^ p7 ^ n4 ^ row_after_next(p4, k);
    q[5] = p4 ^ n5 ^ row_after_next(p5, k);
    q[6] = p5 ^ n6 ^ row_after_next(p6, k);
    q[7] = p6 ^ n7 ^ row_after_next(p7, k);
}

/* One function per offset, so each has its rotations as constants. */
static void mix_columns_0(uint64_t q[8]) { mix_columns_at(q, 0); }
static void mix_columns_1(uint64_t q[8]) { mix_columns_at(q, 1); }
static void mix_columns_2(uint64_t q[8]) { mix_columns_at(q, 2); }
static void mix_columns_3(uint64_t q[8]) { mix_columns_at(q, 3); }

/*
 * InvMixColumns at offset k. Its matrix is MixColumns times the circulant
 * (5, 0, 4, 0): first a ^= 4(a ^ c) for every row, then MixColumns.
 */
CT_INLINE void inv_mix_columns_at(uint64_t q[8], unsigned k) {
    const uint64_t u0 = q[0] ^ row_after_next(q[0], k), u1 = q[1] ^ row_after_next(q[1], k);
    const uint64_t u2 = q[2] ^ row_after_next(q[2], k), u3 = q[3] ^ row_after_next(q[3], k);
    const uint64_t u4 = q[4] ^ row_after_next(q[4], k), u5 = q[5] ^ row_after_next(q[5], k);
    const uint64_t u6 = q[6] ^ row_after_next(q[6], k), u7 = q[7] ^ row_after_next(q[7], k);
    /* q ^= 4u: x^8 and x^9 folded back with x^4 + x^3 + x + 1 */
    q[0] ^= u6;
    q[1] ^= u6 ^ u7;
    q[2] ^= u0 ^ u7;
    q[3] ^= u1 ^ u6;
    q[4] ^= u2 ^ u6 ^ u7;
    q[5] ^= u3 ^ u7;
    q[6] ^= u4;
    q[7] ^= u5;
    mix_columns_at(q, k);
}

static void inv_mix_columns_0(uint64_t q[8]) { inv_mix_columns_at(q, 0); }
static void inv_mix_columns_1(uint64_t q[8]) { inv_mix_columns_at(q, 1); }
static void inv_mix_columns_2(uint64_t q[8]) { inv_mix_columns_at(q, 2); }
static void inv_mix_columns_3(uint64_t q[8]) { inv_mix_columns_at(q, 3); }

/* Switch between offset 0 and offset 2: rows 1 and 3 move by two
 * columns, i.e. swap the two bytes of their 16-bit lanes. */
CT_INLINE uint64_t swap_offset_2_plane(uint64_t x) {
    const uint64_t diff = (x ^ (x >> 8)) & 0x00FF000000FF0000u;
    return x ^ diff ^ (diff << 8);
}

static void swap_offset_2(uint64_t q[8]) {
    q[0] = swap_offset_2_plane(q[0]), q[1] = swap_offset_2_plane(q[1]);
    q[2] = swap_offset_2_plane(q[2]), q[3] = swap_offset_2_plane(q[3]);
    q[4] = swap_offset_2_plane(q[4]), q[5] = swap_offset_2_plane(q[5]);
    q[6] = swap_offset_2_plane(q[6]), q[7] = swap_offset_2_plane(q[7]);
}

/* --------------------------------------------------- bitslice / unslice */

/* Swap the bits of `a` selected by mask << shift with the bits of `b`
 * selected by mask. */
#define SWAP_BITS(a, b, mask, shift)                           \
    do {                                                       \
        uint64_t swap_ = (((a) >> (shift)) ^ (b)) & (mask);     \
        (b) ^= swap_;                                          \
        (a) ^= swap_ << (shift);                               \
    } while (0)

/* Transpose the 8x8 bit matrices (word index, bit within a byte) at each
 * of the eight byte positions of eight words: afterwards bit j of byte p of
 * w_i is what bit i of byte p of w_j was. Its own inverse. A macro on named
 * words, so that they stay in registers. */
#define TRANSPOSE_BYTES_BITS(w0, w1, w2, w3, w4, w5, w6, w7) \
    do {                                                     \
        SWAP_BITS(w0, w1, 0x5555555555555555u, 1);           \
        SWAP_BITS(w2, w3, 0x5555555555555555u, 1);           \
        SWAP_BITS(w4, w5, 0x5555555555555555u, 1);           \
        SWAP_BITS(w6, w7, 0x5555555555555555u, 1);           \
        SWAP_BITS(w0, w2, 0x3333333333333333u, 2);           \
        SWAP_BITS(w1, w3, 0x3333333333333333u, 2);           \
        SWAP_BITS(w4, w6, 0x3333333333333333u, 2);           \
        SWAP_BITS(w5, w7, 0x3333333333333333u, 2);           \
        SWAP_BITS(w0, w4, 0x0F0F0F0F0F0F0F0Fu, 4);           \
        SWAP_BITS(w1, w5, 0x0F0F0F0F0F0F0F0Fu, 4);           \
        SWAP_BITS(w2, w6, 0x0F0F0F0F0F0F0F0Fu, 4);           \
        SWAP_BITS(w3, w7, 0x0F0F0F0F0F0F0F0Fu, 4);           \
    } while (0)

/* Byte j of the low 32 bits goes to byte 2j. */
CT_INLINE uint64_t spread_bytes(uint64_t x) {
    x &= 0xFFFFFFFFu;
    x = (x | (x << 16)) & 0x0000FFFF0000FFFFu;
    x = (x | (x << 8)) & 0x00FF00FF00FF00FFu;
    return x;
}

/* Inverse of spread_bytes: the even bytes, packed into the low 32 bits. */
CT_INLINE uint64_t gather_bytes(uint64_t x) {
    x &= 0x00FF00FF00FF00FFu;
    x = (x | (x >> 8)) & 0x0000FFFF0000FFFFu;
    x = (x | (x >> 16)) & 0xFFFFFFFFu;
    return x;
}

/*
 * 64 bytes (four blocks) into bitsliced form. Word 4h + blk first gets the
 * bytes of columns h and h + 2 of block blk, in the order row 0 col h,
 * row 0 col h+2, row 1 col h, ...; the bit transpose then lands the byte
 * at (row, col) of block blk on bit 16*row + 4*col + blk of each plane.
 */
CT_INLINE void split_block(uint64_t *cols_0_2, uint64_t *cols_1_3, const uint8_t *in) {
    const uint64_t lo = hwc_load_le64(in);     /* columns 0, 1 */
    const uint64_t hi = hwc_load_le64(in + 8); /* columns 2, 3 */
    *cols_0_2 = spread_bytes(lo) | (spread_bytes(hi) << 8);
    *cols_1_3 = spread_bytes(lo >> 32) | (spread_bytes(hi >> 32) << 8);
}

CT_INLINE void join_block(uint8_t *out, uint64_t cols_0_2, uint64_t cols_1_3) {
    hwc_store_le64(out, gather_bytes(cols_0_2) | (gather_bytes(cols_1_3) << 32));
    hwc_store_le64(out + 8, gather_bytes(cols_0_2 >> 8) | (gather_bytes(cols_1_3 >> 8) << 32));
}

static void bitslice_load(uint64_t q[8], const uint8_t *in) {
    uint64_t w0, w1, w2, w3, w4, w5, w6, w7;
    split_block(&w0, &w4, in);
    split_block(&w1, &w5, in + HWC_BLOCK);
    split_block(&w2, &w6, in + 2 * HWC_BLOCK);
    split_block(&w3, &w7, in + 3 * HWC_BLOCK);
    TRANSPOSE_BYTES_BITS(w0, w1, w2, w3, w4, w5, w6, w7);
    q[0] = w0, q[1] = w1, q[2] = w2, q[3] = w3;
    q[4] = w4, q[5] = w5, q[6] = w6, q[7] = w7;
}

static void bitslice_store(uint8_t *out, const uint64_t q[8]) {
    uint64_t w0 = q[0], w1 = q[1], w2 = q[2], w3 = q[3];
    uint64_t w4 = q[4], w5 = q[5], w6 = q[6], w7 = q[7];
    TRANSPOSE_BYTES_BITS(w0, w1, w2, w3, w4, w5, w6, w7);
    join_block(out, w0, w4);
    join_block(out + HWC_BLOCK, w1, w5);
    join_block(out + 2 * HWC_BLOCK, w2, w6);
    join_block(out + 3 * HWC_BLOCK, w3, w7);
}

/* ------------------------------------------------------------- rounds */

CT_INLINE void add_round_key(uint64_t q[8], const hwc_ks *ks, unsigned round) {
    const uint64_t *round_key = schedule_words(ks) + 8 * round;
    q[0] ^= round_key[0];
    q[1] ^= round_key[1];
    q[2] ^= round_key[2];
    q[3] ^= round_key[3];
    q[4] ^= round_key[4];
    q[5] ^= round_key[5];
    q[6] ^= round_key[6];
    q[7] ^= round_key[7];
}

/* Round `round` runs with the state at offset -round mod 4. */
static void encrypt_state(const hwc_ks *ks, unsigned nrounds, uint64_t q[8]) {
    add_round_key(q, ks, 0);
    for (unsigned round = 1; round < nrounds; round++) {
        sbox_no_constant(q);
        switch (round & 3) { /* ShiftRows is the offset change */
        case 1: mix_columns_3(q); break;
        case 2: mix_columns_2(q); break;
        case 3: mix_columns_1(q); break;
        default: mix_columns_0(q); break;
        }
        add_round_key(q, ks, round);
    }
    sbox_no_constant(q);
    add_round_key(q, ks, nrounds);
    if (nrounds & 3) /* 10 and 14 rounds end at offset 2 */
        swap_offset_2(q);
}

static void decrypt_state(const hwc_ks *ks, unsigned nrounds, uint64_t q[8]) {
    if (nrounds & 3) /* start at offset -nrounds, so we end at offset 0 */
        swap_offset_2(q);
    add_round_key(q, ks, nrounds);
    for (unsigned round = nrounds - 1; round > 0; round--) {
        inv_sbox(q); /* InvShiftRows is the offset change */
        add_round_key(q, ks, round);
        switch (round & 3) {
        case 1: inv_mix_columns_3(q); break;
        case 2: inv_mix_columns_2(q); break;
        case 3: inv_mix_columns_1(q); break;
        default: inv_mix_columns_0(q); break;
        }
    }
    inv_sbox(q);
    add_round_key(q, ks, 0);
}

/* --------------------------------------------------------- key schedule */

/* SubWord on a little-endian word (byte 0 in the low bits), through the
 * same circuit: key bytes are secret too. */
static uint32_t sub_word(uint32_t word) {
    /* Byte j alone in word j: the transpose puts its bit i at bit j of
     * plane i. The other bit positions hold zero bytes, which the circuit
     * (S(x) ^ 0x63) maps to zero. */
    uint64_t w0 = word & 0xFFu, w1 = (word >> 8) & 0xFFu, w2 = (word >> 16) & 0xFFu, w3 = word >> 24;
    uint64_t w4 = 0, w5 = 0, w6 = 0, w7 = 0;
    TRANSPOSE_BYTES_BITS(w0, w1, w2, w3, w4, w5, w6, w7);
    uint64_t q[8] = {w0, w1, w2, w3, w4, w5, w6, w7};
    sbox_no_constant(q);
    w0 = q[0], w1 = q[1], w2 = q[2], w3 = q[3], w4 = q[4], w5 = q[5], w6 = q[6], w7 = q[7];
    TRANSPOSE_BYTES_BITS(w0, w1, w2, w3, w4, w5, w6, w7);
    const uint64_t out = (w0 & 0xFFu) | (w1 & 0xFFu) << 8 | (w2 & 0xFFu) << 16 | (w3 & 0xFFu) << 24;
    hwc_wipe(q, sizeof q);
    return (uint32_t)out ^ 0x63636363u;
}

static void aes_ct_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)want_dec; /* one schedule serves both directions */
    const unsigned key_words = (unsigned)(key_len / 4);
    const unsigned nrounds = key_words + 6;
    const unsigned total_words = 4 * (nrounds + 1);
    uint32_t words[4 * (CT_MAX_ROUNDS + 1)];
    uint8_t copies[CT_STATE_BYTES];
    uint64_t q[8];

    for (unsigned i = 0; i < key_words; i++)
        words[i] = hwc_load_le32(key + 4 * i);
    uint32_t rcon = 1;
    for (unsigned i = key_words; i < total_words; i++) {
        uint32_t prev = words[i - 1];
        if (i % key_words == 0) {
            prev = sub_word((prev >> 8) | (prev << 24)) ^ rcon; /* RotWord, SubWord, Rcon */
            rcon = (rcon << 1) ^ (0x11Bu & (0u - (rcon >> 7)));
        } else if (key_words > 6 && i % key_words == 4) {
            prev = sub_word(prev);
        }
        words[i] = words[i - key_words] ^ prev;
    }

    for (unsigned round = 0; round <= nrounds; round++) {
        uint8_t round_key[HWC_BLOCK];
        for (unsigned j = 0; j < 4; j++)
            hwc_store_le32(round_key + 4 * j, words[4 * round + j]);
        /* Pre-rotate to the state's offset when this key is added; rounds
         * 1..Nr also carry the S-box constant 0x63 (it passes unchanged
         * through ShiftRows and MixColumns, whose row sums are 1). */
        const unsigned offset = (0u - round) & 3;
        const uint8_t constant = round ? 0x63 : 0x00;
        for (unsigned col = 0; col < 4; col++)
            for (unsigned row = 0; row < 4; row++)
                copies[4 * col + row] = (uint8_t)(round_key[4 * ((col + offset * row) & 3) + row] ^ constant);
        for (unsigned blk = 1; blk < CT_PARALLEL; blk++)
            memcpy(copies + HWC_BLOCK * blk, copies, HWC_BLOCK);
        bitslice_load(q, copies);
        uint64_t *round_key_words = ks->w64 + 8 * round;
        for (unsigned i = 0; i < 8; i++)
            round_key_words[i] = q[i];
        hwc_wipe(round_key, sizeof round_key);
    }
    /* rounds a previous, longer key used */
    hwc_wipe(ks->bytes + CT_ROUND_KEY_BYTES * (nrounds + 1), CT_ROUND_KEY_BYTES * (CT_MAX_ROUNDS - nrounds));
    ks->bytes[CT_NROUNDS_OFFSET] = (uint8_t)nrounds;

    hwc_wipe(words, sizeof words);
    hwc_wipe(copies, sizeof copies);
    hwc_wipe(q, sizeof q);
}

/* ----------------------------------------------------------------- ECB */

typedef void (*state_fn)(const hwc_ks *ks, unsigned nrounds, uint64_t q[8]);

static void ecb_run(state_fn run, const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    const unsigned nrounds = ks->bytes[CT_NROUNDS_OFFSET];
    uint64_t q[8];
    for (; nblocks >= CT_PARALLEL; nblocks -= CT_PARALLEL) {
        bitslice_load(q, in);
        run(ks, nrounds, q);
        bitslice_store(out, q);
        in += CT_STATE_BYTES;
        out += CT_STATE_BYTES;
    }
    if (nblocks) {
        uint8_t tail[CT_STATE_BYTES] = {0};
        memcpy(tail, in, nblocks * HWC_BLOCK);
        bitslice_load(q, tail);
        run(ks, nrounds, q);
        bitslice_store(tail, q);
        memcpy(out, tail, nblocks * HWC_BLOCK);
        hwc_wipe(tail, sizeof tail);
    }
    hwc_wipe(q, sizeof q);
}

static void aes_ct_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    ecb_run(encrypt_state, ks, out, in, nblocks);
}

static void aes_ct_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    ecb_run(decrypt_state, ks, out, in, nblocks);
}

static const hwc_block_impl aes_ct_impl = {
    .name = "ct",
    .family = HWC_FAMILY_AES,
    .required_caps = 0,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "ct",
    .usable = NULL,
    .set_key = aes_ct_set_key,
    .ecb_enc = aes_ct_ecb_enc,
    .ecb_dec = aes_ct_ecb_dec,
};

const hwc_block_impl *hwc_aes_ct_get(void) {
    return &aes_ct_impl;
}
