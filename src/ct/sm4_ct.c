/*
 * SM4 (GB/T 32907-2016) in portable, constant-time C.
 *
 * Bitsliced: 16 blocks go through the rounds together. A state word (one of
 * X0..X3, for all 16 blocks) is 8 bit planes of 64 bits; plane b holds bit b
 * of byte k of block n at bit 16*k + n, where byte k is the k-th least
 * significant byte of the big-endian word. Rotating a word left by 8 is then
 * rotating every plane left by 16, so SM4's linear layer stays cheap, and one
 * evaluation of the S-box circuit serves the 4 S-boxes of all 16 blocks.
 *
 * The S-box is computed, never looked up. Its published structure is
 *     S(x) = A * inv(A * x + 0xD3) + 0xD3
 * with inv() the inverse in GF(2^8) modulo x^8+x^7+x^6+x^5+x^4+x^2+1 and A
 * the circulant matrix whose columns (A * e_i) are cb 97 2f 5e bc 79 f2 e5;
 * tests/test_ct_sm4.c checks the circuit against the standard's table for
 * all 256 inputs. The inversion runs in the isomorphic tower field
 * GF(((2^2)^2)^2):
 *     GF(4)   = GF(2)[w]/(w^2 + w + 1)
 *     GF(16)  = GF(4)[z]/(z^2 + z + w)
 *     GF(256) = GF(16)[y]/(y^2 + y + lambda), lambda = w*z + 1
 * where every inverse is a few multiplications and squarings (ANDs and XORs).
 * The change of basis (sending the SM4 field's x to the tower element with
 * bits 0, 1 and 7 set) is merged with A on each side: to_tower() and
 * from_tower() below, whose XOR sequences came from a greedy
 * common-subexpression search; the root and lambda were chosen among all
 * candidates to make these maps short.
 *
 * Decryption is encryption with the round keys in reverse order, so one
 * schedule serves both directions. The 32 round keys are stored as bit
 * planes, already mapped into the tower basis with the input constant added,
 * which fills the 2048-byte hwc_ks exactly.
 */
#include "getters.h"

#define SM4_ROUNDS 32
#define SM4_BATCH 16                     /* blocks per bitsliced batch */
#define SM4_BATCH_BYTES (SM4_BATCH * HWC_BLOCK)
#define SM4_RK_PLANE_BYTES (8 * sizeof(uint64_t))

_Static_assert(SM4_ROUNDS * SM4_RK_PLANE_BYTES <= HWC_KS_BYTES, "SM4 round-key planes must fit in hwc_ks");

/* S-box constants as bit masks over the 8 planes. */
#define SM4_SBOX_OUT_CONST 0xD3u   /* added after the output matrix */
#define SM4_TOWER_IN_CONST 0xE4u   /* 0xD3 after the input matrix: folded into round keys */

static inline uint64_t rotl64(uint64_t x, unsigned n) {
    return (x << n) | (x >> (64 - n));
}

/* Rotating a 32-bit word left by 8 bits moves byte k to byte k+1: in the
 * plane layout that is 16 lanes. */
#define BYTE_LANES 16

/* ------------------------------------------------ GF(2^8) tower inversion */

typedef struct { uint64_t hi, lo; } gf4;   /* hi*w + lo */
typedef struct { gf4 hi, lo; } gf16;       /* hi*z + lo */
typedef struct { gf16 hi, lo; } gf256;     /* hi*y + lo */

static inline gf4 gf4_add(gf4 a, gf4 b) {
    return (gf4){a.hi ^ b.hi, a.lo ^ b.lo};
}
static inline gf4 gf4_mul(gf4 a, gf4 b) {
    /* Karatsuba: 3 ANDs. (a1w+a0)(b1w+b0) with w^2 = w+1. */
    uint64_t low = a.lo & b.lo;
    uint64_t cross = (a.hi ^ a.lo) & (b.hi ^ b.lo);
    return (gf4){cross ^ low, (a.hi & b.hi) ^ low};
}
/* In GF(4) squaring is also inversion (a^3 = 1 for a != 0). */
static inline gf4 gf4_square(gf4 a) {
    return (gf4){a.hi, a.hi ^ a.lo};
}
static inline gf4 gf4_mul_w(gf4 a) {
    return (gf4){a.hi ^ a.lo, a.hi};
}

