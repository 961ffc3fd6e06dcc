/* Differential test: every hwcrypt cipher that OpenSSL 3's EVP also has,
 * compared byte for byte (ciphertext, plaintext, tags, wrapped keys, MACs)
 * on random keys, IVs/nonces (every allowed length for GCM/CCM/OCB), AAD and
 * lengths 0..4096 (0..64 in full, then block boundaries and random lengths),
 * on every available hwcrypt back end, streaming and one-shot APIs,
 * encryption, decryption and rejection of corrupted tags; and, for the
 * chaining modes, hwc_get_iv against EVP's updated IV after every chunk.
 *
 * Where the installed OpenSSL lacks a mode (OpenSSL 3.0: SM4 CFB8/CFB1/XTS/
 * GCM/CCM/OCB/SIV/KW/GMAC, the SM4-XTS GB/T 17964 variant, and AES-SIV's
 * empty message), the oracle is a small reference written here on OpenSSL's
 * raw block cipher (ECB) and CMAC.  Each reference is first checked against
 * OpenSSL on the AES ciphers it does have (and the SM4-XTS ones against the
 * published GB/T 17964 and IEEE vectors), so it is an independent oracle.
 * Only GCM-SIV has no oracle here (OpenSSL < 3.2): SKIP with the reason.
 *
 * Without OpenSSL (HWC_HAVE_OPENSSL undefined) the program prints SKIP and
 * exits 77, which tests/diff.cmake registers as ctest's "skipped". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#ifndef HWC_HAVE_OPENSSL

int main(void) {
    printf("SKIP test_diff_openssl: built without OpenSSL >= 3.0 (HWC_HAVE_OPENSSL not defined)\n");
    return 77;
}

#else

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#define MAXLEN 4096
#define ROOM (MAXLEN + 64)

/* ------------------------------------------------------------ helpers */

static const char *family_str(hwc_family f) { return f == HWC_FAMILY_AES ? "aes" : "sm4"; }

/* Back-end names per family, collected once. */
#define MAX_IMPLS 16
static const char *impls[3][MAX_IMPLS];
static int nimpls[3];
static void collect_impl(const char *impl, void *arg) {
    int f = *(int *)arg;
    if (nimpls[f] < MAX_IMPLS)
        impls[f][nimpls[f]++] = impl;
}

/* HWC_TEST_STRIDE=N (N > 1) thins the message-length list for slow runs
 * such as valgrind's (docs/TESTING.md): the edge lengths below are always
 * kept, and every Nth of the others; every cipher, mode and back end still
 * runs.  Unset or 1: every length. */
static size_t test_stride(void) {
    const char *s = getenv("HWC_TEST_STRIDE");
    unsigned long v = s ? strtoul(s, NULL, 10) : 1;
    return v > 1 ? (size_t)v : 1;
}
static int edge_length(size_t n) {
    return n <= 1 || n == 15 || n == 16 || n == 17 || n == 33 || n == 257 || n == MAXLEN;
}
/* The same thinning for the other sweeps (nonce lengths, wrap lengths):
 * the first and last entries and the standard 12-byte nonce always stay. */
static int sweep_keeps(size_t i, size_t count, size_t value) {
    return i == 0 || i + 1 == count || value == 12 || edge_length(value) || i % test_stride() == 0;
}

/* Message lengths: 0..64 in full, block boundaries up to 4096, a few random. */
static size_t lens[160];
static size_t nlens;
static void build_lengths(void) {
    static const size_t extra[] = {79, 80, 81, 95, 96, 97, 111, 112, 113, 127, 128, 129, 143, 144, 145,
                                   255, 256, 257, 271, 272, 273, 511, 512, 513, 1023, 1024, 1025,
                                   2047, 2048, 2049, 4079, 4080, 4081, 4095, 4096};
    size_t all[160], nall = 0, stride = test_stride();
    for (size_t i = 0; i <= 64; i++)
        all[nall++] = i;
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        all[nall++] = extra[i];
    for (int i = 0; i < 8; i++)
        all[nall++] = 65 + (size_t)(test_rand() % (MAXLEN - 65));
    nlens = 0;
    for (size_t i = 0, other = 0; i < nall; i++)
        if (edge_length(all[i]) || other++ % stride == 0)
            lens[nlens++] = all[i];
    if (stride > 1)
        printf("test_diff_openssl: HWC_TEST_STRIDE=%zu: %zu of %zu message lengths (0, 1, 15, 16, 17, 33, 257, "
               "%d and every %zuth other)\n",
               stride, nlens, nall, MAXLEN, stride);
}

/* A request, run the same way through hwcrypt and through OpenSSL. */
#define MAX_AAD 4
typedef struct req {
    const hwc_cipher *c;
    const char *impl;
    int enc;
    int padding; /* -1: leave the default */
    const uint8_t *key;
    size_t klen;
    const uint8_t *iv;
    size_t ivlen;
    const uint8_t *aad[MAX_AAD];
    size_t aadlen[MAX_AAD];
    int naad;
    const uint8_t *in;
    size_t inlen;
    size_t taglen;
    const uint8_t *tagin; /* AEAD decryption: the expected tag */
    int oneshot;          /* AEADs: use hwc_aead_seal/open instead of streaming */
} req;

static void describe(char *buf, size_t n, const req *r, const char *what) {
    snprintf(buf, n, "%s %s impl=%s %s len=%zu iv=%zu aad=%zu%s tag=%zu pad=%d", what, hwc_cipher_name(r->c),
             r->impl ? r->impl : "auto", r->enc ? "enc" : "dec", r->inlen, r->ivlen,
             r->naad ? r->aadlen[0] : 0, r->naad > 1 ? "+" : "", r->taglen, r->padding);
}

/* hwcrypt side.  Returns an hwc_err; *outlen, out, tagout filled. */
static int hwc_do(const req *r, uint8_t *out, size_t *outlen, uint8_t *tagout) {
    unsigned fl = hwc_cipher_flags(r->c);
    hwc_mode m = hwc_cipher_mode(r->c);
    size_t n1 = 0, n2 = 0, aadtot = 0;
    int rc;
    *outlen = 0;
    hwc_ctx *ctx = hwc_ctx_new();
    if (!ctx)
        return HWC_ERR_NO_MEM;
    if ((rc = hwc_ctx_set_impl(ctx, r->impl)) != 0)
        goto done;
    if (fl & HWC_CIPHER_WRAP) {
        if ((rc = hwc_init(ctx, r->c, r->enc, r->key, r->klen, NULL, 0)) != 0)
            goto done;
        if (r->enc)
            rc = hwc_ctx_key_wrap(ctx, r->in, r->inlen, out, ROOM, outlen);
        else
            rc = hwc_ctx_key_unwrap(ctx, r->in, r->inlen, out, ROOM, outlen);
        goto done;
    }
    if ((rc = hwc_init(ctx, r->c, r->enc, r->key, r->klen, r->iv, r->ivlen)) != 0)
        goto done;
    if ((fl & HWC_CIPHER_AEAD) && r->oneshot) {
        if (r->naad > 1) {
            rc = HWC_ERR_UNSUPPORTED;
            goto done;
        }
        if (r->enc)
            rc = hwc_aead_seal(ctx, r->iv, r->ivlen, r->aad[0], r->naad ? r->aadlen[0] : 0, r->in, r->inlen, out,
                               tagout, r->taglen);
        else
            rc = hwc_aead_open(ctx, r->iv, r->ivlen, r->aad[0], r->naad ? r->aadlen[0] : 0, r->in, r->inlen, out,
                               r->tagin, r->taglen);
        if (rc == 0)
            *outlen = r->inlen;
        goto done;
    }
    if (r->padding >= 0 && (rc = hwc_set_padding(ctx, r->padding)) != 0)
        goto done;
    if (fl & HWC_CIPHER_AEAD) {
        if (r->taglen != hwc_cipher_tag_len(r->c) && (rc = hwc_set_tag_len(ctx, r->taglen)) != 0)
            goto done;
        for (int i = 0; i < r->naad; i++)
            aadtot += r->aadlen[i];
        if (m == HWC_MODE_CCM && (rc = hwc_set_lengths(ctx, aadtot, r->inlen)) != 0)
            goto done;
        if (!r->enc && (rc = hwc_set_tag(ctx, r->tagin, r->taglen)) != 0)
            goto done;
    }
    for (int i = 0; i < r->naad; i++)
        if ((rc = hwc_aad(ctx, r->aad[i], r->aadlen[i])) != 0)
            goto done;
    if (fl & HWC_CIPHER_MAC) {
        if ((rc = hwc_aad(ctx, r->in, r->inlen)) != 0)
            goto done;
        rc = hwc_mac_final(ctx, tagout, r->taglen);
        goto done;
    }
    if ((rc = hwc_update(ctx, out, &n1, r->in, r->inlen)) != 0)
        goto done;
    if ((rc = hwc_final(ctx, out + n1, &n2)) != 0)
        goto done;
    *outlen = n1 + n2;
    if ((fl & HWC_CIPHER_AEAD) && r->enc)
        rc = hwc_get_tag(ctx, tagout, r->taglen);
done:
    hwc_ctx_free(ctx);
    return rc;
}

