/* Guard pages: every cipher in the table, every length 0..300, on every
 * available back end, with each buffer (key, IV, AAD, input, output, tag)
 * placed so that it ends exactly at an inaccessible (PROT_NONE) page, and
 * again so that it starts right after one.  A read or write past either end
 * is a SIGSEGV, which fails the test (ctest reports the crash).
 *
 * Each message is encrypted, then decrypted (or the MAC verified, or the key
 * unwrapped) and must give the input back; the two placements must give the
 * same ciphertext.  First, a child process touches one byte past the end
 * and one before the start of a guarded buffer and must die of SIGSEGV:
 * proof that the guards are in place.  Lengths a mode refuses (XTS under 16 bytes, KW not a
 * multiple of 8) must return HWC_ERR_DATA_LEN without touching the guards.
 *
 * HWC_GUARD_LEN_STEP=N tests every Nth length (plus 0..33 and 300) for slow
 * runs (valgrind); the default is every length, and every 5th in cross
 * builds, which run under QEMU (HWC_GUARD_DEFAULT_STEP). */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "msgrun.h"
#include "testutil.h"

#define MAX_LEN 300
#ifndef HWC_GUARD_DEFAULT_STEP
#define HWC_GUARD_DEFAULT_STEP 1
#endif

/* A readable page between two PROT_NONE pages. */
typedef struct guarded {
    uint8_t *page;
    size_t page_size;
} guarded;

static int guarded_map(guarded *g) {
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *base = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        return -1;
    if (mprotect(base, ps, PROT_NONE) || mprotect(base + 2 * ps, ps, PROT_NONE))
        return -1;
    g->page = base + ps;
    g->page_size = ps;
    return 0;
}

/* n bytes ending at the upper guard (at_end) or starting at the lower one. */
static uint8_t *guarded_at(const guarded *g, size_t n, int at_end) {
    return at_end ? g->page + g->page_size - n : g->page;
}

/* The guards work: a child reading one byte outside the buffer must die of
 * SIGSEGV (before is offset -1 from the start placement, past is offset n
 * from the end placement). */
static void guards_self_test(const guarded *g, int past_end) {
    pid_t pid = fork();
    if (pid == 0) {
        const volatile uint8_t *p = past_end ? guarded_at(g, 16, 1) + 16 : guarded_at(g, 16, 0) - 1;
        _exit(*p == 0x55 ? 3 : 4); /* reached only if the read did not fault */
    }
    int status = 0;
    if (!CHECK(pid > 0 && waitpid(pid, &status, 0) == pid))
        return;
    /* Killed by SIGSEGV; or, when a sanitizer handles the signal, exited
     * with its error status (1): the child exits 3 or 4 only if the read
     * went through. */
    int faulted = (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) ||
                  (WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3 &&
                   WEXITSTATUS(status) != 4);
    CHECKF(faulted, "reading one byte %s a guarded buffer did not fault: status %#x",
           past_end ? "past the end of" : "before", (unsigned)status);
}

enum { G_KEY, G_IV, G_AAD, G_IN, G_OUT, G_TAG, G_BACK, G_COUNT };
static guarded regions[G_COUNT];

typedef struct job {
    const hwc_cipher *c;
    size_t step;
    unsigned long messages;
} job;

/* Reproducible contents (xorshift32). */
static void fill(uint8_t *p, size_t n, uint32_t *x) {
    for (size_t i = 0; i < n; i++) {
        *x ^= *x << 13;
        *x ^= *x >> 17;
        *x ^= *x << 5;
        p[i] = (uint8_t)*x;
    }
}

static int want_len(size_t len, size_t step) { return step <= 1 || len <= 33 || len == MAX_LEN || len % step == 0; }