static inline gf16 gf16_add(gf16 a, gf16 b) {
    return (gf16){gf4_add(a.hi, b.hi), gf4_add(a.lo, b.lo)};
}
static inline gf16 gf16_mul(gf16 a, gf16 b) {
    gf4 high = gf4_mul(a.hi, b.hi);
    gf4 low = gf4_mul(a.lo, b.lo);
    gf4 cross = gf4_mul(gf4_add(a.hi, a.lo), gf4_add(b.hi, b.lo));
    /* z^2 = z + w */
    return (gf16){gf4_add(cross, low), gf4_add(gf4_mul_w(high), low)};
}
/* Inverse through the norm to GF(4): a^-1 = conj(a) / (a * conj(a)), with
 * conj(hi*z + lo) = hi*z + (hi + lo). Maps 0 to 0. */
static inline gf16 gf16_inv(gf16 a) {
    gf4 sum = gf4_add(a.hi, a.lo);
    gf4 norm = gf4_add(gf4_mul_w(gf4_square(a.hi)), gf4_mul(a.lo, sum));
    gf4 norm_inv = gf4_square(norm);
    return (gf16){gf4_mul(a.hi, norm_inv), gf4_mul(sum, norm_inv)};
}
/* lambda * a^2 (linear over GF(2)). */
static inline gf16 gf16_square_mul_lambda(gf16 a) {
    uint64_t t = a.lo.hi ^ a.hi.hi;
    return (gf16){{a.lo.lo, a.lo.hi}, {t, t ^ a.lo.lo ^ a.hi.lo}};
}
/* Same norm trick one level up; 0 maps to 0. */
static inline gf256 gf256_inv(gf256 a) {
    gf16 sum = gf16_add(a.hi, a.lo);
    gf16 norm = gf16_add(gf16_square_mul_lambda(a.hi), gf16_mul(a.lo, sum));
    gf16 norm_inv = gf16_inv(norm);
    return (gf256){gf16_mul(a.hi, norm_inv), gf16_mul(sum, norm_inv)};
}

/* In-place inverse of 64 tower-basis elements; t[i] is tower bit i: bits
 * 0-3 the low GF(16) half, each GF(16) as (hi GF(4), lo GF(4)). Arrays at
 * the interface, so that the compiler need not pass the structs in memory
 * when it chooses not to inline. */
static void tower_inverse(uint64_t t[8]) {
    gf256 a = {{{t[7], t[6]}, {t[5], t[4]}}, {{t[3], t[2]}, {t[1], t[0]}}};
    gf256 r = gf256_inv(a);
    t[0] = r.lo.lo.lo; t[1] = r.lo.lo.hi; t[2] = r.lo.hi.lo; t[3] = r.lo.hi.hi;
    t[4] = r.hi.lo.lo; t[5] = r.hi.lo.hi; t[6] = r.hi.hi.lo; t[7] = r.hi.hi.hi;
}

/* ------------------------------------------------------ S-box, linear maps */

/* t = tower-basis image of A * x (without the constant). */
static inline void to_tower(uint64_t t[8], const uint64_t x[8]) {
    const uint64_t x06 = x[0] ^ x[6];
    const uint64_t x12 = x[1] ^ x[2];
    const uint64_t x45 = x[4] ^ x[5];
    const uint64_t x0126 = x06 ^ x12;
    t[0] = x06 ^ x45;
    t[1] = x[1] ^ x45;
    t[2] = x[5];
    t[3] = x[5] ^ x0126;
    t[4] = x[4] ^ x0126;
    t[5] = x[6];
    t[6] = x[2] ^ x[7];
    t[7] = x0126 ^ x[3] ^ x45;
}

/* s = A * (tower element t back in the SM4 basis), without the constant. */
static inline void from_tower(uint64_t s[8], const uint64_t t[8]) {
    const uint64_t t04 = t[0] ^ t[4];
    const uint64_t t13 = t[1] ^ t[3];
    const uint64_t t67 = t[6] ^ t[7];
    s[0] = t[0] ^ t[2];
    s[1] = t[6] ^ t04;
    s[2] = t[4] ^ t[1] ^ t[2];
    s[3] = t[0] ^ t67;
    s[4] = t[5] ^ t13;
    s[5] = t[7] ^ t13;
    s[6] = t04 ^ t[1] ^ t[5];
    s[7] = t[2] ^ t04 ^ t13 ^ t67;
}

