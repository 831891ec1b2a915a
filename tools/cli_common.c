/*
 * cli_common.c - what the trc subcommands share: messages, format options,
 * files ("-" = stdin/stdout) and a reader that yields trace records from
 * text v1, a .trc container or a bare stream, with errors that name the file
 * and the line or the byte and bit offset.
 */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trc_cli.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("trc: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int parse_uint(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || v > 64)
        return 0;
    *out = (unsigned)v;
    return 1;
}

int cli_param_option(int argc, char **argv, int *i, trc_params *p, int *given)
{
    static const char *const names[] = {"--nt", "--fid-bits", "--type-bits",
                                        "--value-bits", "--dict-bits", "--mode",
                                        "--table-bits", "--stack-depth"};
    enum { NNAMES = sizeof names / sizeof names[0] };
    const char *arg = argv[*i], *val = NULL;
    size_t k;
    for (k = 0; k < NNAMES; k++) {
        size_t n = strlen(names[k]);
        if (!strncmp(arg, names[k], n) && (arg[n] == '\0' || arg[n] == '=')) {
            val = arg[n] == '=' ? arg + n + 1 : NULL;
            break;
        }
    }
    if (k == NNAMES)
        return 0;
    if (!val) {
        if (*i + 1 >= argc) {
            cli_error("%s needs a value", names[k]);
            return -1;
        }
        val = argv[++*i];
    }
    unsigned v[3];
    int ok;
    if (k == 5) {
        /* The stack modes start from their defaults (stack mode 2 also
         * from its dictionary sizes); SK, SD and SO are zero in paper mode.
         * --table-bits/--stack-depth/--dict-bits given later override them. */
        if (!strcmp(val, "stack")) {
            p->mode = TRC_MODE_STACK;
            trc_params d = trc_params_stack();
            p->sk = p->sk ? p->sk : d.sk;
            p->sd = p->sd ? p->sd : d.sd;
            p->so = 0;
        } else if (!strcmp(val, "stack2")) {
            p->mode = TRC_MODE_STACK2;
            trc_params d = trc_params_stack2();
            p->sk = p->sk ? p->sk : d.sk;
            p->sd = p->sd ? p->sd : d.sd;
            p->so = d.so;
            p->nd_f = d.nd_f;
            p->nd_t = d.nd_t;
            p->nd_v = d.nd_v;
        } else if (!strcmp(val, "paper")) {
            p->mode = TRC_MODE_PAPER;
            p->sk = p->sd = p->so = 0;
        } else {
            cli_error("--mode: '%s' is not paper, stack or stack2", val);
            return -1;
        }
        if (given)
            *given = 1;
        return 1;
    }
    if (k == 4 && strchr(val, ',')) {
        char buf[32];
        snprintf(buf, sizeof buf, "%s", val);
        char *b = buf, *c1 = strchr(b, ','), *c2 = c1 ? strchr(c1 + 1, ',') : 0;
        ok = c1 && c2 && !strchr(c2 + 1, ',');
        if (ok) {
            *c1 = *c2 = '\0';
            ok = parse_uint(b, &v[0]) && parse_uint(c1 + 1, &v[1]) &&
                 parse_uint(c2 + 1, &v[2]);
        }
    } else {
        ok = parse_uint(val, &v[0]);
        v[1] = v[2] = v[0];
    }
    if (!ok) {
        cli_error("%s: bad value '%s'", names[k], val);
        return -1;
    }
    switch (k) {
    case 0: p->nt = v[0]; break;
    case 1: p->fid_w = v[0]; break;
    case 2: p->type_w = v[0]; break;
    case 3: p->val_w = v[0]; break;
    case 4: p->nd_f = v[0]; p->nd_t = v[1]; p->nd_v = v[2]; break;
    case 6: p->sk = v[0]; break;
    default: p->sd = v[0]; break;
    }
    if (k >= 6 && p->mode != TRC_MODE_STACK && p->mode != TRC_MODE_STACK2) {
        cli_error("%s needs --mode stack before it", names[k]);
        return -1;
    }
    if (given)
        *given = 1;
    return 1;
}

