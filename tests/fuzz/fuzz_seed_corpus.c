/* Writes the seed corpus of the fuzz targets from the known-answer vectors.
 *
 *   fuzz_seed_corpus OUTDIR
 *
 * OUTDIR/cases/  inputs in the case format of tests/fuzz/fuzz_common.h
 *                (fuzz_cipher_diff, fuzz_openssl_diff, fuzz_aead_tamper):
 *                a sample of the records of the vector files below, and for
 *                every cipher of the table a few messages of default lengths,
 *                so every cipher and mode is in the corpus;
 * OUTDIR/programs/  call sequences for fuzz_api_misuse, per cipher: init,
 *                tag length, AAD, updates, final, tag, then decryption.
 * Vectors are data here, not checks (the KATs check them): a record that
 * does not fit the format is skipped.  Prints the number of files written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"
#include "vecfile.h"

/* Linked into the ctest replays (tests/fuzz.cmake), which write their own
 * seeds first: there main() is fz_seed_corpus_main(). */
#ifdef FZ_SEED_CORPUS_EMBEDDED
int fz_seed_corpus_main(int argc, char **argv);
#define main fz_seed_corpus_main
#endif

#define PER_FILE 6 /* records taken from each vector file */

static const char *outdir;
static unsigned long written;

static size_t cipher_index(const char *name) {
    const hwc_cipher *c = hwc_cipher_by_name(name);
    for (size_t i = 0; c && i < hwc_cipher_count(); i++)
        if (hwc_cipher_at(i) == c)
            return i;
    return SIZE_MAX;
}

typedef struct out {
    uint8_t b[16384];
    size_t n;
} out;
static void put(out *o, const void *p, size_t n) {
    if (n && p && o->n + n <= sizeof o->b) {
        memcpy(o->b + o->n, p, n);
        o->n += n;
    }
}
static void put8(out *o, unsigned v) {
    uint8_t b = (uint8_t)v;
    put(o, &b, 1);
}
static void put16(out *o, size_t v) {
    put8(o, v & 0xff);
    put8(o, (v >> 8) & 0xff);
}

static void write_file(const char *sub, const out *o) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s/seed-%05lu", outdir, sub, written);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(o->b, 1, o->n, f) != o->n || fclose(f) != 0) {
        fprintf(stderr, "fuzz_seed_corpus: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    written++;
}

/* One case; lengths other than the cipher's defaults are written as
 * explicit selectors (valid ones too). */
static void emit_case(const char *name, unsigned flags, const uint8_t *key, size_t klen, const uint8_t *iv,
                      size_t ivlen, const uint8_t *aad, size_t aadlen, size_t tag_len, const uint8_t *tag,
                      const uint8_t *data, size_t dlen) {
    size_t idx = cipher_index(name);
    const hwc_cipher *c = hwc_cipher_at(idx);
    if (!c || klen > 0x3f || ivlen > 0x7f || tag_len > 0x1f || aadlen > FZ_MAX_AAD || dlen > FZ_MAX_DATA)
        return;
    size_t def_tag = hwc_cipher_tag_len(c) ? hwc_cipher_tag_len(c) : 16;
    out o = {.n = 0};
    put8(&o, (unsigned)idx);
    put8(&o, flags);
    put8(&o, klen == hwc_cipher_key_len(c) ? 0 : 0xc0 | (unsigned)klen);
    put8(&o, ivlen == hwc_cipher_iv_len(c) ? 0 : 0x80 | (unsigned)ivlen);
    put8(&o, tag_len == def_tag ? 0 : 0x80 | (unsigned)tag_len);
    put16(&o, aadlen);
    put16(&o, aadlen / 2);
    put16(&o, dlen);
    put8(&o, 2); /* two split points: thirds */
    put16(&o, dlen / 3);
    put16(&o, 2 * dlen / 3);
    uint8_t tamper[4] = {(uint8_t)(written % 5), (uint8_t)written, 0, 0x80};
    put(&o, tamper, 4);
    uint8_t tag32[FZ_MAX_TAG] = {0};
    if (tag)
        memcpy(tag32, tag, tag_len < sizeof tag32 ? tag_len : sizeof tag32);
    put(&o, tag32, sizeof tag32);
    put(&o, key, klen);
    put(&o, iv, ivlen);
    put(&o, aad, aadlen);
    put(&o, data, dlen);
    write_file("cases", &o);
}

