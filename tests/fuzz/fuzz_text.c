/*
 * fuzz_text.c - libFuzzer target for the trace text v1 parser. Every line
 * must parse or fail cleanly; a line that parses must print in canonical form
 * and parse back to the same record.
 */
#include <stdlib.h>
#include <string.h>

#include "trc.h"

static const trc_params sets[4] = {
    {23, 15, 7, 16, 3, 3, 3}, {2, 1, 3, 1, 1, 1, 1},
    {32, 31, 16, 32, 8, 8, 8}, {8, 4, 3, 4, 4, 3, 4},
};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    if (size < 1)
        return 0;
    const trc_params *p = &sets[data[0] & 3u];
    const char *s = (const char *)data + 1;
    size_t len = size - 1, at = 0;
    while (at <= len) {
        const char *nl = memchr(s + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (s + at)) : len - at;
        trc_record r, q;
        int is, is2;
        size_t col, col2;
        trc_error e = trc_text_parse(p, s + at, n, &r, &is, &col);
        if (e != TRC_OK && (col < 1 || col > n + 1))
            abort(); /* the column must point into the line */
        if (e == TRC_OK && is) {
            char buf[TRC_TEXT_LINE_MAX];
            size_t k = trc_text_format(&r, buf);
            if (k >= TRC_TEXT_LINE_MAX || buf[k - 1] != '\n')
                abort();
            if (trc_text_parse(p, buf, k - 1, &q, &is2, &col2) != TRC_OK ||
                !is2 || q.delta != r.delta || q.kind != r.kind || q.a != r.a ||
                q.b != r.b)
                abort();
        }
        at += n + 1;
    }
    return 0;
}
