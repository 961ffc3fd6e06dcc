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
#else
#define XOR3(a, b, c) veorq_u8(veorq_u8((a), (b)), (c))
#define GH_MORE A64_GH_MORE
#endif

/* A compiler barrier on memory: the following loads re-read the caller's
 * buffer instead of keeping eight more blocks live across the rounds. */
#define RELOAD_BARRIER() __asm__ volatile("" ::: "memory")

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
#define ECB_BODY(NAME, KEYS, ROUNDS)                                                           \
    KINLINE void NAME(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n, const unsigned nr) { \
        LOAD_KEYS(K, KEYS(ks), nr);                                                             \
        for (; n >= 8; n -= 8, in += 128, out += 128) {                                         \
            v128 b[8];                                                                          \
            A64_LOAD8(b, in);                                                                   \
            ROUNDS(b, 8, K, nr);                                                                \
            HWC_A64_UNROLL                                                                      \
            for (unsigned j = 0; j < 8; j++)                                                    \
                b[j] = veorq_u8(b[j], K[nr]);                                                   \
            A64_STORE8(out, b);                                                                 \
        }                                                                                       \
        for (; n; n--, in += 16, out += 16) {                                                   \
            v128 b[1] = {vld1q_u8(in)};                                                         \
            ROUNDS(b, 1, K, nr);                                                                \
            vst1q_u8(out, veorq_u8(b[0], K[nr]));                                               \
        }                                                                                       \
    }
ECB_BODY(ecb_enc_body, a64_aes_enc_keys, enc_rounds)
ECB_BODY(ecb_dec_body, a64_aes_dec_keys, dec_rounds)

KT void KNAME(ecb_enc)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(ecb_enc_body, ks, ks, out, in, n);
}
KT void KNAME(ecb_dec)(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(ecb_dec_body, ks, ks, out, in, n);
}

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

/* CBC: p_j = D(c_j) ^ c_{j-1}. The ciphertext is loaded again after the
 * rounds (before any store, so in place works). */
KINLINE void cbc_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_dec_keys(ks), nr);
    v128 prev = vld1q_u8(iv);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        v128 b[8], c[8];
        A64_LOAD8(b, in);
        dec_rounds(b, 8, K, nr);
        RELOAD_BARRIER();
        A64_LOAD8(c, in);
        b[0] = XOR3(b[0], K[nr], prev);
        HWC_A64_UNROLL
        for (unsigned j = 1; j < 8; j++)
            b[j] = XOR3(b[j], K[nr], c[j - 1]);
        prev = c[7];
        A64_STORE8(out, b);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 c = vld1q_u8(in), b[1] = {c};
        dec_rounds(b, 1, K, nr);
        vst1q_u8(out, XOR3(b[0], K[nr], prev));
        prev = c;
    }
    vst1q_u8(iv, prev);
}
static KT void KNAME(cbc_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(cbc_dec_body, ks, ks, iv, out, in, n);
}

