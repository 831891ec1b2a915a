/*
 * trc_bin.c - trace bin v1: one raw record per 48-bit big-endian word, the
 * uncompressed baseline that general-purpose compressors and the LZ4 core see.
 */
#include "trc.h"

trc_error trc_bin_pack(const trc_record *raw, uint8_t out[TRC_BIN_BYTES])
{
    trc_params p = trc_params_paper();
    trc_error e = trc_raw_check(&p, raw);
    if (e != TRC_OK)
        return e;
    uint64_t w = raw->delta << 24;
    if (raw->kind == TRC_OS)
        w |= (UINT64_C(1) << 47) | ((uint64_t)raw->a << 16) | raw->b;
    else
        w |= ((uint64_t)(raw->kind == TRC_EXIT) << 23) | raw->a;
    for (int i = 0; i < TRC_BIN_BYTES; i++)
        out[i] = (uint8_t)(w >> (40 - 8 * i));
    return TRC_OK;
}

trc_error trc_bin_unpack(const uint8_t in[TRC_BIN_BYTES], trc_record *raw)
{
    trc_params p = trc_params_paper();
    uint64_t w = 0;
    for (int i = 0; i < TRC_BIN_BYTES; i++)
        w = (w << 8) | in[i];
    raw->delta = (w >> 24) & ((UINT64_C(1) << 23) - 1u);
    if (w >> 47) {
        raw->kind = TRC_OS;
        raw->a = (uint32_t)(w >> 16) & 0xffu;
        raw->b = (uint32_t)w & 0xffffu;
    } else {
        if (w & 0x7f8000u) /* bits 22..15 of a function word are zero */
            return TRC_ERR_FIELD;
        raw->kind = (w >> 23) & 1u ? TRC_EXIT : TRC_ENTRY;
        raw->a = (uint32_t)w & 0x7fffu;
        raw->b = 0;
    }
    return trc_raw_check(&p, raw);
}
