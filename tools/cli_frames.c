/*
 * cli_frames.c - reading a framed container (docs/format.md 5.1). Each frame
 * is checked before any of its records is handed out: header CRC, payload
 * CRC, a decode to exactly the stated records and bytes, and metadata that
 * follows the frames before it (index, record and tick counts growing, and no
 * more records or frames claimed lost than the skipped bytes could hold). A
 * frame that fails is reported and skipped; the reader resynchronises on the
 * next valid header. Then the frame is decoded again, streaming, so memory
 * holds one frame's bytes, never its records.
 */
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"
#include "cli_reader.h"

/* Smallest trace record in bits (stack mode, a predicted EQ record): so a
 * payload of B bytes holds at most 8 B records. */
#define MIN_RECORD_BITS 1u

static uint64_t file_off(const cli_reader *rd)
{
    return rd->buf_base + rd->bpos;
}

/* Makes n bytes available from bpos unless the input ends first; the buffer
 * grows only as bytes arrive, so it stays within twice the input. */
size_t rd_ensure(cli_reader *rd, size_t n)
{
    while (rd->blen - rd->bpos < n && !rd->eof) {
        if (rd->bpos == 0 && rd->blen == rd->cap) {
            size_t nc = rd->cap * 2 < n ? rd->cap * 2 : n;
            if (nc < rd->cap * 2 && nc < n)
                nc = n;
            uint8_t *nb = realloc(rd->buf, nc);
            if (!nb)
                break;
            rd->buf = nb;
            rd->cap = nc;
        }
        rd_refill(rd);
    }
    return rd->blen - rd->bpos;
}

/* Skips forward to the next valid frame header; reports the damaged bytes. */
static void resync(cli_reader *rd, const char *why)
{
    uint64_t from = file_off(rd);
    trc_frame_info fi;
    rd->bpos++;
    while (rd_ensure(rd, TRC_FRAME_HEADER_BYTES) >= TRC_FRAME_HEADER_BYTES &&
           trc_frame_header_read(rd->buf + rd->bpos, rd->blen - rd->bpos,
                                 &fi) != TRC_OK)
        rd->bpos++;
    if (rd->blen - rd->bpos < TRC_FRAME_HEADER_BYTES)
        rd->bpos = rd->blen;
    rd_damage(rd);
    cli_error("%s: byte %llu: %s; skipped %llu bytes to %s", rd->path,
              (unsigned long long)from, why,
              (unsigned long long)(file_off(rd) - from),
              rd->bpos < rd->blen ? "the next frame" : "the end");
}

/* Decodes a payload: it must give exactly fi->records records and end
 * exactly at its last byte. *ticks gets its raw time, *first the first
 * record's delta. The records go through rd->out, RD_OUT_RECS at a time: a
 * frame of up to RD_OUT_RECS records is then all in rd->out. */
static trc_error check_payload(cli_reader *rd, const trc_frame_info *fi,
                               const uint8_t *pl, uint64_t *ticks,
                               uint64_t *first, trc_decoder *d)
{
    size_t pos = 0, used, got;
    trc_error e;
    uint64_t n = 0, sum = 0;
    trc_decoder_init(d, &rd->p);
    d->v1 = rd->v1;
    *first = 0;
    do {
        e = trc_decode(d, pl + pos, fi->payload_bytes - pos, &used, rd->out,
                       RD_OUT_RECS, &got, 1);
        pos += used;
        for (size_t i = 0; i < got; i++) {
            if (n + i == 0)
                *first = rd->out[i].delta;
            if (sum + rd->out[i].delta < sum)
                return TRC_ERR_DELTA_OVERFLOW;
            sum += rd->out[i].delta;
        }
        n += got;
    } while (e == TRC_OK && got == RD_OUT_RECS);
    if (e == TRC_OK && (pos != fi->payload_bytes || n != fi->records))
        e = TRC_ERR_CORRUPT; /* the frame does not end where it says */
    if (e == TRC_OK && sum + d->carry < sum)
        e = TRC_ERR_DELTA_OVERFLOW;
    *ticks = sum + d->carry;
    return e;
}

