/*
 * AES with the RISC-V scalar crypto extensions: back ends "zkn64" and
 * "zkne64" on rv64, "zkn32" and "zkne32" on rv32 (Zkne + Zknd, and Zkne
 * only). One source, compiled for the build's xlen: the schedule layout,
 * key-setup entry points, the chained modes' entry points, OCB's driver and
 * the tables are written once below; the cipher core (rounds, key
 * expansion, the per-mode block loops) is the xlen's own, because the two
 * ISAs compute a round differently (aes64* on the two 64-bit halves,
 * aes32* one byte at a time into 32-bit columns).
 *
 * rv64. The 128-bit state lives in two 64-bit registers, x0 = bytes 0..7
 * and x1 = bytes 8..15 as little-endian words, which is what
 * aes64es/aes64esm take: aes64esm(x0, x1) is the new x0 and aes64esm(x1,
 * x0) the new x1 after SubBytes, ShiftRows and MixColumns. A round is two
 * of those and two XORs with the round key, so AES-128 is 42 instructions
 * per block. Round keys are copied into locals before each kernel's block
 * loop so the compiler keeps what fits (all of AES-128's 22 words) in
 * registers; the key XOR after the last round is folded into whatever XOR
 * the mode does next (CTR keystream, XTS/OCB offsets, CBC chaining). CBC
 * decryption and XTS, whose chaining values crowd out key registers, take
 * two blocks per iteration so each key the compiler must reload serves
 * both. GCM is fused with clmul64's GHASH.
 *
 * rv32. The state is four 32-bit columns t0..t3, each the little-endian
 * load of four block bytes. aes32esmi(acc, x, bs) adds to acc the
 * MixColumns image of SubBytes of byte bs of x, rotated to row bs: column j
 * of the next round is the round key word with the four bytes ShiftRows
 * brings there (row r from column j + r) added in, i.e. four aes32esmi
 * starting from the round key. A round is 16 instructions and the key XOR
 * is free; the last round uses aes32esi (no MixColumns) starting from the
 * last round key. AES-128 is 4 + 160 instructions per block plus the
 * round-key loads, which rv32's 31 registers cannot hold across blocks.
 * Decryption uses the equivalent inverse cipher (FIPS-197 5.3.5) with
 * aes32dsmi / aes32dsi and InvShiftRows (row r from column j - r). Its
 * round keys are InvMixColumns of the encryption keys, computed with Zkne
 * and Zknd alone: aes32esi puts S(b) in place, aes32dsmi takes it back
 * through S^-1 and applies InvMixColumns, so four of each make the
 * InvMixColumns of a word. Key expansion (FIPS-197 5.2): SubWord(RotWord(w))
 * is four aes32esi of the word rotated by one byte.
 *
 * Every mode has its own loop (ECB, CBC, CFB, OFB, CTR with 128- and 32-bit
 * counters, XTS, OCB, CBC-MAC; rv64 also GCM); CCM, CMAC, SIV, GCM-SIV and
 * KW reach them through the modes' k_*() calls. Kernels are written once
 * per body and instantiated for 10, 12 and 14 rounds (ZKN_BY_ROUNDS) so
 * the round loops unroll with constant key indices.
 *
 * Counters. CTR needs the counter block in the little-endian state layout,
 * i.e. byte-reversed. The counter's last byte is the top byte of the last
 * state word, so within a run of blocks where that byte does not wrap, the
 * next counter block is that word plus 2^56 (rv64) or 2^24 (rv32): one add
 * per block. The full counter (native, big-endian value) is advanced and
 * byte-reversed again once per run of up to 256 blocks. Counters are
 * public, so branching on them leaks nothing.
 *
 * "zkne64"/"zkne32" are for cores with Zkne but not Zknd: every kernel that
 * only runs the cipher forward uses the hardware, and the decryption
 * direction (ECB/CBC decryption, XTS/OCB decryption, key unwrap) uses the
 * portable constant-time "ct" AES, whose schedule is written beside this
 * one in the same hwc_ks. `hwcrypt caps` shows it as its own back end.
 *
 * Constant time: no branch or address depends on key or data; the scalar
 * AES instructions are data-independent in time on cores with Zkt.
 */
#if defined(__riscv)

#include "getters.h"
#include "rv_scalar.h"
#if __riscv_xlen == 64
#include "clmul_core.h"
#endif

#define ZKN_MAX_ROUNDS 14
#define ZKN_MAX_WORDS (RV_BLOCK_WORDS * (ZKN_MAX_ROUNDS + 1))
/* Layout in hwc_ks: the first KiB is left to the ct schedule (zkne's
 * decryption); then encryption and decryption round keys. */
#define ZKN_ENC_OFFSET 1024
#define ZKN_DEC_OFFSET (ZKN_ENC_OFFSET + RV_WORD_BYTES * ZKN_MAX_WORDS)
#define ZKN_ROUNDS_OFFSET (ZKN_DEC_OFFSET + RV_WORD_BYTES * ZKN_MAX_WORDS)

_Static_assert(ZKN_ROUNDS_OFFSET < HWC_KS_BYTES, "the zkn schedule must fit in hwc_ks");
_Static_assert(ZKN_ENC_OFFSET % 64 == 0, "round keys must stay word aligned");
_Static_assert(ZKN_ENC_OFFSET >= 15 * 64 + 1, "the ct schedule must fit below the zkn one");

static inline const rv_word *enc_keys(const hwc_ks *ks) {
    return (const rv_word *)(const void *)(ks->bytes + ZKN_ENC_OFFSET);
}
static inline const rv_word *dec_keys(const hwc_ks *ks) {
    return (const rv_word *)(const void *)(ks->bytes + ZKN_DEC_OFFSET);
}
static inline unsigned rounds_of(const hwc_ks *ks) {
    return ks->bytes[ZKN_ROUNDS_OFFSET];
}

/* Run STMT with NR an integer constant: 10, 12 or 14 rounds. */
#define ZKN_BY_ROUNDS(ks, STMT)            \
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

/* Each core below defines: zknXX_expand_enc/_expand_dec, the block loops
 * (*_body), hwc_aes_ecb_enc_zknXX, ctr_kernel, the ocb_chain type and
 * ocb_body, WITH_CHAIN (the chaining value around a kernel) with
 * CHAIN_ARG(v) (how a body takes it), and OCB_CHAIN_LOAD/STORE. */
#if __riscv_xlen == 64

/* ------------------------------------------------------- key expansion */

/* aes64ks1i takes the round number as an immediate. */
static uint64_t ks1i(uint64_t w, unsigned rnum) {
    switch (rnum) {
    case 0: return rv_aes64ks1i(w, 0);
    case 1: return rv_aes64ks1i(w, 1);
    case 2: return rv_aes64ks1i(w, 2);
    case 3: return rv_aes64ks1i(w, 3);
    case 4: return rv_aes64ks1i(w, 4);
    case 5: return rv_aes64ks1i(w, 5);
    case 6: return rv_aes64ks1i(w, 6);
    case 7: return rv_aes64ks1i(w, 7);
    case 8: return rv_aes64ks1i(w, 8);
    case 9: return rv_aes64ks1i(w, 9);
    default: return rv_aes64ks1i(w, 10); /* SubWord only: AES-256's odd steps */
    }
}

/* FIPS-197 5.2 two words at a time. ks1i(k, r) is SubWord(RotWord(w)) ^ rcon
 * of the high word w of k, in both halves; ks2(t, k) turns the old pair
 * (w_i, w_i+1) into (w_i ^ t, w_i ^ w_i+1 ^ t) with t the high word of its
 * first operand, which is the schedule's running XOR. Only Zkne is used:
 * zkne64 expands with it too. */
