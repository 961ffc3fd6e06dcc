/*
 * "armv8ce-eor3": the AES kernels of "armv8ce" (aes_armv8ce_modes.h) built
 * for cores with SHA3, where every place three values meet (the last round
 * key, the cipher output and the data or offset; GHASH's partial products
 * in fused GCM) is one EOR3. ECB, CBC encryption and CBC-MAC have no such
 * place and are "armv8ce"'s. EOR3 issues on fewer pipes than EOR, so it is
 * used only where the loop is bound by AESE/AESMC or PMULL anyway
 * (docs/PERFORMANCE.md).
 */
#if defined(__aarch64__)

#include "arm/arm_internal.h"
#include "getters.h"

#define KT HWC_A64_TARGET_CE_SHA3
#define KEOR3 1
#define KNAME(x) ce3_##x
#include "arm/aes_armv8ce_modes.h"

static const hwc_block_impl aes_armv8ce_eor3 = {
    .name = "armv8ce-eor3",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_ARM_AES | HWC_CAP_ARM_PMULL | HWC_CAP_ARM_SHA3,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "pmull",
    .set_key = hwc_a64_aes_set_key,
    .ecb_enc = hwc_a64_ce_ecb_enc,
    .ecb_dec = hwc_a64_ce_ecb_dec,
    .cbc_enc = hwc_a64_ce_cbc_enc,
    .cbc_dec = ce3_cbc_dec,
    .cfb_enc = ce3_cfb_enc,
    .cfb_dec = ce3_cfb_dec,
    .ofb = ce3_ofb,
    .ctr128 = ce3_ctr128,
    .ctr32 = ce3_ctr32,
    .xts_enc = ce3_xts_enc,
    .xts_dec = ce3_xts_dec,
    .cbc_mac = hwc_a64_ce_cbc_mac,
    .ocb_enc = ce3_ocb_enc,
    .ocb_dec = ce3_ocb_dec,
    .gcm_enc = ce3_gcm_enc,
    .gcm_dec = ce3_gcm_dec,
    .ccm_enc = ce3_ccm_enc,
    .ccm_dec = ce3_ccm_dec,
    .ctr32le = ce3_ctr32le,
    .kw_w = hwc_a64_ce_kw_w,
    .kw_winv = hwc_a64_ce_kw_winv,
};

const hwc_block_impl *hwc_aes_armv8ce_eor3_get(void) { return &aes_armv8ce_eor3; }

#endif
