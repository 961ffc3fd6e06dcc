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
 *   ZV_ENC_W8(s, vl)   the same for zv_w8 (LMUL=8, ECB only)
 *   ZV_KEYS_DEC, ZV_DEC_W(s, vl), ZV_DEC_W8(s, vl)   the same for decryption
 *
 * Parallel modes (ECB, CTR, CBC/CFB decryption, XTS, GCM) take a whole
 * register group of blocks per instruction; chained ones (CBC/CFB
 * encryption, OFB, CBC-MAC) one block at a time with the round keys held in
 * registers. Caller buffers: e32 accesses when 4-byte aligned (a32), else
 * vle8/vse8 (zv_common.h).
 * Secrets only ever reach vector registers: no branch or address depends
 * on them.
 */

ZV_INLINE void ZV_FN(ecb_enc_body)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    const size_t gmax = zv_max_blocks8();
    while (nblocks != 0) {
        size_t g = nblocks < gmax ? nblocks : gmax, vl = 4 * g;
        zv_w8 s = zv_ld_w8(a32, in, vl);
        ZV_ENC_W8(s, vl);
        zv_st_w8(a32, out, s, vl);
        in += 16 * g;
        out += 16 * g;
        nblocks -= g;
    }
}

static void ZV_FN(ecb_enc)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ecb_enc_body)(ks, out, in, nblocks, 1);
    else
        ZV_FN(ecb_enc_body)(ks, out, in, nblocks, 0);
}

ZV_INLINE void ZV_FN(ecb_dec_body)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_DEC;
    const size_t gmax = zv_max_blocks8();
    while (nblocks != 0) {
        size_t g = nblocks < gmax ? nblocks : gmax, vl = 4 * g;
        zv_w8 s = zv_ld_w8(a32, in, vl);
        ZV_DEC_W8(s, vl);
        zv_st_w8(a32, out, s, vl);
        in += 16 * g;
        out += 16 * g;
        nblocks -= g;
    }
}

static void ZV_FN(ecb_dec)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(ecb_dec_body)(ks, out, in, nblocks, 1);
    else
        ZV_FN(ecb_dec_body)(ks, out, in, nblocks, 0);
}

ZV_INLINE void ZV_FN(cbc_dec_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_DEC;
    const size_t gmax = zv_max_blocks();
    zv_b prev = zv_load_b(iv);
    while (nblocks != 0) {
        size_t g = nblocks < gmax ? nblocks : gmax, vl = 4 * g;
        zv_w c = zv_ld_w(a32, in, vl), p = c;
        ZV_DEC_W(p, vl);
        p = __riscv_vxor_vv_u32m4(p, zv_shift_in_block(c, prev, vl), vl);
        prev = zv_last_block(c, vl); /* before the store: out may be in */
        zv_st_w(a32, out, p, vl);
        in += 16 * g;
        out += 16 * g;
        nblocks -= g;
    }
    zv_store_b(iv, prev);
}

static void ZV_FN(cbc_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(cbc_dec_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(cbc_dec_body)(ks, iv, out, in, nblocks, 0);
}

ZV_INLINE void ZV_FN(cfb_dec_body)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    const size_t gmax = zv_max_blocks();
    zv_b prev = zv_load_b(iv);
    while (nblocks != 0) {
        size_t g = nblocks < gmax ? nblocks : gmax, vl = 4 * g;
        zv_w c = zv_ld_w(a32, in, vl);
        zv_w k = zv_shift_in_block(c, prev, vl);
        ZV_ENC_W(k, vl);
        prev = zv_last_block(c, vl);
        zv_st_w(a32, out, __riscv_vxor_vv_u32m4(k, c, vl), vl);
        in += 16 * g;
        out += 16 * g;
        nblocks -= g;
    }
    zv_store_b(iv, prev);
}

static void ZV_FN(cfb_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(out, in))
        ZV_FN(cfb_dec_body)(ks, iv, out, in, nblocks, 1);
    else
        ZV_FN(cfb_dec_body)(ks, iv, out, in, nblocks, 0);
}

