/*
 * The eight-block loops of the "armv8ce" and "armv8ce-eor3" AES back ends
 * (aes_armv8ce_modes.h calls them for whole groups and does the rest).
 *
 * Written in assembly because the instruction counts of these loops are the
 * product: with intrinsics, each compiler moved blocks between registers
 * around AESE (destructive), spilled round keys, or hoisted reloads above
 * the rounds, differently per mode and per release (docs/PERFORMANCE.md).
 *
 * Registers. Round keys stay in registers for the whole call, the last one
 * always in v31 and the one before in v30: AES-128 in v21-v31, AES-192 in
 * v19-v31, AES-256 in v17-v31. Blocks are v0-v7. Tweaks, offsets and the
 * GHASH key use v8-v15 (their low halves are callee-saved: saved on entry).
 * Each function is instantiated for 10, 12 and 14 rounds and picks one by
 * nr on entry; the "3" variants merge three-way XORs into EOR3 (SHA3).
 *
 * Arguments (AAPCS64): x0 round keys, w1 rounds, x2 out, x3 in, x4 groups of
 * eight blocks (at least one), then per function.
 */
#if defined(__aarch64__) && defined(__ELF__)

        .text
        .arch   armv8.2-a+crypto+sha3

/* ------------------------------------------------------------ helpers */

/* Round keys into v(31-nr)..v31. */
.macro  load_keys nr
        .if \nr == 14
        ld1     {v17.16b-v20.16b}, [x0], #64
        .elseif \nr == 12
        ld1     {v19.16b-v20.16b}, [x0], #32
        .endif
        ld1     {v21.16b-v24.16b}, [x0], #64
        ld1     {v25.16b-v28.16b}, [x0], #64
        ld1     {v29.16b-v31.16b}, [x0]
.endm

/* One round (key register k) on the blocks listed (recursion, not .irp:
 * register names built inside .irp are not substituted by clang). */
.macro  rnd     op, mc, k, b, rest:vararg
        \op     v\b\().16b, v\k\().16b
        \mc     v\b\().16b, v\b\().16b
        .ifnb   \rest
        rnd     \op, \mc, \k, \rest
        .endif
.endm
.macro  rnd_last op, b, rest:vararg
        \op     v\b\().16b, v30.16b
        .ifnb   \rest
        rnd_last \op, \rest
        .endif
.endm
/* v[b] ^= v31 for the blocks listed. */
.macro  xor_last b, rest:vararg
        eor     v\b\().16b, v\b\().16b, v31.16b
        .ifnb   \rest
        xor_last \rest
        .endif
.endm
/* Rounds 0..nr-1 (no final key XOR) on the blocks listed. */
.macro  rounds  op, mc, nr, regs:vararg
        .if \nr == 14
        rnd     \op, \mc, 17, \regs
        rnd     \op, \mc, 18, \regs
        .endif
        .if \nr >= 12
        rnd     \op, \mc, 19, \regs
        rnd     \op, \mc, 20, \regs
        .endif
        .irp    k, 21, 22, 23, 24, 25, 26, 27, 28, 29
        rnd     \op, \mc, \k, \regs
        .endr
        rnd_last \op, \regs
.endm
.macro  enc     nr, regs:vararg
        rounds  aese, aesmc, \nr, \regs
.endm
.macro  dec     nr, regs:vararg
        rounds  aesd, aesimc, \nr, \regs
.endm

/* d = a ^ b ^ c */
.macro  xor3    e3, d, a, b, c
        .if \e3
        eor3    v\d\().16b, v\a\().16b, v\b\().16b, v\c\().16b
        .else
        eor     v\d\().16b, v\a\().16b, v\b\().16b
        eor     v\d\().16b, v\d\().16b, v\c\().16b
        .endif
.endm

