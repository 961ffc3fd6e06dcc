/*
 * Regression tests of issues 15 and 14 (provider part): where programs and
 * OpenSSL's own test suites found hwcrypt's provider behaving unlike the
 * default provider.  Each test runs the same calls on both providers (loaded
 * in one library context, picked with "provider=hwcrypt" / "provider=default")
 * and compares what comes out: bytes, return values, error reasons.
 *
 * usage: prov_compat <dir with hwcrypt.so> <test>
 *   updated_iv      item 1: EVP_CIPHER_CTX_get_updated_iv after init, every
 *                   piece and final (copy and pointer forms)
 *   inplace_pieces  item 2: one buffer in place, in pieces (out = in - held)
 *   ccm_tag_late    item 3: the CCM tag given after the length and the AAD
 *   errors          item 4: wrong tags fail with no error entry; XTS equal
 *                   halves, a partial final block, bad padding: OpenSSL's
 *                   library and reason
 *   fallback        item 5: with hwcrypt preferred, 3DES-CMAC, CAMELLIA-CMAC,
 *                   ARIA-GMAC and KRB5KDF work as without it; no IV = zeros
 *   copy            item 6: EVP_CIPHER_CTX_copy / EVP_MAC_CTX_dup mid-message
 *   gcm_tag_len     D9: an unsupported GCM tag length refused when it is set,
 *                   and a length without the tag (as the default provider)
 *   ccm_no_length   D10: CCM without a declared length (AAD refused, data
 *                   encrypted, no tag without data)
 *   after_final     CBC (and CTR) updates after final go on as OpenSSL's
 *   keylen_param    keylen through params: refused at once (documented)
 *   length_wrap     lengths whose sums wrapped past a check (issue 14's
 *                   family of D4): a negative TLS fixed-IV length through
 *                   EVP_CIPHER_CTX_ctrl, and update lengths over PTRDIFF_MAX
 *                   through the dispatch table; hwcrypt alone (OpenSSL 3.0's
 *                   own GCM wraps on the first too)
 *   param_lists     lists of several context parameters at once, repeated
 *                   keys (the first counts, as OSSL_PARAM_locate), unknown
 *                   keys and near misses ("ivlenx", "i", "tagl"): what the
 *                   provider's one-pass parameter index must find or skip
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/proverr.h>
#include <openssl/provider.h>

#include "prov_check.h"

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *phw;
static const char *const props[2] = {"provider=default", "provider=hwcrypt"};

static void fill(uint8_t *p, size_t n, unsigned seed) {
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 3));
}

static EVP_CIPHER *fetch(const char *name, int hw) {
    EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, props[hw]);
    CHECK(c != NULL, "%s from %s", name, props[hw]);
    return c;
}

static uint64_t hw_bytes(void) {
    uint64_t b = 0;
    OSSL_PARAM pp[] = {OSSL_PARAM_construct_uint64("hwcrypt-bytes", &b), OSSL_PARAM_construct_end()};
    return OSSL_PROVIDER_get_params(phw, pp) ? b : 0;
}

/* The first error on the queue as (library, reason), 0 if none; clears it. */
static unsigned long first_error(void) {
    unsigned long e = ERR_peek_error();
    ERR_clear_error();
    return e ? (unsigned long)ERR_GET_LIB(e) << 24 | (unsigned long)ERR_GET_REASON(e) : 0;
}

/* ------------------------------------------------------------- item 1 */

static void test_updated_iv(void) {
    static const char *names[] = {"AES-128-CBC", "AES-192-CFB", "AES-256-CFB8", "AES-128-CFB1", "AES-128-OFB",
                                  "AES-256-CTR", "SM4-CBC",     "SM4-CFB",      "SM4-OFB",      "SM4-CTR",
                                  "AES-128-GCM", "AES-128-XTS", "AES-128-ECB"};
    static const size_t pieces[] = {1, 15, 16, 3, 33, 0, 64, 5};
    for (size_t a = 0; a < sizeof names / sizeof names[0]; a++) {
        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[64], iv[16], in[256], out[2][300], got[2][3][16];
            fill(key, sizeof key, 1 + (unsigned)a);
            fill(iv, sizeof iv, 2);
            fill(in, sizeof in, 3);
            int xts = strstr(names[a], "XTS") != NULL, block = strstr(names[a], "CBC") || strstr(names[a], "ECB");
            EVP_CIPHER_CTX *x[2];
            for (int hw = 0; hw < 2; hw++) {
                EVP_CIPHER *c = fetch(names[a], hw);
                x[hw] = EVP_CIPHER_CTX_new();
                CHECK(c && EVP_CipherInit_ex2(x[hw], c, key, iv, enc, NULL), "%s init", names[a]);
                EVP_CIPHER_CTX_set_padding(x[hw], 0);
                EVP_CIPHER_free(c);
            }
            size_t done = 0;
            for (size_t s = 0; s <= sizeof pieces / sizeof pieces[0]; s++) {
                int last = s == sizeof pieces / sizeof pieces[0];
                size_t n = last ? 0 : xts ? (s == 0 ? 32 : 0) : block ? (pieces[s] + 15) / 16 * 16 : pieces[s];
                int ok[2];
                for (int hw = 0; hw < 2; hw++) {
                    int l = 0;
                    ok[hw] = last ? EVP_CipherFinal_ex(x[hw], out[hw], &l) : EVP_CipherUpdate(x[hw], out[hw], &l, in + done, (int)n);
                    /* The copy form (EVP_CIPHER_CTX_get_updated_iv) and the
                     * pointer form (what EVP_CIPHER_CTX_iv asks for). */
                    memset(got[hw], 0xa5, sizeof got[hw]);
                    ok[hw] &= EVP_CIPHER_CTX_get_updated_iv(x[hw], got[hw][0], 16) > 0;
                    const void *ptr = NULL;
                    OSSL_PARAM pp[] = {OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_UPDATED_IV, (void **)&ptr, 16),
                                       OSSL_PARAM_construct_end()};
                    ok[hw] &= EVP_CIPHER_CTX_get_params(x[hw], pp) > 0;
                    if (ptr)
                        memcpy(got[hw][1], ptr, 16);
                }
                done += n;
                size_t ivl = (size_t)EVP_CIPHER_CTX_get_iv_length(x[0]);
                CHECK(ok[0] == ok[1] && memcmp(got[0][0], got[1][0], ivl) == 0 && memcmp(got[0][1], got[1][1], ivl) == 0,
                      "%s %s: updated IV after %zu bytes%s differs from the default provider's (ok %d/%d, %02x%02x../%02x%02x..)",
                      names[a], enc ? "enc" : "dec", done, last ? " and final" : "", ok[1], ok[0], got[1][0][0],
                      got[1][0][1], got[0][0][0], got[0][0][1]);
            }
            EVP_CIPHER_CTX_free(x[0]);
            EVP_CIPHER_CTX_free(x[1]);
        }
    }
}

