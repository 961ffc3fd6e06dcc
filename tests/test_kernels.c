/* Kernel contracts, below the public API: every bulk kernel of every block
 * back end usable here (src/backend.h, hwc_block_impl) against a reference
 * built from one-block ECB calls of the same back end, whose ECB is first
 * checked against ct.
 *
 * The API tests reach the kernels only through the modes, which never hand
 * them some legal states: a CCM counter about to carry out of its low word
 * or out of all 128 bits, an OCB call whose first block index is not 1 or a
 * multiple of the kernel's stride, arbitrary L values. Here each kernel gets
 * block counts around every stride (0..65, 100, 129, 257), aligned,
 * misaligned and in-place buffers (nothing may be written past the
 * output), counters before the last byte's, the 2^32, 2^64 and 2^128
 * wraps, and must return the same output and the same chaining state (IV,
 * counter, tweak, MAC, offset, checksum, GHASH state) as the reference.
 * GCM-SIV's CTR (ctr32le) starts before its little-endian 2^32 wrap too,
 * and the key-wrap kernels (kw_w, kw_winv) are compared with the generic
 * ones for both block directions.
 * Every GHASH back end (and POLYVAL on it) is compared with ct the same way.
 * HWC_TEST_IMPL restricts the back ends (a block or a GHASH one),
 * HWC_TEST_STRIDE thins the counts. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "testutil.h"

#define MAX_BLOCKS 257
#define SLACK 8 /* room for misaligned starts */

/* Every count up to 66: each tail length after one and two batches of the
 * 16- and 32-block kernels (fused GCM handles its tail in the same call);
 * then a spread of tails after more batches. */
static const size_t all_counts[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
                                    34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
                                    51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67,
                                    70, 74, 77, 83, 86, 90, 93, 95, 96, 97, 100, 127, 128, 129, 130, 257};

typedef struct {
    const hwc_block_impl *im;
    hwc_ks ks;
    const char *name;
    size_t key_len;
} kern;

static void enc1(const kern *k, uint8_t out[16], const uint8_t in[16]) {
    k->im->ecb_enc(&k->ks, out, in, 1);
}
static void dec1(const kern *k, uint8_t out[16], const uint8_t in[16]) {
    k->im->ecb_dec(&k->ks, out, in, 1);
}
static void xor16(uint8_t *d, const uint8_t *a, const uint8_t *b) {
    for (int i = 0; i < 16; i++)
        d[i] = a[i] ^ b[i];
}
static void inc_be(uint8_t *c, int from) { /* bytes from..15 as a big-endian counter */
    for (int i = 15; i >= from && ++c[i] == 0; i--) {
    }
}
static void xts_double(uint8_t t[16]) { /* IEEE 1619: little-endian times alpha */
    unsigned carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)((t[i] << 1) | (t[i - 1] >> 7));
    t[0] = (uint8_t)((t[0] << 1) ^ (0x87 & (0u - carry)));
}
static unsigned ntz64(uint64_t x) {
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}

/* The buffer layouts: where in and out start. */
enum { LAY_ALIGNED, LAY_IN_ODD, LAY_OUT_ODD, LAY_IN_PLACE, LAYOUTS };
static const char *const lay_names[LAYOUTS] = {"aligned", "in+1", "out+3", "in place"};

typedef struct {
    alignas(64) uint8_t inbuf[16 * MAX_BLOCKS + SLACK];
    alignas(64) uint8_t outbuf[16 * MAX_BLOCKS + SLACK];
    uint8_t src[16 * MAX_BLOCKS];  /* the input */
    uint8_t want[16 * MAX_BLOCKS]; /* the reference output */
    uint8_t *in, *out;
    uint8_t *past_end; /* the bytes right after the output, which no kernel may write */
    size_t past_len;
} bufs;

#define PAST_END_BYTE 0xa5

static void place(bufs *b, int lay, size_t n) {
    b->in = b->inbuf + (lay == LAY_IN_ODD);
    b->out = lay == LAY_IN_PLACE ? b->in : b->outbuf + (lay == LAY_OUT_ODD ? 3 : 0);
    memcpy(b->in, b->src, 16 * n);
    if (b->out != b->in)
        memset(b->out, 0x5a, 16 * n);
    /* Up to two blocks after the output (a register of a partial tail
     * written whole would land there). */
    const uint8_t *end = b->out == b->in ? b->inbuf + sizeof b->inbuf : b->outbuf + sizeof b->outbuf;
    b->past_end = b->out + 16 * n;
    b->past_len = (size_t)(end - b->past_end) < 32 ? (size_t)(end - b->past_end) : 32;
    memset(b->past_end, PAST_END_BYTE, b->past_len);
}

