/*
 * GHASH with Zvkg (vghsh: (Y ^ X) * H, vgmul: X * H, both in GCM byte
 * order). The key holds H^32 .. H^1 (zv_common.h), so a group of G blocks
 * is absorbed by one vghsh: every lane accumulates times H^G, and the last
 * group multiplies by H^G .. H^1 before the lanes are folded into one
 * state. Built by clang only (cmake/riscv-vector.cmake).
 */
#include "riscv/zv_common.h"
#include "riscv/riscv_getters.h"

static void ghash_zvkg_init(hwc_ghash_key *key, const uint8_t h[16]) {
    memset(key, 0, sizeof *key);
    const zv_b h1 = zv_load_b(h);
    zv_b p = h1;
    for (size_t i = 1; i <= ZV_GHASH_POWERS; i++) {
        __riscv_vse32_v_u32m1((uint32_t *)(void *)(key->bytes + 16 * (ZV_GHASH_POWERS - i)), p, 4);
        p = __riscv_vgmul_vv_u32m1(p, h1, 4);
    }
}

ZV_INLINE void ghash_zvkg_update_body(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks,
                                      const int a32) {
    const size_t gmax = zv_max_blocks(), vlmax = 4 * gmax;
    zv_b y = zv_load_b(state);
    size_t r = nblocks % gmax;
    if (r != 0) {
        y = zv_ghash_chunk(key, y, zv_ld_w(a32, in, 4 * r), r);
        in += 16 * r;
        nblocks -= r;
    }
    if (nblocks != 0) {
        const zv_w hg = zv_splat_block(zv_load_key(zv_ghash_powers(key, gmax)), vlmax);
        zv_w acc = zv_block_in_lane0(y, vlmax);
        for (; nblocks > gmax; nblocks -= gmax, in += 16 * gmax)
            acc = __riscv_vghsh_vv_u32m4(acc, hg, zv_ld_w(a32, in, vlmax), vlmax);
        const zv_w hdesc = __riscv_vle32_v_u32m4(zv_ghash_powers(key, gmax), vlmax);
        acc = __riscv_vghsh_vv_u32m4(acc, hdesc, zv_ld_w(a32, in, vlmax), vlmax);
        y = zv_fold_lanes(acc, gmax);
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
