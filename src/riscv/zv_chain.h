/*
 * Chained mode kernels of the vector back ends (CBC/CFB encryption, OFB,
 * CBC-MAC): one block at a time, the round keys held in registers. Part
 * of zv_modes.h (same instance macros; included once per cipher instance
 * from its end).
 */

ZV_INLINE void ZV_FN(cbc_enc_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    zv_b c = zv_load_b(iv);
#pragma clang loop unroll_count(4)
    for (size_t i = 0; i < nblocks; i++) {
        c = __riscv_vxor_vv_u32m1(c, zv_ld_b(a32, in + 16 * i), 4);
        ZV_ENC_B(c);
        zv_st_b(a32, out + 16 * i, c);
    }
    zv_store_b(iv, c);
}

static void ZV_FN(cbc_enc)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(cbc_enc_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(cbc_enc_body)(ks, iv, out, in, nblocks, 0);
}

ZV_INLINE void ZV_FN(cfb_enc_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    zv_b c = zv_load_b(iv);
#pragma clang loop unroll_count(4)
    for (size_t i = 0; i < nblocks; i++) {
        ZV_ENC_B(c);
        c = __riscv_vxor_vv_u32m1(c, zv_ld_b(a32, in + 16 * i), 4);
        zv_st_b(a32, out + 16 * i, c);
    }
    zv_store_b(iv, c);
}

static void ZV_FN(cfb_enc)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(cfb_enc_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(cfb_enc_body)(ks, iv, out, in, nblocks, 0);
}

ZV_INLINE void ZV_FN(ofb_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    zv_b k = zv_load_b(iv);
#pragma clang loop unroll_count(4)
    for (size_t i = 0; i < nblocks; i++) {
        ZV_ENC_B(k);
        zv_st_b(a32, out + 16 * i, __riscv_vxor_vv_u32m1(k, zv_ld_b(a32, in + 16 * i), 4));
    }
    zv_store_b(iv, k);
}

static void ZV_FN(ofb)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ofb_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(ofb_body)(ks, iv, out, in, nblocks, 0);
}

ZV_INLINE void ZV_FN(cbc_mac_body)(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    zv_b m = zv_load_b(mac);
#pragma clang loop unroll_count(4)
    for (size_t i = 0; i < nblocks; i++) {
        m = __riscv_vxor_vv_u32m1(m, zv_ld_b(a32, in + 16 * i), 4);
        ZV_ENC_B(m);
    }
    zv_store_b(mac, m);
}

static void ZV_FN(cbc_mac)(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(in, in))
        ZV_FN(cbc_mac_body)(ks, mac, in, nblocks, 1);
    else
        ZV_FN(cbc_mac_body)(ks, mac, in, nblocks, 0);
}
