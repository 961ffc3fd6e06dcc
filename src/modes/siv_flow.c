/* The one-update message flow of SIV and GCM-SIV (see siv_flow.h). */
#include "modes/siv_flow.h"

void hwc_siv_flow_begin(hwc_siv_flow *flow) {
    hwc_wipe(flow->tag, sizeof flow->tag);
    flow->tag_set = 0;
    flow->aad_called = 0;
    flow->phase = HWC_SIV_AAD;
}

/* The single data call; also run by final() when update() never came. */
static int siv_flow_process(const hwc_siv_hooks *h, hwc_ctx *ctx, uint8_t *out, const uint8_t *in, size_t len) {
    hwc_siv_flow *flow = h->flow(ctx);
    alignas(16) uint8_t tag[16];

    if (ctx->encrypt) {
        h->compute_tag(ctx, in, len, flow->tag);
        h->ctr(ctx, flow->tag, out, in, len);
        flow->phase = HWC_SIV_DATA_DONE;
        return HWC_OK;
    }
    h->ctr(ctx, flow->tag, out, in, len);
    h->compute_tag(ctx, out, len, tag);
    int ok = hwc_ct_memcmp(tag, flow->tag, 16) == 0;
    hwc_wipe(tag, sizeof tag);
    if (!ok) {
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
    int rc;

    if (flow->phase != HWC_SIV_AAD)
        return HWC_ERR_STATE;
    if ((uint64_t)in_len > h->max_data_len)
        return HWC_ERR_DATA_LEN;
    if (!ctx->encrypt && !flow->tag_set)
        return HWC_ERR_STATE;
    rc = siv_flow_process(h, ctx, out, in, in_len);
    if (out_len)
        *out_len = rc == HWC_OK ? in_len : 0;
    return rc;
}

int hwc_siv_flow_final(const hwc_siv_hooks *h, hwc_ctx *ctx, size_t *out_len) {
    hwc_siv_flow *flow = h->flow(ctx);
    int rc;

    if (flow->phase == HWC_SIV_FAILED)
        return HWC_ERR_AUTH;
    if (flow->phase == HWC_SIV_AAD) {
        /* No update(): the message is empty. */
        if (!ctx->encrypt && !flow->tag_set)
            return HWC_ERR_STATE;
        rc = siv_flow_process(h, ctx, NULL, NULL, 0);
        if (rc != HWC_OK)
            return rc;
    }
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
