/*
 * Drives hwcrypt's provider through EVP and compares it with OpenSSL's
 * default provider, both loaded in one OSSL_LIB_CTX and picked with
 * "provider=hwcrypt" / "provider=default", on random keys, IVs, lengths and
 * streaming splits.  Algorithms the default provider lacks here (SM4-GCM,
 * SM4-CCM, SM4-XTS, AES-GCM-SIV on OpenSSL 3.0) are compared with
 * libhwcrypt called directly, and say so.  Also: algorithm parameters
 * against the default provider's, tag failures (must fail; where the API
 * allows, nothing is released), GCM's TLS 1.2 record parameters across the
 * two providers, CMAC and GMAC.
 *
 * usage: prov_evp <dir with hwcrypt.so> [iterations]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "hwcrypt/hwcrypt.h"
#include "prov_check.h"

static OSSL_LIB_CTX *libctx;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static size_t rnd_below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }
static void rnd_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

enum kind { K_PAD, K_STREAM, K_CFB1, K_XTS, K_GCM, K_CCM, K_OCB, K_SIV, K_GCMSIV, K_WRAP };

typedef struct alg {
    const char *name; /* OpenSSL's name */
    const char *hwc;  /* hwcrypt's */
    enum kind kind;
} alg;

static const alg algs[] = {
    {"AES-128-ECB", "aes-128-ecb", K_PAD},         {"AES-192-ECB", "aes-192-ecb", K_PAD},
    {"AES-256-ECB", "aes-256-ecb", K_PAD},         {"AES-128-CBC", "aes-128-cbc", K_PAD},
    {"AES-192-CBC", "aes-192-cbc", K_PAD},         {"AES-256-CBC", "aes-256-cbc", K_PAD},
    {"AES-128-CFB", "aes-128-cfb", K_STREAM},      {"AES-192-CFB", "aes-192-cfb", K_STREAM},
    {"AES-256-CFB", "aes-256-cfb", K_STREAM},      {"AES-128-CFB8", "aes-128-cfb8", K_STREAM},
    {"AES-192-CFB8", "aes-192-cfb8", K_STREAM},    {"AES-256-CFB8", "aes-256-cfb8", K_STREAM},
    {"AES-128-CFB1", "aes-128-cfb1", K_CFB1},      {"AES-192-CFB1", "aes-192-cfb1", K_CFB1},
    {"AES-256-CFB1", "aes-256-cfb1", K_CFB1},      {"AES-128-OFB", "aes-128-ofb", K_STREAM},
    {"AES-192-OFB", "aes-192-ofb", K_STREAM},      {"AES-256-OFB", "aes-256-ofb", K_STREAM},
    {"AES-128-CTR", "aes-128-ctr", K_STREAM},      {"AES-192-CTR", "aes-192-ctr", K_STREAM},
    {"AES-256-CTR", "aes-256-ctr", K_STREAM},      {"AES-128-XTS", "aes-128-xts", K_XTS},
    {"AES-256-XTS", "aes-256-xts", K_XTS},         {"AES-128-GCM", "aes-128-gcm", K_GCM},
    {"AES-192-GCM", "aes-192-gcm", K_GCM},         {"AES-256-GCM", "aes-256-gcm", K_GCM},
    {"id-aes128-GCM", "aes-128-gcm", K_GCM},       {"AES-128-CCM", "aes-128-ccm", K_CCM},
    {"AES-192-CCM", "aes-192-ccm", K_CCM},         {"AES-256-CCM", "aes-256-ccm", K_CCM},
    {"AES-128-OCB", "aes-128-ocb", K_OCB},         {"AES-192-OCB", "aes-192-ocb", K_OCB},
    {"AES-256-OCB", "aes-256-ocb", K_OCB},         {"AES-128-SIV", "aes-128-siv", K_SIV},
    {"AES-192-SIV", "aes-192-siv", K_SIV},         {"AES-256-SIV", "aes-256-siv", K_SIV},
    {"AES-128-GCM-SIV", "aes-128-gcm-siv", K_GCMSIV}, {"AES-256-GCM-SIV", "aes-256-gcm-siv", K_GCMSIV},
    {"AES-128-WRAP", "aes-128-wrap", K_WRAP},      {"AES-192-WRAP", "aes-192-wrap", K_WRAP},
    {"AES-256-WRAP", "aes-256-wrap", K_WRAP},      {"AES-128-WRAP-PAD", "aes-128-wrap-pad", K_WRAP},
    {"AES-192-WRAP-PAD", "aes-192-wrap-pad", K_WRAP}, {"AES-256-WRAP-PAD", "aes-256-wrap-pad", K_WRAP},
    {"AES-128-WRAP-INV", "aes-128-wrap-inv", K_WRAP}, {"AES-256-WRAP-INV", "aes-256-wrap-inv", K_WRAP},
    {"AES-128-WRAP-PAD-INV", "aes-128-wrap-pad-inv", K_WRAP}, {"AES-256-WRAP-PAD-INV", "aes-256-wrap-pad-inv", K_WRAP},
    {"id-aes128-wrap", "aes-128-wrap", K_WRAP},
    {"SM4-ECB", "sm4-ecb", K_PAD},                 {"SM4-CBC", "sm4-cbc", K_PAD},
    {"SM4-CFB", "sm4-cfb", K_STREAM},              {"SM4-OFB", "sm4-ofb", K_STREAM},
    {"SM4-CTR", "sm4-ctr", K_STREAM},              {"SM4-GCM", "sm4-gcm", K_GCM},
    {"SM4-CCM", "sm4-ccm", K_CCM},                 {"SM4-XTS", "sm4-xts", K_XTS},
};

#define MAXLEN 5000
static const size_t lengths[] = {0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 255, 256, 1000, 4103};

/* --------------------------------------------------------- helpers */

/* Up to 3 cut points in [0, len], sorted: the pieces of a streaming run. */
static size_t make_splits(size_t len, size_t *cuts) {
    size_t n = rnd_below(4);
    for (size_t i = 0; i < n; i++)
        cuts[i] = rnd_below(len + 1);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (cuts[j] < cuts[i]) {
                size_t t = cuts[i];
                cuts[i] = cuts[j];
                cuts[j] = t;
            }
    return n;
}

