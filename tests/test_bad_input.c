/* Every documented error, table-driven.  For each case the bad call must
 * return exactly the documented hwc_err AND leave the context as it was:
 * the operation is then carried on to the end and its output and tag must
 * equal those of a run without the bad call ("validation before state
 * change", include/hwcrypt/hwcrypt.h).
 *
 * An operation ("scenario") runs in steps; a bad call is injected at one of
 * the points between them:
 *   PH_NEW        fresh context (only hwc_ctx_set_impl done)
 *   PH_KEYED      two-step init only: after hwc_init with the key and no IV,
 *                 before hwc_init(ctx, NULL, enc, NULL, 0, iv, iv_len)
 *   PH_INIT       after hwc_init
 *   PH_PARAMS     after padding / tag length / CCM lengths / expected tag
 *   PH_AAD        after the AAD
 *   PH_MID        after the first hwc_update (one-shot modes: after the only one)
 *   PH_PRE_FINAL  after the last hwc_update
 *   PH_POST_FINAL after hwc_final (before hwc_get_tag)
 * PH_DATA means PH_MID, or PH_AAD for one-shot modes (XTS, SIV, GCM-SIV):
 * "while data may still come".  SIV and GCM-SIV decryption also runs
 * streamed (tw_siv_stream: hwc_set_lengths, then two updates), where
 * PH_MID and PH_DATA are between the two.  Every table case runs on every cipher it
 * applies to (automatic back end), and once per cipher on every available
 * back end forced by name; wrong key lengths run for every cipher.
 *
 * Outside the table: the one-shot AEAD calls (seal/open: lengths, NULLs,
 * overlap, tag failure zeroing the output, then a good call), bad PKCS#7
 * padding, key wrap (lengths, KEK, out_cap, tampering zeroing out_cap bytes,
 * context reuse), one-shot MAC, cipher and back-end names, hwc_strerror, and
 * NULL contexts.  IV length 0 is the first step of a two-step init (key,
 * then IV), so it is checked as such, not as an error.
 *
 * HWC_BAD_SKIP=substring skips the table cases whose label contains it
 * (reported as SKIP), to get past a crashing case while debugging. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
/* Used only by the cases for 64-bit size_t (lengths past 2^32). */
#define HWC_MAYBE_UNUSED __attribute__((unused))

enum { PH_NEW, PH_KEYED, PH_INIT, PH_PARAMS, PH_AAD, PH_MID, PH_PRE_FINAL, PH_POST_FINAL, PH_NONE, PH_DATA };
static const char *phase_name[] = {"fresh context", "keyed, waiting for the IV", "after init", "after parameters",
                                   "after AAD",     "mid-stream",                "before final", "after final",
                                   "none"};

#define MB(x) (1u << (x))
#define M_STREAM_AEAD (MB(HWC_MODE_GCM) | MB(HWC_MODE_CCM) | MB(HWC_MODE_OCB))
#define M_AEAD (M_STREAM_AEAD | MB(HWC_MODE_SIV) | MB(HWC_MODE_GCM_SIV))
#define M_MAC (MB(HWC_MODE_CMAC) | MB(HWC_MODE_GMAC))
#define M_PLAIN                                                                                              \
    (MB(HWC_MODE_ECB) | MB(HWC_MODE_CBC) | MB(HWC_MODE_CFB128) | MB(HWC_MODE_CFB8) | MB(HWC_MODE_CFB1) |     \
     MB(HWC_MODE_OFB) | MB(HWC_MODE_CTR) | MB(HWC_MODE_XTS))
#define M_CIPHER (M_PLAIN | M_AEAD)
#define M_ALL (M_CIPHER | M_MAC)
#define M_WRAP (MB(HWC_MODE_KW) | MB(HWC_MODE_KWP))
#define M_PAD (MB(HWC_MODE_ECB) | MB(HWC_MODE_CBC))
#define M_ONESHOT (MB(HWC_MODE_XTS) | MB(HWC_MODE_SIV) | MB(HWC_MODE_GCM_SIV))
#define M_SIVS (MB(HWC_MODE_SIV) | MB(HWC_MODE_GCM_SIV))
#define M_IV (M_CIPHER & ~MB(HWC_MODE_ECB))
/* Modes that cannot start a message without an IV (two-step init). */
#define M_NEED_IV ((M_IV & ~MB(HWC_MODE_SIV)) | MB(HWC_MODE_GMAC))

static unsigned mode_bit(const hwc_cipher *c) { return MB(hwc_cipher_mode(c)); }
static int is_oneshot(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_ONE_SHOT) != 0; }
static int is_aead(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_AEAD) != 0; }
static int is_mac(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_MAC) != 0; }

/* ------------------------------------------------------------ scenario */

typedef struct scen {
    const hwc_cipher *c;
    const char *impl; /* NULL: automatic */
    int enc;
    int padding; /* -1: default */
    uint8_t key[80];
    size_t klen;
    uint8_t iv[40];
    size_t ivlen;
    uint8_t aad[48];
    size_t aadlen;
    uint8_t in[160];
    size_t inlen;
    size_t split; /* bytes in the first update */
    size_t taglen;
    uint8_t tagin[16];
    int two_step; /* init with the key and no IV, then with the IV only */
    int siv_stream; /* SIV, GCM-SIV decryption: declared lengths, two updates */
} scen;

/* The data comes in one update (XTS; SIV, GCM-SIV unless streamed). */
static int one_update(const scen *s) { return is_oneshot(s->c) && !(s->siv_stream && !s->enc); }

typedef struct result {
    int rc;
    const char *failed_step;
    uint8_t out[256];
    size_t outlen;
    uint8_t tag[16];
} result;

typedef int (*inject_fn)(hwc_ctx *ctx, const scen *s, size_t arg);

/* Runs the scenario; calls fn(ctx, s, arg) at `phase` and stores its
 * return value in *inj_rc. */
static void play(const scen *s, int phase, inject_fn fn, size_t arg, int *inj_rc, result *res) {
    const hwc_cipher *c = s->c;
    hwc_mode m = hwc_cipher_mode(c);
    size_t n = 0, w = 0, first = one_update(s) ? s->inlen : s->split;
    int rc = 0;
    memset(res, 0, sizeof *res);
    hwc_ctx *ctx = hwc_ctx_new();
    if (!ctx) {
        res->rc = HWC_ERR_NO_MEM;
        res->failed_step = "hwc_ctx_new";
        return;
    }
#define STEP(ph)                                                                                             \
    do {                                                                                                     \
        if (phase == (ph) && fn)                                                                             \
            *inj_rc = fn(ctx, s, arg);                                                                       \
    } while (0)
#define DO(call, name)                                                                                       \
    do {                                                                                                     \
        if ((rc = (call)) != 0) {                                                                            \
            res->failed_step = name;                                                                         \
            goto done;                                                                                       \
        }                                                                                                    \
    } while (0)
    if (s->impl)
        DO(hwc_ctx_set_impl(ctx, s->impl), "hwc_ctx_set_impl");
    STEP(PH_NEW);
    if (s->two_step) {
        DO(hwc_init(ctx, c, s->enc, s->key, s->klen, NULL, 0), "hwc_init (key, no IV)");
        STEP(PH_KEYED);
        DO(hwc_init(ctx, NULL, s->enc, NULL, 0, s->iv, s->ivlen), "hwc_init (IV only)");
    } else {
        DO(hwc_init(ctx, c, s->enc, s->key, s->klen, s->iv, s->ivlen), "hwc_init");
    }
    STEP(PH_INIT);
    if (s->padding >= 0)
        DO(hwc_set_padding(ctx, s->padding), "hwc_set_padding");
    if (is_aead(c)) {
        if (s->taglen != hwc_cipher_tag_len(c))
            DO(hwc_set_tag_len(ctx, s->taglen), "hwc_set_tag_len");
        if (m == HWC_MODE_CCM || (s->siv_stream && !s->enc))
            DO(hwc_set_lengths(ctx, s->aadlen, s->inlen), "hwc_set_lengths");
        if (!s->enc)
            DO(hwc_set_tag(ctx, s->tagin, s->taglen), "hwc_set_tag");
    }
    STEP(PH_PARAMS);
    if (s->aadlen)
        DO(hwc_aad(ctx, s->aad, s->aadlen), "hwc_aad");
    STEP(PH_AAD);
    if (is_mac(c)) {
        DO(hwc_aad(ctx, s->in, first), "hwc_aad (message, part 1)");
        STEP(PH_MID);
        DO(hwc_aad(ctx, s->in + first, s->inlen - first), "hwc_aad (message, part 2)");
        STEP(PH_PRE_FINAL);
        DO(hwc_mac_final(ctx, res->tag, s->taglen), "hwc_mac_final");
        STEP(PH_POST_FINAL);
        goto done;
    }
    DO(hwc_update(ctx, res->out, &n, s->in, first), "hwc_update (part 1)");
    w = n;
    STEP(PH_MID);
    if (!one_update(s)) {
        DO(hwc_update(ctx, res->out + w, &n, s->in + first, s->inlen - first), "hwc_update (part 2)");
        w += n;
    }
    STEP(PH_PRE_FINAL);
    DO(hwc_final(ctx, res->out + w, &n), "hwc_final");
    w += n;
    res->outlen = w;
    STEP(PH_POST_FINAL);
    if (is_aead(c) && s->enc)
        DO(hwc_get_tag(ctx, res->tag, s->taglen), "hwc_get_tag");
done:
#undef STEP
#undef DO
    res->rc = rc;
    hwc_ctx_free(ctx);
}

/* A random scenario for cipher c; for decryption, the input is the
 * ciphertext (and tag) of a random plaintext.  tweak may adjust the
 * plaintext-side parameters first.  Returns 0 if it could not be built. */
typedef void (*tweak_fn)(scen *s);
static int make_scen(scen *s, const hwc_cipher *c, const char *impl, int enc, tweak_fn tweak) {
    memset(s, 0, sizeof *s);
    s->c = c;
    s->impl = impl;
    s->enc = HWC_ENCRYPT;
    s->padding = -1;
    s->klen = hwc_cipher_key_len(c);
    test_rand_bytes(s->key, sizeof s->key);
    if (hwc_cipher_mode(c) == HWC_MODE_XTS)
        s->key[0] = (uint8_t)~s->key[s->klen / 2];
    s->ivlen = hwc_cipher_iv_len(c);
    test_rand_bytes(s->iv, sizeof s->iv);
    if (is_aead(c)) {
        s->aadlen = 21;
        test_rand_bytes(s->aad, s->aadlen);
    }
    s->inlen = hwc_cipher_mode(c) == HWC_MODE_CFB1 ? 40 : 64;
    s->split = 37;
    test_rand_bytes(s->in, sizeof s->in);
    s->taglen = is_aead(c) ? hwc_cipher_tag_len(c) : is_mac(c) ? 16 : 0;
    if (tweak)
        tweak(s);
    if (enc || is_mac(c)) {
        s->enc = enc;
        return 1;
    }
    result r;
    int dummy;
    play(s, PH_NONE, NULL, 0, &dummy, &r);
    if (!CHECKF(r.rc == 0, "building %s decrypt scenario: %s returned %d (%s)", hwc_cipher_name(c),
                r.failed_step, r.rc, hwc_strerror(r.rc)))
        return 0;
    memcpy(s->in, r.out, r.outlen);
    s->inlen = r.outlen;
    memcpy(s->tagin, r.tag, sizeof s->tagin);
    if (s->split > s->inlen)
        s->split = s->inlen / 2;
    s->enc = HWC_DECRYPT;
    return 1;
}