/* ------------------------------------------------------------- item 2 */

/* One buffer through in place, fed in pieces as EVP callers do: the output
 * of each piece lands where the bytes written so far end. */
static int inplace_run(const char *name, int hw, int enc, int pad, uint8_t *buf, size_t len, uint8_t *tag,
                       size_t *total) {
    static const size_t pieces[] = {1, 15, 3, 16, 17, 40, 2};
    uint8_t key[32], iv[16];
    fill(key, sizeof key, 9);
    fill(iv, sizeof iv, 10);
    EVP_CIPHER *c = fetch(name, hw);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = c && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL);
    int ocb = strstr(name, "OCB") != NULL, aead = ocb || strstr(name, "GCM");
    if (ok && !enc && aead)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0;
    EVP_CIPHER_CTX_set_padding(x, pad);
    size_t in_at = 0, out_at = 0;
    for (size_t s = 0; ok && in_at < len; s++) {
        size_t n = pieces[s % 7];
        if (n > len - in_at)
            n = len - in_at;
        int l = 0;
        ok = EVP_CipherUpdate(x, buf + out_at, &l, buf + in_at, (int)n);
        in_at += n;
        out_at += (size_t)l;
    }
    int l = 0;
    ok = ok && EVP_CipherFinal_ex(x, buf + out_at, &l);
    out_at += (size_t)l;
    if (ok && enc && aead)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0;
    *total = out_at;
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return ok;
}

static void test_inplace_pieces(void) {
    static const struct {
        const char *name;
        int pad;
    } cases[] = {{"AES-128-ECB", 0}, {"AES-128-ECB", 1}, {"AES-256-CBC", 1}, {"AES-128-CBC", 0}, {"SM4-ECB", 0},
                 {"SM4-CBC", 1},     {"AES-128-OCB", 0}, {"AES-256-OCB", 0}, {"AES-128-CTR", 0}, {"AES-128-GCM", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].pad || strstr(cases[i].name, "OCB") || strstr(cases[i].name, "CTR") ||
                             strstr(cases[i].name, "GCM")
                         ? 203
                         : 208;
        uint8_t buf[2][256], tag[2][16], pt[256];
        fill(pt, sizeof pt, 11);
        size_t n[2] = {0, 0};
        int ok[2];
        for (int hw = 0; hw < 2; hw++) {
            memcpy(buf[hw], pt, len);
            ok[hw] = inplace_run(cases[i].name, hw, 1, cases[i].pad, buf[hw], len, tag[hw], &n[hw]);
        }
        CHECK(ok[0] && ok[1] && n[0] == n[1] && memcmp(buf[0], buf[1], n[0]) == 0,
              "%s (padding %d) in place in pieces, encrypting: hwcrypt %s", cases[i].name, cases[i].pad,
              ok[1] ? "differs" : "refused");
        ERR_clear_error();
        size_t clen = n[0];
        for (int hw = 0; hw < 2; hw++) {
            memcpy(buf[hw], buf[0], clen);
            memcpy(tag[hw], tag[0], 16);
        }
        for (int hw = 0; hw < 2; hw++)
            ok[hw] = inplace_run(cases[i].name, hw, 0, cases[i].pad, buf[hw], clen, tag[hw], &n[hw]);
        CHECK(ok[0] && ok[1] && n[1] == len && memcmp(buf[1], pt, len) == 0,
              "%s (padding %d) in place in pieces, decrypting: hwcrypt %s", cases[i].name, cases[i].pad,
              ok[1] ? "differs" : "refused");
        ERR_clear_error();
    }
}

/* ------------------------------------------------------------- item 3 */

static int ccm_run(int hw, int enc, int tag_late, const uint8_t *in, size_t len, uint8_t *out, uint8_t *tag) {
    uint8_t key[16], nonce[12], aad[20];
    fill(key, sizeof key, 21);
    fill(nonce, sizeof nonce, 22);
    fill(aad, sizeof aad, 23);
    EVP_CIPHER *c = fetch("AES-128-CCM", hw);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l = 0;
    int ok = c && EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) > 0 &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 12, enc || tag_late ? NULL : tag) > 0 &&
             EVP_CipherInit_ex2(x, NULL, key, nonce, enc, NULL) && EVP_CipherUpdate(x, NULL, &l, NULL, (int)len) &&
             EVP_CipherUpdate(x, NULL, &l, aad, sizeof aad);
    if (ok && !enc && tag_late)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 12, tag) > 0;
    ok = ok && EVP_CipherUpdate(x, out, &l, in, (int)len) && EVP_CipherFinal_ex(x, out + l, &l);
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 12, tag) > 0;
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return ok;
}

static void test_ccm_tag_late(void) {
    uint8_t pt[50], ct[50], back[2][50], tag[16];
    fill(pt, sizeof pt, 24);
    CHECK(ccm_run(0, 1, 0, pt, sizeof pt, ct, tag), "CCM encryption (default)");
    for (int hw = 0; hw < 2; hw++)
        CHECK(ccm_run(hw, 0, 1, ct, sizeof ct, back[hw], tag) && memcmp(back[hw], pt, sizeof pt) == 0,
              "CCM decryption with the tag set late (%s)", props[hw]);
    tag[0] ^= 1;
    for (int hw = 0; hw < 2; hw++)
        CHECK(!ccm_run(hw, 0, 1, ct, sizeof ct, back[hw], tag), "CCM decryption, wrong tag set late (%s) accepted",
              props[hw]);
    ERR_clear_error();
}

/* ------------------------------------------------------------- item 4 */

typedef struct outcome {
    int ok;
    unsigned long err;
} outcome;

