/*
 * The VAES back ends' kernels, written once for any register width and
 * instantiated by aes_vaes.c (256-bit registers, two blocks each: "vaes")
 * and aes_vaes512.c (512-bit, four blocks: "vaes512"). A new width is a new
 * instance file, never a copy of this one.
 *
 * What an instance defines before including this file:
 *   VAES_TARGET            the function target attribute
 *   LANES                  blocks per register (2, 4)
 *   vec                    the register type
 *   V_PREFIX, V_INT        the intrinsics' prefix and suffix, for the
 *                          operations that differ only there (below)
 *   the other primitives   (v_bcast, v_chain_first ... v_lane_counts), one
 *                          line each
 *   v_load_part(), v_store_part()  the first k < LANES blocks of a register
 *   v_blocks(x)            a register from LANES blocks in registers
 *   COUNT_IN_PLACE     1: CTR and GCM count on the big-endian counter's
 *                          last byte while it does not wrap in the batch;
 *                          0: always on the byte-reversed counter
 *   GCM_GHASH()            the paired GHASH back end (short GCM calls use
 *                          its update)
 *   VAES_NAME, VAES_GHASH_NAME, VAES_CAPS, VAES_GETTER, vaes_set_key  the table
 *
 * Speed model (both widths): VAESENC issues as often as AESENC, so a
 * register of LANES blocks costs what one block costs with AES-NI; eight
 * registers in flight (a batch of 8 * LANES blocks) cover the latency.
 * The serial modes (CBC/CFB encryption, OFB, CBC-MAC, CCM) are the aesni
 * kernels themselves (latency-bound at any width; same key layout).
 *
 * The key schedule is the AES-NI one (x86_internal.h); round keys are
 * broadcast to all lanes as they are used. An XOR applied right after the
 * cipher (CTR data, XTS/OCB offsets, CBC chaining) is folded into the last
 * round key.
 *
 * Per-batch values, computed in registers:
 *   - CTR: the big-endian counter block stays in a register from batch to
 *     batch. With COUNT_IN_PLACE, while its last byte does not wrap within
 *     the batch, lane k of register m is that block plus LANES*m + k in the
 *     last byte (PADDD, no byte swap). Otherwise the byte-reversed counter
 *     is a little-endian integer that gets + LANES*m + k (PADDD for CTR32;
 *     PADDQ for CTR128 when the low 64 bits cannot carry within the batch,
 *     else that batch goes narrow).
 *   - CBC/CFB decryption: register j's chaining blocks are one unaligned
 *     load 16 bytes back; register 0's start with the previous batch's
 *     last block (v_chain_first).
 *   - XTS: register m holds the tweaks of blocks LANES*m..; each batch
 *     multiplies every register by alpha^BATCH (a lane rotation by BATCH/8
 *     bytes and one carry-less multiply folding back the bits that left the
 *     top), so no tweak waits on another.
 *   - OCB: in a batch starting at a block index i = BATCH*q + 1,
 *     Offset_{i-1+k} = Offset_{i-1} ^ R_k with R_k = L[ntz(1)] ^ ... ^
 *     L[ntz(k)] for k < BATCH (the same for every batch); the last block
 *     adds L[ntz(BATCH*(q+1))]. Input not starting on such an index first
 *     goes narrow up to the next one.
 *   - GCM: CTR32 of a batch interleaved with GHASH of a batch of
 *     ciphertext (when encrypting, the one made two batches before, or
 *     one before in calls of fewer than four batches; when decrypting,
 *     the current one) over rounds 1..8, the Karatsuba middles two
 *     registers at a time, one reduction per group of up to 32 blocks (two
 *     batches at 256 bits, gcm_batch_pair); the tail below one batch and
 *     the waiting blocks of the mode (gcm_crypt) in the same call.
 *     Counters as CTR32's (COUNT_IN_PLACE is faster at 256 bits; at 512
 *     bits, where a batch wraps the byte one time in eight, the plain
 *     byte-reversed count measured faster).
 *
 * Constant time: VAES, VPCLMULQDQ and the vector ALU have no data-dependent
 * timing; branches and table indices depend on lengths, the public
 * counter's carry positions (CTR128, GCM) and OCB block indices only.
 */
#ifndef HWC_VAES_WIDE_INSTANCE
#error "aes_vaes_wide.h is included by an instance file (aes_vaes.c, aes_vaes512.c) only"
#endif

#define V_INLINE HWC_X86_INLINE VAES_TARGET

/* The operations whose intrinsics differ by width only in their prefix
 * (V_PREFIX(aesenc_epi128): _mm256_aesenc_epi128, _mm512_aesenc_epi128)
 * or also in the integer-vector suffix (V_INT(xor): _mm256_xor_si256). */
V_INLINE vec v_loadu(const uint8_t *p) { return V_INT(loadu)((const void *)p); }
V_INLINE void v_storeu(uint8_t *p, vec v) { V_INT(storeu)((void *)p, v); }
V_INLINE vec v_zero(void) { return V_INT(setzero)(); }
V_INLINE vec v_xor(vec a, vec b) { return V_INT(xor)(a, b); }
V_INLINE vec v_and(vec a, vec b) { return V_INT(and)(a, b); }
V_INLINE vec v_add32(vec a, vec b) { return V_PREFIX(add_epi32)(a, b); }
V_INLINE vec v_add64(vec a, vec b) { return V_PREFIX(add_epi64)(a, b); }
V_INLINE vec v_sub64(vec a, vec b) { return V_PREFIX(sub_epi64)(a, b); }
V_INLINE vec v_sllv64(vec a, vec n) { return V_PREFIX(sllv_epi64)(a, n); }
V_INLINE vec v_srlv64(vec a, vec n) { return V_PREFIX(srlv_epi64)(a, n); }
V_INLINE vec v_bslli8(vec a) { return V_PREFIX(bslli_epi128)(a, 8); }
V_INLINE vec v_shuffle8(vec a, vec idx) { return V_PREFIX(shuffle_epi8)(a, idx); }
V_INLINE vec v_aesenc(vec a, vec k) { return V_PREFIX(aesenc_epi128)(a, k); }
V_INLINE vec v_aesenclast(vec a, vec k) { return V_PREFIX(aesenclast_epi128)(a, k); }
V_INLINE vec v_aesdec(vec a, vec k) { return V_PREFIX(aesdec_epi128)(a, k); }
V_INLINE vec v_aesdeclast(vec a, vec k) { return V_PREFIX(aesdeclast_epi128)(a, k); }
#define v_clmul(a, b, imm) V_PREFIX(clmulepi64_epi128)((a), (b), (imm))
/* The wide bodies stay out of line, so that the entry points, which hand
 * short inputs over, do no more than a call for them. */
#define V_NOINLINE VAES_TARGET __attribute__((noinline))

#define WIDE 8                   /* registers in flight */
#define BATCH (LANES * WIDE)     /* blocks per batch */
#define BATCH_BYTES (16 * BATCH)
#define VBYTES (16 * LANES)      /* bytes per register */

V_INLINE vec round_key(const __m128i *rk, unsigned r) {
    return v_bcast(_mm_load_si128(rk + r));
}

V_INLINE vec byteswap_lanes(void) {
    return v_bcast(pclmul_byteswap_mask());
}

/* -------------------------------------------------------- block engine */

/* b[j] = E(b[j]), j < G (WIDE for a batch, fewer for a short group), for
 * b[j] already whitened with round key 0, with register j's own last round
 * key last_keys[j] (the last round key with the XOR after the cipher
 * already in it). D with the decryption schedule; G, decrypt and nr are
 * constants after inlining. */
V_INLINE void crypt_group_to(vec *b, unsigned G, const __m128i *rk, unsigned nr, const vec *last_keys, int decrypt) {
    for (unsigned r = 1; r < nr; r++) {
        const vec k = round_key(rk, r);
        for (unsigned j = 0; j < G; j++)
            b[j] = decrypt ? v_aesdec(b[j], k) : v_aesenc(b[j], k);
    }
    for (unsigned j = 0; j < G; j++)
        b[j] = decrypt ? v_aesdeclast(b[j], last_keys[j]) : v_aesenclast(b[j], last_keys[j]);
}

/* b[j] = E(b[j]) ^ post[j] (post may be NULL), b[j] already whitened. */
V_INLINE void crypt_group_whitened(vec *b, unsigned G, const __m128i *rk, unsigned nr, const vec *post,
                                   int decrypt) {
    const vec last = round_key(rk, nr);
    vec last_keys[WIDE];
    for (unsigned j = 0; j < G; j++)
        last_keys[j] = post ? v_xor(last, post[j]) : last;
    crypt_group_to(b, G, rk, nr, last_keys, decrypt);
}

/* b[j] = E(b[j]) ^ post[j], whitening included. */
V_INLINE void crypt_group(vec *b, unsigned G, const __m128i *rk, unsigned nr, const vec *post, int decrypt) {
    const vec first = round_key(rk, 0);
    for (unsigned j = 0; j < G; j++)
        b[j] = v_xor(b[j], first);
    crypt_group_whitened(b, G, rk, nr, post, decrypt);
}

V_INLINE const __m128i *schedule(const hwc_ks *ks, int decrypt) {
    return decrypt ? aesni_dec_keys(ks) : aesni_enc_keys(ks);
}

/* The long path out of line keeps the short one free of its register saves
 * (the entry is then a compare and a jump). */
#define ENTRY_NOINLINE __attribute__((noinline))

/* An entry point whose calls and tails below one batch run here as one
 * group of registers (SHORT), from MIN blocks on; fewer (and empty calls)
 * go to aesni's FEW: for one block it measured 1.2x faster (CTR), on
 * vaes512 for two ECB blocks 1.14x (one masked 512-bit register), for two
 * or three CBC/CFB decryption blocks up to 1.06x. */
