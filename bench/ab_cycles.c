/*
 * ab_cycles: two builds of libhwcrypt in one process, measured in turn.
 *
 *   ab_cycles OLD.so NEW.so CIPHER BYTES stream|stream-dec|seal|open [ROUNDS [COPIES]]
 *
 * Loads both shared libraries (dlopen, each its own copy of every symbol),
 * then alternates 40 (or ROUNDS) short rounds between them: each round
 * times a few hundred calls of one operation on BYTES bytes and keeps the
 * fastest. Below 4 KiB a sample is a batch of 200 calls (the time per call
 * is the batch's over 200): one 16-byte call lasts a few dozen cycles, too
 * close to the timer's own cost and granularity to compare. Prints the minimum cycles per byte of each and NEW/OLD. On a
 * shared machine, load that comes and goes hits both alike, and the
 * minimum of many short calls is what the code costs when nothing else runs
 * on the core; a ratio of run medians (bench/openssl-ratios -b A -b B)
 * swings by 10-20% here for identical code. The core clock is measured
 * against the TSC with a chain of dependent ADDs.
 *   stream: hwc_update on one long message; for XTS, one data unit per call
 *   stream-dec: the same, decrypting
 *   seal / open: hwc_aead_seal / hwc_aead_open with a 12-byte nonce and 13
 *   bytes of AAD (the open of a message sealed first)
 * HWCRYPT_CAPS applies to both.
 *
 * COPIES (default 1): each library is loaded that many times, from copies
 * in /tmp, each mapped at its own address, and the rounds go round all of
 * them. Where a library's code lands moves its time: two byte-identical
 * copies have measured 15% apart. Each side's figure is then the median
 * of its copies' minima, printed with their range; 3 or more copies make
 * an A/B of a few percent readable.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>

#include "core_clock.h"

typedef struct hwc_ctx hwc_ctx;
typedef struct hwc_cipher hwc_cipher;
typedef struct lib {
    hwc_ctx *(*ctx_new)(void);
    const hwc_cipher *(*by_name)(const char *);
    size_t (*key_len)(const hwc_cipher *);
    size_t (*iv_len)(const hwc_cipher *);
    int (*init)(hwc_ctx *, const hwc_cipher *, int, const uint8_t *, size_t, const uint8_t *, size_t);
    int (*update)(hwc_ctx *, uint8_t *, size_t *, const uint8_t *, size_t);
    int (*seal)(hwc_ctx *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t, uint8_t *,
                uint8_t *, size_t);
    int (*open)(hwc_ctx *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t, uint8_t *,
                const uint8_t *, size_t);
    int (*set_padding)(hwc_ctx *, int);
    hwc_ctx *ctx;
    const hwc_cipher *cipher;
} lib;

enum { STREAM, SEAL, OPEN };
static const uint8_t key[64] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,
                                45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64};
static uint8_t iv[16] = {7, 6, 5, 4, 3, 2, 1}, aad[13], tag[16], *in, *out, *sealed;
static size_t len;
static int mode, xts, decrypt_stream;

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (!p) {
        fprintf(stderr, "ab_cycles: %s: %s\n", name, dlerror());
        exit(2);
    }
    return p;
}

/* A private copy of the file at path, so that dlopen maps it again; the
 * name is removed once it is loaded. */
static char *copy_of(const char *path) {
    static char name[64];
    snprintf(name, sizeof name, "/tmp/ab_cycles.XXXXXX");
    const int fd = mkstemp(name);
    FILE *src = fopen(path, "rb"), *dst = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!src || !dst) {
        fprintf(stderr, "ab_cycles: cannot copy %s to /tmp\n", path);
        exit(2);
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, src)) != 0)
        if (fwrite(buf, 1, n, dst) != n) {
            fprintf(stderr, "ab_cycles: cannot copy %s to /tmp\n", path);
            exit(2);
        }
    fclose(src);
    fclose(dst);
    return name;
}

static void load(lib *l, const char *path, const char *cipher) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "ab_cycles: %s\n", dlerror());
        exit(2);
    }
    l->ctx_new = (hwc_ctx * (*)(void)) sym(h, "hwc_ctx_new");
    l->by_name = (const hwc_cipher *(*)(const char *))sym(h, "hwc_cipher_by_name");
    l->key_len = (size_t(*)(const hwc_cipher *))sym(h, "hwc_cipher_key_len");
    l->iv_len = (size_t(*)(const hwc_cipher *))sym(h, "hwc_cipher_iv_len");
    l->init = (int (*)(hwc_ctx *, const hwc_cipher *, int, const uint8_t *, size_t, const uint8_t *, size_t))sym(
        h, "hwc_init");
    l->update = (int (*)(hwc_ctx *, uint8_t *, size_t *, const uint8_t *, size_t))sym(h, "hwc_update");
    l->seal = (int (*)(hwc_ctx *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                       uint8_t *, uint8_t *, size_t))sym(h, "hwc_aead_seal");
    l->open = (int (*)(hwc_ctx *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                       uint8_t *, const uint8_t *, size_t))sym(h, "hwc_aead_open");
    l->set_padding = (int (*)(hwc_ctx *, int))sym(h, "hwc_set_padding");
    l->ctx = l->ctx_new();
    l->cipher = l->by_name(cipher);
    if (!l->ctx || !l->cipher) {
        fprintf(stderr, "ab_cycles: %s: no cipher %s\n", path, cipher);
        exit(2);
    }
    size_t ivl = l->iv_len(l->cipher);
    const int enc = mode != OPEN && !decrypt_stream;
    if (l->init(l->ctx, l->cipher, enc, key, l->key_len(l->cipher), ivl ? iv : NULL, ivl) != 0) {
        fprintf(stderr, "ab_cycles: %s: init failed\n", path);
        exit(2);
    }
    l->set_padding(l->ctx, 0); /* ECB/CBC; refused by the others */
}

