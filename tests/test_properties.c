/* Property tests, for every cipher in the table on every available back end:
 *   - streaming with random split points (zero-length updates included)
 *     gives the same output and tag as one update, also when the message
 *     goes on in a copy of the context (hwc_ctx_copy) from a random chunk;
 *   - SIV, GCM-SIV decryption with declared lengths, cut at every point
 *     (every pair of points up to 33 bytes), equals one update; forged, the
 *     update that completes the message fails and zeroes its piece;
 *   - in-place (out == in) gives the same as out-of-place;
 *   - every input offset 0..15 x output offset 0..15 gives the same result
 *     (and writes nothing outside the output range);
 *   - decrypt(encrypt(x)) == x (unwrap(wrap(x)), verify(mac(x)));
 *   - CTR: the 128-bit counter wraps (ff..ff is followed by 00..00), carries
 *     cross the 32- and 64-bit boundaries;
 *   - GCM: the 32-bit counter wraps mod 2^32 without carrying into the upper
 *     96 bits (IVs chosen so that J0 ends in ff ff ff fe, ...); records
 *     streamed from every offset of a block (lengths 1..1350) equal one
 *     update, in place too;
 *   - XTS ciphertext stealing for every length 16..100, and block-boundary
 *     lengths to 4096 (against a reference built from single-block ECB, in
 *     IEEE 1619 or GB/T 17964 tweak order; and OpenSSL for AES);
 *   - AEAD: one flipped bit in ciphertext, tag, AAD or nonce makes
 *     hwc_aead_open fail with HWC_ERR_AUTH and zero the output; same for
 *     MAC verify and key unwrap.
 * The expected values come from hwcrypt itself (another code path) or from
 * independent references written here; OpenSSL is an extra oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#ifdef HWC_HAVE_OPENSSL
#include <openssl/err.h>
#include <openssl/evp.h>
#endif

#define BUF 8192

/* ------------------------------------------------------------ helpers */

#define MAX_IMPLS 16
static const char *impls[3][MAX_IMPLS];
static int nimpls[3];
static void collect_impl(const char *impl, void *arg) {
    int f = *(int *)arg;
    if (nimpls[f] < MAX_IMPLS)
        impls[f][nimpls[f]++] = impl;
}

static unsigned flags_of(const hwc_cipher *c) { return hwc_cipher_flags(c); }
static int is_aead(const hwc_cipher *c) { return (flags_of(c) & HWC_CIPHER_AEAD) != 0; }
static int is_mac(const hwc_cipher *c) { return (flags_of(c) & HWC_CIPHER_MAC) != 0; }
static int is_wrap(const hwc_cipher *c) { return (flags_of(c) & HWC_CIPHER_WRAP) != 0; }
static int is_oneshot(const hwc_cipher *c) { return (flags_of(c) & HWC_CIPHER_ONE_SHOT) != 0; }
/* SIV, GCM-SIV: encryption in one update; decryption streams once the
 * lengths are declared. */
static int is_siv_like(const hwc_cipher *c) {
    hwc_mode m = hwc_cipher_mode(c);
    return m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV;
}
static int is_blockpad(const hwc_cipher *c) {
    hwc_mode m = hwc_cipher_mode(c);
    return m == HWC_MODE_ECB || m == HWC_MODE_CBC;
}
/* Output follows input byte for byte in every update. */
static int is_exact(const hwc_cipher *c) {
    hwc_mode m = hwc_cipher_mode(c);
    return (flags_of(c) & HWC_CIPHER_STREAM) || m == HWC_MODE_GCM || m == HWC_MODE_CCM;
}

/* A length valid for the cipher, close to n. */
static size_t fix_len(const hwc_cipher *c, size_t n) {
    hwc_mode m = hwc_cipher_mode(c);
    if (m == HWC_MODE_XTS && n < 16)
        n = 16 + n;
    if (m == HWC_MODE_KW) {
        n = (n + 7) / 8 * 8;
        if (n < 16)
            n = 16;
    }
    if (m == HWC_MODE_KWP && n == 0)
        n = 1;
    return n;
}

static void rand_key(const hwc_cipher *c, uint8_t *key, size_t klen) {
    test_rand_bytes(key, klen);
    if (hwc_cipher_mode(c) == HWC_MODE_XTS)
        while (memcmp(key, key + klen / 2, klen / 2) == 0)
            test_rand_bytes(key, klen);
}

/* Chunk lengths for a streaming run; n == 0: one call with everything. */
#define MAXCHUNK 24
typedef struct split {
    size_t n;
    size_t len[MAXCHUNK];
} split;

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Random cut points (multiples of gran), plus zero-length chunks if zeros. */
static void make_split(split *s, size_t total, size_t gran, int zeros) {
    size_t cuts[12], k = 1 + test_rand() % 8, units = total / gran;
    for (size_t i = 0; i < k; i++)
        cuts[i] = units ? (test_rand() % (units + 1)) * gran : 0;
    qsort(cuts, k, sizeof cuts[0], cmp_size);
    s->n = 0;
    size_t prev = 0;
    for (size_t i = 0; i < k; i++) {
        s->len[s->n++] = cuts[i] - prev;
        prev = cuts[i];
        if (zeros && test_rand() % 4 == 0)
            s->len[s->n++] = 0;
    }
    s->len[s->n++] = total - prev;
    if (zeros && test_rand() % 2)
        s->len[s->n++] = 0;
}

/* One operation's parameters. */
typedef struct op {
    const hwc_cipher *c;
    const char *impl;
    int enc;
    int padding; /* -1 default */
    const uint8_t *key;
    size_t klen;
    const uint8_t *iv;
    size_t ivlen;
    const uint8_t *aad;
    size_t aadlen;
    size_t taglen;
    const uint8_t *tagin; /* AEAD decrypt / MAC verify */
    int copy_at;          /* 1 + the index of the chunk after which the context is replaced by a copy; 0: never */
} op;

static void describe(char *buf, size_t n, const op *o, const char *what, size_t len) {
    snprintf(buf, n, "%s: %s impl=%s %s len=%zu aad=%zu iv=%zu tag=%zu copied after chunk %d", what,
             hwc_cipher_name(o->c), o->impl, o->enc ? "enc" : "dec", len, o->aadlen, o->ivlen, o->taglen,
             o->copy_at - 1);
}

/* Replaces *ctx by a copy made with hwc_ctx_copy when chunk `i` (AAD chunks
 * count first, then data) is the one o->copy_at names; the original is freed, so
 * the copy must carry the whole state. */
static int maybe_copy(const op *o, hwc_ctx **ctx, size_t i) {
    if (o->copy_at != (int)i + 1)
        return 0;
    hwc_ctx *dup = hwc_ctx_new();
    if (!dup)
        return HWC_ERR_NO_MEM;
    int rc = hwc_ctx_copy(dup, *ctx);
    hwc_ctx_free(*ctx);
    *ctx = dup;
    return rc;
}

/* Runs an operation; data and AAD (or, for MACs, the message) in the chunks
 * given. `in` may equal `out` only when the writes keep pace (exact modes,
 * block-multiple chunks, or one call). */
