/*
 * AES with VAES on 512-bit registers (back end "vaes512", AVX-512): the
 * kernels of aes_vaes_wide.h at four blocks per register, 32 per batch.
 *
 * Everything else goes to "vaes" through its table (its key schedule is
 * ours: hwc_aes_vaes_get()->set_key): inputs below one batch, tails (vaes
 * hands its own short tails to "aesni"), and the OCB lead-in. CTR32 below
 * sixteen blocks goes straight to aesni (the template's rule).
 *
 * GCM: the vpclmul key has sixteen powers of H; the sixteen more that a
 * 32-block batch needs for one reduction are made per call on the stack
 * (sixteen independent products by H^16, four per 512-bit instruction).
 * That fixed cost made the 512-bit path slower than vaes up to about 1 KiB
 * per call when the products were 128-bit (measured whole seals of 512 and
 * 1024 bytes), so it starts at 64 blocks and vaes takes the rest; with the
 * 512-bit products, starting at 32 blocks measured no faster.
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
    hwc_aes_vaes_get()->set_key(ks, key, key_len, want_dec);
}
#define NARROW(ks) ((void)(ks), hwc_aes_vaes_get())

/* GCM: slot s of a batch holds H^(32-s); the key has H^16..H^1 (slots
 * 16..31), H^32..H^17 are made per call. */
#define GCM_COUNT_IN_PLACE 0
#define GCM_WIDE_MIN 64
typedef struct gcm_table {
    alignas(64) uint8_t power[32][16];
    alignas(64) uint8_t karatsuba[32][16];
} gcm_table;

/* H^(16-s) * H^16 for the sixteen slots s, four per 512-bit product: the
 * Karatsuba product and clmul_acc_reduce's two Montgomery folds, lane-wise
 * (a quarter of the instructions of sixteen 128-bit products: this runs
 * once per call). */
VAES_PRIMITIVE void gcm_table_init(gcm_table *t, const hwc_ghash_key *hk) {
    const uint8_t *key_power = vpclmul_power_slots(hk), *key_karatsuba = vpclmul_karatsuba_slots(hk);
    const vec h16 = v_bcast(_mm_load_si128((const __m128i *)(const void *)key_power));
    const vec h16_mid = v_bcast(_mm_load_si128((const __m128i *)(const void *)key_karatsuba));
    const vec fold = v_bcast(_mm_set_epi64x(0, (long long)0xC200000000000000ull));
    for (unsigned q = 0; q < VPCLMUL_POWERS / LANES; q++) {
        const vec x = _mm512_loadu_si512((const void *)(key_power + 64 * q));
        const vec lo = _mm512_clmulepi64_epi128(x, h16, 0x00), hi = _mm512_clmulepi64_epi128(x, h16, 0x11);
        const vec mid = _mm512_ternarylogic_epi64(
            _mm512_clmulepi64_epi128(_mm512_xor_si512(x, v_swap64(x)), h16_mid, 0x00), lo, hi, 0x96);
        const vec low = _mm512_xor_si512(lo, _mm512_bslli_epi128(mid, 8));
        const vec high = _mm512_xor_si512(hi, _mm512_bsrli_epi128(mid, 8));
        const vec once = _mm512_xor_si512(v_swap64(low), _mm512_clmulepi64_epi128(low, fold, 0x00));
        const vec twice = _mm512_xor_si512(v_swap64(once), _mm512_clmulepi64_epi128(once, fold, 0x00));
        const vec product = _mm512_xor_si512(high, twice);
        _mm512_storeu_si512((void *)t->power[LANES * q], product);
        _mm512_storeu_si512((void *)t->karatsuba[LANES * q], _mm512_xor_si512(product, v_swap64(product)));
    }
    memcpy(t->power[VPCLMUL_POWERS], key_power, 16 * VPCLMUL_POWERS);
    memcpy(t->karatsuba[VPCLMUL_POWERS], key_karatsuba, 16 * VPCLMUL_POWERS);
}
static inline void gcm_table_wipe(gcm_table *t) { hwc_wipe(t, sizeof *t); }
#define gcm_table_slot(t, s) ((t)->power[s])
#define gcm_table_kslot(t, s) ((t)->karatsuba[s])
static size_t gcm_tail(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                       uint8_t ghash_state[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const hwc_block_impl *narrow = hwc_aes_vaes_get();
    return decrypt ? narrow->gcm_dec(ks, hk, ctr, ghash_state, out, in, nblocks)
                   : narrow->gcm_enc(ks, hk, ctr, ghash_state, out, in, nblocks);
}

#define VAES_NAME "vaes512"
#define VAES_CAPS                                                                                              \
    (HWC_CAP_AESNI | HWC_CAP_PCLMUL | HWC_CAP_SSSE3 | HWC_CAP_SSE41 | HWC_CAP_AVX2 | HWC_CAP_VAES | HWC_CAP_VPCLMUL | \
     HWC_CAP_AVX512)
#define VAES_GETTER hwc_aes_vaes512_get

#include "aes_vaes_wide.h"

#endif /* __x86_64__ */
