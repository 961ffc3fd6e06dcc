/*
 * SM4 with its S-box through AESE (back end "sm4-armv8ce"), for cores with
 * the Crypto Extensions but without SM4E (Cortex-A53..A78, Neoverse N1).
 *
 * The S-box is sm4-aesni's (src/x86/sm4_aesni.c, where the derivation is):
 *     S(x) = T2 * SB(T1 * x + c1) + c2
 * with SB the AES S-box and T1, T2 bit matrices, applied by nibble lookups
 * (TBL on a 16-byte table, low and high nibble, XORed). AESE(u, k) computes
 * ShiftRows(SB(u ^ k)), so the round key, stored as T1(rk) + c1 in every
 * byte, is AESE's key operand and the input map is only T1's linear part.
 *
 * Layout. Four blocks per register set: X0..X3 hold word i of four blocks
 * (lane b = block b, big-endian words as integers: LD4 de-interleaves four
 * blocks into that form, REV32 makes the words integers, ST4 writes them
 * back). ShiftRows moves byte k of word c to word c - k; it is undone for
 * free in the four TBLs that SM4's linear layer needs anyway (B, B<<<8,
 * B<<<16, B<<<24), with L(B) = B ^ (B<<<24) ^ ((B ^ B<<<8 ^ B<<<16) <<< 2).
 * A round is then 24 instructions for four blocks; the parallel modes run
 * two sets (eight blocks) per pass.
 *
 * The serial modes (CBC/CFB encryption, OFB, CBC-MAC, CCM's MAC) have one
 * block in flight, and a round written for four blocks would spend its 24
 * instructions on one. Their block runs in the "Z domain" instead (Z = T1(X)
 * bytewise, so AESE's input is Z1 ^ Z2 ^ Z3 with the round key, stored as
 * T1(rk) + c1, as its key operand), a word's byte c in row 0 of AES column
 * c (bytes 0, 4, 8, 12; ShiftRows leaves row 0 alone, the other rows carry
 * garbage nobody reads). The rest of a round, the affine map
 * M(y) = T1(L(T2 y + c2)) on the four S-box outputs, is 32 nibble lookups:
 * output byte c takes both nibbles of y's byte c - d through table (d, lo)
 * and (d, hi), d = 0..3 (L rotates by whole bytes and by two bits, so the
 * 8x8 blocks of M depend on d only). One TBL gathers y's bytes so that row
 * r of column c holds byte c - d_r, USHL and SLI turn them into nibbles
 * with the sub-table number r in the high bits, and EXT by two columns
 * gives the second index vector (d + 2); two four-table TBLs look up the
 * 32 terms, one EOR pairs them, and AESMC sums the four rows of each column
 * into row 0: MixColumns' row 0 is 2 a0 + 3 a1 + a2 + a3, so row r's tables
 * hold their values divided by 2, 3, 1, 1 in GF(2^8). With the two XORs of
 * the input and the one into Z0 that is 12 instructions a round (the old
 * round, which kept each word in all four lanes and folded the lanes with
 * EXT and EOR, was 17; docs/PERFORMANCE.md has the count and why less is not
 * in reach). Blocks enter and leave the domain through nibble maps of T1 and
 * T1^-1 off the chain (the chaining XOR commutes with T1), plus one TBL
 * transposing the block (row r = word r) and three EXTs to spread the words
 * over four registers, and one four-register TBL gathering them back.
 * CCM runs the MAC that way and its CTR in the four-block layout, one after
 * the other.
 *
 * Constant time: AESE, AESMC, TBL with secret indices into a register table
 * (a permutation of register bytes, not a memory access), and PMULL have no
 * data-dependent timing; branches depend on lengths, OCB
 * indices and where a counter's low word wraps.
 */
#if defined(__aarch64__)

#include "arm/arm_internal.h"
#include "getters.h"

#define KT HWC_A64_TARGET_CE
#define KINLINE HWC_A64_INLINE KT
#define RELOAD_BARRIER() __asm__ volatile("" ::: "memory")

/* Round keys as T1(rk) + c1 in each byte, one 16-byte vector per round:
 * the word in every lane (native order) in encryption and decryption order
 * for the four-block layout, and for the one-block rounds (encryption only)
 * with the word's byte c in column c. */
typedef struct sm4x_schedule {
    alignas(16) uint8_t enc[32][16];
    alignas(16) uint8_t dec[32][16];
    alignas(16) uint8_t one[32][16];
} sm4x_schedule;
_Static_assert(sizeof(sm4x_schedule) <= HWC_KS_BYTES, "sm4-armv8ce schedule must fit in hwc_ks");

