/*
 * AES with the Armv8 Crypto Extensions (back end "armv8ce"): AESE/AESMC,
 * AESD/AESIMC, PMULL for XTS tweaks and, with the "pmull" GHASH back end's
 * key, fused GCM. The kernels are in aes_armv8ce_modes.h, shared with
 * "armv8ce-eor3" (aes_armv8ce_eor3.c); this file adds the key expansion.
 */
#if defined(__aarch64__)

#include "arm/arm_internal.h"
#include "getters.h"

/* SubWord(w) for a little-endian word (FIPS-197 byte 0 in bits 0..7): AESE
 * with a zero key on w in every column is SubBytes(ShiftRows(state)), and
 * ShiftRows moves nothing when the columns are equal. */
static HWC_A64_TARGET_CE uint32_t sub_word(uint32_t w) {
    v128 v = vaeseq_u8(vreinterpretq_u8_u32(vdupq_n_u32(w)), vdupq_n_u8(0));
    return vgetq_lane_u32(vreinterpretq_u32_u8(v), 0);
}

/* FIPS-197 5.2 word by word, for all three key sizes; the equivalent
 * inverse cipher's keys by AESIMC. */
HWC_A64_TARGET_CE void hwc_a64_aes_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    const unsigned nk = (unsigned)(key_len / 4), rounds = nk + 6, nwords = 4 * (rounds + 1);
    uint32_t w[4 * (A64_AES_MAX_ROUNDS + 1)];
    uint32_t rcon = 1;

    for (unsigned i = 0; i < nk; i++)
        w[i] = hwc_load_le32(key + 4 * i);
    for (unsigned i = nk; i < nwords; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word((t >> 8) | (t << 24)) ^ rcon; /* RotWord on little-endian bytes */
            rcon = (rcon << 1) ^ (0x11bu & (0u - (rcon >> 7))); /* xtime; rcon is public */
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    memset(ks->bytes, 0, sizeof ks->bytes);
    uint8_t *enc = ks->bytes + offsetof(a64_aes_schedule, enc);
    uint8_t *dec = ks->bytes + offsetof(a64_aes_schedule, dec);
    for (unsigned i = 0; i < nwords; i++)
        hwc_store_le32(enc + 4 * i, w[i]);
    memcpy(ks->bytes + offsetof(a64_aes_schedule, rounds), &(uint32_t){rounds}, sizeof(uint32_t));
    if (want_dec) {
        vst1q_u8(dec, vld1q_u8(enc + 16 * rounds));
        for (unsigned r = 1; r < rounds; r++)
            vst1q_u8(dec + 16 * r, vaesimcq_u8(vld1q_u8(enc + 16 * (rounds - r))));
        vst1q_u8(dec + 16 * rounds, vld1q_u8(enc));
    }
    hwc_wipe(w, sizeof w);
}

#define KT HWC_A64_TARGET_CE
#define KEOR3 0
#define KNAME(x) hwc_a64_ce_##x
#include "arm/aes_armv8ce_modes.h"

static const hwc_block_impl aes_armv8ce = {
    .name = "armv8ce",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_ARM_AES | HWC_CAP_ARM_PMULL,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "pmull",
    .set_key = hwc_a64_aes_set_key,
    .ecb_enc = hwc_a64_ce_ecb_enc,
    .ecb_dec = hwc_a64_ce_ecb_dec,
    .cbc_enc = hwc_a64_ce_cbc_enc,
    .cbc_dec = hwc_a64_ce_cbc_dec,
    .cfb_enc = hwc_a64_ce_cfb_enc,
    .cfb_dec = hwc_a64_ce_cfb_dec,
    .ofb = hwc_a64_ce_ofb,
    .ctr128 = hwc_a64_ce_ctr128,
    .ctr32 = hwc_a64_ce_ctr32,
    .xts_enc = hwc_a64_ce_xts_enc,
    .xts_dec = hwc_a64_ce_xts_dec,
    .cbc_mac = hwc_a64_ce_cbc_mac,
    .ocb_enc = hwc_a64_ce_ocb_enc,
    .ocb_dec = hwc_a64_ce_ocb_dec,
    .gcm_enc = hwc_a64_ce_gcm_enc,
    .gcm_dec = hwc_a64_ce_gcm_dec,
    .ccm_enc = hwc_a64_ce_ccm_enc,
    .ccm_dec = hwc_a64_ce_ccm_dec,
    .ctr32le = hwc_a64_ce_ctr32le,
    .kw_w = hwc_a64_ce_kw_w,
    .kw_winv = hwc_a64_ce_kw_winv,
};

const hwc_block_impl *hwc_aes_armv8ce_get(void) { return &aes_armv8ce; }

#endif