FILE *cli_open_in(const char *path)
{
    if (!strcmp(path, "-"))
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f)
        cli_error("%s: %s", path, strerror(errno));
    return f;
}

FILE *cli_open_out(const char *path)
{
    if (!strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "wb");
    if (!f)
        cli_error("%s: %s", path, strerror(errno));
    return f;
}

int cli_close(FILE *f, const char *path)
{
    int bad = ferror(f) != 0;
    if (f == stdin || f == stdout)
        bad |= fflush(f) != 0;
    else
        bad |= fclose(f) != 0;
    if (bad)
        cli_error("%s: write error", path);
    return bad ? -1 : 0;
}

/* ---- Reader --------------------------------------------------------------- */

#define BUF_BYTES (1u << 16)
#define OUT_RECS 1024

struct cli_reader {
    FILE *f;
    const char *path;
    int stream;          /* 1: .trc or raw stream, 0: text */
    int framed;          /* framed container (docs/format.md 5.1) */
    int eof, done, err;  /* input exhausted; no more records; error pending */
    uint8_t *buf;
    size_t cap, blen, bpos;
    uint64_t buf_base;   /* file offset of buf[0] */
    uint64_t header;     /* container header bytes before the stream */
    uint64_t lineno;
    trc_params p;
    trc_decoder dec;
    trc_record out[OUT_RECS];
    size_t on, oi;
    /* framed containers */
    trc_record *q;           /* the current frame's records, L marks first */
    size_t qcap, qn, qi;
    uint32_t expect;         /* next frame index */
    uint32_t from_frame;     /* frames before it are skipped on purpose */
    int started, trailer;
    uint64_t seen;           /* trace records accounted for (read or lost) */
    uint64_t last_time;      /* ticks up to the end of the last good frame */
    unsigned damage;         /* damage events reported */
    uint64_t nread;          /* records handed out, for progress lines */
    int progress;            /* 1: progress lines on stderr */
    trc_stats sum;           /* figures of all good frames */
};

/* Moves unread bytes to the front and reads more; returns bytes added. */
static size_t refill(cli_reader *rd)
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
        if (got == 0) {
            if (ferror(rd->f))
                cli_error("%s: read error", rd->path);
            rd->eof = 1;
        }
    }
    return got;
}

cli_reader *cli_reader_open(const char *path, const trc_params *p, int raw)
{
    FILE *f = cli_open_in(path);
    return f ? cli_reader_from(f, path, p, raw) : NULL;
}

cli_reader *cli_reader_from(FILE *f, const char *name, const trc_params *p,
                            int raw)
{
    const char *path = name;
    cli_reader *rd = calloc(1, sizeof *rd);
    if (!rd || !(rd->buf = malloc(BUF_BYTES))) {
        cli_error("out of memory");
        free(rd);
        if (f != stdin)
            fclose(f);
        return NULL;
    }
    rd->cap = BUF_BYTES;
    rd->progress = -1;
    rd->path = path;
    rd->p = *p;
    rd->f = f;
    while (rd->blen < TRC_HEADER_BYTES && !rd->eof)
        refill(rd);
    unsigned mode, flags = 0;
    /* An empty input is an empty text trace, not a cut header. */
    trc_error e = raw || rd->blen == 0
                      ? TRC_ERR_MAGIC
                      : trc_header_read_ex(rd->buf, rd->blen, &rd->p, &mode,
                                           &flags);
    if (e == TRC_OK) {
        rd->stream = 1;
        rd->framed = (flags & TRC_FLAG_FRAMED) != 0;
        rd->header = rd->bpos = TRC_HEADER_BYTES;
    } else if (e != TRC_ERR_MAGIC) {
        cli_error("%s: bad .trc header: %s", path, trc_error_text(e));
        cli_reader_close(rd);
        return NULL;
    } else {
        rd->stream = raw;
    }
    if (trc_params_check(&rd->p) != TRC_OK) {
        cli_error("format parameters out of range (see docs/format.md)");
        cli_reader_close(rd);
        return NULL;
    }
    if (rd->stream)
        trc_decoder_init(&rd->dec, &rd->p);
    return rd;
}