/* Nibble tables of x -> T1 x + c1 (pre), its linear part (t1), and
 * y -> T2 y + c2 (post); TBL indices taking AESE's output (ShiftRows
 * applied) to B <<< 8s in every word. From sm4_aesni.c. */
static const uint8_t pre_lo[16] = {0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07,
                                   0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98};
static const uint8_t t1_lo[16] = {0x00, 0x8c, 0x30, 0xbc, 0x85, 0x09, 0xb5, 0x39,
                                  0x9f, 0x13, 0xaf, 0x23, 0x1a, 0x96, 0x2a, 0xa6};
static const uint8_t t1_hi[16] = {0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37,
                                  0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f};
static const uint8_t post_lo[16] = {0x6c, 0xd4, 0xa6, 0x1e, 0x52, 0xea, 0x98, 0x20,
                                    0x0b, 0xb3, 0xc1, 0x79, 0x35, 0x8d, 0xff, 0x47};
static const uint8_t post_hi[16] = {0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d,
                                    0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed};
static const uint8_t unshift_rot[4][16] = {
    {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3},
    {7, 0, 13, 10, 11, 4, 1, 14, 15, 8, 5, 2, 3, 12, 9, 6},
    {10, 7, 0, 13, 14, 11, 4, 1, 2, 15, 8, 5, 6, 3, 12, 9},
    {13, 10, 7, 0, 1, 14, 11, 4, 5, 2, 15, 8, 9, 6, 3, 12},
};

/* One-block rounds (the Z domain): T1^-1; the lookup tables of the eight
 * (d, nibble) blocks of M, ordered as the rows r = 0..3 of the two index
 * vectors read them, (0, lo) (0, hi) (1, lo) (1, hi) and (2, lo) (2, hi)
 * (3, lo) (3, hi), each divided by row 0 of MixColumns' coefficient for row
 * r (2, 3, 1, 1) and the first with M's constant; the gather of y's bytes
 * (row r of column c takes byte c - d_r, in row 0 of column c - d_r), the
 * USHL amounts (hi nibble rows down by 4) and the sub-table numbers; the
 * transpose of a block (row r of column c = word r's byte c) and the gather
 * of X35..X32 back into a block from {X32, X33, X34, X35}. Derived by
 * tools/sm4_z_tables.py, which also runs the round as written here against
 * SM4. */
static const uint8_t t1inv_lo[16] = {0x00, 0x85, 0xd9, 0x5c, 0x2e, 0xab, 0xf7, 0x72,
                                     0x80, 0x05, 0x59, 0xdc, 0xae, 0x2b, 0x77, 0xf2};
static const uint8_t t1inv_hi[16] = {0x00, 0x55, 0x57, 0x02, 0x44, 0x11, 0x13, 0x46,
                                     0xaf, 0xfa, 0xf8, 0xad, 0xeb, 0xbe, 0xbc, 0xe9};