/* AEAD decryption with a flipped tag bit: the result and the error queue. */
static outcome forged(const char *name, int hw) {
    int siv = strstr(name, "SIV") != NULL, ccm = strstr(name, "CCM") != NULL;
    uint8_t key[64], nonce[12], pt[40], ct[56], out[56], tag[16];
    fill(key, sizeof key, 31);
    fill(nonce, sizeof nonce, 32);
    fill(pt, sizeof pt, 33);
    outcome r = {0, 0};
    for (int enc = 1; enc >= 0; enc--) {
        EVP_CIPHER *c = fetch(name, hw);
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        /* CCM's tag (length) before the key, which fixes it; the others'
         * expected tag after the key and nonce. */
        int l = 0, ok = c && EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL);
        if (ok && ccm)
            ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, enc ? NULL : tag) > 0;
        ok = ok && EVP_CipherInit_ex2(x, NULL, key, siv ? NULL : nonce, enc, NULL);
        if (ok && !enc && !ccm)
            ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, tag) > 0;
        if (ok && ccm)
            ok = EVP_CipherUpdate(x, NULL, &l, NULL, sizeof pt);
        ok = ok && EVP_CipherUpdate(x, NULL, &l, nonce, 5); /* AAD */
        uint8_t *dst = enc ? ct : out; /* OCB holds a partial block back until final */
        ok = ok && EVP_CipherUpdate(x, dst, &l, enc ? pt : ct, sizeof pt);
        int fl = 0;
        ok = ok && EVP_CipherFinal_ex(x, dst + l, &fl);
        if (enc) {
            CHECK(ok && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) > 0, "%s encryption", name);
            tag[3] ^= 0x20;
        } else {
            r.ok = ok;
            r.err = first_error();
        }
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_free(c);
    }
    return r;
}

static outcome xts_equal_halves(int hw, int enc) {
    uint8_t key[32], iv[16], in[32], out[32];
    fill(key, 16, 41);
    memcpy(key + 16, key, 16);
    fill(iv, sizeof iv, 42);
    fill(in, sizeof in, 43);
    EVP_CIPHER *c = fetch("AES-128-XTS", hw);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l = 0;
    outcome r;
    r.ok = c && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) && EVP_CipherUpdate(x, out, &l, in, sizeof in) &&
           EVP_CipherFinal_ex(x, out + l, &l);
    r.err = first_error();
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return r;
}

/* ECB/CBC finals: a partial block (padding off), a ciphertext that is not a
 * multiple of 16 (padding on, decrypting), bad padding. */
static outcome block_final(const char *name, int hw, int kind) {
    uint8_t key[16], iv[16], in[48], out[80];
    fill(key, sizeof key, 51);
    fill(iv, sizeof iv, 52);
    fill(in, sizeof in, 53);
    EVP_CIPHER *c = fetch(name, hw);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l = 0, enc = kind == 0;
    outcome r;
    r.ok = c && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL);
    EVP_CIPHER_CTX_set_padding(x, kind != 0);
    r.ok = r.ok && EVP_CipherUpdate(x, out, &l, in, kind == 2 ? 32 : 17) && EVP_CipherFinal_ex(x, out + l, &l);
    r.err = first_error();
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return r;
}

static void test_errors(void) {
    static const char *aeads[] = {"AES-128-GCM", "AES-256-GCM", "AES-128-CCM", "AES-128-OCB", "AES-128-SIV"};
    for (size_t i = 0; i < sizeof aeads / sizeof aeads[0]; i++) {
        outcome d = forged(aeads[i], 0), h = forged(aeads[i], 1);
        /* GCM, OCB, SIV: no error entry; CCM: "cipher operation failed". */
        CHECK(!d.ok && !h.ok && d.err == h.err,
              "%s, wrong tag: hwcrypt %d, error %#lx; default %d, error %#lx (must fail as the default provider does)",
              aeads[i], h.ok, h.err, d.ok, d.err);
    }
    outcome d = xts_equal_halves(0, 1), h = xts_equal_halves(1, 1);
    CHECK(!h.ok && h.err == d.err && h.err == ((unsigned long)ERR_LIB_PROV << 24 | PROV_R_XTS_DUPLICATED_KEYS),
          "XTS equal halves, encrypting: hwcrypt error %#lx, default %#lx", h.err, d.err);
    d = xts_equal_halves(0, 0);
    h = xts_equal_halves(1, 0);
    CHECK(d.ok && h.ok, "XTS equal halves, decrypting (taken outside FIPS mode): hwcrypt %d, default %d", h.ok, d.ok);
    static const char *blocks[] = {"AES-128-CBC", "AES-128-ECB", "SM4-CBC"};
    for (size_t i = 0; i < 3; i++)
        for (int kind = 0; kind < 3; kind++) {
            d = block_final(blocks[i], 0, kind);
            h = block_final(blocks[i], 1, kind);
            CHECK(!h.ok && !d.ok && h.err == d.err,
                  "%s final (%s): hwcrypt error %#lx, default %#lx", blocks[i],
                  kind == 0 ? "partial block, no padding" : kind == 1 ? "17 bytes, padding" : "bad padding", h.err,
                  d.err);
        }
}

/* ------------------------------------------------------------- item 5 */

static int mac_compute(OSSL_LIB_CTX *ctx, const char *mac, const char *prop, const char *cipher, size_t klen,
                       uint8_t *out, size_t *outl, const char **provider) {
    uint8_t key[32], iv[12], msg[100];
    fill(key, sizeof key, 61);
    fill(iv, sizeof iv, 62);
    fill(msg, sizeof msg, 63);
    EVP_MAC *m = EVP_MAC_fetch(ctx, mac, prop);
    EVP_MAC_CTX *x = m ? EVP_MAC_CTX_new(m) : NULL;
    OSSL_PARAM pp[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0),
                       OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv, sizeof iv), OSSL_PARAM_construct_end()};
    if (strcmp(mac, "CMAC") == 0)
        pp[1] = OSSL_PARAM_construct_end();
    int ok = x && EVP_MAC_init(x, key, klen, pp) && EVP_MAC_update(x, msg, 33) && EVP_MAC_update(x, msg + 33, 67) &&
             EVP_MAC_final(x, out, outl, 16);
    if (provider)
        *provider = m ? OSSL_PROVIDER_get0_name(EVP_MAC_get0_provider(m)) : "none";
    EVP_MAC_CTX_free(x);
    EVP_MAC_free(m);
    return ok;
}

static int krb5kdf(OSSL_LIB_CTX *ctx, const char *prop, uint8_t *out, size_t outlen) {
    uint8_t key[16], constant[5] = {0, 0, 0, 2, 0x99};
    fill(key, sizeof key, 71);
    EVP_KDF *k = EVP_KDF_fetch(ctx, "KRB5KDF", prop);
    EVP_KDF_CTX *x = k ? EVP_KDF_CTX_new(k) : NULL;
    OSSL_PARAM pp[] = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_CIPHER, (char *)"AES-128-CBC", 0),
                       OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, key, sizeof key),
                       OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_CONSTANT, constant, sizeof constant),
                       OSSL_PARAM_construct_end()};
    int ok = x && EVP_KDF_derive(x, out, outlen, pp) > 0;
    EVP_KDF_CTX_free(x);
    EVP_KDF_free(k);
    return ok;
}

