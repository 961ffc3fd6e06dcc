/*
 * Shared pieces of the 64-bit Arm back ends (src/arm/): the AES key
 * schedule layout inside hwc_ks, the PMULL GHASH key layout inside
 * hwc_ghash_key, and the carry-less multiply/reduce steps that the GHASH back
 * end and the fused GCM kernels of the AES and SM4 back ends share, so they
 * always agree on the key.
 *
 * The library is built for plain Armv8.0-A; each function enables the
 * extension it uses with a target attribute (the Crypto Extensions' AES and
 * PMULL, SHA3 for EOR3, SM4), so one binary runs on any AArch64 core and
 * dispatch picks by capability.  GCC 12 spells them "+crypto" (not "+aes")
 * and, for EOR3 and SM4E, an architecture level with the feature.
 *
 * GHASH is computed as POLYVAL (RFC 8452), whose bit order is PMULL's: a
 * 16-byte POLYVAL block loaded little-endian is the polynomial with x^i at
 * bit i.  RFC 8452 Appendix A gives
 *     GHASH(H, X_1..X_n) =
 *         ByteReverse(POLYVAL(mulX_POLYVAL(ByteReverse(H)), ByteReverse(X_1), ...))
 * A GCM block after REV64 (one instruction) is ByteReverse(X) with its two
 * 64-bit halves swapped: call that the "swapped form" R(A) = (A.hi, A.lo) of
 * a field element A, and N(A) = (A.lo, A.hi) its normal form.  Products need
 * no swap: for data in swapped form and a key power stored in both forms,
 *     PMULL (R(A), R(B)) = A.hi*B.hi     PMULL2(R(A), R(B)) = A.lo*B.lo
 *     PMULL (R(A), N(B)) = A.hi*B.lo     PMULL2(R(A), N(B)) = A.lo*B.hi
 * (four multiplications, schoolbook: one fewer instruction per block than
 * Karatsuba, which needs the data's half sum).  Native POLYVAL (GCM-SIV)
 * takes the data in normal form with the key forms exchanged, so one kernel
 * serves both.
 *
 * POLYVAL's product is dot(a, b) = a * b * x^-128 mod Q,
 * Q = x^128 + x^127 + x^126 + x^121 + 1: a Montgomery reduction, two folds
 * of 64 bits, each one PMULL by x^63 + x^62 + x^57 (0xc2 << 56).
 */
#ifndef HWCRYPT_ARM_INTERNAL_H
#define HWCRYPT_ARM_INTERNAL_H

#if defined(__aarch64__)

#include <arm_neon.h>

#include "backend.h"

/* Per-function targets. */
#define HWC_A64_TARGET_CE __attribute__((target("+crypto")))
#define HWC_A64_TARGET_CE_SHA3 __attribute__((target("arch=armv8.2-a+crypto+sha3")))
#define HWC_A64_TARGET_SM4 __attribute__((target("arch=armv8.2-a+crypto+sm4")))
#define HWC_A64_INLINE static inline __attribute__((always_inline))

/* Fully unroll block and round loops so arrays of blocks and round keys
 * become registers (GCC does not on its own; an 8-way CTR with the arrays on
 * the stack cost 2.8 times the instructions). */
#define HWC_A64_UNROLL _Pragma("GCC unroll 16")

typedef uint8x16_t v128;

/* ------------------------------------------------------ AES key schedule */

#define A64_AES_MAX_ROUNDS 14

/* dec[] is the equivalent inverse cipher's schedule (FIPS-197 5.3.5):
 * dec[0] = enc[Nr], dec[r] = InvMixColumns(enc[Nr - r]), dec[Nr] = enc[0],
 * so decryption is AESD/AESIMC pairs like encryption's AESE/AESMC. */
typedef struct a64_aes_schedule {
    alignas(16) uint8_t enc[A64_AES_MAX_ROUNDS + 1][16];
    alignas(16) uint8_t dec[A64_AES_MAX_ROUNDS + 1][16];
    uint32_t rounds; /* 10, 12 or 14 */
} a64_aes_schedule;
_Static_assert(sizeof(a64_aes_schedule) <= HWC_KS_BYTES, "Arm AES schedule must fit in hwc_ks");

static inline const uint8_t *a64_aes_enc_keys(const hwc_ks *ks) {
    return ks->bytes + offsetof(a64_aes_schedule, enc);
}
static inline const uint8_t *a64_aes_dec_keys(const hwc_ks *ks) {
    return ks->bytes + offsetof(a64_aes_schedule, dec);
}
static inline unsigned a64_aes_rounds(const hwc_ks *ks) {
    uint32_t r;
    memcpy(&r, ks->bytes + offsetof(a64_aes_schedule, rounds), sizeof r);
    return r;
}