static unsigned long ncases;

/* The core check: the bad call returns `want`, and the run then finishes
 * exactly like an undisturbed one. */
static void expect(const char *label, const scen *s, int phase, inject_fn fn, size_t arg, int want) {
    result ref, got;
    int inj = 0x7fff, dummy;
    if (phase == PH_DATA)
        phase = one_update(s) ? PH_AAD : PH_MID;
    ncases++;
    play(s, PH_NONE, NULL, 0, &dummy, &ref);
    if (!CHECKF(ref.rc == 0, "%s %s %s: the undisturbed run fails at %s: %d (%s)", label, hwc_cipher_name(s->c),
                s->enc ? "enc" : "dec", ref.failed_step, ref.rc, hwc_strerror(ref.rc)))
        return;
    play(s, phase, fn, arg, &inj, &got);
    const char *impl = s->impl ? s->impl : "auto";
    CHECKF(inj == want, "%s (%s %s impl=%s, %s): returned %d (%s), want %d (%s)", label, hwc_cipher_name(s->c),
           s->enc ? "enc" : "dec", impl, phase_name[phase], inj, inj == 0x7fff ? "not called" : hwc_strerror(inj),
           want, hwc_strerror(want));
    if (!CHECKF(got.rc == 0, "%s (%s %s impl=%s, %s): after the bad call, %s failed: %d (%s)", label,
                hwc_cipher_name(s->c), s->enc ? "enc" : "dec", impl, phase_name[phase], got.failed_step, got.rc,
                hwc_strerror(got.rc)))
        return;
    CHECKF(got.outlen == ref.outlen && memcmp(got.out, ref.out, ref.outlen) == 0 &&
               memcmp(got.tag, ref.tag, sizeof ref.tag) == 0,
           "%s (%s %s impl=%s, %s): the bad call changed the context (output/tag differ from an undisturbed run)",
           label, hwc_cipher_name(s->c), s->enc ? "enc" : "dec", impl, phase_name[phase]);
}

/* ------------------------------------------------------------ injections */

static uint8_t scr_in[512], scr_out[512], long_iv[64], weak_key[80];

static int inj_init_keylen(hwc_ctx *ctx, const scen *s, size_t len) {
    return hwc_init(ctx, s->c, s->enc, s->key, len, s->iv, s->ivlen);
}
static int inj_init_ivlen(hwc_ctx *ctx, const scen *s, size_t len) {
    return hwc_init(ctx, s->c, s->enc, s->key, s->klen, long_iv, len);
}
static int inj_restart_ivlen(hwc_ctx *ctx, const scen *s, size_t len) {
    return hwc_init(ctx, NULL, s->enc, NULL, 0, long_iv, len);
}
static int inj_init_iv_null(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)len;
    /* SIV's default is no nonce: claim a 16-byte one. */
    return hwc_init(ctx, s->c, s->enc, s->key, s->klen, NULL, s->ivlen ? s->ivlen : 16);
}
static int inj_init_weak(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)len;
    memcpy(weak_key + s->klen / 2, weak_key, s->klen / 2);
    return hwc_init(ctx, s->c, s->enc, weak_key, s->klen, s->iv, s->ivlen);
}
static int inj_init_no_cipher(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)len;
    return hwc_init(ctx, NULL, s->enc, s->key, s->klen, s->iv, s->ivlen);
}
static int inj_set_tag_len(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_set_tag_len(ctx, len);
}
static int inj_set_tag(hwc_ctx *ctx, const scen *s, size_t len) { return hwc_set_tag(ctx, s->tagin, len); }
static int inj_set_tag_null(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)len;
    return hwc_set_tag(ctx, NULL, s->taglen ? s->taglen : 16);
}
static int inj_get_tag(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_get_tag(ctx, scr_out, len);
}
static int inj_get_tag_null(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)len;
    return hwc_get_tag(ctx, NULL, s->taglen ? s->taglen : 16);
}
static int inj_final(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    (void)len;
    return hwc_final(ctx, scr_out, &n);
}
static int inj_final_null(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    (void)len;
    return hwc_final(ctx, NULL, &n);
}
static int inj_update(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    return hwc_update(ctx, scr_out, &n, scr_in, len);
}
/* More data than the rest of the scenario's message. */
static int inj_update_rest_plus(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    return hwc_update(ctx, scr_out, &n, scr_in, s->inlen - s->split + len);
}
/* Lengths past a mode's limit, in place (so no overlap check trips) on a
 * small buffer: the mode must refuse on the length alone, before reading. */
HWC_MAYBE_UNUSED static int inj_update_huge(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    return hwc_update(ctx, scr_in, &n, scr_in, len);
}
/* One byte past `limit` counting what the scenario already fed (split). */
HWC_MAYBE_UNUSED static int inj_update_past_total(hwc_ctx *ctx, const scen *s, size_t limit) {
    size_t n;
    return hwc_update(ctx, scr_in, &n, scr_in, limit - s->split + 1);
}
HWC_MAYBE_UNUSED static int inj_aad_huge(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_aad(ctx, scr_in, len);
}
HWC_MAYBE_UNUSED static int inj_aad_past_total(hwc_ctx *ctx, const scen *s, size_t limit) {
    return hwc_aad(ctx, scr_in, limit - s->aadlen + 1);
}
static int inj_update_null_in(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    return hwc_update(ctx, scr_out, &n, NULL, len);
}
static int inj_update_null_out(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    return hwc_update(ctx, NULL, &n, scr_in, len);
}
static int inj_update_overlap(hwc_ctx *ctx, const scen *s, size_t how) {
    size_t n;
    (void)s;
    /* how 0: output one byte after the input; 1: one byte before; 2: output 8 bytes into the input */
    if (how == 0)
        return hwc_update(ctx, scr_in + 1, &n, scr_in, 20);
    if (how == 1)
        return hwc_update(ctx, scr_in, &n, scr_in + 1, 20);
    return hwc_update(ctx, scr_in + 8, &n, scr_in, 32);
}
static int inj_update_bits(hwc_ctx *ctx, const scen *s, size_t nbits) {
    (void)s;
    return hwc_update_bits(ctx, scr_out, scr_in, nbits);
}
static int inj_update_bits_null(hwc_ctx *ctx, const scen *s, size_t nbits) {
    (void)s;
    return hwc_update_bits(ctx, scr_out, NULL, nbits);
}
static int inj_update_bits_null_out(hwc_ctx *ctx, const scen *s, size_t nbits) {
    (void)s;
    return hwc_update_bits(ctx, NULL, scr_in, nbits);
}
/* Lengths no buffer can have (over PTRDIFF_MAX bytes), on a small buffer in
 * place: refused on the length alone, before any arithmetic on it can wrap. */
static int inj_update_in_place(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    return hwc_update(ctx, scr_in, &n, scr_in, len);
}
static int inj_aad_any(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_aad(ctx, scr_in, len);
}
static int inj_aad(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_aad(ctx, scr_in, len);
}
static int inj_aad_null(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_aad(ctx, NULL, len);
}
static int inj_set_lengths(hwc_ctx *ctx, const scen *s, size_t msg_len) {
    return hwc_set_lengths(ctx, s->aadlen, msg_len);
}
static int inj_set_lengths_aad(hwc_ctx *ctx, const scen *s, size_t aad_len) {
    return hwc_set_lengths(ctx, aad_len, s->inlen);
}
static int inj_set_padding(hwc_ctx *ctx, const scen *s, size_t on) {
    (void)s;
    return hwc_set_padding(ctx, (int)on);
}
static int inj_mac_final(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_mac_final(ctx, scr_out, len);
}
static int inj_mac_final_null(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_mac_final(ctx, NULL, len);
}
static int inj_mac_verify(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_mac_verify(ctx, scr_out, len);
}
/* An empty hwc_aad call, then the tag length: the AAD phase has begun (for
 * SIV the empty call is an AD component). Returns set_tag_len's result; an
 * AAD call that fails is reported as such. */
static int inj_aad_then_set_tag_len(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    int rc = hwc_aad(ctx, NULL, 0);
    if (rc)
        return rc;
    return hwc_set_tag_len(ctx, len);
}
static int inj_mac_verify_null(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)s;
    return hwc_mac_verify(ctx, NULL, len);
}
static int inj_set_impl(hwc_ctx *ctx, const scen *s, size_t which) {
    (void)s;
    return hwc_ctx_set_impl(ctx, which == 0 ? "no-such-back-end" : "CT ");
}
static int inj_ctx_key_wrap(hwc_ctx *ctx, const scen *s, size_t len) {
    size_t n;
    (void)s;
    return hwc_ctx_key_wrap(ctx, scr_in, len, scr_out, sizeof scr_out, &n);
}

/* ------------------------------------------------------------ tweaks */

static void tw_nopad48(scen *s) {
    s->padding = 0;
    s->inlen = 48;
    s->split = 37;
}
static void tw_ccm_n13(scen *s) { s->ivlen = 13; }
static void tw_ccm_n12(scen *s) { s->ivlen = 12; }
HWC_MAYBE_UNUSED static void tw_ccm_n8(scen *s) { s->ivlen = 8; }
static void tw_pad_on(scen *s) { s->padding = 1; }
static void tw_two_step(scen *s) { s->two_step = 1; }
static void tw_siv_stream(scen *s) { s->siv_stream = 1; }

/* ------------------------------------------------------------ the table */

typedef struct bcase {
    const char *label;
    unsigned modes; /* MB(mode) bits of the ciphers it applies to */
    int dirs;       /* 1 encrypt, 2 decrypt, 3 both */
    int phase;
    inject_fn fn;
    size_t arg;
    int want;
    tweak_fn tweak;
} bcase;

#define ENC 1
#define DEC 2
#define BOTH 3

