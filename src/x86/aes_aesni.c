/*
 * AES with AES-NI (back end "aesni"), GHASH from the "pclmul" back end.
 *
 * Speed model: AESENC has a latency of several cycles but issues one or two
 * per cycle, so a block chain that depends on the previous block runs at the
 * latency wall while independent blocks can fill the pipeline. Modes whose
 * blocks are independent (ECB, CTR, CBC/CFB decryption, XTS, OCB, GCM) keep
 * eight blocks in flight; CBC/CFB encryption, OFB and CBC-MAC run one block
 * at a time with the round keys held in registers and everything that does
 * not depend on the chain (plaintext XOR first round key, the output XOR)
 * moved off it.
 *
 * Each kernel body is written once for a given round count and instantiated
 * for 10, 12 and 14 rounds, so the round loops unroll with constant keys.
 * An XOR applied to a block right after the cipher (CTR keystream, XTS/OCB
 * offsets, CBC chaining) is folded into the last round key: AESENCLAST and
 * AESDECLAST end with the key XOR.
 *
 * GCM: CTR32 encryption of eight blocks is interleaved with GHASH of eight
 * ciphertext blocks (the previous batch when encrypting, the current one
 * when decrypting), using the PCLMULQDQ key layout of x86_internal.h and one
 * reduction per eight blocks.
 *
 * Constant time: AES-NI and PCLMULQDQ have no data-dependent timing; the
 * only branches and table indices depend on lengths and OCB block indices,
 * which are public. Counters, tweaks and offsets are never branched on.
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define AESNI_INLINE HWC_X86_INLINE HWC_TARGET_AESNI
#define LANES 8 /* blocks in flight in the parallel kernels */

/* Fully unroll the per-block and per-round loops so the block arrays and
 * round keys become registers (GCC does not do it on its own at -O2). */
#define UNROLL_LANES _Pragma("GCC unroll 8")
#define UNROLL_ROUNDS _Pragma("GCC unroll 16")

static inline __m128i loadu(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
static inline void storeu(uint8_t *p, __m128i v) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* ------------------------------------------------------- key expansion */

/* SubWord(RotWord(w)) ^ rcon (rot = 1) or SubWord(w) (rot = 0), words as
 * little-endian uint32 (FIPS-197 byte 0 in bits 0..7). AESKEYGENASSIST with
 * every lane equal to w gives SubWord(w) in lane 0 and
 * RotWord(SubWord(w)) ^ imm in lane 1; its immediate must be a constant, so
 * rcon is XORed here instead. */
static HWC_TARGET_AESNI uint32_t key_word_transform(uint32_t w, uint32_t rcon, int rot) {
    __m128i assist = _mm_aeskeygenassist_si128(_mm_set1_epi32((int)w), 0);
    return rot ? (uint32_t)_mm_extract_epi32(assist, 1) ^ rcon : (uint32_t)_mm_cvtsi128_si32(assist);
}

/* FIPS-197 5.2 word by word, for all three key sizes. */
HWC_TARGET_AESNI void hwc_aesni_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    const unsigned nk = (unsigned)(key_len / 4), rounds = nk + 6, nwords = 4 * (rounds + 1);
    uint32_t w[4 * (AESNI_MAX_ROUNDS + 1)];
    uint32_t rcon = 1;
    uint8_t *enc_bytes = ks->bytes + offsetof(aesni_schedule, enc);
    __m128i *dec = (__m128i *)(void *)(ks->bytes + offsetof(aesni_schedule, dec));

    for (unsigned i = 0; i < nk; i++)
        w[i] = hwc_load_le32(key + 4 * i);
    for (unsigned i = nk; i < nwords; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = key_word_transform(t, rcon, 1);
            rcon = (rcon << 1) ^ (0x11bu & (0u - (rcon >> 7))); /* xtime; rcon is public */
        } else if (nk > 6 && i % nk == 4) {
            t = key_word_transform(t, 0, 0);
        }
        w[i] = w[i - nk] ^ t;
    }
    memset(ks->bytes, 0, sizeof ks->bytes);
    for (unsigned i = 0; i < nwords; i++)
        hwc_store_le32(enc_bytes + 4 * i, w[i]);
    memcpy(ks->bytes + offsetof(aesni_schedule, rounds), &(uint32_t){rounds}, sizeof(uint32_t));
    if (want_dec) {
        const __m128i *enc = aesni_enc_keys(ks);
        _mm_store_si128(dec, _mm_load_si128(enc + rounds));
        for (unsigned r = 1; r < rounds; r++)
            _mm_store_si128(dec + r, _mm_aesimc_si128(_mm_load_si128(enc + rounds - r)));
        _mm_store_si128(dec + rounds, _mm_load_si128(enc));
    }
    hwc_wipe(w, sizeof w);
}

