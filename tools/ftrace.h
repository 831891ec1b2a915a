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
    uint64_t ns; /* absolute timestamp */
    uint32_t type, value;
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

#endif /* FTRACE_H */
