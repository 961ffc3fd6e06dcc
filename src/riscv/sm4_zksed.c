/*
 * SM4 with the RISC-V scalar ShangMi extension Zksed: back end "zksed64"
 * on rv64, "zksed32" on rv32 (one source, compiled for the build's xlen;
 * the few xlen hooks are marked).
 *
 * sm4ed(acc, x, bs) adds to acc the SM4 round function T (S-box, then the
 * linear layer L) of byte bs of x, so one round
 * X_{i+4} = X_i ^ T(X_{i+1} ^ X_{i+2} ^ X_{i+3} ^ rk_i) is four sm4ed and
 * the XORs. Two consecutive rounds share X_{i+2} ^ X_{i+3}, which saves one
 * XOR per round: 13 instructions per pair of rounds, 208 per block. Blocks
 * whose cipher inputs are independent (ECB, CBC/CFB decryption, CTR, XTS,
 * OCB) go two at a time so each round key is loaded once per two blocks.
 *
 * Byte order. SM4 is specified on big-endian 32-bit words, but sm4ed and
 * sm4ks are defined on the byte-reversed words: their L is rotated so that
 * the byte at bits 0..7 of the register is the word's most significant
 * byte. Loading the block as little-endian 32-bit words (lw) therefore
 * gives exactly what the instructions want, and since everything else in a
 * round is XOR, no byte swap is needed anywhere: not on the data, not on
 * the IV, tweak, offsets or keystream (the round keys are kept in the same
 * byte-reversed form). So this back end needs neither Zbb nor Zbkb and
 * never reverses bytes in its block loops. Only CTR must add 1 to a
 * big-endian counter: inside a run where the counter's last byte (bits
 * 24..31 of the last little-endian word) does not wrap, that is an add of
 * 2^24; the counter is rebuilt from its native value once per run of up to
 * 256 blocks.
 *
 * sm4ed reads the low 32 bits of its operands and, on rv64, sign-extends
 * its result; the upper halves of the 64-bit registers are don't-care
 * throughout, and the state leaves through 32-bit stores.
 *
 * Alignment: RV_STREAM (rv_scalar.h): word-aligned caller buffers in place,
 * others through an aligned bounce buffer.
 *
 * Constant time: no branch or address depends on key or data (CTR's run
 * length and OCB's ntz() look only at the public counter and block index).
 */
#if defined(__riscv)

#include "getters.h"
#include "rv_scalar.h"

#define SM4_ROUNDS 32
#define SM4_ENC_OFFSET 0                /* 32 round keys, byte-reversed 32-bit words */
#define SM4_DEC_OFFSET (4 * SM4_ROUNDS) /* the same keys in reverse order */

/* A 32-bit word that may alias anything (caller blocks, key schedule). */
typedef uint32_t __attribute__((may_alias)) rv_word32;

static inline const rv_word32 *enc_keys(const hwc_ks *ks) {
    return (const rv_word32 *)(const void *)(ks->bytes + SM4_ENC_OFFSET);
}
static inline const rv_word32 *dec_keys(const hwc_ks *ks) {
    return (const rv_word32 *)(const void *)(ks->bytes + SM4_DEC_OFFSET);
}

/* --------------------------------------------------------- key schedule */

static const uint32_t sm4_fk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};

/* CK_i byte j is (4i + j) * 7 mod 256; here byte-reversed (byte 0 lowest). */
static uint32_t sm4_ck_reversed(unsigned i) {
    uint32_t ck = 0;
    for (unsigned j = 0; j < 4; j++)
        ck |= (uint32_t)(uint8_t)((4 * i + j) * 7) << (8 * j);
    return ck;
}

static uint32_t byte_reverse32(uint32_t x) {
    return (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24);
}

