/*
 * TLS on loopback with hwcrypt's provider doing the record encryption.
 *
 * A library context loads the default provider and hwcrypt's, and prefers
 * hwcrypt ("?provider=hwcrypt", as the README's system-wide config does).
 * A client and a server (two threads, one socketpair, a throwaway P-256
 * key and self-signed certificate made here) negotiate each suite below;
 * the client sends N MiB, the server hashes what it receives, and the
 * SHA-256 of both ends must match.  That hwcrypt did the record work is
 * shown, not assumed: the provider's "hwcrypt-gcm-bytes" counter must grow
 * by at least 2 N MiB (sealed by the client, opened by the server).  TLS
 * 1.3 with AES-128-CCM (N/8 MiB, "hwcrypt-bytes") covers CCM's
 * length-first EVP use by libssl, and TLS 1.2 with AES-256-CBC-SHA384, with
 * and without encrypt-then-MAC, the CBC record processing.  A control run in a context that
 * excludes hwcrypt must leave the counters unchanged.
 *
 * usage: prov_tls <dir with hwcrypt.so> [MiB per suite]
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "prov_check.h"

#define CHUNK 16384
#define TIME_LIMIT 100 /* seconds for the whole program */

static EVP_PKEY *pkey;
static X509 *cert;

static void on_alarm(int sig) {
    (void)sig;
    static const char msg[] = "FAIL: prov_tls did not finish in time\n";
    (void)!write(1, msg, sizeof msg - 1);
    _exit(1);
}

static int make_cert(OSSL_LIB_CTX *libctx) {
    pkey = EVP_PKEY_Q_keygen(libctx, NULL, "EC", "P-256");
    cert = X509_new_ex(libctx, NULL);
    if (!pkey || !cert)
        return 0;
    X509_NAME *name = X509_get_subject_name(cert);
    int ok = X509_set_version(cert, X509_VERSION_3) && ASN1_INTEGER_set(X509_get_serialNumber(cert), 1) &&
             X509_gmtime_adj(X509_getm_notBefore(cert), -3600) && X509_gmtime_adj(X509_getm_notAfter(cert), 3600) &&
             X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1, -1, 0) &&
             X509_set_issuer_name(cert, name) && X509_set_pubkey(cert, pkey) && X509_sign(cert, pkey, EVP_sha256());
    return ok;
}

typedef struct suite {
    int version;
    const char *name;    /* OpenSSL's name, as SSL_CIPHER_get_name reports it */
    const char *counter; /* the provider counter that must grow */
    int no_etm;          /* CBC: MAC-then-encrypt instead of encrypt-then-MAC */
    int handed_over;     /* hwcrypt hands the records to the default provider: the counter must not move */
} suite;

typedef struct server_job {
    SSL *ssl;
    size_t received;
    unsigned char digest[32];
    int ok;
} server_job;

static void *server_main(void *arg) {
    server_job *j = arg;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    static unsigned char buf[CHUNK];
    j->ok = SSL_accept(j->ssl) == 1 && EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    while (j->ok) {
        int n = SSL_read(j->ssl, buf, sizeof buf);
        if (n <= 0) {
            j->ok = SSL_get_error(j->ssl, n) == SSL_ERROR_ZERO_RETURN; /* the client's close_notify */
            break;
        }
        j->received += (size_t)n;
        EVP_DigestUpdate(md, buf, (size_t)n);
    }
    unsigned int dlen = 0;
    j->ok = j->ok && EVP_DigestFinal_ex(md, j->digest, &dlen);
    if (j->ok)
        SSL_shutdown(j->ssl);
    EVP_MD_CTX_free(md);
    return NULL;
}

static uint64_t counter(OSSL_PROVIDER *prov, const char *name) {
    uint64_t v = 0;
    OSSL_PARAM p[] = {OSSL_PARAM_construct_uint64(name, &v), OSSL_PARAM_construct_end()};
    if (!OSSL_PROVIDER_get_params(prov, p) || !OSSL_PARAM_modified(p))
        return UINT64_MAX;
    return v;
}