static int past_end_intact(const bufs *b) {
    for (size_t i = 0; i < b->past_len; i++)
        if (b->past_end[i] != PAST_END_BYTE)
            return 0;
    return 1;
}

static void report(const kern *k, const bufs *b, const char *kernel, size_t n, int lay, const char *what, int ok_out,
                   int ok_state) {
    const int ok_past = past_end_intact(b);
    CHECKF(ok_out && ok_state && ok_past, "%s (%s-%zu) %s, %zu blocks, %s, %s: %s%s%s", k->im->name,
           k->im->family == HWC_FAMILY_AES ? "aes" : "sm4", 8 * k->key_len, kernel, n, lay_names[lay], what,
           ok_out ? "" : "output differs ", ok_state ? "" : "state differs ", ok_past ? "" : "wrote past the end");
}

/* CBC/CFB/OFB encryption and decryption, and CBC-MAC. */
static void check_chained(const kern *k, bufs *b, size_t n, int lay) {
    const hwc_block_impl *im = k->im;
    uint8_t iv0[16], iv[16], want_iv[16], t[16];
    test_rand_bytes(iv0, 16);
    test_rand_bytes(b->src, 16 * n);
    struct {
        const char *name;
        void (*fn)(const hwc_ks *, uint8_t *, uint8_t *, const uint8_t *, size_t);
        int mode; /* 0 cbc enc, 1 cbc dec, 2 cfb enc, 3 cfb dec, 4 ofb */
    } ks[] = {{"cbc_enc", im->cbc_enc, 0}, {"cbc_dec", im->cbc_dec, 1}, {"cfb_enc", im->cfb_enc, 2},
              {"cfb_dec", im->cfb_dec, 3}, {"ofb", im->ofb, 4}};
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        if (!ks[j].fn)
            continue;
        memcpy(want_iv, iv0, 16);
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = b->src + 16 * i;
            uint8_t *c = b->want + 16 * i;
            switch (ks[j].mode) {
            case 0: xor16(t, want_iv, p); enc1(k, c, t); memcpy(want_iv, c, 16); break;
            case 1: dec1(k, t, p); xor16(c, t, want_iv); memcpy(want_iv, p, 16); break;
            case 2: enc1(k, t, want_iv); xor16(c, t, p); memcpy(want_iv, c, 16); break;
            case 3: enc1(k, t, want_iv); xor16(c, t, p); memcpy(want_iv, p, 16); break;
            default: enc1(k, want_iv, want_iv); xor16(c, want_iv, p); break;
            }
        }
        place(b, lay, n);
        memcpy(iv, iv0, 16);
        ks[j].fn(&k->ks, iv, b->out, b->in, n);
        report(k, b, ks[j].name, n, lay, "vs one-block ECB", memcmp(b->out, b->want, 16 * n) == 0,
               memcmp(iv, want_iv, 16) == 0);
    }
    if (im->cbc_mac && lay != LAY_OUT_ODD && lay != LAY_IN_PLACE) {
        memcpy(want_iv, iv0, 16);
        for (size_t i = 0; i < n; i++) {
            xor16(t, want_iv, b->src + 16 * i);
            enc1(k, want_iv, t);
        }
        place(b, lay, n);
        memcpy(iv, iv0, 16);
        im->cbc_mac(&k->ks, iv, b->in, n);
        report(k, b, "cbc_mac", n, lay, "vs one-block ECB", memcmp(b->in, b->src, 16 * n) == 0,
               memcmp(iv, want_iv, 16) == 0);
    }
}

/* Counters just before a wrap: which = 0 random, 1 low word, 2 low 64 bits,
 * 3 all 128 bits, 4 the last byte only (a carry into byte 14, where the
 * kernels that count in that byte change method); the wrap falls inside
 * the call when n allows. */
enum { COUNTER_STARTS = 5 };
static void counter_start(uint8_t ctr[16], int which, size_t n) {
    test_rand_bytes(ctr, 16);
    uint8_t before = (uint8_t)(n / 2);
    if (which == 1)
        memset(ctr + 12, 0xff, 4);
    else if (which == 2)
        memset(ctr + 8, 0xff, 8);
    else if (which == 3)
        memset(ctr, 0xff, 16);
    if (which != 0)
        ctr[15] = (uint8_t)(0xff - before);
}

