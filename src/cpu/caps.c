/*
 * Capabilities in effect: the CPU's, probed once, filtered through
 * HWCRYPT_CAPS.  Probing is idempotent, so racing first callers may both
 * probe; the result is published with one atomic store and read with
 * acquire loads afterwards (no locks, so it also works without pthreads,
 * e.g. on the rv32 picolibc build).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"

struct cap_name {
    const char *name;
    uint64_t bits;
};

/* Single capabilities, in bit order, then shorthands. */
static const struct cap_name cap_names[] = {
    {"aesni", HWC_CAP_AESNI},   {"pclmul", HWC_CAP_PCLMUL}, {"ssse3", HWC_CAP_SSSE3},
    {"sse4.1", HWC_CAP_SSE41},  {"avx", HWC_CAP_AVX},       {"avx2", HWC_CAP_AVX2},
    {"vaes", HWC_CAP_VAES},     {"vpclmul", HWC_CAP_VPCLMUL}, {"avx512", HWC_CAP_AVX512}, {"gfni", HWC_CAP_GFNI},
    {"zbb", HWC_CAP_ZBB},       {"zbc", HWC_CAP_ZBC},       {"zbkb", HWC_CAP_ZBKB},
    {"zbkc", HWC_CAP_ZBKC},     {"zbkx", HWC_CAP_ZBKX},     {"zkne", HWC_CAP_ZKNE},
    {"zknd", HWC_CAP_ZKND},     {"zksed", HWC_CAP_ZKSED},   {"v", HWC_CAP_V},
    {"zvkned", HWC_CAP_ZVKNED}, {"zvkg", HWC_CAP_ZVKG},     {"zvksed", HWC_CAP_ZVKSED},
    {"zvbb", HWC_CAP_ZVBB},     {"zvkb", HWC_CAP_ZVKB},     {"zvbc", HWC_CAP_ZVBC},
    {"aes", HWC_CAP_ARM_AES},   {"pmull", HWC_CAP_ARM_PMULL}, {"sm4", HWC_CAP_ARM_SM4},
    {"sha3", HWC_CAP_ARM_SHA3},
};
static const struct cap_name cap_shorthands[] = {
    {"zkn", HWC_CAP_ZBKB | HWC_CAP_ZBKC | HWC_CAP_ZBKX | HWC_CAP_ZKNE | HWC_CAP_ZKND},
    {"zks", HWC_CAP_ZBKB | HWC_CAP_ZBKC | HWC_CAP_ZBKX | HWC_CAP_ZKSED},
    {"sse4_1", HWC_CAP_SSE41},
    {"pclmulqdq", HWC_CAP_PCLMUL},
    {"vpclmulqdq", HWC_CAP_VPCLMUL},
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static _Atomic int caps_ready;
static uint64_t caps_probed_value, caps_effective_value;
static char caps_error_text[256];

static int name_eq(const char *a, size_t alen, const char *b) {
    size_t blen = strlen(b);
    if (alen != blen)
        return 0;
    for (size_t i = 0; i < alen; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != b[i])
            return 0;
    }
    return 1;
}

static int lookup_cap(const char *name, size_t len, uint64_t *bits) {
    for (size_t i = 0; i < N_ELEMS(cap_names); i++)
        if (name_eq(name, len, cap_names[i].name)) {
            *bits = cap_names[i].bits;
            return 1;
        }
    for (size_t i = 0; i < N_ELEMS(cap_shorthands); i++)
        if (name_eq(name, len, cap_shorthands[i].name)) {
            *bits = cap_shorthands[i].bits;
            return 1;
        }
    return 0;
}

/* HWCRYPT_CAPS grammar: "none" | list of [+|-]name separated by ',' or
 * spaces.  A list with any plain name starts from nothing; one made only of
 * +name/-name starts from what was probed.  The result never exceeds what
 * was probed: naming an instruction the CPU lacks would only crash. */