.macro  save_d8_15
        stp     d8, d9, [sp, #-64]!
        stp     d10, d11, [sp, #16]
        stp     d12, d13, [sp, #32]
        stp     d14, d15, [sp, #48]
.endm
.macro  restore_d8_15
        ldp     d10, d11, [sp, #16]
        ldp     d12, d13, [sp, #32]
        ldp     d14, d15, [sp, #48]
        ldp     d8, d9, [sp], #64
.endm

/* A function named \name whose body is the macro \body instantiated for
 * each round count (arguments: nr, then \args). */
.macro  func3   name, body, args:vararg
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        \body   10, \args
        ret
2:      \body   12, \args
        ret
3:      \body   14, \args
        ret
        .size   \name, . - \name
.endm

/* ------------------------------------------------------------------ ECB */

.macro  ecb_body nr, dir
        load_keys \nr
1:      ld1     {v0.16b-v3.16b}, [x3], #64
        ld1     {v4.16b-v7.16b}, [x3], #64
        \dir    \nr, 0, 1, 2, 3, 4, 5, 6, 7
        xor_last 0, 1, 2, 3, 4, 5, 6, 7
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        subs    x4, x4, #1
        b.ne    1b
.endm
        func3   hwc_a64_ecb8_enc, ecb_body, enc
        func3   hwc_a64_ecb8_dec, ecb_body, dec

/* ------------------------------------------------------------------ CTR */

/* x5: the first block's counter block. Big-endian (ctr8): each block is the
 * last one plus one in its last byte (ADD on bytes): the caller guarantees
 * that byte does not carry in these 8 * x4 blocks. Little-endian in the
 * first word (ctr8le, GCM-SIV): plus one on the first 32-bit lane, which
 * wraps mod 2^32 as GCM-SIV's counter does, so any count works. */
.macro  ctr_body nr, e3, le
        load_keys \nr
        ld1     {v16.16b}, [x5]
        movi    v8.2d, #0
        .if \le
        movi    v9.4s, #1
        ins     v8.s[0], v9.s[0]                /* 1 in the first lane */
        .else
        movi    v9.16b, #1
        ext     v8.16b, v8.16b, v9.16b, #1      /* 1 in byte 15 */
        .endif
1:      mov     v0.16b, v16.16b
        .if \le
        add     v1.4s, v0.4s, v8.4s
        add     v2.4s, v1.4s, v8.4s
        add     v3.4s, v2.4s, v8.4s
        add     v4.4s, v3.4s, v8.4s
        add     v5.4s, v4.4s, v8.4s
        add     v6.4s, v5.4s, v8.4s
        add     v7.4s, v6.4s, v8.4s
        add     v16.4s, v7.4s, v8.4s
        .else
        add     v1.16b, v0.16b, v8.16b
        add     v2.16b, v1.16b, v8.16b
        add     v3.16b, v2.16b, v8.16b
        add     v4.16b, v3.16b, v8.16b
        add     v5.16b, v4.16b, v8.16b
        add     v6.16b, v5.16b, v8.16b
        add     v7.16b, v6.16b, v8.16b
        add     v16.16b, v7.16b, v8.16b
        .endif
        enc     \nr, 0, 1, 2, 3, 4, 5, 6, 7
        ld1     {v9.16b-v12.16b}, [x3], #64
        xor3    \e3, 0, 0, 31, 9
        xor3    \e3, 1, 1, 31, 10
        xor3    \e3, 2, 2, 31, 11
        xor3    \e3, 3, 3, 31, 12
        ld1     {v9.16b-v12.16b}, [x3], #64
        st1     {v0.16b-v3.16b}, [x2], #64
        xor3    \e3, 4, 4, 31, 9
        xor3    \e3, 5, 5, 31, 10
        xor3    \e3, 6, 6, 31, 11
        xor3    \e3, 7, 7, 31, 12
        st1     {v4.16b-v7.16b}, [x2], #64
        subs    x4, x4, #1
        b.ne    1b
.endm
.macro  ctr_func name, e3, le
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        save_d8_15
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        ctr_body 10, \e3, \le
        b       9f
2:      ctr_body 12, \e3, \le
        b       9f
3:      ctr_body 14, \e3, \le
9:      restore_d8_15
        ret
        .size   \name, . - \name
.endm
        ctr_func hwc_a64_ctr8, 0, 0
        ctr_func hwc_a64_ctr8_3, 1, 0
        ctr_func hwc_a64_ctr8le, 0, 1
        ctr_func hwc_a64_ctr8le_3, 1, 1

/* ---------------------------------------------- CBC and CFB decryption */

/* x5: the chaining block (in: IV, out: last ciphertext block). The
 * ciphertext is read again after the rounds (before the stores: in place
 * works); v16 carries the previous block XORed with the last round key. */
.macro  cbc_dec_body nr, e3
        load_keys \nr
        ld1     {v16.16b}, [x5]
        eor     v16.16b, v16.16b, v31.16b
1:      ld1     {v0.16b-v3.16b}, [x3]
        add     x6, x3, #64
        ld1     {v4.16b-v7.16b}, [x6]
        dec     \nr, 0, 1, 2, 3, 4, 5, 6, 7
        ld1     {v8.16b-v11.16b}, [x3], #64
        ld1     {v12.16b-v15.16b}, [x3], #64
        eor     v0.16b, v0.16b, v16.16b
        xor3    \e3, 1, 1, 31, 8
        xor3    \e3, 2, 2, 31, 9
        xor3    \e3, 3, 3, 31, 10
        xor3    \e3, 4, 4, 31, 11
        xor3    \e3, 5, 5, 31, 12
        xor3    \e3, 6, 6, 31, 13
        xor3    \e3, 7, 7, 31, 14
        eor     v16.16b, v15.16b, v31.16b
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        subs    x4, x4, #1
        b.ne    1b
        eor     v16.16b, v16.16b, v31.16b
        st1     {v16.16b}, [x5]
.endm
/* CFB: the cipher inputs are the previous block and the first seven of
 * the group (v0 holds the previous block across iterations). */
.macro  cfb_dec_body nr, e3
        load_keys \nr
        ld1     {v0.16b}, [x5]
1:      ld1     {v1.16b-v4.16b}, [x3]
        add     x6, x3, #64
        ld1     {v5.16b-v7.16b}, [x6]
        enc     \nr, 0, 1, 2, 3, 4, 5, 6, 7
        ld1     {v8.16b-v11.16b}, [x3], #64
        ld1     {v12.16b-v15.16b}, [x3], #64
        xor3    \e3, 0, 0, 31, 8
        xor3    \e3, 1, 1, 31, 9
        xor3    \e3, 2, 2, 31, 10
        xor3    \e3, 3, 3, 31, 11
        xor3    \e3, 4, 4, 31, 12
        xor3    \e3, 5, 5, 31, 13
        xor3    \e3, 6, 6, 31, 14
        xor3    \e3, 7, 7, 31, 15
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        mov     v0.16b, v15.16b
        subs    x4, x4, #1
        b.ne    1b
        st1     {v0.16b}, [x5]
.endm
.macro  chain_func name, body, e3
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        save_d8_15
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        \body   10, \e3
        b       9f
2:      \body   12, \e3
        b       9f
3:      \body   14, \e3
9:      restore_d8_15
        ret
        .size   \name, . - \name
.endm
        chain_func hwc_a64_cbc8_dec, cbc_dec_body, 0
        chain_func hwc_a64_cbc8_dec_3, cbc_dec_body, 1
        chain_func hwc_a64_cfb8_dec, cfb_dec_body, 0
        chain_func hwc_a64_cfb8_dec_3, cfb_dec_body, 1

/* ------------------------------------------------------------------ XTS */

/* x5: the tweak (in: the first block's, out: the next one's). Tweaks of the
 * group in v8-v15, each stepped by alpha^8 for the next group: the bytes
 * rotated up by one and the top byte times 0x86 (= 0x87 ^ 1, cancelling the
 * byte that rotated into byte 0) XORed in. v16: 0x86 in both halves. */
.macro  xts_step t, tmp
        ushr    v\tmp\().2d, v\t\().2d, #56
        pmull2  v\tmp\().1q, v\tmp\().2d, v16.2d
        ext     v\t\().16b, v\t\().16b, v\t\().16b, #15
        eor     v\t\().16b, v\t\().16b, v\tmp\().16b
.endm
/* \m on (v0, v8), (v1, v9) ... (v7, v15). */
.macro  pairs   m, arg
        \m      \arg, 0, 8
        \m      \arg, 1, 9
        \m      \arg, 2, 10
        \m      \arg, 3, 11
        \m      \arg, 4, 12
        \m      \arg, 5, 13
        \m      \arg, 6, 14
        \m      \arg, 7, 15
.endm
.macro  eor2    unused, b, t
        eor     v\b\().16b, v\b\().16b, v\t\().16b
.endm
.macro  xor3_last e3, b, t
        xor3    \e3, \b, \b, 31, \t
.endm
.macro  xts_step_pair unused, tmp, t
        xts_step \t, \tmp
.endm
/* T * alpha, to fill the first group: v0 = sign masks, v1 = (1, 0x87). */
.macro  xts_alpha d, s
        sshr    v0.2d, v\s\().2d, #63
        add     v\d\().2d, v\s\().2d, v\s\().2d
        and     v0.16b, v0.16b, v1.16b
        ext     v0.16b, v0.16b, v0.16b, #8
        eor     v\d\().16b, v\d\().16b, v0.16b
.endm
.macro  xts_body nr, dir, e3
        load_keys \nr
        mov     x7, #0x86
        dup     v16.2d, x7
        mov     x7, #0x87
        mov     x6, #1
        fmov    d1, x6
        mov     v1.d[1], x7
        ld1     {v8.16b}, [x5]
        xts_alpha 9, 8
        xts_alpha 10, 9
        xts_alpha 11, 10
        xts_alpha 12, 11
        xts_alpha 13, 12
        xts_alpha 14, 13
        xts_alpha 15, 14
1:      ld1     {v0.16b-v3.16b}, [x3], #64
        ld1     {v4.16b-v7.16b}, [x3], #64
        pairs   eor2, 0
        \dir    \nr, 0, 1, 2, 3, 4, 5, 6, 7
        pairs   xor3_last, \e3
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        pairs   xts_step_pair, 0
        subs    x4, x4, #1
        b.ne    1b
        st1     {v8.16b}, [x5]
.endm
.macro  xts_func name, dir, e3
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        save_d8_15
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        xts_body 10, \dir, \e3
        b       9f
2:      xts_body 12, \dir, \e3
        b       9f
3:      xts_body 14, \dir, \e3
9:      restore_d8_15
        ret
        .size   \name, . - \name
.endm
        xts_func hwc_a64_xts8_enc, enc, 0
        xts_func hwc_a64_xts8_dec, dec, 0
        xts_func hwc_a64_xts8_enc_3, enc, 1
        xts_func hwc_a64_xts8_dec_3, dec, 1


/* ------------------------------------------------------------------ OCB */

/* x5: L[0..63], x6: index of the group's first block (1 mod 8), x7:
 * offset then checksum (32 bytes, in and out). Offsets in v8-v15 (v15 also
 * carries the last one to the next group), checksum in v16. Blocks 8k+1 ..
 * 8k+8 take L0 L1 L0 L2 L0 L1 L0 L[ntz(8k+8)]. */
.macro  ocb_body nr, dir, e3, enc
        load_keys \nr
        ld1     {v15.16b, v16.16b}, [x7]
1:      ld1     {v0.16b-v2.16b}, [x5]
        eor     v8.16b, v15.16b, v0.16b
        eor     v9.16b, v8.16b, v1.16b
        eor     v10.16b, v9.16b, v0.16b
        eor     v11.16b, v10.16b, v2.16b
        eor     v12.16b, v11.16b, v0.16b
        eor     v13.16b, v12.16b, v1.16b
        eor     v14.16b, v13.16b, v0.16b
        add     x8, x6, #7
        rbit    x8, x8
        clz     x8, x8
        ldr     q3, [x5, x8, lsl #4]
        eor     v15.16b, v14.16b, v3.16b
        ld1     {v0.16b-v3.16b}, [x3], #64
        ld1     {v4.16b-v7.16b}, [x3], #64
        .if \enc
        checksum8 \e3
        .endif
        pairs   eor2, 0
        \dir    \nr, 0, 1, 2, 3, 4, 5, 6, 7
        pairs   xor3_last, \e3
        .if !\enc
        checksum8 \e3
        .endif
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        add     x6, x6, #8
        subs    x4, x4, #1
        b.ne    1b
        st1     {v15.16b, v16.16b}, [x7]
.endm
/* v16 ^= v0 ^ ... ^ v7 */
.macro  checksum8 e3
        .if \e3
        eor3    v16.16b, v16.16b, v0.16b, v1.16b
        eor3    v16.16b, v16.16b, v2.16b, v3.16b
        eor3    v16.16b, v16.16b, v4.16b, v5.16b
        eor3    v16.16b, v16.16b, v6.16b, v7.16b
        .else
        eor     v16.16b, v16.16b, v0.16b
        eor     v16.16b, v16.16b, v1.16b
        eor     v16.16b, v16.16b, v2.16b
        eor     v16.16b, v16.16b, v3.16b
        eor     v16.16b, v16.16b, v4.16b
        eor     v16.16b, v16.16b, v5.16b
        eor     v16.16b, v16.16b, v6.16b
        eor     v16.16b, v16.16b, v7.16b
        .endif
.endm
.macro  ocb_func name, dir, e3, enc
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        save_d8_15
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        ocb_body 10, \dir, \e3, \enc
        b       9f
2:      ocb_body 12, \dir, \e3, \enc
        b       9f
3:      ocb_body 14, \dir, \e3, \enc
9:      restore_d8_15
        ret
        .size   \name, . - \name
.endm
        ocb_func hwc_a64_ocb8_enc, enc, 0, 1
        ocb_func hwc_a64_ocb8_dec, dec, 0, 0
        ocb_func hwc_a64_ocb8_enc_3, enc, 1, 1
        ocb_func hwc_a64_ocb8_dec_3, dec, 1, 0

/* ------------------------------------------------------------ fused GCM */

/* x5: the first block's counter block (big-endian; the last byte does not
 * carry in these blocks, as for CTR), x6: the "pmull" GHASH key
 * (arm_internal.h: H^k in swapped then normal form at 32 * (k - 1)), x7:
 * the GHASH state, GCM byte order (in and out). The state is kept in
 * swapped form (REV64) in v12 between groups, the next counter block in
 * v16; v8-v11 take two powers at a time, v12-v14 the three partial
 * products (hi, mid, lo), v15 one product. */
        .section .rodata
        .p2align 4
a64_gcm_consts:
        .quad   0, 0x0100000000000000           /* 1 in byte 15 */
        .quad   0xc200000000000000              /* x^63 + x^62 + x^57 */
        .text

/* The product of block register x with the powers in (r, n), added. */
.macro  gh_first x, r, n
        pmull   v12.1q, v\x\().1d, v\r\().1d
        pmull2  v14.1q, v\x\().2d, v\r\().2d
        pmull   v13.1q, v\x\().1d, v\n\().1d
        pmull2  v15.1q, v\x\().2d, v\n\().2d
        eor     v13.16b, v13.16b, v15.16b
.endm
.macro  gh_more e3, x, r, n
        pmull   v15.1q, v\x\().1d, v\r\().1d
        eor     v12.16b, v12.16b, v15.16b
        pmull2  v15.1q, v\x\().2d, v\r\().2d
        eor     v14.16b, v14.16b, v15.16b
        pmull   v15.1q, v\x\().1d, v\n\().1d
        pmull2  v\x\().1q, v\x\().2d, v\n\().2d
        xor3    \e3, 13, 13, 15, \x
.endm
/* GHASH of v0-v7 (already REV64, v0 XORed with the state) into v12. */
.macro  ghash8  e3
        add     x8, x6, #192
        ld1     {v8.16b-v11.16b}, [x8]          /* H^7, H^8 */
        gh_first 0, 10, 11
        gh_more \e3, 1, 8, 9
        sub     x8, x8, #64
        ld1     {v8.16b-v11.16b}, [x8]          /* H^5, H^6 */
        gh_more \e3, 2, 10, 11
        gh_more \e3, 3, 8, 9
        sub     x8, x8, #64
        ld1     {v8.16b-v11.16b}, [x8]          /* H^3, H^4 */
        gh_more \e3, 4, 10, 11
        gh_more \e3, 5, 8, 9
        ld1     {v8.16b-v11.16b}, [x6]          /* H^1, H^2 */
        gh_more \e3, 6, 10, 11
        gh_more \e3, 7, 8, 9
        /* Montgomery reduction (arm_internal.h), then back to swapped form */
        ldr     d0, [x9, #16]
        pmull   v1.1q, v14.1d, v0.1d
        ext     v2.16b, v14.16b, v14.16b, #8
        xor3    \e3, 2, 2, 1, 13
        pmull   v1.1q, v2.1d, v0.1d
        ext     v3.16b, v2.16b, v2.16b, #8
        xor3    \e3, 3, 3, 1, 12
        ext     v12.16b, v3.16b, v3.16b, #8
.endm
/* The eight counter blocks into v0-v7, the next one into v16. */
.macro  counters8
        ldr     q15, [x9]
        mov     v0.16b, v16.16b
        add     v1.16b, v0.16b, v15.16b
        add     v2.16b, v1.16b, v15.16b
        add     v3.16b, v2.16b, v15.16b
        add     v4.16b, v3.16b, v15.16b
        add     v5.16b, v4.16b, v15.16b
        add     v6.16b, v5.16b, v15.16b
        add     v7.16b, v6.16b, v15.16b
        add     v16.16b, v7.16b, v15.16b
.endm
.macro  rev64_8
        rev64   v0.16b, v0.16b
        rev64   v1.16b, v1.16b
        rev64   v2.16b, v2.16b
        rev64   v3.16b, v3.16b
        rev64   v4.16b, v4.16b
        rev64   v5.16b, v5.16b
        rev64   v6.16b, v6.16b
        rev64   v7.16b, v7.16b
.endm
.macro  gcm_body nr, e3, enc
        load_keys \nr
        adrp    x9, a64_gcm_consts
        add     x9, x9, :lo12:a64_gcm_consts
        ld1     {v16.16b}, [x5]
        ld1     {v12.16b}, [x7]
        rev64   v12.16b, v12.16b
1:      .if \enc
        counters8
        enc     \nr, 0, 1, 2, 3, 4, 5, 6, 7
        ld1     {v8.16b-v11.16b}, [x3], #64
        xor3    \e3, 0, 0, 31, 8
        xor3    \e3, 1, 1, 31, 9
        xor3    \e3, 2, 2, 31, 10
        xor3    \e3, 3, 3, 31, 11
        ld1     {v8.16b-v11.16b}, [x3], #64
        xor3    \e3, 4, 4, 31, 8
        xor3    \e3, 5, 5, 31, 9
        xor3    \e3, 6, 6, 31, 10
        xor3    \e3, 7, 7, 31, 11
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        rev64_8
        eor     v0.16b, v0.16b, v12.16b
        ghash8  \e3
        .else
        /* the ciphertext is hashed first, then read again for CTR (before
         * the stores: in place works) */
        ld1     {v0.16b-v3.16b}, [x3]
        add     x8, x3, #64
        ld1     {v4.16b-v7.16b}, [x8]
        rev64_8
        eor     v0.16b, v0.16b, v12.16b
        ghash8  \e3
        counters8
        enc     \nr, 0, 1, 2, 3, 4, 5, 6, 7
        ld1     {v8.16b-v11.16b}, [x3], #64
        xor3    \e3, 0, 0, 31, 8
        xor3    \e3, 1, 1, 31, 9
        xor3    \e3, 2, 2, 31, 10
        xor3    \e3, 3, 3, 31, 11
        ld1     {v8.16b-v11.16b}, [x3], #64
        xor3    \e3, 4, 4, 31, 8
        xor3    \e3, 5, 5, 31, 9
        xor3    \e3, 6, 6, 31, 10
        xor3    \e3, 7, 7, 31, 11
        st1     {v0.16b-v3.16b}, [x2], #64
        st1     {v4.16b-v7.16b}, [x2], #64
        .endif
        subs    x4, x4, #1
        b.ne    1b
        rev64   v12.16b, v12.16b
        st1     {v12.16b}, [x7]
.endm
.macro  gcm_func name, e3, enc
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        save_d8_15
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        gcm_body 10, \e3, \enc
        b       9f
2:      gcm_body 12, \e3, \enc
        b       9f
3:      gcm_body 14, \e3, \enc
9:      restore_d8_15
        ret
        .size   \name, . - \name
.endm
        gcm_func hwc_a64_gcm8_enc, 0, 1
        gcm_func hwc_a64_gcm8_dec, 0, 0
        gcm_func hwc_a64_gcm8_enc_3, 1, 1
        gcm_func hwc_a64_gcm8_dec_3, 1, 0

/* ------------------------------------------------------------ fused CCM */

/* x4: groups of FOUR blocks; x5: the counter block of the first block
 * (big-endian; its last byte does not carry in these blocks), x6: the
 * CBC-MAC (in and out). The MAC runs in chain form (aes_armv8ce_modes.h):
 * v0 is the last AESE output, the next block enters as AESE's key operand
 * p ^ k0 ^ kNr (kx, in v16); each counter block's rounds interleave with a
 * MAC block's. v12: 1 in byte 15, v13: the next counter block. */
.macro  ccm_rnd2 a, b, k
        aese    v\a\().16b, v\k\().16b
        aesmc   v\a\().16b, v\a\().16b
        aese    v\b\().16b, v\k\().16b
        aesmc   v\b\().16b, v\b\().16b
.endm
/* MAC block (chain v0, next input already in v1, so its round 0 is the
 * first AESE) beside counter block c (round 0 with k0). */
.macro  ccm_pair nr, c
        aese    v0.16b, v1.16b
        aesmc   v0.16b, v0.16b
        .if \nr == 14
        rnd     aese, aesmc, 17, \c
        ccm_rnd2 0, \c, 18
        ccm_rnd2 0, \c, 19
        ccm_rnd2 0, \c, 20
        ccm_rnd2 0, \c, 21
        .elseif \nr == 12
        rnd     aese, aesmc, 19, \c
        ccm_rnd2 0, \c, 20
        ccm_rnd2 0, \c, 21
        .else
        rnd     aese, aesmc, 21, \c
        .endif
        .irp    k, 22, 23, 24, 25, 26, 27, 28, 29
        ccm_rnd2 0, \c, \k
        .endr
        aese    v0.16b, v30.16b
        aese    v\c\().16b, v30.16b
.endm
/* the MAC block alone (chain v0, input in v1) */
.macro  ccm_mac nr
        aese    v0.16b, v1.16b
        aesmc   v0.16b, v0.16b
        .if \nr == 14
        rnd     aese, aesmc, 18, 0
        rnd     aese, aesmc, 19, 0
        rnd     aese, aesmc, 20, 0
        rnd     aese, aesmc, 21, 0
        .elseif \nr == 12
        rnd     aese, aesmc, 20, 0
        rnd     aese, aesmc, 21, 0
        .endif
        .irp    k, 22, 23, 24, 25, 26, 27, 28, 29
        rnd     aese, aesmc, \k, 0
        .endr
        aese    v0.16b, v30.16b
.endm
.macro  ccm_body nr, e3, enc
        load_keys \nr
        .if \nr == 14
        eor     v16.16b, v17.16b, v31.16b
        .elseif \nr == 12
        eor     v16.16b, v19.16b, v31.16b
        .else
        eor     v16.16b, v21.16b, v31.16b
        .endif
        ld1     {v13.16b}, [x5]
        ld1     {v0.16b}, [x6]
        eor     v0.16b, v0.16b, v31.16b
        adrp    x9, a64_gcm_consts
        add     x9, x9, :lo12:a64_gcm_consts
        ldr     q12, [x9]
1:      mov     v8.16b, v13.16b
        add     v9.16b, v8.16b, v12.16b
        add     v10.16b, v9.16b, v12.16b
        add     v11.16b, v10.16b, v12.16b
        add     v13.16b, v11.16b, v12.16b
        ld1     {v4.16b-v7.16b}, [x3], #64
        .if \enc
        eor     v1.16b, v4.16b, v16.16b
        ccm_pair \nr, 8
        xor3    \e3, 8, 8, 31, 4
        eor     v1.16b, v5.16b, v16.16b
        ccm_pair \nr, 9
        xor3    \e3, 9, 9, 31, 5
        eor     v1.16b, v6.16b, v16.16b
        ccm_pair \nr, 10
        xor3    \e3, 10, 10, 31, 6
        eor     v1.16b, v7.16b, v16.16b
        ccm_pair \nr, 11
        xor3    \e3, 11, 11, 31, 7
        .else
        /* counter block j beside MAC block j - 1 */
        enc     \nr, 8
        xor3    \e3, 8, 8, 31, 4
        eor     v1.16b, v8.16b, v16.16b
        ccm_pair \nr, 9
        xor3    \e3, 9, 9, 31, 5
        eor     v1.16b, v9.16b, v16.16b
        ccm_pair \nr, 10
        xor3    \e3, 10, 10, 31, 6
        eor     v1.16b, v10.16b, v16.16b
        ccm_pair \nr, 11
        xor3    \e3, 11, 11, 31, 7
        eor     v1.16b, v11.16b, v16.16b
        ccm_mac \nr
        .endif
        st1     {v8.16b-v11.16b}, [x2], #64
        subs    x4, x4, #1
        b.ne    1b
        eor     v0.16b, v0.16b, v31.16b
        st1     {v0.16b}, [x6]
.endm
.macro  ccm_func name, e3, enc
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
        save_d8_15
        cmp     w1, #12
        b.eq    2f
        b.hi    3f
        ccm_body 10, \e3, \enc
        b       9f
2:      ccm_body 12, \e3, \enc
        b       9f
3:      ccm_body 14, \e3, \enc
9:      restore_d8_15
        ret
        .size   \name, . - \name
.endm
        ccm_func hwc_a64_ccm4_enc, 0, 1
        ccm_func hwc_a64_ccm4_dec, 0, 0
        ccm_func hwc_a64_ccm4_enc_3, 1, 1
        ccm_func hwc_a64_ccm4_dec_3, 1, 0

#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
