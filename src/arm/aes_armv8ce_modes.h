/*
 * The AES mode kernels of the Armv8 Crypto Extensions back ends, written
 * once and included by aes_armv8ce.c (plain EOR) and aes_armv8ce_eor3.c
 * (EOR3 where three values meet), which define:
 *   KT        the target attribute of every function here
 *   KEOR3     1 to merge three-way XORs into EOR3
 *   KNAME(x)  the file's name for kernel x
 * The EOR3 file leaves out the kernels that have no three-way XOR (ECB,
 * CBC encryption, CBC-MAC): its table points at the plain file's.
 *
 * Every kernel body takes the round count nr as a constant: each is
 * instantiated for 10, 12 and 14 rounds (KDISPATCH), so the round loops
 * unroll with the round keys in registers.
 *
 * Round structure: AESE (AddRoundKey, SubBytes, ShiftRows) + AESMC for
 * rounds 0..nr-2, a last AESE with key nr-1, then the XOR with key nr, into
 * which whatever is XORed with the cipher output (keystream and data, XTS
 * and OCB offsets, CBC chaining) is folded: with EOR3 that is one
 * instruction, with EOR two.
 *
 * Parallel modes (ECB, CTR, CBC/CFB decryption, XTS, OCB, GCM) run eight
 * blocks per iteration, loaded and stored four at a time (LD1/ST1 of four
 * registers); the serial ones (CBC/CFB encryption, OFB, CBC-MAC) keep the
 * chain in "chain form": the value entering the rounds is the previous last
 * AESE output t, and the next input, already XORed with the first and last
 * round keys off the chain (q = p ^ k0 ^ kNr), is AESE's key operand:
 * AESE(t, q) = ShiftRows(SubBytes(t ^ q)), so a block costs nr AESE,
 * nr - 1 AESMC and nothing else on the chain.
 *
 * Counters (CTR, GCM, CCM) are kept as native 32-bit lanes (REV32 of the
 * block): a block's counter is one vector ADD and one REV32.  The lane wraps
 * mod 2^32, exactly CTR32; CTR128 and CCM split the run where the low word
 * wraps and carry into the upper 96 bits between runs.
 *
 * XTS: eight tweaks in flight, each stepped by alpha^8 per iteration: a
 * one-byte shift (EXT) and the top byte times 0x87 (USHR + PMULL2), four
 * instructions where alpha alone costs five.
 *
 * Constant time: AESE/AESD/PMULL have no data-dependent timing; branches
 * depend on lengths, OCB block indices and where a counter's low word wraps
 * (as every CTR back end here).
 */

#define KINLINE HWC_A64_INLINE KT
#if KEOR3
#define XOR3(a, b, c) veor3q_u8((a), (b), (c))
#define GH_MORE A64_GH_MORE3
#define BULK(x) hwc_a64_##x##_3
#else
#define XOR3(a, b, c) veorq_u8(veorq_u8((a), (b)), (c))
#define GH_MORE A64_GH_MORE
#define BULK(x) hwc_a64_##x
#endif
#define ENC_KEYS(ks) a64_aes_enc_keys(ks), a64_aes_rounds(ks)
#define DEC_KEYS(ks) a64_aes_dec_keys(ks), a64_aes_rounds(ks)

/* Groups of eight blocks before the counter block's last byte (ctr[15])
 * would carry, at most `limit` (the bulk counter kernels add in that byte);
 * 0 when the next group itself would carry. */
static inline size_t ctr_groups(const uint8_t ctr[16], unsigned per_group, size_t limit) {
    size_t g = (256u - ctr[15]) / per_group;
    return g < limit ? g : limit;
}
/* Add blocks to the low 32-bit word of a big-endian counter block; returns
 * 1 if it wrapped. */
static inline int ctr_add32(uint8_t ctr[16], uint32_t blocks) {
    uint32_t c = hwc_load_be32(ctr + 12) + blocks;
    hwc_store_be32(ctr + 12, c);
    return c < blocks;
}

/* A compiler barrier on memory: the following loads re-read the caller's
 * buffer instead of keeping eight more blocks live across the rounds. */
#define RELOAD_BARRIER() __asm__ volatile("" ::: "memory")
/* The same, after the eight blocks' rounds: the asm takes them as operands,
 * so the compiler can neither hoist the reloads above the rounds nor keep
 * the loaded blocks in registers across them. */