static void zkn64_expand_enc(rv_word *rk, const uint8_t *key, size_t key_len) {
    uint64_t k[4];
    for (size_t i = 0; i < key_len / 8; i++)
        k[i] = hwc_load_le64(key + 8 * i);

    if (key_len == 16) {
        rk[0] = k[0];
        rk[1] = k[1];
        for (unsigned r = 0; r < 10; r++) {
            k[0] = rv_aes64ks2(ks1i(k[1], r), k[0]);
            k[1] = rv_aes64ks2(k[0], k[1]);
            rk[2 * r + 2] = k[0];
            rk[2 * r + 3] = k[1];
        }
    } else if (key_len == 24) {
        /* 52 words: 3 from the key, 8 steps of 6 (the last step's third pair
         * is past the end). */
        unsigned n = 0;
        rk[n++] = k[0];
        rk[n++] = k[1];
        rk[n++] = k[2];
        for (unsigned r = 0; r < 8; r++) {
            k[0] = rv_aes64ks2(ks1i(k[2], r), k[0]);
            k[1] = rv_aes64ks2(k[0], k[1]);
            k[2] = rv_aes64ks2(k[1], k[2]);
            rk[n++] = k[0];
            rk[n++] = k[1];
            if (n < 26)
                rk[n++] = k[2];
        }
    } else {
        /* 60 words: 4 from the key, 7 steps of 8 (the last one half used). */
        unsigned n = 0;
        for (unsigned i = 0; i < 4; i++)
            rk[n++] = k[i];
        for (unsigned r = 0; r < 7; r++) {
            k[0] = rv_aes64ks2(ks1i(k[3], r), k[0]);
            k[1] = rv_aes64ks2(k[0], k[1]);
            rk[n++] = k[0];
            rk[n++] = k[1];
            if (n == 30)
                break;
            k[2] = rv_aes64ks2(ks1i(k[1], 10), k[2]);
            k[3] = rv_aes64ks2(k[2], k[3]);
            rk[n++] = k[2];
            rk[n++] = k[3];
        }
    }
    hwc_wipe(k, sizeof k);
}

/* The equivalent inverse cipher's keys (FIPS-197 5.3.5): the encryption
 * keys in reverse order, the middle ones through InvMixColumns, because
 * aes64dsm applies InvMixColumns before the key XOR. */
static void zkn64_expand_dec(rv_word *dk, const rv_word *rk, unsigned nr) {
    dk[0] = rk[2 * nr];
    dk[1] = rk[2 * nr + 1];
    for (unsigned r = 1; r < nr; r++) {
        dk[2 * r] = rv_aes64im(rk[2 * (nr - r)]);
        dk[2 * r + 1] = rv_aes64im(rk[2 * (nr - r) + 1]);
    }
    dk[2 * nr] = rk[0];
    dk[2 * nr + 1] = rk[1];
}

/* -------------------------------------------------------- block rounds */

/* A kernel's copy of the round keys (locals: registers where they fit). */
#define LOAD_KEYS(k, src, nr)                       \
    uint64_t k[ZKN_MAX_WORDS];                      \
    _Pragma("GCC unroll 30")                        \
    for (unsigned i_ = 0; i_ < 2 * ((nr) + 1); i_++) \
        k[i_] = (src)[i_]

/* Rounds first..nr on a state that has had the rounds before `first`;
 * leaves the last round key un-added (callers fold it into their next
 * XOR). decrypt (a constant): the inverse rounds, with the
 * equivalent-inverse-cipher keys. */
RV_INLINE void aes_rounds_from(const uint64_t *k, unsigned first, unsigned nr, int decrypt, uint64_t *x0,
                               uint64_t *x1) {
    uint64_t a = *x0, b = *x1;
    _Pragma("GCC unroll 14")
    for (unsigned r = first; r < nr; r++) {
        uint64_t t = (decrypt ? rv_aes64dsm(a, b) : rv_aes64esm(a, b)) ^ k[2 * r];
        b = (decrypt ? rv_aes64dsm(b, a) : rv_aes64esm(b, a)) ^ k[2 * r + 1];
        a = t;
    }
    *x0 = decrypt ? rv_aes64ds(a, b) : rv_aes64es(a, b);
    *x1 = decrypt ? rv_aes64ds(b, a) : rv_aes64es(b, a);
}

/* Rounds 1..nr on a state that already has round key 0 added. */
#define enc_rounds(k, nr, x0, x1) aes_rounds_from((k), 1, (nr), 0, (x0), (x1))
#define dec_rounds(k, nr, x0, x1) aes_rounds_from((k), 1, (nr), 1, (x0), (x1))

/* One whole block: E(x) / D(x) with every round key. */
RV_INLINE void enc_block(const uint64_t *k, unsigned nr, uint64_t *x0, uint64_t *x1) {
    *x0 ^= k[0];
    *x1 ^= k[1];
    enc_rounds(k, nr, x0, x1);
    *x0 ^= k[2 * nr];
    *x1 ^= k[2 * nr + 1];
}

/* Short messages. For up to ZKN_FEW_BLOCKS - 1 blocks from aligned
 * buffers, the kernels below take a path that reads each round key from
 * the schedule where the round needs it (no local copy of the schedule, no
 * callee-saved registers to save) with the rounds unrolled: the setup of
 * the bulk loops costs more than the work for one or two blocks. */
#define ZKN_FEW_BLOCKS 4

RV_INLINE int zkn_few(size_t nblocks, const void *out, const void *in) {
    return nblocks - 1 < ZKN_FEW_BLOCKS - 1 && rv_aligned(out) && rv_aligned(in);
}

RV_INLINE void enc_block_from_schedule(const rv_word *rk, unsigned nr, uint64_t *x0, uint64_t *x1) {
    uint64_t a = *x0 ^ rk[0], b = *x1 ^ rk[1];
    _Pragma("GCC unroll 14")
    for (unsigned r = 1; r < nr; r++) {
        uint64_t t = rv_aes64esm(a, b) ^ rk[2 * r];
        b = rv_aes64esm(b, a) ^ rk[2 * r + 1];
        a = t;
    }
    *x0 = rv_aes64es(a, b) ^ rk[2 * nr];
    *x1 = rv_aes64es(b, a) ^ rk[2 * nr + 1];
}

/* A counter block as loaded (two little-endian words: w1's top byte is the
 * counter's last byte) steps by adding 2^56 as long as that byte does not
 * wrap; few-block paths require that (else they take the bulk path). */
#define ZKN_CTR_STEP ((uint64_t)1 << 56)
RV_INLINE int ctr_no_wrap(uint64_t w1, size_t nblocks) {
    return (w1 >> 56) + nblocks <= 255;
}

/* Keystream XOR of n few blocks from the counter words {w0, *w1}. */
RV_INLINE void ctr_few(const rv_word *rk, unsigned nr, uint64_t w0, uint64_t *w1, rv_word *out, const rv_word *in,
                       size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t x0 = w0, x1 = *w1;
        enc_block_from_schedule(rk, nr, &x0, &x1);
        const uint64_t c0 = x0 ^ in[2 * i], c1 = x1 ^ in[2 * i + 1];
        out[2 * i] = c0;
        out[2 * i + 1] = c1;
        *w1 += ZKN_CTR_STEP;
    }
}

/* Two independent blocks (a, b) through the rounds together: each round
 * key is read once for both, which matters when the kernel's other
 * chaining values leave too few registers for all the keys. */