/* CTR32, CTR128 and fused CCM. */
static void check_counters(const kern *k, bufs *b, size_t n, int lay) {
    const hwc_block_impl *im = k->im;
    uint8_t ctr0[16], ctr[16], want_ctr[16], mac0[16], mac[16], want_mac[16], t[16];
    for (int which = 0; which < COUNTER_STARTS; which++) {
        counter_start(ctr0, which, n);
        test_rand_bytes(b->src, 16 * n);
        test_rand_bytes(mac0, 16);
        for (int width = 0; width < 2; width++) { /* ctr32 (mod 2^32), ctr128 */
            void (*fn)(const hwc_ks *, uint8_t *, uint8_t *, const uint8_t *, size_t) =
                width ? im->ctr128 : im->ctr32;
            if (!fn)
                continue;
            memcpy(want_ctr, ctr0, 16);
            for (size_t i = 0; i < n; i++) {
                enc1(k, t, want_ctr);
                xor16(b->want + 16 * i, b->src + 16 * i, t);
                inc_be(want_ctr, width ? 0 : 12);
            }
            place(b, lay, n);
            memcpy(ctr, ctr0, 16);
            fn(&k->ks, ctr, b->out, b->in, n);
            report(k, b, width ? "ctr128" : "ctr32", n, lay, which ? "counter wraps" : "random counter",
                   memcmp(b->out, b->want, 16 * n) == 0, memcmp(ctr, want_ctr, 16) == 0);
        }
        if (im->ctr32le) { /* GCM-SIV: bytes 0..3 little-endian, wrapping mod 2^32 */
            memcpy(want_ctr, ctr0, 16);
            if (which != 0) {
                memset(want_ctr, 0xff, 4);
                want_ctr[0] = (uint8_t)(0xff - n / 2);
            }
            uint8_t le0[16];
            memcpy(le0, want_ctr, 16);
            for (size_t i = 0; i < n; i++) {
                enc1(k, t, want_ctr);
                xor16(b->want + 16 * i, b->src + 16 * i, t);
                for (int j = 0; j < 4 && ++want_ctr[j] == 0; j++) {
                }
            }
            place(b, lay, n);
            memcpy(ctr, le0, 16);
            im->ctr32le(&k->ks, ctr, b->out, b->in, n);
            report(k, b, "ctr32le", n, lay, which ? "counter wraps" : "random counter",
                   memcmp(b->out, b->want, 16 * n) == 0, memcmp(ctr, want_ctr, 16) == 0);
        }
        for (int dec = 0; dec < 2; dec++) {
            void (*fn)(const hwc_ks *, uint8_t *, uint8_t *, uint8_t *, const uint8_t *, size_t) =
                dec ? im->ccm_dec : im->ccm_enc;
            if (!fn)
                continue;
            memcpy(want_ctr, ctr0, 16);
            memcpy(want_mac, mac0, 16);
            for (size_t i = 0; i < n; i++) {
                enc1(k, t, want_ctr);
                inc_be(want_ctr, 0);
                xor16(b->want + 16 * i, b->src + 16 * i, t);
                xor16(t, want_mac, dec ? b->want + 16 * i : b->src + 16 * i); /* the MAC is over the plaintext */
                enc1(k, want_mac, t);
            }
            place(b, lay, n);
            memcpy(ctr, ctr0, 16);
            memcpy(mac, mac0, 16);
            fn(&k->ks, ctr, mac, b->out, b->in, n);
            report(k, b, dec ? "ccm_dec" : "ccm_enc", n, lay, which ? "counter wraps" : "random counter",
                   memcmp(b->out, b->want, 16 * n) == 0,
                   memcmp(ctr, want_ctr, 16) == 0 && memcmp(mac, want_mac, 16) == 0);
        }
    }
}