#define BATCHES_THEN_SHORT(name, BATCHES, SHORT, FEW, MIN)                                                  \
    static ENTRY_NOINLINE void name##_long(const hwc_ks *ks, uint8_t chain[16], uint8_t *out, const uint8_t *in, \
                                           size_t nblocks);                                                \
    static void name(const hwc_ks *ks, uint8_t chain[16], uint8_t *out, const uint8_t *in, size_t nblocks) { \
        if (nblocks < (MIN))                                                                               \
            FEW(ks, chain, out, in, nblocks);                                                              \
        else if (nblocks < BATCH)                                                                          \
            SHORT(ks, chain, out, in, nblocks);                                                            \
        else                                                                                               \
            name##_long(ks, chain, out, in, nblocks);                                                      \
    }                                                                                                      \
    static void name##_long(const hwc_ks *ks, uint8_t chain[16], uint8_t *out, const uint8_t *in, size_t nblocks) { \
        const size_t wide = nblocks / BATCH, rest = nblocks % BATCH;                                       \
        BATCHES(ks, chain, out, in, wide);                                                                 \
        if (rest >= (MIN))                                                                                 \
            SHORT(ks, chain, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, rest);                     \
        else if (rest != 0)                                                                                \
            FEW(ks, chain, out + wide * BATCH_BYTES, in + wide * BATCH_BYTES, rest);                       \
    }
/* The smallest calls of ECB, XTS and OCB, and of CBC/CFB decryption, that
 * run here (measured: below them aesni's kernels were as fast or faster;
 * for XTS and OCB, two blocks in one masked 512-bit register took up to
 * 1.19x and 1.04x aesni's time, in one 256-bit register 0.86-0.94x). */
#define BLOCKS_SHORT_MIN (LANES > 2 ? 3 : 2)
#define CHAINED_SHORT_MIN 4

/* Calls and tails below one batch: n (2..BATCH-1) blocks as one group of
 * ceil(n / LANES) registers, the last holding SHORT_PART(n) blocks (one
 * round's latency covers up to about four registers' issue, so a short
 * group costs about what one register does). SHORT_GROUP runs BODY with G
 * bound to the group size, a constant (one case each). */
#define SHORT_PART(n) ((unsigned)((n) % LANES != 0 ? (n) % LANES : LANES))
#define SHORT_GROUP(n, G, BODY)                              \
    do {                                                     \
        switch (((n) + LANES - 1) / LANES) {                 \
        case 1: { enum { G = 1 }; BODY; } break;             \
        case 2: { enum { G = 2 }; BODY; } break;             \
        case 3: { enum { G = 3 }; BODY; } break;             \
        case 4: { enum { G = 4 }; BODY; } break;             \
        case 5: { enum { G = 5 }; BODY; } break;             \
        case 6: { enum { G = 6 }; BODY; } break;             \
        case 7: { enum { G = 7 }; BODY; } break;             \
        default: { enum { G = 8 }; BODY; } break;            \
        }                                                    \
    } while (0)
_Static_assert(WIDE == 8, "SHORT_GROUP has a case per group size up to WIDE");

/* The G registers of data at in, the last holding part blocks (no byte
 * past them read). */
V_INLINE void load_group(vec *x, unsigned G, unsigned part, const uint8_t *in) {
    for (unsigned j = 0; j < G; j++)
        x[j] = (j == G - 1 && part < LANES) ? v_load_part(in + VBYTES * j, part) : v_loadu(in + VBYTES * j);
}

V_INLINE void store_group(uint8_t *out, const vec *x, unsigned G, unsigned part) {
    for (unsigned j = 0; j < G; j++) {
        if (j == G - 1 && part < LANES)
            v_store_part(out + VBYTES * j, x[j], part);
        else
            v_storeu(out + VBYTES * j, x[j]);
    }
}

/* ------------------------------------------------------------------ ECB */

V_INLINE void ecb_body(const hwc_ks *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t nbatches,
                       unsigned nr) {
    const __m128i *rk = schedule(ks, decrypt);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        vec b[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = v_loadu(in + VBYTES * j);
        crypt_group(b, WIDE, rk, nr, NULL, decrypt);
        for (unsigned j = 0; j < WIDE; j++)
            v_storeu(out + VBYTES * j, b[j]);
    }
}

static V_NOINLINE void ecb_enc_batches(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, ecb_body, ks, 0, out, in, nbatches);
}

static V_NOINLINE void ecb_dec_batches(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nbatches) {
    BY_ROUNDS(ks, ecb_body, ks, 1, out, in, nbatches);
}

/* Below one batch: one group (SHORT_GROUP), n >= BLOCKS_SHORT_MIN. */
V_INLINE void ecb_short_body(const hwc_ks *ks, int decrypt, uint8_t *out, const uint8_t *in, size_t n, unsigned nr) {
    const __m128i *rk = schedule(ks, decrypt);
    const unsigned part = SHORT_PART(n);
    vec b[WIDE];
    SHORT_GROUP(n, G, (load_group(b, G, part, in), crypt_group(b, G, rk, nr, NULL, decrypt),
                       store_group(out, b, G, part)));
}

static V_NOINLINE void ecb_enc_short(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ecb_short_body, ks, 0, out, in, nblocks);
}

static V_NOINLINE void ecb_dec_short(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ecb_short_body, ks, 1, out, in, nblocks);
}

/* BATCHES_THEN_SHORT without a chaining value. */
#define ECB_ENTRY(name, BATCHES, SHORT, OP)                                                                \
    static ENTRY_NOINLINE void name##_long(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks); \
    static void name(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {                 \
        if (nblocks < BLOCKS_SHORT_MIN)                                                                    \
            hwc_aesni_##OP(ks, out, in, nblocks);                                                          \
        else if (nblocks < BATCH)                                                                          \
            SHORT(ks, out, in, nblocks);                                                                   \
        else                                                                                               \
            name##_long(ks, out, in, nblocks);                                                             \
    }                                                                                                      \
    static void name##_long(const hwc_ks *ks, uint8_t *out, const uint8_t *in, size_t nblocks) {          \
        const size_t wide = nblocks / BATCH, rest = nblocks % BATCH;                                       \
        BATCHES(ks, out, in, wide);                                                                        \
        out += wide * BATCH_BYTES;                                                                         \
        in += wide * BATCH_BYTES;                                                                          \
        if (rest >= BLOCKS_SHORT_MIN)                                                                      \
            SHORT(ks, out, in, rest);                                                                      \
        else if (rest != 0)                                                                                \
            hwc_aesni_##OP(ks, out, in, rest);                                                             \
    }
ECB_ENTRY(vaes_ecb_enc, ecb_enc_batches, ecb_enc_short, ecb_enc)
ECB_ENTRY(vaes_ecb_dec, ecb_dec_batches, ecb_dec_short, ecb_dec)

/* ------------------------------------------------------------------ CTR */

/* A CTR32 position: the big-endian counter block in every lane, carried in
 * a register from batch to batch, and its last word, which the branches
 * read. (Rebuilt from the word each batch, the block waited on a move from
 * a general register, which delayed every batch's first round: CTR ran 1.3x
 * slower on Zen 3.) */
typedef struct ctr32_pos {
    vec block;
    uint32_t counter;
} ctr32_pos;

/* The counter block is stored back whole (ctr32_store, ctr128_store): the
 * next call's 16-byte load of it then forwards from that store, where
 * after word stores it waited for them to retire (a stall of about 20
 * cycles a call, measured as most of what a one-register call costs). */
V_INLINE ctr32_pos ctr32_at(const uint8_t ctr[16]) {
    const ctr32_pos p = {v_bcast(x86_loadu(ctr)), hwc_load_be32(ctr + 12)};
    return p;
}

/* The block of p with its counter plus n in the last word. */
V_INLINE void ctr32_store(uint8_t ctr[16], ctr32_pos p, uint32_t n) {
    x86_storeu(ctr, _mm_insert_epi32(v_low(p.block), (int)__builtin_bswap32(p.counter + n), 3));
}

/* p advanced by n (< 256) blocks: an add in place while the last byte does
 * not wrap, else the last word rebuilt. */
V_INLINE ctr32_pos ctr32_advance(ctr32_pos p, uint32_t n) {
    p.counter += n;
    p.block = (p.counter & 0xff) >= n ? v_add32(p.block, v_lane_top_words((int)(n << 24), 0))
                                      : v_set_last_word(p.block, __builtin_bswap32(p.counter));
    return p;
}

/* The counter blocks of registers j0..j0+n-1 of a batch whose big-endian
 * first block (in every lane) has a last byte that does not wrap within the
 * batch: k added to that byte, whitened with round key 0. */
V_INLINE void counters_in_place(vec *b, unsigned j0, unsigned n, vec block, vec first) {
    for (unsigned j = 0; j < n; j++)
        b[j] = v_xor(v_add32(block, v_lane_top_words((int)((LANES * (j0 + j)) << 24), 1 << 24)), first);
}

/* The counter blocks of registers j0..j0+n-1 of the span blocks (at most
 * BATCH) at p, whitened with round key 0. */
V_INLINE void ctr32_counters_within(vec *b, unsigned j0, unsigned n, ctr32_pos p, vec first, size_t span) {
    if (COUNT_IN_PLACE && (p.counter & 0xff) <= 0x100 - span) {
        counters_in_place(b, j0, n, p.block, first);
    } else {
        const vec bswap = byteswap_lanes();
        const vec reversed = v_shuffle8(p.block, bswap);
        for (unsigned j = 0; j < n; j++)
            b[j] = v_xor(v_shuffle8(v_add32(reversed, v_lane_words((int)(LANES * (j0 + j)), 1)), bswap), first);
    }
}

