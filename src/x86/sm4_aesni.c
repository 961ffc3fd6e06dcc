/*
 * SM4 with its S-box computed by AESENCLAST (back end "sm4-aesni").
 *
 * The S-box. SM4's S-box is S(x) = A * inv(A * x + 0xD3) + 0xD3 with inv()
 * the inverse in GF(2^8) mod x^8+x^7+x^6+x^5+x^4+x^2+1 (see src/ct/sm4_ct.c),
 * AES's is SB(y) = M * inv'(y) + 0x63 with inv'() the inverse mod
 * x^8+x^4+x^3+x+1. The two fields are isomorphic: beta = 0x23 is a root of
 * SM4's polynomial in AES's field, so phi(x^i) = beta^i is a field
 * isomorphism (GF(2)-linear) and inv(z) = phi^-1(inv'(phi(z))). Hence
 *     S(x) = T2 * SB(T1 * x + c1) + c2,
 *     T1 = phi * A,                 c1 = phi(0xD3)             = 0x3E,
 *     T2 = A * phi^-1 * M^-1,       c2 = T2 * 0x63 + 0xD3      = 0x6C,
 * with the 8x8 bit matrices, as the images of bits 0..7 (columns),
 *     T1 = 8C 30 85 9F DC 2E C5 08,   T2 = B8 CA 3E 67 E0 50 9D C0.
 * AESENCLAST with a zero round key computes ShiftRows(SB(y)) on each 16-byte
 * lane; the affine maps run as two 16-entry PSHUFB lookups each (low and
 * high nibble; the constant sits in the low-nibble table). PSHUFB and
 * AESENCLAST have no data-dependent timing, so the S-box is constant time.
 * The tables follow from the matrices and were checked against the
 * standard's S-box for all 256 inputs; the known-answer tests and the
 * differential tests against the portable back end exercise them.
 *
 * Layout. Blocks are processed eight per register set: four 256-bit
 * registers X0..X3 hold word i of eight blocks (the 4x4 word transpose of
 * each 128-bit lane, words byte-swapped to integers), so one SM4 round is
 * about thirty instructions for eight blocks. ShiftRows moves byte k of word
 * c to word c - k; it is undone for free in the four byte shuffles that the
 * linear layer L needs anyway (B, B<<<8, B<<<16, B<<<24, each one PSHUFB
 * from the AESENCLAST output).
 *
 * A round is a chain of some twenty dependent instructions (two lookups,
 * AESENCLAST, shuffles, L), so one set leaves the machine mostly idle:
 * bulk data runs six sets (48 blocks) at once, which measured 2x the
 * throughput of two sets; inputs (and last batches) of 9 to 16 blocks run
 * two sets, 5 to 8 one set, which cost little more than the latency of the
 * 32 rounds, and 1 to 4 blocks the 1..4-block kernel's core in registers
 * (no stack buffer): a 16-byte SM4-CTR call ran a whole two-set batch.
 *
 * 256-bit AESENCLAST needs VAES; without it each register is split into its
 * two 128-bit halves around two AESENCLASTs. set_key records which core the
 * key uses (from hwc_caps()), so kernels do not probe per call.
 *
 * Modes: each kernel fills a batch of cipher inputs (counters, whitened
 * blocks, ...) in a stack buffer, runs a core on it and finishes the batch.
 * The serial modes (CBC/CFB encryption, OFB, CBC-MAC, CCM), ECB of up to
 * four blocks and every kernel's last batch of up to four blocks use a
 * separate latency-bound kernel ("1..4 blocks, low latency" below).
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define HWC_TARGET_SM4 __attribute__((target("avx2,aes,ssse3")))
#define HWC_TARGET_SM4_VAES __attribute__((target("avx2,aes,ssse3,vaes")))
#define SM4_INLINE HWC_X86_INLINE HWC_TARGET_SM4

#define SM4_ROUNDS 32
#define SM4_SET 8          /* blocks per register set */
#define SM4_WIDE_SETS 6    /* sets in flight for bulk data */
#define SM4_NARROW_SETS 2  /* sets in flight for short inputs and tails */
#define SM4_BATCH (SM4_SET * SM4_WIDE_SETS)
#define SM4_BATCH_BYTES (SM4_BATCH * HWC_BLOCK)
#define SM4_SMALL (SM4_SET * SM4_NARROW_SETS)

/* Key schedule in hwc_ks: round keys in encryption order, the same reversed
 * for decryption, and which core to use. */
typedef struct sm4_aesni_schedule {
    uint32_t enc[SM4_ROUNDS];
    uint32_t dec[SM4_ROUNDS];
    /* The same in the Z domain of the 1..4-block kernels: T1(rk) ^ c1 in
     * every byte (see "1..4 blocks, low latency"). */
    uint32_t enc_z[SM4_ROUNDS];
    uint32_t dec_z[SM4_ROUNDS];
    uint32_t bulk;   /* the batch cores the key uses (enum sm4_bulk) */
    uint32_t serial; /* the 1..4-block core it uses (enum sm4_serial) */
} sm4_aesni_schedule;

/* Set at key setup: the back end ("sm4-aesni", "sm4-gfni", "sm4-gfni512")
 * and, for sm4-aesni, what hwc_caps() allows (VAES, AVX-512). */
enum sm4_bulk { BULK_AESNI, BULK_VAES, BULK_GFNI, BULK_GFNI512 };
enum sm4_serial { SERIAL_AVX2, SERIAL_AVX512, SERIAL_GFNI, SERIAL_GFNI512 };

_Static_assert(sizeof(sm4_aesni_schedule) <= HWC_KS_BYTES, "SM4 schedule must fit in hwc_ks");
/* The batch cores find the Z-domain keys from the plain ones by this distance. */
_Static_assert(offsetof(sm4_aesni_schedule, enc_z) - offsetof(sm4_aesni_schedule, enc) == 8 * SM4_ROUNDS &&
                   offsetof(sm4_aesni_schedule, dec_z) - offsetof(sm4_aesni_schedule, dec) == 8 * SM4_ROUNDS,
               "sm4_aesni_schedule: enc, dec, enc_z, dec_z in this order");

static inline const sm4_aesni_schedule *schedule(const hwc_ks *ks) {
    return (const sm4_aesni_schedule *)(const void *)ks->bytes;
}

/* -------------------------------------------------------------- S-box */

/* Nibble tables of x -> T1 x + c1 and y -> T2 y + c2 (see the top). */
static const uint8_t pre_lo[16] = {0x3e, 0xb2, 0x0e, 0x82, 0xbb, 0x37, 0x8b, 0x07,
                                   0xa1, 0x2d, 0x91, 0x1d, 0x24, 0xa8, 0x14, 0x98};
static const uint8_t pre_hi[16] = {0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37,
                                   0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f};
static const uint8_t post_lo[16] = {0x6c, 0xd4, 0xa6, 0x1e, 0x52, 0xea, 0x98, 0x20,
                                    0x0b, 0xb3, 0xc1, 0x79, 0x35, 0x8d, 0xff, 0x47};
static const uint8_t post_hi[16] = {0x00, 0xe0, 0x50, 0xb0, 0x9d, 0x7d, 0xcd, 0x2d,
                                    0xc0, 0x20, 0x90, 0x70, 0x5d, 0xbd, 0x0d, 0xed};

/* PSHUFB controls taking the AESENCLAST output (ShiftRows applied) to
 * B <<< 8s in every 32-bit word: byte k of word c comes from byte
 * j = (k - s) mod 4 of word (c - j) mod 4. Aligned: round_z_avx2 reads
 * them (and the zmap tables) as memory operands. */
static alignas(16) const uint8_t unshift_rot0[16] = {0, 13, 10, 7, 4, 1, 14, 11, 8, 5, 2, 15, 12, 9, 6, 3};
static alignas(16) const uint8_t unshift_rot8[16] = {7, 0, 13, 10, 11, 4, 1, 14, 15, 8, 5, 2, 3, 12, 9, 6};
static alignas(16) const uint8_t unshift_rot16[16] = {10, 7, 0, 13, 14, 11, 4, 1, 2, 15, 8, 5, 6, 3, 12, 9};
static alignas(16) const uint8_t unshift_rot24[16] = {13, 10, 7, 0, 1, 14, 11, 4, 5, 2, 15, 8, 9, 6, 3, 12};

/* Big-endian words <-> integers. */
static const uint8_t bswap32[16] = {3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12};

typedef struct sm4_consts {
    __m256i nibble, pre_lo, pre_hi, post_lo, post_hi;
    __m256i rot0, rot8, rot16, rot24;
} sm4_consts;

SM4_INLINE __m256i bcast16(const uint8_t t[16]) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}

SM4_INLINE void consts_load(sm4_consts *c) {
    c->nibble = _mm256_set1_epi8(0x0f);
    c->pre_lo = bcast16(pre_lo);
    c->pre_hi = bcast16(pre_hi);
    c->post_lo = bcast16(post_lo);
    c->post_hi = bcast16(post_hi);
    c->rot0 = bcast16(unshift_rot0);
    c->rot8 = bcast16(unshift_rot8);
    c->rot16 = bcast16(unshift_rot16);
    c->rot24 = bcast16(unshift_rot24);
}

/* x -> T x + c on every byte, by nibble lookups. */
SM4_INLINE __m256i affine(__m256i x, __m256i lo_table, __m256i hi_table, __m256i nibble) {
    const __m256i lo = _mm256_and_si256(x, nibble);
    const __m256i hi = _mm256_and_si256(_mm256_srli_epi32(x, 4), nibble);
    return _mm256_xor_si256(_mm256_shuffle_epi8(lo_table, lo), _mm256_shuffle_epi8(hi_table, hi));
}

/* AES SubBytes + ShiftRows on both lanes. */
static inline HWC_TARGET_SM4_VAES __attribute__((always_inline)) __m256i sub_shift_vaes(__m256i x) {
    return _mm256_aesenclast_epi128(x, _mm256_setzero_si256());
}

SM4_INLINE __m256i sub_shift_aesni(__m256i x) {
    const __m128i lo = _mm_aesenclast_si128(_mm256_castsi256_si128(x), _mm_setzero_si128());
    const __m128i hi = _mm_aesenclast_si128(_mm256_extracti128_si256(x, 1), _mm_setzero_si128());
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* Everything after AESENCLAST in a round: the S-box's output map,
 * ShiftRows undone inside L, and the XOR into X0, with
 *     L(B) = B ^ B<<<2 ^ B<<<10 ^ B<<<18 ^ B<<<24
 *          = B ^ B<<<24 ^ (B ^ B<<<8 ^ B<<<16) <<< 2. */
SM4_INLINE __m256i round_output(__m256i x0, __m256i shifted, const sm4_consts *c) {
    const __m256i s = affine(shifted, c->post_lo, c->post_hi, c->nibble);
    const __m256i b = _mm256_shuffle_epi8(s, c->rot0);
    const __m256i u = _mm256_xor_si256(_mm256_xor_si256(b, _mm256_shuffle_epi8(s, c->rot8)),
                                       _mm256_shuffle_epi8(s, c->rot16));
    const __m256i l = _mm256_xor_si256(_mm256_xor_si256(b, _mm256_shuffle_epi8(s, c->rot24)),
                                       _mm256_xor_si256(_mm256_slli_epi32(u, 2), _mm256_srli_epi32(u, 30)));
    return _mm256_xor_si256(x0, l);
}

/* -------------------------------------------------------------- core */

/* One set of eight blocks in: word i of the eight blocks in x[i]. Loaded
 * register r holds blocks 2r and 2r+1 in its two lanes; after the lane-wise
 * transpose, lane 0 of x[i] holds word i of blocks 0, 2, 4, 6 and lane 1
 * that of blocks 1, 3, 5, 7. */
SM4_INLINE void load_set(__m256i x[4], const uint8_t *in) {
    const __m256i bswap = bcast16(bswap32);
    __m256i a = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)in), bswap);
    __m256i b = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(in + 32)), bswap);
    __m256i c = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(in + 64)), bswap);
    __m256i d = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(in + 96)), bswap);
    const __m256i ab_lo = _mm256_unpacklo_epi32(a, b), ab_hi = _mm256_unpackhi_epi32(a, b);
    const __m256i cd_lo = _mm256_unpacklo_epi32(c, d), cd_hi = _mm256_unpackhi_epi32(c, d);
    x[0] = _mm256_unpacklo_epi64(ab_lo, cd_lo);
    x[1] = _mm256_unpackhi_epi64(ab_lo, cd_lo);
    x[2] = _mm256_unpacklo_epi64(ab_hi, cd_hi);
    x[3] = _mm256_unpackhi_epi64(ab_hi, cd_hi);
}