RV_INLINE void aes_rounds2_from(const uint64_t *k, unsigned first, unsigned nr, int decrypt, uint64_t a[2],
                                uint64_t b[2]) {
    uint64_t a0 = a[0], a1 = a[1], b0 = b[0], b1 = b[1];
    _Pragma("GCC unroll 14")
    for (unsigned r = first; r < nr; r++) {
        uint64_t t = (decrypt ? rv_aes64dsm(a0, a1) : rv_aes64esm(a0, a1)) ^ k[2 * r];
        a1 = (decrypt ? rv_aes64dsm(a1, a0) : rv_aes64esm(a1, a0)) ^ k[2 * r + 1];
        a0 = t;
        t = (decrypt ? rv_aes64dsm(b0, b1) : rv_aes64esm(b0, b1)) ^ k[2 * r];
        b1 = (decrypt ? rv_aes64dsm(b1, b0) : rv_aes64esm(b1, b0)) ^ k[2 * r + 1];
        b0 = t;
    }
    a[0] = decrypt ? rv_aes64ds(a0, a1) : rv_aes64es(a0, a1);
    a[1] = decrypt ? rv_aes64ds(a1, a0) : rv_aes64es(a1, a0);
    b[0] = decrypt ? rv_aes64ds(b0, b1) : rv_aes64es(b0, b1);
    b[1] = decrypt ? rv_aes64ds(b1, b0) : rv_aes64es(b1, b0);
}

/* ------------------------------------------------------------------ ECB */

/* keys: the encryption schedule, or with decrypt (a constant) the
 * decryption one. */
RV_INLINE void ecb_body(const rv_word *keys, unsigned nr, int decrypt, rv_word *out, const rv_word *in, size_t n) {
    LOAD_KEYS(k, keys, nr);
    for (const rv_word *end = in + 2 * n; in != end; in += 2, out += 2) {
        uint64_t x0 = in[0] ^ k[0], x1 = in[1] ^ k[1];
        aes_rounds_from(k, 1, nr, decrypt, &x0, &x1);
        out[0] = x0 ^ k[2 * nr];
        out[1] = x1 ^ k[2 * nr + 1];
    }
}

__attribute__((noinline)) static void ecb_enc_bulk(const hwc_ks *ks, uint8_t *out, const uint8_t *in,
                                                   size_t nblocks) {
    ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ecb_body(enc_keys(ks), NR, 0, rv_out, rv_in, rv_n)));
}

RV_INLINE void ecb_enc_few(const rv_word *rk, unsigned nr, rv_word *out, const rv_word *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t x0 = in[2 * i], x1 = in[2 * i + 1];
        enc_block_from_schedule(rk, nr, &x0, &x1);
        out[2 * i] = x0;
        out[2 * i + 1] = x1;
    }
}

static void hwc_aes_ecb_enc_zkn64(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (zkn_few(nblocks, out, in)) {
        ZKN_BY_ROUNDS(ks, ecb_enc_few(enc_keys(ks), NR, (rv_word *)(void *)out, (const rv_word *)(const void *)in,
                                      nblocks));
        return;
    }
    ecb_enc_bulk(ks, out, in, nblocks);
}

/* ------------------------------------------------------------------ CBC */

/* Serial: each block's input is the previous ciphertext. */
RV_INLINE void cbc_enc_body(const rv_word *rk, unsigned nr, uint64_t iv[2], rv_word *out, const rv_word *in,
                            size_t n) {
    LOAD_KEYS(k, rk, nr);
    uint64_t c0 = iv[0], c1 = iv[1];
    for (const rv_word *end = in + 2 * n; in != end; in += 2, out += 2) {
        uint64_t x0 = in[0] ^ c0 ^ k[0], x1 = in[1] ^ c1 ^ k[1];
        enc_rounds(k, nr, &x0, &x1);
        c0 = x0 ^ k[2 * nr];
        c1 = x1 ^ k[2 * nr + 1];
        out[0] = c0;
        out[1] = c1;
    }
    iv[0] = c0;
    iv[1] = c1;
}

/* P_i = D(C_i) ^ C_{i-1}, one block at a time. When out and in are
 * different buffers, C_{i-1} is read again from the input instead of being
 * carried in registers (two loads instead of two moves and two registers
 * taken from the round keys). In place, each block's ciphertext is kept
 * before its plaintext overwrites it. (Two blocks per iteration through
 * dec_rounds2 measured no better.) */
RV_INLINE void cbc_dec_body(const rv_word *dk, unsigned nr, uint64_t iv[2], rv_word *out, const rv_word *in,
                            size_t n) {
    LOAD_KEYS(k, dk, nr);
    if (n == 0)
        return;
    const rv_word *end = in + 2 * n;
    if (out != in) {
        uint64_t x0 = in[0] ^ k[0], x1 = in[1] ^ k[1];
        dec_rounds(k, nr, &x0, &x1);
        out[0] = x0 ^ k[2 * nr] ^ iv[0];
        out[1] = x1 ^ k[2 * nr + 1] ^ iv[1];
        for (in += 2, out += 2; in != end; in += 2, out += 2) {
            x0 = in[0] ^ k[0];
            x1 = in[1] ^ k[1];
            dec_rounds(k, nr, &x0, &x1);
            out[0] = x0 ^ k[2 * nr] ^ in[-2];
            out[1] = x1 ^ k[2 * nr + 1] ^ in[-1];
        }
        iv[0] = end[-2];
        iv[1] = end[-1];
        return;
    }
    uint64_t p0 = iv[0], p1 = iv[1];
    for (; in != end; in += 2, out += 2) {
        const uint64_t c0 = in[0], c1 = in[1];
        uint64_t x0 = c0 ^ k[0], x1 = c1 ^ k[1];
        dec_rounds(k, nr, &x0, &x1);
        out[0] = x0 ^ k[2 * nr] ^ p0;
        out[1] = x1 ^ k[2 * nr + 1] ^ p1;
        p0 = c0;
        p1 = c1;
    }
    iv[0] = p0;
    iv[1] = p1;
}

/* Chaining value in and out of the caller's 16 bytes around a STREAM. */
#define WITH_CHAIN(chain, v, STMT)                    \
    do {                                              \
        uint64_t v[2];                                \
        rv_load_chain2((chain), &v[0], &v[1]);         \
        STMT;                                         \
        rv_store_chain2((chain), v[0], v[1]);          \
    } while (0)

/* ------------------------------------------------------------------ CFB */

/* C_i = P_i ^ E(C_{i-1}); iv holds C_{i-1}. */
RV_INLINE void cfb_enc_body(const rv_word *rk, unsigned nr, uint64_t iv[2], rv_word *out, const rv_word *in,
                            size_t n) {
    LOAD_KEYS(k, rk, nr);
    uint64_t c0 = iv[0], c1 = iv[1];
    for (const rv_word *end = in + 2 * n; in != end; in += 2, out += 2) {
        uint64_t x0 = c0 ^ k[0], x1 = c1 ^ k[1];
        enc_rounds(k, nr, &x0, &x1);
        c0 = x0 ^ k[2 * nr] ^ in[0];
        c1 = x1 ^ k[2 * nr + 1] ^ in[1];
        out[0] = c0;
        out[1] = c1;
    }
    iv[0] = c0;
    iv[1] = c1;
}

/* P_i = C_i ^ E(C_{i-1}): the cipher inputs are all known up front. */
RV_INLINE void cfb_dec_body(const rv_word *rk, unsigned nr, uint64_t iv[2], rv_word *out, const rv_word *in,
                            size_t n) {
    LOAD_KEYS(k, rk, nr);
    uint64_t c0 = iv[0], c1 = iv[1];
    for (const rv_word *end = in + 2 * n; in != end; in += 2, out += 2) {
        uint64_t x0 = c0 ^ k[0], x1 = c1 ^ k[1];
        enc_rounds(k, nr, &x0, &x1);
        c0 = in[0];
        c1 = in[1];
        out[0] = x0 ^ k[2 * nr] ^ c0;
        out[1] = x1 ^ k[2 * nr + 1] ^ c1;
    }
    iv[0] = c0;
    iv[1] = c1;
}

