/*
 * ftrace_parse.c - ftrace text lines to mapped OS events:
 *   TASK-PID [CPU] [FLAGS] SECONDS.FRACTION: EVENT: ARGS
 * (TASK may hold spaces and dashes; a stamp without a fraction is a counter
 * clock, taken as ns). Every event name is counted, mapped or not, in the
 * event table of ftrace_map.c.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"

/* "SECONDS.FRACTION" (any number of fraction digits) or a counter -> ns.
 * 0 ok, -1 not a stamp, -2 a stamp beyond 2^64 - 1 ns. */
static int parse_ts(const char *s, size_t len, uint64_t *ns)
{
    uint64_t sec = 0, frac = 0;
    size_t i = 0, fd = 0;
    int over = 0;
    if (!len || !isdigit((unsigned char)s[0]))
        return -1;
    for (; i < len && isdigit((unsigned char)s[i]); i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (sec > (UINT64_MAX - d) / 10)
            over = 1;
        else
            sec = sec * 10 + d;
    }
    if (i == len) { /* a counter clock, taken as ns */
        *ns = sec;
        return over ? -2 : 0;
    }
    if (s[i] != '.')
        return -1;
    for (i++; i < len && isdigit((unsigned char)s[i]); i++, fd++)
        if (fd < 9)
            frac = frac * 10 + (uint64_t)(s[i] - '0');
    if (fd == 0 || i != len)
        return -1;
    for (; fd < 9; fd++)
        frac *= 10;
    if (over || sec > (UINT64_MAX - frac) / 1000000000u)
        return -2;
    *ns = sec * 1000000000u + frac;
    return 0;
}

/* Finds "FIELD=NUMBER" in args; trace-cmd's own formats for sched_switch
 * ("... ==> comm:pid [prio]") and sched_wakeup ("comm:pid [prio] ...") as a
 * fallback. 0 ok, -1 missing. */
static int get_field(const char *args, const char *field, uint64_t *v)
{
    size_t fl = strlen(field);
    const char *end;
    for (const char *s = args; (s = strstr(s, field)) != NULL; s += fl) {
        if ((s == args || s[-1] == ' ') && s[fl] == '=') {
            if (ft_parse_num(s + fl + 1, &end, v) ||
                (*end && *end != ' ' && *end != ','))
                return -1;
            return 0;
        }
    }
    const char *tok = NULL;
    if (!strcmp(field, "next_pid")) {
        const char *arrow = strstr(args, "==>");
        if (arrow)
            tok = arrow + 3;
    } else if (!strcmp(field, "pid") || !strcmp(field, "child_pid")) {
        tok = args;
    }
    if (!tok)
        return -1;
    while (*tok == ' ')
        tok++;
    const char *stop = tok;
    while (*stop && *stop != ' ')
        stop++;
    const char *colon = NULL;
    for (const char *c = tok; c < stop; c++)
        if (*c == ':')
            colon = c;
    if (!colon || colon + 1 == stop || !isdigit((unsigned char)colon[1]) ||
        ft_parse_num(colon + 1, &end, v) || end != stop)
        return -1;
    return 0;
}

/* The running task "TASK-PID" before the CPU field (a trace-cmd
 * "INSTANCE:" prefix skipped): its start is *task, the length returned. */
static size_t task_of(const char *s, const char *cpu, const char **task)
{
    const char *e = cpu;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    const char *b = s;
    const char *sp = memchr(b, ' ', (size_t)(e - b));
    if (sp && sp > b && sp[-1] == ':') { /* "trcx:   <idle>-0" */
        b = sp;
        while (b < e && *b == ' ')
            b++;
    }
    *task = b;
    return (size_t)(e - b);
}

/* An irq_handler_entry or softirq_entry just pushed is the open one of its
 * CPU until its exit event comes. */
static void start_irq(ft_import *m, const char *ev, uint64_t cpu)
{
    if (cpu >= FT_MAX_CPUS)
        return;
    if (!strcmp(ev, "irq_handler_entry"))
        m->irq_open[cpu] = m->nos;
    else if (!strcmp(ev, "softirq_entry"))
        m->sirq_open[cpu] = m->nos;
}

/* irq_handler_exit / softirq_exit: the duration of the open entry of the
 * same CPU with the same irq or vec (counted when there is none). */
