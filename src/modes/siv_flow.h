/*
 * The message flow SIV (RFC 5297) and GCM-SIV (RFC 8452) share.  The tag
 * is computed over the whole plaintext and seeds CTR, so:
 *   - encryption takes the data in exactly one update() (two passes: the
 *     tag over all of it, then CTR from the tag);
 *   - decryption needs the expected tag (set_tag) before the data, and is
 *     one pass: CTR from the tag, the plaintext absorbed into the tag
 *     computation as it comes, the comparison when the last byte is in.
 *     The message is the data of one update(), unless set_lengths()
 *     declared its length first: then any number of update() calls
 *     totalling that length (streaming; what they release is not yet
 *     authenticated, as with GCM).  The update that completes the message
 *     compares the tags in constant time; on a mismatch it zeroes what it
 *     wrote and returns HWC_ERR_AUTH, as final() does after it.
 * Each mode supplies its tag computation and its CTR as hooks; the phases,
 * length and order checks, the comparison and the wiping live here once.
 */
#ifndef HWC_MODES_SIV_FLOW_H
#define HWC_MODES_SIV_FLOW_H

#include "mode.h"

enum hwc_siv_phase {
    HWC_SIV_NO_MESSAGE = 0, /* keyed; start() not called yet */
    HWC_SIV_AAD,            /* taking associated data (and the expected tag, the lengths) */
    HWC_SIV_DATA,           /* decrypting a declared length: more data to come */
    HWC_SIV_DATA_DONE,      /* all the data is in (and authentic, when decrypting) */
    HWC_SIV_FAILED,         /* decryption failed authentication */
    HWC_SIV_FINISHED        /* final() succeeded */
};

typedef struct hwc_siv_flow {
    alignas(16) uint8_t tag[16]; /* computed (encrypt) or expected (decrypt) */
    int tag_set;
    int phase;
    int aad_called;       /* hwc_aad ran for this message */
    int lengths_set;      /* set_lengths() declared aad_declared and msg_len */
    uint64_t aad_bytes;   /* associated data so far (all components) */
    uint64_t aad_declared;
    uint64_t msg_len;     /* the plaintext's length, known from the first update on */
    uint64_t msg_done;    /* bytes of it processed */
} hwc_siv_flow;

typedef struct hwc_siv_hooks {
    /* The flow inside the mode's state. */
    hwc_siv_flow *(*flow)(hwc_ctx *ctx);
    /* The associated data is complete; msg_len bytes of plaintext follow. */
    void (*data_begin)(hwc_ctx *ctx, uint64_t msg_len);
    /* The next len bytes of plaintext, into the tag computation. */
    void (*absorb)(hwc_ctx *ctx, const uint8_t *pt, size_t len);
    /* The tag, once all msg_len bytes are absorbed. */
    void (*tag)(hwc_ctx *ctx, uint8_t tag[16]);
    /* CTR: start from the tag, then out = in ^ the next len keystream bytes. */
    void (*ctr_begin)(hwc_ctx *ctx, const uint8_t tag[16]);
    void (*ctr)(hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len);
    /* The message is over: wipe what it left in the state (keystream, held bytes). */
    void (*data_end)(hwc_ctx *ctx);
    uint64_t max_data_len; /* the mode's limit on the plaintext */
    uint64_t max_aad_len;  /* and on the associated data */
} hwc_siv_hooks;

/* A new message: forget any tag and lengths, take associated data. */
void hwc_siv_flow_begin(hwc_siv_flow *flow);

/* For the mode's aad(): whether aad_len more bytes may come (HWC_ERR_STATE
 * after the data, HWC_ERR_DATA_LEN past the mode's limit or the declared
 * length), changing nothing; then, once the mode has absorbed them,
 * hwc_siv_flow_aad_taken. */
int hwc_siv_flow_aad_check(const hwc_siv_hooks *h, const hwc_siv_flow *flow, size_t aad_len);
void hwc_siv_flow_aad_taken(hwc_siv_flow *flow, size_t aad_len);

int hwc_siv_flow_update(const hwc_siv_hooks *h, hwc_ctx *ctx, uint8_t *out, size_t *out_len,
                        const uint8_t *in, size_t in_len);
int hwc_siv_flow_final(const hwc_siv_hooks *h, hwc_ctx *ctx, size_t *out_len);
int hwc_siv_flow_set_tag(hwc_siv_flow *flow, const hwc_ctx *ctx, const uint8_t *tag, size_t tag_len);
/* Decryption only (encryption is one update): declares the lengths that
 * make the data streamable. */
int hwc_siv_flow_set_lengths(const hwc_siv_hooks *h, hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len);
/* Only 16 is allowed; refused (state first) once AAD, the tag or data came. */
int hwc_siv_flow_set_tag_len(const hwc_siv_flow *flow, const hwc_ctx *ctx, size_t tag_len);
int hwc_siv_flow_get_tag(const hwc_siv_flow *flow, const hwc_ctx *ctx, uint8_t *tag, size_t tag_len);

/* Both modes' CTR from the tag, over any number of calls (streamed
 * decryption): the unused end of a keystream block waits for the next
 * call.  The modes differ only in how the tag becomes the first counter
 * block and in the counter kernel (k_ctr128, k_ctr32le). */
typedef struct hwc_siv_ctr {
    alignas(16) uint8_t ctr[16];       /* the next counter block */
    alignas(16) uint8_t keystream[16]; /* its last ks_left bytes not used yet */
    size_t ks_left;
} hwc_siv_ctr;
typedef void hwc_siv_ctr_kernel(const hwc_block_impl *im, const hwc_ks *ks, uint8_t ctr[16], uint8_t *out,
                                const uint8_t *in, size_t nblocks);
/* out = in ^ the next len keystream bytes. */
void hwc_siv_ctr_xor(hwc_siv_ctr *c, hwc_siv_ctr_kernel *kernel, const hwc_block_impl *im, const hwc_ks *ks,
                     uint8_t *out, const uint8_t *in, size_t len);
void hwc_siv_ctr_wipe(hwc_siv_ctr *c);

#endif /* HWC_MODES_SIV_FLOW_H */
