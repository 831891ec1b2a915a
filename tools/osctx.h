/*
 * osctx.h - the OS context table that `trc import-ftrace` writes beside its
 * output (X.osctx; docs/host-tools.md): one line per OS record,
 *   RECORD TYPE VALUE KEY=VALUE...
 * RECORD is the record's index in the trace, TYPE and VALUE repeat the
 * record (the reader checks them against the trace, so a table never
 * describes another trace), and the KEY=VALUE fields (values %-escaped) hold
 * what the stream has no room for: the event's name, the Linux CPU it
 * happened on, the running task, comm, prev_state, IRQ names, durations.
 * The table is read in step with the trace, so memory stays one line.
 * Internal to tools/.
 */
#ifndef OSCTX_H
#define OSCTX_H

#include <stdint.h>
#include <stdio.h>
#include "trc.h"

#define OSCTX_MAX_FIELDS 32

typedef struct {
    size_t n;
    const char *key[OSCTX_MAX_FIELDS], *val[OSCTX_MAX_FIELDS];
} osctx_entry;

typedef struct {
    FILE *f;
    char *path;
    char *line;        /* the line read ahead (NULL at the end) */
    size_t cap;
    unsigned long lineno;
    uint64_t rec;      /* its RECORD */
    uint32_t type, value;
    int have;          /* 1: a line is read ahead */
    uint64_t used;     /* lines read so far */
    char *held;        /* the line handed out (osctx_entry points into it) */
    size_t held_cap;
} osctx;

/* Opens path (NULL: none; every lookup then finds nothing). 0 ok, -1 on
 * error (message printed). */
int osctx_open(osctx *c, const char *path);
/* The context of record i (records are asked for in increasing order):
 * 1 found (*e filled, valid until the next call), 0 none, -1 on error
 * (message naming the table's line: malformed, out of order, or a line
 * whose TYPE and VALUE are not record i's). */
int osctx_at(osctx *c, uint64_t i, const trc_record *r, osctx_entry *e);
/* At the end of the trace: -1 (message printed) when lines are left over. */
int osctx_finish(osctx *c, uint64_t nrec);
void osctx_close(osctx *c);
/* The value of key, NULL when absent. */
const char *osctx_get(const osctx_entry *e, const char *key);
/* The value of key as a number: 1 found (*v set), 0 absent or not a number. */
int osctx_num(const osctx_entry *e, const char *key, uint64_t *v);

#endif /* OSCTX_H */
