/* fuzz_openssl_diff: hwcrypt against OpenSSL's EVP, for every cipher of the
 * table that the installed OpenSSL has (the others are listed on stderr at
 * start-up; inputs naming them return at once).
 *
 *   - encryption (tag, wrap, MAC) on the back end the flags pick equals
 *     OpenSSL's, byte for byte, and OpenSSL decrypts it back;
 *   - with FZ_F_DECRYPT_RAW, the data decrypted as ciphertext (random tag,
 *     padding, wrap integrity) succeeds or fails in both, with the same bytes;
 *   - where hwcrypt accepts a length OpenSSL accepts too, and the reverse,
 *     except for the documented policy differences in stricter_here().
 * OpenSSL's call order is honoured: CCM wants the tag length, and the total
 * length before the AAD; OCB/GCM want the IV length before the key; SIV
 * takes each AD component (then the nonce) as an AAD update. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>

#include "fuzz_common.h"

typedef struct oracle {
    EVP_CIPHER *cipher; /* NULL for MACs */
    EVP_MAC *mac;
    char mac_cipher[32];
    const char *xts_standard; /* SM4-XTS: OpenSSL's tweak convention */
} oracle;

#define MAX_CIPHERS 128
static oracle oracles[MAX_CIPHERS];
static size_t n_have;

static void setup(void) {
    EVP_MAC *cmac = EVP_MAC_fetch(NULL, "CMAC", NULL), *gmac = EVP_MAC_fetch(NULL, "GMAC", NULL);
    size_t n = hwc_cipher_count() < MAX_CIPHERS ? hwc_cipher_count() : MAX_CIPHERS;
    fprintf(stderr, "fuzz_openssl_diff: no OpenSSL (%s) counterpart, not compared:", OpenSSL_version(OPENSSL_VERSION));
    for (size_t i = 0; i < n; i++) {
        const hwc_cipher *c = hwc_cipher_at(i);
        hwc_mode m = hwc_cipher_mode(c);
        oracle *o = &oracles[i];
        int sm4 = hwc_cipher_family(c) == HWC_FAMILY_SM4;
        if (m == HWC_MODE_CMAC || m == HWC_MODE_GMAC) {
            if (sm4)
                snprintf(o->mac_cipher, sizeof o->mac_cipher, "SM4-%s", m == HWC_MODE_CMAC ? "CBC" : "GCM");
            else
                snprintf(o->mac_cipher, sizeof o->mac_cipher, "AES-%zu-%s", hwc_cipher_key_len(c) * 8,
                         m == HWC_MODE_CMAC ? "CBC" : "GCM");
            EVP_CIPHER *probe = EVP_CIPHER_fetch(NULL, o->mac_cipher, NULL);
            if (probe)
                o->mac = m == HWC_MODE_CMAC ? cmac : gmac;
            EVP_CIPHER_free(probe);
        } else {
            int gb = (hwc_cipher_flags(c) & HWC_CIPHER_XTS_GB) != 0;
            o->cipher = EVP_CIPHER_fetch(NULL, gb ? "SM4-XTS" : hwc_cipher_name(c), NULL);
            if (o->cipher && m == HWC_MODE_XTS && sm4) {
                /* hwcrypt's sm4-xts is IEEE 1619, sm4-xts-gb GB/T 17964;
                 * OpenSSL (3.2+) needs to be told, else no comparison. */
                o->xts_standard = gb ? "GB" : "IEEE";
                EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
                OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string("xts_standard", (char *)o->xts_standard, 0),
                                   OSSL_PARAM_construct_end()};
                int ok = x && EVP_CipherInit_ex(x, o->cipher, NULL, NULL, NULL, 1) && EVP_CIPHER_CTX_set_params(x, p);
                EVP_CIPHER_CTX_free(x);
                if (!ok) {
                    EVP_CIPHER_free(o->cipher);
                    o->cipher = NULL;
                }
            }
        }
        ERR_clear_error();
        if (o->cipher || o->mac)
            n_have++;
        else
            fprintf(stderr, " %s", hwc_cipher_name(c));
    }
    fprintf(stderr, "\nfuzz_openssl_diff: %zu of %zu ciphers compared with OpenSSL\n", n_have, hwc_cipher_count());
}

static int is_tagged(hwc_mode m) {
    return m == HWC_MODE_GCM || m == HWC_MODE_CCM || m == HWC_MODE_OCB || m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV;
}

