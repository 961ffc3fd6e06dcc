/*
 * Mode kernels of the vector back ends, written once for AES (per key size)
 * and SM4. Included once per cipher instance with these macros defined:
 *
 *   ZV_FN(name)        the instance's function name (e.g. aes128_##name)
 *   ZV_IMPL            the back end's table (for the generic XTS fallback)
 *   ZV_KEYS_ENC        declarations: encryption round keys from `ks` into
 *                      registers, once per call
 *   ZV_ENC_W(s, vl)    encrypt the blocks of zv_w s (vl elements) in place
 *   ZV_ENC_B(s)        encrypt one block (zv_b) in place
 *   ZV_ENC_W8(s, vl)   the same for zv_w8 (LMUL=8)
 *   ZV_ENC_W8_NATIVE(s, vl)  the same for blocks held as native 32-bit
 *                      words (vrev8 of memory order: CTR counters), so a
 *                      cipher that swaps them itself (SM4) skips both swaps
 *   ZV_KEYS_DEC, ZV_DEC_W(s, vl), ZV_DEC_W8(s, vl)   the same for decryption
 *   ZV_KEYS_ENC8, ZV_KEYS_DEC8   the keys for the LMUL=8 kernels: v1..v15
 *   ZV_KEYS8(decrypt)  either of those, decrypt a constant
 *                      only, so v16..v31 hold two groups of blocks
 *   ZV_W8_IN_PLACE     1 if ZV_ENC_W8/ZV_DEC_W8 need no second group (AES),
 *                      so a kernel may keep another group live across them;
 *                      0 (SM4: its word-reversing gather writes a second
 *                      group) and that group goes through a stack buffer
 *
 * Parallel modes (ECB, CTR, CBC/CFB decryption, XTS, OCB) run LMUL=8
 * groups of G = VLEN/16 blocks: with the round keys in v1..v15 and v0 for
 * a mask only two such groups fit, so whatever else a mode carries from
 * group to group (CTR's base counters, XTS's alpha^G, OCB's offsets and
 * checksum) lives in aligned stack buffers and is reloaded, one load each.
 * Each runs a loop over whole groups with one vector length and one end
 * pointer, and the short group once. Fused GCM (zv_gcm.h) runs LMUL=4;
 * chained modes (zv_chain.h: CBC/CFB encryption, OFB, CBC-MAC) one block
 * at a time with the round keys held in registers. Caller buffers: e32
 * accesses when 4-byte aligned (a32), else vle8/vse8 (zv_common.h).
 * Secrets only ever reach vector registers or stack buffers that are
 * wiped: no branch or address depends on them.
 */

/* The LMUL=8 rounds of either direction, decrypt a constant. */
#define ZV_CRYPT_W8(decrypt, s, vl) \
    do {                            \
        if (decrypt) {              \
            ZV_DEC_W8(s, vl);       \
        } else {                    \
            ZV_ENC_W8(s, vl);       \
        }                           \
    } while (0)

/* decrypt is a constant of each instance: the rounds (ZV_CRYPT_W8) and the
 * round keys (ZV_KEYS8) of that direction. */
ZV_INLINE void ZV_FN(ecb_body)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks, const int decrypt,
                               const int a32) {
    ZV_KEYS8(decrypt);
    const size_t stride = zv_group_bytes8(), vlmax = stride / 4, bytes = 16 * nblocks, rem = bytes % stride;
    const uint8_t *end = in + (bytes - rem);
    while (in != end) {
        zv_w8 s = zv_ld_w8(a32, in, vlmax);
        ZV_CRYPT_W8(decrypt, s, vlmax);
        zv_st_w8(a32, out, s, vlmax);
        in += stride;
        out += stride;
    }
    if (rem != 0) {
        zv_w8 s = zv_ld_w8(a32, in, rem / 4);
        ZV_CRYPT_W8(decrypt, s, rem / 4);
        zv_st_w8(a32, out, s, rem / 4);
    }
}

