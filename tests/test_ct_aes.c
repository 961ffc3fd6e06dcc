/* The portable constant-time AES back end, called directly: FIPS-197
 * examples, multi-block and in-place calls, and random keys and blocks
 * against a plain byte-oriented AES written here (and OpenSSL if present). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

#ifdef HWC_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

/* Under valgrind, key and data are marked undefined so that memcheck
 * reports any branch or memory address that depends on them. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK 1
#endif
#endif

/* ------------------------------------------------ reference AES (tables) */

static uint8_t ref_sbox[256], ref_inv_sbox[256];

static uint8_t gf_mul(uint8_t a, uint8_t b) {
    uint8_t product = 0;
    while (b) {
        if (b & 1)
            product ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1B : 0));
        b >>= 1;
    }
    return product;
}

/* S-box from its definition: inverse in GF(2^8), then the affine map. */
static void ref_init(void) {
    for (int x = 0; x < 256; x++) {
        uint8_t inverse = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gf_mul((uint8_t)x, (uint8_t)y) == 1)
                inverse = (uint8_t)y;
        uint8_t s = 0x63;
        for (int bit = 0; bit < 8; bit++) {
            int b = ((inverse >> bit) ^ (inverse >> ((bit + 4) & 7)) ^ (inverse >> ((bit + 5) & 7)) ^
                     (inverse >> ((bit + 6) & 7)) ^ (inverse >> ((bit + 7) & 7))) & 1;
            s ^= (uint8_t)(b << bit);
        }
        ref_sbox[x] = s;
        ref_inv_sbox[s] = (uint8_t)x;
    }
}

typedef struct ref_key {
    uint8_t round_keys[15][16];
    int nrounds;
} ref_key;

static void ref_expand(ref_key *rk, const uint8_t *key, size_t key_len) {
    uint8_t w[60][4];
    int nk = (int)(key_len / 4), total = 4 * (nk + 7);
    uint8_t rcon = 1;
    rk->nrounds = nk + 6;
    memcpy(w, key, key_len);
    for (int i = nk; i < total; i++) {
        uint8_t t[4];
        memcpy(t, w[i - 1], 4);
        if (i % nk == 0) {
            uint8_t first = t[0];
            t[0] = (uint8_t)(ref_sbox[t[1]] ^ rcon);
            t[1] = ref_sbox[t[2]];
            t[2] = ref_sbox[t[3]];
            t[3] = ref_sbox[first];
            rcon = gf_mul(rcon, 2);
        } else if (nk > 6 && i % nk == 4) {
            for (int j = 0; j < 4; j++)
                t[j] = ref_sbox[t[j]];
        }
        for (int j = 0; j < 4; j++)
            w[i][j] = (uint8_t)(w[i - nk][j] ^ t[j]);
    }
    memcpy(rk->round_keys, w, (size_t)total * 4);
}

static void ref_add_key(uint8_t s[16], const uint8_t k[16]) {
    for (int i = 0; i < 16; i++)
        s[i] ^= k[i];
}

static void ref_encrypt(const ref_key *rk, uint8_t out[16], const uint8_t in[16]) {
    uint8_t s[16], t[16];
    memcpy(s, in, 16);
    ref_add_key(s, rk->round_keys[0]);
    for (int round = 1; round <= rk->nrounds; round++) {
        for (int c = 0; c < 4; c++) /* SubBytes + ShiftRows */
            for (int r = 0; r < 4; r++)
                t[4 * c + r] = ref_sbox[s[4 * ((c + r) & 3) + r]];
        if (round < rk->nrounds) {
            for (int c = 0; c < 4; c++) {
                const uint8_t *a = t + 4 * c;
                for (int r = 0; r < 4; r++)
                    s[4 * c + r] = (uint8_t)(gf_mul(a[r], 2) ^ gf_mul(a[(r + 1) & 3], 3) ^ a[(r + 2) & 3] ^
                                             a[(r + 3) & 3]);
            }
        } else {
            memcpy(s, t, 16);
        }
        ref_add_key(s, rk->round_keys[round]);
    }
    memcpy(out, s, 16);
}

static void ref_decrypt(const ref_key *rk, uint8_t out[16], const uint8_t in[16]) {
    uint8_t s[16], t[16];
    memcpy(s, in, 16);
    for (int round = rk->nrounds; round >= 1; round--) {
        ref_add_key(s, rk->round_keys[round]);
        if (round < rk->nrounds) {
            for (int c = 0; c < 4; c++) {
                const uint8_t *a = s + 4 * c;
                for (int r = 0; r < 4; r++)
                    t[4 * c + r] = (uint8_t)(gf_mul(a[r], 14) ^ gf_mul(a[(r + 1) & 3], 11) ^
                                             gf_mul(a[(r + 2) & 3], 13) ^ gf_mul(a[(r + 3) & 3], 9));
            }
            memcpy(s, t, 16);
        }
        for (int c = 0; c < 4; c++) /* InvShiftRows + InvSubBytes */
            for (int r = 0; r < 4; r++)
                t[4 * ((c + r) & 3) + r] = ref_inv_sbox[s[4 * c + r]];
        memcpy(s, t, 16);
    }
    ref_add_key(s, rk->round_keys[0]);
    memcpy(out, s, 16);
}

