/*
 * AES with VAES on 512-bit registers (back end "vaes512", AVX-512).
 *
 * Speed model: on this CPU a 512-bit VAESENC issues at the same rate as a
 * 256-bit one, so each instruction carries four blocks instead of two.
 * Eight registers (32 blocks) cover the latency, and every parallel mode
 * runs batches of 32 blocks. Everything else is handed to the "vaes"
 * back end through its public table: inputs below one batch, the tail of a
 * long one (vaes in turn hands its own short tails to "aesni"), and the
 * serial modes (CBC/CFB encryption, OFB, CBC-MAC, fused CCM), which are
 * latency-bound at any width: the table points at the aesni kernels
 * directly for those.
 *
 * The key schedule is the one "vaes" writes (its set_key: the AES-NI
 * schedule of x86_internal.h followed by its own hand-over pointer), so any
 * vaes kernel can run on our schedule. Round keys are broadcast to all four
 * lanes. As in the narrower back ends, an XOR applied right after the
 * cipher (CTR data, XTS/OCB offsets, CBC chaining) is folded into the last
 * round key.
 *
 * Per-batch values, computed in registers:
 *   - CTR: the byte-reversed counter is a little-endian integer; lane k of
 *     register m gets +4m+k (PADDD for CTR32; PADDQ for CTR128 when the low
 *     64 bits cannot carry within the batch, else that batch goes narrow).
 *   - XTS: register m holds the tweaks of blocks 4m..4m+3; each batch
 *     multiplies every register by alpha^32 (a four-byte lane rotation and
 *     one carry-less multiply folding back the 32 bits that left the top).
 *   - OCB: for a batch starting at index i = 32q + 1, Offset_{i-1+k} =
 *     Offset_{i-1} ^ R_k, R_k = L[ntz(1)] ^ ... ^ L[ntz(k)] for k < 32 (the
 *     same for every batch); block 32 adds L[ntz(32(q+1))]. Input not
 *     starting on such an index first goes narrow up to the next one.
 *
 * GCM: CTR32 encryption of 32 blocks interleaved with GHASH of 32
 * ciphertext blocks (the previous batch when encrypting, the current one
 * when decrypting) on 512-bit lanes, reading the key layout of
 * ghash_vpclmul.c. That key has sixteen powers of H; the sixteen more a
 * 32-block batch needs for one reduction are made per call (a fixed cost
 * of sixteen products, small next to a batch).
 *
 * Constant time: VAES, VPCLMULQDQ and the vector ALU have no data-dependent
 * timing; branches and table indices depend on lengths, the public
 * counter's carry positions (CTR128) and OCB block indices only.
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define HWC_TARGET_VAES512 \
    __attribute__((target("avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmul,avx2,ssse3,sse4.1")))
#define V512_INLINE HWC_X86_INLINE HWC_TARGET_VAES512
/* The 512-bit bodies stay out of line, so that the entry points do no more
 * than a call for inputs they hand over. */
#define V512_NOINLINE __attribute__((noinline))

#define WIDE 8              /* 512-bit registers in flight */
#define LANES 4             /* blocks per register */
#define BATCH (LANES * WIDE) /* blocks per batch */
#define BATCH_BYTES (16 * BATCH)

/* The narrower back end: takes short inputs, tails and the serial modes. */
static inline const hwc_block_impl *narrow(void) {
    return hwc_aes_vaes_get();
}

static void vaes512_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    narrow()->set_key(ks, key, key_len, want_dec);
}

