/*
 * Fused GCM kernels of the vector back ends (AES or SM4 CTR32 with Zvkg
 * GHASH in one pass). Part of zv_modes.h (same instance macros; included
 * once per cipher instance from its end), plus these the cipher defines:
 *
 *   ZV_GCM_KEYS              declarations: the round keys (and whatever
 *                            ZV_GCM_CTR_W needs), once per call
 *   ZV_GCM_CTR_W(k, c, vl)   k = the keystream of the counters c (zv_w of
 *                            native-order words, see zv_ctr_init), c kept
 *   ZV_GCM_HG_IN_REG         1 if H^G may stay in a register for the whole
 *                            loop, 0 if the registers are too few with the
 *                            round keys live (it is then reloaded, one vle32
 *                            from a fixed address, per group)
 *   ZV_GCM_W8                1 to run pairs of groups at LMUL=8 (ZV_ENC_W8)
 *                            with GHASH as two LMUL=4 vghsh: only for a
 *                            cipher whose round keys fit in v1..v3 and
 *                            v8..v15; then also
 *   ZV_GCM_KEYS8             declarations: the round keys, made in those
 *                            registers (replaces ZV_GCM_KEYS)
 */

#ifndef HWC_ZV_GCM_ONCE /* helpers: once for all instances */
#define HWC_ZV_GCM_ONCE
/* vl elements of an aligned stack buffer set to zero for good (key-derived
 * H^G, GHASH state): the asm makes the stores observable, and unlike a
 * call to hwc_wipe it leaves the vector registers alone. */
ZV_INLINE void zv_gcm_wipe(uint32_t *p, size_t vl) {
    __riscv_vse32_v_u32m4(p, __riscv_vmv_v_x_u32m4(0, vl), vl);
    __asm__ volatile("" : : "r"(p) : "memory");
}
/* zv_ctr_init8 (zv_common.h) with the blocks counting from counter + first. */
ZV_INLINE vuint32m8_t zv_gcm_ctr_init8(const uint8_t ctr[16], size_t first, vbool4_t lane3, size_t vl) {
    vuint32m8_t idx = __riscv_vand_vx_u32m8(__riscv_vid_v_u32m8(vl), 3, vl);
    vuint32m8_t c = __riscv_vrgather_vv_u32m8(__riscv_vlmul_ext_v_u32m1_u32m8(zv_load_b(ctr)), idx, vl);
    c = __riscv_vrev8_v_u32m8(c, vl);
    vuint32m8_t block = __riscv_vsrl_vx_u32m8(__riscv_vid_v_u32m8(vl), 2, vl);
    block = __riscv_vadd_vx_u32m8(block, (uint32_t)first, vl);
    return __riscv_vadd_vv_u32m8_mu(lane3, c, c, block, vl);
}
#endif

/*
 * GCM: CTR32 and GHASH (Zvkg) in one pass over the data, with the GHASH
 * key of ghash_zvkg.c (H^32 .. H^1). For n blocks and groups of
 * G = zv_max_blocks():
 *   - a head of n mod G blocks is hashed on its own (its lanes times
 *     H^m .. H^1, folded);
 *   - the full groups but the last run one loop with a constant vl and an
 *     end-pointer compare, every lane accumulating times H^G (AES-128: pairs
 *     of groups at LMUL=8, below);
 *   - the last group multiplies by H^G .. H^1 and the lanes are folded once.
 * GHASH always takes the ciphertext: decryption hashes its input, held in
 * a register from before the store (out may equal in).
 */
#define ZV_GCM_GROUP(hv, vl)                                                 \
    do {                                                                     \
        zv_w k_;                                                             \
        ZV_GCM_CTR_W(k_, ctrv, vl);                                          \
        zv_w x_ = zv_ld_w(a32, in, vl);                                      \
        k_ = __riscv_vxor_vv_u32m4(k_, x_, vl);                              \
        zv_st_w(a32, out, k_, vl);                                           \
        acc = __riscv_vghsh_vv_u32m4(acc, hv, encrypt ? k_ : x_, vl);        \
        ctrv = zv_ctr_advance(ctrv, lane3, gmax, vl);                    \
    } while (0)

