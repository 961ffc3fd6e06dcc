/* Getters of the RISC-V back ends (src/riscv/), for dispatch. Each is
 * defined only when its file is compiled for its target (rv64 here); the
 * dispatch lists name them under the same condition. */
#ifndef HWC_RISCV_GETTERS_H
#define HWC_RISCV_GETTERS_H

#include "internal.h"

#if defined(__riscv) && __riscv_xlen == 64
/* AES with Zkne + Zknd (aes_zkn64.c). */
const hwc_block_impl *hwc_aes_zkn64_get(void);
/* AES with Zkne only: hardware for every kernel that encrypts blocks, the
 * portable ct AES for the decryption direction (aes_zkn64.c). */
const hwc_block_impl *hwc_aes_zkne64_get(void);
/* SM4 with Zksed alone: its instructions take byte-reversed words, so no
 * byte swap is ever needed (sm4_zksed64.c). */
const hwc_block_impl *hwc_sm4_zksed64_get(void);
/* GHASH with clmul/clmulh from Zbc or Zbkc (ghash_clmul64.c). */
const hwc_ghash_impl *hwc_ghash_clmul64_get(void);
#endif

#endif /* HWC_RISCV_GETTERS_H */