/* The same for the batch at p. */
V_INLINE void ctr32_counters(vec *b, unsigned j0, unsigned n, ctr32_pos p, vec first) {
    ctr32_counters_within(b, j0, n, p, first, BATCH);
}

/* One batch of CTR: b[j] are the counter blocks, whitened. */
V_INLINE void ctr_batch(const __m128i *rk, unsigned nr, vec b[WIDE], uint8_t *out, const uint8_t *in) {
    vec data[WIDE];
    for (unsigned j = 0; j < WIDE; j++)
        data[j] = v_loadu(in + VBYTES * j);
    crypt_group_whitened(b, WIDE, rk, nr, data, 0);
    for (unsigned j = 0; j < WIDE; j++)
        v_storeu(out + VBYTES * j, b[j]);
}

/* CTR32: the counter is the block's last word, big-endian, mod 2^32
 * (ctr32_counters). */
V_INLINE void ctr32_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                         unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    ctr32_pos pos = ctr32_at(ctr);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, pos = ctr32_advance(pos, BATCH)) {
        vec b[WIDE];
        ctr32_counters(b, 0, WIDE, pos, round_key(rk, 0));
        ctr_batch(rk, nr, b, out, in);
    }
    ctr32_store(ctr, pos, 0);
}

static V_NOINLINE void ctr32_batches(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                     size_t nbatches) {
    BY_ROUNDS(ks, ctr32_body, ks, ctr, out, in, nbatches);
}

/* CTR of G registers (G <= WIDE, a constant) in one interleaved group: b[j]
 * are their counter blocks, whitened; the last register holds only `part`
 * blocks (1..LANES) when part < LANES, and no byte past them is read or
 * written. */
V_INLINE void ctr_group(const __m128i *rk, unsigned nr, vec *b, unsigned G, unsigned part, uint8_t *out,
                        const uint8_t *in) {
    vec data[WIDE];
    load_group(data, G, part, in);
    crypt_group_whitened(b, G, rk, nr, data, 0);
    store_group(out, b, G, part);
}

/* CTR of a short call or tail, n (2..BATCH-1) blocks, as one group
 * (SHORT_GROUP), COUNTERS(g) making b[]. */
#define CTR_SHORT_GROUP(n, COUNTERS)                                                                      \
    do {                                                                                                  \
        const unsigned part_ = SHORT_PART(n);                                                             \
        vec b[WIDE];                                                                                      \
        SHORT_GROUP(n, g_, (COUNTERS(g_), ctr_group(rk, nr, b, g_, part_, out, in)));                    \
    } while (0)

V_INLINE void ctr32_short_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n,
                               unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const ctr32_pos pos = ctr32_at(ctr);
#define CTR32_SHORT_COUNTERS(g) ctr32_counters_within(b, 0, g, pos, round_key(rk, 0), n)
    CTR_SHORT_GROUP(n, CTR32_SHORT_COUNTERS);
#undef CTR32_SHORT_COUNTERS
    ctr32_store(ctr, pos, (uint32_t)n);
}

static V_NOINLINE void ctr32_short(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                   size_t nblocks) {
    BY_ROUNDS(ks, ctr32_short_body, ks, ctr, out, in, nblocks);
}

BATCHES_THEN_SHORT(vaes_ctr32, ctr32_batches, ctr32_short, hwc_aesni_ctr32, 2)

/* The big-endian counter block (hi, lo), stored whole (see ctr32_at). */
V_INLINE void ctr128_store(uint8_t ctr[16], uint64_t hi, uint64_t lo) {
    x86_storeu(ctr, _mm_set_epi64x((long long)__builtin_bswap64(lo), (long long)__builtin_bswap64(hi)));
}

/* The counter blocks of registers 0..n-1 for a 128-bit counter (hi, lo)
 * whose low 64 bits do not carry within them, whitened with round key 0:
 * lane k is (hi, lo + k), register j adds LANES * j to the low halves. */
V_INLINE void ctr128_counters_reversed(vec *b, unsigned n, uint64_t hi, uint64_t lo, vec first) {
    const vec bswap = byteswap_lanes();
    const vec base = v_add64(v_bcast(_mm_set_epi64x((long long)hi, (long long)lo)), v_lane_words(0, 1));
    for (unsigned j = 0; j < n; j++)
        b[j] = v_xor(v_shuffle8(v_add64(base, v_lane_words((int)(LANES * j), 0)), bswap), first);
}

/* CTR128: while the last byte does not wrap within the batch, the counter
 * blocks are the big-endian block plus k in that byte (no byte swaps, as
 * ctr32_counters); else, while the low 64 bits cannot carry within the
 * batch, PADDQ on the byte-reversed counter; the rare batch where they do
 * (once per 2^64 blocks) runs on aesni. The counter is public, so
 * branching on it is fine. */
V_INLINE void ctr128_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nbatches,
                          unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    vec block = v_bcast(x86_loadu(ctr)); /* the big-endian counter block */
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        const vec first = round_key(rk, 0);
        vec b[WIDE];
        if (COUNT_IN_PLACE && (lo & 0xff) <= 0x100 - BATCH) {
            counters_in_place(b, 0, WIDE, block, first);
        } else if (lo <= UINT64_MAX - (BATCH - 1)) {
            ctr128_counters_reversed(b, WIDE, hi, lo, first);
        } else {
            ctr128_store(ctr, hi, lo);
            hwc_aesni_ctr128(ks, ctr, out, in, BATCH);
            hi = hwc_load_be64(ctr);
            lo = hwc_load_be64(ctr + 8);
            block = v_bcast(x86_loadu(ctr));
            continue;
        }
        ctr_batch(rk, nr, b, out, in);
        lo += BATCH;
        hi += (lo < BATCH); /* carry out of the low half */
        if ((lo & 0xff) >= BATCH) /* no carry out of the last byte */
            block = v_add32(block, v_lane_top_words(BATCH << 24, 0));
        else
            block = v_bcast(_mm_set_epi64x((long long)__builtin_bswap64(lo), (long long)__builtin_bswap64(hi)));
    }
    ctr128_store(ctr, hi, lo);
}

static V_NOINLINE void ctr128_batches(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                      size_t nbatches) {
    BY_ROUNDS(ks, ctr128_body, ks, ctr, out, in, nbatches);
}

/* CTR128 below one batch (ctr32_short's group): the counters as
 * ctr128_body makes them; the rare call whose low 64 bits carry inside it
 * runs on aesni. */
V_INLINE void ctr128_short_body(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t n,
                                unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    uint64_t hi = hwc_load_be64(ctr), lo = hwc_load_be64(ctr + 8);
    if (COUNT_IN_PLACE && (lo & 0xff) <= 0x100 - n) {
        const vec block = v_bcast(x86_loadu(ctr));
#define CTR128_IN_PLACE(g) counters_in_place(b, 0, g, block, round_key(rk, 0))
        CTR_SHORT_GROUP(n, CTR128_IN_PLACE);
#undef CTR128_IN_PLACE
    } else if (lo <= UINT64_MAX - (n - 1)) {
#define CTR128_REVERSED(g) ctr128_counters_reversed(b, g, hi, lo, round_key(rk, 0))
        CTR_SHORT_GROUP(n, CTR128_REVERSED);
#undef CTR128_REVERSED
    } else {
        hwc_aesni_ctr128(ks, ctr, out, in, n);
        return;
    }
    lo += n;
    hi += (lo < n); /* carry out of the low half */
    ctr128_store(ctr, hi, lo);
}

static V_NOINLINE void ctr128_short(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in,
                                    size_t nblocks) {
    BY_ROUNDS(ks, ctr128_short_body, ks, ctr, out, in, nblocks);
}

BATCHES_THEN_SHORT(vaes_ctr128, ctr128_batches, ctr128_short, hwc_aesni_ctr128, 2)

/* ---------------------------------------------------------- CBC, CFB */

/* CBC decryption P_j = D(C_j) ^ C_{j-1} and CFB decryption P_j =
 * E(C_{j-1}) ^ C_j share the chaining inputs: register j's are one
 * unaligned load 16 bytes back for j >= 1; register 0's are the previous
 * batch's last block followed by the batch's first LANES - 1. All loads come
 * before the stores, so out == in works. */
V_INLINE void chained_body(const hwc_ks *ks, int cfb, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                           size_t nbatches, unsigned nr) {
    const __m128i *rk = schedule(ks, !cfb);
    vec chain = v_bcast(x86_loadu(iv));
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        vec cipher[WIDE], prev[WIDE];
        for (unsigned j = 0; j < WIDE; j++)
            cipher[j] = v_loadu(in + VBYTES * j);
        prev[0] = v_chain_first(chain, cipher[0]);
        for (unsigned j = 1; j < WIDE; j++)
            prev[j] = v_loadu(in + VBYTES * j - 16);
        chain = cipher[WIDE - 1];
        if (cfb) {
            crypt_group(prev, WIDE, rk, nr, cipher, 0);
            for (unsigned j = 0; j < WIDE; j++)
                v_storeu(out + VBYTES * j, prev[j]);
        } else {
            crypt_group(cipher, WIDE, rk, nr, prev, 1);
            for (unsigned j = 0; j < WIDE; j++)
                v_storeu(out + VBYTES * j, cipher[j]);
        }
    }
    x86_storeu(iv, v_last(chain));
}

static V_NOINLINE void cbc_dec_batches(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                       size_t nbatches) {
    BY_ROUNDS(ks, chained_body, ks, 0, iv, out, in, nbatches);
}

