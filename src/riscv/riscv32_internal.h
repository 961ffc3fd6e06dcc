/*
 * Shared pieces of the RISC-V rv32 scalar back ends (aes_zkn32.c,
 * sm4_zksed32.c, ghash_clmul32.c): instruction wrappers and the alignment
 * discipline, the 32-bit counterpart of riscv_internal.h.
 *
 * Extensions. The library is compiled for the base ISA (rv32gc); each
 * wrapper enables exactly its instruction's extension for that instruction
 * (`.option arch, +ext`), and dispatch runs a kernel only when its
 * extensions are present.
 *
 * Alignment. A word is 4 bytes on rv32: kernels load and store aligned
 * 32-bit words only. Caller buffers that are 4-byte aligned are used in
 * place; others go through an aligned stack chunk filled with
 * aligned-load-and-shift (rv32_gather) and written back with aligned
 * stores in the middle and byte stores at the ragged ends (rv32_scatter),
 * exactly as RV_STREAM does on rv64 with 8-byte words.
 */
#ifndef HWC_RISCV32_INTERNAL_H
#define HWC_RISCV32_INTERNAL_H

#include "backend.h"

#define RV_INLINE static inline __attribute__((always_inline))

/* A 32-bit word that may alias any other type (caller bytes, key schedules). */
typedef uint32_t __attribute__((may_alias)) rv32_word;

/* ---------------------------------------------------- instruction wrappers */

#define RV32_ASM_EXT(ext, insn) ".option push\n\t.option arch, +" ext "\n\t" insn "\n\t.option pop"

/* One wrapper per instruction and byte select bs (an immediate): the
 * macros below paste bs into the name, so bs must be a literal 0..3. */