#define RELOAD_AFTER8(b)                                                                  \
    __asm__ volatile("" : "+w"((b)[0]), "+w"((b)[1]), "+w"((b)[2]), "+w"((b)[3]), "+w"((b)[4]), \
                     "+w"((b)[5]), "+w"((b)[6]), "+w"((b)[7]) :: "memory")

#define KDISPATCH(body, ks, ...)              \
    do {                                      \
        switch (a64_aes_rounds(ks)) {         \
        case 10:                              \
            body(__VA_ARGS__, 10);            \
            break;                            \
        case 12:                              \
            body(__VA_ARGS__, 12);            \
            break;                            \
        default:                              \
            body(__VA_ARGS__, 14);            \
            break;                            \
        }                                     \
    } while (0)

#define LOAD_KEYS(K, rk, nr)                      \
    v128 K[A64_AES_MAX_ROUNDS + 1];               \
    HWC_A64_UNROLL                                \
    for (unsigned r_ = 0; r_ <= (nr); r_++)       \
        K[r_] = vld1q_u8((rk) + 16 * r_)

/* Rounds 0..nr-1 of n blocks (no final key XOR). */
KINLINE void enc_rounds(v128 *b, const unsigned n, const v128 *K, const unsigned nr) {
    HWC_A64_UNROLL
    for (unsigned r = 0; r + 1 < nr; r++) {
        HWC_A64_UNROLL
        for (unsigned j = 0; j < n; j++)
            b[j] = vaesmcq_u8(vaeseq_u8(b[j], K[r]));
    }
    HWC_A64_UNROLL
    for (unsigned j = 0; j < n; j++)
        b[j] = vaeseq_u8(b[j], K[nr - 1]);
}
KINLINE void dec_rounds(v128 *b, const unsigned n, const v128 *K, const unsigned nr) {
    HWC_A64_UNROLL
    for (unsigned r = 0; r + 1 < nr; r++) {
        HWC_A64_UNROLL
        for (unsigned j = 0; j < n; j++)
            b[j] = vaesimcq_u8(vaesdq_u8(b[j], K[r]));
    }
    HWC_A64_UNROLL
    for (unsigned j = 0; j < n; j++)
        b[j] = vaesdq_u8(b[j], K[nr - 1]);
}
/* One block through rounds 1..nr-1 after a first AESE with key `first`
 * (chain form: `first` is the next input folded with k0 ^ kNr). */
KINLINE v128 enc_chain(v128 t, v128 first, const v128 *K, const unsigned nr) {
    t = vaesmcq_u8(vaeseq_u8(t, first));
    HWC_A64_UNROLL
    for (unsigned r = 1; r + 1 < nr; r++)
        t = vaesmcq_u8(vaeseq_u8(t, K[r]));
    return vaeseq_u8(t, K[nr - 1]);
}

/* ------------------------------------------------------------------ ECB */

#if !KEOR3
/* 0..7 blocks (the bulk kernels take the groups of eight). */
#define ECB_TAIL(NAME, KEYS, ROUNDS)                                                           \
    KINLINE void NAME(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n, const unsigned nr) { \
        LOAD_KEYS(K, KEYS(ks), nr);                                                             \
        for (; n; n--, in += 16, out += 16) {                                                   \
            v128 b[1] = {vld1q_u8(in)};                                                         \
            ROUNDS(b, 1, K, nr);                                                                \
            vst1q_u8(out, veorq_u8(b[0], K[nr]));                                               \
        }                                                                                       \
    }
ECB_TAIL(ecb_enc_tail, a64_aes_enc_keys, enc_rounds)
ECB_TAIL(ecb_dec_tail, a64_aes_dec_keys, dec_rounds)

/* Short inputs (GCM's E(J0), CMAC's subkeys, key wrap) stay in the tail loop,
 * without the frame of a call to the bulk kernel. */