/* One whole operation in OpenSSL; 1 on success. */
static int ossl_run(const fz_case *k, const oracle *o, int enc, const uint8_t *in, size_t len, const uint8_t *tag_in,
                    uint8_t *out, size_t *out_len, uint8_t *tag_out) {
    hwc_mode m = hwc_cipher_mode(k->c);
    *out_len = 0;
    /* CMAC has no IV (hwcrypt refuses one; OpenSSL has no place for it).
     * Key wrap ignores the case's IV on both sides (default ICV). */
    if (m == HWC_MODE_CMAC && k->iv_len)
        return 0;
    if (o->mac) {
        if (k->tag_len < 1 || k->tag_len > 16)
            return 0; /* the MAC is 16 bytes; hwcrypt's tag_len truncates it */
        EVP_MAC_CTX *mc = EVP_MAC_CTX_new(o->mac);
        OSSL_PARAM p[3];
        int np = 0;
        size_t tl = 0;
        uint8_t full[16];
        p[np++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)o->mac_cipher, 0);
        if (m == HWC_MODE_GMAC)
            p[np++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, (void *)k->iv, k->iv_len);
        p[np] = OSSL_PARAM_construct_end();
        int ok = mc && EVP_MAC_init(mc, k->key, k->key_len, p) && EVP_MAC_update(mc, in, len) &&
                 EVP_MAC_final(mc, full, &tl, sizeof full) && tl == 16;
        EVP_MAC_CTX_free(mc);
        ERR_clear_error();
        if (ok)
            memcpy(tag_out, full, k->tag_len);
        return ok;
    }
    /* OpenSSL's wrap "succeeds" on empty input with empty output (an update
     * of 0 bytes is a no-op there): that is no wrap, so count it refused. */
    if ((m == HWC_MODE_KW || m == HWC_MODE_KWP) && len == 0)
        return 0;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = 0, l = 0, l2 = 0;
    if (!x)
        return 0;
    if (!EVP_CipherInit_ex(x, o->cipher, NULL, NULL, NULL, enc))
        goto done;
    if ((size_t)EVP_CIPHER_CTX_get_key_length(x) != k->key_len && EVP_CIPHER_CTX_set_key_length(x, (int)k->key_len) <= 0)
        goto done;
    if (m == HWC_MODE_GCM || m == HWC_MODE_CCM || m == HWC_MODE_OCB)
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)k->iv_len, NULL) <= 0)
            goto done;
    if (m == HWC_MODE_CCM || m == HWC_MODE_OCB)
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)k->tag_len,
                                (m == HWC_MODE_CCM && !enc) ? (void *)tag_in : NULL) <= 0)
            goto done;
    int no_iv = m == HWC_MODE_SIV || m == HWC_MODE_KW || m == HWC_MODE_KWP;
    if (!EVP_CipherInit_ex(x, NULL, NULL, k->key, no_iv ? NULL : k->iv, enc))
        goto done;
    if (o->xts_standard) {
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string("xts_standard", (char *)o->xts_standard, 0),
                           OSSL_PARAM_construct_end()};
        if (!EVP_CIPHER_CTX_set_params(x, p))
            goto done;
    }
    if (m == HWC_MODE_ECB || m == HWC_MODE_CBC)
        EVP_CIPHER_CTX_set_padding(x, !(k->flags & FZ_F_NO_PADDING));
    if (!enc && (m == HWC_MODE_OCB || m == HWC_MODE_GCM || m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV))
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)k->tag_len, (void *)tag_in) <= 0)
            goto done;
    if (m == HWC_MODE_CCM && !EVP_CipherUpdate(x, NULL, &l, NULL, (int)len))
        goto done;
    if (is_tagged(m) && k->aad_len && !EVP_CipherUpdate(x, NULL, &l, k->aad, (int)k->aad_len))
        goto done;
    if (m == HWC_MODE_SIV && k->iv_len && !EVP_CipherUpdate(x, NULL, &l, k->iv, (int)k->iv_len))
        goto done;
    l = 0;
    /* CCM needs the (empty) update; XTS must see an empty message to refuse
     * it (skipping the call would "succeed"). */
    if ((len || m == HWC_MODE_CCM || m == HWC_MODE_XTS) && !EVP_CipherUpdate(x, out, &l, in, (int)len))
        goto done;
    if (!EVP_CipherFinal_ex(x, out + l, &l2))
        goto done;
    *out_len = (size_t)l + (size_t)l2;
    if (enc && is_tagged(m) && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)k->tag_len, tag_out) <= 0)
        goto done;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(x);
    ERR_clear_error();
    return ok;
}

/* Lengths hwcrypt refuses by design though OpenSSL takes them. */
static int stricter_here(const fz_case *k) {
    hwc_mode m = hwc_cipher_mode(k->c);
    /* GCM tags under 4 bytes: SP 800-38D allows 4..16 (OpenSSL takes 1..16). */
    if (m == HWC_MODE_GCM && k->tag_len < 4)
        return 1;
    if (m == HWC_MODE_GMAC && k->tag_len < 4)
        return 1;
    /* XTS keys with equal halves: hwcrypt refuses them both ways (weak key);
     * OpenSSL 3.0 only when encrypting. */
    if (m == HWC_MODE_XTS && k->key_len % 2 == 0 && memcmp(k->key, k->key + k->key_len / 2, k->key_len / 2) == 0)
        return 1;
    return 0;
}