static const bcase cases[] = {
    /* IV / nonce length out of range: a full re-init and a restart with the same key, mid-stream too. */
    /* IV length 0 is the first step of a two-step init, not an error; data before the IV is. */
    {"update while waiting for the IV", M_NEED_IV & M_CIPHER, BOTH, PH_KEYED, inj_update, 16, HWC_ERR_STATE,
     tw_two_step},
    {"aad while waiting for the IV", (M_NEED_IV & M_AEAD) | MB(HWC_MODE_GMAC), BOTH, PH_KEYED, inj_aad, 16,
     HWC_ERR_STATE, tw_two_step},
    {"final while waiting for the IV", M_NEED_IV & M_CIPHER, BOTH, PH_KEYED, inj_final, 0, HWC_ERR_STATE,
     tw_two_step},
    {"mac_final while waiting for the IV", MB(HWC_MODE_GMAC), ENC, PH_KEYED, inj_mac_final, 16, HWC_ERR_STATE,
     tw_two_step},
    {"CBC: IV step with length 15", MB(HWC_MODE_CBC), BOTH, PH_KEYED, inj_restart_ivlen, 15, HWC_ERR_IV_LEN,
     tw_two_step},
    {"CCM: IV step with length 6", MB(HWC_MODE_CCM), BOTH, PH_KEYED, inj_restart_ivlen, 6, HWC_ERR_IV_LEN,
     tw_two_step},
    {"OCB: IV step with length 16", MB(HWC_MODE_OCB), BOTH, PH_KEYED, inj_restart_ivlen, 16, HWC_ERR_IV_LEN,
     tw_two_step},
    {"GCM-SIV: IV step with length 11", MB(HWC_MODE_GCM_SIV), BOTH, PH_KEYED, inj_restart_ivlen, 11,
     HWC_ERR_IV_LEN, tw_two_step},
    {"CCM nonce length 6", MB(HWC_MODE_CCM), BOTH, PH_NEW, inj_init_ivlen, 6, HWC_ERR_IV_LEN, NULL},
    {"CCM nonce length 6", MB(HWC_MODE_CCM), BOTH, PH_MID, inj_init_ivlen, 6, HWC_ERR_IV_LEN, NULL},
    {"CCM nonce length 14", MB(HWC_MODE_CCM), BOTH, PH_MID, inj_init_ivlen, 14, HWC_ERR_IV_LEN, NULL},
    {"CCM restart, nonce length 14", MB(HWC_MODE_CCM), BOTH, PH_AAD, inj_restart_ivlen, 14, HWC_ERR_IV_LEN, NULL},
    {"OCB nonce length 16", MB(HWC_MODE_OCB), BOTH, PH_NEW, inj_init_ivlen, 16, HWC_ERR_IV_LEN, NULL},
    {"OCB nonce length 16", MB(HWC_MODE_OCB), BOTH, PH_MID, inj_restart_ivlen, 16, HWC_ERR_IV_LEN, NULL},
    {"CBC IV length 15", MB(HWC_MODE_CBC), BOTH, PH_MID, inj_init_ivlen, 15, HWC_ERR_IV_LEN, NULL},
    {"CBC IV length 17", MB(HWC_MODE_CBC), BOTH, PH_NEW, inj_init_ivlen, 17, HWC_ERR_IV_LEN, NULL},
    {"CBC restart, IV length 17", MB(HWC_MODE_CBC), BOTH, PH_MID, inj_restart_ivlen, 17, HWC_ERR_IV_LEN, NULL},
    {"CTR/CFB/OFB IV length 15",
     MB(HWC_MODE_CTR) | MB(HWC_MODE_CFB128) | MB(HWC_MODE_CFB8) | MB(HWC_MODE_CFB1) | MB(HWC_MODE_OFB), BOTH, PH_MID,
     inj_init_ivlen, 15, HWC_ERR_IV_LEN, NULL},
    {"XTS tweak length 15", MB(HWC_MODE_XTS), BOTH, PH_NEW, inj_init_ivlen, 15, HWC_ERR_IV_LEN, NULL},
    {"XTS tweak length 15", MB(HWC_MODE_XTS), BOTH, PH_AAD, inj_init_ivlen, 15, HWC_ERR_IV_LEN, NULL},
    {"GCM-SIV nonce length 11", MB(HWC_MODE_GCM_SIV), BOTH, PH_NEW, inj_init_ivlen, 11, HWC_ERR_IV_LEN, NULL},
    {"GCM-SIV nonce length 11", MB(HWC_MODE_GCM_SIV), BOTH, PH_AAD, inj_init_ivlen, 11, HWC_ERR_IV_LEN, NULL},
    {"GCM-SIV nonce length 13", MB(HWC_MODE_GCM_SIV), BOTH, PH_AAD, inj_restart_ivlen, 13, HWC_ERR_IV_LEN, NULL},
    {"ECB with an IV", MB(HWC_MODE_ECB), BOTH, PH_MID, inj_init_ivlen, 16, HWC_ERR_IV_LEN, NULL},
    {"CMAC with an IV", MB(HWC_MODE_CMAC), ENC, PH_MID, inj_init_ivlen, 16, HWC_ERR_IV_LEN, NULL},

    /* Tag length out of range. */
    {"GCM tag length 3", MB(HWC_MODE_GCM), ENC, PH_INIT, inj_set_tag_len, 3, HWC_ERR_TAG_LEN, NULL},
    {"GCM tag length 17", MB(HWC_MODE_GCM), ENC, PH_INIT, inj_set_tag_len, 17, HWC_ERR_TAG_LEN, NULL},
    {"GCM tag length 0", MB(HWC_MODE_GCM), ENC, PH_PARAMS, inj_set_tag_len, 0, HWC_ERR_TAG_LEN, NULL},
    {"CCM tag length 3", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_set_tag_len, 3, HWC_ERR_TAG_LEN, NULL},
    {"CCM tag length 5", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_set_tag_len, 5, HWC_ERR_TAG_LEN, NULL},
    {"CCM tag length 18", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_set_tag_len, 18, HWC_ERR_TAG_LEN, NULL},
    {"OCB tag length 0", MB(HWC_MODE_OCB), ENC, PH_INIT, inj_set_tag_len, 0, HWC_ERR_TAG_LEN, NULL},
    {"OCB tag length 17", MB(HWC_MODE_OCB), ENC, PH_INIT, inj_set_tag_len, 17, HWC_ERR_TAG_LEN, NULL},
    {"GCM expected tag of 3 bytes", MB(HWC_MODE_GCM), DEC, PH_PARAMS, inj_set_tag, 3, HWC_ERR_TAG_LEN, NULL},
    {"GCM expected tag of 17 bytes", MB(HWC_MODE_GCM), DEC, PH_MID, inj_set_tag, 17, HWC_ERR_TAG_LEN, NULL},
    {"CCM expected tag of 5 bytes", MB(HWC_MODE_CCM), DEC, PH_PARAMS, inj_set_tag, 5, HWC_ERR_TAG_LEN, NULL},
    {"CCM expected tag of 18 bytes", MB(HWC_MODE_CCM), DEC, PH_PARAMS, inj_set_tag, 18, HWC_ERR_TAG_LEN, NULL},
    {"OCB expected tag of 17 bytes", MB(HWC_MODE_OCB), DEC, PH_PARAMS, inj_set_tag, 17, HWC_ERR_TAG_LEN, NULL},
    {"SIV/GCM-SIV expected tag of 15 bytes", MB(HWC_MODE_SIV) | MB(HWC_MODE_GCM_SIV), DEC, PH_PARAMS, inj_set_tag,
     15, HWC_ERR_TAG_LEN, NULL},
    {"get_tag length other than the one set", M_AEAD, ENC, PH_POST_FINAL, inj_get_tag, 12, HWC_ERR_TAG_LEN, NULL},
    {"get_tag length 17", M_AEAD, ENC, PH_POST_FINAL, inj_get_tag, 17, HWC_ERR_TAG_LEN, NULL},
    {"MAC tag length 17", M_MAC, ENC, PH_PRE_FINAL, inj_mac_final, 17, HWC_ERR_TAG_LEN, NULL},
    {"MAC tag length 0", M_MAC, ENC, PH_PRE_FINAL, inj_mac_final, 0, HWC_ERR_TAG_LEN, NULL},

    /* Data lengths. */
    {"padding off, 37 bytes at final", M_PAD, BOTH, PH_MID, inj_final, 0, HWC_ERR_DATA_LEN, tw_nopad48},
    {"XTS data unit of 15 bytes", MB(HWC_MODE_XTS), BOTH, PH_AAD, inj_update, 15, HWC_ERR_DATA_LEN, NULL},
    {"XTS data unit of 1 byte", MB(HWC_MODE_XTS), BOTH, PH_AAD, inj_update, 1, HWC_ERR_DATA_LEN, NULL},
    {"CCM one byte more than declared", MB(HWC_MODE_CCM), BOTH, PH_PRE_FINAL, inj_update, 1, HWC_ERR_DATA_LEN, NULL},
    {"CCM update past the declared length", MB(HWC_MODE_CCM), BOTH, PH_MID, inj_update_rest_plus, 1,
     HWC_ERR_DATA_LEN, NULL},
    {"CCM AAD past the declared length", MB(HWC_MODE_CCM), BOTH, PH_AAD, inj_aad, 1, HWC_ERR_DATA_LEN, NULL},
    {"CCM final before the declared length", MB(HWC_MODE_CCM), BOTH, PH_MID, inj_final, 0, HWC_ERR_DATA_LEN, NULL},
    {"CCM nonce 13 (q=2): 65536 bytes declared", MB(HWC_MODE_CCM), BOTH, PH_INIT, inj_set_lengths, 65536,
     HWC_ERR_DATA_LEN, tw_ccm_n13},
    {"CCM nonce 12 (q=3): 2^24 bytes declared", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_set_lengths, (size_t)1 << 24,
     HWC_ERR_DATA_LEN, tw_ccm_n12},
#if SIZE_MAX > 0xffffffffu /* the injected length is a size_t */
    {"CCM nonce 8 (q=7): 2^56 bytes declared", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_set_lengths,
     (size_t)((uint64_t)1 << 56), HWC_ERR_DATA_LEN, tw_ccm_n8},
#endif

#if SIZE_MAX > 0xffffffffu
    /* Mode limits, checked on the length before any byte is read. */
    {"GCM: one update past 2^36-32 bytes", MB(HWC_MODE_GCM), BOTH, PH_AAD, inj_update_huge,
     ((size_t)1 << 36) - 31, HWC_ERR_DATA_LEN, NULL},
    {"GCM: running total past 2^36-32 bytes", MB(HWC_MODE_GCM), BOTH, PH_MID, inj_update_past_total,
     ((size_t)1 << 36) - 32, HWC_ERR_DATA_LEN, NULL},
    {"GCM: AAD past 2^61-1 bytes", MB(HWC_MODE_GCM), BOTH, PH_PARAMS, inj_aad_huge, (size_t)1 << 61,
     HWC_ERR_DATA_LEN, NULL},
    {"GCM: AAD running total past 2^61-1 bytes", MB(HWC_MODE_GCM), BOTH, PH_AAD, inj_aad_past_total,
     ((size_t)1 << 61) - 1, HWC_ERR_DATA_LEN, NULL},
    {"GMAC: message past 2^61-1 bytes", MB(HWC_MODE_GMAC), ENC, PH_MID, inj_aad_huge, (size_t)1 << 61,
     HWC_ERR_DATA_LEN, NULL},
    {"GCM-SIV: message over 2^36 bytes", MB(HWC_MODE_GCM_SIV), BOTH, PH_AAD, inj_update_huge,
     ((size_t)1 << 36) + 1, HWC_ERR_DATA_LEN, NULL},
    {"GCM-SIV: AAD over 2^36 bytes", MB(HWC_MODE_GCM_SIV), BOTH, PH_PARAMS, inj_aad_huge, ((size_t)1 << 36) + 1,
     HWC_ERR_DATA_LEN, NULL},
    {"XTS: data unit over 2^20 blocks", MB(HWC_MODE_XTS), BOTH, PH_AAD, inj_update_huge, ((size_t)1 << 24) + 16,
     HWC_ERR_DATA_LEN, NULL},
#endif
    /* Lengths past PTRDIFF_MAX (no object is that large) near SIZE_MAX, where
     * `len + 15`, `held + len` or `(nbits + 7) / 8` would wrap. */
    {"update of SIZE_MAX bytes", M_CIPHER, BOTH, PH_DATA, inj_update_in_place, SIZE_MAX, HWC_ERR_DATA_LEN, NULL},
    {"update of SIZE_MAX - 15 bytes", M_CIPHER, BOTH, PH_DATA, inj_update_in_place, SIZE_MAX - 15,
     HWC_ERR_DATA_LEN, NULL},
    {"update of PTRDIFF_MAX + 1 bytes", M_CIPHER, BOTH, PH_DATA, inj_update_in_place, (size_t)PTRDIFF_MAX + 1,
     HWC_ERR_DATA_LEN, NULL},
    {"aad of SIZE_MAX bytes", M_AEAD, BOTH, PH_AAD, inj_aad_any, SIZE_MAX, HWC_ERR_DATA_LEN, NULL},
    {"aad (MAC message) of SIZE_MAX - 15 bytes", M_MAC, ENC, PH_MID, inj_aad_any, SIZE_MAX - 15, HWC_ERR_DATA_LEN,
     NULL},

    /* SIV, GCM-SIV decryption streamed after hwc_set_lengths. */
    {"SIV/GCM-SIV streamed: update past the declared length", M_SIVS, DEC, PH_MID, inj_update_rest_plus, 1,
     HWC_ERR_DATA_LEN, tw_siv_stream},
    {"SIV/GCM-SIV streamed: final before the declared length", M_SIVS, DEC, PH_MID, inj_final, 0, HWC_ERR_DATA_LEN,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: AAD past the declared length", M_SIVS, DEC, PH_AAD, inj_aad, 1, HWC_ERR_DATA_LEN,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: data before the declared AAD", M_SIVS, DEC, PH_PARAMS, inj_update, 4, HWC_ERR_DATA_LEN,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: final before the declared AAD", M_SIVS, DEC, PH_PARAMS, inj_final, 0, HWC_ERR_DATA_LEN,
     tw_siv_stream},
    {"SIV/GCM-SIV: declared AAD shorter than the AAD given", M_SIVS, DEC, PH_AAD, inj_set_lengths_aad, 20,
     HWC_ERR_DATA_LEN, NULL},
    {"SIV/GCM-SIV streamed: set_lengths after data", M_SIVS, DEC, PH_MID, inj_set_lengths, 64, HWC_ERR_STATE,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: set_tag after data", M_SIVS, DEC, PH_MID, inj_set_tag, 16, HWC_ERR_STATE,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: aad after data", M_SIVS, DEC, PH_MID, inj_aad, 4, HWC_ERR_STATE, tw_siv_stream},
    {"SIV/GCM-SIV streamed: update after final", M_SIVS, DEC, PH_POST_FINAL, inj_update, 16, HWC_ERR_STATE,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: update of SIZE_MAX bytes", M_SIVS, DEC, PH_DATA, inj_update_in_place, SIZE_MAX,
     HWC_ERR_DATA_LEN, tw_siv_stream},
    {"SIV/GCM-SIV streamed: update: NULL input", M_SIVS, DEC, PH_DATA, inj_update_null_in, 5, HWC_ERR_NULL,
     tw_siv_stream},
    {"SIV/GCM-SIV streamed: output 1 byte after input", M_SIVS, DEC, PH_DATA, inj_update_overlap, 0,
     HWC_ERR_OVERLAP, tw_siv_stream},
    {"SIV/GCM-SIV encryption: set_lengths (one update only)", M_SIVS, ENC, PH_PARAMS, inj_set_lengths, 64,
     HWC_ERR_UNSUPPORTED, NULL},
    {"SIV/GCM-SIV encryption: set_lengths after data (state before operation)", M_SIVS, ENC, PH_MID,
     inj_set_lengths, 64, HWC_ERR_STATE, NULL},
#if SIZE_MAX > 0xffffffffu
    {"GCM-SIV: declared message over 2^36 bytes", MB(HWC_MODE_GCM_SIV), DEC, PH_PARAMS, inj_set_lengths,
     ((size_t)1 << 36) + 1, HWC_ERR_DATA_LEN, NULL},
    {"GCM-SIV: declared AAD over 2^36 bytes", MB(HWC_MODE_GCM_SIV), DEC, PH_PARAMS, inj_set_lengths_aad,
     ((size_t)1 << 36) + 1, HWC_ERR_DATA_LEN, NULL},
#endif

    /* Weak XTS keys. */
    {"XTS key halves equal", MB(HWC_MODE_XTS), BOTH, PH_NEW, inj_init_weak, 0, HWC_ERR_WEAK_KEY, NULL},
    {"XTS key halves equal", MB(HWC_MODE_XTS), BOTH, PH_AAD, inj_init_weak, 0, HWC_ERR_WEAK_KEY, NULL},
    {"XTS key halves equal", MB(HWC_MODE_XTS), ENC, PH_POST_FINAL, inj_init_weak, 0, HWC_ERR_WEAK_KEY, NULL},

    /* NULL with a non-zero length. */
    {"update: NULL input", M_CIPHER, BOTH, PH_DATA, inj_update_null_in, 5, HWC_ERR_NULL, NULL},
    {"update: NULL output", M_CIPHER, BOTH, PH_DATA, inj_update_null_out, 5, HWC_ERR_NULL, NULL},
    {"update_bits: NULL input", MB(HWC_MODE_CFB1), BOTH, PH_MID, inj_update_bits_null, 9, HWC_ERR_NULL, NULL},
    /* (nbits + 7) / 8 wrapped to 0 for these and skipped the NULL check (issue 14, D4). */
    {"update_bits: NULL input, SIZE_MAX bits", MB(HWC_MODE_CFB1), BOTH, PH_MID, inj_update_bits_null, SIZE_MAX,
     HWC_ERR_NULL, NULL},
    {"update_bits: NULL input, SIZE_MAX - 6 bits", MB(HWC_MODE_CFB1), BOTH, PH_MID, inj_update_bits_null,
     SIZE_MAX - 6, HWC_ERR_NULL, NULL},
    {"update_bits: NULL output, SIZE_MAX bits", MB(HWC_MODE_CFB1), BOTH, PH_MID, inj_update_bits_null_out, SIZE_MAX,
     HWC_ERR_NULL, NULL},
    {"update_bits: NULL output", MB(HWC_MODE_CFB1), BOTH, PH_MID, inj_update_bits_null_out, 1, HWC_ERR_NULL, NULL},
    {"aad: NULL", M_AEAD, BOTH, PH_PARAMS, inj_aad_null, 3, HWC_ERR_NULL, NULL},
    {"aad (MAC message): NULL", M_MAC, ENC, PH_MID, inj_aad_null, 3, HWC_ERR_NULL, NULL},
    {"init: NULL IV with a length", M_IV | MB(HWC_MODE_GMAC), BOTH, PH_NEW, inj_init_iv_null, 0, HWC_ERR_NULL, NULL},
    {"init: NULL IV with a length", M_IV | MB(HWC_MODE_GMAC), BOTH, PH_DATA, inj_init_iv_null, 0, HWC_ERR_NULL,
     NULL},
    {"set_tag: NULL", M_AEAD, DEC, PH_PARAMS, inj_set_tag_null, 0, HWC_ERR_NULL, NULL},
    {"get_tag: NULL", M_AEAD, ENC, PH_POST_FINAL, inj_get_tag_null, 0, HWC_ERR_NULL, NULL},
    {"final: NULL output with a block to write", M_PAD, ENC, PH_PRE_FINAL, inj_final_null, 0, HWC_ERR_NULL,
     tw_pad_on},
    {"mac_final: NULL tag", M_MAC, ENC, PH_PRE_FINAL, inj_mac_final_null, 16, HWC_ERR_NULL, NULL},
    {"mac_verify: NULL tag", M_MAC, ENC, PH_PRE_FINAL, inj_mac_verify_null, 16, HWC_ERR_NULL, NULL},

    /* Partial overlap. */
    {"update: output 1 byte after input", M_CIPHER, BOTH, PH_DATA, inj_update_overlap, 0, HWC_ERR_OVERLAP, NULL},
    {"update: output 1 byte before input", M_CIPHER, BOTH, PH_DATA, inj_update_overlap, 1, HWC_ERR_OVERLAP, NULL},
    {"update: output 8 bytes into input", M_CIPHER, BOTH, PH_DATA, inj_update_overlap, 2, HWC_ERR_OVERLAP, NULL},

    /* Calls in the wrong state. */
    {"update before init", M_CIPHER, BOTH, PH_NEW, inj_update, 16, HWC_ERR_STATE, NULL},
    {"aad before init", M_ALL, BOTH, PH_NEW, inj_aad, 16, HWC_ERR_STATE, NULL},
    {"final before init", M_CIPHER, BOTH, PH_NEW, inj_final, 0, HWC_ERR_STATE, NULL},
    {"get_tag before init", M_ALL, ENC, PH_NEW, inj_get_tag, 16, HWC_ERR_STATE, NULL},
    {"set_tag_len before init", M_ALL, ENC, PH_NEW, inj_set_tag_len, 16, HWC_ERR_STATE, NULL},
    {"set_padding before init", M_ALL, ENC, PH_NEW, inj_set_padding, 0, HWC_ERR_STATE, NULL},
    {"set_lengths before init", M_ALL, ENC, PH_NEW, inj_set_lengths, 64, HWC_ERR_STATE, NULL},
    {"mac_final before init", M_ALL, ENC, PH_NEW, inj_mac_final, 16, HWC_ERR_STATE, NULL},
    {"update_bits before init", M_ALL, ENC, PH_NEW, inj_update_bits, 8, HWC_ERR_STATE, NULL},
    {"init without a cipher on a fresh context", M_ALL, BOTH, PH_NEW, inj_init_no_cipher, 0, HWC_ERR_STATE, NULL},
    {"ctx_key_wrap before init", M_ALL, ENC, PH_NEW, inj_ctx_key_wrap, 16, HWC_ERR_STATE, NULL},
    {"aad after update", M_AEAD, BOTH, PH_MID, inj_aad, 4, HWC_ERR_STATE, NULL},
    {"update after final", M_CIPHER, BOTH, PH_POST_FINAL, inj_update, 16, HWC_ERR_STATE, NULL},
    {"final after final", M_CIPHER, BOTH, PH_POST_FINAL, inj_final, 0, HWC_ERR_STATE, NULL},
    {"get_tag before final", M_AEAD, ENC, PH_MID, inj_get_tag, 16, HWC_ERR_STATE, NULL},
    {"get_tag before final", M_AEAD, ENC, PH_PRE_FINAL, inj_get_tag, 16, HWC_ERR_STATE, NULL},
    {"set_tag_len after data", M_STREAM_AEAD, ENC, PH_MID, inj_set_tag_len, 12, HWC_ERR_STATE, NULL},
    /* Issue 14, D5/D6: the state check comes first, and AAD closes the tag length. */
    {"set_tag_len after data", M_AEAD, BOTH, PH_MID, inj_set_tag_len, 16, HWC_ERR_STATE, NULL},
    {"set_tag_len after AAD", M_AEAD, BOTH, PH_AAD, inj_set_tag_len, 16, HWC_ERR_STATE, NULL},
    {"set_tag_len 12 after AAD", M_STREAM_AEAD, ENC, PH_AAD, inj_set_tag_len, 12, HWC_ERR_STATE, NULL},
    {"set_tag_len 3 after AAD (state before length)", M_AEAD, BOTH, PH_AAD, inj_set_tag_len, 3, HWC_ERR_STATE,
     NULL},
    {"set_tag_len after an empty AAD call", M_AEAD & ~MB(HWC_MODE_SIV), ENC, PH_PARAMS, inj_aad_then_set_tag_len, 16, HWC_ERR_STATE,
     NULL},
    {"set_tag_len after final", M_AEAD, ENC, PH_POST_FINAL, inj_set_tag_len, 16, HWC_ERR_STATE, NULL},
    {"set_tag_len 3 after final (state before length)", M_AEAD, ENC, PH_POST_FINAL, inj_set_tag_len, 3,
     HWC_ERR_STATE, NULL},
    {"set_tag_len 3 while waiting for the IV", M_NEED_IV & M_AEAD, BOTH, PH_KEYED, inj_set_tag_len, 3,
     HWC_ERR_STATE, tw_two_step},
    {"decryption: set_tag_len 4 after set_tag", MB(HWC_MODE_GCM) | MB(HWC_MODE_OCB) | MB(HWC_MODE_CCM), DEC,
     PH_PARAMS, inj_set_tag_len, 4, HWC_ERR_STATE, NULL},
    {"mac_final 17 while waiting for the IV", MB(HWC_MODE_GMAC), ENC, PH_KEYED, inj_mac_final, 17, HWC_ERR_STATE,
     tw_two_step},
    {"mac_final 17 after mac_final (state before length)", M_MAC, ENC, PH_POST_FINAL, inj_mac_final, 17,
     HWC_ERR_STATE, NULL},
    {"mac_verify 17 after mac_final (state before length)", M_MAC, ENC, PH_POST_FINAL, inj_mac_verify, 17,
     HWC_ERR_STATE, NULL},
    {"mac_final after mac_final", M_MAC, ENC, PH_POST_FINAL, inj_mac_final, 16, HWC_ERR_STATE, NULL},
    {"update with overlapping buffers before init (state before overlap)", M_CIPHER, BOTH, PH_NEW,
     inj_update_overlap, 0, HWC_ERR_STATE, NULL},
    {"update of SIZE_MAX bytes before init (state before length)", M_CIPHER, BOTH, PH_NEW, inj_update_in_place,
     SIZE_MAX, HWC_ERR_STATE, NULL},
    {"update of SIZE_MAX bytes on a MAC (operation before length)", M_MAC, ENC, PH_MID, inj_update_in_place,
     SIZE_MAX, HWC_ERR_UNSUPPORTED, NULL},
    {"set_padding after data", M_PAD, BOTH, PH_MID, inj_set_padding, 0, HWC_ERR_STATE, NULL},
    {"set_lengths after AAD", MB(HWC_MODE_CCM), BOTH, PH_AAD, inj_set_lengths, 64, HWC_ERR_STATE, NULL},
    {"CCM aad before set_lengths", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_aad, 4, HWC_ERR_STATE, NULL},
    {"CCM update before set_lengths", MB(HWC_MODE_CCM), ENC, PH_INIT, inj_update, 4, HWC_ERR_STATE, NULL},
    {"second update in a one-shot mode", M_ONESHOT, BOTH, PH_MID, inj_update, 16, HWC_ERR_STATE, NULL},

    /* Operations the cipher does not have. */
    {"set_padding on a mode without padding", M_CIPHER & ~M_PAD, ENC, PH_INIT, inj_set_padding, 0,
     HWC_ERR_UNSUPPORTED, NULL},
    {"update_bits on a mode other than CFB1", M_CIPHER & ~MB(HWC_MODE_CFB1), ENC, PH_DATA, inj_update_bits, 8,
     HWC_ERR_UNSUPPORTED, NULL},
    {"aad on a mode without AAD", M_PLAIN, BOTH, PH_INIT, inj_aad, 4, HWC_ERR_UNSUPPORTED, NULL},
    {"set_tag_len on a mode without tag", M_PLAIN, ENC, PH_INIT, inj_set_tag_len, 16, HWC_ERR_UNSUPPORTED, NULL},
    {"get_tag on a mode without tag", M_PLAIN, ENC, PH_POST_FINAL, inj_get_tag, 16, HWC_ERR_UNSUPPORTED, NULL},
    {"update on a MAC", M_MAC, ENC, PH_MID, inj_update, 16, HWC_ERR_UNSUPPORTED, NULL},
    {"mac_final on a cipher", M_CIPHER, ENC, PH_PRE_FINAL, inj_mac_final, 16, HWC_ERR_UNSUPPORTED, NULL},
    {"ctx_key_wrap on a non-wrap cipher", M_ALL, ENC, PH_INIT, inj_ctx_key_wrap, 16, HWC_ERR_UNSUPPORTED, NULL},

    /* Back-end names. */
    {"unknown back end", M_ALL, BOTH, PH_NEW, inj_set_impl, 0, HWC_ERR_UNKNOWN, NULL},
    {"unknown back end", M_ALL, BOTH, PH_MID, inj_set_impl, 0, HWC_ERR_UNKNOWN, NULL},
    {"back-end name with a space", M_ALL, ENC, PH_INIT, inj_set_impl, 2, HWC_ERR_UNKNOWN, NULL},
};