static vec_file *load(const char *rel, vec_format fmt) {
    vec_file *f = vec_load(rel, fmt);
    if (!f)
        fprintf(stderr, "fuzz_seed_corpus: %s not readable, skipped\n", rel);
    return f;
}

/* Records spread over the file: the first few and some further on. */
static int pick(const vec_file *f, size_t i) { return i < PER_FILE / 2 || i % (f->nrec / (PER_FILE / 2) + 1) == 0; }

#define GET(r, name, len) vec_bytes(r, name, len)

/* CAVP KAT/MMT: KEY IV PLAINTEXT in [ENCRYPT] sections. */
static void cavp_block(const char *rel, const char *cipher, unsigned flags) {
    vec_file *f = load(rel, VEC_CAVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        if (!pick(f, i) || !r->section || strcmp(r->section, "ENCRYPT") != 0)
            continue;
        size_t kl, il = 0, pl;
        const uint8_t *k = GET(r, "KEY", &kl), *p = GET(r, "PLAINTEXT", &pl);
        const uint8_t *iv = vec_get(r, "IV") ? GET(r, "IV", &il) : NULL;
        if (k && p)
            emit_case(cipher, flags, k, kl, iv, il, NULL, 0, 16, NULL, p, pl);
    }
    vec_free(f);
}

static void gcm(const char *rel, const char *cipher) {
    vec_file *f = load(rel, VEC_CAVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        if (!pick(f, i))
            continue;
        size_t kl, il, al, pl, tl;
        const uint8_t *k = GET(r, "Key", &kl), *iv = GET(r, "IV", &il), *a = GET(r, "AAD", &al),
                      *p = GET(r, "PT", &pl), *t = GET(r, "Tag", &tl);
        if (k && iv && a && p && t)
            emit_case(pl ? cipher : (kl == 16 ? "aes-128-gmac" : kl == 24 ? "aes-192-gmac" : "aes-256-gmac"), 0, k,
                      kl, iv, il, a, al, tl, t, pl ? p : a, pl ? pl : al);
    }
    vec_free(f);
}

static void ccm(const char *rel, const char *cipher) {
    vec_file *f = load(rel, VEC_CAVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        if (!pick(f, i))
            continue;
        size_t kl, nl, al, pl;
        const uint8_t *k = GET(r, "Key", &kl), *n = GET(r, "Nonce", &nl), *a = GET(r, "Adata", &al),
                      *p = GET(r, "Payload", &pl);
        long long alen = vec_int(r, "Alen", -1), plen = vec_int(r, "Plen", -1), tlen = vec_int(r, "Tlen", 16);
        if (k && n && a && p && alen >= 0 && plen >= 0)
            emit_case(cipher, 0, k, kl, n, nl, a, (size_t)alen, (size_t)tlen, NULL, p, (size_t)plen);
    }
    vec_free(f);
}

static void xts(const char *rel, const char *cipher) {
    vec_file *f = load(rel, VEC_CAVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        if (!pick(f, i) || !r->section || strcmp(r->section, "ENCRYPT") != 0 || vec_int(r, "DataUnitLen", 1) % 8)
            continue;
        size_t kl, il, pl;
        const uint8_t *k = GET(r, "Key", &kl), *iv = GET(r, "i", &il), *p = GET(r, "PT", &pl);
        if (k && iv && p)
            emit_case(cipher, 0, k, kl, iv, il, NULL, 0, 16, NULL, p, pl);
    }
    vec_free(f);
}