#define ECB_FUNC(NAME, BULK8, KEYS, TAIL)                                                         \
    static __attribute__((noinline)) KT void NAME##_bulk(const hwc_ks *ks, uint8_t *out, const uint8_t *in, \
                                                         size_t n) {                               \
        BULK8(KEYS(ks), out, in, n / 8);                                                           \
        if (n % 8)                                                                                 \
            KDISPATCH(TAIL, ks, ks, out + 16 * (n & ~(size_t)7), in + 16 * (n & ~(size_t)7), n % 8); \
    }                                                                                              \
    KT void NAME(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {                    \
        if (n >= 8)                                                                                \
            NAME##_bulk(ks, out, in, n);                                                           \
        else if (n)                                                                                \
            KDISPATCH(TAIL, ks, ks, out, in, n);                                                   \
    }
ECB_FUNC(hwc_a64_ce_ecb_enc, hwc_a64_ecb8_enc, ENC_KEYS, ecb_enc_tail)
ECB_FUNC(hwc_a64_ce_ecb_dec, hwc_a64_ecb8_dec, DEC_KEYS, ecb_dec_tail)

/* ------------------------------------------------- CBC encrypt, CBC-MAC */

/* Chain form (see the top): t is the last AESE output, the chaining value
 * is t ^ kNr. */
KINLINE void cbc_enc_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    const v128 kx = veorq_u8(K[0], K[nr]);
    v128 t = veorq_u8(vld1q_u8(iv), K[nr]);
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in), c;
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++) {
            t = enc_chain(t, veorq_u8(p.val[j], kx), K, nr);
            c.val[j] = veorq_u8(t, K[nr]);
        }
        vst1q_u8_x4(out, c);
    }
    for (; n; n--, in += 16, out += 16) {
        t = enc_chain(t, veorq_u8(vld1q_u8(in), kx), K, nr);
        vst1q_u8(out, veorq_u8(t, K[nr]));
    }
    vst1q_u8(iv, veorq_u8(t, K[nr]));
}
KT void KNAME(cbc_enc)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(cbc_enc_body, ks, ks, iv, out, in, n);
}

KINLINE void cbc_mac_body(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t n, const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    const v128 kx = veorq_u8(K[0], K[nr]);
    v128 t = veorq_u8(vld1q_u8(mac), K[nr]);
    for (; n >= 4; n -= 4, in += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in);
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++)
            t = enc_chain(t, veorq_u8(p.val[j], kx), K, nr);
    }
    for (; n; n--, in += 16)
        t = enc_chain(t, veorq_u8(vld1q_u8(in), kx), K, nr);
    vst1q_u8(mac, veorq_u8(t, K[nr]));
}
KT void KNAME(cbc_mac)(const hwc_ks *ks, uint8_t mac[16], const uint8_t *in, size_t n) {
    KDISPATCH(cbc_mac_body, ks, ks, mac, in, n);
}
#endif /* !KEOR3 */

/* ------------------------------------------------ CFB encrypt, OFB */

/* CFB: c = p ^ E(c_prev); the chain is c itself (it is the output). */
KINLINE void cfb_enc_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    v128 c = vld1q_u8(iv);
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in), o;
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++) {
            v128 b[1] = {c};
            enc_rounds(b, 1, K, nr);
            c = o.val[j] = XOR3(b[0], K[nr], p.val[j]);
        }
        vst1q_u8_x4(out, o);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 b[1] = {c};
        enc_rounds(b, 1, K, nr);
        c = XOR3(b[0], K[nr], vld1q_u8(in));
        vst1q_u8(out, c);
    }
    vst1q_u8(iv, c);
}
static KT void KNAME(cfb_enc)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(cfb_enc_body, ks, ks, iv, out, in, n);
}

/* OFB in chain form: the keystream block is t ^ kNr, the next rounds start
 * with AESE(t, kNr ^ k0). */
KINLINE void ofb_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                      const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    const v128 kx = veorq_u8(K[0], K[nr]);
    v128 t = veorq_u8(vld1q_u8(iv), K[nr]);
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        uint8x16x4_t p = vld1q_u8_x4(in), o;
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 4; j++) {
            t = enc_chain(t, kx, K, nr);
            o.val[j] = XOR3(t, K[nr], p.val[j]);
        }
        vst1q_u8_x4(out, o);
    }
    for (; n; n--, in += 16, out += 16) {
        t = enc_chain(t, kx, K, nr);
        vst1q_u8(out, XOR3(t, K[nr], vld1q_u8(in)));
    }
    vst1q_u8(iv, veorq_u8(t, K[nr]));
}
static KT void KNAME(ofb)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(ofb_body, ks, ks, iv, out, in, n);
}

/* ---------------------------------------------- CBC and CFB decryption */

