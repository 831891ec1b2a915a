/*
 * cmd_convert.c - `trc convert`: trace text v1 <-> trace bin v1 (48-bit
 * words, paper parameters; docs/format.md 6), with long gaps as TIME_EXT
 * words of a non-zero value.
 */
#include <errno.h>
#include <string.h>

#include "trc_cli.h"

static int to_bin(cli_reader *rd, FILE *f)
{
    trc_params p = trc_params_paper();
    uint8_t w[TRC_BIN_BYTES];
    trc_record r;
    int got;
    while ((got = cli_reader_next(rd, &r)) == 1) {
        uint64_t n = trc_time_ext_count(&p, r.delta);
        for (uint64_t k = 0; k < n; k++) {
            trc_record ext = trc_time_ext_nth(&p, r.delta, k);
            trc_bin_pack(&ext, w);
            fwrite(w, 1, sizeof w, f);
        }
        trc_record low = trc_lower(&p, &r);
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
        uint64_t ticks = r.delta;
        if (e == TRC_OK && r.kind == TRC_OS && r.a > TRC_TYPE_LOST(&p) &&
            r.b != 0) {
            /* TIME_EXT value k: a long gap of delta << k; END, SYNC: 0 */
            if (r.a != TRC_TYPE_TIME_EXT(&p) || r.b > 63 ||
                (r.delta << r.b) >> r.b != r.delta)
                e = TRC_ERR_CORRUPT;
            else
                ticks = r.delta << r.b;
        }
        if (e == TRC_OK && carry + ticks < carry)
            e = TRC_ERR_DELTA_OVERFLOW;
        if (e != TRC_OK) {
            cli_error("%s: byte %llu: %s (%s)", path, (unsigned long long)at,
                      trc_error_text(e), trc_error_name(e));
            return 1;
        }
        at += sizeof w;
        carry += ticks;
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
    if (ferror(in)) {
        cli_in_error(in, path);
        return 1;
    }
    if (got != 0) {
        cli_error("%s: byte %llu: truncated 48-bit word", path,
                  (unsigned long long)at);
        return 1;
    }
    return 0;
}

int cmd_convert(const cli_args *a)
{
    if (!cli_given(a, OPT_TO)) {
        cli_error("convert: say --to bin (text v1 -> bin v1) or --to text");
        return 2;
    }
    int bin = a->num[OPT_TO] == 0;
    if (!bin && cli_given(a, OPT_RAW))
        return cli_reject(a, OPT_RAW, "applies to --to bin only (bin v1 "
                          "input has no other form)");
    cli_reader *rd = NULL;
    FILE *in = NULL;
    if (bin ? !(rd = cli_reader_open(a->pos[0], &a->p, cli_given(a, OPT_RAW)))
            : !(in = cli_in_open(a->pos[0])))
        return 1;
    const char *ins[] = {a->pos[0], NULL};
    cli_out *o = cli_out_open(a->pos[1], ins);
    int rc = 1;
    if (o) {
        rc = bin ? to_bin(rd, cli_out_file(o))
                 : from_bin(a->pos[0], in, cli_out_file(o));
        if (cli_out_close(o, rc == 0))
            rc = 1;
    }
    cli_reader_close(rd);
    if (in && in != stdin)
        fclose(in);
    return rc;
}