static int run(const op *o, const uint8_t *in, size_t inlen, uint8_t *out, size_t *outlen, uint8_t *tagout,
               const split *ds, const split *as) {
    const hwc_cipher *c = o->c;
    size_t w = 0, r = 0, n;
    int rc;
    *outlen = 0;
    hwc_ctx *ctx = hwc_ctx_new();
    if (!ctx)
        return HWC_ERR_NO_MEM;
    if ((rc = hwc_ctx_set_impl(ctx, o->impl)) != 0)
        goto done;
    if ((rc = hwc_init(ctx, c, o->enc, o->key, o->klen, is_wrap(c) ? NULL : o->iv, is_wrap(c) ? 0 : o->ivlen)) != 0)
        goto done;
    if (is_wrap(c)) {
        rc = o->enc ? hwc_ctx_key_wrap(ctx, in, inlen, out, inlen + 16, outlen)
                    : hwc_ctx_key_unwrap(ctx, in, inlen, out, inlen + 16, outlen);
        goto done;
    }
    if (o->padding >= 0 && (rc = hwc_set_padding(ctx, o->padding)) != 0)
        goto done;
    if (is_aead(c)) {
        if (o->taglen != hwc_cipher_tag_len(c) && (rc = hwc_set_tag_len(ctx, o->taglen)) != 0)
            goto done;
        if (hwc_cipher_mode(c) == HWC_MODE_CCM && (rc = hwc_set_lengths(ctx, o->aadlen, inlen)) != 0)
            goto done;
        /* SIV, GCM-SIV decryption in pieces: the declared lengths allow it. */
        if (is_siv_like(c) && !o->enc && ds && ds->n && (rc = hwc_set_lengths(ctx, o->aadlen, inlen)) != 0)
            goto done;
        if (!o->enc && (rc = hwc_set_tag(ctx, o->tagin, o->taglen)) != 0)
            goto done;
    }
    if (o->aadlen) {
        if (as && as->n) {
            for (size_t i = 0; i < as->n; i++, r += as->len[i - 1])
                if ((rc = hwc_aad(ctx, o->aad + r, as->len[i])) != 0 || (rc = maybe_copy(o, &ctx, i)) != 0)
                    goto done;
        } else if ((rc = hwc_aad(ctx, o->aad, o->aadlen)) != 0)
            goto done;
    }
    r = 0;
    size_t aad_chunks = o->aadlen && as ? as->n : 0; /* chunk numbering for copy_at */
    if (is_mac(c)) {
        if (ds && ds->n) {
            for (size_t i = 0; i < ds->n; i++, r += ds->len[i - 1])
                if ((rc = hwc_aad(ctx, in + r, ds->len[i])) != 0 ||
                    (rc = maybe_copy(o, &ctx, aad_chunks + i)) != 0)
                    goto done;
        } else if ((rc = hwc_aad(ctx, in, inlen)) != 0)
            goto done;
        rc = o->enc ? hwc_mac_final(ctx, tagout, o->taglen) : hwc_mac_verify(ctx, o->tagin, o->taglen);
        goto done;
    }
    if (ds && ds->n) {
        for (size_t i = 0; i < ds->n; i++) {
            if ((rc = hwc_update(ctx, out + w, &n, in + r, ds->len[i])) != 0 ||
                (rc = maybe_copy(o, &ctx, aad_chunks + i)) != 0)
                goto done;
            r += ds->len[i];
            w += n;
        }
    } else {
        if ((rc = hwc_update(ctx, out, &n, in, inlen)) != 0)
            goto done;
        w = n;
    }
    if ((rc = hwc_final(ctx, out + w, &n)) != 0)
        goto done;
    w += n;
    *outlen = w;
    if (is_aead(c) && o->enc)
        rc = hwc_get_tag(ctx, tagout, o->taglen);
done:
    hwc_ctx_free(ctx);
    return rc;
}

static uint8_t key[64], iv[64], aad[512], pt[BUF], ct[BUF], tmp[BUF], tmp2[BUF], big_in[BUF], big_out[BUF];
static uint8_t tag[16], tag2[16];

static void rand_op(op *o, const hwc_cipher *c, const char *impl, size_t aadlen) {
    memset(o, 0, sizeof *o);
    o->c = c;
    o->impl = impl;
    o->enc = HWC_ENCRYPT;
    o->padding = -1;
    o->klen = hwc_cipher_key_len(c);
    rand_key(c, key, o->klen);
    o->key = key;
    o->ivlen = is_wrap(c) ? 0 : hwc_cipher_iv_len(c);
    test_rand_bytes(iv, o->ivlen);
    o->iv = o->ivlen ? iv : NULL;
    if (is_aead(c)) {
        o->aadlen = aadlen;
        test_rand_bytes(aad, aadlen);
        o->aad = aad;
    }
    o->taglen = (is_aead(c) || is_mac(c)) ? hwc_cipher_tag_len(c) : 0;
    if (is_mac(c) && o->taglen == 0)
        o->taglen = 16;
}

/* Reference: encrypt pt[0..n) in one call into ct, tag.  Returns 1 if ok. */
static int reference(op *o, size_t n, size_t *ctlen) {
    char what[200];
    o->enc = HWC_ENCRYPT;
    int rc = run(o, pt, n, ct, ctlen, tag, NULL, NULL);
    describe(what, sizeof what, o, "one-shot encrypt", n);
    return CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc));
}

/* ------------------------------------------------- streaming == one-shot */

static void prop_streaming(const hwc_cipher *c, const char *impl) {
    static const size_t lens_all[] = {0, 1, 15, 16, 17, 100, 333, 1000};
    static const size_t lens_cfb1[] = {0, 1, 15, 16, 17, 40};
    int cfb1 = hwc_cipher_mode(c) == HWC_MODE_CFB1;
    const size_t *lens = cfb1 ? lens_cfb1 : lens_all;
    size_t nl = cfb1 ? 6 : 8;
    char what[200];
    if (is_wrap(c))
        return; /* one-shot only: nothing to split */
    for (size_t li = 0; li < nl; li++) {
        size_t n = fix_len(c, lens[li]), ctlen, outlen;
        op o;
        rand_op(&o, c, impl, (li * 37) % 100);
        test_rand_bytes(pt, n);
        if (!reference(&o, n, &ctlen))
            continue;
        for (int s = 0; s < 5; s++) {
            split ds, as;
            /* One-shot modes take the data in one update; SIV's AAD calls
             * are separate components. */
            if (is_oneshot(c))
                ds.n = 0;
            else
                make_split(&ds, n, 1, 1);
            if (hwc_cipher_mode(c) == HWC_MODE_SIV)
                as.n = 0;
            else
                make_split(&as, o.aadlen, 1, 1);
            /* Every other run goes on, from a random chunk, in a copy of
             * the context (hwc_ctx_copy mid-message). */
            size_t chunks = ds.n + (o.aadlen ? as.n : 0);
            o.copy_at = (s % 2 && chunks) ? 1 + (int)(test_rand() % chunks) : 0;
            o.enc = HWC_ENCRYPT;
            memset(tmp, 0xcc, n + 32);
            memset(tag2, 0xcc, sizeof tag2);
            int rc = run(&o, pt, n, tmp, &outlen, tag2, &ds, &as);
            describe(what, sizeof what, &o, "split encrypt", n);
            if (CHECKF(rc == 0, "%s (%zu chunks): rc %d (%s)", what, ds.n, rc, hwc_strerror(rc))) {
                if (is_mac(c))
                    CHECK_MEM(tag2, tag, o.taglen, what);
                else if (CHECKF(outlen == ctlen, "%s: length %zu want %zu", what, outlen, ctlen)) {
                    CHECK_MEM(tmp, ct, ctlen, what);
                    if (is_aead(c))
                        CHECK_MEM(tag2, tag, o.taglen, what);
                }
            }
            if (is_mac(c))
                continue;
            /* Decrypt in other random pieces (SIV and GCM-SIV too). */
            if (!is_oneshot(c) || is_siv_like(c))
                make_split(&ds, ctlen, 1, 1);
            o.enc = HWC_DECRYPT;
            o.tagin = tag;
            chunks = ds.n + (o.aadlen ? as.n : 0);
            o.copy_at = (s % 2 && chunks) ? 1 + (int)(test_rand() % chunks) : 0;
            rc = run(&o, ct, ctlen, tmp, &outlen, NULL, &ds, &as);
            describe(what, sizeof what, &o, "split decrypt", n);
            if (CHECKF(rc == 0, "%s (%zu chunks): rc %d (%s)", what, ds.n, rc, hwc_strerror(rc)) &&
                CHECKF(outlen == n, "%s: length %zu want %zu", what, outlen, n))
                CHECK_MEM(tmp, pt, n, what);
        }
    }
}

/* ---------------------------------------------------- in-place == copy */

