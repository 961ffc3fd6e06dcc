/*
 * AES with AES-NI (back end "aesni"), GHASH from the "pclmul" back end.
 *
 * Speed model: AESENC has a latency of several cycles but issues one or two
 * per cycle, so a block chain that depends on the previous block runs at the
 * latency wall while independent blocks can fill the pipeline. Modes whose
 * blocks are independent (ECB, CTR, CBC/CFB decryption, XTS, OCB, GCM) keep
 * eight blocks in flight; CBC/CFB encryption, OFB and CBC-MAC run one block
 * at a time with the round keys held in registers and nothing but the
 * rounds on the chain (the next input's XOR is folded into the last round
 * key, see "CBC, CFB").
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
 * reduction per eight blocks. CCM: one CTR block rides along each serial
 * CBC-MAC block, in the MAC's latency shadow.
 *
 * CCM's counter and XTS tweaks are advanced in general registers, whose
 * units are otherwise idle, rather than with vector or carry-less
 * operations that compete with AESENC for issue slots. CTR128's counters
 * are built in vector registers (see ctr128_carry_limit).
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

/* b[j] = E(b[j]) for j < n (D with the decryption schedule), then XOR
 * post[j] when post is given. n (LANES or 1), nr and decrypt are constants
 * after inlining. */
AESNI_INLINE void crypt_blocks(__m128i *b, size_t n, const __m128i *rk, unsigned nr, const __m128i *post,
                               int decrypt) {
    const __m128i first = _mm_load_si128(rk);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_xor_si128(b[j], first);
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++) {
        const __m128i k = _mm_load_si128(rk + r);
        UNROLL_LANES
        for (size_t j = 0; j < n; j++)
            b[j] = decrypt ? _mm_aesdec_si128(b[j], k) : _mm_aesenc_si128(b[j], k);
    }
    const __m128i last = _mm_load_si128(rk + nr);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        const __m128i k = post ? _mm_xor_si128(last, post[j]) : last;
        b[j] = decrypt ? _mm_aesdeclast_si128(b[j], k) : _mm_aesenclast_si128(b[j], k);
    }
}

/* Rounds 1..nr of blocks already XORed with the first round key; the last
 * round takes a per-block key (an output XOR folded in). */
AESNI_INLINE void finish_blocks(__m128i *b, size_t n, const __m128i *rk, unsigned nr, int decrypt,
                                const __m128i *last) {
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++) {
        const __m128i k = _mm_load_si128(rk + r);
        UNROLL_LANES
        for (size_t j = 0; j < n; j++)
            b[j] = decrypt ? _mm_aesdec_si128(b[j], k) : _mm_aesenc_si128(b[j], k);
    }
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = decrypt ? _mm_aesdeclast_si128(b[j], last[j]) : _mm_aesenclast_si128(b[j], last[j]);
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

/* ------------------------------------------------------------------ ECB */

AESNI_INLINE void ecb_step(const __m128i *rk, unsigned nr, int decrypt, uint8_t *out, const uint8_t *in, size_t n) {
    __m128i b[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = loadu(in + 16 * j);
    crypt_blocks(b, n, rk, nr, NULL, decrypt);
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

HWC_TARGET_AESNI void hwc_aesni_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ecb_body, ks, 0, out, in, nblocks);
}

HWC_TARGET_AESNI void hwc_aesni_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
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
    crypt_blocks(b, n, rk, nr, data, 0);
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

HWC_TARGET_AESNI void hwc_aesni_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    BY_ROUNDS(ks, ctr32_body, ks, ctr, out, in, nblocks);
}

/* CCM's counter (a 128-bit big-endian integer) as two 64-bit halves in
 * general registers, where the carry between them is one add-with-carry.
 * The block's byte swap and its XOR with the first round key are done there
 * too (BSWAP and XOR on idle integer units): CCM makes one counter block per
 * serial CBC-MAC block, off the MAC's critical path. */
typedef struct ctr128_state {
    uint64_t hi, lo;       /* the counter */
    uint64_t k0_lo, k0_hi; /* first round key, as little-endian halves */
} ctr128_state;

