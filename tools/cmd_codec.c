/*
 * cmd_codec.c - the codec subcommands: compress (any trace -> .trc, framed
 * or not, or a bare stream) and decompress (.trc -> canonical text v1); the
 * byte buffer and frame writer that frame (cmd_frame.c) shares.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"

int cli_buf_room(cli_buf *x, size_t need)
{
    if (x->cap - x->len >= need)
        return 1;
    size_t nc = x->cap ? x->cap : 1u << 16;
    while (nc - x->len < need)
        nc *= 2;
    uint8_t *nb = realloc(x->b, nc);
    if (!nb)
        return 0;
    x->b = nb;
    x->cap = nc;
    return 1;
}

int cli_put_frame(FILE *f, const trc_frame_info *fi, const uint8_t *pl)
{
    uint8_t h[TRC_FRAME_HEADER_BYTES];
    trc_frame_header_write(fi, h);
    return fwrite(h, 1, sizeof h, f) == sizeof h &&
           fwrite(pl, 1, fi->payload_bytes, f) == fi->payload_bytes;
}

/* Ends the frame in pl with SYNC (end = 0) or END, writes it, starts the next. */
static int close_frame(FILE *f, trc_encoder *enc, trc_frame_info *fi,
                       cli_buf *pl, uint64_t time, int end, const char *out)
{
    size_t len;
    if (!cli_buf_room(pl, TRC_MAX_RECORD_BYTES)) {
        cli_error("out of memory");
        return 0;
    }
    if (end)
        trc_encode_end(enc, pl->b + pl->len, TRC_MAX_RECORD_BYTES, &len);
    else
        trc_encode_sync(enc, pl->b + pl->len, TRC_MAX_RECORD_BYTES, &len);
    pl->len += len;
    if (pl->len > 0xffffffffu) {
        cli_error("%s: frame %u exceeds 4 GiB; use a smaller --frame", out,
                  fi->index);
        return 0;
    }
    fi->payload_bytes = (uint32_t)pl->len;
    fi->payload_crc = trc_crc32(0, pl->b, pl->len);
    cli_put_frame(f, fi, pl->b);
    fi->index++;
    fi->records_before += fi->records;
    fi->time_before = time;
    fi->records = 0;
    pl->len = 0;
    return 1;
}

/* Encodes b[0..nb) into pl (records rec0 + 1.. of the input, for errors).
 * The encoder takes records in batches: its runs set up once a call. */
static int encode_batch(trc_encoder *enc, const trc_record *b, size_t nb,
                        cli_buf *pl, uint64_t rec0, const char *in)
{
    size_t off = 0;
    while (off < nb) {
        size_t done, len;
        if (!cli_buf_room(pl, 4096)) {
            cli_error("out of memory");
            return 0;
        }
        trc_error e = trc_encode(enc, b + off, nb - off, &done, pl->b + pl->len,
                                 pl->cap - pl->len, &len);
        pl->len += len;
        off += done;
        if (e != TRC_OK) {
            cli_error("%s: record %llu does not fit the output's parameters: "
                      "%s (%s)", in, (unsigned long long)(rec0 + off + 1),
                      trc_error_text(e), trc_error_name(e));
            return 0;
        }
    }
    return 1;
}

/* Encodes rd as frames of n trace records: each frame starts from the reset
 * state and ends with SYNC, the last with END; a trailer closes the file. */
