/*
 * cmd_codec.c - the codec subcommands: compress (any trace -> .trc, framed
 * or not, or a bare stream), decompress (.trc -> canonical text v1) and
 * frame (a bare stream with SYNCs -> framed .trc).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"

/* A growable byte buffer for one frame's payload. */
typedef struct {
    uint8_t *b;
    size_t len, cap;
} bytebuf;

static int room(bytebuf *x, size_t need)
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

static int put_frame(FILE *f, const trc_frame_info *fi, const uint8_t *pl)
{
    uint8_t h[TRC_FRAME_HEADER_BYTES];
    trc_frame_header_write(fi, h);
    return fwrite(h, 1, sizeof h, f) == sizeof h &&
           fwrite(pl, 1, fi->payload_bytes, f) == fi->payload_bytes;
}

/* Ends the frame in pl with SYNC (end = 0) or END, writes it, starts the next. */
static int close_frame(FILE *f, trc_encoder *enc, trc_frame_info *fi,
                       bytebuf *pl, uint64_t time, int end, const char *out)
{
    size_t len;
    if (!room(pl, TRC_MAX_RECORD_BYTES)) {
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
    put_frame(f, fi, pl->b);
    fi->index++;
    fi->records_before += fi->records;
    fi->time_before = time;
    fi->records = 0;
    pl->len = 0;
    return 1;
}

/* Encodes rd as frames of n trace records: each frame starts from the reset
 * state and ends with SYNC, the last with END; a trailer closes the file. */
static int encode_framed(cli_reader *rd, const cli_args *a, FILE *f)
{
    trc_encoder enc;
    trc_frame_info fi = {0, 0, 0, 0, 0, 0};
    bytebuf pl = {NULL, 0, 0};
    uint64_t time = 0, n = a->num[OPT_FRAME], rec = 0;
    const char *in = a->pos[0], *out = a->pos[1];
    trc_record r;
    int got = 0, ok = 1;
    uint8_t hdr[TRC_HEADER_BYTES];
    trc_header_write_ex(&a->p, a->p.mode, TRC_FLAG_FRAMED, hdr);
    fwrite(hdr, 1, sizeof hdr, f);
    trc_encoder_init(&enc, &a->p);
    while (ok && (got = cli_reader_next(rd, &r)) == 1) {
        if (fi.records == n && !close_frame(f, &enc, &fi, &pl, time, 0, out))
            ok = 0;
        size_t done = 0, len;
        while (ok && !done) {
            trc_error e = TRC_OK;
            if (!room(&pl, 4096)) {
                cli_error("out of memory");
                ok = 0;
            } else if ((e = trc_encode(&enc, &r, 1, &done, pl.b + pl.len,
                                       pl.cap - pl.len, &len)) != TRC_OK) {
                cli_error("%s: record %llu does not fit the output's "
                          "parameters: %s (%s)", in,
                          (unsigned long long)rec + 1, trc_error_text(e),
                          trc_error_name(e));
                ok = 0;
            } else {
                pl.len += len;
            }
        }
        time += r.delta;
        fi.records++;
        rec++;
    }
    if (ok && got == 0 && close_frame(f, &enc, &fi, &pl, time, 1, out)) {
        fi.payload_bytes = fi.payload_crc = 0; /* the trailer */
        put_frame(f, &fi, (const uint8_t *)"");
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
 * delta of IN (a file: it is read twice), else 1. Returns 0 on a read error
 * (message printed). */
static int auto_quantum(const cli_args *a, unsigned *tq)
{
    const char *in = a->pos[0];
    if (!strcmp(in, "-")) {
        cli_error("%s: --quantum auto reads the input twice: give a file, not "
                  "stdin (or --quantum N)", a->cmd);
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
    cli_args qa;
    if (cli_given(a, OPT_QUANTUM) && !strcmp(a->str[OPT_QUANTUM], "auto")) {
        qa = *a;
        if (!auto_quantum(a, &qa.p.tq))
            return 1;
        a = &qa;
    }
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

/* ---- frame: a bare stream with SYNC frames -> framed container ------ */

/* Reads all of f into memory; NULL on a read error (message printed). */
static uint8_t *slurp(FILE *f, const char *path, size_t *len)
{
    bytebuf b = {NULL, 0, 0};
    for (;;) {
        if (!room(&b, 1u << 16)) {
            cli_error("%s: out of memory", path);
            free(b.b);
            return NULL;
        }
        size_t got = fread(b.b + b.len, 1, b.cap - b.len, f);
        b.len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        cli_in_error(f, path);
        free(b.b);
        return NULL;
    }
    *len = b.len;
    return b.b;
}

/* Cuts s at its SYNC records into frames; 0 ok, 1 on a decode error (the
 * complete frames are written, without the trailer). trailer = 0: s is the
 * part of a damaged stream before the damage, its complete frames only. */
static int cut_frames(const cli_args *a, const uint8_t *s, size_t len, FILE *f,
                      int trailer)
{
    static trc_record recs[4096];
    trc_decoder d;
    trc_frame_info fi = {0, 0, 0, 0, 0, 0};
    uint64_t time = 0; /* raw ticks decoded so far (records + carry) */
    size_t pos = 0, start = 0;
    trc_decoder_init(&d, &a->p);
    d.stop_at_mark = 1;
    while (trailer || pos < len) {
        size_t used, n;
        uint64_t syncs = d.st.sync;
        trc_error e = trc_decode(&d, s + pos, len - pos, &used, recs, 4096, &n, 1);
        pos += used;
        for (size_t i = 0; i < n; i++)
            time += recs[i].delta;
        fi.records += (uint32_t)n;
        if (e != TRC_OK) {
            uint64_t bit = trc_decoder_bit_offset(&d);
            cli_error("%s: byte %llu, bit %u: %s (%s)", a->pos[0],
                      (unsigned long long)(bit / 8u), (unsigned)(bit % 8u),
                      trc_error_text(e), trc_error_name(e));
            cli_error("%s: %u complete frames (%llu records) written without "
                      "a trailer", a->pos[1], fi.index,
                      (unsigned long long)fi.records_before);
            return 1;
        }
        int at_end = pos == len;
        if (d.st.sync != syncs || (at_end && trailer)) {
            /* a frame ends here; its raw time includes the reserved
             * records' deltas still held in the decoder's carry */
            fi.payload_bytes = (uint32_t)(pos - start);
            fi.payload_crc = trc_crc32(0, s + start, pos - start);
            put_frame(f, &fi, s + start);
            fi.index++;
            fi.records_before += fi.records;
            fi.time_before = time + d.carry;
            fi.records = 0;
            start = pos;
        }
        if (at_end)
            break;
    }
    if (!trailer) {
        cli_error("%s: %u complete frames (%llu records) written without "
                  "a trailer", a->pos[1], fi.index,
                  (unsigned long long)fi.records_before);
        return 1;
    }
    fi.payload_bytes = fi.payload_crc = 0; /* the trailer */
    put_frame(f, &fi, (const uint8_t *)"");
    return 0;
}

/* Appends to out a stream of its own: n records lost as LOST records (each
 * at most 2^VAL_W - 1), then SYNC, or END when end is set. 0, or 1 when out
 * of memory. */
static int put_lost(const trc_params *p, uint64_t n, int end, bytebuf *out)
{
    trc_encoder e;
    size_t used, len;
    uint64_t max = (UINT64_C(1) << p->val_w) - 1u;
    trc_encoder_init(&e, p);
    while (n) {
        trc_record l = {0, (uint32_t)(n < max ? n : max), 0, TRC_LOST};
        if (!room(out, TRC_MAX_RECORD_BYTES))
            return 1;
        trc_encode(&e, &l, 1, &used, out->b + out->len, TRC_MAX_RECORD_BYTES, &len);
        out->len += len;
        n -= l.a;
    }
    if (!room(out, TRC_MAX_RECORD_BYTES))
        return 1;
    if (end)
        trc_encode_end(&e, out->b + out->len, TRC_MAX_RECORD_BYTES, &len);
    else
        trc_encode_sync(&e, out->b + out->len, TRC_MAX_RECORD_BYTES, &len);
    out->len += len;
    return 0;
}

#define COUNT_MASK UINT32_C(0x7FFFFFFF)

/* A checked stream (docs/format.md 4.10) without its check words, for the
 * frames: each unit's CRC is verified and its zero bytes, count and check
 * word (and an END's closing units) dropped; the plain stream goes to *out.
 * After a unit that fails, the reading resumes as `trc decompress` does
 * (trc_check_find): *out is cut back to the last SYNC before the damage (a
 * frame starts from the reset state), and the records lost from there on,
 * which the next good unit's count word or an END's closing units tell, go
 * in as LOST records closed by a SYNC (END at the end): a frame of their
 * own. A closing unit that fails costs nothing. Returns 0 when all checks,
 * 1 when something failed but every loss is counted, 2 when the damage runs
 * to the end with no count after it (*out then ends at the last SYNC:
 * complete frames only), 3 when out of memory. Each failure is reported
 * with the file and the byte. */
static int strip_checks(const cli_args *a, const uint8_t *s, size_t len, bytebuf *out)
{
    static trc_record recs[4096];
    trc_decoder d;
    size_t pos = 0, ustart = 0, sync_pos = 0, last_sync = 0;
    uint32_t sync_count = 0; /* records before last_sync, mod 2^31 */
    int rc = 0;
    trc_decoder_init(&d, &a->p);
    d.check = 1;
    d.stop_at_mark = 1;
    while (pos < len) {
        size_t used, n;
        uint64_t cb = d.st.check_bits, syncs = d.st.sync;
        trc_error e = trc_decode(&d, s + pos, len - pos, &used, recs, 4096, &n, 1);
        size_t keep = used - (size_t)((d.st.check_bits - cb) / 8u);
        if (!room(out, keep))
            return 3;
        memcpy(out->b + out->len, s + pos, keep);
        out->len += keep;
        pos += used;
        if (d.st.check_bits != cb)
            ustart = pos; /* a unit (or a closing unit) ends here */
        if (d.st.sync != syncs) {
            last_sync = out->len;
            sync_pos = pos;
            sync_count = d.count & COUNT_MASK;
        }
        if (e == TRC_OK) {
            if (used == 0 && n == 0)
                break; /* not reached: final = 1 decodes to the end or fails */
            continue;
        }
        uint64_t bit = trc_decoder_bit_offset(&d);
        rc = 1;
        if (d.closing) { /* the unit before it checked: nothing lost */
            cli_error("%s: byte %llu: a closing unit after END fails its check, or "
                      "the stream ends inside them (no records lost)", a->pos[0],
                      (unsigned long long)pos);
            pos = len - pos < 8u * d.closing ? len : pos + 8u * d.closing;
            ustart = pos;
            d.closing = 0;
            continue;
        }
        cli_error("%s: byte %llu, bit %u: %s (%s)", a->pos[0],
                  (unsigned long long)(bit / 8u), (unsigned)(bit % 8u),
                  trc_error_text(e), trc_error_name(e));
        out->len = last_sync;
        size_t from = ustart + 8u, gap = sync_pos, c = 0, end = 0;
        uint64_t urecs, lost = 0;
        uint32_t count;
        int closed = 0; /* the last thing found is an END's closing unit */
        for (;;) {
            if (trc_check_find(&a->p, s, len, from, &c, &end, &urecs, &count) != TRC_OK) {
                if (closed && from == len)
                    break; /* the closing units at the end */
                cli_error("%s: byte %llu: no unit to resume at after it: %llu records "
                          "counted lost, and an unknown number of records is lost at "
                          "the end", a->pos[0],
                          (unsigned long long)ustart, (unsigned long long)lost);
                return 2;
            }
            uint32_t before = (count - (uint32_t)urecs) & COUNT_MASK;
            uint32_t k = (before - sync_count) & COUNT_MASK;
            if (k > 8u * (uint64_t)(c - gap)) { /* could not fit: look further */
                from = c + 8u;
                continue;
            }
            lost += k;
            sync_count = before;
            if (end - c > 8u)
                break;
            from = gap = end;
            closed = 1;
        }
        int at_end = closed && from == len;
        if ((lost || at_end) && put_lost(&a->p, lost, at_end, out))
            return 3;
        cli_error("%s: byte %llu: %s at byte %llu: %llu records lost (a frame of LOST "
                  "records in their place)", a->pos[0], (unsigned long long)ustart,
                  at_end ? "the stream's closing units" : "resumed",
                  (unsigned long long)(at_end ? len : c), (unsigned long long)lost);
        if (at_end)
            break;
        last_sync = out->len;
        trc_decoder_init(&d, &a->p);
        d.check = 1;
        d.stop_at_mark = 1;
        d.count = sync_count;
        pos = ustart = sync_pos = c;
    }
    return rc;
}

/* Cuts a bare stream (the core's output with SYNC_EVERY, or `trc compress
 * --raw --sync-every N`) at its SYNC records into the frames of a framed
 * container: a frame ends after each SYNC and at the end of the stream. */
int cmd_frame(const cli_args *a)
{
    if (trc_cpu_count(&a->p) > 1)
        return cli_reject(a, OPT_CPUS, "> 1: frames of several CPUs are not "
                          "defined (docs/format.md 4.9)");
    FILE *in = cli_in_open(a->pos[0]);
    if (!in)
        return 1;
    size_t len = 0;
    uint8_t *s = slurp(in, a->pos[0], &len);
    if (in != stdin)
        fclose(in);
    if (!s)
        return 1;
    const char *ins[] = {a->pos[0], NULL};
    cli_out *o = cli_out_open(a->pos[1], ins);
    if (!o) {
        free(s);
        return 1;
    }
    uint8_t hdr[TRC_HEADER_BYTES];
    trc_header_write_ex(&a->p, a->p.mode, TRC_FLAG_FRAMED, hdr);
    fwrite(hdr, 1, sizeof hdr, cli_out_file(o));
    /* A checked stream: its check words have protected the link; verified,
     * they are dropped, and the frames' CRCs protect storage from here on. */
    int damaged = 0;
    if (cli_given(a, OPT_CHECK)) {
        bytebuf plain = {NULL, 0, 0};
        damaged = strip_checks(a, s, len, &plain);
        free(s);
        s = plain.b;
        len = plain.len;
        if (damaged == 3) {
            cli_error("%s: out of memory", a->pos[0]);
            free(s);
            cli_out_close(o, 0);
            return 1;
        }
    }
    int rc = cut_frames(a, s ? s : (const uint8_t *)"", len, cli_out_file(o), damaged < 2);
    rc |= damaged != 0;
    free(s);
    /* On a decode error the complete frames are kept (docs/format.md 5.1). */
    if (cli_out_close(o, 1))
        rc = 1;
    return rc;
}
