/*
 * misalign_driver: every cipher (so every mode) on every available back
 * end, with the input, output, AAD and key-wrap buffers at each byte
 * offset 0..15: out at the same offset as in, at a different one, and in
 * place. Each run encrypts and decrypts (or MACs and verifies, wraps and
 * unwraps) and checks the round trip.
 *
 * It is the workload of the misalignment test (tests/riscv/misalign.sh):
 * under qemu-riscv64 with the icount plugin, every data access made by an
 * instruction inside libhwcrypt must be aligned to its size, whatever the
 * alignment of the caller's buffers.
 *
 *   misalign_driver [IMPL...]   (default: every available back end)
 *
 * Prints one line per cipher and back end, then "N runs, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwcrypt/hwcrypt.h"

#define MAX_LEN 1024
#define SLACK 64 /* room for offsets, padding, tags, the KW header */

static _Alignas(64) uint8_t src_buf[MAX_LEN + SLACK];
static _Alignas(64) uint8_t dst_buf[MAX_LEN + SLACK];
static _Alignas(64) uint8_t back_buf[MAX_LEN + SLACK];
static _Alignas(64) uint8_t aad_buf[MAX_LEN + SLACK];

static unsigned long runs, failures;

/* Message length per mode: several bulk-kernel batches plus a ragged tail
 * (37 blocks and 9 bytes), less where the mode loops per byte or bit. */
static size_t msg_len(const hwc_cipher *c) {
    switch (hwc_cipher_mode(c)) {
    case HWC_MODE_CFB1:
    case HWC_MODE_CFB8:
        return 3 * 16 + 5;
    case HWC_MODE_KW:
        return 5 * 8;
    case HWC_MODE_KWP:
        return 37;
    default:
        return 37 * 16 + 9;
    }
}

static void fail(const hwc_cipher *c, const char *impl, size_t in_off, size_t out_off, const char *what, int rc) {
    failures++;
    printf("FAIL %s@%s in+%zu out+%zu: %s (%d: %s)\n", hwc_cipher_name(c), impl, in_off, out_off, what, rc,
           hwc_strerror(rc));
}

#define TRY(expr, what)                                      \
    do {                                                     \
        int rc_ = (expr);                                    \
        if (rc_ != HWC_OK) {                                 \
            fail(c, impl, in_off, out_off, what, rc_);       \
            return;                                          \
        }                                                    \
    } while (0)

/* One round trip with the message at src_buf + in_off and the result at
 * dst_buf + out_off (or in place at src_buf + in_off when in_place). */
