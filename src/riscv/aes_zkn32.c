/*
 * AES with the RV32 scalar crypto extensions: back ends "zkn32" (Zkne +
 * Zknd) and "zkne32" (Zkne only).
 *
 * The state is four 32-bit columns t0..t3, each the little-endian load of
 * four block bytes. aes32esmi(acc, x, bs) adds to acc the MixColumns image
 * of SubBytes of byte bs of x, rotated to row bs: column j of the next
 * round is the round key word with the four bytes ShiftRows brings there
 * (row r from column j + r) added in, i.e. four aes32esmi starting from the
 * round key. A round is 16 instructions and the key XOR is free; the last
 * round uses aes32esi (no MixColumns) starting from the last round key.
 * AES-128 is 4 + 160 instructions per block plus the round-key loads, which
 * rv32's 31 registers cannot hold across blocks.
 *
 * Decryption uses the equivalent inverse cipher (FIPS-197 5.3.5) with
 * aes32dsmi / aes32dsi and InvShiftRows (row r from column j - r). Its
 * round keys are InvMixColumns of the encryption keys, computed with Zkne
 * and Zknd alone: aes32esi puts S(b) in place, aes32dsmi takes it back
 * through S^-1 and applies InvMixColumns, so four of each make the
 * InvMixColumns of a word.
 *
 * Key expansion (FIPS-197 5.2): SubWord(RotWord(w)) is four aes32esi of
 * the word rotated by one byte.
 *
 * Every mode has its own loop (ECB, CBC, CFB, OFB, CTR with 128- and 32-bit
 * counters, XTS, OCB, CBC-MAC); GCM, CCM, CMAC, SIV, GCM-SIV and KW reach
 * them through the modes' k_*() calls. Kernels are instantiated per key
 * length (ZKN32_BY_ROUNDS) so the round loops unroll with constant key
 * indices.
 *
 * CTR keeps the counter block in the state layout: its last byte is the top
 * byte of t3, so within a run where that byte does not wrap, the next
 * counter block is t3 + 2^24 (one add); the native counter is advanced and
 * byte-reversed again once per run of up to 256 blocks. Counters are
 * public, so branching on them leaks nothing.
 *
 * "zkne32" serves cores with Zkne but not Zknd: every kernel that runs the
 * cipher forward is hardware; the decryption direction (ECB/CBC, XTS, OCB
 * decryption, key unwrap) is the portable "ct" AES, whose schedule lives
 * beside this one in the same hwc_ks.
 *
 * Constant time: no branch or address depends on key or data; the scalar
 * AES instructions are data-independent in time on cores with Zkt.
 */
#if defined(__riscv) && __riscv_xlen == 32

#include "rv_scalar.h"
#include "getters.h"

#define ZKN32_MAX_ROUNDS 14
#define ZKN32_MAX_WORDS (4 * (ZKN32_MAX_ROUNDS + 1))
/* Layout in hwc_ks: the first KiB is left to the ct schedule (zkne32's
 * decryption); then encryption and decryption round keys. */
#define ZKN32_ENC_OFFSET 1024
#define ZKN32_DEC_OFFSET (ZKN32_ENC_OFFSET + 4 * ZKN32_MAX_WORDS)
#define ZKN32_ROUNDS_OFFSET (ZKN32_DEC_OFFSET + 4 * ZKN32_MAX_WORDS)

_Static_assert(ZKN32_ROUNDS_OFFSET < HWC_KS_BYTES, "zkn32 schedule must fit in hwc_ks");
_Static_assert(ZKN32_ENC_OFFSET >= 15 * 64 + 1, "the ct schedule must fit below the zkn32 one");

static inline const rv_word *enc_keys(const hwc_ks *ks) {
    return (const rv_word *)(const void *)(ks->bytes + ZKN32_ENC_OFFSET);
}
static inline const rv_word *dec_keys(const hwc_ks *ks) {
    return (const rv_word *)(const void *)(ks->bytes + ZKN32_DEC_OFFSET);
}
static inline unsigned rounds_of(const hwc_ks *ks) {
    return ks->bytes[ZKN32_ROUNDS_OFFSET];
}