/* Add a constant byte to all lanes: complement the planes of its set bits. */
static inline void add_const(uint64_t x[8], unsigned c) {
    for (unsigned b = 0; b < 8; b++)
        x[b] ^= 0 - (uint64_t)((c >> b) & 1);
}

/* The full S-box on 64 lanes (key schedule and the test hook). */
static void sbox_planes(uint64_t x[8]) {
    uint64_t t[8];
    to_tower(t, x);
    add_const(t, SM4_TOWER_IN_CONST);
    tower_inverse(t);
    from_tower(x, t);
    add_const(x, SM4_SBOX_OUT_CONST);
}

/* --------------------------------------------------------------- rounds */

/* One plane of SM4's L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24, written
 * as B ^ B<<<24 ^ C ^ C<<<8 ^ C<<<16 with C = B<<<2: b is the plane of B,
 * c the same plane of C. */
static inline uint64_t linear_plane(uint64_t b, uint64_t c) {
    return b ^ rotl64(b, 3 * BYTE_LANES) ^ c ^ rotl64(c ^ rotl64(c, BYTE_LANES), BYTE_LANES);
}

/* One round for 16 blocks: x0 ^= L(S(x1 ^ x2 ^ x3 ^ rk)). rk is the round
 * key in the tower basis (see set_key), so it is added after to_tower().
 * Written out plane by plane: compilers do not all unroll these loops. */
static inline void sm4_round(uint64_t x0[8], const uint64_t x1[8], const uint64_t x2[8],
                             const uint64_t x3[8], const uint64_t rk[8]) {
    uint64_t u[8], t[8], s[8];
    for (unsigned b = 0; b < 8; b++)
        u[b] = x1[b] ^ x2[b] ^ x3[b];
    to_tower(t, u);
    for (unsigned b = 0; b < 8; b++)
        t[b] ^= rk[b];
    tower_inverse(t);
    from_tower(s, t);
    /* + 0xD3: bits 0, 1, 4, 6, 7 */
    s[0] = ~s[0];
    s[1] = ~s[1];
    s[4] = ~s[4];
    s[6] = ~s[6];
    s[7] = ~s[7];
    /* C = B<<<2 moves plane b to plane b+2; the top two planes wrap into
     * the next byte. */
    x0[0] ^= linear_plane(s[0], rotl64(s[6], BYTE_LANES));
    x0[1] ^= linear_plane(s[1], rotl64(s[7], BYTE_LANES));
    x0[2] ^= linear_plane(s[2], s[0]);
    x0[3] ^= linear_plane(s[3], s[1]);
    x0[4] ^= linear_plane(s[4], s[2]);
    x0[5] ^= linear_plane(s[5], s[3]);
    x0[6] ^= linear_plane(s[6], s[4]);
    x0[7] ^= linear_plane(s[7], s[5]);
}

/* ------------------------------------------------------ bit transposition */

/* Transpose the 8x8 bit matrix held in a word (byte i = row i, bit j =
 * column j) by three rounds of swapping off-diagonal blocks. */
static inline uint64_t transpose_bits8x8(uint64_t x) {
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x ^= t ^ (t << 28);
    return x;
}

/* Transpose the 8x8 byte matrix w[row] byte col. */
static inline void transpose_bytes8x8(uint64_t w[8]) {
    uint64_t t;
    for (unsigned i = 0; i < 4; i++) {
        t = ((w[i] >> 32) ^ w[i + 4]) & 0x00000000FFFFFFFFull;
        w[i] ^= t << 32;
        w[i + 4] ^= t;
    }
    for (unsigned half = 0; half < 8; half += 4) {
        for (unsigned i = half; i < half + 2; i++) {
            t = ((w[i] >> 16) ^ w[i + 2]) & 0x0000FFFF0000FFFFull;
            w[i] ^= t << 16;
            w[i + 2] ^= t;
        }
    }
    for (unsigned i = 0; i < 8; i += 2) {
        t = ((w[i] >> 8) ^ w[i + 1]) & 0x00FF00FF00FF00FFull;
        w[i] ^= t << 8;
        w[i + 1] ^= t;
    }
}

