/* Input parsing and the hwcrypt runner shared by the fuzz targets. */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ input */

/* Bytes past the end of the input get a pattern rather than zeros: an
 * all-zero key or block is a special case we do not want to hit by default. */
static void rd_fill(reader *r, uint8_t *dst, size_t len, unsigned salt) {
    size_t avail = r->n - r->pos, take = len < avail ? len : avail;
    if (take)
        memcpy(dst, r->p + r->pos, take);
    r->pos += take;
    for (size_t i = take; i < len; i++)
        dst[i] = (uint8_t)(i * 0x9d + salt * 0x3b + 1);
}

int fz_is_aead(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_AEAD) != 0; }
int fz_is_mac(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_MAC) != 0; }
int fz_is_wrap(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_WRAP) != 0; }

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

void fz_parse(fz_case *k, const uint8_t *data, size_t size) {
    reader r = {data, size, 0};
    memset(k, 0, sizeof *k);
    k->cipher_index = rd_u8(&r) % hwc_cipher_count();
    k->c = hwc_cipher_at(k->cipher_index);
    k->flags = rd_u8(&r);
    unsigned key_sel = rd_u8(&r), iv_sel = rd_u8(&r), tag_sel = rd_u8(&r);
    k->key_len = key_sel < 0xC0 ? hwc_cipher_key_len(k->c) : (key_sel & 0x3f);
    k->iv_len = iv_sel < 0x80 ? hwc_cipher_iv_len(k->c) : (iv_sel & 0x7f);
    size_t def_tag = hwc_cipher_tag_len(k->c) ? hwc_cipher_tag_len(k->c) : 16;
    k->tag_len = tag_sel < 0x80 ? def_tag : (tag_sel & 0x1f);
    k->aad_len = rd_u16(&r) % (FZ_MAX_AAD + 1);
    k->aad_split = rd_u16(&r) % (k->aad_len + 1);
    k->data_len = rd_u16(&r) % (FZ_MAX_DATA + 1);
    /* CFB1 runs the block cipher once per bit, CFB8 once per byte: long
     * messages there only make the fuzzer slow (a 4 KiB CFB1 case took 15 s
     * under ASan), never reach new code. */
    if (hwc_cipher_mode(k->c) == HWC_MODE_CFB1 && k->data_len > FZ_MAX_DATA_CFB1)
        k->data_len %= FZ_MAX_DATA_CFB1 + 1;
    if (hwc_cipher_mode(k->c) == HWC_MODE_CFB8 && k->data_len > FZ_MAX_DATA_CFB8)
        k->data_len %= FZ_MAX_DATA_CFB8 + 1;
    k->nsplits = rd_u8(&r) % (FZ_MAX_SPLITS + 1);
    for (size_t i = 0; i < k->nsplits; i++)
        k->split[i] = rd_u16(&r) % (k->data_len + 1);
    qsort(k->split, k->nsplits, sizeof k->split[0], cmp_size);
    for (size_t i = 0; i < sizeof k->tamper; i++)
        k->tamper[i] = (uint8_t)rd_u8(&r);
    rd_fill(&r, k->tag_in, sizeof k->tag_in, 1);
    rd_fill(&r, k->key, k->key_len, 2);
    rd_fill(&r, k->iv, k->iv_len, 3);
    rd_fill(&r, k->aad, k->aad_len, 4);
    rd_fill(&r, k->data, k->data_len, 5);
}

/* --------------------------------------------------------- back ends */

size_t fz_impls(hwc_family family, const char *names[FZ_MAX_IMPLS]) {
    size_t n = 0;
    names[n++] = "ct"; /* the reference first */
    for (size_t i = 0; i < hwc_impl_count() && n < FZ_MAX_IMPLS; i++) {
        const char *name = hwc_impl_name(i);
        if (!name || hwc_impl_is_ghash(i) || hwc_impl_family(i) != family || !hwc_impl_available(i, NULL) ||
            strcmp(name, "ct") == 0)
            continue;
        names[n++] = name;
    }
    return n;
}

/* ----------------------------------------------------------- failing */