/* ------------------------------------------------------------------ OFB */

/* iv holds the last keystream block; the next is its encryption. */
RV_INLINE void ofb_body(const rv_word *rk, unsigned nr, uint64_t iv[2], rv_word *out, const rv_word *in,
                        size_t n) {
    LOAD_KEYS(k, rk, nr);
    uint64_t s0 = iv[0], s1 = iv[1];
    for (const rv_word *end = in + 2 * n; in != end; in += 2, out += 2) {
        enc_block(k, nr, &s0, &s1);
        out[0] = in[0] ^ s0;
        out[1] = in[1] ^ s1;
    }
    iv[0] = s0;
    iv[1] = s1;
}

/* ------------------------------------------------------------------ CTR */

/* Keystream XOR for n blocks inside one run: the counter block is
 * {x0_keyed ^ k0, *x1} and *x1 advances by 2^56 per block (the last byte
 * does not wrap inside a run). Inside a run only byte 15 of the counter
 * changes, and after ShiftRows it lands in column 0 alone: the high half
 * of the state after round 1 (columns 2 and 3) is the same for every
 * block of the run, computed once here, so round 1 costs one aes64esm and
 * one XOR per block instead of two of each. Two blocks at a time, so each
 * round key the compiler has to reload serves both. */
RV_INLINE void ctr_blocks(const uint64_t *k, unsigned nr, uint64_t x0_keyed, uint64_t *x1_io, rv_word *out,
                          const rv_word *in, size_t n) {
    /* Opaque to the optimizer: kept in a register (or one load) instead of
     * being rebuilt from an immediate (two instructions) for every block. */
    uint64_t step = (uint64_t)1 << 56, step2 = (uint64_t)2 << 56;
    __asm__("" : "+r"(step), "+r"(step2));
    uint64_t x1 = *x1_io;
    const uint64_t high1 = rv_aes64esm(x1 ^ k[1], x0_keyed) ^ k[3]; /* round 1's high half: per run */
    for (; n >= 2; n -= 2, in += 4, out += 4) {
        uint64_t a[2] = {rv_aes64esm(x0_keyed, x1 ^ k[1]) ^ k[2], high1};
        uint64_t b[2] = {rv_aes64esm(x0_keyed, (x1 + step) ^ k[1]) ^ k[2], high1};
        aes_rounds2_from(k, 2, nr, 0, a, b);
        out[0] = a[0] ^ k[2 * nr] ^ in[0];
        out[1] = a[1] ^ k[2 * nr + 1] ^ in[1];
        out[2] = b[0] ^ k[2 * nr] ^ in[2];
        out[3] = b[1] ^ k[2 * nr + 1] ^ in[3];
        x1 += step2;
    }
    if (n) {
        uint64_t a = rv_aes64esm(x0_keyed, x1 ^ k[1]) ^ k[2], b = high1;
        aes_rounds_from(k, 2, nr, 0, &a, &b);
        out[0] = a ^ k[2 * nr] ^ in[0];
        out[1] = b ^ k[2 * nr + 1] ^ in[1];
        x1 += step;
    }
    *x1_io = x1;
}

/* Keystream XOR for n blocks starting at counter *c. Blocks go in runs
 * that end where the counter's last byte wraps; inside a run the next
 * counter block is the previous one plus 2^56 in the state layout. */
RV_INLINE void ctr_body(const rv_word *rk, unsigned nr, ctr_value *c, int wide, rv_word *out,
                        const rv_word *in, size_t n) {
    LOAD_KEYS(k, rk, nr);
    while (n != 0) {
        size_t run = 256 - (size_t)(c->lo & 0xFF);
        if (run > n)
            run = n;
        const uint64_t x0_keyed = rv_bswap_base(c->hi) ^ k[0]; /* constant within a run */
        uint64_t x1 = rv_bswap_base(c->lo);
        ctr_blocks(k, nr, x0_keyed, &x1, out, in, run);
        in += 2 * run;
        out += 2 * run;
        ctr_advance(c, run, wide);
        n -= run;
    }
}

__attribute__((noinline)) static void ctr_bulk(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                               size_t nblocks, int wide) {
    ctr_value c = {hwc_load_be64(ctr), hwc_load_be64(ctr + 8)};
    ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ctr_body(enc_keys(ks), NR, &c, wide, rv_out, rv_in, rv_n)));
    hwc_store_be64(ctr, c.hi);
    hwc_store_be64(ctr + 8, c.lo);
}

/* A few blocks whose counter's last byte does not wrap (then the 128- and
 * 32-bit counters agree): no byte swap at all. */
static void ctr_kernel(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                       int wide) {
    if (zkn_few(nblocks, out, in) && rv_aligned(ctr)) {
        uint64_t w0 = ((const rv_word *)(const void *)ctr)[0], w1 = ((const rv_word *)(const void *)ctr)[1];
        if (ctr_no_wrap(w1, nblocks)) {
            ZKN_BY_ROUNDS(ks, ctr_few(enc_keys(ks), NR, w0, &w1, (rv_word *)(void *)out,
                                      (const rv_word *)(const void *)in, nblocks));
            ((rv_word *)(void *)ctr)[1] = w1;
            return;
        }
    }
    ctr_bulk(ks, ctr, out, in, nblocks, wide);
}

/* ------------------------------------------------------------------ GCM */

/* Fused GCM (the gcm_enc/gcm_dec kernels): CTR32 and GHASH over the
 * ciphertext in one pass, with clmul64's key (clmul_core.h). The blocks
 * go in phases of up to 2 * CLMUL_POWERS: the keystream XOR (two blocks
 * at a time, ctr_blocks) and then aggregated GHASH (one reduction per
 * CLMUL_POWERS blocks) of the phase's
 * ciphertext with a single reduction, read back from the output while it is
 * still in L1 (encryption), or GHASH first and then the keystream
 * (decryption, so out == in works). Keeping the two halves apart lets each
 * use all the registers: the round keys in one, the Karatsuba sums in the
 * other (stitching them block by block measured worse: the keys then
 * spill). A group ends early where the counter's last byte wraps (once in
 * 256 blocks). One block is one group: the same code serves short messages,
 * with no call to the separate CTR and GHASH kernels. */
typedef struct gcm_chain {
    ctr_value ctr;  /* native big-endian counter */
    uint64_t s[2];  /* GHASH state, reflected: {s1, s0} */
} gcm_chain;

/* Blocks per keystream phase: two GHASH groups, so the round keys are
 * loaded once per 32 blocks. */
#define GCM_PHASE_BLOCKS (2 * CLMUL_POWERS)

/* The two phases are separate functions (not inlined) so that each gets
 * the whole register file: the round keys in one, the Karatsuba sums in
 * the other. Inlined into one loop, the compiler spilled both. */
__attribute__((noinline)) static void gcm_keystream_phase(const hwc_ks *ks, uint64_t x0, uint64_t *x1, rv_word *out,
                                                          const rv_word *in, size_t n) {
    ZKN_BY_ROUNDS(ks, {
        LOAD_KEYS(k, enc_keys(ks), NR);
        ctr_blocks(k, NR, x0 ^ k[0], x1, out, in, n);
    });
}

__attribute__((noinline)) static void gcm_ghash_phase(const clmul_key *hk, int rev8, uint64_t s[2],
                                                      const rv_word *in, size_t n) {
    if (rev8)
        clmul_ghash_words(hk, 1, &s[0], &s[1], in, n);
    else
        clmul_ghash_words(hk, 0, &s[0], &s[1], in, n);
}

