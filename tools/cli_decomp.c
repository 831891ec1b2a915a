/*
 * cli_decomp.c - inputs compressed with xz or zstd, read as if they were
 * plain: the first bytes of every input are looked at, and xz (FD 37 7A 58
 * 5A 00) or zstd (28 B5 2F FD) data is decoded on the fly by liblzma or
 * libzstd, whatever the file is called. The caller sees a FILE *
 * (fopencookie) and reads it as it reads any file.
 *
 * Limits: xz's decoder may use up to 256 MiB (xz -9 needs 65 MiB); zstd's
 * window is libzstd's default limit (128 MiB); and the data may expand to at
 * most CLI_DECOMP_RATIO times the compressed bytes read (past the first
 * 64 MiB), so that a small crafted file cannot make a command run for hours.
 */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "trc_cli.h"

#define IN_BYTES (1u << 16)
#define XZ_MEMLIMIT (UINT64_C(256) << 20)
#define FREE_BYTES (UINT64_C(64) << 20) /* expansion allowed in any case */

enum { PLAIN, XZ, ZSTD };

typedef struct {
    FILE *src;      /* the file read; not closed when it is stdin */
    FILE *self;     /* the cookie FILE handed out */
    char *path;
    int kind;
    uint8_t in[IN_BYTES];
    size_t in_len, in_pos; /* PLAIN: the bytes read ahead, replayed first */
    uint64_t in_total;     /* compressed bytes read from src */
    uint64_t out_total;    /* bytes handed out */
    int in_eof, done, failed;
    size_t zs_left;        /* zstd: not 0 while a frame is unfinished */
    lzma_stream xz;
    ZSTD_DStream *zs;
    char msg[256];         /* the first error, for cli_in_error */
} dec;

/* The open decoders, to find a FILE's error message. */
#define MAX_OPEN 16
static dec *open_decs[MAX_OPEN];

static dec *find(FILE *f)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_decs[i] && open_decs[i]->self == f)
            return open_decs[i];
    return NULL;
}

static ssize_t fail(dec *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static ssize_t fail(dec *d, const char *fmt, ...)
{
    if (!d->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(d->msg, sizeof d->msg, fmt, ap);
        va_end(ap);
    }
    d->failed = 1;
    errno = EIO;
    return -1;
}

/* More compressed input; 0 at its end, -1 on a read error. */
static int refill(dec *d)
{
    if (d->in_pos < d->in_len || d->in_eof)
        return d->in_pos < d->in_len;
    d->in_len = fread(d->in, 1, sizeof d->in, d->src);
    d->in_pos = 0;
    d->in_total += d->in_len;
    if (d->in_len == 0) {
        if (ferror(d->src)) {
            fail(d, "%s: read error: %s", d->path, strerror(errno));
            return -1;
        }
        d->in_eof = 1;
    }
    return d->in_len > 0;
}

static const char *xz_text(lzma_ret r)
{
    switch (r) {
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_MEMLIMIT_ERROR: return "needs more than 256 MiB of memory";
    case LZMA_FORMAT_ERROR: return "not xz data";
    case LZMA_OPTIONS_ERROR: return "unsupported xz options";
    case LZMA_DATA_ERROR: return "compressed data is corrupt";
    case LZMA_BUF_ERROR: return "compressed data is truncated";
    default: return "decoder error";
    }
}

static ssize_t check_ratio(dec *d, size_t got)
{
    d->out_total += got;
    if (d->out_total > FREE_BYTES &&
        d->out_total / CLI_DECOMP_RATIO > d->in_total)
        return fail(d, "%s: %s data expands more than %u times (%" PRIu64
                    " bytes from %" PRIu64 "); refused as a decompression "
                    "bomb (decompress it yourself and pipe it in)", d->path,
                    d->kind == XZ ? "xz" : "zstd", CLI_DECOMP_RATIO,
                    d->out_total, d->in_total);
    return (ssize_t)got;
}

static ssize_t read_xz(dec *d, char *buf, size_t size)
{
    d->xz.next_out = (uint8_t *)buf;
    d->xz.avail_out = size;
    while (d->xz.avail_out == size && !d->done) {
        if (d->xz.avail_in == 0) {
            if (refill(d) < 0)
                return -1;
            d->xz.next_in = d->in + d->in_pos;
            d->xz.avail_in = d->in_len - d->in_pos;
            d->in_pos = d->in_len;
        }
        lzma_ret r = lzma_code(&d->xz, d->in_eof ? LZMA_FINISH : LZMA_RUN);
        if (r == LZMA_STREAM_END) {
            d->done = 1;
        } else if (r != LZMA_OK) {
            return fail(d, "%s: xz data, compressed byte %" PRIu64 ": %s "
                        "(liblzma %d)", d->path, d->in_total - d->xz.avail_in,
                        xz_text(r), (int)r);
        }
    }
    return check_ratio(d, size - d->xz.avail_out);
}

static ssize_t read_zstd(dec *d, char *buf, size_t size)
{
    ZSTD_outBuffer out = {buf, size, 0};
    while (out.pos == 0 && !d->done) {
        if (d->in_pos == d->in_len) {
            int r = refill(d);
            if (r < 0)
                return -1;
            if (r == 0) {
                if (d->zs_left)
                    return fail(d, "%s: zstd data, compressed byte %" PRIu64
                                ": compressed data is truncated", d->path,
                                d->in_total);
                d->done = 1;
                break;
            }
        }
        ZSTD_inBuffer in = {d->in, d->in_len, d->in_pos};
        size_t r = ZSTD_decompressStream(d->zs, &out, &in);
        if (ZSTD_isError(r))
            return fail(d, "%s: zstd data, compressed byte %" PRIu64 ": %s "
                        "(libzstd)", d->path,
                        d->in_total - (d->in_len - in.pos),
                        ZSTD_getErrorName(r));
        d->in_pos = in.pos;
        d->zs_left = r;
    }
    return check_ratio(d, out.pos);
}

static ssize_t dec_read(void *cookie, char *buf, size_t size)
{
    dec *d = cookie;
    if (d->failed) {
        errno = EIO;
        return -1;
    }
    if (d->kind == XZ)
        return read_xz(d, buf, size);
    if (d->kind == ZSTD)
        return read_zstd(d, buf, size);
    if (d->in_pos < d->in_len) { /* the bytes read ahead, then the rest */
        size_t n = d->in_len - d->in_pos < size ? d->in_len - d->in_pos : size;
        memcpy(buf, d->in + d->in_pos, n);
        d->in_pos += n;
        return (ssize_t)n;
    }
    size_t n = fread(buf, 1, size, d->src);
    if (n == 0 && ferror(d->src)) {
        errno = errno ? errno : EIO;
        return -1;
    }
    return (ssize_t)n;
}

static void dec_free(dec *d)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_decs[i] == d)
            open_decs[i] = NULL;
    if (d->kind == XZ)
        lzma_end(&d->xz);
    ZSTD_freeDStream(d->zs);
    free(d->path);
    free(d);
}

