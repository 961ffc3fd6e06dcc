/*
 * The eight-block loops of the "sm4e" back end (sm4_sm4e.c calls them for
 * whole groups and does the rest), in assembly for the reason
 * aes_armv8ce_bulk.S is.
 *
 * A block is REV32 (SM4's words are big-endian) into native lanes X0..X3,
 * eight SM4E (four rounds each, round keys v24-v31), and one TBL reversing
 * the whole 16 bytes (the output is X35, X34, X33, X32 big-endian; v23 holds
 * that index). Blocks are v0-v7; tweaks, offsets and the GHASH key use
 * v8-v15 (low halves callee-saved: saved on entry).
 *
 * Arguments (AAPCS64): x0 round keys (encryption or decryption order), x1
 * out, x2 in, x3 groups of eight blocks (at least one), then per function.
 */
#if defined(__aarch64__) && defined(__ELF__)

        .text
        .arch   armv8.2-a+crypto+sm4

        .section .rodata
        .p2align 4
a64_sm4e_consts:
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0   /* whole reversal */
        .quad   0xc200000000000000                                  /* x^63 + x^62 + x^57 */
        .text

.macro  sm4_setup
        ld1     {v24.4s-v27.4s}, [x0], #64
        ld1     {v28.4s-v31.4s}, [x0]
        adrp    x9, a64_sm4e_consts
        add     x9, x9, :lo12:a64_sm4e_consts
        ldr     q23, [x9]
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
/* An instruction on v0..v7 (recursion would do; eight lines are clearer). */
.macro  each8   op, sfx, src
        \op     v0.\sfx, v0.\sfx, \src
        \op     v1.\sfx, v1.\sfx, \src
        \op     v2.\sfx, v2.\sfx, \src
        \op     v3.\sfx, v3.\sfx, \src
        \op     v4.\sfx, v4.\sfx, \src
        \op     v5.\sfx, v5.\sfx, \src
        \op     v6.\sfx, v6.\sfx, \src
        \op     v7.\sfx, v7.\sfx, \src
.endm
.macro  rev32_8
        rev32   v0.16b, v0.16b
        rev32   v1.16b, v1.16b
        rev32   v2.16b, v2.16b
        rev32   v3.16b, v3.16b
        rev32   v4.16b, v4.16b
        rev32   v5.16b, v5.16b
        rev32   v6.16b, v6.16b
        rev32   v7.16b, v7.16b
.endm
.macro  sm4e8   k
        sm4e    v0.4s, v\k\().4s
        sm4e    v1.4s, v\k\().4s
        sm4e    v2.4s, v\k\().4s
        sm4e    v3.4s, v\k\().4s
        sm4e    v4.4s, v\k\().4s
        sm4e    v5.4s, v\k\().4s
        sm4e    v6.4s, v\k\().4s
        sm4e    v7.4s, v\k\().4s
.endm
/* 32 rounds on the native-lane blocks, then the output byte order. */
.macro  sm4_8
        sm4e8   24
        sm4e8   25
        sm4e8   26
        sm4e8   27
        sm4e8   28
        sm4e8   29
        sm4e8   30
        sm4e8   31
        tbl     v0.16b, {v0.16b}, v23.16b
        tbl     v1.16b, {v1.16b}, v23.16b
        tbl     v2.16b, {v2.16b}, v23.16b
        tbl     v3.16b, {v3.16b}, v23.16b
        tbl     v4.16b, {v4.16b}, v23.16b
        tbl     v5.16b, {v5.16b}, v23.16b
        tbl     v6.16b, {v6.16b}, v23.16b
        tbl     v7.16b, {v7.16b}, v23.16b
.endm
/* v[a] ^= v[b] for the pairs (v0, v8) ... (v7, v15) */
.macro  xor_pairs
        eor     v0.16b, v0.16b, v8.16b
        eor     v1.16b, v1.16b, v9.16b
        eor     v2.16b, v2.16b, v10.16b
        eor     v3.16b, v3.16b, v11.16b
        eor     v4.16b, v4.16b, v12.16b
        eor     v5.16b, v5.16b, v13.16b
        eor     v6.16b, v6.16b, v14.16b
        eor     v7.16b, v7.16b, v15.16b
.endm
.macro  load8
        ld1     {v0.16b-v3.16b}, [x2], #64
        ld1     {v4.16b-v7.16b}, [x2], #64