/* ---------------------------------------------------------------- tests */

static const hwc_block_impl *impl;

typedef void (*ecb_fn)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks);

static void fips197_examples(void) {
    static const uint8_t plain[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                      0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    static const struct {
        size_t key_len;
        const char *cipher;
    } examples[] = {
        {16, "69c4e0d86a7b0430d8cdb78070b4c55a"}, /* C.1 */
        {24, "dda97ca4864cdfe06eaf70a0ec0d7191"}, /* C.2 */
        {32, "8ea2b7ca516745bfeafc49904b496089"}, /* C.3 */
    };
    uint8_t key[32];
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        size_t len;
        uint8_t *want = test_unhex(examples[e].cipher, &len);
        hwc_ks ks;
        uint8_t got[16];
        impl->set_key(&ks, key, examples[e].key_len, 1);
        impl->ecb_enc(&ks, got, plain, 1);
        CHECK_MEM(got, want, 16, "FIPS-197 C encrypt");
        impl->ecb_dec(&ks, got, want, 1);
        CHECK_MEM(got, plain, 16, "FIPS-197 C decrypt");
        free(want);
    }
}

/* Every count 0..40 in one call equals the blocks one at a time. */
static void multi_block_calls(void) {
    enum { MAX = 40 };
    static const size_t key_lens[] = {16, 24, 32};
    uint8_t key[32], in[MAX * 16], got[MAX * 16 + 16], want[MAX * 16];
    for (size_t k = 0; k < 3; k++) {
        hwc_ks ks;
        test_rand_bytes(key, sizeof key);
        impl->set_key(&ks, key, key_lens[k], 1);
        test_rand_bytes(in, sizeof in);
        for (int dir = 0; dir < 2; dir++) {
            ecb_fn fn = dir ? impl->ecb_dec : impl->ecb_enc;
            for (size_t b = 0; b < MAX; b++)
                fn(&ks, want + 16 * b, in + 16 * b, 1);
            for (size_t n = 0; n <= MAX; n++) {
                memset(got, 0xA5, sizeof got);
                fn(&ks, got, in, n);
                CHECKF(memcmp(got, want, 16 * n) == 0, "key_len %zu dir %d count %zu", key_lens[k], dir, n);
                /* nothing written past the end */
                CHECKF(got[16 * n] == 0xA5 && got[16 * n + 15] == 0xA5, "overrun at count %zu", n);
            }
        }
    }
}

/* out == in, and misaligned buffers. */
static void in_place_and_unaligned(void) {
    uint8_t key[32], in[23 * 16], want[23 * 16], buf[23 * 16 + 8];
    hwc_ks ks;
    test_rand_bytes(key, sizeof key);
    test_rand_bytes(in, sizeof in);
    impl->set_key(&ks, key, 32, 1);
    impl->ecb_enc(&ks, want, in, 23);
    for (size_t shift = 0; shift < 8; shift++) {
        uint8_t *p = buf + shift;
        memcpy(p, in, sizeof in);
        impl->ecb_enc(&ks, p, p, 23);
        CHECK_MEM(p, want, sizeof want, "in-place encrypt");
        impl->ecb_dec(&ks, p, p, 23);
        CHECK_MEM(p, in, sizeof in, "in-place decrypt");
    }
}

static void random_against_reference(void) {
    static const size_t key_lens[] = {16, 24, 32};
    for (int trial = 0; trial < 300; trial++) {
        enum { N = 9 };
        uint8_t key[32], in[N * 16], got[N * 16], want[N * 16];
        size_t key_len = key_lens[trial % 3];
        hwc_ks ks;
        ref_key rk;
        test_rand_bytes(key, sizeof key);
        test_rand_bytes(in, sizeof in);
        impl->set_key(&ks, key, key_len, 1);
        ref_expand(&rk, key, key_len);

        for (int b = 0; b < N; b++)
            ref_encrypt(&rk, want + 16 * b, in + 16 * b);
        impl->ecb_enc(&ks, got, in, N);
        if (!CHECK_MEM(got, want, sizeof got, "encrypt vs reference"))
            return;

        for (int b = 0; b < N; b++)
            ref_decrypt(&rk, want + 16 * b, in + 16 * b);
        impl->ecb_dec(&ks, got, in, N);
        if (!CHECK_MEM(got, want, sizeof got, "decrypt vs reference"))
            return;
    }
}

/* Every byte value at every position of a block, in every lane of the
 * bitsliced state (256 blocks): each value enters the first SubBytes
 * (and, as ciphertext, the first InvSubBytes) at each position. */
