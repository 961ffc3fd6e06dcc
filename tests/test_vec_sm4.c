/* Known-answer tests for SM4:
 *   draft-ribose-cfrg-sm4-10 ECB/CBC/CFB/OFB/CTR (pyca's files);
 *   OpenSSL's evpciph_sm4.txt: ECB/CBC/OFB/CFB/CTR, RFC 8998 GCM and CCM,
 *     XTS per GB/T 17964-2021 ("XTSStandard = GB", the default when the
 *     line is missing: sm4-xts-gb) and IEEE 1619 ("IEEE": sm4-xts);
 *   RFC 8998 SM4-GCM (pyca);
 *   Botan's sm4.vec, including GB/T 32907 Example 2: 1,000,000 encryptions
 *     of one block (and 1,000,000 decryptions back).
 * Every record runs on every available SM4 back end.
 *
 * Usage: test_vec_sm4 [GROUP]
 *   kat, million (both directions), million-enc, million-dec; none: kat and million
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vecfile.h"

/* ------------------------------------------------- draft-ribose (pyca) */

static int draft_record(vec_case *c) {
    const char *mode = c->arg;
    const vec_record *r = c->r;
    size_t klen, ivlen = 0, plen, clen;
    const uint8_t *key = vec_bytes(r, "KEY", &klen), *iv = NULL;
    const uint8_t *pt = vec_bytes(r, "PLAINTEXT", &plen), *ct = vec_bytes(r, "CIPHERTEXT", &clen);
    if (strcmp(mode, "ecb") != 0)
        iv = vec_bytes(r, "IV", &ivlen);
    if (!VCHECK(c, key && pt && ct && plen == clen && (iv || !strcmp(mode, "ecb"))))
        return VEC_RAN;
    VCHECK(c, r->section && !strcmp(r->section, "ENCRYPT"));
    const hwc_cipher *ci = vec_cipher(c, "sm4-%s", mode);
    if (ci)
        vec_cipher_kat(c, ci, HWC_ENCRYPT, key, klen, iv, ivlen, pt, ct, plen, 1);
    return VEC_RAN;
}

/* ---------------------------------------------------- OpenSSL evp_test */

static int evp_record(vec_case *c) {
    const vec_record *r = c->r;
    const char *cname = vec_get(r, "Cipher");
    char name[48];
    size_t i;
    for (i = 0; cname && cname[i] && i + 1 < sizeof name; i++)
        name[i] = (char)tolower((unsigned char)cname[i]);
    name[i] = 0;
    const char *std = vec_get(r, "XTSStandard");
    if (!strcmp(name, "sm4-xts")) {
        if (!std || !strcmp(std, "GB"))
            snprintf(name, sizeof name, "sm4-xts-gb");
        else if (!VCHECKF(c, !strcmp(std, "IEEE"), "XTSStandard = %s", std))
            return VEC_RAN;
    } else if (!VCHECKF(c, std == NULL, "XTSStandard on a %s record", name)) {
        return VEC_RAN;
    }
    size_t klen, ivlen = 0, plen, clen;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *iv = NULL;
    const uint8_t *pt = vec_bytes(r, "Plaintext", &plen), *ct = vec_bytes(r, "Ciphertext", &clen);
    if (vec_get(r, "IV"))
        iv = vec_bytes(r, "IV", &ivlen);
    if (!VCHECK(c, key && pt && ct && plen == clen))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "%s", name);
    if (!ci)
        return VEC_RAN;
    if (hwc_cipher_flags(ci) & HWC_CIPHER_AEAD) {
        vec_aead a = {0};
        a.cipher = ci;
        a.key = key;
        a.key_len = klen;
        a.nonce = iv;
        a.nonce_len = ivlen;
        a.naad = 1;
        a.aad[0] = vec_bytes(r, "AAD", &a.aad_len[0]);
        a.tag = vec_bytes(r, "Tag", &a.tag_len);
        a.pt = pt;
        a.ct = ct;
        a.len = plen;
        if (VCHECK(c, a.aad[0] && a.tag))
            vec_aead_kat(c, &a);
    } else {
        vec_cipher_kat(c, ci, HWC_ENCRYPT, key, klen, iv, ivlen, pt, ct, plen, 1);
    }
    return VEC_RAN;
}

/* ------------------------------------------------------- RFC 8998 (pyca) */

static int rfc8998_record(vec_case *c) {
    const vec_record *r = c->r;
    size_t plen, clen;
    vec_aead a = {0};
    a.cipher = vec_cipher(c, "sm4-gcm");
    a.key = vec_bytes(r, "KEY", &a.key_len);
    a.nonce = vec_bytes(r, "IV", &a.nonce_len);
    a.naad = 1;
    a.aad[0] = vec_bytes(r, "AAD", &a.aad_len[0]);
    a.tag = vec_bytes(r, "TAG", &a.tag_len);
    a.pt = vec_bytes(r, "PLAINTEXT", &plen);
    a.ct = vec_bytes(r, "CIPHERTEXT", &clen);
    a.len = plen;
    if (VCHECK(c, a.cipher && a.key && a.nonce && a.aad[0] && a.tag && a.pt && a.ct && plen == clen))
        vec_aead_kat(c, &a);
    return VEC_RAN;
}