static V_NOINLINE void cfb_dec_batches(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                       size_t nbatches) {
    BY_ROUNDS(ks, chained_body, ks, 1, iv, out, in, nbatches);
}

/* Below one batch: one group (SHORT_GROUP), the chaining inputs as
 * chained_body's; all loads before the stores. */
V_INLINE void chained_group(const __m128i *rk, unsigned nr, int cfb, unsigned G, unsigned part, __m128i iv,
                            uint8_t *out, const uint8_t *in) {
    vec cipher[WIDE], prev[WIDE];
    load_group(cipher, G, part, in);
    prev[0] = v_chain_first(v_bcast(iv), cipher[0]);
    if (G > 1)
        load_group(prev + 1, G - 1, part, in + VBYTES - 16);
    if (cfb) {
        crypt_group(prev, G, rk, nr, cipher, 0);
        store_group(out, prev, G, part);
    } else {
        crypt_group(cipher, G, rk, nr, prev, 1);
        store_group(out, cipher, G, part);
    }
}

V_INLINE void chained_short_body(const hwc_ks *ks, int cfb, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                 size_t n, unsigned nr) {
    const __m128i *rk = schedule(ks, !cfb);
    const unsigned part = SHORT_PART(n);
    const __m128i chain = x86_loadu(iv), next = x86_loadu(in + 16 * (n - 1));
    SHORT_GROUP(n, G, chained_group(rk, nr, cfb, G, part, chain, out, in));
    x86_storeu(iv, next);
}

static V_NOINLINE void cbc_dec_short(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                     size_t nblocks) {
    BY_ROUNDS(ks, chained_short_body, ks, 0, iv, out, in, nblocks);
}

static V_NOINLINE void cfb_dec_short(const hwc_ks *ks, uint8_t iv[16], uint8_t *out, const uint8_t *in,
                                     size_t nblocks) {
    BY_ROUNDS(ks, chained_short_body, ks, 1, iv, out, in, nblocks);
}

BATCHES_THEN_SHORT(vaes_cbc_dec, cbc_dec_batches, cbc_dec_short, hwc_aesni_cbc_dec, CHAINED_SHORT_MIN)
BATCHES_THEN_SHORT(vaes_cfb_dec, cfb_dec_batches, cfb_dec_short, hwc_aesni_cfb_dec, CHAINED_SHORT_MIN)

/* ------------------------------------------------------------------ XTS */

/* Each lane times alpha^BATCH: rotate the lane left by BATCH/8 bytes, which
 * is the BATCH-bit shift with the bits c leaving the top already back at
 * the bottom; the result needs c * 0x87 there instead of c, so XOR in the
 * carry-less product c * 0x86 (below 2^(BATCH+8)). */
V_INLINE vec xts_mul_alpha_batch(vec t) {
    const vec poly = v_lane_words(0x86, 0);
    const vec low = v_lane_words((int)(uint32_t)((1ull << BATCH) - 1), 0);
    const vec rotated = v_rotate_lanes(t);
    return v_xor(rotated, v_clmul(v_and(rotated, low), poly, 0x00));
}

/* Each lane times alpha^k, k (0..63) given per 64-bit half (both halves of
 * a lane equal): a k-bit shift across the lane's halves; the k bits leaving
 * the top fold back as their carry-less product with 0x87 (below 2^(k+8),
 * so within the lane). A count of 0 leaves the lane as is (the right shift
 * by 64 gives 0). For the first batch and short groups only. */
V_INLINE vec xts_mul_alpha_k(vec t, vec k) {
    const vec poly = v_lane_words(0x87, 0);
    const vec up = v_sllv64(t, k);
    const vec carry = v_srlv64(t, v_sub64(v_set1_64(64), k)); /* bits leaving each half */
    return v_xor(v_xor(up, v_bslli8(carry)), v_clmul(carry, poly, 0x01));
}

/* Registers 0..G-1 of tweaks from tweak t: register j holds the tweaks of
 * blocks LANES*j.., register 0 is t times alpha^0..LANES-1 (per-lane shift
 * counts), registers 1..D-1 (D = 8 / LANES) register 0 times
 * alpha^(LANES*j), and register j >= D register j - D times alpha^8. A
 * macro: as an inline function, GCC compiled xts_body around it with more
 * spills (vaes512's AES-256-XTS at 512 bytes 1.02x slower). */
#define XTS_D (8 / LANES)
#define xts_first_tweaks(tweaks, G, t)                                                                    \
    do {                                                                                                  \
        (tweaks)[0] = xts_mul_alpha_k(v_bcast(t), v_lane_counts());                                       \
        for (unsigned j_ = 1; j_ < XTS_D && j_ < (G); j_++)                                               \
            (tweaks)[j_] = xts_mul_alpha_k((tweaks)[0], v_set1_64((long long)(LANES * j_)));              \
        for (unsigned j_ = XTS_D; j_ < (G); j_++)                                                         \
            (tweaks)[j_] = xts_mul_alpha_k((tweaks)[j_ - XTS_D], v_set1_64(8));                           \
    } while (0)

/* Register j of a batch holds the tweaks of its blocks LANES*j..; the first
 * batch's are xts_first_tweaks'.
 *
 * Each batch takes its tweaks' last-round keys (tweak ^ last key) first and
 * then moves the tweaks on to the next batch, one register after each of
 * rounds 1..WIDE, so the multiplies issue among this batch's rounds. (Moved
 * on after the last round, as before, the next batch's first round waited
 * on them: XTS ran 1.1x slower on Zen 3.) */
V_INLINE void xts_body(const hwc_ks *ks, int decrypt, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                       size_t nbatches, unsigned nr) {
    const __m128i *rk = schedule(ks, decrypt);
    vec tweaks[WIDE];
    xts_first_tweaks(tweaks, WIDE, x86_loadu(tweak));
    const vec first = round_key(rk, 0), last = round_key(rk, nr);
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES) {
        vec b[WIDE], last_keys[WIDE];
        for (unsigned j = 0; j < WIDE; j++) {
            b[j] = v_xor(v_loadu(in + VBYTES * j), v_xor(tweaks[j], first));
            last_keys[j] = v_xor(tweaks[j], last);
        }
        for (unsigned r = 1; r < nr; r++) {
            const vec k = round_key(rk, r);
            for (unsigned j = 0; j < WIDE; j++)
                b[j] = decrypt ? v_aesdec(b[j], k) : v_aesenc(b[j], k);
            if (r <= WIDE) /* nr >= 10 > WIDE */
                tweaks[r - 1] = xts_mul_alpha_batch(tweaks[r - 1]);
        }
        for (unsigned j = 0; j < WIDE; j++) {
            b[j] = decrypt ? v_aesdeclast(b[j], last_keys[j]) : v_aesenclast(b[j], last_keys[j]);
            v_storeu(out + VBYTES * j, b[j]);
        }
    }
    x86_storeu(tweak, v_low(tweaks[0]));
}

static V_NOINLINE void xts_enc_batches(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                       size_t nbatches) {
    BY_ROUNDS(ks, xts_body, ks, 0, tweak, out, in, nbatches);
}

static V_NOINLINE void xts_dec_batches(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                       size_t nbatches) {
    BY_ROUNDS(ks, xts_body, ks, 1, tweak, out, in, nbatches);
}

/* Below one batch: one group (SHORT_GROUP), the tweaks as the first
 * batch's; the next tweak, t times alpha^n, straight from t (n < BATCH, off
 * the group's path). */
V_INLINE void xts_group(const __m128i *rk, unsigned nr, int decrypt, unsigned G, unsigned part, __m128i t,
                        uint8_t *out, const uint8_t *in) {
    vec b[WIDE], tweaks[WIDE];
    xts_first_tweaks(tweaks, G, t);
    load_group(b, G, part, in);
    for (unsigned j = 0; j < G; j++)
        b[j] = v_xor(b[j], tweaks[j]);
    crypt_group(b, G, rk, nr, tweaks, decrypt);
    store_group(out, b, G, part);
}

V_INLINE void xts_short_body(const hwc_ks *ks, int decrypt, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                             size_t n, unsigned nr) {
    const __m128i *rk = schedule(ks, decrypt);
    const unsigned part = SHORT_PART(n);
    const __m128i t = x86_loadu(tweak);
    SHORT_GROUP(n, G, xts_group(rk, nr, decrypt, G, part, t, out, in));
    x86_storeu(tweak, v_low(xts_mul_alpha_k(v_bcast(t), v_set1_64((long long)n))));
}

static V_NOINLINE void xts_enc_short(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                     size_t nblocks) {
    BY_ROUNDS(ks, xts_short_body, ks, 0, tweak, out, in, nblocks);
}

static V_NOINLINE void xts_dec_short(const hwc_ks *ks, uint8_t tweak[16], uint8_t *out, const uint8_t *in,
                                     size_t nblocks) {
    BY_ROUNDS(ks, xts_short_body, ks, 1, tweak, out, in, nblocks);
}

BATCHES_THEN_SHORT(vaes_xts_enc, xts_enc_batches, xts_enc_short, hwc_aesni_xts_enc, BLOCKS_SHORT_MIN)
BATCHES_THEN_SHORT(vaes_xts_dec, xts_dec_batches, xts_dec_short, hwc_aesni_xts_dec, BLOCKS_SHORT_MIN)

/* ----------------------------------------------------------------- OCB3 */

/* Offsets of a batch relative to the offset before it: rel[j] holds
 * R_{LANES*j+1}.. with R_k = L[ntz(1)] ^ ... ^ L[ntz(k)]; the last lane of
 * rel[WIDE-1] holds R_{BATCH-1} (block BATCH's own offset depends on the
 * batch, since ntz(BATCH*(q+1)) does). */
