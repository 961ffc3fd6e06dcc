/*
 * Shared pieces of the RISC-V vector crypto back ends (aes_zvkned.c,
 * sm4_zvksed.c, ghash_zvkg.c). These files are compiled by clang with the
 * vector extensions they use enabled for the whole file (gas 2.40 cannot
 * assemble Zvk*; see cmake/riscv-vector.cmake). Nothing in them runs unless
 * dispatch found those extensions, so the rest of the library stays rv64gc.
 *
 * Layout. A 16-byte block is one element group of four 32-bit elements
 * (EGW=128), bytes in memory order, as Zvkned, Zvksed and Zvkg define it.
 * Wide kernels work on LMUL=4 register groups: VLEN/32 blocks per
 * instruction (4 at VLEN=128, 8 at 256), whatever VLEN is; the parallel
 * modes of zv_modes.h on LMUL=8 (helpers below).
 *
 * Alignment. Caller buffers are read and written with e32 loads and stores
 * when in and out are 4-byte aligned, with byte-element loads and stores
 * (vle8/vse8) otherwise, so no access is ever misaligned; key schedules
 * and the GHASH key are aligned (hwc_ks, hwc_ghash_key) and use vle32. vl is always set explicitly to at most VLMAX, so vsetvli returns
 * exactly the requested length (a multiple of 4 elements: whole blocks).
 */
#ifndef HWC_ZV_COMMON_H
#define HWC_ZV_COMMON_H

#include <riscv_vector.h>

#include "backend.h"

#define ZV_INLINE static inline __attribute__((always_inline))

typedef vuint32m4_t zv_w;  /* several blocks */
typedef vuint32m1_t zv_b;  /* one block (vl = 4) or one round key */

/* Blocks per wide register group: VLEN/32 (LMUL=4, four elements a block). */
ZV_INLINE size_t zv_max_blocks(void) {
    size_t g = __riscv_vsetvlmax_e32m4() / 4;
    return g < 32 ? g : 32; /* the GHASH key holds 32 powers of H */
}

/* The parallel modes run LMUL=8 (VLEN/16 blocks; see the LMUL=8 helpers). */
typedef vuint32m8_t zv_w8;
ZV_INLINE size_t zv_max_blocks8(void) {
    return __riscv_vsetvlmax_e32m8() / 4;
}
ZV_INLINE zv_w8 zv_ld_w8(int a32, const uint8_t *p, size_t vl) {
    if (a32)
        return __riscv_vle32_v_u32m8((const uint32_t *)(const void *)p, vl);
    return __riscv_vreinterpret_v_u8m8_u32m8(__riscv_vle8_v_u8m8(p, vl * 4));
}
ZV_INLINE void zv_st_w8(int a32, uint8_t *p, zv_w8 v, size_t vl) {
    if (a32)
        __riscv_vse32_v_u32m8((uint32_t *)(void *)p, v, vl);
    else
        __riscv_vse8_v_u8m8(p, __riscv_vreinterpret_v_u32m8_u8m8(v), vl * 4);
}

/* VLEN in bits, for usable(): vlenb is VLEN/8 bytes. */
ZV_INLINE unsigned zv_vlen_bits(void) {
    return (unsigned)__riscv_vsetvlmax_e8m1() * 8u;
}

/* Common usable(): the vector unit must hold at least one 128-bit group. */
static int zv_usable_vlen(uint64_t caps, const char **why) {
    (void)caps;
    if (zv_vlen_bits() >= 128)
        return 1;
    if (why)
        *why = "needs VLEN >= 128 (vector registers narrower than one block)";
    return 0;
}

/* nblocks blocks (4*nblocks elements) of caller bytes, any alignment. */
ZV_INLINE zv_w zv_load_w(const uint8_t *p, size_t vl) {
    return __riscv_vreinterpret_v_u8m4_u32m4(__riscv_vle8_v_u8m4(p, vl * 4));
}
ZV_INLINE void zv_store_w(uint8_t *p, zv_w v, size_t vl) {
    __riscv_vse8_v_u8m4(p, __riscv_vreinterpret_v_u32m4_u8m4(v), vl * 4);
}
ZV_INLINE zv_b zv_load_b(const uint8_t *p) {
    return __riscv_vreinterpret_v_u8m1_u32m1(__riscv_vle8_v_u8m1(p, 16));
}
ZV_INLINE void zv_store_b(uint8_t *p, zv_b v) {
    __riscv_vse8_v_u8m1(p, __riscv_vreinterpret_v_u32m1_u8m1(v), 16);
}
/* The same with the element width chosen per call: a32 (a constant of each
 * kernel instantiation) says in and out are 4-byte aligned, so e32 loads
 * and stores are aligned too and the kernel needs no vtype switch between
 * its memory accesses and its crypto instructions. */