static void prop_inplace(const hwc_cipher *c, const char *impl) {
    static const size_t lens_all[] = {0, 1, 16, 31, 64, 100, 1000};
    char what[200];
    int cfb1 = hwc_cipher_mode(c) == HWC_MODE_CFB1;
    if (is_mac(c))
        return; /* no output buffer */
    for (size_t li = 0; li < 7; li++) {
        size_t n = fix_len(c, cfb1 && lens_all[li] > 64 ? 40 : lens_all[li]), ctlen, outlen;
        op o;
        rand_op(&o, c, impl, 20);
        test_rand_bytes(pt, n);
        if (!reference(&o, n, &ctlen))
            continue;
        /* One call, out == in. */
        memcpy(tmp, pt, n);
        o.enc = HWC_ENCRYPT;
        int rc = run(&o, tmp, n, tmp, &outlen, tag2, NULL, NULL);
        describe(what, sizeof what, &o, "in-place encrypt", n);
        if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
            CHECKF(outlen == ctlen, "%s: length %zu want %zu", what, outlen, ctlen)) {
            CHECK_MEM(tmp, ct, ctlen, what);
            if (is_aead(c))
                CHECK_MEM(tag2, tag, o.taglen, what);
        }
        memcpy(tmp, ct, ctlen);
        o.enc = HWC_DECRYPT;
        o.tagin = tag;
        rc = run(&o, tmp, ctlen, tmp, &outlen, NULL, NULL, NULL);
        describe(what, sizeof what, &o, "in-place decrypt", n);
        if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
            CHECKF(outlen == n, "%s: length %zu want %zu", what, outlen, n))
            CHECK_MEM(tmp, pt, n, what);

        /* SIV, GCM-SIV decryption streams in place, in any pieces. */
        for (int s = 0; is_siv_like(c) && s < 3; s++) {
            split ds;
            make_split(&ds, n, 1, 1);
            memcpy(tmp, ct, n);
            rc = run(&o, tmp, n, tmp, &outlen, NULL, &ds, NULL);
            describe(what, sizeof what, &o, "in-place split decrypt", n);
            if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
                CHECKF(outlen == n, "%s: length %zu want %zu", what, outlen, n))
                CHECK_MEM(tmp, pt, n, what);
        }
        /* Streaming in place: any split for exact modes; block multiples
         * with padding off for ECB/CBC. */
        if (is_oneshot(c) || is_wrap(c) || !(is_exact(c) || is_blockpad(c)))
            continue;
        size_t gran = 1, m = n;
        if (is_blockpad(c)) {
            gran = 16;
            m = n / 16 * 16;
            o.padding = 0;
            o.enc = HWC_ENCRYPT;
            if (!CHECK(run(&o, pt, m, ct, &ctlen, tag, NULL, NULL) == 0))
                continue;
        }
        for (int s = 0; s < 3; s++) {
            split ds;
            make_split(&ds, m, gran, 1);
            memcpy(tmp, pt, m);
            o.enc = HWC_ENCRYPT;
            rc = run(&o, tmp, m, tmp, &outlen, tag2, &ds, NULL);
            describe(what, sizeof what, &o, "in-place split encrypt", m);
            if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
                CHECKF(outlen == m, "%s: length %zu want %zu", what, outlen, m)) {
                CHECK_MEM(tmp, ct, m, what);
                if (is_aead(c))
                    CHECK_MEM(tag2, tag, o.taglen, what);
            }
            make_split(&ds, m, gran, 1);
            memcpy(tmp, ct, m);
            o.enc = HWC_DECRYPT;
            rc = run(&o, tmp, m, tmp, &outlen, NULL, &ds, NULL);
            describe(what, sizeof what, &o, "in-place split decrypt", m);
            if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
                CHECKF(outlen == m, "%s: length %zu want %zu", what, outlen, m))
                CHECK_MEM(tmp, pt, m, what);
        }
    }
}

/* HWC_TEST_STRIDE=N (N > 1), for slow runs such as valgrind's
 * (docs/TESTING.md): the two big sweeps below keep every Nth case (every
 * cipher, mode and back end still runs, and the other properties run in
 * full).  Unset or 1: everything. */
static size_t test_stride(void) {
    const char *s = getenv("HWC_TEST_STRIDE");
    unsigned long v = s ? strtoul(s, NULL, 10) : 1;
    return v > 1 ? (size_t)v : 1;
}

/* ------------------------------------------------- misaligned buffers */

#define GUARD 0xa7
static int guards_ok(const uint8_t *buf, size_t from, size_t to, size_t size) {
    for (size_t i = 0; i < from; i++)
        if (buf[i] != GUARD)
            return 0;
    for (size_t i = to; i < size; i++)
        if (buf[i] != GUARD)
            return 0;
    return 1;
}

static void prop_alignment(const hwc_cipher *c, const char *impl) {
    hwc_mode m = hwc_cipher_mode(c);
    size_t n = fix_len(c, m == HWC_MODE_CFB1 ? 37 : 16 * 17 + 7), ctlen, outlen;
    char what[200];
    op o;
    rand_op(&o, c, impl, 29);
    test_rand_bytes(pt, n);
    if (!reference(&o, n, &ctlen))
        return;
    size_t room = ctlen + 32, size = 16 + room + 16;
    unsigned long bad_enc = 0, bad_dec = 0, bad_guard = 0;
    int first_rc = 0;
    for (size_t io = 0; io < 16; io++) {
        for (size_t oo = 0; oo < (is_mac(c) ? 1 : 16); oo++) {
            /* Thinned, every in-offset still meets an out-offset: with a
             * stride of 16 the diagonal, plus both aligned and the
             * (0, 15) and (15, 0) corners. */
            size_t stride = test_stride();
            if (!is_mac(c) && (15 * io + oo) % stride != 0 && !((io == 0 || io == 15) && (oo == 0 || oo == 15)))
                continue;
            /* Encrypt: input (and AAD) at offset io, output (and tag) at oo. */
            static uint8_t aad_mis[512 + 16], tag_mis[16 + 16];
            memcpy(big_in + io, pt, n);
            memcpy(aad_mis + io, aad, o.aadlen);
            memset(big_out, GUARD, size);
            op a = o;
            a.aad = aad_mis + io;
            a.enc = HWC_ENCRYPT;
            uint8_t *tg = is_mac(c) ? tag_mis + (io & 7) : tag_mis + oo;
            int rc = run(&a, big_in + io, n, big_out + 16 + oo, &outlen, tg, NULL, NULL);
            if (rc != 0 || (!is_mac(c) && (outlen != ctlen || memcmp(big_out + 16 + oo, ct, ctlen) != 0)) ||
                ((is_aead(c) || is_mac(c)) && memcmp(tg, tag, a.taglen) != 0)) {
                if (!bad_enc++) {
                    first_rc = rc;
                    describe(what, sizeof what, &a, "misaligned encrypt", n);
                    fprintf(stderr, "  first failure: %s in+%zu out+%zu rc %d\n", what, io, oo, rc);
                }
            } else if (!is_mac(c) && !guards_ok(big_out, 16 + oo, 16 + oo + ctlen + 16, size)) {
                if (!bad_guard++)
                    fprintf(stderr, "  %s impl=%s: write outside [out, out+len+16) at in+%zu out+%zu\n",
                            hwc_cipher_name(c), impl, io, oo);
            }
            if (is_mac(c))
                continue;
            /* Decrypt: ciphertext at io, plaintext at oo. */
            memcpy(big_in + io, ct, ctlen);
            memcpy(tag_mis + io, tag, a.taglen);
            memset(big_out, GUARD, size);
            a.enc = HWC_DECRYPT;
            a.tagin = tag_mis + io;
            rc = run(&a, big_in + io, ctlen, big_out + 16 + oo, &outlen, NULL, NULL, NULL);
            if (rc != 0 || outlen != n || memcmp(big_out + 16 + oo, pt, n) != 0) {
                if (!bad_dec++) {
                    describe(what, sizeof what, &a, "misaligned decrypt", n);
                    fprintf(stderr, "  first failure: %s in+%zu out+%zu rc %d\n", what, io, oo, rc);
                }
            } else if (!guards_ok(big_out, 16 + oo, 16 + oo + n + 16, size)) {
                if (!bad_guard++)
                    fprintf(stderr, "  %s impl=%s: decrypt wrote outside its output at in+%zu out+%zu\n",
                            hwc_cipher_name(c), impl, io, oo);
            }
        }
    }
    CHECKF(bad_enc == 0, "%s impl=%s: %lu misaligned encryptions differ (first rc %d)", hwc_cipher_name(c), impl,
           bad_enc, first_rc);
    CHECKF(bad_dec == 0, "%s impl=%s: %lu misaligned decryptions differ", hwc_cipher_name(c), impl, bad_dec);
    CHECKF(bad_guard == 0, "%s impl=%s: %lu runs wrote outside the output", hwc_cipher_name(c), impl, bad_guard);
}

/* ---------------------------------------------------------- round trip */

