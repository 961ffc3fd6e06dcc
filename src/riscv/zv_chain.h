/*
 * Chained mode kernels of the vector back ends (CBC/CFB encryption, OFB,
 * CBC-MAC) and the fused CCM kernels. Part of zv_modes.h (same instance
 * macros; included once per cipher instance from its end), plus these each
 * cipher defines:
 *
 *   ZV_ENC_B_FROM(d, s)     d = E(s) for one block, s left intact (CFB)
 *   ZV_MAC_KEYS             declarations the macros below need (after ZV_KEYS_ENC)
 *   ZV_MAC_PREP(x, vl, T)   data blocks (type T: u32m1/m4/m8) into chain form X
 *   ZV_MAC_ENTER(m)         the MAC state as the chain state t
 *   ZV_MAC_STEP(t, x)       absorb one block in chain form: t = step(t, X_i)
 *   ZV_MAC_LEAVE(t)         the MAC state back from t
 *
 * so that the serial part of CBC-MAC costs as few instructions per block as
 * the cipher allows (AES: the middle rounds and one vaesef.vv whose per-block
 * key X_i = P_i ^ k0 ^ kNr folds in the last round, the next block and the
 * first round).
 *
 * Every chain is serial, so a block costs its rounds; what the kernels save
 * is the rest. Blocks are loaded and stored a register group at a time and
 * taken out of it with no memory access: at VLEN=128 an m1 register of the
 * group is exactly one block (vget/vset, free when the allocator keeps the
 * chain in place), at wider VLEN one m1 register holds VLEN/128 blocks and a
 * vslidedown brings block p to the front. VLEN is public, so branching on it
 * is fine.
 */

#ifndef HWC_ZV_CHAIN_ONCE /* helpers: once for all instances */
#define HWC_ZV_CHAIN_ONCE
/* BODY(blk) for each of the bpr blocks of m1 register r, in order
 * (bpr = VLEN/128; a constant bpr unrolls the loop). */
#define ZV_EACH_IN_REG(r, bpr, BODY)                                             \
    do {                                                                         \
        BODY(r);                                                                 \
        for (size_t p_ = 1; p_ < (bpr); p_++) {                                  \
            zv_b q_ = __riscv_vslidedown_vx_u32m1(r, 4 * p_, 4);                 \
            BODY(q_);                                                            \
        }                                                                        \
    } while (0)
/* Every block of an m4 group in order (4 * bpr blocks). */
#define ZV_EACH_BLOCK_W(w, bpr, BODY)                                            \
    do {                                                                         \
        zv_b r0_ = __riscv_vget_v_u32m4_u32m1(w, 0);                             \
        ZV_EACH_IN_REG(r0_, bpr, BODY);                                          \
        zv_b r1_ = __riscv_vget_v_u32m4_u32m1(w, 1);                             \
        ZV_EACH_IN_REG(r1_, bpr, BODY);                                          \
        zv_b r2_ = __riscv_vget_v_u32m4_u32m1(w, 2);                             \
        ZV_EACH_IN_REG(r2_, bpr, BODY);                                          \
        zv_b r3_ = __riscv_vget_v_u32m4_u32m1(w, 3);                             \
        ZV_EACH_IN_REG(r3_, bpr, BODY);                                          \
    } while (0)
/* Every block of an m8 group in order (8 * bpr blocks). */
#define ZV_EACH_REG8_(w, j, bpr, BODY)                                           \
    do {                                                                         \
        zv_b r_ = __riscv_vget_v_u32m8_u32m1(w, j);                              \
        ZV_EACH_IN_REG(r_, bpr, BODY);                                           \
    } while (0)
#define ZV_EACH_BLOCK_W8(w, bpr, BODY)                                           \
    do {                                                                         \
        ZV_EACH_REG8_(w, 0, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 1, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 2, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 3, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 4, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 5, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 6, bpr, BODY);                                          \
        ZV_EACH_REG8_(w, 7, bpr, BODY);                                          \
    } while (0)
/* VLEN=128 only: STEP(j) for the eight blocks (m1 registers) of an m8 group. */
#define ZV_EACH_OF_8(STEP) \
    do {                   \
        STEP(0);           \
        STEP(1);           \
        STEP(2);           \
        STEP(3);           \
        STEP(4);           \
        STEP(5);           \
        STEP(6);           \
        STEP(7);           \
    } while (0)