static int next_text(cli_reader *rd, trc_record *r)
{
    for (;;) {
        char *s = (char *)rd->buf + rd->bpos;
        size_t avail = rd->blen - rd->bpos;
        char *nl = memchr(s, '\n', avail);
        if (!nl && !rd->eof) {
            size_t before = rd->blen - rd->bpos;
            refill(rd);
            if (rd->blen - rd->bpos == before && !rd->eof) {
                cli_error("%s:%llu: line longer than %u bytes", rd->path,
                          (unsigned long long)rd->lineno + 1u, BUF_BYTES);
                return -1;
            }
            continue;
        }
        if (!nl && avail == 0)
            return 0;
        size_t len = nl ? (size_t)(nl - s) : avail;
        rd->bpos += len + (nl != NULL);
        rd->lineno++;
        int is_rec;
        size_t col;
        trc_error e = trc_text_parse(&rd->p, s, len, r, &is_rec, &col);
        if (e != TRC_OK) {
            cli_error("%s:%llu:%zu: %s (%s)", rd->path,
                      (unsigned long long)rd->lineno, col, trc_error_text(e),
                      trc_error_name(e));
            return -1;
        }
        if (is_rec)
            return 1;
    }
}

static int next_stream(cli_reader *rd, trc_record *r)
{
    while (rd->oi == rd->on) {
        if (rd->err || rd->done) {
            if (rd->err) {
                uint64_t bit = trc_decoder_bit_offset(&rd->dec);
                cli_error("%s: byte %llu, bit %u: %s (%s)", rd->path,
                          (unsigned long long)(rd->header + bit / 8u),
                          (unsigned)(bit % 8u), trc_error_text(rd->err),
                          trc_error_name(rd->err));
                return -1;
            }
            return 0;
        }
        if (!rd->eof && rd->blen - rd->bpos < BUF_BYTES / 2)
            refill(rd);
        size_t used;
        trc_error e = trc_decode(&rd->dec, rd->buf + rd->bpos,
                                 rd->blen - rd->bpos, &used, rd->out, OUT_RECS,
                                 &rd->on, rd->eof);
        rd->bpos += used;
        rd->oi = 0;
        if (e != TRC_OK)
            rd->err = e;
        else if (rd->eof && rd->on < OUT_RECS)
            rd->done = 1;
    }
    *r = rd->out[rd->oi++];
    return 1;
}

/* ---- Framed containers -------------------------------------------------- */

/* Makes n bytes available from bpos unless the input ends first. */
static size_t ensure(cli_reader *rd, size_t n)
{
    while (rd->blen - rd->bpos < n && !rd->eof) {
        if (n > rd->cap) {
            uint8_t *nb = realloc(rd->buf, n);
            if (!nb)
                break;
            rd->buf = nb;
            rd->cap = n;
        }
        if (refill(rd) == 0 && !rd->eof && rd->blen == rd->cap)
            break;
    }
    return rd->blen - rd->bpos;
}

static uint64_t file_off(const cli_reader *rd)
{
    return rd->buf_base + rd->bpos;
}

static int queue(cli_reader *rd, const trc_record *r)
{
    if (rd->qn == rd->qcap) {
        size_t nc = rd->qcap ? 2 * rd->qcap : 4096;
        trc_record *nq = realloc(rd->q, nc * sizeof *nq);
        if (!nq) {
            cli_error("out of memory");
            return -1;
        }
        rd->q = nq;
        rd->qcap = nc;
    }
    rd->q[rd->qn++] = *r;
    return 0;
}

/* Skips forward to the next valid frame header; reports the damaged bytes. */
static void resync(cli_reader *rd, const char *why)
{
    uint64_t from = file_off(rd);
    trc_frame_info fi;
    rd->bpos++;
    while (ensure(rd, TRC_FRAME_HEADER_BYTES) >= 4 &&
           trc_frame_header_read(rd->buf + rd->bpos, rd->blen - rd->bpos,
                                 &fi) != TRC_OK)
        rd->bpos++;
    if (rd->blen - rd->bpos < 4)
        rd->bpos = rd->blen;
    rd->damage++;
    cli_error("%s: byte %llu: %s; skipped %llu bytes to %s", rd->path,
              (unsigned long long)from, why,
              (unsigned long long)(file_off(rd) - from),
              rd->bpos < rd->blen ? "the next frame" : "the end");
}

