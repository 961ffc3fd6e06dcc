/*
 * Shared pieces of the RISC-V scalar back ends (rv64): instruction wrappers
 * and the alignment discipline.
 *
 * Extensions. The library is compiled for the base ISA (rv64gc), so the
 * compiler never emits an extension instruction of its own accord and the
 * library runs on any rv64gc core. Each wrapper below enables exactly the
 * extension its instruction belongs to, for that one instruction, with
 * `.option arch, +ext` (GNU as 2.38+). Dispatch guarantees a kernel only
 * runs when its extensions are present.
 *
 * Alignment. A misaligned ld/sd may trap into firmware on real cores (the
 * seed benchmarks lost to plain C that way), so kernels work on aligned
 * 64-bit words only:
 *   - key schedules, chaining values and bounce buffers are aligned;
 *   - caller buffers that are 8-byte aligned are used in place;
 *   - otherwise RV_STREAM copies a chunk into an aligned stack buffer with
 *     aligned-load-and-shift (rv_gather), runs the kernel on it, and writes
 *     the result back with aligned stores in the middle and byte stores at
 *     the two ragged ends (rv_scatter).
 * rv_gather reads the whole aligned words that hold the chunk's first and
 * last bytes. Those words may include bytes outside the caller's buffer but
 * never leave the page that holds the buffer's own bytes; the loads go
 * through inline assembly so the compiler does not reason about them.
 */
#ifndef HWC_RISCV_INTERNAL_H
#define HWC_RISCV_INTERNAL_H

#include "backend.h"

#define RV_INLINE static inline __attribute__((always_inline))

/* A 64-bit word that may alias any other type (caller bytes, key schedules). */
typedef uint64_t __attribute__((may_alias)) rv_word;

/* ---------------------------------------------------- instruction wrappers */

#define RV_ASM_EXT(ext, insn) ".option push\n\t.option arch, +" ext "\n\t" insn "\n\t.option pop"

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

/* Zksed: acc ^ T(byte bs of x), T the SM4 round (S-box then L), for the
 * data path; sm4ks the same with the key schedule's L'. 32-bit results,
 * sign-extended; only the low 32 bits of the operands are read. */
#define rv_sm4ed(acc, x, bs)                                                                          \
    __extension__({                                                                                   \
        uint64_t r_;                                                                                  \
        __asm__(RV_ASM_EXT("zksed", "sm4ed %0, %1, %2, %3") : "=r"(r_) : "r"(acc), "r"(x), "i"(bs)); \
        r_;                                                                                           \
    })
#define rv_sm4ks(acc, x, bs)                                                                          \
    __extension__({                                                                                   \
        uint64_t r_;                                                                                  \
        __asm__(RV_ASM_EXT("zksed", "sm4ks %0, %1, %2, %3") : "=r"(r_) : "r"(acc), "r"(x), "i"(bs)); \
        r_;                                                                                           \
    })

/* Carry-less multiply, low and high 64 bits: in Zbc and in Zbkc with the
 * same encoding (Zbkc named, the smaller set). */