/* s = {s1, s0}, the reflected GHASH state. */
RV_INLINE void gcm_body(const hwc_ks *ks, const clmul_key *hk, int rev8, int decrypt, gcm_chain *g, rv_word *out,
                        const rv_word *in, size_t n) {
    while (n != 0) {
        size_t run = 256 - (size_t)(g->ctr.lo & 0xFF);
        if (run > n)
            run = n;
        const uint64_t x0 = rv_bswap(g->ctr.hi, rev8);
        uint64_t x1 = rv_bswap(g->ctr.lo, rev8);
        ctr_advance(&g->ctr, run, 0);
        n -= run;
        while (run != 0) {
            size_t m = run < GCM_PHASE_BLOCKS ? run : GCM_PHASE_BLOCKS;
            if (decrypt)
                gcm_ghash_phase(hk, rev8, g->s, in, m);
            gcm_keystream_phase(ks, x0, &x1, out, in, m);
            if (!decrypt)
                gcm_ghash_phase(hk, rev8, g->s, out, m);
            in += 2 * m;
            out += 2 * m;
            run -= m;
        }
    }
}

/* The counter and the GHASH state come in as 16 aligned bytes (the mode's),
 * loaded as two words and byte-reversed with rev8 when the GHASH key says
 * the core has it. */
RV_INLINE size_t gcm_kernel(const hwc_ks *ks, const clmul_key *hk, int rev8, int decrypt, uint8_t ctr[16],
                            uint8_t state[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    uint64_t w0, w1;
    gcm_chain g;
    rv_load_chain2(ctr, &w0, &w1);
    g.ctr.hi = rv_bswap(w0, rev8);
    g.ctr.lo = rv_bswap(w1, rev8);
    rv_load_chain2(state, &w0, &w1);
    g.s[0] = rv_bswap(w0, rev8);
    g.s[1] = rv_bswap(w1, rev8);
    RV_STREAM(out, in, nblocks, gcm_body(ks, hk, rev8, decrypt, &g, rv_out, rv_in, rv_n));
    rv_store_chain2(ctr, rv_bswap(g.ctr.hi, rev8), rv_bswap(g.ctr.lo, rev8));
    rv_store_chain2(state, rv_bswap(g.s[0], rev8), rv_bswap(g.s[1], rev8));
    return nblocks;
}

/* The bulk path, one function per flavour (not inlined: its register
 * saves and stack buffer are not paid by short messages). */
#define GCM_BULK(name, rev8, decrypt)                                                                    \
    __attribute__((noinline)) static size_t name(const hwc_ks *ks, const clmul_key *hk, uint8_t ctr[16], \
                                                 uint8_t state[16], uint8_t *out, const uint8_t *in,    \
                                                 size_t nblocks) {                                       \
        return gcm_kernel(ks, hk, rev8, decrypt, ctr, state, out, in, nblocks);                          \
    }
GCM_BULK(gcm_enc_bulk_rev8, 1, 0)
GCM_BULK(gcm_enc_bulk_base, 0, 0)
GCM_BULK(gcm_dec_bulk_rev8, 1, 1)
GCM_BULK(gcm_dec_bulk_base, 0, 1)
#undef GCM_BULK

/* A few blocks, aligned, the counter's last byte not wrapping: the
 * keystream from the counter words as loaded (no byte swap), one GHASH
 * group. */
RV_INLINE void gcm_few(const hwc_ks *ks, const clmul_key *hk, int rev8, int decrypt, uint8_t ctr[16],
                       uint8_t state[16], rv_word *out, const rv_word *in, size_t n, uint64_t w0, uint64_t w1) {
    uint64_t s0, s1;
    rv_load_chain2(state, &s1, &s0);
    s1 = rv_bswap(s1, rev8);
    s0 = rv_bswap(s0, rev8);
    if (decrypt)
        clmul_ghash_group(hk, rev8, &s1, &s0, in, n);
    ZKN_BY_ROUNDS(ks, ctr_few(enc_keys(ks), NR, w0, &w1, out, in, n));
    if (!decrypt)
        clmul_ghash_group(hk, rev8, &s1, &s0, out, n);
    ((rv_word *)(void *)ctr)[1] = w1;
    rv_store_chain2(state, rv_bswap(s1, rev8), rv_bswap(s0, rev8));
}

RV_INLINE size_t gcm_entry(const hwc_ks *ks, const hwc_ghash_key *hkey, int decrypt, uint8_t ctr[16],
                           uint8_t state[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const clmul_key *hk = clmul_key_view(hkey);
    if (zkn_few(nblocks, out, in) && rv_aligned(ctr)) {
        const uint64_t w0 = ((const rv_word *)(const void *)ctr)[0], w1 = ((const rv_word *)(const void *)ctr)[1];
        if (ctr_no_wrap(w1, nblocks)) {
            rv_word *o = (rv_word *)(void *)out;
            const rv_word *i = (const rv_word *)(const void *)in;
            if (hk->rev8)
                gcm_few(ks, hk, 1, decrypt, ctr, state, o, i, nblocks, w0, w1);
            else
                gcm_few(ks, hk, 0, decrypt, ctr, state, o, i, nblocks, w0, w1);
            return nblocks;
        }
    }
    if (decrypt)
        return hk->rev8 ? gcm_dec_bulk_rev8(ks, hk, ctr, state, out, in, nblocks)
                        : gcm_dec_bulk_base(ks, hk, ctr, state, out, in, nblocks);
    return hk->rev8 ? gcm_enc_bulk_rev8(ks, hk, ctr, state, out, in, nblocks)
                    : gcm_enc_bulk_base(ks, hk, ctr, state, out, in, nblocks);
}

static size_t hwc_aes_gcm_enc_zkn64(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16],
                                    uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    return gcm_entry(ks, hk, 0, ctr, ghash_state, out, in, nblocks);
}

static size_t hwc_aes_gcm_dec_zkn64(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16],
                                    uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    return gcm_entry(ks, hk, 1, ctr, ghash_state, out, in, nblocks);
}

/* ------------------------------------------------------------------ XTS */

/* T *= alpha in IEEE 1619 order: the tweak is a little-endian 128-bit
 * number (t0 low word) shifted left, x^128 folding back as 0x87. Masked,
 * not branched: the tweak is secret. */
RV_INLINE void xts_mul_alpha(uint64_t *t0, uint64_t *t1) {
    uint64_t fold = (uint64_t)((int64_t)*t1 >> 63) & 0x87;
    *t1 = (*t1 << 1) | (*t0 >> 63);
    *t0 = (*t0 << 1) ^ fold;
}

/* Two blocks at a time: the tweak and its doubling take registers. */
RV_INLINE void xts_body(const rv_word *keys, unsigned nr, int decrypt, uint64_t tw[2], rv_word *out,
                        const rv_word *in, size_t n) {
    LOAD_KEYS(k, keys, nr);
    uint64_t t0 = tw[0], t1 = tw[1];
    for (const rv_word *end = in + 2 * (n & ~(size_t)1); in != end; in += 4, out += 4) {
        uint64_t u0 = t0, u1 = t1;
        xts_mul_alpha(&u0, &u1);
        uint64_t a[2] = {in[0] ^ t0 ^ k[0], in[1] ^ t1 ^ k[1]}, b[2] = {in[2] ^ u0 ^ k[0], in[3] ^ u1 ^ k[1]};
        aes_rounds2_from(k, 1, nr, decrypt, a, b);
        out[0] = a[0] ^ k[2 * nr] ^ t0;
        out[1] = a[1] ^ k[2 * nr + 1] ^ t1;
        out[2] = b[0] ^ k[2 * nr] ^ u0;
        out[3] = b[1] ^ k[2 * nr + 1] ^ u1;
        t0 = u0;
        t1 = u1;
        xts_mul_alpha(&t0, &t1);
    }
    if (n & 1) {
        uint64_t x0 = in[0] ^ t0 ^ k[0], x1 = in[1] ^ t1 ^ k[1];
        aes_rounds_from(k, 1, nr, decrypt, &x0, &x1);
        out[0] = x0 ^ k[2 * nr] ^ t0;
        out[1] = x1 ^ k[2 * nr + 1] ^ t1;
        xts_mul_alpha(&t0, &t1);
    }
    tw[0] = t0;
    tw[1] = t1;
}

