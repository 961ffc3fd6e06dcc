/*
 * AES with the RISC-V vector crypto extensions: Zvkned (rounds, AES-128/256
 * key expansion), Zvkb (vrev8 for the big-endian CTR counter, vbrev8 for
 * XTS tweaks), Zvkg when present (XTS tweak steps, fused GCM). VLEN-agnostic
 * from 128 bits up; see zv_common.h for layout and alignment, zv_modes.h
 * for the mode kernels. Built by clang only (cmake/riscv-vector.cmake).
 *
 * Schedule: round keys 0..Nr as 16-byte groups at the start of hwc_ks, the
 * round count after them. Zvkned's decryption rounds (vaesdm/vaesdf) are
 * the plain inverse cipher, so encryption and decryption share one
 * schedule. AES-192 has no Zvkned expansion instruction: it is expanded in
 * scalar code whose SubWord runs through vaesef (below), so no table
 * lookup touches the key.
 */
#include "riscv/zv_common.h"
#include "getters.h"

#define AES_ROUNDS_WORD 64 /* ks->w32 index of the round count */

/* SubWord(w): w in all four columns, so ShiftRows is the identity and the
 * final round with a zero key leaves SubBytes in every column. */
static uint32_t aes_subword(uint32_t w) {
    zv_b s = __riscv_vmv_v_x_u32m1(w, 4);
    s = __riscv_vaesef_vs_u32m1_u32m1(s, __riscv_vmv_v_x_u32m1(0, 4), 4);
    return __riscv_vmv_x_s_u32m1_u32(s);
}

static void aes192_expand(hwc_ks *ks, const uint8_t *key) {
    static const uint8_t rcon[8] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80};
    uint32_t *w = ks->w32;
    for (int i = 0; i < 6; i++)
        w[i] = hwc_load_le32(key + 4 * i);
    for (int i = 6; i < 52; i++) {
        uint32_t t = w[i - 1];
        if (i % 6 == 0) {
            t = aes_subword(t);
            t = ((t >> 8) | (t << 24)) ^ rcon[i / 6 - 1]; /* RotWord on little-endian words */
        }
        w[i] = w[i - 6] ^ t;
    }
}

#define KF1(i) __riscv_vse32_v_u32m1(ks->w32 + 4 * (i), k = __riscv_vaeskf1_vi_u32m1(k, i, 4), 4)
#define KF2(i) __riscv_vse32_v_u32m1(ks->w32 + 4 * (i), (i) % 2 ? (ka = __riscv_vaeskf2_vi_u32m1(ka, kb, i, 4)) \
                                                                : (kb = __riscv_vaeskf2_vi_u32m1(kb, ka, i, 4)), 4)

static void aes_zvkned_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)want_dec; /* one schedule serves both directions */
    if (key_len == 16) {
        zv_b k = zv_load_b(key);
        __riscv_vse32_v_u32m1(ks->w32, k, 4);
        KF1(1); KF1(2); KF1(3); KF1(4); KF1(5); KF1(6); KF1(7); KF1(8); KF1(9); KF1(10);
        ks->w32[AES_ROUNDS_WORD] = 10;
    } else if (key_len == 24) {
        aes192_expand(ks, key);
        ks->w32[AES_ROUNDS_WORD] = 12;
    } else {
        /* ka: the odd round keys, kb: the even ones; vaeskf2 takes round
         * key i-2 (overwritten with key i) and round key i-1. */
        zv_b kb = zv_load_b(key), ka = zv_load_b(key + 16);
        __riscv_vse32_v_u32m1(ks->w32, kb, 4);
        __riscv_vse32_v_u32m1(ks->w32 + 4, ka, 4);
        KF2(2); KF2(3); KF2(4); KF2(5); KF2(6); KF2(7); KF2(8); KF2(9); KF2(10); KF2(11); KF2(12); KF2(13); KF2(14);
        ks->w32[AES_ROUNDS_WORD] = 14;
    }
}
#undef KF1
#undef KF2

