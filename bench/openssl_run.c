/*
 * openssl_run: bench_run's twin for OpenSSL's libcrypto (EVP, and EVP_MAC
 * for CMAC): one pass of a cipher over N bytes, so that an instruction
 * counter can compare hwcrypt and OpenSSL measured the same way
 * (bench/a64-icount: (count(2N) - count(N)) / N inside each library).
 *
 *   openssl_run CIPHER BYTES [enc|dec]
 *   openssl_run CIPHER BYTES enc MESSAGES AAD_BYTES
 *
 * CIPHER is hwcrypt's name (aes-128-gcm, aes-128-cmac, aes-128-wrap,
 * sm4-ctr, ...), which is OpenSSL's too. Data and keys are bench_run's. The
 * second form seals MESSAGES messages of BYTES bytes with AAD_BYTES of AAD,
 * the key set once: per message EVP_EncryptInit_ex2 with the IV, the AAD
 * update, the data update, EVP_EncryptFinal_ex and the tag control.
 * AEAD decryption runs the data path only, as bench_run's. Exit status 3:
 * this OpenSSL lacks the cipher.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

static const unsigned char key[64] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                      17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
                                      33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
                                      49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64};

static int ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* CMAC through EVP_MAC ("aes-128-cmac" -> CMAC over AES-128-CBC). */
static int run_cmac(const char *name, const unsigned char *buf, size_t len) {
    char cipher[32];
    snprintf(cipher, sizeof cipher, "%.*s-cbc", (int)(strlen(name) - 5), name);
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
    if (!ctx)
        return 3;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0), OSSL_PARAM_END};
    unsigned char tag[16];
    size_t tag_len = 0;
    size_t key_len = strstr(name, "256") ? 32 : strstr(name, "192") ? 24 : 16;
    int ok = EVP_MAC_init(ctx, key, key_len, params) && EVP_MAC_update(ctx, buf, len) &&
             EVP_MAC_final(ctx, tag, &tag_len, sizeof tag);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(mac);
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: openssl_run CIPHER BYTES [enc|dec] | CIPHER BYTES enc MESSAGES AAD_BYTES\n");
        return 2;
    }
    const char *name = argv[1];
    size_t len = strtoull(argv[2], NULL, 10);
    int enc = argc < 4 || strcmp(argv[3], "dec") != 0;
    unsigned char *buf = calloc(len + 16, 1), *out = calloc(len + 64, 1);
    if (!buf || !out)
        return 2;
    for (size_t i = 0; i < len; i++)
        buf[i] = (unsigned char)(i * 7);
    if (ends_with(name, "-cmac"))
        return run_cmac(name, buf, len);

    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!c) {
        fprintf(stderr, "openssl_run: this OpenSSL has no %s\n", name);
        return 3;
    }
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    unsigned char iv[16] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0, 0, 0, 1};
    unsigned char tag[16];
    int mode = EVP_CIPHER_get_mode(c), outl = 0, ok = 1;
    int aead = mode == EVP_CIPH_GCM_MODE || mode == EVP_CIPH_CCM_MODE || mode == EVP_CIPH_OCB_MODE;
    if (mode == EVP_CIPH_WRAP_MODE)
        EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);

    if (argc >= 6) { /* per-message cost */
        unsigned long messages = strtoul(argv[4], NULL, 10);
        size_t aad_len = strtoull(argv[5], NULL, 10);
        unsigned char aad[64] = {0};
        if (!aead || aad_len > sizeof aad)
            return 2;
        ok = EVP_EncryptInit_ex2(ctx, c, key, NULL, NULL);
        for (unsigned long i = 0; ok && i < messages; i++) {
            iv[11] = (unsigned char)i;
            ok = EVP_EncryptInit_ex2(ctx, NULL, NULL, iv, NULL) &&
                 (!aad_len || EVP_EncryptUpdate(ctx, NULL, &outl, aad, (int)aad_len)) &&
                 EVP_EncryptUpdate(ctx, out, &outl, buf, (int)len) && EVP_EncryptFinal_ex(ctx, out + outl, &outl) &&
                 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
            out[0] ^= tag[0];
        }
    } else {
        /* CCM: a 16-byte tag (OpenSSL's default is 12) set before the key;
         * decryption gets one to compare with (not checked: data path only) */
        ok = EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL);
        if (ok && mode == EVP_CIPH_CCM_MODE)
            ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, enc ? NULL : tag) > 0;
        if (ok)
            ok = EVP_CipherInit_ex2(ctx, NULL, key, iv, enc, NULL);
        if (ok && mode != EVP_CIPH_WRAP_MODE && !aead)
            EVP_CIPHER_CTX_set_padding(ctx, 0);
        if (ok && mode == EVP_CIPH_CCM_MODE)
            ok = EVP_CipherUpdate(ctx, NULL, &outl, NULL, (int)len);
        if (ok)
            ok = EVP_CipherUpdate(ctx, out, &outl, buf, (int)len);
        if (ok && (enc || !aead))
            ok = EVP_CipherFinal_ex(ctx, out + outl, &outl);
        if (ok && aead && enc)
            ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
        /* CCM decryption reports the (unchecked, wrong) tag in the update */
        if (!ok && mode == EVP_CIPH_CCM_MODE && !enc)
            ok = 1;
    }
    if (!ok) {
        fprintf(stderr, "openssl_run: %s failed\n", name);
        return 1;
    }
    unsigned sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += out[i];
    printf("%s@openssl %zu bytes, checksum %u\n", name, len, sum);
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(c);
    free(buf);
    free(out);
    return 0;
}