/* The output is (X35, X34, X33, X32): the same transpose, words reversed. */
SM4_INLINE void store_set(uint8_t *out, const __m256i x[4]) {
    const __m256i bswap = bcast16(bswap32);
    const __m256i ab_lo = _mm256_unpacklo_epi32(x[3], x[2]), ab_hi = _mm256_unpackhi_epi32(x[3], x[2]);
    const __m256i cd_lo = _mm256_unpacklo_epi32(x[1], x[0]), cd_hi = _mm256_unpackhi_epi32(x[1], x[0]);
    _mm256_storeu_si256((__m256i *)(void *)out, _mm256_shuffle_epi8(_mm256_unpacklo_epi64(ab_lo, cd_lo), bswap));
    _mm256_storeu_si256((__m256i *)(void *)(out + 32),
                        _mm256_shuffle_epi8(_mm256_unpackhi_epi64(ab_lo, cd_lo), bswap));
    _mm256_storeu_si256((__m256i *)(void *)(out + 64),
                        _mm256_shuffle_epi8(_mm256_unpacklo_epi64(ab_hi, cd_hi), bswap));
    _mm256_storeu_si256((__m256i *)(void *)(out + 96),
                        _mm256_shuffle_epi8(_mm256_unpackhi_epi64(ab_hi, cd_hi), bswap));
}

/* One round on every set: X_a ^= T(X_b ^ X_c ^ X_d ^ rk). X_d is the word
 * the previous round produced, so it is XORed last: the rest of the input
 * is ready early and the round's dependency chain is one XOR shorter.
 * SUB_SHIFT is the AES step; the copies of the core differ only in it. */
#define SM4_ROUND(SUB_SHIFT, nsets, a, b, c, d, rk)                                        \
    do {                                                                                   \
        const __m256i key = _mm256_set1_epi32((int)(rk));                                  \
        for (unsigned s = 0; s < (nsets); s++) {                                           \
            const __m256i early = _mm256_xor_si256(_mm256_xor_si256(x[s][b], x[s][c]), key); \
            const __m256i sbox_in =                                                        \
                affine(_mm256_xor_si256(early, x[s][d]), k.pre_lo, k.pre_hi, k.nibble);    \
            x[s][a] = round_output(x[s][a], SUB_SHIFT(sbox_in), &k);                       \
        }                                                                                  \
    } while (0)

/* nsets sets of eight blocks from in to out, the rounds in groups of four
 * so the roles of the registers rotate without moves. */
#define SM4_CORE_BODY(SUB_SHIFT, nsets)                                               \
    sm4_consts k;                                                                     \
    __m256i x[nsets][4];                                                              \
    consts_load(&k);                                                                  \
    for (unsigned s = 0; s < (nsets); s++)                                            \
        load_set(x[s], in + s * SM4_SET * HWC_BLOCK);                                 \
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {                                    \
        SM4_ROUND(SUB_SHIFT, nsets, 0, 1, 2, 3, rk[r]);                               \
        SM4_ROUND(SUB_SHIFT, nsets, 1, 2, 3, 0, rk[r + 1]);                           \
        SM4_ROUND(SUB_SHIFT, nsets, 2, 3, 0, 1, rk[r + 2]);                           \
        SM4_ROUND(SUB_SHIFT, nsets, 3, 0, 1, 2, rk[r + 3]);                           \
    }                                                                                 \
    for (unsigned s = 0; s < (nsets); s++)                                            \
        store_set(out + s * SM4_SET * HWC_BLOCK, x[s])

/* out = SM4 with round keys rk (in the order used) on SM4_BATCH (wide) or
 * SM4_SMALL (narrow) blocks; out == in works (all loads come first). */
static HWC_TARGET_SM4_VAES void sm4_wide_vaes(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_CORE_BODY(sub_shift_vaes, SM4_WIDE_SETS);
}
static HWC_TARGET_SM4_VAES void sm4_narrow_vaes(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_CORE_BODY(sub_shift_vaes, SM4_NARROW_SETS);
}
static HWC_TARGET_SM4 void sm4_wide_aesni(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_CORE_BODY(sub_shift_aesni, SM4_WIDE_SETS);
}
static HWC_TARGET_SM4 void sm4_narrow_aesni(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_CORE_BODY(sub_shift_aesni, SM4_NARROW_SETS);
}
/* One set (5..8 blocks): the same latency as two sets, half the work. */
static HWC_TARGET_SM4_VAES void sm4_one_vaes(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_CORE_BODY(sub_shift_vaes, 1);
}
static HWC_TARGET_SM4 void sm4_one_aesni(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_CORE_BODY(sub_shift_aesni, 1);
}

/* -------------------------------------------------- GFNI batch cores */

/*
 * With GFNI the S-box is one instruction: GF2P8AFFINEINVQB computes
 * A * inv'(y) + b on every byte, inv' the inverse in AES's field, so with
 * y = T1 x + c1 (see the top) S(x) = P * inv'(y) + 0xD3, P = T2 * M. Better,
 * L folds in too. Byte k of L(S) (words as integers, byte 0 the lowest) is
 *     F0(S_k) ^ F1(S_k-1) ^ F2(S_k-2) ^ F3(S_k-3),
 *     F0(b) = b ^ b<<2, F1 = F2 = rotl8(b, 2), F3(b) = b ^ b>>6
 * (the bytes of S, S<<<8, S<<<16, S<<<24), and S<<<8s is the S-box of
 * y<<<8s, so L(S) is the XOR of four GF2P8AFFINEINVQB of y, y<<<8,
 * y<<<16, y<<<24 (three PSHUFB, or VPROLD with AVX-512) with the matrices
 * F_s * P. And as in the
 * 1..4-block kernels below the state is kept in the Z domain, Z = T1(X)
 * bytewise (one GF2P8AFFINEQB in, one out): T1 commutes with byte
 * rotations and XOR, so the S-box input is Z_b ^ Z_c ^ Z_d ^ (T1 rk + c1)
 * with the round keys of enc_z/dec_z, and the matrices become T1 * F_s * P
 * with constants T1(F_s(0xD3)), keeping the output in the Z domain:
 *     Z_a ^= AFFINV(y, M0) ^ AFFINV(y<<<8, M1) ^ AFFINV(y<<<16, M2)
 *          ^ AFFINV(y<<<24, M3).
 * A round is an XOR, a PSHUFB, a GF2P8AFFINEINVQB and two XORs deep (the
 * AES-NI round above: some twenty). Matrices in the instructions' encoding
 * (byte 7 - i of the qword is output bit i's row), derived from T1 and the
 * S-box and checked over all inputs and words against the reference round;
 * the known-answer and differential tests run every mode on these cores.
 * GF2P8AFFINE(INV)QB have no data-dependent timing: constant time.
 */
#define GFNI_T1 0x4c287db91a22505dll    /* X -> Z */
#define GFNI_T1_INV 0xb3a4f5863284728bll /* Z -> X */
#define GFNI_M0 0x040db891e9a481b7ll
#define GFNI_M12 0x2c020425162040adll    /* F1 = F2 */
#define GFNI_M3 0x280fbcb4ff84c11all
#define GFNI_C0 0x72
#define GFNI_C12 0x63
#define GFNI_C3 0x11
/* PSHUFB controls for y <<< 8, 16, 24 in every 32-bit word. */
static const uint8_t rotw8[16] = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};
static const uint8_t rotw16[16] = {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13};
static const uint8_t rotw24[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};

/* Emits nothing: fixes the association of an XOR chain, which the
 * compiler would otherwise reorder to put the newest term deeper. */
#define PIN_VEC(v) __asm__("" : "+v"(v))

/* One GFNI round on nsets sets of x[set][word] (type V, width prefix W:
 * W##_xor, W##_xor3, W##_affinv, W##_rotw and the constants in k). */
#define GFNI_ROUND(W, nsets, a, b, c, d, rkz)                                                          \
    do {                                                                                               \
        const W##_v key_ = W##_set1(rkz);                                                              \
        for (unsigned s_ = 0; s_ < (nsets); s_++) {                                                    \
            W##_v early_ = W##_xor3(x[s_][b], x[s_][c], key_);                                          \
            PIN_VEC(early_); /* X_d, the newest word, joins last */                                    \
            const W##_v y_ = W##_xor(early_, x[s_][d]);                                                \
            const W##_v t0_ = W##_affinv(y_, k.m0, GFNI_C0);                                           \
            const W##_v t1_ = W##_affinv(W##_rotw(y_, 8, k.rot8), k.m12, GFNI_C12);                      \
            const W##_v t2_ = W##_affinv(W##_rotw(y_, 16, k.rot16), k.m12, GFNI_C12);                     \
            const W##_v t3_ = W##_affinv(W##_rotw(y_, 24, k.rot24), k.m3, GFNI_C3);                       \
            W##_v a0_ = W##_xor(x[s_][a], t0_); /* t0 (no PSHUFB) is ready first */                  \
            PIN_VEC(a0_);                                                                              \
            x[s_][a] = W##_xor(W##_xor(a0_, t1_), W##_xor(t2_, t3_));                                  \
        }                                                                                              \
    } while (0)

#define GFNI_ROUNDS(W, nsets, rkz)                         \
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {         \
        GFNI_ROUND(W, nsets, 0, 1, 2, 3, (rkz)[r]);        \
        GFNI_ROUND(W, nsets, 1, 2, 3, 0, (rkz)[r + 1]);    \
        GFNI_ROUND(W, nsets, 2, 3, 0, 1, (rkz)[r + 2]);    \
        GFNI_ROUND(W, nsets, 3, 0, 1, 2, (rkz)[r + 3]);    \
    }

