/*
 * cmd_codec.c - the codec subcommands: compress (any trace -> .trc),
 * decompress (.trc -> canonical text v1), stats (the paper's Table 2) and
 * convert (text v1 <-> bin v1).
 */
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"

#define CHUNK_RECS 4096
#define OUT_BYTES (1u << 16)

typedef struct {
    const char *in, *out;
    int raw, json;
    const char *to;
    unsigned long frame, from_frame; /* --frame N, --from-frame K */
    unsigned long sync_every;        /* --sync-every N (bare streams) */
    trc_params p;
} opts;

static int parse_count(const char *opt, const char *v, unsigned long *out)
{
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    if (end == v || *end || v[0] == '-' || x > 0xffffffffUL) {
        cli_error("%s: bad count '%s'", opt, v);
        return 0;
    }
    *out = x;
    return 1;
}

/* Parses "IN [OUT] [options]"; returns 0 on success, 2 on bad usage. */
static int parse_opts(int argc, char **argv, int want_out, opts *o)
{
    int npos = 0;
    memset(o, 0, sizeof *o);
    o->p = trc_params_paper();
    for (int i = 1; i < argc; i++) {
        int r = cli_param_option(argc, argv, &i, &o->p, NULL);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (!strcmp(argv[i], "--raw")) {
            o->raw = 1;
        } else if (!strcmp(argv[i], "--json")) {
            o->json = 1;
        } else if (!strcmp(argv[i], "--to") && i + 1 < argc) {
            o->to = argv[++i];
        } else if (!strcmp(argv[i], "--frame") && i + 1 < argc) {
            if (!parse_count("--frame", argv[++i], &o->frame))
                return 2;
        } else if (!strcmp(argv[i], "--sync-every") && i + 1 < argc) {
            if (!parse_count("--sync-every", argv[++i], &o->sync_every))
                return 2;
        } else if (!strcmp(argv[i], "--from-frame") && i + 1 < argc) {
            if (!parse_count("--from-frame", argv[++i], &o->from_frame))
                return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("%s: unknown option '%s'", argv[0], argv[i]);
            return 2;
        } else if (npos == 0) {
            o->in = argv[i];
            npos++;
        } else if (npos == 1 && want_out) {
            o->out = argv[i];
            npos++;
        } else {
            cli_error("%s: unexpected argument '%s'", argv[0], argv[i]);
            return 2;
        }
    }
    if (npos != 1 + want_out) {
        cli_error("usage: trc %s IN%s [options] (trc --help)", argv[0],
                  want_out ? " OUT" : "");
        return 2;
    }
    if (trc_params_check(&o->p) != TRC_OK) {
        cli_error("format parameters out of range: NT 2..32, fid-bits 1..31, "
                  "type-bits 3..16, value-bits 1..32, dict-bits 1..8 and at "
                  "most the field's bits; stack modes: table-bits 4..12, "
                  "stack-depth 1..64");
        return 2;
    }
    return 0;
}

/* Encodes every record of rd, then END, into f; with sync_every > 0 a SYNC
 * follows every sync_every records, as the core's SYNC_EVERY. Returns 0/1. */
static int encode_all(cli_reader *rd, const trc_params *p, FILE *f,
                      const char *out, unsigned long sync_every)
{
    unsigned long since_sync = 0;
    trc_encoder enc;
    trc_record *recs = malloc(CHUNK_RECS * sizeof *recs);
    uint8_t *buf = malloc(OUT_BYTES);
    int rc = 0, more = 1;
    if (!recs || !buf) {
        cli_error("out of memory");
        rc = 1;
        goto done;
    }
    trc_encoder_init(&enc, p);
    while (more && rc == 0) {
        size_t n = 0;
        int got = 1;
        while (n < CHUNK_RECS && (got = cli_reader_next(rd, &recs[n])) == 1)
            n++;
        if (got < 0)
            rc = 1;
        more = got == 1;
        size_t at = 0;
        while (at < n) {
            size_t used, len, todo = n - at;
            if (sync_every && todo > sync_every - since_sync)
                todo = sync_every - since_sync;
            trc_error e = trc_encode(&enc, recs + at, todo, &used, buf,
                                     OUT_BYTES, &len);
            if (e != TRC_OK) { /* cannot happen: records come checked */
                cli_error("%s: %s", out, trc_error_text(e));
                rc = 1;
                break;
            }
            fwrite(buf, 1, len, f);
            at += used;
            since_sync += used;
            if (sync_every && since_sync == sync_every && (at < n || more)) {
                trc_encode_sync(&enc, buf, OUT_BYTES, &len);
                fwrite(buf, 1, len, f);
                since_sync = 0;
            }
        }
    }
    if (rc == 0) {
        size_t len;
        trc_encode_end(&enc, buf, OUT_BYTES, &len);
        fwrite(buf, 1, len, f);
    }
done:
    free(recs);
    free(buf);
    return rc;
}

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