static void random_key(uint8_t *key, size_t key_len, enum kind k) {
    rnd_fill(key, key_len);
    if (k == K_XTS) /* equal halves are refused */
        key[key_len / 2] ^= key[0] == key[key_len / 2] ? 1 : 0;
}

/* ------------------------------------------------- plain (non-AEAD) */

/* Runs a whole message through EVP in pieces; returns 1 on success. */
static int evp_run(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv, int pad, const uint8_t *in,
                   size_t len, const size_t *cuts, size_t ncuts, uint8_t *out, size_t *out_len) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int ok = ctx && EVP_CipherInit_ex2(ctx, c, key, iv, enc, NULL) && EVP_CIPHER_CTX_set_padding(ctx, pad);
    size_t pos = 0, total = 0;
    for (size_t i = 0; ok && i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : len;
        int l = 0;
        if (end > pos)
            ok = EVP_CipherUpdate(ctx, out + total, &l, in + pos, (int)(end - pos));
        total += (size_t)l;
        pos = end;
    }
    int l = 0;
    if (ok)
        ok = EVP_CipherFinal_ex(ctx, out + total, &l);
    total += (size_t)l;
    *out_len = total;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/* hwcrypt called directly: the reference when the default provider lacks the cipher. */
static int lib_run(const char *hname, int enc, const uint8_t *key, size_t key_len, const uint8_t *iv, size_t iv_len,
                   const uint8_t *in, size_t len, uint8_t *out, size_t *out_len) {
    hwc_ctx *ctx = hwc_ctx_new();
    size_t n = 0, m = 0;
    int rc = hwc_init(ctx, hwc_cipher_by_name(hname), enc, key, key_len, iv, iv_len);
    if (!rc)
        rc = hwc_update(ctx, out, &n, in, len);
    if (!rc)
        rc = hwc_final(ctx, out + n, &m);
    hwc_ctx_free(ctx);
    *out_len = n + m;
    return rc == 0;
}

static void test_plain(const alg *a, EVP_CIPHER *hw, EVP_CIPHER *ref, int iters) {
    static uint8_t pt[MAXLEN + 64], ct_hw[MAXLEN + 64], ct_ref[MAXLEN + 64], back[MAXLEN + 64];
    size_t key_len = (size_t)EVP_CIPHER_get_key_length(hw), iv_len = (size_t)EVP_CIPHER_get_iv_length(hw);
    uint8_t key[64], iv[16];
    for (int it = 0; it < iters; it++) {
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
            size_t len = lengths[li];
            int pad = a->kind == K_PAD ? (int)(rnd() & 1) : 1;
            if (a->kind == K_PAD && !pad)
                len -= len % 16;
            if (a->kind == K_XTS && len < 16)
                continue;
            random_key(key, key_len, a->kind);
            rnd_fill(iv, sizeof iv);
            rnd_fill(pt, len);
            size_t cuts[3], ncuts = a->kind == K_XTS ? 0 : make_splits(len, cuts);
            size_t n_hw = 0, n_ref = 0, n_back = 0;
            int ok_hw = evp_run(hw, 1, key, iv, pad, pt, len, cuts, ncuts, ct_hw, &n_hw);
            int ok_ref = ref ? evp_run(ref, 1, key, iv, pad, pt, len, cuts, ncuts, ct_ref, &n_ref)
                             : lib_run(a->hwc, HWC_ENCRYPT, key, key_len, iv, iv_len, pt, len, ct_ref, &n_ref);
            CHECK(ok_hw && ok_ref && n_hw == n_ref && memcmp(ct_hw, ct_ref, n_hw) == 0,
                  "%s encrypt len %zu pad %d splits %zu: hwcrypt %d/%zu, reference %d/%zu", a->name, len, pad, ncuts,
                  ok_hw, n_hw, ok_ref, n_ref);
            ncuts = a->kind == K_XTS ? 0 : make_splits(n_hw, cuts);
            int ok_back = evp_run(hw, 0, key, iv, pad, ct_hw, n_hw, cuts, ncuts, back, &n_back);
            CHECK(ok_back && n_back == len && memcmp(back, pt, len) == 0, "%s decrypt len %zu pad %d", a->name, len,
                  pad);
        }
    }
}

/* CFB1 in bit mode (use-bits): the provider and the default agree bit for bit. */
static void test_cfb1_bits(const alg *a, EVP_CIPHER *hw, EVP_CIPHER *ref) {
    if (!ref)
        return;
    uint8_t key[32], iv[16], in[64], o1[64], o2[64];
    rnd_fill(key, sizeof key);
    rnd_fill(iv, sizeof iv);
    rnd_fill(in, sizeof in);
    for (int nbits = 1; nbits <= 200; nbits += 13) {
        memset(o1, 0, sizeof o1);
        memset(o2, 0, sizeof o2);
        EVP_CIPHER *cs[2] = {hw, ref};
        uint8_t *outs[2] = {o1, o2};
        int oks[2];
        for (int i = 0; i < 2; i++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            int l = 0;
            oks[i] = EVP_EncryptInit_ex2(ctx, cs[i], key, iv, NULL);
            EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPH_FLAG_LENGTH_BITS);
            oks[i] = oks[i] && EVP_EncryptUpdate(ctx, outs[i], &l, in, nbits) && l == nbits;
            EVP_CIPHER_CTX_free(ctx);
        }
        /* Compare the nbits produced; bits past them are unspecified. */
        size_t full = (size_t)nbits / 8;
        int same = memcmp(o1, o2, full) == 0;
        if (nbits % 8) {
            uint8_t mask = (uint8_t)(0xFF << (8 - nbits % 8));
            same = same && ((o1[full] ^ o2[full]) & mask) == 0;
        }
        CHECK(oks[0] && oks[1] && same, "%s use-bits %d bits", a->name, nbits);
    }
}

/* ------------------------------------------------------------- AEAD */

typedef struct aead_msg {
    size_t ivlen, taglen;
    const uint8_t *key, *iv;
    const uint8_t *aad;
    size_t aad_len;
    size_t aad_cut; /* AAD in two pieces at this point (SIV: two components) */
    const uint8_t *in;
    size_t len;
    size_t cuts[3], ncuts;
} aead_msg;