/* Word `word` (0..3) of 16 blocks into planes. Lane group g (lanes 8g..8g+7)
 * is byte k = g/2 of blocks 8*(g%2) .. 8*(g%2)+7. */
static inline void load_word_planes(uint64_t planes[8], const uint8_t *in, unsigned word) {
    for (unsigned g = 0; g < 8; g++) {
        const uint8_t *p = in + 16 * 8 * (g & 1) + 4 * word + 3 - (g >> 1);
        uint64_t w = 0;
        for (unsigned i = 0; i < 8; i++)
            w |= (uint64_t)p[16 * i] << (8 * i);
        planes[g] = transpose_bits8x8(w);
    }
    transpose_bytes8x8(planes);
}

static inline void store_word_planes(uint8_t *out, const uint64_t planes[8], unsigned word) {
    uint64_t w[8];
    memcpy(w, planes, sizeof w);
    transpose_bytes8x8(w);
    for (unsigned g = 0; g < 8; g++) {
        uint8_t *p = out + 16 * 8 * (g & 1) + 4 * word + 3 - (g >> 1);
        uint64_t v = transpose_bits8x8(w[g]);
        for (unsigned i = 0; i < 8; i++)
            p[16 * i] = (uint8_t)(v >> (8 * i));
    }
}

/* ------------------------------------------------------------- batches */

static inline void load_round_key(uint64_t rk[8], const hwc_ks *ks, unsigned round) {
    memcpy(rk, ks->bytes + round * SM4_RK_PLANE_BYTES, SM4_RK_PLANE_BYTES);
}

/* 16 blocks; decrypt selects the order of round keys (public). */
static void sm4_batch(const hwc_ks *ks, uint8_t out[SM4_BATCH_BYTES], const uint8_t in[SM4_BATCH_BYTES],
                      int decrypt) {
    uint64_t x[4][8], rk[8];
    for (unsigned j = 0; j < 4; j++)
        load_word_planes(x[j], in, j);
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {
        /* Four rounds bring the roles of the words back to the start. */
        load_round_key(rk, ks, decrypt ? SM4_ROUNDS - 1 - r : r);
        sm4_round(x[0], x[1], x[2], x[3], rk);
        load_round_key(rk, ks, decrypt ? SM4_ROUNDS - 2 - r : r + 1);
        sm4_round(x[1], x[2], x[3], x[0], rk);
        load_round_key(rk, ks, decrypt ? SM4_ROUNDS - 3 - r : r + 2);
        sm4_round(x[2], x[3], x[0], x[1], rk);
        load_round_key(rk, ks, decrypt ? SM4_ROUNDS - 4 - r : r + 3);
        sm4_round(x[3], x[0], x[1], x[2], rk);
    }
    /* Output is X35, X34, X33, X32: the words in reverse order. */
    for (unsigned j = 0; j < 4; j++)
        store_word_planes(out, x[3 - j], j);
}

static void sm4_blocks(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks, int decrypt) {
    while (nblocks >= SM4_BATCH) {
        sm4_batch(ks, out, in, decrypt);
        in += SM4_BATCH_BYTES;
        out += SM4_BATCH_BYTES;
        nblocks -= SM4_BATCH;
    }
    if (nblocks) {
        /* A short batch costs as much as a full one; pad with zero blocks. */
        uint8_t buf[SM4_BATCH_BYTES] = {0};
        memcpy(buf, in, nblocks * HWC_BLOCK);
        sm4_batch(ks, buf, buf, decrypt);
        memcpy(out, buf, nblocks * HWC_BLOCK);
        hwc_wipe(buf, sizeof buf);
    }
}

static void sm4_ct_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    sm4_blocks(ks, out, in, nblocks, 0);
}

static void sm4_ct_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    sm4_blocks(ks, out, in, nblocks, 1);
}

/* ----------------------------------------------------------- key schedule */

static const uint32_t sm4_fk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};