static void end_irq(ft_import *m, const char *ev, const char *args,
                    uint64_t cpu, uint64_t ns)
{
    int irq = !strcmp(ev, "irq_handler_exit");
    if (!irq && strcmp(ev, "softirq_exit"))
        return;
    size_t *open = cpu < FT_MAX_CPUS ? (irq ? &m->irq_open[cpu]
                                            : &m->sirq_open[cpu]) : NULL;
    uint64_t v, ev_v;
    ft_os *o = open && *open ? &m->os[*open - 1] : NULL;
    const char *f = irq ? "irq" : "vec";
    if (!o || get_field(args, f, &v) || ns < o->ns ||
        !(ft_ctx_value(m, o, f, &ev_v) && ev_v == v)) {
        m->exits_unmatched++;
        return;
    }
    o->dur_ns = ns - o->ns;
    o->has_dur = 1;
    *open = 0;
    m->exits_used++;
}

static int push_os(ft_import *m, uint64_t ns, uint32_t type, uint32_t value)
{
    if (m->nos == m->capos) {
        size_t n = m->capos ? m->capos * 2 : 1024;
        ft_os *t = realloc(m->os, n * sizeof *t);
        if (!t)
            return -1;
        m->os = t;
        m->capos = n;
    }
    memset(&m->os[m->nos], 0, sizeof m->os[m->nos]);
    m->os[m->nos].ns = ns;
    m->os[m->nos].type = type;
    m->os[m->nos].value = value;
    m->nos++;
    return 0;
}

/* The CPU field: " [digits]" (TASK may contain spaces and dashes). */
static char *cpu_field(char *s)
{
    for (char *c = s; (c = strchr(c, '[')) != NULL; c++) {
        char *d = c + 1;
        if (c > s && c[-1] == ' ' && isdigit((unsigned char)*d)) {
            while (isdigit((unsigned char)*d))
                d++;
            if (*d == ']')
                return c;
        }
    }
    return NULL;
}

int ft_line(ft_import *m, char *line, const trc_params *p)
{
    char *s = line;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s || *s == '\n' || *s == '\r' || *s == '#') {
        m->comments++;
        return 0;
    }
    char *cpu = cpu_field(s);
    if (!cpu)
        goto unparsed;
    uint64_t cpun = 0;
    const char *cend;
    if (ft_parse_num(cpu + 1, &cend, &cpun))
        cpun = UINT64_MAX;
    char *t = strchr(cpu, ']') + 1;
    /* Up to two tokens (flags, then the timestamp ending in ':'). */
    uint64_t ns = 0;
    int ts = -1;
    for (int k = 0; k < 2 && ts == -1; k++) {
        while (*t == ' ')
            t++;
        char *e = t;
        while (*e && *e != ' ')
            e++;
        if (e > t && e[-1] == ':')
            ts = parse_ts(t, (size_t)(e - t - 1), &ns);
        t = e;
    }
    if (ts == -1)
        goto unparsed;
    while (*t == ' ')
        t++;
    char *name = t;
    while (*t && *t != ':' && *t != ' ')
        t++;
    if (*t != ':' || t == name)
        goto unparsed;
    ft_event *ev = ft_event_get(m, name, (size_t)(t - name));
    if (!ev) {
        if ((size_t)(t - name) >= FT_NAME_MAX)
            goto unparsed;
        return -1;
    }
    if (ts == -2) { /* counted apart: an event, but its time does not fit */
        ev->seen++;
        m->range++;
        return 1;
    }
    char *args = t + 1;
    while (*args == ' ')
        args++;
    args[strcspn(args, "\r\n")] = 0;
    ev->seen++;
    if (m->cpu_filter && (cpun >= FT_MAX_CPUS || !m->cpu_ok[cpun])) {
        ev->cpu_out++;
        return 1;
    }
    end_irq(m, ev->name, args, cpun, ns);
    if (!ev->mapped)
        return 1;
    uint64_t v;
    if (get_field(args, ev->field, &v)) {
        ev->novalue++;
        return 1;
    }
    uint64_t vmax = p->val_w >= 32 ? 0xFFFFFFFFu : (1u << p->val_w) - 1u;
    if (v > vmax) {
        m->cut++;
        v &= vmax;
    }
    if (push_os(m, ns, ev->type, (uint32_t)v))
        return -1;
    ft_os *o = &m->os[m->nos - 1];
    o->cpu = cpun < FT_MAX_CPUS ? (uint32_t)cpun : UINT32_MAX;
    const char *task;
    size_t tlen = task_of(s, cpu, &task);
    if (ft_ctx_build(m, ev->name, task, tlen, (unsigned long)cpun, args,
                     &o->ctx, &o->ctx_len))
        return -1;
    start_irq(m, ev->name, cpun);
    ev->out++;
    return 1;
unparsed:
    m->unparsed++;
    return 0;
}