static void prop_roundtrip(const hwc_cipher *c, const char *impl) {
    char what[200];
    for (int i = 0; i < 6; i++) {
        size_t n = fix_len(c, hwc_cipher_mode(c) == HWC_MODE_CFB1 ? test_rand() % 100 : test_rand() % 3000), ctlen,
               outlen;
        op o;
        rand_op(&o, c, impl, test_rand() % 70);
        if (is_aead(c) && i == 5)
            o.aadlen = 0;
        test_rand_bytes(pt, n);
        if (!reference(&o, n, &ctlen))
            continue;
        o.enc = HWC_DECRYPT;
        o.tagin = tag;
        /* MACs: verify the message against its own tag. */
        int rc = is_mac(c) ? run(&o, pt, n, tmp, &outlen, NULL, NULL, NULL)
                           : run(&o, ct, ctlen, tmp, &outlen, NULL, NULL, NULL);
        describe(what, sizeof what, &o, "round trip", n);
        if (is_mac(c)) {
            CHECKF(rc == 0, "%s: verify of own tag: rc %d (%s)", what, rc, hwc_strerror(rc));
            continue;
        }
        if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)) &&
            CHECKF(outlen == n, "%s: length %zu want %zu", what, outlen, n))
            CHECK_MEM(tmp, pt, n, what);
        if (is_blockpad(c)) /* padded output */
            CHECKF(ctlen == (n / 16 + 1) * 16, "%s: padded length %zu", what, ctlen);
        else if (!is_wrap(c))
            CHECKF(ctlen == n, "%s: ciphertext length %zu", what, ctlen);
    }
}

/* --------------------------------------------------------- tamper: AEAD */

static void prop_tamper(const hwc_cipher *c, const char *impl) {
    static const size_t lens[] = {0, 1, 16, 33, 200};
    char what[200];
    if (is_mac(c)) {
        for (size_t li = 0; li < 5; li++) {
            size_t n = lens[li], tl;
            op o;
            rand_op(&o, c, impl, 0);
            test_rand_bytes(pt, n);
            if (!reference(&o, n, &tl))
                continue;
            o.enc = HWC_DECRYPT;
            memcpy(tag2, tag, 16);
            tag2[test_rand() % o.taglen] ^= (uint8_t)(1u << (test_rand() % 8));
            o.tagin = tag2;
            int rc = run(&o, pt, n, tmp, &tl, NULL, NULL, NULL);
            describe(what, sizeof what, &o, "verify flipped tag", n);
            CHECKF(rc == HWC_ERR_AUTH, "%s: rc %d (%s)", what, rc, hwc_strerror(rc));
            if (n) {
                o.tagin = tag;
                pt[test_rand() % n] ^= 1;
                rc = run(&o, pt, n, tmp, &tl, NULL, NULL, NULL);
                describe(what, sizeof what, &o, "verify flipped message", n);
                CHECKF(rc == HWC_ERR_AUTH, "%s: rc %d (%s)", what, rc, hwc_strerror(rc));
            }
        }
        return;
    }
    if (is_wrap(c)) {
        for (size_t li = 0; li < 5; li++) {
            size_t n = fix_len(c, lens[li] + 8), ctlen, outlen;
            op o;
            rand_op(&o, c, impl, 0);
            test_rand_bytes(pt, n);
            if (!reference(&o, n, &ctlen))
                continue;
            ct[test_rand() % ctlen] ^= (uint8_t)(1u << (test_rand() % 8));
            o.enc = HWC_DECRYPT;
            memset(tmp, 0xaa, ctlen + 16);
            int rc = run(&o, ct, ctlen, tmp, &outlen, NULL, NULL, NULL);
            describe(what, sizeof what, &o, "unwrap flipped bit", n);
            CHECKF(rc == HWC_ERR_AUTH, "%s: rc %d (%s)", what, rc, hwc_strerror(rc));
            size_t nz = 0;
            for (size_t i = 0; i < ctlen + 16; i++) /* out_cap = in_len + 16 in run() */
                nz += tmp[i] != 0;
            CHECKF(nz == 0, "%s: %zu bytes of the output not zeroed", what, nz);
        }
        return;
    }
    if (!is_aead(c))
        return;
    for (size_t li = 0; li < 5; li++) {
        for (size_t al = 0; al <= 24; al += 24) {
            size_t n = lens[li];
            op o;
            rand_op(&o, c, impl, al);
            test_rand_bytes(pt, n);
            hwc_ctx *es = hwc_ctx_new(), *ds = hwc_ctx_new();
            int rc = hwc_ctx_set_impl(es, impl);
            if (rc == 0)
                rc = hwc_ctx_set_impl(ds, impl);
            if (rc == 0)
                rc = hwc_init(es, c, HWC_ENCRYPT, o.key, o.klen, o.iv, o.ivlen);
            if (rc == 0)
                rc = hwc_init(ds, c, HWC_DECRYPT, o.key, o.klen, o.iv, o.ivlen);
            if (rc == 0)
                rc = hwc_aead_seal(es, o.iv, o.ivlen, o.aad, o.aadlen, pt, n, ct, tag, o.taglen);
            describe(what, sizeof what, &o, "seal", n);
            if (!CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc))) {
                hwc_ctx_free(es);
                hwc_ctx_free(ds);
                continue;
            }
            /* Untouched: opens. */
            memset(tmp, 0xaa, n + 16);
            rc = hwc_aead_open(ds, o.iv, o.ivlen, o.aad, o.aadlen, ct, n, tmp, tag, o.taglen);
            describe(what, sizeof what, &o, "open", n);
            if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)))
                CHECK_MEM(tmp, pt, n, what);
            /* Every single-bit change must fail and zero the output. */
            for (int where = 0; where < 4; where++) {
                size_t len = where == 0 ? n : where == 1 ? o.taglen : where == 2 ? o.aadlen : o.ivlen;
                uint8_t *p = where == 0 ? ct : where == 1 ? tag : where == 2 ? aad : iv;
                const char *wname = where == 0 ? "ciphertext" : where == 1 ? "tag" : where == 2 ? "aad" : "nonce";
                if (len == 0)
                    continue;
                /* All bits of the tag; a few random bits elsewhere. */
                size_t nbits = where == 1 ? len * 8 : 4;
                unsigned long fails = 0, notzero = 0;
                size_t tried = 0;
                int last_rc = 0;
                for (size_t b = 0; b < nbits; b++) {
                    /* Thinned: every Nth tag bit, and the first and last. */
                    if (where == 1 && b % test_stride() != 0 && b + 1 != nbits)
                        continue;
                    tried++;
                    size_t bit = where == 1 ? b : test_rand() % (len * 8);
                    p[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
                    memset(tmp, 0xaa, n + 16);
                    rc = hwc_aead_open(ds, o.iv, o.ivlen, o.aad, o.aadlen, ct, n, tmp, tag, o.taglen);
                    p[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
                    if (rc != HWC_ERR_AUTH) {
                        fails++;
                        last_rc = rc;
                    }
                    for (size_t i = 0; i < n; i++)
                        if (tmp[i]) {
                            notzero++;
                            break;
                        }
                }
                describe(what, sizeof what, &o, wname, n);
                CHECKF(fails == 0, "%s: %lu of %zu flipped bits not rejected with HWC_ERR_AUTH (rc %d)", what, fails,
                       tried, last_rc);
                CHECKF(notzero == 0, "%s: output not zeroed after %lu failed opens", what, notzero);
            }
            /* Streaming decryption: hwc_final reports the failure. */
            if (n > 0 && !is_oneshot(c)) {
                ct[0] ^= 1;
                size_t outlen;
                o.enc = HWC_DECRYPT;
                o.tagin = tag;
                rc = run(&o, ct, n, tmp, &outlen, NULL, NULL, NULL);
                ct[0] ^= 1;
                describe(what, sizeof what, &o, "streaming decrypt flipped ciphertext", n);
                CHECKF(rc == HWC_ERR_AUTH, "%s: rc %d (%s)", what, rc, hwc_strerror(rc));
            }
            /* After all that, the contexts still work. */
            memset(tmp, 0xaa, n + 16);
            rc = hwc_aead_open(ds, o.iv, o.ivlen, o.aad, o.aadlen, ct, n, tmp, tag, o.taglen);
            describe(what, sizeof what, &o, "open after failures", n);
            if (CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc)))
                CHECK_MEM(tmp, pt, n, what);
            hwc_ctx_free(es);
            hwc_ctx_free(ds);
        }
    }
}