#define GFNI_CONSTS(W)                                                                    \
    struct {                                                                              \
        W##_v m0, m12, m3, rot8, rot16, rot24;                                            \
    } k = {W##_set1_64(GFNI_M0), W##_set1_64(GFNI_M12), W##_set1_64(GFNI_M3),             \
           W##_bcast16(rotw8),   W##_bcast16(rotw16),   W##_bcast16(rotw24)}

#define HWC_TARGET_SM4_GFNI __attribute__((target("avx2,aes,ssse3,gfni")))
#define HWC_TARGET_SM4_GFNI512 __attribute__((target("avx2,aes,ssse3,gfni,avx512f,avx512vl,avx512bw")))
#define GFNI_INLINE HWC_X86_INLINE HWC_TARGET_SM4_GFNI
#define GFNI512_INLINE HWC_X86_INLINE HWC_TARGET_SM4_GFNI512

/* 256-bit: sets of eight blocks, load_set/store_set's layout. */
typedef __m256i g256_v;
GFNI_INLINE g256_v g256_set1(uint32_t w) { return _mm256_set1_epi32((int)w); }
GFNI_INLINE g256_v g256_set1_64(long long q) { return _mm256_set1_epi64x(q); }
GFNI_INLINE g256_v g256_bcast16(const uint8_t t[16]) { return bcast16(t); }
GFNI_INLINE g256_v g256_xor(g256_v a, g256_v b) { return _mm256_xor_si256(a, b); }
GFNI_INLINE g256_v g256_xor3(g256_v a, g256_v b, g256_v c) { return g256_xor(g256_xor(a, b), c); }
/* y <<< bits in every 32-bit word: PSHUFB by the control idx without
 * AVX-512; with it VPROLD (which mostly issues beside GF2P8AFFINEINVQB,
 * where PSHUFB competes with it: bench/x86_cycles). */
#define g256_rotw(a, bits, idx) _mm256_shuffle_epi8((a), (idx))
#define g256_affinv(x, m, c) _mm256_gf2p8affineinv_epi64_epi8((x), (m), (c))

#define SM4_GFNI256_BODY(nsets)                                                            \
    GFNI_CONSTS(g256);                                                                     \
    const g256_v t1 = _mm256_set1_epi64x(GFNI_T1), t1_inv = _mm256_set1_epi64x(GFNI_T1_INV); \
    g256_v x[nsets][4];                                                                    \
    for (unsigned s = 0; s < (nsets); s++) {                                               \
        load_set(x[s], in + s * SM4_SET * HWC_BLOCK);                                      \
        for (unsigned j = 0; j < 4; j++)                                                   \
            x[s][j] = _mm256_gf2p8affine_epi64_epi8(x[s][j], t1, 0);                       \
    }                                                                                      \
    GFNI_ROUNDS(g256, nsets, rkz)                                                          \
    for (unsigned s = 0; s < (nsets); s++) {                                               \
        for (unsigned j = 0; j < 4; j++)                                                   \
            x[s][j] = _mm256_gf2p8affine_epi64_epi8(x[s][j], t1_inv, 0);                   \
        store_set(out + s * SM4_SET * HWC_BLOCK, x[s]);                                    \
    }

/* rk points into enc or dec; the Z-domain keys of the same direction are
 * 2 * SM4_ROUNDS words after it (schedule layout). The wide core runs six
 * sets at once like the AES-NI one: with two or three, each round's
 * dependency chain left the units idle (measured 2.2x / 1.6x slower),
 * while the spills of six cost less. */
static HWC_TARGET_SM4_GFNI void sm4_wide_gfni256(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    const uint32_t *rkz = rk + 2 * SM4_ROUNDS;
    SM4_GFNI256_BODY(SM4_WIDE_SETS);
}
static HWC_TARGET_SM4_GFNI void sm4_narrow_gfni256(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    const uint32_t *rkz = rk + 2 * SM4_ROUNDS;
    SM4_GFNI256_BODY(SM4_NARROW_SETS);
}
static HWC_TARGET_SM4_GFNI void sm4_one_gfni256(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    const uint32_t *rkz = rk + 2 * SM4_ROUNDS;
    SM4_GFNI256_BODY(1);
}

/* 512-bit: sets of sixteen blocks, load_set/store_set's layout widened
 * (lane l of x[i] holds word i of blocks l, 4 + l, 8 + l, 12 + l). */
typedef __m512i g512_v;
GFNI512_INLINE g512_v g512_set1(uint32_t w) { return _mm512_set1_epi32((int)w); }
GFNI512_INLINE g512_v g512_set1_64(long long q) { return _mm512_set1_epi64(q); }
GFNI512_INLINE g512_v g512_bcast16(const uint8_t t[16]) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t));
}
GFNI512_INLINE g512_v g512_xor(g512_v a, g512_v b) { return _mm512_xor_si512(a, b); }
GFNI512_INLINE g512_v g512_xor3(g512_v a, g512_v b, g512_v c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
#define g512_rotw(a, bits, idx) _mm512_rol_epi32((a), (bits))
#define g512_affinv(x, m, c) _mm512_gf2p8affineinv_epi64_epi8((x), (m), (c))

GFNI512_INLINE void load_set512(g512_v x[4], const uint8_t *in, g512_v t1) {
    const g512_v bswap = g512_bcast16(bswap32);
    g512_v r[4];
    for (unsigned j = 0; j < 4; j++)
        r[j] = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(in + 64 * j)), bswap);
    const g512_v ab_lo = _mm512_unpacklo_epi32(r[0], r[1]), ab_hi = _mm512_unpackhi_epi32(r[0], r[1]);
    const g512_v cd_lo = _mm512_unpacklo_epi32(r[2], r[3]), cd_hi = _mm512_unpackhi_epi32(r[2], r[3]);
    x[0] = _mm512_gf2p8affine_epi64_epi8(_mm512_unpacklo_epi64(ab_lo, cd_lo), t1, 0);
    x[1] = _mm512_gf2p8affine_epi64_epi8(_mm512_unpackhi_epi64(ab_lo, cd_lo), t1, 0);
    x[2] = _mm512_gf2p8affine_epi64_epi8(_mm512_unpacklo_epi64(ab_hi, cd_hi), t1, 0);
    x[3] = _mm512_gf2p8affine_epi64_epi8(_mm512_unpackhi_epi64(ab_hi, cd_hi), t1, 0);
}

/* The output is (X35, X34, X33, X32), back from the Z domain. */
GFNI512_INLINE void store_set512(uint8_t *out, const g512_v z[4], g512_v t1_inv) {
    const g512_v bswap = g512_bcast16(bswap32);
    g512_v x[4];
    for (unsigned j = 0; j < 4; j++)
        x[j] = _mm512_gf2p8affine_epi64_epi8(z[3 - j], t1_inv, 0);
    const g512_v ab_lo = _mm512_unpacklo_epi32(x[0], x[1]), ab_hi = _mm512_unpackhi_epi32(x[0], x[1]);
    const g512_v cd_lo = _mm512_unpacklo_epi32(x[2], x[3]), cd_hi = _mm512_unpackhi_epi32(x[2], x[3]);
    _mm512_storeu_si512((void *)out, _mm512_shuffle_epi8(_mm512_unpacklo_epi64(ab_lo, cd_lo), bswap));
    _mm512_storeu_si512((void *)(out + 64), _mm512_shuffle_epi8(_mm512_unpackhi_epi64(ab_lo, cd_lo), bswap));
    _mm512_storeu_si512((void *)(out + 128), _mm512_shuffle_epi8(_mm512_unpacklo_epi64(ab_hi, cd_hi), bswap));
    _mm512_storeu_si512((void *)(out + 192), _mm512_shuffle_epi8(_mm512_unpackhi_epi64(ab_hi, cd_hi), bswap));
}

#define SM4_GFNI512_BODY(nsets)                                                   \
    GFNI_CONSTS(g512);                                                            \
    const g512_v t1 = _mm512_set1_epi64(GFNI_T1), t1_inv = _mm512_set1_epi64(GFNI_T1_INV); \
    const uint32_t *rkz = rk + 2 * SM4_ROUNDS;                                    \
    g512_v x[nsets][4];                                                           \
    for (unsigned s = 0; s < (nsets); s++)                                        \
        load_set512(x[s], in + s * 16 * HWC_BLOCK, t1);                           \
    GFNI_ROUNDS(g512, nsets, rkz)                                                 \
    for (unsigned s = 0; s < (nsets); s++)                                        \
        store_set512(out + s * 16 * HWC_BLOCK, x[s], t1_inv)

static HWC_TARGET_SM4_GFNI512 void sm4_wide_gfni512(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_GFNI512_BODY(SM4_BATCH / 16);
}
static HWC_TARGET_SM4_GFNI512 void sm4_narrow_gfni512(const uint32_t *rk, uint8_t *out, const uint8_t *in) {
    SM4_GFNI512_BODY(SM4_SMALL / 16);
}

typedef void (*sm4_batch_fn)(const uint32_t *rk, uint8_t *out, const uint8_t *in);
static const struct {
    sm4_batch_fn wide, narrow, one;
} bulk_cores[] = {
    [BULK_AESNI] = {sm4_wide_aesni, sm4_narrow_aesni, sm4_one_aesni},
    [BULK_VAES] = {sm4_wide_vaes, sm4_narrow_vaes, sm4_one_vaes},
    [BULK_GFNI] = {sm4_wide_gfni256, sm4_narrow_gfni256, sm4_one_gfni256},
    /* one 512-bit set (sixteen blocks) measured faster than the 256-bit
     * set for eight */
    [BULK_GFNI512] = {sm4_wide_gfni512, sm4_narrow_gfni512, sm4_narrow_gfni512},
};

/* At most this many blocks take the 1..4-block kernel (below) instead of a
 * batch core: one to four blocks cost about one 32-round chain there, with
 * no stack buffer, against a set of eight blocks (two for the narrow
 * core) and the batch's buffer work here. */
#define SM4_SHORT 4

/* The 1..4-block kernel's core on b[0..3] (blocks in byte order, in place),
 * rkz the Z-domain round keys (see "1..4 blocks, low latency"). */
static void sm4_blocks4(const hwc_ks *ks, const uint32_t *rkz, __m128i b[4]);

/* SM4 on a batch of n <= SM4_BATCH blocks at in, which has room for
 * SM4_BATCH blocks: up to SM4_SHORT take the 1..4-block kernel, up to a
 * set the one-set core, more than SM4_SMALL the wide core. rk points into
 * enc or dec; the Z-domain keys of the same direction are 2 * SM4_ROUNDS
 * words after it (schedule layout). */
static HWC_TARGET_SM4 void sm4_run(const hwc_ks *ks, const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t n) {
    const unsigned bulk = schedule(ks)->bulk;
    if (n <= SM4_SHORT) {
        __m128i b[4];
        for (size_t j = 0; j < 4; j++)
            b[j] = j < n ? _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j)) : _mm_setzero_si128();
        sm4_blocks4(ks, rk + 2 * SM4_ROUNDS, b);
        for (size_t j = 0; j < n; j++)
            _mm_storeu_si128((__m128i *)(void *)(out + 16 * j), b[j]);
    } else {
        (n <= SM4_SET ? bulk_cores[bulk].one : n <= SM4_SMALL ? bulk_cores[bulk].narrow : bulk_cores[bulk].wide)(
            rk, out, in);
    }
}

/* The blocks a kernel leaves to its short path: a last batch of up to
 * SM4_SHORT blocks (the block count is public). */
static size_t short_tail(size_t nblocks) {
    const size_t r = nblocks % SM4_BATCH;
    return r <= SM4_SHORT ? r : 0;
}

/* ------------------------------------------------------ key schedule */

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

/* The S-box on the four bytes of one word. With the word in all four
 * columns, ShiftRows only moves equal bytes, so no unshuffle is needed. */
