/*
 * hwcrypt enc: the output of `openssl enc -K ... -iv ...` byte for byte for
 * the modes openssl enc has, plus AEADs (ciphertext followed by the tag),
 * MACs (the tag) and key wrap.  Streams in constant memory: SIV and
 * GCM-SIV decryption too, the tag read from the end of the input first
 * (a pipe is spooled to a temporary file for it).  SIV and GCM-SIV
 * encryption, XTS and key wrap take one call over the whole message,
 * mapped from a temporary file when large.  What reaches -out, and when,
 * is sink.c's business: an AEAD decryption that fails authentication
 * writes nothing.
 */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* fallocate */
#else
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "cli.h"
#include "hwcrypt/hwcrypt.h"
#include "sink.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

#define CHUNK (64 * 1024)

typedef struct {
    const hwc_cipher *cipher;
    int encrypt;
    uint8_t *key, *iv, *aad;
    size_t key_len, iv_len, aad_len;
    size_t tag_len;
    int nopad;
    const char *in_path, *out_path, *impl;
} enc_opts;

static void enc_usage(FILE *f) {
    fprintf(f, "usage: hwcrypt enc -<cipher> [-e|-d] -K <hex> [-iv <hex>] [-aad <hex>] [-taglen N]\n"
               "                   [-nopad] [-in FILE] [-out FILE] [-impl NAME]\n"
               "  Raw key and IV as with `openssl enc -K -iv` (no passwords, no salt).\n"
               "  AEAD ciphers: output is ciphertext || tag; decryption input likewise; a message\n"
               "  that fails authentication exits 1 and writes nothing.\n"
               "  -out FILE is created or changed only on success; nothing is ever removed.\n"
               "  MAC ciphers (-aes-128-cmac, -aes-128-gmac): output is the tag.\n"
               "  Key wrap (-aes-128-wrap, -aes-128-wrap-pad): wraps (-e) or unwraps (-d) the input.\n"
               "  Ciphers: `hwcrypt list`.\n");
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hex to bytes. want == 0: any even length. Otherwise, like openssl enc:
 * a short string is padded with zero bytes, a long one truncated, with a
 * warning. */
static int parse_hex(const char *what, const char *hex, size_t want, uint8_t **out, size_t *out_len) {
    size_t n = strlen(hex);
    if (n % 2) {
        fprintf(stderr, "hwcrypt enc: %s: odd number of hex digits\n", what);
        return -1;
    }
    size_t len = n / 2, cap = want ? want : len;
    uint8_t *buf = calloc(cap ? cap : 1, 1);
    if (!buf)
        return -1;
    for (size_t i = 0; i < len; i++) {
        int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            fprintf(stderr, "hwcrypt enc: %s: not a hex string\n", what);
            free(buf);
            return -1;
        }
        if (i < cap)
            buf[i] = (uint8_t)(hi << 4 | lo);
    }
    if (want && len < want)
        fprintf(stderr, "hex string is too short, padding with zero bytes to length\n");
    if (want && len > want)
        fprintf(stderr, "hex string is too long, ignoring excess\n");
    *out = buf;
    *out_len = cap;
    return 0;
}

/* Exit status for a library error (docs/ERRORS.md): 2 when the invocation
 * asks for something the cipher cannot do, 1 when this input failed. */
static int exit_code_for(int rc) {
    switch (rc) {
    case HWC_ERR_KEY_LEN:
    case HWC_ERR_IV_LEN:
    case HWC_ERR_TAG_LEN:
    case HWC_ERR_WEAK_KEY:
    case HWC_ERR_UNSUPPORTED:
    case HWC_ERR_UNKNOWN:
    case HWC_ERR_UNAVAILABLE:
        return 2;
    default:
        return 1;
    }
}

/* One line on stderr; returns the exit status. */
static int fail(const char *what, int rc) {
    if (rc == HWC_ERR_AUTH)
        fprintf(stderr, "hwcrypt enc: %s: authentication failed: wrong key, IV, AAD or tag, or modified data; "
                        "no output written\n", what);
    else
        fprintf(stderr, "hwcrypt enc: %s: %s\n", what, hwc_strerror(rc));
    return exit_code_for(rc);
}

/* ------------------------------------------------------------- the input */

typedef struct source {
    int fd;
    const char *name; /* -in as given, or "stdin" */
    int own;          /* fd is ours to close */
} source;