/* -------------------------------------------------------------- CBC-MAC */

RV_INLINE void cbc_mac_body(const rv_word *rk, unsigned nr, uint64_t mac[2], const rv_word *in, size_t n) {
    LOAD_KEYS(k, rk, nr);
    uint64_t m0 = mac[0], m1 = mac[1];
    for (const rv_word *end = in + 2 * n; in != end; in += 2) {
        m0 ^= in[0];
        m1 ^= in[1];
        enc_block(k, nr, &m0, &m1);
    }
    mac[0] = m0;
    mac[1] = m1;
}

/* ----------------------------------------------------------------- OCB3 */

/* first + ntz(v), v != 0, at most 63 (the L table's last entry). */
RV_INLINE unsigned ocb_ntz_from(unsigned first, uint64_t v) {
    unsigned n = first;
    while ((v & 1) == 0 && n < 63) {
        v >>= 1;
        n++;
    }
    return n;
}

typedef struct ocb_chain {
    uint64_t index;        /* index of the next block (1-based) */
    uint64_t offset[2];
    uint64_t checksum[2];
} ocb_chain;

/* Offset_i = Offset_{i-1} ^ L[ntz(i)]; odd indices (half of them) take L_0. */
RV_INLINE void ocb_next_offset(const rv_word *L, uint64_t index, uint64_t *o0, uint64_t *o1) {
    unsigned z = (index & 1) ? 0 : rv_ntz64(index);
    *o0 ^= L[2 * z];
    *o1 ^= L[2 * z + 1];
}

/* One block: encrypt: C_i = Offset_i ^ E(P_i ^ Offset_i); decrypt with D.
 * The checksum sums the plaintext either way. The offset is kept as
 * Offset ^ K_0 (the XOR with L keeps that form), so the cipher input costs
 * two XORs, and the output XOR uses last = K_0 ^ K_last. */
RV_INLINE void ocb_block(const uint64_t *k, unsigned nr, int decrypt, uint64_t last0, uint64_t last1,
                         uint64_t o0, uint64_t o1, uint64_t *s0, uint64_t *s1, rv_word *out, const rv_word *in) {
    const uint64_t p0 = in[0], p1 = in[1];
    uint64_t x0 = p0 ^ o0, x1 = p1 ^ o1;
    if (!decrypt) { /* the plaintext into the checksum now, not held through the rounds */
        *s0 ^= p0;
        *s1 ^= p1;
    }
    aes_rounds_from(k, 1, nr, decrypt, &x0, &x1);
    x0 ^= o0 ^ last0;
    x1 ^= o1 ^ last1;
    if (decrypt) {
        *s0 ^= x0;
        *s1 ^= x1;
    }
    out[0] = x0;
    out[1] = x1;
}

/* Two blocks whose offsets are Offset ^ La and Offset ^ La ^ Lb; the
 * offset moves on to the second. */
RV_INLINE void ocb_pair(const uint64_t *k, unsigned nr, int decrypt, uint64_t last0, uint64_t last1,
                        const rv_word *la, const rv_word *lb, uint64_t *o0, uint64_t *o1, uint64_t *s0,
                        uint64_t *s1, rv_word *out, const rv_word *in) {
    /* No loads hoisted above this point: across the unrolled pairs the
     * compiler would start the next pair's loads early and spill them. */
    __asm__ volatile("" ::: "memory");
    const uint64_t oa0 = *o0 ^ la[0], oa1 = *o1 ^ la[1];
    const uint64_t ob0 = oa0 ^ lb[0], ob1 = oa1 ^ lb[1];
    uint64_t a[2] = {in[0] ^ oa0, in[1] ^ oa1}, b[2] = {in[2] ^ ob0, in[3] ^ ob1};
    if (!decrypt) {
        *s0 ^= in[0] ^ in[2];
        *s1 ^= in[1] ^ in[3];
    }
    aes_rounds2_from(k, 1, nr, decrypt, a, b);
    a[0] ^= oa0 ^ last0;
    a[1] ^= oa1 ^ last1;
    b[0] ^= ob0 ^ last0;
    b[1] ^= ob1 ^ last1;
    if (decrypt) {
        *s0 ^= a[0] ^ b[0];
        *s1 ^= a[1] ^ b[1];
    }
    out[0] = a[0];
    out[1] = a[1];
    out[2] = b[0];
    out[3] = b[1];
    *o0 = ob0;
    *o1 = ob1;
}

/* Blocks i = 8m+1 .. 8m+8 take L[ntz(i)] = L0, L1, L0, L2, L0, L1, L0 and
 * then L[ntz(8m+8)] (3 or more, the one index to compute): after single
 * blocks up to such a boundary, the loop runs over groups of eight with
 * constant table indices. */
RV_INLINE void ocb_body(const rv_word *keys, unsigned nr, int decrypt, const rv_word *L, ocb_chain *st,
                        rv_word *out, const rv_word *in, size_t n) {
    LOAD_KEYS(k, keys, nr);
    const uint64_t last0 = k[0] ^ k[2 * nr], last1 = k[1] ^ k[2 * nr + 1];
    uint64_t o0 = st->offset[0] ^ k[0], o1 = st->offset[1] ^ k[1];
    uint64_t s0 = st->checksum[0], s1 = st->checksum[1];
    uint64_t index = st->index;
    for (; n != 0 && (index & 7) != 1; n--, in += 2, out += 2, index++) {
        ocb_next_offset(L, index, &o0, &o1);
        ocb_block(k, nr, decrypt, last0, last1, o0, o1, &s0, &s1, out, in);
    }
    for (; n >= 8; n -= 8, in += 16, out += 16, index += 8) {
        static const unsigned char pattern[7] = {0, 1, 0, 2, 0, 1, 0};
        _Pragma("GCC unroll 8")
        for (unsigned j = 0; j < 8; j++) {
            unsigned z = j < 7 ? pattern[j] : ocb_ntz_from(3, (index + 7) >> 3); /* index + 7 = 8m + 8 */
            const rv_word *l = L + 2 * z;
            o0 ^= l[0];
            o1 ^= l[1];
            ocb_block(k, nr, decrypt, last0, last1, o0, o1, &s0, &s1, out + 2 * j, in + 2 * j);
            __asm__ volatile("" ::: "memory"); /* keep the next block's loads below: no spills */
        }
    }
    for (; n != 0; n--, in += 2, out += 2, index++) {
        ocb_next_offset(L, index, &o0, &o1);
        ocb_block(k, nr, decrypt, last0, last1, o0, o1, &s0, &s1, out, in);
    }
    st->index = index;
    st->offset[0] = o0 ^ k[0];
    st->offset[1] = o1 ^ k[1];
    st->checksum[0] = s0;
    st->checksum[1] = s1;
}

#define CHAIN_ARG(v) (v)
#define OCB_CHAIN_LOAD(st, first_, off_, sum_)                  \
    ocb_chain st = {.index = (first_)};                         \
    rv_load_chain2((off_), &st.offset[0], &st.offset[1]);       \
    rv_load_chain2((sum_), &st.checksum[0], &st.checksum[1])
