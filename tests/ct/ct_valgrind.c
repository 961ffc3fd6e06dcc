/* Constant-time check under valgrind memcheck (run by run-ct-valgrind.sh).
 *
 * Memcheck tracks which bytes are "defined".  Marking the secrets undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED) turns every branch or memory address that
 * depends on them into a reported error: "Conditional jump or move depends
 * on uninitialised value(s)" or "Use of uninitialised value of size N".
 *
 * Secrets: the key, the IV / nonce, the AAD, the plaintext, the ciphertext
 * and tag given to decryption.  Declassified (public by design), by this
 * program: the ciphertext and tag an encryption outputs, before they are
 * compared; by the library (HWC_DECLASSIFY, src/internal.h): the single
 * result of a tag comparison, of the PKCS#7 padding check and of the key-wrap
 * integrity check, and the length of a valid message.  Return codes and
 * lengths are public.
 *
 * Every cipher in the table, on every back end available under valgrind
 * (its CPU model has AES-NI and PCLMUL, not VAES or AVX-512) and on the
 * automatic selection, at several lengths: encryption, decryption that
 * passes, and decryption that fails (a flipped tag bit, a flipped wrapped-key
 * bit, a corrupted padding block, a wrong MAC).
 *
 * `ct_valgrind leak-table|leak-branch|leak-compare` instead runs one
 * deliberately leaky function (a table lookup indexed by a key byte, a
 * branch on a key bit, a tag comparison that exits at the first difference):
 * the driver requires memcheck to report each, proving the check can fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "msgrun.h"
#include "testutil.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

/* ------------------------------------------------ deliberately leaky code */

static volatile unsigned sink_value;

__attribute__((noinline)) static void leaky_table_lookup(const uint8_t *key) {
    static const uint8_t table[256] = {1, 2, 3};
    sink_value = table[key[0]]; /* address depends on a key byte */
}

__attribute__((noinline)) static void leaky_branch(const uint8_t *key) {
    if (key[0] & 1) /* branch on a key bit */
        sink_value = sink_value + 3;
    else
        puts("even");
}

__attribute__((noinline)) static int leaky_compare(const uint8_t *a, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) /* early exit: time depends on the secret */
            return 1;
    return 0;
}

static int run_leak(const char *which) {
    uint8_t key[16] = {0x2b, 0x7e}, tag[16] = {0};
    SECRET(key, sizeof key);
    if (!strcmp(which, "leak-table"))
        leaky_table_lookup(key);
    else if (!strcmp(which, "leak-branch"))
        leaky_branch(key);
    else if (!strcmp(which, "leak-compare"))
        sink_value = (unsigned)leaky_compare(key, tag, sizeof tag);
    else {
        fprintf(stderr, "unknown leak '%s'\n", which);
        return 2;
    }
    return 0;
}

/* ----------------------------------------------------------- the library */

typedef struct job {
    const hwc_cipher *c;
    unsigned long messages;
} job;

static const size_t LENGTHS[] = {1, 16, 47, 160};

static void fill(uint8_t *p, size_t n, uint32_t seed) {
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (uint8_t)(seed >> 16);
    }
}

