/*
 * ftrace.h - parsing ftrace text (the tracefs `trace` file, `trace-cmd
 * report` output) into mapped OS events, for `trc import-ftrace`. Internal to
 * tools/; rules in docs/host-tools.md.
 */
#ifndef FTRACE_H
#define FTRACE_H

#include <stdint.h>
#include "trc.h"

#define FT_MAX_CPUS 1024
#define FT_NAME_MAX 64

typedef struct {
    char name[FT_NAME_MAX];
    uint64_t seen;     /* lines of this event (all CPUs) */
    uint64_t cpu_out;  /* dropped by the CPU filter */
    uint64_t out;      /* OS records written */
    uint64_t novalue;  /* mapped but the field was missing */
    int mapped;
    uint32_t type;
    char field[32];
} ft_event;

typedef struct {
    uint64_t ns;      /* absolute timestamp */
    uint32_t type, value;
    uint64_t ctx;     /* its OS context: m->ctx[ctx .. ctx + ctx_len) */
    uint32_t ctx_len;
    uint32_t cpu;     /* Linux CPU of the event */
    uint64_t dur_ns;  /* irq/softirq entries: time to their exit; */
    int has_dur;      /* has_dur = 0 when no exit event followed */
    uint64_t rec;     /* its record index in the output (UINT64_MAX: none) */
} ft_os;

typedef struct {
    ft_event *ev;      /* every distinct event name, in order of appearance */
    size_t nev, capev;
    uint32_t *hash;    /* name -> ev index + 1 (0: empty), open addressing */
    size_t hcap;
    unsigned char cpu_ok[FT_MAX_CPUS];
    int cpu_filter;
    uint64_t lines, comments, unparsed, cut, range;
    ft_os *os;         /* the mapped events, in file order */
    size_t nos, capos;
    /* OS context (ftrace_ctx.c): "KEY=VALUE ..." of each mapped event */
    char *ctx;
    size_t nctx, capctx, ctx_start;
    /* irq_handler_exit / softirq_exit end the open entry of their CPU */
    size_t irq_open[FT_MAX_CPUS], sirq_open[FT_MAX_CPUS]; /* os index + 1 */
    uint64_t exits_used, exits_unmatched;
} ft_import;

/* "EVENT=TYPE[:FIELD]" or "EVENT=none": 0 ok, -1 bad (type must be below
 * the reserved types of p; a new event needs its field). */
int ft_map(ft_import *m, const char *spec, const trc_params *p);
/* The default mapping (docs/host-tools.md). */
void ft_default_map(ft_import *m, const trc_params *p);
/* "0" or "0,2-3": 0 ok, -1 bad. */
int ft_cpus(ft_import *m, const char *list);
/* One line: 1 event taken, 0 not an event line (counted), -1 out of memory. */
int ft_line(ft_import *m, char *line, const trc_params *p);
void ft_free(ft_import *m);
/* The table entry of event name[0..len), added (unmapped) when new; NULL
 * when the name is too long or memory runs out (ftrace_map.c). */
ft_event *ft_event_get(ft_import *m, const char *name, size_t len);
/* Decimal, or hex with 0x: 0 ok (*end after the digits), -1 bad. */
int ft_parse_num(const char *s, const char **end, uint64_t *v);
/* The OS context of one event line into m->ctx (see ftrace_ctx.c): the
 * event, its CPU, the running task (TASK-PID, task[0..tlen)) and the
 * fields of args. 0 ok (*off, *len set), -1 out of memory. */
int ft_ctx_build(ft_import *m, const char *ev, const char *task, size_t tlen,
                 unsigned long cpu, const char *args, uint64_t *off,
                 uint32_t *len);
/* The number that KEY has in o's context: 1 found (*v set), 0 not. */
int ft_ctx_value(const ft_import *m, const ft_os *o, const char *key,
                 uint64_t *v);

#endif /* FTRACE_H */