#define OCB_CHAIN_STORE(st, off_, sum_)                          \
    rv_store_chain2((off_), st.offset[0], st.offset[1]);        \
    rv_store_chain2((sum_), st.checksum[0], st.checksum[1])

#else /* rv32 */

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

/* -------------------------------------------------------- block rounds */

typedef struct aes_state {
    uint32_t t0, t1, t2, t3;
} aes_state;

/* One byte-select step of a round (bs a literal): decrypt and last (the
 * round without (Inv)MixColumns) are constants of the instantiation. */
#define AES32_STEP(bs)                                                                              \
    RV_INLINE uint32_t aes32_step_##bs(int decrypt, int last, uint32_t acc, uint32_t x) {          \
        if (decrypt)                                                                                \
            return last ? rv_aes32dsi(acc, x, bs) : rv_aes32dsmi(acc, x, bs);                       \
        return last ? rv_aes32esi(acc, x, bs) : rv_aes32esmi(acc, x, bs);                           \
    }
AES32_STEP(0)
AES32_STEP(1)
AES32_STEP(2)
AES32_STEP(3)
#undef AES32_STEP

/* Column j of a round: key word, then row r from column j + r (ShiftRows)
 * or from column j - r (InvShiftRows), the callers' operand order. */
#define AES32_COL(dec, last, kw, a, b, c, d)                                                        \
    aes32_step_3(dec, last, aes32_step_2(dec, last, aes32_step_1(dec, last, aes32_step_0(dec, last, (kw), (a)), (b)), \
                                         (c)),                                                      \
                 (d))

RV_INLINE aes_state aes32_round(const rv_word *kr, int decrypt, int last, aes_state s) {
    aes_state u;
    if (decrypt) {
        u.t0 = AES32_COL(1, last, kr[0], s.t0, s.t3, s.t2, s.t1);
        u.t1 = AES32_COL(1, last, kr[1], s.t1, s.t0, s.t3, s.t2);
        u.t2 = AES32_COL(1, last, kr[2], s.t2, s.t1, s.t0, s.t3);
        u.t3 = AES32_COL(1, last, kr[3], s.t3, s.t2, s.t1, s.t0);
    } else {
        u.t0 = AES32_COL(0, last, kr[0], s.t0, s.t1, s.t2, s.t3);
        u.t1 = AES32_COL(0, last, kr[1], s.t1, s.t2, s.t3, s.t0);
        u.t2 = AES32_COL(0, last, kr[2], s.t2, s.t3, s.t0, s.t1);
        u.t3 = AES32_COL(0, last, kr[3], s.t3, s.t0, s.t1, s.t2);
    }
    return u;
}

/* Rounds 1..nr on a state that already has round key 0 added, the last
 * round key included; decrypt (a constant): the equivalent inverse cipher. */
RV_INLINE aes_state aes_rounds(const rv_word *k, unsigned nr, int decrypt, aes_state s) {
    _Pragma("GCC unroll 14")
    for (unsigned r = 1; r < nr; r++)
        s = aes32_round(k + 4 * r, decrypt, 0, s);
    return aes32_round(k + 4 * nr, decrypt, 1, s);
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

/* E(x), or D(x) with decrypt (a constant), of one whole block. */
RV_INLINE aes_state aes_block(const rv_word *k, unsigned nr, int decrypt, aes_state x) {
    return aes_rounds(k, nr, decrypt, xor_state(x, load_state(k)));
}
#define enc_block(k, nr, x) aes_block((k), (nr), 0, (x))
#define dec_block(k, nr, x) aes_block((k), (nr), 1, (x))

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
    uint32_t k[ZKN_MAX_WORDS];                    \
    _Pragma("GCC unroll 60")                        \
    for (unsigned i_ = 0; i_ < 4 * ((nr) + 1); i_++) \
        k[i_] = (src)[i_]

/* ------------------------------------------------------------------ ECB */

/* keys: the encryption schedule, or with decrypt (a constant) the
 * decryption one. */
RV_INLINE void ecb_body(const rv_word *keys, unsigned nr, int decrypt, rv_word *out, const rv_word *in, size_t n) {
    LOCAL_KEYS(k, keys, nr);
    for (const rv_word *end = in + 4 * n; in != end; in += 4, out += 4)
        store_state(out, aes_block(k, nr, decrypt, load_state(in)));
}

static void hwc_aes_ecb_enc_zkn32(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ecb_body(enc_keys(ks), NR, 0, rv_out, rv_in, rv_n)));
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
            const aes_state s = aes_rounds(k, nr, 0, (aes_state){w0, w1, w2, w3 ^ k[3]});
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
    ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ctr_body(enc_keys(ks), NR, &c, wide, rv_out, rv_in, rv_n)));
    hwc_store_be64(ctr, c.hi);
    hwc_store_be64(ctr + 8, c.lo);
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
        const aes_state y = aes_block(k, nr, decrypt, x);
        store_state(out, xor_state(y, t));
        t = xts_mul_alpha(t);
    }
    *tw = t;
}

/* -------------------------------------------------------------- CBC-MAC */

RV_INLINE void cbc_mac_body(const rv_word *rk, unsigned nr, aes_state *mac, const rv_word *in, size_t n) {
    LOCAL_KEYS(k, rk, nr);
    aes_state m = *mac;
    for (const rv_word *end = in + 4 * n; in != end; in += 4)
        m = enc_block(k, nr, xor_state(m, load_state(in)));
    *mac = m;
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
        const aes_state r = xor_state(aes_block(k, nr, decrypt, x), o);
        sum = xor_state(sum, decrypt ? r : p);
        store_state(out, r);
    }
    st->index = index;
    st->offset = o;
    st->checksum = sum;
}

#define CHAIN_ARG(v) (&(v))
#define OCB_CHAIN_LOAD(st, first_, off_, sum_) \
    ocb_chain st = {(first_), load_chain(off_), load_chain(sum_)}
#define OCB_CHAIN_STORE(st, off_, sum_) \
    store_chain((off_), st.offset);     \
    store_chain((sum_), st.checksum)

#endif /* __riscv_xlen */

/* ------------------------------------------------------------ key setup */

static void zkn_write_schedule(hwc_ks *ks, const uint8_t *key, size_t key_len) {
    RV_XNAME(zkn, _expand_enc)((rv_word *)(void *)(ks->bytes + ZKN_ENC_OFFSET), key, key_len);
    ks->bytes[ZKN_ROUNDS_OFFSET] = (uint8_t)(key_len / 4 + 6);
}

static void RV_XNAME(hwc_aes_set_key_zkn, )(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    zkn_write_schedule(ks, key, key_len);
    if (want_dec)
        RV_XNAME(zkn, _expand_dec)((rv_word *)(void *)(ks->bytes + ZKN_DEC_OFFSET), enc_keys(ks), rounds_of(ks));
}

/* zkne: the decryption direction is the portable AES, keyed here too. */
static void RV_XNAME(hwc_aes_set_key_zkne, )(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    if (want_dec)
        hwc_aes_ct_get()->set_key(ks, key, key_len, 1); /* writes below ZKN_ENC_OFFSET only */
    zkn_write_schedule(ks, key, key_len);
}

/* ------------------------------------------------- mode entry points */

static void RV_XNAME(hwc_aes_ecb_dec_zkn, )(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ecb_body(dec_keys(ks), NR, 1, rv_out, rv_in, rv_n)));
}

/* zkne's decryption: the portable AES on its own schedule. */
static void RV_XNAME(hwc_aes_ecb_dec_zkne, _ct)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    hwc_aes_ct_get()->ecb_dec(ks, out, in, nblocks);
}

/* A kernel whose chaining value (IV, tweak, MAC) comes in and goes out
 * through the caller's 16 bytes. */