AESNI_INLINE ctr128_state ctr128_init(const uint8_t ctr[16], __m128i k0) {
    ctr128_state c = {hwc_load_be64(ctr), hwc_load_be64(ctr + 8), (uint64_t)_mm_cvtsi128_si64(k0),
                      (uint64_t)_mm_extract_epi64(k0, 1)};
    return c;
}

static inline void ctr128_store(const ctr128_state *c, uint8_t ctr[16]) {
    hwc_store_be64(ctr, c->hi);
    hwc_store_be64(ctr + 8, c->lo);
}

/* The counter block XOR k0, then counter + 1. */
static inline __m128i ctr128_next(ctr128_state *c) {
    const __m128i block = _mm_set_epi64x((long long)(__builtin_bswap64(c->lo) ^ c->k0_hi),
                                         (long long)(__builtin_bswap64(c->hi) ^ c->k0_lo));
    c->lo = hwc_value_barrier_u64(c->lo + 1); /* not the loop variable: no branch on the counter */
    c->hi += (c->lo == 0);
    return block;
}

/* CTR128 (CTR mode, SIV): the counter byte-reversed in a vector register, a
 * little-endian 128-bit integer with its low half in lane 0, so block j of
 * a step is the counter plus j with PADDQ. The low half carries into the
 * high one when lo + j overflows, that is when j > ~lo; the step compares
 * j with ~lo clamped to 15 (j <= LANES), in 32-bit lanes that cover only
 * the high half, and subtracts the all-ones result there. No branch and no
 * address depends on the counter, which may be secret (an SSH IV). Eight
 * blocks cost five vector ops each besides the rounds; counters built in
 * general registers (two moves into a vector register and an unpack a
 * block, as CCM's) ran 1.3-2x slower on Intel's Golden Cove. */
AESNI_INLINE __m128i ctr128_carry_limit(__m128i counter) {
    const uint64_t room = ~(uint64_t)_mm_cvtsi128_si64(counter); /* lo + j carries iff j > room */
    const uint64_t large = 0 - (uint64_t)((room >> 4) != 0);
    return _mm_set1_epi32((int)((room & 15) | (large & 15)));
}

/* counter + j, j <= LANES, given ctr128_carry_limit(counter). */
AESNI_INLINE __m128i ctr128_plus(__m128i counter, __m128i limit, int j) {
    const __m128i sum = _mm_add_epi64(counter, _mm_set_epi64x(0, j));
    return _mm_sub_epi64(sum, _mm_cmpgt_epi32(_mm_set_epi32(j, j, 0, 0), limit));
}

/* counter + 1: the low half's carry is the low lane equal to zero after
 * the add, moved to the high lane (no round trip through a general
 * register, as ctr128_carry_limit takes). */
AESNI_INLINE __m128i ctr128_plus_one(__m128i counter) {
    const __m128i sum = _mm_add_epi64(counter, _mm_set_epi64x(0, 1));
    return _mm_sub_epi64(sum, _mm_slli_si128(_mm_cmpeq_epi64(sum, _mm_setzero_si128()), 8));
}

/* n blocks (LANES or 1) from counter + j0 (j0 + n <= LANES). */
AESNI_INLINE void ctr128_step(const __m128i *rk, unsigned nr, __m128i counter, __m128i limit, int j0, uint8_t *out,
                              const uint8_t *in, size_t n) {
    const __m128i bswap = byteswap_mask(), first = _mm_load_si128(rk);
    __m128i b[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_xor_si128(_mm_shuffle_epi8(ctr128_plus(counter, limit, j0 + (int)j), bswap), first);
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
        storeu(out + 16 * j, _mm_aesenclast_si128(b[j], _mm_xor_si128(last, loadu(in + 16 * j))));
}

AESNI_INLINE void ctr128_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                              unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = byteswap_mask();
    __m128i counter = _mm_shuffle_epi8(loadu(ctr), bswap);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES) {
        const __m128i limit = ctr128_carry_limit(counter);
        ctr128_step(rk, nr, counter, limit, 0, out, in, LANES);
        counter = ctr128_plus(counter, limit, LANES);
    }
    if (nblocks == 1) { /* the provider's 16-byte updates */
        ctr128_step(rk, nr, counter, _mm_setzero_si128(), 0, out, in, 1);
        counter = ctr128_plus_one(counter);
    } else if (nblocks != 0) {
        /* Tail: one block per step, all from one limit (so no step waits
         * on the one before); the CPU overlaps the independent ones. */
        const __m128i limit = ctr128_carry_limit(counter);
        for (size_t j = 0; j < nblocks; j++)
            ctr128_step(rk, nr, counter, limit, (int)j, out + 16 * j, in + 16 * j, 1);
        counter = ctr128_plus(counter, limit, (int)nblocks);
    }
    storeu(ctr, _mm_shuffle_epi8(counter, bswap));
}