V512_INLINE __m512i loadu4(const uint8_t *p) {
    return _mm512_loadu_si512((const void *)p);
}
V512_INLINE void storeu4(uint8_t *p, __m512i v) {
    _mm512_storeu_si512((void *)p, v);
}
V512_INLINE __m128i loadu1(const uint8_t *p) {
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}
V512_INLINE void storeu1(uint8_t *p, __m128i v) {
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* Round key r in all four lanes. */
V512_INLINE __m512i round_key(const __m128i *rk, unsigned r) {
    return _mm512_broadcast_i32x4(_mm_load_si128(rk + r));
}

V512_INLINE __m512i byteswap_lanes(void) {
    return _mm512_broadcast_i32x4(pclmul_byteswap_mask());
}

/* Lane 3 (the last block) of a register. */
V512_INLINE __m128i last_lane(__m512i v) {
    return _mm512_extracti32x4_epi32(v, 3);
}

/* XOR of the four lanes. */
V512_INLINE __m128i fold_lanes(__m512i v) {
    const __m256i half = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
}

/* -------------------------------------------------------- block engine */

/* b[j] = E(b[j]) ^ post[j] (post may be NULL), j < WIDE. */
V512_INLINE void encrypt_wide(__m512i b[WIDE], const __m128i *rk, unsigned nr, const __m512i *post) {
    const __m512i first = round_key(rk, 0);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm512_xor_si512(b[j], first);
    for (unsigned r = 1; r < nr; r++) {
        const __m512i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm512_aesenc_epi128(b[j], k);
    }
    const __m512i last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm512_aesenclast_epi128(b[j], post ? _mm512_xor_si512(last, post[j]) : last);
}

V512_INLINE void decrypt_wide(__m512i b[WIDE], const __m128i *rk, unsigned nr, const __m512i *post) {
    const __m512i first = round_key(rk, 0);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm512_xor_si512(b[j], first);
    for (unsigned r = 1; r < nr; r++) {
        const __m512i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm512_aesdec_epi128(b[j], k);
    }
    const __m512i last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm512_aesdeclast_epi128(b[j], post ? _mm512_xor_si512(last, post[j]) : last);
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

V512_INLINE void ecb_body(const hwc_ks *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t nbatches,
                          unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m512i b[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = loadu4(in + 64 * j);
        if (decrypt)
            decrypt_wide(b, rk, nr, NULL);
        else
            encrypt_wide(b, rk, nr, NULL);
        for (unsigned j = 0; j < WIDE; j++)
            storeu4(out + 64 * j, b[j]);
    }
}

static HWC_TARGET_VAES512 V512_NOINLINE void ecb_enc_batches(const hwc_ks *ks, uint8_t *out, const uint8_t *in,
                                                            size_t nbatches) {
    BY_ROUNDS(ks, ecb_body, ks, 0, out, in, nbatches);
}

static HWC_TARGET_VAES512 V512_NOINLINE void ecb_dec_batches(const hwc_ks *ks, uint8_t *out, const uint8_t *in,
                                                            size_t nbatches) {
    BY_ROUNDS(ks, ecb_body, ks, 1, out, in, nbatches);
}

static void vaes512_ecb_enc(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ecb_enc_batches(ks, out, in, wide);
    if (nblocks % BATCH != 0)
        narrow()->ecb_enc(ks, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

static void vaes512_ecb_dec(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ecb_dec_batches(ks, out, in, wide);
    if (nblocks % BATCH != 0)
        narrow()->ecb_dec(ks, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ------------------------------------------------------------------ CTR */

/* One batch of CTR: counters[j] are byte-reversed counters, four a register. */
V512_INLINE void ctr_batch(const __m128i *rk, unsigned nr, const __m512i counters[WIDE], uint8_t *out,
                           const uint8_t *in) {
    const __m512i bswap = byteswap_lanes();
    __m512i b[WIDE], data[WIDE];
    for (unsigned j = 0; j < WIDE; j++) {
        b[j] = _mm512_shuffle_epi8(counters[j], bswap);
        data[j] = loadu4(in + 64 * j);
    }
    encrypt_wide(b, rk, nr, data);
    for (unsigned j = 0; j < WIDE; j++)
        storeu4(out + 64 * j, b[j]);
}

/* n in the low 32-bit word of every lane, lane k holding n + k * step. */
V512_INLINE __m512i lane_words(int n, int step) {
    return _mm512_set_epi32(0, 0, 0, n + 3 * step, 0, 0, 0, n + 2 * step, 0, 0, 0, n + step, 0, 0, 0, n);
}

/* CTR32: PADDD on the low 32-bit word of the byte-reversed counter is the
 * increment mod 2^32. */
V512_INLINE void ctr32_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                            unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = pclmul_byteswap_mask();
    __m512i base = _mm512_add_epi32(_mm512_broadcast_i32x4(_mm_shuffle_epi8(loadu1(ctr), bswap)), lane_words(0, 1));
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m512i counters[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            counters[j] = _mm512_add_epi32(base, lane_words((int)(LANES * j), 0));
        base = _mm512_add_epi32(base, lane_words(BATCH, 0));
        ctr_batch(rk, nr, counters, out, in);
    }
    storeu1(ctr, _mm_shuffle_epi8(_mm512_castsi512_si128(base), bswap));
}

static HWC_TARGET_VAES512 V512_NOINLINE void ctr32_batches(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                                                          const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, ctr32_body, ks, ctr, out, in, nbatches);
}

static void vaes512_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks < BATCH / 2) {
        hwc_aesni_ctr32(ks, ctr, out, in, nblocks); /* below a vaes batch: straight to aesni */
        return;
    }
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ctr32_batches(ks, ctr, out, in, wide);
    if (nblocks % BATCH != 0)
        k_ctr32(narrow(), ks, ctr, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* CTR128: a batch whose low 64 bits cannot carry runs on PADDQ; the rare
 * batch where they do (once per 2^64 blocks) goes narrow. The counter is
 * public, so branching on it is fine. */
V512_INLINE void ctr128_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                             unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        if (lo > UINT64_MAX - (BATCH - 1)) {
            hwc_store_be64(ctr, hi);
            hwc_store_be64(ctr + 8, lo);
            k_ctr128(narrow(), ks, ctr, out, in, BATCH);
            hi = hwc_load_be64(ctr);
            lo = hwc_load_be64(ctr + 8);
            continue;
        }
        /* Add in uint64_t: lo + 3 may pass INT64_MAX (signed overflow is UB). */
        const long long h = (long long)hi;
        const __m512i base = _mm512_set_epi64(h, (long long)(lo + 3), h, (long long)(lo + 2), h, (long long)(lo + 1), h,
                                              (long long)lo);
        __m512i counters[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            counters[j] = _mm512_add_epi64(base, _mm512_set_epi64(0, LANES * j, 0, LANES * j, 0, LANES * j, 0,
                                                                  LANES * j));
        ctr_batch(rk, nr, counters, out, in);
        lo += BATCH;
        hi += (lo < BATCH); /* carry out of the low half */
    }
    hwc_store_be64(ctr, hi);
    hwc_store_be64(ctr + 8, lo);
}

static HWC_TARGET_VAES512 V512_NOINLINE void ctr128_batches(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                                                           const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, ctr128_body, ks, ctr, out, in, nbatches);
}

static void vaes512_ctr128(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        ctr128_batches(ks, ctr, out, in, wide);
    if (nblocks % BATCH != 0)
        k_ctr128(narrow(), ks, ctr, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ---------------------------------------------------------- CBC, CFB */

/* The chaining inputs of a batch: register j holds C_{4j-1}..C_{4j+2}, one
 * unaligned load 16 bytes back for j >= 1; for j = 0 it is the previous
 * chain block (lane 3 of `chain`) followed by C_0..C_2, one VALIGNQ. */
V512_INLINE void chain_inputs(__m512i prev[WIDE], __m512i chain, __m512i first, const uint8_t *in) {
    prev[0] = _mm512_alignr_epi64(first, chain, 6);
    for (unsigned j = 1; j < WIDE; j++)
        prev[j] = loadu4(in + 64 * j - 16);
}

/* P_j = D(C_j) ^ C_{j-1}. All loads come before the stores, so out == in
 * works. */
V512_INLINE void cbc_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                              unsigned nr) {
    const __m128i *rk = aesni_dec_keys(ks);
    __m512i chain = _mm512_broadcast_i32x4(loadu1(iv));
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m512i b[WIDE], prev[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = loadu4(in + 64 * j);
        chain_inputs(prev, chain, b[0], in);
        chain = b[WIDE - 1];
        decrypt_wide(b, rk, nr, prev);
        for (unsigned j = 0; j < WIDE; j++)
            storeu4(out + 64 * j, b[j]);
    }
    storeu1(iv, last_lane(chain));
}

static HWC_TARGET_VAES512 V512_NOINLINE void cbc_dec_batches(const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                                                            const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, cbc_dec_body, ks, iv, out, in, nbatches);
}

static void vaes512_cbc_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        cbc_dec_batches(ks, iv, out, in, wide);
    if (nblocks % BATCH != 0)
        k_cbc_dec(narrow(), ks, iv, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* P_j = E(C_{j-1}) ^ C_j: the same chaining inputs as CBC, encrypted. */
V512_INLINE void cfb_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                              unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    __m512i chain = _mm512_broadcast_i32x4(loadu1(iv));
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m512i b[WIDE], cipher[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            cipher[j] = loadu4(in + 64 * j);
        chain_inputs(b, chain, cipher[0], in);
        chain = cipher[WIDE - 1];
        encrypt_wide(b, rk, nr, cipher);
        for (unsigned j = 0; j < WIDE; j++)
            storeu4(out + 64 * j, b[j]);
    }
    storeu1(iv, last_lane(chain));
}

static HWC_TARGET_VAES512 V512_NOINLINE void cfb_dec_batches(const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                                                            const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, cfb_dec_body, ks, iv, out, in, nbatches);
}

static void vaes512_cfb_dec(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        cfb_dec_batches(ks, iv, out, in, wide);
    if (nblocks % BATCH != 0)
        k_cfb_dec(narrow(), ks, iv, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* Serial modes (CBC/CFB encryption, OFB, CBC-MAC, CCM's MAC chain): each
 * block needs the previous one's output, so register width does not help.
 * The table points straight at the 128-bit kernels (same key layout), so
 * these calls pay no hand-over. */

/* ------------------------------------------------------------------ XTS */

/* Each lane times alpha^32: rotate the lane left by four bytes, which is
 * the 32-bit shift with the 32 bits c leaving the top already back at the
 * bottom; the result needs c * 0x87 there instead of c, so XOR in the
 * carry-less product c * 0x86 (below 2^40). */
V512_INLINE __m512i xts_mul_alpha32(__m512i t) {
    const __m512i poly = _mm512_set_epi64(0, 0x86, 0, 0x86, 0, 0x86, 0, 0x86);
    const __m512i low32 = _mm512_set_epi64(0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff);
    const __m512i rotated = _mm512_alignr_epi8(t, t, 12);
    return _mm512_xor_si512(rotated, _mm512_clmulepi64_epi128(_mm512_and_si512(rotated, low32), poly, 0x00));
}

/* Each lane times alpha^k with k (0..8) given per 64-bit half in `k` (both
 * halves of a lane equal): a k-bit shift across the lane's halves; the k
 * bits leaving the top fold back as their carry-less product with 0x87
 * (below 2^16). A count of 0 leaves the lane as is (the right shift by 64
 * gives 0). For the first batch only. */
V512_INLINE __m512i xts_mul_alpha_k(__m512i t, __m512i k) {
    const __m512i poly = _mm512_set_epi64(0, 0x87, 0, 0x87, 0, 0x87, 0, 0x87);
    const __m512i up = _mm512_sllv_epi64(t, k);
    const __m512i carry = _mm512_srlv_epi64(t, _mm512_sub_epi64(_mm512_set1_epi64(64), k));
    return _mm512_xor_si512(_mm512_xor_si512(up, _mm512_bslli_epi128(carry, 8)),
                            _mm512_clmulepi64_epi128(carry, poly, 0x01));
}

/* Register j holds the tweaks of blocks 4j..4j+3 of the batch; each batch
 * advances every register by alpha^32, so no tweak waits on another. The
 * first batch: register 0 is T times alpha^0..3 (per-lane shift counts),
 * register 1 that times alpha^4, and register j register j-2 times alpha^8. */
V512_INLINE void xts_body(const hwc_ks *ks, int decrypt, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                          size_t nbatches, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    __m512i tweaks[WIDE];
    tweaks[0] = xts_mul_alpha_k(_mm512_broadcast_i32x4(loadu1(tweak)), _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0));
    tweaks[1] = xts_mul_alpha_k(tweaks[0], _mm512_set1_epi64(4));
    for (unsigned j = 2; j < WIDE; j++)
        tweaks[j] = xts_mul_alpha_k(tweaks[j - 2], _mm512_set1_epi64(8));
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        __m512i b[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm512_xor_si512(loadu4(in + 64 * j), tweaks[j]);
        if (decrypt)
            decrypt_wide(b, rk, nr, tweaks);
        else
            encrypt_wide(b, rk, nr, tweaks);
        for (unsigned j = 0; j < WIDE; j++) {
            storeu4(out + 64 * j, b[j]);
            tweaks[j] = xts_mul_alpha32(tweaks[j]);
        }
    }
    storeu1(tweak, _mm512_castsi512_si128(tweaks[0]));
}

static HWC_TARGET_VAES512 V512_NOINLINE void xts_enc_batches(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                                                            const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, xts_body, ks, 0, tweak, out, in, nbatches);
}

static HWC_TARGET_VAES512 V512_NOINLINE void xts_dec_batches(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                                                            const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, xts_body, ks, 1, tweak, out, in, nbatches);
}

static void vaes512_xts_enc(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        xts_enc_batches(ks, tweak, out, in, wide);
    if (nblocks % BATCH != 0)
        k_xts_enc(narrow(), ks, tweak, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

static void vaes512_xts_dec(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        xts_dec_batches(ks, tweak, out, in, wide);
    if (nblocks % BATCH != 0)
        k_xts_dec(narrow(), ks, tweak, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ----------------------------------------------------------------- OCB3 */

/* Offsets of a batch relative to the offset before it, for a batch whose
 * first block index is 1 mod 32: rel[j] holds R_{4j+1}..R_{4j+4} with
 * R_k = L[ntz(1)] ^ ... ^ L[ntz(k)]; in rel[WIDE-1] the last lane holds
 * R_31, since R_32 depends on the batch (ntz(32(q+1)) does). */
typedef struct ocb_rel {
    __m512i rel[WIDE];
    __m128i r31;
} ocb_rel;

V512_INLINE void ocb_rel_init(ocb_rel *t, const uint8_t (*L)[16]) {
    alignas(64) uint8_t r_all[BATCH][16];
    __m128i r = _mm_setzero_si128();
    for (unsigned k = 1; k < BATCH; k++) {
        r = _mm_xor_si128(r, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctz(k)]));
        _mm_store_si128((__m128i *)(void *)r_all[k - 1], r);
    }
    _mm_store_si128((__m128i *)(void *)r_all[BATCH - 1], r);
    for (unsigned j = 0; j < WIDE; j++)
        t->rel[j] = _mm512_load_si512((const void *)r_all[LANES * j]);
    t->r31 = r;
    hwc_wipe(r_all, sizeof r_all);
}

V512_INLINE void ocb_body(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, __m128i *offset,
                          __m512i *checksum, uint8_t *out, const uint8_t *in, size_t nbatches, unsigned nr) {
    const __m128i *rk = decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
    ocb_rel rel;
    ocb_rel_init(&rel, L);
    __m512i sum = *checksum;
    __m128i off = *offset;
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, index += BATCH) {
        /* Index of the batch's last block: a multiple of 32, public. */
        const __m128i l_last = _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index + BATCH - 1)]);
        const __m512i base = _mm512_broadcast_i32x4(off);
        __m512i b[WIDE], offsets[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            offsets[j] = _mm512_xor_si512(base, rel.rel[j]);
        /* Block 32 also takes L[ntz(32(q+1))]: lane 3 (64-bit elements 6, 7). */
        offsets[WIDE - 1] = _mm512_mask_xor_epi64(offsets[WIDE - 1], 0xC0, offsets[WIDE - 1],
                                                  _mm512_broadcast_i32x4(l_last));
        off = _mm_xor_si128(_mm_xor_si128(off, rel.r31), l_last);
        for (unsigned j = 0; j < WIDE; j++) {
            b[j] = loadu4(in + 64 * j);
            if (!decrypt)
                sum = _mm512_xor_si512(sum, b[j]);
            b[j] = _mm512_xor_si512(b[j], offsets[j]);
        }
        if (decrypt) {
            decrypt_wide(b, rk, nr, offsets);
            for (unsigned j = 0; j < WIDE; j++)
                sum = _mm512_xor_si512(sum, b[j]);
        } else {
            encrypt_wide(b, rk, nr, offsets);
        }
        for (unsigned j = 0; j < WIDE; j++)
            storeu4(out + 64 * j, b[j]);
    }
    *offset = off;
    *checksum = sum;
}

