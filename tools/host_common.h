/*
 * host_common.h - what the host tools (import-ftrace, export, calltree) share:
 * a trace opened with its symbol map and time base, the symbol map of the
 * capture library, names of OS info types, the entry/exit pairing, and a
 * record writer (trace text v1 or .trc container) to a safe output file.
 * See docs/host-tools.md for the file formats.
 */
#ifndef HOST_COMMON_H
#define HOST_COMMON_H

#include <stdint.h>
#include "trc_cli.h"

/* ---- Symbol map ----------------------------------------------------------
 * One line per function: "ID NAME [ADDRESS MODULE OFFSET]"; '#' comment lines,
 * among them the time base line. Written by the capture library. */
typedef struct host_symmap host_symmap;
/* NULL on error (message printed). */
host_symmap *host_symmap_load(const char *path);
/* The name of id, or NULL when the map has none. */
const char *host_symmap_name(const host_symmap *m, uint32_t id);
/* The run-time address of id (third field, 0x...): 1 when the map has it. */
int host_symmap_addr(const host_symmap *m, uint32_t id, uint64_t *addr);
/* The map's time base (known = 0 when it has none). */
host_timebase host_symmap_timebase(const host_symmap *m);
/* The Linux tid of capture thread idx ("# trc-thread IDX tid=TID" lines);
 * 0 when the map does not say. */
long host_symmap_tid(const host_symmap *m, uint32_t idx);
/* Looks up a name; returns 1 and sets *id when found (lowest id wins). */
int host_symmap_find(const host_symmap *m, const char *name, uint32_t *id);
void host_symmap_free(host_symmap *m);

/* The symbol map beside a trace: TRACE with a .txt/.trc/.xz/.zst/.gz ending
 * replaced by ".sym" (or ".sym" appended). Returns a malloc'd path when that
 * file exists, else NULL. */
char *host_sidecar_symmap(const char *trace_path);
/* The same path whether the file exists or not (NULL for "-"). */
char *host_sidecar_path(const char *trace_path);
/* The same with another ending (".osctx"), and only when it exists. */
char *host_sidecar_named(const char *trace_path, const char *ext);
char *host_sidecar_existing(const char *trace_path, const char *ext);

/* A function's printable name: the map's, else "f<ID>" written into buf. */
const char *host_fn_name(const host_symmap *m, uint32_t id, char buf[24]);

/* ---- A trace with its symbol map and time base ---------------------------
 * Each field of the time base (trc_cli.h) is looked up in this order: the
 * option (--tick), the trace's own leading comment lines, the symbol map
 * (--syms, else the one beside the trace; standard input has none beside
 * it), and for the tick the default, 10 ns. */
typedef struct {
    cli_reader *rd;
    host_symmap *sym; /* NULL when there is none */
    host_timebase tb;
    uint64_t tick_ns;
    int tick_assumed; /* 1: no --tick and no time base gave it (default) */
} host_trace;
/* Opens path with a's --syms, --tick, --raw and format options. 0 ok,
 * -1 on error (message printed). */
int host_trace_open(host_trace *t, const cli_args *a, const char *path);
/* The same for t->rd already open (on a copy of stdin, say). */
int host_trace_setup(host_trace *t, const cli_args *a, const char *path);
void host_trace_close(host_trace *t);
/* Says on stderr "CMD: PATH states no tick ...: 10 ns assumed" when the
 * tick is the default (for commands that print durations). */
void host_trace_note(const host_trace *t, const char *cmd, const char *path);

/* ---- OS info types -------------------------------------------------------
 * Defaults of `trc import-ftrace` and the capture library's thread record. */