ZV_INLINE zv_w zv_ld_w(int a32, const uint8_t *p, size_t vl) {
    return a32 ? __riscv_vle32_v_u32m4((const uint32_t *)(const void *)p, vl) : zv_load_w(p, vl);
}
ZV_INLINE void zv_st_w(int a32, uint8_t *p, zv_w v, size_t vl) {
    if (a32)
        __riscv_vse32_v_u32m4((uint32_t *)(void *)p, v, vl);
    else
        zv_store_w(p, v, vl);
}
ZV_INLINE zv_b zv_ld_b(int a32, const uint8_t *p) {
    return a32 ? __riscv_vle32_v_u32m1((const uint32_t *)(const void *)p, 4) : zv_load_b(p);
}
ZV_INLINE void zv_st_b(int a32, uint8_t *p, zv_b v) {
    if (a32)
        __riscv_vse32_v_u32m1((uint32_t *)(void *)p, v, 4);
    else
        zv_store_b(p, v);
}
ZV_INLINE int zv_aligned4(const void *a, const void *b) {
    return (((uintptr_t)a | (uintptr_t)b) & 3) == 0;
}

/* A round key or other aligned 16 bytes of a schedule. */
ZV_INLINE zv_b zv_load_key(const uint32_t *p) {
    return __riscv_vle32_v_u32m1(p, 4);
}

/*
 * LMUL=8 helpers of the parallel mode kernels (zv_modes.h). At LMUL=8 only
 * two register groups fit beside the round keys (v1..v15) and the mask
 * register v0, so these kernels keep everything else in aligned stack
 * buffers sized for VLEN=1024 (ZV_MAX_BLOCKS8 blocks) and reload it.
 */
#define ZV_MAX_BLOCKS8 64
/* name (type T) = init, placed in register (group) reg at this point: a
 * hint clang's allocator keeps for the LMUL=8 kernels' round keys. */
#define ZV_PINNED(T, name, reg, init)        \
    register T name __asm__(reg) = (init);   \
    __asm__ volatile("" : "+vr"(name))
/* v is complete here, and no load or store moves across (it is volatile
 * asm): keeps clang's scheduler from starting a group load while a third
 * group is still live. Costs a vsetvli after it, like ZV_OPAQUE. */
#define ZV_PIN(v) __asm__ volatile("" : "+vr"(v))
/* No load or store moves across this point (volatile asm, memory
 * clobbered). Costs a vsetvli after it, like ZV_PIN. */
#define ZV_FENCE() __asm__ volatile("" : : : "memory")
/* p, as clang sees it, may point anywhere after this (before a loop): the
 * loop's stores might change *p, so a load through it (a stack buffer
 * reloaded each group) stays in the loop instead of being hoisted into a
 * third live register group. */
#define ZV_OPAQUE(p) __asm__ volatile("" : "+r"(p))
/* Round key i into register i of a group (vset needs a constant index:
 * the callers' loops unroll). */
ZV_INLINE vuint32m8_t zv_set8_key(vuint32m8_t g, int i, zv_b k) {
    switch (i) {
    case 0: return __riscv_vset_v_u32m1_u32m8(g, 0, k);
    case 1: return __riscv_vset_v_u32m1_u32m8(g, 1, k);
    case 2: return __riscv_vset_v_u32m1_u32m8(g, 2, k);
    case 3: return __riscv_vset_v_u32m1_u32m8(g, 3, k);
    case 4: return __riscv_vset_v_u32m1_u32m8(g, 4, k);
    case 5: return __riscv_vset_v_u32m1_u32m8(g, 5, k);
    case 6: return __riscv_vset_v_u32m1_u32m8(g, 6, k);
    default: return __riscv_vset_v_u32m1_u32m8(g, 7, k);
    }
}
ZV_INLINE vuint32m4_t zv_set4_key(vuint32m4_t g, int i, zv_b k) {
    switch (i) {
    case 0: return __riscv_vset_v_u32m1_u32m4(g, 0, k);
    case 1: return __riscv_vset_v_u32m1_u32m4(g, 1, k);
    case 2: return __riscv_vset_v_u32m1_u32m4(g, 2, k);
    default: return __riscv_vset_v_u32m1_u32m4(g, 3, k);
    }
}
ZV_INLINE vuint32m2_t zv_set2_key(vuint32m2_t g, int i, zv_b k) {
    return i == 0 ? __riscv_vset_v_u32m1_u32m2(g, 0, k) : __riscv_vset_v_u32m1_u32m2(g, 1, k);
}
/* Bytes per LMUL=8 group: 16 G = 4 * VLMAX of e32m8. */
ZV_INLINE size_t zv_group_bytes8(void) {
    return 4 * __riscv_vsetvlmax_e32m8();
}
ZV_INLINE vbool4_t zv_lane3_mask8(size_t vl) {
    vuint32m8_t lane = __riscv_vand_vx_u32m8(__riscv_vid_v_u32m8(vl), 3, vl);
    return __riscv_vmseq_vx_u32m8_b4(lane, 3, vl);
}
ZV_INLINE zv_w8 zv_splat_block8(zv_b blk, size_t vl) {
    vuint16m4_t idx = __riscv_vand_vx_u16m4(__riscv_vid_v_u16m4(vl), 3, vl);
    return __riscv_vrgatherei16_vv_u32m8(__riscv_vlmul_ext_v_u32m1_u32m8(blk), idx, vl);
}
/* Counter blocks counter + b (b = 0 .. vl/4 - 1) as native words (vrev8 of
 * the big-endian block), so a masked vadd on lane 3 counts mod 2^32. */