static HWC_TARGET_VAES512 V512_NOINLINE void ocb_batches(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16],
                                                        uint64_t index, uint8_t offset[16], uint8_t checksum[16],
                                                        uint8_t *out, const uint8_t *in, size_t nbatches) {
    __m128i off = loadu1(offset);
    __m512i sum = _mm512_zextsi128_si512(loadu1(checksum));
    BY_ROUNDS(ks, ocb_body, ks, decrypt, L, index, &off, &sum, out, in, nbatches);
    storeu1(offset, off);
    storeu1(checksum, fold_lanes(sum));
}

static void ocb_narrow(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                       uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (decrypt)
        k_ocb_dec(narrow(), ks, L, index, offset, checksum, out, in, nblocks);
    else
        k_ocb_enc(narrow(), ks, L, index, offset, checksum, out, in, nblocks);
}

static void vaes512_ocb(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                        uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    /* Narrow up to the next index that is 1 mod 32. */
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

static void vaes512_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                            uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    vaes512_ocb(ks, 0, L, first_index, offset, checksum, out, in, nblocks);
}

static void vaes512_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                            uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    vaes512_ocb(ks, 1, L, first_index, offset, checksum, out, in, nblocks);
}

/* ------------------------------------------------------------------ GCM */

/* The key layout of the "vpclmul" GHASH back end (ghash_vpclmul.c defines
 * and documents it; aes_vaes.c reads it too, all must stay identical): 16
 * powers H^16..H^1 in consecutive 16-byte slots (slot s = H^(16-s)), then
 * their Karatsuba halves (hi ^ lo in both halves) in the same order. */
