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

/* x4: the tweak (in: the first block's, out: the next one's). Both
 * directions: the keys' order decides.
 *
 * The eight tweaks are held as four transposed pairs, the layout LD4/ST4
 * of 64-bit elements give the data: 64 bytes (blocks P0..P3) load as
 * (P0.lo, P2.lo), (P0.hi, P2.hi), (P1.lo, P3.lo), (P1.hi, P3.hi), so the
 * pairs are (T0, T2), (T1, T3), (T4, T6), (T5, T7), each as L = both low
 * halves (v10, v12, v14, v16) and H = both high halves (v11, v13, v15,
 * v17). The tweak XORs then act on the data as loaded and as stored, and
 * one TBL per block (two-register table: the pair) does what REV32 did on
 * the way in and the whole reversal on the way out, moving the block out
 * of or into its pair. A pair steps by x^8 (to the next group) in five
 * instructions for two tweaks: per 64-bit lane, H' = H << 8 | L >> 56
 * (one TBL over {L, H}) and L' = L << 8 ^ clmul(H >> 56, 0x87), the top
 * bytes of both lanes gathered into bytes 0 and 4 (TBL) and multiplied by
 * 0x87 with one 8-bit PMULL, whose 16-bit products land in bytes 0-1 and
 * 8-9: both lanes' reductions. A group: 2 LD4, 8 + 8 EOR, 8 + 8 TBL,
 * 64 SM4E, 2 ST4, 20 for the tweaks and 2 for the loop: 122 instructions
 * for 128 bytes (one TBL in, one out and the tweak four to five a block
 * before).
 *
 * Registers: v0-v8 the data (blocks in v1-v8 through the rounds), v9 the
 * index gathering the top bytes of H, v18 and v19 the in indices (first and
 * second block of a pair, with REV32), v20 and v21 the out indices (low and
 * high halves, whole reversal), v22 0x87 in every byte, v23 the index of
 * H', keys v24-v31. Every TBL index is a constant: TBL is a register
 * permutation, no memory access. */
.macro  xts_alpha d, s, tmp, c
        sshr    v\tmp\().2d, v\s\().2d, #63
        add     v\d\().2d, v\s\().2d, v\s\().2d
        and     v\tmp\().16b, v\tmp\().16b, v\c\().16b
        ext     v\tmp\().16b, v\tmp\().16b, v\tmp\().16b, #8
        eor     v\d\().16b, v\d\().16b, v\tmp\().16b
.endm
/* The pair (L, H) = (v\l, v\h) times x^8 (v\h = v\l + 1), v\c a temporary. */
.macro  xts_pair_x8 l, h, c
        tbl     v\c\().16b, {v\l\().16b, v\h\().16b}, v9.16b
        tbl     v\h\().16b, {v\l\().16b, v\h\().16b}, v23.16b
        shl     v\l\().2d, v\l\().2d, #8
        pmull   v\c\().8h, v\c\().8b, v22.8b
        eor     v\l\().16b, v\l\().16b, v\c\().16b
.endm
/* Four blocks from the pairs as loaded into v\a..v\d (tweaks XORed) to
 * native lanes in v\b..v\e, in the order P0, P2, P1, P3 (each TBL writes
 * a register its table no longer needs). */
.macro  xts_in a, b, c, d, e
        tbl     v\e\().16b, {v\c\().16b, v\d\().16b}, v19.16b
        tbl     v\d\().16b, {v\c\().16b, v\d\().16b}, v18.16b
        tbl     v\c\().16b, {v\a\().16b, v\b\().16b}, v19.16b
        tbl     v\b\().16b, {v\a\().16b, v\b\().16b}, v18.16b
.endm
/* The reverse: blocks P0, P2, P1, P3 in v\b..v\e, SM4's output byte order
 * restored, to the pairs ST4 stores in v\a..v\d. */
.macro  xts_out a, b, c, d, e
        tbl     v\a\().16b, {v\b\().16b, v\c\().16b}, v20.16b
        tbl     v\b\().16b, {v\b\().16b, v\c\().16b}, v21.16b
        tbl     v\c\().16b, {v\d\().16b, v\e\().16b}, v20.16b
        tbl     v\d\().16b, {v\d\().16b, v\e\().16b}, v21.16b
.endm
/* v\a..v\a+3 ^= the tweak pairs v\t..v\t+3 */
.macro  xts_xor4 a, b, c, d, t, u, v, w
        eor     v\a\().16b, v\a\().16b, v\t\().16b
        eor     v\b\().16b, v\b\().16b, v\u\().16b
        eor     v\c\().16b, v\c\().16b, v\v\().16b
        eor     v\d\().16b, v\d\().16b, v\w\().16b