RV_INLINE uint64_t rv_clmul(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zbkc", "clmul %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
RV_INLINE uint64_t rv_clmulh(uint64_t a, uint64_t b) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zbkc", "clmulh %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Byte reversal of a 64-bit word: in Zbb and in Zbkb with the same encoding
 * (Zbkb named). */
RV_INLINE uint64_t rv_rev8(uint64_t a) {
    uint64_t r;
    __asm__(RV_ASM_EXT("zbkb", "rev8 %0, %1") : "=r"(r) : "r"(a));
    return r;
}

/* Byte reversal without Zbb/Zbkb: three swap stages (bytes, halves, words).
 * The masks are built so the compiler keeps them in registers across loops. */
RV_INLINE uint64_t rv_bswap64_base(uint64_t a) {
    const uint64_t m8 = 0x00FF00FF00FF00FFull, m16 = 0x0000FFFF0000FFFFull;
    a = ((a & m8) << 8) | ((a >> 8) & m8);
    a = ((a & m16) << 16) | ((a >> 16) & m16);
    return (a << 32) | (a >> 32);
}

/* Kernels are instantiated twice where a byte swap sits on the data path:
 * `rev8` is a compile-time constant of the instantiation. */
RV_INLINE uint64_t rv_bswap64(uint64_t a, int rev8) {
    return rev8 ? rv_rev8(a) : rv_bswap64_base(a);
}

/* ------------------------------------------------------------- alignment */

RV_INLINE int rv_aligned8(const void *p) {
    return ((uintptr_t)p & 7) == 0;
}

/* One aligned 64-bit load the compiler treats as opaque (see the top). */
RV_INLINE uint64_t rv_load_aligned_word(const uint8_t *p) {
    uint64_t v;
    __asm__ volatile("ld %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}

/* dst[0..nwords) = the little-endian words at src, src not 8-byte aligned:
 * each word is the top of one aligned word and the bottom of the next. */
static inline void rv_gather(rv_word *dst, const uint8_t *src, size_t nwords) {
    const unsigned skew = (unsigned)((uintptr_t)src & 7); /* 1..7 */
    const uint8_t *base = src - skew;
    const unsigned down = 8 * skew, up = 64 - down;
    uint64_t lo = rv_load_aligned_word(base);
    for (size_t i = 0; i < nwords; i++) {
        uint64_t hi = rv_load_aligned_word(base + 8 * (i + 1));
        dst[i] = (lo >> down) | (hi << up);
        lo = hi;
    }
}

/* The little-endian words src[0..nwords) to dst, dst not 8-byte aligned:
 * byte stores for the bytes before dst's first aligned word and after its
 * last, whole aligned words (pieces of two source words) in between. Only
 * the destination's own bytes are written. */
static inline void rv_scatter(uint8_t *dst, const rv_word *src, size_t nwords) {
    const unsigned skew = (unsigned)((uintptr_t)dst & 7); /* 1..7 */
    const unsigned head = 8 - skew;                         /* bytes before the first aligned word */
    const unsigned up = 8 * skew, down = 64 - up;
    uint64_t w = src[0];
    for (unsigned j = 0; j < head; j++)
        dst[j] = (uint8_t)(w >> (8 * j));
    rv_word *out = (rv_word *)(void *)(dst + head);
    uint64_t carry = w >> down;
    for (size_t i = 1; i < nwords; i++) {
        w = src[i];
        out[i - 1] = carry | (w << up);
        carry = w >> down;
    }
    uint8_t *tail = (uint8_t *)(out + (nwords - 1));
    for (unsigned j = 0; j < skew; j++)
        tail[j] = (uint8_t)(carry >> (8 * j));
}

/* A 16-byte chaining value (IV, counter, tweak, MAC) as two little-endian
 * words. The modes keep them aligned; byte access covers any other caller,
 * out of line so the compiler does not compute it speculatively (not
 * "cold": that would move it out of the library's block of .text). */
__attribute__((noinline, unused)) static void rv_load_chain_bytes(const uint8_t *p, uint64_t *w0, uint64_t *w1) {
    *w0 = hwc_load_le64(p);
    *w1 = hwc_load_le64(p + 8);
}
__attribute__((noinline, unused)) static void rv_store_chain_bytes(uint8_t *p, uint64_t w0, uint64_t w1) {
    hwc_store_le64(p, w0);
    hwc_store_le64(p + 8, w1);
}
RV_INLINE void rv_load_chain(const uint8_t *p, uint64_t *w0, uint64_t *w1) {
    if (rv_aligned8(p)) {
        *w0 = ((const rv_word *)(const void *)p)[0];
        *w1 = ((const rv_word *)(const void *)p)[1];
    } else {
        rv_load_chain_bytes(p, w0, w1);
    }
}
RV_INLINE void rv_store_chain(uint8_t *p, uint64_t w0, uint64_t w1) {
    if (rv_aligned8(p)) {
        ((rv_word *)(void *)p)[0] = w0;
        ((rv_word *)(void *)p)[1] = w1;
    } else {
        rv_store_chain_bytes(p, w0, w1);
    }
}

/* Blocks per bounce-buffer chunk for unaligned caller buffers. */
#define RV_CHUNK_BLOCKS 32

/*
 * Run BODY over nblocks blocks from in to out (in == out allowed), with
 * `rv_out` and `rv_in` (aligned rv_word pointers) and `rv_n` (blocks) in
 * scope: once in place when both buffers are 8-byte aligned, else chunk by
 * chunk through an aligned stack buffer. BODY must carry its chaining state
 * from one run to the next (it does: the state lives in the caller's
 * chaining value or in locals outside the loop) and must allow rv_out ==
 * rv_in. The buffer is wiped: it held plaintext or keystream.
 */
#define RV_STREAM(out, in, nblocks, BODY)                                                          \
    do {                                                                                           \
        uint8_t *rv_dst_ = (out);                                                                  \
        const uint8_t *rv_src_ = (in);                                                             \
        size_t rv_left_ = (nblocks);                                                               \
        if (rv_aligned8(rv_dst_) && rv_aligned8(rv_src_)) {                                        \
            rv_word *rv_out = (rv_word *)(void *)rv_dst_;                                          \
            const rv_word *rv_in = (const rv_word *)(const void *)rv_src_;                         \
            size_t rv_n = rv_left_;                                                                \
            BODY;                                                                                  \
        } else if (rv_left_ != 0) {                                                                \
            alignas(16) rv_word rv_buf_[2 * RV_CHUNK_BLOCKS];                                      \
            while (rv_left_ != 0) {                                                                \
                size_t rv_n = rv_left_ < RV_CHUNK_BLOCKS ? rv_left_ : RV_CHUNK_BLOCKS;             \
                const rv_word *rv_in = (const rv_word *)(const void *)rv_src_;                     \
                rv_word *rv_out = (rv_word *)(void *)rv_dst_;                                      \
                if (!rv_aligned8(rv_src_)) {                                                       \
                    rv_gather(rv_buf_, rv_src_, 2 * rv_n);                                         \
                    rv_in = rv_buf_;                                                               \
                }                                                                                  \
                if (!rv_aligned8(rv_dst_))                                                         \
                    rv_out = rv_buf_;                                                              \
                BODY;                                                                              \
                if (rv_out == rv_buf_)                                                             \
                    rv_scatter(rv_dst_, rv_buf_, 2 * rv_n);                                        \
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
        if (rv_aligned8(rv_src_)) {                                                                \
            const rv_word *rv_in = (const rv_word *)(const void *)rv_src_;                         \
            size_t rv_n = rv_left_;                                                                \
            BODY;                                                                                  \
        } else if (rv_left_ != 0) {                                                                \
            alignas(16) rv_word rv_buf_[2 * RV_CHUNK_BLOCKS];                                      \
            while (rv_left_ != 0) {                                                                \
                size_t rv_n = rv_left_ < RV_CHUNK_BLOCKS ? rv_left_ : RV_CHUNK_BLOCKS;             \
                rv_gather(rv_buf_, rv_src_, 2 * rv_n);                                             \
                const rv_word *rv_in = rv_buf_;                                                    \
                BODY;                                                                              \
                rv_src_ += 16 * rv_n;                                                              \
                rv_left_ -= rv_n;                                                                  \
            }                                                                                      \
            hwc_wipe(rv_buf_, sizeof rv_buf_);                                                     \
        }                                                                                          \
    } while (0)

#include "rv_ctr.h" /* ctr_value, ctr_advance */

#endif /* HWC_RISCV_INTERNAL_H */