typedef struct ocb_rel {
    vec rel[WIDE];
    __m128i r_last;
} ocb_rel;

/* In registers, with no table in memory to fill, reload and wipe (which
 * cost a 16-block call more than its batch). With S_j = R_{LANES*j}:
 * R_{LANES*j+i} = S_j ^ R_i for 0 < i < LANES (ntz(LANES*j + i) = ntz(i)),
 * and S_{j+1} = S_j ^ R_{LANES-1} ^ L[ntz(LANES*(j+1))]. */
V_INLINE void ocb_rel_init(ocb_rel *t, const uint8_t (*L)[16]) {
    __m128i r_small[LANES]; /* R_1..R_{LANES-1} */
    __m128i r = _mm_setzero_si128();
    for (unsigned i = 1; i < LANES; i++) {
        r = _mm_xor_si128(r, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctz(i)]));
        r_small[i] = r;
    }
    /* R_1..R_{LANES-1} in lanes 0..LANES-2, shifted in from the top. */
    vec low = v_zero();
    for (unsigned i = LANES - 1; i >= 1; i--)
        low = v_chain_first(v_bcast(r_small[i]), low);
    __m128i s = _mm_setzero_si128();
    for (unsigned j = 0; j + 1 < WIDE; j++) {
        const __m128i next = _mm_xor_si128(
            _mm_xor_si128(s, r), _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctz(LANES * (j + 1))]));
        t->rel[j] = v_set_last(v_xor(v_bcast(s), low), next);
        s = next;
    }
    t->r_last = _mm_xor_si128(s, r);
    t->rel[WIDE - 1] = v_set_last(v_xor(v_bcast(s), low), t->r_last);
}

V_INLINE void ocb_body(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, __m128i *offset,
                       vec *checksum, uint8_t *out, const uint8_t *in, size_t nbatches, unsigned nr) {
    const __m128i *rk = schedule(ks, decrypt);
    ocb_rel rel;
    ocb_rel_init(&rel, L);
    /* Block k's offset enters with round key 0 and leaves with the last
     * one: make it once as offset ^ K0 (whitened) and take the last round
     * key as that ^ (K0 ^ Klast), two XORs a register fewer. */
    const __m128i k0 = _mm_load_si128(rk), k0_last = _mm_xor_si128(k0, _mm_load_si128(rk + nr));
    const vec first_to_last = v_bcast(k0_last);
    vec sum = *checksum;
    __m128i off = *offset;
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, index += BATCH) {
        /* Index of the batch's last block: a multiple of BATCH, public. */
        const __m128i l_last = _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index + BATCH - 1)]);
        const vec base = v_bcast(_mm_xor_si128(off, k0));
        vec b[WIDE], last_keys[WIDE];
        off = _mm_xor_si128(_mm_xor_si128(off, rel.r_last), l_last);
        for (unsigned j = 0; j < WIDE; j++) {
            vec whitened_offset = v_xor(base, rel.rel[j]);
            if (j == WIDE - 1)
                whitened_offset = v_set_last(whitened_offset, _mm_xor_si128(off, k0));
            b[j] = v_loadu(in + VBYTES * j);
            if (!decrypt)
                sum = v_xor(sum, b[j]);
            b[j] = v_xor(b[j], whitened_offset);
            last_keys[j] = v_xor(whitened_offset, first_to_last);
        }
        crypt_group_to(b, WIDE, rk, nr, last_keys, decrypt);
        for (unsigned j = 0; j < WIDE; j++) {
            if (decrypt)
                sum = v_xor(sum, b[j]);
            v_storeu(out + VBYTES * j, b[j]);
        }
    }
    *offset = off;
    *checksum = sum;
}

V_INLINE void ocb_batches(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                          uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nbatches) {
    __m128i off = x86_loadu(offset);
    vec sum = v_zext(x86_loadu(checksum));
    BY_ROUNDS(ks, ocb_body, ks, decrypt, L, index, &off, &sum, out, in, nbatches);
    x86_storeu(offset, off);
    x86_storeu(checksum, v_fold(sum));
}

/* Below one batch, from any first index: one group (SHORT_GROUP). The
 * offsets are a chain of XORs, Offset_i = Offset_{i-1} ^ L[ntz(i)], kept
 * whitened with round key 0 as aesni's are, LANES of them a register
 * (v_blocks); the lanes past the last block take its offset again. */
V_INLINE void ocb_group(const __m128i *rk, unsigned nr, int decrypt, const uint8_t (*L)[16], uint64_t index,
                        unsigned G, unsigned part, __m128i *offk, vec *checksum, uint8_t *out, const uint8_t *in) {
    const vec first_to_last = v_bcast(_mm_xor_si128(_mm_load_si128(rk), _mm_load_si128(rk + nr)));
    vec b[WIDE], last_keys[WIDE], sum = *checksum;
    load_group(b, G, part, in);
    for (unsigned j = 0; j < G; j++) {
        __m128i offs[LANES];
        for (unsigned l = 0; l < LANES; l++) {
            if (j + 1 < G || l < part) /* block counts are public */
                *offk = _mm_xor_si128(*offk, _mm_load_si128((const __m128i *)(const void *)L[__builtin_ctzll(index)]));
            index++;
            offs[l] = *offk;
        }
        const vec whitened_offset = v_blocks(offs);
        if (!decrypt)
            sum = v_xor(sum, b[j]); /* the lanes past the last block are zero */
        b[j] = v_xor(b[j], whitened_offset);
        last_keys[j] = v_xor(whitened_offset, first_to_last);
    }
    crypt_group_to(b, G, rk, nr, last_keys, decrypt);
    if (decrypt && part < LANES) { /* the lanes past the last block out of the checksum */
        static const uint8_t all_ones[VBYTES] = {[0 ... VBYTES - 1] = 0xff};
        b[G - 1] = v_and(b[G - 1], v_load_part(all_ones, part));
    }
    for (unsigned j = 0; decrypt && j < G; j++)
        sum = v_xor(sum, b[j]);
    store_group(out, b, G, part);
    *checksum = sum;
}

V_INLINE void ocb_short_body(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index,
                             uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t n,
                             unsigned nr) {
    const __m128i *rk = schedule(ks, decrypt);
    const __m128i k0 = _mm_load_si128(rk);
    const unsigned part = SHORT_PART(n);
    __m128i offk = _mm_xor_si128(x86_loadu(offset), k0);
    vec sum = v_zext(x86_loadu(checksum));
    SHORT_GROUP(n, G, ocb_group(rk, nr, decrypt, L, index, G, part, &offk, &sum, out, in));
    x86_storeu(offset, _mm_xor_si128(offk, k0));
    x86_storeu(checksum, v_fold(sum));
}

static V_NOINLINE void ocb_enc_short(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                                     uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ocb_short_body, ks, 0, L, index, offset, checksum, out, in, nblocks);
}

static V_NOINLINE void ocb_dec_short(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                                     uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    BY_ROUNDS(ks, ocb_short_body, ks, 1, L, index, offset, checksum, out, in, nblocks);
}

/* Fewer than BATCH blocks: one group from BLOCKS_SHORT_MIN on, else aesni's
 * kernel. decrypt is a constant after inlining (each direction its own
 * entry, so nothing on the way branches on it). */
HWC_X86_INLINE void ocb_few(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index,
                            uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                            size_t nblocks) {
    if (nblocks >= BLOCKS_SHORT_MIN)
        (decrypt ? ocb_dec_short : ocb_enc_short)(ks, L, index, offset, checksum, out, in, nblocks);
    else
        (decrypt ? hwc_aesni_ocb_dec : hwc_aesni_ocb_enc)(ks, L, index, offset, checksum, out, in, nblocks);
}

/* BATCH blocks or more: up to the next index that is 1 mod BATCH, the
 * batches, the tail. */
V_INLINE void ocb_long(const hwc_ks *ks, int decrypt, const uint8_t (*L)[16], uint64_t index, uint8_t offset[16],
                       uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    const size_t lead = (size_t)((BATCH + 1 - index % BATCH) % BATCH); /* < BATCH <= nblocks */
    if (lead != 0) {
        ocb_few(ks, decrypt, L, index, offset, checksum, out, in, lead);
        index += lead;
        in += 16 * lead;
        out += 16 * lead;
        nblocks -= lead;
    }
    const size_t wide = nblocks / BATCH;
    if (wide != 0) {
        ocb_batches(ks, decrypt, L, index, offset, checksum, out, in, wide);
        index += wide * BATCH;
        in += wide * BATCH_BYTES;
        out += wide * BATCH_BYTES;
        nblocks -= wide * BATCH;
    }
    if (nblocks != 0)
        ocb_few(ks, decrypt, L, index, offset, checksum, out, in, nblocks);
}

static V_NOINLINE void vaes_ocb_enc_long(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t index,
                                         uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    ocb_long(ks, 0, L, index, offset, checksum, out, in, nblocks);
}

static V_NOINLINE void vaes_ocb_dec_long(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t index,
                                         uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in,
                                         size_t nblocks) {
    ocb_long(ks, 1, L, index, offset, checksum, out, in, nblocks);
}

static void vaes_ocb_enc(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                         uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks < BATCH)
        ocb_few(ks, 0, L, first_index, offset, checksum, out, in, nblocks);
    else
        vaes_ocb_enc_long(ks, L, first_index, offset, checksum, out, in, nblocks);
}

