/*
 * trc_text.c - trace text v1: one record per line, "DELTA KIND A [B]".
 * Parsing is strict about content (ranges, kinds, field counts) and lenient
 * about blanks (runs of spaces or tabs, a trailing CR).
 */
#include "trc.h"

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Parses an unsigned decimal or 0x-hex number at s[*i]; 0 on bad syntax or
 * overflow past max (*i is left at the fault). */
static int parse_num(const char *s, size_t len, size_t *i, uint64_t max,
                     uint64_t *out, trc_error *why)
{
    size_t j = *i;
    unsigned base = 10;
    uint64_t v = 0;
    if (j + 1 < len && s[j] == '0' && (s[j + 1] == 'x' || s[j + 1] == 'X')) {
        base = 16;
        j += 2;
    }
    size_t digits = 0;
    for (; j < len && !is_blank(s[j]) && s[j] != '\r'; j++, digits++) {
        char c = s[j];
        unsigned dv;
        if (c >= '0' && c <= '9')
            dv = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            dv = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            dv = (unsigned)(c - 'A' + 10);
        else {
            *why = TRC_ERR_SYNTAX;
            *i = j;
            return 0;
        }
        if (v > (max - dv) / base) {
            *why = TRC_ERR_FIELD;
            return 0; /* *i stays at the number's start */
        }
        v = v * base + dv;
    }
    if (digits == 0) {
        *why = TRC_ERR_SYNTAX;
        *i = j;
        return 0;
    }
    *i = j;
    *out = v;
    return 1;
}

static void skip_blanks(const char *s, size_t len, size_t *i)
{
    while (*i < len && is_blank(s[*i]))
        (*i)++;
}

trc_error trc_text_parse(const trc_params *p, const char *line, size_t len,
                         trc_record *r, int *is_record, size_t *col)
{
    unsigned cpu;
    return trc_text_parse_ex(p, line, len, r, &cpu, is_record, col);
}

trc_error trc_text_parse_ex(const trc_params *p, const char *line, size_t len,
                            trc_record *r, unsigned *cpu, int *is_record,
                            size_t *col)
{
    size_t i = 0, a_at, b_at;
    trc_error why = TRC_OK;
    uint64_t delta, a, b = 0, k_cpu = 0;
    unsigned kind;
    char k;

    *is_record = 0;
    *col = 0;
    *cpu = 0;
    if (len && line[len - 1] == '\r')
        len--;
    skip_blanks(line, len, &i);
    if (i == len || line[i] == '#')
        return TRC_OK;

    size_t delta_at = i;
    if (!parse_num(line, len, &i, UINT64_MAX, &delta, &why))
        goto fail;
    skip_blanks(line, len, &i);
    k = i < len ? line[i] : '\0';
    kind = k == 'E' ? TRC_ENTRY : k == 'X' ? TRC_EXIT
                  : k == 'O' ? TRC_OS : k == 'L' ? TRC_LOST : 99u;
    if (kind == 99u || (i + 1 < len && !is_blank(line[i + 1]))) {
        why = TRC_ERR_SYNTAX; /* a kind is one of the letters E X O L */
        goto fail;
    }
    i++;
    skip_blanks(line, len, &i);
    a_at = i;
    if (!parse_num(line, len, &i, UINT32_MAX, &a, &why))
        goto fail;
    skip_blanks(line, len, &i);
    b_at = i;
    if (kind == TRC_OS) {
        if (!parse_num(line, len, &i, UINT32_MAX, &b, &why))
            goto fail;
        skip_blanks(line, len, &i);
    }
    if (i < len && line[i] == '@') {
        /* the CPU column (several CPUs): below the stream's CPU count */
        size_t at = i++;
        if (!parse_num(line, len, &i, UINT32_MAX, &k_cpu, &why))
            goto fail;
        if (k_cpu >= trc_cpu_count(p)) {
            why = TRC_ERR_FIELD;
            i = at;
            goto fail;
        }
        skip_blanks(line, len, &i);
    }
    if (i != len) {
        why = TRC_ERR_SYNTAX; /* trailing field */
        goto fail;
    }

    r->delta = delta;
    r->kind = kind;
    r->a = (uint32_t)a;
    r->b = (uint32_t)b;
    why = trc_record_check(p, r);
    if (why != TRC_OK) {
        /* point at the field that does not fit (the delta when only the
         * delta is out of range, see trc_record_check) */
        trc_record z = *r;
        z.delta = 0;
        if (trc_record_check(p, &z) == TRC_OK)
            i = delta_at;
        else
            i = (kind == TRC_OS && why == TRC_ERR_FIELD &&
                 a < (1u << p->type_w)) ? b_at : a_at;
        goto fail;
    }
    *cpu = (unsigned)k_cpu;
    *is_record = 1;
    return TRC_OK;
fail:
    *col = i + 1;
    return why;
}

static size_t put_u64(char *out, uint64_t v)
{
    char tmp[20];
    size_t n = 0, k = 0;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        out[k++] = tmp[--n];
    return k;
}

size_t trc_text_format(const trc_record *r, char out[TRC_TEXT_LINE_MAX])
{
    return trc_text_format_cpu(r, 0, 1, out);
}

size_t trc_text_format_cpu(const trc_record *r, unsigned cpu, unsigned cpus,
                           char out[TRC_TEXT_LINE_MAX])
{
    static const char kinds[4] = {'E', 'X', 'O', 'L'};
    size_t k = put_u64(out, r->delta);
    out[k++] = ' ';
    out[k++] = kinds[r->kind & 3u];
    out[k++] = ' ';
    k += put_u64(out + k, r->a);
    if (r->kind == TRC_OS) {
        out[k++] = ' ';
        k += put_u64(out + k, r->b);
    }
    if (cpus > 1) {
        out[k++] = ' ';
        out[k++] = '@';
        k += put_u64(out + k, cpu);
    }
    out[k++] = '\n';
    return k;
}
