/* The message flow of SIV and GCM-SIV (see siv_flow.h). */
#include "modes/siv_flow.h"

void hwc_siv_flow_begin(hwc_siv_flow *flow) {
    hwc_wipe(flow->tag, sizeof flow->tag);
    flow->tag_set = 0;
    flow->aad_called = 0;
    flow->lengths_set = 0;
    flow->aad_bytes = flow->aad_declared = 0;
    flow->msg_len = flow->msg_done = 0;
    flow->phase = HWC_SIV_AAD;
}

int hwc_siv_flow_aad_check(const hwc_siv_hooks *h, const hwc_siv_flow *flow, size_t aad_len) {
    if (flow->phase != HWC_SIV_AAD)
        return HWC_ERR_STATE;
    if ((uint64_t)aad_len > h->max_aad_len - flow->aad_bytes)
        return HWC_ERR_DATA_LEN;
    if (flow->lengths_set && (uint64_t)aad_len > flow->aad_declared - flow->aad_bytes)
        return HWC_ERR_DATA_LEN;
    return HWC_OK;
}

void hwc_siv_flow_aad_taken(hwc_siv_flow *flow, size_t aad_len) {
    flow->aad_called = 1;
    flow->aad_bytes += aad_len;
}

/* Encryption: the whole message, two passes (tag, then CTR from it). */
static void siv_flow_encrypt(const hwc_siv_hooks *h, hwc_ctx *ctx, hwc_siv_flow *flow, uint8_t *out,
                             const uint8_t *in, size_t len) {
    h->data_begin(ctx, len);
    if (len)
        h->absorb(ctx, in, len);
    h->tag(ctx, flow->tag);
    h->ctr_begin(ctx, flow->tag);
    if (len)
        h->ctr(ctx, out, in, len);
    h->data_end(ctx);
    flow->msg_len = flow->msg_done = len;
    flow->phase = HWC_SIV_DATA_DONE;
}

/* The last byte of the message is in: compare the tags, in constant time.
 * On a mismatch, wipe what this call wrote. */
static int siv_flow_verify(const hwc_siv_hooks *h, hwc_ctx *ctx, hwc_siv_flow *flow, uint8_t *out, size_t len) {
    alignas(16) uint8_t tag[16];
    h->tag(ctx, tag);
    h->data_end(ctx);
    int ok = hwc_ct_memcmp(tag, flow->tag, 16) == 0;
    hwc_wipe(tag, sizeof tag);
    if (!ok) {
        if (len)
            hwc_wipe(out, len);
        flow->phase = HWC_SIV_FAILED;
        return HWC_ERR_AUTH;
    }
    flow->phase = HWC_SIV_DATA_DONE;
    return HWC_OK;
}

int hwc_siv_flow_update(const hwc_siv_hooks *h, hwc_ctx *ctx, uint8_t *out, size_t *out_len,
                        const uint8_t *in, size_t in_len) {
    hwc_siv_flow *flow = h->flow(ctx);

    /* Every check before anything changes. */
    if (flow->phase == HWC_SIV_DATA_DONE && flow->lengths_set && in_len == 0) {
        *out_len = 0; /* an empty update after the declared length: nothing to do */
        return HWC_OK;
    }
    if (flow->phase != HWC_SIV_AAD && flow->phase != HWC_SIV_DATA)
        return HWC_ERR_STATE;
    if (!ctx->encrypt && !flow->tag_set)
        return HWC_ERR_STATE;
    if (flow->phase == HWC_SIV_DATA) {
        if ((uint64_t)in_len > flow->msg_len - flow->msg_done)
            return HWC_ERR_DATA_LEN; /* more than declared */
    } else if (flow->lengths_set) {
        if (flow->aad_bytes != flow->aad_declared || (uint64_t)in_len > flow->msg_len)
            return HWC_ERR_DATA_LEN; /* declared AAD missing, or more data than declared */
    } else if ((uint64_t)in_len > h->max_data_len) {
        return HWC_ERR_DATA_LEN;
    }

    if (ctx->encrypt) {
        siv_flow_encrypt(h, ctx, flow, out, in, in_len);
        *out_len = in_len;
        return HWC_OK;
    }
    if (flow->phase == HWC_SIV_AAD) {
        /* Without declared lengths this one update is the whole message. */
        if (!flow->lengths_set)
            flow->msg_len = in_len;
        flow->msg_done = 0;
        h->data_begin(ctx, flow->msg_len);
        h->ctr_begin(ctx, flow->tag);
        flow->phase = HWC_SIV_DATA;
    }
    if (in_len) {
        h->ctr(ctx, out, in, in_len);
        h->absorb(ctx, out, in_len);
        flow->msg_done += in_len;
    }
    *out_len = in_len;
    if (flow->msg_done < flow->msg_len)
        return HWC_OK;
    int rc = siv_flow_verify(h, ctx, flow, out, in_len);
    if (rc)
        *out_len = 0;
    return rc;
}