HWC_TARGET_AESNI void hwc_aesni_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                       size_t nblocks) {
    BY_ROUNDS(ks, ctr128_body, ks, ctr, out, in, nblocks);
}

/* ---------------------------------------------------------- CBC, CFB */

/*
 * The serial kernels (CBC and CFB encryption, OFB, CBC-MAC) run at the
 * AESENC latency wall. Their chains are kept to the rounds alone: whatever
 * enters the next block's input (k0, the next plaintext) is folded into the
 * current block's last round key, and the output, when it differs from the
 * chain value, is recovered by an XOR off the chain. A vector XOR between
 * two encryptions would add about two cycles of latency to every block.
 */

/* Chain value after block i: C_i ^ k0 ^ P_{i+1}, the next block's whitened
 * input; C_i = chain ^ (k0 ^ P_{i+1}). The last block ends with k[nr]. */
AESNI_INLINE void cbc_enc_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    __m128i chain = loadu(iv);
    if (nblocks != 0) {
        chain = _mm_xor_si128(chain, _mm_xor_si128(loadu(in), k[0]));
        for (size_t i = 0; i + 1 < nblocks; i++) {
            /* Loaded before C_i is stored: out may equal in. */
            const __m128i next = _mm_xor_si128(loadu(in + 16 * (i + 1)), k[0]);
            chain = encrypt_whitened(chain, k, nr, _mm_xor_si128(k[nr], next));
            storeu(out + 16 * i, _mm_xor_si128(chain, next));
        }
        chain = encrypt_whitened(chain, k, nr, k[nr]);
        storeu(out + 16 * (nblocks - 1), chain);
    }
    storeu(iv, chain);
}

/* One block (a 16-byte update), the round keys as memory operands:
 * cbc_enc_body's loading all of them first was a third of the call. */
AESNI_INLINE void cbc_enc_one_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i chain = encrypt_whitened(_mm_xor_si128(loadu(iv), _mm_xor_si128(loadu(in), rk[0])), rk, nr, rk[nr]);
    storeu(out, chain);
    storeu(iv, chain);
}

static HWC_TARGET_AESNI __attribute__((noinline)) void cbc_enc_long(const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                                                                    const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, cbc_enc_body, ks, iv, out, in, nblocks);
}

HWC_TARGET_AESNI void hwc_aesni_cbc_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    if (nblocks == 1)
        BY_ROUNDS(ks, cbc_enc_one_body, ks, iv, out, in);
    else
        cbc_enc_long(ks, iv, out, in, nblocks);
}

/* CBC decryption P_j = D(C_j) ^ C_{j-1} and CFB decryption P_j =
 * E(C_{j-1}) ^ C_j share their inputs: the chaining blocks IV, C_0 ..
 * C_{n-2} are all known, so both are parallel. Every ciphertext is loaded
 * before any plaintext is stored, so out == in works. */
AESNI_INLINE void chained_step(const __m128i *rk, unsigned nr, int cfb, __m128i *iv, uint8_t *out,
                               const uint8_t *in, size_t n) {
    __m128i cipher[LANES], prev[LANES];
    prev[0] = *iv;
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        cipher[j] = loadu(in + 16 * j);
        if (j + 1 < n)
            prev[j + 1] = cipher[j];
    }
    *iv = cipher[n - 1];
    __m128i *b = cfb ? prev : cipher;
    crypt_blocks(b, n, rk, nr, cfb ? cipher : prev, !cfb);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void chained_body(const hwc_ks *ks, int cfb, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                               size_t nblocks, unsigned nr) {
    const __m128i *rk = cfb ? aesni_enc_keys(ks) : aesni_dec_keys(ks);
    __m128i chain = loadu(iv);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        chained_step(rk, nr, cfb, &chain, out, in, LANES);
    /* Tail (and whole calls of 16-112 bytes): 4, 2 and 1 blocks interleaved,
     * not a loop of single blocks: a 4-block call in place (openssl speed's
     * 64-byte CBC decryption) ran 5% behind OpenSSL's 4-block routine. */
    if (nblocks & 4) {
        chained_step(rk, nr, cfb, &chain, out, in, 4);
        in += 64, out += 64;
    }
    if (nblocks & 2) {
        chained_step(rk, nr, cfb, &chain, out, in, 2);
        in += 32, out += 32;
    }
    if (nblocks & 1)
        chained_step(rk, nr, cfb, &chain, out, in, 1);
    storeu(iv, chain);
}