static void test_fallback(void) {
    /* The system-wide setting: hwcrypt preferred, everything else from the
     * default provider. */
    CHECK(EVP_set_default_properties(libctx, "?provider=hwcrypt"), "set ?provider=hwcrypt");
    static const struct {
        const char *mac, *cipher;
        size_t klen;
    } macs[] = {{"CMAC", "DES-EDE3-CBC", 24},
                {"CMAC", "CAMELLIA-128-CBC", 16},
                {"GMAC", "ARIA-128-GCM", 16},
                {"CMAC", "AES-128-CBC", 16},
                {"GMAC", "AES-256-GCM", 32}};
    for (size_t i = 0; i < sizeof macs / sizeof macs[0]; i++) {
        uint8_t t[2][16];
        size_t n[2] = {0, 0};
        const char *by = NULL;
        uint64_t before = hw_bytes();
        int ok1 = mac_compute(libctx, macs[i].mac, NULL, macs[i].cipher, macs[i].klen, t[1], &n[1], &by);
        uint64_t moved = hw_bytes() - before;
        int ok0 = mac_compute(libctx, macs[i].mac, "provider=default", macs[i].cipher, macs[i].klen, t[0], &n[0], NULL);
        CHECK(ok0 && ok1 && n[0] == n[1] && memcmp(t[0], t[1], n[0]) == 0 && strcmp(by, "hwcrypt") == 0,
              "%s with %s, hwcrypt preferred (MAC from %s): %d/%d, %zu/%zu bytes", macs[i].mac, macs[i].cipher, by,
              ok1, ok0, n[1], n[0]);
        int own = strstr(macs[i].cipher, "AES") != NULL;
        CHECK(own ? moved > 0 : moved == 0, "%s with %s: %llu bytes through hwcrypt's own code", macs[i].mac,
              macs[i].cipher, (unsigned long long)moved);
        ERR_clear_error();
    }
    uint8_t k[2][16];
    uint64_t before = hw_bytes();
    int ok1 = krb5kdf(libctx, NULL, k[1], sizeof k[1]);
    uint64_t moved = hw_bytes() - before;
    int ok0 = krb5kdf(libctx, "provider=default", k[0], sizeof k[0]);
    EVP_set_default_properties(libctx, NULL);
    /* Strictly default: its KDF fetches AES-CBC from the default provider. */
    OSSL_LIB_CTX *plain = OSSL_LIB_CTX_new();
    OSSL_PROVIDER *pd = OSSL_PROVIDER_load(plain, "default");
    uint8_t k2[16];
    int ok2 = krb5kdf(plain, NULL, k2, sizeof k2);
    CHECK(ok0 && ok1 && ok2 && memcmp(k[1], k2, 16) == 0 && memcmp(k[0], k2, 16) == 0 && moved > 0,
          "KRB5KDF with hwcrypt preferred: %d (%llu bytes through hwcrypt), default alone %d", ok1,
          (unsigned long long)moved, ok2);
    OSSL_PROVIDER_unload(pd);
    OSSL_LIB_CTX_free(plain);
    ERR_clear_error();

    /* Keyed without an IV: OpenSSL's ciphers run on zeros. */
    static const char *names[] = {"AES-128-CBC", "AES-128-CTR", "AES-128-CFB", "AES-128-OFB", "SM4-CBC"};
    for (size_t i = 0; i < 5; i++) {
        uint8_t key[16], in[32], out[2][48];
        fill(key, sizeof key, 81);
        fill(in, sizeof in, 82);
        int ok[2], l = 0;
        for (int hw = 0; hw < 2; hw++) {
            EVP_CIPHER *c = fetch(names[i], hw);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            ok[hw] = c && EVP_EncryptInit_ex2(x, c, key, NULL, NULL) && EVP_EncryptUpdate(x, out[hw], &l, in, 32);
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_free(c);
        }
        CHECK(ok[0] && ok[1] && memcmp(out[0], out[1], 32) == 0, "%s keyed without an IV: hwcrypt %d", names[i], ok[1]);
        ERR_clear_error();
    }
}

/* ------------------------------------------------------------- item 6 */