static void put_frame(FILE *f, const trc_frame_info *fi, const uint8_t *pl)
{
    uint8_t h[TRC_FRAME_HEADER_BYTES];
    trc_frame_header_write(fi, h);
    fwrite(h, 1, sizeof h, f);
    fwrite(pl, 1, fi->payload_bytes, f);
}

/* Encodes rd as frames of n trace records: each frame starts from the reset
 * state and ends with SYNC (the last with END); a trailer closes the file. */
static int encode_framed(cli_reader *rd, const trc_params *p, FILE *f,
                         unsigned long n)
{
    trc_encoder enc;
    trc_frame_info fi = {0, 0, 0, 0, 0, 0};
    bytebuf pl = {NULL, 0, 0};
    uint64_t time = 0;
    trc_record r;
    int got, more = 1;
    trc_encoder_init(&enc, p);
    while (more) {
        got = cli_reader_next(rd, &r);
        if (got < 0)
            break;
        more = got == 1;
        if (more) {
            size_t done = 0, len;
            while (!done) {
                if (!room(&pl, 4096))
                    goto oom;
                trc_encode(&enc, &r, 1, &done, pl.b + pl.len, pl.cap - pl.len,
                           &len);
                pl.len += len;
            }
            time += r.delta;
            fi.records++;
        }
        if (fi.records == n || (!more && (fi.records || fi.index == 0))) {
            size_t len;
            if (!room(&pl, TRC_MAX_RECORD_BYTES))
                goto oom;
            if (more)
                trc_encode_sync(&enc, pl.b + pl.len, TRC_MAX_RECORD_BYTES, &len);
            else
                trc_encode_end(&enc, pl.b + pl.len, TRC_MAX_RECORD_BYTES, &len);
            pl.len += len;
            if (pl.len > 0xffffffffu) {
                cli_error("--frame %lu: a frame exceeds 4 GiB", n);
                free(pl.b);
                return 1;
            }
            fi.payload_bytes = (uint32_t)pl.len;
            fi.payload_crc = trc_crc32(0, pl.b, pl.len);
            put_frame(f, &fi, pl.b);
            fi.index++;
            fi.records_before += fi.records;
            fi.time_before = time;
            fi.records = 0;
            pl.len = 0;
        }
    }
    free(pl.b);
    if (got < 0)
        return 1;
    fi.payload_bytes = fi.payload_crc = 0; /* the trailer */
    put_frame(f, &fi, (const uint8_t *)"");
    return 0;
oom:
    cli_error("out of memory");
    free(pl.b);
    return 1;
}

int cmd_compress(int argc, char **argv)
{
    opts o;
    int rc = parse_opts(argc, argv, 1, &o);
    if (rc)
        return rc;
    /* Text is read with the output's parameters, so range errors name it. */
    cli_reader *rd = cli_reader_open(o.in, &o.p, 0);
    if (!rd)
        return 1;
    FILE *f = cli_open_out(o.out);
    if (!f) {
        cli_reader_close(rd);
        return 1;
    }
    uint8_t hdr[TRC_HEADER_BYTES];
    if (o.frame && o.raw) {
        cli_error("--frame needs the container (drop --raw)");
        rc = 2;
    } else {
        if (!o.raw) {
            trc_header_write_ex(&o.p, o.p.mode,
                                o.frame ? TRC_FLAG_FRAMED : 0, hdr);
            fwrite(hdr, 1, sizeof hdr, f);
        }
        rc = o.frame ? encode_framed(rd, &o.p, f, o.frame)
                     : encode_all(rd, &o.p, f, o.out, o.sync_every);
    }
    if (cli_close(f, o.out))
        rc = 1;
    if (rc && strcmp(o.out, "-"))
        remove(o.out); /* no half-written .trc is left behind */
    cli_reader_close(rd);
    return rc;
}

