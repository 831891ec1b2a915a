/*
 * host_common.h - what the host tools (import-ftrace, export, calltree) share:
 * the time base of a trace, the symbol map of the capture library, names of
 * OS info types, and a record writer (trace text v1 or .trc container).
 * See docs/host-tools.md for the file formats.
 */
#ifndef HOST_COMMON_H
#define HOST_COMMON_H

#include <stdint.h>
#include "trc_cli.h"

/* ---- Time base -----------------------------------------------------------
 * A trace's records hold deltas only. Its time base says what the first delta
 * counts from: the first record happens at t0_ns + delta0 * tick_ns on the
 * named clock (CLOCK_MONOTONIC for the capture library and ftrace's "mono").
 * It travels as one comment line, in the text trace and in the symbol map:
 *   # trc-timebase clock=monotonic tick_ns=10 t0_ns=544262849000
 */
typedef struct {
    int known;        /* 1 when t0_ns is known */
    uint64_t t0_ns;   /* absolute start, ns on the clock */
    uint64_t tick_ns; /* tick length in ns (0 = not stated) */
} host_timebase;

/* Parses "# trc-timebase ..." (leading '#' and spaces optional). 1 when the
 * line is a time base line (fields filled), 0 otherwise. */
int host_timebase_parse(const char *line, host_timebase *tb);
/* Formats the comment line, newline included. */
void host_timebase_format(const host_timebase *tb, char *out, size_t cap);
/* Looks for a time base line among the leading comment lines of a text
 * file. 1 found, 0 not found (or not a text file / cannot be read). */
int host_timebase_from_file(const char *path, host_timebase *tb);

/* ---- Symbol map ----------------------------------------------------------
 * One line per function: "ID NAME [ADDRESS MODULE OFFSET]"; '#' comment lines,
 * among them the time base line. Written by the capture library. */
typedef struct host_symmap host_symmap;
/* NULL on error (message printed). */
host_symmap *host_symmap_load(const char *path);
/* The name of id, or NULL when the map has none. */
const char *host_symmap_name(const host_symmap *m, uint32_t id);
/* The map's time base (known = 0 when it has none). */
host_timebase host_symmap_timebase(const host_symmap *m);
/* The Linux tid of capture thread idx ("# trc-thread IDX tid=TID" lines);
 * 0 when the map does not say. */
long host_symmap_tid(const host_symmap *m, uint32_t idx);
/* Looks up a name; returns 1 and sets *id when found (first id wins). */
int host_symmap_find(const host_symmap *m, const char *name, uint32_t *id);
void host_symmap_free(host_symmap *m);

/* The symbol map beside a trace: TRACE with a .txt/.trc/.xz/.gz ending
 * replaced by ".sym" (or ".sym" appended). Returns a malloc'd path when that
 * file exists, else NULL. */
char *host_sidecar_symmap(const char *trace_path);
/* The same path whether the file exists or not (NULL for "-"). */
char *host_sidecar_path(const char *trace_path);

/* A function's printable name: the map's, else "f<ID>" written into buf. */
const char *host_fn_name(const host_symmap *m, uint32_t id, char buf[24]);

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

/* ---- Record writer -------------------------------------------------------- */
typedef struct host_writer host_writer;
/* Opens path ("-" = stdout) for records. A path ending in ".trc" gets a .trc
 * container through the model encoder; anything else trace text v1, whose
 * first lines are `comment` (may be NULL; each line must start with '#').
 * NULL on error (message printed). */
host_writer *host_writer_open(const char *path, const trc_params *p,
                              const char *comment);
/* 0 ok, -1 error (message printed, naming the record index). */
int host_writer_put(host_writer *w, const trc_record *r);
/* Flushes (END record for .trc) and closes. 0 ok, -1 on error. */
int host_writer_close(host_writer *w);

/* ---- Small helpers -------------------------------------------------------- */
/* Parses a decimal or 0x-hex unsigned 64-bit number; 0 ok, -1 bad. */
int host_parse_u64(const char *s, uint64_t *v);

#endif /* HOST_COMMON_H */
