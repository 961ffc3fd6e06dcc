/*
 * SM4 with the RISC-V vector crypto extensions: Zvksed (vsm4k key
 * expansion, vsm4r four rounds per instruction), Zvkb (vrev8: SM4's words
 * are big-endian, the element groups little-endian), Zvkg when present
 * (XTS tweak steps, fused GCM with ghash_zvkg). Same mode kernels as the
 * AES back end (zv_modes.h). Built by clang only (cmake/riscv-vector.cmake).
 *
 * Schedule: the 32 round keys as native words, in encryption order at
 * w32[0..31] and in decryption (reversed) order at w32[32..63], so both
 * directions run the same eight vsm4r.vs.
 */
#include "riscv/zv_common.h"
#include "getters.h"

#define SM4_DEC_WORD 32

static void sm4_zvksed_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)key_len;
    (void)want_dec; /* both orders, always: 128 bytes */
    static const uint32_t fk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
    zv_b k = __riscv_vrev8_v_u32m1(zv_load_b(key), 4);
    k = __riscv_vxor_vv_u32m1(k, __riscv_vle32_v_u32m1(fk, 4), 4);
#define SM4K(i) __riscv_vse32_v_u32m1(ks->w32 + 4 * (i), k = __riscv_vsm4k_vi_u32m1(k, i, 4), 4)
    SM4K(0); SM4K(1); SM4K(2); SM4K(3); SM4K(4); SM4K(5); SM4K(6); SM4K(7);
#undef SM4K
    for (int i = 0; i < 32; i++)
        ks->w32[SM4_DEC_WORD + i] = ks->w32[31 - i];
}

/* Round keys in registers, plus the word-reversal index: after 32 rounds
 * the group holds X32..X35 and SM4's output is X35..X32. */
#define SM4_KEYS(OFF)                                                                                 \
    const uint32_t *rk_ = ks->w32 + (OFF);                                                            \
    const zv_b k0 = zv_load_key(rk_), k1 = zv_load_key(rk_ + 4), k2 = zv_load_key(rk_ + 8),          \
               k3 = zv_load_key(rk_ + 12), k4 = zv_load_key(rk_ + 16), k5 = zv_load_key(rk_ + 20),   \
               k6 = zv_load_key(rk_ + 24), k7 = zv_load_key(rk_ + 28);                               \
    const size_t rev_vl_ = __riscv_vsetvlmax_e32m4();                                                 \
    const vuint32m4_t rev_w = __riscv_vxor_vx_u32m4(__riscv_vid_v_u32m4(rev_vl_), 3, rev_vl_);        \
    const vuint32m1_t rev_b = __riscv_vlmul_trunc_v_u32m4_u32m1(rev_w)

/* The LMUL=8 kernels' keys (see AES_KEYS8 in aes_zvkned.c): the eight
 * round-key groups in v8..v15, the 16-bit reversal index in v4..v7. */
#define SM4_KEYS8(OFF)                                                                                \
    const uint32_t *rk_ = ks->w32 + (OFF);                                                            \
    vuint32m8_t ka0_ = __riscv_vundefined_u32m8();                                                   \
    for (int i_ = 0; i_ < 8; i_++)                                                                   \
        ka0_ = zv_set8_key(ka0_, i_, zv_load_key(rk_ + 4 * i_));                                     \
    ZV_PINNED(vuint32m8_t, ka_, "v8", ka0_);                                                         \
    ZV_PINNED(vuint16m4_t, rev_h8, "v4",                                                             \
              __riscv_vxor_vx_u16m4(__riscv_vid_v_u16m4(__riscv_vsetvlmax_e16m4()), 3,               \
                                    __riscv_vsetvlmax_e16m4()));                                     \
    const zv_b k0 = __riscv_vget_v_u32m8_u32m1(ka_, 0), k1 = __riscv_vget_v_u32m8_u32m1(ka_, 1),     \
               k2 = __riscv_vget_v_u32m8_u32m1(ka_, 2), k3 = __riscv_vget_v_u32m8_u32m1(ka_, 3),     \
               k4 = __riscv_vget_v_u32m8_u32m1(ka_, 4), k5 = __riscv_vget_v_u32m8_u32m1(ka_, 5),     \
               k6 = __riscv_vget_v_u32m8_u32m1(ka_, 6), k7 = __riscv_vget_v_u32m8_u32m1(ka_, 7)

#define SM4_CRYPT(s, vl, T, IDX)                                 \
    do {                                                         \
        s = __riscv_vrev8_v_##T(s, vl);                          \
        SM4_ROUNDS(s, vl, T);                                    \
        s = __riscv_vrgather_vv_##T(s, IDX, vl);                 \
        s = __riscv_vrev8_v_##T(s, vl);                          \
    } while (0)
#define SM4_ROUNDS(s, vl, T)                                     \
    do {                                                         \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k0, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k1, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k2, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k3, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k4, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k5, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k6, vl);               \
        s = __riscv_vsm4r_vs_u32m1_##T(s, k7, vl);               \
    } while (0)
/* LMUL=8 (the parallel modes): the word reversal takes 16-bit indices
 * (vrgatherei16, rev_h8: four registers, not eight, so two groups of
 * blocks still fit). Its destination is a second group, so no load may be
 * scheduled above it (ZV_PIN). _NATIVE: the input is in native words
 * already (CTR counters), which is what the leading vrev8 would make:
 * skip it. */
#define SM4_CRYPT8_NATIVE(s, vl)                                 \
    do {                                                         \
        SM4_ROUNDS(s, vl, u32m8);                                \
        s = __riscv_vrgatherei16_vv_u32m8(s, rev_h8, vl);        \
        ZV_PIN(s);                                               \
        s = __riscv_vrev8_v_u32m8(s, vl);                        \
    } while (0)