static void ZV_FN(ecb_enc)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ecb_body)(ks, out, in, nblocks, 0, 1);
    else
        ZV_FN(ecb_body)(ks, out, in, nblocks, 0, 0);
}

static void ZV_FN(ecb_dec)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ecb_body)(ks, out, in, nblocks, 1, 1);
    else
        ZV_FN(ecb_body)(ks, out, in, nblocks, 1, 0);
}

/*
 * CBC decryption: P_i = D(C_i) ^ C_{i-1}. The short group first, then whole
 * groups, where `prev` (each block's predecessor) is one load of the input
 * 16 bytes back. It is loaded for the next group before this group's
 * store, so out == in works. The groups that start at the chaining value
 * read their predecessors from a stack copy (zv_prev_blocks8): sliding it
 * in would take a third register group.
 */
ZV_INLINE void ZV_FN(cbc_dec_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_DEC8;
    const size_t stride = zv_group_bytes8(), vlmax = stride / 4, bytes = 16 * nblocks, rem = bytes % stride;
    alignas(16) uint32_t first[4 * ZV_MAX_BLOCKS8];
    if (rem != 0) {
        const size_t vl = rem / 4;
        zv_prev_blocks8(first, iv, in, rem);
        zv_w8 p = zv_ld_w8(a32, in, vl);
        ZV_DEC_W8(p, vl);
        p = __riscv_vxor_vv_u32m8(p, __riscv_vle32_v_u32m8(first, vl), vl);
        zv_store_b(iv, zv_load_b(in + rem - 16)); /* before the store: out may be in */
        zv_st_w8(a32, out, p, vl);
        in += rem;
        out += rem;
    }
    if (bytes == rem)
        return;
    const uint8_t *last = in + (bytes - rem - stride);
    zv_prev_blocks8(first, iv, in, stride);
    zv_w8 prev = __riscv_vle32_v_u32m8(first, vlmax);
    uint32_t *pp = first; /* prev's home across the rounds without ZV_W8_IN_PLACE */
    ZV_OPAQUE(pp);
    while (in != last) {
        zv_w8 p = zv_ld_w8(a32, in, vlmax);
        ZV_DEC_W8(p, vlmax);
        if (!ZV_W8_IN_PLACE) {
            prev = __riscv_vle32_v_u32m8(pp, vlmax);
            p = __riscv_vxor_vv_u32m8(p, prev, vlmax);
            ZV_PIN(p); /* the next group's prev only now: two groups live */
            __riscv_vse32_v_u32m8(pp, zv_ld_w8(a32, in + stride - 16, vlmax), vlmax);
        } else {
            p = __riscv_vxor_vv_u32m8(p, prev, vlmax);
            prev = zv_ld_w8(a32, in + stride - 16, vlmax);
        }
        zv_st_w8(a32, out, p, vlmax);
        in += stride;
        out += stride;
    }
    zv_w8 p = zv_ld_w8(a32, in, vlmax);
    ZV_DEC_W8(p, vlmax);
    if (!ZV_W8_IN_PLACE)
        prev = __riscv_vle32_v_u32m8(pp, vlmax);
    p = __riscv_vxor_vv_u32m8(p, prev, vlmax);
    zv_store_b(iv, zv_load_b(in + stride - 16));
    zv_st_w8(a32, out, p, vlmax);
}

