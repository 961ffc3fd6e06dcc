/*
 * hwcrypt's OpenSSL 3 provider: the entry point, provider parameters and
 * counters, errors.  Ciphers are in cipher.c, MACs in mac.c.
 */
#define _GNU_SOURCE /* secure_getenv */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/crypto.h> /* OSSL_LIB_CTX_new_child */
#include <openssl/proverr.h>

#include "prov.h"

/* The only symbol the module exports (see hwcrypt.map). */
__attribute__((visibility("default"))) OSSL_provider_init_fn OSSL_provider_init;

static _Atomic uint64_t bytes_all, bytes_gcm;

void hwcp_count_bytes(uint64_t n, int gcm) {
    atomic_fetch_add_explicit(&bytes_all, n, memory_order_relaxed);
    if (gcm)
        atomic_fetch_add_explicit(&bytes_gcm, n, memory_order_relaxed);
}

/* ----------------------------------------------------------------- errors */

static OSSL_FUNC_core_new_error_fn *core_new_error;
static OSSL_FUNC_core_set_error_debug_fn *core_set_error_debug;
static OSSL_FUNC_core_vset_error_fn *core_vset_error;

/* Reason codes are the hwc_err values negated (1..15); 16 is "provider". */
#define HWCP_REASON_PROVIDER 16
static OSSL_ITEM reason_strings[HWCP_REASON_PROVIDER + 1];

static void core_set_error(const hwcp_provctx *pc, uint32_t reason, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    core_vset_error(pc->handle, reason, fmt, ap);
    va_end(ap);
}

/* The hwcrypt errors that OpenSSL's providers report with a reason of
 * their own go on the queue under that reason (library "Provider routines"),
 * since programs look for those: pyca, for one, turns
 * PROV_R_XTS_DUPLICATED_KEYS and PROV_R_WRONG_FINAL_BLOCK_LENGTH into a
 * ValueError, and anything else into an InternalError.  The others keep
 * hwcrypt's own reason codes.  0: no OpenSSL equivalent. */
static int openssl_reason(int rc) {
    switch (rc) {
    case HWC_ERR_KEY_LEN:
        return PROV_R_INVALID_KEY_LENGTH;
    case HWC_ERR_IV_LEN:
        return PROV_R_INVALID_IV_LENGTH;
    case HWC_ERR_TAG_LEN:
        return PROV_R_INVALID_TAG_LENGTH;
    case HWC_ERR_PADDING:
        return PROV_R_BAD_DECRYPT;
    case HWC_ERR_WEAK_KEY:
        return PROV_R_XTS_DUPLICATED_KEYS;
    case HWC_ERR_BUFFER:
        return PROV_R_OUTPUT_BUFFER_TOO_SMALL;
    default:
        return 0;
    }
}

void hwcp_error_reason(const hwcp_provctx *pc, int prov_reason, int rc, const char *what) {
    if (!pc || !core_new_error || !core_set_error_debug || !core_vset_error)
        return;
    core_new_error(pc->handle);
    core_set_error_debug(pc->handle, NULL, 0, NULL);
    if (prov_reason == 0)
        prov_reason = openssl_reason(rc);
    /* A reason with a library number set is taken as that library's. */
    uint32_t reason = prov_reason ? (uint32_t)ERR_PACK(ERR_LIB_PROV, 0, prov_reason)
                      : rc < 0 && rc >= -15 ? (uint32_t)-rc
                                            : HWCP_REASON_PROVIDER;
    if (rc < 0 && rc >= -15)
        core_set_error(pc, reason, "hwcrypt: %s: %s", what, hwc_strerror(rc));
    else
        core_set_error(pc, reason, "hwcrypt: %s", what);
}

void hwcp_error(const hwcp_provctx *pc, int rc, const char *what) { hwcp_error_reason(pc, 0, rc, what); }

static pthread_once_t reasons_once = PTHREAD_ONCE_INIT;

static void init_reason_strings(void) {
    for (int i = 1; i <= 15; i++) {
        reason_strings[i - 1].id = (unsigned)i;
        reason_strings[i - 1].ptr = (void *)hwc_strerror(-i);
    }
    reason_strings[15].id = HWCP_REASON_PROVIDER;
    reason_strings[15].ptr = (void *)"hwcrypt provider error";
}

static const OSSL_ITEM *prov_reason_strings(void *provctx) {
    (void)provctx;
    return reason_strings;
}

/* ------------------------------------------------------------- parameters */

