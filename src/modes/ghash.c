/*
 * GHASH and POLYVAL through the context's GHASH back end.
 *
 * GHASH is the back end's own job; these wrappers only route to it. POLYVAL
 * (GCM-SIV, RFC 8452) uses the back end's native POLYVAL when it has one, and
 * otherwise is derived from GHASH by RFC 8452 Appendix A:
 *
 *   POLYVAL(H, X_1..X_n) =
 *       ByteReverse(GHASH(mulX_GHASH(ByteReverse(H)), ByteReverse(X_1), ...))
 *
 * so a back end needs to implement only one of the two.
 */
#include "mode.h"

/* Blocks byte-reversed per GHASH call in the derived POLYVAL: enough that a
 * wide GHASH kernel gets long runs, small enough for the stack. */
#define POLYVAL_CHUNK_BLOCKS 64

void hwc_ghash_init(const hwc_ghash_impl *g, hwc_ghash_key *key, const uint8_t h[16]) {
    g->init(key, h);
}

void hwc_ghash_update(const hwc_ghash_impl *g, const hwc_ghash_key *key, uint8_t state[16],
                      const uint8_t *in, size_t nblocks) {
    if (nblocks != 0)
        g->update(key, state, in, nblocks);
}

/* A native POLYVAL is used only as a pair, so a key made by polyval_init is
 * always consumed by the matching polyval_update. */
static int has_native_polyval(const hwc_ghash_impl *g) {
    return g->polyval_init != NULL && g->polyval_update != NULL;
}

static void byte_reverse(uint8_t out[16], const uint8_t in[16]) {
    for (int i = 0; i < 16; i++)
        out[i] = in[15 - i];
}

/* Multiplication by x in GHASH's reflected bit order: a right shift of the
 * 128-bit string, folding the bit shifted out back in as 0xE1 || 0^120.
 * Constant time: the carry becomes a mask, not a branch. */
static void mulx_ghash(uint8_t out[16], const uint8_t in[16]) {
    uint8_t fold = (uint8_t)(0u - (unsigned)(in[15] & 1u)) & 0xE1u;
    for (int i = 15; i > 0; i--)
        out[i] = (uint8_t)((in[i] >> 1) | (in[i - 1] << 7));
    out[0] = (uint8_t)((in[0] >> 1) ^ fold);
}

void hwc_polyval_init(const hwc_ghash_impl *g, hwc_ghash_key *key, const uint8_t h[16]) {
    if (has_native_polyval(g)) {
        g->polyval_init(key, h);
        return;
    }
    alignas(16) uint8_t reversed[16];
    alignas(16) uint8_t ghash_h[16];
    byte_reverse(reversed, h);
    mulx_ghash(ghash_h, reversed);
    g->init(key, ghash_h);
    hwc_wipe(reversed, sizeof reversed);
    hwc_wipe(ghash_h, sizeof ghash_h);
}

void hwc_polyval_update(const hwc_ghash_impl *g, const hwc_ghash_key *key, uint8_t state[16],
                        const uint8_t *in, size_t nblocks) {
    if (nblocks == 0)
        return;
    if (has_native_polyval(g)) {
        g->polyval_update(key, state, in, nblocks);
        return;
    }
    /* The POLYVAL state is the byte reverse of the GHASH state. */
    alignas(16) uint8_t ghash_state[16];
    alignas(16) uint8_t chunk[POLYVAL_CHUNK_BLOCKS * HWC_BLOCK];
    size_t used = (nblocks < POLYVAL_CHUNK_BLOCKS ? nblocks : POLYVAL_CHUNK_BLOCKS) * HWC_BLOCK;
    byte_reverse(ghash_state, state);
    while (nblocks != 0) {
        size_t n = nblocks < POLYVAL_CHUNK_BLOCKS ? nblocks : POLYVAL_CHUNK_BLOCKS;
        for (size_t b = 0; b < n; b++)
            byte_reverse(chunk + b * HWC_BLOCK, in + b * HWC_BLOCK);
        g->update(key, ghash_state, chunk, n);
        in += n * HWC_BLOCK;
        nblocks -= n;
    }
    byte_reverse(state, ghash_state);
    /* The chunk held (reversed) message blocks, which may be plaintext. */
    hwc_wipe(chunk, used);
    hwc_wipe(ghash_state, sizeof ghash_state);
}