static int encode_framed(cli_reader *rd, const cli_args *a, FILE *f)
{
    enum { BATCH = 1024 };
    trc_record b[BATCH];
    trc_encoder enc;
    trc_frame_info fi = {0, 0, 0, 0, 0, 0};
    cli_buf pl = {NULL, 0, 0};
    uint64_t time = 0, n = a->num[OPT_FRAME], rec = 0;
    const char *in = a->pos[0], *out = a->pos[1];
    size_t nb = 0; /* records read into b, not yet encoded */
    trc_record r;
    int got = 0, ok = 1;
    uint8_t hdr[TRC_HEADER_BYTES];
    trc_header_write_ex(&a->p, a->p.mode, TRC_FLAG_FRAMED, hdr);
    fwrite(hdr, 1, sizeof hdr, f);
    trc_encoder_init(&enc, &a->p);
    /* The records go to the encoder in batches; a batch ends when it is
     * full, before a frame closes, at the input's end, and at a record the
     * encoder refuses (so that its error comes before any later one). */
    while (ok && (got = cli_reader_next(rd, &r)) == 1) {
        if (fi.records == n) {
            ok = encode_batch(&enc, b, nb, &pl, rec, in) &&
                 close_frame(f, &enc, &fi, &pl, time, 0, out);
            rec += nb;
            nb = 0;
        }
        b[nb++] = r;
        if (ok && (nb == BATCH || trc_record_check(&a->p, &r) != TRC_OK)) {
            ok = encode_batch(&enc, b, nb, &pl, rec, in);
            rec += nb;
            nb = 0;
        }
        time += r.delta;
        fi.records++;
    }
    if (ok && got == 0 && encode_batch(&enc, b, nb, &pl, rec, in) &&
        close_frame(f, &enc, &fi, &pl, time, 1, out)) {
        fi.payload_bytes = fi.payload_crc = 0; /* the trailer */
        cli_put_frame(f, &fi, (const uint8_t *)"");
    } else {
        ok = 0;
    }
    free(pl.b);
    return ok ? 0 : 1;
}

/* Encodes every record of rd through the model's writer (container or bare
 * stream, a SYNC every --sync-every records). */
static int encode_all(cli_reader *rd, const cli_args *a, cli_out *o)
{
    static trc_writer w;
    unsigned form = cli_given(a, OPT_RAW) ? TRC_FORM_STREAM : TRC_FORM_CONTAINER;
    trc_writer_init(&w, &a->p, form, a->num[OPT_SYNC_EVERY], cli_out_write, o);
    if (cli_given(a, OPT_CHECK))
        trc_writer_set_check(&w);
    trc_record r;
    int got;
    trc_error e = TRC_OK;
    while (e == TRC_OK && (got = cli_reader_next(rd, &r)) == 1)
        e = trc_writer_put_cpu(&w, cli_reader_cpu(rd), &r);
    if (e == TRC_OK && got == 0)
        e = trc_writer_finish(&w);
    if (e == TRC_ERR_IO)
        cli_error("%s: write error: %s", a->pos[1], strerror(errno));
    else if (e == TRC_ERR_FIELD && cli_reader_cpu(rd) >= trc_cpu_count(&a->p))
        cli_error("%s: record %llu is of CPU %u: give --cpus %u or more", a->pos[0],
                  (unsigned long long)w.records + 1, cli_reader_cpu(rd),
                  cli_reader_cpu(rd) + 1);
    else if (e != TRC_OK)
        cli_error("%s: record %llu does not fit the output's parameters: %s "
                  "(%s)", a->pos[0], (unsigned long long)w.records + 1,
                  trc_error_text(e), trc_error_name(e));
    return e != TRC_OK || got < 0;
}

/* OUT for the records of rd (never its input IN); on failure rd is closed. */
static cli_out *open_out(const char *out, const char *in, cli_reader *rd)
{
    const char *ins[] = {in, NULL};
    cli_out *o = cli_out_open(out, ins);
    if (!o)
        cli_reader_close(rd);
    return o;
}

/* --quantum auto: the largest of 1000, 100 and 10 ticks that divides every
 * delta of IN (a regular file: it is read twice), else 1. Returns 0 on a
 * read error (message printed). */
static int auto_quantum(const cli_args *a, unsigned *tq)
{
    const char *in = a->pos[0];
    if (!cli_is_regular(in)) {
        cli_error("%s: %s: --quantum auto reads the input twice: give a regular "
                  "file, not stdin or a pipe (or --quantum N)", a->cmd, in);
        return 0;
    }
    cli_reader *rd = cli_reader_open(in, &a->p, 0);
    if (!rd)
        return 0;
    trc_record r;
    int got;
    unsigned q = 1000u;
    while (q > 1u && (got = cli_reader_next(rd, &r)) == 1)
        while (q > 1u && r.delta % q)
            q /= 10u;
    if (q > 1u && got < 0)
        q = 0u;
    cli_reader_close(rd);
    *tq = q ? q : 1u;
    return q != 0u;
}

