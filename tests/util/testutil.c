#include "testutil.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

unsigned long test_passed, test_failed, test_skipped;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng_seed_used = 0x9e3779b97f4a7c15ull;
static int rng_seeded;

int test_check(int ok, const char *expr, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        test_passed++;
        return 1;
    }
    test_failed++;
    fprintf(stderr, "FAIL %s:%d: %s", file, line, expr);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(": ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    return 0;
}

int test_check_mem(const void *got, const void *want, size_t len, const char *what, const char *file, int line) {
    if (len == 0 || memcmp(got, want, len) == 0) {
        test_passed++;
        return 1;
    }
    test_failed++;
    char *g = malloc(2 * len + 1), *w = malloc(2 * len + 1);
    if (g && w) {
        test_hex(g, got, len);
        test_hex(w, want, len);
        fprintf(stderr, "FAIL %s:%d: %s\n   got  %s\n   want %s\n", file, line, what, g, w);
    }
    free(g);
    free(w);
    return 0;
}

void test_skip(const char *what, const char *why) {
    test_skipped++;
    printf("SKIP %s: %s\n", what, why);
}

int test_summary(const char *program) {
    if (rng_seeded)
        printf("%s: random seed %llu (set HWC_TEST_SEED to repeat)\n", program, (unsigned long long)rng_seed_used);
    printf("%s: %lu passed, %lu failed, %lu skipped\n", program, test_passed, test_failed, test_skipped);
    if (test_failed)
        return 1;
    if (test_passed == 0) {
        printf("%s: no check ran: that is a failure\n", program);
        return 1;
    }
    return 0;
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

uint8_t *test_unhex(const char *hex, size_t *len) {
    size_t n = strlen(hex);
    if (n % 2)
        return NULL;
    uint8_t *out = malloc(n / 2 + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(out);
            return NULL;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return out;
}

void test_hex(char *out, const uint8_t *in, size_t len) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = 0;
}

int test_each_impl(hwc_family family, test_impl_fn fn, void *arg) {
    const char *only = getenv("HWC_TEST_IMPL");
    int ran = 0;
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        if (hwc_impl_is_ghash(i) || hwc_impl_family(i) != family)
            continue;
        const char *name = hwc_impl_name(i);
        if (only && *only && strcmp(only, name) != 0)
            continue;
        const char *why = NULL;
        if (!hwc_impl_available(i, &why)) {
            char what[96];
            snprintf(what, sizeof what, "back end %s (%s)", name, family == HWC_FAMILY_AES ? "aes" : "sm4");
            test_skip(what, why ? why : "not available");
            continue;
        }
        fn(name, arg);
        ran++;
    }
    return ran;
}

void test_rand_seed(uint64_t seed) {
    rng_state = seed ? seed : 0x9e3779b97f4a7c15ull;
    rng_seed_used = seed;
    rng_seeded = 1;
}

uint64_t test_rand(void) {
    if (!rng_seeded) {
        const char *s = getenv("HWC_TEST_SEED");
        test_rand_seed(s ? strtoull(s, NULL, 0) : 0x5eed2026ull);
    }
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

void test_rand_bytes(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(test_rand() >> 56);
}
