/* fuzz_api_misuse: random call sequences on one context.
 *
 * The input is a program: a few header bytes, then operations (init with
 * any cipher, key and IV length or NULLs; padding, tag length, lengths,
 * tag; AAD; update (normal, in place, overlapping, NULL); update_bits;
 * final; one-shot seal/open; MAC final/verify; key wrap/unwrap with short
 * buffers; back-end forcing with bad names; free and renew), in any order
 * and with any lengths.  The program runs on two contexts at once, one
 * forced to `ct` and one on automatic selection, and:
 *   - nothing crashes, reads or writes out of bounds (ASan: every buffer is
 *     allocated with exactly the size the call is told), or leaks (LSan);
 *   - every return value is HWC_OK or a defined hwc_err;
 *   - both contexts return the same code and the same output bytes;
 *   - a call that fails leaves its context byte for byte as it was (the
 *     header's promise), except for authentication and padding failures,
 *     which end the message;
 *   - output lengths stay within what the API documents;
 *   - a length near SIZE_MAX (over PTRDIFF_MAX: no buffer is that long) is
 *     refused before any buffer is touched: the buffers passed with it are
 *     64 bytes, so AddressSanitizer sees any access, and the call must fail.
 *     update_bits gets one only with NULL pointers: its byte count, nbits /
 *     8, is a length a buffer could have.
 * Lengths are biased small now and then, so SIV and GCM-SIV decryption
 * with declared lengths (hwc_set_lengths) streams to its end.
 * The context layout comes from src/internal.h for that comparison. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "internal.h"

#define MAX_OPS 48
#define MAX_LEN 2048


static uint8_t pattern[MAX_LEN + 64];
static fz_case dummy; /* for FZ_CHECK's report */

/* Near SIZE_MAX: the library must refuse it without touching a buffer. */
#define HUGE_LEN(n) ((size_t)(n) > (size_t)PTRDIFF_MAX)
#define HUGE_ROOM 64 /* the buffers passed with such a length */
/* A drawn length: its top 16 values give SIZE_MAX - 0..15, the rest 0..max-1. */
static size_t len_from(unsigned v, size_t max) { return v >= 0xfff0 ? SIZE_MAX - (v & 0xf) : v % max; }

/* Exactly-sized heap copies, so ASan catches any access past them. */
static uint8_t *buf(size_t n, uint8_t fill) {
    if (HUGE_LEN(n))
        n = HUGE_ROOM;
    uint8_t *b = malloc(n ? n : 1);
    FZ_CHECK(&dummy, b != NULL, "malloc");
    memset(b, fill, n ? n : 1);
    return b;
}
static uint8_t *input(size_t n) {
    uint8_t *b = buf(n, 0);
    memcpy(b, pattern, HUGE_LEN(n) ? HUGE_ROOM : n);
    return b;
}
/* The size buf() allocates for a length. */
static size_t room_for(size_t n) { return HUGE_LEN(n) ? HUGE_ROOM : n; }

static const char *op_names[] = {"init", "set_padding", "set_tag_len", "set_lengths", "set_tag", "get_tag",
                                 "aad", "update", "update_bits", "final", "aead_seal", "aead_open", "mac_final",
                                 "mac_verify", "key_wrap", "key_unwrap", "set_impl", "query", "renew"};
#define N_OPS (sizeof op_names / sizeof op_names[0])

/* One operation's arguments, drawn once and applied to both contexts. */
typedef struct op {
    unsigned code;
    const hwc_cipher *cipher;
    int enc, null_ptr, variant;
    size_t key_len, iv_len, len, len2, tag_len;
    uint64_t l1, l2;
} op;

typedef struct outcome {
    int rc;
    int huge; /* the call was given a length near SIZE_MAX that it must refuse */
    size_t out_len;
    uint8_t *out;
    size_t out_size;
} outcome;

static int known_rc(int rc) { return rc <= 0 && rc >= HWC_ERR_UNAVAILABLE; }

