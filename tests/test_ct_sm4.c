/* The portable constant-time SM4 back end, called directly: GB/T 32907
 * examples, the computed S-box against the standard's table, multi-block,
 * in-place and misaligned calls, and random keys and blocks against a plain
 * table-based SM4 written here (and OpenSSL if present). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

#ifdef HWC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

/* Test hook in src/ct/sm4_ct.c: the S-box as computed by the circuit. */

/* ---------------------------------------------- reference SM4 (table) */

/* The S-box table of GB/T 32907-2016. */
static const uint8_t ref_sbox[256] = {
    0xD6, 0x90, 0xE9, 0xFE, 0xCC, 0xE1, 0x3D, 0xB7, 0x16, 0xB6, 0x14, 0xC2, 0x28, 0xFB, 0x2C, 0x05,
    0x2B, 0x67, 0x9A, 0x76, 0x2A, 0xBE, 0x04, 0xC3, 0xAA, 0x44, 0x13, 0x26, 0x49, 0x86, 0x06, 0x99,
    0x9C, 0x42, 0x50, 0xF4, 0x91, 0xEF, 0x98, 0x7A, 0x33, 0x54, 0x0B, 0x43, 0xED, 0xCF, 0xAC, 0x62,
    0xE4, 0xB3, 0x1C, 0xA9, 0xC9, 0x08, 0xE8, 0x95, 0x80, 0xDF, 0x94, 0xFA, 0x75, 0x8F, 0x3F, 0xA6,
    0x47, 0x07, 0xA7, 0xFC, 0xF3, 0x73, 0x17, 0xBA, 0x83, 0x59, 0x3C, 0x19, 0xE6, 0x85, 0x4F, 0xA8,
    0x68, 0x6B, 0x81, 0xB2, 0x71, 0x64, 0xDA, 0x8B, 0xF8, 0xEB, 0x0F, 0x4B, 0x70, 0x56, 0x9D, 0x35,
    0x1E, 0x24, 0x0E, 0x5E, 0x63, 0x58, 0xD1, 0xA2, 0x25, 0x22, 0x7C, 0x3B, 0x01, 0x21, 0x78, 0x87,
    0xD4, 0x00, 0x46, 0x57, 0x9F, 0xD3, 0x27, 0x52, 0x4C, 0x36, 0x02, 0xE7, 0xA0, 0xC4, 0xC8, 0x9E,
    0xEA, 0xBF, 0x8A, 0xD2, 0x40, 0xC7, 0x38, 0xB5, 0xA3, 0xF7, 0xF2, 0xCE, 0xF9, 0x61, 0x15, 0xA1,
    0xE0, 0xAE, 0x5D, 0xA4, 0x9B, 0x34, 0x1A, 0x55, 0xAD, 0x93, 0x32, 0x30, 0xF5, 0x8C, 0xB1, 0xE3,
    0x1D, 0xF6, 0xE2, 0x2E, 0x82, 0x66, 0xCA, 0x60, 0xC0, 0x29, 0x23, 0xAB, 0x0D, 0x53, 0x4E, 0x6F,
    0xD5, 0xDB, 0x37, 0x45, 0xDE, 0xFD, 0x8E, 0x2F, 0x03, 0xFF, 0x6A, 0x72, 0x6D, 0x6C, 0x5B, 0x51,
    0x8D, 0x1B, 0xAF, 0x92, 0xBB, 0xDD, 0xBC, 0x7F, 0x11, 0xD9, 0x5C, 0x41, 0x1F, 0x10, 0x5A, 0xD8,
    0x0A, 0xC1, 0x31, 0x88, 0xA5, 0xCD, 0x7B, 0xBD, 0x2D, 0x74, 0xD0, 0x12, 0xB8, 0xE5, 0xB4, 0xB0,
    0x89, 0x69, 0x97, 0x4A, 0x0C, 0x96, 0x77, 0x7E, 0x65, 0xB9, 0xF1, 0x09, 0xC5, 0x6E, 0xC6, 0x84,
    0x18, 0xF0, 0x7D, 0xEC, 0x3A, 0xDC, 0x4D, 0x20, 0x79, 0xEE, 0x5F, 0x3E, 0xD7, 0xCB, 0x39, 0x48,
};

