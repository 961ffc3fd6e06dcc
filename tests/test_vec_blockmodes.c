/* Known-answer tests for the AES confidentiality modes:
 *   NIST CAVP AESAVS files (ECB, CBC, CFB1, CFB8, CFB128, OFB): GFSbox,
 *   KeySbox, VarKey, VarTxt, MMT and the Monte Carlo tests (AESAVS 6.4),
 *   encrypt and decrypt sections; RFC 3686 CTR.
 * Every record runs on every available AES back end.
 *
 * Usage: test_vec_blockmodes [GROUP]
 *   kat         the KAT and MMT files of every mode, and CTR
 *   mct         every Monte Carlo file
 *   mct-MODE    the Monte Carlo files of one mode (ecb cbc cfb1 cfb8 cfb128 ofb)
 *   (none)      everything
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vecfile.h"

typedef struct mode_info {
    const char *dir;    /* folder and file prefix: "cfb8" / "CFB8" */
    const char *prefix;
    const char *suffix; /* cipher name suffix: aes-128-<suffix> */
    int unit_bits;      /* MCT unit: 128, 8 or 1 */
    int has_iv;
    int feedback_prev;  /* MCT: next input is the previous output (CBC, CFB, OFB), not the output (ECB) */
} mode_info;

static const mode_info MODES[] = {
    {"ecb", "ECB", "ecb", 128, 0, 0},
    {"cbc", "CBC", "cbc", 128, 1, 1},
    {"cfb1", "CFB1", "cfb1", 1, 1, 1},
    {"cfb8", "CFB8", "cfb8", 8, 1, 1},
    {"cfb128", "CFB128", "cfb", 128, 1, 1},
    {"ofb", "OFB", "ofb", 128, 1, 1},
};
#define NMODES (sizeof MODES / sizeof MODES[0])

static int section_encrypt(vec_case *c) {
    const char *s = c->r->section;
    if (s && !strcmp(s, "ENCRYPT"))
        return HWC_ENCRYPT;
    if (s && !strcmp(s, "DECRYPT"))
        return HWC_DECRYPT;
    VCHECKF(c, 0, "record outside [ENCRYPT]/[DECRYPT]");
    return -1;
}

/* ------------------------------------------------------------ KAT, MMT */