static void RV_XNAME(hwc_sm4_set_key_zksed, )(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    (void)key_len;  /* 16, validated by the caller */
    (void)want_dec; /* the reversed copy for decryption is always written */
    rv_word32 *enc = (rv_word32 *)(void *)(ks->bytes + SM4_ENC_OFFSET);
    rv_word32 *dec = (rv_word32 *)(void *)(ks->bytes + SM4_DEC_OFFSET);
    rv_xword k[4];
    for (unsigned i = 0; i < 4; i++)
        k[i] = hwc_load_le32(key + 4 * i) ^ byte_reverse32(sm4_fk[i]);
    /* rk_i = K_{i+4} = K_i ^ T'(K_{i+1} ^ K_{i+2} ^ K_{i+3} ^ CK_i). */
    for (unsigned i = 0; i < SM4_ROUNDS; i++) {
        rv_xword t = k[(i + 1) & 3] ^ k[(i + 2) & 3] ^ k[(i + 3) & 3] ^ sm4_ck_reversed(i);
        rv_xword a = k[i & 3];
        a = rv_sm4ks(a, t, 0);
        a = rv_sm4ks(a, t, 1);
        a = rv_sm4ks(a, t, 2);
        a = rv_sm4ks(a, t, 3);
        k[i & 3] = a;
        enc[i] = (uint32_t)a;
        dec[SM4_ROUNDS - 1 - i] = (uint32_t)a;
    }
    hwc_wipe(k, sizeof k);
}

/* --------------------------------------------------------------- rounds */

/* acc ^= T(t): the four bytes of t through sm4ed. */
#define SM4_T(acc, t)                    \
    do {                                 \
        (acc) = rv_sm4ed((acc), (t), 0); \
        (acc) = rv_sm4ed((acc), (t), 1); \
        (acc) = rv_sm4ed((acc), (t), 2); \
        (acc) = rv_sm4ed((acc), (t), 3); \
    } while (0)

/* The state of one block: X_i .. X_{i+3}, byte-reversed, in the low 32
 * bits of a register word. */
typedef struct sm4_state {
    rv_xword a, b, c, d;
} sm4_state;

/* Rounds 2j and 2j+1 on (A, B, C, D) = X_2j .. X_2j+3: A becomes X_2j+4
 * and B X_2j+5, so the next pair works on (C, D, A, B). */
#define SM4_PAIR(s, A, B, C, D, rk0, rk1) \
    do {                                  \
        rv_xword m_ = (s).C ^ (s).D;      \
        rv_xword t_ = m_ ^ (s).B ^ (rk0); \
        SM4_T((s).A, t_);                 \
        t_ = m_ ^ (s).A ^ (rk1);          \
        SM4_T((s).B, t_);                 \
    } while (0)

/* The round keys as the rounds read them (xlen hook). rv64: a kernel's copy
 * in 64-bit locals (sign-extended as lw loads them, so no use needs a
 * zero-extension): the compiler keeps what fits in registers across the
 * block loop and reloads the rest. rv32: read from the schedule where the
 * rounds use them: too few registers to keep 32 of them across blocks, and
 * a local copy would only move the loads to the stack. */
#if __riscv_xlen == 64
typedef uint64_t sm4_rk;
#define LOCAL_KEYS(k, src)                                 \
    uint64_t k[SM4_ROUNDS];                                \
    _Pragma("GCC unroll 32")                               \
    for (unsigned i_ = 0; i_ < SM4_ROUNDS; i_++)           \
        k[i_] = (uint64_t)(int64_t)(int32_t)(src)[i_]
#else
typedef rv_word32 sm4_rk;
#define LOCAL_KEYS(k, src) const rv_word32 *const k = (src)
#endif

/* 32 rounds on one block: (a, b, c, d) ends as (X32, X33, X34, X35). */
RV_INLINE void sm4_rounds1(const sm4_rk *rk, sm4_state *s) {
    sm4_state x = *s;
    _Pragma("GCC unroll 8")
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {
        SM4_PAIR(x, a, b, c, d, rk[r], rk[r + 1]);
        SM4_PAIR(x, c, d, a, b, rk[r + 2], rk[r + 3]);
    }
    *s = x;
}

