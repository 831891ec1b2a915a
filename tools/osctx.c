/*
 * osctx.c - reading the OS context table (osctx.h) in step with a trace.
 */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "osctx.h"
#include "trc_cli.h"

static int parse_u64(const char *s, char **end, uint64_t *v)
{
    uint64_t x = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - 9) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    *end = (char *)p;
    *v = x;
    return 0;
}

/* Reads the next data line ahead: 1 read, 0 end, -1 error. */
static int read_ahead(osctx *c)
{
    ssize_t len;
    c->have = 0;
    while ((len = getline(&c->line, &c->cap, c->f)) >= 0) {
        c->lineno++;
        if (c->line[0] == '#' || c->line[0] == '\n')
            continue;
        char *s = c->line, *e;
        uint64_t rec, t, v;
        if (parse_u64(s, &e, &rec) || *e != ' ' || parse_u64(e + 1, &e, &t) ||
            *e != ' ' || parse_u64(e + 1, &e, &v) ||
            (*e != ' ' && *e != '\n' && *e) || t > UINT32_MAX || v > UINT32_MAX) {
            cli_error("%s:%lu: not an OS context line (RECORD TYPE VALUE "
                      "KEY=VALUE...)", c->path, c->lineno);
            return -1;
        }
        if (c->used && rec <= c->rec) {
            cli_error("%s:%lu: record %" PRIu64 " comes after record %" PRIu64
                      " (lines must be in record order)", c->path, c->lineno,
                      rec, c->rec);
            return -1;
        }
        c->rec = rec;
        c->type = (uint32_t)t;
        c->value = (uint32_t)v;
        c->have = 1;
        c->used++;
        return 1;
    }
    if (ferror(c->f)) {
        cli_in_error(c->f, c->path);
        return -1;
    }
    return 0;
}

int osctx_open(osctx *c, const char *path)
{
    memset(c, 0, sizeof *c);
    if (!path)
        return 0;
    if (!(c->path = strdup(path)) || !(c->f = cli_in_open(path))) {
        free(c->path);
        c->path = NULL;
        return -1;
    }
    ssize_t len = getline(&c->line, &c->cap, c->f);
    c->lineno = 1;
    if (len < 0 || strncmp(c->line, "# trc-osctx v1", 14)) {
        cli_error("%s:1: not an OS context table (no '# trc-osctx v1' line)",
                  path);
        osctx_close(c);
        return -1;
    }
    if (read_ahead(c) < 0) {
        osctx_close(c);
        return -1;
    }
    return 0;
}

/* "%XX" -> byte, in place. */
static void unescape(char *s)
{
    char *o = s;
    for (; *s; s++) {
        if (s[0] == '%' && s[1] && s[2]) {
            char h[3] = {s[1], s[2], 0};
            char *end;
            unsigned long b = strtoul(h, &end, 16);
            if (!*end && b) {
                *o++ = (char)b;
                s += 2;
                continue;
            }
        }
        *o++ = *s;
    }
    *o = 0;
}

int osctx_at(osctx *c, uint64_t i, const trc_record *r, osctx_entry *e)
{
    if (!c->f || !c->have || c->rec > i)
        return 0;
    if (c->rec < i || r->kind != TRC_OS || r->a != c->type || r->b != c->value) {
        cli_error("%s:%lu: record %" PRIu64 " of the trace is not OS type %"
                  PRIu32 " value %" PRIu32 ": the table describes another "
                  "trace", c->path, c->lineno, c->rec, c->type, c->value);
        return -1;
    }
    /* the fields after "RECORD TYPE VALUE" */
    char *s = c->line;
    for (int k = 0; k < 3 && s; k++)
        s = strchr(s, ' ') ? strchr(s, ' ') + 1 : NULL;
    e->n = 0;
    while (s && *s) {
        s[strcspn(s, "\r\n")] = 0;
        char *sp = strchr(s, ' ');
        if (sp)
            *sp = 0;
        char *eq = strchr(s, '=');
        if (eq && eq != s && e->n < OSCTX_MAX_FIELDS) {
            *eq = 0;
            unescape(eq + 1);
            e->key[e->n] = s;
            e->val[e->n++] = eq + 1;
        }
        s = sp ? sp + 1 : NULL;
    }
    /* the line is handed out; the next one is read on the next call */
    if (c->held_cap < c->cap) {
        free(c->held);
        c->held_cap = 0;
        if (!(c->held = malloc(c->cap))) {
            cli_error("%s: out of memory", c->path);
            return -1;
        }
        c->held_cap = c->cap;
    }
    memcpy(c->held, c->line, c->cap);
    for (size_t k = 0; k < e->n; k++) {
        e->key[k] = c->held + (e->key[k] - c->line);
        e->val[k] = c->held + (e->val[k] - c->line);
    }
    return read_ahead(c) < 0 ? -1 : 1;
}

int osctx_finish(osctx *c, uint64_t nrec)
{
    if (c->f && c->have) {
        cli_error("%s:%lu: record %" PRIu64 " is beyond the trace's %" PRIu64
                  " records: the table describes another trace", c->path,
                  c->lineno, c->rec, nrec);
        return -1;
    }
    return 0;
}

void osctx_close(osctx *c)
{
    cli_in_close(c->f);
    free(c->line);
    free(c->held);
    free(c->path);
    memset(c, 0, sizeof *c);
}

const char *osctx_get(const osctx_entry *e, const char *key)
{
    for (size_t k = 0; k < e->n; k++)
        if (!strcmp(e->key[k], key))
            return e->val[k];
    return NULL;
}

int osctx_num(const osctx_entry *e, const char *key, uint64_t *v)
{
    const char *s = osctx_get(e, key);
    char *end;
    return s && !parse_u64(s, &end, v) && !*end;
}