static void test_copy(void) {
    static const char *names[] = {"AES-128-GCM", "AES-256-CBC", "AES-128-OCB", "AES-128-CTR",
                                  "AES-128-CFB8", "SM4-CBC",    "AES-192-GCM", "AES-128-CCM"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int ccm = strstr(names[i], "CCM") != NULL, aead = ccm || strstr(names[i], "GCM") || strstr(names[i], "OCB");
        uint8_t key[32], iv[16], pt[100], out[3][120], tag[3][16];
        fill(key, sizeof key, 91);
        fill(iv, sizeof iv, 92);
        fill(pt, sizeof pt, 93);
        int ok[3] = {0, 0, 0};
        size_t len[3] = {0, 0, 0};
        for (int hw = 0; hw < 2; hw++) {
            EVP_CIPHER *c = fetch(names[i], hw);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = EVP_CIPHER_CTX_new();
            /* The IV length before the key: OpenSSL 3.0's CCM keeps the L of
             * the old length when it changes after the key. */
            int l = 0, ok1 = c && EVP_EncryptInit_ex2(x, c, NULL, NULL, NULL);
            if (ok1 && aead)
                ok1 = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) > 0;
            ok1 = ok1 && EVP_EncryptInit_ex2(x, NULL, key, iv, NULL);
            if (ok1 && ccm)
                ok1 = EVP_EncryptUpdate(x, NULL, &l, NULL, sizeof pt);
            if (ok1 && aead)
                ok1 = EVP_EncryptUpdate(x, NULL, &l, iv, 7);
            size_t w = 0;
            if (ok1 && !ccm) { /* CCM takes its data in one update: copy after the AAD */
                ok1 = EVP_EncryptUpdate(x, out[hw], &l, pt, 21);
                w = (size_t)l;
            }
            /* Copy here; the original goes on, then the copy from the same point. */
            ok1 = ok1 && EVP_CIPHER_CTX_copy(y, x);
            EVP_CIPHER_CTX *both[2] = {x, y};
            for (int k = 0; k < 2 && ok1; k++) {
                int slot = hw == 1 && k == 1 ? 2 : hw;
                size_t ww = w;
                if (slot == 2)
                    memcpy(out[2], out[1], w);
                ok1 = EVP_EncryptUpdate(both[k], out[slot] + ww, &l, pt + (ccm ? 0 : 21), (int)(sizeof pt - (ccm ? 0 : 21)));
                ww += (size_t)l;
                ok1 = ok1 && EVP_EncryptFinal_ex(both[k], out[slot] + ww, &l);
                ww += (size_t)l;
                if (ok1 && aead)
                    ok1 = EVP_CIPHER_CTX_ctrl(both[k], EVP_CTRL_AEAD_GET_TAG, ccm ? 12 : 16, tag[slot]) > 0;
                len[slot] = ww;
                ok[slot] = ok1;
                if (hw == 0)
                    break; /* the default provider's original is the reference */
            }
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_CTX_free(y);
            EVP_CIPHER_free(c);
        }
        for (int s = 1; s < 3; s++)
            CHECK(ok[0] && ok[s] && len[s] == len[0] && memcmp(out[s], out[0], len[0]) == 0 &&
                      (!aead || memcmp(tag[s], tag[0], ccm ? 12 : 16) == 0),
                  "%s: EVP_CIPHER_CTX_copy mid-message, %s goes on unlike the default provider's (ok %d/%d, %zu/%zu bytes)",
                  names[i], s == 1 ? "the original" : "the copy", ok[s], ok[0], len[s], len[0]);
        ERR_clear_error();
    }
    static const struct {
        const char *mac, *cipher;
        size_t klen;
    } macs[] = {{"CMAC", "AES-128-CBC", 16}, {"GMAC", "AES-128-GCM", 16}, {"CMAC", "SM4-CBC", 16}, {"CMAC", "DES-EDE3-CBC", 24}};
    for (size_t i = 0; i < sizeof macs / sizeof macs[0]; i++) {
        uint8_t key[32], iv[12], msg[90], t[3][16];
        size_t n[3] = {0, 0, 0};
        fill(key, sizeof key, 95);
        fill(iv, sizeof iv, 96);
        fill(msg, sizeof msg, 97);
        int ok[3] = {0, 0, 0};
        for (int hw = 0; hw < 2; hw++) {
            EVP_MAC *m = EVP_MAC_fetch(libctx, macs[i].mac, props[hw]);
            EVP_MAC_CTX *x = m ? EVP_MAC_CTX_new(m) : NULL, *y = NULL;
            OSSL_PARAM pp[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)macs[i].cipher, 0),
                               OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, iv, sizeof iv),
                               OSSL_PARAM_construct_end()};
            int o = x && EVP_MAC_init(x, key, macs[i].klen, pp) && EVP_MAC_update(x, msg, 37) &&
                    (y = EVP_MAC_CTX_dup(x)) != NULL;
            ok[hw] = o && EVP_MAC_update(x, msg + 37, 53) && EVP_MAC_final(x, t[hw], &n[hw], 16);
            if (hw)
                ok[2] = o && EVP_MAC_update(y, msg + 37, 53) && EVP_MAC_final(y, t[2], &n[2], 16);
            EVP_MAC_CTX_free(x);
            EVP_MAC_CTX_free(y);
            EVP_MAC_free(m);
        }
        for (int s = 1; s < 3; s++)
            CHECK(ok[0] && ok[s] && n[s] == n[0] && memcmp(t[s], t[0], n[0]) == 0,
                  "%s-%s: EVP_MAC_CTX_dup mid-message, %s differs from the default provider's", macs[i].mac,
                  macs[i].cipher, s == 1 ? "the original" : "the copy");
        ERR_clear_error();
    }
}

/* ----------------------------------------------------------- D9, D10 */

static void test_gcm_tag_len(void) {
    static const size_t lens[] = {1, 3, 4, 8, 12, 16};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t key[16] = {0}, iv[12] = {0}, tag[16] = {0};
        EVP_CIPHER *c = fetch("AES-128-GCM", 1);
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        int ok = c && EVP_DecryptInit_ex2(x, c, key, iv, NULL) &&
                 EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)lens[i], tag) > 0;
        CHECK(ok == (lens[i] >= 4), "GCM decryption: a %zu-byte tag %s when set", lens[i],
              ok ? "accepted" : "refused");
        ERR_clear_error();
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_free(c);
    }
    /* A length without the tag (CCM's and OCB's way of choosing the length
     * to produce) is refused by GCM, encrypting or decrypting, as by the
     * default provider. */
    for (int enc = 0; enc <= 1; enc++) {
        for (int hw = 0; hw <= 1; hw++) {
            uint8_t key[16] = {0}, iv[12] = {0};
            EVP_CIPHER *c = fetch("AES-128-GCM", hw);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            int init = c && x && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL);
            int ok = init && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 12, NULL) > 0;
            CHECK(init && !ok, "GCM %s on %s: a 12-byte tag length without the tag %s", enc ? "encryption" : "decryption",
                  hw ? "hwcrypt" : "the default provider", ok ? "accepted" : "refused");
            ERR_clear_error();
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_free(c);
        }
    }
}

/* D10 is hwcrypt's own contract, asserted on hwcrypt alone: with no declared
 * message length, AAD is refused (CCM needs the length before the AAD) and
 * data is encrypted as a message of the length of its one update (OpenSSL's
 * sequence), and no tag is ever handed out for a message that was not
 * processed.  The default provider is the reference only where every
 * OpenSSL 3.0 agrees, the CCM of a message whose length was declared: after
 * an init and a final alone, 3.0.19 refuses the tag and 3.0.22 hands one
 * out, so its no-length sequence is not compared. */
static int ccm_encrypt(int hw, int declare, const uint8_t *key, const uint8_t *nonce, const uint8_t *aad, size_t aadlen,
                       const uint8_t *pt, size_t len, uint8_t *out, uint8_t *tag, int *aad_ok) {
    EVP_CIPHER *c = fetch("AES-128-CCM", hw);
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int l = 0, ok = c && x && EVP_EncryptInit_ex2(x, c, key, nonce, NULL);
    ok = ok && (!declare || EVP_EncryptUpdate(x, NULL, &l, NULL, (int)len));
    if (aadlen) {
        *aad_ok = ok && EVP_EncryptUpdate(x, NULL, &l, aad, (int)aadlen);
        ERR_clear_error();
    }
    ok = ok && EVP_EncryptUpdate(x, out, &l, pt, (int)len) && (size_t)l == len;
    ok = ok && EVP_EncryptFinal_ex(x, out + len, &l) && l == 0;
    ok = ok && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 12, tag) > 0;
    ERR_clear_error();
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(c);
    return ok;
}