/* Run STMT with NR an integer constant: 10, 12 or 14 rounds. */
#define ZKN32_BY_ROUNDS(ks, STMT)          \
    switch (rounds_of(ks)) {               \
    case 10: {                             \
        enum { NR = 10 };                  \
        STMT;                              \
        break;                             \
    }                                      \
    case 12: {                             \
        enum { NR = 12 };                  \
        STMT;                              \
        break;                             \
    }                                      \
    default: {                             \
        enum { NR = 14 };                  \
        STMT;                              \
        break;                             \
    }                                      \
    }

/* ------------------------------------------------------- key expansion */

/* SubWord(RotWord(w)) ^ rcon, w a little-endian word. */
static uint32_t sub_rot_word(uint32_t w, uint32_t rcon) {
    const uint32_t x = (w >> 8) | (w << 24);
    uint32_t t = rcon;
    t = rv_aes32esi(t, x, 0);
    t = rv_aes32esi(t, x, 1);
    t = rv_aes32esi(t, x, 2);
    t = rv_aes32esi(t, x, 3);
    return t;
}

static uint32_t sub_word(uint32_t w) {
    uint32_t t = 0;
    t = rv_aes32esi(t, w, 0);
    t = rv_aes32esi(t, w, 1);
    t = rv_aes32esi(t, w, 2);
    t = rv_aes32esi(t, w, 3);
    return t;
}

static void zkn32_expand_enc(rv_word *rk, const uint8_t *key, size_t key_len) {
    static const uint8_t rcon[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    const unsigned nk = (unsigned)(key_len / 4), total = 4 * (nk + 7);
    for (unsigned i = 0; i < nk; i++)
        rk[i] = hwc_load_le32(key + 4 * i);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = rk[i - 1];
        if (i % nk == 0)
            t = sub_rot_word(t, rcon[i / nk - 1]);
        else if (nk == 8 && i % nk == 4)
            t = sub_word(t);
        rk[i] = rk[i - nk] ^ t;
    }
}

/* InvMixColumns of a word: S through aes32esi, back through aes32dsmi. */
static uint32_t inv_mix_column(uint32_t w) {
    uint32_t s = 0, r = 0;
    s = rv_aes32esi(s, w, 0);
    s = rv_aes32esi(s, w, 1);
    s = rv_aes32esi(s, w, 2);
    s = rv_aes32esi(s, w, 3);
    r = rv_aes32dsmi(r, s, 0);
    r = rv_aes32dsmi(r, s, 1);
    r = rv_aes32dsmi(r, s, 2);
    r = rv_aes32dsmi(r, s, 3);
    return r;
}

/* Equivalent inverse cipher keys: reversed, the middle ones through
 * InvMixColumns (aes32dsmi applies it before the key is added). */
static void zkn32_expand_dec(rv_word *dk, const rv_word *rk, unsigned nr) {
    for (unsigned j = 0; j < 4; j++) {
        dk[j] = rk[4 * nr + j];
        dk[4 * nr + j] = rk[j];
    }
    for (unsigned r = 1; r < nr; r++)
        for (unsigned j = 0; j < 4; j++)
            dk[4 * r + j] = inv_mix_column(rk[4 * (nr - r) + j]);
}

static void zkn32_write_schedule(hwc_ks *ks, const uint8_t *key, size_t key_len) {
    zkn32_expand_enc((rv_word *)(void *)(ks->bytes + ZKN32_ENC_OFFSET), key, key_len);
    ks->bytes[ZKN32_ROUNDS_OFFSET] = (uint8_t)(key_len / 4 + 6);
}

static void hwc_aes_set_key_zkn32(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    zkn32_write_schedule(ks, key, key_len);
    if (want_dec)
        zkn32_expand_dec((rv_word *)(void *)(ks->bytes + ZKN32_DEC_OFFSET), enc_keys(ks), rounds_of(ks));
}