/* -------------------------------------------------------- block engine */

/* b[j] = E(b[j]) for j < n, then XOR post[j] when post is given. n (LANES
 * or 1) and nr are constants after inlining. */
AESNI_INLINE void encrypt_blocks(__m128i *b, size_t n, const __m128i *rk, unsigned nr, const __m128i *post) {
    const __m128i first = _mm_load_si128(rk);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_xor_si128(b[j], first);
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++) {
        const __m128i k = _mm_load_si128(rk + r);
        UNROLL_LANES
        for (size_t j = 0; j < n; j++)
            b[j] = _mm_aesenc_si128(b[j], k);
    }
    const __m128i last = _mm_load_si128(rk + nr);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_aesenclast_si128(b[j], post ? _mm_xor_si128(last, post[j]) : last);
}

/* Same with the decryption schedule. */
AESNI_INLINE void decrypt_blocks(__m128i *b, size_t n, const __m128i *rk, unsigned nr, const __m128i *post) {
    const __m128i first = _mm_load_si128(rk);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_xor_si128(b[j], first);
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++) {
        const __m128i k = _mm_load_si128(rk + r);
        UNROLL_LANES
        for (size_t j = 0; j < n; j++)
            b[j] = _mm_aesdec_si128(b[j], k);
    }
    const __m128i last = _mm_load_si128(rk + nr);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_aesdeclast_si128(b[j], post ? _mm_xor_si128(last, post[j]) : last);
}

/* Round keys copied to locals, for the serial kernels: with nr constant the
 * compiler keeps them in registers across the whole loop. */
AESNI_INLINE void load_round_keys(__m128i k[AESNI_MAX_ROUNDS + 1], const __m128i *rk, unsigned nr) {
    UNROLL_ROUNDS
    for (unsigned r = 0; r <= nr; r++)
        k[r] = _mm_load_si128(rk + r);
}

/* One block through rounds 1..nr; x already holds the block XOR k[0]. The
 * last round key is `last` (k[nr], possibly with an output XOR folded in). */
AESNI_INLINE __m128i encrypt_whitened(__m128i x, const __m128i k[AESNI_MAX_ROUNDS + 1], unsigned nr, __m128i last) {
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++)
        x = _mm_aesenc_si128(x, k[r]);
    return _mm_aesenclast_si128(x, last);
}

/* Instantiate BODY(..., nr) for the key's round count. */
#define FOR_ROUNDS(ks, call_10, call_12, call_14) \
    do {                                            \
        switch (aesni_rounds(ks)) {                 \
        case 10: call_10; break;                    \
        case 12: call_12; break;                    \
        default: call_14; break;                    \
        }                                           \
    } while (0)
#define BY_ROUNDS(ks, body, ...) FOR_ROUNDS(ks, body(__VA_ARGS__, 10), body(__VA_ARGS__, 12), body(__VA_ARGS__, 14))

/* ------------------------------------------------------------------ ECB */