static uint64_t apply_override(const char *spec, uint64_t probed, char *err, size_t err_len) {
    err[0] = 0;
    const char *p = spec;
    int any_plain = 0;
    for (const char *q = spec; *q;) {
        while (*q == ',' || *q == ' ')
            q++;
        if (!*q)
            break;
        if (*q != '+' && *q != '-')
            any_plain = 1;
        while (*q && *q != ',' && *q != ' ')
            q++;
    }
    uint64_t caps = any_plain ? 0 : probed;
    size_t err_used = 0;
    while (*p) {
        while (*p == ',' || *p == ' ')
            p++;
        if (!*p)
            break;
        int remove = 0;
        if (*p == '+' || *p == '-') {
            remove = *p == '-';
            p++;
        }
        const char *start = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
        size_t len = (size_t)(p - start);
        uint64_t bits;
        if (name_eq(start, len, "none") || name_eq(start, len, "all")) {
            bits = name_eq(start, len, "all") ? probed : 0;
            caps = remove ? caps : bits;
            continue;
        }
        if (!lookup_cap(start, len, &bits)) {
            int n = snprintf(err + err_used, err_len - err_used, "%sHWCRYPT_CAPS: unknown capability '%.*s'",
                             err_used ? "; " : "", (int)(len > 32 ? 32 : len), start);
            if (n > 0 && (size_t)n < err_len - err_used)
                err_used += (size_t)n;
            continue;
        }
        if (remove)
            caps &= ~bits;
        else
            caps |= bits;
    }
    return caps & probed;
}

static void caps_init(void) {
    if (atomic_load_explicit(&caps_ready, memory_order_acquire))
        return;
    uint64_t probed = hwc_cpu_probe_arch();
    uint64_t effective = probed;
    char err[sizeof caps_error_text]; /* per caller: racing first callers each fill their own */
    err[0] = 0;
    const char *spec = getenv("HWCRYPT_CAPS");
    if (spec && *spec)
        effective = apply_override(spec, probed, err, sizeof err);
    /* Only the first finisher writes; the values are the same for all. */
    static _Atomic int writer;
    if (atomic_exchange_explicit(&writer, 1, memory_order_acq_rel) == 0) {
        caps_probed_value = probed;
        caps_effective_value = effective;
        memcpy(caps_error_text, err, sizeof caps_error_text);
        atomic_store_explicit(&caps_ready, 1, memory_order_release);
    } else {
        while (!atomic_load_explicit(&caps_ready, memory_order_acquire)) {
        }
    }
}

uint64_t hwc_caps(void) {
    caps_init();
    return caps_effective_value;
}

uint64_t hwc_caps_probed(void) {
    caps_init();
    return caps_probed_value;
}

const char *hwc_caps_error(void) {
    caps_init();
    return caps_error_text[0] ? caps_error_text : NULL;
}

const char *hwc_cap_name(unsigned bit) {
    if (bit >= 64)
        return NULL;
    for (size_t i = 0; i < N_ELEMS(cap_names); i++)
        if (cap_names[i].bits == (1ull << bit))
            return cap_names[i].name;
    return NULL;
}

size_t hwc_caps_format(uint64_t caps, char *buf, size_t buf_len) {
    size_t used = 0;
    if (buf_len)
        buf[0] = 0;
    for (unsigned bit = 0; bit < 64; bit++) {
        const char *name = hwc_cap_name(bit);
        if (!name || !(caps & (1ull << bit)))
            continue;
        int n = snprintf(buf + used, buf_len > used ? buf_len - used : 0, "%s%s", used ? "," : "", name);
        if (n > 0)
            used += (size_t)n;
    }
    if (used == 0) {
        int n = snprintf(buf, buf_len, "none");
        used = n > 0 ? (size_t)n : 0;
    }
    if (used >= buf_len && buf_len)
        buf[buf_len - 1] = 0;
    return used;
}
