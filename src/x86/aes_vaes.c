/*
 * AES with VAES and VPCLMULQDQ on 256-bit registers (back end "vaes"),
 * GHASH from the "vpclmul" back end.
 *
 * Speed model: VAESENC on a 256-bit register runs two independent blocks
 * for the price of one AESENC (both issue twice per cycle here, latency
 * about four), so eight registers (sixteen blocks) keep the units busy and
 * every parallel mode runs batches of sixteen blocks in eight registers.
 * What does not fill a batch (short inputs, the tail of a long one) and
 * the inherently serial modes (CBC/CFB encryption, OFB, CBC-MAC) go to the
 * 128-bit "aesni" kernels: the serial ones are latency-bound whatever the
 * register width, and below sixteen blocks the 128-bit kernels measured as
 * fast (eight blocks in flight already fill the units for 8..15 blocks),
 * while one 256-bit batch of sixteen runs 1.7-2.3x faster than them. So the
 * hand-over threshold is one batch; the entry points do nothing else for
 * short inputs (the 256-bit bodies are out of line).
 *
 * The key schedule is the AES-NI one (x86_internal.h, hwc_aesni_set_key):
 * each round key is broadcast to both lanes as it is used; the schedule
 * also records the 128-bit back end's table. As in the aesni back end, an
 * XOR applied right after the cipher (CTR data, XTS/OCB offsets, CBC
 * chaining) is folded into the last round key.
 *
 * Counters, tweaks and offsets for a batch are computed in vector registers:
 *   - CTR: the counter byte-reversed is a little-endian integer; lanes get
 *     +0/+1 and register m gets +2m (PADDD for CTR32, PADDQ for CTR128 when
 *     the low 64 bits cannot carry within the batch, else the batch goes to
 *     the 128-bit code). GCM counts on the big-endian counter's last byte
 *     directly while it does not wrap within the batch.
 *   - XTS: register m holds the tweaks of blocks 2m and 2m+1; each batch
 *     multiplies every register by alpha^16 (a two-byte lane rotation and
 *     one carry-less multiply folding back the 16 bits that left the top),
 *     so no tweak waits on another.
 *   - OCB: in a batch starting at a block index i = 16q + 1, Offset_{i-1+j}
 *     = Offset_{i-1} ^ R_j with R_j the XOR of L[ntz(1..j)] for j < 16 (the
 *     same for every batch), and the sixteenth adds L[ntz(16(q+1))]. Input
 *     not starting on such an index first goes 128-bit up to the next one.
 *
 * GCM: CTR32 encryption of sixteen blocks interleaved with GHASH of sixteen
 * ciphertext blocks (the previous batch when encrypting, the current one
 * when decrypting) on 256-bit lanes, one reduction per batch, reading the
 * key layout of ghash_vpclmul.c.
 *
 * Constant time: VAES, VPCLMULQDQ and the vector ALU have no data-dependent
 * timing; branches and table indices depend on lengths, the public
 * counter's carry positions (CTR128, GCM) and OCB block indices only.
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define HWC_TARGET_VAES __attribute__((target("vaes,vpclmulqdq,avx2,aes,pclmul,ssse3,sse4.1")))
#define VAES_INLINE HWC_X86_INLINE HWC_TARGET_VAES
/* The 256-bit bodies stay out of line, so that the entry points, which hand
 * short inputs to the 128-bit kernels, do no more than that for them. */
#define VAES_NOINLINE __attribute__((noinline))

#define WIDE 8              /* 256-bit registers in flight */
#define BATCH (2 * WIDE)    /* blocks per batch */
#define BATCH_BYTES (16 * BATCH)

/* The key schedule: the AES-NI one, followed by the table of the 128-bit
 * kernels that take short inputs, tails and the serial modes (kept in the
 * schedule so that handing over is one load and a jump). */
typedef struct vaes_schedule {
    aesni_schedule aesni;
    const hwc_block_impl *narrow;
} vaes_schedule;

_Static_assert(sizeof(vaes_schedule) <= HWC_KS_BYTES, "VAES schedule must fit in hwc_ks");