static HWC_TARGET_SM4 uint32_t sbox_word(uint32_t w) {
    const __m128i nibble = _mm_set1_epi8(0x0f);
    const __m128i load_pre_lo = _mm_loadu_si128((const __m128i *)(const void *)pre_lo);
    const __m128i load_pre_hi = _mm_loadu_si128((const __m128i *)(const void *)pre_hi);
    const __m128i load_post_lo = _mm_loadu_si128((const __m128i *)(const void *)post_lo);
    const __m128i load_post_hi = _mm_loadu_si128((const __m128i *)(const void *)post_hi);
    __m128i x = _mm_set1_epi32((int)w);
    x = _mm_xor_si128(_mm_shuffle_epi8(load_pre_lo, _mm_and_si128(x, nibble)),
                      _mm_shuffle_epi8(load_pre_hi, _mm_and_si128(_mm_srli_epi32(x, 4), nibble)));
    x = _mm_aesenclast_si128(x, _mm_setzero_si128());
    x = _mm_xor_si128(_mm_shuffle_epi8(load_post_lo, _mm_and_si128(x, nibble)),
                      _mm_shuffle_epi8(load_post_hi, _mm_and_si128(_mm_srli_epi32(x, 4), nibble)));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

/* T1(b) ^ c1 on each byte of a round key: the pre-S-box map without its
 * input XOR (pre_lo[0] is c1, pre_hi[0] is 0). */
static HWC_TARGET_SM4 uint32_t round_key_z(uint32_t rk) {
    /* PSHUFB, not a table indexed by the round key (a secret address). */
    const __m128i nibble = _mm_set1_epi8(0x0f);
    const __m128i x = _mm_cvtsi32_si128((int)rk);
    const __m128i z =
        _mm_xor_si128(_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)pre_lo), _mm_and_si128(x, nibble)),
                      _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)pre_hi),
                                       _mm_and_si128(_mm_srli_epi32(x, 4), nibble)));
    return (uint32_t)_mm_cvtsi128_si32(z);
}

static void sm4_expand_key(hwc_ks *ks, const uint8_t *key, enum sm4_bulk bulk, enum sm4_serial serial) {
    sm4_aesni_schedule s;
    uint32_t k[4];
    for (unsigned i = 0; i < 4; i++)
        k[i] = hwc_load_be32(key + 4 * i) ^ sm4_fk[i];
    for (unsigned i = 0; i < SM4_ROUNDS; i++) {
        const uint32_t b = sbox_word(k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ sm4_ck(i));
        const uint32_t rk = k[i & 3] ^ b ^ rotl32(b, 13) ^ rotl32(b, 23);
        k[i & 3] = rk;
        s.enc[i] = rk;
        s.dec[SM4_ROUNDS - 1 - i] = rk;
        s.enc_z[i] = round_key_z(rk);
        s.dec_z[SM4_ROUNDS - 1 - i] = s.enc_z[i];
    }
    s.bulk = bulk;
    s.serial = serial;
    memcpy(ks->bytes, &s, sizeof s);
    hwc_wipe(&s, sizeof s);
    hwc_wipe(k, sizeof k);
}

/* key_len is always 16 (validated by the caller); the decryption order is
 * written whatever want_dec says: it is a copy. */
static void sm4_aesni_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)key_len, (void)want_dec;
    const uint64_t caps = hwc_caps();
    sm4_expand_key(ks, key, (caps & HWC_CAP_VAES) ? BULK_VAES : BULK_AESNI,
                   (caps & HWC_CAP_AVX512) ? SERIAL_AVX512 : SERIAL_AVX2);
}

static void sm4_gfni_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)key_len, (void)want_dec;
    sm4_expand_key(ks, key, BULK_GFNI, SERIAL_GFNI);
}

static void sm4_gfni512_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)key_len, (void)want_dec;
    sm4_expand_key(ks, key, BULK_GFNI512, SERIAL_GFNI512);
}

/* ------------------------------------------------------------- modes */

/* Every kernel below works in batches of up to SM4_BATCH blocks through
 * aligned stack buffers; the last batch may be short (sm4_run picks the
 * core for its size). Buffers that held keystream or plaintext are wiped. */

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

static void sm4_ecb(const hwc_ks *ks, const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t nblocks) {
    for (; nblocks >= SM4_BATCH; nblocks -= SM4_BATCH, in += SM4_BATCH_BYTES, out += SM4_BATCH_BYTES)
        sm4_run(ks, rk, out, in, SM4_BATCH);
    if (nblocks != 0) {
        alignas(32) uint8_t buf[SM4_BATCH_BYTES] = {0};
        memcpy(buf, in, nblocks * HWC_BLOCK);
        sm4_run(ks, rk, buf, buf, nblocks);
        memcpy(out, buf, nblocks * HWC_BLOCK);
        hwc_wipe(buf, sizeof buf);
    }
}

/* out = in ^ buf over n blocks (the finishing XOR of most modes); buf is
 * 32-byte aligned. */
static HWC_TARGET_SM4 void xor_out(uint8_t *out, const uint8_t *in, const uint8_t *buf, size_t nblocks) {
    size_t i = 0;
    for (; i + 2 <= nblocks; i += 2) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(in + 16 * i));
        const __m256i b = _mm256_load_si256((const __m256i *)(const void *)(buf + 16 * i));
        _mm256_storeu_si256((__m256i *)(void *)(out + 16 * i), _mm256_xor_si256(a, b));
    }
    if (i < nblocks) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * i));
        const __m128i b = _mm_load_si128((const __m128i *)(const void *)(buf + 16 * i));
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * i), _mm_xor_si128(a, b));
    }
}

SM4_INLINE __m256i byteswap_lanes(void) {
    return _mm256_broadcastsi128_si256(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
}

/* out = in ^ keystream over n <= 4 blocks, the keystream in registers. */
SM4_INLINE void xor_short(uint8_t *out, const uint8_t *in, const __m128i ks[4], size_t n) {
    for (size_t j = 0; j < n; j++)
        _mm_storeu_si128((__m128i *)(void *)(out + 16 * j),
                         _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j)), ks[j]));
}

/* CTR32: the counter byte-reversed is an integer whose low 32-bit lane
 * PADDD increments mod 2^32; register j of a batch gets +2j, its lanes +0/+1.
 * A last batch of up to SM4_SHORT blocks runs in registers (no buffer). */
static HWC_TARGET_SM4 void sm4_aesni_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    const uint32_t *rk = schedule(ks)->enc;
    const __m256i bswap = byteswap_lanes();
    const __m128i first = _mm_loadu_si128((const __m128i *)(const void *)ctr);
    __m256i base = _mm256_add_epi32(_mm256_shuffle_epi8(_mm256_broadcastsi128_si256(first), bswap),
                                    _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    const size_t tail = short_tail(nblocks);
    if (nblocks > tail) {
        alignas(32) uint8_t buf[SM4_BATCH_BYTES] = {0}; /* the last batch may be short */
        for (nblocks -= tail; nblocks != 0;) {
            const size_t n = min_size(nblocks, SM4_BATCH);
            for (unsigned j = 0; j < SM4_BATCH / 2; j++) {
                const __m256i c =
                    _mm256_add_epi32(base, _mm256_set_epi32(0, 0, 0, (int)(2 * j), 0, 0, 0, (int)(2 * j)));
                _mm256_store_si256((__m256i *)(void *)(buf + 32 * j), _mm256_shuffle_epi8(c, bswap));
            }
            sm4_run(ks, rk, buf, buf, n);
            xor_out(out, in, buf, n);
            base = _mm256_add_epi32(base, _mm256_set_epi32(0, 0, 0, (int)n, 0, 0, 0, (int)n));
            in += n * HWC_BLOCK;
            out += n * HWC_BLOCK;
            nblocks -= n;
        }
        hwc_wipe(buf, sizeof buf);
    }
    if (tail != 0) {
        const __m128i b0 = _mm256_castsi256_si128(base), bswap128 = _mm256_castsi256_si128(bswap);
        __m128i b[4];
        for (unsigned j = 0; j < 4; j++)
            b[j] = _mm_shuffle_epi8(_mm_add_epi32(b0, _mm_set_epi32(0, 0, 0, (int)j)), bswap128);
        sm4_blocks4(ks, schedule(ks)->enc_z, b);
        xor_short(out, in, b, tail);
        base = _mm256_add_epi32(base, _mm256_set_epi32(0, 0, 0, (int)tail, 0, 0, 0, (int)tail));
    }
    _mm_storeu_si128((__m128i *)(void *)ctr, _mm256_castsi256_si128(_mm256_shuffle_epi8(base, bswap)));
}

/* The CTR128 counter block (a 128-bit big-endian integer) and its
 * increment; the counter is public (nonce and block index). */
SM4_INLINE __m128i counter128_next(uint64_t *hi, uint64_t *lo) {
    const __m128i block = _mm_shuffle_epi8(_mm_set_epi64x((long long)*hi, (long long)*lo),
                                           _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    *lo = hwc_value_barrier_u64(*lo + 1); /* not the loop variable: no branch on the counter */
    *hi += (*lo == 0);
    return block;
}

/* CTR128: as CTR32 with PADDQ on the low 64 bits, for batches where they
 * cannot carry; the rare batch that carries builds its counters one by one.
 * The counter is public, so the branch is fine. */
static HWC_TARGET_SM4 void sm4_aesni_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                            size_t nblocks) {
    const uint32_t *rk = schedule(ks)->enc;
    const __m256i bswap = byteswap_lanes();
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    const size_t tail = short_tail(nblocks);
    if (nblocks > tail) {
        alignas(32) uint8_t buf[SM4_BATCH_BYTES] = {0}; /* the last batch may be short */
        for (nblocks -= tail; nblocks != 0;) {
            const size_t n = min_size(nblocks, SM4_BATCH);
            /* One way for every counter value: a fast path for "no carry
             * into hi in this batch" would branch on the counter (the IV).
             * The counters are built two per 256-bit register, the carry
             * into hi from an unsigned compare, and stored whole: the cores
             * load the batch with 256-bit loads, which 8-byte stores would
             * not forward to (a stall per load: SM4-CTR ran about 20%
             * behind SM4-ECB). */
            const __m256i base = _mm256_set_epi64x((long long)hi, (long long)lo, (long long)hi, (long long)lo);
            const __m256i flip = _mm256_set1_epi64x((long long)0x8000000000000000ull);
            const __m256i base_flipped = _mm256_xor_si256(base, flip);
            for (unsigned j = 0; j < SM4_BATCH / 2; j++) {
                /* lo + 2j, lo + 2j + 1 in the low halves, 0 added to hi. */
                const __m256i sum = _mm256_add_epi64(base, _mm256_set_epi64x(0, 2 * j + 1, 0, 2 * j));
                /* All ones in a low half whose addition wrapped (sum < lo,
                 * unsigned), moved up to its high half: hi - (-1). */
                const __m256i wrapped = _mm256_cmpgt_epi64(base_flipped, _mm256_xor_si256(sum, flip));
                const __m256i counter = _mm256_sub_epi64(sum, _mm256_slli_si256(wrapped, 8));
                _mm256_store_si256((__m256i *)(void *)(buf + 32 * j), _mm256_shuffle_epi8(counter, bswap));
            }
            lo = hwc_value_barrier_u64(lo + n);
            hi += (lo < n); /* the carry out of this batch: a flag, no branch */
            sm4_run(ks, rk, buf, buf, n);
            xor_out(out, in, buf, n);
            in += n * HWC_BLOCK;
            out += n * HWC_BLOCK;
            nblocks -= n;
        }
        hwc_wipe(buf, sizeof buf);
    }
    if (tail != 0) {
        __m128i b[4];
        for (size_t j = 0; j < 4; j++)
            b[j] = j < tail ? counter128_next(&hi, &lo) : _mm_setzero_si128();
        sm4_blocks4(ks, schedule(ks)->enc_z, b);
        xor_short(out, in, b, tail);
    }
    hwc_store_be64(ctr, hi);
    hwc_store_be64(ctr + 8, lo);
}

/* P_j = D(C_j) ^ C_{j-1}. The ciphertext batch is copied first: with
 * out == in the plaintext overwrites what the next block chains on. A last
 * batch of up to SM4_SHORT blocks runs in registers. */