static int ctrl_ok(EVP_CIPHER_CTX *ctx, int type, int arg, void *ptr) { return EVP_CIPHER_CTX_ctrl(ctx, type, arg, ptr) > 0; }

/* One AEAD message through EVP the way applications drive each mode. */
static int aead_evp(const EVP_CIPHER *c, enum kind k, int enc, const aead_msg *m, uint8_t *out, size_t *out_len,
                    uint8_t *tag) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int l = 0, ok = ctx && EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL);
    if (ok && (k == K_GCM || k == K_CCM || k == K_OCB))
        ok = ctrl_ok(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)m->ivlen, NULL);
    if (ok && enc && (k == K_CCM || k == K_OCB))
        ok = ctrl_ok(ctx, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, NULL);
    if (ok && !enc)
        ok = ctrl_ok(ctx, EVP_CTRL_AEAD_SET_TAG, (int)m->taglen, tag);
    ok = ok && EVP_CipherInit_ex2(ctx, NULL, m->key, k == K_SIV ? NULL : m->iv, enc, NULL);
    if (ok && k == K_CCM)
        ok = EVP_CipherUpdate(ctx, NULL, &l, NULL, (int)m->len);
    if (ok && m->aad_len) {
        int two = k == K_GCM || k == K_OCB || k == K_SIV;
        size_t cut = two ? m->aad_cut : m->aad_len;
        if (cut)
            ok = EVP_CipherUpdate(ctx, NULL, &l, m->aad, (int)cut);
        if (ok && cut < m->aad_len)
            ok = EVP_CipherUpdate(ctx, NULL, &l, m->aad + cut, (int)(m->aad_len - cut));
    }
    size_t total = 0, pos = 0;
    int pieces = k == K_GCM || k == K_OCB;
    size_t ncuts = pieces ? m->ncuts : 0;
    for (size_t i = 0; ok && i <= ncuts; i++) {
        size_t end = i < ncuts ? m->cuts[i] : m->len;
        if (end > pos || (i == ncuts && k == K_CCM)) {
            ok = EVP_CipherUpdate(ctx, out + total, &l, m->in + pos, (int)(end - pos));
            total += (size_t)l;
        }
        pos = end;
    }
    if (ok && (k == K_SIV || k == K_GCMSIV) && m->len == 0)
        ok = EVP_CipherUpdate(ctx, out, &l, m->in, 0);
    if (ok) {
        ok = EVP_CipherFinal_ex(ctx, out + total, &l);
        total += (size_t)l;
    }
    if (ok && enc)
        ok = ctrl_ok(ctx, EVP_CTRL_AEAD_GET_TAG, (int)m->taglen, tag);
    *out_len = total;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static int aead_lib(const char *hname, int enc, const aead_msg *m, size_t key_len, uint8_t *out, uint8_t *tag) {
    hwc_ctx *ctx = hwc_ctx_new();
    int rc = hwc_init(ctx, hwc_cipher_by_name(hname), enc, m->key, key_len, NULL, 0);
    if (!rc)
        rc = enc ? hwc_aead_seal(ctx, m->iv, m->ivlen, m->aad, m->aad_len, m->in, m->len, out, tag, m->taglen)
                 : hwc_aead_open(ctx, m->iv, m->ivlen, m->aad, m->aad_len, m->in, m->len, out, tag, m->taglen);
    hwc_ctx_free(ctx);
    return rc == 0;
}

static int all_zero(const uint8_t *p, size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void test_aead(const alg *a, EVP_CIPHER *hw, EVP_CIPHER *ref, int iters) {
    static uint8_t pt[MAXLEN], ct_hw[MAXLEN + 32], ct_ref[MAXLEN + 32], back[MAXLEN + 32], aad[300];
    uint8_t key[64], iv[64], tag_hw[16], tag_ref[16];
    enum kind k = a->kind;
    size_t key_len = (size_t)EVP_CIPHER_get_key_length(hw);
    for (int it = 0; it < iters; it++) {
        for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
            aead_msg m = {0};
            m.len = lengths[li];
            if (k == K_GCM) {
                static const size_t ivs[] = {12, 12, 8, 16, 60};
                static const size_t tags[] = {16, 16, 12, 8, 4};
                m.ivlen = ivs[rnd_below(5)];
                m.taglen = tags[rnd_below(5)];
            } else if (k == K_CCM) {
                m.ivlen = 7 + rnd_below(7);
                m.taglen = 4 + 2 * rnd_below(7);
            } else if (k == K_OCB) {
                m.ivlen = 1 + rnd_below(15);
                m.taglen = 1 + rnd_below(16);
            } else {
                m.ivlen = k == K_GCMSIV ? 12 : 0;
                m.taglen = 16;
            }
            random_key(key, key_len, k);
            rnd_fill(iv, sizeof iv);
            rnd_fill(pt, m.len);
            m.aad_len = rnd_below(4) ? rnd_below(sizeof aad) : 0;
            rnd_fill(aad, m.aad_len);
            m.aad_cut = rnd_below(m.aad_len + 1);
            if (k == K_SIV && m.aad_cut == 0)
                m.aad_cut = m.aad_len; /* an empty SIV component means something else */
            m.key = key;
            m.iv = iv;
            m.aad = aad;
            m.in = pt;
            m.ncuts = make_splits(m.len, m.cuts);

            size_t n_hw = 0, n_ref = 0;
            int ok_hw = aead_evp(hw, k, 1, &m, ct_hw, &n_hw, tag_hw);
            int ok_ref;
            /* OpenSSL 3.0's SIV cannot seal an empty message through EVP
             * (EVP skips the zero-length update): libhwcrypt is the reference. */
            if (ref && !(k == K_SIV && m.len == 0)) {
                ok_ref = aead_evp(ref, k, 1, &m, ct_ref, &n_ref, tag_ref);
            } else {
                if (k == K_SIV)
                    m.aad_cut = m.aad_len; /* libhwcrypt's one-shot: one component */
                ok_ref = aead_lib(a->hwc, HWC_ENCRYPT, &m, key_len, ct_ref, tag_ref);
                n_ref = m.len;
                if (k == K_SIV)
                    ok_hw = aead_evp(hw, k, 1, &m, ct_hw, &n_hw, tag_hw);
            }
            CHECK(ok_hw && ok_ref && n_hw == m.len && n_ref == m.len && memcmp(ct_hw, ct_ref, m.len) == 0 &&
                      memcmp(tag_hw, tag_ref, m.taglen) == 0,
                  "%s seal len %zu iv %zu tag %zu aad %zu/%zu splits %zu: hwcrypt %d/%zu, reference %d/%zu", a->name,
                  m.len, m.ivlen, m.taglen, m.aad_len, m.aad_cut, m.ncuts, ok_hw, n_hw, ok_ref, n_ref);

            /* Open what hwcrypt sealed, in other pieces. */
            aead_msg d = m;
            d.in = ct_hw;
            d.ncuts = make_splits(m.len, d.cuts);
            size_t n_back = 0;
            int ok_back = aead_evp(hw, k, 0, &d, back, &n_back, tag_hw);
            CHECK(ok_back && n_back == m.len && memcmp(back, pt, m.len) == 0, "%s open len %zu", a->name, m.len);

            /* A wrong tag must fail; modes that check before releasing
             * (CCM, SIV, GCM-SIV) leave nothing readable. */
            tag_hw[rnd_below(m.taglen)] ^= (uint8_t)(1u << rnd_below(8));
            memset(back, 0xAA, m.len + 16);
            int ok_bad = aead_evp(hw, k, 0, &d, back, &n_back, tag_hw);
            CHECK(!ok_bad, "%s open with a wrong tag succeeded (len %zu)", a->name, m.len);
            if (k == K_CCM || k == K_SIV || k == K_GCMSIV)
                CHECK(m.len == 0 || all_zero(back, m.len) || (back[0] == 0xAA && back[m.len - 1] == 0xAA),
                      "%s wrong tag: plaintext released", a->name);
            ERR_clear_error();
        }
    }
}