/* The same on two blocks, each round key loaded once for both. */
RV_INLINE void sm4_rounds2(const sm4_rk *rk, sm4_state *s, sm4_state *u) {
    sm4_state x = *s, y = *u;
    _Pragma("GCC unroll 8")
    for (unsigned r = 0; r < SM4_ROUNDS; r += 4) {
        rv_xword k0 = rk[r], k1 = rk[r + 1], k2 = rk[r + 2], k3 = rk[r + 3];
        SM4_PAIR(x, a, b, c, d, k0, k1);
        SM4_PAIR(y, a, b, c, d, k0, k1);
        SM4_PAIR(x, c, d, a, b, k2, k3);
        SM4_PAIR(y, c, d, a, b, k2, k3);
    }
    *s = x;
    *u = y;
}

/* A block as four byte-reversed words: the bytes, loaded little-endian.
 * Sign-extended on rv64 because that is what lw does: the upper halves are
 * don't-care, and a zero-extension would cost two shifts per word. */
RV_INLINE rv_xword load_word(const rv_word32 *p) {
    return (rv_xword)(long)(int32_t)*p;
}
RV_INLINE sm4_state load_block(const rv_word32 *p) {
    return (sm4_state){load_word(p), load_word(p + 1), load_word(p + 2), load_word(p + 3)};
}

/* The cipher output is (X35, X34, X33, X32): the state in reverse. */
RV_INLINE sm4_state output_of(const sm4_state *s) {
    return (sm4_state){s->d, s->c, s->b, s->a};
}

RV_INLINE void store_block(rv_word32 *p, sm4_state v) {
    p[0] = (uint32_t)v.a;
    p[1] = (uint32_t)v.b;
    p[2] = (uint32_t)v.c;
    p[3] = (uint32_t)v.d;
}

RV_INLINE sm4_state xor_block(sm4_state v, sm4_state w) {
    return (sm4_state){v.a ^ w.a, v.b ^ w.b, v.c ^ w.c, v.d ^ w.d};
}

/* E or D of one block: input words -> output words. */
RV_INLINE sm4_state crypt1(const sm4_rk *rk, sm4_state in) {
    sm4_rounds1(rk, &in);
    return output_of(&in);
}

/* ------------------------------------------------ chaining values, views */

/* A 16-byte chaining value (IV, tweak, MAC) as four words; byte access
 * when the modes did not align it (they do). The XTS tweak as its two
 * 64-bit halves. (xlen hooks) */
#if __riscv_xlen == 64
RV_INLINE sm4_state load_chain(const uint8_t *p) {
    uint64_t w0, w1;
    rv_load_chain2(p, &w0, &w1);
    return (sm4_state){w0, w0 >> 32, w1, w1 >> 32};
}
RV_INLINE void store_chain(uint8_t *p, sm4_state v) {
    rv_store_chain2(p, (v.b << 32) | (uint32_t)v.a, (v.d << 32) | (uint32_t)v.c);
}
RV_INLINE void load_tweak(const uint8_t *p, uint64_t t[2]) {
    rv_load_chain2(p, &t[0], &t[1]);
}
RV_INLINE void store_tweak(uint8_t *p, const uint64_t t[2]) {
    rv_store_chain2(p, t[0], t[1]);
}
#else
RV_INLINE sm4_state load_chain(const uint8_t *p) {
    uint32_t w[4];
    rv_load_chain(p, w);
    return (sm4_state){w[0], w[1], w[2], w[3]};
}
RV_INLINE void store_chain(uint8_t *p, sm4_state v) {
    const uint32_t w[4] = {v.a, v.b, v.c, v.d};
    rv_store_chain(p, w);
}
RV_INLINE void load_tweak(const uint8_t *p, uint64_t t[2]) {
    const sm4_state tw = load_chain(p);
    t[0] = ((uint64_t)tw.b << 32) | tw.a;
    t[1] = ((uint64_t)tw.d << 32) | tw.c;
}
RV_INLINE void store_tweak(uint8_t *p, const uint64_t t[2]) {
    store_chain(p, (sm4_state){(uint32_t)t[0], (uint32_t)(t[0] >> 32), (uint32_t)t[1], (uint32_t)(t[1] >> 32)});
}
#endif

/* RV_STREAM hands out word-aligned pointers; the kernels read and write
 * 32-bit words. */
#define W32(p) ((rv_word32 *)(void *)(p))
#define CW32(p) ((const rv_word32 *)(const void *)(p))

/* ------------------------------------------------------------------ ECB */

