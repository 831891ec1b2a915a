/*
 * cli_reader.h - the reader's state, shared by cli_reader.c (opening,
 * streams), cli_text.c (trace text) and cli_frames.c (framed containers).
 * Internal to tools/.
 */
#ifndef CLI_READER_H
#define CLI_READER_H

#include "trc_cli.h"

#define RD_BUF_BYTES (1u << 16)
#define RD_OUT_RECS 4096 /* records a decode call gives; a frame of up to
                            this many is decoded once (cli_frames.c) */

struct cli_reader {
    FILE *f;
    const char *path;
    int stream, container, framed, v1;
    int checked; /* a checked stream (format.md 4.10) */
    int eof, done, read_err; /* input exhausted; no more records; errno */
    trc_error err;           /* decoder error pending */
    uint8_t *buf;
    size_t cap, blen, bpos;
    uint64_t buf_base;       /* file offset of buf[0] */
    uint64_t header;         /* container header bytes before the stream */
    uint64_t nbytes;         /* bytes read from the file so far */
    uint64_t lineno;
    trc_params p;
    trc_decoder dec;
    trc_mp_decoder *mdec;    /* streams of several CPUs (p.cpus > 1) */
    trc_record out[RD_OUT_RECS];
    uint8_t out_cpu[RD_OUT_RECS];
    size_t on, oi;
    unsigned cpu;            /* the CPU of the record handed out last */
    trc_stats mp_sum;        /* several CPUs: the figures of all of them */
    host_timebase tb;        /* from the leading comment lines of text */
    /* framed containers (cli_frames.c) */
    trc_frame_info fi;       /* the frame being handed out */
    int in_frame;            /* its records are being decoded from buf */
    trc_decoder fdec;
    size_t fpos;             /* payload bytes fdec is done with */
    uint64_t lost_left;      /* L records still to hand out */
    uint64_t gap;            /* ticks to add to the next record handed out */
    uint32_t expect;         /* next frame index */
    uint32_t from_frame;     /* frames before it are skipped on purpose */
    int started, trailer;
    uint64_t seen;           /* trace records accounted for (read or lost) */
    uint64_t last_time;      /* ticks up to the end of the last good frame */
    uint64_t good_end;       /* file offset after the last good frame */
    uint64_t work;           /* payload bytes checked (CRC, decode) so far */
    uint64_t payload_bytes;  /* stream bytes of the frames handed out */
    unsigned damage;         /* damage events reported */
    uint64_t nread;          /* records handed out, for progress lines */
    int ended;               /* the reader returned the end of the trace */
    cli_progress prog;
    trc_stats sum;           /* figures of all good frames */
    /* checked streams (cli_checked.c) */
    size_t ck_left;          /* bytes of the checked unit being decoded */
    uint64_t ck_start;       /* its file offset */
    uint32_t ck_seen;        /* trace records accounted for, mod 2^31 */
};

size_t rd_refill(cli_reader *rd);
/* Makes n bytes available from bpos unless the input ends first (the buffer
 * grows as needed); returns the bytes available. */
size_t rd_ensure(cli_reader *rd, size_t n);
/* The next record of a checked stream (cli_checked.c). */
int rd_next_checked(cli_reader *rd, trc_record *r);
extern unsigned cli_damage_seen; /* damage events of every reader */
/* Counts one damage event of rd (its own count and every reader's). */
static inline void rd_damage(cli_reader *rd)
{
    rd->damage++;
    cli_damage_seen++;
}
int rd_next_framed(cli_reader *rd, trc_record *r);
/* Trace text (cli_text.c): the time base among the leading comment lines
 * (those in the first buffer read; -1, message printed, when one is
 * malformed or there are two), and the next record (as cli_reader_next). */
int rd_scan_timebase(cli_reader *rd);
int rd_next_text(cli_reader *rd, trc_record *r);

#endif /* CLI_READER_H */