static void run_one(hwc_ctx *ctx, const hwc_cipher *c, const char *impl, size_t in_off, size_t out_off,
                    int in_place) {
    static const uint8_t iv[16] = {0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
                                   0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0xfe, 0xff};
    uint8_t key[64], tag[16];
    const size_t len = msg_len(c), key_len = hwc_cipher_key_len(c), iv_len = hwc_cipher_iv_len(c);
    const size_t tag_len = hwc_cipher_tag_len(c) ? hwc_cipher_tag_len(c) : 16;
    const unsigned flags = hwc_cipher_flags(c);
    const size_t aad_len = 9 * 16 + 3;
    uint8_t *msg = src_buf + in_off;
    uint8_t *out = in_place ? msg : dst_buf + out_off;
    uint8_t *back = in_place ? msg : back_buf + out_off;
    uint8_t *aad = aad_buf + in_off;
    uint8_t plain[MAX_LEN];
    size_t n = 0, m = 0, n2 = 0, m2 = 0;

    runs++;
    for (size_t i = 0; i < key_len; i++)
        key[i] = (uint8_t)(i * 29 + 7); /* XTS halves differ */
    for (size_t i = 0; i < len; i++)
        plain[i] = msg[i] = (uint8_t)(i * 7 + in_off);
    for (size_t i = 0; i < aad_len; i++)
        aad[i] = (uint8_t)(i * 13 + 1);
    TRY(hwc_ctx_set_impl(ctx, impl), "set_impl");

    if (flags & HWC_CIPHER_AEAD) {
        TRY(hwc_init(ctx, c, HWC_ENCRYPT, key, key_len, NULL, 0), "init");
        TRY(hwc_aead_seal(ctx, iv, iv_len, aad, aad_len, msg, len, out, tag, tag_len), "seal");
        TRY(hwc_init(ctx, c, HWC_DECRYPT, key, key_len, NULL, 0), "init dec");
        TRY(hwc_aead_open(ctx, iv, iv_len, aad, aad_len, out, len, back, tag, tag_len), "open");
        n2 = len;
    } else if (flags & HWC_CIPHER_MAC) {
        TRY(hwc_init(ctx, c, HWC_ENCRYPT, key, key_len, iv_len ? iv : NULL, iv_len), "init");
        TRY(hwc_aad(ctx, msg, len), "aad");
        TRY(hwc_mac_final(ctx, tag, tag_len), "mac");
        TRY(hwc_init(ctx, c, HWC_ENCRYPT, key, key_len, iv_len ? iv : NULL, iv_len), "init verify");
        TRY(hwc_aad(ctx, msg, len), "aad verify");
        TRY(hwc_mac_verify(ctx, tag, tag_len), "verify");
        return;
    } else if (flags & HWC_CIPHER_WRAP) {
        if (in_place) /* wrapping writes more than it reads: no in-place form */
            out = dst_buf + in_off, back = back_buf + in_off;
        TRY(hwc_init(ctx, c, HWC_ENCRYPT, key, key_len, NULL, 0), "init");
        TRY(hwc_ctx_key_wrap(ctx, msg, len, out, len + 16, &n), "wrap");
        TRY(hwc_init(ctx, c, HWC_DECRYPT, key, key_len, NULL, 0), "init dec");
        TRY(hwc_ctx_key_unwrap(ctx, out, n, back, len + 16, &n2), "unwrap");
    } else {
        TRY(hwc_init(ctx, c, HWC_ENCRYPT, key, key_len, iv_len ? iv : NULL, iv_len), "init");
        TRY(hwc_update(ctx, out, &n, msg, len), "update");
        TRY(hwc_final(ctx, out + n, &m), "final");
        TRY(hwc_init(ctx, c, HWC_DECRYPT, key, key_len, iv_len ? iv : NULL, iv_len), "init dec");
        TRY(hwc_update(ctx, back, &n2, out, n + m), "update dec");
        TRY(hwc_final(ctx, back + n2, &m2), "final dec");
        n2 += m2;
    }
    if (n2 != len || memcmp(back, plain, len) != 0)
        fail(c, impl, in_off, out_off, "round trip differs", 0);
}

static void run_cipher_impl(hwc_ctx *ctx, const hwc_cipher *c, const char *impl) {
    unsigned long before = failures;
    for (size_t k = 0; k < 16; k++) {
        run_one(ctx, c, impl, k, k, 0);
        run_one(ctx, c, impl, k, (k + 5) & 15, 0);
        run_one(ctx, c, impl, k, k, 1);
    }
    printf("%-22s %-8s %s\n", hwc_cipher_name(c), impl, failures == before ? "ok" : "FAILED");
}

static int wanted(const char *impl, int argc, char **argv) {
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], impl) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv) {
    hwc_ctx *ctx = hwc_ctx_new();
    if (!ctx)
        return 2;
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        for (size_t i = 0; i < hwc_impl_count(); i++) {
            const char *impl = hwc_impl_name(i);
            if (hwc_impl_is_ghash(i) || hwc_impl_family(i) != hwc_cipher_family(c) || !wanted(impl, argc, argv) ||
                !hwc_impl_available(i, NULL))
                continue;
            run_cipher_impl(ctx, c, impl);
        }
    }
    hwc_ctx_free(ctx);
    printf("%lu runs, %lu failed\n", runs, failures);
    return failures ? 1 : 0;
}
