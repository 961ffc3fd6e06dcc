/* Known-answer tests for AES XTS, CMAC, GMAC and key wrap:
 *   XTS   NIST XTSVS, tweak as a 128-bit hex string and as a data unit
 *         sequence number (little-endian into 16 bytes); data units whose
 *         length is not a multiple of 8 bits cannot go through a byte API:
 *         they are counted as skipped, never as passed;
 *   CMAC  NIST CMACGen/CMACVer, BoringSSL's trimmed CMACVerAES192, and the
 *         SP 800-38B examples;
 *   GMAC  the GCM records with PTlen = 0, through the gmac ciphers;
 *   KW    SP 800-38F KW/KWP, AE and AD (FAIL records), forward and
 *         inverse-cipher variants.
 * Every record runs on every available AES back end.
 *
 * Usage: test_vec_misc [GROUP]
 *   xts, cmac, gmac, kw (KW_*), kwp (KWP_*); none: all
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vecfile.h"

static const int KEYLENS[] = {128, 192, 256};

/* ----------------------------------------------------------------- XTS */

static int xts_record(vec_case *c) {
    const vec_record *r = c->r;
    long long bits = vec_int(r, "DataUnitLen", -1);
    if (!VCHECK(c, bits > 0))
        return VEC_RAN;
    if (bits % 8)
        return vec_skip(c, "DataUnitLen not a multiple of 8 bits: not expressible through the byte API");
    int enc = r->section && !strcmp(r->section, "ENCRYPT") ? HWC_ENCRYPT : HWC_DECRYPT;
    if (!VCHECK(c, r->section && (!strcmp(r->section, "ENCRYPT") || !strcmp(r->section, "DECRYPT"))))
        return VEC_RAN;
    size_t klen, plen, clen, tlen = 0;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *pt = vec_bytes(r, "PT", &plen), *ct = vec_bytes(r, "CT", &clen);
    uint8_t tweak[16] = {0};
    if (vec_get(r, "i")) {
        const uint8_t *t = vec_bytes(r, "i", &tlen);
        if (!VCHECK(c, t && tlen == 16))
            return VEC_RAN;
        memcpy(tweak, t, 16);
    } else {
        uint64_t seq;
        if (!VCHECK(c, vec_u64(r, "DataUnitSeqNumber", &seq) == 0))
            return VEC_RAN;
        for (int i = 0; i < 8; i++)
            tweak[i] = (uint8_t)(seq >> (8 * i)); /* little-endian, upper bytes zero */
    }
    if (!VCHECK(c, key && pt && ct && plen == clen && plen * 8 == (size_t)bits))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-xts", klen * 4);
    if (ci)
        vec_cipher_kat(c, ci, enc, key, klen, tweak, 16, enc == HWC_ENCRYPT ? pt : ct, enc == HWC_ENCRYPT ? ct : pt,
                       plen, 0);
    return VEC_RAN;
}

/* ---------------------------------------------------------------- CMAC */

typedef struct cmac_names {
    const char *key, *msg, *mac; /* Ver files also have Result = P / F */
} cmac_names;

