/*
 * SM4 with the Armv8.2 SM4 instructions (back end "sm4e"): SM4E runs four
 * rounds on a block held as four native 32-bit lanes (X0..X3), SM4EKEY four
 * rounds of the key schedule.  A block is REV32 on the way in (SM4's words
 * are big-endian), eight SM4E, and one TBL on the way out: the result is
 * (X35, X34, X33, X32) big-endian, the whole 16 bytes reversed.
 *
 * Parallel modes (ECB, CTR, CBC decryption, XTS, OCB, GCM) run eight blocks
 * per iteration, in assembly (sm4_sm4e_bulk.S, for the reason of
 * aes_armv8ce_bulk.S); CFB decryption in C; CTR, GCM and CCM start the rounds on native-word
 * counters (the REV32 of a big-endian counter block is its native lanes, so
 * the counter is one vector ADD).  Serial modes feed the next block from the
 * previous output: CBC/CFB/CBC-MAC as output ^ data then REV32; OFB with one
 * TBL reversing the lanes (the REV32 of a whole-reversed block).  GCM is
 * fused with the "pmull" GHASH (arm_internal.h), CCM's CTR with its CBC-MAC.
 *
 * Constant time: SM4E, SM4EKEY, TBL with a constant index and PMULL have no
 * data-dependent timing; branches depend on lengths, OCB indices and where
 * a counter's low word wraps.
 */
#if defined(__aarch64__)

#include "arm/arm_internal.h"
#include "getters.h"

#define KT HWC_A64_TARGET_SM4
#define KINLINE HWC_A64_INLINE KT
#define RELOAD_BARRIER() __asm__ volatile("" ::: "memory")

/* Schedule: 32 round keys as 8 vectors (four rounds each), encryption then
 * decryption order. */
typedef struct sm4e_schedule {
    alignas(16) uint32_t enc[32];
    alignas(16) uint32_t dec[32];
} sm4e_schedule;
_Static_assert(sizeof(sm4e_schedule) <= HWC_KS_BYTES, "SM4E schedule must fit in hwc_ks");

static KT void sm4e_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    static const uint32_t fk[4] = {0xa3b1bac6u, 0x56aa3350u, 0x677d9197u, 0xb27022dcu};
    (void)key_len;
    uint32_t *enc = ks->w32 + offsetof(sm4e_schedule, enc) / 4, *dec = ks->w32 + offsetof(sm4e_schedule, dec) / 4;
    memset(ks->bytes, 0, sizeof ks->bytes);
    uint32x4_t k = veorq_u32(vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(key))), vld1q_u32(fk));
    for (unsigned g = 0; g < 8; g++) {
        uint32_t ck[4];
        for (unsigned j = 0; j < 4; j++) { /* CK_i: bytes (4i + b) * 7 mod 256, big-endian */
            unsigned i = 4 * g + j;
            ck[j] = (uint32_t)((((4 * i) * 7) & 0xff) << 24 | (((4 * i + 1) * 7) & 0xff) << 16 |
                               (((4 * i + 2) * 7) & 0xff) << 8 | (((4 * i + 3) * 7) & 0xff));
        }
        k = vsm4ekeyq_u32(k, vld1q_u32(ck));
        vst1q_u32(enc + 4 * g, k);
    }
    if (want_dec)
        for (unsigned i = 0; i < 32; i++)
            dec[i] = enc[31 - i];
}

#define LOAD_RK(R, ks, dir)                                                                   \
    uint32x4_t R[8];                                                                         \
    HWC_A64_UNROLL                                                                           \
    for (unsigned i_ = 0; i_ < 8; i_++)                                                      \
        R[i_] = vld1q_u32((ks)->w32 + offsetof(sm4e_schedule, dir) / 4 + 4 * i_)

/* Byte indices of the whole-block reversal and of the lane reversal. */
static const uint8_t rev_all_idx[16] = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
static const uint8_t rev_lanes_idx[16] = {12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3};

/* Rounds on n native-lane states, then whole reversal (the SM4 output bytes). */
KINLINE void sm4_blocks(v128 *b, const unsigned n, const uint32x4_t *R, const v128 rev) {
    uint32x4_t s[8];
    HWC_A64_UNROLL
    for (unsigned j = 0; j < n; j++)
        s[j] = vreinterpretq_u32_u8(b[j]);
    HWC_A64_UNROLL
    for (unsigned r = 0; r < 8; r++) {
        HWC_A64_UNROLL
        for (unsigned j = 0; j < n; j++)
            s[j] = vsm4eq_u32(s[j], R[r]);
    }
    HWC_A64_UNROLL
    for (unsigned j = 0; j < n; j++)
        b[j] = vqtbl1q_u8(vreinterpretq_u8_u32(s[j]), rev);
}
/* Data bytes to native lanes. */
#define IN(v) vrev32q_u8(v)

