/*
 * hwcrypt speed: throughput in the shape of `openssl speed -evp`, for every
 * back end on the machine and for OpenSSL's libcrypto, in one run.
 *
 * Output compatibility with OpenSSL (what scripts read):
 *   stderr  "Doing NAME ops for Ns on N size blocks: " + "N NAME ops in N.NNs"
 *           (-mr: "+DT:NAME:secs:len" and "+R:count:NAME:time")
 *   stdout  version / compiler / CPUINFO lines, "The 'numbers' are in 1000s
 *           of bytes per second processed.", the `type` header, and one row
 *           per cipher: "%-13s" then " %11.2fk" per size (" %11.2f " below
 *           10000 bytes/s); -mr: "+H:16:64:..." and "+F:i:NAME:b/s:...".
 *
 * How a figure is made (see bench/README.md):
 *   - every row of one cipher (each back end with -compare, OpenSSL with
 *     -openssl) is measured in the same run, slice by slice, interleaved and
 *     in rotating order, so machine noise hits all rows alike;
 *   - each size gets a warm-up (which also calibrates how many operations run
 *     between two clock reads), then S >= 3 timed slices of seconds/S each;
 *     the figure is the median slice rate (summed over threads with -multi);
 *   - buffers are filled before the clock starts, outputs and tags are folded
 *     into a sink that is published at the end, so no work can be dropped;
 *   - timing is wall-clock (CLOCK_MONOTONIC) on threads pinned to one CPU each.
 *
 * One measured operation ("op") per buffer of `len` bytes:
 *   ECB/CBC/CFB/OFB/CTR, and GCM/OCB without -aead: hwc_update() on one long
 *     stream (padding off), as `openssl speed -evp` does;
 *   XTS: one data unit per buffer (hwc_init with a new tweak + hwc_update);
 *   CCM without -aead: one whole message (init, set_lengths, update, final),
 *     as OpenSSL's CCM loop does; SIV and GCM-SIV: one whole seal;
 *   -aead: one whole seal (or open, with -decrypt) per message, fresh nonce,
 *     13 bytes of AAD, 16-byte tag;
 *   CMAC/GMAC: the MAC of the buffer (GMAC with a fresh IV);
 *   key wrap: wrap (unwrap with -decrypt) of the buffer where the size is
 *     allowed.
 * Sizes an operation does not allow (XTS under 16 bytes, KW not a multiple of
 * 8) are skipped and print 0.00 like OpenSSL's unmeasured cells.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, sched_getcpu */

#include <errno.h>
#ifndef HWC_NO_THREADS
#include <pthread.h>
#else
/* The C library has no POSIX threads (rv32 picolibc): -multi accepts only 1,
 * and the one measuring thread runs in the caller. */
typedef int pthread_mutex_t, pthread_cond_t;
typedef void *pthread_t;
#define pthread_mutex_init(m, a) ((void)(m), (void)(a))
#define pthread_mutex_destroy(m) ((void)(m))
#define pthread_mutex_lock(m) ((void)(m))
#define pthread_mutex_unlock(m) ((void)(m))
#define pthread_cond_init(c, a) ((void)(c), (void)(a))
#define pthread_cond_destroy(c) ((void)(c))
#define pthread_cond_broadcast(c) ((void)(c))
#define pthread_cond_wait(c, m) ((void)(c), (void)(m))
#define pthread_create(th, a, fn, arg) ((void)(a), *(th) = (fn)(arg), 0)
#define pthread_join(th, r) ((void)(th), (void)(r))
#endif
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "peer_gcrypt.h"
#include "hwcrypt/hwcrypt.h"

#ifdef HWC_HAVE_OPENSSL
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#endif

#ifndef HWC_COMPILER
#define HWC_COMPILER "unknown"
#endif

#define MAX_SIZES 16
#define MAX_SLICES 101
#define MAX_BYTES (64u << 20)
#define AEAD_AAD_LEN 13 /* a TLS record header, as openssl speed -aead */
#define SLACK 128       /* room past the buffer: tags, wrap growth, held-back blocks */

static const size_t default_sizes[] = {16, 64, 256, 1024, 8192, 16384};
static const size_t aead_sizes[] = {2, 31, 136, 1024, 8192, 16384};

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

typedef struct opts {
    const char **names; /* ciphers asked for (-evp or positional) */
    size_t nnames;
    double seconds;
    size_t sizes[MAX_SIZES];
    size_t nsizes;
    int bytes_set;
    int decrypt, aead, mr, compare, openssl, gcrypt, elapsed;
    int misalign, multi, slices;
    const char *impl;
    enum fmt format;
} opts;

/* ---------------------------------------------------------------- helpers */

static volatile unsigned speed_sink; /* where consumed results end up */

static double now_sec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng_next(void) { /* splitmix64: data, keys and nonces need no secrecy here */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static void rng_fill(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rng_next() >> 56);
}

static void upper_copy(char *dst, size_t cap, const char *src) {
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (src[i] >= 'a' && src[i] <= 'z') ? (char)(src[i] - 'a' + 'A') : src[i];
    dst[i] = 0;
}