/* Without --quantum, stack mode 2 into a container from a file takes the
 * quantum as --quantum auto does: the header records it, so no reader needs
 * to be told, and timestamps of a coarser clock than the tick (ftrace's
 * microseconds at 10 ns ticks) cost bits in every record otherwise. A bare
 * stream (--raw) has no header to record it, and stdin or a pipe cannot be
 * read twice: there it stays 1, as it does where NT rules out a quantum. */
static int quantum_by_default(const cli_args *a)
{
    trc_params p = a->p;
    p.tq = 10u;
    return p.mode == TRC_MODE_STACK2 && !cli_given(a, OPT_RAW) &&
           cli_is_regular(a->pos[0]) && trc_params_check(&p) == TRC_OK;
}

int cli_quantum(const cli_args *a, unsigned *tq)
{
    if (cli_given(a, OPT_QUANTUM) ? !strcmp(a->str[OPT_QUANTUM], "auto")
                                  : quantum_by_default(a))
        return auto_quantum(a, tq);
    *tq = a->p.tq;
    return 1;
}

int cmd_compress(const cli_args *a)
{
    if (cli_given(a, OPT_FRAME) && cli_given(a, OPT_RAW))
        return cli_reject(a, OPT_FRAME, "needs the container (drop --raw)");
    if (cli_given(a, OPT_FRAME) && cli_given(a, OPT_SYNC_EVERY))
        return cli_reject(a, OPT_SYNC_EVERY, "means nothing with --frame (a "
                          "framed .trc cuts its own frames)");
    if (cli_given(a, OPT_CHECK) && cli_given(a, OPT_FRAME))
        return cli_reject(a, OPT_CHECK, "means nothing with --frame (each frame "
                                        "has its own CRC-32)");
    if (cli_given(a, OPT_CHECK) && trc_cpu_count(&a->p) > 1)
        return cli_reject(a, OPT_CHECK, "is not defined for several CPUs");
    if (cli_given(a, OPT_FRAME) && trc_cpu_count(&a->p) > 1)
        return cli_reject(a, OPT_FRAME, "is not defined for several CPUs "
                          "(docs/format.md 4.9)");
    cli_args qa = *a;
    if (!cli_quantum(a, &qa.p.tq))
        return 1;
    a = &qa;
    /* Text is read with the output's parameters, so range errors name it. */
    const char *in = a->pos[0], *out = a->pos[1];
    cli_reader *rd = cli_reader_open(in, &a->p, 0);
    cli_out *o = rd ? open_out(out, in, rd) : NULL;
    if (!o)
        return 1;
    int rc = cli_given(a, OPT_FRAME) ? encode_framed(rd, a, cli_out_file(o))
                                     : encode_all(rd, a, o);
    if (cli_out_close(o, rc == 0))
        rc = 1;
    cli_reader_close(rd);
    return rc;
}

int cmd_decompress(const cli_args *a)
{
    const char *in = a->pos[0], *out = a->pos[1];
    if (cli_given(a, OPT_FROM_FRAME) && cli_given(a, OPT_RAW))
        return cli_reject(a, OPT_FROM_FRAME, "needs a framed .trc, not --raw");
    cli_reader *rd = cli_open_trace(a, in);
    if (!rd)
        return 1;
    if (!cli_reader_is_stream(rd)) {
        cli_error("%s: not a .trc file (bad magic); use --raw for a bare "
                  "stream", in);
        cli_reader_close(rd);
        return 1;
    }
    if (cli_given(a, OPT_FROM_FRAME) &&
        cli_reader_from_frame(rd, (uint32_t)a->num[OPT_FROM_FRAME])) {
        cli_reader_close(rd);
        return 1;
    }
    cli_out *o = open_out(out, in, rd);
    if (!o)
        return 1;
    FILE *f = cli_out_file(o);
    char line[TRC_TEXT_LINE_MAX];
    trc_record r;
    int got;
    while ((got = cli_reader_next(rd, &r)) == 1)
        fwrite(line, 1, trc_text_format_cpu(&r, cli_reader_cpu(rd), cli_reader_cpus(rd), line),
               f);
    /* A damaged framed file is written in full, with L records at the gaps,
     * and exits 1; any other error discards the output. */
    int rc = got < 0 || cli_reader_damage(rd);
    if (cli_out_close(o, got == 0))
        rc = 1;
    cli_reader_close(rd);
    return rc;
}
