/*
 * trc_writer.c - the record writer: trace records to trace text v1, a .trc
 * container or a bare stream (with an optional SYNC every N records), handed
 * to the caller's output function in blocks. The CLI, the host tools and the
 * capture library all write records through it.
 */
#include <string.h>

#include "trc.h"

static trc_error out(trc_writer *w)
{
    if (w->failed)
        return TRC_ERR_IO;
    if (w->len && w->fn(w->ctx, w->buf, w->len) != 0) {
        w->failed = 1;
        return TRC_ERR_IO;
    }
    w->len = 0;
    return TRC_OK;
}

/* Encodes the batched records, a run of one CPU's at a time. They were
 * checked, so only the output can fail. */
static trc_error encode_batch(trc_writer *w)
{
    size_t off = 0;
    while (off < w->nb) {
        if (sizeof w->buf - w->len < 4096 && out(w) != TRC_OK)
            return TRC_ERR_IO;
        size_t used, n, run = 1;
        while (off + run < w->nb && w->bcpu[off + run] == w->bcpu[off])
            run++;
        trc_error e = trc_mp_encode(&w->enc, w->bcpu[off], w->batch + off, run, &used,
                                    w->buf + w->len, sizeof w->buf - w->len, &n);
        w->len += n;
        off += used;
        if (e != TRC_OK)
            return e;
    }
    w->nb = 0;
    return TRC_OK;
}

/* Writes END or SYNC after the batched records. */
static trc_error marker(trc_writer *w, int end)
{
    trc_error e = encode_batch(w);
    if (e != TRC_OK)
        return e;
    if (sizeof w->buf - w->len < TRC_MP_MIN_DST && out(w) != TRC_OK)
        return TRC_ERR_IO;
    size_t n;
    e = end ? trc_mp_encode_end(&w->enc, w->buf + w->len, sizeof w->buf - w->len, &n)
            : trc_mp_encode_sync(&w->enc, w->buf + w->len, sizeof w->buf - w->len, &n);
    w->len += n;
    return e;
}

trc_error trc_writer_init(trc_writer *w, const trc_params *p, unsigned form,
                          uint64_t sync_every, trc_write_fn fn, void *ctx)
{
    if (form > TRC_FORM_STREAM || trc_params_check(p) != TRC_OK)
        return TRC_ERR_PARAM;
    w->fn = fn;
    w->ctx = ctx;
    w->form = form;
    w->p = *p;
    w->sync_every = form == TRC_FORM_TEXT ? 0 : sync_every;
    w->since = w->records = 0;
    w->nb = w->len = 0;
    w->failed = 0;
    trc_mp_encoder_init(&w->enc, p);
    if (form == TRC_FORM_CONTAINER) {
        trc_header_write(p, p->mode, w->buf);
        w->len = TRC_HEADER_BYTES;
    }
    return TRC_OK;
}

trc_error trc_writer_set_check(trc_writer *w)
{
    if (w->form == TRC_FORM_TEXT || w->enc.ncpu != 1)
        return TRC_ERR_PARAM;
    w->enc.cpu[0].check = 1;
    if (w->form == TRC_FORM_CONTAINER)
        w->buf[13] |= TRC_FLAG_CHECKED;
    return TRC_OK;
}

trc_error trc_writer_comment(trc_writer *w, const char *line)
{
    if (w->form != TRC_FORM_TEXT)
        return TRC_OK;
    size_t n = strlen(line);
    if (sizeof w->buf - w->len < n && out(w) != TRC_OK)
        return TRC_ERR_IO;
    if (n > sizeof w->buf)
        return w->fn(w->ctx, (const uint8_t *)line, n) ? TRC_ERR_IO : TRC_OK;
    memcpy(w->buf + w->len, line, n);
    w->len += n;
    return TRC_OK;
}

trc_error trc_writer_put(trc_writer *w, const trc_record *r)
{
    return trc_writer_put_cpu(w, 0, r);
}

trc_error trc_writer_put_cpu(trc_writer *w, unsigned cpu, const trc_record *r)
{
    if (w->failed)
        return TRC_ERR_IO;
    if (cpu >= w->enc.ncpu)
        return TRC_ERR_FIELD;
    /* Text has no limit on deltas; streams need them in the long-gap range. */
    trc_record z = *r;
    if (w->form == TRC_FORM_TEXT)
        z.delta = 0;
    trc_error e = trc_record_check(&w->p, &z);
    if (e != TRC_OK)
        return e;
    if (w->form == TRC_FORM_TEXT) {
        if (sizeof w->buf - w->len < TRC_TEXT_LINE_MAX && out(w) != TRC_OK)
            return TRC_ERR_IO;
        w->len += trc_text_format_cpu(r, cpu, w->enc.ncpu, (char *)w->buf + w->len);
        w->records++;
        return TRC_OK;
    }
    /* The SYNC goes before the next record, so the last frame ends with END. */
    if (w->sync_every && w->since == w->sync_every) {
        if ((e = marker(w, 0)) != TRC_OK)
            return e;
        w->since = 0;
    }
    w->bcpu[w->nb] = (uint8_t)cpu;
    w->batch[w->nb++] = *r;
    w->since++;
    w->records++;
    if (w->nb == TRC_WRITER_BATCH || w->since == w->sync_every)
        return encode_batch(w);
    return TRC_OK;
}

trc_error trc_writer_finish(trc_writer *w)
{
    if (w->failed)
        return TRC_ERR_IO;
    if (w->form != TRC_FORM_TEXT) {
        trc_error e = marker(w, 1);
        if (e != TRC_OK)
            return e;
    }
    return out(w);
}