/* OpenSSL side. */
typedef struct oracle {
    EVP_CIPHER *ec; /* cipher (NULL for the MACs) */
    EVP_MAC *mac;
    char mac_cipher[32];
    int xts_gb;
    const char *xts_std; /* SM4-XTS: OpenSSL's xts_standard ("IEEE"/"GB"; its default is GB) */
    /* Where this OpenSSL lacks the mode: a reference built here on its raw
     * block cipher (ECB) and CMAC. Also used for AES-SIV's empty message. */
    int built;
    EVP_CIPHER *ecb; /* ECB of the block cipher, one block key */
    char cbc_name[32]; /* for CMAC (SIV) */
} oracle;

/* Returns 1 on success, 0 on failure (including a failed tag check). */
static int ossl_do(const oracle *o, const req *r, uint8_t *out, size_t *outlen, uint8_t *tagout) {
    hwc_mode m = hwc_cipher_mode(r->c);
    *outlen = 0;
    if (o->mac) {
        EVP_MAC_CTX *mc = EVP_MAC_CTX_new(o->mac);
        OSSL_PARAM p[3];
        int np = 0, ok;
        size_t tl = 0;
        uint8_t full[16];
        if (!mc)
            return 0;
        p[np++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)o->mac_cipher, 0);
        if (m == HWC_MODE_GMAC)
            p[np++] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, (void *)r->iv, r->ivlen);
        p[np] = OSSL_PARAM_construct_end();
        ok = EVP_MAC_init(mc, r->key, r->klen, p) && EVP_MAC_update(mc, r->in, r->inlen) &&
             EVP_MAC_final(mc, full, &tl, sizeof full) && tl == 16;
        EVP_MAC_CTX_free(mc);
        if (ok)
            memcpy(tagout, full, r->taglen);
        return ok;
    }
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = 0, l = 0, l2 = 0;
    if (!x)
        return 0;
    EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (!EVP_CipherInit_ex(x, o->ec, NULL, NULL, NULL, r->enc))
        goto done;
    if (m == HWC_MODE_GCM || m == HWC_MODE_CCM || m == HWC_MODE_OCB)
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)r->ivlen, NULL) <= 0)
            goto done;
    if (m == HWC_MODE_CCM || m == HWC_MODE_OCB)
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)r->taglen,
                                (m == HWC_MODE_CCM && !r->enc) ? (void *)r->tagin : NULL) <= 0)
            goto done;
    if (!EVP_CipherInit_ex(x, NULL, NULL, r->key, (m == HWC_MODE_SIV || m == HWC_MODE_KW || m == HWC_MODE_KWP) ? NULL : r->iv,
                           r->enc))
        goto done;
    if (o->xts_std) {
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string("xts_standard", (char *)o->xts_std, 0),
                           OSSL_PARAM_construct_end()};
        if (!EVP_CIPHER_CTX_set_params(x, p))
            goto done;
    }
    if (r->padding >= 0)
        EVP_CIPHER_CTX_set_padding(x, r->padding);
    if (!r->enc && (m == HWC_MODE_OCB || m == HWC_MODE_GCM || m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV))
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)r->taglen, (void *)r->tagin) <= 0)
            goto done;
    if (m == HWC_MODE_CCM && !EVP_CipherUpdate(x, NULL, &l, NULL, (int)r->inlen))
        goto done;
    for (int i = 0; i < r->naad; i++)
        if ((r->aadlen[i] || m == HWC_MODE_SIV) && !EVP_CipherUpdate(x, NULL, &l, r->aad[i], (int)r->aadlen[i]))
            goto done;
    if (m == HWC_MODE_SIV && r->ivlen && !EVP_CipherUpdate(x, NULL, &l, r->iv, (int)r->ivlen))
        goto done;
    l = 0;
    if ((r->inlen || m == HWC_MODE_CCM) && !EVP_CipherUpdate(x, out, &l, r->in, (int)r->inlen))
        goto done;
    if (!EVP_CipherFinal_ex(x, out + l, &l2))
        goto done;
    *outlen = (size_t)l + (size_t)l2;
    if (r->enc && (m == HWC_MODE_GCM || m == HWC_MODE_CCM || m == HWC_MODE_OCB || m == HWC_MODE_SIV ||
                   m == HWC_MODE_GCM_SIV))
        if (EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)r->taglen, tagout) <= 0)
            goto done;
    ok = 1;
done:
    EVP_CIPHER_CTX_free(x);
    ERR_clear_error();
    return ok;
}


/* ------------------------------------------- references built on ECB */

/* The raw block cipher, both directions, one key. */
typedef struct bref {
    EVP_CIPHER_CTX *e, *d;
} bref;

static int bref_init(bref *b, const EVP_CIPHER *ecb, const uint8_t *k) {
    b->e = EVP_CIPHER_CTX_new();
    b->d = EVP_CIPHER_CTX_new();
    int ok = b->e && b->d && EVP_EncryptInit_ex(b->e, ecb, NULL, k, NULL) &&
             EVP_DecryptInit_ex(b->d, ecb, NULL, k, NULL);
    if (ok) {
        EVP_CIPHER_CTX_set_padding(b->e, 0);
        EVP_CIPHER_CTX_set_padding(b->d, 0);
    }
    return ok;
}
static void bref_free(bref *b) {
    EVP_CIPHER_CTX_free(b->e);
    EVP_CIPHER_CTX_free(b->d);
}
static void bE(bref *b, const uint8_t in[16], uint8_t out[16]) {
    int l;
    EVP_EncryptUpdate(b->e, out, &l, in, 16);
}
static void bD(bref *b, const uint8_t in[16], uint8_t out[16]) {
    int l;
    EVP_DecryptUpdate(b->d, out, &l, in, 16);
}

static void cfb1_ref(EVP_CIPHER_CTX *ecb, int enc, const uint8_t iv16[16], const uint8_t *inb, uint8_t *outb,
                     size_t nbits) {
    uint8_t reg[16], ks[16];
    int l;
    memcpy(reg, iv16, 16);
    memset(outb, 0, (nbits + 7) / 8);
    for (size_t b = 0; b < nbits; b++) {
        EVP_EncryptUpdate(ecb, ks, &l, reg, 16);
        unsigned ib = (inb[b / 8] >> (7 - b % 8)) & 1;
        unsigned ob = ib ^ (ks[0] >> 7);
        outb[b / 8] |= (uint8_t)(ob << (7 - b % 8));
        unsigned cb = enc ? ob : ib;
        for (int k = 0; k < 15; k++)
            reg[k] = (uint8_t)(reg[k] << 1 | reg[k + 1] >> 7);
        reg[15] = (uint8_t)(reg[15] << 1 | cb);
    }
}


static void cfb8_ref(bref *b, int enc, const uint8_t iv16[16], const uint8_t *in, uint8_t *out, size_t n) {
    uint8_t reg[16], ks[16];
    memcpy(reg, iv16, 16);
    for (size_t i = 0; i < n; i++) {
        bE(b, reg, ks);
        uint8_t o = (uint8_t)(in[i] ^ ks[0]);
        memmove(reg, reg + 1, 15);
        reg[15] = enc ? o : in[i];
        out[i] = o;
    }
}

/* GF(2^128) in GCM's bit order (SP 800-38D Algorithm 1), bit by bit. */
static void gf_mul(uint8_t z[16], const uint8_t x[16], const uint8_t y[16]) {
    uint8_t v[16], r[16] = {0};
    memcpy(v, y, 16);
    for (int i = 0; i < 128; i++) {
        if ((x[i / 8] >> (7 - i % 8)) & 1)
            for (int k = 0; k < 16; k++)
                r[k] ^= v[k];
        int lsb = v[15] & 1;
        for (int k = 15; k > 0; k--)
            v[k] = (uint8_t)(v[k] >> 1 | v[k - 1] << 7);
        v[0] >>= 1;
        if (lsb)
            v[0] ^= 0xe1;
    }
    memcpy(z, r, 16);
}
static void ghash_ref(uint8_t y[16], const uint8_t h[16], const uint8_t *p, size_t n) {
    for (size_t off = 0; off < n; off += 16) {
        size_t l = n - off < 16 ? n - off : 16;
        for (size_t i = 0; i < l; i++)
            y[i] ^= p[off + i];
        gf_mul(y, y, h);
    }
}
static void put_be64(uint8_t *p, uint64_t v) {
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (uint8_t)v;
}

/* GCM; the full 16-byte tag goes to tag16 (computed over the ciphertext). */
static void gcm_ref(bref *b, int enc, const uint8_t *iv, size_t ivlen, const uint8_t *aad, size_t aadlen,
                    const uint8_t *in, size_t n, uint8_t *out, uint8_t tag16[16]) {
    uint8_t h[16] = {0}, j0[16] = {0}, ctr[16], ks[16], y[16] = {0}, lenblk[16];
    bE(b, h, h);
    if (ivlen == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
    } else {
        ghash_ref(j0, h, iv, ivlen);
        memset(lenblk, 0, 8);
        put_be64(lenblk + 8, (uint64_t)ivlen * 8);
        ghash_ref(j0, h, lenblk, 16);
    }
    memcpy(ctr, j0, 16);
    for (size_t off = 0; off < n; off += 16) {
        for (int i = 15; i >= 12; i--)
            if (++ctr[i])
                break;
        bE(b, ctr, ks);
        for (size_t i = 0; i < 16 && off + i < n; i++)
            out[off + i] = in[off + i] ^ ks[i];
    }
    ghash_ref(y, h, aad, aadlen);
    ghash_ref(y, h, enc ? out : in, n);
    put_be64(lenblk, (uint64_t)aadlen * 8);
    put_be64(lenblk + 8, (uint64_t)n * 8);
    ghash_ref(y, h, lenblk, 16);
    bE(b, j0, ks);
    for (int i = 0; i < 16; i++)
        tag16[i] = y[i] ^ ks[i];
}