static void cmac(const char *rel, const char *cipher) {
    vec_file *f = load(rel, VEC_CAVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        if (!pick(f, i))
            continue;
        size_t kl, ml, tl;
        const uint8_t *k = GET(r, "Key", &kl), *m = GET(r, "Msg", &ml), *t = GET(r, "Mac", &tl);
        long long mlen = vec_int(r, "Mlen", -1);
        if (k && m && t && mlen >= 0)
            emit_case(cipher, 0, k, kl, NULL, 0, NULL, 0, tl, t, m, (size_t)mlen);
    }
    vec_free(f);
}

static void kw(const char *rel, const char *cipher) {
    vec_file *f = load(rel, VEC_CAVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        if (!pick(f, i))
            continue;
        size_t kl, pl;
        const uint8_t *k = GET(r, "K", &kl), *p = GET(r, "P", &pl);
        if (k && p)
            emit_case(cipher, 0, k, kl, NULL, 0, NULL, 0, 16, NULL, p, pl);
    }
    vec_free(f);
}

/* OpenSSL evp_test files: Cipher = name, Key, IV, AAD, Tag, Plaintext. */
static void evp(const char *rel) {
    vec_file *f = load(rel, VEC_EVP);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        const char *name = vec_get(r, "Cipher");
        if (!name || !hwc_cipher_by_name(name))
            continue;
        size_t kl, il = 0, al = 0, tl = 16, pl;
        const uint8_t *k = GET(r, "Key", &kl), *p = GET(r, "Plaintext", &pl);
        const uint8_t *iv = vec_get(r, "IV") ? GET(r, "IV", &il) : NULL;
        const uint8_t *a = vec_get(r, "AAD") ? GET(r, "AAD", &al) : NULL;
        const uint8_t *t = vec_get(r, "Tag") ? GET(r, "Tag", &tl) : NULL;
        char lower[64];
        size_t j;
        for (j = 0; name[j] && j + 1 < sizeof lower; j++)
            lower[j] = (char)(name[j] >= 'A' && name[j] <= 'Z' ? name[j] - 'A' + 'a' : name[j]);
        lower[j] = 0;
        if (k && p)
            emit_case(hwc_cipher_name(hwc_cipher_by_name(lower)), FZ_F_NO_PADDING, k, kl, iv, il, a, al,
                      t ? tl : 16, t, p, pl);
    }
    vec_free(f);
}

static void gcm_siv(const char *rel, const char *cipher) {
    vec_file *f = load(rel, VEC_BORINGSSL);
    for (size_t i = 0; f && i < f->nrec; i++) {
        const vec_record *r = &f->rec[i];
        size_t kl, nl, al, pl, tl;
        const uint8_t *k = GET(r, "KEY", &kl), *n = GET(r, "NONCE", &nl), *a = GET(r, "AD", &al),
                      *p = GET(r, "IN", &pl), *t = GET(r, "TAG", &tl);
        if (k && n && a && p && t && pick(f, i))
            emit_case(cipher, 0, k, kl, n, nl, a, al, tl, t, p, pl);
    }
    vec_free(f);
}

/* Every cipher: default lengths, a few message sizes around block and
 * batch boundaries, encryption plus raw decryption. */