static void ZV_FN(cbc_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(cbc_dec_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(cbc_dec_body)(ks, iv, out, in, nblocks, 0);
}

/* CFB decryption: P_i = E(C_{i-1}) ^ C_i, the same schedule as CBC. */
ZV_INLINE void ZV_FN(cfb_dec_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC8;
    const size_t stride = zv_group_bytes8(), vlmax = stride / 4, bytes = 16 * nblocks, rem = bytes % stride;
    alignas(16) uint32_t first[4 * ZV_MAX_BLOCKS8];
    if (rem != 0) {
        const size_t vl = rem / 4;
        zv_prev_blocks8(first, iv, in, rem);
        zv_w8 k = __riscv_vle32_v_u32m8(first, vl);
        ZV_ENC_W8(k, vl);
        k = __riscv_vxor_vv_u32m8(k, zv_ld_w8(a32, in, vl), vl);
        zv_store_b(iv, zv_load_b(in + rem - 16)); /* before the store: out may be in */
        zv_st_w8(a32, out, k, vl);
        in += rem;
        out += rem;
    }
    if (bytes == rem)
        return;
    const uint8_t *last = in + (bytes - rem - stride);
    zv_prev_blocks8(first, iv, in, stride);
    zv_w8 k = __riscv_vle32_v_u32m8(first, vlmax);
    while (in != last) {
        ZV_ENC_W8(k, vlmax);
        zv_w8 p = __riscv_vxor_vv_u32m8(k, zv_ld_w8(a32, in, vlmax), vlmax);
        k = zv_ld_w8(a32, in + stride - 16, vlmax);
        zv_st_w8(a32, out, p, vlmax);
        in += stride;
        out += stride;
    }
    ZV_ENC_W8(k, vlmax);
    zv_w8 p = __riscv_vxor_vv_u32m8(k, zv_ld_w8(a32, in, vlmax), vlmax);
    zv_store_b(iv, zv_load_b(in + stride - 16));
    zv_st_w8(a32, out, p, vlmax);
}

static void ZV_FN(cfb_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(cfb_dec_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(cfb_dec_body)(ks, iv, out, in, nblocks, 0);
}

/*
 * CTR over the low 32 bits of the counter (mod 2^32), as GCM wants. The
 * group's counters are rebuilt each time from an aligned copy of the first
 * group's (native words, zv_ctr_init8) plus the blocks done so far on
 * lane 3: one load and one masked vadd, no register group kept live.
 */
ZV_INLINE void ZV_FN(ctr32_body)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    const size_t stride = zv_group_bytes8(), vlmax = stride / 4, bytes = 16 * nblocks, rem = bytes % stride;
    alignas(16) uint32_t base[4 * ZV_MAX_BLOCKS8];
    __riscv_vse32_v_u32m8(base, zv_ctr_init8(ctr, vlmax), vlmax);
    const vbool4_t lane3 = zv_lane3_mask8(vlmax);
    ZV_KEYS_ENC8;
    const uint8_t *end = in + (bytes - rem);
    uint32_t done = 0;
    const uint32_t *bp = base;
    ZV_OPAQUE(bp); /* the stores through out might change *bp: reload it */
    while (in != end) {
        zv_w8 k = __riscv_vle32_v_u32m8(bp, vlmax);
        k = __riscv_vadd_vx_u32m8_mu(lane3, k, k, done, vlmax);
        ZV_ENC_W8_NATIVE(k, vlmax);
        zv_st_w8(a32, out, __riscv_vxor_vv_u32m8(k, zv_ld_w8(a32, in, vlmax), vlmax), vlmax);
        done += (uint32_t)(vlmax / 4);
        in += stride;
        out += stride;
    }
    if (rem != 0) {
        const size_t vl = rem / 4;
        zv_w8 k = __riscv_vle32_v_u32m8(base, vl);
        k = __riscv_vadd_vx_u32m8_mu(lane3, k, k, done, vl);
        ZV_ENC_W8_NATIVE(k, vl);
        zv_st_w8(a32, out, __riscv_vxor_vv_u32m8(k, zv_ld_w8(a32, in, vl), vl), vl);
    }
    hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + (uint32_t)nblocks);
}

static void ZV_FN(ctr32)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ctr32_body)(ks, ctr, out, in, nblocks, 1);
    else
        ZV_FN(ctr32_body)(ks, ctr, out, in, nblocks, 0);
}

/* CTR over the whole 128-bit counter: runs of ctr32 up to each wrap of the
 * low word, then the carry into the upper 96 bits (the counter is public). */