/* Why a header cannot be what it says after the frames read so far, or
 * NULL. skipped: bytes since the end of the last good frame. */
static const char *implausible(const cli_reader *rd, const trc_frame_info *fi,
                               uint64_t skipped)
{
    int trailer = fi->payload_bytes == 0 && fi->records == 0;
    if (!trailer && (fi->records == 0 ||
                     fi->records / 8u > fi->payload_bytes / MIN_RECORD_BITS))
        return "frame header with impossible record count";
    if (fi->index < rd->expect || fi->records_before < rd->seen ||
        fi->time_before < rd->last_time ||
        fi->records_before + fi->records < fi->records_before)
        return "frame header out of sequence";
    if (!rd->started && rd->from_frame)
        return NULL; /* the frames before are skipped on purpose */
    /* Lost frames and records must have fitted in the skipped bytes. */
    uint64_t lost = fi->records_before - rd->seen;
    uint64_t frames = fi->index - rd->expect;
    if ((lost != 0) != (frames != 0) ||
        frames > skipped / (TRC_FRAME_HEADER_BYTES + 1) ||
        lost / 8u > skipped / MIN_RECORD_BITS)
        return "frame header out of sequence";
    return NULL;
}

/* Finds and checks the next good frame. 1: ready to hand out, 0: end,
 * -1: error. */
static int next_frame(cli_reader *rd)
{
    while (!rd->trailer) {
        trc_frame_info fi;
        if (!rd->good_end)
            rd->good_end = rd->header;
        uint64_t at = file_off(rd);
        size_t avail = rd_ensure(rd, TRC_FRAME_HEADER_BYTES);
        if (rd->read_err)
            return -1;
        if (avail == 0) {
            rd_damage(rd);
            cli_error("%s: byte %llu: stream ends without its trailer after "
                      "%llu records: an unknown number of records is lost at "
                      "the end", rd->path, (unsigned long long)at,
                      (unsigned long long)rd->seen);
            return 0;
        }
        /* Checking costs payload bytes; crafted headers could make it grow
         * with the square of the input, so the work is capped. */
        if (rd->work > 32u * rd->nbytes + (UINT64_C(1) << 24)) {
            cli_error("%s: byte %llu: too many damaged frames to go on",
                      rd->path, (unsigned long long)at);
            return -1;
        }
        trc_error e = trc_frame_header_read(rd->buf + rd->bpos, avail, &fi);
        if (e != TRC_OK) {
            resync(rd, e == TRC_ERR_TRUNCATED ? "truncated frame header"
                                              : "no valid frame header");
            continue;
        }
        const char *why = implausible(rd, &fi, at - rd->good_end);
        if (why) {
            resync(rd, why);
            continue;
        }
        size_t need = TRC_FRAME_HEADER_BYTES + (size_t)fi.payload_bytes;
        if (rd_ensure(rd, need) < need) {
            char msg[64];
            snprintf(msg, sizeof msg, "frame %u truncated", fi.index);
            resync(rd, msg);
            continue;
        }
        const uint8_t *pl = rd->buf + rd->bpos + TRC_FRAME_HEADER_BYTES;
        int is_trailer = fi.payload_bytes == 0 && fi.records == 0;
        rd->work += fi.payload_bytes;
        if (!is_trailer && trc_crc32(0, pl, fi.payload_bytes) != fi.payload_crc) {
            char msg[64];
            snprintf(msg, sizeof msg, "frame %u fails its check value", fi.index);
            resync(rd, msg);
            continue;
        }
        if (fi.index < rd->from_frame && !is_trailer) {
            rd->bpos += need; /* skipped on purpose, not lost */
            rd->good_end = file_off(rd);
            rd->expect = fi.index + 1u;
            rd->seen = fi.records_before + fi.records;
            continue;
        }
        if (!rd->started && rd->from_frame && is_trailer) {
            cli_error("%s: --from-frame %u: the file has %u frames", rd->path,
                      rd->from_frame, fi.index);
            return -1;
        }
        uint64_t ticks = 0, first = 0;
        trc_decoder d;
        if (!is_trailer) {
            rd->work += fi.payload_bytes;
            e = check_payload(rd, &fi, pl, &ticks, &first, &d);
            if (e != TRC_OK) {
                char msg[96];
                snprintf(msg, sizeof msg, "frame %u does not decode (%s)",
                         fi.index, trc_error_name(e));
                resync(rd, msg);
                continue;
            }
        }
        /* Time from the last good frame (or the trace start) up to this one
         * goes to the first record handed out. */
        uint64_t gap = fi.time_before - rd->last_time;
        if (fi.time_before + ticks < fi.time_before ||
            (!is_trailer && fi.records_before == rd->seen && first + gap < gap)) {
            resync(rd, "frame header with impossible tick count");
            continue;
        }
        if (!rd->started) {
            rd->started = 1;
            if (rd->from_frame)
                rd->seen = fi.records_before;
        }
        if (fi.records_before > rd->seen) {
            rd->lost_left = fi.records_before - rd->seen;
            rd_damage(rd);
            cli_error("%s: frames %u..%u lost: %llu records (marked with L)",
                      rd->path, rd->expect, fi.index - 1u,
                      (unsigned long long)rd->lost_left);
        }
        rd->gap = gap;
        rd->fi = fi;
        rd->expect = fi.index + 1u;
        rd->seen = fi.records_before + fi.records;
        rd->last_time = fi.time_before + ticks;
        if (is_trailer) {
            rd->trailer = 1;
            rd->bpos += need;
            if (rd_ensure(rd, 1) > 0) {
                rd_damage(rd);
                cli_error("%s: byte %llu: bytes after the trailer ignored",
                          rd->path, (unsigned long long)file_off(rd));
            }
        } else {
            cli_stats_add(&rd->sum, &d.st);
            rd->payload_bytes += fi.payload_bytes;
            rd->in_frame = 1;
            rd->oi = 0;
            if (fi.records <= RD_OUT_RECS) {
                /* the check left all its records in rd->out */
                rd->on = fi.records;
                rd->fpos = fi.payload_bytes;
            } else { /* decoded again, RD_OUT_RECS at a time */
                rd->on = 0;
                rd->fpos = 0;
                trc_decoder_init(&rd->fdec, &rd->p);
                rd->fdec.v1 = rd->v1;
            }
        }
        if (rd->lost_left || rd->in_frame)
            return 1;
    }
    return 0;
}

