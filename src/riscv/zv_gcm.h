/*
 * Fused GCM kernels of the vector back ends (AES or SM4 CTR32 with Zvkg
 * GHASH in one pass). Part of zv_modes.h (same instance macros; included
 * once per cipher instance from its end).
 */

/*
 * GCM: CTR32 and GHASH (Zvkg) in one pass over the data, with the GHASH
 * key of ghash_zvkg.c. A first chunk of n mod G blocks is hashed on its own
 * (its lanes times H^m .. H^1, folded); then every lane of each full group
 * of G blocks accumulates times H^G, and the last group multiplies by
 * H^G .. H^1 before the lanes are folded once.
 */
ZV_INLINE size_t ZV_FN(gcm_crypt)(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16],
                                  uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                                  int encrypt, const int a32) {
    if (!(hwc_caps() & HWC_CAP_ZVKG))
        return 0;
    ZV_KEYS_ENC;
    const size_t gmax = zv_max_blocks(), vlmax = 4 * gmax;
    const vbool8_t lane3 = zv_lane3_mask(vlmax);
    zv_w ctrv = zv_ctr_init(ctr, lane3, vlmax);
    zv_b y = zv_load_b(ghash_state);
    size_t left = nblocks;

    size_t r = nblocks % gmax;
    if (r != 0) {
        size_t vl = 4 * r;
        zv_w k = __riscv_vrev8_v_u32m4(ctrv, vl);
        ZV_ENC_W(k, vl);
        zv_w x = zv_ld_w(a32, in, vl), c = __riscv_vxor_vv_u32m4(k, x, vl);
        zv_st_w(a32, out, c, vl);
        y = zv_ghash_chunk(hk, y, encrypt ? c : x, r);
        ctrv = zv_ctr_advance(ctrv, lane3, r, vlmax);
        in += 16 * r;
        out += 16 * r;
        left -= r;
    }
    if (left != 0) {
        /* H^G in every lane, reloaded from here each group: registers are
         * short with the round keys, counters and accumulator live. */
        alignas(16) uint32_t hg[4 * 32];
        __riscv_vse32_v_u32m4(hg, zv_splat_block(zv_load_key(zv_ghash_powers(hk, gmax)), vlmax), vlmax);
        zv_w acc = zv_block_in_lane0(y, vlmax);
        while (left != 0) {
            zv_w k = __riscv_vrev8_v_u32m4(ctrv, vlmax);
            ZV_ENC_W(k, vlmax);
            zv_w x = zv_ld_w(a32, in, vlmax), c = __riscv_vxor_vv_u32m4(k, x, vlmax);
            zv_st_w(a32, out, c, vlmax);
            left -= gmax;
            /* the last group takes H^G .. H^1, then the lanes are folded */
            const uint32_t *h = left ? hg : zv_ghash_powers(hk, gmax);
            acc = __riscv_vghsh_vv_u32m4(acc, __riscv_vle32_v_u32m4(h, vlmax), encrypt ? c : x, vlmax);
            ctrv = zv_ctr_advance(ctrv, lane3, gmax, vlmax);
            in += 16 * gmax;
            out += 16 * gmax;
        }
        y = zv_fold_lanes(acc, gmax);
    }
    zv_store_b(ghash_state, y);
    hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + (uint32_t)nblocks);
    return nblocks;
}

static size_t ZV_FN(gcm_enc)(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks) {
    return zv_aligned4(out, in) ? ZV_FN(gcm_crypt)(ks, hk, ctr, ghash_state, out, in, nblocks, 1, 1)
                                : ZV_FN(gcm_crypt)(ks, hk, ctr, ghash_state, out, in, nblocks, 1, 0);
}
static size_t ZV_FN(gcm_dec)(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                             uint8_t *out, const uint8_t *in, size_t nblocks) {
    return zv_aligned4(out, in) ? ZV_FN(gcm_crypt)(ks, hk, ctr, ghash_state, out, in, nblocks, 0, 1)
                                : ZV_FN(gcm_crypt)(ks, hk, ctr, ghash_state, out, in, nblocks, 0, 0);
}
