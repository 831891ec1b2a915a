/*
 * trc_container.c - the 16-byte .trc header: magic, version, mode and every
 * format parameter, so a stream decodes without out-of-band knowledge.
 */
#include "trc.h"

static const uint8_t magic[4] = {0x89, 'T', 'R', 'C'};
#define TRC_CONTAINER_VERSION 1

trc_error trc_header_write(const trc_params *p, unsigned mode,
                           uint8_t out[TRC_HEADER_BYTES])
{
    if (trc_params_check(p) != TRC_OK)
        return TRC_ERR_PARAM;
    if (mode != TRC_MODE_PAPER)
        return TRC_ERR_VERSION;
    for (int i = 0; i < 4; i++)
        out[i] = magic[i];
    out[4] = TRC_CONTAINER_VERSION;
    out[5] = (uint8_t)mode;
    out[6] = (uint8_t)p->nt;
    out[7] = (uint8_t)p->fid_w;
    out[8] = (uint8_t)p->type_w;
    out[9] = (uint8_t)p->val_w;
    out[10] = (uint8_t)p->nd_f;
    out[11] = (uint8_t)p->nd_t;
    out[12] = (uint8_t)p->nd_v;
    out[13] = out[14] = out[15] = 0; /* reserved, must be zero */
    return TRC_OK;
}

trc_error trc_header_read(const uint8_t *in, size_t len, trc_params *p,
                          unsigned *mode)
{
    for (size_t i = 0; i < 4; i++)
        if (i >= len || in[i] != magic[i])
            return i >= len ? TRC_ERR_TRUNCATED : TRC_ERR_MAGIC;
    if (len < TRC_HEADER_BYTES)
        return TRC_ERR_TRUNCATED;
    if (in[4] != TRC_CONTAINER_VERSION || in[5] != TRC_MODE_PAPER)
        return TRC_ERR_VERSION;
    if (in[13] || in[14] || in[15])
        return TRC_ERR_HEADER;
    trc_params q = {in[6], in[7], in[8], in[9], in[10], in[11], in[12]};
    if (trc_params_check(&q) != TRC_OK)
        return TRC_ERR_HEADER;
    *p = q;
    *mode = in[5];
    return TRC_OK;
}