static void test_ccm_no_length(void) {
    uint8_t key[16], nonce[12], aad[8], pt[40], out[3][48], tag[3][16];
    fill(key, sizeof key, 101);
    fill(nonce, sizeof nonce, 102);
    fill(aad, sizeof aad, 103);
    fill(pt, sizeof pt, 104);
    int aad_ok = -1, ok[3];
    /* [0] the reference: the default provider, length declared, no AAD;
     * [1] hwcrypt, length declared; [2] hwcrypt, no length: AAD, then data. */
    ok[0] = ccm_encrypt(0, 1, key, nonce, aad, 0, pt, sizeof pt, out[0], tag[0], &aad_ok);
    ok[1] = ccm_encrypt(1, 1, key, nonce, aad, 0, pt, sizeof pt, out[1], tag[1], &aad_ok);
    ok[2] = ccm_encrypt(1, 0, key, nonce, aad, sizeof aad, pt, sizeof pt, out[2], tag[2], &aad_ok);
    CHECK(ok[0], "CCM with a declared length: the default provider failed (the reference)");
    CHECK(aad_ok == 0, "CCM (hwcrypt): AAD accepted before the message length was declared");
    for (int i = 1; i < 3; i++)
        CHECK(ok[0] && ok[i] && memcmp(out[i], out[0], sizeof pt) == 0 && memcmp(tag[i], tag[0], 12) == 0,
              "CCM (hwcrypt) %s: %s", i == 1 ? "with a declared length" : "data without a declared length",
              ok[i] ? "ciphertext or tag differs from the default provider's" : "failed");

    /* No data update: init and final alone, or a length of 40 declared and
     * no data: no tag.  An update of no bytes is the empty message, whose
     * tag hwcrypt hands out (the reference: the default provider's with
     * length 0 declared), so refusing every tag does not pass either. */
    uint8_t empty_tag[2][16];
    for (int form = 0; form < 4; form++) {
        int hw = form != 3;
        EVP_CIPHER *c = fetch("AES-128-CCM", hw);
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        int l = 0, fin = c && x && EVP_EncryptInit_ex2(x, c, key, nonce, NULL) &&
                         (form != 1 || EVP_EncryptUpdate(x, out[2], &l, pt, 0)) &&
                         (form != 2 || EVP_EncryptUpdate(x, NULL, &l, NULL, (int)sizeof pt)) &&
                         (form != 3 ||
                          (EVP_EncryptUpdate(x, NULL, &l, NULL, 0) && EVP_EncryptUpdate(x, out[2], &l, pt, 0)));
        fin = fin && EVP_EncryptFinal_ex(x, out[2], &l);
        uint8_t *t = form == 3 ? empty_tag[0] : form == 1 ? empty_tag[1] : tag[2];
        int got = x && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 12, t) > 0;
        if (form == 0 || form == 2)
            CHECK(!got, "CCM (hwcrypt): a tag handed out for a message that was not processed (%s, final %s)",
                  form == 0 ? "init, final" : "length 40 declared, no data", fin ? "succeeded" : "failed");
        else if (form == 1)
            CHECK(fin && got, "CCM (hwcrypt): no tag for the empty message (an update of no bytes; final %d)", fin);
        else
            CHECK(fin && got && memcmp(empty_tag[0], empty_tag[1], 12) == 0,
                  "CCM: the empty message's tag (length 0 declared): default %d/%d, or it differs from hwcrypt's", fin,
                  got);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_free(c);
    }
}

/* ------------------------------------------- after final, keylen param */

static void test_after_final(void) {
    static const char *names[] = {"AES-128-CBC", "AES-128-ECB", "AES-128-CTR", "SM4-CBC", "AES-128-OFB"};
    for (size_t i = 0; i < 5; i++)
        for (int enc = 0; enc < 2; enc++) {
            uint8_t key[16], iv[16], in[64], out[2][128];
            fill(key, sizeof key, 111);
            fill(iv, sizeof iv, 112);
            fill(in, sizeof in, 113);
            int ok[2], block = strstr(names[i], "CBC") || strstr(names[i], "ECB");
            size_t n[2] = {0, 0};
            for (int hw = 0; hw < 2; hw++) {
                EVP_CIPHER *c = fetch(names[i], hw);
                EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
                int l = 0;
                ok[hw] = c && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL);
                EVP_CIPHER_CTX_set_padding(x, 0);
                /* update, final, update, final */
                for (int r = 0; r < 2 && ok[hw]; r++) {
                    size_t len = block ? 32 : 21 + (size_t)r;
                    ok[hw] = EVP_CipherUpdate(x, out[hw] + n[hw], &l, in + 32 * r, (int)len);
                    n[hw] += (size_t)l;
                    ok[hw] = ok[hw] && EVP_CipherFinal_ex(x, out[hw] + n[hw], &l);
                    n[hw] += (size_t)l;
                }
                EVP_CIPHER_CTX_free(x);
                EVP_CIPHER_free(c);
            }
            CHECK(ok[0] && ok[1] && n[0] == n[1] && memcmp(out[0], out[1], n[0]) == 0,
                  "%s %s: update after final: hwcrypt %d, default %d", names[i], enc ? "enc" : "dec", ok[1], ok[0]);
            ERR_clear_error();
        }
}

static void test_keylen_param(void) {
    size_t seven = 7;
    OSSL_PARAM pp[] = {OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &seven), OSSL_PARAM_construct_end()};
    int set[2], keyed[2];
    uint8_t key[16] = {0}, iv[16] = {0};
    unsigned long err = 0;
    for (int hw = 0; hw < 2; hw++) {
        EVP_CIPHER *c = fetch("AES-128-CBC", hw);
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        set[hw] = c && EVP_EncryptInit_ex2(x, c, NULL, NULL, NULL) && EVP_CIPHER_CTX_set_params(x, pp);
        if (hw)
            err = first_error();
        keyed[hw] = set[hw] && EVP_EncryptInit_ex2(x, NULL, key, iv, NULL);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_free(c);
    }
    /* The documented difference (README): hwcrypt refuses a key length its
     * cipher does not have where it is set; the default provider takes the
     * parameter (and keys with the cipher's own length after it). */
    CHECK(!set[1] && err == ((unsigned long)ERR_LIB_PROV << 24 | PROV_R_INVALID_KEY_LENGTH) && set[0] && keyed[0],
          "keylen 7: hwcrypt set %d (error %#lx), default set %d keyed %d", set[1], err, set[0], keyed[0]);
}

/* ------------------------------------------------------- length wraps */