static uint32_t ref_rotl(uint32_t x, int n) {
    return (x << n) | (x >> (32 - n));
}

static uint32_t ref_tau(uint32_t x) {
    return ((uint32_t)ref_sbox[x >> 24] << 24) | ((uint32_t)ref_sbox[(x >> 16) & 0xFF] << 16) |
           ((uint32_t)ref_sbox[(x >> 8) & 0xFF] << 8) | ref_sbox[x & 0xFF];
}

static void ref_key_schedule(uint32_t rk[32], const uint8_t key[16]) {
    static const uint32_t fk[4] = {0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC};
    uint32_t k[36];
    for (int i = 0; i < 4; i++)
        k[i] = hwc_load_be32(key + 4 * i) ^ fk[i];
    for (int i = 0; i < 32; i++) {
        uint32_t ck = 0;
        for (int j = 0; j < 4; j++)
            ck = (ck << 8) | (uint32_t)(((4 * i + j) * 7) & 0xFF);
        uint32_t b = ref_tau(k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ ck);
        k[i + 4] = k[i] ^ b ^ ref_rotl(b, 13) ^ ref_rotl(b, 23);
        rk[i] = k[i + 4];
    }
}

static void ref_crypt(const uint32_t rk[32], int decrypt, uint8_t out[16], const uint8_t in[16]) {
    uint32_t x[36];
    for (int i = 0; i < 4; i++)
        x[i] = hwc_load_be32(in + 4 * i);
    for (int i = 0; i < 32; i++) {
        uint32_t b = ref_tau(x[i + 1] ^ x[i + 2] ^ x[i + 3] ^ rk[decrypt ? 31 - i : i]);
        x[i + 4] = x[i] ^ b ^ ref_rotl(b, 2) ^ ref_rotl(b, 10) ^ ref_rotl(b, 18) ^ ref_rotl(b, 24);
    }
    for (int i = 0; i < 4; i++)
        hwc_store_be32(out + 4 * i, x[35 - i]);
}

/* ------------------------------------------------------------- helpers */

static const hwc_block_impl *impl;

static void unhex16(uint8_t out[16], const char *hex) {
    size_t len = 0;
    uint8_t *bytes = test_unhex(hex, &len);
    if (!CHECK(bytes && len == 16)) {
        memset(out, 0, 16);
    } else {
        memcpy(out, bytes, 16);
    }
    free(bytes);
}

/* ---------------------------------------------------------------- tests */

static void test_table(void) {
    CHECK(impl != NULL);
    CHECK(strcmp(impl->name, "ct") == 0);
    CHECK(impl->family == HWC_FAMILY_SM4);
    CHECK(impl->required_caps == 0);
    CHECK(impl->flags & HWC_IMPL_CONSTANT_TIME);
    CHECK(impl->ghash_name && strcmp(impl->ghash_name, "ct") == 0);
    CHECK(impl->set_key && impl->ecb_enc && impl->ecb_dec);
}

/* HWC_TEST_STRIDE=N (N > 1), for slow runs such as valgrind's
 * (docs/TESTING.md): the random trials run every Nth, and the million-block
 * chain of example 2 becomes 1,000,000/N blocks checked against the
 * reference (the published answer exists only for the full chain).  Unset
 * or 1: everything. */
static long test_stride(void) {
    const char *s = getenv("HWC_TEST_STRIDE");
    long v = s ? strtol(s, NULL, 10) : 1;
    return v > 1 ? v : 1;
}

static void test_sbox(void) {
    uint8_t computed[256];
    hwc_sm4_ct_sbox_for_test(computed);
    CHECK_MEM(computed, ref_sbox, 256, "computed S-box vs GB/T 32907 table");
}