/* CBC: p_j = D(c_j) ^ c_{j-1}; groups of eight in the bulk kernel, the rest
 * here. */
KINLINE void cbc_dec_tail(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_dec_keys(ks), nr);
    v128 prev = vld1q_u8(iv);
    for (; n; n--, in += 16, out += 16) {
        v128 c = vld1q_u8(in), b[1] = {c};
        dec_rounds(b, 1, K, nr);
        vst1q_u8(out, XOR3(b[0], K[nr], prev));
        prev = c;
    }
    vst1q_u8(iv, prev);
}
static KT void KNAME(cbc_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8)
        BULK(cbc8_dec)(DEC_KEYS(ks), out, in, n / 8, iv);
    if (n % 8)
        KDISPATCH(cbc_dec_tail, ks, ks, iv, out + 16 * (n & ~(size_t)7), in + 16 * (n & ~(size_t)7), n % 8);
}

/* CFB: p_j = c_j ^ E(c_{j-1}). */
KINLINE void cfb_dec_tail(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    v128 prev = vld1q_u8(iv);
    for (; n; n--, in += 16, out += 16) {
        v128 c = vld1q_u8(in), b[1] = {prev};
        enc_rounds(b, 1, K, nr);
        vst1q_u8(out, XOR3(b[0], K[nr], c));
        prev = c;
    }
    vst1q_u8(iv, prev);
}
static KT void KNAME(cfb_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8)
        BULK(cfb8_dec)(ENC_KEYS(ks), out, in, n / 8, iv);
    if (n % 8)
        KDISPATCH(cfb_dec_tail, ks, ks, iv, out + 16 * (n & ~(size_t)7), in + 16 * (n & ~(size_t)7), n % 8);
}

/* ------------------------------------------------------------------ CTR */

/* n blocks of CTR with the low 32-bit word of the counter block as a native
 * lane: ctr32 semantics (the lane wraps). */
KINLINE void ctr32_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n,
                        const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    uint32x4_t N = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr)));
    const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        v128 b[8], d[8];
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 8; j++) {
            b[j] = vrev32q_u8(vreinterpretq_u8_u32(N));
            N = a64_ctr_inc(N, one);
        }
        enc_rounds(b, 8, K, nr);
        A64_LOAD8(d, in);
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 8; j++)
            b[j] = XOR3(b[j], K[nr], d[j]);
        A64_STORE8(out, b);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 b[1] = {vrev32q_u8(vreinterpretq_u8_u32(N))};
        N = a64_ctr_inc(N, one);
        enc_rounds(b, 1, K, nr);
        vst1q_u8(out, XOR3(b[0], K[nr], vld1q_u8(in)));
    }
    vst1q_u8(ctr, vrev32q_u8(vreinterpretq_u8_u32(N)));
}
/* Groups of eight go to the bulk kernel while the counter's last byte does
 * not carry inside them; the group where it does (one in 32) runs above on
 * native lanes, which also carry into the rest of the low word. Short
 * inputs (GCM's one-shot messages) take the loop above directly, without
 * the bulk path's frame. */
static __attribute__((noinline)) KT void KNAME(ctr32_bulk)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                                                        const uint8_t *in, size_t n) {
    while (n >= 8) {
        size_t g = ctr_groups(ctr, 8, n / 8);
        if (g) {
            BULK(ctr8)(ENC_KEYS(ks), out, in, g, ctr);
            ctr_add32(ctr, (uint32_t)(8 * g));
        } else {
            g = 1;
            KDISPATCH(ctr32_body, ks, ks, ctr, out, in, 8);
        }
        n -= 8 * g;
        in += 128 * g;
        out += 128 * g;
    }
    if (n)
        KDISPATCH(ctr32_body, ks, ks, ctr, out, in, n);
}
static KT void KNAME(ctr32)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8)
        KNAME(ctr32_bulk)(ks, ctr, out, in, n);
    else if (n)
        KDISPATCH(ctr32_body, ks, ks, ctr, out, in, n);
}

/* Add 1 to the upper 96 bits of a big-endian counter block (the low word
 * just wrapped). */
static inline void ctr_carry96(uint8_t ctr[16]) {
    uint64_t hi = hwc_load_be64(ctr);
    uint32_t mid = hwc_load_be32(ctr + 8) + 1u;
    hi += (uint64_t)(mid == 0);
    hwc_store_be32(ctr + 8, mid);
    hwc_store_be64(ctr, hi);
}

