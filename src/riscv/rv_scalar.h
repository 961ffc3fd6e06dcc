/*
 * What the RISC-V scalar back ends (aes_zkn.c, sm4_zksed.c, ghash_clmul.c)
 * share, written once for rv32 and rv64: instruction wrappers, the register
 * word (rv_xword: xlen bits), the alignment discipline and the CTR counter.
 * Each of those sources is compiled for whichever xlen the build targets;
 * code that must differ by xlen is a hook under `#if __riscv_xlen == 64`.
 *
 * Extensions. The library is compiled for the base ISA (rv64gc / rv32gc), so
 * the compiler never emits an extension instruction of its own accord and
 * the library runs on any core of that base. Each wrapper below enables
 * exactly the extension its instruction belongs to, for that one
 * instruction, with `.option arch, +ext` (GNU as 2.38+). Dispatch guarantees
 * a kernel only runs when its extensions are present.
 *
 * Alignment. A misaligned load or store may trap into firmware on real cores
 * (the seed benchmarks lost to plain C that way), so kernels work on aligned
 * register words only (8 bytes on rv64, 4 on rv32):
 *   - key schedules, chaining values and bounce buffers are aligned;
 *   - caller buffers that are word aligned are used in place;
 *   - otherwise RV_STREAM copies a chunk into an aligned stack buffer with
 *     aligned-load-and-shift (rv_gather), runs the kernel on it, and writes
 *     the result back with aligned stores in the middle and byte stores at
 *     the two ragged ends (rv_scatter).
 * rv_gather reads the whole aligned words that hold the chunk's first and
 * last bytes. Those words may include bytes outside the caller's buffer but
 * never leave the page that holds the buffer's own bytes; the loads go
 * through inline assembly so the compiler does not reason about them.
 */
#ifndef HWC_RV_SCALAR_H
#define HWC_RV_SCALAR_H

#include "getters.h"

#define RV_INLINE static inline __attribute__((always_inline))

/* The register word, and one that may alias any other type (caller bytes,
 * key schedules). A 16-byte block is RV_BLOCK_WORDS of them. */
#if __riscv_xlen == 64
typedef uint64_t rv_xword;
#define RV_LOAD_WORD_INSN "ld"
#else
typedef uint32_t rv_xword;
#define RV_LOAD_WORD_INSN "lw"
#endif
typedef rv_xword __attribute__((may_alias)) rv_word;
#define RV_WORD_BYTES ((unsigned)sizeof(rv_xword))
#define RV_WORD_BITS (8 * RV_WORD_BYTES)
#define RV_BLOCK_WORDS (16 / RV_WORD_BYTES)

/* Names of an xlen instance: RV_XNAME(hwc_aes_zkn, _get) is
 * hwc_aes_zkn64_get on rv64 and hwc_aes_zkn32_get on rv32; back-end names
 * are "zkn" RV_XLEN_STR. */
#define RV_XCAT_(a, x, b) a##x##b
#define RV_XCAT(a, x, b) RV_XCAT_(a, x, b)
#define RV_XNAME(pre, post) RV_XCAT(pre, __riscv_xlen, post)
#define RV_XSTR_(x) #x
#define RV_XSTR(x) RV_XSTR_(x)
#define RV_XLEN_STR RV_XSTR(__riscv_xlen)

/* ---------------------------------------------------- instruction wrappers */

#define RV_ASM_EXT(ext, insn) ".option push\n\t.option arch, +" ext "\n\t" insn "\n\t.option pop"

/* An instruction rd = op(acc, x, bs) with a byte select bs: one wrapper per
 * bs (an immediate), so the macros below paste bs into the name and bs must
 * be a literal 0..3. Functions, not statement expressions: calls nest. */