/* -------------------------------------------- single-block references */

/* ECB on whole blocks with the same back end: the block cipher oracle. */
static int ecb_blocks(const char *impl, hwc_family fam, const uint8_t *k, size_t klen, int enc, const uint8_t *in,
                      uint8_t *out, size_t nblocks) {
    char name[24];
    if (fam == HWC_FAMILY_AES)
        snprintf(name, sizeof name, "aes-%zu-ecb", klen * 8);
    else
        snprintf(name, sizeof name, "sm4-ecb");
    const hwc_cipher *ecb = hwc_cipher_by_name(name);
    if (!ecb)
        return HWC_ERR_UNKNOWN;
    hwc_ctx *ctx = hwc_ctx_new();
    size_t n1 = 0, n2 = 0;
    int rc = hwc_ctx_set_impl(ctx, impl);
    if (rc == 0)
        rc = hwc_init(ctx, ecb, enc, k, klen, NULL, 0);
    if (rc == 0)
        rc = hwc_set_padding(ctx, 0);
    if (rc == 0)
        rc = hwc_update(ctx, out, &n1, in, nblocks * 16);
    if (rc == 0)
        rc = hwc_final(ctx, out + n1, &n2);
    if (rc == 0 && n1 + n2 != nblocks * 16)
        rc = HWC_ERR_DATA_LEN;
    hwc_ctx_free(ctx);
    return rc;
}

static void add128(uint8_t ctr[16], uint64_t v) {
    for (int i = 15; i >= 0 && v; i--) {
        v += ctr[i];
        ctr[i] = (uint8_t)v;
        v >>= 8;
    }
}

/* ------------------------------------------------------------ CTR wrap */

static void prop_ctr_wrap(const hwc_cipher *c, const char *impl) {
    hwc_family fam = hwc_cipher_family(c);
    size_t klen = hwc_cipher_key_len(c);
    char what[160];
    enum { NB = 40 };
    static uint8_t ctrs[NB * 16], ks[NB * 16];
    for (int cs = 0; cs < 5; cs++) {
        uint8_t start[16];
        const char *cname;
        test_rand_bytes(start, 16);
        switch (cs) {
        case 0: /* the brief's case: ff..ff, then 00..00 */
            memset(start, 0xff, 16);
            cname = "ff..ff";
            break;
        case 1: /* wrap at 2^128 inside a batch of blocks */
            memset(start, 0xff, 16);
            start[15] = 0xfa;
            cname = "ff..fa";
            break;
        case 2: /* carry out of the low 64 bits */
            memset(start + 8, 0xff, 8);
            start[15] = 0xfd;
            cname = "carry 64";
            break;
        case 3: /* carry out of the low 32 bits (not GCM's wrap) */
            memset(start + 12, 0xff, 4);
            start[15] = 0xf9;
            start[11] = 0x7f;
            cname = "carry 32";
            break;
        default:
            cname = "random";
            break;
        }
        uint8_t k[32];
        test_rand_bytes(k, klen);
        for (int b = 0; b < NB; b++) {
            memcpy(ctrs + 16 * b, start, 16);
            add128(ctrs + 16 * b, (uint64_t)b);
        }
        if (cs == 0) {
            uint8_t zero[16] = {0};
            CHECKF(memcmp(ctrs + 16, zero, 16) == 0, "counter model: ff..ff + 1 is 00..00");
        }
        int rc = ecb_blocks(impl, fam, k, klen, 1, ctrs, ks, NB);
        snprintf(what, sizeof what, "%s impl=%s CTR %s", hwc_cipher_name(c), impl, cname);
        if (!CHECKF(rc == 0, "%s: ECB reference rc %d", what, rc))
            continue;
        size_t n = NB * 16 - 5, outlen;
        test_rand_bytes(pt, n);
        op o = {.c = c, .impl = impl, .enc = HWC_ENCRYPT, .padding = -1, .key = k, .klen = klen, .iv = start,
                .ivlen = 16};
        for (int s = 0; s < 3; s++) {
            split ds;
            if (s == 0)
                ds.n = 0;
            else if (s == 1) { /* 7-byte pieces across the wrap */
                ds.n = 0;
                size_t left = n;
                while (left && ds.n < MAXCHUNK - 1) {
                    size_t piece = left < 7 ? left : 7;
                    if (ds.n == MAXCHUNK - 2)
                        piece = left;
                    ds.len[ds.n++] = piece;
                    left -= piece;
                }
            } else
                make_split(&ds, n, 1, 1);
            rc = run(&o, pt, n, tmp, &outlen, NULL, &ds, NULL);
            if (!CHECKF(rc == 0 && outlen == n, "%s split %d: rc %d len %zu", what, s, rc, outlen))
                continue;
            for (size_t i = 0; i < n; i++)
                tmp[i] ^= pt[i];
            CHECK_MEM(tmp, ks, n, what);
        }
#ifdef HWC_HAVE_OPENSSL
        char oname[32];
        snprintf(oname, sizeof oname, "%s", hwc_cipher_name(c));
        EVP_CIPHER *ec = EVP_CIPHER_fetch(NULL, oname, NULL);
        if (ec) {
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            int l1 = 0, l2 = 0;
            int ok = EVP_EncryptInit_ex(x, ec, NULL, k, start) && EVP_EncryptUpdate(x, tmp2, &l1, pt, (int)n) &&
                     EVP_EncryptFinal_ex(x, tmp2 + l1, &l2);
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_free(ec);
            rc = run(&o, pt, n, tmp, &outlen, NULL, NULL, NULL);
            if (CHECKF(ok && rc == 0, "%s: OpenSSL %d hwc rc %d", what, ok, rc))
                CHECK_MEM(tmp, tmp2, n, what);
        }
        ERR_clear_error();
#endif
    }
}

/* ------------------------------------------------------------ GCM wrap */

/* GF(2^128) multiply in GCM's bit order (SP 800-38D, Algorithm 1). */
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

static void gf_inv(uint8_t out[16], const uint8_t a[16]) {
    uint8_t r[16] = {0x80}; /* 1 */
    for (int i = 0; i < 127; i++) {
        gf_mul(r, r, r);
        gf_mul(r, r, a);
    }
    gf_mul(r, r, r); /* a^(2^128 - 2) = a^-1 */
    memcpy(out, r, 16);
}

/* The 16-byte IV whose J0 = GHASH_H(IV || 0^64 || [128]_64) equals j0. */
static void iv_for_j0(uint8_t ivout[16], const uint8_t h[16], const uint8_t j0[16]) {
    uint8_t l[16] = {0}, lh[16], h2[16], h2i[16], t[16];
    l[15] = 128; /* bit length of the IV */
    gf_mul(lh, l, h);
    gf_mul(h2, h, h);
    gf_inv(h2i, h2);
    for (int i = 0; i < 16; i++)
        t[i] = j0[i] ^ lh[i];
    gf_mul(ivout, t, h2i);
}

