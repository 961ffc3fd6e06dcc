/* The serial (latency-bound) kernels against the portable back end: CBC and
 * CFB encryption, OFB, CMAC and CCM (the fused CTR + CBC-MAC kernels), for
 * AES-128/256 and SM4 on every available back end. x86 runs these through
 * dedicated one-block kernels (aesni's, shared by vaes and vaes512, and the
 * 1..4-block SM4 kernels of sm4-aesni); every length 0..100 bytes, split
 * into two updates, both directions, in place and out of place, must give
 * exactly what `ct` gives. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MAX_LEN 100

static const char *const aes_ciphers[] = {"aes-128-cbc", "aes-128-cfb", "aes-128-ofb", "aes-128-cmac",
                                          "aes-128-ccm", "aes-256-cbc", "aes-256-cfb", "aes-256-ccm"};
static const char *const sm4_ciphers[] = {"sm4-cbc", "sm4-cfb", "sm4-ofb", "sm4-cmac", "sm4-ccm"};

/* One message through the streaming API on `impl`: MAC tag, or data (and
 * the AEAD tag). Returns the rc; *out_len is the output length. */
static int run(const char *impl, const hwc_cipher *c, int enc, const uint8_t *key, const uint8_t *iv,
               const uint8_t *in, size_t len, uint8_t *out, size_t *out_len, uint8_t tag[16]) {
    const unsigned flags = hwc_cipher_flags(c);
    const int mac = (flags & HWC_CIPHER_MAC) != 0, aead = (flags & HWC_CIPHER_AEAD) != 0;
    const size_t iv_len = hwc_cipher_iv_len(c);
    hwc_ctx *ctx = hwc_ctx_new();
    int rc = ctx ? hwc_ctx_set_impl(ctx, impl) : HWC_ERR_NO_MEM;
    if (!rc)
        rc = hwc_init(ctx, c, enc, key, hwc_cipher_key_len(c), iv_len ? iv : NULL, iv_len);
    if (!rc && (flags & HWC_CIPHER_PADDING))
        rc = hwc_set_padding(ctx, 0);
    if (!rc && aead)
        rc = hwc_set_lengths(ctx, 0, len);
    if (!rc && aead && !enc)
        rc = hwc_set_tag(ctx, tag, 16);
    size_t split = len / 3 + (len > 40 ? 7 : 0);
    if (flags & HWC_CIPHER_PADDING)
        split -= split % 16; /* whole blocks in, whole blocks out: in place stays exact */
    if (mac) {
        if (!rc && len)
            rc = hwc_aad(ctx, in, split);
        if (!rc && len)
            rc = hwc_aad(ctx, in + split, len - split);
        if (!rc)
            rc = hwc_mac_final(ctx, tag, 16);
        *out_len = 0;
    } else {
        size_t n1 = 0, n2 = 0, n3 = 0;
        if (!rc)
            rc = hwc_update(ctx, out, &n1, in, split);
        if (!rc)
            rc = hwc_update(ctx, out + n1, &n2, in + split, len - split);
        if (!rc)
            rc = hwc_final(ctx, out + n1 + n2, &n3);
        if (!rc && aead && enc)
            rc = hwc_get_tag(ctx, tag, 16);
        *out_len = n1 + n2 + n3;
    }
    hwc_ctx_free(ctx);
    return rc;
}

static void run_cipher(const char *impl, const char *name) {
    const hwc_cipher *c = hwc_cipher_by_name(name);
    if (!CHECKF(c != NULL, "cipher %s", name))
        return;
    const int block_only = (hwc_cipher_flags(c) & HWC_CIPHER_PADDING) != 0;
    uint8_t key[32], iv[16], pt[MAX_LEN], ref[MAX_LEN], got[MAX_LEN], buf[MAX_LEN];
    uint8_t ref_tag[16], got_tag[16];
    char what[128];
    for (size_t len = 0; len <= MAX_LEN; len++) {
        if (block_only && len % 16 != 0)
            continue;
        test_rand_bytes(key, sizeof key);
        test_rand_bytes(iv, sizeof iv);
        test_rand_bytes(pt, sizeof pt);
        snprintf(what, sizeof what, "%s on %s, %zu bytes", name, impl, len);
        size_t ref_len = 0, got_len = 0;
        memset(ref_tag, 0, 16);
        int rc = run("ct", c, HWC_ENCRYPT, key, iv, pt, len, ref, &ref_len, ref_tag);
        if (!CHECKF(rc == 0, "%s: ct rc %d", what, rc))
            continue;
        memset(got_tag, 0, 16);
        rc = run(impl, c, HWC_ENCRYPT, key, iv, pt, len, got, &got_len, got_tag);
        if (CHECKF(rc == 0 && got_len == ref_len, "%s: encrypt rc %d, %zu bytes", what, rc, got_len)) {
            CHECK_MEM(got, ref, ref_len, what);
            CHECK_MEM(got_tag, ref_tag, 16, what);
        }
        /* In place. */
        memcpy(buf, pt, len);
        rc = run(impl, c, HWC_ENCRYPT, key, iv, buf, len, buf, &got_len, got_tag);
        if (CHECKF(rc == 0, "%s: in-place encrypt rc %d", what, rc)) {
            CHECK_MEM(buf, ref, ref_len, what);
            CHECK_MEM(got_tag, ref_tag, 16, what);
        }
        if (hwc_cipher_flags(c) & HWC_CIPHER_MAC)
            continue;
        /* Decryption (verifies the tag for CCM), out of place and in place. */
        memcpy(got_tag, ref_tag, 16);
        rc = run(impl, c, HWC_DECRYPT, key, iv, ref, ref_len, got, &got_len, got_tag);
        if (CHECKF(rc == 0 && got_len == len, "%s: decrypt rc %d", what, rc))
            CHECK_MEM(got, pt, len, what);
        memcpy(buf, ref, ref_len);
        rc = run(impl, c, HWC_DECRYPT, key, iv, buf, ref_len, buf, &got_len, got_tag);
        if (CHECKF(rc == 0, "%s: in-place decrypt rc %d", what, rc))
            CHECK_MEM(buf, pt, len, what);
    }
}

static void run_impl(const char *impl, void *arg) {
    const hwc_family family = *(const hwc_family *)arg;
    if (family == HWC_FAMILY_AES)
        for (size_t i = 0; i < sizeof aes_ciphers / sizeof aes_ciphers[0]; i++)
            run_cipher(impl, aes_ciphers[i]);
    else
        for (size_t i = 0; i < sizeof sm4_ciphers / sizeof sm4_ciphers[0]; i++)
            run_cipher(impl, sm4_ciphers[i]);
}

int main(void) {
    hwc_family family = HWC_FAMILY_AES;
    test_each_impl(family, run_impl, &family);
    family = HWC_FAMILY_SM4;
    test_each_impl(family, run_impl, &family);
    return test_summary("test_serial_modes");
}