static HWC_TARGET_SM4 void sm4_aesni_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                             size_t nblocks) {
    const uint32_t *rk = schedule(ks)->dec;
    const size_t tail = short_tail(nblocks);
    if (nblocks > tail) {
        alignas(32) uint8_t cipher[HWC_BLOCK + SM4_BATCH_BYTES] = {0}; /* IV, then the batch's ciphertext */
        alignas(32) uint8_t plain[SM4_BATCH_BYTES];
        memcpy(cipher, iv, HWC_BLOCK);
        for (nblocks -= tail; nblocks != 0;) {
            const size_t n = min_size(nblocks, SM4_BATCH);
            memcpy(cipher + HWC_BLOCK, in, n * HWC_BLOCK);
            sm4_run(ks, rk, plain, cipher + HWC_BLOCK, n);
            xor_out(out, cipher, plain, n);
            memcpy(cipher, cipher + n * HWC_BLOCK, HWC_BLOCK);
            in += n * HWC_BLOCK;
            out += n * HWC_BLOCK;
            nblocks -= n;
        }
        memcpy(iv, cipher, HWC_BLOCK);
        hwc_wipe(plain, sizeof plain);
    }
    if (tail != 0) {
        __m128i c[5], b[4]; /* c: the IV, then the tail's ciphertext, all loaded before any store */
        c[0] = _mm_loadu_si128((const __m128i *)(const void *)iv);
        for (size_t j = 0; j < 4; j++)
            b[j] = c[j + 1] = j < tail ? _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j))
                                       : _mm_setzero_si128();
        sm4_blocks4(ks, schedule(ks)->dec_z, b);
        for (size_t j = 0; j < tail; j++)
            _mm_storeu_si128((__m128i *)(void *)(out + 16 * j), _mm_xor_si128(b[j], c[j]));
        _mm_storeu_si128((__m128i *)(void *)iv, c[tail]);
    }
}

/* P_j = E(C_{j-1}) ^ C_j: the cipher inputs IV, C_0..C_{n-2} are all known. */
static void sm4_aesni_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const uint32_t *rk = schedule(ks)->enc;
    alignas(32) uint8_t buf[SM4_BATCH_BYTES] = {0};
    alignas(16) uint8_t next_iv[HWC_BLOCK];
    while (nblocks != 0) {
        const size_t n = min_size(nblocks, SM4_BATCH);
        memcpy(buf, iv, HWC_BLOCK);
        memcpy(buf + HWC_BLOCK, in, (n - 1) * HWC_BLOCK);
        memcpy(next_iv, in + (n - 1) * HWC_BLOCK, HWC_BLOCK);
        sm4_run(ks, rk, buf, buf, n);
        xor_out(out, in, buf, n);
        memcpy(iv, next_iv, HWC_BLOCK);
        in += n * HWC_BLOCK;
        out += n * HWC_BLOCK;
        nblocks -= n;
    }
    hwc_wipe(buf, sizeof buf);
}

/* T * alpha (IEEE 1619 order, little-endian), masked: the tweak is secret. */
static inline HWC_TARGET_SM4 __m128i xts_mul_alpha(__m128i t) {
    const __m128i fold = _mm_set_epi32(0, 1, 0, 0x87);
    const __m128i signs = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);
    return _mm_xor_si128(_mm_slli_epi64(t, 1), _mm_and_si128(signs, fold));
}

static HWC_TARGET_SM4 void sm4_xts(const hwc_ks *ks, const uint32_t *rk, uint8_t tweak[16], uint8_t *out,
                                   const uint8_t *in, size_t nblocks) {
    alignas(32) uint8_t tweaks[SM4_BATCH_BYTES];
    alignas(32) uint8_t buf[SM4_BATCH_BYTES] = {0};
    __m128i t = _mm_loadu_si128((const __m128i *)(const void *)tweak);
    while (nblocks != 0) {
        const size_t n = min_size(nblocks, SM4_BATCH);
        for (size_t j = 0; j < n; j++) {
            _mm_store_si128((__m128i *)(void *)(tweaks + 16 * j), t);
            t = xts_mul_alpha(t);
        }
        xor_out(buf, in, tweaks, n);
        sm4_run(ks, rk, buf, buf, n);
        xor_out(out, buf, tweaks, n);
        in += n * HWC_BLOCK;
        out += n * HWC_BLOCK;
        nblocks -= n;
    }
    _mm_storeu_si128((__m128i *)(void *)tweak, t);
    hwc_wipe(tweaks, sizeof tweaks);
    hwc_wipe(buf, sizeof buf);
}

static void sm4_aesni_xts_enc(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                              size_t nblocks) {
    sm4_xts(ks, schedule(ks)->enc, tweak, out, in, nblocks);
}

static void sm4_aesni_xts_dec(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                              size_t nblocks) {
    sm4_xts(ks, schedule(ks)->dec, tweak, out, in, nblocks);
}

/* OCB3 (RFC 7253): Offset_i = Offset_{i-1} ^ L[ntz(i)]; block indices are
 * public and never 0. The checksum is over the plaintext. */
static HWC_TARGET_SM4 void sm4_ocb(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index,
                                   uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                   size_t nblocks) {
    const uint32_t *rk = decrypt ? schedule(ks)->dec : schedule(ks)->enc;
    alignas(32) uint8_t offsets[SM4_BATCH_BYTES];
    alignas(32) uint8_t buf[SM4_BATCH_BYTES] = {0};
    __m128i off = _mm_loadu_si128((const __m128i *)(const void *)offset);
    __m128i sum = _mm_loadu_si128((const __m128i *)(const void *)checksum);
    while (nblocks != 0) {
        const size_t n = min_size(nblocks, SM4_BATCH);
        for (size_t j = 0; j < n; j++) {
            off = _mm_xor_si128(off, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index++)]));
            _mm_store_si128((__m128i *)(void *)(offsets + 16 * j), off);
        }
        if (!decrypt)
            for (size_t j = 0; j < n; j++)
                sum = _mm_xor_si128(sum, _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * j)));
        xor_out(buf, in, offsets, n);
        sm4_run(ks, rk, buf, buf, n);
        xor_out(out, buf, offsets, n);
        if (decrypt)
            for (size_t j = 0; j < n; j++)
                sum = _mm_xor_si128(sum, _mm_loadu_si128((const __m128i *)(const void *)(out + 16 * j)));
        in += n * HWC_BLOCK;
        out += n * HWC_BLOCK;
        nblocks -= n;
    }
    _mm_storeu_si128((__m128i *)(void *)offset, off);
    _mm_storeu_si128((__m128i *)(void *)checksum, sum);
    hwc_wipe(offsets, sizeof offsets);
    hwc_wipe(buf, sizeof buf);
}