/* HWC_BAD_SKIP: see the top of the file. */
static int skipped_case(const bcase *bc) {
    const char *skip = getenv("HWC_BAD_SKIP");
    if (!skip || !*skip || !strstr(bc->label, skip))
        return 0;
    test_skip(bc->label, "HWC_BAD_SKIP");
    return 1;
}

static void run_table(void) {
    test_rand_bytes(scr_in, sizeof scr_in);
    test_rand_bytes(long_iv, sizeof long_iv);
    test_rand_bytes(weak_key, sizeof weak_key);
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        unsigned long failed_before = test_failed, before = ncases;
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            const bcase *bc = &cases[k];
            if (!(bc->modes & mode_bit(c)) || skipped_case(bc))
                continue;
            for (int d = 0; d < 2; d++) {
                int enc = d == 0;
                if (!(bc->dirs & (enc ? ENC : DEC)))
                    continue;
                if (!enc && is_mac(c))
                    continue;
                scen s;
                if (make_scen(&s, c, NULL, enc, bc->tweak))
                    expect(bc->label, &s, bc->phase, bc->fn, bc->arg, bc->want);
            }
        }
        /* Wrong key lengths, on a fresh context and mid-stream. */
        if (!(mode_bit(c) & M_WRAP)) {
            size_t kl = hwc_cipher_key_len(c);
            size_t bad[] = {0, 1, kl - 1, kl + 1, 8, 16, 24, 32, 48, 64, 80};
            for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
                if (bad[b] == kl)
                    continue;
                for (int enc = 1; enc >= 0; enc--) {
                    if (!enc && is_mac(c))
                        continue;
                    scen s;
                    char label[64];
                    snprintf(label, sizeof label, "key length %zu", bad[b]);
                    if (make_scen(&s, c, NULL, enc, NULL)) {
                        expect(label, &s, b % 2 ? PH_NEW : PH_DATA, inj_init_keylen, bad[b], HWC_ERR_KEY_LEN);
                    }
                }
            }
        }
        if (!(mode_bit(c) & M_WRAP)) /* key wrap: key_wrap_errors() */
            printf("%-20s %3lu cases %s\n", hwc_cipher_name(c), ncases - before,
                   test_failed == failed_before ? "ok" : "FAILED");
    }
}

