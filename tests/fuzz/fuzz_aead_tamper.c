/* fuzz_aead_tamper: forgeries must fail.
 *
 * Only the authenticating ciphers (AEADs, MACs, key wrap) are fuzzed here;
 * inputs naming another cipher return at once.  The message is
 * sealed (tagged, wrapped) on one back end (the flags' high nibble picks
 * it), checked to open on every back end, then one thing is changed (the
 * tamper bytes say which, where and how) and
 *   - hwc_aead_open() must return HWC_ERR_AUTH and zero the whole output,
 *     on every back end, and streaming decryption must fail too;
 *   - hwc_mac_verify() must return HWC_ERR_AUTH;
 *   - hwc_key_unwrap() must return HWC_ERR_AUTH (or a length error for a
 *     changed length) and zero the output buffer.
 * A changed tag byte always fails.  Changes to anything else are only
 * checked with tags of 8 bytes or more, where a chance forgery (2^-64) never
 * happens in a fuzzing run; shorter tags would make this a lottery. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

enum what { T_TAG, T_DATA, T_AAD, T_NONCE, T_TRUNCATE, T_COUNT };

/* Opening (verifying, unwrapping) `ct` with `tag` on every back end must
 * fail; for one-shot opens the output must be all zero. */
static void expect_rejected(const fz_case *k, const char *const *impls, size_t nimpl, const uint8_t *ct, size_t len,
                            const uint8_t *tag, const char *what) {
    for (size_t i = 0; i < nimpl; i++) {
        for (int feed = FZ_ONESHOT; feed <= FZ_STREAM; feed++) {
            fz_result r;
            fz_run(k, impls[i], 0, ct, len, tag, (enum fz_feed)feed, &r);
            if (fz_is_wrap(k->c))
                FZ_CHECK(k, r.rc == HWC_ERR_AUTH || r.rc == HWC_ERR_DATA_LEN, "%s: unwrap on %s returned %d (%s)", what,
                         impls[i], r.rc, hwc_strerror(r.rc));
            else if (feed == FZ_ONESHOT || !fz_is_aead(k->c))
                FZ_CHECK(k, r.rc == HWC_ERR_AUTH, "%s: open/verify on %s (%s) returned %d (%s)", what, impls[i],
                         feed == FZ_ONESHOT ? "one-shot" : "streaming", r.rc, hwc_strerror(r.rc));
            else
                FZ_CHECK(k, r.rc != HWC_OK, "%s: streaming decryption on %s accepted a forgery", what, impls[i]);
            /* fz_run already checked the zeroing of failed one-shot opens and unwraps. */
            fz_result_free(&r);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fz_case k;
    fz_parse(&k, data, size);
    if (!fz_is_aead(k.c) && !fz_is_mac(k.c) && !fz_is_wrap(k.c))
        return 0;

    const char *impls[FZ_MAX_IMPLS];
    size_t nimpl = fz_impls(hwc_cipher_family(k.c), impls);
    const char *sealer = impls[(k.flags >> FZ_F_IMPL_SHIFT) % nimpl];
    int mac = fz_is_mac(k.c), wrap = fz_is_wrap(k.c);

    fz_result sealed;
    fz_run(&k, sealer, 1, k.data, k.data_len, NULL, FZ_ONESHOT, &sealed);
    if (sealed.rc != HWC_OK) {
        fz_result_free(&sealed);
        return 0; /* invalid lengths: fuzz_cipher_diff checks those agree */
    }
    const uint8_t *msg = mac ? k.data : sealed.out;
    size_t len = mac ? k.data_len : sealed.out_len;
    uint8_t *ct = malloc(len + 1);
    uint8_t tag[FZ_MAX_TAG];
    FZ_CHECK(&k, ct != NULL, "malloc");
    memcpy(ct, msg, len);
    memcpy(tag, sealed.tag, sizeof tag);

    /* The genuine article opens everywhere. */
    for (size_t i = 0; i < nimpl; i++) {
        fz_result r;
        fz_run(&k, impls[i], 0, ct, len, tag, FZ_ONESHOT, &r);
        FZ_CHECK(&k, r.rc == HWC_OK, "genuine message rejected by %s (sealed on %s): %d", impls[i], sealer, r.rc);
        fz_result_free(&r);
    }

    enum what w = (enum what)(k.tamper[0] % T_COUNT);
    size_t pos = (size_t)k.tamper[1] | (size_t)k.tamper[2] << 8;
    uint8_t flip = k.tamper[3] ? k.tamper[3] : 0x01;
    int long_tag = wrap || k.tag_len >= 8;
    const size_t tag_len = k.tag_len;

    if (w == T_TAG && !wrap && tag_len) {
        tag[pos % tag_len] ^= flip;
        expect_rejected(&k, impls, nimpl, ct, len, tag, "changed tag byte");
    } else if (w == T_DATA && len && long_tag) {
        ct[pos % len] ^= flip;
        expect_rejected(&k, impls, nimpl, ct, len, tag, mac ? "changed message byte" : "changed ciphertext byte");
    } else if (w == T_AAD && k.aad_len && long_tag && !wrap && !mac) {
        k.aad[pos % k.aad_len] ^= flip;
        expect_rejected(&k, impls, nimpl, ct, len, tag, "changed AAD byte");
    } else if (w == T_NONCE && k.iv_len && long_tag && !wrap && (!mac || hwc_cipher_mode(k.c) == HWC_MODE_GMAC)) {
        k.iv[pos % k.iv_len] ^= flip;
        expect_rejected(&k, impls, nimpl, ct, len, tag, "changed nonce byte");
    } else if (w == T_TRUNCATE && len && long_tag && !mac) {
        /* A shorter ciphertext: AEADs reject it (CCM's declared length is
         * the new one, so it is a different message, not a length error). */
        size_t cut = 1 + pos % len;
        if (wrap && cut % 8)
            cut = 8; /* a wrap shorter by a non-multiple of 8 is a length error, checked above */
        if (cut <= len)
            expect_rejected(&k, impls, nimpl, ct, len - cut, tag, "shortened ciphertext");
    }
    free(ct);
    fz_result_free(&sealed);
    return 0;
}