static void vaes_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    const hwc_block_impl *narrow_impl = hwc_aes_aesni_get();
    hwc_aesni_set_key(ks, key, key_len, want_dec);
    memcpy(ks->bytes + offsetof(vaes_schedule, narrow), &narrow_impl, sizeof narrow_impl);
}

static inline const hwc_block_impl *narrow_of(const hwc_ks *ks) {
    const hwc_block_impl *narrow_impl;
    memcpy(&narrow_impl, ks->bytes + offsetof(vaes_schedule, narrow), sizeof narrow_impl);
    return narrow_impl;
}

VAES_INLINE __m256i loadu2(const uint8_t *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
VAES_INLINE void storeu2(uint8_t *p, __m256i v) {
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}
VAES_INLINE __m128i loadu1(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
VAES_INLINE void storeu1(uint8_t *p, __m128i v) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* Round key r in both lanes. */
VAES_INLINE __m256i round_key(const __m128i *rk, unsigned r) {
    return _mm256_broadcastsi128_si256(_mm_load_si128(rk + r));
}

/* A 256-bit register from two 128-bit blocks (lo = the earlier block). */
VAES_INLINE __m256i join(__m128i lo, __m128i hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

VAES_INLINE __m256i byteswap_lanes(void) {
    return _mm256_broadcastsi128_si256(pclmul_byteswap_mask());
}

/* -------------------------------------------------------- block engine */

/* b[j] = E(b[j]) ^ post[j] (post may be NULL), j < WIDE. */
VAES_INLINE void encrypt_wide(__m256i b[WIDE], const __m128i *rk, unsigned nr, const __m256i *post) {
    const __m256i first = round_key(rk, 0);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm256_xor_si256(b[j], first);
    for (unsigned r = 1; r < nr; r++) {
        const __m256i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm256_aesenc_epi128(b[j], k);
    }
    const __m256i last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm256_aesenclast_epi128(b[j], post ? _mm256_xor_si256(last, post[j]) : last);
}

VAES_INLINE void decrypt_wide(__m256i b[WIDE], const __m128i *rk, unsigned nr, const __m256i *post) {
    const __m256i first = round_key(rk, 0);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm256_xor_si256(b[j], first);
    for (unsigned r = 1; r < nr; r++) {
        const __m256i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm256_aesdec_epi128(b[j], k);
    }
    const __m256i last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm256_aesdeclast_epi128(b[j], post ? _mm256_xor_si256(last, post[j]) : last);
}

/* Instantiate BODY(..., nr) for the key's round count, so round loops run
 * with a constant trip count. */
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

VAES_INLINE void ecb_body(const hwc_ks *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t nbatches,
                          unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m256i b[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = loadu2(in + 32 * j);
        if (decrypt)
            decrypt_wide(b, rk, nr, NULL);
        else
            encrypt_wide(b, rk, nr, NULL);
        for (unsigned j = 0; j < WIDE; j++)
            storeu2(out + 32 * j, b[j]);
    }
}

static HWC_TARGET_VAES VAES_NOINLINE void ecb_enc_batches(const hwc_ks *ks, uint8_t *out, const uint8_t *in,
                                                         size_t nbatches) {
    BY_ROUNDS(ks, ecb_body, ks, 0, out, in, nbatches);
}

static void vaes_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ecb_enc_batches(ks, out, in, wide);
    if (nblocks % BATCH != 0)
        narrow_of(ks)->ecb_enc(ks, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

static HWC_TARGET_VAES VAES_NOINLINE void ecb_dec_batches(const hwc_ks *ks, uint8_t *out, const uint8_t *in,
                                                         size_t nbatches) {
    BY_ROUNDS(ks, ecb_body, ks, 1, out, in, nbatches);
}

static void vaes_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ecb_dec_batches(ks, out, in, wide);
    if (nblocks % BATCH != 0)
        narrow_of(ks)->ecb_dec(ks, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ------------------------------------------------------------------ CTR */

/* One batch of CTR: counters[j] are byte-reversed counter pairs. */
VAES_INLINE void ctr_batch(const __m128i *rk, unsigned nr, const __m256i counters[WIDE], uint8_t *out,
                           const uint8_t *in) {
    const __m256i bswap = byteswap_lanes();
    __m256i b[WIDE], data[WIDE];
    for (unsigned j = 0; j < WIDE; j++) {
        b[j] = _mm256_shuffle_epi8(counters[j], bswap);
        data[j] = loadu2(in + 32 * j);
    }
    encrypt_wide(b, rk, nr, data);
    for (unsigned j = 0; j < WIDE; j++)
        storeu2(out + 32 * j, b[j]);
}

/* CTR32: PADDD on the low 32-bit lane of the byte-reversed counter is the
 * increment mod 2^32. */
VAES_INLINE void ctr32_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                            unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = pclmul_byteswap_mask();
    __m256i base = _mm256_add_epi32(_mm256_broadcastsi128_si256(_mm_shuffle_epi8(loadu1(ctr), bswap)),
                                    _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m256i counters[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            counters[j] = _mm256_add_epi32(base, _mm256_set_epi32(0, 0, 0, (int)(2 * j), 0, 0, 0, (int)(2 * j)));
        base = _mm256_add_epi32(base, _mm256_set_epi32(0, 0, 0, BATCH, 0, 0, 0, BATCH));
        ctr_batch(rk, nr, counters, out, in);
    }
    storeu1(ctr, _mm_shuffle_epi8(_mm256_castsi256_si128(base), bswap));
}

static HWC_TARGET_VAES VAES_NOINLINE void ctr32_batches(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                                                       const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, ctr32_body, ks, ctr, out, in, nbatches);
}

static void vaes_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                       size_t nblocks) {
    if (nblocks < BATCH) {
        hwc_aesni_ctr32(ks, ctr, out, in, nblocks); /* short: no hand-over chain */
        return;
    }
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ctr32_batches(ks, ctr, out, in, wide);
    if (nblocks % BATCH != 0)
        k_ctr32(narrow_of(ks), ks, ctr, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* CTR128: a batch whose low 64 bits cannot carry runs on PADDQ; the rare
 * batch where they do (once per 2^64 blocks) goes to the 128-bit code. The
 * counter is public, so branching on it is fine. */
VAES_INLINE void ctr128_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                             unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        if (lo > UINT64_MAX - (BATCH - 1)) {
            hwc_store_be64(ctr, hi);
            hwc_store_be64(ctr + 8, lo);
            k_ctr128(narrow_of(ks), ks, ctr, out, in, BATCH);
            hi = hwc_load_be64(ctr);
            lo = hwc_load_be64(ctr + 8);
            continue;
        }
        const __m256i base = _mm256_set_epi64x((long long)hi, (long long)(lo + 1), (long long)hi, (long long)lo);
        __m256i counters[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            counters[j] = _mm256_add_epi64(base, _mm256_set_epi64x(0, 2 * j, 0, 2 * j));
        ctr_batch(rk, nr, counters, out, in);
        lo += BATCH;
        hi += (lo < BATCH); /* carry out of the low half */
    }
    hwc_store_be64(ctr, hi);
    hwc_store_be64(ctr + 8, lo);
}

static HWC_TARGET_VAES VAES_NOINLINE void ctr128_batches(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                                                        const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, ctr128_body, ks, ctr, out, in, nbatches);
}

static void vaes_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                        size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ctr128_batches(ks, ctr, out, in, wide);
    if (nblocks % BATCH != 0)
        k_ctr128(narrow_of(ks), ks, ctr, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ---------------------------------------------------------- CBC, CFB */

/* P_j = D(C_j) ^ C_{j-1}. Register j holds C_{2j}, C_{2j+1}; its chaining
 * pair C_{2j-1}, C_{2j} is one unaligned load 16 bytes earlier (IV and C_0
 * for j = 0). All loads come before the stores, so out == in works. */
VAES_INLINE void cbc_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                              unsigned nr) {
    const __m128i *rk = aesni_dec_keys(ks);
    __m128i chain = loadu1(iv);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m256i b[WIDE], prev[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = loadu2(in + 32 * j);
        prev[0] = join(chain, _mm256_castsi256_si128(b[0]));
        for (unsigned j = 1; j < WIDE; j++)
            prev[j] = loadu2(in + 32 * j - 16);
        chain = _mm256_extracti128_si256(b[WIDE - 1], 1);
        decrypt_wide(b, rk, nr, prev);
        for (unsigned j = 0; j < WIDE; j++)
            storeu2(out + 32 * j, b[j]);
    }
    storeu1(iv, chain);
}

static HWC_TARGET_VAES VAES_NOINLINE void cbc_dec_batches(const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                                                         const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, cbc_dec_body, ks, iv, out, in, nbatches);
}

static void vaes_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        cbc_dec_batches(ks, iv, out, in, wide);
    if (nblocks % BATCH != 0)
        k_cbc_dec(narrow_of(ks), ks, iv, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* P_j = E(C_{j-1}) ^ C_j: the cipher inputs are the IV and C_0..C_14, each
 * register one unaligned load 16 bytes back. */
VAES_INLINE void cfb_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                              unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    __m128i chain = loadu1(iv);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m256i b[WIDE], cipher[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            cipher[j] = loadu2(in + 32 * j);
        b[0] = join(chain, _mm256_castsi256_si128(cipher[0]));
        for (unsigned j = 1; j < WIDE; j++)
            b[j] = loadu2(in + 32 * j - 16);
        chain = _mm256_extracti128_si256(cipher[WIDE - 1], 1);
        encrypt_wide(b, rk, nr, cipher);
        for (unsigned j = 0; j < WIDE; j++)
            storeu2(out + 32 * j, b[j]);
    }
    storeu1(iv, chain);
}

static HWC_TARGET_VAES VAES_NOINLINE void cfb_dec_batches(const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                                                         const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, cfb_dec_body, ks, iv, out, in, nbatches);
}

static void vaes_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        cfb_dec_batches(ks, iv, out, in, wide);
    if (nblocks % BATCH != 0)
        k_cfb_dec(narrow_of(ks), ks, iv, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* Serial modes (CBC/CFB encryption, OFB, CBC-MAC, CCM's MAC chain): each
 * block needs the previous one's output, so register width does not help.
 * The table points straight at the 128-bit kernels (same key layout), so
 * these calls pay no hand-over. */

/* ------------------------------------------------------------------ XTS */

/* Each lane times alpha^16: rotate the lane left by two bytes, which is
 * the 16-bit shift with the 16 bits c leaving the top already back at the
 * bottom; the result needs c * 0x87 there instead of c, so XOR in the
 * carry-less product c * 0x86 (below 2^23). */
VAES_INLINE __m256i xts_mul_alpha16(__m256i t) {
    const __m256i poly = _mm256_set_epi64x(0, 0x86, 0, 0x86);
    const __m256i low16 = _mm256_set_epi64x(0, 0xffff, 0, 0xffff);
    const __m256i rotated = _mm256_alignr_epi8(t, t, 14);
    return _mm256_xor_si256(rotated, _mm256_clmulepi64_epi128(_mm256_and_si256(rotated, low16), poly, 0x00));
}

/* Each lane times alpha^k, 0 < k <= 8: a k-bit shift across the lane's
 * halves; the k bits leaving the top fold back as their carry-less product
 * with 0x87 (below 2^16). For the first batch only. */
VAES_INLINE __m256i xts_mul_alpha_k(__m256i t, int k) {
    const __m256i poly = _mm256_set_epi64x(0, 0x87, 0, 0x87);
    const __m256i up = _mm256_sll_epi64(t, _mm_cvtsi32_si128(k));
    const __m256i carry = _mm256_srl_epi64(t, _mm_cvtsi32_si128(64 - k)); /* bits leaving each half */
    return _mm256_xor_si256(_mm256_xor_si256(up, _mm256_slli_si256(carry, 8)),
                            _mm256_clmulepi64_epi128(carry, poly, 0x01));
}

/* Register j holds the tweaks of blocks 2j and 2j+1 of the batch; each
 * batch advances every register by alpha^16, so no tweak waits on another.
 * The first batch's registers come from (T, T*alpha) in two steps: times
 * alpha^2, ^4, ^6, then those four times alpha^8. */
VAES_INLINE void xts_body(const hwc_ks *ks, int decrypt, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                          size_t nbatches, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    __m256i tweaks[WIDE];
    const __m128i t = loadu1(tweak);
    tweaks[0] = join(t, _mm256_castsi256_si128(xts_mul_alpha_k(_mm256_zextsi128_si256(t), 1)));
    for (unsigned j = 1; j < WIDE / 2; j++)
        tweaks[j] = xts_mul_alpha_k(tweaks[0], (int)(2 * j));
    for (unsigned j = WIDE / 2; j < WIDE; j++)
        tweaks[j] = xts_mul_alpha_k(tweaks[j - WIDE / 2], WIDE);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m256i b[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm256_xor_si256(loadu2(in + 32 * j), tweaks[j]);
        if (decrypt)
            decrypt_wide(b, rk, nr, tweaks);
        else
            encrypt_wide(b, rk, nr, tweaks);
        for (unsigned j = 0; j < WIDE; j++) {
            storeu2(out + 32 * j, b[j]);
            tweaks[j] = xts_mul_alpha16(tweaks[j]);
        }
    }
    storeu1(tweak, _mm256_castsi256_si128(tweaks[0]));
}

static HWC_TARGET_VAES VAES_NOINLINE void xts_enc_batches(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                                                         const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, xts_body, ks, 0, tweak, out, in, nbatches);
}

static void vaes_xts_enc(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        xts_enc_batches(ks, tweak, out, in, wide);
    if (nblocks % BATCH != 0)
        k_xts_enc(narrow_of(ks), ks, tweak, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

static HWC_TARGET_VAES VAES_NOINLINE void xts_dec_batches(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                                                         const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, xts_body, ks, 1, tweak, out, in, nbatches);
}

static void vaes_xts_dec(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        xts_dec_batches(ks, tweak, out, in, wide);
    if (nblocks % BATCH != 0)
        k_xts_dec(narrow_of(ks), ks, tweak, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ----------------------------------------------------------------- OCB3 */

/* Offsets of a batch relative to the offset before it, for a batch whose
 * first block index is 1 mod 16: rel[j] holds R_{2j+1}, R_{2j+2} with
 * R_i = L[ntz(1)] ^ ... ^ L[ntz(i)], for j < WIDE - 1. The last register
 * (R_15, R_16) depends on the batch, since ntz(16(q+1)) does. */
typedef struct ocb_rel {
    __m256i rel[WIDE - 1];
    __m128i r15;
} ocb_rel;

VAES_INLINE void ocb_rel_init(ocb_rel *t, const uint8_t (*L)[16]) {
    __m128i r = _mm_setzero_si128(), prev = r;
    for (unsigned i = 1; i < BATCH; i++) {
        r = _mm_xor_si128(r, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctz(i)]));
        if (i % 2 == 0)
            t->rel[i / 2 - 1] = join(prev, r);
        prev = r;
    }
    t->r15 = r;
}

VAES_INLINE void ocb_body(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, __m128i *offset,
                          __m256i *checksum, uint8_t *out, const uint8_t *in, size_t nbatches, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    ocb_rel rel;
    ocb_rel_init(&rel, L);
    __m256i sum = *checksum;
    __m128i off = *offset;
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, index += BATCH) {
        /* Index of the batch's last block: a multiple of 16, public. */
        const __m128i l_last = _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index + BATCH - 1)]);
        const __m256i base = _mm256_broadcastsi128_si256(off);
        __m256i b[WIDE], offsets[WIDE];
        for (unsigned j = 0; j < WIDE - 1; j++)
            offsets[j] = _mm256_xor_si256(base, rel.rel[j]);
        off = _mm_xor_si128(_mm_xor_si128(off, rel.r15), l_last);
        offsets[WIDE - 1] = join(_mm_xor_si128(_mm256_castsi256_si128(base), rel.r15), off);
        for (unsigned j = 0; j < WIDE; j++) {
            b[j] = loadu2(in + 32 * j);
            if (!decrypt)
                sum = _mm256_xor_si256(sum, b[j]);
            b[j] = _mm256_xor_si256(b[j], offsets[j]);
        }
        if (decrypt) {
            decrypt_wide(b, rk, nr, offsets);
            for (unsigned j = 0; j < WIDE; j++)
                sum = _mm256_xor_si256(sum, b[j]);
        } else {
            encrypt_wide(b, rk, nr, offsets);
        }
        for (unsigned j = 0; j < WIDE; j++)
            storeu2(out + 32 * j, b[j]);
    }
    *offset = off;
    *checksum = sum;
}