#define VPCLMUL_POWERS 16
#define VPCLMUL_KARATSUBA_OFFSET (16 * VPCLMUL_POWERS)

/* Powers for a whole 32-block batch, so that it needs one reduction: slot
 * s holds H^(32-s); 64 bytes at slot 4q are the powers for register q. The
 * key has H^16..H^1 (slots 16..31); H^32..H^17 are made per call, sixteen
 * independent products by H^16, on the stack. */
typedef struct gcm_powers {
    alignas(64) uint8_t power[BATCH][16];
    alignas(64) uint8_t karatsuba[BATCH][16];
} gcm_powers;

V512_INLINE void gcm_powers_init(gcm_powers *t, const hwc_ghash_key *hk) {
    const uint8_t *key_power = hk->bytes;
    const uint8_t *key_karatsuba = hk->bytes + VPCLMUL_KARATSUBA_OFFSET;
    const __m128i h16 = _mm_load_si128((const __m128i *)(const void *)key_power);
    const __m128i h16_mid = _mm_load_si128((const __m128i *)(const void *)key_karatsuba);
    for (unsigned s = 0; s < VPCLMUL_POWERS; s++) {
        const __m128i low = _mm_load_si128((const __m128i *)(const void *)(key_power + 16 * s));
        clmul_acc acc;
        clmul_acc_first(&acc, low, h16, h16_mid);
        const __m128i high = clmul_acc_reduce(&acc); /* H^(16-s) * H^16 */
        _mm_store_si128((__m128i *)(void *)t->power[s], high);
        _mm_store_si128((__m128i *)(void *)t->karatsuba[s], _mm_xor_si128(high, _mm_shuffle_epi32(high, 0x4e)));
    }
    memcpy(t->power[VPCLMUL_POWERS], key_power, 16 * VPCLMUL_POWERS);
    memcpy(t->karatsuba[VPCLMUL_POWERS], key_karatsuba, 16 * VPCLMUL_POWERS);
}

