/* Known-answer tests for the AES AEAD modes:
 *   GCM   NIST CAVP gcmEncryptExtIV / gcmDecrypt (every tag length, 8- to
 *         1024-bit IVs; FAIL records must fail and zero the output);
 *   CCM   NIST CAVP VADT, VNT, VPT, VTT and DVPT (Result = Fail records; the
 *         DVPT .txt copies too);
 *   OCB   RFC 7253, OpenSSL's longer messages, dkg's 104/112/120-bit nonces
 *         (128- and 96-bit tags);
 *   SIV   RFC 5297 and OpenSSL (several AD components);
 *   GCM-SIV  RFC 8452 and BoringSSL's vectors.
 * Every record: one-shot seal and open, streaming encryption and decryption
 * with AAD and data split in two, and a corrupted tag that must fail.
 * Every record runs on every available AES back end.
 *
 * Usage: test_vec_aead [GROUP]
 *   gcm-enc, gcm-dec, gcm-enc-128 ... gcm-dec-256, ccm, ocb, siv, gcm-siv,
 *   other (ccm, ocb, siv, gcm-siv), (none) everything
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vecfile.h"

static const int KEYLENS[] = {128, 192, 256};

/* ----------------------------------------------------------------- GCM */

static int gcm_record(vec_case *c) {
    const vec_record *r = c->r;
    size_t klen, ivlen, alen, clen, tlen, plen = 0;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *iv = vec_bytes(r, "IV", &ivlen);
    const uint8_t *aad = vec_bytes(r, "AAD", &alen), *ct = vec_bytes(r, "CT", &clen);
    const uint8_t *tag = vec_bytes(r, "Tag", &tlen), *pt = NULL;
    int fail = vec_has_field(r, "FAIL");
    if (!fail)
        pt = vec_bytes(r, "PT", &plen);
    if (!VCHECK(c, key && iv && aad && ct && tag && (fail || (pt && plen == clen))))
        return VEC_RAN;
    VCHECKF(c, (long long)tlen * 8 == vec_int(r, "Taglen", -1), "tag of %zu bytes under Taglen %lld", tlen,
            vec_int(r, "Taglen", -1));
    VCHECKF(c, (long long)ivlen * 8 == vec_int(r, "IVlen", -1), "IV of %zu bytes under IVlen %lld", ivlen,
            vec_int(r, "IVlen", -1));
    vec_aead a = {0};
    a.cipher = vec_cipher(c, "aes-%zu-gcm", klen * 8);
    if (!a.cipher)
        return VEC_RAN;
    a.key = key;
    a.key_len = klen;
    a.nonce = iv;
    a.nonce_len = ivlen;
    a.aad[0] = aad;
    a.aad_len[0] = alen;
    a.naad = 1;
    a.pt = pt;
    a.ct = ct;
    a.len = clen;
    a.tag = tag;
    a.tag_len = tlen;
    a.expect_fail = fail;
    vec_aead_kat(c, &a);
    return VEC_RAN;
}

/* ----------------------------------------------------------------- CCM */

static int ccm_record(vec_case *c) {
    const vec_record *r = c->r;
    long long Alen = vec_int(r, "Alen", -1), Plen = vec_int(r, "Plen", -1), Nlen = vec_int(r, "Nlen", -1),
              Tlen = vec_int(r, "Tlen", -1);
    size_t klen, nlen, alen, clen, plen = 0;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *nonce = vec_bytes(r, "Nonce", &nlen);
    const uint8_t *adata = vec_bytes(r, "Adata", &alen), *ctt = vec_bytes(r, "CT", &clen), *pt = NULL;
    const char *result = vec_get(r, "Result");
    int fail = result && !strncmp(result, "Fail", 4);
    if (result && !fail && !VCHECKF(c, !strncmp(result, "Pass", 4), "Result = %s", result))
        return VEC_RAN;
    if (!fail)
        pt = vec_bytes(r, "Payload", &plen);
    if (!VCHECK(c, Alen >= 0 && Plen >= 0 && Nlen >= 0 && Tlen >= 0 && key && nonce && adata && ctt &&
                       (fail || pt)))
        return VEC_RAN;
    /* "00" stands for the empty string when the length is 0 */
    if (Alen == 0)
        alen = 0;
    if (Plen == 0)
        plen = 0;
    if (!VCHECK(c, alen == (size_t)Alen && nlen == (size_t)Nlen && clen == (size_t)(Plen + Tlen) &&
                       (fail || plen == (size_t)Plen)))
        return VEC_RAN;
    vec_aead a = {0};
    a.cipher = vec_cipher(c, "aes-%zu-ccm", klen * 8);
    if (!a.cipher)
        return VEC_RAN;
    a.key = key;
    a.key_len = klen;
    a.nonce = nonce;
    a.nonce_len = nlen;
    a.aad[0] = adata;
    a.aad_len[0] = alen;
    a.naad = 1;
    a.pt = pt;
    a.ct = ctt;
    a.len = (size_t)Plen;
    a.tag = ctt + Plen;
    a.tag_len = (size_t)Tlen;
    a.expect_fail = fail;
    vec_aead_kat(c, &a);
    return VEC_RAN;
}