static void prop_gcm_wrap(const hwc_cipher *c, const char *impl) {
    hwc_family fam = hwc_cipher_family(c);
    size_t klen = hwc_cipher_key_len(c);
    enum { NB = 40 };
    static uint8_t ctrs[NB * 16], ks[NB * 16];
    char what[160];
    for (int cs = 0; cs < 4; cs++) {
        uint8_t k[32], zero[16] = {0}, h[16], j0[16], ivx[16], chk[16], one[16] = {0x80};
        test_rand_bytes(k, klen);
        test_rand_bytes(j0, 16);
        const char *cname;
        switch (cs) {
        case 0:
            memset(j0, 0xff, 16);
            j0[15] = 0xfe; /* first counter ff..ff, then upper96 || 00000000 */
            cname = "J0=ff..fe";
            break;
        case 1:
            memset(j0 + 12, 0xff, 4);
            j0[15] = 0xfa; /* wrap inside a batch */
            cname = "J0 low32=fffffffa";
            break;
        case 2:
            memset(j0 + 12, 0xff, 4); /* the very first counter wraps */
            j0[11] = 0xff;
            cname = "J0 low32=ffffffff";
            break;
        default:
            memset(j0 + 12, 0xff, 4);
            j0[15] = 0xe0;
            cname = "J0 low32=ffffffe0";
            break;
        }
        snprintf(what, sizeof what, "%s impl=%s GCM %s", hwc_cipher_name(c), impl, cname);
        if (!CHECKF(ecb_blocks(impl, fam, k, klen, 1, zero, h, 1) == 0, "%s: ECB for H", what))
            continue;
        iv_for_j0(ivx, h, j0);
        /* Self-check of the algebra: GHASH(ivx || len) == j0, and a * a^-1 == 1. */
        {
            uint8_t y[16], l[16] = {0}, hi[16], p[16];
            l[15] = 128;
            gf_mul(y, ivx, h);
            for (int i = 0; i < 16; i++)
                y[i] ^= l[i];
            gf_mul(chk, y, h);
            gf_inv(hi, h);
            gf_mul(p, h, hi);
            CHECKF(memcmp(chk, j0, 16) == 0 && memcmp(p, one, 16) == 0, "%s: GF(2^128) helper self-check", what);
        }
        /* Counter blocks: upper 96 bits fixed, low 32 bits + i mod 2^32. */
        for (int b = 0; b < NB; b++) {
            memcpy(ctrs + 16 * b, j0, 16);
            uint32_t lo = ((uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 | (uint32_t)j0[14] << 8 | j0[15]) +
                          (uint32_t)(b + 1);
            ctrs[16 * b + 12] = (uint8_t)(lo >> 24);
            ctrs[16 * b + 13] = (uint8_t)(lo >> 16);
            ctrs[16 * b + 14] = (uint8_t)(lo >> 8);
            ctrs[16 * b + 15] = (uint8_t)lo;
        }
        if (!CHECKF(ecb_blocks(impl, fam, k, klen, 1, ctrs, ks, NB) == 0, "%s: ECB keystream", what))
            continue;
        size_t n = NB * 16 - 3, outlen;
        test_rand_bytes(pt, n);
        test_rand_bytes(aad, 20);
        op o = {.c = c, .impl = impl, .enc = HWC_ENCRYPT, .padding = -1, .key = k, .klen = klen, .iv = ivx, .ivlen = 16,
                .aad = aad, .aadlen = 20, .taglen = 16};
        for (int s = 0; s < 3; s++) {
            split ds;
            if (s == 0)
                ds.n = 0;
            else
                make_split(&ds, n, s == 1 ? 16 : 1, 1);
            int rc = run(&o, pt, n, ct, &outlen, s == 0 ? tag : tag2, &ds, NULL);
            if (!CHECKF(rc == 0 && outlen == n, "%s split %d: rc %d (%s)", what, s, rc, hwc_strerror(rc)))
                continue;
            for (size_t i = 0; i < n; i++)
                tmp[i] = ct[i] ^ pt[i];
            CHECK_MEM(tmp, ks, n, what);
            if (s)
                CHECK_MEM(tag2, tag, 16, what);
        }
        /* Decrypts back. */
        o.enc = HWC_DECRYPT;
        o.tagin = tag;
        int rc = run(&o, ct, n, tmp, &outlen, NULL, NULL, NULL);
        if (CHECKF(rc == 0 && outlen == n, "%s decrypt: rc %d (%s)", what, rc, hwc_strerror(rc)))
            CHECK_MEM(tmp, pt, n, what);
#ifdef HWC_HAVE_OPENSSL
        EVP_CIPHER *ec = EVP_CIPHER_fetch(NULL, hwc_cipher_name(c), NULL);
        if (ec) {
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            int l1 = 0, l2 = 0;
            uint8_t otag[16];
            int ok = EVP_EncryptInit_ex(x, ec, NULL, NULL, NULL) &&
                     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 16, NULL) > 0 &&
                     EVP_EncryptInit_ex(x, NULL, NULL, k, ivx) && EVP_EncryptUpdate(x, NULL, &l1, aad, 20) &&
                     EVP_EncryptUpdate(x, tmp2, &l1, pt, (int)n) && EVP_EncryptFinal_ex(x, tmp2 + l1, &l2) &&
                     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, otag) > 0;
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_free(ec);
            if (CHECKF(ok, "%s: OpenSSL", what)) {
                CHECK_MEM(ct, tmp2, n, what);
                CHECK_MEM(tag, otag, 16, what);
            }
        } else {
            static const hwc_cipher *skipped_for;
            if (skipped_for != c) { /* once per cipher */
                char w2[200];
                skipped_for = c;
                snprintf(w2, sizeof w2, "%s GCM counter wrap vs OpenSSL", hwc_cipher_name(c));
                test_skip(w2, "this OpenSSL has no such cipher (checked against the ECB keystream only)");
            }
        }
        ERR_clear_error();
#endif
    }
}

/* ----------------------------------------------- XTS ciphertext stealing */

/* GB/T 17964-2021 order (OpenSSL's XTSStandard=GB): shift right, fold 0xe1 into byte 0. */
static void xts_mul_alpha_gb(uint8_t t[16]) {
    unsigned carry = t[15] & 1;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] >> 1 | t[i - 1] << 7);
    t[0] >>= 1;
    if (carry)
        t[0] ^= 0xe1;
}

static void xts_mul_alpha(uint8_t t[16]) {
    unsigned carry = t[15] >> 7;
    for (int i = 15; i > 0; i--)
        t[i] = (uint8_t)(t[i] << 1 | t[i - 1] >> 7);
    t[0] = (uint8_t)(t[0] << 1);
    if (carry)
        t[0] ^= 0x87;
}

/* IEEE 1619 (or GB/T 17964) XTS from single-block ECB calls (with the same back end). */
static int xts_ref(const char *impl, hwc_family fam, int gb, const uint8_t *k, size_t half, int enc,
                   const uint8_t tw[16], const uint8_t *in, uint8_t *out, size_t n) {
    void (*alpha)(uint8_t *) = gb ? xts_mul_alpha_gb : xts_mul_alpha;
    uint8_t t[16], blk[16], tnext[16];
    size_t m = n / 16, r = n % 16;
    int rc = ecb_blocks(impl, fam, k + half, half, 1, tw, t, 1);
    if (rc)
        return rc;
    size_t full = r ? m - 1 : m;
    for (size_t j = 0; j < full; j++) {
        for (int i = 0; i < 16; i++)
            blk[i] = in[16 * j + i] ^ t[i];
        if ((rc = ecb_blocks(impl, fam, k, half, enc, blk, blk, 1)) != 0)
            return rc;
        for (int i = 0; i < 16; i++)
            out[16 * j + i] = blk[i] ^ t[i];
        alpha(t);
    }
    if (!r)
        return 0;
    /* Stealing: t = T_{m-1}, tnext = T_m. */
    memcpy(tnext, t, 16);
    alpha(tnext);
    const uint8_t *lastfull = in + 16 * (m - 1), *tail = in + 16 * m;
    uint8_t cc[16], pp[16];
    const uint8_t *t1 = enc ? t : tnext, *t2 = enc ? tnext : t;
    for (int i = 0; i < 16; i++)
        blk[i] = lastfull[i] ^ t1[i];
    if ((rc = ecb_blocks(impl, fam, k, half, enc, blk, blk, 1)) != 0)
        return rc;
    for (int i = 0; i < 16; i++)
        cc[i] = blk[i] ^ t1[i];
    memcpy(pp, tail, r);
    memcpy(pp + r, cc + r, 16 - r);
    for (int i = 0; i < 16; i++)
        blk[i] = pp[i] ^ t2[i];
    if ((rc = ecb_blocks(impl, fam, k, half, enc, blk, blk, 1)) != 0)
        return rc;
    for (int i = 0; i < 16; i++)
        out[16 * (m - 1) + i] = blk[i] ^ t2[i];
    memcpy(out + 16 * m, cc, r);
    return 0;
}