/* "3" for whole seconds, "0.25" otherwise. */
static const char *fmt_secs(double s, char *buf, size_t cap) {
    if (s == (double)(long)s)
        snprintf(buf, cap, "%ld", (long)s);
    else
        snprintf(buf, cap, "%g", s);
    return buf;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A barrier built from a mutex and a condition variable (portable). */
typedef struct barrier {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t n, waiting;
    unsigned long gen;
} barrier;

static void barrier_init(barrier *b, size_t n) {
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->n = n;
    b->waiting = 0;
    b->gen = 0;
}
static void barrier_destroy(barrier *b) {
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
}
static void barrier_wait(barrier *b) {
    if (b->n <= 1)
        return;
    pthread_mutex_lock(&b->mu);
    unsigned long gen = b->gen;
    if (++b->waiting == b->n) {
        b->waiting = 0;
        b->gen++;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (gen == b->gen)
            pthread_cond_wait(&b->cv, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
}

/* CPUs this process may run on, for pinning one thread to each. */
#if defined(__linux__)
static int cpu_list[1024];
#endif
static size_t cpu_count;

static void cpus_probe(void) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int cur = sched_getcpu();
        if (cur >= 0 && cur < CPU_SETSIZE && CPU_ISSET(cur, &set))
            cpu_list[cpu_count++] = cur; /* stay where we are for thread 0 */
        for (int i = 0; i < CPU_SETSIZE && cpu_count < sizeof cpu_list / sizeof cpu_list[0]; i++)
            if (CPU_ISSET(i, &set) && i != cur)
                cpu_list[cpu_count++] = i;
    }
#endif
}

static void pin_self(size_t t) {
#if defined(__linux__)
    if (!cpu_count)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu_list[t % cpu_count], &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort */
#else
    (void)t;
#endif
}

/* -------------------------------------------------------------- operations */

/* How one buffer is processed; chosen per cipher from its flags and mode. */
enum kind {
    K_STREAM, /* hwc_update on one long stream */
    K_XTS,    /* one data unit per buffer */
    K_CCM,    /* one whole CCM message through the streaming calls */
    K_SEAL,   /* one whole AEAD seal/open */
    K_MAC,    /* MAC of the buffer */
    K_WRAP    /* key wrap / unwrap of the buffer */
};

static enum kind kind_of(const hwc_cipher *c, int aead) {
    unsigned f = hwc_cipher_flags(c);
    if (f & HWC_CIPHER_MAC)
        return K_MAC;
    if (f & HWC_CIPHER_WRAP)
        return K_WRAP;
    if (aead || ((f & HWC_CIPHER_AEAD) && (f & HWC_CIPHER_ONE_SHOT)))
        return K_SEAL;
    if (f & HWC_CIPHER_ONE_SHOT)
        return K_XTS;
    if (hwc_cipher_mode(c) == HWC_MODE_CCM)
        return K_CCM;
    return K_STREAM;
}

enum rkind { R_HWC, R_OSSL, R_GCRY };

/* One measured row: a cipher on one back end (or OpenSSL). */
typedef struct row {
    char label[80];        /* "AES-128-GCM", "AES-128-GCM@aesni", "AES-128-GCM@openssl", "...@gcrypt" */
    const hwc_cipher *c;
    enum rkind rk;
    const char *impl;      /* back end forced (NULL: automatic) */
    char impl_used[32];    /* what the context ran on ("openssl", "gcrypt" for the peers) */
    char ghash_used[32];
    int baseline;          /* index of the row this one's ratio is over, -1: none */
    double rate[MAX_SIZES]; /* bytes per second; < 0: not measured */
    uint64_t ops[MAX_SIZES];
    double secs[MAX_SIZES];
    int error;             /* a real failure (not a skipped size) */
    int absent;            /* could not be set up here (e.g. OpenSSL lacks the cipher) */
} row;

/* One thread's state for one row. */
typedef struct worker {
    const hwc_cipher *c;
    enum kind kind;
    enum rkind rk;
    int enc;
    int (*op)(struct worker *);
    hwc_ctx *ctx;
    const char *impl;
    uint8_t *mem;
    uint8_t *in, *out, *ct;   /* buffers (misaligned as asked) */
    const uint8_t *src;       /* what an op reads */
    uint8_t *dst;             /* what an op writes */
    size_t len, src_len, cap; /* message bytes, bytes read (unwrap: len + 8..15), room */
    uint8_t key[64];
    size_t key_len;
    uint8_t iv[32];           /* IV / nonce; bumped per message where fresh */
    size_t iv_len;
    uint8_t tag[16];
    size_t tag_len;
    uint8_t aad[AEAD_AAD_LEN];
    size_t aad_len;
    uint8_t scratch[64];
    uint64_t msgno;
    int bits; /* CFB1 through hwc_update_bits */
    unsigned sink;
    size_t batch;
    int err;
#ifdef HWC_HAVE_OPENSSL
    EVP_CIPHER *ocipher;
    EVP_CIPHER_CTX *octx;
    EVP_MAC *omac;
    EVP_MAC_CTX *omctx;
    OSSL_PARAM oparams[3];
    char omac_cipher[32];
#endif
    gc_peer *gpeer; /* libgcrypt row */
    char oerr[160]; /* the peer's (OpenSSL's, libgcrypt's) last error message */
} worker;

static void bump_nonce(worker *w) {
    w->msgno++;
    for (size_t i = 0; i < w->iv_len && i < 8; i++)
        w->iv[w->iv_len - 1 - i] = (uint8_t)(w->msgno >> (8 * i));
}

/* --- hwcrypt */

static int h_restart(worker *w) {
    int rc = hwc_init(w->ctx, NULL, w->enc ? HWC_ENCRYPT : HWC_DECRYPT, NULL, 0, w->iv_len ? w->iv : NULL,
                      w->iv_len);
    if (!rc && (hwc_cipher_flags(w->c) & HWC_CIPHER_PADDING))
        rc = hwc_set_padding(w->ctx, 0);
    return rc;
}

static int h_stream_once(worker *w) {
    size_t n = 0;
    if (w->bits)
        return hwc_update_bits(w->ctx, w->dst, w->src, w->len * 8);
    return hwc_update(w->ctx, w->dst, &n, w->src, w->len);
}

static int h_stream(worker *w) {
    int rc = h_stream_once(w);
    if (rc) { /* e.g. the GCM counter ran out on a long run: a new message */
        rc = h_restart(w);
        if (!rc)
            rc = h_stream_once(w);
    }
    w->sink += w->dst[0];
    return rc;
}

static int h_xts(worker *w) {
    size_t n = 0;
    int rc = hwc_init(w->ctx, NULL, w->enc ? HWC_ENCRYPT : HWC_DECRYPT, NULL, 0, w->iv, w->iv_len);
    if (!rc)
        rc = hwc_update(w->ctx, w->dst, &n, w->src, w->len);
    w->sink += w->dst[0];
    return rc;
}

static int h_ccm(worker *w) {
    size_t n = 0, m = 0;
    if (w->enc)
        bump_nonce(w);
    int rc = hwc_init(w->ctx, NULL, w->enc ? HWC_ENCRYPT : HWC_DECRYPT, NULL, 0, w->iv, w->iv_len);
    if (!rc)
        rc = hwc_set_lengths(w->ctx, 0, w->len);
    if (!rc && !w->enc)
        rc = hwc_set_tag(w->ctx, w->tag, w->tag_len);
    if (!rc)
        rc = hwc_update(w->ctx, w->dst, &n, w->src, w->len);
    if (!rc)
        rc = hwc_final(w->ctx, w->scratch, &m);
    if (!rc && w->enc)
        rc = hwc_get_tag(w->ctx, w->tag, w->tag_len);
    w->sink += w->dst[0] + w->tag[0];
    return rc;
}

static int h_seal(worker *w) {
    int rc;
    if (w->enc) {
        bump_nonce(w);
        rc = hwc_aead_seal(w->ctx, w->iv_len ? w->iv : NULL, w->iv_len, w->aad_len ? w->aad : NULL, w->aad_len,
                           w->src, w->len, w->dst, w->tag, w->tag_len);
    } else {
        rc = hwc_aead_open(w->ctx, w->iv_len ? w->iv : NULL, w->iv_len, w->aad_len ? w->aad : NULL, w->aad_len,
                           w->src, w->len, w->dst, w->tag, w->tag_len);
    }
    w->sink += w->dst[0] + w->tag[0];
    return rc;
}

static int h_mac(worker *w) {
    if (w->iv_len)
        bump_nonce(w);
    int rc = hwc_init(w->ctx, NULL, HWC_ENCRYPT, NULL, 0, w->iv_len ? w->iv : NULL, w->iv_len);
    if (!rc)
        rc = hwc_aad(w->ctx, w->src, w->len);
    if (!rc)
        rc = hwc_mac_final(w->ctx, w->tag, w->tag_len);
    w->sink += w->tag[0];
    return rc;
}

static int h_wrap(worker *w) {
    size_t n = 0;
    int rc = w->enc ? hwc_ctx_key_wrap(w->ctx, w->src, w->src_len, w->dst, w->cap, &n)
                    : hwc_ctx_key_unwrap(w->ctx, w->src, w->src_len, w->dst, w->cap, &n);
    w->sink += w->dst[0];
    return rc;
}

/* Context, key and first IV for an hwcrypt row. */
static int h_setup(worker *w, const char **why) {
    int rc;
    w->ctx = hwc_ctx_new();
    if (!w->ctx)
        return HWC_ERR_NO_MEM;
    if (w->impl && (rc = hwc_ctx_set_impl(w->ctx, w->impl))) {
        *why = hwc_strerror(rc);
        return rc;
    }
    int dir = w->enc || w->kind == K_MAC ? HWC_ENCRYPT : HWC_DECRYPT;
    rc = hwc_init(w->ctx, w->c, dir, w->key, w->key_len, w->iv_len ? w->iv : NULL, w->iv_len);
    if (rc == HWC_ERR_IV_LEN && w->kind == K_SEAL && hwc_cipher_iv_len(w->c) == 0) {
        w->iv_len = 0; /* SIV without a nonce component */
        rc = hwc_init(w->ctx, w->c, dir, w->key, w->key_len, NULL, 0);
    }
    if (!rc && (hwc_cipher_flags(w->c) & HWC_CIPHER_PADDING))
        rc = hwc_set_padding(w->ctx, 0);
    if (!rc && w->kind == K_STREAM && hwc_cipher_mode(w->c) == HWC_MODE_CFB1) {
        size_t n = 0; /* CFB1 by whole bytes if the library takes them, else by bits */
        if (hwc_update(w->ctx, w->out, &n, w->in, 1) == HWC_ERR_UNSUPPORTED)
            w->bits = 1;
    }
    if (rc) {
        *why = hwc_strerror(rc);
        return rc;
    }
    w->op = w->kind == K_STREAM ? h_stream
            : w->kind == K_XTS  ? h_xts
            : w->kind == K_CCM  ? h_ccm
            : w->kind == K_SEAL ? h_seal
            : w->kind == K_MAC  ? h_mac
                                : h_wrap;
    return 0;
}

/* Authentic input for the decrypting ops, made by a separate context. */
static int h_precompute(worker *w) {
    int rc;
    if (w->kind == K_WRAP) {
        size_t n = 0;
        rc = hwc_key_wrap(w->c, w->key, w->key_len, w->in, w->len, w->ct, w->cap, &n);
        w->src_len = n;
        return rc;
    }
    hwc_ctx *t = hwc_ctx_new();
    if (!t)
        return HWC_ERR_NO_MEM;
    rc = w->impl ? hwc_ctx_set_impl(t, w->impl) : 0;
    if (!rc)
        rc = hwc_init(t, w->c, HWC_ENCRYPT, w->key, w->key_len, w->iv_len ? w->iv : NULL, w->iv_len);
    if (!rc)
        rc = hwc_aead_seal(t, w->iv_len ? w->iv : NULL, w->iv_len, w->aad_len ? w->aad : NULL, w->aad_len, w->in,
                           w->len, w->ct, w->tag, w->tag_len);
    hwc_ctx_free(t);
    return rc;
}

/* --- OpenSSL */

#ifdef HWC_HAVE_OPENSSL
/* Keeps what OpenSSL said (for "error!" lines) and clears its error queue. */
static int o_err(worker *w) {
    unsigned long e = ERR_peek_last_error();
    if (e)
        ERR_error_string_n(e, w->oerr, sizeof w->oerr);
    else
        snprintf(w->oerr, sizeof w->oerr, "OpenSSL call failed");
    ERR_clear_error();
    return HWC_ERR_UNSUPPORTED;
}

static int o_stream_once(worker *w) {
    int n = 0;
    return EVP_CipherUpdate(w->octx, w->dst, &n, w->src, (int)w->len) == 1 ? 0 : -1;
}

static int o_stream(worker *w) {
    int rc = o_stream_once(w);
    if (rc) { /* as h_stream: a new message when a stream limit is hit */
        ERR_clear_error();
        if (EVP_CipherInit_ex(w->octx, NULL, NULL, NULL, w->iv_len ? w->iv : NULL, -1) != 1)
            return o_err(w);
        rc = o_stream_once(w);
    }
    w->sink += w->dst[0];
    return rc ? o_err(w) : 0;
}

/* OpenSSL's XTS takes one data unit per EVP_CipherUpdate, the tweak being
 * encrypted each time from the IV kept in the context: the same work as
 * h_xts (which sets the tweak explicitly per unit). */
static int o_xts(worker *w) {
    int rc = o_stream_once(w);
    w->sink += w->dst[0];
    return rc ? o_err(w) : 0;
}

/* One whole AEAD message, in the order OpenSSL's own speed loops use. */
static int o_aead_msg(worker *w, EVP_CIPHER_CTX *x, int enc, const uint8_t *src, uint8_t *dst) {
    int n = 0, mode = EVP_CIPHER_get_mode(w->ocipher);
    int siv = mode == EVP_CIPH_SIV_MODE;
    if (EVP_CipherInit_ex(x, NULL, NULL, NULL, siv || !w->iv_len ? NULL : w->iv, -1) != 1)
        return -1;
    if (!enc && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)w->tag_len, w->tag) != 1)
        return -1;
    if (mode == EVP_CIPH_CCM_MODE && EVP_CipherUpdate(x, NULL, &n, NULL, (int)w->len) != 1)
        return -1;
    if (w->aad_len && EVP_CipherUpdate(x, NULL, &n, w->aad, (int)w->aad_len) != 1)
        return -1;
    if (siv && w->iv_len && EVP_CipherUpdate(x, NULL, &n, w->iv, (int)w->iv_len) != 1)
        return -1; /* RFC 5297: the nonce is the last AD component */
    if (EVP_CipherUpdate(x, dst, &n, src, (int)w->len) != 1)
        return -1;
    int m = 0; /* OCB releases its last partial block here */
    if (EVP_CipherFinal_ex(x, dst + n, &m) != 1)
        return -1;
    if (enc && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)w->tag_len, w->tag) != 1)
        return -1;
    return 0;
}

