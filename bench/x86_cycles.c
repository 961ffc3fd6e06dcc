/*
 * x86_cycles: what bounds the x86 kernels on this core, in core cycles.
 *
 *   x86_cycles           issue rates, then hwcrypt's kernels per block
 *
 * 1. The core clock against the TSC: a chain of dependent ADDs (register
 *    operands, one cycle each) timed with RDTSCP.
 * 2. Issue rates of the instructions the AES and GHASH kernels are made of:
 *    VAESENC and VPCLMULQDQ throughput (twelve independent chains) and
 *    latency (one chain) at 128, 256 and, where the CPU has AVX-512, 512
 *    bits; then mixes with twelve VAESENC: how many cycles k VPCLMULQDQ or
 *    k byte shuffles (VPSHUFB, VPALIGNR) add to the AES work, next to ops
 *    that add nothing (VPXOR, VPSHUFD, 64-bit shifts); then twelve VAESENC
 *    with k = 3..18 ops that depend on nothing (port pressure alone), and
 *    the fused GCM loop's recipe per eight blocks with its side work made
 *    independent (the port floor of that op mix, three GHASH forms).
 * 3. hwcrypt's kernels at 16 KiB per call, cycles per 16-byte block, the
 *    minimum of many calls (robust on a shared machine): CTR, GHASH alone
 *    (GMAC's AAD), fused GCM (streaming, encryption and decryption), ECB,
 *    XTS, on the back ends that HWCRYPT_CAPS leaves (e.g.
 *    HWCRYPT_CAPS=-avx512 for the AVX2 path).
 * Figures are minima, not averages: what the code does when nothing else
 * runs on the core. docs/PERFORMANCE.md (issue 17) reads them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwcrypt/hwcrypt.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <x86intrin.h>

#include "core_clock.h"

/* What the CPU and OS support (not HWCRYPT_CAPS's mask: the issue rates are
 * the core's): 1 for AVX2 + VAES + VPCLMULQDQ with YMM state, 2 for those and
 * AVX-512 F/BW/VL with ZMM state, else 0. */
static int vector_level(void) {
    unsigned a, b, c, d, a7, b7, c7, d7;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !__get_cpuid_count(7, 0, &a7, &b7, &c7, &d7))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    const int avx2 = (lo & 0x6) == 0x6 && (b7 & (1u << 5)) && (c7 & (1u << 9)) && (c7 & (1u << 10));
    const int avx512 = (lo & 0xe6) == 0xe6 && (b7 & (1u << 16)) && (b7 & (1u << 30)) && (b7 & (1u << 31));
    return avx2 ? (avx512 ? 2 : 1) : 0;
}

typedef void (*loop_fn)(long);

/* Minimum ticks per call of f(n) over repetitions, divided by n * per. */
static double best(loop_fn f, long n, double per) {
    double b = 1e30;
    for (int r = 0; r < 300; r++) {
        uint64_t a = ticks();
        f(n);
        uint64_t c = ticks();
        if ((double)(c - a) < b)
            b = (double)(c - a);
    }
    return b / ((double)n * per);
}

/* Twelve independent chains (registers 1..12), or one (register 1). */
#define X12(op, r) \
    op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "2,%%" r "2\n\t" op " %%" r "0,%%" r "3,%%" r "3\n\t" \
    op " %%" r "0,%%" r "4,%%" r "4\n\t" op " %%" r "0,%%" r "5,%%" r "5\n\t" op " %%" r "0,%%" r "6,%%" r "6\n\t" \
    op " %%" r "0,%%" r "7,%%" r "7\n\t" op " %%" r "0,%%" r "8,%%" r "8\n\t" op " %%" r "0,%%" r "9,%%" r "9\n\t" \
    op " %%" r "0,%%" r "10,%%" r "10\n\t" op " %%" r "0,%%" r "11,%%" r "11\n\t" op " %%" r "0,%%" r "12,%%" r "12\n\t"
#define X12_CHAIN(op, r) \
    op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" \
    op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" \
    op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" \
    op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t" op " %%" r "0,%%" r "1,%%" r "1\n\t"