static void synthetic(void) {
    static const size_t lens[] = {0, 1, 15, 16, 17, 64, 255, 520};
    uint8_t key[64], iv[16], aad[40], data[600]; /* data: room for KW rounding up 520 */
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(0x40 + i * 13);
    for (size_t i = 0; i < sizeof iv; i++)
        iv[i] = (uint8_t)(0xf0 + i);
    for (size_t i = 0; i < sizeof aad; i++)
        aad[i] = (uint8_t)(0xa0 ^ i);
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        for (size_t j = 0; j < sizeof lens / sizeof lens[0]; j++) {
            size_t n = lens[j];
            if (fz_is_wrap(c) && hwc_cipher_mode(c) == HWC_MODE_KW)
                n = (n + 16) / 8 * 8;
            unsigned flags = (j & 1) ? FZ_F_DECRYPT_RAW : 0;
            if (hwc_cipher_flags(c) & HWC_CIPHER_PADDING)
                flags |= (j & 2) ? FZ_F_NO_PADDING : 0;
            if (j == 3)
                flags |= FZ_F_IN_PLACE;
            flags |= (unsigned)(j % 4) << FZ_F_IMPL_SHIFT;
            size_t tl = hwc_cipher_tag_len(c) ? hwc_cipher_tag_len(c) : 16;
            emit_case(hwc_cipher_name(c), flags, key, hwc_cipher_key_len(c), iv, hwc_cipher_iv_len(c), aad,
                      fz_is_aead(c) ? (j * 5) % sizeof aad : 0, tl, NULL, data, n);
        }
    }
}

/* fuzz_api_misuse programs (its draw(): code, arg, cipher, key/iv/tag
 * selectors (0: defaults), len u16, len2 u16 [, extra]). */
static void prog_sel(out *o, unsigned code, unsigned arg, unsigned cipher, unsigned ks, unsigned is, unsigned ts,
                     size_t len, size_t len2) {
    put8(o, code);
    put8(o, arg);
    put8(o, cipher);
    put8(o, ks);
    put8(o, is);
    put8(o, ts);
    put16(o, len);
    put16(o, len2);
    if (code == 8)
        put16(o, len * 8 + 3);
    if (code == 3)
        put8(o, 0);
}
static void prog_op(out *o, unsigned code, unsigned arg, unsigned cipher, size_t len, size_t len2) {
    prog_sel(o, code, arg, cipher, 0, 0, 0, len, len2);
}
#define HUGE16 0xffff /* draw() reads it as SIZE_MAX */
#define HUGE8 0xff    /* a key, IV or tag selector near SIZE_MAX */

/* SIV, GCM-SIV decryption streamed after hwc_set_lengths: AAD, pieces, an
 * empty update, final; then data before the declared AAD, and set_lengths
 * on an encrypting context. */
static void siv_stream_program(unsigned ci) {
    out o = {.n = 0};
    unsigned enc = 4, dec = 0, keep = 0xff;
    prog_op(&o, 0, dec, ci, 0, 0);
    prog_op(&o, 4, 0, keep, 0, 0);
    prog_op(&o, 3, 0, keep, 33, 20); /* AAD 20, message 33 */
    prog_op(&o, 6, 0, keep, 20, 0);
    prog_op(&o, 7, 0, keep, 17, 0);
    prog_op(&o, 7, 1, keep, 16, 0); /* completes it, in place */
    prog_op(&o, 7, 0, keep, 0, 0);
    prog_op(&o, 9, 0, keep, 0, 0);
    prog_op(&o, 0, dec, keep, 0, 0);
    prog_op(&o, 4, 0, keep, 0, 0);
    prog_op(&o, 3, 0, keep, 33, 20);
    prog_op(&o, 7, 0, keep, 17, 0); /* the AAD has not come */
    prog_op(&o, 6, 0, keep, 21, 0); /* more AAD than declared */
    prog_op(&o, 0, enc, keep, 0, 0);
    prog_op(&o, 3, 0, keep, 33, 20);
    write_file("programs", &o);
}