static int o_aead(worker *w) {
    if (w->enc)
        bump_nonce(w);
    int rc = o_aead_msg(w, w->octx, w->enc, w->src, w->dst);
    w->sink += w->dst[0] + w->tag[0];
    return rc ? o_err(w) : 0;
}

static int o_mac(worker *w) {
    size_t n = 0;
    if (w->iv_len)
        bump_nonce(w); /* oparams[0] points at w->iv */
    int ok = EVP_MAC_init(w->omctx, NULL, 0, w->iv_len ? w->oparams : NULL) == 1 &&
             EVP_MAC_update(w->omctx, w->src, w->len) == 1 &&
             EVP_MAC_final(w->omctx, w->tag, &n, sizeof w->tag) == 1;
    w->sink += w->tag[0];
    return ok ? 0 : o_err(w);
}

static int o_wrap(worker *w) {
    int n = 0;
    int ok = EVP_CipherUpdate(w->octx, w->dst, &n, w->src, (int)w->src_len) == 1 && n > 0;
    w->sink += w->dst[0];
    return ok ? 0 : o_err(w);
}

/* OpenSSL's name for the cipher; for MACs the cipher the MAC runs on. */
static void o_names(const hwc_cipher *c, char *name, size_t cap, char *mac_cipher, size_t mcap) {
    const char *n = hwc_cipher_name(c);
    mac_cipher[0] = 0;
    if (hwc_cipher_flags(c) & HWC_CIPHER_MAC) {
        int gmac = hwc_cipher_mode(c) == HWC_MODE_GMAC;
        upper_copy(name, cap, gmac ? "GMAC" : "CMAC");
        if (hwc_cipher_family(c) == HWC_FAMILY_SM4)
            snprintf(mac_cipher, mcap, "SM4-%s", gmac ? "GCM" : "CBC");
        else
            snprintf(mac_cipher, mcap, "AES-%zu-%s", hwc_cipher_key_len(c) * 8, gmac ? "GCM" : "CBC");
        return;
    }
    if (hwc_cipher_flags(c) & HWC_CIPHER_XTS_GB)
        n = "sm4-xts"; /* with xts_standard=GB below */
    upper_copy(name, cap, n);
}

/* An EVP cipher context keyed for this worker, in direction enc. */
static EVP_CIPHER_CTX *o_cipher_ctx(worker *w, int enc) {
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    if (!x)
        return NULL;
    int mode = EVP_CIPHER_get_mode(w->ocipher);
    int aead = (EVP_CIPHER_get_flags(w->ocipher) & EVP_CIPH_FLAG_AEAD_CIPHER) != 0;
    EVP_CIPHER_CTX_set_flags(x, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
    if (EVP_CipherInit_ex(x, w->ocipher, NULL, NULL, NULL, enc) != 1)
        goto fail;
    if (aead && mode != EVP_CIPH_SIV_MODE && w->iv_len &&
        EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)w->iv_len, NULL) != 1)
        goto fail;
    if ((mode == EVP_CIPH_CCM_MODE || mode == EVP_CIPH_OCB_MODE) &&
        EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)w->tag_len, NULL) != 1)
        goto fail;
    if (hwc_cipher_flags(w->c) & HWC_CIPHER_XTS_GB) {
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string("xts_standard", (char *)"GB", 0),
                           OSSL_PARAM_construct_end()};
        if (EVP_CIPHER_CTX_set_params(x, p) != 1)
            goto fail;
    }
    const uint8_t *iv = mode == EVP_CIPH_SIV_MODE || !w->iv_len ? NULL : w->iv;
    if (EVP_CipherInit_ex(x, NULL, NULL, w->key, iv, enc) != 1)
        goto fail;
    /* OpenSSL's SIV does one message per key setup unless told otherwise
     * (its own speed command does the same). */
    if (mode == EVP_CIPH_SIV_MODE && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_SET_SPEED, 1, NULL) != 1)
        goto fail;
    EVP_CIPHER_CTX_set_padding(x, 0);
    return x;
fail:
    EVP_CIPHER_CTX_free(x);
    return NULL;
}

