/*
 * The message flow SIV (RFC 5297) and GCM-SIV (RFC 8452) share: the tag is
 * computed over the whole plaintext before the first ciphertext byte (it
 * seeds CTR), so the data comes in exactly one update(), and decryption
 * needs the expected tag (set_tag) before that update(). Each mode supplies
 * its tag computation and its CTR; the phases, length and order checks, the
 * constant-time tag comparison and wiping the output on failure live here
 * once.
 */
#ifndef HWC_MODES_SIV_FLOW_H
#define HWC_MODES_SIV_FLOW_H

#include "mode.h"

enum hwc_siv_phase {
    HWC_SIV_NO_MESSAGE = 0, /* keyed; start() not called yet */
    HWC_SIV_AAD,            /* taking associated data (and the expected tag) */
    HWC_SIV_DATA_DONE,      /* the one update() has run */
    HWC_SIV_FAILED,         /* decryption failed authentication */
    HWC_SIV_FINISHED        /* final() succeeded */
};

typedef struct hwc_siv_flow {
    alignas(16) uint8_t tag[16]; /* computed (encrypt) or expected (decrypt) */
    int tag_set;
    int phase;
    int aad_called; /* hwc_aad ran for this message */
} hwc_siv_flow;

typedef struct hwc_siv_hooks {
    /* The flow inside the mode's state. */
    hwc_siv_flow *(*flow)(hwc_ctx *ctx);
    /* Tag over everything absorbed so far plus the plaintext pt[0..len). */
    void (*compute_tag)(hwc_ctx *ctx, const uint8_t *pt, size_t len, uint8_t tag[16]);
    /* out = in ^ keystream seeded by the tag. */
    void (*ctr)(const hwc_ctx *ctx, const uint8_t tag[16], uint8_t *out, const uint8_t *in, size_t len);
    uint64_t max_data_len; /* the mode's limit on the plaintext */
} hwc_siv_hooks;

/* A new message: forget any tag, take associated data. */
void hwc_siv_flow_begin(hwc_siv_flow *flow);

int hwc_siv_flow_update(const hwc_siv_hooks *h, hwc_ctx *ctx, uint8_t *out, size_t *out_len,
                        const uint8_t *in, size_t in_len);
int hwc_siv_flow_final(const hwc_siv_hooks *h, hwc_ctx *ctx, size_t *out_len);
int hwc_siv_flow_set_tag(hwc_siv_flow *flow, const hwc_ctx *ctx, const uint8_t *tag, size_t tag_len);
/* Only 16 is allowed; refused (state first) once AAD, the tag or data came. */
int hwc_siv_flow_set_tag_len(const hwc_siv_flow *flow, const hwc_ctx *ctx, size_t tag_len);
int hwc_siv_flow_get_tag(const hwc_siv_flow *flow, const hwc_ctx *ctx, uint8_t *tag, size_t tag_len);

#endif /* HWC_MODES_SIV_FLOW_H */