ZV_INLINE zv_w8 zv_ctr_init8(const uint8_t ctr[16], size_t vl) {
    zv_w8 c = __riscv_vrev8_v_u32m8(zv_splat_block8(zv_load_b(ctr), vl), vl);
    vuint32m8_t block = __riscv_vsrl_vx_u32m8(__riscv_vid_v_u32m8(vl), 2, vl);
    return __riscv_vadd_vv_u32m8_mu(zv_lane3_mask8(vl), c, c, block, vl);
}
/* 64 little-endian bits at p, 8-byte aligned (OCB's L table). */
ZV_INLINE uint64_t zv_le64_aligned(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, __builtin_assume_aligned(p, 8), 8);
    return v; /* rv64 is little-endian */
}
#if defined(__riscv_zvkg)
/* The first vl/4 XTS tweaks T, T*x, T*x^2, ... (IEEE 1619 order; vl/4 <=
 * 64): T times the blocks x^b, each bit-reversed for vgmul and back. x^b is
 * bit b of the little-endian block: word b / 32, 1 << (b % 32). */
ZV_INLINE zv_w8 zv_xts_tweaks8(const uint8_t tweak[16], size_t vl) {
    vuint32m8_t e = __riscv_vid_v_u32m8(vl);
    vuint32m8_t b = __riscv_vsrl_vx_u32m8(e, 2, vl);
    vbool4_t word = __riscv_vmseq_vv_u32m8_b4(__riscv_vand_vx_u32m8(e, 3, vl), __riscv_vsrl_vx_u32m8(b, 5, vl), vl);
    vuint32m8_t xb = __riscv_vsll_vv_u32m8_mu(word, __riscv_vmv_v_x_u32m8(0, vl), __riscv_vmv_v_x_u32m8(1, vl), b, vl);
    zv_w8 t = __riscv_vbrev8_v_u32m8(zv_splat_block8(zv_load_b(tweak), vl), vl);
    t = __riscv_vgmul_vv_u32m8(t, __riscv_vbrev8_v_u32m8(xb, vl), vl);
    return __riscv_vbrev8_v_u32m8(t, vl);
}
#endif
/* buf = first (16 bytes) || in[0 .. len - 16): each block's predecessor
 * for a group of len bytes (CBC/CFB decryption), through memory: an
 * LMUL=8 slide would take a third register group. */
ZV_INLINE void zv_prev_blocks8(uint32_t *buf, const uint8_t first[16], const uint8_t *in, size_t len) {
    uint8_t *b = (uint8_t *)(void *)buf;
    zv_store_b(b, zv_load_b(first));
    if (len > 16)
        __riscv_vse8_v_u8m8(b + 16, __riscv_vle8_v_u8m8(in, len - 16), len - 16);
}
/* Block i of a group. */
ZV_INLINE zv_b zv_block_at8(zv_w8 v, size_t i) {
    return __riscv_vlmul_trunc_v_u32m8_u32m1(__riscv_vslidedown_vx_u32m8(v, 4 * i, 4));
}
/* v ^= {lo, hi} in every block (lo: bytes 0..7 little-endian, hi: 8..15),
 * on the 64-bit view of the group, without a register for the splat:
 * every element ^= hi, then the even ones (low halves, mask even64) ^=
 * lo_hi = lo ^ hi. */
ZV_INLINE zv_w8 zv_xor_block8(zv_w8 v, uint64_t hi, uint64_t lo_hi, vbool8_t even64, size_t vl) {
    vuint64m8_t d = __riscv_vreinterpret_v_u32m8_u64m8(v);
    d = __riscv_vxor_vx_u64m8(d, hi, vl / 2);
    d = __riscv_vxor_vx_u64m8_mu(even64, d, d, lo_hi, vl / 2);
    return __riscv_vreinterpret_v_u64m8_u32m8(d);
}
ZV_INLINE vbool8_t zv_even64_mask8(size_t vl) {
    vuint64m8_t lane = __riscv_vand_vx_u64m8(__riscv_vid_v_u64m8(vl / 2), 1, vl / 2);
    return __riscv_vmseq_vx_u64m8_b8(lane, 0, vl / 2);
}