AESNI_INLINE void ecb_step(const __m128i *rk, unsigned nr, int decrypt, uint8_t *out, const uint8_t *in, size_t n) {
    __m128i b[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = loadu(in + 16 * j);
    if (decrypt)
        decrypt_blocks(b, n, rk, nr, NULL);
    else
        encrypt_blocks(b, n, rk, nr, NULL);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void ecb_body(const hwc_ks *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t nblocks,
                           unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        ecb_step(rk, nr, decrypt, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        ecb_step(rk, nr, decrypt, out, in, 1);
}

static HWC_TARGET_AESNI void aesni_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ecb_body, ks, 0, out, in, nblocks);
}

static HWC_TARGET_AESNI void aesni_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ecb_body, ks, 1, out, in, nblocks);
}

/* ------------------------------------------------------------------ CTR */

static inline __m128i byteswap_mask(void) {
    return _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* CTR32: the counter byte-reversed is a little-endian integer whose low
 * 32-bit lane is the GCM counter, so PADDD increments it mod 2^32. */
AESNI_INLINE void ctr32_step(const __m128i *rk, unsigned nr, __m128i *counter, uint8_t *out, const uint8_t *in,
                             size_t n) {
    const __m128i bswap = byteswap_mask(), one = _mm_set_epi32(0, 0, 0, 1);
    __m128i b[LANES], data[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        b[j] = _mm_shuffle_epi8(*counter, bswap);
        *counter = _mm_add_epi32(*counter, one);
        data[j] = loadu(in + 16 * j);
    }
    encrypt_blocks(b, n, rk, nr, data);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void ctr32_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                             unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = byteswap_mask();
    __m128i counter = _mm_shuffle_epi8(loadu(ctr), bswap);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        ctr32_step(rk, nr, &counter, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        ctr32_step(rk, nr, &counter, out, in, 1);
    storeu(ctr, _mm_shuffle_epi8(counter, bswap));
}

static HWC_TARGET_AESNI void aesni_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    BY_ROUNDS(ks, ctr32_body, ks, ctr, out, in, nblocks);
}

/* CTR128: the counter as two 64-bit halves in general registers, where the
 * carry between them is one add-with-carry. */
AESNI_INLINE void ctr128_step(const __m128i *rk, unsigned nr, uint64_t *hi, uint64_t *lo, uint8_t *out,
                              const uint8_t *in, size_t n) {
    const __m128i bswap = byteswap_mask();
    __m128i b[LANES], data[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        b[j] = _mm_shuffle_epi8(_mm_set_epi64x((long long)*hi, (long long)*lo), bswap);
        *lo += 1;
        *hi += (*lo == 0);
        data[j] = loadu(in + 16 * j);
    }
    encrypt_blocks(b, n, rk, nr, data);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void ctr128_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                              unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        ctr128_step(rk, nr, &hi, &lo, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        ctr128_step(rk, nr, &hi, &lo, out, in, 1);
    hwc_store_be64(ctr, hi);
    hwc_store_be64(ctr + 8, lo);
}

static HWC_TARGET_AESNI void aesni_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                          size_t nblocks) {
    BY_ROUNDS(ks, ctr128_body, ks, ctr, out, in, nblocks);
}

/* ---------------------------------------------------------- CBC, CFB */

AESNI_INLINE void cbc_enc_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    __m128i chain = loadu(iv);
    for (size_t i = 0; i < nblocks; i++) {
        /* Only one XOR and the rounds are on the chain. */
        const __m128i whitened = _mm_xor_si128(loadu(in + 16 * i), k[0]);
        chain = encrypt_whitened(_mm_xor_si128(chain, whitened), k, nr, k[nr]);
        storeu(out + 16 * i, chain);
    }
    storeu(iv, chain);
}

static HWC_TARGET_AESNI void aesni_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, cbc_enc_body, ks, iv, out, in, nblocks);
}

/* P_j = D(C_j) ^ C_{j-1}; every ciphertext is loaded before any plaintext is
 * stored, so out == in works. */