/* CFB: p_j = c_j ^ E(c_{j-1}). */
KINLINE void cfb_dec_body(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n,
                          const unsigned nr) {
    LOAD_KEYS(K, a64_aes_enc_keys(ks), nr);
    v128 prev = vld1q_u8(iv);
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        v128 b[8], c[8];
        A64_LOAD8(c, in);
        b[0] = prev;
        HWC_A64_UNROLL
        for (unsigned j = 1; j < 8; j++)
            b[j] = c[j - 1];
        prev = c[7];
        enc_rounds(b, 8, K, nr);
        RELOAD_BARRIER();
        A64_LOAD8(c, in);
        HWC_A64_UNROLL
        for (unsigned j = 0; j < 8; j++)
            b[j] = XOR3(b[j], K[nr], c[j]);
        A64_STORE8(out, b);
    }
    for (; n; n--, in += 16, out += 16) {
        v128 c = vld1q_u8(in), b[1] = {prev};
        enc_rounds(b, 1, K, nr);
        vst1q_u8(out, XOR3(b[0], K[nr], c));
        prev = c;
    }
    vst1q_u8(iv, prev);
}
static KT void KNAME(cfb_dec)(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(cfb_dec_body, ks, ks, iv, out, in, n);
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
static KT void KNAME(ctr32)(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n) {
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
/* T * alpha^8: the bytes rotated up by one (the top byte lands in byte 0)
 * and the top byte times 0x86 = 0x87 ^ 1 XORed in, which cancels it there
 * and adds its reduction. */
KINLINE v128 xts_mul_alpha8(v128 t, poly64x2_t p86) {
    /* In assembly: clang turns a PMULL2 by a constant into a move to a
     * general register and back (three more instructions). */
    v128 r, top;
    __asm__("ushr %1.2d, %2.2d, #56\n\t"
            "pmull2 %1.1q, %1.2d, %3.2d\n\t"
            "ext %0.16b, %2.16b, %2.16b, #15\n\t"
            "eor %0.16b, %0.16b, %1.16b"
            : "=&w"(r), "=&w"(top)
            : "w"(t), "w"(p86));
    return r;
}

#define XTS_BODY(NAME, KEYS, ROUNDS)                                                            \
    KINLINE void NAME(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n, \
                      const unsigned nr) {                                                      \
        LOAD_KEYS(K, KEYS(ks), nr);                                                              \
        const poly64x2_t p86 = vreinterpretq_p64_u64(vdupq_n_u64(0x86));                         \
        v128 T[8];                                                                               \
        T[0] = vld1q_u8(tweak);                                                                  \
        HWC_A64_UNROLL                                                                           \
        for (unsigned j = 1; j < 8; j++)                                                         \
            T[j] = xts_mul_alpha(T[j - 1]);                                                      \
        for (; n >= 8; n -= 8, in += 128, out += 128) {                                          \
            v128 b[8];                                                                           \
            A64_LOAD8(b, in);                                                                    \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++)                                                     \
                b[j] = veorq_u8(b[j], T[j]);                                                     \
            ROUNDS(b, 8, K, nr);                                                                 \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++) {                                                   \
                b[j] = XOR3(b[j], K[nr], T[j]);                                                  \
                T[j] = xts_mul_alpha8(T[j], p86);                                                     \
            }                                                                                    \
            A64_STORE8(out, b);                                                                  \
        }                                                                                        \
        /* 0..7 blocks left: T[0..n-1] are theirs, T[n] the next tweak. */                       \
        v128 t = T[0];                                                                           \
        for (; n; n--, in += 16, out += 16) {                                                    \
            v128 b[1] = {veorq_u8(vld1q_u8(in), t)};                                             \
            ROUNDS(b, 1, K, nr);                                                                 \
            vst1q_u8(out, XOR3(b[0], K[nr], t));                                                 \
            t = xts_mul_alpha(t);                                                                \
        }                                                                                        \
        vst1q_u8(tweak, t);                                                                      \
    }
XTS_BODY(xts_enc_body, a64_aes_enc_keys, enc_rounds)
XTS_BODY(xts_dec_body, a64_aes_dec_keys, dec_rounds)
static KT void KNAME(xts_enc)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(xts_enc_body, ks, ks, tweak, out, in, n);
}
static KT void KNAME(xts_dec)(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(xts_dec_body, ks, ks, tweak, out, in, n);
}

/* ------------------------------------------------------------------ OCB */

/* Offsets: O_i = O_{i-1} ^ L[ntz(i)].  Blocks i = 8k+1 .. 8k+8 take
 * L0 L1 L0 L2 L0 L1 L0 L[ntz(8k+8)], so once i is 1 mod 8 a group of eight
 * needs one table load; blocks before that go one at a time. */