#define CLOBBER12 "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12"
#define LOOP(name, tgt, body, ...)                                  \
    static __attribute__((target(tgt), noinline)) void name(long n) { \
        for (long i = 0; i < n; i++)                                  \
            __asm__ volatile(body ::: __VA_ARGS__);                    \
    }

#define T2 "vaes,vpclmulqdq,avx2"
#define T5 "vaes,vpclmulqdq,avx512f,avx512vl,avx512bw"
LOOP(aes128, T2, X12("vaesenc", "xmm"), CLOBBER12)
LOOP(aes256, T2, X12("vaesenc", "ymm"), CLOBBER12)
LOOP(aes512, T5, X12("vaesenc", "zmm"), CLOBBER12)
LOOP(aes256_lat, T2, X12_CHAIN("vaesenc", "ymm"), "xmm1")
LOOP(clmul128, T2, X12("vpclmulqdq $0,", "xmm"), CLOBBER12)
LOOP(clmul256, T2, X12("vpclmulqdq $0,", "ymm"), CLOBBER12)
LOOP(clmul512, T5, X12("vpclmulqdq $0,", "zmm"), CLOBBER12)
LOOP(clmul256_lat, T2, X12_CHAIN("vpclmulqdq $0,", "ymm"), "xmm1")

/* SM4's serial round (src/x86/sm4_aesni.c): the latency of each
 * instruction on its dependency chain, and of the chain itself (PSHUFB,
 * GF2P8AFFINEINVQB, two XORs; with AVX-512 the XORs can be VPTERNLOGD),
 * three rounds per loop body. */
#define TG "gfni,avx2"
#define TG5 "gfni,avx512f,avx512vl"
LOOP(xor_lat, TG, X12_CHAIN("vpxor", "xmm"), "xmm1")
LOOP(pshufb_lat, TG, X12_CHAIN("vpshufb", "xmm"), "xmm1")
LOOP(affinv_lat, TG, X12_CHAIN("vgf2p8affineinvqb $0,", "xmm"), "xmm1")
LOOP(affinv_tput, TG, X12("vgf2p8affineinvqb $0,", "xmm"), CLOBBER12)
LOOP(affine_lat, TG, X12_CHAIN("vgf2p8affineqb $0,", "xmm"), "xmm1")
LOOP(ternlog_lat, TG5, X12_CHAIN("vpternlogd $0x96,", "xmm"), "xmm1")
LOOP(prold_lat, TG5, "vprold $8,%%xmm1,%%xmm1\n\tvprold $8,%%xmm1,%%xmm1\n\tvprold $8,%%xmm1,%%xmm1\n\t"
     "vprold $8,%%xmm1,%%xmm1\n\t", "xmm1")
LOOP(mix_affinv_pshufb, TG, X12("vgf2p8affineinvqb $0,", "xmm") X12("vpshufb", "xmm"), CLOBBER12)
LOOP(mix_affinv_ternlog, TG5, X12("vgf2p8affineinvqb $0,", "xmm") X12("vpternlogd $0x96,", "xmm"), CLOBBER12)
#define SM4_CHAIN \
    "vpshufb %%xmm0,%%xmm1,%%xmm1\n\tvgf2p8affineinvqb $0,%%xmm0,%%xmm1,%%xmm1\n\t" \
    "vpxor %%xmm0,%%xmm1,%%xmm1\n\tvpxor %%xmm0,%%xmm1,%%xmm1\n\t"
LOOP(sm4_round_lat, TG, SM4_CHAIN SM4_CHAIN SM4_CHAIN, "xmm1")
#define SM4_CHAIN_T \
    "vpshufb %%xmm0,%%xmm1,%%xmm1\n\tvgf2p8affineinvqb $0,%%xmm0,%%xmm1,%%xmm1\n\t" \
    "vpternlogd $0x96,%%xmm0,%%xmm2,%%xmm1\n\t"
LOOP(sm4_round_t_lat, TG5, SM4_CHAIN_T SM4_CHAIN_T SM4_CHAIN_T, "xmm1")