static const uint8_t m_tables[8][16] = {
    {0x3b, 0x78, 0xdf, 0x9c, 0x07, 0x44, 0xe3, 0xa0, 0x35, 0x76, 0xd1, 0x92, 0x09, 0x4a, 0xed, 0xae},
    {0x00, 0x59, 0xbd, 0xe4, 0x50, 0x09, 0xed, 0xb4, 0xb2, 0xeb, 0x0f, 0x56, 0xe2, 0xbb, 0x5f, 0x06},
    {0x00, 0x55, 0xde, 0x8b, 0xd8, 0x8d, 0x06, 0x53, 0x5e, 0x0b, 0x80, 0xd5, 0x86, 0xd3, 0x58, 0x0d},
    {0x00, 0x5f, 0x95, 0xca, 0x72, 0x2d, 0xe7, 0xb8, 0x71, 0x2e, 0xe4, 0xbb, 0x03, 0x5c, 0x96, 0xc9},
    {0x00, 0xe4, 0x8b, 0x6f, 0x50, 0xb4, 0xdb, 0x3f, 0x21, 0xc5, 0xaa, 0x4e, 0x71, 0x95, 0xfa, 0x1e},
    {0x00, 0x6c, 0xce, 0xa2, 0x7e, 0x12, 0xb0, 0xdc, 0x9d, 0xf1, 0x53, 0x3f, 0xe3, 0x8f, 0x2d, 0x41},
    {0x00, 0xd3, 0x0d, 0xde, 0xa0, 0x73, 0xad, 0x7e, 0x42, 0x91, 0x4f, 0x9c, 0xe2, 0x31, 0xef, 0x3c},
    {0x00, 0xb4, 0x49, 0xfd, 0x82, 0x36, 0xcb, 0x7f, 0xbc, 0x08, 0xf5, 0x41, 0x3e, 0x8a, 0x77, 0xc3},
};
static const uint8_t m_gather[16] = {0, 0, 12, 12, 4, 4, 0, 0, 8, 8, 4, 4, 12, 12, 8, 8};
static const int8_t m_shift[16] = {0, -4, 0, -4, 0, -4, 0, -4, 0, -4, 0, -4, 0, -4, 0, -4};
static const uint8_t m_sub[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
static const uint8_t z_transpose[16] = {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
static const uint8_t z_out[16] = {48, 52, 56, 60, 32, 36, 40, 44, 16, 20, 24, 28, 0, 4, 8, 12};

typedef struct sm4z_consts {
    uint8x16x4_t ga, gb;
    v128 gather, sub, t1lo, t1hi, inlo, inhi, nib, transpose, out;
    int8x16_t shift;
} sm4z_consts;

KINLINE void zconsts_load(sm4z_consts *c) {
    c->ga = vld1q_u8_x4(m_tables[0]);
    c->gb = vld1q_u8_x4(m_tables[4]);
    c->gather = vld1q_u8(m_gather);
    c->shift = vld1q_s8(m_shift);
    c->sub = vld1q_u8(m_sub);
    c->t1lo = vld1q_u8(t1_lo);
    c->t1hi = vld1q_u8(t1_hi);
    c->inlo = vld1q_u8(t1inv_lo);
    c->inhi = vld1q_u8(t1inv_hi);
    c->nib = vdupq_n_u8(0x0f);
    c->transpose = vld1q_u8(z_transpose);
    c->out = vld1q_u8(z_out);
}

typedef struct sm4x_consts {
    v128 nib, t1lo, t1hi, polo, pohi, rot[4];
} sm4x_consts;

KINLINE void consts_load(sm4x_consts *c) {
    c->nib = vdupq_n_u8(0x0f);
    c->t1lo = vld1q_u8(t1_lo);
    c->t1hi = vld1q_u8(t1_hi);
    c->polo = vld1q_u8(post_lo);
    c->pohi = vld1q_u8(post_hi);
    for (unsigned s = 0; s < 4; s++)
        c->rot[s] = vld1q_u8(unshift_rot[s]);
}

/* x -> table_lo[x & 15] ^ table_hi[x >> 4] on each byte. */
KINLINE v128 nibble_map(v128 x, v128 lo, v128 hi, v128 nib) {
    return veorq_u8(vqtbl1q_u8(lo, vandq_u8(x, nib)), vqtbl1q_u8(hi, vshrq_n_u8(x, 4)));
}

/* One round on a register set: returns X0 ^ L(S(X1 ^ X2 ^ X3 ^ rk)). */
KINLINE uint32x4_t sm4x_round(uint32x4_t x0, uint32x4_t x1, uint32x4_t x2, uint32x4_t x3, v128 k,
                              const sm4x_consts *c) {
    v128 t = vreinterpretq_u8_u32(veorq_u32(veorq_u32(x1, x2), x3));
    v128 y = vaeseq_u8(nibble_map(t, c->t1lo, c->t1hi, c->nib), k);
    v128 s = nibble_map(y, c->polo, c->pohi, c->nib);
    uint32x4_t b = vreinterpretq_u32_u8(vqtbl1q_u8(s, c->rot[0]));
    uint32x4_t r8 = vreinterpretq_u32_u8(vqtbl1q_u8(s, c->rot[1]));
    uint32x4_t r16 = vreinterpretq_u32_u8(vqtbl1q_u8(s, c->rot[2]));
    uint32x4_t r24 = vreinterpretq_u32_u8(vqtbl1q_u8(s, c->rot[3]));
    uint32x4_t m = veorq_u32(veorq_u32(b, r8), r16);
    uint32x4_t rot2 = vsriq_n_u32(vshlq_n_u32(m, 2), m, 30);
    return veorq_u32(veorq_u32(x0, b), veorq_u32(r24, rot2));
}

/* 32 rounds on G register sets (x[g][0..3] = X0..X3), keys from rk[32][16];
 * afterwards x[g][i] = X(32 + i). Four rounds per loop pass, so the
 * register roles come back in place. */
KINLINE void sm4x_rounds(uint32x4_t (*x)[4], const unsigned G, const uint8_t (*rk)[16], const sm4x_consts *c) {
    for (unsigned i = 0; i < 32; i += 4) {
        HWC_A64_UNROLL
        for (unsigned r = 0; r < 4; r++) {
            const v128 k = vld1q_u8(rk[i + r]);
            HWC_A64_UNROLL
            for (unsigned g = 0; g < G; g++)
                x[g][r] = sm4x_round(x[g][r], x[g][(r + 1) & 3], x[g][(r + 2) & 3], x[g][(r + 3) & 3], k, c);
        }
    }
}

static inline const uint8_t (*enc_keys(const hwc_ks *ks))[16] {
    return (const uint8_t (*)[16])(const void *)(ks->bytes + offsetof(sm4x_schedule, enc));
}
static inline const uint8_t (*dec_keys(const hwc_ks *ks))[16] {
    return (const uint8_t (*)[16])(const void *)(ks->bytes + offsetof(sm4x_schedule, dec));
}
static inline const uint8_t (*one_keys(const hwc_ks *ks))[16] {
    return (const uint8_t (*)[16])(const void *)(ks->bytes + offsetof(sm4x_schedule, one));
}

/* G sets of four blocks from p (natural order) into x, and back. */
KINLINE void sets_load(uint32x4_t (*x)[4], const unsigned G, const uint8_t *p) {
    HWC_A64_UNROLL
    for (unsigned g = 0; g < G; g++) {
        uint32x4x4_t w = vld4q_u32((const uint32_t *)(const void *)(p + 64 * g));
        HWC_A64_UNROLL
        for (unsigned i = 0; i < 4; i++)
            x[g][i] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(w.val[i])));
    }
}
/* The output block is (X35, X34, X33, X32). */
KINLINE void sets_store(uint8_t *p, const unsigned G, uint32x4_t (*x)[4]) {
    HWC_A64_UNROLL
    for (unsigned g = 0; g < G; g++) {
        uint32x4x4_t w;
        HWC_A64_UNROLL
        for (unsigned i = 0; i < 4; i++)
            w.val[i] = vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x[g][3 - i])));
        vst4q_u32((uint32_t *)(void *)(p + 64 * g), w);
    }
}