static void apply(hwc_ctx **pctx, const op *o, outcome *res, int is_ct) {
    hwc_ctx *ctx = *pctx;
    uint8_t key[FZ_MAX_KEY], iv[FZ_MAX_IV];
    memcpy(key, pattern + 7, sizeof key);
    memcpy(iv, pattern + 3, sizeof iv);
    res->out = NULL;
    res->out_len = 0;
    res->out_size = 0;
    res->huge = 0;
    int rc = 0;
    switch (o->code) {
    case 0:
        /* key_len counts only with a key (NULL keeps the current one). */
        res->huge = (!(o->variant & 1) && HUGE_LEN(o->key_len)) || HUGE_LEN(o->iv_len);
        rc = hwc_init(ctx, o->cipher, o->enc, o->variant & 1 ? NULL : key, o->key_len, o->variant & 2 ? NULL : iv,
                      o->iv_len);
        break;
    case 1:
        rc = hwc_set_padding(ctx, (int)o->len);
        break;
    case 2:
        rc = hwc_set_tag_len(ctx, o->tag_len);
        break;
    case 3:
        rc = hwc_set_lengths(ctx, o->l1, o->l2);
        break;
    case 4: {
        uint8_t *t = o->null_ptr ? NULL : input(o->tag_len);
        res->huge = HUGE_LEN(o->tag_len);
        rc = hwc_set_tag(ctx, t, o->tag_len);
        free(t);
        break;
    }
    case 5:
        res->out_size = room_for(o->tag_len);
        res->out = o->null_ptr ? NULL : buf(o->tag_len, 0xa5);
        res->huge = HUGE_LEN(o->tag_len);
        rc = hwc_get_tag(ctx, res->out, o->tag_len);
        res->out_len = o->tag_len;
        break;
    case 6: {
        uint8_t *a = o->null_ptr ? NULL : input(o->len);
        res->huge = HUGE_LEN(o->len);
        rc = hwc_aad(ctx, a, o->len);
        free(a);
        break;
    }
    case 7: {
        /* variant: 0 separate buffers, 1 in place, 2 overlapping by one byte */
        size_t have = room_for(o->len), room = have + 16;
        res->out_size = room;
        res->huge = HUGE_LEN(o->len);
        if (o->variant == 1 || o->variant == 2) {
            res->out = buf(room + 1, 0xa5);
            memcpy(res->out + (o->variant == 2), pattern, have);
            rc = hwc_update(ctx, res->out, &res->out_len, res->out + (o->variant == 2), o->len);
            /* docs/ERRORS.md's order: the state, then whether the cipher
             * has hwc_update at all (a MAC, a key wrap: UNSUPPORTED), then
             * the length, then overlap. */
            int no_update = ctx && ctx->cipher && (hwc_cipher_flags(ctx->cipher) & (HWC_CIPHER_MAC | HWC_CIPHER_WRAP));
            if (o->variant == 2 && o->len > 1)
                FZ_CHECK(&dummy,
                         rc == HWC_ERR_STATE || rc == HWC_ERR_NULL ||
                             (no_update ? rc == HWC_ERR_UNSUPPORTED
                                        : rc == HWC_ERR_OVERLAP || (res->huge && rc == HWC_ERR_DATA_LEN)),
                         "overlapping update (%s) returned %d", ctx && ctx->cipher ? hwc_cipher_name(ctx->cipher) : "-",
                         rc);
        } else {
            uint8_t *in = input(o->len);
            res->out = o->null_ptr ? NULL : buf(room, 0xa5);
            rc = hwc_update(ctx, res->out, &res->out_len, in, o->len);
            free(in);
        }
        if (rc == HWC_OK)
            FZ_CHECK(&dummy, res->out_len <= o->len + 16, "update wrote %zu for %zu", res->out_len, o->len);
        break;
    }
    case 8: {
        if (HUGE_LEN(o->len)) {
            /* nbits near SIZE_MAX is ~2^61 bytes, a length a buffer could
             * have: only with NULL pointers is a refusal certain (issue 14 D4). */
            rc = hwc_update_bits(ctx, NULL, NULL, o->len);
            FZ_CHECK(&dummy, rc == HWC_ERR_NULL, "hwc_update_bits(NULL, NULL, %zu) returned %d", o->len, rc);
            break;
        }
        size_t bytes = (o->len + 7) / 8;
        uint8_t *in = input(bytes);
        res->out_size = bytes;
        res->out = buf(bytes, 0xa5);
        rc = hwc_update_bits(ctx, res->out, in, o->len);
        res->out_len = bytes;
        free(in);
        break;
    }
    case 9:
        res->out_size = 16;
        res->out = o->null_ptr ? NULL : buf(16, 0xa5);
        rc = hwc_final(ctx, res->out, o->variant ? NULL : &res->out_len);
        if (rc == HWC_OK)
            FZ_CHECK(&dummy, res->out_len <= 16, "final wrote %zu", res->out_len);
        break;
    case 10:
    case 11: {
        uint8_t *n = input(o->iv_len), *a = input(o->len2), *in = input(o->len);
        uint8_t *t = o->null_ptr ? NULL : input(o->tag_len);
        res->out_size = room_for(o->len);
        res->out = buf(o->len, 0xa5);
        res->huge = HUGE_LEN(o->iv_len) || HUGE_LEN(o->len2) || HUGE_LEN(o->len) || HUGE_LEN(o->tag_len);
        if (o->code == 10)
            rc = hwc_aead_seal(ctx, n, o->iv_len, a, o->len2, in, o->len, res->out, t, o->tag_len);
        else
            rc = hwc_aead_open(ctx, n, o->iv_len, a, o->len2, in, o->len, res->out, t, o->tag_len);
        res->out_len = o->len;
        if (o->code == 11 && rc == HWC_ERR_AUTH)
            FZ_CHECK(&dummy, fz_all_zero(res->out, o->len), "failed open left output");
        free(n);
        free(a);
        free(in);
        free(t);
        break;
    }
    case 12:
        res->out_size = room_for(o->tag_len);
        res->out = buf(o->tag_len, 0xa5);
        res->huge = HUGE_LEN(o->tag_len);
        rc = hwc_mac_final(ctx, res->out, o->tag_len);
        res->out_len = o->tag_len;
        break;
    case 13: {
        uint8_t *t = input(o->tag_len);
        res->huge = HUGE_LEN(o->tag_len);
        rc = hwc_mac_verify(ctx, t, o->tag_len);
        free(t);
        break;
    }
    case 14:
    case 15: {
        uint8_t *in = input(o->len);
        res->out_size = room_for(o->len2);
        res->out = buf(o->len2, 0xa5);
        res->huge = HUGE_LEN(o->len) || HUGE_LEN(o->len2);
        rc = (o->code == 14 ? hwc_ctx_key_wrap : hwc_ctx_key_unwrap)(ctx, in, o->len, res->out, o->len2,
                                                                     &res->out_len);
        if (rc == HWC_OK)
            FZ_CHECK(&dummy, res->out_len <= o->len2, "wrap wrote %zu into %zu", res->out_len, o->len2);
        if (o->code == 15 && rc == HWC_ERR_AUTH)
            FZ_CHECK(&dummy, fz_all_zero(res->out, res->out_size), "failed unwrap left output");
        free(in);
        break;
    }
    case 16: {
        /* Names valid (or invalid) for both families; ct stays forced on ctx A. */
        static const char *names[] = {NULL, "", "no-such-impl", "a-name-longer-than-any-back-end-name-here"};
        const char *name = names[o->variant % 4];
        rc = hwc_ctx_set_impl(ctx, is_ct && (!name || !*name) ? "ct" : name);
        int want = name && *name ? HWC_ERR_UNKNOWN : HWC_OK;
        FZ_CHECK(&dummy, rc == want, "hwc_ctx_set_impl(%s) = %d, want %d", name ? name : "NULL", rc, want);
        break;
    }
    case 17: {
        /* Whether a back end is reported: the same on both contexts. */
        res->out_size = res->out_len = 2;
        res->out = buf(2, 0);
        res->out[0] = hwc_ctx_impl(ctx) != NULL;
        res->out[1] = hwc_ctx_ghash_impl(ctx) != NULL;
        if (is_ct && res->out[0])
            FZ_CHECK(&dummy, strcmp(hwc_ctx_impl(ctx), "ct") == 0, "forced ct, got %s", hwc_ctx_impl(ctx));
        rc = HWC_OK;
        break;
    }
    case 18:
        hwc_ctx_free(ctx);
        *pctx = hwc_ctx_new();
        FZ_CHECK(&dummy, *pctx != NULL, "hwc_ctx_new");
        rc = is_ct ? hwc_ctx_set_impl(*pctx, "ct") : HWC_OK;
        break;
    }
    res->rc = rc;
}