static int kat_record(vec_case *c) {
    const mode_info *m = c->arg;
    const vec_record *r = c->r;
    int enc = section_encrypt(c);
    size_t klen, ivlen = 0;
    const uint8_t *key = vec_bytes(r, "KEY", &klen), *iv = NULL;
    if (m->has_iv)
        iv = vec_bytes(r, "IV", &ivlen);
    if (enc < 0 || !VCHECK(c, key && (iv || !m->has_iv)))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-%s", klen * 8, m->suffix);
    if (!ci)
        return VEC_RAN;
    const char *in_name = enc == HWC_ENCRYPT ? "PLAINTEXT" : "CIPHERTEXT";
    const char *out_name = enc == HWC_ENCRYPT ? "CIPHERTEXT" : "PLAINTEXT";

    if (m->unit_bits != 1) {
        size_t ilen, olen;
        const uint8_t *in = vec_bytes(r, in_name, &ilen), *want = vec_bytes(r, out_name, &olen);
        if (VCHECK(c, in && want && ilen == olen))
            vec_cipher_kat(c, ci, enc, key, klen, iv, ivlen, in, want, ilen, 0);
        return VEC_RAN;
    }

    /* CFB1: bit strings */
    size_t nbits, nout;
    const uint8_t *in = vec_bits(r, in_name, &nbits), *want = vec_bits(r, out_name, &nout);
    if (!VCHECK(c, in && want && nbits == nout))
        return VEC_RAN;
    size_t nbytes = (nbits + 7) / 8;
    uint8_t out[64], a[64], b[64], oa[64], ob[64];
    if (!VCHECK(c, nbytes <= sizeof out))
        return VEC_RAN;
    hwc_ctx *ctx = c->ctx;
    size_t fl = 0;

    /* all bits in one call */
    memset(out, 0xA5, sizeof out);
    if (VCHECK_RC(c, hwc_init(ctx, ci, enc, key, klen, iv, ivlen), HWC_OK)) {
        VCHECK_RC(c, hwc_update_bits(ctx, out, in, nbits), HWC_OK);
        VCHECK_RC(c, hwc_final(ctx, out + nbytes, &fl), HWC_OK);
        VCHECK(c, fl == 0);
        VCHECK_MEM(c, out, want, nbytes, "hwc_update_bits, one call (trailing bits must be 0)");
    }
    /* in place */
    memcpy(out, in, nbytes);
    if (VCHECK_RC(c, hwc_init(ctx, NULL, enc, NULL, 0, iv, ivlen), HWC_OK)) {
        VCHECK_RC(c, hwc_update_bits(ctx, out, out, nbits), HWC_OK);
        VCHECK_MEM(c, out, want, nbytes, "hwc_update_bits, in place");
    }
    /* two calls, split at a bit position */
    size_t s = vec_split(r, nbits, 3);
    vec_bits_extract(a, in, 0, s);
    vec_bits_extract(b, in, s, nbits - s);
    memset(oa, 0xA5, sizeof oa);
    memset(ob, 0xA5, sizeof ob);
    if (VCHECK_RC(c, hwc_init(ctx, NULL, enc, NULL, 0, iv, ivlen), HWC_OK)) {
        VCHECK_RC(c, hwc_update_bits(ctx, oa, a, s), HWC_OK);
        VCHECK_RC(c, hwc_update_bits(ctx, ob, b, nbits - s), HWC_OK);
        memset(out, 0, sizeof out);
        for (size_t i = 0; i < s; i++)
            vec_bit_set(out, i, vec_bit_get(oa, i));
        for (size_t i = s; i < nbits; i++)
            vec_bit_set(out, i, vec_bit_get(ob, i - s));
        char what[64];
        snprintf(what, sizeof what, "hwc_update_bits, split at bit %zu", s);
        VCHECK_MEM(c, out, want, nbytes, what);
    }
    /* whole bytes also go through hwc_update() */
    if (nbits % 8 == 0)
        vec_cipher_kat(c, ci, enc, key, klen, iv, ivlen, in, want, nbytes, 0);
    return VEC_RAN;
}

/* ------------------------------------------------------------------ MCT */

/* One outer iteration i of the AESAVS Monte Carlo test (section 6.4):
 * starting from this record's KEY, IV and input, run the 1000 inner
 * iterations, compare the last output with the record, and the derived
 * next KEY, IV and input with the next record of the same section. */