/* In place on G sets of blocks in memory (natural order). */
KINLINE void crypt_sets(uint8_t *out, const uint8_t *in, const unsigned G, const uint8_t (*rk)[16],
                        const sm4x_consts *c) {
    uint32x4_t x[2][4];
    sets_load(x, G, in);
    sm4x_rounds(x, G, rk, c);
    sets_store(out, G, x);
}

/* 0..7 blocks through a stack buffer, one or two sets. */
KINLINE void crypt_few(uint8_t *out, const uint8_t *in, size_t n, const uint8_t (*rk)[16], const sm4x_consts *c) {
    alignas(16) uint8_t buf[128];
    if (!n)
        return;
    memcpy(buf, in, 16 * n);
    if (n > 4)
        crypt_sets(buf, buf, 2, rk, c);
    else
        crypt_sets(buf, buf, 1, rk, c);
    memcpy(out, buf, 16 * n);
    hwc_wipe(buf, sizeof buf);
}

/* Z0 ^ T1(L(T2 y + c2)) with y = AESE(Z1 ^ Z2 ^ Z3, rk), in row 0 (the
 * other rows: whatever the arithmetic leaves there). Twelve instructions. */
KINLINE v128 round_z(v128 z0, v128 z1, v128 z2, v128 z3, v128 k, const sm4z_consts *c) {
    v128 y = vaeseq_u8(veorq_u8(veorq_u8(z1, z2), z3), k);
    v128 ia = vsliq_n_u8(vshlq_u8(vqtbl1q_u8(y, c->gather), c->shift), c->sub, 4);
    v128 ib = vextq_u8(ia, ia, 8);
    v128 w = veorq_u8(vqtbl4q_u8(c->ga, ia), vqtbl4q_u8(c->gb, ib));
    return veorq_u8(z0, vaesmcq_u8(w));
}

/* One block in the Z domain, as bytes (T1 of each byte, natural order);
 * returns the output block the same way. */
KINLINE v128 core_z(v128 zb, const uint8_t (*rk)[16], const sm4z_consts *c) {
    v128 t = vqtbl1q_u8(zb, c->transpose);
    v128 x[4] = {t, vextq_u8(t, t, 1), vextq_u8(t, t, 2), vextq_u8(t, t, 3)};
    HWC_A64_UNROLL
    for (unsigned i = 0; i < 32; i += 4) {
        const uint8x16x4_t k = vld1q_u8_x4(rk[i]);
        x[0] = round_z(x[0], x[1], x[2], x[3], k.val[0], c);
        x[1] = round_z(x[1], x[2], x[3], x[0], k.val[1], c);
        x[2] = round_z(x[2], x[3], x[0], x[1], k.val[2], c);
        x[3] = round_z(x[3], x[0], x[1], x[2], k.val[3], c);
    }
    return vqtbl4q_u8((uint8x16x4_t){{x[0], x[1], x[2], x[3]}}, c->out); /* (X35, X34, X33, X32) */
}