/* hwcrypt's dispatch table for the cipher `name`, NULL if none. */
static const OSSL_DISPATCH *hw_cipher_dispatch(const char *name) {
    int no_store = 0;
    const OSSL_ALGORITHM *a = OSSL_PROVIDER_query_operation(phw, OSSL_OP_CIPHER, &no_store);
    size_t n = strlen(name);
    for (; a && a->algorithm_names; a++)
        if (strncmp(a->algorithm_names, name, n) == 0 && (a->algorithm_names[n] == ':' || !a->algorithm_names[n]))
            return a->implementation;
    return NULL;
}

static void *dispatch_fn(const OSSL_DISPATCH *d, int id) {
    for (; d && d->function_id; d++)
        if (d->function_id == id)
            return (void *)d->function;
    return NULL;
}

/* One update through the dispatch table, with a length no EVP call can
 * pass: over PTRDIFF_MAX, on a 16-byte input and a 48-byte output.  It
 * must fail, not read or write past them (use_bits: CFB1 lengths in bits;
 * out: 0 another buffer, 1 NULL (a length query), 2 in place;
 * OUT_AFTER_DATA: after a 16-byte update, so that the message is under
 * way: cipher_update's short path). */
enum { OUT_OTHER, OUT_NULL, OUT_IN_PLACE, OUT_AFTER_DATA = 4 };
static int huge_update(const char *name, size_t inl, int use_bits, int out_kind) {
    const OSSL_DISPATCH *d = hw_cipher_dispatch(name);
    OSSL_FUNC_cipher_newctx_fn *newctx = dispatch_fn(d, OSSL_FUNC_CIPHER_NEWCTX);
    OSSL_FUNC_cipher_encrypt_init_fn *einit = dispatch_fn(d, OSSL_FUNC_CIPHER_ENCRYPT_INIT);
    OSSL_FUNC_cipher_update_fn *update = dispatch_fn(d, OSSL_FUNC_CIPHER_UPDATE);
    OSSL_FUNC_cipher_freectx_fn *freectx = dispatch_fn(d, OSSL_FUNC_CIPHER_FREECTX);
    CHECK(newctx && einit && update && freectx, "%s: dispatch table", name);
    if (!(newctx && einit && update && freectx))
        return -1;
    uint8_t key[32], iv[16], in[16], out[48];
    fill(key, sizeof key, 9);
    fill(iv, sizeof iv, 10);
    fill(in, sizeof in, 11);
    unsigned bits = 1;
    OSSL_PARAM pp[] = {OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_USE_BITS, &bits), OSSL_PARAM_construct_end()};
    void *x = newctx(OSSL_PROVIDER_get0_provider_ctx(phw));
    size_t klen = strstr(name, "256") ? 32 : 16, ivlen = strstr(name, "OCB") ? 12 : 16, outl = 12345;
    if (strstr(name, "WRAP"))
        ivlen = 0;
    int ok = x && einit(x, key, klen, ivlen ? iv : NULL, ivlen, use_bits ? pp : NULL);
    CHECK(ok, "%s: init", name);
    if (ok && (out_kind & OUT_AFTER_DATA))
        CHECK(update(x, out, &outl, sizeof out, in, sizeof in) == 1, "%s: a first update of 16 bytes", name);
    out_kind &= ~OUT_AFTER_DATA;
    uint8_t *dst = out_kind == OUT_NULL ? NULL : out_kind == OUT_IN_PLACE ? in : out;
    int rc = ok ? update(x, dst, &outl, sizeof out, in, inl) : -1;
    ERR_clear_error();
    if (x)
        freectx(x);
    return rc;
}

static void test_length_wrap(void) {
    /* EVP_CIPHER_CTX_ctrl passes its int as a size_t: -2 became SIZE_MAX - 1,
     * which `ivlen < len + 8` let through to a memcpy of that many bytes. */
    static const int lens[] = {-2, -3, -4, -8, -9, -12, 13, 9};
    uint8_t key[32], fixed[16];
    fill(key, sizeof key, 7);
    fill(fixed, sizeof fixed, 8);
    for (int enc = 0; enc < 2; enc++)
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            EVP_CIPHER *c = fetch("AES-128-GCM", 1);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            int init = c && EVP_CipherInit_ex2(x, c, key, NULL, enc, NULL);
            int rc = init ? EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, lens[i], fixed) : -1;
            ERR_clear_error();
            /* The context still takes a valid fixed field afterwards. */
            int again = init ? EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed) : 0;
            CHECK(init && rc <= 0 && again == 1, "GCM %s: fixed IV length %d: init %d, ctrl %d, then 4: %d",
                  enc ? "enc" : "dec", lens[i], init, rc, again);
            ERR_clear_error();
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_free(c);
        }
    /* Sums with the update length: (inl + 7) / 8 (CFB1 in bits: it let the
     * output check pass, and in place the library ran 2^61 bytes), the wrap
     * output length of a query, held + inl (OCB), inl + 16 (CBC). */
    CHECK(huge_update("AES-128-CFB1", SIZE_MAX, 1, OUT_IN_PLACE) == 0, "CFB1 in place, SIZE_MAX bits: not refused");
    CHECK(huge_update("AES-128-CFB1", SIZE_MAX - 6, 1, OUT_OTHER) == 0, "CFB1, SIZE_MAX - 6 bits: not refused");
    CHECK(huge_update("AES-128-WRAP", SIZE_MAX - 3, 0, OUT_NULL) == 0,
          "KW length query for SIZE_MAX - 3 bytes: not refused");
    CHECK(huge_update("AES-128-WRAP-PAD", SIZE_MAX - 3, 0, OUT_OTHER) == 0, "KWP, SIZE_MAX - 3 bytes: not refused");
    CHECK(huge_update("AES-128-OCB", SIZE_MAX - 3, 0, OUT_IN_PLACE) == 0, "OCB, SIZE_MAX - 3 bytes: not refused");
    CHECK(huge_update("AES-256-CBC", SIZE_MAX - 7, 0, OUT_OTHER) == 0, "CBC, SIZE_MAX - 7 bytes: not refused");
    CHECK(huge_update("AES-128-CTR", (size_t)PTRDIFF_MAX + 1, 0, OUT_IN_PLACE) == 0,
          "CTR, PTRDIFF_MAX + 1 bytes: not refused");
    /* The short path of a message under way (its own sums: outsize >=
     * inl + 15, i + inl): the library refuses the length there. */
    CHECK(huge_update("AES-256-CBC", SIZE_MAX - 7, 0, OUT_OTHER | OUT_AFTER_DATA) == 0,
          "CBC under way, SIZE_MAX - 7 bytes: not refused");
    CHECK(huge_update("AES-128-CTR", SIZE_MAX, 0, OUT_IN_PLACE | OUT_AFTER_DATA) == 0,
          "CTR under way, in place, SIZE_MAX bytes: not refused");
    /* An honest length still works. */
    CHECK(huge_update("AES-128-CFB1", 100, 1, OUT_OTHER) == 1, "CFB1, 100 bits: refused");
}