/* Inputs OpenSSL refuses though they are valid: its AES-SIV (3.0, 3.1)
 * fails on an empty message.  Nothing is compared for them. */
static int openssl_refuses_valid(const fz_case *k, size_t len) {
    return hwc_cipher_mode(k->c) == HWC_MODE_SIV && len == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static fz_case k;
    static uint8_t o_out[FZ_MAX_DATA + 64], o_back[FZ_MAX_DATA + 64];
    static int ready;
    if (!ready) {
        setup();
        ready = 1;
    }
    fz_parse(&k, data, size);
    if (k.cipher_index >= MAX_CIPHERS)
        return 0;
    const oracle *o = &oracles[k.cipher_index];
    if (!o->cipher && !o->mac)
        return 0;
    hwc_mode m = hwc_cipher_mode(k.c);
    const char *impls[FZ_MAX_IMPLS];
    size_t nimpl = fz_impls(hwc_cipher_family(k.c), impls);
    const char *impl = impls[(k.flags >> FZ_F_IMPL_SHIFT) % nimpl];
    int mac = fz_is_mac(k.c);
    uint8_t o_tag[FZ_MAX_TAG];
    size_t o_len = 0, back_len = 0;

    /* OpenSSL cannot be told another IV length for the fixed-IV modes
     * (it reads its own length from the pointer): hwcrypt must refuse. */
    int fixed_iv = !fz_is_aead(k.c) && !mac && !fz_is_wrap(k.c);
    if (fixed_iv && k.iv_len != (size_t)EVP_CIPHER_get_iv_length(o->cipher)) {
        fz_result h;
        fz_run(&k, impl, 1, k.data, k.data_len, NULL, FZ_ONESHOT, &h);
        FZ_CHECK(&k, h.rc != HWC_OK, "hwcrypt accepted a %zu-byte IV where OpenSSL's is %d bytes", k.iv_len,
                 EVP_CIPHER_get_iv_length(o->cipher));
        fz_result_free(&h);
        return 0;
    }

    fz_result h;
    fz_run(&k, impl, 1, k.data, k.data_len, NULL, FZ_ONESHOT, &h);
    int ok = ossl_run(&k, o, 1, k.data, k.data_len, NULL, o_out, &o_len, o_tag);
    if (h.rc == HWC_OK && !ok && openssl_refuses_valid(&k, k.data_len)) {
        /* nothing to compare */
    } else if (h.rc == HWC_OK) {
        FZ_CHECK(&k, ok, "hwcrypt (%s) encrypted, OpenSSL refused", impl);
        FZ_CHECK(&k, h.out_len == o_len && memcmp(h.out, o_out, o_len) == 0,
                 "output differs from OpenSSL (%s): %zu vs %zu bytes", impl, h.out_len, o_len);
        if (mac || is_tagged(m))
            FZ_CHECK(&k, memcmp(h.tag, o_tag, k.tag_len) == 0, "tag differs from OpenSSL (%s)", impl);
        if (!mac) {
            int back = ossl_run(&k, o, 0, h.out, h.out_len, h.tag, o_back, &back_len, o_tag);
            FZ_CHECK(&k, back && back_len == k.data_len && memcmp(o_back, k.data, k.data_len) == 0,
                     "OpenSSL does not decrypt hwcrypt's output back (%s): ok=%d, %zu bytes", impl, back, back_len);
        }
    } else {
        FZ_CHECK(&k, !ok || stricter_here(&k), "hwcrypt (%s) refused with %d (%s), OpenSSL encrypted", impl, h.rc,
                 hwc_strerror(h.rc));
    }
    fz_result_free(&h);

    if ((k.flags & FZ_F_DECRYPT_RAW) && !mac) {
        fz_run(&k, impl, 0, k.data, k.data_len, k.tag_in, FZ_ONESHOT, &h);
        ok = ossl_run(&k, o, 0, k.data, k.data_len, k.tag_in, o_out, &o_len, o_tag);
        if (h.rc == HWC_OK && !ok && openssl_refuses_valid(&k, k.data_len)) {
            /* nothing to compare */
        } else if (h.rc == HWC_OK) {
            FZ_CHECK(&k, ok, "hwcrypt (%s) decrypted raw data, OpenSSL refused", impl);
            FZ_CHECK(&k, h.out_len == o_len && memcmp(h.out, o_out, o_len) == 0,
                     "raw decryption differs from OpenSSL (%s): %zu vs %zu bytes", impl, h.out_len, o_len);
        } else {
            FZ_CHECK(&k, !ok || stricter_here(&k), "hwcrypt (%s) refused raw decryption with %d (%s), OpenSSL took it",
                     impl, h.rc, hwc_strerror(h.rc));
        }
        fz_result_free(&h);
    }
    return 0;
}