/* A block's bytes into the Z domain and back. */
KINLINE v128 to_z(v128 block, const sm4z_consts *c) { return nibble_map(block, c->t1lo, c->t1hi, c->nib); }
KINLINE v128 from_z(v128 z, const sm4z_consts *c) { return nibble_map(z, c->inlo, c->inhi, c->nib); }

/* ------------------------------------------------------------ key setup */

static KT uint32_t sbox_word(uint32_t w) {
    const v128 nib = vdupq_n_u8(0x0f);
    v128 x = nibble_map(vreinterpretq_u8_u32(vdupq_n_u32(w)), vld1q_u8(pre_lo), vld1q_u8(t1_hi), nib);
    x = vaeseq_u8(x, vdupq_n_u8(0)); /* equal columns: ShiftRows moves nothing */
    x = nibble_map(x, vld1q_u8(post_lo), vld1q_u8(post_hi), nib);
    return vgetq_lane_u32(vreinterpretq_u32_u8(x), 0);
}

static inline uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

/* The bytes of a native word in every lane, rearranged so that column c
 * holds the word's big-endian byte c (the one-block rounds' key). */
static const uint8_t key_columns[16] = {3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0};

static KT void sm4x_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    static const uint32_t fk[4] = {0xa3b1bac6u, 0x56aa3350u, 0x677d9197u, 0xb27022dcu};
    const v128 nib = vdupq_n_u8(0x0f), lo = vld1q_u8(pre_lo), hi = vld1q_u8(t1_hi);
    uint32_t k[4], rk[32];
    (void)key_len;
    memset(ks->bytes, 0, sizeof ks->bytes);
    for (unsigned i = 0; i < 4; i++)
        k[i] = hwc_load_be32(key + 4 * i) ^ fk[i];
    for (unsigned i = 0; i < 32; i++) {
        uint32_t ck = 0;
        for (unsigned j = 0; j < 4; j++)
            ck = (ck << 8) | (uint8_t)((4 * i + j) * 7);
        uint32_t t = sbox_word(k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ ck);
        rk[i] = k[i & 3] ^= t ^ rotl32(t, 13) ^ rotl32(t, 23);
    }
    uint8_t *enc = ks->bytes + offsetof(sm4x_schedule, enc), *dec = ks->bytes + offsetof(sm4x_schedule, dec);
    uint8_t *one = ks->bytes + offsetof(sm4x_schedule, one);
    const v128 by_column = vld1q_u8(key_columns);
    for (unsigned i = 0; i < 32; i++) {
        /* T1(rk) + c1 in each byte (TBL, not a table indexed by the key) */
        v128 w = vreinterpretq_u8_u32(vdupq_n_u32(rk[i]));
        v128 z = nibble_map(w, lo, hi, nib);
        vst1q_u8(enc + 16 * i, z);
        if (want_dec)
            vst1q_u8(dec + 16 * (31 - i), z);
        vst1q_u8(one + 16 * i, nibble_map(vqtbl1q_u8(w, by_column), lo, hi, nib));
    }
    hwc_wipe(k, sizeof k);
    hwc_wipe(rk, sizeof rk);
}

/* ------------------------------------------------------------------ ECB */

#define ECB_BODY(NAME, KEYS)                                                            \
    static KT void NAME(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {  \
        sm4x_consts c;                                                                  \
        consts_load(&c);                                                                \
        for (; n >= 8; n -= 8, in += 128, out += 128)                                   \
            crypt_sets(out, in, 2, KEYS(ks), &c);                                       \
        if (n >= 4) {                                                                   \
            crypt_sets(out, in, 1, KEYS(ks), &c);                                       \
            n -= 4, in += 64, out += 64;                                                \
        }                                                                               \
        crypt_few(out, in, n, KEYS(ks), &c);                                            \
    }
ECB_BODY(sm4x_ecb_enc, enc_keys)
ECB_BODY(sm4x_ecb_dec, dec_keys)

/* ---------------------------------------- serial: CBC/CFB enc, OFB, MAC */

static KT void sm4x_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    sm4z_consts c;
    zconsts_load(&c);
    v128 z = to_z(vld1q_u8(iv), &c);
    for (; n; n--, in += 16, out += 16) {
        z = core_z(veorq_u8(z, to_z(vld1q_u8(in), &c)), one_keys(ks), &c);
        vst1q_u8(out, from_z(z, &c));
    }
    vst1q_u8(iv, from_z(z, &c));
}
static KT void sm4x_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t n) {
    sm4z_consts c;
    zconsts_load(&c);
    v128 z = to_z(vld1q_u8(mac), &c);
    for (; n; n--, in += 16)
        z = core_z(veorq_u8(z, to_z(vld1q_u8(in), &c)), one_keys(ks), &c);
    vst1q_u8(mac, from_z(z, &c));
}
/* CFB: the next input is this output, p ^ E: in the Z domain E XORed with
 * T1 of p. */