static int mct_record(vec_case *c) {
    const mode_info *m = c->arg;
    const vec_record *r = c->r;
    hwc_ctx *ctx = c->ctx;
    int enc = section_encrypt(c);
    if (enc < 0)
        return VEC_RAN;
    const char *in_name = enc == HWC_ENCRYPT ? "PLAINTEXT" : "CIPHERTEXT";
    const char *out_name = enc == HWC_ENCRYPT ? "CIPHERTEXT" : "PLAINTEXT";
    size_t klen, ivlen = 0, ilen = 0, olen = 0;
    const uint8_t *key = vec_bytes(r, "KEY", &klen), *iv = NULL, *in0, *want;
    uint8_t iv0[16] = {0};
    if (m->has_iv) {
        iv = vec_bytes(r, "IV", &ivlen);
        if (!VCHECK(c, iv && ivlen == 16))
            return VEC_RAN;
        memcpy(iv0, iv, 16);
    }
    if (m->unit_bits == 1) {
        in0 = vec_bits(r, in_name, &ilen);
        want = vec_bits(r, out_name, &olen);
        if (!VCHECK(c, in0 && want && ilen == 1 && olen == 1))
            return VEC_RAN;
    } else {
        in0 = vec_bytes(r, in_name, &ilen);
        want = vec_bytes(r, out_name, &olen);
        if (!VCHECK(c, in0 && want && ilen == (size_t)m->unit_bits / 8 && olen == ilen))
            return VEC_RAN;
    }
    if (!VCHECK(c, key && (klen == 16 || klen == 24 || klen == 32)))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-%s", klen * 8, m->suffix);
    if (!ci)
        return VEC_RAN;

    if (!VCHECK_RC(c, hwc_init(ctx, ci, enc, key, klen, iv, ivlen), HWC_OK))
        return VEC_RAN;
    if (hwc_cipher_flags(ci) & HWC_CIPHER_PADDING)
        VCHECK_RC(c, hwc_set_padding(ctx, 0), HWC_OK);

    /* outputs of every inner iteration: 16-byte blocks, bytes, or bits */
    static uint8_t hist[1000][16];
    uint8_t in[16] = {0};
    int bad_rc = 0;
    size_t bad_len = 0;
    memcpy(in, in0, m->unit_bits == 1 ? 1 : ilen);
    for (int j = 0; j < 1000; j++) {
        size_t ol = 0;
        int rc;
        if (m->unit_bits == 1) {
            rc = hwc_update_bits(ctx, hist[j], in, 1);
            ol = 1;
        } else {
            rc = hwc_update(ctx, hist[j], &ol, in, (size_t)m->unit_bits / 8);
            ol *= 8;
        }
        if (rc && !bad_rc)
            bad_rc = rc;
        if (ol != (size_t)m->unit_bits && !bad_len)
            bad_len = ol + 1;
        /* next input */
        if (m->unit_bits == 128) {
            if (!m->feedback_prev)
                memcpy(in, hist[j], 16);                 /* ECB: PT[j+1] = CT[j] */
            else if (j == 0)
                memcpy(in, iv0, 16);                     /* PT[1] = IV */
            else
                memcpy(in, hist[j - 1], 16);             /* PT[j+1] = CT[j-1] */
        } else if (m->unit_bits == 8) {
            in[0] = j < 16 ? iv0[j] : hist[j - 16][0];   /* PT[j+1] = IV[j] or CT[j-16] */
        } else {
            int bit = j < 128 ? vec_bit_get(iv0, (size_t)j) : vec_bit_get(hist[j - 128], 0);
            in[0] = (uint8_t)(bit << 7);                 /* PT[j+1] = bit j of IV, or CT[j-128] */
        }
    }
    VCHECKF(c, bad_rc == 0, "an inner iteration returned %d (%s)", bad_rc, hwc_strerror(bad_rc));
    VCHECKF(c, bad_len == 0, "an inner iteration wrote %zu bits, want %d", bad_len ? bad_len - 1 : 0, m->unit_bits);
    if (m->unit_bits == 1) {
        uint8_t got = hist[999][0] & 0x80;
        VCHECK_MEM(c, &got, want, 1, "MCT result bit");
    } else {
        VCHECK_MEM(c, hist[999], want, ilen, "MCT result");
    }

    /* The last klen*8 output bits, oldest first: the key update material. */
    uint8_t tail[32] = {0}, next_key[32], next_iv[16], next_in[16] = {0};
    size_t kbits = klen * 8;
    if (m->unit_bits == 128) {
        if (klen == 16)
            memcpy(tail, hist[999], 16);
        else if (klen == 24) {
            memcpy(tail, hist[998] + 8, 8);
            memcpy(tail + 8, hist[999], 16);
        } else {
            memcpy(tail, hist[998], 16);
            memcpy(tail + 16, hist[999], 16);
        }
        memcpy(next_iv, hist[999], 16);
        memcpy(next_in, m->feedback_prev ? hist[998] : hist[999], 16);
    } else if (m->unit_bits == 8) {
        for (size_t k = 0; k < klen; k++)
            tail[k] = hist[1000 - klen + k][0];
        for (size_t k = 0; k < 16; k++)
            next_iv[k] = hist[984 + k][0];
        next_in[0] = hist[983][0];
    } else {
        for (size_t k = 0; k < kbits; k++)
            vec_bit_set(tail, k, vec_bit_get(hist[1000 - kbits + k], 0));
        for (size_t k = 0; k < 128; k++)
            vec_bit_set(next_iv, k, vec_bit_get(hist[872 + k], 0));
        next_in[0] = hist[871][0] & 0x80;
    }
    for (size_t k = 0; k < klen; k++)
        next_key[k] = (uint8_t)(key[k] ^ tail[k]);

    /* The next record of the same section starts from these. */
    if (r->index + 1 < c->file->nrec) {
        const vec_record *n = &c->file->rec[r->index + 1];
        if (n->section == r->section || (n->section && r->section && !strcmp(n->section, r->section))) {
            size_t l1, l2 = 0, l3;
            const uint8_t *nk = vec_bytes(n, "KEY", &l1);
            const uint8_t *ni = m->has_iv ? vec_bytes(n, "IV", &l2) : NULL;
            const uint8_t *np = m->unit_bits == 1 ? vec_bits(n, in_name, &l3) : vec_bytes(n, in_name, &l3);
            if (VCHECK(c, nk && l1 == klen && np))
                VCHECK_MEM(c, next_key, nk, klen, "MCT next KEY");
            if (m->has_iv && VCHECK(c, ni && l2 == 16))
                VCHECK_MEM(c, next_iv, ni, 16, "MCT next IV");
            if (np)
                VCHECK_MEM(c, next_in, np, m->unit_bits == 128 ? 16 : 1, "MCT next input");
        }
    }
    return VEC_RAN;
}