AESNI_INLINE void cbc_dec_step(const __m128i *rk, unsigned nr, __m128i *iv, uint8_t *out, const uint8_t *in,
                               size_t n) {
    __m128i b[LANES], prev[LANES];
    prev[0] = *iv;
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        b[j] = loadu(in + 16 * j);
        if (j + 1 < n)
            prev[j + 1] = b[j];
    }
    *iv = b[n - 1];
    decrypt_blocks(b, n, rk, nr, prev);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void cbc_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               unsigned nr) {
    const __m128i *rk = aesni_dec_keys(ks);
    __m128i chain = loadu(iv);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        cbc_dec_step(rk, nr, &chain, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        cbc_dec_step(rk, nr, &chain, out, in, 1);
    storeu(iv, chain);
}

static HWC_TARGET_AESNI void aesni_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, cbc_dec_body, ks, iv, out, in, nblocks);
}

/* C_i = E(C_{i-1}) ^ P_i: P_i is folded into the last round key, so the
 * chain is the whitening XOR and the rounds. */
AESNI_INLINE void cfb_enc_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    __m128i chain = loadu(iv);
    for (size_t i = 0; i < nblocks; i++) {
        const __m128i last = _mm_xor_si128(k[nr], loadu(in + 16 * i));
        chain = encrypt_whitened(_mm_xor_si128(chain, k[0]), k, nr, last);
        storeu(out + 16 * i, chain);
    }
    storeu(iv, chain);
}

static HWC_TARGET_AESNI void aesni_cfb_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, cfb_enc_body, ks, iv, out, in, nblocks);
}

/* The cipher inputs are IV, C_0 .. C_{n-2}: all known, so parallel. */
AESNI_INLINE void cfb_dec_step(const __m128i *rk, unsigned nr, __m128i *iv, uint8_t *out, const uint8_t *in,
                               size_t n) {
    __m128i b[LANES], cipher[LANES];
    b[0] = *iv;
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        cipher[j] = loadu(in + 16 * j);
        if (j + 1 < n)
            b[j + 1] = cipher[j];
    }
    *iv = cipher[n - 1];
    encrypt_blocks(b, n, rk, nr, cipher);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void cfb_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    __m128i chain = loadu(iv);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        cfb_dec_step(rk, nr, &chain, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        cfb_dec_step(rk, nr, &chain, out, in, 1);
    storeu(iv, chain);
}

static HWC_TARGET_AESNI void aesni_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, cfb_dec_body, ks, iv, out, in, nblocks);
}

/* ------------------------------------------------------- OFB, CBC-MAC */

AESNI_INLINE void ofb_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                           unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    __m128i keystream = loadu(iv);
    for (size_t i = 0; i < nblocks; i++) {
        keystream = encrypt_whitened(_mm_xor_si128(keystream, k[0]), k, nr, k[nr]);
        storeu(out + 16 * i, _mm_xor_si128(keystream, loadu(in + 16 * i)));
    }
    storeu(iv, keystream);
}

static HWC_TARGET_AESNI void aesni_ofb(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                       size_t nblocks) {
    BY_ROUNDS(ks, ofb_body, ks, iv, out, in, nblocks);
}

AESNI_INLINE void cbc_mac_body(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks, unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    __m128i chain = loadu(mac);
    for (size_t i = 0; i < nblocks; i++) {
        const __m128i whitened = _mm_xor_si128(loadu(in + 16 * i), k[0]);
        chain = encrypt_whitened(_mm_xor_si128(chain, whitened), k, nr, k[nr]);
    }
    storeu(mac, chain);
}

static HWC_TARGET_AESNI void aesni_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, cbc_mac_body, ks, mac, in, nblocks);
}

/* ------------------------------------------------------------------ XTS */

/* T * alpha in IEEE 1619 order (the block a little-endian integer): shift
 * left one bit; the bit leaving each 64-bit half re-enters the next half,
 * the one leaving the top folds back as 0x87. The carries come from the sign
 * of dwords 1 and 3, moved to dwords 2 and 0 and masked: no branch. */
static inline __m128i xts_mul_alpha(__m128i t) {
    const __m128i fold = _mm_set_epi32(0, 1, 0, 0x87);
    const __m128i signs = _mm_shuffle_epi32(_mm_srai_epi32(t, 31), 0x13);
    return _mm_xor_si128(_mm_slli_epi64(t, 1), _mm_and_si128(signs, fold));
}