static int o_setup(worker *w, const char **why) {
    static char msg[160];
    char name[64];
    o_names(w->c, name, sizeof name, w->omac_cipher, sizeof w->omac_cipher);
    if (w->kind == K_MAC) {
        w->omac = EVP_MAC_fetch(NULL, name, NULL);
        if (w->omac)
            w->omctx = EVP_MAC_CTX_new(w->omac);
        size_t np = 0;
        w->oparams[np++] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, w->omac_cipher, 0);
        w->oparams[np] = OSSL_PARAM_construct_end();
        if (!w->omctx || EVP_MAC_CTX_set_params(w->omctx, w->oparams) != 1) {
            snprintf(msg, sizeof msg, "%s has no %s over %s", OpenSSL_version(OPENSSL_VERSION), name,
                     w->omac_cipher);
            *why = msg;
            return o_err(w);
        }
        /* Per message only the IV changes (GMAC). */
        w->oparams[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_IV, w->iv, w->iv_len);
        w->oparams[1] = OSSL_PARAM_construct_end();
        if (EVP_MAC_init(w->omctx, w->key, w->key_len, w->iv_len ? w->oparams : NULL) != 1) {
            snprintf(msg, sizeof msg, "%s: %s over %s refused the key", OpenSSL_version(OPENSSL_VERSION), name,
                     w->omac_cipher);
            *why = msg;
            return o_err(w);
        }
        w->op = o_mac;
        return 0;
    }
    w->ocipher = EVP_CIPHER_fetch(NULL, name, NULL);
    if (!w->ocipher) {
        snprintf(msg, sizeof msg, "%s has no %s", OpenSSL_version(OPENSSL_VERSION), name);
        *why = msg;
        return o_err(w);
    }
    if (EVP_CIPHER_get_mode(w->ocipher) == EVP_CIPH_SIV_MODE && !w->enc) {
        /* With EVP_CTRL_SET_SPEED a context seals many messages, but its S2V
         * state carries over, so only the first open would verify; a new key
         * setup per message would measure allocation, not SIV. */
        snprintf(msg, sizeof msg, "OpenSSL's %s opens one message per key setup: not measured with -decrypt", name);
        *why = msg;
        return HWC_ERR_UNSUPPORTED;
    }
    if ((size_t)EVP_CIPHER_get_key_length(w->ocipher) != w->key_len) {
        snprintf(msg, sizeof msg, "OpenSSL's %s takes a %d-byte key, not %zu", name,
                 EVP_CIPHER_get_key_length(w->ocipher), w->key_len);
        *why = msg;
        return o_err(w);
    }
    w->octx = o_cipher_ctx(w, w->enc);
    if (!w->octx) {
        snprintf(msg, sizeof msg, "%s: %s would not set up (%s)", OpenSSL_version(OPENSSL_VERSION), name,
                 (hwc_cipher_flags(w->c) & HWC_CIPHER_XTS_GB) ? "no GB/T XTS" : "key or IV refused");
        *why = msg;
        return o_err(w);
    }
    w->op = w->kind == K_STREAM ? o_stream
            : w->kind == K_XTS  ? o_xts
            : w->kind == K_WRAP ? o_wrap
                                : o_aead; /* K_CCM, K_SEAL */
    return 0;
}

static int o_precompute(worker *w) {
    if (w->kind == K_WRAP) {
        EVP_CIPHER_CTX *x = o_cipher_ctx(w, 1);
        int n = 0, ok = x && EVP_CipherUpdate(x, w->ct, &n, w->in, (int)w->len) == 1 && n > 0;
        EVP_CIPHER_CTX_free(x);
        w->src_len = (size_t)n;
        return ok ? 0 : o_err(w);
    }
    EVP_CIPHER_CTX *x = o_cipher_ctx(w, 1);
    int rc = x ? o_aead_msg(w, x, 1, w->in, w->ct) : -1;
    EVP_CIPHER_CTX_free(x);
    return rc ? o_err(w) : 0;
}
#endif /* HWC_HAVE_OPENSSL */

/* --- libgcrypt (loaded at run time, peer_gcrypt.c) */

static int g_err(worker *w) {
    snprintf(w->oerr, sizeof w->oerr, "libgcrypt: %s", gc_error(w->gpeer));
    return HWC_ERR_UNSUPPORTED;
}

static int g_stream(worker *w) {
    int rc = gc_stream(w->gpeer, w->dst, w->src, w->len);
    w->sink += w->dst[0];
    return rc ? g_err(w) : 0;
}

static int g_xts(worker *w) {
    int rc = gc_unit(w->gpeer, w->iv, w->dst, w->src, w->len);
    w->sink += w->dst[0];
    return rc ? g_err(w) : 0;
}

/* CCM (aad_len 0 without -aead) and whole AEAD messages. */
static int g_aead(worker *w) {
    if (w->enc)
        bump_nonce(w);
    int rc = gc_aead(w->gpeer, w->iv, w->aad, w->aad_len, w->dst, w->src, w->len, w->tag);
    w->sink += w->dst[0] + w->tag[0];
    return rc ? g_err(w) : 0;
}

static int g_mac(worker *w) {
    if (w->iv_len)
        bump_nonce(w);
    int rc = gc_mac(w->gpeer, w->iv, w->src, w->len, w->tag);
    w->sink += w->tag[0];
    return rc ? g_err(w) : 0;
}

static int g_setup(worker *w, const char **why) {
    static const enum gc_op op_of[] = {[K_STREAM] = GC_STREAM, [K_XTS] = GC_UNIT, [K_CCM] = GC_AEAD,
                                       [K_SEAL] = GC_AEAD,     [K_MAC] = GC_MAC};
    static char msg[160];
    if (w->kind == K_WRAP || (w->kind == K_SEAL && (hwc_cipher_mode(w->c) == HWC_MODE_SIV ||
                                                    hwc_cipher_mode(w->c) == HWC_MODE_GCM_SIV))) {
        snprintf(msg, sizeof msg, "%s not measured against libgcrypt", hwc_cipher_name(w->c));
        *why = msg;
        return HWC_ERR_UNSUPPORTED;
    }
    int enc = w->enc || w->kind == K_MAC;
    w->gpeer = gc_open(w->c, op_of[w->kind], enc, w->key, w->key_len, w->iv, w->iv_len, w->tag_len, why);
    if (!w->gpeer)
        return HWC_ERR_UNSUPPORTED;
    w->op = w->kind == K_STREAM ? g_stream : w->kind == K_XTS ? g_xts : w->kind == K_MAC ? g_mac : g_aead;
    return 0;
}

/* --- common to all */

static int open_worker(worker *w, const row *r, const opts *o, const char **why) {
    memset(w, 0, sizeof *w);
    *why = NULL;
    w->c = r->c;
    w->rk = r->rk;
    w->impl = r->impl;
    w->kind = kind_of(r->c, o->aead);
    w->enc = !o->decrypt;
    size_t max = 0;
    for (size_t i = 0; i < o->nsizes; i++)
        max = o->sizes[i] > max ? o->sizes[i] : max;
    w->cap = max + SLACK;
    size_t stride = (w->cap + 64 + 63) & ~(size_t)63;
    w->mem = aligned_alloc(64, 3 * stride);
    if (!w->mem) {
        *why = "out of memory";
        return HWC_ERR_NO_MEM;
    }
    /* Touch everything before any clock starts. */
    rng_fill(w->mem, 3 * stride);
    w->in = w->mem + o->misalign;
    w->out = w->mem + stride + o->misalign;
    w->ct = w->mem + 2 * stride + o->misalign;
    w->key_len = hwc_cipher_key_len(w->c);
    rng_fill(w->key, w->key_len);
    w->iv_len = hwc_cipher_iv_len(w->c);
    if (w->kind == K_SEAL && hwc_cipher_mode(w->c) == HWC_MODE_SIV && w->iv_len == 0)
        w->iv_len = 16; /* SIV: a 16-byte nonce component, dropped if refused */
    rng_fill(w->iv, sizeof w->iv);
    w->tag_len = hwc_cipher_tag_len(w->c) ? hwc_cipher_tag_len(w->c) : 16;
    if (o->aead) {
        w->aad_len = AEAD_AAD_LEN;
        rng_fill(w->aad, w->aad_len);
    }
    int rc;
    if (w->rk == R_GCRY)
        rc = g_setup(w, why);
    else
#ifdef HWC_HAVE_OPENSSL
        rc = w->rk == R_OSSL ? o_setup(w, why) : h_setup(w, why);
#else
        rc = h_setup(w, why);
#endif
    if (rc && !*why)
        *why = hwc_strerror(rc);
    return rc;
}

static void close_worker(worker *w) {
    hwc_ctx_free(w->ctx);
    gc_close(w->gpeer);
    w->gpeer = NULL;
#ifdef HWC_HAVE_OPENSSL
    EVP_CIPHER_CTX_free(w->octx);
    EVP_CIPHER_free(w->ocipher);
    EVP_MAC_CTX_free(w->omctx);
    EVP_MAC_free(w->omac);
#endif
    speed_sink += w->sink;
    free(w->mem);
    w->ctx = NULL;
    w->mem = NULL;
}

/* Gets a worker ready for buffers of len bytes and runs one op to check the
 * size is allowed.  0: ready; 1: this size is not allowed (skip); < 0: error. */