/* Whole serial rounds, hand-scheduled (no register moves), chained through
 * the S-box input: what the round costs with its issue contention, not
 * just its chain. Form 1 (src/x86/sm4_aesni.c): the three rotations of y
 * (PSHUFB or VPROLD), four GF2P8AFFINEINVQB, y' and X_a' by XORs, the
 * early part joining from the previous round's word. Form 2: y and
 * y <<< 16 both carried, eight GF2P8AFFINEINVQB, two VPROLD, VPTERNLOGD. */
#define SM4_R1(R8, R16, R24)                                                                               \
    "vgf2p8affineinvqb $0x72,%%xmm10,%%xmm1,%%xmm5\n\t" R8 R16 R24                                     \
    "vgf2p8affineinvqb $0x63,%%xmm11,%%xmm6,%%xmm6\n\tvgf2p8affineinvqb $0x63,%%xmm11,%%xmm7,%%xmm7\n\t"  \
    "vgf2p8affineinvqb $0x11,%%xmm12,%%xmm8,%%xmm8\n\t"                                                 \
    "vpxor %%xmm2,%%xmm5,%%xmm9\n\tvpxor %%xmm3,%%xmm5,%%xmm3\n\tvpxor %%xmm6,%%xmm9,%%xmm9\n\t"        \
    "vpxor %%xmm7,%%xmm8,%%xmm7\n\tvpxor %%xmm6,%%xmm3,%%xmm3\n\tvpxor %%xmm9,%%xmm7,%%xmm1\n\t"        \
    "vpxor %%xmm3,%%xmm7,%%xmm3\n\tvpxor %%xmm4,%%xmm3,%%xmm2\n\t"
#define SM4_R1_PSHUFB \
    SM4_R1("vpshufb %%xmm13,%%xmm1,%%xmm6\n\t", "vpshufb %%xmm14,%%xmm1,%%xmm7\n\t", "vpshufb %%xmm15,%%xmm1,%%xmm8\n\t")
#define SM4_R1_PROLD \
    SM4_R1("vprold $8,%%xmm1,%%xmm6\n\t", "vprold $16,%%xmm1,%%xmm7\n\t", "vprold $24,%%xmm1,%%xmm8\n\t")
#define SM4_R2                                                                                             \
    "vprold $8,%%xmm1,%%xmm6\n\tvprold $8,%%xmm2,%%xmm7\n\t"                                             \
    "vgf2p8affineinvqb $0x72,%%xmm10,%%xmm1,%%xmm16\n\tvgf2p8affineinvqb $0x63,%%xmm11,%%xmm2,%%xmm17\n\t" \
    "vgf2p8affineinvqb $0x72,%%xmm10,%%xmm2,%%xmm18\n\tvgf2p8affineinvqb $0x63,%%xmm11,%%xmm1,%%xmm19\n\t" \
    "vgf2p8affineinvqb $0x63,%%xmm11,%%xmm6,%%xmm20\n\tvgf2p8affineinvqb $0x11,%%xmm12,%%xmm7,%%xmm21\n\t" \
    "vgf2p8affineinvqb $0x63,%%xmm11,%%xmm7,%%xmm22\n\tvgf2p8affineinvqb $0x11,%%xmm12,%%xmm6,%%xmm23\n\t" \
    "vpxorq %%xmm5,%%xmm24,%%xmm1\n\tvpxorq %%xmm8,%%xmm25,%%xmm2\n\t"                                   \
    "vpternlogd $0x96,%%xmm16,%%xmm17,%%xmm1\n\tvpternlogd $0x96,%%xmm18,%%xmm19,%%xmm2\n\t"             \
    "vpternlogd $0x96,%%xmm16,%%xmm17,%%xmm24\n\tvpternlogd $0x96,%%xmm18,%%xmm19,%%xmm25\n\t"           \
    "vpternlogd $0x96,%%xmm20,%%xmm21,%%xmm1\n\tvpternlogd $0x96,%%xmm22,%%xmm23,%%xmm2\n\t"             \
    "vpternlogd $0x96,%%xmm20,%%xmm21,%%xmm24\n\tvpternlogd $0x96,%%xmm22,%%xmm23,%%xmm25\n\t"
