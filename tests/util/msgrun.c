#include "msgrun.h"

static int padded(const hwc_cipher *c) { return (hwc_cipher_flags(c) & HWC_CIPHER_PADDING) != 0; }

int msg_len_ok(const hwc_cipher *c, size_t len) {
    switch (hwc_cipher_mode(c)) {
    case HWC_MODE_XTS:
        return len >= 16;
    case HWC_MODE_KW:
        return len >= 16 && len % 8 == 0;
    case HWC_MODE_KWP:
        return len >= 1;
    default:
        return 1;
    }
}

size_t msg_out_cap(const hwc_cipher *c, size_t in_len, int encrypt) {
    unsigned f = hwc_cipher_flags(c);
    if (f & HWC_CIPHER_MAC)
        return 0;
    if (f & HWC_CIPHER_WRAP) {
        if (encrypt)
            return hwc_cipher_mode(c) == HWC_MODE_KWP ? ((in_len + 7) & ~(size_t)7) + 8 : in_len + 8;
        return in_len >= 8 ? in_len - 8 : 0;
    }
    if (padded(c) && encrypt)
        return (in_len / 16 + 1) * 16;
    return in_len;
}

size_t msg_iv_len(const hwc_cipher *c) { return hwc_cipher_iv_len(c); }

int msg_run(hwc_ctx *ctx, const hwc_cipher *c, int encrypt, const msg_io *io, size_t *out_len) {
    unsigned f = hwc_cipher_flags(c);
    size_t key_len = hwc_cipher_key_len(c);
    int rc;
    *out_len = 0;
    if (f & HWC_CIPHER_WRAP) {
        size_t cap = msg_out_cap(c, io->in_len, encrypt);
        if ((rc = hwc_init(ctx, c, encrypt, io->key, key_len, NULL, 0)))
            return rc;
        return encrypt ? hwc_ctx_key_wrap(ctx, io->in, io->in_len, io->out, cap, out_len)
                       : hwc_ctx_key_unwrap(ctx, io->in, io->in_len, io->out, cap, out_len);
    }
    if (f & HWC_CIPHER_MAC) {
        if ((rc = hwc_init(ctx, c, HWC_ENCRYPT, io->key, key_len, io->iv, io->iv_len)))
            return rc;
        if ((rc = hwc_aad(ctx, io->in, io->in_len)))
            return rc;
        return encrypt ? hwc_mac_final(ctx, io->tag, io->tag_len) : hwc_mac_verify(ctx, io->tag, io->tag_len);
    }
    hwc_mode mode = hwc_cipher_mode(c);
    if (!encrypt && (mode == HWC_MODE_SIV || mode == HWC_MODE_GCM_SIV) && io->in_len % 2) {
        /* Odd lengths: SIV / GCM-SIV decryption streamed in two pieces
         * (hwc_set_lengths), even ones through hwc_aead_open below. */
        size_t half = io->in_len / 2, n = 0, n2 = 0;
        if ((rc = hwc_init(ctx, c, HWC_DECRYPT, io->key, key_len, io->iv, io->iv_len)) ||
            (rc = hwc_set_tag(ctx, io->tag, io->tag_len)) || (rc = hwc_set_lengths(ctx, io->aad_len, io->in_len)) ||
            (io->aad_len && (rc = hwc_aad(ctx, io->aad, io->aad_len))) ||
            (rc = hwc_update(ctx, io->out, &n, io->in, half)) ||
            (rc = hwc_update(ctx, io->out + half, &n2, io->in + half, io->in_len - half)) ||
            (rc = hwc_final(ctx, NULL, &n2)))
            return rc;
        *out_len = io->in_len;
        return HWC_OK;
    }
    if (f & HWC_CIPHER_AEAD) {
        /* Key first (no IV: the one-shot call supplies it). */
        if ((rc = hwc_init(ctx, c, encrypt, io->key, key_len, NULL, 0)))
            return rc;
        rc = encrypt ? hwc_aead_seal(ctx, io->iv, io->iv_len, io->aad, io->aad_len, io->in, io->in_len, io->out,
                                     io->tag, io->tag_len)
                     : hwc_aead_open(ctx, io->iv, io->iv_len, io->aad, io->aad_len, io->in, io->in_len, io->out,
                                     io->tag, io->tag_len);
        if (rc == HWC_OK)
            *out_len = io->in_len;
        return rc;
    }
    if ((rc = hwc_init(ctx, c, encrypt, io->key, key_len, io->iv, io->iv_len)))
        return rc;
    size_t n = 0, m = 0;
    if ((rc = hwc_update(ctx, io->out, &n, io->in, io->in_len)))
        return rc;
    /* Modes with nothing left to write at final get a NULL pointer (the
     * API allows it): out + n may be one past the end of the buffer. */
    if ((rc = hwc_final(ctx, padded(c) ? io->out + n : NULL, &m)))
        return rc;
    *out_len = n + m;
    return HWC_OK;
}