static int prepare_size(worker *w, size_t len, const char **why) {
    w->len = len;
    w->src_len = len;
    w->err = 0;
    w->oerr[0] = 0;
    int authenticated = w->kind == K_CCM || w->kind == K_SEAL || w->kind == K_WRAP;
    if (!w->enc && authenticated) {
        int rc;
        /* libgcrypt's rows open what hwcrypt sealed (the same bytes). */
#ifdef HWC_HAVE_OPENSSL
        rc = w->rk == R_OSSL ? o_precompute(w) : h_precompute(w);
#else
        rc = h_precompute(w);
#endif
        if (rc) {
            *why = w->rk == R_OSSL && w->oerr[0] ? w->oerr
                   : rc == HWC_ERR_DATA_LEN || rc == HWC_ERR_UNSUPPORTED ? "size not allowed"
                                                                          : hwc_strerror(rc);
            return rc == HWC_ERR_DATA_LEN || rc == HWC_ERR_UNSUPPORTED ? 1 : rc;
        }
        w->src = w->ct;
        w->dst = w->out;
    } else if (w->kind == K_WRAP) {
        w->src = w->in;
        w->dst = w->out;
    } else {
        w->src = w->in; /* in place, as openssl speed does */
        w->dst = w->in;
    }
    int rc = w->op(w);
    if (rc == HWC_ERR_DATA_LEN || rc == HWC_ERR_UNSUPPORTED) {
        *why = w->rk != R_HWC && w->oerr[0] ? w->oerr
               : rc == HWC_ERR_DATA_LEN      ? "size not allowed"
                                             : hwc_strerror(rc);
        return 1;
    }
    if (rc) {
        *why = hwc_strerror(rc);
        return rc;
    }
    return 0;
}

/* --------------------------------------------------------------- measuring */

typedef struct measure {
    worker *w;          /* [row * nthreads + t] */
    const int *active;  /* [row] */
    size_t nrows, nthreads, nslices;
    double slice_sec, warm_sec, check_sec;
    double *rate;       /* [(row * nthreads + t) * nslices + s] */
    double *busy;       /* [row * nthreads + t] */
    uint64_t *ops;      /* [row * nthreads + t] */
    barrier bar;
} measure;

typedef struct thread_arg {
    measure *m;
    size_t t;
} thread_arg;

/* Runs the op for at least `sec` seconds, reading the clock every batch. */
static void run_for(worker *w, double sec, uint64_t *nops, double *elapsed) {
    size_t b = w->batch ? w->batch : 1;
    uint64_t n = 0;
    double t0 = now_sec(), t;
    do {
        for (size_t i = 0; i < b; i++) {
            int rc = w->op(w);
            if (rc) {
                w->err = rc;
                break;
            }
        }
        n += b;
        t = now_sec();
    } while (t - t0 < sec && !w->err);
    *nops = n;
    *elapsed = t - t0;
}

/* Warm-up: caches, branch predictors, clock frequency; and find how many
 * ops take about check_sec, so reading the clock costs nothing measurable. */
static void warm_up(worker *w, double warm_sec, double check_sec) {
    double start = now_sec();
    size_t b = 1;
    for (;;) {
        double a = now_sec();
        for (size_t i = 0; i < b && !w->err; i++) {
            int rc = w->op(w);
            if (rc)
                w->err = rc;
        }
        double e = now_sec() - a;
        if (w->err)
            return;
        if (e >= check_sec / 4 || b >= ((size_t)1 << 28) || now_sec() - start > warm_sec) {
            double per_op = e / (double)b;
            double want = per_op > 0 ? check_sec / per_op : (double)b;
            w->batch = want < 1 ? 1 : want > (double)((size_t)1 << 28) ? ((size_t)1 << 28) : (size_t)want;
            break;
        }
        b *= 2;
    }
    double left = warm_sec - (now_sec() - start);
    if (left > 0) {
        uint64_t n;
        double e;
        run_for(w, left, &n, &e);
    }
}