#define SM4_CRYPT8(s, vl)                                        \
    do {                                                         \
        s = __riscv_vrev8_v_u32m8(s, vl);                        \
        SM4_CRYPT8_NATIVE(s, vl);                                \
    } while (0)

static const hwc_block_impl sm4_zvksed_impl;
#define ZV_IMPL (&sm4_zvksed_impl)
#define ZV_FN(name) sm4v_##name
#define ZV_KEYS_ENC SM4_KEYS(0); (void)rev_b; (void)rev_w
#define ZV_KEYS_DEC SM4_KEYS(SM4_DEC_WORD); (void)rev_b; (void)rev_w
#define ZV_ENC_W(s, vl) SM4_CRYPT(s, vl, u32m4, rev_w)
#define ZV_DEC_W(s, vl) SM4_CRYPT(s, vl, u32m4, rev_w)
#define ZV_ENC_B(s) SM4_CRYPT(s, 4, u32m1, rev_b)
#define ZV_ENC_W8(s, vl) SM4_CRYPT8(s, vl)
#define ZV_DEC_W8(s, vl) SM4_CRYPT8(s, vl)
#define ZV_ENC_W8_NATIVE(s, vl) SM4_CRYPT8_NATIVE(s, vl)
#define ZV_KEYS_ENC8 SM4_KEYS8(0)
#define ZV_KEYS_DEC8 SM4_KEYS8(SM4_DEC_WORD)
#define ZV_KEYS8(decrypt) SM4_KEYS8((decrypt) ? SM4_DEC_WORD : 0)
#define ZV_W8_IN_PLACE 0
/* CBC-MAC chain form (zv_chain.h): data enter byte-swapped (X = vrev8(P))
 * and the chain state is the block after the eight vsm4r, before its word
 * reversal and byte swap, so a block costs the reversal, an xor and the
 * rounds. */
#define ZV_MAC_KEYS (void)0
#define ZV_MAC_PREP(x, vl, T) (x = __riscv_vrev8_v_##T(x, vl))
#define ZV_MAC_ENTER(m) __riscv_vrgather_vv_u32m1(__riscv_vrev8_v_u32m1(m, 4), rev_b, 4)
#define ZV_MAC_STEP(t, x)                                                        \
    do {                                                                         \
        t = __riscv_vxor_vv_u32m1(__riscv_vrgather_vv_u32m1(t, rev_b, 4), x, 4); \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k0, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k1, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k2, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k3, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k4, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k5, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k6, 4);                              \
        t = __riscv_vsm4r_vs_u32m1_u32m1(t, k7, 4);                              \
    } while (0)
#define ZV_MAC_LEAVE(t) __riscv_vrev8_v_u32m1(__riscv_vrgather_vv_u32m1(t, rev_b, 4), 4)
/* d = E(s), s kept (CFB): the leading vrev8 already writes a new register. */
#define ZV_ENC_B_FROM(d, s)                                                      \
    do {                                                                         \
        d = s;                                                                   \
        SM4_CRYPT(d, 4, u32m1, rev_b);                                           \
    } while (0)
/* Fused GCM (zv_gcm.h): the native-word counters are already what
 * SM4_CRYPT's leading vrev8 makes of counter blocks, so the rounds start on
 * them (the two byte swaps cancel); the word reversal takes 16-bit indices
 * (vrgatherei16: half the registers of rev_w, which the fused loop lacks). */
#define ZV_GCM_KEYS                                                                              \
    ZV_KEYS_ENC;                                                                                 \
    const vuint16m2_t rev_h = __riscv_vxor_vx_u16m2(__riscv_vid_v_u16m2(rev_vl_), 3, rev_vl_)
#define ZV_GCM_CTR_W(k, c, vl)                                   \
    do {                                                         \
        k = __riscv_vsm4r_vs_u32m1_u32m4(c, k0, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k1, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k2, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k3, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k4, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k5, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k6, vl);             \
        k = __riscv_vsm4r_vs_u32m1_u32m4(k, k7, vl);             \
        k = __riscv_vrgatherei16_vv_u32m4(k, rev_h, vl);         \
        k = __riscv_vrev8_v_u32m4(k, vl);                        \
    } while (0)
#define ZV_GCM_HG_IN_REG 0
#define ZV_GCM_W8 0
#include "riscv/zv_modes.h"

static const hwc_block_impl sm4_zvksed_impl = {
    .name = "zvksed",
    .family = HWC_FAMILY_SM4,
    .required_caps = HWC_CAP_V | HWC_CAP_ZVKSED | HWC_CAP_ZVKB,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "zvkg",
    .note = NULL,
    .usable = zv_usable_vlen,
    .set_key = sm4_zvksed_set_key,
    .ecb_enc = sm4v_ecb_enc,
    .ecb_dec = sm4v_ecb_dec,
    .cbc_enc = sm4v_cbc_enc,
    .cbc_dec = sm4v_cbc_dec,
    .cfb_enc = sm4v_cfb_enc,
    .cfb_dec = sm4v_cfb_dec,
    .ofb = sm4v_ofb,
    .ctr128 = sm4v_ctr128,
    .ctr32 = sm4v_ctr32,
    .xts_enc = sm4v_xts_enc,
    .xts_dec = sm4v_xts_dec,
    .cbc_mac = sm4v_cbc_mac,
    .ocb_enc = sm4v_ocb_enc,
    .ocb_dec = sm4v_ocb_dec,
    .gcm_enc = sm4v_gcm_enc,
    .gcm_dec = sm4v_gcm_dec,
    .ccm_enc = sm4v_ccm_enc,
    .ccm_dec = sm4v_ccm_dec,
};

const hwc_block_impl *hwc_sm4_zvksed_get(void) {
    return &sm4_zvksed_impl;
}
