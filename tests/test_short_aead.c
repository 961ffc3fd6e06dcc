/* Whole AEAD messages, which hwc_aead_seal/open run through one-pass paths
 * for GCM (src/modes/gcm.c, its aead_oneshot: the short path up to 256 bytes
 * and 64 of AAD, and, on back ends with a gcm_crypt kernel, the whole-message
 * path beyond) instead of the streaming calls.  For every GCM cipher on every
 * available back end, every data length 0..272 (across the short-path limit
 * of 256 and the wide back ends' batch sizes) and a spread of longer ones
 * (several 16- and 32-block batches with every kind of tail) with AAD
 * lengths 0..17 and around 32, 48 and the AAD limit of 64, with 96-bit and
 * other IV lengths:
 *   - the one-shot seal equals a streaming seal on `ct` (another back end
 *     and another code path: init, AAD in two pieces, data in two pieces,
 *     final, get_tag);
 *   - in-place seal (out == in) gives the same;
 *   - the one-shot open gives back the plaintext, in place too;
 *   - a flipped bit of ciphertext or tag fails with HWC_ERR_AUTH and leaves
 *     the output zeroed; the context still opens afterwards;
 *   - after a one-shot seal, hwc_get_tag returns the same tag and
 *     hwc_update is refused (the message is done), as after streaming. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_SHORT 272 /* every length up to this */
#define MAX_DATA 2061
#define MAX_AAD 72

typedef struct streaming_ref {
    const hwc_cipher *cipher;
    const uint8_t *key, *iv, *aad, *in;
    size_t iv_len, aad_len, in_len, tag_len;
} streaming_ref;

/* Streaming seal on `ct`, the reference. */
static int seal_streaming_ct(const streaming_ref *r, uint8_t *out, uint8_t *tag) {
    hwc_ctx *ctx = hwc_ctx_new();
    size_t n1 = 0, n2 = 0, n3 = 0;
    int rc = ctx ? hwc_ctx_set_impl(ctx, "ct") : HWC_ERR_NO_MEM;
    if (!rc)
        rc = hwc_init(ctx, r->cipher, HWC_ENCRYPT, r->key, hwc_cipher_key_len(r->cipher), r->iv, r->iv_len);
    if (!rc)
        rc = hwc_set_tag_len(ctx, r->tag_len);
    const size_t aad_split = r->aad_len / 3, in_split = r->in_len / 2;
    if (!rc && r->aad_len)
        rc = hwc_aad(ctx, r->aad, aad_split);
    if (!rc && r->aad_len)
        rc = hwc_aad(ctx, r->aad + aad_split, r->aad_len - aad_split);
    if (!rc)
        rc = hwc_update(ctx, out, &n1, r->in, in_split);
    if (!rc)
        rc = hwc_update(ctx, out + n1, &n2, r->in + in_split, r->in_len - in_split);
    if (!rc)
        rc = hwc_final(ctx, out + n1 + n2, &n3);
    if (!rc)
        rc = hwc_get_tag(ctx, tag, r->tag_len);
    if (!rc && n1 + n2 + n3 != r->in_len)
        rc = HWC_ERR_STATE;
    hwc_ctx_free(ctx);
    return rc;
}

static unsigned long zeroed_fail, cases;

/* HWC_TEST_STRIDE=N (N > 1), for slow runs such as valgrind's: each data
 * length keeps every Nth AAD length, the choice turning with the length so
 * that every pair of short data length and AAD length class still meets
 * (every AAD length runs about MAX_SHORT / N times), and always the AAD
 * lengths at the one-shot path's edges: none, 63-65 (its limit of 64) and
 * the longest. */
static size_t stride(void) {
    const char *s = getenv("HWC_TEST_STRIDE");
    unsigned long v = s ? strtoul(s, NULL, 10) : 1;
    return v > 1 ? (size_t)v : 1;
}