static void *measure_thread(void *p) {
    thread_arg *a = p;
    measure *m = a->m;
    size_t t = a->t;
    pin_self(t);
    for (size_t r = 0; r < m->nrows; r++)
        if (m->active[r])
            warm_up(&m->w[r * m->nthreads + t], m->warm_sec, m->check_sec);
    for (size_t s = 0; s < m->nslices; s++) {
        for (size_t k = 0; k < m->nrows; k++) {
            size_t r = (k + s) % m->nrows; /* rotate who goes first */
            if (!m->active[r])
                continue;
            barrier_wait(&m->bar); /* all threads on the same row at once */
            size_t i = r * m->nthreads + t;
            worker *w = &m->w[i];
            if (w->err) {
                m->rate[i * m->nslices + s] = 0;
                continue;
            }
            uint64_t n;
            double e;
            run_for(w, m->slice_sec, &n, &e);
            m->rate[i * m->nslices + s] = e > 0 ? (double)n * (double)w->len / e : 0;
            m->ops[i] += n;
            m->busy[i] += e;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------ rows */

static row *rows;
static size_t nrows_total, rows_cap;
static int any_error;

static row *add_row(void) {
    if (nrows_total == rows_cap) {
        size_t cap = rows_cap ? 2 * rows_cap : 16;
        row *n = realloc(rows, cap * sizeof *n);
        if (!n) {
            fprintf(stderr, "speed: out of memory\n");
            exit(1);
        }
        rows = n;
        rows_cap = cap;
    }
    row *r = &rows[nrows_total++];
    memset(r, 0, sizeof *r);
    r->baseline = -1;
    for (size_t i = 0; i < MAX_SIZES; i++)
        r->rate[i] = -1;
    return r;
}

static void progress_doing(const opts *o, const char *label, size_t len) {
    char sb[32];
    fmt_secs(o->seconds, sb, sizeof sb);
    if (o->mr)
        fprintf(stderr, "+DT:%s:%s:%zu\n", label, sb, len);
    else
        fprintf(stderr, "Doing %s ops for %ss on %zu size blocks: ", label, sb, len);
    fflush(stderr);
}

static void progress_result(const opts *o, const char *label, uint64_t ops, double secs) {
    if (o->mr)
        fprintf(stderr, "+R:%llu:%s:%f\n", (unsigned long long)ops, label, secs);
    else
        fprintf(stderr, "%llu %s ops in %.2fs\n", (unsigned long long)ops, label, secs);
}

/* Measures the rows [first, first + n) of one cipher together. */
static void measure_group(const opts *o, size_t first, size_t n) {
    size_t T = (size_t)o->multi;
    worker *w = calloc(n * T, sizeof *w);
    int *ok = calloc(n, sizeof *ok);
    int *active = calloc(n, sizeof *active);
    double *rate = calloc(n * T * (size_t)o->slices, sizeof *rate);
    double *busy = calloc(n * T, sizeof *busy);
    uint64_t *ops = calloc(n * T, sizeof *ops);
    pthread_t *th = calloc(T, sizeof *th);
    thread_arg *ta = calloc(T, sizeof *ta);
    if (!w || !ok || !active || !rate || !busy || !ops || !th || !ta) {
        fprintf(stderr, "speed: out of memory\n");
        exit(1);
    }
    /* Contexts, keys and buffers, once per row and thread. */
    for (size_t r = 0; r < n; r++) {
        row *R = &rows[first + r];
        ok[r] = 1;
        for (size_t t = 0; t < T && ok[r]; t++) {
            const char *why = NULL;
            int rc = open_worker(&w[r * T + t], R, o, &why);
            if (rc) {
                ok[r] = 0;
                if (rc != HWC_ERR_UNSUPPORTED) {
                    R->error = 1;
                    any_error = 1;
                } else {
                    R->absent = 1;
                }
                fprintf(stderr, "speed: %s: %s\n", R->label, why ? why : hwc_strerror(rc));
            }
        }
        if (ok[r] && R->rk == R_HWC) {
            const char *im = hwc_ctx_impl(w[r * T].ctx), *gh = hwc_ctx_ghash_impl(w[r * T].ctx);
            snprintf(R->impl_used, sizeof R->impl_used, "%s", im ? im : "?");
            snprintf(R->ghash_used, sizeof R->ghash_used, "%s", gh ? gh : "");
        }
    }
    measure m;
    memset(&m, 0, sizeof m);
    m.w = w;
    m.active = active;
    m.nrows = n;
    m.nthreads = T;
    m.nslices = (size_t)o->slices;
    m.slice_sec = o->seconds / o->slices;
    m.warm_sec = o->seconds * 0.1 > 0.25 ? 0.25 : o->seconds * 0.1;
    if (m.warm_sec < 0.005)
        m.warm_sec = 0.005;
    m.check_sec = m.slice_sec / 64 > 1e-3 ? 1e-3 : m.slice_sec / 64;
    m.rate = rate;
    m.busy = busy;
    m.ops = ops;
    barrier_init(&m.bar, T);

    for (size_t si = 0; si < o->nsizes; si++) {
        size_t len = o->sizes[si];
        size_t nactive = 0;
        for (size_t r = 0; r < n; r++) {
            row *R = &rows[first + r];
            active[r] = 0;
            if (!ok[r])
                continue;
            int skip = 0;
            const char *why = NULL;
            for (size_t t = 0; t < T && !skip; t++) {
                int rc = prepare_size(&w[r * T + t], len, &why);
                if (rc)
                    skip = rc;
            }
            if (skip) {
                if (skip < 0) {
                    R->error = 1;
                    any_error = 1;
                    fprintf(stderr, "speed: %s on %zu size blocks: %s\n", R->label, len, why);
                } else if (!o->mr) {
                    progress_doing(o, R->label, len);
                    fprintf(stderr, "skipped (%s)\n", why);
                }
                continue;
            }
            active[r] = 1;
            nactive++;
        }
        if (!nactive)
            continue;
        size_t shown = n; /* the row whose "Doing ..." is already out */
        for (size_t r = 0; r < n; r++)
            if (active[r]) {
                progress_doing(o, rows[first + r].label, len);
                shown = r;
                break;
            }
        memset(rate, 0, n * T * (size_t)o->slices * sizeof *rate);
        memset(busy, 0, n * T * sizeof *busy);
        memset(ops, 0, n * T * sizeof *ops);
        int started = 0;
        for (size_t t = 0; t < T; t++) {
            ta[t].m = &m;
            ta[t].t = t;
            if (pthread_create(&th[t], NULL, measure_thread, &ta[t]) != 0) {
                fprintf(stderr, "speed: cannot start thread %zu: %s\n", t, strerror(errno));
                exit(1);
            }
            started++;
        }
        for (int t = 0; t < started; t++)
            pthread_join(th[t], NULL);

        for (size_t r = 0; r < n; r++) {
            if (!active[r])
                continue;
            row *R = &rows[first + r];
            double sums[MAX_SLICES];
            uint64_t tot = 0;
            double secs = 0;
            int err = 0;
            const char *err_msg = NULL;
            for (size_t s = 0; s < (size_t)o->slices; s++)
                sums[s] = 0;
            for (size_t t = 0; t < T; t++) {
                size_t i = r * T + t;
                for (size_t s = 0; s < (size_t)o->slices; s++)
                    sums[s] += rate[i * (size_t)o->slices + s];
                tot += ops[i];
                secs += busy[i];
                if (w[i].err) {
                    err = w[i].err;
                    err_msg = w[i].rk != R_HWC && w[i].oerr[0] ? w[i].oerr : hwc_strerror(err);
                }
            }
            if (r != shown)
                progress_doing(o, R->label, len);
            if (err) {
                fprintf(stderr, "%s error! (%s)\n", R->label, err_msg);
                R->error = 1;
                any_error = 1;
                continue;
            }
            progress_result(o, R->label, tot, secs / (double)T);
            R->rate[si] = median(sums, (size_t)o->slices);
            R->ops[si] = tot;
            R->secs[si] = secs / (double)T;
        }
    }
    barrier_destroy(&m.bar);
    for (size_t i = 0; i < n * T; i++)
        close_worker(&w[i]);
    free(w);
    free(ok);
    free(active);
    free(rate);
    free(busy);
    free(ops);
    free(th);
    free(ta);
}

/* ----------------------------------------------------------------- output */

static size_t largest_index(const opts *o) {
    size_t best = 0;
    for (size_t i = 1; i < o->nsizes; i++)
        if (o->sizes[i] >= o->sizes[best])
            best = i;
    return best;
}

/* Speed-up of a row over its baseline at the largest size; < 0 when none. */
static double ratio_of(const opts *o, const row *r) {
    if (r->baseline < 0)
        return -1;
    size_t li = largest_index(o);
    double base = rows[r->baseline].rate[li];
    return base > 0 && r->rate[li] >= 0 ? r->rate[li] / base : -1;
}

static const char *baseline_name(const opts *o) {
    return o->compare ? "ct" : o->openssl ? "openssl" : o->gcrypt ? "gcrypt" : NULL;
}

static void print_caps_line(const opts *o) {
    char caps[512], probed[512];
    hwc_caps_format(hwc_caps(), caps, sizeof caps);
    hwc_caps_format(hwc_caps_probed(), probed, sizeof probed);
    const char *a = hwc_impl_selected(HWC_FAMILY_AES), *s = hwc_impl_selected(HWC_FAMILY_SM4);
    const char *g = hwc_ghash_impl_selected();
    printf("CPUINFO: caps=%s", caps);
    if (strcmp(caps, probed) != 0)
        printf(" (probed %s; HWCRYPT_CAPS=%s)", probed, getenv("HWCRYPT_CAPS") ? getenv("HWCRYPT_CAPS") : "");
    if (o->compare)
        printf(" impl=compare (aes=%s sm4=%s ghash=%s selected by default)", a ? a : "none", s ? s : "none",
               g ? g : "none");
    else if (o->impl)
        printf(" impl=%s (forced)", o->impl);
    else
        printf(" impl=aes:%s,sm4:%s,ghash:%s", a ? a : "none", s ? s : "none", g ? g : "none");
    printf("\n");
}

static void print_text(const opts *o) {
    if (!o->mr) {
        printf("version: hwcrypt %s\n", hwc_version());
        printf("compiler: %s\n", HWC_COMPILER);
        printf("options: timing=wall-clock threads=%d slices=%d misalign=%d%s%s\n", o->multi, o->slices,
               o->misalign, o->decrypt ? " decrypt" : "", o->aead ? " aead" : "");
#ifdef HWC_HAVE_OPENSSL
        if (o->openssl)
            printf("openssl: %s\n", OpenSSL_version(OPENSSL_VERSION));
#endif
        if (o->gcrypt && gc_version())
            printf("gcrypt: %s\n", gc_version());
        print_caps_line(o);
    }
    const char *base = baseline_name(o);
    if (o->mr) {
        printf("+H");
        for (size_t i = 0; i < o->nsizes; i++)
            printf(":%zu", o->sizes[i]);
        printf("\n");
    } else {
        printf("The 'numbers' are in 1000s of bytes per second processed.\n");
        printf("type        ");
        for (size_t i = 0; i < o->nsizes; i++)
            printf("%7zu bytes", o->sizes[i]);
        if (base) {
            char h[32];
            snprintf(h, sizeof h, "vs %s", base);
            printf(" %10s", h);
        }
        printf("\n");
    }
    for (size_t k = 0; k < nrows_total; k++) {
        const row *r = &rows[k];
        if (o->mr)
            printf("+F:%zu:%s", k, r->label);
        else
            printf("%-13s", r->label);
        for (size_t i = 0; i < o->nsizes; i++) {
            double v = r->rate[i] < 0 ? 0 : r->rate[i];
            if (v > 10000 && !o->mr)
                printf(" %11.2fk", v / 1e3);
            else
                printf(o->mr ? ":%.2f" : " %11.2f ", v);
        }
        if (base && !o->mr) {
            double x = ratio_of(o, r);
            if (x < 0)
                printf(" %10s", "n/a");
            else
                printf(x >= 0.1 ? " %9.2fx" : " %9.3fx", x);
        }
        printf("\n");
    }
}

static void json_str(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}

static void print_csv(const opts *o) {
    printf("name,cipher,impl,op,bytes,ops,seconds,bytes_per_second,speedup\n");
    for (size_t k = 0; k < nrows_total; k++) {
        const row *r = &rows[k];
        double x = ratio_of(o, r);
        for (size_t i = 0; i < o->nsizes; i++) {
            printf("%s,%s,%s,%s,%zu,", r->label, hwc_cipher_name(r->c), r->impl_used, o->decrypt ? "decrypt" : "encrypt",
                   o->sizes[i]);
            if (r->rate[i] >= 0)
                printf("%llu,%.4f,%.2f,", (unsigned long long)r->ops[i], r->secs[i], r->rate[i]);
            else
                printf(",,,");
            if (x >= 0)
                printf("%.4f", x);
            printf("\n");
        }
    }
}

static void print_json(const opts *o) {
    char caps[512];
    hwc_caps_format(hwc_caps(), caps, sizeof caps);
    const char *base = baseline_name(o);
    printf("{\n  \"tool\": \"hwcrypt speed\",\n  \"version\": ");
    json_str(hwc_version());
    printf(",\n  \"compiler\": ");
    json_str(HWC_COMPILER);
    printf(",\n  \"openssl\": ");
#ifdef HWC_HAVE_OPENSSL
    if (o->openssl)
        json_str(OpenSSL_version(OPENSSL_VERSION));
    else
        printf("null");
#else
    printf("null");
#endif
    printf(",\n  \"gcrypt\": ");
    if (o->gcrypt && gc_version())
        json_str(gc_version());
    else
        printf("null");
    printf(",\n  \"caps\": ");
    json_str(caps);
    printf(",\n  \"seconds\": %g,\n  \"slices\": %d,\n  \"threads\": %d,\n  \"misalign\": %d,\n", o->seconds,
           o->slices, o->multi, o->misalign);
    printf("  \"op\": \"%s\",\n  \"aead\": %s,\n  \"unit\": \"bytes per second\",\n  \"baseline\": ",
           o->decrypt ? "decrypt" : "encrypt", o->aead ? "true" : "false");
    if (base)
        json_str(base);
    else
        printf("null");
    printf(",\n  \"sizes\": [");
    for (size_t i = 0; i < o->nsizes; i++)
        printf("%s%zu", i ? ", " : "", o->sizes[i]);
    printf("],\n  \"results\": [");
    for (size_t k = 0; k < nrows_total; k++) {
        const row *r = &rows[k];
        printf("%s\n    {\"name\": ", k ? "," : "");
        json_str(r->label);
        printf(", \"cipher\": ");
        json_str(hwc_cipher_name(r->c));
        printf(", \"impl\": ");
        json_str(r->impl_used);
        if (r->ghash_used[0]) {
            printf(", \"ghash\": ");
            json_str(r->ghash_used);
        }
        printf(",\n     \"bytes_per_second\": [");
        for (size_t i = 0; i < o->nsizes; i++) {
            if (r->rate[i] >= 0)
                printf("%s%.2f", i ? ", " : "", r->rate[i]);
            else
                printf("%snull", i ? ", " : "");
        }
        printf("],\n     \"ops\": [");
        for (size_t i = 0; i < o->nsizes; i++)
            printf("%s%llu", i ? ", " : "", (unsigned long long)r->ops[i]);
        printf("],\n     \"speedup\": ");
        double x = ratio_of(o, r);
        if (x >= 0)
            printf("%.4f", x);
        else
            printf("null");
        printf(", \"error\": %s}", r->error ? "true" : "false");
    }
    printf("\n  ]\n}\n");
}

/* ---------------------------------------------------------------- options */

static void usage(FILE *f) {
    fprintf(f,
            "usage: hwcrypt speed [options] [cipher...]\n"
            "Throughput of each cipher in the format of `openssl speed -evp`.\n"
            "\n"
            "OpenSSL-compatible options:\n"
            "  -evp NAME      cipher to measure (repeatable; OpenSSL spellings, any case:\n"
            "                 aes-128-gcm, AES-256-XTS, sm4-ctr, id-aes128-wrap ...);\n"
            "                 bare cipher names work too. Default: every cipher.\n"
            "  -seconds N     time per size and row (default 3; fractions allowed, e.g. 0.2)\n"
            "  -bytes N       measure this one buffer size instead of 16 64 256 1024 8192 16384\n"
            "  -elapsed       accepted for compatibility: timing is always wall-clock\n"
            "  -decrypt       decrypt instead of encrypt (unwrap for key wrap)\n"
            "  -aead          AEAD messages: sizes 2 31 136 1024 8192 16384, one whole seal\n"
            "                 (open with -decrypt) per message, fresh nonce, 13-byte AAD\n"
            "  -misalign N    offset input and output buffers by N bytes (0..63)\n"
            "  -mr            machine-readable output (+DT/+R on stderr, +H/+F on stdout)\n"
            "  -multi N       N threads, each with its own contexts; figures are the sum\n"
            "\n"
            "hwcrypt options:\n"
            "  -impl NAME     force a back end (see `hwcrypt list`)\n"
            "  -compare       one row per available back end (NAME@impl), plus a column\n"
            "                 of speed-up over the portable 'ct' back end at the largest size\n"
            "  -openssl       also measure OpenSSL's EVP in the same run (NAME@openssl),\n"
            "                 interleaved with hwcrypt's measurements\n"
            "  -gcrypt        also measure libgcrypt (NAME@gcrypt; loaded at run time from\n"
            "                 libgcrypt.so.20 where installed) in the same way\n"
            "  -peers         -openssl and -gcrypt: every peer library found here\n"
            "  -format F      text (default), csv or json\n"
            "  -slices N      timed slices per size, the median is reported (default 5, >= 3)\n"
            "  -h, -help      this help\n"
            "\n"
            "Figures are the median of the slices' rates after a warm-up, on threads pinned\n"
            "to one CPU each. See bench/README.md for reading the ratios.\n");
}

static int parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v > 0) || v > 86400)
        return -1;
    *out = v;
    return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int bad_value(const char *opt, const char *val, const char *want) {
    fprintf(stderr, "speed: bad value '%s' for %s (want %s)\n", val ? val : "", opt, want);
    fprintf(stderr, "Use -help for summary.\n");
    return 1;
}

/* Accepts "-opt" and "--opt". */
static int is_opt(const char *arg, const char *name) {
    if (arg[0] == '-' && arg[1] == '-')
        arg++;
    return strcmp(arg, name) == 0;
}

static int parse_opts(int argc, char **argv, opts *o, int *done) {
    *done = 0;
    memset(o, 0, sizeof *o);
    o->seconds = 3;
    o->multi = 1;
    o->slices = 5;
    o->names = calloc((size_t)argc + 1, sizeof *o->names);
    if (!o->names)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long l;
        if (is_opt(a, "-h") || is_opt(a, "-help")) {
            usage(stdout);
            *done = 1;
            return 0;
        } else if (is_opt(a, "-evp")) {
            if (!v)
                return bad_value(a, v, "a cipher name");
            o->names[o->nnames++] = v;
            i++;
        } else if (is_opt(a, "-seconds")) {
            if (!v || parse_double(v, &o->seconds))
                return bad_value(a, v, "a number of seconds > 0, e.g. 3 or 0.2");
            i++;
        } else if (is_opt(a, "-bytes")) {
            if (!v || parse_long(v, 1, MAX_BYTES, &l))
                return bad_value(a, v, "a size from 1 to 67108864");
            o->sizes[0] = (size_t)l;
            o->nsizes = 1;
            o->bytes_set = 1;
            i++;
        } else if (is_opt(a, "-misalign")) {
            if (!v || parse_long(v, 0, 63, &l))
                return bad_value(a, v, "0..63");
            o->misalign = (int)l;
            i++;
        } else if (is_opt(a, "-multi")) {
#ifdef HWC_NO_THREADS
            if (!v || parse_long(v, 1, 1, &l))
                return bad_value(a, v, "1 (this build has no threads)");
#else
            if (!v || parse_long(v, 1, 1024, &l))
                return bad_value(a, v, "a thread count from 1 to 1024");
#endif
            o->multi = (int)l;
            i++;
        } else if (is_opt(a, "-slices")) {
            if (!v || parse_long(v, 3, MAX_SLICES, &l))
                return bad_value(a, v, "3..101");
            o->slices = (int)l;
            i++;
        } else if (is_opt(a, "-impl")) {
            if (!v)
                return bad_value(a, v, "a back-end name");
            o->impl = v;
            i++;
        } else if (is_opt(a, "-format")) {
            if (v && !strcmp(v, "csv"))
                o->format = FMT_CSV;
            else if (v && !strcmp(v, "json"))
                o->format = FMT_JSON;
            else if (v && !strcmp(v, "text"))
                o->format = FMT_TEXT;
            else
                return bad_value(a, v, "text, csv or json");
            i++;
        } else if (is_opt(a, "-elapsed")) {
            o->elapsed = 1;
        } else if (is_opt(a, "-decrypt")) {
            o->decrypt = 1;
        } else if (is_opt(a, "-aead")) {
            o->aead = 1;
        } else if (is_opt(a, "-mr")) {
            o->mr = 1;
        } else if (is_opt(a, "-compare")) {
            o->compare = 1;
        } else if (is_opt(a, "-openssl")) {
            o->openssl = 1;
        } else if (is_opt(a, "-gcrypt")) {
            o->gcrypt = 1;
        } else if (is_opt(a, "-peers")) {
            o->openssl = o->gcrypt = 1;
        } else if (a[0] == '-') {
            fprintf(stderr, "speed: unknown option '%s'\nUse -help for summary.\n", a);
            return 1;
        } else {
            o->names[o->nnames++] = a; /* `openssl speed aes-128-cbc` */
        }
    }
    if (!o->bytes_set) {
        const size_t *s = o->aead ? aead_sizes : default_sizes;
        o->nsizes = 6;
        memcpy(o->sizes, s, 6 * sizeof *s);
    }
    return 0;
}