static void vaes_ocb_dec(const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index, uint8_t offset[16],
                         uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks < BATCH)
        ocb_few(ks, 1, L, first_index, offset, checksum, out, in, nblocks);
    else
        vaes_ocb_dec_long(ks, L, first_index, offset, checksum, out, in, nblocks);
}

/* ------------------------------------------------------------------ GCM */

/* The powers of H in the paired GHASH key (vpclmul_ghash_key, both
 * widths): H^32..H^1 and their Karatsuba halves. A group of n blocks
 * hashed with one reduction gives block j H^(n-j); the LANES powers of a
 * register starting at H^e are the 16 * LANES bytes at gcm_power(t, e)
 * (descending). A group can take up to GCM_GROUP_MAX blocks: a whole
 * batch and, with 256-bit registers, the blocks after the last one. */
#define GCM_GROUP_MAX VPCLMUL_KEY_POWERS
/* The batches' Karatsuba middles go two registers at a time
 * (gcm_batch_into): registers 2p + 1 and 2p + 2 (mod WIDE) of a batch,
 * p < WIDE / 2, hi ^ lo of each lane's block of the first in the lane's
 * low half and of the second in its high half (VPUNPCKLQDQ, VPUNPCKHQDQ,
 * VPXOR for both, where each alone took VPSHUFD and VPXOR), multiplied by
 * pair_mid[h][p], which holds the hi ^ lo of the first's powers low and
 * the second's high (imm 0x00 and 0x11), for a batch at top BATCH (h = 0)
 * or 2 * BATCH (h = 1, the first of a two-batch group). */
#define GCM_PAIR_TOPS (2 * BATCH <= GCM_GROUP_MAX ? 2 : 1) /* vaes512 has no two-batch groups */
typedef struct gcm_table {
    const uint8_t *power, *karatsuba;
    vec pair_mid[GCM_PAIR_TOPS][WIDE / 2];
} gcm_table;

#define gcm_power(t, e) ((t)->power + 16 * (GCM_GROUP_MAX - (e)))
#define gcm_power_karatsuba(t, e) ((t)->karatsuba + 16 * (GCM_GROUP_MAX - (e)))
/* Pair p's registers in a batch: 2p + 1 and 2p + 2 (mod WIDE). */
#define PAIR_FIRST(p) (2 * (p) + 1)
#define PAIR_SECOND(p) ((2 * (p) + 2) % WIDE)

/* The table of hk; pair_mid only with pair_keys (a call with batches that
 * hash: at 512 bytes on vaes512 the keys alone cost 1%). */
V_INLINE gcm_table gcm_table_of(const hwc_ghash_key *hk, int pair_keys) {
    gcm_table t;
    t.power = vpclmul_power_slots(hk);
    t.karatsuba = vpclmul_karatsuba_slots(hk);
    for (unsigned h = 0; pair_keys && h < GCM_PAIR_TOPS; h++) {
        const size_t top = (h + 1) * BATCH;
        for (unsigned p = 0; p < WIDE / 2; p++) /* the slots hold hi ^ lo in both halves */
            t.pair_mid[h][p] =
                V_PREFIX(unpacklo_epi64)(v_loadu(gcm_power_karatsuba(&t, top - LANES * PAIR_FIRST(p))),
                                         v_loadu(gcm_power_karatsuba(&t, top - LANES * PAIR_SECOND(p))));
    }
    return t;
}

/* An unreduced sum of 256-bit products, LANES lanes of Karatsuba parts. */
typedef struct clmul_accv {
    vec lo, mid, hi;
} clmul_accv;

V_INLINE void acc_zero(clmul_accv *acc) {
    acc->lo = acc->mid = acc->hi = v_zero();
}

/* acc += x * h lane-wise: three products (Karatsuba; h_mid holds hi ^ lo
 * of each lane's power). The empty asm makes the sums register values
 * here: otherwise GCC reassociates a batch's XOR chains into one sum of
 * all 24 products at the end, each product spilled to the stack until
 * then (a fifth of the fused loop's time). */
V_INLINE void acc_mul(clmul_accv *acc, vec x, vec h, vec h_mid) {
    acc->lo = v_xor(acc->lo, v_clmul(x, h, 0x00));
    acc->hi = v_xor(acc->hi, v_clmul(x, h, 0x11));
    acc->mid = v_xor(acc->mid, v_clmul(v_xor(x, v_swap64(x)), h_mid, 0x00));
    __asm__("" : "+v"(acc->lo), "+v"(acc->mid), "+v"(acc->hi));
}

/* Register q of a batch of ciphertext as GHASH input: byte-swapped, the
 * state joined to the batch's first block when join is set (a group's
 * second batch has none). */
V_INLINE vec ghash_batch_input(__m128i state, int join, const uint8_t *blocks, unsigned q) {
    vec x = v_shuffle8(v_loadu(blocks + VBYTES * q), byteswap_lanes());
    if (join && q == 0)
        x = v_xor(x, v_zext(state));
    return x;
}

/* Register q of a batch of ciphertext into the GHASH sum of a group whose
 * first block is the batch's and takes H^top (BATCH, more when blocks
 * after the batch join the group, 2 * BATCH for the first batch of a
 * two-batch group). */
V_INLINE void ghash_batch_part(clmul_accv *acc, const gcm_table *t, __m128i state, int join, const uint8_t *blocks,
                               unsigned q, size_t top) {
    acc_mul(acc, ghash_batch_input(state, join, blocks, q), v_loadu(gcm_power(t, top - LANES * q)),
            v_loadu(gcm_power_karatsuba(t, top - LANES * q)));
}

/* acc * x^-128 mod Q in each lane, then the lanes summed (the reduction is
 * linear). The Montgomery folds of clmul_acc_reduce (x86_internal.h),
 * arranged so that no 64-bit shift of the Karatsuba middle is needed: the
 * middle sum sits 64 bits up, so lo's low half folds into it (its high half
 * lands there as is, via the swap), then the middle's low half folds into
 * hi the same way. Three shuffles a batch instead of seven. */
V_INLINE __m128i ghash_reduce(const clmul_accv *acc) {
    const vec fold = v_bcast(_mm_set_epi64x(0, (long long)0xC200000000000000ull));
    vec mid = v_xor(acc->mid, v_xor(acc->lo, acc->hi));
    mid = v_xor(mid, v_xor(v_swap64(acc->lo), v_clmul(acc->lo, fold, 0x00)));
    const vec hi = v_xor(acc->hi, v_xor(v_swap64(mid), v_clmul(mid, fold, 0x00)));
    return v_fold(hi);
}

/* Adds the n blocks at p (0..GCM_GROUP_MAX) to the unreduced sums acc (a
 * register of LANES blocks at a time) and single (the first n % LANES
 * blocks, one at a time, 128-bit products); block j takes H^(top - j). The
 * state joins the first block when join is set. */
V_INLINE void ghash_add_blocks(clmul_accv *acc, clmul_acc *single, const gcm_table *t, __m128i state, int join,
                               const uint8_t *p, size_t n, size_t top) {
    const __m128i bswap = pclmul_byteswap_mask();
    const size_t singles = n % LANES;
    for (size_t i = 0; i < singles; i++, p += 16, top--) {
        __m128i x = _mm_shuffle_epi8(x86_loadu(p), bswap);
        if (join && i == 0)
            x = _mm_xor_si128(x, state);
        clmul_acc_add(single, x, _mm_loadu_si128((const __m128i *)(const void *)gcm_power(t, top)),
                      _mm_loadu_si128((const __m128i *)(const void *)gcm_power_karatsuba(t, top)));
    }
    for (size_t i = singles; i < n; i += LANES, p += VBYTES, top -= LANES) {
        vec x = v_shuffle8(v_loadu(p), byteswap_lanes());
        if (join && i == 0)
            x = v_xor(x, v_zext(state));
        acc_mul(acc, x, v_loadu(gcm_power(t, top)), v_loadu(gcm_power_karatsuba(t, top)));
    }
}

/* The single-block products joined to the register sums, then reduced. */
V_INLINE __m128i ghash_reduce_with(clmul_accv *acc, const clmul_acc *single) {
    acc->lo = v_xor(acc->lo, v_zext(single->lo));
    acc->mid = v_xor(acc->mid, v_zext(single->mid));
    acc->hi = v_xor(acc->hi, v_zext(single->hi));
    return ghash_reduce(acc);
}

V_INLINE void single_zero(clmul_acc *single) {
    single->lo = single->mid = single->hi = _mm_setzero_si128();
}

/* GHASH of the n1 blocks at p1 then the n2 at p2 (n1 + n2 in
 * 1..GCM_GROUP_MAX) with one reduction. */
V_INLINE __m128i ghash_blocks2(const gcm_table *t, __m128i state, const uint8_t *p1, size_t n1, const uint8_t *p2,
                               size_t n2) {
    clmul_acc single;
    single_zero(&single);
    clmul_accv acc;
    acc_zero(&acc);
    ghash_add_blocks(&acc, &single, t, state, 1, p1, n1, n1 + n2);
    ghash_add_blocks(&acc, &single, t, state, n1 == 0, p2, n2, n2);
    return ghash_reduce_with(&acc, &single);
}

V_INLINE __m128i ghash_blocks(const gcm_table *t, __m128i state, const uint8_t *p, size_t n) {
    return ghash_blocks2(t, state, p, n, NULL, 0);
}

/* GHASH of the last n (0..BATCH-1) data blocks at p and the npost (0..2)
 * blocks at post: one reduction when they fit in one group, so the
 * lengths block adds no reduction of its own. */