/* zkne32: the decryption direction is the portable AES, keyed here too. */
static void hwc_aes_set_key_zkne32(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    if (want_dec)
        hwc_aes_ct_get()->set_key(ks, key, key_len, 1); /* writes below ZKN32_ENC_OFFSET only */
    zkn32_write_schedule(ks, key, key_len);
}

/* -------------------------------------------------------- block rounds */

typedef struct aes_state {
    uint32_t t0, t1, t2, t3;
} aes_state;

/* Column j of an encryption round: key word, then row r from column j + r. */
#define ENC_COL(OP, k, a, b, c, d) OP(OP(OP(OP((k), (a), 0), (b), 1), (c), 2), (d), 3)
/* Column j of a decryption round: row r from column j - r. */
#define DEC_COL ENC_COL

/* Rounds 1..nr on a state that already has round key 0 added, the last
 * round key included. */
RV_INLINE aes_state enc_rounds(const rv_word *k, unsigned nr, aes_state s) {
    _Pragma("GCC unroll 14")
    for (unsigned r = 1; r < nr; r++) {
        const rv_word *kr = k + 4 * r;
        aes_state u;
        u.t0 = ENC_COL(rv_aes32esmi, kr[0], s.t0, s.t1, s.t2, s.t3);
        u.t1 = ENC_COL(rv_aes32esmi, kr[1], s.t1, s.t2, s.t3, s.t0);
        u.t2 = ENC_COL(rv_aes32esmi, kr[2], s.t2, s.t3, s.t0, s.t1);
        u.t3 = ENC_COL(rv_aes32esmi, kr[3], s.t3, s.t0, s.t1, s.t2);
        s = u;
    }
    const rv_word *kl = k + 4 * nr;
    aes_state u;
    u.t0 = ENC_COL(rv_aes32esi, kl[0], s.t0, s.t1, s.t2, s.t3);
    u.t1 = ENC_COL(rv_aes32esi, kl[1], s.t1, s.t2, s.t3, s.t0);
    u.t2 = ENC_COL(rv_aes32esi, kl[2], s.t2, s.t3, s.t0, s.t1);
    u.t3 = ENC_COL(rv_aes32esi, kl[3], s.t3, s.t0, s.t1, s.t2);
    return u;
}

RV_INLINE aes_state dec_rounds(const rv_word *k, unsigned nr, aes_state s) {
    _Pragma("GCC unroll 14")
    for (unsigned r = 1; r < nr; r++) {
        const rv_word *kr = k + 4 * r;
        aes_state u;
        u.t0 = DEC_COL(rv_aes32dsmi, kr[0], s.t0, s.t3, s.t2, s.t1);
        u.t1 = DEC_COL(rv_aes32dsmi, kr[1], s.t1, s.t0, s.t3, s.t2);
        u.t2 = DEC_COL(rv_aes32dsmi, kr[2], s.t2, s.t1, s.t0, s.t3);
        u.t3 = DEC_COL(rv_aes32dsmi, kr[3], s.t3, s.t2, s.t1, s.t0);
        s = u;
    }
    const rv_word *kl = k + 4 * nr;
    aes_state u;
    u.t0 = DEC_COL(rv_aes32dsi, kl[0], s.t0, s.t3, s.t2, s.t1);
    u.t1 = DEC_COL(rv_aes32dsi, kl[1], s.t1, s.t0, s.t3, s.t2);
    u.t2 = DEC_COL(rv_aes32dsi, kl[2], s.t2, s.t1, s.t0, s.t3);
    u.t3 = DEC_COL(rv_aes32dsi, kl[3], s.t3, s.t2, s.t1, s.t0);
    return u;
}

RV_INLINE aes_state xor_state(aes_state a, aes_state b) {
    return (aes_state){a.t0 ^ b.t0, a.t1 ^ b.t1, a.t2 ^ b.t2, a.t3 ^ b.t3};
}
RV_INLINE aes_state load_state(const rv_word *p) {
    return (aes_state){p[0], p[1], p[2], p[3]};
}
RV_INLINE void store_state(rv_word *p, aes_state s) {
    p[0] = s.t0;
    p[1] = s.t1;
    p[2] = s.t2;
    p[3] = s.t3;
}