/* A back end of this family named `name`: 1 available, 0 unavailable (why
 * set), -1 no such back end for the family. */
static int impl_for_family(const char *name, hwc_family fam, const char **why) {
    int found = -1;
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        if (hwc_impl_is_ghash(i) || hwc_impl_family(i) != fam || strcmp(hwc_impl_name(i), name) != 0)
            continue;
        const char *w = NULL;
        if (hwc_impl_available(i, &w))
            return 1;
        found = 0;
        *why = w;
    }
    return found;
}

static void list_impls(FILE *f) {
    fprintf(f, "back ends:");
    for (size_t i = 0; i < hwc_impl_count(); i++) {
        if (hwc_impl_is_ghash(i))
            continue;
        const char *why = NULL;
        int ok = hwc_impl_available(i, &why);
        fprintf(f, " %s(%s%s)", hwc_impl_name(i), hwc_impl_family(i) == HWC_FAMILY_SM4 ? "sm4" : "aes",
                ok ? "" : ", unavailable");
    }
    fprintf(f, "\n");
}

int hwc_cmd_speed(int argc, char **argv) {
    opts o;
    int done = 0;
    if (parse_opts(argc, argv, &o, &done)) {
        free(o.names);
        return 1;
    }
    if (done) {
        free(o.names);
        return 0;
    }
    int rc = 1;
    /* Which ciphers. */
    size_t nc = o.nnames ? o.nnames : hwc_cipher_count();
    const hwc_cipher **cs = calloc(nc ? nc : 1, sizeof *cs);
    if (!cs)
        goto out;
    for (size_t i = 0; i < nc; i++) {
        cs[i] = o.nnames ? hwc_cipher_by_name(o.names[i]) : hwc_cipher_at(i);
        if (!cs[i]) {
            fprintf(stderr, "speed: unknown cipher '%s' (`hwcrypt list` shows the ciphers)\n", o.names[i]);
            goto out;
        }
        for (size_t j = 0; j < i; j++)
            if (cs[j] == cs[i]) {
                cs[i] = NULL; /* named twice (e.g. by an alias): one row */
                break;
            }
        if (!cs[i])
            continue;
        if (o.aead && !(hwc_cipher_flags(cs[i]) & HWC_CIPHER_AEAD)) {
            if (o.nnames) {
                fprintf(stderr, "speed: -aead can be used only with an AEAD cipher; %s is not one\n",
                        hwc_cipher_name(cs[i]));
                goto out;
            }
            cs[i] = NULL; /* all ciphers: keep the AEADs */
        }
    }
    if (o.compare && o.impl) {
        fprintf(stderr, "speed: -compare runs every back end; it cannot be combined with -impl\n");
        goto out;
    }
    if (o.impl) {
        int any_name = 0;
        for (size_t i = 0; i < hwc_impl_count(); i++)
            any_name |= !hwc_impl_is_ghash(i) && strcmp(hwc_impl_name(i), o.impl) == 0;
        if (!any_name) {
            fprintf(stderr, "speed: unknown back end '%s'; ", o.impl);
            list_impls(stderr);
            goto out;
        }
        for (size_t i = 0; i < nc; i++) {
            if (!cs[i])
                continue;
            const char *why = NULL;
            int a = impl_for_family(o.impl, hwc_cipher_family(cs[i]), &why);
            if (a < 0 && o.nnames) {
                fprintf(stderr, "speed: back end '%s' does not run %s\n", o.impl, hwc_cipher_name(cs[i]));
                goto out;
            }
            if (a == 0) {
                fprintf(stderr, "speed: back end '%s' cannot run here: %s\n", o.impl, why ? why : "unavailable");
                goto out;
            }
            if (a < 0)
                cs[i] = NULL; /* all ciphers: those of the back end's family */
        }
    }
#ifndef HWC_HAVE_OPENSSL
    if (o.openssl) {
        fprintf(stderr, "speed: -openssl: this hwcrypt was built without OpenSSL (libcrypto >= 3.0 not found "
                        "at configure time, or HWC_WITH_OPENSSL=OFF); no @openssl rows\n");
        o.openssl = 0;
    }
#endif
    if (o.gcrypt) {
        const char *why = gc_load();
        if (why) {
            fprintf(stderr, "speed: -gcrypt: %s; no @gcrypt rows\n", why);
            o.gcrypt = 0;
        }
    }
    if (o.elapsed && !o.mr && o.format == FMT_TEXT)
        fprintf(stderr, "speed: timing is always elapsed (wall-clock) time\n");
    cpus_probe();
    if ((size_t)o.multi > cpu_count && cpu_count)
        fprintf(stderr, "speed: -multi %d on %zu CPUs: threads share CPUs\n", o.multi, cpu_count);

    for (size_t i = 0; i < nc; i++) {
        const hwc_cipher *c = cs[i];
        if (!c)
            continue;
        char up[64];
        upper_copy(up, sizeof up, hwc_cipher_name(c));
        size_t first = nrows_total;
        int base = -1;
        if (o.compare) {
            for (size_t k = 0; k < hwc_impl_count(); k++) {
                if (hwc_impl_is_ghash(k) || hwc_impl_family(k) != hwc_cipher_family(c))
                    continue;
                const char *why = NULL;
                if (!hwc_impl_available(k, &why)) {
                    if (!o.mr)
                        fprintf(stderr, "speed: %s@%s skipped: %s\n", up, hwc_impl_name(k), why ? why : "unavailable");
                    continue;
                }
                row *r = add_row();
                snprintf(r->label, sizeof r->label, "%s@%s", up, hwc_impl_name(k));
                r->c = c;
                r->rk = R_HWC;
                r->impl = hwc_impl_name(k);
                if (!strcmp(r->impl, "ct"))
                    base = (int)(nrows_total - 1);
            }
        } else {
            row *r = add_row();
            snprintf(r->label, sizeof r->label, "%s", up);
            r->c = c;
            r->rk = R_HWC;
            r->impl = o.impl;
        }
        if (o.openssl) {
            row *r = add_row();
            snprintf(r->label, sizeof r->label, "%s@openssl", up);
            r->c = c;
            r->rk = R_OSSL;
            snprintf(r->impl_used, sizeof r->impl_used, "openssl");
            if (!o.compare)
                base = (int)(nrows_total - 1);
        }
        if (o.gcrypt) {
            row *r = add_row();
            snprintf(r->label, sizeof r->label, "%s@gcrypt", up);
            r->c = c;
            r->rk = R_GCRY;
            snprintf(r->impl_used, sizeof r->impl_used, "gcrypt");
            if (!o.compare && !o.openssl)
                base = (int)(nrows_total - 1);
        }
        size_t n = nrows_total - first;
        for (size_t k = first; k < nrows_total; k++)
            rows[k].baseline = base;
        measure_group(&o, first, n);
        /* Drop the peer rows that could not be set up (message already
         * given); without its baseline a group prints no ratio. */
        size_t kept = first;
        int base_kept = base;
        for (size_t k = first; k < nrows_total; k++) {
            if (rows[k].rk != R_HWC && rows[k].absent) {
                if ((int)k == base)
                    base_kept = -1;
                continue;
            }
            if ((int)k == base)
                base_kept = (int)kept;
            rows[kept++] = rows[k];
        }
        nrows_total = kept;
        for (size_t k = first; k < nrows_total; k++)
            rows[k].baseline = base_kept;
    }
    if (!nrows_total) {
        fprintf(stderr, "speed: nothing was measured\n");
        goto out;
    }
    switch (o.format) {
    case FMT_CSV:
        print_csv(&o);
        break;
    case FMT_JSON:
        print_json(&o);
        break;
    default:
        print_text(&o);
    }
    fflush(stdout);
    rc = any_error ? 1 : 0;
out:
    free(cs);
    free(o.names);
    free(rows);
    rows = NULL;
    nrows_total = rows_cap = 0;
    return rc;
}