static void sm4_aesni_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                              uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    sm4_ocb(ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static void sm4_aesni_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                              uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    sm4_ocb(ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* ------------------------------------------- 1..4 blocks, low latency */

/*
 * The serial modes (CBC/CFB encryption, OFB, CBC-MAC, CCM) have one block in
 * flight, so the batch cores above (sixteen blocks through a stack buffer)
 * would spend their whole cost on one block, and their round, written for
 * throughput, is a chain of some twenty dependent instructions. Here up to
 * four blocks run on 128-bit registers (x[i] holds word i of block k in
 * lane k), with a round rebuilt for latency:
 *
 *   - The state is kept in the "Z domain", Z = T1(X) bytewise (T1 the
 *     linear part of the S-box's input map, see the top). T1 is linear, so
 *     T1(X1 ^ X2 ^ X3 ^ rk) + c1 = Z1 ^ Z2 ^ Z3 ^ (T1(rk) + c1): the
 *     AESENCLAST input is three XORs away from the state, the round keys
 *     being stored in that form (enc_z/dec_z).
 *   - After AESENCLAST, the S-box's output map, L and T1 (to stay in the Z
 *     domain) are one map, linear up to a constant. Byte k of L(B) depends
 *     bytewise on byte k of B, B<<<8, B<<<16, B<<<24 (L(B)_k = f0(R0_k) ^
 *     f1(R1_k) ^ f2(R2_k) ^ f3(R3_k), f0(b) = b ^ b<<2, f1 = f2 = rotl8(b, 2),
 *     f3(b) = b ^ b>>6), and each R_s is one PSHUFB of the AESENCLAST output
 *     (ShiftRows undone as in the batch core). So the whole map is four
 *     byte permutations of the two nibble vectors and eight nibble lookups
 *     in tables of T1(f_s(T2 y + c2)) (the constant folded into one),
 *     XORed together: about eight instructions deep instead of twenty.
 *   - Inputs enter and outputs leave the Z domain through one nibble
 *     lookup pair each (T1, T1^-1), off the chain: the chaining XOR of CBC,
 *     CFB and CBC-MAC commutes with T1.
 * The tables were generated from the matrices and checked, round by round,
 * against the standard's S-box and L; the tests compare every mode with
 * the portable back end. A round's latency is the same for one lane or
 * four, so CCM's keystream block rides next to its MAC block for free.
 */

static alignas(16) const uint8_t zmap0_lo[16] = {0x76, 0xf0, 0xa5, 0x23, 0x0e, 0x88, 0xdd, 0x5b,
                                                 0x6a, 0xec, 0xb9, 0x3f, 0x12, 0x94, 0xc1, 0x47};
static alignas(16) const uint8_t zmap0_hi[16] = {0x00, 0xeb, 0xdc, 0x37, 0xf0, 0x1b, 0x2c, 0xc7,
                                                 0xcd, 0x26, 0x11, 0xfa, 0x3d, 0xd6, 0xe1, 0x0a};
/* f1 = f2: R1 and R2 share their tables. */
static alignas(16) const uint8_t zmap12_lo[16] = {0x00, 0xd3, 0x0d, 0xde, 0xa0, 0x73, 0xad, 0x7e,
                                                  0x42, 0x91, 0x4f, 0x9c, 0xe2, 0x31, 0xef, 0x3c};
static alignas(16) const uint8_t zmap12_hi[16] = {0x00, 0xb4, 0x49, 0xfd, 0x82, 0x36, 0xcb, 0x7f,
                                                  0xbc, 0x08, 0xf5, 0x41, 0x3e, 0x8a, 0x77, 0xc3};
static alignas(16) const uint8_t zmap3_lo[16] = {0x00, 0x55, 0xde, 0x8b, 0xd8, 0x8d, 0x06, 0x53,
                                                 0x5e, 0x0b, 0x80, 0xd5, 0x86, 0xd3, 0x58, 0x0d};
static alignas(16) const uint8_t zmap3_hi[16] = {0x00, 0x5f, 0x95, 0xca, 0x72, 0x2d, 0xe7, 0xb8,
                                                 0x71, 0x2e, 0xe4, 0xbb, 0x03, 0x5c, 0x96, 0xc9};
/* The nibble mask, for round_z_avx2's memory operands. */
static alignas(16) const uint8_t nibble_mask[16] = {0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
                                                    0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f};
/* T1 and its inverse, linear (no constant). */
static const uint8_t t1_lo[16] = {0x00, 0x8c, 0x30, 0xbc, 0x85, 0x09, 0xb5, 0x39,
                                  0x9f, 0x13, 0xaf, 0x23, 0x1a, 0x96, 0x2a, 0xa6};
static const uint8_t t1_hi[16] = {0x00, 0xdc, 0x2e, 0xf2, 0xc5, 0x19, 0xeb, 0x37,
                                  0x08, 0xd4, 0x26, 0xfa, 0xcd, 0x11, 0xe3, 0x3f};
static const uint8_t t1inv_lo[16] = {0x00, 0x85, 0xd9, 0x5c, 0x2e, 0xab, 0xf7, 0x72,
                                     0x80, 0x05, 0x59, 0xdc, 0xae, 0x2b, 0x77, 0xf2};
static const uint8_t t1inv_hi[16] = {0x00, 0x55, 0x57, 0x02, 0x44, 0x11, 0x13, 0x46,
                                     0xaf, 0xfa, 0xf8, 0xad, 0xeb, 0xbe, 0xbc, 0xe9};

typedef struct sm4_zconsts {
    __m128i nibble, t1_lo, t1_hi, t1inv_lo, t1inv_hi;
    __m128i map_lo[4], map_hi[4], perm[4];
} sm4_zconsts;

SM4_INLINE __m128i load16(const uint8_t t[16]) {
    return _mm_loadu_si128((const __m128i *)(const void *)t);
}

SM4_INLINE void zconsts_load(sm4_zconsts *c) {
    c->nibble = _mm_set1_epi8(0x0f);
    c->t1_lo = load16(t1_lo);
    c->t1_hi = load16(t1_hi);
    c->t1inv_lo = load16(t1inv_lo);
    c->t1inv_hi = load16(t1inv_hi);
    c->map_lo[0] = load16(zmap0_lo);
    c->map_hi[0] = load16(zmap0_hi);
    c->map_lo[1] = c->map_lo[2] = load16(zmap12_lo);
    c->map_hi[1] = c->map_hi[2] = load16(zmap12_hi);
    c->map_lo[3] = load16(zmap3_lo);
    c->map_hi[3] = load16(zmap3_hi);
    c->perm[0] = load16(unshift_rot0);
    c->perm[1] = load16(unshift_rot8);
    c->perm[2] = load16(unshift_rot16);
    c->perm[3] = load16(unshift_rot24);
}

SM4_INLINE __m128i nibble_map(__m128i x, __m128i lo_table, __m128i hi_table, __m128i nibble) {
    const __m128i lo = _mm_and_si128(x, nibble);
    const __m128i hi = _mm_and_si128(_mm_srli_epi32(x, 4), nibble);
    return _mm_xor_si128(_mm_shuffle_epi8(lo_table, lo), _mm_shuffle_epi8(hi_table, hi));
}

#define XOR3_TERNLOG(p, q, r) _mm_ternarylogic_epi32(p, q, r, 0x96)
#define HWC_TARGET_SM4_512 __attribute__((target("avx2,aes,ssse3,avx512f,avx512vl,avx512bw")))
#define SM4_INLINE_512 HWC_X86_INLINE HWC_TARGET_SM4_512

/* One Z-domain round with AVX-512: Z_a' = Z_a ^ map(y), y = AESENCLAST(in),
 * in = Z_b ^ Z_c ^ rkz ^ Z_d. A table lookup works bytewise, so it commutes
 * with the byte permutations R_s: map_s[R_s(lo)] ^ map_s'[R_s(hi)] =
 * R_s(map_s[lo] ^ map_s'[hi]). Each R_s then permutes one sum of two
 * lookups, and R_1, R_2 (which share their tables) the same sum; R_2 is R_1
 * with every word rotated by a byte, one VPROLD. Six lookups and three
 * permutations: nine byte shuffles a round instead of sixteen (Skylake-X
 * issues one a cycle). The round returns the next round's S-box input,
 * Z_a' ^ early_next (early_next = the next round's Z_b ^ Z_c ^ rkz, known a
 * round ahead), summed in the same two VPTERNLOGD as Z_a', so no XOR sits
 * between one AESENCLAST and the next; Z_a' itself is recovered off the
 * chain. Chain: AESENCLAST, the high nibbles (shift, AND), a lookup, the XOR
 * of a sum, its permutation, two VPTERNLOGD (the VPROLD beside the first).
 * On a Sapphire Rapids-class Xeon, SM4-CBC against this round: R_2 by PSHUFB
 * 1.01x the time; R_0 once on the AESENCLAST output and VPROLD for R_1..R_3
 * (seven shuffles, a step longer) 1.03x; a step shorter with eleven shuffles
 * (the high nibbles as here, R_0 on the low nibbles' index and VPROLD for
 * their R_1..R_3) 1.06-1.10x: the core is bound by its issue ports as much
 * as by its chain. 32 registers keep the state, the tables and the terms out
 * of memory (round_z_avx2 for machines without AVX-512). */
SM4_INLINE_512 __m128i round_z_avx512(__m128i *xa, __m128i in, __m128i early_next, const sm4_zconsts *k) {
    const __m128i y = _mm_aesenclast_si128(in, _mm_setzero_si128());
    const __m128i lo = _mm_and_si128(y, k->nibble);
    const __m128i hi = _mm_and_si128(_mm_srli_epi32(y, 4), k->nibble);
    const __m128i s12 = _mm_xor_si128(_mm_shuffle_epi8(k->map_lo[1], lo), _mm_shuffle_epi8(k->map_hi[1], hi));
    const __m128i s0 = _mm_xor_si128(_mm_shuffle_epi8(k->map_lo[0], lo), _mm_shuffle_epi8(k->map_hi[0], hi));
    const __m128i s3 = _mm_xor_si128(_mm_shuffle_epi8(k->map_lo[3], lo), _mm_shuffle_epi8(k->map_hi[3], hi));
    const __m128i xa_early = _mm_xor_si128(*xa, early_next);
    const __m128i r1 = _mm_shuffle_epi8(s12, k->perm[1]);
    const __m128i part = XOR3_TERNLOG(xa_early, _mm_shuffle_epi8(s0, k->perm[0]), r1);
    const __m128i next = XOR3_TERNLOG(part, _mm_shuffle_epi8(s3, k->perm[3]), _mm_rol_epi32(r1, 8)); /* R_2 */
    *xa = _mm_xor_si128(next, early_next);
    return next;
}

/* Z_c ^ Z_d ^ rkz: the part of a round's S-box input known a round early. */
SM4_INLINE_512 __m128i early_z(__m128i xc, __m128i xd, const uint32_t *rkz) {
    return XOR3_TERNLOG(xc, xd, _mm_set1_epi32((int)*rkz));
}

typedef void (*sm4_core_z_fn)(__m128i state[4], const uint32_t *rkz);

/* The Z-domain round for machines without AVX-512, on sixteen registers: as
 * round_z_avx512, each R_s permutes one sum of two lookups, but R_2 is a
 * PSHUFB too (AVX2 has no VPROLD; ten byte shuffles a round, Zen 3 issues
 * two a cycle), VPXOR stands for VPTERNLOGD, and the S-box input is formed
 * at the start of the round (no registers to spare for the next round's). In
 * assembly: built from intrinsics, GCC kept state words on the stack, a
 * store and a reload on the chain. Here the state words are register
 * operands and every constant a memory operand or a load off the chain, read
 * from the static tables themselves: copying them into a local sm4_zconsts
 * cost fifteen loads and stores a call, one call a block. The tables are
 * 16-byte aligned, as VMOVDQA needs (the VEX forms of VPAND and VPSHUFB take
 * any address). On Zen 3: 17 cycles a round, against 22 for the round this
 * replaced (input map, AESENCLAST, output map, L by byte rotations and
 * shifts). */
SM4_INLINE void round_z_avx2(__m128i *xa, __m128i xb, __m128i xc, __m128i xd, const uint32_t *rk) {
    __m128i t0, t1, t2, t3, t4, t5;
    __asm__("vpbroadcastd %[rk], %[t0]\n\t"
            "vpxor %[xb], %[xc], %[t1]\n\t"
            "vpxor %[t0], %[t1], %[t1]\n\t"
            "vpxor %[xd], %[t1], %[t1]\n\t"
            "vpxor %[t0], %[t0], %[t0]\n\t"
            "vaesenclast %[t0], %[t1], %[t1]\n\t"
            "vpsrld $4, %[t1], %[t2]\n\t"
            "vpand %[nib], %[t1], %[t1]\n\t" /* low nibbles */
            "vpand %[nib], %[t2], %[t2]\n\t" /* high nibbles */
            "vmovdqa %[ml12], %[t3]\n\t" /* R_1 and R_2: the longest path first */
            "vpshufb %[t1], %[t3], %[t3]\n\t"
            "vmovdqa %[mh12], %[t4]\n\t"
            "vpshufb %[t2], %[t4], %[t4]\n\t"
            "vpxor %[t4], %[t3], %[t3]\n\t"
            "vpshufb %[p1], %[t3], %[t4]\n\t"
            "vpshufb %[p2], %[t3], %[t3]\n\t"
            "vpxor %[t4], %[t3], %[t3]\n\t"
            "vmovdqa %[ml0], %[t4]\n\t" /* R_0 */
            "vpshufb %[t1], %[t4], %[t4]\n\t"
            "vmovdqa %[mh0], %[t5]\n\t"
            "vpshufb %[t2], %[t5], %[t5]\n\t"
            "vpxor %[t5], %[t4], %[t4]\n\t"
            "vpshufb %[p0], %[t4], %[t4]\n\t"
            "vpxor %[t4], %[xa], %[xa]\n\t"
            "vmovdqa %[ml3], %[t4]\n\t" /* R_3 */
            "vpshufb %[t1], %[t4], %[t4]\n\t"
            "vmovdqa %[mh3], %[t5]\n\t"
            "vpshufb %[t2], %[t5], %[t5]\n\t"
            "vpxor %[t5], %[t4], %[t4]\n\t"
            "vpshufb %[p3], %[t4], %[t4]\n\t"
            "vpxor %[t4], %[xa], %[xa]\n\t"
            "vpxor %[t3], %[xa], %[xa]"
            : [xa] "+x"(*xa), [t0] "=&x"(t0), [t1] "=&x"(t1), [t2] "=&x"(t2), [t3] "=&x"(t3), [t4] "=&x"(t4),
              [t5] "=&x"(t5)
            : [xb] "x"(xb), [xc] "x"(xc), [xd] "x"(xd), [rk] "m"(*rk), [nib] "m"(nibble_mask), [p0] "m"(unshift_rot0),
              [p1] "m"(unshift_rot8), [p2] "m"(unshift_rot16), [p3] "m"(unshift_rot24), [ml0] "m"(zmap0_lo),
              [ml12] "m"(zmap12_lo), [ml3] "m"(zmap3_lo), [mh0] "m"(zmap0_hi), [mh12] "m"(zmap12_hi),
              [mh3] "m"(zmap3_hi));
}

static __attribute__((noinline)) HWC_TARGET_SM4 void core_z_avx2(__m128i state[4], const uint32_t *rkz) {
    __m128i x0 = state[0], x1 = state[1], x2 = state[2], x3 = state[3];
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {
        round_z_avx2(&x0, x1, x2, x3, rkz + r);
        round_z_avx2(&x1, x2, x3, x0, rkz + r + 1);
        round_z_avx2(&x2, x3, x0, x1, rkz + r + 2);
        round_z_avx2(&x3, x0, x1, x2, rkz + r + 3);
    }
    state[0] = x3;
    state[1] = x2;
    state[2] = x1;
    state[3] = x0;
}

/* 32 rounds in the Z domain; on return state[0..3] are the output block's
 * words 0..3 (X35, X34, X33, X32), still in the Z domain, ready to chain.
 * Out of line: one call per block costs nothing next to 32 rounds. */
static __attribute__((noinline)) HWC_TARGET_SM4_512 void core_z_avx512(__m128i state[4], const uint32_t *rkz) {
    sm4_zconsts k;
    zconsts_load(&k);
    __m128i x0 = state[0], x1 = state[1], x2 = state[2], x3 = state[3];
    __m128i in = _mm_xor_si128(early_z(x1, x2, rkz), x3);
    for (unsigned r = 0;; r += 4) {
        in = round_z_avx512(&x0, in, early_z(x2, x3, rkz + r + 1), &k);
        in = round_z_avx512(&x1, in, early_z(x3, x0, rkz + r + 2), &k);
        in = round_z_avx512(&x2, in, early_z(x0, x1, rkz + r + 3), &k);
        if (r + 4 == SM4_ROUNDS) /* the last round has no next one */
            break;
        in = round_z_avx512(&x3, in, early_z(x1, x2, rkz + r + 4), &k);
    }
    round_z_avx512(&x3, in, _mm_setzero_si128(), &k);
    state[0] = x3;
    state[1] = x2;
    state[2] = x1;
    state[3] = x0;
}

/* The GFNI round of the batch cores on the 1..4-block layout: the same Z
 * domain and Z-domain round keys, so it is a drop-in core. */
typedef __m128i g128_v;
GFNI_INLINE g128_v g128_set1(uint32_t w) { return _mm_set1_epi32((int)w); }
GFNI_INLINE g128_v g128_set1_64(long long q) { return _mm_set1_epi64x(q); }
GFNI_INLINE g128_v g128_bcast16(const uint8_t t[16]) { return load16(t); }
GFNI_INLINE g128_v g128_xor(g128_v a, g128_v b) { return _mm_xor_si128(a, b); }
GFNI_INLINE g128_v g128_xor3(g128_v a, g128_v b, g128_v c) { return g128_xor(g128_xor(a, b), c); }
#define g128_rotw(a, bits, idx) _mm_shuffle_epi8((a), (idx))
#define g128_affinv(x, m, c) _mm_gf2p8affineinv_epi64_epi8((x), (m), (c))
typedef __m128i g128t_v; /* the same with VPTERNLOGD for three-input XORs */
#define g128t_set1 g128_set1
#define g128t_set1_64 g128_set1_64
#define g128t_bcast16 g128_bcast16
#define g128t_xor g128_xor
#define g128t_rotw(a, bits, idx) _mm_rol_epi32((a), (bits))
#define g128t_affinv g128_affinv
#define g128t_xor3(a, b, c) _mm_ternarylogic_epi32((a), (b), (c), 0x96)

/* The serial round reorganized for latency: the next round's S-box input
 * y' = X_b' ^ X_c' ^ rk' ^ X_a,new with X_a,new = X_a ^ t0 ^ t1 ^ t2 ^ t3 is
 * formed from the t's directly, (X_b' ^ X_c' ^ rk' ^ X_a) being ready
 * early, so a round's chain is PSHUFB, GF2P8AFFINEINVQB and two XORs
 * (X_c' = n2, the word the previous step made, joins the early part last);
 * X_a,new itself is computed beside it for the rounds that read it later. */
#define GFNI_SERIAL_STEP(W, a, n1, n2, key_next)                                 \
    do {                                                                         \
        const W##_v t0_ = W##_affinv(y, k.m0, GFNI_C0);                          \
        const W##_v t1_ = W##_affinv(W##_rotw(y, 8, k.rot8), k.m12, GFNI_C12);     \
        const W##_v t2_ = W##_affinv(W##_rotw(y, 16, k.rot16), k.m12, GFNI_C12);    \
        const W##_v t3_ = W##_affinv(W##_rotw(y, 24, k.rot24), k.m3, GFNI_C3);      \
        W##_v old_ = W##_xor3(n1, a, W##_set1(key_next));                        \
        PIN_VEC(old_); /* n2, the previous step's word, joins last */            \
        W##_v e_ = W##_xor(old_, n2);                                            \
        PIN_VEC(e_);                                                             \
        W##_v p_ = W##_xor(e_, t0_);                                             \
        W##_v a0_ = W##_xor(a, t0_);                                             \
        PIN_VEC(p_);                                                             \
        PIN_VEC(a0_);                                                            \
        const W##_v u_ = W##_xor(t2_, t3_);                                      \
        W##_v v_ = W##_xor(p_, t1_);                                             \
        W##_v a1_ = W##_xor(a0_, t1_);                                           \
        PIN_VEC(v_);                                                             \
        PIN_VEC(a1_);                                                            \
        y = W##_xor(v_, u_);                                                     \
        a = W##_xor(a1_, u_);                                                    \
    } while (0)

#define SM4_CORE_GFNI_BODY(W)                                                   \
    GFNI_CONSTS(W);                                                             \
    W##_v x0 = state[0], x1 = state[1], x2 = state[2], x3 = state[3];           \
    W##_v y = W##_xor(W##_xor3(x1, x2, W##_set1(rkz[0])), x3);                  \
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {                              \
        GFNI_SERIAL_STEP(W, x0, x2, x3, rkz[r + 1]);                            \
        GFNI_SERIAL_STEP(W, x1, x3, x0, rkz[r + 2]);                            \
        GFNI_SERIAL_STEP(W, x2, x0, x1, rkz[r + 3]);                            \
        GFNI_SERIAL_STEP(W, x3, x1, x2, r + 4 < SM4_ROUNDS ? rkz[r + 4] : 0);   \
    }                                                                           \
    state[0] = x3;                                                              \
    state[1] = x2;                                                              \
    state[2] = x1;                                                              \
    state[3] = x0

/* Inlined into their serial kernels (below): one block's chain has no
 * call, and the state stays in registers between blocks (measured 10%
 * faster per block than through a call). */
GFNI_INLINE void core_z_gfni(__m128i state[4], const uint32_t *rkz) {
    SM4_CORE_GFNI_BODY(g128);
}
GFNI512_INLINE void core_z_gfni512(__m128i state[4], const uint32_t *rkz) {
    SM4_CORE_GFNI_BODY(g128t);
}

/* Blocks b0..b3 (byte order) to Z-domain words: x[i] lane k = T1(word i
 * of block k). */
SM4_INLINE void blocks_in(__m128i x[4], __m128i b0, __m128i b1, __m128i b2, __m128i b3, const sm4_zconsts *k) {
    const __m128i bswap = load16(bswap32);
    b0 = _mm_shuffle_epi8(b0, bswap);
    b1 = _mm_shuffle_epi8(b1, bswap);
    b2 = _mm_shuffle_epi8(b2, bswap);
    b3 = _mm_shuffle_epi8(b3, bswap);
    const __m128i lo01 = _mm_unpacklo_epi32(b0, b1), hi01 = _mm_unpackhi_epi32(b0, b1);
    const __m128i lo23 = _mm_unpacklo_epi32(b2, b3), hi23 = _mm_unpackhi_epi32(b2, b3);
    x[0] = nibble_map(_mm_unpacklo_epi64(lo01, lo23), k->t1_lo, k->t1_hi, k->nibble);
    x[1] = nibble_map(_mm_unpackhi_epi64(lo01, lo23), k->t1_lo, k->t1_hi, k->nibble);
    x[2] = nibble_map(_mm_unpacklo_epi64(hi01, hi23), k->t1_lo, k->t1_hi, k->nibble);
    x[3] = nibble_map(_mm_unpackhi_epi64(hi01, hi23), k->t1_lo, k->t1_hi, k->nibble);
}

/* One block into lane 0 (the other lanes hold copies of its words). */
SM4_INLINE void block_in(__m128i x[4], __m128i b, const sm4_zconsts *k) {
    b = nibble_map(_mm_shuffle_epi8(b, load16(bswap32)), k->t1_lo, k->t1_hi, k->nibble);
    x[0] = _mm_shuffle_epi32(b, 0x00);
    x[1] = _mm_shuffle_epi32(b, 0x55);
    x[2] = _mm_shuffle_epi32(b, 0xaa);
    x[3] = _mm_shuffle_epi32(b, 0xff);
}

/* Lane k of the Z-domain words back to a block (byte order). */
SM4_INLINE void blocks_out(const __m128i z[4], __m128i b[4], const sm4_zconsts *k) {
    const __m128i bswap = load16(bswap32);
    __m128i x[4];
    for (unsigned j = 0; j < 4; j++)
        x[j] = nibble_map(z[j], k->t1inv_lo, k->t1inv_hi, k->nibble);
    const __m128i lo01 = _mm_unpacklo_epi32(x[0], x[1]), hi01 = _mm_unpackhi_epi32(x[0], x[1]);
    const __m128i lo23 = _mm_unpacklo_epi32(x[2], x[3]), hi23 = _mm_unpackhi_epi32(x[2], x[3]);
    b[0] = _mm_shuffle_epi8(_mm_unpacklo_epi64(lo01, lo23), bswap);
    b[1] = _mm_shuffle_epi8(_mm_unpackhi_epi64(lo01, lo23), bswap);
    b[2] = _mm_shuffle_epi8(_mm_unpacklo_epi64(hi01, hi23), bswap);
    b[3] = _mm_shuffle_epi8(_mm_unpackhi_epi64(hi01, hi23), bswap);
}

SM4_INLINE __m128i block_out(const __m128i z[4], const sm4_zconsts *k) {
    const __m128i lo01 = _mm_unpacklo_epi32(z[0], z[1]), lo23 = _mm_unpacklo_epi32(z[2], z[3]);
    const __m128i x = nibble_map(_mm_unpacklo_epi64(lo01, lo23), k->t1inv_lo, k->t1inv_hi, k->nibble);
    return _mm_shuffle_epi8(x, load16(bswap32));
}

SM4_INLINE __m128i loadb(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
SM4_INLINE void storeb(uint8_t *p, __m128i v) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* b[0..3] (byte order) through the core, in place: the short paths of the
 * batch kernels (a last batch of up to SM4_SHORT blocks). */
SM4_INLINE void sm4_blocks4_body(sm4_core_z_fn core, const uint32_t *rkz, __m128i b[4]) {
    sm4_zconsts k;
    zconsts_load(&k);
    __m128i x[4];
    blocks_in(x, b[0], b[1], b[2], b[3], &k);
    core(x, rkz);
    blocks_out(x, b, &k);
}

/* ECB of 1..4 blocks (the generic code's single-block calls: CMAC subkeys,
 * CCM's B0 and S0, GCM's H). */
SM4_INLINE void sm4_ecb_small_body(sm4_core_z_fn core, const uint32_t *rkz, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks == 0)
        return;
    sm4_zconsts k;
    zconsts_load(&k);
    const __m128i zero = _mm_setzero_si128();
    __m128i x[4], b[4];
    blocks_in(x, loadb(in), nblocks > 1 ? loadb(in + 16) : zero, nblocks > 2 ? loadb(in + 32) : zero,
              nblocks > 3 ? loadb(in + 48) : zero, &k);
    core(x, rkz);
    blocks_out(x, b, &k);
    for (size_t j = 0; j < nblocks; j++)
        storeb(out + 16 * j, b[j]);
}

/* CBC encryption and CBC-MAC: the chain is the previous output (Z domain);
 * the next input's Z-domain words are XORed in. out == NULL: MAC only. */
SM4_INLINE void sm4_cbc_chain_body(sm4_core_z_fn core, const uint32_t *rkz, uint8_t chain[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    sm4_zconsts k;
    zconsts_load(&k);
    __m128i x[4], p[4];
    block_in(x, loadb(chain), &k);
    for (size_t i = 0; i < nblocks; i++) {
        block_in(p, loadb(in + 16 * i), &k);
        for (unsigned j = 0; j < 4; j++)
            x[j] = _mm_xor_si128(x[j], p[j]);
        core(x, rkz);
        if (out)
            storeb(out + 16 * i, block_out(x, &k));
    }
    storeb(chain, block_out(x, &k));
}


/* CFB encryption (ofb = 0): C_i = E(C_{i-1}) ^ P_i, the chain C_i. OFB
 * (ofb = 1): the chain is the keystream E(chain), XORed off the chain. */
SM4_INLINE void sm4_feedback_body(sm4_core_z_fn core, const uint32_t *rkz, int ofb, uint8_t iv[16], uint8_t *out,
                                        const uint8_t *in, size_t nblocks) {
    sm4_zconsts k;
    zconsts_load(&k);
    __m128i x[4], p[4];
    block_in(x, loadb(iv), &k);
    for (size_t i = 0; i < nblocks; i++) {
        const __m128i plain = loadb(in + 16 * i);
        if (!ofb)
            block_in(p, plain, &k);
        core(x, rkz);
        if (ofb) {
            storeb(out + 16 * i, _mm_xor_si128(block_out(x, &k), plain));
        } else {
            for (unsigned j = 0; j < 4; j++)
                x[j] = _mm_xor_si128(x[j], p[j]);
            storeb(out + 16 * i, block_out(x, &k));
        }
    }
    storeb(iv, block_out(x, &k));
}

/*
 * Fused CCM: lane 0 carries the CBC-MAC chain, lane 1 a CTR block, through
 * the same rounds. Encryption: MAC block i with CTR block i. Decryption: the
 * MAC needs the plaintext the CTR block produces, so the keystream runs one
 * block ahead (MAC block i - 1 with CTR block i).
 */
SM4_INLINE void sm4_ccm_body(sm4_core_z_fn core, const uint32_t *rkz, int decrypt, uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                                   const uint8_t *in, size_t nblocks) {
    sm4_zconsts k;
    zconsts_load(&k);
    const __m128i lane0 = _mm_set_epi32(0, 0, 0, -1);
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    __m128i m[4], x[4], b[4];
    block_in(m, loadb(mac), &k);
    for (unsigned j = 0; j < 4; j++)
        m[j] = _mm_and_si128(m[j], lane0);
    if (!decrypt) {
        for (size_t i = 0; i < nblocks; i++) {
            const __m128i plain = loadb(in + 16 * i);
            blocks_in(x, plain, counter128_next(&hi, &lo), plain, plain, &k);
            for (unsigned j = 0; j < 4; j++)
                x[j] = _mm_xor_si128(x[j], m[j]);
            core(x, rkz);
            for (unsigned j = 0; j < 4; j++)
                m[j] = _mm_and_si128(x[j], lane0);
            blocks_out(x, b, &k);
            storeb(out + 16 * i, _mm_xor_si128(plain, b[1]));
        }
    } else if (nblocks != 0) {
        /* P_0 alone (lane 1), then the MAC of P_i next to CTR block i + 1.
         * Each ciphertext block is loaded before the plaintext before it is
         * stored, so out == in works. */
        __m128i cipher = loadb(in);
        blocks_in(x, cipher, counter128_next(&hi, &lo), cipher, cipher, &k);
        core(x, rkz);
        blocks_out(x, b, &k);
        __m128i plain = _mm_xor_si128(cipher, b[1]);
        for (size_t i = 0; i < nblocks; i++) {
            const int more = i + 1 < nblocks;
            cipher = more ? loadb(in + 16 * (i + 1)) : plain;
            storeb(out + 16 * i, plain);
            blocks_in(x, plain, more ? counter128_next(&hi, &lo) : plain, plain, plain, &k);
            for (unsigned j = 0; j < 4; j++)
                x[j] = _mm_xor_si128(x[j], m[j]);
            core(x, rkz);
            for (unsigned j = 0; j < 4; j++)
                m[j] = _mm_and_si128(x[j], lane0);
            blocks_out(x, b, &k);
            plain = _mm_xor_si128(cipher, b[1]);
        }
    }
    b[0] = block_out(m, &k);
    storeb(mac, b[0]);
    hwc_store_be64(ctr, hi);
    hwc_store_be64(ctr + 8, lo);
}

/* The serial kernels once per core, the core inlined (GFNI) or called. */
#define SM4_SERIAL_INSTANCES(SUF, TARGET, CORE)                                                                    \
    static TARGET void sm4_blocks4_##SUF(const uint32_t *rkz, __m128i b[4]) {                                      \
        sm4_blocks4_body(CORE, rkz, b);                                                                            \
    }                                                                                                              \
    static TARGET void sm4_ecb_small_##SUF(const uint32_t *rkz, uint8_t *out, const uint8_t *in, size_t n) {       \
        sm4_ecb_small_body(CORE, rkz, out, in, n);                                                                 \
    }                                                                                                              \
    static TARGET void sm4_cbc_chain_##SUF(const uint32_t *rkz, uint8_t chain[16], uint8_t *out, const uint8_t *in, \
                                           size_t n) {                                                             \
        sm4_cbc_chain_body(CORE, rkz, chain, out, in, n);                                                          \
    }                                                                                                              \
    static TARGET void sm4_feedback_##SUF(const uint32_t *rkz, int ofb, uint8_t iv[16], uint8_t *out,             \
                                          const uint8_t *in, size_t n) {                                           \
        sm4_feedback_body(CORE, rkz, ofb, iv, out, in, n);                                                         \
    }                                                                                                              \
    static TARGET void sm4_ccm_##SUF(const uint32_t *rkz, int decrypt, uint8_t ctr[16], uint8_t mac[16],           \
                                     uint8_t *out, const uint8_t *in, size_t n) {                                  \
        sm4_ccm_body(CORE, rkz, decrypt, ctr, mac, out, in, n);                                                    \
    }