/* ------------------------------------------------------------- wrap */

static int wrap_evp(const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *in, size_t len, uint8_t *out,
                    size_t *out_len) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int l = 0, f = 0;
    EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    int ok = EVP_CipherInit_ex2(ctx, c, key, NULL, enc, NULL) && EVP_CipherUpdate(ctx, out, &l, in, (int)len) &&
             EVP_CipherFinal_ex(ctx, out + l, &f);
    *out_len = (size_t)(l + f);
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void test_wrap(const alg *a, EVP_CIPHER *hw, EVP_CIPHER *ref, int iters) {
    uint8_t key[32], in[600], o1[700], o2[700], back[700];
    size_t key_len = (size_t)EVP_CIPHER_get_key_length(hw);
    int pad = strstr(a->name, "PAD") != NULL;
    for (int it = 0; it < iters * 4; it++) {
        size_t len = pad ? 1 + rnd_below(300) : 16 + 8 * rnd_below(60);
        rnd_fill(key, key_len);
        rnd_fill(in, len);
        size_t n1 = 0, n2 = 0, nb = 0;
        int ok1 = wrap_evp(hw, 1, key, in, len, o1, &n1);
        int ok2 = ref ? wrap_evp(ref, 1, key, in, len, o2, &n2) : 0;
        CHECK(ok1 && ok2 && n1 == n2 && memcmp(o1, o2, n1) == 0, "%s wrap %zu bytes: %d/%zu vs %d/%zu", a->name, len,
              ok1, n1, ok2, n2);
        int okb = wrap_evp(hw, 0, key, o1, n1, back, &nb);
        CHECK(okb && nb == len && memcmp(back, in, len) == 0, "%s unwrap %zu bytes", a->name, len);
        o1[rnd_below(n1)] ^= 0x10;
        memset(back, 0xAA, sizeof back);
        okb = wrap_evp(hw, 0, key, o1, n1, back, &nb);
        CHECK(!okb, "%s unwrap of a corrupted blob succeeded", a->name);
        ERR_clear_error();
    }
}

/* ------------------------------------------------ algorithm params */

static void test_alg_params(const alg *a, EVP_CIPHER *hw, EVP_CIPHER *ref) {
    if (!ref)
        return;
    CHECK(EVP_CIPHER_get_mode(hw) == EVP_CIPHER_get_mode(ref), "%s mode", a->name);
    CHECK(EVP_CIPHER_get_key_length(hw) == EVP_CIPHER_get_key_length(ref), "%s key length", a->name);
    CHECK(EVP_CIPHER_get_iv_length(hw) == EVP_CIPHER_get_iv_length(ref), "%s iv length %d vs %d", a->name,
          EVP_CIPHER_get_iv_length(hw), EVP_CIPHER_get_iv_length(ref));
    CHECK(EVP_CIPHER_get_block_size(hw) == EVP_CIPHER_get_block_size(ref), "%s block size", a->name);
    unsigned long mask = EVP_CIPH_FLAG_AEAD_CIPHER | EVP_CIPH_CUSTOM_IV | EVP_CIPH_FLAG_CTS |
                         EVP_CIPH_FLAG_TLS1_1_MULTIBLOCK | EVP_CIPH_RAND_KEY;
    CHECK((EVP_CIPHER_get_flags(hw) & mask) == (EVP_CIPHER_get_flags(ref) & mask), "%s flags %lx vs %lx", a->name,
          EVP_CIPHER_get_flags(hw) & mask, EVP_CIPHER_get_flags(ref) & mask);
    /* Context defaults (CCM: IV 7 and tag 12, as OpenSSL). */
    EVP_CIPHER_CTX *c1 = EVP_CIPHER_CTX_new(), *c2 = EVP_CIPHER_CTX_new();
    EVP_EncryptInit_ex2(c1, hw, NULL, NULL, NULL);
    EVP_EncryptInit_ex2(c2, ref, NULL, NULL, NULL);
    CHECK(EVP_CIPHER_CTX_get_iv_length(c1) == EVP_CIPHER_CTX_get_iv_length(c2), "%s context IV length %d vs %d",
          a->name, EVP_CIPHER_CTX_get_iv_length(c1), EVP_CIPHER_CTX_get_iv_length(c2));
    if (EVP_CIPHER_get_flags(ref) & EVP_CIPH_FLAG_AEAD_CIPHER)
        CHECK(EVP_CIPHER_CTX_get_tag_length(c1) == EVP_CIPHER_CTX_get_tag_length(c2), "%s context tag length %d vs %d",
              a->name, EVP_CIPHER_CTX_get_tag_length(c1), EVP_CIPHER_CTX_get_tag_length(c2));
    EVP_CIPHER_CTX_free(c1);
    EVP_CIPHER_CTX_free(c2);
}