HWC_TARGET_AESNI void hwc_aesni_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                        size_t nblocks) {
    BY_ROUNDS(ks, chained_body, ks, 0, iv, out, in, nblocks);
}

/* C_i = E(C_{i-1}) ^ P_i. The chain holds C ^ k0, the next whitened input:
 * P_i ^ k0 is folded into the last round key, C_i = chain ^ k0. */
AESNI_INLINE void cfb_enc_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                               unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    const __m128i last_k0 = _mm_xor_si128(k[nr], k[0]);
    __m128i chain = _mm_xor_si128(loadu(iv), k[0]);
    for (size_t i = 0; i < nblocks; i++) {
        chain = encrypt_whitened(chain, k, nr, _mm_xor_si128(last_k0, loadu(in + 16 * i)));
        storeu(out + 16 * i, _mm_xor_si128(chain, k[0]));
    }
    storeu(iv, _mm_xor_si128(chain, k[0]));
}

HWC_TARGET_AESNI void hwc_aesni_cfb_enc(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                           size_t nblocks) {
    BY_ROUNDS(ks, cfb_enc_body, ks, iv, out, in, nblocks);
}

HWC_TARGET_AESNI void hwc_aesni_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                        size_t nblocks) {
    BY_ROUNDS(ks, chained_body, ks, 1, iv, out, in, nblocks);
}

/* ------------------------------------------------------- OFB, CBC-MAC */

/* The chain holds keystream ^ k0, the next whitened input. */
AESNI_INLINE void ofb_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                           unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    const __m128i last_k0 = _mm_xor_si128(k[nr], k[0]);
    __m128i chain = _mm_xor_si128(loadu(iv), k[0]);
    for (size_t i = 0; i < nblocks; i++) {
        chain = encrypt_whitened(chain, k, nr, last_k0);
        storeu(out + 16 * i, _mm_xor_si128(chain, _mm_xor_si128(k[0], loadu(in + 16 * i))));
    }
    storeu(iv, _mm_xor_si128(chain, k[0]));
}

HWC_TARGET_AESNI void hwc_aesni_ofb(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                       size_t nblocks) {
    BY_ROUNDS(ks, ofb_body, ks, iv, out, in, nblocks);
}

/* As CBC encryption without the output. */
AESNI_INLINE void cbc_mac_body(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks, unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    const __m128i last_k0 = _mm_xor_si128(k[nr], k[0]);
    __m128i chain = loadu(mac);
    if (nblocks != 0) {
        chain = _mm_xor_si128(chain, _mm_xor_si128(loadu(in), k[0]));
        for (size_t i = 1; i < nblocks; i++)
            chain = encrypt_whitened(chain, k, nr, _mm_xor_si128(last_k0, loadu(in + 16 * i)));
        chain = encrypt_whitened(chain, k, nr, k[nr]);
    }
    storeu(mac, chain);
}

HWC_TARGET_AESNI void hwc_aesni_cbc_mac(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, cbc_mac_body, ks, mac, in, nblocks);
}

/* ------------------------------------------------------------------ CCM */

/*
 * CBC-MAC and CTR in one loop: each step takes one MAC block and one CTR
 * block through the rounds side by side. The MAC is a chain of whole
 * encryptions and runs at the AESENC latency wall; the CTR block does not
 * depend on it and fills idle issue slots, so the keystream comes nearly
 * free.
 *
 * The chain carries the next MAC input already whitened, mac ^ P ^ k0:
 * P_{i+1} ^ k0 is folded into the last round key of MAC block i, so the
 * chain is the rounds alone, with no vector XOR (about two cycles of
 * latency after AESENC here) between two encryptions.
 */