/* An unreduced sum of 256-bit products, four lanes of Karatsuba parts. */
typedef struct clmul_acc512 {
    __m512i lo, mid, hi;
} clmul_acc512;

/* acc += x * (powers for blocks 4q..4q+3 of a batch), x four blocks in the
 * POLYVAL domain. */
V512_INLINE void ghash_quad(clmul_acc512 *acc, __m512i x, const gcm_powers *t, unsigned q) {
    const __m512i h = _mm512_load_si512((const void *)t->power[LANES * q]);
    const __m512i h_mid = _mm512_load_si512((const void *)t->karatsuba[LANES * q]);
    acc->lo = _mm512_xor_si512(acc->lo, _mm512_clmulepi64_epi128(x, h, 0x00));
    acc->hi = _mm512_xor_si512(acc->hi, _mm512_clmulepi64_epi128(x, h, 0x11));
    acc->mid = _mm512_xor_si512(
        acc->mid, _mm512_clmulepi64_epi128(_mm512_xor_si512(x, _mm512_shuffle_epi32(x, _MM_PERM_BADC)), h_mid, 0x00));
}

/* Register q of a batch of ciphertext into the sum; the state joins the
 * batch's first block. */
V512_INLINE void ghash_batch_part(clmul_acc512 *acc, const gcm_powers *t, __m128i state, const uint8_t *blocks,
                                  unsigned q) {
    __m512i x = _mm512_shuffle_epi8(loadu4(blocks + 64 * q), byteswap_lanes());
    if (q == 0)
        x = _mm512_xor_si512(x, _mm512_zextsi128_si512(state));
    ghash_quad(acc, x, t, q);
}

