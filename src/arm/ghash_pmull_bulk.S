/*
 * The eight-block loop of the "pmull" GHASH and POLYVAL (ghash_pmull.c
 * calls it for whole groups and does the last 1..7 blocks). In assembly
 * for the reason aes_armv8ce_bulk.S is: with H^8..H^1 in both forms (16
 * registers) and eight blocks live, the compilers spilled the powers.
 *
 *   void hwc_a64_ghash8(const hwc_ghash_key *key, uint8_t state[16],
 *                       const uint8_t *in, size_t groups);
 *   void hwc_a64_polyval8(...same...);
 *
 * Key layout (arm_internal.h): H^k in swapped then normal form at
 * 32 * (k - 1): loaded into v16-v31, H^k in v(14 + 2k) (swapped) and
 * v(15 + 2k) (normal). GHASH takes blocks after REV64 (swapped form) and
 * multiplies by (swapped, normal); POLYVAL takes them as loaded (normal
 * form) and multiplies by (normal, swapped). Partial products in v8 (first
 * form's PMULL), v9 (the two cross products), v10 (PMULL2); one reduction
 * per group (two PMULL by x^63 + x^62 + x^57). Plain EOR: this loop is bound
 * by the vector pipes, where EOR3 would issue on fewer (docs/PERFORMANCE.md).
 */
#if defined(__aarch64__) && defined(__ELF__)

        .text
        .arch   armv8-a+crypto

.macro  pm_first x, k1, k2
        pmull   v8.1q, v\x\().1d, v\k1\().1d
        pmull2  v10.1q, v\x\().2d, v\k1\().2d
        pmull   v9.1q, v\x\().1d, v\k2\().1d
        pmull2  v11.1q, v\x\().2d, v\k2\().2d
        eor     v9.16b, v9.16b, v11.16b
.endm
.macro  pm_more x, k1, k2
        pmull   v11.1q, v\x\().1d, v\k1\().1d
        eor     v8.16b, v8.16b, v11.16b
        pmull2  v11.1q, v\x\().2d, v\k1\().2d
        eor     v10.16b, v10.16b, v11.16b
        pmull   v11.1q, v\x\().1d, v\k2\().1d
        pmull2  v\x\().1q, v\x\().2d, v\k2\().2d
        eor     v9.16b, v9.16b, v11.16b
        eor     v9.16b, v9.16b, v\x\().16b
.endm
/* lo + mid * x^64 + hi * x^128, times x^-128 mod Q: normal form into d */
.macro  pm_reduce d, lo, hi
        pmull   v1.1q, v\lo\().1d, v13.1d
        ext     v2.16b, v\lo\().16b, v\lo\().16b, #8
        eor     v2.16b, v2.16b, v1.16b
        eor     v2.16b, v2.16b, v9.16b
        pmull   v1.1q, v2.1d, v13.1d
        ext     v\d\().16b, v2.16b, v2.16b, #8
        eor     v\d\().16b, v\d\().16b, v1.16b
        eor     v\d\().16b, v\d\().16b, v\hi\().16b
.endm

.macro  hash8   name, poly
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        stp     d8, d9, [sp, #-48]!
        stp     d10, d11, [sp, #16]
        stp     d12, d13, [sp, #32]
        ld1     {v16.16b-v19.16b}, [x0], #64
        ld1     {v20.16b-v23.16b}, [x0], #64
        ld1     {v24.16b-v27.16b}, [x0], #64
        ld1     {v28.16b-v31.16b}, [x0]
        mov     x8, #0xc200000000000000
        fmov    d13, x8
        ld1     {v12.16b}, [x1]
        .if !\poly
        rev64   v12.16b, v12.16b
        .endif
1:      ld1     {v0.16b-v3.16b}, [x2], #64
        ld1     {v4.16b-v7.16b}, [x2], #64
        .if !\poly
        rev64   v0.16b, v0.16b
        rev64   v1.16b, v1.16b
        rev64   v2.16b, v2.16b
        rev64   v3.16b, v3.16b
        rev64   v4.16b, v4.16b
        rev64   v5.16b, v5.16b
        rev64   v6.16b, v6.16b
        rev64   v7.16b, v7.16b
        .endif
        eor     v0.16b, v0.16b, v12.16b
        .if \poly
        pm_first 0, 31, 30
        pm_more 1, 29, 28
        pm_more 2, 27, 26
        pm_more 3, 25, 24
        pm_more 4, 23, 22
        pm_more 5, 21, 20
        pm_more 6, 19, 18
        pm_more 7, 17, 16
        pm_reduce 12, 8, 10
        .else
        pm_first 0, 30, 31
        pm_more 1, 28, 29
        pm_more 2, 26, 27
        pm_more 3, 24, 25
        pm_more 4, 22, 23
        pm_more 5, 20, 21
        pm_more 6, 18, 19
        pm_more 7, 16, 17
        pm_reduce 3, 10, 8
        ext     v12.16b, v3.16b, v3.16b, #8
        .endif
        subs    x3, x3, #1
        b.ne    1b
        .if !\poly
        rev64   v12.16b, v12.16b
        .endif
        st1     {v12.16b}, [x1]
        ldp     d10, d11, [sp, #16]
        ldp     d12, d13, [sp, #32]
        ldp     d8, d9, [sp], #48
        ret
        .size   \name, . - \name
.endm
        hash8   hwc_a64_ghash8, 0
        hash8   hwc_a64_polyval8, 1

#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