/* Lengths near SIZE_MAX to every call that takes one. */
static void huge_program(unsigned ci) {
    out o = {.n = 0};
    unsigned enc = 4, dec = 0, keep = 0xff;
    prog_sel(&o, 0, enc, ci, HUGE8, 0, 0, 0, 0);
    prog_sel(&o, 0, enc, ci, 0, HUGE8, 0, 0, 0);
    prog_op(&o, 0, enc, ci, 0, 0);
    prog_sel(&o, 2, 0, keep, 0, 0, HUGE8, 0, 0);
    prog_op(&o, 6, 0, keep, HUGE16, 0);
    prog_op(&o, 7, 0, keep, HUGE16, 0);
    prog_op(&o, 7, 2, keep, HUGE16, 0);
    prog_op(&o, 8, 0, keep, 0, 0);
    o.n -= 2;
    put16(&o, HUGE16); /* update_bits: nbits near SIZE_MAX */
    prog_sel(&o, 10, 0, keep, 0, HUGE8, 0, 16, 0);
    prog_op(&o, 10, 0, keep, HUGE16, 0);
    prog_op(&o, 11, 0, keep, 16, HUGE16);
    prog_sel(&o, 11, 0, keep, 0, 0, HUGE8, 16, 0);
    prog_op(&o, 14, 0, keep, HUGE16, 40);
    prog_op(&o, 14, 0, keep, 32, HUGE16);
    prog_op(&o, 15, 0, keep, 40, HUGE16);
    prog_sel(&o, 12, 0, keep, 0, 0, HUGE8, 0, 0);
    prog_sel(&o, 13, 0, keep, 0, 0, HUGE8, 0, 0);
    prog_op(&o, 0, dec, keep, 0, 0);
    prog_sel(&o, 4, 0, keep, 0, 0, HUGE8, 0, 0);
    prog_sel(&o, 5, 0, keep, 0, 0, HUGE8, 0, 0);
    write_file("programs", &o);
}

static void programs(void) {
    for (size_t ci = 0; ci < hwc_cipher_count() && ci < 255; ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        out o = {.n = 0};
        unsigned enc = 4, dec = 0, keep = 0xff;
        size_t mlen = 33;
        if (fz_is_wrap(c)) {
            prog_op(&o, 0, enc, (unsigned)ci, 0, 0);
            prog_op(&o, 14, 0, keep, 32, 40);
            prog_op(&o, 15, 0, keep, 40, 32);
            prog_op(&o, 14, 0, keep, 24, 16); /* output too small */
        } else if (fz_is_mac(c)) {
            prog_op(&o, 0, enc, (unsigned)ci, 0, 0);
            prog_op(&o, 6, 0, keep, 20, 0);
            prog_op(&o, 6, 0, keep, 13, 0);
            prog_op(&o, 12, 0, keep, 0, 0);
            prog_op(&o, 13, 0, keep, 0, 0);
        } else {
            prog_op(&o, 0, enc, (unsigned)ci, 0, 0);
            if (hwc_cipher_mode(c) == HWC_MODE_CCM)
                prog_op(&o, 3, 0, keep, mlen, 20);
            if (fz_is_aead(c)) {
                prog_op(&o, 2, 0, keep, 0, 0);
                prog_op(&o, 6, 0, keep, 20, 0);
            }
            prog_op(&o, 7, 0, keep, (hwc_cipher_flags(c) & HWC_CIPHER_ONE_SHOT) ? mlen : 17, 0);
            if (!(hwc_cipher_flags(c) & HWC_CIPHER_ONE_SHOT))
                prog_op(&o, 7, 1, keep, mlen - 17, 0);
            prog_op(&o, 9, 0, keep, 0, 0);
            if (fz_is_aead(c)) {
                prog_op(&o, 5, 0, keep, 0, 0);
                prog_op(&o, 10, 0, keep, mlen, 20);
                prog_op(&o, 11, 0, keep, mlen, 20);
            }
            if (hwc_cipher_mode(c) == HWC_MODE_CFB1)
                prog_op(&o, 8, 0, keep, 5, 0);
            prog_op(&o, 0, dec, keep, 0, 0);
            prog_op(&o, 7, 0, keep, mlen, 0);
            prog_op(&o, 9, 0, keep, 0, 0);
        }
        write_file("programs", &o);
        hwc_mode m = hwc_cipher_mode(c);
        if (m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV)
            siv_stream_program((unsigned)ci);
        if (m == HWC_MODE_SIV || m == HWC_MODE_KW || m == HWC_MODE_CFB1 || m == HWC_MODE_CMAC)
            huge_program((unsigned)ci);
    }
}

