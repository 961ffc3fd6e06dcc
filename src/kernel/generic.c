/*
 * Generic bulk kernels, built only on a back end's ecb_enc / ecb_dec.
 *
 * The k_*() helpers of backend.h fall back to these when a back end leaves
 * an optional kernel NULL, so every back end gets every mode from its two
 * ECB functions. Modes that allow it batch up to GENERIC_BATCH blocks per ECB
 * call, which is what lets a bitsliced or pipelined ECB kernel run at speed;
 * the inherently serial ones (CBC encryption, CFB encryption, OFB, CBC-MAC)
 * call ECB one block at a time.
 *
 * Every function is correct for out == in: a batch of input is copied into
 * an aligned stack buffer (or consumed) before its output is written. Stack
 * buffers that held keystream, tweaks or plaintext are wiped before return.
 * Caller buffers are only touched through memcpy and byte access.
 */
#include "backend.h"

/* 16 blocks: the portable SM4 back end bitslices 16 blocks per pass. */
#define GENERIC_BATCH 16
#define BATCH_BYTES (GENERIC_BATCH * HWC_BLOCK)

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

/* ------------------------------------------------------------------ CBC */

void hwc_generic_cbc_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    alignas(16) uint8_t block[HWC_BLOCK];

    /* Each block's input depends on the previous ciphertext: no batching. */
    for (size_t i = 0; i < nblocks; i++) {
        memcpy(block, in + i * HWC_BLOCK, HWC_BLOCK);
        hwc_xor(block, block, iv, HWC_BLOCK);
        im->ecb_enc(ks, iv, block, 1);
        memcpy(out + i * HWC_BLOCK, iv, HWC_BLOCK);
    }
    hwc_wipe(block, sizeof block);
}

void hwc_generic_cbc_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    alignas(16) uint8_t cipher[BATCH_BYTES]; /* this batch's ciphertext, kept for chaining */
    alignas(16) uint8_t plain[BATCH_BYTES];

    while (nblocks > 0) {
        size_t n = min_size(nblocks, GENERIC_BATCH);
        size_t bytes = n * HWC_BLOCK;

        /* Copy first: when out == in, writing the plaintext destroys the
         * ciphertext the next block chains on. */
        memcpy(cipher, in, bytes);
        im->ecb_dec(ks, plain, cipher, n);
        hwc_xor(plain, plain, iv, HWC_BLOCK);
        hwc_xor(plain + HWC_BLOCK, plain + HWC_BLOCK, cipher, bytes - HWC_BLOCK);
        memcpy(iv, cipher + bytes - HWC_BLOCK, HWC_BLOCK);
        memcpy(out, plain, bytes);

        in += bytes;
        out += bytes;
        nblocks -= n;
    }
    hwc_wipe(plain, sizeof plain);
}

/* ------------------------------------------------------------------ CFB */

void hwc_generic_cfb_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    alignas(16) uint8_t keystream[HWC_BLOCK];
    alignas(16) uint8_t block[HWC_BLOCK];

    /* iv holds the previous ciphertext block, the next cipher input. */
    for (size_t i = 0; i < nblocks; i++) {
        im->ecb_enc(ks, keystream, iv, 1);
        memcpy(block, in + i * HWC_BLOCK, HWC_BLOCK);
        hwc_xor(iv, block, keystream, HWC_BLOCK);
        memcpy(out + i * HWC_BLOCK, iv, HWC_BLOCK);
    }
    hwc_wipe(keystream, sizeof keystream);
    hwc_wipe(block, sizeof block);
}

void hwc_generic_cfb_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    alignas(16) uint8_t cipher[BATCH_BYTES];
    alignas(16) uint8_t keystream[BATCH_BYTES];

    /* All cipher inputs (IV, C_0 .. C_{n-2}) are known up front: batch. */
    while (nblocks > 0) {
        size_t n = min_size(nblocks, GENERIC_BATCH);
        size_t bytes = n * HWC_BLOCK;

        memcpy(cipher, in, bytes);
        memcpy(keystream, iv, HWC_BLOCK);
        memcpy(keystream + HWC_BLOCK, cipher, bytes - HWC_BLOCK);
        im->ecb_enc(ks, keystream, keystream, n);
        memcpy(iv, cipher + bytes - HWC_BLOCK, HWC_BLOCK);
        hwc_xor(keystream, keystream, cipher, bytes);
        memcpy(out, keystream, bytes);

        in += bytes;
        out += bytes;
        nblocks -= n;
    }
    hwc_wipe(keystream, sizeof keystream);
}

/* ------------------------------------------------------------------ OFB */

void hwc_generic_ofb(const hwc_block_impl *im, const hwc_ks *ks, uint8_t iv[16], uint8_t *out,
                     const uint8_t *in, size_t nblocks) {
    alignas(16) uint8_t block[HWC_BLOCK];

    /* iv holds the previous keystream block; the next one is its encryption. */
    for (size_t i = 0; i < nblocks; i++) {
        im->ecb_enc(ks, iv, iv, 1);
        memcpy(block, in + i * HWC_BLOCK, HWC_BLOCK);
        hwc_xor(block, block, iv, HWC_BLOCK);
        memcpy(out + i * HWC_BLOCK, block, HWC_BLOCK);
    }
    hwc_wipe(block, sizeof block);
}