/* ------------------------------------------------------------------ ECB */

/* Groups of eight in sm4_sm4e_bulk.S, the rest here. */
#define ECB_BODY(NAME, DIR)                                                              \
    static KT void NAME(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {   \
        if (n >= 8) {                                                                    \
            hwc_a64_sm4e_ecb8(ks->w32 + offsetof(sm4e_schedule, DIR) / 4, out, in, n / 8); \
            in += 16 * (n & ~(size_t)7), out += 16 * (n & ~(size_t)7), n %= 8;           \
        }                                                                                \
        if (!n)                                                                          \
            return;                                                                      \
        LOAD_RK(R, ks, DIR);                                                             \
        const v128 rev = vld1q_u8(rev_all_idx);                                          \
        for (; n; n--, in += 16, out += 16) {                                            \
            v128 b[1] = {IN(vld1q_u8(in))};                                              \
            sm4_blocks(b, 1, R, rev);                                                    \
            vst1q_u8(out, b[0]);                                                         \
        }                                                                                \
    }
ECB_BODY(sm4e_ecb_enc, enc)
ECB_BODY(sm4e_ecb_dec, dec)

/* ---------------------------------------------- serial: CBC/CFB enc, OFB, MAC */

static KT void sm4e_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    LOAD_RK(R, ks, enc);
    const v128 rev = vld1q_u8(rev_all_idx);
    v128 c = vld1q_u8(iv);
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in), o;
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++) {
            v128 b[1] = {IN(veorq_u8(p.val[j], c))};
            sm4_blocks(b, 1, R, rev);
            c = o.val[j] = b[0];
        }
        vst1q_u8_x4(out, o);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 b[1] = {IN(veorq_u8(vld1q_u8(in), c))};
        sm4_blocks(b, 1, R, rev);
        c = b[0];
        vst1q_u8(out, c);
    }
    vst1q_u8(iv, c);
}

static KT void sm4e_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t n) {
    LOAD_RK(R, ks, enc);
    const v128 rev = vld1q_u8(rev_all_idx);
    v128 c = vld1q_u8(mac);
    for (; n >= 4; n -= 4, in += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in);
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++) {
            v128 b[1] = {IN(veorq_u8(p.val[j], c))};
            sm4_blocks(b, 1, R, rev);
            c = b[0];
        }
    }
    for (; n; n--, in += 16) {
        v128 b[1] = {IN(veorq_u8(vld1q_u8(in), c))};
        sm4_blocks(b, 1, R, rev);
        c = b[0];
    }
    vst1q_u8(mac, c);
}

static KT void sm4e_cfb_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    LOAD_RK(R, ks, enc);
    const v128 rev = vld1q_u8(rev_all_idx);
    v128 c = vld1q_u8(iv);
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in), o;
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++) {
            v128 b[1] = {IN(c)};
            sm4_blocks(b, 1, R, rev);
            c = o.val[j] = veorq_u8(b[0], p.val[j]);
        }
        vst1q_u8_x4(out, o);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 b[1] = {IN(c)};
        sm4_blocks(b, 1, R, rev);
        c = veorq_u8(b[0], vld1q_u8(in));
        vst1q_u8(out, c);
    }
    vst1q_u8(iv, c);
}

/* OFB: the next input is REV32 of this output, i.e. the rounds' result with
 * its lanes reversed (one TBL), not the output itself. */
static KT void sm4e_ofb(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    LOAD_RK(R, ks, enc);
    const v128 rev = vld1q_u8(rev_all_idx), lanes = vld1q_u8(rev_lanes_idx);
    uint32x4_t s = vreinterpretq_u32_u8(IN(vld1q_u8(iv)));
    for (; n; n--, in += 16, out += 16) {
        HWC_A64_UNROLL
        for (unsigned r = 0; r < 8; r++)
            s = vsm4eq_u32(s, R[r]);
        vst1q_u8(out, veorq_u8(vqtbl1q_u8(vreinterpretq_u8_u32(s), rev), vld1q_u8(in)));
        s = vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(s), lanes));
    }
    vst1q_u8(iv, IN(vreinterpretq_u8_u32(s)));
}