/* ------------------------------------------------ GCM TLS 1.2 records */

/* Seals a record the way libssl does (tlsivfixed once, then tlsaad and an
 * in-place update per record); opens it with the other provider. */
static void test_tls12(const char *name) {
    EVP_CIPHER *hw = EVP_CIPHER_fetch(libctx, name, "provider=hwcrypt");
    EVP_CIPHER *ref = EVP_CIPHER_fetch(libctx, name, "provider=default");
    uint8_t key[32], fixed[4], rec[8 + 3000 + 16], pt[3000], saved[8 + 3000 + 16];
    size_t key_len = (size_t)EVP_CIPHER_get_key_length(hw);
    rnd_fill(key, key_len);
    rnd_fill(fixed, sizeof fixed);
    for (int dir = 0; dir < 2; dir++) {
        EVP_CIPHER *seal_c = dir ? ref : hw, *open_c = dir ? hw : ref;
        EVP_CIPHER_CTX *s = EVP_CIPHER_CTX_new(), *o = EVP_CIPHER_CTX_new();
        int ok = EVP_EncryptInit_ex2(s, seal_c, key, NULL, NULL) && EVP_DecryptInit_ex2(o, open_c, key, NULL, NULL) &&
                 ctrl_ok(s, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed) && ctrl_ok(o, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed);
        CHECK(ok, "%s TLS fixed IV (%s seals)", name, dir ? "default" : "hwcrypt");
        uint8_t prev_eiv[8] = {0};
        for (int r = 0; ok && r < 20; r++) {
            size_t len = r == 0 ? 0 : rnd_below(sizeof pt);
            rnd_fill(pt, len);
            uint8_t aad[13];
            rnd_fill(aad, 11);
            aad[11] = (uint8_t)((len + 8) >> 8);
            aad[12] = (uint8_t)(len + 8);
            memcpy(rec + 8, pt, len);
            int pad = EVP_CIPHER_CTX_ctrl(s, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
            int outl = 0;
            ok = pad == 16 && EVP_CipherUpdate(s, rec, &outl, rec, (int)(len + 24)) && outl == (int)(len + 24);
            CHECK(ok, "%s TLS seal record %d (%zu bytes, pad %d, out %d)", name, r, len, pad, outl);
            if (r)
                CHECK(memcmp(prev_eiv, rec, 8) != 0, "%s TLS explicit IV repeated", name);
            memcpy(prev_eiv, rec, 8);
            memcpy(saved, rec, len + 24);
            aad[11] = (uint8_t)((len + 24) >> 8);
            aad[12] = (uint8_t)(len + 24);
            pad = EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
            ok = ok && pad == 16 && EVP_CipherUpdate(o, rec, &outl, rec, (int)(len + 24)) && outl == (int)len &&
                 memcmp(rec + 8, pt, len) == 0;
            CHECK(ok, "%s TLS open record %d (%zu bytes)", name, r, len);
            if (r == 5 && ok) { /* a forged record is refused, and hwcrypt releases nothing */
                memcpy(rec, saved, len + 24);
                rec[8 + rnd_below(len + 16)] ^= 4;
                EVP_CIPHER_CTX_ctrl(o, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
                int bad = EVP_CipherUpdate(o, rec, &outl, rec, (int)(len + 24));
                CHECK(!bad, "%s TLS forged record accepted", name);
                if (open_c == hw)
                    CHECK(all_zero(rec + 8, len), "%s TLS forged record: plaintext released", name);
                ERR_clear_error();
                /* The receiver keeps going with the next genuine record. */
            }
        }
        EVP_CIPHER_CTX_free(s);
        EVP_CIPHER_CTX_free(o);
    }
    EVP_CIPHER_free(hw);
    EVP_CIPHER_free(ref);
}

/* CBC TLS records as libssl hands them to a provided cipher (tls-version,
 * tls-mac-size): sealing adds the padding, opening strips explicit IV,
 * padding and MAC and hands the MAC back through tls-mac.  hwcrypt and the
 * default provider must agree on ciphertext, payload length and MAC; with
 * bad padding both must hand back the same (public) length and a MAC that is
 * not the record's, and with no MAC (encrypt-then-MAC) refuse the record. */
static int tls_cbc_ctx(EVP_CIPHER_CTX *ctx, const EVP_CIPHER *c, int enc, const uint8_t *key, const uint8_t *iv,
                       unsigned version, size_t mac_size) {
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_uint(OSSL_CIPHER_PARAM_TLS_VERSION, &version);
    params[1] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &mac_size);
    params[2] = OSSL_PARAM_construct_end();
    return EVP_CipherInit_ex2(ctx, c, key, iv, enc, params);
}

static int tls_cbc_open(const EVP_CIPHER *c, const uint8_t *key, const uint8_t *iv, unsigned version, size_t mac_size,
                        uint8_t *rec, size_t len, size_t *payload, uint8_t *mac) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int outl = 0;
    unsigned char *macp = NULL;
    int ok = tls_cbc_ctx(ctx, c, 0, key, iv, version, mac_size) && EVP_CipherUpdate(ctx, rec, &outl, rec, (int)len);
    if (ok && mac_size) {
        OSSL_PARAM params[2] = {OSSL_PARAM_construct_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, (void **)&macp, mac_size),
                                OSSL_PARAM_construct_end()};
        ok = EVP_CIPHER_CTX_get_params(ctx, params) && macp != NULL;
        if (ok)
            memcpy(mac, macp, mac_size);
    }
    *payload = (size_t)outl;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