static void every_byte_value(void) {
    enum { N = 256 };
    static uint8_t in[N * 16], got[N * 16], want[N * 16];
    uint8_t key[16] = {0};
    hwc_ks ks;
    ref_key rk;
    impl->set_key(&ks, key, 16, 1);
    ref_expand(&rk, key, 16);
    for (int v = 0; v < N; v++)
        for (int i = 0; i < 16; i++)
            in[16 * v + i] = (uint8_t)(v + 17 * i);
    for (int v = 0; v < N; v++)
        ref_encrypt(&rk, want + 16 * v, in + 16 * v);
    impl->ecb_enc(&ks, got, in, N);
    CHECK_MEM(got, want, sizeof got, "all byte values encrypt");
    impl->ecb_dec(&ks, got, want, N);
    CHECK_MEM(got, in, sizeof got, "all byte values decrypt");
    /* the same blocks as ciphertexts: every value enters the first InvSubBytes */
    for (int v = 0; v < N; v++)
        ref_decrypt(&rk, want + 16 * v, in + 16 * v);
    impl->ecb_dec(&ks, got, in, N);
    CHECK_MEM(got, want, sizeof got, "all byte values as ciphertext");
}

/* Run `valgrind --error-exitcode=1 ./test_ct_aes`: set_key, ecb_enc and
 * ecb_dec on secrets memcheck treats as undefined must report nothing. */
static void constant_time_under_memcheck(void) {
#ifdef HAVE_MEMCHECK
    static const size_t key_lens[] = {16, 24, 32};
    enum { N = 7 }; /* a full pass and a tail */
    for (size_t k = 0; k < 3; k++) {
        uint8_t key[32], plain[N * 16], cipher[N * 16], back[N * 16];
        hwc_ks ks;
        test_rand_bytes(key, sizeof key);
        test_rand_bytes(plain, sizeof plain);
        VALGRIND_MAKE_MEM_UNDEFINED(key, sizeof key);
        VALGRIND_MAKE_MEM_UNDEFINED(plain, sizeof plain);
        impl->set_key(&ks, key, key_lens[k], 1);
        impl->ecb_enc(&ks, cipher, plain, N);
        impl->ecb_dec(&ks, back, cipher, N);
        VALGRIND_MAKE_MEM_DEFINED(plain, sizeof plain);
        VALGRIND_MAKE_MEM_DEFINED(back, sizeof back);
        CHECK_MEM(back, plain, sizeof back, "round trip with undefined secrets");
    }
#else
    test_skip("constant-time check", "valgrind/memcheck.h not found");
#endif
}

#ifdef HWC_HAVE_OPENSSL
static void random_against_openssl(void) {
    static const size_t key_lens[] = {16, 24, 32};
    for (int trial = 0; trial < 60; trial++) {
        enum { MAX = 37 };
        uint8_t key[32], in[MAX * 16], got[MAX * 16], want[MAX * 16];
        size_t key_len = key_lens[trial % 3];
        size_t n = (size_t)(test_rand() % (MAX + 1));
        const EVP_CIPHER *cipher = key_len == 16 ? EVP_aes_128_ecb() : key_len == 24 ? EVP_aes_192_ecb()
                                                                                        : EVP_aes_256_ecb();
        hwc_ks ks;
        test_rand_bytes(key, sizeof key);
        test_rand_bytes(in, sizeof in);
        impl->set_key(&ks, key, key_len, 1);

        for (int dir = 0; dir < 2; dir++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            int len = 0, ok = ctx && EVP_CipherInit_ex(ctx, cipher, NULL, key, NULL, dir ? 0 : 1) &&
                              EVP_CIPHER_CTX_set_padding(ctx, 0) &&
                              EVP_CipherUpdate(ctx, want, &len, in, (int)(n * 16));
            EVP_CIPHER_CTX_free(ctx);
            if (!CHECKF(ok && (size_t)len == n * 16, "OpenSSL EVP ECB failed"))
                return;
            (dir ? impl->ecb_dec : impl->ecb_enc)(&ks, got, in, n);
            if (!CHECKF(memcmp(got, want, n * 16) == 0, "vs OpenSSL: key_len %zu dir %d count %zu", key_len,
                        dir, n))
                return;
        }
    }
}
#endif

int main(void) {
    impl = hwc_aes_ct_get();
    if (!CHECK(impl != NULL))
        return test_summary("test_ct_aes");
    CHECK(strcmp(impl->name, "ct") == 0);
    CHECK(impl->family == HWC_FAMILY_AES);
    CHECK(impl->required_caps == 0);
    CHECK(impl->flags & HWC_IMPL_CONSTANT_TIME);
    CHECK(impl->set_key && impl->ecb_enc && impl->ecb_dec);

    ref_init();
    CHECK(ref_sbox[0x00] == 0x63 && ref_sbox[0x53] == 0xed); /* the reference itself */

    fips197_examples();
    multi_block_calls();
    in_place_and_unaligned();
    random_against_reference();
    every_byte_value();
    constant_time_under_memcheck();
#ifdef HWC_HAVE_OPENSSL
    random_against_openssl();
#else
    test_skip("OpenSSL comparison", "built without OpenSSL");
#endif
    return test_summary("test_ct_aes");
}