/* ---------------------------------------------- CBC and CFB decryption */

static KT void sm4e_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8) {
        hwc_a64_sm4e_cbc8_dec(ks->w32 + offsetof(sm4e_schedule, dec) / 4, out, in, n / 8, iv);
        in += 16 * (n & ~(size_t)7), out += 16 * (n & ~(size_t)7), n %= 8;
    }
    if (!n)
        return;
    LOAD_RK(R, ks, dec);
    const v128 rev = vld1q_u8(rev_all_idx);
    v128 prev = vld1q_u8(iv);
    for (; n; n--, in += 16, out += 16) {
        v128 c = vld1q_u8(in), b[1] = {IN(c)};
        sm4_blocks(b, 1, R, rev);
        vst1q_u8(out, veorq_u8(b[0], prev));
        prev = c;
    }
    vst1q_u8(iv, prev);
}

static KT void sm4e_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    LOAD_RK(R, ks, enc);
    const v128 rev = vld1q_u8(rev_all_idx);
    v128 prev = vld1q_u8(iv);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        v128 b[8], c[8];
        A64_LOAD8(c, in);
        b[0] = IN(prev);
        HWC_A64_UNROLL
        for (unsigned j = 1; j < 8; j++)
            b[j] = IN(c[j - 1]);
        prev = c[7];
        sm4_blocks(b, 8, R, rev);
        RELOAD_BARRIER();
        A64_LOAD8(c, in);
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 8; j++)
            b[j] = veorq_u8(b[j], c[j]);
        A64_STORE8(out, b);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 c = vld1q_u8(in), b[1] = {IN(prev)};
        sm4_blocks(b, 1, R, rev);
        vst1q_u8(out, veorq_u8(b[0], c));
        prev = c;
    }
    vst1q_u8(iv, prev);
}

/* ------------------------------------------------------------------ CTR */

/* ctr32 semantics: the native low lane wraps (also in the bulk kernel). */
static KT void sm4e_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8) {
        hwc_a64_sm4e_ctr8(ks->w32 + offsetof(sm4e_schedule, enc) / 4, out, in, n / 8, ctr);
        hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + (uint32_t)(n & ~(size_t)7));
        in += 16 * (n & ~(size_t)7), out += 16 * (n & ~(size_t)7), n %= 8;
    }
    if (!n)
        return;
    LOAD_RK(R, ks, enc);
    const v128 rev = vld1q_u8(rev_all_idx);
    uint32x4_t N = vreinterpretq_u32_u8(IN(vld1q_u8(ctr)));
    const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);
    for (; n; n--, in += 16, out += 16) {
        v128 b[1] = {vreinterpretq_u8_u32(N)};
        N = a64_ctr_inc(N, one);
        sm4_blocks(b, 1, R, rev);
        vst1q_u8(out, veorq_u8(b[0], vld1q_u8(in)));
    }
    vst1q_u8(ctr, IN(vreinterpretq_u8_u32(N)));
}

static inline uint64_t ctr_room(const uint8_t ctr[16]) {
    return ((uint64_t)1 << 32) - hwc_load_be32(ctr + 12);
}
static inline void ctr_carry96(uint8_t ctr[16]) {
    uint32_t mid = hwc_load_be32(ctr + 8) + 1u;
    hwc_store_be64(ctr, hwc_load_be64(ctr) + (uint64_t)(mid == 0));
    hwc_store_be32(ctr + 8, mid);
}

static KT void sm4e_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    while (n) {
        uint64_t room = ctr_room(ctr);
        size_t m = (uint64_t)n < room ? n : (size_t)room;
        sm4e_ctr32(ks, ctr, out, in, m);
        if ((uint64_t)m == room)
            ctr_carry96(ctr);
        n -= m;
        in += 16 * m;
        out += 16 * m;
    }
}

/* ------------------------------------------------------------------ XTS */

KINLINE v128 xts_mul_alpha(v128 t) {
    uint64x2_t v = vreinterpretq_u64_u8(t);
    uint64x2_t top = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(v), 63));
    top = vandq_u64(top, vcombine_u64(vcreate_u64(1), vcreate_u64(0x87)));
    return vreinterpretq_u8_u64(veorq_u64(vaddq_u64(v, v), vextq_u64(top, top, 1)));
}