/* GB/T 32907-2016 Appendix A, examples 1 and 2. */
static void test_standard_examples(void) {
    uint8_t key[16], plain[16], want1[16], want2[16], buf[16];
    hwc_ks ks;
    unhex16(key, "0123456789abcdeffedcba9876543210");
    memcpy(plain, key, 16);
    unhex16(want1, "681edf34d206965e86b3e94f536e4246");
    unhex16(want2, "595298c7c6fd271f0402f804c33d3f66");

    impl->set_key(&ks, key, 16, 1);
    impl->ecb_enc(&ks, buf, plain, 1);
    CHECK_MEM(buf, want1, 16, "example 1 encrypt");
    impl->ecb_dec(&ks, buf, want1, 1);
    CHECK_MEM(buf, plain, 16, "example 1 decrypt");

    /* Example 2: encrypt the same block 1,000,000 times with the same key.
     * Every call is one block, the slowest case of a bitsliced back end. */
    uint32_t rk[32];
    ref_key_schedule(rk, key);
    long chain = 1000000 / test_stride();
    memcpy(buf, plain, 16);
    for (long i = 0; i < chain; i++)
        impl->ecb_enc(&ks, buf, buf, 1);
    if (chain == 1000000) {
        CHECK_MEM(buf, want2, 16, "example 2 (10^6 encryptions)");
    } else {
        uint8_t ref[16];
        memcpy(ref, plain, 16);
        for (long i = 0; i < chain; i++)
            ref_crypt(rk, 0, ref, ref);
        CHECKF(memcmp(buf, ref, 16) == 0, "example 2 shortened by HWC_TEST_STRIDE to %ld chained encryptions, vs the reference",
               chain);
        test_skip("example 2 known answer (10^6 encryptions)", "HWC_TEST_STRIDE is set: shortened chain checked against the reference instead");
    }

    /* The reference agrees too (checks the reference itself). */
    ref_crypt(rk, 0, buf, plain);
    CHECK_MEM(buf, want1, 16, "reference example 1");
}

#define MAX_BLOCKS 40

/* Every count 0..40 in one call equals one-block calls; bytes past the
 * output stay untouched; decryption inverts. */
static void test_multi_block(void) {
    uint8_t key[16], in[MAX_BLOCKS * 16], one[MAX_BLOCKS * 16], many[MAX_BLOCKS * 16 + 16], back[MAX_BLOCKS * 16];
    hwc_ks ks;
    test_rand_bytes(key, sizeof key);
    test_rand_bytes(in, sizeof in);
    impl->set_key(&ks, key, 16, 1);
    for (size_t i = 0; i < MAX_BLOCKS; i++)
        impl->ecb_enc(&ks, one + 16 * i, in + 16 * i, 1);
    for (size_t n = 0; n <= MAX_BLOCKS; n++) {
        memset(many, 0xA5, sizeof many);
        impl->ecb_enc(&ks, many, in, n);
        CHECKF(memcmp(many, one, 16 * n) == 0, "encrypt %zu blocks in one call", n);
        int untouched = 1;
        for (size_t i = 16 * n; i < sizeof many; i++)
            untouched &= many[i] == 0xA5;
        CHECKF(untouched, "encrypt %zu blocks wrote past the end", n);
        memset(back, 0x5A, sizeof back);
        impl->ecb_dec(&ks, back, many, n);
        CHECKF(memcmp(back, in, 16 * n) == 0, "decrypt %zu blocks in one call", n);
        untouched = 1;
        for (size_t i = 16 * n; i < sizeof back; i++)
            untouched &= back[i] == 0x5A;
        CHECKF(untouched, "decrypt %zu blocks wrote past the end", n);
    }
}

static void test_in_place_and_alignment(void) {
    uint8_t key[16], in[MAX_BLOCKS * 16], want[MAX_BLOCKS * 16];
    uint8_t storage[MAX_BLOCKS * 16 + 32];
    hwc_ks ks;
    uint32_t rk[32];
    test_rand_bytes(key, sizeof key);
    test_rand_bytes(in, sizeof in);
    impl->set_key(&ks, key, 16, 1);
    ref_key_schedule(rk, key);
    for (size_t i = 0; i < MAX_BLOCKS; i++)
        ref_crypt(rk, 0, want + 16 * i, in + 16 * i);

    static const size_t counts[] = {1, 7, 8, 15, 16, 17, 33, 40};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        size_t n = counts[c];
        for (size_t offset = 0; offset < 16; offset++) {
            uint8_t *buf = storage + offset;
            memcpy(buf, in, 16 * n);
            impl->ecb_enc(&ks, buf, buf, n);
            CHECKF(memcmp(buf, want, 16 * n) == 0, "in-place encrypt, %zu blocks, offset %zu", n, offset);
            impl->ecb_dec(&ks, buf, buf, n);
            CHECKF(memcmp(buf, in, 16 * n) == 0, "in-place decrypt, %zu blocks, offset %zu", n, offset);
            /* Out-of-place with input and output at different offsets. */
            uint8_t out_storage[MAX_BLOCKS * 16 + 16];
            uint8_t *out = out_storage + (15 - offset);
            impl->ecb_enc(&ks, out, buf, n);
            CHECKF(memcmp(out, want, 16 * n) == 0, "misaligned encrypt, %zu blocks, offset %zu", n, offset);
        }
    }
}

