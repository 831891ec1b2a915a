/*
 * cmd_frame.c - the frame subcommand: a bare stream with SYNC records (or a
 * checked stream, its check words verified and dropped) -> framed .trc.
 */
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"

/* Reads all of f into memory; NULL on a read error (message printed). */
static uint8_t *slurp(FILE *f, const char *path, size_t *len)
{
    cli_buf b = {NULL, 0, 0};
    for (;;) {
        if (!cli_buf_room(&b, 1u << 16)) {
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
            cli_put_frame(f, &fi, s + start);
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
    cli_put_frame(f, &fi, (const uint8_t *)"");
    return 0;
}

/* Appends to out a stream of its own: n records lost as LOST records (each
 * at most 2^VAL_W - 1), then SYNC, or END when end is set. 0, or 1 when out
 * of memory. */
static int put_lost(const trc_params *p, uint64_t n, int end, cli_buf *out)
{
    trc_encoder e;
    size_t used, len;
    uint64_t max = (UINT64_C(1) << p->val_w) - 1u;
    trc_encoder_init(&e, p);
    while (n) {
        trc_record l = {0, (uint32_t)(n < max ? n : max), 0, TRC_LOST};
        if (!cli_buf_room(out, TRC_MAX_RECORD_BYTES))
            return 1;
        trc_encode(&e, &l, 1, &used, out->b + out->len, TRC_MAX_RECORD_BYTES, &len);
        out->len += len;
        n -= l.a;
    }
    if (!cli_buf_room(out, TRC_MAX_RECORD_BYTES))
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
static int strip_checks(const cli_args *a, const uint8_t *s, size_t len, cli_buf *out)
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
        if (!cli_buf_room(out, keep))
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
    /* A .trc container is a natural mistake here: its header would read as
     * a corrupt stream, and the frames before the error would be written. */
    trc_params hp;
    unsigned hmode;
    if (trc_header_read(s, len, &hp, &hmode) == TRC_OK) {
        cli_error("%s: a .trc container, not a bare stream: trc frame reads "
                  "what the core writes (or trc compress --raw); to frame a "
                  "container, use trc compress --frame N", a->pos[0]);
        free(s);
        return 1;
    }
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
        cli_buf plain = {NULL, 0, 0};
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
