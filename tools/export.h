/*
 * export.h - `trc export`'s shared state: the trace, read twice (pass 1
 * pairs entries with exits and keeps one flag byte per record, pass 2
 * writes), and the output options. Internal to tools/.
 */
#ifndef EXPORT_H
#define EXPORT_H

#include "host_common.h"
#include "osctx.h"

#define OS_TID 999999999u /* Perfetto track of the OS records */
/* flags: matched pair; entry open at the end; beyond HOST_MAX_DEPTH; entry
 * unwound by a later exit of a caller (longjmp) */
enum { F_MATCH = 1, F_OPEN = 2, F_DEEP = 4, F_UNWOUND = 8 };

/* An entry unwound by a later exit: where its frame ended. */
typedef struct {
    uint64_t rec; /* the entry's record index */
    uint64_t end; /* ticks from the start to the exit that unwound it */
} unwound_end;

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
    unwound_end *unw; /* by record index */
    size_t nunw;
    char *ctx_path;  /* the OS context table, NULL when there is none */
    uint64_t ctx_records; /* OS records it described (pass 2) */
    unsigned ncpu;   /* CPUs of the trace (docs/format.md 4.9) */
    unsigned char cpu_ok[TRC_CPU_MAX]; /* --cpu: the CPUs exported */
} trace;

/* (Re)opens the trace for a pass. 0 ok, -1 error (message printed). */
int src_open(trace *t);
/* 1 record, 0 end, -1 error (message printed). */
int src_next(trace *t, trc_record *r);
/* After pass 1's t->n records: 0 when the trace ends there too, else -1
 * with a message (the input changed between the passes). */
int src_end(trace *t);
/* The CPU of the record src_next() gave last. */
unsigned src_cpu(const trace *t);

int export_json(trace *t, const char *out);
int export_ctf(trace *t, const char *dir);
/* Where entry record i (flag F_UNWOUND) ended, in ticks; *k walks the
 * sorted table in step with i. */
uint64_t unwound_end_of(const trace *t, size_t *k, uint64_t i);

/* ---- JSON output (export_json.c), shared with export_os.c ---------------- */
typedef struct {
    FILE *f;
    size_t n;
    char b[1 << 16];
} jbuf;
void jflush(jbuf *j);
void jwrite(jbuf *j, const char *s, size_t n);
void jputs(const char *s, jbuf *j);
void jprintf(jbuf *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void json_str(jbuf *f, const char *s);
void json_ts(jbuf *f, unsigned __int128 ns); /* us with ns digits */
void put_u64(jbuf *f, uint64_t v);

/* ---- Linux CPU tracks from the OS context (export_os.c) -----------------
 * Per Linux CPU of the ftrace events: a scheduling track (one thread slice
 * per sched_switch, to the next switch on that CPU), an irq and a softirq
 * track; other OS events with context are instants on the CPU's track. */
typedef struct os_tracks os_tracks;
os_tracks *os_tracks_new(void); /* NULL: out of memory (message printed) */
/* The event of OS record i (context e) at ns, written as ",\n{...}" (a
 * sched_switch's slice later, when its end is known): 1 done, 0 when e
 * gives no usable CPU (the caller writes the plain OS instant), -1 out of
 * memory. */
int os_tracks_event(os_tracks *o, jbuf *f, unsigned __int128 ns, uint64_t i,
                    const trc_record *r, const osctx_entry *e);
/* The Linux tids of the capture's threads, to be named by the context's
 * comms (os_tracks_comm: NULL when it named none). 0 ok, -1 out of memory. */
int os_tracks_watch(os_tracks *o, const long *tids, size_t n);
const char *os_tracks_comm(const os_tracks *o, long tid);
/* Ends the open thread slices at end_ns and names the tracks. */
void os_tracks_finish(os_tracks *o, jbuf *f, unsigned __int128 end_ns);
void os_tracks_free(os_tracks *o);

#endif /* EXPORT_H */