/* XTS (full blocks, tweak already encrypted) and OCB (any first index). */
static void check_tweaked(const kern *k, bufs *b, size_t n, int lay) {
    const hwc_block_impl *im = k->im;
    uint8_t t0[16], tw[16], want_tw[16], x[16];
    test_rand_bytes(t0, 16);
    test_rand_bytes(b->src, 16 * n);
    for (int dec = 0; dec < 2; dec++) {
        void (*fn)(const hwc_ks *, uint8_t *, uint8_t *, const uint8_t *, size_t) = dec ? im->xts_dec : im->xts_enc;
        if (!fn)
            continue;
        memcpy(want_tw, t0, 16);
        for (size_t i = 0; i < n; i++) {
            xor16(x, b->src + 16 * i, want_tw);
            (dec ? dec1 : enc1)(k, x, x);
            xor16(b->want + 16 * i, x, want_tw);
            xts_double(want_tw);
        }
        place(b, lay, n);
        memcpy(tw, t0, 16);
        fn(&k->ks, tw, b->out, b->in, n);
        report(k, b, dec ? "xts_dec" : "xts_enc", n, lay, "vs one-block ECB", memcmp(b->out, b->want, 16 * n) == 0,
               memcmp(tw, want_tw, 16) == 0);
    }

    static alignas(64) uint8_t L[64][16];
    test_rand_bytes(&L[0][0], sizeof L);
    /* First indices: 1, just below and at strides (4, 8, 16, 32, 64 blocks),
     * and a large random one (the kernels take it as 64-bit). */
    const uint64_t firsts[] = {1, 2, 3, 5, 7, 8, 9, 13, 16, 31, 32, 33, 61, 64, 65,
                               ((uint64_t)1 << 32) - 5, (test_rand() >> 8) | 1};
    for (size_t f = 0; f < sizeof firsts / sizeof firsts[0]; f++) {
        if (n > 17 && f % 4 != 0) /* long runs: a quarter of the starts */
            continue;
        uint8_t off0[16], sum0[16], off[16], sum[16], want_off[16], want_sum[16];
        test_rand_bytes(off0, 16);
        test_rand_bytes(sum0, 16);
        for (int dec = 0; dec < 2; dec++) {
            void (*fn)(const hwc_ks *, const uint8_t (*)[16], uint64_t, uint8_t *, uint8_t *, uint8_t *,
                       const uint8_t *, size_t) = dec ? im->ocb_dec : im->ocb_enc;
            if (!fn)
                continue;
            memcpy(want_off, off0, 16);
            memcpy(want_sum, sum0, 16);
            for (size_t i = 0; i < n; i++) {
                xor16(want_off, want_off, L[ntz64(firsts[f] + i)]);
                xor16(x, b->src + 16 * i, want_off);
                (dec ? dec1 : enc1)(k, x, x);
                xor16(b->want + 16 * i, x, want_off);
                xor16(want_sum, want_sum, dec ? b->want + 16 * i : b->src + 16 * i);
            }
            place(b, lay, n);
            memcpy(off, off0, 16);
            memcpy(sum, sum0, 16);
            fn(&k->ks, (const uint8_t(*)[16])L, firsts[f], off, sum, b->out, b->in, n);
            char what[64];
            snprintf(what, sizeof what, "first block %llu", (unsigned long long)firsts[f]);
            report(k, b, dec ? "ocb_dec" : "ocb_enc", n, lay, what, memcmp(b->out, b->want, 16 * n) == 0,
                   memcmp(off, want_off, 16) == 0 && memcmp(sum, want_sum, 16) == 0);
        }
    }
}

/* Fused GCM: the processed prefix against CTR32 by ECB and GHASH by ct. */
/* Key wrap W and W^-1 over n + 2 semiblocks, both block directions, against
 * the generic kernels (one ECB call per step). Semiblocks at the in+1 and
 * aligned placements; the walk is in place by contract. */
static void check_kw(const kern *k, bufs *b, size_t n, int lay) {
    const hwc_block_impl *im = k->im;
    if ((!im->kw_w && !im->kw_winv) || n > 64 || (lay != LAY_ALIGNED && lay != LAY_IN_ODD))
        return;
    const size_t semi = n + 2;
    uint8_t a0[8], a[8], want_a[8];
    test_rand_bytes(a0, 8);
    test_rand_bytes(b->src, 8 * semi);
    for (int inv = 0; inv < 2; inv++) {
        for (int decrypt = 0; decrypt < 2; decrypt++) {
            void (*fn)(const hwc_ks *, int, uint8_t *, uint8_t *, size_t) = inv ? im->kw_winv : im->kw_w;
            if (!fn)
                continue;
            memcpy(b->want, b->src, 8 * semi);
            memcpy(want_a, a0, 8);
            (inv ? hwc_generic_kw_winv : hwc_generic_kw_w)(im, &k->ks, decrypt, want_a, b->want, semi);
            place(b, lay, (8 * semi + 15) / 16);
            memcpy(a, a0, 8);
            fn(&k->ks, decrypt, a, b->in, semi);
            report(k, b, inv ? "kw_winv" : "kw_w", semi, lay, decrypt ? "decryption function" : "encryption function",
                   memcmp(b->in, b->want, 8 * semi) == 0, memcmp(a, want_a, 8) == 0);
        }
    }
}