static void test_tls_cbc(const char *name) {
    EVP_CIPHER *hw = EVP_CIPHER_fetch(libctx, name, "provider=hwcrypt");
    EVP_CIPHER *ref = EVP_CIPHER_fetch(libctx, name, "provider=default");
    static const unsigned versions[] = {0x0301 /* TLS 1.0 */, 0x0303 /* TLS 1.2 */};
    static const size_t mac_sizes[] = {0, 20, 32, 48};
    uint8_t key[32], iv[16], plain[600], r1[700], r2[700], mac1[64], mac2[64];
    size_t key_len = (size_t)EVP_CIPHER_get_key_length(hw);
    for (int it = 0; it < 40; it++) {
        unsigned version = versions[rnd_below(2)];
        size_t mac_size = mac_sizes[rnd_below(4)], eiv = version == 0x0301 ? 0 : 16;
        size_t payload = rnd_below(300), len = eiv + payload + mac_size;
        rnd_fill(key, key_len);
        rnd_fill(iv, sizeof iv);
        rnd_fill(plain, len);
        /* Seal with both. */
        size_t n[2] = {0, 0};
        uint8_t *recs[2] = {r1, r2};
        EVP_CIPHER *cs[2] = {hw, ref};
        for (int i = 0; i < 2; i++) {
            EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
            int outl = 0;
            memcpy(recs[i], plain, len);
            if (tls_cbc_ctx(ctx, cs[i], 1, key, iv, version, mac_size) &&
                EVP_CipherUpdate(ctx, recs[i], &outl, recs[i], (int)len))
                n[i] = (size_t)outl;
            EVP_CIPHER_CTX_free(ctx);
        }
        CHECK(n[0] && n[0] == n[1] && memcmp(r1, r2, n[0]) == 0, "%s TLS %x CBC seal %zu bytes (mac %zu): %zu vs %zu",
              name, version, len, mac_size, n[0], n[1]);
        /* Open the default's record with both. */
        size_t rec_len = n[1], p1 = 0, p2 = 0;
        memcpy(r1, r2, rec_len);
        int ok1 = tls_cbc_open(hw, key, iv, version, mac_size, r1, rec_len, &p1, mac1);
        int ok2 = tls_cbc_open(ref, key, iv, version, mac_size, r2, rec_len, &p2, mac2);
        CHECK(ok1 && ok2 && p1 == payload && p2 == payload && memcmp(r1 + eiv, plain + eiv, payload) == 0 &&
                  memcmp(mac1, plain + eiv + payload, mac_size) == 0,
              "%s TLS %x CBC open %zu bytes (mac %zu): %d/%zu vs %d/%zu", name, version, len, mac_size, ok1, p1, ok2,
              p2);
        /* Bad padding: re-encrypt with the last padding byte's neighbour
         * changed (raw CBC, no TLS processing). */
        size_t padnum = rec_len - len;
        if (padnum < 2)
            continue;
        EVP_CIPHER_CTX *raw = EVP_CIPHER_CTX_new();
        uint8_t bad[700];
        int outl = 0;
        memcpy(bad, plain, len);
        memset(bad + len, (int)(padnum - 1), padnum);
        bad[rec_len - 2] ^= 0x01;
        int ok = EVP_EncryptInit_ex2(raw, ref, key, iv, NULL) && EVP_CIPHER_CTX_set_padding(raw, 0) &&
                 EVP_EncryptUpdate(raw, bad, &outl, bad, (int)rec_len);
        EVP_CIPHER_CTX_free(raw);
        memcpy(r1, bad, rec_len);
        memcpy(r2, bad, rec_len);
        ok1 = tls_cbc_open(hw, key, iv, version, mac_size, r1, rec_len, &p1, mac1);
        ok2 = tls_cbc_open(ref, key, iv, version, mac_size, r2, rec_len, &p2, mac2);
        if (mac_size == 0)
            CHECK(ok && !ok1 && !ok2, "%s TLS %x CBC bad padding, no MAC: accepted (%d, %d)", name, version, ok1, ok2);
        else
            CHECK(ok && ok1 && ok2 && p1 == p2 && memcmp(mac1, plain + eiv + payload, mac_size) != 0,
                  "%s TLS %x CBC bad padding: %d/%zu vs %d/%zu, or the real MAC came back", name, version, ok1, p1,
                  ok2, p2);
        ERR_clear_error();
    }
    /* Modes with no TLS record processing refuse to be put in TLS mode. */
    EVP_CIPHER *ctr = EVP_CIPHER_fetch(libctx, "AES-128-CTR", "provider=hwcrypt");
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    CHECK(!tls_cbc_ctx(ctx, ctr, 1, key, iv, 0x0303, 20), "AES-128-CTR accepted tls-version");
    ERR_clear_error();
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(ctr);
    EVP_CIPHER_free(hw);
    EVP_CIPHER_free(ref);
}

/* EVP_CIPHER_CTX_copy of a keyed template and mid-message, and EVP_MAC_CTX_dup as KBKDF
 * uses it (a CMAC from hwcrypt inside the default provider's KDF). */
