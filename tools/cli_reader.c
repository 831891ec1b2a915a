/*
 * cli_reader.c - the record reader of every subcommand: trace text v1, a .trc
 * container, a framed container (each frame checked, damaged ones reported
 * and skipped) or a bare stream, with errors that name the file and the line
 * or the byte and bit offset. Memory stays bounded by the input: records are
 * streamed, and a framed file holds at most one frame's bytes. This file
 * opens the input, reads streams and containers and hands records out; text
 * lines are read in cli_text.c, framed containers in cli_frames.c.
 */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc_cli.h"
#include "cli_reader.h"

/* Moves unread bytes to the front and reads more; returns bytes added. A
 * read error ends the input and is reported once by the caller. */
size_t rd_refill(cli_reader *rd)
{
    if (rd->bpos) {
        memmove(rd->buf, rd->buf + rd->bpos, rd->blen - rd->bpos);
        rd->buf_base += rd->bpos;
        rd->blen -= rd->bpos;
        rd->bpos = 0;
    }
    size_t got = 0;
    if (!rd->eof && rd->blen < rd->cap) {
        got = fread(rd->buf + rd->blen, 1, rd->cap - rd->blen, rd->f);
        rd->blen += got;
        rd->nbytes += got;
        if (got == 0) {
            if (ferror(rd->f)) {
                rd->read_err = errno ? errno : EIO;
                cli_in_error(rd->f, rd->path);
            }
            rd->eof = 1;
        }
    }
    return got;
}

cli_reader *cli_reader_open(const char *path, const trc_params *p, int raw)
{
    FILE *f = cli_in_open(path);
    return f ? cli_reader_from(f, path, p, raw) : NULL;
}

cli_reader *cli_reader_from(FILE *f, const char *name, const trc_params *p,
                            int raw)
{
    cli_reader *rd = calloc(1, sizeof *rd);
    if (!rd || !(rd->buf = malloc(RD_BUF_BYTES))) {
        cli_error("out of memory");
        free(rd);
        if (f != stdin)
            fclose(f);
        return NULL;
    }
    rd->cap = RD_BUF_BYTES;
    rd->path = name;
    rd->checked = (raw >> 1) & 1; /* bit 1: --check */
    raw &= 1;
    if (cli_progress_on())
        cli_progress_start(&rd->prog, name, f);
    rd->p = *p;
    rd->f = f;
    while (rd->blen < TRC_HEADER_BYTES && !rd->eof)
        rd_refill(rd);
    if (rd->read_err) {
        cli_reader_close(rd);
        return NULL;
    }
    unsigned mode, flags = 0;
    trc_params hp;
    if (raw && trc_header_read_ex(rd->buf, rd->blen, &hp, &mode, &flags) == TRC_OK) {
        /* its header would decode as a corrupt stream */
        cli_error("%s: a .trc container, read with --raw as a bare stream: "
                  "drop --raw (the header gives the parameters)", name);
        cli_reader_close(rd);
        return NULL;
    }
    /* An empty input is an empty text trace, not a cut header. */
    trc_error e = raw || rd->blen == 0
                      ? TRC_ERR_MAGIC
                      : trc_header_read_ex(rd->buf, rd->blen, &rd->p, &mode,
                                           &flags);
    if (e == TRC_OK) {
        rd->stream = rd->container = 1;
        rd->framed = (flags & TRC_FLAG_FRAMED) != 0;
        rd->checked = (flags & TRC_FLAG_CHECKED) != 0;
        rd->v1 = trc_header_version(rd->buf) == 1;
        rd->header = rd->bpos = TRC_HEADER_BYTES;
    } else if (e != TRC_ERR_MAGIC) {
        cli_error("%s: bad .trc header: %s", name, trc_error_text(e));
        cli_reader_close(rd);
        return NULL;
    } else {
        rd->stream = raw;
        if (!raw && rd_scan_timebase(rd)) {
            cli_reader_close(rd);
            return NULL;
        }
    }
    if (trc_params_check(&rd->p) != TRC_OK) {
        cli_error("format parameters out of range (see docs/format.md)");
        cli_reader_close(rd);
        return NULL;
    }
    if (rd->stream && trc_cpu_count(&rd->p) > 1) {
        /* several CPUs: the multi-CPU decoder (large, so on the heap) */
        rd->mdec = malloc(sizeof *rd->mdec);
        if (!rd->mdec) {
            cli_error("out of memory");
            cli_reader_close(rd);
            return NULL;
        }
        trc_mp_decoder_init(rd->mdec, &rd->p);
    } else if (rd->stream) {
        trc_decoder_init(&rd->dec, &rd->p);
        rd->dec.v1 = rd->v1;
        rd->dec.check = rd->checked;
    }
    return rd;
}