/* E(x) / D(x) of one whole block. */
RV_INLINE aes_state enc_block(const rv_word *k, unsigned nr, aes_state x) {
    return enc_rounds(k, nr, xor_state(x, load_state(k)));
}
RV_INLINE aes_state dec_block(const rv_word *k, unsigned nr, aes_state x) {
    return dec_rounds(k, nr, xor_state(x, load_state(k)));
}

RV_INLINE aes_state load_chain(const uint8_t *p) {
    uint32_t w[4];
    rv_load_chain(p, w);
    return (aes_state){w[0], w[1], w[2], w[3]};
}
RV_INLINE void store_chain(uint8_t *p, aes_state s) {
    const uint32_t w[4] = {s.t0, s.t1, s.t2, s.t3};
    rv_store_chain(p, w);
}

/* Chaining value in and out of the caller's 16 bytes around a kernel. */
#define WITH_CHAIN(chain, v, STMT)       \
    do {                                 \
        aes_state v = load_chain(chain); \
        STMT;                            \
        store_chain((chain), v);         \
    } while (0)

/* A kernel's copy of the round keys: the output stores cannot alias a
 * local, so the compiler keeps the words it has registers for across
 * blocks (CTR: 13.6 -> 12.6 instructions per byte). */
#define LOCAL_KEYS(k, src, nr)                      \
    uint32_t k[ZKN32_MAX_WORDS];                    \
    _Pragma("GCC unroll 60")                        \
    for (unsigned i_ = 0; i_ < 4 * ((nr) + 1); i_++) \
        k[i_] = (src)[i_]

/* ------------------------------------------------------------------ ECB */

RV_INLINE void ecb_enc_body(const rv_word *rk, unsigned nr, rv_word *out, const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4)
        store_state(out, enc_block(k, nr, load_state(in)));
}

RV_INLINE void ecb_dec_body(const rv_word *rk, unsigned nr, rv_word *out, const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4)
        store_state(out, dec_block(k, nr, load_state(in)));
}

static void hwc_aes_ecb_enc_zkn32(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ecb_enc_body(enc_keys(ks), NR, rv_out, rv_in, rv_n)));
}

static void hwc_aes_ecb_dec_zkn32(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ecb_dec_body(dec_keys(ks), NR, rv_out, rv_in, rv_n)));
}

/* zkne32's decryption: the portable AES on its own schedule. */
static void hwc_aes_ecb_dec_zkne32_ct(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    hwc_aes_ct_get()->ecb_dec(ks, out, in, nblocks);
}

/* ------------------------------------------------------------------ CBC */

RV_INLINE void cbc_enc_body(const rv_word *rk, unsigned nr, aes_state *iv, rv_word *out, const rv_word *in,
                            size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state c = *iv;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4) {
        c = enc_block(k, nr, xor_state(c, load_state(in)));
        store_state(out, c);
    }
    *iv = c;
}

/* Each ciphertext block is read before its plaintext is written: out == in. */
RV_INLINE void cbc_dec_body(const rv_word *rk, unsigned nr, aes_state *iv, rv_word *out, const rv_word *in,
                            size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state prev = *iv;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4) {
        const aes_state c = load_state(in);
        store_state(out, xor_state(dec_block(k, nr, c), prev));
        prev = c;
    }
    *iv = prev;
}

static void hwc_aes_cbc_enc_zkn32(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    WITH_CHAIN(iv, v,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks,
                                               cbc_enc_body(enc_keys(ks), NR, &v, rv_out, rv_in, rv_n))));
}

static void hwc_aes_cbc_dec_zkn32(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    WITH_CHAIN(iv, v,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks,
                                               cbc_dec_body(dec_keys(ks), NR, &v, rv_out, rv_in, rv_n))));
}

/* ------------------------------------------------------------------ CFB */