/* Round keys in registers: k11..k14 alias k10 below AES-256 (unused). */
#define AES_KEYS(NR)                                                                                      \
    const uint32_t *rk_ = ks->w32;                                                                        \
    const zv_b k0 = zv_load_key(rk_), k1 = zv_load_key(rk_ + 4), k2 = zv_load_key(rk_ + 8),              \
               k3 = zv_load_key(rk_ + 12), k4 = zv_load_key(rk_ + 16), k5 = zv_load_key(rk_ + 20),       \
               k6 = zv_load_key(rk_ + 24), k7 = zv_load_key(rk_ + 28), k8 = zv_load_key(rk_ + 32),       \
               k9 = zv_load_key(rk_ + 36), k10 = zv_load_key(rk_ + 40);                                  \
    const zv_b k11 = (NR) > 10 ? zv_load_key(rk_ + 44) : k10, k12 = (NR) > 10 ? zv_load_key(rk_ + 48) : k10, \
               k13 = (NR) > 12 ? zv_load_key(rk_ + 52) : k10, k14 = (NR) > 12 ? zv_load_key(rk_ + 56) : k10

/* The same for the LMUL=8 kernels, which leave room for exactly two groups
 * of blocks (v16..v31) beside v0 and the keys: the keys are built as one
 * register group per power of two (k0..k7 in v8..v15, k8..k11 in v4..v7,
 * k12..k13 in v2..v3, the last in v1) and read as their registers, so
 * clang's allocator does not scatter them over the groups the blocks
 * need (it takes v8 upwards first). */
#define AES_KEYS8(NR)                                                                                     \
    const uint32_t *rk_ = ks->w32;                                                                        \
    vuint32m8_t ka0_ = __riscv_vundefined_u32m8();                                                       \
    vuint32m4_t kb0_ = __riscv_vundefined_u32m4();                                                       \
    vuint32m2_t kc0_ = __riscv_vundefined_u32m2();                                                       \
    for (int i_ = 0; i_ < 8; i_++)                                                                       \
        ka0_ = zv_set8_key(ka0_, i_, zv_load_key(rk_ + 4 * i_));                                         \
    for (int i_ = 0; i_ < 4 && 8 + i_ < (NR); i_++)                                                      \
        kb0_ = zv_set4_key(kb0_, i_, zv_load_key(rk_ + 32 + 4 * i_));                                    \
    for (int i_ = 0; i_ < 2 && 12 + i_ < (NR); i_++)                                                     \
        kc0_ = zv_set2_key(kc0_, i_, zv_load_key(rk_ + 48 + 4 * i_));                                    \
    ZV_PINNED(vuint32m8_t, ka_, "v8", ka0_);                                                             \
    ZV_PINNED(vuint32m4_t, kb_, "v4", kb0_);                                                             \
    ZV_PINNED(vuint32m2_t, kc_, "v2", kc0_);                                                             \
    ZV_PINNED(vuint32m1_t, kd_, "v1", zv_load_key(rk_ + 4 * (NR)));                                      \
    const zv_b k0 = __riscv_vget_v_u32m8_u32m1(ka_, 0), k1 = __riscv_vget_v_u32m8_u32m1(ka_, 1),         \
               k2 = __riscv_vget_v_u32m8_u32m1(ka_, 2), k3 = __riscv_vget_v_u32m8_u32m1(ka_, 3),         \
               k4 = __riscv_vget_v_u32m8_u32m1(ka_, 4), k5 = __riscv_vget_v_u32m8_u32m1(ka_, 5),         \
               k6 = __riscv_vget_v_u32m8_u32m1(ka_, 6), k7 = __riscv_vget_v_u32m8_u32m1(ka_, 7),         \
               k8 = __riscv_vget_v_u32m4_u32m1(kb_, 0), k9 = __riscv_vget_v_u32m4_u32m1(kb_, 1);         \
    const zv_b k10 = (NR) == 10 ? kd_ : __riscv_vget_v_u32m4_u32m1(kb_, 2);                              \
    const zv_b k11 = (NR) == 10 ? kd_ : __riscv_vget_v_u32m4_u32m1(kb_, 3);                              \
    const zv_b k12 = (NR) == 14 ? __riscv_vget_v_u32m2_u32m1(kc_, 0) : kd_;                              \
    const zv_b k13 = (NR) == 14 ? __riscv_vget_v_u32m2_u32m1(kc_, 1) : kd_, k14 = kd_