/* n blocks with tweaks tw[0..n-1]: C = E(P ^ T) ^ T (or D for decryption). */
AESNI_INLINE void xts_blocks(const __m128i *rk, unsigned nr, int decrypt, const __m128i *tw, uint8_t *out,
                             const uint8_t *in, size_t n) {
    __m128i b[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_xor_si128(loadu(in + 16 * j), tw[j]);
    if (decrypt)
        decrypt_blocks(b, n, rk, nr, tw);
    else
        encrypt_blocks(b, n, rk, nr, tw);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

/* T * alpha^8: a one-byte shift left; the byte leaving the top comes back
 * multiplied by x^7 + x^2 + x + 1, a carry-less product of 15 bits. */
AESNI_INLINE __m128i xts_mul_alpha8(__m128i t) {
    const __m128i fold = _mm_cvtsi32_si128(0x87);
    return _mm_xor_si128(_mm_slli_si128(t, 1), _mm_clmulepi64_si128(_mm_srli_si128(t, 15), fold, 0x00));
}

AESNI_INLINE void xts_body(const hwc_ks *ks, int decrypt, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                           size_t nblocks, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    __m128i t = loadu(tweak);
    if (nblocks >= LANES) {
        /* Eight tweaks, each advanced by alpha^8 per batch: eight short
         * independent updates instead of one chain of eight. */
        __m128i tw[LANES];
        tw[0] = t;
        UNROLL_LANES
        for (unsigned j = 1; j < LANES; j++)
            tw[j] = xts_mul_alpha(tw[j - 1]);
        for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES) {
            xts_blocks(rk, nr, decrypt, tw, out, in, LANES);
            UNROLL_LANES
            for (unsigned j = 0; j < LANES; j++)
                tw[j] = xts_mul_alpha8(tw[j]);
        }
        t = tw[0];
    }
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16) {
        xts_blocks(rk, nr, decrypt, &t, out, in, 1);
        t = xts_mul_alpha(t);
    }
    storeu(tweak, t);
}

static HWC_TARGET_AESNI void aesni_xts_enc(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, xts_body, ks, 0, tweak, out, in, nblocks);
}

static HWC_TARGET_AESNI void aesni_xts_dec(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, xts_body, ks, 1, tweak, out, in, nblocks);
}

/* ----------------------------------------------------------------- OCB3 */

/* Offset_i = Offset_{i-1} ^ L[ntz(i)]; block indices are public and never 0,
 * so ntz is at most 63 and the table index does not depend on secrets. */
static inline __m128i ocb_next_offset(__m128i offset, const uint8_t (*L)[16], uint64_t index) {
    return _mm_xor_si128(offset, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index)]));
}

