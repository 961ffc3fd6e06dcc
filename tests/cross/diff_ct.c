/*
 * diff_ct: every available back end against the portable "ct" one, for
 * every cipher, on random keys, IVs, AAD and messages of lengths around
 * block, batch and GHASH-aggregation boundaries (up to 4 KiB + 7). Outputs,
 * tags, MACs and wrapped keys must be identical.
 *
 * The known-answer vectors are short (GCM's stop at a few blocks), and a
 * cross build may have no OpenSSL to compare with, so this is what exercises the
 * bulk paths of the hardware kernels (8-block GHASH groups, 2-block SM4
 * pairs, counter runs over 256 blocks) against an independent
 * implementation.
 *
 *   diff_ct [IMPL...]   (default: every available back end but ct)
 *
 * Seed: HWC_TEST_SEED (decimal), else a fixed one; printed at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwcrypt/hwcrypt.h"

#define MAX_LEN (4096 + 7)

static uint64_t rng_state;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static void rnd_bytes(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

static unsigned long checks, failures;

typedef struct result {
    uint8_t out[MAX_LEN + 32];
    size_t out_len;
    uint8_t tag[16];
    int rc;
} result;

typedef struct inputs {
    uint8_t key[64], iv[16], aad[600], msg[MAX_LEN];
    size_t aad_len, len;
} inputs;

/* Encrypt (or MAC, or wrap) with the given back end. */
static void run(const hwc_cipher *c, const char *impl, const inputs *x, result *r) {
    hwc_ctx *ctx = hwc_ctx_new();
    const unsigned flags = hwc_cipher_flags(c);
    const size_t key_len = hwc_cipher_key_len(c), iv_len = hwc_cipher_iv_len(c);
    const size_t tag_len = hwc_cipher_tag_len(c) ? hwc_cipher_tag_len(c) : 16;
    size_t n = 0, m = 0;
    memset(r, 0, sizeof *r);
    if (!ctx) {
        r->rc = -1000;
        return;
    }
    r->rc = hwc_ctx_set_impl(ctx, impl);
    if (!r->rc && (flags & HWC_CIPHER_AEAD)) {
        r->rc = hwc_init(ctx, c, HWC_ENCRYPT, x->key, key_len, NULL, 0);
        if (!r->rc)
            r->rc = hwc_aead_seal(ctx, x->iv, iv_len, x->aad, x->aad_len, x->msg, x->len, r->out, r->tag, tag_len);
        r->out_len = x->len;
    } else if (!r->rc && (flags & HWC_CIPHER_MAC)) {
        r->rc = hwc_init(ctx, c, HWC_ENCRYPT, x->key, key_len, iv_len ? x->iv : NULL, iv_len);
        if (!r->rc)
            r->rc = hwc_aad(ctx, x->msg, x->len);
        if (!r->rc)
            r->rc = hwc_mac_final(ctx, r->tag, tag_len);
    } else if (!r->rc && (flags & HWC_CIPHER_WRAP)) {
        r->rc = hwc_init(ctx, c, HWC_ENCRYPT, x->key, key_len, NULL, 0);
        if (!r->rc)
            r->rc = hwc_ctx_key_wrap(ctx, x->msg, x->len, r->out, sizeof r->out, &r->out_len);
    } else if (!r->rc) {
        r->rc = hwc_init(ctx, c, HWC_ENCRYPT, x->key, key_len, iv_len ? x->iv : NULL, iv_len);
        if (!r->rc)
            r->rc = hwc_update(ctx, r->out, &n, x->msg, x->len);
        if (!r->rc)
            r->rc = hwc_final(ctx, r->out + n, &m);
        r->out_len = n + m;
    }
    hwc_ctx_free(ctx);
}

/* Lengths that the mode accepts, around the kernels' boundaries. */
static size_t pick_len(const hwc_cipher *c, size_t i) {
    static const size_t lens[] = {0, 1, 15, 16, 17, 32, 33, 48, 127, 128, 129, 255, 256, 257, 1000, MAX_LEN};
    const size_t nlens = sizeof lens / sizeof lens[0];
    size_t len = lens[i % nlens];
    switch (hwc_cipher_mode(c)) {
    case HWC_MODE_CFB1:
    case HWC_MODE_CFB8:
        return len > 257 ? 257 : len; /* per-bit / per-byte: keep it short */
    case HWC_MODE_XTS:
        return len < 16 ? 16 + len : len;
    case HWC_MODE_KW:
        return 16 + (len & ~(size_t)7) % 512;
    case HWC_MODE_KWP:
        return 1 + len % 512;
    default:
        return len;
    }
}

static int wanted(const char *impl, int argc, char **argv) {
    if (argc < 2)
        return strcmp(impl, "ct") != 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], impl) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv) {
    static inputs x;
    static result want, got;
    const char *seed_env = getenv("HWC_TEST_SEED");
    const uint64_t seed = seed_env && *seed_env ? strtoull(seed_env, NULL, 10) : 0x5eed5eed12345678ull;
    rng_state = seed ? seed : 1;
    unsigned pairs = 0;

    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        for (size_t i = 0; i < hwc_impl_count(); i++) {
            const char *impl = hwc_impl_name(i);
            if (hwc_impl_is_ghash(i) || hwc_impl_family(i) != hwc_cipher_family(c) || !wanted(impl, argc, argv) ||
                !hwc_impl_available(i, NULL))
                continue;
            unsigned long before = failures;
            for (size_t li = 0; li < 16; li++) {
                rnd_bytes(x.key, sizeof x.key);
                x.key[32] = (uint8_t)~x.key[0]; /* XTS: halves differ */
                rnd_bytes(x.iv, sizeof x.iv);
                x.aad_len = (size_t)(rnd() % sizeof x.aad);
                rnd_bytes(x.aad, x.aad_len);
                x.len = pick_len(c, li);
                rnd_bytes(x.msg, x.len);
                run(c, "ct", &x, &want);
                run(c, impl, &x, &got);
                checks++;
                if (want.rc != got.rc || want.out_len != got.out_len ||
                    memcmp(want.out, got.out, want.out_len) != 0 || memcmp(want.tag, got.tag, sizeof want.tag) != 0) {
                    failures++;
                    printf("FAIL %s@%s len %zu aad %zu: rc %d/%d, out_len %zu/%zu\n", hwc_cipher_name(c), impl, x.len,
                           x.aad_len, want.rc, got.rc, want.out_len, got.out_len);
                }
            }
            pairs++;
            printf("%-22s %-8s %s\n", hwc_cipher_name(c), impl, failures == before ? "same as ct" : "DIFFERS");
        }
    }
    printf("diff_ct: %u cipher/back-end pairs, %lu comparisons, %lu failed (seed %llu)\n", pairs, checks, failures,
           (unsigned long long)seed);
    return failures ? 1 : (pairs ? 0 : 77);
}