static int next_stream(cli_reader *rd, trc_record *r)
{
    while (rd->oi == rd->on) {
        if (rd->err || rd->done) {
            if (rd->err) {
                uint64_t bit = rd->mdec ? trc_mp_decoder_bit_offset(rd->mdec)
                                        : trc_decoder_bit_offset(&rd->dec);
                /* a bare stream read with other parameters than it was
                 * written with fails so, mostly at once: say what to check */
                int hint = !rd->header && (rd->err == TRC_ERR_CORRUPT ||
                                           rd->err == TRC_ERR_PADDING);
                cli_error("%s: byte %llu, bit %u: %s (%s)%s", rd->path,
                          (unsigned long long)(rd->header + bit / 8u),
                          (unsigned)(bit % 8u), trc_error_text(rd->err),
                          trc_error_name(rd->err),
                          hint ? "; a bare stream reads only with the format "
                                 "options it was written with (stack mode 2: "
                                 "--no-fresh for a core built with FE = 0)"
                               : "");
                return -1;
            }
            return 0;
        }
        if (!rd->eof && rd->blen - rd->bpos < RD_BUF_BYTES / 2)
            rd_refill(rd);
        if (rd->read_err)
            return -1;
        size_t used;
        trc_error e = rd->mdec ? trc_mp_decode(rd->mdec, rd->buf + rd->bpos,
                                               rd->blen - rd->bpos, &used, rd->out,
                                               rd->out_cpu, RD_OUT_RECS, &rd->on, rd->eof)
                               : trc_decode(&rd->dec, rd->buf + rd->bpos,
                                            rd->blen - rd->bpos, &used, rd->out,
                                            RD_OUT_RECS, &rd->on, rd->eof);
        rd->bpos += used;
        rd->oi = 0;
        if (e != TRC_OK)
            rd->err = e;
        else if (rd->eof && rd->on < RD_OUT_RECS)
            rd->done = 1;
    }
    rd->cpu = rd->mdec ? rd->out_cpu[rd->oi] : 0;
    *r = rd->out[rd->oi++];
    return 1;
}

int cli_reader_from_frame(cli_reader *rd, uint32_t k)
{
    if (!rd->framed) {
        cli_error("%s: --from-frame needs a framed .trc (trc compress --frame "
                  "N, or trc frame)", rd->path);
        return -1;
    }
    rd->from_frame = k;
    return 0;
}

unsigned cli_damage_seen;

unsigned cli_reader_damage(const cli_reader *rd)
{
    return rd->damage;
}

unsigned cli_damage_count(void)
{
    return cli_damage_seen;
}

int cli_reader_next(cli_reader *rd, trc_record *r)
{
    int got;
    if (rd->framed)
        got = rd_next_framed(rd, r);
    else if (rd->checked)
        got = rd_next_checked(rd, r);
    else
        got = rd->stream ? next_stream(rd, r) : rd_next_text(rd, r);
    if (got == 1 && (++rd->nread & 4095) == 0 && rd->prog.name) {
        rd->prog.records = rd->nread;
        cli_progress_tick(&rd->prog);
    }
    rd->ended = got == 0;
    return got;
}

const trc_params *cli_reader_params(const cli_reader *rd)
{
    return &rd->p;
}