static int cmac_record(vec_case *c) {
    const cmac_names *nm = c->arg;
    const vec_record *r = c->r;
    hwc_ctx *ctx = c->ctx;
    size_t klen, mlen, tlen;
    const uint8_t *key = vec_bytes(r, nm->key, &klen), *msg = vec_bytes(r, nm->msg, &mlen);
    const uint8_t *mac = vec_bytes(r, nm->mac, &tlen);
    if (!VCHECK(c, key && msg && mac && tlen >= 1 && tlen <= 16))
        return VEC_RAN;
    long long Mlen = vec_int(r, "Mlen", -1), Tlen = vec_int(r, "Tlen", -1);
    if (Mlen == 0)
        mlen = 0; /* "Msg = 00" */
    if (Mlen >= 0 && !VCHECKF(c, mlen == (size_t)Mlen, "message of %zu bytes, Mlen = %lld", mlen, Mlen))
        return VEC_RAN;
    if (Tlen >= 0 && !VCHECK(c, tlen == (size_t)Tlen))
        return VEC_RAN;
    const char *res = vec_get(r, "Result");
    int valid = !res || res[0] == 'P';
    if (res && !VCHECKF(c, res[0] == 'P' || res[0] == 'F', "Result = %s", res))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-cmac", klen * 8);
    if (!ci)
        return VEC_RAN;
    uint8_t tag[16];

    /* one-shot (automatic back end) */
    memset(tag, 0xA5, sizeof tag);
    if (VCHECK_RC(c, hwc_mac(ci, key, klen, NULL, 0, msg, mlen, tag, tlen), HWC_OK))
        VCHECKF(c, (memcmp(tag, mac, tlen) == 0) == valid, "hwc_mac: tag %s the file's (Result %s)",
                memcmp(tag, mac, tlen) ? "differs from" : "equals", valid ? "P" : "F");
    /* context, message in two pieces */
    size_t s = vec_split(r, mlen, 1);
    memset(tag, 0xA5, sizeof tag);
    if (VCHECK_RC(c, hwc_init(ctx, ci, HWC_ENCRYPT, key, klen, NULL, 0), HWC_OK)) {
        VCHECK_RC(c, hwc_aad(ctx, msg, s), HWC_OK);
        VCHECK_RC(c, hwc_aad(ctx, msg + s, mlen - s), HWC_OK);
        VCHECK_RC(c, hwc_mac_final(ctx, tag, tlen), HWC_OK);
        if (valid)
            VCHECK_MEM(c, tag, mac, tlen, "CMAC");
        else
            VCHECKF(c, memcmp(tag, mac, tlen) != 0, "CMAC equals a tag marked F");
    }
    /* verify, same key */
    if (VCHECK_RC(c, hwc_init(ctx, NULL, HWC_ENCRYPT, NULL, 0, NULL, 0), HWC_OK)) {
        s = vec_split(r, mlen, 2);
        VCHECK_RC(c, hwc_aad(ctx, msg, s), HWC_OK);
        VCHECK_RC(c, hwc_aad(ctx, msg + s, mlen - s), HWC_OK);
        VCHECK_RC(c, hwc_mac_verify(ctx, mac, tlen), valid ? HWC_OK : HWC_ERR_AUTH);
    }
    return VEC_RAN;
}

/* ---------------------------------------------------------------- GMAC */

static int gmac_record(vec_case *c) {
    const vec_record *r = c->r;
    hwc_ctx *ctx = c->ctx;
    size_t klen, ivlen, alen, tlen, clen;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *iv = vec_bytes(r, "IV", &ivlen);
    const uint8_t *aad = vec_bytes(r, "AAD", &alen), *tag = vec_bytes(r, "Tag", &tlen);
    const uint8_t *ct = vec_bytes(r, "CT", &clen);
    if (!VCHECK(c, key && iv && aad && tag && ct && clen == 0))
        return VEC_RAN;
    int valid = !vec_has_field(r, "FAIL");
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-gmac", klen * 8);
    if (!ci)
        return VEC_RAN;
    uint8_t out[16];
    memset(out, 0xA5, sizeof out);
    if (VCHECK_RC(c, hwc_mac(ci, key, klen, iv, ivlen, aad, alen, out, tlen), HWC_OK))
        VCHECKF(c, (memcmp(out, tag, tlen) == 0) == valid, "hwc_mac: tag %s the file's (%s record)",
                memcmp(out, tag, tlen) ? "differs from" : "equals", valid ? "valid" : "FAIL");
    size_t s = vec_split(r, alen, 1);
    memset(out, 0xA5, sizeof out);
    if (VCHECK_RC(c, hwc_init(ctx, ci, HWC_ENCRYPT, key, klen, iv, ivlen), HWC_OK)) {
        VCHECK_RC(c, hwc_aad(ctx, aad, s), HWC_OK);
        VCHECK_RC(c, hwc_aad(ctx, aad + s, alen - s), HWC_OK);
        VCHECK_RC(c, hwc_mac_final(ctx, out, tlen), HWC_OK);
        if (valid)
            VCHECK_MEM(c, out, tag, tlen, "GMAC");
        else
            VCHECKF(c, memcmp(out, tag, tlen) != 0, "GMAC equals a FAIL record's tag");
    }
    if (VCHECK_RC(c, hwc_init(ctx, NULL, HWC_DECRYPT, NULL, 0, iv, ivlen), HWC_OK)) {
        s = vec_split(r, alen, 2);
        VCHECK_RC(c, hwc_aad(ctx, aad, s), HWC_OK);
        VCHECK_RC(c, hwc_aad(ctx, aad + s, alen - s), HWC_OK);
        VCHECK_RC(c, hwc_mac_verify(ctx, tag, tlen), valid ? HWC_OK : HWC_ERR_AUTH);
    }
    return VEC_RAN;
}

static int is_gmac(const vec_record *r) {
    return vec_int(r, "PTlen", -1) == 0;
}

/* ------------------------------------------------------------- key wrap */