static void test_copies(void) {
    EVP_CIPHER *hw = EVP_CIPHER_fetch(libctx, "AES-256-GCM", "provider=hwcrypt");
    EVP_CIPHER *ref = EVP_CIPHER_fetch(libctx, "AES-256-GCM", "provider=default");
    uint8_t key[32], iv[12], pt[100], c1[100], c2[100], t1[16], t2[16];
    rnd_fill(key, sizeof key);
    rnd_fill(iv, sizeof iv);
    rnd_fill(pt, sizeof pt);
    EVP_CIPHER_CTX *tmpl = EVP_CIPHER_CTX_new(), *copy = EVP_CIPHER_CTX_new(), *r = EVP_CIPHER_CTX_new();
    int l = 0, f = 0;
    int ok = EVP_EncryptInit_ex2(tmpl, hw, key, iv, NULL) && EVP_CIPHER_CTX_copy(copy, tmpl) &&
             EVP_EncryptUpdate(copy, c1, &l, pt, sizeof pt) && EVP_EncryptFinal_ex(copy, c1 + l, &f) &&
             ctrl_ok(copy, EVP_CTRL_AEAD_GET_TAG, 16, t1);
    ok = ok && EVP_EncryptInit_ex2(r, ref, key, iv, NULL) && EVP_EncryptUpdate(r, c2, &l, pt, sizeof pt) &&
         EVP_EncryptFinal_ex(r, c2 + l, &f) && ctrl_ok(r, EVP_CTRL_AEAD_GET_TAG, 16, t2);
    CHECK(ok && memcmp(c1, c2, sizeof c1) == 0 && memcmp(t1, t2, 16) == 0, "EVP_CIPHER_CTX_copy of a keyed GCM context");
    /* Mid-message (issue 15 item 6; tests/provider/prov_compat.c has the
     * regression test for every mode): both go on from the copy point. */
    int l2 = 0;
    ok = EVP_EncryptInit_ex2(tmpl, NULL, NULL, iv, NULL) && EVP_EncryptUpdate(tmpl, c1, &l, pt, 10) &&
         EVP_CIPHER_CTX_copy(copy, tmpl) && EVP_EncryptUpdate(copy, c1 + l, &l2, pt + 10, sizeof pt - 10) &&
         EVP_EncryptFinal_ex(copy, c1 + l + l2, &f) && ctrl_ok(copy, EVP_CTRL_AEAD_GET_TAG, 16, t1);
    CHECK(ok && memcmp(c1, c2, sizeof c1) == 0 && memcmp(t1, t2, 16) == 0, "EVP_CIPHER_CTX_copy mid-message");
    ERR_clear_error();
    EVP_CIPHER_CTX_free(tmpl);
    EVP_CIPHER_CTX_free(copy);
    EVP_CIPHER_CTX_free(r);
    EVP_CIPHER_free(hw);
    EVP_CIPHER_free(ref);

    EVP_KDF *kdf = EVP_KDF_fetch(libctx, "KBKDF", "provider=default");
    uint8_t k2[16], out[2][80];
    rnd_fill(k2, sizeof k2);
    const char *props[2] = {"provider=hwcrypt", "provider=default"};
    int oks[2];
    for (int i = 0; i < 2; i++) {
        EVP_KDF_CTX *kc = EVP_KDF_CTX_new(kdf);
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string("mac", (char *)"CMAC", 0),
            OSSL_PARAM_construct_utf8_string("cipher", (char *)"AES-128-CBC", 0),
            OSSL_PARAM_construct_utf8_string("properties", (char *)props[i], 0),
            OSSL_PARAM_construct_octet_string("key", k2, sizeof k2),
            OSSL_PARAM_construct_octet_string("salt", (void *)"label", 5),
            OSSL_PARAM_construct_octet_string("info", (void *)"context", 7),
            OSSL_PARAM_construct_end()};
        oks[i] = kc && EVP_KDF_derive(kc, out[i], sizeof out[i], params) > 0;
        EVP_KDF_CTX_free(kc);
    }
    CHECK(kdf && oks[0] && oks[1] && memcmp(out[0], out[1], sizeof out[0]) == 0,
          "KBKDF over hwcrypt's CMAC (EVP_MAC_CTX_dup) differs from the default's (%d, %d)", oks[0], oks[1]);
    ERR_clear_error();
    EVP_KDF_free(kdf);
}

/* The explicit-IV controls (EVP_CTRL_GCM_IV_GEN / SET_IV_INV, the
 * tlsivgen / tlsivinv parameters): a message sealed by one provider with a
 * generated IV opens with the other given only the fixed part and the
 * explicit part. */
static void test_ivgen(const char *name) {
    EVP_CIPHER *hw = EVP_CIPHER_fetch(libctx, name, "provider=hwcrypt");
    EVP_CIPHER *ref = EVP_CIPHER_fetch(libctx, name, "provider=default");
    uint8_t key[32], fixed[4], eiv[8], aad[20], pt[500], ct[500], back[500], tag[16];
    size_t key_len = (size_t)EVP_CIPHER_get_key_length(hw);
    for (int dir = 0; dir < 2; dir++) {
        EVP_CIPHER *seal_c = dir ? ref : hw, *open_c = dir ? hw : ref;
        rnd_fill(key, key_len);
        rnd_fill(fixed, sizeof fixed);
        rnd_fill(aad, sizeof aad);
        rnd_fill(pt, sizeof pt);
        EVP_CIPHER_CTX *s = EVP_CIPHER_CTX_new(), *o = EVP_CIPHER_CTX_new();
        int ok = EVP_EncryptInit_ex2(s, seal_c, key, NULL, NULL) && ctrl_ok(s, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed);
        for (int msg = 0; ok && msg < 3; msg++) {
            int l = 0, f = 0;
            ok = ctrl_ok(s, EVP_CTRL_GCM_IV_GEN, 8, eiv) && EVP_EncryptUpdate(s, NULL, &l, aad, sizeof aad) &&
                 EVP_EncryptUpdate(s, ct, &l, pt, sizeof pt) && EVP_EncryptFinal_ex(s, ct + l, &f) &&
                 ctrl_ok(s, EVP_CTRL_AEAD_GET_TAG, 16, tag);
            CHECK(ok, "%s IV_GEN seal %d (%s seals)", name, msg, dir ? "default" : "hwcrypt");
            ok = ok && EVP_DecryptInit_ex2(o, open_c, key, NULL, NULL) &&
                 ctrl_ok(o, EVP_CTRL_GCM_SET_IV_FIXED, 4, fixed) && ctrl_ok(o, EVP_CTRL_GCM_SET_IV_INV, 8, eiv) &&
                 EVP_DecryptUpdate(o, NULL, &l, aad, sizeof aad) && EVP_DecryptUpdate(o, back, &l, ct, sizeof ct) &&
                 ctrl_ok(o, EVP_CTRL_AEAD_SET_TAG, 16, tag) && EVP_DecryptFinal_ex(o, back + l, &f) &&
                 memcmp(back, pt, sizeof pt) == 0;
            CHECK(ok, "%s SET_IV_INV open %d (%s opens)", name, msg, dir ? "hwcrypt" : "default");
        }
        EVP_CIPHER_CTX_free(s);
        EVP_CIPHER_CTX_free(o);
    }
    EVP_CIPHER_free(hw);
    EVP_CIPHER_free(ref);
}

/* -------------------------------------------------------------- MACs */

static int mac_run(const char *mac, const char *prop, const char *cipher, const uint8_t *key, size_t key_len,
                   const uint8_t *iv, size_t iv_len, const uint8_t *msg, size_t len, size_t cut, uint8_t *out,
                   size_t *out_len) {
    EVP_MAC *m = EVP_MAC_fetch(libctx, mac, prop);
    EVP_MAC_CTX *ctx = m ? EVP_MAC_CTX_new(m) : NULL;
    OSSL_PARAM params[3], *p = params;
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0);
    if (iv)
        *p++ = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, (void *)iv, iv_len);
    *p = OSSL_PARAM_construct_end();
    int ok = ctx && EVP_MAC_init(ctx, key, key_len, params) && EVP_MAC_update(ctx, msg, cut) &&
             EVP_MAC_update(ctx, msg + cut, len - cut) && EVP_MAC_final(ctx, out, out_len, 16);
    EVP_MAC_CTX_free(ctx);
    EVP_MAC_free(m);
    return ok;
}