/* Key expansion (aes_armv8ce.c), for both AES back ends and the fused
 * kernels; SubWord through AESE on a replicated word. */
void hwc_a64_aes_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec);

/* The kernels of "armv8ce" without a three-way XOR, which "armv8ce-eor3"
 * shares (aes_armv8ce_modes.h). */
void hwc_a64_ce_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_a64_ce_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_a64_ce_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks);
void hwc_a64_ce_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks);
void hwc_a64_ce_kw_w(const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n);
void hwc_a64_ce_kw_winv(const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n);

/* The eight-block loops in assembly (aes_armv8ce_bulk.S): rk the
 * schedule's encryption or decryption keys, nr the rounds, groups >= 1
 * groups of eight blocks (CCM: four). "_3" variants use EOR3 (SHA3). The
 * counter kernels (ctr8, gcm8, ccm4) step the counter block in its last
 * byte: the caller guarantees that byte does not carry across the blocks
 * of the call, and advances its own counter. */
#define A64_BULK_ARGS const uint8_t *rk, unsigned nr, uint8_t *out, const uint8_t *in, size_t groups
void hwc_a64_ecb8_enc(A64_BULK_ARGS);
void hwc_a64_ecb8_dec(A64_BULK_ARGS);
void hwc_a64_ctr8(A64_BULK_ARGS, const uint8_t ctr[16]);
void hwc_a64_ctr8_3(A64_BULK_ARGS, const uint8_t ctr[16]);
/* GCM-SIV's counter: little-endian in the first word, any count */
void hwc_a64_ctr8le(A64_BULK_ARGS, const uint8_t ctr[16]);
void hwc_a64_ctr8le_3(A64_BULK_ARGS, const uint8_t ctr[16]);
void hwc_a64_cbc8_dec(A64_BULK_ARGS, uint8_t iv[16]);
void hwc_a64_cbc8_dec_3(A64_BULK_ARGS, uint8_t iv[16]);
void hwc_a64_cfb8_dec(A64_BULK_ARGS, uint8_t iv[16]);
void hwc_a64_cfb8_dec_3(A64_BULK_ARGS, uint8_t iv[16]);
void hwc_a64_xts8_enc(A64_BULK_ARGS, uint8_t tweak[16]);
void hwc_a64_xts8_dec(A64_BULK_ARGS, uint8_t tweak[16]);
void hwc_a64_xts8_enc_3(A64_BULK_ARGS, uint8_t tweak[16]);
void hwc_a64_xts8_dec_3(A64_BULK_ARGS, uint8_t tweak[16]);
/* state: offset then checksum; first_index is 1 mod 8 */
void hwc_a64_ocb8_enc(A64_BULK_ARGS, const uint8_t (*L)[16], uint64_t first_index, uint8_t state[32]);
void hwc_a64_ocb8_dec(A64_BULK_ARGS, const uint8_t (*L)[16], uint64_t first_index, uint8_t state[32]);
void hwc_a64_ocb8_enc_3(A64_BULK_ARGS, const uint8_t (*L)[16], uint64_t first_index, uint8_t state[32]);
void hwc_a64_ocb8_dec_3(A64_BULK_ARGS, const uint8_t (*L)[16], uint64_t first_index, uint8_t state[32]);
struct hwc_ghash_key;
void hwc_a64_gcm8_enc(A64_BULK_ARGS, const uint8_t ctr[16], const struct hwc_ghash_key *hk, uint8_t state[16]);
void hwc_a64_gcm8_dec(A64_BULK_ARGS, const uint8_t ctr[16], const struct hwc_ghash_key *hk, uint8_t state[16]);
void hwc_a64_gcm8_enc_3(A64_BULK_ARGS, const uint8_t ctr[16], const struct hwc_ghash_key *hk, uint8_t state[16]);
void hwc_a64_gcm8_dec_3(A64_BULK_ARGS, const uint8_t ctr[16], const struct hwc_ghash_key *hk, uint8_t state[16]);
void hwc_a64_ccm4_enc(A64_BULK_ARGS, const uint8_t ctr[16], uint8_t mac[16]);
void hwc_a64_ccm4_dec(A64_BULK_ARGS, const uint8_t ctr[16], uint8_t mac[16]);
void hwc_a64_ccm4_enc_3(A64_BULK_ARGS, const uint8_t ctr[16], uint8_t mac[16]);
void hwc_a64_ccm4_dec_3(A64_BULK_ARGS, const uint8_t ctr[16], uint8_t mac[16]);