/* ----------------------------------------------------------- RFC 3686 */

static int ctr_record(vec_case *c) {
    const vec_record *r = c->r;
    size_t klen, ivlen, plen, clen;
    const uint8_t *key = vec_bytes(r, "KEY", &klen), *iv = vec_bytes(r, "IV", &ivlen);
    const uint8_t *pt = vec_bytes(r, "PLAINTEXT", &plen), *ct = vec_bytes(r, "CIPHERTEXT", &clen);
    if (!VCHECK(c, key && iv && pt && ct && plen == clen && ivlen == 16))
        return VEC_RAN;
    const hwc_cipher *ci = vec_cipher(c, "aes-%zu-ctr", klen * 8);
    if (ci)
        vec_cipher_kat(c, ci, HWC_ENCRYPT, key, klen, iv, ivlen, pt, ct, plen, 1);
    return VEC_RAN;
}

/* --------------------------------------------------------------- main */

static const char *const KAT_KINDS[] = {"GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT"};
static const int KEYLENS[] = {128, 192, 256};

static size_t run_kat(void) {
    size_t n = 0;
    char path[128];
    for (size_t m = 0; m < NMODES; m++)
        for (size_t k = 0; k < sizeof KAT_KINDS / sizeof KAT_KINDS[0]; k++)
            for (size_t b = 0; b < 3; b++) {
                snprintf(path, sizeof path, "aes/%s/%s%s%d.rsp", MODES[m].dir, MODES[m].prefix, KAT_KINDS[k],
                         KEYLENS[b]);
                n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, kat_record, (void *)&MODES[m]);
            }
    for (size_t b = 0; b < 3; b++) {
        snprintf(path, sizeof path, "aes/ctr/aes-%d-ctr.txt", KEYLENS[b]);
        n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, ctr_record, NULL);
    }
    return n;
}

static size_t run_mct(const char *only) {
    size_t n = 0;
    char path[128];
    for (size_t m = 0; m < NMODES; m++) {
        if (only && strcmp(only, MODES[m].dir) != 0)
            continue;
        for (size_t b = 0; b < 3; b++) {
            snprintf(path, sizeof path, "aes/%s/%sMCT%d.rsp", MODES[m].dir, MODES[m].prefix, KEYLENS[b]);
            n += vec_run_file(path, VEC_CAVP, HWC_FAMILY_AES, mct_record, (void *)&MODES[m]);
        }
    }
    return n;
}

int main(int argc, char **argv) {
    const char *group = argc > 1 ? argv[1] : "all";
    size_t n = 0;
    if (!strcmp(group, "all")) {
        n += run_kat();
        n += run_mct(NULL);
    } else if (!strcmp(group, "kat")) {
        n += run_kat();
    } else if (!strcmp(group, "mct")) {
        n += run_mct(NULL);
    } else if (!strncmp(group, "mct-", 4)) {
        size_t m;
        for (m = 0; m < NMODES && strcmp(group + 4, MODES[m].dir); m++)
            ;
        CHECKF(m < NMODES, "unknown mode %s", group + 4);
        if (m < NMODES)
            n += run_mct(MODES[m].dir);
    } else {
        CHECKF(0, "unknown group '%s' (kat, mct, mct-ecb|cbc|cfb1|cfb8|cfb128|ofb)", group);
    }
    printf("test_vec_blockmodes %s: %zu records in all\n", group, n);
    return test_summary("test_vec_blockmodes");
}
