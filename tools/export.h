/*
 * export.h - `trc export`'s shared state: the trace, read twice (pass 1
 * pairs entries with exits and keeps one flag byte per record, pass 2
 * writes), and the output options. Internal to tools/.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include "host_common.h"

#define OS_TID 999999999u /* Perfetto track of the OS records */
/* flags: matched pair; entry open at the end; beyond HOST_MAX_DEPTH */
enum { F_MATCH = 1, F_OPEN = 2, F_DEEP = 4 };

typedef struct {
    const cli_args *a;
    const char *in;
    host_trace tr;
    FILE *spool;     /* stdin, copied to a temporary file to be read twice */
    size_t n;        /* records */
    uint8_t *flag;   /* per record */
    uint32_t *thread; /* thread values seen (thread records), 0 first */
    size_t nthread;
    uint64_t unmatched_exit, unwound, open_end, too_deep;
    uint32_t thread_type;
    uint64_t t0_ns;  /* 0 unless known */
    int t0_known;
    unsigned ncpu;   /* CPUs of the trace (docs/format.md 4.8) */
    unsigned char cpu_ok[TRC_CPU_MAX]; /* --cpu: the CPUs exported */
} trace;

/* (Re)opens the trace for a pass. 0 ok, -1 error (message printed). */
int src_open(trace *t);
/* 1 record, 0 end, -1 error (message printed). */
int src_next(trace *t, trc_record *r);
/* The CPU of the record src_next() gave last. */
unsigned src_cpu(const trace *t);

int export_json(trace *t, const char *out);
int export_ctf(trace *t, const char *dir);

#endif /* EXPORT_H */