/* Decodes one frame's payload on its own into the queue. */
static trc_error decode_frame(cli_reader *rd, const trc_frame_info *fi,
                              const uint8_t *pl, uint64_t *sum, uint64_t *carry)
{
    trc_decoder d;
    size_t pos = 0, used, got;
    trc_record chunk[OUT_RECS];
    trc_error e;
    uint64_t n = 0;
    trc_decoder_init(&d, &rd->p);
    *sum = 0;
    do {
        e = trc_decode(&d, pl + pos, fi->payload_bytes - pos, &used, chunk,
                       OUT_RECS, &got, 1);
        pos += used;
        for (size_t i = 0; i < got; i++) {
            *sum += chunk[i].delta;
            if (queue(rd, &chunk[i]))
                return TRC_ERR_DST_SMALL;
        }
        n += got;
    } while (e == TRC_OK && got == OUT_RECS);
    if (e == TRC_OK && (pos != fi->payload_bytes || n != fi->records))
        e = TRC_ERR_CORRUPT; /* the frame does not end where it says */
    if (e == TRC_OK) {
        *carry = d.carry;
        for (int f = 0; f < TRC_F__COUNT; f++) {
            rd->sum.raw_bits[f] += d.st.raw_bits[f];
            rd->sum.coded_bits[f] += d.st.coded_bits[f];
        }
        rd->sum.function += d.st.function;
        rd->sum.os += d.st.os;
        rd->sum.time_ext += d.st.time_ext;
        rd->sum.end += d.st.end;
        rd->sum.sync += d.st.sync;
        rd->sum.lost += d.st.lost;
        rd->sum.kind_bits += d.st.kind_bits;
        rd->sum.pad_bits += d.st.pad_bits;
        for (int k = 0; k < 3; k++) {
            rd->sum.lookups[k] += d.st.lookups[k];
            rd->sum.hits[k] += d.st.hits[k];
        }
    }
    return e;
}

/* Queues the records lost before frame fi as L records (each count fits
 * VAL_W); the first carries the time up to the frame. */
static int queue_lost(cli_reader *rd, const trc_frame_info *fi)
{
    uint64_t lost = fi->records_before - rd->seen;
    uint64_t max = (UINT64_C(1) << rd->p.val_w) - 1u;
    cli_error("%s: frames %u..%u lost: %llu records (marked with L)", rd->path,
              rd->expect, fi->index - 1u, (unsigned long long)lost);
    rd->damage++;
    while (lost) {
        trc_record l = {0, (uint32_t)(lost < max ? lost : max), 0, TRC_LOST};
        lost -= l.a;
        if (queue(rd, &l))
            return -1;
    }
    return 0;
}

