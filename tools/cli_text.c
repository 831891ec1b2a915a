/*
 * cli_text.c - trace text v1 for the record reader (cli_reader.c): the time
 * base line (host_timebase_parse, host_timebase_format), found among the
 * leading comment lines, and the records, one a line, with errors that name
 * the file, the line and the column.
 */
#include <stdlib.h>
#include <string.h>

#include "trc_cli.h"
#include "cli_reader.h"

/* The time base line among the leading comment lines (those in the first
 * buffer read). -1 (message printed) when one is malformed or there are two. */
int rd_scan_timebase(cli_reader *rd)
{
    const char *s = (const char *)rd->buf, *end = s + rd->blen;
    int found = 0;
    for (unsigned ln = 1; s < end && *s == '#'; ln++) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl)
            break;
        char line[512];
        size_t n = (size_t)(nl - s) < sizeof line - 1 ? (size_t)(nl - s)
                                                      : sizeof line - 1;
        memcpy(line, s, n);
        line[n] = 0;
        host_timebase tb;
        int r = host_timebase_parse(line, &tb);
        if (r < 0 || (r > 0 && found)) {
            cli_error("%s:%u: %s", rd->path, ln, r < 0
                      ? "malformed time base line (# trc-timebase "
                        "clock=monotonic tick_ns=N [t0_ns=N])"
                      : "a second time base line");
            return -1;
        }
        if (r > 0) {
            rd->tb = tb;
            found = 1;
        }
        s = nl + 1;
    }
    return 0;
}

int rd_next_text(cli_reader *rd, trc_record *r)
{
    for (;;) {
        char *s = (char *)rd->buf + rd->bpos;
        size_t avail = rd->blen - rd->bpos;
        char *nl = memchr(s, '\n', avail);
        if (!nl && !rd->eof) {
            size_t before = rd->blen - rd->bpos;
            rd_refill(rd);
            if (rd->blen - rd->bpos == before && !rd->eof) {
                cli_error("%s:%llu: line longer than %u bytes", rd->path,
                          (unsigned long long)rd->lineno + 1u, RD_BUF_BYTES);
                return -1;
            }
            continue;
        }
        if (rd->read_err)
            return -1;
        if (!nl && avail == 0)
            return 0;
        size_t len = nl ? (size_t)(nl - s) : avail;
        rd->bpos += len + (nl != NULL);
        rd->lineno++;
        int is_rec;
        size_t col;
        trc_error e = trc_text_parse_ex(&rd->p, s, len, r, &rd->cpu, &is_rec, &col);
        if (e == TRC_ERR_FIELD && trc_cpu_count(&rd->p) < TRC_CPU_MAX && s[col - 1] == '@') {
            unsigned long long k = 0; /* the CPU number after the '@' */
            for (size_t i = col; i < len && s[i] >= '0' && s[i] <= '9' && k < 1000000; i++)
                k = k * 10 + (unsigned)(s[i] - '0');
            cli_error("%s:%llu:%zu: CPU %llu is past the stream's %u: give --cpus %llu "
                      "or more", rd->path, (unsigned long long)rd->lineno, col, k,
                      trc_cpu_count(&rd->p), k + 1);
            return -1;
        }
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

/* ---- Time base -------------------------------------------------------------- */

static int parse_u64(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 0;
}

int host_timebase_parse(const char *line, host_timebase *tb)
{
    while (*line == '#' || *line == ' ' || *line == '\t')
        line++;
    if (strncmp(line, "trc-timebase", 12) != 0 ||
        (line[12] && line[12] != ' ' && line[12] != '\t' && line[12] != '\r'))
        return 0;
    host_timebase t = {0, 0, 0};
    int seen_clock = 0, seen_tick = 0;
    const char *s = line + 12;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (!*s)
            break;
        char key[32], val[64];
        size_t k = 0, n = 0;
        while (*s && *s != '=' && *s != ' ' && *s != '\t' && k < sizeof key - 1)
            key[k++] = *s++;
        key[k] = 0;
        if (*s != '=' || k == 0)
            return -1;
        s++;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
            if (n == sizeof val - 1)
                return -1;
            val[n++] = *s++;
        }
        val[n] = 0;
        uint64_t v;
        if (!strcmp(key, "t0_ns")) {
            if (t.known || parse_u64(val, &v))
                return -1;
            t.t0_ns = v;
            t.known = 1;
        } else if (!strcmp(key, "tick_ns")) {
            if (seen_tick || parse_u64(val, &v) || v == 0)
                return -1;
            t.tick_ns = v;
            seen_tick = 1;
        } else if (!strcmp(key, "clock")) {
            if (seen_clock || n == 0)
                return -1;
            seen_clock = 1;
        }
    }
    if (!t.known && !seen_tick)
        return -1;
    *tb = t;
    return 1;
}

void host_timebase_format(const host_timebase *tb, char *out, size_t cap)
{
    if (tb->known)
        snprintf(out, cap, "# trc-timebase clock=monotonic tick_ns=%llu "
                 "t0_ns=%llu\n", (unsigned long long)tb->tick_ns,
                 (unsigned long long)tb->t0_ns);
    else
        snprintf(out, cap, "# trc-timebase clock=monotonic tick_ns=%llu\n",
                 (unsigned long long)tb->tick_ns);
}