void fz_fail(const fz_case *k, const char *file, int line, const char *expr, const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "\nFUZZ CHECK FAILED at %s:%d: %s\n  ", file, line, expr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n  case: %s flags=0x%02x key=%zu iv=%zu aad=%zu (split %zu) tag=%zu data=%zu splits=%zu [",
            hwc_cipher_name(k->c), k->flags, k->key_len, k->iv_len, k->aad_len, k->aad_split, k->tag_len,
            k->data_len, k->nsplits);
    for (size_t i = 0; i < k->nsplits; i++)
        fprintf(stderr, "%s%zu", i ? " " : "", k->split[i]);
    fprintf(stderr, "]\n");
    abort();
}

int fz_all_zero(const uint8_t *p, size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

void fz_result_free(fz_result *r) {
    free(r->out);
    r->out = NULL;
}

void fz_check_same(const fz_case *k, const fz_result *a, const fz_result *b, const char *what) {
    FZ_CHECK(k, a->rc == b->rc, "%s: rc %d (%s) vs %d (%s)", what, a->rc, hwc_strerror(a->rc), b->rc,
             hwc_strerror(b->rc));
    if (a->rc != HWC_OK)
        return;
    FZ_CHECK(k, a->out_len == b->out_len, "%s: output length %zu vs %zu", what, a->out_len, b->out_len);
    FZ_CHECK(k, memcmp(a->out, b->out, a->out_len) == 0, "%s: output differs", what);
    FZ_CHECK(k, a->tag_len == b->tag_len && memcmp(a->tag, b->tag, a->tag_len) == 0, "%s: tag differs", what);
}

size_t fz_expected_out_len(const fz_case *k, size_t in_len) {
    switch (hwc_cipher_mode(k->c)) {
    case HWC_MODE_ECB:
    case HWC_MODE_CBC:
        return (k->flags & FZ_F_NO_PADDING) ? in_len : (in_len / 16 + 1) * 16;
    case HWC_MODE_KW:
        return in_len + 8;
    case HWC_MODE_KWP:
        return (in_len + 7) / 8 * 8 + 8;
    case HWC_MODE_CMAC:
    case HWC_MODE_GMAC:
        return 0;
    default:
        return in_len;
    }
}

/* ------------------------------------------------------------ runner */

/* Feeds [0, len) in the pieces the split points cut (empty pieces too:
 * a zero-length update must be harmless). */
static int feed_updates(const fz_case *k, hwc_ctx *ctx, int one_call, uint8_t *out, size_t *pos, const uint8_t *in,
                        size_t len) {
    size_t start = 0;
    for (size_t i = 0; !one_call && i <= k->nsplits; i++) {
        size_t end = i < k->nsplits ? k->split[i] : len;
        if (end > len)
            end = len;
        if (end < start)
            end = start;
        size_t n = 0;
        int rc = hwc_update(ctx, out + *pos, &n, in + start, end - start);
        if (rc)
            return rc;
        FZ_CHECK(k, n <= end - start + 16, "hwc_update wrote %zu bytes for %zu in", n, end - start);
        *pos += n;
        start = end;
    }
    if (one_call) {
        size_t n = 0;
        int rc = hwc_update(ctx, out + *pos, &n, in, len);
        if (rc)
            return rc;
        FZ_CHECK(k, n <= len + 16, "hwc_update wrote %zu bytes for %zu in", n, len);
        *pos += n;
    }
    return HWC_OK;
}

static int run_final(const fz_case *k, hwc_ctx *ctx, uint8_t *out, size_t *pos) {
    size_t n = 0;
    int rc = hwc_final(ctx, out + *pos, &n);
    if (rc)
        return rc;
    FZ_CHECK(k, n <= 16, "hwc_final wrote %zu bytes", n);
    *pos += n;
    return HWC_OK;
}

static hwc_ctx *new_ctx(const fz_case *k, const char *impl, int *rc) {
    hwc_ctx *ctx = hwc_ctx_new();
    FZ_CHECK(k, ctx != NULL, "hwc_ctx_new");
    *rc = hwc_ctx_set_impl(ctx, impl);
    FZ_CHECK(k, *rc == HWC_OK, "hwc_ctx_set_impl(%s) = %d", impl ? impl : "NULL", *rc);
    return ctx;
}

static void run_wrap(const fz_case *k, const char *impl, int enc, const uint8_t *src, size_t in_len,
                     enum fz_feed feed, fz_result *res) {
    const hwc_cipher *c = k->c;
    if (feed == FZ_ONESHOT && !impl) {
        res->rc = (enc ? hwc_key_wrap : hwc_key_unwrap)(c, k->key, k->key_len, src, in_len, res->out, res->out_cap,
                                                        &res->out_len);
    } else {
        int rc;
        hwc_ctx *ctx = new_ctx(k, impl, &rc);
        rc = hwc_init(ctx, c, enc ? HWC_ENCRYPT : HWC_DECRYPT, k->key, k->key_len, NULL, 0);
        if (!rc)
            rc = (enc ? hwc_ctx_key_wrap : hwc_ctx_key_unwrap)(ctx, src, in_len, res->out, res->out_cap,
                                                               &res->out_len);
        res->rc = rc;
        hwc_ctx_free(ctx);
    }
    if (!enc && res->rc == HWC_ERR_AUTH)
        FZ_CHECK(k, fz_all_zero(res->out, res->out_cap), "failed unwrap left output bytes (%s)", impl ? impl : "auto");
}

static void run_mac(const fz_case *k, const char *impl, int enc, const uint8_t *in, size_t in_len,
                    const uint8_t *tag_in, enum fz_feed feed, fz_result *res) {
    const hwc_cipher *c = k->c;
    res->tag_len = k->tag_len <= FZ_MAX_TAG ? k->tag_len : FZ_MAX_TAG;
    if (enc && feed == FZ_ONESHOT && !impl) {
        res->rc = hwc_mac(c, k->key, k->key_len, k->iv, k->iv_len, in, in_len, res->tag, k->tag_len);
        return;
    }
    int rc;
    hwc_ctx *ctx = new_ctx(k, impl, &rc);
    rc = hwc_init(ctx, c, HWC_ENCRYPT, k->key, k->key_len, k->iv, k->iv_len);
    if (!rc) {
        if (feed == FZ_ONESHOT) {
            rc = hwc_aad(ctx, in, in_len);
        } else {
            size_t start = 0;
            for (size_t i = 0; !rc && i <= k->nsplits; i++) {
                size_t end = i < k->nsplits ? k->split[i] : in_len;
                if (end > in_len)
                    end = in_len;
                if (end < start)
                    end = start;
                rc = hwc_aad(ctx, in + start, end - start);
                start = end;
            }
        }
    }
    if (!rc)
        rc = enc ? hwc_mac_final(ctx, res->tag, k->tag_len) : hwc_mac_verify(ctx, tag_in, k->tag_len);
    res->rc = rc;
    hwc_ctx_free(ctx);
}

static void run_aead(const fz_case *k, const char *impl, int enc, const uint8_t *src, size_t in_len,
                     const uint8_t *tag_in, enum fz_feed feed, fz_result *res) {
    const hwc_cipher *c = k->c;
    hwc_mode m = hwc_cipher_mode(c);
    int rc;
    hwc_ctx *ctx = new_ctx(k, impl, &rc);
    res->tag_len = k->tag_len <= FZ_MAX_TAG ? k->tag_len : FZ_MAX_TAG;
    if (feed == FZ_ONESHOT) {
        /* Key first, nonce with the one-shot call (EVP-style two steps). */
        rc = hwc_init(ctx, c, enc ? HWC_ENCRYPT : HWC_DECRYPT, k->key, k->key_len, NULL, 0);
        if (!rc) {
            if (enc)
                rc = hwc_aead_seal(ctx, k->iv, k->iv_len, k->aad, k->aad_len, src, in_len, res->out, res->tag,
                                   k->tag_len);
            else
                rc = hwc_aead_open(ctx, k->iv, k->iv_len, k->aad, k->aad_len, src, in_len, res->out, tag_in,
                                   k->tag_len);
        }
        if (!rc)
            res->out_len = in_len;
        if (!enc && rc == HWC_ERR_AUTH)
            FZ_CHECK(k, fz_all_zero(res->out, in_len), "hwc_aead_open failed authentication but left plaintext (%s)",
                     impl ? impl : "auto");
        res->rc = rc;
        hwc_ctx_free(ctx);
        return;
    }
    size_t pos = 0;
    /* SIV and GCM-SIV decryption streams in the case's pieces once the
     * lengths are declared; their encryption takes one update. */
    int siv_stream = !enc && (m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV);
    rc = hwc_init(ctx, c, enc ? HWC_ENCRYPT : HWC_DECRYPT, k->key, k->key_len, k->iv, k->iv_len);
    if (!rc && (m == HWC_MODE_CCM || siv_stream))
        rc = hwc_set_lengths(ctx, k->aad_len, in_len);
    if (!rc)
        rc = enc ? hwc_set_tag_len(ctx, k->tag_len) : hwc_set_tag(ctx, tag_in, k->tag_len);
    if (!rc) {
        if (m == HWC_MODE_SIV) {
            /* Each hwc_aad() is one S2V component: one, as the one-shot call. */
            if (k->aad_len)
                rc = hwc_aad(ctx, k->aad, k->aad_len);
        } else {
            rc = hwc_aad(ctx, k->aad, k->aad_split);
            if (!rc)
                rc = hwc_aad(ctx, k->aad + k->aad_split, k->aad_len - k->aad_split);
        }
    }
    int one_call = (hwc_cipher_flags(c) & HWC_CIPHER_ONE_SHOT) != 0 && !siv_stream;
    if (!rc) {
        rc = feed_updates(k, ctx, one_call, res->out, &pos, src, in_len);
        /* The update that completes the message checks the tag: on failure
         * its piece, the rest of the message from pos, is zeroed. */
        if (rc == HWC_ERR_AUTH && (one_call || siv_stream))
            FZ_CHECK(k, fz_all_zero(res->out + pos, in_len - pos), "%s update failed authentication but left plaintext",
                     hwc_cipher_name(c));
    }
    if (!rc)
        rc = run_final(k, ctx, res->out, &pos);
    if (!rc && enc)
        rc = hwc_get_tag(ctx, res->tag, k->tag_len);
    res->out_len = pos;
    res->rc = rc;
    hwc_ctx_free(ctx);
}

static void run_plain(const fz_case *k, const char *impl, int enc, const uint8_t *src, size_t in_len,
                      enum fz_feed feed, fz_result *res) {
    const hwc_cipher *c = k->c;
    int rc;
    size_t pos = 0;
    hwc_ctx *ctx = new_ctx(k, impl, &rc);
    rc = hwc_init(ctx, c, enc ? HWC_ENCRYPT : HWC_DECRYPT, k->key, k->key_len, k->iv, k->iv_len);
    if (!rc && (hwc_cipher_flags(c) & HWC_CIPHER_PADDING) && (k->flags & FZ_F_NO_PADDING))
        rc = hwc_set_padding(ctx, 0);
    int one_call = feed == FZ_ONESHOT || (hwc_cipher_flags(c) & HWC_CIPHER_ONE_SHOT);
    if (!rc)
        rc = feed_updates(k, ctx, one_call, res->out, &pos, src, in_len);
    if (!rc)
        rc = run_final(k, ctx, res->out, &pos);
    res->out_len = pos;
    res->rc = rc;
    hwc_ctx_free(ctx);
}

void fz_run(const fz_case *k, const char *impl, int encrypt, const uint8_t *in, size_t in_len,
            const uint8_t *tag_in, enum fz_feed feed, fz_result *res) {
    memset(res, 0, sizeof *res);
    res->out_cap = in_len + 16;
    res->out = malloc(res->out_cap);
    FZ_CHECK(k, res->out != NULL, "malloc");
    memset(res->out, 0xa5, res->out_cap);
    const uint8_t *src = in;
    if (feed == FZ_ONESHOT && (k->flags & FZ_F_IN_PLACE) && !fz_is_mac(k->c)) {
        memcpy(res->out, in, in_len);
        src = res->out;
    }
    if (fz_is_wrap(k->c))
        run_wrap(k, impl, encrypt, src, in_len, feed, res);
    else if (fz_is_mac(k->c))
        run_mac(k, impl, encrypt, in, in_len, tag_in, feed, res);
    else if (fz_is_aead(k->c))
        run_aead(k, impl, encrypt, src, in_len, tag_in, feed, res);
    else
        run_plain(k, impl, encrypt, src, in_len, feed, res);
    if (res->rc == HWC_OK && encrypt && !fz_is_mac(k->c))
        FZ_CHECK(k, res->out_len == fz_expected_out_len(k, in_len), "%s (%s, %s): %zu bytes out for %zu in, want %zu",
                 hwc_cipher_name(k->c), impl ? impl : "auto", feed == FZ_ONESHOT ? "one-shot" : "streaming",
                 res->out_len, in_len, fz_expected_out_len(k, in_len));
    if (res->rc != HWC_OK)
        res->out_len = 0;
}