SM4_SERIAL_INSTANCES(avx2, HWC_TARGET_SM4, core_z_avx2)
SM4_SERIAL_INSTANCES(avx512, HWC_TARGET_SM4, core_z_avx512)
SM4_SERIAL_INSTANCES(gfni, HWC_TARGET_SM4_GFNI, core_z_gfni)
SM4_SERIAL_INSTANCES(gfni512, HWC_TARGET_SM4_GFNI512, core_z_gfni512)

static const struct {
    void (*blocks4)(const uint32_t *, __m128i *);
    void (*ecb_small)(const uint32_t *, uint8_t *, const uint8_t *, size_t);
    void (*cbc_chain)(const uint32_t *, uint8_t *, uint8_t *, const uint8_t *, size_t);
    void (*feedback)(const uint32_t *, int, uint8_t *, uint8_t *, const uint8_t *, size_t);
    void (*ccm)(const uint32_t *, int, uint8_t *, uint8_t *, uint8_t *, const uint8_t *, size_t);
} serial_kernels[] = {
    [SERIAL_AVX2] = {sm4_blocks4_avx2, sm4_ecb_small_avx2, sm4_cbc_chain_avx2, sm4_feedback_avx2, sm4_ccm_avx2},
    [SERIAL_AVX512] = {sm4_blocks4_avx512, sm4_ecb_small_avx512, sm4_cbc_chain_avx512, sm4_feedback_avx512, sm4_ccm_avx512},
    [SERIAL_GFNI] = {sm4_blocks4_gfni, sm4_ecb_small_gfni, sm4_cbc_chain_gfni, sm4_feedback_gfni, sm4_ccm_gfni},
    [SERIAL_GFNI512] = {sm4_blocks4_gfni512, sm4_ecb_small_gfni512, sm4_cbc_chain_gfni512, sm4_feedback_gfni512, sm4_ccm_gfni512},
};
#define SERIAL(ks) serial_kernels[schedule(ks)->serial]