static HWC_TARGET_VAES VAES_NOINLINE void ocb_batches(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16],
                                                     uint64_t index, uint8_t offset[16], uint8_t checksum[16],
                                                     uint8_t *out, const uint8_t *in, size_t nbatches) {
    __m128i off = loadu1(offset);
    __m256i sum = _mm256_zextsi128_si256(loadu1(checksum));
    BY_ROUNDS(ks, ocb_body, ks, decrypt, L, index, &off, &sum, out, in, nbatches);
    storeu1(offset, off);
    storeu1(checksum, _mm_xor_si128(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1)));
}

static void ocb_narrow(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                       uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (decrypt)
        k_ocb_dec(narrow_of(ks), ks, L, index, offset, checksum, out, in, nblocks);
    else
        k_ocb_enc(narrow_of(ks), ks, L, index, offset, checksum, out, in, nblocks);
}

static void vaes_ocb(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                     uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    /* 128-bit up to the next index that is 1 mod 16. */
    size_t lead = (size_t)((BATCH + 1 - index % BATCH) % BATCH);
    if (lead > nblocks)
        lead = nblocks;
    const size_t wide = (nblocks - lead) / BATCH;
    if (wide == 0) {
        ocb_narrow(ks, decrypt, L, index, offset, checksum, out, in, nblocks);
        return;
    }
    if (lead != 0) {
        ocb_narrow(ks, decrypt, L, index, offset, checksum, out, in, lead);
        index += lead;
        in += 16 * lead;
        out += 16 * lead;
        nblocks -= lead;
    }
    ocb_batches(ks, decrypt, L, index, offset, checksum, out, in, wide);
    index += wide * BATCH;
    in += wide * BATCH_BYTES;
    out += wide * BATCH_BYTES;
    nblocks -= wide * BATCH;
    if (nblocks != 0)
        ocb_narrow(ks, decrypt, L, index, offset, checksum, out, in, nblocks);
}