typedef struct kw_file {
    int pad, inv, ae;
} kw_file;

static int kw_record(vec_case *c) {
    const kw_file *k = c->arg;
    const vec_record *r = c->r;
    hwc_ctx *ctx = c->ctx;
    size_t klen, plen = 0, clen;
    const uint8_t *kek = vec_bytes(r, "K", &klen), *ct = vec_bytes(r, "C", &clen), *pt = NULL;
    int fail = vec_has_field(r, "FAIL");
    if (!fail)
        pt = vec_bytes(r, "P", &plen);
    if (!VCHECK(c, kek && ct && (fail || pt)))
        return VEC_RAN;
    long long bits = vec_int(r, "PLAINTEXT LENGTH", -1);
    if (!fail)
        VCHECKF(c, (long long)plen * 8 == bits, "P of %zu bytes under PLAINTEXT LENGTH = %lld", plen, bits);
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-wrap%s%s", klen * 8, k->pad ? "-pad" : "", k->inv ? "-inv" : "");
    if (!ci)
        return VEC_RAN;
    size_t cap = clen + plen + 16, olen;
    uint8_t *out = malloc(cap);
    if (!VCHECK(c, out != NULL))
        return VEC_RAN;

    if (!fail) {
        /* wrap: context on this back end, then the one-shot function */
        olen = 0;
        memset(out, 0xA5, cap);
        if (VCHECK_RC(c, hwc_init(ctx, ci, HWC_ENCRYPT, kek, klen, NULL, 0), HWC_OK) &&
            VCHECK_RC(c, hwc_ctx_key_wrap(ctx, pt, plen, out, cap, &olen), HWC_OK)) {
            VCHECKF(c, olen == clen, "wrapped %zu bytes, want %zu", olen, clen);
            VCHECK_MEM(c, out, ct, clen, "hwc_ctx_key_wrap");
        }
        /* KW is sequential single-block work, slow on the portable back
         * end: the one-shot functions and the exact-room case (the same
         * code paths as the context ones) run on every fourth record. */
        olen = 0;
        memset(out, 0xA5, cap);
        if (r->index % 4 == 0 && VCHECK_RC(c, hwc_key_wrap(ci, kek, klen, pt, plen, out, cap, &olen), HWC_OK)) {
            VCHECK(c, olen == clen);
            VCHECK_MEM(c, out, ct, clen, "hwc_key_wrap");
        }
        /* exact room is enough, one byte less is not */
        olen = 0;
        if (r->index % 4 == 1 && VCHECK_RC(c, hwc_init(ctx, NULL, HWC_ENCRYPT, NULL, 0, NULL, 0), HWC_OK)) {
            VCHECK_RC(c, hwc_ctx_key_wrap(ctx, pt, plen, out, clen, &olen), HWC_OK);
            VCHECK_RC(c, hwc_ctx_key_wrap(ctx, pt, plen, out, clen - 1, &olen), HWC_ERR_BUFFER);
        }
    }
    /* unwrap */
    olen = 0;
    memset(out, 0xA5, cap);
    int rc = HWC_ERR_STATE;
    if (VCHECK_RC(c, hwc_init(ctx, ci, HWC_DECRYPT, kek, klen, NULL, 0), HWC_OK))
        rc = hwc_ctx_key_unwrap(ctx, ct, clen, out, cap, &olen);
    if (fail) {
        VCHECK_RC(c, rc, HWC_ERR_AUTH);
        VCHECKF(c, vec_all_zero(out, cap), "hwc_ctx_key_unwrap must zero out_cap bytes on HWC_ERR_AUTH");
    } else if (VCHECK_RC(c, rc, HWC_OK)) {
        VCHECKF(c, olen == plen, "unwrapped %zu bytes, want %zu", olen, plen);
        VCHECK_MEM(c, out, pt, plen, "hwc_ctx_key_unwrap");
    }
    olen = 0;
    memset(out, 0xA5, cap);
    if (fail) { /* the FAIL records (a fifth) all go through the one-shot unwrap */
        rc = hwc_key_unwrap(ci, kek, klen, ct, clen, out, cap, &olen);
        VCHECK_RC(c, rc, HWC_ERR_AUTH);
        VCHECKF(c, vec_all_zero(out, cap), "hwc_key_unwrap must zero out_cap bytes on HWC_ERR_AUTH");
    } else if (r->index % 4 == 0) {
        rc = hwc_key_unwrap(ci, kek, klen, ct, clen, out, cap, &olen);
        if (VCHECK_RC(c, rc, HWC_OK)) {
            VCHECK(c, olen == plen);
            VCHECK_MEM(c, out, pt, plen, "hwc_key_unwrap");
        }
    }
    free(out);
    return VEC_RAN;
}