/* Encryption: MAC block i (in *chain) with CTR block i. mac_last is the
 * MAC's last round key: k[nr] ^ k[0] ^ P_{i+1}, or k[nr] for the last block.
 * The caller loads P_{i+1} before this stores C_i, so out == in works. */
AESNI_INLINE void ccm_enc_step(const __m128i *k, unsigned nr, __m128i *chain, ctr128_state *ctr, __m128i mac_last,
                               uint8_t *out, const uint8_t *in) {
    __m128i x = *chain, c = ctr128_next(ctr);
    const __m128i plain = loadu(in);
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++) {
        x = _mm_aesenc_si128(x, k[r]);
        c = _mm_aesenc_si128(c, k[r]);
    }
    *chain = _mm_aesenclast_si128(x, mac_last);
    storeu(out, _mm_aesenclast_si128(c, _mm_xor_si128(k[nr], plain)));
}

/* Decryption: the MAC absorbs the plaintext the CTR block produces, so the
 * keystream runs one block ahead: MAC block i - 1 (in *chain) with CTR
 * block i, whose plaintext is folded into the MAC's last round key. */
AESNI_INLINE void ccm_dec_step(const __m128i *k, unsigned nr, __m128i *chain, ctr128_state *ctr, __m128i last_fold,
                               uint8_t *out, const uint8_t *in) {
    __m128i x = *chain, c = ctr128_next(ctr);
    const __m128i cipher = loadu(in);
    UNROLL_ROUNDS
    for (unsigned r = 1; r < nr; r++) {
        x = _mm_aesenc_si128(x, k[r]);
        c = _mm_aesenc_si128(c, k[r]);
    }
    const __m128i plain = _mm_aesenclast_si128(c, _mm_xor_si128(k[nr], cipher));
    *chain = _mm_aesenclast_si128(x, _mm_xor_si128(last_fold, plain));
    storeu(out, plain);
}

AESNI_INLINE void ccm_body(const hwc_ks *ks, int decrypt, uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                           const uint8_t *in, size_t nblocks, unsigned nr) {
    __m128i k[AESNI_MAX_ROUNDS + 1];
    load_round_keys(k, aesni_enc_keys(ks), nr);
    /* Last round key of a MAC block followed by another, before the next
     * plaintext is folded in: leaves that block's output whitened. */
    const __m128i last_fold = _mm_xor_si128(k[nr], k[0]);
    /* CCM's counter is a 128-bit big-endian integer, as in ctr128. */
    ctr128_state c = ctr128_init(ctr, k[0]);
    __m128i chain = _mm_xor_si128(loadu(mac), k[0]);

    if (decrypt) {
        /* P_0 alone, then one MAC block behind the keystream, then the last
         * MAC block alone. */
        const __m128i plain = encrypt_whitened(ctr128_next(&c), k, nr, _mm_xor_si128(k[nr], loadu(in)));
        storeu(out, plain);
        chain = _mm_xor_si128(chain, plain);
        for (size_t i = 1; i < nblocks; i++)
            ccm_dec_step(k, nr, &chain, &c, last_fold, out + 16 * i, in + 16 * i);
        chain = encrypt_whitened(chain, k, nr, k[nr]);
    } else {
        chain = _mm_xor_si128(chain, loadu(in));
        for (size_t i = 0; i + 1 < nblocks; i++)
            ccm_enc_step(k, nr, &chain, &c, _mm_xor_si128(last_fold, loadu(in + 16 * (i + 1))), out + 16 * i,
                         in + 16 * i);
        ccm_enc_step(k, nr, &chain, &c, k[nr], out + 16 * (nblocks - 1), in + 16 * (nblocks - 1));
    }
    storeu(mac, chain);
    ctr128_store(&c, ctr);
}

HWC_TARGET_AESNI void hwc_aesni_ccm_enc(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                                           const uint8_t *in, size_t nblocks) {
    if (nblocks != 0)
        BY_ROUNDS(ks, ccm_body, ks, 0, ctr, mac, out, in, nblocks);
}