V512_INLINE __m128i ghash_reduce(const clmul_acc512 *acc) {
    clmul_acc r;
    r.lo = fold_lanes(acc->lo);
    r.mid = fold_lanes(acc->mid);
    r.hi = fold_lanes(acc->hi);
    return clmul_acc_reduce(&r);
}

/* One batch: CTR32 encryption of 32 blocks (in -> out) with GHASH of the
 * 32 blocks at hash_in (or none) spread over rounds 1..8, one reduction.
 * *base holds the byte-reversed counter in every lane (+0..+3) and advances
 * by 32. Returns the new state (POLYVAL domain). */
V512_INLINE __m128i gcm_batch(const __m128i *rk, unsigned nr, const gcm_powers *t, __m512i *base, __m128i state,
                              const uint8_t *hash_in, uint8_t *out, const uint8_t *in) {
    const __m512i bswap = byteswap_lanes();
    const __m512i first = round_key(rk, 0);
    __m512i b[WIDE];
    clmul_acc512 acc;
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm512_xor_si512(_mm512_shuffle_epi8(_mm512_add_epi32(*base, lane_words((int)(LANES * j), 0)), bswap),
                                first);
    *base = _mm512_add_epi32(*base, lane_words(BATCH, 0));
    acc.lo = acc.mid = acc.hi = _mm512_setzero_si512();
    /* nr >= 10, so rounds 1..8 each carry one register of GHASH work. */
    for (unsigned r = 1; r <= WIDE; r++) {
        const __m512i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm512_aesenc_epi128(b[j], k);
        if (hash_in)
            ghash_batch_part(&acc, t, state, hash_in, r - 1);
    }
    for (unsigned r = WIDE + 1; r < nr; r++) {
        const __m512i k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = _mm512_aesenc_epi128(b[j], k);
    }
    const __m512i last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = _mm512_aesenclast_epi128(b[j], _mm512_xor_si512(last, loadu4(in + 64 * j)));
    for (unsigned j = 0; j < WIDE; j++)
        storeu4(out + 64 * j, b[j]);
    return hash_in ? ghash_reduce(&acc) : state;
}