/* The eight-block loops of "sm4e" (sm4_sm4e_bulk.S): rk its 32 round keys
 * (encryption or decryption order), groups >= 1. The counter kernels take
 * the counter block in only (the caller advances it; native lanes wrap mod
 * 2^32); xts8 and cbc8_dec update tweak / iv; ocb8: state = offset then
 * checksum, first_index 1 mod 8; encrypt selects OCB's checksum input and
 * GCM's direction. */
void hwc_a64_sm4e_ecb8(const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t groups);
void hwc_a64_sm4e_ctr8(const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t groups, const uint8_t ctr[16]);
void hwc_a64_sm4e_cbc8_dec(const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t groups, uint8_t iv[16]);
void hwc_a64_sm4e_xts8(const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t groups, uint8_t tweak[16]);
void hwc_a64_sm4e_ocb8(const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t groups, const uint8_t (*L)[16],
                       uint64_t first_index, uint8_t state[32], int encrypt);
void hwc_a64_sm4e_gcm8(const uint32_t *rk, uint8_t *out, const uint8_t *in, size_t groups, const uint8_t ctr[16],
                       const struct hwc_ghash_key *hk, uint8_t state[16], int encrypt);

/* GHASH / POLYVAL of groups of eight blocks (ghash_pmull_bulk.S), the
 * "pmull" key layout below. */
void hwc_a64_ghash8(const struct hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t groups);
void hwc_a64_polyval8(const struct hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t groups);

/* ------------------------------------------------------- GHASH with PMULL */

/* Powers H^1..H^8 (dot powers, see above), each in swapped then normal
 * form: one aggregated reduction per 8 blocks. */
#define A64_GHASH_POWERS 8
typedef struct a64_ghash_key {
    alignas(16) uint8_t pow[A64_GHASH_POWERS][2][16]; /* [k-1][0] = R(H^k), [k-1][1] = N(H^k) */
} a64_ghash_key;
_Static_assert(sizeof(a64_ghash_key) <= HWC_GHASH_KEY_BYTES, "PMULL GHASH key must fit");

static inline const uint8_t *a64_ghash_pow(const hwc_ghash_key *k, unsigned power, unsigned form) {
    return k->bytes + offsetof(a64_ghash_key, pow) + 32 * (power - 1) + 16 * form;
}

/* The three partial products of an aggregated multiplication: for GHASH
 * (swapped-form data) `a` collects A.hi*B.hi and `b` A.lo*B.lo; for POLYVAL
 * (normal form) the other way round. */
typedef struct a64_gh_acc {
    poly128_t a, m, b;
} a64_gh_acc;

#define A64_PMULL(x, k) vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(x), 0), vgetq_lane_p64(vreinterpretq_p64_u8(k), 0))
#define A64_PMULL2(x, k) vmull_high_p64(vreinterpretq_p64_u8(x), vreinterpretq_p64_u8(k))
#define A64_P2V(p) vreinterpretq_u8_p128(p)
#define A64_V2P(v) vreinterpretq_p128_u8(v)

/* First product of a group / further products (k1: the key form that
 * matches the data's, k2: the other). */
#define A64_GH_FIRST(acc, x, k1, k2)                                                      \
    do {                                                                                  \
        (acc).a = A64_PMULL(x, k1);                                                       \
        (acc).b = A64_PMULL2(x, k1);                                                      \
        (acc).m = A64_V2P(veorq_u8(A64_P2V(A64_PMULL(x, k2)), A64_P2V(A64_PMULL2(x, k2)))); \
    } while (0)
#define A64_GH_MORE(acc, x, k1, k2)                                                        \
    do {                                                                                   \
        (acc).a = A64_V2P(veorq_u8(A64_P2V((acc).a), A64_P2V(A64_PMULL(x, k1))));          \
        (acc).b = A64_V2P(veorq_u8(A64_P2V((acc).b), A64_P2V(A64_PMULL2(x, k1))));         \
        (acc).m = A64_V2P(veorq_u8(veorq_u8(A64_P2V((acc).m), A64_P2V(A64_PMULL(x, k2))),   \
                                   A64_P2V(A64_PMULL2(x, k2))));                           \
    } while (0)