static void sm4_blocks4(const hwc_ks *ks, const uint32_t *rkz, __m128i b[4]) {
    SERIAL(ks).blocks4(rkz, b);
}

static void sm4_aesni_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    SERIAL(ks).cbc_chain(schedule(ks)->enc_z, iv, out, in, nblocks);
}

static void sm4_aesni_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    SERIAL(ks).cbc_chain(schedule(ks)->enc_z, mac, NULL, in, nblocks);
}

static void sm4_aesni_cfb_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    SERIAL(ks).feedback(schedule(ks)->enc_z, 0, iv, out, in, nblocks);
}

static void sm4_aesni_ofb(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    SERIAL(ks).feedback(schedule(ks)->enc_z, 1, iv, out, in, nblocks);
}

static void sm4_aesni_ccm_enc(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t nblocks) {
    SERIAL(ks).ccm(schedule(ks)->enc_z, 0, ctr, mac, out, in, nblocks);
}

static void sm4_aesni_ccm_dec(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t nblocks) {
    SERIAL(ks).ccm(schedule(ks)->enc_z, 1, ctr, mac, out, in, nblocks);
}

/* ECB: 1..4 blocks (the generic code's single-block calls) through the
 * low-latency kernel, more through the batch cores. */
static void sm4_aesni_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks <= 4)
        SERIAL(ks).ecb_small(schedule(ks)->enc_z, out, in, nblocks);
    else
        sm4_ecb(ks, schedule(ks)->enc, out, in, nblocks);
}

static void sm4_aesni_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks <= 4)
        SERIAL(ks).ecb_small(schedule(ks)->dec_z, out, in, nblocks);
    else
        sm4_ecb(ks, schedule(ks)->dec, out, in, nblocks);
}

/* ---------------------------------------------------------------- table */

/* The three tables share every kernel; set_key picks the cores. */
#define SM4_X86_KERNELS                    \
    .family = HWC_FAMILY_SM4,              \
    .flags = HWC_IMPL_CONSTANT_TIME,       \
    .ghash_name = "vpclmul", /* falls back to the best available GHASH */ \
    .usable = NULL,                        \
    .ecb_enc = sm4_aesni_ecb_enc,          \
    .ecb_dec = sm4_aesni_ecb_dec,          \
    .cbc_enc = sm4_aesni_cbc_enc,          \
    .cbc_dec = sm4_aesni_cbc_dec,          \
    .cfb_enc = sm4_aesni_cfb_enc,          \
    .cfb_dec = sm4_aesni_cfb_dec,          \
    .ofb = sm4_aesni_ofb,                  \
    .cbc_mac = sm4_aesni_cbc_mac,          \
    .ccm_enc = sm4_aesni_ccm_enc,          \
    .ccm_dec = sm4_aesni_ccm_dec,          \
    .ctr128 = sm4_aesni_ctr128,            \
    .ctr32 = sm4_aesni_ctr32,              \
    .xts_enc = sm4_aesni_xts_enc,          \
    .xts_dec = sm4_aesni_xts_dec,          \
    .ocb_enc = sm4_aesni_ocb_enc,          \
    .ocb_dec = sm4_aesni_ocb_dec

static const hwc_block_impl sm4_aesni_impl = {
    .name = "sm4-aesni",
    .required_caps = HWC_CAP_AESNI | HWC_CAP_SSSE3 | HWC_CAP_AVX2,
    .set_key = sm4_aesni_set_key,
    SM4_X86_KERNELS,
};

/* The mode code around the cores is compiled for AES-NI too (it shares the
 * sm4-aesni functions), so GFNI is asked for on top of it; every GFNI CPU
 * has AES-NI. */
static const hwc_block_impl sm4_gfni_impl = {
    .name = "sm4-gfni",
    .required_caps = HWC_CAP_AESNI | HWC_CAP_SSSE3 | HWC_CAP_AVX2 | HWC_CAP_GFNI,
    .set_key = sm4_gfni_set_key,
    SM4_X86_KERNELS,
};

static const hwc_block_impl sm4_gfni512_impl = {
    .name = "sm4-gfni512",
    .required_caps = HWC_CAP_AESNI | HWC_CAP_SSSE3 | HWC_CAP_AVX2 | HWC_CAP_GFNI | HWC_CAP_AVX512,
    .set_key = sm4_gfni512_set_key,
    SM4_X86_KERNELS,
};

const hwc_block_impl *hwc_sm4_aesni_get(void) {
    return &sm4_aesni_impl;
}

const hwc_block_impl *hwc_sm4_gfni_get(void) {
    return &sm4_gfni_impl;
}

const hwc_block_impl *hwc_sm4_gfni512_get(void) {
    return &sm4_gfni512_impl;
}

#endif /* __x86_64__ */