RV_INLINE void ecb_body(const rv_word32 *rk, rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    for (; n >= 2; n -= 2, in += 8, out += 8) {
        sm4_state s = load_block(in), u = load_block(in + 4);
        sm4_rounds2(k, &s, &u);
        store_block(out, output_of(&s));
        store_block(out + 4, output_of(&u));
    }
    if (n)
        store_block(out, crypt1(k, load_block(in)));
}

static void RV_XNAME(hwc_sm4_ecb_enc_zksed, )(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    RV_STREAM(out, in, nblocks, ecb_body(enc_keys(ks), W32(rv_out), CW32(rv_in), rv_n));
}

static void RV_XNAME(hwc_sm4_ecb_dec_zksed, )(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    RV_STREAM(out, in, nblocks, ecb_body(dec_keys(ks), W32(rv_out), CW32(rv_in), rv_n));
}

/* ------------------------------------------------------------------ CBC */

/* Serial: each block's input is the previous ciphertext. */
RV_INLINE void cbc_enc_body(const rv_word32 *rk, sm4_state *iv, rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state c = *iv;
    for (const rv_word32 *end = in + 4 * n; in != end; in += 4, out += 4) {
        c = crypt1(k, xor_block(c, load_block(in)));
        store_block(out, c);
    }
    *iv = c;
}

/* Every input word is read before any output word is written, so out ==
 * in works. */
RV_INLINE void cbc_dec_body(const rv_word32 *rk, sm4_state *iv, rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state prev = *iv;
    for (; n >= 2; n -= 2, in += 8, out += 8) {
        const sm4_state c0 = load_block(in), c1 = load_block(in + 4);
        sm4_state s = c0, u = c1;
        sm4_rounds2(k, &s, &u);
        store_block(out, xor_block(output_of(&s), prev));
        store_block(out + 4, xor_block(output_of(&u), c0));
        prev = c1;
    }
    if (n) {
        const sm4_state c0 = load_block(in);
        store_block(out, xor_block(crypt1(k, c0), prev));
        prev = c0;
    }
    *iv = prev;
}

/* Chaining value in and out of the caller's 16 bytes around a kernel. */
#define WITH_CHAIN(chain, v, STMT)       \
    do {                                 \
        sm4_state v = load_chain(chain); \
        STMT;                            \
        store_chain((chain), v);         \
    } while (0)

static void RV_XNAME(hwc_sm4_cbc_enc_zksed, )(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    WITH_CHAIN(iv, v, RV_STREAM(out, in, nblocks, cbc_enc_body(enc_keys(ks), &v, W32(rv_out), CW32(rv_in), rv_n)));
}

static void RV_XNAME(hwc_sm4_cbc_dec_zksed, )(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    WITH_CHAIN(iv, v, RV_STREAM(out, in, nblocks, cbc_dec_body(dec_keys(ks), &v, W32(rv_out), CW32(rv_in), rv_n)));
}

/* ------------------------------------------------------------------ CFB */

/* C_i = P_i ^ E(C_{i-1}); iv holds C_{i-1}. */
RV_INLINE void cfb_enc_body(const rv_word32 *rk, sm4_state *iv, rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state c = *iv;
    for (const rv_word32 *end = in + 4 * n; in != end; in += 4, out += 4) {
        c = xor_block(crypt1(k, c), load_block(in));
        store_block(out, c);
    }
    *iv = c;
}

/* P_i = C_i ^ E(C_{i-1}): the cipher inputs are known two at a time. */
RV_INLINE void cfb_dec_body(const rv_word32 *rk, sm4_state *iv, rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state prev = *iv;
    for (; n >= 2; n -= 2, in += 8, out += 8) {
        const sm4_state c0 = load_block(in), c1 = load_block(in + 4);
        sm4_state s = prev, u = c0;
        sm4_rounds2(k, &s, &u);
        store_block(out, xor_block(output_of(&s), c0));
        store_block(out + 4, xor_block(output_of(&u), c1));
        prev = c1;
    }
    if (n) {
        const sm4_state c0 = load_block(in);
        store_block(out, xor_block(crypt1(k, prev), c0));
        prev = c0;
    }
    *iv = prev;
}