static int op(lib *l) {
    size_t n;
    switch (mode) {
    case SEAL: return l->seal(l->ctx, iv, 12, aad, sizeof aad, in, len, out, tag, 16);
    case OPEN: return l->open(l->ctx, iv, 12, aad, sizeof aad, sealed, len, out, tag, 16);
    default:
        if (xts && l->init(l->ctx, NULL, !decrypt_stream, NULL, 0, iv, 16) != 0)
            return -1;
        return l->update(l->ctx, out, &n, in, len);
    }
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define MAX_COPIES 8

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: ab_cycles OLD.so NEW.so CIPHER BYTES stream|stream-dec|seal|open [ROUNDS [COPIES]]\n");
        return 2;
    }
    len = strtoul(argv[4], NULL, 10);
    mode = !strcmp(argv[5], "seal") ? SEAL : !strcmp(argv[5], "open") ? OPEN : STREAM;
    xts = strstr(argv[3], "xts") != NULL;
    decrypt_stream = !strcmp(argv[5], "stream-dec");
    const int rounds = argc > 6 ? atoi(argv[6]) : 40;
    const int copies = argc > 7 ? atoi(argv[7]) : 1;
    if (rounds < 1 || copies < 1 || copies > MAX_COPIES) {
        fprintf(stderr, "ab_cycles: ROUNDS must be at least 1, COPIES 1..%d\n", MAX_COPIES);
        return 2;
    }
    in = malloc(len + 64);
    out = malloc(len + 64);
    sealed = malloc(len + 64);
    if (!in || !out || !sealed)
        return 2;
    memset(in, 0x5a, len + 64);
    /* libs[2 * c + which]: copy c of OLD (which 0) and NEW (which 1). One
     * copy loads the given files themselves, as before. */
    lib libs[2 * MAX_COPIES];
    for (int c = 0; c < copies; c++)
        for (int which = 0; which < 2; which++) {
            const char *path = argv[1 + which];
            if (copies > 1)
                path = copy_of(path);
            load(&libs[2 * c + which], path, argv[3]);
            if (copies > 1)
                unlink(path);
        }
    if (mode == OPEN) {
        lib sealer;
        mode = SEAL;
        load(&sealer, argv[1], argv[3]);
        if (op(&sealer) != 0)
            return 2;
        memcpy(sealed, out, len);
        mode = OPEN;
    }
    const double cycle = ticks_per_core_cycle(200);
    const int calls = len >= 4096 ? 30 : 5, batch = len >= 4096 ? 1 : 200;
    double best[2 * MAX_COPIES];
    for (int i = 0; i < 2 * copies; i++)
        best[i] = 1e30;
    for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < 2 * copies; i++) {
            lib *l = &libs[i];
            for (int w = 0; w < 5; w++)
                if (op(l) != 0) {
                    fprintf(stderr, "ab_cycles: %s failed\n", argv[1 + i % 2]);
                    return 2;
                }
            for (int c = 0; c < calls; c++) {
                uint64_t a = ticks();
                for (int k = 0; k < batch; k++)
                    op(l);
                uint64_t b = ticks();
                const double per_call = (double)(b - a) / batch;
                if (per_call < best[i])
                    best[i] = per_call;
            }
        }
    }
    /* Per side, the median over its copies (the mean of the middle two
     * for an even count) and the range. */
    double side[2][MAX_COPIES], median[2];
    for (int which = 0; which < 2; which++) {
        for (int c = 0; c < copies; c++)
            side[which][c] = best[2 * c + which] / cycle / (double)len;
        qsort(side[which], (size_t)copies, sizeof(double), by_value);
        median[which] = (side[which][(copies - 1) / 2] + side[which][copies / 2]) / 2;
    }
    printf("%s %s %zu B: old %.3f new %.3f cycles/byte, new/old time %.3f", argv[3], argv[5], len, median[0],
           median[1], median[1] / median[0]);
    if (copies > 1)
        printf(" (medians of %d copies each; old %.3f-%.3f, new %.3f-%.3f)", copies, side[0][0],
               side[0][copies - 1], side[1][0], side[1][copies - 1]);
    printf("\n");
    return 0;
}

#else
int main(void) {
    printf("SKIP ab_cycles: x86-64 with GCC or Clang only (RDTSCP)\n");
    return 0;
}
#endif