/* ------------------------------------------------------------------ CTR */

/* Shared CTR body; `wide` selects the 128-bit increment, else the 32-bit one
 * of the last 4 bytes big-endian (wide = 0) or of the first 4 little-endian
 * (wide = -1, GCM-SIV). */
static void generic_ctr(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                        const uint8_t *in, size_t nblocks, int wide) {
    alignas(16) uint8_t keystream[BATCH_BYTES];

    while (nblocks > 0) {
        size_t n = min_size(nblocks, GENERIC_BATCH);
        size_t bytes = n * HWC_BLOCK;

        for (size_t j = 0; j < n; j++) {
            memcpy(keystream + j * HWC_BLOCK, ctr, HWC_BLOCK);
            if (wide > 0)
                hwc_ctr128_inc(ctr);
            else if (wide == 0)
                hwc_ctr32_inc(ctr);
            else
                hwc_store_le32(ctr, hwc_load_le32(ctr) + 1);
            /* The counter must not become the loop variable (a branch on
             * it): make the compiler reload it from memory. */
#if defined(__GNUC__)
            __asm__("" : : "r"(ctr) : "memory");
#endif
        }
        im->ecb_enc(ks, keystream, keystream, n);
        /* Byte i of the output needs only byte i of the input: XOR straight
         * from in to out, which is also right when out == in. */
        hwc_xor(out, in, keystream, bytes);

        in += bytes;
        out += bytes;
        nblocks -= n;
    }
    hwc_wipe(keystream, sizeof keystream);
}

void hwc_generic_ctr128(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                        const uint8_t *in, size_t nblocks) {
    generic_ctr(im, ks, ctr, out, in, nblocks, 1);
}

void hwc_generic_ctr32(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                       const uint8_t *in, size_t nblocks) {
    generic_ctr(im, ks, ctr, out, in, nblocks, 0);
}

void hwc_generic_ctr32le(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    generic_ctr(im, ks, ctr, out, in, nblocks, -1);
}

/* ------------------------------------------------------------- key wrap */

/* A ^= t, with t as a 64-bit big-endian integer. */
static void kw_xor_counter(uint8_t a[8], uint64_t t) {
    hwc_store_be64(a, hwc_load_be64(a) ^ t);
}

/* W: one block operation per step, a || r_i in, MSB ^ t and LSB out. */
void hwc_generic_kw_w(const hwc_block_impl *im, const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r,
                      size_t n) {
    alignas(16) uint8_t b[16];
    uint64_t t = 1;

    memcpy(b, a, 8);
    for (int j = 0; j < 6; j++) {
        for (size_t i = 0; i < n; i++, t++) {
            memcpy(b + 8, r + 8 * i, 8);
            (decrypt ? im->ecb_dec : im->ecb_enc)(ks, b, b, 1);
            kw_xor_counter(b, t);
            memcpy(r + 8 * i, b + 8, 8);
        }
    }
    memcpy(a, b, 8);
    hwc_wipe(b, sizeof b);
}

/* W^-1: the steps of W in reverse. */
void hwc_generic_kw_winv(const hwc_block_impl *im, const hwc_ks *ks, int decrypt, uint8_t a[8], uint8_t *r,
                         size_t n) {
    alignas(16) uint8_t b[16];
    uint64_t t = 6 * (uint64_t)n;

    memcpy(b, a, 8);
    for (int j = 0; j < 6; j++) {
        for (size_t i = n; i-- > 0; t--) {
            kw_xor_counter(b, t);
            memcpy(b + 8, r + 8 * i, 8);
            (decrypt ? im->ecb_dec : im->ecb_enc)(ks, b, b, 1);
            memcpy(r + 8 * i, b + 8, 8);
        }
    }
    memcpy(a, b, 8);
    hwc_wipe(b, sizeof b);
}

/* ------------------------------------------------------------------ XTS */

/* Multiply the tweak by alpha, IEEE 1619 order: the 16 bytes are a
 * little-endian 128-bit integer, shifted left; the bit that falls off the top
 * folds back as x^7 + x^2 + x + 1 (0x87). The fold is masked, not branched,
 * because the tweak is secret (it is encrypted under key2). */
static void xts_mul_alpha_le(uint8_t t[16]) {
    uint64_t lo = hwc_load_le64(t);
    uint64_t hi = hwc_load_le64(t + 8);
    uint64_t carry = hi >> 63;

    hi = (hi << 1) | (lo >> 63);
    lo = (lo << 1) ^ (0x87u & (0 - carry));
    hwc_store_le64(t, lo);
    hwc_store_le64(t + 8, hi);
}