#define RV_BS_WRAPPER(name, ext, mnemonic, bs)                                                      \
    RV_INLINE rv_xword name##_##bs(rv_xword acc, rv_xword x) {                                     \
        rv_xword r;                                                                                 \
        __asm__(RV_ASM_EXT(ext, mnemonic " %0, %1, %2, " #bs) : "=r"(r) : "r"(acc), "r"(x));      \
        return r;                                                                                   \
    }
#define RV_BS_WRAPPERS(name, ext, mnemonic) \
    RV_BS_WRAPPER(name, ext, mnemonic, 0)   \
    RV_BS_WRAPPER(name, ext, mnemonic, 1)   \
    RV_BS_WRAPPER(name, ext, mnemonic, 2)   \
    RV_BS_WRAPPER(name, ext, mnemonic, 3)

/* Zksed: acc ^ T(byte bs of x), T the SM4 round (S-box then L), for the
 * data path; sm4ks the same with the key schedule's L'. 32-bit results
 * (sign-extended on rv64); only the low 32 bits of the operands are read. */
RV_BS_WRAPPERS(rv_sm4ed, "zksed", "sm4ed")
RV_BS_WRAPPERS(rv_sm4ks, "zksed", "sm4ks")
#define rv_sm4ed(acc, x, bs) rv_sm4ed_##bs((acc), (x))
#define rv_sm4ks(acc, x, bs) rv_sm4ks_##bs((acc), (x))

/* Carry-less multiply of register words, low and high halves of the
 * product: in Zbc and in Zbkc with the same encoding (Zbkc named, the
 * smaller set). */
RV_INLINE rv_xword rv_clmul(rv_xword a, rv_xword b) {
    rv_xword r;
    __asm__(RV_ASM_EXT("zbkc", "clmul %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
RV_INLINE rv_xword rv_clmulh(rv_xword a, rv_xword b) {
    rv_xword r;
    __asm__(RV_ASM_EXT("zbkc", "clmulh %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Byte reversal of a register word: in Zbb and in Zbkb with the same
 * encoding (Zbkb named). */
RV_INLINE rv_xword rv_rev8(rv_xword a) {
    rv_xword r;
    __asm__(RV_ASM_EXT("zbkb", "rev8 %0, %1") : "=r"(r) : "r"(a));
    return r;
}

/* Byte reversal without Zbb/Zbkb: swap stages (bytes, halves, words). The
 * masks are built so the compiler keeps them in registers across loops. */
RV_INLINE rv_xword rv_bswap_base(rv_xword a) {
#if __riscv_xlen == 64
    const uint64_t m8 = 0x00FF00FF00FF00FFull, m16 = 0x0000FFFF0000FFFFull;
    a = ((a & m8) << 8) | ((a >> 8) & m8);
    a = ((a & m16) << 16) | ((a >> 16) & m16);
    return (a << 32) | (a >> 32);
#else
    const uint32_t m8 = 0x00FF00FFu;
    a = ((a & m8) << 8) | ((a >> 8) & m8);
    return (a << 16) | (a >> 16);
#endif
}

/* Kernels are instantiated twice where a byte swap sits on the data path:
 * `rev8` is a compile-time constant of the instantiation. */
RV_INLINE rv_xword rv_bswap(rv_xword a, int rev8) {
    return rev8 ? rv_rev8(a) : rv_bswap_base(a);
}

#if __riscv_xlen == 64
/* Zkne: one AES round on the 128-bit state {hi, lo}, returning the new low
 * half when called as (lo, hi) and the new high half when called as (hi, lo). */
RV_INLINE uint64_t rv_aes64esm(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zkne", "aes64esm %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
RV_INLINE uint64_t rv_aes64es(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zkne", "aes64es %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
/* Zknd: the inverse rounds (equivalent inverse cipher: InvMixColumns inside). */
RV_INLINE uint64_t rv_aes64dsm(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zknd", "aes64dsm %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
RV_INLINE uint64_t rv_aes64ds(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zknd", "aes64ds %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
RV_INLINE uint64_t rv_aes64im(uint64_t a) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zknd", "aes64im %0, %1") : "=r"(r) : "r"(a));
    return r;
}
/* Key schedule (in both Zkne and Zknd; Zkne named). The round number is an
 * immediate, hence a macro. */
#define rv_aes64ks1i(a, rnum)                                                                  \
    __extension__({                                                                           \
        uint64_t r_;                                                                          \
        __asm__(RV_ASM_EXT("zkne", "aes64ks1i %0, %1, %2") : "=r"(r_) : "r"(a), "i"(rnum)); \
        r_;                                                                                   \
    })
RV_INLINE uint64_t rv_aes64ks2(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zkne", "aes64ks2 %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
#else
/* Zkne: acc ^ rol(MixColumn(SubByte(byte bs of x)), 8 bs) (esmi), or
 * without MixColumn (esi). Zknd: the inverse S-box, with InvMixColumn
 * (dsmi) or without (dsi). */
RV_BS_WRAPPERS(rv_aes32esmi, "zkne", "aes32esmi")
RV_BS_WRAPPERS(rv_aes32esi, "zkne", "aes32esi")
RV_BS_WRAPPERS(rv_aes32dsmi, "zknd", "aes32dsmi")
RV_BS_WRAPPERS(rv_aes32dsi, "zknd", "aes32dsi")
#define rv_aes32esmi(acc, x, bs) rv_aes32esmi_##bs((acc), (x))
#define rv_aes32esi(acc, x, bs) rv_aes32esi_##bs((acc), (x))
#define rv_aes32dsmi(acc, x, bs) rv_aes32dsmi_##bs((acc), (x))
#define rv_aes32dsi(acc, x, bs) rv_aes32dsi_##bs((acc), (x))
#endif

/* ------------------------------------------------------------- alignment */

RV_INLINE int rv_aligned(const void *p) {
    return ((uintptr_t)p & (RV_WORD_BYTES - 1)) == 0;
}

/* One aligned word load the compiler treats as opaque (see the top). */
RV_INLINE rv_xword rv_load_aligned_word(const uint8_t *p) {
    rv_xword v;
    __asm__ volatile(RV_LOAD_WORD_INSN " %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}

/* dst[0..nwords) = the little-endian words at src, src not word aligned:
 * each word is the top of one aligned word and the bottom of the next. */
static inline void rv_gather(rv_word *dst, const uint8_t *src, size_t nwords) {
    const unsigned skew = (unsigned)((uintptr_t)src & (RV_WORD_BYTES - 1)); /* 1..7 or 1..3 */
    const uint8_t *base = src - skew;
    const unsigned down = 8 * skew, up = RV_WORD_BITS - down;
    rv_xword lo = rv_load_aligned_word(base);
    for (size_t i = 0; i < nwords; i++) {
        rv_xword hi = rv_load_aligned_word(base + RV_WORD_BYTES * (i + 1));
        dst[i] = (lo >> down) | (hi << up);
        lo = hi;
    }
}

/* The little-endian words src[0..nwords) to dst, dst not word aligned:
 * byte stores for the bytes before dst's first aligned word and after its
 * last, whole aligned words (pieces of two source words) in between. Only
 * the destination's own bytes are written. */
static inline void rv_scatter(uint8_t *dst, const rv_word *src, size_t nwords) {
    const unsigned skew = (unsigned)((uintptr_t)dst & (RV_WORD_BYTES - 1));
    const unsigned head = RV_WORD_BYTES - skew; /* bytes before the first aligned word */
    const unsigned up = 8 * skew, down = RV_WORD_BITS - up;
    rv_xword w = src[0];
    for (unsigned j = 0; j < head; j++)
        dst[j] = (uint8_t)(w >> (8 * j));
    rv_word *out = (rv_word *)(void *)(dst + head);
    rv_xword carry = w >> down;
    for (size_t i = 1; i < nwords; i++) {
        w = src[i];
        out[i - 1] = carry | (w << up);
        carry = w >> down;
    }
    uint8_t *tail = (uint8_t *)(out + (nwords - 1));
    for (unsigned j = 0; j < skew; j++)
        tail[j] = (uint8_t)(carry >> (8 * j));
}

/* A 16-byte chaining value (IV, counter, tweak, MAC) as RV_BLOCK_WORDS
 * little-endian words. The modes keep them aligned; byte access covers any
 * other caller, out of line so the compiler does not compute it
 * speculatively (not "cold": that would move it out of the library's block
 * of .text). */
__attribute__((noinline, unused)) static void rv_load_chain_bytes(const uint8_t *p, rv_xword w[RV_BLOCK_WORDS]) {
    for (unsigned i = 0; i < RV_BLOCK_WORDS; i++)
#if __riscv_xlen == 64
        w[i] = hwc_load_le64(p + 8 * i);
#else
        w[i] = hwc_load_le32(p + 4 * i);
#endif
}
__attribute__((noinline, unused)) static void rv_store_chain_bytes(uint8_t *p, const rv_xword w[RV_BLOCK_WORDS]) {
    for (unsigned i = 0; i < RV_BLOCK_WORDS; i++)
#if __riscv_xlen == 64
        hwc_store_le64(p + 8 * i, w[i]);
#else
        hwc_store_le32(p + 4 * i, w[i]);
#endif
}
RV_INLINE void rv_load_chain(const uint8_t *p, rv_xword w[RV_BLOCK_WORDS]) {
    if (rv_aligned(p)) {
        for (unsigned i = 0; i < RV_BLOCK_WORDS; i++)
            w[i] = ((const rv_word *)(const void *)p)[i];
    } else {
        rv_load_chain_bytes(p, w);
    }
}
RV_INLINE void rv_store_chain(uint8_t *p, const rv_xword w[RV_BLOCK_WORDS]) {
    if (rv_aligned(p)) {
        for (unsigned i = 0; i < RV_BLOCK_WORDS; i++)
            ((rv_word *)(void *)p)[i] = w[i];
    } else {
        rv_store_chain_bytes(p, w);
    }
}

#if __riscv_xlen == 64
/* rv64: the two words of a chaining value by name. */
__attribute__((noinline, unused)) static void rv_load_chain2_bytes(const uint8_t *p, uint64_t *w0, uint64_t *w1) {
    *w0 = hwc_load_le64(p);
    *w1 = hwc_load_le64(p + 8);
}
__attribute__((noinline, unused)) static void rv_store_chain2_bytes(uint8_t *p, uint64_t w0, uint64_t w1) {
    hwc_store_le64(p, w0);
    hwc_store_le64(p + 8, w1);
}
RV_INLINE void rv_load_chain2(const uint8_t *p, uint64_t *w0, uint64_t *w1) {
    if (rv_aligned(p)) {
        *w0 = ((const rv_word *)(const void *)p)[0];
        *w1 = ((const rv_word *)(const void *)p)[1];
    } else {
        rv_load_chain2_bytes(p, w0, w1);
    }
}
RV_INLINE void rv_store_chain2(uint8_t *p, uint64_t w0, uint64_t w1) {
    if (rv_aligned(p)) {
        ((rv_word *)(void *)p)[0] = w0;
        ((rv_word *)(void *)p)[1] = w1;
    } else {
        rv_store_chain2_bytes(p, w0, w1);
    }
}
#endif

/* Blocks per bounce-buffer chunk for unaligned caller buffers. */
#define RV_CHUNK_BLOCKS 32

/*
 * Run BODY over nblocks blocks from in to out (in == out allowed), with
 * `rv_out` and `rv_in` (aligned rv_word pointers, RV_BLOCK_WORDS a block)
 * and `rv_n` (blocks) in scope: once in place when both buffers are word
 * aligned, else chunk by chunk through an aligned stack buffer. BODY must
 * carry its chaining state from one run to the next (it does: the state
 * lives in the caller's chaining value or in locals outside the loop) and
 * must allow rv_out == rv_in. The buffer is wiped: it held plaintext or
 * keystream.
 */
#define RV_STREAM(out, in, nblocks, BODY)                                                          \
    do {                                                                                           \
        uint8_t *rv_dst_ = (out);                                                                  \
        const uint8_t *rv_src_ = (in);                                                             \
        size_t rv_left_ = (nblocks);                                                               \
        if (rv_aligned(rv_dst_) && rv_aligned(rv_src_)) {                                          \
            rv_word *rv_out = (rv_word *)(void *)rv_dst_;                                          \
            const rv_word *rv_in = (const rv_word *)(const void *)rv_src_;                         \
            size_t rv_n = rv_left_;                                                                \
            BODY;                                                                                  \
        } else if (rv_left_ != 0) {                                                                \
            alignas(16) rv_word rv_buf_[RV_BLOCK_WORDS * RV_CHUNK_BLOCKS];                         \
            while (rv_left_ != 0) {                                                                \
                size_t rv_n = rv_left_ < RV_CHUNK_BLOCKS ? rv_left_ : RV_CHUNK_BLOCKS;             \
                const rv_word *rv_in = (const rv_word *)(const void *)rv_src_;                     \
                rv_word *rv_out = (rv_word *)(void *)rv_dst_;                                      \
                if (!rv_aligned(rv_src_)) {                                                        \
                    rv_gather(rv_buf_, rv_src_, RV_BLOCK_WORDS * rv_n);                            \
                    rv_in = rv_buf_;                                                               \
                }                                                                                  \
                if (!rv_aligned(rv_dst_))                                                          \
                    rv_out = rv_buf_;                                                              \
                BODY;                                                                              \
                if (rv_out == rv_buf_)                                                             \
                    rv_scatter(rv_dst_, rv_buf_, RV_BLOCK_WORDS * rv_n);                           \
                rv_src_ += 16 * rv_n;                                                              \
                rv_dst_ += 16 * rv_n;                                                              \
                rv_left_ -= rv_n;                                                                  \
            }                                                                                      \
            hwc_wipe(rv_buf_, sizeof rv_buf_);                                                     \
        }                                                                                          \
    } while (0)

/* The same for kernels that only read (CBC-MAC, GHASH). */
#define RV_STREAM_IN(in, nblocks, BODY)                                                            \
    do {                                                                                           \
        const uint8_t *rv_src_ = (in);                                                             \
        size_t rv_left_ = (nblocks);                                                               \
        if (rv_aligned(rv_src_)) {                                                                 \
            const rv_word *rv_in = (const rv_word *)(const void *)rv_src_;                         \
            size_t rv_n = rv_left_;                                                                \
            BODY;                                                                                  \
        } else if (rv_left_ != 0) {                                                                \
            alignas(16) rv_word rv_buf_[RV_BLOCK_WORDS * RV_CHUNK_BLOCKS];                         \
            while (rv_left_ != 0) {                                                                \
                size_t rv_n = rv_left_ < RV_CHUNK_BLOCKS ? rv_left_ : RV_CHUNK_BLOCKS;             \
                rv_gather(rv_buf_, rv_src_, RV_BLOCK_WORDS * rv_n);                                \
                const rv_word *rv_in = rv_buf_;                                                    \
                BODY;                                                                              \
                rv_src_ += 16 * rv_n;                                                              \
                rv_left_ -= rv_n;                                                                  \
            }                                                                                      \
            hwc_wipe(rv_buf_, sizeof rv_buf_);                                                     \
        }                                                                                          \
    } while (0)

/* OCB's block index: number of trailing zeros, at most 63 (the index is
 * public: a short loop is fine). */
RV_INLINE unsigned rv_ntz64(uint64_t i) {
    unsigned n = 0;
    while (n < 63 && (i & 1) == 0) {
        i >>= 1;
        n++;
    }
    return n;
}

/* ------------------------------------------------------------ CTR counter */

/* The 16 counter bytes as a native big-endian value: hi = bytes 0..7,
 * lo = 8..15. */
typedef struct ctr_value {
    uint64_t hi, lo;
} ctr_value;

/* Add n to the counter: the whole 128 bits (ctr128, CCM), or only the last
 * 32 (ctr32, GCM). */
RV_INLINE void ctr_advance(ctr_value *c, uint64_t n, int wide) {
    if (wide) {
        uint64_t lo = c->lo + n;
        c->hi += lo < n;
        c->lo = lo;
    } else {
        c->lo = (c->lo & ~(uint64_t)0xFFFFFFFF) | (uint32_t)(c->lo + n);
    }
}

#endif /* HWC_RV_SCALAR_H */
