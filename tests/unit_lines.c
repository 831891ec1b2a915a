/*
 * unit_lines.c - unit tests of trc_text_parse_lines(): records, comments and
 * blank lines in one block, a block cut inside a line (with and without
 * final), a full output array, CRLF, and the position of a bad line.
 * Expected records are written out by hand. Prints "ok NAME" / "not ok NAME"
 * and exits 1 when any check failed.
 */
#include <stdio.h>
#include <string.h>

#include "trc.h"
#include "unit.h"

static int rec_is(const trc_record *r, uint64_t delta, unsigned kind,
                  uint32_t a, uint32_t b)
{
    return r->delta == delta && r->kind == kind && r->a == a && r->b == b;
}

int main(void)
{
    trc_params p = trc_params_paper();
    trc_record r[8];
    size_t used, n, lines, col;
    trc_error e;

    static const char text[] = "# head\n0 E 0\n\n7 X 0\r\n40 O 1 1234\n9 L 3";
    size_t len = sizeof text - 1;

    e = trc_text_parse_lines(&p, text, len, 0, &used, r, 8, &n, &lines, &col);
    check(e == TRC_OK && n == 3 && lines == 5 && used == len - 5,
          "lines_whole_lines_only");
    check(rec_is(&r[0], 0, TRC_ENTRY, 0, 0) && rec_is(&r[1], 7, TRC_EXIT, 0, 0) &&
              rec_is(&r[2], 40, TRC_OS, 1, 1234),
          "lines_records");

    e = trc_text_parse_lines(&p, text + used, len - used, 1, &used, r, 8, &n,
                             &lines, &col);
    check(e == TRC_OK && n == 1 && lines == 1 && used == 5 &&
              rec_is(&r[0], 9, TRC_LOST, 3, 0),
          "lines_final_without_newline");

    e = trc_text_parse_lines(&p, text, len, 1, &used, r, 2, &n, &lines, &col);
    check(e == TRC_OK && n == 2 && lines == 4 && used == 21,
          "lines_stop_when_full");

    e = trc_text_parse_lines(&p, text, 3, 0, &used, r, 8, &n, &lines, &col);
    check(e == TRC_OK && n == 0 && lines == 0 && used == 0,
          "lines_partial_line_waits");

    static const char bad[] = "0 E 0\n1 E 1\n2 Q 1\n3 E 1\n";
    e = trc_text_parse_lines(&p, bad, sizeof bad - 1, 1, &used, r, 8, &n,
                             &lines, &col);
    check(e == TRC_ERR_SYNTAX && n == 2 && lines == 2 && used == 12 && col == 3,
          "lines_bad_line_position");

    static const char wide[] = "0 E 32768\n";
    e = trc_text_parse_lines(&p, wide, sizeof wide - 1, 1, &used, r, 8, &n,
                             &lines, &col);
    check(e == TRC_ERR_FIELD && n == 0 && used == 0 && col == 5,
          "lines_field_too_wide");

    e = trc_text_parse_lines(&p, "", 0, 1, &used, r, 8, &n, &lines, &col);
    check(e == TRC_OK && n == 0 && lines == 0 && used == 0, "lines_empty");
    return unit_exit("unit_lines");
}