.endm
.macro  store8
        st1     {v0.16b-v3.16b}, [x1], #64
        st1     {v4.16b-v7.16b}, [x1], #64
.endm
.macro  func    name
        .globl  \name
        .hidden \name
        .type   \name, %function
        .p2align 5
\name:
.endm

/* ------------------------------------------------------------------ ECB */

        func    hwc_a64_sm4e_ecb8
        sm4_setup
1:      load8
        rev32_8
        sm4_8
        store8
        subs    x3, x3, #1
        b.ne    1b
        ret
        .size   hwc_a64_sm4e_ecb8, . - hwc_a64_sm4e_ecb8

/* ------------------------------------------------------------------ CTR */

/* x4: the counter block (big-endian; in only: the caller advances it). Its
 * REV32 is the native lanes, the counter in lane 3 (ADD wraps mod 2^32,
 * CTR32's rule). */
        func    hwc_a64_sm4e_ctr8
        save_d8_15
        sm4_setup
        ld1     {v16.16b}, [x4]
        rev32   v16.16b, v16.16b
        movi    v17.2d, #0
        movi    v18.4s, #1
        ins     v17.s[3], v18.s[0]
1:      mov     v0.16b, v16.16b
        add     v1.4s, v0.4s, v17.4s
        add     v2.4s, v1.4s, v17.4s
        add     v3.4s, v2.4s, v17.4s
        add     v4.4s, v3.4s, v17.4s
        add     v5.4s, v4.4s, v17.4s
        add     v6.4s, v5.4s, v17.4s
        add     v7.4s, v6.4s, v17.4s
        add     v16.4s, v7.4s, v17.4s
        sm4_8
        ld1     {v8.16b-v11.16b}, [x2], #64
        ld1     {v12.16b-v15.16b}, [x2], #64
        xor_pairs
        store8
        subs    x3, x3, #1
        b.ne    1b
        restore_d8_15
        ret
        .size   hwc_a64_sm4e_ctr8, . - hwc_a64_sm4e_ctr8

/* ------------------------------------------------------- CBC decryption */

/* x4: the chaining block (in: IV, out: the last ciphertext block). The
 * ciphertext is read again after the rounds, before the stores (in place
 * works); v16 carries the previous block. */
        func    hwc_a64_sm4e_cbc8_dec
        save_d8_15
        sm4_setup
        ld1     {v16.16b}, [x4]
1:      ld1     {v0.16b-v3.16b}, [x2]
        add     x6, x2, #64
        ld1     {v4.16b-v7.16b}, [x6]
        rev32_8
        sm4_8
        ld1     {v8.16b-v11.16b}, [x2], #64
        ld1     {v12.16b-v15.16b}, [x2], #64
        eor     v0.16b, v0.16b, v16.16b
        eor     v1.16b, v1.16b, v8.16b
        eor     v2.16b, v2.16b, v9.16b
        eor     v3.16b, v3.16b, v10.16b
        eor     v4.16b, v4.16b, v11.16b
        eor     v5.16b, v5.16b, v12.16b
        eor     v6.16b, v6.16b, v13.16b
        eor     v7.16b, v7.16b, v14.16b
        mov     v16.16b, v15.16b
        store8
        subs    x3, x3, #1
        b.ne    1b
        st1     {v16.16b}, [x4]
        restore_d8_15
        ret
        .size   hwc_a64_sm4e_cbc8_dec, . - hwc_a64_sm4e_cbc8_dec

/* ------------------------------------------------------------------ XTS */

/* x4: the tweak (in: the first block's, out: the next one's); eight in
 * v8-v15, stepped by alpha^8 per group as in aes_armv8ce_bulk.S (v16: 0x86
 * in both halves). Both directions: the keys' order decides. */
.macro  xts_step t, tmp
        ushr    v\tmp\().2d, v\t\().2d, #56
        pmull2  v\tmp\().1q, v\tmp\().2d, v16.2d
        ext     v\t\().16b, v\t\().16b, v\t\().16b, #15
        eor     v\t\().16b, v\t\().16b, v\tmp\().16b
.endm
.macro  xts_alpha d, s
        sshr    v0.2d, v\s\().2d, #63
        add     v\d\().2d, v\s\().2d, v\s\().2d
        and     v0.16b, v0.16b, v1.16b
        ext     v0.16b, v0.16b, v0.16b, #8
        eor     v\d\().16b, v\d\().16b, v0.16b