/* Blocks left before the low 32-bit word of ctr wraps (1..2^32). */
static inline uint64_t ctr_room(const uint8_t ctr[16]) {
    return ((uint64_t)1 << 32) - hwc_load_be32(ctr + 12);
}

static KT void KNAME(ctr128)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    while (n) {
        uint64_t room = ctr_room(ctr);
        size_t m = (uint64_t)n < room ? n : (size_t)room;
        KNAME(ctr32)(ks, ctr, out, in, m);
        if ((uint64_t)m == room)
            ctr_carry96(ctr);
        n -= m;
        in += 16 * m;
        out += 16 * m;
    }
}

/* ------------------------------------------------------------------ XTS */

/* T * alpha (IEEE 1619: little-endian 128-bit, x^128 = x^7 + x^2 + x + 1). */
KINLINE v128 xts_mul_alpha(v128 t) {
    uint64x2_t v = vreinterpretq_u64_u8(t);
    uint64x2_t top = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(v), 63));
    const uint64x2_t poly = vcombine_u64(vcreate_u64(1), vcreate_u64(0x87));
    top = vandq_u64(top, poly);
    top = vextq_u64(top, top, 1);
    return vreinterpretq_u8_u64(veorq_u64(vaddq_u64(v, v), top));
}

/* 0..7 blocks after the bulk kernel's groups. */
#define XTS_TAIL(NAME, KEYS, ROUNDS)                                                           \
    KINLINE void NAME(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n, \
                      const unsigned nr) {                                                      \
        LOAD_KEYS(K, KEYS(ks), nr);                                                             \
        v128 t = vld1q_u8(tweak);                                                               \
        for (; n; n--, in += 16, out += 16) {                                                   \
            v128 b[1] = {veorq_u8(vld1q_u8(in), t)};                                            \
            ROUNDS(b, 1, K, nr);                                                                \
            vst1q_u8(out, XOR3(b[0], K[nr], t));                                                \
            t = xts_mul_alpha(t);                                                               \
        }                                                                                       \
        vst1q_u8(tweak, t);                                                                     \
    }
XTS_TAIL(xts_enc_tail, a64_aes_enc_keys, enc_rounds)
XTS_TAIL(xts_dec_tail, a64_aes_dec_keys, dec_rounds)
static KT void KNAME(xts_enc)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8)
        BULK(xts8_enc)(ENC_KEYS(ks), out, in, n / 8, tweak);
    if (n % 8)
        KDISPATCH(xts_enc_tail, ks, ks, tweak, out + 16 * (n & ~(size_t)7), in + 16 * (n & ~(size_t)7), n % 8);
}
static KT void KNAME(xts_dec)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8)
        BULK(xts8_dec)(DEC_KEYS(ks), out, in, n / 8, tweak);
    if (n % 8)
        KDISPATCH(xts_dec_tail, ks, ks, tweak, out + 16 * (n & ~(size_t)7), in + 16 * (n & ~(size_t)7), n % 8);
}

/* ------------------------------------------------------------------ OCB */

/* Offsets: O_i = O_{i-1} ^ L[ntz(i)]. Blocks one at a time until the
 * index is 1 mod 8, then groups of eight in the bulk kernel (which needs one
 * table load per group), then the rest one at a time. */
#define OCB_SINGLE(NAME, KEYS, ROUNDS, ENC)                                                     \
    KINLINE void NAME(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t state[32], uint8_t *out, \
                      const uint8_t *in, size_t n, const unsigned nr) {                          \
        LOAD_KEYS(K, KEYS(ks), nr);                                                              \
        v128 O = vld1q_u8(state), cs = vld1q_u8(state + 16);                                     \
        for (; n; n--, i++, in += 16, out += 16) {                                               \
            O = veorq_u8(O, vld1q_u8(L[__builtin_ctzll(i)]));                                    \
            v128 p = vld1q_u8(in), b[1] = {veorq_u8(p, O)};                                      \
            ROUNDS(b, 1, K, nr);                                                                 \
            v128 r = XOR3(b[0], K[nr], O);                                                       \
            cs = veorq_u8(cs, ENC ? p : r);                                                      \
            vst1q_u8(out, r);                                                                    \
        }                                                                                        \
        vst1q_u8(state, O);                                                                      \
        vst1q_u8(state + 16, cs);                                                                \
    }