/* The harness must see a change: a successful restart with another IV in
 * mid-stream has to make the run differ from the undisturbed one. */
static int inj_restart_other_iv(hwc_ctx *ctx, const scen *s, size_t len) {
    (void)len;
    return hwc_init(ctx, NULL, s->enc, NULL, 0, long_iv, s->ivlen);
}
static void harness_selftest(void) {
    static const char *names[] = {"aes-128-gcm", "aes-128-cbc", "sm4-ctr", "aes-256-ocb"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const hwc_cipher *c = hwc_cipher_by_name(names[i]);
        scen s;
        result ref, got;
        int inj = 0x7fff, dummy;
        if (!c || !make_scen(&s, c, NULL, 1, NULL))
            continue;
        play(&s, PH_NONE, NULL, 0, &dummy, &ref);
        play(&s, PH_MID, inj_restart_other_iv, 0, &inj, &got);
        CHECKF(inj == 0 && ref.rc == 0, "harness self-test %s: restart %d, reference %d", names[i], inj, ref.rc);
        CHECKF(got.rc != 0 || got.outlen != ref.outlen || memcmp(got.out, ref.out, ref.outlen) != 0 ||
                   memcmp(got.tag, ref.tag, 16) != 0,
               "harness self-test %s: a state change went unnoticed", names[i]);
    }
}