/* CCM (SP 800-38C); tag of t bytes (computed over the plaintext). */
static void ccm_ref(bref *b, int enc, const uint8_t *nonce, size_t nlen, const uint8_t *aad, size_t aadlen,
                    const uint8_t *in, size_t n, uint8_t *out, uint8_t *tag, size_t t) {
    size_t q = 15 - nlen;
    uint8_t x[16], a[16], ks[16], blk[16];
    /* Counter blocks A_i and the payload. */
    memset(a, 0, 16);
    a[0] = (uint8_t)(q - 1);
    memcpy(a + 1, nonce, nlen);
    for (size_t off = 0, i = 1; off < n; off += 16, i++) {
        uint64_t v = i;
        for (size_t k = 0; k < q && k < 8; k++, v >>= 8)
            a[15 - k] = (uint8_t)v;
        bE(b, a, ks);
        for (size_t j = 0; j < 16 && off + j < n; j++)
            out[off + j] = in[off + j] ^ ks[j];
    }
    const uint8_t *p = enc ? in : out;
    /* CBC-MAC over B0, the encoded AAD, the payload. */
    memset(x, 0, 16);
    x[0] = (uint8_t)((aadlen ? 0x40 : 0) | ((t - 2) / 2) << 3 | (q - 1));
    memcpy(x + 1, nonce, nlen);
    uint64_t v = n;
    for (size_t k = 0; k < q && k < 8; k++, v >>= 8)
        x[15 - k] = (uint8_t)v;
    bE(b, x, x);
    if (aadlen) {
        static uint8_t abuf[16 + 1100];
        size_t hl;
        if (aadlen < 0xff00) {
            abuf[0] = (uint8_t)(aadlen >> 8);
            abuf[1] = (uint8_t)aadlen;
            hl = 2;
        } else {
            abuf[0] = 0xff;
            abuf[1] = 0xfe;
            for (int k = 0; k < 4; k++)
                abuf[2 + k] = (uint8_t)(aadlen >> (24 - 8 * k));
            hl = 6;
        }
        memcpy(abuf + hl, aad, aadlen);
        size_t tot = hl + aadlen;
        for (size_t off = 0; off < tot; off += 16) {
            memset(blk, 0, 16);
            memcpy(blk, abuf + off, tot - off < 16 ? tot - off : 16);
            for (int j = 0; j < 16; j++)
                x[j] ^= blk[j];
            bE(b, x, x);
        }
    }
    for (size_t off = 0; off < n; off += 16) {
        memset(blk, 0, 16);
        memcpy(blk, p + off, n - off < 16 ? n - off : 16);
        for (int j = 0; j < 16; j++)
            x[j] ^= blk[j];
        bE(b, x, x);
    }
    for (size_t k = 0; k < q; k++)
        a[15 - k] = 0;
    bE(b, a, ks);
    for (size_t j = 0; j < t; j++)
        tag[j] = x[j] ^ ks[j];
}

/* RFC 3394 wrap core with initial value aiv; n a multiple of 8, >= 16. */
static void kw_wrap_ref(bref *b, const uint8_t aiv[8], const uint8_t *p, size_t n, uint8_t *out) {
    uint8_t blk[16], A[8];
    size_t nb = n / 8;
    memcpy(A, aiv, 8);
    memmove(out + 8, p, n);
    for (size_t j = 0; j < 6; j++)
        for (size_t i = 1; i <= nb; i++) {
            memcpy(blk, A, 8);
            memcpy(blk + 8, out + 8 * i, 8);
            bE(b, blk, blk);
            uint64_t t = nb * j + i;
            for (int k = 7; k >= 0; k--, t >>= 8)
                blk[k] ^= (uint8_t)t;
            memcpy(A, blk, 8);
            memcpy(out + 8 * i, blk + 8, 8);
        }
    memcpy(out, A, 8);
}
/* Inverse: n >= 24; writes n-8 bytes and the recovered A. */
static void kw_unwrap_ref(bref *b, const uint8_t *c, size_t n, uint8_t *out, uint8_t A[8]) {
    uint8_t blk[16];
    size_t nb = n / 8 - 1;
    memcpy(A, c, 8);
    memmove(out, c + 8, n - 8);
    for (size_t j = 6; j-- > 0;)
        for (size_t i = nb; i >= 1; i--) {
            uint64_t t = nb * j + i;
            memcpy(blk, A, 8);
            for (int k = 7; k >= 0; k--, t >>= 8)
                blk[k] ^= (uint8_t)t;
            memcpy(blk + 8, out + 8 * (i - 1), 8);
            bD(b, blk, blk);
            memcpy(A, blk, 8);
            memcpy(out + 8 * (i - 1), blk + 8, 8);
        }
}

static int kw_ref(bref *b, int kwp, int enc, const uint8_t *in, size_t n, uint8_t *out, size_t *outlen) {
    static const uint8_t kw_iv[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};
    static uint8_t tmpb[MAXLEN + 32];
    uint8_t A[8];
    if (enc) {
        if (!kwp) {
            if (n < 16 || n % 8)
                return 0;
            kw_wrap_ref(b, kw_iv, in, n, out);
            *outlen = n + 8;
            return 1;
        }
        if (n == 0)
            return 0;
        size_t m = (n + 7) / 8 * 8;
        uint8_t aiv[8] = {0xa6, 0x59, 0x59, 0xa6, (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8),
                          (uint8_t)n};
        memset(tmpb, 0, m);
        memcpy(tmpb, in, n);
        if (m == 8) {
            uint8_t blk[16];
            memcpy(blk, aiv, 8);
            memcpy(blk + 8, tmpb, 8);
            bE(b, blk, out);
        } else {
            kw_wrap_ref(b, aiv, tmpb, m, out);
        }
        *outlen = m + 8;
        return 1;
    }
    if (n % 8 || n < 16 || (!kwp && n < 24))
        return 0;
    if (kwp && n == 16) {
        uint8_t blk[16];
        bD(b, in, blk);
        memcpy(A, blk, 8);
        memcpy(tmpb, blk + 8, 8);
    } else {
        kw_unwrap_ref(b, in, n, tmpb, A);
    }
    if (!kwp) {
        if (memcmp(A, kw_iv, 8) != 0)
            return 0;
        memcpy(out, tmpb, n - 8);
        *outlen = n - 8;
        return 1;
    }
    size_t mli = (size_t)A[4] << 24 | (size_t)A[5] << 16 | (size_t)A[6] << 8 | A[7], m = n - 8;
    if (A[0] != 0xa6 || A[1] != 0x59 || A[2] != 0x59 || A[3] != 0xa6 || mli > m || mli + 8 <= m)
        return 0;
    for (size_t i = mli; i < m; i++)
        if (tmpb[i])
            return 0;
    memcpy(out, tmpb, mli);
    *outlen = mli;
    return 1;
}

/* SIV (RFC 5297) from CMAC (OpenSSL's EVP_MAC) and the block cipher. */
static EVP_MAC *mac_cmac, *mac_gmac;
static int cmac_ref(const char *cbc, const uint8_t *k, size_t klen, const uint8_t *m, size_t n, uint8_t out[16]) {
    EVP_MAC_CTX *mc = EVP_MAC_CTX_new(mac_cmac);
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cbc, 0),
                       OSSL_PARAM_construct_end()};
    size_t l = 0;
    int ok = mc && EVP_MAC_init(mc, k, klen, p) && EVP_MAC_update(mc, m, n) && EVP_MAC_final(mc, out, &l, 16);
    EVP_MAC_CTX_free(mc);
    return ok && l == 16;
}
static void dbl_be(uint8_t d[16]) {
    unsigned carry = d[0] >> 7;
    for (int i = 0; i < 15; i++)
        d[i] = (uint8_t)(d[i] << 1 | d[i + 1] >> 7);
    d[15] = (uint8_t)(d[15] << 1);
    if (carry)
        d[15] ^= 0x87;
}
static int s2v_ref(const char *cbc, const uint8_t *k1, size_t half, const uint8_t *const *comp, const size_t *clen,
                   int ncomp, const uint8_t *p, size_t n, uint8_t v[16]) {
    static uint8_t tbuf[MAXLEN + 16];
    uint8_t d[16], c[16], zero[16] = {0};
    if (!cmac_ref(cbc, k1, half, zero, 16, d))
        return 0;
    for (int i = 0; i < ncomp; i++) {
        dbl_be(d);
        if (!cmac_ref(cbc, k1, half, comp[i], clen[i], c))
            return 0;
        for (int j = 0; j < 16; j++)
            d[j] ^= c[j];
    }
    if (n >= 16) {
        memcpy(tbuf, p, n);
        for (int j = 0; j < 16; j++)
            tbuf[n - 16 + j] ^= d[j];
        return cmac_ref(cbc, k1, half, tbuf, n, v);
    }
    dbl_be(d);
    uint8_t t[16] = {0};
    memcpy(t, p, n);
    t[n] = 0x80;
    for (int j = 0; j < 16; j++)
        t[j] ^= d[j];
    return cmac_ref(cbc, k1, half, t, 16, v);
}
static void ctr128_ref(bref *b, const uint8_t iv16[16], const uint8_t *in, uint8_t *out, size_t n) {
    uint8_t ctr[16], ks[16];
    memcpy(ctr, iv16, 16);
    for (size_t off = 0; off < n; off += 16) {
        bE(b, ctr, ks);
        for (size_t j = 0; j < 16 && off + j < n; j++)
            out[off + j] = in[off + j] ^ ks[j];
        for (int i = 15; i >= 0; i--)
            if (++ctr[i])
                break;
    }
}