static void run_cipher(const char *impl, const hwc_cipher *c) {
    const size_t klen = hwc_cipher_key_len(c);
    uint8_t key[32], iv[16], aad[MAX_AAD], ref_ct[MAX_DATA], ref_tag[16];
    uint8_t pt[MAX_DATA] = {0}; /* filled to each case's length */
    uint8_t ct[MAX_DATA], tag[16], buf[MAX_DATA], back[MAX_DATA];
    char what[160];
    test_rand_bytes(key, sizeof key);
    hwc_ctx *e = hwc_ctx_new(), *d = hwc_ctx_new();
    int rc = hwc_ctx_set_impl(e, impl);
    if (!rc)
        rc = hwc_ctx_set_impl(d, impl);
    if (!rc)
        rc = hwc_init(e, c, HWC_ENCRYPT, key, klen, NULL, 0);
    if (!rc)
        rc = hwc_init(d, c, HWC_DECRYPT, key, klen, NULL, 0);
    if (!CHECKF(rc == 0, "%s on %s: setup rc %d", hwc_cipher_name(c), impl, rc)) {
        hwc_ctx_free(e);
        hwc_ctx_free(d);
        return;
    }
    static const size_t iv_lens[] = {12, 12, 8, 16};
    /* After every length to MAX_SHORT: tails of 1..15 blocks and 1..15
     * bytes after 1..4 batches of 16 or 32 blocks, and a 1350-byte record. */
    static const size_t long_lens[] = {300, 511, 512, 513, 700, 1023, 1024, 1350, 1551, 2047, MAX_DATA};
    const size_t n_lens = MAX_SHORT + 1 + sizeof long_lens / sizeof long_lens[0];
    for (size_t li = 0; li < n_lens; li++) {
        const size_t in_len = li <= MAX_SHORT ? li : long_lens[li - MAX_SHORT - 1];
        static const size_t aad_lens[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                          16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 72};
        const size_t n_aad = sizeof aad_lens / sizeof aad_lens[0];
        for (size_t ai = 0; ai < n_aad; ai++) {
            const size_t aad_len = aad_lens[ai];
            const int edge = aad_len == 0 || (aad_len >= 63 && aad_len <= 65) || ai == n_aad - 1;
            if (!edge && (ai + li) % stride() != 0)
                continue;
            const size_t iv_len = iv_lens[(in_len + aad_len) % 4];
            const size_t tag_len = (in_len + 2 * aad_len) % 3 == 0 ? 12 : 16;
            test_rand_bytes(iv, sizeof iv);
            test_rand_bytes(aad, sizeof aad);
            test_rand_bytes(pt, in_len);
            streaming_ref r = {c, key, iv, aad, pt, iv_len, aad_len, in_len, tag_len};
            snprintf(what, sizeof what, "%s on %s, %zu bytes, %zu AAD, %zu-byte IV, %zu-byte tag",
                     hwc_cipher_name(c), impl, in_len, aad_len, iv_len, tag_len);
            cases++;
            rc = seal_streaming_ct(&r, ref_ct, ref_tag);
            if (!CHECKF(rc == 0, "%s: reference rc %d", what, rc))
                continue;
            /* One-shot seal, out of place and in place. */
            rc = hwc_aead_seal(e, iv, iv_len, aad_len ? aad : NULL, aad_len, in_len ? pt : NULL, in_len, ct, tag,
                               tag_len);
            if (!CHECKF(rc == 0, "%s: seal rc %d", what, rc))
                continue;
            CHECK_MEM(ct, ref_ct, in_len, what);
            CHECK_MEM(tag, ref_tag, tag_len, what);
            uint8_t again[16];
            CHECK_RC(hwc_get_tag(e, again, tag_len), HWC_OK);
            CHECK_MEM(again, ref_tag, tag_len, what);
            size_t n = 0;
            CHECK_RC(hwc_update(e, buf, &n, pt, 1), HWC_ERR_STATE);
            memcpy(buf, pt, in_len);
            rc = hwc_aead_seal(e, iv, iv_len, aad_len ? aad : NULL, aad_len, buf, in_len, buf, tag, tag_len);
            if (CHECKF(rc == 0, "%s: in-place seal rc %d", what, rc)) {
                CHECK_MEM(buf, ref_ct, in_len, what);
                CHECK_MEM(tag, ref_tag, tag_len, what);
            }
            /* One-shot open, out of place and in place. */
            memset(back, 0xaa, sizeof back);
            rc = hwc_aead_open(d, iv, iv_len, aad_len ? aad : NULL, aad_len, ref_ct, in_len, back, ref_tag, tag_len);
            if (CHECKF(rc == 0, "%s: open rc %d", what, rc))
                CHECK_MEM(back, pt, in_len, what);
            memcpy(buf, ref_ct, in_len);
            rc = hwc_aead_open(d, iv, iv_len, aad_len ? aad : NULL, aad_len, buf, in_len, buf, ref_tag, tag_len);
            if (CHECKF(rc == 0, "%s: in-place open rc %d", what, rc))
                CHECK_MEM(buf, pt, in_len, what);
            /* Tampering: a bit of the ciphertext (if any), else of the tag. */
            uint8_t *flip = in_len ? ref_ct : ref_tag;
            const size_t bit = test_rand() % ((in_len ? in_len : tag_len) * 8);
            flip[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            memset(back, 0xaa, sizeof back);
            rc = hwc_aead_open(d, iv, iv_len, aad_len ? aad : NULL, aad_len, ref_ct, in_len, back, ref_tag, tag_len);
            flip[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            CHECKF(rc == HWC_ERR_AUTH, "%s: tampered open rc %d", what, rc);
            for (size_t i = 0; i < in_len; i++)
                if (back[i] != 0) {
                    zeroed_fail++;
                    CHECKF(0, "%s: output not zeroed after a failed open", what);
                    break;
                }
            rc = hwc_aead_open(d, iv, iv_len, aad_len ? aad : NULL, aad_len, ref_ct, in_len, back, ref_tag, tag_len);
            if (CHECKF(rc == 0, "%s: open after a failure rc %d", what, rc))
                CHECK_MEM(back, pt, in_len, what);
        }
    }
    hwc_ctx_free(e);
    hwc_ctx_free(d);
}

static void run_impl(const char *impl, void *arg) {
    const hwc_family family = *(const hwc_family *)arg;
    static const char *const aes[] = {"aes-128-gcm", "aes-192-gcm", "aes-256-gcm"};
    if (family == HWC_FAMILY_AES) {
        for (size_t i = 0; i < 3; i++)
            run_cipher(impl, hwc_cipher_by_name(aes[i]));
    } else {
        run_cipher(impl, hwc_cipher_by_name("sm4-gcm"));
    }
}

int main(void) {
    hwc_family family = HWC_FAMILY_AES;
    test_each_impl(family, run_impl, &family);
    family = HWC_FAMILY_SM4;
    test_each_impl(family, run_impl, &family);
    printf("%lu messages checked\n", cases);
    return test_summary("test_short_aead");
}