#define ZV_GET8(g, j) __riscv_vget_v_u32m8_u32m1(g, j)
#define ZV_SET8(g, j, b) (g = __riscv_vset_v_u32m1_u32m8(g, j, b))

/* Blocks per m1 register (VLEN/128) as a constant where that pays, so
 * the per-register walk unrolls: CALL(1) at VLEN=128, CALL(2) at 256,
 * CALL(0) (ask at run time) above. */
ZV_INLINE size_t zv_blocks_per_reg(void) {
    return __riscv_vsetvlmax_e32m1() / 4;
}
#define ZV_BY_BPR(CALL)                    \
    do {                                   \
        switch (zv_blocks_per_reg()) {     \
        case 1: CALL(1); break;            \
        case 2: CALL(2); break;            \
        default: CALL(0); break;           \
        }                                  \
    } while (0)
#endif

/*
 * CBC/CFB encryption and OFB, in groups of 8 * bpr blocks (one m8 load),
 * bpr = VLEN/128 blocks per register. bpr = 1: each block's result goes
 * back into its own register of the group, stored with one m8 store.
 * bpr = 2: block p of a register comes to the front with a vslidedown and
 * results are stored one block at a time. Wider VLEN (bpr = 0 here), and
 * the blocks after the last group: one block at a time from memory.
 * ST_STEP(b) chains block b and stores its output at out (advancing it);
 * SET_STEP(j) does the same for block j of group g, in place.
 */
#define ZV_CHAIN_LOOPS(SET_STEP, ST_STEP)                                        \
    do {                                                                         \
        if (bpr == 1) {                                                          \
            for (; nblocks >= 8; nblocks -= 8, in += 128, out += 128) {          \
                zv_w8 g = zv_ld_w8(a32, in, 32);                                 \
                ZV_EACH_OF_8(SET_STEP);                                          \
                zv_st_w8(a32, out, g, 32);                                       \
            }                                                                    \
        } else if (bpr == 2) {                                                   \
            for (; nblocks >= 16; nblocks -= 16, in += 256) {                    \
                zv_w8 g = zv_ld_w8(a32, in, 64);                                 \
                ZV_EACH_BLOCK_W8(g, 2, ST_STEP);                                 \
            }                                                                    \
        }                                                                        \
        _Pragma("clang loop unroll_count(4)")                                    \
        for (; nblocks != 0; nblocks--, in += 16)                                \
            ST_STEP(zv_ld_b(a32, in));                                           \
    } while (0)

ZV_INLINE void ZV_FN(cbc_enc_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                                   const int a32, const size_t bpr) {
    ZV_KEYS_ENC;
    zv_b c = zv_load_b(iv);
#define CBC_SET(j)                                                \
    do {                                                          \
        c = __riscv_vxor_vv_u32m1(c, ZV_GET8(g, j), 4);           \
        ZV_ENC_B(c);                                              \
        ZV_SET8(g, j, c);                                         \
    } while (0)
#define CBC_ST(b)                                                 \
    do {                                                          \
        c = __riscv_vxor_vv_u32m1(c, b, 4);                       \
        ZV_ENC_B(c);                                              \
        zv_st_b(a32, out, c);                                     \
        out += 16;                                                \
    } while (0)
    ZV_CHAIN_LOOPS(CBC_SET, CBC_ST);
#undef CBC_SET
#undef CBC_ST
    zv_store_b(iv, c);
}

ZV_INLINE void ZV_FN(cfb_enc_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                                   const int a32, const size_t bpr) {
    ZV_KEYS_ENC;
    zv_b c = zv_load_b(iv);
#define CFB_SET(j)                                                \
    do {                                                          \
        zv_b k_;                                                  \
        ZV_ENC_B_FROM(k_, c); /* c stays in the group */          \
        c = __riscv_vxor_vv_u32m1(k_, ZV_GET8(g, j), 4);          \
        ZV_SET8(g, j, c);                                         \
    } while (0)
#define CFB_ST(b)                                                 \
    do {                                                          \
        ZV_ENC_B(c);                                              \
        c = __riscv_vxor_vv_u32m1(c, b, 4);                       \
        zv_st_b(a32, out, c);                                     \
        out += 16;                                                \
    } while (0)
    ZV_CHAIN_LOOPS(CFB_SET, CFB_ST);
#undef CFB_SET
#undef CFB_ST
    zv_store_b(iv, c);
}