static void one(job *j, const char *impl, size_t len, int at_end, uint8_t *ct_seen, size_t *ct_seen_len) {
    const hwc_cipher *c = j->c;
    unsigned f = hwc_cipher_flags(c);
    size_t key_len = hwc_cipher_key_len(c), iv_len = msg_iv_len(c), tag_len = hwc_cipher_tag_len(c);
    size_t aad_len = (f & HWC_CIPHER_AEAD) ? len % 41 : 0;
    size_t cap = msg_out_cap(c, len, 1);

    /* Fill deterministic contents at this placement. */
    uint8_t key[64], iv[16], aad[64], pt[MAX_LEN];
    uint32_t x = 0x6a09e667u + (uint32_t)len;
    fill(key, sizeof key, &x);
    if (hwc_cipher_mode(c) == HWC_MODE_XTS)
        key[key_len / 2] = (uint8_t)(key[0] ^ 0x5a); /* halves never equal */
    fill(iv, sizeof iv, &x);
    fill(aad, sizeof aad, &x);
    fill(pt, sizeof pt, &x);

    msg_io io = {0};
    uint8_t *gkey = guarded_at(&regions[G_KEY], key_len, at_end);
    memcpy(gkey, key, key_len);
    io.key = gkey;
    io.iv_len = iv_len;
    io.iv = iv_len ? guarded_at(&regions[G_IV], iv_len, at_end) : NULL;
    if (iv_len)
        memcpy((uint8_t *)io.iv, iv, iv_len);
    io.aad_len = aad_len;
    io.aad = guarded_at(&regions[G_AAD], aad_len, at_end);
    memcpy((uint8_t *)io.aad, aad, aad_len);
    io.in_len = len;
    io.in = guarded_at(&regions[G_IN], len, at_end);
    memcpy((uint8_t *)io.in, pt, len);
    io.out = guarded_at(&regions[G_OUT], cap, at_end);
    io.tag_len = tag_len;
    io.tag = guarded_at(&regions[G_TAG], tag_len, at_end);

    hwc_ctx *ctx = hwc_ctx_new();
    if (!CHECK(ctx != NULL))
        return;
    CHECK_RC(hwc_ctx_set_impl(ctx, impl), HWC_OK);
    size_t ct_len = 0;
    int rc = msg_run(ctx, c, HWC_ENCRYPT, &io, &ct_len);
    j->messages++;
    if (!msg_len_ok(c, len)) {
        CHECKF(rc == HWC_ERR_DATA_LEN, "%s on %s, length %zu: got %d (%s), want HWC_ERR_DATA_LEN", hwc_cipher_name(c),
               impl, len, rc, hwc_strerror(rc));
        hwc_ctx_free(ctx);
        return;
    }
    if (!CHECKF(rc == HWC_OK, "%s on %s, length %zu, %s: encrypt returned %d (%s)", hwc_cipher_name(c), impl, len,
                at_end ? "at end" : "at start", rc, hwc_strerror(rc))) {
        hwc_ctx_free(ctx);
        return;
    }
    int mac = (f & HWC_CIPHER_MAC) != 0;
    CHECKF(mac || ct_len == cap, "%s on %s, length %zu: wrote %zu bytes, want %zu", hwc_cipher_name(c), impl, len,
           ct_len, cap);

    /* Same ciphertext (or tag) at both placements. */
    const uint8_t *produced = mac ? io.tag : io.out;
    size_t produced_len = mac ? tag_len : ct_len;
    uint8_t got[MAX_LEN + 32];
    memcpy(got, produced, produced_len);
    if ((f & HWC_CIPHER_AEAD) && produced_len + tag_len <= sizeof got) {
        memcpy(got + produced_len, io.tag, tag_len);
        produced_len += tag_len;
    }
    if (!at_end) {
        memcpy(ct_seen, got, produced_len);
        *ct_seen_len = produced_len;
    } else {
        CHECKF(*ct_seen_len == produced_len && memcmp(ct_seen, got, produced_len) == 0,
               "%s on %s, length %zu: output differs between the two placements", hwc_cipher_name(c), impl, len);
    }

    /* Back again: the ciphertext moves to the input region, the result to
     * the "back" region, sized as the API documents for decryption. */
    msg_io dec = io;
    if (!mac) {
        uint8_t *gin = guarded_at(&regions[G_IN], ct_len, at_end);
        memmove(gin, io.out, ct_len);
        dec.in = gin;
        dec.in_len = ct_len;
        size_t back_cap = msg_out_cap(c, ct_len, 0);
        dec.out = guarded_at(&regions[G_BACK], back_cap, at_end);
    }
    size_t back_len = 0;
    rc = msg_run(ctx, c, HWC_DECRYPT, &dec, &back_len);
    j->messages++;
    if (CHECKF(rc == HWC_OK, "%s on %s, length %zu, %s: decrypt returned %d (%s)", hwc_cipher_name(c), impl, len,
               at_end ? "at end" : "at start", rc, hwc_strerror(rc)) &&
        !mac) {
        CHECKF(back_len == len && memcmp(dec.out, pt, len) == 0, "%s on %s, length %zu: round trip differs",
               hwc_cipher_name(c), impl, len);
    }
    hwc_ctx_free(ctx);
}

static void run_impl(const char *impl, void *arg) {
    job *j = arg;
    uint8_t ct_seen[MAX_LEN + 64];
    size_t ct_seen_len = 0;
    unsigned long failed_before = test_failed;
    for (size_t len = 0; len <= MAX_LEN; len++) {
        if (!want_len(len, j->step))
            continue;
        one(j, impl, len, 0, ct_seen, &ct_seen_len);
        one(j, impl, len, 1, ct_seen, &ct_seen_len);
    }
    printf("%-20s %-9s %s\n", hwc_cipher_name(j->c), impl, test_failed == failed_before ? "ok" : "FAILED");
}

int main(void) {
    for (size_t i = 0; i < G_COUNT; i++)
        if (guarded_map(&regions[i])) {
            perror("mmap/mprotect");
            return 1;
        }
    guards_self_test(&regions[G_IN], 1);
    guards_self_test(&regions[G_IN], 0);
    const char *s = getenv("HWC_GUARD_LEN_STEP");
    job j = {0};
    j.step = s ? strtoul(s, NULL, 10) : HWC_GUARD_DEFAULT_STEP;
    if (j.step > 1)
        printf("length step %zu: lengths 0..33, every %zuth, and %d\n", j.step, j.step, MAX_LEN);
    size_t ciphers = 0;
    const char *only = getenv("HWC_TEST_IMPL");
    for (size_t i = 0; i < hwc_cipher_count(); i++) {
        j.c = hwc_cipher_at(i);
        if (test_each_impl(hwc_cipher_family(j.c), run_impl, &j) > 0)
            ciphers++;
        else if (only && *only)
            test_skip(hwc_cipher_name(j.c), "HWC_TEST_IMPL names a back end of the other family");
    }
    /* Every cipher has at least ct, unless HWC_TEST_IMPL limits the run. */
    CHECKF(ciphers == hwc_cipher_count() || (only && *only && ciphers > 0), "%zu of %zu ciphers ran", ciphers,
           hwc_cipher_count());
    printf("test_guard_pages: %zu ciphers, %lu messages\n", ciphers, j.messages);
    return test_summary("test_guard_pages");
}