/* OCB3 (RFC 7253), any nonce of 1..15 bytes and tag of 1..16 bytes. */
static void ocb_ref_hash(bref *b, uint8_t L[][16], const uint8_t ls[16], const uint8_t *a, size_t alen,
                         uint8_t sum[16]) {
    uint8_t off[16] = {0}, blk[16];
    size_t m = alen / 16;
    memset(sum, 0, 16);
    for (size_t i = 1; i <= m; i++) {
        unsigned tz = 0;
        while (!((i >> tz) & 1))
            tz++;
        for (int j = 0; j < 16; j++) {
            off[j] ^= L[tz][j];
            blk[j] = a[16 * (i - 1) + j] ^ off[j];
        }
        bE(b, blk, blk);
        for (int j = 0; j < 16; j++)
            sum[j] ^= blk[j];
    }
    if (alen % 16) {
        memset(blk, 0, 16);
        memcpy(blk, a + 16 * m, alen % 16);
        blk[alen % 16] = 0x80;
        for (int j = 0; j < 16; j++)
            blk[j] ^= off[j] ^ ls[j];
        bE(b, blk, blk);
        for (int j = 0; j < 16; j++)
            sum[j] ^= blk[j];
    }
}

static void ocb_ref(bref *b, int enc, const uint8_t *nonce, size_t nlen, const uint8_t *aad, size_t alen,
                    const uint8_t *in, size_t n, uint8_t *out, uint8_t *tag, size_t taglen) {
    uint8_t L[32][16], ls[16] = {0}, ld[16], nn[16] = {0}, ktop[16], stretch[24], off[16], sum[16], chk[16] = {0},
                                           blk[16];
    bE(b, ls, ls); /* L_* */
    memcpy(ld, ls, 16);
    dbl_be(ld); /* L_$ */
    memcpy(L[0], ld, 16);
    dbl_be(L[0]);
    for (int i = 1; i < 32; i++) {
        memcpy(L[i], L[i - 1], 16);
        dbl_be(L[i]);
    }
    nn[0] = (uint8_t)(((taglen * 8) % 128) << 1);
    nn[15 - nlen] |= 1;
    memcpy(nn + 16 - nlen, nonce, nlen);
    unsigned bottom = nn[15] & 63;
    nn[15] &= 0xc0;
    bE(b, nn, ktop);
    memcpy(stretch, ktop, 16);
    for (int i = 0; i < 8; i++)
        stretch[16 + i] = ktop[i] ^ ktop[i + 1];
    for (int j = 0; j < 16; j++) {
        unsigned sh = bottom % 8, by = bottom / 8 + (unsigned)j;
        off[j] = (uint8_t)(sh ? (stretch[by] << sh | stretch[by + 1] >> (8 - sh)) : stretch[by]);
    }
    size_t m = n / 16;
    for (size_t i = 1; i <= m; i++) {
        unsigned tz = 0;
        while (!((i >> tz) & 1))
            tz++;
        const uint8_t *src = in + 16 * (i - 1);
        for (int j = 0; j < 16; j++) {
            off[j] ^= L[tz][j];
            blk[j] = src[j] ^ off[j];
        }
        if (enc)
            bE(b, blk, blk);
        else
            bD(b, blk, blk);
        for (int j = 0; j < 16; j++) {
            out[16 * (i - 1) + j] = blk[j] ^ off[j];
            chk[j] ^= enc ? src[j] : out[16 * (i - 1) + j];
        }
    }
    if (n % 16) {
        size_t r = n % 16;
        uint8_t pad[16];
        for (int j = 0; j < 16; j++)
            off[j] ^= ls[j];
        bE(b, off, pad);
        for (size_t j = 0; j < r; j++)
            out[16 * m + j] = in[16 * m + j] ^ pad[j];
        const uint8_t *p = enc ? in + 16 * m : out + 16 * m;
        for (size_t j = 0; j < r; j++)
            chk[j] ^= p[j];
        chk[r] ^= 0x80;
    }
    for (int j = 0; j < 16; j++)
        blk[j] = chk[j] ^ off[j] ^ ld[j];
    bE(b, blk, blk);
    ocb_ref_hash(b, L, ls, aad, alen, sum);
    for (size_t j = 0; j < taglen; j++)
        tag[j] = blk[j] ^ sum[j];
}


/* XTS (IEEE 1619): b1 keyed with the data key, b2 with the tweak key; n >= 16. */
static void xts_alpha(uint8_t t[16]) {
    unsigned carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
    t[0] = (uint8_t)(t[0] << 1);
    if (carry)
        t[0] ^= 0x87;
}
/* GB/T 17964-2021: the tweak is a big-endian, bit-reflected field element
 * (GCM's order): shift right one bit, fold 0xe1 into byte 0. */
static void xts_alpha_gb(uint8_t t[16]) {
    unsigned carry = t[15] & 1;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] >> 1 | t[i - 1] << 7);
    t[0] >>= 1;
    if (carry)
        t[0] ^= 0xe1;
}
static void xts_blk(bref *b, int enc, const uint8_t t[16], const uint8_t *in, uint8_t *out) {
    uint8_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i] ^ t[i];
    if (enc)
        bE(b, x, x);
    else
        bD(b, x, x);
    for (int i = 0; i < 16; i++)
        out[i] = x[i] ^ t[i];
}
static void xts_ref(bref *b1, bref *b2, int gb, int enc, const uint8_t tw[16], const uint8_t *in, uint8_t *out,
                    size_t n) {
    uint8_t t[16], tn[16], cc[16], pp[16];
    size_t m = n / 16, r = n % 16, full = r ? m - 1 : m;
    void (*alpha)(uint8_t *) = gb ? xts_alpha_gb : xts_alpha;
    bE(b2, tw, t);
    for (size_t j = 0; j < full; j++) {
        xts_blk(b1, enc, t, in + 16 * j, out + 16 * j);
        alpha(t);
    }
    if (!r)
        return;
    memcpy(tn, t, 16);
    alpha(tn);
    xts_blk(b1, enc, enc ? t : tn, in + 16 * (m - 1), cc);
    memcpy(pp, in + 16 * m, r);
    memcpy(pp + r, cc + r, 16 - r);
    xts_blk(b1, enc, enc ? tn : t, pp, out + 16 * (m - 1));
    memcpy(out + 16 * m, cc, r);
}

static uint8_t ref_tmp[ROOM];