OCB_SINGLE(ocb_enc_single, a64_aes_enc_keys, enc_rounds, 1)
OCB_SINGLE(ocb_dec_single, a64_aes_dec_keys, dec_rounds, 0)

#define OCB_FUNC(NAME, SINGLE, BULK8, KEYS)                                                     \
    static KT void NAME(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t offset[16],  \
                        uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n) {        \
        alignas(16) uint8_t state[32];                                                           \
        memcpy(state, offset, 16);                                                               \
        memcpy(state + 16, checksum, 16);                                                        \
        size_t lead = (size_t)((9 - (i & 7)) & 7);                                               \
        if (lead > n)                                                                            \
            lead = n;                                                                            \
        if (lead)                                                                                \
            KDISPATCH(SINGLE, ks, ks, L, i, state, out, in, lead);                               \
        n -= lead, i += lead, in += 16 * lead, out += 16 * lead;                                 \
        if (n >= 8) {                                                                            \
            BULK8(KEYS(ks), out, in, n / 8, L, i, state);                                        \
            size_t done = n & ~(size_t)7;                                                        \
            n -= done, i += done, in += 16 * done, out += 16 * done;                             \
        }                                                                                        \
        if (n)                                                                                   \
            KDISPATCH(SINGLE, ks, ks, L, i, state, out, in, n);                                  \
        memcpy(offset, state, 16);                                                               \
        memcpy(checksum, state + 16, 16);                                                        \
        hwc_wipe(state, sizeof state);                                                           \
    }
OCB_FUNC(KNAME(ocb_enc), ocb_enc_single, BULK(ocb8_enc), ENC_KEYS)
OCB_FUNC(KNAME(ocb_dec), ocb_dec_single, BULK(ocb8_dec), DEC_KEYS)

/* ------------------------------------------------------------ fused GCM */

/* CTR32 of eight blocks and GHASH of the eight ciphertext blocks (pmull's
 * key, H^8..H^1, one reduction) in one loop; whole groups of eight only. */
#define GCM_BODY(NAME, ENC)                                                                     \
    KINLINE void NAME(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t state[16], \
                      uint8_t *out, const uint8_t *in, size_t n, const unsigned nr) {            \
        LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);                                                  \
        uint32x4_t N = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr)));                          \
        const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);                             \
        v128 s = vrev64q_u8(vld1q_u8(state));                                                    \
        for (; n >= 8; n -= 8, in += 128, out += 128) {                                          \
            v128 b[8], d[8];                                                               \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++) {                                                   \
                b[j] = vrev32q_u8(vreinterpretq_u8_u32(N));                                      \
                N = a64_ctr_inc(N, one);                                                           \
            }                                                                                    \
            enc_rounds(b, 8, K, nr);                                                             \
            A64_LOAD8(d, in);                                                                    \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++) {                                                   \
                b[j] = XOR3(b[j], K[nr], d[j]);                                                  \
                d[j] = ENC ? b[j] : d[j];                                                        \
            }                                                                                    \
            A64_STORE8(out, b);                                                                  \
            RELOAD_BARRIER(); /* H^8..H^1 loaded here, not kept (spilled) across the rounds */   \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++)                                                     \
                d[j] = vrev64q_u8(d[j]);                                                         \
            d[0] = veorq_u8(d[0], s);                                                            \
            A64_GHASH_N(s, d, 8, hk, GH_MORE);                                                   \
        }                                                                                        \
        vst1q_u8(ctr, vrev32q_u8(vreinterpretq_u8_u32(N)));                                      \
        vst1q_u8(state, vrev64q_u8(s));                                                          \
    }
GCM_BODY(gcm_enc_body, 1)
GCM_BODY(gcm_dec_body, 0)
/* Groups of eight in the bulk kernel while the counter's last byte does not
 * carry inside them; the group where it does, in the loop above. */
