/*
 * Dispatch: which back ends exist (compiled in), which can run here (the
 * capabilities in effect cover their needs), and which one a key gets.
 * Selection happens once per key, in hwc_init; the chosen tables are stored
 * in the context.  There is no global mutable "current implementation".
 */
#include <stdio.h>

#include "dispatch.h"

typedef const hwc_block_impl *(*block_getter)(void);
typedef const hwc_ghash_impl *(*ghash_getter)(void);

/* Priority order: fastest first, the portable back end last. */
static const block_getter aes_getters[] = {
#if defined(__x86_64__)
    hwc_aes_vaes512_get,
    hwc_aes_vaes_get,
    hwc_aes_aesni_get,
#endif
#if defined(__aarch64__)
    hwc_aes_armv8ce_eor3_get, /* the same kernels with EOR3 where SHA3 is present */
    hwc_aes_armv8ce_get,
#endif
#if defined(__riscv) && __riscv_xlen == 64 && defined(HWC_HAVE_RVV_CRYPTO)
    hwc_aes_zvkned_get, /* vector crypto first: several blocks per instruction */
#endif
#if defined(__riscv) && __riscv_xlen == 64
    hwc_aes_zkn64_get,
    hwc_aes_zkne64_get, /* Zkne without Zknd: hardware encryption, ct decryption */
#endif
#if defined(__riscv) && __riscv_xlen == 32
    hwc_aes_zkn32_get,
    hwc_aes_zkne32_get, /* Zkne without Zknd: hardware encryption, ct decryption */
#endif
    hwc_aes_ct_get,
};
static const block_getter sm4_getters[] = {
#if defined(__x86_64__)
    hwc_sm4_gfni512_get,
    hwc_sm4_gfni_get,
    hwc_sm4_aesni_get,
#endif
#if defined(__aarch64__)
    hwc_sm4_sm4e_get,
    hwc_sm4_armv8ce_get, /* the S-box through AESE, for cores without SM4E */
#endif
#if defined(__riscv) && __riscv_xlen == 64 && defined(HWC_HAVE_RVV_CRYPTO)
    hwc_sm4_zvksed_get,
#endif
#if defined(__riscv) && __riscv_xlen == 64
    hwc_sm4_zksed64_get,
#endif
#if defined(__riscv) && __riscv_xlen == 32
    hwc_sm4_zksed32_get,
#endif
    hwc_sm4_ct_get,
};
static const ghash_getter ghash_getters[] = {
#if defined(__x86_64__)
    hwc_ghash_vpclmul512_get,
    hwc_ghash_vpclmul_get,
    hwc_ghash_pclmul_get,
#endif
#if defined(__aarch64__)
    hwc_ghash_pmull_get,
#endif
#if defined(__riscv) && __riscv_xlen == 64 && defined(HWC_HAVE_RVV_CRYPTO)
    hwc_ghash_zvkg_get,
    hwc_ghash_zvbc_get, /* Zvbc without Zvkg */
#endif
#if defined(__riscv) && __riscv_xlen == 64
    hwc_ghash_clmul64_get,
#endif
#if defined(__riscv) && __riscv_xlen == 32
    hwc_ghash_clmul32_get,
#endif
    hwc_ghash_ct_get,
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Reason strings are built per thread so concurrent callers don't race. */
static _Thread_local char why_buf[160];

static int caps_cover(uint64_t required, const char **why) {
    uint64_t missing = required & ~hwc_caps();
    if (!missing)
        return 1;
    if (why) {
        char names[120];
        hwc_caps_format(missing, names, sizeof names);
        int probed_has = (required & ~hwc_caps_probed()) == 0;
        snprintf(why_buf, sizeof why_buf, "needs %s (%s)", names,
                 probed_has ? "disabled by HWCRYPT_CAPS" : "not on this CPU");
        *why = why_buf;
    }
    return 0;
}

int hwc_block_impl_usable(const hwc_block_impl *impl, const char **why) {
    if (!caps_cover(impl->required_caps, why))
        return 0;
    return impl->usable ? impl->usable(hwc_caps(), why) : 1;
}

int hwc_ghash_impl_usable(const hwc_ghash_impl *impl, const char **why) {
    if (!caps_cover(impl->required_caps, why))
        return 0;
    return impl->usable ? impl->usable(hwc_caps(), why) : 1;
}

static const block_getter *getters_for(hwc_family family, size_t *n) {
    if (family == HWC_FAMILY_AES) {
        *n = N_ELEMS(aes_getters);
        return aes_getters;
    }
    if (family == HWC_FAMILY_SM4) {
        *n = N_ELEMS(sm4_getters);
        return sm4_getters;
    }
    *n = 0;
    return NULL;
}

const hwc_block_impl *hwc_select_block_impl(hwc_family family) {
    size_t n;
    const block_getter *g = getters_for(family, &n);
    for (size_t i = 0; i < n; i++) {
        const hwc_block_impl *impl = g[i]();
        if (impl && hwc_block_impl_usable(impl, NULL))
            return impl;
    }
    return NULL; /* unreachable: the portable back end is always usable */
}

int hwc_find_block_impl(hwc_family family, const char *name, const hwc_block_impl **out, const char **why) {
    size_t n;
    const block_getter *g = getters_for(family, &n);
    for (size_t i = 0; i < n; i++) {
        const hwc_block_impl *impl = g[i]();
        if (!impl || strcmp(impl->name, name) != 0)
            continue;
        if (!hwc_block_impl_usable(impl, why))
            return HWC_ERR_UNAVAILABLE;
        *out = impl;
        return HWC_OK;
    }
    return HWC_ERR_UNKNOWN;
}

int hwc_find_ghash_impl(const char *name, const hwc_ghash_impl **out, const char **why) {
    for (size_t i = 0; i < N_ELEMS(ghash_getters); i++) {
        const hwc_ghash_impl *impl = ghash_getters[i]();
        if (!impl || strcmp(impl->name, name) != 0)
            continue;
        if (!hwc_ghash_impl_usable(impl, why))
            return HWC_ERR_UNAVAILABLE;
        *out = impl;
        return HWC_OK;
    }
    return HWC_ERR_UNKNOWN;
}

const hwc_ghash_impl *hwc_select_ghash_impl(void) {
    for (size_t i = 0; i < N_ELEMS(ghash_getters); i++) {
        const hwc_ghash_impl *impl = ghash_getters[i]();
        if (impl && hwc_ghash_impl_usable(impl, NULL))
            return impl;
    }
    return NULL;
}

const hwc_ghash_impl *hwc_ghash_for(const hwc_block_impl *impl) {
    if (impl && impl->ghash_name) {
        for (size_t i = 0; i < N_ELEMS(ghash_getters); i++) {
            const hwc_ghash_impl *g = ghash_getters[i]();
            if (g && strcmp(g->name, impl->ghash_name) == 0 && hwc_ghash_impl_usable(g, NULL))
                return g;
        }
    }
    return hwc_select_ghash_impl();
}

/* ---------------------------------------------------- public listing */

/* The public index runs over AES back ends, then SM4, then GHASH. */
typedef struct {
    const hwc_block_impl *block;
    const hwc_ghash_impl *ghash;
    hwc_family family;
} impl_entry;

static int entry_at(size_t index, impl_entry *e) {
    if (index < N_ELEMS(aes_getters)) {
        *e = (impl_entry){aes_getters[index](), NULL, HWC_FAMILY_AES};
        return e->block != NULL;
    }
    index -= N_ELEMS(aes_getters);
    if (index < N_ELEMS(sm4_getters)) {
        *e = (impl_entry){sm4_getters[index](), NULL, HWC_FAMILY_SM4};
        return e->block != NULL;
    }
    index -= N_ELEMS(sm4_getters);
    if (index < N_ELEMS(ghash_getters)) {
        *e = (impl_entry){NULL, ghash_getters[index](), (hwc_family)0};
        return e->ghash != NULL;
    }
    return 0;
}

size_t hwc_impl_count(void) { return N_ELEMS(aes_getters) + N_ELEMS(sm4_getters) + N_ELEMS(ghash_getters); }

const char *hwc_impl_name(size_t index) {
    impl_entry e;
    if (!entry_at(index, &e))
        return NULL;
    return e.block ? e.block->name : e.ghash->name;
}

hwc_family hwc_impl_family(size_t index) {
    impl_entry e;
    return entry_at(index, &e) ? e.family : (hwc_family)0;
}

int hwc_impl_is_ghash(size_t index) {
    impl_entry e;
    return entry_at(index, &e) && e.ghash != NULL;
}

int hwc_impl_is_constant_time(size_t index) {
    impl_entry e;
    if (!entry_at(index, &e))
        return 0;
    unsigned flags = e.block ? e.block->flags : e.ghash->flags;
    return (flags & HWC_IMPL_CONSTANT_TIME) != 0;
}

const char *hwc_impl_note(size_t index) {
    impl_entry e;
    return entry_at(index, &e) && e.block ? e.block->note : NULL;
}

int hwc_impl_available(size_t index, const char **why) {
    impl_entry e;
    if (!entry_at(index, &e)) {
        if (why)
            *why = "not compiled in";
        return 0;
    }
    return e.block ? hwc_block_impl_usable(e.block, why) : hwc_ghash_impl_usable(e.ghash, why);
}

const char *hwc_impl_selected(hwc_family family) {
    const hwc_block_impl *impl = hwc_select_block_impl(family);
    return impl ? impl->name : NULL;
}

const char *hwc_ghash_impl_selected(void) {
    const hwc_ghash_impl *g = hwc_select_ghash_impl();
    return g ? g->name : NULL;
}