/* One block repeated in every element group of a wide register. */
ZV_INLINE zv_w zv_splat_block(zv_b blk, size_t vl) {
    vuint32m4_t idx = __riscv_vand_vx_u32m4(__riscv_vid_v_u32m4(vl), 3, vl);
    return __riscv_vrgather_vv_u32m4(__riscv_vlmul_ext_v_u32m1_u32m4(blk), idx, vl);
}

/*
 * CTR counters: every counter block of a group, each word byte-swapped to
 * native order, so the big-endian low word (element 3 of each group) counts
 * with a plain masked vadd; vrev8 (Zvkb) turns a copy back into counter
 * blocks. zv_ctr_init: block b of the group holds the counter + b.
 */
ZV_INLINE vbool8_t zv_lane3_mask(size_t vl) {
    vuint32m4_t lane = __riscv_vand_vx_u32m4(__riscv_vid_v_u32m4(vl), 3, vl);
    return __riscv_vmseq_vx_u32m4_b8(lane, 3, vl);
}
ZV_INLINE zv_w zv_ctr_init(const uint8_t ctr[16], vbool8_t lane3, size_t vl);
ZV_INLINE zv_w zv_ctr_advance(zv_w ctrv, vbool8_t lane3, size_t nblocks, size_t vl) {
    return __riscv_vadd_vx_u32m4_mu(lane3, ctrv, ctrv, (uint32_t)nblocks, vl);
}

ZV_INLINE zv_w zv_ctr_init(const uint8_t ctr[16], vbool8_t lane3, size_t vl) {
    zv_w ctrv = __riscv_vrev8_v_u32m4(zv_splat_block(zv_load_b(ctr), vl), vl);
    vuint32m4_t block = __riscv_vsrl_vx_u32m4(__riscv_vid_v_u32m4(vl), 2, vl);
    return __riscv_vadd_vv_u32m4_mu(lane3, ctrv, ctrv, block, vl);
}

/*
 * GHASH key layout shared by ghash_zvkg.c and the fused GCM kernels:
 * H^32, H^31, ..., H^1 (16 bytes each, GCM byte order), so the m lanes of
 * a chunk of m blocks read their powers H^m .. H^1 as one contiguous load
 * from the end, and every lane of a full chunk of G blocks multiplies by
 * H^G. 32 powers = 512 bytes = the largest group (VLEN=1024 at LMUL=4).
 */
#define ZV_GHASH_POWERS 32
ZV_INLINE const uint32_t *zv_ghash_powers(const hwc_ghash_key *key, size_t m) {
    return (const uint32_t *)(const void *)(key->bytes + 16 * (ZV_GHASH_POWERS - m));
}

/* XOR of the m blocks of v: fold the upper half onto the lower until one
 * is left (tail-undisturbed, so the lanes not folded keep their value). */
ZV_INLINE zv_b zv_fold_lanes(zv_w v, size_t m) {
    while (m > 1) {
        size_t half = m / 2, keep = m - half;
        zv_w hi = __riscv_vslidedown_vx_u32m4(v, 4 * keep, 4 * half);
        v = __riscv_vxor_vv_u32m4_tu(v, v, hi, 4 * half);
        m = keep;
    }
    return __riscv_vlmul_trunc_v_u32m4_u32m1(v);
}

#if defined(__riscv_zvkg)
/* {blk, 0, 0, ...}: a GHASH state entering lane 0 of a group. */
ZV_INLINE zv_w zv_block_in_lane0(zv_b blk, size_t vl) {
    return __riscv_vslideup_vx_u32m4(__riscv_vlmul_ext_v_u32m1_u32m4(blk), __riscv_vmv_v_x_u32m4(0, vl), 4, vl);
}

/* GHASH of m blocks x (m <= 32) on state y: lane b holds (y if b = 0) ^ X_b
 * times H^(m-b); their XOR is the new state. */
ZV_INLINE zv_b zv_ghash_chunk(const hwc_ghash_key *key, zv_b y, zv_w x, size_t m) {
    size_t vl = 4 * m;
    zv_w h = __riscv_vle32_v_u32m4(zv_ghash_powers(key, m), vl);
    zv_w acc = __riscv_vghsh_vv_u32m4(zv_block_in_lane0(y, vl), h, x, vl);
    return zv_fold_lanes(acc, m);
}
#endif

#endif /* HWC_ZV_COMMON_H */