#define OCB_BODY(NAME, KEYS, ROUNDS, ENC)                                                       \
    KINLINE void NAME(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t i, uint8_t offset[16],  \
                      uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n, const unsigned nr) { \
        LOAD_KEYS(K, KEYS(ks), nr);                                                              \
        v128 O = vld1q_u8(offset), cs = vld1q_u8(checksum);                                      \
        for (; n && (n < 8 || (i & 7) != 1); n--, i++, in += 16, out += 16) {                    \
            O = veorq_u8(O, vld1q_u8(L[__builtin_ctzll(i)]));                                    \
            v128 p = vld1q_u8(in), b[1] = {veorq_u8(p, O)};                                      \
            ROUNDS(b, 1, K, nr);                                                                 \
            v128 r = XOR3(b[0], K[nr], O);                                                       \
            cs = veorq_u8(cs, ENC ? p : r);                                                      \
            vst1q_u8(out, r);                                                                    \
        }                                                                                        \
        const v128 L0 = vld1q_u8(L[0]), L1 = vld1q_u8(L[1]), L2 = vld1q_u8(L[2]);                \
        for (; n >= 8; n -= 8, i += 8, in += 128, out += 128) {                                  \
            v128 b[8], o[8];                                                                     \
            A64_LOAD8(b, in);                                                                    \
            o[0] = veorq_u8(O, L0);                                                              \
            o[1] = veorq_u8(o[0], L1);                                                           \
            o[2] = veorq_u8(o[1], L0);                                                           \
            o[3] = veorq_u8(o[2], L2);                                                           \
            o[4] = veorq_u8(o[3], L0);                                                           \
            o[5] = veorq_u8(o[4], L1);                                                           \
            o[6] = veorq_u8(o[5], L0);                                                           \
            o[7] = veorq_u8(o[6], vld1q_u8(L[__builtin_ctzll(i + 7)]));                          \
            O = o[7];                                                                            \
            if (ENC)                                                                             \
                cs = ocb_sum8(cs, b);                                                            \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++)                                                     \
                b[j] = veorq_u8(b[j], o[j]);                                                     \
            ROUNDS(b, 8, K, nr);                                                                 \
            HWC_A64_UNROLL                                                                       \
            for (unsigned j = 0; j < 8; j++)                                                     \
                b[j] = XOR3(b[j], K[nr], o[j]);                                                  \
            if (!ENC)                                                                            \
                cs = ocb_sum8(cs, b);                                                            \
            A64_STORE8(out, b);                                                                  \
        }                                                                                        \
        for (; n; n--, i++, in += 16, out += 16) {                                               \
            O = veorq_u8(O, vld1q_u8(L[__builtin_ctzll(i)]));                                    \
            v128 p = vld1q_u8(in), b[1] = {veorq_u8(p, O)};                                      \
            ROUNDS(b, 1, K, nr);                                                                 \
            v128 r = XOR3(b[0], K[nr], O);                                                       \
            cs = veorq_u8(cs, ENC ? p : r);                                                      \
            vst1q_u8(out, r);                                                                    \
        }                                                                                        \
        vst1q_u8(offset, O);                                                                     \
        vst1q_u8(checksum, cs);                                                                  \
    }

/* cs ^ b[0] ^ ... ^ b[7], as a tree. */
KINLINE v128 ocb_sum8(v128 cs, const v128 *b) {
#if KEOR3
    v128 x = veor3q_u8(b[0], b[1], b[2]), y = veor3q_u8(b[3], b[4], b[5]);
    return veor3q_u8(veor3q_u8(cs, b[6], b[7]), x, y);
#else
    v128 x = veorq_u8(veorq_u8(b[0], b[1]), veorq_u8(b[2], b[3]));
    v128 y = veorq_u8(veorq_u8(b[4], b[5]), veorq_u8(b[6], b[7]));
    return veorq_u8(cs, veorq_u8(x, y));
#endif
}

OCB_BODY(ocb_enc_body, a64_aes_enc_keys, enc_rounds, 1)
OCB_BODY(ocb_dec_body, a64_aes_dec_keys, dec_rounds, 0)
static KT void KNAME(ocb_enc)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                              uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(ocb_enc_body, ks, ks, L, first_index, offset, checksum, out, in, n);
}
static KT void KNAME(ocb_dec)(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                              uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n) {
    KDISPATCH(ocb_dec_body, ks, ks, L, first_index, offset, checksum, out, in, n);
}

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
static KT size_t KNAME(gcm_enc)(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t state[16],
                                uint8_t *out, const uint8_t *in, size_t n) {
    size_t whole = n & ~(size_t)7;
    KDISPATCH(gcm_enc_body, ks, ks, hk, ctr, state, out, in, whole);
    return whole;
}
static KT size_t KNAME(gcm_dec)(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t state[16],
                                uint8_t *out, const uint8_t *in, size_t n) {
    size_t whole = n & ~(size_t)7;
    KDISPATCH(gcm_dec_body, ks, ks, hk, ctr, state, out, in, whole);
    return whole;
}

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

#define CCM_RUNS(body)                                                  \
    while (n) {                                                         \
        uint64_t room = ctr_room(ctr);                                  \
        size_t m = (uint64_t)n < room ? n : (size_t)room;               \
        KDISPATCH(body, ks, ks, ctr, mac, out, in, m);                  \
        if ((uint64_t)m == room)                                        \
            ctr_carry96(ctr);                                           \
        n -= m;                                                         \
        in += 16 * m;                                                   \
        out += 16 * m;                                                  \
    }
static KT void KNAME(ccm_enc)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t n) {
    CCM_RUNS(ccm_enc_body)
}
static KT void KNAME(ccm_dec)(const hwc_ks *ks, uint8_t ctr[16], uint8_t mac[16], uint8_t *out, const uint8_t *in,
                              size_t n) {
    CCM_RUNS(ccm_dec_body)
}