#define CHAINED_ENTRY(name, keys, BODY_CALL)                                                        \
    static void RV_XNAME(hwc_aes_##name##_zkn, )(const hwc_ks *ks, uint8_t chain[16], uint8_t *out,  \
                                                 const uint8_t *in, size_t nblocks) {               \
        WITH_CHAIN(chain, v, ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, BODY_CALL)));           \
    }
CHAINED_ENTRY(cbc_enc, enc, cbc_enc_body(enc_keys(ks), NR, CHAIN_ARG(v), rv_out, rv_in, rv_n))
CHAINED_ENTRY(cbc_dec, dec, cbc_dec_body(dec_keys(ks), NR, CHAIN_ARG(v), rv_out, rv_in, rv_n))
CHAINED_ENTRY(cfb_enc, enc, cfb_enc_body(enc_keys(ks), NR, CHAIN_ARG(v), rv_out, rv_in, rv_n))
CHAINED_ENTRY(cfb_dec, enc, cfb_dec_body(enc_keys(ks), NR, CHAIN_ARG(v), rv_out, rv_in, rv_n))
CHAINED_ENTRY(ofb, enc, ofb_body(enc_keys(ks), NR, CHAIN_ARG(v), rv_out, rv_in, rv_n))
CHAINED_ENTRY(xts_enc, enc, xts_body(enc_keys(ks), NR, 0, CHAIN_ARG(v), rv_out, rv_in, rv_n))
CHAINED_ENTRY(xts_dec, dec, xts_body(dec_keys(ks), NR, 1, CHAIN_ARG(v), rv_out, rv_in, rv_n))
#undef CHAINED_ENTRY

static void RV_XNAME(hwc_aes_cbc_mac_zkn, )(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    WITH_CHAIN(mac, m,
               ZKN_BY_ROUNDS(ks, RV_STREAM_IN(in, nblocks, cbc_mac_body(enc_keys(ks), NR, CHAIN_ARG(m), rv_in, rv_n))));
}

static void RV_XNAME(hwc_aes_ctr128_zkn, )(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                          size_t nblocks) {
    ctr_kernel(ks, ctr, out, in, nblocks, 1);
}

static void RV_XNAME(hwc_aes_ctr32_zkn, )(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    ctr_kernel(ks, ctr, out, in, nblocks, 0);
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
    OCB_CHAIN_LOAD(st, first_index, offset, checksum);
    if (decrypt) {
        ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ocb_body(dec_keys(ks), NR, 1, lw, &st, rv_out, rv_in, rv_n)));
    } else {
        ZKN_BY_ROUNDS(ks, RV_STREAM(out, in, nblocks, ocb_body(enc_keys(ks), NR, 0, lw, &st, rv_out, rv_in, rv_n)));
    }
    OCB_CHAIN_STORE(st, offset, checksum);
}

static const hwc_block_impl aes_zkn_impl, aes_zkne_impl;

static void RV_XNAME(hwc_aes_ocb_enc_zkn, )(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                           uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
                                           const uint8_t *in, size_t nblocks) {
    ocb_kernel(&aes_zkn_impl, ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static void RV_XNAME(hwc_aes_ocb_dec_zkn, )(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                           uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
                                           const uint8_t *in, size_t nblocks) {
    ocb_kernel(&aes_zkn_impl, ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* zkne's OCB encryption (its fallback for a misaligned L table must use
 * zkne's own ECB, so it is a separate entry point). */
static void RV_XNAME(hwc_aes_ocb_enc_zkne, )(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                            uint8_t offset[16], uint8_t checksum[16], uint8_t *out,
                                            const uint8_t *in, size_t nblocks) {
    ocb_kernel(&aes_zkne_impl, ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

/* ---------------------------------------------------------------- tables */

/* Fused GCM: rv64 only (clmul64's key layout); rv32 runs CTR32 and clmul32. */
#if __riscv_xlen == 64
#define ZKN_GCM .gcm_enc = hwc_aes_gcm_enc_zkn64, .gcm_dec = hwc_aes_gcm_dec_zkn64,
#else
#define ZKN_GCM
#endif

static const hwc_block_impl aes_zkn_impl = {
    .name = "zkn" RV_XLEN_STR,
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_ZKNE | HWC_CAP_ZKND,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "clmul" RV_XLEN_STR,
    .usable = NULL,
    .set_key = RV_XNAME(hwc_aes_set_key_zkn, ),
    .ecb_enc = RV_XNAME(hwc_aes_ecb_enc_zkn, ),
    .ecb_dec = RV_XNAME(hwc_aes_ecb_dec_zkn, ),
    .cbc_enc = RV_XNAME(hwc_aes_cbc_enc_zkn, ),
    .cbc_dec = RV_XNAME(hwc_aes_cbc_dec_zkn, ),
    .cfb_enc = RV_XNAME(hwc_aes_cfb_enc_zkn, ),
    .cfb_dec = RV_XNAME(hwc_aes_cfb_dec_zkn, ),
    .ofb = RV_XNAME(hwc_aes_ofb_zkn, ),
    .ctr128 = RV_XNAME(hwc_aes_ctr128_zkn, ),
    .ctr32 = RV_XNAME(hwc_aes_ctr32_zkn, ),
    .xts_enc = RV_XNAME(hwc_aes_xts_enc_zkn, ),
    .xts_dec = RV_XNAME(hwc_aes_xts_dec_zkn, ),
    .cbc_mac = RV_XNAME(hwc_aes_cbc_mac_zkn, ),
    .ocb_enc = RV_XNAME(hwc_aes_ocb_enc_zkn, ),
    .ocb_dec = RV_XNAME(hwc_aes_ocb_dec_zkn, ),
    ZKN_GCM
};

/* Encrypt-direction kernels are the same code (they only use Zkne); the
 * decryption direction is ct's, and the kernels left NULL (cbc_dec,
 * xts_dec, ocb_dec) run generically over that ecb_dec. GCM only runs the
 * cipher forward. */
static const hwc_block_impl aes_zkne_impl = {
    .name = "zkne" RV_XLEN_STR,
    .note = "Zkne without Zknd: encryption in hardware, decryption on the portable code",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_ZKNE,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "clmul" RV_XLEN_STR,
    .usable = NULL,
    .set_key = RV_XNAME(hwc_aes_set_key_zkne, ),
    .ecb_enc = RV_XNAME(hwc_aes_ecb_enc_zkn, ),
    .ecb_dec = RV_XNAME(hwc_aes_ecb_dec_zkne, _ct),
    .cbc_enc = RV_XNAME(hwc_aes_cbc_enc_zkn, ),
    .cbc_dec = NULL,
    .cfb_enc = RV_XNAME(hwc_aes_cfb_enc_zkn, ),
    .cfb_dec = RV_XNAME(hwc_aes_cfb_dec_zkn, ),
    .ofb = RV_XNAME(hwc_aes_ofb_zkn, ),
    .ctr128 = RV_XNAME(hwc_aes_ctr128_zkn, ),
    .ctr32 = RV_XNAME(hwc_aes_ctr32_zkn, ),
    .xts_enc = RV_XNAME(hwc_aes_xts_enc_zkn, ),
    .xts_dec = NULL,
    .cbc_mac = RV_XNAME(hwc_aes_cbc_mac_zkn, ),
    .ocb_enc = RV_XNAME(hwc_aes_ocb_enc_zkne, ),
    .ocb_dec = NULL,
    ZKN_GCM
};

const hwc_block_impl *RV_XNAME(hwc_aes_zkn, _get)(void) {
    return &aes_zkn_impl;
}

const hwc_block_impl *RV_XNAME(hwc_aes_zkne, _get)(void) {
    return &aes_zkne_impl;
}

#endif /* __riscv */