static void prop_xts(const hwc_cipher *c, const char *impl) {
    hwc_family fam = hwc_cipher_family(c);
    size_t klen = hwc_cipher_key_len(c), half = klen / 2;
    int gb = (flags_of(c) & HWC_CIPHER_XTS_GB) != 0;
    char what[160];
#ifdef HWC_HAVE_OPENSSL
    /* OpenSSL as an extra oracle for AES only: its SM4-XTS defaults to the
     * GB tweak order (test_diff_openssl covers SM4-XTS). */
    EVP_CIPHER *ec = fam == HWC_FAMILY_AES ? EVP_CIPHER_fetch(NULL, hwc_cipher_name(c), NULL) : NULL;
    ERR_clear_error();
#endif
    static const size_t big[] = {127, 128, 129, 255, 256, 257, 271, 511, 512, 519, 1023, 1024, 1039, 4095, 4096};
    unsigned long bad = 0;
    for (size_t li = 16; li <= 100 + sizeof big / sizeof big[0]; li++) {
        size_t n = li <= 100 ? li : big[li - 101];
        uint8_t k[64], tw[16];
        size_t outlen;
        rand_key(c, k, klen);
        test_rand_bytes(tw, 16);
        test_rand_bytes(pt, n);
        op o = {.c = c, .impl = impl, .enc = HWC_ENCRYPT, .padding = -1, .key = k, .klen = klen, .iv = tw, .ivlen = 16};
        snprintf(what, sizeof what, "%s impl=%s XTS len=%zu", hwc_cipher_name(c), impl, n);
        int rc = run(&o, pt, n, ct, &outlen, NULL, NULL, NULL);
        if (!CHECKF(rc == 0 && outlen == n, "%s encrypt: rc %d (%s)", what, rc, hwc_strerror(rc))) {
            bad++;
            continue;
        }
        o.enc = HWC_DECRYPT;
        rc = run(&o, ct, n, tmp, &outlen, NULL, NULL, NULL);
        if (!CHECKF(rc == 0 && outlen == n, "%s decrypt: rc %d", what, rc) || !CHECK_MEM(tmp, pt, n, what))
            bad++;
        if (CHECKF(xts_ref(impl, fam, gb, k, half, 1, tw, pt, tmp2, n) == 0, "%s: reference", what))
            CHECK_MEM(ct, tmp2, n, what);
        /* Decrypt random data both ways. */
        test_rand_bytes(big_in, n);
        rc = run(&o, big_in, n, tmp, &outlen, NULL, NULL, NULL);
        if (CHECKF(rc == 0 && xts_ref(impl, fam, gb, k, half, 0, tw, big_in, tmp2, n) == 0, "%s: dec ref", what))
            CHECK_MEM(tmp, tmp2, n, what);
#ifdef HWC_HAVE_OPENSSL
        if (ec) {
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            int l1 = 0, l2 = 0;
            int ok = EVP_EncryptInit_ex(x, ec, NULL, k, tw) && EVP_EncryptUpdate(x, tmp2, &l1, pt, (int)n) &&
                     EVP_EncryptFinal_ex(x, tmp2 + l1, &l2);
            EVP_CIPHER_CTX_free(x);
            ERR_clear_error();
            if (CHECKF(ok, "%s: OpenSSL", what))
                CHECK_MEM(ct, tmp2, n, what);
        }
#endif
    }
#ifdef HWC_HAVE_OPENSSL
    EVP_CIPHER_free(ec);
#endif
    (void)bad;
}

/* --------------------------------------------------------- CFB1 bits */

static void prop_cfb1_bits(const hwc_cipher *c, const char *impl) {
    size_t klen = hwc_cipher_key_len(c);
    char what[160];
    for (int t = 0; t < 4; t++) {
        uint8_t k[32], v[16], src[64], one[64], bits_out[64], chunk_in[64], chunk_out[64];
        size_t nbits = 1 + test_rand() % 400;
        test_rand_bytes(k, klen);
        test_rand_bytes(v, 16);
        test_rand_bytes(src, sizeof src);
        int enc = t & 1;
        snprintf(what, sizeof what, "%s impl=%s update_bits streaming %s nbits=%zu", hwc_cipher_name(c), impl,
                 enc ? "enc" : "dec", nbits);
        /* One call. */
        hwc_ctx *ctx = hwc_ctx_new();
        int rc = hwc_ctx_set_impl(ctx, impl);
        if (rc == 0)
            rc = hwc_init(ctx, c, enc, k, klen, v, 16);
        if (rc == 0)
            rc = hwc_update_bits(ctx, one, src, nbits);
        if (!CHECKF(rc == 0, "%s: rc %d (%s)", what, rc, hwc_strerror(rc))) {
            hwc_ctx_free(ctx);
            continue;
        }
        /* Bits past nbits are zero. */
        if (nbits % 8)
            CHECKF((one[nbits / 8] & (0xffu >> (nbits % 8))) == 0, "%s: trailing bits not zero", what);
        /* Random pieces, each packed into its own bytes. */
        memset(bits_out, 0, sizeof bits_out);
        rc = hwc_init(ctx, NULL, enc, NULL, 0, v, 16);
        size_t done = 0;
        while (rc == 0 && done < nbits) {
            size_t piece = test_rand() % 4 == 0 ? 0 : 1 + test_rand() % 70;
            if (piece > nbits - done)
                piece = nbits - done;
            memset(chunk_in, 0, sizeof chunk_in);
            for (size_t b = 0; b < piece; b++) {
                size_t sb = done + b;
                if ((src[sb / 8] >> (7 - sb % 8)) & 1)
                    chunk_in[b / 8] |= (uint8_t)(0x80u >> (b % 8));
            }
            rc = hwc_update_bits(ctx, chunk_out, chunk_in, piece);
            for (size_t b = 0; rc == 0 && b < piece; b++) {
                size_t db = done + b;
                if ((chunk_out[b / 8] >> (7 - b % 8)) & 1)
                    bits_out[db / 8] |= (uint8_t)(0x80u >> (db % 8));
            }
            done += piece;
        }
        if (CHECKF(rc == 0, "%s (pieces): rc %d (%s)", what, rc, hwc_strerror(rc)))
            CHECK_MEM(bits_out, one, (nbits + 7) / 8, what);
        /* Whole bytes: update_bits(8n) == update(n). */
        size_t nb = nbits / 8, ol = 0;
        rc = hwc_init(ctx, NULL, enc, NULL, 0, v, 16);
        if (rc == 0)
            rc = hwc_update(ctx, chunk_out, &ol, src, nb);
        if (CHECKF(rc == 0 && ol == nb, "%s (bytes): rc %d", what, rc))
            CHECK_MEM(chunk_out, one, nb, what);
        hwc_ctx_free(ctx);
    }
}

/* --------------------------------- SIV, GCM-SIV: streaming decryption */

/* Decrypts ct[0..n) (o->tagin the expected tag) in the pieces that the
 * sorted cut points give, after hwc_set_lengths, checking each call: a
 * genuine message comes out whole (expect: the plaintext) and final
 * succeeds; a forged one releases the pieces before the last
 * unauthenticated, as GCM's streaming decryption does (expect: what other
 * cuts released, NULL: not compared), and the update that completes it returns
 * HWC_ERR_AUTH with *out_len 0 and its piece zeroed, as final does after
 * it.  The context is replaced by a copy (hwc_ctx_copy) after piece
 * copy_after, when that is below the number of pieces. */
static void siv_pieces(const op *o, size_t n, const size_t *cuts, size_t ncuts, int forged, size_t copy_after,
                       const uint8_t *expect, const char *what) {
    hwc_ctx *ctx = hwc_ctx_new();
    size_t got, start = 0;
    int rc = ctx ? hwc_ctx_set_impl(ctx, o->impl) : HWC_ERR_NO_MEM;
    if (!rc)
        rc = hwc_init(ctx, o->c, HWC_DECRYPT, o->key, o->klen, o->iv, o->ivlen);
    if (!rc)
        rc = hwc_set_tag(ctx, o->tagin, 16);
    if (!rc)
        rc = hwc_set_lengths(ctx, o->aadlen, n);
    if (!rc && o->aadlen)
        rc = hwc_aad(ctx, o->aad, o->aadlen);
    if (!CHECKF(rc == 0, "%s: setting up: rc %d (%s)", what, rc, hwc_strerror(rc)))
        goto done;
    memset(tmp, 0xcc, n + 16);
    int completed = 0;
    for (size_t i = 0; i <= ncuts; i++) {
        size_t end = i < ncuts ? cuts[i] : n;
        if (completed && forged)
            break;
        got = 12345;
        rc = hwc_update(ctx, tmp + start, &got, ct + start, end - start);
        int completing = !completed && end == n;
        if (completing && forged) {
            CHECKF(rc == HWC_ERR_AUTH && got == 0, "%s: the completing update (piece %zu, %zu..%zu): rc %d (%s), "
                   "out_len %zu", what, i, start, end, rc, hwc_strerror(rc), got);
            int zeroed = 1;
            for (size_t b = start; b < end; b++)
                zeroed &= tmp[b] == 0;
            CHECKF(zeroed, "%s: the failed update left plaintext", what);
        } else if (CHECKF(rc == 0 && got == end - start, "%s: piece %zu (%zu..%zu): rc %d (%s), out_len %zu", what,
                          i, start, end, rc, hwc_strerror(rc), got)) {
            CHECKF(!expect || memcmp(tmp + start, expect + start, end - start) == 0, "%s: piece %zu (%zu..%zu) differs",
                   what, i, start, end);
        }
        completed |= completing;
        start = end;
        if (i == copy_after) {
            op copy_now = *o;
            copy_now.copy_at = 1;
            CHECKF(maybe_copy(&copy_now, &ctx, 0) == 0, "%s: hwc_ctx_copy failed", what);
        }
    }
    rc = hwc_final(ctx, tmp + n, &got);
    CHECKF(rc == (forged ? HWC_ERR_AUTH : 0), "%s: final rc %d (%s)", what, rc, hwc_strerror(rc));
    if (!forged)
        CHECKF(got == 0 && tmp[n] == 0xcc, "%s: final wrote %zu bytes", what, got);
done:
    hwc_ctx_free(ctx);
}