RV_INLINE void cfb_enc_body(const rv_word *rk, unsigned nr, aes_state *iv, rv_word *out, const rv_word *in,
                            size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state c = *iv;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4) {
        c = xor_state(enc_block(k, nr, c), load_state(in));
        store_state(out, c);
    }
    *iv = c;
}

RV_INLINE void cfb_dec_body(const rv_word *rk, unsigned nr, aes_state *iv, rv_word *out, const rv_word *in,
                            size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state prev = *iv;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4) {
        const aes_state c = load_state(in);
        store_state(out, xor_state(enc_block(k, nr, prev), c));
        prev = c;
    }
    *iv = prev;
}

static void hwc_aes_cfb_enc_zkn32(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    WITH_CHAIN(iv, v,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks,
                                               cfb_enc_body(enc_keys(ks), NR, &v, rv_out, rv_in, rv_n))));
}

static void hwc_aes_cfb_dec_zkn32(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    WITH_CHAIN(iv, v,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks,
                                               cfb_dec_body(enc_keys(ks), NR, &v, rv_out, rv_in, rv_n))));
}

/* ------------------------------------------------------------------ OFB */

RV_INLINE void ofb_body(const rv_word *rk, unsigned nr, aes_state *iv, rv_word *out, const rv_word *in,
                        size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state s = *iv;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4) {
        s = enc_block(k, nr, s);
        store_state(out, xor_state(s, load_state(in)));
    }
    *iv = s;
}

static void hwc_aes_ofb_zkn32(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    WITH_CHAIN(iv, v,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ofb_body(enc_keys(ks), NR, &v, rv_out, rv_in, rv_n))));
}

/* ------------------------------------------------------------------ CTR */

/* Keystream XOR in runs that end where the counter's last byte wraps;
 * inside a run the next counter block adds 2^24 to t3. Round key 0 is
 * added to the three constant words once per run. (Two blocks per
 * iteration, sharing the key loads, measured slower: the compiler spills
 * the second state on rv32's 31 registers.) */
RV_INLINE void ctr_body(const rv_word *rk, unsigned nr, ctr_value *c, int wide, rv_word *out,
                        const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    const uint32_t step = (uint32_t)1 << 24;
    while (n != 0) {
        size_t run = 256 - (size_t)(c->lo & 0xFF);
        if (run > n)
            run = n;
        const uint32_t w0 = rv_bswap_base((uint32_t)(c->hi >> 32)) ^ k[0];
        const uint32_t w1 = rv_bswap_base((uint32_t)c->hi) ^ k[1];
        const uint32_t w2 = rv_bswap_base((uint32_t)(c->lo >> 32)) ^ k[2];
        uint32_t w3 = rv_bswap_base((uint32_t)c->lo);
        for (size_t i = 0; i < run; i++, in += 4, out += 4) {
            const aes_state s = enc_rounds(k, nr, (aes_state){w0, w1, w2, w3 ^ k[3]});
            store_state(out, xor_state(s, load_state(in)));
            w3 += step;
        }
        ctr_advance(c, (uint32_t)run, wide);
        n -= run;
    }
}

static void ctr_kernel(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                       int wide) {
    ctr_value c = {hwc_load_be64(ctr), hwc_load_be64(ctr + 8)};
    ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ctr_body(enc_keys(ks), NR, &c, wide, rv_out, rv_in, rv_n)));
    hwc_store_be64(ctr, c.hi);
    hwc_store_be64(ctr + 8, c.lo);
}

static void hwc_aes_ctr128_zkn32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                 size_t nblocks) {
    ctr_kernel(ks, ctr, out, in, nblocks, 1);
}

static void hwc_aes_ctr32_zkn32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                size_t nblocks) {
    ctr_kernel(ks, ctr, out, in, nblocks, 0);
}

/* ------------------------------------------------------------------ XTS */

/* T *= alpha in IEEE 1619 order: the tweak is a little-endian 128-bit
 * number (t0 lowest word) shifted left by one, x^128 folding back as 0x87.
 * Masked: the tweak is secret. */