static SSL_CTX *make_ctx(OSSL_LIB_CTX *libctx, const suite *s, int server) {
    SSL_CTX *ctx = SSL_CTX_new_ex(libctx, NULL, server ? TLS_server_method() : TLS_client_method());
    if (!ctx)
        return NULL;
    int ok = SSL_CTX_set_min_proto_version(ctx, s->version) && SSL_CTX_set_max_proto_version(ctx, s->version);
    if (s->version == TLS1_3_VERSION)
        ok = ok && SSL_CTX_set_ciphersuites(ctx, s->name);
    else
        ok = ok && SSL_CTX_set_cipher_list(ctx, s->name);
    if (server)
        ok = ok && SSL_CTX_use_certificate(ctx, cert) && SSL_CTX_use_PrivateKey(ctx, pkey);
    if (s->no_etm)
        SSL_CTX_set_options(ctx, SSL_OP_NO_ENCRYPT_THEN_MAC);
    if (!ok) {
        SSL_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/* One connection: client sends `total` bytes; returns the bytes sent, or 0. */
static size_t run_connection(OSSL_LIB_CTX *libctx, const suite *s, size_t total, const char *label) {
    SSL_CTX *sctx = make_ctx(libctx, s, 1), *cctx = make_ctx(libctx, s, 0);
    CHECK(sctx && cctx, "%s %s: SSL_CTX setup", label, s->name);
    if (!sctx || !cctx)
        return 0;
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
        CHECK(0, "socketpair");
        return 0;
    }
    struct timeval tv = {TIME_LIMIT, 0};
    setsockopt(fds[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fds[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    SSL *ssl_s = SSL_new(sctx), *ssl_c = SSL_new(cctx);
    SSL_set_fd(ssl_s, fds[0]);
    SSL_set_fd(ssl_c, fds[1]);
    server_job job = {ssl_s, 0, {0}, 0};
    pthread_t th;
    pthread_create(&th, NULL, server_main, &job);

    int ok = SSL_connect(ssl_c) == 1;
    CHECK(ok, "%s %s: handshake", label, s->name);
    const char *got = ok ? SSL_CIPHER_get_name(SSL_get_current_cipher(ssl_c)) : "";
    CHECK(ok && strcmp(got, s->name) == 0 && SSL_version(ssl_c) == s->version, "%s: negotiated %s version %x",
          s->name, got, ok ? SSL_version(ssl_c) : 0);

    static unsigned char data[1 << 20];
    unsigned char digest[32];
    unsigned int dlen = 0;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_DigestInit_ex(md, EVP_sha256(), NULL);
    size_t sent = 0;
    uint32_t x = 0x12345678u ^ (uint32_t)total;
    while (ok && sent < total) {
        size_t n = total - sent < CHUNK ? total - sent : CHUNK;
        if ((sent & (sizeof data - 1)) == 0) /* fresh bytes every MiB */
            for (size_t i = 0; i < sizeof data; i++) {
                x = x * 1664525u + 1013904223u;
                data[i] = (unsigned char)(x >> 24);
            }
        unsigned char *p = data + (sent & (sizeof data - 1));
        int w = SSL_write(ssl_c, p, (int)n);
        if (w <= 0) {
            ok = 0;
            break;
        }
        EVP_DigestUpdate(md, p, (size_t)w);
        sent += (size_t)w;
    }
    EVP_DigestFinal_ex(md, digest, &dlen);
    EVP_MD_CTX_free(md);
    if (ok)
        SSL_shutdown(ssl_c);
    else
        shutdown(fds[1], SHUT_RDWR);
    pthread_join(th, NULL);
    CHECK(ok && job.ok && job.received == total && sent == total && memcmp(job.digest, digest, 32) == 0,
          "%s %s: sent %zu, received %zu, digests %s", label, s->name, sent, job.received,
          memcmp(job.digest, digest, 32) ? "differ" : "match");
    SSL_free(ssl_c);
    SSL_free(ssl_s);
    close(fds[0]);
    close(fds[1]);
    SSL_CTX_free(sctx);
    SSL_CTX_free(cctx);
    return ok && job.ok ? sent : 0;
}

static OSSL_LIB_CTX *make_libctx(const char *dir, const char *props, OSSL_PROVIDER **hw, OSSL_PROVIDER **def) {
    OSSL_LIB_CTX *libctx = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(libctx, dir);
    *def = OSSL_PROVIDER_load(libctx, "default");
    *hw = OSSL_PROVIDER_load(libctx, "hwcrypt");
    if (!*def || !*hw || !EVP_set_default_properties(libctx, props)) {
        ERR_print_errors_fp(stdout);
        return NULL;
    }
    return libctx;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s <provider dir> [MiB per suite]\n", argv[0]);
        return 2;
    }
    size_t mib = argc > 2 ? (size_t)atoi(argv[2]) : 64;
    signal(SIGALRM, on_alarm);
    signal(SIGPIPE, SIG_IGN);
    alarm(TIME_LIMIT);
    /* Under valgrind (check-valgrind sets HWC_TEST_STRIDE), AES runs
     * emulated: 1 MiB per suite keeps it in minutes. */
    if (prov_slow_run() && mib > 1) {
        printf("slow run (HWC_TEST_STRIDE): 1 MiB per suite instead of %zu\n", mib);
        mib = 1;
        alarm(6 * TIME_LIMIT);
    }

    OSSL_PROVIDER *hw = NULL, *def = NULL, *hw_ctl = NULL, *def_ctl = NULL;
    OSSL_LIB_CTX *libctx = make_libctx(argv[1], "?provider=hwcrypt", &hw, &def);
    if (!libctx || !make_cert(libctx)) {
        printf("FAIL: setup (providers, key, certificate)\n");
        ERR_print_errors_fp(stdout);
        return 1;
    }
    static const suite suites[] = {
        {TLS1_3_VERSION, "TLS_AES_128_GCM_SHA256", "hwcrypt-gcm-bytes", 0, 0},
        {TLS1_3_VERSION, "TLS_AES_256_GCM_SHA384", "hwcrypt-gcm-bytes", 0, 0},
        {TLS1_2_VERSION, "ECDHE-ECDSA-AES128-GCM-SHA256", "hwcrypt-gcm-bytes", 0, 0},
        {TLS1_2_VERSION, "ECDHE-ECDSA-AES256-GCM-SHA384", "hwcrypt-gcm-bytes", 0, 0},
        /* CCM's length-first EVP rules, as libssl drives them for TLS 1.3. */
        {TLS1_3_VERSION, "TLS_AES_128_CCM_SHA256", "hwcrypt-bytes", 0, 0},
        /* CBC records (tls-version, tls-mac-size, padding and MAC checks in
         * the provider), with encrypt-then-MAC and MAC-then-encrypt. A
         * SHA-384 suite, since OpenSSL has no stitched AES-CBC-HMAC for it
         * that libssl would take from the default provider instead. */
        {TLS1_2_VERSION, "ECDHE-ECDSA-AES256-SHA384", "hwcrypt-bytes", 0, 0},
        {TLS1_2_VERSION, "ECDHE-ECDSA-AES256-SHA384", "hwcrypt-bytes", 1, 0},
        /* TLS 1.2 AES-CCM records: hwcrypt's CCM is fetched first and
         * hands them to the default provider (they used to fail). */
        {TLS1_2_VERSION, "ECDHE-ECDSA-AES128-CCM", "hwcrypt-bytes", 0, 1},
    };
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        size_t total = (suites[i].counter[8] == 'g' ? mib : (mib + 7) / 8) << 20; /* CCM: a smaller check */
        uint64_t before = counter(hw, suites[i].counter);
        struct timeval t0, t1;
        gettimeofday(&t0, NULL);
        size_t sent = run_connection(libctx, &suites[i], total, "hwcrypt preferred");
        gettimeofday(&t1, NULL);
        uint64_t after = counter(hw, suites[i].counter);
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_usec - t0.tv_usec) * 1e-6;
        CHECK(before != UINT64_MAX && after != UINT64_MAX &&
                  (suites[i].handed_over ? sent == total && after - before < total / 4
                                         : after - before >= 2 * (uint64_t)total),
              "%s: %s grew by %llu, expected >= %llu (2 x %zu)", suites[i].name, suites[i].counter,
              (unsigned long long)(after - before), 2ull * total, total);
        printf("%-32s %s%s, %zu MiB in %.2f s; %s +%llu\n", suites[i].name,
               suites[i].version == TLS1_3_VERSION ? "TLSv1.3" : "TLSv1.2", suites[i].no_etm ? " (no ETM)" : "",
               sent >> 20, secs, suites[i].counter,
               (unsigned long long)(after - before));
    }

    /* Control: the same connection in a context that excludes hwcrypt must
     * not move the counter, so the counter tells who did the work. */
    OSSL_LIB_CTX *ctl = make_libctx(argv[1], "provider!=hwcrypt", &hw_ctl, &def_ctl);
    CHECK(ctl != NULL, "control context");
    if (ctl) {
        uint64_t before = counter(hw, "hwcrypt-bytes");
        size_t sent = run_connection(ctl, &suites[0], 1 << 20, "control");
        uint64_t after = counter(hw, "hwcrypt-bytes");
        CHECK(sent == 1 << 20 && after == before, "control run (hwcrypt excluded) moved hwcrypt-bytes by %llu",
              (unsigned long long)(after - before));
        printf("control (provider!=hwcrypt): 1 MiB, hwcrypt-bytes +%llu\n", (unsigned long long)(after - before));
        OSSL_PROVIDER_unload(hw_ctl);
        OSSL_PROVIDER_unload(def_ctl);
        OSSL_LIB_CTX_free(ctl);
    }
    X509_free(cert);
    EVP_PKEY_free(pkey);
    OSSL_PROVIDER_unload(hw);
    OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(libctx);
    printf("%lu checks, %lu failed\n", checks, failures);
    return failures ? 1 : 0;
}