/* ------------------------------------------------------- Botan sm4.vec */

static int botan_record(vec_case *c) {
    const vec_record *r = c->r;
    hwc_ctx *ctx = c->ctx;
    size_t klen, ilen, olen;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *in = vec_bytes(r, "In", &ilen), *out = vec_bytes(r, "Out", &olen);
    if (!VCHECK(c, key && in && out && ilen == olen && ilen % 16 == 0))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "sm4-ecb");
    if (!ci)
        return VEC_RAN;
    long long iters = vec_int(r, "Iterations", 1);
    if (iters == 1) {
        vec_cipher_kat(c, ci, HWC_ENCRYPT, key, klen, NULL, 0, in, out, ilen, 1);
        return VEC_RAN;
    }
    if (!VCHECK(c, iters > 1))
        return VEC_RAN;
    /* GB/T 32907-2016 Example 2: the same key, the block encrypted again and
     * again, in place; then decrypted as many times back to the input. */
    uint8_t *buf = malloc(ilen + 16);
    if (!VCHECK(c, buf != NULL))
        return VEC_RAN;
    const char *only = c->arg; /* "enc", "dec" or NULL (both) */
    for (int dir = HWC_ENCRYPT; dir >= HWC_DECRYPT; dir--) {
        if (only && strcmp(only, dir == HWC_ENCRYPT ? "enc" : "dec") != 0)
            continue;
        const uint8_t *from = dir == HWC_ENCRYPT ? in : out, *to = dir == HWC_ENCRYPT ? out : in;
        int bad = 0;
        size_t ol;
        memcpy(buf, from, ilen);
        if (!VCHECK_RC(c, hwc_init(ctx, ci, dir, key, klen, NULL, 0), HWC_OK) ||
            !VCHECK_RC(c, hwc_set_padding(ctx, 0), HWC_OK))
            break;
        for (long long k = 0; k < iters; k++) {
            ol = 0;
            if (hwc_update(ctx, buf, &ol, buf, ilen) != HWC_OK || ol != ilen)
                bad = 1;
        }
        VCHECKF(c, !bad, "an hwc_update() call failed or wrote short output");
        VCHECK_RC(c, hwc_final(ctx, buf + ilen, &ol), HWC_OK);
        VCHECK_MEM(c, buf, to, ilen, dir == HWC_ENCRYPT ? "after the encryptions" : "after the decryptions");
    }
    free(buf);
    return VEC_RAN;
}

static int has_iterations(const vec_record *r) {
    return vec_get(r, "Iterations") != NULL;
}
static int no_iterations(const vec_record *r) {
    return vec_get(r, "Iterations") == NULL;
}

/* --------------------------------------------------------------- main */

int main(int argc, char **argv) {
    const char *g = argc > 1 ? argv[1] : "all";
    int all = !strcmp(g, "all"), known = 0;
    size_t n = 0;
    if (all || !strcmp(g, "kat")) {
        static const char *const modes[][2] = {{"ecb", "ecb"}, {"cbc", "cbc"}, {"cfb", "cfb"}, {"ofb", "ofb"},
                                               {"ctr", "ctr"}};
        char path[128];
        known = 1;
        for (size_t m = 0; m < 5; m++) {
            snprintf(path, sizeof path, "sm4/draft-ribose-cfrg-sm4-10-%s.txt", modes[m][0]);
            n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_SM4, draft_record, (void *)modes[m][1]);
        }
        n += vec_run_file("sm4/evpciph_sm4.txt", VEC_EVP, HWC_FAMILY_SM4, evp_record, NULL);
        n += vec_run_file("sm4/rfc8998.txt", VEC_CAVP, HWC_FAMILY_SM4, rfc8998_record, NULL);
        n += vec_run_file_ex("sm4/sm4.vec", VEC_BOTAN, HWC_FAMILY_SM4, no_iterations, "without Iterations",
                             botan_record, NULL);
    }
    if (all || !strcmp(g, "million") || !strcmp(g, "million-enc") || !strcmp(g, "million-dec")) {
        const char *dir = !strcmp(g, "million-enc") ? "enc" : !strcmp(g, "million-dec") ? "dec" : NULL;
        known = 1;
        n += vec_run_file_ex("sm4/sm4.vec", VEC_BOTAN, HWC_FAMILY_SM4, has_iterations,
                             dir ? (*dir == 'e' ? "Iterations, encryption" : "Iterations, decryption") : "Iterations",
                             botan_record, (void *)dir);
    }
    CHECKF(known, "unknown group '%s' (kat, million, million-enc, million-dec)", g);
    printf("test_vec_sm4 %s: %zu records in all\n", g, n);
    return test_summary("test_vec_sm4");
}