/* Same contract as ossl_do, on the built references. */
static int built_do(const oracle *o, const req *r, uint8_t *out, size_t *outlen, uint8_t *tagout) {
    hwc_mode m = hwc_cipher_mode(r->c);
    size_t half = hwc_cipher_key_len(r->c) / ((m == HWC_MODE_SIV || m == HWC_MODE_XTS) ? 2 : 1);
    uint8_t full[16];
    bref b;
    int ok = 0;
    *outlen = 0;
    if (!bref_init(&b, o->ecb, m == HWC_MODE_SIV ? r->key + half : r->key)) {
        bref_free(&b);
        return 0;
    }
    switch (m) {
    case HWC_MODE_CFB8:
        cfb8_ref(&b, r->enc, r->iv, r->in, out, r->inlen);
        *outlen = r->inlen;
        ok = 1;
        break;
    case HWC_MODE_CFB1:
        cfb1_ref(b.e, r->enc, r->iv, r->in, out, r->inlen * 8);
        *outlen = r->inlen;
        ok = 1;
        break;
    case HWC_MODE_GCM:
    case HWC_MODE_GMAC: {
        int gmac = m == HWC_MODE_GMAC;
        gcm_ref(&b, r->enc || gmac, r->iv, r->ivlen, gmac ? r->in : r->aad[0], gmac ? r->inlen : r->naad ? r->aadlen[0] : 0,
                r->in, gmac ? 0 : r->inlen, out, full);
        if (r->enc || gmac) {
            memcpy(tagout, full, r->taglen);
            ok = 1;
        } else {
            ok = memcmp(full, r->tagin, r->taglen) == 0;
        }
        *outlen = gmac ? 0 : r->inlen;
        break;
    }
    case HWC_MODE_CCM:
        ccm_ref(&b, r->enc, r->iv, r->ivlen, r->aad[0], r->naad ? r->aadlen[0] : 0, r->in, r->inlen, out, full,
                r->taglen);
        if (r->enc) {
            memcpy(tagout, full, r->taglen);
            ok = 1;
        } else {
            ok = memcmp(full, r->tagin, r->taglen) == 0;
        }
        *outlen = r->inlen;
        break;
    case HWC_MODE_KW:
    case HWC_MODE_KWP:
        ok = kw_ref(&b, m == HWC_MODE_KWP, r->enc, r->in, r->inlen, out, outlen);
        break;
    case HWC_MODE_XTS: {
        bref b2 = {NULL, NULL};
        if (r->inlen >= 16 && bref_init(&b2, o->ecb, r->key + half)) {
            xts_ref(&b, &b2, o->xts_gb, r->enc, r->iv, r->in, out, r->inlen);
            *outlen = r->inlen;
            ok = 1;
        }
        bref_free(&b2);
        break;
    }
    case HWC_MODE_OCB:
        ocb_ref(&b, r->enc, r->iv, r->ivlen, r->aad[0], r->naad ? r->aadlen[0] : 0, r->in, r->inlen, out, full,
                r->taglen);
        if (r->enc) {
            memcpy(tagout, full, r->taglen);
            ok = 1;
        } else {
            ok = memcmp(full, r->tagin, r->taglen) == 0;
        }
        *outlen = r->inlen;
        break;
    case HWC_MODE_SIV: {
        const uint8_t *comp[MAX_AAD + 1];
        size_t clen[MAX_AAD + 1];
        int nc = 0;
        for (int i = 0; i < r->naad; i++) {
            comp[nc] = r->aad[i];
            clen[nc++] = r->aadlen[i];
        }
        if (r->ivlen) {
            comp[nc] = r->iv;
            clen[nc++] = r->ivlen;
        }
        uint8_t v[16], q[16];
        if (r->enc) {
            if (!s2v_ref(o->cbc_name, r->key, half, comp, clen, nc, r->in, r->inlen, v))
                break;
            memcpy(q, v, 16);
            q[8] &= 0x7f;
            q[12] &= 0x7f;
            ctr128_ref(&b, q, r->in, out, r->inlen);
            memcpy(tagout, v, 16);
            ok = 1;
        } else {
            memcpy(q, r->tagin, 16);
            q[8] &= 0x7f;
            q[12] &= 0x7f;
            ctr128_ref(&b, q, r->in, ref_tmp, r->inlen);
            if (!s2v_ref(o->cbc_name, r->key, half, comp, clen, nc, ref_tmp, r->inlen, v))
                break;
            ok = memcmp(v, r->tagin, 16) == 0;
            if (ok)
                memcpy(out, ref_tmp, r->inlen);
        }
        *outlen = r->inlen;
        break;
    }
    default:
        break;
    }
    bref_free(&b);
    return ok;
}

/* OpenSSL's own mode where it has one, else the reference built here. */
static int oracle_do(const oracle *o, const req *r, uint8_t *out, size_t *outlen, uint8_t *tagout) {
    if (o->built || (hwc_cipher_mode(r->c) == HWC_MODE_SIV && r->inlen == 0 && o->ecb))
        return built_do(o, r, out, outlen, tagout);
    return ossl_do(o, r, out, outlen, tagout);
}

static uint8_t key[64], iv[512], aadbuf[MAX_AAD][1100], in[ROOM], o_out[ROOM], h_out[ROOM], o_out2[ROOM],
    h_out2[ROOM];
static uint8_t o_tag[16], h_tag[16], o_tag2[16];
static int is_tagged(const hwc_cipher *c) { return (hwc_cipher_flags(c) & (HWC_CIPHER_AEAD | HWC_CIPHER_MAC)) != 0; }

/* Encrypt (and decrypt) one request both ways and compare. */
static void compare(const oracle *o, req *r, int also_dec_random) {
    char what[256];
    size_t ol = 0, hl = 0;
    int rc;
    unsigned fl = hwc_cipher_flags(r->c);
    int is_aead = (fl & HWC_CIPHER_AEAD) != 0, is_mac = (fl & HWC_CIPHER_MAC) != 0;

    r->enc = HWC_ENCRYPT;
    memset(o_tag, 0x11, sizeof o_tag);
    memset(h_tag, 0x22, sizeof h_tag);
    describe(what, sizeof what, r, "oracle");
    if (!CHECKF(oracle_do(o, r, o_out, &ol, o_tag), "%s", what))
        return;
    rc = hwc_do(r, h_out, &hl, h_tag);
    describe(what, sizeof what, r, "encrypt");
    if (!CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)))
        return;
    if (is_mac) {
        CHECK_MEM(h_tag, o_tag, r->taglen, what);
        /* The one-shot hwc_mac() (automatic back end) too. */
        uint8_t t1[16];
        rc = hwc_mac(r->c, r->key, r->klen, r->iv, r->ivlen, r->in, r->inlen, t1, r->taglen);
        describe(what, sizeof what, r, "hwc_mac");
        if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)))
            CHECK_MEM(t1, o_tag, r->taglen, what);
        return;
    }
    if (CHECKF(hl == ol, "%s: length %zu, OpenSSL %zu", what, hl, ol))
        CHECK_MEM(h_out, o_out, ol, what);
    if (is_aead)
        CHECK_MEM(h_tag, o_tag, r->taglen, what);

    /* Decrypt OpenSSL's output with hwcrypt. */
    req d = *r;
    d.enc = HWC_DECRYPT;
    d.in = o_out;
    d.inlen = ol;
    d.tagin = o_tag;
    describe(what, sizeof what, &d, "decrypt");
    memset(h_out2, 0x5a, ol + 16);
    rc = hwc_do(&d, h_out2, &hl, NULL);
    if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
        CHECKF(hl == r->inlen, "%s: length %zu, want %zu", what, hl, r->inlen))
        CHECK_MEM(h_out2, r->in, r->inlen, what);

    if (is_aead) {
        /* A corrupted tag: both refuse. */
        uint8_t bad[16];
        memcpy(bad, o_tag, 16);
        bad[test_rand() % r->taglen] ^= (uint8_t)(1u << (test_rand() % 8));
        d.tagin = bad;
        describe(what, sizeof what, &d, "decrypt bad tag");
        CHECKF(!oracle_do(o, &d, o_out2, &ol, NULL), "%s: OpenSSL accepted", what);
        rc = hwc_do(&d, h_out2, &hl, NULL);
        CHECKF(rc == HWC_ERR_AUTH, "%s: rc %d (%s)", what, rc, hwc_strerror(rc));
    }
    if (also_dec_random) {
        /* Decrypt the same random bytes both ways (modes where any input decrypts). */
        d.in = r->in;
        d.inlen = r->inlen;
        describe(what, sizeof what, &d, "decrypt random");
        if (!CHECKF(oracle_do(o, &d, o_out2, &ol, NULL), "oracle %s", what))
            return;
        rc = hwc_do(&d, h_out2, &hl, NULL);
        if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
            CHECKF(hl == ol, "%s: length %zu, OpenSSL %zu", what, hl, ol))
            CHECK_MEM(h_out2, o_out2, ol, what);
    }
}

static void rand_req(req *r, const hwc_cipher *c, const char *impl, size_t inlen, size_t ivlen, size_t aadlen,
                     size_t taglen) {
    memset(r, 0, sizeof *r);
    r->c = c;
    r->impl = impl;
    r->padding = -1;
    r->klen = hwc_cipher_key_len(c);
    test_rand_bytes(key, r->klen);
    if (hwc_cipher_mode(c) == HWC_MODE_XTS)
        while (memcmp(key, key + r->klen / 2, r->klen / 2) == 0)
            test_rand_bytes(key, r->klen);
    r->key = key;
    r->ivlen = ivlen;
    test_rand_bytes(iv, ivlen);
    r->iv = ivlen ? iv : NULL;
    if (aadlen) {
        test_rand_bytes(aadbuf[0], aadlen);
        r->aad[0] = aadbuf[0];
        r->aadlen[0] = aadlen;
        r->naad = 1;
    }
    test_rand_bytes(in, inlen);
    r->in = in;
    r->inlen = inlen;
    r->taglen = taglen;
}

/* ------------------------------------------------------------ per mode */

static const size_t aad_cycle[] = {0, 1, 5, 15, 16, 17, 32, 33, 48, 64, 100, 255, 256, 1000};
#define NAAD_CYCLE (sizeof aad_cycle / sizeof aad_cycle[0])

static void diff_plain(const oracle *o, const hwc_cipher *c, const char *impl) {
    hwc_mode m = hwc_cipher_mode(c);
    req r;
    for (size_t i = 0; i < nlens; i++) {
        size_t n = lens[i];
        if (m == HWC_MODE_CFB1 && n > 600 && n != MAXLEN)
            continue; /* one block encryption per bit: keep it short */
        if (m == HWC_MODE_XTS && n < 16)
            continue;
        if (m == HWC_MODE_ECB || m == HWC_MODE_CBC) {
            rand_req(&r, c, impl, n, hwc_cipher_iv_len(c), 0, 0);
            r.padding = 1;
            compare(o, &r, 0);
            if (n % 16 == 0) {
                rand_req(&r, c, impl, n, hwc_cipher_iv_len(c), 0, 0);
                r.padding = 0;
                compare(o, &r, 1);
            }
        } else {
            rand_req(&r, c, impl, n, hwc_cipher_iv_len(c), 0, 0);
            compare(o, &r, 1);
        }
    }
}