/* Loads the next good frame into the queue. 1: queued, 0: end, -1: error. */
static int next_frame(cli_reader *rd)
{
    rd->qn = rd->qi = 0;
    while (!rd->trailer) {
        trc_frame_info fi;
        size_t avail = ensure(rd, TRC_FRAME_HEADER_BYTES);
        if (avail == 0) {
            rd->damage++;
            cli_error("%s: byte %llu: stream ends without its trailer after "
                      "%llu records: an unknown number of records is lost at "
                      "the end", rd->path, (unsigned long long)file_off(rd),
                      (unsigned long long)rd->seen);
            return 0;
        }
        trc_error e = trc_frame_header_read(rd->buf + rd->bpos, avail, &fi);
        if (e != TRC_OK) {
            resync(rd, e == TRC_ERR_TRUNCATED ? "truncated frame header"
                                              : "no valid frame header");
            continue;
        }
        if (fi.index < rd->expect || fi.records_before < rd->seen) {
            resync(rd, "frame header out of sequence");
            continue;
        }
        size_t need = TRC_FRAME_HEADER_BYTES + (size_t)fi.payload_bytes;
        if (ensure(rd, need) < need) {
            char why[64];
            snprintf(why, sizeof why, "frame %u truncated", fi.index);
            resync(rd, why);
            continue;
        }
        const uint8_t *pl = rd->buf + rd->bpos + TRC_FRAME_HEADER_BYTES;
        int is_trailer = fi.payload_bytes == 0 && fi.records == 0;
        if (!is_trailer && trc_crc32(0, pl, fi.payload_bytes) != fi.payload_crc) {
            char why[64];
            snprintf(why, sizeof why, "frame %u fails its check value", fi.index);
            resync(rd, why);
            continue;
        }
        if (fi.index < rd->from_frame && !is_trailer) {
            rd->bpos += need; /* skipped on purpose, not lost */
            rd->expect = fi.index + 1u;
            rd->seen = fi.records_before + fi.records;
            continue;
        }
        if (!rd->started) {
            rd->started = 1;
            rd->seen = rd->from_frame ? fi.records_before : 0;
        }
        if (fi.records_before > rd->seen && queue_lost(rd, &fi))
            return -1;
        size_t first = rd->qn;
        uint64_t sum = 0, carry = 0;
        if (!is_trailer) {
            e = decode_frame(rd, &fi, pl, &sum, &carry);
            if (e != TRC_OK) {
                rd->qn = first;
                char why[96];
                snprintf(why, sizeof why, "frame %u does not decode (%s)",
                         fi.index, trc_error_name(e));
                resync(rd, why);
                continue;
            }
        }
        /* Time from the last good frame (or the trace start) up to this one
         * goes to the first record queued. */
        uint64_t gap = fi.time_before >= rd->last_time
                           ? fi.time_before - rd->last_time : 0;
        if (rd->qn > 0)
            rd->q[0].delta += gap;
        rd->last_time = fi.time_before + sum + carry;
        rd->seen = fi.records_before + fi.records;
        rd->expect = fi.index + 1u;
        rd->bpos += need;
        if (is_trailer) {
            rd->trailer = 1;
            if (ensure(rd, 1) > 0) {
                rd->damage++;
                cli_error("%s: byte %llu: bytes after the trailer ignored",
                          rd->path, (unsigned long long)file_off(rd));
            }
        }
        if (rd->qn > 0)
            return 1;
    }
    return 0;
}

static int next_framed(cli_reader *rd, trc_record *r)
{
    while (rd->qi == rd->qn) {
        int got = next_frame(rd);
        if (got <= 0)
            return got;
    }
    *r = rd->q[rd->qi++];
    return 1;
}

void cli_reader_from_frame(cli_reader *rd, uint32_t k)
{
    rd->from_frame = k;
}

unsigned cli_reader_damage(const cli_reader *rd)
{
    return rd->damage;
}

/* Long runs say how far they are: a line on stderr every 2^20 records when
 * stderr is a terminal, or always with TRC_PROGRESS=1 (TRC_PROGRESS=0: never). */
#define PROGRESS_EVERY (UINT64_C(1) << 20)

static void progress(cli_reader *rd)
{
    if (rd->progress < 0) {
        const char *env = getenv("TRC_PROGRESS");
        rd->progress = env ? env[0] == '1' : isatty(2);
    }
    if (rd->progress)
        fprintf(stderr, "trc: %s: %llu records read\n", rd->path,
                (unsigned long long)rd->nread);
}

int cli_reader_next(cli_reader *rd, trc_record *r)
{
    int got;
    if (rd->framed)
        got = next_framed(rd, r);
    else
        got = rd->stream ? next_stream(rd, r) : next_text(rd, r);
    if (got == 1 && ++rd->nread % PROGRESS_EVERY == 0)
        progress(rd);
    return got;
}

const trc_params *cli_reader_params(const cli_reader *rd)
{
    return &rd->p;
}

const trc_stats *cli_reader_stats(const cli_reader *rd)
{
    if (rd->framed)
        return &rd->sum;
    return rd->stream ? &rd->dec.st : NULL;
}

uint64_t cli_reader_stream_bytes(const cli_reader *rd)
{
    return rd->stream ? rd->buf_base + rd->bpos - rd->header : 0;
}

int cli_reader_is_stream(const cli_reader *rd)
{
    return rd->stream;
}

void cli_reader_close(cli_reader *rd)
{
    if (!rd)
        return;
    if (rd->f && rd->f != stdin)
        fclose(rd->f);
    free(rd->buf);
    free(rd->q);
    free(rd);
}