/* vaesz: round 0 (AddRoundKey); vaesem: middle rounds; vaesef: last. The
 * .vs forms apply one round key to every block of the group. */
#define AES_ENC(NR, s, vl, T)                                                                  \
    do {                                                                                       \
        s = __riscv_vaesz_vs_u32m1_##T(s, k0, vl);                                             \
        s = __riscv_vaesem_vs_u32m1_##T(s, k1, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k2, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k3, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k4, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k5, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k6, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k7, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k8, vl);                                            \
        s = __riscv_vaesem_vs_u32m1_##T(s, k9, vl);                                            \
        if ((NR) == 10) {                                                                      \
            s = __riscv_vaesef_vs_u32m1_##T(s, k10, vl);                                       \
        } else {                                                                               \
            s = __riscv_vaesem_vs_u32m1_##T(s, k10, vl);                                       \
            s = __riscv_vaesem_vs_u32m1_##T(s, k11, vl);                                       \
            if ((NR) == 12) {                                                                  \
                s = __riscv_vaesef_vs_u32m1_##T(s, k12, vl);                                   \
            } else {                                                                           \
                s = __riscv_vaesem_vs_u32m1_##T(s, k12, vl);                                   \
                s = __riscv_vaesem_vs_u32m1_##T(s, k13, vl);                                   \
                s = __riscv_vaesef_vs_u32m1_##T(s, k14, vl);                                   \
            }                                                                                  \
        }                                                                                      \
    } while (0)

#define AES_DEC(NR, s, vl, T)                                                                  \
    do {                                                                                       \
        if ((NR) == 14) {                                                                      \
            s = __riscv_vaesz_vs_u32m1_##T(s, k14, vl);                                        \
            s = __riscv_vaesdm_vs_u32m1_##T(s, k13, vl);                                       \
            s = __riscv_vaesdm_vs_u32m1_##T(s, k12, vl);                                       \
            s = __riscv_vaesdm_vs_u32m1_##T(s, k11, vl);                                       \
            s = __riscv_vaesdm_vs_u32m1_##T(s, k10, vl);                                       \
        } else if ((NR) == 12) {                                                               \
            s = __riscv_vaesz_vs_u32m1_##T(s, k12, vl);                                        \
            s = __riscv_vaesdm_vs_u32m1_##T(s, k11, vl);                                       \
            s = __riscv_vaesdm_vs_u32m1_##T(s, k10, vl);                                       \
        } else {                                                                               \
            s = __riscv_vaesz_vs_u32m1_##T(s, k10, vl);                                        \
        }                                                                                      \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k9, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k8, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k7, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k6, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k5, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k4, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k3, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k2, vl);                                            \
        s = __riscv_vaesdm_vs_u32m1_##T(s, k1, vl);                                            \
        s = __riscv_vaesdf_vs_u32m1_##T(s, k0, vl);                                            \
    } while (0)

static const hwc_block_impl aes_zvkned_impl;
#define ZV_IMPL (&aes_zvkned_impl)