static void vaes_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                         uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    vaes_ocb(ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static void vaes_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                         uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    vaes_ocb(ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* ------------------------------------------------------------------ GCM */

/* The key layout of the "vpclmul" GHASH back end (ghash_vpclmul.c, which
 * defines and documents it; the two must stay identical): pair[m] holds
 * H^(16-2m) and H^(15-2m), the powers for blocks 2m and 2m+1 of a batch,
 * and karatsuba[m] their hi ^ lo halves. */
typedef struct vpclmul_ghash_key {
    alignas(32) uint8_t pair[WIDE][32];
    alignas(32) uint8_t karatsuba[WIDE][32];
} vpclmul_ghash_key;

_Static_assert(sizeof(vpclmul_ghash_key) <= HWC_GHASH_KEY_BYTES, "VPCLMUL GHASH key must fit in hwc_ghash_key");

/* An unreduced sum of 256-bit products, two lanes of Karatsuba parts. */
typedef struct clmul_acc256 {
    __m256i lo, mid, hi;
} clmul_acc256;

/* acc += x * key pair m, x a pair of blocks already in the POLYVAL domain. */
VAES_INLINE void ghash_pair(clmul_acc256 *acc, __m256i x, const hwc_ghash_key *hk, unsigned m) {
    const uint8_t *pair = hk->bytes + offsetof(vpclmul_ghash_key, pair) + 32 * m;
    const uint8_t *karatsuba = hk->bytes + offsetof(vpclmul_ghash_key, karatsuba) + 32 * m;
    const __m256i h = _mm256_load_si256((const __m256i *)(const void *)pair);
    const __m256i h_mid = _mm256_load_si256((const __m256i *)(const void *)karatsuba);
    acc->lo = _mm256_xor_si256(acc->lo, _mm256_clmulepi64_epi128(x, h, 0x00));
    acc->hi = _mm256_xor_si256(acc->hi, _mm256_clmulepi64_epi128(x, h, 0x11));
    acc->mid = _mm256_xor_si256(
        acc->mid, _mm256_clmulepi64_epi128(_mm256_xor_si256(x, _mm256_shuffle_epi32(x, 0x4e)), h_mid, 0x00));
}

VAES_INLINE void acc_zero(clmul_acc256 *acc) {
    acc->lo = acc->mid = acc->hi = _mm256_setzero_si256();
}

/* Register m of a batch of ciphertext into the GHASH sum; the state joins
 * the first block. */
VAES_INLINE void ghash_batch_part(clmul_acc256 *acc, const hwc_ghash_key *hk, __m128i state, const uint8_t *blocks,
                                  unsigned m) {
    __m256i x = _mm256_shuffle_epi8(loadu2(blocks + 32 * m), byteswap_lanes());
    if (m == 0)
        x = _mm256_xor_si256(x, _mm256_zextsi128_si256(state));
    ghash_pair(acc, x, hk, m);
}

VAES_INLINE __m128i ghash_reduce(const clmul_acc256 *acc) {
    clmul_acc r;
    r.lo = _mm_xor_si128(_mm256_castsi256_si128(acc->lo), _mm256_extracti128_si256(acc->lo, 1));
    r.mid = _mm_xor_si128(_mm256_castsi256_si128(acc->mid), _mm256_extracti128_si256(acc->mid, 1));
    r.hi = _mm_xor_si128(_mm256_castsi256_si128(acc->hi), _mm256_extracti128_si256(acc->hi, 1));
    return clmul_acc_reduce(&r);
}

/* The sixteen counter blocks of a batch, whitened with round key 0. The
 * counter is kept big-endian: while its last byte does not wrap within the
 * batch (15 batches in 16), PADDD on that byte's position counts directly,
 * with no byte swap. Otherwise the batch counts on the byte-reversed
 * integer. The counter is public, so branching on it is fine. */
VAES_INLINE void gcm_counters(__m256i b[WIDE], __m256i prefix, uint32_t counter, __m256i first) {
    const __m256i low_word = _mm256_set1_epi32((int)__builtin_bswap32(counter));
    const __m256i base = _mm256_blend_epi32(prefix, low_word, 0x88); /* last word of each lane */
    if ((counter & 0xff) <= 0x100 - BATCH) {
        for (unsigned j = 0; j < WIDE; j++) {
            const int lo = (int)((2 * j) << 24), hi = (int)((2 * j + 1) << 24);
            b[j] = _mm256_xor_si256(_mm256_add_epi32(base, _mm256_set_epi32(hi, 0, 0, 0, lo, 0, 0, 0)), first);
        }
    } else {
        const __m256i bswap = byteswap_lanes();
        const __m256i reversed = _mm256_shuffle_epi8(base, bswap);
        for (unsigned j = 0; j < WIDE; j++) {
            const __m256i step = _mm256_set_epi32(0, 0, 0, (int)(2 * j + 1), 0, 0, 0, (int)(2 * j));
            const __m256i c = _mm256_add_epi32(reversed, step);
            b[j] = _mm256_xor_si256(_mm256_shuffle_epi8(c, bswap), first);
        }
    }
}

/* One batch: CTR32 encryption of sixteen blocks (in -> out) with GHASH of
 * the sixteen blocks at hash_in (or none) spread over rounds 1..8. Returns
 * the new GHASH state (POLYVAL domain). */
VAES_INLINE __m128i gcm_batch(const __m128i *rk, unsigned nr, const hwc_ghash_key *hk, __m256i prefix,
                              uint32_t counter, __m128i state, const uint8_t *hash_in, uint8_t *out,
                              const uint8_t *in) {
    __m256i b[WIDE];
    clmul_acc256 acc;
    acc_zero(&acc);
    gcm_counters(b, prefix, counter, round_key(rk, 0));
    /* nr >= 10, so rounds 1..8 each carry one register of GHASH work. */
    for (unsigned r = 1; r <= WIDE; r++) {
        const __m256i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm256_aesenc_epi128(b[j], k);
        if (hash_in)
            ghash_batch_part(&acc, hk, state, hash_in, r - 1);
    }
    for (unsigned r = WIDE + 1; r < nr; r++) {
        const __m256i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm256_aesenc_epi128(b[j], k);
    }
    const __m256i last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm256_aesenclast_epi128(b[j], _mm256_xor_si256(last, loadu2(in + 32 * j)));
    for (unsigned j = 0; j < WIDE; j++)
        storeu2(out + 32 * j, b[j]);
    return hash_in ? ghash_reduce(&acc) : state;
}

/* GHASH of one batch alone (the last ciphertext of an encryption). */
VAES_INLINE __m128i ghash_batch(const hwc_ghash_key *hk, __m128i state, const uint8_t *blocks) {
    clmul_acc256 acc;
    acc_zero(&acc);
    for (unsigned m = 0; m < WIDE; m++)
        ghash_batch_part(&acc, hk, state, blocks, m);
    return ghash_reduce(&acc);
}

VAES_INLINE void gcm_body(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                          uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nbatches, unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = pclmul_byteswap_mask();
    const __m256i prefix = _mm256_broadcastsi128_si256(loadu1(ctr));
    uint32_t counter = hwc_load_be32(ctr + 12);
    __m128i state = _mm_shuffle_epi8(loadu1(ghash_state), bswap);
    if (decrypt) {
        /* GHASH reads each batch's ciphertext before CTR overwrites it. */
        for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, counter += BATCH)
            state = gcm_batch(rk, nr, hk, prefix, counter, state, in, out, in);
    } else {
        /* Encryption hashes the previous batch's output while making the
         * next one; the last batch is hashed alone. */
        state = gcm_batch(rk, nr, hk, prefix, counter, state, NULL, out, in);
        counter += BATCH;
        for (nbatches--; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, counter += BATCH)
            state = gcm_batch(rk, nr, hk, prefix, counter, state, out, out + BATCH_BYTES, in + BATCH_BYTES);
        state = ghash_batch(hk, state, out);
    }
    hwc_store_be32(ctr + 12, counter);
    storeu1(ghash_state, _mm_shuffle_epi8(state, bswap));
}

static HWC_TARGET_VAES VAES_NOINLINE void gcm_batches(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt,
                                                     uint8_t ctr[16], uint8_t ghash_state[16], uint8_t *out,
                                                     const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, gcm_body, ks, hk, decrypt, ctr, ghash_state, out, in, nbatches);
}