RV_INLINE aes_state xts_mul_alpha(aes_state t) {
    const uint32_t fold = (uint32_t)((int32_t)t.t3 >> 31) & 0x87;
    return (aes_state){(t.t0 << 1) ^ fold, (t.t1 << 1) | (t.t0 >> 31), (t.t2 << 1) | (t.t1 >> 31),
                       (t.t3 << 1) | (t.t2 >> 31)};
}

RV_INLINE void xts_body(const rv_word *rk, unsigned nr, int decrypt, aes_state *tw, rv_word *out,
                        const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state t = *tw;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4) {
        const aes_state x = xor_state(load_state(in), t);
        const aes_state y = decrypt ? dec_block(k, nr, x) : enc_block(k, nr, x);
        store_state(out, xor_state(y, t));
        t = xts_mul_alpha(t);
    }
    *tw = t;
}

static void hwc_aes_xts_enc_zkn32(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    WITH_CHAIN(tweak, t,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks,
                                               xts_body(enc_keys(ks), NR, 0, &t, rv_out, rv_in, rv_n))));
}

static void hwc_aes_xts_dec_zkn32(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    WITH_CHAIN(tweak, t,
               ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks,
                                               xts_body(dec_keys(ks), NR, 1, &t, rv_out, rv_in, rv_n))));
}

/* -------------------------------------------------------------- CBC-MAC */

RV_INLINE void cbc_mac_body(const rv_word *rk, unsigned nr, aes_state *mac, const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state m = *mac;
    for (const rv_word *end = in + 4 * n; in != end; in += 4)
        m = enc_block(k, nr, xor_state(m, load_state(in)));
    *mac = m;
}

static void hwc_aes_cbc_mac_zkn32(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    WITH_CHAIN(mac, m,
               ZKN32_BY_ROUNDS(ks, RV_STREAM_IN(in, nblocks, cbc_mac_body(enc_keys(ks), NR, &m, rv_in, rv_n))));
}

/* ----------------------------------------------------------------- OCB3 */

typedef struct ocb_chain {
    uint64_t index; /* 1-based index of the next block */
    aes_state offset, checksum;
} ocb_chain;

/* Offset_i = Offset_{i-1} ^ L[ntz(i)]; odd indices (half of them) take L_0. */
RV_INLINE aes_state ocb_next_offset(const rv_word *L, uint64_t index, aes_state o) {
    const unsigned z = (index & 1) ? 0 : rv_ntz64(index);
    return xor_state(o, load_state(L + 4 * z));
}

/* C_i = Offset_i ^ E(P_i ^ Offset_i) (D for decryption); the checksum sums
 * the plaintext. */
RV_INLINE void ocb_body(const rv_word *rk, unsigned nr, int decrypt, const rv_word *L, ocb_chain *st,
                        rv_word *out, const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state o = st->offset, sum = st->checksum;
    uint64_t index = st->index;
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4, index++) {
        const aes_state p = load_state(in);
        o = ocb_next_offset(L, index, o);
        const aes_state x = xor_state(p, o);
        const aes_state r = xor_state(decrypt ? dec_block(k, nr, x) : enc_block(k, nr, x), o);
        sum = xor_state(sum, decrypt ? r : p);
        store_state(out, r);
    }
    st->index = index;
    st->offset = o;
    st->checksum = sum;
}

static void ocb_kernel(const hwc_block_impl *self, const hwc_ks *ks, int decrypt, const uint8_t (*L)[16],
                       uint64_t first_index, uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
                       const uint8_t *in, size_t nblocks) {
    if (!rv_aligned(L)) { /* the modes keep L aligned; never read it misaligned */
        if (decrypt)
            hwc_generic_ocb_dec(self, ks, L, first_index, offset, checksum, out, in, nblocks);
        else
            hwc_generic_ocb_enc(self, ks, L, first_index, offset, checksum, out, in, nblocks);
        return;
    }
    const rv_word *lw = (const rv_word *)(const void *)L;
    ocb_chain st = {first_index, load_chain(offset), load_chain(checksum)};
    if (decrypt) {
        ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ocb_body(dec_keys(ks), NR, 1, lw, &st, rv_out, rv_in, rv_n)));
    } else {
        ZKN32_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ocb_body(enc_keys(ks), NR, 0, lw, &st, rv_out, rv_in, rv_n)));
    }
    store_chain(offset, st.offset);
    store_chain(checksum, st.checksum);
}