#define XTS_BODY(NAME, DIR)                                                                     \
    static KT void NAME(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n) { \
        if (n >= 8) {                                                                            \
            hwc_a64_sm4e_xts8(ks->w32 + offsetof(sm4e_schedule, DIR) / 4, out, in, n / 8, tweak); \
            in += 16 * (n & ~(size_t)7), out += 16 * (n & ~(size_t)7), n %= 8;                   \
        }                                                                                        \
        if (!n)                                                                                  \
            return;                                                                              \
        LOAD_RK(R, ks, DIR);                                                                     \
        const v128 rev = vld1q_u8(rev_all_idx);                                                  \
        v128 t = vld1q_u8(tweak);                                                                \
        for (; n; n--, in += 16, out += 16) {                                                    \
            v128 b[1] = {IN(veorq_u8(vld1q_u8(in), t))};                                         \
            sm4_blocks(b, 1, R, rev);                                                            \
            vst1q_u8(out, veorq_u8(b[0], t));                                                    \
            t = xts_mul_alpha(t);                                                                \
        }                                                                                        \
        vst1q_u8(tweak, t);                                                                      \
    }
XTS_BODY(sm4e_xts_enc, enc)
XTS_BODY(sm4e_xts_dec, dec)

/* ------------------------------------------------------------------ OCB */

/* Blocks one at a time until the index is 1 mod 8, then groups of eight in
 * the bulk kernel, then the rest one at a time. */
#define OCB_SINGLE(NAME, DIR, ENC)                                                              \
    KINLINE void NAME(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t state[32], uint8_t *out, \
                      const uint8_t *in, size_t n) {                                              \
        LOAD_RK(R, ks, DIR);                                                                     \
        const v128 rev = vld1q_u8(rev_all_idx);                                                  \
        v128 O = vld1q_u8(state), cs = vld1q_u8(state + 16);                                     \
        for (; n; n--, i++, in += 16, out += 16) {                                               \
            O = veorq_u8(O, vld1q_u8(L[__builtin_ctzll(i)]));                                    \
            v128 p = vld1q_u8(in), b[1] = {IN(veorq_u8(p, O))};                                  \
            sm4_blocks(b, 1, R, rev);                                                            \
            v128 r = veorq_u8(b[0], O);                                                          \
            cs = veorq_u8(cs, ENC ? p : r);                                                      \
            vst1q_u8(out, r);                                                                    \
        }                                                                                        \
        vst1q_u8(state, O);                                                                      \
        vst1q_u8(state + 16, cs);                                                                \
    }
OCB_SINGLE(ocb_enc_single, enc, 1)
OCB_SINGLE(ocb_dec_single, dec, 0)

#define OCB_BODY(NAME, DIR, SINGLE, ENC)                                                        \
    static KT void NAME(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t offset[16],   \
                        uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n) {        \
        alignas(16) uint8_t state[32];                                                           \
        memcpy(state, offset, 16);                                                               \
        memcpy(state + 16, checksum, 16);                                                        \
        size_t lead = (size_t)((9 - (i & 7)) & 7);                                               \
        if (lead > n)                                                                            \
            lead = n;                                                                            \
        if (lead)                                                                                \
            SINGLE(ks, L, i, state, out, in, lead);                                              \
        n -= lead, i += lead, in += 16 * lead, out += 16 * lead;                                 \
        if (n >= 8) {                                                                            \
            hwc_a64_sm4e_ocb8(ks->w32 + offsetof(sm4e_schedule, DIR) / 4, out, in, n / 8, L, i, state, ENC); \
            size_t done = n & ~(size_t)7;                                                        \
            n -= done, i += done, in += 16 * done, out += 16 * done;                             \
        }                                                                                        \
        if (n)                                                                                   \
            SINGLE(ks, L, i, state, out, in, n);                                                 \
        memcpy(offset, state, 16);                                                               \
        memcpy(checksum, state + 16, 16);                                                        \
        hwc_wipe(state, sizeof state);                                                           \
    }
OCB_BODY(sm4e_ocb_enc, enc, ocb_enc_single, 1)
OCB_BODY(sm4e_ocb_dec, dec, ocb_dec_single, 0)

/* ------------------------------------------------------------ fused GCM */

/* Whole groups of eight (sm4_sm4e_bulk.S); the mode does the rest. */
#define GCM_BODY(NAME, ENC)                                                                     \
    static KT size_t NAME(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t state[16], \
                          uint8_t *out, const uint8_t *in, size_t n) {                           \
        const size_t whole = n & ~(size_t)7;                                                     \
        if (whole) {                                                                             \
            hwc_a64_sm4e_gcm8(ks->w32 + offsetof(sm4e_schedule, enc) / 4, out, in, whole / 8, ctr, hk, state, ENC); \
            hwc_store_be32(ctr + 12, hwc_load_be32(ctr + 12) + (uint32_t)whole);                 \
        }                                                                                        \
        return whole;                                                                            \
    }