static void ZV_FN(ctr128)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    while (nblocks != 0) {
        uint64_t room = (uint64_t)1 << 32;
        room -= hwc_load_be32(ctr + 12);
        size_t n = (uint64_t)nblocks < room ? nblocks : (size_t)room;
        ZV_FN(ctr32)(ks, ctr, out, in, n);
        if ((uint64_t)n == room) { /* low word wrapped to 0: carry */
            for (int i = 11; i >= 0 && ++ctr[i] == 0; i--) {
            }
        }
        in += 16 * n;
        out += 16 * n;
        nblocks -= n;
    }
}

/*
 * XTS. The tweaks of a group of G blocks are T_j .. T_{j+G-1}; the next
 * group's are these times alpha^G, one vgmul (Zvkg) per group. vgmul works
 * in GCM's bit order, which is XTS's order with the bits of each byte
 * reversed: the tweak group is bit-reversed (vbrev8, Zvkb) in place around
 * the vgmul, and alpha^G (bit-reversed, in every block) is reloaded into
 * the free group, so only the tweaks stay live (without ZV_W8_IN_PLACE
 * they too live in a stack buffer). The short group comes last and uses
 * the first blocks of the next group's tweaks; the block after it is the
 * tweak to return.
 */
#define ZV_XTS_GROUP(CRYPT_W8, vl)                                                              \
    do {                                                                                        \
        if (!ZV_W8_IN_PLACE)                                                                    \
            tw = __riscv_vle32_v_u32m8(tp, vl);                                                 \
        zv_w8 s = __riscv_vxor_vv_u32m8(zv_ld_w8(a32, in, vl), tw, vl);                         \
        CRYPT_W8(s, vl);                                                                        \
        if (!ZV_W8_IN_PLACE)                                                                    \
            tw = __riscv_vle32_v_u32m8(tp, vl);                                                 \
        zv_st_w8(a32, out, __riscv_vxor_vv_u32m8(s, tw, vl), vl);                               \
    } while (0)
#define ZV_XTS_LOOP(CRYPT_W8)                                                                   \
    do {                                                                                        \
        while (in != end) {                                                                     \
            ZV_XTS_GROUP(CRYPT_W8, vlmax);                                                      \
            tw = __riscv_vbrev8_v_u32m8(tw, vlmax);                                             \
            tw = __riscv_vgmul_vv_u32m8(tw, __riscv_vle32_v_u32m8(ap, vlmax), vlmax);           \
            tw = __riscv_vbrev8_v_u32m8(tw, vlmax);                                             \
            if (!ZV_W8_IN_PLACE)                                                                \
                __riscv_vse32_v_u32m8(tp, tw, vlmax);                                           \
            in += stride;                                                                       \
            out += stride;                                                                      \
        }                                                                                       \
        if (rem != 0)                                                                           \
            ZV_XTS_GROUP(CRYPT_W8, rem / 4);                                                    \
    } while (0)

ZV_INLINE void ZV_FN(xts_crypt)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                                int encrypt, const int a32) {
    if (nblocks == 0)
        return;
    const size_t stride = zv_group_bytes8(), vlmax = stride / 4, gmax = vlmax / 4;
    const size_t bytes = 16 * nblocks, rem = bytes % stride;
    const uint8_t *end = in + (bytes - rem);
    /* The first group's tweaks, or the call's and the one after when the
     * call is shorter than a group. */
    const size_t ntw = nblocks < gmax ? nblocks + 1 : gmax;
    zv_w8 tw = zv_xts_tweaks8(tweak, 4 * ntw);
    alignas(16) uint32_t alpha_g[4 * ZV_MAX_BLOCKS8], tws[ZV_W8_IN_PLACE ? 4 : 4 * ZV_MAX_BLOCKS8];
    uint32_t *tp = tws, *ap = alpha_g;
    if (!ZV_W8_IN_PLACE)
        __riscv_vse32_v_u32m8(tp, tw, 4 * ntw);
    if (nblocks >= gmax) {
        alignas(16) uint8_t x_g[16] = {0};
        x_g[gmax / 8] = (uint8_t)(1u << (gmax % 8)); /* x^G in XTS order */
        zv_b a = __riscv_vbrev8_v_u32m1(zv_load_key((const uint32_t *)(const void *)x_g), 4);
        __riscv_vse32_v_u32m8(alpha_g, zv_splat_block8(a, vlmax), vlmax);
    }
    /* the loop's stores might change *ap and *tp: reloaded each group, not
     * hoisted into a third live register group */
    ZV_OPAQUE(ap);
    ZV_OPAQUE(tp);
    if (encrypt) {
        ZV_KEYS_ENC8;
        ZV_XTS_LOOP(ZV_ENC_W8);
    } else {
        ZV_KEYS_DEC8;
        ZV_XTS_LOOP(ZV_DEC_W8);
    }
    if (!ZV_W8_IN_PLACE) {
        tw = __riscv_vle32_v_u32m8(tp, ntw < gmax ? 4 * ntw : vlmax);
        hwc_wipe(tws, stride);
    }
    zv_store_b(tweak, zv_block_at8(tw, rem / 16));
}
#undef ZV_XTS_GROUP
#undef ZV_XTS_LOOP

