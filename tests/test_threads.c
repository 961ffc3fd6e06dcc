/* Threads: 8 threads released together from a barrier make the library's
 * first calls (capability probe, back-end selection), so the probe-once logic
 * runs concurrently; then each encrypts every cipher in the table with the
 * same read-only key, IV, AAD and plaintext buffers.
 *
 * Sharing model (include/hwcrypt/hwcrypt.h): a keyed hwc_ctx holds mutable
 * per-message state, so the API does not allow two threads on one context
 * and there is no separate shared key object.  What threads share is
 * read-only: the caller's key and data buffers, the cipher table, the
 * back-end tables and the probed capabilities; each thread keys its own
 * context from the shared key buffer.  The one-shot hwc_mac() and
 * hwc_key_wrap() (which make a context internally) run concurrently too.
 *
 * Results must equal a single-threaded run made afterwards.  Built and run
 * under ThreadSanitizer by `make check-sanitize` (check-tsan), which reports
 * any data race; the plain build checks the results only. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "msgrun.h"
#include "testutil.h"

#if !__has_include(<pthread.h>)
int main(void) {
    printf("SKIP: no POSIX threads in this C library\n");
    return 77;
}
#else
#include <pthread.h>

#define THREADS 8
#define MSG_LEN 100
#define MAX_CIPHERS 128

static pthread_barrier_t start_line;
static uint8_t shared_key[64], shared_iv[16], shared_aad[32], shared_pt[MSG_LEN];

typedef struct result {
    uint64_t caps;
    const char *selected_aes, *selected_sm4, *selected_ghash;
    int rc[MAX_CIPHERS];
    uint8_t out[MAX_CIPHERS][MSG_LEN + 32];
    uint8_t tag[MAX_CIPHERS][16];
    size_t out_len[MAX_CIPHERS];
    int mac_rc, wrap_rc;
    uint8_t mac[16], wrapped[40];
} result;

static result results[THREADS + 1]; /* [THREADS]: the single-threaded reference */

static void encrypt_all(result *r) {
    size_t n = hwc_cipher_count();
    for (size_t i = 0; i < n && i < MAX_CIPHERS; i++) {
        const hwc_cipher *c = hwc_cipher_at(i);
        hwc_ctx *ctx = hwc_ctx_new();
        if (!ctx) {
            r->rc[i] = HWC_ERR_NO_MEM;
            continue;
        }
        msg_io io = {shared_key, hwc_cipher_iv_len(c) ? shared_iv : NULL, hwc_cipher_iv_len(c),
                     shared_aad, (hwc_cipher_flags(c) & HWC_CIPHER_AEAD) ? sizeof shared_aad : 0,
                     shared_pt, MSG_LEN, r->out[i], r->tag[i], hwc_cipher_tag_len(c)};
        /* KW needs a multiple of 8. */
        if (hwc_cipher_mode(c) == HWC_MODE_KW)
            io.in_len = 96;
        r->rc[i] = msg_run(ctx, c, HWC_ENCRYPT, &io, &r->out_len[i]);
        hwc_ctx_free(ctx);
    }
    const hwc_cipher *cmac = hwc_cipher_by_name("aes-128-cmac"), *kw = hwc_cipher_by_name("aes-256-wrap");
    r->mac_rc = hwc_mac(cmac, shared_key, 16, NULL, 0, shared_pt, MSG_LEN, r->mac, 16);
    size_t wl = 0;
    r->wrap_rc = hwc_key_wrap(kw, shared_key, 32, shared_key + 32, 32, r->wrapped, sizeof r->wrapped, &wl);
}

static void *worker(void *arg) {
    result *r = arg;
    pthread_barrier_wait(&start_line);
    /* The first library calls of the process, all threads at once. */
    r->caps = hwc_caps();
    r->selected_aes = hwc_impl_selected(HWC_FAMILY_AES);
    r->selected_sm4 = hwc_impl_selected(HWC_FAMILY_SM4);
    r->selected_ghash = hwc_ghash_impl_selected();
    encrypt_all(r);
    return NULL;
}