HWC_TARGET_AESNI void hwc_aesni_ccm_dec(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out,
                                           const uint8_t *in, size_t nblocks) {
    if (nblocks != 0)
        BY_ROUNDS(ks, ccm_body, ks, 1, ctr, mac, out, in, nblocks);
}

/* ------------------------------------------------------------------ XTS */

/*
 * Tweaks are generated in general registers: T as two 64-bit halves, T *
 * alpha in IEEE 1619 order (the block a little-endian integer) is a 128-bit
 * shift left by one with the bit leaving the top folded back as 0x87: a few
 * integer instructions on units that are otherwise idle here. The vector
 * alternatives cost AES throughput: a PCLMULQDQ per tweak (the alpha^8
 * step) occupies the AES pipes (20% slower here), and a serial chain of
 * vector doublings (two cycles of latency per simple vector operation on
 * this machine) cannot keep up with eight blocks per batch (7% slower).
 *
 * A batch's tweaks are written to a stack ring one batch ahead, two 64-bit
 * stores each, and loaded as vectors: cheaper than building each vector
 * from two registers (MOVQ + PINSRQ), 2-3% here. A 16-byte load spanning
 * two smaller stores is not forwarded and waits for them to reach the
 * cache, hence the distance of one batch.
 */
typedef struct xts_tweak {
    uint64_t lo, hi;
} xts_tweak;

/* T *= alpha, branch-free (the tweak is secret). */
static inline void xts_tweak_double(xts_tweak *t) {
    const uint64_t fold = (0 - (t->hi >> 63)) & 0x87;
    t->hi = (t->hi << 1) | (t->lo >> 63);
    t->lo = (t->lo << 1) ^ fold;
}

static inline __m128i xts_tweak_vector(const xts_tweak *t) {
    return _mm_set_epi64x((long long)t->hi, (long long)t->lo);
}

/* The next LANES tweaks into dst; t advances past them. */
static inline void xts_tweaks_fill(xts_tweak *t, xts_tweak dst[LANES]) {
    UNROLL_LANES
    for (unsigned j = 0; j < LANES; j++) {
        dst[j] = *t;
        xts_tweak_double(t);
    }
}

/* n blocks with tweaks tw[0..n-1]: C = E(P ^ T) ^ T (or D for decryption). */
AESNI_INLINE void xts_blocks(const __m128i *rk, unsigned nr, int decrypt, const __m128i *tw, uint8_t *out,
                             const uint8_t *in, size_t n) {
    __m128i b[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        b[j] = _mm_xor_si128(loadu(in + 16 * j), tw[j]);
    crypt_blocks(b, n, rk, nr, tw, decrypt);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++)
        storeu(out + 16 * j, b[j]);
}

AESNI_INLINE void xts_body(const hwc_ks *ks, int decrypt, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                           size_t nblocks, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    xts_tweak t = {hwc_load_le64(tweak), hwc_load_le64(tweak + 8)};
    const size_t batches = nblocks / LANES;

    if (batches != 0) {
        alignas(16) xts_tweak ring[2][LANES];
        xts_tweaks_fill(&t, ring[0]);
        for (size_t i = 0; i < batches; i++, in += 16 * LANES, out += 16 * LANES) {
            if (i + 1 < batches)
                xts_tweaks_fill(&t, ring[(i + 1) & 1]);
            __m128i tw[LANES];
            UNROLL_LANES
            for (unsigned j = 0; j < LANES; j++)
                tw[j] = _mm_load_si128((const __m128i *)(const void *)&ring[i & 1][j]);
            xts_blocks(rk, nr, decrypt, tw, out, in, LANES);
        }
        hwc_wipe(ring, sizeof ring);
    }
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (nblocks -= batches * LANES; nblocks != 0; nblocks--, in += 16, out += 16) {
        const __m128i tw = xts_tweak_vector(&t);
        xts_blocks(rk, nr, decrypt, &tw, out, in, 1);
        xts_tweak_double(&t);
    }
    storeu(tweak, xts_tweak_vector(&t));
}

HWC_TARGET_AESNI void hwc_aesni_xts_enc(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                        size_t nblocks) {
    BY_ROUNDS(ks, xts_body, ks, 0, tweak, out, in, nblocks);
}