/* Two-step init (key, then IV) gives the same result as one call. */
static void two_step_equals_one_step(void) {
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        if (!(mode_bit(c) & M_NEED_IV))
            continue;
        for (int enc = 1; enc >= 0; enc--) {
            scen s;
            result one, two;
            int dummy;
            if (!enc && is_mac(c))
                continue;
            if (!make_scen(&s, c, NULL, enc, NULL))
                continue;
            play(&s, PH_NONE, NULL, 0, &dummy, &one);
            s.two_step = 1;
            play(&s, PH_NONE, NULL, 0, &dummy, &two);
            ncases++;
            if (CHECKF(one.rc == 0 && two.rc == 0, "%s %s two-step init: %s %d (%s)", hwc_cipher_name(c),
                       enc ? "enc" : "dec", two.failed_step ? two.failed_step : one.failed_step,
                       two.rc ? two.rc : one.rc, hwc_strerror(two.rc ? two.rc : one.rc)))
                CHECKF(one.outlen == two.outlen && memcmp(one.out, two.out, one.outlen) == 0 &&
                           memcmp(one.tag, two.tag, 16) == 0,
                       "%s %s: two-step init differs from one-step", hwc_cipher_name(c), enc ? "enc" : "dec");
        }
    }
}

/* ------------------------------------------------ per-back-end sample */

/* The checks that happen in the modes (lengths, state) with every back end
 * forced, on one cipher per mode. */
static void impl_sample(const char *impl, void *arg) {
    hwc_family fam = *(hwc_family *)arg;
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        if (hwc_cipher_family(c) != fam || (mode_bit(c) & M_WRAP))
            continue;
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            const bcase *bc = &cases[k];
            if (!(bc->modes & mode_bit(c)) || bc->want == HWC_ERR_UNKNOWN || skipped_case(bc))
                continue;
            scen s;
            int enc = (bc->dirs & ENC) ? 1 : 0;
            if (make_scen(&s, c, impl, enc, bc->tweak))
                expect(bc->label, &s, bc->phase, bc->fn, bc->arg, bc->want);
        }
    }
}

/* ------------------------------------------------------ one-shot AEAD */

static void oneshot_aead(void) {
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        if (!is_aead(c))
            continue;
        hwc_mode m = hwc_cipher_mode(c);
        const char *name = hwc_cipher_name(c);
        size_t kl = hwc_cipher_key_len(c), nl = hwc_cipher_iv_len(c), tl = hwc_cipher_tag_len(c);
        uint8_t k[64], nonce[32], a[24], p[100], ref_ct[100], ref_tag[16], ct[120], t[16], out[120];
        test_rand_bytes(k, sizeof k);
        test_rand_bytes(nonce, sizeof nonce);
        test_rand_bytes(a, sizeof a);
        test_rand_bytes(p, sizeof p);
        hwc_ctx *e = hwc_ctx_new(), *d = hwc_ctx_new();
        int rc = hwc_init(e, c, HWC_ENCRYPT, k, kl, nonce, nl);
        if (rc == 0)
            rc = hwc_init(d, c, HWC_DECRYPT, k, kl, nonce, nl);
        if (rc == 0)
            rc = hwc_aead_seal(e, nonce, nl, a, sizeof a, p, sizeof p, ref_ct, ref_tag, tl);
        if (!CHECKF(rc == 0, "%s: one-shot reference seal: %d (%s)", name, rc, hwc_strerror(rc))) {
            hwc_ctx_free(e);
            hwc_ctx_free(d);
            continue;
        }
#define SEAL_THEN_GOOD(call, want, what)                                                                      \
    do {                                                                                                      \
        ncases++;                                                                                             \
        int r_ = (call);                                                                                      \
        CHECKF(r_ == (want), "%s: seal with %s: %d (%s), want %d (%s)", name, what, r_, hwc_strerror(r_),     \
               (int)(want), hwc_strerror(want));                                                              \
        memset(ct, 0, sizeof ct);                                                                             \
        r_ = hwc_aead_seal(e, nonce, nl, a, sizeof a, p, sizeof p, ct, t, tl);                                \
        if (CHECKF(r_ == 0, "%s: seal after %s: %d (%s)", name, what, r_, hwc_strerror(r_))) {                \
            CHECK_MEM(ct, ref_ct, sizeof p, what);                                                            \
            CHECK_MEM(t, ref_tag, tl, what);                                                                  \
        }                                                                                                     \
    } while (0)
        size_t badn = m == HWC_MODE_GCM ? 0 : m == HWC_MODE_CCM ? 14 : m == HWC_MODE_OCB ? 16 : m == HWC_MODE_GCM_SIV ? 11 : 0;
        if (m != HWC_MODE_SIV)
            SEAL_THEN_GOOD(hwc_aead_seal(e, long_iv, badn, a, sizeof a, p, sizeof p, ct, t, tl), HWC_ERR_IV_LEN,
                           "a bad nonce length");
        if (m == HWC_MODE_OCB || m == HWC_MODE_CCM)
            SEAL_THEN_GOOD(hwc_aead_seal(e, long_iv, m == HWC_MODE_OCB ? 0 : 6, a, sizeof a, p, sizeof p, ct, t, tl),
                           HWC_ERR_IV_LEN, "a bad nonce length (short)");
        size_t badt = m == HWC_MODE_CCM ? 5 : 17;
        SEAL_THEN_GOOD(hwc_aead_seal(e, nonce, nl, a, sizeof a, p, sizeof p, ct, t, badt), HWC_ERR_TAG_LEN,
                       "a bad tag length");
        SEAL_THEN_GOOD(hwc_aead_seal(e, nonce, nl, a, sizeof a, NULL, sizeof p, ct, t, tl), HWC_ERR_NULL,
                       "NULL input");
        SEAL_THEN_GOOD(hwc_aead_seal(e, nonce, nl, NULL, 5, p, sizeof p, ct, t, tl), HWC_ERR_NULL, "NULL AAD");
        SEAL_THEN_GOOD(hwc_aead_seal(e, nonce, nl, a, sizeof a, p, sizeof p, NULL, t, tl), HWC_ERR_NULL,
                       "NULL output");
        SEAL_THEN_GOOD(hwc_aead_seal(e, nonce, nl, a, sizeof a, p, sizeof p, ct, NULL, tl), HWC_ERR_NULL, "NULL tag");
        if (nl)
            SEAL_THEN_GOOD(hwc_aead_seal(e, NULL, nl, a, sizeof a, p, sizeof p, ct, t, tl), HWC_ERR_NULL,
                           "NULL nonce");
        memcpy(scr_in, p, sizeof p);
        SEAL_THEN_GOOD(hwc_aead_seal(e, nonce, nl, a, sizeof a, scr_in, sizeof p, scr_in + 3, t, tl),
                       HWC_ERR_OVERLAP, "overlapping output");
        {
            hwc_ctx *fresh = hwc_ctx_new();
            int r = hwc_aead_seal(fresh, nonce, nl, a, sizeof a, p, sizeof p, ct, t, tl);
            ncases++;
            CHECKF(r == HWC_ERR_STATE, "%s: seal on a context without key: %d (%s)", name, r, hwc_strerror(r));
            hwc_ctx_free(fresh);
        }
        /* Open: tag failure zeroes the whole output, then a good open works. */
        for (int what = 0; what < 3; what++) {
            uint8_t badtag[16], badct[100];
            memcpy(badtag, ref_tag, 16);
            memcpy(badct, ref_ct, sizeof badct);
            if (what == 0)
                badtag[tl - 1] ^= 0x01;
            else if (what == 1)
                badct[50] ^= 0x80;
            memset(out, 0xee, sizeof out);
            ncases++;
            rc = hwc_aead_open(d, nonce, nl, a, what == 2 ? sizeof a - 1 : sizeof a, badct, sizeof badct, out, badtag,
                               tl);
            CHECKF(rc == HWC_ERR_AUTH, "%s: open with a bad %s: %d (%s)", name,
                   what == 0 ? "tag" : what == 1 ? "ciphertext" : "AAD length", rc, hwc_strerror(rc));
            size_t nz = 0;
            for (size_t i = 0; i < sizeof p; i++)
                nz += out[i] != 0;
            CHECKF(nz == 0, "%s: %zu output bytes not zeroed after a failed open", name, nz);
            memset(out, 0, sizeof out);
            rc = hwc_aead_open(d, nonce, nl, a, sizeof a, ref_ct, sizeof p, out, ref_tag, tl);
            if (CHECKF(rc == 0, "%s: open after a failed open: %d (%s)", name, rc, hwc_strerror(rc)))
                CHECK_MEM(out, p, sizeof p, "open after a failed open");
        }
        /* Streaming: hwc_final reports a bad tag. */
        {
            uint8_t badtag[16];
            size_t n1 = 0, n2 = 0;
            memcpy(badtag, ref_tag, 16);
            badtag[0] ^= 0x20;
            hwc_ctx *x = hwc_ctx_new();
            rc = hwc_init(x, c, HWC_DECRYPT, k, kl, nonce, nl);
            if (rc == 0 && m == HWC_MODE_CCM)
                rc = hwc_set_lengths(x, sizeof a, sizeof p);
            if (rc == 0)
                rc = hwc_set_tag(x, badtag, tl);
            if (rc == 0)
                rc = hwc_aad(x, a, sizeof a);
            ncases++;
            if (CHECKF(rc == 0, "%s: streaming decrypt setup: %d (%s)", name, rc, hwc_strerror(rc))) {
                memset(out, 0xee, sizeof out);
                rc = hwc_update(x, out, &n1, ref_ct, sizeof p);
                if (is_oneshot(c)) {
                    /* The whole message is there: the check happens in update, which wipes its output. */
                    size_t nz = 0;
                    for (size_t i = 0; i < sizeof p; i++)
                        nz += out[i] != 0;
                    CHECKF(rc == HWC_ERR_AUTH && nz == 0,
                           "%s: one-shot-mode update with a bad tag: %d (%s), %zu bytes not zeroed", name, rc,
                           hwc_strerror(rc), nz);
                } else {
                    CHECKF(rc == 0, "%s: streaming update: %d (%s)", name, rc, hwc_strerror(rc));
                }
                rc = hwc_final(x, out + n1, &n2);
                CHECKF(rc == HWC_ERR_AUTH, "%s: streaming final with a bad tag: %d (%s)", name, rc,
                       hwc_strerror(rc));
            }
            hwc_ctx_free(x);
        }
        hwc_ctx_free(e);
        hwc_ctx_free(d);
#undef SEAL_THEN_GOOD
    }
}

/* --------------------------------------------------------- bad padding */