static void check_gcm(const kern *k, bufs *b, size_t n, int lay) {
    const hwc_block_impl *im = k->im;
    const hwc_ghash_impl *g = hwc_ghash_for(im), *ref = hwc_ghash_ct_get();
    /* The fused kernel runs only with its own GHASH's key (as gcm.c calls it). */
    if (!im->gcm_enc || !g || !im->ghash_name || strcmp(g->name, im->ghash_name) != 0)
        return;
    static hwc_ghash_key hk, hk_ref;
    uint8_t h[16], zero[16] = {0}, ctr0[16], ctr[16], want_ctr[16], st0[16], st[16], want_st[16], t[16];
    enc1(k, h, zero);
    g->init(&hk, h);
    ref->init(&hk_ref, h);
    for (int which = 0; which < 2; which++) {
        counter_start(ctr0, which, n);
        test_rand_bytes(b->src, 16 * n);
        test_rand_bytes(st0, 16);
        for (int dec = 0; dec < 2; dec++) {
            place(b, lay, n);
            memcpy(ctr, ctr0, 16);
            memcpy(st, st0, 16);
            size_t done = (dec ? im->gcm_dec : im->gcm_enc)(&k->ks, &hk, ctr, st, b->out, b->in, n);
            CHECKF(done <= n, "%s gcm: %zu of %zu blocks", im->name, done, n);
            if (done > n)
                return;
            memcpy(want_ctr, ctr0, 16);
            memcpy(want_st, st0, 16);
            for (size_t i = 0; i < done; i++) {
                enc1(k, t, want_ctr);
                inc_be(want_ctr, 12);
                xor16(b->want + 16 * i, b->src + 16 * i, t);
            }
            ref->update(&hk_ref, want_st, dec ? b->src : b->want, done);
            report(k, b, dec ? "gcm_dec" : "gcm_enc", done, lay, which ? "counter wraps" : "random counter",
                   memcmp(b->out, b->want, 16 * done) == 0,
                   memcmp(ctr, want_ctr, 16) == 0 && memcmp(st, want_st, 16) == 0);
        }
        if (!im->gcm_crypt)
            continue;
        /* The one-call step: 0..2 blocks hashed first, all n blocks, 0..2
         * blocks through the cipher; the combinations vary with n. */
        for (int dec = 0; dec < 2; dec++) {
            const size_t npre = (n + (size_t)dec + (size_t)which) % 3, n_ecb = (n / 3 + (size_t)dec) % 3;
            const size_t npost = (n / 2 + (size_t)which) % 3;
            /* A partial block (post's first, keystream from ecb's first)
             * whenever both are there; its length varies with n. */
            const size_t partial = npost && n_ecb ? 1 + (n + (size_t)which) % 15 : 0;
            uint8_t pre[32], ecb[32], want_ecb[32], post[32], want_post[32];
            test_rand_bytes(pre, sizeof pre);
            test_rand_bytes(post, sizeof post);
            if (partial)
                memset(post + partial, 0, 16 - partial);
            memcpy(want_post, post, sizeof post);
            test_rand_bytes(ecb, sizeof ecb);
            memcpy(want_ecb, ecb, sizeof ecb);
            for (size_t i = 0; i < n_ecb; i++)
                enc1(k, want_ecb + 16 * i, ecb + 16 * i);
            place(b, lay, n);
            memcpy(ctr, ctr0, 16);
            memcpy(st, st0, 16);
            im->gcm_crypt(&k->ks, &hk, dec, ctr, st, npre ? pre : NULL, npre, b->out, b->in, n, ecb, n_ecb,
                          npost ? post : NULL, npost, partial);
            memcpy(want_ctr, ctr0, 16);
            memcpy(want_st, st0, 16);
            ref->update(&hk_ref, want_st, pre, npre);
            for (size_t i = 0; i < n; i++) {
                enc1(k, t, want_ctr);
                inc_be(want_ctr, 12);
                xor16(b->want + 16 * i, b->src + 16 * i, t);
            }
            ref->update(&hk_ref, want_st, dec ? b->src : b->want, n);
            if (partial && !dec)
                for (size_t i = 0; i < partial; i++)
                    want_post[i] ^= want_ecb[i];
            ref->update(&hk_ref, want_st, want_post, npost);
            char what[80];
            snprintf(what, sizeof what, "%s, %zu pre, %zu ecb, %zu post, partial %zu",
                     which ? "counter wraps" : "random counter", npre, n_ecb, npost, partial);
            report(k, b, dec ? "gcm_crypt dec" : "gcm_crypt enc", n, lay, what, memcmp(b->out, b->want, 16 * n) == 0,
                   memcmp(ctr, want_ctr, 16) == 0 && memcmp(st, want_st, 16) == 0 &&
                       memcmp(ecb, want_ecb, sizeof ecb) == 0 && memcmp(post, want_post, sizeof post) == 0);
        }
    }
}