#if ZV_GCM_W8
/*
 * LMUL=8 (ZV_GCM_W8): pairs of groups, 2G blocks per AES instruction, with
 * GHASH as two LMUL=4 vghsh (lane i of the accumulator takes block i of the
 * pair, then block G + i, each times H^G; the last pair's second half times
 * H^G .. H^1). Beside the round keys (ZV_GCM_KEYS8) and the mask in v0 only
 * the two LMUL=8 groups (keystream, data) stay live: the first pair's
 * counters, H^G and the GHASH accumulator live in aligned stack buffers
 * and are reloaded each pair (the counters plus the blocks done, on lane
 * 3). With the accumulator in a register too, clang spills round keys,
 * which costs more than its load and store. An odd group goes first, at
 * half vl. Needs the LMUL=4 group to be whole registers (G not capped:
 * VLEN <= 1024), so that the halves of an LMUL=8 group are two groups of G
 * blocks.
 */
#define ZV_GCM_PAIR(h2, vl8)                                                                   \
    do {                                                                                       \
        zv_w8 k8_ = __riscv_vle32_v_u32m8(ctr_p, vl8);                                         \
        k8_ = __riscv_vadd_vx_u32m8_mu(lane3_8, k8_, k8_, done, vl8);                          \
        k8_ = __riscv_vrev8_v_u32m8(k8_, vl8);                                                 \
        ZV_ENC_W8(k8_, vl8);                                                                   \
        zv_w8 x8_ = zv_ld_w8(a32, in, vl8);                                                    \
        k8_ = __riscv_vxor_vv_u32m8(k8_, x8_, vl8);                                            \
        zv_st_w8(a32, out, k8_, vl8);                                                          \
        const zv_w8 d8_ = encrypt ? k8_ : x8_;                                                 \
        zv_w a_ = __riscv_vle32_v_u32m4(acc_p, vlmax);                                         \
        a_ = __riscv_vghsh_vv_u32m4(a_, __riscv_vle32_v_u32m4(hg_p, vlmax),                    \
                                    __riscv_vget_v_u32m8_u32m4(d8_, 0), vlmax);                \
        if ((vl8) != vlmax)                                                                    \
            a_ = __riscv_vghsh_vv_u32m4(a_, h2, __riscv_vget_v_u32m8_u32m4(d8_, 1), vlmax);    \
        __riscv_vse32_v_u32m4(acc_p, a_, vlmax);                                               \
        done += (uint32_t)((vl8) / 4);                                                         \
        in += 4 * (vl8);                                                                       \
        out += 4 * (vl8);                                                                      \
    } while (0)

#endif

