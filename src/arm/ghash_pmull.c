/*
 * GHASH and native POLYVAL with PMULL (back end "pmull"): the algebra and key
 * layout are in arm_internal.h.  Eight blocks per reduction (H^8..H^1, the
 * loop in ghash_pmull_bulk.S), a shorter group for the last 1..7 blocks;
 * plain EOR throughout, also on cores with EOR3: alone, GHASH is bound by
 * the vector pipes, and EOR3 issues on one of them where EOR issues on all
 * (docs/PERFORMANCE.md).
 *
 * Constant time: PMULL has no data-dependent timing; branches depend on the
 * block count only.
 */
#if defined(__aarch64__)

#include "arm/arm_internal.h"
#include "getters.h"

#define PMULL_TARGET HWC_A64_TARGET_CE

/* dot(a, b) = a * b * x^-128 on normal forms. */
static PMULL_TARGET v128 dot_n(v128 a, v128 b) {
    a64_gh_acc acc;
    A64_GH_FIRST(acc, a, b, vextq_u8(b, b, 8));
    v128 r;
    A64_GH_REDUCE_N(r, acc.a, acc.m, acc.b);
    return r;
}

/* Powers H^1..H^8 of the POLYVAL key h (normal form), both forms each. */
static PMULL_TARGET void store_powers(hwc_ghash_key *key, v128 h) {
    memset(key->bytes, 0, sizeof key->bytes);
    v128 p = h;
    for (unsigned k = 1; k <= A64_GHASH_POWERS; k++) {
        vst1q_u8(key->bytes + offsetof(a64_ghash_key, pow) + 32 * (k - 1), vextq_u8(p, p, 8));
        vst1q_u8(key->bytes + offsetof(a64_ghash_key, pow) + 32 * (k - 1) + 16, p);
        p = dot_n(p, h);
    }
}

/* GHASH key: mulX_POLYVAL(ByteReverse(H)). */
static PMULL_TARGET void pmull_ghash_init(hwc_ghash_key *key, const uint8_t h[16]) {
    uint64_t lo = hwc_load_be64(h + 8), hi = hwc_load_be64(h); /* ByteReverse(H), little-endian words */
    uint64_t carry = hi >> 63;
    hi = (hi << 1) | (lo >> 63);
    lo <<= 1;
    /* x^128 = x^127 + x^126 + x^121 + 1 mod Q, without a branch */
    hi ^= (0u - carry) & 0xc200000000000000ull;
    lo ^= carry;
    store_powers(key, vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))));
}

static PMULL_TARGET void pmull_polyval_init(hwc_ghash_key *key, const uint8_t h[16]) {
    store_powers(key, vld1q_u8(h));
}

/* Eight blocks per reduction in ghash_pmull_bulk.S; the last 1..7 here,
 * each multiplied by its power read where used (a short message loads only
 * those). The state and data in swapped form (GHASH: REV64) or normal form
 * (POLYVAL); K1 is the key form that matches the data's. */
#define HASH_TAIL(REV, K1, K2, REDUCE_OUT)                                                       \
    do {                                                                                         \
        const unsigned n = (unsigned)nblocks;                                                    \
        v128 x = veorq_u8(REV(vld1q_u8(in)), s);                                                 \
        a64_gh_acc acc;                                                                          \
        A64_GH_FIRST(acc, x, vld1q_u8(a64_ghash_pow(key, n, K1)), vld1q_u8(a64_ghash_pow(key, n, K2))); \
        for (unsigned i = 1; i < n; i++)                                                         \
            A64_GH_MORE(acc, REV(vld1q_u8(in + 16 * i)), vld1q_u8(a64_ghash_pow(key, n - i, K1)),  \
                        vld1q_u8(a64_ghash_pow(key, n - i, K2)));                                \
        REDUCE_OUT(s, acc);                                                                      \
    } while (0)

#define GHASH_OUT(s, acc)                           \
    do {                                            \
        v128 n_;                                    \
        A64_GH_REDUCE_N(n_, acc.b, acc.m, acc.a);   \
        s = vextq_u8(n_, n_, 8);                    \
    } while (0)
#define POLYVAL_OUT(s, acc) A64_GH_REDUCE_N(s, acc.a, acc.m, acc.b)
#define REV64(v) vrev64q_u8(v)
#define NOREV(v) (v)

#define UPDATE(NAME, BULK8, IN_STATE, OUT_STATE, TAIL_ARGS)                                  \
    static PMULL_TARGET void NAME##_tail(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, \
                                         size_t nblocks) {                                        \
        v128 s = IN_STATE(vld1q_u8(state));                                                      \
        HASH_TAIL TAIL_ARGS;                                                                     \
        vst1q_u8(state, OUT_STATE(s));                                                           \
    }                                                                                            \
    static __attribute__((noinline)) PMULL_TARGET void NAME##_bulk(const hwc_ghash_key *key, uint8_t state[16], \
                                                                   const uint8_t *in, size_t nblocks) { \
        BULK8(key, state, in, nblocks / 8);                                                      \
        if (nblocks % 8)                                                                         \
            NAME##_tail(key, state, in + 16 * (nblocks & ~(size_t)7), nblocks % 8);              \
    }                                                                                            \
    /* Short inputs (one-shot GCM, the lengths block) without the bulk call's frame. */          \
    static PMULL_TARGET void NAME(const hwc_ghash_key *key, uint8_t state[16], const uint8_t *in, size_t nblocks) { \
        if (nblocks >= 8)                                                                        \
            NAME##_bulk(key, state, in, nblocks);                                                \
        else if (nblocks)                                                                        \
            NAME##_tail(key, state, in, nblocks);                                                \
    }
UPDATE(pmull_ghash_update, hwc_a64_ghash8, REV64, REV64, (REV64, 0, 1, GHASH_OUT))
UPDATE(pmull_polyval_update, hwc_a64_polyval8, NOREV, NOREV, (NOREV, 1, 0, POLYVAL_OUT))

static const hwc_ghash_impl ghash_pmull = {
    .name = "pmull",
    .required_caps = HWC_CAP_ARM_PMULL,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .init = pmull_ghash_init,
    .update = pmull_ghash_update,
    .polyval_init = pmull_polyval_init,
    .polyval_update = pmull_polyval_update,
};

const hwc_ghash_impl *hwc_ghash_pmull_get(void) { return &ghash_pmull; }

#endif
