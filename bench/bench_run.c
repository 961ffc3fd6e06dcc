/*
 * bench_run: one pass of a cipher over N bytes, for instruction counting
 * (bench/icount-callgrind runs it under callgrind for N and 2N bytes; the
 * difference divided by N is instructions per byte, start-up and key setup
 * cancelling out).
 *
 *   bench_run CIPHER IMPL BYTES [enc|dec]
 *   bench_run CIPHER IMPL BYTES enc MESSAGES AAD_BYTES [seal]
 *
 * The second form measures the per-message cost of an AEAD (count M and 2M
 * messages, divide the difference by M): the key is set once, then each
 * message, with a new 12-byte nonce, is the streaming sequence init with
 * the IV, AAD, update, final, get_tag; or, with "seal", one hwc_aead_seal.
 * AEAD decryption (first form) runs the data path only: no tag to verify.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwcrypt/hwcrypt.h"

static int run(const hwc_cipher *c, hwc_ctx *ctx, int encrypt, uint8_t *buf, uint8_t *out, size_t len) {
    static const uint8_t key[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                    23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42,
                                    43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,
                                    63, 64};
    uint8_t iv[16] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0, 0, 0, 1};
    uint8_t tag[16] = {0};
    unsigned flags = hwc_cipher_flags(c);
    size_t iv_len = hwc_cipher_iv_len(c);
    int rc = hwc_init(ctx, c, encrypt, key, hwc_cipher_key_len(c), iv_len ? iv : NULL, iv_len);
    if (rc)
        return rc;
    size_t n = 0, m = 0;
    if (flags & HWC_CIPHER_MAC) {
        if ((rc = hwc_aad(ctx, buf, len)))
            return rc;
        return hwc_mac_final(ctx, tag, 16);
    }
    if (flags & HWC_CIPHER_WRAP)
        return encrypt ? hwc_ctx_key_wrap(ctx, buf, len, out, len + 16, &n) : HWC_ERR_UNSUPPORTED;
    if (hwc_cipher_block_size(c) == 16 && (rc = hwc_set_padding(ctx, 0)))
        return rc;
    if (flags & HWC_CIPHER_AEAD) {
        if (encrypt)
            return hwc_aead_seal(ctx, iv_len ? iv : NULL, iv_len, NULL, 0, buf, len, out, tag, 16);
        /* Decryption: the data path only (the tag would not verify, and its
         * fixed cost cancels in the N vs 2N difference anyway). */
        if (flags & HWC_CIPHER_ONE_SHOT)
            return HWC_ERR_UNSUPPORTED;
        if (hwc_cipher_mode(c) == HWC_MODE_CCM && (rc = hwc_set_lengths(ctx, 0, len)))
            return rc;
        return hwc_update(ctx, out, &n, buf, len);
    }
    if ((rc = hwc_update(ctx, out, &n, buf, len)))
        return rc;
    return hwc_final(ctx, out + n, &m);
}

/* `messages` AEAD messages of len bytes with aad_len bytes of AAD, the key
 * set once before the first. */
static int run_messages(const hwc_cipher *c, hwc_ctx *ctx, uint8_t *buf, uint8_t *out, size_t len,
                        unsigned long messages, size_t aad_len, int oneshot) {
    static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
    uint8_t iv[12] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab};
    uint8_t aad[64] = {0}, tag[16];
    if (!(hwc_cipher_flags(c) & HWC_CIPHER_AEAD) || hwc_cipher_key_len(c) > sizeof key || aad_len > sizeof aad ||
        hwc_cipher_iv_len(c) != sizeof iv)
        return HWC_ERR_UNSUPPORTED;
    int rc = hwc_init(ctx, c, HWC_ENCRYPT, key, hwc_cipher_key_len(c), NULL, 0);
    for (unsigned long i = 0; !rc && i < messages; i++) {
        size_t n = 0, m = 0;
        iv[11] = (uint8_t)i; /* a new nonce per message, as a caller would */
        if (oneshot) {
            rc = hwc_aead_seal(ctx, iv, sizeof iv, aad, aad_len, buf, len, out, tag, sizeof tag);
            out[0] ^= tag[0];
            continue;
        }
        rc = hwc_init(ctx, NULL, HWC_ENCRYPT, NULL, 0, iv, sizeof iv);
        if (!rc && aad_len)
            rc = hwc_aad(ctx, aad, aad_len);
        if (!rc)
            rc = hwc_update(ctx, out, &n, buf, len);
        if (!rc)
            rc = hwc_final(ctx, out + n, &m);
        if (!rc)
            rc = hwc_get_tag(ctx, tag, sizeof tag);
        out[0] ^= tag[0];
    }
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: bench_run CIPHER IMPL BYTES [enc|dec] | CIPHER IMPL BYTES enc MESSAGES AAD_BYTES [seal]\n");
        return 2;
    }
    const hwc_cipher *c = hwc_cipher_by_name(argv[1]);
    if (!c) {
        fprintf(stderr, "bench_run: unknown cipher %s\n", argv[1]);
        return 2;
    }
    size_t len = strtoull(argv[3], NULL, 10);
    int encrypt = argc < 5 || strcmp(argv[4], "dec") != 0;
    hwc_ctx *ctx = hwc_ctx_new();
    uint8_t *buf = calloc(len + 16, 1), *out = calloc(len + 32, 1);
    if (!ctx || !buf || !out)
        return 2;
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(i * 7);
    int rc = hwc_ctx_set_impl(ctx, argv[2]);
    if (!rc && argc >= 7)
        rc = run_messages(c, ctx, buf, out, len, strtoul(argv[5], NULL, 10), strtoull(argv[6], NULL, 10),
                          argc >= 8 && strcmp(argv[7], "seal") == 0);
    else if (!rc)
        rc = run(c, ctx, encrypt, buf, out, len);
    if (rc) {
        fprintf(stderr, "bench_run: %s@%s: %s\n", argv[1], argv[2], hwc_strerror(rc));
        return 1;
    }
    unsigned sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += out[i];
    printf("%s@%s %zu bytes, checksum %u\n", argv[1], argv[2], len, sum);
    hwc_ctx_free(ctx);
    free(buf);
    free(out);
    return 0;
}
