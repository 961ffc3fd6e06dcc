/*
 * Dispatch: which back ends exist, which can run here, which a key gets
 * (src/dispatch.c) from the capabilities of src/cpu/. Used by the
 * public API at key setup and by the tests; never by a mode or a back end.
 */
#ifndef HWCRYPT_DISPATCH_H
#define HWCRYPT_DISPATCH_H

#include "getters.h"

/* First available back end of the family in priority order. */
const hwc_block_impl *hwc_select_block_impl(hwc_family family);
/* By name; HWC_ERR_UNKNOWN / HWC_ERR_UNAVAILABLE (with *why) on failure. */
int hwc_find_block_impl(hwc_family family, const char *name, const hwc_block_impl **out, const char **why);
const hwc_ghash_impl *hwc_select_ghash_impl(void);
/* The same for GHASH back ends (tests). */
int hwc_find_ghash_impl(const char *name, const hwc_ghash_impl **out, const char **why);
/* GHASH paired with a block back end (its ghash_name if available, else auto). */
const hwc_ghash_impl *hwc_ghash_for(const hwc_block_impl *impl);
/* 1 if usable under the current caps; else 0 and *why. */
int hwc_block_impl_usable(const hwc_block_impl *impl, const char **why);
int hwc_ghash_impl_usable(const hwc_ghash_impl *impl, const char **why);

#endif /* HWCRYPT_DISPATCH_H */