static KT void sm4x_cfb_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    sm4z_consts c;
    zconsts_load(&c);
    v128 z = to_z(vld1q_u8(iv), &c);
    for (; n; n--, in += 16, out += 16) {
        v128 p = vld1q_u8(in);
        v128 e = core_z(z, one_keys(ks), &c);
        vst1q_u8(out, veorq_u8(from_z(e, &c), p));
        z = veorq_u8(e, to_z(p, &c));
    }
    vst1q_u8(iv, from_z(z, &c));
}
static KT void sm4x_ofb(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    sm4z_consts c;
    zconsts_load(&c);
    v128 z = to_z(vld1q_u8(iv), &c);
    for (; n; n--, in += 16, out += 16) {
        z = core_z(z, one_keys(ks), &c);
        vst1q_u8(out, veorq_u8(from_z(z, &c), vld1q_u8(in)));
    }
    vst1q_u8(iv, from_z(z, &c));
}

/* ---------------------------------------------- CBC and CFB decryption */

/* Eight blocks: the cipher outputs go to a stack buffer, the chaining XOR
 * reads the input again (before the store, so in place works). */
static KT void sm4x_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    sm4x_consts c;
    consts_load(&c);
    alignas(16) uint8_t buf[128];
    v128 prev = vld1q_u8(iv);
    while (n) {
        const size_t m = n < 8 ? n : 8;
        if (m == 8)
            crypt_sets(buf, in, 2, dec_keys(ks), &c);
        else
            crypt_few(buf, in, m, dec_keys(ks), &c);
        for (size_t j = 0; j < m; j++) {
            v128 cj = vld1q_u8(in + 16 * j);
            vst1q_u8(buf + 16 * j, veorq_u8(vld1q_u8(buf + 16 * j), prev));
            prev = cj;
        }
        memcpy(out, buf, 16 * m);
        n -= m, in += 16 * m, out += 16 * m;
    }
    vst1q_u8(iv, prev);
    hwc_wipe(buf, sizeof buf);
}

static KT void sm4x_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    sm4x_consts c;
    consts_load(&c);
    alignas(16) uint8_t buf[128];
    v128 prev = vld1q_u8(iv);
    while (n) {
        const size_t m = n < 8 ? n : 8;
        vst1q_u8(buf, prev);
        memcpy(buf + 16, in, 16 * (m - 1));
        prev = vld1q_u8(in + 16 * (m - 1));
        if (m == 8)
            crypt_sets(buf, buf, 2, enc_keys(ks), &c);
        else
            crypt_few(buf, buf, m, enc_keys(ks), &c);
        for (size_t j = 0; j < m; j++)
            vst1q_u8(out + 16 * j, veorq_u8(vld1q_u8(buf + 16 * j), vld1q_u8(in + 16 * j)));
        n -= m, in += 16 * m, out += 16 * m;
    }
    vst1q_u8(iv, prev);
    hwc_wipe(buf, sizeof buf);
}

/* ------------------------------------------------------------------ CTR */

/* ctr32: counters built straight into the word layout (X0..X2 the nonce
 * words in every lane, X3 the counters), the keystream XORed with the data
 * in that layout (LD4/ST4). */
static KT void sm4x_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    sm4x_consts c;
    consts_load(&c);
    const uint32_t w0 = hwc_load_be32(ctr), w1 = hwc_load_be32(ctr + 4), w2 = hwc_load_be32(ctr + 8);
    uint32_t cnt = hwc_load_be32(ctr + 12);
    static const uint32_t lane_off[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    const uint32x4_t off0 = vld1q_u32(lane_off), off1 = vld1q_u32(lane_off + 4);
    for (; n >= 8; n -= 8, in += 128, out += 128, cnt += 8) {
        const uint32x4_t base = vdupq_n_u32(cnt);
        uint32x4_t x[2][4] = {{vdupq_n_u32(w0), vdupq_n_u32(w1), vdupq_n_u32(w2), vaddq_u32(base, off0)},
                              {vdupq_n_u32(w0), vdupq_n_u32(w1), vdupq_n_u32(w2), vaddq_u32(base, off1)}};
        sm4x_rounds(x, 2, enc_keys(ks), &c);
        HWC_A64_UNROLL
        for (unsigned g = 0; g < 2; g++) {
            uint32x4x4_t d = vld4q_u32((const uint32_t *)(const void *)(in + 64 * g));
            HWC_A64_UNROLL
            for (unsigned i = 0; i < 4; i++)
                d.val[i] = veorq_u32(d.val[i], vreinterpretq_u32_u8(vrev32q_u8(vreinterpretq_u8_u32(x[g][3 - i]))));
            vst4q_u32((uint32_t *)(void *)(out + 64 * g), d);
        }
    }
    if (n) {
        alignas(16) uint8_t ks_buf[128];
        for (size_t j = 0; j < n; j++) {
            hwc_store_be32(ks_buf + 16 * j, w0);
            hwc_store_be32(ks_buf + 16 * j + 4, w1);
            hwc_store_be32(ks_buf + 16 * j + 8, w2);
            hwc_store_be32(ks_buf + 16 * j + 12, cnt + (uint32_t)j);
        }
        crypt_few(ks_buf, ks_buf, n, enc_keys(ks), &c);
        for (size_t j = 0; j < n; j++)
            vst1q_u8(out + 16 * j, veorq_u8(vld1q_u8(ks_buf + 16 * j), vld1q_u8(in + 16 * j)));
        cnt += (uint32_t)n;
        hwc_wipe(ks_buf, sizeof ks_buf);
    }
    hwc_store_be32(ctr + 12, cnt);
}

