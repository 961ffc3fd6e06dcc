/* The portable constant-time GHASH back end, called directly: the GHASH
 * values of the GCM specification's test cases 2-4, and random H, states and
 * data of 0..40 blocks (whole, split and misaligned) against the bit-by-bit
 * multiplication of SP 800-38D, Algorithm 1, written here. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

/* ------------------------------------------- reference (SP 800-38D Alg. 1) */

static void ref_gf_mul(uint8_t z[16], const uint8_t x[16], const uint8_t y[16]) {
    uint8_t v[16], acc[16] = {0};
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        if ((x[i / 8] >> (7 - i % 8)) & 1)
            for (int j = 0; j < 16; j++)
                acc[j] ^= v[j];
        int lsb = v[15] & 1;
        for (int j = 15; j > 0; j--)
            v[j] = (uint8_t)((v[j] >> 1) | (v[j - 1] << 7));
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xE1;
    }
    memcpy(z, acc, 16);
}

static void ref_ghash(const uint8_t h[16], uint8_t state[16], const uint8_t *in, size_t nblocks) {
    for (size_t i = 0; i < nblocks; i++) {
        uint8_t x[16];
        for (int j = 0; j < 16; j++)
            x[j] = (uint8_t)(state[j] ^ in[16 * i + j]);
        ref_gf_mul(state, x, h);
    }
}

/* ------------------------------------------------------------- helpers */

static const hwc_ghash_impl *impl;

static uint8_t *unhex(const char *hex, size_t *len) {
    uint8_t *bytes = test_unhex(hex, len);
    if (!CHECK(bytes != NULL))
        exit(1);
    return bytes;
}

/* GHASH over pad(A) || pad(C) || [len(A)]64 || [len(C)]64, as in GCM. */
static void check_gcm_case(const char *name, const char *h_hex, const char *aad_hex, const char *c_hex,
                           const char *want_hex) {
    size_t h_len, aad_len, c_len, want_len;
    uint8_t *h = unhex(h_hex, &h_len), *aad = unhex(aad_hex, &aad_len), *c = unhex(c_hex, &c_len),
            *want = unhex(want_hex, &want_len);
    size_t aad_padded = (aad_len + 15) / 16 * 16, c_padded = (c_len + 15) / 16 * 16;
    size_t total = aad_padded + c_padded + 16;
    uint8_t *data = calloc(1, total), state[16] = {0}, ref_state[16] = {0};
    hwc_ghash_key key;
    CHECK(h_len == 16 && want_len == 16 && data);
    memcpy(data, aad, aad_len);
    memcpy(data + aad_padded, c, c_len);
    hwc_store_be64(data + total - 16, (uint64_t)aad_len * 8);
    hwc_store_be64(data + total - 8, (uint64_t)c_len * 8);

    impl->init(&key, h);
    impl->update(&key, state, data, total / 16);
    CHECK_MEM(state, want, 16, name);
    ref_ghash(h, ref_state, data, total / 16);
    CHECK_MEM(ref_state, want, 16, name); /* the reference agrees with the spec */
    free(h), free(aad), free(c), free(want), free(data);
}

/* ---------------------------------------------------------------- tests */

static void test_table(void) {
    CHECK(impl != NULL);
    CHECK(strcmp(impl->name, "ct") == 0);
    CHECK(impl->required_caps == 0);
    CHECK(impl->flags & HWC_IMPL_CONSTANT_TIME);
    CHECK(impl->init && impl->update);
    CHECK(impl->polyval_init == NULL && impl->polyval_update == NULL);
}

/* Test cases 2, 3, 4 of McGrew & Viega, "The Galois/Counter Mode of
 * Operation (GCM)": H = AES_K(0^128) and the GHASH value listed there. */
