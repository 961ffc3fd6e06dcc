/*
 * AES with VAES and VPCLMULQDQ on 256-bit registers (back end "vaes"),
 * GHASH from the "vpclmul" back end: the kernels of aes_vaes_wide.h at two
 * blocks per register, sixteen per batch; calls and tails below one batch
 * as one group of registers, the smallest ones and the serial modes on
 * "aesni"'s kernels (the template's rules). The key schedule is the AES-NI
 * one.
 */
#if defined(__x86_64__)

#include "x86_internal.h"

#define HWC_VAES_WIDE_INSTANCE 256
#define VAES_TARGET __attribute__((target("vaes,vpclmulqdq,avx2,aes,pclmul,ssse3,sse4.1")))
#define VAES_PRIMITIVE HWC_X86_INLINE VAES_TARGET
#define LANES 2
typedef __m256i vec;
#define V_PREFIX(op) _mm256_##op
#define V_INT(op) _mm256_##op##_si256

VAES_PRIMITIVE vec v_bcast(__m128i x) { return _mm256_broadcastsi128_si256(x); }
VAES_PRIMITIVE vec v_zext(__m128i x) { return _mm256_zextsi128_si256(x); }
VAES_PRIMITIVE vec v_set1_64(long long x) { return _mm256_set1_epi64x(x); }
VAES_PRIMITIVE vec v_swap64(vec a) { return _mm256_shuffle_epi32(a, 0x4e); }
VAES_PRIMITIVE __m128i v_low(vec a) { return _mm256_castsi256_si128(a); }
VAES_PRIMITIVE __m128i v_last(vec a) { return _mm256_extracti128_si256(a, 1); }
VAES_PRIMITIVE vec v_set_last(vec a, __m128i x) { return _mm256_inserti128_si256(a, x, 1); }
VAES_PRIMITIVE __m128i v_fold(vec a) { return _mm_xor_si128(v_low(a), v_last(a)); }
/* Lanes 0..LANES-1 from x[0..LANES-1]. */
VAES_PRIMITIVE vec v_blocks(const __m128i *x) { return _mm256_set_m128i(x[1], x[0]); }
/* prev's last block, then first's blocks but its last. */
VAES_PRIMITIVE vec v_chain_first(vec prev, vec first) { return _mm256_permute2x128_si256(prev, first, 0x21); }
/* Each lane rotated left by BATCH / 8 = 2 bytes. */
VAES_PRIMITIVE vec v_rotate_lanes(vec a) { return _mm256_alignr_epi8(a, a, 14); }
/* n + k * step in the low 32-bit word of lane k (the other words 0). */
VAES_PRIMITIVE vec v_lane_words(int n, int step) { return _mm256_set_epi32(0, 0, 0, n + step, 0, 0, 0, n); }
/* The same in the last 32-bit word of each lane. */
VAES_PRIMITIVE vec v_lane_top_words(int n, int step) { return _mm256_set_epi32(n + step, 0, 0, 0, n, 0, 0, 0); }
/* The last 32-bit word of every lane replaced by w. */
VAES_PRIMITIVE vec v_set_last_word(vec a, uint32_t w) { return _mm256_blend_epi32(a, _mm256_set1_epi32((int)w), 0x88); }
/* k in both 64-bit halves of lane k. */
VAES_PRIMITIVE vec v_lane_counts(void) { return _mm256_set_epi64x(1, 1, 0, 0); }
/* The first k (1..LANES-1) blocks at p, the other lanes zero; the store
 * writes those k blocks only. */
VAES_PRIMITIVE vec v_load_part(const uint8_t *p, unsigned k) { (void)k; return _mm256_zextsi128_si256(x86_loadu(p)); }
VAES_PRIMITIVE void v_store_part(uint8_t *p, vec a, unsigned k) { (void)k; x86_storeu(p, _mm256_castsi256_si128(a)); }

static void vaes_set_key(hwc_ks *ks, const uint8_t *key, size_t key_len, int want_dec) {
    hwc_aesni_set_key(ks, key, key_len, want_dec);
}

/* GCM: the powers of H are the vpclmul key (aes_vaes_wide.h reads it). */
#define GCM_GHASH() hwc_ghash_vpclmul_get()
/* CTR and GCM counters made in place, no byte swaps (aes_vaes_wide.h). */
#define COUNT_IN_PLACE 1

#define VAES_NAME "vaes"
#define VAES_GHASH_NAME "vpclmul"
#define VAES_CAPS \
    (HWC_CAP_AESNI | HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_SSE41 | HWC_CAP_AVX2 | HWC_CAP_VAES | HWC_CAP_VPCLMUL)
#define VAES_GETTER hwc_aes_vaes_get

#include "aes_vaes_wide.h"

#endif /* __x86_64__ */