/* CFB1 bit by bit: hwc_update_bits against a reference built on OpenSSL's
 * raw block cipher (ECB): cfb1_ref above. */
static void diff_cfb1_bits(const hwc_cipher *c, const char *impl) {
    char ecbname[32];
    size_t klen = hwc_cipher_key_len(c);
    if (hwc_cipher_family(c) == HWC_FAMILY_AES)
        snprintf(ecbname, sizeof ecbname, "AES-%zu-ECB", klen * 8);
    else
        snprintf(ecbname, sizeof ecbname, "SM4-ECB");
    EVP_CIPHER *ec = EVP_CIPHER_fetch(NULL, ecbname, NULL);
    if (!ec) {
        test_skip(ecbname, "not in this OpenSSL");
        return;
    }
    static const size_t nb[] = {1, 2, 3, 5, 7, 8, 9, 13, 15, 16, 17, 31, 63, 64, 65, 100, 127, 128, 129, 200, 1000};
    for (size_t i = 0; i < sizeof nb / sizeof nb[0]; i++) {
        for (int enc = 0; enc < 2; enc++) {
            uint8_t k[32], v[16], src[130], want[130], got[130];
            size_t nbytes = (nb[i] + 7) / 8;
            test_rand_bytes(k, klen);
            test_rand_bytes(v, 16);
            test_rand_bytes(src, nbytes);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            EVP_EncryptInit_ex(x, ec, NULL, k, NULL);
            EVP_CIPHER_CTX_set_padding(x, 0);
            cfb1_ref(x, enc, v, src, want, nb[i]);
            EVP_CIPHER_CTX_free(x);
            hwc_ctx *ctx = hwc_ctx_new();
            int rc = hwc_ctx_set_impl(ctx, impl);
            if (rc == 0)
                rc = hwc_init(ctx, c, enc, k, klen, v, 16);
            memset(got, 0xa5, sizeof got);
            if (rc == 0)
                rc = hwc_update_bits(ctx, got, src, nb[i]);
            char what[128];
            snprintf(what, sizeof what, "%s impl=%s update_bits %s nbits=%zu", hwc_cipher_name(c), impl,
                     enc ? "enc" : "dec", nb[i]);
            if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)))
                CHECK_MEM(got, want, nbytes, what);
            hwc_ctx_free(ctx);
        }
    }
    EVP_CIPHER_free(ec);
}

/* hwc_get_iv against EVP_CIPHER_CTX_get_updated_iv after every chunk of a
 * message cut at random points (partial blocks included), and after final,
 * in both directions (CBC without padding, as EVP callers that continue a
 * chain use it). */
static void diff_updated_iv(const oracle *o, const hwc_cipher *c, const char *impl) {
    if (o->built || !o->ec)
        return; /* only against OpenSSL's own mode */
    size_t klen = hwc_cipher_key_len(c);
    int cbc = hwc_cipher_mode(c) == HWC_MODE_CBC;
    for (int trial = 0; trial < 24; trial++) {
        int enc = trial & 1;
        uint8_t k[32], v[16], src[300], dst[300 + 32], ref[300 + 32], hiv[16], oiv[16];
        size_t total = cbc ? 16 * (test_rand() % 18) : test_rand() % 290;
        test_rand_bytes(k, klen);
        test_rand_bytes(v, 16);
        test_rand_bytes(src, total);
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        hwc_ctx *ctx = hwc_ctx_new();
        int rc = hwc_ctx_set_impl(ctx, impl);
        if (!rc)
            rc = hwc_init(ctx, c, enc, k, klen, v, 16);
        if (!rc && cbc)
            rc = hwc_set_padding(ctx, 0);
        char what[160];
        snprintf(what, sizeof what, "%s impl=%s %s len=%zu: updated IV", hwc_cipher_name(c), impl,
                 enc ? "enc" : "dec", total);
        if (!CHECKF(rc == 0 && x && EVP_CipherInit_ex(x, o->ec, NULL, k, v, enc) == 1, "%s: setup (rc %d)", what, rc))
            goto next;
        EVP_CIPHER_CTX_set_padding(x, 0);
        for (size_t done = 0, step = 0; done < total || step == 0; step++) {
            size_t n = test_rand() % 40, hn = 0;
            int on = 0;
            if (n > total - done)
                n = total - done;
            rc = hwc_update(ctx, dst, &hn, src + done, n);
            int ok = EVP_CipherUpdate(x, ref, &on, src + done, (int)n);
            done += n;
            if (!CHECKF(rc == 0 && ok == 1 && hn == (size_t)on, "%s: update at %zu", what, done) ||
                !CHECKF(hwc_get_iv(ctx, hiv, 16) == 0 && EVP_CIPHER_CTX_get_updated_iv(x, oiv, 16) == 1,
                        "%s: get", what) ||
                !CHECK_MEM(hiv, oiv, 16, what))
                goto next;
        }
        size_t hn = 0;
        int on = 0;
        if (CHECKF(hwc_final(ctx, dst, &hn) == 0 && EVP_CipherFinal_ex(x, ref, &on) == 1, "%s: final", what) &&
            CHECKF(hwc_get_iv(ctx, hiv, 16) == 0 && EVP_CIPHER_CTX_get_updated_iv(x, oiv, 16) == 1,
                   "%s: get after final", what))
            CHECK_MEM(hiv, oiv, 16, what);
    next:
        EVP_CIPHER_CTX_free(x);
        hwc_ctx_free(ctx);
    }
}

static void diff_aead(const oracle *o, const hwc_cipher *c, const char *impl) {
    hwc_mode m = hwc_cipher_mode(c);
    size_t defiv = hwc_cipher_iv_len(c), deftag = hwc_cipher_tag_len(c);
    req r;
    /* All lengths at the default nonce and tag sizes, AAD lengths cycling. */
    for (size_t i = 0; i < nlens; i++) {
        size_t n = lens[i];
        rand_req(&r, c, impl, n, defiv, aad_cycle[i % NAAD_CYCLE], deftag);
        r.oneshot = (int)(i & 1);
        compare(o, &r, 0);
    }
    /* Every allowed nonce length. */
    size_t ivs[128], niv = 0;
    if (m == HWC_MODE_GCM) {
        for (size_t v = 1; v <= 64; v++)
            ivs[niv++] = v;
        ivs[niv++] = 80;
        ivs[niv++] = 100;
        ivs[niv++] = 128; /* OpenSSL's GCM takes at most 128 bytes of IV */
    } else if (m == HWC_MODE_CCM) {
        for (size_t v = 7; v <= 13; v++)
            ivs[niv++] = v;
    } else if (m == HWC_MODE_OCB) {
        for (size_t v = 1; v <= 15; v++)
            ivs[niv++] = v;
    } else if (m == HWC_MODE_SIV) {
        ivs[niv++] = 0;
        ivs[niv++] = 1;
        ivs[niv++] = 12;
        ivs[niv++] = 16;
        ivs[niv++] = 17;
        ivs[niv++] = 64;
    }
    static const size_t short_lens[] = {0, 1, 15, 16, 17, 64, 100};
    for (size_t v = 0; v < niv; v++)
        for (size_t j = 0; j < sizeof short_lens / sizeof short_lens[0]; j++) {
            if (!sweep_keeps(v, niv, ivs[v]))
                break;
            rand_req(&r, c, impl, short_lens[j], ivs[v], (j % 3) * 13, deftag);
            r.oneshot = (int)(j & 1);
            compare(o, &r, 0);
        }
    /* Every allowed tag length. */
    size_t tags[16], ntag = 0;
    if (m == HWC_MODE_GCM) {
        tags[ntag++] = 4;
        tags[ntag++] = 8;
        for (size_t t = 12; t <= 16; t++)
            tags[ntag++] = t;
    } else if (m == HWC_MODE_CCM) {
        for (size_t t = 4; t <= 16; t += 2)
            tags[ntag++] = t;
    } else if (m == HWC_MODE_OCB) {
        for (size_t t = 1; t <= 16; t++)
            tags[ntag++] = t;
    }
    for (size_t t = 0; t < ntag; t++)
        for (size_t j = 0; j < 4; j++) {
            size_t n = (size_t[]){0, 17, 64, 333}[j];
            rand_req(&r, c, impl, n, defiv, j * 7, tags[t]);
            r.oneshot = (int)(j & 1);
            compare(o, &r, 0);
        }
    if (m == HWC_MODE_SIV) {
        /* Several AD components (RFC 5297 vector), with and without nonce. */
        for (int nc = 2; nc <= MAX_AAD; nc++)
            for (int withiv = 0; withiv < 2; withiv++) {
                size_t n = 1 + test_rand() % 200;
                rand_req(&r, c, impl, n, withiv ? 16 : 0, 0, 16);
                for (int k = 0; k < nc; k++) {
                    r.aadlen[k] = 1 + test_rand() % 40;
                    test_rand_bytes(aadbuf[k], r.aadlen[k]);
                    r.aad[k] = aadbuf[k];
                }
                r.naad = nc;
                compare(o, &r, 0);
            }
    }
}