HWC_TARGET_AESNI void hwc_aesni_xts_dec(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                        size_t nblocks) {
    BY_ROUNDS(ks, xts_body, ks, 1, tweak, out, in, nblocks);
}

/* ----------------------------------------------------------------- OCB3 */

/* Offset_i = Offset_{i-1} ^ L[ntz(i)]; block indices are public and never 0,
 * so ntz is at most 63 and the table index does not depend on secrets. */
static inline __m128i ocb_next_offset(__m128i offset, const uint8_t (*L)[16], uint64_t index) {
    return _mm_xor_si128(offset, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index)]));
}

/* The running offset is kept XORed with the first round key (offk): the
 * block input is then one XOR, P ^ offk, and the last round key
 * (k_nr ^ k0) ^ offk. */
AESNI_INLINE void ocb_step(const __m128i *rk, unsigned nr, int decrypt, const uint8_t (*L)[16], uint64_t *index,
                           __m128i *offk, __m128i *checksum, uint8_t *out, const uint8_t *in, size_t n) {
    const __m128i last_k0 = _mm_xor_si128(_mm_load_si128(rk + nr), _mm_load_si128(rk));
    __m128i b[LANES], last[LANES];
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        *offk = ocb_next_offset(*offk, L, (*index)++);
        last[j] = _mm_xor_si128(last_k0, *offk);
        b[j] = loadu(in + 16 * j);
        if (!decrypt)
            *checksum = _mm_xor_si128(*checksum, b[j]);
        b[j] = _mm_xor_si128(b[j], *offk);
    }
    finish_blocks(b, n, rk, nr, decrypt, last);
    UNROLL_LANES
    for (size_t j = 0; j < n; j++) {
        if (decrypt)
            *checksum = _mm_xor_si128(*checksum, b[j]);
        storeu(out + 16 * j, b[j]);
    }
}

AESNI_INLINE void ocb_body(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                           uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    const __m128i k0 = _mm_load_si128(rk);
    __m128i offk = _mm_xor_si128(loadu(offset), k0), sum = loadu(checksum);
    for (; nblocks >= LANES; nblocks -= LANES, in += 16 * LANES, out += 16 * LANES)
        ocb_step(rk, nr, decrypt, L, &index, &offk, &sum, out, in, LANES);
    /* Tail: one block per step; the CPU overlaps the independent ones. */
    for (; nblocks != 0; nblocks--, in += 16, out += 16)
        ocb_step(rk, nr, decrypt, L, &index, &offk, &sum, out, in, 1);
    storeu(offset, _mm_xor_si128(offk, k0));
    storeu(checksum, sum);
}

HWC_TARGET_AESNI void hwc_aesni_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                                        uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                        size_t nblocks) {
    BY_ROUNDS(ks, ocb_body, ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

HWC_TARGET_AESNI void hwc_aesni_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
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
        crypt_blocks(b, LANES, rk, nr, data, 0);
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
    .ecb_enc = hwc_aesni_ecb_enc,
    .ecb_dec = hwc_aesni_ecb_dec,
    .cbc_enc = hwc_aesni_cbc_enc,
    .cbc_dec = hwc_aesni_cbc_dec,
    .cfb_enc = hwc_aesni_cfb_enc,
    .cfb_dec = hwc_aesni_cfb_dec,
    .ofb = hwc_aesni_ofb,
    .ctr128 = hwc_aesni_ctr128,
    .ctr32 = hwc_aesni_ctr32,
    .xts_enc = hwc_aesni_xts_enc,
    .xts_dec = hwc_aesni_xts_dec,
    .cbc_mac = hwc_aesni_cbc_mac,
    .ocb_enc = hwc_aesni_ocb_enc,
    .ocb_dec = hwc_aesni_ocb_dec,
    .gcm_enc = aesni_gcm_enc,
    .gcm_dec = aesni_gcm_dec,
    .ccm_enc = hwc_aesni_ccm_enc,
    .ccm_dec = hwc_aesni_ccm_dec,
};

const hwc_block_impl *hwc_aes_aesni_get(void) {
    return &aes_aesni_impl;
}

#endif /* __x86_64__ */