/* Same with EOR3 (SHA3 targets only). */
#define A64_GH_MORE3(acc, x, k1, k2)                                                       \
    do {                                                                                   \
        (acc).a = A64_V2P(veorq_u8(A64_P2V((acc).a), A64_P2V(A64_PMULL(x, k1))));          \
        (acc).b = A64_V2P(veorq_u8(A64_P2V((acc).b), A64_P2V(A64_PMULL2(x, k1))));         \
        (acc).m = A64_V2P(veor3q_u8(A64_P2V((acc).m), A64_P2V(A64_PMULL(x, k2)),           \
                                    A64_P2V(A64_PMULL2(x, k2))));                          \
    } while (0)

/* Montgomery reduction of lo + mid * x^64 + hi * x^128 (each 128 bits):
 * the product times x^-128 mod Q, in normal form. */
#define A64_GH_REDUCE_N(out, lo, mid, hi)                                                   \
    do {                                                                                    \
        const poly64_t c_ = (poly64_t)0xc200000000000000ull;                                \
        v128 lo_ = A64_P2V(lo);                                                             \
        v128 f_ = veorq_u8(veorq_u8(vextq_u8(lo_, lo_, 8),                                  \
                                    A64_P2V(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(lo_), 0), c_))), \
                           A64_P2V(mid));                                                   \
        (out) = veorq_u8(veorq_u8(vextq_u8(f_, f_, 8),                                      \
                                  A64_P2V(vmull_p64(vgetq_lane_p64(vreinterpretq_p64_u8(f_), 0), c_))), \
                         A64_P2V(hi));                                                      \
    } while (0)

/* GHASH of n (1..8) blocks already in swapped form (REV64 of GCM blocks),
 * x[0] already XORed with the state: returns the new state, swapped form.
 * x[i] is multiplied by H^(n-i). */
#define A64_GHASH_N(out, x, n, hk, MORE)                                                   \
    do {                                                                                   \
        a64_gh_acc acc_;                                                                   \
        A64_GH_FIRST(acc_, (x)[0], vld1q_u8(a64_ghash_pow(hk, (n), 0)), vld1q_u8(a64_ghash_pow(hk, (n), 1))); \
        HWC_A64_UNROLL                                                                     \
        for (unsigned i_ = 1; i_ < (n); i_++)                                              \
            MORE(acc_, (x)[i_], vld1q_u8(a64_ghash_pow(hk, (n) - i_, 0)), vld1q_u8(a64_ghash_pow(hk, (n) - i_, 1))); \
        v128 n_;                                                                           \
        A64_GH_REDUCE_N(n_, acc_.b, acc_.m, acc_.a);                                       \
        (out) = vextq_u8(n_, n_, 8);                                                       \
    } while (0)

/* ---------------------------------------------------------- small helpers */

/* n + one on 32-bit lanes, in assembly: clang otherwise rewrites a chain of
 * counter increments as n + j with one constant per block, and spills them
 * with the round keys. */
static inline __attribute__((always_inline)) uint32x4_t a64_ctr_inc(uint32x4_t n, uint32x4_t one) {
    uint32x4_t r;
    __asm__("add %0.4s, %1.4s, %2.4s" : "=w"(r) : "w"(n), "w"(one));
    return r;
}

/* 8 blocks from/to memory in two 4-register LD1/ST1. */
#define A64_LOAD8(b, p)                                  \
    do {                                                 \
        uint8x16x4_t l0_ = vld1q_u8_x4(p);               \
        uint8x16x4_t l1_ = vld1q_u8_x4((p) + 64);        \
        (b)[0] = l0_.val[0], (b)[1] = l0_.val[1];        \
        (b)[2] = l0_.val[2], (b)[3] = l0_.val[3];        \
        (b)[4] = l1_.val[0], (b)[5] = l1_.val[1];        \
        (b)[6] = l1_.val[2], (b)[7] = l1_.val[3];        \
    } while (0)
#define A64_STORE8(p, b)                                                                  \
    do {                                                                                  \
        uint8x16x4_t s0_ = {{(b)[0], (b)[1], (b)[2], (b)[3]}};                            \
        uint8x16x4_t s1_ = {{(b)[4], (b)[5], (b)[6], (b)[7]}};                            \
        vst1q_u8_x4((p), s0_);                                                            \
        vst1q_u8_x4((p) + 64, s1_);                                                       \
    } while (0)

#endif /* __aarch64__ */
#endif /* HWCRYPT_ARM_INTERNAL_H */