static void bad_padding(void) {
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        if (!(mode_bit(c) & M_PAD))
            continue;
        size_t kl = hwc_cipher_key_len(c), il = hwc_cipher_iv_len(c);
        uint8_t k[32], v[16];
        test_rand_bytes(k, sizeof k);
        test_rand_bytes(v, sizeof v);
        /* Last plaintext block endings that are not PKCS#7. */
        static const struct {
            const char *what;
            uint8_t tail[4]; /* last 4 bytes of a 48-byte plaintext */
        } bads[] = {{"pad byte 0", {1, 2, 3, 0}},        {"pad byte 17", {1, 2, 3, 17}},
                    {"pad byte 0xff", {1, 2, 3, 0xff}},  {"inconsistent pad 03 03 04", {9, 3, 4, 3}},
                    {"inconsistent pad 02 04", {9, 9, 2, 4}}};
        for (size_t b = 0; b < sizeof bads / sizeof bads[0]; b++) {
            uint8_t p[48], ct[64], out[96];
            size_t n1 = 0, n2 = 0;
            test_rand_bytes(p, sizeof p);
            memcpy(p + 44, bads[b].tail, 4);
            hwc_ctx *x = hwc_ctx_new();
            int rc = hwc_init(x, c, HWC_ENCRYPT, k, kl, v, il);
            if (rc == 0)
                rc = hwc_set_padding(x, 0);
            if (rc == 0)
                rc = hwc_update(x, ct, &n1, p, sizeof p);
            if (rc == 0)
                rc = hwc_final(x, ct + n1, &n2);
            if (!CHECKF(rc == 0 && n1 + n2 == 48, "%s: building bad padding: %d", hwc_cipher_name(c), rc)) {
                hwc_ctx_free(x);
                continue;
            }
            rc = hwc_init(x, c, HWC_DECRYPT, k, kl, v, il);
            if (rc == 0)
                rc = hwc_update(x, out, &n1, ct, 48);
            ncases++;
            if (CHECKF(rc == 0, "%s: %s: update %d", hwc_cipher_name(c), bads[b].what, rc)) {
                rc = hwc_final(x, out + n1, &n2);
                CHECKF(rc == HWC_ERR_PADDING, "%s: %s: final %d (%s), want HWC_ERR_PADDING", hwc_cipher_name(c),
                       bads[b].what, rc, hwc_strerror(rc));
                /* Unchanged: the same final fails the same way. */
                rc = hwc_final(x, out + n1, &n2);
                CHECKF(rc == HWC_ERR_PADDING, "%s: %s: second final %d (%s)", hwc_cipher_name(c), bads[b].what, rc,
                       hwc_strerror(rc));
            }
            hwc_ctx_free(x);
        }
        /* Padding on, ciphertext not a block multiple. */
        {
            uint8_t ct[40] = {0}, out[64];
            size_t n1 = 0, n2 = 0;
            hwc_ctx *x = hwc_ctx_new();
            int rc = hwc_init(x, c, HWC_DECRYPT, k, kl, v, il);
            if (rc == 0)
                rc = hwc_update(x, out, &n1, ct, sizeof ct);
            ncases++;
            if (CHECKF(rc == 0, "%s: update %d", hwc_cipher_name(c), rc)) {
                rc = hwc_final(x, out + n1, &n2);
                CHECKF(rc == HWC_ERR_DATA_LEN, "%s: padded decryption of 40 bytes: final %d (%s), want DATA_LEN",
                       hwc_cipher_name(c), rc, hwc_strerror(rc));
            }
            hwc_ctx_free(x);
        }
    }
}

/* ------------------------------------------------------------ key wrap */

static void key_wrap_errors(void) {
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        if (!(mode_bit(c) & M_WRAP))
            continue;
        int kwp = hwc_cipher_mode(c) == HWC_MODE_KWP;
        const char *name = hwc_cipher_name(c);
        unsigned long failed_before = test_failed, before = ncases;
        size_t kl = hwc_cipher_key_len(c), inl = kwp ? 21 : 24, wl = kwp ? 32 : 32, n = 0;
        uint8_t k[32], p[32], w[64], ref[64], out[64], unw[64];
        int rc;
        test_rand_bytes(k, sizeof k);
        test_rand_bytes(p, sizeof p);
        rc = hwc_key_wrap(c, k, kl, p, inl, ref, sizeof ref, &n);
        if (!CHECKF(rc == 0 && n == wl, "%s: reference wrap: %d len %zu", name, rc, n))
            continue;

        /* One-shot functions. */
#define ONE(call, want, what)                                                                                 \
    do {                                                                                                      \
        ncases++;                                                                                             \
        int r_ = (call);                                                                                      \
        CHECKF(r_ == (want), "%s: %s: %d (%s), want %d (%s)", name, what, r_, hwc_strerror(r_), (int)(want),  \
               hwc_strerror(want));                                                                           \
    } while (0)
        ONE(hwc_key_wrap(c, k, kl + 1, p, inl, w, sizeof w, &n), HWC_ERR_KEY_LEN, "wrap with a bad KEK length");
        ONE(hwc_key_wrap(c, k, 0, p, inl, w, sizeof w, &n), HWC_ERR_KEY_LEN, "wrap with a KEK of length 0");
        ONE(hwc_key_unwrap(c, k, kl - 1, ref, wl, w, sizeof w, &n), HWC_ERR_KEY_LEN, "unwrap with a bad KEK length");
        ONE(hwc_key_wrap(c, k, kl, NULL, inl, w, sizeof w, &n), HWC_ERR_NULL, "wrap NULL input");
        ONE(hwc_key_wrap(c, k, kl, p, inl, NULL, sizeof w, &n), HWC_ERR_NULL, "wrap into NULL");
        ONE(hwc_key_unwrap(c, k, kl, NULL, wl, w, sizeof w, &n), HWC_ERR_NULL, "unwrap NULL input");
        ONE(hwc_key_wrap(c, NULL, kl, p, inl, w, sizeof w, &n), HWC_ERR_NULL, "wrap with a NULL KEK");
        ONE(hwc_key_wrap(c, k, kl, p, inl, w, wl - 1, &n), HWC_ERR_BUFFER, "wrap with out_cap one short");
        ONE(hwc_key_wrap(c, k, kl, p, inl, w, 0, &n), HWC_ERR_BUFFER, "wrap with out_cap 0");
        ONE(hwc_key_unwrap(c, k, kl, ref, wl, unw, inl - 1, &n), HWC_ERR_BUFFER, "unwrap with out_cap too small");
        if (!kwp) {
            ONE(hwc_key_wrap(c, k, kl, p, 20, w, sizeof w, &n), HWC_ERR_DATA_LEN, "KW wrap of 20 bytes");
            ONE(hwc_key_wrap(c, k, kl, p, 8, w, sizeof w, &n), HWC_ERR_DATA_LEN, "KW wrap of 8 bytes");
            ONE(hwc_key_wrap(c, k, kl, p, 0, w, sizeof w, &n), HWC_ERR_DATA_LEN, "KW wrap of 0 bytes");
            ONE(hwc_key_unwrap(c, k, kl, ref, 16, unw, sizeof unw, &n), HWC_ERR_DATA_LEN, "KW unwrap of 16 bytes");
            ONE(hwc_key_unwrap(c, k, kl, ref, 28, unw, sizeof unw, &n), HWC_ERR_DATA_LEN, "KW unwrap of 28 bytes");
        } else {
            ONE(hwc_key_wrap(c, k, kl, p, 0, w, sizeof w, &n), HWC_ERR_DATA_LEN, "KWP wrap of 0 bytes");
            ONE(hwc_key_unwrap(c, k, kl, ref, 8, unw, sizeof unw, &n), HWC_ERR_DATA_LEN, "KWP unwrap of 8 bytes");
            ONE(hwc_key_unwrap(c, k, kl, ref, 30, unw, sizeof unw, &n), HWC_ERR_DATA_LEN, "KWP unwrap of 30 bytes");
        }
        memcpy(scr_in, p, inl);
        ONE(hwc_key_wrap(c, k, kl, scr_in, inl, scr_in + 8, 64, &n), HWC_ERR_OVERLAP, "wrap, output 8 bytes in");
        /* Lengths before overlap (docs/ERRORS.md's order; the one-shot calls run hwc_ctx_key_wrap). */
        ONE(hwc_key_wrap(c, k, kl, scr_in, 0, scr_in + 8, 64, &n), HWC_ERR_DATA_LEN,
            "wrap of 0 bytes, output 8 bytes in");
        ONE(hwc_key_wrap(c, k, kl, scr_in, inl, scr_in + 8, wl - 1, &n), HWC_ERR_BUFFER,
            "wrap with out_cap one short, output 8 bytes in");
        ONE(hwc_key_unwrap(c, k, kl, scr_in, 16 - 8 * kwp, scr_in + 8, 64, &n), HWC_ERR_DATA_LEN,
            "unwrap of a too short input, output 8 bytes in");
        ONE(hwc_key_unwrap(c, k, kl, scr_in, wl, scr_in + 8, inl - 1, &n), HWC_ERR_BUFFER,
            "unwrap with out_cap too small, output 8 bytes in");
        /* A capacity no buffer has: a failed unwrap would zero all of it. */
        ONE(hwc_key_unwrap(c, k, kl, ref, wl, unw, (size_t)PTRDIFF_MAX + 1, &n), HWC_ERR_DATA_LEN,
            "unwrap with out_cap over PTRDIFF_MAX");
        ONE(hwc_key_wrap(c, k, kl, p, SIZE_MAX - 7, w, sizeof w, &n), HWC_ERR_DATA_LEN, "wrap of SIZE_MAX - 7 bytes");
#if SIZE_MAX > 0xffffffffu
        /* Past the length limits, in place on a small buffer: refused on the length alone. */
        if (kwp)
            ONE(hwc_key_wrap(c, k, kl, scr_in, (size_t)1 << 32, scr_in, ((size_t)1 << 32) + 16, &n),
                HWC_ERR_DATA_LEN, "KWP wrap of 2^32 bytes");
        else
            ONE(hwc_key_wrap(c, k, kl, scr_in, (size_t)1 << 58, scr_in, ((size_t)1 << 58) + 8, &n), HWC_ERR_DATA_LEN,
                "KW wrap of 2^55 semiblocks");
#endif
        {
            const hwc_cipher *gcm = hwc_cipher_by_name("aes-128-gcm");
            if (gcm)
                ONE(hwc_key_wrap(gcm, k, 16, p, 24, w, sizeof w, &n), HWC_ERR_UNSUPPORTED, "wrap with aes-128-gcm");
        }
        /* Tampering: every position, output zeroed (out_cap bytes). */
        unsigned long notauth = 0, notzero = 0;
        for (size_t pos = 0; pos < wl; pos++) {
            memcpy(w, ref, wl);
            w[pos] ^= (uint8_t)(1u << (pos % 8));
            memset(out, 0xab, sizeof out);
            rc = hwc_key_unwrap(c, k, kl, w, wl, out, 40, &n);
            if (rc != HWC_ERR_AUTH)
                notauth++;
            for (size_t i = 0; i < 40; i++)
                if (out[i]) {
                    notzero++;
                    break;
                }
            if (out[40] != 0xab)
                notzero++;
        }
        ncases++;
        CHECKF(notauth == 0, "%s: %lu tampered wrappings not rejected with HWC_ERR_AUTH", name, notauth);
        CHECKF(notzero == 0, "%s: %lu failed unwraps did not zero exactly out_cap bytes", name, notzero);
        /* Wrong KEK. */
        {
            uint8_t k2[32];
            memcpy(k2, k, sizeof k2);
            k2[0] ^= 1;
            memset(out, 0xab, sizeof out);
            ONE(hwc_key_unwrap(c, k2, kl, ref, wl, out, 40, &n), HWC_ERR_AUTH, "unwrap with the wrong KEK");
        }

        /* Context versions: the failed call leaves the key, then the good call matches. */
        hwc_ctx *x = hwc_ctx_new();
        ONE(hwc_ctx_key_wrap(x, p, inl, w, sizeof w, &n), HWC_ERR_STATE, "ctx wrap before init");
        rc = hwc_init(x, c, HWC_ENCRYPT, k, kl, NULL, 0);
        if (CHECKF(rc == 0, "%s: init: %d (%s)", name, rc, hwc_strerror(rc))) {
            uint8_t k3[32];
            memset(k3, 0x33, sizeof k3);
            ONE(hwc_init(x, c, HWC_ENCRYPT, k3, kl + 3, NULL, 0), HWC_ERR_KEY_LEN, "ctx re-init, bad KEK length");
            ONE(hwc_ctx_key_wrap(x, p, inl, w, wl - 1, &n), HWC_ERR_BUFFER, "ctx wrap, out_cap short");
            ONE(hwc_ctx_key_wrap(x, NULL, inl, w, sizeof w, &n), HWC_ERR_NULL, "ctx wrap, NULL input");
            ONE(hwc_ctx_set_impl(x, "nope"), HWC_ERR_UNKNOWN, "ctx set_impl unknown");
            memset(w, 0, sizeof w);
            rc = hwc_ctx_key_wrap(x, p, inl, w, sizeof w, &n);
            if (CHECKF(rc == 0 && n == wl, "%s: ctx wrap after failures: %d", name, rc))
                CHECK_MEM(w, ref, wl, "ctx wrap after failed calls");
            /* Tampered unwrap on the context, then the good one. */
            memcpy(w, ref, wl);
            w[3] ^= 4;
            rc = hwc_init(x, c, HWC_DECRYPT, k, kl, NULL, 0);
            memset(out, 0xab, sizeof out);
            ONE(hwc_ctx_key_unwrap(x, w, wl, out, 40, &n), HWC_ERR_AUTH, "ctx unwrap tampered");
            size_t nz = 0;
            for (size_t i = 0; i < 40; i++)
                nz += out[i] != 0;
            CHECKF(nz == 0, "%s: ctx unwrap failure left %zu bytes non-zero", name, nz);
            rc = hwc_ctx_key_unwrap(x, ref, wl, unw, sizeof unw, &n);
            if (CHECKF(rc == 0 && n == inl, "%s: ctx unwrap after failure: %d (%s) len %zu", name, rc,
                       hwc_strerror(rc), n))
                CHECK_MEM(unw, p, inl, "ctx unwrap after a failed one");
            /* Streaming calls on a wrap cipher. */
            size_t o;
            ONE(hwc_update(x, out, &o, p, 16), HWC_ERR_UNSUPPORTED, "hwc_update on a key-wrap context");
        }
        hwc_ctx_free(x);
        printf("%-20s %3lu cases %s\n", name, ncases - before, test_failed == failed_before ? "ok" : "FAILED");
#undef ONE
    }
}

