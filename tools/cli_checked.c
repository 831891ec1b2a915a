/*
 * cli_checked.c - the reader of a checked stream (docs/format.md 4.10): a
 * unit's records are handed out only once its CRC-32 checks, and a unit
 * that fails is reported as a damaged frame is: the reader resumes at the
 * next unit that begins in the reset state and checks (trc_check_find), and
 * hands out L records for the records lost in between, which that unit's
 * count word tells (believed only if they could have fitted in the bytes
 * skipped, so the output stays bounded by the input). Memory: one unit's bytes, or a window of twice
 * TRC_CHECK_FIND_MAX bytes while resuming.
 */
#include <stdio.h>
#include <string.h>

#include "cli_reader.h"

#define COUNT_MASK UINT32_C(0x7FFFFFFF)

static uint64_t off(const cli_reader *rd)
{
    return rd->buf_base + rd->bpos;
}

/* The length of the unit at bpos: the first multiple of 8 bytes whose CRC-32
 * is that of a whole unit (its check word included); 0 when the input ends
 * before one. */
static size_t unit_len(cli_reader *rd)
{
    uint32_t crc = 0;
    for (size_t e = 8;; e += 8) {
        if (rd_ensure(rd, e) < e)
            return 0;
        crc = trc_crc32(crc, rd->buf + rd->bpos + e - 8, 8);
        if (e >= 16 && crc == UINT32_C(0x2144DF1C))
            return e;
    }
}

static void damaged(cli_reader *rd)
{
    rd_damage(rd);
}

/* After the unit at bpos failed (why): the next unit to resume at, L
 * records for the loss, a fresh decoder. The closing units of an END met on
 * the way tell the loss up to them (the search goes on after them: the
 * units that follow carry on the END's dictionaries). 0, or 1 when no unit
 * follows. */
static int resume(cli_reader *rd, const char *why)
{
    uint64_t from = off(rd), gap = from;
    size_t c, end, rel = 8;
    uint64_t recs, lost = 0;
    uint32_t count;
    int closed = 0; /* the last thing found was a closing unit */
    cli_stats_add(&rd->sum, &rd->dec.st);
    memset(&rd->dec.st, 0, sizeof rd->dec.st);
    for (;;) {
        size_t avail = rd_ensure(rd, 2u * TRC_CHECK_FIND_MAX);
        if (rd->read_err)
            return 1;
        if (trc_check_find(&rd->p, rd->buf + rd->bpos, avail, rel, &c, &end, &recs,
                           &count) == TRC_OK) {
            /* believed only if the records lost could have fitted in the
             * bytes skipped (a record takes at least one bit), as for frames */
            uint32_t before = (count - (uint32_t)recs) & COUNT_MASK;
            uint64_t skipped = rd->buf_base + rd->bpos + c - gap;
            uint32_t n = (before - rd->ck_seen) & COUNT_MASK;
            if (n > 8u * skipped) {
                rel = c + 8u;
                continue;
            }
            lost += n;
            rd->ck_seen = before;
            if (end - c > 8u)
                break;
            rd->bpos += end; /* a closing unit: look further */
            gap = off(rd);
            rel = 0;
            closed = 1;
            continue;
        }
        if (rd->eof) {
            int clean = closed && avail == 0; /* the stream ends with them */
            rd->bpos = rd->blen;
            rd->lost_left = lost;
            damaged(rd);
            if (clean)
                cli_error("%s: byte %llu: %s; skipped %llu bytes to the closing units "
                          "at the end: %llu records lost (marked with L)", rd->path,
                          (unsigned long long)from, why,
                          (unsigned long long)(off(rd) - from), (unsigned long long)lost);
            else
                cli_error("%s: byte %llu: %s; no unit to resume at after it (skipped %llu "
                          "bytes to the end): %llu records counted lost (marked with L), "
                          "and an unknown number of records is lost at the end", rd->path,
                          (unsigned long long)from, why,
                          (unsigned long long)(off(rd) - from), (unsigned long long)lost);
            return 1;
        }
        /* every candidate with TRC_CHECK_FIND_MAX bytes after it was tried
         * (avail >= 2 * TRC_CHECK_FIND_MAX before the end of the input) */
        size_t tried = avail - TRC_CHECK_FIND_MAX;
        rd->bpos += rel + (tried > rel ? (tried - rel + 7u) / 8u * 8u : 0u);
        rel = 0;
    }
    rd->bpos += c;
    damaged(rd);
    cli_error("%s: byte %llu: %s; skipped %llu bytes to the next unit: %llu records "
              "lost (marked with L)", rd->path, (unsigned long long)from, why,
              (unsigned long long)(off(rd) - from), (unsigned long long)lost);
    rd->lost_left = lost;
    trc_decoder_init(&rd->dec, &rd->p);
    rd->dec.check = 1;
    rd->dec.count = rd->ck_seen;
    rd->ck_left = 0;
    rd->on = rd->oi = 0;
    return 0;
}