/* --------------------------------------------------------------- main */

static size_t run_xts(void) {
    size_t n = 0;
    n += vec_run_file("aes/xts/tweak-128hexstr/XTSGenAES128.rsp", VEC_CAVP, HWC_FAMILY_AES, xts_record, NULL);
    n += vec_run_file("aes/xts/tweak-128hexstr/XTSGenAES256.rsp", VEC_CAVP, HWC_FAMILY_AES, xts_record, NULL);
    n += vec_run_file("aes/xts/tweak-dataunitseqno/XTSGenAES128.rsp", VEC_CAVP, HWC_FAMILY_AES, xts_record, NULL);
    n += vec_run_file("aes/xts/tweak-dataunitseqno/XTSGenAES256.rsp", VEC_CAVP, HWC_FAMILY_AES, xts_record, NULL);
    return n;
}

static size_t run_cmac(void) {
    static const cmac_names cavp = {"Key", "Msg", "Mac"};
    static const cmac_names pyca = {"KEY", "MESSAGE", "OUTPUT"};
    size_t n = 0;
    char path[128];
    for (size_t b = 0; b < 3; b++) {
        snprintf(path, sizeof path, "aes/cmac/CMACGenAES%d.rsp", KEYLENS[b]);
        n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, cmac_record, (void *)&cavp);
    }
    n += vec_run_file("aes/cmac/CMACVerAES128.rsp", VEC_CAVP, HWC_FAMILY_AES, cmac_record, (void *)&cavp);
    n += vec_run_file("aes/cmac/cavp_aes192_cmac_tests.txt", VEC_CAVP, HWC_FAMILY_AES, cmac_record, (void *)&cavp);
    n += vec_run_file("aes/cmac/CMACVerAES256.rsp", VEC_CAVP, HWC_FAMILY_AES, cmac_record, (void *)&cavp);
    for (size_t b = 0; b < 3; b++) {
        snprintf(path, sizeof path, "aes/cmac/nist-800-38b-aes%d.txt", KEYLENS[b]);
        n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, cmac_record, (void *)&pyca);
    }
    return n;
}

static size_t run_gmac(void) {
    size_t n = 0;
    char path[128];
    static const char *const kinds[] = {"gcmEncryptExtIV", "gcmDecrypt"};
    for (size_t k = 0; k < 2; k++)
        for (size_t b = 0; b < 3; b++) {
            snprintf(path, sizeof path, "aes/gcm/%s%d.rsp", kinds[k], KEYLENS[b]);
            n += vec_run_file_ex(path, VEC_CAVP, HWC_FAMILY_AES, is_gmac, "GMAC: PTlen = 0", gmac_record, NULL);
        }
    return n;
}

static size_t run_kw(int only_pad) {
    size_t n = 0;
    char path[128];
    for (int pad = 0; pad <= 1; pad++)
        if (only_pad < 0 || only_pad == pad)
        for (int ae = 1; ae >= 0; ae--)
            for (size_t b = 0; b < 3; b++)
                for (int inv = 0; inv <= 1; inv++) {
                    static kw_file kinds[2][2][2];
                    kw_file *k = &kinds[pad][ae][inv];
                    k->pad = pad;
                    k->ae = ae;
                    k->inv = inv;
                    snprintf(path, sizeof path, "aes/kw/%s_%s_%d%s.txt", pad ? "KWP" : "KW", ae ? "AE" : "AD",
                             KEYLENS[b], inv ? "_inv" : "");
                    n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, kw_record, k);
                }
    return n;
}

int main(int argc, char **argv) {
    const char *g = argc > 1 ? argv[1] : "all";
    int all = !strcmp(g, "all"), known = 0;
    size_t n = 0;
    if (all || !strcmp(g, "xts"))
        known = 1, n += run_xts();
    if (all || !strcmp(g, "cmac"))
        known = 1, n += run_cmac();
    if (all || !strcmp(g, "gmac"))
        known = 1, n += run_gmac();
    if (all || !strcmp(g, "kw"))
        known = 1, n += run_kw(all ? -1 : 0);
    if (!strcmp(g, "kwp"))
        known = 1, n += run_kw(1);
    CHECKF(known, "unknown group '%s' (xts, cmac, gmac, kw, kwp)", g);
    printf("test_vec_misc %s: %zu records in all\n", g, n);
    return test_summary("test_vec_misc");
}