/* Whole batches only; the mode finishes a tail with ctr32 and GHASH. */
static size_t vaes_gcm_enc(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        gcm_batches(ks, hk, 0, ctr, ghash_state, out, in, wide);
    return wide * BATCH;
}

static size_t vaes_gcm_dec(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        gcm_batches(ks, hk, 1, ctr, ghash_state, out, in, wide);
    return wide * BATCH;
}

/* ---------------------------------------------------------------- table */

static const hwc_block_impl aes_vaes_impl = {
    .name = "vaes",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_AESNI | HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_SSE41 | HWC_CAP_AVX2 | HWC_CAP_VAES |
                     HWC_CAP_VPCLMUL,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "vpclmul",
    .usable = NULL,
    .set_key = vaes_set_key,
    .ecb_enc = vaes_ecb_enc,
    .ecb_dec = vaes_ecb_dec,
    .cbc_enc = hwc_aesni_cbc_enc,
    .cbc_dec = vaes_cbc_dec,
    .cfb_enc = hwc_aesni_cfb_enc,
    .cfb_dec = vaes_cfb_dec,
    .ofb = hwc_aesni_ofb,
    .ctr128 = vaes_ctr128,
    .ctr32 = vaes_ctr32,
    .xts_enc = vaes_xts_enc,
    .xts_dec = vaes_xts_dec,
    .cbc_mac = hwc_aesni_cbc_mac,
    .ccm_enc = hwc_aesni_ccm_enc,
    .ccm_dec = hwc_aesni_ccm_dec,
    .ocb_enc = vaes_ocb_enc,
    .ocb_dec = vaes_ocb_dec,
    .gcm_enc = vaes_gcm_enc,
    .gcm_dec = vaes_gcm_dec,
};

const hwc_block_impl *hwc_aes_vaes_get(void) {
    return &aes_vaes_impl;
}

#endif /* __x86_64__ */