static void test_gcm_spec(void) {
    check_gcm_case("GCM test case 2", "66e94bd4ef8a2c3b884cfa59ca342b2e", "",
                   "0388dace60b6a392f328c2b971b2fe78", "f38cbb1ad69223dcc3457ae5b6b0f885");
    const char *c3 = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                     "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985";
    check_gcm_case("GCM test case 3", "b83b533708bf535d0aa6e52980d53b78", "", c3,
                   "7f1b32b81b820d02614f8895ac1d4eac");
    check_gcm_case("GCM test case 4", "b83b533708bf535d0aa6e52980d53b78",
                   "feedfacedeadbeeffeedfacedeadbeefabaddad2",
                   "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
                   "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
                   "698e57f70e6ecc7fd9463b7260a9ae5f");
}

#define MAX_BLOCKS 40

static void check_random(const uint8_t h[16], const char *what) {
    uint8_t data[MAX_BLOCKS * 16 + 16], start[16];
    hwc_ghash_key key;
    impl->init(&key, h);
    for (size_t n = 0; n <= MAX_BLOCKS; n++) {
        uint8_t state[16], want[16];
        test_rand_bytes(data, sizeof data);
        test_rand_bytes(start, sizeof start);
        memcpy(want, start, 16);
        ref_ghash(h, want, data, n);

        /* One call. */
        memcpy(state, start, 16);
        impl->update(&key, state, data, n);
        CHECKF(memcmp(state, want, 16) == 0, "%s: %zu blocks in one call", what, n);

        /* Random split into several calls, including empty ones. */
        memcpy(state, start, 16);
        for (size_t done = 0; done < n;) {
            size_t part = 1 + (size_t)(test_rand() % (n - done));
            if (test_rand() % 4 == 0)
                impl->update(&key, state, data + 16 * done, 0);
            impl->update(&key, state, data + 16 * done, part);
            done += part;
        }
        CHECKF(memcmp(state, want, 16) == 0, "%s: %zu blocks in pieces", what, n);

        /* Misaligned input. */
        size_t offset = 1 + (size_t)(test_rand() % 15);
        memmove(data + offset, data, 16 * n);
        memcpy(state, start, 16);
        impl->update(&key, state, data + offset, n);
        CHECKF(memcmp(state, want, 16) == 0, "%s: %zu blocks at offset %zu", what, n, offset);
    }
}

static void test_random(void) {
    uint8_t h[16];
    for (int trial = 0; trial < 50; trial++) {
        test_rand_bytes(h, sizeof h);
        check_random(h, "random H");
    }
    /* Edge keys: 0, 1 (x^0 is the first bit), x^127, all ones. */
    memset(h, 0, 16);
    check_random(h, "H = 0");
    h[0] = 0x80;
    check_random(h, "H = 1");
    memset(h, 0, 16);
    h[15] = 0x01;
    check_random(h, "H = x^127");
    memset(h, 0xFF, 16);
    check_random(h, "H = all ones");
}

/* Many random single products, to reach rare carry patterns. */
static void test_many_products(void) {
    int ok = 1;
    for (int trial = 0; trial < 20000; trial++) {
        uint8_t h[16], x[16], state[16] = {0}, want[16] = {0};
        hwc_ghash_key key;
        test_rand_bytes(h, 16);
        test_rand_bytes(x, 16);
        /* Sparse and dense operands too. */
        if (trial % 4 == 1)
            for (int i = 0; i < 16; i++)
                x[i] |= h[i];
        if (trial % 4 == 2)
            for (int i = 0; i < 16; i++)
                h[i] = (uint8_t)~(h[i] & x[i]);
        impl->init(&key, h);
        impl->update(&key, state, x, 1);
        ref_ghash(h, want, x, 1);
        ok &= memcmp(state, want, 16) == 0;
    }
    CHECK(ok);
}

int main(void) {
    impl = hwc_ghash_ct_get();
    test_table();
    if (!impl)
        return test_summary("test_ct_ghash");
    test_gcm_spec();
    test_random();
    test_many_products();
    return test_summary("test_ct_ghash");
}