static void diff_mac(const oracle *o, const hwc_cipher *c, const char *impl) {
    hwc_mode m = hwc_cipher_mode(c);
    size_t defiv = hwc_cipher_iv_len(c);
    req r;
    for (size_t i = 0; i < nlens; i++) {
        rand_req(&r, c, impl, lens[i], m == HWC_MODE_GMAC ? defiv : 0, 0, (i % 3 == 2) ? 8 : 16);
        compare(o, &r, 0);
    }
    if (m == HWC_MODE_GMAC)
        for (size_t v = 1; v <= 40; v++) {
            if (!sweep_keeps(v - 1, 40, v))
                continue;
            rand_req(&r, c, impl, v * 3, v, 0, 16);
            compare(o, &r, 0);
        }
}

static void diff_wrap(const oracle *o, const hwc_cipher *c, const char *impl) {
    hwc_mode m = hwc_cipher_mode(c);
    req r;
    size_t ls[128], n = 0;
    if (m == HWC_MODE_KW) {
        for (size_t l = 16; l <= 264; l += 8)
            ls[n++] = l;
        ls[n++] = 1024;
        ls[n++] = 4088;
        ls[n++] = 4096;
    } else {
        for (size_t l = 1; l <= 72; l++)
            ls[n++] = l;
        ls[n++] = 255;
        ls[n++] = 256;
        ls[n++] = 1001;
        ls[n++] = 4095;
        ls[n++] = 4096;
    }
    for (size_t i = 0; i < n; i++) {
        if (!sweep_keeps(i, n, ls[i]))
            continue;
        rand_req(&r, c, impl, ls[i], 0, 0, 0);
        compare(o, &r, 0);
        /* One-shot API (automatic back end) too. */
        size_t hl = 0, ol = 0;
        r.enc = 1;
        if (oracle_do(o, &r, o_out, &ol, NULL)) {
            int rc = hwc_key_wrap(c, r.key, r.klen, r.in, r.inlen, h_out, ROOM, &hl);
            char what[96];
            snprintf(what, sizeof what, "hwc_key_wrap %s len=%zu", hwc_cipher_name(c), r.inlen);
            if (CHECKF(rc == 0 && hl == ol, "%s: rc %d len %zu want %zu", what, rc, hl, ol))
                CHECK_MEM(h_out, o_out, ol, what);
            rc = hwc_key_unwrap(c, r.key, r.klen, o_out, ol, h_out2, ROOM, &hl);
            if (CHECKF(rc == 0 && hl == r.inlen, "hwc_key_unwrap %s: rc %d len %zu", what, rc, hl))
                CHECK_MEM(h_out2, r.in, r.inlen, what);
        }
        /* Tampered wrapped key: both refuse. */
        if (ol >= 16) {
            req d = r;
            memcpy(o_out2, o_out, ol);
            o_out2[test_rand() % ol] ^= 0x40;
            d.enc = 0;
            d.in = o_out2;
            d.inlen = ol;
            size_t hl2 = 0, ol2 = 0;
            CHECKF(!oracle_do(o, &d, h_out, &ol2, NULL), "OpenSSL unwrapped tampered %s", hwc_cipher_name(c));
            int rc = hwc_do(&d, h_out2, &hl2, NULL);
            CHECKF(rc == HWC_ERR_AUTH, "%s impl=%s unwrap tampered len %zu: rc %d (%s)", hwc_cipher_name(c), impl,
                   r.inlen, rc, hwc_strerror(rc));
        }
    }
}

/* ------------------------------------------------------------ driver */

/* Map an hwcrypt cipher to OpenSSL; 0 with *why when OpenSSL lacks it and
 * no reference can be built here. */
static int can_build(const hwc_cipher *c) {
    switch (hwc_cipher_mode(c)) {
    case HWC_MODE_CFB8:
    case HWC_MODE_CFB1:
    case HWC_MODE_GCM:
    case HWC_MODE_GMAC:
    case HWC_MODE_CCM:
    case HWC_MODE_OCB:
        return 1;
    case HWC_MODE_XTS:
        return 1;
    case HWC_MODE_KW:
    case HWC_MODE_KWP:
        return !(hwc_cipher_flags(c) & HWC_CIPHER_INVERSE);
    case HWC_MODE_SIV:
        return mac_cmac != NULL;
    default:
        return 0;
    }
}

static int make_oracle(const hwc_cipher *c, oracle *o, char *why, size_t why_len) {
    const char *name = hwc_cipher_name(c);
    hwc_mode m = hwc_cipher_mode(c);
    int aes = hwc_cipher_family(c) == HWC_FAMILY_AES;
    size_t bkey = hwc_cipher_key_len(c) / ((m == HWC_MODE_SIV || m == HWC_MODE_XTS) ? 2 : 1);
    char ecbname[32];
    memset(o, 0, sizeof *o);
    if (aes) {
        snprintf(ecbname, sizeof ecbname, "AES-%zu-ECB", bkey * 8);
        snprintf(o->cbc_name, sizeof o->cbc_name, "AES-%zu-CBC", bkey * 8);
    } else {
        snprintf(ecbname, sizeof ecbname, "SM4-ECB");
        snprintf(o->cbc_name, sizeof o->cbc_name, "SM4-CBC");
    }
    o->ecb = EVP_CIPHER_fetch(NULL, ecbname, NULL);
    ERR_clear_error();
    if (m == HWC_MODE_CMAC || m == HWC_MODE_GMAC) {
        o->mac = m == HWC_MODE_CMAC ? mac_cmac : mac_gmac;
        if (aes)
            snprintf(o->mac_cipher, sizeof o->mac_cipher, "AES-%zu-%s", bkey * 8, m == HWC_MODE_CMAC ? "CBC" : "GCM");
        else
            snprintf(o->mac_cipher, sizeof o->mac_cipher, "SM4-%s", m == HWC_MODE_CMAC ? "CBC" : "GCM");
        EVP_CIPHER *probe = EVP_CIPHER_fetch(NULL, o->mac_cipher, NULL);
        ERR_clear_error();
        if (o->mac && probe) {
            EVP_CIPHER_free(probe);
            return 1;
        }
        if (o->ecb && can_build(c)) {
            o->built = 1;
            return 1;
        }
        snprintf(why, why_len, "%s: this OpenSSL (%s) has no %s with %s, and no reference is built here", name,
                 OpenSSL_version(OPENSSL_VERSION), m == HWC_MODE_CMAC ? "CMAC" : "GMAC", o->mac_cipher);
        return 0;
    }
    char oname[64];
    snprintf(oname, sizeof oname, "%s", name);
    if (hwc_cipher_flags(c) & HWC_CIPHER_XTS_GB) {
        snprintf(oname, sizeof oname, "sm4-xts");
        o->xts_gb = 1;
    }
    /* hwcrypt's sm4-xts is IEEE 1619 and sm4-xts-gb is GB/T 17964; OpenSSL's
     * SM4-XTS defaults to GB, so always say which. */
    if (m == HWC_MODE_XTS && !aes)
        o->xts_std = o->xts_gb ? "GB" : "IEEE";
    o->ec = EVP_CIPHER_fetch(NULL, oname, NULL);
    ERR_clear_error();
    if (o->ec && o->xts_std) {
        /* Probe the tweak-standard option (OpenSSL 3.2+). */
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string("xts_standard", (char *)o->xts_std, 0),
                           OSSL_PARAM_construct_end()};
        int ok = x && EVP_CipherInit_ex(x, o->ec, NULL, NULL, NULL, 1) && EVP_CIPHER_CTX_set_params(x, p);
        EVP_CIPHER_CTX_free(x);
        ERR_clear_error();
        if (!ok) {
            EVP_CIPHER_free(o->ec);
            o->ec = NULL;
        }
    }
    if (o->ec)
        return 1;
    if (o->ecb && can_build(c)) {
        o->built = 1;
        return 1;
    }
    snprintf(why, why_len, "this OpenSSL (%s) has no %s%s%s, and no reference is built here",
             OpenSSL_version(OPENSSL_VERSION), oname, o->xts_std ? " with xts_standard=" : "",
             o->xts_std ? o->xts_std : "");
    EVP_CIPHER_free(o->ecb);
    o->ecb = NULL;
    return 0;
}

/* The references built here are only worth something if they agree with
 * OpenSSL where OpenSSL has the mode: check them on the AES ciphers. */