static void ZV_FN(xts_enc)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (hwc_caps() & HWC_CAP_ZVKG)
        zv_aligned4(out, in) ? ZV_FN(xts_crypt)(ks, tweak, out, in, nblocks, 1, 1)
                             : ZV_FN(xts_crypt)(ks, tweak, out, in, nblocks, 1, 0);
    else
        hwc_generic_xts_enc(ZV_IMPL, ks, tweak, out, in, nblocks);
}

static void ZV_FN(xts_dec)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (hwc_caps() & HWC_CAP_ZVKG)
        zv_aligned4(out, in) ? ZV_FN(xts_crypt)(ks, tweak, out, in, nblocks, 0, 1)
                             : ZV_FN(xts_crypt)(ks, tweak, out, in, nblocks, 0, 0);
    else
        hwc_generic_xts_dec(ZV_IMPL, ks, tweak, out, in, nblocks);
}

/*
 * OCB3. Within a group of G blocks whose first index i0 is a multiple of G,
 * the offsets are O_{i0} ^ P_b with P_b = L[ntz(1)] ^ ... ^ L[ntz(b)] the
 * same for every group (ntz(i0 + b) = ntz(b) for 0 < b < G), and P_{G-1} =
 * L[log2 G - 1] (every other L[k] appears an even number of times). So the
 * next group's offsets are this group's ^ (L[log2 G - 1] ^ L[ntz(i0 + G)])
 * in every block: two vxor.vx on the 64-bit view (zv_xor_block8), from a
 * per-call table D[k] (k >= log2 G, as ntz(i0) is). Offsets and the
 * per-lane checksum live in aligned stack buffers (two groups only at
 * LMUL=8); the checksum lanes are folded once. The blocks before the first
 * such group take their offsets from a scalar loop, in one short group;
 * the short group after the last whole one takes the first lanes of the
 * next. The indices are public, so the table lookups are too.
 */