static void test_random_vs_reference(void) {
    for (int trial = 0; trial < 300; trial += (int)test_stride()) {
        uint8_t key[16], in[MAX_BLOCKS * 16], got[MAX_BLOCKS * 16], want[MAX_BLOCKS * 16];
        hwc_ks ks;
        uint32_t rk[32];
        size_t n = (size_t)(test_rand() % (MAX_BLOCKS + 1));
        test_rand_bytes(key, sizeof key);
        test_rand_bytes(in, sizeof in);
        impl->set_key(&ks, key, 16, trial & 1);
        ref_key_schedule(rk, key);

        for (size_t i = 0; i < n; i++)
            ref_crypt(rk, 0, want + 16 * i, in + 16 * i);
        impl->ecb_enc(&ks, got, in, n);
        CHECKF(memcmp(got, want, 16 * n) == 0, "random encrypt, trial %d, %zu blocks", trial, n);

        for (size_t i = 0; i < n; i++)
            ref_crypt(rk, 1, want + 16 * i, in + 16 * i);
        impl->ecb_dec(&ks, got, in, n);
        CHECKF(memcmp(got, want, 16 * n) == 0, "random decrypt, trial %d, %zu blocks", trial, n);
    }
}

#ifdef HWC_HAVE_OPENSSL
static void test_openssl(void) {
#ifndef OPENSSL_NO_SM4
    EVP_CIPHER *sm4 = EVP_CIPHER_fetch(NULL, "SM4-ECB", NULL);
    if (!sm4) {
        test_skip("OpenSSL SM4-ECB", "not available in this OpenSSL");
        return;
    }
    for (int trial = 0; trial < 100; trial += (int)test_stride()) {
        uint8_t key[16], in[4096], got[4096], want[4096];
        hwc_ks ks;
        size_t n = 1 + (size_t)(test_rand() % (sizeof in / 16));
        int len = 0;
        test_rand_bytes(key, sizeof key);
        test_rand_bytes(in, sizeof in);
        impl->set_key(&ks, key, 16, 1);
        for (int decrypt = 0; decrypt < 2; decrypt++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            int ok = ctx && EVP_CipherInit_ex(ctx, sm4, NULL, key, NULL, !decrypt) == 1 &&
                     EVP_CIPHER_CTX_set_padding(ctx, 0) == 1 &&
                     EVP_CipherUpdate(ctx, want, &len, in, (int)(16 * n)) == 1 && len == (int)(16 * n);
            CHECK(ok);
            EVP_CIPHER_CTX_free(ctx);
            if (decrypt)
                impl->ecb_dec(&ks, got, in, n);
            else
                impl->ecb_enc(&ks, got, in, n);
            CHECKF(ok && memcmp(got, want, 16 * n) == 0, "OpenSSL %s, trial %d, %zu blocks",
                   decrypt ? "decrypt" : "encrypt", trial, n);
        }
    }
    EVP_CIPHER_free(sm4);
#else
    test_skip("OpenSSL SM4-ECB", "OpenSSL built without SM4");
#endif
}
#endif

int main(void) {
    impl = hwc_sm4_ct_get();
    test_table();
    if (!impl)
        return test_summary("test_ct_sm4");
    test_sbox();
    test_standard_examples();
    test_multi_block();
    test_in_place_and_alignment();
    test_random_vs_reference();
#ifdef HWC_HAVE_OPENSSL
    test_openssl();
#else
    test_skip("OpenSSL SM4-ECB", "built without OpenSSL");
#endif
    return test_summary("test_ct_sm4");
}