int main(void) {
    /* Fixed inputs; nothing here may call into the library before the
     * threads do (the probe must happen under the race). */
    for (size_t i = 0; i < sizeof shared_key; i++)
        shared_key[i] = (uint8_t)(i * 7 + 1);
    for (size_t i = 0; i < sizeof shared_iv; i++)
        shared_iv[i] = (uint8_t)(0xa0 + i);
    for (size_t i = 0; i < sizeof shared_aad; i++)
        shared_aad[i] = (uint8_t)(i * 3);
    for (size_t i = 0; i < sizeof shared_pt; i++)
        shared_pt[i] = (uint8_t)(i * 13 + 5);

    pthread_t th[THREADS];
    if (pthread_barrier_init(&start_line, NULL, THREADS)) {
        fprintf(stderr, "pthread_barrier_init failed\n");
        return 1;
    }
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, worker, &results[t])) {
            fprintf(stderr, "pthread_create failed\n");
            return 1;
        }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    pthread_barrier_destroy(&start_line);

    result *ref = &results[THREADS];
    ref->caps = hwc_caps();
    ref->selected_aes = hwc_impl_selected(HWC_FAMILY_AES);
    ref->selected_sm4 = hwc_impl_selected(HWC_FAMILY_SM4);
    ref->selected_ghash = hwc_ghash_impl_selected();
    encrypt_all(ref);
    size_t n = hwc_cipher_count();
    CHECKF(n <= MAX_CIPHERS, "%zu ciphers, the test holds %d", n, MAX_CIPHERS);
    for (size_t i = 0; i < n && i < MAX_CIPHERS; i++)
        CHECKF(ref->rc[i] == HWC_OK, "%s: reference run returned %d (%s)", hwc_cipher_name(hwc_cipher_at(i)),
               ref->rc[i], hwc_strerror(ref->rc[i]));
    CHECK_RC(ref->mac_rc, HWC_OK);
    CHECK_RC(ref->wrap_rc, HWC_OK);

    for (int t = 0; t < THREADS; t++) {
        result *r = &results[t];
        CHECKF(r->caps == ref->caps, "thread %d saw caps %llx, want %llx", t, (unsigned long long)r->caps,
               (unsigned long long)ref->caps);
        CHECKF(r->selected_aes && !strcmp(r->selected_aes, ref->selected_aes), "thread %d selected aes=%s", t,
               r->selected_aes ? r->selected_aes : "(null)");
        CHECKF(r->selected_sm4 && !strcmp(r->selected_sm4, ref->selected_sm4), "thread %d selected sm4=%s", t,
               r->selected_sm4 ? r->selected_sm4 : "(null)");
        CHECKF(r->selected_ghash && !strcmp(r->selected_ghash, ref->selected_ghash), "thread %d selected ghash=%s",
               t, r->selected_ghash ? r->selected_ghash : "(null)");
        for (size_t i = 0; i < n && i < MAX_CIPHERS; i++) {
            const char *name = hwc_cipher_name(hwc_cipher_at(i));
            CHECKF(r->rc[i] == ref->rc[i] && r->out_len[i] == ref->out_len[i] &&
                       memcmp(r->out[i], ref->out[i], ref->out_len[i]) == 0 &&
                       memcmp(r->tag[i], ref->tag[i], sizeof r->tag[i]) == 0,
                   "thread %d, %s: output differs from the single-threaded run", t, name);
        }
        CHECKF(r->mac_rc == HWC_OK && memcmp(r->mac, ref->mac, 16) == 0, "thread %d: hwc_mac differs", t);
        CHECKF(r->wrap_rc == HWC_OK && memcmp(r->wrapped, ref->wrapped, 40) == 0, "thread %d: hwc_key_wrap differs",
               t);
    }
    printf("test_threads: %d threads, %zu ciphers each, selected aes=%s sm4=%s ghash=%s\n", THREADS, n,
           ref->selected_aes, ref->selected_sm4, ref->selected_ghash);
    return test_summary("test_threads");
}
#endif