/* One instance of the mode kernels per key size. */
#define ZV_KEYS_ENC AES_KEYS(ZV_NR)
#define ZV_KEYS_DEC AES_KEYS(ZV_NR)
#define ZV_ENC_W(s, vl) AES_ENC(ZV_NR, s, vl, u32m4)
#define ZV_DEC_W(s, vl) AES_DEC(ZV_NR, s, vl, u32m4)
#define ZV_ENC_B(s) AES_ENC(ZV_NR, s, 4, u32m1)
#define ZV_ENC_W8(s, vl) AES_ENC(ZV_NR, s, vl, u32m8)
#define ZV_DEC_W8(s, vl) AES_DEC(ZV_NR, s, vl, u32m8)
#define ZV_KEYS_ENC8 AES_KEYS8(ZV_NR)
#define ZV_KEYS_DEC8 AES_KEYS8(ZV_NR)
#define ZV_KEYS8(decrypt) AES_KEYS8(ZV_NR) /* one schedule serves both directions */
#define ZV_W8_IN_PLACE 1
#define ZV_ENC_W8_NATIVE(s, vl)                                                                \
    do {                                                                                       \
        s = __riscv_vrev8_v_u32m8(s, vl);                                                      \
        ZV_ENC_W8(s, vl);                                                                      \
    } while (0)
/* CBC-MAC chain form (zv_chain.h): data enter as X = P ^ k0 ^ kNr and the
 * chain state is the block before its last round, so one vaesef.vv keyed
 * with X_i ends block i-1 and begins block i; then the middle rounds.
 * ENTER inverts the last round (vaesdf with a zero key) to start the chain. */
#define AES_KEY_(n) k##n
#define AES_KEY(n) AES_KEY_(n)
#define AES_MAC_MID(NR, s)                                                                     \
    do {                                                                                       \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k1, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k2, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k3, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k4, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k5, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k6, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k7, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k8, 4);                                           \
        s = __riscv_vaesem_vs_u32m1_u32m1(s, k9, 4);                                           \
        if ((NR) > 10) {                                                                       \
            s = __riscv_vaesem_vs_u32m1_u32m1(s, k10, 4);                                      \
            s = __riscv_vaesem_vs_u32m1_u32m1(s, k11, 4);                                      \
        }                                                                                      \
        if ((NR) > 12) {                                                                       \
            s = __riscv_vaesem_vs_u32m1_u32m1(s, k12, 4);                                      \
            s = __riscv_vaesem_vs_u32m1_u32m1(s, k13, 4);                                      \
        }                                                                                      \
    } while (0)
#define ZV_MAC_KEYS const zv_b kmac_ = __riscv_vxor_vv_u32m1(k0, AES_KEY(ZV_NR), 4); (void)k14
#define ZV_MAC_PREP(x, vl, T) (x = __riscv_vaesz_vs_u32m1_##T(x, kmac_, vl))
#define ZV_MAC_ENTER(m)                                                                        \
    __riscv_vaesdf_vs_u32m1_u32m1(__riscv_vxor_vv_u32m1(m, AES_KEY(ZV_NR), 4), __riscv_vmv_v_x_u32m1(0, 4), 4)
#define ZV_MAC_STEP(t, x)                                                                      \
    do {                                                                                       \
        t = __riscv_vaesef_vv_u32m1(t, x, 4);                                                  \
        AES_MAC_MID(ZV_NR, t);                                                                 \
    } while (0)
#define ZV_MAC_LEAVE(t) __riscv_vaesef_vs_u32m1_u32m1(t, AES_KEY(ZV_NR), 4)
/* d = E(s), s kept (CFB's output is the next input): round 0 as a
 * three-operand vxor instead of the destructive vaesz, so no copy. */
#define ZV_ENC_B_FROM(d, s)                                                                    \
    do {                                                                                       \
        d = __riscv_vxor_vv_u32m1(s, k0, 4);                                                   \
        AES_MAC_MID(ZV_NR, d);                                                                 \
        d = __riscv_vaesef_vs_u32m1_u32m1(d, AES_KEY(ZV_NR), 4);                               \
    } while (0)
/* Fused GCM (zv_gcm.h): the counter blocks are vrev8 of the native-word
 * counters. AES-128's 11 round keys leave five register groups free:
 * counters, keystream, data, GHASH accumulator and H^G all stay in
 * registers; AES-192/256 reload H^G per group. */