/* GHASH of one batch alone (the last ciphertext of an encryption). */
V512_INLINE __m128i ghash_batch(const gcm_powers *t, __m128i state, const uint8_t *blocks) {
    clmul_acc512 acc;
    acc.lo = acc.mid = acc.hi = _mm512_setzero_si512();
    for (unsigned q = 0; q < WIDE; q++)
        ghash_batch_part(&acc, t, state, blocks, q);
    return ghash_reduce(&acc);
}

V512_INLINE void gcm_body(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                          uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nbatches, unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = pclmul_byteswap_mask();
    __m512i base = _mm512_add_epi32(_mm512_broadcast_i32x4(_mm_shuffle_epi8(loadu1(ctr), bswap)), lane_words(0, 1));
    __m128i state = _mm_shuffle_epi8(loadu1(ghash_state), bswap);
    gcm_powers t;
    gcm_powers_init(&t, hk);
    if (decrypt) {
        /* GHASH reads each batch's ciphertext before CTR overwrites it. */
        for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES)
            state = gcm_batch(rk, nr, &t, &base, state, in, out, in);
    } else {
        /* Encryption hashes the previous batch's output while making the
         * next one; the last batch is hashed alone. */
        state = gcm_batch(rk, nr, &t, &base, state, NULL, out, in);
        for (nbatches--; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES)
            state = gcm_batch(rk, nr, &t, &base, state, out, out + BATCH_BYTES, in + BATCH_BYTES);
        state = ghash_batch(&t, state, out);
    }
    hwc_wipe(&t, sizeof t);
    storeu1(ctr, _mm_shuffle_epi8(_mm512_castsi512_si128(base), bswap));
    storeu1(ghash_state, _mm_shuffle_epi8(state, bswap));
}

