/* fuzz_cipher_diff: every cipher of the table, every back end available
 * here, against the portable back end `ct`.
 *
 * For the case the input describes (tests/fuzz/fuzz_common.h):
 *   - one-shot encryption (or MAC, or wrap) on `ct` is the reference;
 *   - automatic selection and every other back end, one-shot, give exactly
 *     the same result, errors included (bad key/IV/tag/data lengths must
 *     fail the same way on every back end);
 *   - streaming with the case's split points gives the same bytes as
 *     one-shot (or fails too, when one-shot failed);
 *   - decrypting the encryption round-trips on every back end, both ways;
 *   - with FZ_F_DECRYPT_RAW, the data decrypted as if it were ciphertext
 *     (random tags, bad padding, bad wrap integrity) gives the same result
 *     on every back end;
 *   - CFB1 bit-granular hwc_update_bits() matches the byte API.
 * Any disagreement aborts. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static void check_cfb1_bits(const fz_case *k, const char *const *impls, size_t nimpl, const fz_result *ref) {
    /* Encrypting n bits gives the first n bits of the byte-wise result;
     * bits past n in the last byte are 0. */
    size_t nbits = k->data_len * 8;
    if (nbits && (k->tamper[0] & 7))
        nbits -= k->tamper[0] & 7;
    size_t nbytes = (nbits + 7) / 8;
    uint8_t *out = malloc(nbytes + 1);
    FZ_CHECK(k, out != NULL, "malloc");
    for (size_t i = 0; i < nimpl; i++) {
        hwc_ctx *ctx = hwc_ctx_new();
        FZ_CHECK(k, ctx && hwc_ctx_set_impl(ctx, impls[i]) == HWC_OK, "ctx for %s", impls[i]);
        int rc = hwc_init(ctx, k->c, HWC_ENCRYPT, k->key, k->key_len, k->iv, k->iv_len);
        FZ_CHECK(k, rc == HWC_OK, "CFB1 init on %s: %d (one-shot worked)", impls[i], rc);
        memset(out, 0xa5, nbytes + 1);
        rc = hwc_update_bits(ctx, out, k->data, nbits);
        FZ_CHECK(k, rc == HWC_OK, "hwc_update_bits(%zu) on %s: %d", nbits, impls[i], rc);
        if (nbytes) {
            FZ_CHECK(k, memcmp(out, ref->out, nbytes - 1) == 0, "CFB1 bits vs bytes on %s (%zu bits)", impls[i], nbits);
            uint8_t mask = (uint8_t)(0xff00u >> (nbits - (nbytes - 1) * 8));
            FZ_CHECK(k, out[nbytes - 1] == (ref->out[nbytes - 1] & mask), "CFB1 last partial byte on %s (%zu bits)",
                     impls[i], nbits);
        }
        FZ_CHECK(k, out[nbytes] == 0xa5, "hwc_update_bits wrote past %zu bytes on %s", nbytes, impls[i]);
        hwc_ctx_free(ctx);
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fz_case k;
    fz_parse(&k, data, size);
    const char *impls[FZ_MAX_IMPLS];
    size_t nimpl = fz_impls(hwc_cipher_family(k.c), impls);
    int mac = fz_is_mac(k.c);

    fz_result ref, got;
    fz_run(&k, "ct", 1, k.data, k.data_len, NULL, FZ_ONESHOT, &ref);

    /* Automatic selection goes through hwc_mac()/hwc_key_wrap() for MACs and
     * key wrap, which may check lengths in another order than hwc_init():
     * any error is fine there when ct errs too. */
    fz_run(&k, NULL, 1, k.data, k.data_len, NULL, FZ_ONESHOT, &got);
    if (ref.rc != HWC_OK && got.rc != HWC_OK && (mac || fz_is_wrap(k.c)))
        got.rc = ref.rc;
    fz_check_same(&k, &ref, &got, "automatic selection vs ct, one-shot");
    fz_result_free(&got);

    for (size_t i = 0; i < nimpl; i++) {
        if (i) {
            fz_run(&k, impls[i], 1, k.data, k.data_len, NULL, FZ_ONESHOT, &got);
            fz_check_same(&k, &ref, &got, impls[i]);
            fz_result_free(&got);
        }
        fz_run(&k, impls[i], 1, k.data, k.data_len, NULL, FZ_STREAM, &got);
        FZ_CHECK(&k, (got.rc == HWC_OK) == (ref.rc == HWC_OK), "%s streaming rc %d (%s) vs one-shot %d (%s)",
                 impls[i], got.rc, hwc_strerror(got.rc), ref.rc, hwc_strerror(ref.rc));
        if (ref.rc == HWC_OK)
            fz_check_same(&k, &ref, &got, "streaming vs one-shot");
        fz_result_free(&got);

        if (ref.rc == HWC_OK) {
            /* Round trip (MACs: verification of the tag). */
            for (int feed = FZ_ONESHOT; feed <= FZ_STREAM; feed++) {
                /* A MAC verifies the tag over the message itself. */
                fz_run(&k, impls[i], 0, mac ? k.data : ref.out, mac ? k.data_len : ref.out_len, ref.tag,
                       (enum fz_feed)feed, &got);
                FZ_CHECK(&k, got.rc == HWC_OK, "%s %s decryption of the encryption: %d (%s)", impls[i],
                         feed == FZ_ONESHOT ? "one-shot" : "streaming", got.rc, hwc_strerror(got.rc));
                if (!mac)
                    FZ_CHECK(&k, got.out_len == k.data_len && memcmp(got.out, k.data, k.data_len) == 0,
                             "%s %s round trip: %zu bytes back, want %zu", impls[i],
                             feed == FZ_ONESHOT ? "one-shot" : "streaming", got.out_len, k.data_len);
                fz_result_free(&got);
            }
        }
    }

    if (ref.rc == HWC_OK && hwc_cipher_mode(k.c) == HWC_MODE_CFB1)
        check_cfb1_bits(&k, impls, nimpl, &ref);

    if (k.flags & FZ_F_DECRYPT_RAW) {
        fz_result dref;
        fz_run(&k, "ct", 0, k.data, k.data_len, k.tag_in, FZ_ONESHOT, &dref);
        for (size_t i = 1; i < nimpl; i++) {
            fz_run(&k, impls[i], 0, k.data, k.data_len, k.tag_in, FZ_ONESHOT, &got);
            fz_check_same(&k, &dref, &got, "raw decryption vs ct");
            fz_result_free(&got);
        }
        for (size_t i = 0; i < nimpl; i++) {
            fz_run(&k, impls[i], 0, k.data, k.data_len, k.tag_in, FZ_STREAM, &got);
            /* Streaming AEAD decryption hands out plaintext before final()
             * rejects it, so only success and a successful output compare. */
            FZ_CHECK(&k, (got.rc == HWC_OK) == (dref.rc == HWC_OK), "%s streaming raw decryption rc %d vs one-shot %d",
                     impls[i], got.rc, dref.rc);
            if (dref.rc == HWC_OK)
                fz_check_same(&k, &dref, &got, "raw decryption, streaming vs one-shot");
            fz_result_free(&got);
        }
        fz_result_free(&dref);
    }
    fz_result_free(&ref);
    return 0;
}