/* CK_i byte j is (4i + j) * 7 mod 256. */
static uint32_t sm4_ck(unsigned i) {
    uint32_t ck = 0;
    for (unsigned j = 0; j < 4; j++)
        ck = (ck << 8) | (uint8_t)((4 * i + j) * 7);
    return ck;
}

static inline uint32_t rotl32(uint32_t x, unsigned n) {
    return (x << n) | (x >> (32 - n));
}

/* The S-box on the 4 bytes of one word (byte k in lane k). */
static uint32_t sbox_word(uint32_t w) {
    uint64_t planes[8];
    for (unsigned b = 0; b < 8; b++) {
        planes[b] = 0;
        for (unsigned k = 0; k < 4; k++)
            planes[b] |= (uint64_t)((w >> (8 * k + b)) & 1) << k;
    }
    sbox_planes(planes);
    uint32_t r = 0;
    for (unsigned b = 0; b < 8; b++)
        for (unsigned k = 0; k < 4; k++)
            r |= (uint32_t)((planes[b] >> k) & 1) << (8 * k + b);
    hwc_wipe(planes, sizeof planes);
    return r;
}

/* A round key as planes in the tower basis, input constant included:
 * to_tower(x ^ rk) ^ const == to_tower(x) ^ (to_tower(rk) ^ const). */
static void round_key_planes(uint64_t out[8], uint32_t rk) {
    uint64_t planes[8];
    for (unsigned b = 0; b < 8; b++) {
        planes[b] = 0;
        for (unsigned k = 0; k < 4; k++)
            planes[b] |= (0 - (uint64_t)((rk >> (8 * k + b)) & 1)) & (0xFFFFull << (BYTE_LANES * k));
    }
    uint64_t c[8];
    to_tower(c, planes);
    add_const(c, SM4_TOWER_IN_CONST);
    memcpy(out, c, sizeof c);
    hwc_wipe(planes, sizeof planes);
    hwc_wipe(c, sizeof c);
}

static void sm4_ct_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)key_len; /* always 16, validated by the caller */
    (void)want_dec; /* decryption reads the same schedule backwards */
    uint32_t k[4];
    uint64_t planes[8];
    for (unsigned i = 0; i < 4; i++)
        k[i] = hwc_load_be32(key + 4 * i) ^ sm4_fk[i];
    for (unsigned i = 0; i < SM4_ROUNDS; i++) {
        uint32_t b = sbox_word(k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ sm4_ck(i));
        uint32_t rk = k[i & 3] ^ b ^ rotl32(b, 13) ^ rotl32(b, 23);
        k[i & 3] = rk;
        round_key_planes(planes, rk);
        memcpy(ks->bytes + i * SM4_RK_PLANE_BYTES, planes, SM4_RK_PLANE_BYTES);
    }
    hwc_wipe(k, sizeof k);
    hwc_wipe(planes, sizeof planes);
}

/* ---------------------------------------------------------------- table */

static const hwc_block_impl sm4_ct_impl = {
    .name = "ct",
    .family = HWC_FAMILY_SM4,
    .required_caps = 0,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "ct",
    .usable = NULL,
    .set_key = sm4_ct_set_key,
    .ecb_enc = sm4_ct_ecb_enc,
    .ecb_dec = sm4_ct_ecb_dec,
};

const hwc_block_impl *hwc_sm4_ct_get(void) {
    return &sm4_ct_impl;
}

/* Test hook (declared in backend.h, not part of the public API): the
 * computed S-box for all 256 inputs, to compare with the standard's table. */
void hwc_sm4_ct_sbox_for_test(uint8_t table[256]) {
    for (unsigned quarter = 0; quarter < 4; quarter++) {
        uint64_t planes[8] = {0};
        for (unsigned lane = 0; lane < 64; lane++)
            for (unsigned b = 0; b < 8; b++)
                planes[b] |= (uint64_t)(((64 * quarter + lane) >> b) & 1) << lane;
        sbox_planes(planes);
        for (unsigned lane = 0; lane < 64; lane++) {
            unsigned v = 0;
            for (unsigned b = 0; b < 8; b++)
                v |= (unsigned)((planes[b] >> lane) & 1) << b;
            table[64 * quarter + lane] = (uint8_t)v;
        }
    }
}