void cli_stats_add(trc_stats *t, const trc_stats *s)
{
    t->function += s->function;
    t->os += s->os;
    t->time_ext += s->time_ext;
    t->end += s->end;
    t->sync += s->sync;
    t->lost += s->lost;
    for (int f = 0; f < TRC_F__COUNT; f++) {
        t->raw_bits[f] += s->raw_bits[f];
        t->coded_bits[f] += s->coded_bits[f];
    }
    t->kind_bits += s->kind_bits;
    t->pad_bits += s->pad_bits;
    t->units += s->units;
    t->check_bits += s->check_bits;
    for (int d = 0; d < 3; d++) {
        t->lookups[d] += s->lookups[d];
        t->hits[d] += s->hits[d];
    }
    t->predicted += s->predicted;
    t->top_exits += s->top_exits;
    for (int k = 0; k < 4; k++)
        t->delta_sym[k] += s->delta_sym[k];
    t->os_predicted += s->os_predicted;
}

const trc_stats *cli_reader_stats(const cli_reader *rd)
{
    if (rd->framed)
        return &rd->sum;
    if (rd->mdec) {
        cli_reader *w = (cli_reader *)rd; /* the sum is a cache of the CPUs' */
        memset(&w->mp_sum, 0, sizeof w->mp_sum);
        for (unsigned k = 0; k < rd->mdec->ncpu; k++)
            cli_stats_add(&w->mp_sum, &rd->mdec->cpu[k].st);
        return &rd->mp_sum;
    }
    if (rd->checked) { /* the decoders before each resumption, and this one */
        cli_reader *w = (cli_reader *)rd;
        w->mp_sum = rd->sum;
        cli_stats_add(&w->mp_sum, &rd->dec.st);
        return &rd->mp_sum;
    }
    return rd->stream ? &rd->dec.st : NULL;
}

const trc_stats *cli_reader_cpu_stats(const cli_reader *rd, unsigned cpu)
{
    if (!rd->mdec)
        return cpu == 0 ? cli_reader_stats(rd) : NULL;
    return cpu < rd->mdec->ncpu ? &rd->mdec->cpu[cpu].st : NULL;
}

uint64_t cli_reader_switches(const cli_reader *rd, unsigned *bits)
{
    *bits = trc_switch_bits(&rd->p);
    return rd->mdec ? rd->mdec->switches : 0;
}

unsigned cli_reader_cpu(const cli_reader *rd)
{
    return rd->cpu;
}

unsigned cli_reader_cpus(const cli_reader *rd)
{
    return trc_cpu_count(&rd->p);
}

uint64_t cli_reader_stream_bytes(const cli_reader *rd)
{
    if (rd->framed)
        return rd->payload_bytes;
    return rd->stream ? rd->buf_base + rd->bpos - rd->header : 0;
}

int cli_reader_is_stream(const cli_reader *rd)
{
    return rd->stream;
}

int cli_reader_is_container(const cli_reader *rd)
{
    return rd->container;
}

host_timebase cli_reader_timebase(const cli_reader *rd)
{
    return rd->tb;
}

void cli_reader_close(cli_reader *rd)
{
    if (!rd)
        return;
    if (rd->prog.name) {
        rd->prog.records = rd->nread;
        cli_progress_end(&rd->prog, rd->ended);
    }
    if (rd->f && rd->f != stdin)
        fclose(rd->f);
    free(rd->mdec);
    free(rd->buf);
    free(rd);
}

cli_reader *cli_open_trace(const cli_args *a, const char *path)
{
    int raw = cli_given(a, OPT_RAW);
    if (cli_given(a, OPT_CHECK) && !raw) {
        cli_reject(a, OPT_CHECK, "reads --raw streams (a .trc header says "
                                 "whether its stream is checked)");
        return NULL;
    }
    cli_reader *rd = cli_reader_open(path, &a->p, raw | cli_given(a, OPT_CHECK) << 1);
    if (rd && rd->container && (a->given & OPT_PARAMS) &&
        memcmp(&a->p, &rd->p, sizeof a->p)) {
        cli_error("%s: format options given, but its .trc header gives other "
                  "parameters (the header decides; options are for text and "
                  "--raw input)", path);
        cli_reader_close(rd);
        return NULL;
    }
    return rd;
}
