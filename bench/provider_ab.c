/*
 * provider_ab: openssl speed's cipher loop through two builds of hwcrypt's
 * provider and OpenSSL's default provider in one process, in turn.
 *
 *   provider_ab CIPHER BYTES enc|dec OLD_BUILD NEW_BUILD [SLICES]
 *
 * Each build directory holds hwcrypt.so; each provider is loaded in a
 * library context of its own, so both copies are live at once. The three
 * contexts take turns in short slices (SLICES of each, 60 unless told),
 * each slice timing ~1 ms of calls on the thread's CPU clock, which the
 * 4 ms scheduler ticks other programs take on a shared core do not enter
 * (openssl speed -elapsed's wall clock does: a run of a few ms reads 1-3
 * ticks long). Prints the median nanoseconds per call of each and the
 * default provider's time over each build's (above 1: faster).
 *
 * The loop is openssl speed's (OpenSSL 3.0): for a plain cipher one
 * EVP_CipherUpdate of BYTES in place per call, padding off; for GCM, CCM,
 * OCB and SIV one whole message per call as its EVP_Update_loop_aead_enc
 * and _dec run it (SET_IVLEN, SET_TAG except GCM encryption, an init with
 * the key and IV, AAD=1 adds 13 bytes of AAD, the update, final).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double thread_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static EVP_CIPHER_CTX *open_ctx(const char *cipher, const char *dir, int enc) {
    static const unsigned char key[32] = {1}, iv[16] = {2};
    OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
    if (!lib)
        return NULL;
    if (dir && OSSL_PROVIDER_set_default_search_path(lib, dir) != 1)
        return NULL;
    if (!OSSL_PROVIDER_load(lib, "default") || (dir && !OSSL_PROVIDER_load(lib, "hwcrypt")))
        return NULL;
    EVP_CIPHER *c = EVP_CIPHER_fetch(lib, cipher, dir ? "provider=hwcrypt" : "provider=default");
    EVP_CIPHER_CTX *ctx = c ? EVP_CIPHER_CTX_new() : NULL;
    if (!ctx || !EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL))
        return NULL;
    EVP_CIPHER_CTX_set_padding(ctx, 0);
    return ctx; /* the library contexts live until exit */
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: provider_ab CIPHER BYTES enc|dec OLD_BUILD NEW_BUILD [SLICES]\n");
        return 2;
    }
    const char *cipher = argv[1];
    const int len = atoi(argv[2]), enc = strcmp(argv[3], "dec") != 0;
    const int slices = argc > 6 ? atoi(argv[6]) : 60;
    const int ae = strstr(cipher, "gcm") || strstr(cipher, "ccm") || strstr(cipher, "ocb") || strstr(cipher, "siv");
    const int gcm = strstr(cipher, "gcm") != NULL, aad = getenv("AAD") != NULL;
    if (len <= 0 || slices <= 0)
        return 2;
    static const unsigned char key[32] = {1}, iv[16] = {2}, ad[13] = {3};
    unsigned char tag[16] = {0};
    EVP_CIPHER_CTX *ctx[3] = {open_ctx(cipher, argv[4], enc), open_ctx(cipher, argv[5], enc),
                              open_ctx(cipher, NULL, enc)};
    for (int k = 0; k < 3; k++)
        if (!ctx[k]) {
            fprintf(stderr, "provider_ab: cannot set up %s (%s)\n", cipher, k == 2 ? "default" : argv[4 + k]);
            return 1;
        }
    unsigned char *buf = malloc((size_t)len + 64);
    double *t = malloc(sizeof(double) * 3 * (size_t)slices);
    if (!buf || !t)
        return 2;
    memset(buf, 5, (size_t)len + 64);
    const long per = 20000000L / (len + 300); /* ~1 ms of calls at small sizes */
    int outl;
    for (int s = 0; s < slices; s++)
        for (int k = 0; k < 3; k++) {
            EVP_CIPHER_CTX *c = ctx[k];
            const double t0 = thread_ns();
            for (long i = 0; i < per; i++) {
                if (ae) {
                    /* A decryption's tag check fails (the data is not a
                     * sealed message): the work is the same, as in speed. */
                    if (!EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) ||
                        (!(gcm && enc) && !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, 16, enc ? NULL : tag)) ||
                        !EVP_CipherInit_ex(c, NULL, NULL, key, iv, -1) ||
                        (aad && !EVP_CipherUpdate(c, NULL, &outl, ad, sizeof ad)))
                        return 1;
                }
                if (!EVP_CipherUpdate(c, buf, &outl, buf, len))
                    return 1;
                if (ae && !EVP_CipherFinal_ex(c, buf + len, &outl) && enc)
                    return 1;
            }
            t[k * slices + s] = (thread_ns() - t0) / (double)per;
        }
    double med[3];
    for (int k = 0; k < 3; k++) {
        qsort(t + k * slices, (size_t)slices, sizeof(double), by_value);
        med[k] = t[k * slices + slices / 2];
    }
    printf("%s %d B %s%s: old %.2f new %.2f default %.2f ns/call; default/old %.3f default/new %.3f\n", cipher, len,
           argv[3], aad ? " +aad" : "", med[0], med[1], med[2], med[2] / med[0], med[2] / med[1]);
    return 0;
}