GCM_BODY(sm4e_gcm_enc, 1)
GCM_BODY(sm4e_gcm_dec, 0)

/* ------------------------------------------------------------ fused CCM */

/* One run without a low-word wrap: the CTR block and the MAC block go
 * through the rounds together. */
#define CCM_RUN(NAME, ENC)                                                                     \
    KINLINE void NAME(const uint32x4_t *R, v128 rev, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, \
                      const uint8_t *in, size_t n) {                                             \
        uint32x4_t N = vreinterpretq_u32_u8(IN(vld1q_u8(ctr)));                                  \
        const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);                             \
        v128 m = vld1q_u8(mac);                                                                  \
        for (; n; n--, in += 16, out += 16) {                                                    \
            v128 d = vld1q_u8(in);                                                               \
            if (ENC) {                                                                           \
                v128 b[2] = {vreinterpretq_u8_u32(N), IN(veorq_u8(m, d))};                       \
                sm4_blocks(b, 2, R, rev);                                                        \
                vst1q_u8(out, veorq_u8(b[0], d));                                                \
                m = b[1];                                                                        \
            } else {                                                                             \
                v128 b[1] = {vreinterpretq_u8_u32(N)};                                           \
                sm4_blocks(b, 1, R, rev);                                                        \
                v128 p = veorq_u8(b[0], d);                                                      \
                vst1q_u8(out, p);                                                                \
                b[0] = IN(veorq_u8(m, p));                                                       \
                sm4_blocks(b, 1, R, rev);                                                        \
                m = b[0];                                                                        \
            }                                                                                    \
            N = a64_ctr_inc(N, one);                                                               \
        }                                                                                        \
        vst1q_u8(ctr, IN(vreinterpretq_u8_u32(N)));                                              \
        vst1q_u8(mac, m);                                                                        \
    }
CCM_RUN(ccm_enc_run, 1)
CCM_RUN(ccm_dec_run, 0)

#define CCM_BODY(NAME, RUN)                                                                     \
    static KT void NAME(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in, \
                        size_t n) {                                                              \
        LOAD_RK(R, ks, enc);                                                                     \
        const v128 rev = vld1q_u8(rev_all_idx);                                                  \
        while (n) {                                                                              \
            uint64_t room = ctr_room(ctr);                                                       \
            size_t m = (uint64_t)n < room ? n : (size_t)room;                                    \
            RUN(R, rev, ctr, mac, out, in, m);                                                   \
            if ((uint64_t)m == room)                                                             \
                ctr_carry96(ctr);                                                                \
            n -= m;                                                                              \
            in += 16 * m;                                                                        \
            out += 16 * m;                                                                       \
        }                                                                                        \
    }
CCM_BODY(sm4e_ccm_enc, ccm_enc_run)
CCM_BODY(sm4e_ccm_dec, ccm_dec_run)

static const hwc_block_impl sm4_sm4e = {
    .name = "sm4e",
    .family = HWC_FAMILY_SM4,
    .required_caps = HWC_CAP_ARM_SM4 | HWC_CAP_ARM_PMULL,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "pmull",
    .set_key = sm4e_set_key,
    .ecb_enc = sm4e_ecb_enc,
    .ecb_dec = sm4e_ecb_dec,
    .cbc_enc = sm4e_cbc_enc,
    .cbc_dec = sm4e_cbc_dec,
    .cfb_enc = sm4e_cfb_enc,
    .cfb_dec = sm4e_cfb_dec,
    .ofb = sm4e_ofb,
    .ctr128 = sm4e_ctr128,
    .ctr32 = sm4e_ctr32,
    .xts_enc = sm4e_xts_enc,
    .xts_dec = sm4e_xts_dec,
    .cbc_mac = sm4e_cbc_mac,
    .ocb_enc = sm4e_ocb_enc,
    .ocb_dec = sm4e_ocb_dec,
    .gcm_enc = sm4e_gcm_enc,
    .gcm_dec = sm4e_gcm_dec,
    .ccm_enc = sm4e_ccm_enc,
    .ccm_dec = sm4e_ccm_dec,
};

const hwc_block_impl *hwc_sm4_sm4e_get(void) { return &sm4_sm4e; }

#endif