static inline uint64_t ctr_room(const uint8_t ctr[16]) {
    return ((uint64_t)1 << 32) - hwc_load_be32(ctr + 12);
}
static inline void ctr_carry96(uint8_t ctr[16]) {
    uint32_t mid = hwc_load_be32(ctr + 8) + 1u;
    hwc_store_be64(ctr, hwc_load_be64(ctr) + (uint64_t)(mid == 0));
    hwc_store_be32(ctr + 8, mid);
}

static KT void sm4x_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    while (n) {
        uint64_t room = ctr_room(ctr);
        size_t m = (uint64_t)n < room ? n : (size_t)room;
        sm4x_ctr32(ks, ctr, out, in, m);
        if ((uint64_t)m == room)
            ctr_carry96(ctr);
        n -= m;
        in += 16 * m;
        out += 16 * m;
    }
}

/* ------------------------------------------------------------------ XTS */

KINLINE v128 xts_mul_alpha(v128 t) {
    uint64x2_t v = vreinterpretq_u64_u8(t);
    uint64x2_t top = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(v), 63));
    top = vandq_u64(top, vcombine_u64(vcreate_u64(1), vcreate_u64(0x87)));
    return vreinterpretq_u8_u64(veorq_u64(vaddq_u64(v, v), vextq_u64(top, top, 1)));
}

#define XTS_BODY(NAME, KEYS)                                                                   \
    static KT void NAME(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n) { \
        sm4x_consts c;                                                                          \
        consts_load(&c);                                                                        \
        alignas(16) uint8_t buf[128];                                                           \
        v128 t = vld1q_u8(tweak), tw[8];                                                        \
        while (n) {                                                                             \
            const size_t m = n < 8 ? n : 8;                                                     \
            for (size_t j = 0; j < m; j++) {                                                    \
                tw[j] = t;                                                                      \
                vst1q_u8(buf + 16 * j, veorq_u8(vld1q_u8(in + 16 * j), t));                     \
                t = xts_mul_alpha(t);                                                           \
            }                                                                                   \
            if (m == 8)                                                                         \
                crypt_sets(buf, buf, 2, KEYS(ks), &c);                                          \
            else                                                                                \
                crypt_few(buf, buf, m, KEYS(ks), &c);                                           \
            for (size_t j = 0; j < m; j++)                                                      \
                vst1q_u8(out + 16 * j, veorq_u8(vld1q_u8(buf + 16 * j), tw[j]));                \
            n -= m, in += 16 * m, out += 16 * m;                                                \
        }                                                                                       \
        vst1q_u8(tweak, t);                                                                     \
        hwc_wipe(buf, sizeof buf);                                                              \
    }
XTS_BODY(sm4x_xts_enc, enc_keys)
XTS_BODY(sm4x_xts_dec, dec_keys)

/* ------------------------------------------------------------------ OCB */