enum {
    HOST_OS_SCHED_SWITCH = 1, /* value: next_pid */
    HOST_OS_IRQ = 2,          /* irq_handler_entry, value: irq */
    HOST_OS_SOFTIRQ = 3,      /* softirq_entry, value: vec */
    HOST_OS_WAKEUP = 4,       /* sched_wakeup, value: pid */
    HOST_OS_FORK = 5,         /* sched_process_fork, value: child_pid */
    HOST_OS_EXIT = 6,         /* sched_process_exit, value: pid */
    HOST_OS_THREAD = 7        /* capture library: value = thread index */
};
/* A short name for an OS info type ("sched_switch", ..., "os<T>" in buf). */
const char *host_os_name(uint32_t type, char buf[24]);
/* The thread record type of a's --thread-type (default 7; 0: none). */
uint32_t host_thread_type(const cli_args *a);

/* ---- Entry/exit pairing (host_pairs.c) -----------------------------------
 * Per thread (type-T OS records switch threads), an exit closes the innermost
 * open entry of its function; the entries above it were left by longjmp
 * (unwound). The stack of a thread holds at most HOST_MAX_DEPTH entries;
 * deeper ones are counted and their exits absorbed, so a crafted trace cannot
 * make it grow without bound. */
#define HOST_MAX_DEPTH 16384
typedef struct {
    uint32_t fn;
    uint64_t tag;   /* the caller's: a record index, a tree node */
    uint64_t start; /* the caller's: a time */
} host_frame;
typedef struct {
    uint32_t id;    /* thread record value */
    host_frame *st;
    size_t depth, cap;
    uint64_t deep;  /* entries beyond HOST_MAX_DEPTH still open */
    uint64_t user;  /* the caller's */
} host_thread;
typedef struct {
    host_thread *th;
    size_t nth, cap, cur;
    size_t *hash, hcap; /* thread value -> index */
    uint64_t too_deep; /* entries beyond HOST_MAX_DEPTH in all */
} host_pairs;
/* 0 ok, -1 out of memory (message printed). Thread 0 exists from the start. */
int host_pairs_init(host_pairs *hp);
/* Switches to the thread with value id (created when new: *is_new = 1). */
int host_pairs_thread(host_pairs *hp, uint32_t id, int *is_new);
/* An entry of fn: 1 pushed, 0 beyond the depth limit, -1 out of memory. */
int host_pairs_entry(host_pairs *hp, uint32_t fn, uint64_t tag, uint64_t start);
/* An exit of fn: the number of frames it closes (its entry and the unwound
 * ones above it), now at cur->st[cur->depth .. + n), innermost last; 0 when
 * no entry of fn is open; -1 when it closes an entry beyond the limit. */
long host_pairs_exit(host_pairs *hp, uint32_t fn);
static inline host_thread *host_pairs_cur(host_pairs *hp)
{
    return &hp->th[hp->cur];
}
void host_pairs_free(host_pairs *hp);

/* ---- Record writer ---------------------------------------------------------
 * The model's trc_writer on a safe output file: a path ending in ".trc" gets
 * a container, anything else trace text v1. */
typedef struct host_writer host_writer;
/* 1: path gets a container (it ends in ".trc"). */
int host_writer_is_trc(const char *path);
/* comment: leading '#' lines for text (may be NULL). inputs: as
 * cli_out_open. NULL on error (message printed). */
host_writer *host_writer_open(const char *path, const trc_params *p,
                              const char *comment, const char *const *inputs);
/* 0 ok, -1 error (message printed, naming the record index). */
int host_writer_put(host_writer *w, const trc_record *r);
/* keep: finish and rename into place; 0: discard. 0 ok, -1 on error. */
int host_writer_close(host_writer *w, int keep);

/* ---- CPUs (several CPUs, docs/format.md 4.9) -------------------------------
 * The CPUs of --cpu LIST ("0,2-3") of a trace of ncpu CPUs, ok[k] = 1 for
 * each; all of them without --cpu. 0 ok, -1 bad list or a CPU past the
 * trace's (message printed). */
int host_cpus(const cli_args *a, unsigned ncpu, unsigned char ok[TRC_CPU_MAX]);

/* ---- Small helpers -------------------------------------------------------- */
/* Parses an unsigned decimal, or 0x-hex, 64-bit number; 0 ok, -1 bad. */
int host_parse_u64(const char *s, uint64_t *v);

#endif /* HOST_COMMON_H */
