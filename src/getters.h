/* Every back end's getter, for dispatch (src/dispatch.c) and for the back
 * end that defines it. A getter returns the back end's const table, or NULL
 * when it is not compiled in; availability on this CPU is decided by
 * dispatch from required_caps and usable(). A new back end adds its getter
 * here and to the priority lists of src/dispatch.c. */
#ifndef HWCRYPT_GETTERS_H
#define HWCRYPT_GETTERS_H

#include "backend.h"

/* Portable (src/ct/). */
const hwc_block_impl *hwc_aes_ct_get(void);
const hwc_block_impl *hwc_sm4_ct_get(void);
const hwc_ghash_impl *hwc_ghash_ct_get(void);
/* Test hook: the portable SM4 S-box evaluated by its circuit for all 256 inputs. */
void hwc_sm4_ct_sbox_for_test(uint8_t table[256]);
/* x86-64 (src/x86/): NULL on other architectures. */
const hwc_block_impl *hwc_aes_aesni_get(void);
const hwc_block_impl *hwc_aes_vaes_get(void);
const hwc_block_impl *hwc_aes_vaes512_get(void);
const hwc_block_impl *hwc_sm4_aesni_get(void);
const hwc_block_impl *hwc_sm4_gfni_get(void);
const hwc_block_impl *hwc_sm4_gfni512_get(void);
const hwc_ghash_impl *hwc_ghash_pclmul_get(void);
const hwc_ghash_impl *hwc_ghash_vpclmul_get(void);
const hwc_ghash_impl *hwc_ghash_vpclmul512_get(void);

/* RISC-V (src/riscv/): each is declared only where its file is compiled. */
#if defined(__riscv) && __riscv_xlen == 64
/* AES with Zkne + Zknd (riscv/aes_zkn.c). */
const hwc_block_impl *hwc_aes_zkn64_get(void);
/* AES with Zkne only: hardware for every kernel that encrypts blocks, the
 * portable ct AES for the decryption direction (riscv/aes_zkn.c). */
const hwc_block_impl *hwc_aes_zkne64_get(void);
/* SM4 with Zksed alone: its instructions take byte-reversed words, so no
 * byte swap is ever needed (riscv/sm4_zksed.c). */
const hwc_block_impl *hwc_sm4_zksed64_get(void);
/* GHASH with clmul/clmulh from Zbc or Zbkc (riscv/ghash_clmul.c). */
const hwc_ghash_impl *hwc_ghash_clmul64_get(void);
#endif

/* Vector crypto back ends (rv64, VLEN >= 128), built with clang when it can
 * compile Zvk* (cmake/riscv-vector.cmake defines HWC_HAVE_RVV_CRYPTO). */
#if defined(__riscv) && __riscv_xlen == 64 && defined(HWC_HAVE_RVV_CRYPTO)
/* AES with Zvkned + Zvkb; XTS tweaks and fused GCM with Zvkg (aes_zvkned.c). */
const hwc_block_impl *hwc_aes_zvkned_get(void);
/* SM4 with Zvksed + Zvkb (sm4_zvksed.c). */
const hwc_block_impl *hwc_sm4_zvksed_get(void);
/* GHASH with Zvkg: vghsh over groups of blocks (ghash_zvkg.c). */
const hwc_ghash_impl *hwc_ghash_zvkg_get(void);
/* GHASH with Zvbc + Zvkb for cores without Zvkg: vclmul over groups of
 * blocks (ghash_zvbc.c). */
const hwc_ghash_impl *hwc_ghash_zvbc_get(void);
#endif

#if defined(__riscv) && __riscv_xlen == 32
/* AES with Zkne + Zknd (riscv/aes_zkn.c: aes32esmi/aes32dsmi). */
const hwc_block_impl *hwc_aes_zkn32_get(void);
/* AES with Zkne only: hardware encryption, ct decryption (riscv/aes_zkn.c). */
const hwc_block_impl *hwc_aes_zkne32_get(void);
/* SM4 with Zksed (riscv/sm4_zksed.c). */
const hwc_block_impl *hwc_sm4_zksed32_get(void);
/* GHASH with 32-bit clmul/clmulh from Zbc or Zbkc (riscv/ghash_clmul.c). */
const hwc_ghash_impl *hwc_ghash_clmul32_get(void);
#endif

/* 64-bit Arm (src/arm/): each is declared only where its file is compiled. */
#if defined(__aarch64__)
/* AES with the Armv8 Crypto Extensions (AESE/AESD, PMULL for XTS tweaks and
 * fused GCM), and the same kernels with EOR3 where SHA3 is present
 * (arm/aes_armv8ce.c, arm/aes_armv8ce_eor3.c). */
const hwc_block_impl *hwc_aes_armv8ce_get(void);
const hwc_block_impl *hwc_aes_armv8ce_eor3_get(void);
/* SM4 with SM4E/SM4EKEY (arm/sm4_sm4e.c). */
const hwc_block_impl *hwc_sm4_sm4e_get(void);
/* SM4 with its S-box through AESE, for cores without SM4E (arm/sm4_armv8ce.c). */
const hwc_block_impl *hwc_sm4_armv8ce_get(void);
/* GHASH and POLYVAL with PMULL (arm/ghash_pmull.c). */
const hwc_ghash_impl *hwc_ghash_pmull_get(void);
#endif

#endif /* HWCRYPT_GETTERS_H */