/* ------------------------------------------------------------ one-shot MAC */

static void mac_errors(void) {
    for (size_t ci = 0; ci < hwc_cipher_count(); ci++) {
        const hwc_cipher *c = hwc_cipher_at(ci);
        if (!is_mac(c))
            continue;
        const char *name = hwc_cipher_name(c);
        size_t kl = hwc_cipher_key_len(c), il = hwc_cipher_iv_len(c);
        uint8_t k[32], v[16], msg[40], t[16];
        test_rand_bytes(k, sizeof k);
        test_rand_bytes(v, sizeof v);
        test_rand_bytes(msg, sizeof msg);
#define ONE(call, want, what)                                                                                 \
    do {                                                                                                      \
        ncases++;                                                                                             \
        int r_ = (call);                                                                                      \
        CHECKF(r_ == (want), "%s: %s: %d (%s), want %d (%s)", name, what, r_, hwc_strerror(r_), (int)(want),  \
               hwc_strerror(want));                                                                           \
    } while (0)
        ONE(hwc_mac(c, k, kl, v, il, msg, sizeof msg, t, 16), HWC_OK, "good one-shot MAC");
        ONE(hwc_mac(c, k, kl + 1, v, il, msg, sizeof msg, t, 16), HWC_ERR_KEY_LEN, "bad key length");
        ONE(hwc_mac(c, k, kl, v, il, NULL, sizeof msg, t, 16), HWC_ERR_NULL, "NULL message");
        ONE(hwc_mac(c, k, kl, v, il, msg, sizeof msg, NULL, 16), HWC_ERR_NULL, "NULL tag");
        ONE(hwc_mac(c, NULL, kl, v, il, msg, sizeof msg, t, 16), HWC_ERR_NULL, "NULL key");
        ONE(hwc_mac(c, k, kl, v, il, msg, sizeof msg, t, 17), HWC_ERR_TAG_LEN, "tag length 17");
        if (hwc_cipher_mode(c) == HWC_MODE_GMAC)
            ONE(hwc_mac(c, k, kl, v, 0, msg, sizeof msg, t, 16), HWC_ERR_IV_LEN, "GMAC without IV");
        else
            ONE(hwc_mac(c, k, kl, v, 16, msg, sizeof msg, t, 16), HWC_ERR_IV_LEN, "CMAC with an IV");
#undef ONE
    }
    const hwc_cipher *gcm = hwc_cipher_by_name("aes-128-gcm");
    uint8_t k[16] = {0}, v[12] = {0}, t[16];
    if (gcm) {
        int rc = hwc_mac(gcm, k, 16, v, 12, k, 16, t, 16);
        ncases++;
        CHECKF(rc == HWC_ERR_UNSUPPORTED, "hwc_mac with aes-128-gcm: %d (%s), want UNSUPPORTED", rc,
               hwc_strerror(rc));
    }
}

/* ------------------------------------------------------------ names */

static void names_and_strings(void) {
    static const char *unknown[] = {"", "aes", "aes-128", "aes-128-xyz", "aes-512-gcm", "sm4-256-gcm", "aes-128-gcm ",
                                    " aes-128-gcm", "aes-128-gcmx", "aes_128_gcm", "aes-192-xts", "sm4-gcm-siv",
                                    "aes-192-gcm-siv"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        CHECKF(hwc_cipher_by_name(unknown[i]) == NULL, "hwc_cipher_by_name(\"%s\") is not NULL", unknown[i]);
    CHECKF(hwc_cipher_by_name(NULL) == NULL, "hwc_cipher_by_name(NULL)");
    CHECKF(hwc_cipher_by_name("AES-128-GCM") == hwc_cipher_by_name("aes-128-gcm") &&
               hwc_cipher_by_name("aes-128-gcm") != NULL,
           "cipher names are case-insensitive");
    CHECKF(hwc_cipher_at(hwc_cipher_count()) == NULL, "hwc_cipher_at past the end");
    CHECKF(hwc_impl_name(hwc_impl_count()) == NULL, "hwc_impl_name past the end");

    /* Back-end names. */
    hwc_ctx *x = hwc_ctx_new();
    CHECK_RC(hwc_ctx_set_impl(x, "no-such-back-end"), HWC_ERR_UNKNOWN);
    CHECK_RC(hwc_ctx_set_impl(x, "ct "), HWC_ERR_UNKNOWN);
    CHECK_RC(hwc_ctx_set_impl(x, "CTX"), HWC_ERR_UNKNOWN);
    CHECK_RC(hwc_ctx_set_impl(x, NULL), HWC_OK);
    CHECK(hwc_ctx_impl(x) == NULL);
    int unavailable = 0;
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        const char *why = NULL;
        if (hwc_impl_is_ghash(i) || hwc_impl_available(i, &why))
            continue;
        unavailable++;
        CHECKF(why && *why, "unavailable back end %s gives no reason", hwc_impl_name(i));
        int rc = hwc_ctx_set_impl(x, hwc_impl_name(i));
        CHECKF(rc == HWC_ERR_UNAVAILABLE, "set_impl(\"%s\") (unavailable: %s): %d (%s)", hwc_impl_name(i),
               why ? why : "?", rc, hwc_strerror(rc));
    }
    if (!unavailable)
        test_skip("set_impl of an unavailable back end", "every back end is available on this machine");
    hwc_ctx_free(x);

    /* Error strings: distinct and non-empty. */
    const char *seen[16];
    for (int e = 0; e >= -15; e--) {
        const char *s = hwc_strerror(e);
        CHECKF(s && *s, "hwc_strerror(%d) empty", e);
        seen[-e] = s;
        for (int f = 0; f < -e; f++)
            CHECKF(!s || !seen[f] || strcmp(s, seen[f]) != 0, "hwc_strerror(%d) == hwc_strerror(%d): \"%s\"", e, -f,
                   s ? s : "(null)");
    }
    const char *unk = hwc_strerror(-999);
    CHECKF(unk && *unk, "hwc_strerror(-999) empty");
    CHECKF(hwc_strerror(1) && *hwc_strerror(1), "hwc_strerror(1) empty");

    /* NULL contexts do not crash. */
    size_t n;
    uint8_t b[16] = {0};
    hwc_ctx_free(NULL);
    CHECKF(hwc_update(NULL, b, &n, b, 16) != 0, "hwc_update(NULL ctx) succeeded");
    CHECKF(hwc_init(NULL, hwc_cipher_by_name("aes-128-ecb"), 1, b, 16, NULL, 0) != 0, "hwc_init(NULL ctx)");
    CHECKF(hwc_final(NULL, b, &n) != 0, "hwc_final(NULL ctx)");
    CHECKF(hwc_aad(NULL, b, 1) != 0, "hwc_aad(NULL ctx)");
    CHECKF(hwc_ctx_set_impl(NULL, "ct") != 0, "hwc_ctx_set_impl(NULL ctx)");
}

int main(void) {
    harness_selftest();
    names_and_strings();
    run_table();
    two_step_equals_one_step();
    oneshot_aead();
    bad_padding();
    key_wrap_errors();
    mac_errors();
#if SIZE_MAX <= 0xffffffffu
    test_skip("GCM/GCM-SIV/XTS/KW length limits", "size_t cannot express the lengths on this target");
#endif
    hwc_family fams[2] = {HWC_FAMILY_AES, HWC_FAMILY_SM4};
    for (int f = 0; f < 2; f++)
        test_each_impl(fams[f], impl_sample, &fams[f]);
    printf("test_bad_input: %lu error cases\n", ncases);
    return test_summary("test_bad_input");
}