int hwc_siv_flow_final(const hwc_siv_hooks *h, hwc_ctx *ctx, size_t *out_len) {
    hwc_siv_flow *flow = h->flow(ctx);

    if (flow->phase == HWC_SIV_FAILED)
        return HWC_ERR_AUTH;
    if (flow->phase == HWC_SIV_AAD) {
        /* No update(): the message is empty (an empty update does it all). */
        size_t none = 0;
        if (!ctx->encrypt && !flow->tag_set)
            return HWC_ERR_STATE;
        if (flow->lengths_set && (flow->msg_len != 0 || flow->aad_bytes != flow->aad_declared))
            return HWC_ERR_DATA_LEN;
        int rc = hwc_siv_flow_update(h, ctx, NULL, &none, NULL, 0);
        if (rc != HWC_OK)
            return rc;
    }
    if (flow->phase == HWC_SIV_DATA)
        return HWC_ERR_DATA_LEN; /* less data than declared */
    if (flow->phase != HWC_SIV_DATA_DONE)
        return HWC_ERR_STATE;
    flow->phase = HWC_SIV_FINISHED;
    if (out_len)
        *out_len = 0;
    return HWC_OK;
}

/* Decryption needs the tag to start CTR, so it comes before update(). */
int hwc_siv_flow_set_tag(hwc_siv_flow *flow, const hwc_ctx *ctx, const uint8_t *tag, size_t tag_len) {
    if (ctx->encrypt || flow->phase != HWC_SIV_AAD)
        return HWC_ERR_STATE;
    if (tag_len != 16)
        return HWC_ERR_TAG_LEN;
    memcpy(flow->tag, tag, 16);
    flow->tag_set = 1;
    return HWC_OK;
}

int hwc_siv_flow_set_lengths(const hwc_siv_hooks *h, hwc_ctx *ctx, uint64_t aad_len, uint64_t msg_len) {
    hwc_siv_flow *flow = h->flow(ctx);
    if (flow->phase != HWC_SIV_AAD)
        return HWC_ERR_STATE;
    if (ctx->encrypt)
        return HWC_ERR_UNSUPPORTED; /* encryption needs the whole message in one update */
    if (msg_len > h->max_data_len || aad_len > h->max_aad_len || aad_len < flow->aad_bytes)
        return HWC_ERR_DATA_LEN;
    flow->aad_declared = aad_len;
    flow->msg_len = msg_len;
    flow->lengths_set = 1;
    return HWC_OK;
}

int hwc_siv_flow_set_tag_len(const hwc_siv_flow *flow, const hwc_ctx *ctx, size_t tag_len) {
    if (flow->phase != HWC_SIV_AAD || flow->aad_called || (!ctx->encrypt && flow->tag_set))
        return HWC_ERR_STATE;
    return tag_len == 16 ? HWC_OK : HWC_ERR_TAG_LEN;
}

int hwc_siv_flow_get_tag(const hwc_siv_flow *flow, const hwc_ctx *ctx, uint8_t *tag, size_t tag_len) {
    if (!ctx->encrypt || flow->phase != HWC_SIV_FINISHED)
        return HWC_ERR_STATE;
    if (tag_len != 16)
        return HWC_ERR_TAG_LEN;
    memcpy(tag, flow->tag, 16);
    return HWC_OK;
}

void hwc_siv_ctr_xor(hwc_siv_ctr *c, hwc_siv_ctr_kernel *kernel, const hwc_block_impl *im, const hwc_ks *ks,
                     uint8_t *out, const uint8_t *in, size_t len) {
    if (c->ks_left) {
        size_t n = len < c->ks_left ? len : c->ks_left;
        hwc_xor(out, in, c->keystream + (16 - c->ks_left), n);
        c->ks_left -= n;
        out += n;
        in += n;
        len -= n;
    }
    size_t whole = len / 16, rest = len % 16;
    if (whole)
        kernel(im, ks, c->ctr, out, in, whole);
    if (rest) {
        memset(c->keystream, 0, sizeof c->keystream);
        kernel(im, ks, c->ctr, c->keystream, c->keystream, 1);
        hwc_xor(out + whole * 16, in + whole * 16, c->keystream, rest);
        c->ks_left = 16 - rest;
    }
}

void hwc_siv_ctr_wipe(hwc_siv_ctr *c) {
    hwc_wipe(c->ctr, sizeof c->ctr);
    hwc_wipe(c->keystream, sizeof c->keystream);
    c->ks_left = 0;
}