static const OSSL_PARAM prov_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(HWCP_PARAM_BYTES, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(HWCP_PARAM_GCM_BYTES, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 0),
    OSSL_PARAM_DEFN(HWCP_PARAM_AES_IMPL, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(HWCP_PARAM_SM4_IMPL, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(HWCP_PARAM_GHASH_IMPL, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *prov_gettable_params(void *provctx) {
    (void)provctx;
    return prov_param_types;
}

static int set_ptr(OSSL_PARAM params[], const char *key, const char *value) {
    OSSL_PARAM *p = OSSL_PARAM_locate(params, key);
    return p == NULL || OSSL_PARAM_set_utf8_ptr(p, value ? value : "none");
}

static int prov_get_params(void *provctx, OSSL_PARAM params[]) {
    (void)provctx;
    OSSL_PARAM *p;
    if (!set_ptr(params, OSSL_PROV_PARAM_NAME, "hwcrypt provider") ||
        !set_ptr(params, OSSL_PROV_PARAM_VERSION, hwc_version()) ||
        !set_ptr(params, OSSL_PROV_PARAM_BUILDINFO, "hwcrypt " HWC_VERSION_STRING) ||
        !set_ptr(params, HWCP_PARAM_AES_IMPL, hwc_impl_selected(HWC_FAMILY_AES)) ||
        !set_ptr(params, HWCP_PARAM_SM4_IMPL, hwc_impl_selected(HWC_FAMILY_SM4)) ||
        !set_ptr(params, HWCP_PARAM_GHASH_IMPL, hwc_ghash_impl_selected()))
        return 0;
    if ((p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS)) && !OSSL_PARAM_set_int(p, 1))
        return 0;
    if ((p = OSSL_PARAM_locate(params, HWCP_PARAM_BYTES)) &&
        !OSSL_PARAM_set_uint64(p, atomic_load_explicit(&bytes_all, memory_order_relaxed)))
        return 0;
    if ((p = OSSL_PARAM_locate(params, HWCP_PARAM_GCM_BYTES)) &&
        !OSSL_PARAM_set_uint64(p, atomic_load_explicit(&bytes_gcm, memory_order_relaxed)))
        return 0;
    return 1;
}

/* ------------------------------------------------------------- operations */

static const OSSL_ALGORITHM *prov_query(void *provctx, int operation_id, int *no_cache) {
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_CIPHER:
        return hwcp_ciphers;
    case OSSL_OP_MAC:
        return hwcp_macs;
    default:
        return NULL;
    }
}

OSSL_LIB_CTX *hwcp_others(hwcp_provctx *pc) {
    pthread_mutex_lock(&pc->lock);
    if (!pc->others)
        pc->others = OSSL_LIB_CTX_new_child(pc->handle, pc->core_in);
    OSSL_LIB_CTX *ctx = pc->others;
    pthread_mutex_unlock(&pc->lock);
    if (!ctx)
        hwcp_error(pc, HWC_ERR_NO_MEM, "child library context");
    return ctx;
}

/* ----------------------------------------------------------------- report */

/* Provider instances alive in this process: one per library context that
 * loaded the module, child contexts included. */
static atomic_int instances;

/* The program's name from /proc/self/comm ("?" when unreadable), with
 * anything but [A-Za-z0-9._-] replaced so the line stays key=value. */
static void program_name(char *name, size_t size) {
    ssize_t n = -1;
    int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        n = read(fd, name, size - 1);
        close(fd);
    }
    if (n <= 0) {
        snprintf(name, size, "?");
        return;
    }
    if (name[n - 1] == '\n')
        n--;
    name[n] = 0;
    for (ssize_t i = 0; i < n; i++) {
        char ch = name[i];
        int plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                    ch == '_' || ch == '-';
        if (!plain)
            name[i] = '_';
    }
}

/* Opt-in, for an operator asking whether a program (nginx, curl, ...)
 * really ran on hwcrypt, which such programs cannot be asked: when
 * HWCRYPT_PROVIDER_REPORT names a file, the last instance's teardown
 * (normally at exit, from OpenSSL's cleanup) appends one line with the pid,
 * the program's name and the counters.  secure_getenv: a setuid or setgid
 * program ignores the variable.  Every failure is silent (no report, the
 * program unaffected); errno is kept as the program left it. */
static void write_report(void) {
    const char *path = secure_getenv("HWCRYPT_PROVIDER_REPORT");
    if (path == NULL || *path == 0)
        return;
    int saved_errno = errno;
    char name[64], line[256];
    program_name(name, sizeof name);
    const char *aes = hwc_impl_selected(HWC_FAMILY_AES);
    int len = snprintf(line, sizeof line,
                       "hwcrypt-provider pid=%ld comm=%s hwcrypt-bytes=%" PRIu64 " hwcrypt-gcm-bytes=%" PRIu64
                       " aes-impl=%s\n",
                       (long)getpid(), name, (uint64_t)atomic_load_explicit(&bytes_all, memory_order_relaxed),
                       (uint64_t)atomic_load_explicit(&bytes_gcm, memory_order_relaxed), aes ? aes : "none");
    if (len > 0 && (size_t)len < sizeof line) {
        /* O_APPEND and one write: lines of processes sharing the file do
         * not interleave. */
        int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd >= 0) {
            ssize_t w = write(fd, line, (size_t)len);
            (void)w;
            close(fd);
        }
    }
    errno = saved_errno;
}

static void prov_teardown(void *provctx) {
    hwcp_provctx *pc = provctx;
    /* The child context's own instance goes first, so the count reaches 0
     * only once the last instance of the process is gone. */
    OSSL_LIB_CTX_free(pc->others);
    pthread_mutex_destroy(&pc->lock);
    free(pc);
    if (atomic_fetch_sub(&instances, 1) == 1)
        write_report();
}

static const OSSL_DISPATCH prov_dispatch[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))prov_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))prov_query},
    {OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))prov_reason_strings},
    {0, NULL}};

int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *core_in, const OSSL_DISPATCH **out,
                       void **provctx) {
    for (const OSSL_DISPATCH *in = core_in; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            core_new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            core_set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            core_vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        default:
            break;
        }
    }
    /* HWCRYPT_CAPS may name capabilities the library does not know: refuse
     * to load rather than run on a selection nobody asked for. */
    if (hwc_caps_error() != NULL)
        return 0;
    pthread_once(&reasons_once, init_reason_strings); /* one module, many library contexts */
    hwcp_provctx *pc = calloc(1, sizeof *pc);
    if (!pc)
        return 0;
    pc->handle = handle;
    pc->core_in = core_in;
    pthread_mutex_init(&pc->lock, NULL);
    atomic_fetch_add(&instances, 1);
    *provctx = pc;
    *out = prov_dispatch;
    return 1;
}