static void draw(reader *r, op *o, hwc_ctx *ctx) {
    memset(o, 0, sizeof *o);
    o->code = rd_u8(r) % N_OPS;
    unsigned a = rd_u8(r);
    o->null_ptr = (a & 0x80) != 0 && (a & 0x40) != 0; /* rare */
    o->variant = (int)(a & 3);
    o->enc = (a & 4) ? HWC_ENCRYPT : HWC_DECRYPT;
    if ((a & 0x38) == 0x38)
        o->enc = 2; /* neither */
    const hwc_cipher *cur = ctx->cipher;
    unsigned cs = rd_u8(r);
    o->cipher = cs == 0xff ? NULL : hwc_cipher_at(cs % hwc_cipher_count());
    const hwc_cipher *c = o->cipher ? o->cipher : cur;
    unsigned ks = rd_u8(r), is = rd_u8(r), ts = rd_u8(r);
    o->key_len = ks == 0xff ? SIZE_MAX : c && ks < 0xc0 ? hwc_cipher_key_len(c) : (ks & 0x3f);
    o->iv_len = is == 0xff ? SIZE_MAX - 1 : c && is < 0x80 ? hwc_cipher_iv_len(c) : (is & 0x7f);
    o->tag_len = ts == 0xff ? SIZE_MAX - 2 : c && ts < 0x80 && hwc_cipher_tag_len(c) ? hwc_cipher_tag_len(c) : (ts & 0x1f);
    o->len = len_from(rd_u16(r), MAX_LEN);
    o->len2 = len_from(rd_u16(r), MAX_LEN);
    /* Short pieces now and then (len2 is no length of an update or AAD
     * call), so declared SIV / GCM-SIV messages reach their end. */
    if ((o->code == 6 || o->code == 7) && !HUGE_LEN(o->len) && o->len2 % 4 == 1)
        o->len %= 40;
    if (o->code == 1)
        o->len = o->len % 3; /* padding on/off, and 2 */
    if (o->code == 8)
        o->len = len_from(rd_u16(r), 8 * MAX_LEN);
    if (o->code == 3) {
        /* Lengths (AAD, message): bits 0-1 make them huge, bits 2-3 small. */
        unsigned big = rd_u8(r);
        size_t aad = HUGE_LEN(o->len2) ? 0 : o->len2, msg = HUGE_LEN(o->len) ? 0 : o->len;
        o->l1 = big & 1 ? (uint64_t)-1 - aad : big & 4 ? aad % 40 : aad;
        o->l2 = big & 2 ? (uint64_t)1 << (40 + (big >> 4)) : big & 8 ? msg % 40 : msg;
    }
}