.endm
        func    hwc_a64_sm4e_xts8
        save_d8_15
        sm4_setup
        mov     x7, #0x86
        dup     v16.2d, x7
        mov     x7, #0x87
        mov     x6, #1
        fmov    d1, x6
        mov     v1.d[1], x7
        ld1     {v8.16b}, [x4]
        xts_alpha 9, 8
        xts_alpha 10, 9
        xts_alpha 11, 10
        xts_alpha 12, 11
        xts_alpha 13, 12
        xts_alpha 14, 13
        xts_alpha 15, 14
1:      load8
        xor_pairs
        rev32_8
        sm4_8
        xor_pairs
        store8
        xts_step 8, 0
        xts_step 9, 1
        xts_step 10, 2
        xts_step 11, 3
        xts_step 12, 4
        xts_step 13, 5
        xts_step 14, 6
        xts_step 15, 7
        subs    x3, x3, #1
        b.ne    1b
        st1     {v8.16b}, [x4]
        restore_d8_15
        ret
        .size   hwc_a64_sm4e_xts8, . - hwc_a64_sm4e_xts8

/* ------------------------------------------------------------------ OCB */

/* x4: L[0..63], x5: index of the group's first block (1 mod 8), x6: offset
 * then checksum (32 bytes, in and out), w7: 1 to encrypt (checksum of the
 * input), 0 to decrypt (of the output). Offsets in v8-v15 (v15 carries the
 * last to the next group), checksum v16; blocks 8k+1 .. 8k+8 take L0 L1 L0
 * L2 L0 L1 L0 L[ntz(8k+8)]. */
.macro  checksum8
        eor     v16.16b, v16.16b, v0.16b
        eor     v16.16b, v16.16b, v1.16b
        eor     v16.16b, v16.16b, v2.16b
        eor     v16.16b, v16.16b, v3.16b
        eor     v16.16b, v16.16b, v4.16b
        eor     v16.16b, v16.16b, v5.16b
        eor     v16.16b, v16.16b, v6.16b
        eor     v16.16b, v16.16b, v7.16b
.endm
        func    hwc_a64_sm4e_ocb8
        save_d8_15
        sm4_setup
        ld1     {v15.16b, v16.16b}, [x6]