#define OCB_BODY(NAME, KEYS, ENC)                                                              \
    static KT void NAME(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t offset[16], \
                        uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n) {      \
        sm4x_consts c;                                                                          \
        consts_load(&c);                                                                        \
        alignas(16) uint8_t buf[128];                                                           \
        v128 O = vld1q_u8(offset), cs = vld1q_u8(checksum), o[8];                               \
        while (n) {                                                                             \
            const size_t m = n < 8 ? n : 8;                                                     \
            for (size_t j = 0; j < m; j++, i++) {                                               \
                O = veorq_u8(O, vld1q_u8(L[__builtin_ctzll(i)]));                               \
                o[j] = O;                                                                       \
                v128 p = vld1q_u8(in + 16 * j);                                                 \
                if (ENC)                                                                        \
                    cs = veorq_u8(cs, p);                                                       \
                vst1q_u8(buf + 16 * j, veorq_u8(p, O));                                         \
            }                                                                                   \
            if (m == 8)                                                                         \
                crypt_sets(buf, buf, 2, KEYS(ks), &c);                                          \
            else                                                                                \
                crypt_few(buf, buf, m, KEYS(ks), &c);                                           \
            for (size_t j = 0; j < m; j++) {                                                    \
                v128 r = veorq_u8(vld1q_u8(buf + 16 * j), o[j]);                                \
                if (!ENC)                                                                       \
                    cs = veorq_u8(cs, r);                                                       \
                vst1q_u8(out + 16 * j, r);                                                      \
            }                                                                                   \
            n -= m, in += 16 * m, out += 16 * m;                                                \
        }                                                                                       \
        vst1q_u8(offset, O);                                                                    \
        vst1q_u8(checksum, cs);                                                                 \
        hwc_wipe(buf, sizeof buf);                                                              \
    }
OCB_BODY(sm4x_ocb_enc, enc_keys, 1)
OCB_BODY(sm4x_ocb_dec, dec_keys, 0)

/* ------------------------------------------------------------ fused GCM */

/* CTR32 of eight blocks (the kernel above), then GHASH of the ciphertext
 * (pmull's key), read back from the output (encryption) or read before it
 * is overwritten (decryption). */
#define GCM_BODY(NAME, ENC)                                                                    \
    static KT size_t NAME(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t state[16], \
                          uint8_t *out, const uint8_t *in, size_t n) {                          \
        const size_t whole = n & ~(size_t)7;                                                    \
        v128 s = vrev64q_u8(vld1q_u8(state));                                                   \
        for (n = whole; n; n -= 8, in += 128, out += 128) {                                     \
            v128 x[8];                                                                          \
            if (!ENC)                                                                           \
                A64_LOAD8(x, in);                                                               \
            sm4x_ctr32(ks, ctr, out, in, 8);                                                    \
            if (ENC)                                                                            \
                A64_LOAD8(x, out);                                                              \
            HWC_A64_UNROLL                                                                      \
            for (unsigned j = 0; j < 8; j++)                                                    \
                x[j] = vrev64q_u8(x[j]);                                                        \
            x[0] = veorq_u8(x[0], s);                                                           \
            A64_GHASH_N(s, x, 8, hk, A64_GH_MORE);                                              \
        }                                                                                       \
        vst1q_u8(state, vrev64q_u8(s));                                                         \
        return whole;                                                                           \
    }
GCM_BODY(sm4x_gcm_enc, 1)
GCM_BODY(sm4x_gcm_dec, 0)

/* ------------------------------------------------------------------ CCM */

static KT void sm4x_ccm_enc(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                            size_t n) {
    sm4x_cbc_mac(ks, mac, in, n); /* before CTR: in place overwrites in */
    sm4x_ctr128(ks, ctr, out, in, n);
}
static KT void sm4x_ccm_dec(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                            size_t n) {
    sm4x_ctr128(ks, ctr, out, in, n);
    sm4x_cbc_mac(ks, mac, out, n);
}

static const hwc_block_impl sm4_armv8ce = {
    .name = "sm4-armv8ce",
    .family = HWC_FAMILY_SM4,
    .required_caps = HWC_CAP_ARM_AES | HWC_CAP_ARM_PMULL,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "pmull",
    .set_key = sm4x_set_key,
    .ecb_enc = sm4x_ecb_enc,
    .ecb_dec = sm4x_ecb_dec,
    .cbc_enc = sm4x_cbc_enc,
    .cbc_dec = sm4x_cbc_dec,
    .cfb_enc = sm4x_cfb_enc,
    .cfb_dec = sm4x_cfb_dec,
    .ofb = sm4x_ofb,
    .ctr128 = sm4x_ctr128,
    .ctr32 = sm4x_ctr32,
    .xts_enc = sm4x_xts_enc,
    .xts_dec = sm4x_xts_dec,
    .cbc_mac = sm4x_cbc_mac,
    .ocb_enc = sm4x_ocb_enc,
    .ocb_dec = sm4x_ocb_dec,
    .gcm_enc = sm4x_gcm_enc,
    .gcm_dec = sm4x_gcm_dec,
    .ccm_enc = sm4x_ccm_enc,
    .ccm_dec = sm4x_ccm_dec,
};

const hwc_block_impl *hwc_sm4_armv8ce_get(void) { return &sm4_armv8ce; }

#endif