static void RV_XNAME(hwc_sm4_cfb_enc_zksed, )(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    WITH_CHAIN(iv, v, RV_STREAM(out, in, nblocks, cfb_enc_body(enc_keys(ks), &v, W32(rv_out), CW32(rv_in), rv_n)));
}

static void RV_XNAME(hwc_sm4_cfb_dec_zksed, )(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    WITH_CHAIN(iv, v, RV_STREAM(out, in, nblocks, cfb_dec_body(enc_keys(ks), &v, W32(rv_out), CW32(rv_in), rv_n)));
}

/* ------------------------------------------------------------------ OFB */

/* iv holds the last keystream block; the next is its encryption. */
RV_INLINE void ofb_body(const rv_word32 *rk, sm4_state *iv, rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state ks = *iv;
    for (const rv_word32 *end = in + 4 * n; in != end; in += 4, out += 4) {
        ks = crypt1(k, ks);
        store_block(out, xor_block(ks, load_block(in)));
    }
    *iv = ks;
}

static void RV_XNAME(hwc_sm4_ofb_zksed, )(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                size_t nblocks) {
    WITH_CHAIN(iv, v, RV_STREAM(out, in, nblocks, ofb_body(enc_keys(ks), &v, W32(rv_out), CW32(rv_in), rv_n)));
}

/* ------------------------------------------------------------------ CTR */

/* The counter block as the rounds take it: byte-reversed words. */
RV_INLINE sm4_state ctr_words(const ctr_value *c) {
#if __riscv_xlen == 64
    const uint64_t hi = rv_bswap_base(c->hi), lo = rv_bswap_base(c->lo);
    return (sm4_state){hi, hi >> 32, lo, lo >> 32};
#else
    return (sm4_state){rv_bswap_base((uint32_t)(c->hi >> 32)), rv_bswap_base((uint32_t)c->hi),
                       rv_bswap_base((uint32_t)(c->lo >> 32)), rv_bswap_base((uint32_t)c->lo)};
#endif
}

/* Keystream XOR in runs that end where the counter's last byte wraps;
 * inside a run the next counter block is the previous one with 2^24 added
 * to its last word (carries above bit 31 are ignored by sm4ed). */
RV_INLINE void ctr_body(const rv_word32 *rk, ctr_value *c, int wide, rv_word32 *out, const rv_word32 *in,
                        size_t n) {
    LOCAL_KEYS(k, rk);
    const rv_xword step = (rv_xword)1 << 24;
    while (n != 0) {
        size_t run = 256 - (size_t)(c->lo & 0xFF);
        if (run > n)
            run = n;
        sm4_state ctr = ctr_words(c); /* once per run */
        size_t left = run;
        for (; left >= 2; left -= 2, in += 8, out += 8) {
            sm4_state s = ctr, u = ctr;
            u.d += step;
            ctr.d += 2 * step;
            sm4_rounds2(k, &s, &u);
            store_block(out, xor_block(output_of(&s), load_block(in)));
            store_block(out + 4, xor_block(output_of(&u), load_block(in + 4)));
        }
        if (left) {
            store_block(out, xor_block(crypt1(k, ctr), load_block(in)));
            in += 4;
            out += 4;
        }
        ctr_advance(c, run, wide);
        n -= run;
    }
}

static void ctr_kernel(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                       int wide) {
    ctr_value c = {hwc_load_be64(ctr), hwc_load_be64(ctr + 8)};
    RV_STREAM(out, in, nblocks, ctr_body(enc_keys(ks), &c, wide, W32(rv_out), CW32(rv_in), rv_n));
    hwc_store_be64(ctr, c.hi);
    hwc_store_be64(ctr + 8, c.lo);
}

static void RV_XNAME(hwc_sm4_ctr128_zksed, )(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                   size_t nblocks) {
    ctr_kernel(ks, ctr, out, in, nblocks, 1);
}

static void RV_XNAME(hwc_sm4_ctr32_zksed, )(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    ctr_kernel(ks, ctr, out, in, nblocks, 0);
}

/* ------------------------------------------------------------------ XTS */