/* -------------------------------------------------------------- main */


/* ---------------------------------------------------------- param lists */

static void test_param_lists(void) {
    static const char *names[] = {"AES-128-GCM", "AES-128-OCB", "AES-128-CCM"};
    for (size_t i = 0; i < 3; i++) {
        size_t got[2][6];
        int mod[2][6], ok[2];
        uint8_t ct[2][48], tag[2][16];
        for (int hw = 0; hw < 2; hw++) {
            EVP_CIPHER *c = fetch(names[i], hw);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            uint8_t key[16], iv[13], msg[48];
            fill(key, sizeof key, 121);
            fill(iv, sizeof iv, 122);
            fill(msg, sizeof msg, 123);
            /* Set: an unknown key and a near miss first, then ivlen twice
             * (13 counts) and the tag length (12; GCM, whose encryption
             * takes no tag length, gets the near miss "tagx") in one list. */
            const char *tag_key = strstr(names[i], "GCM") ? "tagx" : OSSL_CIPHER_PARAM_AEAD_TAG;
            size_t ivlen = 13, ivlen_again = 7, junk = 99;
            OSSL_PARAM set[] = {OSSL_PARAM_construct_size_t("ivlenx", &junk),
                                OSSL_PARAM_construct_size_t("i", &junk),
                                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen),
                                OSSL_PARAM_construct_octet_string(tag_key, NULL, 12),
                                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen_again),
                                OSSL_PARAM_construct_end()};
            ok[hw] = c && x && EVP_EncryptInit_ex2(x, c, NULL, NULL, NULL) && EVP_CIPHER_CTX_set_params(x, set);
            /* Get: near misses first (a prefix match would take them),
             * then keylen, ivlen, taglen and ivlen again. */
            size_t v[6] = {0, 0, 0, 0, 0, 0};
            OSSL_PARAM get[] = {OSSL_PARAM_construct_size_t("keylen2", &v[0]),
                                OSSL_PARAM_construct_size_t("tagl", &v[1]),
                                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_KEYLEN, &v[2]),
                                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &v[3]),
                                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_TAGLEN, &v[4]),
                                OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_IVLEN, &v[5]),
                                OSSL_PARAM_construct_end()};
            ok[hw] = ok[hw] && EVP_CIPHER_CTX_get_params(x, get);
            for (int k = 0; k < 6; k++) {
                got[hw][k] = v[k];
                mod[hw][k] = OSSL_PARAM_modified(&get[k]);
            }
            /* A message under those settings: ciphertext and tag compared. */
            int l = 0, f = 0;
            if (strstr(names[i], "CCM"))
                ok[hw] = ok[hw] && EVP_EncryptInit_ex2(x, NULL, key, iv, NULL) &&
                         EVP_EncryptUpdate(x, NULL, &l, NULL, (int)sizeof msg);
            else
                ok[hw] = ok[hw] && EVP_EncryptInit_ex2(x, NULL, key, iv, NULL);
            ok[hw] = ok[hw] && EVP_EncryptUpdate(x, ct[hw], &l, msg, (int)sizeof msg) &&
                     EVP_EncryptFinal_ex(x, ct[hw] + l, &f) && l + f == (int)sizeof msg &&
                     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 12, tag[hw]);
            ERR_clear_error();
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_free(c);
        }
        CHECK(ok[0] && ok[1], "%s: parameter lists: hwcrypt %d, default %d", names[i], ok[1], ok[0]);
        if (!ok[0] || !ok[1])
            continue;
        /* Found: keylen 16, ivlen 13 (the first of the repeated set); the
         * repeated get fills its first only; the near misses stay untouched. */
        CHECK(got[1][2] == 16 && got[1][3] == 13 && mod[1][2] && mod[1][3] && !mod[1][0] && !mod[1][1] &&
                  !mod[1][5] && got[1][0] == 0 && got[1][1] == 0 && got[1][5] == 0,
              "%s: hwcrypt's get: keylen %zu ivlen %zu, untouched keylen2 %d tagl %d ivlen(2nd) %d", names[i],
              got[1][2], got[1][3], !mod[1][0], !mod[1][1], !mod[1][5]);
        for (int k = 0; k < 6; k++)
            CHECK(got[0][k] == got[1][k] && mod[0][k] == mod[1][k],
                  "%s: get parameter %d: hwcrypt %zu (modified %d), default %zu (modified %d)", names[i], k,
                  got[1][k], mod[1][k], got[0][k], mod[0][k]);
        CHECK(memcmp(ct[0], ct[1], sizeof ct[0]) == 0 && memcmp(tag[0], tag[1], 12) == 0,
              "%s: the message under those settings differs from the default provider's", names[i]);
    }
}

static const struct {
    const char *name;
    void (*run)(void);
} tests[] = {{"updated_iv", test_updated_iv},     {"inplace_pieces", test_inplace_pieces},
             {"ccm_tag_late", test_ccm_tag_late}, {"errors", test_errors},
             {"fallback", test_fallback},         {"copy", test_copy},
             {"gcm_tag_len", test_gcm_tag_len},   {"ccm_no_length", test_ccm_no_length},
             {"after_final", test_after_final},   {"keylen_param", test_keylen_param},
             {"length_wrap", test_length_wrap},   {"param_lists", test_param_lists}};

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s <provider dir> <test>\n", argv[0]);
        return 2;
    }
    libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(libctx, argv[1]);
    OSSL_PROVIDER *pdef = OSSL_PROVIDER_load(libctx, "default");
    phw = OSSL_PROVIDER_load(libctx, "hwcrypt");
    if (!pdef || !phw) {
        ERR_print_errors_fp(stdout);
        printf("FAIL: cannot load the providers\n");
        return 1;
    }
    int found = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (strcmp(argv[2], tests[i].name) == 0 || strcmp(argv[2], "all") == 0) {
            unsigned long before = failures;
            tests[i].run();
            printf("%-16s %s\n", tests[i].name, failures == before ? "ok" : "FAILED");
            found = 1;
        }
    if (!found) {
        fprintf(stderr, "no test %s\n", argv[2]);
        return 2;
    }
    OSSL_PROVIDER_unload(phw);
    OSSL_PROVIDER_unload(pdef);
    OSSL_LIB_CTX_free(libctx);
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures || !checks ? 1 : 0;
}