/* ----------------------------------------------------------------- OCB */

typedef struct names {
    const char *key, *nonce, *aad, *pt, *ct;
} names;

static int ocb_record(vec_case *c) {
    const names *nm = c->arg;
    const vec_record *r = c->r;
    size_t klen, nlen, alen, plen, clen;
    const uint8_t *key = vec_bytes(r, nm->key, &klen), *nonce = vec_bytes(r, nm->nonce, &nlen);
    const uint8_t *aad = vec_bytes(r, nm->aad, &alen), *pt = vec_bytes(r, nm->pt, &plen);
    const uint8_t *ct = vec_bytes(r, nm->ct, &clen);
    if (!VCHECK(c, key && nonce && aad && pt && ct && clen > plen && clen - plen <= 16))
        return VEC_RAN;
    vec_aead a = {0};
    a.cipher = vec_cipher(c, "aes-%zu-ocb", klen * 8);
    if (!a.cipher)
        return VEC_RAN;
    a.key = key;
    a.key_len = klen;
    a.nonce = nonce;
    a.nonce_len = nlen;
    a.aad[0] = aad;
    a.aad_len[0] = alen;
    a.naad = 1;
    a.pt = pt;
    a.ct = ct;
    a.len = plen;
    a.tag = ct + plen;
    a.tag_len = clen - plen;
    vec_aead_kat(c, &a);
    return VEC_RAN;
}

/* ----------------------------------------------------------------- SIV */

static int siv_record(vec_case *c) {
    const vec_record *r = c->r;
    size_t klen, tlen, plen, clen;
    const uint8_t *key = vec_bytes(r, "Key", &klen), *tag = vec_bytes(r, "Tag", &tlen);
    const uint8_t *pt = vec_bytes(r, "Plaintext", &plen), *ct = vec_bytes(r, "Ciphertext", &clen);
    if (!VCHECK(c, key && tag && pt && ct && plen == clen && tlen == 16))
        return VEC_RAN;
    vec_aead a = {0};
    a.cipher = vec_cipher(c, "aes-%zu-siv", klen * 4);
    if (!a.cipher)
        return VEC_RAN;
    /* AD components in file order: AAD, AAD2, AAD3 (RFC 5297 A.2: the last is the nonce) */
    for (size_t i = 0; i < r->nfields && a.naad < 8; i++) {
        const char *n = vec_field_name(r, i);
        if (!strncmp(n, "AAD", 3)) {
            a.aad[a.naad] = vec_bytes(r, n, &a.aad_len[a.naad]);
            if (!VCHECK(c, a.aad[a.naad] != NULL))
                return VEC_RAN;
            a.naad++;
        }
    }
    a.key = key;
    a.key_len = klen;
    a.pt = pt;
    a.ct = ct;
    a.len = plen;
    a.tag = tag;
    a.tag_len = tlen;
    vec_aead_kat(c, &a);
    return VEC_RAN;
}

/* ------------------------------------------------------------- GCM-SIV */

static int gcmsiv_record(vec_case *c) {
    const vec_record *r = c->r;
    size_t klen, nlen, plen, alen, clen, tlen;
    const uint8_t *key = vec_bytes(r, "KEY", &klen), *nonce = vec_bytes(r, "NONCE", &nlen);
    const uint8_t *pt = vec_bytes(r, "IN", &plen), *aad = vec_bytes(r, "AD", &alen);
    const uint8_t *ct = vec_bytes(r, "CT", &clen), *tag = vec_bytes(r, "TAG", &tlen);
    if (!VCHECK(c, key && nonce && pt && aad && ct && tag && plen == clen && tlen == 16))
        return VEC_RAN;
    vec_aead a = {0};
    a.cipher = vec_cipher(c, "aes-%zu-gcm-siv", klen * 8);
    if (!a.cipher)
        return VEC_RAN;
    a.key = key;
    a.key_len = klen;
    a.nonce = nonce;
    a.nonce_len = nlen;
    a.aad[0] = aad;
    a.aad_len[0] = alen;
    a.naad = 1;
    a.pt = pt;
    a.ct = ct;
    a.len = plen;
    a.tag = tag;
    a.tag_len = tlen;
    vec_aead_kat(c, &a);
    return VEC_RAN;
}