static void test_macs(int iters) {
    static const struct {
        const char *mac, *cipher;
        size_t key_len;
    } cases[] = {
        {"CMAC", "AES-128-CBC", 16}, {"CMAC", "AES-192-CBC", 24}, {"CMAC", "AES-256-CBC", 32},
        {"CMAC", "SM4-CBC", 16},     {"GMAC", "AES-128-GCM", 16}, {"GMAC", "AES-192-GCM", 24},
        {"GMAC", "AES-256-GCM", 32}, {"GMAC", "id-aes128-GCM", 16},
    };
    uint8_t key[32], iv[32], msg[2000], t1[16], t2[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int gmac = cases[i].mac[0] == 'G';
        for (int it = 0; it < iters * 4; it++) {
            size_t len = rnd_below(sizeof msg), cut = rnd_below(len + 1), iv_len = gmac ? 1 + rnd_below(32) : 0;
            rnd_fill(key, sizeof key);
            rnd_fill(iv, sizeof iv);
            rnd_fill(msg, len);
            size_t n1 = 0, n2 = 0;
            int ok1 = mac_run(cases[i].mac, "provider=hwcrypt", cases[i].cipher, key, cases[i].key_len,
                              gmac ? iv : NULL, iv_len, msg, len, cut, t1, &n1);
            int ok2 = mac_run(cases[i].mac, "provider=default", cases[i].cipher, key, cases[i].key_len,
                              gmac ? iv : NULL, iv_len, msg, len, cut, t2, &n2);
            CHECK(ok1 && ok2 && n1 == 16 && n2 == 16 && memcmp(t1, t2, 16) == 0, "%s with %s, %zu bytes", cases[i].mac,
                  cases[i].cipher, len);
        }
    }
    /* A cipher hwcrypt does not have: the other providers' MAC does it
     * (issue 15 item 5; prov_compat's "fallback" test compares the result). */
    uint8_t k[24] = {0}, t[16];
    size_t n = 0;
    CHECK(mac_run("CMAC", "provider=hwcrypt", "DES-EDE3-CBC", k, 24, NULL, 0, k, 8, 4, t, &n) && n == 8,
          "CMAC with DES-EDE3-CBC through hwcrypt's CMAC");
    ERR_clear_error();
}

/* -------------------------------------------------------------- main */

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s <provider dir> [iterations]\n", argv[0]);
        return 2;
    }
    int iters = argc > 2 ? atoi(argv[2]) : 3;
    /* Under valgrind (check-valgrind sets HWC_TEST_STRIDE) one round of
     * every case is enough. */
    if (prov_slow_run() && iters > 1) {
        printf("slow run (HWC_TEST_STRIDE): 1 iteration instead of %d\n", iters);
        iters = 1;
    }
    const char *seed = getenv("HWC_TEST_SEED");
    rng = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull;
    printf("seed 0x%016llx (HWC_TEST_SEED to repeat)\n", (unsigned long long)rng);
    libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(libctx, argv[1]);
    OSSL_PROVIDER *pdef = OSSL_PROVIDER_load(libctx, "default");
    OSSL_PROVIDER *phw = OSSL_PROVIDER_load(libctx, "hwcrypt");
    if (!pdef || !phw) {
        ERR_print_errors_fp(stdout);
        printf("FAIL: cannot load the providers (default %p, hwcrypt %p)\n", (void *)pdef, (void *)phw);
        return 1;
    }
    unsigned long compared = 0, lib_only = 0;
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        const alg *a = &algs[i];
        EVP_CIPHER *hw = EVP_CIPHER_fetch(libctx, a->name, "provider=hwcrypt");
        CHECK(hw != NULL, "hwcrypt has no %s", a->name);
        if (!hw)
            continue;
        CHECK(strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(hw)), "hwcrypt") == 0, "%s provider", a->name);
        EVP_CIPHER *ref = EVP_CIPHER_fetch(libctx, a->name, "provider=default");
        ERR_clear_error();
        if (ref)
            compared++;
        else {
            lib_only++;
            printf("note: %s: the default provider lacks it; compared with libhwcrypt directly\n", a->name);
        }
        unsigned long before = failures;
        test_alg_params(a, hw, ref);
        switch (a->kind) {
        case K_PAD:
        case K_STREAM:
        case K_XTS:
            test_plain(a, hw, ref, iters);
            break;
        case K_CFB1:
            test_plain(a, hw, ref, iters);
            test_cfb1_bits(a, hw, ref);
            break;
        case K_WRAP:
            if (ref)
                test_wrap(a, hw, ref, iters);
            else
                printf("SKIP: %s: no reference here\n", a->name);
            break;
        default:
            test_aead(a, hw, ref, iters);
            break;
        }
        printf("%-22s %s\n", a->name, failures == before ? "ok" : "FAILED");
        EVP_CIPHER_free(hw);
        EVP_CIPHER_free(ref);
    }
    test_tls12("AES-128-GCM");
    test_tls12("AES-256-GCM");
    test_ivgen("AES-128-GCM");
    test_ivgen("AES-256-GCM");
    test_tls_cbc("AES-128-CBC");
    test_copies();
    test_tls_cbc("AES-256-CBC");
    test_macs(iters);
    uint64_t bytes = 0;
    OSSL_PARAM pp[] = {OSSL_PARAM_construct_uint64("hwcrypt-bytes", &bytes), OSSL_PARAM_construct_end()};
    CHECK(OSSL_PROVIDER_get_params(phw, pp) && bytes > 0, "hwcrypt-bytes counter");
    printf("%lu algorithms compared with the default provider, %lu with libhwcrypt only; %llu bytes through hwcrypt\n",
           compared, lib_only, (unsigned long long)bytes);
    OSSL_PROVIDER_unload(phw);
    OSSL_PROVIDER_unload(pdef);
    OSSL_LIB_CTX_free(libctx);
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures ? 1 : 0;
}