/* The closing units after an END's unit (8 bytes each): checked, then
 * passed over. One that fails costs no records (the unit before it
 * checked): reported, and the reader goes on after them with the same
 * decoder. 0, or 1 when the stream ends inside them. */
static int closing(cli_reader *rd)
{
    size_t left = 8u * (size_t)rd->dec.closing;
    size_t avail = rd_ensure(rd, left);
    if (rd->read_err)
        return 1;
    size_t used, n;
    trc_record none[1];
    if (avail >= 8 && trc_decode(&rd->dec, rd->buf + rd->bpos, 8, &used, none, 1, &n,
                                 0) == TRC_OK && used == 8) {
        rd->bpos += 8;
        return 0;
    }
    uint64_t at = off(rd);
    rd->dec.closing = 0;
    damaged(rd);
    if (avail < left) {
        rd->bpos += avail;
        cli_error("%s: byte %llu: the stream ends inside the closing units after END "
                  "(no records lost)", rd->path, (unsigned long long)at);
        return 1;
    }
    rd->bpos += left;
    cli_error("%s: byte %llu: a closing unit after END fails its check (no records "
              "lost)", rd->path, (unsigned long long)at);
    return 0;
}

int rd_next_checked(cli_reader *rd, trc_record *r)
{
    char why[160];
    for (;;) {
        if (rd->lost_left) {
            uint64_t max = (UINT64_C(1) << rd->p.val_w) - 1u;
            trc_record l = {0, (uint32_t)(rd->lost_left < max ? rd->lost_left : max), 0,
                            TRC_LOST};
            rd->lost_left -= l.a;
            *r = l;
            return 1;
        }
        if (rd->oi < rd->on) {
            *r = rd->out[rd->oi++];
            rd->ck_seen = (rd->ck_seen + 1u) & COUNT_MASK;
            return 1;
        }
        if (rd->done)
            return 0;
        if (rd->ck_left) { /* the unit checked: decode it */
            /* not final: an END's closing units follow the unit (closing()),
             * and a unit cut short stops the decoding all the same */
            size_t used;
            trc_error e = trc_decode(&rd->dec, rd->buf + rd->bpos, rd->ck_left, &used,
                                     rd->out, RD_OUT_RECS, &rd->on, 0);
            rd->bpos += used;
            rd->ck_left -= used;
            rd->oi = 0;
            if (e == TRC_OK && (used || rd->on))
                continue;
            /* a unit whose CRC checks but whose records or count do not
             * follow the units before it (a whole unit missing before it) */
            snprintf(why, sizeof why, "unit checks but does not follow (%s)",
                     trc_error_name(e == TRC_OK ? TRC_ERR_CORRUPT : e));
            rd->bpos = (size_t)(rd->ck_start - rd->buf_base); /* still buffered */
            if (resume(rd, why))
                rd->done = 1;
            continue;
        }
        if (rd->dec.closing) {
            if (closing(rd))
                rd->done = 1;
            if (rd->read_err)
                return -1;
            continue;
        }
        size_t avail = rd_ensure(rd, 1);
        if (rd->read_err)
            return -1;
        if (avail == 0) {
            rd->done = 1;
            return 0;
        }
        size_t n = unit_len(rd);
        if (rd->read_err)
            return -1;
        if (n) {
            rd->ck_left = n;
            rd->ck_start = off(rd);
            continue;
        }
        if (resume(rd, "unit fails its check (or the stream is cut short)"))
            rd->done = 1;
    }
}
