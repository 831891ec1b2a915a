/*
 * cli_common.c - what the trc subcommands share: messages, format options,
 * files ("-" = stdin/stdout) and a reader that yields trace records from
 * text v1, a .trc container or a bare stream, with errors that name the file
 * and the line or the byte and bit offset.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
                                        "--value-bits", "--dict-bits"};
    const char *arg = argv[*i], *val = NULL;
    size_t k;
    for (k = 0; k < 5; k++) {
        size_t n = strlen(names[k]);
        if (!strncmp(arg, names[k], n) && (arg[n] == '\0' || arg[n] == '=')) {
            val = arg[n] == '=' ? arg + n + 1 : NULL;
            break;
        }
    }
    if (k == 5)
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
    default: p->nd_f = v[0]; p->nd_t = v[1]; p->nd_v = v[2]; break;
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
    int eof, done, err;  /* input exhausted; no more records; error pending */
    uint8_t *buf;
    size_t blen, bpos;
    uint64_t buf_base;   /* file offset of buf[0] */
    uint64_t header;     /* container header bytes before the stream */
    uint64_t lineno;
    trc_params p;
    trc_decoder dec;
    trc_record out[OUT_RECS];
    size_t on, oi;
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
    if (!rd->eof && rd->blen < BUF_BYTES) {
        got = fread(rd->buf + rd->blen, 1, BUF_BYTES - rd->blen, rd->f);
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
    cli_reader *rd = calloc(1, sizeof *rd);
    if (!rd || !(rd->buf = malloc(BUF_BYTES))) {
        cli_error("out of memory");
        free(rd);
        return NULL;
    }
    rd->path = path;
    rd->p = *p;
    if (!(rd->f = cli_open_in(path))) {
        cli_reader_close(rd);
        return NULL;
    }
    while (rd->blen < TRC_HEADER_BYTES && !rd->eof)
        refill(rd);
    unsigned mode;
    trc_error e = raw ? TRC_ERR_MAGIC
                      : trc_header_read(rd->buf, rd->blen, &rd->p, &mode);
    if (e == TRC_OK) {
        rd->stream = 1;
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

int cli_reader_next(cli_reader *rd, trc_record *r)
{
    return rd->stream ? next_stream(rd, r) : next_text(rd, r);
}

const trc_params *cli_reader_params(const cli_reader *rd)
{
    return &rd->p;
}

const trc_stats *cli_reader_stats(const cli_reader *rd)
{
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
    free(rd);
}