ZV_INLINE void ZV_FN(ocb_body)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                               uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks, int encrypt,
                               const int a32) {
    if (nblocks == 0)
        return;
    const size_t stride = zv_group_bytes8(), vlmax = stride / 4, gmax = vlmax / 4;
    const unsigned log2g = (unsigned)__builtin_ctzll(gmax);
    alignas(16) uint8_t offs[16 * ZV_MAX_BLOCKS8]; /* offsets of the group's blocks */
    alignas(16) uint8_t sums[16 * ZV_MAX_BLOCKS8]; /* checksum per lane */
    uint64_t d[2 * 64];                            /* D[k] as {hi, lo ^ hi}, log2g <= k < k_end */
    unsigned k_end = log2g;
    uint64_t o_lo = hwc_load_le64(offset), o_hi = hwc_load_le64(offset + 8);
    size_t lead = (size_t)((gmax - first_index % gmax) % gmax);
    if (lead > nblocks)
        lead = nblocks;
    for (size_t b = 0; b < lead; b++) {
        const uint8_t *l = L[__builtin_ctzll(first_index + b)];
        o_lo ^= zv_le64_aligned(l);
        o_hi ^= zv_le64_aligned(l + 8);
        memcpy(offs + 16 * b, &o_lo, 8);
        memcpy(offs + 16 * b + 8, &o_hi, 8);
    }
    const vbool8_t even64 = zv_even64_mask8(vlmax);
    __riscv_vse32_v_u32m8((uint32_t *)(void *)sums, __riscv_vmv_v_x_u32m8(0, vlmax), vlmax);
    /* the loops' stores might change *op and *sp (they do): kept in the loop */
    uint32_t *op = (uint32_t *)(void *)offs, *sp = (uint32_t *)(void *)sums;
    ZV_OPAQUE(op);
    ZV_OPAQUE(sp);
    uint64_t i0 = first_index + lead;
    /* A group's offsets: those of the lead as they are; those of a group at
     * i0 (a multiple of G) by the update, on the 64-bit view, load to store. */
#define ZV_OCB_OFFS_AS_IS(vl) zv_w8 o = __riscv_vle32_v_u32m8(op, vl)
#define ZV_OCB_OFFS_NEXT(vl)                                                                       \
    const uint64_t *dk = d + 2 * __builtin_ctzll(i0);                                             \
    vuint64m8_t o64 = __riscv_vle64_v_u64m8((const uint64_t *)(const void *)op, (vl) / 2);        \
    zv_w8 o = zv_xor_block8(__riscv_vreinterpret_v_u64m8_u32m8(o64), dk[0], dk[1], even64, vl);   \
    __riscv_vse64_v_u64m8((uint64_t *)(void *)op, __riscv_vreinterpret_v_u32m8_u64m8(o), (vl) / 2)
#define ZV_OCB_SUM(x, vl) __riscv_vse32_v_u32m8(sp, __riscv_vxor_vv_u32m8(__riscv_vle32_v_u32m8(sp, vl), x, vl), vl)
    /* ZV_FENCE: the checksum's load and store stay on their side of the
     * offsets' (clang would start all loads early: three groups live). */
#define ZV_OCB_ENC(vl, OFFS)                                                                       \
    do {                                                                                           \
        zv_w8 x = zv_ld_w8(a32, in, vl);                                                           \
        ZV_OCB_SUM(x, vl);                                                                         \
        ZV_FENCE();                                                                                \
        OFFS(vl);                                                                                  \
        x = __riscv_vxor_vv_u32m8(x, o, vl);                                                       \
        ZV_ENC_W8(x, vl);                                                                          \
        if (!ZV_W8_IN_PLACE)                                                                       \
            o = __riscv_vle32_v_u32m8(op, vl);                                                     \
        zv_st_w8(a32, out, __riscv_vxor_vv_u32m8(x, o, vl), vl);                                   \
    } while (0)
#define ZV_OCB_DEC(vl, OFFS)                                                                       \
    do {                                                                                           \
        OFFS(vl);                                                                                  \
        zv_w8 x = __riscv_vxor_vv_u32m8(zv_ld_w8(a32, in, vl), o, vl);                             \
        ZV_DEC_W8(x, vl);                                                                          \
        if (!ZV_W8_IN_PLACE)                                                                       \
            o = __riscv_vle32_v_u32m8(op, vl);                                                     \
        x = __riscv_vxor_vv_u32m8(x, o, vl);                                                       \
        zv_st_w8(a32, out, x, vl);                                                                 \
        ZV_FENCE();                                                                                \
        ZV_OCB_SUM(x, vl);                                                                         \
    } while (0)
    if (lead != 0) {
        if (encrypt) {
            ZV_KEYS_ENC8;
            ZV_OCB_ENC(4 * lead, ZV_OCB_OFFS_AS_IS);
        } else {
            ZV_KEYS_DEC8;
            ZV_OCB_DEC(4 * lead, ZV_OCB_OFFS_AS_IS);
        }
        in += 16 * lead;
        out += 16 * lead;
        nblocks -= lead;
    }
    if (nblocks != 0) {
        const size_t bytes = 16 * nblocks, rem = bytes % stride;
        const uint8_t *end = in + (bytes - rem);
        const uint8_t *lp = L[log2g - 1]; /* P_{G-1} */
        const uint64_t p_lo = zv_le64_aligned(lp), p_hi = zv_le64_aligned(lp + 8);
        const uint64_t last_index = i0 + nblocks - 1;
        for (; k_end < 64 && ((uint64_t)1 << k_end) <= last_index; k_end++) {
            uint64_t lo = zv_le64_aligned(L[k_end]) ^ p_lo, hi = zv_le64_aligned(L[k_end] + 8) ^ p_hi;
            d[2 * k_end] = hi;
            d[2 * k_end + 1] = lo ^ hi;
        }
        /* Before the first group: O_{i0-1} ^ P_{G-1} ^ P_b, so that every
         * group, the first too, starts with the same update. */
        uint64_t c_lo = o_lo ^ p_lo, c_hi = o_hi ^ p_hi;
        for (size_t b = 0; b < gmax; b++) {
            if (b != 0) {
                const uint8_t *l = L[__builtin_ctzll(b)];
                c_lo ^= zv_le64_aligned(l);
                c_hi ^= zv_le64_aligned(l + 8);
            }
            memcpy(offs + 16 * b, &c_lo, 8);
            memcpy(offs + 16 * b + 8, &c_hi, 8);
        }
        if (encrypt) {
            ZV_KEYS_ENC8;
            for (; in != end; i0 += gmax, in += stride, out += stride)
                ZV_OCB_ENC(vlmax, ZV_OCB_OFFS_NEXT);
            if (rem != 0)
                ZV_OCB_ENC(rem / 4, ZV_OCB_OFFS_NEXT);
        } else {
            ZV_KEYS_DEC8;
            for (; in != end; i0 += gmax, in += stride, out += stride)
                ZV_OCB_DEC(vlmax, ZV_OCB_OFFS_NEXT);
            if (rem != 0)
                ZV_OCB_DEC(rem / 4, ZV_OCB_OFFS_NEXT);
        }
        /* the offset of the call's last block */
        const uint8_t *last = offs + (rem != 0 ? rem - 16 : stride - 16);
        memcpy(&o_lo, last, 8);
        memcpy(&o_hi, last + 8, 8);
    }
#undef ZV_OCB_OFFS_AS_IS
#undef ZV_OCB_OFFS_NEXT
#undef ZV_OCB_SUM
#undef ZV_OCB_ENC
#undef ZV_OCB_DEC
    hwc_store_le64(offset, o_lo);
    hwc_store_le64(offset + 8, o_hi);
    /* the lanes' checksums folded */
    const size_t half = gmax / 2;
    zv_w s = __riscv_vxor_vv_u32m4(__riscv_vle32_v_u32m4(sp, 4 * half), __riscv_vle32_v_u32m4(sp + 4 * half, 4 * half),
                                   4 * half);
    zv_store_b(checksum, __riscv_vxor_vv_u32m1(zv_load_b(checksum), zv_fold_lanes(s, half), 4));
    hwc_wipe(offs, stride);
    hwc_wipe(sums, stride);
    hwc_wipe(d + 2 * log2g, 16 * (k_end - log2g));
}

static void ZV_FN(ocb_enc)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                           uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ocb_body)(ks, L, first_index, offset, checksum, out, in, nblocks, 1, 1);
    else
        ZV_FN(ocb_body)(ks, L, first_index, offset, checksum, out, in, nblocks, 1, 0);
}

static void ZV_FN(ocb_dec)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                           uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ocb_body)(ks, L, first_index, offset, checksum, out, in, nblocks, 0, 1);
    else
        ZV_FN(ocb_body)(ks, L, first_index, offset, checksum, out, in, nblocks, 0, 0);
}

#include "riscv/zv_chain.h"
#include "riscv/zv_gcm.h"