#define ZV_GCM_KEYS ZV_KEYS_ENC
#define ZV_GCM_CTR_W(k, c, vl)                                                                 \
    do {                                                                                       \
        k = __riscv_vrev8_v_u32m4(c, vl);                                                      \
        ZV_ENC_W(k, vl);                                                                       \
    } while (0)
#define ZV_GCM_HG_IN_REG (ZV_NR == 10)
/* AES-128 also runs pairs of groups at LMUL=8: its 11 round keys fit
 * beside v0 and two LMUL=8 groups. They are made in v8..v15 (k0..k7) and
 * v1..v3 (k8; k9..k10) by an empty asm on each register group: without
 * that hint clang's allocator spills some of them in the decryption loop. */
#define ZV_GCM_W8 (ZV_NR == 10)
#define AES_GCM_PIN(T, name, reg, init)    \
    register T name __asm__(reg) = (init); \
    __asm__ volatile("" : "+vr"(name))
#define ZV_GCM_KEYS8                                                                                     \
    const uint32_t *rk_ = ks->w32;                                                                       \
    AES_GCM_PIN(vuint32m8_t, kg8_, "v8",                                                                 \
                __riscv_vcreate_v_u32m1_u32m8(zv_load_key(rk_), zv_load_key(rk_ + 4), zv_load_key(rk_ + 8), \
                                              zv_load_key(rk_ + 12), zv_load_key(rk_ + 16),             \
                                              zv_load_key(rk_ + 20), zv_load_key(rk_ + 24),             \
                                              zv_load_key(rk_ + 28)));                                  \
    AES_GCM_PIN(vuint32m1_t, kg1_, "v1", zv_load_key(rk_ + 32));                                         \
    AES_GCM_PIN(vuint32m2_t, kg2_, "v2",                                                                 \
                __riscv_vcreate_v_u32m1_u32m2(zv_load_key(rk_ + 36), zv_load_key(rk_ + 40)));           \
    const zv_b k0 = __riscv_vget_v_u32m8_u32m1(kg8_, 0), k1 = __riscv_vget_v_u32m8_u32m1(kg8_, 1),      \
               k2 = __riscv_vget_v_u32m8_u32m1(kg8_, 2), k3 = __riscv_vget_v_u32m8_u32m1(kg8_, 3),      \
               k4 = __riscv_vget_v_u32m8_u32m1(kg8_, 4), k5 = __riscv_vget_v_u32m8_u32m1(kg8_, 5),      \
               k6 = __riscv_vget_v_u32m8_u32m1(kg8_, 6), k7 = __riscv_vget_v_u32m8_u32m1(kg8_, 7),      \
               k8 = kg1_, k9 = __riscv_vget_v_u32m2_u32m1(kg2_, 0), k10 = __riscv_vget_v_u32m2_u32m1(kg2_, 1); \
    const zv_b k11 = k10, k12 = k10, k13 = k10, k14 = k10

#define ZV_NR 10
#define ZV_FN(name) aes128_##name
#include "riscv/zv_modes.h"
#undef ZV_NR
#undef ZV_FN
#define ZV_NR 12
#define ZV_FN(name) aes192_##name
#include "riscv/zv_modes.h"
#undef ZV_NR
#undef ZV_FN
#define ZV_NR 14
#define ZV_FN(name) aes256_##name
#include "riscv/zv_modes.h"
#undef ZV_NR
#undef ZV_FN

/* The table's kernels pick the instance from the round count (public). */
#define AES_BY_ROUNDS(call)                                     \
    do {                                                        \
        switch (ks->w32[AES_ROUNDS_WORD]) {                     \
        case 10: aes128_##call; break;                          \
        case 12: aes192_##call; break;                          \
        default: aes256_##call; break;                          \
        }                                                       \
    } while (0)
#define AES_BY_ROUNDS_RET(call)                                 \
    do {                                                        \
        switch (ks->w32[AES_ROUNDS_WORD]) {                     \
        case 10: return aes128_##call;                          \
        case 12: return aes192_##call;                          \
        default: return aes256_##call;                          \
        }                                                       \
    } while (0)