static int source_open(source *in, const char *path) {
    in->name = path ? path : "stdin";
    in->own = path != NULL;
    in->fd = path ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
    struct stat st;
    if (in->fd >= 0 && fstat(in->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(in->fd);
        in->fd = -1;
        errno = EISDIR;
    }
    if (in->fd < 0) {
        fprintf(stderr, "hwcrypt enc: -in %s: %s\n", in->name, strerror(errno));
        return -1;
    }
    return 0;
}

static void source_close(source *in) {
    if (in->own && in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

/* Up to n bytes (fewer only at the end); -1 after printing the error. */
static long long source_read(source *in, uint8_t *buf, size_t n) {
    long long got = cli_read_full(in->fd, buf, n);
    if (got < 0)
        fprintf(stderr, "hwcrypt enc: reading %s: %s\n", in->name, strerror(errno));
    return got;
}

/* Bytes left to read when the input is a regular file; -1 otherwise. */
static long long source_regular_left(const source *in) {
    struct stat st;
    if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    off_t at = lseek(in->fd, 0, SEEK_CUR);
    return at < 0 || at > st.st_size ? -1 : (long long)(st.st_size - at);
}

/* Reads n bytes at offset `at` without moving the file position; -1
 * after printing the error (a short read counts as one). */
static int source_pread(source *in, uint8_t *buf, size_t n, long long at) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(in->fd, buf + got, n - got, (off_t)(at + (long long)got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            fprintf(stderr, "hwcrypt enc: reading %s: %s\n", in->name, r < 0 ? strerror(errno) : "it got shorter");
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

/* Moves the rest of the input into an unnamed temporary file (after the
 * `have` bytes already read into buf) and reads from there from now on.
 * Returns its length, or -1 after printing the error. */
static long long source_spool(source *in, uint8_t *buf, size_t have, size_t buf_cap) {
    char where[256];
    int fd = cli_tmpfile(NULL, "the input", where, sizeof where);
    if (fd < 0)
        return -1;
    long long total = 0, n = have ? (long long)have : source_read(in, buf, buf_cap);
    while (n > 0) {
        if (cli_write_all(fd, buf, (size_t)n)) {
            fprintf(stderr, "hwcrypt enc: writing the temporary file in %s: %s%s\n", where, strerror(errno),
                    errno == ENOSPC ? " (set TMPDIR to a directory with room)" : "");
            break;
        }
        total += n;
        n = source_read(in, buf, buf_cap);
    }
    if (n != 0 || lseek(fd, 0, SEEK_SET) != 0)
        total = -1;
    if (total < 0) {
        close(fd);
        return -1;
    }
    source_close(in);
    in->fd = fd;
    in->own = 1;
    return total;
}

/* ----------------------------------------------------- the three shapes */

/* Short messages stay in memory; longer ones of the modes that take the
 * whole message in one call are mapped from a temporary file. */
#define WHOLE_IN_MEMORY (1024 * 1024)
/* Room after the message: the tag (AEAD), the integrity block (key wrap). */
#define WHOLE_SLACK 64

typedef struct whole_buf {
    uint8_t *data;
    size_t len, cap;
    int mapped;
} whole_buf;

static void whole_release(whole_buf *w) {
    if (!w->data)
        return;
#if defined(__linux__)
    if (w->mapped) {
        munmap(w->data, w->cap); /* an unnamed file: gone at exit */
        w->data = NULL;
        return;
    }
#endif
    memset(w->data, 0, w->cap);
    free(w->data);
    w->data = NULL;
}

/* The whole input, with WHOLE_SLACK bytes of room after it. */
static int whole_load(source *in, whole_buf *w) {
    memset(w, 0, sizeof *w);
    size_t cap = WHOLE_IN_MEMORY + 1 + WHOLE_SLACK;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "hwcrypt enc: out of memory\n");
        return -1;
    }
    long long n = source_read(in, buf, WHOLE_IN_MEMORY + 1);
    if (n < 0) {
        free(buf);
        return -1;
    }
    if (n <= WHOLE_IN_MEMORY) {
        w->data = buf;
        w->len = (size_t)n;
        w->cap = cap;
        return 0;
    }
#if defined(__linux__)
    /* Anonymous memory stays bounded: the message lives in the page cache
     * of an unnamed file, processed in place through a shared mapping. */
    long long total = source_spool(in, buf, (size_t)n, WHOLE_IN_MEMORY);
    memset(buf, 0, cap);
    free(buf);
    if (total < 0)
        return -1;
    if ((unsigned long long)total > (unsigned long long)SIZE_MAX - WHOLE_SLACK) {
        fprintf(stderr, "hwcrypt enc: %s: too long for this machine's address space\n", in->name);
        return -1;
    }
    w->len = (size_t)total;
    w->cap = w->len + WHOLE_SLACK;
    int rc = fallocate(in->fd, 0, 0, (off_t)w->cap);
    if (rc != 0 && (errno == EOPNOTSUPP || errno == ENOSYS))
        rc = ftruncate(in->fd, (off_t)w->cap);
    if (rc != 0) {
        fprintf(stderr, "hwcrypt enc: the temporary file for the input: %s\n", strerror(errno));
        return -1;
    }
    void *map = mmap(NULL, w->cap, PROT_READ | PROT_WRITE, MAP_SHARED, in->fd, 0);
    if (map == MAP_FAILED) {
        fprintf(stderr, "hwcrypt enc: mapping the input (%zu bytes): %s\n", w->len, strerror(errno));
        return -1;
    }
    w->data = map;
    w->mapped = 1;
    return 0;
#else
    /* Elsewhere: in memory, growing. */
    size_t used = (size_t)n;
    for (;;) {
        if (cap - used < CHUNK + WHOLE_SLACK) {
            uint8_t *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (!bigger) {
                memset(buf, 0, cap);
                free(buf);
                fprintf(stderr, "hwcrypt enc: out of memory\n");
                return -1;
            }
            buf = bigger;
            cap *= 2;
        }
        long long m = source_read(in, buf + used, CHUNK);
        if (m < 0) {
            memset(buf, 0, cap);
            free(buf);
            return -1;
        }
        used += (size_t)m;
        if (m == 0)
            break;
    }
    w->data = buf;
    w->len = used;
    w->cap = cap;
    return 0;
#endif
}

/* SIV and GCM-SIV encryption (two passes: the tag over the whole
 * plaintext, then CTR from it), XTS and key wrap: one call over the whole
 * message, in place.  Nothing is written unless it succeeds. */
static int run_whole_message(const enc_opts *o, hwc_ctx *ctx, source *in, sink *out) {
    whole_buf w;
    if (whole_load(in, &w))
        return 1;
    unsigned flags = hwc_cipher_flags(o->cipher);
    uint8_t *data = w.data;
    size_t len = w.len, out_len = 0;
    int rc = 0, status = 1;
    if (flags & HWC_CIPHER_WRAP) {
        rc = o->encrypt ? hwc_ctx_key_wrap(ctx, data, len, data, w.cap, &out_len)
                        : hwc_ctx_key_unwrap(ctx, data, len, data, w.cap, &out_len);
        if (rc) {
            status = fail(o->encrypt ? "wrap" : "unwrap", rc);
            goto done;
        }
    } else if (flags & HWC_CIPHER_AEAD) {
        if (o->encrypt) {
            rc = hwc_aead_seal(ctx, o->iv, o->iv_len, o->aad, o->aad_len, data, len, data, data + len, o->tag_len);
            out_len = len + o->tag_len;
        } else {
            if (len < o->tag_len) {
                fprintf(stderr, "hwcrypt enc: input shorter than the tag\n");
                goto done;
            }
            size_t ct_len = len - o->tag_len;
            rc = hwc_aead_open(ctx, o->iv, o->iv_len, o->aad, o->aad_len, data, ct_len, data, data + ct_len,
                               o->tag_len);
            out_len = ct_len;
        }
        if (rc) {
            status = fail(o->encrypt ? "seal" : "open", rc);
            goto done;
        }
    } else { /* XTS: the whole input is one data unit */
        size_t n = 0, m = 0;
        if ((rc = hwc_update(ctx, data, &n, data, len)) || (rc = hwc_final(ctx, data + n, &m))) {
            status = fail(o->encrypt ? "encrypt" : "decrypt", rc);
            goto done;
        }
        out_len = n + m;
    }
    status = sink_write(out, data, out_len) ? 1 : 0;
done:
    whole_release(&w);
    return status;
}

/* CMAC, GMAC: the message streams through hwc_aad; the output is the tag. */
static int run_mac(const enc_opts *o, hwc_ctx *ctx, source *in, sink *out) {
    uint8_t *buf = malloc(CHUNK), tag[16];
    int rc, status = 1;
    if (!buf)
        return 1;
    for (;;) {
        long long n = source_read(in, buf, CHUNK);
        if (n < 0)
            goto done;
        if (n == 0)
            break;
        if ((rc = hwc_aad(ctx, buf, (size_t)n))) {
            status = fail("mac", rc);
            goto done;
        }
    }
    if ((rc = hwc_mac_final(ctx, tag, o->tag_len))) {
        status = fail("mac", rc);
        goto done;
    }
    status = sink_write(out, tag, o->tag_len) ? 1 : 0;
done:
    memset(buf, 0, CHUNK);
    free(buf);
    return status;
}

/* SIV and GCM-SIV: the decryption needs the tag, which ends the input,
 * before the first byte (it seeds CTR), and streams once the length is
 * declared. */
static int tag_first(const enc_opts *o) {
    hwc_mode m = hwc_cipher_mode(o->cipher);
    return !o->encrypt && (m == HWC_MODE_SIV || m == HWC_MODE_GCM_SIV);
}

/* Streaming: ECB/CBC/CFB/OFB/CTR, GCM/OCB/CCM with the tag at the end,
 * and SIV/GCM-SIV decryption. */
static int run_stream(const enc_opts *o, hwc_ctx *ctx, source *in, sink *out) {
    int aead = (hwc_cipher_flags(o->cipher) & HWC_CIPHER_AEAD) != 0;
    /* Decrypting an AEAD: the last tag_len bytes of the input are the tag,
     * so that many bytes are always held back from the cipher. */
    size_t hold = aead && !o->encrypt ? o->tag_len : 0;
    const size_t in_cap = CHUNK + hold, out_cap = CHUNK + hold + 32;
    uint8_t *inbuf = malloc(in_cap), *outbuf = malloc(out_cap);
    int status = 1, rc;
    size_t have = 0;
    /* Bytes of ciphertext still to read; -1: up to the end of the input. */
    long long to_read = -1;
    if (!inbuf || !outbuf)
        goto done;
    if (aead) {
        /* Both directions: OCB and CCM fold the tag length into the message. */
        if ((rc = hwc_set_tag_len(ctx, o->tag_len))) {
            status = fail("tag length", rc);
            goto done;
        }
        if (hwc_cipher_mode(o->cipher) == HWC_MODE_CCM || tag_first(o)) {
            /* CCM declares the message length first, SIV and GCM-SIV need
             * the tag first: from the file, or from a temporary copy of a
             * stream. */
            long long left = source_regular_left(in);
            if (left < 0 && (left = source_spool(in, inbuf, 0, CHUNK)) < 0)
                goto done;
            if ((unsigned long long)left < hold) {
                fprintf(stderr, "hwcrypt enc: input shorter than the tag\n");
                goto done;
            }
            if (tag_first(o)) {
                off_t at = lseek(in->fd, 0, SEEK_CUR);
                if (at < 0) {
                    fprintf(stderr, "hwcrypt enc: %s: %s\n", in->name, strerror(errno));
                    goto done;
                }
                if (source_pread(in, inbuf, hold, (long long)at + left - (long long)hold))
                    goto done;
                if ((rc = hwc_set_tag(ctx, inbuf, hold))) {
                    status = fail("tag", rc);
                    goto done;
                }
                to_read = left - (long long)hold;
            }
            if ((rc = hwc_set_lengths(ctx, o->aad_len, (uint64_t)left - hold))) {
                status = fail("message length", rc);
                if (rc == HWC_ERR_DATA_LEN && !tag_first(o) && o->iv_len > 7 && o->iv_len < 15)
                    fprintf(stderr, "hwcrypt enc: CCM with a %zu-byte nonce takes at most 2^%zu - 1 bytes; a "
                                    "shorter nonce allows more\n", o->iv_len, 8 * (15 - o->iv_len));
                goto done;
            }
        }
        if (o->aad_len && (rc = hwc_aad(ctx, o->aad, o->aad_len))) {
            status = fail("aad", rc);
            goto done;
        }
    }
    if (to_read >= 0) {
        /* The tag is in: the ciphertext streams, nothing held back. */
        while (to_read > 0) {
            size_t want = to_read < CHUNK ? (size_t)to_read : CHUNK, out_len = 0;
            long long n = source_read(in, inbuf, want);
            if (n < 0)
                goto done;
            if ((size_t)n < want) {
                fprintf(stderr, "hwcrypt enc: reading %s: it got shorter\n", in->name);
                goto done;
            }
            if ((rc = hwc_update(ctx, outbuf, &out_len, inbuf, (size_t)n))) {
                status = fail("update", rc);
                goto done;
            }
            if (sink_write(out, outbuf, out_len))
                goto done;
            to_read -= n;
        }
        hold = 0; /* the tag has been set */
    }
    for (; to_read < 0;) {
        long long n = source_read(in, inbuf + have, CHUNK + hold - have);
        if (n < 0)
            goto done;
        have += (size_t)n;
        if (have > hold) {
            size_t process = have - hold, out_len = 0;
            if ((rc = hwc_update(ctx, outbuf, &out_len, inbuf, process))) {
                status = fail("update", rc);
                goto done;
            }
            if (sink_write(out, outbuf, out_len))
                goto done;
            memmove(inbuf, inbuf + process, hold);
            have = hold;
        }
        if (n == 0)
            break;
    }
    if (hold) {
        if (have < hold) {
            fprintf(stderr, "hwcrypt enc: input shorter than the tag\n");
            goto done;
        }
        if ((rc = hwc_set_tag(ctx, inbuf, hold))) {
            status = fail("tag", rc);
            goto done;
        }
    }
    size_t out_len = 0;
    if ((rc = hwc_final(ctx, outbuf, &out_len))) {
        if (rc == HWC_ERR_PADDING)
            fprintf(stderr, "bad decrypt\n");
        status = fail("final", rc);
        goto done;
    }
    if (sink_write(out, outbuf, out_len))
        goto done;
    if (aead && o->encrypt) {
        uint8_t tag[16];
        if ((rc = hwc_get_tag(ctx, tag, o->tag_len))) {
            status = fail("tag", rc);
            goto done;
        }
        if (sink_write(out, tag, o->tag_len))
            goto done;
    }
    status = 0;
done:
    if (inbuf) {
        memset(inbuf, 0, in_cap);
        free(inbuf);
    }
    if (outbuf) {
        memset(outbuf, 0, out_cap);
        free(outbuf);
    }
    return status;
}

static int parse_args(int argc, char **argv, enc_opts *o, const char **key_hex, const char **iv_hex,
                      const char **aad_hex) {
    memset(o, 0, sizeof *o);
    o->encrypt = 1;
    o->tag_len = 16;
    int tag_len_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE(dst)                                                         \
    do {                                                                  \
        if (!val) {                                                       \
            fprintf(stderr, "hwcrypt enc: %s needs a value\n", a);       \
            return -1;                                                    \
        }                                                                 \
        dst = val;                                                        \
        i++;                                                              \
    } while (0)
        if (!strcmp(a, "-e"))
            o->encrypt = 1;
        else if (!strcmp(a, "-d"))
            o->encrypt = 0;
        else if (!strcmp(a, "-K"))
            TAKE(*key_hex);
        else if (!strcmp(a, "-iv"))
            TAKE(*iv_hex);
        else if (!strcmp(a, "-aad"))
            TAKE(*aad_hex);
        else if (!strcmp(a, "-in"))
            TAKE(o->in_path);
        else if (!strcmp(a, "-out"))
            TAKE(o->out_path);
        else if (!strcmp(a, "-impl"))
            TAKE(o->impl);
        else if (!strcmp(a, "-nopad"))
            o->nopad = 1;
        else if (!strcmp(a, "-taglen")) {
            const char *t;
            TAKE(t);
            char *end;
            unsigned long v = strtoul(t, &end, 10);
            if (*end || v == 0 || v > 16) {
                fprintf(stderr, "hwcrypt enc: -taglen must be 1..16\n");
                return -1;
            }
            o->tag_len = v;
            tag_len_given = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "-help") || !strcmp(a, "--help")) {
            enc_usage(stdout);
            return 1;
        } else if (a[0] == '-' && hwc_cipher_by_name(a + 1)) {
            o->cipher = hwc_cipher_by_name(a + 1);
        } else {
            fprintf(stderr, "hwcrypt enc: unknown option or cipher '%s'\n", a);
            enc_usage(stderr);
            return -1;
        }
#undef TAKE
    }
    if (!o->cipher) {
        fprintf(stderr, "hwcrypt enc: no cipher given (e.g. -aes-128-cbc)\n");
        return -1;
    }
    if (!tag_len_given && hwc_cipher_tag_len(o->cipher))
        o->tag_len = hwc_cipher_tag_len(o->cipher);
    return 0;
}

int hwc_cmd_enc(int argc, char **argv) {
    enc_opts o;
    const char *key_hex = NULL, *iv_hex = NULL, *aad_hex = NULL;
    int rc = parse_args(argc, argv, &o, &key_hex, &iv_hex, &aad_hex);
    if (rc)
        return rc > 0 ? 0 : 2;
    unsigned flags = hwc_cipher_flags(o.cipher);
    hwc_mode mode = hwc_cipher_mode(o.cipher);
    int aead = (flags & HWC_CIPHER_AEAD) != 0;
    int status = 2;
    hwc_ctx *ctx = NULL;
    source in = {-1, NULL, 0};
    sink *out = NULL;

    if (!key_hex) {
        fprintf(stderr, "hwcrypt enc: -K <hex key> is required (%zu bytes for %s)\n", hwc_cipher_key_len(o.cipher),
                hwc_cipher_name(o.cipher));
        goto done;
    }
    if (parse_hex("key", key_hex, hwc_cipher_key_len(o.cipher), &o.key, &o.key_len))
        goto done;
    size_t default_iv = hwc_cipher_iv_len(o.cipher);
    /* Nonce lengths of AEADs and GMAC vary; block-mode IVs are fixed. */
    int variable_iv = aead || mode == HWC_MODE_GMAC;
    if (iv_hex) {
        if (parse_hex("iv", iv_hex, variable_iv ? 0 : default_iv, &o.iv, &o.iv_len))
            goto done;
        /* An empty nonce would leave the context waiting for one (the
         * library's two-step init): say what is wrong instead. */
        if (!o.iv_len && default_iv) {
            fprintf(stderr, "hwcrypt enc: iv: %s: -iv is empty; %s takes a nonce (%zu bytes by default)\n",
                    hwc_strerror(HWC_ERR_IV_LEN), hwc_cipher_name(o.cipher), default_iv);
            goto done;
        }
    } else if (default_iv) {
        fprintf(stderr, "iv undefined\n");
        goto done;
    }
    if (aad_hex && parse_hex("aad", aad_hex, 0, &o.aad, &o.aad_len))
        goto done;

    ctx = hwc_ctx_new();
    out = malloc(sizeof *out);
    if (out)
        sink_init(out);
    if (!ctx || !out) {
        fprintf(stderr, "hwcrypt enc: out of memory\n");
        status = 1;
        goto done;
    }
    if (o.impl && (rc = hwc_ctx_set_impl(ctx, o.impl))) {
        fprintf(stderr, "hwcrypt enc: back end '%s': %s\n", o.impl, hwc_strerror(rc));
        goto done;
    }
    if ((rc = hwc_init(ctx, o.cipher, o.encrypt, o.key, o.key_len, o.iv, o.iv_len))) {
        status = fail("init", rc);
        goto done;
    }
    if (o.nopad && (rc = hwc_set_padding(ctx, 0))) {
        status = fail("-nopad", rc);
        goto done;
    }
    /* From here on a failure is one of this input or of I/O: exit 1. */
    status = 1;
    if (source_open(&in, o.in_path))
        goto done;
    int whole = (flags & HWC_CIPHER_WRAP) || ((flags & HWC_CIPHER_ONE_SHOT) && !tag_first(&o));
    int mac = (flags & HWC_CIPHER_MAC) != 0;
    /* Streamed AEAD decryption releases plaintext before the tag is known:
     * withheld until then, whatever -out is. */
    if (sink_open(out, o.out_path, aead && !whole && !o.encrypt)) {
        sink_close(out);
        free(out);
        out = NULL;
        goto done;
    }
    status = whole ? run_whole_message(&o, ctx, &in, out) : mac ? run_mac(&o, ctx, &in, out)
                                                                : run_stream(&o, ctx, &in, out);
    if (status == 0 && sink_commit(out))
        status = 1;
done:
    if (out) {
        sink_close(out);
        free(out);
    }
    source_close(&in);
    hwc_ctx_free(ctx);
    if (o.key) {
        memset(o.key, 0, o.key_len);
        free(o.key);
    }
    free(o.iv);
    free(o.aad);
    return status;
}