/* Every cut point (and every pair of them for short messages), genuine and
 * forged, against the one-call plaintext. */
static void prop_siv_stream(const hwc_cipher *c, const char *impl) {
    static const size_t lens[] = {0, 1, 15, 16, 17, 31, 32, 33, 48, 100, 129};
    char what[240];
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t n = lens[li], ctlen;
        op o;
        rand_op(&o, c, impl, li % 3 ? 17 * li : 0);
        test_rand_bytes(pt, n);
        if (!reference(&o, n, &ctlen) || !CHECK(ctlen == n))
            continue;
        o.enc = HWC_DECRYPT;
        memcpy(tag2, tag, 16);
        tag2[test_rand() % 16] ^= (uint8_t)(1u << (test_rand() % 8));
        for (int forged = 0; forged < 2; forged++) {
            o.tagin = forged ? tag2 : tag;
            /* A wrong tag starts CTR elsewhere: what is released before the
             * failing update is whatever a cut at n - 1 released. */
            const uint8_t *expect = pt;
            if (forged && n) {
                size_t last_cut = n - 1;
                snprintf(what, sizeof what, "%s impl=%s len=%zu forged, cut at %zu", hwc_cipher_name(c), impl, n,
                         last_cut);
                siv_pieces(&o, n, &last_cut, 1, 1, SIZE_MAX, NULL, what);
                memcpy(tmp2, tmp, n);
                expect = tmp2;
            }
            for (size_t p = 0; p <= n; p++) {
                size_t cuts[2] = {p, 0};
                snprintf(what, sizeof what, "%s impl=%s len=%zu aad=%zu %s, cut at %zu", hwc_cipher_name(c), impl, n,
                         o.aadlen, forged ? "forged" : "genuine", p);
                siv_pieces(&o, n, cuts, 1, forged, p % 3 == 1 ? 0 : SIZE_MAX, expect, what);
                for (size_t q = p; n <= 33 && q <= n; q++) {
                    cuts[1] = q;
                    snprintf(what, sizeof what, "%s impl=%s len=%zu aad=%zu %s, cuts at %zu and %zu",
                             hwc_cipher_name(c), impl, n, o.aadlen, forged ? "forged" : "genuine", p, q);
                    siv_pieces(&o, n, cuts, 2, forged, q % 5 == 2 ? 1 : SIZE_MAX, expect, what);
                }
            }
        }
    }
}

/* ---------------------------------------------- GCM records at offsets */

/* GCM streamed as records, every record starting at every offset 0..15 of
 * a block: updates of p, L, L and the rest, against one update; encrypt and
 * decrypt, out of place and in place. L spans the sizes where an update
 * completes a waiting partial block, runs the back end's one-call kernel
 * (16 whole blocks and more) and leaves a new partial block, and the
 * short updates that do not reach it. */
static void prop_gcm_records(const hwc_cipher *c, const char *impl) {
    static const size_t lens[] = {1, 15, 17, 100, 255, 256, 257, 262, 271, 300, 513, 1350};
    const size_t klen = hwc_cipher_key_len(c), rest = 37;
    char what[200];
    uint8_t k[32], n12[12];
    test_rand_bytes(k, klen);
    test_rand_bytes(n12, sizeof n12);
    test_rand_bytes(aad, 13);
    op o = {.c = c, .impl = impl, .padding = -1, .key = k, .klen = klen, .iv = n12, .ivlen = sizeof n12, .aad = aad,
            .aadlen = 13, .taglen = 16};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        for (size_t p = 0; p < 16; p++) {
            /* HWC_TEST_STRIDE=N: every Nth offset, a different one for
             * each length. */
            if ((p + li) % test_stride() != 0)
                continue;
            const size_t L = lens[li], n = p + 2 * L + rest;
            size_t outlen;
            split ds = {4, {p, L, L, rest}};
            test_rand_bytes(pt, n);
            o.enc = HWC_ENCRYPT;
            int rc = run(&o, pt, n, ct, &outlen, tag, NULL, NULL);
            snprintf(what, sizeof what, "%s impl=%s records %zu, %zu, %zu, %zu", hwc_cipher_name(c), impl, p, L, L,
                     rest);
            if (!CHECKF(rc == 0 && outlen == n, "%s: one update: rc %d (%s)", what, rc, hwc_strerror(rc)))
                continue;
            for (int inplace = 0; inplace < 2; inplace++) {
                memcpy(tmp, pt, n);
                memset(tag2, 0xcc, sizeof tag2);
                rc = run(&o, inplace ? tmp : pt, n, tmp, &outlen, tag2, &ds, NULL);
                if (CHECKF(rc == 0 && outlen == n, "%s%s encrypt: rc %d (%s)", what, inplace ? " in place" : "",
                           rc, hwc_strerror(rc))) {
                    CHECK_MEM(tmp, ct, n, what);
                    CHECK_MEM(tag2, tag, 16, what);
                }
                o.enc = HWC_DECRYPT;
                o.tagin = tag;
                memcpy(tmp, ct, n);
                rc = run(&o, inplace ? tmp : ct, n, tmp, &outlen, NULL, &ds, NULL);
                if (CHECKF(rc == 0 && outlen == n, "%s%s decrypt: rc %d (%s)", what, inplace ? " in place" : "",
                           rc, hwc_strerror(rc)))
                    CHECK_MEM(tmp, pt, n, what);
                o.enc = HWC_ENCRYPT;
                o.tagin = NULL;
            }
        }
    }
}

/* ------------------------------------------------------------ driver */

int main(void) {
    int fams[2] = {HWC_FAMILY_AES, HWC_FAMILY_SM4};
    for (int f = 0; f < 2; f++) {
        int fi = fams[f];
        test_each_impl((hwc_family)fi, collect_impl, &fi);
    }
    CHECKF(hwc_cipher_count() > 0, "cipher table is empty");
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        hwc_family fam = hwc_cipher_family(c);
        hwc_mode m = hwc_cipher_mode(c);
        unsigned long failed_before = test_failed;
        for (int k = 0; k < nimpls[fam]; k++) {
            const char *impl = impls[fam][k];
            prop_streaming(c, impl);
            prop_inplace(c, impl);
            prop_alignment(c, impl);
            prop_roundtrip(c, impl);
            prop_tamper(c, impl);
            if (m == HWC_MODE_CTR)
                prop_ctr_wrap(c, impl);
            if (m == HWC_MODE_GCM) {
                prop_gcm_wrap(c, impl);
                prop_gcm_records(c, impl);
            }
            if (m == HWC_MODE_XTS)
                prop_xts(c, impl);
            if (m == HWC_MODE_CFB1)
                prop_cfb1_bits(c, impl);
            if (is_siv_like(c))
                prop_siv_stream(c, impl);
        }
        printf("%-20s %s (%d back end%s)\n", hwc_cipher_name(c), test_failed == failed_before ? "ok" : "FAILED",
               nimpls[fam], nimpls[fam] == 1 ? "" : "s");
    }
    return test_summary("test_properties");
}
