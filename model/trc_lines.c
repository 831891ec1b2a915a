/*
 * trc_lines.c - trace text v1 a block at a time: many lines parsed in one
 * call into a record array, for readers that hold the text in large buffers
 * (the Python binding). Each line is parsed by trc_text_parse().
 */
#include <string.h>

#include "trc.h"

trc_error trc_text_parse_lines(const trc_params *p, const char *src,
                               size_t len, int final, size_t *src_used,
                               trc_record *dst, size_t cap, size_t *n_out,
                               size_t *lines, size_t *col)
{
    size_t pos = 0, n = 0, nl_count = 0;
    trc_error e = TRC_OK;

    *col = 0;
    while (pos < len && n < cap) {
        const char *s = src + pos;
        /* cast: trc.core's sim target compiles the model as C++ */
        const char *nl = (const char *)memchr(s, '\n', len - pos);
        size_t l;
        if (nl)
            l = (size_t)(nl - s);
        else if (final)
            l = len - pos;
        else
            break; /* the line goes on in the caller's next block */
        int is_rec;
        e = trc_text_parse(p, s, l, &dst[n], &is_rec, col);
        if (e != TRC_OK)
            break;
        n += (size_t)is_rec;
        nl_count++;
        pos += l + (nl != NULL);
    }
    *src_used = pos;
    *n_out = n;
    *lines = nl_count;
    return e;
}
