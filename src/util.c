/* Small shared helpers: wiping, constant-time comparison, error strings. */
#include "backend.h"

void hwc_wipe(void *p, size_t n) {
    /* The volatile function pointer keeps the compiler from proving the
     * store dead and removing it. */
    static void *(*const volatile memset_v)(void *, int, size_t) = memset;
    if (p && n)
        memset_v(p, 0, n);
}

int hwc_ct_memcmp(const void *a, const void *b, size_t n) {
    const volatile uint8_t *x = a, *y = b;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (uint8_t)(x[i] ^ y[i]);
    HWC_DECLASSIFY(&diff, sizeof diff);
    return diff;
}

const char *hwc_strerror(int err) {
    switch (err) {
    case HWC_OK: return "success";
    case HWC_ERR_KEY_LEN: return "invalid key length for this cipher";
    case HWC_ERR_IV_LEN: return "invalid IV or nonce length";
    case HWC_ERR_TAG_LEN: return "invalid tag length";
    case HWC_ERR_DATA_LEN: return "invalid data length";
    case HWC_ERR_AUTH: return "authentication failed";
    case HWC_ERR_UNSUPPORTED: return "operation not supported by this cipher";
    case HWC_ERR_STATE: return "call not valid in the current state";
    case HWC_ERR_NULL: return "NULL pointer with non-zero length";
    case HWC_ERR_OVERLAP: return "input and output buffers partially overlap";
    case HWC_ERR_NO_MEM: return "out of memory";
    case HWC_ERR_UNKNOWN: return "unknown cipher or back end";
    case HWC_ERR_WEAK_KEY: return "key rejected (XTS key halves are equal)";
    case HWC_ERR_PADDING: return "bad padding";
    case HWC_ERR_BUFFER: return "output buffer too small";
    case HWC_ERR_UNAVAILABLE: return "back end not available on this CPU";
    default: return "unknown error";
    }
}

const char *hwc_version(void) { return HWC_VERSION_STRING; }