ZV_INLINE void ZV_FN(ofb_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               const int a32, const size_t bpr) {
    ZV_KEYS_ENC;
    zv_b k = zv_load_b(iv);
#define OFB_SET(j)                                                        \
    do {                                                                  \
        ZV_ENC_B(k);                                                      \
        ZV_SET8(g, j, __riscv_vxor_vv_u32m1(k, ZV_GET8(g, j), 4));        \
    } while (0)
#define OFB_ST(b)                                                         \
    do {                                                                  \
        ZV_ENC_B(k);                                                      \
        zv_st_b(a32, out, __riscv_vxor_vv_u32m1(k, b, 4));                \
        out += 16;                                                        \
    } while (0)
    ZV_CHAIN_LOOPS(OFB_SET, OFB_ST);
#undef OFB_SET
#undef OFB_ST
    zv_store_b(iv, k);
}

/* One instance per alignment and blocks-per-register constant. */
#define ZV_CHAIN_KERNEL(mode)                                                                                     \
    static void ZV_FN(mode)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) { \
        const int aligned = zv_aligned4(out, in);                                                                 \
        ZV_BY_BPR(mode##_CALL_);                                                                                  \
    }
#define ZV_CHAIN_CALL_(mode, B)                                                  \
    (aligned ? ZV_FN(mode##_body)(ks, iv, out, in, nblocks, 1, B)                \
             : ZV_FN(mode##_body)(ks, iv, out, in, nblocks, 0, B))
#define cbc_enc_CALL_(B) ZV_CHAIN_CALL_(cbc_enc, B)
#define cfb_enc_CALL_(B) ZV_CHAIN_CALL_(cfb_enc, B)
#define ofb_CALL_(B) ZV_CHAIN_CALL_(ofb, B)
ZV_CHAIN_KERNEL(cbc_enc)
ZV_CHAIN_KERNEL(cfb_enc)
ZV_CHAIN_KERNEL(ofb)
#undef cbc_enc_CALL_
#undef cfb_enc_CALL_
#undef ofb_CALL_
#undef ZV_CHAIN_CALL_
#undef ZV_CHAIN_KERNEL

/*
 * CBC-MAC in chain form (see the top of this file): whole m8 groups are
 * loaded and put into chain form one instruction per group; the blocks
 * left over one at a time. bpr_c: blocks per register (ZV_BY_BPR).
 */
ZV_INLINE void ZV_FN(cbc_mac_body)(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks, const int a32,
                                   const size_t bpr_c) {
    ZV_KEYS_ENC;
    ZV_MAC_KEYS;
    const size_t bpr = bpr_c ? bpr_c : zv_blocks_per_reg(), g = 8 * bpr, vl = 4 * g;
    zv_b t = ZV_MAC_ENTER(zv_load_b(mac));
#define MAC_BLOCK(x) ZV_MAC_STEP(t, x)
    for (; nblocks >= g; nblocks -= g, in += 16 * g) {
        zv_w8 x = zv_ld_w8(a32, in, vl);
        ZV_MAC_PREP(x, vl, u32m8);
        ZV_EACH_BLOCK_W8(x, bpr, MAC_BLOCK);
    }
#undef MAC_BLOCK
    for (size_t i = 0; i < nblocks; i++) {
        zv_b x = zv_ld_b(a32, in + 16 * i);
        ZV_MAC_PREP(x, 4, u32m1);
        ZV_MAC_STEP(t, x);
    }
    zv_store_b(mac, ZV_MAC_LEAVE(t));
}

static void ZV_FN(cbc_mac)(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    const int aligned = zv_aligned4(in, in);
#define MAC_CALL(B)                                                                                      \
    (aligned ? ZV_FN(cbc_mac_body)(ks, mac, in, nblocks, 1, B) : ZV_FN(cbc_mac_body)(ks, mac, in, nblocks, 0, B))
    ZV_BY_BPR(MAC_CALL);
#undef MAC_CALL
}

/*
 * Fused CCM: a group of counter blocks is encrypted as in ctr32 (wide), the
 * data xored and stored, and the CBC-MAC chain then absorbs the group's
 * plaintext from the registers (encryption: the input, read before the
 * store, so out == in works; decryption: the output). The low counter word
 * does not wrap within a call of the body (ccm_enc/ccm_dec split there);
 * the blocks after the last whole group are done once, MAC and CTR apart,
 * in the order that keeps in-place calls right.
 */
ZV_INLINE void ZV_FN(ccm_body)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                               size_t nblocks, const int encrypt, const int a32, const size_t bpr_c) {
    ZV_KEYS_ENC;
    ZV_MAC_KEYS;
    const size_t bpr = bpr_c ? bpr_c : zv_blocks_per_reg(), g = 4 * bpr, vl = 4 * g;
    const vbool8_t lane3 = zv_lane3_mask(vl);
    zv_w ctrv = zv_ctr_init(ctr, lane3, vl);
    zv_b t = ZV_MAC_ENTER(zv_load_b(mac));
    const uint8_t *const groups_end = in + 16 * g * (nblocks / g);
    const size_t left = nblocks % g;
#define MAC_BLOCK(x) ZV_MAC_STEP(t, x)
    for (; in != groups_end; in += 16 * g, out += 16 * g) {
        zv_w k = __riscv_vrev8_v_u32m4(ctrv, vl);
        ctrv = zv_ctr_advance(ctrv, lane3, g, vl); /* here: one vtype switch less */
        ZV_ENC_W(k, vl);
        zv_w p = zv_ld_w(a32, in, vl);
        k = __riscv_vxor_vv_u32m4(k, p, vl);
        zv_st_w(a32, out, k, vl);
        zv_w x = encrypt ? p : k; /* the plaintext */
        ZV_MAC_PREP(x, vl, u32m4);
        ZV_EACH_BLOCK_W(x, bpr, MAC_BLOCK);
    }
#undef MAC_BLOCK
    if (left != 0) {
        const size_t vlr = 4 * left;
        if (encrypt) {
            for (size_t i = 0; i < left; i++) {
                zv_b x = zv_ld_b(a32, in + 16 * i);
                ZV_MAC_PREP(x, 4, u32m1);
                ZV_MAC_STEP(t, x);
            }
        }
        zv_w k = __riscv_vrev8_v_u32m4(ctrv, vlr);
        ZV_ENC_W(k, vlr);
        zv_st_w(a32, out, __riscv_vxor_vv_u32m4(k, zv_ld_w(a32, in, vlr), vlr), vlr);
        if (!encrypt) {
            for (size_t i = 0; i < left; i++) {
                zv_b x = zv_ld_b(a32, out + 16 * i);
                ZV_MAC_PREP(x, 4, u32m1);
                ZV_MAC_STEP(t, x);
            }
        }
    }
    zv_store_b(mac, ZV_MAC_LEAVE(t));
    hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + (uint32_t)nblocks);
}

ZV_INLINE void ZV_FN(ccm_run)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t nblocks, const int encrypt) {
    const int aligned = zv_aligned4(out, in);
#define CCM_CALL(B)                                                              \
    (aligned ? ZV_FN(ccm_body)(ks, ctr, mac, out, in, nblocks, encrypt, 1, B)    \
             : ZV_FN(ccm_body)(ks, ctr, mac, out, in, nblocks, encrypt, 0, B))
    ZV_BY_BPR(CCM_CALL);
#undef CCM_CALL
}

/* The counter is CCM's 128-bit big-endian one: runs up to each wrap of the
 * low word, then the carry into the upper 96 bits (as ctr128; public). */
ZV_INLINE void ZV_FN(ccm_crypt)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                                size_t nblocks, const int encrypt) {
    while (nblocks != 0) {
        uint64_t room = (uint64_t)1 << 32;
        room -= hwc_load_be32(ctr + 12);
        size_t n = (uint64_t)nblocks < room ? nblocks : (size_t)room;
        ZV_FN(ccm_run)(ks, ctr, mac, out, in, n, encrypt);
        if ((uint64_t)n == room) { /* low word wrapped to 0: carry */
            for (int i = 11; i >= 0 && ++ctr[i] == 0; i--) {
            }
        }
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

static void ZV_FN(ccm_enc)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                           size_t nblocks) {
    ZV_FN(ccm_crypt)(ks, ctr, mac, out, in, nblocks, 1);
}

static void ZV_FN(ccm_dec)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                           size_t nblocks) {
    ZV_FN(ccm_crypt)(ks, ctr, mac, out, in, nblocks, 0);
}