1:      ld1     {v0.16b-v2.16b}, [x4]
        eor     v8.16b, v15.16b, v0.16b
        eor     v9.16b, v8.16b, v1.16b
        eor     v10.16b, v9.16b, v0.16b
        eor     v11.16b, v10.16b, v2.16b
        eor     v12.16b, v11.16b, v0.16b
        eor     v13.16b, v12.16b, v1.16b
        eor     v14.16b, v13.16b, v0.16b
        add     x8, x5, #7
        rbit    x8, x8
        clz     x8, x8
        ldr     q3, [x4, x8, lsl #4]
        eor     v15.16b, v14.16b, v3.16b
        load8
        cbz     w7, 2f
        checksum8
2:      xor_pairs
        rev32_8
        sm4_8
        xor_pairs
        cbnz    w7, 3f
        checksum8
3:      store8
        add     x5, x5, #8
        subs    x3, x3, #1
        b.ne    1b
        st1     {v15.16b, v16.16b}, [x6]
        restore_d8_15
        ret
        .size   hwc_a64_sm4e_ocb8, . - hwc_a64_sm4e_ocb8

/* ------------------------------------------------------------ fused GCM */

/* x4: the counter block (big-endian; in only), x5: the "pmull" GHASH key,
 * x6: the GHASH state (GCM byte order, in and out), w7: 1 to encrypt, 0 to
 * decrypt. Counters as in CTR (native lanes, v16 the next, v17 one); the
 * state in swapped form in v18 between groups; v8-v11 two powers of H at a
 * time, v12-v14 the partial products (hi, mid, lo), v15 one product. */
.macro  gh_first x, r, n
        pmull   v12.1q, v\x\().1d, v\r\().1d
        pmull2  v14.1q, v\x\().2d, v\r\().2d
        pmull   v13.1q, v\x\().1d, v\n\().1d
        pmull2  v15.1q, v\x\().2d, v\n\().2d
        eor     v13.16b, v13.16b, v15.16b
.endm
.macro  gh_more x, r, n
        pmull   v15.1q, v\x\().1d, v\r\().1d
        eor     v12.16b, v12.16b, v15.16b
        pmull2  v15.1q, v\x\().2d, v\r\().2d
        eor     v14.16b, v14.16b, v15.16b
        pmull   v15.1q, v\x\().1d, v\n\().1d
        pmull2  v\x\().1q, v\x\().2d, v\n\().2d
        eor     v13.16b, v13.16b, v15.16b
        eor     v13.16b, v13.16b, v\x\().16b
.endm
/* GHASH of v0-v7 (the ciphertext, as loaded or computed) into v18. */
.macro  ghash8
        rev64   v0.16b, v0.16b
        rev64   v1.16b, v1.16b
        rev64   v2.16b, v2.16b
        rev64   v3.16b, v3.16b
        rev64   v4.16b, v4.16b
        rev64   v5.16b, v5.16b
        rev64   v6.16b, v6.16b
        rev64   v7.16b, v7.16b
        eor     v0.16b, v0.16b, v18.16b
        add     x8, x5, #192
        ld1     {v8.16b-v11.16b}, [x8]          /* H^7, H^8 */
        gh_first 0, 10, 11
        gh_more 1, 8, 9
        sub     x8, x8, #64
        ld1     {v8.16b-v11.16b}, [x8]          /* H^5, H^6 */
        gh_more 2, 10, 11
        gh_more 3, 8, 9
        sub     x8, x8, #64
        ld1     {v8.16b-v11.16b}, [x8]          /* H^3, H^4 */
        gh_more 4, 10, 11
        gh_more 5, 8, 9
        ld1     {v8.16b-v11.16b}, [x5]          /* H^1, H^2 */
        gh_more 6, 10, 11
        gh_more 7, 8, 9
        ldr     d0, [x9, #16]
        pmull   v1.1q, v14.1d, v0.1d
        ext     v2.16b, v14.16b, v14.16b, #8
        eor     v2.16b, v2.16b, v1.16b
        eor     v2.16b, v2.16b, v13.16b
        pmull   v1.1q, v2.1d, v0.1d
        ext     v3.16b, v2.16b, v2.16b, #8
        eor     v3.16b, v3.16b, v1.16b
        eor     v3.16b, v3.16b, v12.16b
        ext     v18.16b, v3.16b, v3.16b, #8
.endm
.macro  ctr_keystream8
        mov     v0.16b, v16.16b
        add     v1.4s, v0.4s, v17.4s
        add     v2.4s, v1.4s, v17.4s
        add     v3.4s, v2.4s, v17.4s
        add     v4.4s, v3.4s, v17.4s
        add     v5.4s, v4.4s, v17.4s
        add     v6.4s, v5.4s, v17.4s
        add     v7.4s, v6.4s, v17.4s
        add     v16.4s, v7.4s, v17.4s
        sm4_8
.endm
        func    hwc_a64_sm4e_gcm8
        save_d8_15
        sm4_setup
        ld1     {v16.16b}, [x4]
        rev32   v16.16b, v16.16b
        movi    v17.2d, #0
        movi    v18.4s, #1
        ins     v17.s[3], v18.s[0]
        ld1     {v18.16b}, [x6]
        rev64   v18.16b, v18.16b
        cbz     w7, 5f
1:      ctr_keystream8                          /* encryption */
        ld1     {v8.16b-v11.16b}, [x2], #64
        ld1     {v12.16b-v15.16b}, [x2], #64
        xor_pairs
        store8
        ghash8
        subs    x3, x3, #1
        b.ne    1b
        b       9f
5:      ld1     {v0.16b-v3.16b}, [x2]           /* decryption: hash, then CTR */
        add     x8, x2, #64
        ld1     {v4.16b-v7.16b}, [x8]
        ghash8
        ctr_keystream8
        ld1     {v8.16b-v11.16b}, [x2], #64
        ld1     {v12.16b-v15.16b}, [x2], #64
        xor_pairs
        store8
        subs    x3, x3, #1
        b.ne    5b
9:      rev64   v18.16b, v18.16b
        st1     {v18.16b}, [x6]
        restore_d8_15
        ret
        .size   hwc_a64_sm4e_gcm8, . - hwc_a64_sm4e_gcm8

#endif

#if defined(__linux__) && defined(__ELF__)
        .section .note.GNU-stack, "", %progbits
#endif