static void mkdir_p(const char *sub) {
    char path[512];
    snprintf(path, sizeof path, "%s%s%s", outdir, sub ? "/" : "", sub ? sub : "");
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz_seed_corpus: mkdir %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_seed_corpus OUTDIR\n");
        return 2;
    }
    outdir = argv[1];
    mkdir_p(NULL);
    mkdir_p("cases");
    mkdir_p("programs");
    static const char *const bits[] = {"128", "192", "256"};
    static const struct {
        const char *dir, *prefix, *mode;
        unsigned flags;
    } blk[] = {{"ecb", "ECB", "ecb", FZ_F_NO_PADDING}, {"cbc", "CBC", "cbc", FZ_F_NO_PADDING},
               {"cfb128", "CFB128", "cfb", 0},     {"cfb8", "CFB8", "cfb8", 0},
               {"ofb", "OFB", "ofb", 0}};
    char rel[128], name[64];
    for (size_t b = 0; b < 3; b++) {
        for (size_t m = 0; m < sizeof blk / sizeof blk[0]; m++) {
            snprintf(rel, sizeof rel, "aes/%s/%sMMT%s.rsp", blk[m].dir, blk[m].prefix, bits[b]);
            snprintf(name, sizeof name, "aes-%s-%s", bits[b], blk[m].mode);
            cavp_block(rel, name, blk[m].flags);
        }
        snprintf(rel, sizeof rel, "aes/gcm/gcmEncryptExtIV%s.rsp", bits[b]);
        snprintf(name, sizeof name, "aes-%s-gcm", bits[b]);
        gcm(rel, name);
        snprintf(rel, sizeof rel, "aes/ccm/VTT%s.rsp", bits[b]);
        snprintf(name, sizeof name, "aes-%s-ccm", bits[b]);
        ccm(rel, name);
        snprintf(rel, sizeof rel, "aes/ccm/VADT%s.rsp", bits[b]);
        ccm(rel, name);
        snprintf(rel, sizeof rel, "aes/cmac/CMACGenAES%s.rsp", bits[b]);
        snprintf(name, sizeof name, "aes-%s-cmac", bits[b]);
        cmac(rel, name);
        snprintf(rel, sizeof rel, "aes/kw/KW_AE_%s.txt", bits[b]);
        snprintf(name, sizeof name, "aes-%s-wrap", bits[b]);
        kw(rel, name);
        snprintf(rel, sizeof rel, "aes/kw/KWP_AE_%s.txt", bits[b]);
        snprintf(name, sizeof name, "aes-%s-wrap-pad", bits[b]);
        kw(rel, name);
        snprintf(rel, sizeof rel, "aes/kw/KW_AE_%s_inv.txt", bits[b]);
        snprintf(name, sizeof name, "aes-%s-wrap-inv", bits[b]);
        kw(rel, name);
    }
    xts("aes/xts/tweak-128hexstr/XTSGenAES128.rsp", "aes-128-xts");
    xts("aes/xts/tweak-128hexstr/XTSGenAES256.rsp", "aes-256-xts");
    evp("aes/siv/openssl.txt");
    evp("sm4/evpciph_sm4.txt");
    gcm_siv("aes/gcm-siv/aes_128_gcm_siv_tests.txt", "aes-128-gcm-siv");
    gcm_siv("aes/gcm-siv/aes_256_gcm_siv_tests.txt", "aes-256-gcm-siv");
    unsigned long from_vectors = written;
    synthetic();
    unsigned long cases = written;
    programs();
    printf("fuzz_seed_corpus: %lu cases (%lu from vector files, %lu synthetic, every cipher), %lu programs in %s\n",
           cases, from_vectors, cases - from_vectors, written - cases, outdir);
    return from_vectors ? 0 : 1;
}
