/*
 * hwcrypt enc: the output of `openssl enc -K ... -iv ...` byte for byte for
 * the modes openssl enc has, plus AEADs (ciphertext followed by the tag),
 * MACs (the tag) and key wrap.  Streams in constant memory where the mode
 * allows; an AEAD decryption that fails authentication writes nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "hwcrypt/hwcrypt.h"

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

/* Reads all of f into memory. */
static uint8_t *read_all(FILE *f, size_t *len) {
    size_t cap = CHUNK, used = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0)
            break;
        if (used == cap) {
            uint8_t *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (buf && ferror(f)) {
        free(buf);
        return NULL;
    }
    *len = used;
    return buf;
}

/* Output that can be withheld: AEAD decryption writes to a temporary file
 * beside -out (renamed on success) or to memory (stdout, flushed on
 * success), so a forged message leaves nothing behind. */
typedef struct {
    FILE *f;
    const char *final_path;
    char tmp_path[4096];
    uint8_t *mem;
    size_t mem_len, mem_cap;
    int withhold;
} sink;

static int sink_open(sink *s, const char *path, int withhold) {
    memset(s, 0, sizeof *s);
    s->withhold = withhold;
    s->final_path = path;
    if (!path) {
        s->f = stdout;
        return 0;
    }
    if (withhold) {
        int n = snprintf(s->tmp_path, sizeof s->tmp_path, "%s.hwcrypt-XXXXXX", path);
        if (n < 0 || (size_t)n >= sizeof s->tmp_path)
            return -1;
        int fd = mkstemp(s->tmp_path);
        if (fd < 0 || !(s->f = fdopen(fd, "wb"))) {
            fprintf(stderr, "hwcrypt enc: %s: %s\n", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    s->f = fopen(path, "wb");
    if (!s->f) {
        fprintf(stderr, "hwcrypt enc: %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

static int sink_write(sink *s, const uint8_t *p, size_t n) {
    if (!n)
        return 0;
    if (s->withhold && !s->final_path) {
        if (s->mem_len + n > s->mem_cap) {
            size_t cap = s->mem_cap ? s->mem_cap : CHUNK;
            while (cap < s->mem_len + n)
                cap *= 2;
            uint8_t *bigger = realloc(s->mem, cap);
            if (!bigger)
                return -1;
            s->mem = bigger;
            s->mem_cap = cap;
        }
        memcpy(s->mem + s->mem_len, p, n);
        s->mem_len += n;
        return 0;
    }
    return fwrite(p, 1, n, s->f) == n ? 0 : -1;
}

/* ok: keep the output; otherwise discard it. Returns 0 on success. */
static int sink_close(sink *s, int ok) {
    int rc = 0;
    if (s->withhold && !s->final_path) {
        if (ok && s->mem_len && fwrite(s->mem, 1, s->mem_len, stdout) != s->mem_len)
            rc = -1;
        if (s->mem) {
            memset(s->mem, 0, s->mem_len);
            free(s->mem);
        }
        if (fflush(stdout))
            rc = -1;
        return rc;
    }
    if (s->f == stdout)
        return fflush(stdout) ? -1 : 0;
    if (fclose(s->f))
        rc = -1;
    if (s->withhold) {
        if (ok && rc == 0) {
            if (rename(s->tmp_path, s->final_path))
                rc = -1;
        } else {
            unlink(s->tmp_path);
        }
    } else if (!ok) {
        unlink(s->final_path);
    }
    return rc;
}

static int run_whole_message(const enc_opts *o, hwc_ctx *ctx, FILE *in, sink *out) {
    size_t len = 0;
    uint8_t *data = read_all(in, &len);
    if (!data) {
        fprintf(stderr, "hwcrypt enc: cannot read input\n");
        return 1;
    }
    unsigned flags = hwc_cipher_flags(o->cipher);
    int rc = 0, status = 1;
    size_t cap = len + 64, out_len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf)
        goto done;
    if (flags & HWC_CIPHER_WRAP) {
        rc = o->encrypt ? hwc_ctx_key_wrap(ctx, data, len, buf, cap, &out_len)
                        : hwc_ctx_key_unwrap(ctx, data, len, buf, cap, &out_len);
        if (rc) {
            status = fail(o->encrypt ? "wrap" : "unwrap", rc);
            goto done;
        }
    } else if (flags & HWC_CIPHER_MAC) {
        if ((rc = hwc_aad(ctx, data, len)) || (rc = hwc_mac_final(ctx, buf, o->tag_len))) {
            status = fail("mac", rc);
            goto done;
        }
        out_len = o->tag_len;
    } else if (flags & HWC_CIPHER_AEAD) {
        if (o->encrypt) {
            rc = hwc_aead_seal(ctx, o->iv, o->iv_len, o->aad, o->aad_len, data, len, buf, buf + len, o->tag_len);
            out_len = len + o->tag_len;
        } else {
            if (len < o->tag_len) {
                fprintf(stderr, "hwcrypt enc: input shorter than the tag\n");
                goto done;
            }
            size_t ct_len = len - o->tag_len;
            rc = hwc_aead_open(ctx, o->iv, o->iv_len, o->aad, o->aad_len, data, ct_len, buf, data + ct_len,
                               o->tag_len);
            out_len = ct_len;
        }
        if (rc) {
            status = fail(o->encrypt ? "seal" : "open", rc);
            goto done;
        }
    } else { /* XTS: the whole input is one data unit */
        size_t n = 0, m = 0;
        if ((rc = hwc_update(ctx, buf, &n, data, len)) || (rc = hwc_final(ctx, buf + n, &m))) {
            status = fail(o->encrypt ? "encrypt" : "decrypt", rc);
            goto done;
        }
        out_len = n + m;
    }
    status = sink_write(out, buf, out_len) ? 1 : 0;
done:
    if (buf) {
        memset(buf, 0, cap);
        free(buf);
    }
    memset(data, 0, len);
    free(data);
    return status;
}

/* Streaming: ECB/CBC/CFB/OFB/CTR, and GCM/OCB with the tag at the end. */
static int run_stream(const enc_opts *o, hwc_ctx *ctx, FILE *in, sink *out) {
    int aead = (hwc_cipher_flags(o->cipher) & HWC_CIPHER_AEAD) != 0;
    int rc;
    if (aead) {
        if (o->encrypt && (rc = hwc_set_tag_len(ctx, o->tag_len)))
            return fail("tag length", rc);
        if (o->aad_len && (rc = hwc_aad(ctx, o->aad, o->aad_len)))
            return fail("aad", rc);
    }
    /* Decrypting an AEAD: the last tag_len bytes of the input are the tag,
     * so that many bytes are always held back from the cipher. */
    size_t hold = aead && !o->encrypt ? o->tag_len : 0;
    uint8_t *inbuf = malloc(CHUNK + hold), *outbuf = malloc(CHUNK + hold + 32);
    int status = 1;
    size_t have = 0;
    if (!inbuf || !outbuf)
        goto done;
    for (;;) {
        size_t n = fread(inbuf + have, 1, CHUNK + hold - have, in);
        have += n;
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
    if (ferror(in)) {
        fprintf(stderr, "hwcrypt enc: read error\n");
        goto done;
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
        memset(inbuf, 0, CHUNK + hold);
        free(inbuf);
    }
    if (outbuf) {
        memset(outbuf, 0, CHUNK + hold + 32);
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
    int aead = (flags & HWC_CIPHER_AEAD) != 0;
    int status = 2;
    hwc_ctx *ctx = NULL;
    FILE *in = NULL;
    sink out;
    int sink_ready = 0;

    if (!key_hex) {
        fprintf(stderr, "hwcrypt enc: -K <hex key> is required (%zu bytes for %s)\n", hwc_cipher_key_len(o.cipher),
                hwc_cipher_name(o.cipher));
        goto done;
    }
    if (parse_hex("key", key_hex, hwc_cipher_key_len(o.cipher), &o.key, &o.key_len))
        goto done;
    size_t default_iv = hwc_cipher_iv_len(o.cipher);
    /* Nonce lengths of AEADs and GMAC vary; block-mode IVs are fixed. */
    int variable_iv = aead || hwc_cipher_mode(o.cipher) == HWC_MODE_GMAC;
    if (iv_hex) {
        if (parse_hex("iv", iv_hex, variable_iv ? 0 : default_iv, &o.iv, &o.iv_len))
            goto done;
    } else if (default_iv) {
        fprintf(stderr, "iv undefined\n");
        goto done;
    }
    if (aad_hex && parse_hex("aad", aad_hex, 0, &o.aad, &o.aad_len))
        goto done;

    ctx = hwc_ctx_new();
    if (!ctx) {
        fprintf(stderr, "hwcrypt enc: out of memory\n");
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
    in = o.in_path ? fopen(o.in_path, "rb") : stdin;
    if (!in) {
        fprintf(stderr, "hwcrypt enc: %s: %s\n", o.in_path, strerror(errno));
        goto done;
    }
    if (sink_open(&out, o.out_path, aead && !o.encrypt))
        goto done;
    sink_ready = 1;
    int whole = (flags & (HWC_CIPHER_ONE_SHOT | HWC_CIPHER_WRAP | HWC_CIPHER_MAC)) ||
                hwc_cipher_mode(o.cipher) == HWC_MODE_CCM;
    status = whole ? run_whole_message(&o, ctx, in, &out) : run_stream(&o, ctx, in, &out);
done:
    if (sink_ready && sink_close(&out, status == 0) && status == 0) {
        fprintf(stderr, "hwcrypt enc: write error\n");
        status = 1;
    }
    if (in && in != stdin)
        fclose(in);
    hwc_ctx_free(ctx);
    if (o.key) {
        memset(o.key, 0, o.key_len);
        free(o.key);
    }
    free(o.iv);
    free(o.aad);
    return status;
}