static void aes_zvkned_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {
    AES_BY_ROUNDS(ecb_enc(ks, out, in, n));
}
static void aes_zvkned_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {
    AES_BY_ROUNDS(ecb_dec(ks, out, in, n));
}
#define AES_CHAIN_KERNEL(op)                                                                                  \
    static void aes_zvkned_##op(const hwc_ks *ks, uint8_t chain[16], uint8_t *out, const uint8_t *in, size_t n) { \
        AES_BY_ROUNDS(op(ks, chain, out, in, n));                                                              \
    }
AES_CHAIN_KERNEL(cbc_enc)
AES_CHAIN_KERNEL(cbc_dec)
AES_CHAIN_KERNEL(cfb_enc)
AES_CHAIN_KERNEL(cfb_dec)
AES_CHAIN_KERNEL(ofb)
AES_CHAIN_KERNEL(ctr32)
AES_CHAIN_KERNEL(ctr128)
AES_CHAIN_KERNEL(xts_enc)
AES_CHAIN_KERNEL(xts_dec)
static void aes_zvkned_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t n) {
    AES_BY_ROUNDS(cbc_mac(ks, mac, in, n));
}
static void aes_zvkned_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t off[16], uint8_t sum[16],
                               uint8_t *out, const uint8_t *in, size_t n) {
    AES_BY_ROUNDS(ocb_enc(ks, L, i, off, sum, out, in, n));
}
static void aes_zvkned_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t off[16], uint8_t sum[16],
                               uint8_t *out, const uint8_t *in, size_t n) {
    AES_BY_ROUNDS(ocb_dec(ks, L, i, off, sum, out, in, n));
}
static size_t aes_zvkned_gcm_enc(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t st[16],
                                 uint8_t *out, const uint8_t *in, size_t n) {
    AES_BY_ROUNDS_RET(gcm_enc(ks, hk, ctr, st, out, in, n));
}
static size_t aes_zvkned_gcm_dec(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t st[16],
                                 uint8_t *out, const uint8_t *in, size_t n) {
    AES_BY_ROUNDS_RET(gcm_dec(ks, hk, ctr, st, out, in, n));
}

static void aes_zvkned_ccm_enc(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                               size_t n) {
    AES_BY_ROUNDS(ccm_enc(ks, ctr, mac, out, in, n));
}
static void aes_zvkned_ccm_dec(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                               size_t n) {
    AES_BY_ROUNDS(ccm_dec(ks, ctr, mac, out, in, n));
}

static const hwc_block_impl aes_zvkned_impl = {
    .name = "zvkned",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_V | HWC_CAP_ZVKNED | HWC_CAP_ZVKB,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "zvkg",
    .note = NULL,
    .usable = zv_usable_vlen,
    .set_key = aes_zvkned_set_key,
    .ecb_enc = aes_zvkned_ecb_enc,
    .ecb_dec = aes_zvkned_ecb_dec,
    .cbc_enc = aes_zvkned_cbc_enc,
    .cbc_dec = aes_zvkned_cbc_dec,
    .cfb_enc = aes_zvkned_cfb_enc,
    .cfb_dec = aes_zvkned_cfb_dec,
    .ofb = aes_zvkned_ofb,
    .ctr128 = aes_zvkned_ctr128,
    .ctr32 = aes_zvkned_ctr32,
    .xts_enc = aes_zvkned_xts_enc,
    .xts_dec = aes_zvkned_xts_dec,
    .cbc_mac = aes_zvkned_cbc_mac,
    .ocb_enc = aes_zvkned_ocb_enc,
    .ocb_dec = aes_zvkned_ocb_dec,
    .gcm_enc = aes_zvkned_gcm_enc,
    .gcm_dec = aes_zvkned_gcm_dec,
    .ccm_enc = aes_zvkned_ccm_enc,
    .ccm_dec = aes_zvkned_ccm_dec,
};

const hwc_block_impl *hwc_aes_zvkned_get(void) {
    return &aes_zvkned_impl;
}