#define GCM_FUNC(NAME, BODY, BULK8)                                                             \
    static KT size_t NAME(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t state[16], \
                          uint8_t *out, const uint8_t *in, size_t n) {                           \
        const size_t whole = n & ~(size_t)7;                                                     \
        for (n = whole / 8; n;) {                                                                \
            size_t g = ctr_groups(ctr, 8, n);                                                    \
            if (g) {                                                                             \
                BULK8(ENC_KEYS(ks), out, in, g, ctr, hk, state);                                 \
                ctr_add32(ctr, (uint32_t)(8 * g));                                               \
            } else {                                                                             \
                g = 1;                                                                           \
                KDISPATCH(BODY, ks, ks, hk, ctr, state, out, in, 8);                             \
            }                                                                                    \
            n -= g;                                                                              \
            in += 128 * g;                                                                       \
            out += 128 * g;                                                                      \
        }                                                                                        \
        return whole;                                                                            \
    }
GCM_FUNC(KNAME(gcm_enc), gcm_enc_body, BULK(gcm8_enc))
GCM_FUNC(KNAME(gcm_dec), gcm_dec_body, BULK(gcm8_dec))

/* ------------------------------------------------------------ fused CCM */

/* A run of CTR blocks (no low-word wrap inside) interleaved with the
 * CBC-MAC of the plaintext in chain form. */
#define CCM_BODY(NAME, ENC)                                                                     \
    KINLINE void NAME(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in, \
                      size_t n, const unsigned nr) {                                             \
        LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);                                                  \
        const v128 kx = veorq_u8(K[0], K[nr]);                                                   \
        uint32x4_t N = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(ctr)));                          \
        const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 3);                             \
        v128 t = veorq_u8(vld1q_u8(mac), K[nr]);                                                 \
        for (; n; n--, in += 16, out += 16) {                                                    \
            v128 b = vrev32q_u8(vreinterpretq_u8_u32(N));                                        \
            N = a64_ctr_inc(N, one);                                                               \
            v128 d = vld1q_u8(in);                                                               \
            if (ENC) {                                                                           \
                v128 q = veorq_u8(d, kx);                                                        \
                t = vaesmcq_u8(vaeseq_u8(t, q));                                                 \
                b = vaesmcq_u8(vaeseq_u8(b, K[0]));                                              \
                HWC_A64_UNROLL                                                                   \
                for (unsigned r = 1; r + 1 < nr; r++) {                                          \
                    t = vaesmcq_u8(vaeseq_u8(t, K[r]));                                          \
                    b = vaesmcq_u8(vaeseq_u8(b, K[r]));                                          \
                }                                                                                \
                t = vaeseq_u8(t, K[nr - 1]);                                                     \
                b = vaeseq_u8(b, K[nr - 1]);                                                     \
                vst1q_u8(out, XOR3(b, K[nr], d));                                                \
            } else {                                                                             \
                v128 e[1] = {b};                                                                 \
                enc_rounds(e, 1, K, nr);                                                         \
                v128 p = XOR3(e[0], K[nr], d);                                                   \
                vst1q_u8(out, p);                                                                \
                t = enc_chain(t, veorq_u8(p, kx), K, nr);                                        \
            }                                                                                    \
        }                                                                                        \
        vst1q_u8(ctr, vrev32q_u8(vreinterpretq_u8_u32(N)));                                      \
        vst1q_u8(mac, veorq_u8(t, K[nr]));                                                       \
    }
CCM_BODY(ccm_enc_body, 1)
CCM_BODY(ccm_dec_body, 0)

/* Groups of four in the bulk kernel while the counter's last byte does not
 * carry inside them (a carry out of the low word goes into the upper 96
 * bits afterwards); single blocks otherwise, split at low-word wraps. */
#define CCM_FUNC(NAME, BODY, BULK4)                                                              \
    static KT void NAME(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in, \
                        size_t n) {                                                               \
        while (n) {                                                                               \
            size_t g = ctr_groups(ctr, 4, n / 4), m;                                              \
            if (g) {                                                                              \
                BULK4(ENC_KEYS(ks), out, in, g, ctr, mac);                                        \
                m = 4 * g;                                                                        \
                if (ctr_add32(ctr, (uint32_t)m))                                                  \
                    ctr_carry96(ctr);                                                             \
            } else {                                                                              \
                m = 1;                                                                            \
                KDISPATCH(BODY, ks, ks, ctr, mac, out, in, 1);                                    \
                if (hwc_load_be32(ctr + 12) == 0)                                                 \
                    ctr_carry96(ctr);                                                             \
            }                                                                                     \
            n -= m;                                                                               \
            in += 16 * m;                                                                         \
            out += 16 * m;                                                                        \
        }                                                                                         \
    }