V_INLINE __m128i ghash_last(const gcm_table *t, __m128i state, const uint8_t *p, size_t n, const uint8_t *post,
                            size_t npost) {
    if (npost == 0) /* an update: the tail alone */
        return n != 0 ? ghash_blocks(t, state, p, n) : state;
    if (n + npost > GCM_GROUP_MAX) {
        state = ghash_blocks(t, state, p, n);
        n = 0;
    }
    return n + npost != 0 ? ghash_blocks2(t, state, p, n, post, npost) : state;
}

/* CTR32 of G registers (G <= WIDE, a constant), register j0 onwards of the
 * batch at pos; the last register holds only `part` blocks (1..LANES) when
 * part < LANES. */
V_INLINE void gcm_ctr_group(const __m128i *rk, unsigned nr, ctr32_pos pos, unsigned j0, unsigned G,
                            unsigned part, uint8_t *out, const uint8_t *in) {
    vec b[WIDE];
    ctr32_counters(b, j0, G, pos, round_key(rk, 0));
    ctr_group(rk, nr, b, G, part, out, in);
}

/* CTR32 of n blocks, 1..BATCH-1, starting at pos: groups of 4, 2 and 1
 * registers, then a register of the last n % LANES blocks. */
V_INLINE void gcm_ctr_tail(const __m128i *rk, unsigned nr, ctr32_pos pos, size_t n, uint8_t *out,
                           const uint8_t *in) {
    unsigned j = 0, regs = (unsigned)(n / LANES);
    if (regs & 4) {
        gcm_ctr_group(rk, nr, pos, j, 4, LANES, out, in);
        j += 4;
    }
    if (regs & 2) {
        gcm_ctr_group(rk, nr, pos, j, 2, LANES, out + VBYTES * j, in + VBYTES * j);
        j += 2;
    }
    if (regs & 1) {
        gcm_ctr_group(rk, nr, pos, j, 1, LANES, out + VBYTES * j, in + VBYTES * j);
        j += 1;
    }
    if (n % LANES != 0)
        gcm_ctr_group(rk, nr, pos, j, 1, (unsigned)(n % LANES), out + VBYTES * j, in + VBYTES * j);
}

/* One batch without the reduction: CTR32 encryption of BATCH blocks
 * (in -> out) with GHASH of the BATCH blocks at hash_in (or none), the
 * first taking H^top (2 * BATCH for the first batch of a 32-block group,
 * BATCH otherwise), added to *accp; the state joins the first block when
 * join is set. Two batches can then share one reduction (about ten ops
 * and two VPCLMULQDQ a batch fewer at 256 bits). */
V_INLINE void gcm_batch_into(const __m128i *rk, unsigned nr, const gcm_table *t, ctr32_pos pos,
                             __m128i state, int join, const uint8_t *hash_in, size_t top, uint8_t *out,
                             const uint8_t *in, clmul_accv *accp) {
    vec b[WIDE], pair_first = v_zero();
    clmul_accv acc = *accp;
    ctr32_counters(b, 0, WIDE, pos, round_key(rk, 0));
    /* nr >= 10, so rounds 1..8 each carry one register of GHASH work;
     * register 0, which takes the state from the previous group, comes
     * last, so that state's chain (reduction, then one product) is short. */
    for (unsigned r = 1; r <= WIDE; r++) {
        const vec k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = v_aesenc(b[j], k);
        if (hash_in) {
            const unsigned q = r % WIDE;
            const vec x = ghash_batch_input(state, join, hash_in, q);
            const vec h = v_loadu(gcm_power(t, top - LANES * q));
            acc.lo = v_xor(acc.lo, v_clmul(x, h, 0x00));
            acc.hi = v_xor(acc.hi, v_clmul(x, h, 0x11));
            if (r % 2 == 1) { /* PAIR_FIRST(r / 2) */
                pair_first = x;
            } else { /* PAIR_SECOND(r / 2 - 1): both middles */
                const vec m =
                    v_xor(V_PREFIX(unpacklo_epi64)(pair_first, x), V_PREFIX(unpackhi_epi64)(pair_first, x));
                const vec mid_key = t->pair_mid[GCM_PAIR_TOPS == 2 && top == 2 * BATCH][r / 2 - 1];
                acc.mid = v_xor(acc.mid, v_clmul(m, mid_key, 0x00));
                acc.mid = v_xor(acc.mid, v_clmul(m, mid_key, 0x11));
            }
            __asm__("" : "+v"(acc.lo), "+v"(acc.mid), "+v"(acc.hi)); /* as in acc_mul */
        }
    }
    for (unsigned r = WIDE + 1; r < nr; r++) {
        const vec k = round_key(rk, r);
        for (unsigned j = 0; j < WIDE; j++)
            b[j] = v_aesenc(b[j], k);
    }
    const vec last = round_key(rk, nr);
    for (unsigned j = 0; j < WIDE; j++)
        b[j] = v_aesenclast(b[j], v_xor(last, v_loadu(in + VBYTES * j)));
    for (unsigned j = 0; j < WIDE; j++)
        v_storeu(out + VBYTES * j, b[j]);
    *accp = acc;
}

/* One batch with its own reduction (gcm_batch_into, top BATCH). Returns
 * the new GHASH state (POLYVAL domain). */
V_INLINE __m128i gcm_batch(const __m128i *rk, unsigned nr, const gcm_table *t, ctr32_pos pos,
                           __m128i state, const uint8_t *hash_in, uint8_t *out, const uint8_t *in) {
    clmul_accv acc;
    acc_zero(&acc);
    gcm_batch_into(rk, nr, t, pos, state, 1, hash_in, BATCH, out, in, &acc);
    return hash_in ? ghash_reduce(&acc) : state;
}

/* Two batches sharing one reduction (256-bit registers: 2 * BATCH <=
 * GCM_GROUP_MAX): CTR32 of the 2 * BATCH blocks at in (-> out) with GHASH
 * of the 2 * BATCH blocks at hash_in. Returns the new GHASH state. */
V_INLINE __m128i gcm_batch_pair(const __m128i *rk, unsigned nr, const gcm_table *t, ctr32_pos pos,
                                __m128i state, const uint8_t *hash_in, uint8_t *out, const uint8_t *in) {
    clmul_accv acc;
    acc_zero(&acc);
    gcm_batch_into(rk, nr, t, pos, state, 1, hash_in, 2 * BATCH, out, in, &acc);
    gcm_batch_into(rk, nr, t, ctr32_advance(pos, BATCH), state, 0, hash_in + BATCH_BYTES, BATCH, out + BATCH_BYTES,
                   in + BATCH_BYTES, &acc);
    return ghash_reduce(&acc);
}

/* GHASH of the last batch of an encryption (at p, alone: its AES is done),
 * then the n (0..BATCH-1) data blocks after it and the npost (0..2) blocks
 * at post: one group and one reduction when they fit, so the tail and the
 * lengths block add no reduction and no product chain of their own. */
V_INLINE __m128i ghash_last_batch(const gcm_table *t, __m128i state, const uint8_t *p, size_t n,
                                  const uint8_t *post, size_t npost) {
    const int one_group = BATCH + n + npost <= GCM_GROUP_MAX;
    clmul_accv acc;
    acc_zero(&acc);
    for (unsigned q = 1; q <= WIDE; q++) /* the state's register last */
        ghash_batch_part(&acc, t, state, 1, p, q % WIDE, one_group ? BATCH + n + npost : BATCH);
    if (!one_group)
        return ghash_last(t, ghash_reduce(&acc), p + BATCH_BYTES, n, post, npost);
    clmul_acc single;
    single_zero(&single);
    const __m128i unused = _mm_setzero_si128(); /* the state joined the batch */
    ghash_add_blocks(&acc, &single, t, unused, 0, p + BATCH_BYTES, n, n + npost);
    ghash_add_blocks(&acc, &single, t, unused, 0, post, npost, npost);
    return ghash_reduce_with(&acc, &single);
}

/* E(blocks) in place for n (1..2) blocks at p: one register (the counter
 * block of a partial last block, J0 for the tag), off any batch's chain. */
V_INLINE void gcm_ecb_extra(const __m128i *rk, unsigned nr, uint8_t *p, size_t n) {
    vec b = v_xor(n < LANES ? v_load_part(p, (unsigned)n) : v_loadu(p), round_key(rk, 0));
    for (unsigned r = 1; r < nr; r++)
        b = v_aesenc(b, round_key(rk, r));
    b = v_aesenclast(b, round_key(rk, nr));
    if (n < LANES)
        v_store_part(p, b, (unsigned)n);
    else
        v_storeu(p, b);
}

/* The partial last block at post (n bytes, 1..15, zero-padded) encrypted
 * in place with the keystream at ks; the padding stays zero (a mask read
 * at an offset set by the public length). */