/* --------------------------------------------------------------- main */

static size_t run_gcm(const char *kind, int only_bits) {
    size_t n = 0;
    char path[128];
    for (size_t b = 0; b < 3; b++) {
        if (only_bits && only_bits != KEYLENS[b])
            continue;
        snprintf(path, sizeof path, "aes/gcm/%s%d.rsp", kind, KEYLENS[b]);
        n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, gcm_record, NULL);
    }
    return n;
}

static size_t run_ccm(void) {
    static const char *const kinds[] = {"VADT", "VNT", "VPT", "VTT", "DVPT"};
    size_t n = 0;
    char path[128];
    for (size_t k = 0; k < 5; k++)
        for (size_t b = 0; b < 3; b++) {
            snprintf(path, sizeof path, "aes/ccm/%s%d.rsp", kinds[k], KEYLENS[b]);
            n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, ccm_record, NULL);
        }
    /* the DVPT .txt files repeat the .rsp ones with "Result = Fail (reason)" */
    for (size_t b = 0; b < 3; b++) {
        snprintf(path, sizeof path, "aes/ccm/DVPT%d.txt", KEYLENS[b]);
        n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, ccm_record, NULL);
    }
    return n;
}

static size_t run_ocb(void) {
    static const names nist = {"Key", "Nonce", "AAD", "Plaintext", "Ciphertext"};
    static const names dkg = {"K", "N", "A", "P", "C"};
    size_t n = 0;
    char path[128];
    n += vec_run_file("aes/ocb/rfc7253.txt", VEC_CAVP, HWC_FAMILY_AES, ocb_record, (void *)&nist);
    n += vec_run_file("aes/ocb/openssl.txt", VEC_CAVP, HWC_FAMILY_AES, ocb_record, (void *)&nist);
    for (int v = 1; v <= 2; v++)
        for (int bits = 104; bits <= 120; bits += 8) {
            snprintf(path, sizeof path, "aes/ocb/dkg/test-vector-%d-nonce%d.txt", v, bits);
            n += vec_run_file(path, VEC_DKG, HWC_FAMILY_AES, ocb_record, (void *)&dkg);
        }
    return n;
}

static size_t run_siv(void) {
    return vec_run_file("aes/siv/openssl.txt", VEC_CAVP, HWC_FAMILY_AES, siv_record, NULL);
}

static size_t run_gcmsiv(void) {
    return vec_run_file("aes/gcm-siv/aes_128_gcm_siv_tests.txt", VEC_BORINGSSL, HWC_FAMILY_AES, gcmsiv_record, NULL) +
           vec_run_file("aes/gcm-siv/aes_256_gcm_siv_tests.txt", VEC_BORINGSSL, HWC_FAMILY_AES, gcmsiv_record, NULL);
}

int main(int argc, char **argv) {
    const char *g = argc > 1 ? argv[1] : "all";
    int all = !strcmp(g, "all");
    size_t n = 0;
    int known = 0;
    if (all || !strcmp(g, "gcm-enc"))
        known = 1, n += run_gcm("gcmEncryptExtIV", 0);
    if (all || !strcmp(g, "gcm-dec"))
        known = 1, n += run_gcm("gcmDecrypt", 0);
    for (size_t b = 0; b < 3; b++) {
        char name[32];
        snprintf(name, sizeof name, "gcm-enc-%d", KEYLENS[b]);
        if (!strcmp(g, name))
            known = 1, n += run_gcm("gcmEncryptExtIV", KEYLENS[b]);
        snprintf(name, sizeof name, "gcm-dec-%d", KEYLENS[b]);
        if (!strcmp(g, name))
            known = 1, n += run_gcm("gcmDecrypt", KEYLENS[b]);
    }
    int other = all || !strcmp(g, "other");
    if (other || !strcmp(g, "ccm"))
        known = 1, n += run_ccm();
    if (other || !strcmp(g, "ocb"))
        known = 1, n += run_ocb();
    if (other || !strcmp(g, "siv"))
        known = 1, n += run_siv();
    if (other || !strcmp(g, "gcm-siv"))
        known = 1, n += run_gcmsiv();
    CHECKF(known, "unknown group '%s'", g);
    printf("test_vec_aead %s: %zu records in all\n", g, n);
    return test_summary("test_vec_aead");
}
