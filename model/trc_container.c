/*
 * trc_container.c - the 16-byte .trc header (magic, version, mode, flags and
 * every format parameter, so a stream decodes without out-of-band knowledge)
 * and the 40-byte frame header of framed containers, with CRC-32.
 */
#include "trc.h"

static const uint8_t magic[4] = {0x89, 'T', 'R', 'C'};

trc_error trc_header_write(const trc_params *p, unsigned mode,
                           uint8_t out[TRC_HEADER_BYTES])
{
    return trc_header_write_ex(p, mode, 0, out);
}

trc_error trc_header_read(const uint8_t *in, size_t len, trc_params *p,
                          unsigned *mode)
{
    unsigned flags;
    return trc_header_read_ex(in, len, p, mode, &flags);
}

trc_error trc_header_write_ex(const trc_params *p, unsigned mode,
                              unsigned flags, uint8_t out[TRC_HEADER_BYTES])
{
    unsigned cpus = trc_cpu_count(p);
    if ((flags & ~(TRC_FLAG_FRAMED | TRC_FLAG_CHECKED)) ||
        flags == (TRC_FLAG_FRAMED | TRC_FLAG_CHECKED))
        return TRC_ERR_HEADER;
    if (trc_params_check(p) != TRC_OK)
        return TRC_ERR_PARAM;
    if (mode != p->mode)
        return TRC_ERR_PARAM;
    if (cpus > 1 && (flags & (TRC_FLAG_FRAMED | TRC_FLAG_CHECKED)))
        return TRC_ERR_HEADER; /* frames of several CPUs: not defined */
    for (int i = 0; i < 4; i++)
        out[i] = magic[i];
    /* one CPU: version 2, as before; several: version 3, CPUs - 1 in
     * bits 1..3 of the flags */
    out[4] = cpus > 1 ? TRC_CONTAINER_VERSION_CPUS : TRC_CONTAINER_VERSION;
    flags |= (cpus - 1u) << 1;
    /* stack mode 2's time quantum 10^k: k in bits 6..7 */
    for (unsigned q = TRC_TQ(p); q > 1u; q /= 10u)
        flags += TRC_FLAG_TQ_UNIT;
    flags |= p->fe ? TRC_FLAG_FE : 0u;
    out[5] = (uint8_t)mode;
    out[6] = (uint8_t)p->nt;
    out[7] = (uint8_t)p->fid_w;
    out[8] = (uint8_t)p->type_w;
    out[9] = (uint8_t)p->val_w;
    out[10] = (uint8_t)p->nd_f;
    out[11] = (uint8_t)p->nd_t;
    out[12] = (uint8_t)p->nd_v;
    out[13] = (uint8_t)flags;
    /* SK (zero in paper mode); stack mode 2 puts SO in the high nibble. */
    out[14] = (uint8_t)(p->sk | p->so << 4);
    out[15] = (uint8_t)p->sd;
    return TRC_OK;
}

trc_error trc_header_read_ex(const uint8_t *in, size_t len, trc_params *p,
                             unsigned *mode, unsigned *flags)
{
    for (size_t i = 0; i < 4; i++)
        if (i >= len || in[i] != magic[i])
            return i >= len ? TRC_ERR_TRUNCATED : TRC_ERR_MAGIC;
    if (len < TRC_HEADER_BYTES)
        return TRC_ERR_TRUNCATED;
    if (in[4] < 1 || in[4] > TRC_CONTAINER_VERSION_CPUS || in[5] > TRC_MODE_STACK2)
        return TRC_ERR_VERSION;
    /* version 3: the CPU count in bits 1..3, at least 2, no frames */
    unsigned cpus = in[4] == TRC_CONTAINER_VERSION_CPUS ? ((in[13] >> 1) & 7u) + 1u : 1u;
    unsigned known = in[4] == TRC_CONTAINER_VERSION_CPUS
                         ? 0x0eu
                         : TRC_FLAG_FRAMED | (in[4] >= 2 ? TRC_FLAG_CHECKED : 0u) |
                               (in[4] >= 2 && in[5] == TRC_MODE_STACK2
                                    ? TRC_FLAG_TQ | TRC_FLAG_FE
                                    : 0u);
    if ((in[13] & ~known) || (in[4] == TRC_CONTAINER_VERSION_CPUS && cpus < 2) ||
        in[13] == (TRC_FLAG_FRAMED | TRC_FLAG_CHECKED))
        return TRC_ERR_HEADER;
    /* Byte 14 is SK in modes 0 and 1, SK | SO << 4 in mode 2. */
    unsigned m2 = in[5] == TRC_MODE_STACK2;
    trc_params q = {in[6], in[7], in[8], in[9], in[10], in[11], in[12],
                    in[5], m2 ? in[14] & 15u : in[14], in[15],
                    m2 ? in[14] >> 4 : 0u, cpus, 1u, 0u};
    q.fe = in[4] == 2 && (in[13] & TRC_FLAG_FE) ? 1u : 0u;
    for (unsigned k = (in[13] & TRC_FLAG_TQ) / TRC_FLAG_TQ_UNIT; k; k--)
        q.tq *= 10u;
    if (trc_params_check(&q) != TRC_OK)
        return TRC_ERR_HEADER;
    *p = q;
    *mode = in[5];
    *flags = in[13] & (TRC_FLAG_FRAMED | TRC_FLAG_CHECKED);
    return TRC_OK;
}

unsigned trc_header_version(const uint8_t in[TRC_HEADER_BYTES])
{
    return in[4];
}

/* ---- Frames ------------------------------------------------------------- */

static const uint8_t frame_magic[4] = {0xF7, 'T', 'R', 'F'};

static void put_be(uint8_t *out, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        out[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

static uint64_t get_be(const uint8_t *in, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = (v << 8) | in[i];
    return v;
}

void trc_frame_header_write(const trc_frame_info *f,
                            uint8_t out[TRC_FRAME_HEADER_BYTES])
{
    for (int i = 0; i < 4; i++)
        out[i] = frame_magic[i];
    put_be(out + 4, f->index, 4);
    put_be(out + 8, f->records_before, 8);
    put_be(out + 16, f->time_before, 8);
    put_be(out + 24, f->payload_bytes, 4);
    put_be(out + 28, f->records, 4);
    put_be(out + 32, f->payload_crc, 4);
    put_be(out + 36, trc_crc32(0, out, 36), 4);
}

trc_error trc_frame_header_read(const uint8_t *in, size_t len,
                                trc_frame_info *f)
{
    if (len < TRC_FRAME_HEADER_BYTES)
        return TRC_ERR_TRUNCATED;
    for (int i = 0; i < 4; i++)
        if (in[i] != frame_magic[i])
            return TRC_ERR_MAGIC;
    if (get_be(in + 36, 4) != trc_crc32(0, in, 36))
        return TRC_ERR_CHECK;
    f->index = (uint32_t)get_be(in + 4, 4);
    f->records_before = get_be(in + 8, 8);
    f->time_before = get_be(in + 16, 8);
    f->payload_bytes = (uint32_t)get_be(in + 24, 4);
    f->records = (uint32_t)get_be(in + 28, 4);
    f->payload_crc = (uint32_t)get_be(in + 32, 4);
    return TRC_OK;
}