static void check_built_references(void) {
    static const char *names[] = {"aes-128-cfb8", "aes-192-cfb1", "aes-128-gcm", "aes-256-gcm", "aes-128-ccm",
                                  "aes-256-ccm",  "aes-128-siv",  "aes-256-siv", "aes-128-wrap", "aes-256-wrap",
                                  "aes-128-wrap-pad", "aes-192-wrap-pad", "aes-128-gmac", "aes-256-gmac", "aes-128-ocb", "aes-192-ocb", "aes-128-xts", "aes-256-xts"};
    static const size_t ls[] = {0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 64, 100, 257, 1000};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const hwc_cipher *c = hwc_cipher_by_name(names[i]);
        oracle o;
        char why[192];
        if (!c || !make_oracle(c, &o, why, sizeof why) || o.built || !o.ecb) {
            test_skip(names[i], "reference self-check: no OpenSSL oracle");
            continue;
        }
        hwc_mode m = hwc_cipher_mode(c);
        for (size_t j = 0; j < sizeof ls / sizeof ls[0]; j++) {
            size_t n = ls[j], ivl = hwc_cipher_iv_len(c), tl = hwc_cipher_tag_len(c);
            if ((m == HWC_MODE_KW && (n < 16 || n % 8)) || (m == HWC_MODE_KWP && n == 0) || (m == HWC_MODE_SIV && n == 0) ||
                (m == HWC_MODE_XTS && n < 16))
                continue;
            if (m == HWC_MODE_GCM || m == HWC_MODE_GMAC)
                ivl = j % 3 == 0 ? 12 : 1 + j * 3;
            if (m == HWC_MODE_CCM) {
                ivl = 7 + j % 7;
                tl = 4 + 2 * (j % 7);
            }
            if (m == HWC_MODE_SIV)
                ivl = j % 2 ? 16 : 0;
            if (m == HWC_MODE_OCB) {
                ivl = 1 + j % 15;
                tl = 1 + (j * 5) % 16;
            }
            req r;
            rand_req(&r, c, NULL, n, ivl, (hwc_cipher_flags(c) & HWC_CIPHER_AEAD) ? (j * 13) % 70 : 0, tl ? tl : 16);
            for (int enc = 1; enc >= 0; enc--) {
                size_t ol = 0, bl = 0;
                r.enc = enc;
                if (!enc && m == HWC_MODE_GMAC)
                    break;
                int okr = ossl_do(&o, &r, o_out, &ol, o_tag);
                int okb = built_do(&o, &r, h_out, &bl, h_tag);
                char what[96];
                snprintf(what, sizeof what, "reference self-check %s %s len=%zu", names[i], enc ? "enc" : "dec", n);
                if (enc) {
                    CHECKF(okr && okb && ol == bl, "%s: OpenSSL %d ref %d, lengths %zu %zu", what, okr, okb, ol, bl);
                    CHECK_MEM(h_out, o_out, ol, what);
                    if (is_tagged(c))
                        CHECK_MEM(h_tag, o_tag, r.taglen, what);
                    /* Then decrypt OpenSSL's output with the reference. */
                    memcpy(in + MAXLEN / 2, o_out, ol);
                    memcpy(o_tag2, o_tag, 16);
                    r.in = in + MAXLEN / 2;
                    r.inlen = ol;
                    r.tagin = o_tag2;
                } else {
                    CHECKF(okr && okb && ol == bl, "%s: OpenSSL %d ref %d, lengths %zu %zu", what, okr, okb, ol, bl);
                    CHECK_MEM(h_out, o_out, ol, what);
                }
            }
        }
        EVP_CIPHER_free(o.ec);
        EVP_CIPHER_free(o.ecb);
    }
}

/* The SM4-XTS references against the published vectors (GB/T 17964-2021 and
 * its IEEE 1619 counterpart, as in OpenSSL's test/recipes/30-test_evp_data/
 * evpciph_sm4.txt), since this OpenSSL may have no SM4-XTS to compare with. */
static void check_xts_references(void) {
    static const struct {
        int gb;
        const char *ct;
    } v[] = {{1, "E9538251C71D7B80BBE4483FEF497BD12C5C581BD6242FC51E08964FB4F60FDB0BA42F63499279213D318D2C11F6886E903BE7F93A1B3479"},
             {0, "E9538251C71D7B80BBE4483FEF497BD1B3DB1A3E60408C575D63FF7DB39F83260869F9E2585FEC9F0B863BF8FD784B8627D16C0DB6D2CFC7"}};
    const char *keyhex = "2B7E151628AED2A6ABF7158809CF4F3C000102030405060708090A0B0C0D0E0F";
    const char *ivhex = "F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF";
    const char *pthex = "6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17";
    EVP_CIPHER *ecb = EVP_CIPHER_fetch(NULL, "SM4-ECB", NULL);
    ERR_clear_error();
    if (!ecb) {
        test_skip("SM4-XTS reference self-check", "this OpenSSL has no SM4-ECB");
        return;
    }
    size_t kl, il, pl, cl;
    uint8_t *k = test_unhex(keyhex, &kl), *v16 = test_unhex(ivhex, &il), *p = test_unhex(pthex, &pl);
    for (int i = 0; i < 2; i++) {
        uint8_t *want = test_unhex(v[i].ct, &cl), got[64], back[64];
        bref b1 = {NULL, NULL}, b2 = {NULL, NULL};
        if (bref_init(&b1, ecb, k) && bref_init(&b2, ecb, k + 16)) {
            xts_ref(&b1, &b2, v[i].gb, 1, v16, p, got, pl);
            CHECK_MEM(got, want, cl, v[i].gb ? "SM4-XTS GB reference vs GB/T 17964 vector" : "SM4-XTS IEEE reference vs vector");
            xts_ref(&b1, &b2, v[i].gb, 0, v16, want, back, cl);
            CHECK_MEM(back, p, pl, "SM4-XTS reference decrypts the vector");
        }
        bref_free(&b1);
        bref_free(&b2);
        free(want);
    }
    free(k);
    free(v16);
    free(p);
    EVP_CIPHER_free(ecb);
}

/* Every cipher name the library must know (the brief's list). */
static void check_names(void) {
    static const char *modes[] = {"ecb", "cbc", "cfb", "cfb8", "cfb1", "ofb", "ctr", "gcm", "ccm", "ocb", "siv",
                                  "wrap", "wrap-pad", "cmac", "gmac"};
    char name[40];
    for (int k = 128; k <= 256; k += 64)
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            snprintf(name, sizeof name, "aes-%d-%s", k, modes[i]);
            CHECKF(hwc_cipher_by_name(name) != NULL, "cipher %s missing", name);
        }
    static const char *more[] = {"aes-128-xts", "aes-256-xts", "aes-128-gcm-siv", "aes-256-gcm-siv", "sm4-xts"};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        CHECKF(hwc_cipher_by_name(more[i]) != NULL, "cipher %s missing", more[i]);
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        snprintf(name, sizeof name, "sm4-%s", modes[i]);
        CHECKF(hwc_cipher_by_name(name) != NULL, "cipher %s missing", name);
    }
}

int main(void) {
    int fams[2] = {HWC_FAMILY_AES, HWC_FAMILY_SM4};
    printf("test_diff_openssl: oracle %s\n", OpenSSL_version(OPENSSL_VERSION));
    check_names();
    build_lengths();
    mac_cmac = EVP_MAC_fetch(NULL, "CMAC", NULL);
    mac_gmac = EVP_MAC_fetch(NULL, "GMAC", NULL);
    ERR_clear_error();
    check_built_references();
    check_xts_references();
    for (int f = 0; f < 2; f++) {
        int fi = fams[f];
        test_each_impl((hwc_family)fi, collect_impl, &fi);
    }
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        hwc_family fam = hwc_cipher_family(c);
        hwc_mode m = hwc_cipher_mode(c);
        oracle o;
        char why[192];
        if (!make_oracle(c, &o, why, sizeof why)) {
            char what[96];
            snprintf(what, sizeof what, "%s vs OpenSSL", hwc_cipher_name(c));
            test_skip(what, why);
            continue;
        }
        unsigned long failed_before = test_failed;
        for (int k = 0; k < nimpls[fam]; k++) {
            const char *impl = impls[fam][k];
            switch (m) {
            case HWC_MODE_GCM:
            case HWC_MODE_CCM:
            case HWC_MODE_OCB:
            case HWC_MODE_SIV:
            case HWC_MODE_GCM_SIV:
                diff_aead(&o, c, impl);
                break;
            case HWC_MODE_CMAC:
            case HWC_MODE_GMAC:
                diff_mac(&o, c, impl);
                break;
            case HWC_MODE_KW:
            case HWC_MODE_KWP:
                diff_wrap(&o, c, impl);
                break;
            case HWC_MODE_CFB1:
                diff_plain(&o, c, impl);
                diff_cfb1_bits(c, impl);
                diff_updated_iv(&o, c, impl);
                break;
            case HWC_MODE_CBC:
            case HWC_MODE_CFB128:
            case HWC_MODE_CFB8:
            case HWC_MODE_OFB:
            case HWC_MODE_CTR:
                diff_plain(&o, c, impl);
                diff_updated_iv(&o, c, impl);
                break;
            default:
                diff_plain(&o, c, impl);
                break;
            }
        }
        printf("%-20s %s (%d back end%s of %s)%s\n", hwc_cipher_name(c),
               test_failed == failed_before ? "ok" : "FAILED", nimpls[fam], nimpls[fam] == 1 ? "" : "s",
               family_str(fam), o.built ? " vs a reference built on OpenSSL's block cipher" : "");
        EVP_CIPHER_free(o.ec);
        EVP_CIPHER_free(o.ecb);
    }
    EVP_MAC_free(mac_cmac);
    EVP_MAC_free(mac_gmac);
    return test_summary("test_diff_openssl");
}

#endif