CCM_FUNC(KNAME(ccm_enc), ccm_enc_body, BULK(ccm4_enc))
CCM_FUNC(KNAME(ccm_dec), ccm_dec_body, BULK(ccm4_dec))

/* ------------------------------------------------------- GCM-SIV's CTR */

/* The counter is the first 4 bytes, little-endian: the first native lane,
 * one vector ADD a block, wrapping mod 2^32 as GCM-SIV's does. */
KINLINE void ctr32le_tail(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    uint32x4_t N = vreinterpretq_u32_u8(vld1q_u8(ctr));
    const uint32x4_t one = vsetq_lane_u32(1, vdupq_n_u32(0), 0);
    for (; n; n--, in += 16, out += 16) {
        v128 b[1] = {vreinterpretq_u8_u32(N)};
        N = a64_ctr_inc(N, one);
        enc_rounds(b, 1, K, nr);
        vst1q_u8(out, XOR3(b[0], K[nr], vld1q_u8(in)));
    }
    vst1q_u8(ctr, vreinterpretq_u8_u32(N));
}
static KT void KNAME(ctr32le)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
    if (n >= 8) {
        BULK(ctr8le)(ENC_KEYS(ks), out, in, n / 8, ctr);
        hwc_store_le32(ctr, hwc_load_le32(ctr) + (uint32_t)(n & ~(size_t)7));
        in += 16 * (n & ~(size_t)7);
        out += 16 * (n & ~(size_t)7);
        n %= 8;
    }
    if (n)
        KDISPATCH(ctr32le_tail, ks, ks, ctr, out, in, n);
}

/* ------------------------------------------------------------- key wrap */

#if !KEOR3
/* W and W^-1 of SP 800-38F with the round keys in registers for the whole
 * walk: a step is the register A in the first half and R_i loaded into the
 * second, the rounds, A = first half ^ t (t big-endian: a byte-reversed
 * counter in a general register), R_i stored from the second half. */
#define KW_BODY(NAME, KEYS, ROUNDS, INVERSE)                                                    \
    KINLINE void NAME(const hwc_ks *ks, uint8_t a[8], uint8_t *r, size_t n, const unsigned nr) {  \
        LOAD_KEYS(K, KEYS(ks), nr);                                                              \
        uint64_t A;                                                                              \
        memcpy(&A, a, 8);                                                                        \
        uint64_t t = INVERSE ? 6 * (uint64_t)n : 1;                                              \
        for (int j = 0; j < 6; j++) {                                                            \
            for (size_t k = 0; k < n; k++) {                                                     \
                uint8_t *ri = r + 8 * (INVERSE ? n - 1 - k : k);                                 \
                if (INVERSE)                                                                     \
                    A ^= __builtin_bswap64(t--);                                                 \
                v128 b[1] = {vcombine_u8(vcreate_u8(A), vld1_u8(ri))};                           \
                ROUNDS(b, 1, K, nr);                                                             \
                b[0] = veorq_u8(b[0], K[nr]);                                                    \
                A = vgetq_lane_u64(vreinterpretq_u64_u8(b[0]), 0);                               \
                if (!INVERSE)                                                                    \
                    A ^= __builtin_bswap64(t++);                                                 \
                vst1_u8(ri, vget_high_u8(b[0]));                                                 \
            }                                                                                    \
        }                                                                                        \
        memcpy(a, &A, 8);                                                                        \
    }
KW_BODY(kw_w_enc_body, a64_aes_enc_keys, enc_rounds, 0)
KW_BODY(kw_w_dec_body, a64_aes_dec_keys, dec_rounds, 0)
KW_BODY(kw_winv_enc_body, a64_aes_enc_keys, enc_rounds, 1)
KW_BODY(kw_winv_dec_body, a64_aes_dec_keys, dec_rounds, 1)

KT void KNAME(kw_w)(const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n) {
    if (decrypt)
        KDISPATCH(kw_w_dec_body, ks, ks, a, r, n);
    else
        KDISPATCH(kw_w_enc_body, ks, ks, a, r, n);
}
KT void KNAME(kw_winv)(const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r, size_t n) {
    if (decrypt)
        KDISPATCH(kw_winv_dec_body, ks, ks, a, r, n);
    else
        KDISPATCH(kw_winv_enc_body, ks, ks, a, r, n);
}
#endif