/* Shared XTS body on full blocks: C = E(P ^ T) ^ T, T *= alpha per block. */
static void generic_xts(const hwc_block_impl *im, const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                        const uint8_t *in, size_t nblocks, int decrypt) {
    alignas(16) uint8_t tweaks[BATCH_BYTES];
    alignas(16) uint8_t data[BATCH_BYTES];

    while (nblocks > 0) {
        size_t n = min_size(nblocks, GENERIC_BATCH);
        size_t bytes = n * HWC_BLOCK;

        for (size_t j = 0; j < n; j++) {
            memcpy(tweaks + j * HWC_BLOCK, tweak, HWC_BLOCK);
            xts_mul_alpha_le(tweak);
        }
        memcpy(data, in, bytes);
        hwc_xor(data, data, tweaks, bytes);
        if (decrypt)
            im->ecb_dec(ks, data, data, n);
        else
            im->ecb_enc(ks, data, data, n);
        hwc_xor(data, data, tweaks, bytes);
        memcpy(out, data, bytes);

        in += bytes;
        out += bytes;
        nblocks -= n;
    }
    hwc_wipe(tweaks, sizeof tweaks);
    hwc_wipe(data, sizeof data);
}

void hwc_generic_xts_enc(const hwc_block_impl *im, const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    generic_xts(im, ks, tweak, out, in, nblocks, 0);
}

void hwc_generic_xts_dec(const hwc_block_impl *im, const hwc_ks *ks, uint8_t tweak[16], uint8_t *out,
                         const uint8_t *in, size_t nblocks) {
    generic_xts(im, ks, tweak, out, in, nblocks, 1);
}

/* -------------------------------------------------------------- CBC-MAC */

void hwc_generic_cbc_mac(const hwc_block_impl *im, const hwc_ks *ks, uint8_t mac[16], const uint8_t *in,
                         size_t nblocks) {
    alignas(16) uint8_t block[HWC_BLOCK];

    for (size_t i = 0; i < nblocks; i++) {
        memcpy(block, in + i * HWC_BLOCK, HWC_BLOCK);
        hwc_xor(mac, mac, block, HWC_BLOCK);
        im->ecb_enc(ks, mac, mac, 1);
    }
    hwc_wipe(block, sizeof block);
}

/* ----------------------------------------------------------------- OCB3 */

/* Number of trailing zero bits of a block index. The index is public (it
 * only counts blocks), so the loop's length may depend on it. Index 0 never
 * occurs in OCB; it maps to 63 so the L table is never overrun. */
static unsigned ocb_ntz(uint64_t i) {
    unsigned n = 0;
    while (n < 63 && (i & 1) == 0) {
        i >>= 1;
        n++;
    }
    return n;
}

/* Shared OCB3 body (RFC 7253 section 4.2/4.3) for full blocks:
 *   Offset_i = Offset_{i-1} ^ L[ntz(i)]
 *   encrypt: C_i = Offset_i ^ E(P_i ^ Offset_i)
 *   decrypt: P_i = Offset_i ^ D(C_i ^ Offset_i)
 *   Checksum_i = Checksum_{i-1} ^ P_i  (always over the plaintext) */
static void generic_ocb(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                        uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks,
                        int decrypt) {
    alignas(16) uint8_t offsets[BATCH_BYTES];
    alignas(16) uint8_t data[BATCH_BYTES];
    uint64_t index = first_index;

    while (nblocks > 0) {
        size_t n = min_size(nblocks, GENERIC_BATCH);
        size_t bytes = n * HWC_BLOCK;

        for (size_t j = 0; j < n; j++) {
            hwc_xor(offset, offset, L[ocb_ntz(index++)], HWC_BLOCK);
            memcpy(offsets + j * HWC_BLOCK, offset, HWC_BLOCK);
        }
        memcpy(data, in, bytes);
        if (!decrypt) {
            for (size_t j = 0; j < n; j++)
                hwc_xor(checksum, checksum, data + j * HWC_BLOCK, HWC_BLOCK);
        }
        hwc_xor(data, data, offsets, bytes);
        if (decrypt)
            im->ecb_dec(ks, data, data, n);
        else
            im->ecb_enc(ks, data, data, n);
        hwc_xor(data, data, offsets, bytes);
        if (decrypt) {
            for (size_t j = 0; j < n; j++)
                hwc_xor(checksum, checksum, data + j * HWC_BLOCK, HWC_BLOCK);
        }
        memcpy(out, data, bytes);

        in += bytes;
        out += bytes;
        nblocks -= n;
    }
    hwc_wipe(offsets, sizeof offsets);
    hwc_wipe(data, sizeof data);
}

void hwc_generic_ocb_enc(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                         uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    generic_ocb(im, ks, L, first_index, offset, checksum, out, in, nblocks, 0);
}

void hwc_generic_ocb_dec(const hwc_block_impl *im, const hwc_ks *ks, const uint8_t (*L)[16], uint64_t first_index,
                         uint8_t offset[16], uint8_t checksum[16], uint8_t *out, const uint8_t *in, size_t nblocks) {
    generic_ocb(im, ks, L, first_index, offset, checksum, out, in, nblocks, 1);
}