#define CLOBBER_R "xmm1", "xmm2", "xmm3", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9"
#define CLOBBER_R2 "xmm1", "xmm2", "xmm6", "xmm7", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", \
                   "xmm23", "xmm24", "xmm25"
LOOP(sm4_r1_pshufb, TG, SM4_R1_PSHUFB SM4_R1_PSHUFB SM4_R1_PSHUFB SM4_R1_PSHUFB, CLOBBER_R)
LOOP(sm4_r1_prold, TG5, SM4_R1_PROLD SM4_R1_PROLD SM4_R1_PROLD SM4_R1_PROLD, CLOBBER_R)
LOOP(sm4_r2, TG5, SM4_R2 SM4_R2 SM4_R2 SM4_R2, CLOBBER_R2)

static int has_gfni(void) {
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 8));
}

/* Twelve VAESENC (ymm1..12) with k other ops on registers 13..15 (two
 * rounds of the loop body each, so each extra op's chain is at least one
 * twelve-AES step long). */
#define A12 X12("vaesenc", "ymm")
#define OP13(op) op " %%ymm0,%%ymm13,%%ymm13\n\t"
#define OP14(op) op " %%ymm0,%%ymm14,%%ymm14\n\t"
#define OP15(op) op " %%ymm0,%%ymm15,%%ymm15\n\t"
#define CLOBBER15 CLOBBER12, "xmm13", "xmm14", "xmm15"
LOOP(mix_clmul1, T2, A12 OP13("vpclmulqdq $0,"), CLOBBER15)
LOOP(mix_clmul2, T2, A12 OP13("vpclmulqdq $0,") OP14("vpclmulqdq $0,"), CLOBBER15)
LOOP(mix_clmul3, T2, A12 OP13("vpclmulqdq $0,") OP14("vpclmulqdq $0,") OP15("vpclmulqdq $0,"), CLOBBER15)
LOOP(mix_pshufb3, T2, A12 OP13("vpshufb") OP14("vpshufb") OP15("vpshufb"), CLOBBER15)
LOOP(mix_palignr3, T2, A12 OP13("vpalignr $14,") OP14("vpalignr $14,") OP15("vpalignr $14,"), CLOBBER15)
LOOP(mix_pxor3, T2, A12 OP13("vpxor") OP14("vpxor") OP15("vpxor"), CLOBBER15)
LOOP(mix_pshufd3, T2, A12 "vpshufd $0x4e,%%ymm13,%%ymm13\n\tvpshufd $0x4e,%%ymm14,%%ymm14\n\tvpshufd $0x4e,%%ymm15,%%ymm15\n\t",
     CLOBBER15)
LOOP(mix_psllq3, T2, A12 "vpsllq $1,%%ymm13,%%ymm13\n\tvpsllq $1,%%ymm14,%%ymm14\n\tvpsllq $1,%%ymm15,%%ymm15\n\t",
     CLOBBER15)

/* Port pressure beside the AES units: twelve VAESENC ymm and k (3, 6, 12,
 * 18) ops that depend on nothing written in the loop (sources ymm0 and
 * ymm15, results alternately in ymm13 and ymm14), so that only issue ports
 * can slow them: what each op takes from the AES units, without the
 * latency chains of the mixes above. */
