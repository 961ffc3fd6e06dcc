/* The error table of docs/ERRORS.md, walked at run time.
 *
 * The test reads docs/ERRORS.md and include/hwcrypt/hwcrypt.h.  Every row
 * `| function | HWC_ERR_X | when | case |` names a case below; the case
 * must be registered for that function and must return exactly HWC_ERR_X.
 * A row whose case is missing, a case no row names, or an HWC_ERR_* code of
 * the header that no row lists is a failure: the table and the code cannot
 * drift apart silently.
 *
 * ctest runs it twice: as is, and with HWCRYPT_CAPS=none, where every
 * accelerated back end exists but is unavailable (HWC_ERR_UNAVAILABLE).  A
 * row that cannot happen in one configuration reports SKIP there. */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#ifndef HWC_ERRORS_MD
#error "HWC_ERRORS_MD (path of docs/ERRORS.md) must be defined"
#endif
#ifndef HWC_HEADER
#error "HWC_HEADER (path of include/hwcrypt/hwcrypt.h) must be defined"
#endif

/* ---------------------------------------------------- failing allocation */

/* hwc_ctx_new() uses aligned_alloc: this definition replaces the C
 * library's (dynamic linking), so HWC_ERR_NO_MEM can be triggered. */
#if HWC_TEST_INTERPOSE_ALLOC
static int alloc_fails;
void *aligned_alloc(size_t alignment, size_t size) {
    void *p = NULL;
    if (alloc_fails)
        return NULL;
    return posix_memalign(&p, alignment < sizeof(void *) ? sizeof(void *) : alignment, size) == 0 ? p : NULL;
}
/* 1 when the replacement is the one the library gets: valgrind, for one,
 * substitutes its own allocator for every aligned_alloc. */
static int alloc_can_fail(void) {
    void *(*volatile call)(size_t, size_t) = aligned_alloc; /* not the builtin: really call it */
    alloc_fails = 1;
    void *p = call(64, 64);
    alloc_fails = 0;
    free(p);
    return p == NULL;
}
#endif

/* ------------------------------------------------------------ helpers */

#define SKIPPED 1000 /* a case that cannot run here: not an hwc_err */
static const char *skip_reason;

static uint8_t key[64], iv[16], buf[256], out[512], tag[16];
static size_t n;

static const hwc_cipher *C(const char *name) {
    const hwc_cipher *c = hwc_cipher_by_name(name);
    if (!c) {
        fprintf(stderr, "no cipher %s\n", name);
        abort();
    }
    return c;
}

/* A context keyed for `name` with the default IV length (0: none). */
static hwc_ctx *ctx_for(const char *name, int enc) {
    const hwc_cipher *c = C(name);
    hwc_ctx *ctx = hwc_ctx_new();
    int rc = hwc_init(ctx, c, enc, key, hwc_cipher_key_len(c), hwc_cipher_iv_len(c) ? iv : NULL,
                      hwc_cipher_iv_len(c));
    if (rc) {
        fprintf(stderr, "setting up %s: %s\n", name, hwc_strerror(rc));
        abort();
    }
    return ctx;
}

/* Each case returns the error of the one call its function column names;
 * the context is freed by the case. */
#define CASE(id) static int case_##id(void)
#define RET(ctx, expr)                                                                                             \
    do {                                                                                                           \
        int rc_ = (expr);                                                                                          \
        hwc_ctx_free(ctx);                                                                                         \
        return rc_;                                                                                                \
    } while (0)

/* ------------------------------------------------------------- cases */