/* T *= alpha in IEEE 1619 order on the little-endian 64-bit halves t0
 * (bytes 0..7) and t1; masked fold: the tweak is secret. */
RV_INLINE void xts_mul_alpha(uint64_t *t0, uint64_t *t1) {
    uint64_t fold = (uint64_t)((int64_t)*t1 >> 63) & 0x87;
    *t1 = (*t1 << 1) | (*t0 >> 63);
    *t0 = (*t0 << 1) ^ fold;
}

RV_INLINE sm4_state tweak_words(uint64_t t0, uint64_t t1) {
    return (sm4_state){(rv_xword)t0, (rv_xword)(t0 >> 32), (rv_xword)t1, (rv_xword)(t1 >> 32)};
}

RV_INLINE void xts_body(const rv_word32 *rk, uint64_t tw[2], rv_word32 *out, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    uint64_t t0 = tw[0], t1 = tw[1];
    for (; n >= 2; n -= 2, in += 8, out += 8) {
        const sm4_state ta = tweak_words(t0, t1);
        xts_mul_alpha(&t0, &t1);
        const sm4_state tb = tweak_words(t0, t1);
        xts_mul_alpha(&t0, &t1);
        sm4_state s = xor_block(load_block(in), ta), u = xor_block(load_block(in + 4), tb);
        sm4_rounds2(k, &s, &u);
        store_block(out, xor_block(output_of(&s), ta));
        store_block(out + 4, xor_block(output_of(&u), tb));
    }
    if (n) {
        const sm4_state ta = tweak_words(t0, t1);
        xts_mul_alpha(&t0, &t1);
        store_block(out, xor_block(crypt1(k, xor_block(load_block(in), ta)), ta));
    }
    tw[0] = t0;
    tw[1] = t1;
}

static void xts_kernel(const rv_word32 *rk, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    uint64_t t[2];
    load_tweak(tweak, t);
    RV_STREAM(out, in, nblocks, xts_body(rk, t, W32(rv_out), CW32(rv_in), rv_n));
    store_tweak(tweak, t);
}

static void RV_XNAME(hwc_sm4_xts_enc_zksed, )(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    xts_kernel(enc_keys(ks), tweak, out, in, nblocks);
}

static void RV_XNAME(hwc_sm4_xts_dec_zksed, )(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    xts_kernel(dec_keys(ks), tweak, out, in, nblocks);
}

/* -------------------------------------------------------------- CBC-MAC */

RV_INLINE void cbc_mac_body(const rv_word32 *rk, sm4_state *mac, const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state m = *mac;
    for (const rv_word32 *end = in + 4 * n; in != end; in += 4)
        m = crypt1(k, xor_block(m, load_block(in)));
    *mac = m;
}

static void RV_XNAME(hwc_sm4_cbc_mac_zksed, )(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    WITH_CHAIN(mac, m, RV_STREAM_IN(in, nblocks, cbc_mac_body(enc_keys(ks), &m, CW32(rv_in), rv_n)));
}

/* ----------------------------------------------------------------- OCB3 */

typedef struct ocb_chain {
    uint64_t index; /* 1-based index of the next block */
    sm4_state offset, checksum;
} ocb_chain;

/* Offset_i = Offset_{i-1} ^ L[ntz(i)]; odd indices (half) take L_0. */
RV_INLINE sm4_state ocb_next_offset(const rv_word32 *L, uint64_t index, sm4_state o) {
    unsigned z = (index & 1) ? 0 : rv_ntz64(index);
    return xor_block(o, load_block(L + 4 * z));
}

/* C_i = Offset_i ^ E(P_i ^ Offset_i) (decryption with D); the checksum
 * sums the plaintext. */