static const uint8_t gcm_partial_mask[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                             0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

HWC_X86_INLINE void gcm_encrypt_partial(uint8_t *post, const uint8_t *ks, size_t n) {
    const __m128i keep = x86_loadu(gcm_partial_mask + 16 - n);
    x86_storeu(post, _mm_xor_si128(x86_loadu(post), _mm_and_si128(x86_loadu(ks), keep)));
}

/* Encryption of nbatches (>= 1) whole batches and the rem blocks after
 * them. Each batch's rounds carry the GHASH of the ciphertext made `lag`
 * batches before it: one for a few batches, two from GCM_LAG2_MIN on,
 * where that batch is stored by the time the rounds issue. (Hashing the
 * batch just made, its GHASH waited on that batch's last round: the
 * 256-bit 16 KiB loop ran 4-7% slower on Golden Cove. With few batches the
 * lag's GHASH left over after the AES costs more: vaes512 at 1350 bytes,
 * two batches, ran 4-9% slower with lag two.) The last `lag` batches are
 * hashed after the AES, the last with the tail. Returns the GHASH state;
 * *posp moves past the batches. */
#define GCM_LAG2_MIN 4
V_INLINE __m128i gcm_enc_lagged(const __m128i *rk, unsigned nr, const gcm_table *t, ctr32_pos *posp,
                                __m128i state, uint8_t *out, const uint8_t *in, size_t nbatches, size_t rem,
                                const uint8_t *post, size_t npost) {
    const unsigned lag = nbatches >= GCM_LAG2_MIN ? 2 : 1;
    const size_t lag_bytes = lag * BATCH_BYTES;
    ctr32_pos pos = *posp;
    for (unsigned i = 0; i < lag; i++, pos = ctr32_advance(pos, BATCH))
        state = gcm_batch(rk, nr, t, pos, state, NULL, out + i * BATCH_BYTES, in + i * BATCH_BYTES);
    nbatches -= lag;
    /* out: the first batch not hashed yet; the next one made is lag_bytes
     * after it. */
    if (2 * BATCH <= GCM_GROUP_MAX) /* two batches a reduction */
        for (; nbatches >= 2; nbatches -= 2, in += 2 * BATCH_BYTES, out += 2 * BATCH_BYTES) {
            state = gcm_batch_pair(rk, nr, t, pos, state, out, out + lag_bytes, in + lag_bytes);
            pos = ctr32_advance(pos, 2 * BATCH);
        }
    for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, pos = ctr32_advance(pos, BATCH))
        state = gcm_batch(rk, nr, t, pos, state, out, out + lag_bytes, in + lag_bytes);
    if (rem != 0)
        gcm_ctr_tail(rk, nr, pos, rem, out + lag_bytes, in + lag_bytes);
    *posp = pos;
    if (lag == 2) {
        state = ghash_blocks(t, state, out, BATCH);
        out += BATCH_BYTES;
    }
    return ghash_last_batch(t, state, out, rem, post, npost);
}

/* One whole GCM step (gcm_crypt in backend.h): GHASH of the npre blocks at
 * pre, then the batches of the nblocks whole blocks and their tail of
 * fewer than BATCH blocks in the same call (its CTR in groups of registers,
 * its GHASH with the last powers of the table, together with the npost
 * blocks at post), and the n_ecb blocks at ecb through the cipher: an
 * update pays one call and no hand-over, a whole message no GHASH call
 * after it. */
V_INLINE void gcm_body(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                       uint8_t ghash_state[16], const uint8_t *pre, size_t npre, uint8_t *out, const uint8_t *in,
                       size_t nblocks, uint8_t *ecb, size_t n_ecb, uint8_t *post, size_t npost, size_t partial,
                       unsigned nr) {
    const __m128i *rk = aesni_enc_keys(ks);
    const __m128i bswap = pclmul_byteswap_mask();
    ctr32_pos pos = ctr32_at(ctr);
    __m128i state = _mm_shuffle_epi8(x86_loadu(ghash_state), bswap);
    size_t nbatches = nblocks / BATCH;
    const size_t rem = nblocks % BATCH;
    const gcm_table t = gcm_table_of(hk, decrypt ? nbatches != 0 : nbatches >= 2);
    if (n_ecb != 0)
        gcm_ecb_extra(rk, nr, ecb, n_ecb);
    if (partial != 0 && !decrypt)
        gcm_encrypt_partial(post, ecb, partial);
    if (npre != 0)
        state = ghash_blocks(&t, state, pre, npre);
    if (decrypt) {
        /* GHASH reads each batch's ciphertext before CTR overwrites it.
         * (The last batch's group taking the tail and post blocks too, as
         * encryption's does, measured 4-5% slower at 1350 bytes: its GHASH
         * then outlasts its AES, and the tail's CTR waits.) */
        if (2 * BATCH <= GCM_GROUP_MAX) /* two batches a reduction */
            for (; nbatches >= 2; nbatches -= 2, in += 2 * BATCH_BYTES, out += 2 * BATCH_BYTES) {
                state = gcm_batch_pair(rk, nr, &t, pos, state, in, out, in);
                pos = ctr32_advance(pos, 2 * BATCH);
            }
        for (; nbatches != 0; nbatches--, in += BATCH_BYTES, out += BATCH_BYTES, pos = ctr32_advance(pos, BATCH))
            state = gcm_batch(rk, nr, &t, pos, state, in, out, in);
        state = ghash_last(&t, state, in, rem, post, npost);
        if (rem != 0)
            gcm_ctr_tail(rk, nr, pos, rem, out, in);
    } else if (nbatches == 0) {
        if (rem != 0)
            gcm_ctr_tail(rk, nr, pos, rem, out, in);
        state = ghash_last(&t, state, out, rem, post, npost);
    } else {
        state = gcm_enc_lagged(rk, nr, &t, &pos, state, out, in, nbatches, rem, post, npost);
    }
    hwc_store_be32(ctr + 12, pos.counter + (uint32_t)rem);
    x86_storeu(ghash_state, _mm_shuffle_epi8(state, bswap));
}

static V_NOINLINE void gcm_whole(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                                 uint8_t ghash_state[16], const uint8_t *pre, size_t npre, uint8_t *out,
                                 const uint8_t *in, size_t nblocks, uint8_t *ecb, size_t n_ecb, uint8_t *post,
                                 size_t npost, size_t partial) {
    BY_ROUNDS(ks, gcm_body, ks, hk, decrypt, ctr, ghash_state, pre, npre, out, in, nblocks, ecb, n_ecb, post, npost,
              partial);
}

/* Fewer blocks than this go through one call each (CTR32's short group,
 * aesni's ECB, the paired GHASH back end's update): for a few
 * blocks the setup of gcm_whole costs more than the calls (a stream of 16-
 * and 64-byte updates measured 2.2x and 1.2x slower through it), while
 * from one 16-block batch on it is as fast or faster. */
#define GCM_WHOLE_MIN 16

/* CTR32 of a short GCM call: from GCM_SHORT_GROUP_MIN blocks one group of
 * registers (a GCM stream of 112-240 byte updates 0.7-0.9 of the time with
 * aesni's kernel), below on aesni (a GCM stream, whose GHASH reads the
 * output right back, measured 1.06x slower with one 512-bit register of 4
 * blocks, 1.1x with 2-3 blocks in one). */
#define GCM_SHORT_GROUP_MIN (LANES > 2 ? 5 : 4)
static void gcm_short_ctr32(const hwc_ks *ks, uint8_t ctr[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks >= GCM_SHORT_GROUP_MIN)
        vaes_ctr32(ks, ctr, out, in, nblocks);
    else
        hwc_aesni_ctr32(ks, ctr, out, in, nblocks);
}

static void gcm_short(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                      uint8_t ghash_state[16], const uint8_t *pre, size_t npre, uint8_t *out, const uint8_t *in,
                      size_t nblocks, uint8_t *ecb, size_t n_ecb, uint8_t *post, size_t npost, size_t partial) {
    const hwc_ghash_impl *ghash = GCM_GHASH();
    if (n_ecb != 0)
        hwc_aesni_ecb_enc(ks, ecb, ecb, n_ecb);
    if (partial != 0 && !decrypt)
        gcm_encrypt_partial(post, ecb, partial);
    if (npre != 0)
        ghash->update(hk, ghash_state, pre, npre);
    if (nblocks != 0) {
        if (decrypt) {
            ghash->update(hk, ghash_state, in, nblocks); /* before CTR overwrites it */
            gcm_short_ctr32(ks, ctr, out, in, nblocks);
        } else {
            gcm_short_ctr32(ks, ctr, out, in, nblocks);
            ghash->update(hk, ghash_state, out, nblocks);
        }
    }
    if (npost != 0)
        ghash->update(hk, ghash_state, post, npost);
}

static void vaes_gcm_crypt(const hwc_ks *ks, const hwc_ghash_key *hk, int decrypt, uint8_t ctr[16],
                           uint8_t ghash_state[16], const uint8_t *pre, size_t npre, uint8_t *out,
                           const uint8_t *in, size_t nblocks, uint8_t *ecb, size_t n_ecb, uint8_t *post,
                           size_t npost, size_t partial) {
    if (nblocks < GCM_WHOLE_MIN)
        gcm_short(ks, hk, decrypt, ctr, ghash_state, pre, npre, out, in, nblocks, ecb, n_ecb, post, npost, partial);
    else
        gcm_whole(ks, hk, decrypt, ctr, ghash_state, pre, npre, out, in, nblocks, ecb, n_ecb, post, npost, partial);
}

static size_t vaes_gcm_enc(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks != 0)
        vaes_gcm_crypt(ks, hk, 0, ctr, ghash_state, NULL, 0, out, in, nblocks, NULL, 0, NULL, 0, 0);
    return nblocks;
}

static size_t vaes_gcm_dec(const hwc_ks *ks, const hwc_ghash_key *hk, uint8_t ctr[16], uint8_t ghash_state[16],
                           uint8_t *out, const uint8_t *in, size_t nblocks) {
    if (nblocks != 0)
        vaes_gcm_crypt(ks, hk, 1, ctr, ghash_state, NULL, 0, out, in, nblocks, NULL, 0, NULL, 0, 0);
    return nblocks;
}

/* ---------------------------------------------------------------- table */

static const hwc_block_impl vaes_impl = {
    .name = VAES_NAME,
    .family = HWC_FAMILY_AES,
    .required_caps = VAES_CAPS,
    .flags = HWC_IMPL_CONSTANT_TIME,
    .ghash_name = VAES_GHASH_NAME,
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
    .gcm_crypt = vaes_gcm_crypt,
};

const hwc_block_impl *VAES_GETTER(void) {
    return &vaes_impl;
}