CASE(ctx_copy_null_src) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_ctx_copy(x, NULL)); }
CASE(get_iv_null_iv) { hwc_ctx *x = ctx_for("aes-128-cbc", 1); RET(x, hwc_get_iv(x, NULL, 16)); }
CASE(get_iv_waiting_for_iv) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-ctr"), 1, key, 16, NULL, 0);
    RET(x, hwc_get_iv(x, out, 16));
}
CASE(get_iv_gcm) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_get_iv(x, out, 16)); }
CASE(get_iv_len) { hwc_ctx *x = ctx_for("sm4-ofb", 1); RET(x, hwc_get_iv(x, out, 12)); }
CASE(set_impl_null_ctx) { return hwc_ctx_set_impl(NULL, "ct"); }
CASE(set_impl_unknown) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_ctx_set_impl(x, "no-such-back-end")); }
CASE(set_impl_unavailable) {
    const char *name = NULL;
    for (size_t i = 0; i < hwc_impl_count() && !name; i++)
        if (!hwc_impl_is_ghash(i) && !hwc_impl_available(i, NULL))
            name = hwc_impl_name(i);
    if (!name) {
        skip_reason = "every back end compiled in can run here (e.g. without HWCRYPT_CAPS limits)";
        return SKIPPED;
    }
    hwc_ctx *x = hwc_ctx_new();
    RET(x, hwc_ctx_set_impl(x, name));
}
CASE(init_null_ctx) { return hwc_init(NULL, C("aes-128-cbc"), 1, key, 16, iv, 16); }
CASE(init_null_iv) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, C("aes-128-cbc"), 1, key, 16, NULL, 16)); }
CASE(init_no_cipher) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, NULL, 1, key, 16, iv, 16)); }
CASE(init_no_key) {
    hwc_ctx *x = ctx_for("aes-128-cbc", 1);
    RET(x, hwc_init(x, C("aes-128-ctr"), 1, NULL, 0, iv, 16));
}
CASE(init_bad_direction) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, C("aes-128-cbc"), 2, key, 16, iv, 16)); }
CASE(init_key_len) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, C("aes-128-cbc"), 1, key, 24, iv, 16)); }
CASE(init_iv_len) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, C("aes-128-cbc"), 1, key, 16, iv, 12)); }
CASE(init_iv_for_ecb) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, C("aes-128-ecb"), 1, key, 16, iv, 16)); }
CASE(init_xts_equal_halves) {
    uint8_t k[32];
    memcpy(k, key, 16);
    memcpy(k + 16, key, 16);
    hwc_ctx *x = hwc_ctx_new();
    RET(x, hwc_init(x, C("aes-128-xts"), 1, k, 32, iv, 16));
}
CASE(init_forced_wrong_family) {
    /* A back end name of the SM4 family only (sm4-aesni, zksed64...): ct
     * exists for both, so look for one that is not an AES name. */
    const char *sm4_only = NULL;
    for (size_t i = 0; i < hwc_impl_count() && !sm4_only; i++) {
        if (hwc_impl_is_ghash(i) || hwc_impl_family(i) != HWC_FAMILY_SM4 || !hwc_impl_available(i, NULL))
            continue;
        int aes_too = 0;
        for (size_t j = 0; j < hwc_impl_count(); j++)
            aes_too |= hwc_impl_family(j) == HWC_FAMILY_AES && !strcmp(hwc_impl_name(j), hwc_impl_name(i));
        if (!aes_too)
            sm4_only = hwc_impl_name(i);
    }
    if (!sm4_only) {
        skip_reason = "no available back end of the SM4 family only (e.g. HWCRYPT_CAPS=none)";
        return SKIPPED;
    }
    hwc_ctx *x = hwc_ctx_new();
    hwc_ctx_set_impl(x, sm4_only);
    RET(x, hwc_init(x, C("aes-128-cbc"), 1, key, 16, iv, 16));
}
CASE(set_padding_null_ctx) { return hwc_set_padding(NULL, 0); }
CASE(set_padding_not_started) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-cbc"), 1, key, 16, NULL, 0);
    RET(x, hwc_set_padding(x, 0));
}
CASE(set_padding_after_data) {
    hwc_ctx *x = ctx_for("aes-128-cbc", 1);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_set_padding(x, 0));
}
CASE(set_padding_ctr) { hwc_ctx *x = ctx_for("aes-128-ctr", 1); RET(x, hwc_set_padding(x, 0)); }
CASE(set_tag_len_null_ctx) { return hwc_set_tag_len(NULL, 16); }
CASE(set_tag_len_not_started) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-gcm"), 1, key, 16, NULL, 0);
    RET(x, hwc_set_tag_len(x, 16));
}
CASE(set_tag_len_gcm_3) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_set_tag_len(x, 3)); }
CASE(set_tag_len_cbc) { hwc_ctx *x = ctx_for("aes-128-cbc", 1); RET(x, hwc_set_tag_len(x, 16)); }
CASE(set_tag_len_after_data) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 1);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_set_tag_len(x, 12));
}
CASE(set_tag_len_after_aad) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 1);
    hwc_aad(x, buf, 5);
    RET(x, hwc_set_tag_len(x, 12));
}
CASE(set_tag_len_after_empty_aad) {
    hwc_ctx *x = ctx_for("aes-128-siv", 1);
    hwc_aad(x, NULL, 0); /* an empty AD component */
    RET(x, hwc_set_tag_len(x, 16));
}
CASE(set_tag_len_after_set_tag) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 0);
    hwc_set_tag(x, tag, 16);
    RET(x, hwc_set_tag_len(x, 4));
}
CASE(set_tag_len_bad_len_not_started) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-gcm"), 1, key, 16, NULL, 0);
    RET(x, hwc_set_tag_len(x, 3));
}
CASE(set_lengths_null_ctx) { return hwc_set_lengths(NULL, 0, 0); }
CASE(set_lengths_not_started) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-ccm"), 1, key, 16, NULL, 0);
    RET(x, hwc_set_lengths(x, 0, 16));
}
CASE(set_lengths_gcm) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_set_lengths(x, 0, 16)); }
CASE(set_lengths_too_long) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-ccm"), 1, key, 16, iv, 13); /* 2 length bytes: under 65536 */
    RET(x, hwc_set_lengths(x, 0, 65536));
}
CASE(set_lengths_after_aad) {
    hwc_ctx *x = ctx_for("aes-128-ccm", 1);
    hwc_set_lengths(x, 4, 16);
    hwc_aad(x, buf, 4);
    RET(x, hwc_set_lengths(x, 4, 16));
}
CASE(set_tag_null_tag) { hwc_ctx *x = ctx_for("aes-128-gcm", 0); RET(x, hwc_set_tag(x, NULL, 16)); }
CASE(set_tag_encrypting) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_set_tag(x, tag, 16)); }
CASE(set_tag_cbc) { hwc_ctx *x = ctx_for("aes-128-cbc", 0); RET(x, hwc_set_tag(x, tag, 16)); }
CASE(set_tag_siv_15) { hwc_ctx *x = ctx_for("aes-128-siv", 0); RET(x, hwc_set_tag(x, tag, 15)); }
CASE(set_tag_siv_after_data) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_update(x, out, &n, buf, 20); /* fails authentication: the message is over */
    RET(x, hwc_set_tag(x, tag, 16));
}
CASE(get_tag_null_tag) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_get_tag(x, NULL, 16)); }
CASE(get_tag_before_final) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 1);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_get_tag(x, tag, 16));
}
CASE(get_tag_cbc) {
    hwc_ctx *x = ctx_for("aes-128-cbc", 1);
    hwc_final(x, out, &n);
    RET(x, hwc_get_tag(x, tag, 16));
}
CASE(get_tag_wrong_len) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 1);
    hwc_final(x, out, &n);
    RET(x, hwc_get_tag(x, tag, 12));
}
CASE(aad_null_aad) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_aad(x, NULL, 4)); }
CASE(aad_after_data) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 1);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_aad(x, buf, 4));
}
CASE(aad_cbc) { hwc_ctx *x = ctx_for("aes-128-cbc", 1); RET(x, hwc_aad(x, buf, 4)); }
CASE(aad_ccm_no_lengths) { hwc_ctx *x = ctx_for("aes-128-ccm", 1); RET(x, hwc_aad(x, buf, 4)); }
CASE(aad_ccm_too_much) {
    hwc_ctx *x = ctx_for("aes-128-ccm", 1);
    hwc_set_lengths(x, 4, 16);
    RET(x, hwc_aad(x, buf, 5));
}
CASE(update_null_out_len) { hwc_ctx *x = ctx_for("aes-128-ctr", 1); RET(x, hwc_update(x, out, NULL, buf, 4)); }
CASE(update_null_in) { hwc_ctx *x = ctx_for("aes-128-ctr", 1); RET(x, hwc_update(x, out, &n, NULL, 4)); }
CASE(update_overlap) { hwc_ctx *x = ctx_for("aes-128-ctr", 1); RET(x, hwc_update(x, buf + 1, &n, buf, 32)); }
CASE(update_waiting_for_iv) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-ctr"), 1, key, 16, NULL, 0);
    RET(x, hwc_update(x, out, &n, buf, 4));
}
CASE(update_after_final) {
    hwc_ctx *x = ctx_for("aes-128-ctr", 1);
    hwc_final(x, out, &n);
    RET(x, hwc_update(x, out, &n, buf, 4));
}
CASE(update_mac) { hwc_ctx *x = ctx_for("aes-128-cmac", 1); RET(x, hwc_update(x, out, &n, buf, 4)); }
CASE(update_xts_short) { hwc_ctx *x = ctx_for("aes-128-xts", 1); RET(x, hwc_update(x, out, &n, buf, 15)); }
CASE(update_xts_twice) {
    hwc_ctx *x = ctx_for("aes-128-xts", 1);
    hwc_update(x, out, &n, buf, 32);
    RET(x, hwc_update(x, out, &n, buf, 32));
}
CASE(update_ccm_too_much) {
    hwc_ctx *x = ctx_for("aes-128-ccm", 1);
    hwc_set_lengths(x, 0, 16);
    RET(x, hwc_update(x, out, &n, buf, 17));
}
CASE(update_siv_no_tag) { hwc_ctx *x = ctx_for("aes-128-siv", 0); RET(x, hwc_update(x, out, &n, buf, 20)); }
CASE(update_siv_forged) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    hwc_set_tag(x, tag, 16);
    RET(x, hwc_update(x, out, &n, buf, 20));
}
CASE(update_bits_null_in) { hwc_ctx *x = ctx_for("aes-128-cfb1", 1); RET(x, hwc_update_bits(x, out, NULL, 9)); }
CASE(update_bits_overlap) { hwc_ctx *x = ctx_for("aes-128-cfb1", 1); RET(x, hwc_update_bits(x, buf + 1, buf, 64)); }
CASE(update_bits_not_started) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-cfb1"), 1, key, 16, NULL, 0);
    RET(x, hwc_update_bits(x, out, buf, 9));
}
CASE(update_bits_null_max) {
    hwc_ctx *x = ctx_for("aes-128-cfb1", 1);
    RET(x, hwc_update_bits(x, NULL, NULL, SIZE_MAX));
}
CASE(update_huge) { hwc_ctx *x = ctx_for("aes-128-ocb", 1); RET(x, hwc_update(x, out, &n, out, SIZE_MAX - 8)); }
CASE(aad_huge) { hwc_ctx *x = ctx_for("aes-128-ocb", 1); RET(x, hwc_aad(x, buf, SIZE_MAX)); }
CASE(update_bits_cfb8) { hwc_ctx *x = ctx_for("aes-128-cfb8", 1); RET(x, hwc_update_bits(x, out, buf, 9)); }
CASE(final_null_out_len) { hwc_ctx *x = ctx_for("aes-128-cbc", 1); RET(x, hwc_final(x, out, NULL)); }
CASE(final_twice) {
    hwc_ctx *x = ctx_for("aes-128-cbc", 1);
    hwc_final(x, out, &n);
    RET(x, hwc_final(x, out, &n));
}
CASE(final_cbc_nopad_partial) {
    hwc_ctx *x = ctx_for("aes-128-cbc", 1);
    hwc_set_padding(x, 0);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_final(x, out, &n));
}
CASE(final_cbc_dec_empty) { hwc_ctx *x = ctx_for("aes-128-cbc", 0); RET(x, hwc_final(x, out, &n)); }
CASE(final_bad_padding) {
    /* Encrypt a block whose last byte is 0 with padding off: decrypted
     * with padding on, a pad byte of 0 is always wrong. */
    uint8_t block[16] = {0}, ct[16];
    hwc_ctx *x = ctx_for("aes-128-cbc", 1);
    hwc_set_padding(x, 0);
    hwc_update(x, ct, &n, block, 16);
    hwc_final(x, NULL, &n);
    hwc_init(x, NULL, 0, NULL, 0, iv, 16);
    hwc_set_padding(x, 1); /* the setting outlives hwc_init */
    hwc_update(x, out, &n, ct, 16);
    RET(x, hwc_final(x, out, &n));
}
CASE(final_ccm_short) {
    hwc_ctx *x = ctx_for("aes-128-ccm", 1);
    hwc_set_lengths(x, 0, 16);
    hwc_update(x, out, &n, buf, 15);
    RET(x, hwc_final(x, out, &n));
}
CASE(final_gcm_no_tag) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 0);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_final(x, out, &n));
}
CASE(final_gcm_forged) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 0);
    hwc_set_tag(x, tag, 16);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_final(x, out, &n));
}
CASE(seal_null_tag) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 1);
    RET(x, hwc_aead_seal(x, iv, 12, NULL, 0, buf, 20, out, NULL, 16));
}
CASE(seal_no_key) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_aead_seal(x, iv, 12, NULL, 0, buf, 20, out, tag, 16)); }
CASE(seal_ctr) { hwc_ctx *x = ctx_for("aes-128-ctr", 1); RET(x, hwc_aead_seal(x, iv, 16, NULL, 0, buf, 20, out, tag, 16)); }
CASE(seal_tag_len) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_aead_seal(x, iv, 12, NULL, 0, buf, 20, out, tag, 3)); }
CASE(seal_nonce_len) { hwc_ctx *x = ctx_for("aes-128-ccm", 1); RET(x, hwc_aead_seal(x, iv, 6, NULL, 0, buf, 20, out, tag, 16)); }
CASE(seal_overlap) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_aead_seal(x, iv, 12, NULL, 0, buf, 20, buf + 4, tag, 16)); }
CASE(open_null_in) { hwc_ctx *x = ctx_for("aes-128-gcm", 0); RET(x, hwc_aead_open(x, iv, 12, NULL, 0, NULL, 20, out, tag, 16)); }
CASE(open_forged) {
    hwc_ctx *x = ctx_for("aes-128-gcm", 0);
    memset(out, 0xee, 20);
    int rc = hwc_aead_open(x, iv, 12, NULL, 0, buf, 20, out, tag, 16);
    uint8_t zero[20] = {0};
    CHECKF(memcmp(out, zero, 20) == 0, "hwc_aead_open failing authentication must zero its output");
    RET(x, rc);
}
CASE(open_tag_len) { hwc_ctx *x = ctx_for("aes-128-gcm", 0); RET(x, hwc_aead_open(x, iv, 12, NULL, 0, buf, 20, out, tag, 17)); }
CASE(mac_final_null_tag) { hwc_ctx *x = ctx_for("aes-128-cmac", 1); RET(x, hwc_mac_final(x, NULL, 16)); }
CASE(mac_final_gmac_no_iv) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-gmac"), 1, key, 16, NULL, 0);
    RET(x, hwc_mac_final(x, tag, 16));
}
CASE(mac_final_gcm) { hwc_ctx *x = ctx_for("aes-128-gcm", 1); RET(x, hwc_mac_final(x, tag, 16)); }
CASE(mac_final_tag_len) { hwc_ctx *x = ctx_for("aes-128-cmac", 1); RET(x, hwc_mac_final(x, tag, 17)); }
CASE(mac_verify_tag_len) { hwc_ctx *x = ctx_for("aes-128-cmac", 1); RET(x, hwc_mac_verify(x, out, 17)); }
CASE(mac_final_bad_len_not_started) {
    hwc_ctx *x = hwc_ctx_new();
    hwc_init(x, C("aes-128-gmac"), 1, key, 16, NULL, 0);
    RET(x, hwc_mac_final(x, tag, 17));
}
CASE(mac_verify_after_final) {
    hwc_ctx *x = ctx_for("aes-128-cmac", 1);
    hwc_mac_final(x, tag, 16);
    RET(x, hwc_mac_verify(x, tag, 17));
}
CASE(mac_verify_wrong) {
    hwc_ctx *x = ctx_for("aes-128-cmac", 1);
    memset(tag, 0, sizeof tag);
    RET(x, hwc_mac_verify(x, tag, 16));
}
CASE(mac_verify_null_tag) { hwc_ctx *x = ctx_for("aes-128-cmac", 1); RET(x, hwc_mac_verify(x, NULL, 16)); }
CASE(mac_null_key) { return hwc_mac(C("aes-128-cmac"), NULL, 16, NULL, 0, buf, 20, tag, 16); }
CASE(mac_cbc) { return hwc_mac(C("aes-128-cbc"), key, 16, NULL, 0, buf, 20, tag, 16); }
CASE(mac_tag_len) { return hwc_mac(C("aes-128-gmac"), key, 16, iv, 12, buf, 20, tag, 3); }
CASE(mac_key_len) { return hwc_mac(C("aes-128-cmac"), key, 32, NULL, 0, buf, 20, tag, 16); }
CASE(mac_gmac_no_iv) { return hwc_mac(C("aes-128-gmac"), key, 16, NULL, 0, buf, 20, tag, 16); }
CASE(mac_no_mem) {
#if HWC_TEST_INTERPOSE_ALLOC
    if (!alloc_can_fail()) {
        skip_reason = "aligned_alloc cannot be made to fail here (replaced by the environment, e.g. valgrind)";
        return SKIPPED;
    }
    alloc_fails = 1;
    int rc = hwc_mac(C("aes-128-cmac"), key, 16, NULL, 0, buf, 20, tag, 16);
    alloc_fails = 0;
    return rc;
#else
    skip_reason = "the allocator cannot be replaced in this (static) build";
    return SKIPPED;
#endif
}
CASE(wrap_null_kek) { return hwc_key_wrap(C("aes-128-wrap"), NULL, 16, buf, 16, out, 24, &n); }
CASE(wrap_cbc) { return hwc_key_wrap(C("aes-128-cbc"), key, 16, buf, 16, out, 24, &n); }
CASE(wrap_kek_len) { return hwc_key_wrap(C("aes-128-wrap"), key, 24, buf, 16, out, 24, &n); }
CASE(wrap_kw_not_multiple_of_8) { return hwc_key_wrap(C("aes-128-wrap"), key, 16, buf, 20, out, 40, &n); }
CASE(wrap_small_out) { return hwc_key_wrap(C("aes-128-wrap"), key, 16, buf, 16, out, 23, &n); }
CASE(wrap_no_mem) {
#if HWC_TEST_INTERPOSE_ALLOC
    if (!alloc_can_fail()) {
        skip_reason = "aligned_alloc cannot be made to fail here (replaced by the environment, e.g. valgrind)";
        return SKIPPED;
    }
    alloc_fails = 1;
    int rc = hwc_key_wrap(C("aes-128-wrap"), key, 16, buf, 16, out, 24, &n);
    alloc_fails = 0;
    return rc;
#else
    skip_reason = "the allocator cannot be replaced in this (static) build";
    return SKIPPED;
#endif
}
CASE(unwrap_forged) {
    memset(out, 0xee, 24);
    int rc = hwc_key_unwrap(C("aes-128-wrap"), key, 16, buf, 24, out, 24, &n);
    uint8_t zero[24] = {0};
    CHECKF(memcmp(out, zero, 24) == 0, "hwc_key_unwrap failing its check must zero out_cap bytes");
    return rc;
}
CASE(unwrap_short) { return hwc_key_unwrap(C("aes-128-wrap"), key, 16, buf, 16, out, 24, &n); }
CASE(unwrap_small_out) { return hwc_key_unwrap(C("aes-128-wrap"), key, 16, buf, 32, out, 23, &n); }
CASE(ctx_wrap_null_out_len) { hwc_ctx *x = ctx_for("aes-128-wrap", 1); RET(x, hwc_ctx_key_wrap(x, buf, 16, out, 24, NULL)); }
CASE(ctx_wrap_no_key) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_ctx_key_wrap(x, buf, 16, out, 24, &n)); }
CASE(ctx_wrap_cbc) { hwc_ctx *x = ctx_for("aes-128-cbc", 1); RET(x, hwc_ctx_key_wrap(x, buf, 16, out, 24, &n)); }
CASE(ctx_wrap_overlap) { hwc_ctx *x = ctx_for("aes-128-wrap", 1); RET(x, hwc_ctx_key_wrap(x, buf, 16, buf + 8, 24, &n)); }
CASE(ctx_unwrap_forged) { hwc_ctx *x = ctx_for("aes-128-wrap", 0); RET(x, hwc_ctx_key_unwrap(x, buf, 24, out, 24, &n)); }
/* Lengths come before overlap: a wrong length on overlapping buffers. */
CASE(ctx_wrap_short_overlapping) {
    hwc_ctx *x = ctx_for("aes-128-wrap", 1);
    RET(x, hwc_ctx_key_wrap(x, buf, 12, buf + 8, 24, &n));
}
CASE(ctx_wrap_small_out_overlapping) {
    hwc_ctx *x = ctx_for("aes-128-wrap", 1);
    RET(x, hwc_ctx_key_wrap(x, buf, 16, buf + 8, 23, &n));
}
CASE(ctx_wrap_huge_out_cap) {
    hwc_ctx *x = ctx_for("aes-128-wrap-pad", 1);
    RET(x, hwc_ctx_key_wrap(x, buf, 16, out, SIZE_MAX, &n));
}
CASE(ctx_unwrap_short_overlapping) {
    hwc_ctx *x = ctx_for("aes-128-wrap-pad", 0);
    RET(x, hwc_ctx_key_unwrap(x, buf, 20, buf + 4, 24, &n));
}
CASE(ctx_unwrap_small_out_overlapping) {
    hwc_ctx *x = ctx_for("aes-128-wrap", 0);
    RET(x, hwc_ctx_key_unwrap(x, buf, 32, buf + 8, 23, &n));
}
CASE(ctx_unwrap_huge_out_cap) {
    hwc_ctx *x = ctx_for("aes-128-wrap", 0);
    RET(x, hwc_ctx_key_unwrap(x, buf, 24, out, (size_t)PTRDIFF_MAX + 1, &n));
}
/* SIV takes any nonce length, but not one past any buffer. */
CASE(init_iv_huge) { hwc_ctx *x = hwc_ctx_new(); RET(x, hwc_init(x, C("aes-128-siv"), 0, key, 32, iv, SIZE_MAX)); }
CASE(open_nonce_huge) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    RET(x, hwc_aead_open(x, iv, SIZE_MAX - 1, NULL, 0, buf, 20, out, tag, 16));
}
/* SIV, GCM-SIV decryption streamed after hwc_set_lengths. */
CASE(set_lengths_siv_encrypting) { hwc_ctx *x = ctx_for("aes-128-siv", 1); RET(x, hwc_set_lengths(x, 0, 16)); }
CASE(set_lengths_gcm_siv_too_long) {
    hwc_ctx *x = ctx_for("aes-256-gcm-siv", 0);
    RET(x, hwc_set_lengths(x, 0, ((uint64_t)1 << 36) + 1));
}
CASE(set_lengths_siv_less_aad_than_given) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    hwc_aad(x, buf, 8);
    RET(x, hwc_set_lengths(x, 7, 16));
}
CASE(set_lengths_siv_after_data) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_set_lengths(x, 0, 40);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_set_lengths(x, 0, 40));
}
CASE(aad_siv_too_much) {
    hwc_ctx *x = ctx_for("aes-128-gcm-siv", 0);
    hwc_set_lengths(x, 4, 16);
    RET(x, hwc_aad(x, buf, 5));
}
CASE(update_siv_too_much) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_set_lengths(x, 0, 40);
    hwc_update(x, out, &n, buf, 20);
    RET(x, hwc_update(x, out, &n, buf, 21));
}
CASE(update_siv_aad_missing) {
    hwc_ctx *x = ctx_for("aes-128-gcm-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_set_lengths(x, 4, 16);
    RET(x, hwc_update(x, out, &n, buf, 16));
}
CASE(update_gcm_siv_stream_forged) {
    hwc_ctx *x = ctx_for("aes-128-gcm-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_set_lengths(x, 0, 40);
    hwc_update(x, out, &n, buf, 20); /* released, not authenticated */
    memset(out + 20, 0xee, 20);
    int rc = hwc_update(x, out + 20, &n, buf + 20, 20);
    uint8_t zero[20] = {0};
    CHECKF(memcmp(out + 20, zero, 20) == 0 && n == 0, "the update completing a forged message must zero its output");
    RET(x, rc);
}
CASE(final_siv_short) {
    hwc_ctx *x = ctx_for("sm4-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_set_lengths(x, 0, 40);
    hwc_update(x, out, &n, buf, 39);
    RET(x, hwc_final(x, out, &n));
}
CASE(final_siv_after_forged) {
    hwc_ctx *x = ctx_for("aes-128-siv", 0);
    hwc_set_tag(x, tag, 16);
    hwc_set_lengths(x, 0, 40);
    hwc_update(x, out, &n, buf, 7);
    hwc_update(x, out + 7, &n, buf + 7, 33); /* completes the message: the tag is wrong */
    RET(x, hwc_final(x, out, &n));
}

typedef struct error_case {
    const char *id, *function;
    int (*run)(void);
    int used;
} error_case;

#define E(fn, id) {#id, #fn, case_##id, 0}
static error_case cases[] = {
    E(hwc_ctx_copy, ctx_copy_null_src), E(hwc_get_iv, get_iv_null_iv), E(hwc_get_iv, get_iv_waiting_for_iv),
    E(hwc_get_iv, get_iv_gcm), E(hwc_get_iv, get_iv_len), E(hwc_ctx_set_impl, set_impl_null_ctx), E(hwc_ctx_set_impl, set_impl_unknown),
    E(hwc_ctx_set_impl, set_impl_unavailable), E(hwc_init, init_null_ctx), E(hwc_init, init_null_iv),
    E(hwc_init, init_no_cipher), E(hwc_init, init_no_key), E(hwc_init, init_bad_direction),
    E(hwc_init, init_key_len), E(hwc_init, init_iv_len), E(hwc_init, init_iv_for_ecb),
    E(hwc_init, init_xts_equal_halves), E(hwc_init, init_forced_wrong_family),
    E(hwc_set_padding, set_padding_null_ctx), E(hwc_set_padding, set_padding_not_started),
    E(hwc_set_padding, set_padding_after_data), E(hwc_set_padding, set_padding_ctr),
    E(hwc_set_tag_len, set_tag_len_null_ctx), E(hwc_set_tag_len, set_tag_len_not_started),
    E(hwc_set_tag_len, set_tag_len_gcm_3), E(hwc_set_tag_len, set_tag_len_cbc),
    E(hwc_set_tag_len, set_tag_len_after_data), E(hwc_set_tag_len, set_tag_len_after_aad),
    E(hwc_set_tag_len, set_tag_len_after_empty_aad), E(hwc_set_tag_len, set_tag_len_after_set_tag),
    E(hwc_set_tag_len, set_tag_len_bad_len_not_started), E(hwc_set_lengths, set_lengths_null_ctx),
    E(hwc_set_lengths, set_lengths_not_started), E(hwc_set_lengths, set_lengths_gcm),
    E(hwc_set_lengths, set_lengths_too_long), E(hwc_set_lengths, set_lengths_after_aad),
    E(hwc_set_tag, set_tag_null_tag), E(hwc_set_tag, set_tag_encrypting), E(hwc_set_tag, set_tag_cbc),
    E(hwc_set_tag, set_tag_siv_15), E(hwc_set_tag, set_tag_siv_after_data), E(hwc_get_tag, get_tag_null_tag),
    E(hwc_get_tag, get_tag_before_final), E(hwc_get_tag, get_tag_cbc), E(hwc_get_tag, get_tag_wrong_len),
    E(hwc_aad, aad_null_aad), E(hwc_aad, aad_after_data), E(hwc_aad, aad_cbc), E(hwc_aad, aad_ccm_no_lengths),
    E(hwc_aad, aad_ccm_too_much), E(hwc_update, update_null_out_len), E(hwc_update, update_null_in),
    E(hwc_update, update_overlap), E(hwc_update, update_waiting_for_iv), E(hwc_update, update_after_final),
    E(hwc_update, update_mac), E(hwc_update, update_xts_short), E(hwc_update, update_xts_twice),
    E(hwc_update, update_ccm_too_much), E(hwc_update, update_siv_no_tag), E(hwc_update, update_siv_forged),
    E(hwc_update_bits, update_bits_null_in), E(hwc_update_bits, update_bits_overlap),
    E(hwc_update_bits, update_bits_not_started), E(hwc_update_bits, update_bits_cfb8),
    E(hwc_update_bits, update_bits_null_max), E(hwc_update, update_huge),
    E(hwc_aad, aad_huge),
    E(hwc_final, final_null_out_len), E(hwc_final, final_twice), E(hwc_final, final_cbc_nopad_partial),
    E(hwc_final, final_cbc_dec_empty), E(hwc_final, final_bad_padding), E(hwc_final, final_ccm_short),
    E(hwc_final, final_gcm_no_tag), E(hwc_final, final_gcm_forged), E(hwc_aead_seal, seal_null_tag),
    E(hwc_aead_seal, seal_no_key), E(hwc_aead_seal, seal_ctr), E(hwc_aead_seal, seal_tag_len),
    E(hwc_aead_seal, seal_nonce_len), E(hwc_aead_seal, seal_overlap), E(hwc_aead_open, open_null_in),
    E(hwc_aead_open, open_forged), E(hwc_aead_open, open_tag_len), E(hwc_mac_final, mac_final_null_tag),
    E(hwc_mac_final, mac_final_gmac_no_iv), E(hwc_mac_final, mac_final_gcm), E(hwc_mac_final, mac_final_tag_len),
    E(hwc_mac_final, mac_final_bad_len_not_started), E(hwc_mac_verify, mac_verify_after_final),
    E(hwc_mac_verify, mac_verify_tag_len), E(hwc_mac_verify, mac_verify_wrong),
    E(hwc_mac_verify, mac_verify_null_tag), E(hwc_mac, mac_null_key), E(hwc_mac, mac_cbc),
    E(hwc_mac, mac_tag_len), E(hwc_mac, mac_key_len), E(hwc_mac, mac_gmac_no_iv), E(hwc_mac, mac_no_mem),
    E(hwc_key_wrap, wrap_null_kek), E(hwc_key_wrap, wrap_cbc), E(hwc_key_wrap, wrap_kek_len),
    E(hwc_key_wrap, wrap_kw_not_multiple_of_8), E(hwc_key_wrap, wrap_small_out), E(hwc_key_wrap, wrap_no_mem),
    E(hwc_key_unwrap, unwrap_forged), E(hwc_key_unwrap, unwrap_short), E(hwc_key_unwrap, unwrap_small_out),
    E(hwc_ctx_key_wrap, ctx_wrap_null_out_len), E(hwc_ctx_key_wrap, ctx_wrap_no_key),
    E(hwc_ctx_key_wrap, ctx_wrap_cbc), E(hwc_ctx_key_wrap, ctx_wrap_overlap),
    E(hwc_ctx_key_unwrap, ctx_unwrap_forged), E(hwc_ctx_key_wrap, ctx_wrap_short_overlapping),
    E(hwc_ctx_key_wrap, ctx_wrap_small_out_overlapping), E(hwc_ctx_key_wrap, ctx_wrap_huge_out_cap),
    E(hwc_ctx_key_unwrap, ctx_unwrap_short_overlapping), E(hwc_ctx_key_unwrap, ctx_unwrap_small_out_overlapping),
    E(hwc_ctx_key_unwrap, ctx_unwrap_huge_out_cap), E(hwc_init, init_iv_huge), E(hwc_aead_open, open_nonce_huge),
    E(hwc_set_lengths, set_lengths_siv_encrypting), E(hwc_set_lengths, set_lengths_gcm_siv_too_long),
    E(hwc_set_lengths, set_lengths_siv_less_aad_than_given), E(hwc_set_lengths, set_lengths_siv_after_data),
    E(hwc_aad, aad_siv_too_much), E(hwc_update, update_siv_too_much), E(hwc_update, update_siv_aad_missing),
    E(hwc_update, update_gcm_siv_stream_forged), E(hwc_final, final_siv_short),
    E(hwc_final, final_siv_after_forged),
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* ------------------------------------------------------ the documents */

typedef struct err_name {
    char name[40];
    int value, listed;
} err_name;
static err_name errs[64];
static size_t n_errs;

/* "    HWC_ERR_KEY_LEN = -1,  ..." lines of the header. */
static void read_header(void) {
    size_t len;
    FILE *f = fopen(HWC_HEADER, "r");
    if (!CHECKF(f != NULL, "cannot open %s", HWC_HEADER))
        return;
    char line[512];
    while (fgets(line, sizeof line, f) && n_errs < 64) {
        char *p = strstr(line, "HWC_ERR_");
        int v;
        if (!p || p != line + strspn(line, " \t"))
            continue;
        len = strcspn(p, " =");
        if (len >= sizeof errs[0].name || sscanf(p + len, " = %d", &v) != 1)
            continue;
        memcpy(errs[n_errs].name, p, len);
        errs[n_errs].name[len] = 0;
        errs[n_errs].value = v;
        n_errs++;
    }
    fclose(f);
    CHECKF(n_errs >= 15, "found %zu HWC_ERR_* codes in %s", n_errs, HWC_HEADER);
}

/* Copies the text between the first pair of backticks of cell into dst. */
static int cell_code(const char *cell, char *dst, size_t cap) {
    const char *a = strchr(cell, '`');
    const char *b = a ? strchr(a + 1, '`') : NULL;
    if (!b || (size_t)(b - a - 1) >= cap)
        return 0;
    memcpy(dst, a + 1, (size_t)(b - a - 1));
    dst[b - a - 1] = 0;
    return 1;
}

static size_t walk_table(void) {
    FILE *f = fopen(HWC_ERRORS_MD, "r");
    if (!CHECKF(f != NULL, "cannot open %s", HWC_ERRORS_MD))
        return 0;
    char line[1024];
    int in_table = 0;
    size_t rows = 0;
    unsigned long lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!in_table) {
            in_table = strncmp(line, "| Function | Error |", 20) == 0;
            continue;
        }
        if (line[0] != '|')
            break; /* the end of the table */
        if (!strncmp(line, "|---", 4))
            continue;
        /* Four cells: function, error, when, case. */
        char *cell[5] = {0};
        size_t nc = 0;
        for (char *p = line; *p && nc < 5; p++)
            if (*p == '|')
                cell[nc++] = p + 1;
        char fn[64], err[64], id[64];
        if (!CHECKF(nc == 5 && cell_code(cell[0], fn, sizeof fn) && cell_code(cell[1], err, sizeof err) &&
                        cell_code(cell[3], id, sizeof id),
                    "%s:%lu: a row needs `function` | `HWC_ERR_X` | when | `case`", HWC_ERRORS_MD, lineno))
            continue;
        rows++;
        err_name *e = NULL;
        for (size_t i = 0; i < n_errs; i++)
            if (!strcmp(errs[i].name, err))
                e = &errs[i];
        if (!CHECKF(e != NULL, "%s:%lu: %s is not an error code of hwcrypt.h", HWC_ERRORS_MD, lineno, err))
            continue;
        e->listed = 1;
        for (char *p = id; *p; p++)
            if (*p == '.')
                *p = '_';
        error_case *c = NULL;
        for (size_t i = 0; i < N_CASES; i++)
            if (!strcmp(cases[i].id, id))
                c = &cases[i];
        if (!CHECKF(c != NULL, "%s:%lu: no case %s in tests/test_errors.c", HWC_ERRORS_MD, lineno, id))
            continue;
        c->used = 1;
        if (!CHECKF(!strcmp(c->function, fn), "%s:%lu: case %s calls %s, the row says %s", HWC_ERRORS_MD, lineno,
                    id, c->function, fn))
            continue;
        skip_reason = NULL;
        int rc = c->run();
        if (rc == SKIPPED) {
            char what[256];
            snprintf(what, sizeof what, "%s %s (%s)", fn, err, id);
            test_skip(what, skip_reason);
            continue;
        }
        CHECKF(rc == e->value, "%s:%lu: %s (case %s) returned %d (%s), the table says %s", HWC_ERRORS_MD, lineno, fn,
               id, rc, hwc_strerror(rc), err);
    }
    fclose(f);
    CHECKF(rows > 0, "no table rows found in %s", HWC_ERRORS_MD);
    return rows;
}

int main(void) {
    for (size_t i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(i * 11 + 3);
    for (size_t i = 0; i < sizeof iv; i++)
        iv[i] = (uint8_t)(i + 1);
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)i;
    memset(tag, 0x42, sizeof tag);
    read_header();
    size_t rows = walk_table();
    for (size_t i = 0; i < N_CASES; i++)
        CHECKF(cases[i].used, "case %s (%s) has no row in %s", cases[i].id, cases[i].function, HWC_ERRORS_MD);
    for (size_t i = 0; i < n_errs; i++)
        CHECKF(errs[i].listed, "%s appears in no row of %s", errs[i].name, HWC_ERRORS_MD);
    printf("test_errors: %zu rows, %zu cases, %zu error codes\n", rows, N_CASES, n_errs);
    return test_summary("test_errors");
}