#define RV32_BS_WRAPPER(name, ext, mnemonic, bs)                                                        \
    RV_INLINE uint32_t name##_##bs(uint32_t acc, uint32_t x) {                                        \
        uint32_t r;                                                                                   \
        __asm__(RV32_ASM_EXT(ext, mnemonic " %0, %1, %2, " #bs) : "=r"(r) : "r"(acc), "r"(x));        \
        return r;                                                                                     \
    }
#define RV32_BS_WRAPPERS(name, ext, mnemonic) \
    RV32_BS_WRAPPER(name, ext, mnemonic, 0)   \
    RV32_BS_WRAPPER(name, ext, mnemonic, 1)   \
    RV32_BS_WRAPPER(name, ext, mnemonic, 2)   \
    RV32_BS_WRAPPER(name, ext, mnemonic, 3)

/* Zkne: acc ^ rol(MixColumn(SubByte(byte bs of x)), 8 bs) (esmi), or
 * without MixColumn (esi). */
RV32_BS_WRAPPERS(rv32_aes32esmi, "zkne", "aes32esmi")
RV32_BS_WRAPPERS(rv32_aes32esi, "zkne", "aes32esi")
/* Zknd: the inverse S-box, with InvMixColumn (dsmi) or without (dsi). */
RV32_BS_WRAPPERS(rv32_aes32dsmi, "zknd", "aes32dsmi")
RV32_BS_WRAPPERS(rv32_aes32dsi, "zknd", "aes32dsi")
/* Zksed: acc ^ T(byte bs of x): sm4ed with the data path's L, sm4ks with
 * the key schedule's L'. */
RV32_BS_WRAPPERS(rv32_sm4ed, "zksed", "sm4ed")
RV32_BS_WRAPPERS(rv32_sm4ks, "zksed", "sm4ks")
#define rv32_aes32esmi(acc, x, bs) rv32_aes32esmi_##bs((acc), (x))
#define rv32_aes32esi(acc, x, bs) rv32_aes32esi_##bs((acc), (x))
#define rv32_aes32dsmi(acc, x, bs) rv32_aes32dsmi_##bs((acc), (x))
#define rv32_aes32dsi(acc, x, bs) rv32_aes32dsi_##bs((acc), (x))
#define rv32_sm4ed(acc, x, bs) rv32_sm4ed_##bs((acc), (x))
#define rv32_sm4ks(acc, x, bs) rv32_sm4ks_##bs((acc), (x))

/* Carry-less multiply of 32-bit words, low and high halves of the 64-bit
 * product: in Zbc and in Zbkc with the same encoding (Zbkc named). */
RV_INLINE uint32_t rv32_clmul(uint32_t a, uint32_t b) {
    uint32_t r;
    __asm__(RV32_ASM_EXT("zbkc", "clmul %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}
RV_INLINE uint32_t rv32_clmulh(uint32_t a, uint32_t b) {
    uint32_t r;
    __asm__(RV32_ASM_EXT("zbkc", "clmulh %0, %1, %2") : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Byte reversal of a 32-bit word: rev8 (Zbb or Zbkb; on rv32 it reverses
 * 4 bytes), or two swap stages without them. */
RV_INLINE uint32_t rv32_rev8(uint32_t a) {
    uint32_t r;
    __asm__(RV32_ASM_EXT("zbkb", "rev8 %0, %1") : "=r"(r) : "r"(a));
    return r;
}
RV_INLINE uint32_t rv32_bswap32_base(uint32_t a) {
    const uint32_t m8 = 0x00FF00FFu;
    a = ((a & m8) << 8) | ((a >> 8) & m8);
    return (a << 16) | (a >> 16);
}
/* Kernels with a byte swap on the data path are instantiated twice: rev8
 * is a compile-time constant of the instantiation. */
RV_INLINE uint32_t rv32_bswap32(uint32_t a, int rev8) {
    return rev8 ? rv32_rev8(a) : rv32_bswap32_base(a);
}

/* ------------------------------------------------------------- alignment */

RV_INLINE int rv32_aligned4(const void *p) {
    return ((uintptr_t)p & 3) == 0;
}

/* One aligned 32-bit load the compiler treats as opaque: rv32_gather's
 * words may hold bytes outside the caller's buffer (never outside its
 * page), so the compiler must not reason about them. */
RV_INLINE uint32_t rv32_load_aligned_word(const uint8_t *p) {
    uint32_t v;
    __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}

/* dst[0..nwords) = the little-endian words at src, src not 4-byte aligned. */
static inline void rv32_gather(rv32_word *dst, const uint8_t *src, size_t nwords) {
    const unsigned skew = (unsigned)((uintptr_t)src & 3); /* 1..3 */
    const uint8_t *base = src - skew;
    const unsigned down = 8 * skew, up = 32 - down;
    uint32_t lo = rv32_load_aligned_word(base);
    for (size_t i = 0; i < nwords; i++) {
        uint32_t hi = rv32_load_aligned_word(base + 4 * (i + 1));
        dst[i] = (lo >> down) | (hi << up);
        lo = hi;
    }
}

/* The little-endian words src[0..nwords) to dst, dst not 4-byte aligned:
 * byte stores before dst's first aligned word and after its last, whole
 * aligned words in between; only the destination's own bytes are written. */
static inline void rv32_scatter(uint8_t *dst, const rv32_word *src, size_t nwords) {
    const unsigned skew = (unsigned)((uintptr_t)dst & 3); /* 1..3 */
    const unsigned head = 4 - skew;
    const unsigned up = 8 * skew, down = 32 - up;
    uint32_t w = src[0];
    for (unsigned j = 0; j < head; j++)
        dst[j] = (uint8_t)(w >> (8 * j));
    rv32_word *out = (rv32_word *)(void *)(dst + head);
    uint32_t carry = w >> down;
    for (size_t i = 1; i < nwords; i++) {
        w = src[i];
        out[i - 1] = carry | (w << up);
        carry = w >> down;
    }
    uint8_t *tail = (uint8_t *)(out + (nwords - 1));
    for (unsigned j = 0; j < skew; j++)
        tail[j] = (uint8_t)(carry >> (8 * j));
}

/* A 16-byte chaining value as four little-endian words; the modes keep
 * them aligned, byte access covers any other caller (out of line so the
 * compiler does not compute it speculatively). */
__attribute__((noinline, unused)) static void rv32_load_chain_bytes(const uint8_t *p, uint32_t w[4]) {
    for (unsigned i = 0; i < 4; i++)
        w[i] = hwc_load_le32(p + 4 * i);
}
__attribute__((noinline, unused)) static void rv32_store_chain_bytes(uint8_t *p, const uint32_t w[4]) {
    for (unsigned i = 0; i < 4; i++)
        hwc_store_le32(p + 4 * i, w[i]);
}
RV_INLINE void rv32_load_chain(const uint8_t *p, uint32_t w[4]) {
    if (rv32_aligned4(p)) {
        for (unsigned i = 0; i < 4; i++)
            w[i] = ((const rv32_word *)(const void *)p)[i];
    } else {
        rv32_load_chain_bytes(p, w);
    }
}
RV_INLINE void rv32_store_chain(uint8_t *p, const uint32_t w[4]) {
    if (rv32_aligned4(p)) {
        for (unsigned i = 0; i < 4; i++)
            ((rv32_word *)(void *)p)[i] = w[i];
    } else {
        rv32_store_chain_bytes(p, w);
    }
}

/* Blocks per bounce-buffer chunk for unaligned caller buffers. */
#define RV32_CHUNK_BLOCKS 32

/*
 * Run BODY over nblocks blocks from in to out (in == out allowed), with
 * `rv_out` and `rv_in` (aligned rv32_word pointers, four words a block) and
 * `rv_n` (blocks) in scope: in place when both buffers are 4-byte aligned,
 * else chunk by chunk through an aligned stack buffer (wiped afterwards: it
 * held plaintext or keystream). BODY carries its chaining state from one
 * chunk to the next and must allow rv_out == rv_in.
 */
#define RV32_STREAM(out, in, nblocks, BODY)                                                        \
    do {                                                                                           \
        uint8_t *rv_dst_ = (out);                                                                  \
        const uint8_t *rv_src_ = (in);                                                             \
        size_t rv_left_ = (nblocks);                                                               \
        if (rv32_aligned4(rv_dst_) && rv32_aligned4(rv_src_)) {                                    \
            rv32_word *rv_out = (rv32_word *)(void *)rv_dst_;                                      \
            const rv32_word *rv_in = (const rv32_word *)(const void *)rv_src_;                     \
            size_t rv_n = rv_left_;                                                                \
            BODY;                                                                                  \
        } else if (rv_left_ != 0) {                                                                \
            alignas(16) rv32_word rv_buf_[4 * RV32_CHUNK_BLOCKS];                                  \
            while (rv_left_ != 0) {                                                                \
                size_t rv_n = rv_left_ < RV32_CHUNK_BLOCKS ? rv_left_ : RV32_CHUNK_BLOCKS;         \
                const rv32_word *rv_in = (const rv32_word *)(const void *)rv_src_;                 \
                rv32_word *rv_out = (rv32_word *)(void *)rv_dst_;                                  \
                if (!rv32_aligned4(rv_src_)) {                                                     \
                    rv32_gather(rv_buf_, rv_src_, 4 * rv_n);                                       \
                    rv_in = rv_buf_;                                                               \
                }                                                                                  \
                if (!rv32_aligned4(rv_dst_))                                                       \
                    rv_out = rv_buf_;                                                              \
                BODY;                                                                              \
                if (rv_out == rv_buf_)                                                             \
                    rv32_scatter(rv_dst_, rv_buf_, 4 * rv_n);                                      \
                rv_src_ += 16 * rv_n;                                                              \
                rv_dst_ += 16 * rv_n;                                                              \
                rv_left_ -= rv_n;                                                                  \
            }                                                                                      \
            hwc_wipe(rv_buf_, sizeof rv_buf_);                                                     \
        }                                                                                          \
    } while (0)

/* The same for kernels that only read (CBC-MAC, GHASH). */
#define RV32_STREAM_IN(in, nblocks, BODY)                                                          \
    do {                                                                                           \
        const uint8_t *rv_src_ = (in);                                                             \
        size_t rv_left_ = (nblocks);                                                               \
        if (rv32_aligned4(rv_src_)) {                                                              \
            const rv32_word *rv_in = (const rv32_word *)(const void *)rv_src_;                     \
            size_t rv_n = rv_left_;                                                                \
            BODY;                                                                                  \
        } else if (rv_left_ != 0) {                                                                \
            alignas(16) rv32_word rv_buf_[4 * RV32_CHUNK_BLOCKS];                                  \
            while (rv_left_ != 0) {                                                                \
                size_t rv_n = rv_left_ < RV32_CHUNK_BLOCKS ? rv_left_ : RV32_CHUNK_BLOCKS;         \
                rv32_gather(rv_buf_, rv_src_, 4 * rv_n);                                           \
                const rv32_word *rv_in = rv_buf_;                                                  \
                BODY;                                                                              \
                rv_src_ += 16 * rv_n;                                                              \
                rv_left_ -= rv_n;                                                                  \
            }                                                                                      \
            hwc_wipe(rv_buf_, sizeof rv_buf_);                                                     \
        }                                                                                          \
    } while (0)

/* OCB's block index: number of trailing zeros (public). */
RV_INLINE unsigned rv32_ntz64(uint64_t i) {
    unsigned n = 0;
    while (n < 63 && (i & 1) == 0) {
        i >>= 1;
        n++;
    }
    return n;
}

#include "rv_ctr.h" /* ctr_value, ctr_advance */

#endif /* HWC_RISCV32_INTERNAL_H */