#define I3(op) op "%%ymm15,%%ymm0,%%ymm13\n\t" op "%%ymm15,%%ymm0,%%ymm14\n\t" op "%%ymm15,%%ymm0,%%ymm13\n\t"
#define I6(op) I3(op) I3(op)
#define I12(op) I6(op) I6(op)
#define I18(op) I12(op) I6(op)
/* The same for an op with one source and an immediate. */
#define J3(op) op "%%ymm0,%%ymm13\n\t" op "%%ymm0,%%ymm14\n\t" op "%%ymm0,%%ymm13\n\t"
#define J6(op) J3(op) J3(op)
#define J12(op) J6(op) J6(op)
#define J18(op) J12(op) J6(op)
/* form: I (two sources) or J (one source and an immediate). */
#define FREE_MIX(name, form, op)                          \
    LOOP(name##_3, T2, A12 form##3(op), CLOBBER15)        \
    LOOP(name##_6, T2, A12 form##6(op), CLOBBER15)        \
    LOOP(name##_12, T2, A12 form##12(op), CLOBBER15)      \
    LOOP(name##_18, T2, A12 form##18(op), CLOBBER15)
FREE_MIX(free_pxor, I, "vpxor ")
FREE_MIX(free_paddd, I, "vpaddd ")
FREE_MIX(free_pshufb, I, "vpshufb ")
FREE_MIX(free_punpck, I, "vpunpcklqdq ")
FREE_MIX(free_pshufd, J, "vpshufd $0x4e,")
FREE_MIX(free_clmul, I, "vpclmulqdq $0,")
FREE_MIX(free_blend, I, "vpblendd $0xf0,")

/* The fused GCM loop's recipe, per four registers (eight blocks) of
 * AES-128: 8 VAESENC registers (ymm1..8) through 5 rounds (40 VAESENC,
 * four registers' ten rounds), then per register the counter (VPADDD,
 * VPXOR round key 0), the data into the last round key (VPXOR with a
 * load) and GHASH of a register of ciphertext: byte swap (VPSHUFB), then
 *   Karatsuba:  VPSHUFD swap, VPXOR, 3 VPCLMULQDQ, 3 VPXOR into lo/mid/hi;
 *   schoolbook: 4 VPCLMULQDQ, 4 VPXOR;
 *   Karatsuba paired: per two registers VPUNPCKLQDQ, VPUNPCKHQDQ, VPXOR
 *     for both middles, 6 VPCLMULQDQ, 6 VPXOR.
 * Results of the side work are dead, its accumulators chain by one VPXOR
 * (ymm13..15); powers and data are loads. Cycles per 8 blocks. */
#define A40_8 \
    "vaesenc %%ymm0,%%ymm1,%%ymm1\n\tvaesenc %%ymm0,%%ymm2,%%ymm2\n\tvaesenc %%ymm0,%%ymm3,%%ymm3\n\t" \
    "vaesenc %%ymm0,%%ymm4,%%ymm4\n\tvaesenc %%ymm0,%%ymm5,%%ymm5\n\tvaesenc %%ymm0,%%ymm6,%%ymm6\n\t" \
    "vaesenc %%ymm0,%%ymm7,%%ymm7\n\tvaesenc %%ymm0,%%ymm8,%%ymm8\n\t"
#define AES40 A40_8 A40_8 A40_8 A40_8 A40_8
#define CTR_REG "vpaddd 64(%0),%%ymm9,%%ymm10\n\tvpxor %%ymm0,%%ymm10,%%ymm10\n\tvpxor 96(%0),%%ymm0,%%ymm11\n\t"
#define BSWAP_REG "vmovdqu 96(%0),%%ymm10\n\tvpshufb (%0),%%ymm10,%%ymm10\n\t"
#define KARA_REG BSWAP_REG \
    "vpshufd $0x4e,%%ymm10,%%ymm11\n\tvpxor %%ymm10,%%ymm11,%%ymm11\n\t" \
    "vpclmulqdq $0x00,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm13,%%ymm13\n\t" \
    "vpclmulqdq $0x11,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm15,%%ymm15\n\t" \
    "vpclmulqdq $0x00,160(%0),%%ymm11,%%ymm12\n\tvpxor %%ymm12,%%ymm14,%%ymm14\n\t"
#define SCHOOL_REG BSWAP_REG \
    "vpclmulqdq $0x00,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm13,%%ymm13\n\t" \
    "vpclmulqdq $0x11,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm15,%%ymm15\n\t" \
    "vpclmulqdq $0x01,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm14,%%ymm14\n\t" \
    "vpclmulqdq $0x10,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm14,%%ymm14\n\t"
#define KARA_PAIR BSWAP_REG \
    "vmovdqu 64(%0),%%ymm11\n\tvpshufb (%0),%%ymm11,%%ymm11\n\t" \
    "vpclmulqdq $0x00,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm13,%%ymm13\n\t" \
    "vpclmulqdq $0x11,128(%0),%%ymm10,%%ymm12\n\tvpxor %%ymm12,%%ymm15,%%ymm15\n\t" \
    "vpclmulqdq $0x00,160(%0),%%ymm11,%%ymm12\n\tvpxor %%ymm12,%%ymm13,%%ymm13\n\t" \
    "vpclmulqdq $0x11,160(%0),%%ymm11,%%ymm12\n\tvpxor %%ymm12,%%ymm15,%%ymm15\n\t" \
    "vpunpcklqdq %%ymm11,%%ymm10,%%ymm12\n\tvpunpckhqdq %%ymm11,%%ymm10,%%ymm10\n\t" \
    "vpxor %%ymm10,%%ymm12,%%ymm12\n\t" \
    "vpclmulqdq $0x00,192(%0),%%ymm12,%%ymm10\n\tvpxor %%ymm10,%%ymm14,%%ymm14\n\t" \
    "vpclmulqdq $0x11,192(%0),%%ymm12,%%ymm10\n\tvpxor %%ymm10,%%ymm14,%%ymm14\n\t"
#define CLOBBER_ALL CLOBBER15, "xmm0"
static uint8_t mix_mem[256] __attribute__((aligned(64)));
#define LOOP_MEM(name, body)                                                           \
    static __attribute__((target(T2), noinline)) void name(long n) {                   \
        for (long i = 0; i < n; i++)                                                   \
            __asm__ volatile(body ::"r"(mix_mem) : CLOBBER_ALL);                       \
    }
LOOP_MEM(recipe_aes, AES40)
LOOP_MEM(recipe_ctr, AES40 CTR_REG CTR_REG CTR_REG CTR_REG)
LOOP_MEM(recipe_ghash_kara, KARA_REG KARA_REG KARA_REG KARA_REG)
LOOP_MEM(recipe_kara, AES40 CTR_REG CTR_REG CTR_REG CTR_REG KARA_REG KARA_REG KARA_REG KARA_REG)
LOOP_MEM(recipe_school, AES40 CTR_REG CTR_REG CTR_REG CTR_REG SCHOOL_REG SCHOOL_REG SCHOOL_REG SCHOOL_REG)
LOOP_MEM(recipe_pair, AES40 CTR_REG CTR_REG CTR_REG CTR_REG KARA_PAIR KARA_PAIR)

static double cycle; /* TSC ticks per core cycle */

static void rate(const char *what, loop_fn f, double per) {
    double c = best(f, 200, per) / cycle;
    printf("| %s | %.2f | %.2f |\n", what, c, 1.0 / c);
}

static void mix(const char *what, loop_fn f) {
    printf("| 12 VAESENC ymm + %s | %.2f |\n", what, best(f, 200, 1) / cycle);
}

static void free_row(const char *what, loop_fn f3, loop_fn f6, loop_fn f12, loop_fn f18) {
    printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", what, best(f3, 200, 1) / cycle, best(f6, 200, 1) / cycle,
           best(f12, 200, 1) / cycle, best(f18, 200, 1) / cycle);
}

static void recipe(const char *what, loop_fn f, int ops) {
    const double c = best(f, 200, 1) / cycle;
    printf("| %s | %d | %.2f | %.2f |\n", what, ops, c, c / 8);
}

/* What per_block times: data encrypted, AAD alone (an encrypting context),
 * or data decrypted. */
enum call_kind { ENCRYPT_DATA, AAD_ONLY, DECRYPT_DATA };

/* One hwcrypt call of 16 KiB: minimum over calls, cycles per block. */
static double per_block(const char *cipher, enum call_kind kind) {
    static uint8_t in[16384], out[16384];
    static const uint8_t key[64] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                                    23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42,
                                    43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,
                                    63, 64};
    uint8_t iv[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    const hwc_cipher *c = hwc_cipher_by_name(cipher);
    hwc_ctx *ctx = hwc_ctx_new();
    if (!c || !ctx)
        return -1;
    const int xts = (hwc_cipher_flags(c) & HWC_CIPHER_ONE_SHOT) != 0;
    size_t iv_len = hwc_cipher_iv_len(c), n;
    const int direction = kind == DECRYPT_DATA ? HWC_DECRYPT : HWC_ENCRYPT;
    if (hwc_init(ctx, c, direction, key, hwc_cipher_key_len(c), iv_len ? iv : NULL, iv_len) != HWC_OK)
        return -1;
    hwc_set_padding(ctx, 0); /* ECB; refused by the others */
    double b = 1e30;
    for (int r = 0; r < 3000; r++) {
        if (xts)
            hwc_init(ctx, NULL, HWC_ENCRYPT, NULL, 0, iv, iv_len);
        uint64_t a = ticks();
        if (kind == AAD_ONLY)
            hwc_aad(ctx, in, sizeof in);
        else
            hwc_update(ctx, out, &n, in, sizeof in);
        uint64_t e = ticks();
        if ((double)(e - a) < b)
            b = (double)(e - a);
    }
    hwc_ctx_free(ctx);
    return b / cycle / (sizeof in / 16);
}

int main(void) {
    cycle = ticks_per_core_cycle(300);
    printf("TSC ticks per core cycle: %.3f\n\n", cycle);
    const int level = vector_level();
    if (level == 0) {
        printf("SKIP issue rates: the CPU lacks AVX2, VAES or VPCLMULQDQ\n");
    } else {
        const int avx512 = level == 2;
        printf("| instruction | cycles per instruction | per cycle |\n|---|---|---|\n");
        rate("VAESENC xmm", aes128, 12);
        rate("VAESENC ymm", aes256, 12);
        if (avx512)
            rate("VAESENC zmm", aes512, 12);
        rate("VAESENC ymm, dependent (latency)", aes256_lat, 12);
        rate("VPCLMULQDQ xmm", clmul128, 12);
        rate("VPCLMULQDQ ymm", clmul256, 12);
        if (avx512)
            rate("VPCLMULQDQ zmm", clmul512, 12);
        rate("VPCLMULQDQ ymm, dependent (latency)", clmul256_lat, 12);
        printf("\n| loop body | cycles (12 VAESENC alone: 6 at 2 per cycle) |\n|---|---|\n");
        mix("1 VPCLMULQDQ", mix_clmul1);
        mix("2 VPCLMULQDQ", mix_clmul2);
        mix("3 VPCLMULQDQ", mix_clmul3);
        mix("3 VPSHUFB", mix_pshufb3);
        mix("3 VPALIGNR", mix_palignr3);
        mix("3 VPXOR", mix_pxor3);
        mix("3 VPSHUFD", mix_pshufd3);
        mix("3 VPSLLQ", mix_psllq3);
        printf("\n| 12 VAESENC ymm + k independent ops | k=3 | 6 | 12 | 18 |\n|---|---|---|---|---|\n");
        free_row("VPXOR", free_pxor_3, free_pxor_6, free_pxor_12, free_pxor_18);
        free_row("VPADDD", free_paddd_3, free_paddd_6, free_paddd_12, free_paddd_18);
        free_row("VPBLENDD", free_blend_3, free_blend_6, free_blend_12, free_blend_18);
        free_row("VPSHUFB", free_pshufb_3, free_pshufb_6, free_pshufb_12, free_pshufb_18);
        free_row("VPSHUFD", free_pshufd_3, free_pshufd_6, free_pshufd_12, free_pshufd_18);
        free_row("VPUNPCKLQDQ", free_punpck_3, free_punpck_6, free_punpck_12, free_punpck_18);
        free_row("VPCLMULQDQ", free_clmul_3, free_clmul_6, free_clmul_12, free_clmul_18);
        printf("\n| fused GCM recipe, AES-128, independent side work | vector ops | cycles per 8 blocks |"
               " per block |\n|---|---|---|---|\n");
        recipe("40 VAESENC (AES alone)", recipe_aes, 40);
        recipe("GHASH alone, Karatsuba, 4 registers", recipe_ghash_kara, 36);
        recipe("AES + counters + data", recipe_ctr, 52);
        recipe("AES + counters + data + GHASH Karatsuba", recipe_kara, 88);
        recipe("AES + counters + data + GHASH schoolbook", recipe_school, 88);
        recipe("AES + counters + data + GHASH Karatsuba paired", recipe_pair, 82);
    }
    if (level == 0 || !has_gfni()) {
        printf("\nSKIP SM4 round latencies: the CPU lacks GFNI or AVX2\n");
    } else {
        printf("\n| SM4 serial round (xmm) | cycles per instruction | per cycle |\n|---|---|---|\n");
        rate("VPXOR, dependent (latency)", xor_lat, 12);
        rate("VPSHUFB, dependent (latency)", pshufb_lat, 12);
        rate("GF2P8AFFINEQB, dependent (latency)", affine_lat, 12);
        rate("GF2P8AFFINEINVQB, dependent (latency)", affinv_lat, 12);
        rate("GF2P8AFFINEINVQB, independent (throughput)", affinv_tput, 12);
        rate("12 GF2P8AFFINEINVQB + 12 VPSHUFB, independent (per op)", mix_affinv_pshufb, 24);
        if (level == 2) {
            rate("VPTERNLOGD, dependent (latency)", ternlog_lat, 12);
            rate("VPROLD, dependent (latency)", prold_lat, 4);
            rate("12 GF2P8AFFINEINVQB + 12 VPTERNLOGD, independent (per op)", mix_affinv_ternlog, 24);
        }
        rate("round chain PSHUFB, AFFINEINV, 2 VPXOR (per round)", sm4_round_lat, 3);
        if (level == 2)
            rate("round chain PSHUFB, AFFINEINV, VPTERNLOGD (per round)", sm4_round_t_lat, 3);
        rate("whole round, form 1, PSHUFB (per round)", sm4_r1_pshufb, 4);
        if (level == 2) {
            rate("whole round, form 1, VPROLD (per round)", sm4_r1_prold, 4);
            rate("whole round, form 2, y and y<<<16, VPTERNLOGD (per round)", sm4_r2, 4);
        }
    }
    const char *caps = getenv("HWCRYPT_CAPS");
    printf("\nhwcrypt at 16 KiB per call (HWCRYPT_CAPS=%s), cycles per 16-byte block, minimum of 3000 calls\n\n",
           caps ? caps : "(unset)");
    printf("| kernel | cycles per block |\n|---|---|\n");
    static const struct {
        const char *what, *cipher;
        enum call_kind kind;
    } rows[] = {
        {"AES-128-ECB", "aes-128-ecb", ENCRYPT_DATA}, {"AES-128-CTR", "aes-128-ctr", ENCRYPT_DATA},
        {"GHASH alone (AES-128-GMAC, AAD)", "aes-128-gmac", AAD_ONLY},
        {"AES-128-GCM (fused, streaming)", "aes-128-gcm", ENCRYPT_DATA},
        {"AES-128-GCM decryption (fused, streaming)", "aes-128-gcm", DECRYPT_DATA},
        {"AES-256-ECB", "aes-256-ecb", ENCRYPT_DATA}, {"AES-256-CTR", "aes-256-ctr", ENCRYPT_DATA},
        {"AES-256-GCM (fused, streaming)", "aes-256-gcm", ENCRYPT_DATA},
        {"AES-256-XTS (one data unit)", "aes-256-xts", ENCRYPT_DATA},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        printf("| %s | %.2f |\n", rows[i].what, per_block(rows[i].cipher, rows[i].kind));
    return 0;
}

#else
int main(void) {
    printf("SKIP x86_cycles: x86-64 with GCC or Clang only\n");
    return 0;
}
#endif