AESNI_INLINE void ocb_step(const __m128i *rk, unsigned nr, int decrypt, const uint8_t (*L)[16], uint64_t *index,
                           __m128i *offset, __m128i *checksum, uint8_t *out, const uint8_t *in, size_t n) {
    __m128i b[LANES], offsets[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        *offset = ocb_next_offset(*offset, L, (*index)++);
        offsets[j] = *offset;
        b[j] = loadu(in + 16 * j);
        if (!decrypt)
            *checksum = _mm_xor_si128(*checksum, b[j]);
        b[j] = _mm_xor_si128(b[j], offsets[j]);
    }
    if (decrypt) {
        decrypt_blocks(b, n, rk, nr, offsets);
        UNROLL_LANES
        for (size_t j = 0; j < n; j++)
            *checksum = _mm_xor_si128(*checksum, b[j]);
    } else {
        encrypt_blocks(b, n, rk, nr, offsets);
    }
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void ocb_body(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                           uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    __m128i off = loadu(offset), sum = loadu(checksum);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        ocb_step(rk, nr, decrypt, L, &index, &off, &sum, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        ocb_step(rk, nr, decrypt, L, &index, &off, &sum, out, in, 1);
    storeu(offset, off);
    storeu(checksum, sum);
}

static HWC_TARGET_AESNI void aesni_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                           uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, ocb_body, ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static HWC_TARGET_AESNI void aesni_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                           uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, ocb_body, ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* ------------------------------------------------------------------ GCM */

/* One batch of eight: CTR32 encryption of the next eight counters, with
 * GHASH of the eight ciphertext blocks at `hash_in` spread over rounds 1..8.
 * Returns the new GHASH state (POLYVAL domain). */
AESNI_INLINE __m128i gcm_batch(const __m128i *rk, unsigned nr, const hwc_ghash_key *hk, __m128i *counter,
                               __m128i state, const uint8_t *hash_in, uint8_t *out, const uint8_t *in) {
    const __m128i bswap = byteswap_mask();
    const __m128i first = _mm_load_si128(rk);
    __m128i b[LANES];
    clmul_acc acc;

    /* No shortcut on the counter's value (e.g. adding to the big-endian form
     * when the last byte cannot wrap): with a non-96-bit IV the counter is
     * GHASH_H(IV), which must not leak through a branch. */
    UNROLL_LANES
    for (unsigned j = 0; j < LANES; j++)
        b[j] = _mm_xor_si128(_mm_shuffle_epi8(_mm_add_epi32(*counter, _mm_set_epi32(0, 0, 0, (int)j)), bswap), first);
    *counter = _mm_add_epi32(*counter, _mm_set_epi32(0, 0, 0, LANES));
    /* Round r carries GHASH block r - 1, multiplied by H^(9 - r). */
    const __m128i k1 = _mm_load_si128(rk + 1);
    UNROLL_LANES
    for (unsigned j = 0; j < LANES; j++)
        b[j] = _mm_aesenc_si128(b[j], k1);
    clmul_acc_first(&acc, _mm_xor_si128(pclmul_load_ghash(hash_in, bswap), state),
                    _mm_load_si128(pclmul_power(hk, LANES)), _mm_load_si128(pclmul_karatsuba(hk, LANES)));
    UNROLL_ROUNDS
    for (unsigned r = 2; r <= LANES; r++) {
        const __m128i k = _mm_load_si128(rk + r);
        UNROLL_LANES
        for (unsigned j = 0; j < LANES; j++)
            b[j] = _mm_aesenc_si128(b[j], k);
        clmul_acc_add(&acc, pclmul_load_ghash(hash_in + 16 * (r - 1), bswap),
                      _mm_load_si128(pclmul_power(hk, LANES + 1 - r)),
                      _mm_load_si128(pclmul_karatsuba(hk, LANES + 1 - r)));
        clmul_acc_pin(&acc);
    }
    state = clmul_acc_reduce(&acc);
    UNROLL_ROUNDS
    for (unsigned r = LANES + 1; r < nr; r++) {
        const __m128i k = _mm_load_si128(rk + r);
        UNROLL_LANES
        for (unsigned j = 0; j < LANES; j++)
            b[j] = _mm_aesenc_si128(b[j], k);
    }
    const __m128i last = _mm_load_si128(rk + nr);
    UNROLL_LANES
    for (unsigned j = 0; j < LANES; j++)
        b[j] = _mm_aesenclast_si128(b[j], _mm_xor_si128(last, loadu(in + 16 * j)));
    UNROLL_LANES
    for (unsigned j = 0; j < LANES; j++)
        storeu(out + 16 * j, b[j]);
    return state;
}

/* GHASH of eight blocks alone (the last batch of an encryption). */
AESNI_INLINE __m128i gcm_hash8(const hwc_ghash_key *hk, __m128i state, const uint8_t *p) {
    const __m128i bswap = byteswap_mask();
    clmul_acc acc;
    clmul_acc_first(&acc, _mm_xor_si128(pclmul_load_ghash(p, bswap), state),
                    _mm_load_si128(pclmul_power(hk, LANES)), _mm_load_si128(pclmul_karatsuba(hk, LANES)));
    UNROLL_LANES
    for (unsigned j = 1; j < LANES; j++)
        clmul_acc_add(&acc, pclmul_load_ghash(p + 16 * j, bswap), _mm_load_si128(pclmul_power(hk, LANES - j)),
                      _mm_load_si128(pclmul_karatsuba(hk, LANES - j)));
    return clmul_acc_reduce(&acc);
}

AESNI_INLINE void gcm_body(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                           uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t batches, unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = byteswap_mask();
    __m128i counter = _mm_shuffle_epi8(loadu(ctr), bswap);
    __m128i state = pclmul_load_ghash(ghash_state, bswap);

    if (decrypt) {
        /* The ciphertext is the input: hash each batch as it is decrypted
         * (loaded before the plaintext is stored, so out == in works). */
        for (size_t i = 0; i < batches; i++, in += 16 * LANES, out += 16 * LANES)
            state = gcm_batch(rk, nr, hk, &counter, state, in, out, in);
    } else {
        /* The ciphertext exists one batch late: encrypt batch i while
         * hashing batch i - 1, then hash the last one alone. The first batch
         * hashes nothing: encrypt it plainly. */
        __m128i b[LANES], data[LANES];
        const __m128i one = _mm_set_epi32(0, 0, 0, 1);
        UNROLL_LANES
        for (unsigned j = 0; j < LANES; j++) {
            b[j] = _mm_shuffle_epi8(counter, bswap);
            counter = _mm_add_epi32(counter, one);
            data[j] = loadu(in + 16 * j);
        }
        encrypt_blocks(b, LANES, rk, nr, data);
        UNROLL_LANES
        for (unsigned j = 0; j < LANES; j++)
            storeu(out + 16 * j, b[j]);
        for (size_t i = 1; i < batches; i++) {
            state = gcm_batch(rk, nr, hk, &counter, state, out, out + 16 * LANES, in + 16 * LANES);
            in += 16 * LANES;
            out += 16 * LANES;
        }
        state = gcm_hash8(hk, state, out);
    }
    storeu(ctr, _mm_shuffle_epi8(counter, bswap));
    storeu(ghash_state, _mm_shuffle_epi8(state, bswap));
}

static HWC_TARGET_AESNI size_t aesni_gcm_enc(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16],
                                             uint8_t ghash_state[16], uint8_t *out, const uint8_t *in,
                                             size_t nblocks) {
    size_t batches = nblocks / LANES;
    if (batches != 0)
        BY_ROUNDS(ks, gcm_body, ks, hk, 0, ctr, ghash_state, out, in, batches);
    return batches * LANES;
}

static HWC_TARGET_AESNI size_t aesni_gcm_dec(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16],
                                             uint8_t ghash_state[16], uint8_t *out, const uint8_t *in,
                                             size_t nblocks) {
    size_t batches = nblocks / LANES;
    if (batches != 0)
        BY_ROUNDS(ks, gcm_body, ks, hk, 1, ctr, ghash_state, out, in, batches);
    return batches * LANES;
}

/* ---------------------------------------------------------------- table */

static const hwc_block_impl aes_aesni_impl = {
    .name = "aesni",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_AESNI | HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_SSE41,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "pclmul",
    .usable = NULL,
    .set_key = hwc_aesni_set_key,
    .ecb_enc = aesni_ecb_enc,
    .ecb_dec = aesni_ecb_dec,
    .cbc_enc = aesni_cbc_enc,
    .cbc_dec = aesni_cbc_dec,
    .cfb_enc = aesni_cfb_enc,
    .cfb_dec = aesni_cfb_dec,
    .ofb = aesni_ofb,
    .ctr128 = aesni_ctr128,
    .ctr32 = aesni_ctr32,
    .xts_enc = aesni_xts_enc,
    .xts_dec = aesni_xts_dec,
    .cbc_mac = aesni_cbc_mac,
    .ocb_enc = aesni_ocb_enc,
    .ocb_dec = aesni_ocb_dec,
    .gcm_enc = aesni_gcm_enc,
    .gcm_dec = aesni_gcm_dec,
};

const hwc_block_impl *hwc_aes_aesni_get(void) {
    return &aes_aesni_impl;
}

#endif /* __x86_64__ */
