/*
 * GHASH with Zvkg (vghsh: (Y ^ X) * H, vgmul: X * H, both in GCM byte
 * order). The key holds H^32 .. H^1 (zv_common.h), so a group of G blocks
 * is absorbed by one vghsh: every lane accumulates times H^G, and the last
 * group multiplies by H^G .. H^1 before the lanes are folded into one
 * state. Built by clang only (cmake/riscv-vector.cmake).
 */
#include "riscv/zv_common.h"
#include "getters.h"

static void ghash_zvkg_init(hwc_ghash_key *key, const uint8_t h[16]) {
    memset(key, 0, sizeof *key);
    const zv_b h1 = zv_load_b(h);
    zv_b p = h1;
    for (size_t i = 1; i <= ZV_GHASH_POWERS; i++) {
        __riscv_vse32_v_u32m1((uint32_t *)(void *)(key->bytes + 16 * (ZV_GHASH_POWERS - i)), p, 4);
        p = __riscv_vgmul_vv_u32m1(p, h1, 4);
    }
}

/*
 * GHASH alone has only three register groups live (accumulator, H^G, data),
 * so it runs at LMUL=8: G8 = VLEN/16 blocks per vghsh, capped at the 32
 * powers of the key (VLEN=1024 then uses half of each group).
 */
ZV_INLINE size_t ghash_group8(void) {
    size_t g = zv_max_blocks8();
    return g < ZV_GHASH_POWERS ? g : ZV_GHASH_POWERS;
}

/* {blk, 0, 0, ...} (vl elements): the state entering lane 0. */
ZV_INLINE zv_w8 ghash_lane0_w8(zv_b blk, size_t vl) {
    return __riscv_vslideup_vx_u32m8(__riscv_vlmul_ext_v_u32m1_u32m8(blk), __riscv_vmv_v_x_u32m8(0, vl), 4, vl);
}

/* XOR of the m blocks of v (as zv_fold_lanes, at LMUL=8). */
ZV_INLINE zv_b ghash_fold_w8(zv_w8 v, size_t m) {
    while (m > 1) {
        size_t half = m / 2, keep = m - half;
        zv_w8 hi = __riscv_vslidedown_vx_u32m8(v, 4 * keep, 4 * half);
        v = __riscv_vxor_vv_u32m8_tu(v, v, hi, 4 * half);
        m = keep;
    }
    return __riscv_vlmul_trunc_v_u32m8_u32m1(v);
}

/*
 * n blocks: a head of n mod G8 blocks times H^m .. H^1 (folded), then a loop
 * over the full groups but the last (one vle and one vghsh each, an
 * end-pointer compare), every lane times H^G8 (one block splatted), and the
 * last group times H^G8 .. H^1, folded once.
 */
ZV_INLINE void ghash_zvkg_update_body(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks,
                                      const int a32) {
    const size_t gmax = ghash_group8(), vlmax = 4 * gmax;
    zv_b y = zv_load_b(state);
    const size_t head = nblocks % gmax;
    if (head != 0) {
        const size_t vl = 4 * head;
        const zv_w8 h = __riscv_vle32_v_u32m8(zv_ghash_powers(key, head), vl);
        y = ghash_fold_w8(__riscv_vghsh_vv_u32m8(ghash_lane0_w8(y, vl), h, zv_ld_w8(a32, in, vl), vl), head);
        in += 16 * head;
    }
    if (nblocks >= gmax) {
        const uint8_t *const last = in + 16 * (nblocks - head - gmax);
        const vuint32m8_t idx = __riscv_vand_vx_u32m8(__riscv_vid_v_u32m8(vlmax), 3, vlmax);
        const zv_w8 hg = __riscv_vrgather_vv_u32m8(
            __riscv_vlmul_ext_v_u32m1_u32m8(zv_load_key(zv_ghash_powers(key, gmax))), idx, vlmax);
        zv_w8 acc = ghash_lane0_w8(y, vlmax);
        for (; in != last; in += 16 * gmax)
            acc = __riscv_vghsh_vv_u32m8(acc, hg, zv_ld_w8(a32, in, vlmax), vlmax);
        const zv_w8 hdesc = __riscv_vle32_v_u32m8(zv_ghash_powers(key, gmax), vlmax);
        acc = __riscv_vghsh_vv_u32m8(acc, hdesc, zv_ld_w8(a32, in, vlmax), vlmax);
        y = ghash_fold_w8(acc, gmax);
    }
    zv_store_b(state, y);
}

/* e32 loads when the input is 4-byte aligned, bytes otherwise (zv_common.h). */
static void ghash_zvkg_update(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks) {
    if (zv_aligned4(in, in))
        ghash_zvkg_update_body(key, state, in, nblocks, 1);
    else
        ghash_zvkg_update_body(key, state, in, nblocks, 0);
}

static const hwc_ghash_impl ghash_zvkg_impl = {
    .name = "zvkg",
    .required_caps = HWC_CAP_V | HWC_CAP_ZVKG,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .usable = zv_usable_vlen,
    .init = ghash_zvkg_init,
    .update = ghash_zvkg_update,
};

const hwc_ghash_impl *hwc_ghash_zvkg_get(void) {
    return &ghash_zvkg_impl;
}