static size_t stride(void) {
    const char *s = getenv("HWC_TEST_STRIDE");
    unsigned long v = s ? strtoul(s, NULL, 10) : 1;
    return v > 1 ? (size_t)v : 1;
}

static bufs buffers;

static void run_key(const hwc_block_impl *im, const char *name, size_t key_len) {
    static kern k, ct;
    const hwc_block_impl *ct_im = im->family == HWC_FAMILY_AES ? hwc_aes_ct_get() : hwc_sm4_ct_get();
    uint8_t key[32];
    test_rand_bytes(key, sizeof key);
    k.im = im;
    k.name = name;
    k.key_len = key_len;
    im->set_key(&k.ks, key, key_len, 1);
    ct.im = ct_im;
    ct.key_len = key_len;
    ct_im->set_key(&ct.ks, key, key_len, 1);

    /* The reference is this back end's one-block ECB: first that against ct. */
    bufs *b = &buffers;
    test_rand_bytes(b->src, 16 * MAX_BLOCKS);
    ct_im->ecb_enc(&ct.ks, b->want, b->src, MAX_BLOCKS);
    for (int lay = 0; lay < LAYOUTS; lay++) {
        place(b, lay, MAX_BLOCKS);
        im->ecb_enc(&k.ks, b->out, b->in, MAX_BLOCKS);
        report(&k, b, "ecb_enc", MAX_BLOCKS, lay, "vs ct", memcmp(b->out, b->want, 16 * MAX_BLOCKS) == 0, 1);
    }
    ct_im->ecb_dec(&ct.ks, b->want, b->src, MAX_BLOCKS);
    place(b, LAY_IN_ODD, MAX_BLOCKS);
    im->ecb_dec(&k.ks, b->out, b->in, MAX_BLOCKS);
    report(&k, b, "ecb_dec", MAX_BLOCKS, LAY_IN_ODD, "vs ct", memcmp(b->out, b->want, 16 * MAX_BLOCKS) == 0, 1);
    for (size_t i = 0; i < 16; i++) { /* the one-block calls the references make */
        uint8_t got[16], want[16];
        enc1(&k, got, b->src + 16 * i);
        enc1(&ct, want, b->src + 16 * i);
        CHECKF(memcmp(got, want, 16) == 0, "%s one-block ECB encryption vs ct", im->name);
        dec1(&k, got, b->src + 16 * i);
        dec1(&ct, want, b->src + 16 * i);
        CHECKF(memcmp(got, want, 16) == 0, "%s one-block ECB decryption vs ct", im->name);
    }

    size_t step = stride(), ncounts = sizeof all_counts / sizeof all_counts[0];
    for (size_t c = 0; c < ncounts; c++) {
        if (step > 1 && c % step != 0 && c != ncounts - 1 && all_counts[c] > 1)
            continue;
        size_t n = all_counts[c];
        for (int lay = 0; lay < LAYOUTS; lay++) {
            check_chained(&k, b, n, lay);
            check_counters(&k, b, n, lay);
            check_tweaked(&k, b, n, lay);
            check_gcm(&k, b, n, lay);
            check_kw(&k, b, n, lay);
        }
    }
    hwc_wipe(&k.ks, sizeof k.ks);
    hwc_wipe(&ct.ks, sizeof ct.ks);
}