static const hwc_block_impl aes_zkn32_impl, aes_zkne32_impl;

static void hwc_aes_ocb_enc_zkn32(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                  uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    ocb_kernel(&aes_zkn32_impl, ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static void hwc_aes_ocb_dec_zkn32(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                  uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                  size_t nblocks) {
    ocb_kernel(&aes_zkn32_impl, ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* zkne32's OCB encryption (its fallback for a misaligned L must use
 * zkne32's own ECB, so it is a separate entry point). */
static void hwc_aes_ocb_enc_zkne32(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                   uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                   size_t nblocks) {
    ocb_kernel(&aes_zkne32_impl, ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

/* ---------------------------------------------------------------- tables */

static const hwc_block_impl aes_zkn32_impl = {
    .name = "zkn32",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_ZKNE | HWC_CAP_ZKND,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "clmul32",
    .usable = NULL,
    .set_key = hwc_aes_set_key_zkn32,
    .ecb_enc = hwc_aes_ecb_enc_zkn32,
    .ecb_dec = hwc_aes_ecb_dec_zkn32,
    .cbc_enc = hwc_aes_cbc_enc_zkn32,
    .cbc_dec = hwc_aes_cbc_dec_zkn32,
    .cfb_enc = hwc_aes_cfb_enc_zkn32,
    .cfb_dec = hwc_aes_cfb_dec_zkn32,
    .ofb = hwc_aes_ofb_zkn32,
    .ctr128 = hwc_aes_ctr128_zkn32,
    .ctr32 = hwc_aes_ctr32_zkn32,
    .xts_enc = hwc_aes_xts_enc_zkn32,
    .xts_dec = hwc_aes_xts_dec_zkn32,
    .cbc_mac = hwc_aes_cbc_mac_zkn32,
    .ocb_enc = hwc_aes_ocb_enc_zkn32,
    .ocb_dec = hwc_aes_ocb_dec_zkn32,
};

/* Encrypt-direction kernels are the same code (Zkne only); the decryption
 * direction is ct's, and the kernels left NULL (cbc_dec, xts_dec,
 * ocb_dec) run generically over that ecb_dec. */
static const hwc_block_impl aes_zkne32_impl = {
    .name = "zkne32",
    .note = "Zkne without Zknd: encryption in hardware, decryption on the portable code",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_ZKNE,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "clmul32",
    .usable = NULL,
    .set_key = hwc_aes_set_key_zkne32,
    .ecb_enc = hwc_aes_ecb_enc_zkn32,
    .ecb_dec = hwc_aes_ecb_dec_zkne32_ct,
    .cbc_enc = hwc_aes_cbc_enc_zkn32,
    .cbc_dec = NULL,
    .cfb_enc = hwc_aes_cfb_enc_zkn32,
    .cfb_dec = hwc_aes_cfb_dec_zkn32,
    .ofb = hwc_aes_ofb_zkn32,
    .ctr128 = hwc_aes_ctr128_zkn32,
    .ctr32 = hwc_aes_ctr32_zkn32,
    .xts_enc = hwc_aes_xts_enc_zkn32,
    .xts_dec = NULL,
    .cbc_mac = hwc_aes_cbc_mac_zkn32,
    .ocb_enc = hwc_aes_ocb_enc_zkne32,
    .ocb_dec = NULL,
};

const hwc_block_impl *hwc_aes_zkn32_get(void) {
    return &aes_zkn32_impl;
}

const hwc_block_impl *hwc_aes_zkne32_get(void) {
    return &aes_zkne32_impl;
}

#endif /* __riscv && __riscv_xlen == 32 */