static int dec_close(void *cookie)
{
    dec *d = cookie;
    int rc = 0;
    if (d->src != stdin)
        rc = fclose(d->src);
    dec_free(d);
    return rc;
}

FILE *cli_decomp_wrap(FILE *f, const char *path)
{
    uint8_t head[6];
    off_t start = ftello(f);
    size_t n = fread(head, 1, sizeof head, f);
    if (n == 0 && ferror(f)) {
        cli_error("%s: read error: %s", path, strerror(errno));
        return NULL;
    }
    static const uint8_t xz_magic[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    static const uint8_t zs_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    int kind = n == 6 && !memcmp(head, xz_magic, 6)   ? XZ
               : n >= 4 && !memcmp(head, zs_magic, 4) ? ZSTD
                                                      : PLAIN;
    /* Plain data that can be read again from the start needs no wrapper. */
    if (kind == PLAIN && start >= 0 && fseeko(f, start, SEEK_SET) == 0)
        return f;
    clearerr(f);
    int slot = -1;
    for (int i = 0; i < MAX_OPEN && slot < 0; i++)
        if (!open_decs[i])
            slot = i;
    dec *d = slot >= 0 ? calloc(1, sizeof *d) : NULL;
    if (!d || !(d->path = strdup(path))) {
        cli_error("%s: %s", path, slot < 0 ? "too many compressed inputs open"
                                           : "out of memory");
        free(d);
        return NULL;
    }
    d->src = f;
    d->kind = kind;
    memcpy(d->in, head, n);
    d->in_len = n;
    d->in_total = n;
    if (kind == XZ) {
        lzma_stream init = LZMA_STREAM_INIT;
        d->xz = init;
        if (lzma_stream_decoder(&d->xz, XZ_MEMLIMIT, LZMA_CONCATENATED) !=
            LZMA_OK) {
            cli_error("%s: cannot start the xz decoder", path);
            free(d->path);
            free(d);
            return NULL;
        }
    } else if (kind == ZSTD && !(d->zs = ZSTD_createDStream())) {
        cli_error("%s: cannot start the zstd decoder", path);
        free(d->path);
        free(d);
        return NULL;
    }
    cookie_io_functions_t io = {dec_read, NULL, NULL, dec_close};
    if (!(d->self = fopencookie(d, "rb", io))) {
        cli_error("%s: %s", path, strerror(errno));
        dec_free(d); /* f stays the caller's */
        return NULL;
    }
    open_decs[slot] = d;
    return d->self;
}

void cli_in_error(FILE *f, const char *path)
{
    dec *d = find(f);
    if (d && d->failed)
        cli_error("%s", d->msg);
    else
        cli_error("%s: read error: %s", path, strerror(errno ? errno : EIO));
}

void cli_in_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

FILE *cli_in_source(FILE *f)
{
    dec *d = find(f);
    return d ? d->src : f;
}

uint64_t cli_in_position(FILE *f)
{
    dec *d = find(f);
    if (d)
        return d->in_total;
    off_t o = ftello(f);
    return o > 0 ? (uint64_t)o : 0;
}