static void run_impl(const char *name, void *arg) {
    hwc_family fam = *(const hwc_family *)arg;
    const hwc_block_impl *im = NULL;
    const char *why = NULL;
    if (hwc_find_block_impl(fam, name, &im, &why) != HWC_OK) {
        CHECKF(0, "%s listed as available but not found: %s", name, why ? why : "?");
        return;
    }
    unsigned long before = test_passed;
    if (fam == HWC_FAMILY_AES) {
        run_key(im, name, 16);
        run_key(im, name, 24);
        run_key(im, name, 32);
    } else {
        run_key(im, name, 16);
    }
    printf("test_kernels: %s (%s): %lu checks\n", name, fam == HWC_FAMILY_AES ? "aes" : "sm4",
           test_passed - before);
}

/* GHASH and POLYVAL back ends against ct: random H and state, every count,
 * inputs at offsets 0, 1, 4 and 8 (the vector back ends pick their loads by
 * alignment), the input left as it was. */
static void run_ghash(const hwc_ghash_impl *g) {
    const hwc_ghash_impl *ct = hwc_ghash_ct_get();
    static hwc_ghash_key key, key_ct;
    static alignas(64) uint8_t buf[16 * MAX_BLOCKS + SLACK];
    uint8_t src[16 * MAX_BLOCKS], h[16], st0[16], st[16], want[16];
    static const size_t offsets[] = {0, 1, 4, 8};
    unsigned long before = test_passed;
    size_t step = stride(), ncounts = sizeof all_counts / sizeof all_counts[0];
    for (int polyval = 0; polyval < 2; polyval++) {
        for (int trial = 0; trial < 3; trial++) {
            test_rand_bytes(h, 16);
            if (trial == 2) /* H with the top and bottom bits set: the reductions' edges */
                h[0] |= 0x80, h[15] |= 0x01;
            if (polyval) {
                hwc_polyval_init(g, &key, h);
                hwc_polyval_init(ct, &key_ct, h);
            } else {
                g->init(&key, h);
                ct->init(&key_ct, h);
            }
            for (size_t c = 0; c < ncounts; c++) {
                if (step > 1 && c % step != 0 && c != ncounts - 1 && all_counts[c] > 1)
                    continue;
                size_t n = all_counts[c];
                test_rand_bytes(src, 16 * n);
                test_rand_bytes(st0, 16);
                memcpy(want, st0, 16);
                if (polyval)
                    hwc_polyval_update(ct, &key_ct, want, src, n);
                else
                    ct->update(&key_ct, want, src, n);
                for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
                    uint8_t *in = buf + offsets[o];
                    memcpy(in, src, 16 * n);
                    memcpy(st, st0, 16);
                    if (polyval)
                        hwc_polyval_update(g, &key, st, in, n);
                    else
                        g->update(&key, st, in, n);
                    CHECKF(memcmp(st, want, 16) == 0 && memcmp(in, src, 16 * n) == 0,
                           "%s %s, %zu blocks at offset %zu, H trial %d: %s", g->name, polyval ? "polyval" : "ghash",
                           n, offsets[o], trial, memcmp(st, want, 16) ? "state differs from ct" : "input changed");
                }
            }
        }
    }
    hwc_wipe(&key, sizeof key);
    hwc_wipe(&key_ct, sizeof key_ct);
    printf("test_kernels: %s (ghash, polyval): %lu checks\n", g->name, test_passed - before);
}

int main(void) {
    hwc_family aes = HWC_FAMILY_AES, sm4 = HWC_FAMILY_SM4;
    int ran = test_each_impl(HWC_FAMILY_AES, run_impl, &aes);
    ran += test_each_impl(HWC_FAMILY_SM4, run_impl, &sm4);
    const char *only = getenv("HWC_TEST_IMPL");
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        const char *name = hwc_impl_name(i), *why = NULL;
        const hwc_ghash_impl *g = NULL;
        if (!hwc_impl_is_ghash(i) || !name || (only && *only && strcmp(only, name) != 0))
            continue;
        if (hwc_find_ghash_impl(name, &g, &why) != HWC_OK) {
            char what[96];
            snprintf(what, sizeof what, "GHASH back end %s", name);
            test_skip(what, why ? why : "not available");
            continue;
        }
        run_ghash(g);
        ran++;
    }
    if (ran == 0 && only && *only) {
        printf("SKIP: HWC_TEST_IMPL=%s names no back end available here\n", only);
        return 77;
    }
    return test_summary("test_kernels");
}