static void one(job *j, const char *impl, size_t len) {
    const hwc_cipher *c = j->c;
    const char *name = hwc_cipher_name(c);
    unsigned f = hwc_cipher_flags(c);
    hwc_mode mode = hwc_cipher_mode(c);
    if (mode == HWC_MODE_KW)
        len = len < 16 ? 16 : len & ~(size_t)7;
    if (!msg_len_ok(c, len))
        return;
    const char *label = impl ? impl : "automatic";
    uint8_t key[64], iv[16], aad[24], pt[160], ct[192], tag[16], back[192];
    fill(key, sizeof key, 1 + (uint32_t)len);
    if (mode == HWC_MODE_XTS)
        key[hwc_cipher_key_len(c) / 2] = (uint8_t)(key[0] ^ 1); /* halves differ */
    fill(iv, sizeof iv, 2);
    fill(aad, sizeof aad, 3);
    fill(pt, sizeof pt, 4 + (uint32_t)len);
    size_t iv_len = msg_iv_len(c), tag_len = hwc_cipher_tag_len(c);
    size_t aad_len = (f & HWC_CIPHER_AEAD) ? sizeof aad : 0;

    hwc_ctx *ctx = hwc_ctx_new();
    if (!CHECK(ctx != NULL))
        return;
    if (impl && !CHECK(hwc_ctx_set_impl(ctx, impl) == HWC_OK)) {
        hwc_ctx_free(ctx);
        return;
    }

    /* Encrypt with everything secret; the outputs are then public. */
    msg_io io = {key, iv_len ? iv : NULL, iv_len, aad, aad_len, pt, len, ct, tag, tag_len};
    SECRET(key, sizeof key);
    SECRET(iv, sizeof iv);
    SECRET(aad, sizeof aad);
    SECRET(pt, sizeof pt);
    size_t ct_len = 0;
    int rc = msg_run(ctx, c, HWC_ENCRYPT, &io, &ct_len);
    j->messages++;
    PUBLIC(ct, sizeof ct);
    PUBLIC(tag, sizeof tag);
    if (!CHECKF(rc == HWC_OK, "%s on %s, %zu bytes: encrypt returned %d", name, label, len, rc))
        goto out;

    /* Decrypt (or verify) with the inputs secret again: must pass. */
    int mac = (f & HWC_CIPHER_MAC) != 0;
    msg_io dec = io;
    if (!mac) {
        dec.in = ct;
        dec.in_len = ct_len;
        dec.out = back;
    }
    SECRET(key, sizeof key);
    SECRET(iv, sizeof iv);
    SECRET(aad, sizeof aad);
    SECRET(ct, sizeof ct);
    SECRET(tag, sizeof tag);
    SECRET(pt, sizeof pt);
    size_t back_len = 0;
    rc = msg_run(ctx, c, HWC_DECRYPT, &dec, &back_len);
    j->messages++;
    PUBLIC(back, sizeof back);
    PUBLIC(pt, sizeof pt);
    if (CHECKF(rc == HWC_OK, "%s on %s, %zu bytes: decrypt returned %d", name, label, len, rc) && !mac)
        CHECKF(back_len == len && memcmp(back, pt, len) == 0, "%s on %s, %zu bytes: round trip differs", name, label,
               len);

    /* Decryption that must fail, where the mode has a check: a flipped tag
     * bit (AEAD, MAC), a flipped bit of the wrapped key (KW, KWP), a last
     * block whose padding is wrong (ECB, CBC). */
    int want = HWC_ERR_AUTH;
    PUBLIC(ct, sizeof ct);
    PUBLIC(tag, sizeof tag);
    if (f & (HWC_CIPHER_AEAD | HWC_CIPHER_MAC)) {
        tag[tag_len - 1] ^= 0x10;
    } else if (f & HWC_CIPHER_WRAP) {
        ct[ct_len / 2] ^= 0x10;
    } else if (f & HWC_CIPHER_PADDING) {
        /* CBC: flip the top bit of the last plaintext byte (the pad
         * length) through the previous block, or the IV for one block.
         * ECB: garble the last block (these fixed inputs give bad padding;
         * the result is asserted either way). */
        if (mode == HWC_MODE_CBC && ct_len >= 32)
            ct[ct_len - 17] ^= 0x80;
        else if (mode == HWC_MODE_CBC)
            iv[15] ^= 0x80;
        else
            ct[ct_len - 1] ^= 0x5a;
        want = HWC_ERR_PADDING;
    } else {
        goto out; /* no check in the mode */
    }
    SECRET(key, sizeof key);
    SECRET(iv, sizeof iv);
    SECRET(aad, sizeof aad);
    SECRET(ct, sizeof ct);
    SECRET(tag, sizeof tag);
    rc = msg_run(ctx, c, HWC_DECRYPT, &dec, &back_len);
    j->messages++;
    CHECKF(rc == want, "%s on %s, %zu bytes: tampered decrypt returned %d (%s), want %d", name, label, len, rc,
           hwc_strerror(rc), want);
out:
    hwc_ctx_free(ctx);
}

static void run_impl(const char *impl, void *arg) {
    job *j = arg;
    for (size_t i = 0; i < sizeof LENGTHS / sizeof LENGTHS[0]; i++)
        one(j, impl, LENGTHS[i]);
}

int main(int argc, char **argv) {
    if (argc > 1)
        return run_leak(argv[1]);
#if !defined(HWC_CT_VALGRIND) || !HWC_CT_VALGRIND
    printf("SKIP: libhwcrypt built without HWC_CT_VALGRIND (no valgrind/memcheck.h at configure time)\n");
    return 77;
#endif
    if (!RUNNING_ON_VALGRIND)
        printf("note: not running under valgrind: this checks results only, not timing\n");
    job j = {0};
    for (size_t i = 0; i < hwc_cipher_count(); i++) {
        j.c = hwc_cipher_at(i);
        int ran = test_each_impl(hwc_cipher_family(j.c), run_impl, &j);
        run_impl(NULL, &j); /* automatic selection: the dispatch path */
        CHECKF(ran > 0, "%s: no back end ran", hwc_cipher_name(j.c));
    }
    printf("ct_valgrind: %zu ciphers, %lu messages; automatic selection: aes=%s sm4=%s ghash=%s\n",
           hwc_cipher_count(), j.messages, hwc_impl_selected(HWC_FAMILY_AES), hwc_impl_selected(HWC_FAMILY_SM4),
           hwc_ghash_impl_selected());
    return test_summary("ct_valgrind");
}
