/* Block key setup below the modes: every mode's set_key calls it with the
 * back end that dispatch chose, so the key-length rule lives in one place. */
#include "backend.h"

int hwc_block_set_key(const hwc_block_impl *impl, hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    int ok = impl->family == HWC_FAMILY_SM4 ? key_len == 16 : (key_len == 16 || key_len == 24 || key_len == 32);
    if (!ok)
        return HWC_ERR_KEY_LEN;
    impl->set_key(ks, key, key_len, want_dec);
    return HWC_OK;
}