.endm
.macro  sm4e_v1_v8 k
        sm4e    v1.4s, v\k\().4s
        sm4e    v2.4s, v\k\().4s
        sm4e    v3.4s, v\k\().4s
        sm4e    v4.4s, v\k\().4s
        sm4e    v5.4s, v\k\().4s
        sm4e    v6.4s, v\k\().4s
        sm4e    v7.4s, v\k\().4s
        sm4e    v8.4s, v\k\().4s
.endm
        func    hwc_a64_sm4e_xts8
        save_d8_15
        ld1     {v24.4s-v27.4s}, [x0], #64
        ld1     {v28.4s-v31.4s}, [x0]
        adrp    x9, a64_sm4e_xts_consts
        add     x9, x9, :lo12:a64_sm4e_xts_consts
        ld1     {v18.16b-v21.16b}, [x9], #64
        ld1     {v22.16b, v23.16b}, [x9], #32
        mov     x7, #0x87                       /* T0..T7: the first tweak times alpha^i */
        mov     x6, #1
        fmov    d9, x6
        mov     v9.d[1], x7
        ld1     {v0.16b}, [x4]
        xts_alpha 1, 0, 8, 9
        xts_alpha 2, 1, 8, 9
        xts_alpha 3, 2, 8, 9
        xts_alpha 4, 3, 8, 9
        xts_alpha 5, 4, 8, 9
        xts_alpha 6, 5, 8, 9
        xts_alpha 7, 6, 8, 9
        ldr     q9, [x9]
        zip1    v10.2d, v0.2d, v2.2d
        zip2    v11.2d, v0.2d, v2.2d
        zip1    v12.2d, v1.2d, v3.2d
        zip2    v13.2d, v1.2d, v3.2d
        zip1    v14.2d, v4.2d, v6.2d
        zip2    v15.2d, v4.2d, v6.2d
        zip1    v16.2d, v5.2d, v7.2d
        zip2    v17.2d, v5.2d, v7.2d
1:      ld4     {v0.2d-v3.2d}, [x2], #64        /* pairs (P0, P2), (P1, P3) */
        ld4     {v4.2d-v7.2d}, [x2], #64        /* (P4, P6), (P5, P7) */
        xts_xor4 0, 1, 2, 3, 10, 11, 12, 13
        xts_xor4 4, 5, 6, 7, 14, 15, 16, 17
        xts_in  4, 5, 6, 7, 8                   /* v5-v8: P4 P6 P5 P7; v4 free */
        xts_in  0, 1, 2, 3, 4                   /* v1-v4: P0 P2 P1 P3 */
        sm4e_v1_v8 24
        sm4e_v1_v8 25
        sm4e_v1_v8 26
        sm4e_v1_v8 27
        sm4e_v1_v8 28
        sm4e_v1_v8 29
        sm4e_v1_v8 30
        sm4e_v1_v8 31
        xts_out 0, 1, 2, 3, 4
        xts_xor4 0, 1, 2, 3, 10, 11, 12, 13
        st4     {v0.2d-v3.2d}, [x1], #64
        xts_out 4, 5, 6, 7, 8
        xts_xor4 4, 5, 6, 7, 14, 15, 16, 17
        st4     {v4.2d-v7.2d}, [x1], #64
        xts_pair_x8 10, 11, 0
        xts_pair_x8 12, 13, 1
        xts_pair_x8 14, 15, 2
        xts_pair_x8 16, 17, 3
        subs    x3, x3, #1
        b.ne    1b
        zip1    v0.2d, v10.2d, v11.2d           /* the next group's first tweak */
        st1     {v0.16b}, [x4]
        restore_d8_15
        ret
        .size   hwc_a64_sm4e_xts8, . - hwc_a64_sm4e_xts8

        .section .rodata
        .p2align 4
a64_sm4e_xts_consts:
        /* in: the first / second block of a pair {low halves, high halves}, REV32 */
        .byte   3, 2, 1, 0, 7, 6, 5, 4, 19, 18, 17, 16, 23, 22, 21, 20
        .byte   11, 10, 9, 8, 15, 14, 13, 12, 27, 26, 25, 24, 31, 30, 29, 28
        /* out: low / high halves of the reversed blocks {first, second} */
        .byte   15, 14, 13, 12, 11, 10, 9, 8, 31, 30, 29, 28, 27, 26, 25, 24
        .byte   7, 6, 5, 4, 3, 2, 1, 0, 23, 22, 21, 20, 19, 18, 17, 16
        .fill   16, 1, 0x87
        /* H' = H << 8 | L >> 56 per lane, from {L, H} */
        .byte   7, 16, 17, 18, 19, 20, 21, 22, 15, 24, 25, 26, 27, 28, 29, 30
        /* the top bytes of H's lanes into bytes 0 and 4, zeros elsewhere */
        .byte   23, 255, 255, 255, 31, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255
        .text

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