/* ---- frame: a bare stream with SYNC frames -> framed container ------ */

/* Reads all of f into memory. */
static uint8_t *slurp(FILE *f, size_t *len)
{
    bytebuf b = {NULL, 0, 0};
    for (;;) {
        if (!room(&b, 1u << 16)) {
            free(b.b);
            return NULL;
        }
        size_t got = fread(b.b + b.len, 1, b.cap - b.len, f);
        b.len += got;
        if (got == 0)
            break;
    }
    *len = b.len;
    return b.b;
}

/* Cuts a bare stream (the core's output with SYNC_EVERY, or `trc compress
 * --raw --sync-every N`) at its SYNC records into the frames of a framed
 * container: a frame ends after each SYNC and at the end of the stream. */
int cmd_frame(int argc, char **argv)
{
    opts o;
    int rc = parse_opts(argc, argv, 1, &o);
    if (rc)
        return rc;
    FILE *in = cli_open_in(o.in);
    if (!in)
        return 1;
    size_t len;
    uint8_t *s = slurp(in, &len);
    if (in != stdin)
        fclose(in);
    if (!s) {
        cli_error("%s: out of memory or read error", o.in);
        return 1;
    }
    FILE *f = cli_open_out(o.out);
    if (!f) {
        free(s);
        return 1;
    }
    uint8_t hdr[TRC_HEADER_BYTES];
    trc_header_write_ex(&o.p, o.p.mode, TRC_FLAG_FRAMED, hdr);
    fwrite(hdr, 1, sizeof hdr, f);

    static trc_record recs[CHUNK_RECS];
    trc_decoder d;
    trc_frame_info fi = {0, 0, 0, 0, 0, 0};
    uint64_t time = 0;   /* raw ticks decoded so far (records + carry) */
    size_t pos = 0, start = 0;
    trc_decoder_init(&d, &o.p);
    d.stop_at_mark = 1;
    for (;;) {
        size_t used, n;
        uint64_t syncs = d.st.sync;
        trc_error e = trc_decode(&d, s + pos, len - pos, &used, recs,
                                 CHUNK_RECS, &n, 1);
        pos += used;
        for (size_t i = 0; i < n; i++)
            time += recs[i].delta;
        fi.records += (uint32_t)n;
        if (e != TRC_OK) {
            uint64_t bit = trc_decoder_bit_offset(&d);
            cli_error("%s: byte %llu, bit %u: %s (%s)", o.in,
                      (unsigned long long)(bit / 8u), (unsigned)(bit % 8u),
                      trc_error_text(e), trc_error_name(e));
            rc = 1;
            break;
        }
        int at_end = pos == len;
        if (d.st.sync != syncs || at_end) {
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
    /* On an error the complete frames stay, without the trailer: readers
     * then report the end of the stream as lost. */
    if (rc == 0) {
        fi.payload_bytes = fi.payload_crc = 0; /* the trailer */
        put_frame(f, &fi, (const uint8_t *)"");
    } else {
        cli_error("%s: %u complete frames (%llu records) written without a "
                  "trailer", o.out, fi.index,
                  (unsigned long long)fi.records_before);
    }
    free(s);
    if (cli_close(f, o.out))
        rc = 1;
    return rc;
}

/* Writes every record of rd as canonical text v1. */
static int write_text(cli_reader *rd, FILE *f)
{
    char line[TRC_TEXT_LINE_MAX];
    trc_record r;
    int got;
    while ((got = cli_reader_next(rd, &r)) == 1)
        fwrite(line, 1, trc_text_format(&r, line), f);
    return got < 0;
}

int cmd_decompress(int argc, char **argv)
{
    opts o;
    int rc = parse_opts(argc, argv, 1, &o);
    if (rc)
        return rc;
    cli_reader *rd = cli_reader_open(o.in, &o.p, o.raw);
    if (!rd)
        return 1;
    if (!cli_reader_is_stream(rd)) {
        cli_error("%s: not a .trc file (bad magic); use --raw for a bare "
                  "stream", o.in);
        cli_reader_close(rd);
        return 1;
    }
    cli_reader_from_frame(rd, (uint32_t)o.from_frame);
    FILE *f = cli_open_out(o.out);
    if (!f) {
        cli_reader_close(rd);
        return 1;
    }
    rc = write_text(rd, f);
    if (cli_reader_damage(rd))
        rc = 1; /* output written, with L records where frames were lost */
    if (cli_close(f, o.out))
        rc = 1;
    cli_reader_close(rd);
    return rc;
}

/* ---- stats ------------------------------------------------------------- */

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void print_stats(const trc_stats *s, uint64_t bytes, uint64_t trace,
                        int json)
{
    /* Stack mode streams code a delta symbol for every record. */
    int stack = s->delta_sym[0] + s->delta_sym[1] + s->delta_sym[2] +
                    s->delta_sym[3] != 0;
    static const char *const names[] = {"timestamp", "function", "type",
                                        "value"};
    static const char *const labels[] = {"timestamp", "function id",
                                         "info type", "info value"};
    uint64_t raw = 0, coded = 0;
    for (int f = 0; f < TRC_F__COUNT; f++) {
        raw += s->raw_bits[f];
        coded += s->coded_bits[f];
    }
    double bpr = trace ? 8.0 * (double)bytes / (double)trace : 0.0;
    if (json) {
        printf("{\"records\": {\"function\": %llu, \"os\": %llu, "
               "\"time_ext\": %llu, \"end\": %llu, \"sync\": %llu, "
               "\"lost\": %llu, \"trace\": %llu},\n \"fields\": {",
               (unsigned long long)s->function, (unsigned long long)s->os,
               (unsigned long long)s->time_ext, (unsigned long long)s->end,
               (unsigned long long)s->sync, (unsigned long long)s->lost,
               (unsigned long long)trace);
        for (int f = 0; f < TRC_F__COUNT; f++)
            printf("\"%s\": {\"raw\": %llu, \"coded\": %llu}, ", names[f],
                   (unsigned long long)s->raw_bits[f],
                   (unsigned long long)s->coded_bits[f]);
        printf("\"kind\": {\"coded\": %llu}},\n \"padding_bits\": %llu, "
               "\"hits\": {\"function\": [%llu, %llu], \"type\": [%llu, %llu],"
               " \"value\": [%llu, %llu]},\n \"stream_bytes\": %llu, "
               "\"bits_per_record\": %.4f",
               (unsigned long long)s->kind_bits,
               (unsigned long long)s->pad_bits,
               (unsigned long long)s->hits[0], (unsigned long long)s->lookups[0],
               (unsigned long long)s->hits[1], (unsigned long long)s->lookups[1],
               (unsigned long long)s->hits[2], (unsigned long long)s->lookups[2],
               (unsigned long long)bytes, bpr);
        if (stack)
            printf(",\n \"stack\": {\"predicted\": %llu, \"top_exits\": %llu, "
                   "\"os_predicted\": %llu, "
                   "\"delta\": {\"eq\": %llu, \"near\": %llu, \"length\": %llu, "
                   "\"escape\": %llu}}",
                   (unsigned long long)s->predicted,
                   (unsigned long long)s->top_exits,
                   (unsigned long long)s->os_predicted,
                   (unsigned long long)s->delta_sym[0],
                   (unsigned long long)s->delta_sym[1],
                   (unsigned long long)s->delta_sym[2],
                   (unsigned long long)s->delta_sym[3]);
        printf("}\n");
        return;
    }
    printf("%-22s %14s %14s %7s\n", "field", "raw bits", "coded bits",
           "ratio");
    for (int f = 0; f < TRC_F__COUNT; f++)
        printf("%-22s %14llu %14llu %6.1f%%\n", labels[f],
               (unsigned long long)s->raw_bits[f],
               (unsigned long long)s->coded_bits[f],
               pct(s->coded_bits[f], s->raw_bits[f]));
    printf("%-22s %14llu %14llu %6.1f%%\n", "total (no kind bit)",
           (unsigned long long)raw, (unsigned long long)coded,
           pct(coded, raw));
    /* raw: one kind bit per raw record; coded: what the stream spent on
     * kinds (stack mode: the NP codes and event classes) */
    uint64_t raw_kind = s->function + s->os;
    printf("%-22s %14llu %14llu %6.1f%%\n", "total (with kind bit)",
           (unsigned long long)(raw + raw_kind),
           (unsigned long long)(coded + s->kind_bits),
           pct(coded + s->kind_bits, raw + raw_kind));
    printf("records: %llu trace (%llu function, %llu OS incl. %llu TIME_EXT, "
           "%llu END, %llu SYNC, %llu LOST)\n",
           (unsigned long long)trace, (unsigned long long)s->function,
           (unsigned long long)s->os, (unsigned long long)s->time_ext,
           (unsigned long long)s->end, (unsigned long long)s->sync,
           (unsigned long long)s->lost);
    printf("stream: %llu bytes, %.3f bits/record, %llu padding bits\n",
           (unsigned long long)bytes, bpr, (unsigned long long)s->pad_bits);
    printf("dictionary hit rate: function %.1f%%, type %.1f%%, value %.1f%%\n",
           pct(s->hits[0], s->lookups[0]), pct(s->hits[1], s->lookups[1]),
           pct(s->hits[2], s->lookups[2]));
    if (stack) {
        uint64_t n = s->delta_sym[0] + s->delta_sym[1] + s->delta_sym[2] +
                     s->delta_sym[3];
        printf("stack mode: function records predicted %.1f%%, exits of the top "
               "%.1f%%, through the dictionary %.1f%%\n",
               pct(s->predicted, s->function), pct(s->top_exits, s->function),
               pct(s->lookups[0], s->function));
        if (s->os_predicted) /* stack mode 2's OS context table */
            printf("stack mode 2: OS records predicted %.1f%%\n",
                   pct(s->os_predicted, s->os));
        printf("stack mode deltas: equal %.1f%%, off by one %.1f%%, bit length "
               "%.1f%%, escaped %.1f%%\n", pct(s->delta_sym[0], n),
               pct(s->delta_sym[1], n), pct(s->delta_sym[2], n),
               pct(s->delta_sym[3], n));
    }
}

/* Figures of the stream that text input would compress to: the records go
 * through the encoder and straight back through a decoder. */
static int stats_of_text(cli_reader *rd, const trc_params *p, trc_stats *st,
                         uint64_t *bytes, uint64_t *trace)
{
    trc_encoder enc;
    trc_decoder dec;
    static trc_record out[CHUNK_RECS];
    static uint8_t buf[OUT_BYTES + TRC_MAX_RECORD_BYTES];
    size_t keep = 0; /* undecoded bytes at buf[0..keep) */
    int got = 1;
    trc_encoder_init(&enc, p);
    trc_decoder_init(&dec, p);
    *bytes = *trace = 0;
    while (got == 1) {
        trc_record r;
        size_t len = 0, used, n;
        got = cli_reader_next(rd, &r);
        if (got < 0)
            return 1;
        if (got == 1) {
            size_t done = 0;
            while (!done) {
                trc_encode(&enc, &r, 1, &done, buf + keep, OUT_BYTES - keep,
                           &len);
                keep += len;
                *bytes += len;
                if (!done || keep > OUT_BYTES / 2) {
                    trc_decode(&dec, buf, keep, &used, out, CHUNK_RECS, &n, 0);
                    *trace += n;
                    memmove(buf, buf + used, keep - used);
                    keep -= used;
                }
            }
        } else {
            trc_encode_end(&enc, buf + keep, OUT_BYTES - keep, &len);
            keep += len;
            *bytes += len;
            do {
                trc_decode(&dec, buf, keep, &used, out, CHUNK_RECS, &n, 1);
                *trace += n;
                memmove(buf, buf + used, keep - used);
                keep -= used;
            } while (n == CHUNK_RECS);
        }
    }
    *st = dec.st;
    return 0;
}

int cmd_stats(int argc, char **argv)
{
    opts o;
    int rc = parse_opts(argc, argv, 0, &o);
    if (rc)
        return rc;
    cli_reader *rd = cli_reader_open(o.in, &o.p, o.raw);
    if (!rd)
        return 1;
    trc_stats st;
    uint64_t bytes = 0, trace = 0;
    if (cli_reader_is_stream(rd)) {
        trc_record r;
        int got;
        while ((got = cli_reader_next(rd, &r)) == 1)
            trace++;
        rc = got < 0;
        st = *cli_reader_stats(rd);
        bytes = cli_reader_stream_bytes(rd);
    } else {
        rc = stats_of_text(rd, cli_reader_params(rd), &st, &bytes, &trace);
    }
    if (rc == 0)
        print_stats(&st, bytes, trace, o.json);
    cli_reader_close(rd);
    return rc;
}

/* ---- convert: text v1 <-> bin v1 ---------------------------------------- */

static int to_bin(cli_reader *rd, FILE *f)
{
    trc_params p = trc_params_paper();
    uint8_t w[TRC_BIN_BYTES];
    trc_record r;
    int got;
    while ((got = cli_reader_next(rd, &r)) == 1) {
        trc_record ext = trc_time_ext_record(&p), low = trc_lower(&p, &r);
        for (uint64_t k = trc_time_ext_count(&p, r.delta); k; k--) {
            trc_bin_pack(&ext, w);
            fwrite(w, 1, sizeof w, f);
        }
        trc_bin_pack(&low, w);
        fwrite(w, 1, sizeof w, f);
    }
    return got < 0;
}

static int from_bin(const char *path, FILE *in, FILE *out)
{
    trc_params p = trc_params_paper();
    uint8_t w[TRC_BIN_BYTES];
    char line[TRC_TEXT_LINE_MAX];
    uint64_t carry = 0, at = 0;
    size_t got;
    while ((got = fread(w, 1, sizeof w, in)) == sizeof w) {
        trc_record r;
        trc_error e = trc_bin_unpack(w, &r);
        if (e == TRC_OK && r.kind == TRC_OS && r.a >= TRC_TYPE_LOST(&p) &&
            r.a != TRC_TYPE_LOST(&p) && r.b != 0)
            e = TRC_ERR_CORRUPT;
        if (e != TRC_OK) {
            cli_error("%s: byte %llu: %s (%s)", path, (unsigned long long)at,
                      trc_error_text(e), trc_error_name(e));
            return 1;
        }
        at += sizeof w;
        carry += r.delta; /* 2^64 ticks are far beyond any real file */
        if (r.kind == TRC_OS && r.a > TRC_TYPE_LOST(&p))
            continue; /* TIME_EXT, END, SYNC: time only */
        if (r.kind == TRC_OS && r.a == TRC_TYPE_LOST(&p)) {
            r.kind = TRC_LOST;
            r.a = r.b;
            r.b = 0;
        }
        r.delta = carry;
        carry = 0;
        fwrite(line, 1, trc_text_format(&r, line), out);
    }
    if (got != 0) {
        cli_error("%s: byte %llu: truncated 48-bit word", path,
                  (unsigned long long)at);
        return 1;
    }
    return ferror(in) ? (cli_error("%s: read error", path), 1) : 0;
}

int cmd_convert(int argc, char **argv)
{
    opts o;
    int rc = parse_opts(argc, argv, 1, &o);
    if (rc)
        return rc;
    int bin = o.to && !strcmp(o.to, "bin"), text = o.to && !strcmp(o.to, "text");
    if (!bin && !text) {
        cli_error("convert: say --to bin (text v1 -> bin v1) or --to text");
        return 2;
    }
    trc_params paper = trc_params_paper();
    if (memcmp(&o.p, &paper, sizeof paper)) {
        cli_error("convert: bin v1 is defined for the paper's parameters only");
        return 2;
    }
    cli_reader *rd = NULL;
    FILE *in = NULL;
    if (bin ? !(rd = cli_reader_open(o.in, &o.p, o.raw))
            : !(in = cli_open_in(o.in)))
        return 1;
    FILE *f = cli_open_out(o.out);
    if (f) {
        rc = bin ? to_bin(rd, f) : from_bin(o.in, in, f);
        if (cli_close(f, o.out))
            rc = 1;
    } else {
        rc = 1;
    }
    if (rd)
        cli_reader_close(rd);
    if (in && in != stdin)
        fclose(in);
    return rc;
}