static HWC_TARGET_VAES512 V512_NOINLINE void gcm_batches(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt,
                                                        uint8_t ctr[16], uint8_t ghash_state[16], uint8_t *out,
                                                        const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, gcm_body, ks, hk, decrypt, ctr, ghash_state, out, in, nbatches);
}

/* Whole batches here, then whatever the vaes kernel takes of the rest (its
 * sixteen-block batches, same GHASH key); the mode finishes the tail.
 * Below GCM_WIDE_MIN blocks everything goes to vaes: the per-call powers
 * (gcm_powers_init) made the 512-bit path slower than vaes up to about
 * 1 KiB per call here (measured whole seals of 512 and 1024 bytes). */
#define GCM_WIDE_MIN (2 * BATCH)

static size_t vaes512_gcm_enc(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks < GCM_WIDE_MIN)
        return narrow()->gcm_enc(ks, hk, ctr, ghash_state, out, in, nblocks);
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        gcm_batches(ks, hk, 0, ctr, ghash_state, out, in, wide);
    return wide * BATCH + narrow()->gcm_enc(ks, hk, ctr, ghash_state, out + wide * BATCH_BYTES,
                                            in + wide * BATCH_BYTES, nblocks % BATCH);
}

static size_t vaes512_gcm_dec(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                              uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks < GCM_WIDE_MIN)
        return narrow()->gcm_dec(ks, hk, ctr, ghash_state, out, in, nblocks);
    const size_t wide = nblocks / BATCH;
    if (wide != 0)
        gcm_batches(ks, hk, 1, ctr, ghash_state, out, in, wide);
    return wide * BATCH + narrow()->gcm_dec(ks, hk, ctr, ghash_state, out + wide * BATCH_BYTES,
                                            in + wide * BATCH_BYTES, nblocks % BATCH);
}

/* ---------------------------------------------------------------- table */

static const hwc_block_impl aes_vaes512_impl = {
    .name = "vaes512",
    .family = HWC_FAMILY_AES,
    .required_caps = HWC_CAP_AESNI | HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_SSE41 | HWC_CAP_AVX2 | HWC_CAP_VAES |
                     HWC_CAP_VPCLMUL | HWC_CAP_AVX512,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = "vpclmul",
    .usable = NULL,
    .set_key = vaes512_set_key,
    .ecb_enc = vaes512_ecb_enc,
    .ecb_dec = vaes512_ecb_dec,
    .cbc_enc = hwc_aesni_cbc_enc,
    .cbc_dec = vaes512_cbc_dec,
    .cfb_enc = hwc_aesni_cfb_enc,
    .cfb_dec = vaes512_cfb_dec,
    .ofb = hwc_aesni_ofb,
    .ctr128 = vaes512_ctr128,
    .ctr32 = vaes512_ctr32,
    .xts_enc = vaes512_xts_enc,
    .xts_dec = vaes512_xts_dec,
    .cbc_mac = hwc_aesni_cbc_mac,
    .ccm_enc = hwc_aesni_ccm_enc,
    .ccm_dec = hwc_aesni_ccm_dec,
    .ocb_enc = vaes512_ocb_enc,
    .ocb_dec = vaes512_ocb_dec,
    .gcm_enc = vaes512_gcm_enc,
    .gcm_dec = vaes512_gcm_dec,
};

const hwc_block_impl *hwc_aes_vaes512_get(void) {
    return &aes_vaes512_impl;
}

#endif /* __x86_64__ */
