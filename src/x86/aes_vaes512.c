/*
 * AES with VAES on 512-bit registers (back end "vaes512", AVX-512): the
 * kernels of aes_vaes_wide.h at four blocks per register, 32 per batch;
 * calls and tails below one batch as one group of registers, the smallest
 * ones and the serial modes on "aesni"'s kernels (the template's rules).
 * The key schedule is the AES-NI one.
 *
 * GCM: a call of 16 blocks or more runs here whole, batches of 32 blocks
 * and the tail, on the key of "vpclmul512", which holds the 32 powers a
 * batch needs (made once at key setup: before, sixteen of them were made
 * per call, and this path started at 64 blocks to amortize that); shorter
 * calls take CTR32's group (aesni's below five blocks) and the GHASH back
 * end (the template's gcm_short).
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define HWC_VAES_WIDE_INSTANCE 512
#define VAES_TARGET \
    __attribute__((target("avx512f,avx512bw,avx512vl,vaes,vpclmulqdq,aes,pclmul,avx2,ssse3,sse4.1")))
#define VAES_PRIMITIVE HWC_X86_INLINE VAES_TARGET
#define LANES 4
typedef __m512i vec;
#define V_PREFIX(op) _mm512_##op
#define V_INT(op) _mm512_##op##_si512

VAES_PRIMITIVE vec v_bcast(__m128i x) { return _mm512_broadcast_i32x4(x); }
VAES_PRIMITIVE vec v_zext(__m128i x) { return _mm512_zextsi128_si512(x); }
VAES_PRIMITIVE vec v_set1_64(long long x) { return _mm512_set1_epi64(x); }
VAES_PRIMITIVE vec v_swap64(vec a) { return _mm512_shuffle_epi32(a, _MM_PERM_BADC); }
VAES_PRIMITIVE __m128i v_low(vec a) { return _mm512_castsi512_si128(a); }
VAES_PRIMITIVE __m128i v_last(vec a) { return _mm512_extracti32x4_epi32(a, 3); }
VAES_PRIMITIVE vec v_set_last(vec a, __m128i x) { return _mm512_inserti32x4(a, x, 3); }
VAES_PRIMITIVE __m128i v_fold(vec a) {
    const __m256i half = _mm256_xor_si256(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1));
    return _mm_xor_si128(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
}
/* Lanes 0..LANES-1 from x[0..LANES-1]. */
VAES_PRIMITIVE vec v_blocks(const __m128i *x) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_set_m128i(x[1], x[0])), _mm256_set_m128i(x[3], x[2]), 1);
}
/* prev's last block, then first's blocks but its last: one VALIGNQ. */
VAES_PRIMITIVE vec v_chain_first(vec prev, vec first) { return _mm512_alignr_epi64(first, prev, 6); }
/* Each lane rotated left by BATCH / 8 = 4 bytes. */
VAES_PRIMITIVE vec v_rotate_lanes(vec a) { return _mm512_alignr_epi8(a, a, 12); }
/* n + k * step in the low 32-bit word of lane k (the other words 0). */
VAES_PRIMITIVE vec v_lane_words(int n, int step) {
    return _mm512_set_epi32(0, 0, 0, n + 3 * step, 0, 0, 0, n + 2 * step, 0, 0, 0, n + step, 0, 0, 0, n);
}
/* The same in the last 32-bit word of each lane. */
VAES_PRIMITIVE vec v_lane_top_words(int n, int step) {
    return _mm512_set_epi32(n + 3 * step, 0, 0, 0, n + 2 * step, 0, 0, 0, n + step, 0, 0, 0, n, 0, 0, 0);
}
/* The last 32-bit word of every lane replaced by w. */
VAES_PRIMITIVE vec v_set_last_word(vec a, uint32_t w) {
    return _mm512_mask_blend_epi32(0x8888, a, _mm512_set1_epi32((int)w));
}
/* k in both 64-bit halves of lane k. */
VAES_PRIMITIVE vec v_lane_counts(void) { return _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0); }
/* The first k (1..LANES-1) blocks at p, the other lanes zero (masked: no
 * byte past them is read); the store writes those k blocks only. */
VAES_PRIMITIVE vec v_load_part(const uint8_t *p, unsigned k) {
    return _mm512_maskz_loadu_epi64((__mmask8)((1u << (2 * k)) - 1), (const void *)p);
}
VAES_PRIMITIVE void v_store_part(uint8_t *p, vec a, unsigned k) {
    _mm512_mask_storeu_epi64((void *)p, (__mmask8)((1u << (2 * k)) - 1), a);
}

static void vaes_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    hwc_aesni_set_key(ks, key, key_len, want_dec);
}

/* GCM: the powers of H are the vpclmul512 key (aes_vaes_wide.h reads it). */
#define GCM_GHASH() hwc_ghash_vpclmul512_get()
/* A batch of 32 wraps the last byte one time in eight: the byte-reversed
 * count measured faster here (aes_vaes_wide.h). */
#define COUNT_IN_PLACE 0

#define VAES_NAME "vaes512"
#define VAES_GHASH_NAME "vpclmul512"
#define VAES_CAPS                                                                                              \
    (HWC_CAP_AESNI | HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_SSE41 | HWC_CAP_AVX2 | HWC_CAP_VAES | HWC_CAP_VPCLMUL | \
     HWC_CAP_AVX512)
#define VAES_GETTER hwc_aes_vaes512_get

#include "aes_vaes_wide.h"

#endif /* __x86_64__ */