/* CTR over the low 32 bits of the counter (mod 2^32), as GCM wants. */
ZV_INLINE void ZV_FN(ctr32_body)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks, const int a32) {
    ZV_KEYS_ENC;
    const size_t gmax = zv_max_blocks(), vlmax = 4 * gmax;
    const vbool8_t lane3 = zv_lane3_mask(vlmax);
    zv_w ctrv = zv_ctr_init(ctr, lane3, vlmax);
    size_t left = nblocks;
    while (left != 0) {
        size_t g = left < gmax ? left : gmax, vl = 4 * g;
        zv_w k = __riscv_vrev8_v_u32m4(ctrv, vl);
        ZV_ENC_W(k, vl);
        zv_st_w(a32, out, __riscv_vxor_vv_u32m4(k, zv_ld_w(a32, in, vl), vl), vl);
        /* vl, not vlmax: one vector length in the loop (no vsetvli between
         * instructions); only a short last group leaves lanes behind, and
         * nothing reads them after it. */
        ctrv = zv_ctr_advance(ctrv, lane3, g, vl);
        in += 16 * g;
        out += 16 * g;
        left -= g;
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
 * reversed: the tweaks live bit-reversed (vbrev8, Zvkb) in `tg`.
 */
ZV_INLINE void ZV_FN(xts_crypt)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                                int encrypt, const int a32) {
    const size_t gmax = zv_max_blocks();
    const size_t g0 = nblocks < gmax ? nblocks : gmax, vl0 = 4 * g0;
    if (nblocks == 0)
        return;
    alignas(16) uint8_t t[16 * 32];
    memcpy(t, tweak, 16);
    for (size_t i = 1; i < g0; i++) {
        memcpy(t + 16 * i, t + 16 * (i - 1), 16);
        zv_xts_double(t + 16 * i);
    }
    alignas(16) uint8_t alpha_g[16] = {0};
    alpha_g[g0 / 8] = (uint8_t)(1u << (g0 % 8)); /* x^g0 in XTS order */
    zv_w tw = __riscv_vle32_v_u32m4((const uint32_t *)(const void *)t, vl0);
    zv_w tg = __riscv_vbrev8_v_u32m4(tw, vl0);
    const zv_w a = zv_splat_block(__riscv_vbrev8_v_u32m1(zv_load_b(alpha_g), 4), vl0);
    zv_b last = zv_load_b(tweak);
    if (encrypt) {
        ZV_KEYS_ENC;
        for (;;) {
            size_t g = nblocks < g0 ? nblocks : g0, vl = 4 * g;
            zv_w s = __riscv_vxor_vv_u32m4(zv_ld_w(a32, in, vl), tw, vl);
            ZV_ENC_W(s, vl);
            zv_st_w(a32, out, __riscv_vxor_vv_u32m4(s, tw, vl), vl);
            last = zv_last_block(tw, vl);
            in += 16 * g;
            out += 16 * g;
            nblocks -= g;
            if (nblocks == 0)
                break;
            tg = __riscv_vgmul_vv_u32m4(tg, a, vl0);
            tw = __riscv_vbrev8_v_u32m4(tg, vl0);
        }
    } else {
        ZV_KEYS_DEC;
        for (;;) {
            size_t g = nblocks < g0 ? nblocks : g0, vl = 4 * g;
            zv_w s = __riscv_vxor_vv_u32m4(zv_ld_w(a32, in, vl), tw, vl);
            ZV_DEC_W(s, vl);
            zv_st_w(a32, out, __riscv_vxor_vv_u32m4(s, tw, vl), vl);
            last = zv_last_block(tw, vl);
            in += 16 * g;
            out += 16 * g;
            nblocks -= g;
            if (nblocks == 0)
                break;
            tg = __riscv_vgmul_vv_u32m4(tg, a, vl0);
            tw = __riscv_vbrev8_v_u32m4(tg, vl0);
        }
    }
    zv_store_b(tweak, last);
    zv_xts_double(tweak);
    hwc_wipe(t, sizeof t);
}

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
 * same for every group (ntz(i0 + b) = ntz(b) for 0 < b < G): one scalar
 * step O_{i0} = O_{i0-1} ^ L[ntz(i0)] and a vxor give all G offsets. The
 * checksum accumulates per lane and is folded once. Blocks before the first
 * such group and after the last go through the generic kernel. The indices
 * are public, so the table lookups are too.
 */
ZV_INLINE void ZV_FN(ocb_body)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                               uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks, int encrypt,
                               const int a32) {
    const size_t gmax = zv_max_blocks(), vl = 4 * gmax;
    size_t lead = (size_t)((gmax - first_index % gmax) % gmax);
    if (lead > nblocks)
        lead = nblocks;
    if (lead != 0) {
        (encrypt ? hwc_generic_ocb_enc : hwc_generic_ocb_dec)(ZV_IMPL, ks, L, first_index, offset, checksum, out,
                                                               in, lead);
        first_index += lead;
        in += 16 * lead;
        out += 16 * lead;
        nblocks -= lead;
    }
    if (nblocks >= gmax) {
        alignas(16) uint8_t p[16 * 32];
        memset(p, 0, 16);
        for (size_t b = 1; b < gmax; b++)
            hwc_xor(p + 16 * b, p + 16 * (b - 1), L[__builtin_ctzll(b)], 16);
        const zv_w pv = __riscv_vle32_v_u32m4((const uint32_t *)(const void *)p, vl);
        zv_w sum = __riscv_vmv_v_x_u32m4(0, vl);
        alignas(16) uint8_t o[16];
        memcpy(o, offset, 16);
        if (encrypt) {
            ZV_KEYS_ENC;
            do {
                hwc_xor(o, o, L[__builtin_ctzll(first_index)], 16);
                zv_w offs = __riscv_vxor_vv_u32m4(zv_splat_block(zv_load_b(o), vl), pv, vl);
                zv_w x = zv_ld_w(a32, in, vl);
                sum = __riscv_vxor_vv_u32m4(sum, x, vl);
                x = __riscv_vxor_vv_u32m4(x, offs, vl);
                ZV_ENC_W(x, vl);
                zv_st_w(a32, out, __riscv_vxor_vv_u32m4(x, offs, vl), vl);
                zv_store_b(o, zv_last_block(offs, vl));
                first_index += gmax;
                in += 16 * gmax;
                out += 16 * gmax;
                nblocks -= gmax;
            } while (nblocks >= gmax);
        } else {
            ZV_KEYS_DEC;
            do {
                hwc_xor(o, o, L[__builtin_ctzll(first_index)], 16);
                zv_w offs = __riscv_vxor_vv_u32m4(zv_splat_block(zv_load_b(o), vl), pv, vl);
                zv_w x = __riscv_vxor_vv_u32m4(zv_ld_w(a32, in, vl), offs, vl);
                ZV_DEC_W(x, vl);
                x = __riscv_vxor_vv_u32m4(x, offs, vl);
                sum = __riscv_vxor_vv_u32m4(sum, x, vl);
                zv_st_w(a32, out, x, vl);
                zv_store_b(o, zv_last_block(offs, vl));
                first_index += gmax;
                in += 16 * gmax;
                out += 16 * gmax;
                nblocks -= gmax;
            } while (nblocks >= gmax);
        }
        zv_store_b(checksum, __riscv_vxor_vv_u32m1(zv_load_b(checksum), zv_fold_lanes(sum, gmax), 4));
        memcpy(offset, o, 16);
        hwc_wipe(o, sizeof o);
    }
    if (nblocks != 0)
        (encrypt ? hwc_generic_ocb_enc : hwc_generic_ocb_dec)(ZV_IMPL, ks, L, first_index, offset, checksum, out,
                                                               in, nblocks);
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