ZV_INLINE size_t ZV_FN(gcm_crypt)(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16],
                                  uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                                  const int encrypt, const int a32) {
    if (!(hwc_caps() & HWC_CAP_ZVKG))
        return 0;
#if ZV_GCM_W8
    ZV_GCM_KEYS8;
#else
    ZV_GCM_KEYS;
#endif
    const size_t gmax = zv_max_blocks(), vlmax = 4 * gmax;
    const vbool8_t lane3 = zv_lane3_mask(vlmax);
    zv_w ctrv = zv_ctr_init(ctr, lane3, vlmax);
    zv_b y = zv_load_b(ghash_state);

    const size_t head = nblocks % gmax;
    if (head != 0) {
        size_t vl = 4 * head;
        zv_w k;
        ZV_GCM_CTR_W(k, ctrv, vl);
        zv_w x = zv_ld_w(a32, in, vl), c = __riscv_vxor_vv_u32m4(k, x, vl);
        zv_st_w(a32, out, c, vl);
        y = zv_ghash_chunk(hk, y, encrypt ? c : x, head);
        in += 16 * head;
        out += 16 * head;
    }
    size_t groups = nblocks / gmax;
    if (groups != 0) {
        /* H^G and the GHASH lanes when kept in memory (wiped below) */
        alignas(16) uint32_t hg_buf[4 * 32], acc_buf[4 * 32];
        zv_w acc = zv_block_in_lane0(y, vlmax);
        const zv_w hg = zv_splat_block(zv_load_key(zv_ghash_powers(hk, gmax)), vlmax);
        /* past the head (maybe none): last before the loop, so the loop
         * enters with the vtype of its own masked vadd (no vsetvli in it) */
        ctrv = zv_ctr_advance(ctrv, lane3, head, vlmax);
#if ZV_GCM_W8
        if (groups >= 2 && __riscv_vsetvlmax_e32m4() == vlmax) {
            const size_t vl8 = 2 * vlmax;
            alignas(16) uint32_t ctr_buf[4 * 64];
            const vbool4_t lane3_8 = zv_lane3_mask8(vl8);
            __riscv_vse32_v_u32m8(ctr_buf, zv_gcm_ctr_init8(ctr, head, lane3_8, vl8), vl8);
            __riscv_vse32_v_u32m4(hg_buf, hg, vlmax);
            __riscv_vse32_v_u32m4(acc_buf, acc, vlmax);
            const uint32_t *ctr_p = ctr_buf, *hg_p = hg_buf;
            uint32_t *acc_p = acc_buf;
            /* the buffers may be anything after this, as clang sees it (the
             * stores to out might change them): their loads stay in the
             * loop instead of being hoisted into registers that do not exist */
            __asm__("" : "+r"(ctr_p), "+r"(hg_p), "+r"(acc_p));
            uint32_t done = 0;
            if (groups % 2 != 0) {
                ZV_GCM_PAIR(hg, vlmax); /* one group: vl = vlmax */
                groups--;
            }
            const uint8_t *const last = in + 16 * gmax * (groups - 2);
            while (in != last)
                ZV_GCM_PAIR(__riscv_vle32_v_u32m4(hg_p, vlmax), vl8);
            ZV_GCM_PAIR(__riscv_vle32_v_u32m4(zv_ghash_powers(hk, gmax), vlmax), vl8);
            acc = __riscv_vle32_v_u32m4(acc_p, vlmax);
        } else
#endif
        {
            /* start of the last group: the loop stops there */
            const uint8_t *const last = in + 16 * gmax * (groups - 1);
            if (ZV_GCM_HG_IN_REG) {
                while (in != last) {
                    ZV_GCM_GROUP(hg, vlmax);
                    in += 16 * gmax;
                    out += 16 * gmax;
                }
            } else {
                __riscv_vse32_v_u32m4(hg_buf, hg, vlmax);
                const uint32_t *hg_p = hg_buf;
                while (in != last) {
                    /* An opaque copy of the address keeps the load in the
                     * loop (hoisted, H^G would be spilled, which costs more). */
                    __asm__("" : "+r"(hg_p));
                    ZV_GCM_GROUP(__riscv_vle32_v_u32m4(hg_p, vlmax), vlmax);
                    in += 16 * gmax;
                    out += 16 * gmax;
                }
            }
            ZV_GCM_GROUP(__riscv_vle32_v_u32m4(zv_ghash_powers(hk, gmax), vlmax), vlmax);
        }
        y = zv_fold_lanes(acc, gmax);
        zv_store_b(ghash_state, y);
        /* last: nothing else live, so the zero register costs no spill */
        zv_gcm_wipe(hg_buf, vlmax);
        if (ZV_GCM_W8)
            zv_gcm_wipe(acc_buf, vlmax);
    } else {
        zv_store_b(ghash_state, y);
    }
    hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + (uint32_t)nblocks);
    return nblocks;
}
#undef ZV_GCM_GROUP
#if ZV_GCM_W8
#undef ZV_GCM_PAIR
#endif

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