RV_INLINE void ocb_body(const rv_word32 *rk, int decrypt, const rv_word32 *L, ocb_chain *st, rv_word32 *out,
                        const rv_word32 *in, size_t n) {
    LOCAL_KEYS(k, rk);
    sm4_state o = st->offset, sum = st->checksum;
    uint64_t index = st->index;
    for (; n >= 2; n -= 2, in += 8, out += 8, index += 2) {
        const sm4_state p0 = load_block(in), p1 = load_block(in + 4);
        const sm4_state oa = ocb_next_offset(L, index, o);
        o = ocb_next_offset(L, index + 1, oa);
        sm4_state s = xor_block(p0, oa), u = xor_block(p1, o);
        sm4_rounds2(k, &s, &u);
        const sm4_state r0 = xor_block(output_of(&s), oa), r1 = xor_block(output_of(&u), o);
        sum = xor_block(sum, decrypt ? xor_block(r0, r1) : xor_block(p0, p1));
        store_block(out, r0);
        store_block(out + 4, r1);
    }
    if (n) {
        const sm4_state p0 = load_block(in);
        o = ocb_next_offset(L, index++, o);
        const sm4_state r0 = xor_block(crypt1(k, xor_block(p0, o)), o);
        sum = xor_block(sum, decrypt ? r0 : p0);
        store_block(out, r0);
    }
    st->index = index;
    st->offset = o;
    st->checksum = sum;
}

static const hwc_block_impl sm4_zksed_impl;

static void ocb_kernel(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t first_index,
                       uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (!rv_aligned(L)) { /* the modes keep L aligned; never read it misaligned */
        if (decrypt)
            hwc_generic_ocb_dec(&sm4_zksed_impl, ks, L, first_index, offset, checksum, out, in, nblocks);
        else
            hwc_generic_ocb_enc(&sm4_zksed_impl, ks, L, first_index, offset, checksum, out, in, nblocks);
        return;
    }
    const rv_word32 *lw = CW32(L);
    ocb_chain st = {first_index, load_chain(offset), load_chain(checksum)};
    if (decrypt)
        RV_STREAM(out, in, nblocks, ocb_body(dec_keys(ks), 1, lw, &st, W32(rv_out), CW32(rv_in), rv_n));
    else
        RV_STREAM(out, in, nblocks, ocb_body(enc_keys(ks), 0, lw, &st, W32(rv_out), CW32(rv_in), rv_n));
    store_chain(offset, st.offset);
    store_chain(checksum, st.checksum);
}

static void RV_XNAME(hwc_sm4_ocb_enc_zksed, )(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                    uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    ocb_kernel(ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static void RV_XNAME(hwc_sm4_ocb_dec_zksed, )(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                    uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    ocb_kernel(ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* ---------------------------------------------------------------- table */

static const hwc_block_impl sm4_zksed_impl = {
    .name = "zksed" RV_XLEN_STR,
    .family = HWC_FAMILY_SM4,
    .required_caps = HWC_CAP_ZKSED,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "clmul" RV_XLEN_STR,
    .usable = NULL,
    .set_key = RV_XNAME(hwc_sm4_set_key_zksed, ),
    .ecb_enc = RV_XNAME(hwc_sm4_ecb_enc_zksed, ),
    .ecb_dec = RV_XNAME(hwc_sm4_ecb_dec_zksed, ),
    .cbc_enc = RV_XNAME(hwc_sm4_cbc_enc_zksed, ),
    .cbc_dec = RV_XNAME(hwc_sm4_cbc_dec_zksed, ),
    .cfb_enc = RV_XNAME(hwc_sm4_cfb_enc_zksed, ),
    .cfb_dec = RV_XNAME(hwc_sm4_cfb_dec_zksed, ),
    .ofb = RV_XNAME(hwc_sm4_ofb_zksed, ),
    .ctr128 = RV_XNAME(hwc_sm4_ctr128_zksed, ),
    .ctr32 = RV_XNAME(hwc_sm4_ctr32_zksed, ),
    .xts_enc = RV_XNAME(hwc_sm4_xts_enc_zksed, ),
    .xts_dec = RV_XNAME(hwc_sm4_xts_dec_zksed, ),
    .cbc_mac = RV_XNAME(hwc_sm4_cbc_mac_zksed, ),
    .ocb_enc = RV_XNAME(hwc_sm4_ocb_enc_zksed, ),
    .ocb_dec = RV_XNAME(hwc_sm4_ocb_dec_zksed, ),
};

const hwc_block_impl *RV_XNAME(hwc_sm4_zksed, _get)(void) {
    return &sm4_zksed_impl;
}

#endif /* __riscv */