int rd_next_framed(cli_reader *rd, trc_record *r)
{
    for (;;) {
        if (rd->lost_left) {
            uint64_t max = (UINT64_C(1) << rd->p.val_w) - 1u;
            trc_record l = {rd->gap, (uint32_t)(rd->lost_left < max
                                                    ? rd->lost_left : max),
                            0, TRC_LOST};
            rd->lost_left -= l.a;
            rd->gap = 0;
            *r = l;
            return 1;
        }
        if (rd->in_frame) {
            if (rd->oi < rd->on) {
                *r = rd->out[rd->oi++];
                r->delta += rd->gap; /* checked not to overflow */
                rd->gap = 0;
                return 1;
            }
            const uint8_t *pl = rd->buf + rd->bpos + TRC_FRAME_HEADER_BYTES;
            size_t used;
            rd->on = rd->oi = 0;
            if (rd->fpos < rd->fi.payload_bytes) {
                trc_decode(&rd->fdec, pl + rd->fpos, rd->fi.payload_bytes - rd->fpos,
                           &used, rd->out, RD_OUT_RECS, &rd->on, 1);
                rd->fpos += used;
            }
            if (rd->on == 0) { /* the frame is done (it was checked) */
                rd->in_frame = 0;
                rd->bpos += TRC_FRAME_HEADER_BYTES + rd->fi.payload_bytes;
                rd->good_end = file_off(rd);
            }
            continue;
        }
        int got = next_frame(rd);
        if (got <= 0)
            return got;
    }
}