static int authish(int rc) { return rc == HWC_ERR_AUTH || rc == HWC_ERR_PADDING; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static hwc_ctx snap;
    if (!pattern[0])
        for (size_t i = 0; i < sizeof pattern; i++)
            pattern[i] = (uint8_t)(i * 0x9d + 0x31);
    dummy.c = hwc_cipher_at(0);
    reader r = {data, size, 0};
    hwc_ctx *ctx[2] = {hwc_ctx_new(), hwc_ctx_new()};
    FZ_CHECK(&dummy, ctx[0] && ctx[1], "hwc_ctx_new");
    FZ_CHECK(&dummy, hwc_ctx_set_impl(ctx[0], "ct") == HWC_OK, "force ct");
    for (int step = 0; step < MAX_OPS && r.pos < r.n; step++) {
        op o;
        draw(&r, &o, ctx[0]);
        if (o.cipher || ctx[0]->cipher)
            dummy.c = o.cipher ? o.cipher : ctx[0]->cipher;
        outcome res[2];
        for (int i = 0; i < 2; i++) {
            memcpy(&snap, ctx[i], sizeof snap);
            apply(&ctx[i], &o, &res[i], i == 0);
            FZ_CHECK(&dummy, known_rc(res[i].rc), "%s returned %d, not an hwc_err", op_names[o.code], res[i].rc);
            FZ_CHECK(&dummy, !res[i].huge || res[i].rc != HWC_OK, "step %d: %s accepted a length near SIZE_MAX", step,
                     op_names[o.code]);
            if (res[i].rc != HWC_OK && !authish(res[i].rc) && o.code != 18)
                FZ_CHECK(&dummy, memcmp(&snap, ctx[i], sizeof snap) == 0,
                         "step %d: failed %s (%d, %s) changed the %s context", step, op_names[o.code], res[i].rc,
                         hwc_strerror(res[i].rc), i ? "automatic" : "ct");
        }
        FZ_CHECK(&dummy, res[0].rc == res[1].rc, "step %d: %s returned %d (%s) on ct, %d (%s) automatic", step,
                 op_names[o.code], res[0].rc, hwc_strerror(res[0].rc), res[1].rc, hwc_strerror(res[1].rc));
        if (res[0].rc == HWC_OK && res[0].out && res[1].out) {
            FZ_CHECK(&dummy, res[0].out_len == res[1].out_len, "step %d: %s output length %zu vs %zu", step,
                     op_names[o.code], res[0].out_len, res[1].out_len);
            size_t cmp = res[0].out_len < res[0].out_size ? res[0].out_len : res[0].out_size;
            FZ_CHECK(&dummy, memcmp(res[0].out, res[1].out, cmp) == 0, "step %d: %s output differs", step,
                     op_names[o.code]);
        }
        free(res[0].out);
        free(res[1].out);
    }
    hwc_ctx_free(ctx[0]);
    hwc_ctx_free(ctx[1]);
    return 0;
}
